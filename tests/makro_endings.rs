//! How Makromachy games end, through the adjudicator `variants::MakroRecord`: each ending both ways, and the
//! search's own draw and loss detection (`variants::MakroGame`) held against it on random games.

use corvid::chess::Color;
use corvid::game::Game as _;
use corvid::makro::Position;
use corvid::rules::{Outcome, RulesError, Termination};
use corvid::variants::MakroGame;
use corvid::variants::MakroRecord;

mod common;
use common::Rng;

/// A FEN from placements like `("K", "i1")` (upper case White), the side to move and the half-move clock.
fn fen_of(pieces: &[(&str, &str)], side: &str, clock: u32) -> String {
    let mut board = [['.'; 14]; 14];
    for (p, s) in pieces {
        let file = (s.as_bytes()[0] - b'a') as usize;
        let rank: usize = s[1..].parse::<usize>().expect("rank") - 1;
        board[rank][file] = p.chars().next().expect("letter");
    }
    let ranks: Vec<String> = (0..14)
        .rev()
        .map(|r| {
            let mut text = String::new();
            let mut run = 0;
            for &c in &board[r] {
                if c == '.' {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    text.push_str(&run.to_string());
                    run = 0;
                }
                text.push(c);
            }
            if run > 0 {
                text.push_str(&run.to_string());
            }
            text
        })
        .collect();
    format!("{} {side} - - {clock} 60", ranks.join("/"))
}

fn record(pieces: &[(&str, &str)], side: &str, clock: u32) -> MakroRecord {
    let fen = fen_of(pieces, side, clock);
    MakroRecord::new(Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
}

fn play(g: &mut MakroRecord, moves: &str) {
    for m in moves.split_whitespace() {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{m}: {e} in {}", g.position().to_fen()));
    }
}

fn ended_by(g: &MakroRecord) -> Option<Termination> {
    g.outcome().map(|o| o.termination)
}

/// White Eagle (or another piece) on f1 beside its King on a1; the black King on e14.
fn checker_game(letter: &'static str) -> MakroRecord {
    record(&[("K", "a1"), (letter, "f1"), ("k", "e14")], "w", 0)
}

#[test]
fn eagle_check_repeating_a_position_loses_even_on_its_second_occurrence() {
    let mut g = checker_game("L");
    play(&mut g, "f1e2 e14d14 e2d2 d14e14");
    assert_eq!(ended_by(&g), None);
    // Eagle back to e2 with check: the position after 1. f1e2 again.
    play(&mut g, "d2e2");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            termination: Termination::EagleCheckRepetition
        })
    );
    assert_eq!(
        g.outcome().map(|o| o.description()).as_deref(),
        Some("White repeats with an Eagle check")
    );
    assert!(matches!(
        g.play_text("e14d14"),
        Err(RulesError::GameOver(_))
    ));
}

#[test]
fn the_same_repetition_with_a_queen_check_is_no_loss_and_the_third_time_draws() {
    let mut g = checker_game("Q");
    play(&mut g, "f1e2 e14d14 e2d2 d14e14 d2e2");
    assert_eq!(ended_by(&g), None, "second occurrence after a Queen check");
    play(&mut g, "e14d14 e2d2 d14e14");
    assert_eq!(ended_by(&g), None);
    play(&mut g, "d2e2");
    assert_eq!(ended_by(&g), Some(Termination::ThreefoldRepetition));
}

#[test]
fn an_eagle_move_that_repeats_without_check_is_no_loss() {
    // The Eagle shuffles on the second rank away from the King's lines: f2 and g2 never check a King on n14.
    let mut g = record(&[("K", "a1"), ("L", "f1"), ("k", "n14")], "w", 0);
    play(&mut g, "f1f2 n14m14 f2f1 m14n14 f1f2");
    assert_eq!(ended_by(&g), None, "second occurrence, no check");
}

#[test]
fn a_discovered_check_by_an_eagle_move_counts() {
    // White Cannon e1, Eagle e3 and a black Archer e5 on the black King's file: two screens stop the Cannon
    // and the ranked Archer stops the Eagle; moving the Eagle off the file lets the Cannon check.
    let mut g = record(
        &[
            ("K", "a1"),
            ("C", "e1"),
            ("L", "e3"),
            ("o", "e5"),
            ("k", "e14"),
        ],
        "w",
        0,
    );
    assert!(!g.position().in_check());
    play(&mut g, "e3f3 e14d14 f3e3 d14e14");
    assert_eq!(ended_by(&g), None);
    play(&mut g, "e3f3");
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.termination)),
        Some((Some(Color::Black), Termination::EagleCheckRepetition))
    );
}

#[test]
fn repetitions_count_only_live_en_passant_rights() {
    // 1. e4e7 passes e5 and e6; a black Pawn on d7 can take on e6, so that position has a live e.p. right and
    // its later copies (without it) are different: the draw comes only with White's position after 2...
    let shuffle = "n14m14 a1b1 m14n14 b1a1 n14m14 a1b1 m14n14 b1a1 n14m14";
    let run = |black_pawn: &'static str| {
        let mut g = record(
            &[("K", "a1"), ("P", "e4"), ("p", black_pawn), ("k", "n14")],
            "w",
            0,
        );
        play(&mut g, "e4e7");
        let mut ended_at = None;
        for (i, m) in shuffle.split_whitespace().enumerate() {
            play(&mut g, m);
            if g.is_over() {
                ended_at = Some(i + 2);
                break;
            }
        }
        assert_eq!(ended_by(&g), Some(Termination::ThreefoldRepetition));
        ended_at
    };
    // Live right (d7 can take e6): the position after e4e7 counts once only; the draw comes at ply 10.
    assert_eq!(run("d7"), Some(10));
    // Dead right (a Pawn far away): the position after e4e7 is the same as after b1a1: third time at ply 9.
    assert_eq!(run("a12"), Some(9));
}

#[test]
fn fifty_moves_draw_on_the_hundredth_quiet_ply() {
    let pieces = [("K", "a1"), ("R", "b2"), ("W", "c3"), ("k", "n14")];
    let mut g = record(&pieces, "w", 98);
    play(&mut g, "b2b3");
    assert_eq!(ended_by(&g), None, "99 plies");
    play(&mut g, "n14m14");
    assert_eq!(ended_by(&g), Some(Termination::FiftyMoveRule));
    // A Warrior move on the hundredth ply resets the count instead.
    let mut w = record(&pieces, "w", 99);
    play(&mut w, "c3c4");
    assert_eq!(w.position().halfmove_clock(), 0);
    assert_eq!(ended_by(&w), None);
    // So does a capture.
    let mut c = record(
        &[("K", "a1"), ("R", "b2"), ("n", "b9"), ("k", "n14")],
        "w",
        99,
    );
    play(&mut c, "b2b9");
    assert_eq!(ended_by(&c), None);
    // And a hit-and-run, which is a capture.
    let mut h = record(
        &[("K", "a1"), ("T", "g2"), ("n", "h3"), ("k", "n14")],
        "w",
        99,
    );
    play(&mut h, "g2h3,h3i4");
    assert_eq!(h.position().halfmove_clock(), 0);
    assert_eq!(ended_by(&h), None);
}

#[test]
fn a_mate_on_the_hundredth_ply_stands() {
    // Black King n14, White King m12 guards m13 and n13; the Rook to the 14th rank mates.
    let pieces = [("K", "m12"), ("R", "a1"), ("k", "n14")];
    let mut g = record(&pieces, "w", 99);
    play(&mut g, "a1a14");
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            termination: Termination::Checkmate
        })
    );
    let mut q = record(&pieces, "w", 99);
    play(&mut q, "a1a2");
    assert_eq!(ended_by(&q), Some(Termination::FiftyMoveRule));
}

#[test]
fn stalemate_draws_and_checkmate_wins() {
    let pieces = [("K", "m12"), ("Q", "a13"), ("k", "n14")];
    let mut s = record(&pieces, "w", 0);
    play(&mut s, "a13l13");
    assert_eq!(ended_by(&s), Some(Termination::Stalemate));
    assert_eq!(s.outcome().map(|o| o.result_str()), Some("1/2-1/2"));
    let mut m = record(&pieces, "w", 0);
    play(&mut m, "a13m13");
    assert_eq!(ended_by(&m), Some(Termination::Checkmate));
    assert_eq!(m.outcome().map(|o| o.result_str()), Some("1-0"));
    assert_eq!(
        m.outcome().map(|o| o.description()).as_deref(),
        Some("White mates")
    );
}

#[test]
fn bare_kings_draw_and_one_piece_more_does_not() {
    let mut g = record(&[("K", "a1"), ("r", "a2"), ("k", "n14")], "w", 0);
    play(&mut g, "a1a2");
    assert_eq!(ended_by(&g), Some(Termination::BareKings));
    assert_eq!(
        g.outcome().map(|o| o.description()).as_deref(),
        Some("Draw: bare kings")
    );
    let mut p = record(
        &[("K", "a1"), ("r", "a2"), ("P", "h4"), ("k", "n14")],
        "w",
        0,
    );
    play(&mut p, "a1a2");
    assert_eq!(ended_by(&p), None);
    // A start position with bare Kings is over from the start.
    assert!(record(&[("K", "a1"), ("k", "n14")], "w", 0).is_over());
}

#[test]
fn illegal_and_malformed_moves_are_refused_and_change_nothing() {
    let mut g = MakroRecord::startpos();
    assert!(matches!(
        g.play_text("h4h9"),
        Err(RulesError::IllegalMove(
            corvid::chess::MoveParseError::Illegal(_)
        ))
    ));
    assert!(matches!(
        g.play_text("hello"),
        Err(RulesError::IllegalMove(
            corvid::chess::MoveParseError::Syntax(_)
        ))
    ));
    assert!(g.moves().is_empty());
    play(&mut g, "h4h7 h11h8");
    assert_eq!(g.movetext(), "1. h4h7 h11h8");
    assert_eq!(g.take_back(1), 1);
    assert_eq!(g.movetext(), "1. h4h7");
}

#[test]
fn resignation_and_draw_offers() {
    let mut g = MakroRecord::startpos();
    g.offer_draw(Color::White).expect("first offer");
    assert_eq!(
        g.offer_draw(Color::White),
        Err(RulesError::OfferAlreadyPending)
    );
    g.decline_draw(Color::Black).expect("decline");
    assert!(!g.can_offer_draw(Color::White));
    play(&mut g, "h4h7 h11h8 g4g5 g11g10");
    assert!(g.can_offer_draw(Color::White));
    g.offer_draw(Color::White).expect("second offer");
    g.accept_draw(Color::Black).expect("accept");
    assert_eq!(ended_by(&g), Some(Termination::Agreement));
    let mut r = MakroRecord::startpos();
    r.resign(Color::Black).expect("resign");
    assert_eq!(r.outcome().map(|o| o.result_str()), Some("1-0"));
    assert!(r.pgn(&[]).contains("[Variant \"makromachy\"]"));
}

/// Small armies, so random games repeat positions, run out the fifty-move count, strip to bare Kings and
/// repeat with Eagle checks.
/// Piece placements, side to move, half-move clock.
type Start = (&'static [(&'static str, &'static str)], &'static str, u32);

const STARTS: &[Start] = &[
    (&[("K", "a1"), ("L", "f1"), ("k", "e14")], "w", 0),
    (
        &[("K", "a1"), ("L", "b3"), ("r", "g7"), ("k", "n14")],
        "w",
        80,
    ),
    (
        &[("K", "a1"), ("R", "d2"), ("l", "c12"), ("k", "h14")],
        "b",
        60,
    ),
    (
        &[("K", "a1"), ("L", "b3"), ("q", "m13"), ("k", "n14")],
        "w",
        0,
    ),
    (
        &[
            ("K", "a1"),
            ("L", "b3"),
            ("W", "c2"),
            ("w", "g8"),
            ("k", "n14"),
        ],
        "w",
        0,
    ),
];

#[test]
fn the_search_and_the_rules_agree_on_draws_and_eagle_losses() {
    let mut rng = Rng::new(0x0DD5_EED5_0FCA_FE11);
    let mut seen = [0usize; 4]; // repetition, fifty moves, bare kings, Eagle-check loss
    let mut plies = 0;
    for &(pieces, side, clock) in STARTS {
        let fen = fen_of(pieces, side, clock);
        for _ in 0..40 {
            let start = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut rules = MakroRecord::new(start.clone());
            let mut search = MakroGame::new(start);
            for _ in 0..250 {
                let pos = rules.position().clone();
                let list = pos.legal_moves();
                if list.is_empty() {
                    break;
                }
                // Eagle checks now and then (they make the Eagle rule fire), mostly short King and piece shuffles.
                let eagle_checks: Vec<_> = list
                    .iter()
                    .copied()
                    .filter(|&m| {
                        pos.piece_at(m.from())
                            .is_some_and(|(_, k)| k == corvid::makro::Kind::Eagle)
                            && pos.gives_check(m)
                    })
                    .collect();
                // ... and often a step back to where the side's last move came from (repetitions).
                let moves = rules.moves();
                let back = moves.len().checked_sub(2).and_then(|i| {
                    let prev = moves[i];
                    list.iter()
                        .copied()
                        .find(|m| m.from() == prev.destination() && m.destination() == prev.from())
                });
                let m = match back {
                    Some(b) if rng.below(2) == 0 => b,
                    _ if !eagle_checks.is_empty() && rng.below(3) == 0 => {
                        eagle_checks[rng.below(eagle_checks.len())]
                    }
                    _ => list[rng.below(list.len())],
                };
                rules.play(m).expect("legal move");
                search.play(m);
                plies += 1;
                let outcome = rules.outcome().map(|o| o.termination);
                if matches!(
                    outcome,
                    Some(Termination::Stalemate | Termination::Checkmate)
                ) {
                    break;
                }
                let loss = outcome == Some(Termination::EagleCheckRepetition);
                assert_eq!(
                    search.lost_by_rule(),
                    loss,
                    "rules say {outcome:?} at {} after {}",
                    rules.position().to_fen(),
                    rules.movetext()
                );
                if !loss {
                    let draw = matches!(
                        outcome,
                        Some(
                            Termination::ThreefoldRepetition
                                | Termination::FiftyMoveRule
                                | Termination::BareKings
                        )
                    );
                    assert_eq!(
                        search.is_draw(),
                        draw,
                        "rules say {outcome:?} at {} after {}",
                        rules.position().to_fen(),
                        rules.movetext()
                    );
                }
                match outcome {
                    Some(Termination::ThreefoldRepetition) => seen[0] += 1,
                    Some(Termination::FiftyMoveRule) => seen[1] += 1,
                    Some(Termination::BareKings) => seen[2] += 1,
                    Some(Termination::EagleCheckRepetition) => seen[3] += 1,
                    _ => {}
                }
                if outcome.is_some() {
                    break;
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "endings seen {seen:?}");
    assert!(plies > 2000, "{plies}");
}
