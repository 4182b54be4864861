//! NNUE for orthodox chess and Chess960: a (768 -> 256) x 2 -> 1 network with SCReLU, in the integer form and
//! file format of the NNUE format note (`format.rs`), optionally with 8 output buckets chosen by the number of
//! pieces on the board and with horizontal mirroring by each perspective's king file (format v2), and with
//! king buckets, feature weights chosen by each perspective's own king square (format v3).
//!
//! - [`Network`]: the weights, loaded and validated from a file or from bytes, with a typed [`NetworkError`].
//! - [`default_network`]: the network embedded at build time: the file `EVALFILE` names, else
//!   `nets/corvid.nnue` when it exists (`build.rs` then sets `cfg(corvid_embedded_net)`), else none: the
//!   hand-crafted evaluation is used. Nothing here sets a network for the whole process: whoever builds a
//!   game hands it its network (the engine session owns the one `EvalFile` chose).
//! - [`NnueEval`]: what `ChessGame` carries to evaluate: the network with a stack of accumulators that follows
//!   make/unmake, and a refresh cache for king moves that change a view (`accumulator.rs`), or, holding no
//!   network, the hand-crafted evaluation. Datagen, which bootstraps from the hand-crafted evaluation, asks
//!   for it with [`NnueEval::hce`] (or the engine option `EvalFile` set to `<hce>`).
//! - `simd.rs`: the hot loops in AVX2 with a bit-identical scalar twin.

pub mod accumulator;
pub mod format;
pub mod simd;

pub use accumulator::{output_bucket, Accumulator, AccumulatorStack, Delta, RefreshCache};
pub use format::{NetworkError, Shape, HIDDEN, INPUTS, OUTPUT_BUCKETS, QA, QB, SCALE};

use crate::chess::{Color, Move, Position};
use crate::eval::EvalState;
use format::fnv1a64;
use simd::Lanes;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The evaluation is clamped to this (far from mate scores, whatever a network outputs).
pub const EVAL_LIMIT: i32 = 20_000;

/// One row of hidden lanes, aligned to a cache line.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub Lanes);

/// A loaded network, in the quantised integer form the file stores.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Feature-transformer weights: one row per feature (`INPUTS` rows per king bucket).
    pub(crate) ft_weights: Box<[Row]>,
    /// Feature-transformer biases.
    pub(crate) ft_bias: Row,
    /// The output layer of each bucket.
    pub(crate) out: Box<[OutputLayer]>,
    /// The file's shape: output buckets, mirroring, king buckets.
    shape: Shape,
    /// Each perspective's view ([`format::king_view`]) by its own king's square as it sees the board.
    pub(crate) views: [u8; 64],
    /// Every output weight within the SIMD output's exact range (true for nets trained with the usual
    /// clipping); otherwise the exact scalar output is used.
    fast_output: bool,
}

/// One output bucket's weights and bias.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct OutputLayer {
    /// `[side to move's half, opponent's half]`.
    w: [Row; 2],
    /// In QA * QB units.
    bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({INPUTS}->{HIDDEN}x2->1, {} output bucket(s){}{}, checksum {:016x})",
            self.buckets(),
            if self.shape.mirror { ", mirrored" } else { "" },
            if self.king_buckets() > 1 {
                format!(", {} king buckets", self.king_buckets())
            } else {
                String::new()
            },
            self.checksum()
        )
    }
}

impl Network {
    /// Reads and validates a network from its file bytes.
    ///
    /// # Errors
    /// A wrong magic, version, hidden size, constant, bucket count, flag, length or checksum (see
    /// [`NetworkError`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        // One pass of the checks (`decode`); a file of another hidden size is refused by `from_weights`.
        Network::from_weights(&format::Weights::decode(bytes)?)
    }

    /// Reads and validates a network file.
    ///
    /// # Errors
    /// [`NetworkError::Io`] when the file cannot be read, else as [`Network::from_bytes`].
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetworkError> {
        let path = path.as_ref();
        let io = |e: std::io::Error| NetworkError::Io(e.to_string());
        let len = std::fs::metadata(path).map_err(io)?.len();
        // Anything beyond the largest network's size is refused unread (someone passed the wrong file).
        let limit = format::max_file_len(HIDDEN) as u64;
        if len > limit {
            return Err(NetworkError::BadSize {
                len: len as usize,
                expected: format::file_len(HIDDEN),
            });
        }
        Network::from_bytes(&std::fs::read(path).map_err(io)?)
    }

    /// A network from the format's integers (any shape the format allows, hidden size `HIDDEN`).
    ///
    /// # Errors
    /// [`NetworkError::HiddenSize`] for another hidden size, [`NetworkError::BadBuckets`] for a bucket count
    /// the format does not allow, [`NetworkError::BadKingBuckets`] for king buckets it does not allow,
    /// [`NetworkError::BadSize`] when a section's length does not match the shape.
    pub fn from_weights(w: &format::Weights) -> Result<Network, NetworkError> {
        let s = w.shape;
        if s.hidden != HIDDEN {
            return Err(NetworkError::HiddenSize {
                file: s.hidden as u32,
                engine: HIDDEN,
            });
        }
        if s.buckets != 1 && s.buckets != OUTPUT_BUCKETS {
            return Err(NetworkError::BadBuckets(s.buckets as u32));
        }
        if let Some(why) = s.king_map_error() {
            return Err(NetworkError::BadKingBuckets(why));
        }
        // The file these sections would make (header and checksum around them), against the shape's.
        let bytes = |i16s: usize, i32s: usize| 2 * i16s + 4 * i32s;
        let len = s.file_len()
            - bytes(
                s.inputs() * HIDDEN + HIDDEN + s.buckets * 2 * HIDDEN,
                s.buckets,
            )
            + bytes(w.ft_w.len() + w.ft_b.len() + w.out_w.len(), w.out_b.len());
        let sections_fit = w.ft_w.len() == s.inputs() * HIDDEN
            && w.ft_b.len() == HIDDEN
            && w.out_w.len() == s.buckets * 2 * HIDDEN
            && w.out_b.len() == s.buckets;
        if !sections_fit {
            return Err(NetworkError::BadSize {
                len,
                expected: s.file_len(),
            });
        }
        let row = |s: &[i16]| {
            let mut r = Row([0; HIDDEN]);
            r.0.copy_from_slice(s);
            r
        };
        let out = w
            .out_w
            .chunks_exact(2 * HIDDEN)
            .zip(&w.out_b)
            .map(|(b, &bias)| OutputLayer {
                w: [row(&b[..HIDDEN]), row(&b[HIDDEN..])],
                bias,
            })
            .collect();
        let limit = simd::FAST_OUTPUT_WEIGHT;
        Ok(Network {
            ft_weights: w.ft_w.chunks_exact(HIDDEN).map(row).collect(),
            ft_bias: row(&w.ft_b),
            out,
            shape: s,
            views: std::array::from_fn(|sq| format::king_view(&s, sq) as u8),
            fast_output: w.out_w.iter().all(|x| (-limit..=limit).contains(x)),
        })
    }

    /// A one-bucket network without mirroring (a v1 file) from its quantised parts: `ft_weights`
    /// feature-major (`[f * HIDDEN + i]`, `INPUTS * HIDDEN` values), `ft_bias` (`HIDDEN`), `out_w` (`2 *
    /// HIDDEN`, the side to move's half first). `None` when a length is wrong.
    pub fn from_parts(
        ft_weights: &[i16],
        ft_bias: &[i16],
        out_w: &[i16],
        out_bias: i32,
    ) -> Option<Network> {
        if ft_weights.len() != INPUTS * HIDDEN
            || ft_bias.len() != HIDDEN
            || out_w.len() != 2 * HIDDEN
        {
            return None;
        }
        Network::from_weights(&format::Weights {
            shape: Shape::plain(HIDDEN),
            ft_w: ft_weights.to_vec(),
            ft_b: ft_bias.to_vec(),
            out_w: out_w.to_vec(),
            out_b: vec![out_bias],
        })
        .ok()
    }

    /// Output buckets: 1 or [`OUTPUT_BUCKETS`].
    pub fn buckets(&self) -> usize {
        self.out.len()
    }

    /// Does the network mirror each perspective by its king's file?
    pub fn mirrored(&self) -> bool {
        self.shape.mirror
    }

    /// King buckets: 1 for a net without them.
    pub fn king_buckets(&self) -> usize {
        self.shape.king_buckets
    }

    /// The format's integers of this network.
    pub fn weights(&self) -> format::Weights {
        format::Weights {
            shape: self.shape,
            ft_w: self.ft_weights.iter().flat_map(|r| r.0).collect(),
            ft_b: self.ft_bias.0.to_vec(),
            out_w: self
                .out
                .iter()
                .flat_map(|l| &l.w)
                .flat_map(|r| r.0)
                .collect(),
            out_b: self.out.iter().map(|l| l.bias).collect(),
        }
    }

    /// The file bytes of this network (what [`Network::from_bytes`] reads), checksum included, in the
    /// version [`Shape::version`] gives.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.weights().encode()
    }

    /// The FNV-1a checksum its file carries (identifies a network in `eval` output).
    pub fn checksum(&self) -> u64 {
        let b = self.to_bytes();
        fnv1a64(&b[..b.len() - 8])
    }

    /// The output in centipawns, from the side to move's view, for `pos`'s accumulator `acc`:
    /// `(sum screlu(acc_stm) * w_stm + sum screlu(acc_opp) * w_opp) / QA + bias`, times `SCALE / (QA * QB)`,
    /// with the weights and bias of `pos`'s output bucket.
    #[inline]
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let layer = match &*self.out {
            [only] => only,
            buckets => &buckets[output_bucket(pos)],
        };
        let (us, them) = (&acc.lanes[stm.index()], &acc.lanes[stm.flip().index()]);
        let [w_us, w_them] = &layer.w;
        let sum = simd::output_sum(us, them, &w_us.0, &w_them.0, self.fast_output);
        let out = (sum / QA) as i64 + layer.bias as i64;
        let cp = out * SCALE as i64 / (QA * QB) as i64;
        cp.clamp(-EVAL_LIMIT as i64, EVAL_LIMIT as i64) as i32
    }

    /// The evaluation of `pos` from the side to move's view, computed from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&Accumulator::refresh(self, pos), pos)
    }
}

#[cfg(corvid_embedded_net)]
const EMBEDDED: Option<&[u8]> = Some(include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue")));
#[cfg(not(corvid_embedded_net))]
const EMBEDDED: Option<&[u8]> = None;

/// The network built into this binary (`EVALFILE`'s or `nets/corvid.nnue` at build time), or `None`: then the hand-crafted
/// evaluation is the default. `build.rs` has already validated the file, so it cannot fail here.
pub fn default_network() -> Option<Arc<Network>> {
    static DEFAULT: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| EMBEDDED.and_then(|b| Network::from_bytes(b).ok().map(Arc::new)))
        .clone()
}

/// The embedded network's file name as the build found it, or empty when none is embedded.
pub const EMBEDDED_NET_NAME: &str = env!("CORVID_NET_NAME");
/// The `EvalFile` value that chooses the hand-crafted evaluation.
pub const EVAL_FILE_HCE: &str = "<hce>";
/// The older spelling of "the embedded network", still accepted. Not advertised: python-chess and other UCI
/// readers split `default <default>` at the inner word `default`.
pub const EVAL_FILE_EMBEDDED_OLD: &str = "<default>";
/// `EvalFile`'s default, as Stockfish has it: the embedded network's file name (the hand-crafted evaluation's
/// `<hce>` when none is embedded).
pub const EVAL_FILE_DEFAULT: &str = if EMBEDDED_NET_NAME.is_empty() {
    EVAL_FILE_HCE
} else {
    EMBEDDED_NET_NAME
};

/// The network an `EvalFile` value names: empty, the embedded network's name or `<default>` for
/// [`default_network`], `<hce>` for none (the hand-crafted evaluation), anything else a path to load.
///
/// # Errors
/// The path's [`Network::load`] error.
pub fn network_for_option(value: &str) -> Result<Option<Arc<Network>>, NetworkError> {
    let value = value.trim();
    if value.is_empty()
        || value.eq_ignore_ascii_case(EVAL_FILE_EMBEDDED_OLD)
        || (!EMBEDDED_NET_NAME.is_empty() && value == EMBEDDED_NET_NAME)
    {
        Ok(default_network())
    } else if value.eq_ignore_ascii_case(EVAL_FILE_HCE) {
        Ok(None)
    } else {
        Network::load(value).map(|n| Some(Arc::new(n)))
    }
}

/// The `eval` command's network line(s) for `pos`: the network's output from White's view and the side to
/// move's, or a note that the hand-crafted evaluation is in use.
pub fn trace_line(net: Option<&Network>, pos: &Position) -> String {
    match net {
        None => "NNUE: no network; the hand-crafted evaluation above is in use\n".to_string(),
        Some(net) => {
            let stm = net.evaluate(pos);
            let white = if pos.side_to_move() == Color::White {
                stm
            } else {
                -stm
            };
            format!(
                "NNUE network {:016x} (in use):\nNNUE evaluation (White's view): {white} cp\nNNUE evaluation (side to move): {stm} cp\n",
                net.checksum()
            )
        }
    }
}

/// The evaluator a `ChessGame` carries: a network and the accumulators of the current line, or no network
/// and the hand-crafted evaluation (`crate::eval::chess::evaluate`) unchanged.
#[derive(Clone, Debug)]
pub struct NnueEval {
    net: Option<Arc<Network>>,
    /// Present exactly when `net` is, once the game has been reset to a position.
    stack: Option<AccumulatorStack>,
}

impl NnueEval {
    /// Evaluates with `net`, or with the hand-crafted evaluation when `None`.
    pub fn new(net: Option<Arc<Network>>) -> NnueEval {
        NnueEval { net, stack: None }
    }

    /// The built-in network ([`default_network`]; the hand-crafted evaluation when none is embedded).
    pub fn default_net() -> NnueEval {
        NnueEval::new(default_network())
    }

    /// The hand-crafted evaluation, whatever network is embedded (datagen's bootstrap).
    pub fn hce() -> NnueEval {
        NnueEval::new(None)
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// The accumulator of the current position `pos`, brought up to date (`None` without a network). Tests
    /// hold it against `Accumulator::refresh`.
    pub fn accumulator(&mut self, pos: &Position) -> Option<&Accumulator> {
        match (&self.net, &mut self.stack) {
            (Some(net), Some(stack)) => Some(stack.current(net, pos)),
            _ => None,
        }
    }
}

impl Default for NnueEval {
    fn default() -> Self {
        NnueEval::default_net()
    }
}

impl EvalState for NnueEval {
    fn reset(&mut self, pos: &Position) {
        if let Some(net) = &self.net {
            match &mut self.stack {
                Some(s) => s.reset(net, pos),
                None => self.stack = Some(AccumulatorStack::new(net, pos)),
            }
        }
    }

    #[inline(always)]
    fn make_move(&mut self, pos: &Position, m: Move) {
        if let Some(s) = &mut self.stack {
            s.push(Delta::of_move(pos, m));
        }
    }

    #[inline(always)]
    fn make_null_move(&mut self) {
        if let Some(s) = &mut self.stack {
            s.push(Delta::default());
        }
    }

    #[inline(always)]
    fn unmake_move(&mut self) {
        if let Some(s) = &mut self.stack {
            s.pop();
        }
    }

    fn reserve(&mut self, plies: usize) {
        if let Some(s) = &mut self.stack {
            s.reserve(plies);
        }
    }

    #[inline(always)]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        match (&self.net, &mut self.stack) {
            (Some(net), Some(stack)) => net.output(stack.current(net, pos), pos),
            _ => crate::eval::chess::evaluate(pos),
        }
    }
}
