//! `corvid datagen import`: the games of an OpenBench DATAGEN workload (PGN) as whole-game viriformat files,
//! the same files `corvid datagen` writes ([`super::format`]).
//!
//! What OpenBench keeps of a game (its client's `pgn_util.py` rewrites fastchess's `-pgnout` file before the
//! upload): the tag pairs (`FEN` and `SetUp` for every DATAGEN game, whose opening comes from `genfens`;
//! `Variant` only under Chess960; no `Termination`), a blank line, then one line of moves in SAN without move
//! numbers, each with a comment, and the result. The comment is `{+0.35/12}` (compact) or
//! `{+0.35/12 0.123s, n=2500, sd=17}` (verbose): the score of the side to move, in pawns, or `+M5`/`-M4` for a
//! mate (in plies), then the depth; `, line=...` follows for an `info string pgncomment` the engine printed;
//! `{book}` marks a book move, `{unknown}` a move without a score. fastchess's own files (move numbers,
//! `line="..."`, the ending's reason in the last comment, `Termination`) read the same way. The server's
//! download `<workload>.pgn.tar` holds one bz2-compressed PGN per upload; all three (`.pgn`, `.bz2`, `.tar`,
//! told apart by their first bytes) and directories of them are read.
//!
//! Every move is replayed by the rules; the score is stored from White's view, a mate as a mate. A game that
//! cannot be taken whole (illegal move, unknown variant, missing score, no result, ...) is skipped and counted
//! with its reason. Text that is not a complete PGN (cut off, a comment or tag left open) refuses the whole
//! import: nothing is written then. Which positions train is decided when the games are read, as for
//! `corvid datagen`'s games ([`super::format::trainable`]): the played move is the engine's best move, so the
//! position and the move tell whether it was quiet, and no `pgncomment` is needed.

use super::format::GameRecord;
use crate::chess::{Color, Position};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The verbs under `corvid datagen`.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum Command {
    /// Convert the PGNs of an OpenBench DATAGEN workload into a games file (whole games in viriformat).
    ///
    /// Inputs: PGN text, a `.bz2` of it, the server's `.pgn.tar` download, or directories of them. Games that
    /// cannot be replayed or lack a score are skipped and counted; a cut-off or malformed file writes nothing.
    /// stdout: `games N`, `positions N` (trainable), `skipped N`; the details go to stderr.
    Import(ImportArgs),
}

/// The options of `corvid datagen import`.
#[derive(Clone, Debug, clap::Args)]
pub struct ImportArgs {
    /// PGN files (plain, `.bz2`, or OpenBench's `.pgn.tar`) and directories of them (their files in name order).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The games file to write; it must not exist (an import is never appended to other games).
    #[arg(long)]
    pub out: PathBuf,
}

/// What an import did: games written, their trainable positions, and the games skipped by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    /// Searched moves written (the games' length).
    pub plies: u64,
    /// Skipped games by reason: how many, and where the first one was and why.
    pub skipped: BTreeMap<&'static str, (u64, String)>,
}

impl Summary {
    pub fn skipped_games(&self) -> u64 {
        self.skipped.values().map(|(n, _)| n).sum()
    }
}

/// Why a game is skipped: the reason it is counted under, and the details.
#[derive(Debug)]
struct Skip(&'static str, String);

/// `corvid datagen import`: the summary on stdout and stderr; status 1 when nothing could be written.
pub fn main(args: &ImportArgs) -> ExitCode {
    match run(args) {
        Ok(s) => {
            println!(
                "games {}\npositions {}\nskipped {}",
                s.games,
                s.positions,
                s.skipped_games()
            );
            eprintln!(
                "datagen import: {} games ({} moves, {} trainable positions) into {}",
                s.games,
                s.plies,
                s.positions,
                args.out.display()
            );
            for (why, (n, first)) in &s.skipped {
                eprintln!("  skipped {n} ({why}), the first: {first}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("datagen import: {e}; nothing written");
            ExitCode::FAILURE
        }
    }
}

/// Converts every input into `args.out`, through `<out>.part` renamed at the end, so a refused import leaves
/// no file behind.
pub fn run(args: &ImportArgs) -> Result<Summary, String> {
    if args.out.exists() {
        return Err(format!(
            "{} exists (an import is never appended)",
            args.out.display()
        ));
    }
    let files = input_files(&args.inputs)?;
    let mut part = args.out.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    let result = (|| {
        let file = std::fs::File::create(&part)
            .map_err(|e| format!("cannot create {}: {e}", part.display()))?;
        let mut out = std::io::BufWriter::new(file);
        let mut summary = Summary::default();
        for path in &files {
            let file = std::fs::File::open(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let name = path.display().to_string();
            let mut sink = Sink {
                out: &mut out,
                summary: &mut summary,
            };
            convert_any(&mut BufReader::new(file), &name, &mut sink, 0)?;
        }
        if summary.games == 0 {
            return Err(format!(
                "no game could be converted ({} skipped)",
                summary.skipped_games()
            ));
        }
        let file = out
            .into_inner()
            .map_err(|e| format!("cannot write {}: {}", part.display(), e.error()))?;
        file.sync_all()
            .map_err(|e| format!("cannot write {}: {e}", part.display()))?;
        std::fs::rename(&part, &args.out)
            .map_err(|e| format!("cannot rename {}: {e}", part.display()))?;
        Ok(summary)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&part);
    }
    result
}

/// The files to read: the inputs, a directory standing for its files (PGN, `.bz2`, `.tar`) in name order.
fn input_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            files.push(input.clone());
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(input)
            .map_err(|e| format!("cannot read {}: {e}", input.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let name = p.to_string_lossy();
                p.is_file() && [".pgn", ".bz2", ".tar"].iter().any(|x| name.ends_with(x))
            })
            .collect();
        if found.is_empty() {
            return Err(format!(
                "{}: no .pgn, .bz2 or .tar file in it",
                input.display()
            ));
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// Where converted games go, and the count of what was converted and skipped.
struct Sink<'a> {
    out: &'a mut dyn Write,
    summary: &'a mut Summary,
}

/// Converts one input of any kind, told by its first bytes: a tar archive (OpenBench's download), bzip2 (an
/// upload), else PGN text. `depth` stops archives nested without end.
fn convert_any(
    input: &mut dyn BufRead,
    name: &str,
    sink: &mut Sink,
    depth: u32,
) -> Result<(), String> {
    // The first bytes, read in full: a buffer may hold fewer of them than the input has.
    let mut head = Vec::with_capacity(512);
    (&mut *input)
        .take(512)
        .read_to_end(&mut head)
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    let mut input = (&head[..]).chain(input);
    let is_tar = head.len() >= 262 && &head[257..262] == b"ustar";
    if head.starts_with(b"BZh") && depth < 3 {
        let mut text = BufReader::new(bzip2::read::MultiBzDecoder::new(input));
        convert_any(&mut text, name, sink, depth + 1)
    } else if is_tar && depth < 3 {
        convert_tar(&mut input, name, sink, depth + 1)
    } else {
        convert(&mut input, name, sink.out, sink.summary)
    }
}

/// Converts the regular files of a tar archive, in archive order. A cut-off archive (no end blocks, a member
/// shorter than its header says) is refused.
fn convert_tar(
    input: &mut dyn BufRead,
    name: &str,
    sink: &mut Sink,
    depth: u32,
) -> Result<(), String> {
    let cut = |what: &str| format!("{name}: the archive ends {what}: cut off?");
    let mut header = [0u8; 512];
    loop {
        input
            .read_exact(&mut header)
            .map_err(|_| cut("before its end-of-archive block"))?;
        if header.iter().all(|&b| b == 0) {
            return Ok(());
        }
        // The checksum counts its own field as spaces.
        let sum: u64 = header
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                if (148..156).contains(&i) {
                    32
                } else {
                    b as u64
                }
            })
            .sum();
        let field = |r: std::ops::Range<usize>| {
            let text = String::from_utf8_lossy(&header[r]);
            let digits = text.trim_matches(|c: char| c == '\0' || c == ' ');
            u64::from_str_radix(digits, 8).ok()
        };
        if field(148..156) != Some(sum) {
            return Err(format!(
                "{name}: not a tar archive (a header's checksum is wrong)"
            ));
        }
        let size = field(124..136)
            .ok_or_else(|| format!("{name}: a tar header without a size we can read"))?;
        let text = |r: std::ops::Range<usize>| {
            let raw = &header[r];
            let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
            String::from_utf8_lossy(&raw[..end]).into_owned()
        };
        let (prefix, file) = (text(345..500), text(0..100));
        let member = if prefix.is_empty() {
            format!("{name}:{file}")
        } else {
            format!("{name}:{prefix}/{file}")
        };
        let mut data = input.take(size);
        // Regular files only; pax headers, directories and links carry no games.
        if matches!(header[156], b'0' | 0) {
            convert_any(&mut data, &member, sink, depth)?;
        }
        std::io::copy(&mut data, &mut std::io::sink())
            .map_err(|e| format!("{member}: cannot read: {e}"))?;
        if data.limit() != 0 {
            return Err(cut(&format!("inside {member}")));
        }
        let mut pad = vec![0u8; ((512 - size % 512) % 512) as usize];
        input
            .read_exact(&mut pad)
            .map_err(|_| cut(&format!("after {member}")))?;
    }
}

/// One game's text: where it starts, its tags and its moves with their comments, and the result that ends it.
#[derive(Debug, Default)]
struct PgnGame {
    line: usize,
    tags: Vec<(String, String)>,
    moves: Vec<(String, Option<String>)>,
    result: String,
}

impl PgnGame {
    fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// The results that end a game's moves.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Converts the PGN text of `input` (named `name` in messages): each game is either written whole to `out`
/// or counted in `summary.skipped`; text that is not a sequence of complete games is an error (the games
/// already written to `out` are then to be thrown away: [`run`] does).
pub fn convert(
    input: &mut dyn BufRead,
    name: &str,
    out: &mut dyn Write,
    summary: &mut Summary,
) -> Result<(), String> {
    let mut lines = Lines {
        input,
        name,
        number: 0,
        pending: None,
    };
    while let Some(game) = read_game(&mut lines)? {
        match game_bytes(&game) {
            Ok((bytes, plies, positions)) => {
                out.write_all(&bytes)
                    .map_err(|e| format!("cannot write the games: {e}"))?;
                summary.games += 1;
                summary.plies += plies;
                summary.positions += positions;
            }
            Err(Skip(why, detail)) => {
                let entry = summary
                    .skipped
                    .entry(why)
                    .or_insert_with(|| (0, format!("{name}:{}: {detail}", game.line)));
                entry.0 += 1;
            }
        }
    }
    Ok(())
}

/// The lines of a PGN text, counted, with one line of look-ahead.
struct Lines<'a> {
    input: &'a mut dyn BufRead,
    name: &'a str,
    number: usize,
    pending: Option<String>,
}

impl Lines<'_> {
    fn next(&mut self) -> Result<Option<String>, String> {
        if let Some(line) = self.pending.take() {
            return Ok(Some(line));
        }
        let mut raw = Vec::new();
        let n = self
            .input
            .read_until(b'\n', &mut raw)
            .map_err(|e| format!("{}: cannot read: {e}", self.name))?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        let line = String::from_utf8(raw)
            .map_err(|_| format!("{}:{}: not text (UTF-8)", self.name, self.number))?;
        Ok(Some(line.trim_end_matches(['\n', '\r']).to_string()))
    }

    fn corrupt(&self, what: &str) -> String {
        format!("{}:{}: {what}", self.name, self.number)
    }
}

/// The next game of the text, or `None` at its end. A tag line that is not `[Key "value"]`, a game cut off
/// before its result, a comment left open or text that is not a move is an error.
fn read_game(lines: &mut Lines) -> Result<Option<PgnGame>, String> {
    let mut game = PgnGame::default();
    // Tags, after any blank lines.
    loop {
        let Some(line) = lines.next()? else {
            return Ok(None);
        };
        let t = line.trim();
        if t.is_empty() && game.tags.is_empty() {
            continue;
        }
        if game.line == 0 {
            game.line = lines.number;
        }
        if !t.starts_with('[') {
            lines.pending = Some(line);
            break;
        }
        let tag = parse_tag(t).ok_or_else(|| lines.corrupt(&format!("not a tag pair: {t}")))?;
        game.tags.push(tag);
    }
    // Moves, comments and the result.
    let mut comment: Option<String> = None;
    let mut variation = 0usize;
    loop {
        let Some(line) = lines.next()? else {
            let open = if comment.is_some() {
                "inside a comment"
            } else {
                "before the result"
            };
            return Err(format!(
                "{}: the text ends {open} of the game at line {}: cut off?",
                lines.name, game.line
            ));
        };
        if comment.is_none() && variation == 0 && line.starts_with('[') {
            return Err(lines.corrupt(&format!(
                "a tag among the moves of the game at line {} (its result is missing: cut off?)",
                game.line
            )));
        }
        let mut word = String::new();
        // A space at the end ends the line's last word.
        let mut chars = line.chars().chain(std::iter::once(' '));
        while let Some(c) = chars.next() {
            if let Some(text) = comment.as_mut() {
                if c != '}' {
                    text.push(c);
                    continue;
                }
                // The first comment after a move is its comment; one before any move (fastchess's for an
                // illegal first move) belongs to none.
                let text = comment.take().unwrap_or_default();
                if let (0, Some(last)) = (variation, game.moves.last_mut()) {
                    last.1.get_or_insert(text);
                }
                continue;
            }
            let ends_word = c.is_whitespace() || matches!(c, '{' | '(' | ')' | ';');
            if !ends_word {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                if variation == 0 {
                    if RESULTS.contains(&word.as_str()) {
                        let rest: String = chars.collect();
                        if !rest.trim().is_empty() {
                            return Err(lines.corrupt(&format!(
                                "text after the result {word}: {}",
                                rest.trim()
                            )));
                        }
                        game.result = word;
                        return Ok(Some(game));
                    }
                    if let Some(mv) = move_word(&word).map_err(|w| lines.corrupt(&w))? {
                        game.moves.push((mv.to_string(), None));
                    }
                }
                word.clear();
            }
            match c {
                '{' => comment = Some(String::new()),
                '(' => variation += 1,
                ')' => variation = variation.saturating_sub(1),
                // The rest of the line is a comment.
                ';' => break,
                _ => {}
            }
        }
        if let Some(text) = comment.as_mut() {
            text.push(' ');
        }
    }
}

/// `[Key "value"]` as (key, value), `\"` and `\\` unescaped.
fn parse_tag(t: &str) -> Option<(String, String)> {
    let inner = t.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (key, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((
        key.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// The move of a movetext word: `None` for a move number (`12.`, `12...`) or a NAG (`$1`); `12.e4` is `e4`.
/// A word that cannot be a move (SAN, or UCI with its squares) is an error.
fn move_word(word: &str) -> Result<Option<&str>, String> {
    let mv = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let mv = if mv.len() < word.len() && mv.starts_with('.') {
        mv.trim_start_matches('.')
    } else {
        word
    };
    if mv.is_empty() || (word.starts_with('$') && word[1..].chars().all(|c| c.is_ascii_digit())) {
        return Ok(None);
    }
    let ok = mv.len() <= 10
        && mv.starts_with(|c: char| "abcdefghKQRBNOo0".contains(c))
        && mv
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+#=-!?:".contains(c));
    if ok {
        Ok(Some(mv))
    } else {
        Err(format!("not a move: {word}"))
    }
}

/// A search's score as fastchess writes it, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Cp(i32),
    /// A mate, for the side to move (+1) or against it (-1).
    Mate(i32),
}

/// The score and depth at the start of a move's comment: `+0.35/12`, `-1.20/9`, `0.00/14`, `+M5/20`, `-M4/18`
/// (what follows, time, nodes or `line=...`, does not matter). `None` for anything else (`unknown`, `ERR/0`).
fn parse_score(comment: &str) -> Option<(Score, u32)> {
    let word = comment.split([' ', ',']).find(|w| !w.is_empty())?;
    let (score, depth) = word.split_once('/')?;
    let depth: u32 = depth.parse().ok()?;
    let (sign, body) = match score.as_bytes().first()? {
        b'+' => (1, &score[1..]),
        b'-' => (-1, &score[1..]),
        _ => (1, score),
    };
    if let Some(plies) = body.strip_prefix('M') {
        plies.parse::<u32>().ok()?;
        return Some((Score::Mate(sign), depth));
    }
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if int.is_empty() || int.len() > 6 || frac.len() > 2 || !digits(int) || !digits(frac) {
        return None;
    }
    let cents = format!("{frac:0<2}").parse::<i32>().ok()?;
    Some((
        Score::Cp(sign * (int.parse::<i32>().ok()? * 100 + cents)),
        depth,
    ))
}

/// The game's viriformat bytes, its searched moves and its trainable positions; or why it is skipped.
fn game_bytes(game: &PgnGame) -> Result<(Vec<u8>, u64, u64), Skip> {
    let variant = game.tag("Variant").unwrap_or("standard");
    let chess960 = match variant
        .to_ascii_lowercase()
        .replace([' ', '-'], "")
        .as_str()
    {
        "standard" | "chess" | "normal" => false,
        "chess960" | "fischerandom" | "fischerrandom" | "frc" | "dfrc" => true,
        _ => return Err(Skip("unknown variant", format!("variant {variant}"))),
    };
    let result = game.tag("Result").unwrap_or(&game.result);
    if result != game.result {
        return Err(Skip(
            "result mismatch",
            format!(
                "the Result tag says {result}, the moves end with {}",
                game.result
            ),
        ));
    }
    let winner = match result {
        "1-0" => Some(Color::White),
        "0-1" => Some(Color::Black),
        "1/2-1/2" => None,
        other => return Err(Skip("no result", format!("result {other}"))),
    };
    // fastchess's own files say how a game ended; a forfeit's result does not come from the board.
    if let Some(t) = game.tag("Termination") {
        if !matches!(t, "normal" | "adjudication") {
            return Err(Skip("forfeit", format!("termination {t}")));
        }
    }
    let mut pos = match game.tag("FEN") {
        Some(fen) => Position::from_fen(fen, chess960)
            .map_err(|e| Skip("bad FEN", format!("FEN {fen}: {e}")))?,
        None => {
            let mut p = Position::startpos();
            p.set_chess960(chess960);
            p
        }
    };
    let mut record: Option<GameRecord> = None;
    let mut plies = 0u64;
    for (i, (text, comment)) in game.moves.iter().enumerate() {
        let ply = i + 1;
        let mv = pos
            .parse_san(text)
            .or_else(|_| pos.parse_uci_move(text))
            .map_err(|_| {
                Skip(
                    "illegal move",
                    format!("ply {ply} ({text}): not a legal move"),
                )
            })?;
        let comment = comment.as_deref().unwrap_or("").trim();
        // Book moves before the first search lead to the game's first searched position.
        if comment == "book" && record.is_none() {
            pos.make_move(mv);
            continue;
        }
        let missing = |why: &str| Skip("missing score", format!("ply {ply} ({text}): {why}"));
        let (score, depth) =
            parse_score(comment).ok_or_else(|| missing(&format!("no score in {{{comment}}}")))?;
        // fastchess writes 0.00/0 for a move without any search output.
        if depth == 0 {
            return Err(missing("no search reported (depth 0)"));
        }
        let white = if pos.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        let rec = match record.as_mut() {
            Some(r) => r,
            None => record.insert(GameRecord::new(&pos).map_err(|e| Skip("bad FEN", e))?),
        };
        match score {
            Score::Cp(cp) => rec.push(&pos, mv, Some(white * cp), 1),
            Score::Mate(sign) => rec.push(&pos, mv, None, white * sign),
        }
        pos.make_move(mv);
        plies += 1;
    }
    let Some(record) = record else {
        return Err(Skip("no searched move", "no move with a score".into()));
    };
    // A game that ends in mate or stalemate must have that result.
    if pos.legal_moves().is_empty() {
        let over = pos.in_check().then(|| pos.side_to_move().flip());
        if over != winner {
            return Err(Skip(
                "wrong result",
                format!(
                    "the moves end in {}, the result is {result}",
                    if over.is_some() { "mate" } else { "stalemate" }
                ),
            ));
        }
    }
    let positions = record.trainable();
    Ok((record.finish(winner), plies, positions))
}

#[cfg(test)]
mod tests;
