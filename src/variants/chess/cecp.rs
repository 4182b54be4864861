//! Chess and Chess960 under CECP: moves read as UCI or SAN, written as coordinates (Chess960 castling as
//! `O-O`), PVs shown in SAN.

use super::Chess;
use crate::chess::{Move, MoveKind, Position};
use crate::game::{Cecp, CecpVariant};

impl Cecp for Chess {
    /// `variant normal` goes on with a chess game (only another game is replaced); `fischerandom` starts
    /// one at the standard array until `setboard` brings the real one (a valid Chess960 array too).
    const CECP_VARIANTS: &'static [CecpVariant] = &[
        CecpVariant {
            name: "normal",
            chess960: false,
            restarts: false,
        },
        CecpVariant {
            name: "fischerandom",
            chess960: true,
            restarts: true,
        },
    ];

    /// UCI, or SAN (castling also with zeros).
    fn read_gui_move(pos: &Position, text: &str) -> Option<Move> {
        pos.parse_uci_move(text)
            .or_else(|_| pos.parse_san(&text.replace('0', "O")))
            .ok()
    }

    /// Coordinates, but `O-O`/`O-O-O` for castling in Chess960: XBoard reads a Chess960 King-takes-Rook
    /// move as an ordinary one.
    fn write_move(pos: &Position, m: Move) -> String {
        if pos.is_chess960() && m.kind() == MoveKind::Castling {
            if m.to().file() > m.from().file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            }
        } else {
            m.to_uci(false)
        }
    }

    /// SAN, which XBoard shows as it is.
    fn pv_text(root: &Position, pv: &[String]) -> Vec<String> {
        let mut pos = *root;
        let mut out = Vec::new();
        for text in pv {
            let Ok(m) = pos.parse_uci_move(text) else {
                break;
            };
            out.push(pos.to_san(m));
            pos.make_move(m);
        }
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn pv_in_san_up_to_the_first_bad_move() {
        let pv = ["g1f3", "d7d5", "zz", "e2e4"].map(String::from);
        assert_eq!(Chess::pv_text(&Position::startpos(), &pv), ["Nf3", "d5"]);
    }

    #[test]
    fn chess960_castling_is_written_o_o() {
        let p = Position::from_fen(
            "bqnbrk1r/pppppppp/8/8/8/8/PPPPPPPP/BQNBRK1R w HEhe - 0 1",
            true,
        )
        .unwrap();
        let castle = p
            .legal_moves()
            .iter()
            .find(|m| m.kind() == MoveKind::Castling)
            .copied()
            .unwrap();
        assert_eq!(Chess::write_move(&p, castle), "O-O");
        let n = p.parse_uci_move("c1d3").unwrap();
        assert_eq!(Chess::write_move(&p, n), "c1d3");
        assert_eq!(Chess::read_gui_move(&p, "Nd3"), Some(n));
        assert_eq!(Chess::read_gui_move(&p, "0-0"), Some(castle));
    }
}
