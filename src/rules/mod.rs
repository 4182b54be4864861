//! How games end: the adjudicator that `play`, the xboard front end, match tools and tests use (the search's
//! own draw and loss detection is held against it in tests).
//!
//! - [`record`]: one [`Record`] for every game (moves, resignation, draw offers, take-backs, PGN), with one
//!   per-game hook, [`Rules`], for how a game ends and how its moves are written.
//! - [`chess`]: orthodox chess as Dineri applies the FIDE rules (`../shared/rules/dineri.md`): [`ChessRecord`].
//! - [`makro`]: Makromachy (`../shared/rules/makromachy.md`): [`MakroRecord`], with bare Kings and the loss for
//!   repeating a position with a checking Eagle move.
//!
//! All share the result types here and the draw-offer rule ([`DrawOffers`]).

pub mod chess;
pub mod makro;
pub mod record;

pub use self::chess::{automatic_ending, same_position};
pub use self::makro::{makro_ending, same_makro_position};
pub use self::record::{Record, Rules};

use crate::types::{Color, MoveParseError};
use std::fmt;

/// What the material says about a draw (each game's [`Rules::draw_material`]); Corvid's conduct decides by it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawMaterial {
    /// Few enough pieces left that an even position is usually a draw.
    pub endgame: bool,
    /// Too little left for either side to win (no pawns, at most a rook each, nobody a rook ahead).
    pub no_winning_material: bool,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Checkmate,
    Stalemate,
    ThreefoldRepetition,
    FiftyMoveRule,
    /// No sequence of legal moves can end in mate (Dineri's list: K v K, K+B v K, K+N v K, same-coloured
    /// bishops only).
    DeadPosition,
    /// Makromachy: only the two Kings are left.
    BareKings,
    /// Makromachy: the loser produced a position that had occurred before with an Eagle move that left the
    /// opponent in check.
    EagleCheckRepetition,
    Resignation,
    Agreement,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FiftyMoveRule => "fifty-move rule",
            Termination::DeadPosition => "no mate possible",
            Termination::BareKings => "bare kings",
            Termination::EagleCheckRepetition => "repetition with an Eagle check",
            Termination::Resignation => "resignation",
            Termination::Agreement => "draw by agreement",
        })
    }
}

impl Termination {
    /// The PGN standard's `Termination` value: every ending by the rules (mate, a draw by rule, resignation,
    /// agreement) is `normal`; the reason itself goes in a comment after the last move.
    pub fn pgn_value(self) -> &'static str {
        "normal"
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub termination: Termination,
}

impl Outcome {
    /// A draw for `termination`.
    pub fn draw(termination: Termination) -> Outcome {
        Outcome {
            winner: None,
            termination,
        }
    }

    /// A win for `winner` by `termination`.
    pub fn win(winner: Color, termination: Termination) -> Outcome {
        Outcome {
            winner: Some(winner),
            termination,
        }
    }

    /// The PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// A short sentence for the reason, with who won (`White mates`, `Draw by repetition`, `Black resigns`):
    /// the comment of a CECP result line and of a PGN's last move.
    pub fn description(&self) -> String {
        let name = |c: Color| match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        match (self.termination, self.winner) {
            (Termination::Checkmate, Some(w)) => format!("{} mates", name(w)),
            (Termination::Resignation, Some(w)) => format!("{} resigns", name(w.flip())),
            (Termination::EagleCheckRepetition, Some(w)) => {
                format!("{} repeats with an Eagle check", name(w.flip()))
            }
            (Termination::Stalemate, _) => "Stalemate".to_string(),
            (Termination::ThreefoldRepetition, _) => "Draw by repetition".to_string(),
            (Termination::FiftyMoveRule, _) => "Draw by fifty-move rule".to_string(),
            (Termination::DeadPosition, _) => "Draw: no mate possible".to_string(),
            (Termination::BareKings, _) => "Draw: bare kings".to_string(),
            (Termination::Agreement, _) => "Draw by agreement".to_string(),
            // A decisive reason without a winner (or the reverse) is never built by this module.
            (t, _) => t.to_string(),
        }
    }
}

/// What the rules refuse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    GameOver(Outcome),
    IllegalMove(MoveParseError),
    /// A second offer before the opponent has played two moves since the first.
    OfferTooSoon {
        opponent_moves_needed: u32,
    },
    /// Accepting or declining with no offer from the opponent standing.
    NoOfferPending,
    /// Offering while one's own offer still stands.
    OfferAlreadyPending,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::GameOver(o) => write!(f, "the game is over ({}, {})", o.result_str(), o.termination),
            RulesError::IllegalMove(e) => write!(f, "{e}"),
            RulesError::OfferTooSoon { opponent_moves_needed } => write!(
                f,
                "a new draw offer needs {opponent_moves_needed} more move(s) by the opponent since the last one"
            ),
            RulesError::NoOfferPending => write!(f, "there is no draw offer to answer"),
            RulesError::OfferAlreadyPending => write!(f, "your draw offer still stands"),
        }
    }
}

impl std::error::Error for RulesError {}

/// The draw-offer state of a game: whose offer stands, and the re-offer rule (a player may offer again only
/// after the opponent has played two moves since that player's last offer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawOffers {
    /// The side whose offer stands (until the opponent moves or answers).
    pending: Option<Color>,
    /// Per colour: moves the opponent has played since this colour's last offer (None: never offered).
    opponent_moves_since_offer: [Option<u32>; 2],
}

impl DrawOffers {
    /// The side whose offer stands.
    pub fn pending(&self) -> Option<Color> {
        self.pending
    }

    /// `mover` has played a move: an offer to it lapses, and the opponent's re-offer count advances.
    pub fn on_move(&mut self, mover: Color) {
        if self.pending == Some(mover.flip()) {
            self.pending = None;
        }
        if let Some(n) = &mut self.opponent_moves_since_offer[mover.flip().index()] {
            *n += 1;
        }
    }

    /// `who` offers (the game still going on is the caller's check).
    pub fn offer(&mut self, who: Color) -> Result<(), RulesError> {
        if self.pending == Some(who) {
            return Err(RulesError::OfferAlreadyPending);
        }
        if let Some(n) = self.opponent_moves_since_offer[who.index()] {
            if n < 2 {
                return Err(RulesError::OfferTooSoon {
                    opponent_moves_needed: 2 - n,
                });
            }
        }
        self.opponent_moves_since_offer[who.index()] = Some(0);
        self.pending = Some(who);
        Ok(())
    }

    /// May `who` offer now (the game going on aside)?
    pub fn can_offer(&self, who: Color) -> bool {
        self.pending != Some(who)
            && self.opponent_moves_since_offer[who.index()].is_none_or(|n| n >= 2)
    }

    /// `who` answers the opponent's standing offer (accepting or declining); refused without one.
    pub fn answer(&mut self, who: Color) -> Result<(), RulesError> {
        if self.pending != Some(who.flip()) {
            return Err(RulesError::NoOfferPending);
        }
        self.pending = None;
        Ok(())
    }
}

/// One PGN tag pair line; quotes and backslashes in the value are escaped.
pub fn pgn_tag(key: &str, value: &str) -> String {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{key} \"{escaped}\"]\n")
}

/// PGN movetext words wrapped at 80 columns, the result last.
pub fn wrap_movetext(text: &str, result: &str) -> String {
    wrap_words(text.split_whitespace().chain(std::iter::once(result)))
}

/// Words (moves, numbers, `{comments}` with their spaces) in lines of at most 80 columns, each line ended.
pub fn wrap_words<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}
