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

pub mod tt;
pub use tt::TranspositionTable;

use crate::chess::game::ChessGame;
use std::marker::PhantomData;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// STUB searcher: plays the first legal move, "deepening" once per millisecond, honouring the stop/ponder
/// rules of the contract so the engine facade can be exercised before the real search is merged.
pub struct Searcher<G> {
    _game: PhantomData<G>,
}

impl<G> Default for Searcher<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G> Searcher<G> {
    /// Fresh state.
    pub fn new() -> Self {
        Searcher { _game: PhantomData }
    }
    /// Forgets earlier searches.
    pub fn clear(&mut self) {}
}

impl Searcher<ChessGame> {
    /// Blocking search (stub).
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &mut self,
        root: &ChessGame,
        limits: &Limits,
        searchmoves: &[crate::chess::Move],
        _opts: &SearchOptions,
        tt: &TranspositionTable,
        control: &Control,
        report: &(dyn Fn(Event) + Sync),
    ) -> Outcome {
        let start = Instant::now();
        let pos = root.position();
        let moves: Vec<_> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
            .collect();
        let wait = || {
            while !control.stop.load(Ordering::Relaxed)
                && (limits.infinite || control.pondering.load(Ordering::Relaxed))
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        let Some(best) = moves.first() else {
            report(Event::Info(Info {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score: if pos.in_check() {
                    Score::Mate(0)
                } else {
                    Score::Cp(0)
                },
                bound: Bound::Exact,
                wdl: None,
                nodes: 0,
                nps: 0,
                hashfull: tt.hashfull(),
                time_ms: 0,
                pv: vec![],
            }));
            wait();
            return Outcome::default();
        };
        let max_depth = limits
            .depth
            .unwrap_or(if limits.movetime.is_some() { 1000 } else { 5 });
        let budget = limits.movetime.unwrap_or(u64::MAX);
        let mut depth = 1;
        while depth <= max_depth
            && !control.stop.load(Ordering::Relaxed)
            && (start.elapsed().as_millis() as u64) < budget
        {
            report(Event::Info(Info {
                depth,
                seldepth: depth,
                multipv: 1,
                score: Score::Cp(0),
                bound: Bound::Exact,
                wdl: None,
                nodes: u64::from(depth),
                nps: 0,
                hashfull: 0,
                time_ms: start.elapsed().as_millis() as u64,
                pv: vec![best.to_uci(pos.is_chess960())],
            }));
            depth += 1;
            std::thread::sleep(Duration::from_millis(1));
        }
        wait();
        Outcome {
            best: Some(best.to_uci(pos.is_chess960())),
            ponder: None,
        }
    }
}
