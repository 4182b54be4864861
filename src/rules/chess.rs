//! How a game of orthodox chess ends, exactly as the Dineri platform applies the FIDE rules
//! (`../shared/rules/dineri.md`): checkmate, stalemate, and the automatic draws — threefold repetition,
//! the fifty-move rule (a mate on the hundredth ply stands) and the dead positions of Dineri's list — plus
//! resignation and draw by agreement with its re-offer rule.
//!
//! The game record itself is [`Record`], common to every game; this module gives it chess's endings and
//! notation ([`ChessRecord`]). `play`, the xboard front end and tests use it; the search's own draw detection is held against it
//! in tests.

use super::DrawMaterial;
use super::{Outcome, Termination};
use crate::chess::{Color, PieceType, Position};

/// Can `pos` be told to have ended by itself (not by resignation or agreement), and how?
/// `history` holds the positions before it since the game began (any order); the repetition count includes
/// `pos` itself.
pub fn automatic_ending(pos: &Position, history: &[Position]) -> Option<Outcome> {
    let moves = pos.count_legal_moves();
    if moves == 0 {
        return Some(if pos.in_check() {
            Outcome {
                winner: Some(pos.side_to_move().flip()),
                termination: Termination::Checkmate,
            }
        } else {
            Outcome {
                winner: None,
                termination: Termination::Stalemate,
            }
        });
    }
    let draw = |termination| {
        Some(Outcome {
            winner: None,
            termination,
        })
    };
    if pos.is_dead_position() {
        return draw(Termination::DeadPosition);
    }
    // Earlier occurrences: same key and the same position (the key already covers side to move, castling
    // rights and real en-passant rights; comparing the FEN placement guards against a key collision).
    let earlier = history.iter().filter(|p| same_position(p, pos)).count();
    if earlier >= 2 {
        return draw(Termination::ThreefoldRepetition);
    }
    if pos.halfmove_clock() >= 100 {
        return draw(Termination::FiftyMoveRule);
    }
    None
}

/// The same position in the FIDE sense of the repetition rule.
pub fn same_position(a: &Position, b: &Position) -> bool {
    a.key() == b.key()
        && a.side_to_move() == b.side_to_move()
        && a.castling_rights() == b.castling_rights()
        && a.ep_square() == b.ep_square()
        && a.occupied() == b.occupied()
        && crate::chess::PieceType::ALL
            .iter()
            .all(|&k| a.pieces(k) == b.pieces(k))
        && a.color_bb(Color::White) == b.color_bb(Color::White)
}

/// An endgame once the pieces (pawns and kings aside) are worth at most two rooks and a minor each side on
/// average; too little to win when no pawn is left, neither side has more than a rook, and neither is a
/// rook's worth ahead (K+R v K+B, K+R v K+R, K+B v K+N, K+N v K, ...).
pub fn draw_material(pos: &Position) -> DrawMaterial {
    let value = |c: Color| {
        [
            (PieceType::Knight, 300),
            (PieceType::Bishop, 300),
            (PieceType::Rook, 500),
            (PieceType::Queen, 900),
        ]
        .iter()
        .map(|&(k, v)| pos.colored(c, k).count_ones() as i32 * v)
        .sum::<i32>()
    };
    let (white, black) = (value(Color::White), value(Color::Black));
    let pawns = pos.pieces(PieceType::Pawn) != 0;
    DrawMaterial {
        endgame: white + black <= 2 * 1300,
        no_winning_material: !pawns && white.max(black) <= 500 && (white - black).abs() < 500,
    }
}

/// `Variant "Chess960"` for Chess960; `SetUp`/`FEN` when not from the standard start (always for Chess960).
pub fn start_tags(start: &Position) -> Vec<(&'static str, String)> {
    let mut tags = Vec::new();
    let fen = start.to_fen();
    if start.is_chess960() {
        tags.push(("Variant", "Chess960".to_string()));
    }
    if fen != crate::chess::STARTPOS || start.is_chess960() {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", fen));
    }
    tags
}
