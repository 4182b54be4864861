//! Orthodox chess and Chess960 as a [`Variant`].

mod bench;
mod cecp;
mod play;
mod rules;
mod search;

use crate::chess::types::squares;
use crate::chess::{FenError, Move, Position};
use crate::eval::nnue::{Network, NnueEval};
use crate::game::{GameKind, Variant};
use crate::types::{Color, MoveParseError};
pub use rules::ChessRecord;
pub use search::{scale_evaluation, ChessGameWith};
use std::sync::Arc;

/// Chess as the search plays it: the board's game with the NNUE evaluator (which falls back on the
/// hand-crafted evaluation without a network).
pub type ChessGame = ChessGameWith<NnueEval>;

impl ChessGame {
    /// A game starting at `pos`, evaluated with the built-in network (else the hand-crafted evaluation),
    /// whatever an engine's `EvalFile` says: the engine builds its games with [`Variant::search_state`].
    pub fn new(pos: Position) -> ChessGame {
        ChessGame::with_eval(pos, NnueEval::default_net())
    }
}

/// Orthodox chess (Chess960 is a flag of its positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chess;

impl Variant for Chess {
    const KIND: GameKind = GameKind::Chess;
    const NAME: &'static str = "chess";
    const ALIASES: &'static [&'static str] = &["normal", "standard"];
    const TITLE: &'static str = "orthodox chess, Chess960";
    const BENCH_POSITIONS: &'static [&'static str] = bench::POSITIONS;
    const BENCH_DEPTH: u32 = bench::DEPTH;
    const FEN_NAME: &'static str = "FEN";
    type Position = Position;
    type Move = Move;
    type Search = ChessGame;
    type FenError = FenError;
    /// The network to evaluate with; `None`: the hand-crafted evaluation.
    type EvalSetting = Option<Arc<Network>>;

    fn start_position(chess960: bool) -> Position {
        let mut p = Position::startpos();
        p.set_chess960(chess960);
        p
    }

    fn from_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        Position::from_fen(fen, chess960)
    }

    fn to_fen(pos: &Position) -> String {
        pos.to_fen()
    }

    /// `Chess960`, `Fischerandom`...: Chess960 castling; other tags (`Standard`) are the default game.
    fn reads_pgn_variant(tag: &str) -> Option<bool> {
        (tag.contains("960") || tag.contains("fischer")).then_some(true)
    }

    fn set_chess960(pos: &mut Position, on: bool) {
        pos.set_chess960(on);
    }

    fn side_to_move(pos: &Position) -> Color {
        pos.side_to_move()
    }

    fn legal_moves(pos: &Position) -> Vec<Move> {
        pos.legal_moves().to_vec()
    }

    fn is_legal(pos: &Position, m: Move) -> bool {
        pos.is_legal(m)
    }

    fn play(pos: &mut Position, m: Move) {
        pos.make_move(m);
    }

    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
        pos.parse_uci_move(text)
    }

    fn move_text(pos: &Position, m: Move) -> String {
        m.to_uci(pos.is_chess960())
    }

    fn display(pos: &Position) -> String {
        let checkers: Vec<String> = squares(pos.checkers()).map(|s| s.to_string()).collect();
        format!(
            "{}\nFen: {}\nKey: {:016X}\nCheckers: {}\n",
            pos.pretty(),
            pos.to_fen(),
            pos.key(),
            checkers.join(" ")
        )
    }

    fn evaluate(pos: &Position) -> i32 {
        crate::eval::chess::evaluate(pos)
    }

    fn eval_trace(pos: &Position, net: &Option<Arc<Network>>) -> String {
        let mut text = crate::eval::chess::trace(pos);
        text.push_str(&crate::eval::nnue::trace_line(net.as_deref(), pos));
        text
    }

    fn perft(pos: &Position, depth: u32) -> u64 {
        crate::chess::perft(pos, depth)
    }

    fn search_state(start: &Position, moves: &[Move], net: &Option<Arc<Network>>) -> ChessGame {
        let mut game = ChessGame::with_eval(*start, NnueEval::new(net.clone()));
        for &m in moves {
            game.play(m);
        }
        game
    }
}

impl super::UsesNetwork for Chess {
    fn eval_setting(net: Option<&Arc<Network>>) -> Option<Arc<Network>> {
        net.cloned()
    }
}
