//! Syzygy tablebases for orthodox chess, probed through the `pyrrhic-rs` library (a Rust port of Pyrrhic,
//! itself Fathom's descendant), for the search (WDL inside the tree) and the root (DTZ ranking).
//!
//! The library keeps its tables in process-wide state and allows one loaded set at a time, so the tables are
//! process-wide here too: [`set_path`] replaces them for every engine in the process. Probes hold a read
//! lock, so a new path is installed only between probes. The library reads our attack tables through
//! [`Adapter`]; positions are handed over as bitboards, with no conversion to another position type.
//!
//! Chess960 positions are probed like any other once no castling right is left (the tables know nothing of
//! castling, and without the right a Chess960 position is an ordinary one).

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, RwLock};

use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TableBases, WdlProbeResult};

use crate::chess::attacks;
use crate::chess::moves::{Move, MoveKind};
use crate::chess::{Color, PieceType, Position, Square};
use crate::game::{TbRootMove, Wdl};

/// The most pieces (kings included) the library can probe.
pub const MAX_PIECES: u32 = 7;

/// Directory separator in `SyzygyPath`, as Stockfish has it.
#[cfg(windows)]
pub const PATH_SEPARATOR: char = ';';
/// Directory separator in `SyzygyPath`, as Stockfish has it.
#[cfg(not(windows))]
pub const PATH_SEPARATOR: char = ':';

/// Our move generation's attack sets, for the library's own move generation inside a probe.
#[derive(Clone, Copy, Debug, Default)]
pub struct Adapter;

impl EngineAdapter for Adapter {
    #[inline(always)]
    fn pawn_attacks(color: pyrrhic_rs::Color, square: u64) -> u64 {
        let c = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        attacks::pawn_attacks(c, Square(square as u8))
    }
    #[inline(always)]
    fn knight_attacks(square: u64) -> u64 {
        attacks::knight_attacks(Square(square as u8))
    }
    #[inline(always)]
    fn bishop_attacks(square: u64, occupied: u64) -> u64 {
        attacks::bishop_attacks(Square(square as u8), occupied)
    }
    #[inline(always)]
    fn rook_attacks(square: u64, occupied: u64) -> u64 {
        attacks::rook_attacks(Square(square as u8), occupied)
    }
    #[inline(always)]
    fn queen_attacks(square: u64, occupied: u64) -> u64 {
        attacks::queen_attacks(Square(square as u8), occupied)
    }
    #[inline(always)]
    fn king_attacks(square: u64) -> u64 {
        attacks::king_attacks(Square(square as u8))
    }
}

/// What a successful [`set_path`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadSummary {
    /// Table files (`.rtbw` and `.rtbz`) in the directories.
    pub files: usize,
    /// The most pieces (kings included) of any WDL table found.
    pub max_pieces: u32,
}

/// Why [`set_path`] refused a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbError {
    /// No WDL table file in any of the directories (each unreadable one is listed with the reason).
    NoTables {
        /// The path as given.
        path: String,
        /// Directories that could not be read, with the system's reason.
        unreadable: Vec<(String, String)>,
    },
    /// A directory name holds the library's own separator `:` (a Windows drive letter): the library would
    /// split it.
    Unsupported(String),
    /// The library refused the tables (damaged files); no tables are loaded now.
    Library(String),
}

impl std::fmt::Display for TbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TbError::NoTables { path, unreadable } => {
                write!(f, "no Syzygy tablebase files in '{path}'")?;
                for (dir, why) in unreadable {
                    write!(f, "; cannot read '{dir}' ({why})")?;
                }
                write!(f, "; the previous tables stay")
            }
            TbError::Unsupported(dir) => write!(
                f,
                "tablebase directory '{dir}' contains ':', which the probing library cannot take (use a \
                 relative path); the previous tables stay"
            ),
            TbError::Library(why) => {
                write!(f, "the tablebases could not be loaded ({why}); none are loaded")
            }
        }
    }
}

impl std::error::Error for TbError {}

/// The loaded tables, if any. Probes read; `set_path` writes.
static TABLES: RwLock<Option<Loaded>> = RwLock::new(None);
/// The largest table's piece count (0 when none is loaded), readable without the lock.
static LARGEST: AtomicU32 = AtomicU32::new(0);
/// Root probes one at a time: the library's DTZ root probe is documented as not thread-safe.
static ROOT_PROBE: Mutex<()> = Mutex::new(());

struct Loaded {
    tables: TableBases<Adapter>,
    /// The directories as handed to the library (`:`-separated).
    path: String,
    /// The most pieces of a WDL table found there.
    max_pieces: u32,
}

/// The most pieces (kings included) the loaded tables cover; 0 when none are loaded.
#[inline(always)]
pub fn largest() -> u32 {
    LARGEST.load(Ordering::Relaxed)
}

/// If `name` is a Syzygy table file name for orthodox chess (`KRPvKB.rtbw`, `KQvK.rtbz`): its piece count
/// and whether it is a WDL table.
fn table_file(name: &str) -> Option<(u32, bool)> {
    let (stem, ext) = name.rsplit_once('.')?;
    if ext != "rtbw" && ext != "rtbz" {
        return None;
    }
    let (a, b) = stem.split_once('v')?;
    let side = |s: &str| s.starts_with('K') && s[1..].chars().all(|c| "QRBNP".contains(c));
    let pieces = (a.len() + b.len()) as u32;
    (side(a) && side(b) && pieces <= MAX_PIECES).then_some((pieces, ext == "rtbw"))
}

/// Loads the tables in `path` (directories separated by [`PATH_SEPARATOR`]); `""` or `<empty>` unloads them
/// (`Ok(None)`). A path without any table file is refused and the tables loaded before stay.
pub fn set_path(path: &str) -> Result<Option<LoadSummary>, TbError> {
    let path = path.trim();
    if path.is_empty() || path == "<empty>" {
        let mut guard = TABLES.write().unwrap_or_else(|e| e.into_inner());
        LARGEST.store(0, Ordering::Relaxed);
        *guard = None;
        return Ok(None);
    }
    let dirs: Vec<&str> = path
        .split(PATH_SEPARATOR)
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .collect();
    let mut files = 0;
    // The library's own count is no help: pyrrhic-rs 0.2.0 takes every table name for present (its file test
    // answers -1, not 0, for a missing file) and so always reports 7 pieces. The WDL files found decide.
    let mut max_pieces = 0;
    let mut unreadable = Vec::new();
    for dir in &dirs {
        if dir.contains(':') {
            return Err(TbError::Unsupported(dir.to_string()));
        }
        match std::fs::read_dir(dir) {
            Ok(entries) => {
                for e in entries.filter_map(Result::ok) {
                    if e.file_type().is_ok_and(|t| t.is_dir()) {
                        continue;
                    }
                    if let Some((pieces, wdl)) = e.file_name().to_str().and_then(table_file) {
                        files += 1;
                        if wdl {
                            max_pieces = max_pieces.max(pieces);
                        }
                    }
                }
            }
            Err(e) => unreadable.push((dir.to_string(), e.to_string())),
        }
    }
    if max_pieces == 0 {
        return Err(TbError::NoTables {
            path: path.to_string(),
            unreadable,
        });
    }
    let joined = dirs.join(":");
    let mut guard = TABLES.write().unwrap_or_else(|e| e.into_inner());
    LARGEST.store(0, Ordering::Relaxed);
    // The library holds one set of tables at a time: the old set must be freed before the new one loads.
    let old = guard.take().map(|l| (l.path.clone(), l.max_pieces));
    match TableBases::<Adapter>::new(&joined) {
        Ok(tables) => {
            LARGEST.store(max_pieces, Ordering::Relaxed);
            *guard = Some(Loaded {
                tables,
                path: joined,
                max_pieces,
            });
            Ok(Some(LoadSummary { files, max_pieces }))
        }
        Err(e) => {
            // Best effort: bring the previous tables back.
            if let Some((old, old_max)) = old {
                if let Ok(tables) = TableBases::<Adapter>::new(&old) {
                    LARGEST.store(old_max, Ordering::Relaxed);
                    *guard = Some(Loaded {
                        tables,
                        path: old,
                        max_pieces: old_max,
                    });
                    return Err(TbError::Library(format!(
                        "{e:?}; the previous tables were reloaded"
                    )));
                }
            }
            Err(TbError::Library(format!("{e:?}")))
        }
    }
}

/// The position as the library takes it: colour and piece bitboards, en-passant square (0 for none), turn.
struct Board {
    /// White's and Black's pieces, then the kings, queens, rooks, bishops, knights and pawns: the order in
    /// which every probe takes them.
    sets: [u64; 8],
    ep: u32,
    white_to_move: bool,
}

impl Board {
    fn of(pos: &Position) -> Board {
        use PieceType::*;
        Board {
            sets: [
                pos.color_bb(Color::White),
                pos.color_bb(Color::Black),
                pos.pieces(King),
                pos.pieces(Queen),
                pos.pieces(Rook),
                pos.pieces(Bishop),
                pos.pieces(Knight),
                pos.pieces(Pawn),
            ],
            // Our en-passant square is set only when the capture is legal, as the library expects.
            ep: pos.ep_square().map_or(0, |s| s.0 as u32),
            white_to_move: pos.side_to_move() == Color::White,
        }
    }
}

/// Can the loaded tables answer for `pos` at all (few enough pieces, no castling right)?
#[inline(always)]
fn covered(pos: &Position) -> bool {
    pos.occupied().count_ones() <= largest() && pos.castling_rights().0 == 0
}

fn wdl_of(r: WdlProbeResult) -> Wdl {
    match r {
        WdlProbeResult::Loss => Wdl::Loss,
        WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
        WdlProbeResult::Draw => Wdl::Draw,
        WdlProbeResult::CursedWin => Wdl::CursedWin,
        WdlProbeResult::Win => Wdl::Win,
    }
}

/// Runs `probe` on the loaded tables and `pos`'s bitboards, when the tables cover `pos`.
fn with_tables<T>(pos: &Position, probe: impl FnOnce(&Loaded, &Board) -> Option<T>) -> Option<T> {
    if !covered(pos) {
        return None;
    }
    let guard = TABLES.read().unwrap_or_else(|e| e.into_inner());
    probe(guard.as_ref()?, &Board::of(pos))
}

/// The WDL verdict for `pos` as if its 50-move count were zero (the WDL tables know no other), when the
/// loaded tables cover it.
pub fn probe_wdl(pos: &Position) -> Option<Wdl> {
    with_tables(pos, |loaded, b| {
        let [w, bl, k, q, r, bi, n, p] = b.sets;
        let (ep, turn) = (b.ep, b.white_to_move);
        let result = loaded.tables.probe_wdl(w, bl, k, q, r, bi, n, p, ep, turn);
        result.ok().map(wdl_of)
    })
}

/// The library's root probe: the position's own value and one value per legal move.
fn probe_root_raw(pos: &Position) -> Option<pyrrhic_rs::DtzProbeResult> {
    with_tables(pos, |loaded, b| {
        let _one_at_a_time = ROOT_PROBE.lock().unwrap_or_else(|e| e.into_inner());
        let [w, bl, k, q, r, bi, n, p] = b.sets;
        let rule50 = u32::from(pos.halfmove_clock().min(255));
        let (ep, turn) = (b.ep, b.white_to_move);
        let result = loaded
            .tables
            .probe_root(w, bl, k, q, r, bi, n, p, rule50, ep, turn);
        result.ok()
    })
}

/// Signed DTZ from a WDL and an unsigned distance: positive when the side to move wins (cursed or not).
fn signed(wdl: WdlProbeResult, dtz: u16) -> i32 {
    match wdl {
        WdlProbeResult::Win | WdlProbeResult::CursedWin => dtz as i32,
        WdlProbeResult::Draw => 0,
        WdlProbeResult::Loss | WdlProbeResult::BlessedLoss => -(dtz as i32),
    }
}

/// The DTZ of `pos` (plies to the next capture or pawn move with best play, positive when the side to move
/// wins, negative when it loses (-1 when checkmated), 0 for a draw or a stalemate; a cursed win counts over
/// 100), when the loaded tables cover it. The 50-move count of `pos` plays no part.
pub fn probe_dtz(pos: &Position) -> Option<i32> {
    let mut zeroed = *pos;
    zeroed.halfmove = 0;
    match probe_root_raw(&zeroed)?.root {
        // A mated side has lost with the next "zeroing" already past: -1, as the DTZ probe of the reference
        // code (and python-chess) answers.
        DtzProbeValue::Checkmate => Some(-1),
        DtzProbeValue::Stalemate => Some(0),
        DtzProbeValue::DtzResult(r) => Some(signed(r.wdl, r.dtz)),
        DtzProbeValue::Failed => None,
    }
}

/// Rank bounds, as Stockfish's root ranking has them: wins rank near `MAX_RANK`, losses near `-MAX_RANK`.
const MAX_RANK: i32 = 1 << 18;

/// The library's encoding of a promotion piece back to ours.
fn promotion_of(p: pyrrhic_rs::Piece) -> Option<PieceType> {
    match p {
        pyrrhic_rs::Piece::Queen => Some(PieceType::Queen),
        pyrrhic_rs::Piece::Rook => Some(PieceType::Rook),
        pyrrhic_rs::Piece::Bishop => Some(PieceType::Bishop),
        pyrrhic_rs::Piece::Knight => Some(PieceType::Knight),
        _ => None,
    }
}

/// Ranks the root moves `moves` of `pos` by DTZ as Stockfish does, so that a won position is converted and a
/// drawn one never spoiled. The rank of a move that wins: the best while the win still comes within the 50-move
/// rule with room to spare and no repetition has happened (`has_repeated`), the quicker the better otherwise
/// (so that the search cannot shuffle forever); a draw ranks 0; a loss ranks low, the later the better once
/// the 50-move rule might save it. `rule50`: whether wins and losses beyond the rule's reach count as draws.
pub fn rank_root_moves(
    pos: &Position,
    moves: &[Move],
    has_repeated: bool,
    rule50: bool,
) -> Option<Vec<TbRootMove>> {
    let probe = probe_root_raw(pos)?;
    let cnt50 = pos.halfmove_clock() as i32;
    let bound = if rule50 { MAX_RANK - 100 } else { 1 };
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let promo = if m.kind() == MoveKind::Promotion {
            m.promotion_piece()
        } else {
            None
        };
        let found = probe.moves[..probe.num_moves]
            .iter()
            .find_map(|v| match v {
                DtzProbeValue::DtzResult(r)
                    if r.from_square == m.from().0
                        && r.to_square == m.to().0
                        && promotion_of(r.promotion) == promo =>
                {
                    Some(*r)
                }
                _ => None,
            })?;
        // The library's per-move value: the DTZ after the move, from the root side's view, one ply added.
        let v = signed(found.wdl, found.dtz);
        let rank = if v > 0 {
            if v + cnt50 <= 99 && !has_repeated {
                MAX_RANK
            } else {
                MAX_RANK - (v + cnt50)
            }
        } else if v < 0 {
            if -v * 2 + cnt50 < 100 {
                -MAX_RANK
            } else {
                -MAX_RANK + (-v + cnt50)
            }
        } else {
            0
        };
        let wdl = if rank >= bound {
            Wdl::Win
        } else if rank > 0 {
            Wdl::CursedWin
        } else if rank == 0 {
            Wdl::Draw
        } else if rank > -bound {
            Wdl::BlessedLoss
        } else {
            Wdl::Loss
        };
        out.push(TbRootMove {
            rank,
            wdl,
            dtz: v.abs(),
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_file_names() {
        assert_eq!(table_file("KQvK.rtbw"), Some((3, true)));
        assert_eq!(table_file("KRPvKB.rtbz"), Some((5, false)));
        assert_eq!(table_file("KQvK.txt"), None);
        assert_eq!(table_file("README.md"), None);
        assert_eq!(table_file("KQXvK.rtbw"), None);
        assert_eq!(table_file("QvK.rtbw"), None);
        assert_eq!(table_file("KQQQQvKQQ.rtbw"), None);
    }
}
