//! `corvid play --variant makromachy`: a person against Corvid at Makromachy, 14x14, in the terminal.
//!
//! The same conduct as for chess (draw offers and resignation by `Conduct`, no take-backs); the rules are
//! `rules::MakroRecord`'s. Moves are typed in the rules' notation: `d4d7`, promotions `c13c14q`, hit-and-run
//! `g2h3,h3i4`, castling `i1c1,a1i1` (or just the King's leg, `i1c1`).

use super::{
    color_name, corvid_name, describe_score, today, BoardStyle, Conduct, PlayConfig, Setup, Thinker,
};
use crate::chess::{Color, MoveParseError};
use crate::makro::position::{sq, FILES, RANKS};
use crate::makro::{Move, MoveKind, Position};
use crate::rules::MakroRecord;
use crate::search::{Limits, Score};
use std::fmt::Write as _;
use std::io::{BufRead, Write};

const HELP: &str = "\
Type a move as the Makromachy rules write it: d4d7, c13c14q (promotion), g2h3,h3i4 (hit-and-run),
i1c1,a1i1 or just i1c1 (castling), or a command:
  draw      offer a draw (or accept Corvid's standing offer)
  accept    accept Corvid's draw offer      decline   decline it
  resign    resign the game                  quit      leave (the game stays unfinished)
  board     draw the board again             moves     list your legal moves
  pgn       show the game so far             help      this text
Pieces: K king, Q queen, R rook, B bishop, N knight, E elephant, I champion, J camel, Z zebra,
M marshall, A archbishop, D dragon king, H dragon horse, O archer, G griffon, U rhino, C cannon,
V vao, L eagle, F raven, S bat, T terror, W warrior, P pawn (upper case White).
There are no take-backs.";

/// The 14x14 board from `viewer`'s side, the squares of `last` highlighted (both legs of a two-leg move).
pub fn draw_makro_board(
    pos: &Position,
    last: Option<Move>,
    viewer: Color,
    style: BoardStyle,
) -> String {
    let marked = |s| {
        last.is_some_and(|m| {
            m.from() == s
                || m.to() == s
                || m.destination() == s
                || (m.kind() == MoveKind::Castling && m.extra() as i32 == s as i32)
        })
    };
    let ranks: Vec<i32> = match viewer {
        Color::White => (0..RANKS).rev().collect(),
        Color::Black => (0..RANKS).collect(),
    };
    let files: Vec<i32> = match viewer {
        Color::White => (0..FILES).collect(),
        Color::Black => (0..FILES).rev().collect(),
    };
    let header: String = files
        .iter()
        .map(|&f| format!(" {} ", (b'a' + f as u8) as char))
        .collect();
    let mut s = String::new();
    let _ = writeln!(s, "    {header}");
    for &r in &ranks {
        let _ = write!(s, " {:>2} ", r + 1);
        for &f in &files {
            let square = sq(f, r);
            let letter = pos.piece_at(square).map(|(c, k)| match c {
                Color::White => k.letter(),
                Color::Black => k.letter().to_ascii_lowercase(),
            });
            match style {
                BoardStyle::Ascii => {
                    let c = letter.unwrap_or('.');
                    if marked(square) {
                        let _ = write!(s, "[{c}]");
                    } else {
                        let _ = write!(s, " {c} ");
                    }
                }
                BoardStyle::Color => {
                    let light = (f + r) % 2 == 1;
                    let bg = match (light, marked(square)) {
                        (true, false) => 180,
                        (false, false) => 137,
                        (true, true) => 186,
                        (false, true) => 142,
                    };
                    // Letters in bold, White's in white and Black's in black: 24 kinds have no glyphs.
                    let (fg, ch) = match pos.piece_at(square) {
                        None => (16, ' '),
                        Some((c, k)) => (if c == Color::White { 231 } else { 16 }, k.letter()),
                    };
                    let _ = write!(s, "\x1b[48;5;{bg}m\x1b[1;38;5;{fg}m {ch} \x1b[0m");
                }
            }
        }
        let _ = writeln!(s, " {}", r + 1);
    }
    let _ = writeln!(s, "    {header}");
    s
}

/// Plays one game of Makromachy (see `play::run`).
pub fn run<R: BufRead, W: Write>(
    config: PlayConfig,
    input: R,
    output: &mut W,
    tty_out: bool,
    tty_in: bool,
) -> Result<(), String> {
    let start = match &config.fen {
        Some(f) => Position::from_fen(f).map_err(|e| format!("invalid Makromachy FEN: {e}"))?,
        None => Position::startpos(),
    };
    let setup = Setup::new(&config, tty_out)?;
    let mut s = Session {
        game: MakroRecord::new(start),
        human: setup.human,
        thinker: setup.thinker,
        conduct: Conduct::new(config.policy.clone()),
        style: setup.style,
        out: output,
        echo: !tty_in,
        config,
    };
    s.say(&setup.greeting);
    s.main_loop(input);
    s.finish()
}

/// A Makromachy session of `corvid play`.
struct Session<'a, W: Write> {
    config: PlayConfig,
    game: MakroRecord,
    human: Color,
    thinker: Thinker,
    conduct: Conduct,
    style: BoardStyle,
    out: &'a mut W,
    echo: bool,
}

impl<W: Write> Session<'_, W> {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn show_board(&mut self) {
        let board = draw_makro_board(
            self.game.position(),
            self.game.moves().last().copied(),
            self.human,
            self.style,
        );
        let _ = write!(self.out, "\n{board}");
        let _ = self.out.flush();
    }

    fn corvid(&self) -> Color {
        self.human.flip()
    }

    fn limits(&self) -> Limits {
        Limits {
            movetime: Some(self.config.movetime_ms),
            ..Limits::default()
        }
    }

    fn legal_list(&self) -> String {
        let list: Vec<String> = self
            .game
            .position()
            .legal_moves()
            .iter()
            .map(|m| m.text())
            .collect();
        list.join(" ")
    }

    fn main_loop<R: BufRead>(&mut self, mut input: R) {
        self.show_board();
        let mut line = String::new();
        while !self.game.is_over() {
            if self.game.position().side_to_move() == self.corvid() {
                self.corvid_turn();
                continue;
            }
            let _ = write!(
                self.out,
                "{} to move{}> ",
                color_name(self.human),
                if self.game.pending_offer() == Some(self.corvid()) {
                    " (Corvid offers a draw: accept, decline, or move)"
                } else {
                    ""
                }
            );
            let _ = self.out.flush();
            line.clear();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    self.say("\n(end of input)");
                    return;
                }
                Ok(_) => {}
            }
            let cmd = line.trim().to_string();
            if self.echo {
                self.say(&cmd);
            }
            if !self.human_command(&cmd) {
                return;
            }
        }
    }

    /// Handles one line on the person's turn; false to leave.
    fn human_command(&mut self, cmd: &str) -> bool {
        let me = self.human;
        match cmd.to_ascii_lowercase().as_str() {
            "" => {}
            "help" | "?" => self.say(HELP),
            "quit" | "exit" => return false,
            "board" => self.show_board(),
            "pgn" => {
                let pgn = self.pgn();
                self.say(&pgn);
            }
            "moves" => {
                let list = self.legal_list();
                self.say(&list);
            }
            "resign" => {
                if self.game.resign(me).is_ok() {
                    self.say("You resign.");
                }
            }
            "accept" => match self.game.accept_draw(me) {
                Ok(()) => self.say("You accept Corvid's draw offer."),
                Err(e) => self.say(&format!("Cannot accept: {e}.")),
            },
            "decline" => match self.game.decline_draw(me) {
                Ok(()) => self.say("You decline the draw offer; play on."),
                Err(e) => self.say(&format!("Cannot decline: {e}.")),
            },
            "draw" => {
                if self.game.pending_offer() == Some(self.corvid()) {
                    if self.game.accept_draw(me).is_ok() {
                        self.say("You accept Corvid's draw offer.");
                    }
                } else {
                    self.human_offers_draw();
                }
            }
            _ => self.human_move(cmd),
        }
        true
    }

    fn human_offers_draw(&mut self) {
        if let Err(e) = self.game.offer_draw(self.human) {
            self.say(&format!("You cannot offer a draw now: {e}."));
            return;
        }
        self.say("You offer a draw. Corvid considers it...");
        let thought = self.thinker.think_makro(&self.game, self.limits());
        // The search ran with the person to move: Corvid's view is the opposite.
        let score = match thought.score {
            Some(Score::Cp(cp)) => Score::Cp(-cp),
            Some(Score::Mate(n)) => Score::Mate(-n),
            None => Score::Cp(0),
        };
        let verdict = format!("(its evaluation: {})", describe_score(score));
        if self.conduct.accepts_draw(score) && self.game.accept_draw(self.corvid()).is_ok() {
            self.say(&format!("Corvid accepts the draw {verdict}."));
        } else {
            let _ = self.game.decline_draw(self.corvid());
            self.say(&format!("Corvid declines the draw {verdict}. Your move."));
        }
    }

    /// The legal move `text` stands for: the rules' notation, or the King's leg alone of a castling.
    fn parse_human(&self, text: &str) -> Result<Move, MoveParseError> {
        let pos = self.game.position();
        pos.parse_move(text).or_else(|e| {
            let t = text.trim();
            pos.legal_moves()
                .into_iter()
                .find(|m| m.kind() == MoveKind::Castling && m.text().split(',').next() == Some(t))
                .ok_or(e)
        })
    }

    fn human_move(&mut self, text: &str) {
        match self.parse_human(text) {
            Ok(m) => match self.game.play(m) {
                Ok(()) => {
                    self.say(&format!("You play {}.", m.text()));
                    self.show_board();
                }
                Err(e) => self.say(&format!("{e}")),
            },
            Err(MoveParseError::Illegal(_)) => {
                let mut why = format!("'{text}' is not a legal move here");
                if self.game.position().in_check() {
                    why.push_str(" (you are in check)");
                }
                let list = self.legal_list();
                self.say(&format!("{why}. Legal moves: {list}"));
            }
            Err(_) => self.say(&format!(
                "'{text}' is neither a move nor a command. Type 'help' for the commands."
            )),
        }
    }

    fn corvid_turn(&mut self) {
        let me = self.corvid();
        self.say("Corvid is thinking...");
        let thought = self.thinker.think_makro(&self.game, self.limits());
        if let Some(score) = thought.score {
            self.conduct.record(score);
        }
        if self.conduct.should_resign() {
            let why = self.conduct.last().map(describe_score).unwrap_or_default();
            if self.game.resign(me).is_ok() {
                self.say(&format!("Corvid resigns (its evaluation: {why})."));
            }
            return;
        }
        let Some(m) = thought
            .best
            .or_else(|| self.game.position().legal_moves().first().copied())
        else {
            // No legal move means the game was already over; the rules have said so.
            return;
        };
        if let Err(e) = self.game.play(m) {
            self.say(&format!(
                "internal error: Corvid's move {} was refused: {e}",
                m.text()
            ));
            let _ = self.game.resign(me);
            return;
        }
        let eval = thought
            .score
            .map(|s| format!(" (evaluation {})", describe_score(s)))
            .unwrap_or_default();
        self.say(&format!("Corvid plays {}{eval}.", m.text()));
        let fullmove = u32::from(self.game.position().fullmove_number());
        if !self.game.is_over()
            && self
                .conduct
                .should_offer_draw_at(self.game.can_offer_draw(me), fullmove)
            && self.game.offer_draw(me).is_ok()
        {
            self.say("Corvid offers a draw: type accept or decline, or just move.");
        }
        self.show_board();
    }

    fn pgn(&self) -> String {
        let (white, black) = match self.human {
            Color::White => ("You".to_string(), corvid_name(self.config.elo)),
            Color::Black => (corvid_name(self.config.elo), "You".to_string()),
        };
        self.game.pgn(&[
            ("Event", "Corvid play".to_string()),
            ("Site", "terminal".to_string()),
            ("Date", today()),
            ("Round", "-".to_string()),
            ("White", white),
            ("Black", black),
        ])
    }

    fn finish(&mut self) -> Result<(), String> {
        match self.game.outcome() {
            Some(o) => self.say(&format!(
                "\nGame over: {} ({}).",
                o.result_str(),
                o.description()
            )),
            None => self.say("\nGame left unfinished."),
        }
        let pgn = self.pgn();
        self.say(&format!("\n{pgn}"));
        if let Some(path) = self.config.pgn_path.clone() {
            std::fs::write(&path, &pgn).map_err(|e| format!("cannot write {path}: {e}"))?;
            self.say(&format!("Saved to {path}."));
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_fourteen_ranks_and_files() {
        let mut g = MakroRecord::startpos();
        let m = g.play_text("h4h7").unwrap();
        let b = draw_makro_board(g.position(), Some(m), Color::White, BoardStyle::Ascii);
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines.len(), 16);
        assert_eq!(
            lines[0].split_whitespace().collect::<String>(),
            "abcdefghijklmn"
        );
        assert_eq!(
            lines[1],
            " 14  d  j  i  v  c  g  u  l  k  c  v  i  j  d  14"
        );
        assert_eq!(lines[8], "  7  .  .  .  .  .  .  . [P] .  .  .  .  .  .  7");
        assert_eq!(
            lines[11],
            "  4  P  P  P  P  P  P  P [.] P  P  P  P  P  P  4"
        );
        let flipped = draw_makro_board(g.position(), Some(m), Color::Black, BoardStyle::Ascii);
        let first = flipped.lines().nth(1).unwrap();
        assert_eq!(first, "  1  D  J  I  V  C  K  L  U  G  C  V  I  J  D  1");
        let color = draw_makro_board(g.position(), Some(m), Color::White, BoardStyle::Color);
        assert!(color.contains("\x1b[48;5;") && color.contains(" L "));
    }
}
