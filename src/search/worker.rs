//! One search thread: iterative deepening, the root search, the principal variation search and quiescence.
//! Thread 0 is the main thread: it watches the clock and the limits and reports; helpers (Lazy SMP) search
//! the same root and help only through the shared transposition table.

use std::sync::atomic::Ordering;
#[cfg(not(feature = "tune"))]
use std::sync::LazyLock;

use super::history::{history_bonus, Histories};
use super::movepick::{MovePicker, OrderContext};
use super::params::*;
use super::shared::{RootMove, Shared};
use super::time::TimeManager;
use super::tt::{TtBound, NO_EVAL};
use super::*;
use crate::game::{Game, GenKind, MoveBuffer};

// The node searches (PVS and quiescence) and their updates; a child module so they keep the worker's
// fields private.
mod node;

/// Per-ply search state.
#[derive(Clone, Copy)]
struct Frame<M> {
    /// Static evaluation (`NO_EVAL` when in check).
    eval: i32,
    /// Piece-square index of the move made at this ply (`None` for a null move or none yet).
    ps: Option<usize>,
    /// Was the move made at this ply a null move?
    null: bool,
    /// The move left out by a singular-extension search of this node.
    excluded: M,
    /// How many plies late-move reduction took from the move made at this ply (hindsight reduction).
    reduction: i32,
    /// Was the move made at this ply a capture or promotion?
    noisy: bool,
    /// Beta cutoffs among the nodes at this ply under the current parent (the parent's later moves are
    /// reduced more when its children keep failing high).
    cutoffs: i32,
}

/// A ply before its first move: no evaluation yet, nothing made, nothing excluded.
impl<M: Default> Default for Frame<M> {
    fn default() -> Self {
        Frame {
            eval: NO_EVAL,
            ps: None,
            null: false,
            excluded: M::default(),
            reduction: 0,
            noisy: false,
            cutoffs: 0,
        }
    }
}

/// The late-move reduction at `depth` for move number `moves` (both at least 1; 0 otherwise).
fn lmr_formula(depth: usize, moves: usize) -> i32 {
    if depth == 0 || moves == 0 {
        return 0;
    }
    (lmr_base() + (depth as f64).ln() * (moves as f64).ln() / lmr_divisor()) as i32
}

/// Late-move reduction table, by depth and move number (a normal build's tunables are constants, so it is
/// built once).
#[cfg(not(feature = "tune"))]
static LMR: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate() {
        for (m, r) in row.iter_mut().enumerate() {
            *r = lmr_formula(d, m);
        }
    }
    t
});

#[inline(always)]
fn lmr(depth: i32, moves: usize) -> i32 {
    let (d, m) = ((depth.max(0) as usize).min(63), moves.min(63));
    #[cfg(not(feature = "tune"))]
    return LMR[d][m];
    // A tune build computes each reduction from the live tunables, so an SPSA step takes effect at once.
    #[cfg(feature = "tune")]
    return lmr_formula(d, m);
}

/// Quiet moves remembered per node for the history malus.
const MAX_TRIED: usize = 64;

pub struct Worker<'a, G: Game> {
    id: usize,
    game: G,
    hist: &'a mut Histories<G::Move>,
    shared: &'a Shared<'a>,
    pub root_moves: Vec<RootMove<G::Move>>,
    tm: Option<TimeManager>,
    nodes: u64,
    /// Tablebase hits of this thread.
    tbhits: u64,
    /// Per-thread node budget derived from `go nodes`.
    node_limit: Option<u64>,
    seldepth: usize,
    stopped: bool,
    was_pondering: bool,
    completed_depth: i32,
    pv_idx: usize,
    frames: Vec<Frame<G::Move>>,
    /// Depth of the current iteration (bounds extensions).
    root_depth: i32,
    pv: Vec<[G::Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
}

impl<'a, G: Game> Worker<'a, G> {
    pub fn new(
        id: usize,
        game: G,
        hist: &'a mut Histories<G::Move>,
        shared: &'a Shared<'a>,
        root_moves: Vec<RootMove<G::Move>>,
        tm: Option<TimeManager>,
    ) -> Self {
        let mut game = game;
        // Clones do not keep spare capacity: reserve again so that making moves never reallocates.
        game.set_root();
        let node_limit = shared
            .limits
            .nodes
            .map(|n| (n / shared.threads as u64).max(1));
        Worker {
            id,
            game,
            hist,
            shared,
            root_moves,
            tm,
            nodes: 0,
            tbhits: 0,
            node_limit,
            seldepth: 0,
            stopped: false,
            was_pondering: shared.control.pondering.load(Ordering::Relaxed),
            completed_depth: 0,
            pv_idx: 0,
            frames: vec![Frame::default(); MAX_PLY + 4],
            pv: vec![[G::Move::default(); MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_depth: 0,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    fn elapsed_ms(&self) -> u64 {
        self.shared.start.elapsed().as_millis() as u64
    }

    /// Polls the stop conditions; cheap except every 512 nodes.
    #[inline(always)]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // Limits may cut even the first iteration: a Makromachy depth 1 can take millions of nodes, and the
        // move ordered first at the root (or the best of those already searched) is still a legal answer.
        if self.is_main() {
            if let Some(limit) = self.node_limit {
                if self.nodes >= limit {
                    self.stopped = true;
                    return true;
                }
            }
        }
        if self.nodes & 511 == 0 {
            self.poll();
        }
        self.stopped
    }

    #[cold]
    fn poll(&mut self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        self.shared.tbhits[self.id].store(self.tbhits, Ordering::Relaxed);
        if self.shared.abort.load(Ordering::Relaxed)
            || self.shared.control.stop.load(Ordering::Relaxed)
        {
            self.stopped = true;
            return;
        }
        if !self.is_main() {
            return;
        }
        let pondering = self.shared.control.pondering.load(Ordering::Relaxed);
        if let Some(tm) = &mut self.tm {
            if self.was_pondering && !pondering {
                // Ponderhit: our clock starts now.
                tm.restart();
            }
            if !pondering && tm.hard_limit_reached() {
                self.stopped = true;
            }
        }
        self.was_pondering = pondering;
    }

    /// Does every root move end the game by rule or leave the opponent without a legal move?
    fn all_root_moves_end_the_game(&mut self) -> bool {
        let moves: Vec<G::Move> = self.root_moves.iter().map(|rm| rm.mv).collect();
        moves.into_iter().all(|m| {
            self.game.make_move(m);
            let mut replies = G::MoveList::default();
            self.game.generate(GenKind::All, &mut replies);
            let over =
                self.game.is_draw() || self.game.lost_by_rule() || replies.as_slice().is_empty();
            self.game.unmake_move();
            over
        })
    }

    /// Iterative deepening: depth 1, 2, … until a limit, a stop, or (main thread) the time manager says so.
    pub fn iterative_deepening(&mut self) {
        let max_depth = self.shared.limits.depth.map_or(MAX_PLY as i32 - 1, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 1)
        });
        let mut best_changes = 0.0f64;
        let mut last_best = self.root_moves[0].mv;
        let mut stable_iterations = 0;
        let mut last_score = -INFINITY;
        // When every root move ends the game at once (the fiftieth move, a third repetition, mate or
        // stalemate), deeper iterations cost a node or two each and change nothing: a timed search stops after
        // the first instead of printing instant iterations up to the maximum depth.
        let all_moves_end_the_game = self.is_main() && self.all_root_moves_end_the_game();

        for depth in 1..=max_depth {
            for rm in &mut self.root_moves {
                rm.prev_score = rm.display_score();
            }
            for pv_idx in 0..self.shared.multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth);
                if self.stopped {
                    break;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !self.is_main() {
                continue;
            }
            self.report_lines(depth);

            // Stop conditions checked between iterations (main thread only).
            if self
                .shared
                .limits
                .soft_nodes
                .is_some_and(|soft| self.nodes >= soft)
            {
                break;
            }
            let best = &self.root_moves[0];
            let score = best.score;
            if let Some(m) = self.shared.limits.mate {
                if score >= MATE_BOUND && (MATE_SCORE - score + 1) / 2 <= m as i32 {
                    break;
                }
            }
            if best.mv == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
                best_changes += 1.0;
            }
            best_changes *= 0.5;
            last_best = best.mv;
            let pondering = self.shared.control.pondering.load(Ordering::Relaxed);
            // A mate found and confirmed by a few deeper iterations will not change: searching on only prints
            // one instant iteration after another up to the maximum depth (a GUI's thinking output fills
            // with them). Untimed searches (fixed depth or nodes, infinite, bench) keep their limit.
            if self.tm.as_ref().is_some_and(|tm| tm.is_timed())
                && !pondering
                && score.abs() >= MATE_BOUND
                && depth >= MATE_SCORE - score.abs() + 8
            {
                break;
            }
            if all_moves_end_the_game
                && !pondering
                && self.tm.as_ref().is_some_and(|tm| tm.is_timed())
            {
                break;
            }
            if let Some(tm) = &self.tm {
                // Unstable best move or a falling score: more time; the same move for many iterations, or
                // a best move that took most of the effort (the others were refuted quickly): less.
                let instability = 1.0 + tm_change_weight() as f64 / 100.0 * best_changes;
                let falling = if last_score == -INFINITY {
                    1.0
                } else {
                    (1.0 + (last_score - score) as f64 / tm_falling_per_cp() as f64)
                        .clamp(0.8, tm_falling_max_percent() as f64 / 100.0)
                };
                let stable = (tm_stable_base() - tm_stable_step() * stable_iterations.min(10))
                    as f64
                    / 100.0;
                let total: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
                let effort = if depth >= tm_node_min_depth() && total > 0 {
                    let share = best.nodes as f64 / total as f64;
                    ((tm_node_base() as f64 / 100.0 - share) * tm_node_scale() as f64 / 100.0)
                        .clamp(0.5, 2.0)
                } else {
                    1.0
                };
                let mut factor = instability * falling * stable * effort;
                if self.root_moves.len() == 1 {
                    factor = tm_single_move_percent() as f64 / 100.0;
                }
                if !pondering && tm.soft_limit_reached(factor) {
                    break;
                }
            }
            last_score = score;
        }
    }

    /// Called on the main thread after iterative deepening: honours the UCI rule that an infinite or ponder
    /// search waits for `stop`, then reports the final line if the last iteration was cut short. Returns the
    /// depth of the last line reported.
    pub fn finish(&mut self) -> i32 {
        super::wait_while_pondering(&self.shared.limits, self.shared.control);
        self.shared.abort.store(true, Ordering::Relaxed);
        self.root_moves[..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        if !self.stopped {
            return self.completed_depth.max(1);
        }
        // The stable sort above keeps the previous best first unless a move proved better in the cut
        // iteration. That move is reported even without a score from this iteration: after an aspiration
        // fail high the new best move leads with only its bound, and skipping it left the GUI showing
        // another move's line.
        let depth = (self.completed_depth + 1).max(1);
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        let rm = &self.root_moves[0];
        let score = self.shared.final_score(&self.game, rm);
        let info = self
            .shared
            .line_info(&self.game, rm, &rm.pv, depth, 0, score);
        (self.shared.report)(Event::Info(info));
        depth
    }

    fn report_lines(&mut self, depth: i32) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        self.shared.tbhits[self.id].store(self.tbhits, Ordering::Relaxed);
        for i in 0..self.shared.report_multipv.min(self.root_moves.len()) {
            let rm = &self.root_moves[i];
            let score = rm.display_score();
            if score == -INFINITY {
                continue;
            }
            let info = self.make_info(depth, i, score, Bound::Exact);
            (self.shared.report)(Event::Info(info));
        }
    }

    fn make_info(&self, depth: i32, line: usize, score: i32, bound: Bound) -> Info {
        let rm = &self.root_moves[line];
        self.shared
            .line_info(&self.game, rm, &rm.pv, depth, line, (score, bound))
    }

    /// Searches the root at `depth` with an aspiration window around the last score of line `pv_idx`.
    fn aspiration(&mut self, depth: i32) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = aspiration_delta();
        let (mut alpha, mut beta) =
            if depth >= aspiration_min_depth() && prev.abs() < MATE_BOUND && prev != -INFINITY {
                ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
            } else {
                (-INFINITY, INFINITY)
            };
        loop {
            let score = self.root_search(alpha, beta, depth);
            if self.stopped {
                return;
            }
            self.root_moves[self.pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            // The move now at `pv_idx` carries the bound of this result (set by the root search).
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return;
            }
            if self.is_main()
                && self.elapsed_ms() > 3000
                && self.pv_idx < self.shared.report_multipv
            {
                let bound = self.root_moves[self.pv_idx].bound;
                let info = self.make_info(depth, self.pv_idx, score, bound);
                (self.shared.report)(Event::Info(info));
            }
            delta += delta * aspiration_growth_percent() / 100;
            if delta > aspiration_max_delta() {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The root node: the root moves from `pv_idx` on, in their current order.
    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITY;
        self.frames[0] = Frame::default();
        self.root_depth = depth;
        for rm in &mut self.root_moves[self.pv_idx..] {
            rm.score = -INFINITY;
        }
        let report_currmove = self.is_main() && self.elapsed_ms() > 1000;
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if report_currmove {
                (self.shared.report)(Event::CurrMove {
                    depth: depth as u32,
                    mv: self.game.move_text(m),
                    number: i + 1,
                });
            }
            let searched = i - self.pv_idx;
            let quiet = !self.game.is_noisy(m);
            self.frames[0].ps = Some(self.hist.ps(self.game.moved_piece(m), G::to_square(m)));
            self.frames[0].noisy = !quiet;
            let nodes_before = self.nodes;
            self.game.make_move(m);
            self.shared.tt.prefetch(self.game.key());
            let new_depth = depth - 1 + self.game.in_check() as i32;
            self.seldepth = 0;
            let mut score;
            if searched == 0 {
                score = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
            } else {
                let r = if depth >= lmr_min_depth()
                    && quiet
                    && searched >= root_lmr_min_moves() as usize
                {
                    (lmr(depth, searched) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search::<false>(-alpha - 1, -alpha, new_depth, 1, false);
                }
                // Also on a fail high, so that the move gets a real principal variation.
                if score > alpha {
                    score = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.game.unmake_move();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if searched == 0 || score > alpha {
                let len = self.pv_len[1];
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.last_score = score;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][..len]);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
