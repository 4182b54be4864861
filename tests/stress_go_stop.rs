//! Stress: 1000 `go`/`stop` cycles at random moments against the real binary with Threads 4, with position
//! changes (also while a search runs), `ponderhit`, `isready` mid-search, options and new games between
//! searches, and stale `stop`s after a search ended on its own. Every `go` must get exactly one `bestmove`,
//! legal in the position it searched (not in one set while it ran), and a `readyok` must come promptly.

mod common;

use common::child::{bestmove_of, Corvid, SOON};
use common::Rng;
use corvid::chess::Position;
use std::time::{Duration, Instant};

const CYCLES: usize = 1000;

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "7k/8/6KQ/8/8/8/8/8 b - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

/// A position from the list with a few random moves played; the `position` command and the result.
fn random_position(rng: &mut Rng) -> (String, Position) {
    let fen = FENS[rng.below(FENS.len())];
    let mut pos = Position::from_fen(fen, false).expect("test FEN");
    let mut moves = Vec::new();
    for _ in 0..rng.below(8) {
        let legal = pos.legal_moves();
        let Some(&m) = legal.get(rng.below(legal.len().max(1))) else {
            break;
        };
        moves.push(m.to_uci(false));
        pos.make_move(m);
    }
    let cmd = if moves.is_empty() {
        format!("position fen {fen}")
    } else {
        format!("position fen {fen} moves {}", moves.join(" "))
    };
    (cmd, pos)
}

#[derive(Default, Debug)]
struct Figures {
    stops: usize,
    ponderhits: usize,
    ended_alone: usize,
    stale_stops: usize,
    position_mid_search: usize,
    isready_mid_search: usize,
    options: usize,
    no_legal_move: usize,
}

#[test]
fn a_thousand_go_stop_cycles_with_four_threads() {
    let started = Instant::now();
    let mut rng = Rng::new(0x57E5_5000_0000_0004);
    let mut e = Corvid::start();
    e.send("uci");
    e.until("uciok", SOON, |l| l == "uciok");
    e.send("setoption name Threads value 4");
    e.send("setoption name Hash value 16");
    let (cmd, mut pos) = random_position(&mut rng);
    e.send(&cmd);
    let _ = e.isready();
    let mut fig = Figures::default();
    let mut slowest = Duration::ZERO;

    for cycle in 0..CYCLES {
        // Between searches: a new position, options, a new game.
        if rng.below(3) == 0 {
            let (cmd, p) = random_position(&mut rng);
            e.send(&cmd);
            pos = p;
        }
        let option = match rng.below(10) {
            0 => format!("setoption name MultiPV value {}", 1 + rng.below(3)),
            1 => "setoption name Clear Hash".to_string(),
            2 => format!(
                "setoption name UCI_LimitStrength value {}",
                rng.below(4) == 0
            ),
            3 => "ucinewgame".to_string(),
            4 => "setoption name Threads value 4".to_string(),
            _ => String::new(),
        };
        if !option.is_empty() {
            e.send(&option);
            fig.options += 1;
        }
        let searched = pos;
        let cycle_start = Instant::now();
        let kind = rng.below(6);
        let go = match kind {
            0 => "go infinite".to_string(),
            1 => "go ponder movetime 500".to_string(),
            2 => format!("go movetime {}", 1 + rng.below(4)),
            3 => format!("go nodes {}", 1 + rng.below(5000)),
            4 => "go wtime 60000 btime 60000 winc 1000 binc 1000".to_string(),
            _ => "go depth 40".to_string(),
        };
        e.send(&go);
        // A random moment: at once, within the first iteration, or a few iterations in.
        let wait = match rng.below(4) {
            0 => 0,
            1 => rng.below(300) as u64,
            _ => rng.below(4000) as u64,
        };
        std::thread::sleep(Duration::from_micros(wait));
        if rng.below(5) == 0 {
            // A new position while searching: the running search keeps the old one.
            let (cmd, p) = random_position(&mut rng);
            e.send(&cmd);
            pos = p;
            fig.position_mid_search += 1;
        }
        if rng.below(5) == 0 {
            e.send("isready");
            fig.isready_mid_search += 1;
        }
        let ends_alone = matches!(kind, 2 | 3);
        if kind == 1 && rng.below(2) == 0 {
            // The ponder search becomes a 500 ms search; it is stopped below or ends by itself.
            e.send("ponderhit");
            fig.ponderhits += 1;
        }
        let stopped = !ends_alone || rng.below(4) == 0;
        if stopped {
            e.send("stop");
            fig.stops += 1;
        }
        let lines = e.until("bestmove", SOON, |l| l.starts_with("bestmove"));
        let Some((best, ponder)) = lines.last().and_then(|l| bestmove_of(l)) else {
            e.fail("malformed bestmove");
        };
        if !stopped {
            fig.ended_alone += 1;
        }
        if best == "(none)" {
            fig.no_legal_move += 1;
            if !searched.legal_moves().is_empty() {
                e.fail(&format!(
                    "cycle {cycle}: no bestmove in {}",
                    searched.to_fen()
                ));
            }
        } else {
            let Ok(m) = searched.parse_uci_move(best) else {
                e.fail(&format!(
                    "cycle {cycle}: `{go}`: bestmove {best} illegal in {}",
                    searched.to_fen()
                ));
            };
            if let Some(p) = ponder {
                let mut after = searched;
                after.make_move(m);
                if after.parse_uci_move(p).is_err() {
                    e.fail(&format!("cycle {cycle}: ponder {p} illegal after {best}"));
                }
            }
        }
        // A stop after the search ended must not reach the next one.
        if rng.below(10) == 0 {
            e.send("stop");
            fig.stale_stops += 1;
        }
        // Nothing else may follow: a second bestmove would come before this readyok.
        let tail = e.isready();
        if let Some(extra) = tail.iter().find(|l| l.starts_with("bestmove")) {
            e.fail(&format!(
                "cycle {cycle}: `{go}` got a second answer `{extra}`"
            ));
        }
        slowest = slowest.max(cycle_start.elapsed());
    }
    e.quit();
    let took = started.elapsed();
    println!(
        "{CYCLES} cycles in {:.1} s (slowest {} ms): {fig:?}",
        took.as_secs_f64(),
        slowest.as_millis()
    );
    assert!(
        fig.stops > CYCLES / 2 && fig.ponderhits > 50 && fig.position_mid_search > 100,
        "{fig:?}"
    );
}
