//! STUB of ChessGame (replaced by the search branch).

use super::{Move, Position};

/// A game: the current position and its history.
#[derive(Clone, Debug)]
pub struct ChessGame {
    stack: Vec<Position>,
}

impl ChessGame {
    /// A game starting at `pos`.
    pub fn new(pos: Position) -> ChessGame {
        ChessGame { stack: vec![pos] }
    }
    /// Plays a game move.
    pub fn play(&mut self, m: Move) {
        let mut next = *self.position();
        next.make_move(m);
        self.stack.push(next);
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.stack[self.stack.len() - 1]
    }
}
