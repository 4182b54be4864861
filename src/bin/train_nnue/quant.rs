//! The quantised network, its file ("corvid NNUE v1", see `nets/FORMAT.md`) and a reference
//! integer evaluator written straight from the format, to cross-check the engine's.

use crate::data::{Features, INPUTS};
use crate::net::Net;

/// Feature-transformer quantisation (activations clamp at QA).
pub const QA: i32 = 255;
/// Output-weight quantisation.
pub const QB: i32 = 64;
/// Centipawns per unit of the float output.
pub const SCALE: i32 = 400;
/// File magic.
pub const MAGIC: &[u8; 8] = b"CRVDNNUE";
/// File version.
pub const VERSION: u32 = 1;
const HEADER: usize = 32;

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The integer network as the engine holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantNet {
    /// Accumulator width H.
    pub hidden: usize,
    /// Feature-major: feature f, lane i at `f * H + i`.
    pub ft_w: Vec<i16>,
    /// Feature-transformer bias, H values.
    pub ft_b: Vec<i16>,
    /// First H: side to move's accumulator, next H: the opponent's.
    pub out_w: Vec<i16>,
    /// Output bias, in units of 1 / (QA * QB).
    pub out_b: i32,
}

/// The size of a net file with `hidden` lanes.
pub fn file_size(hidden: usize) -> usize {
    HEADER + INPUTS * hidden * 2 + hidden * 2 + 2 * hidden * 2 + 4 + 8
}

fn to_i16(x: f32, q: i32, what: &str) -> Result<i16, String> {
    let v = (x * q as f32).round();
    if v.is_finite() && v >= f32::from(i16::MIN) && v <= f32::from(i16::MAX) {
        Ok(v as i16)
    } else {
        Err(format!("{what} {x} does not fit i16 after scaling by {q}"))
    }
}

impl QuantNet {
    /// Quantises the float net: ft weights and bias round(x * QA), out weights round(x * QB), out bias
    /// round(x * QA * QB). Fails (instead of saturating silently) on a value outside i16.
    pub fn from_float(net: &Net) -> Result<QuantNet, String> {
        let l = net.layout();
        let p = &net.params;
        let conv = |s: &[f32], q: i32, what: &str| -> Result<Vec<i16>, String> {
            s.iter().map(|&x| to_i16(x, q, what)).collect()
        };
        let out_b = (p[l.out_b] * (QA * QB) as f32).round();
        if !out_b.is_finite() || out_b.abs() > 1e9 {
            return Err(format!("output bias {} out of range", p[l.out_b]));
        }
        Ok(QuantNet {
            hidden: net.hidden,
            ft_w: conv(&p[..l.ft_b], QA, "feature weight")?,
            ft_b: conv(&p[l.ft_b..l.out_w], QA, "feature bias")?,
            out_w: conv(&p[l.out_w..l.out_b], QB, "output weight")?,
            out_b: out_b as i32,
        })
    }

    /// The float net this one quantises: every weight divided by its scale. Quantising the result again
    /// gives this net back exactly, so a run started from it (`train --init`) begins where the file is.
    pub fn to_float(&self) -> Net {
        let l = crate::net::Layout::new(self.hidden);
        let mut params = Vec::with_capacity(l.len);
        for (block, q) in [(&self.ft_w, QA), (&self.ft_b, QA), (&self.out_w, QB)] {
            params.extend(block.iter().map(|&x| f32::from(x) / q as f32));
        }
        params.push(self.out_b as f32 / (QA * QB) as f32);
        Net {
            hidden: self.hidden,
            params,
        }
    }

    /// The file bytes, checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_size(self.hidden));
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            0,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for block in [&self.ft_w, &self.ft_b, &self.out_w] {
            for v in block.iter() {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.out_b.to_le_bytes());
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Parses a net file, rejecting a wrong magic, version, constant, size or checksum.
    pub fn from_bytes(b: &[u8]) -> Result<QuantNet, String> {
        if b.len() < HEADER || &b[..8] != MAGIC {
            return Err("not a Corvid NNUE file (bad magic)".into());
        }
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        if u32_at(8) != VERSION {
            return Err(format!("version {} (expected {VERSION})", u32_at(8)));
        }
        let hidden = u32_at(12) as usize;
        for (name, o, want) in [
            ("QA", 16, QA as u32),
            ("QB", 20, QB as u32),
            ("SCALE", 24, SCALE as u32),
            ("reserved", 28, 0),
        ] {
            if u32_at(o) != want {
                return Err(format!("{name} is {} (expected {want})", u32_at(o)));
            }
        }
        if hidden == 0 || hidden > 1 << 16 || b.len() != file_size(hidden) {
            return Err(format!(
                "size {} does not match H = {hidden} (expected {})",
                b.len(),
                file_size(hidden.min(1 << 16))
            ));
        }
        let body = b.len() - 8;
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&b[body..]);
        if u64::from_le_bytes(sum) != fnv1a64(&b[..body]) {
            return Err("checksum mismatch".into());
        }
        let mut at = HEADER;
        let mut take = |n: usize| -> Vec<i16> {
            let v = b[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_w = take(INPUTS * hidden);
        let ft_b = take(hidden);
        let out_w = take(2 * hidden);
        let out_b = i32::from_le_bytes([b[body - 4], b[body - 3], b[body - 2], b[body - 1]]);
        Ok(QuantNet {
            hidden,
            ft_w,
            ft_b,
            out_w,
            out_b,
        })
    }

    /// The evaluation in centipawns from the side to move's view, exactly as the format specifies:
    /// `out = (sum screlu(acc_stm) * w_stm + sum screlu(acc_opp) * w_opp) / QA + out_bias`,
    /// `eval = out * SCALE / (QA * QB)`, screlu(x) = clamp(x, 0, QA)^2, divisions truncating (Rust `/`).
    /// The sums are carried in i64 and must fit i32 as the format's i32 sums do (asserted in debug builds).
    pub fn evaluate(&self, f: &Features) -> i32 {
        let h = self.hidden;
        let mut sum = 0i64;
        for (feats, w) in [(f.stm(), &self.out_w[..h]), (f.opp(), &self.out_w[h..])] {
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
        let out = sum / i64::from(QA) + i64::from(self.out_b);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}
