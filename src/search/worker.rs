//! One search thread: iterative deepening, the root search, the principal variation search and quiescence.
//! Thread 0 is the main thread: it watches the clock and the limits and reports; helpers (Lazy SMP) search
//! the same root and help only through the shared transposition table.

use std::sync::atomic::Ordering;
use std::sync::LazyLock;

use super::history::{history_bonus, Histories};
use super::movepick::{MovePicker, OrderContext};
use super::params::*;
use super::shared::{RootMove, Shared};
use super::time::TimeManager;
use super::tt::{TtBound, NO_EVAL};
use super::*;
use crate::game::{Game, GenKind, MoveBuffer};

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
}

/// Late-move reduction table, by depth and move number.
static LMR: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (lmr_base() + (d as f64).ln() * (m as f64).ln() / lmr_divisor()) as i32;
        }
    }
    t
});

#[inline(always)]
fn lmr(depth: i32, moves: usize) -> i32 {
    LMR[(depth as usize).min(63)][moves.min(63)]
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
            frames: vec![
                Frame {
                    eval: NO_EVAL,
                    ps: None,
                    null: false,
                    excluded: G::Move::default(),
                };
                MAX_PLY + 4
            ],
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
                // Unstable best move or a falling score: more time; the same move many times: less.
                let instability = 1.0 + 1.5 * best_changes;
                let falling = if last_score != -INFINITY && score < last_score - 20 {
                    1.25
                } else {
                    1.0
                };
                let obvious = if stable_iterations >= 6 { 0.65 } else { 1.0 };
                let mut factor = instability * falling * obvious;
                if self.root_moves.len() == 1 {
                    factor = 0.1;
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
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The root node: the root moves from `pv_idx` on, in their current order.
    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITY;
        self.frames[0] = Frame {
            eval: NO_EVAL,
            ps: None,
            null: false,
            excluded: G::Move::default(),
        };
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
            self.game.make_move(m);
            self.shared.tt.prefetch(self.game.key());
            let new_depth = depth - 1 + self.game.in_check() as i32;
            self.seldepth = 0;
            let mut score;
            if searched == 0 {
                score = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
            } else {
                let r = if depth >= 3 && quiet && searched >= 3 {
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

    /// Principal variation search. `PV` nodes have an open window; `cut_node` marks expected fail-highs.
    fn search<const PV: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Leaves go to quiescence.
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply, 0);
        }
        // Step 2. Draws by rule, the ply ceiling, and mate distance pruning.
        let in_check = match self.enter_node::<PV>(ply) {
            Ok(in_check) => in_check,
            Err(score) => return score,
        };
        alpha = alpha.max(-MATE_SCORE + ply as i32);
        beta = beta.min(MATE_SCORE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 3. Transposition table.
        let key = self.game.key();
        let excluded = self.frames[ply].excluded;
        let singular_search = excluded != G::Move::default();
        // A singular-extension search must not be cut by the very entry it is testing.
        let hit = if singular_search {
            None
        } else {
            self.shared.tt.probe(key, ply)
        };
        let mut tt_move = G::Move::default();
        if let Some(h) = hit {
            tt_move = G::move_from_bits(h.mv);
            if !PV && h.depth >= depth && h.bound.settles(h.score, alpha, beta) {
                // A quiet hash move that refutes this node is rewarded as if it had been searched.
                if h.score >= beta
                    && tt_move != G::Move::default()
                    && !self.game.is_noisy(tt_move)
                    && self.game.is_legal(tt_move)
                {
                    let ps = self
                        .hist
                        .ps(self.game.moved_piece(tt_move), G::to_square(tt_move));
                    let side = self.game.side_to_move();
                    let prev1 = self.frames[ply - 1].ps;
                    let prev2 = if ply >= 2 {
                        self.frames[ply - 2].ps
                    } else {
                        None
                    };
                    self.hist
                        .update_quiet(side, ps, prev1, prev2, history_bonus(depth));
                }
                return h.score;
            }
        }

        // Step 3b. Endgame tablebases, right after a capture or pawn move: an exact verdict ends the node, a
        // win or loss bounds it (a PV node goes on searching for the line, within the bound).
        let mut tb_best = -INFINITY;
        let mut tb_max = INFINITY;
        if self.shared.tb_max_pieces > 0 && !singular_search && depth >= self.shared.tb_probe_depth
        {
            if let Some(wdl) = self.game.probe_wdl(self.shared.tb_max_pieces) {
                self.tbhits += 1;
                let value = tb_score(wdl, ply, self.shared.tb_rule50);
                let bound = if value >= TB_WIN_BOUND {
                    TtBound::Lower
                } else if value <= -TB_WIN_BOUND {
                    TtBound::Upper
                } else {
                    TtBound::Exact
                };
                if bound.settles(value, alpha, beta) {
                    self.shared.tt.store(
                        key,
                        0,
                        value,
                        NO_EVAL,
                        (depth + 6).min(MAX_PLY as i32 - 1),
                        bound,
                        ply,
                    );
                    return value;
                }
                if PV {
                    if bound == TtBound::Lower {
                        tb_best = value;
                        alpha = alpha.max(value);
                    } else {
                        tb_max = value;
                    }
                }
            }
        }

        // Step 4. Static evaluation (kept raw in the table and the ply stack), refined by the table's score when
        // its bound allows (for pruning decisions).
        let static_eval = if in_check {
            NO_EVAL
        } else if singular_search {
            self.frames[ply].eval
        } else {
            match hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => self.game.evaluate(),
            }
        };
        let eval = match hit {
            Some(h)
                if !in_check
                    && h.score.abs() < MATE_BOUND
                    && h.bound.settles(h.score, static_eval, static_eval) =>
            {
                h.score
            }
            _ => static_eval,
        };
        self.frames[ply].eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.frames[ply - 2].eval != NO_EVAL
            && static_eval > self.frames[ply - 2].eval;
        self.hist.killers[ply + 1] = [G::Move::default(); 2];

        // Step 5. Whole-node pruning: reverse futility, razoring, null move.
        if !PV && !in_check && !singular_search {
            if depth <= rfp_max_depth()
                && eval.abs() < MATE_BOUND
                && eval - rfp_margin() * (depth - improving as i32) >= beta
            {
                return eval;
            }
            if depth <= razor_max_depth() && eval + razor_margin() * depth < alpha {
                let v = self.qsearch::<false>(alpha - 1, alpha, ply, 0);
                if v < alpha {
                    return v;
                }
            }
            if depth >= nmp_min_depth()
                && eval >= beta
                && !self.frames[ply - 1].null
                && self.game.null_move_ok()
            {
                let r = nmp_base_reduction()
                    + depth / nmp_depth_divisor()
                    + ((eval - beta) / nmp_eval_divisor()).min(3);
                self.frames[ply].ps = None;
                self.frames[ply].null = true;
                self.game.make_null_move();
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.game.unmake_null_move();
                self.frames[ply].null = false;
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    // A win proved by passing is not to be trusted as a win (zugzwang): only as a cutoff.
                    return if v >= TB_WIN_BOUND { beta } else { v };
                }
            }
        }

        // Step 6. ProbCut: a capture that beats beta by a wide margin in a shallow search almost surely beats
        // beta in the full one.
        let probcut_beta = beta + probcut_margin();
        if !PV
            && !in_check
            && !singular_search
            && depth >= probcut_min_depth()
            && beta.abs() < MATE_BOUND
            && !hit.is_some_and(|h| h.depth >= depth - 3 && h.score < probcut_beta)
        {
            let mut picker = MovePicker::<G>::new_qsearch(tt_move, false);
            let ctx = OrderContext {
                side: self.game.side_to_move(),
                killers: [G::Move::default(); 2],
                counter: G::Move::default(),
                prev1: None,
                prev2: None,
            };
            while let Some(m) = picker.next(&self.game, self.hist, &ctx) {
                if !self.game.see_ge(m, probcut_beta - static_eval) || !self.game.legal_generated(m)
                {
                    continue;
                }
                self.frames[ply].ps = Some(self.hist.ps(self.game.moved_piece(m), G::to_square(m)));
                self.game.make_move(m);
                self.shared.tt.prefetch(self.game.key());
                let mut v = -self.qsearch::<false>(-probcut_beta, -probcut_beta + 1, ply + 1, 0);
                if v >= probcut_beta {
                    v = -self.search::<false>(
                        -probcut_beta,
                        -probcut_beta + 1,
                        depth - probcut_reduction(),
                        ply + 1,
                        !cut_node,
                    );
                }
                self.game.unmake_move();
                if self.stopped {
                    return 0;
                }
                if v >= probcut_beta {
                    self.shared.tt.store(
                        key,
                        G::move_to_bits(m),
                        v,
                        static_eval,
                        depth - probcut_reduction() + 1,
                        TtBound::Lower,
                        ply,
                    );
                    return v;
                }
            }
        }

        // Step 7. Internal iterative reduction: without a hash move this node is probably not worth full depth.
        if (PV || cut_node)
            && depth >= iir_min_depth()
            && tt_move == G::Move::default()
            && !singular_search
        {
            depth -= 1;
        }

        // Step 8. The move loop.
        let prev1 = self.frames[ply - 1].ps;
        let prev2 = if ply >= 2 {
            self.frames[ply - 2].ps
        } else {
            None
        };
        let side = self.game.side_to_move();
        let ctx = OrderContext {
            side,
            killers: self.hist.killers[ply],
            counter: self.hist.counter(prev1),
            prev1,
            prev2,
        };
        let mut picker = MovePicker::<G>::new(tt_move);
        let mut best = tb_best;
        let mut best_move = G::Move::default();
        let mut moves = 0usize;
        let mut quiets_tried = [G::Move::default(); MAX_TRIED];
        let mut quiets_len = 0;
        let mut noisy_tried = [G::Move::default(); MAX_TRIED];
        let mut noisy_len = 0;
        let lmp_limit = (lmp_base() + depth * depth) as usize / if improving { 1 } else { 2 };
        let original_alpha = alpha;

        while let Some(m) = picker.next(&self.game, self.hist, &ctx) {
            if m == excluded {
                continue;
            }
            let noisy = self.game.is_noisy(m);
            let ps = self.hist.ps(self.game.moved_piece(m), G::to_square(m));
            let hist_score = if noisy {
                self.hist.capture(ps)
            } else {
                self.hist.quiet(side, ps) + self.hist.cont(prev1, ps) + self.hist.cont(prev2, ps)
            };

            // Step 9. Move-level pruning once a non-losing score is secured.
            if best > -MATE_BOUND && !in_check {
                let lmr_depth = (depth - lmr(depth, moves + 1)).max(0);
                if !noisy {
                    let lmp = moves >= lmp_limit;
                    let futile = lmr_depth <= futility_max_depth()
                        && eval + futility_base() + futility_per_depth() * lmr_depth <= alpha;
                    if lmp || futile {
                        // Later quiet moves are pruned as well, except those that give check.
                        picker.skip_quiets = true;
                    }
                    if picker.skip_quiets && !self.game.gives_check(m) {
                        continue;
                    }
                    // Quiet moves with a bad record are not worth a look near the leaves.
                    if depth <= history_prune_max_depth()
                        && hist_score < -history_prune_margin() * depth
                    {
                        continue;
                    }
                    if lmr_depth <= see_prune_max_depth()
                        && !self
                            .game
                            .see_ge(m, see_quiet_margin() * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                } else if depth <= see_prune_max_depth()
                    && !self.game.see_ge(m, see_noisy_margin() * depth)
                {
                    continue;
                }
            }

            // Step 10. Singular extension: if every other move fails well below the hash move's score, the
            // hash move is the only good one and deserves a deeper look. If even the others beat beta, this
            // node fails high on several moves (multi-cut).
            let mut extension = 0;
            if m == tt_move && depth >= se_min_depth() && (ply as i32) < 2 * self.root_depth {
                if let Some(h) = hit {
                    if h.depth >= depth - 3
                        && h.bound != TtBound::Upper
                        && h.score.abs() < MATE_BOUND
                    {
                        let singular_beta = h.score - se_margin_per_depth() * depth / 8;
                        self.frames[ply].excluded = m;
                        let v = self.search::<false>(
                            singular_beta - 1,
                            singular_beta,
                            (depth - 1) / 2,
                            ply,
                            cut_node,
                        );
                        self.frames[ply].excluded = G::Move::default();
                        if self.stopped {
                            return 0;
                        }
                        if v < singular_beta {
                            extension = 1;
                            // Double extensions only in the first half of the tree, so lines cannot explode.
                            if !PV
                                && v < singular_beta - se_double_margin()
                                && (ply as i32) < self.root_depth
                            {
                                extension = 2;
                            }
                        } else if singular_beta >= beta {
                            return singular_beta;
                        } else if h.score >= beta {
                            extension = -1;
                        }
                    }
                }
            }

            // Step 11. Make the move (generated moves may be pseudo-legal: tested only now, after the
            // pruning); check extension.
            if !self.game.legal_generated(m) {
                continue;
            }
            self.frames[ply].ps = Some(ps);
            self.game.make_move(m);
            self.shared.tt.prefetch(self.game.key());
            moves += 1;
            let gives_check = self.game.in_check();
            let new_depth = depth - 1 + extension.max(gives_check as i32);

            // Step 12. Late move reductions, then the PVS re-search ladder.
            let mut score;
            if depth >= 3 && moves > 1 + PV as usize && (!noisy || hist_score < 0) {
                let mut r = lmr(depth, moves);
                r -= PV as i32;
                r += !improving as i32;
                r += cut_node as i32;
                r -= gives_check as i32;
                if m == ctx.killers[0] || m == ctx.killers[1] || m == ctx.counter {
                    r -= 1;
                }
                r -= hist_score / lmr_history_divisor();
                let reduced = (new_depth - r).clamp(1, new_depth);
                score = -self.search::<false>(-alpha - 1, -alpha, reduced, ply + 1, true);
                if score > alpha && reduced < new_depth {
                    score =
                        -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !PV || moves > 1 {
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = alpha + 1; // forces the full-window search below
            }
            if PV && (moves == 1 || score > alpha) {
                score = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.game.unmake_move();
            if self.stopped {
                return 0;
            }

            // Step 13. Best move bookkeeping.
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.update_histories(
                            m,
                            noisy,
                            depth,
                            ply,
                            side,
                            prev1,
                            prev2,
                            &quiets_tried[..quiets_len],
                            &noisy_tried[..noisy_len],
                        );
                        break;
                    }
                    alpha = score;
                }
            }
            if m != best_move {
                if noisy && noisy_len < MAX_TRIED {
                    noisy_tried[noisy_len] = m;
                    noisy_len += 1;
                } else if !noisy && quiets_len < MAX_TRIED {
                    quiets_tried[quiets_len] = m;
                    quiets_len += 1;
                }
            }
        }

        // Step 14. Mate or stalemate (or, in a singular search, only the excluded move).
        if moves == 0 {
            if singular_search {
                return alpha;
            }
            // Every move may have been pruned only when a non-losing score existed, which needs a move: so no
            // legal move exists here.
            return if in_check {
                -MATE_SCORE + ply as i32
            } else {
                0
            };
        }

        if singular_search {
            return best;
        }
        // A PV node under a tablebase loss cannot score above it.
        best = best.min(tb_max);
        let bound = if best >= beta {
            TtBound::Lower
        } else if PV && best > original_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.shared.tt.store(
            key,
            G::move_to_bits(best_move),
            best,
            static_eval,
            depth,
            bound,
            ply,
        );
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn update_histories(
        &mut self,
        m: G::Move,
        noisy: bool,
        depth: i32,
        ply: usize,
        side: usize,
        prev1: Option<usize>,
        prev2: Option<usize>,
        quiets: &[G::Move],
        noisies: &[G::Move],
    ) {
        let bonus = history_bonus(depth);
        let ps_of =
            |g: &G, h: &Histories<G::Move>, mv: G::Move| h.ps(g.moved_piece(mv), G::to_square(mv));
        if noisy {
            let ps = ps_of(&self.game, self.hist, m);
            self.hist.update_capture(ps, bonus);
        } else {
            self.hist.record_refutation(ply, prev1, m);
            // A quick cutoff at low depth says little; history then only learns from deeper nodes.
            if depth > 1 || !quiets.is_empty() {
                let ps = ps_of(&self.game, self.hist, m);
                self.hist.update_quiet(side, ps, prev1, prev2, bonus);
                for &q in quiets {
                    let ps = ps_of(&self.game, self.hist, q);
                    self.hist.update_quiet(side, ps, prev1, prev2, -bonus);
                }
            }
        }
        for &c in noisies {
            let ps = ps_of(&self.game, self.hist, c);
            self.hist.update_capture(ps, -bonus);
        }
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = m;
        let child = &tail[0];
        let n = child_len.min(MAX_PLY - 1);
        row[1..=n].copy_from_slice(&child[..n]);
        self.pv_len[ply] = n + 1;
    }

    /// What every node does first, in search and quiescence alike: count it, poll the limits, reset its
    /// line, and end at once on a rule's verdict (a loss by rule, a draw) or at the ply ceiling. `Err` holds
    /// the node's score then; `Ok` says whether the side to move is in check.
    #[inline(always)]
    fn enter_node<const PV: bool>(&mut self, ply: usize) -> Result<bool, i32> {
        self.nodes += 1;
        if self.check_stop() {
            return Err(0);
        }
        if PV {
            self.pv_len[ply] = 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.game.lost_by_rule() {
            return Err(MATE_SCORE - ply as i32);
        }
        if self.game.is_draw() {
            return Err(0);
        }
        let in_check = self.game.in_check();
        if ply >= MAX_PLY - 1 {
            return Err(if in_check { 0 } else { self.game.evaluate() });
        }
        Ok(in_check)
    }

    /// Quiescence search: captures and promotions (all evasions when in check) until the position is quiet.
    fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        let in_check = match self.enter_node::<PV>(ply) {
            Ok(in_check) => in_check,
            Err(score) => return score,
        };

        let key = self.game.key();
        let hit = self.shared.tt.probe(key, ply);
        let mut tt_move = G::Move::default();
        if let Some(h) = hit {
            tt_move = G::move_from_bits(h.mv);
            if !PV && h.bound.settles(h.score, alpha, beta) {
                return h.score;
            }
        }

        let mut best;
        let eval;
        if in_check {
            best = -INFINITY;
            eval = NO_EVAL;
        } else {
            eval = match hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => self.game.evaluate(),
            };
            best = eval;
            if let Some(h) = hit {
                if h.score.abs() < MATE_BOUND && h.bound.settles(h.score, eval, eval) {
                    best = h.score;
                }
            }
            if best >= beta {
                if hit.is_none() {
                    self.shared
                        .tt
                        .store(key, 0, best, eval, 0, TtBound::Lower, ply);
                }
                return best;
            }
            alpha = alpha.max(best);
        }

        let ctx = OrderContext {
            side: self.game.side_to_move(),
            killers: [G::Move::default(); 2],
            counter: G::Move::default(),
            prev1: None,
            prev2: None,
        };
        let mut picker = MovePicker::<G>::new_qsearch(tt_move, in_check);
        let mut best_move = G::Move::default();
        let mut moves = 0;
        // Deep in quiescence only recaptures on the square of the last move are tried (games that ask for it:
        // Makromachy, where a hundred pieces can otherwise keep capturing for millions of nodes).
        let recaptures_only = qdepth >= G::qs_recapture_depth() && !in_check;
        let last_to = if ply > 0 {
            self.frames[ply - 1].ps.map(|p| p % G::SQUARES)
        } else {
            None
        };
        while let Some(m) = picker.next(&self.game, self.hist, &ctx) {
            if recaptures_only && Some(G::to_square(m)) != last_to {
                continue;
            }
            if !in_check {
                // Delta pruning: even winning this material freely would not reach alpha.
                if eval + self.game.capture_value(m) + qs_delta_margin() <= alpha
                    && !self.game.see_ge(m, 1)
                {
                    continue;
                }
                if !self.game.see_ge(m, 0) {
                    continue;
                }
            }
            if !self.game.legal_generated(m) {
                continue;
            }
            if G::qs_recapture_depth() != u32::MAX {
                self.frames[ply].ps = Some(self.hist.ps(self.game.moved_piece(m), G::to_square(m)));
            }
            self.game.make_move(m);
            self.shared.tt.prefetch(self.game.key());
            moves += 1;
            let score = -self.qsearch::<PV>(-beta, -alpha, ply + 1, qdepth + 1);
            self.game.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && moves == 0 {
            return -MATE_SCORE + ply as i32;
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else {
            TtBound::Upper
        };
        self.shared
            .tt
            .store(key, G::move_to_bits(best_move), best, eval, 0, bound, ply);
        best
    }
}
