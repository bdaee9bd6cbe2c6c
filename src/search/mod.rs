//! Iterative deepening alpha-beta over the rules core, run by a lazy-SMP thread pool.

pub mod api;
pub mod params;
pub mod time;
pub mod tt;

pub use api::{BestMove, Bound, Limits, Score, SearchEvent, SearchInfo};
pub use time::{TimeConfig, TimeLimits};
