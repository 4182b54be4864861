//! `corvid match`: plays games between two UCI engines, orthodox chess or Makromachy.
//!
//! The published match runners (cutechess, fastchess, python-chess and so `match.py`) know only the 8x8 games, so
//! Makromachy matches need their own referee. This one keeps both clocks itself (wall time from sending `go` to
//! reading `bestmove`, the increment added after the move), ends games only by the rules (`crate::rules` for
//! chess and Makromachy alike) or by a forfeit — time, an illegal or unreadable move, a
//! crash, a hang — and says which. Openings are random legal plies from the start position, each played twice
//! with the colours swapped.
//!
//! Engines are kept per worker thread for many games (`ucinewgame` + `isready` between them), as a GUI does; an
//! engine that forfeits is killed and started afresh for the next game, since its state is then unknown.

use crate::game::Variant as _;
use crate::types::Color;
use crate::variants::{ByGame, Family, Known};
use crate::{by_game, for_game};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The usage text of `corvid match`.
pub const MATCH_USAGE: &str = "\
usage: corvid match --engine-a CMD --engine-b CMD (--tc BASE+INC | --limit-a L --limit-b L) [options]
  --engine-a/-b CMD      engine command line (one quoted word; quotes and backslashes as in a shell)
  --name-a/-b NAME       display name (default: the engine's `id name`, with A/B appended when they are equal)
  --opt-a/-b NAME=VALUE  UCI option, repeatable (UCI_Variant is set by --variant)
  --variant V            chess (default) or makromachy
  --tc BASE+INC          clock for both engines, seconds (10+0.1); --limit-a/-b override it per engine
  --limit-a/-b L         tc=10+0.1 | depth=N | nodes=N | movetime=MS
  --games N              number of games (default 2)
  --concurrency N        games in parallel, each with its own pair of engines (default 1)
  --openings-random N    N random legal plies from the start for each pair of games (default 0)
  --seed S               seed of the random openings (default 1)
  --max-plies N          adjudicate a draw after N plies (default 1000)
  --margin MS            how far past its clock an engine may go (default 50)
  --grace MS             after clock+margin+grace without a move the engine hangs (default 2000)
  --hang-timeout S       the same for depth/nodes limits (default 60)
  --pgn FILE             write every game (overwritten)
exit status: 0 when every game ended by the rules or the ply cap, 2 when some engine forfeited, 1 on bad usage
or an engine that cannot play at all";

/// How long an engine may take to answer `uci` or `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Which game is played: the one [`GameKind`] every front end names games by.
pub use crate::game::GameKind as Variant;

/// What an engine is asked to do per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// A clock: base and increment, milliseconds.
    Clock {
        base_ms: u64,
        inc_ms: u64,
    },
    Depth(u32),
    Nodes(u64),
    MoveTime(u64),
}

impl Limit {
    /// `10+0.1` (seconds) or `60`.
    pub fn parse_tc(text: &str) -> Result<Limit, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e6)
                .map(|v| (v * 1000.0).round() as u64)
                .ok_or_else(|| {
                    format!("bad time control '{text}' (BASE+INC in seconds, e.g. 10+0.1)")
                })
        };
        let base_ms = secs(base)?;
        if base_ms == 0 {
            return Err(format!("time control '{text}' has no base time"));
        }
        Ok(Limit::Clock {
            base_ms,
            inc_ms: secs(inc)?,
        })
    }

    /// `tc=10+0.1`, `depth=N`, `nodes=N` or `movetime=MS`.
    pub fn parse(text: &str) -> Result<Limit, String> {
        let bad = || format!("bad limit '{text}' (tc=10+0.1, depth=N, nodes=N or movetime=MS)");
        let (key, value) = text.split_once('=').ok_or_else(bad)?;
        match key {
            "tc" => Limit::parse_tc(value),
            "depth" => value
                .parse()
                .ok()
                .filter(|d| (1..=100).contains(d))
                .map(Limit::Depth)
                .ok_or_else(bad),
            "nodes" => value
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .map(Limit::Nodes)
                .ok_or_else(bad),
            "movetime" => value
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .map(Limit::MoveTime)
                .ok_or_else(bad),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Clock { base_ms, inc_ms } => {
                write!(
                    f,
                    "tc {}+{}",
                    *base_ms as f64 / 1000.0,
                    *inc_ms as f64 / 1000.0
                )
            }
            Limit::Depth(d) => write!(f, "depth {d}"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::MoveTime(ms) => write!(f, "movetime {ms} ms"),
        }
    }
}

/// One engine of the match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub command: Vec<String>,
    pub name: Option<String>,
    pub options: Vec<(String, String)>,
    pub limit: Limit,
}

/// Everything `corvid match` was asked to do.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engines A and B.
    pub engines: [EngineSpec; 2],
    pub variant: Variant,
    pub games: usize,
    pub concurrency: usize,
    pub opening_plies: usize,
    pub seed: u64,
    pub max_plies: usize,
    pub margin: Duration,
    pub grace: Duration,
    pub hang_timeout: Duration,
    pub pgn: Option<String>,
}

/// Splits a command line into words: blanks separate, single quotes keep everything, double quotes keep all but
/// a backslash before `"` or `\`, and a backslash outside quotes keeps the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in '{text}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in '{text}'")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in '{text}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("trailing backslash in '{text}'")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".to_string());
    }
    Ok(words)
}

/// Reads `corvid match`'s arguments.
pub fn parse_args(args: &[String]) -> Result<MatchConfig, String> {
    let mut commands: [Option<Vec<String>>; 2] = [None, None];
    let mut names: [Option<String>; 2] = [None, None];
    let mut options: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
    let mut limits: [Option<Limit>; 2] = [None, None];
    let mut tc = None;
    let mut variant = Variant::Chess;
    let mut games = 2usize;
    let mut concurrency = 1usize;
    let mut opening_plies = 0usize;
    let mut seed = 1u64;
    let mut max_plies = 1000usize;
    let mut margin_ms = 50u64;
    let mut grace_ms = 2000u64;
    let mut hang_s = 60u64;
    let mut pgn = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        fn number<T>(flag: &str, v: &str, min: T, max: T) -> Result<T, String>
        where
            T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
        {
            v.parse::<T>()
                .ok()
                .filter(|n| *n >= min && *n <= max)
                .ok_or_else(|| format!("{flag} needs a number from {min} to {max}, not '{v}'"))
        }
        let side = |f: &str| usize::from(f.ends_with("-b"));
        match flag.as_str() {
            "--engine-a" | "--engine-b" => commands[side(flag)] = Some(split_command(&value()?)?),
            "--name-a" | "--name-b" => names[side(flag)] = Some(value()?),
            "--opt-a" | "--opt-b" => {
                let v = value()?;
                let (k, val) = v
                    .split_once('=')
                    .filter(|(k, _)| !k.trim().is_empty())
                    .ok_or_else(|| format!("{flag} needs NAME=VALUE, not '{v}'"))?;
                options[side(flag)].push((k.trim().to_string(), val.trim().to_string()));
            }
            "--limit-a" | "--limit-b" => limits[side(flag)] = Some(Limit::parse(&value()?)?),
            "--tc" => tc = Some(Limit::parse_tc(&value()?)?),
            "--variant" => {
                variant = match value()?.as_str() {
                    "chess" => Variant::Chess,
                    "makromachy" => Variant::Makromachy,
                    v => return Err(format!("unknown variant '{v}' (chess or makromachy)")),
                }
            }
            "--games" => games = number(flag, &value()?, 1, 1_000_000)?,
            "--concurrency" => concurrency = number(flag, &value()?, 1, 64)?,
            "--openings-random" => opening_plies = number(flag, &value()?, 0, 200)?,
            "--seed" => seed = number(flag, &value()?, 0, u64::MAX)?,
            "--max-plies" => max_plies = number(flag, &value()?, 1, 100_000)?,
            "--margin" => margin_ms = number(flag, &value()?, 0, 60_000)?,
            "--grace" => grace_ms = number(flag, &value()?, 0, 600_000)?,
            "--hang-timeout" => hang_s = number(flag, &value()?, 1, 86_400)?,
            "--pgn" => pgn = Some(value()?),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    let mut specs = Vec::new();
    for s in 0..2 {
        let letter = ['a', 'b'][s];
        let command = commands[s]
            .take()
            .ok_or_else(|| format!("--engine-{letter} is required"))?;
        let limit = limits[s].or(tc).ok_or_else(|| {
            format!("engine {letter} has no limit: give --tc or --limit-{letter}")
        })?;
        specs.push(EngineSpec {
            command,
            name: names[s].take(),
            options: std::mem::take(&mut options[s]),
            limit,
        });
    }
    let engines: [EngineSpec; 2] = specs
        .try_into()
        .map_err(|_| "two engines are needed".to_string())?;
    Ok(MatchConfig {
        engines,
        variant,
        games,
        concurrency,
        opening_plies,
        seed,
        max_plies,
        margin: Duration::from_millis(margin_ms),
        grace: Duration::from_millis(grace_ms),
        hang_timeout: Duration::from_secs(hang_s),
        pgn,
    })
}

// ---------------------------------------------------------------------------------------------------------
// The referee's view of a game.

/// How a game ended by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: String,
}

/// [`crate::rules::Record`] as a [`Family`], so that one record of whichever game runs fits in a `ByGame`.
struct RecordOf;
impl Family for RecordOf {
    type Of<V: Known> = crate::rules::Record<V>;
}

/// A game being refereed by `crate::rules`: its moves and how it ended.
#[derive(Clone)]
struct Record(Box<ByGame<RecordOf>>);

impl Record {
    fn new(variant: Variant) -> Record {
        for_game!(variant, V => Record(Box::new(V::inject::<RecordOf>(crate::rules::Record::<V>::startpos()))))
    }

    fn side_to_move(&self) -> Color {
        by_game!(&*self.0, r, V => r.side_to_move())
    }

    /// The legal moves as text.
    fn legal_texts(&self) -> Vec<String> {
        by_game!(&*self.0, r, V => {
            let pos = r.position();
            V::legal_moves(pos)
                .into_iter()
                .map(|m| V::move_text(pos, m))
                .collect()
        })
    }

    /// Plays a move given as protocol text; its canonical text, or why it is not a legal move.
    fn play_text(&mut self, text: &str) -> Result<String, String> {
        by_game!(&mut *self.0, r, V => {
            let m = V::parse_move(r.position(), text).map_err(|e| e.to_string())?;
            let canonical = V::move_text(r.position(), m);
            r.play(m).map_err(|e| e.to_string())?;
            Ok(canonical)
        })
    }

    fn outcome(&self) -> Option<Ending> {
        let outcome = by_game!(&*self.0, r, V => r.outcome());
        outcome.map(|o| Ending {
            winner: o.winner,
            reason: o.termination.to_string(),
        })
    }
}

// ---------------------------------------------------------------------------------------------------------
// Clocks and forfeits.

/// Why a side lost by forfeit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forfeit {
    Time,
    /// An illegal or unreadable move (or no move where there are legal ones).
    Illegal,
    /// The engine exited, closed its output or could not be started.
    Crash,
    /// No answer long after its time.
    Hang,
}

impl Forfeit {
    pub const ALL: [Forfeit; 4] = [
        Forfeit::Time,
        Forfeit::Illegal,
        Forfeit::Crash,
        Forfeit::Hang,
    ];

    fn name(self) -> &'static str {
        match self {
            Forfeit::Time => "time",
            Forfeit::Illegal => "illegal",
            Forfeit::Crash => "crash",
            Forfeit::Hang => "hang",
        }
    }
}

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
}

impl Clock {
    pub fn new(base_ms: u64, inc_ms: u64) -> Clock {
        Clock {
            remaining: Duration::from_millis(base_ms),
            increment: Duration::from_millis(inc_ms),
        }
    }

    /// Charges a move that took `elapsed`: a time loss when it went more than `margin` past the clock;
    /// otherwise the time is taken off (never below zero: the margin is forgiven) and the increment added.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Result<(), Forfeit> {
        if elapsed > self.remaining + margin {
            return Err(Forfeit::Time);
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + self.increment;
        Ok(())
    }
}

/// How long a move may take before it loses on time (`None`: no time limit), given the mover's clock.
pub fn allowed_time(limit: Limit, clock: Option<&Clock>) -> Option<Duration> {
    match (limit, clock) {
        (Limit::Clock { .. }, Some(c)) => Some(c.remaining),
        (Limit::MoveTime(ms), _) => Some(Duration::from_millis(ms)),
        _ => None,
    }
}

/// When a silent engine is declared hung: its allowed time plus margin and grace, or the hang timeout when
/// it has no time limit.
pub fn hang_after(
    allowed: Option<Duration>,
    margin: Duration,
    grace: Duration,
    hang_timeout: Duration,
) -> Duration {
    allowed.map_or(hang_timeout, |a| a + margin + grace)
}

/// The `go` command for the side to move.
fn go_command(limit: Limit, clocks: &[Option<Clock>; 2], mover: Color) -> String {
    match limit {
        Limit::Depth(d) => format!("go depth {d}"),
        Limit::Nodes(n) => format!("go nodes {n}"),
        Limit::MoveTime(ms) => format!("go movetime {ms}"),
        Limit::Clock { .. } => {
            // A side without a clock (a depth-limited opponent) is shown the mover's clock.
            let own = clocks[mover.index()];
            let show = |c: Color| clocks[c.index()].or(own).unwrap_or(Clock::new(1000, 0));
            let (w, b) = (show(Color::White), show(Color::Black));
            format!(
                "go wtime {} btime {} winc {} binc {}",
                w.remaining.as_millis(),
                b.remaining.as_millis(),
                w.increment.as_millis(),
                b.increment.as_millis()
            )
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Engine processes.

/// A failure to talk to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
struct EngineFailure {
    kind: Forfeit,
    detail: String,
}

fn failure(kind: Forfeit, detail: impl Into<String>) -> EngineFailure {
    EngineFailure {
        kind,
        detail: detail.into(),
    }
}

/// A running engine: its process, its input, and its output lines (stamped when read) from a reader thread.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<(Instant, Option<String>)>,
    id_name: Option<String>,
}

/// An engine's answer to `go`.
struct Reply {
    text: Option<String>,
    elapsed: Duration,
    depth: Option<u32>,
    /// The search time the engine itself last reported (`info ... time N`), milliseconds.
    reported_ms: Option<u64>,
}

impl Engine {
    /// Starts the engine, does the `uci` handshake and sets the options.
    fn start(spec: &EngineSpec, variant: Variant) -> Result<Engine, EngineFailure> {
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
        let mut engine = Engine {
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
        if variant == Variant::Makromachy {
            engine.send("setoption name UCI_Variant value makromachy")?;
        }
        for (k, v) in &spec.options {
            engine.send(&format!("setoption name {k} value {v}"))?;
        }
        engine.sync()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| failure(Forfeit::Crash, format!("cannot write to the engine: {e}")))
    }

    /// The next output line, read before `deadline`.
    fn next_line(
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
    fn sync(&mut self) -> Result<(), EngineFailure> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.next_line(deadline, "readyok")?.1 != "readyok" {}
        Ok(())
    }

    /// Sends the position and `go`, and waits up to `hang` for `bestmove`. The time runs from the moment `go`
    /// was written to the moment the `bestmove` line was read.
    fn go(&mut self, position: &str, go: &str, hang: Duration) -> Result<Reply, EngineFailure> {
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
    fn quit(mut self) {
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

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------------------
// Games.

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules of the game.
    Rules(String),
    /// The ply cap was reached: adjudicated a draw.
    MaxPlies(usize),
    /// `engine` (0 = A, 1 = B) forfeited.
    Forfeit {
        engine: usize,
        kind: Forfeit,
        detail: String,
    },
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game number.
    pub index: usize,
    /// Does engine A have White?
    pub a_white: bool,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub termination: Termination,
    /// The moves as text, opening included.
    pub moves: Vec<String>,
    pub opening_plies: usize,
    pub duration: Duration,
    /// Per engine (A, B): moves played, their summed time and summed reported depth (moves with a depth).
    pub move_count: [u32; 2],
    pub move_time: [Duration; 2],
    pub depth_sum: [u64; 2],
    pub depth_count: [u32; 2],
    /// Per move after the opening: its time and reported depth (the PGN's move comments).
    pub notes: Vec<(Duration, Option<u32>)>,
}

impl GameRecord {
    /// A's score: 1, 0.5 or 0.
    pub fn score_a(&self) -> f64 {
        let a = if self.a_white {
            Color::White
        } else {
            Color::Black
        };
        match self.winner {
            None => 0.5,
            Some(w) if w == a => 1.0,
            Some(_) => 0.0,
        }
    }

    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The termination in words, with engine names for forfeits.
    pub fn reason(&self, names: &[String; 2]) -> String {
        match &self.termination {
            Termination::Rules(r) => r.clone(),
            Termination::MaxPlies(n) => format!("adjudicated draw: {n}-ply cap"),
            Termination::Forfeit {
                engine,
                kind,
                detail,
            } => format!("forfeit: {} {}: {detail}", names[*engine], kind.name()),
        }
    }
}

/// The per-game settings a worker needs.
struct GameSetup<'a> {
    config: &'a MatchConfig,
    index: usize,
    opening: &'a [String],
}

/// Makes sure engine `e` of the pair is running and ready for a new game.
fn ready(
    slot: &mut Option<Engine>,
    spec: &EngineSpec,
    variant: Variant,
) -> Result<(), EngineFailure> {
    match slot {
        Some(engine) => {
            let r = engine.send("ucinewgame").and_then(|_| engine.sync());
            if r.is_err() {
                *slot = None;
            }
            r
        }
        None => {
            *slot = Some(Engine::start(spec, variant)?);
            Ok(())
        }
    }
}

/// Plays one game with the worker's engines (`engines[0]` is A), restarting any that is missing.
fn play_game(setup: &GameSetup, engines: &mut [Option<Engine>; 2]) -> GameRecord {
    let config = setup.config;
    let started = Instant::now();
    let a_white = setup.index.is_multiple_of(2);
    let engine_of = |c: Color| usize::from((c == Color::White) != a_white);
    let mut record = GameRecord {
        index: setup.index,
        a_white,
        winner: None,
        termination: Termination::Rules(String::new()),
        moves: Vec::new(),
        opening_plies: setup.opening.len(),
        duration: Duration::ZERO,
        move_count: [0; 2],
        move_time: [Duration::ZERO; 2],
        depth_sum: [0; 2],
        depth_count: [0; 2],
        notes: Vec::new(),
    };
    let mut game = Record::new(config.variant);
    for text in setup.opening {
        // The openings were made by playing these very moves, so this cannot fail.
        if let Ok(t) = game.play_text(text) {
            record.moves.push(t);
        }
    }
    let forfeit = |record: &mut GameRecord, engine: usize, f: EngineFailure, a_white: bool| {
        let a_color = if a_white { Color::White } else { Color::Black };
        let loser = if engine == 0 { a_color } else { a_color.flip() };
        record.winner = Some(loser.flip());
        record.termination = Termination::Forfeit {
            engine,
            kind: f.kind,
            detail: f.detail,
        };
    };
    for (e, (slot, spec)) in engines.iter_mut().zip(&config.engines).enumerate() {
        if let Err(f) = ready(slot, spec, config.variant) {
            forfeit(&mut record, e, f, a_white);
            record.duration = started.elapsed();
            return record;
        }
    }
    let mut clocks: [Option<Clock>; 2] = [None, None];
    for c in [Color::White, Color::Black] {
        if let Limit::Clock { base_ms, inc_ms } = config.engines[engine_of(c)].limit {
            clocks[c.index()] = Some(Clock::new(base_ms, inc_ms));
        }
    }
    loop {
        if let Some(end) = game.outcome() {
            record.winner = end.winner;
            record.termination = Termination::Rules(end.reason);
            break;
        }
        if record.moves.len() >= config.max_plies {
            record.termination = Termination::MaxPlies(config.max_plies);
            break;
        }
        let mover = game.side_to_move();
        let e = engine_of(mover);
        let limit = config.engines[e].limit;
        let allowed = allowed_time(limit, clocks[mover.index()].as_ref());
        let hang = hang_after(allowed, config.margin, config.grace, config.hang_timeout);
        let position = if record.moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", record.moves.join(" "))
        };
        let go = go_command(limit, &clocks, mover);
        let Some(engine) = engines[e].as_mut() else {
            forfeit(
                &mut record,
                e,
                failure(Forfeit::Crash, "engine missing"),
                a_white,
            );
            break;
        };
        let reply = match engine.go(&position, &go, hang) {
            Ok(r) => r,
            Err(f) => {
                engines[e] = None;
                forfeit(&mut record, e, f, a_white);
                break;
            }
        };
        let played = match reply.text.as_deref() {
            None => Err("bestmove without a move".to_string()),
            Some(text) => game
                .play_text(text)
                .map_err(|err| format!("'{text}': {err}")),
        };
        let text = match played {
            Ok(t) => t,
            Err(detail) => {
                engines[e] = None;
                forfeit(&mut record, e, failure(Forfeit::Illegal, detail), a_white);
                break;
            }
        };
        record.move_count[e] += 1;
        record.move_time[e] += reply.elapsed;
        if let Some(d) = reply.depth {
            record.depth_sum[e] += u64::from(d);
            record.depth_count[e] += 1;
        }
        // Over its clock, or over a fixed time per move: the move came, so the engine is sane, but it is
        // restarted like any forfeiter.
        let overrun = if let Some(clock) = clocks[mover.index()].as_mut() {
            let before = clock.remaining;
            clock
                .charge(reply.elapsed, config.margin)
                .is_err()
                .then(|| format!("with {:.3} s left", before.as_secs_f64()))
        } else if let (Some(a), Limit::MoveTime(_)) = (allowed, limit) {
            (reply.elapsed > a + config.margin).then(|| format!("of {:.3} s", a.as_secs_f64()))
        } else {
            None
        };
        if let Some(budget) = overrun {
            engines[e] = None;
            let detail = format!(
                "{text} took {:.3} s {budget}{}",
                reply.elapsed.as_secs_f64(),
                reported(reply.reported_ms)
            );
            forfeit(&mut record, e, failure(Forfeit::Time, detail), a_white);
            break;
        }
        record.notes.push((reply.elapsed, reply.depth));
        record.moves.push(text);
    }
    record.duration = started.elapsed();
    record
}

/// The engine's own idea of its search time, for a time-loss report: a large gap to the measured time means
/// the engine was not scheduled (a loaded machine) or stopped late.
fn reported(ms: Option<u64>) -> String {
    ms.map_or(String::new(), |t| format!(" (engine reported time {t} ms)"))
}

/// A small xorshift generator: the openings are the same for the same seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        // Never zero (xorshift's fixed point), and distinct seeds spread apart.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// `pairs` openings of `plies` random legal plies each, none of them a finished game.
pub fn random_openings(
    variant: Variant,
    plies: usize,
    pairs: usize,
    seed: u64,
) -> Vec<Vec<String>> {
    let mut rng = Rng::new(seed);
    (0..pairs)
        .map(|_| {
            // A random line that ends the game is thrown away; after many tries, a shorter one is kept.
            let mut best = Vec::new();
            for _ in 0..100 {
                let mut game = Record::new(variant);
                let mut line = Vec::new();
                while line.len() < plies && game.outcome().is_none() {
                    let moves = game.legal_texts();
                    let pick = moves[rng.below(moves.len())].clone();
                    match game.play_text(&pick) {
                        Ok(t) => line.push(t),
                        Err(_) => break,
                    }
                }
                if game.outcome().is_some() {
                    line.pop();
                }
                let done = line.len() == plies;
                if line.len() > best.len() || best.is_empty() {
                    best = line;
                }
                if done {
                    break;
                }
            }
            best
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------------------
// Results.

/// The running score from A's point of view, and the forfeits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Forfeits per engine (A, B) and reason (in `Forfeit::ALL` order).
    pub forfeits: [[u32; 4]; 2],
    pub capped: u32,
    /// Games per rules termination, in first-seen order.
    pub terminations: Vec<(String, u32)>,
}

impl Tally {
    pub fn add(&mut self, game: &GameRecord) {
        let s = game.score_a();
        if s > 0.75 {
            self.wins += 1;
        } else if s < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        match &game.termination {
            Termination::Rules(r) => match self.terminations.iter_mut().find(|(t, _)| t == r) {
                Some((_, n)) => *n += 1,
                None => self.terminations.push((r.clone(), 1)),
            },
            Termination::MaxPlies(_) => self.capped += 1,
            Termination::Forfeit { engine, kind, .. } => {
                let k = Forfeit::ALL.iter().position(|f| f == kind).unwrap_or(0);
                self.forfeits[*engine][k] += 1;
            }
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score, 0 to 1.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    pub fn total_forfeits(&self) -> u32 {
        self.forfeits.iter().flatten().sum()
    }

    /// Elo difference (A minus B) and its 95% interval, from the per-game scores (normal approximation). When
    /// every game had the same result the variance is zero; the bound is then the exact binomial one
    /// (`0.025^(1/n)`) on the missing side, and the estimate itself is infinite.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let m = self.score();
        let var = (f64::from(self.wins) * (1.0 - m).powi(2)
            + f64::from(self.draws) * (0.5 - m).powi(2)
            + f64::from(self.losses) * m.powi(2))
            / n;
        let se = (var / n).sqrt();
        let (mut lo, mut hi) = (m - 1.959964 * se, m + 1.959964 * se);
        if var == 0.0 {
            let p = 0.025f64.powf(1.0 / n);
            if m == 1.0 {
                lo = p;
            } else if m == 0.0 {
                hi = 1.0 - p;
            }
        }
        (elo(m), elo(lo), elo(hi))
    }
}

/// The Elo difference of an expected score (infinite at 0 and 1).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

fn fmt_elo(e: f64) -> String {
    if e.is_finite() {
        // Rounded first, so an even score never prints as -0.0.
        let r = (e * 10.0).round() / 10.0 + 0.0;
        format!("{r:+.1}")
    } else if e > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// One finished game as a PGN-like record (moves in the protocol's text).
fn pgn_text(config: &MatchConfig, names: &[String; 2], g: &GameRecord) -> String {
    let (white, black) = if g.a_white {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    };
    let limit_of = |e: usize| config.engines[e].limit.to_string();
    let (wl, bl) = if g.a_white {
        (limit_of(0), limit_of(1))
    } else {
        (limit_of(1), limit_of(0))
    };
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = String::new();
    let tags = [
        ("Event", "corvid match".to_string()),
        ("Round", (g.index + 1).to_string()),
        ("White", white.clone()),
        ("Black", black.clone()),
        ("Result", g.result_str().to_string()),
        ("Variant", config.variant.name().to_string()),
        ("WhiteLimit", wl),
        ("BlackLimit", bl),
        ("Termination", g.reason(names)),
        ("PlyCount", g.moves.len().to_string()),
        ("OpeningPlies", g.opening_plies.to_string()),
    ];
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", esc(&v)));
    }
    out.push('\n');
    let mut line = String::new();
    let mut words: Vec<String> = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        if i % 2 == 0 {
            words.push(format!("{}.", i / 2 + 1));
        }
        words.push(m.clone());
        if let Some((t, d)) = i.checked_sub(g.opening_plies).and_then(|k| g.notes.get(k)) {
            let depth = d.map_or(String::new(), |d| format!("d{d} "));
            words.push(format!("{{{depth}{:.3}s}}", t.as_secs_f64()));
        }
        if i + 1 == g.opening_plies {
            words.push("{end of opening}".to_string());
        }
    }
    words.push(g.result_str().to_string());
    for w in words {
        if !line.is_empty() && line.len() + w.len() >= 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The final summary.
pub fn summary(
    config: &MatchConfig,
    names: &[String; 2],
    tally: &Tally,
    games: &[GameRecord],
) -> String {
    let mut out = String::new();
    let n = tally.games();
    out.push_str(&format!(
        "=== {} (A, {}) vs {} (B, {}): {} games, {}\n",
        names[0],
        config.engines[0].limit,
        names[1],
        config.engines[1].limit,
        n,
        config.variant.name()
    ));
    out.push_str(&format!(
        "A: W {}  D {}  L {}   score {:.1}%\n",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score()
    ));
    let (e, lo, hi) = tally.elo();
    out.push_str(&format!(
        "Elo {}  95% [{}, {}]\n",
        fmt_elo(e),
        fmt_elo(lo),
        fmt_elo(hi)
    ));
    let terms: Vec<String> = tally
        .terminations
        .iter()
        .map(|(t, k)| format!("{t} x{k}"))
        .collect();
    out.push_str(&format!(
        "Endings: {}; ply cap x{}\n",
        if terms.is_empty() {
            "none".to_string()
        } else {
            terms.join(", ")
        },
        tally.capped
    ));
    let by_reason: Vec<String> = Forfeit::ALL
        .iter()
        .enumerate()
        .map(|(k, f)| {
            format!(
                "{}={} (A {}, B {})",
                f.name(),
                tally.forfeits[0][k] + tally.forfeits[1][k],
                tally.forfeits[0][k],
                tally.forfeits[1][k]
            )
        })
        .collect();
    out.push_str(&format!(
        "Forfeits: {}  {}\n",
        tally.total_forfeits(),
        by_reason.join(" ")
    ));
    for e in 0..2 {
        let moves: u32 = games.iter().map(|g| g.move_count[e]).sum();
        let time: Duration = games.iter().map(|g| g.move_time[e]).sum();
        let dsum: u64 = games.iter().map(|g| g.depth_sum[e]).sum();
        let dcount: u32 = games.iter().map(|g| g.depth_count[e]).sum();
        out.push_str(&format!(
            "{}: {} moves, {:.3} s/move, average depth {:.1}\n",
            ["A", "B"][e],
            moves,
            time.as_secs_f64() / f64::from(moves.max(1)),
            dsum as f64 / f64::from(dcount.max(1))
        ));
    }
    if !games.is_empty() {
        let total: Duration = games.iter().map(|g| g.duration).sum();
        let plies: usize = games.iter().map(|g| g.moves.len()).sum();
        let longest = games.iter().map(|g| g.duration).max().unwrap_or_default();
        out.push_str(&format!(
            "Games: {:.1} s and {:.0} plies on average, longest {:.1} s\n",
            total.as_secs_f64() / games.len() as f64,
            plies as f64 / games.len() as f64,
            longest.as_secs_f64()
        ));
    }
    out
}

/// Runs the match, printing a line per game and the summary to `out`. Returns the tally.
pub fn run(config: &MatchConfig, out: &mut dyn Write) -> Result<Tally, String> {
    // Names first, from a trial start of each engine: it also fails early on a command that cannot work.
    let mut names: [String; 2] = [String::new(), String::new()];
    for e in 0..2 {
        let spec = &config.engines[e];
        names[e] = match &spec.name {
            Some(n) => n.clone(),
            None => {
                let engine = Engine::start(spec, config.variant).map_err(|f| {
                    format!(
                        "engine {} ({}) cannot play: {}",
                        ["A", "B"][e],
                        spec.command.join(" "),
                        f.detail
                    )
                })?;
                let name = engine.id_name.clone();
                engine.quit();
                name.unwrap_or_else(|| spec.command[0].clone())
            }
        };
    }
    if names[0] == names[1] {
        names[0].push_str(" A");
        names[1].push_str(" B");
    }
    let pairs = config.games.div_ceil(2);
    let openings = random_openings(config.variant, config.opening_plies, pairs, config.seed);
    let mut pgn = match &config.pgn {
        Some(path) => {
            Some(std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?)
        }
        None => None,
    };
    let _ = writeln!(
        out,
        "{} games of {}, concurrency {}, A: {}, B: {}, openings: {} random plies (seed {})",
        config.games,
        config.variant.name(),
        config.concurrency,
        config.engines[0].limit,
        config.engines[1].limit,
        config.opening_plies,
        config.seed
    );
    let _ = out.flush();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let mut tally = Tally::default();
    let mut games = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(config.games) {
            let tx = tx.clone();
            let (next, openings) = (&next, &openings);
            scope.spawn(move || {
                let mut engines: [Option<Engine>; 2] = [None, None];
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= config.games {
                        break;
                    }
                    let setup = GameSetup {
                        config,
                        index,
                        opening: openings.get(index / 2).map_or(&[][..], |o| &o[..]),
                    };
                    let record = play_game(&setup, &mut engines);
                    if tx.send(record).is_err() {
                        break;
                    }
                }
                for engine in engines.into_iter().flatten() {
                    engine.quit();
                }
            });
        }
        drop(tx);
        for record in rx {
            tally.add(&record);
            let (w, b) = if record.a_white {
                (&names[0], &names[1])
            } else {
                (&names[1], &names[0])
            };
            let _ = writeln!(
                out,
                "[{}/{}] #{} {w} vs {b}: {} ({}) plies={} time={:.1}s | A: +{} ={} -{}",
                tally.games(),
                config.games,
                record.index + 1,
                record.result_str(),
                record.reason(&names),
                record.moves.len(),
                record.duration.as_secs_f64(),
                tally.wins,
                tally.draws,
                tally.losses
            );
            let _ = out.flush();
            if let Some(file) = pgn.as_mut() {
                let _ = file.write_all(pgn_text(config, &names, &record).as_bytes());
            }
            games.push(record);
        }
    });
    let _ = write!(out, "\n{}", summary(config, &names, &tally, &games));
    if let Some(path) = &config.pgn {
        let _ = writeln!(out, "PGN: {path}");
    }
    let _ = out.flush();
    Ok(tally)
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn clock_takes_time_off_and_adds_the_increment() {
        let mut c = Clock::new(1000, 100);
        assert_eq!(c.charge(ms(300), ms(50)), Ok(()));
        assert_eq!(c.remaining, ms(800));
        // Inside the margin: the clock is emptied, not negative, and the increment still comes.
        assert_eq!(c.charge(ms(830), ms(50)), Ok(()));
        assert_eq!(c.remaining, ms(100));
        // Past the margin: a time loss, and the clock is left as it was.
        assert_eq!(c.charge(ms(151), ms(50)), Err(Forfeit::Time));
        assert_eq!(c.remaining, ms(100));
    }

    #[test]
    fn hang_deadlines_follow_the_limit() {
        let clock = Clock::new(2000, 0);
        let tc = Limit::Clock {
            base_ms: 2000,
            inc_ms: 0,
        };
        assert_eq!(allowed_time(tc, Some(&clock)), Some(ms(2000)));
        assert_eq!(allowed_time(Limit::MoveTime(300), None), Some(ms(300)));
        assert_eq!(allowed_time(Limit::Depth(3), None), None);
        assert_eq!(
            hang_after(Some(ms(2000)), ms(50), ms(1000), ms(60_000)),
            ms(3050)
        );
        assert_eq!(hang_after(None, ms(50), ms(1000), ms(60_000)), ms(60_000));
    }

    #[test]
    fn go_shows_both_clocks_and_a_clockless_opponent_the_movers() {
        let clocks = [Some(Clock::new(5000, 100)), None];
        let tc = Limit::Clock {
            base_ms: 5000,
            inc_ms: 100,
        };
        assert_eq!(
            go_command(tc, &clocks, Color::White),
            "go wtime 5000 btime 5000 winc 100 binc 100"
        );
        let clocks = [Some(Clock::new(5000, 100)), Some(Clock::new(700, 0))];
        assert_eq!(
            go_command(tc, &clocks, Color::Black),
            "go wtime 5000 btime 700 winc 100 binc 0"
        );
        assert_eq!(
            go_command(Limit::Depth(2), &clocks, Color::White),
            "go depth 2"
        );
    }

    #[test]
    fn limits_and_commands_parse() {
        assert_eq!(
            Limit::parse_tc("10+0.1"),
            Ok(Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(Limit::parse("depth=2"), Ok(Limit::Depth(2)));
        assert_eq!(Limit::parse("movetime=250"), Ok(Limit::MoveTime(250)));
        assert!(Limit::parse("depth=0").is_err());
        assert!(Limit::parse_tc("0+1").is_err());
        assert!(Limit::parse("speed=9").is_err());
        assert_eq!(
            split_command(r#"./corvid --x 'a b' "c \"d\"" e\ f"#),
            Ok(vec![
                "./corvid".to_string(),
                "--x".to_string(),
                "a b".to_string(),
                "c \"d\"".to_string(),
                "e f".to_string()
            ])
        );
        assert!(split_command("'open").is_err());
        assert!(split_command("  ").is_err());
    }

    #[test]
    fn arguments_need_engines_and_limits() {
        let args = |s: &str| split_command(s).unwrap();
        let c = parse_args(&args(
            "--engine-a x --engine-b 'y z' --tc 2+0.05 --limit-b depth=2 --opt-a Hash=8 --variant makromachy",
        ))
        .unwrap();
        assert_eq!(
            c.engines[0].limit,
            Limit::Clock {
                base_ms: 2000,
                inc_ms: 50
            }
        );
        assert_eq!(c.engines[1].limit, Limit::Depth(2));
        assert_eq!(c.engines[1].command, vec!["y", "z"]);
        assert_eq!(c.engines[0].options, vec![("Hash".into(), "8".into())]);
        assert_eq!(c.variant, Variant::Makromachy);
        assert!(parse_args(&args("--engine-a x --engine-b y")).is_err());
        assert!(parse_args(&args("--engine-a x --tc 1")).is_err());
        assert!(parse_args(&args("--engine-a x --engine-b y --tc 1 --games")).is_err());
    }

    fn game(a_white: bool, winner: Option<Color>, termination: Termination) -> GameRecord {
        GameRecord {
            index: 0,
            a_white,
            winner,
            termination,
            moves: Vec::new(),
            opening_plies: 0,
            duration: Duration::ZERO,
            move_count: [0; 2],
            move_time: [Duration::ZERO; 2],
            depth_sum: [0; 2],
            depth_count: [0; 2],
            notes: Vec::new(),
        }
    }

    #[test]
    fn tally_counts_from_a_side() {
        let mate = || Termination::Rules("checkmate".into());
        let mut t = Tally::default();
        t.add(&game(true, Some(Color::White), mate()));
        t.add(&game(false, Some(Color::White), mate()));
        t.add(&game(false, Some(Color::Black), mate()));
        t.add(&game(true, None, Termination::MaxPlies(10)));
        t.add(&game(
            true,
            Some(Color::Black),
            Termination::Forfeit {
                engine: 0,
                kind: Forfeit::Illegal,
                detail: String::new(),
            },
        ));
        t.add(&game(
            false,
            Some(Color::Black),
            Termination::Forfeit {
                engine: 1,
                kind: Forfeit::Hang,
                detail: String::new(),
            },
        ));
        assert_eq!((t.wins, t.draws, t.losses), (3, 1, 2));
        assert_eq!(t.games(), 6);
        assert_eq!(t.capped, 1);
        assert_eq!(t.forfeits, [[0, 1, 0, 0], [0, 0, 0, 1]]);
        assert_eq!(t.total_forfeits(), 2);
        assert_eq!(t.terminations, vec![("checkmate".to_string(), 3)]);
        assert!((t.score() - 3.5 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn elo_interval_surrounds_the_estimate() {
        let t = Tally {
            wins: 30,
            draws: 10,
            losses: 10,
            ..Default::default()
        };
        let (e, lo, hi) = t.elo();
        // 70% is +147 Elo.
        assert!((e - 147.2).abs() < 0.1, "{e}");
        assert!(lo < e && e < hi && lo > 0.0, "{lo} {hi}");
        let even = Tally {
            wins: 5,
            draws: 0,
            losses: 5,
            ..Default::default()
        };
        let (e, lo, hi) = even.elo();
        assert!(e.abs() < 1e-9 && (lo + hi).abs() < 1e-6);
        // All won: infinite estimate, finite positive lower bound (0.025^(1/20) = 83.2% is +276 Elo).
        let sweep = Tally {
            wins: 20,
            ..Default::default()
        };
        let (e, lo, _) = sweep.elo();
        assert!(e.is_infinite() && (lo - 276.0).abs() < 2.0, "{lo}");
    }

    #[test]
    fn makromachy_referee_sees_checkmate_and_repetition() {
        // A quick mate from a depth-1 trial game (Corvid's search agrees: `score mate 0`).
        let mut r = Record::new(Variant::Makromachy);
        for t in ["g4g6", "g11g8", "e4e6", "m11m8", "h3m8", "a11a8"] {
            r.play_text(t).unwrap();
            assert_eq!(r.outcome(), None, "{t}");
        }
        r.play_text("m8n9").unwrap();
        assert_eq!(
            r.outcome(),
            Some(Ending {
                winner: Some(Color::White),
                reason: "checkmate".into()
            })
        );
        assert!(r.play_text("a1a1").is_err());
        // A repetition ends the game too: Kings shuffling beside a Pawn, the third occurrence.
        let mut g = crate::rules::MakroRecord::new(
            crate::makro::Position::from_fen(
                "13k/14/14/14/14/14/14/14/14/14/14/14/P13/K13 w - - 0 1",
            )
            .unwrap(),
        );
        for t in ["a1b1", "n14m14", "b1a1", "m14n14", "a1b1", "n14m14", "b1a1"] {
            g.play_text(t).unwrap();
        }
        let mut r = Record(Box::new(ByGame::Makromachy(g)));
        assert_eq!(r.outcome(), None);
        r.play_text("m14n14").unwrap();
        assert_eq!(
            r.outcome(),
            Some(Ending {
                winner: None,
                reason: "threefold repetition".into()
            })
        );
    }

    #[test]
    fn random_openings_are_seeded_and_legal() {
        let a = random_openings(Variant::Makromachy, 6, 3, 7);
        assert_eq!(a, random_openings(Variant::Makromachy, 6, 3, 7));
        assert_ne!(a, random_openings(Variant::Makromachy, 6, 3, 8));
        for line in &a {
            assert_eq!(line.len(), 6);
            let mut r = Record::new(Variant::Makromachy);
            for m in line {
                assert!(r.play_text(m).is_ok(), "{m}");
            }
        }
        let c = random_openings(Variant::Chess, 4, 2, 1);
        assert!(c.iter().all(|l| l.len() == 4));
    }
}
