//! The game-independent search: iterative deepening with aspiration windows over a principal variation
//! search with quiescence, a shared transposition table, and Lazy SMP (helper threads searching the same root
//! and sharing only the table). It is generic over [`Game`] and knows nothing of chess.
//!
//! The engine facade drives it through [`Searcher::run`]: limits and options in, [`Event`]s out through a
//! callback, a [`SearchResult`] (the best move) when done.
//!
//! Files: `score.rs` the score scale, `limits.rs` what a search may do, `report.rs` what it reports,
//! `worker.rs` one thread's search, `shared.rs` what the threads share, `pool.rs` the threads (kept between
//! searches), `tt.rs`, `history.rs`, `correction.rs`, `movepick.rs`, `time.rs`, `strength.rs` (UCI_Elo), `params.rs` the
//! tunables.

mod correction;
pub mod history;
pub mod limits;
pub mod movepick;
pub mod params;
mod pool;
pub mod report;
pub mod score;
mod shared;
pub mod strength;
pub mod time;
pub mod tt;
mod worker;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::game::{Game, GenKind, MoveBuffer, Wdl};
use history::Histories;
pub use limits::{Control, Limits, SearchOptions};
use pool::{ScopedJob, ThreadPool};
pub use report::{Event, Info, SearchResult};
pub use score::*;
use shared::{RootMove, Shared};
use strength::Strength;
use time::TimeManager;
pub use tt::TranspositionTable;
use worker::Worker;

/// Per-engine search state: history tables per thread and the threads themselves, kept between searches.
pub struct Searcher<G: Game> {
    histories: Vec<Histories<G::Move>>,
    threads: ThreadPool,
    /// Seeded from the clock: only for the limited-strength move choice.
    rng: crate::rng::Rng,
}

impl<G: Game> Default for Searcher<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// How one search is run: the limits after the strength limit, the lines searched and reported, the threads.
struct Plan {
    limits: Limits,
    strength: Option<Strength>,
    /// Lines searched (more than reported when playing weaker, to choose among).
    multipv: usize,
    /// Lines reported.
    report_multipv: usize,
    threads: usize,
}

impl Plan {
    /// The plan for `opts` with `root_moves` moves to search: a limited strength means a node budget, one
    /// thread, and the move chosen among the best few.
    fn new(limits: &Limits, opts: &SearchOptions, root_moves: usize) -> Plan {
        let mut limits = limits.clone();
        let mut multipv = opts.multipv.max(1);
        let mut threads = opts.threads.max(1);
        let strength = opts.limit_elo.map(Strength::for_elo);
        if let Some(strength) = strength {
            if let Some(nodes) = strength.nodes {
                limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
            }
            if strength.temperature > 0.0 {
                multipv = multipv.max(strength::CANDIDATES);
            }
            threads = 1;
        }
        Plan {
            limits,
            strength,
            multipv: multipv.min(root_moves),
            report_multipv: opts.multipv.max(1).min(root_moves),
            threads,
        }
    }
}

/// The depth and first two moves of the last line 1 reported: the final line must agree with the move played
/// and the ponder move (GUIs show the last line as the one the engine plays).
type LastLine = Mutex<Option<(u32, Vec<String>)>>;

impl<G: Game> Searcher<G> {
    /// Fresh state.
    pub fn new() -> Self {
        Searcher {
            histories: Vec::new(),
            threads: ThreadPool::new(),
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

        let Some(mut root_moves) = root_moves(&game, searchmoves) else {
            report_no_move(&game, opts, tt, start, report);
            wait_while_pondering(limits, control);
            return SearchResult::default();
        };
        let root_tbhits = if opts.tb_max_pieces > 0 {
            rank_by_tablebases(&game, &mut root_moves, opts)
        } else {
            0
        };
        let plan = Plan::new(limits, opts, root_moves.len());
        self.prepare(plan.threads, tt);

        let last_line: LastLine = Mutex::new(None);
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
        let shared = Shared {
            tt,
            control,
            abort: std::sync::atomic::AtomicBool::new(false),
            nodes: (0..plan.threads).map(|_| AtomicU64::new(0)).collect(),
            limits: plan.limits.clone(),
            multipv: plan.multipv,
            report_multipv: plan.report_multipv,
            show_wdl: opts.show_wdl,
            start,
            report: &recording_report,
            threads: plan.threads,
            tb_max_pieces: opts.tb_max_pieces,
            tb_probe_depth: opts.tb_probe_depth,
            tb_rule50: opts.tb_rule50,
            tbhits: (0..plan.threads).map(|_| AtomicU64::new(0)).collect(),
            root_tbhits,
        };
        let tm = TimeManager::new(
            &plan.limits,
            game.side_to_move(),
            opts.move_overhead_ms,
            start,
        );
        let (result_moves, last_depth) = self.search_threads(&game, root_moves, &shared, tm);
        let chosen = self.choose(plan.strength, &result_moves[..plan.multipv]);
        let printed = last_line.lock().ok().and_then(|mut l| l.take());
        final_line(
            &game,
            &result_moves[chosen],
            &shared,
            printed,
            last_depth,
            report,
        )
    }

    /// History tables for `threads` threads (killers cleared: they belong to the last position), and a new
    /// search generation in the table.
    fn prepare(&mut self, threads: usize, tt: &TranspositionTable) {
        while self.histories.len() < threads {
            self.histories
                .push(Histories::new(G::PIECE_INDICES, G::SQUARES));
        }
        for h in &mut self.histories {
            h.clear_killers();
        }
        tt.new_search();
    }

    /// Runs the main thread (with the time manager) and the helpers on the pool; returns the main thread's
    /// root moves, best first, and its last completed depth. Should the main thread fail, the pre-ordered
    /// first move is still legal.
    fn search_threads(
        &mut self,
        game: &G,
        root_moves: Vec<RootMove<G::Move>>,
        shared: &Shared<'_>,
        tm: TimeManager,
    ) -> (Vec<RootMove<G::Move>>, i32) {
        type Outcome<M> = Option<(Vec<RootMove<M>>, i32)>;
        let mut jobs: Vec<ScopedJob<'_, Outcome<G::Move>>> = Vec::with_capacity(shared.threads);
        let mut tm = Some(tm);
        for (id, hist) in self.histories.iter_mut().take(shared.threads).enumerate() {
            let game = game.clone();
            let rms = root_moves.clone();
            let tm = tm.take();
            jobs.push(Box::new(move || {
                let mut w = Worker::new(id, game, hist, shared, rms, tm);
                w.iterative_deepening();
                if id != 0 {
                    return None;
                }
                // `finish` also stops the helpers.
                let depth = w.finish();
                Some((w.root_moves, depth))
            }));
        }
        let mut results = self.threads.run_scoped(jobs);
        shared.abort.store(true, Ordering::Relaxed);
        match results.first_mut().and_then(Option::take).flatten() {
            Some(main) => main,
            None => (root_moves, 1),
        }
    }

    /// Which of the `lines` (best first) to play: the best, or under a strength limit the limit's choice
    /// among the lines that completed an iteration (an unsearched move has no score).
    fn choose(&mut self, strength: Option<Strength>, lines: &[RootMove<G::Move>]) -> usize {
        let Some(strength) = strength else {
            return 0;
        };
        let scores: Vec<i32> = lines
            .iter()
            .map(|rm| rm.display_score())
            .take_while(|&s| s != -INFINITY)
            .collect();
        let random = self.rng.next_f64();
        strength.choose(&scores, MATE_BOUND, random)
    }
}

/// The root moves to search: the legal ones among `searchmoves` (all when it is empty or names none that is
/// legal), captures of bigger pieces first until the first iteration orders them; `None` without a legal
/// move.
fn root_moves<G: Game>(game: &G, searchmoves: &[G::Move]) -> Option<Vec<RootMove<G::Move>>> {
    let mut list = G::MoveList::default();
    game.generate(GenKind::All, &mut list);
    let legal = list.as_slice();
    // None of the `searchmoves` legal: search everything rather than return no move.
    let restrict = legal.iter().any(|sm| searchmoves.contains(&sm.mv));
    let mut root_moves: Vec<RootMove<G::Move>> = legal
        .iter()
        .filter(|sm| !restrict || searchmoves.contains(&sm.mv))
        .map(|sm| RootMove::new(sm.mv, game.capture_value(sm.mv)))
        .collect();
    if root_moves.is_empty() {
        return None;
    }
    root_moves.sort_by_key(|rm| std::cmp::Reverse(rm.score));
    for rm in &mut root_moves {
        rm.score = -INFINITY;
    }
    Some(root_moves)
}

/// The one line of a root without a legal move: mated (`Mate(0)`) or stalemated (`Cp(0)`).
fn report_no_move<G: Game>(
    game: &G,
    opts: &SearchOptions,
    tt: &TranspositionTable,
    start: Instant,
    report: &(dyn Fn(Event) + Sync),
) {
    let mated = game.in_check();
    report(Event::Info(Info {
        depth: 0,
        seldepth: 0,
        multipv: 1,
        score: if mated { Score::Mate(0) } else { Score::Cp(0) },
        bound: Bound::Exact,
        wdl: opts
            .show_wdl
            .then_some(if mated { (0, 0, 1000) } else { (0, 1000, 0) }),
        nodes: 0,
        nps: 0,
        hashfull: tt.hashfull(),
        tbhits: 0,
        time_ms: start.elapsed().as_millis() as u64,
        pv: Vec::new(),
    }));
}

/// The result for root move `best`, and the line played. The last line 1 reported (`printed`) must start
/// with the best move and then the ponder move; it does not when the limited-strength choice took another
/// move, when the final sort put a move ahead of the last reported best, or when the ponder move came from the
/// table. Then the line is reported once more, with the best-known score of the move.
fn final_line<G: Game>(
    game: &G,
    best: &RootMove<G::Move>,
    shared: &Shared<'_>,
    printed: Option<(u32, Vec<String>)>,
    last_depth: i32,
    report: &(dyn Fn(Event) + Sync),
) -> SearchResult<G::Move> {
    let mut pv = best.pv.clone();
    if pv.len() < 2 {
        // Guess the reply from the table when the PV was cut short, unless the best move ends the game by
        // rule (a third repetition, the fiftieth move): no line goes on from there.
        let mut g = game.clone();
        g.make_move(best.mv);
        let over = g.is_draw() || g.lost_by_rule();
        if let Some(hit) = shared.tt.probe(g.key(), 1).filter(|_| !over) {
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
    let agrees = printed
        .as_ref()
        .is_some_and(|(_, p)| p.first() == Some(&best_text) && p.get(1) == ponder_text.as_ref());
    if !agrees {
        let depth = printed.map_or(last_depth, |(d, _)| d as i32);
        let score = shared.final_score(game, best);
        report(Event::Info(
            shared.line_info(game, best, &pv, depth, 0, score),
        ));
    }
    SearchResult {
        best: Some(best.mv),
        ponder: pv.get(1).copied(),
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
