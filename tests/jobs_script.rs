//! `scripts/test_jobs.py`: the long-job runner's decisions (SPRT arithmetic, which jobs share the cores, the
//! order jobs are read in, a datagen generation tied to its net, a net pinned by its commit, an SPSA's values
//! written into the source). Skipped (with a note) without python3. And `scripts/acceptance_jobs.sh`'s
//! `UCI_Elo` levels, which must stay within what Stockfish 15.1 honours.

use std::process::Command;

#[test]
fn the_job_runner_passes_its_unit_tests() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: python3 is not available");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/test_jobs.py");
    let out = Command::new("python3")
        .arg(script)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run the script");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Stockfish 15.1 keeps its default `UCI_Elo` (1350) when asked for more than 2850, so a level above that
/// would measure Corvid against a 1350 player: the script refuses it before it queues anything.
#[test]
fn acceptance_levels_stay_within_stockfishs_range() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/acceptance_jobs.sh");
    let run = |args: &[&str]| {
        Command::new("bash")
            .arg(script)
            .args(["HEAD", "--dry-run"])
            .args(args)
            .output()
            .expect("run the script")
    };

    let refused = run(&["--levels", "2500 2900"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(refused.stdout.is_empty(), "queued before refusing");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("2900"));

    let default = run(&[]);
    assert!(
        default.status.success(),
        "{}",
        String::from_utf8_lossy(&default.stderr)
    );
    let levels: Vec<u32> = String::from_utf8_lossy(&default.stdout)
        .lines()
        .filter(|l| l.contains("--old-option UCI_Elo="))
        .filter_map(|l| l.rsplit("UCI_Elo=").next()?.trim().parse().ok())
        .collect();
    assert!(
        levels.contains(&2500),
        "the 2500 level is re-measured: {levels:?}"
    );
    assert!(levels.iter().all(|&x| x <= 2850), "{levels:?}");
}
