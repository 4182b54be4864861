//! The line a GUI shows is the line Corvid plays: hundreds of real timed searches of a few milliseconds
//! (cut iterations, aspiration fails, MultiPV, UCI_LimitStrength, two threads, Chess960, Makromachy), each
//! checked for this: the last `info … multipv 1 … pv` before `bestmove` starts with the best move, its second
//! move is the ponder move when one is given, and both are legal.

mod common;

use common::child::{bestmove_of, field, pv_of, Corvid, SOON};
use common::Rng;
use corvid::chess::Position;
use std::time::Duration;

/// A position to check moves against.
#[derive(Clone)]
enum Board {
    Chess(Position),
    Makro(Box<corvid::makro::Position>),
}

impl Board {
    /// The position after the move `text`, or None when it is not legal here.
    fn play(&self, text: &str) -> Option<Board> {
        match self {
            Board::Chess(p) => {
                let m = p.parse_uci_move(text).ok()?;
                let mut next = *p;
                next.make_move(m);
                Some(Board::Chess(next))
            }
            Board::Makro(p) => {
                let m = p.parse_move(text).ok()?;
                let mut next = p.clone();
                next.make_move(m);
                Some(Board::Makro(next))
            }
        }
    }

    fn has_moves(&self) -> bool {
        match self {
            Board::Chess(p) => !p.legal_moves().is_empty(),
            Board::Makro(p) => !p.legal_moves().is_empty(),
        }
    }
}

/// Fixed positions that provoke the cases: quiet openings, sharp middlegames (fail highs and lows), mates,
/// a single legal move, promotions, pawn endings (deep iterations in a few ms).
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "7k/8/6KQ/8/8/8/8/8 b - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w Q - 0 1",
    "2kr3r/ppp2ppp/2n5/2b1p3/4P1q1/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 12",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
];

/// Positions reached by random legal moves from the start (the same on every run).
fn random_positions(rng: &mut Rng, count: usize) -> Vec<String> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos();
        let plies = 4 + rng.below(60);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.get(rng.below(moves.len())).copied();
            let Some(m) = m else { break };
            pos.make_move(m);
        }
        if !pos.legal_moves().is_empty() {
            out.push(pos.to_fen());
        }
    }
    out
}

/// A `go` with small limits of every kind, chosen by `rng`: timed ones cut iterations at random moments.
fn random_go(rng: &mut Rng) -> (String, Option<Duration>) {
    match rng.below(7) {
        0 | 1 => (format!("go movetime {}", 1 + rng.below(10)), None),
        2 => (format!("go nodes {}", 1 + rng.below(20_000)), None),
        3 => (format!("go depth {}", 1 + rng.below(7)), None),
        4 => {
            let t = 20 + rng.below(400);
            (format!("go wtime {t} btime {t} winc 10 binc 10"), None)
        }
        // A stop a few ms into a long search: the cut comes from outside, at any point of an iteration.
        5 => (
            "go infinite".to_string(),
            Some(Duration::from_millis(rng.below(12) as u64)),
        ),
        _ => (
            "go movetime 5000".to_string(),
            Some(Duration::from_millis(rng.below(8) as u64)),
        ),
    }
}

/// Counts of what one run saw, for the final sanity checks.
#[derive(Default)]
struct Seen {
    searches: usize,
    with_ponder: usize,
}

/// One search of `board`: the agreement of the last line 1 with the bestmove and the ponder move.
fn check_search(
    e: &mut Corvid,
    board: &Board,
    go: &str,
    stop_after: Option<Duration>,
    seen: &mut Seen,
) {
    e.send(go);
    if let Some(d) = stop_after {
        std::thread::sleep(d);
        e.send("stop");
    }
    let lines = e.until("bestmove", SOON, |l| l.starts_with("bestmove"));
    let Some((best, ponder)) = lines.last().and_then(|l| bestmove_of(l)) else {
        e.fail("malformed bestmove");
    };
    seen.searches += 1;
    let last = lines.iter().rfind(|l| {
        l.starts_with("info ") && field(l, "multipv") == Some("1") && !pv_of(l).is_empty()
    });
    let Some(last) = last else {
        e.fail(&format!(
            "`{go}`: no info line with a pv before bestmove {best}"
        ));
    };
    let pv = pv_of(last);
    if pv[0] != best {
        e.fail(&format!(
            "`{go}`: bestmove {best} but the last line is `{last}`"
        ));
    }
    let Some(after) = board.play(best) else {
        e.fail(&format!("`{go}`: bestmove {best} is not legal"));
    };
    if let Some(p) = ponder {
        seen.with_ponder += 1;
        if pv.get(1) != Some(&p) {
            e.fail(&format!("`{go}`: ponder {p} but the last line is `{last}`"));
        }
        if after.play(p).is_none() {
            e.fail(&format!("`{go}`: ponder {p} is not legal after {best}"));
        }
    }
    // The whole reported line is a legal sequence.
    let mut b = board.clone();
    for m in &pv {
        match b.play(m) {
            Some(next) => b = next,
            None => e.fail(&format!("`{go}`: the pv move {m} is illegal in `{last}`")),
        }
    }
}

/// Every position of `fens` searched `per_position` times with random small limits, after `options`.
fn run_config(
    options: &[&str],
    fens: &[String],
    per_position: usize,
    chess960: bool,
    rng: &mut Rng,
) -> Seen {
    let mut e = Corvid::start();
    e.send("uci");
    e.until("uciok", SOON, |l| l == "uciok");
    for o in options {
        e.send(o);
    }
    let mut seen = Seen::default();
    for fen in fens {
        let Ok(pos) = Position::from_fen(fen, chess960) else {
            panic!("bad test FEN {fen}");
        };
        let board = Board::Chess(pos);
        if !board.has_moves() {
            continue;
        }
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        for _ in 0..per_position {
            let (go, stop) = random_go(rng);
            check_search(&mut e, &board, &go, stop, &mut seen);
        }
        let errors: Vec<String> = e
            .isready()
            .into_iter()
            .filter(|l| l.contains("error"))
            .collect();
        assert!(errors.is_empty(), "{options:?}: {errors:?}");
    }
    e.quit();
    seen
}

fn all_fens(rng: &mut Rng, random: usize) -> Vec<String> {
    let mut fens: Vec<String> = FENS.iter().map(|s| s.to_string()).collect();
    fens.extend(random_positions(rng, random));
    fens
}

#[test]
fn one_thread_single_pv() {
    let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
    let fens = all_fens(&mut rng, 14);
    let seen = run_config(&["setoption name Hash value 16"], &fens, 5, false, &mut rng);
    assert!(seen.searches >= 130, "{}", seen.searches);
    // Most searches reach depth 2, where the PV gives a ponder move: the ponder check ran.
    assert!(
        seen.with_ponder * 2 > seen.searches,
        "{} of {}",
        seen.with_ponder,
        seen.searches
    );
}

#[test]
fn multipv_three() {
    let mut rng = Rng::new(0x0F0F_1234_AAAA_5555);
    let fens = all_fens(&mut rng, 6);
    let seen = run_config(
        &[
            "setoption name Hash value 16",
            "setoption name MultiPV value 3",
        ],
        &fens,
        4,
        false,
        &mut rng,
    );
    assert!(seen.searches >= 70, "{}", seen.searches);
}

#[test]
fn limited_strength_plays_the_line_it_shows() {
    let mut rng = Rng::new(0xDEAD_BEEF_0BAD_F00D);
    let fens = all_fens(&mut rng, 6);
    let mut seen = Seen::default();
    for elo in ["1320", "1500", "2200"] {
        let opts = [
            "setoption name UCI_LimitStrength value true".to_string(),
            format!("setoption name UCI_Elo value {elo}"),
        ];
        let refs: Vec<&str> = opts.iter().map(String::as_str).collect();
        let s = run_config(&refs, &fens, 2, false, &mut rng);
        seen.searches += s.searches;
    }
    assert!(seen.searches >= 100, "{}", seen.searches);
}

#[test]
fn two_threads() {
    let mut rng = Rng::new(0x5555_AAAA_1111_2222);
    let fens = all_fens(&mut rng, 8);
    let seen = run_config(
        &[
            "setoption name Hash value 16",
            "setoption name Threads value 2",
        ],
        &fens,
        4,
        false,
        &mut rng,
    );
    assert!(seen.searches >= 80, "{}", seen.searches);
}

#[test]
fn chess960_and_multipv_with_two_threads() {
    let mut rng = Rng::new(0x9696_9696_0960_0960);
    let fens: Vec<String> = [
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
        "nrbkqrnb/pppppppp/8/8/8/8/PPPPPPPP/NRBKQRNB w FBfb - 0 1",
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let seen = run_config(
        &[
            "setoption name UCI_Chess960 value true",
            "setoption name Threads value 2",
            "setoption name MultiPV value 2",
        ],
        &fens,
        8,
        true,
        &mut rng,
    );
    assert!(seen.searches >= 32, "{}", seen.searches);
}

#[test]
fn makromachy_lines() {
    let mut rng = Rng::new(0x1414_1414_7777_3333);
    let mut e = Corvid::start();
    e.send("uci");
    e.until("uciok", SOON, |l| l == "uciok");
    e.send("setoption name UCI_Variant value makromachy");
    let mut seen = Seen::default();
    let mut board = corvid::makro::Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..24 {
        let cmd = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&cmd);
        let go = match rng.below(3) {
            0 => format!("go movetime {}", 5 + rng.below(30)),
            1 => format!("go nodes {}", 1 + rng.below(3000)),
            _ => format!("go depth {}", 1 + rng.below(2)),
        };
        check_search(
            &mut e,
            &Board::Makro(Box::new(board.clone())),
            &go,
            None,
            &mut seen,
        );
        // Walk on by a random legal move so that the positions vary.
        let legal = board.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(m.text());
        board.make_move(m);
    }
    e.quit();
    assert!(seen.searches >= 10, "{}", seen.searches);
}

/// CECP: with `post`, the last thinking line before `move` starts with the move played (in SAN).
#[test]
fn cecp_thinking_ends_with_the_move_played() {
    let mut rng = Rng::new(0xCEC9_0002_1357_9BDF);
    let fens = all_fens(&mut rng, 10);
    let mut e = Corvid::start();
    e.send("xboard");
    e.send("protover 2");
    e.until("feature done=1", SOON, |l| l == "feature done=1");
    let mut checked = 0;
    for (i, fen) in fens.iter().cycle().take(3 * fens.len()).enumerate() {
        let Ok(pos) = Position::from_fen(fen, false) else {
            panic!("bad test FEN {fen}");
        };
        if pos.legal_moves().is_empty() {
            continue;
        }
        // A move that ends the game is followed by its result line: read it before the next game starts,
        // or it would pass for this game's answer and the next search's move for the one after.
        e.ping();
        e.send("new");
        e.send("force");
        e.send("post");
        e.send(&format!("setboard {fen}"));
        let move_now = i % 3 == 2;
        if move_now {
            e.send("st 5");
        } else {
            e.send(&format!("st 0.00{}", 1 + rng.below(9)));
        }
        e.send("go");
        if move_now {
            std::thread::sleep(Duration::from_millis(rng.below(10) as u64));
            e.send("?");
        }
        // A draw offer comes before the move, so it does not end the wait.
        let lines = e.until("a move", SOON, |l| {
            l.starts_with("move ") || l == "resign" || l.contains(" {")
        });
        let Some(played) = lines.last().and_then(|l| l.strip_prefix("move ")) else {
            // Resigned, or the game was over: nothing played to compare.
            continue;
        };
        let Ok(m) = pos
            .parse_uci_move(played)
            .or_else(|_| pos.parse_san(played))
        else {
            e.fail(&format!("illegal move {played} in {fen}"));
        };
        let thinking = lines.iter().rfind(|l| {
            l.contains('\t')
                && l.split_whitespace()
                    .next()
                    .is_some_and(|t| t.parse::<u32>().is_ok())
        });
        let Some(last) = thinking else {
            e.fail(&format!("no thinking line before move {played} in {fen}"));
        };
        let first = last
            .split('\t')
            .nth(1)
            .and_then(|pv| pv.split_whitespace().next());
        if first != Some(pos.to_san(m).as_str()) {
            e.fail(&format!(
                "played {played} but the last thinking line is `{last}`"
            ));
        }
        checked += 1;
        e.send("force");
    }
    e.quit();
    assert!(checked >= 50, "{checked}");
}
