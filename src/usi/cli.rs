//! The command-line tools besides the USI loop: `perft`, `bench`, `analyse`, `mate`. `main.rs` only
//! parses arguments; the text is built here so it matches what the USI loop prints for the same work.

use crate::core::attacks;
use crate::core::movegen;
use crate::core::position::{MoveError, Position, PositionError};
use crate::core::Variant;
use crate::mate::problem_file::{self, ProblemFileError, ProblemReport};
use crate::mate::{MateLimits, MateResult, MateSolver};
use crate::search::{self, Evaluation, Limits, Pool, SearchEvent};
use crate::usi::engine::search_config;
use crate::usi::evaluation::{EvalLoader, Notice};
use crate::usi::mate::format_checkmate;
use crate::usi::options::{OptionId, Options};
use crate::usi::output;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
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
    #[error("{0}")]
    ProblemFile(#[from] ProblemFileError),
    #[error("output: {0}")]
    Io(#[from] io::Error),
    #[error("{0}")]
    Evaluation(String),
}

/// The evaluation a tool runs: a network file, the built-in network (the default), or the
/// hand-written evaluation.
#[derive(Clone, Debug, Default)]
pub struct EvalArgs {
    /// A network in YaneuraOu's layout (`nn.bin`).
    pub evalfile: Option<PathBuf>,
    /// The network's output is divided by this (default 16).
    pub fv_scale: Option<i32>,
    /// The hand-written evaluation (`UseNNUE false`).
    pub hand_written: bool,
}

impl EvalArgs {
    /// The evaluation these arguments ask for, loaded as the USI loop loads it. Warnings go to
    /// `warn`; a file that cannot be used is an error (a one-shot command must not quietly run
    /// with another evaluation).
    pub fn load(&self, variant: Variant, warn: &mut dyn Write) -> Result<Evaluation, CliError> {
        let mut options = Options::for_this_machine();
        if let Some(path) = &self.evalfile {
            let text = path.to_str().ok_or_else(|| {
                CliError::Evaluation(format!("{}: not a UTF-8 path", path.display()))
            })?;
            options.set(OptionId::EvalFile.name(), Some(text))?;
        }
        if let Some(scale) = self.fv_scale {
            options.set(OptionId::FvScale.name(), Some(&scale.to_string()))?;
        }
        if self.hand_written {
            options.set(OptionId::UseNnue.name(), Some("false"))?;
        }
        let mut loader = EvalLoader::new();
        for notice in loader.prepare(&options, variant) {
            match notice {
                Notice::Info(_) => {}
                Notice::Warning(text) => writeln!(warn, "tokin: warning: {text}")?,
                Notice::Error(text) => return Err(CliError::Evaluation(text)),
            }
        }
        if self.evalfile.is_some() && variant != Variant::Shogi {
            return Err(CliError::Evaluation(format!(
                "{variant} has no network: --evalfile is for standard shogi"
            )));
        }
        Ok(loader.current().clone())
    }
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
    let divide = movegen::perft_divide_until(&pos, depth, threads.max(1), &|| false);
    let elapsed = start.elapsed();
    for line in output::perft_lines(&divide) {
        writeln!(out, "{line}")?;
    }
    let nodes = divide.nodes();
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
pub fn bench(out: &mut dyn Write, depth: u32, eval: &EvalArgs) -> Result<(), CliError> {
    attacks::init();
    let evaluation = eval.load(Variant::Shogi, &mut io::stderr())?;
    let report = search::bench_with(depth, evaluation);
    for line in output::bench_lines(&report) {
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
    pub eval: EvalArgs,
}

/// `tokin analyse`: searches one position, printing the `info` lines and the `bestmove` line exactly
/// as the USI loop would.
pub fn analyse(out: &mut dyn Write, args: &AnalyseArgs) -> Result<(), CliError> {
    let pos = build_position(args.sfen.as_deref(), &args.moves, args.variant)?;
    let evaluation = args.eval.load(args.variant, &mut io::stderr())?;
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
    pool.start(pos, limits, search_config(&options, evaluation), sink);
    for event in rx.iter() {
        writeln!(out, "{}", output::format_event(&event))?;
        if matches!(event, SearchEvent::BestMove(_)) {
            break;
        }
    }
    pool.wait();
    Ok(())
}

/// Time per problem `tokin mate` allows when none is given.
pub const MATE_DEFAULT_TIME_MS: u64 = 10_000;

/// Where `tokin mate` takes its problems from.
#[derive(Clone, Debug)]
pub enum MateInput {
    /// One position.
    Sfen(String),
    /// A file of SFENs, one per line (see [`crate::mate::problem_file`]).
    File(PathBuf),
}

/// What `tokin mate` solves.
#[derive(Clone, Debug)]
pub struct MateArgs {
    pub input: MateInput,
    /// Milliseconds per problem; `None` means no limit.
    pub time_ms: Option<u64>,
    pub hash_mb: usize,
    pub variant: Variant,
}

/// `tokin mate`: a single position prints its `checkmate ...` line exactly as `go mate` would,
/// then the mate length (when mated) and nodes, time and speed; a file prints one line per problem
/// and a summary.
pub fn mate(out: &mut dyn Write, args: &MateArgs) -> Result<(), CliError> {
    attacks::init();
    let limits = MateLimits {
        time_ms: args.time_ms,
        nodes: None,
    };
    // Nobody raises it: the command line has no `stop`; the time limit (or Ctrl-C) ends a solve.
    let stop = AtomicBool::new(false);
    match &args.input {
        MateInput::Sfen(sfen) => {
            let pos = build_position(Some(sfen), &[], args.variant)?;
            let mut solver = MateSolver::new(args.hash_mb);
            let start = Instant::now();
            let result = solver.solve(&pos, limits, &stop, &mut |_| {});
            let time_ms = start.elapsed().as_millis() as u64;
            writeln!(out, "{}", format_checkmate(&result))?;
            if let MateResult::Mate(line) = &result {
                writeln!(out, "Mate length (plies): {}", line.len())?;
            }
            let nodes = solver.last_nodes();
            writeln!(out, "Nodes searched: {nodes}")?;
            writeln!(out, "Time (ms): {time_ms}")?;
            writeln!(out, "Nodes/second: {}", nps(nodes, time_ms))?;
        }
        MateInput::File(path) => {
            let problems = problem_file::read_problems(path, args.variant)?;
            let mut solver = MateSolver::new(args.hash_mb);
            // Report lines go out as each problem is done; a write error is kept and returned
            // after the run (the solver's callback cannot return it).
            let mut write_error = None;
            let reports =
                problem_file::solve_problems(&mut solver, &problems, limits, &stop, &mut |r| {
                    if write_error.is_none() {
                        if let Err(e) = writeln!(out, "{}", format_problem_report(r)) {
                            write_error = Some(e);
                        }
                    }
                });
            if let Some(e) = write_error {
                return Err(e.into());
            }
            writeln!(out, "{}", MateSummary::of(&reports))?;
        }
    }
    Ok(())
}

fn nps(nodes: u64, time_ms: u64) -> u64 {
    nodes.saturating_mul(1000) / time_ms.max(1)
}

/// One problem of a file, e.g. `line 3: mate 11 plies, 103 ms, 34190 nodes: G*3b 4a3b ...`,
/// `line 4: nomate, 20 ms, 812 nodes`, `line 5: timeout, 10000 ms, 3600000 nodes`,
/// `line 6: error: bad SFEN ...`.
pub fn format_problem_report(r: &ProblemReport) -> String {
    let stats = format!("{} ms, {} nodes", r.time_ms, r.nodes);
    match (&r.result, &r.error) {
        (Some(MateResult::Mate(line)), _) if !line.is_empty() => {
            let moves: Vec<String> = line.iter().map(|m| m.to_usi()).collect();
            format!(
                "line {}: mate {} plies, {stats}: {}",
                r.line,
                line.len(),
                moves.join(" ")
            )
        }
        (Some(MateResult::NoMate), _) => format!("line {}: nomate, {stats}", r.line),
        (Some(_), _) => format!("line {}: timeout, {stats}", r.line),
        (None, Some(e)) => format!("line {}: error: bad SFEN: {e}", r.line),
        (None, None) => format!("line {}: error: not solved", r.line),
    }
}

/// The totals of a problem file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateSummary {
    pub problems: usize,
    /// Mates found.
    pub solved: usize,
    pub nomate: usize,
    pub timeout: usize,
    pub errors: usize,
    pub nodes: u64,
    pub time_ms: u64,
}

impl MateSummary {
    pub fn of(reports: &[ProblemReport]) -> MateSummary {
        let mut s = MateSummary {
            problems: reports.len(),
            ..MateSummary::default()
        };
        for r in reports {
            match (&r.result, r.mate_length()) {
                (_, Some(n)) if n > 0 => s.solved += 1,
                (Some(MateResult::NoMate), _) => s.nomate += 1,
                (Some(_), _) => s.timeout += 1,
                (None, _) => s.errors += 1,
            }
            s.nodes += r.nodes;
            s.time_ms += r.time_ms;
        }
        s
    }
}

/// `solved 9/11 (nomate 1, timeout 1, errors 0), total 6200 ms, 2240000 nodes, 361290 nps`.
impl std::fmt::Display for MateSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "solved {}/{} (nomate {}, timeout {}, errors {}), total {} ms, {} nodes, {} nps",
            self.solved,
            self.problems,
            self.nomate,
            self.timeout,
            self.errors,
            self.time_ms,
            self.nodes,
            nps(self.nodes, self.time_ms)
        )
    }
}
