//! The node searches of one worker: principal variation search with its pruning, reductions and
//! extensions, quiescence, and the history and PV updates they make.

use super::*;

impl<G: Game> Worker<'_, G> {
    /// Principal variation search. `PV` nodes have an open window; `cut_node` marks expected fail-highs.
    pub(super) fn search<const PV: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Leaves go to quiescence.
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply, 0);
        }
        // Step 2. Draws by rule, the ply ceiling, and mate distance pruning.
        let in_check = match self.enter_node::<PV>(ply) {
            Ok(in_check) => in_check,
            Err(score) => return score,
        };
        alpha = alpha.max(-MATE_SCORE + ply as i32);
        beta = beta.min(MATE_SCORE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 3. Transposition table.
        let key = self.game.key();
        let excluded = self.frames[ply].excluded;
        let singular_search = excluded != G::Move::default();
        // A singular-extension search must not be cut by the very entry it is testing.
        let hit = if singular_search {
            None
        } else {
            self.shared.tt.probe(key, ply)
        };
        let mut tt_move = G::Move::default();
        // On a principal variation now or when this position was last stored.
        let tt_pv = PV || hit.is_some_and(|h| h.pv);
        if let Some(h) = hit {
            tt_move = G::move_from_bits(h.mv);
            if !PV && h.depth >= depth && h.bound.settles(h.score, alpha, beta) {
                // A quiet hash move that refutes this node is rewarded as if it had been searched.
                if h.score >= beta
                    && tt_move != G::Move::default()
                    && !self.game.is_noisy(tt_move)
                    && self.game.is_legal(tt_move)
                {
                    let ps = self
                        .hist
                        .ps(self.game.moved_piece(tt_move), G::to_square(tt_move));
                    let side = self.game.side_to_move();
                    let (prev1, prev2) = (self.line_ps(ply, 1), self.line_ps(ply, 2));
                    self.hist
                        .update_quiet(side, ps, prev1, prev2, history_bonus(depth));
                }
                return h.score;
            }
        }

        // Step 3b. Endgame tablebases, right after a capture or pawn move: an exact verdict ends the node, a
        // win or loss bounds it (a PV node goes on searching for the line, within the bound).
        let mut tb_best = -INFINITY;
        let mut tb_max = INFINITY;
        if self.shared.tb_max_pieces > 0 && !singular_search && depth >= self.shared.tb_probe_depth
        {
            if let Some(wdl) = self.game.probe_wdl(self.shared.tb_max_pieces) {
                self.tbhits += 1;
                let value = tb_score(wdl, ply, self.shared.tb_rule50);
                let bound = if value >= TB_WIN_BOUND {
                    TtBound::Lower
                } else if value <= -TB_WIN_BOUND {
                    TtBound::Upper
                } else {
                    TtBound::Exact
                };
                if bound.settles(value, alpha, beta) {
                    self.shared.tt.store(
                        key,
                        0,
                        value,
                        NO_EVAL,
                        (depth + 6).min(MAX_PLY as i32 - 1),
                        bound,
                        ply,
                        tt_pv,
                    );
                    return value;
                }
                if PV {
                    if bound == TtBound::Lower {
                        tb_best = value;
                        alpha = alpha.max(value);
                    } else {
                        tb_max = value;
                    }
                }
            }
        }

        // Step 4. Static evaluation (kept raw in the table, corrected by the correction history on the ply
        // stack), refined by the table's score when its bound allows (for pruning decisions).
        let raw_eval = if in_check || singular_search {
            NO_EVAL
        } else {
            match hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => self.game.evaluate(),
            }
        };
        let static_eval = if in_check {
            NO_EVAL
        } else if singular_search {
            self.frames[ply].eval
        } else {
            self.corrected(raw_eval)
        };
        let eval = match hit {
            Some(h)
                if !in_check
                    && h.score.abs() < MATE_BOUND
                    && h.bound.settles(h.score, static_eval, static_eval) =>
            {
                h.score
            }
            _ => static_eval,
        };
        self.frames[ply].eval = static_eval;
        // Against our own evaluation two plies ago, or four when we were in check then.
        let earlier = if ply >= 2 && self.frames[ply - 2].eval != NO_EVAL {
            self.frames[ply - 2].eval
        } else if ply >= 4 {
            self.frames[ply - 4].eval
        } else {
            NO_EVAL
        };
        let improving = !in_check && earlier != NO_EVAL && static_eval > earlier;
        // Hindsight reduction: the move into this node was reduced and both sides' evaluations call the
        // position good for them, so it is quiet and the reduction was right; take one more ply off.
        if !PV
            && !in_check
            && !singular_search
            && depth >= 2
            && self.frames[ply - 1].reduction >= hindsight_min_reduction()
            && self.frames[ply - 1].eval != NO_EVAL
            && static_eval + self.frames[ply - 1].eval > hindsight_margin()
        {
            depth -= 1;
        }
        self.hist.killers[ply + 1] = [G::Move::default(); 2];
        self.frames[ply + 1].cutoffs = 0;

        // Step 5. Whole-node pruning: reverse futility, razoring, null move.
        if !PV && !in_check && !singular_search {
            if depth <= rfp_max_depth()
                && eval.abs() < MATE_BOUND
                && eval - rfp_margin() * (depth - improving as i32) >= beta
            {
                // Halfway to beta: the margin says the node fails high, not by how much.
                return (eval + beta) / 2;
            }
            if depth <= razor_max_depth() && eval + razor_margin() * depth < alpha {
                let v = self.qsearch::<false>(alpha - 1, alpha, ply, 0);
                if v < alpha {
                    return v;
                }
            }
            if depth >= nmp_min_depth()
                && eval >= beta
                && !self.frames[ply - 1].null
                && self.game.null_move_ok()
            {
                let r = nmp_base_reduction()
                    + depth / nmp_depth_divisor()
                    + ((eval - beta) / nmp_eval_divisor()).min(nmp_eval_max_reduction());
                self.frames[ply].ps = None;
                self.frames[ply].null = true;
                self.game.make_null_move();
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.game.unmake_null_move();
                self.frames[ply].null = false;
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    // A win proved by passing is not to be trusted as a win (zugzwang): only as a cutoff.
                    return if v >= TB_WIN_BOUND { beta } else { v };
                }
            }
        }

        // Step 6. ProbCut: a capture that beats beta by a wide margin in a shallow search almost surely beats
        // beta in the full one.
        let probcut_beta = beta + probcut_margin();
        if !PV
            && !in_check
            && !singular_search
            && depth >= probcut_min_depth()
            && beta.abs() < MATE_BOUND
            && !hit.is_some_and(|h| {
                h.depth >= depth - probcut_tt_depth_slack() && h.score < probcut_beta
            })
        {
            let mut picker = MovePicker::<G>::new_qsearch(tt_move, false);
            let ctx = OrderContext {
                side: self.game.side_to_move(),
                killers: [G::Move::default(); 2],
                counter: G::Move::default(),
                prev1: None,
                prev2: None,
            };
            while let Some(m) = picker.next(&self.game, self.hist, &ctx) {
                if !self.game.see_ge(m, probcut_beta - static_eval) || !self.game.legal_generated(m)
                {
                    continue;
                }
                self.frames[ply].ps = Some(self.hist.ps(self.game.moved_piece(m), G::to_square(m)));
                self.frames[ply].noisy = true;
                self.game.make_move(m);
                self.shared.tt.prefetch(self.game.key());
                let mut v = -self.qsearch::<false>(-probcut_beta, -probcut_beta + 1, ply + 1, 0);
                if v >= probcut_beta {
                    v = -self.search::<false>(
                        -probcut_beta,
                        -probcut_beta + 1,
                        depth - probcut_reduction(),
                        ply + 1,
                        !cut_node,
                    );
                }
                self.game.unmake_move();
                if self.stopped {
                    return 0;
                }
                if v >= probcut_beta {
                    self.shared.tt.store(
                        key,
                        G::move_to_bits(m),
                        v,
                        raw_eval,
                        depth - probcut_reduction() + 1,
                        TtBound::Lower,
                        ply,
                        tt_pv,
                    );
                    return v;
                }
            }
        }

        // Step 7. Internal iterative reduction: without a hash move this node is probably not worth full depth.
        if (PV || cut_node)
            && depth >= iir_min_depth()
            && tt_move == G::Move::default()
            && !singular_search
        {
            depth -= 1;
        }

        // Step 8. The move loop.
        let (prev1, prev2) = (self.line_ps(ply, 1), self.line_ps(ply, 2));
        let side = self.game.side_to_move();
        let ctx = OrderContext {
            side,
            killers: self.hist.killers[ply],
            counter: self.hist.counter(prev1),
            prev1,
            prev2,
        };
        let mut picker = MovePicker::<G>::new(tt_move);
        let mut best = tb_best;
        let mut best_move = G::Move::default();
        let mut moves = 0usize;
        let mut quiets_tried = [G::Move::default(); MAX_TRIED];
        let mut quiets_len = 0;
        let mut noisy_tried = [G::Move::default(); MAX_TRIED];
        let mut noisy_len = 0;
        let tt_capture = tt_move != G::Move::default() && self.game.is_noisy(tt_move);
        // The continuation-history rows of the two previous moves, found once for all the node's moves.
        let (cont_row1, cont_row2) = (self.hist.cont_row(prev1), self.hist.cont_row(prev2));
        let lmp_limit = (lmp_base() + depth * depth) as usize / if improving { 1 } else { 2 };
        let original_alpha = alpha;

        while let Some(m) = picker.next(&self.game, self.hist, &ctx) {
            if m == excluded {
                continue;
            }
            let noisy = self.game.is_noisy(m);
            let ps = self.hist.ps(self.game.moved_piece(m), G::to_square(m));
            let hist_score = if noisy {
                self.hist.capture(ps)
            } else {
                self.hist.quiet(side, ps)
                    + self.hist.cont_at(cont_row1, ps)
                    + self.hist.cont_at(cont_row2, ps)
            };

            // Step 9. Move-level pruning once a non-losing score is secured.
            if best > -MATE_BOUND && !in_check {
                let lmr_depth = (depth - lmr(depth, moves + 1)).max(0);
                if !noisy {
                    let lmp = moves >= lmp_limit;
                    let futile = lmr_depth <= futility_max_depth()
                        && eval + futility_base() + futility_per_depth() * lmr_depth <= alpha;
                    if lmp || futile {
                        // Later quiet moves are pruned as well, except those that give check.
                        picker.skip_quiets = true;
                    }
                    if picker.skip_quiets && !self.game.gives_check(m) {
                        continue;
                    }
                    // Quiet moves with a bad record are not worth a look near the leaves.
                    if depth <= history_prune_max_depth()
                        && hist_score < -history_prune_margin() * depth
                    {
                        continue;
                    }
                    if lmr_depth <= see_prune_max_depth()
                        && !self
                            .game
                            .see_ge(m, see_quiet_margin() * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                } else if depth <= see_prune_max_depth()
                    && !self.game.see_ge(m, see_noisy_margin() * depth)
                {
                    continue;
                }
            }

            // Step 10. Singular extension: if every other move fails well below the hash move's score, the
            // hash move is the only good one and deserves a deeper look. If even the others beat beta, this
            // node fails high on several moves (multi-cut).
            let mut extension = 0;
            if m == tt_move && depth >= se_min_depth() && (ply as i32) < 2 * self.root_depth {
                if let Some(h) = hit {
                    if h.depth >= depth - se_tt_depth_slack()
                        && h.bound != TtBound::Upper
                        && h.score.abs() < MATE_BOUND
                    {
                        let singular_beta = h.score - se_margin_per_depth() * depth / 8;
                        self.frames[ply].excluded = m;
                        let v = self.search::<false>(
                            singular_beta - 1,
                            singular_beta,
                            (depth - 1) / 2,
                            ply,
                            cut_node,
                        );
                        self.frames[ply].excluded = G::Move::default();
                        if self.stopped {
                            return 0;
                        }
                        if v < singular_beta {
                            extension = 1;
                            // Double extensions only in the first half of the tree, so lines cannot explode.
                            if !PV
                                && v < singular_beta - se_double_margin()
                                && (ply as i32) < self.root_depth
                            {
                                extension = 2;
                            }
                        } else if singular_beta >= beta {
                            return singular_beta;
                        } else if h.score >= beta {
                            extension = -1;
                        } else if cut_node {
                            // Expected to fail high on another move anyway: the hash move gets less.
                            extension = -se_cut_node_reduction();
                        }
                    }
                }
            }

            // Step 11. Make the move (generated moves may be pseudo-legal: tested only now, after the
            // pruning); check extension.
            if !self.game.legal_generated(m) {
                continue;
            }
            // The child's table entry is fetched while the move is made (and again by its real key after).
            self.shared.tt.prefetch(self.game.key_after(m));
            self.frames[ply].ps = Some(ps);
            self.frames[ply].noisy = noisy;
            self.game.make_move(m);
            self.shared.tt.prefetch(self.game.key());
            moves += 1;
            let gives_check = self.game.in_check();
            // A check extends only where the singular test did not shorten the move.
            let extension = if extension < 0 {
                extension
            } else {
                extension.max(gives_check as i32)
            };
            let new_depth = depth - 1 + extension;

            // Step 12. Late move reductions, then the PVS re-search ladder.
            let mut score;
            if depth >= lmr_min_depth() && moves > 1 + PV as usize && (!noisy || hist_score < 0) {
                let mut r = lmr(depth, moves);
                r -= tt_pv as i32;
                // A capture as the hash move makes quiet alternatives less likely to be best.
                r += (tt_capture && !noisy) as i32;
                r += !improving as i32;
                r += cut_node as i32;
                // This node's children keep failing high: it is probably failing low itself.
                r += (self.frames[ply + 1].cutoffs > lmr_cutoff_count()) as i32;
                r -= gives_check as i32;
                if m == ctx.killers[0] || m == ctx.killers[1] || m == ctx.counter {
                    r -= 1;
                }
                r -= hist_score / lmr_history_divisor();
                let reduced = (new_depth - r).clamp(1, new_depth.max(1));
                self.frames[ply].reduction = new_depth - reduced;
                score = -self.search::<false>(-alpha - 1, -alpha, reduced, ply + 1, true);
                self.frames[ply].reduction = 0;
                if score > alpha && reduced < new_depth {
                    // The reduced search's margin over the best score so far sets the re-search's depth:
                    // a wide one earns a ply more, a narrow one a ply less.
                    let deeper = score > best + lmr_deeper_margin() + 2 * new_depth;
                    let shallower = score < best + new_depth;
                    let research = new_depth + deeper as i32 - shallower as i32;
                    if research > reduced {
                        score =
                            -self.search::<false>(-alpha - 1, -alpha, research, ply + 1, !cut_node);
                    }
                }
            } else if !PV || moves > 1 {
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = alpha + 1; // forces the full-window search below
            }
            if PV && (moves == 1 || score > alpha) {
                score = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.game.unmake_move();
            if self.stopped {
                return 0;
            }

            // Step 13. Best move bookkeeping.
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.frames[ply].cutoffs += 1;
                        self.update_histories(
                            m,
                            noisy,
                            depth,
                            ply,
                            side,
                            prev1,
                            prev2,
                            &quiets_tried[..quiets_len],
                            &noisy_tried[..noisy_len],
                        );
                        break;
                    }
                    alpha = score;
                }
            }
            if m != best_move {
                if noisy && noisy_len < MAX_TRIED {
                    noisy_tried[noisy_len] = m;
                    noisy_len += 1;
                } else if !noisy && quiets_len < MAX_TRIED {
                    quiets_tried[quiets_len] = m;
                    quiets_len += 1;
                }
            }
        }

        // Step 14. Mate or stalemate (or, in a singular search, only the excluded move).
        if moves == 0 {
            if singular_search {
                return alpha;
            }
            // Every move may have been pruned only when a non-losing score existed, which needs a move: so no
            // legal move exists here.
            return if in_check {
                -MATE_SCORE + ply as i32
            } else {
                0
            };
        }

        if singular_search {
            return best;
        }
        // A fail low: the opponent's quiet move into this node refuted ours, so it earns history too.
        if best <= original_alpha && !self.frames[ply - 1].noisy {
            if let Some(prev_ps) = self.line_ps(ply, 1) {
                let (prev_prev1, prev_prev2) = (self.line_ps(ply, 2), self.line_ps(ply, 3));
                let bonus = history_bonus(depth) * fail_low_prior_bonus_percent() / 100;
                self.hist
                    .update_quiet(1 - side, prev_ps, prev_prev1, prev_prev2, bonus);
            }
        }
        // A PV node under a tablebase loss cannot score above it.
        best = best.min(tb_max);
        let bound = if best >= beta {
            TtBound::Lower
        } else if PV && best > original_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        // The correction history learns where the score is trustworthy about this position's own eval: not
        // from a capture's gain, not from a bound on the wrong side of the eval.
        if G::CORRECTION
            && !in_check
            && (best_move == G::Move::default() || !self.game.is_noisy(best_move))
            && best.abs() < TB_WIN_BOUND
            && !(bound == TtBound::Lower && best <= static_eval)
            && !(bound == TtBound::Upper && best >= static_eval)
        {
            let (side, keys) = (self.game.side_to_move(), self.game.correction_keys());
            self.hist
                .correction
                .update(side, keys, depth, best, static_eval);
        }
        self.shared.tt.store(
            key,
            G::move_to_bits(best_move),
            best,
            raw_eval,
            depth,
            bound,
            ply,
            tt_pv,
        );
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn update_histories(
        &mut self,
        m: G::Move,
        noisy: bool,
        depth: i32,
        ply: usize,
        side: usize,
        prev1: Option<usize>,
        prev2: Option<usize>,
        quiets: &[G::Move],
        noisies: &[G::Move],
    ) {
        let bonus = history_bonus(depth);
        let ps_of =
            |g: &G, h: &Histories<G::Move>, mv: G::Move| h.ps(g.moved_piece(mv), G::to_square(mv));
        if noisy {
            let ps = ps_of(&self.game, self.hist, m);
            self.hist.update_capture(ps, bonus);
        } else {
            self.hist.record_refutation(ply, prev1, m);
            // A quick cutoff at low depth says little; history then only learns from deeper nodes.
            if depth > 1 || !quiets.is_empty() {
                let ps = ps_of(&self.game, self.hist, m);
                self.hist.update_quiet(side, ps, prev1, prev2, bonus);
                for &q in quiets {
                    let ps = ps_of(&self.game, self.hist, q);
                    self.hist.update_quiet(side, ps, prev1, prev2, -bonus);
                }
            }
        }
        for &c in noisies {
            let ps = ps_of(&self.game, self.hist, c);
            self.hist.update_capture(ps, -bonus);
        }
    }

    /// The piece-square index of the move made `back` plies before `ply` (`None` before the root or for a
    /// null move).
    #[inline(always)]
    fn line_ps(&self, ply: usize, back: usize) -> Option<usize> {
        ply.checked_sub(back).and_then(|p| self.frames[p].ps)
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = m;
        let child = &tail[0];
        let n = child_len.min(MAX_PLY - 1);
        row[1..=n].copy_from_slice(&child[..n]);
        self.pv_len[ply] = n + 1;
    }

    /// What every node does first, in search and quiescence alike: count it, poll the limits, reset its
    /// line, and end at once on a rule's verdict (a loss by rule, a draw) or at the ply ceiling. `Err` holds
    /// the node's score then; `Ok` says whether the side to move is in check.
    #[inline(always)]
    pub(super) fn enter_node<const PV: bool>(&mut self, ply: usize) -> Result<bool, i32> {
        self.nodes += 1;
        if self.check_stop() {
            return Err(0);
        }
        if PV {
            self.pv_len[ply] = 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.game.lost_by_rule() {
            return Err(MATE_SCORE - ply as i32);
        }
        if self.game.is_draw() {
            return Err(0);
        }
        let in_check = self.game.in_check();
        if ply >= MAX_PLY - 1 {
            return Err(if in_check { 0 } else { self.game.evaluate() });
        }
        Ok(in_check)
    }

    /// The static evaluation `raw` as the correction history corrects it (unchanged for games without it).
    #[inline(always)]
    fn corrected(&self, raw: i32) -> i32 {
        if G::CORRECTION {
            let keys = self.game.correction_keys();
            self.hist
                .correction
                .correct(self.game.side_to_move(), keys, raw)
        } else {
            raw
        }
    }

    /// Quiescence search: captures and promotions (all evasions when in check) until the position is quiet.
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        let in_check = match self.enter_node::<PV>(ply) {
            Ok(in_check) => in_check,
            Err(score) => return score,
        };

        let key = self.game.key();
        let hit = self.shared.tt.probe(key, ply);
        let tt_pv = PV || hit.is_some_and(|h| h.pv);
        let mut tt_move = G::Move::default();
        if let Some(h) = hit {
            tt_move = G::move_from_bits(h.mv);
            if !PV && h.bound.settles(h.score, alpha, beta) {
                return h.score;
            }
        }

        let mut best;
        let eval;
        let raw_eval;
        if in_check {
            best = -INFINITY;
            eval = NO_EVAL;
            raw_eval = NO_EVAL;
        } else {
            raw_eval = match hit {
                Some(h) if h.eval != NO_EVAL => h.eval,
                _ => self.game.evaluate(),
            };
            eval = self.corrected(raw_eval);
            best = eval;
            if let Some(h) = hit {
                if h.score.abs() < MATE_BOUND && h.bound.settles(h.score, eval, eval) {
                    best = h.score;
                }
            }
            if best >= beta {
                if hit.is_none() {
                    self.shared
                        .tt
                        .store(key, 0, best, raw_eval, 0, TtBound::Lower, ply, tt_pv);
                }
                return best;
            }
            alpha = alpha.max(best);
        }

        let ctx = OrderContext {
            side: self.game.side_to_move(),
            killers: [G::Move::default(); 2],
            counter: G::Move::default(),
            prev1: None,
            prev2: None,
        };
        let mut picker = MovePicker::<G>::new_qsearch(tt_move, in_check);
        let mut best_move = G::Move::default();
        let mut moves = 0;
        // Deep in quiescence only recaptures on the square of the last move are tried (games that ask for it:
        // Makromachy, where a hundred pieces can otherwise keep capturing for millions of nodes).
        let recaptures_only = qdepth >= G::qs_recapture_depth() && !in_check;
        let last_to = if ply > 0 {
            self.frames[ply - 1].ps.map(|p| p % G::SQUARES)
        } else {
            None
        };
        while let Some(m) = picker.next(&self.game, self.hist, &ctx) {
            if recaptures_only && Some(G::to_square(m)) != last_to {
                continue;
            }
            if !in_check {
                // Captures elsewhere than on the last move's square that give no check: only the first
                // few are tried, and only those that can reach alpha (futility) or win material.
                if Some(G::to_square(m)) != last_to
                    && best > -TB_WIN_BOUND
                    && !self.game.gives_check(m)
                {
                    if moves >= qs_move_limit() {
                        continue;
                    }
                    let futility_base = eval + qs_futility_margin();
                    let futile = futility_base + self.game.capture_value(m);
                    if futile <= alpha {
                        best = best.max(futile);
                        continue;
                    }
                    if futility_base <= alpha && !self.game.see_ge(m, 1) {
                        best = best.max(futility_base);
                        continue;
                    }
                }
                // Delta pruning: even winning this material freely would not reach alpha.
                if eval + self.game.capture_value(m) + qs_delta_margin() <= alpha
                    && !self.game.see_ge(m, 1)
                {
                    continue;
                }
                if !self.game.see_ge(m, 0) {
                    continue;
                }
            }
            if !self.game.legal_generated(m) {
                continue;
            }
            self.shared.tt.prefetch(self.game.key_after(m));
            // The move's square: the child's recapture and futility tests read it.
            self.frames[ply].ps = Some(self.hist.ps(self.game.moved_piece(m), G::to_square(m)));
            self.game.make_move(m);
            self.shared.tt.prefetch(self.game.key());
            moves += 1;
            let score = -self.qsearch::<PV>(-beta, -alpha, ply + 1, qdepth + 1);
            self.game.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && moves == 0 {
            return -MATE_SCORE + ply as i32;
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else {
            TtBound::Upper
        };
        self.shared.tt.store(
            key,
            G::move_to_bits(best_move),
            best,
            raw_eval,
            0,
            bound,
            ply,
            tt_pv,
        );
        best
    }
}
