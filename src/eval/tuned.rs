//! The orthodox evaluation's parameter values, written by the tuner (`src/bin/tune.rs`): regenerate,
//! do not hand-edit. Layout and meaning of each slot: `params.rs`. PSQT rows run a1..h1 first.
//! Values: the hand-set starting point (tune --write-hand), not yet tuned.

use super::params::{N_PARAMS, S};

/// The parameter values, indexed by the offsets in `params.rs`.
#[rustfmt::skip]
pub const PARAMS: [S; N_PARAMS] = [
    // MATERIAL
    S::new(90, 110), S::new(320, 300), S::new(330, 320), S::new(470, 540), S::new(950, 1000),
    // PSQT pawn
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(0, 6), S::new(2, 6), S::new(4, 6), S::new(8, 6), S::new(8, 6), S::new(4, 6), S::new(2, 6), S::new(0, 6),
    S::new(0, 12), S::new(4, 12), S::new(8, 12), S::new(16, 12), S::new(16, 12), S::new(8, 12), S::new(4, 12), S::new(0, 12),
    S::new(0, 18), S::new(6, 18), S::new(12, 18), S::new(24, 18), S::new(24, 18), S::new(12, 18), S::new(6, 18), S::new(0, 18),
    S::new(0, 24), S::new(8, 24), S::new(16, 24), S::new(32, 24), S::new(32, 24), S::new(16, 24), S::new(8, 24), S::new(0, 24),
    S::new(0, 30), S::new(10, 30), S::new(20, 30), S::new(40, 30), S::new(40, 30), S::new(20, 30), S::new(10, 30), S::new(0, 30),
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    // PSQT knight
    S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12),
    S::new(-16, -12), S::new(-8, -6), S::new(-8, -6), S::new(-8, -6), S::new(-8, -6), S::new(-8, -6), S::new(-8, -6), S::new(-16, -12),
    S::new(-16, -12), S::new(-8, -6), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(-8, -6), S::new(-16, -12),
    S::new(-16, -12), S::new(-8, -6), S::new(0, 0), S::new(8, 6), S::new(8, 6), S::new(0, 0), S::new(-8, -6), S::new(-16, -12),
    S::new(-16, -12), S::new(-8, -6), S::new(0, 0), S::new(8, 6), S::new(8, 6), S::new(0, 0), S::new(-8, -6), S::new(-16, -12),
    S::new(-16, -12), S::new(-8, -6), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(-8, -6), S::new(-16, -12),
    S::new(-16, -12), S::new(-8, -6), S::new(-8, -6), S::new(-8, -6), S::new(-8, -6), S::new(-8, -6), S::new(-8, -6), S::new(-16, -12),
    S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12), S::new(-16, -12),
    // PSQT bishop
    S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8),
    S::new(-8, -8), S::new(-4, -4), S::new(-4, -4), S::new(-4, -4), S::new(-4, -4), S::new(-4, -4), S::new(-4, -4), S::new(-8, -8),
    S::new(-8, -8), S::new(-4, -4), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(-4, -4), S::new(-8, -8),
    S::new(-8, -8), S::new(-4, -4), S::new(0, 0), S::new(4, 4), S::new(4, 4), S::new(0, 0), S::new(-4, -4), S::new(-8, -8),
    S::new(-8, -8), S::new(-4, -4), S::new(0, 0), S::new(4, 4), S::new(4, 4), S::new(0, 0), S::new(-4, -4), S::new(-8, -8),
    S::new(-8, -8), S::new(-4, -4), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(-4, -4), S::new(-8, -8),
    S::new(-8, -8), S::new(-4, -4), S::new(-4, -4), S::new(-4, -4), S::new(-4, -4), S::new(-4, -4), S::new(-4, -4), S::new(-8, -8),
    S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8), S::new(-8, -8),
    // PSQT rook
    S::new(0, 0), S::new(0, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(0, 0), S::new(0, 0),
    S::new(0, 0), S::new(0, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(0, 0), S::new(0, 0),
    S::new(0, 0), S::new(0, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(0, 0), S::new(0, 0),
    S::new(0, 0), S::new(0, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(0, 0), S::new(0, 0),
    S::new(0, 0), S::new(0, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(0, 0), S::new(0, 0),
    S::new(0, 0), S::new(0, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(0, 0), S::new(0, 0),
    S::new(15, 0), S::new(15, 0), S::new(20, 0), S::new(20, 0), S::new(20, 0), S::new(20, 0), S::new(15, 0), S::new(15, 0),
    S::new(0, 0), S::new(0, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(5, 0), S::new(0, 0), S::new(0, 0),
    // PSQT queen
    S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8),
    S::new(-4, -8), S::new(-2, -4), S::new(-2, -4), S::new(-2, -4), S::new(-2, -4), S::new(-2, -4), S::new(-2, -4), S::new(-4, -8),
    S::new(-4, -8), S::new(-2, -4), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(-2, -4), S::new(-4, -8),
    S::new(-4, -8), S::new(-2, -4), S::new(0, 0), S::new(2, 4), S::new(2, 4), S::new(0, 0), S::new(-2, -4), S::new(-4, -8),
    S::new(-4, -8), S::new(-2, -4), S::new(0, 0), S::new(2, 4), S::new(2, 4), S::new(0, 0), S::new(-2, -4), S::new(-4, -8),
    S::new(-4, -8), S::new(-2, -4), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(-2, -4), S::new(-4, -8),
    S::new(-4, -8), S::new(-2, -4), S::new(-2, -4), S::new(-2, -4), S::new(-2, -4), S::new(-2, -4), S::new(-2, -4), S::new(-4, -8),
    S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8), S::new(-4, -8),
    // PSQT king
    S::new(20, -20), S::new(30, -20), S::new(10, -20), S::new(0, -20), S::new(0, -20), S::new(10, -20), S::new(30, -20), S::new(20, -20),
    S::new(-10, -20), S::new(-10, -10), S::new(-10, -10), S::new(-10, -10), S::new(-10, -10), S::new(-10, -10), S::new(-10, -10), S::new(-10, -20),
    S::new(-40, -20), S::new(-40, -10), S::new(-40, 0), S::new(-40, 0), S::new(-40, 0), S::new(-40, 0), S::new(-40, -10), S::new(-40, -20),
    S::new(-50, -20), S::new(-50, -10), S::new(-50, 0), S::new(-50, 10), S::new(-50, 10), S::new(-50, 0), S::new(-50, -10), S::new(-50, -20),
    S::new(-60, -20), S::new(-60, -10), S::new(-60, 0), S::new(-60, 10), S::new(-60, 10), S::new(-60, 0), S::new(-60, -10), S::new(-60, -20),
    S::new(-70, -20), S::new(-70, -10), S::new(-70, 0), S::new(-70, 0), S::new(-70, 0), S::new(-70, 0), S::new(-70, -10), S::new(-70, -20),
    S::new(-80, -20), S::new(-80, -10), S::new(-80, -10), S::new(-80, -10), S::new(-80, -10), S::new(-80, -10), S::new(-80, -10), S::new(-80, -20),
    S::new(-90, -20), S::new(-90, -20), S::new(-90, -20), S::new(-90, -20), S::new(-90, -20), S::new(-90, -20), S::new(-90, -20), S::new(-90, -20),
    // MOB_KNIGHT
    S::new(-16, -16), S::new(-12, -12), S::new(-8, -8), S::new(-4, -4), S::new(0, 0), S::new(4, 4), S::new(8, 8), S::new(12, 12),
    S::new(16, 16),
    // MOB_BISHOP
    S::new(-24, -24), S::new(-20, -20), S::new(-16, -16), S::new(-12, -12), S::new(-8, -8), S::new(-4, -4), S::new(0, 0), S::new(4, 4),
    S::new(8, 8), S::new(12, 12), S::new(16, 16), S::new(20, 20), S::new(24, 24), S::new(28, 28),
    // MOB_ROOK
    S::new(-14, -28), S::new(-12, -24), S::new(-10, -20), S::new(-8, -16), S::new(-6, -12), S::new(-4, -8), S::new(-2, -4), S::new(0, 0),
    S::new(2, 4), S::new(4, 8), S::new(6, 12), S::new(8, 16), S::new(10, 20), S::new(12, 24), S::new(14, 28),
    // MOB_QUEEN
    S::new(-13, -26), S::new(-12, -24), S::new(-11, -22), S::new(-10, -20), S::new(-9, -18), S::new(-8, -16), S::new(-7, -14), S::new(-6, -12),
    S::new(-5, -10), S::new(-4, -8), S::new(-3, -6), S::new(-2, -4), S::new(-1, -2), S::new(0, 0), S::new(1, 2), S::new(2, 4),
    S::new(3, 6), S::new(4, 8), S::new(5, 10), S::new(6, 12), S::new(7, 14), S::new(8, 16), S::new(9, 18), S::new(10, 20),
    S::new(11, 22), S::new(12, 24), S::new(13, 26), S::new(14, 28),
    // PASSED
    S::new(0, 0), S::new(5, 10), S::new(5, 15), S::new(10, 25), S::new(20, 45), S::new(35, 75), S::new(60, 110), S::new(0, 0),
    // PASSED_BLOCKED
    S::new(0, 0), S::new(0, 0), S::new(0, -2), S::new(0, -5), S::new(0, -10), S::new(0, -15), S::new(0, -20), S::new(0, 0),
    // PASSED_OWN_KING
    S::new(0, -3),
    // PASSED_ENEMY_KING
    S::new(0, 5),
    // ISOLATED
    S::new(-10, -10),
    // DOUBLED
    S::new(-10, -20),
    // SUPPORTED
    S::new(8, 6),
    // PHALANX
    S::new(5, 3),
    // BISHOP_PAIR
    S::new(30, 50),
    // ROOK_OPEN
    S::new(30, 10),
    // ROOK_SEMI_OPEN
    S::new(15, 5),
    // KING_SHIELD
    S::new(15, 0), S::new(8, 0), S::new(-10, 0),
    // KING_ATTACK
    S::new(0, 0), S::new(2, 2), S::new(6, 4), S::new(14, 6), S::new(24, 8), S::new(38, 10), S::new(54, 12), S::new(74, 14),
    S::new(96, 16), S::new(122, 18), S::new(150, 20), S::new(182, 22), S::new(216, 24), S::new(254, 26), S::new(294, 28), S::new(338, 30),
    // THREAT_BY_PAWN, THREAT_BY_MINOR
    S::new(40, 30), S::new(25, 20),
    // SAFE_CHECK
    S::new(8, 2), S::new(4, 2), S::new(8, 2), S::new(6, 2),
    // OUTPOST
    S::new(20, 10), S::new(10, 5),
    // TEMPO
    S::new(15, 5),
];
