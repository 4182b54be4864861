//! Parser and formatter tests for CECP.
#![allow(clippy::unwrap_used, clippy::panic)]

use super::parse::MAX_CLOCK_MS;
use super::*;
use crate::chess::{MoveKind, Position};
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
        format_thinking(&info, &Position::startpos()),
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

#[test]
fn chess960_castling_is_written_o_o() {
    let p = Position::from_fen(
        "bqnbrk1r/pppppppp/8/8/8/8/PPPPPPPP/BQNBRK1R w HEhe - 0 1",
        true,
    )
    .unwrap();
    let castle = p
        .legal_moves()
        .iter()
        .find(|m| m.kind() == MoveKind::Castling)
        .copied()
        .unwrap();
    assert_eq!(format_move(&p, castle), "O-O");
    let n = p.parse_uci_move("c1d3").unwrap();
    assert_eq!(format_move(&p, n), "c1d3");
}
