//! Random garbage at the UCI command parser, the FEN parser and the position set-up, in process: the fuzz
//! targets' checks (fuzz/) without nightly. Deterministic (fixed seeds) so a failure reproduces.

use corvid::chess::Position;
use corvid::engine::{find_option, Engine, PositionError};
use corvid::uci::{parse_command, Command, Start};
use std::sync::Arc;

mod common;
use common::Rng;

const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "debug",
    "on",
    "Hash",
    "Threads",
    "MultiPV",
    "Move",
    "Overhead",
    "Clear",
    "UCI_Chess960",
    "UCI_Elo",
    "true",
    "false",
    "0",
    "1",
    "-1",
    "20",
    "65536",
    "99999999999999999999",
    "e2e4",
    "e7e5",
    "e1g1",
    "e1h1",
    "a7a8q",
    "e7e8k",
    "h9h9",
    "",
    "w",
    "b",
    "-",
    "KQkq",
    "HAha",
    "e3",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "8/8/8/8/8/8/8/K6k",
    "r3k2r/8/8/8/8/8/8/R3K2R",
    "4k3/8/8/8/8/8/8/4K3",
    "☃",
    "\u{0}",
    "\t",
];

const FEN_CHARS: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqHAha0123456789e3x";

fn random_line(rng: &mut Rng) -> String {
    let n = rng.below(12);
    let mut words: Vec<String> = (0..n).map(|_| rng.pick(WORDS).to_string()).collect();
    // Mostly a real command word first, so that the parser's deeper paths are reached.
    if rng.below(4) != 0 {
        words.insert(0, WORDS[rng.below(31)].to_string());
    }
    if rng.below(4) == 0 {
        // Raw bytes, made valid UTF-8 the way the listener does it.
        let bytes: Vec<u8> = (0..rng.below(20)).map(|_| rng.next() as u8).collect();
        words.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    words.join(" ")
}

fn random_fen(rng: &mut Rng) -> String {
    if rng.below(2) == 0 {
        // A real FEN with a few characters changed: close to valid, the interesting region.
        let mut fen: Vec<u8> = rng
            .pick(&[
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            ])
            .as_bytes()
            .to_vec();
        for _ in 0..=rng.below(3) {
            let i = rng.below(fen.len());
            fen[i] = FEN_CHARS[rng.below(FEN_CHARS.len())];
        }
        String::from_utf8_lossy(&fen).into_owned()
    } else {
        (0..rng.below(70))
            .map(|_| FEN_CHARS[rng.below(FEN_CHARS.len())] as char)
            .collect()
    }
}

#[test]
fn random_lines_never_panic_the_parser_or_position_setup() {
    let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
    let mut parsed = 0;
    let mut engine = Engine::new(Arc::new(|_| {}));
    for _ in 0..20_000 {
        let line = random_line(&mut rng);
        match parse_command(&line) {
            Ok(Some(Command::Position { start, moves })) => {
                parsed += 1;
                let fen = match &start {
                    Start::StartPos => None,
                    Start::Fen(f) => Some(f.as_str()),
                };
                let c960 = if rng.below(2) == 0 { "true" } else { "false" };
                engine
                    .set_option("UCI_Chess960", Some(c960))
                    .expect("a valid value");
                let before = engine.fen();
                match engine.set_position(fen, &moves) {
                    // A bad FEN keeps the position; a bad move keeps the ones before it.
                    Err(PositionError::Fen { .. }) => assert_eq!(engine.fen(), before),
                    Err(PositionError::Move { index, .. }) => assert!(index < moves.len()),
                    Err(e) => panic!("unexpected {e}"),
                    Ok(()) => {}
                }
                let _ = engine
                    .position::<corvid::variants::Chess>()
                    .map(|p| p.legal_moves());
            }
            Ok(Some(Command::SetOption { name, value })) => {
                parsed += 1;
                if let Some(spec) = find_option(&name) {
                    let _ = spec.parse_value(value.as_deref());
                }
            }
            Ok(Some(_)) => parsed += 1,
            Ok(None) => {}
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
    // The generator must reach the parser's valid paths too, or the test proves little.
    assert!(parsed > 500, "only {parsed} lines parsed");
}

#[test]
fn random_fens_are_refused_or_sound() {
    let mut rng = Rng::new(0x0F0F_1234_AAAA_5555);
    let mut accepted = 0;
    for _ in 0..20_000 {
        let fen = random_fen(&mut rng);
        for chess960 in [false, true] {
            let Ok(pos) = Position::from_fen(&fen, chess960) else {
                continue;
            };
            accepted += 1;
            let again = Position::from_fen(&pos.to_fen(), pos.is_chess960())
                .unwrap_or_else(|e| panic!("'{fen}' -> '{}' does not re-read: {e}", pos.to_fen()));
            assert_eq!(again.to_fen(), pos.to_fen());
            assert_eq!(again.key(), pos.key(), "{fen}");
            assert_eq!(pos.key(), pos.compute_key(), "{fen}");
            for &m in pos.legal_moves().iter() {
                let text = m.to_uci(pos.is_chess960());
                assert_eq!(pos.parse_uci_move(&text), Ok(m), "{fen} {text}");
                let mut child = pos;
                child.make_move(m);
                assert_eq!(child.key(), child.compute_key(), "{fen} {text}");
            }
        }
    }
    assert!(accepted > 500, "only {accepted} FENs accepted");
}
