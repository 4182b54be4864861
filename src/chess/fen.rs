//! FEN in and out: standard FEN, Shredder-FEN (`HAha`) and X-FEN castling fields. Every way a FEN can be
//! wrong is a `FenError` with its reason (the type and the fields' reading are shared with Makromachy's
//! board, in `crate::fen`); nothing here panics on input.

use super::position::{Position, NO_SQUARE};
use super::types::*;
pub use crate::fen::FenError;
use crate::fen::{one_king, Fields};

impl Position {
    /// Parses a FEN. `chess960` asks for Chess960 castling notation; a Shredder-FEN or X-FEN castling field
    /// that only makes sense in Chess960 switches it on by itself. Missing clocks default to `0 1`.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        let fields = Fields::split(fen, 8)?;
        let mut pos = Position::empty();
        pos.chess960 = chess960;

        for (i, rank_text) in fields.ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let wrong_length = FenError::RankLength {
                rank: rank + 1,
                files: 8,
            };
            let mut file: u8 = 0;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(FenError::BadPieceLetter(c));
                    }
                    file += d as u8;
                } else {
                    let p = Piece::from_letter(c).ok_or(FenError::BadPieceLetter(c))?;
                    if file >= 8 {
                        return Err(wrong_length);
                    }
                    pos.put_piece(p, Square::new(file, rank));
                    file += 1;
                }
                if file > 8 {
                    return Err(wrong_length);
                }
            }
            if file != 8 {
                return Err(wrong_length);
            }
        }

        for color in Color::BOTH {
            one_king(color, pos.colored(color, PieceType::King).count_ones())?;
            let count = |k: PieceType| pos.colored(color, k).count_ones() as i32;
            let pawns = count(PieceType::Pawn);
            let promoted = (count(PieceType::Queen) - 1).max(0)
                + (count(PieceType::Rook) - 2).max(0)
                + (count(PieceType::Bishop) - 2).max(0)
                + (count(PieceType::Knight) - 2).max(0);
            if pos.color_bb(color).count_ones() > 16 || pawns > 8 || promoted > 8 - pawns {
                return Err(FenError::TooManyPieces(color));
            }
        }
        let back_pawns = pos.pieces(PieceType::Pawn) & (RANK_1 | RANK_8);
        if back_pawns != 0 {
            let s = Square(back_pawns.trailing_zeros() as u8);
            return Err(FenError::PawnOnBackRank(s.to_string()));
        }

        pos.side = fields.side_to_move()?;
        if pos.side == Color::Black {
            pos.key ^= super::zobrist::KEYS.side;
        }
        let opp = pos.side.flip();
        if pos.attacked_by(pos.king_square(opp), pos.side, pos.occupied()) {
            return Err(FenError::OpponentInCheck);
        }

        pos.parse_castling(fields.castling)?;

        pos.checkers =
            pos.attackers_to(pos.king_square(pos.side), pos.occupied()) & pos.color_bb(opp);

        let ep_text = fields.en_passant;
        if ep_text != "-" {
            let ep =
                Square::parse(ep_text).ok_or_else(|| FenError::BadEnPassant(ep_text.into()))?;
            let us = pos.side;
            // The pawn that just advanced two squares must stand in front of `ep`, with `ep` and the square it
            // came from empty.
            let (ep_rank, victim, origin) = match us {
                Color::White => (5, ep.0.wrapping_sub(8), ep.0.wrapping_add(8)),
                Color::Black => (2, ep.0.wrapping_add(8), ep.0.wrapping_sub(8)),
            };
            let plausible = ep.rank() == ep_rank
                && pos.colored(opp, PieceType::Pawn) & Square(victim).bb() != 0
                && pos.occupied() & (ep.bb() | Square(origin).bb()) == 0;
            if !plausible {
                return Err(FenError::BadEnPassant(ep_text.into()));
            }
            // A correct but useless e.p. square is dropped: positions that differ only by it are the same.
            if pos.ep_capture_possible(ep) {
                pos.ep_square = ep.0;
                pos.key ^= super::zobrist::KEYS.ep_file[ep.file() as usize];
            }
        }

        (pos.halfmove, pos.fullmove) = fields.clocks()?;
        Ok(pos)
    }

    fn parse_castling(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let mut rights = 0u8;
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back_rank = if color == Color::White { 0 } else { 7 };
            let ksq = self.king_square(color);
            let rooks = self.colored(color, PieceType::Rook) & (RANK_1 << (8 * back_rank));
            let lower = c.to_ascii_lowercase();
            let missing = || FenError::CastlingWithoutPieces {
                right: c,
                partner: "rook",
            };
            if ksq.rank() != back_rank {
                if matches!(lower, 'k' | 'q' | 'a'..='h') {
                    return Err(missing());
                }
                return Err(FenError::BadCastlingField(field.to_string()));
            }
            let rook_sq = match lower {
                // X-FEN: K/Q name the outermost rook on that side of the king.
                'k' => squares(rooks)
                    .filter(|s| s.file() > ksq.file())
                    .last()
                    .ok_or_else(missing)?,
                'q' => squares(rooks)
                    .find(|s| s.file() < ksq.file())
                    .ok_or_else(missing)?,
                'a'..='h' => {
                    let sq = Square::new(lower as u8 - b'a', back_rank);
                    if rooks & sq.bb() == 0 || sq.file() == ksq.file() {
                        return Err(missing());
                    }
                    sq
                }
                _ => return Err(FenError::BadCastlingField(field.to_string())),
            };
            let king_side = rook_sq.file() > ksq.file();
            let idx = CastlingRights::index(color, king_side);
            if rights & (1 << idx) != 0 {
                return Err(FenError::BadCastlingField(field.to_string()));
            }
            rights |= 1 << idx;
            self.castle_rooks[idx] = rook_sq;
            let back = if color == Color::White { 0 } else { 8 };
            self.castle_clear[back + rook_sq.file() as usize] |= 1 << idx;
            self.castle_clear[back + ksq.file() as usize] |= 1 << idx;
            let outermost = if king_side { 7 } else { 0 };
            if ksq.file() != 4 || rook_sq.file() != outermost {
                self.chess960 = true;
            }
        }
        // Both rights of one colour must refer to the same king, which the per-colour king square guarantees.
        self.castling = CastlingRights(rights);
        self.key ^= super::zobrist::KEYS.castling[rights as usize];
        Ok(())
    }

    /// The position as FEN. Castling is written `KQkq` in orthodox chess and as Shredder-FEN file letters
    /// (`HAha`) under Chess960.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_on(Square::new(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == Color::White { 'w' } else { 'b' });
        s.push(' ');
        if self.castling.0 == 0 {
            s.push('-');
        } else {
            for (idx, letter) in ['K', 'Q', 'k', 'q'].iter().enumerate() {
                if self.castling.has(idx) {
                    if self.chess960 {
                        let file = (b'a' + self.castle_rooks[idx].file()) as char;
                        s.push(if idx < 2 {
                            file.to_ascii_uppercase()
                        } else {
                            file
                        });
                    } else {
                        s.push(*letter);
                    }
                }
            }
        }
        s.push(' ');
        if self.ep_square == NO_SQUARE {
            s.push('-');
        } else {
            s.push_str(&Square(self.ep_square).to_string());
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::position::STARTPOS;

    fn err(fen: &str) -> FenError {
        Position::from_fen(fen, false).unwrap_err()
    }

    #[test]
    fn round_trips() {
        for fen in [
            STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            assert_eq!(Position::from_fen(fen, false).unwrap().to_fen(), fen);
        }
    }

    #[test]
    fn shredder_and_xfen_switch_to_chess960() {
        let p = Position::from_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            false,
        )
        .unwrap();
        assert!(p.is_chess960());
        assert_eq!(
            p.to_fen(),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        );
        // X-FEN: K means the outermost rook, here on h1 with the king on g1.
        let x = Position::from_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
            false,
        )
        .unwrap();
        assert!(x.is_chess960());
        assert_eq!(x.key(), p.key());
        assert!(!Position::startpos().is_chess960());
    }

    #[test]
    fn typed_errors() {
        assert_eq!(
            err("8/8/8 w - - 0 1"),
            FenError::RankCount {
                found: 3,
                expected: 8
            }
        );
        assert_eq!(
            err("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            FenError::RankLength { rank: 7, files: 8 }
        );
        assert_eq!(
            err("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            FenError::BadPieceLetter('9')
        );
        assert_eq!(
            err("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            FenError::BadPieceLetter('x')
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            FenError::MissingKing(Color::Black)
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
            FenError::TooManyKings(Color::White)
        );
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
            FenError::PawnOnBackRank(_)
        ));
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
            FenError::BadSideToMove("x".into())
        );
        assert_eq!(
            err("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
            FenError::OpponentInCheck
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            FenError::CastlingWithoutPieces {
                right: 'K',
                partner: "rook"
            }
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/R3K3 w Kx - 0 1"),
            FenError::CastlingWithoutPieces {
                right: 'K',
                partner: "rook"
            }
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K2R w Kx - 0 1"),
            FenError::BadCastlingField("Kx".into())
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - e3 0 1"),
            FenError::BadEnPassant("e3".into())
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
            FenError::BadEnPassant("e6".into())
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
            FenError::BadHalfmoveClock("x".into())
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - 0 0"),
            FenError::BadFullmoveNumber("0".into())
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - -3 1"),
            FenError::BadHalfmoveClock("-3".into())
        );
        assert_eq!(err("4k3/8/8/8 w"), FenError::FieldCount(2));
        assert_eq!(
            err("QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/k3K3 w - - 0 1"),
            FenError::TooManyPieces(Color::White)
        );
    }

    #[test]
    fn useless_ep_square_is_dropped() {
        // e3 is plausible (pawn on e4 after e2e4) but no black pawn can take: same key as without it.
        let with = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", false).unwrap();
        let without = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", false).unwrap();
        assert_eq!(with.key(), without.key());
        assert_eq!(with.ep_square(), None);
        // With a black pawn on d4 the capture is real, and the key differs.
        let real = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", false).unwrap();
        let real_without = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", false).unwrap();
        assert_ne!(real.key(), real_without.key());
        // A pinned capturer makes the e.p. right illusory: d4 pawn pinned by the rook on h4? It lies on the
        // rank with its own king: capturing would expose the king (both pawns leave the rank).
        let pinned = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1", false).unwrap();
        let pinned_without = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1", false).unwrap();
        assert_eq!(pinned.key(), pinned_without.key());
    }
}
