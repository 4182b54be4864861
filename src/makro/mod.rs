//! Makromachy, H. G. Muller's 14x14 variant (rules: `../shared/rules/makromachy.md`).
//!
//! Board representation: a mailbox (one byte a square on a 20x20 board with a 3-square sentinel border) rather
//! than 256-bit bitboards. Most of Makromachy's movement is not set-shaped: flying captures over unranked
//! pieces, Cannon and Vao screens, bent Griffon and Rhino lines, airlifts to the square before a blocker and
//! two-leg hit-and-run moves all walk lines piece by piece, which a mailbox does with one load a step, while
//! 196-bit sets would need four-word shifts per step. The perft and bench figures in the module tests and
//! `corvid bench --variant makromachy` are the measurement behind this choice.
//!
//! It is a hybrid where sets pay: each side's occupied squares are also kept as a set over the mailbox, so the
//! generator and the evaluation visit the 56 pieces instead of scanning 196 squares (the scan cost ~10% of
//! the search); the position also keeps the evaluation's features (pieces per kind, the placement sums and the
//! mobility counts of `features`, weight-free) and, when in check, the squares one checking attack depends
//! on, so that most evasions are rejected without an attack test.

pub mod attacks;
pub mod features;
pub mod fen;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod pieces;
pub mod position;
pub mod xbetza;

pub use fen::MakroFenError;
pub use movegen::{perft, Move, MoveKind};
pub use pieces::Kind;
pub use position::{Position, STARTPOS};
