//! Mate problems from a text file, one SFEN per line, for the CLI's file mode.
//!
//! Blank lines and lines starting with `#` are skipped. A line may be a bare SFEN or start with
//! `sfen `. Each problem is solved in turn and reported as a [`ProblemReport`]; the caller prints.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{MateLimits, MateResult, MateSolver};
use crate::core::{Position, PositionError, Variant};

/// Why a problem file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ProblemFileError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// One problem as read from the file.
#[derive(Clone, Debug)]
pub struct Problem {
    /// 1-based line number in the file.
    pub line: usize,
    pub sfen: String,
    /// The position, or why the line is not one.
    pub position: Result<Position, PositionError>,
}

/// What solving one problem gave.
#[derive(Clone, Debug)]
pub struct ProblemReport {
    pub line: usize,
    pub sfen: String,
    /// `None` when the line is not a valid position.
    pub result: Option<MateResult>,
    pub error: Option<PositionError>,
    pub nodes: u64,
    pub time_ms: u64,
}

impl ProblemReport {
    /// Mate length in plies when solved.
    pub fn mate_length(&self) -> Option<usize> {
        match &self.result {
            Some(MateResult::Mate(pv)) => Some(pv.len()),
            _ => None,
        }
    }
}

/// Parses the text of a problem file.
pub fn parse_problems(text: &str, variant: Variant) -> Vec<Problem> {
    text.lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                return None;
            }
            let sfen = line
                .strip_prefix("sfen ")
                .unwrap_or(line)
                .trim()
                .to_string();
            let position = Position::from_sfen(&sfen, variant);
            Some(Problem {
                line: i + 1,
                sfen,
                position,
            })
        })
        .collect()
}

/// Reads a problem file.
pub fn read_problems(path: &Path, variant: Variant) -> Result<Vec<Problem>, ProblemFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| ProblemFileError::Io {
        path: path.display().to_string(),
        source,
    })?;
    Ok(parse_problems(&text, variant))
}

/// Solves every problem with the same limits per problem, calling `report` after each one.
pub fn solve_problems(
    solver: &mut MateSolver,
    problems: &[Problem],
    limits: MateLimits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&ProblemReport),
) -> Vec<ProblemReport> {
    let mut out = Vec::with_capacity(problems.len());
    for problem in problems {
        let start = Instant::now();
        let (result, error, nodes) = match &problem.position {
            Ok(pos) => {
                let result = solver.solve(pos, limits, stop, &mut |_| {});
                (Some(result), None, solver.last_nodes())
            }
            Err(e) => (None, Some(e.clone()), 0),
        };
        let r = ProblemReport {
            line: problem.line,
            sfen: problem.sfen.clone(),
            result,
            error,
            nodes,
            time_ms: start.elapsed().as_millis() as u64,
        };
        report(&r);
        out.push(r);
    }
    out
}
