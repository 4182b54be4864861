//! The engine's options: what `uci` advertises (kind, default, range), how a value is read and checked, the
//! typed errors, and the values a session runs with.

use crate::eval::nnue::NetworkError;
use crate::game::GameKind;
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
    /// Free text (a path; `<empty>` for none, as UCI GUIs write it).
    String { default: &'static str },
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
/// Strength limit bounds (`UCI_Elo`): the range the calibration covers (`search::strength`).
pub const ELO_MIN: i64 = crate::search::strength::ELO_MIN as i64;
pub const ELO_MAX: i64 = crate::search::strength::ELO_MAX as i64;

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
            vars: &["chess", "makromachy"],
        },
    },
    OptionSpec {
        name: "EvalFile",
        kind: OptionKind::String {
            default: crate::eval::nnue::EVAL_FILE_DEFAULT,
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
    OptionSpec {
        name: "SyzygyPath",
        kind: OptionKind::String { default: "<empty>" },
    },
    OptionSpec {
        name: "SyzygyProbeDepth",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    },
    OptionSpec {
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin {
            default: crate::tb::MAX_PIECES as i64,
            min: 0,
            max: crate::tb::MAX_PIECES as i64,
        },
    },
    OptionSpec {
        name: "Syzygy50MoveRule",
        kind: OptionKind::Check { default: true },
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
    /// The system refused that much memory for the hash table; the old table is kept.
    NoMemory { mb: usize },
    /// The `EvalFile` network could not be used; the previous one stays.
    EvalFile { path: String, error: NetworkError },
    /// `SyzygyPath` was refused (see the reason).
    Tablebases(crate::tb::TbError),
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
            OptionError::NoMemory { mb } => {
                write!(
                    f,
                    "cannot allocate {mb} MB for Hash; the table keeps its size"
                )
            }
            OptionError::EvalFile { path, error } => write!(
                f,
                "option 'EvalFile': cannot use '{path}': {error}; the evaluation in use stays"
            ),
            OptionError::Tablebases(e) => write!(f, "SyzygyPath: {e}"),
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
    /// A string option's text (empty when none was given).
    Text(String),
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
            OptionKind::String { default } => {
                Ok(OptionValue::Text(value.unwrap_or(default).to_string()))
            }
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
    pub variant: GameKind,
    pub limit_strength: bool,
    pub elo: u32,
    /// `EvalFile` as last accepted (the embedded net's name, `<hce>` or a path).
    pub eval_file: String,
    /// Tablebase probes inside the tree from this remaining depth on.
    pub syzygy_probe_depth: u32,
    /// Tablebase probes only for positions of at most this many pieces (and within the loaded tables).
    pub syzygy_probe_limit: u32,
    /// The 50-move rule turns cursed tablebase wins and blessed losses into draws.
    pub syzygy_50_move_rule: bool,
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
            variant: GameKind::Chess,
            limit_strength: false,
            elo: ELO_MAX as u32,
            eval_file: crate::eval::nnue::EVAL_FILE_DEFAULT.to_string(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: crate::tb::MAX_PIECES,
            syzygy_50_move_rule: true,
        }
    }
}
