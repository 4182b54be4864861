//! The real `corvid` binary as a child process, driven line by line, with a log of the session and a deadline
//! on every wait: the harness of every test that talks to the engine over UCI or CECP. Built on
//! [`super::spawn_corvid`].

use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// Generous bound for what should take milliseconds (the test machines are shared and slow).
pub const SOON: Duration = Duration::from_secs(10);

/// Bound for a wait that includes a short search (a CECP move, a `pong` queued behind one).
pub const LONG: Duration = Duration::from_secs(20);

/// A running engine.
pub struct Corvid {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The last lines read and sent, for failure messages.
    log: Vec<String>,
    /// CECP `ping` numbers used so far.
    pings: u32,
}

impl Corvid {
    /// Starts the binary (no handshake).
    pub fn start() -> Corvid {
        let (child, stdin, lines) = super::spawn_corvid(&[]);
        Corvid {
            stdin: Some(stdin),
            child,
            lines,
            log: Vec::new(),
            pings: 0,
        }
    }

    /// Starts the binary in CECP: `xboard` and `protover 2`; returns it and the lines up to and including
    /// `feature done=1`.
    pub fn start_cecp() -> (Corvid, Vec<String>) {
        let mut e = Corvid::start();
        e.send("xboard");
        e.send("protover 2");
        let features = e.until("feature done=1", SOON, |l| l == "feature done=1");
        (e, features)
    }

    fn remember(&mut self, line: String) {
        // Only the tail matters in a failure message; a long session would otherwise hold megabytes.
        if self.log.len() > 400 {
            self.log.drain(..200);
        }
        self.log.push(line);
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.remember(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to corvid");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's input (end of file), as a GUI that dies does.
    pub fn close_input(&mut self) {
        self.remember("> (end of input)".to_string());
        self.stdin = None;
    }

    /// The next line, or None after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        let line = self.lines.recv_timeout(timeout).ok()?;
        self.remember(line.clone());
        Some(line)
    }

    /// Lines up to and including the first for which `done` holds; panics after `timeout`.
    pub fn until(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                None => self.fail(&format!("no {what} within {timeout:?}")),
            }
        }
    }

    /// UCI: the lines up to and including the next `bestmove`.
    pub fn bestmove(&mut self, timeout: Duration) -> Vec<String> {
        self.until("bestmove", timeout, |l| l.starts_with("bestmove"))
    }

    /// UCI: sends `isready`; the lines before its `readyok`.
    pub fn isready(&mut self) -> Vec<String> {
        self.isready_timed().0
    }

    /// UCI: sends `isready`; the lines before its `readyok`, and how long the answer took.
    pub fn isready_timed(&mut self) -> (Vec<String>, Duration) {
        let t = Instant::now();
        self.send("isready");
        let mut lines = self.until("readyok", SOON, |l| l == "readyok");
        lines.pop();
        (lines, t.elapsed())
    }

    /// UCI: sends a bad line, checks that it gets exactly one `info string` and leaves the engine answering,
    /// and returns that line.
    pub fn expect_complaint(&mut self, line: &str) -> String {
        self.send(line);
        let before = self.isready();
        let complaints: Vec<&String> = before
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        if complaints.len() != 1 {
            self.fail(&format!(
                "'{line}' should give one info string, got {before:?}"
            ));
        }
        complaints[0].clone()
    }

    /// CECP: everything the engine says until it has processed all commands sent so far (`ping`/`pong`).
    pub fn ping(&mut self) -> Vec<String> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings));
        let mut lines = self.until(&pong, LONG, |l| l == pong);
        lines.pop();
        lines
    }

    /// CECP: the lines up to Corvid's move (or its resignation, draw acceptance or a result).
    pub fn until_move(&mut self) -> Vec<String> {
        self.until("a move", LONG, |l| {
            l.starts_with("move ")
                || l == "resign"
                || l.starts_with("1-0")
                || l.starts_with("0-1")
                || l.starts_with("1/2-1/2")
        })
    }

    /// Panics with `why` and the tail of the session.
    pub fn fail(&self, why: &str) -> ! {
        panic!("{why}; session tail:\n{}", self.log.join("\n"))
    }

    /// Waits for the process to end by itself, with success, and returns how long that took; panics (after
    /// killing it) when it is still running after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Duration {
        let t = Instant::now();
        while t.elapsed() < timeout {
            if let Ok(Some(status)) = self.child.try_wait() {
                if !status.success() {
                    self.fail(&format!("exit status {status}"));
                }
                return t.elapsed();
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.fail("corvid did not exit")
    }

    /// Sends `quit` (the same word in UCI and CECP) and waits for the process to end with success.
    pub fn quit(mut self) {
        self.send("quit");
        self.wait_exit(SOON);
    }
}

impl Drop for Corvid {
    fn drop(&mut self) {
        // A failed test must not leave an engine running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
/// The value after `key` in a whitespace-separated line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut it = line.split_whitespace();
    while let Some(t) = it.next() {
        if t == key {
            return it.next();
        }
    }
    None
}

/// The moves after ` pv ` in an `info` line (empty without one).
pub fn pv_of(line: &str) -> Vec<&str> {
    let mut it = line.split_whitespace();
    for t in it.by_ref() {
        if t == "pv" {
            break;
        }
    }
    it.collect()
}

/// `bestmove m [ponder p]` split: (m, p).
pub fn bestmove_of(line: &str) -> Option<(&str, Option<&str>)> {
    let mut it = line.split_whitespace();
    if it.next()? != "bestmove" {
        return None;
    }
    let best = it.next()?;
    let ponder = match (it.next(), it.next()) {
        (Some("ponder"), Some(p)) => Some(p),
        _ => None,
    };
    Some((best, ponder))
}
