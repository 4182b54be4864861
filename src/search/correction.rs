//! Correction history: how far the static evaluation missed the searched score, learned per pawn
//! structure and per each side's piece placement, and added back to the evaluation of positions that share
//! them. Only games that keep part keys ([`crate::game::Game::CORRECTION`]) use it.

use super::params::{corr_non_pawn_weight, corr_pawn_weight};
use super::score::TB_WIN_BOUND;

/// Entries per side and table (a power of two: keys are masked).
const SIZE: usize = 16384;
/// Entries hold centipawns times this, so small corrections are not lost to rounding.
const GRAIN: i32 = 16;
/// The largest magnitude an entry reaches (in grains): 512 centipawns.
const LIMIT: i32 = 512 * GRAIN;

/// The tables of one search thread (kept between searches, like its histories).
pub struct Correction {
    /// By side to move, then pawn key.
    pawn: Vec<i16>,
    /// By the colour whose pieces the key covers, side to move, then key.
    non_pawn: [Vec<i16>; 2],
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            pawn: vec![0; 2 * SIZE],
            non_pawn: [vec![0; 2 * SIZE], vec![0; 2 * SIZE]],
        }
    }
}

#[inline(always)]
fn slot(side: usize, key: u64) -> usize {
    side * SIZE + (key as usize & (SIZE - 1))
}

impl Correction {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.pawn.fill(0);
        for t in &mut self.non_pawn {
            t.fill(0);
        }
    }

    /// `raw` (side to move's view) corrected by what the tables learned of `keys` (pawns, White's pieces,
    /// Black's pieces); never into the range of proven wins.
    #[inline(always)]
    pub fn correct(&self, side: usize, keys: [u64; 3], raw: i32) -> i32 {
        let pawn = self.pawn[slot(side, keys[0])] as i32;
        let pieces = self.non_pawn[0][slot(side, keys[1])] as i32
            + self.non_pawn[1][slot(side, keys[2])] as i32;
        let shift = (pawn * corr_pawn_weight() + pieces * corr_non_pawn_weight()) / (100 * GRAIN);
        (raw + shift).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Learns from a node searched to `depth` whose score `searched` differs from its corrected static
    /// evaluation `eval`: deeper nodes teach more, and entries saturate towards [`LIMIT`].
    #[inline(always)]
    pub fn update(&mut self, side: usize, keys: [u64; 3], depth: i32, searched: i32, eval: i32) {
        let bonus = ((searched - eval) * GRAIN * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        let learn = |e: &mut i16| {
            let v = *e as i32;
            *e = (v + bonus - v * bonus.abs() / LIMIT).clamp(-LIMIT, LIMIT) as i16;
        };
        learn(&mut self.pawn[slot(side, keys[0])]);
        learn(&mut self.non_pawn[0][slot(side, keys[1])]);
        learn(&mut self.non_pawn[1][slot(side, keys[2])]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_sign_and_size_of_the_miss_and_saturates() {
        let mut c = Correction::default();
        let keys = [1, 2, 3];
        assert_eq!(c.correct(0, keys, 40), 40, "nothing learned yet");
        for _ in 0..200 {
            let eval = c.correct(0, keys, 40);
            c.update(0, keys, 10, 140, eval);
        }
        let learned = c.correct(0, keys, 40);
        assert!(
            learned > 90,
            "corrected towards the searched 140: {learned}"
        );
        // The other side to move and other keys learned nothing.
        assert_eq!(c.correct(1, keys, 40), 40);
        assert_eq!(c.correct(0, [9, 9, 9], 40), 40);
        // Entries stay within their limit however large the misses.
        for _ in 0..1000 {
            c.update(0, keys, 30, 20_000, -20_000);
        }
        let max = c.correct(0, keys, 0);
        assert!(max <= 512 * (corr_pawn_weight() + 2 * corr_non_pawn_weight()) / 100 + 1);
        c.clear();
        assert_eq!(c.correct(0, keys, 40), 40);
    }
}
