//! Dineri's rules (`rules::chess`) bound to chess: the game record of orthodox chess and Chess960.

use super::Chess;
use crate::chess::{Move, MoveParseError, Position};
use crate::rules::chess::automatic_ending;
use crate::rules::{DrawMaterial, Outcome, Record, Rules};

/// A game of orthodox chess (or Chess960) in progress.
pub type ChessRecord = Record<Chess>;

impl Rules for Chess {
    fn ending(
        pos: &Position,
        _last: Option<(&Position, Move)>,
        history: &[Position],
    ) -> Option<Outcome> {
        automatic_ending(pos, history)
    }

    fn record_text(pos: &Position, m: Move) -> String {
        pos.to_san(m)
    }

    /// UCI (`e2e4`) or SAN (`e4`, `Nf3`, `O-O`).
    fn read_move(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
        pos.parse_uci_move(text).or_else(|_| pos.parse_san(text))
    }

    fn fullmove_number(pos: &Position) -> u32 {
        u32::from(pos.fullmove_number())
    }

    fn draw_material(pos: &Position) -> DrawMaterial {
        crate::rules::chess::draw_material(pos)
    }

    fn start_tags(start: &Position) -> Vec<(&'static str, String)> {
        crate::rules::chess::start_tags(start)
    }
}

impl ChessRecord {
    /// The moves in SAN with move numbers (`1. e4 e5 2. Nf3`), as PGN movetext without the result.
    pub fn san_movetext(&self) -> String {
        self.movetext()
    }
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::chess::STARTPOS;
    use crate::rules::RulesError;
    use crate::rules::{Outcome, Termination};
    use crate::types::Color;

    fn game(fen: &str) -> ChessRecord {
        ChessRecord::new(Position::from_fen(fen, false).unwrap())
    }

    fn play_all(g: &mut ChessRecord, moves: &str) {
        for m in moves.split_whitespace() {
            g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    fn ended_by(g: &ChessRecord) -> Option<Termination> {
        g.outcome().map(|o| o.termination)
    }

    #[test]
    fn checkmate_and_stalemate() {
        let mut g = game(STARTPOS);
        play_all(&mut g, "f3 e5 g4 Qh4#");
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::Black),
                termination: Termination::Checkmate
            })
        );
        assert!(matches!(g.play_text("a3"), Err(RulesError::GameOver(_))));

        let mut s = game("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1");
        play_all(&mut s, "Qf6");
        assert_eq!(ended_by(&s), None);
        let mut s = game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
        play_all(&mut s, "Qf7");
        assert_eq!(ended_by(&s), Some(Termination::Stalemate));
        assert_eq!(s.outcome().unwrap().result_str(), "1/2-1/2");
    }

    #[test]
    fn threefold_on_the_third_occurrence_not_the_second() {
        let mut g = game(STARTPOS);
        play_all(&mut g, "Nf3 Nf6 Ng1 Ng8");
        assert_eq!(
            ended_by(&g),
            None,
            "second occurrence of the start position is no draw"
        );
        play_all(&mut g, "Nf3 Nf6 Ng1");
        assert_eq!(ended_by(&g), None);
        play_all(&mut g, "Ng8");
        assert_eq!(ended_by(&g), Some(Termination::ThreefoldRepetition));
    }

    #[test]
    fn useless_en_passant_square_does_not_make_positions_differ() {
        // After 1. e4 the e3 square is no real e.p. right (no black pawn beside e4): the position after
        // 1. e4 Nf6 2. Nf3 Ng8 3. Ng1 is the same as after 1. e4 (Black to move), so it counts.
        let mut g = game(STARTPOS);
        play_all(&mut g, "e4 Nf6 Nf3 Ng8 Ng1");
        assert_eq!(ended_by(&g), None);
        play_all(&mut g, "Nf6 Nf3 Ng8 Ng1");
        assert_eq!(ended_by(&g), Some(Termination::ThreefoldRepetition));
    }

    #[test]
    fn real_en_passant_right_makes_positions_differ() {
        // Black pawn on d4: after e2-e4, d4xe3 is possible, so that position is not repeated by the later ones.
        let mut g = game("4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1");
        play_all(&mut g, "e4 Kd7 Nf3 Ke8 Ng1 Kd7 Nf3 Ke8 Ng1");
        // Black to move with Ke8 and Ng1 has now stood three times, but the first (after e4) carried a real
        // e.p. right: only two occurrences count.
        assert_eq!(ended_by(&g), None);
        // White to move with Kd7 and Ng1 comes a third time.
        play_all(&mut g, "Kd7");
        assert_eq!(ended_by(&g), Some(Termination::ThreefoldRepetition));
    }

    #[test]
    fn castling_right_loss_makes_positions_differ() {
        let mut g = game("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
        // The start placement recurs twice more, but without the castling rights: not a third occurrence.
        play_all(&mut g, "Rh2 Kd8 Rh1 Ke8 Rh2 Kd8 Rh1 Ke8");
        assert_eq!(ended_by(&g), None);
        // Rh2/Kd8 with White to move (no rights any more) comes a third time.
        play_all(&mut g, "Rh2 Kd8");
        assert_eq!(ended_by(&g), Some(Termination::ThreefoldRepetition));
    }

    #[test]
    fn fifty_moves_at_the_hundredth_ply() {
        let mut g = game("7k/8/8/8/8/8/R7/K7 w - - 98 80");
        play_all(&mut g, "Rb2");
        assert_eq!(ended_by(&g), None, "99 plies");
        play_all(&mut g, "Kg8");
        assert_eq!(ended_by(&g), Some(Termination::FiftyMoveRule));
    }

    #[test]
    fn mate_on_the_hundredth_ply_stands() {
        let mut g = game("7k/R7/6K1/8/8/8/8/8 w - - 99 80");
        play_all(&mut g, "Ra8#");
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                winner: Some(Color::White),
                termination: Termination::Checkmate
            })
        );
    }

    #[test]
    fn promotion_and_capture_reset_the_count() {
        let mut g = game("7k/1P6/8/8/8/8/8/K7 w - - 99 80");
        play_all(&mut g, "b8=Q+");
        assert_eq!(g.position().halfmove_clock(), 0);
        assert_eq!(ended_by(&g), None);
        // A capture on the hundredth ply: the count starts again, no draw.
        let mut c = game("7k/8/8/8/8/8/r7/KR6 w - - 99 80");
        play_all(&mut c, "Kxa2");
        assert_eq!(c.position().halfmove_clock(), 0);
        assert_eq!(ended_by(&c), None);
        // A pawn move likewise.
        let mut p = game("7k/8/8/8/8/8/P7/K7 w - - 99 80");
        play_all(&mut p, "a3");
        assert_eq!(ended_by(&p), None);
        // The same position with a quiet move instead is drawn.
        let mut q = game("7k/8/8/8/8/8/P7/K7 w - - 99 80");
        play_all(&mut q, "Kb1");
        assert_eq!(ended_by(&q), Some(Termination::FiftyMoveRule));
    }

    #[test]
    fn dead_positions_exactly_dineri_list() {
        let dead = [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",
            "8/8/4kb2/8/8/3K4/8/8 w - - 0 1",
            // Bishops only, all on dark squares (h8, c3, a1), of both colours.
            "7b/8/4k3/8/8/2B1K3/8/B7 w - - 0 1",
        ];
        for fen in dead {
            let p = Position::from_fen(fen, false).unwrap();
            assert_eq!(
                automatic_ending(&p, &[]).map(|o| o.termination),
                Some(Termination::DeadPosition),
                "{fen}"
            );
        }
        let alive = [
            "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", // K+N+N v K is not on the list
            "8/8/4kn2/8/8/3KN3/8/8 w - - 0 1", // K+N v K+N
            "8/8/4kb2/8/8/3BK3/8/8 w - - 0 1", // bishops on both square colours (f6 dark, d3 light)
            "8/8/4k3/8/8/3KP3/8/8 w - - 0 1",  // a pawn
            "8/8/4kb2/8/8/3KN3/8/8 w - - 0 1", // bishop and knight
        ];
        for fen in alive {
            let p = Position::from_fen(fen, false).unwrap();
            assert_eq!(automatic_ending(&p, &[]), None, "{fen}");
        }
    }

    #[test]
    fn dead_position_reached_by_capture_ends_the_game() {
        let mut g = game("8/8/4k3/8/3r4/3K4/8/8 w - - 0 1");
        play_all(&mut g, "Kxd4");
        assert_eq!(ended_by(&g), Some(Termination::DeadPosition));
    }

    #[test]
    fn draw_offer_rules() {
        let mut g = game(STARTPOS);
        g.offer_draw(Color::White).unwrap();
        assert_eq!(
            g.offer_draw(Color::White),
            Err(RulesError::OfferAlreadyPending)
        );
        g.decline_draw(Color::Black).unwrap();
        assert_eq!(
            g.offer_draw(Color::White),
            Err(RulesError::OfferTooSoon {
                opponent_moves_needed: 2
            })
        );
        play_all(&mut g, "e4 e5 Nf3");
        assert_eq!(
            g.offer_draw(Color::White),
            Err(RulesError::OfferTooSoon {
                opponent_moves_needed: 1
            })
        );
        assert!(!g.can_offer_draw(Color::White));
        play_all(&mut g, "Nc6");
        assert!(g.can_offer_draw(Color::White));
        g.offer_draw(Color::White).unwrap();
        // The offer lapses when Black moves instead of answering.
        play_all(&mut g, "Bc4 Bc5");
        assert_eq!(g.pending_offer(), None);
        assert_eq!(g.accept_draw(Color::Black), Err(RulesError::NoOfferPending));
        // Black may offer at once: the rule only binds the same player.
        g.offer_draw(Color::Black).unwrap();
        g.accept_draw(Color::White).unwrap();
        assert_eq!(ended_by(&g), Some(Termination::Agreement));
        assert_eq!(g.outcome().unwrap().result_str(), "1/2-1/2");
    }

    #[test]
    fn resignation() {
        let mut g = game(STARTPOS);
        g.resign(Color::White).unwrap();
        assert_eq!(g.outcome().unwrap().winner, Some(Color::Black));
        assert_eq!(ended_by(&g), Some(Termination::Resignation));
        assert!(g.resign(Color::Black).is_err());
    }

    #[test]
    fn movetext() {
        let mut g = game(STARTPOS);
        play_all(&mut g, "e4 e5 Nf3");
        assert_eq!(g.san_movetext(), "1. e4 e5 2. Nf3");
        let mut b = game("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7");
        play_all(&mut b, "Kd7 e4");
        assert_eq!(b.san_movetext(), "7... Kd7 8. e4");
    }

    #[test]
    fn descriptions() {
        let o = |winner, termination| {
            Outcome {
                winner,
                termination,
            }
            .description()
        };
        assert_eq!(o(Some(Color::White), Termination::Checkmate), "White mates");
        assert_eq!(
            o(Some(Color::White), Termination::Resignation),
            "Black resigns"
        );
        assert_eq!(
            o(None, Termination::ThreefoldRepetition),
            "Draw by repetition"
        );
        assert_eq!(
            o(None, Termination::FiftyMoveRule),
            "Draw by fifty-move rule"
        );
        assert_eq!(o(None, Termination::DeadPosition), "Draw: no mate possible");
        assert_eq!(o(None, Termination::Agreement), "Draw by agreement");
        assert_eq!(o(None, Termination::Stalemate), "Stalemate");
    }

    #[test]
    fn take_back_replays_and_reopens_a_finished_game() {
        let mut g = game(STARTPOS);
        play_all(&mut g, "f3 e5 g4 Qh4#");
        assert!(g.is_over());
        assert_eq!(g.take_back(1), 1);
        assert!(!g.is_over());
        assert_eq!(g.moves().len(), 3);
        assert_eq!(g.take_back(2), 2);
        assert_eq!(g.san_movetext(), "1. f3");
        assert_eq!(g.take_back(5), 1);
        assert_eq!(g.position().to_fen(), STARTPOS);
    }

    #[test]
    fn pgn_has_result_termination_and_setup() {
        let mut g = game(STARTPOS);
        play_all(&mut g, "f3 e5 g4 Qh4#");
        let pgn = g.pgn(&[("White", "A \"quoted\" name".to_string())]);
        assert!(pgn.starts_with("[White \"A \\\"quoted\\\" name\"]\n[Result \"0-1\"]\n"));
        // The standard's value in the tag, the reason after the last move.
        assert!(pgn.contains("[Termination \"normal\"]"));
        assert!(!pgn.contains("[FEN"));
        assert!(pgn.ends_with("\n1. f3 e5 2. g4 Qh4# {Black mates} 0-1\n"));

        let mut b = game("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7");
        play_all(&mut b, "Kd7");
        let pgn = b.pgn(&[]);
        assert!(pgn.contains("[Result \"*\"]"));
        assert!(!pgn.contains("Termination"));
        assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7\"]"));
        assert!(pgn.ends_with("7... Kd7 *\n"));

        // Long games wrap at 80 columns.
        let mut long = game(STARTPOS);
        play_all(
            &mut long,
            "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 \
             Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4",
        );
        let text = long.pgn(&[]);
        assert!(text.lines().filter(|l| l.contains("Nxe4")).count() == 1);
        assert!(text.lines().skip(2).count() >= 2, "{text}");
        assert!(long.pgn(&[]).lines().all(|l| l.len() <= 80));
    }
}
