//! Makromachy as a [`Game`] for the generic search: copy-make over a stack of positions, with its own ending
//! rules — threefold repetition, fifty moves (Pawn/Warrior moves and captures reset), bare Kings, and the
//! loss for a player who repeats a position with a checking Eagle move.
//!
//! The game is generic over its [`Evaluator`]; the search's concrete game (the board with the Makromachy
//! evaluation) is `variants::MakroGame`.

use crate::eval::makro::Evaluator;
use crate::game::{Game, GenKind, MoveBuf, ScoredMove};
use crate::makro::geometry::{is_piece, kind_of, sq, FILES, MAILBOX, RANKS};
use crate::makro::movegen::{Move, MoveKind, Sink, ALL, NOISY, QUIET};
use crate::makro::pieces::{Kind, KIND_COUNT};
use crate::makro::position::Position;
use std::fmt::Debug;

/// Room for the legal moves of any Makromachy position (56 pieces a side, 16-way promotions, two-leg moves).
pub const MAX_MAKRO_MOVES: usize = 1024;

pub type MakroMoveList = MoveBuf<Move, MAX_MAKRO_MOVES>;

impl<const N: usize> Sink for MoveBuf<Move, N> {
    /// A list that is full drops the move: only a contrived position (dozens of Queens from a FEN) could
    /// overflow the search's list, and it must not crash the engine.
    #[inline(always)]
    fn add(&mut self, m: Move) {
        if self.len() < N {
            self.push(ScoredMove { mv: m, score: 0 });
        }
    }
}

/// Mailbox square -> board square (rank * 14 + file), 0 off the board: the history tables' square index,
/// looked up for every quiet move the picker scores.
static BOARD_INDEX: [u8; MAILBOX] = {
    let mut t = [0; MAILBOX];
    let mut r = 0;
    while r < RANKS {
        let mut f = 0;
        while f < FILES {
            t[sq(f, r) as usize] = (r * FILES + f) as u8;
            f += 1;
        }
        r += 1;
    }
    t
};

/// Piece values for exchanges and capture ordering, by `Kind::index()` (the King 0: capturing it never
/// happens). The evaluation's fitted material values when they were written; they are the board's own, as
/// chess has `see::SEE_VALUES`, and need not follow a later tuning.
pub const SEE_VALUES: [i32; KIND_COUNT] = [
    0, 1035, 438, 324, 259, 231, 219, 236, 205, 736, 973, 707, 557, 203, 1126, 651, 368, 296, 1485,
    723, 626, 1852, 175, 66,
];

/// Exchange value of a kind.
#[inline(always)]
fn value(kind: Kind) -> i32 {
    SEE_VALUES[kind.index()]
}

/// One state of the game: the position, and whether it was reached by an Eagle move giving check.
#[derive(Clone, Debug)]
struct State {
    pos: Position,
    eagle_check: bool,
}

/// A Makromachy game as the search plays it: the positions from the start (the repetition rules look back
/// over them) and the evaluator.
#[derive(Clone, Debug)]
pub struct MakroGameWith<E: Evaluator> {
    stack: Vec<State>,
    /// Index in `stack` of the search root.
    root: usize,
    eval: E,
}

impl<E: Evaluator + Default> MakroGameWith<E> {
    /// A game starting at `pos`, evaluated by `E`'s default.
    pub fn new(pos: Position) -> MakroGameWith<E> {
        MakroGameWith::with_eval(pos, E::default())
    }
}

impl<E: Evaluator> MakroGameWith<E> {
    /// A game starting at `pos`, evaluated by `eval`.
    pub fn with_eval(pos: Position, eval: E) -> MakroGameWith<E> {
        MakroGameWith {
            stack: vec![State {
                pos,
                eagle_check: false,
            }],
            root: 0,
            eval,
        }
    }

    /// Plays a game move (history kept for the repetition rules).
    pub fn play(&mut self, m: Move) {
        self.push(m);
        self.root = self.stack.len() - 1;
    }

    #[inline(always)]
    pub fn position(&self) -> &Position {
        &self.stack[self.stack.len() - 1].pos
    }

    fn push(&mut self, m: Move) {
        let prev = self.position();
        let mover = prev.at(m.from());
        let mut pos = prev.clone();
        pos.make_move(m);
        let eagle_check = is_piece(mover) && kind_of(mover) == Kind::Eagle && pos.in_check();
        self.stack.push(State { pos, eagle_check });
    }

    /// Earlier occurrences of the current position, and how many lie after the search root.
    fn occurrences(&self) -> (usize, usize) {
        let n = self.stack.len() - 1;
        let cur = &self.stack[n].pos;
        let reach = (cur.halfmove_clock() as usize).min(n);
        let (mut total, mut in_tree) = (0, 0);
        let mut i = n;
        while i >= 2 && n - i + 2 <= reach {
            i -= 2;
            if self.stack[i].pos.key() == cur.key() {
                total += 1;
                if i >= self.root {
                    in_tree += 1;
                }
            }
        }
        (total, in_tree)
    }

    fn is_checkmate(&self) -> bool {
        let pos = self.position();
        pos.in_check() && pos.count_legal_moves() == 0
    }

    /// Only the two Kings are left.
    fn bare_kings(&self) -> bool {
        let pos = self.position();
        pos.piece_count(crate::types::Color::White) == 1
            && pos.piece_count(crate::types::Color::Black) == 1
    }
}

impl<E: Evaluator> Game for MakroGameWith<E> {
    type Move = Move;
    type MoveList = MakroMoveList;

    // History tables are indexed by kind (the side has its own dimension where it matters) and by board
    // square: continuation history is (kinds x squares)^2, 22 M entries here; with colours and mailbox
    // squares it would be 368 M.
    const PIECE_INDICES: usize = KIND_COUNT;
    const SQUARES: usize = (FILES * RANKS) as usize;

    #[inline(always)]
    fn qs_recapture_depth() -> u32 {
        super::params::makro_qs_recapture_depth()
    }

    #[inline(always)]
    fn move_to_bits(m: Move) -> u32 {
        m.0
    }

    #[inline(always)]
    fn move_from_bits(bits: u32) -> Move {
        Move(bits)
    }

    /// `All` is legal (the root); `Noisy` and `Quiet` are pseudo-legal, each move checked by
    /// [`Game::legal_generated`] only when the search is about to play it: most nodes cut off after a few
    /// moves, and the rest never need the test.
    fn generate(&self, kind: GenKind, list: &mut MakroMoveList) {
        let pos = self.position();
        match kind {
            GenKind::All => pos.legal_into::<ALL>(list),
            GenKind::Noisy => pos.pseudo::<NOISY>(list),
            GenKind::Quiet => pos.pseudo::<QUIET>(list),
        }
    }

    #[inline]
    fn legal_generated(&self, m: Move) -> bool {
        self.position().is_legal_pseudo(m)
    }

    fn is_legal(&self, m: Move) -> bool {
        m != Move::NONE && self.position().is_legal_move(m)
    }

    fn make_move(&mut self, m: Move) {
        self.push(m);
    }

    fn unmake_move(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    fn make_null_move(&mut self) {
        let mut pos = self.position().clone();
        pos.make_null_move();
        self.stack.push(State {
            pos,
            eagle_check: false,
        });
    }

    fn unmake_null_move(&mut self) {
        self.unmake_move();
    }

    fn key(&self) -> u64 {
        self.position().key()
    }

    fn in_check(&self) -> bool {
        self.position().in_check()
    }

    fn side_to_move(&self) -> usize {
        self.position().side_to_move().index()
    }

    fn evaluate(&mut self) -> i32 {
        self.eval.evaluate(self.position())
    }

    fn null_move_ok(&self) -> bool {
        let pos = self.position();
        pos.piece_count(pos.side_to_move()) > 6
    }

    fn is_capture(&self, m: Move) -> bool {
        is_capture(self.position(), m)
    }

    fn is_noisy(&self, m: Move) -> bool {
        is_noisy(self.position(), m)
    }

    fn capture_value(&self, m: Move) -> i32 {
        let pos = self.position();
        let victim = match m.kind() {
            MoveKind::EnPassant => value(Kind::Pawn),
            MoveKind::Castling => 0,
            _ => pos.piece_at(m.to()).map_or(0, |(_, k)| value(k)),
        };
        let promo = m.promotion().map_or(0, |k| value(k) - value(Kind::Pawn));
        victim + promo
    }

    fn moved_piece(&self, m: Move) -> usize {
        let c = self.position().at(m.from());
        if is_piece(c) {
            kind_of(c).index()
        } else {
            0
        }
    }

    #[inline(always)]
    fn to_square(m: Move) -> usize {
        BOARD_INDEX[m.destination() as usize] as usize
    }

    fn gives_check(&self, m: Move) -> bool {
        self.position().gives_check(m)
    }

    /// A light exchange test (a full SEE over flying pieces and screens is future work): the capture gains the
    /// victim, and loses the mover too when the destination is defended afterwards.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let pos = self.position();
        let gain = self.capture_value(m);
        if gain < threshold {
            return false;
        }
        let mover = pos.piece_at(m.from()).map_or(0, |(_, k)| value(k));
        if gain - mover >= threshold {
            return true;
        }
        !pos.destination_attacked_after(m)
    }

    fn set_root(&mut self) {
        self.root = self.stack.len() - 1;
        self.stack.reserve(256);
    }

    fn is_draw(&self) -> bool {
        let pos = self.position();
        if pos.halfmove_clock() >= 100 {
            return !self.is_checkmate();
        }
        if self.bare_kings() {
            return true;
        }
        let (total, in_tree) = self.occurrences();
        total >= 2 || in_tree >= 1
    }

    fn lost_by_rule(&self) -> bool {
        // Repeating a position (even its second occurrence) with a checking Eagle move loses.
        self.stack[self.stack.len() - 1].eagle_check && self.occurrences().0 >= 1
    }

    fn move_text(&self, m: Move) -> String {
        m.text()
    }
}

fn is_capture(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant | MoveKind::HitAndRun => true,
        MoveKind::Castling => false,
        _ => pos.piece_at(m.to()).is_some(),
    }
}

fn is_noisy(pos: &Position, m: Move) -> bool {
    m.kind() == MoveKind::Promotion || is_capture(pos, m)
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    /// The rules need no evaluation: a game that scores every position 0.
    #[derive(Clone, Debug, Default)]
    struct ZeroEval;

    impl Evaluator for ZeroEval {
        fn evaluate(&self, _pos: &Position) -> i32 {
            0
        }
    }

    #[test]
    fn eagle_check_repetition_loses() {
        // White Eagle checks from e2, Black King steps away and back, the Eagle checks again from e2: the
        // position after the repeated check has occurred before, so White has lost.
        let mut g = MakroGameWith::<ZeroEval>::new(
            Position::from_fen("4k9/14/14/14/14/14/14/14/14/14/14/14/14/K4L8 w - - 0 1").unwrap(),
        );
        for t in ["f1e2", "e14d14", "e2d2", "d14e14"] {
            let m = g.position().parse_move(t).unwrap();
            g.play(m);
            assert!(!g.lost_by_rule(), "{t}");
        }
        // Eagle back to e2 with check: the position after 1. f1e2 again, so White has lost.
        let m = g.position().parse_move("d2e2").unwrap();
        g.play(m);
        assert!(g.lost_by_rule());
    }
}
