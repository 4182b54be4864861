//! Attack tables, built once on first use: leapers, sliders (BMI2 PEXT where the CPU has it, fancy magic
//! bitboards otherwise), and the between/line tables that pins and check evasions need.

use super::types::{Bitboard, Color, Square};
use std::sync::LazyLock;

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// One slider square's lookup data: the relevant-occupancy mask, the magic multiplier and shift (unused with
/// PEXT), and the offset of its slice in the shared attack table.
#[derive(Clone, Copy, Default)]
struct SliderEntry {
    mask: Bitboard,
    magic: u64,
    #[cfg_attr(target_feature = "bmi2", allow(dead_code))]
    shift: u32,
    offset: u32,
}

impl SliderEntry {
    #[inline(always)]
    fn index(&self, occ: Bitboard) -> usize {
        #[cfg(target_feature = "bmi2")]
        {
            // SAFETY: this code is only compiled when the target has BMI2.
            self.offset as usize + unsafe { core::arch::x86_64::_pext_u64(occ, self.mask) } as usize
        }
        #[cfg(not(target_feature = "bmi2"))]
        {
            self.offset as usize
                + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
        }
    }
}

struct Tables {
    pawn: [[Bitboard; 64]; 2],
    knight: [Bitboard; 64],
    king: [Bitboard; 64],
    rook: [SliderEntry; 64],
    bishop: [SliderEntry; 64],
    slider_attacks: Vec<Bitboard>,
    /// Squares strictly between two squares on a common line (empty otherwise).
    between: Vec<[Bitboard; 64]>,
    /// The whole line through two squares, edge to edge (empty if they share none).
    line: Vec<[Bitboard; 64]>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(build_tables);

/// Forces the tables to be built now (so that the first search or perft does not pay for it).
pub fn init() {
    LazyLock::force(&TABLES);
}

fn offset_square(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let f = sq.file() as i8 + df;
    let r = sq.rank() as i8 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some(Square::new(f as u8, r as u8))
    } else {
        None
    }
}

fn leaper(sq: Square, deltas: &[(i8, i8)]) -> Bitboard {
    deltas
        .iter()
        .filter_map(|&(df, dr)| offset_square(sq, df, dr))
        .fold(0, |bb, s| bb | s.bb())
}

/// Slider attacks by walking rays; used to fill the tables and to test them.
pub fn slow_slider_attacks(sq: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = offset_square(cur, df, dr) {
            bb |= next.bb();
            if occ & next.bb() != 0 {
                break;
            }
            cur = next;
        }
    }
    bb
}

/// Relevant occupancy mask: the rays without their last square (an edge piece never changes the attack set).
fn relevant_mask(sq: Square, dirs: &[(i8, i8)]) -> Bitboard {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = offset_square(cur, df, dr) {
            if offset_square(next, df, dr).is_none() {
                break;
            }
            bb |= next.bb();
            cur = next;
        }
    }
    bb
}

/// Enumerates every subset of `mask` (Carry-Rippler).
fn subsets(mask: Bitboard) -> Vec<Bitboard> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub: Bitboard = 0;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

/// Small deterministic PRNG (xorshift64*) for magic search.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn fill_slider(
    entries: &mut [SliderEntry; 64],
    table: &mut Vec<Bitboard>,
    dirs: &[(i8, i8)],
    rng: &mut Rng,
) {
    for sq in 0..64u8 {
        let sq = Square(sq);
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let occs = subsets(mask);
        let attacks: Vec<Bitboard> = occs
            .iter()
            .map(|&o| slow_slider_attacks(sq, o, dirs))
            .collect();
        let offset = table.len();
        table.resize(offset + occs.len(), 0);
        let mut entry = SliderEntry {
            mask,
            magic: 0,
            shift: 64 - bits,
            offset: offset as u32,
        };
        if cfg!(target_feature = "bmi2") {
            for (&o, &a) in occs.iter().zip(&attacks) {
                let i = entry.index(o);
                table[i] = a;
            }
        } else {
            // Try random sparse multipliers until one maps every occupancy without a harmful collision.
            let mut used = vec![0u32; occs.len()];
            let mut epoch = 0u32;
            'search: loop {
                let magic = rng.sparse();
                if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                    continue;
                }
                epoch += 1;
                entry.magic = magic;
                for (&o, &a) in occs.iter().zip(&attacks) {
                    let i = entry.index(o);
                    let local = i - offset;
                    if used[local] != epoch {
                        used[local] = epoch;
                        table[i] = a;
                    } else if table[i] != a {
                        continue 'search;
                    }
                }
                break;
            }
        }
        entries[sq.index()] = entry;
    }
}

fn build_tables() -> Tables {
    let mut t = Tables {
        pawn: [[0; 64]; 2],
        knight: [0; 64],
        king: [0; 64],
        rook: [SliderEntry::default(); 64],
        bishop: [SliderEntry::default(); 64],
        slider_attacks: Vec::with_capacity(102_400 + 5_248),
        between: vec![[0; 64]; 64],
        line: vec![[0; 64]; 64],
    };
    const KNIGHT: [(i8, i8); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    const KING: [(i8, i8); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    for s in 0..64u8 {
        let sq = Square(s);
        t.knight[sq.index()] = leaper(sq, &KNIGHT);
        t.king[sq.index()] = leaper(sq, &KING);
        t.pawn[0][sq.index()] = leaper(sq, &[(-1, 1), (1, 1)]);
        t.pawn[1][sq.index()] = leaper(sq, &[(-1, -1), (1, -1)]);
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    fill_slider(&mut t.rook, &mut t.slider_attacks, &ROOK_DIRS, &mut rng);
    fill_slider(&mut t.bishop, &mut t.slider_attacks, &BISHOP_DIRS, &mut rng);
    for a in 0..64u8 {
        for (dirs, _) in [(&ROOK_DIRS, 0), (&BISHOP_DIRS, 1)] {
            let from_a = slow_slider_attacks(Square(a), 0, dirs);
            for b in 0..64u8 {
                if a == b || from_a & Square(b).bb() == 0 {
                    continue;
                }
                let from_b = slow_slider_attacks(Square(b), 0, dirs);
                t.line[a as usize][b as usize] =
                    (from_a & from_b) | Square(a).bb() | Square(b).bb();
                t.between[a as usize][b as usize] =
                    slow_slider_attacks(Square(a), Square(b).bb(), dirs)
                        & slow_slider_attacks(Square(b), Square(a).bb(), dirs);
            }
        }
    }
    t
}

#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    TABLES.pawn[color.index()][sq.index()]
}

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    TABLES.knight[sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    TABLES.king[sq.index()]
}

#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = &*TABLES;
    let i = t.rook[sq.index()].index(occ);
    // SAFETY: index() is within the square's slice by construction of the table.
    unsafe { *t.slider_attacks.get_unchecked(i) }
}

#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let t = &*TABLES;
    let i = t.bishop[sq.index()].index(occ);
    // SAFETY: as for rook_attacks.
    unsafe { *t.slider_attacks.get_unchecked(i) }
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.between[a.index()][b.index()]
}

/// The full line through `a` and `b` (edge to edge) if they share one; empty otherwise.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    TABLES.line[a.index()][b.index()]
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

    #[test]
    fn slider_tables_match_ray_walks() {
        let mut rng = Rng(12345);
        for s in 0..64u8 {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                let sq = Square(s);
                assert_eq!(
                    rook_attacks(sq, occ),
                    slow_slider_attacks(sq, occ, &ROOK_DIRS)
                );
                assert_eq!(
                    bishop_attacks(sq, occ),
                    slow_slider_attacks(sq, occ, &BISHOP_DIRS)
                );
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
    }
}
