//! The USI protocol: text in, typed commands, the engine loop, text out. Only this module builds
//! protocol strings; the search reports typed events.

pub mod command;
pub mod input;
pub mod options;
pub mod output;
pub mod display;
pub mod mate;
