//! Chess in `corvid play`: the board drawn with glyphs, moves read as SAN or UCI and written as SAN.

use super::{Board, BoardStyle};
use crate::chess::{Color, Move, PieceType, Position, Square};
use crate::types::MoveParseError;
use crate::variants::Chess;
use std::fmt::Write as _;

pub(super) const HELP: &str = "\
Type a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q), or a command:
  draw      offer a draw (or accept Corvid's standing offer)
  accept    accept Corvid's draw offer      decline   decline it
  resign    resign the game                  quit      leave (the game stays unfinished)
  board     draw the board again             moves     list your legal moves
  pgn       show the game so far             help      this text
There are no take-backs.";

/// The board from `viewer`'s side, the squares of `last` highlighted.
pub fn draw_board(pos: &Position, last: Option<Move>, viewer: Color, style: BoardStyle) -> String {
    let marked = |sq: Square| last.is_some_and(|m| m.from() == sq || m.to() == sq);
    let ranks: Vec<u8> = match viewer {
        Color::White => (0..8).rev().collect(),
        Color::Black => (0..8).collect(),
    };
    let files: Vec<u8> = match viewer {
        Color::White => (0..8).collect(),
        Color::Black => (0..8).rev().collect(),
    };
    let mut s = String::new();
    let header: String = files
        .iter()
        .map(|&f| format!(" {} ", (b'a' + f) as char))
        .collect();
    let _ = writeln!(s, "   {header}");
    for &r in &ranks {
        let _ = write!(s, " {} ", r + 1);
        for &f in &files {
            let sq = Square::new(f, r);
            let piece = pos.piece_on(sq);
            match style {
                BoardStyle::Ascii => {
                    let c = piece.map_or('.', |p| p.letter());
                    if marked(sq) {
                        let _ = write!(s, "[{c}]");
                    } else {
                        let _ = write!(s, " {c} ");
                    }
                }
                BoardStyle::Color => {
                    let light = (f + r) % 2 == 1;
                    // 256-colour backgrounds: wood tones, and yellowish ones for the last move.
                    let bg = match (light, marked(sq)) {
                        (true, false) => 180,
                        (false, false) => 137,
                        (true, true) => 186,
                        (false, true) => 142,
                    };
                    let (fg, glyph) = match piece {
                        None => (16, ' '),
                        Some(p) => (
                            if p.color() == Color::White { 231 } else { 16 },
                            glyph(p.kind()),
                        ),
                    };
                    let _ = write!(s, "\x1b[48;5;{bg}m\x1b[38;5;{fg}m {glyph} \x1b[0m");
                }
            }
        }
        let _ = writeln!(s, " {}", r + 1);
    }
    let _ = writeln!(s, "   {header}");
    s
}

/// The solid chess glyphs (coloured by the foreground, so both sides look alike but for colour).
fn glyph(kind: PieceType) -> char {
    match kind {
        PieceType::King => '♚',
        PieceType::Queen => '♛',
        PieceType::Rook => '♜',
        PieceType::Bishop => '♝',
        PieceType::Knight => '♞',
        PieceType::Pawn => '♟',
    }
}

/// Whether `text` is shaped like a move (SAN, castling or UCI), so that a typo in a command is not reported as
/// an illegal move.
pub(super) fn looks_like_move(text: &str) -> bool {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    if matches!(t, "O-O" | "O-O-O" | "0-0" | "0-0-0" | "o-o" | "o-o-o") {
        return true;
    }
    let b = t.as_bytes();
    let has_square = b
        .windows(2)
        .any(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]));
    has_square
        && t.len() <= 7
        && t.chars()
            .all(|c| "KQRBNabcdefgh12345678x=qrbnk-".contains(c))
}

impl Board for Chess {
    const HELP: &'static str = HELP;

    fn draw(pos: &Position, last: Option<Move>, viewer: Color, style: BoardStyle) -> String {
        draw_board(pos, last, viewer, style)
    }

    fn show_move(pos: &Position, m: Move) -> String {
        pos.to_san(m)
    }

    /// SAN or UCI; text not shaped like a move is a syntax error, so that a typo in a command is not reported
    /// as an illegal move. A person may type the piece letter in lower case (`nf3`, `bc4`): read as written
    /// first (so `bxc4` and `bc4` stay the b-pawn's capture when it is legal), then with the piece letter
    /// raised.
    fn read_human(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
        if !looks_like_move(text) {
            return Err(MoveParseError::Syntax(text.to_string()));
        }
        pos.parse_uci_move(text)
            .or_else(|_| pos.parse_san(text))
            .or_else(|e| match text.chars().next() {
                Some(c @ ('n' | 'b' | 'r' | 'q' | 'k')) => pos
                    .parse_san(&format!("{}{}", c.to_ascii_uppercase(), &text[1..]))
                    .map_err(|_| e),
                _ => Err(e),
            })
    }

    fn in_check(pos: &Position) -> bool {
        pos.in_check()
    }
}
