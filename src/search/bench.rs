//! `tokin bench`: a fixed-depth search over fixed positions with one thread and a 16 MB table. The
//! node count is deterministic (same binary, same count), so it serves as a signature of the search's
//! behaviour: a commit that changes it changed what the search does.

use super::api::{Limits, SearchEvent};
use super::pool::{Evaluation, Pool, SearchConfig};
use crate::core::{Position, Variant};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What one bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    /// The index in [`POSITIONS`] of the position the bench was stopped in (or before), `None` when
    /// every position was searched to the end.
    pub stopped_at: Option<usize>,
}

/// Varied positions: openings, middlegames with pieces in hand, drop-heavy endgames, an
/// entering-king race. Each is checked legal by a unit test.
pub const POSITIONS: &[&str] = &[
    // Openings and early middlegames (reached by real opening lines).
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsg1g1nl/1k3rs2/ppppp1bpp/5pp2/7P1/2P1P4/PP1P1PP1P/1BK1GS1R1/LNSG3NL b - 17",
    "ln4snl/1r1sgkgb1/p1pppp1pp/6p2/1p7/2PPP4/PP1G1PPPP/1BGS1S1R1/LN2K2NL w - 16",
    "lnsgk1snl/1r4g2/p1ppppb1p/9/9/2P3R2/P2PPPP1P/1BG6/LNS1KGSNL b 3P2p 19",
    "ln1g3nl/1r3kg2/pppsppspp/3p2p2/9/2P2P1P1/PP1PPSP1P/1SG4R1/LN2KG1NL b Bb 17",
    "ln1gk2nl/1r1s2g2/p1p1ppspp/3p2p2/1p5P1/2P3P2/PPSPPPS1P/7R1/LN1GKG1NL b Bb 19",
    "ln3gsnl/1r1sg1kb1/p1pppp1pp/6p2/1p7/2PP5/PPBSPPPPP/6KR1/LN1G1GSNL b - 15",
    "ln4snl/1r1sggkb1/2pppp1pp/p5p2/1p7/2P1P4/PPBP1PPPP/3SR1SK1/LN1G1G1NL b - 19",
    "lnsg1gsnl/4r1kb1/pppp1p1pp/4p1p2/7P1/2P6/PP1PPPP1P/1BK2S1R1/LNSG1G1NL w - 12",
    // Middlegames with pieces in hand.
    "ln1g3nl/1r1s1kg2/p2ppsbpp/2p2pp2/1p7/2P1P1P2/PPBP1P1PP/2G1SS1R1/LN2KG1NL b - 1",
    "l6nl/3g1kg2/2n1ppsp1/p1pps3p/1p5P1/P1PPSPP1P/1PS1P4/2GK1G3/LN5RL w BPrbn 1",
    "lr5nl/3g1kg2/2n1pps2/p1pps2pp/1p7/P1PP1PP1P/1PSSP4/1KG1G4/LN5RL b BNb2p 1",
    "ln5nl/2s3gk1/p2p1sspp/2pgpp3/1p7/2P1P1PP1/PPSP1P2P/1KG1G2R1/LN5NL b BPrb 1",
    "3+R4l/4g1+Bk1/5ppp1/4p3p/9/2P6/PP1PPPP1P/1+b2K4/LNSG1GSNL w RGS2NLs5p 1",
    "1n5nl/2+R2gk2/p2pppsp1/2s5p/1p7/2P1S4/PP1PPPP1P/1SG1K4/LN3G1NL w BPrbgl2p 1",
    "l2R4l/4g1k2/2n1pp1pp/p1pp2p2/1p5P1/P1PPP1P1P/1PSG1P3/1KG6/LN5RL b BG2S2Nbs 1",
    // Endgames: attacks with many drops, a bare-board drop battle, an entering-king race.
    "6snl/5gk2/5pppp/9/9/9/9/9/K8 b RBG2S2N2L9Pr 1",
    "8l/4g1k2/4pp1p1/6p1p/9/4P4/9/9/4K4 b RGSrb2g2s4n3l11p 1",
    "7nl/5s1k1/6ppp/9/7N1/9/9/9/K8 b R2Grbs 1",
    "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "K1+P+P+P+P3/1+P+P6/+P+P+P6/9/9/9/6ppp/6gk1/9 b RB2S2N2Lrb3g2s2n2l6p 1",
];

/// How often a bench asks whether to stop while a search runs. The answer itself comes at once (the
/// search's `bestmove` wakes the wait), so this costs the measurement nothing.
const STOP_POLL: Duration = Duration::from_millis(10);

/// Searches every bench position to `depth` with the hand-written evaluation and sums the nodes.
pub fn bench(depth: u32) -> BenchReport {
    bench_with(depth, Evaluation::HandWritten)
}

/// Searches every bench position to `depth` with `evaluation` and sums the nodes. The time is the
/// searches' own: emptying the tables before each position (16 MB of table and 10 MB of
/// continuation history) is left out, so `nps` measures the search.
pub fn bench_with(depth: u32, evaluation: Evaluation) -> BenchReport {
    bench_until(depth, evaluation, &|| false)
}

/// [`bench_with`] that ends early once `stopped()` returns true (asked before each position and
/// every few milliseconds during its search): the search in progress is stopped, and its nodes and
/// time count with those of the positions before it.
pub fn bench_until(depth: u32, evaluation: Evaluation, stopped: &dyn Fn() -> bool) -> BenchReport {
    let mut pool = Pool::new();
    pool.resize_hash(16);
    let config = SearchConfig {
        threads: 1,
        evaluation,
        ..SearchConfig::default()
    };
    let mut nodes = 0u64;
    let mut searching = Duration::ZERO;
    let mut stopped_at = None;
    for (index, sfen) in POSITIONS.iter().enumerate() {
        if stopped() {
            stopped_at = Some(index);
            break;
        }
        let Ok(pos) = Position::from_sfen(sfen, Variant::Shogi) else {
            continue;
        };
        pool.clear_hash();
        let last = Arc::new(Mutex::new(0u64));
        let sink_last = Arc::clone(&last);
        let (answered, answer) = mpsc::channel();
        let sink = Arc::new(move |event: SearchEvent| match event {
            SearchEvent::Info(info) => {
                *sink_last.lock().unwrap_or_else(|e| e.into_inner()) = info.nodes;
            }
            SearchEvent::BestMove(_) => {
                let _ = answered.send(());
            }
            SearchEvent::Progress { .. } => {}
        });
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let started = Instant::now();
        pool.start(pos, limits, config.clone(), sink);
        let mut stop_sent = false;
        while let Err(RecvTimeoutError::Timeout) = answer.recv_timeout(STOP_POLL) {
            if !stop_sent && stopped() {
                pool.stop();
                stop_sent = true;
            }
        }
        pool.wait();
        searching += started.elapsed();
        nodes += *last.lock().unwrap_or_else(|e| e.into_inner());
        if stop_sent {
            stopped_at = Some(index);
            break;
        }
    }
    let time_ms = searching.as_millis() as u64;
    BenchReport {
        nodes,
        time_ms,
        nps: nodes * 1000 / time_ms.max(1),
        stopped_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_legal() {
        assert!(POSITIONS.len() >= 20);
        for sfen in POSITIONS {
            let pos = Position::from_sfen(sfen, Variant::Shogi);
            assert!(pos.is_ok(), "{sfen}: {:?}", pos.err());
        }
    }

    #[test]
    fn a_bench_runs_to_the_end_unless_stopped() {
        crate::core::attacks::init();
        let full = bench(1);
        assert_eq!(full.stopped_at, None);
        assert!(full.nodes > 0);
        let at_once = bench_until(1, Evaluation::HandWritten, &|| true);
        assert_eq!((at_once.stopped_at, at_once.nodes), (Some(0), 0));
    }

    /// A search that would take forever is stopped within a moment of the question turning true,
    /// and what it searched is counted.
    #[test]
    fn stopping_a_bench_ends_the_search_in_progress() {
        crate::core::attacks::init();
        let start = Instant::now();
        let report = bench_until(60, Evaluation::HandWritten, &|| {
            start.elapsed() > Duration::from_millis(200)
        });
        assert_eq!(report.stopped_at, Some(0));
        assert!(report.nodes > 0, "{report:?}");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
    }
}
