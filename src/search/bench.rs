//! `tokin bench`: a fixed-depth search over fixed positions with one thread and a 16 MB table. The
//! node count is deterministic (same binary, same count), so it serves as a signature of the search's
//! behaviour: a commit that changes it changed what the search does.

use super::api::{Limits, SearchEvent};
use super::pool::{Pool, SearchConfig};
use crate::core::{Position, Variant};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What one bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchReport {
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
}

/// Varied positions: openings, middlegames with pieces in hand, drop-heavy endgames, an
/// entering-king race. Each is checked legal by a unit test.
pub const POSITIONS: &[&str] = &["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"];

/// Searches every bench position to `depth` and sums the nodes.
pub fn bench(depth: u32) -> BenchReport {
    let mut pool = Pool::new();
    pool.resize_hash(16);
    let config = SearchConfig {
        threads: 1,
        ..SearchConfig::default()
    };
    let nodes = Arc::new(Mutex::new(0u64));
    let start = Instant::now();
    for sfen in POSITIONS {
        let Ok(pos) = Position::from_sfen(sfen, Variant::Shogi) else {
            continue;
        };
        pool.clear_hash();
        let last = Arc::new(Mutex::new(0u64));
        let sink_last = Arc::clone(&last);
        let sink = Arc::new(move |event: SearchEvent| {
            if let SearchEvent::Info(info) = event {
                *sink_last.lock().unwrap_or_else(|e| e.into_inner()) = info.nodes;
            }
        });
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        pool.start(pos, limits, config.clone(), sink);
        pool.wait();
        *nodes.lock().unwrap_or_else(|e| e.into_inner()) +=
            *last.lock().unwrap_or_else(|e| e.into_inner());
    }
    let time_ms = start.elapsed().as_millis() as u64;
    let nodes = *nodes.lock().unwrap_or_else(|e| e.into_inner());
    BenchReport {
        nodes,
        time_ms,
        nps: nodes * 1000 / time_ms.max(1),
    }
}
