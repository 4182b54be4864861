//! Texel tuner for the orthodox evaluation: fits the parameters in `src/eval/params.rs` to game results.
//!
//! Reads `FEN;result` lines (result 1.0 / 0.5 / 0.0 from White's view; `scripts/gen_tune_data.py` makes them),
//! holds out the tail of the file for validation, fits the logistic scale K once for the starting values,
//! then minimises the mean squared error between `sigmoid(K * eval)` and the results with full-batch Adam.
//! The evaluation is linear in its parameters (see `eval::chess::features`), so each position's feature
//! vector is extracted once and every epoch is a pass of sparse dot products. Writes `src/eval/tuned.rs`
//! with the parameters of the epoch with the lowest validation error.
//!
//! Usage: `cargo run --release --bin tune -- DATA [--out src/eval/tuned.rs] [--epochs 1000] [--lr 1.0]
//! [--holdout 0.1] [--l2 3e-9] [--free-files] [--start hand|current]`; `tune --write-hand [--out FILE]` writes
//! the hand-set start values; `tune --help` lists the options.

use clap::Parser;
use corvid::chess::Position;
use corvid::eval::chess::{features, MAX_PHASE, SCALE_ONE};
use corvid::eval::params::{self as p, N_PARAMS, PARAMS, SLICES};
use std::fmt::Write as _;
use std::process::ExitCode;

/// One training position: its slice of the shared feature arrays, blend inputs and result.
struct Entry {
    start: u32,
    len: u16,
    phase: u8,
    scales: [u8; 2],
    result: f32,
}

struct Data {
    index: Vec<u16>,
    count: Vec<f32>,
    entries: Vec<Entry>,
}

type Params = Vec<[f64; 2]>;

fn load(path: &str) -> Result<Data, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut data = Data {
        index: Vec::new(),
        count: Vec::new(),
        entries: Vec::new(),
    };
    let mut skipped = 0usize;
    for line in text.lines() {
        let Some((fen, result)) = line.rsplit_once(';') else {
            skipped += 1;
            continue;
        };
        let (Ok(pos), Ok(result)) = (
            Position::from_fen(fen.trim(), false),
            result.trim().parse::<f32>(),
        ) else {
            skipped += 1;
            continue;
        };
        let f = features(&pos);
        data.entries.push(Entry {
            start: data.index.len() as u32,
            len: f.counts.len() as u16,
            phase: f.phase as u8,
            scales: [f.scales[0] as u8, f.scales[1] as u8],
            result,
        });
        for (i, c) in f.counts {
            data.index.push(i);
            data.count.push(c as f32);
        }
    }
    if skipped > 0 {
        eprintln!("skipped {skipped} malformed lines");
    }
    Ok(data)
}

/// The tuner's evaluation of one entry (White's view, centipawns), and d(eval)/d(mg sum), d(eval)/d(eg sum).
#[inline(always)]
fn eval(data: &Data, e: &Entry, params: &Params) -> (f64, f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    let range = e.start as usize..e.start as usize + e.len as usize;
    for (&i, &c) in data.index[range.clone()].iter().zip(&data.count[range]) {
        let w = params[i as usize];
        mg += w[0] * c as f64;
        eg += w[1] * c as f64;
    }
    let phase = e.phase as f64 / MAX_PHASE as f64;
    let scale = if eg > 0.0 { e.scales[0] } else { e.scales[1] } as f64 / SCALE_ONE as f64;
    let d_eg = (1.0 - phase) * scale;
    (mg * phase + eg * d_eg, phase, d_eg)
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

fn mse(data: &Data, entries: &[Entry], params: &Params, k: f64) -> f64 {
    let sum: f64 = entries
        .iter()
        .map(|e| {
            let d = e.result as f64 - sigmoid(k, eval(data, e, params).0);
            d * d
        })
        .sum();
    sum / entries.len().max(1) as f64
}

/// The K minimising the error for fixed parameters (golden-section search; the error is unimodal in K).
fn fit_k(data: &Data, entries: &[Entry], params: &Params) -> f64 {
    let (mut a, mut b) = (0.05, 4.0);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if mse(data, entries, params, c) < mse(data, entries, params, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

fn gradient(data: &Data, entries: &[Entry], params: &Params, k: f64, grad: &mut Params) {
    grad.iter_mut().for_each(|g| *g = [0.0; 2]);
    let ln10 = std::f64::consts::LN_10;
    for e in entries {
        let (v, d_mg, d_eg) = eval(data, e, params);
        let s = sigmoid(k, v);
        // d(loss)/d(eval) for loss = (result - s)^2.
        let g = -2.0 * (e.result as f64 - s) * s * (1.0 - s) * k * ln10 / 400.0;
        let range = e.start as usize..e.start as usize + e.len as usize;
        for (&i, &c) in data.index[range.clone()].iter().zip(&data.count[range]) {
            let gi = &mut grad[i as usize];
            gi[0] += g * d_mg * c as f64;
            gi[1] += g * d_eg * c as f64;
        }
    }
    let n = entries.len().max(1) as f64;
    grad.iter_mut().for_each(|g| {
        g[0] /= n;
        g[1] /= n;
    });
}

/// Gives each piece-square slot and its mirror across the d/e file boundary the same (summed) gradient, so
/// that, starting from file-symmetric values, the tables stay left-right symmetric: half the free parameters,
/// which the few thousand games we can afford need. (`--free-files` turns it off.)
fn tie_mirrored_files(grad: &mut Params) {
    for kind in 0..6 {
        for sq in 0..64 {
            if sq % 8 < 4 {
                let (a, b) = (p::PSQT + kind * 64 + sq, p::PSQT + kind * 64 + (sq ^ 7));
                let sum = [grad[a][0] + grad[b][0], grad[a][1] + grad[b][1]];
                grad[a] = sum;
                grad[b] = sum;
            }
        }
    }
}

/// Hand-set starting values: textbook-shaped guesses, deliberately rough, for the tuner to improve on.
fn hand_set() -> Params {
    let mut v = vec![[0.0; 2]; N_PARAMS];
    let material = [
        [90.0, 110.0],
        [320.0, 300.0],
        [330.0, 320.0],
        [470.0, 540.0],
        [950.0, 1000.0],
    ];
    v[p::MATERIAL..p::MATERIAL + 5].copy_from_slice(&material);
    for sq in 0..64 {
        let (f, r) = ((sq % 8) as f64, (sq / 8) as f64);
        // 0.5 on the rim .. 3.0 in the centre.
        let c = 3.5 - (f - 3.5).abs().max((r - 3.5).abs());
        let centre_file = [0.0, 1.0, 2.0, 4.0, 4.0, 2.0, 1.0, 0.0][sq % 8];
        let pawn = if (1.0..=6.0).contains(&r) {
            [centre_file * (r - 1.0) * 2.0, (r - 1.0) * 6.0]
        } else {
            [0.0; 2]
        };
        let rook_mg =
            if r == 6.0 { 15.0 } else { 0.0 } + if (2.0..=5.0).contains(&f) { 5.0 } else { 0.0 };
        let king_mg = match r as usize {
            0 => [20.0, 30.0, 10.0, 0.0, 0.0, 10.0, 30.0, 20.0][sq % 8],
            1 => -10.0,
            r => -20.0 - 10.0 * r as f64,
        };
        let tables = [
            pawn,
            [8.0 * c - 16.0, 6.0 * c - 12.0],
            [4.0 * c - 8.0, 4.0 * c - 8.0],
            [rook_mg, 0.0],
            [2.0 * c - 4.0, 4.0 * c - 8.0],
            [king_mg, 10.0 * c - 20.0],
        ];
        for (kind, t) in tables.iter().enumerate() {
            v[p::PSQT + kind * 64 + sq] = *t;
        }
    }
    let mobility = [
        (p::MOB_KNIGHT, 9, 4.0, 4.0, 4.0),
        (p::MOB_BISHOP, 14, 6.0, 4.0, 4.0),
        (p::MOB_ROOK, 15, 7.0, 2.0, 4.0),
        (p::MOB_QUEEN, 28, 13.0, 1.0, 2.0),
    ];
    for (start, len, mid, mg, eg) in mobility {
        for n in 0..len {
            v[start + n] = [(n as f64 - mid) * mg, (n as f64 - mid) * eg];
        }
    }
    let passed_mg = [0.0, 5.0, 5.0, 10.0, 20.0, 35.0, 60.0, 0.0];
    let passed_eg = [0.0, 10.0, 15.0, 25.0, 45.0, 75.0, 110.0, 0.0];
    let blocked_eg = [0.0, 0.0, -2.0, -5.0, -10.0, -15.0, -20.0, 0.0];
    for r in 0..8 {
        v[p::PASSED + r] = [passed_mg[r], passed_eg[r]];
        v[p::PASSED_BLOCKED + r] = [0.0, blocked_eg[r]];
    }
    v[p::PASSED_OWN_KING] = [0.0, -3.0];
    v[p::PASSED_ENEMY_KING] = [0.0, 5.0];
    v[p::ISOLATED] = [-10.0, -10.0];
    v[p::DOUBLED] = [-10.0, -20.0];
    v[p::SUPPORTED] = [8.0, 6.0];
    v[p::PHALANX] = [5.0, 3.0];
    v[p::BISHOP_PAIR] = [30.0, 50.0];
    v[p::ROOK_OPEN] = [30.0, 10.0];
    v[p::ROOK_SEMI_OPEN] = [15.0, 5.0];
    v[p::KING_SHIELD] = [15.0, 0.0];
    v[p::KING_SHIELD + 1] = [8.0, 0.0];
    v[p::KING_SHIELD + 2] = [-10.0, 0.0];
    for u in 1..p::KING_ATTACK_LEN {
        v[p::KING_ATTACK + u] = [1.5 * (u * u) as f64, 2.0 * u as f64];
    }
    v[p::THREAT_BY_PAWN] = [40.0, 30.0];
    v[p::THREAT_BY_MINOR] = [25.0, 20.0];
    for (kind, w) in [8.0, 4.0, 8.0, 6.0].iter().enumerate() {
        v[p::SAFE_CHECK + kind] = [*w, 2.0];
    }
    v[p::OUTPOST] = [20.0, 10.0];
    v[p::OUTPOST + 1] = [10.0, 5.0];
    v[p::TEMPO] = [15.0, 5.0];
    v
}

/// Material only, for comparison: what the tuned evaluation has to beat.
fn material_only() -> Params {
    let mut v = vec![[0.0; 2]; N_PARAMS];
    for (i, m) in [100.0, 300.0, 300.0, 500.0, 900.0].iter().enumerate() {
        v[p::MATERIAL + i] = [*m, *m];
    }
    v
}

fn current() -> Params {
    PARAMS.iter().map(|s| [s.mg as f64, s.eg as f64]).collect()
}

fn render(params: &Params, provenance: &str) -> String {
    let mut out = String::new();
    out.push_str("//! The orthodox evaluation's parameter values, written by the tuner (`src/bin/tune.rs`): regenerate,\n");
    out.push_str("//! do not hand-edit. Layout and meaning of each slot: `params.rs`. PSQT rows run a1..h1 first.\n");
    for line in provenance.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::params::{N_PARAMS, S};\n\n");
    out.push_str(
        "/// The parameter values, indexed by the offsets in `params.rs`.\n#[rustfmt::skip]\n",
    );
    out.push_str("pub const PARAMS: [S; N_PARAMS] = [\n");
    for &(name, start, len) in SLICES.iter() {
        let _ = writeln!(out, "    // {name}");
        for row in (start..start + len).collect::<Vec<_>>().chunks(8) {
            out.push_str("   ");
            for &i in row {
                let _ = write!(
                    out,
                    " S::new({}, {}),",
                    params[i][0].round() as i32,
                    params[i][1].round() as i32
                );
            }
            out.push('\n');
        }
    }
    out.push_str("];\n");
    out
}

/// The tuner's command line.
#[derive(Parser, Debug)]
#[command(
    name = "tune",
    about = "Texel tuner for the orthodox evaluation: fits src/eval/params.rs to `FEN;result` lines",
    override_usage = "tune DATA [OPTIONS]\n       tune --write-hand [--out FILE]"
)]
struct Args {
    /// `FEN;result` lines (result 1.0 / 0.5 / 0.0 from White's view).
    #[arg(required_unless_present = "write_hand")]
    data: Option<String>,
    /// Where the tuned values are written.
    #[arg(long, value_name = "FILE", default_value = "src/eval/tuned.rs")]
    out: String,
    /// Adam epochs (full batch).
    #[arg(long, default_value_t = 1000)]
    epochs: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// The share of the file's tail held out for validation, in [0, 1).
    #[arg(long, value_name = "F", default_value_t = 0.1, value_parser = holdout)]
    holdout: f64,
    /// Starting values: the hand-set ones or those now in the source.
    #[arg(long, default_value = "hand", value_parser = ["hand", "current"])]
    start: String,
    /// L2 pull towards the starting values.
    #[arg(long, default_value_t = 3e-9)]
    l2: f64,
    /// Do not hold the piece-square tables left-right symmetric.
    #[arg(long)]
    free_files: bool,
    /// Write the hand-set starting values to --out and stop.
    #[arg(long)]
    write_hand: bool,
}

fn holdout(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|f| (0.0..1.0).contains(f))
        .ok_or_else(|| "must be a number in [0, 1)".to_string())
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.write_hand {
        let text = render(
            &hand_set(),
            "Values: the hand-set starting point (tune --write-hand), not yet tuned.",
        );
        return match std::fs::write(&args.out, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("cannot write {}: {e}", args.out);
                ExitCode::FAILURE
            }
        };
    }
    let Some(path) = args.data.clone() else {
        eprintln!("no data file given");
        return ExitCode::FAILURE;
    };
    match run(&args, &path) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args, path: &str) -> Result<(), String> {
    let t0 = std::time::Instant::now();
    let mut data = load(path)?;
    let entries = std::mem::take(&mut data.entries);
    if entries.len() < 100 {
        return Err(format!(
            "only {} positions in {path}: too few to tune",
            entries.len()
        ));
    }
    // The file is written game by game, so a tail cut keeps positions of one game on one side.
    let split = entries.len() - (entries.len() as f64 * args.holdout) as usize;
    let (train, valid) = entries.split_at(split);
    eprintln!(
        "{} training + {} validation positions, {} features, loaded in {:.1}s",
        train.len(),
        valid.len(),
        data.index.len(),
        t0.elapsed().as_secs_f64()
    );
    let mut params = match args.start.as_str() {
        "hand" => hand_set(),
        "current" => current(),
        s => return Err(format!("--start {s}: expected hand or current")),
    };
    let material = material_only();
    let k_mat = fit_k(&data, train, &material);
    let mat_valid = mse(&data, valid, &material, k_mat);
    eprintln!(
        "material only: K {k_mat:.3}, train {:.6}, valid {mat_valid:.6}",
        mse(&data, train, &material, k_mat)
    );
    let k = fit_k(&data, train, &params);
    let start_train = mse(&data, train, &params, k);
    let start_valid = mse(&data, valid, &params, k);
    eprintln!(
        "start ({}): K {k:.3}, train {start_train:.6}, valid {start_valid:.6}",
        args.start
    );

    // Adam, full batch.
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut m = vec![[0.0; 2]; N_PARAMS];
    let mut v = vec![[0.0; 2]; N_PARAMS];
    let mut grad = vec![[0.0; 2]; N_PARAMS];
    // L2 pull towards the starting values: parameters that few positions touch (rare piece-square slots, extreme
    // mobility counts, large attack-unit buckets) would otherwise be fitted to the noise of a few games and
    // reach absurd values (hundreds of centipawns) that the held-out error barely notices but a search would.
    // The default 3e-9 keeps those near their start and costs ~0.8% in held-out error over no pull (7.6k games).
    let prior = params.clone();
    let mut best = (f64::INFINITY, params.clone(), 0usize);
    for epoch in 1..=args.epochs {
        gradient(&data, train, &params, k, &mut grad);
        if !args.free_files {
            tie_mirrored_files(&mut grad);
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in 0..N_PARAMS {
            for ph in 0..2 {
                let g = grad[i][ph] + 2.0 * args.l2 * (params[i][ph] - prior[i][ph]);
                m[i][ph] = b1 * m[i][ph] + (1.0 - b1) * g;
                v[i][ph] = b2 * v[i][ph] + (1.0 - b2) * g * g;
                params[i][ph] -= args.lr * (m[i][ph] / c1) / ((v[i][ph] / c2).sqrt() + eps);
            }
        }
        if epoch % 25 == 0 || epoch == args.epochs {
            let e_valid = if valid.is_empty() {
                mse(&data, train, &params, k)
            } else {
                mse(&data, valid, &params, k)
            };
            if e_valid < best.0 {
                best = (e_valid, params.clone(), epoch);
            }
            if epoch % 250 == 0 || epoch == args.epochs {
                eprintln!(
                    "epoch {epoch}: train {:.6}, valid {e_valid:.6} ({:.0}s)",
                    mse(&data, train, &params, k),
                    t0.elapsed().as_secs_f64()
                );
            }
        }
    }
    let (best_valid, params, best_epoch) = best;
    let end_train = mse(&data, train, &params, k);
    let provenance = format!(
        "Tuned on {path}: {} training positions, {} held out; K = {k:.3}; Adam lr {}, L2 {:e} towards the \
         start, {} piece-square files, best of {} epochs at epoch {best_epoch}.\nMean squared error (train / held-out): material only {:.6} / {mat_valid:.6}; hand-set \
         start {start_train:.6} / {start_valid:.6}; tuned {end_train:.6} / {best_valid:.6}.",
        train.len(),
        valid.len(),
        args.lr,
        args.l2,
        if args.free_files { "free" } else { "mirror-tied" },
        args.epochs,
        mse(&data, train, &material, k_mat),
    );
    eprintln!("{provenance}");
    std::fs::write(&args.out, render(&params, &provenance))
        .map_err(|e| format!("cannot write {}: {e}", args.out))?;
    eprintln!("wrote {}", args.out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_data() -> Data {
        let lines = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1;1.0",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1;0.5",
            "2kr3r/ppp2ppp/2n5/2b1q3/4P3/2N2N2/PPPQ1PPP/2KR1B1R b - - 3 12;0.0",
            "8/4kp2/8/2b5/8/8/3PPP2/5BK1 w - - 0 1;0.5",
        ];
        let path =
            std::env::temp_dir().join(format!("corvid-tune-test-{}.txt", std::process::id()));
        std::fs::write(&path, lines.join("\n")).expect("temp file is writable");
        let data = load(path.to_str().expect("utf-8 temp path")).expect("loads");
        let _ = std::fs::remove_file(&path);
        data
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let mut data = tiny_data();
        let entries = std::mem::take(&mut data.entries);
        assert_eq!(entries.len(), 4);
        let params = hand_set();
        let k = 1.1;
        let mut grad = vec![[0.0; 2]; N_PARAMS];
        gradient(&data, &entries, &params, k, &mut grad);
        // Parameters the positions actually use (the others' gradient is trivially zero).
        let mut probes: Vec<usize> = data.index.iter().map(|&i| i as usize).collect();
        probes.sort_unstable();
        probes.dedup();
        assert!(probes.len() > 20);
        let mut checked = 0;
        for &i in probes.iter().step_by(3) {
            for ph in 0..2 {
                let h = 1e-3;
                let (mut up, mut down) = (params.clone(), params.clone());
                up[i][ph] += h;
                down[i][ph] -= h;
                let numeric =
                    (mse(&data, &entries, &up, k) - mse(&data, &entries, &down, k)) / (2.0 * h);
                assert!(
                    (numeric - grad[i][ph]).abs() <= 1e-6 + 1e-3 * numeric.abs(),
                    "{i}/{ph}: {numeric} vs {}",
                    grad[i][ph]
                );
                checked += (numeric != 0.0) as usize;
            }
        }
        assert!(checked >= 10, "the probed parameters move the error");
    }

    #[test]
    fn hand_set_values_render_and_tie_symmetrically() {
        let v = hand_set();
        for kind in 0..6 {
            for sq in 0..64 {
                assert_eq!(
                    v[p::PSQT + kind * 64 + sq],
                    v[p::PSQT + kind * 64 + (sq ^ 7)]
                );
            }
        }
        let text = render(&v, "test");
        assert_eq!(text.matches("S::new(").count(), N_PARAMS);
    }
}
