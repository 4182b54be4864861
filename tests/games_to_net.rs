//! The path from games to a net, end to end, with the real binaries and the format datagen writes: `corvid
//! datagen` plays a handful of games at a few hundred nodes a move into a games file, `train_nnue train`
//! trains one epoch on it (the engine's hidden size, so the engine can load it), and the engine loads the
//! net through `EvalFile`, evaluates a position exactly as the trainer's reference evaluator does, and
//! searches with it.

mod common;
use common::child::{Corvid, LONG};
use common::run_corvid;
use std::path::{Path, PathBuf};
use std::process::Command;

const TRAINER: &str = env!("CARGO_BIN_EXE_train_nnue");

/// A temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// The number after `prefix` and before the next space in the first line of `out` that has it.
fn number_after(out: &str, prefix: &str) -> i64 {
    out.lines()
        .find_map(|l| l.split_once(prefix))
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no '{prefix}' in:\n{out}"))
}

#[test]
fn datagen_games_train_a_net_that_the_engine_loads() {
    let dir =
        TempDir(std::env::temp_dir().join(format!("corvid-games-to-net-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).expect("temp dir");
    let games = dir.0.join("games.vf");

    // datagen: 4 games, hand-crafted evaluation (the default), 300 nodes a move.
    let gen = run_corvid(
        &[
            "datagen",
            "--out",
            text(&games),
            "--games",
            "4",
            "--nodes",
            "300",
            "--seed",
            "11",
            "--threads",
            "1",
        ],
        "",
    );
    assert!(
        gen.status.success(),
        "datagen failed: {}",
        String::from_utf8_lossy(&gen.stderr)
    );
    let progress = std::fs::read_to_string(dir.0.join("games.vf.progress")).expect("progress file");
    assert!(progress.contains("games 4\n"), "{progress}");
    let positions = number_after(&progress, "positions ");
    assert!(positions > 0, "{progress}");

    // train: one epoch, every position trained on.
    let run = dir.0.join("run");
    let trained = Command::new(TRAINER)
        .args([
            "train",
            text(&games),
            "--epochs",
            "1",
            "--hidden",
            "256",
            "--val-fraction",
            "0",
        ])
        .args([
            "--batch",
            "256",
            "--threads",
            "1",
            "--progress-secs",
            "0",
            "--out-dir",
            text(&run),
        ])
        .output()
        .expect("run train_nnue");
    let stdout = String::from_utf8_lossy(&trained.stdout).into_owned();
    assert!(
        trained.status.success(),
        "train_nnue failed: {stdout}{}",
        String::from_utf8_lossy(&trained.stderr)
    );
    // The trainer reads exactly the positions datagen counted as trainable.
    assert_eq!(
        number_after(&stdout, "training data: "),
        positions,
        "{stdout}"
    );
    let net = run.join("final.nnue");
    assert!(net.is_file(), "no final.nnue: {stdout}");

    // The trainer's reference evaluation of a position, side to move's view.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3";
    let reference = Command::new(TRAINER)
        .args(["eval", "--net", text(&net), "--fen", fen])
        .output()
        .expect("run train_nnue eval");
    assert!(reference.status.success());
    let reference = number_after(&String::from_utf8_lossy(&reference.stdout), "eval ");

    // The engine loads the file and evaluates and searches with it.
    let mut e = Corvid::start();
    e.send("uci");
    e.until("uciok", LONG, |l| l == "uciok");
    e.send(&format!("setoption name EvalFile value {}", text(&net)));
    let answer = e.isready();
    assert!(
        !answer.iter().any(|l| l.contains("error")),
        "EvalFile refused the trained net: {answer:?}"
    );
    e.send(&format!("position fen {fen}"));
    e.send("eval");
    let lines = e.isready().join("\n");
    assert_eq!(
        number_after(&lines, "NNUE evaluation (side to move): "),
        reference,
        "{lines}"
    );
    e.send("go depth 2");
    let search = e.bestmove(LONG);
    let best = search.last().expect("bestmove line");
    assert!(
        best.starts_with("bestmove ") && !best.contains("(none)"),
        "{search:?}"
    );
    e.quit();
}
