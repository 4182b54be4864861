//! Replays, in the stable `cargo test`, every input kept under `fuzz/regressions/<target>/` through the
//! check that fuzz target runs (`fuzz/checks.rs`): the inputs that once crashed a target stay fixed, and the
//! seeds kept there show the checks pass on real input.

#[path = "../fuzz/checks.rs"]
mod checks;

use std::path::Path;

/// Runs `check` on every file of `fuzz/regressions/<target>/`; returns how many there were.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    for f in &files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{target}: {} fails again", f.display());
    }
    files.len()
}

#[test]
fn uci_command_inputs() {
    assert!(replay("uci_command", checks::uci_command) > 0);
}

#[test]
fn cecp_command_inputs() {
    assert!(replay("cecp_command", checks::cecp_command) > 0);
}

#[test]
fn cecp_session_inputs() {
    assert!(replay("cecp_session", checks::cecp_session) > 0);
}

#[test]
fn fen_inputs() {
    assert!(replay("fen", checks::fen) > 0);
}

#[test]
fn makro_inputs() {
    assert!(replay("makro", checks::makro) > 0);
}

#[test]
fn session_inputs() {
    assert!(replay("session", checks::session) > 0);
}
