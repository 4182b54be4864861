//! The placement and mobility features the Makromachy position keeps up to date as pieces come and go:
//! weight-free counts, defined here as board geometry, that an evaluator multiplies by its own weights
//! (`eval::makro` does). Keeping them on the board saves visiting the 56 pieces a side at every node; keeping
//! them weight-free lets the board know nothing of any evaluator.

use super::geometry::{code, sq, FILES, MAILBOX, RANKS};
use super::pieces::{Kind, KIND_COUNT};
use crate::types::Color;

/// How many squares per line the mobility feature counts: the empty squares a long-range piece (slider,
/// flyer, Cannon, Vao) sees along each of its lines, at most this many a line. In Makromachy's crowded
/// opening what matters is whether a line is open at all, and a short reach keeps the incremental update of
/// the counts short.
pub const MOBILITY_REACH: i32 = 4;

/// The kinds whose centralisation is counted (leapers and steppers; long-range pieces care less).
pub const fn is_short_range(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Knight
            | Kind::Elephant
            | Kind::Champion
            | Kind::Camel
            | Kind::Zebra
            | Kind::Archer
            | Kind::Griffon
            | Kind::Rhino
    )
}

/// One side's placement features, summed over its pieces (see [`piece_placement`] for one piece's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// Pawns' squared steps beyond their start rank.
    pub pawn_advance: i32,
    /// Warriors' squared steps beyond their start rank.
    pub warrior_advance: i32,
    /// Short-range pieces' steps nearer the centre.
    pub centralisation: i32,
}

/// The placement features of one `kind` on file `f`, rank `rel_rank` counted from its own side: a Pawn's
/// squared steps beyond its start rank, a Warrior's squared steps beyond its, and a short-range piece's
/// nearness to the centre (in steps); the other kinds count nothing.
pub const fn piece_placement(kind: Kind, f: i32, rel_rank: i32) -> Placement {
    let centre2 = FILES - 1; // twice the centre coordinate (6.5 * 2)
    let mut p = Placement {
        pawn_advance: 0,
        warrior_advance: 0,
        centralisation: 0,
    };
    match kind {
        Kind::Pawn => {
            let steps = if rel_rank > 3 { rel_rank - 3 } else { 0 };
            p.pawn_advance = steps * steps;
        }
        Kind::Warrior => {
            let steps = if rel_rank > 1 { rel_rank - 1 } else { 0 };
            p.warrior_advance = steps * steps;
        }
        k if is_short_range(k) => {
            // Chebyshev distance from the centre, doubled to stay in integers (symmetric in rank, so the
            // relative rank serves); both doubled coordinates are odd, so the difference halves exactly.
            let df = (2 * f - centre2).abs();
            let dr = (2 * rel_rank - centre2).abs();
            let d = if df > dr { df } else { dr };
            p.centralisation = (centre2 - d) / 2;
        }
        _ => {}
    }
    p
}

/// The rank of `rank` counted from `color`'s side.
pub const fn relative_rank(color: Color, rank: i32) -> i32 {
    match color {
        Color::White => rank,
        Color::Black => RANKS - 1 - rank,
    }
}

// The position sums the three features of a side in one word, a 16-bit lane each, so that placing or lifting a
// piece is one table load and one add. A lane never overflows or borrows: each sum is over the pieces on the
// board of non-negative terms, at most 196 pieces times 144 (a Warrior on the last rank) < 2^16.
const LANE: u32 = 16;
const LANE_MASK: u64 = (1 << LANE) - 1;

/// [`Placement`] packed into 16-bit lanes: Pawn advance, Warrior advance, centralisation.
pub(crate) const fn pack(p: Placement) -> u64 {
    p.pawn_advance as u64
        | (p.warrior_advance as u64) << LANE
        | (p.centralisation as u64) << (2 * LANE)
}

/// The sums packed by [`pack`], back as a [`Placement`].
pub(crate) const fn unpack(w: u64) -> Placement {
    Placement {
        pawn_advance: (w & LANE_MASK) as i32,
        warrior_advance: (w >> LANE & LANE_MASK) as i32,
        centralisation: (w >> (2 * LANE) & LANE_MASK) as i32,
    }
}

/// Per piece code and mailbox square, the piece's packed placement (0 off the board and for other bytes).
pub(crate) static PACKED_PLACEMENT: [[u64; MAILBOX]; 64] = {
    let mut t = [[0; MAILBOX]; 64];
    let mut k = 0;
    while k < KIND_COUNT {
        let kind = Kind::ALL[k];
        let mut c = 0;
        while c < 2 {
            let color = Color::BOTH[c];
            let pc = code(color, kind) as usize;
            let mut r = 0;
            while r < RANKS {
                let mut f = 0;
                while f < FILES {
                    t[pc][sq(f, r) as usize] =
                        pack(piece_placement(kind, f, relative_rank(color, r)));
                    f += 1;
                }
                r += 1;
            }
            c += 1;
        }
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_the_largest_sums() {
        // The largest sums a side can reach: every square a Warrior on its last rank, or a centred leaper.
        let p = Placement {
            pawn_advance: 196 * 100,
            warrior_advance: 196 * 144,
            centralisation: 196 * 6,
        };
        assert_eq!(unpack(pack(p)), p);
        let one = piece_placement(Kind::Warrior, 0, RANKS - 1);
        assert_eq!(one.warrior_advance, 144);
        assert_eq!(unpack(pack(p) - pack(one)).warrior_advance, 196 * 144 - 144);
    }

    #[test]
    fn placement_reads_like_the_rules() {
        // Pawns start on the 4th rank, Warriors on the 2nd: no credit there, squared steps beyond.
        assert_eq!(piece_placement(Kind::Pawn, 5, 3), Placement::default());
        assert_eq!(piece_placement(Kind::Pawn, 5, 6).pawn_advance, 9);
        assert_eq!(piece_placement(Kind::Warrior, 0, 3).warrior_advance, 4);
        // A Knight on the four centre squares is 6 steps in, on a corner 0; a Rook counts nothing.
        assert_eq!(piece_placement(Kind::Knight, 6, 7).centralisation, 6);
        assert_eq!(piece_placement(Kind::Knight, 0, 13).centralisation, 0);
        assert_eq!(piece_placement(Kind::Rook, 6, 7), Placement::default());
        // Black counts ranks from its own side.
        assert_eq!(relative_rank(Color::Black, 13), 0);
        let black_pawn = code(Color::Black, Kind::Pawn) as usize;
        assert_eq!(
            unpack(PACKED_PLACEMENT[black_pawn][sq(2, 4) as usize]).pawn_advance,
            36
        );
    }
}
