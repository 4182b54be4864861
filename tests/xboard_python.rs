//! A short run of `scripts/xboard_selfplay.py`: python-chess's `XBoardProtocol` drives Corvid in CECP mode
//! against Corvid in UCI mode, with the script as Dineri's arbiter (claims, draw offers, resignations).
//! Skipped (with a note) when python3 or python-chess is not installed; the full 20-game run is the script.

use std::process::Command;

#[test]
fn python_chess_plays_corvid_over_cecp() {
    let have_python_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_python_chess {
        eprintln!("skipped: python3 with python-chess (pip install chess) is not available");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/xboard_selfplay.py");
    let out = Command::new("python3")
        .args([
            script,
            "--engine",
            env!("CARGO_BIN_EXE_corvid"),
            "--games",
            "2",
            "--time",
            "0.01",
            "--max-plies",
            "120",
            "--offer-after",
            "2",
            "--xb-option",
            "OfferDrawAfter=2",
        ])
        .output()
        .expect("run the script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("no errors"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{stdout}"
    );
}
