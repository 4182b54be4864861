//! The protocol-free engine facade: a position, options, and a search running on its own thread.
//!
//! UCI, CECP (`xboard/`) and `play` drive the same `Engine`; nothing here knows protocol text or any game:
//! the engine holds one [`Session`] generic over the variant that runs, opened in one place per method by
//! `by_game!`. Results leave through a callback (`Report`), which the UCI loop turns into lines on
//! stdout, so that the thread reading commands never waits for a search.

use crate::eval::nnue::Network;
use crate::game::{GameKind, Variant};
use crate::search::{Control, Event, Limits, SearchOptions, Searcher, TranspositionTable};
use crate::types::MoveParseError;
use crate::variants::{AnyMove, ByGame, Family, Known, UsesNetwork as _};
use crate::{by_game, for_game};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

mod listener;
mod options;
pub use listener::spawn_listener;
pub use options::*;

/// Why a `position` was not (fully) accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The FEN is invalid: nothing changed. `what` names the notation (`FEN`, `Makromachy FEN`).
    Fen { what: &'static str, reason: String },
    /// Move `index` (0-based) of the list is malformed or illegal: the moves before it were played.
    Move { index: usize, error: MoveParseError },
    /// A game of another variant than the engine plays: nothing changed.
    WrongGame { engine: GameKind, given: GameKind },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen { what, reason } => {
                write!(f, "invalid {what} ({reason}); position unchanged")
            }
            PositionError::Move { index, error } => write!(
                f,
                "move {} of the list: {error}; position set after the {index} move(s) before it",
                index + 1
            ),
            PositionError::WrongGame { engine, given } => write!(
                f,
                "a {given} game while the engine plays {engine}; position unchanged"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// A move the engine chose, with its text in the protocol notation of the position it was chosen in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChosenMove {
    /// The move itself (front ends that keep a game record play it without parsing the text again).
    pub mv: AnyMove,
    /// Its protocol text (UCI for chess, with the Chess960 castling notation when that is on).
    pub text: String,
}

/// The end of a search: the move to play and the expected reply.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BestMove {
    /// The move to play; `None` only without a legal move.
    pub best: Option<ChosenMove>,
    /// The expected reply, when known.
    pub ponder: Option<ChosenMove>,
}

impl BestMove {
    /// The best move as variant `V`'s move (None without one, or when the engine played another game).
    pub fn best_as<V: Known>(&self) -> Option<V::Move> {
        self.best.as_ref().and_then(|c| V::unwrap(c.mv))
    }
}

/// What the engine reports, from the search thread.
#[derive(Clone, Debug)]
pub enum Report {
    /// Progress of the running search.
    Search(Event),
    /// The end of a search: exactly one per `go`.
    BestMove(BestMove),
}

/// Where reports go (the UCI loop sends them down a channel to the thread that writes stdout).
pub type Reporter = Arc<dyn Fn(Report) + Send + Sync>;

/// Stack of the thread that runs a search (the search's own workers get theirs from the search).
const SEARCH_THREAD_STACK: usize = 8 * 1024 * 1024;

/// One game in the engine: its start, the moves played, the current position, the search state and the
/// searcher (history tables, thread pool) that keeps its learning between moves.
pub struct Session<V: Known> {
    start: V::Position,
    moves: Vec<V::Move>,
    current: V::Position,
    /// What the game's evaluator is built with: the engine's network, as this game takes it.
    eval: V::EvalSetting,
    game: V::Search,
    /// `None` while a search thread has it.
    searcher: Option<Searcher<V::Search>>,
}

/// [`Session`] as a [`Family`], for the engine's `ByGame`.
pub struct SessionOf;
impl Family for SessionOf {
    type Of<V: Known> = Session<V>;
}

/// A searcher as a [`Family`]: what a search thread hands back.
struct SearcherOf;
impl Family for SearcherOf {
    type Of<V: Known> = Searcher<V::Search>;
}

impl<V: Known> Session<V> {
    /// A game at the start position, evaluated as `eval` sets up.
    fn new(chess960: bool, eval: V::EvalSetting) -> Session<V> {
        let start = V::start_position(chess960);
        Session {
            game: V::search_state(&start, &[], &eval),
            eval,
            current: start.clone(),
            start,
            moves: Vec::new(),
            searcher: Some(Searcher::new()),
        }
    }

    /// The same game with another evaluator: the search state is built again.
    fn set_eval(&mut self, eval: V::EvalSetting) {
        self.eval = eval;
        self.game = V::search_state(&self.start, &self.moves, &self.eval);
    }

    /// The game becomes `start` with `moves` (legal) played; the searcher stays.
    fn install(&mut self, start: V::Position, moves: Vec<V::Move>) {
        let mut current = start.clone();
        for &m in &moves {
            V::play(&mut current, m);
        }
        self.game = V::search_state(&start, &moves, &self.eval);
        self.start = start;
        self.moves = moves;
        self.current = current;
    }

    /// `position` for this game: a FEN (None: the start) and moves as text; a bad move ends the list there.
    fn set_position<S: AsRef<str>>(
        &mut self,
        fen: Option<&str>,
        moves: &[S],
        chess960: bool,
    ) -> Result<(), PositionError> {
        let start = match fen {
            None => V::start_position(chess960),
            Some(f) => V::from_fen(f, chess960).map_err(|e| PositionError::Fen {
                what: V::FEN_NAME,
                reason: e.to_string(),
            })?,
        };
        let mut current = start.clone();
        let mut played = Vec::with_capacity(moves.len());
        let mut error = None;
        for (index, text) in moves.iter().enumerate() {
            match V::parse_move(&current, text.as_ref()) {
                Ok(m) => {
                    V::play(&mut current, m);
                    played.push(m);
                }
                Err(e) => {
                    error = Some(PositionError::Move { index, error: e });
                    break;
                }
            }
        }
        self.install(start, played);
        error.map_or(Ok(()), Err)
    }

    /// The game from a start and moves a caller already checked; each is verified again, and an illegal one
    /// ends the list there. The start's castling notation follows `chess960`.
    fn set_game(
        &mut self,
        start: &V::Position,
        moves: &[V::Move],
        chess960: bool,
    ) -> Result<(), PositionError> {
        let mut start = start.clone();
        V::set_chess960(&mut start, chess960);
        let mut current = start.clone();
        let mut played = Vec::with_capacity(moves.len());
        let mut error = None;
        for (index, &m) in moves.iter().enumerate() {
            if !V::is_legal(&current, m) {
                error = Some(PositionError::Move {
                    index,
                    error: MoveParseError::Illegal(V::move_text(&current, m)),
                });
                break;
            }
            V::play(&mut current, m);
            played.push(m);
        }
        self.install(start, played);
        error.map_or(Ok(()), Err)
    }

    /// Re-notates the game (Chess960 castling): the moves stay, their text changes.
    fn set_chess960(&mut self, on: bool) {
        let mut start = self.start.clone();
        V::set_chess960(&mut start, on);
        let moves = std::mem::take(&mut self.moves);
        self.install(start, moves);
    }

    /// Starts a search of the current position on its own thread; returns the moves of `searchmoves` that are
    /// not legal here, and the thread (None when none could be started: then the fallback move was reported).
    fn spawn(
        &mut self,
        ctx: SearchContext,
        limits: Limits,
        searchmoves: &[String],
        opts: SearchOptions,
    ) -> (Vec<MoveParseError>, Option<JoinHandle<ByGame<SearcherOf>>>) {
        let pos = self.current.clone();
        let mut rejected = Vec::new();
        let mut restrict = Vec::new();
        for text in searchmoves {
            match V::parse_move(&pos, text) {
                Ok(m) => restrict.push(m),
                Err(e) => rejected.push(e),
            }
        }
        let mut searcher = self.searcher.take().unwrap_or_default();
        let game = self.game.clone();
        let SearchContext {
            tt,
            control,
            reporter,
        } = ctx;
        let thread_reporter = Arc::clone(&reporter);
        let thread_pos = pos.clone();
        let thread_restrict = restrict.clone();
        let spawned = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_THREAD_STACK)
            .spawn(move || {
                let reporter = thread_reporter;
                let report = |e: Event| reporter(Report::Search(e));
                let result = catch_unwind(AssertUnwindSafe(|| {
                    searcher.run(
                        &game,
                        &limits,
                        &thread_restrict,
                        &opts,
                        &tt,
                        &control,
                        &report,
                    )
                }));
                let (outcome, searcher) = match result {
                    Ok(outcome) => (outcome, searcher),
                    Err(_) => {
                        // A bug in the search must still not leave the GUI without its bestmove.
                        report(Event::Text(
                            "search failed; playing a legal move".to_string(),
                        ));
                        (Default::default(), Searcher::new())
                    }
                };
                let best = match outcome.best {
                    Some(b) => chosen::<V>(&thread_pos, b, outcome.ponder),
                    None => fallback::<V>(&thread_pos, &thread_restrict),
                };
                reporter(Report::BestMove(best));
                V::inject::<SearcherOf>(searcher)
            });
        match spawned {
            Ok(handle) => (rejected, Some(handle)),
            Err(e) => {
                reporter(Report::Search(Event::Text(format!(
                    "cannot start the search thread ({e}); playing a legal move"
                ))));
                reporter(Report::BestMove(fallback::<V>(&pos, &restrict)));
                self.searcher = Some(Searcher::new());
                (rejected, None)
            }
        }
    }
}

/// What a search thread shares with the engine.
struct SearchContext {
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    reporter: Reporter,
}

/// The best move `best` (with the reply `ponder`) of `pos`, with their text.
fn chosen<V: Known>(pos: &V::Position, best: V::Move, ponder: Option<V::Move>) -> BestMove {
    let mut after = pos.clone();
    V::play(&mut after, best);
    BestMove {
        best: Some(ChosenMove {
            mv: V::wrap(best),
            text: V::move_text(pos, best),
        }),
        ponder: ponder.map(|p| ChosenMove {
            mv: V::wrap(p),
            text: V::move_text(&after, p),
        }),
    }
}

/// A legal move when the search gave none (stopped before its first iteration, or failed): the first of
/// `restrict` when given, else the first legal move; `None` only without a legal move.
fn fallback<V: Known>(pos: &V::Position, restrict: &[V::Move]) -> BestMove {
    let legal = V::legal_moves(pos);
    match restrict
        .iter()
        .find(|m| legal.contains(m))
        .or_else(|| legal.first())
    {
        Some(&m) => chosen::<V>(pos, m, None),
        None => BestMove::default(),
    }
}

/// The engine: a game to search, the options, the hash table and a search that runs on its own thread.
///
/// Every method returns at once except `wait`, `new_game` (which first ends a running search), `perft` and
/// `quit`; a `go` while a search runs first ends that search (which reports its best move) so that every `go`
/// gets exactly one `BestMove`.
pub struct Engine {
    options: EngineOptions,
    session: ByGame<SessionOf>,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    worker: Option<JoinHandle<ByGame<SearcherOf>>>,
    reporter: Reporter,
    /// The network `EvalFile` chose (`None`: the hand-crafted evaluation), the built-in one at first. The
    /// session owns it: nothing else in the process sees it.
    eval_net: Option<Arc<Network>>,
    /// The network the games are built with now: `eval_net`, or none under a strength limit below the full
    /// engine's (see [`Engine::install_network`]).
    net_in_use: Option<Arc<Network>>,
}

impl Engine {
    /// An engine at the start position with default options, reporting through `reporter`.
    pub fn new(reporter: Reporter) -> Engine {
        let options = EngineOptions::default();
        let net = crate::eval::nnue::default_network();
        Engine {
            session: new_session(options.variant, options.chess960, net.as_ref()),
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            control: Arc::new(Control::default()),
            worker: None,
            options,
            reporter,
            eval_net: net.clone(),
            net_in_use: net,
        }
    }

    /// Makes the evaluation chess games use the one the options ask for: `EvalFile`'s network, except
    /// under a `UCI_Elo` below the full engine's, whose levels were calibrated with the hand-crafted
    /// evaluation (so they keep their meaning whatever network is embedded). A running search keeps its own.
    fn install_network(&mut self) {
        let limited = self.options.limit_strength
            && self.options.elo < crate::search::strength::FULL_STRENGTH;
        let want = if limited { None } else { self.eval_net.clone() };
        let same = match (&want, &self.net_in_use) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if !same {
            self.net_in_use = want;
            // The game carries the evaluator: rebuild it.
            let net = self.net_in_use.as_ref();
            by_game!(&mut self.session, s, V => s.set_eval(V::eval_setting(net)));
        }
    }

    /// The network the engine evaluates with now (`None`: the hand-crafted evaluation): `EvalFile`'s, except
    /// under a strength limit below the full engine's. The UCI `bench` and `genfens` use it too.
    pub fn network(&self) -> Option<Arc<Network>> {
        self.net_in_use.clone()
    }

    /// The game the engine plays (`UCI_Variant`).
    pub fn game_kind(&self) -> GameKind {
        self.options.variant
    }

    /// The current option values.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The position a `go` would search, when the engine plays `V` (None otherwise).
    pub fn position<V: Known>(&self) -> Option<&V::Position> {
        V::project(&self.session).map(|s| &s.current)
    }

    /// The FEN of the position a `go` would search.
    pub fn fen(&self) -> String {
        by_game!(&self.session, s, V => V::to_fen(&s.current))
    }

    /// Sets the game from a FEN (None: the start position) and the moves played since. A bad FEN changes
    /// nothing; a bad move keeps the moves before it (and reports which). A running search is not affected.
    pub fn set_position<S: AsRef<str>>(
        &mut self,
        fen: Option<&str>,
        moves: &[S],
    ) -> Result<(), PositionError> {
        let chess960 = self.options.chess960;
        by_game!(&mut self.session, s, V => s.set_position(fen, moves, chess960))
    }

    /// Sets the game from a start position and moves already checked by the caller (`play` and CECP keep a
    /// `rules::Record`). The moves are still verified: an illegal one ends the list there and is returned as
    /// an error, the moves before it kept. The start position's Chess960 flag follows the engine's option. A
    /// game of another variant than `UCI_Variant` changes nothing.
    pub fn set_game<V: Known>(
        &mut self,
        start: &V::Position,
        moves: &[V::Move],
    ) -> Result<(), PositionError> {
        let chess960 = self.options.chess960;
        let engine = self.options.variant;
        match V::project_mut(&mut self.session) {
            Some(s) => s.set_game(start, moves, chess960),
            None => Err(PositionError::WrongGame {
                engine,
                given: V::KIND,
            }),
        }
    }

    /// Sets an option (name ignoring case; `value` None for a button). Hash and Clear Hash refuse while a
    /// search runs; the others apply from the next `go`.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let Some(spec) = find_option(name) else {
            return set_tunable(name, value);
        };
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
                let on = self.options.chess960;
                by_game!(&mut self.session, s, V => s.set_chess960(on));
            }
            "UCI_ShowWDL" => self.options.show_wdl = check(&value),
            "UCI_Variant" => {
                let kind = match value {
                    OptionValue::Combo(v) => GameKind::from_name(v),
                    _ => None,
                };
                if let Some(kind) = kind.filter(|&k| k != self.options.variant) {
                    // The other game's search must not outlive the switch.
                    self.stop();
                    self.wait();
                    self.options.variant = kind;
                    self.tt.clear();
                    self.session =
                        new_session(kind, self.options.chess960, self.net_in_use.as_ref());
                    if let Some(note) = for_game!(kind, V => V::variant_note()) {
                        (self.reporter)(Report::Search(Event::Text(note)));
                    }
                }
            }
            "EvalFile" => {
                let text = match value {
                    OptionValue::Text(t) => t,
                    _ => String::new(),
                };
                let net = crate::eval::nnue::network_for_option(&text).map_err(|error| {
                    OptionError::EvalFile {
                        path: text.clone(),
                        error,
                    }
                })?;
                self.eval_net = net;
                self.options.eval_file = text;
                self.install_network();
            }
            "SyzygyPath" => {
                let path = match &value {
                    OptionValue::Text(p) => p.as_str(),
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
            "UCI_LimitStrength" => {
                self.options.limit_strength = check(&value);
                self.install_network();
            }
            "UCI_Elo" => {
                self.options.elo = spin(&value) as u32;
                self.install_network();
            }
            _ => return Err(OptionError::Unknown(name.to_string())),
        }
        Ok(())
    }

    /// A new game: ends a running search, clears the hash table and the search's learnt state.
    pub fn new_game(&mut self) {
        self.stop();
        self.wait();
        self.tt.clear();
        by_game!(&mut self.session, s, V => {
            if let Some(searcher) = s.searcher.as_mut() {
                searcher.clear();
            }
        });
    }

    /// Starts searching the current position on the search thread and returns at once. `searchmoves` (protocol
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
        let ctx = SearchContext {
            tt: Arc::clone(&self.tt),
            control: Arc::clone(&self.control),
            reporter: Arc::clone(&self.reporter),
        };
        let (rejected, worker) =
            by_game!(&mut self.session, s, V => s.spawn(ctx, limits, searchmoves, opts));
        self.worker = worker;
        rejected
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
            // The thread catches the search's panics, so joining fails only on a panic in reporting. The
            // variant cannot have changed while the thread ran (a switch waits for it first).
            if let Ok(back) = handle.join() {
                by_game!(back, searcher, V => {
                    if let Some(s) = V::project_mut(&mut self.session) {
                        s.searcher = Some(searcher);
                    }
                });
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
        by_game!(&self.session, s, V => V::display(&s.current))
    }

    /// The evaluation breakdown of the current position.
    pub fn eval_trace(&self) -> String {
        by_game!(&self.session, s, V => V::eval_trace(&s.current, &s.eval))
    }

    /// Perft of the current position: per-move counts, then `Nodes searched: N` last. Blocking.
    pub fn perft(&self, depth: u32) -> String {
        let threads = self.options.threads.max(1);
        let result = by_game!(&self.session, s, V => {
            crate::tools::perft::perft_divide::<V>(&s.current, depth, threads, None)
        });
        crate::tools::perft::format_report(&result, true)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit();
    }
}

/// Every tunable: the search's, then each game's values for the search parameters it overrides (their names
/// start with the game's). The `tunables` command prints them; a `tune` build offers them as options.
pub fn tunables() -> Vec<crate::tunables::Tunable> {
    let mut all = crate::search::params::all();
    all.extend(crate::makro::params::all());
    all
}

/// A tunable set as an option (a tuning build: the cargo feature `tune`); otherwise no such option.
fn set_tunable(name: &str, value: Option<&str>) -> Result<(), OptionError> {
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
        if !(crate::search::params::set(t.name, n) || crate::makro::params::set(t.name, n)) {
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

/// A fresh session of game `kind`, evaluated with `net`.
fn new_session(kind: GameKind, chess960: bool, net: Option<&Arc<Network>>) -> ByGame<SessionOf> {
    for_game!(kind, V => V::inject::<SessionOf>(Session::<V>::new(chess960, V::eval_setting(net))))
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::variants::{Chess, Makromachy};

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

    fn engine() -> (Engine, crossbeam_channel::Receiver<Report>) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let engine = Engine::new(Arc::new(move |r| {
            let _ = tx.send(r);
        }));
        (engine, rx)
    }

    fn bestmoves(rx: &crossbeam_channel::Receiver<Report>) -> Vec<BestMove> {
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
        let pos = e.position::<Chess>().unwrap();
        assert_eq!(
            pos.parse_uci_move(&best.text),
            Ok(b[0].best_as::<Chess>().unwrap())
        );
        assert_eq!(b[0].best_as::<Makromachy>(), None);

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
        assert_eq!(b[1].best.as_ref().map(|c| c.text.as_str()), Some("a7a6"));
    }

    #[test]
    fn bad_input_keeps_the_state() {
        let (mut e, _rx) = engine();
        e.set_position(None, &["d2d4"]).unwrap();
        let before = e.fen();
        assert!(matches!(
            e.set_position(Some("not a fen"), &["e2e4"]),
            Err(PositionError::Fen { what: "FEN", .. })
        ));
        assert_eq!(e.fen(), before);
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
        assert!(e.position::<Chess>().unwrap().is_chess960());
        assert!(e
            .display()
            .contains("Fen: r3k2r/8/8/8/8/8/8/R4RK1 b ha - 1 1"));
    }

    #[test]
    fn each_engine_owns_its_network() {
        use crate::eval::nnue::{default_network, HIDDEN, INPUTS};
        let checksum = |n: Option<Arc<Network>>| n.map(|n| n.checksum());
        let net = Network::from_parts(
            &vec![1; INPUTS * HIDDEN],
            &vec![3; HIDDEN],
            &vec![1; 2 * HIDDEN],
            5,
        )
        .unwrap();
        let path = std::env::temp_dir().join(format!("corvid-engine-{}.nnue", std::process::id()));
        std::fs::write(&path, net.to_bytes()).unwrap();
        let (mut a, _ra) = engine();
        let (mut b, _rb) = engine();
        let loaded = a.set_option("EvalFile", Some(&path.to_string_lossy()));
        let _ = std::fs::remove_file(&path);
        loaded.unwrap();
        let mark = format!("{:016x}", net.checksum());
        assert_eq!(checksum(a.network()), Some(net.checksum()));
        assert!(a.eval_trace().contains(&mark));
        // The other engine in the process keeps the built-in network, and its choice leaves `a` alone.
        assert_eq!(checksum(b.network()), checksum(default_network()));
        assert!(!b.eval_trace().contains(&mark));
        b.set_option("EvalFile", Some("<hce>")).unwrap();
        assert!(b.network().is_none());
        assert_eq!(checksum(a.network()), Some(net.checksum()));
        // A strength limit below the full engine's plays with the hand-crafted evaluation, and only then.
        a.set_option("UCI_Elo", Some("1500")).unwrap();
        a.set_option("UCI_LimitStrength", Some("true")).unwrap();
        assert!(a.network().is_none());
        assert!(!a.eval_trace().contains(&mark));
        a.set_option("UCI_LimitStrength", Some("false")).unwrap();
        // Another game and back: the network stays the engine's.
        a.set_option("UCI_Variant", Some("makromachy")).unwrap();
        a.set_option("UCI_Variant", Some("chess")).unwrap();
        assert!(a.eval_trace().contains(&mark));
    }

    #[test]
    fn position_plays_moves_up_to_a_bad_one() {
        let (mut e, _rx) = engine();
        e.set_position(None, &["e2e4", "e7e5", "e1e2", "e8e7"])
            .unwrap();
        assert_eq!(
            e.fen(),
            "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w - - 2 3"
        );
        let err = e.set_position(None, &["e2e4", "e2e4", "d7d5"]);
        assert!(matches!(
            err,
            Err(PositionError::Move {
                index: 1,
                error: MoveParseError::Illegal(_)
            })
        ));
        assert_eq!(
            e.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert!(matches!(
            e.set_position(None, &["zz"]),
            Err(PositionError::Move { index: 0, .. })
        ));
        assert_eq!(e.fen(), crate::chess::STARTPOS);
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
            let (mut e, rx) = engine();
            e.set_option("UCI_Chess960", Some(if c960 { "true" } else { "false" }))
                .unwrap();
            e.set_position(Some(fen), &[text]).unwrap();
            assert!(
                e.fen().starts_with("r3k2r/8/8/8/8/8/8/R4RK1 b"),
                "{text} {c960}"
            );
            // The move as the engine writes it back: the notation of the option.
            e.set_position(Some(fen), &[] as &[&str]).unwrap();
            e.go(Limits::default(), &[text.to_string()]);
            e.stop();
            e.wait();
            let b = bestmoves(&rx);
            let want = if c960 { "e1h1" } else { "e1g1" };
            assert_eq!(b[0].best.as_ref().map(|c| c.text.as_str()), Some(want));
        }
    }

    #[test]
    fn one_session_per_variant_and_typed_games() {
        let (mut e, rx) = engine();
        assert_eq!(e.game_kind(), GameKind::Chess);
        e.set_option("UCI_Variant", Some("makromachy")).unwrap();
        assert_eq!(e.game_kind(), GameKind::Makromachy);
        assert!(e.position::<Chess>().is_none());
        assert_eq!(e.fen(), crate::makro::STARTPOS);
        // The switch announces the board to the GUI.
        assert!(rx.try_iter().any(
            |r| matches!(r, Report::Search(Event::Text(t)) if t.starts_with("variant makromachy"))
        ));
        // A chess game is refused while Makromachy runs; a Makromachy one is taken.
        let chess_start = crate::chess::Position::startpos();
        assert!(matches!(
            e.set_game::<Chess>(&chess_start, &[]),
            Err(PositionError::WrongGame { .. })
        ));
        let start = crate::makro::Position::startpos();
        let first = Makromachy::legal_moves(&start)[0];
        e.set_game::<Makromachy>(&start, &[first]).unwrap();
        let mut after = start.clone();
        after.make_move(first);
        assert_eq!(e.fen(), after.to_fen());
        // A move that is illegal there ends the list, reported by its text.
        assert!(matches!(
            e.set_game::<Makromachy>(&start, &[first, first]),
            Err(PositionError::Move { index: 1, .. })
        ));
        assert!(matches!(
            e.set_position(Some("nonsense"), &[] as &[&str]),
            Err(PositionError::Fen {
                what: "Makromachy FEN",
                ..
            })
        ));
        e.go(
            Limits {
                depth: Some(1),
                ..Limits::default()
            },
            &[],
        );
        e.wait();
        let b = bestmoves(&rx);
        assert_eq!(b.len(), 1);
        let m = b[0].best_as::<Makromachy>().unwrap();
        assert!(Makromachy::is_legal(e.position::<Makromachy>().unwrap(), m));
        assert!(e.display().contains("Fen: "));
        assert!(e.perft(1).ends_with(&format!(
            "Nodes searched: {}\n",
            Makromachy::legal_moves(&after).len()
        )));
        e.set_option("UCI_Variant", Some("chess")).unwrap();
        assert_eq!(e.fen(), crate::chess::STARTPOS);
    }
}
