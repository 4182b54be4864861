//! `corvid datagen`: self-play games that produce training data for the NNUE trainer.
//!
//! Each game starts from `--random-plies` or one more random legal plies (so either side can be to move
//! after them) from the orthodox start, a share of them (`--dfrc-percent`) from a double-Chess960 start;
//! then every move is a single-threaded search with a fixed soft node budget. Games end by the rules module
//! (`rules::automatic_ending`) or by adjudication (below). Whole games are written, in the `viriformat`
//! crate's format ([`format`]): the first searched position, then every move with its search score, so that
//! a later network can re-score old games; the trainer reads the quiet positions of them
//! ([`format::trainable`]).
//!
//! Adjudication, to save time on games whose result is clear:
//! - win: the score (from White's view) is at least [`WIN_SCORE`] for one side in [`WIN_PLIES`]
//!   consecutive searches (both sides agree);
//! - draw: from ply [`DRAW_FROM_PLY`] on, |score| is at most [`DRAW_SCORE`] in [`DRAW_PLIES`] consecutive
//!   searches; a game that reaches [`MAX_PLIES`] is a draw too.
//!
//! Determinism: game `i` is played from its own seed (`--seed` and `i`) with a cleared table and histories,
//! and node-limited searches do not depend on time, so the games are the same whatever the thread count.
//! They are written in game order (a game finished early waits for those before it), so the same seed gives
//! the same file. The progress file `<out>.progress` records how many games and bytes are complete; a run
//! with the same output file resumes from there (a partly written game is cut off first), and the resumed
//! file is the same as one written without a stop.

pub mod format;
pub mod import;

use crate::chess::{Color, Move, PieceType, Position, Square};
use crate::eval::nnue::{Network, NnueEval};
use crate::rng::Rng;
use crate::rules::{automatic_ending, Outcome};
use crate::search::{Control, Event, Limits, Score, SearchOptions, Searcher, TranspositionTable};
use crate::tools::openings::{random_opening, RandomLine};
use crate::variants::{Chess, ChessGame};
use bulletformat::ChessBoard;
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Win adjudication: this score (cp, either sign) or a mate ...
pub const WIN_SCORE: i32 = 2000;
/// ... in this many consecutive searches.
pub const WIN_PLIES: u32 = 4;
/// Draw adjudication: |score| at most this (cp) ...
pub const DRAW_SCORE: i32 = 10;
/// ... in this many consecutive searches ...
pub const DRAW_PLIES: u32 = 10;
/// ... from this ply of the game on (the random plies count).
pub const DRAW_FROM_PLY: usize = 80;
/// A game that lasts this long is a draw.
pub const MAX_PLIES: usize = 600;
/// A random opening whose score (cp, searched with twice the move budget) is beyond this is drawn again.
pub const MAX_OPENING_SCORE: i32 = 1000;
/// Transposition table per thread, in MiB. Small on purpose: a 2,500-node search reuses little beyond the last
/// few moves' entries (1 MiB holds 65,536), and a table that stays in cache is faster: 2 MiB played 11 % more
/// moves a second than 16 MiB (3 x 150 games a size on 2 threads, idle machine), 1 MiB 8 % more positions a
/// CPU-second than 2 MiB (3 x 60 games a size on 1 thread; 256 and 512 KiB no faster).
const HASH_MB: usize = 1;

/// Which start positions the games use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Starts {
    /// The orthodox start position.
    Standard,
    /// One of the 960 Chess960 start positions, the same for both sides.
    Chess960,
    /// Double Chess960: each side's back rank drawn on its own.
    Dfrc,
}

/// `corvid datagen`'s options: the settings of a run and, as they stand, its command line (`cli.rs` embeds
/// them as the verb's arguments). `corvid datagen import ...` is declared here too, so `cli.rs` needs no
/// verb of its own for it.
#[derive(Clone, Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Config {
    /// `import`: OpenBench DATAGEN PGNs into a games file, instead of playing games.
    #[command(subcommand)]
    pub command: Option<import::Command>,
    /// Output file: whole games in viriformat, what `train_nnue` reads (appended; resumed from
    /// `<out>.progress` when it exists).
    #[arg(long, default_value = "data/games.vf")]
    pub out: PathBuf,
    /// Worker threads, one game each.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Stop once the file holds at least this many positions (at a game's end).
    #[arg(long)]
    pub positions: Option<u64>,
    /// Stop once the file holds this many games.
    #[arg(long)]
    pub games: Option<u64>,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Soft node budget of every move's search (no new iteration after it).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Random legal plies before the first search: this many or one more, half the games each.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Start positions.
    #[arg(long, value_enum, default_value_t = Starts::Standard)]
    pub starts: Starts,
    /// Percentage of the games that start from a double-Chess960 position instead of `--starts`.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub dfrc_percent: u32,
    /// The evaluation the games are played with: `<hce>` (the hand-crafted one, the bootstrap), `<default>`
    /// (the embedded network) or a network file (`EvalFile`'s values).
    #[arg(long, default_value = "<hce>")]
    pub eval: String,
}

/// The network the games are evaluated with (`None`: the hand-crafted evaluation).
type Net = Option<std::sync::Arc<Network>>;

/// One game as written: its bytes, its trainable positions and its result.
struct FinishedGame {
    bytes: Vec<u8>,
    positions: u64,
    winner: Option<Color>,
}

/// The progress file's name for the games format (files of the older record format cannot be resumed).
const FORMAT_NAME: &str = "viriformat";

/// What the progress file holds: the settings (a resume must use the same) and how far the file is complete.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Progress {
    format: String,
    seed: u64,
    nodes: u64,
    random_plies: u32,
    starts: String,
    dfrc_percent: u32,
    eval: String,
    games: u64,
    positions: u64,
    bytes: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
}

impl Progress {
    fn to_text(&self) -> String {
        format!(
            "format {}\nseed {}\nnodes {}\nrandom_plies {}\nstarts {}\ndfrc_percent {}\neval {}\ngames {}\n\
             positions {}\nbytes {}\nwhite_wins {}\ndraws {}\nblack_wins {}\n",
            self.format,
            self.seed,
            self.nodes,
            self.random_plies,
            self.starts,
            self.dfrc_percent,
            self.eval,
            self.games,
            self.positions,
            self.bytes,
            self.white_wins,
            self.draws,
            self.black_wins
        )
    }

    fn parse(text: &str) -> Result<Progress, String> {
        // Files from before `--eval` existed were all played with the hand-crafted evaluation; files without a
        // format line hold bulletformat records.
        let mut p = Progress {
            format: "bulletformat".to_string(),
            eval: "<hce>".to_string(),
            ..Progress::default()
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let (key, value) = line
                .split_once(' ')
                .ok_or_else(|| format!("bad progress line '{line}'"))?;
            let num = || {
                value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| format!("bad number in progress line '{line}'"))
            };
            match key {
                "format" => p.format = value.trim().to_string(),
                "dfrc_percent" => p.dfrc_percent = num()? as u32,
                "seed" => p.seed = num()?,
                "nodes" => p.nodes = num()?,
                "random_plies" => p.random_plies = num()? as u32,
                "starts" => p.starts = value.trim().to_string(),
                "eval" => p.eval = value.trim().to_string(),
                "games" => p.games = num()?,
                "positions" => p.positions = num()?,
                "bytes" => p.bytes = num()?,
                "white_wins" => p.white_wins = num()?,
                "draws" => p.draws = num()?,
                "black_wins" => p.black_wins = num()?,
                _ => return Err(format!("unknown progress key '{key}'")),
            }
        }
        Ok(p)
    }
}

/// `corvid datagen`: runs with a progress bar on stderr; status 1 on an error.
pub fn main(config: &Config) -> ExitCode {
    if let Some(import::Command::Import(args)) = &config.command {
        return import::main(args);
    }
    let stop = AtomicBool::new(false);
    // The bar counts toward the target: positions when one is set, else games, else an open-ended count.
    let bar = match (config.positions, config.games) {
        (Some(n), _) => super::progress::bar("datagen positions", Some(n)),
        (None, Some(g)) => super::progress::bar("datagen games", Some(g)),
        (None, None) => super::progress::bar("datagen positions", None),
    };
    let result = run(
        config,
        &stop,
        &mut |line| bar.suspend(|| eprint!("{line}")),
        &bar,
    );
    // The last state stays on screen, with the cursor on the next line.
    if !bar.is_hidden() {
        bar.abandon();
        eprintln!();
    }
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("datagen: {e}");
            ExitCode::FAILURE
        }
    }
}

fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

fn starts_name(s: Starts) -> &'static str {
    match s {
        Starts::Standard => "standard",
        Starts::Chess960 => "chess960",
        Starts::Dfrc => "dfrc",
    }
}

/// Reads the progress of an earlier run into `out` (or a fresh one), checks that its settings match, and cuts
/// the data file back to the last complete game.
fn resume(config: &Config) -> Result<(Progress, File), String> {
    let fresh = Progress {
        format: FORMAT_NAME.to_string(),
        seed: config.seed,
        nodes: config.nodes,
        random_plies: config.random_plies,
        starts: starts_name(config.starts).to_string(),
        dfrc_percent: config.dfrc_percent,
        eval: config.eval.trim().to_string(),
        ..Progress::default()
    };
    if let Some(dir) = config.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let ppath = progress_path(&config.out);
    let progress = match std::fs::read_to_string(&ppath) {
        Ok(text) => {
            let p = Progress::parse(&text).map_err(|e| format!("{}: {e}", ppath.display()))?;
            let same = Progress {
                games: 0,
                positions: 0,
                bytes: 0,
                white_wins: 0,
                draws: 0,
                black_wins: 0,
                ..p.clone()
            };
            if same != fresh {
                return Err(format!(
                    "{} was written with other settings (format {}, seed {}, nodes {}, random plies {}, starts {}, \
                     dfrc percent {}, eval {}); use those or another --out",
                    ppath.display(),
                    p.format,
                    p.seed,
                    p.nodes,
                    p.random_plies,
                    p.starts,
                    p.dfrc_percent,
                    p.eval
                ));
            }
            p
        }
        Err(_)
            if config.out.exists() && std::fs::metadata(&config.out).map_or(0, |m| m.len()) > 0 =>
        {
            return Err(format!(
                "{} exists without {}: not resuming into a file of unknown origin",
                config.out.display(),
                ppath.display()
            ))
        }
        Err(_) => fresh,
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.out)
        .map_err(|e| format!("cannot open {}: {e}", config.out.display()))?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len < progress.bytes {
        return Err(format!(
            "{} holds {len} bytes, fewer than the {} its progress file records",
            config.out.display(),
            progress.bytes
        ));
    }
    // A game written after the last progress update is cut: it is played again.
    file.set_len(progress.bytes).map_err(|e| e.to_string())?;
    Ok((progress, file))
}

fn save_progress(out: &Path, p: &Progress) -> Result<(), String> {
    let path = progress_path(out);
    let mut tmp = path.clone().into_os_string();
    tmp.push(".tmp");
    std::fs::write(&tmp, p.to_text()).map_err(|e| format!("cannot write progress: {e}"))?;
    std::fs::rename(&tmp, &path).map_err(|e| format!("cannot write progress: {e}"))
}

/// Runs datagen until a `--games`/`--positions` target or `stop`. Progress goes to `bar` when it is shown (its
/// unit, as [`main`] chose it: positions when `--positions` is set, else games), otherwise `status` receives
/// it as a line every half minute. Returns the final progress (totals of the file).
fn run(
    config: &Config,
    stop: &AtomicBool,
    status: &mut dyn FnMut(&str),
    bar: &ProgressBar,
) -> Result<Progress, String> {
    let net: Net = crate::eval::nnue::network_for_option(&config.eval)
        .map_err(|e| format!("--eval {}: {e}", config.eval))?;
    let (mut progress, mut file) = resume(config)?;
    let done = |p: &Progress| {
        config.games.is_some_and(|g| p.games >= g)
            || config.positions.is_some_and(|n| p.positions >= n)
    };
    if done(&progress) {
        status(&format!(
            "{} already holds {} games, {} positions\n",
            config.out.display(),
            progress.games,
            progress.positions
        ));
        return Ok(progress);
    }
    let shown = !bar.is_hidden();
    let counts_games = config.positions.is_none() && config.games.is_some();
    let next_game = AtomicU64::new(progress.games);
    let finished = AtomicBool::new(false);
    let (tx, rx) = crossbeam_channel::unbounded::<(u64, FinishedGame)>();
    let start = Instant::now();
    let start_positions = progress.positions;
    let mut result = Ok(());
    show_on_bar(bar, &progress, counts_games, 0.0);
    std::thread::scope(|scope| {
        for _ in 0..config.threads {
            let tx = tx.clone();
            let (next_game, finished, net) = (&next_game, &finished, &net);
            std::thread::Builder::new()
                .stack_size(64 * 1024 * 1024)
                .spawn_scoped(scope, move || {
                    let tt = TranspositionTable::new(HASH_MB);
                    let mut searcher = Searcher::<ChessGame>::new();
                    while !finished.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
                        let index = next_game.fetch_add(1, Ordering::Relaxed);
                        let game =
                            play_game(config, net, index, &mut searcher, &tt, finished, stop);
                        if let Some(game) = game {
                            if tx.send((index, game)).is_err() {
                                break;
                            }
                        }
                    }
                })
                .expect("datagen thread");
        }
        drop(tx);
        // Games are written in index order: ones that finish early wait here for those before them.
        let mut pending: BTreeMap<u64, FinishedGame> = BTreeMap::new();
        let mut last_status = Instant::now();
        loop {
            let received = rx.recv_timeout(Duration::from_millis(500));
            let disconnected = matches!(
                received,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected)
            );
            if let Ok((index, game)) = received {
                pending.insert(index, game);
            }
            while let Some(game) = pending.remove(&progress.games) {
                let bytes = &game.bytes;
                if let Err(e) = file.write_all(bytes).and_then(|_| file.flush()) {
                    result = Err(format!("cannot write {}: {e}", config.out.display()));
                    finished.store(true, Ordering::Relaxed);
                    break;
                }
                progress.games += 1;
                progress.positions += game.positions;
                progress.bytes += bytes.len() as u64;
                match game.winner {
                    Some(Color::White) => progress.white_wins += 1,
                    Some(Color::Black) => progress.black_wins += 1,
                    None => progress.draws += 1,
                }
                if let Err(e) = save_progress(&config.out, &progress) {
                    result = Err(e);
                    finished.store(true, Ordering::Relaxed);
                    break;
                }
                if done(&progress) {
                    finished.store(true, Ordering::Relaxed);
                    break;
                }
            }
            let over = finished.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed);
            if shown {
                let secs = start.elapsed().as_secs_f64().max(1e-3);
                let rate = (progress.positions - start_positions) as f64 / secs;
                show_on_bar(bar, &progress, counts_games, rate);
            } else if over || last_status.elapsed() >= Duration::from_secs(30) {
                last_status = Instant::now();
                let secs = start.elapsed().as_secs_f64().max(1e-3);
                let rate = (progress.positions - start_positions) as f64 / secs;
                let line = format!(
                    "games {}  positions {}  {:.0} pos/s  W/D/L {}/{}/{}  {:.0} s",
                    progress.games,
                    progress.positions,
                    rate,
                    progress.white_wins,
                    progress.draws,
                    progress.black_wins,
                    secs
                );
                status(&format!("{line}\n"));
            }
            if over || disconnected {
                break;
            }
        }
        finished.store(true, Ordering::Relaxed);
    });
    result.map(|_| progress)
}

/// The totals on the bar: the count it was made for (games or positions), then the other count, the rate
/// (positions a second) and White's wins, draws and losses.
fn show_on_bar(bar: &ProgressBar, p: &Progress, counts_games: bool, rate: f64) {
    let (count, other) = if counts_games {
        (p.games, format!("positions {}", p.positions))
    } else {
        (p.positions, format!("games {}", p.games))
    };
    bar.set_position(count);
    bar.set_message(format!(
        "{other}  {rate:.0} pos/s  W/D/L {}/{}/{}",
        p.white_wins, p.draws, p.black_wins
    ));
}

/// The back rank of Chess960 start position number `n` (0..960), in the standard numbering: the bishops'
/// squares from `n`'s first two base-4 digits, the queen from the next base-6 digit, the knights from the
/// remaining 0..10, and rook, king, rook on the three squares left.
pub fn chess960_back_rank(n: u32) -> [PieceType; 8] {
    let mut rank: [Option<PieceType>; 8] = [None; 8];
    let n = n % 960;
    let (n, light) = (n / 4, n % 4);
    rank[(light * 2 + 1) as usize] = Some(PieceType::Bishop);
    let (n, dark) = (n / 4, n % 4);
    rank[(dark * 2) as usize] = Some(PieceType::Bishop);
    let (n, queen) = (n / 6, n % 6);
    let place = |rank: &mut [Option<PieceType>; 8], nth_free: u32, piece: PieceType| {
        let sq = (0..8).filter(|&i| rank[i].is_none()).nth(nth_free as usize);
        if let Some(sq) = sq {
            rank[sq] = Some(piece);
        }
    };
    place(&mut rank, queen, PieceType::Queen);
    // The ten ways to put two knights on five free squares, in order.
    const KNIGHTS: [(u32, u32); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n as usize];
    // The second knight first, so that the first one's index among the free squares stays right.
    place(&mut rank, b, PieceType::Knight);
    place(&mut rank, a, PieceType::Knight);
    for piece in [PieceType::Rook, PieceType::King, PieceType::Rook] {
        place(&mut rank, 0, piece);
    }
    rank.map(|p| p.unwrap_or(PieceType::Pawn))
}

/// The FEN of a start position with White's back rank `white` and Black's `black` (Shredder-FEN castling).
pub fn start_fen(white: &[PieceType; 8], black: &[PieceType; 8]) -> String {
    let row = |r: &[PieceType; 8], upper: bool| -> String {
        r.iter()
            .map(|p| {
                let c = p.letter();
                if upper {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect()
    };
    let rook_files = |r: &[PieceType; 8], upper: bool| -> String {
        (0..8)
            .rev()
            .filter(|&f| r[f] == PieceType::Rook)
            .map(|f| {
                let c = (b'a' + f as u8) as char;
                if upper {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect()
    };
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{} - 0 1",
        row(black, false),
        row(white, true),
        rook_files(white, true),
        rook_files(black, false)
    )
}

/// The start position of game `rng`'s kind.
fn start_position(starts: Starts, rng: &mut Rng) -> Position {
    let fen = match starts {
        Starts::Standard => return Position::startpos(),
        Starts::Chess960 => {
            let r = chess960_back_rank(rng.below_mod(960) as u32);
            start_fen(&r, &r)
        }
        Starts::Dfrc => start_fen(
            &chess960_back_rank(rng.below_mod(960) as u32),
            &chess960_back_rank(rng.below_mod(960) as u32),
        ),
    };
    Position::from_fen(&fen, true).unwrap_or_else(|_| Position::startpos())
}

/// `plies` random legal plies, none of them ending the game, from a start of kind `starts` (see
/// [`random_opening`]).
pub fn chess_opening(starts: Starts, plies: u32, rng: &mut Rng) -> RandomLine<Chess> {
    random_opening::<Chess>(|rng| start_position(starts, rng), plies as usize, rng)
}

/// The best move and the score (side to move's view) of one search of `game` with a soft budget of
/// `nodes` (and a hard one of twenty times that); `None` when stopped or when there is no move.
pub(crate) fn search(
    game: &ChessGame,
    nodes: u64,
    searcher: &mut Searcher<ChessGame>,
    tt: &TranspositionTable,
    stop: &AtomicBool,
) -> Option<(Move, Score)> {
    let limits = Limits {
        soft_nodes: Some(nodes),
        // A safety net for an iteration that explodes; it never binds in normal positions.
        nodes: Some(nodes.saturating_mul(20)),
        ..Limits::default()
    };
    let opts = SearchOptions {
        threads: 1,
        multipv: 1,
        ..SearchOptions::default()
    };
    let control = Control::default();
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let last = std::sync::Mutex::new(None);
    let report = |e: Event| {
        if let Event::Info(info) = e {
            if info.multipv == 1 {
                if let Ok(mut l) = last.lock() {
                    *l = Some(info.score);
                }
            }
        }
    };
    let out = searcher.run(game, &limits, &[], &opts, tt, &control, &report);
    let score = last.into_inner().ok().flatten()?;
    let mv = out.best?;
    Some((mv, score))
}

/// A score as centipawns for adjudication (mates far beyond any cp value).
fn score_cp(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 100_000,
        Score::Mate(_) => -100_000,
    }
}

/// The start kind and the number of random plies of game `rng`: `--dfrc-percent` of the games start from a
/// double-Chess960 position, and half of them play one ply more (so either side is to move after them).
fn opening_shape(config: &Config, rng: &mut Rng) -> (Starts, u32) {
    let starts = if (rng.below_mod(100) as u32) < config.dfrc_percent {
        Starts::Dfrc
    } else {
        config.starts
    };
    (starts, config.random_plies + (rng.next_u64() & 1) as u32)
}

/// Plays game `index` and returns it; `None` when stopped before its end.
#[allow(clippy::too_many_arguments)]
fn play_game(
    config: &Config,
    net: &Net,
    index: u64,
    searcher: &mut Searcher<ChessGame>,
    tt: &TranspositionTable,
    finished: &AtomicBool,
    stop: &AtomicBool,
) -> Option<FinishedGame> {
    let mut rng = Rng::new(config.seed ^ index.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03));
    tt.clear();
    searcher.clear();
    // A random opening that one side already wins clearly teaches little: draw another (a few times).
    let (starts, plies) = opening_shape(config, &mut rng);
    let mut opening = chess_opening(starts, plies, &mut rng).positions;
    for _ in 0..10 {
        let game = game_from(&opening, net);
        let (_, score) = search(&game, config.nodes * 2, searcher, tt, stop)?;
        if score_cp(score).abs() <= MAX_OPENING_SCORE {
            break;
        }
        opening = chess_opening(starts, plies, &mut rng).positions;
    }
    tt.clear();
    searcher.clear();

    let mut history: Vec<Position> = opening.clone();
    let mut game = game_from(&opening, net);
    // A start the format cannot hold (none is known) is skipped, not a stop.
    let mut record = format::GameRecord::new(game.position()).ok()?;
    let (mut win_streak, mut draw_streak) = (0u32, 0u32);
    let mut last_sign = 0;
    let winner: Option<Color> = loop {
        if finished.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
            return None;
        }
        let pos = *game.position();
        if let Some(Outcome { winner, .. }) = automatic_ending(&pos, &history[..history.len() - 1])
        {
            break winner;
        }
        if history.len() > MAX_PLIES {
            break None;
        }
        let (mv, score) = search(&game, config.nodes, searcher, tt, stop)?;
        let cp = score_cp(score);
        let white = pos.side_to_move() == Color::White;
        let white_cp = if white { cp } else { -cp };
        record.push(
            &pos,
            mv,
            matches!(score, Score::Cp(_)).then_some(white_cp),
            white_cp.signum(),
        );
        // Adjudication.
        let sign = white_cp.signum();
        if white_cp.abs() >= WIN_SCORE {
            win_streak = if sign == last_sign { win_streak + 1 } else { 1 };
        } else {
            win_streak = 0;
        }
        last_sign = sign;
        if win_streak >= WIN_PLIES {
            break Some(if sign > 0 { Color::White } else { Color::Black });
        }
        draw_streak = if white_cp.abs() <= DRAW_SCORE {
            draw_streak + 1
        } else {
            0
        };
        if history.len() > DRAW_FROM_PLY && draw_streak >= DRAW_PLIES {
            break None;
        }
        game.play(mv);
        history.push(*game.position());
    };
    let positions = record.trainable();
    Some(FinishedGame {
        bytes: record.finish(winner),
        positions,
        winner,
    })
}

/// The search game for the last position of `line`, with the line as history for repetitions.
fn game_from(line: &[Position], net: &Net) -> ChessGame {
    let new = |pos: Position| ChessGame::with_eval(pos, NnueEval::new(net.clone()));
    let mut game = new(line[0]);
    for w in line.windows(2) {
        // The moves of the line are found again from the positions: the line is short.
        let m = w[0].legal_moves().as_slice().iter().copied().find(|&m| {
            let mut p = w[0];
            p.make_move(m);
            p.key() == w[1].key()
        });
        match m {
            Some(m) => game.play(m),
            None => return new(line[line.len() - 1]),
        }
    }
    game
}

/// The position a training record describes, as (colour, piece, square) in absolute terms for the side to
/// move `stm`: used by tests to compare a record with the position it came from.
pub fn record_pieces(record: &ChessBoard, stm: Color) -> Vec<(Color, PieceType, Square)> {
    record
        .into_iter()
        .map(|(piece, sq)| {
            let theirs = piece & 8 != 0;
            let kind = PieceType::from_index((piece & 7) as usize);
            let color = if theirs { stm.flip() } else { stm };
            let sq = if stm == Color::Black { sq ^ 56 } else { sq };
            (color, kind, Square(sq))
        })
        .collect()
}

#[cfg(test)]
mod tests;
