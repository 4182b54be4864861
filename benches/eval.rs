//! Evaluation speed: `evaluate` over a fixed set of varied positions (opening, middlegame, endgame).

use corvid::chess::Position;
use corvid::eval::chess::evaluate;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

const FENS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2kr3r/ppp2ppp/2n5/2b1q3/4P3/2N2N2/PPPQ1PPP/2KR1B1R b - - 3 12",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/5k2/8/8/8/8/1P3K2/8 w - - 0 1",
];

fn bench_eval(c: &mut Criterion) {
    let positions: Vec<Position> = FENS
        .iter()
        .map(|f| Position::from_fen(f, false).expect("valid FEN"))
        .collect();
    let mut group = c.benchmark_group("eval");
    // Throughput in positions, so criterion reports evaluations per second.
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("evaluate 8 positions", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for pos in &positions {
                sum = sum.wrapping_add(evaluate(black_box(pos)));
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
