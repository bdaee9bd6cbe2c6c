//! The df-pn mate solver on composed and published problems.
//!
//! Every mating line asserted here is also replayed by `is_mating_line` (rules core only), and its
//! length is the shortest: the solver's shortening pass searches every shorter length exhaustively
//! before it settles. Published lengths (tsume collections; mate-in-3/5 game positions) agree.
//! Problems follow the tsume convention: the defender holds every piece not on the board or in
//! the attacker's hand.

use std::sync::atomic::AtomicBool;
use tokin::core::{Position, Variant};
use tokin::mate::problem_file::parse_problems;
use tokin::mate::{is_mating_line, probe_root_mate, MateLimits, MateResult, MateSolver};

fn position(sfen: &str) -> Position {
    Position::from_sfen(sfen, Variant::Shogi).expect("valid sfen")
}

fn solve_with(sfen: &str, limits: MateLimits) -> MateResult {
    let mut solver = MateSolver::new(16);
    let stop = AtomicBool::new(false);
    solver.solve(&position(sfen), limits, &stop, &mut |_| {})
}

fn solve(sfen: &str) -> MateResult {
    solve_with(
        sfen,
        MateLimits {
            time_ms: Some(30_000),
            nodes: None,
        },
    )
}

/// Solves and checks the exact mating line (USI moves separated by spaces).
fn assert_mate(sfen: &str, expected: &str) {
    match solve(sfen) {
        MateResult::Mate(pv) => {
            let text: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
            assert_eq!(text.join(" "), expected, "{sfen}");
            assert!(is_mating_line(&position(sfen), &pv));
        }
        other => panic!("{sfen}: expected a mate, got {other:?}"),
    }
}

// ---- 1 ply ----

#[test]
fn mate_in_1_by_drop_without_attacker_king() {
    assert_mate("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", "G*5b");
}

#[test]
fn mate_in_1_knight_must_not_promote() {
    // N4e3c checks the king on 2a by the knight's jump; a promoted knight on 3c moves like a gold
    // and gives no check.
    assert_mate("6skl/9/7G1/9/5N3/9/9/9/9 b 2r2b3g3s3n3l18p 1", "4e3c");
}

#[test]
fn mate_in_1_pawn_must_promote() {
    // An unpromoted pawn on 5b leaves 4a, 6a, 4b and 6b; the tokin covers them, guarded by the
    // lance behind.
    assert_mate("4k4/9/4P4/9/9/9/9/4L4/9 b 2r2b4g4s4n3l17p 1", "5c5b+");
}

// ---- uchifuzume ----

#[test]
fn pawn_drop_mate_is_illegal_so_no_mate() {
    // P*1b would mate (guarded by the gold, 2a and 2b covered): uchifuzume, illegal. Nothing else
    // mates with one pawn in hand.
    let sfen = "8k/9/6N1G/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1";
    let pos = position(sfen);
    let drop = pos.parse_usi_move("P*1b");
    assert!(drop.is_err(), "P*1b must be refused as uchifuzume");
    assert_eq!(solve(sfen), MateResult::NoMate);
}

#[test]
fn pawn_drop_mate_is_illegal_lance_drop_mates() {
    assert_mate("8k/9/6N1G/9/9/9/9/9/9 b LP2r2b3g4s3n3l17p 1", "L*1b");
}

// ---- 3 plies ----

#[test]
fn mate_in_3_gold_drops() {
    assert_mate(
        "7nl/7k1/6Ppp/9/9/9/9/9/9 b 2G2r2b2g4s3n3l15p 1",
        "G*3b 2b1b G*2b",
    );
}

#[test]
fn mate_in_3_knight_drop() {
    assert_mate(
        "5g1nl/4g1sk1/4ppppp/9/4B4/9/9/9/9 b GN2rbg3s2n3l13p 1",
        "N*3d 2b3a G*2b",
    );
}

#[test]
fn mate_in_3_silver_then_gold() {
    assert_mate(
        "7kl/9/6P2/9/9/9/9/9/9 b R2GSr2b2g3s4n3l17p 1",
        "S*3b 2a2b G*2c",
    );
}

#[test]
fn mate_in_3_game_position_white_attacks_with_own_king_on_board() {
    // From a published set of mate-in-3 game positions.
    assert_mate(
        "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
        "B*5g 4h5h 7i6i",
    );
}

// ---- 5 plies ----

#[test]
fn mate_in_5_silver_drops() {
    assert_mate(
        "6knl/6s2/5Pppp/9/9/9/9/9/9 b G2S2r2b3gs3n3l14p 1",
        "S*4b 3a2b S*3a 2b1b G*2b",
    );
}

#[test]
fn mate_in_5_dragon_sacrifice() {
    assert_mate(
        "7nl/5+R1gk/6Ppp/9/9/9/9/9/9 b Gr2b2g4s3n3l15p 1",
        "4b2b 1b2b G*3b 2b1b G*2b",
    );
}

#[test]
fn mate_in_5_game_position_white_attacks() {
    // From a published set of mate-in-5 game positions.
    assert_mate(
        "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
        "5f6h+ 7h6h S*5i 6h7i G*6h",
    );
}

#[test]
fn useless_interposition_is_not_the_main_line() {
    // After B*4c the defender could drop the pawn it just won on 3b; the bishop takes it and the
    // mate is two plies longer the same way (無駄合). The line shows the king move instead.
    assert_mate(
        "4r2nk/6+Pbl/9/6L2/9/9/9/9/9 b B 1",
        "3b2a 1a2a B*4c 2a1a N*2c",
    );
}

// ---- 7 plies ----

#[test]
fn mate_in_7_rook_promotes_and_knight_interposes() {
    assert_mate(
        "7nl/7k1/6ppp/9/9/9/9/9/5R3 b Sr2b4g3s3n3l15p 1",
        "4i4b+ N*3b S*3a 2b1b 4b3b N*2b 3a2b+",
    );
}

#[test]
fn mate_in_7_gold_walks_the_king_into_the_dragon() {
    assert_mate(
        "+R4G1nl/6k2/4ppppp/9/9/9/9/9/9 b r2b3g4s3n3l13p 1",
        "4a3a 3b2b 3a2a 2b1b 2a1a 1b2b 9a2a",
    );
}

// ---- 9 plies ----

#[test]
fn mate_in_9_horse_and_dragon() {
    assert_mate(
        "5RB2/8k/5p+r1p/5+bpp1/7sP/9/9/9/9 b GS3g2s4n4l13p 1",
        "G*1a 1b2c S*1b 2c3b 3a4b+ 3c4b 4a2a+ 3b3c 1b2c+",
    );
}

#[test]
fn mate_in_9_edge_chase() {
    assert_mate(
        "ln7/1k1+P5/1pp1S4/p8/9/2P6/9/9/9 b BGN2rbg2s2n3l13p 1",
        "6b7b 8b9c N*8e 9c8d B*7e 8d8e G*8f 8e7d 5c6d+",
    );
}

// ---- 11 plies ----

#[test]
fn mate_in_11_published_solution() {
    // The published answer: 32金打 同玉 42角成 21玉 31馬 同銀 23飛成 22銀 33桂打 31玉 41と.
    assert_mate(
        "4+P2kl/7s1/5R3/7B1/9/9/9/9/9 b GNrb3g3s3n3l17p 1",
        "G*3b 2a3b 2d4b+ 3b2a 4b3a 2b3a 4c2c+ 3a2b N*3c 2a3a 5a4a",
    );
}

#[test]
fn mate_in_11_horse_and_lance() {
    assert_mate(
        "6+B1l/6G1k/6bP1/6psp/9/9/9/9/9 b SL2r3g2s4n2l15p 1",
        "3b2b 1b1c 2b1b 1c1b S*2a 1b2c 2a3b 2c1b L*1c 2d1c 3a2a",
    );
}

// ---- no mate ----

#[test]
fn no_mate_proven_quickly() {
    let sfen = "8k/9/7GN/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1";
    let limits = MateLimits {
        time_ms: None,
        nodes: Some(100_000),
    };
    assert_eq!(solve_with(sfen, limits), MateResult::NoMate);
}

#[test]
fn no_mate_with_repeatable_checks() {
    // The knight and gold can keep checking the cornered king round a cycle; a repetition is the
    // attacker's failure, and the cycle must not be mistaken for a mate.
    assert_eq!(
        solve("7nk/9/7GN/9/9/9/9/9/9 b P2r2b3g4s2n4l17p 1"),
        MateResult::NoMate
    );
}

#[test]
fn no_mate_without_any_check() {
    assert_eq!(
        solve("4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1"),
        MateResult::NoMate
    );
}

// ---- limits and API ----

#[test]
fn node_limit_and_stop_give_timeout() {
    // A mate in 11: far more than 50 nodes.
    let sfen = "4+P2kl/7s1/5R3/7B1/9/9/9/9/9 b GNrb3g3s3n3l17p 1";
    let limits = MateLimits {
        time_ms: None,
        nodes: Some(50),
    };
    assert_eq!(solve_with(sfen, limits), MateResult::Timeout);

    let mut solver = MateSolver::new(1);
    let stop = AtomicBool::new(true);
    let result = solver.solve(&position(sfen), MateLimits::default(), &stop, &mut |_| {});
    assert_eq!(result, MateResult::Timeout);
}

#[test]
fn progress_is_reported_and_the_table_is_reusable() {
    let mut solver = MateSolver::new(4);
    let stop = AtomicBool::new(false);
    let mut reports = Vec::new();
    let pos = position("7nl/7k1/6ppp/9/9/9/9/9/5R3 b Sr2b4g3s3n3l15p 1");
    let first = solver.solve(&pos, MateLimits::default(), &stop, &mut |p| reports.push(p));
    let last = reports.last().expect("a final progress report");
    assert_eq!(last.nodes, solver.last_nodes());
    assert!(last.hashfull <= 1000);
    // Solving again with the filled table gives the same answer; so does a cleared or resized one.
    let again = solver.solve(&pos, MateLimits::default(), &stop, &mut |_| {});
    assert_eq!(first, again);
    solver.clear();
    solver.resize(2);
    assert_eq!(
        solver.solve(&pos, MateLimits::default(), &stop, &mut |_| {}),
        first
    );
}

#[test]
fn probe_root_mate_finds_short_mates_only() {
    let pos = position("7nl/7k1/6Ppp/9/9/9/9/9/9 b 2G2r2b2g4s3n3l15p 1");
    let line = probe_root_mate(&pos, 10_000).expect("a mate in 3");
    assert_eq!(line.len(), 3);
    let start = Position::startpos(Variant::Shogi);
    assert_eq!(probe_root_mate(&start, 10_000), None);
}

#[test]
fn problem_file_lines() {
    let text = "# comment\n\nsfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\nnot a position\n";
    let problems = parse_problems(text, Variant::Shogi);
    assert_eq!(problems.len(), 2);
    assert_eq!(problems[0].line, 3);
    assert!(problems[0].position.is_ok());
    assert_eq!(problems[1].line, 4);
    assert!(problems[1].position.is_err());
}
