//! Syzygy tablebases (the complete 3-4-man set in tests/data/syzygy): probes agree with an independent prober,
//! Corvid converts won endings and holds drawn ones in play, and a UCI session reports the tables.
//!
//! The tables are process-wide (the probing library keeps one set), so every test here loads the same path
//! once through [`load`].

mod common;

use common::child::Corvid;
use corvid::chess::{Color, Move, Position};
use corvid::engine::{Engine, Report};
use corvid::game::Wdl;
use corvid::rules::Termination;
use corvid::search::{Event, Limits, Score, TB_WIN_BOUND};
use corvid::tb;
use corvid::variants::ChessRecord;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
const EXPECTED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/syzygy_expected.txt"
);

fn load() {
    static LOAD: Once = Once::new();
    LOAD.call_once(|| {
        let found = tb::set_path(TABLES).expect("the test tables load");
        assert_eq!(found.map(|f| (f.files, f.max_pieces)), Some((70, 4)));
    });
    assert_eq!(tb::largest(), 4);
}

fn wdl_number(w: Wdl) -> i32 {
    w as i32
}

#[test]
fn wdl_and_dtz_agree_with_python_chess() {
    load();
    let text = std::fs::read_to_string(EXPECTED).expect("expected values");
    let mut positions = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut f = line.split(';');
        let (fen, wdl, dtz) = (f.next(), f.next(), f.next());
        let fen = fen.expect("FEN");
        let pos = Position::from_fen(fen, false).expect("valid FEN");
        let wdl: i32 = wdl.and_then(|w| w.parse().ok()).expect("WDL");
        let dtz: i32 = dtz.and_then(|d| d.parse().ok()).expect("DTZ");
        positions.push((fen.to_string(), pos, wdl, dtz));
    }
    assert!(positions.len() >= 600, "{} positions", positions.len());
    let mut mismatches = Vec::new();
    let mut materials = std::collections::HashSet::new();
    let (mut black_to_move, mut ep, mut outcomes) = (0, 0, [0usize; 5]);
    for (fen, pos, wdl, dtz) in &positions {
        let got_wdl = tb::probe_wdl(pos).map(wdl_number);
        let got_dtz = tb::probe_dtz(pos);
        if got_wdl != Some(*wdl) || got_dtz != Some(*dtz) {
            mismatches.push(format!(
                "{fen}: WDL {got_wdl:?} (expected {wdl}), DTZ {got_dtz:?} (expected {dtz})"
            ));
        }
        let board = fen.split(' ').next().unwrap_or("");
        let mut pieces: Vec<char> = board.chars().filter(|c| c.is_alphabetic()).collect();
        pieces.sort_unstable();
        materials.insert(pieces);
        black_to_move += (pos.side_to_move() == Color::Black) as usize;
        ep += pos.ep_square().is_some() as usize;
        outcomes[(wdl + 2) as usize] += 1;
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    // The sample is what it claims to be: many material sets, both sides to move, every outcome.
    assert!(materials.len() >= 35, "{} material sets", materials.len());
    assert!(black_to_move > positions.len() / 4 && black_to_move < positions.len() * 3 / 4);
    assert!(ep >= 5, "{ep} en-passant positions");
    assert!(outcomes[0] > 50 && outcomes[2] > 50 && outcomes[4] > 50);

    // Probe speed, for the record (the same positions over and over: tables are in the page cache).
    let start = Instant::now();
    let mut probes = 0u64;
    while start.elapsed() < Duration::from_millis(300) {
        for (_, pos, _, _) in &positions {
            std::hint::black_box(tb::probe_wdl(pos));
            probes += 1;
        }
    }
    let per_second = probes as f64 / start.elapsed().as_secs_f64();
    eprintln!("{probes} WDL probes, {per_second:.0} probes/s");
}

#[test]
fn root_ranking_keeps_the_best_outcome() {
    load();
    let text = std::fs::read_to_string(EXPECTED).expect("expected values");
    let (mut ranked, mut promotions, mut en_passant) = (0, 0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fen = line.split(';').next().expect("FEN");
        let pos = Position::from_fen(fen, false).expect("valid FEN");
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if moves.is_empty() {
            continue;
        }
        let root = tb::probe_wdl(&pos).expect("in the tables");
        let ranks = tb::rank_root_moves(&pos, &moves, false, true).expect("ranked");
        assert_eq!(ranks.len(), moves.len(), "{fen}");
        let best = ranks.iter().map(|r| r.rank).max().expect("a move");
        for (&m, r) in moves.iter().zip(&ranks) {
            let mut next = pos;
            next.make_move(m);
            // The opponent's verdict after the move, from the mover's side (the clock is zero at the root).
            let after = tb::probe_wdl(&next)
                .map(Wdl::flip)
                .unwrap_or(if next.in_check() { Wdl::Win } else { Wdl::Draw });
            assert_eq!(r.wdl, after, "{fen}: {}", m.to_uci(false));
            if r.rank == best {
                assert_eq!(after, root, "{fen}: {} is ranked best", m.to_uci(false));
            } else {
                assert!(after <= root, "{fen}: {}", m.to_uci(false));
            }
            promotions += m.promotion_piece().is_some() as usize;
            en_passant += (m.kind() == corvid::chess::MoveKind::EnPassant) as usize;
        }
        ranked += 1;
    }
    assert!(
        ranked >= 600 && promotions > 20 && en_passant >= 5,
        "{ranked} {promotions} {en_passant}"
    );
}

#[test]
fn root_ranking_follows_the_fifty_move_rule() {
    load();
    // DTZ 62 with 90 plies already on the clock: won over the board, drawn by the 50-move rule.
    let pos = Position::from_fen("K7/8/8/8/1k4B1/8/8/3N4 w - - 90 80", false).expect("FEN");
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let best = |rule50: bool| {
        let ranks = tb::rank_root_moves(&pos, &moves, false, rule50).expect("ranked");
        let top = ranks.iter().map(|r| r.rank).max().expect("a move");
        let kept: Vec<_> = ranks.into_iter().filter(|r| r.rank == top).collect();
        kept
    };
    let with_rule = best(true);
    assert!(with_rule.iter().all(|r| r.wdl == Wdl::CursedWin));
    let without = best(false);
    assert!(without.iter().all(|r| r.wdl == Wdl::Win));
    // So late in the count only the quickest progress ranks best.
    assert!(with_rule.iter().all(|r| r.dtz == 62), "{with_rule:?}");
    // Early in the count every move that keeps the win in reach ranks best, the search choosing among them;
    // after a repetition only the quickest do.
    let fresh = Position::from_fen("K7/8/8/8/1k4B1/8/8/3N4 w - - 0 1", false).expect("FEN");
    let ranks = tb::rank_root_moves(&fresh, &moves, false, true).expect("ranked");
    let top = ranks.iter().map(|r| r.rank).max().expect("a move");
    let early = ranks.iter().filter(|r| r.rank == top).count();
    let ranks = tb::rank_root_moves(&fresh, &moves, true, true).expect("ranked");
    let top = ranks.iter().map(|r| r.rank).max().expect("a move");
    let repeated: Vec<_> = ranks.iter().filter(|r| r.rank == top).collect();
    assert!(early > repeated.len(), "{early} {}", repeated.len());
    assert!(repeated.iter().all(|r| r.dtz == 62 && r.wdl == Wdl::Win));
}

/// Corvid behind the engine facade, searching a fixed number of nodes per move.
struct Player {
    engine: Engine,
    reports: Receiver<Report>,
    nodes: u64,
}

impl Player {
    fn new(nodes: u64) -> Player {
        load();
        let (tx, reports) = channel();
        let engine = Engine::new(Arc::new(move |r| {
            let _ = tx.send(r);
        }));
        Player {
            engine,
            reports,
            nodes,
        }
    }

    /// The move Corvid chooses in the game's current position, and the tablebase hits it reported.
    fn choose(&mut self, game: &ChessRecord) -> (Move, u64) {
        self.engine
            .set_game::<corvid::variants::Chess>(game.start(), game.moves())
            .expect("legal game");
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        assert!(self.engine.go(limits, &[]).is_empty());
        let mut tbhits = 0;
        loop {
            match self
                .reports
                .recv_timeout(Duration::from_secs(120))
                .expect("the search answers")
            {
                Report::Search(Event::Info(info)) => tbhits = tbhits.max(info.tbhits),
                Report::Search(_) => {}
                Report::BestMove(outcome) => {
                    let text = outcome.best.expect("a move");
                    let m = game
                        .position()
                        .parse_uci_move(&text.text)
                        .expect("legal move");
                    return (m, tbhits);
                }
            }
        }
    }
}

/// Plays `fen` out, White and Black each a Corvid with tables, at most `max_plies` plies; returns the game.
fn play_out(fen: &str, white_nodes: u64, black_nodes: u64, max_plies: usize) -> ChessRecord {
    let mut game = ChessRecord::new(Position::from_fen(fen, false).expect("test FEN"));
    let mut white = Player::new(white_nodes);
    let mut black = Player::new(black_nodes);
    while !game.is_over() && game.moves().len() < max_plies {
        let player = match game.position().side_to_move() {
            Color::White => &mut white,
            Color::Black => &mut black,
        };
        let (m, tbhits) = player.choose(&game);
        assert!(tbhits > 0, "a 3-4-man root is in the tables");
        game.play(m).expect("legal move");
    }
    game
}

#[test]
fn won_endings_are_converted_to_mate() {
    // The longest wins among a few thousand random positions of each kind: DTZ 62 (KBNvK), 57 (KQvKR).
    let cases = [
        ("K7/8/8/8/1k4B1/8/8/3N4 w - - 0 1", 62),
        ("8/8/8/8/8/7k/8/N2B3K w - - 0 1", 62),
        ("8/8/8/8/5k2/8/4r2K/6Q1 w - - 0 1", 57),
        ("8/8/8/1r3Q2/2k5/8/8/K7 w - - 0 1", 57),
    ];
    for (fen, dtz) in cases {
        let pos = Position::from_fen(fen, false).expect("test FEN");
        load();
        assert_eq!(tb::probe_dtz(&pos), Some(dtz), "{fen}");
        // Within the 50-move rule from the start; KQvKR reaches KQvK first, then mates.
        let game = play_out(fen, 2000, 2000, 200);
        let outcome = game.outcome();
        assert_eq!(
            outcome.map(|o| (o.winner, o.termination)),
            Some((Some(Color::White), Termination::Checkmate)),
            "{fen}: {}",
            game.san_movetext()
        );
        eprintln!("{fen}: mate after {} plies", game.moves().len());
    }
}

#[test]
fn drawn_krkb_is_held() {
    // Drawn, but 15 of Black's 16 moves (and 13 of 14) lose: the defence must find the one that holds.
    let cases = [
        "8/k7/8/K7/4b3/8/8/2R5 b - - 0 1",
        "8/6R1/5K1k/8/4b3/8/8/8 b - - 0 1",
    ];
    for fen in cases {
        load();
        let mut game = ChessRecord::new(Position::from_fen(fen, false).expect("test FEN"));
        assert_eq!(tb::probe_wdl(game.position()), Some(Wdl::Draw));
        let mut attacker = Player::new(20_000);
        let mut defender = Player::new(1000);
        let mut defended = 0;
        while !game.is_over() && game.moves().len() < 120 {
            let black = game.position().side_to_move() == Color::Black;
            let player = if black { &mut defender } else { &mut attacker };
            let (m, _) = player.choose(&game);
            game.play(m).expect("legal move");
            if black {
                defended += 1;
                // White to move now: a draw ignoring the 50-move count (the tables' own verdict), or a
                // position the rules have already ended.
                let wdl = tb::probe_wdl(game.position());
                assert!(
                    wdl == Some(Wdl::Draw) || game.is_over(),
                    "{fen}: lost after {}: {wdl:?}",
                    game.san_movetext()
                );
            }
        }
        assert!(defended >= 50 || game.is_over(), "{fen}: {defended} moves");
        if let Some(o) = game.outcome() {
            assert_eq!(o.winner, None, "{fen}: {}", game.san_movetext());
        }
        eprintln!(
            "{fen}: {} plies, {:?}",
            game.moves().len(),
            game.outcome().map(|o| o.termination)
        );
    }
}

/// Searches `fen` to `depth` with `player`'s engine; returns the last line's score and tablebase hits.
fn search_score(player: &mut Player, fen: &str, depth: u32) -> (Score, u64) {
    player
        .engine
        .set_position(Some(fen), &[] as &[&str])
        .expect("test FEN");
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    assert!(player.engine.go(limits, &[]).is_empty());
    let mut last = None;
    loop {
        match player
            .reports
            .recv_timeout(Duration::from_secs(120))
            .expect("the search answers")
        {
            Report::Search(Event::Info(info)) => last = Some((info.score, info.tbhits)),
            Report::Search(_) => {}
            Report::BestMove(_) => return last.expect("an info line"),
        }
    }
}

#[test]
fn the_tree_probes_after_captures() {
    // Five pieces, more than the tables hold, but Qxd4+ leaves a won KQvKP: the search sees it in the tree.
    let fen = "7k/p7/8/8/3r4/8/8/2KQ4 w - - 0 1";
    let mut player = Player::new(0);
    let (score, tbhits) = search_score(&mut player, fen, 6);
    assert!(tbhits > 0);
    assert!(
        matches!(score, Score::Cp(cp) if cp >= TB_WIN_BOUND)
            || matches!(score, Score::Mate(n) if n > 0),
        "{score:?}"
    );
    // SyzygyProbeLimit 0: no probes at all, and an ordinary evaluation.
    player
        .engine
        .set_option("SyzygyProbeLimit", Some("0"))
        .expect("option");
    player.engine.new_game();
    let (score, tbhits) = search_score(&mut player, fen, 6);
    assert_eq!(tbhits, 0);
    assert!(
        matches!(score, Score::Cp(cp) if cp < TB_WIN_BOUND),
        "{score:?}"
    );
}

#[test]
fn uci_session_reports_the_tables() {
    let mut e = Corvid::start();
    // A search with tables can take a while on a loaded machine.
    let wait = Duration::from_secs(60);
    e.send("uci");
    let seen = e.until("uciok", wait, |l| l == "uciok");
    for option in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name Syzygy50MoveRule type check default true",
    ] {
        assert!(seen.iter().any(|l| l == option), "{option}: {seen:#?}");
    }

    e.send("setoption name SyzygyPath value /no/such/tablebase/dir");
    e.send("isready");
    let seen = e.until("readyok", wait, |l| l == "readyok");
    assert_eq!(seen.len(), 2, "{seen:#?}");
    assert!(seen[0].starts_with("info string error: SyzygyPath: no Syzygy tablebase files"));

    e.send(&format!("setoption name SyzygyPath value {TABLES}"));
    e.send("isready");
    let seen = e.until("readyok", wait, |l| l == "readyok");
    assert_eq!(
        seen,
        [
            "info string found 70 tablebase files, up to 4 pieces",
            "readyok"
        ]
    );

    // A bad path afterwards keeps the tables: the search below still finds them.
    e.send("setoption name SyzygyPath value /no/such/tablebase/dir");
    e.send("isready");
    let seen = e.until("readyok", wait, |l| l == "readyok");
    assert!(seen[0].starts_with("info string error:"), "{seen:#?}");

    e.send("position fen 8/8/8/1r3Q2/2k5/8/8/K7 w - - 0 1");
    e.send("go nodes 5000");
    let seen = e.until("bestmove", wait, |l| l.starts_with("bestmove"));
    let last_info = seen
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let field = |name: &str| -> i64 {
        let words: Vec<&str> = last_info.split(' ').collect();
        let i = words.iter().position(|w| *w == name).expect(name);
        words[i + 1].parse().expect("a number")
    };
    assert!(field("tbhits") > 0, "{last_info}");
    // A tablebase win, shown just below the mate range.
    assert!(
        last_info.contains("score mate") || field("cp") > 31_000,
        "{last_info}"
    );

    // No tables: the same search has no tablebase hits.
    e.send("setoption name SyzygyPath value <empty>");
    e.send("isready");
    let seen = e.until("readyok", wait, |l| l == "readyok");
    assert_eq!(seen, ["info string no tablebases", "readyok"]);
    e.send("go nodes 5000");
    let seen = e.until("bestmove", wait, |l| l.starts_with("bestmove"));
    assert!(
        seen.iter()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| l.contains(" tbhits 0 ")),
        "{seen:#?}"
    );

    e.quit();
}
