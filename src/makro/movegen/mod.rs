//! Makromachy move generation: pseudo-legal generation of every special move, and legality by make-and-test
//! (including the Terror anti-trade rule). Moves are in [`super::moves`], attack detection in
//! [`super::attacks`].

pub(crate) use super::attacks::*;
use super::geometry::*;
pub use super::moves::*;
use super::pieces::*;
use super::position::*;
use crate::types::Color;

/// Where the generator writes moves: a `Vec` for tools and tests, the search's fixed-size list in the search.
pub trait Sink {
    fn add(&mut self, m: Move);
}

impl Sink for Vec<Move> {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

/// Generation modes: every move, captures and promotions only (`NOISY`), or the rest (`QUIET`).
pub const ALL: u8 = 0;
pub const NOISY: u8 = 1;
pub const QUIET: u8 = 2;

/// Pseudo-legal move generation.
impl Position {
    /// All pseudo-legal moves (legality — own King safety, anti-trade — is tested by `is_legal_after`).
    pub fn pseudo_moves(&self, out: &mut impl Sink) {
        self.pseudo::<ALL>(out);
    }

    /// The pseudo-legal moves of one `MODE` (`ALL`, `NOISY` or `QUIET`).
    pub fn pseudo<const MODE: u8>(&self, out: &mut impl Sink) {
        let us = self.side;
        for (w, &word) in self.occ[us.index()].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let p = (w * 64 + bits.trailing_zeros() as usize) as Sq;
                bits &= bits - 1;
                self.gen_piece::<MODE>(out, p, kind_of(self.at(p)));
            }
        }
    }

    /// The pseudo-legal moves of the side to move's piece on `p` (none if it holds no such piece).
    pub fn pseudo_moves_from(&self, p: Sq, out: &mut impl Sink) {
        let c = self.at(p);
        if is_piece(c) && color_of(c) == self.side {
            self.gen_piece::<ALL>(out, p, kind_of(c));
        }
    }

    #[inline(always)]
    fn gen_piece<const MODE: u8>(&self, out: &mut impl Sink, p: Sq, kind: Kind) {
        let us = self.side;
        if matches!(kind, Kind::Pawn | Kind::Warrior) {
            let fwd = if us == Color::White { WIDTH } else { -WIDTH };
            let last_rank = if us == Color::White { RANKS - 1 } else { 0 };
            let pawn_start = if us == Color::White { 3 } else { RANKS - 4 };
            self.gen_pawnlike::<MODE>(out, p, kind, fwd, last_rank, pawn_start);
            return;
        }
        let (offsets, plain, all) = &LEAP_OFFSETS[kind.index()];
        for &d in &offsets[..*plain] {
            self.add_step::<MODE>(out, p, (p as i32 + d) as Sq);
        }
        // The Terror's two-square line leaps, only where the slide could not get there.
        for &d in &offsets[*plain..*all] {
            if self.board[(p as i32 + d / 2) as usize] != EMPTY {
                self.add_step::<MODE>(out, p, (p as i32 + d) as Sq);
            }
        }
        let orth = kind.moves_along_orthogonals();
        let diag = kind.moves_along_diagonals();
        for (dirs, on) in [(&ORTH, orth), (&DIAG, diag)] {
            if !on {
                continue;
            }
            for &d in dirs.iter() {
                self.gen_line::<MODE>(out, p, kind, d);
            }
        }
        match kind {
            // Airlifts and castling never capture.
            Kind::Knight | Kind::Elephant if MODE != NOISY => self.gen_airlifts(out, p, &DIAG),
            Kind::Champion if MODE != NOISY => self.gen_airlifts(out, p, &ORTH),
            Kind::Griffon => {
                for (i, &d) in DIAG.iter().enumerate() {
                    let (df, dr) = DIAGONAL[i];
                    self.gen_bent::<MODE>(out, p, d, [offset(df, 0), offset(0, dr)]);
                }
            }
            Kind::Rhino => {
                for &d in ORTH.iter() {
                    let perp = if d.abs() == 1 { WIDTH } else { 1 };
                    self.gen_bent::<MODE>(out, p, d, [d + perp, d - perp]);
                }
            }
            Kind::Terror if MODE != QUIET => self.gen_hit_and_run(out, p),
            Kind::King if MODE != NOISY => self.gen_castling(out, p),
            _ => {}
        }
    }

    #[inline]
    fn add_step<const MODE: u8>(&self, out: &mut impl Sink, from: Sq, to: Sq) {
        let c = self.at(to);
        if (c == EMPTY && MODE != NOISY)
            || (MODE != QUIET && is_piece(c) && color_of(c) != self.side)
        {
            out.add(Move::new(MoveKind::Normal, from, to, 0));
        }
    }

    /// Slides along direction `d`: ordinary, Cannon/Vao (screen captures) or flying (captures over unranked
    /// pieces).
    fn gen_line<const MODE: u8>(&self, out: &mut impl Sink, p: Sq, kind: Kind, d: i32) {
        let us = self.side;
        let mut s = p as i32 + d;
        // Non-capturing part, common to all.
        while self.board[s as usize] == EMPTY {
            if MODE != NOISY {
                out.add(Move::new(MoveKind::Normal, p, s as Sq, 0));
            }
            s += d;
        }
        let c = self.board[s as usize];
        if c == OFF || MODE == QUIET {
            return;
        }
        match kind {
            Kind::Cannon | Kind::Vao => {
                // `c` is the screen; capture the first piece beyond it, if enemy.
                s += d;
                while self.board[s as usize] == EMPTY {
                    s += d;
                }
                let t = self.board[s as usize];
                if t != OFF && color_of(t) != us {
                    out.add(Move::new(MoveKind::Normal, p, s as Sq, 0));
                }
            }
            Kind::Eagle | Kind::Raven | Kind::Bat => loop {
                let t = self.board[s as usize];
                if t == OFF {
                    break;
                }
                if t != EMPTY {
                    if color_of(t) != us {
                        out.add(Move::new(MoveKind::Normal, p, s as Sq, 0));
                    }
                    if kind_of(t).is_ranked() {
                        break;
                    }
                }
                s += d;
            },
            _ => {
                if color_of(c) != us {
                    out.add(Move::new(MoveKind::Normal, p, s as Sq, 0));
                }
            }
        }
    }

    /// Non-capturing slide to just before the first piece on the line, at least 4 steps away.
    fn gen_airlifts(&self, out: &mut impl Sink, p: Sq, dirs: &[i32; 4]) {
        for &d in dirs {
            let mut s = p as i32 + d;
            let mut steps = 1;
            while self.board[s as usize] == EMPTY {
                s += d;
                steps += 1;
            }
            if self.board[s as usize] != OFF && steps >= 4 {
                out.add(Move::new(MoveKind::Normal, p, (s - d) as Sq, 0));
            }
        }
    }

    /// Griffon/Rhino: after the (already generated) first step `d` onto an empty square, slide along
    /// `aways` (the two directions leading away from the start).
    fn gen_bent<const MODE: u8>(&self, out: &mut impl Sink, p: Sq, d: i32, aways: [i32; 2]) {
        let q = p as i32 + d;
        if self.board[q as usize] != EMPTY {
            return;
        }
        for a in aways {
            let mut s = q + a;
            while self.board[s as usize] == EMPTY {
                if MODE != NOISY {
                    out.add(Move::new(MoveKind::Normal, p, s as Sq, 0));
                }
                s += a;
            }
            let c = self.board[s as usize];
            if MODE != QUIET && c != OFF && color_of(c) != self.side {
                out.add(Move::new(MoveKind::Normal, p, s as Sq, 0));
            }
        }
    }

    /// Terror: take an adjacent enemy, then step to an empty square next to it (not back to the start).
    fn gen_hit_and_run(&self, out: &mut impl Sink, p: Sq) {
        for &(df, dr) in KING.iter() {
            let q = p as i32 + offset(df, dr);
            let c = self.board[q as usize];
            if !is_piece(c) || color_of(c) == self.side {
                continue;
            }
            for &(ef, er) in KING.iter() {
                let r = q + offset(ef, er);
                if r != p as i32 && self.board[r as usize] == EMPTY {
                    out.add(Move::new(MoveKind::HitAndRun, p, q as Sq, r as u16));
                }
            }
        }
    }

    /// Fast castling: to any empty back-rank square strictly between King and an unmoved corner Dragon King.
    fn gen_castling(&self, out: &mut impl Sink, k: Sq) {
        let (ks, qs, back) = match self.side {
            Color::White => (WHITE_KING_SIDE, WHITE_QUEEN_SIDE, 0),
            Color::Black => (BLACK_KING_SIDE, BLACK_QUEEN_SIDE, RANKS - 1),
        };
        if self.castling & (ks | qs) == 0 || self.in_check() {
            return;
        }
        for (bit, corner_file) in [(ks, FILES - 1), (qs, 0)] {
            if self.castling & bit == 0 {
                continue;
            }
            let corner = sq(corner_file, back);
            let (lo, hi) = if corner < k { (corner, k) } else { (k, corner) };
            for s in lo + 1..hi {
                if self.at(s) == EMPTY {
                    out.add(Move::new(MoveKind::Castling, k, s, corner));
                }
            }
        }
    }

    fn gen_pawnlike<const MODE: u8>(
        &self,
        out: &mut impl Sink,
        p: Sq,
        kind: Kind,
        fwd: i32,
        last_rank: i32,
        pawn_start: i32,
    ) {
        let us = self.side;
        let p32 = p as i32;
        // Forward, non-capturing: Pawn 1 (2 or 3 from its start rank), Warrior 1 or 2 from anywhere.
        let max_steps = match kind {
            Kind::Pawn if rank_of(p) == pawn_start => 3,
            Kind::Pawn => 1,
            _ => 2,
        };
        let mut s = p32 + fwd;
        for _ in 0..max_steps {
            if self.board[s as usize] != EMPTY {
                break;
            }
            self.emit_pawnlike::<MODE>(out, p, s as Sq, MoveKind::Normal, false, last_rank);
            s += fwd;
        }
        // Diagonal forward captures, en passant included.
        for side in [-1, 1] {
            let t = p32 + fwd + side;
            let c = self.board[t as usize];
            if is_piece(c) && color_of(c) != us {
                self.emit_pawnlike::<MODE>(out, p, t as Sq, MoveKind::Normal, true, last_rank);
            } else if c == EMPTY && self.ep_victim != 0 && self.ep.contains(&(t as Sq)) {
                self.emit_pawnlike::<MODE>(out, p, t as Sq, MoveKind::EnPassant, true, last_rank);
            }
        }
        if kind == Kind::Warrior && MODE != QUIET {
            for d in [-2 * fwd + 1, -2 * fwd - 1, -fwd + 2, -fwd - 2] {
                let c = self.board[(p32 + d) as usize];
                if is_piece(c) && color_of(c) != us {
                    out.add(Move::new(MoveKind::Normal, p, (p32 + d) as Sq, 0));
                }
            }
        }
    }
    /// One Pawn or Warrior move to `to`, as the promotions when it reaches the last rank. Promotions are
    /// noisy whether or not they capture; other moves are noisy when they capture.
    #[inline(always)]
    fn emit_pawnlike<const MODE: u8>(
        &self,
        out: &mut impl Sink,
        p: Sq,
        to: Sq,
        kind: MoveKind,
        capture: bool,
        last_rank: i32,
    ) {
        if rank_of(to) == last_rank {
            if MODE != QUIET {
                for k in Kind::PROMOTIONS {
                    out.add(Move::new(MoveKind::Promotion, p, to, k as u16));
                }
            }
        } else if (capture && MODE != QUIET) || (!capture && MODE != NOISY) {
            let extra = if kind == MoveKind::EnPassant {
                self.ep_victim
            } else {
                0
            };
            out.add(Move::new(kind, p, to, extra));
        }
    }
}

/// Making moves, legality, and the legal move list.
impl Position {
    /// Plays a pseudo-legal move (copy-make: callers keep the old position to go back).
    pub fn make_move(&mut self, m: Move) {
        let us = self.side;
        let from = m.from();
        let to = m.to();
        self.clear_ep();
        self.halfmove += 1;
        if us == Color::Black {
            self.fullmove += 1;
        }
        let old_castling = self.castling;
        let mover = self.remove(from);
        let pawnlike = matches!(kind_of(mover), Kind::Pawn | Kind::Warrior);
        let mut reset = pawnlike;
        match m.kind() {
            MoveKind::Normal | MoveKind::Promotion => {
                let placed = match m.promotion() {
                    Some(k) => code(us, k),
                    None => mover,
                };
                if self.at(to) != EMPTY {
                    self.replace(to, placed);
                    reset = true;
                } else {
                    self.put(to, placed);
                }
                // A Pawn's or Warrior's advance of two or three squares leaves e.p. squares behind it.
                let step = if us == Color::White { WIDTH } else { -WIDTH };
                let advance = to as i32 - from as i32;
                if pawnlike
                    && m.kind() == MoveKind::Normal
                    && (advance == 2 * step || advance == 3 * step)
                {
                    self.ep[0] = (from as i32 + step) as Sq;
                    if advance == 3 * step {
                        self.ep[1] = (from as i32 + 2 * step) as Sq;
                    }
                    self.ep_victim = to;
                }
            }
            MoveKind::EnPassant => {
                self.remove(m.extra() as Sq);
                self.put(to, mover);
            }
            MoveKind::HitAndRun => {
                self.remove(to);
                self.put(m.extra() as Sq, mover);
                reset = true;
            }
            MoveKind::Castling => {
                let dk = self.remove(m.extra() as Sq);
                self.put(to, mover);
                self.put(from, dk);
            }
        }
        if reset {
            self.halfmove = 0;
        }
        if old_castling != 0 {
            let mut rights = old_castling;
            let corner_bit = |s: Sq| -> u8 {
                match (file_of(s), rank_of(s)) {
                    (f, 0) if f == FILES - 1 => WHITE_KING_SIDE,
                    (0, 0) => WHITE_QUEEN_SIDE,
                    (f, r) if f == FILES - 1 && r == RANKS - 1 => BLACK_KING_SIDE,
                    (0, r) if r == RANKS - 1 => BLACK_QUEEN_SIDE,
                    _ => 0,
                }
            };
            if kind_of(mover) == Kind::King {
                rights &= if us == Color::White {
                    !(WHITE_KING_SIDE | WHITE_QUEEN_SIDE)
                } else {
                    !(BLACK_KING_SIDE | BLACK_QUEEN_SIDE)
                };
            }
            rights &= !(corner_bit(from) | corner_bit(to));
            if m.kind() == MoveKind::Castling {
                rights &= !corner_bit(m.extra() as Sq);
            }
            if rights != old_castling {
                self.key ^= KEYS.castling[old_castling as usize] ^ KEYS.castling[rights as usize];
                self.castling = rights;
            }
        }
        self.side = us.flip();
        self.key ^= KEYS.side;
        self.set_check(self.check_path_after(m));
        if self.ep_victim != 0 {
            self.refresh_ep_liveness();
        }
    }

    /// After the move `m` (made by the side not to move now): the path of a check on the side to move's King,
    /// if there is one (that King was safe before: it was not its turn; see `check_made`).
    fn check_path_after(&self, m: Move) -> Option<SquareSet> {
        if !self.may_give_check(m) {
            return None;
        }
        check_made(
            &self.board,
            self.king_square(self.side),
            self.side.flip(),
            m,
        )
    }

    /// Could the move just made (`m`, by the side not to move now) have put the side to move in check? Before
    /// it that King was safe, so only a change can attack it: a piece arriving within leaping distance or on
    /// one of its lines, or a square on one of its lines emptied or filled (discoveries, Cannon screens,
    /// flyers' ranked blockers). Griffons and Rhinos turn onto a line from beside it, so they are always tested.
    fn may_give_check(&self, m: Move) -> bool {
        move_may_check(
            self.king_square(self.side),
            m,
            kind_of(self.at(m.destination())),
        )
    }

    /// Ends the e.p. rights of the last move (and takes them out of the key if they were in it).
    fn clear_ep(&mut self) {
        if self.ep_live {
            self.toggle_ep_keys();
        }
        self.ep = [0; 2];
        self.ep_victim = 0;
        self.ep_live = false;
    }

    fn toggle_ep_keys(&mut self) {
        for s in self.ep {
            if s != 0 {
                self.key ^= KEYS.ep[s as usize];
            }
        }
    }

    /// Passes the move (for null-move pruning and tests); e.p. rights lapse.
    pub fn make_null_move(&mut self) {
        self.clear_ep();
        self.halfmove += 1;
        self.side = self.side.flip();
        self.key ^= KEYS.side;
        self.refresh_check();
    }

    /// After a multi-step advance: is there a legal en-passant capture? Only then do the e.p. squares count
    /// (key, FEN, repetition).
    pub(crate) fn refresh_ep_liveness(&mut self) {
        let us = self.side;
        let fwd = if us == Color::White { WIDTH } else { -WIDTH };
        let mut live = false;
        for e in self.ep {
            if e == 0 || live {
                continue;
            }
            for side in [-1, 1] {
                let from = e as i32 - fwd + side;
                let c = self.board[from as usize];
                if is_piece(c)
                    && color_of(c) == us
                    && matches!(kind_of(c), Kind::Pawn | Kind::Warrior)
                {
                    let m = Move::new(MoveKind::EnPassant, from as Sq, e, self.ep_victim);
                    if self.is_legal_after(m) {
                        live = true;
                    }
                }
            }
        }
        if live {
            self.ep_live = true;
            self.toggle_ep_keys();
        }
    }

    /// Is the pseudo-legal move `m` legal: own King not attacked afterwards, and the Terror anti-trade rule kept.
    pub fn is_legal_after(&self, m: Move) -> bool {
        self.legal_with(m, Some(&self.king_lines()), self.in_check())
    }

    /// The squares on those of the eight lines through the side to move's King along which an enemy piece could
    /// strike, as bits of mailbox indices. Only a move touching one of them can expose that King: sliders,
    /// flyers and Cannons strike along such a line from a square on it, Griffons and Rhinos turn onto it from a
    /// square diagonally or orthogonally next to it, and leaps cannot be blocked. A line with none of these on
    /// or beside it is left out.
    fn king_lines(&self) -> [u64; 7] {
        let mut lines = [0u64; 7];
        let them = self.side.flip();
        let k = self.king_square(self.side) as i32;
        for (dirs, orth) in [(&ORTH, true), (&DIAG, false)] {
            let (cannon, bent) = if orth {
                (Kind::Cannon, Kind::Griffon)
            } else {
                (Kind::Vao, Kind::Rhino)
            };
            for &d in dirs.iter() {
                // Where a bent piece would stand to turn onto this line at square q: q - step.
                let steps = if orth {
                    let perp = if d.abs() == 1 { WIDTH } else { 1 };
                    [-d + perp, -d - perp]
                } else {
                    let v = if -d > 0 { WIDTH } else { -WIDTH };
                    [v, -d - v]
                };
                let mut s = k + d;
                let mut relevant = false;
                while self.board[s as usize] != OFF && !relevant {
                    let c = self.board[s as usize];
                    if is_piece(c) && color_of(c) == them {
                        let kind = kind_of(c);
                        let slides = if orth {
                            kind.slides_orthogonally()
                        } else {
                            kind.slides_diagonally()
                        };
                        relevant = slides || kind == cannon;
                    }
                    for st in steps {
                        let b = self.board[(s - st) as usize];
                        relevant |= is_piece(b) && color_of(b) == them && kind_of(b) == bent;
                    }
                    s += d;
                }
                if relevant {
                    let mut s = k + d;
                    while self.board[s as usize] != OFF {
                        lines[s as usize >> 6] |= 1 << (s & 63);
                        s += d;
                    }
                }
            }
        }
        lines
    }

    /// Is the pseudo-legal move `m` legal? Cheaper than [`Position::is_legal_after`] for one move: it skips
    /// the King-line survey and tests the lines through the King that `m` touches (the search checks only the
    /// moves it is about to play, most nodes cutting off after a few).
    #[inline]
    pub fn is_legal_pseudo(&self, m: Move) -> bool {
        self.legal_with(m, None, self.in_check())
    }

    /// `lines`: the King lines from [`Position::king_lines`], or `None` to treat every line through the King
    /// as one an enemy could strike along.
    fn legal_with(&self, m: Move, lines: Option<&[u64; 7]>, in_check: bool) -> bool {
        let us = self.side;
        let from = m.from();
        let mover = self.at(from);
        let king_sq = self.king_square(us);
        let on = |s: u16| match lines {
            Some(lines) => lines[s as usize >> 6] & (1 << (s & 63)) != 0,
            None => direction(king_sq, s).is_some(),
        };
        let anti_trade = matches!(m.kind(), MoveKind::Normal)
            && is_piece(self.at(m.to()))
            && kind_of(self.at(m.to())) == Kind::Terror
            && matches!(kind_of(mover), Kind::Terror | Kind::Eagle);
        let needs_test = anti_trade
            || kind_of(mover) == Kind::King
            || on(from)
            || on(m.to())
            || (m.kind() != MoveKind::Normal && m.kind() != MoveKind::Promotion && on(m.extra()))
            || in_check;
        if !needs_test {
            return true;
        }
        // In check, a move of another piece that touches nothing the (one known) check depends on leaves it.
        if in_check
            && kind_of(mover) != Kind::King
            && !set_has(&self.check_path, from)
            && !set_has(&self.check_path, m.to())
            && !(matches!(m.kind(), MoveKind::EnPassant | MoveKind::HitAndRun)
                && set_has(&self.check_path, m.extra()))
        {
            return false;
        }
        let board = self.board_after(m);
        let to = m.to();
        let king = if kind_of(mover) == Kind::King {
            to
        } else {
            self.king_square(us)
        };
        // Not in check and the King stays: only the lines through the changed squares can carry a new attack.
        let exposed = if in_check || king != self.king_square(us) {
            attacked(&board, king, us.flip())
        } else {
            changed_lines(king, m)
                .into_iter()
                .flatten()
                .any(|(d, orth)| line_attack(&board, king, us.flip(), d, orth))
        };
        if exposed {
            return false;
        }
        // Anti-trade: a Terror or Eagle that lands on a Terror's square must not be capturable there.
        !(anti_trade && attacked(&board, to, us.flip()))
    }

    /// Is `m` a legal move here? Generates only the moves of the piece on its origin (for moves from the
    /// transposition table, which may come from another position).
    pub fn is_legal_move(&self, m: Move) -> bool {
        struct Finder {
            target: Move,
            found: bool,
        }
        impl Sink for Finder {
            #[inline(always)]
            fn add(&mut self, m: Move) {
                self.found |= m == self.target;
            }
        }
        let mut f = Finder {
            target: m,
            found: false,
        };
        self.pseudo_moves_from(m.from(), &mut f);
        f.found && self.is_legal_pseudo(m)
    }

    /// The board after `m`, squares only (no key, clocks or rights): what attack tests need, far cheaper than
    /// a copy of the position and a full `make_move`.
    pub fn board_after(&self, m: Move) -> [u8; MAILBOX] {
        let mut board = self.board;
        let (from, to) = (m.from() as usize, m.to() as usize);
        let mover = board[from];
        match m.kind() {
            MoveKind::Normal => {
                board[from] = EMPTY;
                board[to] = mover;
            }
            MoveKind::Promotion => {
                board[from] = EMPTY;
                board[to] = code(self.side, Kind::from_code(m.extra() as u8));
            }
            MoveKind::EnPassant => {
                board[from] = EMPTY;
                board[to] = mover;
                board[m.extra() as usize] = EMPTY;
            }
            MoveKind::HitAndRun => {
                board[from] = EMPTY;
                board[to] = EMPTY;
                board[m.extra() as usize] = mover;
            }
            MoveKind::Castling => {
                let dk = board[m.extra() as usize];
                board[m.extra() as usize] = EMPTY;
                board[to] = mover;
                board[from] = dk;
            }
        }
        board
    }

    /// Would `m` leave the piece it moves attacked on its destination (by the opponent)?
    pub fn destination_attacked_after(&self, m: Move) -> bool {
        attacked(&self.board_after(m), m.destination(), self.side.flip())
    }

    /// Does `m` give check?
    pub fn gives_check(&self, m: Move) -> bool {
        let k = self.king_square(self.side.flip());
        let arrived = match m.promotion() {
            Some(kind) => kind,
            None => kind_of(self.at(m.from())),
        };
        move_may_check(k, m, arrived) && check_made(&self.board_after(m), k, self.side, m).is_some()
    }

    /// The legal moves of one `MODE`, written to `out` as they are generated (one King-line survey serves the
    /// whole list).
    pub(crate) fn legal_into<const MODE: u8>(&self, out: &mut impl Sink) {
        struct Legal<'a, S> {
            pos: &'a Position,
            lines: [u64; 7],
            check: bool,
            out: &'a mut S,
        }
        impl<S: Sink> Sink for Legal<'_, S> {
            #[inline(always)]
            fn add(&mut self, m: Move) {
                if self.pos.legal_with(m, Some(&self.lines), self.check) {
                    self.out.add(m);
                }
            }
        }
        self.pseudo::<MODE>(&mut Legal {
            pos: self,
            lines: self.king_lines(),
            check: self.in_check(),
            out,
        });
    }

    /// The legal captures and promotions, generated without the quiet moves.
    pub fn legal_noisy_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(48);
        self.legal_into::<NOISY>(&mut v);
        v
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(160);
        self.legal_into::<ALL>(&mut v);
        v
    }

    pub fn count_legal_moves(&self) -> u64 {
        struct Count(u64);
        impl Sink for Count {
            #[inline(always)]
            fn add(&mut self, _: Move) {
                self.0 += 1;
            }
        }
        let mut n = Count(0);
        self.legal_into::<ALL>(&mut n);
        n.0
    }

    /// The legal move written `text` (`d4d7`, `c13c14q`, `g2h3,h3i4`, `i1c1,a1i1`).
    pub fn parse_move(&self, text: &str) -> Result<Move, crate::types::MoveParseError> {
        use crate::types::MoveParseError;
        let t = text.trim();
        if t.is_empty() || t.len() > 16 || !t.is_ascii() {
            return Err(MoveParseError::Syntax(text.to_string()));
        }
        // Syntax first: squares and an optional promotion letter, one or two legs.
        for leg in t.split(',') {
            let (_, rest) =
                split_square(leg).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
            let (_, rest) =
                split_square(rest).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
            if rest.len() > 1
                || (rest.len() == 1
                    && Kind::from_letter(rest.chars().next().unwrap_or(' ')).is_none())
            {
                return Err(MoveParseError::Syntax(text.to_string()));
            }
        }
        self.legal_moves()
            .into_iter()
            .find(|m| m.text() == t)
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }
}

/// Perft for Makromachy (bulk-counted last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut n = 0;
            for m in pos.legal_moves() {
                let mut next = pos.clone();
                next.make_move(m);
                n += perft(&next, depth - 1);
            }
            n
        }
    }
}

#[cfg(test)]
mod tests;
