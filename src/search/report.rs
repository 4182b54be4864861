//! What a search tells its caller: [`Info`] lines and other [`Event`]s while it runs, a [`SearchResult`] at
//! the end.

use super::score::{Bound, Score};

/// One `info` line's worth of search progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Line number, from 1.
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Win/draw/loss per mille, when asked for.
    pub wdl: Option<(u32, u32, u32)>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Endgame tablebase probes that found the position (all threads).
    pub tbhits: u64,
    /// Time since the search started, in ms.
    pub time_ms: u64,
    /// The principal variation as move texts.
    pub pv: Vec<String>,
}

/// What a search reports while running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Progress of one line (main thread only).
    Info(Info),
    /// The root move being searched (sent after the first second).
    CurrMove {
        /// Iteration depth.
        depth: u32,
        /// The move's text.
        mv: String,
        /// Its number in the root move order, from 1.
        number: usize,
    },
    /// Free text for `info string`.
    Text(String),
}

/// The result of a search, in the game's own moves (front ends write them as text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SearchResult<M> {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<M>,
    /// The expected reply, when known.
    pub ponder: Option<M>,
}
