//! A UCI session: the engine driven by the parsed commands, its reports written as they come.

use super::format::*;
use super::parse::*;
use crate::engine::{spawn_listener, Engine, Report, OPTIONS};
use crossbeam_channel::{select, unbounded, Receiver};
use std::io::{BufRead, Write};
use std::sync::Arc;

/// Runs the UCI protocol until `quit` or the end of `input`, writing replies to `output`.
///
/// A listener thread reads `input` and passes lines over a channel; this thread waits on both that channel
/// and the engine's reports, so `isready`, `stop` and `quit` are handled while a search runs and every line
/// of output is written by one thread. `go` before any `position` searches the start position, with an
/// `info string` saying so (as Stockfish, which starts there). `go perft` and `bench` run on this thread:
/// they are tools, and commands sent meanwhile wait in the channel.
pub fn run<R, W>(input: R, output: W)
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let lines = spawn_listener(input);
    let (report_tx, reports) = unbounded::<Report>();
    let engine = Engine::new(Arc::new(move |r| {
        // The receiver lives as long as the loop; a failed send means the loop is gone.
        let _ = report_tx.send(r);
    }));
    let mut session = UciSession {
        engine,
        reports: reports.clone(),
        output,
        position_set: false,
        output_ok: true,
    };
    while session.output_ok {
        select! {
            recv(reports) -> r => {
                if let Ok(r) = r {
                    session.report(r);
                }
            }
            recv(lines) -> line => match line {
                Ok(line) => {
                    if session.handle(&line) == Flow::Quit {
                        break;
                    }
                }
                // End of input: as `quit`.
                Err(_) => break,
            },
        }
    }
    session.engine.quit();
    // The search thread has finished: print what it reported last (its bestmove included).
    session.drain_reports();
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

struct UciSession<W: Write> {
    engine: Engine,
    reports: Receiver<Report>,
    output: W,
    /// Whether a `position` has been accepted (a `go` before one gets a warning).
    position_set: bool,
    /// False once writing failed (the GUI is gone): the loop ends.
    output_ok: bool,
}

impl<W: Write> UciSession<W> {
    fn emit(&mut self, text: &str) {
        let result = writeln!(self.output, "{text}").and_then(|()| self.output.flush());
        if result.is_err() {
            self.output_ok = false;
        }
    }

    fn info(&mut self, text: &str) {
        let line = info_string(text);
        self.emit(&line);
    }

    fn report(&mut self, report: Report) {
        let line = match report {
            Report::Search(event) => format_event(&event, self.engine.options().show_wdl),
            Report::BestMove(outcome) => format_bestmove(&outcome),
        };
        self.emit(&line);
    }

    fn handle(&mut self, line: &str) -> Flow {
        let command = match parse_command(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.info(&format!("error: {e}"));
                return Flow::Continue;
            }
        };
        match command {
            Command::Uci => self.emit(&format_uci_reply(OPTIONS)),
            Command::IsReady => self.emit("readyok"),
            Command::UciNewGame => self.engine.new_game(),
            Command::Debug(_) => {}
            Command::SetOption { name, value } => {
                if let Err(e) = self.engine.set_option(&name, value.as_deref()) {
                    self.info(&format!("error: {e}"));
                }
                // What the option reported (tablebases found) comes before the answer to a later command.
                self.drain_reports();
            }
            Command::Position { start, moves } => {
                let fen = match &start {
                    Start::StartPos => None,
                    Start::Fen(f) => Some(f.as_str()),
                };
                match self.engine.set_position(fen, &moves) {
                    Ok(()) => self.position_set = true,
                    Err(e) => {
                        if matches!(e, crate::engine::PositionError::Move { .. }) {
                            self.position_set = true;
                        }
                        self.info(&format!("error: {e}"));
                    }
                }
            }
            Command::Go {
                limits,
                searchmoves,
                ignored,
            } => {
                for why in ignored {
                    self.info(&format!("error: {why}"));
                }
                if !self.position_set {
                    self.info("no position given: searching the start position");
                    self.position_set = true;
                }
                for e in self.engine.go(limits, &searchmoves) {
                    self.info(&format!("error: searchmoves: {e}; left out"));
                }
            }
            Command::Perft(depth) => {
                let text = self.engine.perft(depth);
                for l in text.lines() {
                    self.emit(l);
                }
            }
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => return Flow::Quit,
            Command::Display => {
                let text = self.engine.display();
                for l in text.lines() {
                    self.emit(l);
                }
            }
            Command::Tunables => {
                for t in crate::engine::tunables() {
                    self.emit(&t.spsa_line());
                }
            }
            Command::Eval => {
                let text = self.engine.eval_trace();
                for l in text.lines() {
                    self.emit(l);
                }
            }
            Command::Bench(depth) => {
                // Bench measures the machine: it must not share it with a running search.
                self.engine.quit();
                self.drain_reports();
                // With the engine's network (`EvalFile`, or none under a strength limit), as `go` has.
                let (kind, net) = (self.engine.game_kind(), self.engine.network());
                let text = crate::tools::bench::run_kind_with_network(kind, depth, net).text;
                for l in text.lines() {
                    self.emit(l);
                }
            }
            Command::GenFens(request) => {
                // A tool like bench: it runs here, and commands sent meanwhile wait.
                let mut out = Vec::new();
                let net = self.engine.network();
                match crate::tools::genfens::run_with_network(&request, net, &mut out) {
                    Ok(()) => {
                        for l in String::from_utf8_lossy(&out).lines() {
                            self.emit(l);
                        }
                    }
                    Err(e) => self.info(&format!("error: {e}")),
                }
            }
        }
        Flow::Continue
    }

    /// Prints the reports already queued (after a search has been joined, its bestmove is among them).
    fn drain_reports(&mut self) {
        while let Ok(r) = self.reports.try_recv() {
            self.report(r);
        }
    }
}
