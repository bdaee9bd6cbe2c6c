//! Cost of the network's parts on each instruction set this CPU has, with a standard-shape
//! (256x2-32-32) network of random weights: the layers after the accumulator (what every
//! evaluation pays), one move's incremental accumulator update (both perspectives), and a refresh
//! of one perspective (a king move).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::sync::Arc;
use tokin::core::position::Position;
use tokin::core::{Color, Variant};
use tokin::eval::nnue::features::{self, FeatureDelta};
use tokin::eval::nnue::network::Half;
use tokin::eval::nnue::simd::Isa;
use tokin::eval::nnue::{Accumulator, Architecture, Nnue, RawNetwork, StandardNetwork};

const POSITIONS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P1P/PPSP1P3/2G2S1R1/LN2KG1NL b Bbp 37",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn3p 80",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 120",
];

fn bench_nnue(c: &mut Criterion) {
    tokin::core::attacks::init();
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|s| Position::from_sfen(s, Variant::Shogi).expect("bench SFEN"))
        .collect();
    for isa in Isa::supported() {
        let raw = RawNetwork::random(Architecture::STANDARD, 1, 24).expect("memory");
        let network = Arc::new(StandardNetwork::from_raw_with(raw, isa).expect("standard shape"));
        let nnue = Nnue::new(Arc::clone(&network), 16);
        let accumulators: Vec<Accumulator<256>> = positions
            .iter()
            .map(|pos| {
                let mut acc = Accumulator::ZERO;
                nnue.refresh(pos, &mut acc);
                acc
            })
            .collect();
        let name = isa.name();
        c.bench_function(
            &format!("{name}: layers after the accumulator (4 positions)"),
            |b| {
                b.iter(|| {
                    let mut sum = 0i32;
                    for (pos, acc) in positions.iter().zip(&accumulators) {
                        sum =
                            sum.wrapping_add(network.propagate(black_box(acc), pos.side_to_move()));
                    }
                    sum
                })
            },
        );
        // The first legal non-king move of each position, as the search makes it.
        let moves: Vec<(Position, FeatureDelta)> = positions
            .iter()
            .map(|pos| {
                let moves = tokin::core::movegen::legal_moves(pos);
                let m = moves
                    .iter()
                    .copied()
                    .find(|&m| pos.moved_piece(m).kind() != tokin::core::PieceKind::King)
                    .expect("a move");
                let delta = FeatureDelta::new(pos, m);
                let mut after = pos.clone();
                after.do_move(m);
                (after, delta)
            })
            .collect();
        c.bench_function(
            &format!("{name}: incremental update, one move (4 positions)"),
            |b| {
                let mut out = Accumulator::ZERO;
                b.iter(|| {
                    for ((after, delta), before) in moves.iter().zip(&accumulators) {
                        nnue.update(before, after, std::iter::once(*delta), &mut out);
                        black_box(&out);
                    }
                })
            },
        );
        c.bench_function(
            &format!("{name}: refresh one perspective (4 positions)"),
            |b| {
                let mut out = Half::ZERO;
                b.iter(|| {
                    for pos in &positions {
                        let king = features::king_bucket(pos, Color::Black).expect("a king");
                        network.refresh(black_box(pos), Color::Black, king, &mut out);
                        black_box(&out);
                    }
                })
            },
        );
    }
}

criterion_group!(benches, bench_nnue);
criterion_main!(benches);
