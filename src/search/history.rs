//! Move-ordering memory that outlives one node: history (quiet moves and captures, by moved piece and
//! destination), continuation history (by the previous move's piece and destination), counter moves and
//! killers. Sizes come from the game's piece and square counts, allocated once per search thread.

use super::params::*;
use super::score::MAX_PLY;

/// Largest continuation-history table (2^22 entries, 8 MB); bigger games fold theirs into this.
const CONT_FOLDED: usize = 1 << 22;

/// Bonus for a move that caused a cutoff at `depth` (the malus for those tried before it is its negation).
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (history_bonus_mul() * depth - history_bonus_sub()).clamp(0, history_bonus_max())
}

/// Moves an entry toward `±history_max()` by `bonus`, slowing as it nears the bound ("history gravity").
#[inline(always)]
fn apply(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let v = e + bonus - e * bonus.abs() / history_max();
    *entry = v.clamp(-history_max(), history_max()) as i16;
}

/// All the tables of one search thread.
pub struct Histories<M: Copy + Default> {
    pieces: usize,
    squares: usize,
    /// Quiet history by side, moved piece and destination.
    quiet: Vec<i16>,
    /// Capture history by moved piece and destination.
    capture: Vec<i16>,
    /// Continuation history: (previous piece, previous destination) x (piece, destination).
    cont: Vec<i16>,
    /// Rows of `cont`, one per previous (piece, destination). Big boards (Makromachy: 4,704 pieces x
    /// squares, 22 M pairs) have fewer rows than pairs and hash the previous move onto a row, rather than
    /// allocate and clear tens of megabytes per thread. A row stays whole, so the scores of one node's moves
    /// (all after the same previous move) are read from one 9 KB row, not from all over the table.
    cont_rows: usize,
    /// The move that last refuted the previous (piece, destination).
    counter: Vec<M>,
    /// Two killer moves per ply.
    pub killers: Vec<[M; 2]>,
    /// How far static evaluations missed, by the position's parts.
    pub correction: super::correction::Correction,
}

impl<M: Copy + Default + Eq> Histories<M> {
    /// Empty tables for a game with `pieces` piece indices and `squares` squares.
    pub fn new(pieces: usize, squares: usize) -> Self {
        let ps = pieces * squares;
        let cont_rows = if ps * ps > CONT_FOLDED {
            CONT_FOLDED / ps
        } else {
            ps
        };
        Histories {
            pieces,
            squares,
            quiet: vec![0; 2 * ps],
            capture: vec![0; ps],
            cont: vec![0; cont_rows * ps],
            cont_rows,
            counter: vec![M::default(); ps],
            killers: vec![[M::default(); 2]; MAX_PLY + 2],
            correction: Default::default(),
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.quiet.fill(0);
        self.capture.fill(0);
        self.cont.fill(0);
        self.counter.fill(M::default());
        self.correction.clear();
        self.clear_killers();
    }

    /// Forgets the killers (new search: they are ply-relative).
    pub fn clear_killers(&mut self) {
        for k in &mut self.killers {
            *k = [M::default(); 2];
        }
    }

    /// Index of a (piece, square) pair; `None` stands for "no previous move".
    #[inline(always)]
    pub fn ps(&self, piece: usize, sq: usize) -> usize {
        piece * self.squares + sq
    }

    /// Quiet history of `piece` to `sq` for side `side`.
    #[inline(always)]
    pub fn quiet(&self, side: usize, ps: usize) -> i32 {
        self.quiet[side * self.pieces * self.squares + ps] as i32
    }

    /// Continuation history of `ps` after the move `prev` (a `ps` index), 0 without a previous move. The
    /// search reads whole rows ([`Histories::cont_row`]); the tests read single entries.
    #[cfg(test)]
    pub fn cont(&self, prev: Option<usize>, ps: usize) -> i32 {
        match prev {
            Some(p) => self.cont[self.cont_index(p, ps)] as i32,
            None => 0,
        }
    }

    /// Where `prev`'s continuation-history row starts: scoring a node's moves, all after the same previous
    /// move, finds the row once and then reads [`Histories::cont_at`].
    #[inline(always)]
    pub fn cont_row(&self, prev: Option<usize>) -> Option<usize> {
        prev.map(|p| self.cont_index(p, 0))
    }

    /// [`Histories::cont`] through a row from [`Histories::cont_row`].
    #[inline(always)]
    pub fn cont_at(&self, row: Option<usize>, ps: usize) -> i32 {
        row.map_or(0, |r| self.cont[r + ps] as i32)
    }

    #[inline(always)]
    fn cont_index(&self, prev: usize, ps: usize) -> usize {
        let ps_count = self.pieces * self.squares;
        let row = if self.cont_rows == ps_count {
            prev
        } else {
            // Multiplicative hash, then scaled onto the rows.
            let h = (prev as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
            ((h * self.cont_rows as u64) >> 32) as usize
        };
        row * ps_count + ps
    }

    /// Capture history of `ps`.
    #[inline(always)]
    pub fn capture(&self, ps: usize) -> i32 {
        self.capture[ps] as i32
    }

    /// Counter move to the previous move `prev`.
    #[inline(always)]
    pub fn counter(&self, prev: Option<usize>) -> M {
        prev.map_or(M::default(), |p| self.counter[p])
    }

    /// Updates the quiet tables for a quiet move (`bonus` negative for a malus).
    #[inline]
    pub fn update_quiet(
        &mut self,
        side: usize,
        ps: usize,
        prev1: Option<usize>,
        prev2: Option<usize>,
        bonus: i32,
    ) {
        let stride = self.pieces * self.squares;
        apply(&mut self.quiet[side * stride + ps], bonus);
        for p in [prev1, prev2].into_iter().flatten() {
            let i = self.cont_index(p, ps);
            apply(&mut self.cont[i], bonus);
        }
    }

    /// Updates the capture table.
    #[inline]
    pub fn update_capture(&mut self, ps: usize, bonus: i32) {
        apply(&mut self.capture[ps], bonus);
    }

    /// Records a quiet cutoff move: killer at `ply` and counter to the previous move.
    #[inline]
    pub fn record_refutation(&mut self, ply: usize, prev: Option<usize>, m: M) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if let Some(p) = prev {
            self.counter[p] = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_bounded() {
        let mut h: Histories<u32> = Histories::new(12, 64);
        let ps = h.ps(3, 20);
        for _ in 0..1000 {
            h.update_quiet(0, ps, Some(5), None, history_bonus(20));
        }
        assert!(h.quiet(0, ps) <= history_max() && h.quiet(0, ps) > history_max() / 2);
        assert_eq!(h.quiet(1, ps), 0);
        assert!(h.cont(Some(5), ps) > 0);
        for _ in 0..1000 {
            h.update_quiet(0, ps, None, None, -history_bonus(20));
        }
        assert!(h.quiet(0, ps) >= -history_max() && h.quiet(0, ps) < 0);
    }
}
