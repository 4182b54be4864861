//! NNUE against independent references: test networks are generated here (deterministic RNG), written in the
//! file format by this file's own writer, and the engine's loader, incremental accumulators, refresh cache and
//! evaluation are held against a straightforward implementation of the format note: v1 nets (one output
//! bucket), v2 nets with 8 output buckets and horizontal mirroring by the king's file, and v3 nets with king
//! buckets too.

use corvid::chess::{Color, Move, MoveKind, PieceType, Position, Square};
use corvid::eval::nnue::{
    default_network, Accumulator, Network, NetworkError, NnueEval, RefreshCache, EVAL_LIMIT, HIDDEN,
};
use corvid::eval::EvalState;
use corvid::game::Game;
use corvid::variants::{scale_evaluation, ChessGame};
use std::path::PathBuf;
use std::sync::Arc;

mod common;
use common::Rng;

const INPUTS: usize = 768;

/// A network in the file's plain form.
struct RawNet {
    h: usize,
    /// Output buckets (1 or 8).
    buckets: usize,
    /// Horizontal mirroring by the perspective's king file.
    mirror: bool,
    /// King buckets (a v3 net): the bucket of each square of the perspective's own king as it sees the
    /// board, after the file flip of a mirroring net.
    king_map: Option<[u8; 64]>,
    /// `king_buckets()` x 768 x H.
    ft_w: Vec<i16>,
    ft_b: Vec<i16>,
    /// `buckets` x 2H.
    out_w: Vec<i16>,
    /// One per bucket.
    out_b: Vec<i32>,
}

impl RawNet {
    fn king_buckets(&self) -> usize {
        self.king_map
            .map_or(1, |m| *m.iter().max().expect("64 entries") as usize + 1)
    }
}

fn uniform(rng: &mut Rng, lo: i32, hi: i32) -> i16 {
    (lo + rng.below((hi - lo + 1) as usize) as i32) as i16
}

/// Random weights of a realistic shape: accumulators spread across both ends of the clamp, output weights
/// within `±out` (beyond 128 the engine takes its exact scalar path). One bucket, no mirroring (a v1 net).
fn random_net(seed: u64, h: usize, out: i32) -> RawNet {
    random_shaped(seed, h, out, 1, false)
}

/// As [`random_net`], with `buckets` output buckets and mirroring as asked.
fn random_shaped(seed: u64, h: usize, out: i32, buckets: usize, mirror: bool) -> RawNet {
    random_with_kings(seed, h, out, buckets, mirror, None)
}

/// As [`random_shaped`], with king buckets laid out by `king_map`.
fn random_with_kings(
    seed: u64,
    h: usize,
    out: i32,
    buckets: usize,
    mirror: bool,
    king_map: Option<[u8; 64]>,
) -> RawNet {
    let mut rng = Rng::new(seed);
    let k = king_map.map_or(1, |m| *m.iter().max().expect("64 entries") as usize + 1);
    RawNet {
        h,
        buckets,
        mirror,
        king_map,
        ft_w: (0..k * INPUTS * h)
            .map(|_| uniform(&mut rng, -30, 30))
            .collect(),
        ft_b: (0..h).map(|_| uniform(&mut rng, 0, 160)).collect(),
        // Beyond ±128 only a few weights are large, so the output stays within the clamp.
        out_w: (0..buckets * 2 * h)
            .map(|i| match out > 128 && i % 50 == 0 {
                true => uniform(&mut rng, -out, out),
                false => uniform(&mut rng, -out.min(127), out.min(127)),
            })
            .collect(),
        out_b: (0..buckets)
            .map(|_| uniform(&mut rng, -20000, 20000) as i32)
            .collect(),
    }
}

/// The 8-bucket mirrored shape the next nets use.
fn random_v2(seed: u64, out: i32) -> RawNet {
    random_shaped(seed, HIDDEN, out, 8, true)
}

/// A v3 net: 8 output buckets, mirrored, and four king buckets (a1-b1, c1-d1, the second rank, the rest;
/// files e-h of the map are never read in a mirroring net, so they hold the mirror image).
fn random_v3(seed: u64, out: i32) -> RawNet {
    let map = std::array::from_fn(|sq| match (sq / 8, (sq % 8).min(7 - sq % 8)) {
        (0, f) if f < 2 => 0,
        (0, _) => 1,
        (1, _) => 2,
        _ => 3,
    });
    random_with_kings(seed, HIDDEN, out, 8, true, Some(map))
}

/// A v3 net without mirroring or output buckets: six king buckets by the king's half-board (files a-d or
/// e-h) and its rank (1, 2, or beyond), so a king move changes its side's bucket without any file flip.
fn random_v3_unmirrored(seed: u64, out: i32) -> RawNet {
    let map = std::array::from_fn(|sq| ((sq / 8).min(2) * 2 + (sq % 8 >= 4) as usize) as u8);
    random_with_kings(seed, HIDDEN, out, 1, false, Some(map))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// The file bytes, laid out as the format note says: v1 for one bucket without mirroring, v3 with king
/// buckets (then their count and map in the header too), else v2 (buckets and flags in the header).
fn file_bytes(net: &RawNet) -> Vec<u8> {
    let v3 = net.king_map.is_some();
    let v2 = net.buckets != 1 || net.mirror || v3;
    let version = 1 + v2 as u32 + v3 as u32;
    let mut b = b"CRVDNNUE".to_vec();
    let mut header = vec![version, net.h as u32, 255, 64, 400];
    if v2 {
        header.extend([net.buckets as u32, net.mirror as u32]);
    }
    if v3 {
        header.push(net.king_buckets() as u32);
    }
    header.push(0);
    for w in header {
        b.extend(w.to_le_bytes());
    }
    if let Some(map) = net.king_map {
        b.extend(map);
    }
    for v in net.ft_w.iter().chain(&net.ft_b).chain(&net.out_w) {
        b.extend(v.to_le_bytes());
    }
    for v in &net.out_b {
        b.extend(v.to_le_bytes());
    }
    let sum = fnv1a(&b);
    b.extend(sum.to_le_bytes());
    let header_len = [32, 40, 108][version as usize - 1];
    assert_eq!(
        b.len(),
        header_len
            + net.king_buckets() * 1536 * net.h
            + 2 * net.h
            + net.buckets * (4 * net.h + 4)
            + 8
    );
    b
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("corvid-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The evaluation by the format note, written out plainly (i64, no SIMD, no incremental state): for each
/// perspective, its king's file decides the file flip and its square (after the flip) the king bucket, and
/// the number of pieces the output bucket.
fn reference_eval(net: &RawNet, pos: &Position) -> i32 {
    let h = net.h;
    let mut pieces = Vec::new();
    for s in 0..64u8 {
        if let Some(p) = pos.piece_on(Square(s)) {
            pieces.push((p, s as usize));
        }
    }
    let mut acc = [
        net.ft_b.iter().map(|&b| b as i64).collect::<Vec<_>>(),
        Vec::new(),
    ];
    acc[1] = acc[0].clone();
    for (persp, a) in [Color::White, Color::Black].into_iter().zip(acc.iter_mut()) {
        let king = pieces
            .iter()
            .find(|(p, _)| p.color() == persp && p.kind() == PieceType::King)
            .expect("a king")
            .1;
        let flip_file = net.mirror && king % 8 >= 4;
        let seen = |s: usize| {
            let sq = if persp == Color::White { s } else { s ^ 56 };
            if flip_file {
                (sq & 56) | (7 - sq % 8)
            } else {
                sq
            }
        };
        let king_bucket = net.king_map.map_or(0, |m| m[seen(king)] as usize);
        for &(p, s) in &pieces {
            let index = king_bucket * INPUTS
                + (p.color() != persp) as usize * 384
                + p.kind().index() * 64
                + seen(s);
            for (i, v) in a.iter_mut().enumerate() {
                *v += net.ft_w[index * h + i] as i64;
            }
        }
    }
    let bucket = if net.buckets == 1 {
        0
    } else {
        ((pieces.len() - 2) / 4).min(7)
    };
    let out_w = &net.out_w[bucket * 2 * h..(bucket + 1) * 2 * h];
    let stm = pos.side_to_move().index();
    let screlu = |x: i64| x.clamp(0, 255).pow(2);
    let sum: i64 = (0..h)
        .map(|i| {
            screlu(acc[stm][i]) * out_w[i] as i64 + screlu(acc[1 - stm][i]) * out_w[h + i] as i64
        })
        .sum();
    // The engine sums in i32: these test nets are sized so that nothing wraps.
    assert!(acc.iter().flatten().all(|&v| i16::try_from(v).is_ok()));
    assert!(i32::try_from(sum).is_ok(), "test net too large: {sum}");
    let out = sum / 255 + net.out_b[bucket] as i64;
    let cp = out * 400 / (255 * 64);
    cp.clamp(-EVAL_LIMIT as i64, EVAL_LIMIT as i64) as i32
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    // Kings on both halves of the board, each side on either, and few pieces (the low buckets).
    "r4rk1/ppp2ppp/2n5/8/8/5N2/PPP2PPP/2KR3R w - - 0 1",
    "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1 b - - 0 1",
    "2k5/ppp5/8/8/8/8/PPP5/2K5 b - - 0 1",
    "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
    "8/5k2/8/3P4/8/1K6/8/8 b - - 0 1",
    "6k1/5ppp/8/8/3q4/8/5PPP/1R4K1 w - - 0 1",
    // A king on its second rank, files a-d (as Black sees the board).
    "8/2k5/8/3p4/8/8/3P4/6K1 w - - 0 1",
];

#[test]
fn evaluation_equals_the_reference_implementation() {
    // v1, v2 and v3 nets, output weights within ±127 (the SIMD output) and up to ±200 (the exact scalar
    // fallback).
    for (seed, out, version) in [
        (1u64, 127, 1),
        (2, 127, 1),
        (3, 200, 1),
        (4, 200, 1),
        (5, 127, 2),
        (6, 127, 2),
        (7, 200, 2),
        (8, 127, 3),
        (9, 200, 3),
        (10, 127, 4),
    ] {
        let raw = match version {
            1 => random_net(seed, HIDDEN, out),
            2 => random_v2(seed, out),
            3 => random_v3(seed, out),
            _ => random_v3_unmirrored(seed, out),
        };
        assert_eq!(raw.out_w.iter().any(|w| w.abs() > 128), out > 128);
        let net = Network::from_bytes(&file_bytes(&raw)).expect("valid test net");
        assert_eq!((net.buckets(), net.mirrored()), (raw.buckets, raw.mirror));
        assert_eq!(net.king_buckets(), raw.king_buckets());
        let mut distinct = std::collections::HashSet::new();
        let mut buckets = std::collections::HashSet::new();
        for fen in FENS {
            let pos = Position::from_fen(fen, false).expect("FEN");
            let want = reference_eval(&raw, &pos);
            assert_eq!(net.evaluate(&pos), want, "seed {seed}: {fen}");
            let mut game = ChessGame::with_eval(pos, NnueEval::new(Some(Arc::new(net.clone()))));
            // The game hands the search the network's score scaled by material and the fifty-move counter.
            let scaled = scale_evaluation(&pos, want);
            assert_eq!(
                game.evaluate(),
                scaled,
                "seed {seed}: {fen} through the game"
            );
            assert!(
                want.abs() < EVAL_LIMIT,
                "seed {seed} {fen}: test net saturates: {want}"
            );
            distinct.insert(want);
            buckets.insert(corvid::eval::nnue::output_bucket(&pos));
        }
        // The positions really are told apart (a net that ignored its inputs would pass the rest), and
        // several output buckets were used.
        assert!(distinct.len() >= FENS.len() - 1, "{distinct:?}");
        assert!(buckets.len() >= 5, "{buckets:?}");
        // The FENs put kings in every king bucket of these maps.
        if let Some(map) = raw.king_map {
            let mut kings = std::collections::HashSet::new();
            for fen in FENS {
                let pos = Position::from_fen(fen, false).expect("FEN");
                for p in [Color::White, Color::Black] {
                    let s = pos.king_square(p).0 as usize ^ (p.index() * 56);
                    let s = if raw.mirror && s % 8 >= 4 { s ^ 7 } else { s };
                    kings.insert(map[s]);
                }
            }
            assert_eq!(kings.len(), raw.king_buckets(), "{kings:?}");
        }
    }
}

/// Mirroring and buckets change the evaluation: the same weights read as a v2 net evaluate differently
/// from the v1 reading of their first bucket where a king stands on files e-h, and the same where none
/// does and the position is in the first bucket (so the tests above would notice either being ignored).
#[test]
fn mirroring_and_buckets_take_effect() {
    let v2 = random_v2(21, 127);
    let first = RawNet {
        buckets: 1,
        mirror: false,
        king_map: None,
        out_w: v2.out_w[..2 * HIDDEN].to_vec(),
        out_b: v2.out_b[..1].to_vec(),
        ft_w: v2.ft_w.clone(),
        ft_b: v2.ft_b.clone(),
        h: HIDDEN,
    };
    let (a, b) = (
        Network::from_bytes(&file_bytes(&v2)).expect("v2"),
        Network::from_bytes(&file_bytes(&first)).expect("v1"),
    );
    let same = Position::from_fen("8/8/2k5/8/8/3K4/8/8 w - - 0 1", false).expect("FEN");
    assert_eq!(a.evaluate(&same), b.evaluate(&same));
    for fen in [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/2k5/8/8/4K3/8/8 b - - 0 1",
        "2k5/ppp5/8/8/8/8/PPP5/2K5 b - - 0 1",
    ] {
        let pos = Position::from_fen(fen, false).expect("FEN");
        assert_ne!(a.evaluate(&pos), b.evaluate(&pos), "{fen}");
    }
}

#[test]
fn loading_a_written_file_round_trips() {
    let raw = random_net(11, HIDDEN, 127);
    let bytes = file_bytes(&raw);
    let path = temp_dir().join("roundtrip.nnue");
    std::fs::write(&path, &bytes).expect("write net");
    let net = Network::load(&path).expect("load");
    assert_eq!(net.to_bytes(), bytes);
    let parts = Network::from_parts(&raw.ft_w, &raw.ft_b, &raw.out_w, raw.out_b[0]).expect("parts");
    assert_eq!(parts, net);
    assert!(Network::from_parts(&raw.ft_w[1..], &raw.ft_b, &raw.out_w, raw.out_b[0]).is_none());
    // v2 nets (8 buckets with and without mirroring, mirroring alone) come back byte for byte.
    for (buckets, mirror) in [(8, true), (8, false), (1, true)] {
        let bytes = file_bytes(&random_shaped(12, HIDDEN, 127, buckets, mirror));
        std::fs::write(&path, &bytes).expect("write net");
        let net = Network::load(&path).expect("load v2");
        assert_eq!((net.buckets(), net.mirrored()), (buckets, mirror));
        assert_eq!(net.to_bytes(), bytes);
        assert_eq!(Network::from_weights(&net.weights()), Ok(net));
    }
    // So do v3 nets, mirrored or not.
    for raw in [random_v3(13, 127), random_v3_unmirrored(14, 127)] {
        let bytes = file_bytes(&raw);
        std::fs::write(&path, &bytes).expect("write net");
        let net = Network::load(&path).expect("load v3");
        assert_eq!(net.king_buckets(), raw.king_buckets());
        assert_eq!(net.to_bytes(), bytes);
        assert_eq!(Network::from_weights(&net.weights()), Ok(net));
    }
    let _ = std::fs::remove_file(&path);
}

/// The committed network is read and written back unchanged, and its header's version matches its shape
/// (v1 only for one bucket without mirroring, which the writer always keeps as v1).
#[test]
fn the_embedded_network_round_trips_with_the_version_of_its_shape() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("nets/corvid.nnue");
    let (Some(net), Ok(file)) = (default_network(), std::fs::read(&path)) else {
        return; // a build without an embedded network
    };
    if std::env::var("EVALFILE").is_ok_and(|v| !v.trim().is_empty()) {
        return; // another network is embedded
    }
    let version = u32::from_le_bytes(file[8..12].try_into().expect("4 bytes"));
    let plain = (net.buckets(), net.mirrored()) == (1, false);
    let want = match net.king_buckets() {
        1 if plain => 1,
        1 => 2,
        _ => 3,
    };
    assert_eq!(version, want);
    assert_eq!(net.to_bytes(), file);
}

#[test]
fn malformed_files_are_refused_with_the_reason() {
    let good = file_bytes(&random_net(5, HIDDEN, 127));
    assert!(Network::from_bytes(&good).is_ok());
    let reseal = |mut b: Vec<u8>| {
        let n = b.len() - 8;
        let sum = fnv1a(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let with = |file: &[u8], at: usize, v: u32| {
        let mut b = file.to_vec();
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        reseal(b)
    };
    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(Network::from_bytes(&magic), Err(NetworkError::BadMagic));
    assert_eq!(
        Network::from_bytes(&with(&good, 8, 4)),
        Err(NetworkError::BadVersion(4))
    );
    for (at, name) in [(16, "QA"), (20, "QB"), (24, "SCALE"), (28, "reserved")] {
        assert!(
            matches!(Network::from_bytes(&with(&good, at, 7)), Err(NetworkError::BadConstant { name: n, found: 7, .. }) if n == name),
            "{name}"
        );
    }
    let short = reseal(good[..good.len() - 10].to_vec());
    assert!(matches!(
        Network::from_bytes(&short),
        Err(NetworkError::BadSize { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&good[..20]),
        Err(NetworkError::Truncated { len: 20 })
    ));
    let mut damaged = good.clone();
    damaged[1000] ^= 1;
    assert!(matches!(
        Network::from_bytes(&damaged),
        Err(NetworkError::BadChecksum { .. })
    ));
    // A well-formed network of another hidden size is named as such.
    let other = file_bytes(&random_net(6, 64, 127));
    assert_eq!(
        Network::from_bytes(&other),
        Err(NetworkError::HiddenSize {
            file: 64,
            engine: HIDDEN
        })
    );
    assert!(matches!(
        Network::load(temp_dir().join("no-such-file.nnue")),
        Err(NetworkError::Io(_))
    ));

    // v2: bucket counts other than 1 and 8, unknown flags, a reserved word, the wrong length (also a v1
    // file relabelled v2, and a v2 file relabelled v1), and a header cut short.
    let v2 = file_bytes(&random_v2(7, 127));
    assert!(Network::from_bytes(&v2).is_ok());
    for buckets in [0, 2, 3, 7, 9, 16] {
        assert_eq!(
            Network::from_bytes(&with(&v2, 28, buckets)),
            Err(NetworkError::BadBuckets(buckets))
        );
    }
    for flags in [2, 3, 0x8000_0001] {
        assert_eq!(
            Network::from_bytes(&with(&v2, 32, flags)),
            Err(NetworkError::BadFlags(flags))
        );
    }
    assert!(matches!(
        Network::from_bytes(&with(&v2, 36, 1)),
        Err(NetworkError::BadConstant {
            name: "reserved",
            found: 1,
            ..
        })
    ));
    // One bucket announced, eight present: the length is wrong for the header.
    assert!(matches!(
        Network::from_bytes(&with(&v2, 28, 1)),
        Err(NetworkError::BadSize { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&reseal(v2[..v2.len() - 4].to_vec())),
        Err(NetworkError::BadSize { .. })
    ));
    let mut v2_as_v1 = with(&v2, 8, 1);
    v2_as_v1[28..32].copy_from_slice(&0u32.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&reseal(v2_as_v1)),
        Err(NetworkError::BadSize { .. })
    ));
    let mut v1_as_v2 = with(&good, 8, 2);
    v1_as_v2[28..32].copy_from_slice(&1u32.to_le_bytes());
    assert!(Network::from_bytes(&reseal(v1_as_v2)).is_err());
    assert!(matches!(
        Network::from_bytes(&v2[..36]),
        Err(NetworkError::Truncated { len: 36 })
    ));
    let mut damaged = v2.clone();
    damaged[v2.len() - 20] ^= 1;
    assert!(matches!(
        Network::from_bytes(&damaged),
        Err(NetworkError::BadChecksum { .. })
    ));

    // v3: king bucket counts outside 2..=32, a map entry beyond the count, a bucket no square uses (in a
    // mirroring net, squares on files e-h do not count), the wrong length for the count.
    let v3 = file_bytes(&random_v3(8, 127));
    assert!(Network::from_bytes(&v3).is_ok());
    for k in [0, 1, 33, 1 << 20] {
        assert!(
            matches!(
                Network::from_bytes(&with(&v3, 36, k)),
                Err(NetworkError::BadKingBuckets(_))
            ),
            "{k} king buckets"
        );
    }
    let with_map = |sq: usize, bucket: u8| {
        let mut b = v3.clone();
        b[44 + sq] = bucket;
        reseal(b)
    };
    assert!(matches!(
        Network::from_bytes(&with_map(20, 4)),
        Err(NetworkError::BadKingBuckets(_))
    ));
    // a1 and b1 are bucket 0's only squares on files a-d; g1 and h1 do not count.
    let mut unused = with_map(0, 1);
    unused[45] = 1;
    assert!(matches!(
        Network::from_bytes(&reseal(unused)),
        Err(NetworkError::BadKingBuckets(_))
    ));
    assert!(Network::from_bytes(&with_map(7, 3)).is_ok());
    assert!(matches!(
        Network::from_bytes(&with(&v3, 36, 5)),
        Err(NetworkError::BadKingBuckets(_) | NetworkError::BadSize { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&with(&v3, 40, 1)),
        Err(NetworkError::BadConstant {
            name: "reserved",
            ..
        })
    ));
    assert!(matches!(
        Network::from_bytes(&v3[..100]),
        Err(NetworkError::Truncated { len: 100 })
    ));
    // Every refusal reads as a reason.
    for e in [
        NetworkError::BadBuckets(3),
        NetworkError::BadFlags(2),
        NetworkError::BadKingBuckets("x"),
    ] {
        assert!(e.to_string().contains("network"), "{e}");
    }
}

// ---------------------------------------------------------------------------------------------------------
// Incremental accumulators in random games

/// What the random games went through, so the test can insist the interesting moves happened.
#[derive(Default, Debug)]
struct Seen {
    plies: u64,
    checks: u64,
    castling: u64,
    castling_960: u64,
    king_onto_rook_square: u64,
    rook_onto_king_square: u64,
    king_stays: u64,
    rook_stays: u64,
    en_passant: u64,
    promotion: u64,
    promotion_capture: u64,
    capture: u64,
    null: u64,
    unmake: u64,
    /// King moves between files a-d and e-h (a mirroring net refreshes that side's perspective).
    king_crossing: u64,
    /// The same, by castling.
    castling_crossing: u64,
}

/// A random Chess960 start (bishops on both colours, the king between the rooks), in Shredder-FEN.
fn chess960_start(rng: &mut Rng) -> String {
    let mut rank = [' '; 8];
    rank[2 * rng.below(4)] = 'b';
    rank[2 * rng.below(4) + 1] = 'b';
    for piece in ['q', 'n', 'n'] {
        let free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
        rank[free[rng.below(free.len())]] = piece;
    }
    let free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
    for (i, piece) in free.iter().zip(['r', 'k', 'r']) {
        rank[*i] = piece;
    }
    let black: String = rank.iter().collect();
    let white = black.to_uppercase();
    let files: String = [free[2], free[0]]
        .iter()
        .map(|&f| (b'A' + f as u8) as char)
        .collect();
    format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {files}{} - 0 1",
        files.to_lowercase()
    )
}

/// Starts where Chess960 castling puts king or rook on the other's square, or leaves one where it is, and
/// where en passant and promotions are at hand.
const SPECIAL_960: &[&str] = &[
    // O-O with the king on f1 and the rook on g1: they swap squares.
    "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1",
    // Black king on g8: O-O leaves it there. White king on b1: O-O-O puts it on c1, the rook a1 on d1.
    "r5kr/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
    // King on d1, rook on c1: O-O-O swaps them. King on c1: O-O-O leaves it there.
    "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R w HChc - 0 1",
    "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w HAha - 0 1",
    // King on e1, rook on d1: O-O-O leaves the rook there; rook on f1: O-O leaves it there.
    "3rkr2/pppppppp/8/8/8/8/PPPPPPPP/3RKR2 w FDfd - 0 1",
];

const SPECIAL: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
    "r1b1k2r/1P4P1/8/2pP4/5pP1/8/1p4p1/R3K2R w KQkq c6 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// Prefers the rare kinds of move, so that every one of them comes up often.
fn pick(rng: &mut Rng, pos: &Position, moves: &[Move]) -> Move {
    let rare: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.kind() != MoveKind::Normal)
        .collect();
    if !rare.is_empty() && rng.below(4) != 0 {
        return rare[rng.below(rare.len())];
    }
    let pawn: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            pos.piece_on(m.from())
                .is_some_and(|p| p.kind() == corvid::chess::PieceType::Pawn)
        })
        .collect();
    if !pawn.is_empty() && rng.below(3) == 0 {
        return pawn[rng.below(pawn.len())];
    }
    moves[rng.below(moves.len())]
}

fn note(seen: &mut Seen, pos: &Position, m: Move) {
    seen.plies += 1;
    let captures = pos.piece_on(m.to()).is_some() && m.kind() != MoveKind::Castling;
    seen.capture += captures as u64;
    let half = |sq: Square| sq.0 % 8 >= 4;
    match m.kind() {
        MoveKind::Castling => {
            let (kto, _) = Position::castling_targets(m.from(), m.to());
            seen.castling_crossing += (half(m.from()) != half(kto)) as u64;
            seen.king_crossing += (half(m.from()) != half(kto)) as u64;
            seen.castling += 1;
            if pos.is_chess960() {
                seen.castling_960 += 1;
            }
            let (kto, rto) = Position::castling_targets(m.from(), m.to());
            seen.king_onto_rook_square += (kto == m.to()) as u64;
            seen.rook_onto_king_square += (rto == m.from()) as u64;
            seen.king_stays += (kto == m.from()) as u64;
            seen.rook_stays += (rto == m.to()) as u64;
        }
        MoveKind::EnPassant => seen.en_passant += 1,
        MoveKind::Promotion => {
            seen.promotion += 1;
            seen.promotion_capture += captures as u64;
        }
        MoveKind::Normal => {
            let king = pos
                .piece_on(m.from())
                .is_some_and(|p| p.kind() == PieceType::King);
            seen.king_crossing += (king && half(m.from()) != half(m.to())) as u64;
        }
    }
}

/// The incremental state must equal a refresh of the current position, and the evaluation the reference's.
fn check(game: &mut ChessGame, net: &Network, raw: &RawNet, seen: &mut Seen) {
    let pos = *game.position();
    let fresh = Accumulator::refresh(net, &pos);
    let incremental = *game
        .eval_state()
        .accumulator(&pos)
        .expect("a network is in use");
    assert!(
        incremental == fresh,
        "accumulator differs from a refresh at {}",
        pos.to_fen()
    );
    assert_eq!(
        game.evaluate(),
        scale_evaluation(&pos, reference_eval(raw, &pos)),
        "{}",
        pos.to_fen()
    );
    seen.checks += 1;
}

/// A random game from `start`; the accumulator is checked after every move and unmake when `every`, else
/// now and then (so that several plies of pending updates, refreshes among them, are caught up at once).
fn random_game(
    start: Position,
    net: &Arc<Network>,
    raw: &RawNet,
    rng: &mut Rng,
    seen: &mut Seen,
    every: bool,
) {
    let mut game = ChessGame::with_eval(start, NnueEval::new(Some(Arc::clone(net))));
    check(&mut game, net, raw, seen);
    // Some game moves first (the refresh path of `play`), then a search-like walk of makes and unmakes.
    let mut made = 0usize;
    for ply in 0..160 {
        let pos = *game.position();
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if moves.is_empty() || pos.halfmove_clock() >= 100 {
            break;
        }
        let roll = rng.below(10);
        if made > 0 && roll == 0 {
            // Take back up to three plies of the walk.
            for _ in 0..=rng.below(3.min(made)) {
                game.unmake_move();
                made -= 1;
                seen.unmake += 1;
            }
        } else if roll == 1 && !pos.in_check() && game.null_move_ok() {
            game.make_null_move();
            made += 1;
            seen.null += 1;
        } else {
            let m = pick(rng, &pos, &moves);
            note(seen, &pos, m);
            if ply < 12 && made == 0 {
                game.play(m);
            } else {
                game.make_move(m);
                made += 1;
            }
        }
        if every || rng.below(3) == 0 {
            check(&mut game, net, raw, seen);
        }
    }
    check(&mut game, net, raw, seen);
}

/// The starts of the random games: special positions, Chess960 ones (special and random), the start.
fn random_game_starts(rng: &mut Rng) -> Vec<Position> {
    let mut starts: Vec<Position> = Vec::new();
    for fen in SPECIAL {
        starts.push(Position::from_fen(fen, false).expect("FEN"));
    }
    for fen in SPECIAL_960 {
        starts.push(Position::from_fen(fen, true).expect("960 FEN"));
    }
    for _ in 0..8 {
        let fen = chess960_start(rng);
        starts.push(Position::from_fen(&fen, true).expect("generated 960 start"));
    }
    starts.push(Position::startpos());
    starts
}

/// Random games with `raw`'s network: the incremental state must equal a refresh, and the evaluation the
/// reference's, wherever it is checked; every kind of move must have come up.
fn random_games_check(raw: &RawNet, seed: u64) -> Seen {
    let net = Arc::new(Network::from_bytes(&file_bytes(raw)).expect("valid"));
    let mut rng = Rng::new(seed);
    let mut seen = Seen::default();
    for start in &random_game_starts(&mut rng) {
        for game in 0..6 {
            random_game(*start, &net, raw, &mut rng, &mut seen, game % 2 == 1);
        }
    }
    println!("{seen:?}");
    assert!(seen.checks > 5_000, "{seen:?}");
    for (what, n) in [
        ("castling", seen.castling),
        ("Chess960 castling", seen.castling_960),
        ("king onto the rook's square", seen.king_onto_rook_square),
        ("rook onto the king's square", seen.rook_onto_king_square),
        ("king staying", seen.king_stays),
        ("rook staying", seen.rook_stays),
        ("en passant", seen.en_passant),
        ("promotion", seen.promotion),
        ("promotion with capture", seen.promotion_capture),
        ("capture", seen.capture),
        ("null move", seen.null),
        ("unmake", seen.unmake),
        ("king crossing the d/e boundary", seen.king_crossing),
        ("castling across the d/e boundary", seen.castling_crossing),
    ] {
        assert!(n >= 10, "only {n} {what}: {seen:?}");
    }
    seen
}

#[test]
fn incremental_accumulators_equal_a_refresh_in_random_games() {
    random_games_check(&random_net(0xC0FFEE, HIDDEN, 127), 0x5EED_1234_ABCD_0001);
}

/// The same with an 8-bucket mirrored net: king moves across the d/e boundary refresh that side's
/// perspective from the cache while the other is updated incrementally.
#[test]
fn incremental_accumulators_of_a_mirrored_bucketed_net_equal_a_refresh_in_random_games() {
    random_games_check(&random_v2(0xBEEF, 127), 0x5EED_1234_ABCD_0002);
}

/// The same with king buckets, mirrored and not: a king move into another bucket refreshes its side.
#[test]
fn incremental_accumulators_of_king_bucket_nets_equal_a_refresh_in_random_games() {
    random_games_check(&random_v3(0xB0C, 127), 0x5EED_1234_ABCD_0003);
    random_games_check(&random_v3_unmirrored(0xB0D, 127), 0x5EED_1234_ABCD_0004);
}

/// The refresh cache gives each perspective's lanes of a full refresh, for positions that follow each other
/// (small differences) and for positions of other games (large ones), on both mirror states.
#[test]
fn the_refresh_cache_equals_a_full_refresh() {
    for raw in [
        random_v2(31, 127),
        random_net(32, HIDDEN, 127),
        random_v3(33, 127),
        random_v3_unmirrored(34, 127),
    ] {
        let net = Network::from_bytes(&file_bytes(&raw)).expect("valid");
        let mut cache = RefreshCache::new(&net);
        let mut rng = Rng::new(0xF1AA);
        let mut mirrored = [0usize; 2];
        let mut refreshed = 0;
        for start in random_game_starts(&mut rng) {
            let mut pos = start;
            for _ in 0..60 {
                let full = Accumulator::refresh(&net, &pos);
                for p in [Color::White, Color::Black] {
                    // Not after every move, so that the cached boards lag by several moves.
                    if rng.below(3) != 0 {
                        continue;
                    }
                    let mut lanes = [0i16; HIDDEN];
                    cache.refresh(&net, &pos, p, &mut lanes);
                    assert!(lanes == full.lanes[p.index()], "{p:?} at {}", pos.to_fen());
                    mirrored[(pos.king_square(p).0 % 8 >= 4) as usize] += 1;
                    refreshed += 1;
                }
                let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(pick(&mut rng, &pos, &moves));
            }
        }
        assert!(
            refreshed > 500 && mirrored.iter().all(|&n| n > 50),
            "{mirrored:?}"
        );
        // An emptied cache starts again from the biases.
        cache.clear(&net);
        let pos = Position::startpos();
        let mut lanes = [0i16; HIDDEN];
        cache.refresh(&net, &pos, Color::Black, &mut lanes);
        assert!(lanes == Accumulator::refresh(&net, &pos).lanes[1]);
    }
}

#[test]
fn hce_state_evaluates_as_the_hand_crafted_evaluation() {
    for fen in FENS {
        let pos = Position::from_fen(fen, false).expect("FEN");
        let mut game = ChessGame::with_eval(pos, NnueEval::hce());
        assert!(game.eval_state().accumulator(&pos).is_none());
        assert_eq!(
            game.evaluate(),
            scale_evaluation(&pos, corvid::eval::chess::evaluate(&pos))
        );
        let m = pos.legal_moves()[0];
        game.make_move(m);
        let mut next = pos;
        next.make_move(m);
        assert_eq!(
            game.evaluate(),
            scale_evaluation(&next, corvid::eval::chess::evaluate(&next))
        );
        game.eval_state().reserve(8);
    }
}
