//! Reading CECP commands: typed commands and errors; nothing here panics on bad input.

use std::fmt;

/// A time control set by `level`: moves per session (0: the whole game), base time and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub moves: u32,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// One parsed CECP command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Xboard,
    Protover(u32),
    /// `accepted`/`rejected` feature replies, `random`, `name`, `ics`, `nps`: understood, nothing to do.
    Ignored,
    /// `computer`: the opponent is an engine (XBoard sends it in engine-engine games, where it checks win and
    /// draw claims against its own idea of the rules).
    Computer,
    /// `analyze`: search the current position until told otherwise, playing nothing.
    Analyze,
    /// `exit`: leave analysis mode.
    Exit,
    /// `.`: a status line of the running analysis.
    Stat,
    /// `hint`: the move Corvid expects or suggests.
    Hint,
    /// `bk`: the book moves of the position (Corvid has no book).
    Book,
    New,
    Variant(String),
    Force,
    Go,
    PlayOther,
    Level(Level),
    /// `st`: exactly this long per move.
    St(u64),
    /// `sd`: depth limit.
    Sd(u32),
    /// `time`: Corvid's clock, ms (negative counts as zero).
    Time(u64),
    /// `otim`: the opponent's clock, ms.
    Otim(u64),
    /// `usermove m`, or a bare move.
    UserMove(String),
    /// `?`: move now.
    MoveNow,
    Ping(String),
    /// The opponent offers a draw.
    Draw,
    /// The game ended (by the GUI's judgement).
    Result {
        result: String,
        comment: String,
    },
    SetBoard(String),
    Undo,
    Remove,
    /// `hard`/`easy`: pondering on or off (Corvid does not ponder in CECP; accepted).
    Ponder(bool),
    /// `post`/`nopost`: thinking output on or off.
    Post(bool),
    Memory(u64),
    Cores(u64),
    /// `rating OWN OPPONENT`: the players' ratings (0 when unknown); Corvid's contempt follows the opponent's.
    Rating {
        own: i32,
        opponent: i32,
    },
    /// `egtpath KIND PATH`: where endgame tables of one kind are (Corvid reads `syzygy`).
    EgtPath {
        kind: String,
        path: String,
    },
    Option {
        name: String,
        value: Option<String>,
    },
    Quit,
}

/// Why a line is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XboardError {
    UnknownCommand(String),
    /// A command without the argument it needs, or with one that does not parse.
    BadArgument {
        command: &'static str,
        text: String,
    },
}

impl fmt::Display for XboardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XboardError::UnknownCommand(c) => write!(f, "Error (unknown command): {c}"),
            XboardError::BadArgument { command, text } => {
                write!(f, "Error (bad argument for {command}): {text}")
            }
        }
    }
}

impl std::error::Error for XboardError {}

/// Parses one input line. `Ok(None)` for a blank line.
pub fn parse_command(line: &str) -> Result<Option<Command>, XboardError> {
    let line = line.trim();
    let (head, rest) = match line.split_once(char::is_whitespace) {
        Some((h, r)) => (h, r.trim()),
        None => (line, ""),
    };
    if head.is_empty() {
        return Ok(None);
    }
    let bad = |command: &'static str| XboardError::BadArgument {
        command,
        text: line.to_string(),
    };
    let cmd = match head {
        "xboard" => Command::Xboard,
        "protover" => Command::Protover(rest.parse().map_err(|_| bad("protover"))?),
        "accepted" | "rejected" | "random" | "name" | "ics" | "nps" => Command::Ignored,
        "computer" => Command::Computer,
        "analyze" => Command::Analyze,
        "exit" => Command::Exit,
        "." => Command::Stat,
        "hint" => Command::Hint,
        "bk" => Command::Book,
        "new" => Command::New,
        "variant" if !rest.is_empty() => Command::Variant(rest.to_string()),
        "variant" => return Err(bad("variant")),
        "force" => Command::Force,
        "go" => Command::Go,
        "playother" => Command::PlayOther,
        "level" => Command::Level(parse_level(rest).ok_or_else(|| bad("level"))?),
        "st" => Command::St(seconds_ms(rest).ok_or_else(|| bad("st"))?),
        "sd" => Command::Sd(
            rest.parse::<u32>()
                .ok()
                .filter(|d| (1..=255).contains(d))
                .ok_or_else(|| bad("sd"))?,
        ),
        "time" => Command::Time(centis_ms(rest).ok_or_else(|| bad("time"))?),
        "otim" => Command::Otim(centis_ms(rest).ok_or_else(|| bad("otim"))?),
        "usermove" if !rest.is_empty() => Command::UserMove(rest.to_string()),
        "usermove" => return Err(bad("usermove")),
        "?" => Command::MoveNow,
        "ping" => Command::Ping(rest.to_string()),
        "draw" => Command::Draw,
        "result" => {
            let (result, comment) = match rest.split_once(char::is_whitespace) {
                Some((r, c)) => (r, c.trim()),
                None => (rest, ""),
            };
            if !["1-0", "0-1", "1/2-1/2", "*"].contains(&result) {
                return Err(bad("result"));
            }
            Command::Result {
                result: result.to_string(),
                comment: comment.to_string(),
            }
        }
        "setboard" if !rest.is_empty() => Command::SetBoard(rest.to_string()),
        "setboard" => return Err(bad("setboard")),
        "undo" => Command::Undo,
        "remove" => Command::Remove,
        "hard" => Command::Ponder(true),
        "easy" => Command::Ponder(false),
        "post" => Command::Post(true),
        "nopost" => Command::Post(false),
        "memory" => Command::Memory(rest.parse().map_err(|_| bad("memory"))?),
        "cores" => Command::Cores(rest.parse().map_err(|_| bad("cores"))?),
        "option" if !rest.is_empty() => match rest.split_once('=') {
            Some((n, v)) => Command::Option {
                name: n.trim().to_string(),
                value: Some(v.trim().to_string()),
            },
            None => Command::Option {
                name: rest.to_string(),
                value: None,
            },
        },
        "option" => return Err(bad("option")),
        "rating" => match rest.split_whitespace().collect::<Vec<_>>()[..] {
            [own, opponent] => Command::Rating {
                own: own.parse().map_err(|_| bad("rating"))?,
                opponent: opponent.parse().map_err(|_| bad("rating"))?,
            },
            _ => return Err(bad("rating")),
        },
        "egtpath" => match rest.split_once(' ') {
            Some((kind, path)) if !path.trim().is_empty() => Command::EgtPath {
                kind: kind.to_string(),
                path: path.trim().to_string(),
            },
            _ => return Err(bad("egtpath")),
        },
        "quit" => Command::Quit,
        // A bare move (protocol version 1 style, or a GUI that ignores usermove=1).
        _ if rest.is_empty() && looks_like_move(head) => Command::UserMove(head.to_string()),
        _ => return Err(XboardError::UnknownCommand(line.to_string())),
    };
    Ok(Some(cmd))
}

/// Coordinate moves (`e2e4`, `e7e8q`, Makromachy's `h10h12` and `g2h3,h3i4`) and castling (`O-O`): what a
/// GUI sends without `usermove`.
fn looks_like_move(t: &str) -> bool {
    // One leg: file, one or two rank digits, file, one or two rank digits, an optional promotion letter.
    fn leg(l: &str) -> bool {
        let b = l.as_bytes();
        let mut i = 0;
        for _ in 0..2 {
            if !b.get(i).is_some_and(u8::is_ascii_lowercase) {
                return false;
            }
            i += 1;
            let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if !(1..=2).contains(&digits) {
                return false;
            }
            i += digits;
        }
        b.len() == i || (b.len() == i + 1 && b[i].is_ascii_alphabetic())
    }
    let coord = t.len() <= 16 && t.split(',').count() <= 2 && t.split(',').all(leg);
    coord || matches!(t, "O-O" | "O-O-O" | "o-o" | "o-o-o" | "0-0" | "0-0-0")
}

/// `level MPS BASE INC`: BASE in minutes or `minutes:seconds`, INC in seconds (fractions allowed).
pub fn parse_level(rest: &str) -> Option<Level> {
    let t: Vec<&str> = rest.split_whitespace().collect();
    let [mps, base, inc] = t[..] else {
        return None;
    };
    let moves = mps.parse().ok()?;
    let base_ms = match base.split_once(':') {
        Some((m, s)) => m
            .parse::<u64>()
            .ok()?
            .checked_mul(60_000)?
            .checked_add(s.parse::<u64>().ok()?.checked_mul(1000)?)?,
        None => (base.parse::<f64>().ok()? * 60_000.0) as u64,
    };
    let inc_ms = seconds_ms(inc)?;
    Some(Level {
        moves,
        // Beyond a year means "no limit" in practice; capping keeps the time manager's sums far from overflow.
        base_ms: base_ms.min(MAX_CLOCK_MS),
        inc_ms,
    })
}

/// The longest clock or time per move taken from the GUI (a year).
pub(super) const MAX_CLOCK_MS: u64 = 365 * 24 * 3600 * 1000;

/// Seconds (fractions allowed, as python-chess sends `st 0.05`) to milliseconds.
fn seconds_ms(text: &str) -> Option<u64> {
    let s: f64 = text.trim().parse().ok()?;
    (0.0..1e9)
        .contains(&s)
        .then(|| ((s * 1000.0).round() as u64).min(MAX_CLOCK_MS))
}

/// Centiseconds (negative counts as zero) to milliseconds.
fn centis_ms(text: &str) -> Option<u64> {
    let cs: i64 = text.trim().parse().ok()?;
    Some((cs.max(0).saturating_mul(10) as u64).min(MAX_CLOCK_MS))
}

// ---------------------------------------------------------------------------------------------------------
// Formatting
