//! Random openings, drawn one way for every tool: `corvid match` (any game), `datagen` and `genfens` (chess).
//! A line is judged by the game's own rules ([`Rules::ending`]), so an opening never starts a finished game,
//! and the same generator state gives the same line.

use crate::rng::Rng;
use crate::rules::Rules;

/// How often [`random_opening`] draws a line again before it settles for a shorter one.
const TRIES: usize = 100;

/// A line of random legal plies: the positions, the start first, and the moves between them.
#[derive(Clone, Debug)]
pub struct RandomLine<V: Rules> {
    pub positions: Vec<V::Position>,
    pub moves: Vec<V::Move>,
    /// The last position ends the game by the rules (none before it does).
    pub ended: bool,
}

impl<V: Rules> RandomLine<V> {
    /// The position after the line.
    pub fn last(&self) -> &V::Position {
        &self.positions[self.positions.len() - 1]
    }

    /// The line without the ply that ended the game, if one did (a start that is already over stays).
    fn unfinished(mut self) -> RandomLine<V> {
        if self.ended && !self.moves.is_empty() {
            self.positions.pop();
            self.moves.pop();
            self.ended = false;
        }
        self
    }
}

/// Up to `plies` random legal plies from `start`, stopping at the first position that ends the game. Each
/// ply draws one number by remainder ([`Rng::below_mod`]), which keeps datagen's and genfens' output for a
/// seed what it has always been.
pub fn random_line<V: Rules>(start: V::Position, plies: usize, rng: &mut Rng) -> RandomLine<V> {
    let mut line = RandomLine::<V> {
        ended: V::ending(&start, None, &[]).is_some(),
        positions: vec![start],
        moves: Vec::new(),
    };
    while line.moves.len() < plies && !line.ended {
        let pos = line.last();
        let legal = V::legal_moves(pos);
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below_mod(legal.len())];
        let mut next = pos.clone();
        V::play(&mut next, m);
        let ended = V::ending(&next, Some((pos, m)), &line.positions).is_some();
        line.ended = ended;
        line.positions.push(next);
        line.moves.push(m);
    }
    line
}

/// `plies` random legal plies, none of them ending the game, from a start that `start` draws: a line that
/// ends the game or runs out of moves is drawn again, its start too. After [`TRIES`] lines the longest
/// unfinished beginning of one is kept (the first of the longest).
pub fn random_opening<V: Rules>(
    mut start: impl FnMut(&mut Rng) -> V::Position,
    plies: usize,
    rng: &mut Rng,
) -> RandomLine<V> {
    let mut best = random_line::<V>(start(rng), plies, rng).unfinished();
    for _ in 1..TRIES {
        if best.moves.len() == plies {
            break;
        }
        let line = random_line::<V>(start(rng), plies, rng).unfinished();
        if line.moves.len() > best.moves.len() {
            best = line;
        }
    }
    best
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::variants::{Chess, Makromachy};

    #[test]
    fn a_line_stops_where_the_game_ends() {
        // Fool's mate is one ply away: every line from here that finds it ends there, and the opening
        // drawn from it never keeps the mating ply.
        let start = Chess::from_fen(
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
            false,
        )
        .unwrap();
        let mut rng = Rng::new(1);
        for _ in 0..200 {
            let line = random_line::<Chess>(start, 3, &mut rng);
            assert!(line.ended || line.moves.len() == 3);
            assert_eq!(line.positions.len(), line.moves.len() + 1);
            let opening = random_opening::<Chess>(|_| start, 3, &mut rng);
            assert!(!opening.ended);
            assert!(Chess::ending(opening.last(), None, &[]).is_none());
        }
    }

    #[test]
    fn openings_are_seeded_full_length_and_unfinished() {
        let draw = |seed| {
            random_opening::<Makromachy>(
                |_| Makromachy::start_position(false),
                6,
                &mut Rng::new(seed),
            )
        };
        let (a, b, c) = (draw(7), draw(7), draw(8));
        assert_eq!(a.moves, b.moves);
        assert_ne!(a.moves, c.moves);
        assert_eq!(a.moves.len(), 6);
        assert!(!a.ended);
    }
}
