//! Corvid: a UCI chess engine for orthodox chess, Chess960 and (later) Makromachy.

pub mod chess;
pub mod eval;
pub mod makro;
pub mod perft;
pub mod rules;
