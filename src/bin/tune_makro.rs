//! Texel tuner for the Makromachy evaluation: fits the numbers of `eval::makro::PARAMS` to game results.
//!
//! Reads the PGN files `corvid match --variant makromachy --pgn` writes, replays every game, and keeps the
//! positions after the opening that are not in check, each labelled with the game's result (1, 0.5, 0 from
//! White's view). The evaluation is linear in its parameters (`eval::makro::features`), so it fits the
//! logistic scale K once for the current values, then minimises the mean squared error between
//! `sigmoid(K * eval)` and the results by full-batch Adam, holding out every tenth game for validation. It
//! prints the fitted values (rounded) for `PARAMS`, with training and validation errors before and after.
//!
//! A penalty `l2 * sum(((θ - θ0) / max(|θ0|, 20))^2)` holds the values near their start: a few hundred games
//! cannot pin 31 numbers on their own (without it the fit gave the Zebra a negative value).
//!
//! Usage: `cargo run --release --bin tune_makro -- GAMES.pgn... [--epochs 3000] [--lr 2.0] [--skip 16]
//! [--l2 1e-4]` (`--help` lists them)

use clap::Parser;
use corvid::eval::makro::{features, param_vector, N_FEATURES};
use corvid::makro::{Kind, Position};
use std::process::ExitCode;

struct Sample {
    f: [f64; N_FEATURES],
    result: f64,
}

/// PGN comments open and close with braces, and may span tokens.
const COMMENT_OPEN: char = '{';
const COMMENT_CLOSE: char = '}';

/// The moves of a PGN movetext: its tokens less the comments, move numbers and the result.
fn movetext_moves(movetext: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0usize;
    movetext.split_whitespace().filter(move |token| {
        if depth > 0 || token.starts_with(COMMENT_OPEN) {
            depth += token.matches(COMMENT_OPEN).count();
            depth -= token.matches(COMMENT_CLOSE).count().min(depth);
            return false;
        }
        !(token.ends_with('.') || matches!(*token, "1-0" | "0-1" | "1/2-1/2" | "*"))
    })
}

/// Positions of one game's movetext, labelled with its result.
fn replay(movetext: &str, result: f64, skip: usize, out: &mut Vec<Sample>) -> Result<(), String> {
    let mut pos = Position::startpos();
    for (i, token) in movetext_moves(movetext).enumerate() {
        let m = pos
            .parse_move(token)
            .map_err(|e| format!("move {token}: {e:?}"))?;
        pos.make_move(m);
        let ply = i + 1;
        if ply >= skip && !pos.in_check() {
            out.push(Sample {
                f: features(&pos),
                result,
            });
        }
    }
    Ok(())
}

fn load(paths: &[String], skip: usize) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    let mut games = 0;
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for game in text.split("[Event ").skip(1) {
            let result = if game.contains("[Result \"1-0\"]") {
                1.0
            } else if game.contains("[Result \"0-1\"]") {
                0.0
            } else if game.contains("[Result \"1/2-1/2\"]") {
                0.5
            } else {
                continue;
            };
            // Forfeits say nothing about the position.
            if game.contains("forfeit") {
                continue;
            }
            let Some(body) = game.split_once("\n\n").map(|(_, b)| b) else {
                continue;
            };
            let target = if games % 10 == 9 {
                &mut valid
            } else {
                &mut train
            };
            replay(body, result, skip, target)?;
            games += 1;
        }
    }
    eprintln!(
        "{games} games: {} training and {} validation positions",
        train.len(),
        valid.len()
    );
    Ok((train, valid))
}

fn eval(s: &Sample, theta: &[f64; N_FEATURES]) -> f64 {
    s.f.iter().zip(theta).map(|(a, b)| a * b).sum()
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0).exp())
}

fn mse(data: &[Sample], theta: &[f64; N_FEATURES], k: f64) -> f64 {
    data.iter()
        .map(|s| (s.result - sigmoid(k, eval(s, theta))).powi(2))
        .sum::<f64>()
        / data.len().max(1) as f64
}

fn fit_k(data: &[Sample], theta: &[f64; N_FEATURES]) -> f64 {
    let (mut best, mut best_err) = (1.0, f64::MAX);
    let mut k = 0.05;
    while k <= 4.0 {
        let e = mse(data, theta, k);
        if e < best_err {
            (best, best_err) = (k, e);
        }
        k += 0.05;
    }
    best
}

/// The tuner's command line.
#[derive(Parser, Debug)]
#[command(
    name = "tune_makro",
    about = "Texel tuner for the Makromachy evaluation: fits eval::makro::PARAMS to `corvid match --pgn` games"
)]
struct Args {
    /// PGN files written by `corvid match --variant makromachy --pgn`.
    #[arg(required = true, value_name = "GAMES.pgn")]
    files: Vec<String>,
    /// Adam epochs (full batch).
    #[arg(long, default_value_t = 3000)]
    epochs: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 2.0)]
    lr: f64,
    /// Plies of each game left out (the opening) before positions are kept.
    #[arg(long, value_name = "PLIES", default_value_t = 16)]
    skip: usize,
    /// Weight of the pull towards the starting values.
    #[arg(long, default_value_t = 1e-4)]
    l2: f64,
}

/// Full-batch Adam from `start` on `train`, with the pull towards `start`; returns the values with the best
/// validation error (checked every hundred epochs) and that error.
fn fit(
    train: &[Sample],
    valid: &[Sample],
    k: f64,
    start: &[f64; N_FEATURES],
    args: &Args,
) -> ([f64; N_FEATURES], f64) {
    let Args { epochs, lr, l2, .. } = *args;
    let mut theta = *start;
    // The King's count never differs, so its value stays 0.
    let frozen = |i: usize| i == Kind::King.index();
    let (mut m, mut v) = ([0.0; N_FEATURES], [0.0; N_FEATURES]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let (mut best, mut best_valid) = (theta, mse(valid, &theta, k));
    for epoch in 1..=epochs {
        let grad = gradient(train, &theta, k);
        for i in 0..N_FEATURES {
            if frozen(i) {
                continue;
            }
            let scale = start[i].abs().max(20.0);
            let g =
                grad[i] / train.len() as f64 + 2.0 * l2 * (theta[i] - start[i]) / (scale * scale);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            theta[i] -= lr * mh / (vh.sqrt() + eps);
        }
        if epoch % 100 == 0 {
            let ve = mse(valid, &theta, k);
            if ve < best_valid {
                (best, best_valid) = (theta, ve);
            }
            eprintln!(
                "epoch {epoch}: train {:.6} valid {ve:.6}",
                mse(train, &theta, k)
            );
        }
    }
    (best, best_valid)
}

/// The gradient of the summed squared error over `data` (not yet divided by its size).
fn gradient(data: &[Sample], theta: &[f64; N_FEATURES], k: f64) -> [f64; N_FEATURES] {
    let mut grad = [0.0; N_FEATURES];
    for s in data {
        let p = sigmoid(k, eval(s, theta));
        // d/dθ (r - p)^2 = -2 (r - p) p (1 - p) k/400 f
        let g = -2.0 * (s.result - p) * p * (1.0 - p) * k / 400.0;
        for (gi, fi) in grad.iter_mut().zip(&s.f) {
            *gi += g * fi;
        }
    }
    grad
}

/// Prints each value before and after the fit: the piece values, then the other terms.
fn print_values(start: &[f64; N_FEATURES], best: &[f64; N_FEATURES]) {
    for kind in Kind::ALL {
        let idx = kind.index();
        println!(
            "{:<12} {:>6.0} -> {:>6.0}",
            kind.name(),
            start[idx],
            best[idx]
        );
    }
    let names = [
        "pawn_advance",
        "warrior_advance",
        "centralisation",
        "king_shelter",
        "king_line_threat",
        "mobility",
        "tempo",
    ];
    for (j, name) in names.iter().enumerate() {
        let i = corvid::makro::pieces::KIND_COUNT + j;
        println!("{name:<16} {:>6.1} -> {:>6.1}", start[i], best[i]);
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let (train, valid) = match load(&args.files, args.skip) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let start = param_vector();
    let k = fit_k(&train, &start);
    let (train0, valid0) = (mse(&train, &start, k), mse(&valid, &start, k));
    let (best, best_valid) = fit(&train, &valid, k, &start, &args);
    println!("K = {k:.2}");
    println!(
        "train MSE {train0:.6} -> {:.6}; validation MSE {valid0:.6} -> {best_valid:.6}",
        mse(&train, &best, k)
    );
    print_values(&start, &best);
    ExitCode::SUCCESS
}
