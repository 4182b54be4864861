//! `genfens N seed S book <file|None> [dfrc]`: opening positions for OpenBench's data generation.
//!
//! OpenBench runs `corvid "genfens N seed S book <file|None>" quit` and reads the lines
//! `info string genfens <FEN>`. Without a book, each opening is [`RANDOM_PLIES`] random legal plies from the
//! start (a double-Chess960 start with `dfrc`); with a book (one FEN or EPD a line), [`BOOK_PLIES`] random
//! plies from a line of the book drawn at random. An opening is kept only when the game has not ended, the
//! side to move has a legal move, and a short search scores it within ±[`MAX_SCORE`] cp (balanced); the same
//! seed gives the same openings.

use super::datagen::{chess_opening, Starts};
use super::openings::random_line;
use crate::chess::Position;
use crate::eval::nnue::{Network, NnueEval};
use crate::rng::Rng;
use crate::search::{Score, Searcher, TranspositionTable};
use crate::variants::{Chess, ChessGame};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Random plies from the start position when there is no book.
pub const RANDOM_PLIES: u32 = 8;
/// Random plies added to a book position.
pub const BOOK_PLIES: u32 = 2;
/// Largest |score| (cp) of a kept opening.
pub const MAX_SCORE: i32 = 250;
/// Nodes of the balance check.
const CHECK_NODES: u64 = 2000;
/// Attempts per opening before an unbalanced one is kept anyway (a book of lost positions must still give N).
const ATTEMPTS: usize = 50;

/// The parsed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Openings to print.
    pub count: usize,
    /// Seed.
    pub seed: u64,
    /// Book file, `None` for random openings from the start.
    pub book: Option<String>,
    /// Double Chess960 starts (no book only).
    pub dfrc: bool,
}

/// Parses `genfens N seed S book <file|None> [dfrc]` (the words after `genfens` may come as one string).
pub fn parse(words: &[&str]) -> Result<Request, String> {
    let usage = "usage: genfens N seed S book <file|None> [dfrc]";
    let words: Vec<&str> = match words.first() {
        Some(&"genfens") => words[1..].to_vec(),
        _ => words.to_vec(),
    };
    let count = words
        .first()
        .and_then(|w| w.parse::<usize>().ok())
        .ok_or_else(|| usage.to_string())?;
    let mut seed = 0u64;
    let mut book = None;
    let mut dfrc = false;
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "seed" => {
                seed = words
                    .get(i + 1)
                    .and_then(|w| w.parse::<u64>().ok())
                    .ok_or_else(|| format!("genfens: seed needs a number; {usage}"))?;
                i += 2;
            }
            "book" => {
                let b = words
                    .get(i + 1)
                    .ok_or_else(|| format!("genfens: book needs a file or None; {usage}"))?;
                book = (!b.eq_ignore_ascii_case("none")).then(|| b.to_string());
                i += 2;
            }
            "dfrc" => {
                dfrc = true;
                i += 1;
            }
            other => return Err(format!("genfens: unexpected '{other}'; {usage}")),
        }
    }
    Ok(Request {
        count,
        seed,
        book,
        dfrc,
    })
}

/// Reads a book: the first four FEN fields of every non-empty line (EPD operations and move counters are
/// dropped), skipping lines that are not legal positions. Chess960 castling fields are read as such.
pub fn read_book(path: &str) -> Result<Vec<Position>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read book {path}: {e}"))?;
    let book: Vec<Position> = text
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            if fields.len() < 4 {
                return None;
            }
            let fen = format!("{} 0 1", fields.join(" "));
            Position::from_fen(&fen, false)
                .or_else(|_| Position::from_fen(&fen, true))
                .ok()
        })
        .collect();
    if book.is_empty() {
        return Err(format!("book {path} holds no legal position"));
    }
    Ok(book)
}

/// Writes `request.count` lines `info string genfens <FEN>` to `out`, the balance checked with the built-in
/// network.
pub fn run(request: &Request, out: &mut dyn Write) -> Result<(), String> {
    run_with_network(request, crate::eval::nnue::default_network(), out)
}

/// [`run`] with the balance checked by a search that evaluates with `net` (`None`: the hand-crafted
/// evaluation); the UCI `genfens` passes the engine's network.
pub fn run_with_network(
    request: &Request,
    net: Option<Arc<Network>>,
    out: &mut dyn Write,
) -> Result<(), String> {
    let book = request.book.as_deref().map(read_book).transpose()?;
    let mut rng = Rng::new(request.seed ^ 0x0067_656E_6665_6E73);
    let tt = TranspositionTable::new(1);
    let mut searcher = Searcher::<ChessGame>::new();
    let starts = if request.dfrc {
        Starts::Dfrc
    } else {
        Starts::Standard
    };
    for _ in 0..request.count {
        let mut chosen = None;
        for _ in 0..ATTEMPTS {
            let line = match &book {
                Some(b) => {
                    let start = b[rng.below_mod(b.len())];
                    random_line::<Chess>(start, BOOK_PLIES as usize, &mut rng)
                }
                None => chess_opening(starts, RANDOM_PLIES, &mut rng),
            };
            if line.ended {
                continue;
            }
            let last = *line.last();
            let balanced = balanced(&last, &net, &mut searcher, &tt);
            chosen = Some(last);
            if balanced {
                break;
            }
        }
        let pos = chosen.ok_or("genfens: no playable opening found")?;
        writeln!(out, "info string genfens {}", pos.to_fen()).map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

/// Does a short search score `pos` within ±[`MAX_SCORE`]?
fn balanced(
    pos: &Position,
    net: &Option<Arc<Network>>,
    searcher: &mut Searcher<ChessGame>,
    tt: &TranspositionTable,
) -> bool {
    tt.clear();
    searcher.clear();
    let game = ChessGame::with_eval(*pos, NnueEval::new(net.clone()));
    let scored = super::datagen::search(&game, CHECK_NODES, searcher, tt, &AtomicBool::new(false));
    matches!(scored, Some((_, Score::Cp(v))) if v.abs() <= MAX_SCORE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(request: &Request) -> Vec<String> {
        let mut out = Vec::new();
        run(request, &mut out).expect("genfens");
        String::from_utf8(out)
            .expect("utf8")
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn parses_the_openbench_form() {
        let r = parse(&["genfens", "5", "seed", "17", "book", "None"]).expect("parse");
        assert_eq!(
            r,
            Request {
                count: 5,
                seed: 17,
                book: None,
                dfrc: false
            }
        );
        let r = parse(&["3", "seed", "1", "book", "b.epd", "dfrc"]).expect("parse");
        assert_eq!(r.book.as_deref(), Some("b.epd"));
        assert!(r.dfrc);
        assert!(parse(&["genfens"]).is_err());
        assert!(parse(&["genfens", "3", "seed", "x"]).is_err());
        assert!(parse(&["genfens", "3", "colour", "white"]).is_err());
    }

    #[test]
    fn openings_are_legal_varied_balanced_and_seeded() {
        let request = Request {
            count: 12,
            seed: 3,
            book: None,
            dfrc: false,
        };
        let a = lines(&request);
        assert_eq!(a, lines(&request));
        assert_ne!(
            a,
            lines(&Request {
                seed: 4,
                ..request.clone()
            })
        );
        assert_eq!(a.len(), 12);
        let distinct: std::collections::HashSet<&String> = a.iter().collect();
        assert!(distinct.len() >= 11, "{a:?}");
        let tt = TranspositionTable::new(1);
        let mut searcher = Searcher::<ChessGame>::new();
        let mut balanced_count = 0;
        for line in &a {
            let fen = line.strip_prefix("info string genfens ").expect("prefix");
            let pos = Position::from_fen(fen, false).expect("legal FEN");
            assert!(!pos.legal_moves().is_empty());
            // Eight plies from the start: the full-move number says so.
            assert_eq!(pos.fullmove_number(), 5, "{fen}");
            if balanced(
                &pos,
                &crate::eval::nnue::default_network(),
                &mut searcher,
                &tt,
            ) {
                balanced_count += 1;
            }
        }
        assert_eq!(balanced_count, a.len());
    }

    #[test]
    fn book_positions_are_used_and_dfrc_starts_vary() {
        let dir = std::env::temp_dir().join(format!("corvid-genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let book = dir.join("book.epd");
        std::fs::write(
            &book,
            "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - c0 \"d4 Nf6\";\nnot a fen\n",
        )
        .expect("write");
        let request = Request {
            count: 4,
            seed: 9,
            book: Some(book.display().to_string()),
            dfrc: false,
        };
        for line in lines(&request) {
            let fen = line.strip_prefix("info string genfens ").expect("prefix");
            let pos = Position::from_fen(fen, false).expect("legal");
            // Two plies after the book position (White to move there).
            assert_eq!(pos.fullmove_number(), 2, "{fen}");
            assert!(pos.pieces(crate::chess::PieceType::Pawn).count_ones() >= 15);
        }
        let missing = Request {
            book: Some(dir.join("none.epd").display().to_string()),
            ..request
        };
        assert!(run(&missing, &mut Vec::new()).is_err());
        let dfrc = lines(&Request {
            count: 6,
            seed: 2,
            book: None,
            dfrc: true,
        });
        let back_ranks: std::collections::HashSet<String> = dfrc
            .iter()
            .map(|l| l.split('/').next().unwrap_or("").to_string())
            .collect();
        assert!(back_ranks.len() >= 3, "{dfrc:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
