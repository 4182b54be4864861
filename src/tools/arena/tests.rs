//! Unit tests of the match runner.
#![allow(clippy::panic, clippy::unwrap_used)]

use super::config::*;
use super::forfeit::Forfeit;
use super::referee::*;
use super::report::*;
use crate::types::Color;
use crate::variants::AnyGame;
use std::time::Duration;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn clock_takes_time_off_and_adds_the_increment() {
    let mut c = Clock::new(1000, 100);
    assert_eq!(c.charge(ms(300), ms(50)), Ok(()));
    assert_eq!(c.remaining, ms(800));
    // Inside the margin: the clock is emptied, not negative, and the increment still comes.
    assert_eq!(c.charge(ms(830), ms(50)), Ok(()));
    assert_eq!(c.remaining, ms(100));
    // Past the margin: a time loss, and the clock is left as it was.
    assert_eq!(c.charge(ms(151), ms(50)), Err(Forfeit::Time));
    assert_eq!(c.remaining, ms(100));
}

#[test]
fn hang_deadlines_follow_the_limit() {
    let clock = Clock::new(2000, 0);
    let tc = Limit::Clock {
        base_ms: 2000,
        inc_ms: 0,
    };
    assert_eq!(allowed_time(tc, Some(&clock)), Some(ms(2000)));
    assert_eq!(allowed_time(Limit::MoveTime(300), None), Some(ms(300)));
    assert_eq!(allowed_time(Limit::Depth(3), None), None);
    assert_eq!(
        hang_after(Some(ms(2000)), ms(50), ms(1000), ms(60_000)),
        ms(3050)
    );
    assert_eq!(hang_after(None, ms(50), ms(1000), ms(60_000)), ms(60_000));
}

#[test]
fn go_shows_both_clocks_and_a_clockless_opponent_the_movers() {
    let clocks = [Some(Clock::new(5000, 100)), None];
    let tc = Limit::Clock {
        base_ms: 5000,
        inc_ms: 100,
    };
    assert_eq!(
        go_command(tc, &clocks, Color::White),
        "go wtime 5000 btime 5000 winc 100 binc 100"
    );
    let clocks = [Some(Clock::new(5000, 100)), Some(Clock::new(700, 0))];
    assert_eq!(
        go_command(tc, &clocks, Color::Black),
        "go wtime 5000 btime 700 winc 100 binc 0"
    );
    assert_eq!(
        go_command(Limit::Depth(2), &clocks, Color::White),
        "go depth 2"
    );
}

#[test]
fn limits_and_commands_parse() {
    assert_eq!(
        Limit::parse_tc("10+0.1"),
        Ok(Limit::Clock {
            base_ms: 10_000,
            inc_ms: 100
        })
    );
    assert_eq!(Limit::parse("depth=2"), Ok(Limit::Depth(2)));
    assert_eq!(Limit::parse("movetime=250"), Ok(Limit::MoveTime(250)));
    assert!(Limit::parse("depth=0").is_err());
    assert!(Limit::parse_tc("0+1").is_err());
    assert!(Limit::parse("speed=9").is_err());
    assert_eq!(
        split_command(r#"./corvid --x 'a b' "c \"d\"" e\ f"#),
        Ok(vec![
            "./corvid".to_string(),
            "--x".to_string(),
            "a b".to_string(),
            "c \"d\"".to_string(),
            "e f".to_string()
        ])
    );
    assert!(split_command("'open").is_err());
    assert!(split_command("  ").is_err());
}

fn game(a_white: bool, winner: Option<Color>, termination: Verdict) -> GameRecord {
    GameRecord {
        winner,
        termination,
        ..GameRecord::new(0, a_white, 0)
    }
}

#[test]
fn tally_counts_from_a_side() {
    let mate = || Verdict::Rules("checkmate".into());
    let mut t = Tally::default();
    t.add(&game(true, Some(Color::White), mate()));
    t.add(&game(false, Some(Color::White), mate()));
    t.add(&game(false, Some(Color::Black), mate()));
    t.add(&game(true, None, Verdict::MaxPlies(10)));
    t.add(&game(
        true,
        Some(Color::Black),
        Verdict::Forfeit {
            engine: 0,
            kind: Forfeit::Illegal,
            detail: String::new(),
        },
    ));
    t.add(&game(
        false,
        Some(Color::Black),
        Verdict::Forfeit {
            engine: 1,
            kind: Forfeit::Hang,
            detail: String::new(),
        },
    ));
    assert_eq!((t.wins, t.draws, t.losses), (3, 1, 2));
    assert_eq!(t.games(), 6);
    assert_eq!(t.capped, 1);
    assert_eq!(t.forfeits, [[0, 1, 0, 0], [0, 0, 0, 1]]);
    assert_eq!(t.total_forfeits(), 2);
    assert_eq!(t.terminations, vec![("checkmate".to_string(), 3)]);
    assert!((t.score() - 3.5 / 6.0).abs() < 1e-12);
}

#[test]
fn pgn_termination_takes_the_standard_values_and_the_reason_follows_the_last_move() {
    let engine = |name: &str| EngineSpec {
        command: vec![name.to_string()],
        name: None,
        options: Vec::new(),
        limit: Limit::parse_tc("1+0.01").unwrap(),
    };
    let config = MatchConfig {
        engines: [engine("x"), engine("y")],
        variant: GameKind::Chess,
        games: 2,
        concurrency: 1,
        opening_plies: 0,
        seed: 1,
        max_plies: 1000,
        margin: ms(50),
        grace: ms(2000),
        hang_timeout: Duration::from_secs(60),
        pgn: None,
    };
    let names = ["A".to_string(), "B".to_string()];
    let forfeit = |kind| Verdict::Forfeit {
        engine: 1,
        kind,
        detail: "flag".into(),
    };
    let mut cases = vec![
        (
            Verdict::Rules("checkmate".into()),
            "normal",
            "{checkmate}".to_string(),
        ),
        (
            Verdict::MaxPlies(400),
            "adjudication",
            "{adjudicated draw: 400-ply cap}".to_string(),
        ),
    ];
    for (kind, value) in [
        (Forfeit::Time, "time forfeit"),
        (Forfeit::Illegal, "rules infraction"),
        (Forfeit::Crash, "abandoned"),
        (Forfeit::Hang, "abandoned"),
    ] {
        cases.push((
            forfeit(kind),
            value,
            format!("{{forfeit: B {}: flag}}", kind.name()),
        ));
    }
    for (verdict, value, reason) in cases {
        let mut g = game(true, Some(Color::White), verdict);
        g.moves = vec!["e2e4".into(), "e7e5".into()];
        let pgn = super::report::pgn_text(&config, &names, &g);
        assert!(pgn.contains(&format!("[Termination \"{value}\"]")), "{pgn}");
        assert!(pgn.contains(&format!("e7e5 {reason} 1-0")), "{pgn}");
    }
}

#[test]
fn elo_interval_surrounds_the_estimate() {
    let t = Tally {
        wins: 30,
        draws: 10,
        losses: 10,
        ..Default::default()
    };
    let (e, lo, hi) = t.elo();
    // 70% is +147 Elo.
    assert!((e - 147.2).abs() < 0.1, "{e}");
    assert!(lo < e && e < hi && lo > 0.0, "{lo} {hi}");
    let even = Tally {
        wins: 5,
        draws: 0,
        losses: 5,
        ..Default::default()
    };
    let (e, lo, hi) = even.elo();
    assert!(e.abs() < 1e-9 && (lo + hi).abs() < 1e-6);
    // All won: infinite estimate, finite positive lower bound (0.025^(1/20) = 83.2% is +276 Elo).
    let sweep = Tally {
        wins: 20,
        ..Default::default()
    };
    let (e, lo, _) = sweep.elo();
    assert!(e.is_infinite() && (lo - 276.0).abs() < 2.0, "{lo}");
}

#[test]
fn makromachy_referee_sees_checkmate_and_repetition() {
    // A quick mate from a depth-1 trial game (Corvid's search agrees: `score mate 0`).
    let mut r = AnyRecord::new(GameKind::Makromachy);
    for t in ["g4g6", "g11g8", "e4e6", "m11m8", "h3m8", "a11a8"] {
        r.play_text(t).unwrap();
        assert_eq!(r.outcome(), None, "{t}");
    }
    r.play_text("m8n9").unwrap();
    assert_eq!(
        r.outcome(),
        Some(Ending {
            winner: Some(Color::White),
            reason: "checkmate".into()
        })
    );
    assert!(r.play_text("a1a1").is_err());
    // A repetition ends the game too: Kings shuffling beside a Pawn, the third occurrence.
    let mut g = crate::variants::MakroRecord::new(
        crate::makro::Position::from_fen("13k/14/14/14/14/14/14/14/14/14/14/14/P13/K13 w - - 0 1")
            .unwrap(),
    );
    for t in ["a1b1", "n14m14", "b1a1", "m14n14", "a1b1", "n14m14", "b1a1"] {
        g.play_text(t).unwrap();
    }
    let mut r = AnyRecord(Box::new(AnyGame::Makromachy(g)));
    assert_eq!(r.outcome(), None);
    r.play_text("m14n14").unwrap();
    assert_eq!(
        r.outcome(),
        Some(Ending {
            winner: None,
            reason: "threefold repetition".into()
        })
    );
}

#[test]
fn random_openings_are_seeded_and_legal() {
    let a = random_openings(GameKind::Makromachy, 6, 3, 7);
    assert_eq!(a, random_openings(GameKind::Makromachy, 6, 3, 7));
    assert_ne!(a, random_openings(GameKind::Makromachy, 6, 3, 8));
    for line in &a {
        assert_eq!(line.len(), 6);
        let mut r = AnyRecord::new(GameKind::Makromachy);
        for m in line {
            assert!(r.play_text(m).is_ok(), "{m}");
        }
    }
    let c = random_openings(GameKind::Chess, 4, 2, 1);
    assert!(c.iter().all(|l| l.len() == 4));
}
