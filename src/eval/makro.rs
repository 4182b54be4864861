//! Makromachy evaluation: material, Pawn and Warrior advancement, centralisation of the short-range pieces,
//! mobility of the long-range ones, and King safety against the pieces that strike from afar (flyers over
//! screens, Cannons, sliders on open lines). The hand-set start values came from the usual orthodox and
//! compound-piece values (Knight/Bishop ~3 Pawns, Rook 5, Queen 9.5, Archbishop and Marshall ~8-8.5) and each
//! new piece's moves; `tune_makro` then fitted them to self-play results (see `PARAMS`). The piece-square part
//! (material, advancement, centralisation) is kept incrementally by `Position`; see [`PSQ`].
//! All tunables are in `PARAMS`.

use crate::chess::Color;
use crate::makro::pieces::{Kind, KIND_COUNT};
use crate::makro::position::{
    color_of, file_of, is_piece, kind_of, rank_of, sq, Position, FILES, MAILBOX, RANKS,
};

/// The evaluation's tunable numbers, in centipawns.
pub struct Params {
    /// Material per kind, indexed by `Kind::index()` (King 0).
    pub value: [i32; KIND_COUNT],
    /// Per rank advanced beyond the start, squared: `advance * ranks^2`.
    pub pawn_advance: i32,
    pub warrior_advance: i32,
    /// Per step nearer the centre, for leapers and steppers (sliders do not care as much).
    pub centralisation: i32,
    /// Per enemy long-range piece aimed at the King's square along an open or flyable line.
    pub king_line_threat: i32,
    /// Per own piece adjacent to the King.
    pub king_shelter: i32,
    /// Per empty square a long-range piece (slider, flyer, Cannon, Vao) sees along its lines, counting at
    /// most `mobility_reach` squares per line: in Makromachy's crowded opening what matters is whether a line
    /// is open at all, and a short reach keeps the position's incremental update of the counts short.
    pub mobility: i32,
    pub mobility_reach: i32,
    pub tempo: i32,
}

pub const PARAMS: Params = Params {
    // Fitted by `tune_makro` (l2 3e-3) to 390 Corvid self-play games (57,000 positions), from the hand-set
    // start values in brackets; validation error 0.1428 -> 0.1306.
    value: [
        0,    // King
        1035, // Queen (950)
        438,  // Rook (500)
        324,  // Bishop (350)
        259,  // Knight, with airlift (300)
        231,  // Elephant (260)
        219,  // Champion (380)
        236,  // Camel (230)
        205,  // Zebra (240)
        736,  // Marshall (850)
        973,  // Archbishop (800)
        707,  // Dragon King (700)
        557,  // Dragon Horse (580)
        203,  // Archer (250)
        1126, // Griffon (800)
        651,  // Rhino (600)
        368,  // Cannon (400)
        296,  // Vao (300)
        1485, // Eagle (1200)
        723,  // Raven (650)
        626,  // Bat (450)
        1852, // Terror (1600)
        175,  // Warrior (140)
        66,   // Pawn (100)
    ],
    pawn_advance: 2,    // (4)
    warrior_advance: 2, // (3)
    centralisation: 2,  // (3)
    king_line_threat: 25,
    king_shelter: 9, // (8)
    mobility: 1,     // (4)
    mobility_reach: 4,
    tempo: 15,
};

/// Material value of a kind.
#[inline(always)]
pub fn value(kind: Kind) -> i32 {
    PARAMS.value[kind.index()]
}

const fn is_short_range(kind: Kind) -> bool {
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

/// The piece-square part of one piece: material, Pawn/Warrior advancement and centralisation, by piece code
/// and mailbox square (off-board squares 0). `Position` keeps each side's sum up to date as pieces come and
/// go, so the evaluation does not visit the pieces one by one.
pub static PSQ: [[i32; MAILBOX]; 64] = psq_table();

const fn psq_table() -> [[i32; MAILBOX]; 64] {
    let mut t = [[0; MAILBOX]; 64];
    let mut k = 0;
    while k < KIND_COUNT {
        let kind = Kind::from_code(k as u8 + 1);
        let mut c = 0;
        while c < 2 {
            let color = if c == 0 { Color::White } else { Color::Black };
            let code = crate::makro::position::code(color, kind) as usize;
            let mut r = 0;
            while r < RANKS {
                let mut f = 0;
                while f < FILES {
                    let rel_rank = if c == 0 { r } else { RANKS - 1 - r };
                    let terms = square_terms(kind, f, rel_rank);
                    t[code][sq(f, r) as usize] = terms[0] + terms[1] + terms[2];
                    f += 1;
                }
                r += 1;
            }
            c += 1;
        }
        k += 1;
    }
    t
}

/// Material, advancement and centralisation of a `kind` on file `f`, rank `rel_rank` counted from its own
/// side.
const fn square_terms(kind: Kind, f: i32, rel_rank: i32) -> [i32; 3] {
    let [pawn_steps2, warrior_steps2, centre] = placement(kind, f, rel_rank);
    [
        PARAMS.value[kind.index()],
        PARAMS.pawn_advance * pawn_steps2 + PARAMS.warrior_advance * warrior_steps2,
        PARAMS.centralisation * centre,
    ]
}

/// The placement counts the parameters multiply: a Pawn's squared steps beyond its start rank, a
/// Warrior's squared steps beyond its, and a short-range piece's nearness to the centre (in steps).
const fn placement(kind: Kind, f: i32, rel_rank: i32) -> [i32; 3] {
    let centre2 = FILES - 1; // twice the centre coordinate (6.5 * 2)
    match kind {
        Kind::Pawn => {
            let steps = if rel_rank > 3 { rel_rank - 3 } else { 0 };
            [steps * steps, 0, 0]
        }
        Kind::Warrior => {
            let steps = if rel_rank > 1 { rel_rank - 1 } else { 0 };
            [0, steps * steps, 0]
        }
        k if is_short_range(k) => {
            // Chebyshev distance from the centre, doubled to stay in integers (symmetric in rank, so the
            // relative rank serves); both doubled coordinates are odd, so the difference halves exactly.
            let df = (2 * f - centre2).abs();
            let dr = (2 * rel_rank - centre2).abs();
            let d = if df > dr { df } else { dr };
            [0, 0, (centre2 - d) / 2]
        }
        _ => [0, 0, 0],
    }
}

/// Per-colour terms (White's first), in centipawns.
#[derive(Default, Debug, Clone, Copy)]
pub struct Breakdown {
    pub material: [i32; 2],
    pub advancement: [i32; 2],
    pub centralisation: [i32; 2],
    pub king_safety: [i32; 2],
    pub mobility: [i32; 2],
}

fn breakdown(pos: &Position) -> Breakdown {
    let mut b = Breakdown::default();
    for color in Color::BOTH {
        let i = color.index();
        pos.for_each_piece(color, |s| {
            let (f, r) = (file_of(s), rank_of(s));
            let rel_rank = if color == Color::White {
                r
            } else {
                RANKS - 1 - r
            };
            let t = square_terms(kind_of(pos.at(s)), f, rel_rank);
            b.material[i] += t[0];
            b.advancement[i] += t[1];
            b.centralisation[i] += t[2];
        });
    }
    b.king_safety = king_safety(pos);
    b.mobility = mobility(pos);
    b
}

/// The mobility of both sides' long-range pieces (see `Params::mobility`). `Position` keeps the counts as
/// pieces come and go: recounting them cost about a tenth of the search.
fn mobility(pos: &Position) -> [i32; 2] {
    pos.mobility().map(|n| PARAMS.mobility * n)
}

/// The mobility counts from scratch: the empty squares both sides' long-range pieces see, at most
/// `mobility_reach` a line (the test of the incremental counts).
#[cfg(test)]
fn mobility_squares(pos: &Position) -> [i32; 2] {
    use crate::makro::position::{EMPTY, LINES};
    let reach = PARAMS.mobility_reach;
    let mut out = [0; 2];
    for color in Color::BOTH {
        pos.for_each_long_range_piece(color, |p| {
            let kind = kind_of(pos.at(p));
            for (i, &d) in LINES.iter().enumerate() {
                let along = if i < 4 {
                    kind.moves_along_orthogonals()
                } else {
                    kind.moves_along_diagonals()
                };
                let mut s = p as i32 + d;
                let mut n = 0;
                while along && n < reach && pos.at(s as u16) == EMPTY {
                    n += 1;
                    s += d;
                }
                out[color.index()] += n;
            }
        });
    }
    out
}

/// King safety of both sides: shelter and the enemy long-range pieces aimed at the King.
fn king_safety(pos: &Position) -> [i32; 2] {
    let mut out = [0; 2];
    for color in Color::BOTH {
        let i = color.index();
        let (shelter, threats) = king_counts(pos, color);
        out[i] = PARAMS.king_shelter * shelter - PARAMS.king_line_threat * threats;
    }
    out
}

/// What King safety counts for `color`: own pieces next to its King, and enemy long-range pieces aimed at it.
fn king_counts(pos: &Position, color: Color) -> (i32, i32) {
    let k = pos.king_square(color);
    let mut shelter = 0;
    for d in crate::makro::pieces::KING {
        let s = (k as i32 + crate::makro::position::offset(d.0, d.1)) as u16;
        let c = pos.at(s);
        if is_piece(c) && color_of(c) == color {
            shelter += 1;
        }
    }
    (shelter, aimed_at(pos, k, color.flip()))
}

/// Enemy long-range pieces (`by`) aimed at square `k` along a line: the first piece for sliders, beyond one
/// screen for Cannons/Vaos, beyond unranked pieces for flyers. Whether or not they give check now, they are
/// the pieces that can strike the King suddenly.
fn aimed_at(pos: &Position, k: u16, by: Color) -> i32 {
    use crate::makro::movegen::{mask_of, DIAG_SLIDERS, FLYERS, KIND_BIT, ORTH_SLIDERS, RANKED};
    use crate::makro::position::{EMPTY, LINES, OFF};
    let theirs = &KIND_BIT[by.index()];
    let ours = &KIND_BIT[by.flip().index()];
    let mut n = 0;
    for (i, &d) in LINES.iter().enumerate() {
        let (sliders, cannon) = if i < 4 {
            (ORTH_SLIDERS, mask_of(&[Kind::Cannon]))
        } else {
            (DIAG_SLIDERS, mask_of(&[Kind::Vao]))
        };
        let mut s = k as i32 + d;
        let mut seen = 0;
        let mut ranked = false;
        while seen < 4 {
            let c = pos.at(s as u16);
            if c == OFF {
                break;
            }
            if c != EMPTY {
                seen += 1;
                let enemy = theirs[c as usize];
                // Sliders that are at most one piece away from the King count too: that piece may move.
                if (enemy & sliders != 0 && seen <= 2)
                    || (enemy & cannon != 0 && seen <= 3)
                    || (enemy & sliders & FLYERS != 0 && !ranked)
                {
                    n += 1;
                }
                ranked |= (enemy | ours[c as usize]) & RANKED != 0;
            }
            s += d;
        }
    }
    n
}

/// Number of entries of [`features`]: one count per kind, then Pawn and Warrior advancement, centralisation,
/// King shelter, King line threats, mobility and the side to move.
pub const N_FEATURES: usize = KIND_COUNT + 7;

/// The evaluation as a linear function: White-minus-Black feature values such that `evaluate` from White's
/// view is (up to integer rounding) the dot product with [`param_vector`]. The Texel tuner
/// (`src/bin/tune_makro.rs`) fits the parameters to game results through it.
pub fn features(pos: &Position) -> [f64; N_FEATURES] {
    let mut f = [0.0; N_FEATURES];
    for color in Color::BOTH {
        let sign = if color == Color::White { 1.0 } else { -1.0 };
        pos.for_each_piece(color, |s| {
            let kind = kind_of(pos.at(s));
            let (file, r) = (file_of(s), rank_of(s));
            let rel_rank = if color == Color::White {
                r
            } else {
                RANKS - 1 - r
            };
            f[kind.index()] += sign;
            let [pawn, warrior, centre] = placement(kind, file, rel_rank);
            f[KIND_COUNT] += sign * pawn as f64;
            f[KIND_COUNT + 1] += sign * warrior as f64;
            f[KIND_COUNT + 2] += sign * centre as f64;
        });
        let (shelter, threats) = king_counts(pos, color);
        f[KIND_COUNT + 3] += sign * shelter as f64;
        f[KIND_COUNT + 4] -= sign * threats as f64;
    }
    let mob = pos.mobility();
    f[KIND_COUNT + 5] = (mob[0] - mob[1]) as f64;
    f[KIND_COUNT + 6] = if pos.side_to_move() == Color::White {
        1.0
    } else {
        -1.0
    };
    f
}

/// The current parameters in [`features`]' order.
pub fn param_vector() -> [f64; N_FEATURES] {
    let mut v = [0.0; N_FEATURES];
    for (i, x) in PARAMS.value.iter().enumerate() {
        v[i] = *x as f64;
    }
    v[KIND_COUNT] = PARAMS.pawn_advance as f64;
    v[KIND_COUNT + 1] = PARAMS.warrior_advance as f64;
    v[KIND_COUNT + 2] = PARAMS.centralisation as f64;
    v[KIND_COUNT + 3] = PARAMS.king_shelter as f64;
    v[KIND_COUNT + 4] = PARAMS.king_line_threat as f64;
    v[KIND_COUNT + 5] = PARAMS.mobility as f64;
    v[KIND_COUNT + 6] = PARAMS.tempo as f64;
    v
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let psq = pos.psq();
    let ks = king_safety(pos);
    let mob = mobility(pos);
    let score = psq[0] - psq[1] + ks[0] - ks[1] + mob[0] - mob[1];
    PARAMS.tempo
        + if pos.side_to_move() == Color::White {
            score
        } else {
            -score
        }
}

/// A readable breakdown (the UCI `eval` command).
pub fn trace(pos: &Position) -> String {
    let b = breakdown(pos);
    let mut s = String::from("term            white    black    total\n");
    for (name, t) in [
        ("material", b.material),
        ("advancement", b.advancement),
        ("centralisation", b.centralisation),
        ("king safety", b.king_safety),
        ("mobility", b.mobility),
    ] {
        s.push_str(&format!(
            "{name:<14} {:>7}  {:>7}  {:>7}\n",
            t[0],
            t[1],
            t[0] - t[1]
        ));
    }
    s.push_str(&format!(
        "tempo {:+}; total {} cp from the side to move's view\n",
        PARAMS.tempo,
        evaluate(pos)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let p = Position::startpos();
        assert_eq!(evaluate(&p), PARAMS.tempo);
        let mut q = p.clone();
        q.make_null_move();
        assert_eq!(evaluate(&q), PARAMS.tempo);
    }

    #[test]
    fn extra_material_counts() {
        let p =
            Position::from_fen("13k/14/14/14/14/14/14/14/14/14/14/14/3T10/K13 w - - 0 1").unwrap();
        assert!(evaluate(&p) > value(Kind::Terror) / 2);
        let q =
            Position::from_fen("13k/14/14/14/14/14/14/14/14/14/14/14/3T10/K13 b - - 0 1").unwrap();
        assert!(evaluate(&q) < -value(Kind::Terror) / 2);
    }

    #[test]
    fn incremental_sums_and_mobility_match_a_recount() {
        // Random games from the start: after every move the sums and mobility counts kept by `put`/`remove`
        // equal the terms counted piece by piece (captures, promotions, castling, hit-and-run and e.p. all
        // pass through).
        let mut seed = 0x1234_5678_9ABC_DEF1_u64;
        for _game in 0..6 {
            let mut pos = Position::startpos();
            for _ply in 0..160 {
                let b = breakdown(&pos);
                for i in 0..2 {
                    let recount = b.material[i] + b.advancement[i] + b.centralisation[i];
                    assert_eq!(pos.psq()[i], recount, "{}", pos.to_fen());
                }
                assert_eq!(pos.mobility(), mobility_squares(&pos), "{}", pos.to_fen());
                // The long-range set is exactly the long-range pieces.
                for color in Color::BOTH {
                    let (mut kept, mut all) = (Vec::new(), Vec::new());
                    pos.for_each_long_range_piece(color, |s| kept.push(s));
                    pos.for_each_piece(color, |s| {
                        if crate::makro::position::is_long_range(pos.at(s)) {
                            all.push(s);
                        }
                    });
                    assert_eq!(kept, all, "{}", pos.to_fen());
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures and promotions now and then, so material changes hands.
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let noisy = pos.legal_noisy_moves();
                let m = if !noisy.is_empty() && seed.is_multiple_of(3) {
                    noisy[(seed >> 8) as usize % noisy.len()]
                } else {
                    moves[(seed >> 8) as usize % moves.len()]
                };
                pos.make_move(m);
            }
        }
    }

    #[test]
    fn features_reproduce_the_evaluation() {
        let mut pos = Position::startpos();
        let theta = param_vector();
        for ply in 0..120 {
            let f = features(&pos);
            let white_view: f64 = f.iter().zip(theta.iter()).map(|(a, b)| a * b).sum();
            let e = evaluate(&pos) as f64;
            let expected = if pos.side_to_move() == Color::White {
                e
            } else {
                -e
            };
            assert!(
                (white_view - expected).abs() < 0.5,
                "ply {ply}: {white_view} vs {expected}"
            );
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[(ply * 7919) % moves.len()]);
        }
    }

    #[test]
    fn advanced_pawns_are_worth_more() {
        let far =
            Position::from_fen("13k/14/14/3P10/14/14/14/14/14/14/14/14/14/K13 w - - 0 1").unwrap();
        let near =
            Position::from_fen("13k/14/14/14/14/14/14/14/14/14/3P10/14/14/K13 w - - 0 1").unwrap();
        assert!(evaluate(&far) > evaluate(&near));
    }
}
