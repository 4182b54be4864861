//! What OpenBench runs: `corvid "genfens N seed S book None" quit` and `corvid bench`.

mod common;

use common::run_corvid;

fn corvid(args: &[&str]) -> String {
    let out = run_corvid(args, "");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf8")
}

#[test]
fn genfens_in_openbench_form_prints_seeded_legal_fens() {
    let a = corvid(&["genfens 6 seed 11 book None", "quit"]);
    let fens: Vec<&str> = a
        .lines()
        .map(|l| {
            l.strip_prefix("info string genfens ")
                .expect("genfens line")
        })
        .collect();
    assert_eq!(fens.len(), 6);
    for fen in &fens {
        corvid::chess::Position::from_fen(fen, false).expect("legal FEN");
    }
    assert_eq!(a, corvid(&["genfens", "6", "seed", "11", "book", "None"]));
    assert_ne!(a, corvid(&["genfens 6 seed 12 book None", "quit"]));
}

#[test]
fn a_bad_genfens_request_is_reported() {
    let out = run_corvid(&["genfens 6 seed x book None", "quit"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("info string error: genfens"));
}
