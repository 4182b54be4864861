//! AdamW with weight clipping, the learning-rate schedule, and checkpoints (weights + optimiser state).

use crate::net::{Layout, Net, Shape};
use corvid::eval::nnue::format::{FLAG_MIRROR, KNOWN_FLAGS, OUTPUT_BUCKETS};
use std::path::Path;

/// Weights and biases are kept in [-CLIP, CLIP] so the quantised values fit the engine's i16 arithmetic
/// (1.98 * 255 = 505 per feature weight: 32 of them plus the bias stay below 32767).
pub const CLIP: f32 = 1.98;

/// AdamW (decoupled weight decay, bias-corrected moments) over the flat parameter vector.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken (for the bias correction, and the schedule on resume).
    pub step: u64,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;

impl AdamW {
    /// Zero state for `len` parameters.
    pub fn new(len: usize) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
        }
    }

    /// One step with the gradient that is the sum of `grads` (one buffer per thread), reduced and applied in
    /// parallel by parameter ranges. Weight decay `wd` applies to every parameter, then all but the output
    /// biases are clipped to [-CLIP, CLIP].
    pub fn step(&mut self, net: &mut Net, grads: &[&[f32]], lr: f32, wd: f32, threads: usize) {
        self.step += 1;
        let t = self.step as i32;
        let c1 = 1.0 / (1.0 - BETA1.powi(t));
        let c2 = 1.0 / (1.0 - BETA2.powi(t));
        // The output biases are the last parameters.
        let out_b = Layout::new(net.shape).out_b;
        let n = net.params.len();
        let share = n.div_ceil(threads.max(1)).max(1);
        let update = |start: usize, p: &mut [f32], m: &mut [f32], v: &mut [f32]| {
            for k in 0..p.len() {
                let mut g = 0.0;
                for buf in grads {
                    g += buf[start + k];
                }
                m[k] = BETA1 * m[k] + (1.0 - BETA1) * g;
                v[k] = BETA2 * v[k] + (1.0 - BETA2) * g * g;
                let mut x = p[k] * (1.0 - lr * wd);
                x -= lr * (m[k] * c1) / ((v[k] * c2).sqrt() + EPS);
                p[k] = if start + k >= out_b {
                    x
                } else {
                    x.clamp(-CLIP, CLIP)
                };
            }
        };
        std::thread::scope(|s| {
            for (i, ((p, m), v)) in net
                .params
                .chunks_mut(share)
                .zip(self.m.chunks_mut(share))
                .zip(self.v.chunks_mut(share))
                .enumerate()
            {
                let update = &update;
                s.spawn(move || update(i * share, p, m, v));
            }
        });
    }
}

/// How the learning rate falls over the run.
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
pub enum Schedule {
    /// lr * (f + (1 - f) * (1 + cos(pi * progress)) / 2), per batch; f = --final-lr-frac.
    Cosine,
    /// lr * gamma^(completed epochs / step-every).
    Step,
    /// lr throughout.
    Constant,
}

/// Parameters of the schedule.
#[derive(Clone, Copy, Debug)]
pub struct LrSchedule {
    /// The peak (first) rate.
    pub base: f32,
    /// The shape.
    pub kind: Schedule,
    /// Cosine: the last rate as a fraction of `base`.
    pub final_frac: f32,
    /// Step: epochs per step.
    pub step_every: usize,
    /// Step: the factor per step.
    pub gamma: f32,
    /// The run's length in epochs.
    pub epochs: usize,
}

impl LrSchedule {
    /// The rate at `epoch` (0-based) after `frac` of that epoch's batches.
    pub fn at(&self, epoch: usize, frac: f64) -> f32 {
        match self.kind {
            Schedule::Constant => self.base,
            Schedule::Step => self.base * self.gamma.powi((epoch / self.step_every.max(1)) as i32),
            Schedule::Cosine => {
                let progress = ((epoch as f64 + frac) / self.epochs.max(1) as f64).min(1.0);
                let c = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()) as f32;
                self.base * (self.final_frac + (1.0 - self.final_frac) * c)
            }
        }
    }
}

/// Everything needed to continue a run: the float network, the optimiser and how far it got.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The float weights.
    pub net: Net,
    /// The optimiser state.
    pub adam: AdamW,
    /// Epochs completed.
    pub epochs_done: u32,
    /// The --seed of the run (a resume with another seed is warned about: a different split and order).
    pub seed: u64,
}

const CKPT_MAGIC: &[u8; 8] = b"CRVDCKPT";
/// Version 2 added the net's output buckets and flags, version 3 its king buckets and their map; versions 1
/// (one bucket, no mirroring) and 2 (no king buckets) are still read.
const CKPT_VERSION: u32 = 3;

impl Checkpoint {
    /// The file: magic, version, H, epochs done, output buckets, the net file's flags word, king buckets,
    /// the king-bucket map (64 bytes), Adam step, seed (112 bytes), then params, m, v (f32 each, little
    /// endian), then the FNV-1a 64 checksum of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.net.params.len();
        let shape = self.net.shape;
        let mut out = Vec::with_capacity(112 + 12 * n + 8);
        out.extend_from_slice(CKPT_MAGIC);
        for w in [
            CKPT_VERSION,
            shape.hidden as u32,
            self.epochs_done,
            shape.buckets as u32,
            shape.flags(),
            shape.king_buckets as u32,
        ] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&shape.king_map);
        out.extend_from_slice(&self.adam.step.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        for block in [&self.net.params, &self.adam.m, &self.adam.v] {
            for x in block.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = corvid::eval::nnue::format::fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Parses [`Checkpoint::to_bytes`] (or a version 2 checkpoint: a 44-byte header without the king
    /// buckets, or a version 1: a 40-byte header with a reserved word where version 2 has buckets and flags,
    /// and no flags word), checking magic, version, shape, size and checksum.
    pub fn from_bytes(b: &[u8]) -> Result<Checkpoint, String> {
        if b.len() < 48 || &b[..8] != CKPT_MAGIC {
            return Err("not a Corvid trainer checkpoint (bad magic)".into());
        }
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let u64_at = |o: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&b[o..o + 8]);
            u64::from_le_bytes(a)
        };
        let hidden = u32_at(12) as usize;
        let version = u32_at(8);
        let (mut shape, header) = match version {
            1 => (Shape::plain(hidden), 40),
            2 | 3 => {
                let (buckets, flags) = (u32_at(20), u32_at(24));
                if (buckets != 1 && buckets != OUTPUT_BUCKETS as u32) || flags & !KNOWN_FLAGS != 0 {
                    return Err(format!(
                        "checkpoint with {buckets} output buckets and flags {flags:#x}"
                    ));
                }
                let shape = Shape {
                    buckets: buckets as usize,
                    mirror: flags & FLAG_MIRROR != 0,
                    ..Shape::plain(hidden)
                };
                (shape, if version == 3 { 112 } else { 44 })
            }
            v => {
                return Err(format!(
                    "checkpoint version {v} (expected 1 or {CKPT_VERSION})"
                ))
            }
        };
        if version == 3 {
            if b.len() < header {
                return Err("checkpoint cut inside its header".into());
            }
            shape.king_buckets = u32_at(28).min(1 << 16) as usize;
            shape.king_map.copy_from_slice(&b[32..96]);
            if let Some(why) = shape.king_map_error() {
                return Err(format!("checkpoint king buckets: {why}"));
            }
        }
        let n = Layout::new(shape).len;
        let expected = header + 12 * n + 8;
        if hidden == 0 || b.len() != expected {
            return Err(format!(
                "checkpoint size {} (expected {expected} for {shape:?})",
                b.len()
            ));
        }
        if u64_at(b.len() - 8) != corvid::eval::nnue::format::fnv1a64(&b[..b.len() - 8]) {
            return Err("checkpoint checksum mismatch".into());
        }
        let floats = |block: usize| -> Vec<f32> {
            b[header + 4 * n * block..header + 4 * n * (block + 1)]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        Ok(Checkpoint {
            net: Net {
                shape,
                params: floats(0),
            },
            adam: AdamW {
                m: floats(1),
                v: floats(2),
                step: u64_at(header - 16),
            },
            epochs_done: u32_at(16),
            seed: u64_at(header - 8),
        })
    }

    /// Writes the checkpoint (through a temporary file and a rename, so a crash never leaves half a file).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        write_atomic(path, &self.to_bytes())
    }

    /// Reads a checkpoint file.
    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let b = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Checkpoint::from_bytes(&b).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Writes `bytes` to `path` via `path.tmp` and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot rename onto {}: {e}", path.display()))
}
