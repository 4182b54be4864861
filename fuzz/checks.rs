//! What each fuzz target checks, shared by the cargo-fuzz targets (`fuzz/fuzz_targets/`, nightly) and by
//! `tests/fuzz_regressions.rs`, which replays every input kept under `fuzz/regressions/<target>/` in the
//! stable `cargo test`. Each check panics (the fuzzer's crash) on a bug and returns quietly otherwise.
#![allow(dead_code)]

use std::io::Cursor;
use std::sync::{Arc, Mutex};

use corvid::chess::Position;
use corvid::engine::{find_option, Engine, Report};
use corvid::game::GameKind;
use corvid::search::Limits;
use corvid::variants::Chess;

/// The input as text (invalid UTF-8 replaced, as the protocol listeners do).
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// `uci_command`: every line through the UCI parser, and what a parsed command carries through the engine's
/// own validation (position set-up, option values): none of it may panic.
pub fn uci_command(data: &[u8]) {
    use corvid::uci::{parse_command, Command, Start};
    for line in text(data).lines() {
        match parse_command(line) {
            Ok(Some(Command::Position { start, moves })) => {
                let fen = match &start {
                    Start::StartPos => None,
                    Start::Fen(f) => Some(f.as_str()),
                };
                for chess960 in [false, true] {
                    let start = match fen {
                        None => Ok(Position::startpos()),
                        Some(f) => Position::from_fen(f, chess960),
                    };
                    let Ok(mut pos) = start else { continue };
                    for m in &moves {
                        match pos.parse_uci_move(m) {
                            Ok(mv) => pos.make_move(mv),
                            Err(_) => break,
                        }
                    }
                    let _ = pos.legal_moves();
                    let _ = pos.to_fen();
                }
            }
            Ok(Some(Command::SetOption { name, value })) => {
                if let Some(spec) = find_option(&name) {
                    let _ = spec.parse_value(value.as_deref());
                }
            }
            Ok(_) => {}
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
}

/// Lines a CECP session under fuzzing must not see: they would make one run take seconds (long thinking
/// times, deep fixed depths) or allocate and start without bound (hash size, thread count).
fn slow_cecp_line(line: &str) -> bool {
    let first = line
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    matches!(first.as_str(), "st" | "sd" | "level" | "memory" | "cores")
        || line.to_ascii_lowercase().contains("hash")
}

/// `cecp_command`: every line through the CECP parser (and `level`'s own parser): none of it may panic.
pub fn cecp_command(data: &[u8]) {
    use corvid::xboard::{parse_command, parse_level};
    for line in text(data).lines() {
        if let Err(e) = parse_command(line) {
            let _ = e.to_string();
        }
        if let Some(rest) = line.trim_start().strip_prefix("level") {
            let _ = parse_level(rest);
        }
    }
}

/// `cecp_session`: the input as a CECP session against the real protocol loop (games, moves, setboard,
/// undo, variants, draw offers, results), thinking capped at depth 2 and 1 ms a move: it may not panic.
pub fn cecp_session(data: &[u8]) {
    let mut session = String::from("xboard\nprotover 2\nsd 2\nst 0.001\n");
    for line in text(data).lines().filter(|l| !slow_cecp_line(l)) {
        session.push_str(line);
        session.push('\n');
    }
    corvid::xboard::run(Cursor::new(session.into_bytes()), std::io::sink());
}

/// `fen`: the first line as a FEN (plain, Shredder-FEN and X-FEN castling, with and without Chess960), the
/// rest as move text (coordinates and SAN) in each accepted position. Parsing may refuse but never panic;
/// an accepted position must be sound (its FEN round-trips, its key matches a recomputation, every legal
/// move can be played and re-read in both notations) and an accepted move must be legal.
pub fn fen(data: &[u8]) {
    let input = text(data);
    let (fen_text, moves_text) = input.split_once('\n').unwrap_or((&input, ""));
    for chess960 in [false, true] {
        let Ok(pos) = Position::from_fen(fen_text, chess960) else {
            continue;
        };
        let fen = pos.to_fen();
        let again = Position::from_fen(&fen, pos.is_chess960()).expect("own FEN re-reads");
        assert_eq!(again.to_fen(), fen, "FEN round trip");
        assert_eq!(pos.key(), pos.compute_key(), "key of {fen}");
        let legal = pos.legal_moves();
        for &m in legal.iter() {
            let uci = m.to_uci(pos.is_chess960());
            assert_eq!(pos.parse_uci_move(&uci), Ok(m), "{uci} in {fen}");
            let san = pos.to_san(m);
            assert_eq!(pos.parse_san(&san), Ok(m), "{san} in {fen}");
            let mut child = pos;
            child.make_move(m);
            assert_eq!(child.key(), child.compute_key(), "key after {uci} in {fen}");
        }
        for token in moves_text.split_whitespace().take(64) {
            for m in [pos.parse_uci_move(token), pos.parse_san(token)]
                .into_iter()
                .flatten()
            {
                assert!(
                    legal.contains(&m),
                    "{token} accepted but not legal in {fen}"
                );
            }
        }
    }
}

/// `makro`: the first line as a Makromachy FEN, the rest as move text in the accepted position; then the
/// moves are played one after another as far as they are legal. An accepted position must be sound (FEN
/// round trip, key), an accepted move legal, and every legal move's text must read back as that move.
pub fn makro(data: &[u8]) {
    use corvid::makro::Position as MakroPosition;
    let input = text(data);
    let (fen_text, moves_text) = input.split_once('\n').unwrap_or((&input, ""));
    let start = if fen_text.trim() == "startpos" {
        MakroPosition::startpos()
    } else {
        match MakroPosition::from_fen(fen_text) {
            Ok(p) => p,
            Err(e) => {
                let _ = e.to_string();
                return;
            }
        }
    };
    let fen = start.to_fen();
    let again = MakroPosition::from_fen(&fen).expect("own FEN re-reads");
    assert_eq!(again.to_fen(), fen, "FEN round trip");
    assert_eq!(start.key(), start.compute_key(), "key of {fen}");
    let mut pos = start;
    for token in moves_text.split_whitespace().take(32) {
        let legal = pos.legal_moves();
        for &m in legal.iter().take(400) {
            assert_eq!(
                pos.parse_move(&m.text()),
                Ok(m),
                "{} in {}",
                m.text(),
                pos.to_fen()
            );
        }
        let Ok(m) = pos.parse_move(token) else {
            continue;
        };
        assert!(
            legal.contains(&m),
            "{token} accepted but not legal in {}",
            pos.to_fen()
        );
        pos.make_move(m);
        assert_eq!(pos.key(), pos.compute_key(), "key after {token}");
        let _ = pos.to_fen();
    }
}

/// Byte reader for the session target: each byte picks an action or a value.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    fn upto(&mut self, n: u64) -> u64 {
        self.next().map_or(0, |b| b as u64 % (n + 1))
    }

    /// Up to `max` bytes as text (up to a 0 byte).
    fn text(&mut self, max: usize) -> String {
        let mut out = Vec::new();
        while out.len() < max {
            match self.next() {
                None | Some(0) => break,
                Some(b) => out.push(b),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// Positions the session target starts from, so that short inputs reach deep into real games.
const SESSION_FENS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "7k/8/6KQ/8/8/8/8/8 b - - 0 1",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// `session`: arbitrary command sequences against the engine facade (positions with moves, small `go`
/// limits, ponder and infinite searches, stop, ponderhit, options, variant switches, new games). Every `go`
/// must get exactly one best move, in order, and on a chess position that move must be legal there.
pub fn session(data: &[u8]) {
    let reports: Arc<Mutex<Vec<Report>>> = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&reports);
    let mut engine = Engine::new(Arc::new(move |r| {
        if matches!(r, Report::BestMove(_)) {
            if let Ok(mut v) = sink.lock() {
                v.push(r);
            }
        }
    }));
    let _ = engine.set_option("Hash", Some("1"));
    // Per `go`: the chess position searched (None for Makromachy).
    let mut searched: Vec<Option<Position>> = Vec::new();
    let mut b = Bytes(data);
    let mut actions = 0;
    while let Some(op) = b.next() {
        actions += 1;
        if actions > 48 {
            break;
        }
        match op % 12 {
            0 | 1 => {
                // A position: the start, a fixed one or one from the input, then moves by index or as text.
                let fen = match b.upto(8) {
                    0 | 1 => None,
                    i @ 2..=7 => Some(SESSION_FENS[i as usize - 2].to_string()),
                    _ => Some(b.text(90)),
                };
                let mut moves = Vec::new();
                if engine.game_kind() == GameKind::Makromachy {
                    moves.push(b.text(12));
                } else {
                    let mut pos = match &fen {
                        None => Some(Position::startpos()),
                        Some(f) => Position::from_fen(f, engine.options().chess960).ok(),
                    };
                    for _ in 0..b.upto(6) {
                        let Some(p) = pos.as_mut() else { break };
                        let legal = p.legal_moves();
                        if legal.is_empty() {
                            break;
                        }
                        let i = b.upto(255) as usize % legal.len();
                        let Some(&m) = legal.get(i) else { break };
                        moves.push(m.to_uci(p.is_chess960()));
                        p.make_move(m);
                    }
                    if b.upto(7) == 0 {
                        moves.push(b.text(8));
                    }
                }
                let _ = engine.set_position(fen.as_deref(), &moves);
            }
            2..=4 => {
                let mut limits = Limits::default();
                match b.upto(5) {
                    0 => limits.movetime = Some(1 + b.upto(3)),
                    1 => limits.depth = Some(1 + b.upto(2) as u32),
                    2 => {
                        let t = b.upto(200);
                        limits.wtime = Some(t);
                        limits.btime = Some(t);
                        limits.winc = Some(b.upto(20));
                    }
                    3 => limits.infinite = true,
                    4 => {
                        limits.ponder = true;
                        limits.movetime = Some(1 + b.upto(3));
                    }
                    _ => limits.mate = Some(1 + b.upto(3) as u32),
                }
                // Every search also has a small node budget: a Makromachy iteration can be millions of nodes.
                limits.nodes = Some(1 + b.upto(255) * 8);
                let searchmoves = if b.upto(7) == 0 {
                    vec![b.text(8)]
                } else {
                    Vec::new()
                };
                let chess = engine.position::<Chess>().copied();
                searched.push(chess);
                let _ = engine.go(limits, &searchmoves);
            }
            5 => engine.stop(),
            6 => engine.ponderhit(),
            7 => {
                let (name, value) = match b.upto(7) {
                    0 => ("Threads", format!("{}", 1 + b.upto(2))),
                    1 => ("MultiPV", format!("{}", 1 + b.upto(3))),
                    2 => ("UCI_Chess960", format!("{}", b.upto(1) == 1)),
                    3 => ("UCI_LimitStrength", format!("{}", b.upto(1) == 1)),
                    4 => ("UCI_Elo", format!("{}", 900 + b.upto(255) * 8)),
                    5 => ("UCI_Variant", "makromachy".to_string()),
                    6 => ("UCI_Variant", "chess".to_string()),
                    _ => ("MultiPV", b.text(6)),
                };
                let _ = engine.set_option(name, Some(&value));
            }
            8 => engine.new_game(),
            9 => {
                let _ = engine.set_option("Clear Hash", None);
            }
            10 => {
                let _ = engine.display();
            }
            _ => {
                // A short wait lets a search run into its limits or a stop arrive mid-iteration.
                std::thread::sleep(std::time::Duration::from_micros(b.upto(255) * 8));
            }
        }
    }
    engine.quit();
    let got = reports.lock().map(|v| v.clone()).unwrap_or_default();
    assert_eq!(got.len(), searched.len(), "one best move per go");
    for (report, pos) in got.iter().zip(&searched) {
        let (Report::BestMove(outcome), Some(pos)) = (report, pos) else {
            continue;
        };
        match &outcome.best {
            Some(m) => assert!(
                pos.parse_uci_move(&m.text).is_ok(),
                "bestmove {} illegal in {}",
                m.text,
                pos.to_fen()
            ),
            None => assert!(
                pos.legal_moves().is_empty(),
                "no bestmove in {}",
                pos.to_fen()
            ),
        }
    }
}
