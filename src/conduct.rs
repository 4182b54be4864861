//! Corvid's conduct in a game against a person or a GUI: when it accepts a draw offer, when it offers one and
//! when it resigns. `play` and the CECP front end share it; the rules ([`crate::rules`]) say what is allowed,
//! this module what Corvid chooses.

use crate::rules::{Record, Rules};
use crate::search::Score;
use crate::types::Color;

/// When Corvid accepts, offers and resigns. Scores are centipawns from Corvid's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Accept an offer when Corvid's evaluation is at most this (it is not clearly better).
    pub accept_draw_cp: i32,
    /// Offer draws at all.
    pub offer_draws: bool,
    /// Offer when the last `offer_draw_streak` evaluations all lay within ±this ...
    pub offer_draw_cp: i32,
    /// ... over this many of Corvid's own moves in a row ...
    pub offer_draw_streak: usize,
    /// ... and at least this many full moves have been played.
    pub offer_draw_after: u32,
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
            accept_draw_cp: 10,
            offer_draws: true,
            offer_draw_cp: 15,
            offer_draw_streak: 4,
            offer_draw_after: 30,
            resign: true,
            resign_cp: 900,
            resign_moves: 4,
        }
    }
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

    /// Does Corvid accept a draw offer, its evaluation being `score`?
    pub fn accepts_draw(&self, score: Score) -> bool {
        score_value(score) <= self.policy.accept_draw_cp
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
        self.should_offer_draw_at(game.can_offer_draw(me), game.fullmove())
    }

    /// [`Conduct::should_offer_draw`] for any game: `may_offer` is the rules' answer (the re-offer limit),
    /// `fullmove` the current move number.
    pub fn should_offer_draw_at(&self, may_offer: bool, fullmove: u32) -> bool {
        let p = &self.policy;
        let k = p.offer_draw_streak.max(1);
        p.offer_draws
            && may_offer
            && fullmove > p.offer_draw_after
            && self.scores.len() >= k
            && self.scores[self.scores.len() - k..]
                .iter()
                .all(|&s| score_value(s).abs() <= p.offer_draw_cp)
    }
}
