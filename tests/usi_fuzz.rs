//! Random damage to real commands (tokens dropped, swapped, cut, replaced by or glued to junk,
//! bytes that are not UTF-8): whatever arrives, the engine answers `isready` with `readyok`, every
//! line it writes keeps the protocol's format (the client checks each one), and afterwards it still
//! plays a legal move.
//!
//! Seeded, so a failure replays; the transcript in the failure message shows the commands.

mod common;

use common::*;
use std::time::Duration;
use tokin::core::{Position, Variant};
use tokin::rng::Rng;

/// Commands a GUI or a user sends, to be damaged. Left out: `quit`; `isready`, whose `readyok` marks
/// the end of each step's answer; and `USI_Hash`, which a mutation could turn into `usinewgame`
/// clearing gigabytes, a job that `stop` does not end by design. `go perft` and `bench` are in:
/// `stop` ends them, and the `isready` behind them waits for their count.
const COMMANDS: &[&str] = &[
    "usi",
    "usinewgame",
    "position startpos",
    "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f",
    "position sfen 8k/9/9/9/9/9/9/9/K8 b 2P 1",
    "position sfen 4k4/9/4G4/9/9/9/9/9/4K4 w - 1",
    "go depth 3",
    "go nodes 2000",
    "go movetime 20",
    "go btime 100 wtime 100 byoyomi 50",
    "go btime 1000 wtime 1000 binc 10 winc 10",
    "go infinite",
    "go ponder btime 0 wtime 0 byoyomi 30",
    "ponderhit",
    "stop",
    "go mate 50",
    "go mate infinite",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name USI_Variant value heian",
    "setoption name USI_Variant value shogi",
    "setoption name Contempt value 10",
    "setoption name ClearHash",
    "setoption name MaxMovesToDraw value 5",
    "setoption name NetworkDelay2 value 0",
    "gameover win",
    "gameover draw",
    "d",
    "eval",
    "go perft 3",
    "bench 2",
];

/// Tokens glued in or substituted: numbers out of range, move-like and SFEN-like fragments,
/// keywords in the wrong place.
const JUNK: &[&str] = &[
    "-1",
    "99999999999999999999",
    "0",
    "abc",
    "moves",
    "sfen",
    "name",
    "value",
    "+",
    "*",
    "P*5e",
    "7g7f",
    "1a1a",
    "9i9i+",
    "K*5e",
    "lnsgk/9",
    "depth",
    "nodes",
    "infinite",
    "b",
    "w",
    "-",
];

/// One damaged line (without its newline).
fn damaged(rng: &mut Rng) -> Vec<u8> {
    let mut tokens: Vec<Vec<u8>> = COMMANDS[rng.below(COMMANDS.len())]
        .split(' ')
        .map(|t| t.as_bytes().to_vec())
        .collect();
    for _ in 0..1 + rng.below(2) {
        let n = tokens.len();
        match rng.below(9) {
            0 if n > 0 => {
                tokens.remove(rng.below(n));
            }
            1 => tokens.insert(rng.below(n + 1), JUNK[rng.below(JUNK.len())].into()),
            2 if n > 0 => {
                let t = &mut tokens[rng.below(n)];
                t.truncate(rng.below(t.len() + 1));
            }
            3 if n > 1 => tokens.swap(rng.below(n), rng.below(n)),
            4 if n > 0 => {
                tokens[rng.below(n)].extend_from_slice(JUNK[rng.below(JUNK.len())].as_bytes())
            }
            5 if n > 0 => {
                // Bytes that are not UTF-8, a NUL, a tab, a carriage return.
                let odd: &[u8] =
                    [&b"\xff\xfe"[..], b"\x00", b"\t", b"\r", "\u{e9}".as_bytes()][rng.below(5)];
                tokens[rng.below(n)].extend_from_slice(odd);
            }
            6 => tokens.insert(rng.below(n + 1), Vec::new()), // a doubled space
            7 if n > 0 => tokens[rng.below(n)] = JUNK[rng.below(JUNK.len())].into(),
            8 => {
                // A number where one belongs, out of range or not quite a number.
                let numeric: Vec<usize> = (0..n)
                    .filter(|&i| tokens[i].iter().all(u8::is_ascii_digit))
                    .collect();
                if !numeric.is_empty() {
                    let odd = ["-1", "0", "99999999999999999999", "1e3", "+5", "12abc", ""];
                    tokens[numeric[rng.below(numeric.len())]] = odd[rng.below(odd.len())].into();
                }
            }
            _ => {}
        }
    }
    tokens.join(&b' ')
}

#[test]
fn damaged_commands_never_stop_the_engine_serving() {
    let mut c = Client::spawn();
    c.handshake();
    c.sync();
    for seed in [1u64, 2, 3] {
        let mut rng = Rng::new(seed);
        for _ in 0..400 {
            let mut line = damaged(&mut rng);
            line.extend_from_slice(b"\nstop\nisready\n");
            c.send_raw(&line);
            // `stop` does not wait for the search, so a stopped search's bestmove may come just
            // before or just after this readyok; either is fine.
            c.expect("readyok", Duration::from_secs(20));
        }
    }
    // `gameover` waits for any search still finishing and mutes it: nothing stale follows.
    c.send("gameover draw");
    c.send("isready");
    c.expect("readyok", QUICK);
    // Still a working engine: a fresh position and a legal answer.
    c.send("setoption name USI_Variant value shogi");
    c.send("setoption name MultiPV value 1");
    c.send("position startpos moves 7g7f 3c3d");
    c.sync();
    let (best, _, _) = c.go("go depth 4", Duration::from_secs(30));
    let mut pos = Position::startpos(Variant::Shogi);
    for usi in ["7g7f", "3c3d"] {
        let m = pos.parse_usi_move(usi).expect("legal opening move");
        pos.do_move(m);
    }
    check_bestmove(&best, &pos);
}
