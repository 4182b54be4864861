//! `corvid bench`: a fixed set of positions searched to a fixed depth with one thread. The node count is
//! deterministic and serves as the build's signature (OpenBench reads the last line, `<nodes> nodes <nps> nps`).

use crate::chess::Position;
use crate::eval::nnue::NnueEval;
use crate::game::{Game, GameKind};
use crate::search::{Control, Limits, SearchOptions, Searcher, TranspositionTable};
use crate::variants::ChessGame;
use std::time::Instant;

/// Depth searched when none is given (about 8.6 M nodes, 4 s, with the tuned evaluation of the eval branch).
pub const DEFAULT_DEPTH: u32 = 13;

/// Opening, middlegame and endgame positions (a few Chess960 starts marked by `960:`).
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp1ppppp/5n2/2p5/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
    "rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 2 5",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 1 7",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PBPN2/PP3PPP/RN1Q1RK1 w - - 3 9",
    "2rq1rk1/pb1nbppp/1p2pn2/2ppN3/3P1B2/2PBP3/PP1N1PPP/R2QR1K1 w - - 0 12",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2NB4/PPP1Q1PP/2KR3R w - - 0 13",
    "r2qr1k1/1b1nbppp/p2p1n2/1pp1p3/4P3/1BPP1N1P/PP1N1PP1/R1BQR1K1 w - - 0 13",
    "3r1rk1/pp3ppp/2n1bq2/2bp4/8/1BN2N2/PPP2PPP/R2Q1RK1 w - - 0 14",
    "r4rk1/pp2ppbp/2np1np1/q7/2P1P3/2N1BP2/PP1QB1PP/R4RK1 w - - 3 13",
    "2kr3r/pppq1ppp/2n1bn2/3p4/3P4/2NBPN2/PPQ2PPP/R3K2R w KQ - 4 11",
    "r1bq1rk1/pp3ppp/2n1pn2/3p4/1bPP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "r2qkb1r/pp1n1ppp/2p1pn2/3p1b2/2PP4/1QN1PN2/PP3PPP/R1B1KB1R w KQkq - 2 7",
    "rn1qk2r/pbppbppp/1p2pn2/8/2PP4/5NP1/PP2PPBP/RNBQ1RK1 w kq - 2 6",
    "r1bqk2r/ppp2ppp/2n1pn2/3p4/1bPP4/2NBPN2/PP3PPP/R1BQK2R b KQkq - 2 6",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18",
    "4k2r/1pb2ppp/1p2p3/1R1p4/3P4/2r1PN2/P4PPP/1R4K1 b - - 3 22",
    "3q2k1/pb3p1p/4pbp1/2r5/PpN2N2/1P2P2P/5PP1/Q2R2K1 b - - 4 26",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
    "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
    "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
    "8/pp2r1k1/2p1p3/3pP2p/1P1P1P1P/P5KR/8/8 w - - 0 1",
    "8/3p4/p1bk3p/Pp6/1Kp1PpPp/2P2P1P/2P5/5B2 b - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "6k1/4pp1p/3p2p1/P1pPb3/R7/1r2P1PP/3B1P2/6K1 w - - 0 1",
    "960:bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "960:2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "960:b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
];

/// Makromachy bench positions: the start, then positions from seeded random play (captures favoured) after
/// 8 to 62 plies.
pub const MAKRO_POSITIONS: &[&str] = &[
    "djivcgulkcvijd/wwwzrftqfrzwww/bhnmeossoeanhb/pppppppppppppp/14/14/14/14/14/14/PPPPPPPPPPPPPP/BHNMEOSSOEANHB/WWWZRFTQFRZWWW/DJIVCGULKCVIJD w KQkq - 0 1",
    "djivcgulkcvijd/Awwzrftqfrzwww/b1n1eossoea1hb/pp1pppmpZppppp/10n3/2p11/14/3P10/14/7P6/PPP1PPP1P1EPPP/BHNMEOSSO2NHB/WWWZRFTQFR1WWW/DJIVCGULKCVIJD w KQkq - 1 8",
    "djivcgulkcvijd/www1r1tqfrzwww/1hnme1sso1anhb/p1poMpp1pp1pp1/1z12/8T5/3p9p/10P3/14/1P12/P1PePPPP1P1PPP/BHN1EOS1OEANHB/WWWZRF1QFRZWWW/DJIVCGU1KCVIJD w KQkq - 0 11",
    "4Mgulkcvijd/wwwzrftqfrzwww/ihnmeos1o2nhb/pp2ppp2pp1pp/3p7p2/14/7p6/5P6sP/14/6P7/PPPPP2PPaPPP1/BHN1EOSS1EANHB/WWWZRFT1KRZWWW/DJIVCGeLQCVIJD w k - 0 14",
    "djivcgulkcvi1w/www1r1tq1rz1ww/bhnme4eanh1/1pp2pppop1ppj/3pp2o6/3z6p3/14/14/s3P2P6/14/1PPP1PP1PPPPPP/BHNMEVS2E1NHB/WWWZRFTQSRZWWW/DJI1CGU1DKCIJ1 w q - 0 17",
    "djivcgulkcvi2/www1rftqfrzww1/1h1me1osoe1n2/2pppn2pppj2/3A7a2/6pp5d/2S8ppp/5L3P3N/14/14/1PPP1MPPP1PPPP/BHN1E1S1OE1IHB/WWWZR2QFRZWWW/1JIVC1UKDCV1JD w q - 3 20",
    "1jivcguldcvik1/dwwzrf1q2r1ww/2n1e1s1oe1nhb/7p2pjp1/6p7/3p10/2p11/9P4/8P5/7PZ5/PPP2PP3PPPP/BH1MO3OEANHB/WWWZR2QFR1WW1/DaIVCGU1KCVWJD w KQ - 0 23",
    "1jivc1u1dcv1jd/www1rftkfrzwww/1h2eo3e1ihb/1bp1p1pp1p1ppp/14/1p4o3p3/p13/8O5/6P2PU3/2P6n4/P1P1PPZZ2PP1P/BHN1ROS2EA1H1/WWWG1F1Q1N1WWW/DJIVCT1KC1VIJD w - - 0 26",
    "1jivcg2dck1j1/www1rf2q2www/bh1meos2i2hb/1pp2pp3Spp1/1z1p6p3/10n2p/14/14/11P2/4u2O6/3P1PP1PPP1PP/4E4OAN1B/W1WZRMTQ1RZ3/1NIWCGUKDCVWJD w - - 0 32",
    "1div2ulkcvijw/w6qfrz1ww/H4o1s1e1nTb/3p1tppp1p3/4g1e2p2p1/p10r2/1p9p2/11s2/8P1P3/4M2O1P2P1/P1J3PP5P/BH5SOE1N1B/WWWF3Q1RZIWW/D1IVCGULDCVKJ1 w - - 0 35",
    "2kvigu1d1vi1d/wwwzjf1q1fzwww/5os6b/4tp1pp1pjp1/6p3o3/3p10/5O8/14/3P5P4/4P1O5N1/JP4PPP1PP1P/B8E2H1/WWWZR4TZIWW/D1I1CGCK2V1JD w - - 2 38",
];

/// Depth of the Makromachy bench when none is given (its positions have several times chess's moves).
pub const MAKRO_DEFAULT_DEPTH: u32 = 9;

/// What a bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
    /// One line per position, then the summary line `<nodes> nodes <nps> nps` last.
    pub text: String,
}

/// Searches every bench position to `depth` (default [`DEFAULT_DEPTH`]), evaluated with the built-in
/// network, with one thread and a cleared 16 MB table and cleared histories per position, so the node count
/// depends on nothing but the code.
pub fn run(depth: Option<u32>) -> BenchResult {
    run_with_network(depth, crate::eval::nnue::default_network())
}

/// [`run`] evaluating with `net` (`None`: the hand-crafted evaluation) instead of the built-in network (the
/// UCI `bench` passes the engine's network, which `EvalFile` chose).
pub fn run_with_network(
    depth: Option<u32>,
    net: Option<std::sync::Arc<crate::eval::nnue::Network>>,
) -> BenchResult {
    let games = POSITIONS.iter().map(|entry| {
        let (fen, chess960) = match entry.strip_prefix("960:") {
            Some(f) => (f, true),
            None => (*entry, false),
        };
        Position::from_fen(fen, chess960)
            .map(|p| ChessGame::with_eval(p, NnueEval::new(net.clone())))
            .map_err(|e| e.to_string())
    });
    run_games(games, depth.unwrap_or(DEFAULT_DEPTH))
}

/// The Makromachy bench (`corvid bench --variant makromachy`), the same way.
pub fn run_makro(depth: Option<u32>) -> BenchResult {
    let games = MAKRO_POSITIONS.iter().map(|fen| {
        crate::makro::Position::from_fen(fen)
            .map(crate::variants::MakroGame::new)
            .map_err(|e| e.to_string())
    });
    run_games(games, depth.unwrap_or(MAKRO_DEFAULT_DEPTH))
}

/// The bench of game `kind`: [`run`] or [`run_makro`].
pub fn run_kind(kind: GameKind, depth: Option<u32>) -> BenchResult {
    run_kind_with_network(kind, depth, crate::eval::nnue::default_network())
}

/// [`run_kind`] with `net` for the games that evaluate with a network (chess).
pub fn run_kind_with_network(
    kind: GameKind,
    depth: Option<u32>,
    net: Option<std::sync::Arc<crate::eval::nnue::Network>>,
) -> BenchResult {
    match kind {
        GameKind::Chess => run_with_network(depth, net),
        GameKind::Makromachy => run_makro(depth),
    }
}

fn run_games<G: Game>(games: impl Iterator<Item = Result<G, String>>, depth: u32) -> BenchResult {
    let depth = depth.clamp(1, 64);
    let tt = TranspositionTable::new(16);
    let mut searcher = Searcher::<G>::new();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let opts = SearchOptions {
        threads: 1,
        multipv: 1,
        ..SearchOptions::default()
    };
    let mut text = String::new();
    let mut total = 0u64;
    // Only the searches are timed: clearing the table and histories (24 MB for Makromachy) is set-up, as
    // `ucinewgame` is for a GUI, and at Makromachy's short bench it was a few per cent of the time.
    let mut searching = std::time::Duration::ZERO;
    for (i, game) in games.enumerate() {
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                text.push_str(&format!("position {} skipped: {e}\n", i + 1));
                continue;
            }
        };
        tt.clear();
        searcher.clear();
        let control = Control::default();
        let nodes = std::sync::atomic::AtomicU64::new(0);
        let report = |e: crate::search::Event| {
            if let crate::search::Event::Info(info) = e {
                nodes.store(info.nodes, std::sync::atomic::Ordering::Relaxed);
            }
        };
        let start = Instant::now();
        let out = searcher.run(&game, &limits, &[], &opts, &tt, &control, &report);
        searching += start.elapsed();
        let n = nodes.load(std::sync::atomic::Ordering::Relaxed);
        total += n;
        text.push_str(&format!(
            "position {:2}: {:>10} nodes  bestmove {}\n",
            i + 1,
            n,
            out.best
                .map_or_else(|| "(none)".to_string(), |m| game.move_text(m))
        ));
    }
    let time_ms = searching.as_millis() as u64;
    let nps = (total as u128 * 1_000_000 / searching.as_micros().max(1)) as u64;
    text.push_str(&format!("{total} nodes {nps} nps\n"));
    BenchResult {
        nodes: total,
        nps,
        time_ms,
        text,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn node_count_is_deterministic() {
        let a = super::run(Some(4));
        let b = super::run(Some(4));
        assert!(a.nodes > 10_000);
        assert_eq!(a.nodes, b.nodes);
        let last = a.text.lines().last().expect("summary line");
        assert!(last.starts_with(&format!("{} nodes ", a.nodes)) && last.ends_with(" nps"));
    }

    #[test]
    fn makromachy_bench_is_deterministic_too() {
        let a = super::run_makro(Some(2));
        let b = super::run_makro(Some(2));
        assert!(a.nodes > 1_000);
        assert_eq!(a.nodes, b.nodes);
        assert!(!a.text.contains("skipped"), "{}", a.text);
    }
}
