//! A game in progress for any variant: its start, its moves, the draw-offer state and how it ended. The rules
//! common to every game (resignation, draw offers and their re-offer limit, take-backs, PGN) are written here
//! once; how a game ends by itself is the variant's [`Rules::ending`].

use super::{pgn_tag, wrap_movetext, DrawOffers, Outcome, RulesError, Termination};
use crate::game::Variant;
use crate::types::{Color, MoveParseError};

/// What the rules need of a variant beyond [`Variant`]: how its games end by themselves, and how its
/// moves are written in a game record.
pub trait Rules: Variant {
    /// Can the game be told to have ended by itself at `pos`, and how? `last` is the move just played with
    /// the position before it (`None` for a start position); `history` holds the positions before `pos`
    /// since the game began (any order).
    fn ending(
        pos: &Self::Position,
        last: Option<(&Self::Position, Self::Move)>,
        history: &[Self::Position],
    ) -> Option<Outcome>;
    /// A move as the game record writes it (SAN for chess).
    fn record_text(pos: &Self::Position, m: Self::Move) -> String;
    /// Reads a move as a person or a GUI may write it (chess: UCI or SAN).
    fn read_move(pos: &Self::Position, text: &str) -> Result<Self::Move, MoveParseError> {
        Self::parse_move(pos, text)
    }
    /// The full-move number of `pos`.
    fn fullmove_number(pos: &Self::Position) -> u32;
    /// The PGN tags that describe the start (`Variant`, `SetUp`, `FEN`), in order.
    fn start_tags(start: &Self::Position) -> Vec<(&'static str, String)>;
    /// What the material on the board says about a draw (Corvid's draw policy reads it).
    fn draw_material(pos: &Self::Position) -> super::DrawMaterial;
}

/// A game in progress of variant `V`.
#[derive(Clone, Debug)]
pub struct Record<V: Rules> {
    /// Every position of the game, the start first and the current one last.
    positions: Vec<V::Position>,
    moves: Vec<V::Move>,
    outcome: Option<Outcome>,
    offers: DrawOffers,
}

impl<V: Rules> Record<V> {
    /// A game from `start` (which may already be over: mate, stalemate, a dead position...).
    pub fn new(start: V::Position) -> Record<V> {
        let outcome = V::ending(&start, None, &[]);
        Record {
            positions: vec![start],
            moves: Vec::new(),
            outcome,
            offers: DrawOffers::default(),
        }
    }

    /// A game from the standard start position.
    pub fn startpos() -> Record<V> {
        Record::new(V::start_position(false))
    }

    /// The start position.
    pub fn start(&self) -> &V::Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &V::Position {
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[V::Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[V::Position] {
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

    /// Whose move it is.
    pub fn side_to_move(&self) -> Color {
        V::side_to_move(self.position())
    }

    /// What the material of the current position says about a draw.
    pub fn draw_material(&self) -> super::DrawMaterial {
        V::draw_material(self.position())
    }

    /// The current full-move number.
    pub fn fullmove(&self) -> u32 {
        V::fullmove_number(self.position())
    }

    /// Full moves made since the start position.
    pub fn moves_made(&self) -> u32 {
        self.fullmove()
            .saturating_sub(V::fullmove_number(self.start()))
    }

    /// The side whose draw offer stands.
    pub fn pending_offer(&self) -> Option<Color> {
        self.offers.pending()
    }

    fn ongoing(&self) -> Result<(), RulesError> {
        match self.outcome {
            Some(o) => Err(RulesError::GameOver(o)),
            None => Ok(()),
        }
    }

    /// Plays a legal move for the side to move and applies every automatic ending.
    ///
    /// # Errors
    /// `GameOver` once the game has ended; `IllegalMove` for a move that is not legal here.
    pub fn play(&mut self, m: V::Move) -> Result<(), RulesError> {
        self.ongoing()?;
        let before = self.position();
        if !V::is_legal(before, m) {
            return Err(RulesError::IllegalMove(MoveParseError::Illegal(
                V::move_text(before, m),
            )));
        }
        let mover = V::side_to_move(before);
        let mut next = before.clone();
        V::play(&mut next, m);
        let outcome = V::ending(&next, Some((before, m)), &self.positions);
        // An offer lapses when its receiver moves instead of answering.
        self.offers.on_move(mover);
        self.outcome = outcome;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Plays a move written as [`Rules::read_move`] reads it.
    ///
    /// # Errors
    /// As [`Record::play`]; `IllegalMove(Syntax)` for text that is not a move at all.
    pub fn play_text(&mut self, text: &str) -> Result<V::Move, RulesError> {
        self.ongoing()?;
        let m = V::read_move(self.position(), text).map_err(RulesError::IllegalMove)?;
        self.play(m)?;
        Ok(m)
    }

    /// `who` resigns.
    pub fn resign(&mut self, who: Color) -> Result<(), RulesError> {
        self.ongoing()?;
        self.outcome = Some(Outcome::win(who.flip(), Termination::Resignation));
        Ok(())
    }

    /// `who` offers a draw. Refused while the game is over, while `who`'s earlier offer stands, or before the
    /// opponent has played two moves since `who`'s last offer.
    pub fn offer_draw(&mut self, who: Color) -> Result<(), RulesError> {
        self.ongoing()?;
        self.offers.offer(who)
    }

    /// May `who` offer a draw now?
    pub fn can_offer_draw(&self, who: Color) -> bool {
        self.outcome.is_none() && self.offers.can_offer(who)
    }

    /// `who` accepts the opponent's standing offer: the game is drawn.
    pub fn accept_draw(&mut self, who: Color) -> Result<(), RulesError> {
        self.ongoing()?;
        self.offers.answer(who)?;
        self.outcome = Some(Outcome::draw(Termination::Agreement));
        Ok(())
    }

    /// `who` declines the opponent's standing offer; play goes on.
    pub fn decline_draw(&mut self, who: Color) -> Result<(), RulesError> {
        self.offers.answer(who)
    }

    /// Takes back the last `plies` moves (for a GUI's `undo`/`remove`; Dineri games have no take-backs). The
    /// game is replayed from its start, so the outcome is recomputed; draw-offer history is forgotten.
    /// Returns how many plies were actually taken back (never more than were played).
    pub fn take_back(&mut self, plies: usize) -> usize {
        let keep = self.moves.len().saturating_sub(plies);
        let taken = self.moves.len() - keep;
        let moves: Vec<V::Move> = self.moves[..keep].to_vec();
        let mut g = Record::new(self.start().clone());
        for m in moves {
            // Every move was legal when first played from the same start.
            if g.play(m).is_err() {
                break;
            }
        }
        *self = g;
        taken
    }

    /// The moves with move numbers (`1. e4 e5 2. Nf3`), in the record notation, without the result.
    pub fn movetext(&self) -> String {
        let mut out = String::new();
        for (i, (&m, pos)) in self.moves.iter().zip(&self.positions).enumerate() {
            let white = V::side_to_move(pos) == Color::White;
            if white || i == 0 {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&format!("{}.", V::fullmove_number(pos)));
                if !white {
                    out.push_str("..");
                }
            }
            out.push(' ');
            out.push_str(&V::record_text(pos, m));
        }
        out
    }

    /// The game as PGN: the given tags (Event, Site, White, Black...) in order, then `Result`, `Termination`
    /// (when over: the standard's value, `normal`), the variant's start tags, a blank line and the movetext
    /// wrapped at 80 columns, with the reason (`{White mates}`) after the last move, ending with the result
    /// (`*` while unfinished).
    pub fn pgn(&self, tags: &[(&str, String)]) -> String {
        let result = self.outcome.map_or("*", |o| o.result_str());
        let mut out = String::new();
        for (k, v) in tags {
            out.push_str(&pgn_tag(k, v));
        }
        out.push_str(&pgn_tag("Result", result));
        if let Some(o) = self.outcome {
            out.push_str(&pgn_tag("Termination", o.termination.pgn_value()));
        }
        for (k, v) in V::start_tags(self.start()) {
            out.push_str(&pgn_tag(k, &v));
        }
        out.push('\n');
        let mut movetext = self.movetext();
        if let Some(o) = self.outcome {
            movetext.push_str(&format!(" {{{}}}", o.description()));
        }
        out.push_str(&wrap_movetext(&movetext, result));
        out
    }
}
