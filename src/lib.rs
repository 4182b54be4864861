//! Corvid: a UCI chess engine for orthodox chess, Chess960 and (later) Makromachy.

// Engine output is untrusted input: the match runner reports it, never panics on it.
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod arena;
pub mod bench;
pub mod chess;
// The protocol layer handles untrusted input: it must report errors, never panic.
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod engine;
pub mod eval;
pub mod game;
pub mod makro;
pub mod perft;
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod play;
pub mod rules;
pub mod search;
pub mod tb;
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod uci;
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod xboard;
