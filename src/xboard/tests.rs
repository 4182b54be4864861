//! Parser and formatter tests for CECP.
#![allow(clippy::unwrap_used, clippy::panic)]

use super::parse::MAX_CLOCK_MS;
use super::*;
use crate::search::{Bound, Info, Score};

fn parse(line: &str) -> Command {
    match parse_command(line) {
        Ok(Some(c)) => c,
        other => panic!("'{line}' gave {other:?}"),
    }
}

#[test]
fn commands() {
    assert_eq!(parse("protover 2"), Command::Protover(2));
    assert_eq!(parse("new"), Command::New);
    assert_eq!(parse("usermove e2e4"), Command::UserMove("e2e4".into()));
    assert_eq!(parse("e7e8q"), Command::UserMove("e7e8q".into()));
    assert_eq!(parse("O-O"), Command::UserMove("O-O".into()));
    assert_eq!(parse("st 0.05"), Command::St(50));
    assert_eq!(parse("st 10"), Command::St(10_000));
    assert_eq!(parse("sd 7"), Command::Sd(7));
    assert_eq!(parse("time 12345"), Command::Time(123_450));
    assert_eq!(parse("otim -20"), Command::Otim(0));
    assert_eq!(parse("ping 17"), Command::Ping("17".into()));
    assert_eq!(parse("?"), Command::MoveNow);
    assert_eq!(parse("hard"), Command::Ponder(true));
    assert_eq!(parse("nopost"), Command::Post(false));
    assert_eq!(parse("memory 64"), Command::Memory(64));
    assert_eq!(
        parse("egtpath syzygy /tb/a b:/tb/c"),
        Command::EgtPath {
            kind: "syzygy".into(),
            path: "/tb/a b:/tb/c".into()
        }
    );
    assert!(parse_command("egtpath syzygy").is_err());
    assert!(parse_command("egtpath").is_err());
    assert_eq!(
        parse("rating 2400 1800"),
        Command::Rating {
            own: 2400,
            opponent: 1800
        }
    );
    assert!(parse_command("rating 2400").is_err());
    assert_eq!(parse("cores 2"), Command::Cores(2));
    assert_eq!(
        parse("option ResignBelow=500"),
        Command::Option {
            name: "ResignBelow".into(),
            value: Some("500".into())
        }
    );
    assert_eq!(
        parse("option Clear Hash"),
        Command::Option {
            name: "Clear Hash".into(),
            value: None
        }
    );
    assert_eq!(
        parse("result 1/2-1/2 {Draw by repetition}"),
        Command::Result {
            result: "1/2-1/2".into(),
            comment: "{Draw by repetition}".into()
        }
    );
    assert_eq!(
        parse("setboard 8/8/8/8/8/8/8/K6k w - - 0 1"),
        Command::SetBoard("8/8/8/8/8/8/8/K6k w - - 0 1".into())
    );
    assert_eq!(parse("accepted memory"), Command::Ignored);
    assert_eq!(parse_command("   "), Ok(None));
}

#[test]
fn levels() {
    let l = |s: &str| parse_level(s);
    assert_eq!(
        l("40 5 0"),
        Some(Level {
            moves: 40,
            base_ms: 300_000,
            inc_ms: 0
        })
    );
    assert_eq!(
        l("0 2:30 1.5"),
        Some(Level {
            moves: 0,
            base_ms: 150_000,
            inc_ms: 1500
        })
    );
    assert_eq!(l("0 0:05 0").map(|l| l.base_ms), Some(5000));
    assert_eq!(l("40 5"), None);
    assert_eq!(l("x 5 0"), None);
    assert_eq!(l("40 5:xx 0"), None);
    assert_eq!(l("0 99999999999999999:00 0"), None);
    assert_eq!(l("0 1e30 0").map(|l| l.base_ms), Some(MAX_CLOCK_MS));
}

#[test]
fn malformed_commands_are_errors() {
    for bad in [
        "protover",
        "sd 0",
        "sd x",
        "st -1",
        "st nan",
        "time x",
        "level 1 2",
        "usermove",
        "setboard",
        "result 2-0",
        "memory -5",
        "frobnicate",
        "e2",
        "variant",
    ] {
        assert!(parse_command(bad).is_err(), "{bad}");
    }
    assert_eq!(
        parse_command("frobnicate 3").unwrap_err().to_string(),
        "Error (unknown command): frobnicate 3"
    );
}

#[test]
fn scores_and_thinking() {
    assert_eq!(xboard_score(Score::Cp(-35)), -35);
    assert_eq!(xboard_score(Score::Mate(3)), 100_003);
    assert_eq!(xboard_score(Score::Mate(-2)), -100_002);
    assert_eq!(xboard_score(Score::Mate(0)), -100_000);
    let info = Info {
        depth: 6,
        seldepth: 9,
        multipv: 1,
        score: Score::Cp(21),
        bound: Bound::Exact,
        wdl: None,
        nodes: 5000,
        nps: 100_000,
        hashfull: 0,
        tbhits: 42,
        time_ms: 1234,
        pv: vec!["g1f3".into(), "d7d5".into(), "zz".into()],
    };
    assert_eq!(
        format_thinking_text(&info, "Nf3 d5"),
        "6 21 123 5000 9 100000 42\tNf3 d5"
    );
}

#[test]
fn features_end_with_done() {
    let f = format_features();
    assert!(f.lines().next().unwrap().contains("done=0"));
    assert_eq!(f.lines().last(), Some("feature done=1"));
    for needed in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "draw=1",
        "myname=\"Corvid",
        "egt=\"syzygy\"",
    ] {
        assert!(f.contains(needed), "{needed}");
    }
    // The engine's options as CECP offers them, from the engine's table (its defaults and ranges).
    let eval_file = crate::eval::nnue::EVAL_FILE_DEFAULT;
    let elo = format!(
        "{} {} {}",
        crate::engine::ELO_MAX,
        crate::engine::ELO_MIN,
        crate::engine::ELO_MAX
    );
    for line in [
        "MoveOverhead -spin 10 0 5000".to_string(),
        "ClearHash -button".to_string(),
        format!("EvalFile -file {eval_file}"),
        "UCI_LimitStrength -check 0".to_string(),
        format!("UCI_Elo -spin {elo}"),
        "OfferDraws -check 1".to_string(),
    ] {
        assert!(
            f.contains(&format!("feature option=\"{line}\"\n")),
            "{line}"
        );
    }
}

#[test]
fn makromachy_moves_are_commands() {
    for m in ["h10h12", "c13c14q", "g2h3,h3i4", "i1c1,a1i1", "n14a1"] {
        assert_eq!(parse(m), Command::UserMove(m.into()), "{m}");
    }
    for bad in ["h100h1", "h1", "g2h3,", "g2h3,h3i4,i4i5", "h1h2qq"] {
        assert!(parse_command(bad).is_err(), "{bad}");
    }
}

// ---------------------------------------------------------------------------------------------------------
// Sessions driven line by line

use super::session::TestSession;
use crate::chess::Position;

/// The PV of a thinking line (after the tab), if it is one.
fn pv_of(line: &str) -> Option<&str> {
    line.split_once('\t').map(|(_, pv)| pv)
}

/// Pumps until a thinking line whose first PV move `legal` accepts, and returns that move.
fn analysed_move(s: &mut TestSession, legal: impl Fn(&str) -> bool) -> String {
    let lines = s.pump(20_000, |l| {
        pv_of(l)
            .and_then(|pv| pv.split(' ').next())
            .is_some_and(&legal)
    });
    assert!(lines.iter().all(|l| !l.starts_with("move ")), "{lines:?}");
    lines
        .iter()
        .rev()
        .find_map(|l| pv_of(l)?.split(' ').next().filter(|m| legal(m)))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("no analysis of the position: {lines:?}"))
}

#[test]
fn features_offer_analysis() {
    assert!(format_features().contains(" analyze=1 "));
    assert_eq!(parse("analyze"), Command::Analyze);
    assert_eq!(parse("exit"), Command::Exit);
    assert_eq!(parse("."), Command::Stat);
    assert_eq!(parse("hint"), Command::Hint);
    assert_eq!(parse("bk"), Command::Book);
    assert_eq!(parse("computer"), Command::Computer);
}

/// CECP's `ping`: answered at once when Corvid is idle or analysing, and after the move when it came while
/// Corvid thought on its own move (each pong in order, after everything sent before its ping).
#[test]
fn ping_during_a_search_for_a_move_is_answered_after_the_move() {
    let mut s = TestSession::new();
    assert_eq!(s.send("ping 1"), ["pong 1"]);
    s.send("new");
    s.send("sd 3");
    // The search runs until its reports are pumped, so both pings arrive while Corvid thinks.
    assert!(s.send("usermove e2e4").is_empty());
    assert!(s.send("ping 2").is_empty());
    assert!(s.send("ping 3").is_empty());
    let lines = s.pump(20_000, |l| l == "pong 3");
    let at = |t: &str| lines.iter().position(|l| l == t);
    let mv = lines
        .iter()
        .position(|l| l.starts_with("move "))
        .unwrap_or_else(|| panic!("no move: {lines:?}"));
    assert_eq!(at("pong 2"), Some(mv + 1), "{lines:?}");
    assert_eq!(at("pong 3"), Some(mv + 2), "{lines:?}");
    // A search ended without a move (`force`) answers its held ping too.
    s.send("usermove d2d4");
    s.send("ping 4");
    assert_eq!(s.send("force"), ["pong 4"]);
    // Analysis is no move of Corvid's: its pings are answered at once.
    s.send("analyze");
    assert_eq!(s.send("ping 5"), ["pong 5"]);
    s.send("exit");
}

/// Chess analysis: thinking lines without a move, restarted after `usermove`, `undo` and `setboard`; `.`,
/// `hint` and `bk` answered; `exit` ends it, after which a move gets no reply (force mode).
#[test]
fn chess_analysis_follows_the_game_and_plays_nothing() {
    let mut s = TestSession::new();
    s.send("new");
    s.send("force");
    assert!(s.send("analyze").is_empty());
    let start = Position::startpos();
    let san_ok = |p: Position| move |m: &str| p.parse_san(m).is_ok();
    analysed_move(&mut s, san_ok(start));
    // `.`: stat01: time nodes ply mvleft mvtot [mvname], figures that add up.
    let stat = s.send(".");
    assert_eq!(stat.len(), 1, "{stat:?}");
    let f: Vec<&str> = stat[0].split(' ').collect();
    assert_eq!(f[0], "stat01:", "{stat:?}");
    let n: Vec<u64> = f[1..6].iter().map(|x| x.parse().unwrap()).collect();
    assert_eq!(n[4], 20, "20 root moves: {stat:?}");
    assert!(n[3] <= n[4] && n[1] > 0, "{stat:?}");
    // A move: the analysis goes on from the new position, for Black.
    assert!(s.send("usermove e2e4").is_empty());
    let mut after = start;
    after.make_move(after.parse_uci_move("e2e4").unwrap());
    let best = analysed_move(&mut s, san_ok(after));
    let hint = s.send("hint");
    let m = hint[0].strip_prefix("Hint: ").unwrap();
    assert!(after.parse_uci_move(m).is_ok(), "{hint:?} (best {best})");
    // Back to the start position, then another position altogether.
    s.send("undo");
    analysed_move(&mut s, san_ok(start));
    let fen = "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1";
    s.send(&format!("setboard {fen}"));
    analysed_move(&mut s, san_ok(Position::from_fen(fen, false).unwrap()));
    assert_eq!(s.send("bk"), [" Corvid has no opening book", ""]);
    // Leaving analysis: no more thinking, and Corvid is in force mode.
    s.send("exit");
    s.pump(300, |_| false);
    assert!(s.send(".").is_empty());
    s.send("usermove e2e4");
    let quiet = s.pump(500, |_| false);
    assert!(quiet.is_empty(), "{quiet:?}");
}

#[test]
fn chess960_analysis() {
    let mut s = TestSession::new();
    s.send("new");
    s.send("variant fischerandom");
    let fen = "bqnbrk1r/pppppppp/8/8/8/8/PPPPPPPP/BQNBRK1R w HEhe - 0 1";
    s.send(&format!("setboard {fen}"));
    s.send("force");
    s.send("analyze");
    let pos = Position::from_fen(fen, true).unwrap();
    analysed_move(&mut s, |m| pos.parse_san(m).is_ok());
    let hint = s.send("hint");
    let m = hint[0].strip_prefix("Hint: ").unwrap();
    assert!(m == "O-O" || pos.parse_uci_move(m).is_ok(), "{hint:?}");
    s.send("exit");
}

#[test]
fn makromachy_analysis_follows_the_game() {
    let mut s = TestSession::new();
    s.send("new");
    let setup = s.send("variant makromachy");
    assert!(setup[0].starts_with("setup "), "{setup:?}");
    s.send("force");
    s.send("analyze");
    let start = crate::makro::Position::startpos();
    analysed_move(&mut s, |m| start.parse_move(m).is_ok());
    s.send("usermove h4h7");
    let mut after = start.clone();
    after.make_move(after.parse_move("h4h7").unwrap());
    analysed_move(&mut s, |m| after.parse_move(m).is_ok());
    let hint = s.send("hint");
    let m = hint[0].strip_prefix("Hint: ").unwrap();
    assert!(after.parse_move(m).is_ok(), "{hint:?}");
    s.send("exit");
}

/// White mates with `b1b14` (Rooks on a13 and b1 against a lone King in the corner).
const MAKRO_MATE_IN_ONE: &str = "13k/R13/14/14/14/14/14/14/14/14/14/14/14/1R10K1 w - - 0 1";

/// A Makromachy session from `fen`, the opponent an engine when `computer`.
fn makro_session(fen: &str, computer: bool) -> TestSession {
    let mut s = TestSession::new();
    s.send("new");
    s.send("variant makromachy");
    s.send(&format!("setboard {fen}"));
    if computer {
        s.send("computer");
    }
    s
}

/// Corvid plays the side to move (a short search): what it writes, up to a moment after its move.
fn corvid_moves(s: &mut TestSession) -> Vec<String> {
    s.send("sd 2");
    s.send("go");
    let lines = s.pump(20_000, |l| l.starts_with("move "));
    [lines, s.pump(300, |_| false)].concat()
}

/// Makromachy endings against another engine (`computer`): XBoard checks a claimed win against its own
/// reading of the rules, so Corvid leaves the claim to the mated side, which claims its loss; against a
/// person the winner claims.
#[test]
fn makromachy_mates_are_claimed_by_the_loser_between_engines() {
    for computer in [false, true] {
        let lines = corvid_moves(&mut makro_session(MAKRO_MATE_IN_ONE, computer));
        assert!(lines.contains(&"move b1b14".to_string()), "{lines:?}");
        let claimed = lines.contains(&"1-0 {White mates}".to_string());
        assert_eq!(claimed, !computer, "{lines:?}");
        // The mated side claims its loss either way.
        let mut s = makro_session(MAKRO_MATE_IN_ONE, computer);
        assert_eq!(s.send("usermove b1b14"), ["1-0 {White mates}"]);
    }
}

/// White's only move takes the last black piece: bare Kings, a draw.
const MAKRO_BARE_KINGS_IN_ONE: &str = "13k/14/14/14/14/14/14/14/14/14/14/14/q13/K13 w - - 0 1";

/// Makromachy draws against another engine are offered (by both sides, so XBoard ends the game as agreed)
/// rather than claimed; against a person they are claimed.
#[test]
fn makromachy_draws_are_offered_between_engines() {
    for computer in [false, true] {
        let claim = "1/2-1/2 {Draw: bare kings}".to_string();
        // Corvid's own move draws.
        let lines = corvid_moves(&mut makro_session(MAKRO_BARE_KINGS_IN_ONE, computer));
        let expected = if computer {
            vec!["offer draw".to_string(), "move a1a2".to_string()]
        } else {
            vec!["move a1a2".to_string(), claim.clone()]
        };
        assert_eq!(lines, expected);
        // The opponent's move draws; a `draw` after it is agreed.
        let mut s = makro_session(MAKRO_BARE_KINGS_IN_ONE, computer);
        let reply = s.send("usermove a1a2");
        assert_eq!(
            reply,
            [if computer {
                "offer draw"
            } else {
                claim.as_str()
            }]
        );
        assert_eq!(s.send("draw"), ["offer draw"]);
    }
}

/// XBoard cannot show fast castling, records the start without castling rights and sends the second engine
/// that FEN: without `FastCastling`, Corvid's game starts the same way (so both count repetitions alike).
#[test]
fn makromachy_starts_without_castling_rights_unless_fast_castling() {
    let mut s = TestSession::new();
    s.send("new");
    s.send("variant makromachy");
    assert!(s.fen().ends_with(" w - - 0 1"), "{}", s.fen());
    s.send("option FastCastling=1");
    s.send("new");
    s.send("variant makromachy");
    assert!(s.fen().ends_with(" w KQkq - 0 1"), "{}", s.fen());
}
