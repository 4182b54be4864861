//! Makromachy moves: their encoding and their text in the rules' notation.

use super::geometry::*;
use super::pieces::*;
use std::fmt;

/// A move packed in 32 bits: origin (9 bits), destination (9), an extra square or promotion kind (9), kind (3).
/// For hit-and-run `to` is the captured square and `extra` the final square; for castling `to` is the King's
/// landing square and `extra` the Dragon King's corner; for en passant `extra` is the captured piece's square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    EnPassant = 2,
    HitAndRun = 3,
    Castling = 4,
}

impl Move {
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn new(kind: MoveKind, from: Sq, to: Sq, extra: u16) -> Move {
        Move(from as u32 | (to as u32) << 9 | (extra as u32) << 18 | (kind as u32) << 27)
    }

    #[inline(always)]
    pub const fn from(self) -> Sq {
        (self.0 & 511) as Sq
    }

    #[inline(always)]
    pub const fn to(self) -> Sq {
        ((self.0 >> 9) & 511) as Sq
    }

    #[inline(always)]
    pub const fn extra(self) -> u16 {
        ((self.0 >> 18) & 511) as u16
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 27 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            3 => MoveKind::HitAndRun,
            _ => MoveKind::Castling,
        }
    }

    pub fn promotion(self) -> Option<Kind> {
        (self.kind() == MoveKind::Promotion).then(|| Kind::from_code(self.extra() as u8))
    }

    /// Where the moving piece ends.
    #[inline(always)]
    pub fn destination(self) -> Sq {
        match self.kind() {
            MoveKind::HitAndRun => self.extra() as Sq,
            _ => self.to(),
        }
    }

    /// Move text as the rules give it: `d4d7`, `c13c14q`, `g2h3,h3i4` (hit-and-run), `i1c1,a1i1` (castling).
    pub fn text(self) -> String {
        let (f, t) = (square_name(self.from()), square_name(self.to()));
        match self.kind() {
            MoveKind::Normal | MoveKind::EnPassant => format!("{f}{t}"),
            MoveKind::Promotion => format!(
                "{f}{t}{}",
                Kind::from_code(self.extra() as u8)
                    .letter()
                    .to_ascii_lowercase()
            ),
            MoveKind::HitAndRun => format!("{f}{t},{t}{}", square_name(self.extra() as Sq)),
            MoveKind::Castling => format!("{f}{t},{}{f}", square_name(self.extra() as Sq)),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}
