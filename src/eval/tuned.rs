//! The orthodox evaluation's parameter values, written by the tuner (`src/bin/tune.rs`): regenerate,
//! do not hand-edit. Layout and meaning of each slot: `params.rs`. PSQT rows run a1..h1 first.
//! Tuned on data/tune.txt: 380459 training positions, 42273 held out; K = 1.031; Adam lr 1, L2 1e-8 towards the start, mirror-tied piece-square files, best of 1000 epochs at epoch 100.
//! Mean squared error (train / held-out): material only 0.096628 / 0.099572; hand-set start 0.090042 / 0.091059; tuned 0.086328 / 0.089496.

use super::params::{N_PARAMS, S};

/// The parameter values, indexed by the offsets in `params.rs`.
#[rustfmt::skip]
pub const PARAMS: [S; N_PARAMS] = [
    // MATERIAL
    S::new(83, 89), S::new(345, 318), S::new(355, 345), S::new(466, 541), S::new(972, 1021),
    // PSQT pawn
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(-9, -9), S::new(-1, -1), S::new(8, 10), S::new(11, 11), S::new(11, 11), S::new(8, 10), S::new(-1, -1), S::new(-9, -9),
    S::new(-9, 5), S::new(-8, 9), S::new(1, 13), S::new(-2, 7), S::new(-2, 7), S::new(1, 13), S::new(-8, 9), S::new(-9, 5),
    S::new(6, -1), S::new(-5, 7), S::new(18, 7), S::new(27, -4), S::new(27, -4), S::new(18, 7), S::new(-5, 7), S::new(6, -1),
    S::new(-1, 15), S::new(15, -4), S::new(13, 16), S::new(26, 2), S::new(26, 2), S::new(13, 16), S::new(15, -4), S::new(-1, 15),
    S::new(2, 25), S::new(18, 21), S::new(-16, 32), S::new(38, 26), S::new(38, 26), S::new(-16, 32), S::new(18, 21), S::new(2, 25),
    S::new(-1, 34), S::new(16, 37), S::new(11, 29), S::new(47, 43), S::new(47, 43), S::new(11, 29), S::new(16, 37), S::new(-1, 34),
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    // PSQT knight
    S::new(-10, -16), S::new(-9, -15), S::new(-14, -22), S::new(-15, -1), S::new(-15, -1), S::new(-14, -22), S::new(-9, -15), S::new(-10, -16),
    S::new(-3, -11), S::new(-14, -16), S::new(-20, -10), S::new(-14, -7), S::new(-14, -7), S::new(-20, -10), S::new(-14, -16), S::new(-3, -11),
    S::new(-22, -24), S::new(-5, -7), S::new(1, 6), S::new(-7, 4), S::new(-7, 4), S::new(1, 6), S::new(-5, -7), S::new(-22, -24),
    S::new(-7, -14), S::new(-16, -4), S::new(3, 8), S::new(5, 12), S::new(5, 12), S::new(3, 8), S::new(-16, -4), S::new(-7, -14),
    S::new(2, -6), S::new(-4, 0), S::new(9, 2), S::new(1, 17), S::new(1, 17), S::new(9, 2), S::new(-4, 0), S::new(2, -6),
    S::new(-14, -21), S::new(22, -11), S::new(4, 8), S::new(-8, 6), S::new(-8, 6), S::new(4, 8), S::new(22, -11), S::new(-14, -21),
    S::new(-15, -6), S::new(-13, -8), S::new(-5, -13), S::new(-5, -5), S::new(-5, -5), S::new(-5, -13), S::new(-13, -8), S::new(-15, -6),
    S::new(-36, -20), S::new(-21, -13), S::new(-16, -5), S::new(-14, -7), S::new(-14, -7), S::new(-16, -5), S::new(-21, -13), S::new(-36, -20),
    // PSQT bishop
    S::new(1, -13), S::new(-3, 3), S::new(-19, -13), S::new(-11, -1), S::new(-11, -1), S::new(-19, -13), S::new(-3, 3), S::new(1, -13),
    S::new(-3, 2), S::new(8, -8), S::new(10, 1), S::new(-11, -10), S::new(-11, -10), S::new(10, 1), S::new(8, -8), S::new(-3, 2),
    S::new(-4, -11), S::new(10, 3), S::new(3, -5), S::new(-1, -1), S::new(-1, -1), S::new(3, -5), S::new(10, 3), S::new(-4, -11),
    S::new(-21, -12), S::new(-8, -1), S::new(-11, 7), S::new(7, -13), S::new(7, -13), S::new(-11, 7), S::new(-8, -1), S::new(-21, -12),
    S::new(0, -1), S::new(-14, -3), S::new(-2, -6), S::new(5, 22), S::new(5, 22), S::new(-2, -6), S::new(-14, -3), S::new(0, -1),
    S::new(-5, -19), S::new(-2, -6), S::new(5, -2), S::new(11, 0), S::new(11, 0), S::new(5, -2), S::new(-2, -6), S::new(-5, -19),
    S::new(-12, -6), S::new(-10, -12), S::new(2, -1), S::new(-10, -1), S::new(-10, -1), S::new(2, -1), S::new(-10, -12), S::new(-12, -6),
    S::new(-5, 4), S::new(-6, 0), S::new(-10, -10), S::new(-10, -6), S::new(-10, -6), S::new(-10, -10), S::new(-6, 0), S::new(-5, 4),
    // PSQT rook
    S::new(-23, -9), S::new(-17, 8), S::new(-13, 1), S::new(10, -14), S::new(10, -14), S::new(-13, 1), S::new(-17, 8), S::new(-23, -9),
    S::new(-19, -10), S::new(-19, -9), S::new(-12, -13), S::new(17, -26), S::new(17, -26), S::new(-12, -13), S::new(-19, -9), S::new(-19, -10),
    S::new(-20, -8), S::new(1, -7), S::new(6, -2), S::new(8, -2), S::new(8, -2), S::new(6, -2), S::new(1, -7), S::new(-20, -8),
    S::new(-5, -7), S::new(3, -3), S::new(-3, 2), S::new(6, 4), S::new(6, 4), S::new(-3, 2), S::new(3, -3), S::new(-5, -7),
    S::new(-6, 0), S::new(16, 10), S::new(0, -10), S::new(14, -2), S::new(14, -2), S::new(0, -10), S::new(16, 10), S::new(-6, 0),
    S::new(4, 12), S::new(12, 5), S::new(23, 15), S::new(25, 16), S::new(25, 16), S::new(23, 15), S::new(12, 5), S::new(4, 12),
    S::new(31, 3), S::new(17, 11), S::new(30, 2), S::new(24, 5), S::new(24, 5), S::new(30, 2), S::new(17, 11), S::new(31, 3),
    S::new(6, 9), S::new(7, 1), S::new(9, 11), S::new(5, 3), S::new(5, 3), S::new(9, 11), S::new(7, 1), S::new(6, 9),
    // PSQT queen
    S::new(-15, -14), S::new(-7, -16), S::new(-2, -13), S::new(-1, -3), S::new(-1, -3), S::new(-2, -13), S::new(-7, -16), S::new(-15, -14),
    S::new(-4, -6), S::new(7, -14), S::new(9, -10), S::new(7, -22), S::new(7, -22), S::new(9, -10), S::new(7, -14), S::new(-4, -6),
    S::new(-4, -11), S::new(-7, -11), S::new(-6, 3), S::new(10, -2), S::new(10, -2), S::new(-6, 3), S::new(-7, -11), S::new(-4, -11),
    S::new(-18, -9), S::new(5, -2), S::new(-6, 5), S::new(3, 15), S::new(3, 15), S::new(-6, 5), S::new(5, -2), S::new(-18, -9),
    S::new(-7, -3), S::new(-7, 2), S::new(-10, 4), S::new(3, 12), S::new(3, 12), S::new(-10, 4), S::new(-7, 2), S::new(-7, -3),
    S::new(-10, -8), S::new(6, -1), S::new(7, 7), S::new(14, 6), S::new(14, 6), S::new(7, 7), S::new(6, -1), S::new(-10, -8),
    S::new(-12, -12), S::new(-10, -7), S::new(8, 3), S::new(-4, -3), S::new(-4, -3), S::new(8, 3), S::new(-10, -7), S::new(-12, -12),
    S::new(-4, -4), S::new(4, -3), S::new(3, -2), S::new(-1, -5), S::new(-1, -5), S::new(3, -2), S::new(4, -3), S::new(-4, -4),
    // PSQT king
    S::new(26, -57), S::new(11, -34), S::new(-11, -34), S::new(-11, -43), S::new(-11, -43), S::new(-11, -34), S::new(11, -34), S::new(26, -57),
    S::new(1, -22), S::new(13, -23), S::new(-16, -9), S::new(-25, -15), S::new(-25, -15), S::new(-16, -9), S::new(13, -23), S::new(1, -22),
    S::new(-38, -10), S::new(-23, -7), S::new(-50, 3), S::new(-42, 2), S::new(-42, 2), S::new(-50, 3), S::new(-23, -7), S::new(-38, -10),
    S::new(-48, -14), S::new(-48, 0), S::new(-51, 2), S::new(-48, 13), S::new(-48, 13), S::new(-51, 2), S::new(-48, 0), S::new(-48, -14),
    S::new(-60, -21), S::new(-57, 1), S::new(-54, 25), S::new(-56, 27), S::new(-56, 27), S::new(-54, 25), S::new(-57, 1), S::new(-60, -21),
    S::new(-69, -25), S::new(-68, -7), S::new(-68, 10), S::new(-68, 13), S::new(-68, 13), S::new(-68, 10), S::new(-68, -7), S::new(-69, -25),
    S::new(-81, -30), S::new(-77, -2), S::new(-79, -7), S::new(-79, -10), S::new(-79, -10), S::new(-79, -7), S::new(-77, -2), S::new(-81, -30),
    S::new(-90, -21), S::new(-90, -23), S::new(-90, -20), S::new(-90, -23), S::new(-90, -23), S::new(-90, -20), S::new(-90, -23), S::new(-90, -21),
    // MOB_KNIGHT
    S::new(-27, -22), S::new(-21, -23), S::new(-12, -3), S::new(2, -2), S::new(11, 2), S::new(14, 20), S::new(19, 20), S::new(23, 17),
    S::new(18, 9),
    // MOB_BISHOP
    S::new(-44, -33), S::new(-21, -23), S::new(-3, -20), S::new(-9, -13), S::new(-1, -6), S::new(6, 6), S::new(14, 6), S::new(7, 13),
    S::new(18, 17), S::new(8, 20), S::new(20, 12), S::new(10, 24), S::new(25, 24), S::new(26, 24),
    // MOB_ROOK
    S::new(-27, -33), S::new(-25, -36), S::new(-12, -14), S::new(-11, -21), S::new(-11, 4), S::new(-3, 0), S::new(1, 5), S::new(3, 11),
    S::new(4, 18), S::new(4, 21), S::new(12, 14), S::new(9, 20), S::new(12, 24), S::new(14, 26), S::new(30, -27),
    // MOB_QUEEN
    S::new(-13, -26), S::new(-11, -24), S::new(-16, -22), S::new(-12, -22), S::new(-14, -20), S::new(-16, -21), S::new(-5, -18), S::new(-4, -18),
    S::new(-2, -11), S::new(5, -8), S::new(4, 1), S::new(7, -2), S::new(0, 4), S::new(1, 11), S::new(4, 7), S::new(1, 12),
    S::new(1, 14), S::new(1, 10), S::new(10, 13), S::new(10, 13), S::new(5, 10), S::new(12, 15), S::new(10, 17), S::new(9, 18),
    S::new(10, 20), S::new(12, 23), S::new(13, 27), S::new(14, 27),
    // PASSED
    S::new(0, 0), S::new(-8, 15), S::new(-19, 14), S::new(-1, 25), S::new(26, 50), S::new(41, 80), S::new(63, 133), S::new(0, 0),
    // PASSED_BLOCKED
    S::new(0, 0), S::new(-1, 1), S::new(-11, -11), S::new(2, -9), S::new(-5, -20), S::new(-3, -26), S::new(-15, -41), S::new(0, 0),
    // PASSED_OWN_KING
    S::new(2, -6),
    // PASSED_ENEMY_KING
    S::new(0, 10),
    // ISOLATED
    S::new(-11, -4),
    // DOUBLED
    S::new(-18, -13),
    // SUPPORTED
    S::new(14, 23),
    // PHALANX
    S::new(5, 9),
    // BISHOP_PAIR
    S::new(37, 57),
    // ROOK_OPEN
    S::new(39, -11),
    // ROOK_SEMI_OPEN
    S::new(9, 20),
    // KING_SHIELD
    S::new(13, -1), S::new(7, -4), S::new(-8, 4),
    // KING_ATTACK
    S::new(0, 0), S::new(2, 2), S::new(12, -6), S::new(23, -17), S::new(28, -17), S::new(11, 19), S::new(49, -1), S::new(55, 25),
    S::new(79, 11), S::new(112, 18), S::new(144, 20), S::new(183, 23), S::new(214, 24), S::new(252, 26), S::new(294, 28), S::new(338, 30),
    // THREAT_BY_PAWN, THREAT_BY_MINOR
    S::new(50, 33), S::new(44, 26),
    // SAFE_CHECK
    S::new(16, 2), S::new(14, 22), S::new(47, -10), S::new(24, 9),
    // OUTPOST
    S::new(35, 22), S::new(22, 3),
    // TEMPO
    S::new(14, 3),
];
