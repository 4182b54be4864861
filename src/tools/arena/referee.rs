//! The referee: a game between two engine processes, refereed by `crate::rules`, with clocks, forfeits and random openings.

use super::config::*;
use super::forfeit::Forfeit;
use super::process::*;
use crate::game::Variant as _;
use crate::rng::Rng;
use crate::tools::openings::random_opening;
use crate::types::Color;
use crate::variants::{AnyGame, PerGame, Registered};
use crate::{by_game, for_game};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------------------
// The referee's view of a game.

/// How a game ended by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: String,
}

/// [`crate::rules::Record`] as a [`PerGame`], so that one record of whichever game runs fits in a `AnyGame`.
pub(super) struct RecordOf;
impl PerGame for RecordOf {
    type Of<V: Registered> = crate::rules::Record<V>;
}

/// A game being refereed by `crate::rules`: its moves and how it ended.
#[derive(Clone)]
pub(super) struct AnyRecord(pub(super) Box<AnyGame<RecordOf>>);

impl AnyRecord {
    pub(super) fn new(variant: GameKind) -> AnyRecord {
        for_game!(variant, V => AnyRecord(Box::new(V::into_any::<RecordOf>(crate::rules::Record::<V>::startpos()))))
    }

    pub(super) fn side_to_move(&self) -> Color {
        by_game!(&*self.0, r, V => r.side_to_move())
    }

    /// Plays a move given as protocol text; its canonical text, or why it is not a legal move.
    pub(super) fn play_text(&mut self, text: &str) -> Result<String, String> {
        by_game!(&mut *self.0, r, V => {
            let m = V::parse_move(r.position(), text).map_err(|e| e.to_string())?;
            let canonical = V::move_text(r.position(), m);
            r.play(m).map_err(|e| e.to_string())?;
            Ok(canonical)
        })
    }

    pub(super) fn outcome(&self) -> Option<Ending> {
        let outcome = by_game!(&*self.0, r, V => r.outcome());
        outcome.map(|o| Ending {
            winner: o.winner,
            reason: o.termination.to_string(),
        })
    }
}

// ---------------------------------------------------------------------------------------------------------
// Clocks and forfeits.

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
}

impl Clock {
    pub fn new(base_ms: u64, inc_ms: u64) -> Clock {
        Clock {
            remaining: Duration::from_millis(base_ms),
            increment: Duration::from_millis(inc_ms),
        }
    }

    /// Charges a move that took `elapsed`: a time loss when it went more than `margin` past the clock;
    /// otherwise the time is taken off (never below zero: the margin is forgiven) and the increment added.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Result<(), Forfeit> {
        if elapsed > self.remaining + margin {
            return Err(Forfeit::Time);
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + self.increment;
        Ok(())
    }
}

/// How long a move may take before it loses on time (`None`: no time limit), given the mover's clock.
pub fn allowed_time(limit: Limit, clock: Option<&Clock>) -> Option<Duration> {
    match (limit, clock) {
        (Limit::Clock { .. }, Some(c)) => Some(c.remaining),
        (Limit::MoveTime(ms), _) => Some(Duration::from_millis(ms)),
        _ => None,
    }
}

/// When a silent engine is declared hung: its allowed time plus margin and grace, or the hang timeout when
/// it has no time limit.
pub fn hang_after(
    allowed: Option<Duration>,
    margin: Duration,
    grace: Duration,
    hang_timeout: Duration,
) -> Duration {
    allowed.map_or(hang_timeout, |a| a + margin + grace)
}

/// The `go` command for the side to move.
pub(super) fn go_command(limit: Limit, clocks: &[Option<Clock>; 2], mover: Color) -> String {
    match limit {
        Limit::Depth(d) => format!("go depth {d}"),
        Limit::Nodes(n) => format!("go nodes {n}"),
        Limit::MoveTime(ms) => format!("go movetime {ms}"),
        Limit::Clock { .. } => {
            // A side without a clock (a depth-limited opponent) is shown the mover's clock.
            let own = clocks[mover.index()];
            let show = |c: Color| clocks[c.index()].or(own).unwrap_or(Clock::new(1000, 0));
            let (w, b) = (show(Color::White), show(Color::Black));
            format!(
                "go wtime {} btime {} winc {} binc {}",
                w.remaining.as_millis(),
                b.remaining.as_millis(),
                w.increment.as_millis(),
                b.increment.as_millis()
            )
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Games.

/// How a game ended, as the referee rules it (the rules' own endings are `rules::Termination`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// By the rules of the game.
    Rules(String),
    /// The ply cap was reached: adjudicated a draw.
    MaxPlies(usize),
    /// `engine` (0 = A, 1 = B) forfeited.
    Forfeit {
        engine: usize,
        kind: Forfeit,
        detail: String,
    },
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game number.
    pub index: usize,
    /// Does engine A have White?
    pub a_white: bool,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub termination: Verdict,
    /// The moves as text, opening included.
    pub moves: Vec<String>,
    pub opening_plies: usize,
    pub duration: Duration,
    /// Per engine (A, B): moves played, their summed time and summed reported depth (moves with a depth).
    pub move_count: [u32; 2],
    pub move_time: [Duration; 2],
    pub depth_sum: [u64; 2],
    pub depth_count: [u32; 2],
    /// Per move after the opening: its time and reported depth (the PGN's move comments).
    pub notes: Vec<(Duration, Option<u32>)>,
}

impl GameRecord {
    /// Game `index` before its first move: no result yet, nothing counted.
    pub fn new(index: usize, a_white: bool, opening_plies: usize) -> GameRecord {
        GameRecord {
            index,
            a_white,
            winner: None,
            termination: Verdict::Rules(String::new()),
            moves: Vec::new(),
            opening_plies,
            duration: Duration::ZERO,
            move_count: [0; 2],
            move_time: [Duration::ZERO; 2],
            depth_sum: [0; 2],
            depth_count: [0; 2],
            notes: Vec::new(),
        }
    }

    /// A's score: 1, 0.5 or 0.
    pub fn score_a(&self) -> f64 {
        let a = if self.a_white {
            Color::White
        } else {
            Color::Black
        };
        match self.winner {
            None => 0.5,
            Some(w) if w == a => 1.0,
            Some(_) => 0.0,
        }
    }

    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The PGN standard's `Termination` value: `normal` by the rules, `adjudication` at the ply cap, `time
    /// forfeit`, `rules infraction` (an illegal move) or `abandoned` (a crash or hang).
    pub fn pgn_termination(&self) -> &'static str {
        match &self.termination {
            Verdict::Rules(_) => "normal",
            Verdict::MaxPlies(_) => "adjudication",
            Verdict::Forfeit { kind, .. } => match kind {
                Forfeit::Time => "time forfeit",
                Forfeit::Illegal => "rules infraction",
                Forfeit::Crash | Forfeit::Hang => "abandoned",
            },
        }
    }

    /// The termination in words, with engine names for forfeits.
    pub fn reason(&self, names: &[String; 2]) -> String {
        match &self.termination {
            Verdict::Rules(r) => r.clone(),
            Verdict::MaxPlies(n) => format!("adjudicated draw: {n}-ply cap"),
            Verdict::Forfeit {
                engine,
                kind,
                detail,
            } => format!("forfeit: {} {}: {detail}", names[*engine], kind.name()),
        }
    }
}

/// The per-game settings a worker needs.
pub(super) struct GameSetup<'a> {
    pub(super) config: &'a MatchConfig,
    pub(super) index: usize,
    pub(super) opening: &'a [String],
}

/// Makes sure engine `e` of the pair is running and ready for a new game.
pub(super) fn ready(
    slot: &mut Option<EngineProcess>,
    spec: &EngineSpec,
    variant: GameKind,
) -> Result<(), EngineFailure> {
    match slot {
        Some(engine) => {
            let r = engine.send("ucinewgame").and_then(|_| engine.sync());
            if r.is_err() {
                *slot = None;
            }
            r
        }
        None => {
            *slot = Some(EngineProcess::start(spec, variant)?);
            Ok(())
        }
    }
}

/// Plays one game with the worker's engines (`engines[0]` is A), restarting any that is missing.
pub(super) fn play_game(setup: &GameSetup, engines: &mut [Option<EngineProcess>; 2]) -> GameRecord {
    let config = setup.config;
    let started = Instant::now();
    let a_white = setup.index.is_multiple_of(2);
    let engine_of = |c: Color| usize::from((c == Color::White) != a_white);
    let mut record = GameRecord::new(setup.index, a_white, setup.opening.len());
    let mut game = AnyRecord::new(config.variant);
    for text in setup.opening {
        // The openings were made by playing these very moves, so this cannot fail.
        if let Ok(t) = game.play_text(text) {
            record.moves.push(t);
        }
    }
    let forfeit = |record: &mut GameRecord, engine: usize, f: EngineFailure, a_white: bool| {
        let a_color = if a_white { Color::White } else { Color::Black };
        let loser = if engine == 0 { a_color } else { a_color.flip() };
        record.winner = Some(loser.flip());
        record.termination = Verdict::Forfeit {
            engine,
            kind: f.kind,
            detail: f.detail,
        };
    };
    for (e, (slot, spec)) in engines.iter_mut().zip(&config.engines).enumerate() {
        if let Err(f) = ready(slot, spec, config.variant) {
            forfeit(&mut record, e, f, a_white);
            record.duration = started.elapsed();
            return record;
        }
    }
    let mut clocks: [Option<Clock>; 2] = [None, None];
    for c in [Color::White, Color::Black] {
        if let Limit::Clock { base_ms, inc_ms } = config.engines[engine_of(c)].limit {
            clocks[c.index()] = Some(Clock::new(base_ms, inc_ms));
        }
    }
    loop {
        if let Some(end) = game.outcome() {
            record.winner = end.winner;
            record.termination = Verdict::Rules(end.reason);
            break;
        }
        if record.moves.len() >= config.max_plies {
            record.termination = Verdict::MaxPlies(config.max_plies);
            break;
        }
        let mover = game.side_to_move();
        let e = engine_of(mover);
        let limit = config.engines[e].limit;
        let allowed = allowed_time(limit, clocks[mover.index()].as_ref());
        let hang = hang_after(allowed, config.margin, config.grace, config.hang_timeout);
        let position = if record.moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", record.moves.join(" "))
        };
        let go = go_command(limit, &clocks, mover);
        let Some(engine) = engines[e].as_mut() else {
            forfeit(
                &mut record,
                e,
                failure(Forfeit::Crash, "engine missing"),
                a_white,
            );
            break;
        };
        let reply = match engine.go(&position, &go, hang) {
            Ok(r) => r,
            Err(f) => {
                engines[e] = None;
                forfeit(&mut record, e, f, a_white);
                break;
            }
        };
        let played = match reply.text.as_deref() {
            None => Err("bestmove without a move".to_string()),
            Some(text) => game
                .play_text(text)
                .map_err(|err| format!("'{text}': {err}")),
        };
        let text = match played {
            Ok(t) => t,
            Err(detail) => {
                engines[e] = None;
                forfeit(&mut record, e, failure(Forfeit::Illegal, detail), a_white);
                break;
            }
        };
        record.move_count[e] += 1;
        record.move_time[e] += reply.elapsed;
        if let Some(d) = reply.depth {
            record.depth_sum[e] += u64::from(d);
            record.depth_count[e] += 1;
        }
        // Over its clock, or over a fixed time per move: the move came, so the engine is sane, but it is
        // restarted like any forfeiter.
        let overrun = if let Some(clock) = clocks[mover.index()].as_mut() {
            let before = clock.remaining;
            clock
                .charge(reply.elapsed, config.margin)
                .is_err()
                .then(|| format!("with {:.3} s left", before.as_secs_f64()))
        } else if let (Some(a), Limit::MoveTime(_)) = (allowed, limit) {
            (reply.elapsed > a + config.margin).then(|| format!("of {:.3} s", a.as_secs_f64()))
        } else {
            None
        };
        if let Some(budget) = overrun {
            engines[e] = None;
            let detail = format!(
                "{text} took {:.3} s {budget}{}",
                reply.elapsed.as_secs_f64(),
                reported(reply.reported_ms)
            );
            forfeit(&mut record, e, failure(Forfeit::Time, detail), a_white);
            break;
        }
        record.notes.push((reply.elapsed, reply.depth));
        record.moves.push(text);
    }
    record.duration = started.elapsed();
    record
}

/// The engine's own idea of its search time, for a time-loss report: a large gap to the measured time means
/// the engine was not scheduled (a loaded machine) or stopped late.
pub(super) fn reported(ms: Option<u64>) -> String {
    ms.map_or(String::new(), |t| format!(" (engine reported time {t} ms)"))
}

/// `pairs` openings of `plies` random legal plies each from the start position, none of them a finished
/// game, as move text.
pub fn random_openings(
    variant: GameKind,
    plies: usize,
    pairs: usize,
    seed: u64,
) -> Vec<Vec<String>> {
    let mut rng = Rng::new(seed);
    for_game!(variant, V => {
        let mut openings = Vec::with_capacity(pairs);
        for _ in 0..pairs {
            let line = random_opening::<V>(|_| V::start_position(false), plies, &mut rng);
            let played = line.positions.iter().zip(&line.moves);
            openings.push(played.map(|(pos, &m)| V::move_text(pos, m)).collect());
        }
        openings
    })
}
