//! Random legal games from every suite position: at every ply the incremental Zobrist key must equal the key
//! computed from scratch, the FEN must round-trip to the same position and key, and the generator's views
//! (list, count, noisy + quiet split) must agree.

use corvid::chess::movegen::{NOISY, QUIET};
use corvid::chess::{Color, MoveKind, MoveList, Position};

mod common;
use common::Rng;

fn suite_fens() -> Vec<String> {
    let mut fens = Vec::new();
    for file in ["standard.epd", "chess960.epd"] {
        let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("suite file");
        fens.extend(
            text.lines()
                .filter_map(|l| l.split(';').next())
                .map(|f| f.trim().to_string()),
        );
    }
    fens
}

fn check_ply(pos: &Position) {
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "incremental key differs at {}",
        pos.to_fen()
    );
    // The pawn and non-pawn keys (correction history) follow every move the same way.
    let (pawns, others) = pos.compute_part_keys();
    assert_eq!(pos.pawn_key(), pawns, "pawn key at {}", pos.to_fen());
    assert_eq!(
        [
            pos.non_pawn_key(Color::White),
            pos.non_pawn_key(Color::Black)
        ],
        others,
        "non-pawn keys at {}",
        pos.to_fen()
    );
    let reparsed = Position::from_fen(&pos.to_fen(), pos.is_chess960()).expect("own FEN parses");
    assert_eq!(reparsed.to_fen(), pos.to_fen());
    assert_eq!(
        reparsed.key(),
        pos.key(),
        "key differs after FEN round trip at {}",
        pos.to_fen()
    );
    assert_eq!(reparsed.checkers(), pos.checkers());

    let all = pos.legal_moves();
    assert_eq!(all.len() as u64, pos.count_legal_moves());
    let mut noisy = MoveList::new();
    let mut quiet = MoveList::new();
    pos.generate::<NOISY, _>(&mut noisy);
    pos.generate::<QUIET, _>(&mut quiet);
    assert_eq!(
        noisy.len() + quiet.len(),
        all.len(),
        "noisy+quiet != all at {}",
        pos.to_fen()
    );
    for m in noisy.iter() {
        assert!(all.contains(m) && !quiet.contains(m));
        assert!(pos.is_capture(*m) || m.promotion_piece().is_some());
    }
    for m in quiet.iter() {
        assert!(all.contains(m));
        assert!(!pos.is_capture(*m) && m.promotion_piece().is_none());
    }
}

#[test]
fn incremental_key_matches_scratch_key_in_random_games() {
    let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
    let (mut plies, mut guessed) = (0, 0);
    for fen in suite_fens() {
        for _game in 0..3 {
            let mut pos = Position::from_fen(&fen, false).expect("suite FEN");
            for _ in 0..80 {
                check_ply(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let before = pos;
                let mut child = pos;
                child.make_move(m);
                // Copy-make: the parent is untouched, so "unmaking" is returning to it.
                assert_eq!(before, pos);
                // The prefetch's guess is the key for an ordinary move that changes no castling or e.p.
                // right (nearly all of them); for the others it may be anything.
                let ordinary = m.kind() == MoveKind::Normal
                    && child.castling_rights() == pos.castling_rights()
                    && pos.ep_square().is_none()
                    && child.ep_square().is_none();
                if ordinary {
                    assert_eq!(pos.key_after(m), child.key(), "{m:?} at {}", pos.to_fen());
                    guessed += 1;
                }
                pos = child;
                plies += 1;
            }
        }
    }
    assert!(plies > 100_000, "too few plies played: {plies}");
    assert!(
        guessed * 10 > plies * 8,
        "{guessed} of {plies} moves ordinary"
    );
}

#[test]
fn useless_en_passant_square_does_not_change_the_key() {
    // 1. e4 from the start: no black pawn can take on e3, so the position equals the FEN without e.p.
    let mut pos = Position::startpos();
    pos.make_move(pos.parse_uci_move("e2e4").unwrap());
    let plain = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        false,
    )
    .unwrap();
    assert_eq!(pos.key(), plain.key());
    assert_eq!(pos.ep_square(), None);

    // With a black pawn on d4, e2e4 gives a real e.p. right: the key differs from the same placement
    // reached without it.
    let mut real = Position::from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", false).unwrap();
    real.make_move(real.parse_uci_move("e2e4").unwrap());
    assert!(real.ep_square().is_some());
    let no_ep = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", false).unwrap();
    assert_ne!(real.key(), no_ep.key());

    // A capturer pinned to its king (here along the rank with both pawns leaving it) gives no right.
    let mut pinned = Position::from_fen("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", false).unwrap();
    pinned.make_move(pinned.parse_uci_move("e2e4").unwrap());
    assert_eq!(pinned.ep_square(), None);
    let pinned_plain = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1", false).unwrap();
    assert_eq!(pinned.key(), pinned_plain.key());
}

#[test]
fn castling_rights_and_side_change_the_key() {
    let with = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
    let without = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", false).unwrap();
    let black = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false).unwrap();
    assert_ne!(with.key(), without.key());
    assert_ne!(with.key(), black.key());
}

/// Make and unmake through the search's game interface: after any sequence of moves taken back, the position
/// is exactly the one before (position, key, FEN).
#[test]
fn make_unmake_restores_the_position_exactly() {
    use corvid::game::{Game, GenKind};
    use corvid::variants::ChessGame;
    let mut rng = Rng::new(0xC0FF_EE00_1234_5678);
    for fen in suite_fens().iter().step_by(7) {
        let start = Position::from_fen(fen, false).expect("suite FEN");
        let mut game = ChessGame::new(start);
        let mut trail = vec![start];
        for _ in 0..60 {
            let mut list = <ChessGame as Game>::MoveList::default();
            game.generate(GenKind::All, &mut list);
            let moves = list.as_slice();
            // Mostly forward, sometimes back: both directions get exercised at every depth.
            if moves.is_empty() || (trail.len() > 1 && rng.below(4) == 0) {
                if trail.len() == 1 {
                    break;
                }
                game.unmake_move();
                trail.pop();
            } else {
                let m = moves[rng.below(moves.len())].mv;
                game.make_move(m);
                let mut expected = *trail.last().expect("non-empty");
                expected.make_move(m);
                trail.push(expected);
            }
            let now = game.position();
            let want = trail.last().expect("non-empty");
            assert_eq!(now, want);
            assert_eq!(now.key(), now.compute_key());
        }
        while trail.len() > 1 {
            game.unmake_move();
            trail.pop();
        }
        assert_eq!(game.position(), &start, "unwound to the start of {fen}");
    }
}
