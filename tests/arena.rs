//! `corvid match` against the real binary and against fake engines that misbehave in one way each.

mod common;

use common::{run_corvid, CORVID};
use std::process::Output;

fn run_match(args: &[&str]) -> (Option<i32>, String) {
    let Output { status, stdout, .. } = run_corvid(&[&["match"], args].concat(), "");
    (status.code(), String::from_utf8_lossy(&stdout).into_owned())
}

/// A fake UCI engine: a shell script that shakes hands and answers `go` with `on_go` (shell code). Run
/// through `sh`, so no freshly written file is executed directly (that races with other tests' forks).
fn fake_engine(name: &str, on_go: &str) -> String {
    let path = std::env::temp_dir().join(format!("corvid-arena-{}-{name}.sh", std::process::id()));
    let script = format!(
        "while read -r line; do\n  case \"$line\" in\n    uci) echo 'id name Fake'; echo uciok ;;\n    \
         isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).expect("write the fake engine");
    format!("sh {}", path.display())
}

/// The W/D/L numbers of the summary line `A: W 1  D 0  L 1   score ...`.
fn wdl(out: &str) -> (u32, u32, u32) {
    let line = out
        .lines()
        .find(|l| l.starts_with("A: W "))
        .unwrap_or_else(|| panic!("no summary in:\n{out}"));
    let n: Vec<u32> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2])
}

#[test]
fn two_makromachy_games_between_real_engines_add_up() {
    let (code, out) = run_match(&[
        "--engine-a",
        CORVID,
        "--engine-b",
        CORVID,
        "--variant",
        "makromachy",
        "--limit-a",
        "depth=1",
        "--limit-b",
        "depth=1",
        "--games",
        "2",
        "--openings-random",
        "4",
        "--seed",
        "3",
    ]);
    assert_eq!(code, Some(0), "{out}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 2, "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with('[')).count(),
        2,
        "{out}"
    );
    assert!(out.contains("[1/2]") && out.contains("[2/2]"), "{out}");
    assert!(out.contains("Forfeits: 0 "), "{out}");
    // Every game ends by a rule of the game or the ply cap, never by a forfeit.
    let endings = out
        .lines()
        .find(|l| l.starts_with("Endings: "))
        .expect("endings line");
    let counted: u32 = endings
        .split(['x', ',', ';'])
        .filter_map(|w| w.trim().parse::<u32>().ok())
        .sum();
    assert_eq!(counted, 2, "{out}");
}

#[test]
fn an_illegal_move_is_forfeited() {
    let fake = fake_engine("illegal", "echo 'bestmove a1a1'");
    let (code, out) = run_match(&[
        "--engine-a",
        &fake,
        "--engine-b",
        CORVID,
        "--variant",
        "makromachy",
        "--limit-a",
        "depth=1",
        "--limit-b",
        "depth=1",
        "--games",
        "2",
    ]);
    assert_eq!(code, Some(2), "{out}");
    assert_eq!(wdl(&out), (0, 0, 2), "{out}");
    assert!(out.contains("illegal=2 (A 2, B 0)"), "{out}");
    assert!(out.contains("forfeit: Fake illegal: 'a1a1'"), "{out}");
}

#[test]
fn a_crash_is_forfeited() {
    let fake = fake_engine("crash", "exit 3");
    let (code, out) = run_match(&[
        "--engine-a",
        CORVID,
        "--engine-b",
        &fake,
        "--variant",
        "makromachy",
        "--limit-a",
        "depth=1",
        "--limit-b",
        "depth=1",
        "--games",
        "2",
    ]);
    assert_eq!(code, Some(2), "{out}");
    assert_eq!(wdl(&out), (2, 0, 0), "{out}");
    assert!(out.contains("crash=2 (A 0, B 2)"), "{out}");
}

#[test]
fn a_silent_engine_hangs_and_a_slow_one_loses_on_time() {
    let silent = fake_engine("silent", "true");
    let (code, out) = run_match(&[
        "--engine-a",
        &silent,
        "--engine-b",
        CORVID,
        "--variant",
        "makromachy",
        "--tc",
        "0.2+0",
        "--grace",
        "200",
        "--games",
        "1",
    ]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("hang=1 (A 1, B 0)"), "{out}");
    // A legal first move for White, played too late.
    let slow = fake_engine("slow", "sleep 0.6; echo 'bestmove a4a5'");
    let (code, out) = run_match(&[
        "--engine-a",
        &slow,
        "--engine-b",
        CORVID,
        "--variant",
        "makromachy",
        "--tc",
        "0.3+0",
        "--games",
        "1",
    ]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("time=1 (A 1, B 0)"), "{out}");
    assert!(out.contains("0-1 (forfeit: Fake time: a4a5 took"), "{out}");
}

#[test]
fn orthodox_chess_games_are_refereed_too() {
    let (code, out) = run_match(&[
        "--engine-a",
        CORVID,
        "--engine-b",
        CORVID,
        "--limit-a",
        "depth=1",
        "--limit-b",
        "depth=1",
        "--games",
        "2",
        "--openings-random",
        "2",
        "--max-plies",
        "40",
    ]);
    assert_eq!(code, Some(0), "{out}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 2, "{out}");
}

#[test]
fn a_command_that_cannot_start_is_refused() {
    let (code, _) = run_match(&[
        "--engine-a",
        "/nonexistent/engine",
        "--engine-b",
        CORVID,
        "--tc",
        "1+0",
    ]);
    assert_eq!(code, Some(1));
}

#[test]
fn the_ply_cap_adjudicates_a_draw() {
    let (code, out) = run_match(&[
        "--engine-a",
        CORVID,
        "--engine-b",
        CORVID,
        "--variant",
        "makromachy",
        "--limit-a",
        "depth=1",
        "--limit-b",
        "depth=1",
        "--games",
        "2",
        "--openings-random",
        "4",
        "--max-plies",
        "5",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(wdl(&out), (0, 2, 0), "{out}");
    assert!(out.contains("ply cap x2"), "{out}");
    assert!(
        out.contains("1/2-1/2 (adjudicated draw: 5-ply cap) plies=5"),
        "{out}"
    );
}
