//! The `corvid` command line: every verb with its options, declared once here (clap derive), so each has
//! `--help`, typed values and one error format; `main.rs` runs what is parsed. The tools' settings are the
//! library's (`PlayConfig`, `MatchConfig`, datagen's `Config`, which is itself the clap declaration).
//!
//! One form is not clap's own: OpenBench runs `corvid "genfens N seed S book <file|None> [dfrc]" quit`, a
//! single argument with spaces followed by UCI commands. [`parse`] splits that argument into words and drops
//! the commands after it (`quit` needs no answer), so it is read as `corvid genfens N seed S book ...`.

use clap::builder::RangedU64ValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use corvid::engine::{ELO_MAX, ELO_MIN};
use corvid::play::{BoardStyle, PlayConfig, Policy};
use corvid::tools::arena::{split_command, EngineSpec, Limit, MatchConfig};
use corvid::types::Color;
use corvid::variants::GameKind;
use std::ffi::OsString;
use std::time::Duration;

/// What Corvid is, with the games the registry lists.
fn about() -> String {
    format!("Corvid: a chess engine ({})", GameKind::titles())
}

/// The help of a `--variant` option: `what` and the games' names.
fn variant_help(what: &str) -> String {
    format!("{what}: {}", GameKind::names())
}

/// The verbs and their options.
#[derive(Parser, Debug)]
#[command(
    name = "corvid",
    version,
    about = about(),
    long_about = format!("{}.\n\nWithout a verb: the protocol loop on stdin/stdout, UCI, or CECP (xboard) \
                          when the first command is `xboard`.", about()),
    after_help = "Each verb lists its options with `corvid VERB --help`. Bad usage exits with status 1.\n\
                  OpenBench's form `corvid \"genfens N seed S book <file|None> [dfrc]\" quit` is read as \
                  `corvid genfens N seed S book ...`."
)]
pub struct Cli {
    #[command(subcommand)]
    pub verb: Option<Verb>,
}

#[derive(Subcommand, Debug)]
pub enum Verb {
    /// Search the fixed bench positions; last line `<nodes> nodes <nps> nps`.
    Bench(BenchArgs),
    /// Count the leaf nodes of the legal move tree (bulk-counted last ply); last line `Nodes searched: N`.
    Perft(PerftArgs),
    /// The same, per root move (like Stockfish's `go perft`).
    Divide(PerftArgs),
    /// Play a game against Corvid in the terminal, any of its games (--variant).
    Play(PlayArgs),
    /// Play games between two UCI engines, any of Corvid's games (--variant), refereed by Corvid.
    Match(MatchArgs),
    /// Self-play games for NNUE training data (whole games in viriformat, appended to --out).
    Datagen(corvid::tools::datagen::Config),
    /// Openings for OpenBench's data generation: N lines `info string genfens <FEN>`.
    ///
    /// Without a book, 8 random plies from the start (a double-Chess960 start with `dfrc`); with a book
    /// (FEN/EPD lines), 2 random plies from a random line of it. Each is kept when a 2,000-node search scores
    /// it within ±2.5 pawns; the same seed gives the same lines. The words are those of the UCI command
    /// `genfens`; OpenBench passes them as one argument, followed by UCI commands that are ignored. An error
    /// is printed as `info string error: ...` (on stdout, where OpenBench reads) with status 1.
    Genfens(GenfensArgs),
    /// Replay one game's moves (a PGN file) by the rules and print how it stands: `1-0 {White mates}`, or
    /// `* {N plies, not over}`. Moves in the rules' notation (as CECP reads them); the game from the
    /// `Variant` tag unless `--variant` says, the start from a `FEN` tag.
    Referee(RefereeArgs),
}

/// The options of `referee`.
#[derive(Args, Debug)]
pub struct RefereeArgs {
    /// The PGN file of one game.
    pub pgn: std::path::PathBuf,
    // The help comes from the registry, which knows the games.
    #[arg(long, help = variant_help("The game, whatever the PGN's `Variant` tag says"))]
    pub variant: Option<GameKind>,
}

/// `referee`: the PGN `text` replayed by the rules; the result line, or why a move or the start is refused.
pub fn referee(text: &str, variant: Option<GameKind>) -> Result<String, String> {
    let mut tags = std::collections::HashMap::new();
    let mut movetext = String::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(tag) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            if let Some((key, value)) = tag.split_once(' ') {
                tags.insert(
                    key.to_ascii_lowercase(),
                    value.trim().trim_matches('"').to_string(),
                );
            }
        } else if !t.starts_with('%') {
            movetext.push_str(line.split(';').next().unwrap_or(""));
            movetext.push(' ');
        }
    }
    // Each game reads the tag itself; a tag no game claims is the default game's.
    let (named, chess960) = tags
        .get("variant")
        .map_or((None, false), |v| GameKind::from_pgn_variant(v));
    let kind = variant.or(named).unwrap_or(GameKind::DEFAULT);
    let moves = movetext_moves(&movetext);
    let fen = tags.get("fen").cloned();
    corvid::for_game!(kind, V => replay::<V>(fen.as_deref(), chess960, &moves))
}

/// The move texts of PGN movetext: comments, move numbers, NAGs, annotations and the result left out.
fn movetext_moves(text: &str) -> Vec<String> {
    // Comments do not nest (anything in them is text); variations do.
    let mut plain = String::new();
    let (mut comment, mut variation) = (false, 0usize);
    for c in text.chars() {
        match c {
            _ if comment => comment = c != '}',
            '{' => comment = true,
            '(' => variation += 1,
            ')' => variation = variation.saturating_sub(1),
            _ if variation == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split_whitespace()
        // `12.e4` and `12...e5` as well as `12.` alone.
        .map(|t| t.rsplit('.').next().unwrap_or(""))
        .map(|t| t.trim_end_matches(['+', '#', '!', '?']))
        .filter(|t| !t.is_empty() && !t.starts_with('$'))
        .filter(|t| !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .map(str::to_string)
        .collect()
}

/// `moves` played by the rules of `V` from `fen` (the start position without one).
fn replay<V: corvid::variants::Registered + corvid::game::Cecp>(
    fen: Option<&str>,
    chess960: bool,
    moves: &[String],
) -> Result<String, String> {
    let start = match fen {
        Some(f) => V::from_fen(f, chess960).map_err(|e| format!("FEN {f}: {e}"))?,
        None => V::start_position(chess960),
    };
    let mut record = corvid::rules::Record::<V>::new(start);
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        if let Some(o) = record.outcome() {
            return Err(format!(
                "ply {ply} ({text}): the game ended before it ({} {{{}}})",
                o.result_str(),
                o.description()
            ));
        }
        let m = V::read_gui_move(record.position(), &V::gui_text(text))
            .ok_or_else(|| format!("ply {ply} ({text}): not a legal move"))?;
        record
            .play(m)
            .map_err(|e| format!("ply {ply} ({text}): {e}"))?;
    }
    Ok(match record.outcome() {
        Some(o) => format!("{} {{{}}}", o.result_str(), o.description()),
        None => format!("* {{{} plies, not over}}", moves.len()),
    })
}

/// The options of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth per position (default: the game's bench depth).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    #[arg(long, default_value_t = GameKind::DEFAULT, help = variant_help("The game"))]
    pub variant: GameKind,
}

/// The options of `perft` and `divide`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies to count.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    pub depth: u32,
    /// The position (one quoted argument or the remaining words); without one, the start position.
    // FEN fields such as `-` look like options.
    #[arg(allow_hyphen_values = true)]
    pub fen: Vec<String>,
    /// Worker threads.
    #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=512))]
    pub threads: u64,
    /// Write castling as king-takes-rook (Shredder-FEN/X-FEN fields switch it on by themselves).
    #[arg(long)]
    pub chess960: bool,
    #[arg(long, default_value_t = GameKind::DEFAULT, help = variant_help("The game"))]
    pub variant: GameKind,
}

/// The person's colour in `corvid play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    #[value(alias = "w")]
    White,
    #[value(alias = "b")]
    Black,
    // No doc comment here: one would turn the compact `[possible values: ...]` into a list.
    Random,
}

/// Which game `corvid play` plays; it also takes the games' other names, in any case.
fn play_variant(text: &str) -> Result<GameKind, String> {
    GameKind::from_alias(text).ok_or_else(|| format!("--variant needs {}", GameKind::names()))
}

/// The options of `play`. A later occurrence of an option replaces an earlier one.
#[derive(Args, Debug)]
#[command(args_override_self = true)]
pub struct PlayArgs {
    /// Your colour (default: drawn at random, by --seed).
    #[arg(long, visible_alias = "colour", value_enum, ignore_case = true)]
    pub color: Option<Side>,
    /// Seed of the colour draw (reproducible; default: from the clock).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Corvid's strength on the UCI_Elo scale (the UCI_LimitStrength mechanism).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(ELO_MIN..=ELO_MAX))]
    pub elo: Option<u32>,
    /// Corvid's thinking time per move.
    #[arg(long, value_name = "MS", default_value_t = PlayConfig::default().movetime_ms,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: u64,
    #[arg(long, value_name = "NAME", default_value_t = GameKind::DEFAULT, value_parser = play_variant,
          help = GameKind::play_help())]
    pub variant: GameKind,
    /// Start from this position (one quoted argument).
    #[arg(long)]
    pub fen: Option<String>,
    /// Save the finished game there.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<String>,
    /// Plain letters, no colour (the default when not a terminal or NO_COLOR is set).
    #[arg(long, overrides_with = "unicode")]
    pub ascii: bool,
    /// Unicode pieces on coloured squares even when not a terminal.
    #[arg(long, overrides_with = "ascii")]
    pub unicode: bool,
    /// In the endgame Corvid accepts offers when its evaluation is at most CP.
    #[arg(long, value_name = "CP", default_value_t = Policy::default().accept_draw_cp,
          allow_negative_numbers = true)]
    pub accept_draw: i32,
    /// Before the endgame, when it is at most CP; with too little material for a win or a dead draw by its
    /// own search it always accepts.
    #[arg(long, value_name = "CP", default_value_t = Policy::default().accept_middlegame_cp,
          allow_negative_numbers = true)]
    pub accept_middlegame: i32,
    /// Your strength: a stronger Corvid has contempt (plays on for a win).
    #[arg(long, value_name = "N", default_value_t = PlayConfig::default().opponent_elo)]
    pub opponent_elo: u32,
    /// Corvid offers only in a dead position or when its evaluation is within CP of 0 (never when it is
    /// clearly worse) ...
    #[arg(long, value_name = "CP", default_value_t = Policy::default().offer_balance_cp,
          allow_negative_numbers = true)]
    pub offer_balance: i32,
    /// ... and that held after each of its last N moves ...
    #[arg(long, value_name = "N", default_value_t = Policy::default().offer_draw_streak)]
    pub offer_streak: usize,
    /// ... from move N on.
    #[arg(long, value_name = "N", default_value_t = Policy::default().offer_draw_after)]
    pub offer_after: u32,
    /// Corvid never offers a draw.
    #[arg(long)]
    pub no_offer: bool,
    /// Corvid resigns after --resign-moves evaluations at or below -CP ...
    #[arg(long, value_name = "CP", default_value_t = Policy::default().resign_cp,
          allow_negative_numbers = true)]
    pub resign_cp: i32,
    /// ... in a row; a mate found against it resigns at once.
    #[arg(long, value_name = "N", default_value_t = Policy::default().resign_moves)]
    pub resign_moves: usize,
    /// Corvid never resigns.
    #[arg(long)]
    pub no_resign: bool,
}

impl PlayArgs {
    /// The settings of the game. The FEN is checked by `play::run`, once the variant is known.
    pub fn config(self) -> PlayConfig {
        let style = match (self.ascii, self.unicode) {
            (true, _) => Some(BoardStyle::Ascii),
            (_, true) => Some(BoardStyle::Color),
            _ => None,
        };
        PlayConfig {
            human: match self.color {
                Some(Side::White) => Some(Color::White),
                Some(Side::Black) => Some(Color::Black),
                Some(Side::Random) | None => None,
            },
            seed: self.seed,
            style,
            elo: self.elo,
            movetime_ms: self.movetime,
            fen: self.fen,
            variant: self.variant,
            pgn_path: self.pgn,
            opponent_elo: self.opponent_elo,
            policy: Policy {
                accept_draw_cp: self.accept_draw,
                accept_middlegame_cp: self.accept_middlegame,
                offer_draws: !self.no_offer,
                offer_draw_streak: self.offer_streak,
                offer_draw_after: self.offer_after,
                offer_balance_cp: self.offer_balance,
                resign: !self.no_resign,
                resign_cp: self.resign_cp,
                resign_moves: self.resign_moves,
                ..Policy::default()
            },
        }
    }
}

/// An engine's command line split into words. An alias, so that clap reads it as one value, not a list.
type Words = Vec<String>;

/// `NAME=VALUE` of `--opt-a`/`--opt-b`.
fn uci_option(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .filter(|(k, _)| !k.trim().is_empty())
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .ok_or_else(|| format!("needs NAME=VALUE, not '{text}'"))
}

/// A count in `lo..=hi`.
fn count(lo: u64, hi: u64) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(lo..=hi)
}

/// The exit statuses of `match`, for its help.
const MATCH_EXIT: &str =
    "Exit status: 0 when every game ended by the rules or the ply cap, 2 when some \
                          engine forfeited, 1 on bad usage or an engine that cannot play at all.";

/// The options of `match`. A later occurrence of an option replaces an earlier one (`--opt-a/-b` add up).
#[derive(Args, Debug)]
#[command(
    override_usage = "corvid match --engine-a CMD --engine-b CMD (--tc BASE+INC | --limit-a L --limit-b L) \
                      [OPTIONS]",
    after_help = MATCH_EXIT,
    args_override_self = true
)]
pub struct MatchArgs {
    /// Engine A's command line (one quoted word; quotes and backslashes as in a shell).
    #[arg(long, value_name = "CMD", value_parser = split_command)]
    pub engine_a: Words,
    /// Engine B's command line.
    #[arg(long, value_name = "CMD", value_parser = split_command)]
    pub engine_b: Words,
    /// A's display name (default: the engine's `id name`, with A/B appended when they are equal).
    #[arg(long, value_name = "NAME")]
    pub name_a: Option<String>,
    /// B's display name.
    #[arg(long, value_name = "NAME")]
    pub name_b: Option<String>,
    /// A UCI option for A, repeatable (UCI_Variant is set by --variant).
    #[arg(long, value_name = "NAME=VALUE", value_parser = uci_option)]
    pub opt_a: Vec<(String, String)>,
    /// A UCI option for B, repeatable.
    #[arg(long, value_name = "NAME=VALUE", value_parser = uci_option)]
    pub opt_b: Vec<(String, String)>,
    #[arg(long, value_name = "V", default_value_t = GameKind::DEFAULT, help = variant_help("The game"))]
    pub variant: GameKind,
    /// Clock for both engines, seconds (10+0.1); --limit-a/-b override it per engine.
    #[arg(long, value_name = "BASE+INC", value_parser = Limit::parse_tc)]
    pub tc: Option<Limit>,
    /// A's limit per move: tc=10+0.1 | depth=N | nodes=N | movetime=MS.
    #[arg(long, value_name = "L", value_parser = Limit::parse, required_unless_present = "tc")]
    pub limit_a: Option<Limit>,
    /// B's limit per move.
    #[arg(long, value_name = "L", value_parser = Limit::parse, required_unless_present = "tc")]
    pub limit_b: Option<Limit>,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = count(1, 1_000_000))]
    pub games: usize,
    /// Games in parallel, each with its own pair of engines.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = count(1, 64))]
    pub concurrency: usize,
    /// N random legal plies from the start for each pair of games.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = count(0, 200))]
    pub openings_random: usize,
    /// Seed of the random openings.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Adjudicate a draw after N plies.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = count(1, 100_000))]
    pub max_plies: usize,
    /// How far past its clock an engine may go (ms).
    #[arg(long, value_name = "MS", default_value_t = 50,
          value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub margin: u64,
    /// After clock+margin+grace (ms) without a move the engine hangs.
    #[arg(long, value_name = "MS", default_value_t = 2000,
          value_parser = clap::value_parser!(u64).range(0..=600_000))]
    pub grace: u64,
    /// The same for depth/nodes limits (seconds).
    #[arg(long, value_name = "S", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub hang_timeout: u64,
    /// Write every game there (overwritten).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<String>,
}

impl MatchArgs {
    /// The match settings. Clap has already required a limit for each engine (its own or `--tc`).
    pub fn config(self) -> Result<MatchConfig, String> {
        let tc = self.tc;
        let spec = |letter, command, name, options, limit: Option<Limit>| {
            let limit = limit.or(tc).ok_or_else(|| {
                format!("engine {letter} has no limit: give --tc or --limit-{letter}")
            })?;
            Ok::<_, String>(EngineSpec {
                command,
                name,
                options,
                limit,
            })
        };
        Ok(MatchConfig {
            engines: [
                spec('a', self.engine_a, self.name_a, self.opt_a, self.limit_a)?,
                spec('b', self.engine_b, self.name_b, self.opt_b, self.limit_b)?,
            ],
            variant: self.variant,
            games: self.games,
            concurrency: self.concurrency,
            opening_plies: self.openings_random,
            seed: self.seed,
            max_plies: self.max_plies,
            margin: Duration::from_millis(self.margin),
            grace: Duration::from_millis(self.grace),
            hang_timeout: Duration::from_secs(self.hang_timeout),
            pgn: self.pgn,
        })
    }
}

/// The words of `genfens`.
#[derive(Args, Debug)]
#[command(
    override_usage = "corvid genfens N seed S book <FILE|None> [dfrc]\n       \
                      corvid \"genfens N seed S book <FILE|None> [dfrc]\" [UCI commands, ignored]"
)]
pub struct GenfensArgs {
    /// `N seed S book <FILE|None> [dfrc]`: how many openings, their seed, the book (`None`: none).
    #[arg(required = true, value_name = "WORDS")]
    pub words: Vec<String>,
}

/// Reads the command line (`std::env::args_os()`, program name first); OpenBench's one-argument genfens
/// form is rewritten first (see the module documentation).
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Cli, clap::Error> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    let openbench = args
        .get(1)
        .and_then(|a| a.to_str())
        .filter(|a| a.starts_with("genfens "))
        .map(|a| a.split_whitespace().map(OsString::from).collect::<Vec<_>>());
    if let Some(words) = openbench {
        args.truncate(1);
        args.extend(words);
    }
    Cli::try_parse_from(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli(line: &str) -> Result<Cli, clap::Error> {
        parse(
            std::iter::once("corvid")
                .chain(line.split_whitespace())
                .map(OsString::from),
        )
    }

    fn play(line: &str) -> Result<PlayConfig, clap::Error> {
        match cli(&format!("play {line}"))?.verb {
            Some(Verb::Play(p)) => Ok(p.config()),
            v => panic!("{v:?}"),
        }
    }

    fn matched(line: &str) -> Result<MatchConfig, clap::Error> {
        match cli(&format!("match {line}"))?.verb {
            Some(Verb::Match(m)) => Ok(m.config().unwrap()),
            v => panic!("{v:?}"),
        }
    }

    /// Every `corvid …` command line in a code block of README.md or docs/ (run as `corvid` or
    /// `target/release/corvid`, with `\` continuations, `# comments` and `$ ` prompts) as argument lists.
    /// Synopsis lines (`[options]`, `<depth>`, `...`, `a|b`) and shell substitutions are not command lines.
    fn quoted_command_lines() -> Vec<(String, Vec<String>)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = vec![root.join("README.md")];
        let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
            .expect("docs/")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        docs.sort();
        files.extend(docs);
        let mut found = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let (mut in_block, mut pending) = (false, String::new());
            for line in text.lines() {
                if line.trim_start().starts_with("```") {
                    in_block = !in_block;
                    continue;
                }
                if !in_block {
                    continue;
                }
                // The comment column: a `#` or a run of spaces before prose.
                let code = line.split(" #").next().unwrap();
                let code = code.trim_start().split("   ").next().unwrap().trim();
                let code = code.strip_prefix("$ ").unwrap_or(code);
                if pending.is_empty()
                    && !(code == "corvid"
                        || code.starts_with("corvid ")
                        || code.starts_with("target/release/corvid"))
                {
                    continue;
                }
                pending.push_str(code.trim_end_matches('\\'));
                pending.push(' ');
                if code.ends_with('\\') {
                    continue;
                }
                let command = std::mem::take(&mut pending);
                // Markers count outside quotes only: `--eval '<default>'` is a real value.
                let unquoted: String = command.split(['\'', '"']).step_by(2).collect();
                if ["[", "<", "...", "…", "|", "$"]
                    .iter()
                    .any(|m| unquoted.contains(m))
                {
                    continue;
                }
                let words = shlex::split(&command).expect("quoting");
                found.push((format!("{}: {}", file.display(), command.trim()), words));
            }
        }
        found
    }

    #[test]
    fn every_command_line_in_the_docs_parses() {
        let lines = quoted_command_lines();
        // README and docs quote a dozen; fewer means the extraction broke, not that all is well.
        assert!(
            lines.len() >= 10,
            "only {} command lines found",
            lines.len()
        );
        for (whence, words) in &lines {
            let args = std::iter::once("corvid".to_string()).chain(words[1..].iter().cloned());
            if let Err(e) = parse(args.map(OsString::from)) {
                use clap::error::ErrorKind::{DisplayHelp, DisplayVersion};
                assert!(
                    matches!(e.kind(), DisplayHelp | DisplayVersion),
                    "{whence}\n{e}"
                );
            }
        }
        // And the check can fail: a match with one engine is refused.
        assert!(cli("match --engine-a x --tc 1+0.01").is_err());
    }

    #[test]
    fn play_options() {
        let c =
            play("--color black --seed 7 --elo 1500 --movetime 50 --no-resign --ascii").unwrap();
        assert_eq!(c.human, Some(Color::Black));
        assert_eq!(c.seed, Some(7));
        assert_eq!(c.elo, Some(1500));
        assert_eq!(c.movetime_ms, 50);
        assert!(!c.policy.resign);
        assert_eq!(c.style, Some(BoardStyle::Ascii));
        // Without options: today's defaults, the policy's own.
        let d = play("").unwrap();
        assert_eq!(d, PlayConfig::default());
        // Negative numbers are values; a later option wins; the other spellings of colour and variant.
        let c = play(
            "--accept-draw -40 --colour W --variant Standard --unicode --ascii --seed 1 --seed 2",
        )
        .unwrap();
        assert_eq!(c.policy.accept_draw_cp, -40);
        assert_eq!(c.human, Some(Color::White));
        assert_eq!(c.variant, GameKind::Chess);
        assert_eq!(c.style, Some(BoardStyle::Ascii));
        assert_eq!(c.seed, Some(2));
        assert_eq!(play("--color random").unwrap().human, None);
        for bad in [
            "--elo 99",
            "--color green",
            "--movetime",
            "--movetime 0",
            "--frobnicate",
            "--variant shogi",
        ] {
            assert!(play(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn match_options_need_engines_and_limits() {
        let c = cli(
            "match --engine-a x --engine-b y --tc 2+0.05 --limit-b depth=2 --opt-a Hash=8 --opt-a \
                     Threads=1 --variant makromachy --games 4 --games 6",
        )
        .unwrap();
        let Some(Verb::Match(m)) = c.verb else {
            panic!("not a match")
        };
        let c = m.config().unwrap();
        let clock = Limit::Clock {
            base_ms: 2000,
            inc_ms: 50,
        };
        assert_eq!(c.engines[0].limit, clock);
        assert_eq!(c.engines[1].limit, Limit::Depth(2));
        assert_eq!(
            c.engines[0].options,
            vec![("Hash".into(), "8".into()), ("Threads".into(), "1".into())]
        );
        assert_eq!(c.variant, GameKind::Makromachy);
        assert_eq!(c.games, 6);
        // A command line with quotes is split as a shell does.
        let words = vec!["./corvid".to_string(), "a b".to_string()];
        let c = parse(
            [
                "corvid",
                "match",
                "--engine-a",
                "./corvid 'a b'",
                "--engine-b",
                "y",
                "--tc",
                "1",
            ]
            .map(OsString::from),
        )
        .unwrap();
        let Some(Verb::Match(m)) = c.verb else {
            panic!("not a match")
        };
        assert_eq!(m.config().unwrap().engines[0].command, words);
        let d = matched("--engine-a x --engine-b y --limit-a depth=1 --limit-b nodes=9").unwrap();
        assert_eq!(
            (d.games, d.concurrency, d.seed, d.max_plies),
            (2, 1, 1, 1000)
        );
        assert_eq!(d.margin, Duration::from_millis(50));
        for bad in [
            "--engine-a x --engine-b y",
            "--engine-a x --tc 1",
            "--engine-a x --engine-b y --limit-a depth=2",
            "--engine-a x --engine-b y --tc 1 --games",
            "--engine-a x --engine-b y --tc 1 --games 0",
            "--engine-a x --engine-b y --tc 0+1",
            "--engine-a x --engine-b y --tc 1 --opt-a Hash",
            "--engine-a x --engine-b y --tc 1 --variant shogi",
            "--engine-a 'x --engine-b y --tc 1",
        ] {
            assert!(matched(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn openbench_genfens_forms_read_the_same() {
        let words = |c: Cli| match c.verb {
            Some(Verb::Genfens(g)) => g.words,
            v => panic!("{v:?}"),
        };
        let one = parse(["corvid", "genfens 6 seed 11 book None dfrc", "quit"].map(OsString::from));
        let split = cli("genfens 6 seed 11 book None dfrc");
        assert_eq!(words(one.unwrap()), words(split.unwrap()));
        assert!(cli("genfens").is_err());
    }

    /// `referee`: a PGN's moves replayed by the rules, whatever its comments, numbers and result say.
    #[test]
    fn referee_replays_by_the_rules() {
        let chess =
            "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3.Bc4 {a comment (with} Nf6?? \
                     4. Qxf7# 1-0\n";
        assert_eq!(referee(chess, None).unwrap(), "1-0 {White mates}");
        assert_eq!(
            referee("1. e2e4 e7e5 *", None).unwrap(),
            "* {2 plies, not over}"
        );
        assert!(referee("1. e2e5", None)
            .unwrap_err()
            .contains("ply 1 (e2e5)"));
        assert!(referee("1. f3 e5 2. g4 Qh4 3. a3", None)
            .unwrap_err()
            .contains("ended before it"));
        // Makromachy from a FEN tag (the Variant tag, or --variant, names the game).
        let mate = "[Variant \"makromachy\"]\n[FEN \"13k/R13/14/14/14/14/14/14/14/14/14/14/14/1R10K1 w - - 0 1\"]\n\nb1b14\n";
        assert_eq!(referee(mate, None).unwrap(), "1-0 {White mates}");
        let bare = mate.replace("[Variant \"makromachy\"]\n", "");
        assert_eq!(
            referee(&bare, Some(GameKind::Makromachy)).unwrap(),
            "1-0 {White mates}"
        );
        assert!(referee(&bare, None).unwrap_err().starts_with("FEN "));
    }

    #[test]
    fn the_declaration_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
