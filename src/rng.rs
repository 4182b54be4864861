//! A small seeded generator (SplitMix64) for everything that must be reproducible from a seed alone:
//! the tools' random openings, the NNUE trainer's initialisation, validation split and shuffles.

/// SplitMix64: passes BigCrush, one add and three xor-multiply steps per output.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`; streams that must differ mix a tag into the seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = step(self.0);
        self.0 = state;
        out
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f64() as f32
    }

    /// Uniform in 0..n (0 when n is 0), by multiply-shift (bias below n / 2^64).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A number in 0..n (0 when n is 0) by remainder: the tools' random openings use it, so that datagen's
    /// and genfens' output for a seed stays what it has always been.
    pub fn below_mod(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// One SplitMix64 step as a `const fn`: the next state and its output. Compile-time tables (the Zobrist
/// keys of both boards) draw from it; [`Rng`] is the same generator at run time.
pub const fn step(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    (s, mix(s))
}

/// The next output of the SplitMix64 stream whose state is `state`, advancing it: what compile-time tables
/// (both boards' Zobrist keys) draw with.
pub const fn next_in(state: &mut u64) -> u64 {
    let (s, out) = step(*state);
    *state = s;
    out
}

/// The SplitMix64 finaliser, also a stateless hash (the trainer's validation split by record index).
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproducible_and_in_range() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        let mut c = Rng::new(8);
        let (x, y) = (a.next_u64(), b.next_u64());
        assert_eq!(x, y);
        assert_ne!(x, c.next_u64());
        for n in [1, 2, 3, 10, 1000] {
            for _ in 0..100 {
                assert!(a.below(n) < n);
                assert!(a.below_mod(n) < n);
                assert!((0.0..1.0).contains(&a.next_f64()));
            }
        }
        assert_eq!(a.below_mod(0), 0);
        let mut v: Vec<u32> = (0..50).collect();
        a.shuffle(&mut v);
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<u32>>());
    }
}
