//! One game in the engine ([`Session`]) and the search thread that searches it.

use super::{BestMove, ChosenMove, PositionError, Report, Reporter};
use crate::eval::nnue::Network;
use crate::for_game;
use crate::game::GameKind;
use crate::search::{Control, Event, Limits, SearchOptions, Searcher, TranspositionTable};
use crate::types::MoveParseError;
use crate::variants::{AnyGame, PerGame, Registered};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Stack of the thread that runs a search (the search's own workers get theirs from the search).
const SEARCH_THREAD_STACK: usize = 8 * 1024 * 1024;

/// One game in the engine: its start, the moves played, the current position, the search state and the
/// searcher (history tables, thread pool) that keeps its learning between moves.
pub struct Session<V: Registered> {
    start: V::Position,
    moves: Vec<V::Move>,
    pub(super) current: V::Position,
    /// What the game's evaluator is built with: the engine's network, as this game takes it.
    pub(super) eval: V::EvalSetting,
    game: V::Search,
    /// `None` while a search thread has it.
    pub(super) searcher: Option<Searcher<V::Search>>,
}

/// [`Session`] as a [`PerGame`], for the engine's `AnyGame`.
pub struct SessionOf;
impl PerGame for SessionOf {
    type Of<V: Registered> = Session<V>;
}

/// A searcher as a [`PerGame`]: what a search thread hands back.
pub(super) struct SearcherOf;
impl PerGame for SearcherOf {
    type Of<V: Registered> = Searcher<V::Search>;
}

impl<V: Registered> Session<V> {
    /// A game at the start position, evaluated with `net` as the game takes it.
    fn new(chess960: bool, net: Option<&Arc<Network>>) -> Session<V> {
        let start = V::start_position(chess960);
        let eval = V::eval_setting(net);
        Session {
            game: V::search_state(&start, &[], &eval),
            eval,
            current: start.clone(),
            start,
            moves: Vec::new(),
            searcher: Some(Searcher::new()),
        }
    }

    /// The same game evaluated with another network: the search state is built again.
    pub(super) fn set_network(&mut self, net: Option<&Arc<Network>>) {
        self.eval = V::eval_setting(net);
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
    pub(super) fn set_position<S: AsRef<str>>(
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
    pub(super) fn set_game(
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
    pub(super) fn set_chess960(&mut self, on: bool) {
        let mut start = self.start.clone();
        V::set_chess960(&mut start, on);
        let moves = std::mem::take(&mut self.moves);
        self.install(start, moves);
    }

    /// Starts a search of the current position on its own thread; returns the moves of `searchmoves` that are
    /// not legal here, and the thread (None when none could be started: then the fallback move was reported).
    pub(super) fn spawn(
        &mut self,
        ctx: SearchContext,
        limits: Limits,
        searchmoves: &[String],
        opts: SearchOptions,
    ) -> (Vec<MoveParseError>, Option<JoinHandle<AnyGame<SearcherOf>>>) {
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
                V::into_any::<SearcherOf>(searcher)
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
pub(super) struct SearchContext {
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) control: Arc<Control>,
    pub(super) reporter: Reporter,
}

/// The best move `best` (with the reply `ponder`) of `pos`, with their text.
fn chosen<V: Registered>(pos: &V::Position, best: V::Move, ponder: Option<V::Move>) -> BestMove {
    let mut after = pos.clone();
    V::play(&mut after, best);
    BestMove {
        best: Some(ChosenMove {
            mv: V::any_move(best),
            text: V::move_text(pos, best),
        }),
        ponder: ponder.map(|p| ChosenMove {
            mv: V::any_move(p),
            text: V::move_text(&after, p),
        }),
    }
}

/// A legal move when the search gave none (stopped before its first iteration, or failed): the first of
/// `restrict` when given, else the first legal move; `None` only without a legal move.
fn fallback<V: Registered>(pos: &V::Position, restrict: &[V::Move]) -> BestMove {
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

/// A fresh session of game `kind`, evaluated with `net`.
pub(super) fn new_session(
    kind: GameKind,
    chess960: bool,
    net: Option<&Arc<Network>>,
) -> AnyGame<SessionOf> {
    for_game!(kind, V => V::into_any::<SessionOf>(Session::<V>::new(chess960, net)))
}
