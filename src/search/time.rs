//! The time manager: how long this move may take.
//!
//! Two limits: the *optimum*, checked between iterations and stretched or shrunk by how stable the best move
//! is, and the *maximum*, checked inside the search every few thousand nodes, which is never more than the
//! remaining clock minus the move overhead (so a slow GUI or OS hiccup cannot flag us).

use std::time::{Duration, Instant};

use super::limits::Limits;
use super::params::*;

/// Time allocation for one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Target time in ms (soft limit), `None` when the search is not timed.
    optimum: Option<u64>,
    /// Hard limit in ms.
    maximum: Option<u64>,
}

impl TimeManager {
    /// Allocates time for the side `side` (0 = first player/White) under `limits`, keeping `overhead_ms` back.
    pub fn new(limits: &Limits, side: usize, overhead_ms: u64, start: Instant) -> TimeManager {
        let (optimum, maximum) = Self::allocate(limits, side, overhead_ms);
        TimeManager {
            start,
            optimum,
            maximum,
        }
    }

    /// `(optimum, maximum)` in ms, or `None`s for an untimed search.
    pub fn allocate(limits: &Limits, side: usize, overhead_ms: u64) -> (Option<u64>, Option<u64>) {
        if limits.infinite {
            return (None, None);
        }
        if let Some(mt) = limits.movetime {
            // A fixed time per move is used in full: no soft limit.
            let t = mt.saturating_sub(overhead_ms).max(1);
            return (None, Some(t));
        }
        let (time, inc) = if side == 0 {
            (limits.wtime, limits.winc)
        } else {
            (limits.btime, limits.binc)
        };
        let Some(time) = time else {
            return (None, None);
        };
        let inc = inc.unwrap_or(0);
        // Everything we may spend: the clock minus the overhead the GUI and OS eat on every move.
        let usable = time.saturating_sub(overhead_ms).max(1);
        // Keep a reserve that no single move touches, so that scheduling hiccups on a loaded machine cannot
        // flag us when the clock runs low in fast games; it shrinks with the clock but never below half.
        let reserve = (2 * overhead_ms + tm_reserve_inc_mult() * inc).min(usable / 2);
        let spendable = usable - reserve;
        let mtg = limits
            .movestogo
            .map_or(tm_default_moves_to_go(), |m| (m as u64).clamp(1, 50));
        // With few moves to go the whole remainder may be needed, but never all of it on one move.
        let share_cap = if mtg == 1 {
            spendable * tm_last_move_percent() / 100
        } else {
            spendable * tm_max_share_percent() / 100
        };
        // The increment is spent freely only while the clock is comfortably above it.
        let inc_share = if usable > 10 * inc {
            inc * tm_inc_percent() / 100
        } else {
            inc / 2
        };
        let optimum = (spendable / mtg + inc_share).min(share_cap).max(1);
        let maximum = (optimum * tm_max_optimum_ratio())
            .min(share_cap)
            .max(optimum);
        (Some(optimum), Some(maximum.min(usable)))
    }

    /// Milliseconds since the search (or the ponderhit) started.
    #[inline]
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Elapsed time.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Restarts the clock (on ponderhit: the opponent's move was the expected one, our time starts now).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Is the search timed at all?
    pub fn is_timed(&self) -> bool {
        self.maximum.is_some()
    }

    /// Must the search stop now (checked inside the search)?
    #[inline]
    pub fn hard_limit_reached(&self) -> bool {
        self.maximum.is_some_and(|m| self.elapsed_ms() >= m)
    }

    /// Should no new iteration start? `stability` scales the optimum: above 1 when the best move keeps changing
    /// or the score drops, below 1 when it has been the same for many iterations.
    pub fn soft_limit_reached(&self, stability: f64) -> bool {
        match (self.optimum, self.maximum) {
            (Some(opt), Some(max)) => {
                let target = ((opt as f64 * stability) as u64).min(max);
                self.elapsed_ms() >= target
            }
            _ => false,
        }
    }

    /// The hard limit in ms, if any.
    pub fn maximum(&self) -> Option<u64> {
        self.maximum
    }

    /// The optimum in ms, if any.
    pub fn optimum(&self) -> Option<u64> {
        self.optimum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            wtime: Some(time),
            btime: Some(time),
            winc: Some(inc),
            binc: Some(inc),
            movestogo: mtg,
            ..Limits::default()
        }
    }

    #[test]
    fn never_more_than_remaining_minus_overhead() {
        for &time in &[1u64, 5, 10, 11, 20, 50, 100, 1000, 10_000, 600_000] {
            for &inc in &[0u64, 10, 100, 1000, 5000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    for &overhead in &[0u64, 10, 100] {
                        let (opt, max) = TimeManager::allocate(&clock(time, inc, mtg), 1, overhead);
                        let (opt, max) = (opt.expect("timed"), max.expect("timed"));
                        let usable = time.saturating_sub(overhead).max(1);
                        assert!(opt <= max, "{time} {inc} {mtg:?}: {opt} > {max}");
                        assert!(
                            max <= usable,
                            "{time}+{inc} mtg {mtg:?} oh {overhead}: {max}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fast_game_budget_is_small() {
        // 1 s + 0.01 s with Move Overhead 10: a move must take well under the clock.
        let (opt, max) = TimeManager::allocate(&clock(1000, 10, None), 0, 10);
        assert!(opt.expect("timed") < 60);
        assert!(max.expect("timed") < 300);
    }

    #[test]
    fn untimed_and_fixed_forms() {
        let inf = Limits {
            infinite: true,
            ..clock(1000, 0, None)
        };
        assert_eq!(TimeManager::allocate(&inf, 0, 10), (None, None));
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(TimeManager::allocate(&depth, 0, 10), (None, None));
        let mt = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        assert_eq!(TimeManager::allocate(&mt, 0, 10), (None, Some(490)));
        // Black's clock is used for Black.
        let l = Limits {
            wtime: Some(100_000),
            btime: Some(1_000),
            ..Limits::default()
        };
        assert!(TimeManager::allocate(&l, 1, 0).1.expect("timed") <= 1_000);
    }
}
