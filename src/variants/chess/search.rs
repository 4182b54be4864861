//! Orthodox chess (and Chess960) as a [`Game`] for the generic search.
//!
//! Copy-make underneath: a stack of `Position`s (the top is the current one) with the Zobrist keys alongside
//! for repetition detection. Taking a move back is popping the stack.
//!
//! The evaluator rides along as an [`EvalState`] (NNUE accumulators, say), told of every move made and taken
//! back. The game is generic over it, so the board code names no evaluator; the search's concrete game (the
//! board with the NNUE evaluator) is `variants::ChessGame`.

use crate::chess::movegen::{gives_check, is_legal_move, MoveSink, ALL, NOISY, QUIET};
use crate::chess::moves::{Move, MoveKind};
use crate::chess::position::Position;
use crate::eval::EvalState;
use crate::game::{Game, GenKind, MoveBuf, TbRootMove, Wdl};
use std::fmt::Debug;

/// Upper bound on legal moves in a chess position (the known maximum is 218).
pub const MAX_CHESS_MOVES: usize = 256;

/// The list chess moves are generated into.
pub type ChessMoveList = MoveBuf<Move, MAX_CHESS_MOVES>;

/// Room reserved on top of the game history so that a search never reallocates the stacks.
const SEARCH_RESERVE: usize = 512;

/// A chess game: the current position plus the history needed for the draw rules, and the evaluator's state.
#[derive(Clone, Debug)]
pub struct ChessGameWith<E: EvalState> {
    /// Positions from the game's start (or the last irreversible move before it) to the current one.
    stack: Vec<Position>,
    /// For each stack entry, the index of the first position after the latest null move (0 without one):
    /// a repetition cannot reach across a null move, since the position before it was not really played.
    floor: Vec<u32>,
    /// Index in `stack` of the search root; repetitions after it are draws at once.
    root: usize,
    /// Follows `stack`: one make per push, one unmake per pop, a reset where the stack restarts.
    eval: E,
}

impl<E: EvalState> ChessGameWith<E> {
    /// A game starting at `pos`, evaluated by `eval` (e.g. `NnueEval::hce()` or a loaded network).
    pub fn with_eval(pos: Position, mut eval: E) -> ChessGameWith<E> {
        eval.reset(&pos);
        let mut stack = Vec::with_capacity(SEARCH_RESERVE);
        stack.push(pos);
        let mut floor = Vec::with_capacity(SEARCH_RESERVE);
        floor.push(0);
        ChessGameWith {
            stack,
            floor,
            root: 0,
            eval,
        }
    }

    /// The evaluator's state.
    pub fn eval_state(&mut self) -> &mut E {
        &mut self.eval
    }

    /// Plays a game move (not a search move): history is kept for repetitions, and trimmed at irreversible
    /// moves, which no repetition can cross.
    pub fn play(&mut self, m: Move) {
        let mut next = *self.position();
        self.eval.make_move(&next, m);
        next.make_move(m);
        if next.halfmove_clock() == 0 {
            self.stack.clear();
            self.floor.clear();
            // Nothing below can be taken back now: the evaluator starts afresh, as the stack does.
            self.eval.reset(&next);
        }
        self.stack.push(next);
        self.floor.push(0);
        self.root = self.stack.len() - 1;
    }

    /// The current position.
    #[inline(always)]
    pub fn position(&self) -> &Position {
        // The stack is never empty: `new` pushes the first position and unmake never pops it.
        &self.stack[self.stack.len() - 1]
    }

    /// Is the side to move checkmated?
    fn is_checkmate(&self) -> bool {
        let pos = self.position();
        pos.in_check() && pos.count_legal_moves() == 0
    }

    /// Has a position occurred twice since the last capture or pawn move (the tablebase root ranking then
    /// insists on the quickest progress)?
    fn has_repeated(&self) -> bool {
        let n = self.stack.len() - 1;
        let reach = (self.stack[n].halfmove_clock() as usize).min(n);
        let lo = (n - reach).max(self.floor[n] as usize);
        (lo..=n).any(|i| (lo..i).any(|j| self.stack[j].key() == self.stack[i].key()))
    }

    /// Does the current position repeat an earlier one within reach of the halfmove clock, such that it is a
    /// draw: a repeat of a position after the root, or a third occurrence overall.
    fn is_repetition(&self) -> bool {
        let n = self.stack.len() - 1;
        let cur = &self.stack[n];
        let reach = (cur.halfmove_clock() as usize).min(n);
        if reach < 4 {
            return false;
        }
        let key = cur.key();
        let mut seen_before_root = false;
        let mut i = n - 2;
        let stop = (n - reach).max(self.floor[n] as usize);
        if n < stop + 4 {
            return false;
        }
        loop {
            i -= 2;
            if self.stack[i].key() == key {
                if i > self.root {
                    return true;
                }
                if seen_before_root {
                    return true;
                }
                seen_before_root = true;
            }
            if i < stop + 2 {
                return false;
            }
        }
    }
}

/// The evaluator's score as the search uses it: larger with more material on the board (an advantage is
/// worth more while there is material to press it with; near-bare endgames are drawish), and damped toward
/// zero as the fifty-move counter rises (a position that makes no progress is heading for a draw).
#[inline(always)]
pub fn scale_evaluation(pos: &Position, raw: i32) -> i32 {
    use crate::chess::types::PieceType;
    let count = |kind| pos.pieces(kind).count_ones() as i32;
    let material = 3 * (count(PieceType::Knight) + count(PieceType::Bishop))
        + 5 * count(PieceType::Rook)
        + 9 * count(PieceType::Queen);
    let base = crate::eval::params::eval_material_base();
    let scaled = raw * (base + material) / (base + 48);
    scaled * (200 - pos.halfmove_clock() as i32).max(0) / 200
}

impl MoveSink for ChessMoveList {
    #[inline(always)]
    fn single(&mut self, m: Move) {
        self.push(crate::game::ScoredMove { mv: m, score: 0 });
    }
}

impl<E: EvalState> Game for ChessGameWith<E> {
    type Move = Move;
    type MoveList = ChessMoveList;

    const PIECE_INDICES: usize = 12;
    const SQUARES: usize = 64;

    #[inline(always)]
    fn move_to_bits(m: Move) -> u32 {
        m.0 as u32
    }

    #[inline(always)]
    fn move_from_bits(bits: u32) -> Move {
        Move(bits as u16)
    }

    #[inline(always)]
    fn generate(&self, kind: GenKind, list: &mut ChessMoveList) {
        let pos = self.position();
        match kind {
            GenKind::All => pos.generate::<ALL, _>(list),
            GenKind::Noisy => pos.generate::<NOISY, _>(list),
            GenKind::Quiet => pos.generate::<QUIET, _>(list),
        }
    }

    #[inline]
    fn is_legal(&self, m: Move) -> bool {
        is_legal_move(self.position(), m)
    }

    #[inline(always)]
    fn make_move(&mut self, m: Move) {
        let n = self.stack.len() - 1;
        self.eval.make_move(&self.stack[n], m);
        let mut next = self.stack[n];
        next.make_move(m);
        self.stack.push(next);
        let f = self.floor[self.floor.len() - 1];
        self.floor.push(f);
    }

    #[inline(always)]
    fn unmake_move(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
            self.floor.pop();
            self.eval.unmake_move();
        }
    }

    #[inline(always)]
    fn make_null_move(&mut self) {
        self.eval.make_null_move();
        let mut next = *self.position();
        next.make_null_move();
        self.stack.push(next);
        self.floor.push(self.floor.len() as u32);
    }

    #[inline(always)]
    fn unmake_null_move(&mut self) {
        self.unmake_move();
    }

    const CORRECTION: bool = true;

    #[inline(always)]
    fn correction_keys(&self) -> [u64; 3] {
        let pos = self.position();
        [
            pos.pawn_key(),
            pos.non_pawn_key(crate::chess::Color::White),
            pos.non_pawn_key(crate::chess::Color::Black),
        ]
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.position().key()
    }

    #[inline(always)]
    fn key_after(&self, m: Move) -> u64 {
        self.position().key_after(m)
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.position().in_check()
    }

    #[inline(always)]
    fn side_to_move(&self) -> usize {
        self.position().side_to_move().index()
    }

    #[inline(always)]
    fn evaluate(&mut self) -> i32 {
        let n = self.stack.len() - 1;
        let raw = self.eval.evaluate(&self.stack[n]);
        scale_evaluation(&self.stack[n], raw)
    }

    #[inline(always)]
    fn null_move_ok(&self) -> bool {
        let pos = self.position();
        pos.non_pawn_material_count(pos.side_to_move()) > 0
    }

    #[inline(always)]
    fn is_capture(&self, m: Move) -> bool {
        self.position().is_capture(m)
    }

    #[inline(always)]
    fn is_noisy(&self, m: Move) -> bool {
        m.kind() == MoveKind::Promotion || self.position().is_capture(m)
    }

    #[inline(always)]
    fn capture_value(&self, m: Move) -> i32 {
        self.position().capture_gain(m)
    }

    #[inline(always)]
    fn moved_piece(&self, m: Move) -> usize {
        self.position().piece_on(m.from()).map_or(0, |p| p.index())
    }

    #[inline(always)]
    fn to_square(m: Move) -> usize {
        m.to().index()
    }

    #[inline]
    fn gives_check(&self, m: Move) -> bool {
        gives_check(self.position(), m)
    }

    #[inline(always)]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.position().see_ge(m, threshold)
    }

    fn set_root(&mut self) {
        self.root = self.stack.len() - 1;
        // Make room for the deepest search line so `make_move` never reallocates in the hot path.
        self.stack.reserve(SEARCH_RESERVE);
        self.floor.reserve(SEARCH_RESERVE);
        self.eval.reserve(SEARCH_RESERVE);
    }

    #[inline]
    fn is_draw(&self) -> bool {
        let pos = self.position();
        if pos.halfmove_clock() >= 100 {
            // Mate on the hundredth ply stands (Dineri: the fifty-move draw yields to checkmate).
            return !self.is_checkmate();
        }
        self.is_repetition() || pos.is_dead_position()
    }

    fn move_text(&self, m: Move) -> String {
        m.to_uci(self.position().is_chess960())
    }

    #[inline]
    fn probe_wdl(&self, max_pieces: u32) -> Option<Wdl> {
        let pos = self.position();
        if pos.halfmove_clock() != 0 || pos.occupied().count_ones() > max_pieces {
            return None;
        }
        crate::tb::probe_wdl(pos)
    }

    fn rank_root_moves(
        &self,
        moves: &[Move],
        max_pieces: u32,
        rule50: bool,
    ) -> Option<Vec<TbRootMove>> {
        let pos = self.position();
        if pos.occupied().count_ones() > max_pieces {
            return None;
        }
        crate::tb::rank_root_moves(pos, moves, self.has_repeated(), rule50)
    }
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    /// The rules need no evaluation: an evaluator that scores every position 0.
    #[derive(Clone, Debug)]
    struct ZeroEval;

    impl EvalState for ZeroEval {
        fn reset(&mut self, _pos: &Position) {}
        fn make_move(&mut self, _pos: &Position, _m: Move) {}
        fn make_null_move(&mut self) {}
        fn unmake_move(&mut self) {}
        fn reserve(&mut self, _plies: usize) {}
        fn evaluate(&mut self, _pos: &Position) -> i32 {
            0
        }
    }

    type TestGame = ChessGameWith<ZeroEval>;

    fn game_after(fen: &str, moves: &[&str]) -> TestGame {
        let mut g =
            TestGame::with_eval(Position::from_fen(fen, false).expect("valid FEN"), ZeroEval);
        for t in moves {
            let m = g.position().parse_uci_move(t).expect("legal");
            g.play(m);
        }
        g
    }

    #[test]
    fn evaluations_shrink_with_material_and_the_fifty_move_counter() {
        let fen = |clock| format!("4k3/8/8/8/8/8/4P3/R3K3 w - - {clock} 60");
        let rook = Position::from_fen(&fen(0), false).unwrap();
        let full = Position::startpos();
        // Full material scales up, a rook ending down (around the middle game the score is its own).
        assert!(scale_evaluation(&full, 100) > 100);
        assert!(scale_evaluation(&rook, 100) < 100);
        assert_eq!(scale_evaluation(&full, 0), 0);
        assert_eq!(scale_evaluation(&full, -100), -scale_evaluation(&full, 100));
        // The same position with half the fifty moves gone is worth a quarter less, at the fiftieth half.
        let late = Position::from_fen(&fen(50), false).unwrap();
        assert_eq!(
            scale_evaluation(&late, 400),
            scale_evaluation(&rook, 400) * 3 / 4
        );
        let gone = Position::from_fen(&fen(100), false).unwrap();
        assert_eq!(
            scale_evaluation(&gone, 400),
            scale_evaluation(&rook, 400) / 2
        );
    }

    #[test]
    fn threefold_in_game_history_is_a_draw() {
        let start = crate::chess::STARTPOS;
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let g = game_after(start, &shuffle);
        assert!(
            !g.is_draw(),
            "second occurrence in game history is not yet a draw"
        );
        let mut moves = shuffle.to_vec();
        moves.extend_from_slice(&shuffle);
        let g = game_after(start, &moves);
        assert!(g.is_draw(), "third occurrence is a draw");
    }

    #[test]
    fn twofold_inside_search_tree_is_a_draw() {
        let mut g = game_after(crate::chess::STARTPOS, &["e2e4"]);
        g.set_root();
        for t in ["g8f6", "g1f3", "f6g8", "f3g1"] {
            let m = g.position().parse_uci_move(t).expect("legal");
            g.make_move(m);
        }
        // Back to the root position: only a repeat of the root itself, not yet a draw.
        assert!(!g.is_draw());
        for t in ["g8f6", "g1f3"] {
            let m = g.position().parse_uci_move(t).expect("legal");
            g.make_move(m);
        }
        // The position after g8f6 g1f3 appeared after the root: draw.
        assert!(g.is_draw());
        for _ in 0..6 {
            g.unmake_move();
        }
        assert_eq!(
            g.position().key(),
            game_after(crate::chess::STARTPOS, &["e2e4"]).key()
        );
    }

    #[test]
    fn repetitions_do_not_reach_across_a_null_move() {
        let mut g = game_after(crate::chess::STARTPOS, &["e2e4"]);
        g.set_root();
        let play = |g: &mut TestGame, t: &str| {
            let m = g.position().parse_uci_move(t).expect("legal");
            g.make_move(m);
        };
        play(&mut g, "g8f6");
        g.make_null_move();
        // White to move again after the pass: Nf6-g8 and back would look like a repeat of the position
        // before the null move only through the pass.
        play(&mut g, "f6g8");
        g.make_null_move();
        play(&mut g, "g8f6");
        assert!(!g.is_draw());
        for _ in 0..5 {
            g.unmake_move();
        }
        assert_eq!(g.floor.len(), g.stack.len());
    }

    #[test]
    fn fifty_move_rule_yields_to_mate() {
        // White mates with Ra8# on the hundredth ply.
        let g = game_after("7k/8/6K1/8/8/8/8/R7 w - - 99 80", &["a1a8"]);
        assert!(g.position().in_check());
        assert!(!g.is_draw(), "mate on the 100th ply stands");
        // A non-mating move on the hundredth ply draws.
        let g = game_after("7k/8/6K1/8/8/8/8/R7 w - - 99 80", &["a1b1"]);
        assert!(g.is_draw());
        let g = game_after("7k/8/6K1/8/8/8/8/R7 w - - 98 80", &["a1b1"]);
        assert!(!g.is_draw());
    }

    #[test]
    fn has_repeated_sees_repetitions_since_the_last_zeroing_move() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let g = game_after(crate::chess::STARTPOS, &shuffle[..3]);
        assert!(!g.has_repeated());
        let g = game_after(crate::chess::STARTPOS, &shuffle);
        assert!(g.has_repeated(), "the start position occurred twice");
        let mut moves = shuffle.to_vec();
        moves.push("e2e4");
        let g = game_after(crate::chess::STARTPOS, &moves);
        assert!(
            !g.has_repeated(),
            "a pawn move puts the repetition out of reach"
        );
    }

    #[test]
    fn dead_positions_are_draws() {
        let g = game_after("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", &[]);
        assert!(g.is_draw());
        let g = game_after("8/8/4k3/8/8/3RK3/8/8 w - - 0 1", &[]);
        assert!(!g.is_draw());
    }

    #[test]
    fn move_bits_round_trip_and_legality() {
        let g = game_after(crate::chess::STARTPOS, &[]);
        let m = g.position().parse_uci_move("e2e4").expect("legal");
        assert_eq!(<TestGame>::move_from_bits(<TestGame>::move_to_bits(m)), m);
        assert!(g.is_legal(m));
        let bad = Move::new(
            crate::chess::Square::new(4, 1),
            crate::chess::Square::new(4, 4),
        );
        assert!(!g.is_legal(bad));
        assert!(!g.is_legal(Move::NONE));
    }
}
