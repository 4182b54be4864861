//! Accumulators: the feature transformer's output for both perspectives, kept up to date move by move.
//!
//! A move changes at most four features (castling: king and rook each leave one square and reach another),
//! so a child's accumulator is its parent's plus and minus a few weight rows. The stack follows the search
//! lazily: `push` only records the move's feature changes, and the rows are applied when a position is
//! evaluated (a node cut off by the transposition table, or one whose static evaluation comes from it, never
//! pays for an update).
//!
//! A perspective's view of the board ([`format::king_view`]) follows its own king: in a mirroring net it is
//! file-flipped while that king stands on files e-h, and in a net with king buckets the king's square
//! chooses the feature weights. A king move that changes its side's view changes every feature of that
//! perspective, so the perspective is rebuilt from the [`RefreshCache`] (per perspective and view, the
//! accumulator last built there and the pieces it was built from: only the pieces that differ are added or
//! removed, usually a few rather than all of them); the other perspective is updated incrementally as
//! always. A net with neither never refreshes.

use super::format::{self, HIDDEN, INPUTS};
use super::simd::{self, Lanes};
use super::Network;
use crate::chess::types::{squares, Bitboard};
use crate::chess::{Color, Move, MoveKind, Piece, PieceType, Position, Square};

/// The feature of `piece` on `sq` from White's perspective, unmirrored: `colour * 384 + type * 64 + square`.
#[inline(always)]
pub fn white_feature(piece: Piece, sq: Square) -> usize {
    format::feature_index(
        piece.color() == Color::Black,
        piece.kind().index(),
        sq.index(),
        0,
    )
}

/// The same feature from Black's perspective, unmirrored: colours swapped, board flipped vertically (`sq ^
/// 56`).
#[inline(always)]
pub fn black_feature(white: usize) -> usize {
    // `^ 56` touches only the square's rank bits, since the colour and type offsets are multiples of 64.
    ((white + 384) % INPUTS) ^ 56
}

/// The feature for `perspective` of the piece whose [`white_feature`] is `white`, in the perspective's
/// [`format::king_view`] `view` (`^ 7` flips only the file bits, as `^ 56` flips only the rank bits; the
/// king bucket adds whole blocks of 768).
#[inline(always)]
pub fn perspective_feature(white: usize, perspective: Color, view: usize) -> usize {
    let f = match perspective {
        Color::White => white,
        Color::Black => black_feature(white),
    };
    (f ^ ((view & 1) * 7)) + (view >> 1) * INPUTS
}

/// The feature of `piece` on `sq` for `perspective` by the format's rule ([`format::feature_index`]): the
/// square seen from the perspective (`^ 56` for Black), in the perspective's `view`.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square, view: usize) -> usize {
    let seen = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    format::feature_index(
        piece.color() != perspective,
        piece.kind().index(),
        seen,
        view,
    )
}

/// `perspective`'s own king square as the perspective sees the board (`^ 56` for Black), which decides its
/// view.
#[inline(always)]
pub fn own_king_square(pos: &Position, perspective: Color) -> usize {
    relative_square(pos.king_square(perspective).0, perspective)
}

/// `sq` as `perspective` sees the board.
#[inline(always)]
fn relative_square(sq: u8, perspective: Color) -> usize {
    sq as usize ^ (perspective.index() * 56)
}

/// `perspective`'s view in `pos` under `net` ([`format::king_view`]).
#[inline(always)]
pub fn view(net: &Network, pos: &Position, perspective: Color) -> usize {
    net.views[own_king_square(pos, perspective)] as usize
}

/// The output bucket of `pos` ([`format::output_bucket`] of the number of pieces on the board).
#[inline(always)]
pub fn output_bucket(pos: &Position) -> usize {
    format::output_bucket(pos.occupied().count_ones())
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
        let views = Color::BOTH.map(|p| view(net, pos, p));
        for sq in squares(pos.occupied()) {
            if let Some(piece) = pos.piece_on(sq) {
                let w = white_feature(piece, sq);
                for (p, lanes) in Color::BOTH.into_iter().zip(acc.lanes.iter_mut()) {
                    let row = &net.ft_weights[perspective_feature(w, p, views[p.index()])].0;
                    simd::add_assign(lanes, row);
                }
            }
        }
        acc
    }
}

/// One cached accumulator: a perspective's lanes and the board they were built from.
#[derive(Clone, Copy)]
struct CacheEntry {
    lanes: Lanes,
    /// `pieces[colour][type]`: where each kind of piece stood.
    pieces: [[Bitboard; 6]; 2],
}

/// The refresh cache ("finny table"): for each perspective and view, the accumulator last built there and
/// the pieces it was built from. A refresh starts from that and applies only the pieces that differ, so a
/// king crossing back and forth between two views costs a few rows, not a full rebuild.
#[derive(Clone)]
pub struct RefreshCache {
    /// `entries[perspective * views + view]`.
    entries: Vec<CacheEntry>,
    /// Views per perspective: two per king bucket (mirrored or not).
    views: usize,
}

impl std::fmt::Debug for RefreshCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RefreshCache")
    }
}

impl RefreshCache {
    /// Every entry empty: the biases, built from an empty board.
    pub fn new(net: &Network) -> RefreshCache {
        let mut cache = RefreshCache {
            entries: Vec::new(),
            views: 0,
        };
        cache.clear(net);
        cache
    }

    /// Empties every entry again (for `net`, which may differ from the one before).
    pub fn clear(&mut self, net: &Network) {
        let empty = CacheEntry {
            lanes: net.ft_bias.0,
            pieces: [[0; 6]; 2],
        };
        self.views = 2 * net.king_buckets();
        self.entries.clear();
        self.entries.resize(2 * self.views, empty);
    }

    /// Writes `perspective`'s lanes of `pos` into `out`: the cached entry for its view, brought up to `pos`
    /// by adding the rows of the pieces that arrived and removing those of the pieces that left. The entry
    /// then holds `pos`. Equal to [`Accumulator::refresh`]'s lanes (the i16 sums wrap, so the order does not
    /// matter).
    pub fn refresh(&mut self, net: &Network, pos: &Position, perspective: Color, out: &mut Lanes) {
        let view = view(net, pos, perspective);
        let entry = &mut self.entries[perspective.index() * self.views + view];
        for color in Color::BOTH {
            for kind in PieceType::ALL {
                let now = pos.colored(color, kind);
                let before = entry.pieces[color.index()][kind.index()];
                let piece = Piece::new(color, kind);
                let row = |sq| &net.ft_weights[feature(perspective, piece, sq, view)].0;
                for sq in squares(now & !before) {
                    simd::add_assign(&mut entry.lanes, row(sq));
                }
                for sq in squares(before & !now) {
                    simd::sub_assign(&mut entry.lanes, row(sq));
                }
                entry.pieces[color.index()][kind.index()] = now;
            }
        }
        *out = entry.lanes;
    }
}

/// The feature changes of one move, as White-perspective unmirrored features (at most 2 added, 2 removed),
/// and where the mover's king went if it moved (a net with views may have to refresh that perspective).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    add: [u16; 2],
    sub: [u16; 2],
    n_add: u8,
    n_sub: u8,
    /// The mover's colour index.
    mover: u8,
    /// The mover's king's new square, or [`Delta::NO_KING`] when the king did not move.
    king_to: u8,
}

impl Default for Delta {
    /// No change: a null move.
    fn default() -> Delta {
        Delta {
            add: [0; 2],
            sub: [0; 2],
            n_add: 0,
            n_sub: 0,
            mover: 0,
            king_to: Delta::NO_KING,
        }
    }
}

impl Delta {
    /// `king_to` of a move that leaves the king where it is.
    const NO_KING: u8 = 64;

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
        d.mover = us.index() as u8;
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
                d.king_to = kto.0;
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
                if moved.kind() == PieceType::King {
                    d.king_to = to.0;
                }
            }
        }
        d
    }

    /// `dst = src + this delta` for `perspective`, whose view is `view` on both sides of the move.
    #[inline(always)]
    fn apply(&self, net: &Network, perspective: Color, view: usize, src: &Lanes, dst: &mut Lanes) {
        let rows = &net.ft_weights;
        let f = |w: u16| perspective_feature(w as usize, perspective, view);
        let a = |k: usize| &rows[f(self.add[k])].0;
        let s = |k: usize| &rows[f(self.sub[k])].0;
        match (self.n_add, self.n_sub) {
            (1, 1) => simd::add_sub(dst, src, [a(0)], [s(0)]),
            (1, 2) => simd::add_sub(dst, src, [a(0)], [s(0), s(1)]),
            (2, 2) => simd::add_sub(dst, src, [a(0), a(1)], [s(0), s(1)]),
            // A null move (no change); no legal move has another shape.
            _ => *dst = *src,
        }
    }
}

/// What the stack knows about one ply.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// The move's changes from the entry below.
    delta: Delta,
    /// Each perspective's view in this entry's position.
    view: [u8; 2],
    /// The move into this entry changed the perspective's view: its lanes are refreshed, not updated.
    refresh: [bool; 2],
    /// Has `entries[i].lanes[perspective]` been brought up to date?
    computed: [bool; 2],
}

/// The accumulators along the current line, one per position of the game's stack (the bottom one always
/// computed), and the refresh cache. `push`/`pop` are allocation-free once the stack has reached its depth
/// (see `reserve`).
pub struct AccumulatorStack {
    /// Never shrinks: entries above `top` are stale storage reused by later pushes.
    entries: Vec<Accumulator>,
    slots: Vec<Slot>,
    top: usize,
    /// Can a king move change a view (the net mirrors or has king buckets)? Without it none does.
    views_change: bool,
    /// The network's views by own king square ([`Network::views`]), copied for `push`.
    views: [u8; 64],
    cache: RefreshCache,
}

impl Clone for AccumulatorStack {
    /// Copies only the live part (the search clones the game once per thread).
    fn clone(&self) -> Self {
        AccumulatorStack {
            entries: self.entries[..=self.top].to_vec(),
            slots: self.slots[..=self.top].to_vec(),
            top: self.top,
            views_change: self.views_change,
            views: self.views,
            cache: self.cache.clone(),
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
            views_change: false,
            views: [0; 64],
            cache: RefreshCache::new(net),
        };
        s.reset(net, pos);
        s
    }

    /// Forgets the line and starts again from `pos` (with an empty refresh cache, which this fills for
    /// `pos`'s views).
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        self.views = net.views;
        self.views_change = net.views.iter().any(|&v| v != net.views[0]);
        self.cache.clear(net);
        for p in Color::BOTH {
            self.cache
                .refresh(net, pos, p, &mut self.entries[0].lanes[p.index()]);
        }
        self.slots[0] = Slot {
            delta: Delta::default(),
            view: Color::BOTH.map(|p| view(net, pos, p) as u8),
            refresh: [false; 2],
            computed: [true; 2],
        };
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
        if !self.views_change {
            // Then `current` reads only the delta and `computed`.
            let slot = &mut self.slots[self.top];
            slot.delta = delta;
            slot.computed = [false; 2];
            return;
        }
        let mut view = self.slots[self.top - 1].view;
        let mut refresh = [false; 2];
        if delta.king_to != Delta::NO_KING {
            let side = delta.mover as usize;
            let mover = Color::BOTH[side];
            let now = self.views[relative_square(delta.king_to, mover)];
            refresh[side] = now != view[side];
            view[side] = now;
        }
        self.slots[self.top] = Slot {
            delta,
            view,
            refresh,
            computed: [false; 2],
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

    /// The current accumulator, for the current position `pos`, brought up to date.
    #[inline]
    pub fn current(&mut self, net: &Network, pos: &Position) -> &Accumulator {
        if !self.views_change {
            self.bring_up_both(net);
        } else {
            for p in Color::BOTH {
                if !self.slots[self.top].computed[p.index()] {
                    self.bring_up(net, pos, p);
                }
            }
        }
        &self.entries[self.top]
    }

    /// When no move changes a view, both perspectives are computed together, move by move from the nearest
    /// computed entry (no move needs a refresh, and one walk down the stack serves both).
    #[inline]
    fn bring_up_both(&mut self, net: &Network) {
        let mut base = self.top;
        while !self.slots[base].computed[0] {
            base -= 1;
        }
        for i in base + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(i);
            for p in Color::BOTH {
                let k = p.index();
                self.slots[i].delta.apply(
                    net,
                    p,
                    self.views[0] as usize,
                    &below[i - 1].lanes[k],
                    &mut above[0].lanes[k],
                );
            }
            self.slots[i].computed = [true; 2];
        }
    }

    /// Computes `perspective`'s lanes of the top entry: from the nearest entry below where they are known,
    /// move by move, or, when a move on the way changed the perspective's view, by a refresh of the
    /// current position from the cache (the entries in between stay uncomputed: they are refreshed in turn
    /// if the search returns to them).
    #[inline]
    fn bring_up(&mut self, net: &Network, pos: &Position, perspective: Color) {
        let p = perspective.index();
        let mut base = self.top;
        while !self.slots[base].computed[p] {
            if self.slots[base].refresh[p] {
                self.cache
                    .refresh(net, pos, perspective, &mut self.entries[self.top].lanes[p]);
                self.slots[self.top].computed[p] = true;
                return;
            }
            base -= 1;
        }
        // No move between `base` and the top changed this perspective's view.
        let view = self.slots[base].view[p] as usize;
        for i in base + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(i);
            self.slots[i].delta.apply(
                net,
                perspective,
                view,
                &below[i - 1].lanes[p],
                &mut above[0].lanes[p],
            );
            self.slots[i].computed[p] = true;
        }
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
                        let got = feature(persp, piece, Square(s), 0);
                        assert_eq!(got, want, "{color:?} {kind:?} {s} for {persp:?}");
                        seen[p][got] = true;
                        // Mirrored: the same square with its file flipped; and the engine's shortcut
                        // through the White feature agrees with the format's rule.
                        let mirrored = feature(persp, piece, Square(s), 1);
                        assert_eq!(mirrored, want ^ 7);
                        // King bucket 2, mirrored or not: two blocks of 768 further on.
                        assert_eq!(feature(persp, piece, Square(s), 5), 2 * INPUTS + (want ^ 7));
                        for m in 0..6 {
                            assert_eq!(
                                perspective_feature(white_feature(piece, Square(s)), persp, m),
                                feature(persp, piece, Square(s), m)
                            );
                        }
                    }
                }
            }
        }
        // Each perspective uses every feature exactly once.
        assert!(seen.iter().flatten().all(|&s| s));
    }

    #[test]
    fn output_buckets_span_four_piece_counts_each() {
        let buckets: Vec<usize> = (0..=34).map(format::output_bucket).collect();
        assert_eq!(&buckets[..7], &[0, 0, 0, 0, 0, 0, 1]);
        for n in 2..=32u32 {
            assert_eq!(format::output_bucket(n), ((n - 2) / 4).min(7) as usize);
        }
        assert_eq!((buckets[30], buckets[32], buckets[34]), (7, 7, 7));
        assert_eq!(output_bucket(&Position::startpos()), 7);
        let kk = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false).expect("FEN");
        assert_eq!(output_bucket(&kk), 0);
    }
}
