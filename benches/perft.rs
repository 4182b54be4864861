//! Perft speed, single thread: orthodox start position to depth 5 and Kiwipete to depth 4; Makromachy's start
//! position to depth 4 (the speed benchmark; reference count 17,452,279).

use corvid::chess::perft;
use corvid::chess::Position;
use criterion::{criterion_group, criterion_main, Criterion};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn bench_perft(c: &mut Criterion) {
    let start = Position::startpos();
    let kiwi = Position::from_fen(KIWIPETE, false).expect("valid FEN");
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("startpos depth 5", |b| {
        b.iter(|| assert_eq!(perft(&start, 5), 4_865_609))
    });
    group.bench_function("kiwipete depth 4", |b| {
        b.iter(|| assert_eq!(perft(&kiwi, 4), 4_085_603))
    });
    let makro = corvid::makro::Position::startpos();
    group.bench_function("makromachy startpos depth 4", |b| {
        b.iter(|| assert_eq!(corvid::makro::perft(&makro, 4), 17_452_279))
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
