//! Move text: reading UCI moves against a position (castling accepted in both the orthodox `e1g1` and the
//! Chess960 king-takes-rook `e1h1` form, whichever is unambiguous).

use super::moves::{Move, MoveKind, MoveParseError};
use super::position::Position;
use super::types::{PieceType, Square};

impl Position {
    /// The legal move written `text` in UCI notation, or why there is none.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let syntax = || MoveParseError::Syntax(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(syntax)?;
        let to = Square::parse(&text[2..4]).ok_or_else(syntax)?;
        let promo = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => match PieceType::from_letter(c as char) {
                Some(
                    p
                    @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen),
                ) => Some(p),
                _ => return Err(syntax()),
            },
        };
        let legal = self.legal_moves();
        // The mode's own notation first; then the other castling form, which can never be mistaken for a
        // normal move except where a king step lands on the castling square (then the normal move wins).
        let own = legal.iter().find(|m| {
            m.from() == from
                && m.promotion_piece() == promo
                && m.to_uci(self.chess960)[2..4] == text[2..4]
        });
        if let Some(&m) = own {
            return Ok(m);
        }
        legal
            .iter()
            .find(|m| {
                m.kind() == MoveKind::Castling
                    && m.from() == from
                    && promo.is_none()
                    && (m.to() == to || m.to_uci(false)[2..4] == text[2..4])
            })
            .copied()
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }
}

/// Standard Algebraic Notation.
impl Position {
    /// The move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`, `Qh4#`), with the fewest disambiguation characters.
    /// `m` must be legal here.
    pub fn to_san(&self, m: Move) -> String {
        let mut s = self.san_without_check(m);
        let mut after = *self;
        after.make_move(m);
        if after.in_check() {
            s.push(if after.count_legal_moves() == 0 {
                '#'
            } else {
                '+'
            });
        }
        s
    }

    fn san_without_check(&self, m: Move) -> String {
        if m.kind() == MoveKind::Castling {
            return if m.to().0 > m.from().0 {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        let Some(piece) = self.piece_on(m.from()) else {
            return m.to_uci(self.chess960);
        };
        let capture = self.is_capture(m);
        let mut s = String::new();
        if piece.kind() == PieceType::Pawn {
            if capture {
                s.push((b'a' + m.from().file()) as char);
                s.push('x');
            }
            s.push_str(&m.to().to_string());
            if let Some(p) = m.promotion_piece() {
                s.push('=');
                s.push(p.letter().to_ascii_uppercase());
            }
            return s;
        }
        s.push(piece.kind().letter().to_ascii_uppercase());
        // Other pieces of the same kind that could also go there decide the disambiguation.
        let rivals: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|o| {
                o.to() == m.to()
                    && o.from() != m.from()
                    && o.kind() != MoveKind::Castling
                    && self.piece_on(o.from()) == Some(piece)
            })
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            let file_unique = rivals.iter().all(|r| r.file() != m.from().file());
            let rank_unique = rivals.iter().all(|r| r.rank() != m.from().rank());
            if file_unique {
                s.push((b'a' + m.from().file()) as char);
            } else if rank_unique {
                s.push((b'1' + m.from().rank()) as char);
            } else {
                s.push_str(&m.from().to_string());
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        s
    }

    /// Reads a move in SAN, leniently: check and annotation marks are optional (`+ # ! ?`), so are `x` and
    /// `=` (`e8Q`), castling may be written with zeros (`0-0`), and a promotion letter may be lower case.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let wanted = normalize_san(text);
        if wanted.is_empty() || !text.is_ascii() {
            return Err(MoveParseError::Syntax(text.to_string()));
        }
        let mut found = None;
        for &m in self.legal_moves().iter() {
            let candidate = normalize_san(&self.san_without_check(m));
            // Lower-case promotion letters: `e8q` reads as `e8Q`, never as a bishop move (`b` stays a file).
            if candidate == wanted
                || (m.promotion_piece().is_some() && candidate.eq_ignore_ascii_case(&wanted))
            {
                if found.is_some() {
                    return Err(MoveParseError::Syntax(format!("{text} (ambiguous)")));
                }
                found = Some(m);
            }
        }
        found.ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }
}

/// SAN reduced to what identifies a move: no check/annotation marks, no `x` or `=`, castling with letters.
fn normalize_san(text: &str) -> String {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    match t {
        "O-O" | "0-0" | "o-o" => return "O-O".into(),
        "O-O-O" | "0-0-0" | "o-o-o" => return "O-O-O".into(),
        _ => {}
    }
    t.chars()
        .filter(|&c| c != 'x' && c != '=' && c != ':')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_round_trips_and_disambiguates() {
        let kiwipete = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        for &m in kiwipete.legal_moves().iter() {
            let san = kiwipete.to_san(m);
            assert_eq!(kiwipete.parse_san(&san).unwrap(), m, "{san}");
        }
        let san = |pos: &Position, uci: &str| pos.to_san(pos.parse_uci_move(uci).unwrap());
        assert_eq!(san(&kiwipete, "e1g1"), "O-O");
        assert_eq!(san(&kiwipete, "e1c1"), "O-O-O");
        assert_eq!(san(&kiwipete, "d5e6"), "dxe6");
        assert_eq!(san(&kiwipete, "e5f7"), "Nxf7");
        // Two rooks on one rank: the file decides; two knights on one file: the rank decides.
        let rooks = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", false).unwrap();
        assert_eq!(san(&rooks, "a1d1"), "Rad1");
        let knights = Position::from_fen("4k3/8/8/1N6/8/1N6/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(san(&knights, "b5d4"), "N5d4");
        // Three queens: file and rank both needed.
        let queens = Position::from_fen("7k/8/8/8/Q1Q5/8/Q7/7K w - - 0 1", false).unwrap();
        assert_eq!(san(&queens, "a4b3"), "Qa4b3");
        let mate = Position::from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1", false).unwrap();
        assert_eq!(san(&mate, "h1h8"), "Rh8#");
        let promo = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false).unwrap();
        assert_eq!(san(&promo, "e7e8q"), "e8=Q");
        assert_eq!(
            promo.parse_san("e8Q").unwrap(),
            promo.parse_uci_move("e7e8q").unwrap()
        );
        assert_eq!(
            promo.parse_san("e8=n").unwrap(),
            promo.parse_uci_move("e7e8n").unwrap()
        );
        assert!(matches!(
            promo.parse_san("e8"),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(
            kiwipete.parse_san("Nh5"),
            Err(MoveParseError::Illegal(_))
        ));
        assert_eq!(
            kiwipete.parse_san("0-0").unwrap(),
            kiwipete.parse_uci_move("e1g1").unwrap()
        );
        assert_eq!(
            kiwipete.parse_san("Qxf6+?!").unwrap(),
            kiwipete.parse_uci_move("f3f6").unwrap()
        );
    }

    #[test]
    fn castling_text_follows_the_mode() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let orthodox = Position::from_fen(fen, false).unwrap();
        let m = orthodox.parse_uci_move("e1g1").unwrap();
        assert_eq!(m.kind(), MoveKind::Castling);
        assert_eq!(m.to_uci(false), "e1g1");
        assert_eq!(m.to_uci(true), "e1h1");
        // King-takes-rook is accepted in orthodox mode too: it can never be a normal move.
        assert_eq!(orthodox.parse_uci_move("e1h1").unwrap(), m);
        assert_eq!(
            orthodox.parse_uci_move("e1a1").unwrap().to_uci(false),
            "e1c1"
        );

        let c960 = Position::from_fen(fen, true).unwrap();
        assert_eq!(c960.parse_uci_move("e1h1").unwrap(), m);
        assert_eq!(c960.parse_uci_move("e1g1").unwrap(), m);
    }

    #[test]
    fn chess960_king_step_onto_castling_square_stays_a_king_step() {
        // King f1, rook h1 (right H): f1g1 is an ordinary king step; castling is f1h1.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1", false).unwrap();
        assert!(pos.is_chess960());
        assert_eq!(pos.parse_uci_move("f1g1").unwrap().kind(), MoveKind::Normal);
        assert_eq!(
            pos.parse_uci_move("f1h1").unwrap().kind(),
            MoveKind::Castling
        );
    }

    #[test]
    fn promotions_and_errors() {
        let pos = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false).unwrap();
        assert_eq!(
            pos.parse_uci_move("e7e8n").unwrap().promotion_piece(),
            Some(PieceType::Knight)
        );
        assert_eq!(pos.parse_uci_move("e7e8q").unwrap().to_uci(false), "e7e8q");
        assert!(matches!(
            pos.parse_uci_move("e7e8"),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(
            pos.parse_uci_move("e7e8k"),
            Err(MoveParseError::Syntax(_))
        ));
        assert!(matches!(
            pos.parse_uci_move("e2e4"),
            Err(MoveParseError::Illegal(_))
        ));
        for bad in ["", "e2", "e2e9", "z1e2", "e2e4qq", "é2e4"] {
            assert!(
                matches!(pos.parse_uci_move(bad), Err(MoveParseError::Syntax(_))),
                "{bad}"
            );
        }
    }
}
