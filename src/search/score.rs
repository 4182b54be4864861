//! Scores: the internal score scale (mates, tablebase wins, infinity), the reported [`Score`] and [`Bound`],
//! and the conversions between them.

use crate::game::Wdl;

/// Deepest ply the search reaches (also the longest principal variation).
pub const MAX_PLY: usize = 128;
/// Score of a side that mates right now; mate in `n` plies from the root scores `MATE_SCORE - n`.
pub const MATE_SCORE: i32 = 32000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE_SCORE - MAX_PLY as i32;
/// Larger than any score.
pub const INFINITY: i32 = 32500;
/// Score of a tablebase win right now: just below the mate range; a win found `n` plies from the root scores
/// `TB_WIN - n`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or beyond this magnitude (and below the mate range) are tablebase wins.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// A score as reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in `n` moves; negative when the side to move is being mated, 0 when it is mated already.
    Mate(i32),
}

/// Whether a reported score is exact or a bound (aspiration window failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// At least this (`lowerbound`).
    Lower,
    /// At most this (`upperbound`).
    Upper,
}

/// Converts an internal score to the reported form.
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE_SCORE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE_SCORE + v) / 2)
    } else {
        Score::Cp(v)
    }
}

/// Win/draw/loss per mille estimated from a score (a logistic model of the evaluation scale).
pub fn wdl(v: i32) -> (u32, u32, u32) {
    if v >= MATE_BOUND {
        return (1000, 0, 0);
    }
    if v <= -MATE_BOUND {
        return (0, 0, 1000);
    }
    let (a, b) = (190.0, 75.0);
    let x = v as f64;
    let win = 1000.0 / (1.0 + ((a - x) / b).exp());
    let loss = 1000.0 / (1.0 + ((a + x) / b).exp());
    let (w, l) = (win.round() as u32, loss.round() as u32);
    (w, 1000u32.saturating_sub(w + l), l)
}

/// The score the search gives a tablebase verdict `ply` plies from the root: wins and losses just inside the
/// tablebase range, nearer ones better; with the 50-move rule a cursed win or blessed loss is a draw, nudged
/// (as Stockfish does) towards the side that would win over the board.
pub fn tb_score(wdl: Wdl, ply: usize, rule50: bool) -> i32 {
    let w = wdl as i32;
    let draw = rule50 as i32;
    if w > draw {
        TB_WIN - ply as i32
    } else if w < -draw {
        -TB_WIN + ply as i32
    } else {
        2 * w * draw
    }
}
