//! The protocol-free engine facade: a position, options, and a search running on its own thread.
//!
//! UCI, CECP (`xboard.rs`) and `play` drive the same `Engine`; nothing here knows protocol text except the
//! `d` board dump. Results leave through a callback (`Report`), which the UCI loop turns into lines on
//! stdout, so that the thread reading commands never waits for a search.

use crate::chess::game::ChessGame;
use crate::chess::types::squares;
use crate::chess::{FenError, Move, MoveParseError, Position};
use crate::game::Game;
use crate::makro::game::MakroGame;
use crate::makro::MakroFenError;
use crate::search::{Control, Event, Limits, Outcome, SearchOptions, Searcher, TranspositionTable};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

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
    /// Free text (`<empty>` for none, as UCI GUIs write it).
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
            vars: &["chess", "makromachy"],
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
    String(String),
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
                Ok(OptionValue::String(value.unwrap_or(default).to_string()))
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
    pub variant: &'static str,
    pub limit_strength: bool,
    pub elo: u32,
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
            variant: "chess",
            limit_strength: false,
            elo: ELO_MAX as u32,
            syzygy_probe_depth: 1,
            syzygy_probe_limit: crate::tb::MAX_PIECES,
            syzygy_50_move_rule: true,
        }
    }
}

/// Why a `position` was not (fully) accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN is invalid: nothing changed.
    Fen(FenError),
    /// The Makromachy FEN is invalid: nothing changed.
    MakroFen(MakroFenError),
    /// Move `index` (0-based) of the list is malformed or illegal: the moves before it were played.
    Move { index: usize, error: MoveParseError },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "invalid FEN ({e}); position unchanged"),
            PositionError::MakroFen(e) => {
                write!(f, "invalid Makromachy FEN ({e}); position unchanged")
            }
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

/// What the engine reports, from the search thread.
#[derive(Clone, Debug)]
pub enum Report {
    /// Progress of the running search.
    Search(Event),
    /// The end of a search: exactly one per `go`.
    BestMove(Outcome),
}

/// Where reports go (the UCI loop sends them down a channel to the thread that writes stdout).
pub type Reporter = Arc<dyn Fn(Report) + Send + Sync>;

/// Stack of the thread that runs a search (the search's own workers get theirs from the search).
const SEARCH_THREAD_STACK: usize = 8 * 1024 * 1024;

/// The Makromachy side of the engine (`UCI_Variant makromachy`): its game and its search state.
struct MakroSession {
    start: crate::makro::Position,
    moves: Vec<crate::makro::Move>,
    current: crate::makro::Position,
    game: MakroGame,
    searcher: Option<Searcher<MakroGame>>,
}

impl MakroSession {
    fn new() -> MakroSession {
        let start = crate::makro::Position::startpos();
        MakroSession {
            current: start.clone(),
            game: MakroGame::new(start.clone()),
            start,
            moves: Vec::new(),
            searcher: Some(Searcher::new()),
        }
    }
}

/// A search thread hands its searcher (history tables, thread pool) back when it ends.
enum Finished {
    Chess(Searcher<ChessGame>),
    Makro(Searcher<MakroGame>),
}

/// The engine: a game to search, the options, the hash table and a search that runs on its own thread.
///
/// Every method returns at once except `wait`, `new_game` (which first ends a running search), `perft` and
/// `quit`; a `go` while a search runs first ends that search (which reports its best move) so that every `go`
/// gets exactly one `BestMove`.
pub struct Engine {
    options: EngineOptions,
    setup: GameSetup,
    game: ChessGame,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    /// `None` while a search thread has it.
    searcher: Option<Searcher<ChessGame>>,
    makro: MakroSession,
    worker: Option<JoinHandle<Finished>>,
    reporter: Reporter,
}

impl Engine {
    /// An engine at the start position with default options, reporting through `reporter`.
    pub fn new(reporter: Reporter) -> Engine {
        let options = EngineOptions::default();
        let (setup, _) = fresh_setup(options.chess960);
        Engine {
            game: ChessGame::new(setup.start),
            setup,
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            control: Arc::new(Control::default()),
            searcher: Some(Searcher::new()),
            makro: MakroSession::new(),
            worker: None,
            options,
            reporter,
        }
    }

    /// Is the engine playing Makromachy (`UCI_Variant makromachy`)?
    pub fn is_makromachy(&self) -> bool {
        self.options.variant == "makromachy"
    }

    /// The current option values.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The position a `go` would search.
    pub fn position(&self) -> &Position {
        &self.setup.current
    }

    /// Sets the game from a FEN (None: the start position) and the moves played since. A bad FEN changes
    /// nothing; a bad move keeps the moves before it (and reports which). A running search is not affected.
    pub fn set_position<S: AsRef<str>>(
        &mut self,
        fen: Option<&str>,
        moves: &[S],
    ) -> Result<(), PositionError> {
        if self.is_makromachy() {
            return self.set_makro_position(fen, moves);
        }
        let (setup, error) = setup_game(fen, moves, self.options.chess960)?;
        self.install(setup);
        error.map_or(Ok(()), Err)
    }

    fn set_makro_position<S: AsRef<str>>(
        &mut self,
        fen: Option<&str>,
        moves: &[S],
    ) -> Result<(), PositionError> {
        let start = match fen {
            None => crate::makro::Position::startpos(),
            Some(f) => crate::makro::Position::from_fen(f).map_err(PositionError::MakroFen)?,
        };
        let mut current = start.clone();
        let mut game = MakroGame::new(start.clone());
        let mut played = Vec::with_capacity(moves.len());
        let mut error = None;
        for (index, text) in moves.iter().enumerate() {
            match current.parse_move(text.as_ref()) {
                Ok(m) => {
                    current.make_move(m);
                    game.play(m);
                    played.push(m);
                }
                Err(e) => {
                    error = Some(PositionError::Move { index, error: e });
                    break;
                }
            }
        }
        self.makro.start = start;
        self.makro.current = current;
        self.makro.game = game;
        self.makro.moves = played;
        error.map_or(Ok(()), Err)
    }

    /// Sets the Makromachy game from a start position and moves already checked by the caller (`play` and CECP
    /// keep a `rules::MakroRecord`). Like [`Engine::set_game`], an illegal move ends the list there and is
    /// returned as an error. Meaningful while the engine plays Makromachy (`UCI_Variant makromachy`).
    pub fn set_makro_game(
        &mut self,
        start: &crate::makro::Position,
        moves: &[crate::makro::Move],
    ) -> Result<(), PositionError> {
        let mut current = start.clone();
        let mut game = MakroGame::new(start.clone());
        let mut played = Vec::with_capacity(moves.len());
        let mut error = None;
        for (index, &m) in moves.iter().enumerate() {
            if !current.legal_moves().contains(&m) {
                error = Some(PositionError::Move {
                    index,
                    error: MoveParseError::Illegal(m.text()),
                });
                break;
            }
            current.make_move(m);
            game.play(m);
            played.push(m);
        }
        self.makro.start = start.clone();
        self.makro.current = current;
        self.makro.game = game;
        self.makro.moves = played;
        error.map_or(Ok(()), Err)
    }

    /// Sets the game from a start position and moves already checked by the caller (`play` and CECP keep a
    /// `rules::Game`). The moves are still verified: an illegal one ends the list there and is returned as an
    /// error, the moves before it kept. The start position's Chess960 flag follows the engine's option.
    pub fn set_game(&mut self, start: &Position, moves: &[Move]) -> Result<(), PositionError> {
        let mut start = *start;
        start.set_chess960(self.options.chess960);
        let mut setup = GameSetup {
            start,
            moves: Vec::with_capacity(moves.len()),
            current: start,
        };
        let mut error = None;
        for (index, &m) in moves.iter().enumerate() {
            if !setup.current.is_legal(m) {
                error = Some(PositionError::Move {
                    index,
                    error: MoveParseError::Illegal(m.to_uci(self.options.chess960)),
                });
                break;
            }
            setup.current.make_move(m);
            setup.moves.push(m);
        }
        self.install(setup);
        error.map_or(Ok(()), Err)
    }

    fn install(&mut self, setup: GameSetup) {
        let mut game = ChessGame::new(setup.start);
        for &m in &setup.moves {
            game.play(m);
        }
        self.game = game;
        self.setup = setup;
    }

    /// Sets an option (name ignoring case; `value` None for a button). Hash and Clear Hash refuse while a
    /// search runs; the others apply from the next `go`.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let spec = find_option(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let value = spec.parse_value(value)?;
        let spin = |v: &OptionValue| if let OptionValue::Spin(n) = v { *n } else { 0 };
        let check = |v: &OptionValue| matches!(v, OptionValue::Check(true));
        match spec.name {
            "Hash" | "Clear Hash" if self.is_searching() => {
                return Err(OptionError::Busy(spec.name))
            }
            "Hash" => {
                let mb = spin(&value) as usize;
                if !memory_available(mb) {
                    return Err(OptionError::NoMemory { mb });
                }
                self.wait();
                match Arc::get_mut(&mut self.tt) {
                    Some(tt) => tt.resize(mb),
                    None => {
                        // Not reachable once the search thread is joined; rebuild rather than fail.
                        self.tt = Arc::new(TranspositionTable::new(mb));
                    }
                }
                self.options.hash_mb = mb;
            }
            "Clear Hash" => self.tt.clear(),
            "Threads" => self.options.threads = spin(&value) as usize,
            "MultiPV" => self.options.multipv = spin(&value) as usize,
            "Ponder" => self.options.ponder = check(&value),
            "Move Overhead" => self.options.move_overhead_ms = spin(&value) as u64,
            "UCI_Chess960" => {
                self.options.chess960 = check(&value);
                // Re-notate the current game: its moves stay the same, their castling text changes.
                let mut setup = self.setup.clone();
                setup.start.set_chess960(self.options.chess960);
                setup.current.set_chess960(self.options.chess960);
                self.install(setup);
            }
            "UCI_ShowWDL" => self.options.show_wdl = check(&value),
            "UCI_Variant" => {
                if let OptionValue::Combo(v) = value {
                    if v != self.options.variant {
                        // The other game's search must not outlive the switch.
                        self.stop();
                        self.wait();
                        self.options.variant = v;
                        self.tt.clear();
                        if self.is_makromachy() {
                            self.makro = MakroSession::new();
                            (self.reporter)(Report::Search(Event::Text(format!(
                                "variant makromachy files 14 ranks 14 startpos {}",
                                crate::makro::STARTPOS
                            ))));
                        } else {
                            let (setup, _) = fresh_setup(self.options.chess960);
                            self.install(setup);
                        }
                    }
                }
            }
            "SyzygyPath" => {
                let path = match &value {
                    OptionValue::String(p) => p.as_str(),
                    _ => "",
                };
                // The tables are swapped only between searches (probes would otherwise wait on the swap).
                self.stop();
                self.wait();
                let text = match crate::tb::set_path(path) {
                    Ok(Some(found)) => format!(
                        "found {} tablebase files, up to {} pieces",
                        found.files, found.max_pieces
                    ),
                    Ok(None) => "no tablebases".to_string(),
                    Err(e) => return Err(OptionError::Tablebases(e)),
                };
                (self.reporter)(Report::Search(Event::Text(text)));
            }
            "SyzygyProbeDepth" => self.options.syzygy_probe_depth = spin(&value) as u32,
            "SyzygyProbeLimit" => self.options.syzygy_probe_limit = spin(&value) as u32,
            "Syzygy50MoveRule" => self.options.syzygy_50_move_rule = check(&value),
            "UCI_LimitStrength" => self.options.limit_strength = check(&value),
            "UCI_Elo" => self.options.elo = spin(&value) as u32,
            _ => return Err(OptionError::Unknown(name.to_string())),
        }
        Ok(())
    }

    /// A new game: ends a running search, clears the hash table and the search's learnt state.
    pub fn new_game(&mut self) {
        self.stop();
        self.wait();
        self.tt.clear();
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
        if let Some(s) = self.makro.searcher.as_mut() {
            s.clear();
        }
    }

    /// Starts searching the current position on the search thread and returns at once. `searchmoves` (UCI
    /// text) restricts the root moves; the ones that are not legal here are returned and left out (when none
    /// is left, every move is searched). A search already running is stopped first.
    pub fn go(&mut self, limits: Limits, searchmoves: &[String]) -> Vec<MoveParseError> {
        self.stop();
        self.wait();
        self.control.stop.store(false, Ordering::SeqCst);
        self.control
            .pondering
            .store(limits.ponder, Ordering::SeqCst);
        let opts = SearchOptions {
            threads: self.options.threads,
            multipv: self.options.multipv,
            move_overhead_ms: self.options.move_overhead_ms,
            limit_elo: self.options.limit_strength.then_some(self.options.elo),
            show_wdl: self.options.show_wdl,
            // Tablebases are for orthodox chess; the search asks the game, which for Makromachy has none.
            tb_max_pieces: self.options.syzygy_probe_limit.min(crate::tb::largest()),
            tb_probe_depth: self.options.syzygy_probe_depth as i32,
            tb_rule50: self.options.syzygy_50_move_rule,
        };
        let mut rejected = Vec::new();
        if self.is_makromachy() {
            let pos = self.makro.current.clone();
            let mut restrict = Vec::new();
            for text in searchmoves {
                match pos.parse_move(text) {
                    Ok(m) => restrict.push(m),
                    Err(e) => rejected.push(e),
                }
            }
            let searcher = self.makro.searcher.take().unwrap_or_default();
            let fallback = move |restrict: &[crate::makro::Move]| {
                let legal = pos.legal_moves();
                let best = restrict
                    .iter()
                    .find(|m| legal.contains(m))
                    .or_else(|| legal.first())
                    .map(|m| m.text());
                Outcome { best, ponder: None }
            };
            let game = self.makro.game.clone();
            self.spawn(
                game,
                searcher,
                limits,
                restrict,
                opts,
                fallback,
                Finished::Makro,
            );
        } else {
            let pos = self.setup.current;
            let mut restrict = Vec::new();
            for text in searchmoves {
                match pos.parse_uci_move(text) {
                    Ok(m) => restrict.push(m),
                    Err(e) => rejected.push(e),
                }
            }
            let searcher = self.searcher.take().unwrap_or_default();
            let fallback = move |restrict: &[Move]| fallback_outcome(&pos, restrict);
            let game = self.game.clone();
            self.spawn(
                game,
                searcher,
                limits,
                restrict,
                opts,
                fallback,
                Finished::Chess,
            );
        }
        rejected
    }

    /// Runs `searcher` on `game` on the search thread; it reports, then hands the searcher back.
    /// `fallback` gives a legal move when the search has none to offer (stopped at once, or failed).
    #[allow(clippy::too_many_arguments)]
    fn spawn<G: Game>(
        &mut self,
        game: G,
        mut searcher: Searcher<G>,
        limits: Limits,
        restrict: Vec<G::Move>,
        opts: SearchOptions,
        fallback: impl Fn(&[G::Move]) -> Outcome + Send + 'static,
        wrap: fn(Searcher<G>) -> Finished,
    ) {
        // Computed now for the case where no thread can be started (`restrict` moves into the thread).
        let spawn_fallback = fallback(&restrict);
        let tt = Arc::clone(&self.tt);
        let control = Arc::clone(&self.control);
        let reporter = Arc::clone(&self.reporter);
        let spawned = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_THREAD_STACK)
            .spawn(move || {
                let report = |e: Event| reporter(Report::Search(e));
                let result = catch_unwind(AssertUnwindSafe(|| {
                    searcher.run(&game, &limits, &restrict, &opts, &tt, &control, &report)
                }));
                let (mut outcome, searcher) = match result {
                    Ok(outcome) => (outcome, searcher),
                    Err(_) => {
                        // A bug in the search must still not leave the GUI without its bestmove.
                        report(Event::Text(
                            "search failed; playing a legal move".to_string(),
                        ));
                        (Outcome::default(), Searcher::new())
                    }
                };
                if outcome.best.is_none() {
                    outcome = fallback(&restrict);
                }
                reporter(Report::BestMove(outcome));
                wrap(searcher)
            });
        match spawned {
            Ok(handle) => self.worker = Some(handle),
            Err(e) => {
                (self.reporter)(Report::Search(Event::Text(format!(
                    "cannot start the search thread ({e}); playing a legal move"
                ))));
                (self.reporter)(Report::BestMove(spawn_fallback));
            }
        }
    }

    /// Asks a running search to stop (it reports its best move within milliseconds). Returns at once.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: a `go ponder` search becomes a normal timed search.
    pub fn ponderhit(&self) {
        self.control.pondering.store(false, Ordering::SeqCst);
    }

    /// Is a search running (it has not yet reported its best move)?
    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Blocks until the running search (if any) has finished and reported.
    pub fn wait(&mut self) {
        if let Some(handle) = self.worker.take() {
            // The thread catches the search's panics, so joining fails only on a panic in reporting.
            match handle.join() {
                Ok(Finished::Chess(s)) => self.searcher = Some(s),
                Ok(Finished::Makro(s)) => self.makro.searcher = Some(s),
                Err(_) => {}
            }
        }
    }

    /// Stops the search and waits for it: the engine can be dropped or the process end.
    pub fn quit(&mut self) {
        self.stop();
        self.wait();
    }

    /// The `d` dump: board, FEN, Zobrist key in hex, checkers.
    pub fn display(&self) -> String {
        if self.is_makromachy() {
            let pos = &self.makro.current;
            return format!(
                "{}\nFen: {}\nKey: {:016X}\nCheckers: {}\n",
                pos.pretty(),
                pos.to_fen(),
                pos.key(),
                if pos.in_check() {
                    "the side to move is in check"
                } else {
                    ""
                }
            );
        }
        let pos = &self.setup.current;
        let checkers: Vec<String> = squares(pos.checkers()).map(|s| s.to_string()).collect();
        format!(
            "{}\nFen: {}\nKey: {:016X}\nCheckers: {}\n",
            pos.pretty(),
            pos.to_fen(),
            pos.key(),
            checkers.join(" ")
        )
    }

    /// The evaluation breakdown of the current position.
    pub fn eval_trace(&self) -> String {
        if self.is_makromachy() {
            return crate::eval::makro::trace(&self.makro.current);
        }
        crate::eval::chess::trace(&self.setup.current)
    }

    /// Perft of the current position: per-move counts, then `Nodes searched: N` last. Blocking.
    pub fn perft(&self, depth: u32) -> String {
        if self.is_makromachy() {
            let result = crate::perft::perft_divide(
                &self.makro.current,
                depth,
                self.options.threads.max(1),
                None,
            );
            return crate::perft::format_report(&result, true);
        }
        let pos = &self.setup.current;
        let result = crate::perft::perft_divide(pos, depth, self.options.threads.max(1), None);
        crate::perft::format_report(&result, true)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit();
    }
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

fn fresh_setup(chess960: bool) -> (GameSetup, Option<PositionError>) {
    let mut start = Position::startpos();
    start.set_chess960(chess960);
    (
        GameSetup {
            start,
            moves: Vec::new(),
            current: start,
        },
        None,
    )
}

/// A legal move when the search gave none (stopped before its first iteration, or failed): the first of
/// `restrict` when given, else the first legal move; `None` only without a legal move.
fn fallback_outcome(pos: &Position, restrict: &[Move]) -> Outcome {
    let legal = pos.legal_moves();
    let best = restrict
        .iter()
        .find(|m| legal.contains(**m))
        .or_else(|| legal.iter().next())
        .map(|m| m.to_uci(pos.is_chess960()));
    Outcome { best, ponder: None }
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
        assert_eq!(
            variant.parse_value(Some("makromachy")),
            Ok(OptionValue::Combo("makromachy"))
        );
        assert!(variant.parse_value(Some("shogi")).is_err());
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

    fn engine() -> (Engine, crossbeam_channel::Receiver<Report>) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let engine = Engine::new(Arc::new(move |r| {
            let _ = tx.send(r);
        }));
        (engine, rx)
    }

    fn bestmoves(rx: &crossbeam_channel::Receiver<Report>) -> Vec<Outcome> {
        rx.try_iter()
            .filter_map(|r| match r {
                Report::BestMove(o) => Some(o),
                Report::Search(_) => None,
            })
            .collect()
    }

    #[test]
    fn every_go_reports_one_bestmove() {
        let (mut e, rx) = engine();
        e.set_position(None, &["e2e4"]).unwrap();
        e.go(
            Limits {
                depth: Some(2),
                ..Limits::default()
            },
            &[],
        );
        e.wait();
        let b = bestmoves(&rx);
        assert_eq!(b.len(), 1);
        let best = b[0].best.clone().unwrap();
        assert!(e.position().parse_uci_move(&best).is_ok(), "{best}");

        // Stopped before it could start, and a go on top of a running go: still one each.
        e.go(
            Limits {
                infinite: true,
                ..Limits::default()
            },
            &[],
        );
        e.stop();
        let rejected = e.go(
            Limits {
                infinite: true,
                ..Limits::default()
            },
            &["a7a6".to_string(), "zz".to_string()],
        );
        assert_eq!(rejected, vec![MoveParseError::Syntax("zz".to_string())]);
        assert!(e.is_searching());
        e.quit();
        assert!(!e.is_searching());
        let b = bestmoves(&rx);
        assert_eq!(b.len(), 2);
        assert_eq!(b[1].best.as_deref(), Some("a7a6"));
    }

    #[test]
    fn bad_input_keeps_the_state() {
        let (mut e, _rx) = engine();
        e.set_position(None, &["d2d4"]).unwrap();
        let before = e.position().to_fen();
        assert!(matches!(
            e.set_position(Some("not a fen"), &["e2e4"]),
            Err(PositionError::Fen(_))
        ));
        assert_eq!(e.position().to_fen(), before);
        assert!(matches!(
            e.set_option("Hash", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            e.set_option("Nope", None),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(e.options().hash_mb, 16);
        e.set_option("hash", Some("2")).unwrap();
        assert_eq!(e.options().hash_mb, 2);
        // Chess960 notation follows the option, for the game already set up too.
        e.set_position(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), &["e1g1"])
            .unwrap();
        e.set_option("UCI_Chess960", Some("true")).unwrap();
        assert!(e.position().is_chess960());
        assert!(e
            .display()
            .contains("Fen: r3k2r/8/8/8/8/8/8/R4RK1 b ha - 1 1"));
    }
}
