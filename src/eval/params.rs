//! The layout of the orthodox evaluation's tunable parameters: one flat array of (middlegame, endgame) pairs,
//! addressed by the named offsets below. The values themselves are in `tuned.rs`, written by the tuner
//! (`src/bin/tune.rs`); a flat array keeps the tuner generic (it only sees indices) while the evaluator reads
//! named, compile-time-constant slots.
//!
//! The evaluation's SPSA tunables (see [`crate::tunables`]) are declared here too: they shape the score
//! whichever evaluator (network or hand-crafted) gives it.

use crate::tunables::tunables;

tunables! {
    /// Evaluation scaling by material (chess): the score times `(base + material) / (base + 48)`, material
    /// counted 3/3/5/9 for minor pieces, rooks and queens of both sides (62 at the start).
    eval_material_base: i32 = 108, 40, 300;
}

/// A (middlegame, endgame) pair in centipawns.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct S {
    /// Middlegame value (all pieces on the board).
    pub mg: i32,
    /// Endgame value (kings and pawns only).
    pub eg: i32,
}

impl S {
    /// A pair from its two phases.
    pub const fn new(mg: i32, eg: i32) -> S {
        S { mg, eg }
    }
}

/// The parameter values (`N_PARAMS` of them), as the tuner last wrote them.
pub use super::tuned::PARAMS;

/// Piece values, indexed by `PieceType::index()` (pawn..queen; the king has none).
pub const MATERIAL: usize = 0;
/// Piece-square tables: `PSQT + kind * 64 + square`, squares from White's view (a1 = 0, h8 = 63).
pub const PSQT: usize = MATERIAL + 5;
/// Knight mobility by number of safe squares (0..=8).
pub const MOB_KNIGHT: usize = PSQT + 6 * 64;
/// Bishop mobility (0..=13).
pub const MOB_BISHOP: usize = MOB_KNIGHT + 9;
/// Rook mobility (0..=14).
pub const MOB_ROOK: usize = MOB_BISHOP + 14;
/// Queen mobility (0..=27).
pub const MOB_QUEEN: usize = MOB_ROOK + 15;
/// Passed pawn by relative rank (0..8; ranks 0 and 7 never occur).
pub const PASSED: usize = MOB_QUEEN + 28;
/// Extra for a passed pawn whose stop square is occupied, by relative rank.
pub const PASSED_BLOCKED: usize = PASSED + 8;
/// Per square of own king distance to the passer's stop square, weighted by how advanced the passer is.
pub const PASSED_OWN_KING: usize = PASSED_BLOCKED + 8;
/// Per square of enemy king distance to the stop square, weighted the same way.
pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 1;
/// A pawn with no own pawn on the neighbouring files.
pub const ISOLATED: usize = PASSED_ENEMY_KING + 1;
/// A pawn with an own pawn in front of it on the same file.
pub const DOUBLED: usize = ISOLATED + 1;
/// A pawn defended by an own pawn.
pub const SUPPORTED: usize = DOUBLED + 1;
/// A pawn with an own pawn beside it on the same rank.
pub const PHALANX: usize = SUPPORTED + 1;
/// Two or more bishops.
pub const BISHOP_PAIR: usize = PHALANX + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// A rook on a file without own pawns but with enemy pawns.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// Pawn shield per file around the king: own pawn one rank ahead, two ranks ahead, none (or further).
pub const KING_SHIELD: usize = ROOK_SEMI_OPEN + 1;
/// King danger by attack units on the king zone (see `KING_ATTACK_UNITS` in the evaluator), capped.
pub const KING_ATTACK: usize = KING_SHIELD + 3;
/// Number of `KING_ATTACK` slots (attack units are capped at this minus one).
pub const KING_ATTACK_LEN: usize = 16;
/// A pawn attacking an enemy piece (not a pawn).
pub const THREAT_BY_PAWN: usize = KING_ATTACK + KING_ATTACK_LEN;
/// A knight or bishop attacking an enemy rook or queen.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// Squares from which a knight, bishop, rook or queen could give check, attacked by such a piece of ours and
/// not guarded by an enemy pawn or the king (and not our own pieces' squares): per kind, per square.
pub const SAFE_CHECK: usize = THREAT_BY_MINOR + 1;
/// A knight, respectively bishop, on the 4th to 6th rank, defended by a pawn and out of reach of enemy pawns.
pub const OUTPOST: usize = SAFE_CHECK + 4;
/// Side to move.
pub const TEMPO: usize = OUTPOST + 2;
/// Total number of parameters.
pub const N_PARAMS: usize = TEMPO + 1;

/// The evaluation terms, each a contiguous slice of the parameters: (name, first index, length).
/// The trace reports per term; the tuner names the slices in the file it writes.
pub const TERMS: [(&str, usize, usize); 15] = [
    ("material", MATERIAL, 5),
    ("piece-square", PSQT, 6 * 64),
    ("mobility", MOB_KNIGHT, 9 + 14 + 15 + 28),
    ("passed pawns", PASSED, 8 + 8 + 1 + 1),
    ("isolated pawns", ISOLATED, 1),
    ("doubled pawns", DOUBLED, 1),
    ("pawn chains", SUPPORTED, 2),
    ("bishop pair", BISHOP_PAIR, 1),
    ("rook files", ROOK_OPEN, 2),
    ("king shield", KING_SHIELD, 3),
    ("king attack", KING_ATTACK, KING_ATTACK_LEN),
    ("threats", THREAT_BY_PAWN, 2),
    ("safe checks", SAFE_CHECK, 4),
    ("outposts", OUTPOST, 2),
    ("tempo", TEMPO, 1),
];

/// Named sub-slices of the parameters, finer than `TERMS`, for the generated file's comments.
pub const SLICES: [(&str, usize, usize); 28] = [
    ("MATERIAL", MATERIAL, 5),
    ("PSQT pawn", PSQT, 64),
    ("PSQT knight", PSQT + 64, 64),
    ("PSQT bishop", PSQT + 128, 64),
    ("PSQT rook", PSQT + 192, 64),
    ("PSQT queen", PSQT + 256, 64),
    ("PSQT king", PSQT + 320, 64),
    ("MOB_KNIGHT", MOB_KNIGHT, 9),
    ("MOB_BISHOP", MOB_BISHOP, 14),
    ("MOB_ROOK", MOB_ROOK, 15),
    ("MOB_QUEEN", MOB_QUEEN, 28),
    ("PASSED", PASSED, 8),
    ("PASSED_BLOCKED", PASSED_BLOCKED, 8),
    ("PASSED_OWN_KING", PASSED_OWN_KING, 1),
    ("PASSED_ENEMY_KING", PASSED_ENEMY_KING, 1),
    ("ISOLATED", ISOLATED, 1),
    ("DOUBLED", DOUBLED, 1),
    ("SUPPORTED", SUPPORTED, 1),
    ("PHALANX", PHALANX, 1),
    ("BISHOP_PAIR", BISHOP_PAIR, 1),
    ("ROOK_OPEN", ROOK_OPEN, 1),
    ("ROOK_SEMI_OPEN", ROOK_SEMI_OPEN, 1),
    ("KING_SHIELD", KING_SHIELD, 3),
    ("KING_ATTACK", KING_ATTACK, KING_ATTACK_LEN),
    ("THREAT_BY_PAWN, THREAT_BY_MINOR", THREAT_BY_PAWN, 2),
    ("SAFE_CHECK", SAFE_CHECK, 4),
    ("OUTPOST", OUTPOST, 2),
    ("TEMPO", TEMPO, 1),
];
