//! What a search may do: the GUI's [`Limits`] for one search, the engine's [`SearchOptions`], and the
//! [`Control`] flags the engine sets while it runs.

use std::sync::atomic::AtomicBool;

/// What the GUI allows for this search (UCI `go` parameters). Times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's clock.
    pub wtime: Option<u64>,
    /// Black's clock.
    pub btime: Option<u64>,
    /// White's increment per move.
    pub winc: Option<u64>,
    /// Black's increment per move.
    pub binc: Option<u64>,
    /// Moves until the next time control (sudden death when absent).
    pub movestogo: Option<u32>,
    /// Search this many plies, no more.
    pub depth: Option<u32>,
    /// Search about this many nodes (all threads together), no more.
    pub nodes: Option<u64>,
    /// Start no new iteration once the main thread has searched this many nodes (data generation: a fixed
    /// budget that still ends on a completed iteration, so its score is exact).
    pub soft_nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search exactly this long.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// `go ponder`: the engine also sets `Control::pondering` until the ponderhit.
    pub ponder: bool,
}

/// Engine options that shape a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Search threads (0 is taken as 1).
    pub threads: usize,
    /// Principal variations to report (0 is taken as 1).
    pub multipv: usize,
    /// Milliseconds kept back from the clock on every move for GUI and OS latency.
    pub move_overhead_ms: u64,
    /// `Some(elo)` when UCI_LimitStrength is on.
    pub limit_elo: Option<u32>,
    /// Report win/draw/loss estimates.
    pub show_wdl: bool,
    /// Probe endgame tablebases in positions of at most this many pieces (0: no probes).
    pub tb_max_pieces: u32,
    /// Probe inside the tree only at this remaining depth or more.
    pub tb_probe_depth: i32,
    /// Does the 50-move rule turn cursed tablebase wins and blessed losses into draws?
    pub tb_rule50: bool,
}

/// Signals from the engine to a running search.
#[derive(Debug, Default)]
pub struct Control {
    /// Stop as soon as possible (UCI `stop`/`quit`).
    pub stop: AtomicBool,
    /// True during `go ponder`; cleared on `ponderhit`, from which moment the clock runs.
    pub pondering: AtomicBool,
}
