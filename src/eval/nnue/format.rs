//! The network file, "corvid NNUE v1" (the NNUE format note is the contract with datagen and the trainer):
//! header constants, layout, checksum, validation, and the one writer and reader of its integers that the
//! engine and the trainer (`bin/train_nnue`) both use. Standalone (it uses nothing from the crate) so that
//! `build.rs` can include it and refuse to embed a malformed default network.
//!
//! Little endian: `b"CRVDNNUE"`, then u32 version (1), H, QA (255), QB (64), SCALE (400), reserved (0); the
//! feature weights as i16, feature-major (`[f * H + i]`, 768 features); the feature biases (H x i16); the
//! output weights (2H x i16, the side to move's half first); the output bias (i32); an FNV-1a 64 checksum of
//! every byte before it. Feature of a piece for perspective P: `(colour != P) * 384 + type * 64 + square`,
//! the square mirrored (`^ 56`) for Black.

use std::fmt;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"CRVDNNUE";
/// The only version this engine reads.
pub const VERSION: u32 = 1;
/// Features per perspective: colour relative to the perspective (2) x piece type (6) x square (64).
pub const INPUTS: usize = 768;
/// Hidden size per perspective that this build computes with (a file with another H is refused).
pub const HIDDEN: usize = 256;
/// Feature-transformer quantisation (the SCReLU clamp is at `QA`).
pub const QA: i32 = 255;
/// Output-layer quantisation.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// Bytes before the weights.
pub const HEADER_LEN: usize = 32;

/// Size in bytes of a file with hidden size `h`: header, feature weights, feature biases, output weights,
/// output bias, checksum.
pub const fn file_len(h: usize) -> usize {
    HEADER_LEN + INPUTS * h * 2 + h * 2 + 2 * h * 2 + 4 + 8
}

/// FNV-1a, 64 bits, of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read (the system's message).
    Io(String),
    /// Shorter than the header.
    Truncated { len: usize },
    /// The first eight bytes are not `CRVDNNUE`.
    BadMagic,
    /// A version other than 1.
    BadVersion(u32),
    /// A hidden size other than the one this build computes with.
    HiddenSize { file: u32, engine: usize },
    /// QA, QB, SCALE or the reserved word differ from the format's.
    BadConstant {
        name: &'static str,
        found: u32,
        expected: u32,
    },
    /// The length does not match the header's hidden size.
    BadSize { len: usize, expected: usize },
    /// The stored checksum differs from the computed one.
    BadChecksum { stored: u64, computed: u64 },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(e) => write!(f, "cannot read the file ({e})"),
            NetworkError::Truncated { len } => write!(
                f,
                "not a Corvid network: {len} bytes is shorter than the {HEADER_LEN}-byte header"
            ),
            NetworkError::BadMagic => write!(f, "not a Corvid network (magic is not CRVDNNUE)"),
            NetworkError::BadVersion(v) => {
                write!(f, "network format version {v} (this engine reads {VERSION})")
            }
            NetworkError::HiddenSize { file, engine } => write!(
                f,
                "network hidden size {file}, but this engine is built for {engine}"
            ),
            NetworkError::BadConstant {
                name,
                found,
                expected,
            } => write!(f, "network header {name} is {found}, expected {expected}"),
            NetworkError::BadSize { len, expected } => write!(
                f,
                "network file is {len} bytes, expected {expected} for its hidden size"
            ),
            NetworkError::BadChecksum { stored, computed } => write!(
                f,
                "network checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is damaged"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Checks a whole file for this build: [`check`], and the hidden size this build computes with.
pub fn validate(bytes: &[u8]) -> Result<(), NetworkError> {
    let h = check(bytes)?;
    if h != HIDDEN {
        return Err(NetworkError::HiddenSize {
            file: h as u32,
            engine: HIDDEN,
        });
    }
    Ok(())
}

/// Checks a file of any hidden size (a trainer writes and reads other sizes than this build's): magic,
/// version, constants, length, checksum. Returns the file's hidden size H.
pub fn check(bytes: &[u8]) -> Result<usize, NetworkError> {
    if bytes.len() < HEADER_LEN {
        return Err(NetworkError::Truncated { len: bytes.len() });
    }
    if bytes[..8] != MAGIC {
        return Err(NetworkError::BadMagic);
    }
    let version = word(bytes, 8);
    if version != VERSION {
        return Err(NetworkError::BadVersion(version));
    }
    let h = word(bytes, 12);
    for (name, at, expected) in [
        ("QA", 16, QA as u32),
        ("QB", 20, QB as u32),
        ("SCALE", 24, SCALE as u32),
        ("reserved", 28, 0),
    ] {
        let found = word(bytes, at);
        if found != expected {
            return Err(NetworkError::BadConstant {
                name,
                found,
                expected,
            });
        }
    }
    // The size is checked against the file's own H first, so that a well-formed net of another size is
    // reported as such rather than as a bad size. H is at most 65,536, so the length cannot overflow.
    let expected = file_len(h.min(1 << 16) as usize);
    if h == 0 || h > 1 << 16 || bytes.len() != expected {
        return Err(NetworkError::BadSize {
            len: bytes.len(),
            expected,
        });
    }
    let body = bytes.len() - 8;
    let mut stored = [0u8; 8];
    stored.copy_from_slice(&bytes[body..]);
    let stored = u64::from_le_bytes(stored);
    let computed = fnv1a64(&bytes[..body]);
    if stored != computed {
        return Err(NetworkError::BadChecksum { stored, computed });
    }
    Ok(h as usize)
}

/// A network's integers, in file order, for any hidden size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Hidden size H per perspective.
    pub hidden: usize,
    /// Feature weights, feature-major (`[f * H + i]`, `INPUTS * H` values).
    pub ft_w: Vec<i16>,
    /// Feature biases (H).
    pub ft_b: Vec<i16>,
    /// Output weights (2H, the side to move's half first).
    pub out_w: Vec<i16>,
    /// Output bias, in units of 1 / (QA * QB).
    pub out_b: i32,
}

impl Weights {
    /// The file: header, the sections, the checksum. The section lengths must match `hidden`.
    pub fn encode(&self) -> Vec<u8> {
        let h = self.hidden;
        assert!(
            self.ft_w.len() == INPUTS * h && self.ft_b.len() == h && self.out_w.len() == 2 * h,
            "network sections do not match H = {h}"
        );
        let mut b = Vec::with_capacity(file_len(h));
        b.extend_from_slice(&MAGIC);
        for w in [VERSION, h as u32, QA as u32, QB as u32, SCALE as u32, 0] {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for v in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.out_b.to_le_bytes());
        let sum = fnv1a64(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a file of any hidden size, after [`check`].
    pub fn decode(bytes: &[u8]) -> Result<Weights, NetworkError> {
        let h = check(bytes)?;
        let mut at = HEADER_LEN;
        let mut take = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_w = take(INPUTS * h);
        let ft_b = take(h);
        let out_w = take(2 * h);
        let bias = bytes.len() - 12;
        let out_b = i32::from_le_bytes([
            bytes[bias],
            bytes[bias + 1],
            bytes[bias + 2],
            bytes[bias + 3],
        ]);
        Ok(Weights {
            hidden: h,
            ft_w,
            ft_b,
            out_w,
            out_b,
        })
    }
}
