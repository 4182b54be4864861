//! Makromachy attack detection: leap tables, line attacks with flying pieces, Cannon/Vao screens, bent
//! Griffon/Rhino lines and Warrior back-captures, and the checks a move makes.

use super::geometry::*;
use super::moves::*;
use super::pieces::*;
use super::position::*;
use crate::types::Color;

/// Every distinct leap offset with the set of kinds (bit per `Kind::index`) that has it. All leap sets are
/// point-symmetric, so "a piece on `t + d` leaps to `t`" is "a piece on `t` leaps to `t + d`". Built at
/// compile time: `attacked` runs at almost every node.
pub(super) const LEAP_TABLE: ([(i32, u32); 64], usize) = leap_table();
pub(super) static LEAP_ATTACKERS: &[(i32, u32)] = LEAP_TABLE.0.split_at(LEAP_TABLE.1).0;

/// The same kinds by offset: `LEAP_BY_OFFSET[d + LEAP_BIAS]` for mailbox offsets up to three files and ranks.
pub(super) const LEAP_BIAS: i32 = 3 * WIDTH + 3;
pub(super) static LEAP_BY_OFFSET: [u32; (2 * LEAP_BIAS + 1) as usize] = {
    let mut t = [0; (2 * LEAP_BIAS + 1) as usize];
    let mut i = 0;
    while i < LEAP_TABLE.1 {
        let (d, mask) = LEAP_TABLE.0[i];
        t[(d + LEAP_BIAS) as usize] = mask;
        i += 1;
    }
    t
};

pub(super) const fn leap_table() -> ([(i32, u32); 64], usize) {
    let mut v = [(0i32, 0u32); 64];
    let mut n = 0;
    let mut k = 0;
    while k < KIND_COUNT {
        let kind = Kind::ALL[k];
        let leaps = kind.leaps();
        let mut j = 0;
        while j < leaps.len() {
            let d = offset(leaps[j].0, leaps[j].1);
            let mut i = 0;
            while i < n && v[i].0 != d {
                i += 1;
            }
            if i == n {
                v[n] = (d, 0);
                n += 1;
            }
            v[i].1 |= 1 << kind.index();
            j += 1;
        }
        k += 1;
    }
    (v, n)
}

/// Each kind's leaps as mailbox offsets, by `Kind::index`: (offsets, how many are plain leaps, how many in
/// all). The Terror's last eight (two squares along a line) count only over an occupied middle square, since
/// its slide reaches them otherwise. Built at compile time: generation reads it for every piece.
pub(super) static LEAP_OFFSETS: [([i32; 16], usize, usize); KIND_COUNT] = leap_offsets();

pub(super) const fn leap_offsets() -> [([i32; 16], usize, usize); KIND_COUNT] {
    let mut t = [([0; 16], 0, 0); KIND_COUNT];
    let mut k = 0;
    while k < KIND_COUNT {
        let kind = Kind::ALL[k];
        let leaps = kind.leaps();
        let mut plain = 0;
        let mut j = 0;
        while j < leaps.len() {
            let (df, dr) = leaps[j];
            let d = offset(df, dr);
            let on_line = df == 0 || dr == 0 || df.abs() == dr.abs();
            t[kind.index()].0[j] = d;
            if !(matches!(kind, Kind::Terror) && on_line && (df.abs() == 2 || dr.abs() == 2)) {
                // The split needs every plain leap before the line leaps (as `TERROR` lists them).
                assert!(plain == j);
                plain += 1;
            }
            j += 1;
        }
        t[kind.index()].1 = plain;
        t[kind.index()].2 = leaps.len();
        k += 1;
    }
    t
}

/// `KIND_BIT[colour][code]`: the bit `1 << kind.index()` when `code` is a piece of that colour, else 0 (empty,
/// border, or the other side). Attack tests ask "an enemy of these kinds?" with one load and one mask.
pub(crate) static KIND_BIT: [[u32; 256]; 2] = kind_bits();

pub(super) const fn kind_bits() -> [[u32; 256]; 2] {
    let mut t = [[0; 256]; 2];
    let mut c = 0;
    while c < 256 {
        let code = c as u8;
        if is_kind_code(code) {
            let bit = 1 << kind_of(code).index();
            t[color_of(code).index()][c] = bit;
        }
        c += 1;
    }
    t
}

pub(crate) const fn mask_of(kinds: &[Kind]) -> u32 {
    let mut m = 0;
    let mut i = 0;
    while i < kinds.len() {
        m |= 1 << kinds[i].index();
        i += 1;
    }
    m
}

/// The kinds that slide along ranks and files (`orth`) or along diagonals.
pub(super) const fn sliders(orth: bool) -> u32 {
    let mut m = 0;
    let mut k = 0;
    while k < KIND_COUNT {
        let kind = Kind::ALL[k];
        if (orth && kind.slides_orthogonally()) || (!orth && kind.slides_diagonally()) {
            m |= 1 << kind.index();
        }
        k += 1;
    }
    m
}

pub(crate) const ORTH_SLIDERS: u32 = sliders(true);
pub(crate) const DIAG_SLIDERS: u32 = sliders(false);
pub(crate) const FLYERS: u32 = mask_of(&[Kind::Eagle, Kind::Raven, Kind::Bat]);
/// The pieces that end a flight (`Kind::is_ranked`).
pub(crate) const RANKED: u32 = mask_of(&[Kind::Eagle, Kind::Raven, Kind::Bat, Kind::Archer]);
pub(super) const PAWNLIKE: u32 = mask_of(&[Kind::Pawn, Kind::Warrior]);
pub(super) const WARRIOR: u32 = mask_of(&[Kind::Warrior]);

pub(super) const fn dirs_of(list: &[(i8, i8); 4]) -> [i32; 4] {
    [
        offset(list[0].0, list[0].1),
        offset(list[1].0, list[1].1),
        offset(list[2].0, list[2].1),
        offset(list[3].0, list[3].1),
    ]
}

/// Unit steps along ranks and files, and along diagonals, as mailbox offsets.
pub(crate) const ORTH: [i32; 4] = dirs_of(&ORTHOGONAL);
pub(crate) const DIAG: [i32; 4] = dirs_of(&DIAGONAL);

impl Position {
    /// Is square `t` attacked by a piece of colour `by`? (Used for check and for the anti-trade rule; the
    /// piece standing on `t`, if any, is the target, never a screen.)
    pub fn is_attacked(&self, t: Sq, by: Color) -> bool {
        attacked(&self.board, t, by)
    }

    /// Is the side to move in check?
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checked
    }

    /// Sets the check flag, and with it the path of one checking attack (what legality tests of evasions
    /// use to reject at once the many moves that do not touch it).
    pub(crate) fn refresh_check(&mut self) {
        self.set_check(attack_path(
            &self.board,
            self.king_square(self.side),
            self.side.flip(),
        ));
    }

    /// The check flag and path from the path of a check on the side to move's King, if there is one.
    #[inline(always)]
    pub(super) fn set_check(&mut self, path: Option<SquareSet>) {
        self.checked = path.is_some();
        self.check_path = path.unwrap_or([0; OCC_WORDS]);
    }
}

/// `Position::is_attacked` on a bare board (legality tests run it on a scratch copy).
pub(crate) fn attacked(board: &[u8; MAILBOX], t: Sq, by: Color) -> bool {
    {
        let t = t as i32;
        let bits = &KIND_BIT[by.index()];
        let at = |s: i32| board[s as usize];

        for &(d, mask) in LEAP_ATTACKERS.iter() {
            if bits[at(t + d) as usize] & mask != 0 {
                return true;
            }
        }

        // Pawns and Warriors capture diagonally forward; Warriors also backward like a Knight.
        let fwd = if by == Color::White { WIDTH } else { -WIDTH };
        for side in [-1, 1] {
            if bits[at(t - fwd + side) as usize] & PAWNLIKE != 0 {
                return true;
            }
        }
        for d in [2 * fwd + 1, 2 * fwd - 1, fwd + 2, fwd - 2] {
            if bits[at(t + d) as usize] & WARRIOR != 0 {
                return true;
            }
        }

        for (dirs, orth) in [(&ORTH, true), (&DIAG, false)] {
            for &d in dirs.iter() {
                if line_attack(board, t as Sq, by, d, orth) {
                    return true;
                }
            }
        }
        false
    }
}

/// Is `t` attacked along the line leaving it in direction `d` (orthogonal when `orth`): by a slider, Cannon or
/// flyer standing on that line, or by a Griffon (Rhino) turning onto it? Leaps are not looked at.
#[inline]
pub(super) fn line_attack(board: &[u8; MAILBOX], t: Sq, by: Color, d: i32, orth: bool) -> bool {
    line_attacker(board, t, by, d, orth).is_some()
}

/// The attack `line_attack` finds, as (attacker's square, last square of the straight part along `d`): the
/// same square for a slider, Cannon or flyer; for a Griffon or Rhino, the square it turns on.
#[inline]
pub(super) fn line_attacker(
    board: &[u8; MAILBOX],
    t: Sq,
    by: Color,
    d: i32,
    orth: bool,
) -> Option<(i32, i32)> {
    let t = t as i32;
    let at = |s: i32| board[s as usize];
    let bits = &KIND_BIT[by.index()];
    let (sliders, cannon) = if orth {
        (ORTH_SLIDERS, mask_of(&[Kind::Cannon]))
    } else {
        (DIAG_SLIDERS, mask_of(&[Kind::Vao]))
    };
    let flyers = sliders & FLYERS;
    // One walk outward serves ordinary sliders (the first piece), cannons (the first piece after one screen)
    // and flyers (the first ranked piece, over any number of unranked ones).
    let mut s = t + d;
    let mut seen = 0;
    let mut ranked_between = false;
    loop {
        let c = at(s);
        if c == OFF {
            break;
        }
        if c != EMPTY {
            seen += 1;
            let enemy = bits[c as usize];
            if (seen == 1 && enemy & sliders != 0)
                || (seen == 2 && enemy & cannon != 0)
                || (!ranked_between && enemy & flyers != 0)
            {
                return Some((s, s));
            }
            // A ranked piece stops flights beyond it, but may still be a Cannon's screen.
            ranked_between |= (enemy | KIND_BIT[by.flip().index()][c as usize]) & RANKED != 0;
            if ranked_between && seen >= 2 {
                break;
            }
        }
        s += d;
    }
    // Bent lines arriving at `t` along `d`'s opposite: walk back over empty squares, each a possible turning
    // square. A Griffon turned there after a diagonal step (d plus a perpendicular unit); a Rhino after an
    // orthogonal step (one component of the diagonal d).
    let o = -d;
    let (bent, steps) = if orth {
        let perp = if o.abs() == 1 { WIDTH } else { 1 };
        (mask_of(&[Kind::Griffon]), [o + perp, o - perp])
    } else {
        let v = if o > 0 { WIDTH } else { -WIDTH };
        (mask_of(&[Kind::Rhino]), [v, o - v])
    };
    let mut q = t - o;
    while at(q) == EMPTY {
        for step in steps {
            if bits[at(q - step) as usize] & bent != 0 {
                return Some((q - step, q));
            }
        }
        q -= o;
    }
    None
}

/// A set of mailbox squares.
pub(crate) type SquareSet = [u64; OCC_WORDS];

#[inline(always)]
pub(super) fn set_has(set: &SquareSet, s: Sq) -> bool {
    set[s as usize >> 6] & (1 << (s & 63)) != 0
}

#[inline(always)]
pub(super) fn set_add(set: &mut SquareSet, s: i32) {
    set[s as usize >> 6] |= 1 << (s & 63);
}

/// If `t` is attacked by `by`: the squares one such attack depends on — the attacker's square and every
/// square its path crosses (screens and flown-over pieces included). A move that changes none of them and
/// does not move the target leaves that attack in place.
pub(super) fn attack_path(board: &[u8; MAILBOX], t: Sq, by: Color) -> Option<SquareSet> {
    let mut path = [0; OCC_WORDS];
    let ti = t as i32;
    let bits = &KIND_BIT[by.index()];
    for &(d, mask) in LEAP_ATTACKERS.iter() {
        if bits[board[(ti + d) as usize] as usize] & mask != 0 {
            set_add(&mut path, ti + d);
            return Some(path);
        }
    }
    let fwd = if by == Color::White { WIDTH } else { -WIDTH };
    for d in [-fwd + 1, -fwd - 1] {
        if bits[board[(ti + d) as usize] as usize] & PAWNLIKE != 0 {
            set_add(&mut path, ti + d);
            return Some(path);
        }
    }
    for d in [2 * fwd + 1, 2 * fwd - 1, fwd + 2, fwd - 2] {
        if bits[board[(ti + d) as usize] as usize] & WARRIOR != 0 {
            set_add(&mut path, ti + d);
            return Some(path);
        }
    }
    for (dirs, orth) in [(&ORTH, true), (&DIAG, false)] {
        for &d in dirs.iter() {
            if let Some(found) = line_attacker(board, t, by, d, orth) {
                return Some(line_path(t, d, found));
            }
        }
    }
    None
}

/// The squares a line attack on `t` along `d` depends on: the line from `t` to where the attack leaves it, and
/// the attacker.
pub(super) fn line_path(t: Sq, d: i32, (attacker, end): (i32, i32)) -> SquareSet {
    let mut path = [0; OCC_WORDS];
    let mut s = t as i32 + d;
    loop {
        set_add(&mut path, s);
        if s == end {
            break;
        }
        s += d;
    }
    set_add(&mut path, attacker);
    path
}

/// On `board`, just after `by` played `m` (which `move_may_check` let through): the path of a check on the
/// King at `king`, if `m` gave one. The King was safe before, so only the move can attack it: the piece on
/// its destination by a leap or a Pawn or Warrior capture, or a line attack along a line through a square
/// the move changed (the mover's own lines among them, discoveries, Cannon screens). Griffons and Rhinos
/// turn onto a line from beside it, and castling moves two pieces: those get the full attack test.
pub(super) fn check_made(board: &[u8; MAILBOX], king: Sq, by: Color, m: Move) -> Option<SquareSet> {
    let dest = m.destination();
    let arrived = board[dest as usize];
    if m.kind() == MoveKind::Castling || matches!(kind_of(arrived), Kind::Griffon | Kind::Rhino) {
        return attack_path(board, king, by);
    }
    let bit = KIND_BIT[by.index()][arrived as usize];
    let d = dest as i32 - king as i32;
    let fwd = if by == Color::White { WIDTH } else { -WIDTH };
    let leaps = if d.abs() <= LEAP_BIAS {
        LEAP_BY_OFFSET[(d + LEAP_BIAS) as usize]
    } else {
        0
    };
    if bit & leaps != 0
        || (bit & PAWNLIKE != 0 && (d == -fwd + 1 || d == -fwd - 1))
        || (bit & WARRIOR != 0 && [2 * fwd + 1, 2 * fwd - 1, fwd + 2, fwd - 2].contains(&d))
    {
        let mut path = [0; OCC_WORDS];
        set_add(&mut path, dest as i32);
        return Some(path);
    }
    changed_lines(king, m)
        .into_iter()
        .flatten()
        .find_map(|(dir, orth)| {
            line_attacker(board, king, by, dir, orth).map(|found| line_path(king, dir, found))
        })
}

/// Could move `m`, whose piece is a `arrived` on its destination, attack a King on `k` that it did not attack
/// before? Only by arriving within leaping distance or on one of the King's lines, or by emptying or filling a
/// square on one of them; Griffons and Rhinos turn onto a line from beside it, so they always may.
#[inline]
pub(super) fn move_may_check(k: Sq, m: Move, arrived: Kind) -> bool {
    if matches!(arrived, Kind::Griffon | Kind::Rhino) {
        return true;
    }
    let (kf, kr) = (file_of(k), rank_of(k));
    let aligned = |s: Sq| {
        let (df, dr) = (file_of(s) - kf, rank_of(s) - kr);
        df == 0 || dr == 0 || df.abs() == dr.abs()
    };
    let dest = m.destination();
    let near = (file_of(dest) - kf).abs().max((rank_of(dest) - kr).abs()) <= 3;
    let extra_square = matches!(
        m.kind(),
        MoveKind::EnPassant | MoveKind::HitAndRun | MoveKind::Castling
    );
    near || aligned(m.from()) || aligned(m.to()) || (extra_square && aligned(m.extra()))
}

/// The distinct lines through `k` that hold a square `m` changes (its origin, its target, and the captured
/// square of an en-passant capture or the landing square of a hit-and-run): only along these can `m` open or
/// close a line attack on `k`.
pub(super) fn changed_lines(k: Sq, m: Move) -> [Option<(i32, bool)>; 3] {
    let mut lines = [direction(k, m.from()), direction(k, m.to()), None];
    if matches!(m.kind(), MoveKind::EnPassant | MoveKind::HitAndRun) {
        lines[2] = direction(k, m.extra());
    }
    for i in 1..3 {
        if lines[..i].contains(&lines[i]) {
            lines[i] = None;
        }
    }
    lines
}

/// The unit step from `k` towards `s` if they share a rank, file or diagonal (with whether it is orthogonal).
#[inline(always)]
pub(super) fn direction(k: Sq, s: Sq) -> Option<(i32, bool)> {
    let (df, dr) = (file_of(s) - file_of(k), rank_of(s) - rank_of(k));
    if (df, dr) == (0, 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return None;
    }
    Some((df.signum() + dr.signum() * WIDTH, df == 0 || dr == 0))
}
