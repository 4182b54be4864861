//! `corvid play --variant makromachy`: a person against Corvid at Makromachy, 14x14, in the terminal.
//!
//! The same conduct as for chess (draw offers and resignation by `Conduct`, no take-backs); the rules are
//! `variants::MakroRecord`'s. Moves are typed in the rules' notation: `d4d7`, promotions `c13c14q`, hit-and-run
//! `g2h3,h3i4`, castling `i1c1,a1i1` (or just the King's leg, `i1c1`).

use super::Makromachy;
use crate::game::{BoardStyle, PlayHooks};
use crate::makro::geometry::{sq, FILES, RANKS};
use crate::makro::{Move, MoveKind, Position};
use crate::types::{Color, MoveParseError};
use std::fmt::Write as _;

const HELP: &str = "\
Type a move as the Makromachy rules write it: d4d7, c13c14q (promotion), g2h3,h3i4 (hit-and-run),
i1c1,a1i1 or just i1c1 (castling), or a command:
  draw      offer a draw (or accept Corvid's standing offer)
  accept    accept Corvid's draw offer      decline   decline it
  resign    resign the game                  quit      leave (the game stays unfinished)
  board     draw the board again             moves     list your legal moves
  pgn       show the game so far             help      this text
Pieces: K king, Q queen, R rook, B bishop, N knight, E elephant, I champion, J camel, Z zebra,
M marshall, A archbishop, D dragon king, H dragon horse, O archer, G griffon, U rhino, C cannon,
V vao, L eagle, F raven, S bat, T terror, W warrior, P pawn (upper case White).
There are no take-backs.";

/// The 14x14 board from `viewer`'s side, the squares of `last` highlighted (both legs of a two-leg move).
pub fn draw_makro_board(
    pos: &Position,
    last: Option<Move>,
    viewer: Color,
    style: BoardStyle,
) -> String {
    let marked = |s| {
        last.is_some_and(|m| {
            m.from() == s
                || m.to() == s
                || m.destination() == s
                || (m.kind() == MoveKind::Castling && m.extra() as i32 == s as i32)
        })
    };
    let ranks: Vec<i32> = match viewer {
        Color::White => (0..RANKS).rev().collect(),
        Color::Black => (0..RANKS).collect(),
    };
    let files: Vec<i32> = match viewer {
        Color::White => (0..FILES).collect(),
        Color::Black => (0..FILES).rev().collect(),
    };
    let header: String = files
        .iter()
        .map(|&f| format!(" {} ", (b'a' + f as u8) as char))
        .collect();
    let mut s = String::new();
    let _ = writeln!(s, "    {header}");
    for &r in &ranks {
        let _ = write!(s, " {:>2} ", r + 1);
        for &f in &files {
            let square = sq(f, r);
            let letter = pos.piece_at(square).map(|(c, k)| match c {
                Color::White => k.letter(),
                Color::Black => k.letter().to_ascii_lowercase(),
            });
            match style {
                BoardStyle::Ascii => {
                    let c = letter.unwrap_or('.');
                    if marked(square) {
                        let _ = write!(s, "[{c}]");
                    } else {
                        let _ = write!(s, " {c} ");
                    }
                }
                BoardStyle::Color => {
                    let light = (f + r) % 2 == 1;
                    let bg = match (light, marked(square)) {
                        (true, false) => 180,
                        (false, false) => 137,
                        (true, true) => 186,
                        (false, true) => 142,
                    };
                    // Letters in bold, White's in white and Black's in black: 24 kinds have no glyphs.
                    let (fg, ch) = match pos.piece_at(square) {
                        None => (16, ' '),
                        Some((c, k)) => (if c == Color::White { 231 } else { 16 }, k.letter()),
                    };
                    let _ = write!(s, "\x1b[48;5;{bg}m\x1b[1;38;5;{fg}m {ch} \x1b[0m");
                }
            }
        }
        let _ = writeln!(s, " {}", r + 1);
    }
    let _ = writeln!(s, "    {header}");
    s
}

impl PlayHooks for Makromachy {
    const HELP: &'static str = HELP;
    const GREETING: &'static str = " Makromachy:";
    const MOVES_HELP: Option<&'static str> =
        Some("14x14; moves as d4d7, c13c14q, g2h3,h3i4, i1c1,a1i1");

    fn draw(pos: &Position, last: Option<Move>, viewer: Color, style: BoardStyle) -> String {
        draw_makro_board(pos, last, viewer, style)
    }

    fn show_move(_pos: &Position, m: Move) -> String {
        m.text()
    }

    /// The rules' notation, or the King's leg alone of a castling.
    fn read_human(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
        pos.parse_move(text).or_else(|e| {
            let t = text.trim();
            pos.legal_moves()
                .into_iter()
                .find(|m| m.kind() == MoveKind::Castling && m.text().split(',').next() == Some(t))
                .ok_or(e)
        })
    }

    fn in_check(pos: &Position) -> bool {
        pos.in_check()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::variants::MakroRecord;

    #[test]
    fn the_board_has_fourteen_ranks_and_files() {
        let mut g = MakroRecord::startpos();
        let m = g.play_text("h4h7").unwrap();
        let b = draw_makro_board(g.position(), Some(m), Color::White, BoardStyle::Ascii);
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines.len(), 16);
        assert_eq!(
            lines[0].split_whitespace().collect::<String>(),
            "abcdefghijklmn"
        );
        assert_eq!(
            lines[1],
            " 14  d  j  i  v  c  g  u  l  k  c  v  i  j  d  14"
        );
        assert_eq!(lines[8], "  7  .  .  .  .  .  .  . [P] .  .  .  .  .  .  7");
        assert_eq!(
            lines[11],
            "  4  P  P  P  P  P  P  P [.] P  P  P  P  P  P  4"
        );
        let flipped = draw_makro_board(g.position(), Some(m), Color::Black, BoardStyle::Ascii);
        let first = flipped.lines().nth(1).unwrap();
        assert_eq!(first, "  1  D  J  I  V  C  K  L  U  G  C  V  I  J  D  1");
        let color = draw_makro_board(g.position(), Some(m), Color::White, BoardStyle::Color);
        assert!(color.contains("\x1b[48;5;") && color.contains(" L "));
    }
}
