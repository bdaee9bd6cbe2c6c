//! Network play: `tokin csa` joins a server that speaks the CSA server protocol (floodgate, the
//! championships' servers, a private shogi-server) and plays there headless.
//!
//! It is a front end beside `usi/`, driving the same engine state: the options, the search pool
//! and the time manager. `message` and `summary` read and write the protocol's lines; `clock`
//! keeps the server's clock from the times it charges and turns it into the search's limits;
//! `game` holds one game (the position through the rules core, moves, clocks, the end); `player`
//! starts searches and ponders; `session` is the protocol's state machine for one connection;
//! `client` moves the bytes, retries and writes the files (`record`: the CSA record; `journal`:
//! the transcript); `config` merges the command line and a config file.

pub mod client;
pub mod clock;
pub mod config;
pub mod game;
pub mod journal;
pub mod message;
pub mod player;
pub mod record;
pub mod session;
pub mod summary;
