//! The network file, "corvid NNUE" versions 1 and 2 (the NNUE format note, `nets/FORMAT.md`, is the contract
//! with datagen and the trainer): header constants, layout, checksum, validation, the one writer and reader
//! of its integers, and the rules that give a position its inputs (feature indices, king mirroring, output
//! bucket). The engine and the trainer (`bin/train_nnue`) both use them. Standalone (it uses nothing from the
//! crate) so that `build.rs` can include it and refuse to embed a malformed default network.
//!
//! Little endian: `b"CRVDNNUE"`, then u32 version, H, QA (255), QB (64), SCALE (400), then
//! - v1: reserved (0); 32-byte header; one output bucket, no mirroring;
//! - v2: output buckets (1 or 8), flags (bit 0: horizontal mirroring; no other bit may be set), reserved (0);
//!   40-byte header.
//!
//! Then the feature weights as i16, feature-major (`[f * H + i]`, 768 features); the feature biases (H x
//! i16); the output weights (buckets x 2H x i16, bucket by bucket, each the side to move's half first); the
//! output biases (buckets x i32); an FNV-1a 64 checksum of every byte before it. The writer uses v1 for a net
//! with one bucket and no mirroring (so such nets keep their v1 bytes) and v2 otherwise.
//!
//! Feature of a piece for perspective P: `(colour != P) * 384 + type * 64 + square`, the square seen from P
//! (`^ 56` for Black) and, in a mirroring net when P's own king stands on files e-h, also file-flipped
//! (`^ 7`). Output bucket: `(pieces on the board - 2) / 4`, at most 7 (see [`output_bucket`]).

use std::fmt;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"CRVDNNUE";
/// The first version: one output bucket, no mirroring.
pub const VERSION_1: u32 = 1;
/// The second version: output buckets and flags in the header.
pub const VERSION_2: u32 = 2;
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
/// Bytes before the weights in a v1 file.
pub const HEADER_LEN: usize = 32;
/// Bytes before the weights in a v2 file.
pub const HEADER_LEN_V2: usize = 40;
/// The number of output buckets of a bucketed net (the other allowed count is 1).
pub const OUTPUT_BUCKETS: usize = 8;
/// Flag bit: horizontal mirroring by the perspective's king file.
pub const FLAG_MIRROR: u32 = 1;
/// Every flag bit this reader knows.
pub const KNOWN_FLAGS: u32 = FLAG_MIRROR;

/// The output bucket of a position with `pieces` pieces on the board, kings included: `(pieces - 2) / 4`,
/// clamped to `0..=7`. Two kings alone are bucket 0, the full 32 pieces bucket 7; each bucket spans four
/// piece counts, so the output layer can weigh the hidden features differently as material comes off.
#[inline(always)]
pub const fn output_bucket(pieces: u32) -> usize {
    let b = pieces.saturating_sub(2) / 4;
    if b > 7 {
        7
    } else {
        b as usize
    }
}

/// Is a perspective mirrored (files flipped, `^ 7`) in a mirroring net? When its own king, at `king_sq` (a1 =
/// 0, as the perspective sees the board or as White does: the file is the same), stands on files e-h. Then
/// every king a perspective meets stands on a-d, and the net learns one half-board of king placements.
#[inline(always)]
pub const fn king_mirrors(king_sq: usize) -> bool {
    king_sq % 8 >= 4
}

/// The input index of a piece for one perspective, `theirs * 384 + kind * 64 + square`: `theirs` when the
/// piece is not the perspective's colour, `kind` 0 (pawn) to 5 (king), `sq` already seen from the
/// perspective (`^ 56` for Black), and its file flipped when `mirror` ([`king_mirrors`] of the perspective's
/// king, in a mirroring net).
#[inline(always)]
pub const fn feature_index(theirs: bool, kind: usize, sq: usize, mirror: bool) -> usize {
    theirs as usize * 384 + kind * 64 + (sq ^ if mirror { 7 } else { 0 })
}

/// What a file's header says about the network's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Hidden size H per perspective.
    pub hidden: usize,
    /// Output buckets: 1 or [`OUTPUT_BUCKETS`].
    pub buckets: usize,
    /// Horizontal mirroring by the perspective's king file ([`FLAG_MIRROR`]).
    pub mirror: bool,
}

impl Shape {
    /// One bucket, no mirroring: a v1 net.
    pub const fn plain(hidden: usize) -> Shape {
        Shape {
            hidden,
            buckets: 1,
            mirror: false,
        }
    }

    /// The version the writer uses for this shape: 1 when it needs nothing of v2's.
    pub const fn version(&self) -> u32 {
        if self.buckets == 1 && !self.mirror {
            VERSION_1
        } else {
            VERSION_2
        }
    }

    /// The flags word of a v2 header.
    pub const fn flags(&self) -> u32 {
        if self.mirror {
            FLAG_MIRROR
        } else {
            0
        }
    }

    /// Size in bytes of a file of this shape written in `version`: header, feature weights, feature biases,
    /// output weights, output biases, checksum.
    pub const fn file_len_in(&self, version: u32) -> usize {
        let header = if version == VERSION_1 {
            HEADER_LEN
        } else {
            HEADER_LEN_V2
        };
        let h = self.hidden;
        header + INPUTS * h * 2 + h * 2 + self.buckets * (2 * h * 2 + 4) + 8
    }

    /// Size in bytes of the file the writer makes for this shape.
    pub const fn file_len(&self) -> usize {
        self.file_len_in(self.version())
    }
}

/// Size in bytes of a v1 file with hidden size `h`.
pub const fn file_len(h: usize) -> usize {
    Shape::plain(h).file_len()
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
    /// A version other than 1 and 2.
    BadVersion(u32),
    /// A hidden size other than the one this build computes with.
    HiddenSize { file: u32, engine: usize },
    /// QA, QB, SCALE or the reserved word differ from the format's.
    BadConstant {
        name: &'static str,
        found: u32,
        expected: u32,
    },
    /// A v2 header's output bucket count is neither 1 nor 8.
    BadBuckets(u32),
    /// A v2 header's flags set bits this reader does not know.
    BadFlags(u32),
    /// The length does not match the header's hidden size and buckets.
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
                "not a Corvid network: {len} bytes is shorter than its header"
            ),
            NetworkError::BadMagic => write!(f, "not a Corvid network (magic is not CRVDNNUE)"),
            NetworkError::BadVersion(v) => write!(
                f,
                "network format version {v} (this engine reads {VERSION_1} and {VERSION_2})"
            ),
            NetworkError::HiddenSize { file, engine } => write!(
                f,
                "network hidden size {file}, but this engine is built for {engine}"
            ),
            NetworkError::BadConstant {
                name,
                found,
                expected,
            } => write!(f, "network header {name} is {found}, expected {expected}"),
            NetworkError::BadBuckets(n) => write!(
                f,
                "network output buckets {n} (this engine reads 1 or {OUTPUT_BUCKETS})"
            ),
            NetworkError::BadFlags(flags) => write!(
                f,
                "network flags {flags:#x} set bits this engine does not know (it knows {KNOWN_FLAGS:#x})"
            ),
            NetworkError::BadSize { len, expected } => write!(
                f,
                "network file is {len} bytes, expected {expected} for its hidden size and output buckets"
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
pub fn validate(bytes: &[u8]) -> Result<Shape, NetworkError> {
    let shape = check(bytes)?;
    if shape.hidden != HIDDEN {
        return Err(NetworkError::HiddenSize {
            file: shape.hidden as u32,
            engine: HIDDEN,
        });
    }
    Ok(shape)
}

/// Checks a file of any hidden size (a trainer writes and reads other sizes than this build's): magic,
/// version, constants, buckets and flags (v2), length, checksum. Returns the file's shape.
pub fn check(bytes: &[u8]) -> Result<Shape, NetworkError> {
    if bytes.len() < HEADER_LEN {
        return Err(NetworkError::Truncated { len: bytes.len() });
    }
    if bytes[..8] != MAGIC {
        return Err(NetworkError::BadMagic);
    }
    let version = word(bytes, 8);
    let reserved_at = match version {
        VERSION_1 => 28,
        VERSION_2 if bytes.len() < HEADER_LEN_V2 => {
            return Err(NetworkError::Truncated { len: bytes.len() })
        }
        VERSION_2 => 36,
        _ => return Err(NetworkError::BadVersion(version)),
    };
    let h = word(bytes, 12);
    for (name, at, expected) in [
        ("QA", 16, QA as u32),
        ("QB", 20, QB as u32),
        ("SCALE", 24, SCALE as u32),
        ("reserved", reserved_at, 0),
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
    let mut shape = Shape::plain(h.min(1 << 16) as usize);
    if version == VERSION_2 {
        let buckets = word(bytes, 28);
        if buckets != 1 && buckets != OUTPUT_BUCKETS as u32 {
            return Err(NetworkError::BadBuckets(buckets));
        }
        let flags = word(bytes, 32);
        if flags & !KNOWN_FLAGS != 0 {
            return Err(NetworkError::BadFlags(flags));
        }
        shape.buckets = buckets as usize;
        shape.mirror = flags & FLAG_MIRROR != 0;
    }
    // The size is checked against the file's own H first, so that a well-formed net of another size is
    // reported as such rather than as a bad size. H is at most 65,536, so the length cannot overflow.
    let expected = shape.file_len_in(version);
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
    Ok(shape)
}

/// A network's integers, in file order, for any hidden size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Hidden size, output buckets, mirroring.
    pub shape: Shape,
    /// Feature weights, feature-major (`[f * H + i]`, `INPUTS * H` values).
    pub ft_w: Vec<i16>,
    /// Feature biases (H).
    pub ft_b: Vec<i16>,
    /// Output weights (buckets x 2H: bucket `b`'s at `[b * 2H..]`, the side to move's half first).
    pub out_w: Vec<i16>,
    /// Output biases (one per bucket), in units of 1 / (QA * QB).
    pub out_b: Vec<i32>,
}

impl Weights {
    /// The file: header, the sections, the checksum. The section lengths must match the shape. One bucket
    /// without mirroring is written as v1, anything else as v2.
    pub fn encode(&self) -> Vec<u8> {
        let s = self.shape;
        let h = s.hidden;
        assert!(
            self.ft_w.len() == INPUTS * h
                && self.ft_b.len() == h
                && self.out_w.len() == s.buckets * 2 * h
                && self.out_b.len() == s.buckets,
            "network sections do not match {s:?}"
        );
        assert!(
            s.buckets == 1 || s.buckets == OUTPUT_BUCKETS,
            "{} output buckets",
            s.buckets
        );
        let mut b = Vec::with_capacity(s.file_len());
        b.extend_from_slice(&MAGIC);
        let mut header = vec![s.version(), h as u32, QA as u32, QB as u32, SCALE as u32];
        if s.version() == VERSION_2 {
            header.extend([s.buckets as u32, s.flags()]);
        }
        header.push(0); // reserved
        for w in header {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for v in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.out_b {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a64(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(b.len(), s.file_len());
        b
    }

    /// Reads a file of any hidden size, after [`check`].
    pub fn decode(bytes: &[u8]) -> Result<Weights, NetworkError> {
        let shape = check(bytes)?;
        let h = shape.hidden;
        let mut at = if word(bytes, 8) == VERSION_1 {
            HEADER_LEN
        } else {
            HEADER_LEN_V2
        };
        let ft_w = take_i16(bytes, &mut at, INPUTS * h);
        let ft_b = take_i16(bytes, &mut at, h);
        let out_w = take_i16(bytes, &mut at, shape.buckets * 2 * h);
        let out_b = bytes[at..at + 4 * shape.buckets]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Weights {
            shape,
            ft_w,
            ft_b,
            out_w,
            out_b,
        })
    }
}

/// `n` little-endian i16 from `bytes[*at..]`, advancing `at`.
fn take_i16(bytes: &[u8], at: &mut usize, n: usize) -> Vec<i16> {
    let v = bytes[*at..*at + 2 * n]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    *at += 2 * n;
    v
}
