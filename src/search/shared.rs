//! What the search threads share and what they learn about the root moves: [`Shared`] (limits, the table,
//! node and tablebase-hit counters, the report callback, and the `info` lines built from them) and
//! [`RootMove`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::limits::{Control, Limits};
use super::report::{Event, Info};
use super::score::{to_score, wdl, Bound, INFINITY, MATE_BOUND};
use super::tt::TranspositionTable;
use crate::game::Game;

/// A root move with what the search learnt about it.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    pub mv: M,
    /// Score from the current iteration; `-INFINITY` until the move is proven better than alpha.
    pub score: i32,
    /// Score from the last completed iteration.
    pub prev_score: i32,
    /// The result of the latest search of this move that gave one, kept across aspiration re-searches and
    /// iterations (`score` is reset for every re-search); `-INFINITY` until the move has one.
    pub last_score: i32,
    /// Bound of `last_score` against the window it was searched with.
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<M>,
    /// The tablebase score to report for this move when the root is in the tables.
    pub tb_score: Option<i32>,
    /// Nodes this thread spent below the move in this search (time management: the share of the effort
    /// the best move took says how contested the choice is).
    pub nodes: u64,
}

impl<M: Copy> RootMove<M> {
    /// A root move with an initial ordering score.
    pub fn new(mv: M, order: i32) -> Self {
        RootMove {
            mv,
            score: order,
            prev_score: -INFINITY,
            last_score: -INFINITY,
            bound: Bound::Exact,
            seldepth: 0,
            pv: vec![mv],
            tb_score: None,
            nodes: 0,
        }
    }

    /// The best-known score: this iteration's if the move has one, else the last iteration's.
    pub fn display_score(&self) -> i32 {
        if self.score != -INFINITY {
            self.score
        } else {
            self.prev_score
        }
    }
}

/// What all threads of one search share.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    /// Set by the main thread when it is done, to stop the helpers.
    pub abort: AtomicBool,
    /// Nodes searched per thread (published every few thousand nodes).
    pub nodes: Vec<AtomicU64>,
    pub limits: Limits,
    /// Lines searched (more than reported when playing weaker).
    pub multipv: usize,
    /// Lines reported.
    pub report_multipv: usize,
    pub show_wdl: bool,
    pub start: Instant,
    pub report: &'a (dyn Fn(Event) + Sync),
    pub threads: usize,
    /// Tablebase probes inside the tree for positions of at most this many pieces (0: none).
    pub tb_max_pieces: u32,
    /// Remaining depth from which the tree probes.
    pub tb_probe_depth: i32,
    /// The 50-move rule applies to tablebase verdicts.
    pub tb_rule50: bool,
    /// Tablebase hits per thread (published with the node counts).
    pub tbhits: Vec<AtomicU64>,
    /// Tablebase hits of the root ranking.
    pub root_tbhits: u64,
}

impl Shared<'_> {
    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// The `info` of line `line` (0-based): root move `rm` followed by `pv` (which starts with `rm.mv`),
    /// played from `root`.
    pub(super) fn line_info<G: Game>(
        &self,
        root: &G,
        rm: &RootMove<G::Move>,
        pv: &[G::Move],
        depth: i32,
        line: usize,
        (score, bound): (i32, Bound),
    ) -> Info {
        let nodes = self.total_nodes();
        let time_ms = self.start.elapsed().as_millis() as u64;
        let mut g = root.clone();
        let mut texts = Vec::with_capacity(pv.len());
        for &m in pv {
            texts.push(g.move_text(m));
            g.make_move(m);
        }
        // A root in the tables shows the tables' verdict unless the search has found a mate.
        let (score, bound) = match rm.tb_score {
            Some(tb) if score.abs() < MATE_BOUND => (tb, Bound::Exact),
            _ => (score, bound),
        };
        Info {
            depth: depth as u32,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: line + 1,
            score: to_score(score),
            bound,
            wdl: self.show_wdl.then(|| wdl(score)),
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: self.tt.hashfull(),
            tbhits: self.total_tbhits(),
            time_ms,
            pv: texts,
        }
    }

    /// The best-known score of `rm` for a final report, with its bound: the latest search result, or, for a
    /// move no search finished with (a limit hit during the first iteration), the static evaluation after
    /// it, so that the line played is still reported.
    pub(super) fn final_score<G: Game>(&self, root: &G, rm: &RootMove<G::Move>) -> (i32, Bound) {
        if rm.last_score != -INFINITY {
            return (rm.last_score, rm.bound);
        }
        let mut g = root.clone();
        g.make_move(rm.mv);
        let eval = -g.evaluate();
        (eval.clamp(-MATE_BOUND + 1, MATE_BOUND - 1), Bound::Exact)
    }

    fn total_tbhits(&self) -> u64 {
        self.root_tbhits
            + self
                .tbhits
                .iter()
                .map(|n| n.load(Ordering::Relaxed))
                .sum::<u64>()
    }
}
