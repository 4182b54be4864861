//! The network file, "corvid NNUE" versions 1 to 3 (the NNUE format note, `nets/FORMAT.md`, is the contract
//! with datagen and the trainer): header constants, layout, checksum, validation, the one writer and reader
//! of its integers, and the rules that give a position its inputs (feature indices, king mirroring, king
//! buckets, output bucket). The engine and the trainer (`bin/train_nnue`) both use them. Standalone (it uses
//! nothing from the crate) so that `build.rs` can include it and refuse to embed a malformed default network.
//!
//! Little endian: `b"CRVDNNUE"`, then u32 version, H, QA (255), QB (64), SCALE (400), then
//! - v1: reserved (0); 32-byte header; one output bucket, no mirroring;
//! - v2: output buckets (1 or 8), flags (bit 0: horizontal mirroring; no other bit may be set), reserved (0);
//!   40-byte header;
//! - v3: as v2, then the number of king buckets K (2..=32), reserved (0), and the king-bucket map (64 bytes,
//!   one per square of the perspective's own king as it sees the board); 108-byte header.
//!
//! Then the feature weights as i16, feature-major (`[f * H + i]`, 768 features, K x 768 in v3); the feature
//! biases (H x i16); the output weights (buckets x 2H x i16, bucket by bucket, each the side to move's half
//! first); the output biases (buckets x i32); an FNV-1a 64 checksum of every byte before it. The writer uses
//! v1 for a net with one bucket, no mirroring and no king buckets (so such nets keep their v1 bytes), v3 for
//! a net with king buckets and v2 otherwise.
//!
//! Feature of a piece for perspective P: `bucket * 768 + (colour != P) * 384 + type * 64 + square`, the
//! square seen from P (`^ 56` for Black) and, in a mirroring net when P's own king stands on files e-h, also
//! file-flipped (`^ 7`); `bucket` is the map's entry for P's own king square, seen the same way (always 0
//! without king buckets). Output bucket: `(pieces on the board - 2) / 4`, at most 7 (see [`output_bucket`]).

use std::fmt;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"CRVDNNUE";
/// The first version: one output bucket, no mirroring.
pub const VERSION_1: u32 = 1;
/// The second version: output buckets and flags in the header.
pub const VERSION_2: u32 = 2;
/// The third version: v2's header with king buckets and their map.
pub const VERSION_3: u32 = 3;
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
/// Bytes before the weights in a v3 file.
pub const HEADER_LEN_V3: usize = 108;
/// The most king buckets a file may have.
pub const MAX_KING_BUCKETS: usize = 32;
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

/// How a perspective sees the board in a net of `shape`, packed as `king bucket * 2 + mirrored`: from its
/// own king's square `king_sq` as it sees it (`^ 56` for Black). Mirrored in a mirroring net when that
/// king stands on files e-h ([`king_mirrors`]); the king bucket is the map's entry for the king's square
/// after that flip. Two positions whose perspective has the same view share its feature weights, so a king
/// move that changes the view is where the engine rebuilds that perspective.
#[inline(always)]
pub const fn king_view(shape: &Shape, king_sq: usize) -> usize {
    let mirror = shape.mirror && king_mirrors(king_sq);
    let seen = if mirror { king_sq ^ 7 } else { king_sq };
    shape.king_map[seen] as usize * 2 + mirror as usize
}

/// The input index of a piece for one perspective, `bucket * 768 + theirs * 384 + kind * 64 + square`:
/// `theirs` when the piece is not the perspective's colour, `kind` 0 (pawn) to 5 (king), `sq` already seen
/// from the perspective (`^ 56` for Black), and the perspective's [`king_view`] `view`: its file flipped
/// when the view is mirrored, and the rows of the view's king bucket.
#[inline(always)]
pub const fn feature_index(theirs: bool, kind: usize, sq: usize, view: usize) -> usize {
    (view >> 1) * INPUTS + theirs as usize * 384 + kind * 64 + (sq ^ ((view & 1) * 7))
}

/// What a file's header says about the network's shape.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Hidden size H per perspective.
    pub hidden: usize,
    /// Output buckets: 1 or [`OUTPUT_BUCKETS`].
    pub buckets: usize,
    /// Horizontal mirroring by the perspective's king file ([`FLAG_MIRROR`]).
    pub mirror: bool,
    /// King buckets K: sets of feature weights, one chosen per perspective by its own king's square (1: none).
    pub king_buckets: usize,
    /// The king bucket of each square of the perspective's own king, as the perspective sees the board
    /// (after the file flip in a mirroring net, so only files a-d matter then). All 0 without king buckets.
    pub king_map: [u8; 64],
}

impl fmt::Debug for Shape {
    /// The map only when there are king buckets (64 zeros say nothing).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Shape {{ hidden: {}, buckets: {}, mirror: {}",
            self.hidden, self.buckets, self.mirror
        )?;
        if self.king_buckets > 1 {
            write!(
                f,
                ", king_buckets: {}, king_map: {:?}",
                self.king_buckets, self.king_map
            )?;
        }
        write!(f, " }}")
    }
}

impl Shape {
    /// One bucket, no mirroring, no king buckets: a v1 net.
    pub const fn plain(hidden: usize) -> Shape {
        Shape {
            hidden,
            buckets: 1,
            mirror: false,
            king_buckets: 1,
            king_map: [0; 64],
        }
    }

    /// Feature rows per perspective: 768 per king bucket.
    pub const fn inputs(&self) -> usize {
        INPUTS * self.king_buckets
    }

    /// The version the writer uses for this shape: 1 when it needs nothing of v2's, 3 with king buckets.
    pub const fn version(&self) -> u32 {
        if self.king_buckets > 1 {
            VERSION_3
        } else if self.buckets == 1 && !self.mirror {
            VERSION_1
        } else {
            VERSION_2
        }
    }

    /// This shape with `king_buckets` king buckets laid out by `map` (a square's bucket, as the perspective
    /// sees its own king; `map.len()` is 64, or 32 for files a-d, rank by rank, in a mirroring net). `None`
    /// when the map's length or an entry is wrong, or it leaves a bucket unused.
    pub fn with_king_buckets(self, map: &[u8]) -> Option<Shape> {
        let mut king_map = [0u8; 64];
        match map.len() {
            64 => king_map.copy_from_slice(map),
            32 if self.mirror => {
                for (sq, m) in king_map.iter_mut().enumerate() {
                    let file = sq % 8;
                    *m = map[sq / 8 * 4 + file.min(7 - file)];
                }
            }
            _ => return None,
        }
        let king_buckets = *king_map.iter().max()? as usize + 1;
        let shape = Shape {
            king_buckets,
            king_map,
            ..self
        };
        shape.king_map_error().is_none().then_some(shape)
    }

    /// What is wrong with the king buckets, if anything: a count outside 1..=32, an entry beyond it, or a
    /// bucket that no square uses (its weights would never be trained or read).
    pub const fn king_map_error(&self) -> Option<&'static str> {
        if self.king_buckets == 0 || self.king_buckets > MAX_KING_BUCKETS {
            return Some("king buckets outside 1..=32");
        }
        let mut used = [false; MAX_KING_BUCKETS];
        let mut sq = 0;
        while sq < 64 {
            let b = self.king_map[sq] as usize;
            if b >= self.king_buckets {
                return Some("a king-bucket map entry beyond the bucket count");
            }
            // In a mirroring net only files a-d are read.
            if !self.mirror || !king_mirrors(sq) {
                used[b] = true;
            }
            sq += 1;
        }
        let mut b = 0;
        while b < self.king_buckets {
            if !used[b] {
                return Some("a king bucket that no square uses");
            }
            b += 1;
        }
        None
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
        let header = header_len(version);
        let h = self.hidden;
        header + self.inputs() * h * 2 + h * 2 + self.buckets * (2 * h * 2 + 4) + 8
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

/// The largest file a net with hidden size `h` can be: 8 output buckets and 32 king buckets.
pub const fn max_file_len(h: usize) -> usize {
    let mut s = Shape::plain(h);
    s.buckets = OUTPUT_BUCKETS;
    s.king_buckets = MAX_KING_BUCKETS;
    s.file_len_in(VERSION_3)
}

/// Bytes before the weights in a file of `version` (1 to 3).
pub const fn header_len(version: u32) -> usize {
    match version {
        VERSION_1 => HEADER_LEN,
        VERSION_2 => HEADER_LEN_V2,
        _ => HEADER_LEN_V3,
    }
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
    /// A version other than 1 to 3.
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
    /// A v3 header's king buckets: a count outside 2..=32, or a map that does not fit it.
    BadKingBuckets(&'static str),
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
                "network format version {v} (this engine reads {VERSION_1} to {VERSION_3})"
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
            NetworkError::BadKingBuckets(why) => write!(f, "network king buckets: {why}"),
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
/// version, constants, buckets and flags (v2, v3), king buckets (v3), length, checksum. Returns the file's
/// shape.
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
        VERSION_2 | VERSION_3 if bytes.len() < header_len(version) => {
            return Err(NetworkError::Truncated { len: bytes.len() })
        }
        VERSION_2 => 36,
        VERSION_3 => 40,
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
    if version != VERSION_1 {
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
    if version == VERSION_3 {
        let k = word(bytes, 36);
        if !(2..=MAX_KING_BUCKETS as u32).contains(&k) {
            return Err(NetworkError::BadKingBuckets("a count outside 2..=32"));
        }
        shape.king_buckets = k as usize;
        shape.king_map.copy_from_slice(&bytes[44..108]);
        if let Some(why) = shape.king_map_error() {
            return Err(NetworkError::BadKingBuckets(why));
        }
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
    /// Feature weights, feature-major (`[f * H + i]`, `shape.inputs() * H` values).
    pub ft_w: Vec<i16>,
    /// Feature biases (H).
    pub ft_b: Vec<i16>,
    /// Output weights (buckets x 2H: bucket `b`'s at `[b * 2H..]`, the side to move's half first).
    pub out_w: Vec<i16>,
    /// Output biases (one per bucket), in units of 1 / (QA * QB).
    pub out_b: Vec<i32>,
}

impl Weights {
    /// The file: header, the sections, the checksum. The section lengths must match the shape. The version
    /// is [`Shape::version`]'s: v1 when the net needs nothing more, v3 with king buckets, else v2.
    pub fn encode(&self) -> Vec<u8> {
        let s = self.shape;
        let h = s.hidden;
        assert!(
            self.ft_w.len() == s.inputs() * h
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
        assert!(s.king_map_error().is_none(), "king buckets of {s:?}");
        let mut b = Vec::with_capacity(s.file_len());
        b.extend_from_slice(&MAGIC);
        let mut header = vec![s.version(), h as u32, QA as u32, QB as u32, SCALE as u32];
        if s.version() != VERSION_1 {
            header.extend([s.buckets as u32, s.flags()]);
        }
        if s.version() == VERSION_3 {
            header.push(s.king_buckets as u32);
        }
        header.push(0); // reserved
        for w in header {
            b.extend_from_slice(&w.to_le_bytes());
        }
        if s.version() == VERSION_3 {
            b.extend_from_slice(&s.king_map);
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
        let mut at = header_len(word(bytes, 8));
        let ft_w = take_i16(bytes, &mut at, shape.inputs() * h);
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
