//! A UCI engine as a child process: start, handshake, `go`, and the deadline on every answer.

use super::config::*;
use super::forfeit::Forfeit;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------------------
// Engine processes.

/// A failure to talk to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EngineFailure {
    pub(super) kind: Forfeit,
    pub(super) detail: String,
}

pub(super) fn failure(kind: Forfeit, detail: impl Into<String>) -> EngineFailure {
    EngineFailure {
        kind,
        detail: detail.into(),
    }
}

/// A running engine: its process, its input, and its output lines (stamped when read) from a reader thread.
pub(super) struct EngineProcess {
    pub(super) child: Child,
    pub(super) input: ChildStdin,
    pub(super) lines: Receiver<(Instant, Option<String>)>,
    pub(super) id_name: Option<String>,
}

/// An engine's answer to `go`.
pub(super) struct Reply {
    pub(super) text: Option<String>,
    pub(super) elapsed: Duration,
    pub(super) depth: Option<u32>,
    /// The search time the engine itself last reported (`info ... time N`), milliseconds.
    pub(super) reported_ms: Option<u64>,
}

impl EngineProcess {
    /// Starts the engine, does the `uci` handshake and sets the options.
    pub(super) fn start(
        spec: &EngineSpec,
        variant: GameKind,
    ) -> Result<EngineProcess, EngineFailure> {
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| failure(Forfeit::Crash, "empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| failure(Forfeit::Crash, format!("cannot start '{program}': {e}")))?;
        let (input, output) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(failure(Forfeit::Crash, "no pipes to the engine"));
            }
        };
        let (tx, rx) = mpsc::channel();
        // Detached: it ends when the engine's output closes (the engine exits or is killed).
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send((Instant::now(), None));
                        return;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send((Instant::now(), Some(line))).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut engine = EngineProcess {
            child,
            input,
            lines: rx,
            id_name: None,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let (_, line) = engine.next_line(deadline, "uciok")?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.id_name = Some(name.trim().to_string());
            } else if line == "uciok" {
                break;
            }
        }
        // The default game needs no option: any UCI engine plays it, also one without `UCI_Variant`.
        if variant != GameKind::DEFAULT {
            engine.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        for (k, v) in &spec.options {
            engine.send(&format!("setoption name {k} value {v}"))?;
        }
        engine.sync()?;
        Ok(engine)
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| failure(Forfeit::Crash, format!("cannot write to the engine: {e}")))
    }

    /// The next output line, read before `deadline`.
    pub(super) fn next_line(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<(Instant, String), EngineFailure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((at, Some(line))) => Ok((at, line)),
            Ok((_, None)) | Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .child
                    .try_wait()
                    .ok()
                    .flatten()
                    .map_or(String::new(), |s| format!(" ({s})"));
                Err(failure(
                    Forfeit::Crash,
                    format!("engine exited while we waited for {waiting_for}{status}"),
                ))
            }
            Err(RecvTimeoutError::Timeout) => {
                Err(failure(Forfeit::Hang, format!("no {waiting_for} in time")))
            }
        }
    }

    /// `isready` and its `readyok`.
    pub(super) fn sync(&mut self) -> Result<(), EngineFailure> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.next_line(deadline, "readyok")?.1 != "readyok" {}
        Ok(())
    }

    /// Sends the position and `go`, and waits up to `hang` for `bestmove`. The time runs from the moment `go`
    /// was written to the moment the `bestmove` line was read.
    pub(super) fn go(
        &mut self,
        position: &str,
        go: &str,
        hang: Duration,
    ) -> Result<Reply, EngineFailure> {
        // Lines left over from before (a late `info`) must not be taken for this move's answer.
        while let Ok((_, Some(_))) = self.lines.try_recv() {}
        self.send(position)?;
        self.send(go)?;
        let start = Instant::now();
        let deadline = start + hang;
        let (mut depth, mut reported_ms) = (None, None);
        loop {
            let (at, line) = self.next_line(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    return Ok(Reply {
                        text: words.next().map(str::to_string),
                        elapsed: at.saturating_duration_since(start),
                        depth,
                        reported_ms,
                    })
                }
                Some("info") => {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    let value = |key: &str| {
                        let i = words.iter().position(|w| *w == key)?;
                        words.get(i + 1)?.parse::<u64>().ok()
                    };
                    if let Some(d) = value("depth") {
                        depth = u32::try_from(d).ok();
                    }
                    if let Some(t) = value("time") {
                        reported_ms = Some(t);
                    }
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit and reaps it (killing it when it does not go).
    pub(super) fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
