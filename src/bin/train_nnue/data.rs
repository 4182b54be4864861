//! Training data: bulletformat `ChessBoard` records (32 bytes, side-to-move relative, see
//! `nets/FORMAT.md`), read from record files or from datagen's game files (viriformat; each file's format is
//! recognised by its content, [`detect`], not by its name), their Chess768 features and output bucket (by
//! the format's rules, the engine's own), the blended target and the validation split.

use bulletformat::ChessBoard;
use corvid::rng::{mix, Rng};
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// Bytes per record: `occ` u64, `pcs` 16 bytes, `score` i16, `result`, `ksq`, `opp_ksq`, `extra` 3 bytes.
pub const RECORD_BYTES: usize = 32;
/// Features per perspective, as the network file defines them.
pub use corvid::eval::nnue::format::INPUTS;
use corvid::eval::nnue::format::{feature_index, king_view, output_bucket, Shape};
/// The evaluation scale of the format: target = sigmoid(score / 400), eval_cp = y * 400.
pub const EVAL_SCALE: f32 = corvid::eval::nnue::format::SCALE as f32;
/// At most 32 pieces on a board, so at most 32 active features per perspective.
pub const MAX_FEATURES: usize = 32;

/// Decodes one record from its little-endian bytes (the crate writes the `repr(C)` struct as is).
pub fn parse_record(b: &[u8; RECORD_BYTES]) -> ChessBoard {
    let mut pcs = [0u8; 16];
    pcs.copy_from_slice(&b[8..24]);
    ChessBoard {
        occ: u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        pcs,
        score: i16::from_le_bytes([b[24], b[25]]),
        result: b[26],
        ksq: b[27],
        opp_ksq: b[28],
        extra: [b[29], b[30], b[31]],
    }
}

/// Why a record cannot be trained on, if it cannot (a corrupt file or a different format).
pub fn check_record(r: &ChessBoard) -> Result<(), &'static str> {
    if r.result > 2 {
        return Err("result above 2");
    }
    let n = r.occ.count_ones() as usize;
    if n > MAX_FEATURES {
        return Err("more than 32 pieces");
    }
    for i in 0..n {
        if (r.pcs[i / 2] >> (4 * (i & 1))) & 7 > 5 {
            return Err("piece type above 5");
        }
    }
    Ok(())
}

/// Records that [`check_record`] passes and that also look like a chess position as the crate writes one:
/// at least two pieces, empty piece codes after the last piece, and exactly one king a side, on the squares
/// `ksq` and `opp_ksq` name (the latter from the opponent's side, rank-flipped). What recognises a file of
/// records; random bytes fail it almost always.
pub fn check_record_strictly(r: &ChessBoard) -> Result<(), &'static str> {
    check_record(r)?;
    let n = r.occ.count_ones() as usize;
    if n < 2 {
        return Err("fewer than 2 pieces");
    }
    let code = |i: usize| (r.pcs[i / 2] >> (4 * (i & 1))) & 15;
    if (n..32).any(|i| code(i) != 0) {
        return Err("piece codes after the last piece are not zero");
    }
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut occ = r.occ;
    for i in 0..n {
        let sq = occ.trailing_zeros() as u8;
        occ &= occ - 1;
        match code(i) {
            5 => ours.push(sq),
            13 => theirs.push(sq ^ 56),
            _ => {}
        }
    }
    if ours != [r.ksq] || theirs != [r.opp_ksq] {
        return Err("its kings are not one a side on the squares it names");
    }
    Ok(())
}

/// What a training file holds, as its content shows (its name plays no part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    /// `corvid datagen`'s whole games (viriformat): the quiet positions of every game are read.
    Games,
    /// 32-byte bulletformat `ChessBoard` records, one position each.
    Records,
}

/// Bytes of a file's start that [`detect`] reads: a datagen game is a few kilobytes at most.
const DETECT_BYTES: u64 = 1 << 16;
/// Leading records that must pass [`check_record_strictly`] for a file to be read as records.
const DETECT_RECORDS: usize = 64;

/// The format of a training file, from its content: games when its first game is well formed (its first
/// position plausible, every move legal, the terminator present: [`format::parse_game`]), records when its
/// size is a multiple of 32 bytes and its first records pass [`check_record_strictly`]; otherwise an error
/// that names the file and says why it is neither.
///
/// [`format::parse_game`]: corvid::tools::datagen::format::parse_game
pub fn detect(path: &Path) -> Result<DataFormat, String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot stat {}: {e}", path.display()))?
        .len();
    let mut head = Vec::new();
    file.take(DETECT_BYTES)
        .read_to_end(&mut head)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    detect_bytes(&head, len).map_err(|why| {
        format!(
            "{} is not training data that train_nnue reads: {why}",
            path.display()
        )
    })
}

/// [`detect`] on a file's first bytes `head` and its length `len`; the error says why the bytes are neither
/// format.
pub fn detect_bytes(head: &[u8], len: u64) -> Result<DataFormat, String> {
    use corvid::tools::datagen::format::{parse_game, GameError};
    if len == 0 {
        return Err("the file is empty".into());
    }
    let as_games = match parse_game(head) {
        Ok(_) => return Ok(DataFormat::Games),
        Err(GameError::Truncated) if (head.len() as u64) < len => {
            format!("no game ends in its first {} bytes", head.len())
        }
        // Everything up to the end was a game: this is a games file, cut off.
        Err(GameError::Truncated) => {
            return Err(format!(
                "a games file (viriformat) that ends inside its first game ({len} bytes): cut off while \
                 being written?"
            ))
        }
        Err(GameError::Malformed(why)) => format!("game 1: {why}"),
    };
    let as_records = if !len.is_multiple_of(RECORD_BYTES as u64) {
        format!("{len} bytes is not a whole number of {RECORD_BYTES}-byte records")
    } else {
        match head
            .chunks_exact(RECORD_BYTES)
            .take(DETECT_RECORDS)
            .enumerate()
            .find_map(|(i, b)| {
                let r = parse_record(b.try_into().expect("a whole record"));
                check_record_strictly(&r).err().map(|why| (i, why))
            }) {
            None => return Ok(DataFormat::Records),
            Some((i, why)) => format!("record {}: {why}", i + 1),
        }
    };
    Err(format!(
        "neither corvid datagen's games (viriformat; {as_games}) nor {RECORD_BYTES}-byte bulletformat \
         ChessBoard records ({as_records})"
    ))
}

/// Records loaded from files, with what was dropped.
pub struct Loaded {
    /// The valid records, in file order.
    pub records: Vec<ChessBoard>,
    /// Records that failed [`check_record`].
    pub invalid: usize,
}

/// Checks the format of every file ([`detect`]) before any is read: an error names the first file that is
/// neither format, so that a run with a bad file stops before it reads or trains anything.
pub fn check_files<P: AsRef<Path>>(paths: &[P]) -> Result<Vec<DataFormat>, String> {
    paths.iter().map(|p| detect(p.as_ref())).collect()
}

/// Reads every record of every file into memory, in file order: the quiet positions of every game of a
/// games file, every record of a records file. A file of neither format, a games file that is cut off
/// or malformed anywhere, and a records file whose size is not a whole number of records are errors.
pub fn load_files<P: AsRef<Path>>(paths: &[P]) -> Result<Loaded, String> {
    let mut out = Loaded {
        records: Vec::new(),
        invalid: 0,
    };
    for (path, format) in paths.iter().zip(check_files(paths)?) {
        let path = path.as_ref();
        let mut keep = |r: ChessBoard| {
            if check_record(&r).is_ok() {
                out.records.push(r);
            } else {
                out.invalid += 1;
            }
        };
        match format {
            DataFormat::Games => {
                for r in corvid::tools::datagen::format::read_records(path)? {
                    keep(r);
                }
            }
            DataFormat::Records => {
                let bytes = std::fs::read(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                // detect() saw the length; a file that changed since is refused, not half read.
                if bytes.len() % RECORD_BYTES != 0 {
                    return Err(format!(
                        "{}: {} bytes is not a whole number of {RECORD_BYTES}-byte records",
                        path.display(),
                        bytes.len()
                    ));
                }
                for b in bytes.chunks_exact(RECORD_BYTES) {
                    keep(parse_record(b.try_into().expect("a whole record")));
                }
            }
        }
    }
    Ok(out)
}

/// The active features of a position for both accumulators, and its output bucket.
#[derive(Clone, Copy)]
pub struct Features {
    /// Indices into the side to move's accumulator.
    pub stm: [u16; MAX_FEATURES],
    /// Indices into the opponent's accumulator.
    pub opp: [u16; MAX_FEATURES],
    /// How many of each are set.
    pub len: usize,
    /// The output bucket (0 in a one-bucket net).
    pub bucket: usize,
}

impl Features {
    /// The side to move's features.
    pub fn stm(&self) -> &[u16] {
        &self.stm[..self.len]
    }

    /// The opponent's features.
    pub fn opp(&self) -> &[u16] {
        &self.opp[..self.len]
    }
}

/// The inputs of a record for a net of `shape`, by the format's rules ([`feature_index`]): colour c (0 =
/// side to move's), type t, square sq (side to move's view) is `c * 384 + t * 64 + sq` for the side to move
/// and `(1 - c) * 384 + t * 64 + (sq ^ 56)` for the opponent; each perspective's [`king_view`] of its own
/// king's square (as it sees the board) may flip the file (`^ 7`, in a mirroring net) and choose a king
/// bucket (768 rows each). The bucket is [`output_bucket`] of the piece count in a bucketed net, else 0.
pub fn features(r: &ChessBoard, shape: &Shape) -> Features {
    let mut f = Features {
        stm: [0; MAX_FEATURES],
        opp: [0; MAX_FEATURES],
        len: 0,
        bucket: 0,
    };
    // check_record bounds the piece count, so at most 32 squares are visited.
    let mut pieces = [(0u16, 0u16); MAX_FEATURES];
    let mut kings = [0usize; 2];
    let mut occ = r.occ;
    while occ != 0 && f.len < MAX_FEATURES {
        let sq = occ.trailing_zeros() as u16;
        occ &= occ - 1;
        let piece = u16::from((r.pcs[f.len / 2] >> (4 * (f.len & 1))) & 15);
        if piece & 7 == 5 {
            kings[usize::from(piece >> 3)] = usize::from(sq);
        }
        pieces[f.len] = (piece, sq);
        f.len += 1;
    }
    // The opponent sees the board flipped vertically, its own king included.
    let (stm_view, opp_view) = (king_view(shape, kings[0]), king_view(shape, kings[1] ^ 56));
    for (i, &(piece, sq)) in pieces[..f.len].iter().enumerate() {
        let (theirs, t, sq) = (piece >> 3 == 1, usize::from(piece & 7), usize::from(sq));
        f.stm[i] = feature_index(theirs, t, sq, stm_view) as u16;
        f.opp[i] = feature_index(!theirs, t, sq ^ 56, opp_view) as u16;
    }
    if shape.buckets > 1 {
        f.bucket = output_bucket(r.occ.count_ones());
    }
    f
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target: `lambda * result + (1 - lambda) * sigmoid(score / 400)`, result in {0, 0.5, 1}.
pub fn target(r: &ChessBoard, lambda: f32) -> f32 {
    lambda * f32::from(r.result) * 0.5 + (1.0 - lambda) * sigmoid(f32::from(r.score) / EVAL_SCALE)
}

/// Moves a deterministic `fraction` of the records into a validation set, in aligned blocks of `block`
/// consecutive records (a block is held out when a hash of `seed` and its index says so, so the same data and
/// seed always hold out the same positions, also on `--resume`).
///
/// Blocks, because datagen writes a game's positions one after another: positions held out one by one sit
/// beside their own game's neighbours in the training set, and a net that memorises game results then looks
/// better on validation the worse it generalises. With blocks of a few thousand records (about a hundred
/// positions a game) only the games cut by a block's edge are on both sides.
pub fn split_validation(
    records: &mut Vec<ChessBoard>,
    fraction: f64,
    seed: u64,
    block: usize,
) -> Vec<ChessBoard> {
    let threshold = (fraction.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
    let key = mix(seed ^ 0x5641_4c5f_5350_4c54);
    let block = block.max(1);
    let mut val = Vec::new();
    let mut i = 0usize;
    records.retain(|r| {
        let held_out = mix(key.wrapping_add((i / block) as u64)) < threshold;
        i += 1;
        if held_out {
            val.push(*r);
        }
        !held_out
    });
    val
}

/// Record indices 0..n in the order of epoch `epoch` (a fresh permutation per epoch, from the seed).
pub fn epoch_order(n: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    Rng::new(mix(seed ^ 0x5348_5546) ^ mix(epoch as u64)).shuffle(&mut order);
    order
}

/// Random positions scored by a material count (P 100, N 300, B 320, R 500, Q 900, from White's view,
/// plus noise up to +-20), with the result the count implies (White wins above +150, loses below -150):
/// the `synth` subcommand's data, for smoke tests of the pipeline and for the unit tests. Each is built
/// as the text `FEN | score | result` and parsed by the crate (which flips Black-to-move positions).
pub fn synthetic(n: usize, seed: u64) -> Vec<ChessBoard> {
    synthetic_lines(n, seed)
        .iter()
        .map(|line| line.parse().expect("synthetic lines are well formed"))
        .collect()
}

/// The `FEN | score | result` lines behind [`synthetic`] (score and result from White's view).
pub fn synthetic_lines(n: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed ^ 0x5359_4e54);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut board = [None::<char>; 64];
        let mut place = |rng: &mut Rng, c: char, sqs: std::ops::Range<usize>| loop {
            let s = sqs.start + rng.below(sqs.len());
            if board[s].is_none() {
                board[s] = Some(c);
                break;
            }
        };
        place(&mut rng, 'K', 0..64);
        place(&mut rng, 'k', 0..64);
        let mut score = 0i32;
        for _ in 0..rng.below(21) {
            let (kind, value) =
                [('p', 100), ('n', 300), ('b', 320), ('r', 500), ('q', 900)][rng.below(5)];
            let white = rng.below(2) == 0;
            let c = if white {
                kind.to_ascii_uppercase()
            } else {
                kind
            };
            place(&mut rng, c, if kind == 'p' { 8..56 } else { 0..64 });
            score += if white { value } else { -value };
        }
        score += rng.below(41) as i32 - 20;
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let stm = if rng.below(2) == 0 { 'w' } else { 'b' };
        let result = match score {
            s if s > 150 => "1.0",
            s if s < -150 => "0.0",
            _ => "0.5",
        };
        out.push(format!("{fen} {stm} - - 0 1 | {score} | {result}"));
    }
    out
}
