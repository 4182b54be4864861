//! CECP (xboard protocol v2) sessions against the real `corvid` binary: the handshake, thinking and moving
//! under `st`/`sd`/`level`, force mode, undo/remove, `?`, illegal and malformed input, draw offers both ways
//! with the re-offer rule, resignation, the result claims of the automatic endings, and Chess960.

mod common;

use common::child::{Corvid, LONG};
use common::Rng;
use corvid::chess::Position;
use std::time::{Duration, Instant};

/// Starts the binary in CECP and checks that the handshake is all `feature` lines.
fn start() -> Corvid {
    let (e, features) = Corvid::start_cecp();
    assert!(
        features.iter().all(|l| l.starts_with("feature ")),
        "{features:?}"
    );
    e
}

fn moved(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("move ").map(str::to_string))
}

#[test]
fn handshake_ping_and_a_game_corvid_plays_black() {
    let mut e = start();
    assert!(e.ping().is_empty());
    e.send("new");
    e.send("st 0.1");
    e.send("post");
    e.send("usermove e2e4");
    let lines = e.until_move();
    let m = moved(&lines).expect("a move");
    let mut pos = Position::startpos();
    pos.make_move(pos.parse_uci_move("e2e4").expect("legal"));
    assert!(pos.parse_uci_move(&m).is_ok(), "{m} {lines:?}");
    // Thinking lines: depth score time nodes seldepth nps tbhits, then the PV (SAN) after a tab.
    let thinking: Vec<&String> = lines.iter().filter(|l| l.contains('\t')).collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    for t in &thinking {
        let (nums, pv) = t.split_once('\t').expect("tab");
        assert_eq!(nums.split(' ').count(), 7, "{t}");
        assert!(nums.split(' ').all(|n| n.parse::<i64>().is_ok()), "{t}");
        assert!(!pv.is_empty(), "{t}");
    }
    // nopost: no thinking lines.
    e.send("nopost");
    pos.make_move(pos.parse_uci_move(&m).expect("legal"));
    let reply = pos
        .legal_moves()
        .iter()
        .next()
        .map(|m| m.to_uci(false))
        .expect("a legal move");
    e.send(&format!("usermove {reply}"));
    let lines = e.until_move();
    assert!(lines.iter().all(|l| !l.contains('\t')), "{lines:?}");
    e.quit();
}

/// `UCI_Elo` has one range in both protocols, and XBoard's default `egtpath` (a folder that usually does not
/// exist) is a log note, while a folder without tables is an error.
#[test]
fn elo_range_as_in_uci_and_a_missing_default_egtpath_is_no_error() {
    let (mut e, features) = Corvid::start_cecp();
    let cecp = features
        .iter()
        .find_map(|l| l.strip_prefix("feature option=\"UCI_Elo -spin "))
        .map(|r| r.trim_end_matches('"').to_string())
        .expect("a UCI_Elo option");
    let mut u = Corvid::start();
    u.send("uci");
    let lines = u.until("uciok", LONG, |l| l == "uciok");
    u.quit();
    let uci = lines
        .iter()
        .find_map(|l| l.strip_prefix("option name UCI_Elo type spin "))
        .expect("UCI_Elo");
    // `default D min A max B` against `D A B`.
    let words: Vec<&str> = uci.split_whitespace().collect();
    assert_eq!(words.len(), 6, "{uci}");
    assert_eq!(cecp, format!("{} {} {}", words[1], words[3], words[5]));

    e.send("egtpath syzygy /EGT/Syzygy-nowhere");
    let lines = e.ping();
    assert!(
        !lines.is_empty() && lines.iter().all(|l| l.starts_with('#')),
        "{lines:?}"
    );
    let empty = std::env::temp_dir().join(format!("corvid-egt-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("dir");
    e.send(&format!("egtpath syzygy {}", empty.display()));
    let lines = e.ping();
    let _ = std::fs::remove_dir_all(&empty);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("Error")).count(),
        1,
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .all(|l| l.starts_with("Error") || l.starts_with('#')));
    e.quit();
}

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let mut e = start();
    e.send("new");
    e.send("force");
    e.send("usermove e2e5");
    e.send("frobnicate");
    e.send("sd 0");
    e.send("setboard not/a/fen w - - 0 1");
    e.send("memory 0");
    e.send("option Nonsense=3");
    e.send("option ResignBelow=lots");
    e.send("variant shogi");
    let lines = e.ping();
    assert_eq!(
        lines,
        vec![
            "Illegal move: e2e5",
            "Error (unknown command): frobnicate",
            "Error (bad argument for sd): sd 0",
            "tellusererror Illegal position",
            "Error (option 'Hash': 0 is out of range (1 to 65536)): memory",
            "Error (no such option 'Nonsense'): Nonsense",
            "Error (bad value): option ResignBelow=lots",
            "Error (unsupported variant): shogi",
        ]
    );
    // Still the start position: e2e4 is legal.
    e.send("usermove e2e4");
    assert!(e.ping().is_empty());
    e.send("memory 8");
    e.send("cores 1");
    e.send("option MoveOverhead=20");
    e.send("option ClearHash");
    e.send("hard");
    e.send("easy");
    e.send("accepted memory");
    e.send("random");
    e.send("computer");
    assert!(e.ping().is_empty());
    e.quit();
}

#[test]
fn garbage_never_stops_the_engine() {
    let mut e = start();
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let words = [
        "level",
        "st",
        "sd",
        "time",
        "otim",
        "usermove",
        "setboard",
        "memory",
        "cores",
        "option",
        "result",
        "variant",
        "draw",
        "undo",
        "remove",
        "go",
        "force",
        "new",
        "playother",
        "?",
        "e2e4",
        "O-O",
        "=",
        "-1",
        "99999999999999999999",
        "1e400",
        "0:99",
        "nan",
        "\u{1F426}",
        "fischerandom",
        "8/8/8",
        "w",
    ];
    for _ in 0..300 {
        let mut line = String::new();
        for _ in 0..rng.below(5) {
            line.push_str(rng.pick(&words));
            line.push(' ');
        }
        // Never `quit`; `go` may start a search, which `force` or the next `new` ends.
        e.send(line.trim());
    }
    e.send("force");
    e.send("new");
    e.ping();
    e.send("force");
    e.send("usermove e2e4");
    let lines = e.ping();
    assert!(lines.is_empty(), "{lines:?}");
    e.quit();
}

#[test]
fn force_go_undo_remove_and_move_now() {
    let mut e = start();
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    e.send("usermove e7e5");
    e.send("remove");
    e.send("sd 2");
    assert!(e.ping().is_empty());
    // Back at the start: `go` makes Corvid play White from there.
    e.send("go");
    let m = moved(&e.until_move()).expect("a move");
    assert!(Position::startpos().parse_uci_move(&m).is_ok(), "{m}");
    e.send("force");
    e.send("undo");
    e.send("undo");
    let lines = e.ping();
    assert_eq!(lines, vec!["Error (no move to take back): undo"]);
    // `?` ends a long search at once.
    e.send("new");
    e.send("st 60");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("?");
    let m = moved(&e.until_move()).expect("a move");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(Position::startpos().parse_uci_move(&m).is_ok());
    // A clock-based level: a move well inside the clock.
    e.send("new");
    e.send("level 40 0:05 0");
    e.send("time 500");
    e.send("otim 500");
    e.send("go");
    let t = Instant::now();
    moved(&e.until_move()).expect("a move");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    e.quit();
}

#[test]
fn automatic_endings_are_claimed() {
    let mut e = start();
    // Corvid's own capture leaves K v K.
    e.send("new");
    e.send("setboard 8/8/8/8/3r4/3K4/8/7k w - - 0 1");
    e.send("sd 3");
    e.send("go");
    let lines = e.until_move();
    assert_eq!(moved(&lines).as_deref(), Some("d3d4"), "{lines:?}");
    let last = e.until("a result", LONG, |l| l.starts_with("1/2-1/2"));
    assert_eq!(
        last.last().map(String::as_str),
        Some("1/2-1/2 {Draw: no mate possible}")
    );

    // The opponent's move completes the hundredth quiet ply.
    e.send("new");
    e.send("setboard 7k/8/8/8/8/8/R7/K7 w - - 99 80");
    e.send("usermove a2b2");
    assert_eq!(e.ping(), vec!["1/2-1/2 {Draw by fifty-move rule}"]);

    // The opponent's move makes the third occurrence.
    e.send("new");
    e.send("force");
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("playother");
    e.send("usermove f6g8");
    assert_eq!(e.ping(), vec!["1/2-1/2 {Draw by repetition}"]);

    // Checkmate by the opponent.
    e.send("new");
    e.send("force");
    for m in ["f2f3", "e7e5", "g2g4"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("playother");
    e.send("usermove d8h4");
    assert_eq!(e.ping(), vec!["0-1 {Black mates}"]);
    // Asked to move in the finished game, Corvid repeats the result rather than moving.
    e.send("go");
    assert_eq!(e.ping(), vec!["0-1 {Black mates}"]);
    e.quit();
}

#[test]
fn draw_offers_both_ways_and_the_reoffer_rule() {
    let mut e = start();
    e.send("new");
    e.send("sd 3");
    // Corvid (Black) a queen down accepts: it answers `offer draw` and does not move.
    e.send("setboard 4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    e.send("draw");
    e.send("go");
    let lines = e.until("the answer", LONG, |l| {
        l == "offer draw" || l.starts_with("move ")
    });
    assert_eq!(
        lines.last().map(String::as_str),
        Some("offer draw"),
        "{lines:?}"
    );
    assert!(e.ping().iter().all(|l| !l.starts_with("move ")));

    // After 1.e4 Corvid (Black) is not clearly worse: it declines and plays on.
    e.send("new");
    e.send("sd 3");
    e.send("usermove e2e4");
    e.send("draw");
    let lines = e.until_move();
    assert!(moved(&lines).is_some(), "{lines:?}");
    assert!(!lines.iter().any(|l| l == "offer draw"), "{lines:?}");

    // A queen up it declines (plays on); a second offer before it has moved twice is not valid.
    e.send("new");
    e.send("sd 3");
    let fen = "3qk3/8/8/8/8/1K6/PP6/8 b - - 0 1";
    e.send(&format!("setboard {fen}"));
    e.send("draw");
    e.send("draw");
    e.send("go");
    let lines = e.until_move();
    let reply = moved(&lines).expect("Corvid moves");
    assert!(!lines.iter().any(|l| l == "offer draw"), "{lines:?}");
    assert!(
        lines.contains(&"# draw offer not valid: your draw offer still stands".to_string()),
        "{lines:?}"
    );
    // One move of ours (any legal one: Corvid's move may have given check).
    let mut pos = Position::from_fen(fen, false).expect("fen");
    pos.make_move(pos.parse_uci_move(&reply).expect("Corvid's move is legal"));
    let ours = pos.legal_moves()[0].to_uci(false);
    e.send("force");
    e.send(&format!("usermove {ours}"));
    e.send("draw");
    let lines = e.ping();
    assert_eq!(
        lines,
        vec!["# draw offer not valid: a new draw offer needs 1 more move(s) by the opponent since the last one"]
    );

    // Corvid offers with its move when its policy says so (here: always, from the first move).
    e.send("new");
    e.send("sd 2");
    e.send("option OfferDrawAfter=0");
    e.send("option OfferDrawBalance=100000");
    e.send("option OfferDrawStreak=1");
    e.send("go");
    let lines = e.until_move();
    let n = lines.len();
    assert!(n >= 2 && lines[n - 2] == "offer draw", "{lines:?}");
    // Not again on the next move: the opponent has replied only once since.
    e.send("usermove e7e6");
    let lines = e.until_move();
    assert!(!lines.iter().any(|l| l == "offer draw"), "{lines:?}");
    e.send("usermove d7d6");
    let lines = e.until_move();
    assert!(lines.iter().any(|l| l == "offer draw"), "{lines:?}");
    e.quit();
}

#[test]
fn corvid_resigns_when_its_policy_says_so() {
    let mut e = start();
    e.send("new");
    e.send("option ResignBelow=500");
    e.send("option ResignMoves=1");
    e.send("sd 3");
    e.send("setboard 4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    e.send("go");
    let lines = e.until_move();
    assert_eq!(
        lines.last().map(String::as_str),
        Some("resign"),
        "{lines:?}"
    );
    // With resigning off, it plays on.
    e.send("new");
    e.send("option Resign=0");
    e.send("sd 3");
    e.send("setboard 4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    e.send("go");
    assert!(moved(&e.until_move()).is_some());
    e.quit();
}

#[test]
fn chess960_games() {
    let mut e = start();
    let fen = "bqnbrk1r/pppppppp/8/8/8/8/PPPPPPPP/BQNBRK1R w HEhe - 0 1";
    e.send("new");
    e.send("variant fischerandom");
    e.send(&format!("setboard {fen}"));
    e.send("force");
    // Castling in Chess960 comes as O-O.
    e.send("usermove O-O");
    e.send("usermove O-O");
    e.send("sd 3");
    e.send("go");
    let m = moved(&e.until_move()).expect("a move");
    let mut pos = Position::from_fen(fen, true).expect("fen");
    for _ in 0..2 {
        let castle = pos
            .legal_moves()
            .iter()
            .find(|m| m.kind() == corvid::chess::MoveKind::Castling && m.to().file() == 7)
            .copied()
            .expect("O-O legal");
        pos.make_move(castle);
    }
    assert!(
        pos.parse_uci_move(&m).is_ok() || pos.parse_san(&m).is_ok(),
        "{m}"
    );
    e.quit();
}

/// `new` and `variant makromachy` (Corvid plays Black), with the `setup` and `piece` lines it answers with.
fn makromachy(e: &mut Corvid) -> Vec<String> {
    e.send("new");
    e.send("variant makromachy");
    e.ping()
}

#[test]
fn makromachy_variant_setup_pieces_and_a_game() {
    let mut e = start();
    let lines = makromachy(&mut e);
    let setup = lines
        .iter()
        .find(|l| l.starts_with("setup "))
        .expect("a setup line");
    // 14x14 without holdings on the fairy parent, the start position, and a piece-to-char table with
    // every Makromachy letter once per colour and the Kings last.
    assert!(
        setup.ends_with(&format!(" 14x14+0_fairy {}", corvid::makro::STARTPOS)),
        "{setup}"
    );
    let table = &setup[setup.find('(').expect("(") + 1..setup.find(')').expect(")")];
    let (white, black) = table.split_at(table.len() / 2);
    assert!(white.ends_with('K') && black.ends_with('k'), "{table}");
    assert_eq!(white.to_ascii_lowercase(), black);
    for letter in "KQRBNEIJZMADHOGUCVLFSTWP".chars() {
        assert_eq!(white.matches(letter).count(), 1, "{letter} in {table}");
    }
    let pieces: Vec<&String> = lines.iter().filter(|l| l.starts_with("piece ")).collect();
    assert_eq!(pieces.len(), 24, "{lines:?}");
    assert!(
        lines.contains(&"piece T& QNDAcamK".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"piece P& fmWifmW3fceF".to_string()),
        "{lines:?}"
    );
    // A game: Corvid (Black) answers with a legal Makromachy move; thinking lines carry its PV.
    e.send("st 0.2");
    e.send("post");
    e.send("usermove h4h7");
    let lines = e.until_move();
    let m = moved(&lines).expect("a move");
    let mut pos = corvid::makro::Position::startpos();
    pos.make_move(pos.parse_move("h4h7").expect("legal"));
    let reply = pos
        .parse_move(&m)
        .unwrap_or_else(|_| panic!("{m} {lines:?}"));
    assert!(lines.iter().any(|l| l.contains('\t')), "{lines:?}");
    pos.make_move(reply);
    // Two-digit ranks from the GUI: the Bat's long diagonal g3-n10 (open after h4h7).
    let next = pos
        .parse_move("g3n10")
        .unwrap_or_else(|_| pos.legal_moves()[0]);
    e.send(&format!("usermove {}", next.text()));
    let lines = e.until_move();
    assert!(moved(&lines).is_some(), "{lines:?}");
    // Whatever followed (a result, if Corvid's move ended the game) is read before the next game.
    e.ping();
    // `new` is standard chess again (CECP): e2e4 is a move, and Corvid answers with a chess move.
    e.send("new");
    e.send("st 0.1");
    e.send("usermove e2e4");
    let lines = e.until_move();
    let m = moved(&lines).expect("a chess move");
    let mut chess = Position::startpos();
    chess.make_move(chess.parse_uci_move("e2e4").expect("legal"));
    assert!(chess.parse_uci_move(&m).is_ok(), "{m}");
    e.quit();
}

#[test]
fn makromachy_comma_legs_castling_illegal_moves_and_results() {
    let mut e = start();
    makromachy(&mut e);
    e.send("force");
    // A Terror beside a Rook; the King with its a1 Dragon King.
    e.send("setboard 13k/14/14/14/14/14/14/14/14/14/14/7r6/6T7/D7K5 w Q - 0 1");
    e.send("usermove h3h5");
    e.send("usermove g2h3,h3g2");
    e.send("usermove a1a14,a14a1");
    e.send("usermove g2h3,h3i4");
    e.send("usermove n14n13");
    // Castling sent as the King's leg alone (a GUI that does not know fast castling) is accepted.
    e.send("usermove i1c1");
    e.send("usermove n13n12");
    e.send("usermove c1c2,c2c3");
    // `remove` takes back two plies: the King is on i1 again and may castle the other way.
    e.send("remove");
    e.send("usermove i1e1,a1i1");
    e.send("setboard nonsense w - - 0 1");
    e.send("usermove n13n12");
    assert_eq!(
        e.ping(),
        vec![
            "Illegal move: h3h5",
            "Illegal move: g2h3,h3g2",
            "Illegal move: a1a14,a14a1",
            "Illegal move: c1c2,c2c3",
            "tellusererror Illegal position",
        ]
    );
    // Corvid must answer a check by a protected Terror: only hit-and-run captures may take it.
    e.send("setboard 1r11k/14/14/14/14/14/14/14/14/14/14/1t12/2T11/K13 w - - 0 1");
    e.send("st 0.2");
    e.send("go");
    let lines = e.until_move();
    let m = moved(&lines).expect("a move");
    assert!(m.starts_with("c2b3,b3"), "{m}");
    // A mate by the person ends the game with the result line.
    e.send("force");
    e.send("setboard 13k/14/12K1/14/14/14/14/14/14/14/14/14/14/R13 w - - 0 1");
    e.send("playother");
    e.send("usermove a1a14");
    assert_eq!(e.ping(), vec!["1-0 {White mates}"]);
    // Repeating a position with a checking Eagle move loses, even the second time.
    e.send("force");
    e.send("setboard 4k9/14/14/14/14/14/14/14/14/14/14/14/14/K4L8 w - - 0 1");
    for m in ["f1e2", "e14d14", "e2d2", "d14e14"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("playother");
    e.send("usermove d2e2");
    assert_eq!(e.ping(), vec!["0-1 {White repeats with an Eagle check}"]);
    // Bare Kings after Corvid's capture: it moves and claims the draw.
    e.send("force");
    e.send("setboard 13k/14/14/14/14/14/14/14/14/14/14/14/r13/K13 w - - 0 1");
    e.send("go");
    let lines = e.until("a draw", LONG, |l| l.starts_with("1/2-1/2"));
    assert_eq!(moved(&lines).as_deref(), Some("a1a2"), "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("1/2-1/2 {Draw: bare kings}")
    );
    e.quit();
}
