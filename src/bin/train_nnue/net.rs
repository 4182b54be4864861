//! The float network (768 -> H) x 2 -> 1 with SCReLU, one output layer per output bucket, its forward pass
//! and its gradient.
//!
//! All parameters live in one flat vector, `[ft_w (768 * K * H, feature-major) | factor (768 * H, with king
//! buckets only) | ft_b (H) | out_w (buckets x 2H) | out_b (buckets)]`, so the optimiser, the per-thread
//! gradient buffers and the checkpoint treat them as one array. The shape (H, buckets, mirroring, K king
//! buckets) is the file format's [`Shape`].
//!
//! With king buckets the feature weights are factorised: a feature's row in bucket b is `ft_w[b][f] +
//! factor[f]`, the factor shared by every bucket. Each position trains the factor, so a bucket that few
//! positions reach still has what all positions taught, and weight decay pulls the buckets' own parts (not
//! the sum) towards zero. The net file holds the sums (`quant.rs`); the engine never sees the factor.

use crate::data::{features, sigmoid, target, Features, INPUTS};
use bulletformat::ChessBoard;
pub use corvid::eval::nnue::format::Shape;
use corvid::rng::Rng;

/// The float parameters of a network of a given shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// Accumulator width H, output buckets, mirroring.
    pub shape: Shape,
    /// Every parameter, in the layout of the module doc.
    pub params: Vec<f32>,
}

/// Where each block of the flat parameter vector starts.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Start of the factor, the feature rows every king bucket shares (the weights start at 0; the factor
    /// ends at `ft_b`, empty without king buckets).
    pub factor: usize,
    /// Start of the feature-transformer bias.
    pub ft_b: usize,
    /// Start of the output weights (bucket `b`'s 2H at `out_w + b * 2H`).
    pub out_w: usize,
    /// Start of the output biases (one per bucket, the last parameters).
    pub out_b: usize,
    /// Number of parameters.
    pub len: usize,
}

impl Layout {
    /// The layout for a net of `shape`.
    pub fn new(shape: Shape) -> Layout {
        let hidden = shape.hidden;
        let factor = shape.inputs() * hidden;
        let ft_b = if shape.king_buckets > 1 {
            factor + INPUTS * hidden
        } else {
            factor
        };
        let out_w = ft_b + hidden;
        let out_b = out_w + shape.buckets * 2 * hidden;
        Layout {
            factor,
            ft_b,
            out_w,
            out_b,
            len: out_b + shape.buckets,
        }
    }

    /// Bucket `bucket`'s output weights (2H, the side to move's half first) in the flat vector.
    pub fn out_w(&self, shape: Shape, bucket: usize) -> std::ops::Range<usize> {
        let start = self.out_w + bucket * 2 * shape.hidden;
        start..start + 2 * shape.hidden
    }
}

/// SCReLU of the float form: clamp(x, 0, 1)^2.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl Net {
    /// A network with deterministic random weights: uniform in +-1/sqrt(fan-in) (768 for the feature
    /// transformer, 2H for each output bucket), biases zero. With king buckets the factor takes the random
    /// weights and the buckets' own parts start at zero.
    pub fn random(shape: Shape, seed: u64) -> Net {
        let hidden = shape.hidden;
        let l = Layout::new(shape);
        let mut rng = Rng::new(seed ^ 0x494e_4954);
        let mut params = vec![0.0; l.len];
        let a = 1.0 / (INPUTS as f32).sqrt();
        let random_rows = if shape.king_buckets > 1 { l.factor } else { 0 };
        for p in &mut params[random_rows..l.ft_b] {
            *p = rng.uniform(-a, a);
        }
        let a = 1.0 / ((2 * hidden) as f32).sqrt();
        for p in &mut params[l.out_w..l.out_b] {
            *p = rng.uniform(-a, a);
        }
        Net { shape, params }
    }

    /// The block offsets of this network.
    pub fn layout(&self) -> Layout {
        Layout::new(self.shape)
    }

    /// This one-bucket net with `buckets` output buckets, each a copy of its output layer: the same function,
    /// a start for training a bucketed net from a trained one.
    pub fn spread_buckets(&self, buckets: usize) -> Net {
        assert_eq!(self.shape.buckets, 1, "only a one-bucket net is spread");
        let shape = Shape {
            buckets,
            ..self.shape
        };
        let l = self.layout();
        let mut params = self.params[..l.out_b].to_vec();
        for _ in 1..buckets {
            params.extend_from_slice(&self.params[l.out_w..l.out_b]);
        }
        params.extend(std::iter::repeat_n(self.params[l.out_b], buckets));
        debug_assert_eq!(params.len(), Layout::new(shape).len);
        Net { shape, params }
    }

    /// This net without king buckets given those of `with` (a shape that differs from this one's only in
    /// its king buckets): the feature weights become the factor and every bucket's own part starts at zero,
    /// so the new net computes exactly the same function and training lets each bucket specialise from
    /// there.
    pub fn spread_king_buckets(&self, with: Shape) -> Net {
        assert_eq!(
            self.shape.king_buckets, 1,
            "only a net without king buckets is spread"
        );
        assert_eq!(
            Shape {
                king_buckets: 1,
                king_map: [0; 64],
                ..with
            },
            self.shape,
            "spreading changes only the king buckets"
        );
        let l = self.layout();
        let mut params = vec![0.0; Layout::new(with).factor];
        params.extend_from_slice(&self.params[..l.ft_b]);
        params.extend_from_slice(&self.params[l.ft_b..]);
        debug_assert_eq!(params.len(), Layout::new(with).len);
        Net {
            shape: with,
            params,
        }
    }

    /// This net with a wider accumulator (`hidden` > H): the new neurons get random feature weights (in the
    /// factor and the buckets' own parts alike, with king buckets) and zero output weights, so the widened
    /// net computes exactly the same function and training grows them from there (a start for a wider net
    /// from a trained one, rather than from random weights).
    pub fn widen(&self, hidden: usize, seed: u64) -> Net {
        let h = self.shape.hidden;
        assert!(hidden > h, "widening {h} to {hidden}");
        let shape = Shape {
            hidden,
            ..self.shape
        };
        let (old, new) = (self.layout(), Layout::new(shape));
        let mut rng = Rng::new(seed ^ 0x5749_4445);
        let a = 1.0 / (INPUTS as f32).sqrt();
        let mut params = Vec::with_capacity(new.len);
        for row in self.params[..old.ft_b].chunks_exact(h) {
            params.extend_from_slice(row);
            params.extend((h..hidden).map(|_| rng.uniform(-a, a)));
        }
        params.extend_from_slice(&self.params[old.ft_b..old.out_w]);
        params.extend(std::iter::repeat_n(0.0, hidden - h));
        for half in self.params[old.out_w..old.out_b].chunks_exact(h) {
            params.extend_from_slice(half);
            params.extend(std::iter::repeat_n(0.0, hidden - h));
        }
        params.extend_from_slice(&self.params[old.out_b..]);
        debug_assert_eq!(params.len(), new.len);
        Net { shape, params }
    }

    /// The inputs of a record for this net's shape.
    pub fn features(&self, r: &ChessBoard) -> Features {
        features(r, &self.shape)
    }

    /// Fills both accumulators (length H each) for `f`.
    pub fn accumulate(&self, f: &Features, acc_stm: &mut [f32], acc_opp: &mut [f32]) {
        let l = self.layout();
        let h = self.shape.hidden;
        let ft_w = &self.params[..l.factor];
        let factor = &self.params[l.factor..l.ft_b];
        let bias = &self.params[l.ft_b..l.out_w];
        for (acc, feats) in [(acc_stm, f.stm()), (acc_opp, f.opp())] {
            acc.copy_from_slice(bias);
            for &i in feats {
                let row = &ft_w[i as usize * h..][..h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
                if !factor.is_empty() {
                    let shared = &factor[i as usize % INPUTS * h..][..h];
                    for (a, w) in acc.iter_mut().zip(shared) {
                        *a += w;
                    }
                }
            }
        }
    }

    /// The raw output y (eval in units of 400 cp) from filled accumulators, through output bucket `bucket`.
    pub fn output(&self, acc_stm: &[f32], acc_opp: &[f32], bucket: usize) -> f32 {
        let l = self.layout();
        let (w1, w2) = self.params[l.out_w(self.shape, bucket)].split_at(self.shape.hidden);
        self.params[l.out_b + bucket] + screlu_dot(acc_stm, w1) + screlu_dot(acc_opp, w2)
    }

    /// The raw output y of a record's inputs (allocates; for tests, the trainer uses [`Worker`]).
    #[cfg(test)]
    pub fn forward(&self, f: &Features) -> f32 {
        let mut a = vec![0.0; self.shape.hidden];
        let mut b = vec![0.0; self.shape.hidden];
        self.accumulate(f, &mut a, &mut b);
        self.output(&a, &b, f.bucket)
    }
}

/// sum screlu(acc[i]) * w[i], in eight independent lanes so the compiler can vectorise the reduction.
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ac, ar) = (acc.chunks_exact(8), acc.chunks_exact(8).remainder());
    let wc = w.chunks_exact(8);
    let wr = wc.remainder();
    for (a, w) in ac.zip(wc) {
        for k in 0..8 {
            lanes[k] += screlu(a[k]) * w[k];
        }
    }
    let mut sum: f32 = lanes.iter().sum();
    for (a, w) in ar.iter().zip(wr) {
        sum += screlu(*a) * w;
    }
    sum
}

/// One thread's scratch: accumulators, their gradients and a dense gradient buffer for every parameter.
/// Dense (not touched-row lists) because a 16k batch touches nearly every feature row anyway, and the
/// buffer (3 MB at H = 256) is cleared and reduced in far less time than the batch takes.
pub struct Worker {
    /// The gradient of this thread's share of the batch, in the parameter layout.
    pub grad: Vec<f32>,
    acc_stm: Vec<f32>,
    acc_opp: Vec<f32>,
    d_stm: Vec<f32>,
    d_opp: Vec<f32>,
}

impl Worker {
    /// Scratch for a network of `shape`.
    pub fn new(shape: Shape) -> Worker {
        let hidden = shape.hidden;
        Worker {
            grad: vec![0.0; Layout::new(shape).len],
            acc_stm: vec![0.0; hidden],
            acc_opp: vec![0.0; hidden],
            d_stm: vec![0.0; hidden],
            d_opp: vec![0.0; hidden],
        }
    }

    /// Adds `scale` times the gradient of one record's squared error to `self.grad`; returns the error.
    pub fn backprop(&mut self, net: &Net, r: &ChessBoard, lambda: f32, scale: f32) -> f32 {
        let l = net.layout();
        let h = net.shape.hidden;
        let f = net.features(r);
        net.accumulate(&f, &mut self.acc_stm, &mut self.acc_opp);
        let p = sigmoid(net.output(&self.acc_stm, &self.acc_opp, f.bucket));
        let err = p - target(r, lambda);
        // d/dy (sigmoid(y) - t)^2 = 2 (p - t) p (1 - p)
        let g = 2.0 * err * p * (1.0 - p) * scale;

        // Only the position's bucket takes part in the output layer.
        let out = l.out_w(net.shape, f.bucket);
        let (w1, w2) = net.params[out.clone()].split_at(h);
        self.grad[l.out_b + f.bucket] += g;
        let (grad_ft, rest) = self.grad.split_at_mut(l.factor);
        let (grad_factor, rest) = rest.split_at_mut(l.ft_b - l.factor);
        let (grad_b, rest) = rest.split_at_mut(h);
        let (grad_w1, grad_w2) = rest[out.start - l.out_w..out.end - l.out_w].split_at_mut(h);
        for (acc, w, gw, d) in [
            (&self.acc_stm, w1, grad_w1, &mut self.d_stm),
            (&self.acc_opp, w2, grad_w2, &mut self.d_opp),
        ] {
            for i in 0..h {
                let a = acc[i];
                let c = a.clamp(0.0, 1.0);
                gw[i] += g * c * c;
                // screlu'(a) = 2a on (0, 1), 0 elsewhere; c is 0 below the range, so only the top needs a test.
                d[i] = if a < 1.0 { 2.0 * c * g * w[i] } else { 0.0 };
            }
        }
        for ((gb, ds), dopp) in grad_b.iter_mut().zip(&self.d_stm).zip(&self.d_opp) {
            *gb += ds + dopp;
        }
        for (feats, d) in [(f.stm(), &self.d_stm), (f.opp(), &self.d_opp)] {
            for &i in feats {
                let row = &mut grad_ft[i as usize * h..][..h];
                for (gr, di) in row.iter_mut().zip(d.iter()) {
                    *gr += di;
                }
                if !grad_factor.is_empty() {
                    let shared = &mut grad_factor[i as usize % INPUTS * h..][..h];
                    for (gr, di) in shared.iter_mut().zip(d.iter()) {
                        *gr += di;
                    }
                }
            }
        }
        err * err
    }
}

/// The mean-loss gradient of a batch (records `order[..]` of `data`) on `workers.len()` threads: each thread
/// fills its own buffer from its share; the caller reduces them (the optimiser does, in parallel).
/// Returns the sum of squared errors.
pub fn batch_gradients(
    net: &Net,
    data: &[ChessBoard],
    order: &[u32],
    lambda: f32,
    workers: &mut [Worker],
) -> f64 {
    let scale = 1.0 / order.len() as f32;
    let share = order.len().div_ceil(workers.len());
    let run = |w: &mut Worker, part: &[u32]| {
        w.grad.fill(0.0);
        let mut sum = 0.0f64;
        for &i in part {
            sum += f64::from(w.backprop(net, &data[i as usize], lambda, scale));
        }
        sum
    };
    if workers.len() == 1 {
        return run(&mut workers[0], order);
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = workers
            .iter_mut()
            .zip(order.chunks(share.max(1)).chain(std::iter::repeat(&[][..])))
            .map(|(w, part)| s.spawn(move || run(w, part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("gradient thread panicked"))
            .sum()
    })
}

/// Mean squared error over `data` on `threads` threads (NaN for an empty set).
pub fn mean_loss(net: &Net, data: &[ChessBoard], lambda: f32, threads: usize) -> f64 {
    if data.is_empty() {
        return f64::NAN;
    }
    let share = data.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = data
            .chunks(share)
            .map(|part| {
                s.spawn(move || {
                    let mut a = vec![0.0; net.shape.hidden];
                    let mut b = vec![0.0; net.shape.hidden];
                    part.iter()
                        .map(|r| {
                            let f = net.features(r);
                            net.accumulate(&f, &mut a, &mut b);
                            let err = sigmoid(net.output(&a, &b, f.bucket)) - target(r, lambda);
                            f64::from(err * err)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread panicked"))
            .sum()
    });
    total / data.len() as f64
}
