//! Training games on disk: the `viriformat` crate's game format, and the training records drawn from it.
//!
//! A game is its first searched position (a packed 32-byte board that also holds the result), then 4 bytes
//! a move (the move and the search's score of the position it was played in, White's view, in centipawns),
//! then four zero bytes. Every searched move is kept, so a later network can re-score every position of an
//! old game; which positions are trained on is decided when the games are read ([`trainable`]), not when
//! they are written. A mate score is stored as ±[`MATE_EVAL`].

use crate::chess::{Color, Move, MoveKind, Position};
use bulletformat::ChessBoard;
use std::path::Path;
use viriformat::chess::board::{Board, DrawType, GameOutcome, WinType};
use viriformat::chess::chessmove::{Move as VfMove, MoveFlags};
use viriformat::chess::piece::PieceType as VfPiece;
use viriformat::chess::types::Square as VfSquare;
use viriformat::dataformat::Game;

/// The stored score of a mate (either side); no centipawn score reaches it.
pub const MATE_EVAL: i16 = 32_000;

/// A game being recorded.
pub struct GameRecord {
    game: Game,
    /// Moves whose positions pass [`trainable`] (counted as they are added).
    trainable: u64,
}

impl GameRecord {
    /// A record starting at `pos` (the first position a search was made in).
    pub fn new(pos: &Position) -> Result<GameRecord, String> {
        Ok(GameRecord {
            game: Game::new(&board_of(pos)?),
            trainable: 0,
        })
    }

    /// Adds move `mv`, played in `pos`, whose search gave `white_eval` (White's view; `None` for a mate score,
    /// whose sign `white_mate_sign` gives).
    pub fn push(
        &mut self,
        pos: &Position,
        mv: Move,
        white_eval: Option<i32>,
        white_mate_sign: i32,
    ) {
        let eval = match white_eval {
            Some(cp) => cp.clamp(-(MATE_EVAL as i32) + 1, MATE_EVAL as i32 - 1) as i16,
            None if white_mate_sign >= 0 => MATE_EVAL,
            None => -MATE_EVAL,
        };
        if trainable(pos.in_check(), is_noisy(pos, mv), eval) {
            self.trainable += 1;
        }
        self.game.add_move(vf_move(mv), eval);
    }

    /// Positions of the game that training reads.
    pub fn trainable(&self) -> u64 {
        self.trainable
    }

    /// The finished game's bytes, with its result (`Some(winner)` or `None` for a draw).
    pub fn finish(mut self, winner: Option<Color>) -> Vec<u8> {
        // The crate stores only the result's side; the kind of ending is not kept.
        self.game.set_outcome(match winner {
            Some(Color::White) => GameOutcome::WhiteWin(WinType::Adjudication),
            Some(Color::Black) => GameOutcome::BlackWin(WinType::Adjudication),
            None => GameOutcome::Draw(DrawType::Adjudication),
        });
        let mut bytes = Vec::with_capacity(32 + 4 * (self.game.len() + 1));
        // Writing into a Vec cannot fail.
        let _ = self.game.serialise_into(&mut bytes);
        bytes
    }
}

/// Whether a position is trained on: not in check, its move neither a capture nor a promotion, no mate
/// score (tactics and mates are the search's business, not the evaluation's).
pub fn trainable(in_check: bool, noisy: bool, eval: i16) -> bool {
    !in_check && !noisy && eval.unsigned_abs() < MATE_EVAL as u16
}

/// Captures (e.p. included; castling is stored as king-takes-own-rook and is not one) and promotions.
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::Promotion | MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        MoveKind::Normal => pos.color_bb(pos.side_to_move().flip()) & m.to().bb() != 0,
    }
}

/// The crate's board for a position, through FEN (Shredder-FEN castling under Chess960).
fn board_of(pos: &Position) -> Result<Board, String> {
    let mut board = Board::new();
    board
        .set_from_fen(&pos.to_fen(), pos.is_chess960())
        .map_err(|e| format!("viriformat cannot hold {}: {e}", pos.to_fen()))?;
    Ok(board)
}

/// The crate's move for one of Corvid's: both number squares a1 = 0 and store castling as the king moving
/// to its own rook's square.
fn vf_move(m: Move) -> VfMove {
    let sq = |s: crate::chess::Square| VfSquare::new(s.0).unwrap_or(VfSquare::A1);
    let (from, to) = (sq(m.from()), sq(m.to()));
    match m.kind() {
        MoveKind::Normal => VfMove::new(from, to),
        MoveKind::EnPassant => VfMove::new_with_flags(from, to, MoveFlags::EnPassant),
        MoveKind::Castling => VfMove::new_with_flags(from, to, MoveFlags::Castle),
        MoveKind::Promotion => {
            let piece = m.promotion_piece().map_or(4, |p| p.index() as u8);
            VfMove::new_with_promo(from, to, VfPiece::new(piece).unwrap_or(VfPiece::Queen))
        }
    }
}

/// Bytes of a game's first position (the crate's packed board).
pub const START_BYTES: usize = 32;
/// Bytes of one move (the move, then its score) and of the terminator (four zero bytes).
const MOVE_BYTES: usize = 4;

/// Why the bytes at some offset are not a complete, well-formed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The bytes end before the game's terminator (every move up to there was legal).
    Truncated,
    /// The bytes are not a game: why.
    Malformed(String),
}

/// Checks a game's packed first position (`occupancy` u64, 32 four-bit piece codes, side to move and e.p.
/// square, fifty-move counter, move number, score, result, extra): what the crate's unpacking takes for
/// granted (known piece codes, one king a side, an e.p. square on the rank behind the pawn that just moved,
/// a result of 0-2) and what every board datagen writes has (2-32 pieces, no pawn on the first or last
/// rank, an unmoved rook (code 6) only on its own back rank, the piece codes after the last piece zero,
/// a fifty-move counter of at most 100). Random bytes fail it almost always.
pub fn check_start(b: &[u8; START_BYTES]) -> Result<(), String> {
    let occ = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    let n = occ.count_ones() as usize;
    if !(2..=32).contains(&n) {
        return Err(format!("{n} pieces on the board"));
    }
    let code = |i: usize| (b[8 + i / 2] >> (4 * (i & 1))) & 15;
    if (n..32).any(|i| code(i) != 0) {
        return Err("piece codes after the last piece are not zero".into());
    }
    let mut kings = [0u32; 2];
    let mut bits = occ;
    for i in 0..n {
        let sq = bits.trailing_zeros();
        bits &= bits - 1;
        let (piece, black) = (code(i) & 7, usize::from(code(i) >> 3));
        let rank = sq / 8;
        match piece {
            0 if rank == 0 || rank == 7 => return Err(format!("a pawn on square {sq}")),
            5 => kings[black] += 1,
            6 if rank != [0, 7][black] => {
                return Err(format!("an unmoved rook off its back rank (square {sq})"))
            }
            7 => return Err(format!("piece code {} on square {sq}", code(i))),
            _ => {}
        }
    }
    if kings != [1, 1] {
        return Err(format!("{} white and {} black kings", kings[0], kings[1]));
    }
    let (black_to_move, ep) = (b[24] >> 7 == 1, b[24] & 127);
    if ep != 64 && (ep > 63 || ep / 8 != if black_to_move { 2 } else { 5 }) {
        return Err(format!(
            "e.p. square {ep} with {} to move",
            if black_to_move { "black" } else { "white" }
        ));
    }
    if b[25] > 100 {
        return Err(format!("fifty-move counter {}", b[25]));
    }
    if b[30] > 2 {
        return Err(format!("result {} (0, 1 or 2)", b[30]));
    }
    Ok(())
}

/// The game at the start of `bytes`, checked and parsed, with its length in bytes: its first position passes
/// [`check_start`], every move is legal where it is played (the crate's board replays them) and the four
/// zero bytes that end a game follow the last one. A move that is not legal stops the check at once, so
/// bytes of another kind are refused within a few moves.
pub fn parse_game(bytes: &[u8]) -> Result<(Game, usize), GameError> {
    let start: &[u8; START_BYTES] = bytes
        .get(..START_BYTES)
        .and_then(|b| b.try_into().ok())
        .ok_or(GameError::Truncated)?;
    check_start(start).map_err(|why| GameError::Malformed(format!("first position: {why}")))?;
    let parse = |game: &[u8]| {
        Game::deserialise_from(&mut &game[..], Vec::new())
            .map_err(|e| GameError::Malformed(e.to_string()))
    };
    // The crate unpacks the position of a game without moves: the start and a terminator.
    let mut empty = [0u8; START_BYTES + MOVE_BYTES];
    empty[..START_BYTES].copy_from_slice(start);
    let mut board = parse(&empty)?.initial_position();
    let mut at = START_BYTES;
    loop {
        let word = bytes.get(at..at + MOVE_BYTES).ok_or(GameError::Truncated)?;
        at += MOVE_BYTES;
        if word == [0; MOVE_BYTES] {
            break;
        }
        let raw = u16::from_le_bytes([word[0], word[1]]);
        let legal = VfMove::from_raw(raw).is_some_and(|mv| {
            mv.is_valid()
                && mv.from() != mv.to()
                // The crate's test lets a pawn "promote" short of the last rank.
                && (!mv.is_promo() || matches!(mv.to().inner() / 8, 0 | 7))
                && board.is_pseudo_legal(mv)
                && board.make_move_simple(mv)
        });
        if !legal {
            return Err(GameError::Malformed(format!(
                "move {} (raw {raw:#06x}) is not legal in its position",
                (at - START_BYTES) / MOVE_BYTES
            )));
        }
    }
    Ok((parse(&bytes[..at])?, at))
}

/// Every game of `bytes` (the contents of `name`), in order; a game that is cut off or malformed is an error
/// that says where, and no game is returned then.
pub fn parse_games(bytes: &[u8], name: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match parse_game(&bytes[at..]) {
            Ok((game, len)) => {
                games.push(game);
                at += len;
            }
            Err(GameError::Truncated) => {
                return Err(format!(
                    "{name}: the file ends inside game {} ({} bytes; its {} complete games end at byte {at}): \
                     cut off while being written? `truncate -s {at}` keeps the complete games",
                    games.len() + 1,
                    bytes.len(),
                    games.len()
                ))
            }
            Err(GameError::Malformed(why)) => {
                return Err(format!(
                    "{name}: game {} (at byte {at}) is malformed: {why}",
                    games.len() + 1
                ))
            }
        }
    }
    Ok(games)
}

/// Reads every game of a file, in order (see [`parse_games`]).
pub fn read_games(path: &Path) -> Result<Vec<Game>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_games(&bytes, &path.display().to_string())
}

/// The trainable positions of a game as bulletformat records (side-to-move relative score and result),
/// appended to `out`.
pub fn splat(game: &Game, out: &mut Vec<ChessBoard>) -> Result<(), String> {
    game.splat_to_bulletformat_with_filter_callback(
        |record| {
            out.push(record);
            Ok(())
        },
        |mv, eval, board, _, _| {
            !trainable(
                board.in_check(),
                board.is_tactical(mv),
                eval.clamp(-32_767, 32_767) as i16,
            )
        },
    )
    .map_err(|e| e.to_string())
}

/// Every trainable position of a games file, in order.
pub fn read_records(path: &Path) -> Result<Vec<ChessBoard>, String> {
    let mut out = Vec::new();
    for game in read_games(path)? {
        splat(&game, &mut out)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// FEN without the move counters' e.p. field differences: placement, side, castling, fifty-move counter.
    fn key_fields(fen: &str) -> String {
        let f: Vec<&str> = fen.split_whitespace().collect();
        format!("{} {} {}", f[0], f[1], f[4])
    }

    /// Random legal games from several starts (orthodox, Chess960 with castling, promotions, e.p.) written
    /// with GameRecord and read back by the crate: the crate's replay of the moves passes through the same
    /// positions as Corvid's, and the records are exactly the trainable ones.
    #[test]
    fn games_replay_through_the_crate_as_played() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "8/P6k/8/3pP3/8/8/6p1/K7 w - d6 0 1",
        ];
        let mut rng = Rng::new(7);
        for (i, fen) in starts.iter().enumerate() {
            for g in 0..8 {
                let chess960 = fen.contains("HF");
                let mut pos = Position::from_fen(fen, chess960).expect("fen");
                let mut rec = GameRecord::new(&pos).expect("record");
                let mut played = vec![pos];
                let mut expected = Vec::new();
                for ply in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves.as_slice()[rng.below_mod(moves.len())];
                    let eval = (rng.below_mod(801) as i32) - 400;
                    let mate = ply == 7 && g % 2 == 0;
                    rec.push(&pos, mv, (!mate).then_some(eval), 1);
                    if !mate && !pos.in_check() && !is_noisy(&pos, mv) {
                        expected.push((pos, eval));
                    }
                    pos.make_move(mv);
                    played.push(pos);
                }
                assert_eq!(rec.trainable(), expected.len() as u64);
                let winner = [Some(Color::White), None, Some(Color::Black)][g % 3];
                let bytes = rec.finish(winner);
                let dir =
                    std::env::temp_dir().join(format!("corvid-vf-{}-{i}-{g}", std::process::id()));
                std::fs::write(&dir, &bytes).expect("write");
                let games = read_games(&dir).expect("read");
                assert_eq!(games.len(), 1);
                let mut seen = Vec::new();
                games[0].visit_positions(|board, _| seen.push(key_fields(&board.to_string())));
                assert_eq!(seen.len(), played.len() - 1);
                for (a, b) in seen.iter().zip(&played) {
                    assert_eq!(*a, key_fields(&b.to_fen()), "{fen}");
                }
                let records = read_records(&dir).expect("records");
                let _ = std::fs::remove_file(&dir);
                assert_eq!(records.len(), expected.len());
                let white_result = match winner {
                    Some(Color::White) => 2,
                    None => 1,
                    Some(Color::Black) => 0,
                };
                for (r, (p, eval)) in records.iter().zip(&expected) {
                    let black = p.side_to_move() == Color::Black;
                    // Side-to-move relative score and result.
                    assert_eq!(r.score as i32, if black { -eval } else { *eval });
                    assert_eq!(
                        r.result,
                        if black {
                            2 - white_result
                        } else {
                            white_result
                        }
                    );
                    let mut pieces = crate::tools::datagen::record_pieces(r, p.side_to_move());
                    let mut want: Vec<_> = (0..64u8)
                        .filter_map(|s| {
                            let sq = crate::chess::Square(s);
                            p.piece_on(sq).map(|pc| (pc.color(), pc.kind(), sq))
                        })
                        .collect();
                    pieces.sort_by_key(|x| x.2 .0);
                    want.sort_by_key(|x| x.2 .0);
                    assert_eq!(pieces, want);
                }
            }
        }
    }

    #[test]
    fn captures_promotions_and_en_passant_are_noisy_castling_is_not() {
        let pos = Position::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false).expect("fen");
        assert!(is_noisy(&pos, pos.parse_uci_move("e4d5").expect("move")));
        assert!(!is_noisy(&pos, pos.parse_uci_move("e4e5").expect("move")));
        let castle = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", false).expect("fen");
        assert!(!is_noisy(
            &castle,
            castle.parse_uci_move("e1g1").expect("castle")
        ));
        let promo = Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", false).expect("fen");
        assert!(is_noisy(
            &promo,
            promo.parse_uci_move("a7a8q").expect("promo")
        ));
        let ep = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false).expect("fen");
        assert!(is_noisy(&ep, ep.parse_uci_move("e5d6").expect("e.p.")));
        assert!(!trainable(false, false, MATE_EVAL));
        assert!(!trainable(true, false, 0));
        assert!(trainable(false, false, -MATE_EVAL + 1));
    }

    /// A game is checked before the crate reads it: its first position, every move's legality and its end.
    #[test]
    fn parse_game_checks_the_start_the_moves_and_the_end() {
        let pos = Position::startpos();
        let mut rec = GameRecord::new(&pos).expect("record");
        let mut after = pos;
        for mv in ["e2e4", "e7e5"] {
            let m = after.parse_uci_move(mv).expect("move");
            rec.push(&after, m, Some(10), 1);
            after.make_move(m);
        }
        let good = rec.finish(Some(Color::White));
        assert_eq!(good.len(), START_BYTES + 3 * MOVE_BYTES);
        let (game, len) = parse_game(&good).expect("a good game");
        assert_eq!((game.len(), len), (2, good.len()));
        // Trailing bytes belong to the next game.
        let mut two = good.clone();
        two.extend_from_slice(&good);
        assert_eq!(parse_game(&two).map(|(_, n)| n), Ok(good.len()));
        assert_eq!(parse_games(&two, "two").map(|g| g.len()), Ok(2));
        let malformed = |at: usize, byte: u8| {
            let mut b = good.clone();
            b[at] = byte;
            match parse_game(&b) {
                Err(GameError::Malformed(why)) => why,
                other => panic!("byte {at} = {byte}: {other:?}"),
            }
        };
        assert!(malformed(30, 3).contains("result 3"));
        // The first piece (a1's rook) as piece code 7; as a pawn on the first rank.
        assert!(malformed(8, 0x07 | (good[8] & 0xf0)).contains("piece code 7"));
        assert!(malformed(8, good[8] & 0xf0).contains("pawn"));
        // The e.p. square d3 with White to move.
        assert!(malformed(24, 19).contains("e.p."));
        assert!(malformed(25, 101).contains("fifty-move"));
        // The second move (Black's e7-e5) made to start from e2, empty after e2-e4.
        let second = START_BYTES + MOVE_BYTES;
        let e2 = 12u16;
        let raw = u16::from_le_bytes([good[second], good[second + 1]]);
        let mut b = good.clone();
        b[second..second + 2].copy_from_slice(&((raw & !63) | e2).to_le_bytes());
        match parse_game(&b) {
            Err(GameError::Malformed(why)) => assert!(why.contains("move 2"), "{why}"),
            other => panic!("{other:?}"),
        }
        for cut in [0, 10, START_BYTES, good.len() - 1] {
            assert_eq!(parse_game(&good[..cut]).err(), Some(GameError::Truncated));
        }
        let err = parse_games(&two[..good.len() + 7], "cut.vf").expect_err("cut");
        assert!(err.contains("cut.vf: the file ends inside game 2"), "{err}");
        assert!(
            err.contains(&format!("truncate -s {}", good.len())),
            "{err}"
        );
    }

    #[test]
    fn a_truncated_file_is_an_error_not_a_panic() {
        let mut rec = GameRecord::new(&Position::startpos()).expect("record");
        let pos = Position::startpos();
        rec.push(&pos, pos.parse_uci_move("e2e4").expect("move"), Some(20), 1);
        let bytes = rec.finish(None);
        let path = std::env::temp_dir().join(format!("corvid-vf-cut-{}", std::process::id()));
        std::fs::write(&path, &bytes[..bytes.len() - 3]).expect("write");
        assert!(read_games(&path).is_err());
        let _ = std::fs::remove_file(&path);
    }
}
