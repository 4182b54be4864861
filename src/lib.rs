//! Corvid: a UCI chess engine for orthodox chess, Chess960 and (later) Makromachy.

pub mod chess;
pub mod conduct;
// The protocol layer handles untrusted input: it must report errors, never panic.
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod engine;
pub mod eval;
pub mod fen;
pub mod game;
pub mod makro;
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod play;
pub mod rng;
pub mod rules;
pub mod search;
pub mod tb;
pub mod tools;
pub mod tunables;
pub mod types;
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod uci;
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod variants;
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod xboard;
