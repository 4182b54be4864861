//! The `corvid` binary: the command line is read by `cli.rs`; with no verb, the protocol loop, otherwise the verb's tool.

mod cli;

use cli::{PerftArgs, Verb};
use corvid::for_game;
use corvid::game::Variant;
use corvid::tools::perft;
use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let cli = match cli::parse(std::env::args_os()) {
        Ok(c) => c,
        // `--help` and `--version` come this way too, on stdout with status 0; bad usage gets status 1 (2 is
        // `match`'s status for a forfeit).
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.verb {
        None => {
            protocol_loop();
            ExitCode::SUCCESS
        }
        Some(Verb::Bench(a)) => {
            print!(
                "{}",
                corvid::tools::bench::run_kind(a.variant, a.depth).text
            );
            ExitCode::SUCCESS
        }
        Some(Verb::Perft(a)) => run_perft(&a, false),
        Some(Verb::Divide(a)) => run_perft(&a, true),
        Some(Verb::Play(a)) => run_play(a.config()),
        Some(Verb::Match(a)) => match a.config() {
            Ok(config) => run_match(&config),
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Verb::Datagen(config)) => corvid::tools::datagen::main(&config),
        Some(Verb::Genfens(a)) => run_genfens(&a.words),
        Some(Verb::Referee(a)) => {
            let text = std::fs::read_to_string(&a.pgn)
                .map_err(|e| format!("{}: {e}", a.pgn.display()))
                .and_then(|t| cli::referee(&t, a.variant));
            match text {
                Ok(line) => {
                    println!("{line}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("referee: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// `genfens` (OpenBench's opening generation): prints `info string genfens <FEN>` lines, or one
/// `info string error: ...` line (OpenBench reads stdout).
fn run_genfens(words: &[String]) -> ExitCode {
    use corvid::tools::genfens;
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let result = genfens::parse(&words).and_then(|r| genfens::run(&r, &mut std::io::stdout()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("info string error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The protocol loop on stdin/stdout. The first command chooses the protocol: `xboard` starts CECP (the
/// line is consumed: it only announces the protocol), anything else is UCI (and the line is its first command).
fn protocol_loop() {
    let mut input = BufReader::new(std::io::stdin());
    let mut first = Vec::new();
    // Blank lines before the first command choose nothing.
    loop {
        first.clear();
        match input.read_until(b'\n', &mut first) {
            Ok(0) | Err(_) => return,
            Ok(_) if String::from_utf8_lossy(&first).trim().is_empty() => {}
            Ok(_) => break,
        }
    }
    if String::from_utf8_lossy(&first).trim() == "xboard" {
        corvid::xboard::run(input, std::io::stdout());
        return;
    }
    // The first line goes back in front of the rest of the input.
    let input = BufReader::new(Cursor::new(first).chain(input));
    corvid::uci::run(input, std::io::stdout());
}

fn run_play(config: corvid::play::PlayConfig) -> ExitCode {
    use std::io::IsTerminal;
    let tty_out = std::io::stdout().is_terminal();
    let tty_in = std::io::stdin().is_terminal();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    let console = corvid::play::Console {
        input: stdin,
        output: &mut stdout,
        tty_out,
        tty_in,
    };
    match corvid::play::run(config, console) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = stdout.flush();
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run_match(config: &corvid::tools::arena::MatchConfig) -> ExitCode {
    let mut stdout = std::io::stdout();
    let bar = corvid::tools::progress::bar("match", Some(config.games as u64));
    let result = corvid::tools::arena::run(config, &mut stdout, &bar);
    bar.finish_and_clear();
    match result {
        // A forfeit is what a match exists to catch: scripts see it in the exit status.
        Ok(tally) if tally.total_forfeits() > 0 => ExitCode::from(2),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run_perft(args: &PerftArgs, divide: bool) -> ExitCode {
    let (depth, chess960, threads) = (args.depth, args.chess960, args.threads as usize);
    let fen = args.fen.join(" ");
    let progress = Some(Duration::from_millis(1500));
    for_game!(args.variant, V => {
        let pos = if fen.trim().is_empty() {
            Ok(V::start_position(chess960))
        } else {
            V::from_fen(&fen, chess960)
        };
        match pos {
            Ok(p) => {
                let result = perft::perft_divide::<V>(&p, depth, threads, progress);
                print!("{}", perft::format_report(&result, divide));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("invalid FEN: {e}");
                ExitCode::FAILURE
            }
        }
    })
}
