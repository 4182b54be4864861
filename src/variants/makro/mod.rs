//! Makromachy as a [`Variant`].

use crate::eval::makro::MakroEval;
use crate::game::{GameKind, Variant};
mod bench;
mod cecp;
mod params;
mod play;
mod rules;
mod search;

use crate::makro::{MakroFenError, Move, Position};
use crate::types::{Color, MoveParseError};
pub use rules::MakroRecord;
pub use search::MakroGameWith;

/// Makromachy as the search plays it: the board's game with the Makromachy evaluation.
pub type MakroGame = MakroGameWith<MakroEval>;

/// Makromachy, H. G. Muller's 14x14 variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Makromachy;

impl Variant for Makromachy {
    const KIND: GameKind = GameKind::Makromachy;
    const NAME: &'static str = "makromachy";
    const TITLE: &'static str = "Makromachy";
    const BENCH_POSITIONS: &'static [&'static str] = bench::POSITIONS;
    const BENCH_DEPTH: u32 = bench::DEPTH;
    const FEN_NAME: &'static str = "Makromachy FEN";
    type Position = Position;
    type Move = Move;
    type Search = MakroGame;
    type FenError = MakroFenError;
    /// One evaluation, no network.
    type EvalSetting = ();

    fn start_position(_chess960: bool) -> Position {
        Position::startpos()
    }

    fn from_fen(fen: &str, _chess960: bool) -> Result<Position, MakroFenError> {
        Position::from_fen(fen)
    }

    fn to_fen(pos: &Position) -> String {
        pos.to_fen()
    }

    fn reads_pgn_variant(tag: &str) -> Option<bool> {
        tag.contains("makro").then_some(false)
    }

    fn side_to_move(pos: &Position) -> Color {
        pos.side_to_move()
    }

    fn legal_moves(pos: &Position) -> Vec<Move> {
        pos.legal_moves()
    }

    fn is_legal(pos: &Position, m: Move) -> bool {
        m != Move::NONE && pos.is_legal_move(m)
    }

    fn play(pos: &mut Position, m: Move) {
        pos.make_move(m);
    }

    fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
        pos.parse_move(text)
    }

    fn move_text(_pos: &Position, m: Move) -> String {
        m.text()
    }

    fn display(pos: &Position) -> String {
        format!(
            "{}\nFen: {}\nKey: {:016X}\nCheckers: {}\n",
            pos.pretty(),
            pos.to_fen(),
            pos.key(),
            if pos.in_check() {
                "the side to move is in check"
            } else {
                ""
            }
        )
    }

    fn evaluate(pos: &Position) -> i32 {
        crate::eval::makro::evaluate(pos)
    }

    fn eval_trace(pos: &Position, _eval: &()) -> String {
        crate::eval::makro::trace(pos)
    }

    fn perft(pos: &Position, depth: u32) -> u64 {
        crate::makro::perft(pos, depth)
    }

    fn tunables() -> Vec<crate::tunables::Tunable> {
        params::all()
    }

    fn set_tunable(name: &str, value: i64) -> bool {
        params::set(name, value)
    }

    fn variant_note() -> Option<String> {
        Some(format!(
            "variant makromachy files 14 ranks 14 startpos {}",
            crate::makro::STARTPOS
        ))
    }

    fn search_state(start: &Position, moves: &[Move], _eval: &()) -> MakroGame {
        let mut game = MakroGame::new(start.clone());
        for &m in moves {
            game.play(m);
        }
        game
    }
}

impl super::UsesNetwork for Makromachy {
    fn eval_setting(_net: Option<&std::sync::Arc<crate::eval::nnue::Network>>) {}
}
