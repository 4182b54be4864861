//! How a game of Makromachy ends (`../shared/rules/makromachy.md`): checkmate, stalemate (a draw), bare Kings
//! (a draw), threefold repetition, the fifty-move rule (captures, hit-and-run and Pawn or Warrior moves reset
//! it; a mate on the hundredth ply stands), and the loss for a player who produces a position that occurred
//! before with an Eagle move after which the opponent is in check — plus resignation and draw offers as in
//! chess.
//!
//! [`MakroRecord`] (the common [`Record`] with these endings) is the adjudicator for front ends and match tools; `variants::MakroGame` (the search's
//! game) detects the same endings on its own and is held against this module in tests.

use super::{DrawMaterial, Outcome, Termination};
use crate::makro::geometry::{sq, FILES, RANKS};
use crate::makro::{Kind, Move, Position, STARTPOS};
use crate::types::Color;

/// The same position in the sense of the repetition rules: the same pieces on the same squares, the same side
/// to move, the same castling rights and the same *live* en-passant squares (e.p. squares no capture can use
/// do not count). The position key encodes exactly these; comparing the board guards against a collision.
pub fn same_makro_position(a: &Position, b: &Position) -> bool {
    a.key() == b.key()
        && a.side_to_move() == b.side_to_move()
        && a.castling_rights() == b.castling_rights()
        && a.live_ep_squares() == b.live_ep_squares()
        && (0..RANKS).all(|r| (0..FILES).all(|f| a.at(sq(f, r)) == b.at(sq(f, r))))
}

/// Can the game be told to have ended by itself after `m` took `before` to `pos`, and how? `history` holds
/// the positions before `pos` since the game began (`before` among them; any order). `m` is `None` for a
/// start position (nothing was just played).
///
/// The Eagle-check loss comes first: it punishes the move just made, even when the position it repeats would
/// also be a third occurrence or the hundredth quiet ply (the search scores it the same way).
pub fn makro_ending(
    pos: &Position,
    last: Option<(&Position, Move)>,
    history: &[Position],
) -> Option<Outcome> {
    let earlier = || {
        history
            .iter()
            .filter(|p| same_makro_position(p, pos))
            .count()
    };
    if let Some((before, m)) = last {
        let eagle = before
            .piece_at(m.from())
            .is_some_and(|(_, k)| k == Kind::Eagle);
        if eagle && pos.in_check() && earlier() >= 1 {
            return Some(Outcome::win(
                pos.side_to_move(),
                Termination::EagleCheckRepetition,
            ));
        }
    }
    if pos.count_legal_moves() == 0 {
        return Some(if pos.in_check() {
            Outcome::win(pos.side_to_move().flip(), Termination::Checkmate)
        } else {
            Outcome::draw(Termination::Stalemate)
        });
    }
    if pos.piece_count(Color::White) == 1 && pos.piece_count(Color::Black) == 1 {
        return Some(Outcome::draw(Termination::BareKings));
    }
    if earlier() >= 2 {
        return Some(Outcome::draw(Termination::ThreefoldRepetition));
    }
    if pos.halfmove_clock() >= 100 {
        return Some(Outcome::draw(Termination::FiftyMoveRule));
    }
    None
}

/// An endgame once fewer than a third of the 112 men are left; bare Kings end the game by rule, so the
/// material alone never says that neither side can win.
pub fn draw_material(pos: &Position) -> DrawMaterial {
    let men = pos.piece_count(Color::White) + pos.piece_count(Color::Black);
    DrawMaterial {
        endgame: men * 3 < 112,
        no_winning_material: false,
    }
}

/// `Variant "makromachy"`, and `SetUp`/`FEN` when not from the standard start.
pub fn start_tags(start: &Position) -> Vec<(&'static str, String)> {
    let mut tags = vec![("Variant", "makromachy".to_string())];
    let fen = start.to_fen();
    if fen != STARTPOS {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", fen));
    }
    tags
}
