//! Makromachy's endings (`rules::makro`) bound to the game: its game record.

use super::Makromachy;
use crate::makro::{Move, Position};
use crate::rules::makro::makro_ending;
use crate::rules::{DrawMaterial, Outcome, Record, Rules};

/// A game of Makromachy in progress (named so as not to clash with the search's `variants::MakroGame`).
pub type MakroRecord = Record<Makromachy>;

impl Rules for Makromachy {
    fn ending(
        pos: &Position,
        last: Option<(&Position, Move)>,
        history: &[Position],
    ) -> Option<Outcome> {
        makro_ending(pos, last, history)
    }

    /// The rules' notation (`d4d7`, `c13c14q`, `g2h3,h3i4`, `i1c1,a1i1`).
    fn record_text(_pos: &Position, m: Move) -> String {
        m.text()
    }

    fn fullmove_number(pos: &Position) -> u32 {
        u32::from(pos.fullmove_number())
    }

    fn draw_material(pos: &Position) -> DrawMaterial {
        crate::rules::makro::draw_material(pos)
    }

    fn start_tags(start: &Position) -> Vec<(&'static str, String)> {
        crate::rules::makro::start_tags(start)
    }
}
