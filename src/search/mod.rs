//! Iterative deepening alpha-beta over the rules core, run by a lazy-SMP thread pool.

pub mod api;

pub use api::{BestMove, Bound, Limits, Score, SearchEvent, SearchInfo};
