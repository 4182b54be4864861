//! The protocol-free engine facade: a position, options, and a search running on its own thread.
//!
//! UCI, CECP (`xboard/`) and `play` drive the same `Engine`; nothing here knows protocol text or any game:
//! the engine holds one [`Session`] generic over the variant that runs, opened in one place per method by
//! `by_game!`. Results leave through a callback (`Report`), which the UCI loop turns into lines on
//! stdout, so that the thread reading commands never waits for a search.

use crate::by_game;
use crate::eval::nnue::Network;
use crate::game::{GameKind, Variant};
use crate::search::{Control, Event, Limits, SearchOptions, TranspositionTable};
use crate::types::MoveParseError;
use crate::variants::{AnyGame, AnyMove, Registered};
use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

mod listener;
mod options;
mod session;
pub use listener::spawn_listener;
pub use options::*;
use session::{new_session, SearchContext, SearcherOf};
pub use session::{Session, SessionOf};

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
    pub fn best_as<V: Registered>(&self) -> Option<V::Move> {
        self.best.as_ref().and_then(|c| V::from_any_move(c.mv))
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

/// The engine: a game to search, the options, the hash table and a search that runs on its own thread.
///
/// Every method returns at once except `wait`, `new_game` (which first ends a running search), `perft` and
/// `quit`; a `go` while a search runs first ends that search (which reports its best move) so that every `go`
/// gets exactly one `BestMove`.
pub struct Engine {
    options: EngineOptions,
    session: AnyGame<SessionOf>,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    worker: Option<JoinHandle<AnyGame<SearcherOf>>>,
    reporter: Reporter,
    /// The network `EvalFile` chose (`None`: the hand-crafted evaluation), the built-in one at first. The
    /// session owns it: nothing else in the process sees it.
    eval_net: Option<Arc<Network>>,
    /// The network the games are built with now: `eval_net`, or none under a strength limit that evaluates
    /// by hand (see [`Engine::install_network`]).
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
    /// under a `UCI_Elo` below `strength::NETWORK_FROM`, whose levels were calibrated with the hand-crafted
    /// evaluation (so they keep their meaning whatever network is embedded). A running search keeps its own.
    fn install_network(&mut self) {
        let by_hand = self.options.limit_strength
            && !crate::search::strength::Strength::for_elo(self.options.elo).network;
        let want = if by_hand { None } else { self.eval_net.clone() };
        let same = match (&want, &self.net_in_use) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if !same {
            self.net_in_use = want;
            // The game carries the evaluator: rebuild it.
            let net = self.net_in_use.as_ref();
            by_game!(&mut self.session, s, V => s.set_network(net));
        }
    }

    /// The network the engine evaluates with now (`None`: the hand-crafted evaluation): `EvalFile`'s, except
    /// under a strength limit that evaluates by hand. The UCI `bench` and `genfens` use it too.
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
    pub fn position<V: Registered>(&self) -> Option<&V::Position> {
        V::from_any(&self.session).map(|s| &s.current)
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
    pub fn set_game<V: Registered>(
        &mut self,
        start: &V::Position,
        moves: &[V::Move],
    ) -> Result<(), PositionError> {
        let chess960 = self.options.chess960;
        let engine = self.options.variant;
        match V::from_any_mut(&mut self.session) {
            Some(s) => s.set_game(start, moves, chess960),
            None => Err(PositionError::WrongGame {
                engine,
                given: V::KIND,
            }),
        }
    }

    /// Sets an option (name ignoring case; `value` None for a button): the value is checked against the
    /// option's kind and range, then its handler in [`OPTIONS`] applies it. Hash and Clear Hash refuse while a
    /// search runs; the others apply from the next `go`.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let Some(spec) = find_option(name) else {
            return options::set_tunable(name, value);
        };
        let value = spec.parse_value(value)?;
        if spec.idle_only && self.is_searching() {
            return Err(OptionError::Busy(spec.name));
        }
        spec.apply(self, value)
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
                    if let Some(s) = V::from_any_mut(&mut self.session) {
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests;
