//! Whole UCI sessions against the real `corvid` binary: every command, option edge values, stop / ponderhit /
//! quit mid-search, `isready` answered mid-search, `bestmove` exactly once per `go`, and malformed input.

mod common;

use common::child::{Corvid, SOON};
use corvid::chess::Position;
use std::time::{Duration, Instant};

fn count_bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// The move of a `bestmove` line, checked legal in `pos`.
fn assert_legal_bestmove(line: &str, pos: &Position) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"bestmove"), "{line}");
    let mv = words.get(1).expect("a move");
    assert!(pos.parse_uci_move(mv).is_ok(), "illegal bestmove in {line}");
    if let Some(i) = words.iter().position(|&w| w == "ponder") {
        let mut after = *pos;
        after.make_move(pos.parse_uci_move(mv).expect("legal"));
        let reply = words.get(i + 1).expect("a ponder move");
        assert!(
            after.parse_uci_move(reply).is_ok(),
            "illegal ponder move in {line}"
        );
    }
}

fn is_move_text(m: &str) -> bool {
    let b = m.as_bytes();
    (4..=5).contains(&b.len())
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
}

fn value_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Corvid::start();
    e.send("uci");
    let lines = e.until("uciok", SOON, |l| l == "uciok");
    assert!(lines[0].starts_with("id name Corvid"));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "Clear Hash",
        "UCI_Chess960",
        "UCI_ShowWDL",
        "UCI_Variant",
        "UCI_LimitStrength",
        "UCI_Elo",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "no option {name} in {lines:?}"
        );
    }
    let before = e.isready();
    assert!(before.is_empty());
    e.quit();
}

#[test]
fn go_depth_reports_info_then_one_legal_bestmove() {
    let mut e = Corvid::start();
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go depth 4");
    let lines = e.bestmove(SOON * 4);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    let last = infos[infos.len() - 1];
    assert_eq!(value_after(last, "depth"), Some("4"), "{last}");
    for key in [
        "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ] {
        assert!(value_after(last, key).is_some(), "no {key} in {last}");
    }
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5", "g1f3"] {
        pos.make_move(pos.parse_uci_move(m).expect("legal"));
    }
    assert_legal_bestmove(lines.last().expect("bestmove"), &pos);
    // No second bestmove follows.
    let after = e.isready();
    assert_eq!(count_bestmoves(&after), 0, "{after:?}");
    e.quit();
}

#[test]
fn limits_nodes_movetime_mate_and_clock_each_end_with_one_bestmove() {
    let mut e = Corvid::start();
    e.send("position startpos");
    for go in [
        "go nodes 2000",
        "go movetime 50",
        "go wtime 300 btime 300 winc 10 binc 10",
        "go wtime 1000 btime 1000 movestogo 1",
        "go depth 2 searchmoves a2a3 h2h4",
    ] {
        e.send(go);
        let lines = e.bestmove(SOON * 2);
        assert_legal_bestmove(lines.last().expect("bestmove"), &Position::startpos());
        if go.contains("searchmoves") {
            let best = lines.last().expect("bestmove");
            assert!(
                best.starts_with("bestmove a2a3") || best.starts_with("bestmove h2h4"),
                "{best}"
            );
        }
        let after = e.isready();
        assert_eq!(count_bestmoves(&after), 0, "{go}: {after:?}");
    }
    // A mate in 2 for White (Qh5-f7 style): `go mate 2` finds a mate score.
    e.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    e.send("go mate 2");
    let lines = e.bestmove(SOON * 4);
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "no mate score: {lines:?}"
    );
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove h5f7")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = Corvid::start();
    // Checkmated (back-rank mate), then stalemated.
    e.send("position fen R5k1/5ppp/8/8/8/8/8/K7 b - - 0 1");
    e.send("go depth 3");
    let lines = e.bestmove(SOON);
    assert!(
        lines.iter().any(|l| l.contains("score mate 0")),
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));

    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 100");
    let lines = e.bestmove(SOON);
    assert!(lines.iter().any(|l| l.contains("score cp 0")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));

    // While infinite, even a mated side waits for `stop` before answering.
    e.send("position fen R5k1/5ppp/8/8/8/8/8/K7 b - - 0 1");
    e.send("go infinite");
    let before = e.isready();
    std::thread::sleep(Duration::from_millis(100));
    let more = e.isready();
    assert_eq!(count_bestmoves(&before) + count_bestmoves(&more), 0);
    e.send("stop");
    let lines = e.bestmove(SOON);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    e.quit();
}

#[test]
fn isready_is_answered_at_once_mid_search_and_stop_ends_it() {
    let mut e = Corvid::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let mut worst = Duration::ZERO;
    for _ in 0..5 {
        let (before, took) = e.isready_timed();
        assert_eq!(
            count_bestmoves(&before),
            0,
            "infinite search answered by itself"
        );
        worst = worst.max(took);
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(worst < Duration::from_millis(100), "isready took {worst:?}");
    let t = Instant::now();
    e.send("stop");
    let lines = e.bestmove(SOON);
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "stop took {:?}",
        t.elapsed()
    );
    assert_legal_bestmove(lines.last().expect("bestmove"), &Position::startpos());
    let after = e.isready();
    assert_eq!(count_bestmoves(&after), 0);
    e.quit();
}

#[test]
fn stop_at_once_still_gives_exactly_one_bestmove() {
    let mut e = Corvid::start();
    e.send("position startpos moves d2d4");
    let mut pos = Position::startpos();
    pos.make_move(pos.parse_uci_move("d2d4").expect("legal"));
    for _ in 0..5 {
        e.send("go infinite");
        e.send("stop");
        let lines = e.bestmove(SOON);
        assert_legal_bestmove(lines.last().expect("bestmove"), &pos);
    }
    // `stop` without a search, and a second `stop`, are harmless and silent.
    e.send("stop");
    e.send("stop");
    let after = e.isready();
    assert_eq!(count_bestmoves(&after), 0, "{after:?}");
    // A `go` during a search ends that search first: two gos, two bestmoves.
    e.send("go infinite");
    e.send("go depth 2");
    let first = e.bestmove(SOON);
    let second = e.bestmove(SOON);
    assert_legal_bestmove(first.last().expect("bestmove"), &pos);
    assert_legal_bestmove(second.last().expect("bestmove"), &pos);
    e.quit();
}

#[test]
fn ponder_waits_for_ponderhit_or_stop() {
    let mut e = Corvid::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    std::thread::sleep(Duration::from_millis(400));
    let (before, took) = e.isready_timed();
    assert!(took < Duration::from_millis(100), "isready took {took:?}");
    assert_eq!(count_bestmoves(&before), 0, "answered while pondering");
    // After ponderhit the clock (2 s) runs: a move must come well within it.
    let t = Instant::now();
    e.send("ponderhit");
    e.bestmove(Duration::from_millis(2000));
    assert!(t.elapsed() < Duration::from_millis(2000));

    e.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.bestmove(SOON);
    // ponderhit with no search is ignored.
    e.send("ponderhit");
    let after = e.isready();
    assert_eq!(count_bestmoves(&after), 0);
    e.quit();
}

#[test]
fn quit_and_end_of_input_end_a_running_search() {
    let mut e = Corvid::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    let took = e.wait_exit(SOON);
    assert!(took < Duration::from_millis(500), "quit took {took:?}");

    let mut e = Corvid::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.close_input();
    let took = e.wait_exit(SOON);
    assert!(took < Duration::from_millis(500), "EOF took {took:?}");
}

#[test]
fn options_accept_their_edges_and_refuse_beyond() {
    let mut e = Corvid::start();
    for ok in [
        "setoption name Hash value 1",
        "setoption name Threads value 1",
        "setoption name Threads value 2",
        "setoption name MultiPV value 1",
        "setoption name MultiPV value 3",
        "setoption name Move Overhead value 0",
        "setoption name Move Overhead value 5000",
        "setoption name move overhead value 10",
        "setoption name Clear Hash",
        "setoption name UCI_ShowWDL value true",
        "setoption name UCI_Variant value chess",
        "setoption name UCI_LimitStrength value false",
        "setoption name UCI_Elo value 1320",
        "setoption name UCI_Elo value 3000",
        "setoption name Ponder value false",
    ] {
        e.send(ok);
        let before = e.isready();
        assert!(before.is_empty(), "'{ok}' gave {before:?}");
    }
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value 65537",
        "setoption name Hash value -3",
        "setoption name Hash value big",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name Threads value 513",
        "setoption name MultiPV value 0",
        "setoption name Move Overhead value -1",
        "setoption name UCI_Elo value 1319",
        "setoption name UCI_Elo value 3001",
        "setoption name UCI_Chess960 value maybe",
        "setoption name UCI_Variant value shogi",
        "setoption name Skill Level value 3",
        "setoption value 3",
    ] {
        e.expect_complaint(bad);
    }
    // The largest Hash is either granted or refused with a message; the engine goes on either way.
    e.send("setoption name Hash value 65536");
    e.isready();
    e.send("setoption name Hash value 8");

    // MultiPV 3 and WDL show in the search output.
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.bestmove(SOON * 2);
    let last_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 3 "))
        .collect();
    for pv in 1..=3 {
        let tag = format!(" multipv {pv} ");
        assert!(
            last_depth.iter().any(|l| l.contains(&tag)),
            "no multipv {pv}: {lines:?}"
        );
    }
    assert!(
        last_depth.iter().all(|l| l.contains(" wdl ")),
        "{last_depth:?}"
    );

    // Weakened play still gives a legal move.
    e.send("setoption name MultiPV value 1");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1320");
    e.send("go movetime 100");
    let lines = e.bestmove(SOON);
    assert_legal_bestmove(lines.last().expect("bestmove"), &Position::startpos());
    e.quit();
}

#[test]
fn castling_text_follows_uci_chess960() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut e = Corvid::start();
    // Both notations are read in either mode; `d` shows the position after castling.
    // (Chess960 mode writes the castling field Shredder-style.)
    for (mode, castle, rights) in [("false", "e1h1", "kq"), ("true", "e1g1", "ha")] {
        e.send(&format!("setoption name UCI_Chess960 value {mode}"));
        e.send(&format!("position fen {fen} moves {castle}"));
        e.send("d");
        let lines = e.until("Fen line", SOON, |l| l.starts_with("Fen:"));
        let want = format!("Fen: r3k2r/8/8/8/8/8/8/R4RK1 b {rights} - 1 1");
        assert_eq!(lines.last(), Some(&want));
    }
    // The search writes castling as king-takes-rook in Chess960 mode, king-two-squares otherwise.
    for (mode, castle) in [("true", "e1h1"), ("false", "e1g1")] {
        e.send(&format!("setoption name UCI_Chess960 value {mode}"));
        e.send("position fen 4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1");
        e.send(&format!("go depth 1 searchmoves {castle}"));
        let lines = e.bestmove(SOON);
        assert_eq!(
            lines.last().map(|l| l.split_whitespace().nth(1)),
            Some(Some(castle)),
            "{lines:?}"
        );
    }
    e.quit();
}

#[test]
fn d_eval_perft_and_bench() {
    let mut e = Corvid::start();
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("go perft 3");
    let lines = e.until("Nodes searched", SOON * 4, |l| {
        l.starts_with("Nodes searched")
    });
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 97862")
    );
    let per_move: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| is_move_text(m))
        .map(|(_, n)| n.parse::<u64>().expect("a count"))
        .collect();
    assert_eq!(per_move.len(), 48);
    assert_eq!(per_move.iter().sum::<u64>(), 97862);

    e.send("position fen 4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    e.send("d");
    let lines = e.until("Checkers", SOON, |l| l.starts_with("Checkers:"));
    assert!(lines
        .iter()
        .any(|l| l == "Fen: 4k3/8/8/8/8/8/8/4K2r w - - 0 1"));
    let key = lines
        .iter()
        .find_map(|l| l.strip_prefix("Key: "))
        .expect("key line");
    assert_eq!(key.len(), 16);
    assert!(key.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(lines.last().map(String::as_str), Some("Checkers: h1"));

    e.send("eval");
    let lines = e.isready();
    assert!(!lines.is_empty(), "eval printed nothing");

    e.send("bench 2");
    let lines = e.until("bench summary", Duration::from_secs(60), |l| {
        l.ends_with(" nps") && l.contains(" nodes ")
    });
    let last = lines.last().expect("summary");
    let nodes: u64 = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("node count");
    assert!(nodes > 0);
    e.quit();
}

#[test]
fn malformed_input_gets_one_info_string_and_changes_nothing() {
    let mut e = Corvid::start();
    e.send("position startpos moves e2e4");
    for bad in [
        "hello",
        "UCI",
        "go perft",
        "go perft 999",
        "position",
        "position fen",
        "position kiwipete",
        "position startpos e2e4",
        "position fen 8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "setoption",
        "setoption name",
        "isready please",
        "bench 0",
        "debug maybe",
        "\u{7f}\u{1b}[A",
        "ééé ☃",
    ] {
        e.expect_complaint(bad);
    }
    // None of that changed the position.
    e.send("d");
    let lines = e.until("Fen line", SOON, |l| l.starts_with("Fen:"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    // An illegal move in the list: the moves before it stand (as Stockfish does).
    let complaint = e.expect_complaint("position startpos moves e2e4 e7e5 e1e3 d7d5");
    assert!(complaint.contains("e1e3"), "{complaint}");
    e.send("d");
    let lines = e.until("Fen line", SOON, |l| l.starts_with("Fen:"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    );
    // An illegal searchmove is reported and left out; the search still answers with a legal move.
    e.send("go depth 2 searchmoves e1e5 d2d4");
    let lines = e.bestmove(SOON);
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count(),
        1,
        "{lines:?}"
    );
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove d2d4")));
    // Empty and blank lines are silently ignored.
    e.send("");
    e.send("   \t ");
    let before = e.isready();
    assert!(before.is_empty(), "{before:?}");
    e.quit();
}

/// The GUI waits for the `bestmove` of every `go`: a malformed one is reported, and searches with the rest.
#[test]
fn malformed_go_is_reported_and_still_gives_one_bestmove() {
    let mut e = Corvid::start();
    e.send("position startpos moves e2e4");
    let mut pos = Position::startpos();
    pos.make_move(pos.parse_uci_move("e2e4").expect("legal"));
    for (go, open_ended) in [
        ("go depth 0", false),
        ("go depth -2", false),
        ("go depht 5 depth 2", false),
        ("go nodes many depth 2", false),
        ("go wtime 1e3 btime 500 winc 0 binc 0", false),
        ("go movestogo 0 wtime 500 btime 500", false),
        (
            "go mate 99999999999999999999999999999999999999999999 nodes 3000",
            false,
        ),
        ("go movetime", true),
        ("go depht 5", true),
        ("go infinite perft 3", true),
    ] {
        e.send(go);
        let mut lines = Vec::new();
        if open_ended {
            // Nothing left to limit it: it searches until told to stop.
            lines = e.isready();
            assert_eq!(count_bestmoves(&lines), 0, "{go}: {lines:?}");
            e.send("stop");
        }
        lines.extend(e.bestmove(SOON));
        let complaints = lines
            .iter()
            .filter(|l| l.starts_with("info string error: go: "))
            .count();
        assert_eq!(complaints, 1, "{go}: {lines:?}");
        assert_legal_bestmove(lines.last().expect("bestmove"), &pos);
        let after = e.isready();
        assert_eq!(count_bestmoves(&after), 0, "{go}: {after:?}");
    }
    e.quit();
}

#[test]
fn go_before_position_searches_the_start_position() {
    let mut e = Corvid::start();
    e.send("go depth 2");
    let lines = e.bestmove(SOON);
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count(),
        1,
        "{lines:?}"
    );
    assert_legal_bestmove(lines.last().expect("bestmove"), &Position::startpos());
    e.quit();
}

#[test]
fn xboard_first_line_switches_to_cecp() {
    // The CECP sessions themselves are tested in tests/xboard_session.rs; here only the switch: after
    // `xboard`, `protover 2` gets features, and a UCI command is an unknown CECP command.
    let (mut e, features) = Corvid::start_cecp();
    assert!(
        features.iter().all(|l| l.starts_with("feature ")),
        "{features:?}"
    );
    e.send("isready");
    let reply = e.next_line(SOON).expect("a reply to isready");
    assert_eq!(reply, "Error (unknown command): isready");
    e.quit();
}

#[test]
fn makromachy_over_uci() {
    use corvid::makro::Position as MakroPosition;
    let mut e = Corvid::start();
    e.send("uci");
    e.until("uciok", SOON, |l| l == "uciok");
    e.send("setoption name UCI_Variant value makromachy");
    let announce = e.until("variant line", SOON, |l| {
        l.starts_with("info string variant")
    });
    assert_eq!(
        announce.last().map(String::as_str),
        Some(
            format!(
                "info string variant makromachy files 14 ranks 14 startpos {}",
                corvid::makro::STARTPOS
            )
            .as_str()
        )
    );
    // Moves in Makromachy notation (two-digit ranks), a search, and a legal answer.
    e.send("position startpos moves h4h7 h11h8");
    let mut pos = MakroPosition::startpos();
    for m in ["h4h7", "h11h8"] {
        let mv = pos.parse_move(m).expect("legal");
        pos.make_move(mv);
    }
    e.send("go depth 3");
    let lines = e.bestmove(SOON * 4);
    assert_eq!(count_bestmoves(&lines), 1);
    let best = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .expect("a move")
        .to_string();
    assert!(pos.parse_move(&best).is_ok(), "illegal bestmove {best}");
    // d shows the Makromachy FEN; go perft counts Makromachy moves.
    e.send("d");
    let d = e.until("Fen line", SOON, |l| l.starts_with("Fen:"));
    assert_eq!(
        d.last().map(String::as_str),
        Some(format!("Fen: {}", pos.to_fen()).as_str())
    );
    e.send("position startpos");
    e.send("go perft 1");
    let perft = e.until("Nodes searched", SOON * 4, |l| {
        l.starts_with("Nodes searched")
    });
    assert_eq!(perft.last().map(String::as_str), Some("Nodes searched: 62"));
    // A bad Makromachy move is refused with one line; back to chess works.
    e.expect_complaint("position startpos moves h4h9");
    e.send("setoption name UCI_Variant value chess");
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let lines = e.bestmove(SOON * 2);
    let mut chess = Position::startpos();
    chess.make_move(chess.parse_uci_move("e2e4").expect("legal"));
    assert_legal_bestmove(lines.last().expect("bestmove"), &chess);
    e.quit();
}

/// `bench depth`'s node count (the first word of its last line).
fn bench_nodes(e: &mut Corvid, depth: u32) -> u64 {
    e.send(&format!("bench {depth}"));
    let lines = e.until("bench summary", Duration::from_secs(120), |l| {
        l.ends_with(" nps") && l.contains(" nodes ")
    });
    lines
        .last()
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("node count")
}

#[test]
fn tunables_lists_the_search_and_the_games_overrides() {
    let mut e = Corvid::start();
    e.send("tunables");
    let lines = e.isready();
    let want: Vec<String> = corvid::engine::tunables()
        .iter()
        .map(|t| t.spsa_line())
        .collect();
    assert_eq!(lines, want);
    for line in [
        // A search value the SPSA leaves alone, so that a tune does not change this line.
        "aspiration_min_depth, int, 4.0, 2.0, 8.0, 0.50, 0.002",
        "makro_qs_recapture_depth, int, 4.0, 2.0, 8.0, 0.50, 0.002",
    ] {
        assert!(lines.iter().any(|l| l == line), "no {line} in {lines:?}");
    }
    // Only a tuning build offers them as options (and accepts them).
    e.send("uci");
    let reply = e.until("uciok", SOON, |l| l == "uciok");
    let spin = "option name makro_qs_recapture_depth type spin default 4 min 2 max 8";
    assert_eq!(
        reply.iter().any(|l| l == spin),
        cfg!(feature = "tune"),
        "{reply:?}"
    );
    if cfg!(feature = "tune") {
        e.expect_complaint("setoption name makro_qs_recapture_depth value 9");
        // The option reaches Makromachy's search: a lower recapture cap changes the bench's node count.
        e.send("setoption name UCI_Variant value makromachy");
        let default = bench_nodes(&mut e, 3);
        let lib = corvid::tools::bench::run_kind(corvid::game::GameKind::Makromachy, Some(3));
        assert_eq!(default, lib.nodes);
        e.send("setoption name makro_qs_recapture_depth value 2");
        assert!(e.isready().iter().all(|l| !l.starts_with("info string")));
        assert_ne!(bench_nodes(&mut e, 3), default);
    } else {
        e.expect_complaint("setoption name makro_qs_recapture_depth value 3");
    }
    e.quit();
}
