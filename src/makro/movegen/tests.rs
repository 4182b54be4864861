//! Makromachy move generation against the rules, move by move.

use super::*;

/// The reference legality test: play the move in full and look at the King (and the anti-trade rule).
fn legal_by_playing(pos: &Position, m: Move) -> bool {
    let us = pos.side;
    let mut next = pos.clone();
    next.make_move(m);
    if next.is_attacked(next.king_square(us), us.flip()) {
        return false;
    }
    let (target, mover) = (pos.at(m.to()), pos.at(m.from()));
    let anti_trade = m.kind() == MoveKind::Normal
        && is_piece(target)
        && kind_of(target) == Kind::Terror
        && matches!(kind_of(mover), Kind::Terror | Kind::Eagle);
    !(anti_trade && next.is_attacked(m.to(), us.flip()))
}

/// `gives_check` (scratch board) agrees with playing the move and asking the position.
#[test]
fn gives_check_agrees_with_making_the_move() {
    let mut rng = crate::rng::Rng::new(0x000C_4EC4);
    let mut next_rand = || rng.next_u64();
    let mut checks = 0;
    for _ in 0..30 {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            let all = pos.legal_moves();
            for &m in &all {
                let mut next = pos.clone();
                next.make_move(m);
                assert_eq!(
                    pos.gives_check(m),
                    next.in_check(),
                    "{m:?} in {}",
                    pos.to_fen()
                );
                checks += usize::from(next.in_check());
            }
            if all.is_empty() {
                break;
            }
            pos.make_move(all[(next_rand() % all.len() as u64) as usize]);
        }
    }
    assert!(checks > 100, "only {checks} checking moves seen");
}

/// Noisy-only generation yields exactly the captures and promotions of full generation.
#[test]
fn noisy_generation_matches_filtered_full_generation() {
    let mut rng = crate::rng::Rng::new(0x0BAD_5EED);
    let mut next_rand = || rng.next_u64();
    for _ in 0..30 {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            let all = pos.legal_moves();
            let mut want: Vec<Move> = all
                .iter()
                .copied()
                .filter(|m| {
                    m.kind() == MoveKind::Promotion
                        || matches!(m.kind(), MoveKind::EnPassant | MoveKind::HitAndRun)
                        || (m.kind() == MoveKind::Normal && pos.piece_at(m.to()).is_some())
                })
                .collect();
            let mut got = pos.legal_noisy_moves();
            want.sort_by_key(|m| m.0);
            got.sort_by_key(|m| m.0);
            assert_eq!(got, want, "{}", pos.to_fen());
            if all.is_empty() {
                break;
            }
            pos.make_move(all[(next_rand() % all.len() as u64) as usize]);
        }
    }
}

#[test]
fn fast_legality_filter_agrees_with_playing_the_move() {
    let mut rng = crate::rng::Rng::new(0x0DDB_A11C_AFE0);
    let mut next_rand = || rng.next_u64();
    let mut checked = 0;
    for _ in 0..120 {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            let mut pseudo = Vec::new();
            pos.pseudo_moves(&mut pseudo);
            let (lines, check) = (pos.king_lines(), pos.in_check());
            for &m in &pseudo {
                let truth = legal_by_playing(&pos, m);
                assert_eq!(
                    pos.legal_with(m, Some(&lines), check),
                    truth,
                    "{m:?} in {}",
                    pos.to_fen()
                );
                // The search's one-move tests agree too.
                assert_eq!(pos.is_legal_pseudo(m), truth, "{m:?} in {}", pos.to_fen());
                assert_eq!(pos.is_legal_move(m), truth, "{m:?} in {}", pos.to_fen());
                checked += 1;
            }
            // Noisy and quiet generation split the pseudo-legal moves exactly.
            let (mut noisy, mut quiet) = (Vec::new(), Vec::new());
            pos.pseudo::<NOISY>(&mut noisy);
            pos.pseudo::<QUIET>(&mut quiet);
            let mut split: Vec<u32> = noisy.iter().chain(&quiet).map(|m| m.0).collect();
            let mut all: Vec<u32> = pseudo.iter().map(|m| m.0).collect();
            split.sort_unstable();
            all.sort_unstable();
            assert_eq!(split, all, "{}", pos.to_fen());
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[(next_rand() % legal.len() as u64) as usize];
            pos.make_move(m);
            // The check flag, found by looking only where the move could make a check, is exact.
            assert_eq!(
                pos.in_check(),
                pos.is_attacked(pos.king_square(pos.side), pos.side.flip()),
                "after {m:?}: {}",
                pos.to_fen()
            );
        }
    }
    assert!(checked > 100_000);
}
