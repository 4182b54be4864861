//! Search tunables, all in one place so a tuner (SPSA) can read and write them. Scores are in centipawns,
//! depths in plies.

/// Half-width of the first aspiration window around the previous iteration's score.
pub const ASPIRATION_DELTA: i32 = 20;
/// Aspiration windows are used from this depth on.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Reverse futility pruning: deepest depth, and margin per ply of depth.
pub const RFP_MAX_DEPTH: i32 = 8;
/// Reverse futility margin per ply of depth.
pub const RFP_MARGIN: i32 = 75;
/// Razoring: deepest depth, and margin per ply.
pub const RAZOR_MAX_DEPTH: i32 = 3;
/// Razoring margin per ply.
pub const RAZOR_MARGIN: i32 = 250;

/// Null-move pruning: shallowest depth, base reduction, depth divisor, and eval-margin divisor.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move reduction at the smallest depth.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// One more ply of null-move reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 3;
/// One more ply of null-move reduction per this much eval above beta (at most three).
pub const NMP_EVAL_DIVISOR: i32 = 200;

/// ProbCut: shallowest depth, margin above beta, and depth reduction of the verification search.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// ProbCut margin above beta.
pub const PROBCUT_MARGIN: i32 = 200;
/// ProbCut verification search depth reduction.
pub const PROBCUT_REDUCTION: i32 = 4;

/// Internal iterative reduction: depth from which a node without a hash move is searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extensions: shallowest depth, margin below the hash score (per 8 plies of depth), and the margin
/// below which a non-PV node extends twice.
pub const SE_MIN_DEPTH: i32 = 7;
/// Singular margin below the hash score, per 8 plies of depth.
pub const SE_MARGIN_PER_DEPTH: i32 = 16;
/// A non-PV move this far below the singular beta is extended twice.
pub const SE_DOUBLE_MARGIN: i32 = 25;

/// Late move pruning: quiet moves after `LMP_BASE + depth^2` (halved when not improving) are skipped.
pub const LMP_BASE: i32 = 3;
/// Futility pruning of quiet moves: deepest (reduced) depth, base margin and margin per ply.
pub const FUTILITY_MAX_DEPTH: i32 = 8;
/// Futility margin at (reduced) depth 0.
pub const FUTILITY_BASE: i32 = 90;
/// Futility margin per ply of reduced depth.
pub const FUTILITY_PER_DEPTH: i32 = 90;
/// History pruning of quiet moves: deepest depth, and the (negative) history per ply below which they go.
pub const HISTORY_PRUNE_MAX_DEPTH: i32 = 4;
/// Quiet moves whose history is below minus this times depth are pruned.
pub const HISTORY_PRUNE_MARGIN: i32 = 3000;
/// SEE pruning thresholds per ply (quiet moves per depth squared, captures per depth).
pub const SEE_QUIET_MARGIN: i32 = -25;
/// SEE threshold per ply for captures.
pub const SEE_NOISY_MARGIN: i32 = -90;
/// Deepest depth at which SEE pruning applies.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;

/// Late move reductions: `base + ln(depth) * ln(moves) / divisor` plies.
pub const LMR_BASE: f64 = 0.75;
/// Late move reduction divisor.
pub const LMR_DIVISOR: f64 = 2.25;
/// History score worth one ply of reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Quiescence delta pruning margin.
pub const QS_DELTA_MARGIN: i32 = 200;

/// History tables: the largest magnitude an entry reaches, and the bonus per depth.
pub const HISTORY_MAX: i32 = 16384;
/// History bonus per ply of depth.
pub const HISTORY_BONUS_MUL: i32 = 300;
/// History bonus offset (subtracted).
pub const HISTORY_BONUS_SUB: i32 = 250;
/// Largest single history bonus.
pub const HISTORY_BONUS_MAX: i32 = 2400;

/// Time management: moves assumed left when the GUI does not say.
pub const TM_DEFAULT_MOVES_TO_GO: u64 = 40;
/// Percentage of the spendable clock one move may use at most.
pub const TM_MAX_SHARE_PERCENT: u64 = 60;
/// The hard limit is at most this many times the optimum.
pub const TM_MAX_OPTIMUM_RATIO: u64 = 5;
