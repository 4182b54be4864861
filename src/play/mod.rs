//! `corvid play`: a person against Corvid in the terminal.
//!
//! Every rule decision (legality, the automatic endings, draw offers and their re-offer rule, resignation) is
//! `variants::ChessRecord`'s; this module draws the board, reads commands and decides how Corvid conducts itself
//! ([`Conduct`]: when it accepts or offers a draw and when it resigns — the CECP front end uses the same).
//! Input is one command a line, from a terminal or a pipe, so the mode is scriptable; bad input is explained
//! and the prompt comes back. Makromachy (`--variant makromachy`) is played by [`makro`] the same way, its
//! rules being `variants::MakroRecord`'s.

pub mod chess;
pub mod makro;

pub use self::chess::draw_board;
pub use self::makro::draw_makro_board;

use crate::chess::Move;
use crate::engine::{Engine, Report};
use crate::for_game;
use crate::rng::Rng;
use crate::rules::Record;
use crate::search::{Event, Limits, Score};
use crate::types::{Color, MoveParseError};
use crate::variants::ChessRecord;
use crate::variants::{Chess, Known, Makromachy};
use crossbeam_channel::{unbounded, Receiver};
use std::io::{BufRead, Write};
use std::sync::Arc;

use crate::conduct::{contempt_cp, own_strength};
pub use crate::conduct::{score_value, Conduct, Policy};

/// The search's verdict on a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought<M = Move> {
    /// The move to play (`None` without a legal move).
    pub best: Option<M>,
    /// The evaluation for the side to move, when the search reported one.
    pub score: Option<Score>,
}

/// The search's verdict on a Makromachy position.
pub type MakroThought = Thought<crate::makro::Move>;

/// An engine used synchronously: set the game, search, wait, read the verdict.
pub struct Thinker {
    engine: Engine,
    reports: Receiver<Report>,
}

impl Default for Thinker {
    fn default() -> Self {
        Self::new()
    }
}

impl Thinker {
    pub fn new() -> Thinker {
        let (tx, reports) = unbounded();
        let engine = Engine::new(Arc::new(move |r| {
            let _ = tx.send(r);
        }));
        Thinker { engine, reports }
    }

    /// The engine, to set options.
    pub fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Searches the game of variant `V` from `start` through `moves` within `limits` and waits for the
    /// result (the engine is switched to `V` first).
    pub fn think_game<V: Known>(
        &mut self,
        start: &V::Position,
        moves: &[V::Move],
        limits: Limits,
    ) -> Thought<V::Move> {
        let mut thought = Thought {
            best: None,
            score: None,
        };
        if self.engine.game_kind() != V::KIND
            && self
                .engine
                .set_option("UCI_Variant", Some(V::KIND.name()))
                .is_err()
        {
            return thought;
        }
        if self.engine.set_game::<V>(start, moves).is_err() {
            return thought;
        }
        while self.reports.try_recv().is_ok() {}
        self.engine.go(limits, &[]);
        self.engine.wait();
        while let Ok(r) = self.reports.try_recv() {
            match r {
                Report::Search(Event::Info(info)) if info.multipv == 1 => {
                    thought.score = Some(info.score)
                }
                Report::BestMove(o) => thought.best = o.best_as::<V>(),
                Report::Search(_) => {}
            }
        }
        thought
    }

    /// Searches the current position of `game` within `limits` and waits for the result.
    pub fn think(&mut self, game: &ChessRecord, limits: Limits) -> Thought {
        self.think_game::<Chess>(game.start(), game.moves(), limits)
    }

    /// Searches the current position of the Makromachy game `game` within `limits` and waits for the result.
    pub fn think_makro(
        &mut self,
        game: &crate::variants::MakroRecord,
        limits: Limits,
    ) -> MakroThought {
        self.think_game::<Makromachy>(game.start(), game.moves(), limits)
    }
}

/// Which game `corvid play` plays: the one [`crate::game::GameKind`] every front end names games by.
pub use crate::game::GameKind as Variant;

/// How the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// Unicode pieces on coloured squares (ANSI), the last move's squares highlighted.
    Color,
    /// Letters (`PNBRQK` White, `pnbrqk` Black, `.` empty), the last move's squares in brackets.
    Ascii,
}

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
    pub variant: Variant,
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
            variant: Variant::Chess,
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

/// What `corvid play` needs of a game beyond its rules: the board drawn, and moves as a person reads and
/// writes them. The session loop ([`PlaySession`]) is the same for every game.
pub trait Board: Known {
    /// The `help` text.
    const HELP: &'static str;
    /// The board from `viewer`'s side, the squares of `last` highlighted.
    fn draw(
        pos: &Self::Position,
        last: Option<Self::Move>,
        viewer: Color,
        style: BoardStyle,
    ) -> String;
    /// A move as the person is shown it.
    fn show_move(pos: &Self::Position, m: Self::Move) -> String;
    /// The legal move a person's `text` stands for (`Syntax` for text that is no move at all).
    fn read_human(pos: &Self::Position, text: &str) -> Result<Self::Move, MoveParseError>;
    /// Is the side to move in check?
    fn in_check(pos: &Self::Position) -> bool;
}

/// A session of `corvid play`: the game, the engine, and where text goes.
struct PlaySession<'a, V: Board, W: Write> {
    config: PlayConfig,
    game: Record<V>,
    human: Color,
    thinker: Thinker,
    conduct: Conduct,
    style: BoardStyle,
    out: &'a mut W,
    /// Echo input lines (when they do not come from a terminal, so the transcript reads as a dialogue).
    echo: bool,
}

/// Plays one game on `input`/`output`. `tty_out`: stdout is a terminal (the board style then defaults to
/// colour); `tty_in`: input is typed (otherwise each line is echoed). Errors are set-up problems (a bad FEN or
/// Elo, an unwritable PGN file), as text for the command line.
pub fn run<R: BufRead, W: Write>(
    config: PlayConfig,
    input: R,
    output: &mut W,
    tty_out: bool,
    tty_in: bool,
) -> Result<(), String> {
    for_game!(config.variant, V => run_game::<V, R, W>(config, input, output, tty_out, tty_in))
}

fn run_game<V: Board, R: BufRead, W: Write>(
    config: PlayConfig,
    input: R,
    output: &mut W,
    tty_out: bool,
    tty_in: bool,
) -> Result<(), String> {
    let start = match &config.fen {
        Some(f) => V::from_fen(f, false).map_err(|e| format!("invalid {}: {e}", V::FEN_NAME))?,
        None => V::start_position(false),
    };
    let setup = Setup::new(&config, tty_out)?;
    let mut s = PlaySession::<V, W> {
        game: Record::new(start),
        human: setup.human,
        thinker: setup.thinker,
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
    thinker: Thinker,
    greeting: String,
}

impl Setup {
    fn new(config: &PlayConfig, tty_out: bool) -> Result<Setup, String> {
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
        let mut thinker = Thinker::new();
        if let Some(elo) = config.elo {
            let e = thinker.engine();
            e.set_option("UCI_LimitStrength", Some("true"))
                .and_then(|()| e.set_option("UCI_Elo", Some(&elo.to_string())))
                .map_err(|e| e.to_string())?;
        }
        let how = if config.human.is_some() {
            "chosen".to_string()
        } else {
            format!("drawn at random, seed {seed}")
        };
        let game = match config.variant {
            Variant::Chess => "",
            Variant::Makromachy => " Makromachy:",
        };
        let greeting = format!(
            "Corvid {} —{game} you play {} ({how}). Type 'help' for commands.",
            env!("CARGO_PKG_VERSION"),
            color_name(human)
        );
        Ok(Setup {
            human,
            style,
            thinker,
            greeting,
        })
    }
}

impl<V: Board, W: Write> PlaySession<'_, V, W> {
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
        let thought =
            self.thinker
                .think_game::<V>(self.game.start(), self.game.moves(), self.limits());
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
        let thought =
            self.thinker
                .think_game::<V>(self.game.start(), self.game.moves(), self.limits());
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
    use chess::looks_like_move;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn lower_case_piece_letters_where_they_are_unambiguous() {
        use crate::variants::Chess;
        let read = |fen: &str, text: &str| {
            let pos = Position::from_fen(fen, false).unwrap();
            <Chess as Board>::read_human(&pos, text).map(|m| pos.to_san(m))
        };
        let start = crate::chess::STARTPOS;
        assert_eq!(read(start, "nf3").as_deref(), Ok("Nf3"));
        assert_eq!(read(start, "Nf3").as_deref(), Ok("Nf3"));
        assert!(read(start, "qh5").is_err(), "no such queen move");
        // A bishop and a b-pawn can both reach c4: `bxc4`/`bc4` stay the pawn's capture, `Bxc4` the bishop's.
        let both = "4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1";
        assert_eq!(read(both, "bxc4").as_deref(), Ok("bxc4"));
        assert_eq!(read(both, "bc4").as_deref(), Ok("bxc4"));
        assert_eq!(read(both, "Bxc4").as_deref(), Ok("Bxc4"));
        // Without the pawn capture, `bc4` and `bxc4` are the bishop's.
        let bishop = "4k3/8/8/8/2p5/8/1P6/4KB2 w - - 0 1";
        assert_eq!(read(bishop, "bxc4").as_deref(), Ok("Bxc4"));
        assert_eq!(read(bishop, "ke2").as_deref(), Ok("Ke2"));
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
    fn boards() {
        let mut g = ChessRecord::new(Position::startpos());
        let m = g.play_text("e4").unwrap();
        let b = draw_board(g.position(), Some(m), Color::White, BoardStyle::Ascii);
        let lines: Vec<&str> = b.lines().collect();
        assert_eq!(lines[0].trim(), "a  b  c  d  e  f  g  h");
        assert_eq!(lines[1], " 8  r  n  b  q  k  b  n  r  8");
        assert_eq!(lines[5], " 4  .  .  .  . [P] .  .  .  4");
        assert_eq!(lines[7], " 2  P  P  P  P [.] P  P  P  2");
        let flipped = draw_board(g.position(), Some(m), Color::Black, BoardStyle::Ascii);
        let lines: Vec<&str> = flipped.lines().collect();
        assert_eq!(lines[0].trim(), "h  g  f  e  d  c  b  a");
        assert_eq!(lines[1], " 1  R  N  B  K  Q  B  N  R  1");
        let color = draw_board(g.position(), Some(m), Color::White, BoardStyle::Color);
        assert!(color.contains('♚') && color.contains("\x1b[48;5;"));
    }

    #[test]
    fn move_shapes() {
        for m in [
            "e4", "Nf3", "exd5", "O-O", "0-0-0", "e8=Q+", "Qh4#", "g1f3", "e7e8q", "Nbd7", "Ke3",
        ] {
            assert!(looks_like_move(m), "{m}");
        }
        for t in ["hello", "drawe", "resgn", "", "xx", "e9", "Zz4"] {
            assert!(!looks_like_move(t), "{t}");
        }
    }

    #[test]
    fn seeded_colour_draw_is_reproducible() {
        let draw = |seed| Rng::new(seed).next_u64() & 1;
        assert_eq!(draw(42), draw(42));
        let whites = (0..64).filter(|&s| draw(s) == 0).count();
        assert!((16..=48).contains(&whites), "{whites}");
    }
}
