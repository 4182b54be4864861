//! A CECP session: the game record, the engine and the thinking, driven by the parsed commands.

use super::format::*;
use super::games::{Cecp, CecpGame, CecpGameOf};
use super::parse::*;
use crate::chess::{Color, Position};
use crate::conduct::{Conduct, Policy};
use crate::engine::{
    find_cecp_option, find_option, BestMove, Engine, OptionError, OptionKind, Report,
};
use crate::game::{GameKind, Variant as _};
use crate::makro::xbetza::makro_variant_lines;
use crate::rules::{Rules, RulesError};
use crate::search::{Bound, Event, Limits, Score};
use crate::variants::{AnyGame, Chess, Makromachy};
use crate::{by_game, for_game};
use crossbeam_channel::{select, unbounded, Receiver};
use std::io::{BufRead, Write};
use std::sync::Arc;

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

/// What the session asks of the game record, whichever game is played (`variants::ChessRecord` for chess,
/// `variants::MakroRecord` for Makromachy).
trait CecpRecord {
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
    /// What the material says about a draw.
    fn draw_material(&self) -> crate::conduct::DrawMaterial;
}

impl<V: Rules> CecpRecord for crate::rules::Record<V> {
    fn side_to_move(&self) -> Color {
        crate::rules::Record::side_to_move(self)
    }
    fn moves_made(&self) -> u32 {
        crate::rules::Record::moves_made(self)
    }
    fn fullmove(&self) -> u32 {
        crate::rules::Record::fullmove(self)
    }
    fn pending_offer(&self) -> Option<Color> {
        crate::rules::Record::pending_offer(self)
    }
    fn can_offer_draw(&self, who: Color) -> bool {
        crate::rules::Record::can_offer_draw(self, who)
    }
    fn offer_draw(&mut self, who: Color) -> Result<(), RulesError> {
        crate::rules::Record::offer_draw(self, who)
    }
    fn accept_draw(&mut self, who: Color) -> Result<(), RulesError> {
        crate::rules::Record::accept_draw(self, who)
    }
    fn decline_draw(&mut self, who: Color) -> Result<(), RulesError> {
        crate::rules::Record::decline_draw(self, who)
    }
    fn resign(&mut self, who: Color) -> Result<(), RulesError> {
        crate::rules::Record::resign(self, who)
    }
    fn take_back(&mut self, plies: usize) -> usize {
        crate::rules::Record::take_back(self, plies)
    }
    fn draw_material(&self) -> crate::conduct::DrawMaterial {
        crate::rules::Record::draw_material(self)
    }
    fn static_eval(&self, me: Color) -> i32 {
        let v = V::evaluate(self.position());
        if self.side_to_move() == me {
            v
        } else {
            -v
        }
    }
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
    /// Makromachy: may Corvid castle? XBoard 4.9 cannot show fast castling, so by default it does not.
    fast_castling: bool,
}

impl<W: Write> CecpSession<W> {
    fn new(engine: Engine, reports: Receiver<Report>, output: W) -> Self {
        CecpSession {
            engine,
            reports,
            output,
            output_ok: true,
            game: AnyGame::Chess(CecpGame::new(Position::startpos())),
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
        }
    }

    fn emit(&mut self, text: &str) {
        let result = writeln!(self.output, "{text}").and_then(|()| self.output.flush());
        if result.is_err() {
            self.output_ok = false;
        }
    }

    /// The game being played.
    fn record(&self) -> &dyn CecpRecord {
        by_game!(&self.game, g, V => &g.record as &dyn CecpRecord)
    }

    /// The game being played, to change it.
    fn record_mut(&mut self) -> &mut dyn CecpRecord {
        by_game!(&mut self.game, g, V => &mut g.record as &mut dyn CecpRecord)
    }

    /// A new game of `V` from `start`.
    fn start_game<V: Cecp>(&mut self, start: V::Position) {
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
                self.start_game::<Chess>(Position::startpos());
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
                    self.start_game::<Chess>(p);
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
            Command::SetBoard(fen) => {
                self.abort_search();
                let chess960 = self.chess960;
                let ok = for_game!(self.game.kind(), V => match V::from_fen(&fen, chess960) {
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
            Command::Rating { opponent, .. } => {
                // Contempt against a weaker opponent, from Corvid's own strength setting; none when unknown.
                let options = self.engine.options();
                let own =
                    crate::conduct::own_strength(options.limit_strength.then_some(options.elo));
                self.conduct.policy.contempt_cp = if opponent > 0 {
                    crate::conduct::contempt_cp(own, opponent as u32)
                } else {
                    0
                };
            }
            Command::EgtPath { kind, path } if kind == "syzygy" => {
                // XBoard sends its default (`/EGT/Syzygy`) on every start whether or not it exists: a
                // path that names no folder at all is a note for the log, not an error for the user. A
                // folder without tables is still an error.
                let sep = if cfg!(windows) { ';' } else { ':' };
                let exists = path
                    .split(sep)
                    .any(|p| !p.trim().is_empty() && std::path::Path::new(p.trim()).is_dir());
                if exists {
                    let r = self.set_engine_option("SyzygyPath", &path);
                    self.option_result("egtpath", r);
                } else {
                    let _ = self.set_engine_option("SyzygyPath", "<empty>");
                    self.emit(&format!(
                        "# egtpath syzygy {path}: no such folder, so no tablebases"
                    ));
                }
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
        if self.game.kind() != GameKind::Chess {
            self.start_game::<Chess>(Position::startpos());
        }
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
        self.start_game::<Makromachy>(crate::makro::Position::startpos());
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
        if self.force || self.ended || self.is_thinking() {
            return;
        }
        for_game!(self.game.kind(), V => self.think::<V>());
    }

    /// `maybe_think` for the game of variant `V` (which the session plays).
    fn think<V: Cecp>(&mut self) {
        let Some(g) = V::from_any(&self.game) else {
            return;
        };
        let pos = g.record.position().clone();
        if V::side_to_move(&pos) != self.corvid {
            return;
        }
        if let Some(o) = g.record.outcome() {
            // Asked to move in a finished game: say how it ended.
            self.emit(&format_result(&o));
            self.ended = true;
            return;
        }
        let (start, moves) = (g.record.start().clone(), g.record.moves().to_vec());
        if self.engine.set_game::<V>(&start, &moves).is_err() {
            self.emit("Error (internal): the game could not be set up for the search");
            return;
        }
        let only = V::search_moves(&pos, self.fast_castling);
        self.search_score = None;
        if let Some(g) = V::from_any_mut(&mut self.game) {
            g.thinking = Some(pos);
        }
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
                // Bound lines are shown too: the search's last line (after a cut iteration, maybe a bound)
                // is the one it plays; only exact scores feed the draw and resign policy.
                if info.multipv != 1 {
                    return;
                }
                let line = by_game!(&self.game, g, V => g.thinking.as_ref().map(|root| V::thinking(&info, root)));
                let Some(line) = line else {
                    return;
                };
                if info.bound == Bound::Exact {
                    self.search_score = Some(info.score);
                }
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
                for_game!(self.game.kind(), V => self.finish_search::<V>(outcome));
            }
        }
    }

    /// Corvid's search is done: answer a standing draw offer, resign, or move (maybe offering a draw).
    fn finish_search<V: Cecp>(&mut self, outcome: BestMove) {
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
                self.emit(&format_result(&o));
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
            self.emit(&format!("move {text}"));
            self.emit(&format_result(&o));
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
            .unwrap_or_else(|| Score::Cp(self.record().static_eval(me)));
        self.conduct.record(score);
        if self.record().pending_offer() == Some(me.flip()) {
            if self
                .conduct
                .accepts_draw(score, self.record().draw_material())
                && self.record_mut().accept_draw(me).is_ok()
            {
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
            .should_offer_draw_at(r.can_offer_draw(me), r.fullmove(), r.draw_material())
            && self.record_mut().offer_draw(me).is_ok()
        {
            self.emit("offer draw");
        }
    }

    fn user_move(&mut self, text: &str) {
        // A move for the side to move while Corvid thinks means the GUI has moved on: it wins.
        self.abort_search();
        for_game!(self.game.kind(), V => self.play_user_move::<V>(text));
    }

    /// `user_move` for the game of variant `V`.
    fn play_user_move<V: Cecp>(&mut self, text: &str) {
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
        if self
            .conduct
            .accepts_draw(score, self.record().draw_material())
            && self.record_mut().accept_draw(me).is_ok()
        {
            self.emit("offer draw");
            self.ended = true;
        } else {
            let _ = self.record_mut().decline_draw(me);
        }
    }
}
