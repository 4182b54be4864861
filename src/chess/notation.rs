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
