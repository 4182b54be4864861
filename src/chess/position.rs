//! The orthodox chess position: piece placement (bitboards plus a mailbox), side to move, castling rights
//! (Chess960-capable), en-passant square, clocks, the Zobrist key and the checkers of the side to move.
//!
//! `Position` is `Copy` and about 170 bytes: the search and perft use copy-make (copy, then `make_move` on the
//! copy), which measured faster than keeping undo records because nothing has to be restored.

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks,
    rook_attacks,
};
use super::moves::{Move, MoveKind};
use super::types::*;
use super::zobrist::KEYS;

/// The orthodox start position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Mailbox value for an empty square.
const EMPTY: u8 = 12;
/// `ep_square` value when there is no en-passant capture.
pub(crate) const NO_SQUARE: u8 = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub(crate) by_type: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) board: [u8; 64],
    pub(crate) side: Color,
    pub(crate) castling: CastlingRights,
    /// Rook start square for each castling right, indexed like `CastlingRights::index`.
    pub(crate) castle_rooks: [Square; 4],
    /// Rights lost when a move starts or ends on a back-rank square (files a-h of rank 1, then of rank 8):
    /// the king's and the castling rooks' squares. Kept per position because Chess960 moves them.
    pub(crate) castle_clear: [u8; 16],
    /// Set only when an en-passant capture is actually legal (so the key treats useless e.p. squares as absent).
    pub(crate) ep_square: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    /// Zobrist keys of the pawns alone and of each colour's other pieces (king included), kept with `key`:
    /// the search's correction history learns per pawn structure and per piece placement.
    pub(crate) pawn_key: u64,
    pub(crate) non_pawn_keys: [u64; 2],
    pub(crate) checkers: Bitboard,
    pub(crate) chess960: bool,
}

impl Position {
    pub(crate) fn empty() -> Position {
        Position {
            by_type: [0; 6],
            by_color: [0; 2],
            board: [EMPTY; 64],
            side: Color::White,
            castling: CastlingRights(0),
            castle_rooks: [Square(7), Square(0), Square(63), Square(56)],
            castle_clear: [0; 16],
            ep_square: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            pawn_key: 0,
            non_pawn_keys: [0; 2],
            checkers: 0,
            chess960: false,
        }
    }

    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS, false).expect("start position FEN is valid")
    }

    // ----- accessors -------------------------------------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn pieces(&self, kind: PieceType) -> Bitboard {
        self.by_type[kind.index()]
    }

    #[inline(always)]
    pub fn colored(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_type[kind.index()] & self.by_color[color.index()]
    }

    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.index()];
        // The mailbox holds piece indices as they are: no decoding into colour and kind and back.
        if p == EMPTY {
            None
        } else {
            Some(Piece::from_index(p))
        }
    }

    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        Square(self.colored(color, PieceType::King).trailing_zeros() as u8)
    }

    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key after the legal move `m`, for the ordinary moves that are nearly all of a search: the mover
    /// leaves its square, whatever stood on the target goes, the side to move changes. Castling, promotions,
    /// en passant and changes of castling or e.p. rights are left out, so for those this is not the key
    /// (only a prefetch uses it: a wrong guess costs one useless hint).
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from().index(), m.to().index());
        let Some(moved) = self.piece_on(m.from()) else {
            return self.key;
        };
        let moved = moved.index();
        let mut k = self.key ^ KEYS.side ^ KEYS.piece[moved][from] ^ KEYS.piece[moved][to];
        if let Some(captured) = self.piece_on(m.to()) {
            k ^= KEYS.piece[captured.index()][to];
        }
        k
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers != 0
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant target square, present only when an en-passant capture is legal.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        (self.ep_square != NO_SQUARE).then_some(Square(self.ep_square))
    }

    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches how castling is written (king-takes-rook under Chess960); the position itself is unchanged.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Rook start square of castling right `idx` (see `CastlingRights::index`).
    #[inline(always)]
    pub fn castle_rook(&self, idx: usize) -> Square {
        self.castle_rooks[idx]
    }

    // ----- attacks ---------------------------------------------------------------------------------------

    /// All pieces of either colour attacking `sq` given occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let rq = self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Queen.index()];
        let bq = self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Queen.index()];
        (pawn_attacks(Color::White, sq) & self.colored(Color::Black, PieceType::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.colored(Color::White, PieceType::Pawn))
            | (knight_attacks(sq) & self.by_type[PieceType::Knight.index()])
            | (king_attacks(sq) & self.by_type[PieceType::King.index()])
            | (rook_attacks(sq, occ) & rq)
            | (bishop_attacks(sq, occ) & bq)
    }

    /// Is `sq` attacked by any piece of `by`, with occupancy `occ`?
    #[inline(always)]
    pub fn attacked_by(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        let rq =
            (self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Queen.index()]) & them;
        let bq = (self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Queen.index()])
            & them;
        (knight_attacks(sq) & self.by_type[PieceType::Knight.index()] & them) != 0
            || (pawn_attacks(by.flip(), sq) & self.by_type[PieceType::Pawn.index()] & them) != 0
            || (king_attacks(sq) & self.by_type[PieceType::King.index()] & them) != 0
            || (rook_attacks(sq, occ) & rq) != 0
            || (bishop_attacks(sq, occ) & bq) != 0
    }

    /// Squares attacked by a piece of kind `kind` standing on `sq`, for occupancy `occ`.
    pub fn piece_attacks(kind: PieceType, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        match kind {
            PieceType::Pawn => pawn_attacks(color, sq),
            PieceType::Knight => knight_attacks(sq),
            PieceType::Bishop => bishop_attacks(sq, occ),
            PieceType::Rook => rook_attacks(sq, occ),
            PieceType::Queen => queen_attacks(sq, occ),
            PieceType::King => king_attacks(sq),
        }
    }

    /// Pieces of `us` pinned against their own king.
    #[inline(always)]
    pub fn pinned(&self, us: Color) -> Bitboard {
        let ksq = self.king_square(us);
        let them = self.by_color[us.flip().index()];
        let rq =
            (self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Queen.index()]) & them;
        let bq = (self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Queen.index()])
            & them;
        // Sliders that would hit the king if only their own colour's pieces were in the way.
        let snipers = (rook_attacks(ksq, them) & rq) | (bishop_attacks(ksq, them) & bq);
        let occ = self.occupied();
        let mut pinned = 0;
        for s in squares(snipers) {
            let b = between(ksq, s) & occ;
            if b & (b.wrapping_sub(1)) == 0 {
                pinned |= b;
            }
        }
        pinned & self.by_color[us.index()]
    }

    // ----- editing ---------------------------------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put_piece(&mut self, p: Piece, sq: Square) {
        let bb = sq.bb();
        self.by_type[p.kind().index()] |= bb;
        self.by_color[p.color().index()] |= bb;
        self.board[sq.index()] = p.index() as u8;
        self.toggle_key(p, KEYS.piece[p.index()][sq.index()]);
    }

    #[inline(always)]
    pub(crate) fn remove_piece(&mut self, p: Piece, sq: Square) {
        let bb = sq.bb();
        self.by_type[p.kind().index()] ^= bb;
        self.by_color[p.color().index()] ^= bb;
        self.board[sq.index()] = EMPTY;
        self.toggle_key(p, KEYS.piece[p.index()][sq.index()]);
    }

    #[inline(always)]
    fn move_piece(&mut self, p: Piece, from: Square, to: Square) {
        let bb = from.bb() | to.bb();
        self.by_type[p.kind().index()] ^= bb;
        self.by_color[p.color().index()] ^= bb;
        self.board[from.index()] = EMPTY;
        self.board[to.index()] = p.index() as u8;
        self.toggle_key(
            p,
            KEYS.piece[p.index()][from.index()] ^ KEYS.piece[p.index()][to.index()],
        );
    }

    /// XORs a piece's key change into the full key and into its part key.
    #[inline(always)]
    fn toggle_key(&mut self, p: Piece, k: u64) {
        self.key ^= k;
        if p.kind() == PieceType::Pawn {
            self.pawn_key ^= k;
        } else {
            self.non_pawn_keys[p.color().index()] ^= k;
        }
    }

    /// The key of the pawns of both colours.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// The key of `color`'s pieces other than pawns.
    #[inline(always)]
    pub fn non_pawn_key(&self, color: Color) -> u64 {
        self.non_pawn_keys[color.index()]
    }

    /// Destination squares of king and rook when castling with the rook on `rook_from`.
    #[inline(always)]
    pub fn castling_targets(king_from: Square, rook_from: Square) -> (Square, Square) {
        let rank = king_from.rank();
        if rook_from.0 > king_from.0 {
            (Square::new(6, rank), Square::new(5, rank))
        } else {
            (Square::new(2, rank), Square::new(3, rank))
        }
    }

    /// Plays a legal move. Moves not generated for this position are a logic error (unchecked here, since
    /// this is the hot path; text input goes through `parse_uci_move`, which only yields legal moves).
    #[inline(always)]
    pub fn make_move(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        // The mailbox's index is the piece itself (ours: the move is legal).
        let moved = Piece::from_index(self.board[from.index()]);
        let old_castling = self.castling.0;

        if self.ep_square != NO_SQUARE {
            self.key ^= KEYS.ep_file[(self.ep_square & 7) as usize];
            self.ep_square = NO_SQUARE;
        }
        self.halfmove += 1;
        if us == Color::Black {
            self.fullmove += 1;
        }
        let mut double_push = false;

        match m.kind() {
            MoveKind::Castling => {
                let (kto, rto) = Position::castling_targets(from, to);
                let rook = Piece::new(us, PieceType::Rook);
                self.remove_piece(moved, from);
                self.remove_piece(rook, to);
                self.put_piece(moved, kto);
                self.put_piece(rook, rto);
            }
            MoveKind::EnPassant => {
                let cap_sq = Square(if us == Color::White {
                    to.0 - 8
                } else {
                    to.0 + 8
                });
                self.remove_piece(Piece::new(them, PieceType::Pawn), cap_sq);
                self.move_piece(moved, from, to);
                self.halfmove = 0;
            }
            kind => {
                let captured = self.board[to.index()];
                if captured != EMPTY {
                    self.remove_piece(Piece::from_index(captured), to);
                    self.halfmove = 0;
                }
                if kind == MoveKind::Promotion {
                    self.remove_piece(moved, from);
                    let promo = m.promotion_piece().unwrap_or(PieceType::Queen);
                    self.put_piece(Piece::new(us, promo), to);
                    self.halfmove = 0;
                } else {
                    self.move_piece(moved, from, to);
                    if moved.kind() == PieceType::Pawn {
                        self.halfmove = 0;
                        double_push = (from.0 ^ to.0) == 16;
                    }
                }
            }
        }

        if old_castling != 0 && (from.bb() | to.bb()) & (RANK_1 | RANK_8) != 0 {
            let rights =
                old_castling & !(self.castle_clear_mask(from) | self.castle_clear_mask(to));
            if rights != old_castling {
                self.castling = CastlingRights(rights);
                self.key ^= KEYS.castling[old_castling as usize] ^ KEYS.castling[rights as usize];
            }
        }

        self.side = them;
        self.key ^= KEYS.side;
        let ksq = self.king_square(them);
        self.checkers = self.attackers_to(ksq, self.occupied()) & self.by_color[us.index()];

        if double_push {
            let ep = Square((from.0 + to.0) / 2);
            if self.ep_capture_possible(ep) {
                self.ep_square = ep.0;
                self.key ^= KEYS.ep_file[ep.file() as usize];
            }
        }
    }

    #[inline(always)]
    fn castle_clear_mask(&self, sq: Square) -> u8 {
        match sq.rank() {
            0 => self.castle_clear[sq.file() as usize],
            7 => self.castle_clear[8 + sq.file() as usize],
            _ => 0,
        }
    }

    /// Passes the move (null move, for the search). Not legal when in check.
    pub fn make_null_move(&mut self) {
        if self.ep_square != NO_SQUARE {
            self.key ^= KEYS.ep_file[(self.ep_square & 7) as usize];
            self.ep_square = NO_SQUARE;
        }
        self.halfmove += 1;
        self.side = self.side.flip();
        self.key ^= KEYS.side;
        self.checkers = 0;
    }

    /// With the side to move about to reply, could one of its pawns legally capture en passant on `ep`?
    /// The opponent's pawn stands just beyond `ep`.
    pub(crate) fn ep_capture_possible(&self, ep: Square) -> bool {
        let us = self.side;
        let them = us.flip();
        let capturers = pawn_attacks(them, ep) & self.colored(us, PieceType::Pawn);
        if capturers == 0 {
            return false;
        }
        let victim = Square(if us == Color::White {
            ep.0 - 8
        } else {
            ep.0 + 8
        });
        squares(capturers).any(|from| self.ep_capture_legal(from, ep, victim))
    }

    /// Full legality test of the en-passant capture `from`x`ep` (taking the pawn on `victim`): the only move
    /// that removes two pieces from one line, so pins cannot be checked the ordinary way.
    #[inline]
    pub(crate) fn ep_capture_legal(&self, from: Square, ep: Square, victim: Square) -> bool {
        let us = self.side;
        let ksq = self.king_square(us);
        let occ = (self.occupied() ^ from.bb() ^ victim.bb()) | ep.bb();
        let attackers =
            self.attackers_to(ksq, occ) & self.by_color[us.flip().index()] & !victim.bb();
        attackers == 0
    }

    /// The key computed from scratch (tests hold the incremental key against it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for s in 0..64u8 {
            if let Some(p) = self.piece_on(Square(s)) {
                key ^= KEYS.piece[p.index()][s as usize];
            }
        }
        if self.side == Color::Black {
            key ^= KEYS.side;
        }
        key ^= KEYS.castling[self.castling.0 as usize];
        if let Some(ep) = self.ep_square() {
            key ^= KEYS.ep_file[ep.file() as usize];
        }
        key
    }

    /// The pawn key and the non-pawn keys computed from scratch (tests hold the incremental ones against
    /// them).
    pub fn compute_part_keys(&self) -> (u64, [u64; 2]) {
        let (mut pawns, mut others) = (0, [0; 2]);
        for s in 0..64u8 {
            if let Some(p) = self.piece_on(Square(s)) {
                let k = KEYS.piece[p.index()][s as usize];
                if p.kind() == PieceType::Pawn {
                    pawns ^= k;
                } else {
                    others[p.color().index()] ^= k;
                }
            }
        }
        (pawns, others)
    }

    /// Is the game drawn because no sequence of legal moves can end in mate, by Dineri's list: K v K,
    /// K+B v K, K+N v K, or kings and bishops only with every bishop on squares of one colour.
    pub fn is_dead_position(&self) -> bool {
        let kings = self.by_type[PieceType::King.index()];
        let others = self.occupied() & !kings;
        if others == 0 {
            return true;
        }
        let knights = self.by_type[PieceType::Knight.index()];
        let bishops = self.by_type[PieceType::Bishop.index()];
        if others.count_ones() == 1 && others & (knights | bishops) != 0 {
            return true;
        }
        others == bishops && (bishops & DARK_SQUARES == 0 || bishops & !DARK_SQUARES == 0)
    }

    /// Number of non-pawn, non-king pieces of `color` (the search uses this to gate null-move pruning).
    pub fn non_pawn_material_count(&self, color: Color) -> u32 {
        (self.by_color[color.index()]
            & !(self.by_type[PieceType::Pawn.index()] | self.by_type[PieceType::King.index()]))
        .count_ones()
    }

    /// The board as text: eight ranks of FEN letters and dots, with coordinates.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = self
                    .piece_on(Square::new(file, rank))
                    .map_or(' ', |p| p.letter());
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n");
        s
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
