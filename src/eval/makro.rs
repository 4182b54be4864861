//! Makromachy evaluation: material, Pawn and Warrior advancement, centralisation of the short-range pieces,
//! mobility of the long-range ones, and King safety against the pieces that strike from afar (flyers over
//! screens, Cannons, sliders on open lines). The hand-set start values came from the usual orthodox and
//! compound-piece values (Knight/Bishop ~3 Pawns, Rook 5, Queen 9.5, Archbishop and Marshall ~8-8.5) and each
//! new piece's moves; `tune_makro` then fitted them to self-play results (see `PARAMS`). The board keeps the
//! counts behind material, advancement, centralisation and mobility as pieces come and go (`makro::features`,
//! weight-free); this module weighs them. All tunables are in `PARAMS`.

use crate::chess::Color;
use crate::makro::features::{piece_placement, relative_rank};
use crate::makro::geometry::{color_of, file_of, is_piece, kind_of, rank_of};
use crate::makro::pieces::{Kind, KIND_COUNT};
use crate::makro::position::Position;
use std::fmt::Debug;

/// A static evaluator for a Makromachy game: the score of a position from the side to move's view, in
/// centipawns. Implemented by [`MakroEval`].
pub trait Evaluator: Clone + Debug + Send + Sync + 'static {
    /// Static evaluation of `pos` from the side to move's view.
    fn evaluate(&self, pos: &Position) -> i32;
}

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
    /// most `makro::features::MOBILITY_REACH` squares per line (the board's definition of the feature).
    pub mobility: i32,
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
    tempo: 15,
};

/// Material value of a kind.
#[inline(always)]
pub fn value(kind: Kind) -> i32 {
    PARAMS.value[kind.index()]
}

/// `color`'s material, advancement and centralisation: the board's counts (see `makro::features`) times
/// `PARAMS`.
#[inline(always)]
fn piece_terms(pos: &Position, color: Color) -> [i32; 3] {
    let material = pos
        .kind_counts(color)
        .iter()
        .zip(PARAMS.value.iter())
        .map(|(&n, &v)| n as i32 * v)
        .sum();
    let p = pos.placement(color);
    [
        material,
        PARAMS.pawn_advance * p.pawn_advance + PARAMS.warrior_advance * p.warrior_advance,
        PARAMS.centralisation * p.centralisation,
    ]
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
        [b.material[i], b.advancement[i], b.centralisation[i]] = piece_terms(pos, color);
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
        let s = (k as i32 + crate::makro::geometry::offset(d.0, d.1)) as u16;
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
    use crate::makro::geometry::{EMPTY, LINES, OFF};
    use crate::makro::movegen::{mask_of, DIAG_SLIDERS, FLYERS, KIND_BIT, ORTH_SLIDERS, RANKED};
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
/// (`src/bin/tune_makro.rs`) fits the parameters to game results through it. The piece features are counted
/// here piece by piece, not read from the board's incremental sums, so that holding the dot product against
/// `evaluate` also checks those sums.
pub fn features(pos: &Position) -> [f64; N_FEATURES] {
    let mut f = [0.0; N_FEATURES];
    for color in Color::BOTH {
        let sign = if color == Color::White { 1.0 } else { -1.0 };
        pos.for_each_piece(color, |s| {
            let kind = kind_of(pos.at(s));
            f[kind.index()] += sign;
            let p = piece_placement(kind, file_of(s), relative_rank(color, rank_of(s)));
            f[KIND_COUNT] += sign * p.pawn_advance as f64;
            f[KIND_COUNT + 1] += sign * p.warrior_advance as f64;
            f[KIND_COUNT + 2] += sign * p.centralisation as f64;
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
    let [w, b] = Color::BOTH.map(|c| piece_terms(pos, c));
    let ks = king_safety(pos);
    let mob = mobility(pos);
    let score = w[0] + w[1] + w[2] - b[0] - b[1] - b[2] + ks[0] - ks[1] + mob[0] - mob[1];
    PARAMS.tempo
        + if pos.side_to_move() == Color::White {
            score
        } else {
            -score
        }
}

/// The Makromachy evaluator as the search's game carries it (stateless: everything it reads is on the board).
#[derive(Clone, Copy, Debug, Default)]
pub struct MakroEval;

impl Evaluator for MakroEval {
    #[inline(always)]
    fn evaluate(&self, pos: &Position) -> i32 {
        evaluate(pos)
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
