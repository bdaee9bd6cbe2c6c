//! Criterion benchmarks of the search: a fixed-depth search of the start position and of a
//! drop-heavy endgame (1 thread, fresh 16 MB table each run, so every sample does the same work).

use criterion::{criterion_group, criterion_main, Criterion};
use std::sync::Arc;
use tokin::core::{Position, Variant};
use tokin::search::{EventSink, Limits, Pool, SearchConfig};

fn fixed_depth(c: &mut Criterion, name: &str, sfen: &str, depth: u32) {
    let pos = Position::from_sfen(sfen, Variant::Shogi).expect("benchmark SFEN is legal");
    let mut pool = Pool::new();
    pool.resize_hash(16);
    let sink: EventSink = Arc::new(|_| {});
    c.bench_function(name, |b| {
        b.iter(|| {
            pool.clear_hash();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            pool.start(
                pos.clone(),
                limits,
                SearchConfig::default(),
                Arc::clone(&sink),
            );
            pool.wait();
        })
    });
}

fn search(c: &mut Criterion) {
    fixed_depth(c, "startpos depth 7", tokin::search::bench::POSITIONS[0], 7);
    fixed_depth(
        c,
        "drop endgame depth 5",
        "6snl/5gk2/5pppp/9/9/9/9/9/K8 b RBG2S2N2L9Pr 1",
        5,
    );
}

fn bench_suite(c: &mut Criterion) {
    let mut group = c.benchmark_group("bench");
    group.sample_size(10);
    group.bench_function("bench depth 5", |b| b.iter(|| tokin::search::bench(5)));
    group.finish();
}

criterion_group!(benches, search, bench_suite);
criterion_main!(benches);
