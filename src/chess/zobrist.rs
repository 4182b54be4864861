//! Zobrist keys, generated at compile time from a fixed seed so that keys (and so `bench` signatures and
//! transposition-table behaviour) are identical in every build.

/// The keys' generator: SplitMix64 (one definition, in `crate::rng`).
use crate::rng::next_in;

pub struct Keys {
    /// Indexed by `Piece::index()` then square.
    pub piece: [[u64; 64]; 12],
    pub side: u64,
    /// Indexed by the 4-bit castling-rights mask.
    pub castling: [u64; 16],
    pub ep_file: [u64; 8],
}

const fn generate() -> Keys {
    let mut k = Keys {
        piece: [[0; 64]; 12],
        side: 0,
        castling: [0; 16],
        ep_file: [0; 8],
    };
    let mut state = 0x00C0_2B1D_u64;
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            k.piece[p][s] = next_in(&mut state);
            s += 1;
        }
        p += 1;
    }
    k.side = next_in(&mut state);
    // Each right gets its own key; a mask's key is the XOR of its rights, so losing one right is one XOR.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        single[i] = next_in(&mut state);
        i += 1;
    }
    let mut m = 0;
    while m < 16 {
        let mut key = 0;
        let mut b = 0;
        while b < 4 {
            if m & (1 << b) != 0 {
                key ^= single[b];
            }
            b += 1;
        }
        k.castling[m] = key;
        m += 1;
    }
    let mut f = 0;
    while f < 8 {
        k.ep_file[f] = next_in(&mut state);
        f += 1;
    }
    k
}

pub static KEYS: Keys = generate();
