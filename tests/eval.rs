//! The orthodox evaluation: colour symmetry, material and passed-pawn sanity, the trace against `evaluate`,
//! and the tuner's feature view against `evaluate`.

use corvid::chess::{Position, STARTPOS};
use corvid::eval::chess::{evaluate, features, trace, MAX_PHASE, SCALE_ONE};
use corvid::eval::params::PARAMS;

const FENS: [&str; 12] = [
    STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
    "8/8/4k3/3b4/8/2B5/4K3/8 b - - 0 1",
    "8/5k2/8/8/8/8/1P3K2/8 w - - 0 1",
    "2kr3r/ppp2ppp/2n5/2b1q3/4P3/2N2N2/PPPQ1PPP/2KR1B1R b - - 3 12",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "4k3/8/8/3B4/8/8/8/4K1N1 w - - 0 1",
];

/// The same position with colours exchanged: board flipped top to bottom, piece colours and side to move
/// swapped, castling rights and the en-passant square mirrored.
fn mirror(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap_case = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = f[0].split('/').rev().map(swap_case).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap_case(f[2]);
        let (mut upper, lower): (Vec<char>, Vec<char>) =
            s.chars().partition(|c| c.is_ascii_uppercase());
        upper.extend(lower);
        upper.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

/// Many positions: the fixed ones and the positions along deterministic pseudo-random games from them.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut rng = corvid::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
    for fen in FENS {
        let mut pos = Position::from_fen(fen, false).expect("valid FEN");
        out.push(pos);
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
            out.push(pos);
        }
    }
    out
}

fn eval_fen(fen: &str) -> i32 {
    evaluate(&Position::from_fen(fen, false).expect("valid FEN"))
}

#[test]
fn mirror_helper_round_trips() {
    for fen in FENS {
        let pos = Position::from_fen(fen, false).expect("valid FEN");
        assert_eq!(mirror(&mirror(&pos.to_fen())), pos.to_fen());
    }
}

#[test]
fn evaluation_is_colour_symmetric() {
    let all = positions();
    assert!(all.len() > 500);
    for pos in all {
        let fen = pos.to_fen();
        let flipped = Position::from_fen(&mirror(&fen), false).expect("mirrored FEN is valid");
        assert_eq!(
            evaluate(&pos),
            evaluate(&flipped),
            "{fen} vs {}",
            mirror(&fen)
        );
    }
}

#[test]
fn an_extra_queen_is_clearly_better() {
    let no_black_queen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(
        eval_fen(no_black_queen) > 600,
        "{}",
        eval_fen(no_black_queen)
    );
    // The same from the side that lacks the queen.
    let black_to_move = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    assert!(eval_fen(black_to_move) < -600);
    // And the start position is close to level.
    assert!(eval_fen(STARTPOS).abs() < 50);
}

#[test]
fn a_passed_pawn_on_the_seventh_beats_one_on_the_second() {
    for (seventh, second) in [
        (
            "7k/P7/8/8/8/8/8/K7 w - - 0 1",
            "7k/8/8/8/8/8/P7/K7 w - - 0 1",
        ),
        (
            "r5k1/3P2pp/8/8/8/8/6PP/R5K1 w - - 0 1",
            "r5k1/6pp/8/8/8/8/3P2PP/R5K1 w - - 0 1",
        ),
    ] {
        assert!(
            eval_fen(seventh) > eval_fen(second) + 50,
            "{seventh}: {} vs {}",
            eval_fen(seventh),
            eval_fen(second)
        );
    }
}

#[test]
fn trace_total_equals_evaluate() {
    for pos in positions() {
        let text = trace(&pos);
        let line = text
            .lines()
            .find(|l| l.starts_with("evaluation (side to move):"))
            .expect("trace has a total line");
        let value: i32 = line
            .trim_start_matches("evaluation (side to move):")
            .trim()
            .trim_end_matches("cp")
            .trim()
            .parse()
            .expect("a number");
        assert_eq!(value, evaluate(&pos), "{}\n{text}", pos.to_fen());
    }
}

#[test]
fn tuner_features_reproduce_evaluate() {
    for pos in positions() {
        let f = features(&pos);
        let (mut mg, mut eg) = (0i64, 0i64);
        for (i, c) in f.counts {
            mg += PARAMS[i as usize].mg as i64 * c as i64;
            eg += PARAMS[i as usize].eg as i64 * c as i64;
        }
        let scale = if eg > 0 { f.scales[0] } else { f.scales[1] } as f64 / SCALE_ONE as f64;
        let phase = f.phase as f64 / MAX_PHASE as f64;
        let white = mg as f64 * phase + eg as f64 * (1.0 - phase) * scale;
        let stm = if pos.side_to_move() == corvid::chess::Color::White {
            white
        } else {
            -white
        };
        assert!(
            (stm - evaluate(&pos) as f64).abs() <= 1.0,
            "{}: {stm} vs {}",
            pos.to_fen(),
            evaluate(&pos)
        );
    }
}

#[test]
fn drawish_endgames_are_scaled_down() {
    // Two pawns up with opposite-coloured bishops is worth much less than with bishops of one colour.
    let opposite = eval_fen("8/4kp2/8/2b5/8/8/3PPP2/5BK1 w - - 0 1");
    let same = eval_fen("8/4kp2/8/3b4/8/8/3PPP2/5BK1 w - - 0 1");
    assert!(opposite > 0 && opposite < same - 40, "{opposite} vs {same}");
    // A rook against a bishop without pawns is far from a rook's worth.
    let rook_v_bishop = eval_fen("8/4k3/8/3b4/8/8/8/3RK3 w - - 0 1");
    assert!(rook_v_bishop < 100, "{rook_v_bishop}");
}
