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

#[cfg(test)]
mod tests {
    use super::*;

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
