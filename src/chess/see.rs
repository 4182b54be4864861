//! Static exchange evaluation: the material balance of the capture sequence on one square, each side
//! recapturing with its least valuable attacker and free to stop when continuing would lose.

use super::attacks::{bishop_attacks, rook_attacks};
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::types::{Bitboard, PieceType};

/// Piece values for exchanges (the king is never "captured": a king capture ends the sequence).
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20000];

impl Position {
    /// Material the side to move gains by `m`'s capture and promotion alone (no recaptures).
    #[inline]
    pub fn capture_gain(&self, m: Move) -> i32 {
        let mut gain = match m.kind() {
            MoveKind::EnPassant => SEE_VALUES[PieceType::Pawn.index()],
            MoveKind::Castling => 0,
            _ => self
                .piece_on(m.to())
                .map_or(0, |p| SEE_VALUES[p.kind().index()]),
        };
        if let Some(p) = m.promotion_piece() {
            gain += SEE_VALUES[p.index()] - SEE_VALUES[PieceType::Pawn.index()];
        }
        gain
    }

    /// Does `m` (a legal move) win at least `threshold` centipawns in the exchange on its destination?
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        // Castling never loses material by itself; treat it as a neutral move.
        if m.kind() == MoveKind::Castling {
            return 0 >= threshold;
        }
        let from = m.from();
        let to = m.to();
        let mut balance = self.capture_gain(m) - threshold;
        if balance < 0 {
            return false;
        }
        let mover = match m.promotion_piece() {
            Some(p) => p,
            None => self.piece_on(from).map_or(PieceType::Pawn, |p| p.kind()),
        };
        // Assume the moving piece is lost: if we are still ahead, the exchange is good whatever happens.
        balance -= SEE_VALUES[mover.index()];
        if balance >= 0 {
            return true;
        }

        let mut occ: Bitboard = self.occupied() ^ from.bb() ^ to.bb();
        if m.kind() == MoveKind::EnPassant {
            let victim = if self.side_to_move().index() == 0 {
                to.0 - 8
            } else {
                to.0 + 8
            };
            occ ^= 1u64 << victim;
        }
        let diag = self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen);
        let orth = self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen);
        let mut attackers = self.attackers_to(to, occ) & occ;
        let mut side = self.side_to_move().flip();

        loop {
            let ours = attackers & self.color_bb(side);
            if ours == 0 {
                break;
            }
            // The least valuable attacker recaptures.
            let mut kind = PieceType::Pawn;
            let mut bb = 0;
            for k in PieceType::ALL {
                bb = ours & self.pieces(k);
                if bb != 0 {
                    kind = k;
                    break;
                }
            }
            occ ^= bb & bb.wrapping_neg();
            // X-rays: sliders behind the piece that just captured join in.
            if matches!(kind, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
                attackers |= bishop_attacks(to, occ) & diag;
            }
            if matches!(kind, PieceType::Rook | PieceType::Queen) {
                attackers |= rook_attacks(to, occ) & orth;
            }
            attackers &= occ;
            side = side.flip();
            // Negamax the balance: the side that just captured is ahead if the new balance is >= 0.
            balance = -balance - 1 - SEE_VALUES[kind.index()];
            if balance >= 0 {
                // A king may only recapture if the square is not defended any more.
                if kind == PieceType::King && attackers & self.color_bb(side) != 0 {
                    side = side.flip();
                }
                break;
            }
        }
        // `side` is the side that failed to (profitably) recapture: the other one wins the exchange.
        side != self.side_to_move()
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::Position;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen, false).expect("valid FEN");
        let m = pos.parse_uci_move(uci).expect("legal move");
        pos.see_ge(m, threshold)
    }

    #[test]
    fn undefended_capture_wins_the_piece() {
        let fen = "4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", 500));
        assert!(!see(fen, "d1d5", 501));
    }

    #[test]
    fn defended_pawn_taken_by_queen_loses() {
        let fen = "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1";
        assert!(!see(fen, "d1d5", 0));
        assert!(see(fen, "d1d5", -800));
        assert!(!see(fen, "d1d5", -799));
    }

    #[test]
    fn xray_recapture_counts() {
        // Rook takes pawn defended by a rook, backed by our second rook: P won, R for R.
        let fen = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        assert!(!see(fen, "d2d5", 101));
    }

    #[test]
    fn quiet_move_into_attack() {
        // Knight to a square attacked by a pawn loses the knight.
        let fen = "4k3/8/4p3/8/8/2N5/8/4K3 w - - 0 1";
        assert!(!see(fen, "c3d5", 0));
        assert!(see(fen, "c3b5", 0));
    }
}
