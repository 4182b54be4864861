//! Makromachy under CECP (XBoard 4.9 as an engine-defined variant): moves in the rules' notation both ways,
//! and no fast castling unless asked for, since XBoard cannot show it.

use super::Makromachy;
use crate::game::{Cecp, CecpVariant};
use crate::makro::geometry::{rank_of, RANKS};
use crate::makro::{Move, MoveKind, Position};
use crate::types::Color;

impl Cecp for Makromachy {
    /// XBoard knows the pieces only from their XBetza descriptions, which cannot say every rule (airlift
    /// landings, flights over ranked pieces, the repetition and anti-trade rules).
    const GUI_KNOWS_RULES: bool = false;

    /// An engine-defined variant of XBoard 4.9: naming it always starts a game and sends its set-up.
    const CECP_VARIANTS: &'static [CecpVariant] = &[CecpVariant {
        name: "makromachy",
        chess960: false,
        restarts: true,
    }];

    /// The `setup` command (board, piece letters, start position) and one `piece` command per kind.
    fn setup_lines() -> Vec<String> {
        crate::makro::xbetza::makro_variant_lines()
    }

    /// Without fast castling the game starts without castling rights, as XBoard records it (its FEN tag,
    /// and the `setboard` it sends the second engine, have none: it cannot show this castling), so both
    /// engines and XBoard's record count repetitions alike.
    fn cecp_start(_chess960: bool, fast_castling: bool) -> Position {
        if fast_castling {
            Position::startpos()
        } else {
            let fen = crate::makro::STARTPOS.replacen(" KQkq ", " - ", 1);
            Position::from_fen(&fen).unwrap_or_else(|_| Position::startpos())
        }
    }

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

    /// The moves XBoard 4.9 shows as the rules play them (all, when none or all of them are): no fast
    /// castling unless asked for, and no en-passant capture from the capturer's own half of the board
    /// (XBoard's chess code removes the piece taken en passant only when the capturer starts in the
    /// opponent's half; elsewhere its board would keep that piece).
    fn search_moves(pos: &Position, fast_castling: bool) -> Vec<String> {
        let shown = |m: &Move| match m.kind() {
            MoveKind::Castling => fast_castling,
            MoveKind::EnPassant => match pos.side_to_move() {
                Color::White => rank_of(m.from()) >= RANKS / 2,
                Color::Black => rank_of(m.from()) < RANKS / 2,
            },
            _ => true,
        };
        let legal = pos.legal_moves();
        if legal.iter().all(shown) || !legal.iter().any(shown) {
            return Vec::new();
        }
        legal
            .iter()
            .filter(|m| shown(m))
            .map(|m| m.text())
            .collect()
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

    #[test]
    fn search_moves_leave_out_what_xboard_cannot_show() {
        // Nothing to leave out: every move.
        assert!(Makromachy::search_moves(&Position::startpos(), false).is_empty());
        // A black Warrior's double step into White's half: White's Pawn on d4 may take it en passant on e5,
        // which XBoard would show without removing the Warrior; the Pawn's pushes stay.
        let mut pos =
            Position::from_fen("13k/14/14/14/14/14/14/14/4w9/14/3P10/14/14/K13 b - - 0 1").unwrap();
        pos.make_move(pos.parse_move("e6e4").unwrap());
        let moves = Makromachy::search_moves(&pos, false);
        let legal = pos.legal_moves();
        let ep: Vec<String> = legal
            .iter()
            .filter(|m| m.kind() == MoveKind::EnPassant)
            .map(|m| m.text())
            .collect();
        assert_eq!(ep, ["d4e5"], "{legal:?}");
        assert!(!moves.is_empty() && !moves.contains(&ep[0]), "{moves:?}");
        assert_eq!(moves.len() + 1, legal.len());
    }
}
