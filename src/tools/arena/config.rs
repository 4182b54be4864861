//! The match settings: engines, limits, the variant, and the value parsers the command line (`cli.rs`) uses.

use std::fmt;
use std::time::Duration;

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
