//! The `corvid` command line: with no argument, the protocol loop; otherwise a tool verb.

use corvid::for_game;
use corvid::game::{GameKind, Variant};
use corvid::tools::perft;
use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "\
usage:
  corvid                              the protocol loop (stdin/stdout): UCI, or CECP (xboard) when the first
                                      command is `xboard`
  corvid play [options]               play a game against Corvid in the terminal (chess or Makromachy)
  corvid bench [<depth>] [--variant V] search the fixed bench positions; last line `<nodes> nodes <nps> nps`
  corvid perft <depth> [<fen>...]     count leaf nodes (bulk-counted last ply)
  corvid divide <depth> [<fen>...]    the same, per root move
  corvid match [options]              play games between two UCI engines (chess or Makromachy); `corvid match
                                      --help` for the options
  corvid datagen [options]            self-play games for NNUE training data; `corvid datagen --help`
options for perft/divide:
  --threads N     worker threads (default 1)
  --chess960      write castling as king-takes-rook (Shredder-FEN/X-FEN fields switch it on by themselves)
  --variant V     chess (default) or makromachy
The FEN may be one quoted argument or the remaining arguments; without one, the start position.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            protocol_loop();
            ExitCode::SUCCESS
        }
        Some("bench") => run_bench(&args[1..]),
        Some(verb @ ("perft" | "divide")) => run_perft(&args[1..], verb == "divide"),
        Some("play") => run_play(&args[1..]),
        Some("match") => run_match(&args[1..]),
        Some("datagen") => corvid::tools::datagen::main(&args[1..]),
        // OpenBench: `corvid "genfens N seed S book <file|None>" quit`; also `corvid genfens N seed S ...`.
        Some(first) if first == "genfens" || first.starts_with("genfens ") => run_genfens(&args),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}\n{}", corvid::play::PLAY_USAGE);
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown command '{other}'\n{USAGE}");
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

/// `--variant`'s value (None, reported, for an unknown or missing name).
fn parse_variant(value: Option<&String>) -> Option<GameKind> {
    match value.map(|v| v.parse::<GameKind>()) {
        Some(Ok(kind)) => Some(kind),
        Some(Err(e)) => {
            eprintln!("{e}");
            None
        }
        None => {
            eprintln!("--variant needs a name (chess or makromachy)");
            None
        }
    }
}

fn run_play(args: &[String]) -> ExitCode {
    use std::io::IsTerminal;
    let config = match corvid::play::parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}\n{}", corvid::play::PLAY_USAGE);
            return ExitCode::FAILURE;
        }
    };
    let tty_out = std::io::stdout().is_terminal();
    let tty_in = std::io::stdin().is_terminal();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    match corvid::play::run(config, stdin, &mut stdout, tty_out, tty_in) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = stdout.flush();
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run_match(args: &[String]) -> ExitCode {
    use corvid::tools::arena;
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", arena::MATCH_USAGE);
        return ExitCode::SUCCESS;
    }
    let config = match arena::parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}\n{}", arena::MATCH_USAGE);
            return ExitCode::FAILURE;
        }
    };
    let mut stdout = std::io::stdout();
    match arena::run(&config, &mut stdout) {
        // A forfeit is what a match exists to catch: scripts see it in the exit status.
        Ok(tally) if tally.total_forfeits() > 0 => ExitCode::from(2),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run_genfens(args: &[String]) -> ExitCode {
    use corvid::tools::genfens;
    // In the one-string form the later arguments are UCI commands (`quit`), which need no answer.
    let words: Vec<&str> = if args[0] == "genfens" {
        args.iter().map(String::as_str).collect()
    } else {
        args[0].split_whitespace().collect()
    };
    let result = genfens::parse(&words).and_then(|r| genfens::run(&r, &mut std::io::stdout()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("info string error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_bench(args: &[String]) -> ExitCode {
    let mut depth = None;
    let mut kind = GameKind::Chess;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--variant" => match parse_variant(it.next()) {
                Some(v) => kind = v,
                None => return ExitCode::FAILURE,
            },
            d => match d.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => depth = Some(d),
                _ => {
                    eprintln!("bench depth must be a number from 1 to 64\n{USAGE}");
                    return ExitCode::FAILURE;
                }
            },
        }
    }
    let result = corvid::tools::bench::run_kind(kind, depth);
    print!("{}", result.text);
    ExitCode::SUCCESS
}

fn run_perft(args: &[String], divide: bool) -> ExitCode {
    let mut threads = 1usize;
    let mut chess960 = false;
    let mut kind = GameKind::Chess;
    let mut rest: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--threads" | "-t" => match it.next().and_then(|v| v.parse::<usize>().ok()) {
                Some(n) if (1..=512).contains(&n) => threads = n,
                _ => {
                    eprintln!("--threads needs a number from 1 to 512");
                    return ExitCode::FAILURE;
                }
            },
            "--chess960" => chess960 = true,
            "--variant" => match parse_variant(it.next()) {
                Some(v) => kind = v,
                None => return ExitCode::FAILURE,
            },
            _ => rest.push(a),
        }
    }
    let Some(depth) = rest
        .first()
        .and_then(|d| d.parse::<u32>().ok())
        .filter(|&d| d <= 20)
    else {
        eprintln!("perft needs a depth from 0 to 20\n{USAGE}");
        return ExitCode::FAILURE;
    };
    let fen = rest[1..].join(" ");
    let progress = Some(Duration::from_millis(1500));
    for_game!(kind, V => {
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
