//! The USI protocol: text in, typed commands, the engine loop, text out. Only this module builds
//! protocol strings; the search reports typed events.

pub mod cli;
pub mod command;
pub mod data_cli;
pub mod display;
pub mod engine;
pub mod evaluation;
pub mod input;
pub mod learn_cli;
pub mod mate;
pub mod options;
pub mod output;
pub mod progress;
pub mod tunables;
