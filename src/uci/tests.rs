use super::*;
use crate::engine::BestMove;
use crate::search::{Bound, Event, Info, Limits, Score};

fn parse(line: &str) -> Command {
    match parse_command(line) {
        Ok(Some(c)) => c,
        other => panic!("'{line}' gave {other:?}"),
    }
}

#[test]
fn simple_commands() {
    assert_eq!(parse("uci"), Command::Uci);
    assert_eq!(parse("  isready  "), Command::IsReady);
    assert_eq!(parse("ucinewgame"), Command::UciNewGame);
    assert_eq!(parse("stop"), Command::Stop);
    assert_eq!(parse("ponderhit"), Command::PonderHit);
    assert_eq!(parse("quit"), Command::Quit);
    assert_eq!(parse("quit now"), Command::Quit);
    assert_eq!(parse("d"), Command::Display);
    assert_eq!(parse("eval"), Command::Eval);
    assert_eq!(parse("tunables"), Command::Tunables);
    assert_eq!(parse("bench"), Command::Bench(None));
    assert_eq!(parse("bench 7"), Command::Bench(Some(7)));
    assert!(matches!(
        parse("genfens 4 seed 2 book None"),
        Command::GenFens(r) if r.count == 4 && r.seed == 2 && r.book.is_none()
    ));
    assert!(parse_command("genfens many").is_err());
    assert_eq!(parse("debug on"), Command::Debug(true));
    assert_eq!(parse_command(""), Ok(None));
    assert_eq!(parse_command(" \t "), Ok(None));
}

#[test]
fn setoption_names_and_values_may_hold_spaces() {
    assert_eq!(
        parse("setoption name Move Overhead value 30"),
        Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("30".into())
        }
    );
    assert_eq!(
        parse("setoption name Clear Hash"),
        Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    assert_eq!(
        parse("setoption name SyzygyPath value /a b/c"),
        Command::SetOption {
            name: "SyzygyPath".into(),
            value: Some("/a b/c".into())
        }
    );
    assert!(parse_command("setoption").is_err());
    assert!(parse_command("setoption Hash value 3").is_err());
    assert!(parse_command("setoption name").is_err());
    assert!(parse_command("setoption name value 3").is_err());
}

#[test]
fn position_forms() {
    assert_eq!(
        parse("position startpos"),
        Command::Position {
            start: Start::StartPos,
            moves: vec![]
        }
    );
    assert_eq!(
        parse("position startpos moves e2e4 e7e5"),
        Command::Position {
            start: Start::StartPos,
            moves: vec!["e2e4".into(), "e7e5".into()]
        }
    );
    assert_eq!(
        parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"),
        Command::Position {
            start: Start::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            moves: vec!["a1a2".into()]
        }
    );
    for bad in [
        "position",
        "position fen",
        "position fen moves e2e4",
        "position startpos e2e4",
        "position kiwipete",
        "position moves e2e4",
    ] {
        assert!(parse_command(bad).is_err(), "{bad}");
    }
}

#[test]
fn go_limits() {
    let Command::Go {
        limits,
        searchmoves,
        ignored,
    } = parse("go wtime 1000 btime -5 winc 10 binc 0 movestogo 20 searchmoves e2e4 d2d4 ponder")
    else {
        panic!("not a go");
    };
    assert_eq!(limits.wtime, Some(1000));
    assert_eq!(limits.btime, Some(0));
    assert_eq!(limits.winc, Some(10));
    assert_eq!(limits.binc, Some(0));
    assert_eq!(limits.movestogo, Some(20));
    assert!(limits.ponder && !limits.infinite);
    assert_eq!(searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
    assert!(ignored.is_empty(), "{ignored:?}");

    let Command::Go { limits, .. } = parse("go depth 3 nodes 5000 mate 2 movetime 50 infinite")
    else {
        panic!("not a go");
    };
    assert_eq!(limits.depth, Some(3));
    assert_eq!(limits.nodes, Some(5000));
    assert_eq!(limits.mate, Some(2));
    assert_eq!(limits.movetime, Some(50));
    assert!(limits.infinite);
    assert_eq!(
        parse("go"),
        Command::Go {
            limits: Limits::default(),
            searchmoves: vec![],
            ignored: vec![]
        }
    );
    assert_eq!(parse("go perft 3"), Command::Perft(3));
    assert_eq!(parse("perft 0"), Command::Perft(0));
}

#[test]
fn malformed_go_perft_is_an_error() {
    for bad in ["go perft", "go perft 99", "go perft 3 4"] {
        assert!(parse_command(bad).is_err(), "{bad}");
    }
}

/// A malformed `go` still searches (its GUI waits for a `bestmove`): each bad part is said and left out, or a
/// number out of range is brought into it.
#[test]
fn malformed_go_searches_with_the_rest() {
    let go = |line: &str| match parse(line) {
        Command::Go {
            limits,
            searchmoves,
            ignored,
        } => (limits, searchmoves, ignored),
        other => panic!("{line}: not a go but {other:?}"),
    };
    let depth = |line: &str| {
        let (limits, _, ignored) = go(line);
        assert_eq!(ignored.len(), 1, "{line}: {ignored:?}");
        limits.depth
    };
    assert_eq!(depth("go depth 0"), Some(1));
    assert_eq!(depth("go depth -1"), Some(1));
    assert_eq!(depth("go depth 99999999999999999999"), Some(MAX_DEPTH));
    assert_eq!(
        depth("go depth 999999999999999999999999999999999999999999"),
        Some(MAX_DEPTH)
    );
    assert_eq!(depth("go depth x"), None);
    assert_eq!(depth("go depth"), None);
    assert_eq!(depth("go depth infinite"), None);
    assert_eq!(depth("go depht 5 depth 3"), Some(3));
    assert_eq!(depth("go infinite perft 3 depth 2"), Some(2));

    let (limits, _, ignored) = go("go nodes 0 wtime 1e3 btime 900 movestogo 0");
    assert_eq!(ignored.len(), 3, "{ignored:?}");
    assert_eq!(limits.nodes, Some(1));
    assert_eq!((limits.wtime, limits.btime), (None, Some(900)));
    assert_eq!(limits.movestogo, None);
    // "depth infinite": the keyword after a keyword is no value of it, and still counts.
    let (limits, _, ignored) = go("go depth infinite");
    assert!(limits.infinite && limits.depth.is_none(), "{ignored:?}");
    let (_, searchmoves, ignored) = go("go foo searchmoves e2e4 bar");
    assert_eq!(searchmoves, vec!["e2e4".to_string(), "bar".to_string()]);
    assert_eq!(ignored, vec!["go: unexpected 'foo'; left out".to_string()]);
    // Negative clocks count as zero without a word.
    let (limits, _, ignored) = go("go wtime -5 btime -99999999999999999999999 winc 0");
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!((limits.wtime, limits.btime), (Some(0), Some(0)));
}

#[test]
fn unknown_and_extra_tokens() {
    assert_eq!(
        parse_command("hello world"),
        Err(UciError::UnknownCommand("hello".into()))
    );
    assert!(parse_command("isready now").is_err());
    assert!(parse_command("UCI").is_err());
    assert!(parse_command("bench 0").is_err());
    assert!(parse_command("debug").is_err());
}

fn info() -> Info {
    Info {
        depth: 5,
        seldepth: 9,
        multipv: 1,
        score: Score::Cp(-31),
        bound: Bound::Exact,
        wdl: Some((100, 800, 100)),
        nodes: 12345,
        nps: 1_000_000,
        hashfull: 3,
        tbhits: 7,
        time_ms: 12,
        pv: vec!["e2e4".into(), "e7e5".into()],
    }
}

#[test]
fn info_lines() {
    assert_eq!(
            format_info(&info(), false),
            "info depth 5 seldepth 9 multipv 1 score cp -31 nodes 12345 nps 1000000 hashfull 3 tbhits 7 time 12 pv e2e4 e7e5"
        );
    let mut i = info();
    i.score = Score::Mate(-3);
    i.bound = Bound::Lower;
    assert_eq!(
            format_info(&i, true),
            "info depth 5 seldepth 9 multipv 1 score mate -3 lowerbound wdl 100 800 100 nodes 12345 nps 1000000 hashfull 3 tbhits 7 time 12 pv e2e4 e7e5"
        );
    assert_eq!(
        format_score(Score::Cp(7), Bound::Upper),
        "score cp 7 upperbound"
    );
    assert_eq!(
        format_event(
            &Event::CurrMove {
                depth: 12,
                mv: "g1f3".into(),
                number: 4
            },
            false
        ),
        "info depth 12 currmove g1f3 currmovenumber 4"
    );
    assert_eq!(
        format_event(&Event::Text("a\nb\n".into()), false),
        "info string a | b"
    );
}

#[test]
fn bestmove_lines() {
    use crate::engine::ChosenMove;
    use crate::variants::AnyMove;
    let pos = crate::chess::Position::startpos();
    let chosen = |text: &str| ChosenMove {
        mv: AnyMove::Chess(pos.parse_uci_move(text).unwrap_or_default()),
        text: text.to_string(),
    };
    let mut o = BestMove::default();
    assert_eq!(format_bestmove(&o), "bestmove (none)");
    o.best = Some(chosen("e2e4"));
    assert_eq!(format_bestmove(&o), "bestmove e2e4");
    o.ponder = Some(chosen("e7e5"));
    assert_eq!(format_bestmove(&o), "bestmove e2e4 ponder e7e5");
}

#[test]
fn uci_reply_lists_every_option() {
    let reply = format_uci_reply(crate::engine::OPTIONS);
    assert!(reply.starts_with("id name Corvid"));
    assert!(reply.ends_with("uciok"));
    assert!(reply.contains("option name Hash type spin default 16 min 1 max 65536"));
    assert!(reply.contains("option name Clear Hash type button"));
    assert!(reply.contains("option name UCI_Variant type combo default chess var chess"));
    assert!(reply.contains("option name Ponder type check default false"));
    // A tuning build offers every tunable too.
    let tunables = if cfg!(feature = "tune") {
        crate::engine::tunables().len()
    } else {
        0
    };
    assert_eq!(
        reply.lines().filter(|l| l.starts_with("option ")).count(),
        crate::engine::OPTIONS.len() + tunables
    );
    #[cfg(feature = "tune")]
    assert!(reply.contains("option name makro_qs_recapture_depth type spin default 4 min 2 max 8"));
}
