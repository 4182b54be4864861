//! Search tunables, all in one place so a tuner (SPSA) can read and write them. Scores are in centipawns,
//! depths in plies.
//!
//! Each tunable is declared once in the [`tunables!`](crate::tunables) list below with its default and the
//! range a tuner may move it in, and read as a function (`rfp_margin()`): a constant in a normal build, a UCI
//! option with the cargo feature `tune` (see [`crate::tunables`]). A game's own values for search parameters
//! it overrides are its tunables (`variants/makro/params.rs`), the evaluation's are in `eval/params.rs`;
//! `engine::tunables` lists them all.

use crate::tunables::tunables;
pub use crate::tunables::{Tunable, TuneValue};

tunables! {
    /// Half-width of the first aspiration window around the previous iteration's score.
    aspiration_delta: i32 = 20, 10, 40;
    /// Each failed aspiration search widens the window by this percent.
    aspiration_growth_percent: i32 = 51, 25, 100;
    /// A window wider than this becomes the full window.
    aspiration_max_delta: i32 = 997, 400, 2000;
    /// Aspiration windows are used from this depth on.
    aspiration_min_depth: i32 = 4, 2, 8;
    /// Reverse futility pruning: deepest depth, and margin per ply of depth.
    rfp_max_depth: i32 = 8, 4, 16;
    /// Reverse futility margin per ply of depth.
    rfp_margin: i32 = 74, 37, 150;
    /// Razoring: deepest depth, and margin per ply.
    razor_max_depth: i32 = 3, 1, 6;
    /// Razoring margin per ply.
    razor_margin: i32 = 252, 125, 500;
    /// Null-move pruning: shallowest depth, base reduction, depth divisor, and eval-margin divisor.
    nmp_min_depth: i32 = 3, 1, 6;
    /// The most plies of null-move reduction the eval margin adds.
    nmp_eval_max_reduction: i32 = 3, 1, 6;
    /// Null-move reduction at the smallest depth.
    nmp_base_reduction: i32 = 3, 1, 6;
    /// One more ply of null-move reduction per this many plies of depth.
    nmp_depth_divisor: i32 = 3, 1, 6;
    /// One more ply of null-move reduction per this much eval above beta (at most three).
    nmp_eval_divisor: i32 = 205, 100, 400;
    /// ProbCut: shallowest depth, margin above beta, and depth reduction of the verification search.
    probcut_min_depth: i32 = 5, 2, 10;
    /// ProbCut margin above beta.
    probcut_margin: i32 = 195, 100, 400;
    /// ProbCut is skipped when the table holds a score below its beta from at most this many plies shallower.
    probcut_tt_depth_slack: i32 = 3, 1, 6;
    /// ProbCut verification search depth reduction.
    probcut_reduction: i32 = 4, 2, 8;
    /// Internal iterative reduction: depth from which a node without a hash move is searched one ply shallower.
    iir_min_depth: i32 = 4, 2, 8;
    /// Singular extensions: shallowest depth, margin below the hash score (per 8 plies of depth), and the margin
    /// below which a non-PV node extends twice.
    se_min_depth: i32 = 6, 3, 14;
    /// Singular margin below the hash score, per 8 plies of depth.
    se_margin_per_depth: i32 = 16, 8, 32;
    /// The hash entry may be this many plies shallower than the node for the singular test.
    se_tt_depth_slack: i32 = 3, 1, 6;
    /// A non-PV move this far below the singular beta is extended twice.
    se_double_margin: i32 = 25, 12, 50;
    /// Late move pruning: quiet moves after `lmp_base() + depth^2` (halved when not improving) are skipped.
    lmp_base: i32 = 3, 1, 6;
    /// Futility pruning of quiet moves: deepest (reduced) depth, base margin and margin per ply.
    futility_max_depth: i32 = 9, 4, 16;
    /// Futility margin at (reduced) depth 0.
    futility_base: i32 = 92, 45, 180;
    /// Futility margin per ply of reduced depth.
    futility_per_depth: i32 = 92, 45, 180;
    /// History pruning of quiet moves: deepest depth, and the (negative) history per ply below which they go.
    history_prune_max_depth: i32 = 4, 2, 8;
    /// Quiet moves whose history is below minus this times depth are pruned.
    history_prune_margin: i32 = 2968, 1500, 6000;
    /// SEE pruning thresholds per ply (quiet moves per depth squared, captures per depth).
    see_quiet_margin: i32 = -25, -50, -12;
    /// SEE threshold per ply for captures.
    see_noisy_margin: i32 = -90, -180, -45;
    /// Deepest depth at which SEE pruning applies.
    see_prune_max_depth: i32 = 8, 4, 16;
    /// Late move reductions: `base + ln(depth) * ln(moves) / divisor` plies.
    lmr_base: f64 = 0.79, 0.375, 1.5;
    /// Late move reductions start at this depth.
    lmr_min_depth: i32 = 3, 2, 6;
    /// At the root, quiet moves from this number on (counted from 0 after the PV move's slot) are reduced.
    root_lmr_min_moves: i32 = 3, 1, 8;
    /// One more ply of reduction when more than this many of the node's children have failed high.
    lmr_cutoff_count: i32 = 3, 1, 8;
    /// After a reduced search beats alpha, the re-search goes a ply deeper when the score beats the best so
    /// far by this margin plus two per ply of depth.
    lmr_deeper_margin: i32 = 41, 20, 80;
    /// A node that fails low gives the opponent's quiet move into it this percent of a history bonus.
    fail_low_prior_bonus_percent: i32 = 102, 0, 200;
    /// Late move reduction divisor.
    lmr_divisor: f64 = 2.24, 1.125, 4.5;
    /// History score worth one ply of reduction.
    lmr_history_divisor: i32 = 8356, 4096, 16384;
    /// Quiescence delta pruning margin.
    qs_delta_margin: i32 = 202, 100, 400;
    /// Quiescence futility: margin over the static evaluation a non-checking capture must reach alpha with.
    qs_futility_margin: i32 = 119, 60, 240;
    /// Quiescence move-count pruning: non-checking captures away from the last move's square after this many.
    qs_move_limit: i32 = 3, 1, 8;
    /// A singular test that fails only because of another move's strength shortens the hash move by this
    /// many plies on an expected cut node.
    se_cut_node_reduction: i32 = 2, 0, 3;
    /// Hindsight reduction: the least reduction of the move into a node for it to apply...
    hindsight_min_reduction: i32 = 2, 1, 4;
    /// ... and the least sum of both sides' evaluations.
    hindsight_margin: i32 = 171, 80, 350;
    /// History tables: the largest magnitude an entry reaches, and the bonus per depth.
    history_max: i32 = 15796, 8192, 32768;
    /// History bonus per ply of depth.
    history_bonus_mul: i32 = 309, 150, 600;
    /// History bonus offset (subtracted).
    history_bonus_sub: i32 = 249, 125, 500;
    /// Largest single history bonus.
    history_bonus_max: i32 = 2478, 1200, 4800;
    /// Correction history: the share (percent) of the pawn-structure table's correction applied.
    corr_pawn_weight: i32 = 31, 0, 200;
    /// The share (percent) of each side's piece-placement table's correction applied.
    corr_non_pawn_weight: i32 = 27, 0, 200;
    /// Time management: moves assumed left when the GUI does not say.
    tm_default_moves_to_go: u64 = 40, 20, 80;
    /// Percentage of the spendable clock one move may use at most.
    tm_max_share_percent: u64 = 60, 30, 120;
    /// The hard limit is at most this many times the optimum.
    tm_max_optimum_ratio: u64 = 5, 2, 10;
    /// Spendable time kept back: twice the move overhead plus this many increments.
    tm_reserve_inc_mult: u64 = 5, 0, 10;
    /// With one move to go, this percent of the spendable time may go on it.
    tm_last_move_percent: u64 = 90, 50, 95;
    /// Percent of the increment added to each move's optimum while the clock is well above it.
    tm_inc_percent: u64 = 75, 25, 100;
    /// The effort factor is used from this depth on (shallower node counts say little).
    tm_node_min_depth: i32 = 6, 3, 10;
    /// With one legal move the optimum is this percent of its usual value.
    tm_single_move_percent: i32 = 10, 5, 50;
    /// The falling-score factor is at most this percent.
    tm_falling_max_percent: i32 = 150, 110, 250;
    /// Effort scaling of the optimum: `(base/100 - share of root nodes under the best move) * scale/100`.
    tm_node_base: i32 = 150, 100, 200;
    /// Scale of the effort factor (percent).
    tm_node_scale: i32 = 135, 60, 250;
    /// Best-move stability: the factor (percent) after a change of best move...
    tm_stable_base: i32 = 130, 100, 180;
    /// ... less this much per iteration with the same best move (at most ten).
    tm_stable_step: i32 = 6, 2, 10;
    /// Best-move changes: weight (percent) of the decaying count of changes.
    tm_change_weight: i32 = 150, 50, 300;
    /// Falling score: one more optimum per this many centipawns lost since the last iteration.
    tm_falling_per_cp: i32 = 100, 40, 300;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_print_for_spsa() {
        let all = all();
        let names: std::collections::HashSet<&str> = all.iter().map(|t| t.name).collect();
        assert_eq!(names.len(), all.len(), "one name, one tunable");
        for t in &all {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            let line = t.spsa_line();
            assert_eq!(line.split(", ").count(), 7, "{line}");
            assert!(line.starts_with(&format!("{}, int, ", t.name)));
        }
        // Each accessor returns its declared default (a float in hundredths), whatever values a tune writes there.
        let default = |name: &str| all.iter().find(|t| t.name == name).expect(name).default;
        let rfp = rfp_margin();
        assert_eq!(i64::from(rfp), default("rfp_margin"));
        assert_eq!((lmr_base() * 100.0).round() as i64, default("lmr_base"));
        assert!(!set("no_such_tunable", 1));
        assert!(!set("rfp_margin", 100_000), "out of range");
        let other = if rfp == 80 { 81 } else { 80 };
        // A normal build has constants: nothing can be set, and the value stays.
        #[cfg(not(feature = "tune"))]
        {
            assert!(!set("rfp_margin", other.into()));
            assert_eq!(rfp_margin(), rfp);
        }
        #[cfg(feature = "tune")]
        {
            assert!(set("RFP_MARGIN", other.into()));
            assert_eq!(rfp_margin(), other);
            assert!(set("rfp_margin", rfp.into()));
        }
    }
}
