//! Cost of one static evaluation over a spread of positions (opening, middlegame, endgame, Heian):
//! from scratch, and given the piece-square sums (what the search pays, since it carries them), and
//! of computing those sums from scratch.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tokin::core::position::Position;
use tokin::core::Variant;
use tokin::eval::params::Weights;
use tokin::eval::{evaluate, evaluate_from, PieceSquare};

const POSITIONS: &[(&str, Variant)] = &[
    (
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        Variant::Shogi,
    ),
    (
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4",
        Variant::Shogi,
    ),
    (
        "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P1P/PPSP1P3/2G2S1R1/LN2KG1NL b Bbp 37",
        Variant::Shogi,
    ),
    (
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn3p 80",
        Variant::Shogi,
    ),
    (
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 120",
        Variant::Shogi,
    ),
    (
        "lnsgkgsnl/9/pppp1pppp/4p4/4P4/PPPP1PPPP/9/LNSGKGSNL w - 3",
        Variant::Heian,
    ),
];

fn bench_eval(c: &mut Criterion) {
    tokin::core::attacks::init();
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|&(sfen, variant)| Position::from_sfen(sfen, variant).expect("bench SFEN"))
        .collect();
    c.bench_function("evaluate (6 positions)", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for pos in &positions {
                sum = sum.wrapping_add(evaluate(black_box(pos)));
            }
            sum
        })
    });
    let w = &Weights::DEFAULT;
    let sums: Vec<PieceSquare> = positions
        .iter()
        .map(|pos| PieceSquare::compute(w, pos))
        .collect();
    c.bench_function("evaluate given the piece-square sums (6 positions)", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for (pos, sums) in positions.iter().zip(&sums) {
                sum = sum.wrapping_add(evaluate_from(w, black_box(pos), black_box(sums)));
            }
            sum
        })
    });
    c.bench_function("piece-square sums from scratch (6 positions)", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for pos in &positions {
                sum = sum.wrapping_add(PieceSquare::compute(w, black_box(pos)).material);
            }
            sum
        })
    });
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
