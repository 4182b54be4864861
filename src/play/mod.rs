//! `corvid play`: a person against Corvid in the terminal.
//!
//! Every rule decision (legality, the automatic endings, draw offers and their re-offer rule, resignation) is
//! the game's `rules::Record`'s; this module draws the board, reads commands and decides how Corvid conducts
//! itself ([`Conduct`]: when it accepts or offers a draw and when it resigns — the CECP front end uses the
//! same). Input is one command a line, from a terminal or a pipe, so the mode is scriptable; bad input is
//! explained and the prompt comes back. Every game (`--variant`) is played by the same loop, through what its
//! folder in `variants` implements of `game::PlayHooks`.

use crate::engine::{Engine, Report};
use crate::for_game;
use crate::game::{GameKind, PlayHooks};
use crate::rng::Rng;
use crate::rules::Record;
use crate::search::{Event, Limits, Score};
use crate::types::{Color, MoveParseError};
use crate::variants::Registered;
use crossbeam_channel::{unbounded, Receiver};
use std::io::{BufRead, Write};
use std::sync::Arc;

use crate::conduct::{contempt_cp, own_strength};
pub use crate::conduct::{score_value, Conduct, Policy};

/// What the engine decided in a position: its move and its evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision<M> {
    /// The move to play (`None` without a legal move).
    pub best: Option<M>,
    /// The evaluation for the side to move, when the search reported one.
    pub score: Option<Score>,
}

/// An engine used synchronously: set the game, search, wait, read the decision.
pub struct BlockingEngine {
    engine: Engine,
    reports: Receiver<Report>,
}

impl Default for BlockingEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl BlockingEngine {
    pub fn new() -> BlockingEngine {
        let (tx, reports) = unbounded();
        let engine = Engine::new(Arc::new(move |r| {
            let _ = tx.send(r);
        }));
        BlockingEngine { engine, reports }
    }

    /// The engine, to set options.
    pub fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Searches the game of variant `V` from `start` through `moves` within `limits` and waits for the
    /// result (the engine is switched to `V` first).
    pub fn decide<V: Registered>(
        &mut self,
        start: &V::Position,
        moves: &[V::Move],
        limits: Limits,
    ) -> Decision<V::Move> {
        let mut decision = Decision {
            best: None,
            score: None,
        };
        if self.engine.game_kind() != V::KIND
            && self
                .engine
                .set_option("UCI_Variant", Some(V::KIND.name()))
                .is_err()
        {
            return decision;
        }
        if self.engine.set_game::<V>(start, moves).is_err() {
            return decision;
        }
        while self.reports.try_recv().is_ok() {}
        self.engine.go(limits, &[]);
        self.engine.wait();
        while let Ok(r) = self.reports.try_recv() {
            match r {
                Report::Search(Event::Info(info)) if info.multipv == 1 => {
                    decision.score = Some(info.score)
                }
                Report::BestMove(o) => decision.best = o.best_as::<V>(),
                Report::Search(_) => {}
            }
        }
        decision
    }
}

pub use crate::game::BoardStyle;

/// Everything `corvid play` takes from the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayConfig {
    /// The person's colour; `None`: drawn at random.
    pub human: Option<Color>,
    /// Seed of the colour draw (`None`: from the clock).
    pub seed: Option<u64>,
    /// Forced style; `None`: colour on a terminal without `NO_COLOR`, ASCII otherwise.
    pub style: Option<BoardStyle>,
    /// Strength limit (the UCI_LimitStrength mechanism).
    pub elo: Option<u32>,
    /// Thinking time per move.
    pub movetime_ms: u64,
    /// Start position (`None`: the standard one).
    pub fen: Option<String>,
    /// The game (`--variant`).
    pub variant: GameKind,
    /// Where to save the PGN.
    pub pgn_path: Option<String>,
    /// The person's strength as Corvid assumes it (for its contempt).
    pub opponent_elo: u32,
    pub policy: Policy,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            human: None,
            seed: None,
            style: None,
            elo: None,
            movetime_ms: 1000,
            fen: None,
            variant: GameKind::DEFAULT,
            pgn_path: None,
            opponent_elo: 1500,
            policy: Policy::default(),
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A score for people: `+1.25` pawns or `mate in 3` / `mated in 2`, from Corvid's side.
fn describe_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("mate in {n}"),
        Score::Mate(n) => format!("mated in {}", -n),
    }
}

/// A session of `corvid play`: the game, the engine, and where text goes.
struct PlaySession<'a, V: PlayHooks + Registered, W: Write> {
    config: PlayConfig,
    game: Record<V>,
    human: Color,
    engine: BlockingEngine,
    conduct: Conduct,
    style: BoardStyle,
    out: &'a mut W,
    /// Echo input lines (when they do not come from a terminal, so the transcript reads as a dialogue).
    echo: bool,
}

/// Where a game is played: the person's input (one command a line), the output, and whether each is a
/// terminal (`tty_out`: the board style then defaults to colour; `tty_in`: typed input, otherwise each line
/// is echoed so that a transcript reads as a dialogue).
pub struct Console<'a, R: BufRead, W: Write> {
    pub input: R,
    pub output: &'a mut W,
    pub tty_out: bool,
    pub tty_in: bool,
}

/// Plays one game on `console`. Errors are set-up problems (a bad FEN or Elo, an unwritable PGN file), as
/// text for the command line.
pub fn run<R: BufRead, W: Write>(
    config: PlayConfig,
    console: Console<'_, R, W>,
) -> Result<(), String> {
    for_game!(config.variant, V => run_game::<V, R, W>(config, console))
}

fn run_game<V: PlayHooks + Registered, R: BufRead, W: Write>(
    config: PlayConfig,
    console: Console<'_, R, W>,
) -> Result<(), String> {
    let Console {
        input,
        output,
        tty_out,
        tty_in,
    } = console;
    let start = match &config.fen {
        Some(f) => V::from_fen(f, false).map_err(|e| format!("invalid {}: {e}", V::FEN_NAME))?,
        None => V::start_position(false),
    };
    let setup = Setup::new(&config, tty_out, V::GREETING)?;
    let mut s = PlaySession::<V, W> {
        game: Record::new(start),
        human: setup.human,
        engine: setup.engine,
        conduct: Conduct::new(Policy {
            // Contempt from the strength gap: an unlimited Corvid against a club player plays on.
            contempt_cp: contempt_cp(own_strength(config.elo), config.opponent_elo),
            ..config.policy.clone()
        }),
        style: setup.style,
        out: output,
        echo: !tty_in,
        config,
    };
    s.say(&setup.greeting);
    s.main_loop(input);
    s.finish()
}

/// What every game of `corvid play` sets up alike: the person's colour, the board style, the engine (with
/// its strength limit) and the greeting.
struct Setup {
    human: Color,
    style: BoardStyle,
    engine: BlockingEngine,
    greeting: String,
}

impl Setup {
    /// `game` is what the greeting says of the game ([`PlayHooks::GREETING`]).
    fn new(config: &PlayConfig, tty_out: bool, game: &str) -> Result<Setup, String> {
        let seed = config.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
        let drawn = if Rng::new(seed).next_u64() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let human = config.human.unwrap_or(drawn);
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let style = config.style.unwrap_or(if tty_out && !no_color {
            BoardStyle::Color
        } else {
            BoardStyle::Ascii
        });
        let mut engine = BlockingEngine::new();
        if let Some(elo) = config.elo {
            let e = engine.engine();
            e.set_option("UCI_LimitStrength", Some("true"))
                .and_then(|()| e.set_option("UCI_Elo", Some(&elo.to_string())))
                .map_err(|e| e.to_string())?;
        }
        let how = if config.human.is_some() {
            "chosen".to_string()
        } else {
            format!("drawn at random, seed {seed}")
        };
        let greeting = format!(
            "Corvid {} —{game} you play {} ({how}). Type 'help' for commands.",
            env!("CARGO_PKG_VERSION"),
            color_name(human)
        );
        Ok(Setup {
            human,
            style,
            engine,
            greeting,
        })
    }
}

impl<V: PlayHooks + Registered, W: Write> PlaySession<'_, V, W> {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn show_board(&mut self) {
        let board = V::draw(
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

    fn main_loop<R: BufRead>(&mut self, mut input: R) {
        self.show_board();
        let mut line = String::new();
        while !self.game.is_over() {
            if self.game.side_to_move() == self.corvid() {
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
            "help" | "?" => self.say(V::HELP),
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
        let thought = self
            .engine
            .decide::<V>(self.game.start(), self.game.moves(), self.limits());
        // The search ran with the person to move: Corvid's view is the opposite.
        let score = match thought.score {
            Some(Score::Cp(cp)) => Score::Cp(-cp),
            Some(Score::Mate(n)) => Score::Mate(-n),
            None => Score::Cp(0),
        };
        let verdict = format!("(its evaluation: {})", describe_score(score));
        if self.conduct.accepts_draw(score, self.game.draw_material())
            && self.game.accept_draw(self.corvid()).is_ok()
        {
            self.say(&format!("Corvid accepts the draw {verdict}."));
        } else {
            let _ = self.game.decline_draw(self.corvid());
            self.say(&format!("Corvid declines the draw {verdict}. Your move."));
        }
    }

    /// The legal moves, as the person is shown them.
    fn legal_list(&self) -> String {
        let pos = self.game.position();
        let list: Vec<String> = V::legal_moves(pos)
            .into_iter()
            .map(|m| V::show_move(pos, m))
            .collect();
        list.join(" ")
    }

    fn human_move(&mut self, text: &str) {
        let pos = self.game.position();
        match V::read_human(pos, text) {
            Ok(m) => {
                let shown = V::show_move(pos, m);
                match self.game.play(m) {
                    Ok(()) => {
                        self.say(&format!("You play {shown}."));
                        self.show_board();
                    }
                    Err(e) => self.say(&format!("{e}")),
                }
            }
            Err(MoveParseError::Illegal(_)) => {
                let mut why = format!("'{text}' is not a legal move here");
                if V::in_check(pos) {
                    why.push_str(" (you are in check)");
                }
                let list = self.legal_list();
                self.say(&format!("{why}. Legal moves: {list}"));
            }
            Err(MoveParseError::Syntax(_)) => self.say(&format!(
                "'{text}' is neither a move nor a command. Type 'help' for the commands."
            )),
        }
    }

    fn corvid_turn(&mut self) {
        let me = self.corvid();
        self.say("Corvid is thinking...");
        let thought = self
            .engine
            .decide::<V>(self.game.start(), self.game.moves(), self.limits());
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
            .or_else(|| V::legal_moves(self.game.position()).first().copied())
        else {
            // No legal move means the game was already over; the rules have said so.
            return;
        };
        let san = V::show_move(self.game.position(), m);
        if let Err(e) = self.game.play(m) {
            self.say(&format!(
                "internal error: Corvid's move {san} was refused: {e}"
            ));
            let _ = self.game.resign(me);
            return;
        }
        let eval = thought
            .score
            .map(|s| format!(" (its evaluation: {})", describe_score(s)))
            .unwrap_or_default();
        self.say(&format!("Corvid plays {san}{eval}."));
        if !self.game.is_over()
            && self.conduct.should_offer_draw(&self.game, me)
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

fn corvid_name(elo: Option<u32>) -> String {
    match elo {
        Some(e) => format!("Corvid {} (Elo {e})", env!("CARGO_PKG_VERSION")),
        None => format!("Corvid {}", env!("CARGO_PKG_VERSION")),
    }
}

/// Today's date as PGN writes it (`2026.11.29`), in UTC.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day count since 1970-01-01 (Howard Hinnant's well-known algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::variants::ChessRecord;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn conduct_thresholds() {
        let mut c = Conduct::new(Policy {
            resign_moves: 2,
            resign_cp: 500,
            offer_draw_streak: 2,
            offer_draw_after: 0,
            accept_middlegame_cp: 10,
            offer_balance_cp: 10,
            ..Policy::default()
        });
        let start = ChessRecord::new(Position::startpos()).draw_material();
        assert!(c.accepts_draw(Score::Cp(10), start));
        assert!(!c.accepts_draw(Score::Cp(11), start));
        assert!(c.accepts_draw(Score::Mate(-3), start));
        assert!(!c.accepts_draw(Score::Mate(5), start));
        c.record(Score::Cp(-600));
        assert!(!c.should_resign(), "one bad evaluation is not enough");
        c.record(Score::Cp(-600));
        assert!(c.should_resign());
        c.record(Score::Cp(-100));
        assert!(!c.should_resign());
        c.record(Score::Mate(-4));
        assert!(c.should_resign(), "a mate against it resigns at once");
        c.policy.resign = false;
        assert!(!c.should_resign());

        let g = ChessRecord::new(Position::startpos());
        c.reset();
        c.record(Score::Cp(5));
        assert!(!c.should_offer_draw(&g, Color::White), "streak of one");
        c.record(Score::Cp(-10));
        assert!(c.should_offer_draw(&g, Color::White));
        c.record(Score::Cp(11));
        assert!(!c.should_offer_draw(&g, Color::White));
        c.record(Score::Cp(0));
        c.policy.offer_draw_after = 1;
        assert!(!c.should_offer_draw(&g, Color::White), "too early");
    }

    #[test]
    fn offers_obey_the_reoffer_rule() {
        let mut c = Conduct::new(Policy {
            offer_draw_streak: 1,
            offer_draw_after: 0,
            accept_middlegame_cp: 0,
            ..Policy::default()
        });
        c.record(Score::Cp(0));
        let mut g = ChessRecord::new(Position::startpos());
        assert!(c.should_offer_draw(&g, Color::White));
        g.offer_draw(Color::White).unwrap();
        g.play_text("e4").unwrap();
        g.play_text("e5").unwrap();
        assert!(!c.should_offer_draw(&g, Color::White));
        g.play_text("Nf3").unwrap();
        g.play_text("Nc6").unwrap();
        assert!(c.should_offer_draw(&g, Color::White));
    }

    #[test]
    fn seeded_colour_draw_is_reproducible() {
        let draw = |seed| Rng::new(seed).next_u64() & 1;
        assert_eq!(draw(42), draw(42));
        let whites = (0..64).filter(|&s| draw(s) == 0).count();
        assert!((16..=48).contains(&whites), "{whites}");
    }
}
