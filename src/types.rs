//! What every game shares: the colours and the errors of move text.
//!
//! Boards, rules and front ends of every game use these; they depend on nothing in the crate.

use std::fmt;

/// Side to move / owner of a piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Color {
    /// Moves first.
    White = 0,
    /// Moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: the index of per-colour tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not of the form `e2e4` / `e7e8q`.
    Syntax(String),
    /// Well formed but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(s) => {
                write!(f, "malformed move '{s}' (expected e.g. e2e4 or e7e8q)")
            }
            MoveParseError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}

impl std::error::Error for MoveParseError {}
