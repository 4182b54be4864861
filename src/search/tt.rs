//! The shared transposition table: lock-free, buckets of four 16-byte entries (one cache line).
//!
//! Each entry is two `AtomicU64`s; the first is stored XOR the second, so an entry torn by two threads writing
//! at once fails the key check instead of returning a mix of two positions (the "lockless hashing" trick).
//! The bucket index comes from the key's low 32 bits and the check from its high 32 bits.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use super::score::{MATE_BOUND, MATE_SCORE, TB_WIN, TB_WIN_BOUND};

/// How a stored score relates to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TtBound {
    /// The exact value.
    Exact,
    /// The value is at least this (fail high).
    Lower,
    /// The value is at most this (fail low).
    Upper,
}

impl TtBound {
    /// Does a `score` of this bound settle the window (`alpha`, `beta`): an exact score always, a lower
    /// bound at or above `beta`, an upper bound at or below `alpha`? With `alpha == beta == eval` it says
    /// whether the score is a better estimate than `eval`.
    #[inline(always)]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            TtBound::Exact => true,
            TtBound::Lower => score >= beta,
            TtBound::Upper => score <= alpha,
        }
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// Best (or refutation) move, as the game's bits; 0 when none.
    pub mv: u32,
    /// Score, already adjusted to the probing ply (see [`score_from_tt`]).
    pub score: i32,
    /// Static evaluation of the position (or `NO_EVAL`).
    pub eval: i32,
    /// Depth the score was searched to.
    pub depth: i32,
    /// Bound of the score.
    pub bound: TtBound,
    /// Was the position on a principal variation when stored (or any time since)? Such positions are
    /// reduced less.
    pub pv: bool,
}

/// Stored when the static evaluation is unknown (in check).
pub const NO_EVAL: i32 = i16::MIN as i32;

const ENTRIES_PER_BUCKET: usize = 4;

#[repr(C, align(64))]
#[derive(Default)]
struct Bucket {
    entries: [[AtomicU64; 2]; ENTRIES_PER_BUCKET],
}

/// The table. `Sync`: Lazy SMP threads share it by reference.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

/// Converts a search score to the form stored: mate and tablebase scores counted from this node instead of
/// the root.
#[inline(always)]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored score back to the searching ply (inverse of [`score_to_tt`]).
#[inline(always)]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        (score - ply as i32).min(MATE_SCORE)
    } else if score <= -MATE_BOUND {
        (score + ply as i32).max(-MATE_SCORE)
    } else if score >= TB_WIN_BOUND {
        // A tablebase win stays one, never turning into a mate score.
        (score - ply as i32).min(TB_WIN)
    } else if score <= -TB_WIN_BOUND {
        (score + ply as i32).max(-TB_WIN)
    } else {
        score
    }
}

// Layout of the plain first word: key check (32) | depth (8) | generation (6) + bound (2) | eval (16).
// Second word: move (32) | score (16) | tt-PV (1) | unused (15).
#[inline(always)]
fn unpack(w0: u64, w1: u64) -> (u32, i32, i32, u8, u8, i32, i32) {
    let check = w0 as u32;
    let depth = (w0 >> 32) as u8 as i32;
    let genbound = (w0 >> 40) as u8;
    let eval = (w0 >> 48) as u16 as i16 as i32;
    let mv = w1 as u32;
    let score = (w1 >> 32) as u16 as i16 as i32;
    (
        check,
        depth,
        eval,
        genbound >> 2,
        genbound & 3,
        mv as i32,
        score,
    )
}

/// `count` zeroed buckets, or `None` when the allocation fails. Zeroed memory comes straight from the OS
/// without being written, so a big table costs nothing until it is used.
fn zeroed_buckets(count: usize) -> Option<Vec<Bucket>> {
    let layout = std::alloc::Layout::array::<Bucket>(count).ok()?;
    // SAFETY: the layout has non-zero size (count >= 1, Bucket is 64 bytes). An all-zero Bucket is valid
    // (atomics of zero), and the Vec takes ownership of exactly this allocation with the same layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut Bucket;
        if ptr.is_null() {
            return None;
        }
        Some(Vec::from_raw_parts(ptr, count, count))
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let mut tt = TranspositionTable {
            buckets: Vec::new(),
            generation: AtomicU8::new(0),
        };
        tt.resize(mb);
        tt
    }

    /// Reallocates to about `mb` megabytes; the contents are lost. When the system refuses that much memory the
    /// size is halved until it does not, so an oversized `Hash` setting never aborts the engine; see
    /// [`TranspositionTable::size_mb`] for what was obtained.
    pub fn resize(&mut self, mb: usize) {
        // Free the old table first so its memory can be reused.
        self.buckets = Vec::new();
        let bucket_bytes = std::mem::size_of::<Bucket>();
        let mut count = (mb.clamp(1, 1 << 20) * 1024 * 1024 / bucket_bytes).max(1);
        loop {
            if let Some(v) = zeroed_buckets(count) {
                self.buckets = v;
                break;
            }
            if count == 1 {
                break;
            }
            count /= 2;
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// The table's size in megabytes (rounded down; 0 for a table under 1 MB).
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table. Entries that are already empty are not written, so pages of a fresh table that
    /// were never used are not touched (the OS hands them out lazily).
    pub fn clear(&self) {
        for b in &self.buckets {
            for e in &b.entries {
                if e[0].load(Ordering::Relaxed) != 0 || e[1].load(Ordering::Relaxed) != 0 {
                    e[0].store(0, Ordering::Relaxed);
                    e[1].store(0, Ordering::Relaxed);
                }
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries from older searches become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let idx = ((key & 0xffff_ffff) * self.buckets.len() as u64) >> 32;
        &self.buckets[idx as usize]
    }

    /// Hints the CPU to fetch the bucket of `key` (called right after a move is made).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is only a hint; the pointer is to a live bucket.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.bucket(key) as *const Bucket as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; `ply` converts mate scores to the prober's distance from the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let check = (key >> 32) as u32;
        for e in &self.bucket(key).entries {
            let w1 = e[1].load(Ordering::Relaxed);
            let w0 = e[0].load(Ordering::Relaxed) ^ w1;
            let (c, depth, eval, _gen, bound, mv, score) = unpack(w0, w1);
            if c == check && bound != 0 {
                let bound = match bound {
                    1 => TtBound::Exact,
                    2 => TtBound::Lower,
                    _ => TtBound::Upper,
                };
                return Some(TtHit {
                    mv: mv as u32,
                    score: score_from_tt(score, ply),
                    eval,
                    depth,
                    bound,
                    pv: (w1 >> 48) & 1 != 0,
                });
            }
        }
        None
    }

    /// Stores a result (`pv`: the position is or was on a principal variation). `mv` 0 keeps the move already stored for this position; `depth` is clamped to 0..=255.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: u32,
        score: i32,
        eval: i32,
        depth: i32,
        bound: TtBound,
        ply: usize,
        pv: bool,
    ) {
        let check = (key >> 32) as u32;
        let gen = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);

        // Choose the slot: this position's own entry if present, else the least valuable one (shallow and old).
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut same = false;
        let mut old_mv = 0u32;
        let mut old_depth = 0;
        let mut old_bound = 0;
        for (i, e) in bucket.entries.iter().enumerate() {
            let w1 = e[1].load(Ordering::Relaxed);
            let w0 = e[0].load(Ordering::Relaxed) ^ w1;
            let (c, d, _eval, g, b, m, _s) = unpack(w0, w1);
            if b == 0 || c == check {
                victim = i;
                same = c == check && b != 0;
                old_mv = m as u32;
                old_depth = d;
                old_bound = b;
                break;
            }
            let age = ((gen as i32 - g as i32) & 63) * 8;
            let worth = d - age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let bound_bits: u8 = match bound {
            TtBound::Exact => 1,
            TtBound::Lower => 2,
            TtBound::Upper => 3,
        };
        // A shallower non-exact result for the same position does not overwrite a deeper one from this search.
        if same && bound != TtBound::Exact && depth + 3 < old_depth && old_bound != 0 {
            return;
        }
        let mv = if mv == 0 && same { old_mv } else { mv };
        let score = score_to_tt(score, ply).clamp(-32767, 32767);
        let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32);
        let w0 = check as u64
            | (depth.clamp(0, 255) as u64) << 32
            | (((gen << 2) | bound_bits) as u64) << 40
            | (eval as i16 as u16 as u64) << 48;
        let w1 = mv as u64 | (score as i16 as u16 as u64) << 32 | (pv as u64) << 48;
        let e = &bucket.entries[victim];
        e[0].store(w0 ^ w1, Ordering::Relaxed);
        e[1].store(w1, Ordering::Relaxed);
    }

    /// Permille of a sample of entries filled during the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.entries {
                let w1 = e[1].load(Ordering::Relaxed);
                let w0 = e[0].load(Ordering::Relaxed) ^ w1;
                let (_, _, _, g, bound, _, _) = unpack(w0, w1);
                if bound != 0 && g == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0u64;
        assert!(tt.probe(key, 0).is_none());
        tt.store(key, 777, -123, 45, 9, TtBound::Lower, 3, false);
        let hit = tt.probe(key, 3).expect("stored entry is found");
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (777, -123, 45, 9, TtBound::Lower)
        );
        assert!(!hit.pv);
        // The PV flag is kept with the entry and leaves the other fields as they were.
        tt.store(key, 777, -123, 45, 9, TtBound::Lower, 3, true);
        let hit = tt.probe(key, 3).expect("stored entry is found");
        assert!(hit.pv);
        assert_eq!((hit.mv, hit.score, hit.eval), (777, -123, 45));
        // A different key in the same bucket is not confused with it.
        assert!(tt.probe(key ^ (1 << 40), 3).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let key = 42u64 << 32 | 7;
        // Found at ply 5: mate delivered 3 plies later, i.e. 8 plies from the root.
        tt.store(key, 1, MATE_SCORE - 8, 0, 4, TtBound::Exact, 5, false);
        // Reached again at ply 2 by a shorter path: the mate is 3 plies beyond this node, 5 from the root.
        let hit = tt.probe(key, 2).expect("found");
        assert_eq!(hit.score, MATE_SCORE - 5);
        tt.store(key, 1, -(MATE_SCORE - 6), 0, 4, TtBound::Exact, 4, false);
        assert_eq!(tt.probe(key, 1).expect("found").score, -(MATE_SCORE - 3));
    }

    #[test]
    fn replacement_prefers_new_search_and_depth() {
        let tt = TranspositionTable::new(1);
        // Five keys mapping to one bucket (same low 32 bits) overflow its four slots.
        let keys: Vec<u64> = (1..=5u64).map(|i| (i << 32) | 99).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, 1, 0, 0, 10 + i as i32, TtBound::Exact, 0, false);
        }
        tt.store(keys[4], 1, 0, 0, 1, TtBound::Exact, 0, false);
        // The shallowest (depth 10) entry was the victim.
        assert!(tt.probe(keys[0], 0).is_none());
        assert!(tt.probe(keys[4], 0).is_some());
        assert_eq!(
            tt.hashfull(),
            4 * 1000 / (tt.buckets.len().min(250) * 4) as u32
        );
        tt.clear();
        assert!(tt.probe(keys[1], 0).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn resize_changes_size_and_empties() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.size_mb(), 1);
        tt.store(5, 1, 0, 0, 3, TtBound::Exact, 0, false);
        tt.resize(4);
        assert_eq!(tt.size_mb(), 4);
        assert!(tt.probe(5, 0).is_none());
    }
}
