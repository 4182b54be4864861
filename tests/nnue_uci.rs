//! `EvalFile` against the real binary, in UCI and CECP: a valid network becomes the one `eval`, `go` and
//! `bench` use; a missing or malformed file gets one error line and the previous network stays; `<hce>` and
//! the default value (the embedded net's file name, or the older `<default>`) choose the hand-crafted evaluation
//! and the build's default; `isready` keeps answering.

use corvid::chess::Position;
use corvid::eval::nnue::{default_network, Network, HIDDEN, INPUTS};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod common;
use common::child::{Corvid, SOON};
use common::Rng;

const FEN: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";

/// Sets `EvalFile`; returns the `info string` lines it caused (search output is left out).
fn set_evalfile(e: &mut Corvid, value: &str) -> Vec<String> {
    e.send(&format!("setoption name EvalFile value {value}"));
    let mut lines = e.isready();
    lines.retain(|l| l.starts_with("info string"));
    lines
}

/// `eval`'s network lines: (White's view, side to move) in cp, or None when it reports no network.
fn nnue_eval(e: &mut Corvid) -> Option<(i32, i32)> {
    e.send("eval");
    let lines = e.isready();
    let value = |prefix: &str| {
        lines
            .iter()
            .find_map(|l| l.strip_prefix(prefix))
            .map(|v| v.trim().trim_end_matches("cp").trim().parse().expect("cp"))
    };
    let white = value("NNUE evaluation (White's view):");
    let stm = value("NNUE evaluation (side to move):");
    assert!(
        lines.iter().any(|l| l.starts_with("NNUE")),
        "eval has no network line: {lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("evaluation (side to move):")),
        "the hand-crafted breakdown is still shown: {lines:?}"
    );
    white.zip(stm)
}

/// `bench depth`'s node count.
fn bench_nodes(e: &mut Corvid, depth: u32) -> u64 {
    e.send(&format!("bench {depth}"));
    let lines = e.until("bench summary", Duration::from_secs(120), |l| {
        l.ends_with(" nps")
    });
    lines
        .last()
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("node count")
}

/// A deterministic random network file of hidden size `hidden` (small weights, moderate evaluations), and
/// the network when the engine computes with that size.
fn test_network(seed: u64, hidden: usize) -> (Option<Network>, Vec<u8>) {
    let mut rng = Rng::new(seed);
    let mut r = |lo: i32, hi: i32| (lo + rng.below((hi - lo + 1) as usize) as i32) as i16;
    let ft: Vec<i16> = (0..INPUTS * hidden).map(|_| r(-30, 30)).collect();
    let bias: Vec<i16> = (0..hidden).map(|_| r(0, 160)).collect();
    let out: Vec<i16> = (0..2 * hidden).map(|_| r(-20, 20)).collect();
    let mut b = b"CRVDNNUE".to_vec();
    for w in [1u32, hidden as u32, 255, 64, 400, 0] {
        b.extend(w.to_le_bytes());
    }
    for v in ft.iter().chain(&bias).chain(&out) {
        b.extend(v.to_le_bytes());
    }
    b.extend(1234i32.to_le_bytes());
    let sum = fnv(&b);
    b.extend(sum.to_le_bytes());
    let net = (hidden == HIDDEN).then(|| Network::from_bytes(&b).expect("valid test net"));
    (net, b)
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

struct Files {
    dir: PathBuf,
}

impl Files {
    fn new(tag: &str) -> Files {
        let dir =
            std::env::temp_dir().join(format!("corvid-evalfile-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        Files { dir }
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.dir.join(name);
        std::fs::write(&p, bytes).expect("write");
        p.to_string_lossy().into_owned()
    }
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Malformed files, each with a word its error message must contain.
fn bad_files(files: &Files, good: &[u8]) -> Vec<(String, &'static str)> {
    let reseal = |mut b: Vec<u8>| {
        let n = b.len() - 8;
        let sum = fnv(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let patched = |at: usize, v: u32| {
        let mut b = good.to_vec();
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        reseal(b)
    };
    let mut magic = good.to_vec();
    magic[..8].copy_from_slice(b"NOTANNUE");
    let mut damaged = good.to_vec();
    damaged[5000] ^= 0x40;
    let (_, other_h) = test_network(3, 128);
    let missing = files
        .dir
        .join("missing.nnue")
        .to_string_lossy()
        .into_owned();
    vec![
        (missing, "cannot read"),
        (files.write("magic.nnue", &magic), "magic"),
        (files.write("version.nnue", &patched(8, 2)), "version"),
        (files.write("qa.nnue", &patched(16, 256)), "QA"),
        (files.write("scale.nnue", &patched(24, 410)), "SCALE"),
        (
            files.write("short.nnue", &reseal(good[..good.len() - 2].to_vec())),
            "bytes",
        ),
        (files.write("tiny.nnue", &good[..10]), "header"),
        (files.write("damaged.nnue", &damaged), "checksum"),
        (files.write("h128.nnue", &other_h), "hidden size 128"),
    ]
}

#[test]
fn evalfile_loads_a_network_and_refuses_bad_files_keeping_the_previous_one() {
    let files = Files::new("uci");
    let (net, bytes) = test_network(1, HIDDEN);
    let net = net.expect("engine-sized");
    let good = files.write("good.nnue", &bytes);
    let pos = Position::from_fen(FEN, false).expect("FEN");
    let want = net.evaluate(&pos);

    let mut e = Corvid::start();
    e.send("uci");
    let reply = e.until("uciok", SOON, |l| l == "uciok");
    let line = format!(
        "option name EvalFile type string default {}",
        corvid::eval::nnue::EVAL_FILE_DEFAULT
    );
    assert!(reply.contains(&line), "{reply:?}");
    // The default is one word and no UCI keyword, so a reader that splits at keywords (python-chess) reads it
    // back whole and a GUI that resets options to their defaults sends it unchanged.
    let default_word = line.rsplit("default ").next().expect("value");
    assert!(!default_word.is_empty() && !default_word.contains(char::is_whitespace));
    for keyword in ["name", "type", "default", "min", "max", "var", "value"] {
        assert_ne!(default_word, keyword);
    }
    e.send(&format!("position fen {FEN}"));
    // The build's default first: without an embedded network, the hand-crafted evaluation.
    let default = default_network().map(|n| n.evaluate(&pos));
    assert_eq!(nnue_eval(&mut e).map(|v| v.1), default);

    assert_eq!(set_evalfile(&mut e, &good), Vec::<String>::new());
    // Black to move: the side to move's view is the network's output, White's view its negation.
    assert_eq!(nnue_eval(&mut e), Some((-want, want)));

    for (path, word) in bad_files(&files, &bytes) {
        let lines = set_evalfile(&mut e, &path);
        assert_eq!(lines.len(), 1, "{path}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: ") && lines[0].contains(word),
            "{path}: expected '{word}' in {lines:?}"
        );
        assert_eq!(
            nnue_eval(&mut e),
            Some((-want, want)),
            "{path}: previous net kept"
        );
    }

    // The net is used by the search and by bench (its node count equals the library's with that net).
    e.send("go depth 5");
    let lines = e.until("bestmove", Duration::from_secs(60), |l| {
        l.starts_with("bestmove")
    });
    let best = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .expect("move");
    assert!(pos.parse_uci_move(best).is_ok(), "{best}");
    let with_net = bench_nodes(&mut e, 3);
    let lib = corvid::tools::bench::run_with_network(Some(3), Some(Arc::new(net.clone())));
    assert_eq!(with_net, lib.nodes);

    // <hce>: the hand-crafted evaluation, whatever the build embeds.
    assert_eq!(set_evalfile(&mut e, "<hce>"), Vec::<String>::new());
    assert_eq!(nnue_eval(&mut e), None);
    let hce = bench_nodes(&mut e, 3);
    assert_eq!(
        hce,
        corvid::tools::bench::run_with_network(Some(3), None).nodes
    );
    assert_ne!(hce, with_net);

    // Back to the build's default: by its advertised default value, by the older `<default>` and by an
    // empty value.
    assert_eq!(set_evalfile(&mut e, &good), Vec::<String>::new());
    assert_eq!(
        set_evalfile(&mut e, corvid::eval::nnue::EVAL_FILE_DEFAULT),
        Vec::<String>::new()
    );
    assert_eq!(nnue_eval(&mut e).map(|v| v.1), default);
    assert_eq!(set_evalfile(&mut e, &good), Vec::<String>::new());
    assert_eq!(set_evalfile(&mut e, "<default>"), Vec::<String>::new());
    assert_eq!(nnue_eval(&mut e).map(|v| v.1), default);
    assert_eq!(set_evalfile(&mut e, &good), Vec::<String>::new());
    assert_eq!(set_evalfile(&mut e, ""), Vec::<String>::new());
    assert_eq!(nnue_eval(&mut e).map(|v| v.1), default);
    e.quit();
}

#[test]
fn limited_strength_below_the_network_levels_plays_with_the_hand_crafted_evaluation() {
    // The UCI_Elo levels below NETWORK_FROM were calibrated with the hand-crafted evaluation, so they use it
    // whatever net is in use; from there up, and with the limit off, `EvalFile`'s network is back.
    let files = Files::new("elo");
    let (net, bytes) = test_network(3, HIDDEN);
    let net = net.expect("engine-sized");
    let good = files.write("good.nnue", &bytes);
    let pos = Position::from_fen(FEN, false).expect("FEN");
    let want = Some((-net.evaluate(&pos), net.evaluate(&pos)));
    let from = corvid::search::strength::NETWORK_FROM;
    let full = corvid::search::strength::FULL_STRENGTH;

    let mut e = Corvid::start();
    e.send(&format!("position fen {FEN}"));
    assert_eq!(set_evalfile(&mut e, &good), Vec::<String>::new());
    assert_eq!(nnue_eval(&mut e), want);
    e.send("setoption name UCI_Elo value 1500");
    assert_eq!(nnue_eval(&mut e), want, "UCI_Elo alone limits nothing");
    e.send("setoption name UCI_LimitStrength value true");
    assert_eq!(nnue_eval(&mut e), None, "1500 plays with the HCE");
    // A new EvalFile under the limit is kept for later, not used now.
    assert_eq!(set_evalfile(&mut e, &good), Vec::<String>::new());
    assert_eq!(nnue_eval(&mut e), None);
    e.send(&format!("setoption name UCI_Elo value {from}"));
    assert_eq!(nnue_eval(&mut e), want, "the network's levels have it");
    e.send(&format!("setoption name UCI_Elo value {full}"));
    assert_eq!(nnue_eval(&mut e), want, "the full engine has its network");
    e.send(&format!("setoption name UCI_Elo value {}", from - 1));
    assert_eq!(nnue_eval(&mut e), None);
    e.send("setoption name UCI_LimitStrength value false");
    assert_eq!(nnue_eval(&mut e), want, "no limit: the network again");
    e.quit();
}

#[test]
fn evalfile_during_a_search_applies_to_the_next_one() {
    let files = Files::new("busy");
    let (net, bytes) = test_network(2, HIDDEN);
    let net = net.expect("engine-sized");
    let good = files.write("good.nnue", &bytes);
    let mut e = Corvid::start();
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    // isready answers at once while the search runs, and the load is not refused.
    assert_eq!(set_evalfile(&mut e, &good), Vec::<String>::new());
    assert!(
        set_evalfile(
            &mut e,
            Path::new(&files.dir).join("nope").to_str().expect("utf-8")
        )
        .len()
            == 1
    );
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    e.send("stop");
    e.until("bestmove", SOON, |l| l.starts_with("bestmove"));
    let mut pos = Position::startpos();
    let m = pos.parse_uci_move("e2e4").expect("legal");
    pos.make_move(m);
    assert_eq!(nnue_eval(&mut e).map(|v| v.1), Some(net.evaluate(&pos)));
    e.quit();
}

#[test]
fn cecp_option_evalfile() {
    let files = Files::new("cecp");
    let (_, bytes) = test_network(4, HIDDEN);
    let good = files.write("good.nnue", &bytes);
    let (mut e, features) = Corvid::start_cecp();
    assert!(
        features.iter().any(|l| *l
            == format!(
                "feature option=\"EvalFile -file {}\"",
                corvid::eval::nnue::EVAL_FILE_DEFAULT
            )),
        "{features:?}"
    );
    e.send(&format!("option EvalFile={good}"));
    assert_eq!(e.ping(), Vec::<String>::new());
    let (bad, _) = bad_files(&files, &bytes).swap_remove(1);
    e.send(&format!("option EvalFile={bad}"));
    let lines = e.ping();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("Error") && lines[0].contains("magic"),
        "{lines:?}"
    );
    e.send("option EvalFile=<hce>");
    assert_eq!(e.ping(), Vec::<String>::new());
    e.quit();
}
