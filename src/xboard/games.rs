//! What CECP needs of each game: moves as XBoard writes and reads them, the thinking line, and which root moves
//! Corvid may play. The session ([`super::session`]) is written once over these.

use super::format::{format_move, format_thinking, format_thinking_text};
use crate::makro::MoveKind;
use crate::rules::Record;
use crate::search::Info;
use crate::variants::{Chess, Makromachy, PerGame, Registered};

/// A game as CECP plays it.
pub(super) trait Cecp: Registered {
    /// The GUI's move text as this game reads it (Makromachy: lower case).
    fn gui_text(text: &str) -> String {
        text.to_string()
    }
    /// The legal move `text` (already through [`Cecp::gui_text`]) stands for, if any.
    fn read_gui_move(pos: &Self::Position, text: &str) -> Option<Self::Move>;
    /// Corvid's move as XBoard reads it.
    fn write_move(pos: &Self::Position, m: Self::Move) -> String;
    /// The thinking line for `info`, searched from `root`.
    fn thinking(info: &Info, root: &Self::Position) -> String;
    /// The root moves Corvid may play, as text (empty: all of them).
    fn search_moves(_pos: &Self::Position, _fast_castling: bool) -> Vec<String> {
        Vec::new()
    }
}

impl Cecp for Chess {
    /// UCI, or SAN (castling also with zeros).
    fn read_gui_move(pos: &crate::chess::Position, text: &str) -> Option<crate::chess::Move> {
        pos.parse_uci_move(text)
            .or_else(|_| pos.parse_san(&text.replace('0', "O")))
            .ok()
    }

    fn write_move(pos: &crate::chess::Position, m: crate::chess::Move) -> String {
        format_move(pos, m)
    }

    fn thinking(info: &Info, root: &crate::chess::Position) -> String {
        format_thinking(info, root)
    }
}

impl Cecp for Makromachy {
    /// Squares and promotion letters are lower case in the rules' notation; a GUI may capitalise the piece.
    fn gui_text(text: &str) -> String {
        text.to_ascii_lowercase()
    }

    /// The rules' notation; a King leg alone that is no King step is read as the castling that starts with it
    /// (a GUI that does not know fast castling sends just the King's move).
    fn read_gui_move(pos: &crate::makro::Position, text: &str) -> Option<crate::makro::Move> {
        pos.parse_move(text).ok().or_else(|| {
            let mut castlings = pos.legal_moves().into_iter().filter(|m| {
                m.kind() == MoveKind::Castling && m.text().split(',').next() == Some(text.trim())
            });
            castlings.next()
        })
    }

    fn write_move(_pos: &crate::makro::Position, m: crate::makro::Move) -> String {
        m.text()
    }

    /// Makromachy PVs are already in the notation XBoard reads.
    fn thinking(info: &Info, _root: &crate::makro::Position) -> String {
        format_thinking_text(info, &info.pv.join(" "))
    }

    /// Without fast castling the search looks at every other move (when there is one).
    fn search_moves(pos: &crate::makro::Position, fast_castling: bool) -> Vec<String> {
        if fast_castling {
            return Vec::new();
        }
        let legal = pos.legal_moves();
        let castling = |m: &crate::makro::Move| m.kind() == MoveKind::Castling;
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

/// One game of a CECP session: the record, and the root of Corvid's running search.
#[derive(Clone, Debug)]
pub(super) struct CecpGame<V: Registered> {
    /// The game so far.
    pub(super) record: Record<V>,
    /// A search for Corvid's move is running from this position.
    pub(super) thinking: Option<V::Position>,
}

impl<V: Registered> CecpGame<V> {
    /// A game from `start`, no search running.
    pub(super) fn new(start: V::Position) -> CecpGame<V> {
        CecpGame {
            record: Record::new(start),
            thinking: None,
        }
    }
}

/// [`CecpGame`] as a [`PerGame`].
pub(super) struct CecpGameOf;
impl PerGame for CecpGameOf {
    type Of<V: Registered> = CecpGame<V>;
}
