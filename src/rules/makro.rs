//! How a game of Makromachy ends (`../shared/rules/makromachy.md`): checkmate, stalemate (a draw), bare Kings
//! (a draw), threefold repetition, the fifty-move rule (captures, hit-and-run and Pawn or Warrior moves reset
//! it; a mate on the hundredth ply stands), and the loss for a player who produces a position that occurred
//! before with an Eagle move after which the opponent is in check — plus resignation and draw offers as in
//! chess.
//!
//! [`MakroRecord`] is the adjudicator for front ends and match tools; `makro::game::MakroGame` (the search's
//! game) detects the same endings on its own and is held against this module in tests.

use super::{pgn_tag, wrap_movetext, DrawOffers, Outcome, RulesError, Termination};
use crate::chess::{Color, MoveParseError};
use crate::makro::position::{sq, FILES, RANKS};
use crate::makro::{Kind, Move, Position, STARTPOS};

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

/// A game of Makromachy in progress: its start, its moves, the draw-offer state, and how it ended. The
/// counterpart of [`super::Game`] for orthodox chess (named so as not to clash with the search's
/// `makro::game::MakroGame`).
#[derive(Clone, Debug)]
pub struct MakroRecord {
    /// Every position of the game, the start first and the current one last.
    positions: Vec<Position>,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
    offers: DrawOffers,
}

impl MakroRecord {
    /// A game from `start` (which may already be over: mate, stalemate, bare Kings).
    pub fn new(start: Position) -> MakroRecord {
        let outcome = makro_ending(&start, None, &[]);
        MakroRecord {
            positions: vec![start],
            moves: Vec::new(),
            outcome,
            offers: DrawOffers::default(),
        }
    }

    /// A game from the standard start position.
    pub fn startpos() -> MakroRecord {
        MakroRecord::new(Position::startpos())
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Has the game ended?
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The side whose draw offer stands.
    pub fn pending_offer(&self) -> Option<Color> {
        self.offers.pending()
    }

    /// Plays a legal move for the side to move and applies every automatic ending.
    ///
    /// # Errors
    /// `GameOver` once the game has ended; `IllegalMove` for a move that is not legal here.
    pub fn play(&mut self, m: Move) -> Result<(), RulesError> {
        if let Some(o) = self.outcome {
            return Err(RulesError::GameOver(o));
        }
        let before = self.position();
        if m == Move::NONE || !before.legal_moves().contains(&m) {
            return Err(RulesError::IllegalMove(MoveParseError::Illegal(m.text())));
        }
        let mut next = before.clone();
        next.make_move(m);
        let outcome = makro_ending(&next, Some((before, m)), &self.positions);
        self.offers.on_move(next.side_to_move().flip());
        self.outcome = outcome;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Plays a move written in the rules' notation (`d4d7`, `c13c14q`, `g2h3,h3i4`, `i1c1,a1i1`).
    ///
    /// # Errors
    /// As [`MakroRecord::play`]; `IllegalMove(Syntax)` for text that is not a move at all.
    pub fn play_text(&mut self, text: &str) -> Result<Move, RulesError> {
        if let Some(o) = self.outcome {
            return Err(RulesError::GameOver(o));
        }
        let m = self
            .position()
            .parse_move(text)
            .map_err(RulesError::IllegalMove)?;
        self.play(m)?;
        Ok(m)
    }

    /// `who` resigns.
    pub fn resign(&mut self, who: Color) -> Result<(), RulesError> {
        if let Some(o) = self.outcome {
            return Err(RulesError::GameOver(o));
        }
        self.outcome = Some(Outcome::win(who.flip(), Termination::Resignation));
        Ok(())
    }

    /// `who` offers a draw (the re-offer rule as in chess).
    pub fn offer_draw(&mut self, who: Color) -> Result<(), RulesError> {
        if let Some(o) = self.outcome {
            return Err(RulesError::GameOver(o));
        }
        self.offers.offer(who)
    }

    /// May `who` offer a draw now?
    pub fn can_offer_draw(&self, who: Color) -> bool {
        self.outcome.is_none() && self.offers.can_offer(who)
    }

    /// `who` accepts the opponent's standing offer: the game is drawn.
    pub fn accept_draw(&mut self, who: Color) -> Result<(), RulesError> {
        if let Some(o) = self.outcome {
            return Err(RulesError::GameOver(o));
        }
        self.offers.answer(who)?;
        self.outcome = Some(Outcome::draw(Termination::Agreement));
        Ok(())
    }

    /// `who` declines the opponent's standing offer; play goes on.
    pub fn decline_draw(&mut self, who: Color) -> Result<(), RulesError> {
        self.offers.answer(who)
    }

    /// Takes back the last `plies` moves (for a GUI's `undo`/`remove`), replaying from the start so the
    /// outcome is recomputed; draw-offer history is forgotten. Returns how many plies were taken back.
    pub fn take_back(&mut self, plies: usize) -> usize {
        let keep = self.moves.len().saturating_sub(plies);
        let taken = self.moves.len() - keep;
        let moves: Vec<Move> = self.moves[..keep].to_vec();
        let mut g = MakroRecord::new(self.start().clone());
        for m in moves {
            // Every move was legal when first played from the same start.
            if g.play(m).is_err() {
                break;
            }
        }
        *self = g;
        taken
    }

    /// The moves in the rules' notation with move numbers (`1. h4h7 h11h8 2. ...`).
    pub fn movetext(&self) -> String {
        let mut out = String::new();
        for (i, (m, pos)) in self.moves.iter().zip(&self.positions).enumerate() {
            let white = pos.side_to_move() == Color::White;
            if white || i == 0 {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&format!("{}.", pos.fullmove_number()));
                if !white {
                    out.push_str("..");
                }
            }
            out.push(' ');
            out.push_str(&m.text());
        }
        out
    }

    /// The game as PGN: the given tags, `Result`, `Termination` (when over), `Variant "makromachy"`,
    /// `SetUp`/`FEN` when not from the standard start, and the movetext in the rules' notation.
    pub fn pgn(&self, tags: &[(&str, String)]) -> String {
        let result = self.outcome.map_or("*", |o| o.result_str());
        let mut out = String::new();
        for (k, v) in tags {
            out.push_str(&pgn_tag(k, v));
        }
        out.push_str(&pgn_tag("Result", result));
        if let Some(o) = self.outcome {
            out.push_str(&pgn_tag("Termination", &o.description()));
        }
        out.push_str(&pgn_tag("Variant", "makromachy"));
        let fen = self.start().to_fen();
        if fen != STARTPOS {
            out.push_str(&pgn_tag("SetUp", "1"));
            out.push_str(&pgn_tag("FEN", &fen));
        }
        out.push('\n');
        out.push_str(&wrap_movetext(&self.movetext(), result));
        out
    }
}
