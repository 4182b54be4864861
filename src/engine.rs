//! The protocol-free engine facade: a position, options, and a search running on its own thread.
//!
//! UCI (and later CECP, `bench` and `play`) drive the same `Engine`; nothing here knows protocol text except
//! the `d` board dump. Results leave through a callback (`Report`), which the UCI loop turns into lines on
//! stdout, so that the thread reading commands never waits for a search.

use crate::chess::{FenError, Move, MoveParseError, Position};
use std::fmt;

/// The kind, default and range of an engine option (what `uci` advertises).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A boolean.
    Check { default: bool },
    /// An integer in `min..=max`.
    Spin { default: i64, min: i64, max: i64 },
    /// One of a fixed list of words.
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    /// An action without a value.
    Button,
}

/// One engine option: its name (case-insensitive on input) and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// Hash table size bounds in MiB.
pub const HASH_MIN_MB: i64 = 1;
pub const HASH_MAX_MB: i64 = 65536;
pub const HASH_DEFAULT_MB: i64 = 16;
/// Strength limit bounds (`UCI_Elo`).
pub const ELO_MIN: i64 = 1000;
pub const ELO_MAX: i64 = 2800;

/// Every option the engine has, in the order `uci` lists them.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Hash",
        kind: OptionKind::Spin {
            default: HASH_DEFAULT_MB,
            min: HASH_MIN_MB,
            max: HASH_MAX_MB,
        },
    },
    OptionSpec {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 512,
        },
    },
    OptionSpec {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptionSpec {
        name: "Ponder",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    },
    OptionSpec {
        name: "Clear Hash",
        kind: OptionKind::Button,
    },
    OptionSpec {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        name: "UCI_Variant",
        kind: OptionKind::Combo {
            default: "chess",
            vars: &["chess"],
        },
    },
    OptionSpec {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: ELO_MAX,
            min: ELO_MIN,
            max: ELO_MAX,
        },
    },
];

/// Why `set_option` refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of that name.
    Unknown(String),
    /// The option needs a value and none was given.
    MissingValue(&'static str),
    /// A value that is not of the option's type (not a number, not true/false, not one of the combo words).
    BadValue {
        name: &'static str,
        value: String,
        expected: String,
    },
    /// A number outside the option's range.
    OutOfRange {
        name: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    /// The option cannot change while a search runs (the hash table is in use).
    Busy(&'static str),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "no such option '{n}'"),
            OptionError::MissingValue(n) => write!(f, "option '{n}' needs a value"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => write!(f, "option '{name}': '{value}' is not {expected}"),
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "option '{name}': {value} is out of range ({min} to {max})"
            ),
            OptionError::Busy(n) => {
                write!(
                    f,
                    "option '{n}' cannot change during a search; send stop first"
                )
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// A parsed, range-checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Check(bool),
    Spin(i64),
    Combo(&'static str),
    Button,
}

/// The spec of the option called `name` (ignoring case).
pub fn find_option(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

impl OptionSpec {
    /// Checks `value` against this option's type and range.
    pub fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        match self.kind {
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::Check { .. } => {
                let v = value.ok_or(OptionError::MissingValue(self.name))?;
                if v.eq_ignore_ascii_case("true") {
                    Ok(OptionValue::Check(true))
                } else if v.eq_ignore_ascii_case("false") {
                    Ok(OptionValue::Check(false))
                } else {
                    Err(OptionError::BadValue {
                        name: self.name,
                        value: v.to_string(),
                        expected: "true or false".to_string(),
                    })
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let v = value.ok_or(OptionError::MissingValue(self.name))?;
                let n: i64 = v.parse().map_err(|_| OptionError::BadValue {
                    name: self.name,
                    value: v.to_string(),
                    expected: "an integer".to_string(),
                })?;
                if (min..=max).contains(&n) {
                    Ok(OptionValue::Spin(n))
                } else {
                    Err(OptionError::OutOfRange {
                        name: self.name,
                        value: n,
                        min,
                        max,
                    })
                }
            }
            OptionKind::Combo { vars, .. } => {
                let v = value.ok_or(OptionError::MissingValue(self.name))?;
                vars.iter()
                    .find(|w| w.eq_ignore_ascii_case(v))
                    .map(|w| OptionValue::Combo(w))
                    .ok_or_else(|| OptionError::BadValue {
                        name: self.name,
                        value: v.to_string(),
                        expected: format!("one of: {}", vars.join(", ")),
                    })
            }
        }
    }
}

/// The current value of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead_ms: u64,
    pub chess960: bool,
    pub show_wdl: bool,
    pub variant: &'static str,
    pub limit_strength: bool,
    pub elo: u32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: HASH_DEFAULT_MB as usize,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 10,
            chess960: false,
            show_wdl: false,
            variant: "chess",
            limit_strength: false,
            elo: ELO_MAX as u32,
        }
    }
}

/// Why a `position` was not (fully) accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN is invalid: nothing changed.
    Fen(FenError),
    /// Move `index` (0-based) of the list is malformed or illegal: the moves before it were played.
    Move { index: usize, error: MoveParseError },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "invalid FEN ({e}); position unchanged"),
            PositionError::Move { index, error } => write!(
                f,
                "move {} of the list: {error}; position set after the {index} move(s) before it",
                index + 1
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// A game to search from: the start position and the moves played from it.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub start: Position,
    pub moves: Vec<Move>,
    /// `start` with `moves` played.
    pub current: Position,
}

/// Reads a `position` command's contents: `fen` (None: the start position) and a move list. A bad FEN is an
/// error; a bad move stops the list there, returning the game up to it together with the error (as Stockfish
/// does). `chess960` chooses the castling notation (a Chess960-only castling field switches it on anyway).
pub fn setup_game<S: AsRef<str>>(
    fen: Option<&str>,
    moves: &[S],
    chess960: bool,
) -> Result<(GameSetup, Option<PositionError>), PositionError> {
    let start = match fen {
        None => {
            let mut p = Position::startpos();
            p.set_chess960(chess960);
            p
        }
        Some(f) => Position::from_fen(f, chess960).map_err(PositionError::Fen)?,
    };
    let mut setup = GameSetup {
        start,
        moves: Vec::with_capacity(moves.len()),
        current: start,
    };
    for (index, text) in moves.iter().enumerate() {
        match setup.current.parse_uci_move(text.as_ref()) {
            Ok(m) => {
                setup.current.make_move(m);
                setup.moves.push(m);
            }
            Err(error) => return Ok((setup, Some(PositionError::Move { index, error }))),
        }
    }
    Ok((setup, None))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn option_defaults_lie_in_their_ranges() {
        for o in OPTIONS {
            if let OptionKind::Spin { default, min, max } = o.kind {
                assert!(min <= default && default <= max, "{}", o.name);
                assert_eq!(
                    o.parse_value(Some(&default.to_string())),
                    Ok(OptionValue::Spin(default))
                );
            }
        }
    }

    #[test]
    fn option_values_are_checked() {
        let hash = find_option("hash").map(|o| o.name);
        assert_eq!(hash, Some("Hash"));
        let spec = find_option("Hash").copied().unwrap_or(OPTIONS[0]);
        assert_eq!(spec.parse_value(Some("1")), Ok(OptionValue::Spin(1)));
        assert_eq!(
            spec.parse_value(Some("65536")),
            Ok(OptionValue::Spin(65536))
        );
        assert!(matches!(
            spec.parse_value(Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            spec.parse_value(Some("65537")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            spec.parse_value(Some("lots")),
            Err(OptionError::BadValue { .. })
        ));
        assert_eq!(
            spec.parse_value(None),
            Err(OptionError::MissingValue("Hash"))
        );
        let ponder = find_option("ponder").copied().unwrap_or(OPTIONS[0]);
        assert_eq!(
            ponder.parse_value(Some("TRUE")),
            Ok(OptionValue::Check(true))
        );
        assert!(ponder.parse_value(Some("yes")).is_err());
        let variant = find_option("uci_variant").copied().unwrap_or(OPTIONS[0]);
        assert_eq!(
            variant.parse_value(Some("chess")),
            Ok(OptionValue::Combo("chess"))
        );
        assert!(variant.parse_value(Some("makromachy")).is_err());
        assert!(find_option("Skill Level").is_none());
    }

    #[test]
    fn setup_game_plays_moves_up_to_a_bad_one() {
        let (g, err) = setup_game(None, &["e2e4", "e7e5", "e1e2", "e8e7"], false).unwrap();
        assert!(err.is_none());
        assert_eq!(g.moves.len(), 4);
        assert_eq!(
            g.current.to_fen(),
            "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w - - 2 3"
        );
        let (g, err) = setup_game(None, &["e2e4", "e2e4", "d7d5"], false).unwrap();
        assert_eq!(g.moves.len(), 1);
        assert!(matches!(
            err,
            Some(PositionError::Move {
                index: 1,
                error: MoveParseError::Illegal(_)
            })
        ));
        let (g, err) = setup_game(None, &["zz"], false).unwrap();
        assert!(g.moves.is_empty());
        assert!(matches!(err, Some(PositionError::Move { index: 0, .. })));
        assert!(matches!(
            setup_game(Some("8/8/8 w - -"), &["e2e4"], false),
            Err(PositionError::Fen(_))
        ));
    }

    #[test]
    fn castling_text_in_either_notation() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for (c960, text) in [
            (false, "e1g1"),
            (false, "e1h1"),
            (true, "e1h1"),
            (true, "e1g1"),
        ] {
            let (g, err) = setup_game(Some(fen), &[text], c960).unwrap();
            assert!(err.is_none(), "{text} {c960}");
            assert_eq!(g.moves[0].to_uci(c960), if c960 { "e1h1" } else { "e1g1" });
        }
    }
}
