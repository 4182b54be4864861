//! The rules module (`variants::ChessRecord`, Dineri's endings) and the search's own draw test (`Game::is_draw` of
//! `ChessGame`) must agree on every position: random games, biased towards reversible moves so that
//! repetitions, fifty-move draws and dead positions happen often, are played and both are asked at every ply.

use corvid::chess::Position;
use corvid::game::Game as _;
use corvid::rules::Termination;
use corvid::variants::ChessGame;
use corvid::variants::ChessRecord;

mod common;
use common::Rng;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/3r4/8/2B5/4K3 w - - 90 60",
    "4k3/3n4/8/8/8/8/3N4/4K3 w - - 80 50",
    "4k3/8/2b5/8/8/4B3/8/4K3 w - - 0 1",
    "4k3/8/8/3p4/8/8/4P3/4K1N1 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 95 70",
    "7k/8/8/8/8/8/1R6/K1b5 w - - 0 1",
];

#[test]
fn rules_and_search_agree_on_draws() {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut seen = [0usize; 3]; // repetition, fifty moves, dead position
    let mut positions = 0;
    for fen in STARTS {
        for _ in 0..50 {
            let start = Position::from_fen(fen, false).expect("test FEN");
            let mut rules = ChessRecord::new(start);
            let mut search = ChessGame::new(start);
            for _ in 0..300 {
                let pos = *rules.position();
                let moves = pos.legal_moves();
                let list: Vec<_> = moves.iter().copied().collect();
                // Mostly reversible moves: they make repetitions and long quiet stretches likely.
                let reversible: Vec<_> = list
                    .iter()
                    .copied()
                    .filter(|&m| {
                        !pos.is_capture(m)
                            && pos.piece_on(m.from()).map(|p| p.kind())
                                != Some(corvid::chess::PieceType::Pawn)
                    })
                    .collect();
                let pool = if !reversible.is_empty() && !rng.next().is_multiple_of(8) {
                    &reversible
                } else {
                    &list
                };
                let m = pool[rng.below(pool.len())];
                rules.play(m).expect("legal move");
                search.play(m);
                positions += 1;
                let outcome = rules.outcome().map(|o| o.termination);
                if outcome == Some(Termination::Stalemate) {
                    break;
                }
                let rule_draw = matches!(
                    outcome,
                    Some(
                        Termination::ThreefoldRepetition
                            | Termination::FiftyMoveRule
                            | Termination::DeadPosition
                    )
                );
                assert_eq!(
                    search.is_draw(),
                    rule_draw,
                    "rules say {outcome:?}, search says draw={} at {} after {}",
                    search.is_draw(),
                    rules.position().to_fen(),
                    rules.san_movetext()
                );
                match outcome {
                    Some(Termination::ThreefoldRepetition) => seen[0] += 1,
                    Some(Termination::FiftyMoveRule) => seen[1] += 1,
                    Some(Termination::DeadPosition) => seen[2] += 1,
                    _ => {}
                }
                if outcome.is_some() {
                    break;
                }
            }
        }
    }
    // The games must really have exercised every kind of automatic draw.
    assert!(seen.iter().all(|&n| n > 0), "draws seen {seen:?}");
    assert!(positions > 2000, "{positions}");
}
