//! Makromachy's board geometry: the 14x14 board inside a 20x20 mailbox (a 3-square border, so that every
//! leap up to the Zebra's and the Camel's lands on the board or on a sentinel), squares and their names, line
//! directions, and the one-byte cell codes (empty, border, or a piece's kind and colour). Everything else on
//! the board builds on these.

use super::pieces::Kind;
use crate::types::Color;

pub const FILES: i32 = 14;
pub const RANKS: i32 = 14;
/// Mailbox width: 14 files plus a 3-square border on each side.
pub const WIDTH: i32 = 20;
pub const MAILBOX: usize = (WIDTH * WIDTH) as usize;

/// Board cell values: `EMPTY`, `OFF` (border), or a piece code `kind | colour << 5`.
pub const EMPTY: u8 = 0;
pub const OFF: u8 = 0xFF;
const BLACK_BIT: u8 = 32;

/// A square as a mailbox index.
pub type Sq = u16;

#[inline(always)]
pub const fn sq(file: i32, rank: i32) -> Sq {
    ((rank + 3) * WIDTH + file + 3) as Sq
}

#[inline(always)]
pub const fn file_of(s: Sq) -> i32 {
    s as i32 % WIDTH - 3
}

#[inline(always)]
pub const fn rank_of(s: Sq) -> i32 {
    s as i32 / WIDTH - 3
}

#[inline(always)]
pub const fn offset(df: i8, dr: i8) -> i32 {
    df as i32 + dr as i32 * WIDTH
}

/// `a1`, `h10`, `n14`.
pub fn square_name(s: Sq) -> String {
    format!("{}{}", (b'a' + file_of(s) as u8) as char, rank_of(s) + 1)
}

/// Reads a square name; `text` must be exactly the name.
pub fn parse_square(text: &str) -> Option<Sq> {
    let b = text.as_bytes();
    if b.len() < 2 || b.len() > 3 || !(b'a'..=b'n').contains(&b[0]) {
        return None;
    }
    let rank: i32 = text[1..].parse().ok()?;
    if !(1..=RANKS).contains(&rank) || text[1..].starts_with('0') {
        return None;
    }
    Some(sq((b[0] - b'a') as i32, rank - 1))
}

/// Splits the front of `text` into a square name and the rest (`h10x` → `h10`, `x`).
pub fn split_square(text: &str) -> Option<(Sq, &str)> {
    let b = text.as_bytes();
    if b.len() < 2 {
        return None;
    }
    let digits = b[1..]
        .iter()
        .take(2)
        .take_while(|c| c.is_ascii_digit())
        .count();
    // Prefer the two-digit reading when it is a real rank (`h10`), else one digit (`h1` in `h1h2`).
    for n in (1..=digits).rev() {
        if let Some(s) = parse_square(&text[..1 + n]) {
            return Some((s, &text[1 + n..]));
        }
    }
    None
}

/// Does the piece `code` move along lines (slider, flyer, Cannon, Vao)?
#[inline(always)]
pub const fn is_long_range(code: u8) -> bool {
    let kind = kind_of(code);
    kind.moves_along_orthogonals() || kind.moves_along_diagonals()
}

#[inline(always)]
pub const fn code(color: Color, kind: Kind) -> u8 {
    kind as u8
        | if matches!(color, Color::Black) {
            BLACK_BIT
        } else {
            0
        }
}

#[inline(always)]
pub const fn kind_of(code: u8) -> Kind {
    Kind::from_code(code & 31)
}

#[inline(always)]
pub const fn color_of(code: u8) -> Color {
    if code & BLACK_BIT != 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// A piece code is a real piece (not empty, not border).
#[inline(always)]
pub const fn is_piece(code: u8) -> bool {
    code != EMPTY && code != OFF
}

/// Is `code` a piece of one of the kinds (what the per-code tables fill in; other bytes stay 0)?
pub(crate) const fn is_kind_code(code: u8) -> bool {
    is_piece(code) && (code & 31) >= 1 && (code & 31) as usize <= super::pieces::KIND_COUNT
}

/// The eight line directions as mailbox offsets: ranks and files first, then diagonals.
pub(crate) const LINES: [i32; 8] = [
    offset(1, 0),
    offset(-1, 0),
    offset(0, 1),
    offset(0, -1),
    offset(1, 1),
    offset(1, -1),
    offset(-1, 1),
    offset(-1, -1),
];
