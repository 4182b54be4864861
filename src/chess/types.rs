//! The small value types of orthodox chess: colours, piece kinds, pieces, squares and bitboard helpers.

use std::fmt;

/// A set of squares, one bit per square (bit 0 = a1, bit 63 = h8).
pub type Bitboard = u64;

/// Iterates over the squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

/// The squares of `bb` as an iterator.
#[inline(always)]
pub fn squares(bb: Bitboard) -> Squares {
    Squares(bb)
}

pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
pub const FILE_H: Bitboard = FILE_A << 7;
pub const RANK_1: Bitboard = 0xff;
pub const RANK_8: Bitboard = RANK_1 << 56;
pub const DARK_SQUARES: Bitboard = 0xAA55_AA55_AA55_AA55;

pub use crate::types::Color;

/// Chess-only facts about a colour.
impl Color {
    /// The rank (0-based) a pawn of this colour starts on.
    #[inline(always)]
    pub const fn pawn_rank(self) -> u8 {
        match self {
            Color::White => 1,
            Color::Black => 6,
        }
    }
}

/// A kind of piece, without colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceType {
        PieceType::ALL[i]
    }

    /// Lower-case letter as in FEN and UCI promotion suffixes.
    pub const fn letter(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    pub fn from_letter(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        })
    }
}

/// A coloured piece, packed as `colour * 6 + kind` (0..12).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

/// The kind of each piece index (`Piece::index`), padded to 16 entries so that `index & 15` needs no bounds
/// check: reading a square's kind is among the search's most frequent operations.
const KIND_OF: [PieceType; 16] = {
    let mut t = [PieceType::Pawn; 16];
    let mut i = 0;
    while i < 12 {
        t[i] = PieceType::ALL[i % 6];
        i += 1;
    }
    t
};

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(color as u8 * 6 + kind as u8)
    }

    /// The piece of index `i` (`< 12`, as [`Piece::index`] gives it: the board's mailbox stores these).
    #[inline(always)]
    pub(crate) const fn from_index(i: u8) -> Piece {
        debug_assert!(i < 12);
        Piece(i)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        KIND_OF[(self.0 & 15) as usize]
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// FEN letter: upper case for White.
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = PieceType::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

/// A square, 0 = a1 … 63 = h8.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u8);

impl Square {
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    #[inline(always)]
    pub const fn bb(self) -> Bitboard {
        1u64 << self.0
    }

    /// The rank as seen by `color` (0 = own back rank).
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    /// Parses `e4`-style coordinates.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (f, r) = (b[0], b[1]);
        if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
            return None;
        }
        Some(Square::new(f - b'a', r - b'1'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// Castling rights as four bits: White king side, White queen side, Black king side, Black queen side.
/// "King side" means the rook that stands on the h-file side of the king (Chess960 included).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    pub const WHITE_KING: u8 = 1;
    pub const WHITE_QUEEN: u8 = 2;
    pub const BLACK_KING: u8 = 4;
    pub const BLACK_QUEEN: u8 = 8;

    /// Bit index of the right for `color` on the king side (`king_side`) or queen side.
    #[inline(always)]
    pub const fn index(color: Color, king_side: bool) -> usize {
        color as usize * 2 + if king_side { 0 } else { 1 }
    }

    #[inline(always)]
    pub const fn has(self, idx: usize) -> bool {
        self.0 & (1 << idx) != 0
    }
}

/// Shifts a bitboard one rank towards the opponent of `color`.
#[inline(always)]
pub const fn forward(bb: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => bb << 8,
        Color::Black => bb >> 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_index_round_trips_through_colour_and_kind() {
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let p = Piece::new(color, kind);
                assert_eq!((p.color(), p.kind()), (color, kind), "{p:?}");
                assert_eq!(Piece::from_index(p.index() as u8), p);
            }
        }
    }
}
