//! TEMPORARY STUB of the search API contract (../notes/common.md) so that the protocol layer compiles before
//! the `search` branch is merged. The merge replaces this file with the real search.

use std::sync::atomic::AtomicBool;

/// Limits of one `go` (times in ms).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
}

/// Options of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub limit_elo: Option<u32>,
    pub show_wdl: bool,
}

/// Flags the engine sets while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    pub stop: AtomicBool,
    pub pondering: AtomicBool,
}

/// A score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

/// Bound of a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One iteration's report.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub wdl: Option<(u32, u32, u32)>,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<String>,
}

/// What the search reports while running.
#[derive(Clone, Debug)]
pub enum Event {
    Info(Info),
    CurrMove {
        depth: u32,
        mv: String,
        number: usize,
    },
    Text(String),
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub best: Option<String>,
    pub ponder: Option<String>,
}
