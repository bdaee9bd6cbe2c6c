//! Perft against published node counts. The deeper counts are `#[ignore]`d: run them in release with
//! `cargo test --release --test perft -- --ignored`.

use tokin::core::movegen::{perft, perft_divide};
use tokin::core::{Position, Variant};

use std::time::Instant;

/// Runs `perft` and prints the speed (shown with `--nocapture`; the ignored deep runs are the
/// timing reference).
fn timed_perft(pos: &mut Position, depth: u32) -> u64 {
    let start = Instant::now();
    let nodes = perft(pos, depth);
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft({depth}) = {nodes} in {secs:.2} s, {:.1} Mnodes/s",
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    nodes
}

fn startpos_perft(depth: u32) -> u64 {
    let mut pos = Position::startpos(Variant::Shogi);
    timed_perft(&mut pos, depth)
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
    let start = Instant::now();
    let total: u64 = perft_divide(&pos, 6, 2).iter().map(|&(_, n)| n).sum();
    eprintln!(
        "perft_divide(6, 2 threads) = {total} in {:.2} s",
        start.elapsed().as_secs_f64()
    );
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

/// A middlegame with many drops and promotions (White to move).
const MIDGAME: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";
/// The position with the most legal moves known (593).
const MAX_MOVES: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";
/// A late middlegame, White to move at move 124.
const LATE: &str = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124";

fn sfen_perft(sfen: &str, depth: u32) -> u64 {
    let mut pos = Position::from_sfen(sfen, Variant::Shogi).expect("test SFEN parses");
    timed_perft(&mut pos, depth)
}

#[test]
fn midgame_shallow() {
    assert_eq!(sfen_perft(MIDGAME, 1), 207);
    assert_eq!(sfen_perft(MIDGAME, 2), 28_684);
}

#[test]
fn midgame_depth3() {
    assert_eq!(sfen_perft(MIDGAME, 3), 4_809_015);
}

#[test]
#[ignore]
fn midgame_depth4() {
    assert_eq!(sfen_perft(MIDGAME, 4), 516_925_165);
}

#[test]
fn max_moves_shallow() {
    assert_eq!(sfen_perft(MAX_MOVES, 1), 593);
    assert_eq!(sfen_perft(MAX_MOVES, 2), 105_677);
}

#[test]
#[ignore]
fn max_moves_depth3() {
    assert_eq!(sfen_perft(MAX_MOVES, 3), 53_393_368);
}

#[test]
fn late_shallow() {
    assert_eq!(sfen_perft(LATE, 1), 178);
    assert_eq!(sfen_perft(LATE, 2), 18_041);
}

#[test]
fn late_depth3() {
    assert_eq!(sfen_perft(LATE, 3), 2_552_846);
}

#[test]
#[ignore]
fn late_depth4() {
    assert_eq!(sfen_perft(LATE, 4), 207_741_677);
}
