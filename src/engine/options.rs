//! The engine's options, each declared once in [`OPTIONS`]: its name, kind (type, default, range), its name
//! under CECP where that protocol offers it, and the handler that applies a checked value to the engine. UCI's
//! `uci` reply, CECP's `feature option` lines, `setoption` and CECP's `option` all read this table; the
//! typed errors and the values a session runs with are here too.

use super::{new_session, Engine, Report};
use crate::eval::nnue::NetworkError;
use crate::game::{GameKind, Variant as _};
use crate::search::{Event, TranspositionTable};
use crate::{by_game, for_game};
use std::fmt;
use std::sync::Arc;

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
    /// A file name: text for UCI, a file chooser for CECP (`-file`).
    File { default: &'static str },
}

impl OptionKind {
    /// A spin's default (0 for another kind: a slip that the defaults test catches).
    const fn spin_default(self) -> i64 {
        match self {
            OptionKind::Spin { default, .. } => default,
            _ => 0,
        }
    }

    /// A check's default (false for another kind).
    const fn check_default(self) -> bool {
        matches!(self, OptionKind::Check { default: true })
    }

    /// A string's or file's default text (empty for another kind).
    const fn text_default(self) -> &'static str {
        match self {
            OptionKind::String { default } | OptionKind::File { default } => default,
            _ => "",
        }
    }
}

/// What applies a checked value (of the option's kind) to the engine.
type Apply = fn(&mut Engine, OptionValue) -> Result<(), OptionError>;

/// One engine option: its name (case-insensitive on input), kind, CECP name and handler.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// The name CECP offers it under (`feature option`), without spaces, which python-chess and some GUIs
    /// take to end a name; `None`: CECP does not offer it.
    pub cecp: Option<&'static str>,
    /// Refused while a search runs (the hash table is in use).
    pub idle_only: bool,
    apply: Apply,
}

const fn option(name: &'static str, kind: OptionKind, apply: Apply) -> OptionSpec {
    OptionSpec {
        name,
        kind,
        cecp: None,
        idle_only: false,
        apply,
    }
}

impl OptionSpec {
    /// Offered under CECP as `name`.
    const fn cecp(mut self, name: &'static str) -> OptionSpec {
        self.cecp = Some(name);
        self
    }

    /// Refused during a search.
    const fn idle_only(mut self) -> OptionSpec {
        self.idle_only = true;
        self
    }

    /// Applies a value that [`OptionSpec::parse_value`] accepted.
    pub(super) fn apply(&self, engine: &mut Engine, value: OptionValue) -> Result<(), OptionError> {
        (self.apply)(engine, value)
    }
}

const fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

const fn check(default: bool) -> OptionKind {
    OptionKind::Check { default }
}

/// Hash table size bounds in MiB.
pub const HASH_MIN_MB: i64 = 1;
pub const HASH_MAX_MB: i64 = 65536;
pub const HASH_DEFAULT_MB: i64 = 16;
/// Strength limit bounds (`UCI_Elo`): the range the calibration covers (`search::strength`).
pub const ELO_MIN: i64 = crate::search::strength::ELO_MIN as i64;
pub const ELO_MAX: i64 = crate::search::strength::ELO_MAX as i64;

/// `UCI_Variant`'s words: every game's name, in [`GameKind::ALL`]'s order.
const VARIANT_NAMES: [&str; GameKind::ALL.len()] = {
    let mut names = [""; GameKind::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = GameKind::ALL[i].name();
        i += 1;
    }
    names
};

// The options whose value the session keeps, one item each so that [`EngineOptions::default`] reads its
// default from the declaration rather than writing it again.
const HASH: OptionSpec = option(
    "Hash",
    spin(HASH_DEFAULT_MB, HASH_MIN_MB, HASH_MAX_MB),
    set_hash,
)
.idle_only();
const THREADS: OptionSpec = option("Threads", spin(1, 1, 512), |e, v| {
    e.options.threads = v.spin() as usize;
    Ok(())
});
const MULTI_PV: OptionSpec = option("MultiPV", spin(1, 1, 256), |e, v| {
    e.options.multipv = v.spin() as usize;
    Ok(())
});
const PONDER: OptionSpec = option("Ponder", check(false), |e, v| {
    e.options.ponder = v.check();
    Ok(())
});
const MOVE_OVERHEAD: OptionSpec = option("Move Overhead", spin(10, 0, 5000), |e, v| {
    e.options.move_overhead_ms = v.spin() as u64;
    Ok(())
})
.cecp("MoveOverhead");
const CHESS960: OptionSpec = option("UCI_Chess960", check(false), |e, v| {
    let on = v.check();
    e.options.chess960 = on;
    // Re-notate the current game: its moves stay the same, their castling text changes.
    by_game!(&mut e.session, s, V => s.set_chess960(on));
    Ok(())
});
const SHOW_WDL: OptionSpec = option("UCI_ShowWDL", check(false), |e, v| {
    e.options.show_wdl = v.check();
    Ok(())
});
const VARIANT: OptionSpec = option(
    "UCI_Variant",
    OptionKind::Combo {
        default: GameKind::DEFAULT.name(),
        vars: &VARIANT_NAMES,
    },
    set_variant,
);
const EVAL_FILE: OptionSpec = option(
    "EvalFile",
    OptionKind::File {
        default: crate::eval::nnue::EVAL_FILE_DEFAULT,
    },
    set_eval_file,
)
.cecp("EvalFile");
const LIMIT_STRENGTH: OptionSpec = option("UCI_LimitStrength", check(false), |e, v| {
    e.options.limit_strength = v.check();
    e.install_network();
    Ok(())
})
.cecp("UCI_LimitStrength");
const ELO: OptionSpec = option("UCI_Elo", spin(ELO_MAX, ELO_MIN, ELO_MAX), |e, v| {
    e.options.elo = v.spin() as u32;
    e.install_network();
    Ok(())
})
.cecp("UCI_Elo");
const SYZYGY_PROBE_DEPTH: OptionSpec = option("SyzygyProbeDepth", spin(1, 1, 100), |e, v| {
    e.options.syzygy_probe_depth = v.spin() as u32;
    Ok(())
});
const SYZYGY_PROBE_LIMIT: OptionSpec = option(
    "SyzygyProbeLimit",
    spin(
        crate::tb::MAX_PIECES as i64,
        0,
        crate::tb::MAX_PIECES as i64,
    ),
    |e, v| {
        e.options.syzygy_probe_limit = v.spin() as u32;
        Ok(())
    },
);
const SYZYGY_50_MOVE_RULE: OptionSpec = option("Syzygy50MoveRule", check(true), |e, v| {
    e.options.syzygy_50_move_rule = v.check();
    Ok(())
});

/// Every option the engine has, in the order `uci` lists them.
pub const OPTIONS: &[OptionSpec] = &[
    HASH,
    THREADS,
    MULTI_PV,
    PONDER,
    MOVE_OVERHEAD,
    option("Clear Hash", OptionKind::Button, |e, _| {
        e.tt.clear();
        Ok(())
    })
    .idle_only()
    .cecp("ClearHash"),
    CHESS960,
    SHOW_WDL,
    VARIANT,
    EVAL_FILE,
    LIMIT_STRENGTH,
    ELO,
    // The tables are the process's, not the session's: nothing in `EngineOptions` holds the path.
    option(
        "SyzygyPath",
        OptionKind::String { default: "<empty>" },
        set_syzygy_path,
    ),
    SYZYGY_PROBE_DEPTH,
    SYZYGY_PROBE_LIMIT,
    SYZYGY_50_MOVE_RULE,
];

/// `Hash`: a new table size, when the system grants it (the old table is kept otherwise).
fn set_hash(e: &mut Engine, v: OptionValue) -> Result<(), OptionError> {
    let mb = v.spin() as usize;
    if !memory_available(mb) {
        return Err(OptionError::NoMemory { mb });
    }
    e.wait();
    match Arc::get_mut(&mut e.tt) {
        Some(tt) => tt.resize(mb),
        None => {
            // Not reachable once the search thread is joined; rebuild rather than fail.
            e.tt = Arc::new(TranspositionTable::new(mb));
        }
    }
    e.options.hash_mb = mb;
    Ok(())
}

/// `UCI_Variant`: another game starts at its start position, with a cleared table.
fn set_variant(e: &mut Engine, v: OptionValue) -> Result<(), OptionError> {
    let kind = GameKind::from_name(v.word());
    if let Some(kind) = kind.filter(|&k| k != e.options.variant) {
        // The other game's search must not outlive the switch.
        e.stop();
        e.wait();
        e.options.variant = kind;
        e.tt.clear();
        e.session = new_session(kind, e.options.chess960, e.net_in_use.as_ref());
        if let Some(note) = for_game!(kind, V => V::variant_note()) {
            (e.reporter)(Report::Search(Event::Text(note)));
        }
    }
    Ok(())
}

/// `EvalFile`: this engine's network from the next search on (a running one keeps its own).
fn set_eval_file(e: &mut Engine, v: OptionValue) -> Result<(), OptionError> {
    let text = v.into_text();
    let net =
        crate::eval::nnue::network_for_option(&text).map_err(|error| OptionError::EvalFile {
            path: text.clone(),
            error,
        })?;
    e.eval_net = net;
    e.options.eval_file = text;
    e.install_network();
    Ok(())
}

/// `SyzygyPath`: the tablebases, which are the process's (one loaded set; see `crate::tb`).
fn set_syzygy_path(e: &mut Engine, v: OptionValue) -> Result<(), OptionError> {
    let path = v.into_text();
    // The tables are swapped only between searches (probes would otherwise wait on the swap).
    e.stop();
    e.wait();
    let text = match crate::tb::set_path(&path) {
        Ok(Some(found)) => format!(
            "found {} tablebase files, up to {} pieces",
            found.files, found.max_pieces
        ),
        Ok(None) => "no tablebases".to_string(),
        Err(e) => return Err(OptionError::Tablebases(e)),
    };
    (e.reporter)(Report::Search(Event::Text(text)));
    Ok(())
}

/// Whether the system would grant `mb` MiB. The table allocates infallibly (an abort on failure), so ask first
/// with a fallible reservation that is released at once: it is never touched, so it costs no real memory, and
/// it catches sizes beyond what the machine has (Linux refuses those even with overcommit).
fn memory_available(mb: usize) -> bool {
    let Some(bytes) = mb.checked_mul(1024 * 1024) else {
        return false;
    };
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).is_ok()
}

/// Every tunable: the search's, the evaluation's, then each game's values for the search parameters it
/// overrides (their names start with the game's). The `tunables` command prints them; a `tune` build offers
/// them as options.
pub fn tunables() -> Vec<crate::tunables::Tunable> {
    let mut all = crate::search::params::all();
    all.extend(crate::eval::params::all());
    for kind in GameKind::ALL {
        all.extend(for_game!(kind, V => V::tunables()));
    }
    all
}

/// A tunable set as an option (a tuning build: the cargo feature `tune`); otherwise no such option.
pub(super) fn set_tunable(name: &str, value: Option<&str>) -> Result<(), OptionError> {
    #[cfg(feature = "tune")]
    if let Some(t) = tunables()
        .into_iter()
        .find(|t| t.name.eq_ignore_ascii_case(name))
    {
        let v = value.map(str::trim).unwrap_or("");
        let n: i64 = v.parse().map_err(|_| OptionError::BadValue {
            name: t.name,
            value: v.to_string(),
            expected: "an integer".to_string(),
        })?;
        let set = crate::search::params::set(t.name, n)
            || crate::eval::params::set(t.name, n)
            || GameKind::ALL
                .into_iter()
                .any(|kind| for_game!(kind, V => V::set_tunable(t.name, n)));
        if !set {
            return Err(OptionError::OutOfRange {
                name: t.name,
                value: n,
                min: t.min,
                max: t.max,
            });
        }
        return Ok(());
    }
    let _ = value;
    Err(OptionError::Unknown(name.to_string()))
}

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

impl OptionValue {
    /// A spin's number (0 for another kind, which the option's kind rules out).
    fn spin(&self) -> i64 {
        match self {
            OptionValue::Spin(n) => *n,
            _ => 0,
        }
    }

    /// A check's value.
    fn check(&self) -> bool {
        matches!(self, OptionValue::Check(true))
    }

    /// A combo's word.
    fn word(&self) -> &'static str {
        match self {
            OptionValue::Combo(w) => w,
            _ => "",
        }
    }

    /// A string's or file's text.
    fn into_text(self) -> String {
        match self {
            OptionValue::Text(t) => t,
            _ => String::new(),
        }
    }
}

/// The spec of the option called `name` (ignoring case).
pub fn find_option(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// The spec of the option CECP offers as `name` (exactly as offered).
pub fn find_cecp_option(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|o| o.cecp == Some(name))
}

impl OptionSpec {
    /// Checks `value` against this option's type and range.
    pub fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, OptionError> {
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        match self.kind {
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::String { default } | OptionKind::File { default } => {
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
    /// Every option at the default its declaration above gives it.
    fn default() -> Self {
        EngineOptions {
            hash_mb: HASH.kind.spin_default() as usize,
            threads: THREADS.kind.spin_default() as usize,
            multipv: MULTI_PV.kind.spin_default() as usize,
            ponder: PONDER.kind.check_default(),
            move_overhead_ms: MOVE_OVERHEAD.kind.spin_default() as u64,
            chess960: CHESS960.kind.check_default(),
            show_wdl: SHOW_WDL.kind.check_default(),
            variant: GameKind::DEFAULT,
            limit_strength: LIMIT_STRENGTH.kind.check_default(),
            elo: ELO.kind.spin_default() as u32,
            eval_file: EVAL_FILE.kind.text_default().to_string(),
            syzygy_probe_depth: SYZYGY_PROBE_DEPTH.kind.spin_default() as u32,
            syzygy_probe_limit: SYZYGY_PROBE_LIMIT.kind.spin_default() as u32,
            syzygy_50_move_rule: SYZYGY_50_MOVE_RULE.kind.check_default(),
        }
    }
}
