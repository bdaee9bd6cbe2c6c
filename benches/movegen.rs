//! Move generation and perft benchmarks.
//!
//! `cargo bench --bench movegen`. The perft benchmark is the number to watch for generator and
//! do/undo speed; the generate_legal ones isolate generation on positions of different shapes.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tokin::core::movegen::{generate_legal, perft, MoveList};
use tokin::core::{Position, Variant};

const POSITIONS: [(&str, &str); 4] = [
    (
        "startpos",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "midgame",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    ),
    (
        "max593",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    ),
    (
        "late",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("startpos_4", |b| {
        let mut pos = Position::startpos(Variant::Shogi);
        b.iter(|| perft(black_box(&mut pos), 4))
    });
    group.finish();
}

fn bench_generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate_legal");
    for (name, sfen) in POSITIONS {
        let pos = Position::from_sfen(sfen, Variant::Shogi).expect("benchmark SFEN parses");
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut list = MoveList::new();
                generate_legal(black_box(&pos), &mut list);
                list.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_generate);
criterion_main!(benches);
