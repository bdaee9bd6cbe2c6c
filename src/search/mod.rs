//! Iterative deepening alpha-beta over the rules core, run by a lazy-SMP thread pool.
//!
//! `pool` is the protocol layer's handle; `worker` is one search thread (alpha-beta, quiescence,
//! iterative deepening); `movepick`, `history` and `see` order moves; `tt` is the shared table (its memory from `crate::large_table`);
//! `time` turns the clock into limits; `mate_probe` runs df-pn at the root of a mating attack;
//! `mate3` finds mates in one and three plies at interior nodes; `correction` corrects the static evaluation by the search's past errors; `params` holds every tunable
//! number; `bench` is the fixed node-count benchmark.

pub mod api;
pub mod bench;
mod correction;
mod eval_stack;
mod history;
mod mate3;
mod mate_probe;
mod movepick;
pub mod params;
pub mod pool;
pub mod score;
mod see;
pub mod time;
pub mod tt;
mod values;
mod worker;

pub use api::{BestMove, Bound, Limits, Score, SearchEvent, SearchInfo};
pub use bench::{bench, bench_until, bench_with, BenchReport};
pub use pool::{Evaluation, EventSink, Pool, SearchConfig};
pub use time::{TimeConfig, TimeLimits};
