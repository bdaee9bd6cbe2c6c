//! Perft against published node counts. The deeper counts are `#[ignore]`d: run them in release with
//! `cargo test --release --test perft -- --ignored`.

use tokin::core::movegen::{perft, perft_divide};
use tokin::core::{Position, Variant};

fn startpos_perft(depth: u32) -> u64 {
    let mut pos = Position::startpos(Variant::Shogi);
    perft(&mut pos, depth)
}

#[test]
fn startpos_shallow() {
    assert_eq!(startpos_perft(1), 30);
    assert_eq!(startpos_perft(2), 900);
    assert_eq!(startpos_perft(3), 25470);
}

#[test]
fn startpos_depth4() {
    assert_eq!(startpos_perft(4), 719_731);
}

#[test]
#[ignore]
fn startpos_depth5() {
    assert_eq!(startpos_perft(5), 19_861_490);
}

#[test]
#[ignore]
fn startpos_depth6() {
    let pos = Position::startpos(Variant::Shogi);
    let total: u64 = perft_divide(&pos, 6, 2).iter().map(|&(_, n)| n).sum();
    assert_eq!(total, 547_581_517);
}

#[test]
fn divide_sums_to_perft_and_threads_agree() {
    let pos = Position::startpos(Variant::Shogi);
    let one = perft_divide(&pos, 3, 1);
    let two = perft_divide(&pos, 3, 2);
    assert_eq!(one, two);
    assert_eq!(one.len(), 30);
    assert_eq!(one.iter().map(|&(_, n)| n).sum::<u64>(), 25470);
}
