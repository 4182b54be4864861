//! Orthodox chess (and Chess960) as a [`Game`] for the generic search.
//!
//! Copy-make underneath: a stack of `Position`s (the top is the current one) with the Zobrist keys alongside
//! for repetition detection. Taking a move back is popping the stack.

use super::movegen::{MoveSink, ALL, NOISY, QUIET};
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::types::{squares, Bitboard, PieceType, Square};
use crate::game::{Game, GenKind, MoveBuf};

/// Upper bound on legal moves in a chess position (the known maximum is 218).
pub const MAX_CHESS_MOVES: usize = 256;

/// The list chess moves are generated into.
pub type ChessMoveList = MoveBuf<Move, MAX_CHESS_MOVES>;

/// Room reserved on top of the game history so that a search never reallocates the stacks.
const SEARCH_RESERVE: usize = 512;

/// A chess game: the current position plus the history needed for the draw rules.
#[derive(Clone, Debug)]
pub struct ChessGame {
    /// Positions from the game's start (or the last irreversible move before it) to the current one.
    stack: Vec<Position>,
    /// Index in `stack` of the search root; repetitions after it are draws at once.
    root: usize,
}

impl ChessGame {
    /// A game starting at `pos`.
    pub fn new(pos: Position) -> ChessGame {
        let mut stack = Vec::with_capacity(SEARCH_RESERVE);
        stack.push(pos);
        ChessGame { stack, root: 0 }
    }

    /// Plays a game move (not a search move): history is kept for repetitions, and trimmed at irreversible
    /// moves, which no repetition can cross.
    pub fn play(&mut self, m: Move) {
        let mut next = *self.position();
        next.make_move(m);
        if next.halfmove_clock() == 0 {
            self.stack.clear();
        }
        self.stack.push(next);
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
        let stop = n - reach;
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

impl MoveSink for ChessMoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        for to in squares(targets) {
            self.push(Move::new(from, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, promo: bool) {
        for to in squares(targets) {
            let from = Square((to.0 as i8 - delta) as u8);
            if promo {
                for p in [
                    PieceType::Queen,
                    PieceType::Knight,
                    PieceType::Rook,
                    PieceType::Bishop,
                ] {
                    self.push(Move::promotion(from, to, p));
                }
            } else {
                self.push(Move::new(from, to));
            }
        }
    }

    #[inline(always)]
    fn single(&mut self, m: Move) {
        self.push(m);
    }
}

impl Game for ChessGame {
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

    fn is_legal(&self, m: Move) -> bool {
        if m.is_none() {
            return false;
        }
        let pos = self.position();
        // Cheap rejections before generating: our piece must stand on the origin.
        match pos.piece_on(m.from()) {
            Some(p) if p.color() == pos.side_to_move() => {}
            _ => return false,
        }
        let mut list = ChessMoveList::new();
        if self.is_noisy(m) {
            pos.generate::<NOISY, _>(&mut list);
        } else {
            pos.generate::<QUIET, _>(&mut list);
        }
        list.as_slice().iter().any(|s| s.mv == m)
    }

    #[inline(always)]
    fn make_move(&mut self, m: Move) {
        let mut next = *self.position();
        next.make_move(m);
        self.stack.push(next);
    }

    #[inline(always)]
    fn unmake_move(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    #[inline(always)]
    fn make_null_move(&mut self) {
        let mut next = *self.position();
        next.make_null_move();
        self.stack.push(next);
    }

    #[inline(always)]
    fn unmake_null_move(&mut self) {
        self.unmake_move();
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.position().key()
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
    fn evaluate(&self) -> i32 {
        crate::eval::chess::evaluate(self.position())
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
        let mut next = *self.position();
        next.make_move(m);
        next.in_check()
    }

    #[inline(always)]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.position().see_ge(m, threshold)
    }

    fn set_root(&mut self) {
        self.root = self.stack.len() - 1;
        // Make room for the deepest search line so `make_move` never reallocates in the hot path.
        self.stack.reserve(SEARCH_RESERVE);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_after(fen: &str, moves: &[&str]) -> ChessGame {
        let mut g = ChessGame::new(Position::from_fen(fen, false).expect("valid FEN"));
        for t in moves {
            let m = g.position().parse_uci_move(t).expect("legal");
            g.play(m);
        }
        g
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
        assert_eq!(ChessGame::move_from_bits(ChessGame::move_to_bits(m)), m);
        assert!(g.is_legal(m));
        let bad = Move::new(Square::new(4, 1), Square::new(4, 4));
        assert!(!g.is_legal(bad));
        assert!(!g.is_legal(Move::NONE));
    }
}
