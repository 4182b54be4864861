//! Perft runs: counting the leaf nodes of the legal move tree, the ground truth for move generation. Each
//! board counts its own tree (`chess::perft`, `makro::perft`); this is the driver: threads, divide, progress.
//!
//! The last ply is bulk-counted (the number of legal moves, never generated one by one). Several threads share
//! the work as a queue of (root move, reply) pairs, which balances far better than one root move per thread.

use crate::game::Variant;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What a perft run reports.
pub struct PerftResult {
    /// Per root move (as text), in generation order.
    pub divide: Vec<(String, u64)>,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl PerftResult {
    pub fn nps(&self) -> u64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }
}

/// Perft with per-root-move counts over `threads` threads, with a progress line on stderr once the run has
/// taken longer than `progress_after` (None: never).
pub fn perft_divide<V: Variant>(
    pos: &V::Position,
    depth: u32,
    threads: usize,
    progress_after: Option<Duration>,
) -> PerftResult {
    let start = Instant::now();
    let roots = V::legal_moves(pos);
    if depth <= 1 {
        let divide: Vec<(String, u64)> = roots
            .iter()
            .map(|&m| (V::move_text(pos, m), u64::from(depth == 1)))
            .collect();
        let nodes = if depth == 0 { 1 } else { divide.len() as u64 };
        return PerftResult {
            divide,
            nodes,
            elapsed: start.elapsed(),
        };
    }

    // Work items: (root index, child position, remaining depth).
    let mut tasks: Vec<(usize, V::Position, u32)> = Vec::new();
    for (i, &m) in roots.iter().enumerate() {
        let child = after::<V>(pos, m);
        if depth >= 4 {
            for r in V::legal_moves(&child) {
                tasks.push((i, after::<V>(&child, r), depth - 2));
            }
        } else {
            tasks.push((i, child, depth - 1));
        }
    }
    let counts: Vec<AtomicU64> = roots.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let threads = threads.clamp(1, 512);
    let (stop_progress, stopped) = std::sync::mpsc::channel::<()>();

    std::thread::scope(|s| {
        if let Some(after) = progress_after {
            let (start, done, total) = (&start, &done, tasks.len());
            s.spawn(move || progress(start, after, done, total, stopped));
        }
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((root, p, d)) = tasks.get(i) else {
                        break;
                    };
                    counts[*root].fetch_add(V::perft(p, *d), Ordering::Relaxed);
                    done.fetch_add(1, Ordering::Relaxed);
                })
            })
            .collect();
        for w in workers {
            let _ = w.join();
        }
        // Dropping the sender wakes the progress thread at once.
        drop(stop_progress);
    });

    let divide: Vec<(String, u64)> = roots
        .iter()
        .zip(&counts)
        .map(|(&m, c)| (V::move_text(pos, m), c.load(Ordering::Relaxed)))
        .collect();
    PerftResult {
        nodes: divide.iter().map(|(_, n)| n).sum(),
        divide,
        elapsed: start.elapsed(),
    }
}

/// `pos` with `m` played.
fn after<V: Variant>(pos: &V::Position, m: V::Move) -> V::Position {
    let mut p = pos.clone();
    V::play(&mut p, m);
    p
}

/// Progress on stderr once the run has taken `after`: a bar on a terminal ([`super::progress`]), a line every
/// few seconds otherwise.
fn progress(
    start: &Instant,
    after: Duration,
    done: &AtomicUsize,
    total: usize,
    stopped: Receiver<()>,
) {
    let tty = std::io::stderr().is_terminal();
    let mut bar = None;
    let mut last_print = Instant::now();
    let mut printed = false;
    loop {
        if let Err(RecvTimeoutError::Disconnected) | Ok(()) =
            stopped.recv_timeout(Duration::from_millis(100))
        {
            break;
        }
        let elapsed = start.elapsed();
        if elapsed < after {
            continue;
        }
        let d = done.load(Ordering::Relaxed);
        if tty {
            bar.get_or_insert_with(|| {
                let bar = super::progress::bar("perft", Some(total as u64));
                bar.set_message("subtrees");
                bar
            })
            .set_position(d as u64);
            continue;
        }
        if last_print.elapsed() < Duration::from_millis(3000) && printed {
            continue;
        }
        let pct = 100.0 * d as f64 / total.max(1) as f64;
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "perft: {pct:5.1}% of the tree, {:.1} s",
            elapsed.as_secs_f64()
        );
        let _ = err.flush();
        last_print = Instant::now();
        printed = true;
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// The report printed by `corvid perft`/`divide` and `go perft`: per-move counts when `divide`, then time and
/// speed, and `Nodes searched: N` as the last line (the line scripts parse, as with Stockfish).
pub fn format_report(result: &PerftResult, divide: bool) -> String {
    let mut s = String::new();
    if divide {
        for (m, n) in &result.divide {
            s.push_str(&format!("{m}: {n}\n"));
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "Time: {} ms\nNodes/second: {}\nNodes searched: {}\n",
        result.elapsed.as_millis(),
        result.nps(),
        result.nodes
    ));
    s
}
