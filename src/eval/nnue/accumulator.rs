//! Accumulators: the feature transformer's output for both perspectives, kept up to date move by move.
//!
//! A move changes at most four features (castling: king and rook each leave one square and reach another),
//! so a child's accumulator is its parent's plus and minus a few weight rows. The stack follows the search
//! lazily: `push` only records the move's feature changes, and the rows are applied when a position is
//! evaluated (a node cut off by the transposition table, or one whose static evaluation comes from it, never
//! pays for an update).

use super::format::{HIDDEN, INPUTS};
use super::simd::{self, Lanes};
use super::Network;
use crate::chess::types::squares;
use crate::chess::{Color, Move, MoveKind, Piece, PieceType, Position, Square};

/// The feature of `piece` on `sq` from White's perspective: `colour * 384 + type * 64 + square`.
#[inline(always)]
pub fn white_feature(piece: Piece, sq: Square) -> usize {
    piece.color().index() * 384 + piece.kind().index() * 64 + sq.index()
}

/// The same feature from Black's perspective: colours swapped, board mirrored vertically (`sq ^ 56`).
#[inline(always)]
pub fn black_feature(white: usize) -> usize {
    // `^ 56` touches only the square's rank bits, since the colour and type offsets are multiples of 64.
    ((white + 384) % INPUTS) ^ 56
}

/// The feature of `piece` on `sq` for `perspective`, as the format note writes it:
/// `(colour != perspective) * 384 + type * 64 + (sq, or sq ^ 56 for Black)`.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let w = white_feature(piece, sq);
    match perspective {
        Color::White => w,
        Color::Black => black_feature(w),
    }
}

/// Both perspectives' hidden lanes, indexed by colour. Aligned to a cache line.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// `lanes[White]` and `lanes[Black]`.
    pub lanes: [Lanes; 2],
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Accumulator {{ white: {:?}.., black: {:?}.. }}",
            &self.lanes[0][..4],
            &self.lanes[1][..4]
        )
    }
}

impl Accumulator {
    /// All lanes zero.
    pub const ZERO: Accumulator = Accumulator {
        lanes: [[0; HIDDEN]; 2],
    };

    /// The accumulator of `pos` computed from scratch: biases plus the rows of every piece.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            lanes: [net.ft_bias.0; 2],
        };
        for sq in squares(pos.occupied()) {
            if let Some(piece) = pos.piece_on(sq) {
                let w = white_feature(piece, sq);
                for (lanes, f) in acc.lanes.iter_mut().zip([w, black_feature(w)]) {
                    let row = &net.ft_weights[f].0;
                    for (v, r) in lanes.iter_mut().zip(row) {
                        *v = v.wrapping_add(*r);
                    }
                }
            }
        }
        acc
    }
}

/// The feature changes of one move, as White-perspective features (at most 2 added, 2 removed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    add: [u16; 2],
    sub: [u16; 2],
    n_add: u8,
    n_sub: u8,
}

impl Delta {
    #[inline(always)]
    fn add(&mut self, piece: Piece, sq: Square) {
        self.add[self.n_add as usize] = white_feature(piece, sq) as u16;
        self.n_add += 1;
    }

    #[inline(always)]
    fn sub(&mut self, piece: Piece, sq: Square) {
        self.sub[self.n_sub as usize] = white_feature(piece, sq) as u16;
        self.n_sub += 1;
    }

    /// The changes made by the legal move `m` in `pos` (the position before it). Castling is "king takes own
    /// rook", so the king's and rook's squares before and after may coincide in Chess960: removing the king
    /// from its square and adding it back (or the rook likewise) cancels out, so no case needs its own code.
    #[inline(always)]
    pub fn of_move(pos: &Position, m: Move) -> Delta {
        let mut d = Delta::default();
        let (from, to) = (m.from(), m.to());
        let us = pos.side_to_move();
        let Some(moved) = pos.piece_on(from) else {
            return d;
        };
        match m.kind() {
            MoveKind::Castling => {
                let (kto, rto) = Position::castling_targets(from, to);
                let rook = Piece::new(us, PieceType::Rook);
                d.sub(moved, from);
                d.sub(rook, to);
                d.add(moved, kto);
                d.add(rook, rto);
            }
            MoveKind::EnPassant => {
                let victim = Square(if us == Color::White {
                    to.0 - 8
                } else {
                    to.0 + 8
                });
                d.sub(moved, from);
                d.sub(Piece::new(us.flip(), PieceType::Pawn), victim);
                d.add(moved, to);
            }
            kind => {
                d.sub(moved, from);
                if let Some(captured) = pos.piece_on(to) {
                    d.sub(captured, to);
                }
                let placed = match (kind, m.promotion_piece()) {
                    (MoveKind::Promotion, Some(p)) => Piece::new(us, p),
                    _ => moved,
                };
                d.add(placed, to);
            }
        }
        d
    }

    /// `dst = src + this delta` for both perspectives.
    #[inline(always)]
    fn apply(&self, net: &Network, src: &Accumulator, dst: &mut Accumulator) {
        let rows = &net.ft_weights;
        for (persp, (d, s)) in dst.lanes.iter_mut().zip(&src.lanes).enumerate() {
            let f = |w: u16| {
                let w = w as usize;
                if persp == 0 {
                    w
                } else {
                    black_feature(w)
                }
            };
            let a = |k: usize| &rows[f(self.add[k])].0;
            let s_ = |k: usize| &rows[f(self.sub[k])].0;
            match (self.n_add, self.n_sub) {
                (1, 1) => simd::add_sub(d, s, [a(0)], [s_(0)]),
                (1, 2) => simd::add_sub(d, s, [a(0)], [s_(0), s_(1)]),
                (2, 2) => simd::add_sub(d, s, [a(0), a(1)], [s_(0), s_(1)]),
                // A null move (no change); no legal move has another shape.
                _ => *d = *s,
            }
        }
    }
}

/// What the stack knows about one ply.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// The move's changes from the entry below.
    delta: Delta,
    /// Has `entries[i]` been brought up to date?
    computed: bool,
}

/// The accumulators along the current line, one per position of the game's stack (the bottom one always
/// computed). `push`/`pop` are allocation-free once the stack has reached its depth (see `reserve`).
pub struct AccumulatorStack {
    /// Never shrinks: entries above `top` are stale storage reused by later pushes.
    entries: Vec<Accumulator>,
    slots: Vec<Slot>,
    top: usize,
}

impl Clone for AccumulatorStack {
    /// Copies only the live part (the search clones the game once per thread).
    fn clone(&self) -> Self {
        AccumulatorStack {
            entries: self.entries[..=self.top].to_vec(),
            slots: self.slots[..=self.top].to_vec(),
            top: self.top,
        }
    }
}

impl std::fmt::Debug for AccumulatorStack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AccumulatorStack(depth {})", self.depth())
    }
}

impl AccumulatorStack {
    /// A stack holding `pos`'s accumulator.
    pub fn new(net: &Network, pos: &Position) -> AccumulatorStack {
        let mut s = AccumulatorStack {
            entries: vec![Accumulator::ZERO],
            slots: vec![Slot::default()],
            top: 0,
        };
        s.reset(net, pos);
        s
    }

    /// Forgets the line and starts again from `pos`.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        self.entries[0] = Accumulator::refresh(net, pos);
        self.slots[0].computed = true;
    }

    /// Room for `plies` more pushes without allocating.
    pub fn reserve(&mut self, plies: usize) {
        let want = self.top + 1 + plies;
        if self.entries.len() < want {
            self.entries.resize(want, Accumulator::ZERO);
            self.slots.resize(want, Slot::default());
        }
    }

    /// Records a move (or, with `Delta::default()`, a null move); its accumulator is computed on demand.
    #[inline(always)]
    pub fn push(&mut self, delta: Delta) {
        self.top += 1;
        if self.top == self.entries.len() {
            // Only beyond the reserved depth.
            self.entries.push(Accumulator::ZERO);
            self.slots.push(Slot::default());
        }
        self.slots[self.top] = Slot {
            delta,
            computed: false,
        };
    }

    /// Takes back the last push (the bottom entry stays).
    #[inline(always)]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// Number of entries above the bottom one.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// The current accumulator, brought up to date from the nearest computed one below.
    #[inline]
    pub fn current(&mut self, net: &Network) -> &Accumulator {
        let mut base = self.top;
        while !self.slots[base].computed {
            base -= 1;
        }
        for i in base + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(i);
            self.slots[i].delta.apply(net, &below[i - 1], &mut above[0]);
            self.slots[i].computed = true;
        }
        &self.entries[self.top]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_follow_the_format_note_for_every_piece_and_square() {
        let mut seen = [[false; INPUTS]; 2];
        for color in Color::BOTH {
            for kind in PieceType::ALL {
                for s in 0..64u8 {
                    let piece = Piece::new(color, kind);
                    for (p, persp) in Color::BOTH.into_iter().enumerate() {
                        let sq = if persp == Color::White { s } else { s ^ 56 } as usize;
                        let want = (color != persp) as usize * 384 + kind.index() * 64 + sq;
                        let got = feature(persp, piece, Square(s));
                        assert_eq!(got, want, "{color:?} {kind:?} {s} for {persp:?}");
                        seen[p][got] = true;
                    }
                }
            }
        }
        // Each perspective uses every feature exactly once.
        assert!(seen.iter().flatten().all(|&s| s));
    }
}
