//! `corvid bench`: a fixed set of positions searched to a fixed depth with one thread. The node count is
//! deterministic and serves as the build's signature (OpenBench reads the last line, `<nodes> nodes <nps> nps`).

use crate::eval::nnue::Network;
use crate::for_game;
use crate::game::Game;
use crate::search::{Control, Limits, SearchOptions, Searcher, TranspositionTable};
use crate::variants::{GameKind, Registered};
use std::sync::Arc;
use std::time::Instant;

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

/// Searches every bench position of the default game to its bench depth (or `depth`), evaluated with the
/// built-in network, with one thread and a cleared 16 MB table and cleared histories per position, so the
/// node count depends on nothing but the code.
pub fn run(depth: Option<u32>) -> BenchResult {
    run_kind(GameKind::DEFAULT, depth)
}

/// [`run`] evaluating with `net` (`None`: the hand-crafted evaluation) instead of the built-in network (the
/// UCI `bench` passes the engine's network, which `EvalFile` chose).
pub fn run_with_network(depth: Option<u32>, net: Option<Arc<Network>>) -> BenchResult {
    run_kind_with_network(GameKind::DEFAULT, depth, net)
}

/// The bench of game `kind`: its own positions ([`Variant::BENCH_POSITIONS`]) to its own depth.
pub fn run_kind(kind: GameKind, depth: Option<u32>) -> BenchResult {
    run_kind_with_network(kind, depth, crate::eval::nnue::default_network())
}

/// [`run_kind`] with `net` for the games that evaluate with a network.
pub fn run_kind_with_network(
    kind: GameKind,
    depth: Option<u32>,
    net: Option<Arc<Network>>,
) -> BenchResult {
    for_game!(kind, V => run_variant::<V>(depth, net.as_ref()))
}

fn run_variant<V: Registered>(depth: Option<u32>, net: Option<&Arc<Network>>) -> BenchResult {
    let eval = V::eval_setting(net);
    let games = V::BENCH_POSITIONS.iter().map(|entry| {
        // `960:` asks for the Chess960 castling notation, which FEN alone cannot always tell.
        let (fen, chess960) = match entry.strip_prefix("960:") {
            Some(f) => (f, true),
            None => (*entry, false),
        };
        V::from_fen(fen, chess960)
            .map(|p| V::search_state(&p, &[], &eval))
            .map_err(|e| e.to_string())
    });
    run_games(games, depth.unwrap_or(V::BENCH_DEPTH))
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
        let makro = crate::game::GameKind::Makromachy;
        let a = super::run_kind(makro, Some(2));
        let b = super::run_kind(makro, Some(2));
        assert!(a.nodes > 1_000);
        assert_eq!(a.nodes, b.nodes);
        assert!(!a.text.contains("skipped"), "{}", a.text);
    }
}
