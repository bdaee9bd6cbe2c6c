//! Slider attack lookups: the cost of one `rook_attacks` / `bishop_attacks` / `lance_attacks` call.
//!
//! Each iteration looks up every square against one of a fixed set of seeded random occupancies
//! (roughly a middlegame's density), so the timing covers the mask, the index arithmetic and the
//! table load, not just a hot cache line. Divide the reported time by 81 * BOARDS for ns/lookup (by twice that
//! for `lance`, which looks up both colours per element).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tokin::core::attacks;
use tokin::core::{Bitboard, Color, Square};
use tokin::rng::Rng;

const BOARDS: usize = 64;

/// A fixed seed so every run times the same occupancies.
fn occupancies() -> Vec<Bitboard> {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut next = || rng.next();
    (0..BOARDS)
        .map(|_| {
            // AND of two words: each square occupied with probability 1/4 (about 20 of 81).
            let a = (next() as u128) | (next() as u128) << 64;
            let b = (next() as u128) | (next() as u128) << 64;
            Bitboard::from_u128(a & b)
        })
        .collect()
}

fn bench_sliders(c: &mut Criterion) {
    // Table construction, timed once (it runs once per process, at `isready`).
    let start = std::time::Instant::now();
    attacks::init();
    eprintln!("attacks::init: {:.2?}", start.elapsed());
    let occs = occupancies();
    let squares: Vec<Square> = Square::all().collect();
    let mut group = c.benchmark_group("attacks");
    group.throughput(Throughput::Elements((BOARDS * 81) as u64));

    group.bench_function("rook", |b| {
        b.iter(|| {
            let mut acc = Bitboard::EMPTY;
            for &occ in &occs {
                for &sq in &squares {
                    acc ^= attacks::rook_attacks(black_box(sq), black_box(occ));
                }
            }
            acc
        })
    });
    group.bench_function("bishop", |b| {
        b.iter(|| {
            let mut acc = Bitboard::EMPTY;
            for &occ in &occs {
                for &sq in &squares {
                    acc ^= attacks::bishop_attacks(black_box(sq), black_box(occ));
                }
            }
            acc
        })
    });
    group.bench_function("lance", |b| {
        b.iter(|| {
            let mut acc = Bitboard::EMPTY;
            for &occ in &occs {
                for &sq in &squares {
                    acc ^= attacks::lance_attacks(Color::Black, black_box(sq), black_box(occ));
                    acc ^= attacks::lance_attacks(Color::White, black_box(sq), black_box(occ));
                }
            }
            acc
        })
    });
    group.finish();
}

criterion_group!(benches, bench_sliders);
criterion_main!(benches);
