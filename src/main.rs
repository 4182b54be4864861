//! The `corvid` command line: with no argument, the protocol loop; otherwise a tool verb.

use clap::{Args, Parser, Subcommand};
use corvid::for_game;
use corvid::game::{GameKind, Variant};
use corvid::tools::perft;
use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::process::ExitCode;
use std::time::Duration;

/// The verbs and their options (clap derive: one `--help` each, typed errors).
#[derive(Parser, Debug)]
#[command(
    name = "corvid",
    version,
    about = "Corvid: a chess engine (orthodox chess, Chess960, Makromachy)",
    long_about = "Without a verb: the protocol loop on stdin/stdout, UCI, or CECP (xboard) when the first \
                  command is `xboard`.",
    after_help = corvid::play::PLAY_USAGE
)]
struct Cli {
    #[command(subcommand)]
    verb: Option<Verb>,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// Search the fixed bench positions; last line `<nodes> nodes <nps> nps`.
    Bench {
        /// Depth per position (default: the game's bench depth).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// The game: chess or makromachy.
        #[arg(long, default_value = "chess")]
        variant: GameKind,
    },
    /// Count the leaf nodes of the legal move tree (bulk-counted last ply).
    Perft(PerftArgs),
    /// The same, per root move.
    Divide(PerftArgs),
    /// Play a game against Corvid in the terminal (chess or Makromachy); see `corvid --help` for its options.
    #[command(disable_help_flag = true)]
    Play {
        /// The options of `corvid play`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Play games between two UCI engines (chess or Makromachy); `corvid match --help` for the options.
    #[command(disable_help_flag = true)]
    Match {
        /// The options of `corvid match`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Self-play games for NNUE training data (`corvid datagen --help` for its options).
    #[command(disable_help_flag = true)]
    Datagen {
        /// The options of `corvid datagen`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// The options of `perft` and `divide`.
#[derive(Args, Debug)]
struct PerftArgs {
    /// Plies to count.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// The position (one quoted argument or the remaining words); without one, the start position.
    #[arg(allow_hyphen_values = true)]
    fen: Vec<String>,
    /// Worker threads.
    #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=512))]
    threads: u64,
    /// Write castling as king-takes-rook (Shredder-FEN/X-FEN fields switch it on by themselves).
    #[arg(long)]
    chess960: bool,
    /// The game: chess or makromachy.
    #[arg(long, default_value = "chess")]
    variant: GameKind,
}

fn main() -> ExitCode {
    // OpenBench: `corvid "genfens N seed S book <file|None>" quit` (one argument with spaces, then UCI
    // commands); also `corvid genfens N seed S book ...`. Not a clap verb: its words are UCI's.
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw
        .first()
        .is_some_and(|a| a == "genfens" || a.starts_with("genfens "))
    {
        return run_genfens(&raw);
    }
    let cli = Cli::parse();
    match cli.verb {
        None => {
            protocol_loop();
            ExitCode::SUCCESS
        }
        Some(Verb::Bench { depth, variant }) => {
            print!("{}", corvid::tools::bench::run_kind(variant, depth).text);
            ExitCode::SUCCESS
        }
        Some(Verb::Perft(a)) => run_perft(&a, false),
        Some(Verb::Divide(a)) => run_perft(&a, true),
        Some(Verb::Play { args }) => run_play(&args),
        Some(Verb::Match { args }) => run_match(&args),
        Some(Verb::Datagen { args }) => corvid::tools::datagen::main(&args),
    }
}

/// `genfens` (OpenBench's opening generation): prints `info string genfens <FEN>` lines.
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
    let bar = corvid::tools::progress::bar("match", Some(config.games as u64));
    let result = arena::run(&config, &mut stdout, &bar);
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
