//! Orthodox chess evaluation. (Material only for now: the tuned tapered evaluation replaces it.)

use crate::chess::{Color, PieceType, Position};

const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for kind in PieceType::ALL {
        let diff = pos.colored(Color::White, kind).count_ones() as i32
            - pos.colored(Color::Black, kind).count_ones() as i32;
        score += diff * VALUES[kind.index()];
    }
    if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    }
}

/// A human-readable breakdown of `evaluate` (the UCI `eval` command prints it).
pub fn trace(pos: &Position) -> String {
    format!("material: {} cp (side to move)\n", evaluate(pos))
}
