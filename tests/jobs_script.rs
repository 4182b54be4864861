//! `scripts/test_jobs.py`: the long-job runner's decisions (SPRT arithmetic, which jobs share the cores, the
//! order jobs are read in, a datagen generation tied to its net, a net pinned by its commit, an SPSA's values
//! written into the source). Skipped (with a note) without python3.

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
