//! Chess in `corvid play`: the board drawn with glyphs, moves read as SAN or UCI and written as SAN.

use super::Chess;
use crate::chess::{Color, Move, PieceType, Position, Square};
use crate::game::{BoardStyle, PlayHooks};
use crate::types::MoveParseError;
use std::fmt::Write as _;

const HELP: &str = "\
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
pub fn looks_like_move(text: &str) -> bool {
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

impl PlayHooks for Chess {
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::variants::ChessRecord;

    #[test]
    fn lower_case_piece_letters_where_they_are_unambiguous() {
        let read = |fen: &str, text: &str| {
            let pos = Position::from_fen(fen, false).unwrap();
            <Chess as PlayHooks>::read_human(&pos, text).map(|m| pos.to_san(m))
        };
        let start = crate::chess::STARTPOS;
        assert_eq!(read(start, "nf3").as_deref(), Ok("Nf3"));
        assert_eq!(read(start, "Nf3").as_deref(), Ok("Nf3"));
        assert!(read(start, "qh5").is_err(), "no such queen move");
        // A bishop and a b-pawn can both reach c4: `bxc4`/`bc4` stay the pawn's capture, `Bxc4` the bishop's.
        let both = "4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1";
        assert_eq!(read(both, "bxc4").as_deref(), Ok("bxc4"));
        assert_eq!(read(both, "bc4").as_deref(), Ok("bxc4"));
        assert_eq!(read(both, "Bxc4").as_deref(), Ok("Bxc4"));
        // Without the pawn capture, `bc4` and `bxc4` are the bishop's.
        let bishop = "4k3/8/8/8/2p5/8/1P6/4KB2 w - - 0 1";
        assert_eq!(read(bishop, "bxc4").as_deref(), Ok("Bxc4"));
        assert_eq!(read(bishop, "ke2").as_deref(), Ok("Ke2"));
    }

    #[test]
    fn boards() {
        let mut g = ChessRecord::new(Position::startpos());
        let m = g.play_text("e4").unwrap();
        let b = draw_board(g.position(), Some(m), Color::White, BoardStyle::Ascii);
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines[0].trim(), "a  b  c  d  e  f  g  h");
        assert_eq!(lines[1], " 8  r  n  b  q  k  b  n  r  8");
        assert_eq!(lines[5], " 4  .  .  .  . [P] .  .  .  4");
        assert_eq!(lines[7], " 2  P  P  P  P [.] P  P  P  2");
        let flipped = draw_board(g.position(), Some(m), Color::Black, BoardStyle::Ascii);
        let lines: Vec<&str> = flipped.lines().collect();
        assert_eq!(lines[0].trim(), "h  g  f  e  d  c  b  a");
        assert_eq!(lines[1], " 1  R  N  B  K  Q  B  N  R  1");
        let color = draw_board(g.position(), Some(m), Color::White, BoardStyle::Color);
        assert!(color.contains('♚') && color.contains("\x1b[48;5;"));
    }

    #[test]
    fn move_shapes() {
        for m in [
            "e4", "Nf3", "exd5", "O-O", "0-0-0", "e8=Q+", "Qh4#", "g1f3", "e7e8q", "Nbd7", "Ke3",
        ] {
            assert!(looks_like_move(m), "{m}");
        }
        for t in ["hello", "drawe", "resgn", "", "xx", "e9", "Zz4"] {
            assert!(!looks_like_move(t), "{t}");
        }
    }
}
