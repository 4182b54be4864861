//! The training loop: shuffled mini-batches, threaded gradients, AdamW, per-epoch validation, checkpoints
//! and net exports.

use crate::data::epoch_order;
use crate::net::{batch_gradients, mean_loss, Net, Shape, Worker};
use crate::optim::{write_atomic, AdamW, Checkpoint, LrSchedule};
use crate::quant::{QuantNet, Quantised};
use bulletformat::ChessBoard;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Settings of a run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Weight of the game result in the target.
    pub lambda: f32,
    /// AdamW weight decay.
    pub wd: f32,
    /// The learning rate over the run (its `epochs` is the run's length).
    pub schedule: LrSchedule,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Worker threads.
    pub threads: usize,
    /// Seed of the shuffles (the split and the initial net are made by the caller).
    pub seed: u64,
    /// Where `epochN.ckpt`, `epochN.nnue` and `final.nnue` go; None writes nothing (tests).
    pub out_dir: Option<PathBuf>,
    /// Seconds between progress lines within an epoch (0: none).
    pub progress_secs: f64,
    /// Print nothing (tests).
    pub quiet: bool,
}

/// What a run did (the binary prints it; tests read it).
#[cfg_attr(not(test), allow(dead_code))]
pub struct Summary {
    /// The network after the last epoch.
    pub net: Net,
    /// Validation loss before the first epoch of this run.
    pub initial_val: f64,
    /// (epoch, train loss, validation loss) per epoch of this run.
    pub epochs: Vec<(usize, f64, f64)>,
    /// Training speed over the whole run, positions per second.
    pub positions_per_sec: f64,
}

/// Trains from `start` (a fresh net or a resumed checkpoint) for the epochs left up to `schedule.epochs`.
pub fn train(
    cfg: &Config,
    start: Checkpoint,
    data: &[ChessBoard],
    val: &[ChessBoard],
) -> Result<Summary, String> {
    if data.is_empty() {
        return Err("no training positions".into());
    }
    let Checkpoint {
        mut net,
        mut adam,
        epochs_done,
        ..
    } = start;
    let say = |s: String| {
        if !cfg.quiet {
            println!("{s}");
        }
    };
    let threads = cfg.threads.max(1);
    let mut workers: Vec<Worker> = (0..threads).map(|_| Worker::new(net.shape)).collect();
    if let Some(dir) = &cfg.out_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let initial_val = mean_loss(&net, val, cfg.lambda, threads);
    say(format!(
        "start: {} training and {} validation positions, H = {}, {} output bucket(s), mirroring {}, {} king bucket(s), {} threads, validation loss {}",
        data.len(),
        val.len(),
        net.shape.hidden,
        net.shape.buckets,
        if net.shape.mirror { "on" } else { "off" },
        net.shape.king_buckets,
        threads,
        show_loss(initial_val)
    ));
    let sch = &cfg.schedule;
    say(format!(
        "config: lambda {}, lr {} ({:?}, final fraction {}, step every {} x {}), wd {}, batch {}, epochs {}, seed {}",
        cfg.lambda, sch.base, sch.kind, sch.final_frac, sch.step_every, sch.gamma, cfg.wd, cfg.batch,
        sch.epochs, cfg.seed
    ));
    let batches = data.len().div_ceil(cfg.batch);
    let mut summary = Summary {
        net: net.clone(),
        initial_val,
        epochs: Vec::new(),
        positions_per_sec: 0.0,
    };
    let run_start = Instant::now();
    let mut trained = 0usize;
    let mut best: Option<(usize, f64)> = None;
    for epoch in epochs_done as usize..cfg.schedule.epochs {
        let epoch_start = Instant::now();
        let mut last_report = epoch_start;
        let order = epoch_order(data.len(), cfg.seed, epoch);
        let mut loss_sum = 0.0f64;
        for (b, chunk) in order.chunks(cfg.batch).enumerate() {
            let lr = cfg.schedule.at(epoch, b as f64 / batches as f64);
            loss_sum += batch_gradients(&net, data, chunk, cfg.lambda, &mut workers);
            let grads: Vec<&[f32]> = workers.iter().map(|w| &w.grad[..]).collect();
            adam.step(&mut net, &grads, lr, cfg.wd, threads);
            trained += chunk.len();
            let done = (b + 1) * cfg.batch;
            if cfg.progress_secs > 0.0
                && last_report.elapsed() >= Duration::from_secs_f64(cfg.progress_secs)
                && b + 1 < batches
            {
                last_report = Instant::now();
                let secs = epoch_start.elapsed().as_secs_f64();
                say(format!(
                    "  epoch {} {:5.1}%  batch {}/{}  train loss {:.6}  lr {:.2e}  {:.0} pos/s",
                    epoch + 1,
                    100.0 * (b + 1) as f64 / batches as f64,
                    b + 1,
                    batches,
                    loss_sum / done as f64,
                    lr,
                    done as f64 / secs
                ));
            }
        }
        let secs = epoch_start.elapsed().as_secs_f64();
        let train_loss = loss_sum / data.len() as f64;
        let val_loss = mean_loss(&net, val, cfg.lambda, threads);
        if !val_loss.is_nan() && best.is_none_or(|(_, l)| val_loss < l) {
            best = Some((epoch + 1, val_loss));
        }
        say(format!(
            "epoch {}/{}: train loss {:.6}  val loss {}  lr {:.2e}  {:.1} s  {:.0} pos/s",
            epoch + 1,
            cfg.schedule.epochs,
            train_loss,
            show_loss(val_loss),
            cfg.schedule.at(epoch, 1.0),
            secs,
            data.len() as f64 / secs
        ));
        summary.epochs.push((epoch + 1, train_loss, val_loss));
        if let Some(dir) = &cfg.out_dir {
            let ckpt = Checkpoint {
                net: net.clone(),
                adam: adam.clone(),
                epochs_done: (epoch + 1) as u32,
                seed: cfg.seed,
            };
            let ck_path = dir.join(format!("epoch{}.ckpt", epoch + 1));
            ckpt.save(&ck_path)?;
            let net_path = dir.join(format!("epoch{}.nnue", epoch + 1));
            write_atomic(&net_path, &QuantNet::from_float(&net)?.encode())?;
            say(format!(
                "  wrote {} and {}",
                ck_path.display(),
                net_path.display()
            ));
        }
    }
    if let Some(dir) = &cfg.out_dir {
        let path = dir.join("final.nnue");
        write_atomic(&path, &QuantNet::from_float(&net)?.encode())?;
        say(format!("wrote {}", path.display()));
    }
    if let Some((e, l)) = best {
        say(format!("lowest validation loss {l:.6} after epoch {e}"));
    }
    summary.positions_per_sec = trained as f64 / run_start.elapsed().as_secs_f64().max(1e-9);
    say(format!(
        "trained {} positions in {:.1} s: {:.0} positions/s on {} threads",
        trained,
        run_start.elapsed().as_secs_f64(),
        summary.positions_per_sec,
        threads
    ));
    summary.net = net;
    Ok(summary)
}

/// A loss for printing ("n/a" without validation positions).
fn show_loss(l: f64) -> String {
    if l.is_nan() {
        "n/a".into()
    } else {
        format!("{l:.6}")
    }
}

/// A fresh start: random weights of `shape` from `seed`, zero optimiser state.
pub fn fresh(shape: Shape, seed: u64) -> Checkpoint {
    let net = Net::random(shape, seed);
    let adam = AdamW::new(net.params.len());
    Checkpoint {
        net,
        adam,
        epochs_done: 0,
        seed,
    }
}
