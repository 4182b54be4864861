//! A CECP session: the game record, the engine and the thinking, driven by the parsed commands.

use super::format::*;
use super::games::{CecpGame, CecpGameOf};
use super::parse::*;
use crate::conduct::{Conduct, Policy};
use crate::engine::{
    find_cecp_option, find_option, BestMove, Engine, OptionError, OptionKind, Report,
};
use crate::game::{Cecp, CecpVariant, GameKind, Variant as _};
use crate::rules::Outcome;
use crate::search::{Bound, Event, Limits, Score};
use crate::types::Color;
use crate::variants::{AnyGame, Registered};
use crate::{by_game, for_game};
use crossbeam_channel::{select, unbounded, Receiver};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Instant;

// ---------------------------------------------------------------------------------------------------------
// The protocol loop

/// Runs CECP until `quit` or the end of `input` (the `xboard` line already read), writing to `output`.
/// Threads as in the UCI loop: a listener reads lines, this thread waits on them and on the engine's reports.
pub fn run<R, W>(input: R, output: W)
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let lines = crate::engine::spawn_listener(input);
    let (report_tx, reports) = unbounded::<Report>();
    let engine = Engine::new(Arc::new(move |r| {
        let _ = report_tx.send(r);
    }));
    let mut s = CecpSession::new(engine, reports.clone(), output);
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

/// The state of a CECP session.
struct CecpSession<W: Write> {
    engine: Engine,
    reports: Receiver<Report>,
    output: W,
    output_ok: bool,
    /// The game being played, of whichever variant.
    game: AnyGame<CecpGameOf>,
    chess960: bool,
    /// Force mode: Corvid plays neither side.
    force: bool,
    /// The side Corvid plays when not in force mode.
    corvid: Color,
    /// The GUI ended the game (`result`): no more thinking until `new` or a new position.
    ended: bool,
    /// The latest exact evaluation of the running search (Corvid's view).
    search_score: Option<Score>,
    post: bool,
    level: Option<Level>,
    st_ms: Option<u64>,
    sd: Option<u32>,
    own_clock_ms: Option<u64>,
    opp_clock_ms: Option<u64>,
    conduct: Conduct,
    /// May Corvid castle where XBoard cannot show it (Makromachy's fast castling)? By default it does not.
    fast_castling: bool,
    /// Analysis mode (`analyze` until `exit`): Corvid searches the current position without end and plays
    /// nothing.
    analyzing: bool,
    /// The opponent is an engine (`computer`, until `new`).
    opponent_computer: bool,
    /// The running search's progress, for `.`.
    progress: Progress,
    /// The latest PV: the FEN of its root and its moves in the engine's text, for `hint`.
    last_pv: Option<(String, Vec<String>)>,
    /// `ping`s received while Corvid thinks on its move: CECP wants their `pong`s after the move.
    held_pongs: Vec<String>,
}

/// How far the running search has got: what `.` reports.
#[derive(Clone, Debug, Default)]
struct Progress {
    started: Option<Instant>,
    depth: u32,
    nodes: u64,
    /// Root moves the search looks at.
    root_moves: usize,
    /// The root move being searched (the GUI's text) and its number from 1, once the search says.
    current: Option<(String, usize)>,
}

impl<W: Write> CecpSession<W> {
    fn new(engine: Engine, reports: Receiver<Report>, output: W) -> Self {
        CecpSession {
            engine,
            reports,
            output,
            output_ok: true,
            game: for_game!(GameKind::DEFAULT, V => {
                V::into_any::<CecpGameOf>(CecpGame::new(V::start_position(false)))
            }),
            chess960: false,
            force: false,
            corvid: Color::Black,
            ended: false,
            search_score: None,
            post: false,
            level: None,
            st_ms: None,
            sd: None,
            own_clock_ms: None,
            opp_clock_ms: None,
            conduct: Conduct::new(Policy::default()),
            fast_castling: false,
            analyzing: false,
            opponent_computer: false,
            progress: Progress::default(),
            last_pv: None,
            held_pongs: Vec::new(),
        }
    }

    fn emit(&mut self, text: &str) {
        let result = writeln!(self.output, "{text}").and_then(|()| self.output.flush());
        if result.is_err() {
            self.output_ok = false;
        }
    }

    /// The side to move in the game being played.
    fn side_to_move(&self) -> Color {
        by_game!(&self.game, g, V => g.record.side_to_move())
    }

    /// The static evaluation of the game's current position for `me`.
    fn static_eval(&self, me: Color) -> i32 {
        by_game!(&self.game, g, V => {
            let v = V::evaluate(g.record.position());
            if g.record.side_to_move() == me {
                v
            } else {
                -v
            }
        })
    }

    /// A new game of `V` from `start`.
    fn start_game<V: Registered + Cecp>(&mut self, start: V::Position) {
        self.game = V::into_any::<CecpGameOf>(CecpGame::new(start));
    }

    /// Is a search for Corvid's move running?
    fn is_thinking(&self) -> bool {
        by_game!(&self.game, g, V => g.thinking.is_some())
    }

    /// Ends a running search without playing its move (the GUI changed the game under it).
    fn abort_search(&mut self) {
        let was_thinking = by_game!(&mut self.game, g, V => g.thinking.take().is_some());
        if was_thinking {
            self.engine.stop();
            self.engine.wait();
            // Everything the search reported is queued now; none of it applies any more.
            while self.reports.try_recv().is_ok() {}
        }
        self.release_pongs();
    }

    /// `ping N`: `pong N` once every command before it is done. A search for Corvid's own move is such a
    /// command (CECP: the pong comes after the move); analysis is not, like pondering.
    fn ping(&mut self, n: String) {
        if self.is_thinking() && !self.analyzing {
            self.held_pongs.push(n);
        } else {
            self.emit(&format!("pong {n}"));
        }
    }

    /// Answers the pings held during a search for Corvid's move, now that it is over.
    fn release_pongs(&mut self) {
        for n in std::mem::take(&mut self.held_pongs) {
            self.emit(&format!("pong {n}"));
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
        // What changes the position restarts a running analysis on the new one.
        let restarts_analysis = matches!(
            cmd,
            Command::New
                | Command::Variant(_)
                | Command::SetBoard(_)
                | Command::Undo
                | Command::Remove
                | Command::UserMove(_)
                | Command::Force
                | Command::Analyze
        );
        if cmd == Command::Quit {
            return false;
        }
        self.dispatch(cmd, line);
        if restarts_analysis && self.analyzing {
            self.analyze();
        }
        true
    }

    /// Carries out one command other than `quit` (`line` is its text, for error messages).
    fn dispatch(&mut self, cmd: Command, line: &str) {
        match cmd {
            Command::Xboard | Command::Ignored | Command::Ponder(_) | Command::Quit => {}
            Command::Computer => self.opponent_computer = true,
            Command::Analyze => {
                self.abort_search();
                self.analyzing = true;
            }
            Command::Exit => self.exit_analysis(),
            Command::Stat => {
                if self.analyzing && self.is_thinking() {
                    let line = self.stat01();
                    self.emit(&line);
                }
            }
            Command::Hint => {
                if let Some(m) = self.hint() {
                    self.emit(&format!("Hint: {m}"));
                }
            }
            Command::Book => {
                // A book listing is lines starting with a blank, then an empty line.
                self.emit(" Corvid has no opening book");
                self.emit("");
            }
            Command::Protover(v) => {
                if v >= 2 {
                    for l in format_features().lines() {
                        self.emit(l);
                    }
                }
            }
            Command::New => self.new_game(),
            Command::Variant(v) => match GameKind::from_cecp_variant(&v) {
                Some((kind, variant)) => {
                    for_game!(kind, V => self.choose_variant::<V>(variant, false))
                }
                None => self.emit(&format!("Error (unsupported variant): {v}")),
            },
            Command::Force => {
                self.abort_search();
                self.force = true;
            }
            Command::Go => self.go(),
            Command::PlayOther => {
                self.force = false;
                self.corvid = self.side_to_move().flip();
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
            Command::Ping(n) => self.ping(n),
            Command::Draw => self.opponent_offers_draw(),
            Command::Result { .. } => {
                self.abort_search();
                self.ended = true;
            }
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::Undo | Command::Remove => {
                self.abort_search();
                let plies = if cmd == Command::Undo { 1 } else { 2 };
                let taken = by_game!(&mut self.game, g, V => g.record.take_back(plies));
                if taken < plies {
                    self.emit(&format!("Error (no move to take back): {}", line.trim()));
                }
                self.ended = false;
            }
            Command::Post(on) => self.post = on,
            Command::Memory(mb) => {
                let r = self.set_engine_option("Hash", &mb.to_string());
                self.option_result("memory", r);
            }
            Command::Cores(n) => {
                let r = self.set_engine_option("Threads", &n.to_string());
                self.option_result("cores", r);
            }
            Command::Rating { opponent, .. } => self.set_opponent_rating(opponent),
            Command::EgtPath { kind, path } if kind == "syzygy" => self.set_syzygy_path(&path),
            Command::EgtPath { kind, .. } => {
                self.emit(&format!("Error (unsupported table kind {kind}): egtpath"));
            }
            Command::Option { name, value } => self.set_option(&name, value.as_deref()),
        }
    }

    /// `exit`: out of analysis Corvid plays nothing until told to (`go`, `playother`).
    fn exit_analysis(&mut self) {
        if self.analyzing {
            self.abort_search();
            self.analyzing = false;
            self.force = true;
        }
    }

    /// `go`: Corvid plays the side to move, from now on.
    fn go(&mut self) {
        if self.analyzing {
            self.abort_search();
            self.analyzing = false;
        }
        self.force = false;
        self.corvid = self.side_to_move();
        self.ended = false;
        self.maybe_think();
    }

    /// `new`: the default game from its start, Corvid Black, the clocks and the conduct forgotten. CECP: a
    /// variant is named again after it (XBoard does so).
    fn new_game(&mut self) {
        for_game!(GameKind::DEFAULT, V => {
            // The game's first CECP name (`normal`); a game without one is chosen by its own name.
            let variant = V::CECP_VARIANTS.first().copied().unwrap_or(CecpVariant {
                name: V::NAME,
                chess960: false,
                restarts: true,
            });
            self.choose_variant::<V>(variant, true)
        });
        self.force = false;
        self.corvid = Color::Black;
        self.sd = None;
        self.own_clock_ms = None;
        self.opp_clock_ms = None;
        self.opponent_computer = false;
        self.last_pv = None;
        self.engine.new_game();
    }

    /// `variant NAME` (and `new`, with `restart`): the engine switches game and castling notation; the game
    /// starts anew when it changes, when the variant says so or when `restart` does; XBoard learns the set-up
    /// of a game it does not know.
    fn choose_variant<V: Registered>(&mut self, variant: CecpVariant, restart: bool) {
        self.abort_search();
        self.chess960 = variant.chess960;
        let _ = self.engine.set_option(
            "UCI_Chess960",
            Some(if variant.chess960 { "true" } else { "false" }),
        );
        if let Err(e) = self.engine.set_option("UCI_Variant", Some(V::NAME)) {
            self.emit(&format!("Error ({e}): variant {}", variant.name));
            return;
        }
        // The engine announces a switch for UCI GUIs (`Variant::variant_note`); XBoard gets `setup_lines`.
        while self.reports.try_recv().is_ok() {}
        if restart || variant.restarts || self.game.kind() != V::KIND {
            self.start_game::<V>(V::cecp_start(variant.chess960, self.fast_castling));
            self.ended = false;
            self.conduct.reset();
        }
        for line in V::setup_lines() {
            self.emit(&line);
        }
    }

    /// `setboard FEN`: a new game of the current variant from `fen`.
    fn set_board(&mut self, fen: &str) {
        self.abort_search();
        let chess960 = self.chess960;
        let ok = for_game!(self.game.kind(), V => match V::from_fen(fen, chess960) {
            Ok(p) => {
                self.start_game::<V>(p);
                true
            }
            Err(_) => false,
        });
        if ok {
            self.ended = false;
            self.conduct.reset();
        } else {
            self.emit("tellusererror Illegal position");
        }
    }

    /// `rating OWN OPPONENT`: contempt against a weaker opponent, from Corvid's own strength setting; none
    /// when the opponent's is unknown (0).
    fn set_opponent_rating(&mut self, opponent: i32) {
        let options = self.engine.options();
        let own = crate::conduct::own_strength(options.limit_strength.then_some(options.elo));
        self.conduct.policy.contempt_cp = if opponent > 0 {
            crate::conduct::contempt_cp(own, opponent as u32)
        } else {
            0
        };
    }

    /// `egtpath syzygy PATH`. XBoard sends its default (`/EGT/Syzygy`) on every start whether or not it
    /// exists: a path that names no folder at all is a note for the log, not an error for the user. A folder
    /// without tables is still an error.
    fn set_syzygy_path(&mut self, path: &str) {
        let sep = if cfg!(windows) { ';' } else { ':' };
        let exists = path
            .split(sep)
            .any(|p| !p.trim().is_empty() && std::path::Path::new(p.trim()).is_dir());
        if exists {
            let r = self.set_engine_option("SyzygyPath", path);
            self.option_result("egtpath", r);
        } else {
            let _ = self.set_engine_option("SyzygyPath", "<empty>");
            self.emit(&format!(
                "# egtpath syzygy {path}: no such folder, so no tablebases"
            ));
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
            "AcceptDrawMiddlegame" => num(value).map(|n| p.accept_middlegame_cp = n as i32),
            "Contempt" => num(value).map(|n| p.contempt_cp = n.clamp(-100, 100) as i32),
            "OfferDrawAfter" => num(value).map(|n| p.offer_draw_after = n.max(0) as u32),
            "OfferDrawStreak" => num(value).map(|n| p.offer_draw_streak = n.max(1) as usize),
            "OfferDrawBalance" => num(value).map(|n| p.offer_balance_cp = n.max(0) as i32),
            "Resign" => flag(value).map(|b| p.resign = b),
            "ResignBelow" => num(value).map(|n| p.resign_cp = n as i32),
            "ResignMoves" => num(value).map(|n| p.resign_moves = n.max(1) as usize),
            "FastCastling" => flag(value).map(|b| self.fast_castling = b),
            _ => {
                // The engine's own options, by their CECP names or their UCI ones; a check is 0 or 1 here.
                let spec = find_cecp_option(name).or_else(|| find_option(name));
                let engine_name = spec.map_or(name, |o| o.name);
                let value = match spec.map(|o| o.kind) {
                    Some(OptionKind::Check { .. }) => {
                        flag(value).map(|b| Some(if b { "true" } else { "false" }))
                    }
                    _ => Some(value),
                };
                value.map(|v| {
                    let r = self.engine.set_option(engine_name, v);
                    self.option_result(name, r);
                })
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
        if self.force || self.analyzing || self.ended || self.is_thinking() {
            return;
        }
        for_game!(self.game.kind(), V => self.think::<V>());
    }

    /// `maybe_think` for the game of variant `V` (which the session plays).
    fn think<V: Registered + Cecp>(&mut self) {
        let Some(g) = V::from_any(&self.game) else {
            return;
        };
        if V::side_to_move(g.record.position()) != self.corvid {
            return;
        }
        if let Some(o) = g.record.outcome() {
            // Asked to move in a finished game: say how it ended.
            self.announce_end::<V>(&o, None);
            self.ended = true;
            return;
        }
        let limits = self.limits();
        self.start_search::<V>(limits);
    }

    /// Analysis (`analyze`): an endless search of the current position, restarted on every change; a
    /// finished game has nothing to analyse.
    fn analyze(&mut self) {
        self.abort_search();
        let over = by_game!(&self.game, g, V => g.record.is_over());
        if !over {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            for_game!(self.game.kind(), V => self.start_search::<V>(limits));
        }
    }

    /// Starts a search of the game's current position (Corvid's move, or analysis).
    fn start_search<V: Registered + Cecp>(&mut self, limits: Limits) {
        let Some(g) = V::from_any(&self.game) else {
            return;
        };
        let pos = g.record.position().clone();
        let (start, moves) = (g.record.start().clone(), g.record.moves().to_vec());
        if self.engine.set_game::<V>(&start, &moves).is_err() {
            self.emit("Error (internal): the game could not be set up for the search");
            return;
        }
        let only = V::search_moves(&pos, self.fast_castling);
        self.search_score = None;
        self.progress = Progress {
            started: Some(Instant::now()),
            root_moves: if only.is_empty() {
                V::legal_moves(&pos).len()
            } else {
                only.len()
            },
            ..Progress::default()
        };
        if let Some(g) = V::from_any_mut(&mut self.game) {
            g.thinking = Some(pos);
        }
        self.engine.go(limits, &only);
    }

    /// The `.` reply: `stat01: time nodes ply mvleft mvtot mvname` (time in centiseconds).
    fn stat01(&self) -> String {
        let p = &self.progress;
        let cs = p.started.map_or(0, |t| t.elapsed().as_millis() / 10);
        let (left, name) = match &p.current {
            Some((m, n)) => (p.root_moves.saturating_sub(*n), m.as_str()),
            None => (p.root_moves, ""),
        };
        format!(
            "stat01: {cs} {} {} {left} {} {name}",
            p.nodes, p.depth, p.root_moves
        )
        .trim_end()
        .to_string()
    }

    /// The `hint` move: the latest PV's move from the current position, when the game is on that PV.
    fn hint(&self) -> Option<String> {
        let (root, pv) = self.last_pv.as_ref()?;
        let chess960 = self.chess960;
        by_game!(&self.game, g, V => {
            let now = V::to_fen(g.record.position());
            let mut pos = V::from_fen(root, chess960).ok()?;
            for text in pv {
                let m = V::parse_move(&pos, text).ok()?;
                if V::to_fen(&pos) == now {
                    return Some(V::write_move(&pos, m));
                }
                V::play(&mut pos, m);
            }
            None
        })
    }

    /// Says how the game ended by the rules, with Corvid's move that ended it (`move_text`) if any. XBoard
    /// accepts a claimed loss and a draw both engines offer as they are, but checks an engine's claim of its
    /// own win or of a draw against its own reading of the rules: in an engine-engine game of a variant it
    /// does not know exactly, Corvid offers the draw, claims its own losses and leaves its wins to the loser
    /// to claim (the other engine is Corvid too: no other engine plays these variants).
    fn announce_end<V: Cecp>(&mut self, o: &Outcome, move_text: Option<&str>) {
        let checked = self.opponent_computer && !V::GUI_KNOWS_RULES;
        if checked && o.winner.is_none() {
            // The offer goes with the move (before it), as any draw offer.
            self.emit("offer draw");
        }
        if let Some(t) = move_text {
            self.emit(&format!("move {t}"));
        }
        if !checked || o.winner.is_some_and(|w| w != self.corvid) {
            self.emit(&format_result(o));
        }
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
            let made = by_game!(&self.game, g, V => g.record.moves_made());
            l.movestogo = Some(level.moves - made % level.moves);
        }
        l
    }

    fn report(&mut self, r: Report) {
        match r {
            Report::Search(Event::Info(info)) => {
                // Bound lines are shown too: the search's last line (after a cut iteration, maybe a bound)
                // is the one it plays; only exact scores feed the draw and resign policy.
                if info.multipv != 1 {
                    return;
                }
                let seen = by_game!(&self.game, g, V => g.thinking.as_ref().map(|root| {
                    let line = format_thinking_text(&info, &V::pv_text(root, &info.pv).join(" "));
                    (line, V::to_fen(root))
                }));
                let Some((line, root)) = seen else {
                    return;
                };
                if info.bound == Bound::Exact {
                    self.search_score = Some(info.score);
                }
                self.progress.depth = info.depth;
                self.progress.nodes = info.nodes;
                if !info.pv.is_empty() {
                    self.last_pv = Some((root, info.pv.clone()));
                    // Analysis is thinking output, whatever `post` says.
                    if self.post || self.analyzing {
                        self.emit(&line);
                    }
                }
            }
            Report::Search(Event::Text(t)) => {
                let line = format!("# {}", t.replace('\n', " "));
                self.emit(&line);
            }
            Report::Search(Event::CurrMove { mv, number, .. }) => {
                let text = by_game!(&self.game, g, V => g.thinking.as_ref().and_then(|root| {
                    V::pv_text(root, std::slice::from_ref(&mv)).pop()
                }));
                if let Some(text) = text {
                    self.progress.current = Some((text, number));
                }
            }
            Report::BestMove(_) if self.analyzing => {
                // An analysis plays nothing.
                by_game!(&mut self.game, g, V => g.thinking = None);
            }
            Report::BestMove(outcome) => {
                for_game!(self.game.kind(), V => self.finish_search::<V>(outcome));
                self.release_pongs();
            }
        }
    }

    /// Corvid's search is done: answer a standing draw offer, resign, or move (maybe offering a draw).
    fn finish_search<V: Registered + Cecp>(&mut self, outcome: BestMove) {
        let Some(root) = V::from_any_mut(&mut self.game).and_then(|g| g.thinking.take()) else {
            return;
        };
        if !self.conduct_before_moving() {
            return;
        }
        let me = self.corvid;
        let m = outcome
            .best_as::<V>()
            .or_else(|| V::legal_moves(&root).first().copied());
        let Some(g) = V::from_any_mut(&mut self.game) else {
            return;
        };
        let Some(m) = m else {
            // No legal move: the rules module already ended the game; say so.
            if let Some(o) = g.record.outcome() {
                self.announce_end::<V>(&o, None);
            }
            return;
        };
        if g.record.play(m).is_err() {
            self.emit("Error (internal): Corvid's move was refused by the rules");
            return;
        }
        let ended = g.record.outcome();
        let text = V::write_move(&root, m);
        if let Some(o) = ended {
            self.announce_end::<V>(&o, Some(&text));
            self.ended = true;
            return;
        }
        self.maybe_offer_draw(me);
        self.emit(&format!("move {text}"));
    }

    /// Corvid's search is done, before its move: it records the evaluation, answers a standing draw offer
    /// and resigns when its policy says so. False when the game ended here.
    fn conduct_before_moving(&mut self) -> bool {
        let me = self.corvid;
        let score = self
            .search_score
            .unwrap_or_else(|| Score::Cp(self.static_eval(me)));
        self.conduct.record(score);
        let offered = by_game!(&self.game, g, V => g.record.pending_offer()) == Some(me.flip());
        if offered && self.answer_draw_offer(me, score) {
            return false;
        }
        if self.conduct.should_resign()
            && by_game!(&mut self.game, g, V => g.record.resign(me).is_ok())
        {
            self.emit("resign");
            self.ended = true;
            return false;
        }
        true
    }

    /// Corvid (`me`, whose evaluation is `score`) answers the opponent's standing draw offer: accepts it when
    /// its policy says so (accepting is offering back; the GUI ends the game), declines it otherwise. True
    /// when accepted.
    fn answer_draw_offer(&mut self, me: Color, score: Score) -> bool {
        let conduct = &self.conduct;
        let accepted = by_game!(&mut self.game, g, V => {
            let accepted = conduct.accepts_draw(score, g.record.draw_material())
                && g.record.accept_draw(me).is_ok();
            if !accepted {
                let _ = g.record.decline_draw(me);
            }
            accepted
        });
        if accepted {
            self.emit("offer draw");
            self.ended = true;
        }
        accepted
    }

    /// After Corvid's move: offer a draw when the policy says so. The offer goes with the move (CECP: before
    /// it), so it stands until the opponent replies.
    fn maybe_offer_draw(&mut self, me: Color) {
        let conduct = &self.conduct;
        let offered = by_game!(&mut self.game, g, V => {
            let r = &mut g.record;
            conduct.should_offer_draw_at(r.can_offer_draw(me), r.fullmove(), r.draw_material())
                && r.offer_draw(me).is_ok()
        });
        if offered {
            self.emit("offer draw");
        }
    }
    fn user_move(&mut self, text: &str) {
        // A move for the side to move while Corvid thinks means the GUI has moved on: it wins.
        self.abort_search();
        for_game!(self.game.kind(), V => self.play_user_move::<V>(text));
    }

    /// `user_move` for the game of variant `V`.
    fn play_user_move<V: Registered + Cecp>(&mut self, text: &str) {
        let Some(g) = V::from_any_mut(&mut self.game) else {
            return;
        };
        let text = V::gui_text(text);
        let played = match V::read_gui_move(g.record.position(), &text) {
            Some(m) if g.record.outcome().is_none() => g.record.play(m).is_ok(),
            _ => false,
        };
        let ended = g.record.outcome();
        if !played {
            self.emit(&format!("Illegal move: {text}"));
            return;
        }
        if let Some(o) = ended {
            if !self.force && !self.analyzing {
                self.announce_end::<V>(&o, None);
                self.ended = true;
            }
            return;
        }
        self.maybe_think();
    }

    /// The opponent offers a draw. The offer must be valid by the rules (else it is ignored, with a note);
    /// Corvid answers after its next search when it is to move, at once otherwise.
    fn opponent_offers_draw(&mut self) {
        let drawn =
            by_game!(&self.game, g, V => g.record.outcome().is_some_and(|o| o.winner.is_none()));
        if drawn {
            // The game is already drawn by the rules: agreeing says so in a form every GUI takes.
            self.emit("offer draw");
            return;
        }
        let to_move = self.side_to_move();
        let corvid_to_move = self.force || self.corvid == to_move;
        let opponent = if corvid_to_move {
            to_move.flip()
        } else {
            self.corvid.flip()
        };
        if let Err(e) = by_game!(&mut self.game, g, V => g.record.offer_draw(opponent)) {
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
            .unwrap_or_else(|| Score::Cp(self.static_eval(me)));
        self.answer_draw_offer(me, score);
    }
}

/// A session driven by tests: lines in, the engine's reports pumped, the output read back as lines.
#[cfg(test)]
pub(super) struct TestSession(CecpSession<Vec<u8>>);

#[cfg(test)]
impl TestSession {
    pub(super) fn new() -> TestSession {
        let (report_tx, reports) = unbounded::<Report>();
        let engine = Engine::new(Arc::new(move |r| {
            let _ = report_tx.send(r);
        }));
        TestSession(CecpSession::new(engine, reports.clone(), Vec::new()))
    }

    /// Handles `line` and returns what was written at once.
    pub(super) fn send(&mut self, line: &str) -> Vec<String> {
        self.0.handle(line);
        self.take()
    }

    /// Handles the engine's reports for up to `ms` milliseconds, or until a line written satisfies `stop`.
    pub(super) fn pump(&mut self, ms: u64, stop: impl Fn(&str) -> bool) -> Vec<String> {
        let end = Instant::now() + std::time::Duration::from_millis(ms);
        let mut lines = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            if let Ok(r) = self.0.reports.recv_timeout(left) {
                self.0.report(r);
            }
            let new = self.take();
            let done = new.iter().any(|l| stop(l));
            lines.extend(new);
            if done {
                break;
            }
        }
        lines
    }

    /// The FEN of the game's current position.
    pub(super) fn fen(&self) -> String {
        by_game!(&self.0.game, g, V => V::to_fen(g.record.position()))
    }

    fn take(&mut self) -> Vec<String> {
        let out = std::mem::take(&mut self.0.output);
        String::from_utf8_lossy(&out)
            .lines()
            .map(str::to_string)
            .collect()
    }
}

#[cfg(test)]
impl Drop for TestSession {
    fn drop(&mut self) {
        self.0.abort_search();
        self.0.engine.quit();
    }
}
