//! Attack tables, computed at compile time: leapers, sliders (indexed with BMI2 PEXT where the CPU has it,
//! with fancy magic bitboards otherwise), and the between/line tables that pins and check evasions need.
//!
//! Being `static` data, the tables cost nothing at start-up and no lazy-initialisation check on every lookup
//! (that check alone was 5 % of perft's instructions when the tables sat behind a `LazyLock`).

use super::slider_tables::{
    offset_square, ray_attacks, slider_entries, SliderEntry, BISHOP_DIRS, BISHOP_MAGICS,
    BISHOP_TABLE, ROOK_DIRS, ROOK_MAGICS, ROOK_TABLE,
};
use super::types::{Bitboard, Color, Square};

static ROOK_ENTRIES: [SliderEntry; 64] = slider_entries(&ROOK_DIRS, &ROOK_MAGICS, 0);
static BISHOP_ENTRIES: [SliderEntry; 64] = slider_entries(&BISHOP_DIRS, &BISHOP_MAGICS, ROOK_TABLE);

const SLIDER_TABLE: usize = ROOK_TABLE + BISHOP_TABLE;

/// Aligns the included bytes so they can be read as `u64`s.
#[repr(C, align(64))]
struct Aligned<T>(T);

/// Written by build.rs in the target's byte order, in this build's indexing (PEXT or magic).
static SLIDER_BYTES: Aligned<[u8; SLIDER_TABLE * 8]> = Aligned(*include_bytes!(concat!(
    env!("OUT_DIR"),
    "/slider_attacks.bin"
)));

#[inline(always)]
fn slider_attacks() -> &'static [Bitboard; SLIDER_TABLE] {
    // SAFETY: the bytes are 64-byte aligned, exactly SLIDER_TABLE * 8 long, and any bit pattern is a valid u64.
    unsafe { &*(SLIDER_BYTES.0.as_ptr() as *const [Bitboard; SLIDER_TABLE]) }
}

#[inline(always)]
fn slider_index(e: &SliderEntry, occ: Bitboard) -> usize {
    #[cfg(target_feature = "bmi2")]
    {
        // SAFETY: compiled only when the target has BMI2.
        e.offset as usize + unsafe { core::arch::x86_64::_pext_u64(occ, e.mask) } as usize
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        e.offset as usize + ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize
    }
}

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < deltas.len() {
            if let Some(to) = offset_square(sq, deltas[i].0, deltas[i].1) {
                t[sq] |= 1 << to;
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

static KNIGHT: [Bitboard; 64] = leaper_table(&crate::types::leaps(1, 2));
static KING: [Bitboard; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// `between` (strictly between) and `line` (edge to edge) for every pair of squares on a common line.
const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let mut k = 0;
                while k < 2 {
                    let dirs = if k == 0 { &ROOK_DIRS } else { &BISHOP_DIRS };
                    let from_a = ray_attacks(a, 0, dirs);
                    if from_a & (1 << b) != 0 {
                        let from_b = ray_attacks(b, 0, dirs);
                        line[a][b] = (from_a & from_b) | (1 << a) | (1 << b);
                        between[a][b] = ray_attacks(a, 1 << b, dirs) & ray_attacks(b, 1 << a, dirs);
                    }
                    k += 1;
                }
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();

/// A queen's attacks from each square on an empty board: every square on a line with it.
static QUEEN_RAYS: [Bitboard; 64] = {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = ray_attacks(sq, 0, &ROOK_DIRS) | ray_attacks(sq, 0, &BISHOP_DIRS);
        sq += 1;
    }
    t
};

/// The squares on a rank, file or diagonal with `sq` (a queen's attacks on an empty board).
#[inline(always)]
pub fn queen_rays(sq: Square) -> Bitboard {
    QUEEN_RAYS[sq.index()]
}

/// Kept for callers that want to warm caches; the tables are static and need no building.
pub fn init() {}

#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let i = slider_index(&ROOK_ENTRIES[sq.index()], occ);
    // SAFETY: index() stays inside the square's slice by construction of the table.
    unsafe { *slider_attacks().get_unchecked(i) }
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let i = slider_index(&BISHOP_ENTRIES[sq.index()], occ);
    // SAFETY: as for rook_attacks.
    unsafe { *slider_attacks().get_unchecked(i) }
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a.index()][b.index()]
}

/// The full line through `a` and `b` (edge to edge) if they share one; empty otherwise.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a.index()][b.index()]
}

/// Pawn attack sets of a whole bitboard of pawns.
#[inline(always)]
pub fn pawn_attacks_bb(color: Color, pawns: Bitboard) -> Bitboard {
    use super::types::{FILE_A, FILE_H};
    match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rng::Rng;

    #[test]
    fn slider_tables_match_ray_walks() {
        let mut rng = Rng::new(12345);
        for s in 0..64u8 {
            for _ in 0..300 {
                let occ = rng.next_u64() & rng.next_u64();
                let sq = Square(s);
                assert_eq!(
                    rook_attacks(sq, occ),
                    ray_attacks(s as usize, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(sq, occ),
                    ray_attacks(s as usize, occ, &BISHOP_DIRS)
                );
            }
        }
    }

    /// The magic multipliers must be collision-free (harmless collisions aside) whichever indexing this
    /// build uses, so that a build without BMI2 is right too.
    #[test]
    fn magics_are_valid() {
        for (entries, dirs) in [(&ROOK_ENTRIES, &ROOK_DIRS), (&BISHOP_ENTRIES, &BISHOP_DIRS)] {
            for (sq, e) in entries.iter().enumerate() {
                let mut seen = std::collections::HashMap::new();
                let mut occ: u64 = 0;
                loop {
                    let idx = ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
                    assert!(idx < 1 << e.mask.count_ones());
                    let att = ray_attacks(sq, occ, dirs);
                    assert_eq!(
                        *seen.entry(idx).or_insert(att),
                        att,
                        "magic collision on square {sq}"
                    );
                    occ = occ.wrapping_sub(e.mask) & e.mask;
                    if occ == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn between_and_line() {
        let a1 = Square::parse("a1").unwrap();
        let h8 = Square::parse("h8").unwrap();
        let c3 = Square::parse("c3").unwrap();
        let b3 = Square::parse("b3").unwrap();
        assert_eq!(between(a1, h8).count_ones(), 6);
        assert_ne!(between(a1, h8) & c3.bb(), 0);
        assert_eq!(between(a1, b3), 0);
        assert_eq!(line(a1, c3).count_ones(), 8);
        assert_eq!(knight_attacks(a1).count_ones(), 2);
        assert_eq!(king_attacks(a1).count_ones(), 3);
        assert_eq!(pawn_attacks(Color::White, a1), b3.bb() >> 8);
    }
}
