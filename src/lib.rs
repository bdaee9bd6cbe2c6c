//! Tokin: a USI shogi engine.

pub mod core;
pub mod eval;
pub mod search;
pub mod usi;
