//! Evaluation: one evaluator per game, each with its tunable parameters in one place.

pub mod chess;
pub mod makro;
pub mod nnue;
pub mod params;
mod tuned;

use crate::chess::{Move, Position};
use std::fmt::Debug;

/// An evaluator that follows the game: it hears of every move before it is played and of every take-back,
/// and evaluates the current position. Implemented by `eval::nnue::NnueEval`.
pub trait EvalState: Clone + Debug + Send + Sync + 'static {
    /// The line starts (again) at `pos`: nothing below it will be taken back.
    fn reset(&mut self, pos: &Position);
    /// The legal move `m` is about to be played in `pos`.
    fn make_move(&mut self, pos: &Position, m: Move);
    /// A null move is about to be played.
    fn make_null_move(&mut self);
    /// The last move (or null move) was taken back.
    fn unmake_move(&mut self);
    /// Room for `plies` more moves without allocating.
    fn reserve(&mut self, plies: usize);
    /// Static evaluation of the current position `pos`, from the side to move's view.
    fn evaluate(&mut self, pos: &Position) -> i32;
}
