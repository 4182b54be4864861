//! Random Makromachy games: at every ply the incremental key equals the key from scratch, the FEN round-trips
//! to the same position, the parent of a copy-make is untouched, and attack detection agrees with the move
//! generator (a square is attacked exactly when some pseudo-legal capture lands on it).

use corvid::makro::geometry::{color_of, is_piece, sq};
use corvid::makro::{MoveKind, Position};

mod common;
use common::Rng;

fn attack_detection_agrees_with_generation(pos: &Position) {
    let us = pos.side_to_move();
    let mut them_to_move = pos.clone();
    them_to_move.make_null_move();
    let mut captures = Vec::new();
    them_to_move.pseudo_moves(&mut captures);
    for r in 0..14 {
        for f in 0..14 {
            let s = sq(f, r);
            let c = pos.at(s);
            if !is_piece(c) || color_of(c) != us {
                continue;
            }
            let by_generation = captures.iter().any(|m| {
                m.to() == s
                    && matches!(
                        m.kind(),
                        MoveKind::Normal | MoveKind::Promotion | MoveKind::HitAndRun
                    )
            });
            assert_eq!(
                pos.is_attacked(s, us.flip()),
                by_generation,
                "square {} in {}",
                corvid::makro::geometry::square_name(s),
                pos.to_fen()
            );
        }
    }
}

#[test]
fn random_games_keep_keys_fens_and_attacks_consistent() {
    let mut rng = Rng::new(0x5EED_CAFE_F00D_0001);
    let mut plies = 0;
    for _game in 0..60 {
        let mut pos = Position::startpos();
        for ply in 0..220u32 {
            assert_eq!(pos.key(), pos.compute_key(), "key at {}", pos.to_fen());
            for color in [corvid::chess::Color::White, corvid::chess::Color::Black] {
                let scanned = (0..14)
                    .flat_map(|r| (0..14).map(move |f| sq(f, r)))
                    .filter(|&s| pos.piece_at(s).is_some_and(|(c, _)| c == color))
                    .count();
                assert_eq!(
                    pos.piece_count(color),
                    scanned,
                    "piece count at {}",
                    pos.to_fen()
                );
            }
            let side = pos.side_to_move();
            assert_eq!(
                pos.in_check(),
                pos.is_attacked(pos.king_square(side), side.flip()),
                "cached check flag at {}",
                pos.to_fen()
            );
            let again = Position::from_fen(&pos.to_fen()).expect("own FEN parses");
            assert_eq!(again.to_fen(), pos.to_fen());
            assert_eq!(
                again.key(),
                pos.key(),
                "key after FEN round trip at {}",
                pos.to_fen()
            );
            if ply.is_multiple_of(2) {
                attack_detection_agrees_with_generation(&pos);
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then, so that games open up and special moves get played.
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| m.kind() != MoveKind::Normal || pos.piece_at(m.to()).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.next().is_multiple_of(3) {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let before = pos.clone();
            let mut child = pos.clone();
            child.make_move(m);
            assert_eq!(before, pos, "copy-make leaves the parent untouched");
            pos = child;
            plies += 1;
        }
    }
    assert!(plies > 1000, "only {plies} plies");
}

/// Make and unmake through the search's game interface restore Makromachy positions exactly.
#[test]
fn make_unmake_restores_the_position_exactly() {
    use corvid::game::{Game, GenKind};
    use corvid::variants::MakroGame;
    let mut rng = Rng::new(0xFACE_B00C_0000_0001);
    for _ in 0..8 {
        let start = Position::startpos();
        let mut game = MakroGame::new(start.clone());
        let mut trail = vec![start.clone()];
        for _ in 0..150 {
            let mut list = <MakroGame as Game>::MoveList::default();
            game.generate(GenKind::All, &mut list);
            let moves = list.as_slice();
            if moves.is_empty() || (trail.len() > 1 && rng.below(4) == 0) {
                if trail.len() == 1 {
                    break;
                }
                game.unmake_move();
                trail.pop();
            } else {
                let m = moves[rng.below(moves.len())].mv;
                game.make_move(m);
                let mut expected = trail.last().expect("non-empty").clone();
                expected.make_move(m);
                trail.push(expected);
            }
            assert_eq!(game.position(), trail.last().expect("non-empty"));
            assert_eq!(game.key(), game.position().compute_key());
        }
        while trail.len() > 1 {
            game.unmake_move();
            trail.pop();
        }
        assert_eq!(game.position(), &start);
    }
}
