//! Mate solver benchmark: solves a fixed set of problems (or the SFENs of a file, one per line)
//! and prints the mate length, time, nodes and nodes per second of each.
//!
//! `cargo run --release --example mate_bench [FILE] [--time MS] [--hash MB]`

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tokin::core::Variant;
use tokin::mate::problem_file::{parse_problems, read_problems};
use tokin::mate::{MateLimits, MateResult, MateSolver};

/// Published problems (lengths from their sources) with the defender holding the rest, plus
/// game positions from the published mate-in-5 set.
const PROBLEMS: &str = "\
# 9 plies
7n1/7SR/3s1p1k1/3b2s2/6pp1/9/9/9/9 b RBP4gs3n4l14p 1
ln1p5/2k1p4/1pgP+P4/p8/1P7/P8/9/9/9 b RG2Sr2b2g2s3n3l10p 1
ln7/1k2s4/1pp6/p8/9/3L5/9/9/9 b RBGNrb3g3s2n2l15p 1
# 11 plies
4+P2kl/7s1/5R3/7B1/9/9/9/9/9 b GNrb3g3s3n3l17p 1
6+B1l/6G1k/6bP1/6psp/9/9/9/9/9 b SL2r3g2s4n2l15p 1
# 13 plies
7k1/4p3r/6S2/9/6rN1/9/9/9/9 b BNLb4g3s2n3l17p 1
6kpl/4Pg2S/5GbP1/5p2p/5sb2/9/9/9/9 b RSNPr2gs3n3l12p 1
# game positions, mate in 5
l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72
lnsgs2+Pl/3kg4/p1pppN2p/6pp1/9/7R1/P1PP1Sg1P/1S3+b3/LN5KL w Nrbg6p 58
ln1+P1GBnl/s8/p1p1p1kpp/3P2p2/5p3/Pp3PPP1/1P1SP3P/2R6/1N1GKG1NL b BGLr2sp 67
ln1s3nl/1+S4+B2/p1p1k2pp/3p2P2/7P1/P1Pnpp1R1/1P1P+lP2P/2G1G4/L1SKP2N+b b R2GPsp 73
";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut time_ms = 60_000;
    let mut hash_mb = 256;
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--time" => time_ms = it.next().and_then(|v| v.parse().ok()).unwrap_or(time_ms),
            "--hash" => hash_mb = it.next().and_then(|v| v.parse().ok()).unwrap_or(hash_mb),
            path => file = Some(path.to_string()),
        }
    }
    let problems = match file {
        Some(path) => match read_problems(std::path::Path::new(&path), Variant::Shogi) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        },
        None => parse_problems(PROBLEMS, Variant::Shogi),
    };
    let mut solver = MateSolver::new(hash_mb);
    let stop = AtomicBool::new(false);
    let limits = MateLimits {
        time_ms: Some(time_ms),
        nodes: None,
    };
    let (mut total_nodes, mut total_ms) = (0u64, 0u64);
    for problem in &problems {
        let pos = match &problem.position {
            Ok(pos) => pos,
            Err(e) => {
                println!("line {}: {e}", problem.line);
                continue;
            }
        };
        // Each problem from an empty table, so times do not depend on the order.
        solver.clear();
        let start = Instant::now();
        let result = solver.solve(pos, limits, &stop, &mut |_| {});
        let ms = start.elapsed().as_millis() as u64;
        let nodes = solver.last_nodes();
        total_nodes += nodes;
        total_ms += ms;
        let answer = match &result {
            MateResult::Mate(pv) => format!("mate {:>2} plies", pv.len()),
            MateResult::NoMate => "nomate".to_string(),
            MateResult::Timeout => "timeout".to_string(),
        };
        println!(
            "{answer:<15} {ms:>7} ms {nodes:>10} nodes {:>9} nps  {}",
            nodes * 1000 / ms.max(1),
            problem.sfen
        );
    }
    println!(
        "total: {} problems, {total_ms} ms, {total_nodes} nodes, {} nps",
        problems.len(),
        total_nodes * 1000 / total_ms.max(1)
    );
}
