//! The game-independent search: iterative deepening with aspiration windows over a principal variation
//! search with quiescence, a shared transposition table, and Lazy SMP (helper threads searching the same root
//! and sharing only the table). It is generic over [`Game`] and knows nothing of chess.
//!
//! The engine facade drives it through [`Searcher::run`]: limits and options in, [`Event`]s out through a
//! callback, a [`SearchResult`] (the best move) when done.

pub mod history;
pub mod movepick;
pub mod params;
mod shared;
pub mod strength;
pub mod time;
pub mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::game::{Game, GenKind, MoveBuffer, Wdl};
use history::Histories;
use shared::{RootMove, Shared};
use strength::Strength;
use time::TimeManager;
pub use tt::TranspositionTable;
use worker::Worker;

/// Deepest ply the search reaches (also the longest principal variation).
pub const MAX_PLY: usize = 128;
/// Score of a side that mates right now; mate in `n` plies from the root scores `MATE_SCORE - n`.
pub const MATE_SCORE: i32 = 32000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE_SCORE - MAX_PLY as i32;
/// Larger than any score.
pub const INFINITY: i32 = 32500;
/// Score of a tablebase win right now: just below the mate range; a win found `n` plies from the root scores
/// `TB_WIN - n`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or beyond this magnitude (and below the mate range) are tablebase wins.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Stack size of search threads: deep recursion with move lists on the stack.
const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

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

/// A score as reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in `n` moves; negative when the side to move is being mated, 0 when it is mated already.
    Mate(i32),
}

/// Whether a reported score is exact or a bound (aspiration window failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// At least this (`lowerbound`).
    Lower,
    /// At most this (`upperbound`).
    Upper,
}

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

/// Converts an internal score to the reported form.
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE_SCORE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE_SCORE + v) / 2)
    } else {
        Score::Cp(v)
    }
}

/// Win/draw/loss per mille estimated from a score (a logistic model of the evaluation scale).
pub fn wdl(v: i32) -> (u32, u32, u32) {
    if v >= MATE_BOUND {
        return (1000, 0, 0);
    }
    if v <= -MATE_BOUND {
        return (0, 0, 1000);
    }
    let (a, b) = (190.0, 75.0);
    let x = v as f64;
    let win = 1000.0 / (1.0 + ((a - x) / b).exp());
    let loss = 1000.0 / (1.0 + ((a + x) / b).exp());
    let (w, l) = (win.round() as u32, loss.round() as u32);
    (w, 1000u32.saturating_sub(w + l), l)
}

/// Per-engine search state: history tables per thread, kept between searches.
pub struct Searcher<G: Game> {
    histories: Vec<Histories<G::Move>>,
    /// Seeded from the clock: only for the limited-strength move choice.
    rng: crate::rng::Rng,
}

impl<G: Game> Default for Searcher<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> Searcher<G> {
    /// Fresh state.
    pub fn new() -> Self {
        Searcher {
            histories: Vec::new(),
            rng: crate::rng::Rng::new(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64),
            ),
        }
    }

    /// Forgets what earlier searches learnt (new game).
    pub fn clear(&mut self) {
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// Searches `root` and returns the best move. Blocking; reports through `report` (called from the search
    /// threads; `Info` only from the main one). With no legal move: one `Info` with `Mate(0)` (checkmated) or
    /// `Cp(0)` (stalemate), then `best: None`. While pondering or infinite, returns only after `stop` (or, for
    /// pondering, a ponderhit once the search is complete). The last `Info` of line 1 always starts with the
    /// best move returned, followed by the ponder move when there is one (GUIs show it as the line played).
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &mut self,
        root: &G,
        limits: &Limits,
        searchmoves: &[G::Move],
        opts: &SearchOptions,
        tt: &TranspositionTable,
        control: &Control,
        report: &(dyn Fn(Event) + Sync),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let mut game = root.clone();
        game.set_root();

        let mut list = G::MoveList::default();
        game.generate(GenKind::All, &mut list);
        let mut root_moves: Vec<RootMove<G::Move>> = list
            .as_slice()
            .iter()
            .filter(|sm| searchmoves.is_empty() || searchmoves.contains(&sm.mv))
            .map(|sm| RootMove::new(sm.mv, game.capture_value(sm.mv)))
            .collect();
        if root_moves.is_empty() && !list.as_slice().is_empty() {
            // None of the `searchmoves` is legal: search everything rather than return no move.
            root_moves = list
                .as_slice()
                .iter()
                .map(|sm| RootMove::new(sm.mv, game.capture_value(sm.mv)))
                .collect();
        }
        if root_moves.is_empty() {
            let score = if game.in_check() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            report(Event::Info(Info {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                bound: Bound::Exact,
                wdl: opts.show_wdl.then(|| {
                    if game.in_check() {
                        (0, 0, 1000)
                    } else {
                        (0, 1000, 0)
                    }
                }),
                nodes: 0,
                nps: 0,
                hashfull: tt.hashfull(),
                tbhits: 0,
                time_ms: start.elapsed().as_millis() as u64,
                pv: Vec::new(),
            }));
            wait_while_pondering(limits, control);
            return SearchResult::default();
        }
        // Captures of bigger pieces first until the first iteration orders the moves properly.
        root_moves.sort_by_key(|rm| std::cmp::Reverse(rm.score));
        for rm in &mut root_moves {
            rm.score = -INFINITY;
        }
        let root_tbhits = if opts.tb_max_pieces > 0 {
            rank_by_tablebases(&game, &mut root_moves, opts)
        } else {
            0
        };

        let mut limits = limits.clone();
        let mut multipv = opts.multipv.max(1);
        let mut threads = opts.threads.max(1);
        let strength = opts.limit_elo.map(Strength::for_elo);
        if let Some(strength) = strength {
            // A weaker player: a node budget, one thread, and the move chosen among the best few.
            if let Some(nodes) = strength.nodes {
                limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
            }
            if strength.temperature > 0.0 {
                multipv = multipv.max(strength::CANDIDATES);
            }
            threads = 1;
        }
        let report_multipv = opts.multipv.max(1).min(root_moves.len());
        let multipv = multipv.min(root_moves.len());

        while self.histories.len() < threads {
            self.histories
                .push(Histories::new(G::PIECE_INDICES, G::SQUARES));
        }
        for h in &mut self.histories {
            h.clear_killers();
        }
        tt.new_search();

        // The first two moves of the last line 1 reported and its depth: the final line must agree with the
        // move played and the ponder move (GUIs show the last line as the one the engine plays).
        let last_line: Mutex<Option<(u32, Vec<String>)>> = Mutex::new(None);
        let recording_report = |event: Event| {
            if let Event::Info(info) = &event {
                if info.multipv == 1 {
                    if let Ok(mut last) = last_line.lock() {
                        *last = Some((info.depth, info.pv.iter().take(2).cloned().collect()));
                    }
                }
            }
            report(event);
        };

        let tm = TimeManager::new(&limits, game.side_to_move(), opts.move_overhead_ms, start);
        let node_counters: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
        let shared = Shared {
            tt,
            control,
            abort: AtomicBool::new(false),
            nodes: node_counters,
            limits: limits.clone(),
            multipv,
            report_multipv,
            show_wdl: opts.show_wdl,
            start,
            report: &recording_report,
            threads,
            tb_max_pieces: opts.tb_max_pieces,
            tb_probe_depth: opts.tb_probe_depth,
            tb_rule50: opts.tb_rule50,
            tbhits: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            root_tbhits,
        };

        let mut result_moves = root_moves.clone();
        let mut last_depth = 1;
        std::thread::scope(|scope| {
            let (main_hist, helper_hists) = self.histories.split_at_mut(1);
            let mut helpers = Vec::new();
            for (i, hist) in helper_hists.iter_mut().take(threads - 1).enumerate() {
                let id = i + 1;
                let game = game.clone();
                let rms = root_moves.clone();
                let shared = &shared;
                let h = std::thread::Builder::new()
                    .name(format!("search-{id}"))
                    .stack_size(SEARCH_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut w = Worker::new(id, game, hist, shared, rms, None);
                        w.iterative_deepening();
                    });
                if let Ok(h) = h {
                    helpers.push(h);
                }
            }
            let main_game = game.clone();
            let main_rms = root_moves.clone();
            let main_hist = &mut main_hist[0];
            let shared_ref = &shared;
            let main = std::thread::Builder::new()
                .name("search-main".into())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut w =
                        Worker::new(0, main_game, main_hist, shared_ref, main_rms, Some(tm));
                    w.iterative_deepening();
                    let depth = w.finish();
                    (w.root_moves, depth)
                });
            match main.map(|h| h.join()) {
                Ok(Ok((rms, depth))) => {
                    result_moves = rms;
                    last_depth = depth;
                }
                _ => {
                    // The main search thread could not run: the pre-ordered first move is still legal.
                    shared.abort.store(true, Ordering::Relaxed);
                }
            }
            shared.abort.store(true, Ordering::Relaxed);
            for h in helpers {
                let _ = h.join();
            }
        });

        let chosen = match strength {
            Some(strength) => {
                // Only lines that completed an iteration are compared (an unsearched move has no score).
                let scores: Vec<i32> = result_moves[..multipv]
                    .iter()
                    .map(|rm| rm.display_score())
                    .take_while(|&s| s != -INFINITY)
                    .collect();
                let random = self.rng.next_f64();
                strength.choose(&scores, MATE_BOUND, random)
            }
            None => 0,
        };
        let best = &result_moves[chosen];
        let mut pv = best.pv.clone();
        if pv.len() < 2 {
            // Guess the reply from the table when the PV was cut short, unless the best move ends the game by
            // rule (a third repetition, the fiftieth move): no line goes on from there.
            let mut g = game.clone();
            g.make_move(best.mv);
            let over = g.is_draw() || g.lost_by_rule();
            if let Some(hit) = tt.probe(g.key(), 1).filter(|_| !over) {
                let m = G::move_from_bits(hit.mv);
                if g.is_legal(m) {
                    pv.truncate(1);
                    pv.push(m);
                }
            }
        }
        let best_text = game.move_text(best.mv);
        let ponder_text = pv.get(1).map(|&m| {
            let mut g = game.clone();
            g.make_move(best.mv);
            g.move_text(m)
        });

        // The line played must be the last line 1 reported, starting with the best move and then the ponder
        // move. It is not when the limited-strength choice took another move, when the final sort put a move
        // ahead of the last reported best, or when the ponder move came from the table; then it is
        // reported once more, with the best-known score of the move.
        let printed = last_line.lock().ok().and_then(|mut l| l.take());
        let agrees = printed.as_ref().is_some_and(|(_, p)| {
            p.first() == Some(&best_text) && p.get(1) == ponder_text.as_ref()
        });
        if !agrees {
            let depth = printed.map_or(last_depth, |(d, _)| d as i32);
            let score = shared.final_score(&game, best);
            report(Event::Info(
                shared.line_info(&game, best, &pv, depth, 0, score),
            ));
        }
        SearchResult {
            best: Some(best.mv),
            ponder: pv.get(1).copied(),
        }
    }
}

/// The score the search gives a tablebase verdict `ply` plies from the root: wins and losses just inside the
/// tablebase range, nearer ones better; with the 50-move rule a cursed win or blessed loss is a draw, nudged
/// (as Stockfish does) towards the side that would win over the board.
pub fn tb_score(wdl: Wdl, ply: usize, rule50: bool) -> i32 {
    let w = wdl as i32;
    let draw = rule50 as i32;
    if w > draw {
        TB_WIN - ply as i32
    } else if w < -draw {
        -TB_WIN + ply as i32
    } else {
        2 * w * draw
    }
}

/// Restricts the root moves to those the tablebases rank best (when the root is in the tables) and gives
/// each the tablebase score to report. Returns the number of tablebase hits (one per root move, as Stockfish
/// counts them).
fn rank_by_tablebases<G: Game>(
    game: &G,
    root_moves: &mut Vec<RootMove<G::Move>>,
    opts: &SearchOptions,
) -> u64 {
    let moves: Vec<G::Move> = root_moves.iter().map(|rm| rm.mv).collect();
    let Some(ranks) = game.rank_root_moves(&moves, opts.tb_max_pieces, opts.tb_rule50) else {
        return 0;
    };
    if ranks.len() != root_moves.len() {
        return 0;
    }
    let best = ranks.iter().map(|r| r.rank).max().unwrap_or(0);
    let mut kept = Vec::with_capacity(root_moves.len());
    for (mut rm, r) in root_moves.drain(..).zip(&ranks) {
        if r.rank == best {
            // A win is shown as won in (about) its distance to the next zeroing move.
            let shown = match r.wdl {
                Wdl::Win => TB_WIN - r.dtz.min(MAX_PLY as i32),
                Wdl::Loss => -TB_WIN + r.dtz.min(MAX_PLY as i32),
                w => tb_score(w, 1, opts.tb_rule50),
            };
            rm.tb_score = Some(shown);
            kept.push(rm);
        }
    }
    *root_moves = kept;
    ranks.len() as u64
}

/// UCI: during `go infinite` or `go ponder` the search must not return before `stop` (or a ponderhit).
fn wait_while_pondering(limits: &Limits, control: &Control) {
    while !control.stop.load(Ordering::Relaxed)
        && (limits.infinite || control.pondering.load(Ordering::Relaxed))
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests;
