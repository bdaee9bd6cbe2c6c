//! Tokin: a USI shogi engine.

pub mod core;
pub mod csa;
pub mod eval;
pub mod gensfen;
pub mod large_table;
pub mod learn;
pub mod mate;
pub mod psv;
pub mod rng;
pub mod search;
pub mod usi;

#[cfg(test)]
mod test_support;
