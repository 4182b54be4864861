//! The UCI protocol: parsing commands and formatting replies. All UCI text Corvid writes is produced here.
//!
//! Parsing never panics: every malformed line becomes a `UciError`, which the loop prints as one
//! `info string` line before carrying on with the state it had. Unknown `go` tokens, bad numbers and
//! `setoption` without `name` are errors rather than being skipped, so a typo is reported instead of
//! silently searching with the wrong limits. Negative clock values (some GUIs send them when a flag falls)
//! count as zero.

use crate::engine::{BestMove, Engine, OptionKind, OptionSpec, Report, OPTIONS};
use crate::search::{Bound, Event, Info, Limits, Score};
use crossbeam_channel::{select, unbounded, Receiver};
use std::fmt;
use std::io::{BufRead, Write};
use std::sync::Arc;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    /// The FEN fields joined by single spaces (validated by the engine, not here).
    Fen(String),
}

/// One parsed UCI command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    IsReady,
    UciNewGame,
    /// `debug on|off` (accepted, has no effect).
    Debug(bool),
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go {
        limits: Limits,
        searchmoves: Vec<String>,
    },
    /// `go perft N` (also accepted as `perft N`).
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    /// `d`: the board, FEN, key and checkers.
    Display,
    /// `eval`: the evaluation breakdown.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `genfens N seed S book <file|None> [dfrc]` (OpenBench's opening generation).
    GenFens(crate::tools::genfens::Request),
    /// `tunables`: the search tunables and the games' overrides in OpenBench's SPSA input format.
    Tunables,
}

/// Why a line is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    UnknownCommand(String),
    /// A command or keyword without the argument it needs.
    Missing {
        command: &'static str,
        what: &'static str,
    },
    /// A token the command does not know.
    Unexpected {
        command: &'static str,
        token: String,
    },
    /// A command whose arguments are wrong, with the reason.
    Invalid(String),
    /// A keyword whose value is not a number in range.
    BadNumber {
        command: &'static str,
        keyword: &'static str,
        value: String,
    },
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::UnknownCommand(c) => write!(f, "unknown command '{c}'"),
            UciError::Invalid(message) => f.write_str(message),
            UciError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            UciError::Unexpected { command, token } => {
                write!(f, "{command}: unexpected '{token}'")
            }
            UciError::BadNumber {
                command,
                keyword,
                value,
            } => write!(f, "{command}: bad value '{value}' for {keyword}"),
        }
    }
}

impl std::error::Error for UciError {}

/// Deepest `go perft` accepted (deeper runs take hours).
pub const MAX_PERFT_DEPTH: u32 = 20;
/// Deepest fixed-depth search accepted by `go depth` and `bench`.
pub const MAX_DEPTH: u32 = 255;

/// Parses one input line. `Ok(None)` for a blank line.
pub fn parse_command(line: &str) -> Result<Option<Command>, UciError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    let cmd = match head {
        "uci" => no_args("uci", rest, Command::Uci)?,
        "isready" => no_args("isready", rest, Command::IsReady)?,
        "ucinewgame" => no_args("ucinewgame", rest, Command::UciNewGame)?,
        "stop" => no_args("stop", rest, Command::Stop)?,
        "ponderhit" => no_args("ponderhit", rest, Command::PonderHit)?,
        // Quit must work whatever follows it.
        "quit" => Command::Quit,
        "d" => no_args("d", rest, Command::Display)?,
        "eval" => no_args("eval", rest, Command::Eval)?,
        "tunables" => no_args("tunables", rest, Command::Tunables)?,
        "debug" => match rest {
            ["on"] => Command::Debug(true),
            ["off"] => Command::Debug(false),
            _ => {
                return Err(UciError::Missing {
                    command: "debug",
                    what: "on or off",
                })
            }
        },
        "setoption" => parse_setoption(rest)?,
        "position" => parse_position(rest)?,
        "go" => parse_go(rest)?,
        "perft" => Command::Perft(parse_perft_depth(rest)?),
        "bench" => match rest {
            [] => Command::Bench(None),
            [d] => Command::Bench(Some(parse_num("bench", "depth", d, 1, MAX_DEPTH)?)),
            [_, extra, ..] => {
                return Err(UciError::Unexpected {
                    command: "bench",
                    token: (*extra).to_string(),
                })
            }
        },
        "genfens" => {
            Command::GenFens(crate::tools::genfens::parse(rest).map_err(UciError::Invalid)?)
        }
        other => return Err(UciError::UnknownCommand(other.to_string())),
    };
    Ok(Some(cmd))
}

fn no_args(command: &'static str, rest: &[&str], cmd: Command) -> Result<Command, UciError> {
    match rest.first() {
        None => Ok(cmd),
        Some(t) => Err(UciError::Unexpected {
            command,
            token: (*t).to_string(),
        }),
    }
}

fn parse_num<T: std::str::FromStr + PartialOrd + fmt::Display>(
    command: &'static str,
    keyword: &'static str,
    text: &str,
    min: T,
    max: T,
) -> Result<T, UciError> {
    match text.parse::<T>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        _ => Err(UciError::BadNumber {
            command,
            keyword,
            value: text.to_string(),
        }),
    }
}

fn parse_perft_depth(rest: &[&str]) -> Result<u32, UciError> {
    match rest {
        [] => Err(UciError::Missing {
            command: "perft",
            what: "a depth",
        }),
        [d] => parse_num("perft", "depth", d, 0, MAX_PERFT_DEPTH),
        [_, extra, ..] => Err(UciError::Unexpected {
            command: "perft",
            token: (*extra).to_string(),
        }),
    }
}

/// `setoption name <words> [value <words>]`: names and values may contain spaces (`Move Overhead`).
fn parse_setoption(rest: &[&str]) -> Result<Command, UciError> {
    let missing_name = UciError::Missing {
        command: "setoption",
        what: "name",
    };
    let Some((&"name", rest)) = rest.split_first() else {
        return Err(match rest.first() {
            None => missing_name,
            Some(t) => UciError::Unexpected {
                command: "setoption",
                token: (*t).to_string(),
            },
        });
    };
    let value_at = rest.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(missing_name);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

/// `position startpos|fen <fields> [moves <m>...]`.
fn parse_position(rest: &[&str]) -> Result<Command, UciError> {
    let moves_at = rest.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["startpos", extra, ..] => {
            return Err(UciError::Unexpected {
                command: "position",
                token: (*extra).to_string(),
            })
        }
        ["fen"] => {
            return Err(UciError::Missing {
                command: "position",
                what: "the FEN after 'fen'",
            })
        }
        ["fen", fields @ ..] => Start::Fen(fields.join(" ")),
        [] => {
            return Err(UciError::Missing {
                command: "position",
                what: "startpos or fen",
            })
        }
        [other, ..] => {
            return Err(UciError::Unexpected {
                command: "position",
                token: (*other).to_string(),
            })
        }
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| (*m).to_string()).collect(),
    })
}

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// `go` with any of its keywords, or `go perft N`.
fn parse_go(rest: &[&str]) -> Result<Command, UciError> {
    if let Some((&"perft", args)) = rest.split_first() {
        return Ok(Command::Perft(parse_perft_depth(args)?));
    }
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut i = 0;
    while let Some(&tok) = rest.get(i) {
        i += 1;
        let keyword: &'static str = match GO_KEYWORDS.iter().find(|&&k| k == tok) {
            Some(k) => k,
            None => {
                return Err(UciError::Unexpected {
                    command: "go",
                    token: tok.to_string(),
                })
            }
        };
        match keyword {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while let Some(&m) = rest.get(i) {
                    if GO_KEYWORDS.contains(&m) {
                        break;
                    }
                    searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            "perft" => {
                return Err(UciError::Unexpected {
                    command: "go",
                    token: "perft".to_string(),
                })
            }
            _ => {
                let Some(&value) = rest.get(i) else {
                    return Err(UciError::Missing {
                        command: "go",
                        what: "a value after a keyword",
                    });
                };
                i += 1;
                let time = || clock_ms(keyword, value);
                match keyword {
                    "wtime" => limits.wtime = Some(time()?),
                    "btime" => limits.btime = Some(time()?),
                    "winc" => limits.winc = Some(time()?),
                    "binc" => limits.binc = Some(time()?),
                    "movetime" => limits.movetime = Some(time()?),
                    "movestogo" => {
                        limits.movestogo = Some(parse_num("go", keyword, value, 1, u32::MAX)?)
                    }
                    "depth" => limits.depth = Some(parse_num("go", keyword, value, 1, MAX_DEPTH)?),
                    "nodes" => limits.nodes = Some(parse_num("go", keyword, value, 1, u64::MAX)?),
                    _ => limits.mate = Some(parse_num("go", keyword, value, 1, MAX_DEPTH)?),
                }
            }
        }
    }
    Ok(Command::Go {
        limits,
        searchmoves,
    })
}

/// A clock value in ms; negative counts as zero.
fn clock_ms(keyword: &'static str, value: &str) -> Result<u64, UciError> {
    value
        .parse::<i64>()
        .map(|v| v.max(0) as u64)
        .map_err(|_| UciError::BadNumber {
            command: "go",
            keyword,
            value: value.to_string(),
        })
}

// ---------------------------------------------------------------------------------------------------------
// Formatting

/// `id` lines, one `option` line per option, then `uciok`.
pub fn format_uci_reply(options: &[OptionSpec]) -> String {
    let mut s = format!(
        "id name Corvid {}\nid author the Corvid developers\n",
        env!("CARGO_PKG_VERSION")
    );
    for o in options {
        s.push_str(&format_option(o));
        s.push('\n');
    }
    // A tuning build offers the tunables (the search's and the games' overrides) as options too.
    #[cfg(feature = "tune")]
    for t in crate::engine::tunables() {
        s.push_str(&format!(
            "option name {} type spin default {} min {} max {}\n",
            t.name, t.default, t.min, t.max
        ));
    }
    s.push_str("uciok");
    s
}

/// One `option name … type …` line.
pub fn format_option(o: &OptionSpec) -> String {
    match o.kind {
        OptionKind::Check { default } => {
            format!("option name {} type check default {default}", o.name)
        }
        OptionKind::Spin { default, min, max } => format!(
            "option name {} type spin default {default} min {min} max {max}",
            o.name
        ),
        OptionKind::Combo { default, vars } => {
            let mut s = format!("option name {} type combo default {default}", o.name);
            for v in vars {
                s.push_str(" var ");
                s.push_str(v);
            }
            s
        }
        OptionKind::Button => format!("option name {} type button", o.name),
        OptionKind::String { default } => {
            format!("option name {} type string default {default}", o.name)
        }
    }
}

/// `score cp N` / `score mate N`, with the bound when the score is not exact.
pub fn format_score(score: Score, bound: Bound) -> String {
    let mut s = match score {
        Score::Cp(cp) => format!("score cp {cp}"),
        Score::Mate(n) => format!("score mate {n}"),
    };
    match bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    s
}

/// An `info depth … pv …` line; the WDL triple only when `show_wdl`.
pub fn format_info(info: &Info, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score, info.bound)
    );
    if let (true, Some((w, d, l))) = (show_wdl, info.wdl) {
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} tbhits {} time {}",
        info.nodes, info.nps, info.hashfull, info.tbhits, info.time_ms
    ));
    if !info.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&info.pv.join(" "));
    }
    s
}

/// Any search event as one line.
pub fn format_event(event: &Event, show_wdl: bool) -> String {
    match event {
        Event::Info(info) => format_info(info, show_wdl),
        Event::CurrMove { depth, mv, number } => {
            format!("info depth {depth} currmove {mv} currmovenumber {number}")
        }
        Event::Text(t) => info_string(t),
    }
}

/// `bestmove m [ponder p]`, or `bestmove (none)` without a legal move.
pub fn format_bestmove(outcome: &BestMove) -> String {
    match (
        outcome.best.as_ref().map(|c| &c.text),
        outcome.ponder.as_ref().map(|c| &c.text),
    ) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {b}"),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
    }
}

/// `info string …` for free text; a multi-line text becomes one line (GUIs read line by line).
pub fn info_string(text: &str) -> String {
    let flat: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    format!("info string {}", flat.join(" | "))
}

// ---------------------------------------------------------------------------------------------------------
// The protocol loop

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

/// Reads lines on a thread of its own; invalid UTF-8 is replaced rather than ending the session.
pub(crate) fn spawn_listener<R: BufRead + Send + 'static>(mut input: R) -> Receiver<String> {
    let (tx, rx) = unbounded();
    let spawned = std::thread::Builder::new()
        .name("uci-input".to_string())
        .spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    // Without a listener the receiver reports a disconnect at once and the loop ends like on EOF.
    drop(spawned);
    rx
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
            } => {
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
                let text = crate::tools::bench::run_kind(self.engine.game_kind(), depth).text;
                for l in text.lines() {
                    self.emit(l);
                }
            }
            Command::GenFens(request) => {
                // A tool like bench: it runs here, and commands sent meanwhile wait.
                let mut out = Vec::new();
                match crate::tools::genfens::run(&request, &mut out) {
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

/// The same bench as `corvid bench [--variant makromachy]` (its last line `<nodes> nodes <nps> nps`).
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        match parse_command(line) {
            Ok(Some(c)) => c,
            other => panic!("'{line}' gave {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Command::Uci);
        assert_eq!(parse("  isready  "), Command::IsReady);
        assert_eq!(parse("ucinewgame"), Command::UciNewGame);
        assert_eq!(parse("stop"), Command::Stop);
        assert_eq!(parse("ponderhit"), Command::PonderHit);
        assert_eq!(parse("quit"), Command::Quit);
        assert_eq!(parse("quit now"), Command::Quit);
        assert_eq!(parse("d"), Command::Display);
        assert_eq!(parse("eval"), Command::Eval);
        assert_eq!(parse("tunables"), Command::Tunables);
        assert_eq!(parse("bench"), Command::Bench(None));
        assert_eq!(parse("bench 7"), Command::Bench(Some(7)));
        assert!(matches!(
            parse("genfens 4 seed 2 book None"),
            Command::GenFens(r) if r.count == 4 && r.seed == 2 && r.book.is_none()
        ));
        assert!(parse_command("genfens many").is_err());
        assert_eq!(parse("debug on"), Command::Debug(true));
        assert_eq!(parse_command(""), Ok(None));
        assert_eq!(parse_command(" \t "), Ok(None));
    }

    #[test]
    fn setoption_names_and_values_may_hold_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption name SyzygyPath value /a b/c"),
            Command::SetOption {
                name: "SyzygyPath".into(),
                value: Some("/a b/c".into())
            }
        );
        assert!(parse_command("setoption").is_err());
        assert!(parse_command("setoption Hash value 3").is_err());
        assert!(parse_command("setoption name").is_err());
        assert!(parse_command("setoption name value 3").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos"),
            Command::Position {
                start: Start::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Command::Position {
                start: Start::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"),
            Command::Position {
                start: Start::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec!["a1a2".into()]
            }
        );
        for bad in [
            "position",
            "position fen",
            "position fen moves e2e4",
            "position startpos e2e4",
            "position kiwipete",
            "position moves e2e4",
        ] {
            assert!(parse_command(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn go_limits() {
        let Command::Go {
            limits,
            searchmoves,
        } = parse(
            "go wtime 1000 btime -5 winc 10 binc 0 movestogo 20 searchmoves e2e4 d2d4 ponder",
        )
        else {
            panic!("not a go");
        };
        assert_eq!(limits.wtime, Some(1000));
        assert_eq!(limits.btime, Some(0));
        assert_eq!(limits.winc, Some(10));
        assert_eq!(limits.binc, Some(0));
        assert_eq!(limits.movestogo, Some(20));
        assert!(limits.ponder && !limits.infinite);
        assert_eq!(searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);

        let Command::Go { limits, .. } = parse("go depth 3 nodes 5000 mate 2 movetime 50 infinite")
        else {
            panic!("not a go");
        };
        assert_eq!(limits.depth, Some(3));
        assert_eq!(limits.nodes, Some(5000));
        assert_eq!(limits.mate, Some(2));
        assert_eq!(limits.movetime, Some(50));
        assert!(limits.infinite);
        assert_eq!(
            parse("go"),
            Command::Go {
                limits: Limits::default(),
                searchmoves: vec![]
            }
        );
        assert_eq!(parse("go perft 3"), Command::Perft(3));
        assert_eq!(parse("perft 0"), Command::Perft(0));
    }

    #[test]
    fn malformed_go_is_an_error() {
        for bad in [
            "go depth",
            "go depth x",
            "go depth 0",
            "go depth -1",
            "go nodes 0",
            "go wtime",
            "go wtime 1e3",
            "go movestogo 0",
            "go depht 5",
            "go perft",
            "go perft 99",
            "go perft 3 4",
            "go infinite perft 3",
            "go depth 99999999999999999999",
        ] {
            assert!(parse_command(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_and_extra_tokens() {
        assert_eq!(
            parse_command("hello world"),
            Err(UciError::UnknownCommand("hello".into()))
        );
        assert!(parse_command("isready now").is_err());
        assert!(parse_command("UCI").is_err());
        assert!(parse_command("bench 0").is_err());
        assert!(parse_command("debug").is_err());
    }

    fn info() -> Info {
        Info {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: Score::Cp(-31),
            bound: Bound::Exact,
            wdl: Some((100, 800, 100)),
            nodes: 12345,
            nps: 1_000_000,
            hashfull: 3,
            tbhits: 7,
            time_ms: 12,
            pv: vec!["e2e4".into(), "e7e5".into()],
        }
    }

    #[test]
    fn info_lines() {
        assert_eq!(
            format_info(&info(), false),
            "info depth 5 seldepth 9 multipv 1 score cp -31 nodes 12345 nps 1000000 hashfull 3 tbhits 7 time 12 pv e2e4 e7e5"
        );
        let mut i = info();
        i.score = Score::Mate(-3);
        i.bound = Bound::Lower;
        assert_eq!(
            format_info(&i, true),
            "info depth 5 seldepth 9 multipv 1 score mate -3 lowerbound wdl 100 800 100 nodes 12345 nps 1000000 hashfull 3 tbhits 7 time 12 pv e2e4 e7e5"
        );
        assert_eq!(
            format_score(Score::Cp(7), Bound::Upper),
            "score cp 7 upperbound"
        );
        assert_eq!(
            format_event(
                &Event::CurrMove {
                    depth: 12,
                    mv: "g1f3".into(),
                    number: 4
                },
                false
            ),
            "info depth 12 currmove g1f3 currmovenumber 4"
        );
        assert_eq!(
            format_event(&Event::Text("a\nb\n".into()), false),
            "info string a | b"
        );
    }

    #[test]
    fn bestmove_lines() {
        use crate::engine::ChosenMove;
        use crate::variants::AnyMove;
        let pos = crate::chess::Position::startpos();
        let chosen = |text: &str| ChosenMove {
            mv: AnyMove::Chess(pos.parse_uci_move(text).unwrap_or_default()),
            text: text.to_string(),
        };
        let mut o = BestMove::default();
        assert_eq!(format_bestmove(&o), "bestmove (none)");
        o.best = Some(chosen("e2e4"));
        assert_eq!(format_bestmove(&o), "bestmove e2e4");
        o.ponder = Some(chosen("e7e5"));
        assert_eq!(format_bestmove(&o), "bestmove e2e4 ponder e7e5");
    }

    #[test]
    fn uci_reply_lists_every_option() {
        let reply = format_uci_reply(crate::engine::OPTIONS);
        assert!(reply.starts_with("id name Corvid"));
        assert!(reply.ends_with("uciok"));
        assert!(reply.contains("option name Hash type spin default 16 min 1 max 65536"));
        assert!(reply.contains("option name Clear Hash type button"));
        assert!(reply.contains("option name UCI_Variant type combo default chess var chess"));
        assert!(reply.contains("option name Ponder type check default false"));
        // A tuning build offers every tunable too.
        let tunables = if cfg!(feature = "tune") {
            crate::engine::tunables().len()
        } else {
            0
        };
        assert_eq!(
            reply.lines().filter(|l| l.starts_with("option ")).count(),
            crate::engine::OPTIONS.len() + tunables
        );
        #[cfg(feature = "tune")]
        assert!(
            reply.contains("option name makro_qs_recapture_depth type spin default 4 min 2 max 8")
        );
    }
}
