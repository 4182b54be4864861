//! Search behaviour on chess positions (mates with the right distance, no-move roots, draws by rule), and the
//! same generic search on Makromachy.

use super::*;
use crate::chess::Position;
use crate::variants::{ChessGame, MakroGame};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

struct Run {
    result: SearchResult<String>,
    infos: Vec<Info>,
}

fn search_with(fen: &str, limits: Limits, opts: SearchOptions) -> Run {
    let pos = Position::from_fen(fen, false).expect("valid FEN");
    let game = ChessGame::new(pos);
    let tt = TranspositionTable::new(8);
    let control = Control::default();
    let infos = Mutex::new(Vec::new());
    let report = |e: Event| {
        if let Event::Info(i) = e {
            infos.lock().expect("no poisoning").push(i);
        }
    };
    let mut searcher = Searcher::<ChessGame>::new();
    let result = searcher.run(&game, &limits, &[], &opts, &tt, &control, &report);
    Run {
        result: as_text(result),
        infos: infos.into_inner().expect("no poisoning"),
    }
}

/// The result in UCI text, as the tests write the moves.
fn as_text(o: SearchResult<crate::chess::Move>) -> SearchResult<String> {
    SearchResult {
        best: o.best.map(|m| m.to_uci(false)),
        ponder: o.ponder.map(|m| m.to_uci(false)),
    }
}

fn search_depth(fen: &str, depth: u32) -> Run {
    search_with(
        fen,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        SearchOptions::default(),
    )
}

fn last_score(run: &Run) -> Score {
    run.infos.last().expect("at least one info").score
}

#[test]
fn mate_in_one() {
    let run = search_depth("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4);
    assert_eq!(run.result.best.as_deref(), Some("d1d8"));
    assert_eq!(last_score(&run), Score::Mate(1));
}

#[test]
fn mate_in_two_sacrifice() {
    // Nf6+ gxf6 Bxf7#.
    let run = search_depth(
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        6,
    );
    assert_eq!(last_score(&run), Score::Mate(2));
    assert_eq!(run.result.best.as_deref(), Some("d5f6"));
}

#[test]
fn being_mated_in_one_is_negative() {
    // Black's only move Kb8 walks into Rh8#.
    let run = search_depth("k7/8/1K6/8/8/8/8/7R b - - 0 1", 5);
    assert_eq!(last_score(&run), Score::Mate(-1));
    assert_eq!(run.result.best.as_deref(), Some("a8b8"));
}

#[test]
fn stalemated_root_reports_draw_and_no_move() {
    let run = search_depth("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 5);
    assert_eq!(run.result.best, None);
    assert_eq!(run.infos.len(), 1);
    assert_eq!(last_score(&run), Score::Cp(0));
}

#[test]
fn checkmated_root_reports_mate_zero_and_no_move() {
    let run = search_depth("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 5);
    assert_eq!(run.result.best, None);
    assert_eq!(last_score(&run), Score::Mate(0));
}

#[test]
fn fifty_move_rule_draws_unless_mate() {
    // Mate on the hundredth ply stands.
    let run = search_depth("7k/8/6K1/8/8/8/8/R7 w - - 99 80", 4);
    assert_eq!(last_score(&run), Score::Mate(1));
    assert_eq!(run.result.best.as_deref(), Some("a1a8"));
    // A queen up, but every move completes the hundredth ply without mate: a draw.
    let run = search_depth("7k/8/8/8/8/1Q6/8/K7 w - - 99 80", 4);
    assert_eq!(last_score(&run), Score::Cp(0));
    // The same material with a fresh clock is winning.
    let run = search_depth("7k/8/8/8/8/1Q6/8/K7 w - - 0 80", 4);
    assert!(matches!(last_score(&run), Score::Cp(v) if v > 500));
}

#[test]
fn repetition_in_game_history_is_seen_by_the_search() {
    // Black, a queen down, shuffles a knight; the game has been here twice with Black to move after Kb1.
    // Playing ...Na8 and Ka1 would be the third occurrence; a losing side is happy with repetition only if it
    // can force it, so check instead that a repeated root line scores as a draw for the side that may claim it.
    let pos = Position::from_fen("n6k/8/8/8/8/8/Q7/K7 b - - 0 1", false).expect("valid FEN");
    let mut game = ChessGame::new(pos);
    for t in ["a8b6", "a1b1", "b6a8", "b1a1", "a8b6", "a1b1", "b6a8"] {
        let m = game.position().parse_uci_move(t).expect("legal");
        game.play(m);
    }
    // White to move: Ka1 repeats the position a third time. Every other move keeps a winning position, so the
    // search must avoid Ka1 and still report a winning score; restricted to Ka1, it sees the draw.
    let tt = TranspositionTable::new(8);
    let only_ka1 = run_on(&game, &tt, 5, &["b1a1"]);
    assert_eq!(last_score(&only_ka1), Score::Cp(0));
    let free = run_on(&game, &tt, 5, &[]);
    assert_ne!(free.result.best.as_deref(), Some("b1a1"));
    assert!(matches!(last_score(&free), Score::Cp(v) if v > 500));
}

/// Replays every reported line after `history` (the game's positions, the root last) and checks that none
/// goes on after a position the rules end (threefold repetition, fifty moves, mate, stalemate): fastchess
/// warns about such lines.
fn assert_lines_stop_at_the_end(history: &[Position], infos: &[Info], ponder: Option<&str>) {
    for info in infos {
        let mut line = history.to_vec();
        for (i, text) in info.pv.iter().enumerate() {
            let pos = line[line.len() - 1];
            assert!(
                crate::rules::automatic_ending(&pos, &line[..line.len() - 1]).is_none(),
                "line {:?} goes on after the game ended (move {i})",
                info.pv
            );
            let m = pos.parse_uci_move(text).expect("legal line");
            let mut next = pos;
            next.make_move(m);
            line.push(next);
        }
    }
    let last = infos.last().expect("a line");
    assert_eq!(last.pv.get(1).map(String::as_str), ponder);
}

/// Searches `game` to `depth` with `tt` (restricted to `only` when given); the result and the lines reported.
fn run_on(game: &ChessGame, tt: &TranspositionTable, depth: u32, only: &[&str]) -> Run {
    let infos = Mutex::new(Vec::new());
    let report = |e: Event| {
        if let Event::Info(i) = e {
            infos.lock().expect("no poisoning").push(i);
        }
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let only: Vec<_> = only
        .iter()
        .map(|t| game.position().parse_uci_move(t).expect("legal"))
        .collect();
    let out = Searcher::<ChessGame>::new().run(
        game,
        &limits,
        &only,
        &SearchOptions::default(),
        tt,
        &Control::default(),
        &report,
    );
    Run {
        result: as_text(out),
        infos: infos.into_inner().expect("no poisoning"),
    }
}

#[test]
fn lines_end_at_the_move_that_ends_the_game_by_rule() {
    // The table knows replies after every queen move from a search with an earlier clock (the clock is not
    // in the key). At ply 99 every move completes the hundredth ply: the line is the move alone, and no
    // ponder move is guessed from the table after it.
    let tt = TranspositionTable::new(8);
    let earlier = Position::from_fen("7k/8/8/8/8/1Q6/8/K7 w - - 90 80", false).expect("FEN");
    run_on(&ChessGame::new(earlier), &tt, 6, &[]);
    let root = Position::from_fen("7k/8/8/8/8/1Q6/8/K7 w - - 99 80", false).expect("FEN");
    let run = run_on(&ChessGame::new(root), &tt, 6, &[]);
    assert_eq!(last_score(&run), Score::Cp(0));
    assert_lines_stop_at_the_end(&[root], &run.infos, run.result.ponder.as_deref());
    assert_eq!(run.result.ponder, None);

    // Ka1 repeats the position a third time (the history of the test above); the table knows the position
    // after it from a search two moves earlier, when Ka1 made only its second occurrence.
    let tt = TranspositionTable::new(8);
    let start = Position::from_fen("n6k/8/8/8/8/8/Q7/K7 b - - 0 1", false).expect("FEN");
    let mut game = ChessGame::new(start);
    let mut history = vec![start];
    for (i, t) in ["a8b6", "a1b1", "b6a8", "b1a1", "a8b6", "a1b1", "b6a8"]
        .iter()
        .enumerate()
    {
        if i == 3 {
            let run = run_on(&game, &tt, 6, &["b1a1"]);
            assert!(run.infos.last().expect("a line").pv.len() > 1);
        }
        let m = game.position().parse_uci_move(t).expect("legal");
        game.play(m);
        history.push(*game.position());
    }
    let run = run_on(&game, &tt, 6, &["b1a1"]);
    assert_eq!(run.result.best.as_deref(), Some("b1a1"));
    assert_eq!(last_score(&run), Score::Cp(0));
    assert_lines_stop_at_the_end(&history, &run.infos, run.result.ponder.as_deref());
    assert_eq!(run.result.ponder, None);
}

#[test]
fn a_timed_search_stops_after_one_iteration_when_every_move_ends_the_game() {
    // Every move completes the hundredth ply (a draw): deeper iterations would cost a node or two each up to
    // the maximum depth (OpenBench showed `depth 127 … nodes 127` for such a root). A fixed depth is still
    // searched to that depth.
    let clock = Limits {
        wtime: Some(60_000),
        btime: Some(60_000),
        ..Limits::default()
    };
    let run = search_with(
        "7k/8/8/8/8/1Q6/8/K7 w - - 99 80",
        clock,
        SearchOptions::default(),
    );
    let last = run.infos.last().expect("a line");
    assert_eq!((last.depth, last.score), (1, Score::Cp(0)));
    assert!(run.result.best.is_some());
    let run = search_depth("7k/8/8/8/8/1Q6/8/K7 w - - 99 80", 9);
    assert_eq!(run.infos.last().expect("a line").depth, 9);
}

#[test]
fn multipv_reports_distinct_lines() {
    let run = search_with(
        crate::chess::STARTPOS,
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
        SearchOptions {
            multipv: 3,
            ..SearchOptions::default()
        },
    );
    let last: Vec<&Info> = run.infos.iter().filter(|i| i.depth == 4).collect();
    assert_eq!(last.len(), 3);
    let firsts: Vec<&String> = last.iter().map(|i| &i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(run.result.best.as_ref(), Some(firsts[0]));
}

#[test]
fn node_and_time_limits_end_the_search_by_themselves() {
    let node_limit = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let movetime = Limits {
        movetime: Some(200),
        ..Limits::default()
    };
    for (limits, threads) in [(node_limit, 2), (movetime, 1)] {
        let run = search_with(
            crate::chess::STARTPOS,
            limits.clone(),
            SearchOptions {
                threads,
                move_overhead_ms: 10,
                ..SearchOptions::default()
            },
        );
        assert!(run.result.best.is_some());
        let last = run.infos.last().expect("a line");
        // Nothing sets `stop`: the limit ended the search, long before the maximum depth.
        assert!(last.depth < (MAX_PLY - 1) as u32, "depth {}", last.depth);
        if limits.nodes.is_some() {
            // The main thread enforces the limit on its own count; a helper thread that the scheduler
            // favours can add a few times as much on a loaded machine, so the bound is loose.
            assert!(
                last.nodes < 200_000,
                "node limit respected roughly: {}",
                last.nodes
            );
        }
    }
}

#[test]
fn limited_strength_still_plays_legal_moves() {
    let run = search_with(
        crate::chess::STARTPOS,
        Limits::default(),
        SearchOptions {
            limit_elo: Some(1400),
            ..SearchOptions::default()
        },
    );
    let best = run.result.best.expect("a move");
    let pos = Position::startpos();
    assert!(pos.parse_uci_move(&best).is_ok());
}

#[test]
fn score_conversion() {
    assert_eq!(to_score(MATE_SCORE - 1), Score::Mate(1));
    assert_eq!(to_score(MATE_SCORE - 3), Score::Mate(2));
    assert_eq!(to_score(-(MATE_SCORE - 2)), Score::Mate(-1));
    assert_eq!(to_score(-MATE_SCORE), Score::Mate(0));
    assert_eq!(to_score(37), Score::Cp(37));
    let (w, d, l) = wdl(0);
    assert_eq!(w + d + l, 1000);
    assert_eq!(w, l);
    assert!(wdl(300).0 > wdl(100).0);
}

/// Runs a search from the start position on another thread while `drive` manipulates `control`.
/// Searches the start position under `limits`, and after 100 ms (long after a short search is done) gives
/// the signal `signal` (a stop, a ponderhit). Returns the result and whether the search returned after the
/// signal.
fn run_controlled(
    limits: Limits,
    pondering: bool,
    signal: impl FnOnce(&Control),
) -> (SearchResult<crate::chess::Move>, bool) {
    let tt = TranspositionTable::new(8);
    let control = Control::default();
    control.pondering.store(pondering, Ordering::Relaxed);
    let game = ChessGame::new(Position::startpos());
    // Set just before the signal: whether it was set when the search returned says whether the search
    // waited for the signal, with no clock in the assertion.
    let signalled = AtomicBool::new(false);
    std::thread::scope(|s| {
        let h = s.spawn(|| {
            let mut searcher = Searcher::<ChessGame>::new();
            let out = searcher.run(
                &game,
                &limits,
                &[],
                &SearchOptions::default(),
                &tt,
                &control,
                &|_| {},
            );
            (out, signalled.load(Ordering::SeqCst))
        });
        std::thread::sleep(std::time::Duration::from_millis(100));
        signalled.store(true, Ordering::SeqCst);
        signal(&control);
        h.join().expect("search thread")
    })
}

#[test]
fn infinite_search_waits_for_stop_even_at_max_depth() {
    let limits = Limits {
        depth: Some(2),
        infinite: true,
        ..Limits::default()
    };
    let (out, after_stop) =
        run_controlled(limits, false, |c| c.stop.store(true, Ordering::Relaxed));
    assert!(out.best.is_some());
    assert!(after_stop, "returned before stop");
}

#[test]
fn ponder_search_waits_for_ponderhit_then_ends_on_its_own_clock() {
    // Pondering with a clock: nothing returns until the ponderhit; after it the search ends by its own
    // time management, without a `stop`.
    let limits = Limits {
        wtime: Some(1000),
        btime: Some(1000),
        ponder: true,
        ..Limits::default()
    };
    // Nothing sets `stop` here: returning at all means the search ended by its own clock.
    let (out, after_ponderhit) = run_controlled(limits, true, |c| {
        c.pondering.store(false, Ordering::Relaxed)
    });
    assert!(out.best.is_some());
    assert!(after_ponderhit, "returned while still pondering");
}

#[test]
fn searchmoves_restrict_the_root() {
    let pos = Position::startpos();
    let game = ChessGame::new(pos);
    let only = [
        pos.parse_uci_move("a2a3").expect("legal"),
        pos.parse_uci_move("h2h3").expect("legal"),
    ];
    let tt = TranspositionTable::new(8);
    let control = Control::default();
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let out = Searcher::<ChessGame>::new().run(
        &game,
        &limits,
        &only,
        &SearchOptions::default(),
        &tt,
        &control,
        &|_| {},
    );
    let best = out.best.expect("a move");
    assert!(only.contains(&best), "{best:?}");
}

#[test]
fn go_mate_stops_once_the_mate_is_found() {
    let run = search_with(
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        Limits {
            mate: Some(1),
            ..Limits::default()
        },
        SearchOptions::default(),
    );
    assert_eq!(last_score(&run), Score::Mate(1));
    assert!(run.infos.last().expect("info").depth < 10);
}

#[test]
fn tablebase_scores_sit_between_evaluations_and_mates() {
    for ply in [1usize, 10, MAX_PLY - 1] {
        let win = tb_score(Wdl::Win, ply, true);
        assert!((TB_WIN_BOUND..MATE_BOUND).contains(&win), "{win}");
        assert_eq!(tb_score(Wdl::Loss, ply, true), -win);
        // Stored at one ply, read at another: still a tablebase win, never a mate.
        let stored = tt::score_to_tt(win, ply);
        assert_eq!(tt::score_from_tt(stored, ply), win);
        let read = tt::score_from_tt(stored, 0);
        assert!((TB_WIN_BOUND..MATE_BOUND).contains(&read), "{read}");
    }
    assert!(tb_score(Wdl::Win, 3, true) > tb_score(Wdl::Win, 4, true));
    // With the 50-move rule a cursed win is a draw, nudged towards the side that wins over the board.
    assert_eq!(tb_score(Wdl::CursedWin, 5, true), 2);
    assert_eq!(tb_score(Wdl::BlessedLoss, 5, true), -2);
    assert_eq!(tb_score(Wdl::Draw, 5, true), 0);
    // Without it, cursed wins are wins.
    assert_eq!(tb_score(Wdl::CursedWin, 5, false), TB_WIN - 5);
    assert_eq!(tb_score(Wdl::BlessedLoss, 5, false), -TB_WIN + 5);
}

/// The best move of a single-thread search of the Makromachy position `fen` to `depth`, as text.
fn makro_search(fen: &str, depth: u32) -> Option<String> {
    let game = MakroGame::new(crate::makro::Position::from_fen(fen).expect("valid FEN"));
    let tt = TranspositionTable::new(8);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let opts = SearchOptions {
        threads: 1,
        multipv: 1,
        ..Default::default()
    };
    Searcher::<MakroGame>::new()
        .run(
            &game,
            &limits,
            &[],
            &opts,
            &tt,
            &Control::default(),
            &|_| {},
        )
        .best
        .map(|m| m.text())
}

#[test]
fn the_generic_search_plays_makromachy() {
    // From the start position it returns a legal move.
    let best = makro_search(crate::makro::STARTPOS, 2).expect("a move");
    assert!(
        crate::makro::Position::startpos().parse_move(&best).is_ok(),
        "{best}"
    );
}

#[test]
fn finds_a_free_terror() {
    // White's Rook can take the undefended black Terror.
    let best = makro_search(
        "13k/14/14/14/14/14/14/14/3t10/14/14/14/14/K2R10 w - - 0 1",
        3,
    )
    .expect("a move");
    assert_eq!(best, "d1d6");
}
