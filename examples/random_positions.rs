//! Prints seeded random positions as SFEN lines: random legal games from the start position, each
//! cut at a random ply, with captures preferred now and then so that hands fill up. Input for
//! comparing evaluations and speeds between engines (`scripts/nnue_check.py`).
//!
//! ```sh
//! cargo run --release --example random_positions -- --count 1000 --seed 1 > positions.sfen
//! ```

use std::process::ExitCode;
use tokin::core::movegen::legal_moves;
use tokin::core::{Position, Variant};
use tokin::rng::Rng;

fn main() -> ExitCode {
    let (mut count, mut seed, mut max_ply) = (100usize, 1u64, 200usize);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (arg.as_str(), value) {
            ("--count", Some(v)) => count = v as usize,
            ("--seed", Some(v)) => seed = v,
            ("--max-ply", Some(v)) => max_ply = (v as usize).max(1),
            _ => {
                eprintln!("usage: random_positions [--count N] [--seed S] [--max-ply P]");
                return ExitCode::FAILURE;
            }
        }
    }
    tokin::core::attacks::init();
    let mut rng = Rng::new(seed);
    let mut printed = 0;
    while printed < count {
        let mut pos = Position::startpos(Variant::Shogi);
        let plies = 1 + rng.below(max_ply);
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            let list = moves.as_slice();
            if list.is_empty() {
                break;
            }
            let capture = list.iter().copied().find(|&m| pos.is_capture(m));
            let m = match capture {
                Some(c) if rng.below(2) == 0 => c,
                _ => list[rng.below(list.len())],
            };
            pos.do_move(m);
        }
        if !legal_moves(&pos).is_empty() {
            println!("{}", pos.to_sfen());
            printed += 1;
        }
    }
    ExitCode::SUCCESS
}
