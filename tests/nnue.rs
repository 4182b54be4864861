//! NNUE against independent references: test networks are generated here (deterministic RNG), written in the
//! file format by this file's own writer, and the engine's loader, incremental accumulators and evaluation are
//! held against a straightforward implementation of the format note.

use corvid::chess::{Color, Move, MoveKind, Position, Square};
use corvid::eval::nnue::{Accumulator, Network, NetworkError, NnueEval, EVAL_LIMIT, HIDDEN};
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
    ft_w: Vec<i16>,
    ft_b: Vec<i16>,
    out_w: Vec<i16>,
    out_b: i32,
}

fn uniform(rng: &mut Rng, lo: i32, hi: i32) -> i16 {
    (lo + rng.below((hi - lo + 1) as usize) as i32) as i16
}

/// Random weights of a realistic shape: accumulators spread across both ends of the clamp, output weights
/// within `±out` (beyond 128 the engine takes its exact scalar path).
fn random_net(seed: u64, h: usize, out: i32) -> RawNet {
    let mut rng = Rng::new(seed);
    RawNet {
        h,
        ft_w: (0..INPUTS * h)
            .map(|_| uniform(&mut rng, -30, 30))
            .collect(),
        ft_b: (0..h).map(|_| uniform(&mut rng, 0, 160)).collect(),
        // Beyond ±128 only a few weights are large, so the output stays within the clamp.
        out_w: (0..2 * h)
            .map(|i| match out > 128 && i % 50 == 0 {
                true => uniform(&mut rng, -out, out),
                false => uniform(&mut rng, -out.min(127), out.min(127)),
            })
            .collect(),
        out_b: uniform(&mut rng, -20000, 20000) as i32,
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// The file bytes, laid out as the format note says.
fn file_bytes(net: &RawNet) -> Vec<u8> {
    let mut b = b"CRVDNNUE".to_vec();
    for w in [1u32, net.h as u32, 255, 64, 400, 0] {
        b.extend(w.to_le_bytes());
    }
    for v in net.ft_w.iter().chain(&net.ft_b).chain(&net.out_w) {
        b.extend(v.to_le_bytes());
    }
    b.extend(net.out_b.to_le_bytes());
    let sum = fnv1a(&b);
    b.extend(sum.to_le_bytes());
    assert_eq!(b.len(), 32 + 1536 * net.h + 2 * net.h + 4 * net.h + 4 + 8);
    b
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("corvid-nnue-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The evaluation by the format note, written out plainly (i64, no SIMD, no incremental state).
fn reference_eval(net: &RawNet, pos: &Position) -> i32 {
    let h = net.h;
    let mut acc = [
        net.ft_b.iter().map(|&b| b as i64).collect::<Vec<_>>(),
        Vec::new(),
    ];
    acc[1] = acc[0].clone();
    for s in 0..64u8 {
        let Some(p) = pos.piece_on(Square(s)) else {
            continue;
        };
        for (persp, a) in [Color::White, Color::Black].into_iter().zip(acc.iter_mut()) {
            let sq = if persp == Color::White { s } else { s ^ 56 } as usize;
            let index = (p.color() != persp) as usize * 384 + p.kind().index() * 64 + sq;
            for (i, v) in a.iter_mut().enumerate() {
                *v += net.ft_w[index * h + i] as i64;
            }
        }
    }
    let stm = pos.side_to_move().index();
    let screlu = |x: i64| x.clamp(0, 255).pow(2);
    let sum: i64 = (0..h)
        .map(|i| {
            screlu(acc[stm][i]) * net.out_w[i] as i64
                + screlu(acc[1 - stm][i]) * net.out_w[h + i] as i64
        })
        .sum();
    // The engine sums in i32: these test nets are sized so that nothing wraps.
    assert!(acc.iter().flatten().all(|&v| i16::try_from(v).is_ok()));
    assert!(i32::try_from(sum).is_ok(), "test net too large: {sum}");
    let out = sum / 255 + net.out_b as i64;
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
];

#[test]
fn evaluation_equals_the_reference_implementation() {
    // Output weights within ±127 (the SIMD output) and up to ±200 (the exact scalar fallback).
    for (seed, out) in [(1u64, 127), (2, 127), (3, 200), (4, 200)] {
        let raw = random_net(seed, HIDDEN, out);
        assert_eq!(raw.out_w.iter().any(|w| w.abs() > 128), out > 128);
        let net = Network::from_bytes(&file_bytes(&raw)).expect("valid test net");
        let mut distinct = std::collections::HashSet::new();
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
        }
        // The positions really are told apart (a net that ignored its inputs would pass the rest).
        assert!(distinct.len() >= FENS.len() - 1, "{distinct:?}");
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
    let parts = Network::from_parts(&raw.ft_w, &raw.ft_b, &raw.out_w, raw.out_b).expect("parts");
    assert_eq!(parts, net);
    assert!(Network::from_parts(&raw.ft_w[1..], &raw.ft_b, &raw.out_w, raw.out_b).is_none());
    let _ = std::fs::remove_file(&path);
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
    let with = |at: usize, v: u32| {
        let mut b = good.clone();
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        reseal(b)
    };
    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(Network::from_bytes(&magic), Err(NetworkError::BadMagic));
    assert_eq!(
        Network::from_bytes(&with(8, 2)),
        Err(NetworkError::BadVersion(2))
    );
    for (at, name) in [(16, "QA"), (20, "QB"), (24, "SCALE"), (28, "reserved")] {
        assert!(
            matches!(Network::from_bytes(&with(at, 7)), Err(NetworkError::BadConstant { name: n, found: 7, .. }) if n == name),
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
    match m.kind() {
        MoveKind::Castling => {
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
        MoveKind::Normal => {}
    }
}

/// The incremental state must equal a refresh of the current position, and the evaluation the reference's.
fn check(game: &mut ChessGame, net: &Network, raw: &RawNet, seen: &mut Seen) {
    let pos = *game.position();
    let fresh = Accumulator::refresh(net, &pos);
    let incremental = *game
        .eval_state()
        .accumulator()
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

fn random_game(start: Position, net: &Arc<Network>, raw: &RawNet, rng: &mut Rng, seen: &mut Seen) {
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
        // Evaluate only now and then, so that several plies of pending updates are caught up at once.
        if rng.below(3) == 0 {
            check(&mut game, net, raw, seen);
        }
    }
    check(&mut game, net, raw, seen);
}

#[test]
fn incremental_accumulators_equal_a_refresh_in_random_games() {
    let raw = random_net(0xC0FFEE, HIDDEN, 127);
    let net = Arc::new(Network::from_bytes(&file_bytes(&raw)).expect("valid"));
    let mut rng = Rng::new(0x5EED_1234_ABCD_0001);
    let mut seen = Seen::default();
    let mut starts: Vec<Position> = Vec::new();
    for fen in SPECIAL {
        starts.push(Position::from_fen(fen, false).expect("FEN"));
    }
    for fen in SPECIAL_960 {
        starts.push(Position::from_fen(fen, true).expect("960 FEN"));
    }
    for _ in 0..8 {
        let fen = chess960_start(&mut rng);
        starts.push(Position::from_fen(&fen, true).expect("generated 960 start"));
    }
    starts.push(Position::startpos());
    for start in &starts {
        for _ in 0..6 {
            random_game(*start, &net, &raw, &mut rng, &mut seen);
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
    ] {
        assert!(n >= 10, "only {n} {what}: {seen:?}");
    }
}

#[test]
fn hce_state_evaluates_as_the_hand_crafted_evaluation() {
    for fen in FENS {
        let pos = Position::from_fen(fen, false).expect("FEN");
        let mut game = ChessGame::with_eval(pos, NnueEval::hce());
        assert!(game.eval_state().accumulator().is_none());
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
