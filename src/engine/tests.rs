use super::*;
use crate::variants::{Chess, Makromachy};

#[test]
fn option_defaults_lie_in_their_ranges() {
    for o in OPTIONS {
        if let OptionKind::Spin { default, min, max } = o.kind {
            assert!(min <= default && default <= max, "{}", o.name);
            assert_eq!(
                o.parse_value(Some(&default.to_string())),
                Ok(OptionValue::Spin(default))
            );
        }
    }
}

#[test]
fn each_option_is_declared_once_and_the_defaults_are_the_sessions() {
    for (i, o) in OPTIONS.iter().enumerate() {
        assert!(
            OPTIONS[..i]
                .iter()
                .all(|p| !p.name.eq_ignore_ascii_case(o.name)
                    && (o.cecp.is_none() || p.cecp != o.cecp)),
            "{} twice",
            o.name
        );
        // CECP readers end a name at the first space.
        assert!(o.cecp.is_none_or(|n| !n.contains(' ')), "{}", o.name);
        assert_eq!(
            o.cecp.and_then(find_cecp_option).map(|c| c.name),
            o.cecp.map(|_| o.name)
        );
    }
    // UCI_Variant offers every game, from the registry.
    let Some(OptionKind::Combo { vars, .. }) = find_option("UCI_Variant").map(|o| o.kind) else {
        panic!("UCI_Variant is a combo");
    };
    assert_eq!(vars.to_vec(), GameKind::ALL.map(GameKind::name).to_vec());
    // Setting every option to its advertised default leaves a new engine's values as they were.
    let (mut e, _rx) = engine();
    for o in OPTIONS {
        let value = match o.kind {
            OptionKind::Check { default } => default.to_string(),
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. } => default.to_string(),
            OptionKind::File { default } => default.to_string(),
            // A button acts, and the tablebases are the process's: leave them to their own tests.
            OptionKind::Button | OptionKind::String { .. } => continue,
        };
        e.set_option(o.name, Some(&value)).unwrap();
    }
    assert_eq!(e.options(), &EngineOptions::default());
}

#[test]
fn option_values_are_checked() {
    let hash = find_option("hash").map(|o| o.name);
    assert_eq!(hash, Some("Hash"));
    let spec = find_option("Hash").copied().unwrap_or(OPTIONS[0]);
    assert_eq!(spec.parse_value(Some("1")), Ok(OptionValue::Spin(1)));
    assert_eq!(
        spec.parse_value(Some("65536")),
        Ok(OptionValue::Spin(65536))
    );
    assert!(matches!(
        spec.parse_value(Some("0")),
        Err(OptionError::OutOfRange { .. })
    ));
    assert!(matches!(
        spec.parse_value(Some("65537")),
        Err(OptionError::OutOfRange { .. })
    ));
    assert!(matches!(
        spec.parse_value(Some("lots")),
        Err(OptionError::BadValue { .. })
    ));
    assert_eq!(
        spec.parse_value(None),
        Err(OptionError::MissingValue("Hash"))
    );
    let ponder = find_option("ponder").copied().unwrap_or(OPTIONS[0]);
    assert_eq!(
        ponder.parse_value(Some("TRUE")),
        Ok(OptionValue::Check(true))
    );
    assert!(ponder.parse_value(Some("yes")).is_err());
    let variant = find_option("uci_variant").copied().unwrap_or(OPTIONS[0]);
    assert_eq!(
        variant.parse_value(Some("chess")),
        Ok(OptionValue::Combo("chess"))
    );
    assert_eq!(
        variant.parse_value(Some("makromachy")),
        Ok(OptionValue::Combo("makromachy"))
    );
    assert!(variant.parse_value(Some("shogi")).is_err());
    assert!(find_option("Skill Level").is_none());
}

fn engine() -> (Engine, crossbeam_channel::Receiver<Report>) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let engine = Engine::new(Arc::new(move |r| {
        let _ = tx.send(r);
    }));
    (engine, rx)
}

fn bestmoves(rx: &crossbeam_channel::Receiver<Report>) -> Vec<BestMove> {
    rx.try_iter()
        .filter_map(|r| match r {
            Report::BestMove(o) => Some(o),
            Report::Search(_) => None,
        })
        .collect()
}

#[test]
fn every_go_reports_one_bestmove() {
    let (mut e, rx) = engine();
    e.set_position(None, &["e2e4"]).unwrap();
    e.go(
        Limits {
            depth: Some(2),
            ..Limits::default()
        },
        &[],
    );
    e.wait();
    let b = bestmoves(&rx);
    assert_eq!(b.len(), 1);
    let best = b[0].best.clone().unwrap();
    let pos = e.position::<Chess>().unwrap();
    assert_eq!(
        pos.parse_uci_move(&best.text),
        Ok(b[0].best_as::<Chess>().unwrap())
    );
    assert_eq!(b[0].best_as::<Makromachy>(), None);

    // Stopped before it could start, and a go on top of a running go: still one each.
    e.go(
        Limits {
            infinite: true,
            ..Limits::default()
        },
        &[],
    );
    e.stop();
    let rejected = e.go(
        Limits {
            infinite: true,
            ..Limits::default()
        },
        &["a7a6".to_string(), "zz".to_string()],
    );
    assert_eq!(rejected, vec![MoveParseError::Syntax("zz".to_string())]);
    assert!(e.is_searching());
    e.quit();
    assert!(!e.is_searching());
    let b = bestmoves(&rx);
    assert_eq!(b.len(), 2);
    assert_eq!(b[1].best.as_ref().map(|c| c.text.as_str()), Some("a7a6"));
}

#[test]
fn bad_input_keeps_the_state() {
    let (mut e, _rx) = engine();
    e.set_position(None, &["d2d4"]).unwrap();
    let before = e.fen();
    assert!(matches!(
        e.set_position(Some("not a fen"), &["e2e4"]),
        Err(PositionError::Fen { what: "FEN", .. })
    ));
    assert_eq!(e.fen(), before);
    assert!(matches!(
        e.set_option("Hash", Some("0")),
        Err(OptionError::OutOfRange { .. })
    ));
    assert!(matches!(
        e.set_option("Nope", None),
        Err(OptionError::Unknown(_))
    ));
    assert_eq!(e.options().hash_mb, 16);
    e.set_option("hash", Some("2")).unwrap();
    assert_eq!(e.options().hash_mb, 2);
    // Chess960 notation follows the option, for the game already set up too.
    e.set_position(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), &["e1g1"])
        .unwrap();
    e.set_option("UCI_Chess960", Some("true")).unwrap();
    assert!(e.position::<Chess>().unwrap().is_chess960());
    assert!(e
        .display()
        .contains("Fen: r3k2r/8/8/8/8/8/8/R4RK1 b ha - 1 1"));
}

#[test]
fn each_engine_owns_its_network() {
    use crate::eval::nnue::{default_network, HIDDEN, INPUTS};
    let checksum = |n: Option<Arc<Network>>| n.map(|n| n.checksum());
    let net = Network::from_parts(
        &vec![1; INPUTS * HIDDEN],
        &vec![3; HIDDEN],
        &vec![1; 2 * HIDDEN],
        5,
    )
    .unwrap();
    let path = std::env::temp_dir().join(format!("corvid-engine-{}.nnue", std::process::id()));
    std::fs::write(&path, net.to_bytes()).unwrap();
    let (mut a, _ra) = engine();
    let (mut b, _rb) = engine();
    let loaded = a.set_option("EvalFile", Some(&path.to_string_lossy()));
    let _ = std::fs::remove_file(&path);
    loaded.unwrap();
    let mark = format!("{:016x}", net.checksum());
    assert_eq!(checksum(a.network()), Some(net.checksum()));
    assert!(a.eval_trace().contains(&mark));
    // The other engine in the process keeps the built-in network, and its choice leaves `a` alone.
    assert_eq!(checksum(b.network()), checksum(default_network()));
    assert!(!b.eval_trace().contains(&mark));
    b.set_option("EvalFile", Some("<hce>")).unwrap();
    assert!(b.network().is_none());
    assert_eq!(checksum(a.network()), Some(net.checksum()));
    // A strength limit below the full engine's plays with the hand-crafted evaluation, and only then.
    a.set_option("UCI_Elo", Some("1500")).unwrap();
    a.set_option("UCI_LimitStrength", Some("true")).unwrap();
    assert!(a.network().is_none());
    assert!(!a.eval_trace().contains(&mark));
    a.set_option("UCI_LimitStrength", Some("false")).unwrap();
    // Another game and back: the network stays the engine's.
    a.set_option("UCI_Variant", Some("makromachy")).unwrap();
    a.set_option("UCI_Variant", Some("chess")).unwrap();
    assert!(a.eval_trace().contains(&mark));
}

#[test]
fn position_plays_moves_up_to_a_bad_one() {
    let (mut e, _rx) = engine();
    e.set_position(None, &["e2e4", "e7e5", "e1e2", "e8e7"])
        .unwrap();
    assert_eq!(
        e.fen(),
        "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w - - 2 3"
    );
    let err = e.set_position(None, &["e2e4", "e2e4", "d7d5"]);
    assert!(matches!(
        err,
        Err(PositionError::Move {
            index: 1,
            error: MoveParseError::Illegal(_)
        })
    ));
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert!(matches!(
        e.set_position(None, &["zz"]),
        Err(PositionError::Move { index: 0, .. })
    ));
    assert_eq!(e.fen(), crate::chess::STARTPOS);
}

#[test]
fn castling_text_in_either_notation() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for (c960, text) in [
        (false, "e1g1"),
        (false, "e1h1"),
        (true, "e1h1"),
        (true, "e1g1"),
    ] {
        let (mut e, rx) = engine();
        e.set_option("UCI_Chess960", Some(if c960 { "true" } else { "false" }))
            .unwrap();
        e.set_position(Some(fen), &[text]).unwrap();
        assert!(
            e.fen().starts_with("r3k2r/8/8/8/8/8/8/R4RK1 b"),
            "{text} {c960}"
        );
        // The move as the engine writes it back: the notation of the option.
        e.set_position(Some(fen), &[] as &[&str]).unwrap();
        e.go(Limits::default(), &[text.to_string()]);
        e.stop();
        e.wait();
        let b = bestmoves(&rx);
        let want = if c960 { "e1h1" } else { "e1g1" };
        assert_eq!(b[0].best.as_ref().map(|c| c.text.as_str()), Some(want));
    }
}

#[test]
fn one_session_per_variant_and_typed_games() {
    let (mut e, rx) = engine();
    assert_eq!(e.game_kind(), GameKind::Chess);
    e.set_option("UCI_Variant", Some("makromachy")).unwrap();
    assert_eq!(e.game_kind(), GameKind::Makromachy);
    assert!(e.position::<Chess>().is_none());
    assert_eq!(e.fen(), crate::makro::STARTPOS);
    // The switch announces the board to the GUI.
    assert!(rx.try_iter().any(
        |r| matches!(r, Report::Search(Event::Text(t)) if t.starts_with("variant makromachy"))
    ));
    // A chess game is refused while Makromachy runs; a Makromachy one is taken.
    let chess_start = crate::chess::Position::startpos();
    assert!(matches!(
        e.set_game::<Chess>(&chess_start, &[]),
        Err(PositionError::WrongGame { .. })
    ));
    let start = crate::makro::Position::startpos();
    let first = Makromachy::legal_moves(&start)[0];
    e.set_game::<Makromachy>(&start, &[first]).unwrap();
    let mut after = start.clone();
    after.make_move(first);
    assert_eq!(e.fen(), after.to_fen());
    // A move that is illegal there ends the list, reported by its text.
    assert!(matches!(
        e.set_game::<Makromachy>(&start, &[first, first]),
        Err(PositionError::Move { index: 1, .. })
    ));
    assert!(matches!(
        e.set_position(Some("nonsense"), &[] as &[&str]),
        Err(PositionError::Fen {
            what: "Makromachy FEN",
            ..
        })
    ));
    e.go(
        Limits {
            depth: Some(1),
            ..Limits::default()
        },
        &[],
    );
    e.wait();
    let b = bestmoves(&rx);
    assert_eq!(b.len(), 1);
    let m = b[0].best_as::<Makromachy>().unwrap();
    assert!(Makromachy::is_legal(e.position::<Makromachy>().unwrap(), m));
    assert!(e.display().contains("Fen: "));
    assert!(e.perft(1).ends_with(&format!(
        "Nodes searched: {}\n",
        Makromachy::legal_moves(&after).len()
    )));
    e.set_option("UCI_Variant", Some("chess")).unwrap();
    assert_eq!(e.fen(), crate::chess::STARTPOS);
}
