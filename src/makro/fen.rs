//! Makromachy FEN in and out (14 ranks, multi-digit empty runs, e.p. squares concatenated), with typed errors
//! (the type and the fields' reading are shared with the chess board, in `crate::fen`).

use super::geometry::*;
use super::pieces::Kind;
use super::position::*;
use crate::fen::{one_king, FenError, Fields};
use crate::types::Color;

/// The shared [`FenError`] under the name the Makromachy variant still uses.
pub type MakroFenError = FenError;

impl Position {
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields = Fields::split(fen, RANKS as usize)?;
        let mut pos = Position::empty();
        let mut kings = [0u32; 2];
        for (i, text) in fields.ranks.iter().enumerate() {
            let rank = RANKS - 1 - i as i32;
            let wrong_length = FenError::RankLength {
                rank: rank as u8 + 1,
                files: FILES as u8,
            };
            let mut file = 0i32;
            let mut run = 0i32;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as i32;
                    if run > FILES {
                        return Err(wrong_length);
                    }
                    continue;
                }
                file += run;
                run = 0;
                let kind = Kind::from_letter(c).ok_or(FenError::BadPieceLetter(c))?;
                if file >= FILES {
                    return Err(wrong_length);
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let s = sq(file, rank);
                if kind == Kind::King {
                    kings[color.index()] += 1;
                }
                let last = if color == Color::White { RANKS - 1 } else { 0 };
                if matches!(kind, Kind::Pawn | Kind::Warrior) && rank == last {
                    return Err(FenError::UnpromotedOnLastRank(square_name(s)));
                }
                pos.put(s, code(color, kind));
                file += 1;
            }
            file += run;
            if file != FILES {
                return Err(wrong_length);
            }
        }
        for color in Color::BOTH {
            one_king(color, kings[color.index()])?;
        }
        pos.side = fields.side_to_move()?;
        if pos.side == Color::Black {
            pos.key ^= KEYS.side;
        }
        if pos.is_attacked(pos.king_square(pos.side.flip()), pos.side) {
            return Err(FenError::OpponentInCheck);
        }
        pos.refresh_check();

        if fields.castling != "-" {
            for c in fields.castling.chars() {
                let (color, bit, corner) = match c {
                    'K' => (Color::White, WHITE_KING_SIDE, sq(FILES - 1, 0)),
                    'Q' => (Color::White, WHITE_QUEEN_SIDE, sq(0, 0)),
                    'k' => (Color::Black, BLACK_KING_SIDE, sq(FILES - 1, RANKS - 1)),
                    'q' => (Color::Black, BLACK_QUEEN_SIDE, sq(0, RANKS - 1)),
                    _ => return Err(FenError::BadCastlingField(fields.castling.to_string())),
                };
                if pos.castling & bit != 0 {
                    return Err(FenError::BadCastlingField(fields.castling.to_string()));
                }
                let back = if color == Color::White { 0 } else { RANKS - 1 };
                let k = pos.king_square(color);
                if rank_of(k) != back || pos.at(corner) != code(color, Kind::DragonKing) {
                    return Err(FenError::CastlingWithoutPieces {
                        right: c,
                        partner: "dragon king",
                    });
                }
                pos.castling |= bit;
            }
            pos.key ^= KEYS.castling[pos.castling as usize];
        }

        if fields.en_passant != "-" {
            pos.parse_ep(fields.en_passant)
                .ok_or_else(|| FenError::BadEnPassant(fields.en_passant.to_string()))?;
        }
        (pos.halfmove, pos.fullmove) = fields.clocks()?;
        Ok(pos)
    }

    /// Reads the concatenated e.p. squares and checks they are what a Pawn's or Warrior's advance leaves.
    fn parse_ep(&mut self, text: &str) -> Option<()> {
        let mut squares = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let (s, r) = split_square(rest)?;
            squares.push(s);
            rest = r;
        }
        if squares.is_empty() || squares.len() > 2 {
            return None;
        }
        let mover = self.side.flip();
        let dir = if mover == Color::White { WIDTH } else { -WIDTH };
        // Order them as passed (nearest the mover's start first), then they must be consecutive on a file.
        squares.sort_by_key(|&s| {
            if mover == Color::White {
                s as i32
            } else {
                -(s as i32)
            }
        });
        if squares.len() == 2 && squares[1] as i32 - squares[0] as i32 != dir {
            return None;
        }
        let last = *squares.last()?;
        let victim = (last as i32 + dir) as Sq;
        let origin = (squares[0] as i32 - dir) as Sq;
        let vc = self.at(victim);
        let ok_piece = is_piece(vc)
            && color_of(vc) == mover
            && match kind_of(vc) {
                Kind::Pawn => {
                    let start = if mover == Color::White { 3 } else { RANKS - 4 };
                    rank_of(origin) == start
                }
                Kind::Warrior => squares.len() == 1,
                _ => false,
            };
        if !ok_piece || self.at(origin) != EMPTY || squares.iter().any(|&s| self.at(s) != EMPTY) {
            return None;
        }
        self.ep = [squares[0], squares.get(1).copied().unwrap_or(0)];
        self.ep_victim = victim;
        self.refresh_ep_liveness();
        Some(())
    }

    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for r in (0..RANKS).rev() {
            let mut run = 0;
            for f in 0..FILES {
                let c = self.at(sq(f, r));
                if is_piece(c) {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    let l = kind_of(c).letter();
                    s.push(if color_of(c) == Color::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    });
                } else {
                    run += 1;
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        if self.castling == 0 {
            s.push('-');
        } else {
            for (bit, c) in [
                (WHITE_KING_SIDE, 'K'),
                (WHITE_QUEEN_SIDE, 'Q'),
                (BLACK_KING_SIDE, 'k'),
                (BLACK_QUEEN_SIDE, 'q'),
            ] {
                if self.castling & bit != 0 {
                    s.push(c);
                }
            }
        }
        s.push(' ');
        // Only real e.p. rights are written, so equal positions have equal FENs.
        let live = self.live_ep_squares();
        if live.is_empty() {
            s.push('-');
        } else {
            let mut ordered = live;
            // As passed by the advancing piece: from its start outward (`k10k9` after k11-k8).
            if self.side == Color::White {
                ordered.sort_by_key(|&q| -(q as i32));
            } else {
                ordered.sort();
            }
            for q in ordered {
                s.push_str(&square_name(q));
            }
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}
