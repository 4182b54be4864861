//! Legal move generation. One generator, monomorphised twice over: what to generate (all, noisy, quiet) and
//! where moves go (a `MoveList`, or a counter that adds popcounts — perft's bulk counting at the last ply).
//!
//! Legality is built in rather than filtered: check evasions through a check mask, pins through the line from
//! the king, king steps tested against attackers with the king lifted off the board, and the two rare cases
//! that need a full test (en passant, Chess960 castling) tested exactly.

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_rays,
    rook_attacks,
};
use super::moves::{Move, MoveKind, MoveList};
use super::position::{Position, NO_SQUARE};
use super::types::*;

/// Everything legal.
pub const ALL: u8 = 0;
/// Captures (en passant included) and promotions: what quiescence search looks at.
pub const NOISY: u8 = 1;
/// The rest: non-capturing, non-promoting moves, castling included.
pub const QUIET: u8 = 2;

/// Receives generated moves. A list implements `single`; the bulk methods default to it (the counter
/// overrides them with popcounts).
pub trait MoveSink {
    fn single(&mut self, m: Move);

    /// Moves of a non-pawn piece from `from` to each square of `targets`.
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard) {
        for to in squares(targets) {
            self.single(Move::new(from, to));
        }
    }

    /// Pawn moves to each square of `targets`, from the square `delta` behind it; `promo` makes four moves
    /// (Q, N, R, B) of each.
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, promo: bool) {
        for to in squares(targets) {
            let from = Square((to.0 as i8 - delta) as u8);
            if promo {
                for p in [
                    PieceType::Queen,
                    PieceType::Knight,
                    PieceType::Rook,
                    PieceType::Bishop,
                ] {
                    self.single(Move::promotion(from, to, p));
                }
            } else {
                self.single(Move::new(from, to));
            }
        }
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn single(&mut self, m: Move) {
        self.push(m);
    }
}

/// The squares from file `a` to file `b` inclusive, on the first rank.
const fn file_span(a: usize, b: usize) -> Bitboard {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
}

/// For a king on file `k` and a castling rook on file `r` (first rank): the squares that must be empty (all
/// that king and rook cross or land on, except their own), and the squares the king crosses before its
/// destination (which must not be attacked). Castling is tried at every node while rights remain, so this is
/// a table rather than arithmetic.
static CASTLING_MASKS: [[(Bitboard, Bitboard); 8]; 8] = {
    let mut t = [[(0, 0); 8]; 8];
    let mut k = 0;
    while k < 8 {
        let mut r = 0;
        while r < 8 {
            let (kto, rto) = if r > k { (6, 5) } else { (2, 3) };
            let own = (1u64 << k) | (1u64 << r);
            let empty = (file_span(k, kto) | file_span(r, rto)) & !own;
            let path = file_span(k, kto) & !(1u64 << k) & !(1u64 << kto);
            t[k][r] = (empty, path);
            r += 1;
        }
        k += 1;
    }
    t
};

#[inline(always)]
fn castling_masks(ksq: Square, rsq: Square) -> (Bitboard, Bitboard) {
    let (empty, path) = CASTLING_MASKS[ksq.file() as usize][rsq.file() as usize];
    let shift = ksq.rank() * 8;
    (empty << shift, path << shift)
}

/// Counts moves without storing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count_ones() as u64;
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i8, promo: bool) {
        self.0 += (targets.count_ones() as u64) << if promo { 2 } else { 0 };
    }

    #[inline(always)]
    fn single(&mut self, _m: Move) {
        self.0 += 1;
    }
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<ALL, _>(&mut list);
        list
    }

    /// Number of legal moves, without generating them (perft's last ply).
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate::<ALL, _>(&mut c);
        c.0
    }

    /// Generates legal moves of kind `GEN` (`ALL`, `NOISY` or `QUIET`) into `sink`.
    #[inline(always)]
    pub fn generate<const GEN: u8, S: MoveSink>(&self, sink: &mut S) {
        let us = self.side;
        let them = us.flip();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let ksq = self.king_square(us);

        let gen_mask = match GEN {
            NOISY => theirs,
            QUIET => !occ,
            _ => !ours,
        };

        // King steps: each destination tested with the king lifted, so sliders see through its old square.
        let occ_without_king = occ ^ ksq.bb();
        let mut king_targets = 0;
        for to in squares(king_attacks(ksq) & gen_mask) {
            if !self.attacked_by(to, them, occ_without_king) {
                king_targets |= to.bb();
            }
        }
        sink.piece_moves(ksq, king_targets);

        let checkers = self.checkers;
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only the king may move
        }
        let check_mask = if checkers != 0 {
            between(ksq, Square(checkers.trailing_zeros() as u8)) | checkers
        } else {
            !0
        };
        let target = gen_mask & check_mask;
        let pinned = self.pinned(us);

        let knights = self.by_type[PieceType::Knight.index()] & ours & !pinned;
        for from in squares(knights) {
            sink.piece_moves(from, knight_attacks(from) & target);
        }
        let queens = self.by_type[PieceType::Queen.index()];
        let diag = (self.by_type[PieceType::Bishop.index()] | queens) & ours;
        for from in squares(diag & !pinned) {
            sink.piece_moves(from, bishop_attacks(from, occ) & target);
        }
        for from in squares(diag & pinned) {
            sink.piece_moves(from, bishop_attacks(from, occ) & target & line(ksq, from));
        }
        let orth = (self.by_type[PieceType::Rook.index()] | queens) & ours;
        for from in squares(orth & !pinned) {
            sink.piece_moves(from, rook_attacks(from, occ) & target);
        }
        for from in squares(orth & pinned) {
            sink.piece_moves(from, rook_attacks(from, occ) & target & line(ksq, from));
        }

        let pawns = self.by_type[PieceType::Pawn.index()] & ours;
        self.pawn_moves::<GEN, S>(sink, pawns & !pinned, check_mask, theirs, occ);
        for from in squares(pawns & pinned) {
            self.pawn_moves::<GEN, S>(sink, from.bb(), check_mask & line(ksq, from), theirs, occ);
        }

        if GEN != QUIET && self.ep_square != NO_SQUARE {
            let ep = Square(self.ep_square);
            let victim = Square(if us == Color::White {
                ep.0 - 8
            } else {
                ep.0 + 8
            });
            for from in squares(super::attacks::pawn_attacks(them, ep) & pawns) {
                if self.ep_capture_legal(from, ep, victim) {
                    sink.single(Move::with_kind(from, ep, MoveKind::EnPassant));
                }
            }
        }

        if GEN != NOISY && checkers == 0 && self.castling.0 & (0b11 << (us.index() * 2)) != 0 {
            for king_side in [true, false] {
                let idx = CastlingRights::index(us, king_side);
                if self.castling.has(idx) {
                    let rsq = self.castle_rooks[idx];
                    if self.castling_legal(ksq, rsq, occ, them) {
                        sink.single(Move::with_kind(ksq, rsq, MoveKind::Castling));
                    }
                }
            }
        }
    }

    /// Pawn moves of `pawns`, restricted to `mask` (check evasions and, for a pinned pawn, its pin line).
    #[inline(always)]
    fn pawn_moves<const GEN: u8, S: MoveSink>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        mask: Bitboard,
        theirs: Bitboard,
        occ: Bitboard,
    ) {
        if pawns == 0 {
            return;
        }
        let us = self.side;
        let (up, left, right, rank7, rank3): (i8, i8, i8, Bitboard, Bitboard) = match us {
            Color::White => (8, 7, 9, RANK_8 >> 8, RANK_1 << 16),
            Color::Black => (-8, -9, -7, RANK_1 << 8, RANK_8 >> 16),
        };
        let shift = |bb: Bitboard, d: i8| if d > 0 { bb << d } else { bb >> -d };
        let empty = !occ;
        let promoting = pawns & rank7;
        let normal = pawns & !rank7;

        if GEN != NOISY {
            let single = shift(normal, up) & empty;
            let double = shift(single & rank3, up) & empty;
            sink.pawn_moves(single & mask, up, false);
            sink.pawn_moves(double & mask, 2 * up, false);
        }
        if GEN != QUIET {
            let targets = theirs & mask;
            sink.pawn_moves(shift(normal & !FILE_A, left) & targets, left, false);
            sink.pawn_moves(shift(normal & !FILE_H, right) & targets, right, false);
            if promoting != 0 {
                sink.pawn_moves(shift(promoting, up) & empty & mask, up, true);
                sink.pawn_moves(shift(promoting & !FILE_A, left) & targets, left, true);
                sink.pawn_moves(shift(promoting & !FILE_H, right) & targets, right, true);
            }
        }
    }

    /// Castling with the rook on `rsq`, given that the right exists and the king is not in check.
    #[inline(always)]
    fn castling_legal(&self, ksq: Square, rsq: Square, occ: Bitboard, them: Color) -> bool {
        let (must_be_empty, king_path) = castling_masks(ksq, rsq);
        if occ & must_be_empty != 0 {
            return false;
        }
        for s in squares(king_path) {
            if self.attacked_by(s, them, occ) {
                return false;
            }
        }
        // The destination is judged on the final board: in Chess960 the castling rook may have been what
        // shielded that square from a slider along the back rank.
        let (kto, rto) = Position::castling_targets(ksq, rsq);
        let final_occ = (occ ^ ksq.bb() ^ rsq.bb()) | kto.bb() | rto.bb();
        !self.attacked_by(kto, them, final_occ)
    }

    /// Is `m` one of the legal moves here? (For moves from outside: the transposition table, the GUI.)
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_none() {
            return false;
        }
        self.legal_moves().contains(&m)
    }

    /// Does `m` capture something (en passant included)?
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castling => false,
            _ => self.board[m.to().index()] != 12,
        }
    }
}

/// Is `m` (any 16-bit pattern, e.g. from a hash collision) a legal move in `pos`? Normal moves are checked
/// directly (the hash move is tested at most nodes, so generating every move for it would be slow); the rare
/// kinds (castling, en passant, promotion) are looked up among the generated moves.
pub fn is_legal_move(pos: &Position, m: Move) -> bool {
    if m.is_none() {
        return false;
    }
    let us = pos.side_to_move();
    let from = m.from();
    let to = m.to();
    let piece = match pos.piece_on(from) {
        Some(p) if p.color() == us => p.kind(),
        _ => return false,
    };
    if m.kind() != MoveKind::Normal {
        let mut list = MoveList::new();
        pos.generate::<ALL, _>(&mut list);
        return list.contains(&m);
    }
    // Promotion bits are only meaningful for promotions.
    if m.0 & 0x3000 != 0 || pos.color_bb(us) & to.bb() != 0 {
        return false;
    }
    let them = us.flip();
    let occ = pos.occupied();
    let reachable = match piece {
        PieceType::Pawn => {
            // A pawn reaching the last rank must be a promotion move.
            if to.relative_rank(us) == 7 {
                return false;
            }
            let forward: i8 = if us == Color::White { 8 } else { -8 };
            let one = from.0 as i8 + forward;
            if pawn_attacks(us, from) & to.bb() != 0 {
                pos.color_bb(them) & to.bb() != 0
            } else if to.0 as i8 == one {
                occ & to.bb() == 0
            } else if to.0 as i8 == one + forward && from.relative_rank(us) == 1 {
                occ & (to.bb() | Square(one as u8).bb()) == 0
            } else {
                false
            }
        }
        kind => Position::piece_attacks(kind, us, from, occ) & to.bb() != 0,
    };
    if !reachable {
        return false;
    }
    let ksq = pos.king_square(us);
    if piece == PieceType::King {
        return !pos.attacked_by(to, them, occ ^ from.bb());
    }
    let checkers = pos.checkers();
    if checkers != 0 {
        if checkers & (checkers - 1) != 0 {
            return false;
        }
        let checker = Square(checkers.trailing_zeros() as u8);
        if (between(ksq, checker) | checkers) & to.bb() == 0 {
            return false;
        }
    }
    pos.pinned(us) & from.bb() == 0 || line(ksq, from) & to.bb() != 0
}

/// Does the legal move `m` give check? Normal moves are answered from attack tables on the board as it will
/// be (covering direct and discovered checks at once); the rare kinds are played out on a copy.
pub fn gives_check(pos: &Position, m: Move) -> bool {
    if m.kind() != MoveKind::Normal {
        let mut next = *pos;
        next.make_move(m);
        return next.in_check();
    }
    let us = pos.side_to_move();
    let ksq = pos.king_square(us.flip());
    let (from, to) = (m.from(), m.to());
    let kind = match pos.piece_on(from) {
        Some(p) => p.kind(),
        None => return false,
    };
    let moved = from.bb() | to.bb();
    let occ = (pos.occupied() ^ from.bb()) | to.bb();
    let direct = match kind {
        PieceType::Pawn => pawn_attacks(us, to) & ksq.bb() != 0,
        PieceType::Knight => knight_attacks(to) & ksq.bb() != 0,
        _ => false,
    };
    if direct {
        return true;
    }
    // A slider's check, direct or discovered, needs the move to start or end on a line through the king:
    // most quiet moves do neither, and skip the two slider lookups below.
    if (from.bb() | to.bb()) & queen_rays(ksq) == 0 {
        return false;
    }
    let track = |bb: Bitboard| if bb & from.bb() != 0 { bb ^ moved } else { bb };
    let queens = pos.colored(us, PieceType::Queen);
    let diag = track(pos.colored(us, PieceType::Bishop) | queens);
    let orth = track(pos.colored(us, PieceType::Rook) | queens);
    bishop_attacks(ksq, occ) & diag != 0 || rook_attacks(ksq, occ) & orth != 0
}

/// Leaf nodes of the legal move tree of `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            for &m in pos.legal_moves().iter() {
                let mut child = *pos;
                child.make_move(m);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_legality_agrees_with_generation_on_every_bit_pattern() {
        let fens = [
            crate::chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
            "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",
            "4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1",
            "3k4/8/8/8/8/8/4p3/3K4 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, false).expect("valid FEN");
            let legal = pos.legal_moves();
            for bits in 0..=u16::MAX {
                let m = Move(bits);
                assert_eq!(
                    is_legal_move(&pos, m),
                    legal.contains(&m),
                    "{fen}: {}",
                    m.to_uci(false)
                );
            }
        }
    }

    #[test]
    fn fast_gives_check_agrees_with_playing_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
            "4k3/8/8/8/8/8/4B3/4R2K w - - 0 1",
            "3k4/8/8/8/8/3N4/3R4/3QK3 w - - 0 1",
            "6k1/8/8/8/8/8/6N1/6RK w - - 0 1",
            "6k1/8/8/8/2N5/8/Q7/7K w - - 0 1",
        ];
        let mut checks = 0;
        for fen in fens {
            let pos = Position::from_fen(fen, false).expect("valid FEN");
            for &m in pos.legal_moves().iter() {
                let mut next = pos;
                next.make_move(m);
                assert_eq!(
                    gives_check(&pos, m),
                    next.in_check(),
                    "{fen}: {}",
                    m.to_uci(false)
                );
                checks += next.in_check() as u32;
            }
        }
        assert!(checks > 10);
    }
}
