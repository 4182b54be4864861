//! Moves packed in 16 bits, fixed-capacity move lists, and UCI move text.

use super::types::{PieceType, Square};
use std::fmt;

/// A move: bits 0-5 origin, 6-11 destination, 12-13 promotion piece (N, B, R, Q), 14-15 kind.
/// Castling is stored as "king takes own rook" (origin = king, destination = rook square), which covers
/// Chess960 and orthodox castling alike; the text form depends on the mode.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    EnPassant = 2,
    Castling = 3,
}

impl Move {
    /// The empty move (a1a1), never legal; used as "no move".
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6)
    }

    #[inline(always)]
    pub const fn with_kind(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | (kind as u16) << 14)
    }

    /// A promotion to `piece` (Knight, Bishop, Rook or Queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        Move(
            from.0 as u16
                | (to.0 as u16) << 6
                | ((piece as u16 - PieceType::Knight as u16) << 12)
                | (MoveKind::Promotion as u16) << 14,
        )
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        // The top two bits are the kind's discriminant: a table lookup, not a chain of comparisons.
        const KINDS: [MoveKind; 4] = [
            MoveKind::Normal,
            MoveKind::Promotion,
            MoveKind::EnPassant,
            MoveKind::Castling,
        ];
        KINDS[(self.0 >> 14) as usize]
    }

    /// The promotion piece, if this is a promotion.
    #[inline(always)]
    pub const fn promotion_piece(self) -> Option<PieceType> {
        match self.kind() {
            MoveKind::Promotion => Some(PieceType::from_index(((self.0 >> 12) & 3) as usize + 1)),
            _ => None,
        }
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// UCI text. Castling prints as the king's destination (`e1g1`) unless `chess960`, where it is
    /// king-takes-rook (`e1h1`), as UCI_Chess960 GUIs expect.
    pub fn to_uci(self, chess960: bool) -> String {
        if self.is_none() {
            return "0000".to_string();
        }
        let from = self.from();
        let mut to = self.to();
        if self.kind() == MoveKind::Castling && !chess960 {
            let file = if to.file() > from.file() { 6 } else { 2 };
            to = Square::new(file, from.rank());
        }
        let mut s = format!("{from}{to}");
        if let Some(p) = self.promotion_piece() {
            s.push(p.letter());
        }
        s
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(true))
    }
}

pub use crate::types::MoveParseError;

/// Upper bound on legal moves in any chess position (the known maximum is 218).
pub const MAX_MOVES: usize = 256;

/// The legal moves of a position, on the stack (see [`ArrayVec`]).
pub type MoveList = crate::types::ArrayVec<Move, MAX_MOVES>;
