//! Orthodox chess evaluation: a tapered sum of middlegame and endgame terms (material, piece-square tables,
//! mobility, pawn structure, king safety, bishop pair, rook files, outposts, threats, tempo), with all weights
//! in `params.rs` and an endgame scale factor for drawish material.
//!
//! Every term is linear in the parameters (a count times a (mg, eg) pair), so the evaluator is written once,
//! generic over a `Sink` that receives (side, parameter, count): the fast path adds the constant weights, the
//! trace sums them per term, and the tuner collects the counts (the feature vector) to fit the weights.
//! Non-linear effects, like king danger growing faster than the number of attackers, come from one-hot
//! tables (one parameter per attack-unit count) so that they stay linear in the parameters too.

use super::params::{self as p, N_PARAMS, PARAMS, S, TERMS};
use crate::chess::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, pawn_attacks_bb, queen_attacks,
    rook_attacks,
};
use crate::chess::types::{squares, FILE_A, FILE_H};
use crate::chess::{Bitboard, Color, PieceType, Position, Square};
use std::fmt::Write as _;

/// Game phase weight of each piece kind; all pieces on the board make `MAX_PHASE`.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the opening position (pure middlegame); 0 is a pure endgame.
pub const MAX_PHASE: i32 = 24;
/// Endgame scale factors are in 64ths.
pub const SCALE_ONE: i32 = 64;

/// King-zone attack units per attacking piece kind (knight, bishop, rook, queen). Fixed rather than tuned:
/// they only bucket the danger, and the tuned `KING_ATTACK` table maps each bucket to a value.
const KING_ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// How much a passed pawn's king-distance terms count, by relative rank: they matter once the pawn runs.
const PASSER_KING_WEIGHT: [i32; 8] = [0, 0, 0, 1, 2, 3, 4, 0];

const fn file_mask(file: usize) -> Bitboard {
    FILE_A << file
}

/// Files beside each file.
const ADJACENT_FILES: [Bitboard; 8] = {
    let mut t = [0; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= file_mask(f - 1);
        }
        if f < 7 {
            t[f] |= file_mask(f + 1);
        }
        f += 1;
    }
    t
};

/// The squares strictly ahead of a square (from `color`'s view), on its file and optionally the adjacent ones.
const fn front_spans(adjacent: bool) -> [[Bitboard; 64]; 2] {
    let mut t = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let mut files = file_mask(file);
        if adjacent {
            files |= ADJACENT_FILES[file];
        }
        let mut r = 0;
        while r < 8 {
            let row = 0xffu64 << (8 * r);
            if r > rank {
                t[0][sq] |= files & row;
            }
            if r < rank {
                t[1][sq] |= files & row;
            }
            r += 1;
        }
        sq += 1;
    }
    t
}

/// Squares an enemy pawn must not occupy for a pawn to be passed.
const PASSED_SPAN: [[Bitboard; 64]; 2] = front_spans(true);
/// Squares ahead on the pawn's own file.
const FILE_SPAN: [[Bitboard; 64]; 2] = front_spans(false);

/// Receives the evaluation's terms: `count` times parameter `param`, for `color`.
trait Sink {
    fn add(&mut self, color: Color, param: usize, count: i32);
}

/// The fast path: sums the constant weights per side.
struct Sum([S; 2]);

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, color: Color, param: usize, count: i32) {
        let w = PARAMS[param];
        let s = &mut self.0[color.index()];
        s.mg += w.mg * count;
        s.eg += w.eg * count;
    }
}

/// The trace: sums the weights per side and term.
struct PerTerm([[S; 2]; TERMS.len()]);

impl Sink for PerTerm {
    fn add(&mut self, color: Color, param: usize, count: i32) {
        let term = TERMS
            .iter()
            .position(|&(_, start, len)| (start..start + len).contains(&param))
            .unwrap_or(TERMS.len() - 1);
        let w = PARAMS[param];
        let s = &mut self.0[term][color.index()];
        s.mg += w.mg * count;
        s.eg += w.eg * count;
    }
}

/// The tuner's view: each parameter's count, White's minus Black's.
struct Counts([i32; N_PARAMS]);

impl Sink for Counts {
    fn add(&mut self, color: Color, param: usize, count: i32) {
        self.0[param] += if color == Color::White { count } else { -count };
    }
}

#[inline(always)]
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// All terms of one side.
#[inline(always)]
fn side_terms<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    material_and_squares(pos, us, sink);
    let attacked_by = piece_terms(pos, us, sink);
    safe_checks(pos, us, &attacked_by, sink);
    if pos.colored(us, PieceType::Bishop).count_ones() >= 2 {
        sink.add(us, p::BISHOP_PAIR, 1);
    }
    let them = us.flip();
    let their_pieces =
        pos.color_bb(them) & !pos.colored(them, PieceType::Pawn) & !pos.king_square(them).bb();
    let pawn_threats = pawn_attacks_bb(us, pos.colored(us, PieceType::Pawn)) & their_pieces;
    sink.add(us, p::THREAT_BY_PAWN, pawn_threats.count_ones() as i32);
    pawn_structure(pos, us, sink);
    king_shield(pos, us, sink);
}

/// Material and piece-square tables.
#[inline(always)]
fn material_and_squares<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let flip = if us == Color::White { 0 } else { 56 };
    for kind in PieceType::ALL {
        let bb = pos.colored(us, kind);
        if kind != PieceType::King {
            sink.add(us, p::MATERIAL + kind.index(), bb.count_ones() as i32);
        }
        for sq in squares(bb) {
            sink.add(us, p::PSQT + kind.index() * 64 + (sq.index() ^ flip), 1);
        }
    }
}

/// The pieces (knight to queen): mobility, outposts, threats on heavier pieces, rooks on open files, and the
/// attack units on the enemy king's zone. Returns each kind's attacked squares (knight, bishop, rook, queen)
/// for the safe checks.
#[inline(always)]
fn piece_terms<K: Sink>(pos: &Position, us: Color, sink: &mut K) -> [Bitboard; 4] {
    use PieceType::*;
    let occ = pos.occupied();
    let mut scan = PieceScan::new(pos, us);
    scan.kind(pos, Knight, p::MOB_KNIGHT, knight_attacks, sink);
    scan.kind(
        pos,
        Bishop,
        p::MOB_BISHOP,
        |sq| bishop_attacks(sq, occ),
        sink,
    );
    scan.kind(pos, Rook, p::MOB_ROOK, |sq| rook_attacks(sq, occ), sink);
    scan.kind(pos, Queen, p::MOB_QUEEN, |sq| queen_attacks(sq, occ), sink);
    if scan.units > 0 {
        let slot = (scan.units as usize).min(p::KING_ATTACK_LEN - 1);
        sink.add(us, p::KING_ATTACK + slot, 1);
    }
    scan.attacked_by
}

/// What the piece terms of one side read, and what they gather for the king-safety terms.
struct PieceScan {
    us: Color,
    /// Mobility counts squares not held by own pawns or king and not attacked by enemy pawns.
    safe: Bitboard,
    /// The enemy king's square and its neighbours.
    zone: Bitboard,
    their_heavy: Bitboard,
    our_pawns: Bitboard,
    their_pawns: Bitboard,
    /// Ranks 4 to 6 defended by an own pawn: an outpost there still needs no enemy pawn able to attack it.
    outpost_ranks: Bitboard,
    /// King-zone attack units so far.
    units: i32,
    /// The squares each kind (knight, bishop, rook, queen) attacks.
    attacked_by: [Bitboard; 4],
}

impl PieceScan {
    #[inline(always)]
    fn new(pos: &Position, us: Color) -> PieceScan {
        use PieceType::*;
        let them = us.flip();
        let (our_pawns, their_pawns) = (pos.colored(us, Pawn), pos.colored(them, Pawn));
        let their_king = pos.king_square(them);
        let ranks_4_to_6: Bitboard = if us == Color::White {
            0x0000_ffff_ff00_0000
        } else {
            0x0000_00ff_ffff_0000
        };
        PieceScan {
            us,
            safe: !(our_pawns | pos.king_square(us).bb()) & !pawn_attacks_bb(them, their_pawns),
            zone: king_attacks(their_king) | their_king.bb(),
            their_heavy: pos.colored(them, Rook) | pos.colored(them, Queen),
            our_pawns,
            their_pawns,
            outpost_ranks: ranks_4_to_6 & pawn_attacks_bb(us, our_pawns),
            units: 0,
            attacked_by: [0; 4],
        }
    }

    /// The terms of every piece of `kind`, which attacks `attacks(square)`; `mobility` is its first
    /// mobility parameter.
    #[inline(always)]
    fn kind<K: Sink>(
        &mut self,
        pos: &Position,
        kind: PieceType,
        mobility: usize,
        attacks: impl Fn(Square) -> Bitboard,
        sink: &mut K,
    ) {
        let us = self.us;
        let slot = kind.index() - 1;
        for sq in squares(pos.colored(us, kind)) {
            let att = attacks(sq);
            self.attacked_by[slot] |= att;
            sink.add(us, mobility + (att & self.safe).count_ones() as usize, 1);
            self.units += KING_ATTACK_UNITS[kind.index()] * (att & self.zone != 0) as i32;
            match kind {
                PieceType::Knight | PieceType::Bishop => {
                    if self.is_outpost(sq) {
                        sink.add(us, p::OUTPOST + slot, 1);
                    }
                    let threats = (att & self.their_heavy).count_ones() as i32;
                    sink.add(us, p::THREAT_BY_MINOR, threats);
                }
                PieceType::Rook => rook_file(us, sq, self.our_pawns, self.their_pawns, sink),
                _ => {}
            }
        }
    }

    /// An outpost: no enemy pawn left that could ever attack the square.
    #[inline(always)]
    fn is_outpost(&self, sq: Square) -> bool {
        self.outpost_ranks & sq.bb() != 0
            && PASSED_SPAN[self.us.index()][sq.index()]
                & ADJACENT_FILES[sq.file() as usize]
                & self.their_pawns
                == 0
    }
}

/// A rook on a file without own pawns: open, or semi-open when an enemy pawn is on it.
#[inline(always)]
fn rook_file<K: Sink>(
    us: Color,
    sq: Square,
    our_pawns: Bitboard,
    their_pawns: Bitboard,
    sink: &mut K,
) {
    let file = file_mask(sq.file() as usize);
    if file & our_pawns == 0 {
        let open = file & their_pawns == 0;
        let param = if open {
            p::ROOK_OPEN
        } else {
            p::ROOK_SEMI_OPEN
        };
        sink.add(us, param, 1);
    }
}

/// Safe checks: a cheap stand-in for the enemy king's exposure that the attack units do not see. `attacked_by`
/// holds the squares each piece kind (knight, bishop, rook, queen) attacks.
#[inline(always)]
fn safe_checks<K: Sink>(pos: &Position, us: Color, attacked_by: &[Bitboard; 4], sink: &mut K) {
    let them = us.flip();
    let occ = pos.occupied();
    let their_king = pos.king_square(them);
    let check_safe = !pos.color_bb(us)
        & !pawn_attacks_bb(them, pos.colored(them, PieceType::Pawn))
        & !king_attacks(their_king);
    let bishop_checks = bishop_attacks(their_king, occ);
    let rook_checks = rook_attacks(their_king, occ);
    let check_squares = [
        knight_attacks(their_king),
        bishop_checks,
        rook_checks,
        bishop_checks | rook_checks,
    ];
    for (kind, (&from, &att)) in check_squares.iter().zip(attacked_by).enumerate() {
        let n = (from & att & check_safe).count_ones() as i32;
        if n != 0 {
            sink.add(us, p::SAFE_CHECK + kind, n);
        }
    }
}

/// Pawn structure: doubled, passed (blocked, and its distance to both kings), isolated, supported, phalanx.
#[inline(always)]
fn pawn_structure<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let them = us.flip();
    let our_pawns = pos.colored(us, PieceType::Pawn);
    let their_pawns = pos.colored(them, PieceType::Pawn);
    for sq in squares(our_pawns) {
        let s = sq.index();
        let rank = sq.relative_rank(us) as usize;
        let own_ahead = FILE_SPAN[us.index()][s] & our_pawns != 0;
        if own_ahead {
            sink.add(us, p::DOUBLED, 1);
        } else if PASSED_SPAN[us.index()][s] & their_pawns == 0 {
            passed_pawn(pos, us, sq, rank, sink);
        }
        if ADJACENT_FILES[sq.file() as usize] & our_pawns == 0 {
            sink.add(us, p::ISOLATED, 1);
        }
        if pawn_attacks(them, sq) & our_pawns != 0 {
            sink.add(us, p::SUPPORTED, 1);
        }
        let beside = ((sq.bb() << 1) & !FILE_A) | ((sq.bb() >> 1) & !FILE_H);
        if beside & our_pawns != 0 {
            sink.add(us, p::PHALANX, 1);
        }
    }
}

/// A passed pawn on relative rank `rank`: its bonus, whether it is blocked, and the kings' distances to the
/// square in front of it.
#[inline(always)]
fn passed_pawn<K: Sink>(pos: &Position, us: Color, sq: Square, rank: usize, sink: &mut K) {
    sink.add(us, p::PASSED + rank, 1);
    let stop = Square(if us == Color::White {
        sq.0 + 8
    } else {
        sq.0 - 8
    });
    if pos.occupied() & stop.bb() != 0 {
        sink.add(us, p::PASSED_BLOCKED + rank, 1);
    }
    let w = PASSER_KING_WEIGHT[rank];
    if w != 0 {
        let (our_king, their_king) = (pos.king_square(us), pos.king_square(us.flip()));
        sink.add(us, p::PASSED_OWN_KING, w * distance(our_king, stop));
        sink.add(us, p::PASSED_ENEMY_KING, w * distance(their_king, stop));
    }
}

/// King shield: the nearest own pawn ahead of the king on its file and the two beside it.
#[inline(always)]
fn king_shield<K: Sink>(pos: &Position, us: Color, sink: &mut K) {
    let our_pawns = pos.colored(us, PieceType::Pawn);
    let our_king = pos.king_square(us);
    let centre = our_king.file().clamp(1, 6) as usize;
    let ahead = FILE_SPAN[us.index()][our_king.index()] | PASSED_SPAN[us.index()][our_king.index()];
    for file in centre - 1..=centre + 1 {
        let shield = our_pawns & ahead & file_mask(file);
        let nearest = if shield == 0 {
            None
        } else if us == Color::White {
            Some(Square(shield.trailing_zeros() as u8))
        } else {
            Some(Square(63 - shield.leading_zeros() as u8))
        };
        let slot = match nearest.map(|s| (s.rank() as i32 - our_king.rank() as i32).abs()) {
            Some(1) => 0,
            Some(2) => 1,
            _ => 2,
        };
        sink.add(us, p::KING_SHIELD + slot, 1);
    }
}

/// All terms, both sides; the side to move also gets the tempo bonus.
#[inline(always)]
fn all_terms<K: Sink>(pos: &Position, sink: &mut K) {
    side_terms(pos, Color::White, sink);
    side_terms(pos, Color::Black, sink);
    sink.add(pos.side_to_move(), p::TEMPO, 1);
}

/// The game phase: `MAX_PHASE` with all pieces on, 0 with only kings and pawns.
#[inline(always)]
pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for kind in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        phase += pos.pieces(kind).count_ones() as i32 * PHASE_WEIGHT[kind.index()];
    }
    phase.min(MAX_PHASE)
}

/// Endgame scale factors (in 64ths) applied when the endgame score favours White, respectively Black: material
/// patterns in which the side ahead rarely wins.
#[inline(always)]
pub fn endgame_scales(pos: &Position) -> [i32; 2] {
    use PieceType::*;
    let count = |c: Color, k: PieceType| pos.colored(c, k).count_ones() as i32;
    let npm = |c: Color| {
        3 * (count(c, Knight) + count(c, Bishop)) + 5 * count(c, Rook) + 9 * count(c, Queen)
    };
    let mut scales = [SCALE_ONE; 2];
    // Opposite-coloured bishops, nothing else but pawns: very drawish.
    let bishops = pos.pieces(Bishop);
    let only_bishops = pos.occupied() & !pos.pieces(Pawn) & !pos.pieces(King) == bishops;
    if only_bishops
        && count(Color::White, Bishop) == 1
        && count(Color::Black, Bishop) == 1
        && (bishops & crate::chess::types::DARK_SQUARES).count_ones() == 1
    {
        scales = [SCALE_ONE / 2; 2];
    }
    for c in Color::BOTH {
        // No pawns and at most a minor piece ahead: hard or impossible to win.
        if count(c, Pawn) == 0 && npm(c) - npm(c.flip()) <= 3 {
            scales[c.index()] = if npm(c) < 5 { 0 } else { SCALE_ONE / 4 };
        }
    }
    scales
}

/// Blends a (mg, eg) White-view sum into centipawns.
#[inline(always)]
fn taper(total: S, phase: i32, scales: [i32; 2]) -> i32 {
    let scale = if total.eg > 0 { scales[0] } else { scales[1] };
    (total.mg * phase * SCALE_ONE + total.eg * (MAX_PHASE - phase) * scale)
        / (MAX_PHASE * SCALE_ONE)
}

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut sum = Sum([S::default(); 2]);
    all_terms(pos, &mut sum);
    let [w, b] = sum.0;
    let total = S::new(w.mg - b.mg, w.eg - b.eg);
    let white = taper(total, phase(pos), endgame_scales(pos));
    if pos.side_to_move() == Color::White {
        white
    } else {
        -white
    }
}

/// What the tuner needs to evaluate a position under any parameter values (the evaluation is linear in them
/// before tapering): the non-zero parameter counts, White's minus Black's, and the blend inputs.
pub struct Features {
    /// (parameter index, White count minus Black count), for the non-zero counts.
    pub counts: Vec<(u16, i16)>,
    /// As `phase()`.
    pub phase: i32,
    /// As `endgame_scales()`.
    pub scales: [i32; 2],
}

/// The feature vector of a position (White's view): `evaluate` is, up to rounding,
/// `taper(sum(count * PARAMS[i]))` over these counts, negated when Black is to move.
pub fn features(pos: &Position) -> Features {
    let mut counts = Counts([0; N_PARAMS]);
    all_terms(pos, &mut counts);
    Features {
        counts: counts
            .0
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
            .collect(),
        phase: phase(pos),
        scales: endgame_scales(pos),
    }
}

/// A human-readable breakdown of `evaluate` per term (White, Black, difference; mg, eg and tapered), as the
/// UCI `eval` command prints it.
pub fn trace(pos: &Position) -> String {
    let mut terms = PerTerm([[S::default(); 2]; TERMS.len()]);
    all_terms(pos, &mut terms);
    let phase = phase(pos);
    let scales = endgame_scales(pos);
    let blend = |s: S| taper(s, phase, [SCALE_ONE; 2]);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<15}|{:>7}{:>7}{:>7} |{:>7}{:>7}{:>7} |{:>7}{:>7}{:>7}",
        "term", "W mg", "W eg", "W", "B mg", "B eg", "B", "mg", "eg", "total"
    );
    let _ = writeln!(out, "{}", "-".repeat(15 + 3 * 23));
    let mut total = S::default();
    for (i, &(name, _, _)) in TERMS.iter().enumerate() {
        let [w, b] = terms.0[i];
        let d = S::new(w.mg - b.mg, w.eg - b.eg);
        total = S::new(total.mg + d.mg, total.eg + d.eg);
        let _ = writeln!(
            out,
            "{:<15}|{:>7}{:>7}{:>7} |{:>7}{:>7}{:>7} |{:>7}{:>7}{:>7}",
            name,
            w.mg,
            w.eg,
            blend(w),
            b.mg,
            b.eg,
            blend(b),
            d.mg,
            d.eg,
            blend(d)
        );
    }
    let _ = writeln!(out, "{}", "-".repeat(15 + 3 * 23));
    let _ = writeln!(
        out,
        "{:<15}|{:>46}{:>7}{:>7}{:>7}",
        "sum",
        "",
        total.mg,
        total.eg,
        blend(total)
    );
    let white = taper(total, phase, scales);
    let scale = if total.eg > 0 { scales[0] } else { scales[1] };
    let _ = writeln!(
        out,
        "phase {phase}/{MAX_PHASE}, endgame scale {scale}/{SCALE_ONE}, tempo included for {}",
        if pos.side_to_move() == Color::White {
            "White"
        } else {
            "Black"
        }
    );
    let _ = writeln!(out, "evaluation (White's view): {white} cp");
    let stm = if pos.side_to_move() == Color::White {
        white
    } else {
        -white
    };
    let _ = writeln!(out, "evaluation (side to move): {stm} cp");
    out
}
