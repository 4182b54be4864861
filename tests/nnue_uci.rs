//! `EvalFile` against the real binary, in UCI and CECP: a valid network becomes the one `eval`, `go` and
//! `bench` use; a missing or malformed file gets one error line and the previous network stays; `<hce>` and
//! `<default>` choose the hand-crafted evaluation and the build's default; `isready` keeps answering.

use corvid::chess::Position;
use corvid::eval::nnue::{default_network, Network, HIDDEN, INPUTS};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod common;
use common::Rng;

const SOON: Duration = Duration::from_secs(10);
const FEN: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";

/// The binary with its output read on a thread, so that every wait has a deadline.
struct Corvid {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    log: Vec<String>,
}

impl Corvid {
    fn start() -> Corvid {
        let (child, stdin, lines) = common::spawn_corvid(&[]);
        Corvid {
            child,
            stdin,
            lines,
            log: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first for which `done` holds.
    fn until(&mut self, what: &str, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.log.push(l.clone());
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                Err(_) => panic!("no {what} within {timeout:?}:\n{}", self.log.join("\n")),
            }
        }
    }

    /// `isready`: the lines before `readyok`.
    fn isready(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok", SOON, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sets `EvalFile`; returns the `info string` lines it caused (search output is left out).
    fn setoption(&mut self, value: &str) -> Vec<String> {
        self.send(&format!("setoption name EvalFile value {value}"));
        let mut lines = self.isready();
        lines.retain(|l| l.starts_with("info string"));
        lines
    }

    /// `eval`'s network lines: (White's view, side to move) in cp, or None when it reports no network.
    fn nnue_eval(&mut self) -> Option<(i32, i32)> {
        self.send("eval");
        let lines = self.isready();
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

    fn bench_nodes(&mut self, depth: u32) -> u64 {
        self.send(&format!("bench {depth}"));
        let lines = self.until("bench summary", Duration::from_secs(120), |l| {
            l.ends_with(" nps")
        });
        lines
            .last()
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .expect("node count")
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + SOON;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("corvid did not quit:\n{}", self.log.join("\n"));
    }
}

/// A deterministic random network file of hidden size `hidden` (small weights, moderate evaluations), and
/// the network when the engine computes with that size.
fn test_network(seed: u64, hidden: usize) -> (Option<Network>, Vec<u8>) {
    let mut rng = Rng(seed);
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
    assert!(
        reply
            .iter()
            .any(|l| l == "option name EvalFile type string default <default>"),
        "{reply:?}"
    );
    e.send(&format!("position fen {FEN}"));
    // The build's default first: without an embedded network, the hand-crafted evaluation.
    let default = default_network().map(|n| n.evaluate(&pos));
    assert_eq!(e.nnue_eval().map(|v| v.1), default);

    assert_eq!(e.setoption(&good), Vec::<String>::new());
    // Black to move: the side to move's view is the network's output, White's view its negation.
    assert_eq!(e.nnue_eval(), Some((-want, want)));

    for (path, word) in bad_files(&files, &bytes) {
        let lines = e.setoption(&path);
        assert_eq!(lines.len(), 1, "{path}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: ") && lines[0].contains(word),
            "{path}: expected '{word}' in {lines:?}"
        );
        assert_eq!(
            e.nnue_eval(),
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
    let with_net = e.bench_nodes(3);
    let lib = corvid::tools::bench::run_with_network(Some(3), Some(Arc::new(net.clone())));
    assert_eq!(with_net, lib.nodes);

    // <hce>: the hand-crafted evaluation, whatever the build embeds.
    assert_eq!(e.setoption("<hce>"), Vec::<String>::new());
    assert_eq!(e.nnue_eval(), None);
    let hce = e.bench_nodes(3);
    assert_eq!(
        hce,
        corvid::tools::bench::run_with_network(Some(3), None).nodes
    );
    assert_ne!(hce, with_net);

    // Back to the build's default, by name and by an empty value.
    assert_eq!(e.setoption(&good), Vec::<String>::new());
    assert_eq!(e.setoption("<default>"), Vec::<String>::new());
    assert_eq!(e.nnue_eval().map(|v| v.1), default);
    assert_eq!(e.setoption(&good), Vec::<String>::new());
    assert_eq!(e.setoption(""), Vec::<String>::new());
    assert_eq!(e.nnue_eval().map(|v| v.1), default);
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
    assert_eq!(e.setoption(&good), Vec::<String>::new());
    assert!(
        e.setoption(Path::new(&files.dir).join("nope").to_str().expect("utf-8"))
            .len()
            == 1
    );
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    e.send("stop");
    e.until("bestmove", SOON, |l| l.starts_with("bestmove"));
    let mut pos = Position::startpos();
    let m = pos.parse_uci_move("e2e4").expect("legal");
    pos.make_move(m);
    assert_eq!(e.nnue_eval().map(|v| v.1), Some(net.evaluate(&pos)));
    e.quit();
}

#[test]
fn cecp_option_evalfile() {
    let files = Files::new("cecp");
    let (_, bytes) = test_network(4, HIDDEN);
    let good = files.write("good.nnue", &bytes);
    let mut e = Corvid::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1", SOON, |l| l == "feature done=1");
    assert!(
        features
            .iter()
            .any(|l| l == "feature option=\"EvalFile -file <default>\""),
        "{features:?}"
    );
    let sync = |e: &mut Corvid, n: u32| {
        e.send(&format!("ping {n}"));
        let mut lines = e.until("pong", SOON, |l| l == format!("pong {n}"));
        lines.pop();
        lines
    };
    e.send(&format!("option EvalFile={good}"));
    assert_eq!(sync(&mut e, 1), Vec::<String>::new());
    let (bad, _) = bad_files(&files, &bytes).swap_remove(1);
    e.send(&format!("option EvalFile={bad}"));
    let lines = sync(&mut e, 2);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("Error") && lines[0].contains("magic"),
        "{lines:?}"
    );
    e.send("option EvalFile=<hce>");
    assert_eq!(sync(&mut e, 3), Vec::<String>::new());
    e.send("quit");
    let _ = e.child.wait();
}
