//! Perft against the reference suites in tests/data (copied from the shared perft EPD files): every position,
//! every listed depth whose expected count is within the node budget, must match exactly.

use corvid::chess::perft;
use corvid::chess::Position;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Largest expected leaf count run per (position, depth). Keeps the whole suite to a minute or two on 2 cores
/// in release mode while still reaching depth 5-6 for most positions.
const NODE_BUDGET: u64 = 200_000_000;

struct Case {
    fen: String,
    depth: u32,
    expected: u64,
}

fn load(file: &str) -> (Vec<Case>, usize) {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut cases = Vec::new();
    let mut lines = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        lines += 1;
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        for field in parts {
            let field = field.trim();
            let (d, n) = field
                .split_once(' ')
                .unwrap_or_else(|| panic!("bad field '{field}' in {file}"));
            let depth: u32 = d.trim_start_matches('D').parse().expect("depth");
            let expected: u64 = n.trim().parse().expect("count");
            if expected <= NODE_BUDGET {
                cases.push(Case {
                    fen: fen.clone(),
                    depth,
                    expected,
                });
            }
        }
    }
    (cases, lines)
}

fn run_suite(file: &str, min_positions: usize) {
    let (cases, lines) = load(file);
    assert_eq!(
        lines, min_positions,
        "{file}: unexpected number of positions"
    );
    let depth1 = cases.iter().filter(|c| c.depth == 1).count();
    assert_eq!(
        depth1, lines,
        "{file}: every position must at least be checked at depth 1"
    );
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = cases.get(i) else { break };
                let pos = match Position::from_fen(&c.fen, false) {
                    Ok(p) => p,
                    Err(e) => {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: FEN rejected: {e}", c.fen));
                        continue;
                    }
                };
                let got = perft(&pos, c.depth);
                if got != c.expected {
                    failures.lock().unwrap().push(format!(
                        "{} depth {}: expected {}, got {got}",
                        c.fen, c.depth, c.expected
                    ));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} perft mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn standard_suite() {
    run_suite("standard.epd", 131);
}

#[test]
fn chess960_suite() {
    run_suite("chess960.epd", 960);
}
