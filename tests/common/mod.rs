//! Helpers shared by the integration tests: a deterministic generator and the child-process harness (one-shot
//! runs here, line-by-line sessions in [`child`]).
// Each test binary includes this module and uses only part of it.
#![allow(dead_code)]

pub mod child;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};

/// The crate's seeded generator (`corvid::rng`), so random games are the same on every run, with `pick`.
pub struct Rng(corvid::rng::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(corvid::rng::Rng::new(seed))
    }

    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    /// One of `items` (not empty).
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// The path of the `corvid` binary under test.
pub const CORVID: &str = env!("CARGO_BIN_EXE_corvid");

/// Runs `corvid ARGS` to its end with `input` on stdin (then end of input): its status, stdout and stderr.
/// `NO_COLOR` is removed, so what a test reads does not depend on the environment it runs in.
pub fn run_corvid(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(CORVID)
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start corvid");
    let mut stdin = child.stdin.take().expect("stdin");
    // A command that exits without reading its input closes the pipe: that is not a failure here.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("corvid ends")
}

/// Starts the `corvid` binary with `args`, its stdout read line by line on a thread (so every wait can have
/// a deadline) and its stderr discarded: the child, its stdin, and the lines.
pub fn spawn_corvid(args: &[&str]) -> (Child, ChildStdin, Receiver<String>) {
    let mut child = Command::new(CORVID)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start corvid");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdin = child.stdin.take().expect("stdin");
    (child, stdin, lines)
}
