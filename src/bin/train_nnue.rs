//! Corvid's NNUE trainer: (768 -> H) x 2 -> 1 SCReLU networks from `corvid datagen`'s games or bulletformat
//! `ChessBoard` records (each file's format recognised by its content), on the CPU, multithreaded, in plain
//! Rust, optionally with 8 output buckets by piece count (`--buckets 8`), horizontal mirroring by each
//! side's king file (`--mirror`) and king buckets by each side's own king square (`--king-buckets`). The
//! data, the features, the network and the net file follow `nets/FORMAT.md` (the contract with datagen and
//! the engine); the feature and bucket rules are the format module's, which the engine uses too.
//!
//! - `train_nnue train DATA... [--val FILE | --val-fraction 0.01 --val-block 4096] [--hidden 256]
//!   [--buckets 1|8] [--mirror] [--king-buckets MAP] ...`
//!   trains with AdamW on the MSE between sigmoid(y) and `lambda * result + (1 - lambda) * sigmoid(score /
//!   400)`; after every epoch it prints train and validation loss and writes `epochN.ckpt` (float weights
//!   and optimiser state, for `--resume`) and `epochN.nnue` (the quantised net) into `--out-dir`, and at
//!   the end `final.nnue`.
//!   `--init NET` starts from a net file's weights (fine-tuning) instead of random ones; a one-bucket net
//!   with `--buckets 8` starts every bucket from its output layer, one without king buckets given
//!   `--king-buckets` starts every king bucket from its feature weights, and a wider `--hidden` keeps the
//!   net's neurons and adds new ones that start out silent (zero output weights).
//! - `train_nnue export --checkpoint C --out F` quantises a checkpoint into a net file.
//! - `train_nnue eval --net F --fen FEN` prints the reference integer evaluation (cp, side to move).
//! - `train_nnue synth --out F --positions N` writes random material-scored positions (smoke tests).

// The crate root sits in src/bin/, so the submodules in src/bin/train_nnue/ are named by path.
#[path = "train_nnue/data.rs"]
mod data;
#[path = "train_nnue/net.rs"]
mod net;
#[path = "train_nnue/optim.rs"]
mod optim;
#[path = "train_nnue/quant.rs"]
mod quant;
#[cfg(test)]
#[path = "train_nnue/tests.rs"]
mod tests;
#[path = "train_nnue/train.rs"]
mod train;

use clap::{Parser, Subcommand};
use corvid::chess::{Color, Position};
use corvid::eval::nnue::accumulator::{feature, output_bucket, own_king_square};
use corvid::eval::nnue::format::king_view;
use data::{Features, MAX_FEATURES};
use net::Shape;
use optim::{Checkpoint, LrSchedule, Schedule};
use quant::{QuantNet, Quantised};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(about = "Corvid's NNUE trainer (CPU): train, export, eval")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train a network on datagen game files (viriformat) or bulletformat ChessBoard files.
    Train(Box<TrainArgs>),
    /// Quantise a checkpoint into a net file.
    Export {
        /// A checkpoint written by `train` (epochN.ckpt).
        #[arg(long)]
        checkpoint: PathBuf,
        /// The net file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Print the quantised integer evaluation of a position (cp, side to move).
    Eval {
        /// A net file.
        #[arg(long)]
        net: PathBuf,
        /// The position (orthodox or Chess960 FEN).
        #[arg(long)]
        fen: String,
    },
    /// Write random positions scored by material (a smoke-test data set, not for real nets).
    Synth {
        /// The file to write (ChessBoard records, overwritten).
        #[arg(long)]
        out: PathBuf,
        /// How many positions.
        #[arg(long, default_value_t = 100_000)]
        positions: usize,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(clap::Args)]
struct TrainArgs {
    /// Training data: `corvid datagen` game files (viriformat), whose quiet positions are read game by game,
    /// or files of 32-byte bulletformat ChessBoard records. Each file's format is recognised by its content,
    /// whatever its name; a file of neither format, or one cut off, stops the run before anything is trained.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// A separate validation file (otherwise --val-fraction of the data is held out).
    #[arg(long)]
    val: Option<PathBuf>,
    /// Fraction of the data held out for validation when there is no --val (chosen by --seed).
    #[arg(long, default_value_t = 0.01)]
    val_fraction: f64,
    /// Records per held-out block: whole runs of consecutive positions (whole games, as datagen writes
    /// them) go to validation, so it measures play on unseen games. 1 holds out single positions.
    #[arg(long, default_value_t = 4096)]
    val_block: usize,
    /// Accumulator width H per perspective (a multiple of 8, 8..=4096); default 256, or the checkpoint's, or
    /// the --init net's (a wider one widens it: the same function, new neurons silent at first).
    #[arg(long)]
    hidden: Option<usize>,
    /// Output buckets by the number of pieces on the board: 1 or 8. Default 1, or the checkpoint's or the
    /// --init net's (a one-bucket --init net with 8 starts each bucket from its output layer).
    #[arg(long)]
    buckets: Option<usize>,
    /// Horizontal mirroring: each side's features are file-flipped while its own king is on files e-h.
    /// Default off, or the checkpoint's or the --init net's (a net trained without it cannot take it up).
    #[arg(long)]
    mirror: bool,
    /// King buckets: the bucket of each square of a side's own king as it sees the board, comma-separated,
    /// 32 entries (files a-d of ranks 1 to 8, with mirroring) or 64 (a1 to h8); or `4`, the four-bucket map
    /// of a mirroring net: castled wing (a1-b1), back-rank centre (c1-d1), second rank, the rest. Default
    /// none, or the checkpoint's or the --init net's. Trained factorised (each bucket's own part plus a
    /// factor all share; the file holds the sums); a net without them as --init becomes the factor.
    #[arg(long)]
    king_buckets: Option<String>,
    /// Weight of the game result in the target (0: scores only, 1: results only). 0 by default: on 2 M
    /// positions (20 k games) a net at 0.3 memorised the games' results and lost to the HCE, one at 0 beat it.
    #[arg(long, default_value_t = 0.0)]
    lambda: f32,
    /// Peak AdamW learning rate.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// AdamW decoupled weight decay (per step: w -= lr * wd * w).
    #[arg(long, default_value_t = 0.01)]
    wd: f32,
    /// Learning-rate schedule over the epochs.
    #[arg(long, value_enum, default_value_t = Schedule::Cosine)]
    schedule: Schedule,
    /// Cosine: the final learning rate as a fraction of --lr.
    #[arg(long, default_value_t = 0.01)]
    final_lr_frac: f32,
    /// Step: multiply the learning rate by --gamma every this many epochs.
    #[arg(long, default_value_t = 8)]
    step_every: usize,
    /// Step: the factor.
    #[arg(long, default_value_t = 0.3)]
    gamma: f32,
    /// Positions per batch (one optimiser step).
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Epochs in total (a resumed run continues up to this number).
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Worker threads (default: the available parallelism).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the initial weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Directory for checkpoints and nets.
    #[arg(long, default_value = "nnue-runs/corvid")]
    out_dir: PathBuf,
    /// Continue from a checkpoint (weights, optimiser state, epochs done).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Start from the weights of a net file (e.g. the committed net) with a fresh optimiser and schedule:
    /// fine-tuning on new data keeps what the earlier data taught.
    #[arg(long, conflicts_with = "resume")]
    init: Option<PathBuf>,
    /// Seconds between progress lines within an epoch (0: none).
    #[arg(long, default_value_t = 15.0)]
    progress_secs: f64,
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs one parsed command line.
fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Train(args) => run_train(*args),
        Command::Export { checkpoint, out } => run_export(&checkpoint, &out),
        Command::Eval { net, fen } => run_eval(&net, &fen),
        Command::Synth {
            out,
            positions,
            seed,
        } => run_synth(&out, positions, seed),
    }
}

fn run_train(a: TrainArgs) -> Result<(), String> {
    if a.batch == 0 || a.epochs == 0 {
        return Err("--batch and --epochs must be positive".into());
    }
    if !(0.0..=1.0).contains(&a.lambda) {
        return Err("--lambda must be in [0, 1]".into());
    }
    if !(0.0..1.0).contains(&a.val_fraction) {
        return Err("--val-fraction must be in [0, 1)".into());
    }
    if a.buckets
        .is_some_and(|b| b != 1 && b != corvid::eval::nnue::OUTPUT_BUCKETS)
    {
        return Err("--buckets must be 1 or 8".into());
    }
    let king_map = a.king_buckets.as_deref().map(parse_king_map).transpose()?;
    let start = match (&a.resume, &a.init) {
        (Some(path), _) => {
            let ck = Checkpoint::load(path)?;
            check_shape(&a, ck.net.shape, "checkpoint")?;
            if ck.seed != a.seed {
                eprintln!(
                    "warning: the checkpoint was trained with --seed {}, this run uses {} (another split and order)",
                    ck.seed, a.seed
                );
            }
            println!("resuming {} after epoch {}", path.display(), ck.epochs_done);
            ck
        }
        (None, Some(path)) => {
            let q = load_net(path)?;
            let mut net = q.to_float();
            if a.buckets.is_some_and(|b| b > q.shape.buckets) {
                net = net.spread_buckets(corvid::eval::nnue::OUTPUT_BUCKETS);
            }
            if let Some(h) = a.hidden.filter(|&h| h > net.shape.hidden) {
                check_hidden(h)?;
                net = net.widen(h, a.seed);
            }
            if let Some(map) = king_map.as_ref().filter(|_| net.shape.king_buckets == 1) {
                net = net.spread_king_buckets(king_shape(net.shape, map)?);
            }
            check_shape(&a, net.shape, "net")?;
            println!(
                "starting from the weights of {} ({:?})",
                path.display(),
                q.shape
            );
            let mut ck = train::fresh(net.shape, a.seed);
            ck.net = net;
            ck
        }
        (None, None) => {
            let h = a.hidden.unwrap_or(256);
            check_hidden(h)?;
            let shape = Shape {
                buckets: a.buckets.unwrap_or(1),
                mirror: a.mirror,
                ..Shape::plain(h)
            };
            let shape = match &king_map {
                Some(map) => king_shape(shape, map)?,
                None => shape,
            };
            train::fresh(shape, a.seed)
        }
    };
    // Every file's format first (a bad validation file too), before the data is read and anything trained.
    data::check_files(&a.data)?;
    data::check_files(a.val.as_slice())?;
    let loaded = data::load_files(&a.data)?;
    report_load("training", &a.data, &loaded);
    let mut records = loaded.records;
    let val = match &a.val {
        Some(path) => {
            let v = data::load_files(std::slice::from_ref(path))?;
            report_load("validation", std::slice::from_ref(path), &v);
            v.records
        }
        None => data::split_validation(&mut records, a.val_fraction, a.seed, a.val_block),
    };
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let cfg = train::Config {
        lambda: a.lambda,
        wd: a.wd,
        schedule: LrSchedule {
            base: a.lr,
            kind: a.schedule,
            final_frac: a.final_lr_frac,
            step_every: a.step_every,
            gamma: a.gamma,
            epochs: a.epochs,
        },
        batch: a.batch,
        threads,
        seed: a.seed,
        out_dir: Some(a.out_dir),
        progress_secs: a.progress_secs,
        quiet: false,
    };
    train::train(&cfg, start, &records, &val).map(|_| ())
}

/// Refuses an accumulator width the trainer and the net file cannot hold.
fn check_hidden(h: usize) -> Result<(), String> {
    if h == 0 || !h.is_multiple_of(8) || h > 4096 {
        return Err("--hidden must be a multiple of 8 in 8..=4096".into());
    }
    Ok(())
}

/// The four-bucket map of `--king-buckets 4`, for files a-d of ranks 1 to 8 of a mirroring net: a castled
/// king (a1-b1, g1-h1 before the flip), a king at home or castled long (c1-d1), the second rank, the rest.
const KING_BUCKETS_4: [u8; 32] = {
    let mut m = [3u8; 32];
    m[0] = 0;
    m[1] = 0;
    m[2] = 1;
    m[3] = 1;
    m[4] = 2;
    m[5] = 2;
    m[6] = 2;
    m[7] = 2;
    m
};

/// A `--king-buckets` value: a preset's name or the comma-separated map.
fn parse_king_map(s: &str) -> Result<Vec<u8>, String> {
    if s.trim() == "4" {
        return Ok(KING_BUCKETS_4.to_vec());
    }
    s.split(',')
        .map(|x| {
            x.trim()
                .parse::<u8>()
                .map_err(|_| format!("--king-buckets: {x:?} is not a bucket number"))
        })
        .collect()
}

/// `shape` with the king buckets of `map`, or why the map does not fit it.
fn king_shape(shape: Shape, map: &[u8]) -> Result<Shape, String> {
    shape.with_king_buckets(map).ok_or_else(|| {
        format!(
            "--king-buckets: {} entries with{} mirroring (32 need --mirror, else 64), each bucket below 32 and used",
            map.len(),
            if shape.mirror { "" } else { "out" }
        )
    })
}

/// Refuses a `--hidden`, `--buckets`, `--mirror` or `--king-buckets` that differs from the shape a run
/// starts from (`what`: the checkpoint or the net file, already given the king buckets it was asked for).
fn check_shape(a: &TrainArgs, shape: Shape, what: &str) -> Result<(), String> {
    if a.hidden.is_some_and(|h| h != shape.hidden) {
        return Err(format!(
            "--hidden differs from the {what}'s H = {}",
            shape.hidden
        ));
    }
    if a.buckets.is_some_and(|b| b != shape.buckets) {
        return Err(format!(
            "--buckets differs from the {what}'s {} output bucket(s)",
            shape.buckets
        ));
    }
    if a.mirror && !shape.mirror {
        return Err(format!(
            "--mirror: the {what} was trained without mirroring (its feature weights mean other squares)"
        ));
    }
    if let Some(map) = &a.king_buckets {
        if king_shape(shape, &parse_king_map(map)?)? != shape {
            return Err(format!(
                "--king-buckets differs from the {what}'s {} king bucket(s)",
                shape.king_buckets
            ));
        }
    }
    Ok(())
}

fn report_load(what: &str, paths: &[PathBuf], l: &data::Loaded) {
    println!(
        "{what} data: {} positions from {} file(s){}",
        l.records.len(),
        paths.len(),
        if l.invalid > 0 {
            format!(", {} invalid records skipped", l.invalid)
        } else {
            String::new()
        }
    );
}

fn run_export(checkpoint: &Path, out: &Path) -> Result<(), String> {
    let ck = Checkpoint::load(checkpoint)?;
    let bytes = QuantNet::from_float(&ck.net)?.encode();
    optim::write_atomic(out, &bytes)?;
    println!(
        "wrote {} ({:?}, {} bytes, after epoch {})",
        out.display(),
        ck.net.shape,
        bytes.len(),
        ck.epochs_done
    );
    Ok(())
}

/// Reads and validates a net file.
fn load_net(path: &Path) -> Result<QuantNet, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    QuantNet::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn run_eval(net: &Path, fen: &str) -> Result<(), String> {
    let q = load_net(net)?;
    let pos = Position::from_fen(fen, false)
        .or_else(|_| Position::from_fen(fen, true))
        .map_err(|e| format!("bad FEN: {e}"))?;
    let cp = q.evaluate(&position_features(&pos, &q.shape));
    let white = if pos.side_to_move() == Color::White {
        cp
    } else {
        -cp
    };
    println!("eval {cp} cp (side to move), {white} cp (White)");
    Ok(())
}

fn run_synth(out: &Path, positions: usize, seed: u64) -> Result<(), String> {
    use bulletformat::BulletFormat;
    let records = data::synthetic(positions, seed);
    let file =
        std::fs::File::create(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut w = std::io::BufWriter::new(file);
    bulletformat::ChessBoard::write_to_bin(&mut w, &records)
        .and_then(|()| std::io::Write::flush(&mut w))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!(
        "wrote {} synthetic positions to {}",
        records.len(),
        out.display()
    );
    Ok(())
}

/// The inputs of an engine position for a net of `shape` by the engine's own functions (absolute colours,
/// the engine's mirror test and bucket); tests check them against the data side's on the same positions.
fn position_features(pos: &Position, shape: &Shape) -> Features {
    let mut f = Features {
        stm: [0; MAX_FEATURES],
        opp: [0; MAX_FEATURES],
        len: 0,
        bucket: if shape.buckets > 1 {
            output_bucket(pos)
        } else {
            0
        },
    };
    let stm = pos.side_to_move();
    let view = |p: Color| king_view(shape, own_king_square(pos, p));
    let (stm_view, opp_view) = (view(stm), view(stm.flip()));
    let mut occ = pos.occupied();
    while occ != 0 && f.len < MAX_FEATURES {
        let sq = corvid::chess::Square(occ.trailing_zeros() as u8);
        occ &= occ - 1;
        if let Some(piece) = pos.piece_on(sq) {
            f.stm[f.len] = feature(stm, piece, sq, stm_view) as u16;
            f.opp[f.len] = feature(stm.flip(), piece, sq, opp_view) as u16;
            f.len += 1;
        }
    }
    f
}
