//! One CECP game of whichever variant: the record and the root of Corvid's running search. What CECP needs of
//! each game (moves as XBoard writes and reads them, PVs) is `game::Cecp`, implemented with each game in
//! `crate::variants`.

use crate::rules::Record;
use crate::variants::{PerGame, Registered};

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
