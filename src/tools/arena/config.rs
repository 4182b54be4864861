//! The match settings: engines, limits, the variant, and reading them from the command line.

use std::fmt;
use std::time::Duration;

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
pub(super) const HANDSHAKE: Duration = Duration::from_secs(10);

/// Which game is played: the one [`GameKind`] every front end names games by.
pub(super) use crate::game::GameKind;

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
    pub variant: GameKind,
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

/// Splits an engine's command line into words as a POSIX shell does (quotes, backslashes), by `shlex`.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let words = shlex::split(text)
        .ok_or_else(|| format!("unclosed quote or trailing backslash in '{text}'"))?;
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
    let mut variant = GameKind::Chess;
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
                    "chess" => GameKind::Chess,
                    "makromachy" => GameKind::Makromachy,
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
