//! What both boards' FEN readers share: the error type, and the fields every FEN has (placement, side to
//! move, castling, en passant and the two optional clocks) read the same way for any board size. What
//! differs by game (piece letters, empty-square counts, castling rights, e.p. squares) stays with each board
//! (`chess/fen.rs`, `makro/fen.rs`). Imports nothing but `types`, so both boards can use it.

use crate::types::Color;
use std::fmt;

/// Why a FEN was rejected (some reasons belong to one game only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than four fields (placement, side, castling, e.p.), or more than six.
    FieldCount(usize),
    /// The placement field does not have the board's number of ranks.
    RankCount {
        found: usize,
        expected: usize,
    },
    /// Rank `rank` (counted from 1) does not describe exactly the board's `files` squares.
    RankLength {
        rank: u8,
        files: u8,
    },
    /// A character that is neither a piece letter nor an empty-square count.
    BadPieceLetter(char),
    MissingKing(Color),
    TooManyKings(Color),
    /// Chess: more pieces than a real game can produce (over 16, over 8 pawns, or more promoted pieces than
    /// missing pawns).
    TooManyPieces(Color),
    /// Chess: a pawn on the first or last rank (the square).
    PawnOnBackRank(String),
    /// Makromachy: a Pawn or Warrior on the rank where it would have had to promote (the square).
    UnpromotedOnLastRank(String),
    BadSideToMove(String),
    /// The side that just moved is in check.
    OpponentInCheck,
    BadCastlingField(String),
    /// Castling right `right` without its king, or its `partner` (the piece the king castles with), in place.
    CastlingWithoutPieces {
        right: char,
        partner: &'static str,
    },
    BadEnPassant(String),
    BadHalfmoveClock(String),
    BadFullmoveNumber(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: &Color| if *c == Color::White { "white" } else { "black" };
        match self {
            FenError::FieldCount(n) => write!(f, "expected 4 to 6 fields, found {n}"),
            FenError::RankCount { found, expected } => {
                write!(f, "expected {expected} ranks, found {found}")
            }
            FenError::RankLength { rank, files } => {
                write!(f, "rank {rank} does not have {files} squares")
            }
            FenError::BadPieceLetter(c) => write!(f, "bad piece letter '{c}'"),
            FenError::MissingKing(c) => write!(f, "{} has no king", name(c)),
            FenError::TooManyKings(c) => write!(f, "{} has more than one king", name(c)),
            FenError::TooManyPieces(c) => {
                write!(f, "{} has more pieces than a game can produce", name(c))
            }
            FenError::PawnOnBackRank(s) => write!(f, "pawn on back rank ({s})"),
            FenError::UnpromotedOnLastRank(s) => write!(f, "unpromoted pawn or warrior on {s}"),
            FenError::BadSideToMove(s) => write!(f, "side to move must be w or b, not '{s}'"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::BadCastlingField(s) => write!(f, "bad castling field '{s}'"),
            FenError::CastlingWithoutPieces { right, partner } => {
                write!(
                    f,
                    "castling right '{right}' without king and {partner} in place"
                )
            }
            FenError::BadEnPassant(s) => write!(f, "impossible en-passant field '{s}'"),
            FenError::BadHalfmoveClock(s) => write!(f, "bad half-move clock '{s}'"),
            FenError::BadFullmoveNumber(s) => write!(f, "bad full-move number '{s}'"),
        }
    }
}

impl std::error::Error for FenError {}

/// A FEN split into its fields, the count checked and the placement split into ranks (the top rank first).
/// The fields are read in the order the boards check them, so a FEN with several faults reports the first.
pub struct Fields<'a> {
    pub ranks: Vec<&'a str>,
    side: &'a str,
    pub castling: &'a str,
    pub en_passant: &'a str,
    halfmove: Option<&'a str>,
    fullmove: Option<&'a str>,
}

impl<'a> Fields<'a> {
    /// Splits `fen` for a board of `ranks` ranks.
    pub fn split(fen: &'a str, ranks: usize) -> Result<Fields<'a>, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let placement: Vec<&str> = fields[0].split('/').collect();
        if placement.len() != ranks {
            return Err(FenError::RankCount {
                found: placement.len(),
                expected: ranks,
            });
        }
        Ok(Fields {
            ranks: placement,
            side: fields[1],
            castling: fields[2],
            en_passant: fields[3],
            halfmove: fields.get(4).copied(),
            fullmove: fields.get(5).copied(),
        })
    }

    /// The side to move (`w` or `b`).
    pub fn side_to_move(&self) -> Result<Color, FenError> {
        match self.side {
            "w" => Ok(Color::White),
            "b" => Ok(Color::Black),
            s => Err(FenError::BadSideToMove(s.to_string())),
        }
    }

    /// The half-move clock (at most 10,000) and the full-move number (1 to 10,000); `0 1` where the FEN
    /// leaves them out.
    pub fn clocks(&self) -> Result<(u16, u16), FenError> {
        let read = |text: Option<&str>,
                    default,
                    range: std::ops::RangeInclusive<u16>,
                    error: fn(String) -> FenError| {
            text.map_or(Ok(default), |t| {
                t.parse::<u16>()
                    .ok()
                    .filter(|v| range.contains(v))
                    .ok_or_else(|| error(t.to_string()))
            })
        };
        let halfmove = read(self.halfmove, 0, 0..=10_000, FenError::BadHalfmoveClock)?;
        let fullmove = read(self.fullmove, 1, 1..=10_000, FenError::BadFullmoveNumber)?;
        Ok((halfmove, fullmove))
    }
}

/// Exactly one king of `color`, of which the placement holds `count`.
pub fn one_king(color: Color, count: u32) -> Result<(), FenError> {
    match count {
        0 => Err(FenError::MissingKing(color)),
        1 => Ok(()),
        _ => Err(FenError::TooManyKings(color)),
    }
}
