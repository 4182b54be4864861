//! Corvid: a UCI chess engine for orthodox chess, Chess960 and (later) Makromachy.

pub mod bench;
pub mod chess;
pub mod eval;
pub mod game;
pub mod makro;
pub mod perft;
pub mod rules;
pub mod search;
