//! `corvid match`: plays games between two UCI engines, orthodox chess or Makromachy.
//!
//! The published match runners (cutechess, fastchess, python-chess and so `match.py`) know only the 8x8 games, so
//! Makromachy matches need their own referee. This one keeps both clocks itself (wall time from sending `go` to
//! reading `bestmove`, the increment added after the move), ends games only by the rules (`crate::rules` for
//! chess and Makromachy alike) or by a forfeit — time, an illegal or unreadable move, a
//! crash, a hang — and says which. Openings are random legal plies from the start position, each played twice
//! with the colours swapped.
//!
//! Engines are kept per worker thread for many games (`ucinewgame` + `isready` between them), as a GUI does; an
//! engine that forfeits is killed and started afresh for the next game, since its state is then unknown.
//!
//! Files: [`config`] (settings and the parsers of their values; the options are declared in `cli.rs`),
//! [`referee`] (one game), [`process`] (an engine as a child process), [`report`] (tally, Elo, PGN, summary);
//! [`run`] is the thread pool that plays the match.

pub mod config;
pub mod forfeit;
pub mod process;
pub mod referee;
pub mod report;
#[cfg(test)]
mod tests;

pub use self::config::{split_command, EngineSpec, Limit, MatchConfig};
pub use self::forfeit::Forfeit;
pub use self::referee::{
    allowed_time, hang_after, random_openings, Clock, Ending, GameRecord, Verdict,
};
pub use self::report::{elo, summary, Tally};

use self::process::*;
use self::referee::*;
use self::report::*;
use indicatif::ProgressBar;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self};

/// Runs the match, printing a line per game and the summary to `out`, and counting the games on `bar` (see
/// [`crate::tools::progress::bar`]; a hidden one shows nothing). Returns the tally.
pub fn run(config: &MatchConfig, out: &mut dyn Write, bar: &ProgressBar) -> Result<Tally, String> {
    // Names first, from a trial start of each engine: it also fails early on a command that cannot work.
    let mut names: [String; 2] = [String::new(), String::new()];
    for e in 0..2 {
        let spec = &config.engines[e];
        names[e] = match &spec.name {
            Some(n) => n.clone(),
            None => {
                let engine = EngineProcess::start(spec, config.variant).map_err(|f| {
                    format!(
                        "engine {} ({}) cannot play: {}",
                        ["A", "B"][e],
                        spec.command.join(" "),
                        f.detail
                    )
                })?;
                let name = engine.id_name.clone();
                engine.quit();
                name.unwrap_or_else(|| spec.command[0].clone())
            }
        };
    }
    if names[0] == names[1] {
        names[0].push_str(" A");
        names[1].push_str(" B");
    }
    let pairs = config.games.div_ceil(2);
    let openings = random_openings(config.variant, config.opening_plies, pairs, config.seed);
    let mut pgn = match &config.pgn {
        Some(path) => {
            Some(std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?)
        }
        None => None,
    };
    bar.suspend(|| {
        let _ = writeln!(
            out,
            "{} games of {}, concurrency {}, A: {}, B: {}, openings: {} random plies (seed {})",
            config.games,
            config.variant.name(),
            config.concurrency,
            config.engines[0].limit,
            config.engines[1].limit,
            config.opening_plies,
            config.seed
        );
        let _ = out.flush();
    });
    bar.set_message("games");
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<GameRecord>();
    let mut tally = Tally::default();
    let mut games = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(config.games) {
            let tx = tx.clone();
            let (next, openings) = (&next, &openings);
            scope.spawn(move || {
                let mut engines: [Option<EngineProcess>; 2] = [None, None];
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= config.games {
                        break;
                    }
                    let setup = GameSetup {
                        config,
                        index,
                        opening: openings.get(index / 2).map_or(&[][..], |o| &o[..]),
                    };
                    let record = play_game(&setup, &mut engines);
                    if tx.send(record).is_err() {
                        break;
                    }
                }
                for engine in engines.into_iter().flatten() {
                    engine.quit();
                }
            });
        }
        drop(tx);
        for record in rx {
            tally.add(&record);
            let (w, b) = if record.a_white {
                (&names[0], &names[1])
            } else {
                (&names[1], &names[0])
            };
            // The bar (on stderr) steps aside while the line goes to stdout, which may be the same terminal.
            bar.suspend(|| {
                let _ = writeln!(
                    out,
                    "[{}/{}] #{} {w} vs {b}: {} ({}) plies={} time={:.1}s | A: +{} ={} -{}",
                    tally.games(),
                    config.games,
                    record.index + 1,
                    record.result_str(),
                    record.reason(&names),
                    record.moves.len(),
                    record.duration.as_secs_f64(),
                    tally.wins,
                    tally.draws,
                    tally.losses
                );
                let _ = out.flush();
            });
            bar.set_position(u64::from(tally.games()));
            bar.set_message(format!(
                "games  A: +{} ={} -{}  score {:.1}%",
                tally.wins,
                tally.draws,
                tally.losses,
                100.0 * tally.score()
            ));
            if let Some(file) = pgn.as_mut() {
                let _ = file.write_all(pgn_text(config, &names, &record).as_bytes());
            }
            games.push(record);
        }
    });
    bar.finish_and_clear();
    let _ = write!(out, "\n{}", summary(config, &names, &tally, &games));
    if let Some(path) = &config.pgn {
        let _ = writeln!(out, "PGN: {path}");
    }
    let _ = out.flush();
    Ok(tally)
}
