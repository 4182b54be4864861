//! Corvid's conduct in a game against a person or a GUI: when it accepts a draw offer, when it offers one and
//! when it resigns. `play` and the CECP front end share it; the rules ([`crate::rules`]) say what is allowed,
//! this module what Corvid chooses.

pub use crate::rules::DrawMaterial;
use crate::rules::{Record, Rules};
use crate::search::Score;
use crate::types::Color;

/// When Corvid accepts, offers and resigns. Scores are centipawns from Corvid's point of view.
///
/// A draw is accepted when too little material is left for either side to win, when Corvid's own searches
/// have scored the position as a dead draw (exactly 0, [`Policy::fortress_streak`] times in a row: a
/// repetition or fortress it cannot break), or when Corvid is worse: at most [`Policy::accept_draw_cp`] in
/// the endgame, at most [`Policy::accept_middlegame_cp`] (clearly worse) before it. The score is first
/// raised by [`Policy::contempt_cp`], which a front end sets from Corvid's strength against its opponent's.
///
/// Corvid offers a draw only where a person would: in a dead position (nobody has the material to win, or its
/// searches see a repetition or fortress) or a balanced one (within [`Policy::offer_balance_cp`] of equal,
/// contempt included), when that has held for its last [`Policy::offer_draw_streak`] moves. A worse Corvid
/// takes an offer but does not make one: it plays on, or resigns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Accept an offer in the endgame when Corvid's evaluation is at most this (it is worse).
    pub accept_draw_cp: i32,
    /// Accept an offer in the opening and middlegame when Corvid's evaluation is at most this (clearly worse).
    pub accept_middlegame_cp: i32,
    /// Added to Corvid's evaluation before deciding: a stronger Corvid plays on for a win.
    pub contempt_cp: i32,
    /// Scores of exactly 0 in this many of Corvid's searches in a row make a dead draw.
    pub fortress_streak: usize,
    /// Offer draws at all.
    pub offer_draws: bool,
    /// Offer when Corvid would have accepted after each of its last this many moves ...
    pub offer_draw_streak: usize,
    /// ... and at least this many full moves have been played.
    pub offer_draw_after: u32,
    /// A position is balanced (a draw may be offered) when Corvid's evaluation plus contempt is within this
    /// many centipawns of 0, either way.
    pub offer_balance_cp: i32,
    /// Resign at all.
    pub resign: bool,
    /// Resign when the evaluation was at most minus this ...
    pub resign_cp: i32,
    /// ... for this many of Corvid's moves in a row (a mate found against it resigns at once).
    pub resign_moves: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            accept_draw_cp: -25,
            accept_middlegame_cp: -150,
            contempt_cp: 0,
            fortress_streak: 6,
            offer_draws: true,
            offer_draw_streak: 4,
            offer_draw_after: 30,
            offer_balance_cp: 25,
            resign: true,
            resign_cp: 900,
            resign_moves: 4,
        }
    }
}

/// Corvid's full strength on the `UCI_Elo` scale (what an unlimited Corvid counts as for contempt): the
/// calibrated ceiling of `search::strength`.
pub const FULL_STRENGTH_ELO: u32 = crate::search::strength::FULL_STRENGTH;

/// Corvid's strength for contempt: its `UCI_Elo` setting when limited (a setting above the full engine counts
/// as the full engine), else the full engine.
pub fn own_strength(limit: Option<u32>) -> u32 {
    limit.map_or(FULL_STRENGTH_ELO, |elo| elo.min(FULL_STRENGTH_ELO))
}

/// Contempt for an opponent `opponent_elo` strong when Corvid plays at `own_elo`: a tenth of a pawn for
/// every 200 Elo Corvid is the stronger, at most one pawn; none against an equal or stronger opponent.
pub fn contempt_cp(own_elo: u32, opponent_elo: u32) -> i32 {
    ((own_elo as i32 - opponent_elo as i32) / 20).clamp(0, 100)
}

/// A score as one comparable number: mates beyond every centipawn value.
pub fn score_value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// Corvid's conduct during one game: the policy and the evaluations of its own moves so far.
#[derive(Clone, Debug, Default)]
pub struct Conduct {
    pub policy: Policy,
    /// Corvid's evaluation after each of its searches, its own point of view.
    scores: Vec<Score>,
}

impl Conduct {
    pub fn new(policy: Policy) -> Conduct {
        Conduct {
            policy,
            scores: Vec::new(),
        }
    }

    /// Forgets the scores (a new game).
    pub fn reset(&mut self) {
        self.scores.clear();
    }

    /// Records the evaluation of the search that chose Corvid's move.
    pub fn record(&mut self, score: Score) {
        self.scores.push(score);
    }

    /// The last recorded evaluation.
    pub fn last(&self) -> Option<Score> {
        self.scores.last().copied()
    }

    /// Does Corvid accept a draw offer, its evaluation being `score` and the material `material`?
    pub fn accepts_draw(&self, score: Score, material: DrawMaterial) -> bool {
        let p = &self.policy;
        if matches!(score, Score::Mate(n) if n > 0) {
            // A mate found is played out, whatever the material.
            return false;
        }
        if material.no_winning_material || self.dead_draw() {
            return true;
        }
        let limit = if material.endgame {
            p.accept_draw_cp
        } else {
            p.accept_middlegame_cp
        };
        score_value(score).saturating_add(p.contempt_cp) <= limit
    }

    /// Have Corvid's last searches all scored the position as a draw (a repetition or fortress)?
    fn dead_draw(&self) -> bool {
        let k = self.policy.fortress_streak.max(1);
        self.scores.len() >= k
            && self.scores[self.scores.len() - k..]
                .iter()
                .all(|&s| s == Score::Cp(0))
    }

    /// Should Corvid resign (after recording the evaluation of the current position)?
    pub fn should_resign(&self) -> bool {
        if !self.policy.resign {
            return false;
        }
        if matches!(self.last(), Some(Score::Mate(n)) if n < 0) {
            return true;
        }
        let k = self.policy.resign_moves.max(1);
        self.scores.len() >= k
            && self.scores[self.scores.len() - k..]
                .iter()
                .all(|&s| score_value(s) <= -self.policy.resign_cp)
    }

    /// Should Corvid (playing `me`) offer a draw now? The rules' re-offer limit is part of the answer.
    pub fn should_offer_draw<V: Rules>(&self, game: &Record<V>, me: Color) -> bool {
        self.should_offer_draw_at(
            game.can_offer_draw(me),
            game.fullmove(),
            game.draw_material(),
        )
    }

    /// [`Conduct::should_offer_draw`] for any game: `may_offer` is the rules' answer (the re-offer limit),
    /// `fullmove` the current move number, `material` the position's.
    pub fn should_offer_draw_at(
        &self,
        may_offer: bool,
        fullmove: u32,
        material: DrawMaterial,
    ) -> bool {
        let p = &self.policy;
        let k = p.offer_draw_streak.max(1);
        let dead = material.no_winning_material || self.dead_draw();
        let balanced = |s: Score| matches!(s, Score::Cp(cp) if cp.saturating_add(p.contempt_cp).abs() <= p.offer_balance_cp);
        p.offer_draws
            && may_offer
            && fullmove > p.offer_draw_after
            && self.scores.len() >= k
            && self.scores[self.scores.len() - k..]
                .iter()
                .all(|&s| (dead && !matches!(s, Score::Mate(n) if n > 0)) || balanced(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIDDLEGAME: DrawMaterial = DrawMaterial {
        endgame: false,
        no_winning_material: false,
    };
    const ENDGAME: DrawMaterial = DrawMaterial {
        endgame: true,
        no_winning_material: false,
    };
    const BARE: DrawMaterial = DrawMaterial {
        endgame: true,
        no_winning_material: true,
    };

    #[test]
    fn declines_in_the_middlegame_unless_clearly_worse() {
        let c = Conduct::new(Policy::default());
        // The exploit this policy closes: a draw on move 2 at -0.38.
        assert!(!c.accepts_draw(Score::Cp(-38), MIDDLEGAME));
        assert!(!c.accepts_draw(Score::Cp(0), MIDDLEGAME));
        assert!(!c.accepts_draw(Score::Cp(-149), MIDDLEGAME));
        assert!(c.accepts_draw(Score::Cp(-150), MIDDLEGAME));
        assert!(c.accepts_draw(Score::Mate(-3), MIDDLEGAME));
        assert!(!c.accepts_draw(Score::Mate(5), MIDDLEGAME));
    }

    #[test]
    fn accepts_when_worse_in_the_endgame_or_when_nobody_can_win() {
        let c = Conduct::new(Policy::default());
        assert!(!c.accepts_draw(Score::Cp(0), ENDGAME));
        assert!(c.accepts_draw(Score::Cp(-25), ENDGAME));
        assert!(c.accepts_draw(Score::Cp(80), BARE));
        assert!(!c.accepts_draw(Score::Mate(4), BARE));
    }

    #[test]
    fn a_dead_draw_by_its_own_search_is_accepted() {
        let mut c = Conduct::new(Policy::default());
        for _ in 0..5 {
            c.record(Score::Cp(0));
        }
        assert!(
            !c.accepts_draw(Score::Cp(0), MIDDLEGAME),
            "five zeros are not yet a fortress"
        );
        c.record(Score::Cp(0));
        assert!(c.accepts_draw(Score::Cp(0), MIDDLEGAME));
        c.record(Score::Cp(3));
        assert!(!c.accepts_draw(Score::Cp(3), MIDDLEGAME));
    }

    #[test]
    fn contempt_follows_the_strength_gap() {
        assert_eq!(contempt_cp(3000, 1500), 75);
        assert_eq!(own_strength(Some(1800)), 1800);
        assert_eq!(own_strength(Some(3000)), FULL_STRENGTH_ELO);
        assert_eq!(own_strength(None), FULL_STRENGTH_ELO);
        assert_eq!(contempt_cp(1500, 1500), 0);
        assert_eq!(contempt_cp(1500, 2500), 0);
        assert_eq!(contempt_cp(3000, 0), 100);
        let c = Conduct::new(Policy {
            contempt_cp: 75,
            ..Policy::default()
        });
        // Worse by half a pawn in an endgame: an equal Corvid takes the draw, a much stronger one plays on.
        assert!(Conduct::new(Policy::default()).accepts_draw(Score::Cp(-50), ENDGAME));
        assert!(!c.accepts_draw(Score::Cp(-50), ENDGAME));
        assert!(c.accepts_draw(Score::Cp(-100), ENDGAME));
    }

    #[test]
    fn offers_only_in_balanced_or_dead_positions_over_a_streak() {
        let mut c = Conduct::new(Policy {
            offer_draw_after: 0,
            ..Policy::default()
        });
        for _ in 0..3 {
            c.record(Score::Cp(-20));
        }
        assert!(
            !c.should_offer_draw_at(true, 40, ENDGAME),
            "streak of three"
        );
        c.record(Score::Cp(15));
        assert!(c.should_offer_draw_at(true, 40, ENDGAME));
        assert!(c.should_offer_draw_at(true, 40, MIDDLEGAME));
        assert!(
            !c.should_offer_draw_at(false, 40, ENDGAME),
            "the re-offer rule"
        );
        // Clearly better or clearly worse: no offer (a worse Corvid accepts one, but plays on or resigns).
        c.record(Score::Cp(60));
        assert!(!c.should_offer_draw_at(true, 40, ENDGAME));
        for _ in 0..4 {
            c.record(Score::Cp(-900));
        }
        assert!(c.accepts_draw(Score::Cp(-900), MIDDLEGAME));
        assert!(!c.should_offer_draw_at(true, 40, MIDDLEGAME));
        assert!(!c.should_offer_draw_at(true, 40, ENDGAME));
        // Nobody can win: an offer whatever the evaluation, unless Corvid has found a mate.
        assert!(c.should_offer_draw_at(true, 40, BARE));
        c.record(Score::Mate(3));
        assert!(!c.should_offer_draw_at(true, 40, BARE));
        // A stronger Corvid's contempt makes an even position not balanced for it.
        let mut strong = Conduct::new(Policy {
            offer_draw_after: 0,
            contempt_cp: 75,
            ..Policy::default()
        });
        for _ in 0..4 {
            strong.record(Score::Cp(0));
        }
        assert!(!strong.should_offer_draw_at(true, 40, ENDGAME));
    }
}
