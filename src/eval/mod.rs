//! Evaluation: one evaluator per game, each with its tunable parameters in one place.

pub mod chess;
pub mod makro;
pub mod nnue;
pub mod params;
mod tuned;
