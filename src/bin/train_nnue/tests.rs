//! Tests of the trainer: gradients against finite differences, the net file and the integer evaluator
//! against the float network (and the engine's evaluation of the written file), training progress,
//! checkpoints and resume, the data path, and the inputs against the engine's.

use crate::data::{self, features, synthetic, Features, INPUTS};
use crate::net::{batch_gradients, mean_loss, Net, Shape, Worker};
use crate::optim::{Checkpoint, LrSchedule, Schedule};
use crate::quant::{QuantNet, Quantised};
use crate::train::{self, Config};
use bulletformat::{BulletFormat, ChessBoard};
use corvid::chess::Position;
use corvid::eval::nnue::format::{file_len, fnv1a64};
use corvid::rng::Rng;

/// Eight output buckets and mirroring: the shape the next nets use.
fn bucketed(hidden: usize) -> Shape {
    Shape {
        buckets: 8,
        mirror: true,
        ..Shape::plain(hidden)
    }
}

/// [`bucketed`] with the four king buckets of `--king-buckets 4`.
fn kinged(hidden: usize) -> Shape {
    bucketed(hidden)
        .with_king_buckets(&crate::KING_BUCKETS_4)
        .expect("a valid map")
}

/// A network with weights large enough that accumulators fall below 0, inside (0, 1) and above 1.
fn spread_net(shape: Shape, seed: u64) -> Net {
    let mut net = Net::random(shape, seed);
    let mut rng = Rng::new(seed + 1);
    for p in &mut net.params {
        *p = rng.uniform(-0.5, 0.5);
    }
    net
}

/// The inputs of a record written independently of the trainer: pieces from the crate's own (piece, square)
/// iterator, the kings from the record's `ksq` and `opp_ksq` fields (the latter as the opponent sees the
/// board), each king's square (file-flipped with it) choosing its side's king bucket, and the bucket from
/// the piece count. Returns each perspective's rows and the bucket.
fn reference_inputs(shape: Shape, r: &ChessBoard) -> ([Vec<usize>; 2], usize) {
    let flip = |king: u8| if shape.mirror && king % 8 >= 4 { 7 } else { 0 };
    let (ours, theirs) = (flip(r.ksq), flip(r.opp_ksq));
    let block = |king: u8, flip: usize| 768 * usize::from(shape.king_map[usize::from(king) ^ flip]);
    let (our_block, their_block) = (block(r.ksq, ours), block(r.opp_ksq, theirs));
    let mut rows = [Vec::new(), Vec::new()];
    for (piece, sq) in *r {
        let (c, t, sq) = (
            usize::from(piece >> 3),
            usize::from(piece & 7),
            usize::from(sq),
        );
        rows[0].push(our_block + c * 384 + t * 64 + (sq ^ ours));
        rows[1].push(their_block + (1 - c) * 384 + t * 64 + (sq ^ 56 ^ theirs));
    }
    let pieces = r.occ.count_ones() as usize;
    let bucket = if shape.buckets > 1 {
        (pieces.max(2) - 2) / 4
    } else {
        0
    };
    (rows, bucket.min(7))
}

/// The loss of a batch in f64, written independently of the trainer: inputs from [`reference_inputs`],
/// the target from the raw fields.
fn reference_loss(shape: Shape, params: &[f64], batch: &[ChessBoard], lambda: f64) -> f64 {
    let hidden = shape.hidden;
    // With king buckets each row adds the factor's row of the same feature (768 rows after the buckets').
    let factor = INPUTS * shape.king_buckets * hidden;
    let ft_b = factor
        + if shape.king_buckets > 1 {
            INPUTS * hidden
        } else {
            0
        };
    let out_w = ft_b + hidden;
    let out_b = out_w + shape.buckets * 2 * hidden;
    let mut total = 0.0;
    for r in batch {
        let (rows, bucket) = reference_inputs(shape, r);
        let mut acc = [params[ft_b..out_w].to_vec(), params[ft_b..out_w].to_vec()];
        for (a, rows) in acc.iter_mut().zip(&rows) {
            for row in rows {
                for (i, x) in a.iter_mut().enumerate() {
                    *x += params[row * hidden + i];
                    if ft_b > factor {
                        *x += params[factor + row % INPUTS * hidden + i];
                    }
                }
            }
        }
        let mut y = params[out_b + bucket];
        let w = out_w + bucket * 2 * hidden;
        for (side, a) in acc.iter().enumerate() {
            for (i, x) in a.iter().enumerate() {
                y += x.clamp(0.0, 1.0).powi(2) * params[w + side * hidden + i];
            }
        }
        let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
        let t =
            lambda * f64::from(r.result) / 2.0 + (1.0 - lambda) * sig(f64::from(r.score) / 400.0);
        total += (sig(y) - t).powi(2);
    }
    total / batch.len() as f64
}

#[test]
fn gradient_matches_finite_differences() {
    for (shape, positions) in [(Shape::plain(8), 6), (bucketed(8), 16), (kinged(8), 24)] {
        let net = spread_net(shape, 3);
        let batch = synthetic(positions, 11);
        // The bucketed case must meet several buckets and both mirror states of a perspective.
        let inputs: Vec<_> = batch.iter().map(|r| reference_inputs(shape, r)).collect();
        let buckets: std::collections::HashSet<usize> = inputs.iter().map(|i| i.1).collect();
        let kings: std::collections::HashSet<bool> = batch.iter().map(|r| r.ksq % 8 >= 4).collect();
        if shape.buckets > 1 {
            assert!(
                buckets.len() >= 3 && kings.len() == 2,
                "{buckets:?} {kings:?}"
            );
        }
        // The king-bucket case must meet several king buckets of the side to move.
        let blocks: std::collections::HashSet<usize> =
            inputs.iter().map(|i| i.0[0][0] / 768).collect();
        assert!(
            blocks.len() >= shape.king_buckets.min(3),
            "{shape:?}: {blocks:?}"
        );
        let order: Vec<u32> = (0..batch.len() as u32).collect();
        let mut workers = vec![Worker::new(shape)];
        batch_gradients(&net, &batch, &order, 0.4, &mut workers);
        let analytic = &workers[0].grad;

        let mut p: Vec<f64> = net.params.iter().map(|&x| f64::from(x)).collect();
        let h = 1e-5;
        let (mut checked, mut nonzero) = (0, 0);
        for k in 0..p.len() {
            let keep = p[k];
            p[k] = keep + h;
            let up = reference_loss(shape, &p, &batch, 0.4);
            p[k] = keep - h;
            let down = reference_loss(shape, &p, &batch, 0.4);
            p[k] = keep;
            let fd = (up - down) / (2.0 * h);
            let a = f64::from(analytic[k]);
            assert!(
                (a - fd).abs() <= 1e-6 + 1e-3 * fd.abs(),
                "{shape:?} parameter {k}: analytic {a:e}, finite difference {fd:e}"
            );
            checked += 1;
            if fd.abs() > 1e-5 {
                nonzero += 1;
            }
        }
        // Every block must take part: 6 positions touch ~150 of the 6144 feature weights, plus biases and
        // the output layer (of each bucket met).
        assert_eq!(checked, net.params.len());
        assert!(
            nonzero > 100,
            "{shape:?}: only {nonzero} non-trivial gradients"
        );
        // With king buckets the shared factor learns from every position too.
        let l = net.layout();
        if shape.king_buckets > 1 {
            let factor = &analytic[l.factor..l.ft_b];
            assert!(factor.iter().filter(|g| g.abs() > 1e-7).count() > 50);
        } else {
            assert_eq!(l.factor, l.ft_b);
        }
    }
}

#[test]
fn threaded_gradient_equals_single_thread() {
    for shape in [Shape::plain(16), bucketed(16), kinged(16)] {
        let net = spread_net(shape, 5);
        let data = synthetic(301, 12);
        let order: Vec<u32> = (0..data.len() as u32).rev().collect();
        let mut one = vec![Worker::new(shape)];
        let loss1 = batch_gradients(&net, &data, &order, 0.3, &mut one);
        let mut three: Vec<Worker> = (0..3).map(|_| Worker::new(shape)).collect();
        let loss3 = batch_gradients(&net, &data, &order, 0.3, &mut three);
        assert!((loss1 - loss3).abs() < 1e-9 * loss1.max(1.0));
        for k in 0..one[0].grad.len() {
            let sum: f32 = three.iter().map(|w| w.grad[k]).sum();
            assert!(
                (sum - one[0].grad[k]).abs() <= 1e-6 + 1e-4 * sum.abs(),
                "{shape:?} parameter {k}"
            );
        }
        // The loss of the batch is the mean of the per-record losses reported.
        let mean = mean_loss(&net, &data, 0.3, 2);
        assert!((mean - loss1 / data.len() as f64).abs() < 1e-6);
    }
}

/// A briefly trained net, so the weights look like a real net's rather than an initialisation's.
fn trained_net(shape: Shape) -> Net {
    let data = synthetic(3000, 21);
    let cfg = quiet_config(8, 256, 0.01);
    train::train(&cfg, train::fresh(shape, 7), &data, &[])
        .expect("training")
        .net
}

fn quiet_config(epochs: usize, batch: usize, lr: f32) -> Config {
    Config {
        lambda: 0.3,
        wd: 0.01,
        schedule: LrSchedule {
            base: lr,
            kind: Schedule::Cosine,
            final_frac: 0.05,
            step_every: 1,
            gamma: 1.0,
            epochs,
        },
        batch,
        threads: 2,
        seed: 9,
        out_dir: None,
        progress_secs: 0.0,
        quiet: true,
    }
}

#[test]
fn quantised_file_agrees_with_float_net() {
    for shape in [Shape::plain(64), bucketed(64), kinged(64)] {
        let net = trained_net(shape);
        let bytes = QuantNet::from_float(&net).expect("in range").encode();
        let q = QuantNet::decode(&bytes).expect("valid file");
        assert_eq!(q.shape, shape);
        // The same network with the quantised values as floats: the integer evaluator must reproduce its
        // float forward pass up to the two truncating divisions: under 1 cp for the last, 400 / (QA * QB) =
        // 0.025 cp for the first.
        let deq = q.to_float();
        // `to_float` is the exact inverse of quantising: `train --init` starts from the file's own net.
        assert_eq!(QuantNet::from_float(&deq).expect("in range"), q);
        let positions = synthetic(2000, 33);
        let (mut worst_exact, mut worst, mut sum) = (0.0f32, 0.0f32, 0.0f32);
        let mut spread = 0.0f32;
        for r in &positions {
            let f = features(r, &shape);
            let int = q.evaluate(&f) as f32;
            worst_exact = worst_exact.max((int - deq.forward(&f) * 400.0).abs());
            let float = net.forward(&f) * 400.0;
            worst = worst.max((int - float).abs());
            sum += (int - float).abs();
            spread = spread.max(float.abs());
        }
        let mean = sum / positions.len() as f32;
        eprintln!("{shape:?}: integer vs dequantised: worst {worst_exact} cp; vs float: mean {mean} cp, worst {worst} cp, evals up to {spread} cp");
        assert!(
            worst_exact < 1.03,
            "integer vs dequantised float: {worst_exact} cp"
        );
        // Against the unquantised float net the rounding costs more, mostly that of the output weights: one
        // step of 1/QB = 1/64 is large beside trained output weights of about 0.1-0.2, and 2H lanes add up.
        assert!(
            mean <= 15.0 && worst <= 50.0,
            "integer vs float: mean {mean} cp, worst {worst} cp"
        );
        // The comparison means something only if the net's evaluations are far from zero.
        assert!(spread > 300.0, "evaluations span only {spread} cp");
    }
}

/// A short run of an 8-bucket mirrored net at the engine's hidden size, written to a file: the engine's
/// own evaluation of that file (loader, accumulators, mirroring, bucket choice, SIMD output) equals the
/// trainer's integer reference exactly and the float net's output within the quantisation error.
#[test]
fn engine_evaluates_a_trained_bucketed_mirrored_file_as_the_trainer_does() {
    engine_evaluates_as_the_trainer(corvid::eval::nnue::HIDDEN, false);
}

/// The same with four king buckets (a v3 file).
#[test]
fn engine_evaluates_a_trained_king_bucket_file_as_the_trainer_does() {
    engine_evaluates_as_the_trainer(corvid::eval::nnue::HIDDEN, true);
}

fn engine_evaluates_as_the_trainer(hidden: usize, king_buckets: bool) {
    use corvid::eval::nnue::Network;
    let shape = if king_buckets {
        kinged(hidden)
    } else {
        bucketed(hidden)
    };
    let data = synthetic(3000, 23);
    let dir = std::env::temp_dir().join(format!(
        "train_nnue_engine_{}_{king_buckets}",
        std::process::id()
    ));
    let mut cfg = quiet_config(4, 256, 0.01);
    cfg.out_dir = Some(dir.clone());
    let run = train::train(&cfg, train::fresh(shape, 8), &data, &[]).expect("training");
    let bytes = std::fs::read(dir.join("final.nnue")).expect("final net");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")),
        if king_buckets { 3 } else { 2 }
    );
    let engine = Network::from_bytes(&bytes).expect("the engine reads the trainer's file");
    assert_eq!((engine.buckets(), engine.mirrored()), (8, true));
    assert_eq!(engine.king_buckets(), shape.king_buckets);
    let q = QuantNet::decode(&bytes).expect("valid");
    let (mut n, mut worst, mut sum, mut spread) = (0, 0.0f32, 0.0f32, 0.0f32);
    let mut buckets = std::collections::HashSet::new();
    let mut mirrored = [false; 2];
    let mut kings = std::collections::HashSet::new();
    for line in data::synthetic_lines(1500, 29) {
        let fen = line.split('|').next().expect("fen").trim();
        let Ok(pos) = Position::from_fen(fen, false) else {
            continue; // random placements are often illegal (the side not to move in check)
        };
        let f = features(&line.parse::<ChessBoard>().expect("line"), &shape);
        let cp = engine.evaluate(&pos);
        assert_eq!(cp, q.evaluate(&f), "{fen}");
        let float = run.net.forward(&f) * 400.0;
        worst = worst.max((cp as f32 - float).abs());
        sum += (cp as f32 - float).abs();
        spread = spread.max(float.abs());
        buckets.insert(f.bucket);
        mirrored[usize::from(pos.king_square(pos.side_to_move()).0 % 8 >= 4)] = true;
        kings.insert(f.stm[0] / 768);
        n += 1;
    }
    let mean = sum / n as f32;
    eprintln!("engine vs float over {n} positions: mean {mean} cp, worst {worst} cp, evals up to {spread} cp, buckets {buckets:?}");
    assert!(n > 300, "only {n} legal positions");
    assert!(
        buckets.len() >= 5 && mirrored == [true, true] && kings.len() == shape.king_buckets,
        "{buckets:?} {mirrored:?} {kings:?}"
    );
    assert!(
        mean <= 15.0 && worst <= 60.0,
        "engine vs float: mean {mean} cp, worst {worst} cp"
    );
    assert!(spread > 300.0, "evaluations span only {spread} cp");
}

#[test]
fn net_file_size_header_and_checksum() {
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    let hidden = 24;
    let bytes = QuantNet::from_float(&Net::random(Shape::plain(hidden), 1))
        .expect("in range")
        .encode();
    assert_eq!(
        bytes.len(),
        32 + 1536 * hidden + 2 * hidden + 4 * hidden + 4 + 8
    );
    assert_eq!(bytes.len(), file_len(hidden));
    assert_eq!(&bytes[..8], b"CRVDNNUE");
    let word = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
    assert_eq!(
        [word(8), word(12), word(16), word(20), word(24), word(28)],
        [1, 24, 255, 64, 400, 0]
    );
    let body = bytes.len() - 8;
    assert_eq!(
        u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes")),
        fnv1a64(&bytes[..body])
    );
    // Every kind of damage is refused with its own reason.
    let mut flipped = bytes.clone();
    flipped[1000] ^= 1;
    assert!(QuantNet::decode(&flipped)
        .unwrap_err()
        .to_string()
        .contains("checksum"));
    assert!(QuantNet::decode(&bytes[..bytes.len() - 2])
        .unwrap_err()
        .to_string()
        .contains("size"));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(QuantNet::decode(&magic)
        .unwrap_err()
        .to_string()
        .contains("magic"));
    let mut version = bytes.clone();
    version[8] = 4;
    assert!(QuantNet::decode(&version)
        .unwrap_err()
        .to_string()
        .contains("version"));
    let mut qa = bytes.clone();
    qa[16] = 0;
    assert!(QuantNet::decode(&qa)
        .unwrap_err()
        .to_string()
        .contains("QA"));
    // Version 2: 8 output buckets and mirroring in a 40-byte header, an output layer per bucket.
    for (shape, flags) in [
        (bucketed(hidden), 1),
        (
            Shape {
                buckets: 8,
                mirror: false,
                ..bucketed(hidden)
            },
            0,
        ),
        (
            Shape {
                buckets: 1,
                ..bucketed(hidden)
            },
            1,
        ),
    ] {
        let v2 = QuantNet::from_float(&Net::random(shape, 1))
            .expect("in range")
            .encode();
        let b = shape.buckets;
        assert_eq!(
            v2.len(),
            40 + 1536 * hidden + 2 * hidden + b * (4 * hidden + 4) + 8
        );
        assert_eq!(v2.len(), shape.file_len());
        let word = |o: usize| u32::from_le_bytes(v2[o..o + 4].try_into().expect("4 bytes"));
        assert_eq!(
            (8..40).step_by(4).map(word).collect::<Vec<u32>>(),
            [2, 24, 255, 64, 400, b as u32, flags, 0]
        );
        assert_eq!(QuantNet::decode(&v2).expect("valid").shape, shape);
        for (at, value, reason) in [
            (28, 3, "buckets"),
            (28, 0, "buckets"),
            (32, 2, "flags"),
            (36, 1, "reserved"),
        ] {
            let mut bad = v2.clone();
            bad[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
            let err = QuantNet::decode(&bad).unwrap_err().to_string();
            assert!(err.contains(reason), "{err}");
        }
        assert!(QuantNet::decode(&v2[..v2.len() - 4])
            .unwrap_err()
            .to_string()
            .contains("size"));
    }
    // Version 3: v2's header, the king-bucket count, a reserved word and the 64-byte map (108 bytes), then
    // 768 feature rows per king bucket.
    let shape = kinged(hidden);
    let v3 = QuantNet::from_float(&Net::random(shape, 1))
        .expect("in range")
        .encode();
    assert_eq!(
        v3.len(),
        108 + 4 * 1536 * hidden + 2 * hidden + 8 * (4 * hidden + 4) + 8
    );
    let word = |o: usize| u32::from_le_bytes(v3[o..o + 4].try_into().expect("4 bytes"));
    assert_eq!(
        (8..44).step_by(4).map(word).collect::<Vec<u32>>(),
        [3, 24, 255, 64, 400, 8, 1, 4, 0]
    );
    assert_eq!(&v3[44..108], &shape.king_map);
    assert_eq!(QuantNet::decode(&v3).expect("valid").shape, shape);
    let mut bad = v3.clone();
    bad[44] = 9;
    let n = bad.len() - 8;
    let sum = fnv1a64(&bad[..n]);
    bad[n..].copy_from_slice(&sum.to_le_bytes());
    let err = QuantNet::decode(&bad).unwrap_err().to_string();
    assert!(err.contains("king buckets"), "{err}");
    // Out-of-range weights are an error, not a silent saturation.
    let mut big = Net::random(Shape::plain(8), 1);
    big.params[3] = 200.0;
    assert!(QuantNet::from_float(&big).is_err());
}

#[test]
fn training_lowers_validation_loss() {
    let mut records = synthetic(6000, 41);
    let val = data::split_validation(&mut records, 0.1, 3, 1);
    assert!(val.len() > 450 && val.len() < 750, "held out {}", val.len());
    let cfg = quiet_config(10, 128, 0.01);
    let s =
        train::train(&cfg, train::fresh(Shape::plain(32), 3), &records, &val).expect("training");
    let last = s.epochs.last().expect("epochs").2;
    assert_eq!(s.epochs.len(), 10);
    assert!(
        last < 0.3 * s.initial_val,
        "validation loss {} -> {last}",
        s.initial_val
    );
    // Material is what the scores measure: a queen up must now evaluate far above a queen down.
    let up = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 0 | 0.5"
        .parse::<ChessBoard>()
        .expect("fen");
    let down = "3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 0.5"
        .parse::<ChessBoard>()
        .expect("fen");
    let (up, down) = (
        s.net.forward(&s.net.features(&up)) * 400.0,
        s.net.forward(&s.net.features(&down)) * 400.0,
    );
    assert!(
        up > 300.0 && down < -300.0,
        "queen up {up} cp, queen down {down} cp"
    );
}

#[test]
fn checkpoint_round_trip_and_resume_continue_the_same_run() {
    let data = synthetic(1500, 51);
    let whole = train::train(
        &quiet_config(3, 200, 0.01),
        train::fresh(Shape::plain(16), 4),
        &data,
        &[],
    )
    .expect("train");

    let dir = std::env::temp_dir().join(format!("train_nnue_test_{}", std::process::id()));
    let mut cfg = quiet_config(3, 200, 0.01);
    cfg.out_dir = Some(dir.clone());
    cfg.schedule.epochs = 3;
    let mut first = cfg.clone();
    first.schedule.epochs = 1;
    let partial =
        train::train(&first, train::fresh(Shape::plain(16), 4), &data, &[]).expect("first epoch");
    assert_eq!(partial.epochs.len(), 1);
    let ck = Checkpoint::load(&dir.join("epoch1.ckpt")).expect("checkpoint");
    assert_eq!(ck.epochs_done, 1);
    assert_eq!(ck.net, partial.net);
    assert_eq!(
        Checkpoint::from_bytes(&ck.to_bytes()).expect("round trip"),
        ck
    );
    let mut damaged = ck.to_bytes();
    damaged[100] ^= 4;
    assert!(Checkpoint::from_bytes(&damaged).is_err());
    // A one-epoch run's cosine schedule is not the first third of a three-epoch run's, so the resume is
    // checked from the first checkpoint of a three-epoch run (which overwrites epoch1.ckpt).
    let rest =
        train::train(&cfg, train::fresh(Shape::plain(16), 4), &data, &[]).expect("three epochs");
    assert_eq!(
        rest.net, whole.net,
        "the same run writing files trains the same net"
    );
    let ck1 = Checkpoint::load(&dir.join("epoch1.ckpt")).expect("checkpoint of epoch 1");
    let resumed = train::train(&cfg, ck1, &data, &[]).expect("resumed");
    assert_eq!(
        resumed.epochs.iter().map(|e| e.0).collect::<Vec<_>>(),
        [2, 3]
    );
    assert_eq!(
        resumed.net, whole.net,
        "resuming after epoch 1 must reproduce the uninterrupted run"
    );
    let file = std::fs::read(dir.join("final.nnue")).expect("final net");
    assert_eq!(
        QuantNet::decode(&file).expect("valid"),
        QuantNet::from_float(&whole.net).expect("q")
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn checkpoints_keep_the_shape_and_version_1_still_loads() {
    let ck = train::fresh(bucketed(8), 3);
    assert_eq!(
        Checkpoint::from_bytes(&ck.to_bytes()).expect("round trip"),
        ck
    );
    let kings = train::fresh(kinged(8), 4);
    assert_eq!(
        Checkpoint::from_bytes(&kings.to_bytes()).expect("round trip"),
        kings
    );
    // Version 2: a 44-byte header without the king buckets.
    let v3 = ck.to_bytes();
    let mut v2 = v3[..28].to_vec();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    v2.extend(&v3[96..v3.len() - 8]);
    let sum = fnv1a64(&v2);
    v2.extend(sum.to_le_bytes());
    assert_eq!(Checkpoint::from_bytes(&v2).expect("version 2"), ck);
    // Version 1: a 40-byte header with a reserved word where version 2 has buckets and flags.
    let plain = train::fresh(Shape::plain(8), 3);
    let v3 = plain.to_bytes();
    let mut v1 = v3[..8].to_vec();
    for w in [1u32, 8, plain.epochs_done, 0] {
        v1.extend(w.to_le_bytes());
    }
    v1.extend(&v3[96..v3.len() - 8]);
    let sum = fnv1a64(&v1);
    v1.extend(sum.to_le_bytes());
    assert_eq!(Checkpoint::from_bytes(&v1).expect("version 1"), plain);
    // Unknown flags, a bucket count the format does not allow, or king buckets that do not fit their map
    // are refused.
    for (at, value) in [(20, 3u32), (24, 2), (28, 0), (28, 33), (28, 5)] {
        let mut bad = kings.to_bytes();
        bad[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let n = bad.len() - 8;
        let sum = fnv1a64(&bad[..n]);
        bad[n..].copy_from_slice(&sum.to_le_bytes());
        assert!(Checkpoint::from_bytes(&bad).is_err());
    }
}

#[test]
fn records_round_trip_through_a_file() {
    let records = synthetic(500, 61);
    let path = std::env::temp_dir().join(format!("train_nnue_records_{}.vf", std::process::id()));
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
        ChessBoard::write_to_bin(&mut w, &records).expect("write");
        // One corrupt record (a result of 7) after the first ones: skipped and counted.
        let mut bad = records[0];
        bad.result = 7;
        ChessBoard::write_to_bin(&mut w, &[bad]).expect("write");
    }
    // Records, though the name says games: the content decides.
    assert_eq!(data::detect(&path), Ok(data::DataFormat::Records));
    let loaded = data::load_files(&[&path]).expect("load");
    assert_eq!(loaded.records, records);
    assert_eq!(loaded.invalid, 1);
    // Half a record more, as a killed writer would leave: the file is refused, not partly read.
    {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("open");
        std::io::Write::write_all(&mut f, &[1, 2, 3, 4, 5]).expect("write");
    }
    let err = data::load_files(&[&path])
        .err()
        .expect("a cut records file");
    std::fs::remove_file(&path).ok();
    assert!(err.contains(&path.display().to_string()), "{err}");
    assert!(
        err.contains("not a whole number of 32-byte records"),
        "{err}"
    );
    // And the byte decoder agrees with the crate's own view of the struct.
    let bytes = ChessBoard::as_bytes_slice(&records[..1]);
    assert_eq!(
        data::parse_record(bytes.try_into().expect("32 bytes")),
        records[0]
    );
}

/// The committed sample of datagen games.
fn sample_games() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/training/sample.vf")
}

/// A temporary directory for one test, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("train_nnue_{tag}_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("write");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// A games file named like a records file (`data.bin`) is read as games: the format comes from the
/// content, not the name.
#[test]
fn a_games_file_named_data_bin_is_read_as_games() {
    let dir = TempDir::new("named_bin");
    let games = std::fs::read(sample_games()).expect("sample");
    let path = dir.write("data.bin", &games);
    assert_eq!(data::detect(&path), Ok(data::DataFormat::Games));
    let loaded = data::load_files(&[&path]).expect("load");
    let direct = corvid::tools::datagen::format::read_records(&sample_games()).expect("read");
    assert_eq!(loaded.records, direct);
    assert_eq!(loaded.invalid, 0);
}

/// Bytes that are neither format are refused with a message that names the file and says why, and a
/// `train` run given one (as training or as validation data) stops before it trains or writes anything.
#[test]
fn a_file_of_neither_format_is_refused_with_the_reason() {
    let dir = TempDir::new("garbage");
    let mut rng = Rng::new(5);
    let noise: Vec<u8> = (0..4096).map(|_| rng.below(256) as u8).collect();
    let text =
        b"positions,score\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,0\n".repeat(20);
    let cases = [
        ("noise.vf", noise.clone()),
        ("noise.bin", noise[..4064].to_vec()),
        ("table.csv", text),
        ("empty.vf", Vec::new()),
        ("zeros.bin", vec![0; 1024]),
    ];
    for (name, bytes) in &cases {
        let path = dir.write(name, bytes);
        let err = data::load_files(&[&path]).err().expect(name);
        assert!(err.contains(&path.display().to_string()), "{name}: {err}");
        assert!(err.contains("not training data"), "{name}: {err}");
        if !bytes.is_empty() {
            assert!(
                err.contains("neither corvid datagen's games"),
                "{name}: {err}"
            );
        }
    }
    let s = |p: &std::path::Path| p.to_str().expect("utf-8 path").to_string();
    let (good, bad, out) = (
        s(&sample_games()),
        s(&dir.0.join("noise.vf")),
        dir.0.join("run"),
    );
    for args in [
        vec![bad.as_str(), good.as_str()],
        vec![good.as_str(), "--val", bad.as_str()],
    ] {
        let mut line = vec!["t", "train"];
        line.extend(args);
        let out_s = s(&out);
        line.extend(["--hidden", "8", "--epochs", "1", "--out-dir", &out_s]);
        let cli = <crate::Cli as clap::Parser>::try_parse_from(&line).expect("command line");
        let err = crate::run(cli).expect_err("a bad file");
        assert!(err.contains(&bad), "{err}");
        assert!(!out.exists(), "nothing is written when a file is refused");
    }
}

/// A games file cut off inside a game is refused, with where its complete games end; so is one cut inside
/// its first game, and one with a move that is not legal where it is played. (Refusing is the safe choice:
/// reading the complete games would train on a file whose SHA-256 is no longer the manifest's, and a cut
/// is a sign of a writer that is still running or died.)
#[test]
fn a_truncated_or_damaged_games_file_is_refused() {
    let dir = TempDir::new("cut");
    let games = std::fs::read(sample_games()).expect("sample");
    let cut = dir.write("cut.vf", &games[..games.len() - 3]);
    // Recognised as games (its first game is whole), refused when read.
    assert_eq!(data::detect(&cut), Ok(data::DataFormat::Games));
    let err = data::load_files(&[&cut]).err().expect("a cut games file");
    assert!(err.contains(&cut.display().to_string()), "{err}");
    assert!(err.contains("ends inside game 6"), "{err}");
    assert!(err.contains("truncate -s"), "{err}");
    let (_, first_len) =
        corvid::tools::datagen::format::parse_game(&games).expect("a whole first game");
    let first = dir.write("first.vf", &games[..first_len - 4]);
    let err = data::load_files(&[&first])
        .err()
        .expect("cut in its first game");
    assert!(err.contains("ends inside its first game"), "{err}");
    // The fifth move of the first game replaced by one that goes nowhere (d4-d4).
    let mut damaged = games.clone();
    let at = 32 + 4 * 4;
    let d4 = 27u16;
    damaged[at..at + 2].copy_from_slice(&(d4 | d4 << 6).to_le_bytes());
    let path = dir.write("damaged.vf", &damaged);
    let err = data::load_files(&[&path]).err().expect("an illegal move");
    assert!(err.contains("move 5"), "{err}");
}

/// A small sample of `corvid datagen` games (6 games, seed 9, 2,500 nodes, net3) loads as their quiet
/// positions, the same as the datagen reader gives, and every record is a legal-looking board.
#[test]
fn game_files_load_as_their_quiet_positions() {
    let path = sample_games();
    let loaded = data::load_files(&[&path]).expect("load");
    let direct = corvid::tools::datagen::format::read_records(&path).expect("read");
    assert_eq!(loaded.records, direct);
    assert_eq!(loaded.invalid, 0);
    assert!(loaded.records.len() > 300, "{}", loaded.records.len());
    for r in &loaded.records {
        assert!(r.result <= 2);
        assert!(r.score.abs() < 32_000);
        assert_eq!(r.into_iter().filter(|&(p, _)| p & 7 == 5).count(), 2);
    }
    // Wins, draws and losses are all there, from the side to move's view.
    for result in 0..=2 {
        assert!(loaded.records.iter().any(|r| r.result == result));
    }
}

#[test]
fn data_features_match_the_engine_formula() {
    let plain = Shape::plain(8);
    // The start position: White's a2 pawn is feature 8 for White and 384 + 48 for Black.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let record = format!("{start} | 0 | 0.5")
        .parse::<ChessBoard>()
        .expect("fen");
    let f = features(&record, &plain);
    assert!(f.stm().contains(&8) && f.opp().contains(&(384 + 48)));
    assert_eq!(f.bucket, 0, "one bucket");
    // Mirrored: both kings are on the e-file, so both sides see the files flipped (a2 -> h2), and the 32
    // pieces are bucket 7.
    let m = features(&record, &bucketed(8));
    assert!(m.stm().contains(&15) && m.opp().contains(&(384 + 55)));
    assert_eq!(m.bucket, 7);
    // Black to move on the same board sees the mirror image: the same two feature lists, swapped.
    let black = format!("{} | 0 | 0.5", start.replace(" w ", " b "));
    let black = features(&black.parse::<ChessBoard>().expect("fen"), &plain);
    assert_eq!(sorted(black.stm()), sorted(f.opp()));
    assert_eq!(sorted(black.opp()), sorted(f.stm()));

    // King buckets: the start position's kings stand on e1 and e8, d1 after the flip: bucket 1 of four,
    // so every feature moves one block of 768 on.
    let k = features(&record, &kinged(8));
    assert!(k.stm().contains(&(768 + 15)) && k.opp().contains(&(768 + 384 + 55)));

    // On random positions the record's inputs (side-to-move relative) equal the engine's (absolute colours,
    // the engine's feature, mirror and bucket functions), and the independent reference's.
    for shape in [plain, bucketed(8), kinged(8)] {
        let (mut compared, mut flipped) = (0, [0; 2]);
        let mut buckets = std::collections::HashSet::new();
        for line in data::synthetic_lines(400, 71) {
            let fen = line.split('|').next().expect("fen").trim();
            let Ok(pos) = Position::from_fen(fen, false) else {
                continue; // random placements are often illegal (the side not to move in check)
            };
            let engine: Features = crate::position_features(&pos, &shape);
            let r = line.parse::<ChessBoard>().expect("line");
            let record = features(&r, &shape);
            assert_eq!(sorted(engine.stm()), sorted(record.stm()), "{fen}");
            assert_eq!(sorted(engine.opp()), sorted(record.opp()), "{fen}");
            assert_eq!(engine.bucket, record.bucket, "{fen}");
            let (rows, bucket) = reference_inputs(shape, &r);
            let as_u16 = |v: &[usize]| sorted(&v.iter().map(|&x| x as u16).collect::<Vec<_>>());
            assert_eq!(as_u16(&rows[0]), sorted(record.stm()), "{fen}");
            assert_eq!(as_u16(&rows[1]), sorted(record.opp()), "{fen}");
            assert_eq!(bucket, record.bucket, "{fen}");
            buckets.insert(record.bucket);
            for (side, king) in [pos.side_to_move(), pos.side_to_move().flip()]
                .into_iter()
                .enumerate()
            {
                flipped[side] += usize::from(pos.king_square(king).0 % 8 >= 4);
            }
            compared += 1;
        }
        assert!(compared > 100, "only {compared} legal positions compared");
        // Both mirror states of both perspectives, and most buckets, came up.
        assert!(
            flipped.iter().all(|&n| n > 20 && n < compared - 20),
            "{flipped:?}"
        );
        if shape.buckets > 1 {
            assert!(buckets.len() >= 5, "{buckets:?}");
        }
    }
}

#[test]
fn a_one_bucket_net_spread_to_eight_buckets_computes_the_same() {
    let net = spread_net(Shape::plain(16), 13);
    let spread = net.spread_buckets(8);
    assert_eq!(spread.shape.buckets, 8);
    for r in synthetic(200, 17) {
        let (one, eight) = (net.features(&r), spread.features(&r));
        assert_eq!(one.bucket, 0);
        assert_eq!(net.forward(&one), spread.forward(&eight));
    }
    // Quantised, each bucket holds the same integers.
    let q = QuantNet::from_float(&spread).expect("in range");
    let h2 = 2 * 16;
    assert!(q.out_w.chunks(h2).all(|b| b == &q.out_w[..h2]));
    assert!(q.out_b.iter().all(|&b| b == q.out_b[0]));
}

/// Spread to king buckets, a net computes exactly what it did (every bucket a copy of its feature
/// weights), and training then moves the buckets apart.
#[test]
fn a_net_spread_to_king_buckets_computes_the_same_and_specialises() {
    let net = spread_net(bucketed(16), 31);
    let kings = net.spread_king_buckets(kinged(16));
    assert_eq!(kings.shape, kinged(16));
    assert_eq!(kings.params.len(), kings.layout().len);
    let mut blocks = std::collections::HashSet::new();
    for r in synthetic(300, 37) {
        let (f, g) = (net.features(&r), kings.features(&r));
        blocks.insert(g.stm[0] / 768);
        assert_eq!(net.forward(&f), kings.forward(&g));
    }
    assert_eq!(blocks.len(), 4, "{blocks:?}");
    let data = synthetic(2000, 41);
    let trained = train::train(
        &quiet_config(2, 256, 0.01),
        Checkpoint {
            net: kings.clone(),
            ..train::fresh(kings.shape, 1)
        },
        &data,
        &[],
    )
    .expect("training")
    .net;
    let rows = 768 * 16;
    let (b0, b3) = (&trained.params[..rows], &trained.params[3 * rows..4 * rows]);
    assert!(b0 != b3, "the king buckets did not specialise");
}

#[test]
fn a_widened_net_computes_the_same_and_can_learn() {
    let shape = Shape {
        buckets: 8,
        mirror: true,
        ..Shape::plain(16)
    };
    let net = spread_net(Shape::plain(16), 21).spread_buckets(8);
    let net = Net { shape, ..net };
    let wide = net.widen(24, 5);
    assert_eq!(wide.shape.hidden, 24);
    assert_eq!(wide.params.len(), wide.layout().len);
    let mut buckets = std::collections::HashSet::new();
    for r in synthetic(300, 23) {
        let (f, g) = (net.features(&r), wide.features(&r));
        buckets.insert(f.bucket);
        assert_eq!(net.forward(&f), wide.forward(&g));
    }
    assert!(buckets.len() >= 3, "{buckets:?}");
    // The new neurons are not all alike: their feature weights differ, so training can tell them apart.
    let l = wide.layout();
    let new_w: Vec<f32> = (0..INPUTS).map(|i| wide.params[i * 24 + 20]).collect();
    assert!(new_w.iter().any(|&w| w != new_w[0]));
    assert!(wide.params[l.out_w..l.out_b]
        .chunks_exact(24)
        .all(|half| half[16..].iter().all(|&w| w == 0.0)));
    // And they learn: the new output weights get a gradient from the first batch.
    let batch = synthetic(256, 29);
    let order: Vec<u32> = (0..batch.len() as u32).collect();
    let mut workers = vec![Worker::new(wide.shape)];
    batch_gradients(&wide, &batch, &order, 0.0, &mut workers);
    let moved = workers[0].grad[l.out_w..l.out_b]
        .chunks_exact(24)
        .filter(|half| half[16..].iter().any(|&g| g != 0.0))
        .count();
    assert!(moved > 0, "no gradient reaches the new neurons");
}

#[test]
fn validation_is_held_out_in_whole_aligned_blocks() {
    // Each record's score is its index, so the held-out indices can be read back.
    let mut records = synthetic(20_000, 9);
    for (i, r) in records.iter_mut().enumerate() {
        r.score = i as i16;
    }
    let val = data::split_validation(&mut records, 0.2, 4, 100);
    let held: Vec<usize> = val.iter().map(|r| r.score as usize).collect();
    assert!(
        held.len() > 2000 && held.len() < 6000,
        "held out {}",
        held.len()
    );
    assert_eq!(held.len() % 100, 0, "only whole blocks are held out");
    for run in held.chunks(100) {
        assert_eq!(
            run[0] % 100,
            0,
            "a block starts at a multiple of the block size"
        );
        assert!(
            run.windows(2).all(|w| w[1] == w[0] + 1),
            "a block is consecutive"
        );
    }
    assert_eq!(records.len() + val.len(), 20_000);
    assert!(records.iter().all(|r| !held.contains(&(r.score as usize))));
}

fn sorted(v: &[u16]) -> Vec<u16> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

#[test]
fn validation_split_and_shuffle_are_deterministic() {
    let base = synthetic(2000, 81);
    let (mut a, mut b) = (base.clone(), base.clone());
    let (va, vb) = (
        data::split_validation(&mut a, 0.05, 5, 1),
        data::split_validation(&mut b, 0.05, 5, 1),
    );
    assert_eq!((&a, &va), (&b, &vb));
    assert_eq!(a.len() + va.len(), base.len());
    let mut c = base.clone();
    assert_ne!(
        data::split_validation(&mut c, 0.05, 6, 1),
        va,
        "another seed holds out other positions"
    );
    let order = data::epoch_order(1000, 5, 0);
    assert_eq!(order, data::epoch_order(1000, 5, 0));
    assert_ne!(order, data::epoch_order(1000, 5, 1));
    assert_eq!(sorted_u32(&order), (0..1000).collect::<Vec<u32>>());
    assert_eq!(
        Net::random(Shape::plain(16), 2),
        Net::random(Shape::plain(16), 2)
    );
    assert_ne!(
        Net::random(Shape::plain(16), 2),
        Net::random(Shape::plain(16), 3)
    );
}

fn sorted_u32(v: &[u32]) -> Vec<u32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

#[test]
fn learning_rate_schedules() {
    let mut s = LrSchedule {
        base: 0.001,
        kind: Schedule::Cosine,
        final_frac: 0.1,
        step_every: 2,
        gamma: 0.5,
        epochs: 10,
    };
    assert!((s.at(0, 0.0) - 0.001).abs() < 1e-9);
    assert!(
        (s.at(4, 1.0) - 0.00055).abs() < 1e-7,
        "half way: {}",
        s.at(4, 1.0)
    );
    assert!((s.at(9, 1.0) - 0.0001).abs() < 1e-9);
    assert!(s.at(3, 0.5) > s.at(3, 0.6));
    s.kind = Schedule::Step;
    assert_eq!(
        [s.at(0, 0.9), s.at(1, 0.5), s.at(2, 0.0), s.at(5, 0.0)],
        [0.001, 0.001, 0.0005, 0.00025]
    );
    s.kind = Schedule::Constant;
    assert_eq!(s.at(9, 1.0), 0.001);
}

#[test]
fn command_line_train_export_and_eval() {
    use clap::{CommandFactory, Parser};
    crate::Cli::command().debug_assert();
    let dir = std::env::temp_dir().join(format!("train_nnue_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let data = dir.join("data.bin");
    let s = |p: &std::path::Path| p.to_str().expect("utf-8 path").to_string();
    let parse = |args: &[&str]| crate::Cli::try_parse_from(args).expect("valid command line");
    crate::run(parse(&[
        "t",
        "synth",
        "--out",
        &s(&data),
        "--positions",
        "2000",
    ]))
    .expect("synth");
    let out = dir.join("run");
    let train = [
        "t",
        "train",
        &s(&data),
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--batch",
        "256",
        "--threads",
        "2",
        "--out-dir",
        &s(&out),
        "--progress-secs",
        "0",
        "--val-fraction",
        "0.1",
    ];
    crate::run(parse(&train)).expect("train");
    // The export of the last checkpoint is the final net, byte for byte.
    let exported = dir.join("exported.nnue");
    let ckpt = out.join("epoch2.ckpt");
    crate::run(parse(&[
        "t",
        "export",
        "--checkpoint",
        &s(&ckpt),
        "--out",
        &s(&exported),
    ]))
    .expect("export");
    let final_net = std::fs::read(out.join("final.nnue")).expect("final");
    assert_eq!(std::fs::read(&exported).expect("exported"), final_net);
    assert_eq!(
        std::fs::read(out.join("epoch2.nnue")).expect("epoch 2"),
        final_net
    );
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    crate::run(parse(&["t", "eval", "--net", &s(&exported), "--fen", fen])).expect("eval");
    // Bad input is an error, not a panic.
    assert!(crate::run(parse(&[
        "t",
        "eval",
        "--net",
        &s(&exported),
        "--fen",
        "8/8 w"
    ]))
    .is_err());
    assert!(crate::run(parse(&["t", "eval", "--net", &s(&data), "--fen", fen])).is_err());
    let (data_s, ckpt_s) = (s(&data), s(&ckpt));
    let resume = [
        "t", "train", &data_s, "--resume", &ckpt_s, "--hidden", "32", "--epochs", "3",
    ];
    let err = crate::run(parse(&resume)).expect_err("H differs from the checkpoint's");
    assert!(err.contains("--hidden"), "{err}");
    // --init starts from a net file's weights: with a learning rate of 0 the run's net is that file.
    let (init_out, final_s) = (s(&dir.join("init")), s(&out.join("final.nnue")));
    let init = [
        "t",
        "train",
        &data_s,
        "--init",
        &final_s,
        "--epochs",
        "1",
        "--batch",
        "256",
        "--lr",
        "0",
        "--out-dir",
        &init_out,
        "--progress-secs",
        "0",
    ];
    crate::run(parse(&init)).expect("train --init");
    assert_eq!(
        std::fs::read(dir.join("init").join("final.nnue")).expect("init run's net"),
        final_net
    );
    let bad_init = ["t", "train", &data_s, "--init", &data_s, "--epochs", "1"];
    let err = crate::run(parse(&bad_init)).expect_err("not a net file");
    assert!(err.contains("magic"), "{err}");
    let init_h = [
        "t", "train", &data_s, "--init", &final_s, "--hidden", "8", "--epochs", "1",
    ];
    let err = crate::run(parse(&init_h)).expect_err("H narrower than the net's");
    assert!(err.contains("--hidden"), "{err}");
    // A wider --hidden widens the --init net: at learning rate 0 the run's net evaluates exactly as its
    // parent, with the new width.
    let (wide_out, wide_s) = (dir.join("wide"), s(&dir.join("wide")));
    let mut wide = init.to_vec();
    let at = wide.iter().position(|a| *a == init_out).expect("--out-dir");
    wide[at] = &wide_s;
    wide.extend(["--hidden", "24"]);
    crate::run(parse(&wide)).expect("train --init --hidden 24");
    let (parent, widened) = (
        crate::load_net(&out.join("final.nnue")).expect("parent"),
        crate::load_net(&wide_out.join("final.nnue")).expect("widened"),
    );
    assert_eq!((parent.shape.hidden, widened.shape.hidden), (16, 24));
    assert_same_evaluations(
        &parent,
        &widened,
        &[
            corvid::chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ],
    );
    // An 8-bucket mirrored run writes v2 files that export and evaluate the same way.
    let (bucketed_out, bucketed_s) = (dir.join("bucketed"), s(&dir.join("bucketed")));
    let mut args = train.to_vec();
    let at = args.iter().position(|a| *a == s(&out)).expect("--out-dir");
    args[at] = &bucketed_s;
    args.extend(["--buckets", "8", "--mirror"]);
    crate::run(parse(&args)).expect("train --buckets 8 --mirror");
    let file = std::fs::read(bucketed_out.join("final.nnue")).expect("bucketed net");
    let q = QuantNet::decode(&file).expect("valid");
    assert_eq!(q.shape, bucketed(16));
    let (bucketed_net, bucketed_ckpt) = (
        s(&bucketed_out.join("final.nnue")),
        s(&bucketed_out.join("epoch2.ckpt")),
    );
    crate::run(parse(&["t", "eval", "--net", &bucketed_net, "--fen", fen])).expect("eval");
    let resume = [
        "t",
        "train",
        &data_s,
        "--resume",
        &bucketed_ckpt,
        "--buckets",
        "1",
        "--epochs",
        "3",
    ];
    let err = crate::run(parse(&resume)).expect_err("buckets differ from the checkpoint's");
    assert!(err.contains("--buckets"), "{err}");
    let err = crate::run(parse(&["t", "train", &data_s, "--buckets", "3"])).expect_err("3 buckets");
    assert!(err.contains("--buckets"), "{err}");
    spread_init(&dir, &init, &init_out, &final_net);
    king_bucket_runs(&dir, &data_s);
    assert!(
        crate::Cli::try_parse_from(["t", "train"]).is_err(),
        "data files are required"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Two net files evaluate each of `fens` alike (a net and the one it was widened or spread into).
fn assert_same_evaluations(a: &QuantNet, b: &QuantNet, fens: &[&str]) {
    for fen in fens {
        let pos = Position::from_fen(fen, false).expect("FEN");
        assert_eq!(
            a.evaluate(&crate::position_features(&pos, &a.shape)),
            b.evaluate(&crate::position_features(&pos, &b.shape)),
            "{fen}"
        );
    }
}

/// `--king-buckets`: a fresh run writes a v3 net; `--init` of a net without king buckets starts every
/// bucket from its feature weights (at learning rate 0 it evaluates as its parent); a resume or an --init
/// with other king buckets, a map that does not fit and 32 entries without mirroring are refused.
fn king_bucket_runs(dir: &std::path::Path, data: &str) {
    use clap::Parser;
    let parse = |args: &[&str]| crate::Cli::try_parse_from(args).expect("valid command line");
    let out = |name: &str| dir.join(name).to_str().expect("utf-8 path").to_string();
    let run = |name: &str, extra: &[&str]| {
        let o = out(name);
        let mut args = vec![
            "t",
            "train",
            data,
            "--hidden",
            "16",
            "--batch",
            "256",
            "--progress-secs",
            "0",
            "--out-dir",
            &o,
        ];
        if !extra.contains(&"--epochs") {
            args.extend(["--epochs", "1"]);
        }
        args.extend(extra);
        crate::run(parse(&args))
    };
    run("mirrored", &["--buckets", "8", "--mirror"]).expect("a mirrored net");
    let parent_s = out("mirrored") + "/final.nnue";
    run(
        "kings",
        &["--init", &parent_s, "--king-buckets", "4", "--lr", "0"],
    )
    .expect("--init --king-buckets 4");
    let parent = crate::load_net(std::path::Path::new(&parent_s)).expect("parent");
    let kings = crate::load_net(&dir.join("kings").join("final.nnue")).expect("spread");
    assert_eq!(kings.shape, kinged(16));
    assert_eq!(kings.ft_w, parent.ft_w.repeat(4));
    assert_same_evaluations(
        &parent,
        &kings,
        &[
            corvid::chess::STARTPOS,
            "r4rk1/ppp2ppp/2n5/8/8/5N2/PPP2PPP/2KR3R w - - 0 1",
            "8/5k2/8/3P4/8/1K6/8/8 b - - 0 1",
        ],
    );
    // A fresh run with a map of its own: 64 entries without mirroring.
    let map64 = (0..64)
        .map(|sq| ((sq / 8).min(1) * 2 + (sq % 8 >= 4) as usize).to_string())
        .collect::<Vec<_>>()
        .join(",");
    run("fresh", &["--king-buckets", &map64]).expect("a fresh 64-square map");
    let fresh = crate::load_net(&dir.join("fresh").join("final.nnue")).expect("fresh");
    assert_eq!((fresh.shape.king_buckets, fresh.shape.mirror), (4, false));
    let ckpt = out("kings") + "/epoch1.ckpt";
    for (extra, why) in [
        (
            vec!["--resume", &ckpt, "--king-buckets", "0,1"],
            "--king-buckets",
        ),
        (
            vec!["--resume", &ckpt, "--king-buckets", &map64],
            "--king-buckets",
        ),
        (vec!["--king-buckets", "4"], "32 need --mirror"),
        (vec!["--mirror", "--king-buckets", "0,2"], "--king-buckets"),
        (
            vec!["--mirror", "--king-buckets", "0,x"],
            "not a bucket number",
        ),
    ] {
        let err = run("refused", &extra).expect_err("refused");
        assert!(err.contains(why), "{extra:?}: {err}");
    }
    // Resuming with the same king buckets goes on.
    run(
        "kings",
        &["--resume", &ckpt, "--king-buckets", "4", "--epochs", "2"],
    )
    .expect("resume with the same king buckets");
}

/// `--init` of a one-bucket net (`init`: the arguments of a run from it, writing to `init_out`) with
/// `--buckets 8` starts every bucket from its output layer; it cannot take up mirroring.
fn spread_init(dir: &std::path::Path, init: &[&str], init_out: &str, final_net: &[u8]) {
    use clap::Parser;
    let parse = |args: &[&str]| crate::Cli::try_parse_from(args).expect("valid command line");
    let spread_out = dir.join("spread").to_str().expect("utf-8 path").to_string();
    let mut init8 = init.to_vec();
    let at = init8
        .iter()
        .position(|a| *a == init_out)
        .expect("--out-dir");
    init8[at] = &spread_out;
    init8.extend(["--buckets", "8"]);
    crate::run(parse(&init8)).expect("train --init --buckets 8");
    let spread = QuantNet::decode(
        &std::fs::read(dir.join("spread").join("final.nnue")).expect("spread net"),
    )
    .expect("valid");
    let plain = QuantNet::decode(final_net).expect("valid");
    assert_eq!((spread.shape.buckets, spread.shape.mirror), (8, false));
    assert_eq!(spread.ft_w, plain.ft_w);
    assert_eq!(spread.out_w, plain.out_w.repeat(8));
    assert_eq!(spread.out_b, plain.out_b.repeat(8));
    let mut mirror = init.to_vec();
    mirror.push("--mirror");
    let err = crate::run(parse(&mirror)).expect_err("a plain net cannot take up mirroring");
    assert!(err.contains("--mirror"), "{err}");
}
