//! The real `corvid` binary as a child process with a line log and deadlines on every wait (for the tests
//! that drive many searches), built on [`super::spawn_corvid`].

use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// Generous bound for what should take milliseconds (the test machines are shared and slow).
pub const SOON: Duration = Duration::from_secs(10);

/// A running engine.
pub struct Corvid {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The last lines read and sent, for failure messages.
    log: Vec<String>,
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
        }
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

    /// `isready` and the lines before its `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok", SOON, |l| l == "readyok")
    }

    /// Panics with `why` and the tail of the session.
    pub fn fail(&self, why: &str) -> ! {
        panic!("{why}; session tail:\n{}", self.log.join("\n"))
    }

    /// Ends the process (`quit`, then a kill if it lingers).
    pub fn quit(mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit");
        }
        let deadline = Instant::now() + SOON;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        panic!("corvid did not quit");
    }
}

impl Drop for Corvid {
    fn drop(&mut self) {
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
