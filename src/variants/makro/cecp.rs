//! Makromachy under CECP (XBoard 4.9 as an engine-defined variant): moves in the rules' notation both ways,
//! and no fast castling unless asked for, since XBoard cannot show it.

use super::Makromachy;
use crate::game::Cecp;
use crate::makro::{Move, MoveKind, Position};

impl Cecp for Makromachy {
    /// XBoard knows the pieces only from their XBetza descriptions, which cannot say every rule (airlift
    /// landings, flights over ranked pieces, the repetition and anti-trade rules).
    const GUI_KNOWS_RULES: bool = false;

    /// Squares and promotion letters are lower case in the rules' notation; a GUI may capitalise the piece.
    fn gui_text(text: &str) -> String {
        text.to_ascii_lowercase()
    }

    /// The rules' notation; a King leg alone that is no King step is read as the castling that starts with it
    /// (a GUI that does not know fast castling sends just the King's move).
    fn read_gui_move(pos: &Position, text: &str) -> Option<Move> {
        pos.parse_move(text).ok().or_else(|| {
            let mut castlings = pos.legal_moves().into_iter().filter(|m| {
                m.kind() == MoveKind::Castling && m.text().split(',').next() == Some(text.trim())
            });
            castlings.next()
        })
    }

    fn write_move(_pos: &Position, m: Move) -> String {
        m.text()
    }

    /// Makromachy PVs are already in the notation XBoard reads; only moves that exist are shown.
    fn pv_text(root: &Position, pv: &[String]) -> Vec<String> {
        let mut pos = root.clone();
        let mut out = Vec::new();
        for text in pv {
            let Ok(m) = pos.parse_move(text) else {
                break;
            };
            out.push(m.text());
            pos.make_move(m);
        }
        out
    }

    /// Without fast castling the search looks at every other move (when there is one).
    fn search_moves(pos: &Position, fast_castling: bool) -> Vec<String> {
        if fast_castling {
            return Vec::new();
        }
        let legal = pos.legal_moves();
        let castling = |m: &Move| m.kind() == MoveKind::Castling;
        if legal.iter().any(castling) && !legal.iter().all(castling) {
            legal
                .iter()
                .filter(|m| !castling(m))
                .map(|m| m.text())
                .collect()
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn pv_and_gui_moves_in_the_rules_notation() {
        let start = Position::startpos();
        let pv = ["h4h7", "h11h8", "q1q2", "a4a5"].map(String::from);
        assert_eq!(Makromachy::pv_text(&start, &pv), ["h4h7", "h11h8"]);
        let m = Makromachy::read_gui_move(&start, &Makromachy::gui_text("H4H7")).unwrap();
        assert_eq!(Makromachy::write_move(&start, m), "h4h7");
        assert_eq!(Makromachy::read_gui_move(&start, "h4h9"), None);
    }
}
