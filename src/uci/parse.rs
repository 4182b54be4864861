//! Reading UCI commands: every malformed line becomes a [`UciError`], never a panic.
//!
//! Bad numbers and `setoption` without `name` are errors rather than being skipped, so a typo is reported
//! instead of silently doing the wrong thing. A `go` is the exception: the GUI waits for its `bestmove`, and an
//! engine that answers nothing loses on time, so a malformed part of a `go` is reported, left out (or a number
//! out of range brought into it) and the search runs with the rest. Negative clock values (some GUIs send them
//! when a flag falls) count as zero.

use crate::search::Limits;
use std::fmt;

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
        /// What was wrong with the line and what the search does instead (the session reports each).
        ignored: Vec<String>,
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

/// `go` with any of its keywords, or `go perft N`. Only `go perft` can fail; any other malformed part is left
/// out of the limits and said in `ignored` (see the module's comment).
fn parse_go(rest: &[&str]) -> Result<Command, UciError> {
    if let Some((&"perft", args)) = rest.split_first() {
        return Ok(Command::Perft(parse_perft_depth(args)?));
    }
    let is_keyword = |t: &&str| GO_KEYWORDS.contains(t);
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut ignored = Vec::new();
    let mut i = 0;
    while let Some(&tok) = rest.get(i) {
        i += 1;
        let keyword = match GO_KEYWORDS.iter().find(|&&k| k == tok && k != "perft") {
            Some(&k) => k,
            None => {
                // The word and whatever follows it up to the next keyword: "depht 5" leaves out the 5 too.
                let from = i - 1;
                while rest.get(i).is_some_and(|t| !is_keyword(t)) {
                    i += 1;
                }
                ignored.push(format!(
                    "go: unexpected '{}'; left out",
                    rest[from..i].join(" ")
                ));
                continue;
            }
        };
        match keyword {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while let Some(&m) = rest.get(i).filter(|t| !is_keyword(t)) {
                    searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            _ => {
                let Some(&value) = rest.get(i).filter(|t| !is_keyword(t)) else {
                    ignored.push(format!("go: missing a value after {keyword}; left out"));
                    continue;
                };
                i += 1;
                if let Err(e) = set_go_limit(&mut limits, keyword, value) {
                    ignored.push(e);
                }
            }
        }
    }
    Ok(Command::Go {
        limits,
        searchmoves,
        ignored,
    })
}

/// Sets `keyword`'s limit from `value`. A number beyond its range is brought into it (depth 0 searches depth
/// 1), except `movestogo` below 1, which is left out (moves to go of 1 would spend the whole clock); the `Err`
/// says what was done.
fn set_go_limit(limits: &mut Limits, keyword: &'static str, value: &str) -> Result<(), String> {
    let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
    let n: i128 = match value.parse() {
        Ok(n) => n,
        // Too many digits for any limit: the farthest one.
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            if value.starts_with('-') {
                i128::MIN
            } else {
                i128::MAX
            }
        }
        Err(_) => return Err(format!("go: bad value '{value}' for {keyword}; left out")),
    };
    if keyword == "movestogo" && n < 1 {
        return Err(format!(
            "go: movestogo {value} is not a number of moves; left out"
        ));
    }
    let (min, max) = match keyword {
        "depth" | "mate" => (1, MAX_DEPTH as i128),
        "nodes" => (1, u64::MAX as i128),
        "movestogo" => (1, u32::MAX as i128),
        _ => (0, u64::MAX as i128),
    };
    let v = n.clamp(min, max);
    match keyword {
        "wtime" => limits.wtime = Some(v as u64),
        "btime" => limits.btime = Some(v as u64),
        "winc" => limits.winc = Some(v as u64),
        "binc" => limits.binc = Some(v as u64),
        "movetime" => limits.movetime = Some(v as u64),
        "movestogo" => limits.movestogo = Some(v as u32),
        "depth" => limits.depth = Some(v as u32),
        "nodes" => limits.nodes = Some(v as u64),
        _ => limits.mate = Some(v as u32),
    }
    // A negative clock counts as zero without a word (see the module's comment).
    if v != n && min > 0 {
        return Err(format!(
            "go: {keyword} {value} is out of range; searching with {v}"
        ));
    }
    Ok(())
}
