//! The quantised network, its file ("corvid NNUE" v1 to v3, see `nets/FORMAT.md`) and a reference
//! integer evaluator written straight from the format, to cross-check the engine's.

use crate::data::{Features, INPUTS};
use crate::net::Net;
use crate::optim::CLIP;

// The file's constants, checksum, writer and reader are the engine's own (one definition of the format).
pub use corvid::eval::nnue::format::{Weights, QA, QB, SCALE};

/// The integer network: the format's own [`Weights`] (any hidden size; `encode` and `decode` are its file:
/// v1 for one bucket without mirroring, so such nets are written as before, v3 with king buckets, else v2).
pub type QuantNet = Weights;

/// What the trainer does with an integer network beyond writing and reading it.
pub trait Quantised: Sized {
    /// Quantises the float net: ft weights and bias round(x * QA), out weights round(x * QB), out biases
    /// round(x * QA * QB). Fails (instead of saturating silently) on a value outside i16.
    fn from_float(net: &Net) -> Result<Self, String>;
    /// The float net this one quantises: every weight divided by its scale. Quantising the result again
    /// gives this net back exactly, so a run started from it (`train --init`) begins where the file is.
    fn to_float(&self) -> Net;
    /// The evaluation in centipawns from the side to move's view, exactly as the format specifies, with the
    /// output weights and bias of `f`'s bucket:
    /// `out = (sum screlu(acc_stm) * w_stm + sum screlu(acc_opp) * w_opp) / QA + out_bias`,
    /// `eval = out * SCALE / (QA * QB)`, screlu(x) = clamp(x, 0, QA)^2, divisions truncating (Rust `/`).
    /// The sums are carried in i64 and must fit i32 as the format's i32 sums do (asserted in debug builds).
    fn evaluate(&self, f: &Features) -> i32;
}

fn to_i16(x: f32, q: i32, what: &str) -> Result<i16, String> {
    let v = (x * q as f32).round();
    if v.is_finite() && v >= f32::from(i16::MIN) && v <= f32::from(i16::MAX) {
        Ok(v as i16)
    } else {
        Err(format!("{what} {x} does not fit i16 after scaling by {q}"))
    }
}

impl Quantised for Weights {
    fn from_float(net: &Net) -> Result<Weights, String> {
        let l = net.layout();
        let p = &net.params;
        let conv = |s: &[f32], q: i32, what: &str| -> Result<Vec<i16>, String> {
            s.iter().map(|&x| to_i16(x, q, what)).collect()
        };
        let out_b = p[l.out_b..]
            .iter()
            .map(|&b| {
                let q = (b * (QA * QB) as f32).round();
                if q.is_finite() && q.abs() <= 1e9 {
                    Ok(q as i32)
                } else {
                    Err(format!("output bias {b} out of range"))
                }
            })
            .collect::<Result<Vec<i32>, String>>()?;
        // With king buckets a row is its bucket's own part plus the shared factor, kept within the clip
        // that bounds a single weight so that the engine's i16 sums cannot overflow.
        let h = net.shape.hidden;
        let ft_w: Vec<f32> = if l.factor == l.ft_b {
            p[..l.factor].to_vec()
        } else {
            let factor = &p[l.factor..l.ft_b];
            p[..l.factor]
                .iter()
                .enumerate()
                .map(|(k, w)| (w + factor[k % (INPUTS * h)]).clamp(-CLIP, CLIP))
                .collect()
        };
        Ok(Weights {
            shape: net.shape,
            ft_w: conv(&ft_w, QA, "feature weight")?,
            ft_b: conv(&p[l.ft_b..l.out_w], QA, "feature bias")?,
            out_w: conv(&p[l.out_w..l.out_b], QB, "output weight")?,
            out_b,
        })
    }

    fn to_float(&self) -> Net {
        let l = crate::net::Layout::new(self.shape);
        let mut params = Vec::with_capacity(l.len);
        let dequantise = |params: &mut Vec<f32>, block: &[i16], q: i32| {
            params.extend(block.iter().map(|&x| f32::from(x) / q as f32));
        };
        dequantise(&mut params, &self.ft_w, QA);
        // The file holds whole rows: with king buckets the factor starts at zero.
        params.resize(l.ft_b, 0.0);
        dequantise(&mut params, &self.ft_b, QA);
        dequantise(&mut params, &self.out_w, QB);
        params.extend(self.out_b.iter().map(|&b| b as f32 / (QA * QB) as f32));
        Net {
            shape: self.shape,
            params,
        }
    }

    fn evaluate(&self, f: &Features) -> i32 {
        let h = self.shape.hidden;
        let out_w = &self.out_w[f.bucket * 2 * h..][..2 * h];
        let mut sum = 0i64;
        for (feats, w) in [(f.stm(), &out_w[..h]), (f.opp(), &out_w[h..])] {
            let mut acc: Vec<i32> = self.ft_b.iter().map(|&b| i32::from(b)).collect();
            for &i in feats {
                for (a, &w) in acc.iter_mut().zip(&self.ft_w[i as usize * h..][..h]) {
                    *a += i32::from(w);
                }
            }
            for (a, &w) in acc.iter().zip(w) {
                let c = i64::from((*a).clamp(0, QA));
                sum += c * c * i64::from(w);
            }
        }
        debug_assert!(i32::try_from(sum).is_ok(), "output sum overflows i32");
        let out = sum / i64::from(QA) + i64::from(self.out_b[f.bucket]);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}
