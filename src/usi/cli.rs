//! The command-line tools besides the USI loop: `perft`, `bench`, `analyse`. `main.rs` only parses
//! arguments; the text is built here so it matches what the USI loop prints for the same work.

use crate::core::attacks;
use crate::core::movegen;
use crate::core::position::{MoveError, Position, PositionError};
use crate::core::Variant;
use crate::search::{self, Limits, Pool, SearchEvent};
use crate::usi::engine::search_config;
use crate::usi::options::{OptionId, Options};
use crate::usi::output;
use std::io::{self, Write};
use std::sync::{mpsc, Arc};
use std::time::Instant;

/// Search time `analyse` uses when no limit is given.
pub const ANALYSE_DEFAULT_MOVETIME_MS: i64 = 3000;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("bad SFEN: {0}")]
    Sfen(#[from] PositionError),
    #[error("move {ply} ('{text}'): {source}")]
    Move {
        ply: usize,
        text: String,
        source: MoveError,
    },
    #[error("option {0}")]
    Option(#[from] crate::usi::options::OptionError),
    #[error("output: {0}")]
    Io(#[from] io::Error),
}

/// Builds the position `sfen` (or the variant's start) followed by `moves`.
pub fn build_position(
    sfen: Option<&str>,
    moves: &[String],
    variant: Variant,
) -> Result<Position, CliError> {
    attacks::init();
    let mut pos = match sfen {
        Some(s) => Position::from_sfen(s, variant)?,
        None => Position::startpos(variant),
    };
    for (i, text) in moves.iter().enumerate() {
        let m = pos.parse_usi_move(text).map_err(|source| CliError::Move {
            ply: i + 1,
            text: text.clone(),
            source,
        })?;
        pos.do_move(m);
    }
    Ok(pos)
}

/// `tokin perft`: per-move counts, an empty line, `Nodes searched: N`, then time and speed.
pub fn perft(
    out: &mut dyn Write,
    depth: u32,
    sfen: Option<&str>,
    variant: Variant,
    threads: usize,
) -> Result<(), CliError> {
    let pos = build_position(sfen, &[], variant)?;
    let start = Instant::now();
    let divide = movegen::perft_divide(&pos, depth, threads.max(1));
    let elapsed = start.elapsed();
    for line in output::perft_lines(&divide) {
        writeln!(out, "{line}")?;
    }
    let nodes: u64 = divide.iter().map(|&(_, n)| n).sum();
    let ms = elapsed.as_millis();
    writeln!(out, "Time (ms): {ms}")?;
    writeln!(
        out,
        "Nodes/second: {}",
        (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64
    )?;
    Ok(())
}

/// `tokin bench`: the fixed benchmark; `Nodes searched` and `Nodes/second` are the last two lines.
pub fn bench(out: &mut dyn Write, depth: u32) -> Result<(), CliError> {
    attacks::init();
    let report = search::bench(depth);
    for line in output::bench_lines(report.nodes, report.time_ms, report.nps) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// What `tokin analyse` searches.
#[derive(Clone, Debug, Default)]
pub struct AnalyseArgs {
    pub sfen: Option<String>,
    pub moves: Vec<String>,
    pub depth: Option<u32>,
    pub movetime: Option<i64>,
    pub nodes: Option<u64>,
    pub multipv: Option<u32>,
    pub threads: Option<usize>,
    pub variant: Variant,
}

/// `tokin analyse`: searches one position, printing the `info` lines and the `bestmove` line exactly
/// as the USI loop would.
pub fn analyse(out: &mut dyn Write, args: &AnalyseArgs) -> Result<(), CliError> {
    let pos = build_position(args.sfen.as_deref(), &args.moves, args.variant)?;
    let mut options = Options::for_this_machine();
    if let Some(k) = args.multipv {
        options.set(OptionId::MultiPv.name(), Some(&k.to_string()))?;
    }
    if let Some(t) = args.threads {
        options.set(OptionId::Threads.name(), Some(&t.to_string()))?;
    }
    let mut limits = Limits {
        depth: args.depth,
        movetime: args.movetime,
        nodes: args.nodes,
        ..Limits::default()
    };
    if limits.is_unbounded() {
        limits.movetime = Some(ANALYSE_DEFAULT_MOVETIME_MS);
    }
    let mut pool = Pool::new();
    pool.resize_hash(options.spin(OptionId::UsiHash) as usize);
    let (tx, rx) = mpsc::channel::<SearchEvent>();
    // The receiver lives until the answer came; a send after that has nobody to tell.
    let sink = Arc::new(move |event: SearchEvent| {
        let _ = tx.send(event);
    });
    pool.start(pos, limits, search_config(&options), sink);
    for event in rx.iter() {
        writeln!(out, "{}", output::format_event(&event))?;
        if matches!(event, SearchEvent::BestMove(_)) {
            break;
        }
    }
    pool.wait();
    Ok(())
}
