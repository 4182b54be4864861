//! The Makromachy position: a 20x20 mailbox (the 14x14 board inside a 3-square border, so that every leap up to
//! the Zebra's and the Camel's lands either on the board or on a sentinel, with no bounds arithmetic), side to
//! move, castling rights, en-passant squares, clocks and the Zobrist key.

use super::features::{unpack, Placement, MOBILITY_REACH, PACKED_PLACEMENT};
use super::geometry::*;
use super::pieces::{Kind, KIND_COUNT};
use crate::rng::next_in;
use crate::types::Color;
use std::fmt;

pub const STARTPOS: &str =
    "djivcgulkcvijd/wwwzrftqfrzwww/bhnmeossoeanhb/pppppppppppppp/14/14/14/14/14/14/\
PPPPPPPPPPPPPP/BHNMEOSSOEANHB/WWWZRFTQFRZWWW/DJIVCGULKCVIJD w KQkq - 0 1";

/// For each piece code, the `LINES` (bit `i` for `LINES[i]`) its mobility is counted along: those of a
/// long-range piece (slider, flyer, Cannon, Vao), none for the others, empty squares and the border.
static MOBILITY_LINES: [u8; 256] = {
    let mut t = [0; 256];
    let mut c = 0;
    while c < 256 {
        let code = c as u8;
        if is_kind_code(code) {
            let kind = kind_of(code);
            if kind.moves_along_orthogonals() {
                t[c] |= 0x0F;
            }
            if kind.moves_along_diagonals() {
                t[c] |= 0xF0;
            }
        }
        c += 1;
    }
    t
};

/// Zobrist keys, made at compile time: one per (piece code, mailbox square), side, castling mask and
/// en-passant square.
pub struct Keys {
    pub piece: [[u64; MAILBOX]; 64],
    pub side: u64,
    pub castling: [u64; 16],
    pub ep: [u64; MAILBOX],
}

const fn make_keys() -> Keys {
    let mut k = Keys {
        piece: [[0; MAILBOX]; 64],
        side: 0,
        castling: [0; 16],
        ep: [0; MAILBOX],
    };
    let mut state = 0x4D41_4B52_u64;
    let mut c = 0;
    while c < 64 {
        let mut s = 0;
        while s < MAILBOX {
            k.piece[c][s] = next_in(&mut state);
            s += 1;
        }
        c += 1;
    }
    k.side = next_in(&mut state);
    let mut m = 1;
    while m < 16 {
        k.castling[m] = next_in(&mut state);
        m += 1;
    }
    let mut s = 0;
    while s < MAILBOX {
        k.ep[s] = next_in(&mut state);
        s += 1;
    }
    k
}

pub static KEYS: Keys = make_keys();

/// Castling rights: White's n-file (king-side) and a-file (queen-side) Dragon Kings, then Black's.
pub const WHITE_KING_SIDE: u8 = 1;
pub const WHITE_QUEEN_SIDE: u8 = 2;
pub const BLACK_KING_SIDE: u8 = 4;
pub const BLACK_QUEEN_SIDE: u8 = 8;

#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [u8; MAILBOX],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    /// Squares passed over by the last multi-step advance (0 = none), capturable en passant.
    pub(crate) ep: [Sq; 2],
    /// Where the piece that made that advance stands.
    pub(crate) ep_victim: Sq,
    /// True when some en-passant capture is actually legal (only then are the e.p. squares part of the key).
    pub(crate) ep_live: bool,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    pub(crate) kings: [Sq; 2],
    /// Is the side to move in check? Computed once per move (the search, the generator and the evaluation of
    /// checks all ask).
    pub(crate) checked: bool,
    /// When in check: the squares one checking attack depends on (see `movegen::attack_path`).
    pub(crate) check_path: [u64; OCC_WORDS],
    /// Pieces per side, kept up to date by `put`/`remove` (the bare-Kings rule asks at every node).
    pub(crate) counts: [u8; 2],
    /// Each side's occupied squares, one bit per mailbox index: generation and evaluation visit the pieces
    /// without scanning all 196 squares.
    pub(crate) occ: [[u64; OCC_WORDS]; 2],
    /// The long-range pieces among them (sliders, flyers, Cannons, Vaos): the mobility term visits only
    /// these.
    pub(crate) long: [[u64; OCC_WORDS]; 2],
    /// Each side's pieces of each kind (by `Kind::index()`), kept by `put`/`remove`.
    pub(crate) kinds: [[u8; KIND_COUNT]; 2],
    /// Each side's placement features (`features::Placement`, packed in lanes by `features::pack`), kept by
    /// `put`/`remove`.
    pub(crate) placement: [u64; 2],
    /// Each side's mobility count: the empty squares its long-range pieces see, at most
    /// `features::MOBILITY_REACH` per line. Kept by `put`/`remove`, which also update the pieces whose lines
    /// the changed square opens or closes.
    pub(crate) mobility: [i32; 2],
}

/// Words of an occupancy set over the mailbox.
pub const OCC_WORDS: usize = MAILBOX.div_ceil(64);

impl Position {
    pub(crate) fn empty() -> Position {
        let mut board = [OFF; MAILBOX];
        for r in 0..RANKS {
            for f in 0..FILES {
                board[sq(f, r) as usize] = EMPTY;
            }
        }
        Position {
            board,
            side: Color::White,
            castling: 0,
            ep: [0; 2],
            ep_victim: 0,
            ep_live: false,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            kings: [0; 2],
            checked: false,
            check_path: [0; OCC_WORDS],
            counts: [0; 2],
            occ: [[0; OCC_WORDS]; 2],
            long: [[0; OCC_WORDS]; 2],
            kinds: [[0; KIND_COUNT]; 2],
            placement: [0; 2],
            mobility: [0; 2],
        }
    }

    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS).expect("start FEN is valid")
    }

    #[inline(always)]
    pub fn at(&self, s: Sq) -> u8 {
        self.board[s as usize]
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, s: Sq) -> Option<(Color, Kind)> {
        let c = self.at(s);
        is_piece(c).then(|| (color_of(c), kind_of(c)))
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    pub fn key(&self) -> u64 {
        self.key
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    pub fn king_square(&self, color: Color) -> Sq {
        self.kings[color.index()]
    }

    /// The en-passant squares, when an en-passant capture is really possible.
    pub fn live_ep_squares(&self) -> Vec<Sq> {
        if self.ep_live {
            self.ep.iter().copied().filter(|&s| s != 0).collect()
        } else {
            Vec::new()
        }
    }

    /// Puts piece `c` on the empty square `s`.
    #[inline(always)]
    pub(crate) fn put(&mut self, s: Sq, c: u8) {
        self.change_lines_through(s, -1);
        self.place(s, c);
    }

    /// Takes the piece off `s` and returns it.
    #[inline(always)]
    pub(crate) fn remove(&mut self, s: Sq) -> u8 {
        let c = self.lift(s);
        self.change_lines_through(s, 1);
        c
    }

    /// Replaces the piece on `s` (a capture) by `c`: the square stays occupied, so no other piece's lines
    /// change.
    #[inline(always)]
    pub(crate) fn replace(&mut self, s: Sq, c: u8) -> u8 {
        let old = self.lift(s);
        self.place(s, c);
        old
    }

    /// `put` but for the other pieces' mobility.
    #[inline(always)]
    fn place(&mut self, s: Sq, c: u8) {
        self.board[s as usize] = c;
        let side = color_of(c).index();
        self.key ^= KEYS.piece[c as usize & 63][s as usize];
        self.counts[side] += 1;
        self.occ[side][s as usize >> 6] |= 1 << (s & 63);
        self.long[side][s as usize >> 6] |= (is_long_range(c) as u64) << (s & 63);
        self.kinds[side][kind_of(c).index()] += 1;
        self.placement[side] += PACKED_PLACEMENT[c as usize & 63][s as usize];
        self.mobility[side] += self.lines_seen_from(s, c);
        if kind_of(c) == Kind::King {
            self.kings[side] = s;
        }
    }

    /// `remove` but for the other pieces' mobility.
    #[inline(always)]
    fn lift(&mut self, s: Sq) -> u8 {
        let c = self.board[s as usize];
        let side = color_of(c).index();
        self.board[s as usize] = EMPTY;
        self.key ^= KEYS.piece[c as usize & 63][s as usize];
        self.counts[side] -= 1;
        self.occ[side][s as usize >> 6] &= !(1 << (s & 63));
        self.long[side][s as usize >> 6] &= !(1 << (s & 63));
        self.kinds[side][kind_of(c).index()] -= 1;
        self.placement[side] -= PACKED_PLACEMENT[c as usize & 63][s as usize];
        self.mobility[side] -= self.lines_seen_from(s, c);
        c
    }

    /// The mobility count of piece `c` standing on `s` (0 for a piece that does not move along lines).
    #[inline(always)]
    fn lines_seen_from(&self, s: Sq, c: u8) -> i32 {
        let mut dirs = MOBILITY_LINES[c as usize];
        let mut n = 0;
        while dirs != 0 {
            let d = LINES[dirs.trailing_zeros() as usize];
            dirs &= dirs - 1;
            n += self.empty_run(s as i32, d, MOBILITY_REACH);
        }
        n
    }

    /// Empty squares from `s` (exclusive) along `d`, at most `limit`.
    #[inline(always)]
    fn empty_run(&self, s: i32, d: i32, limit: i32) -> i32 {
        let mut n = 0;
        let mut q = s + d;
        while n < limit && self.board[q as usize] == EMPTY {
            n += 1;
            q += d;
        }
        n
    }

    /// Square `s` became empty (`sign` 1) or is about to be filled (`sign` -1; it is empty now): the nearest
    /// long-range piece behind it on each line, if within reach and moving along that line, sees `s` and up
    /// to the rest of its reach beyond it, or stops before `s`.
    #[inline(always)]
    fn change_lines_through(&mut self, s: Sq, sign: i32) {
        let s = s as i32;
        for (i, &d) in LINES.iter().enumerate() {
            let mut q = s - d;
            let mut j = 1;
            while j <= MOBILITY_REACH && self.board[q as usize] == EMPTY {
                q -= d;
                j += 1;
            }
            if j > MOBILITY_REACH {
                continue;
            }
            let c = self.board[q as usize];
            if MOBILITY_LINES[c as usize] & (1 << i) != 0 {
                let gain = 1 + self.empty_run(s, d, MOBILITY_REACH - j);
                self.mobility[color_of(c).index()] += sign * gain;
            }
        }
    }

    /// The key from scratch (tests hold the incremental key against it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for r in 0..RANKS {
            for f in 0..FILES {
                let s = sq(f, r);
                let c = self.at(s);
                if is_piece(c) {
                    key ^= KEYS.piece[c as usize & 63][s as usize];
                }
            }
        }
        if self.side == Color::Black {
            key ^= KEYS.side;
        }
        key ^= KEYS.castling[self.castling as usize];
        if self.ep_live {
            for s in self.ep {
                if s != 0 {
                    key ^= KEYS.ep[s as usize];
                }
            }
        }
        key
    }

    /// Number of pieces of each side (for the bare-kings rule and the evaluation).
    pub fn piece_count(&self, color: Color) -> usize {
        self.counts[color.index()] as usize
    }

    /// Each side's mobility count (White's first), kept incrementally: the empty squares its long-range
    /// pieces see, at most [`MOBILITY_REACH`] a line.
    #[inline(always)]
    pub fn mobility(&self) -> [i32; 2] {
        self.mobility
    }

    /// `color`'s pieces of each kind, by `Kind::index()`, kept incrementally.
    #[inline(always)]
    pub fn kind_counts(&self, color: Color) -> &[u8; KIND_COUNT] {
        &self.kinds[color.index()]
    }

    /// `color`'s placement features summed over its pieces (see [`super::features`]), kept incrementally.
    #[inline(always)]
    pub fn placement(&self, color: Color) -> Placement {
        unpack(self.placement[color.index()])
    }

    /// Calls `f` with the square of every long-range piece (slider, flyer, Cannon, Vao) of `color`.
    #[inline(always)]
    pub fn for_each_long_range_piece(&self, color: Color, mut f: impl FnMut(Sq)) {
        for (w, &word) in self.long[color.index()].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f((w * 64 + bits.trailing_zeros() as usize) as Sq);
                bits &= bits - 1;
            }
        }
    }

    /// Calls `f` with the square of every piece of `color`, in mailbox order (rank by rank from a1).
    #[inline(always)]
    pub fn for_each_piece(&self, color: Color, mut f: impl FnMut(Sq)) {
        for (w, &word) in self.occ[color.index()].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f((w * 64 + bits.trailing_zeros() as usize) as Sq);
                bits &= bits - 1;
            }
        }
    }

    /// The board as text, rank 14 at the top.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        for r in (0..RANKS).rev() {
            s.push_str(&format!("{:>2} ", r + 1));
            for f in 0..FILES {
                let c = self.at(sq(f, r));
                let ch = if is_piece(c) {
                    let l = kind_of(c).letter();
                    if color_of(c) == Color::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    }
                } else {
                    '.'
                };
                s.push(' ');
                s.push(ch);
            }
            s.push('\n');
        }
        s.push_str("    a b c d e f g h i j k l m n\n");
        s
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "makro::Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::super::features::{piece_placement, relative_rank};
    use super::*;

    /// `pos`'s features counted piece by piece: pieces per kind, placement and mobility of each side.
    fn recount(pos: &Position) -> ([[u8; KIND_COUNT]; 2], [Placement; 2], [i32; 2]) {
        let (mut kinds, mut placement, mut mobility) =
            ([[0; KIND_COUNT]; 2], [Placement::default(); 2], [0; 2]);
        for r in 0..RANKS {
            for f in 0..FILES {
                let s = sq(f, r);
                let Some((color, kind)) = pos.piece_at(s) else {
                    continue;
                };
                let i = color.index();
                kinds[i][kind.index()] += 1;
                let p = piece_placement(kind, f, relative_rank(color, r));
                placement[i].pawn_advance += p.pawn_advance;
                placement[i].warrior_advance += p.warrior_advance;
                placement[i].centralisation += p.centralisation;
                for (l, &d) in LINES.iter().enumerate() {
                    let along = if l < 4 {
                        kind.moves_along_orthogonals()
                    } else {
                        kind.moves_along_diagonals()
                    };
                    let mut q = s as i32 + d;
                    let mut n = 0;
                    while along && n < MOBILITY_REACH && pos.at(q as Sq) == EMPTY {
                        n += 1;
                        q += d;
                    }
                    mobility[i] += n;
                }
            }
        }
        (kinds, placement, mobility)
    }

    #[test]
    fn incremental_features_match_a_recount() {
        // Random games from the start: after every move the counts kept by `put`/`remove` equal the features
        // counted piece by piece (captures, promotions, castling, hit-and-run and e.p. all pass through).
        let mut rng = crate::rng::Rng::new(0x1234_5678_9ABC_DEF1);
        for _game in 0..6 {
            let mut pos = Position::startpos();
            for _ply in 0..160 {
                let (kinds, placement, mobility) = recount(&pos);
                for color in Color::BOTH {
                    let i = color.index();
                    assert_eq!(pos.kind_counts(color), &kinds[i], "{}", pos.to_fen());
                    assert_eq!(pos.placement(color), placement[i], "{}", pos.to_fen());
                    let total: usize = kinds[i].iter().map(|&n| n as usize).sum();
                    assert_eq!(pos.piece_count(color), total, "{}", pos.to_fen());
                }
                assert_eq!(pos.mobility(), mobility, "{}", pos.to_fen());
                // The long-range set is exactly the long-range pieces.
                for color in Color::BOTH {
                    let (mut kept, mut all) = (Vec::new(), Vec::new());
                    pos.for_each_long_range_piece(color, |s| kept.push(s));
                    pos.for_each_piece(color, |s| {
                        if is_long_range(pos.at(s)) {
                            all.push(s);
                        }
                    });
                    assert_eq!(kept, all, "{}", pos.to_fen());
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures and promotions now and then, so material changes hands.
                let noisy = pos.legal_noisy_moves();
                let m = if !noisy.is_empty() && rng.below(3) == 0 {
                    noisy[rng.below(noisy.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.make_move(m);
            }
        }
    }
}
