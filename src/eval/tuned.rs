//! The orthodox evaluation's parameter values, written by the tuner (`src/bin/tune.rs`): regenerate,
//! do not hand-edit. Layout and meaning of each slot: `params.rs`. PSQT rows run a1..h1 first.
//! Tuned on data/tune.txt: 545526 training positions, 60614 held out; K = 1.017; Adam lr 1, L2 3e-9 towards the start, mirror-tied piece-square files, best of 1000 epochs at epoch 575.
//! Mean squared error (train / held-out): material only 0.097074 / 0.096289; hand-set start 0.090723 / 0.089600; tuned 0.086928 / 0.086849.

use super::params::{N_PARAMS, S};

/// The parameter values, indexed by the offsets in `params.rs`.
#[rustfmt::skip]
pub const PARAMS: [S; N_PARAMS] = [
    // MATERIAL
    S::new(83, 91), S::new(354, 309), S::new(375, 334), S::new(505, 525), S::new(1000, 1029),
    // PSQT pawn
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(-14, 2), S::new(-4, 1), S::new(3, 12), S::new(14, 12), S::new(14, 12), S::new(3, 12), S::new(-4, 1), S::new(-14, 2),
    S::new(-13, 5), S::new(-10, 2), S::new(2, 11), S::new(1, 18), S::new(1, 18), S::new(2, 11), S::new(-10, 2), S::new(-13, 5),
    S::new(0, -3), S::new(-2, 5), S::new(14, 10), S::new(31, -11), S::new(31, -11), S::new(14, 10), S::new(-2, 5), S::new(0, -3),
    S::new(-1, 12), S::new(13, -3), S::new(13, 11), S::new(35, -3), S::new(35, -3), S::new(13, 11), S::new(13, -3), S::new(-1, 12),
    S::new(12, 17), S::new(30, 19), S::new(-30, 29), S::new(30, 36), S::new(30, 36), S::new(-30, 29), S::new(30, 19), S::new(12, 17),
    S::new(1, 29), S::new(24, 42), S::new(-2, 31), S::new(57, 58), S::new(57, 58), S::new(-2, 31), S::new(24, 42), S::new(1, 29),
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    // PSQT knight
    S::new(4, -14), S::new(-4, -14), S::new(0, -37), S::new(-17, 3), S::new(-17, 3), S::new(0, -37), S::new(-4, -14), S::new(4, -14),
    S::new(-2, -12), S::new(-30, -19), S::new(-21, -1), S::new(-12, -4), S::new(-12, -4), S::new(-21, -1), S::new(-30, -19), S::new(-2, -12),
    S::new(-12, -31), S::new(-9, -6), S::new(-2, 7), S::new(1, 9), S::new(1, 9), S::new(-2, 7), S::new(-9, -6), S::new(-12, -31),
    S::new(-7, -12), S::new(-23, 5), S::new(5, 1), S::new(5, 18), S::new(5, 18), S::new(5, 1), S::new(-23, 5), S::new(-7, -12),
    S::new(-3, -3), S::new(-4, -1), S::new(15, -2), S::new(-7, 23), S::new(-7, 23), S::new(15, -2), S::new(-4, -1), S::new(-3, -3),
    S::new(-16, -26), S::new(42, -21), S::new(1, 17), S::new(-10, 8), S::new(-10, 8), S::new(1, 17), S::new(42, -21), S::new(-16, -26),
    S::new(-18, -7), S::new(-13, -9), S::new(6, -18), S::new(-7, -9), S::new(-7, -9), S::new(6, -18), S::new(-13, -9), S::new(-18, -7),
    S::new(-63, -25), S::new(-27, -18), S::new(-14, 1), S::new(-14, -13), S::new(-14, -13), S::new(-14, 1), S::new(-27, -18), S::new(-63, -25),
    // PSQT bishop
    S::new(19, -3), S::new(0, -2), S::new(-23, -11), S::new(-13, -8), S::new(-13, -8), S::new(-23, -11), S::new(0, -2), S::new(19, -3),
    S::new(0, 11), S::new(10, -18), S::new(11, -2), S::new(-10, -12), S::new(-10, -12), S::new(11, -2), S::new(10, -18), S::new(0, 11),
    S::new(-2, -8), S::new(12, -5), S::new(4, -13), S::new(-3, 2), S::new(-3, 2), S::new(4, -13), S::new(12, -5), S::new(-2, -8),
    S::new(-15, -12), S::new(-14, -3), S::new(-15, 10), S::new(8, -18), S::new(8, -18), S::new(-15, 10), S::new(-14, -3), S::new(-15, -12),
    S::new(8, -1), S::new(-14, -2), S::new(1, -7), S::new(8, 14), S::new(8, 14), S::new(1, -7), S::new(-14, -2), S::new(8, -1),
    S::new(6, -26), S::new(6, -4), S::new(9, -1), S::new(6, 4), S::new(6, 4), S::new(9, -1), S::new(6, -4), S::new(6, -26),
    S::new(-15, -9), S::new(-13, -3), S::new(-2, 1), S::new(-15, 1), S::new(-15, 1), S::new(-2, 1), S::new(-13, -3), S::new(-15, -9),
    S::new(-13, 4), S::new(-11, 8), S::new(-13, -8), S::new(-14, -7), S::new(-14, -7), S::new(-13, -8), S::new(-11, 8), S::new(-13, 4),
    // PSQT rook
    S::new(-29, -4), S::new(-19, 7), S::new(-15, 2), S::new(12, -15), S::new(12, -15), S::new(-15, 2), S::new(-19, 7), S::new(-29, -4),
    S::new(-20, -17), S::new(-25, -12), S::new(-16, -20), S::new(14, -32), S::new(14, -32), S::new(-16, -20), S::new(-25, -12), S::new(-20, -17),
    S::new(-18, -14), S::new(-4, -9), S::new(1, -9), S::new(11, -6), S::new(11, -6), S::new(1, -9), S::new(-4, -9), S::new(-18, -14),
    S::new(-18, -7), S::new(12, -7), S::new(-10, 10), S::new(3, 7), S::new(3, 7), S::new(-10, 10), S::new(12, -7), S::new(-18, -7),
    S::new(-6, 1), S::new(35, 5), S::new(-3, -6), S::new(21, 1), S::new(21, 1), S::new(-3, -6), S::new(35, 5), S::new(-6, 1),
    S::new(6, 10), S::new(26, 2), S::new(31, 13), S::new(33, 18), S::new(33, 18), S::new(31, 13), S::new(26, 2), S::new(6, 10),
    S::new(40, 1), S::new(-8, 20), S::new(42, 5), S::new(18, 13), S::new(18, 13), S::new(42, 5), S::new(-8, 20), S::new(40, 1),
    S::new(5, 15), S::new(34, -7), S::new(9, 10), S::new(14, 13), S::new(14, 13), S::new(9, 10), S::new(34, -7), S::new(5, 15),
    // PSQT queen
    S::new(-19, -15), S::new(-4, -31), S::new(-6, -21), S::new(-4, -14), S::new(-4, -14), S::new(-6, -21), S::new(-4, -31), S::new(-19, -15),
    S::new(-7, 3), S::new(-7, -23), S::new(8, -14), S::new(5, -32), S::new(5, -32), S::new(8, -14), S::new(-7, -23), S::new(-7, 3),
    S::new(-11, -13), S::new(-10, -7), S::new(-2, -2), S::new(8, -8), S::new(8, -8), S::new(-2, -2), S::new(-10, -7), S::new(-11, -13),
    S::new(-8, -18), S::new(3, 1), S::new(-4, 3), S::new(-5, 23), S::new(-5, 23), S::new(-4, 3), S::new(3, 1), S::new(-8, -18),
    S::new(0, 5), S::new(-10, 13), S::new(-8, 14), S::new(4, 23), S::new(4, 23), S::new(-8, 14), S::new(-10, 13), S::new(0, 5),
    S::new(-7, -12), S::new(15, 4), S::new(10, 16), S::new(20, 11), S::new(20, 11), S::new(10, 16), S::new(15, 4), S::new(-7, -12),
    S::new(-3, -16), S::new(-10, -5), S::new(17, 6), S::new(0, 3), S::new(0, 3), S::new(17, 6), S::new(-10, -5), S::new(-3, -16),
    S::new(-10, -4), S::new(10, -2), S::new(7, 3), S::new(2, -5), S::new(2, -5), S::new(7, 3), S::new(10, -2), S::new(-10, -4),
    // PSQT king
    S::new(25, -79), S::new(15, -40), S::new(-19, -30), S::new(-13, -47), S::new(-13, -47), S::new(-19, -30), S::new(15, -40), S::new(25, -79),
    S::new(13, -29), S::new(12, -28), S::new(-22, -11), S::new(-35, -9), S::new(-35, -9), S::new(-22, -11), S::new(12, -28), S::new(13, -29),
    S::new(-38, -1), S::new(-18, -10), S::new(-60, 10), S::new(-50, 7), S::new(-50, 7), S::new(-60, 10), S::new(-18, -10), S::new(-38, -1),
    S::new(-47, -11), S::new(-47, 6), S::new(-50, 11), S::new(-52, 22), S::new(-52, 22), S::new(-50, 11), S::new(-47, 6), S::new(-47, -11),
    S::new(-56, -24), S::new(-53, 8), S::new(-51, 42), S::new(-56, 47), S::new(-56, 47), S::new(-51, 42), S::new(-53, 8), S::new(-56, -24),
    S::new(-68, -55), S::new(-64, -8), S::new(-65, 29), S::new(-66, 36), S::new(-66, 36), S::new(-65, 29), S::new(-64, -8), S::new(-68, -55),
    S::new(-84, -65), S::new(-72, 0), S::new(-79, -13), S::new(-77, -5), S::new(-77, -5), S::new(-79, -13), S::new(-72, 0), S::new(-84, -65),
    S::new(-92, -28), S::new(-90, -34), S::new(-90, -13), S::new(-91, -39), S::new(-91, -39), S::new(-90, -13), S::new(-90, -34), S::new(-92, -28),
    // MOB_KNIGHT
    S::new(-40, -30), S::new(-30, -21), S::new(-14, 2), S::new(3, 1), S::new(13, 5), S::new(16, 22), S::new(24, 19), S::new(33, 12),
    S::new(31, 0),
    // MOB_BISHOP
    S::new(-39, -37), S::new(-17, -20), S::new(-3, -19), S::new(-3, -14), S::new(2, -1), S::new(8, 7), S::new(14, 4), S::new(9, 17),
    S::new(16, 19), S::new(15, 17), S::new(26, 11), S::new(-1, 21), S::new(26, 22), S::new(20, 16),
    // MOB_ROOK
    S::new(-50, -43), S::new(-32, -31), S::new(-13, -10), S::new(-15, -11), S::new(-9, 4), S::new(-4, 4), S::new(-1, 8), S::new(0, 11),
    S::new(-2, 24), S::new(3, 23), S::new(9, 21), S::new(10, 24), S::new(10, 24), S::new(20, 22), S::new(109, -86),
    // MOB_QUEEN
    S::new(-13, -26), S::new(-8, -24), S::new(-11, -20), S::new(-6, -22), S::new(-10, -20), S::new(-8, -31), S::new(-4, -23), S::new(-1, -20),
    S::new(-1, -6), S::new(8, -5), S::new(2, 14), S::new(9, 1), S::new(3, 2), S::new(-2, 20), S::new(2, 8), S::new(-2, 20),
    S::new(4, 19), S::new(5, 14), S::new(6, 13), S::new(10, 14), S::new(3, 7), S::new(15, 9), S::new(9, 12), S::new(7, 13),
    S::new(10, 16), S::new(10, 20), S::new(14, 27), S::new(12, 25),
    // PASSED
    S::new(0, 0), S::new(-4, 20), S::new(-35, 29), S::new(-9, 32), S::new(21, 54), S::new(47, 88), S::new(69, 149), S::new(0, 0),
    // PASSED_BLOCKED
    S::new(0, 0), S::new(1, -2), S::new(-18, -5), S::new(0, -13), S::new(-7, -25), S::new(-17, -31), S::new(-33, -52), S::new(0, 0),
    // PASSED_OWN_KING
    S::new(2, -7),
    // PASSED_ENEMY_KING
    S::new(0, 10),
    // ISOLATED
    S::new(-12, -4),
    // DOUBLED
    S::new(-13, -11),
    // SUPPORTED
    S::new(14, 21),
    // PHALANX
    S::new(6, 7),
    // BISHOP_PAIR
    S::new(30, 54),
    // ROOK_OPEN
    S::new(36, -8),
    // ROOK_SEMI_OPEN
    S::new(7, 25),
    // KING_SHIELD
    S::new(11, 0), S::new(7, -1), S::new(-5, 1),
    // KING_ATTACK
    S::new(0, 0), S::new(2, 2), S::new(12, -11), S::new(29, -28), S::new(42, -30), S::new(10, 16), S::new(49, -7), S::new(47, 42),
    S::new(63, 17), S::new(97, 16), S::new(140, 20), S::new(183, 23), S::new(208, 22), S::new(251, 26), S::new(295, 28), S::new(338, 30),
    // THREAT_BY_PAWN, THREAT_BY_MINOR
    S::new(51, 34), S::new(47, 21),
    // SAFE_CHECK
    S::new(17, 3), S::new(14, 25), S::new(75, -26), S::new(25, 9),
    // OUTPOST
    S::new(37, 21), S::new(26, 0),
    // TEMPO
    S::new(15, 3),
];
