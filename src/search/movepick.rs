//! The staged move picker: the hash move first (before any generation), then captures and promotions that
//! do not lose material by SEE, then quiet moves (killers and the counter move first, then by history), then
//! the losing captures. Quiet moves are generated only if no earlier move caused a cutoff.
//!
//! Moves after the hash move come as the game generated them, which may be pseudo-legal
//! ([`Game::legal_generated`]): the search tests them after its pruning, so that pruned moves are never
//! tested.

use super::history::Histories;
use crate::game::{Game, GenKind, MoveBuffer};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenNoisy,
    GoodNoisy,
    GenQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// Quiet-ordering scores for the killers and the counter move, above any history score.
const KILLER_1: i32 = 1 << 24;
const KILLER_2: i32 = KILLER_1 - 1;
const COUNTER: i32 = KILLER_1 - 2;

/// Context the picker scores quiet moves with.
#[derive(Clone, Copy)]
pub struct OrderContext<M> {
    /// Side to move (index into side-specific tables).
    pub side: usize,
    /// Killers at this ply.
    pub killers: [M; 2],
    /// The counter move to the previous move.
    pub counter: M,
    /// Piece-square index of the previous move (one ply back) and of our own previous move (two back).
    pub prev1: Option<usize>,
    pub prev2: Option<usize>,
}

/// Yields the moves of one node, best-looking first.
pub struct MovePicker<G: Game> {
    stage: Stage,
    tt_move: G::Move,
    noisy: G::MoveList,
    quiet: G::MoveList,
    cur: usize,
    bad_end: usize,
    /// Quiescence without check: noisy moves only, and no good/bad split (the caller prunes by SEE itself).
    qsearch: bool,
    /// Set by the search once it prunes the remaining quiet moves (all but checks, which it tests one by
    /// one): they are then yielded unordered, since ordering them is wasted work.
    pub skip_quiets: bool,
}

impl<G: Game> MovePicker<G> {
    /// A picker for a full-width node.
    pub fn new(tt_move: G::Move) -> Self {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            noisy: G::MoveList::default(),
            quiet: G::MoveList::default(),
            cur: 0,
            bad_end: 0,
            qsearch: false,
            skip_quiets: false,
        }
    }

    /// A picker for quiescence search: noisy moves only unless `in_check` (then every evasion).
    pub fn new_qsearch(tt_move: G::Move, in_check: bool) -> Self {
        let mut p = Self::new(tt_move);
        p.qsearch = !in_check;
        p
    }

    /// Generates and scores the captures and promotions. Kept out of `next` (as is the quiet scoring), which
    /// runs once per move tried: inlined, the compiler hoisted the scoring's table lookups to its top, and
    /// every call paid for them (moving them out saved 4.6 % of a search's instructions).
    #[inline(never)]
    fn generate_noisy(&mut self, game: &G, hist: &Histories<G::Move>) {
        game.generate(GenKind::Noisy, &mut self.noisy);
        for sm in self.noisy.as_mut_slice() {
            let ps = hist.ps(game.moved_piece(sm.mv), G::to_square(sm.mv));
            sm.score = game.capture_value(sm.mv) * 16 + hist.capture(ps) / 16;
        }
    }

    /// Scores the generated quiet moves: killers and the counter move first, then by history.
    #[inline(never)]
    fn score_quiets(&mut self, game: &G, hist: &Histories<G::Move>, ctx: &OrderContext<G::Move>) {
        let (row1, row2) = (hist.cont_row(ctx.prev1), hist.cont_row(ctx.prev2));
        for sm in self.quiet.as_mut_slice() {
            let m = sm.mv;
            sm.score = if m == ctx.killers[0] {
                KILLER_1
            } else if m == ctx.killers[1] {
                KILLER_2
            } else if m == ctx.counter {
                COUNTER
            } else {
                let ps = hist.ps(game.moved_piece(m), G::to_square(m));
                hist.quiet(ctx.side, ps) + hist.cont_at(row1, ps) + hist.cont_at(row2, ps)
            };
        }
    }

    /// The next move to try, or `None` when all were yielded.
    pub fn next(
        &mut self,
        game: &G,
        hist: &Histories<G::Move>,
        ctx: &OrderContext<G::Move>,
    ) -> Option<G::Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenNoisy;
                    let tt = self.tt_move;
                    if tt != G::Move::default()
                        && (!self.qsearch || game.is_noisy(tt))
                        && game.is_legal(tt)
                    {
                        return Some(tt);
                    }
                    self.tt_move = G::Move::default();
                }
                Stage::GenNoisy => {
                    self.generate_noisy(game, hist);
                    self.cur = 0;
                    self.bad_end = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    let list = self.noisy.as_mut_slice();
                    if self.cur >= list.len() {
                        self.stage = if self.qsearch {
                            Stage::Done
                        } else {
                            Stage::GenQuiet
                        };
                        continue;
                    }
                    select_best(list, self.cur);
                    let m = list[self.cur].mv;
                    if m == self.tt_move {
                        self.cur += 1;
                        continue;
                    }
                    if !self.qsearch && !game.see_ge(m, 0) {
                        // Losing capture: park it at the front and try it after the quiet moves.
                        list.swap(self.cur, self.bad_end);
                        self.bad_end += 1;
                        self.cur += 1;
                        continue;
                    }
                    self.cur += 1;
                    return Some(m);
                }
                Stage::GenQuiet => {
                    game.generate(GenKind::Quiet, &mut self.quiet);
                    self.stage = Stage::Quiet;
                    self.cur = 0;
                    if !self.skip_quiets {
                        self.score_quiets(game, hist, ctx);
                    }
                }
                Stage::Quiet => {
                    let list = self.quiet.as_mut_slice();
                    if self.cur >= list.len() {
                        self.stage = Stage::BadNoisy;
                        self.cur = 0;
                        continue;
                    }
                    if !self.skip_quiets {
                        if !BIG_BOARD::<G>() {
                            select_best(list, self.cur);
                        } else if self.cur < BIG_BOARD_SELECTS {
                            select_best_in_order(list, self.cur);
                        } else if self.cur == BIG_BOARD_SELECTS {
                            sort_moves(&mut list[self.cur..]);
                        }
                    }
                    let m = list[self.cur].mv;
                    self.cur += 1;
                    if m == self.tt_move {
                        continue;
                    }
                    return Some(m);
                }
                Stage::BadNoisy => {
                    if self.cur >= self.bad_end {
                        self.stage = Stage::Done;
                        continue;
                    }
                    let m = self.noisy.as_slice()[self.cur].mv;
                    self.cur += 1;
                    return Some(m);
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Big boards (Makromachy: a hundred quiet moves and more) select their first few quiet moves one by one
/// (most nodes cut off within them), then sort the rest once rather than select the best at every step: a
/// selection pass over the whole list per move tried cost more than the rest of the node. The order is the
/// same either way, that of a complete stable sort: leaving the moves with negative history unsorted (as some
/// engines do) played clearly weaker at equal nodes (+24 =5 -40 in 69 Makromachy games).
#[allow(non_snake_case)]
#[inline(always)]
const fn BIG_BOARD<G: Game>() -> bool {
    G::SQUARES > 64
}

/// How many quiet moves a big board selects before it sorts the rest.
const BIG_BOARD_SELECTS: usize = 3;

/// `select_best` keeping the other moves in their order (what a stable sort would yield next).
#[inline(always)]
fn select_best_in_order<M: Copy>(list: &mut [crate::game::ScoredMove<M>], from: usize) {
    let mut best = from;
    for i in from + 1..list.len() {
        if list[i].score > list[best].score {
            best = i;
        }
    }
    list[from..=best].rotate_right(1);
}

/// Sorts `list` best first, ties kept in generation order (a stable sort: the standard library's runs in
/// O(n log n) with a stack buffer at these sizes, where insertion sorting went quadratic once history had
/// spread the scores).
fn sort_moves<M: Copy>(list: &mut [crate::game::ScoredMove<M>]) {
    list.sort_by_key(|m| std::cmp::Reverse(m.score));
}

/// Moves the highest-scored move of `list[from..]` to `from` (selection sort, one step at a time: most nodes
/// cut off after a move or two, so sorting everything up front would be wasted).
#[inline(always)]
fn select_best<M: Copy>(list: &mut [crate::game::ScoredMove<M>], from: usize) {
    let mut best = from;
    for i in from + 1..list.len() {
        if list[i].score > list[best].score {
            best = i;
        }
    }
    list.swap(from, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::variants::ChessGame;

    #[test]
    fn yields_every_legal_move_once_hash_move_first() {
        let fens = [
            crate::chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, false).expect("valid FEN");
            let game = ChessGame::new(pos);
            let legal = pos.legal_moves();
            let hist = Histories::new(12, 64);
            let tt_move = legal[legal.len() / 2];
            let ctx = OrderContext {
                side: 0,
                killers: [legal[0], crate::chess::Move::NONE],
                counter: legal[legal.len() - 1],
                prev1: None,
                prev2: None,
            };
            let mut picker = MovePicker::<ChessGame>::new(tt_move);
            let mut seen = Vec::new();
            while let Some(m) = picker.next(&game, &hist, &ctx) {
                seen.push(m);
            }
            assert_eq!(seen[0], tt_move);
            let mut a: Vec<u16> = seen.iter().map(|m| m.0).collect();
            let mut b: Vec<u16> = legal.iter().map(|m| m.0).collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{fen}");
        }
    }

    #[test]
    fn makromachy_pseudo_legal_moves_filtered_by_the_caller_are_the_legal_moves() {
        // Makromachy's noisy and quiet lists are pseudo-legal and the picker passes them on untested: once
        // the caller drops what `legal_generated` rejects, each legal move comes exactly once, the hash move
        // first. Positions from seeded random play, in and out of check.
        use crate::makro::Position as MakroPosition;
        use crate::variants::MakroGame;
        let mut pos = MakroPosition::startpos();
        let mut rng = crate::rng::Rng::new(0x9E37_79B9_7F4A_7C15);
        let (mut checked, mut rejected) = (0, 0);
        for ply in 0..300 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let game = MakroGame::new(pos.clone());
            let hist = Histories::new(MakroGame::PIECE_INDICES, MakroGame::SQUARES);
            let tt_move = legal[rng.below(legal.len())];
            let ctx = OrderContext {
                side: pos.side_to_move().index(),
                killers: [legal[0], crate::makro::Move::NONE],
                counter: legal[legal.len() - 1],
                prev1: None,
                prev2: None,
            };
            let mut picker = MovePicker::<MakroGame>::new(tt_move);
            let mut seen = Vec::new();
            while let Some(m) = picker.next(&game, &hist, &ctx) {
                if game.legal_generated(m) {
                    seen.push(m);
                } else {
                    rejected += 1;
                }
            }
            assert_eq!(seen[0], tt_move);
            let mut a: Vec<u32> = seen.iter().map(|m| m.0).collect();
            let mut b: Vec<u32> = legal.iter().map(|m| m.0).collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "ply {ply}: {}", pos.to_fen());
            checked += pos.in_check() as u32;
            pos.make_move(legal[rng.below(legal.len())]);
        }
        assert!(
            checked > 0 && rejected > 0,
            "{checked} checks, {rejected} rejected"
        );
    }

    #[test]
    fn winning_capture_before_quiet_and_losing_capture_last() {
        // Rxd5 wins a rook; Qxa6 loses the queen for a pawn (b7 defends a6).
        let fen = "4k3/1p6/p7/3r4/8/8/8/Q2RK3 w - - 0 1";
        let pos = Position::from_fen(fen, false).expect("valid FEN");
        let game = ChessGame::new(pos);
        let hist = Histories::new(12, 64);
        let ctx = OrderContext {
            side: 0,
            killers: [crate::chess::Move::NONE; 2],
            counter: crate::chess::Move::NONE,
            prev1: None,
            prev2: None,
        };
        let mut picker = MovePicker::<ChessGame>::new(crate::chess::Move::NONE);
        let mut seen = Vec::new();
        while let Some(m) = picker.next(&game, &hist, &ctx) {
            seen.push(m.to_uci(false));
        }
        assert_eq!(seen[0], "d1d5");
        assert_eq!(seen.last().map(String::as_str), Some("a1a6"));
    }
}
