//! Learning: training networks of the architecture `crate::eval::nnue` evaluates, from
//! PackedSfenValue records (ours from `tokin gensfen`, or anyone's), on the CPU.
//!
//! - [`sample`]: a record reduced to the network's inputs, its score and its game's result;
//! - [`model`]: the network in floating point, its forward pass and its quantisation into the file
//!   layout the engine and YaneuraOu load;
//! - [`train`]: the loss, the gradients and Adam with sparse updates of the first layer, all
//!   cores, checkpoints.

pub mod model;
pub mod sample;
pub mod train;

#[cfg(test)]
mod tests;

pub use model::Model;
pub use sample::Sample;
pub use train::{Progress, TrainConfig, TrainError, Trainer};
