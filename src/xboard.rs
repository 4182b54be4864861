//! The xboard protocol (CECP v2): parsing commands and formatting replies. All CECP text Corvid writes is
//! produced here; the game is a `rules::Game` (so results, draw claims and the draw-offer rule are the rules
//! module's), the thinking is the same `engine::Engine` the UCI loop drives, and Corvid's draw and resignation
//! decisions are `play::Conduct`'s.
//!
//! Parsing never panics: a malformed command gets one `Error (…): …` line (an illegal move `Illegal move: …`,
//! a bad position `tellusererror Illegal position`) and the session carries on with the state it had.
//!
//! Makromachy (`variant makromachy`) is an engine-defined variant for XBoard 4.9: Corvid answers with a
//! `setup` command (board size, piece letters and start position) and one `piece` command per kind in
//! XBoard's Betza dialect, then plays with moves in the rules' notation (two-digit ranks, comma-separated
//! legs: `g2h3,h3i4`); the game is a `rules::MakroRecord`.

use crate::chess::{Color, Move, MoveKind, Position};
use crate::engine::{Engine, OptionError, Report};
use crate::makro::Kind;
use crate::play::{Conduct, Policy};
use crate::rules::{Game, MakroRecord, RulesError};
use crate::search::{Bound, Event, Info, Limits, Outcome, Score};
use crossbeam_channel::{select, unbounded, Receiver};
use std::fmt;
use std::io::{BufRead, Write};
use std::sync::Arc;

/// A time control set by `level`: moves per session (0: the whole game), base time and increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub moves: u32,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// One parsed CECP command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Xboard,
    Protover(u32),
    /// `accepted`/`rejected` feature replies, `random`, `computer`, `name`, `rating`, `ics`, `hint`, `bk`,
    /// `.`, `exit`: understood, nothing to do.
    Ignored,
    New,
    Variant(String),
    Force,
    Go,
    PlayOther,
    Level(Level),
    /// `st`: exactly this long per move.
    St(u64),
    /// `sd`: depth limit.
    Sd(u32),
    /// `time`: Corvid's clock, ms (negative counts as zero).
    Time(u64),
    /// `otim`: the opponent's clock, ms.
    Otim(u64),
    /// `usermove m`, or a bare move.
    UserMove(String),
    /// `?`: move now.
    MoveNow,
    Ping(String),
    /// The opponent offers a draw.
    Draw,
    /// The game ended (by the GUI's judgement).
    Result {
        result: String,
        comment: String,
    },
    SetBoard(String),
    Undo,
    Remove,
    /// `hard`/`easy`: pondering on or off (Corvid does not ponder in CECP; accepted).
    Ponder(bool),
    /// `post`/`nopost`: thinking output on or off.
    Post(bool),
    Memory(u64),
    Cores(u64),
    /// `egtpath KIND PATH`: where endgame tables of one kind are (Corvid reads `syzygy`).
    EgtPath {
        kind: String,
        path: String,
    },
    Option {
        name: String,
        value: Option<String>,
    },
    Quit,
}

/// Why a line is not a valid command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XboardError {
    UnknownCommand(String),
    /// A command without the argument it needs, or with one that does not parse.
    BadArgument {
        command: &'static str,
        text: String,
    },
}

impl fmt::Display for XboardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XboardError::UnknownCommand(c) => write!(f, "Error (unknown command): {c}"),
            XboardError::BadArgument { command, text } => {
                write!(f, "Error (bad argument for {command}): {text}")
            }
        }
    }
}

impl std::error::Error for XboardError {}

/// Parses one input line. `Ok(None)` for a blank line.
pub fn parse_command(line: &str) -> Result<Option<Command>, XboardError> {
    let line = line.trim();
    let (head, rest) = match line.split_once(char::is_whitespace) {
        Some((h, r)) => (h, r.trim()),
        None => (line, ""),
    };
    if head.is_empty() {
        return Ok(None);
    }
    let bad = |command: &'static str| XboardError::BadArgument {
        command,
        text: line.to_string(),
    };
    let cmd = match head {
        "xboard" => Command::Xboard,
        "protover" => Command::Protover(rest.parse().map_err(|_| bad("protover"))?),
        "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "hint"
        | "bk" | "." | "exit" | "nps" => Command::Ignored,
        "new" => Command::New,
        "variant" if !rest.is_empty() => Command::Variant(rest.to_string()),
        "variant" => return Err(bad("variant")),
        "force" => Command::Force,
        "go" => Command::Go,
        "playother" => Command::PlayOther,
        "level" => Command::Level(parse_level(rest).ok_or_else(|| bad("level"))?),
        "st" => Command::St(seconds_ms(rest).ok_or_else(|| bad("st"))?),
        "sd" => Command::Sd(
            rest.parse::<u32>()
                .ok()
                .filter(|d| (1..=255).contains(d))
                .ok_or_else(|| bad("sd"))?,
        ),
        "time" => Command::Time(centis_ms(rest).ok_or_else(|| bad("time"))?),
        "otim" => Command::Otim(centis_ms(rest).ok_or_else(|| bad("otim"))?),
        "usermove" if !rest.is_empty() => Command::UserMove(rest.to_string()),
        "usermove" => return Err(bad("usermove")),
        "?" => Command::MoveNow,
        "ping" => Command::Ping(rest.to_string()),
        "draw" => Command::Draw,
        "result" => {
            let (result, comment) = match rest.split_once(char::is_whitespace) {
                Some((r, c)) => (r, c.trim()),
                None => (rest, ""),
            };
            if !["1-0", "0-1", "1/2-1/2", "*"].contains(&result) {
                return Err(bad("result"));
            }
            Command::Result {
                result: result.to_string(),
                comment: comment.to_string(),
            }
        }
        "setboard" if !rest.is_empty() => Command::SetBoard(rest.to_string()),
        "setboard" => return Err(bad("setboard")),
        "undo" => Command::Undo,
        "remove" => Command::Remove,
        "hard" => Command::Ponder(true),
        "easy" => Command::Ponder(false),
        "post" => Command::Post(true),
        "nopost" => Command::Post(false),
        "memory" => Command::Memory(rest.parse().map_err(|_| bad("memory"))?),
        "cores" => Command::Cores(rest.parse().map_err(|_| bad("cores"))?),
        "option" if !rest.is_empty() => match rest.split_once('=') {
            Some((n, v)) => Command::Option {
                name: n.trim().to_string(),
                value: Some(v.trim().to_string()),
            },
            None => Command::Option {
                name: rest.to_string(),
                value: None,
            },
        },
        "option" => return Err(bad("option")),
        "egtpath" => match rest.split_once(' ') {
            Some((kind, path)) if !path.trim().is_empty() => Command::EgtPath {
                kind: kind.to_string(),
                path: path.trim().to_string(),
            },
            _ => return Err(bad("egtpath")),
        },
        "quit" => Command::Quit,
        // A bare move (protocol version 1 style, or a GUI that ignores usermove=1).
        _ if rest.is_empty() && looks_like_move(head) => Command::UserMove(head.to_string()),
        _ => return Err(XboardError::UnknownCommand(line.to_string())),
    };
    Ok(Some(cmd))
}

/// Coordinate moves (`e2e4`, `e7e8q`, Makromachy's `h10h12` and `g2h3,h3i4`) and castling (`O-O`): what a
/// GUI sends without `usermove`.
fn looks_like_move(t: &str) -> bool {
    // One leg: file, one or two rank digits, file, one or two rank digits, an optional promotion letter.
    fn leg(l: &str) -> bool {
        let b = l.as_bytes();
        let mut i = 0;
        for _ in 0..2 {
            if !b.get(i).is_some_and(u8::is_ascii_lowercase) {
                return false;
            }
            i += 1;
            let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if !(1..=2).contains(&digits) {
                return false;
            }
            i += digits;
        }
        b.len() == i || (b.len() == i + 1 && b[i].is_ascii_alphabetic())
    }
    let coord = t.len() <= 16 && t.split(',').count() <= 2 && t.split(',').all(leg);
    coord || matches!(t, "O-O" | "O-O-O" | "o-o" | "o-o-o" | "0-0" | "0-0-0")
}

/// `level MPS BASE INC`: BASE in minutes or `minutes:seconds`, INC in seconds (fractions allowed).
pub fn parse_level(rest: &str) -> Option<Level> {
    let t: Vec<&str> = rest.split_whitespace().collect();
    let [mps, base, inc] = t[..] else {
        return None;
    };
    let moves = mps.parse().ok()?;
    let base_ms = match base.split_once(':') {
        Some((m, s)) => m
            .parse::<u64>()
            .ok()?
            .checked_mul(60_000)?
            .checked_add(s.parse::<u64>().ok()?.checked_mul(1000)?)?,
        None => (base.parse::<f64>().ok()? * 60_000.0) as u64,
    };
    let inc_ms = seconds_ms(inc)?;
    Some(Level {
        moves,
        // Beyond a year means "no limit" in practice; capping keeps the time manager's sums far from overflow.
        base_ms: base_ms.min(MAX_CLOCK_MS),
        inc_ms,
    })
}

/// The longest clock or time per move taken from the GUI (a year).
const MAX_CLOCK_MS: u64 = 365 * 24 * 3600 * 1000;

/// Seconds (fractions allowed, as python-chess sends `st 0.05`) to milliseconds.
fn seconds_ms(text: &str) -> Option<u64> {
    let s: f64 = text.trim().parse().ok()?;
    (0.0..1e9)
        .contains(&s)
        .then(|| ((s * 1000.0).round() as u64).min(MAX_CLOCK_MS))
}

/// Centiseconds (negative counts as zero) to milliseconds.
fn centis_ms(text: &str) -> Option<u64> {
    let cs: i64 = text.trim().parse().ok()?;
    Some((cs.max(0).saturating_mul(10) as u64).min(MAX_CLOCK_MS))
}

// ---------------------------------------------------------------------------------------------------------
// Formatting

/// The options Corvid offers through `feature option=…`, with the engine or policy setting each one drives.
/// Names have no spaces: python-chess (and some GUIs) take an option's name to end at the first space.
const XB_OPTIONS: &[&str] = &[
    "MoveOverhead -spin 10 0 5000",
    "UCI_LimitStrength -check 0",
    "UCI_Elo -spin 2800 1000 2800",
    "ClearHash -button",
    "AcceptDrawBelow -spin 10 -10000 10000",
    "OfferDraws -check 1",
    "OfferDrawWithin -spin 15 0 10000",
    "OfferDrawAfter -spin 30 0 1000",
    "OfferDrawStreak -spin 4 1 100",
    "Resign -check 1",
    "ResignBelow -spin 900 0 100000",
    "ResignMoves -spin 4 1 100",
    "FastCastling -check 0",
];

/// The reply to `protover 2`: `feature` lines, `done=1` last.
pub fn format_features() -> String {
    let mut s = String::from("feature done=0\n");
    s.push_str(&format!(
        "feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1 sigint=0 sigterm=1 reuse=1 \
         analyze=0 colors=0 name=1 nps=0 memory=1 smp=1 debug=1 pause=0 \
         egt=\"syzygy\" variants=\"normal,fischerandom,makromachy\" myname=\"Corvid {}\"\n",
        env!("CARGO_PKG_VERSION")
    ));
    for o in XB_OPTIONS {
        s.push_str(&format!("feature option=\"{o}\"\n"));
    }
    s.push_str("feature done=1");
    s
}

/// A score as xboard writes it: centipawns, or ±(100000 + n) for a mate in n moves.
pub fn xboard_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    }
}

/// A thinking line with the PV already written: `depth score time(cs) nodes seldepth nps tbhits<TAB>pv`.
pub fn format_thinking_text(info: &Info, pv: &str) -> String {
    format!(
        "{} {} {} {} {} {} {}\t{}",
        info.depth,
        xboard_score(info.score),
        info.time_ms / 10,
        info.nodes,
        info.seldepth,
        info.nps,
        info.tbhits,
        pv
    )
}

/// A thinking line: `depth score time(cs) nodes seldepth nps tbhits<TAB>pv`, the PV in SAN from `root`.
pub fn format_thinking(info: &Info, root: &Position) -> String {
    let mut pos = *root;
    let mut pv = Vec::new();
    for text in &info.pv {
        let Ok(m) = pos.parse_uci_move(text) else {
            break;
        };
        pv.push(pos.to_san(m));
        pos.make_move(m);
    }
    format_thinking_text(info, &pv.join(" "))
}

/// A move as CECP sends it: coordinates, but `O-O`/`O-O-O` for castling in Chess960 (as xboard expects).
pub fn format_move(pos: &Position, m: Move) -> String {
    if pos.is_chess960() && m.kind() == MoveKind::Castling {
        if m.to().file() > m.from().file() {
            "O-O".into()
        } else {
            "O-O-O".into()
        }
    } else {
        m.to_uci(false)
    }
}

/// The result line of a finished game: `1-0 {White mates}`.
pub fn format_result(o: &crate::rules::Outcome) -> String {
    format!("{} {{{}}}", o.result_str(), o.description())
}

/// Where each Makromachy kind goes in XBoard 4.9's piece-type table (the index is the type's place in the
/// `setup` command's piece-to-char string; XBoard draws that type's image). The types are chosen for their
/// pictures: Archbishop, Marshall, Elephant, Cannon, Zebra and Camel for themselves, crowned Bishop and Rook
/// for the Dragon Horse and King, the Hawk for the Eagle, the Duck for the Raven, the Dragon for the Bat,
/// the Pegasus for the Griffon, the Gnu for the Rhino and the Lion for the Terror. The King is always the
/// table's last type.
const XB_TYPES: [(usize, Kind); 23] = [
    (0, Kind::Pawn),
    (1, Kind::Knight),
    (2, Kind::Bishop),
    (3, Kind::Rook),
    (4, Kind::Queen),
    (5, Kind::Warrior),
    (6, Kind::Elephant),
    (7, Kind::Archbishop),
    (8, Kind::Marshall),
    (9, Kind::Archer),
    (10, Kind::Champion),
    (11, Kind::Cannon),
    (12, Kind::Vao),
    (13, Kind::DragonHorse),
    (14, Kind::DragonKing),
    (17, Kind::Eagle),
    (21, Kind::Terror),
    (23, Kind::Zebra),
    (24, Kind::Camel),
    (28, Kind::Raven),
    (30, Kind::Bat),
    (31, Kind::Rhino),
    (34, Kind::Griffon),
];

/// Piece types per colour in XBoard 4.9's table (the King last).
const XB_TABLE_TYPES: usize = 44;

/// The piece-to-char table of the `setup` command: White's letters by XBoard type, the King last, then
/// Black's; `.` for types Makromachy does not use.
pub fn makro_piece_to_char() -> String {
    let mut white = vec!['.'; XB_TABLE_TYPES];
    for (index, kind) in XB_TYPES {
        white[index] = kind.letter();
    }
    white[XB_TABLE_TYPES - 1] = Kind::King.letter();
    let black: String = white.iter().map(|c| c.to_ascii_lowercase()).collect();
    white.into_iter().collect::<String>() + &black
}

/// Most pieces a flying capture can pass over on a 14-square line.
const MAX_SCREENS: usize = 12;

/// A flying piece's moves on `atom`'s lines (`Q`, `R` or `B`): the plain slide (non-captures and the capture
/// of the first piece reached), then captures over 1..=12 screens, each screen a hop leg (`paf`: slide to the
/// next piece, leave it, go on in the same direction). XBoard does not know which pieces are ranked, so the
/// hops are a superset of the real flights; they carry `t` so that XBoard imagines no checks from them.
fn flying_betza(atom: char) -> String {
    let mut s = atom.to_string();
    for screens in 1..=MAX_SCREENS {
        s.push_str(&"paf".repeat(screens));
        s.push_str("ct");
        s.push(atom);
    }
    s
}

/// A kind's moves in XBoard 4.9's Betza dialect (XBetza), so that XBoard (which tests the legality of both
/// engines' moves with these) can highlight targets and write SAN. Where XBetza cannot say it exactly the
/// description is a superset, so XBoard never refuses a legal move, and imagined captures carry `t` (may not
/// take a King), so XBoard never sees a check that is not there: airlifts are plain non-capturing slides
/// (`mB`, `mR`), flying captures hop any pieces (see [`flying_betza`]). Fast castling has no XBetza form
/// (XBoard's castling puts the partner beside the King); Corvid does not castle under CECP unless the
/// `FastCastling` option is set.
pub fn xboard_betza(kind: Kind) -> String {
    let fixed = match kind {
        Kind::Eagle => return flying_betza('Q'),
        Kind::Raven => return flying_betza('R'),
        Kind::Bat => return flying_betza('B'),
        Kind::King => "K",
        Kind::Queen => "Q",
        Kind::Rook => "R",
        Kind::Bishop => "B",
        Kind::Knight => "NmB",
        Kind::Elephant => "FAmB",
        Kind::Champion => "WDAmR",
        Kind::Camel => "C",
        Kind::Zebra => "Z",
        Kind::Marshall => "RN",
        Kind::Archbishop => "BN",
        Kind::DragonKing => "RF",
        Kind::DragonHorse => "BW",
        Kind::Archer => "WA",
        // One step, then (on an empty square) a slide bent 45 degrees away from the start.
        Kind::Griffon => "FyafsF",
        Kind::Rhino => "WyafsW",
        Kind::Cannon => "mRcpR",
        Kind::Vao => "mBcpB",
        // Hit-and-run last: XBoard wants multi-leg captures after the other moves to the same square.
        Kind::Terror => "QNDAcamK",
        Kind::Warrior => "fmW2fceFbhcN",
        Kind::Pawn => "fmWifmW3fceF",
    };
    fixed.to_string()
}

/// The reply to `variant makromachy`: the `setup` command (piece letters, 14x14 board without holdings on
/// the `fairy` parent, the start position) and one `piece` command per kind (`&`: both colours).
pub fn makro_variant_lines() -> Vec<String> {
    let mut lines = vec![format!(
        "setup ({}) 14x14+0_fairy {}",
        makro_piece_to_char(),
        crate::makro::STARTPOS
    )];
    for kind in Kind::ALL {
        lines.push(format!("piece {}& {}", kind.letter(), xboard_betza(kind)));
    }
    lines
}

// ---------------------------------------------------------------------------------------------------------
// The protocol loop

/// Runs CECP until `quit` or the end of `input` (the `xboard` line already read), writing to `output`.
/// Threads as in the UCI loop: a listener reads lines, this thread waits on them and on the engine's reports.
pub fn run<R, W>(input: R, output: W)
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let lines = crate::uci::spawn_listener(input);
    let (report_tx, reports) = unbounded::<Report>();
    let engine = Engine::new(Arc::new(move |r| {
        let _ = report_tx.send(r);
    }));
    let mut s = Session::new(engine, reports.clone(), output);
    while s.output_ok {
        select! {
            recv(reports) -> r => {
                if let Ok(r) = r {
                    s.report(r);
                }
            }
            recv(lines) -> line => match line {
                Ok(line) => {
                    if !s.handle(&line) {
                        break;
                    }
                }
                Err(_) => break,
            },
        }
    }
    s.engine.quit();
}

/// What the session asks of the game record, whichever game is played (`rules::Game` for chess,
/// `rules::MakroRecord` for Makromachy).
trait Record {
    fn side_to_move(&self) -> Color;
    /// Full moves made since the start position.
    fn moves_made(&self) -> u32;
    fn fullmove(&self) -> u32;
    fn pending_offer(&self) -> Option<Color>;
    fn can_offer_draw(&self, who: Color) -> bool;
    fn offer_draw(&mut self, who: Color) -> Result<(), RulesError>;
    fn accept_draw(&mut self, who: Color) -> Result<(), RulesError>;
    fn decline_draw(&mut self, who: Color) -> Result<(), RulesError>;
    fn resign(&mut self, who: Color) -> Result<(), RulesError>;
    fn take_back(&mut self, plies: usize) -> usize;
    /// The static evaluation of the current position for `me`.
    fn static_eval(&self, me: Color) -> i32;
}

macro_rules! impl_record {
    ($t:ty, $eval:path) => {
        impl Record for $t {
            fn side_to_move(&self) -> Color {
                self.position().side_to_move()
            }
            fn moves_made(&self) -> u32 {
                u32::from(self.position().fullmove_number())
                    .saturating_sub(u32::from(self.start().fullmove_number()))
            }
            fn fullmove(&self) -> u32 {
                u32::from(self.position().fullmove_number())
            }
            fn pending_offer(&self) -> Option<Color> {
                <$t>::pending_offer(self)
            }
            fn can_offer_draw(&self, who: Color) -> bool {
                <$t>::can_offer_draw(self, who)
            }
            fn offer_draw(&mut self, who: Color) -> Result<(), RulesError> {
                <$t>::offer_draw(self, who)
            }
            fn accept_draw(&mut self, who: Color) -> Result<(), RulesError> {
                <$t>::accept_draw(self, who)
            }
            fn decline_draw(&mut self, who: Color) -> Result<(), RulesError> {
                <$t>::decline_draw(self, who)
            }
            fn resign(&mut self, who: Color) -> Result<(), RulesError> {
                <$t>::resign(self, who)
            }
            fn take_back(&mut self, plies: usize) -> usize {
                <$t>::take_back(self, plies)
            }
            fn static_eval(&self, me: Color) -> i32 {
                let pos = self.position();
                let v = $eval(pos);
                if pos.side_to_move() == me {
                    v
                } else {
                    -v
                }
            }
        }
    };
}

impl_record!(Game, crate::eval::chess::evaluate);
impl_record!(MakroRecord, crate::eval::makro::evaluate);

/// The state of a CECP session.
struct Session<W: Write> {
    engine: Engine,
    reports: Receiver<Report>,
    output: W,
    output_ok: bool,
    game: Game,
    /// The Makromachy game while the variant is `makromachy` (then `game` is unused).
    makro: Option<MakroRecord>,
    chess960: bool,
    /// Force mode: Corvid plays neither side.
    force: bool,
    /// The side Corvid plays when not in force mode.
    corvid: Color,
    /// The GUI ended the game (`result`): no more thinking until `new` or a new position.
    ended: bool,
    /// A search for Corvid's move is running from this position.
    thinking: Option<Position>,
    /// The same for a Makromachy search.
    makro_thinking: Option<crate::makro::Position>,
    /// The latest exact evaluation of the running search (Corvid's view).
    search_score: Option<Score>,
    post: bool,
    level: Option<Level>,
    st_ms: Option<u64>,
    sd: Option<u32>,
    own_clock_ms: Option<u64>,
    opp_clock_ms: Option<u64>,
    conduct: Conduct,
    /// Makromachy: may Corvid castle? XBoard 4.9 cannot show fast castling, so by default it does not.
    fast_castling: bool,
}

impl<W: Write> Session<W> {
    fn new(engine: Engine, reports: Receiver<Report>, output: W) -> Self {
        Session {
            engine,
            reports,
            output,
            output_ok: true,
            game: Game::new(Position::startpos()),
            makro: None,
            chess960: false,
            force: false,
            corvid: Color::Black,
            ended: false,
            thinking: None,
            makro_thinking: None,
            search_score: None,
            post: false,
            level: None,
            st_ms: None,
            sd: None,
            own_clock_ms: None,
            opp_clock_ms: None,
            conduct: Conduct::new(Policy::default()),
            fast_castling: false,
        }
    }

    fn emit(&mut self, text: &str) {
        let result = writeln!(self.output, "{text}").and_then(|()| self.output.flush());
        if result.is_err() {
            self.output_ok = false;
        }
    }

    /// The game being played.
    fn record(&self) -> &dyn Record {
        match &self.makro {
            Some(m) => m,
            None => &self.game,
        }
    }

    /// The game being played, to change it.
    fn record_mut(&mut self) -> &mut dyn Record {
        match &mut self.makro {
            Some(m) => m,
            None => &mut self.game,
        }
    }

    /// Ends a running search without playing its move (the GUI changed the game under it).
    fn abort_search(&mut self) {
        let chess = self.thinking.take().is_some();
        let makro = self.makro_thinking.take().is_some();
        if chess || makro {
            self.engine.stop();
            self.engine.wait();
            // Everything the search reported is queued now; none of it applies any more.
            while self.reports.try_recv().is_ok() {}
        }
    }

    /// Handles one line; false to quit.
    fn handle(&mut self, line: &str) -> bool {
        let cmd = match parse_command(line) {
            Ok(Some(c)) => c,
            Ok(None) => return true,
            Err(e) => {
                self.emit(&e.to_string());
                return true;
            }
        };
        match cmd {
            Command::Xboard | Command::Ignored => {}
            Command::Protover(v) => {
                if v >= 2 {
                    let f = format_features();
                    for l in f.lines() {
                        self.emit(l);
                    }
                }
            }
            Command::New => {
                // CECP: `new` is standard chess; a variant is named again after it (XBoard does so).
                self.abort_search();
                self.set_variant(false);
                self.game = Game::new(Position::startpos());
                self.force = false;
                self.corvid = Color::Black;
                self.ended = false;
                self.sd = None;
                self.own_clock_ms = None;
                self.opp_clock_ms = None;
                self.conduct.reset();
                self.engine.new_game();
            }
            Command::Variant(v) => match v.as_str() {
                "normal" => self.set_variant(false),
                "makromachy" => self.set_makromachy(),
                "fischerandom" => {
                    self.set_variant(true);
                    // The start array comes with `setboard`; until then the standard one (a valid 960 array).
                    let mut p = Position::startpos();
                    p.set_chess960(true);
                    self.game = Game::new(p);
                }
                other => self.emit(&format!("Error (unsupported variant): {other}")),
            },
            Command::Force => {
                self.abort_search();
                self.force = true;
            }
            Command::Go => {
                self.force = false;
                self.corvid = self.record().side_to_move();
                self.ended = false;
                self.maybe_think();
            }
            Command::PlayOther => {
                self.force = false;
                self.corvid = self.record().side_to_move().flip();
                self.ended = false;
            }
            Command::Level(l) => {
                self.level = Some(l);
                self.st_ms = None;
            }
            Command::St(ms) => self.st_ms = Some(ms),
            Command::Sd(d) => self.sd = Some(d),
            Command::Time(ms) => self.own_clock_ms = Some(ms),
            Command::Otim(ms) => self.opp_clock_ms = Some(ms),
            Command::UserMove(text) => self.user_move(&text),
            Command::MoveNow => self.engine.stop(),
            Command::Ping(n) => self.emit(&format!("pong {n}")),
            Command::Draw => self.opponent_offers_draw(),
            Command::Result { .. } => {
                self.abort_search();
                self.ended = true;
            }
            Command::SetBoard(fen) if self.makro.is_some() => {
                self.abort_search();
                match crate::makro::Position::from_fen(&fen) {
                    Ok(p) => {
                        self.makro = Some(MakroRecord::new(p));
                        self.ended = false;
                        self.conduct.reset();
                    }
                    Err(_) => self.emit("tellusererror Illegal position"),
                }
            }
            Command::SetBoard(fen) => {
                self.abort_search();
                match Position::from_fen(&fen, self.chess960) {
                    Ok(p) => {
                        self.game = Game::new(p);
                        self.ended = false;
                        self.conduct.reset();
                    }
                    Err(_) => self.emit("tellusererror Illegal position"),
                }
            }
            Command::Undo | Command::Remove => {
                self.abort_search();
                let plies = if cmd == Command::Undo { 1 } else { 2 };
                if self.record_mut().take_back(plies) < plies {
                    self.emit(&format!("Error (no move to take back): {}", line.trim()));
                }
                self.ended = false;
            }
            Command::Ponder(_) => {}
            Command::Post(on) => self.post = on,
            Command::Memory(mb) => {
                let r = self.set_engine_option("Hash", &mb.to_string());
                self.option_result("memory", r);
            }
            Command::Cores(n) => {
                let r = self.set_engine_option("Threads", &n.to_string());
                self.option_result("cores", r);
            }
            Command::EgtPath { kind, path } if kind == "syzygy" => {
                let r = self.set_engine_option("SyzygyPath", &path);
                self.option_result("egtpath", r);
            }
            Command::EgtPath { kind, .. } => {
                self.emit(&format!("Error (unsupported table kind {kind}): egtpath"));
            }
            Command::Option { name, value } => self.set_option(&name, value.as_deref()),
            Command::Quit => return false,
        }
        true
    }

    fn set_variant(&mut self, chess960: bool) {
        self.chess960 = chess960;
        self.makro = None;
        let _ = self.engine.set_option("UCI_Variant", Some("chess"));
        let _ = self.engine.set_option(
            "UCI_Chess960",
            Some(if chess960 { "true" } else { "false" }),
        );
    }

    /// `variant makromachy`: the engine switches game, and XBoard learns the board, pieces and start position.
    fn set_makromachy(&mut self) {
        self.abort_search();
        self.chess960 = false;
        let _ = self.engine.set_option("UCI_Chess960", Some("false"));
        if let Err(e) = self.engine.set_option("UCI_Variant", Some("makromachy")) {
            self.emit(&format!("Error ({e}): variant makromachy"));
            return;
        }
        // The engine announces the switch for UCI GUIs; XBoard gets the `setup` command instead.
        while self.reports.try_recv().is_ok() {}
        self.makro = Some(MakroRecord::startpos());
        self.ended = false;
        self.conduct.reset();
        for line in makro_variant_lines() {
            self.emit(&line);
        }
    }

    fn set_engine_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        if name == "Hash" {
            // The table cannot change size under a running search.
            self.abort_search();
        }
        self.engine.set_option(name, Some(value))
    }

    fn option_result(&mut self, what: &str, r: Result<(), OptionError>) {
        if let Err(e) = r {
            self.emit(&format!("Error ({e}): {what}"));
        }
    }

    /// `option NAME[=VALUE]`: the engine's options and Corvid's draw/resign policy.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let num = |v: Option<&str>| v.and_then(|v| v.trim().parse::<i64>().ok());
        let flag = |v: Option<&str>| match v.map(str::trim) {
            Some("1" | "true") => Some(true),
            Some("0" | "false") => Some(false),
            _ => None,
        };
        let p = &mut self.conduct.policy;
        let ok = match name {
            "AcceptDrawBelow" => num(value).map(|n| p.accept_draw_cp = n as i32),
            "OfferDraws" => flag(value).map(|b| p.offer_draws = b),
            "OfferDrawWithin" => num(value).map(|n| p.offer_draw_cp = n as i32),
            "OfferDrawAfter" => num(value).map(|n| p.offer_draw_after = n.max(0) as u32),
            "OfferDrawStreak" => num(value).map(|n| p.offer_draw_streak = n.max(1) as usize),
            "Resign" => flag(value).map(|b| p.resign = b),
            "ResignBelow" => num(value).map(|n| p.resign_cp = n as i32),
            "ResignMoves" => num(value).map(|n| p.resign_moves = n.max(1) as usize),
            "FastCastling" => flag(value).map(|b| self.fast_castling = b),
            "UCI_LimitStrength" => {
                let v = flag(value).map(|b| if b { "true" } else { "false" });
                let r = v.map(|v| self.engine.set_option(name, Some(v)));
                match r {
                    Some(r) => {
                        self.option_result(name, r);
                        Some(())
                    }
                    None => None,
                }
            }
            _ => {
                // The engine's own options, under their CECP names.
                let engine_name = match name {
                    "MoveOverhead" => "Move Overhead",
                    "ClearHash" => "Clear Hash",
                    other => other,
                };
                let r = self.engine.set_option(engine_name, value);
                self.option_result(name, r);
                Some(())
            }
        };
        if ok.is_none() {
            self.emit(&format!(
                "Error (bad value): option {name}={}",
                value.unwrap_or("")
            ));
        }
    }

    /// Starts Corvid's search when it is to move, may move, and the game goes on.
    fn maybe_think(&mut self) {
        if self.force || self.ended || self.thinking.is_some() || self.makro_thinking.is_some() {
            return;
        }
        if self.makro.is_some() {
            self.maybe_think_makro();
            return;
        }
        let pos = *self.game.position();
        if pos.side_to_move() != self.corvid {
            return;
        }
        if let Some(o) = self.game.outcome() {
            // Asked to move in a finished game: say how it ended.
            self.emit(&format_result(&o));
            self.ended = true;
            return;
        }
        if self
            .engine
            .set_game(self.game.start(), self.game.moves())
            .is_err()
        {
            self.emit("Error (internal): the game could not be set up for the search");
            return;
        }
        self.search_score = None;
        self.thinking = Some(pos);
        let limits = self.limits();
        self.engine.go(limits, &[]);
    }

    /// `maybe_think` for Makromachy.
    fn maybe_think_makro(&mut self) {
        let Some(record) = &self.makro else { return };
        let pos = record.position().clone();
        if pos.side_to_move() != self.corvid {
            return;
        }
        if let Some(o) = record.outcome() {
            self.emit(&format_result(&o));
            self.ended = true;
            return;
        }
        let (start, moves) = (record.start().clone(), record.moves().to_vec());
        if self.engine.set_makro_game(&start, &moves).is_err() {
            self.emit("Error (internal): the game could not be set up for the search");
            return;
        }
        // Without fast castling the search looks at every other move (when there is one).
        let mut only = Vec::new();
        if !self.fast_castling {
            let legal = pos.legal_moves();
            let castling = |m: &crate::makro::Move| m.kind() == crate::makro::MoveKind::Castling;
            if legal.iter().any(castling) && !legal.iter().all(castling) {
                only = legal
                    .iter()
                    .filter(|m| !castling(m))
                    .map(|m| m.text())
                    .collect();
            }
        }
        self.search_score = None;
        self.makro_thinking = Some(pos);
        let limits = self.limits();
        self.engine.go(limits, &only);
    }

    /// The search limits from `st`, `sd` and `level` with the `time`/`otim` clocks.
    fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.sd,
            ..Limits::default()
        };
        if let Some(ms) = self.st_ms {
            l.movetime = Some(ms.max(1));
            return l;
        }
        let Some(level) = self.level else {
            if l.depth.is_none() {
                // No time control at all: a second a move.
                l.movetime = Some(1000);
            }
            return l;
        };
        let own = self.own_clock_ms.unwrap_or(level.base_ms);
        let opp = self.opp_clock_ms.unwrap_or(level.base_ms);
        let (own_t, opp_t, own_i, opp_i) =
            (Some(own), Some(opp), Some(level.inc_ms), Some(level.inc_ms));
        match self.corvid {
            Color::White => (l.wtime, l.btime, l.winc, l.binc) = (own_t, opp_t, own_i, opp_i),
            Color::Black => (l.wtime, l.btime, l.winc, l.binc) = (opp_t, own_t, opp_i, own_i),
        }
        if level.moves > 0 {
            // Moves Corvid has made in this game (the start may be any move number).
            let made = self.record().moves_made();
            l.movestogo = Some(level.moves - made % level.moves);
        }
        l
    }

    fn report(&mut self, r: Report) {
        match r {
            Report::Search(Event::Info(info)) => {
                if info.multipv != 1 || info.bound != Bound::Exact {
                    return;
                }
                let line = match (self.thinking, &self.makro_thinking) {
                    (Some(root), _) => format_thinking(&info, &root),
                    // Makromachy PVs are already in the notation XBoard reads.
                    (None, Some(_)) => format_thinking_text(&info, &info.pv.join(" ")),
                    (None, None) => return,
                };
                self.search_score = Some(info.score);
                if self.post && !info.pv.is_empty() {
                    self.emit(&line);
                }
            }
            Report::Search(Event::Text(t)) => {
                let line = format!("# {}", t.replace('\n', " "));
                self.emit(&line);
            }
            Report::Search(Event::CurrMove { .. }) => {}
            Report::BestMove(outcome) => {
                if self.thinking.is_some() {
                    self.finish_search(outcome);
                } else if self.makro_thinking.is_some() {
                    self.finish_makro_search(outcome);
                }
            }
        }
    }

    /// Corvid's search is done: answer a standing draw offer, resign, or move (maybe offering a draw).
    fn finish_search(&mut self, outcome: Outcome) {
        let Some(root) = self.thinking.take() else {
            return;
        };
        if !self.conduct_before_moving() {
            return;
        }
        let me = self.corvid;
        let m = outcome
            .best
            .and_then(|t| root.parse_uci_move(&t).ok())
            .or_else(|| root.legal_moves().iter().next().copied());
        let Some(m) = m else {
            // No legal move: the rules module already ended the game; say so.
            if let Some(o) = self.game.outcome() {
                self.emit(&format_result(&o));
            }
            return;
        };
        if self.game.play(m).is_err() {
            self.emit("Error (internal): Corvid's move was refused by the rules");
            return;
        }
        if let Some(o) = self.game.outcome() {
            self.emit(&format!("move {}", format_move(&root, m)));
            self.emit(&format_result(&o));
            self.ended = true;
            return;
        }
        self.maybe_offer_draw(me);
        self.emit(&format!("move {}", format_move(&root, m)));
    }

    /// Corvid's search is done, before its move: it records the evaluation, answers a standing draw offer
    /// and resigns when its policy says so. False when the game ended here.
    fn conduct_before_moving(&mut self) -> bool {
        let me = self.corvid;
        let score = self
            .search_score
            .unwrap_or_else(|| Score::Cp(self.record().static_eval(me)));
        self.conduct.record(score);
        if self.record().pending_offer() == Some(me.flip()) {
            if self.conduct.accepts_draw(score) && self.record_mut().accept_draw(me).is_ok() {
                // Accepting is offering back; the GUI ends the game.
                self.emit("offer draw");
                self.ended = true;
                return false;
            }
            let _ = self.record_mut().decline_draw(me);
        }
        if self.conduct.should_resign() && self.record_mut().resign(me).is_ok() {
            self.emit("resign");
            self.ended = true;
            return false;
        }
        true
    }

    /// After Corvid's move: offer a draw when the policy says so. The offer goes with the move (CECP: before
    /// it), so it stands until the opponent replies.
    fn maybe_offer_draw(&mut self, me: Color) {
        let r = self.record();
        if self
            .conduct
            .should_offer_draw_at(r.can_offer_draw(me), r.fullmove())
            && self.record_mut().offer_draw(me).is_ok()
        {
            self.emit("offer draw");
        }
    }

    /// `finish_search` for Makromachy.
    fn finish_makro_search(&mut self, outcome: Outcome) {
        let Some(root) = self.makro_thinking.take() else {
            return;
        };
        if !self.conduct_before_moving() {
            return;
        }
        let me = self.corvid;
        let m = outcome
            .best
            .and_then(|t| root.parse_move(&t).ok())
            .or_else(|| root.legal_moves().first().copied());
        let Some(record) = self.makro.as_mut() else {
            return;
        };
        let Some(m) = m else {
            if let Some(o) = record.outcome() {
                self.emit(&format_result(&o));
            }
            return;
        };
        if record.play(m).is_err() {
            self.emit("Error (internal): Corvid's move was refused by the rules");
            return;
        }
        if let Some(o) = record.outcome() {
            self.emit(&format!("move {}", m.text()));
            self.emit(&format_result(&o));
            self.ended = true;
            return;
        }
        self.maybe_offer_draw(me);
        self.emit(&format!("move {}", m.text()));
    }

    fn user_move(&mut self, text: &str) {
        // A move for the side to move while Corvid thinks means the GUI has moved on: it wins.
        self.abort_search();
        if self.makro.is_some() {
            self.user_makro_move(text);
            return;
        }
        let pos = *self.game.position();
        let parsed = pos
            .parse_uci_move(text)
            .or_else(|_| pos.parse_san(&text.replace('0', "O")));
        let m = match parsed {
            Ok(m) if self.game.outcome().is_none() => m,
            _ => {
                self.emit(&format!("Illegal move: {text}"));
                return;
            }
        };
        if self.game.play(m).is_err() {
            self.emit(&format!("Illegal move: {text}"));
            return;
        }
        if let Some(o) = self.game.outcome() {
            if !self.force {
                self.emit(&format_result(&o));
                self.ended = true;
            }
            return;
        }
        self.maybe_think();
    }

    /// `user_move` for Makromachy: the rules' notation; a King leg alone that is no King step is read as the
    /// castling that starts with it (a GUI that does not know fast castling sends just the King's move).
    fn user_makro_move(&mut self, text: &str) {
        let Some(record) = self.makro.as_mut() else {
            return;
        };
        let pos = record.position();
        // Squares and promotion letters are lower case in the rules' notation; a GUI may capitalise the piece.
        let text = &text.to_ascii_lowercase();
        let parsed = pos.parse_move(text).ok().or_else(|| {
            let mut castlings = pos.legal_moves().into_iter().filter(|m| {
                m.kind() == crate::makro::MoveKind::Castling
                    && m.text().split(',').next() == Some(text.trim())
            });
            castlings.next()
        });
        let m = match parsed {
            Some(m) if record.outcome().is_none() => m,
            _ => {
                self.emit(&format!("Illegal move: {text}"));
                return;
            }
        };
        if record.play(m).is_err() {
            self.emit(&format!("Illegal move: {text}"));
            return;
        }
        if let Some(o) = record.outcome() {
            if !self.force {
                self.emit(&format_result(&o));
                self.ended = true;
            }
            return;
        }
        self.maybe_think();
    }

    /// The opponent offers a draw. The offer must be valid by the rules (else it is ignored, with a note);
    /// Corvid answers after its next search when it is to move, at once otherwise.
    fn opponent_offers_draw(&mut self) {
        let to_move = self.record().side_to_move();
        let corvid_to_move = self.force || self.corvid == to_move;
        let opponent = if corvid_to_move {
            to_move.flip()
        } else {
            self.corvid.flip()
        };
        if let Err(e) = self.record_mut().offer_draw(opponent) {
            self.emit(&format!("# draw offer not valid: {e}"));
            return;
        }
        if corvid_to_move {
            return;
        }
        let me = opponent.flip();
        let score = self
            .conduct
            .last()
            .unwrap_or_else(|| Score::Cp(self.record().static_eval(me)));
        if self.conduct.accepts_draw(score) && self.record_mut().accept_draw(me).is_ok() {
            self.emit("offer draw");
            self.ended = true;
        } else {
            let _ = self.record_mut().decline_draw(me);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Command {
        match parse_command(line) {
            Ok(Some(c)) => c,
            other => panic!("'{line}' gave {other:?}"),
        }
    }

    #[test]
    fn commands() {
        assert_eq!(parse("protover 2"), Command::Protover(2));
        assert_eq!(parse("new"), Command::New);
        assert_eq!(parse("usermove e2e4"), Command::UserMove("e2e4".into()));
        assert_eq!(parse("e7e8q"), Command::UserMove("e7e8q".into()));
        assert_eq!(parse("O-O"), Command::UserMove("O-O".into()));
        assert_eq!(parse("st 0.05"), Command::St(50));
        assert_eq!(parse("st 10"), Command::St(10_000));
        assert_eq!(parse("sd 7"), Command::Sd(7));
        assert_eq!(parse("time 12345"), Command::Time(123_450));
        assert_eq!(parse("otim -20"), Command::Otim(0));
        assert_eq!(parse("ping 17"), Command::Ping("17".into()));
        assert_eq!(parse("?"), Command::MoveNow);
        assert_eq!(parse("hard"), Command::Ponder(true));
        assert_eq!(parse("nopost"), Command::Post(false));
        assert_eq!(parse("memory 64"), Command::Memory(64));
        assert_eq!(
            parse("egtpath syzygy /tb/a b:/tb/c"),
            Command::EgtPath {
                kind: "syzygy".into(),
                path: "/tb/a b:/tb/c".into()
            }
        );
        assert!(parse_command("egtpath syzygy").is_err());
        assert!(parse_command("egtpath").is_err());
        assert_eq!(parse("cores 2"), Command::Cores(2));
        assert_eq!(
            parse("option ResignBelow=500"),
            Command::Option {
                name: "ResignBelow".into(),
                value: Some("500".into())
            }
        );
        assert_eq!(
            parse("option Clear Hash"),
            Command::Option {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("result 1/2-1/2 {Draw by repetition}"),
            Command::Result {
                result: "1/2-1/2".into(),
                comment: "{Draw by repetition}".into()
            }
        );
        assert_eq!(
            parse("setboard 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Command::SetBoard("8/8/8/8/8/8/8/K6k w - - 0 1".into())
        );
        assert_eq!(parse("accepted memory"), Command::Ignored);
        assert_eq!(parse_command("   "), Ok(None));
    }

    #[test]
    fn levels() {
        let l = |s: &str| parse_level(s);
        assert_eq!(
            l("40 5 0"),
            Some(Level {
                moves: 40,
                base_ms: 300_000,
                inc_ms: 0
            })
        );
        assert_eq!(
            l("0 2:30 1.5"),
            Some(Level {
                moves: 0,
                base_ms: 150_000,
                inc_ms: 1500
            })
        );
        assert_eq!(l("0 0:05 0").map(|l| l.base_ms), Some(5000));
        assert_eq!(l("40 5"), None);
        assert_eq!(l("x 5 0"), None);
        assert_eq!(l("40 5:xx 0"), None);
        assert_eq!(l("0 99999999999999999:00 0"), None);
        assert_eq!(l("0 1e30 0").map(|l| l.base_ms), Some(MAX_CLOCK_MS));
    }

    #[test]
    fn malformed_commands_are_errors() {
        for bad in [
            "protover",
            "sd 0",
            "sd x",
            "st -1",
            "st nan",
            "time x",
            "level 1 2",
            "usermove",
            "setboard",
            "result 2-0",
            "memory -5",
            "frobnicate",
            "e2",
            "variant",
        ] {
            assert!(parse_command(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_command("frobnicate 3").unwrap_err().to_string(),
            "Error (unknown command): frobnicate 3"
        );
    }

    #[test]
    fn scores_and_thinking() {
        assert_eq!(xboard_score(Score::Cp(-35)), -35);
        assert_eq!(xboard_score(Score::Mate(3)), 100_003);
        assert_eq!(xboard_score(Score::Mate(-2)), -100_002);
        assert_eq!(xboard_score(Score::Mate(0)), -100_000);
        let info = Info {
            depth: 6,
            seldepth: 9,
            multipv: 1,
            score: Score::Cp(21),
            bound: Bound::Exact,
            wdl: None,
            nodes: 5000,
            nps: 100_000,
            hashfull: 0,
            tbhits: 42,
            time_ms: 1234,
            pv: vec!["g1f3".into(), "d7d5".into(), "zz".into()],
        };
        assert_eq!(
            format_thinking(&info, &Position::startpos()),
            "6 21 123 5000 9 100000 42\tNf3 d5"
        );
    }

    #[test]
    fn features_end_with_done() {
        let f = format_features();
        assert!(f.lines().next().unwrap().contains("done=0"));
        assert_eq!(f.lines().last(), Some("feature done=1"));
        for needed in [
            "ping=1",
            "setboard=1",
            "usermove=1",
            "draw=1",
            "myname=\"Corvid",
            "egt=\"syzygy\"",
        ] {
            assert!(f.contains(needed), "{needed}");
        }
    }

    #[test]
    fn makromachy_moves_are_commands() {
        for m in ["h10h12", "c13c14q", "g2h3,h3i4", "i1c1,a1i1", "n14a1"] {
            assert_eq!(parse(m), Command::UserMove(m.into()), "{m}");
        }
        for bad in ["h100h1", "h1", "g2h3,", "g2h3,h3i4,i4i5", "h1h2qq"] {
            assert!(parse_command(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn makromachy_piece_table_and_betza() {
        let table = makro_piece_to_char();
        assert_eq!(table.len(), 2 * XB_TABLE_TYPES);
        assert_eq!(&table[XB_TABLE_TYPES - 1..XB_TABLE_TYPES + 1], "Kp");
        // Flying pieces: the plain slide, then captures over one to twelve screens.
        let eagle = xboard_betza(Kind::Eagle);
        assert!(eagle.starts_with("QpafctQpafpafctQ"), "{eagle}");
        assert_eq!(eagle.matches("ctQ").count(), MAX_SCREENS);
        assert_eq!(
            eagle.matches("paf").count(),
            MAX_SCREENS * (MAX_SCREENS + 1) / 2
        );
        // Every line fits XBoard's 512-byte message buffer.
        assert!(makro_variant_lines().iter().all(|l| l.len() < 500));
    }

    #[test]
    fn chess960_castling_is_written_o_o() {
        let p = Position::from_fen(
            "bqnbrk1r/pppppppp/8/8/8/8/PPPPPPPP/BQNBRK1R w HEhe - 0 1",
            true,
        )
        .unwrap();
        let castle = p
            .legal_moves()
            .iter()
            .find(|m| m.kind() == MoveKind::Castling)
            .copied()
            .unwrap();
        assert_eq!(format_move(&p, castle), "O-O");
        let n = p.parse_uci_move("c1d3").unwrap();
        assert_eq!(format_move(&p, n), "c1d3");
    }
}
