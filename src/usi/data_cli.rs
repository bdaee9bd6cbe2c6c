//! The training-data tools: `tokin gensfen` (self-play into `PackedSfenValue` files),
//! `tokin relabel` (their records searched again), `tokin sfeninfo` (what a set of such files
//! holds) and `tokin shuffle` (files in random order, with a held-out part, for trainers that read
//! in order). The work is in `crate::gensfen` and
//! `crate::psv`; this module turns options into a run, draws the progress line on stderr and
//! writes the summaries.

use crate::core::Variant;
use crate::gensfen::openings::{self, OpeningsError};
use crate::gensfen::relabel::{self, RelabelConfig, RelabelError, RelabelReport, BATCH};
use crate::gensfen::{self, GensfenConfig, GensfenError, GensfenReport, Progress};
use crate::psv::shuffle::{split_and_shuffle, SPLIT_BLOCK};
use crate::psv::{
    DataSummary, OpenMode, PackedRecord, PsvReader, PsvWriter, ReadError, WriteError, RECORD_BYTES,
};
use crate::usi::cli::{CliError, EvalArgs};
use crate::usi::progress;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum DataCliError {
    #[error("{0}")]
    Openings(#[from] OpeningsError),
    #[error("{0}")]
    Evaluation(#[from] CliError),
    #[error("{0}{hint}", hint = exists_hint(.0))]
    Open(WriteError),
    #[error("{0}")]
    Gensfen(#[from] GensfenError),
    #[error("{0}")]
    Relabel(#[from] RelabelError),
    #[error("{0}")]
    Read(#[from] ReadError),
    #[error("{files} of the files could not be read")]
    Unreadable { files: usize },
    #[error("{0}")]
    Options(String),
    #[error("{0}{hint}", hint = if matches!(.0, WriteError::Exists { .. }) { " (--overwrite replaces it)" } else { "" })]
    Write(WriteError),
    #[error("output: {0}")]
    Io(#[from] io::Error),
}

fn exists_hint(e: &WriteError) -> &'static str {
    match e {
        WriteError::Exists { .. } => " (--append adds to it, --overwrite replaces it)",
        _ => "",
    }
}

/// What `tokin gensfen` was asked for.
#[derive(Clone, Debug)]
pub struct GensfenArgs {
    pub output: PathBuf,
    pub mode: OpenMode,
    /// `None`: the openings built in (scripts/openings.sfen).
    pub openings: Option<PathBuf>,
    /// The evaluation both sides play with; it replaces `config.search.evaluation`.
    pub eval: EvalArgs,
    pub config: GensfenConfig,
}

/// `tokin gensfen`: plays the games, writes the records, prints a summary on `out`.
pub fn gensfen(out: &mut dyn Write, args: &GensfenArgs) -> Result<(), DataCliError> {
    args.config.validate().map_err(GensfenError::from)?;
    let openings = match &args.openings {
        Some(path) => openings::read_openings(path)?,
        None => openings::parse_openings(openings::BUILT_IN, "built-in openings")?,
    };
    let mut config = args.config.clone();
    config.search.evaluation = args.eval.load(Variant::Shogi, &mut io::stderr())?;
    let mut writer = open_output("gensfen", &args.output, args.mode)?;
    let mut line = ProgressLine::new(&config, writer.records());
    let result = gensfen::run(&config, &openings, &mut writer, &mut |p| line.update(p));
    line.finish();
    let report = result?;
    let kept = writer.finish().map_err(GensfenError::from)?;
    write_gensfen_report(out, &args.output, &config, &report, kept)?;
    Ok(())
}

/// Opens a tool's output; a torn last record (a killed run's) is cut off and said so on stderr.
fn open_output(tool: &str, path: &Path, mode: OpenMode) -> Result<PsvWriter, DataCliError> {
    let writer = PsvWriter::open(path, mode).map_err(DataCliError::Open)?;
    if writer.trimmed_bytes() > 0 {
        eprintln!(
            "{tool}: {} ended in {} bytes of a partial record (a killed run); cut off",
            path.display(),
            writer.trimmed_bytes()
        );
    }
    Ok(writer)
}

/// Whole records in the files, by their sizes (for a progress line; unreadable files count 0).
fn records_in(files: &[PathBuf]) -> u64 {
    let bytes: u64 = files
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    bytes / RECORD_BYTES as u64
}

/// gensfen's progress: records written, with the rate per thread and the games played.
struct ProgressLine {
    line: progress::ProgressLine,
    threads: usize,
}

impl ProgressLine {
    fn new(config: &GensfenConfig, records: u64) -> ProgressLine {
        ProgressLine {
            line: progress::ProgressLine::new("gensfen", "records", config.count, records),
            threads: config.threads,
        }
    }

    fn update(&mut self, p: &Progress) {
        let rate = p.written as f64 / p.elapsed.as_secs_f64().max(1e-3);
        let msg = format!(
            "{:.0} records/s ({:.0} a thread), games done: {}",
            rate,
            rate / self.threads as f64,
            p.games
        );
        self.line.update(p.records, msg);
    }

    fn finish(&self) {
        self.line.finish();
    }
}

fn percent(part: u64, whole: u64) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

fn write_gensfen_report(
    out: &mut dyn Write,
    path: &Path,
    config: &GensfenConfig,
    r: &GensfenReport,
    kept: u64,
) -> io::Result<()> {
    let secs = r.elapsed.as_secs_f64().max(1e-3);
    let rate = r.written() as f64 / secs;
    writeln!(
        out,
        "wrote {} records to {} (it holds {kept}) from {} games in {:.1} s: {:.0} records/s, {:.0} a thread",
        r.written(),
        path.display(),
        r.games,
        secs,
        rate,
        rate / config.threads as f64
    )?;
    let e = &r.ends;
    writeln!(
        out,
        "games: Black won {}, White won {}, drawn {} (checkmate {}, declaration {}, perpetual check {}, repetition {}, {} plies {}, other {})",
        e.black_wins, e.white_wins, e.draws, e.checkmate, e.declaration, e.perpetual_check,
        e.repetition, config.search.max_plies, e.max_plies, e.other
    )?;
    writeln!(
        out,
        "plies {} ({:.1} a game), {} searches of {:.0} nodes on average, {:.0} nodes/s a thread",
        r.plies,
        r.plies as f64 / r.games.max(1) as f64,
        r.searches,
        r.nodes as f64 / r.searches.max(1) as f64,
        r.nodes as f64 / secs / config.threads as f64
    )?;
    let s = &r.skipped;
    writeln!(
        out,
        "not written: {} (before ply {} {}, in check {}, capture or promotion {}, |score| > {} {}, before a random move {})",
        s.total(),
        config.filter.min_ply,
        s.early,
        s.in_check,
        s.noisy,
        config.filter.eval_limit,
        s.score,
        s.before_random
    )?;
    Ok(())
}

/// What `tokin relabel` was asked for.
#[derive(Clone, Debug)]
pub struct RelabelArgs {
    pub files: Vec<PathBuf>,
    pub output: PathBuf,
    pub mode: OpenMode,
    /// The evaluation the searches run; it replaces `config.search.evaluation`.
    pub eval: EvalArgs,
    pub config: RelabelConfig,
    /// Bad records to describe one by one (the rest are counted).
    pub show_errors: usize,
}

/// `tokin relabel`: searches every good record of the files again and writes it with the new
/// score and move; prints a summary on `out`. Every input must open before the output is touched:
/// a file missing from the middle of the list would shift the records after it, and `--append`
/// resumes by counting records. A file that fails while being read is reported and the run ends
/// with an error once the rest is done.
pub fn relabel(out: &mut dyn Write, args: &RelabelArgs) -> Result<(), DataCliError> {
    args.config.validate().map_err(RelabelError::from)?;
    if let Some(input) = args.files.iter().find(|p| same_file(p, &args.output)) {
        return Err(DataCliError::Options(format!(
            "{} is both an input and the output",
            input.display()
        )));
    }
    for path in &args.files {
        if let Err(e) = std::fs::File::open(path) {
            return Err(DataCliError::Options(format!(
                "cannot open {}: {e}",
                path.display()
            )));
        }
    }
    let mut config = args.config.clone();
    config.search.evaluation = args.eval.load(Variant::Shogi, &mut io::stderr())?;
    let mut writer = open_output("relabel", &args.output, args.mode)?;
    let mut line = progress::ProgressLine::new(
        "relabel",
        "records",
        records_in(&args.files),
        writer.records(),
    );
    let mut reader = PsvReader::new(&args.files);
    // Said after the run, with the summary (the progress line holds stderr meanwhile).
    let mut read_errors: Vec<String> = Vec::new();
    let mut shown = 0;
    let mut note_error = |e: &ReadError| {
        if !matches!(e, ReadError::BadRecord { .. }) {
            read_errors.push(format!("error: {e}"));
        } else if shown < args.show_errors {
            shown += 1;
            read_errors.push(format!("bad record (dropped): {e}"));
        }
    };
    let threads = config.threads as f64;
    let result = relabel::run(
        &config,
        &mut reader,
        &mut writer,
        &mut note_error,
        &mut |p| {
            let rate = p.written as f64 / p.elapsed.as_secs_f64().max(1e-3);
            line.update(
                p.records,
                format!("{rate:.0} records/s ({:.0} a thread)", rate / threads),
            );
        },
    );
    line.finish();
    for text in &read_errors {
        writeln!(out, "{text}")?;
    }
    let report = result?;
    let kept = writer.finish().map_err(RelabelError::from)?;
    let counts = reader.counts().clone();
    write_relabel_report(out, args, &config, &report, &counts, kept)?;
    if counts.unreadable_files > 0 {
        return Err(DataCliError::Unreadable {
            files: counts.unreadable_files,
        });
    }
    Ok(())
}

fn write_relabel_report(
    out: &mut dyn Write,
    args: &RelabelArgs,
    config: &RelabelConfig,
    r: &RelabelReport,
    counts: &crate::psv::ReadCounts,
    kept: u64,
) -> io::Result<()> {
    let secs = r.elapsed.as_secs_f64().max(1e-3);
    let rate = r.written() as f64 / secs;
    let c = &r.changes;
    writeln!(
        out,
        "relabelled {} records into {} (it holds {kept}) in {:.1} s: {:.0} records/s, {:.0} a thread, {:.0} nodes a record",
        r.written(),
        args.output.display(),
        secs,
        rate,
        rate / config.threads as f64,
        c.nodes as f64 / r.written().max(1) as f64
    )?;
    writeln!(
        out,
        "best move changed: {} ({}); mate scores now {}; mean |score change| {:.1} over the {} records without one; no move to search {}",
        c.moves,
        percent(c.moves, r.written()),
        c.mates,
        c.score_change as f64 / c.scores_compared.max(1) as f64,
        c.scores_compared,
        c.no_move
    )?;
    writeln!(
        out,
        "read {} records from {} files ({} bad, dropped; {} ending in a partial record; {} unreadable); {} already in the output, skipped{}",
        counts.records,
        counts.files,
        counts.bad(),
        counts.truncated_files,
        counts.unreadable_files,
        r.records_before,
        if r.redone > 0 {
            format!(
                " ({} more of an unfinished batch of {BATCH} cut off and searched again)",
                r.redone
            )
        } else {
            String::new()
        }
    )?;
    Ok(())
}

/// Whether two paths name one file (by their canonical forms when both exist).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// What `tokin sfeninfo` reads.
#[derive(Clone, Debug)]
pub struct SfenInfoArgs {
    pub files: Vec<PathBuf>,
    pub score_bucket: i32,
    pub score_clamp: i32,
    pub ply_bucket: u32,
    /// Bad records to describe one by one (the rest are counted).
    pub show_errors: usize,
}

/// `tokin sfeninfo`: reads every record of the files and prints counts and histograms.
pub fn sfeninfo(out: &mut dyn Write, args: &SfenInfoArgs) -> Result<(), DataCliError> {
    let mut reader = PsvReader::new(&args.files);
    let mut summary = DataSummary::new(args.score_bucket, args.score_clamp, args.ply_bucket);
    let mut shown = 0;
    for item in reader.by_ref() {
        match item {
            Ok(record) => summary.add(&record),
            Err(e @ ReadError::BadRecord { .. }) => {
                if shown < args.show_errors {
                    writeln!(out, "bad record: {e}")?;
                    shown += 1;
                }
            }
            Err(e) => writeln!(out, "error: {e}")?,
        }
    }
    let c = reader.counts();
    writeln!(
        out,
        "files: {} read, {} unreadable, {} ending in a partial record ({} bytes)",
        c.files, c.unreadable_files, c.truncated_files, c.trailing_bytes
    )?;
    writeln!(
        out,
        "records: {} ({} bad: position {}, move {}, result {})",
        c.records,
        c.bad(),
        c.bad_position,
        c.bad_move,
        c.bad_result
    )?;
    write_summary(out, &summary)?;
    if c.unreadable_files > 0 {
        return Err(DataCliError::Unreadable {
            files: c.unreadable_files,
        });
    }
    Ok(())
}

fn write_summary(out: &mut dyn Write, s: &DataSummary) -> io::Result<()> {
    let n = s.records;
    if n == 0 {
        return writeln!(out, "no good records");
    }
    writeln!(
        out,
        "side to move: Black {}, White {}; in check {}",
        percent(s.black_to_move, n),
        percent(n - s.black_to_move, n),
        percent(s.in_check, n)
    )?;
    let r = &s.results;
    writeln!(
        out,
        "results for the side to move: win {}, draw {}, loss {}",
        percent(r.wins, n),
        percent(r.draws, n),
        percent(r.losses, n)
    )?;
    writeln!(
        out,
        "best moves: capture {}, promotion {}, drop {}",
        percent(s.captures, n),
        percent(s.promotions, n),
        percent(s.drops, n)
    )?;
    let (mean, dev) = s.score_mean_and_deviation();
    writeln!(
        out,
        "score: mean {mean:.1}, deviation {dev:.1}, min {}, max {}, mate scores {}",
        s.score_min, s.score_max, s.mate_scores
    )?;
    writeln!(
        out,
        "game ply: mean {:.1}, min {}, max {}",
        s.ply_mean(),
        s.ply_min,
        s.ply_max
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "{:<16} {:>10} {:>7} {:>7} {:>7} {:>7}  side to move's expected score",
        "score", "records", "share", "win", "draw", "loss"
    )?;
    let (w, limit) = (s.score_bucket, s.score_clamp / s.score_bucket);
    for (&b, counts) in &s.by_score {
        let label = if b >= limit {
            format!(">= {}", limit * w)
        } else if b < -limit {
            format!("< {}", -limit * w)
        } else {
            format!("[{}, {})", b * w, (b + 1) * w)
        };
        let t = counts.total();
        writeln!(
            out,
            "{label:<16} {t:>10} {:>7} {:>7} {:>7} {:>7}  {:.3} {}",
            percent(t, n),
            percent(counts.wins, t),
            percent(counts.draws, t),
            percent(counts.losses, t),
            counts.expected(),
            bar(t, n)
        )?;
    }
    writeln!(out)?;
    writeln!(out, "{:<16} {:>10} {:>7}", "game ply", "records", "share")?;
    for (&b, &count) in &s.by_ply {
        let label = format!("[{}, {})", b * s.ply_bucket, (b + 1) * s.ply_bucket);
        writeln!(
            out,
            "{label:<16} {count:>10} {:>7}  {}",
            percent(count, n),
            bar(count, n)
        )?;
    }
    Ok(())
}

/// An ASCII bar, 50 characters for the whole.
fn bar(part: u64, whole: u64) -> String {
    "#".repeat((50 * part / whole.max(1)) as usize)
}

/// What `tokin shuffle` was asked for.
#[derive(Clone, Debug)]
pub struct ShuffleArgs {
    pub files: Vec<PathBuf>,
    pub output: PathBuf,
    /// Where the held-out part goes; required when `validation` > 0.
    pub validation_output: Option<PathBuf>,
    /// Fraction held out, by blocks of whole games (`game_blocks`).
    pub validation: f64,
    pub seed: u64,
    /// `CreateNew`, or `Overwrite` when told.
    pub mode: OpenMode,
    /// Bad records to describe one by one (the rest are counted).
    pub show_errors: usize,
}

impl ShuffleArgs {
    fn validate(&self) -> Result<(), DataCliError> {
        let bad = |text: String| Err(DataCliError::Options(text));
        if !(0.0..0.9).contains(&self.validation) {
            return bad(format!(
                "--validation {} is not in [0, 0.9)",
                self.validation
            ));
        }
        match (&self.validation_output, self.validation > 0.0) {
            (None, true) => return bad("--validation needs --validation-output".into()),
            (Some(_), false) => return bad("--validation-output needs --validation".into()),
            _ => {}
        }
        // Reading everything first makes writing over an input possible, but a failed write
        // would then lose the data: refuse it.
        let outputs = std::iter::once(&self.output).chain(&self.validation_output);
        for out in outputs {
            if self.files.iter().any(|p| same_file(p, out)) {
                return bad(format!("{} is also an input", out.display()));
            }
        }
        if self.validation_output.as_ref() == Some(&self.output) {
            return bad("--output and --validation-output are the same file".into());
        }
        // Refused before the reading, not after it (and not after one output is written).
        if self.mode == OpenMode::CreateNew {
            let outputs = std::iter::once(&self.output).chain(&self.validation_output);
            for path in outputs {
                if let Ok(m) = std::fs::metadata(path) {
                    return Err(DataCliError::Write(WriteError::Exists {
                        path: path.clone(),
                        bytes: m.len(),
                    }));
                }
            }
        }
        Ok(())
    }
}

/// `tokin shuffle`: reads every good record of the files into memory (40 bytes each), holds out
/// the validation part, shuffles both parts and writes them. Bad records are dropped and
/// counted; an unreadable file stops the run before anything is written.
pub fn shuffle(out: &mut dyn Write, args: &ShuffleArgs) -> Result<(), DataCliError> {
    args.validate()?;
    let expected = records_in(&args.files);
    let mut line = progress::ProgressLine::new("shuffle", "records read", expected, 0);
    let mut reader = PsvReader::new(&args.files);
    let mut records: Vec<PackedRecord> = Vec::with_capacity(expected as usize);
    let mut shown = 0;
    while let Some(item) = reader.next_checked() {
        match item {
            Ok((raw, _)) => records.push(raw),
            Err(e @ ReadError::BadRecord { .. }) => {
                if shown < args.show_errors {
                    writeln!(out, "bad record (dropped): {e}")?;
                    shown += 1;
                }
            }
            Err(e) => writeln!(out, "error: {e}")?,
        }
        if reader.counts().records.is_multiple_of(1 << 20) {
            let bad = reader.counts().bad();
            line.update(reader.counts().records, format!("{bad} bad"));
        }
    }
    line.finish();
    let c = reader.counts().clone();
    if c.unreadable_files > 0 {
        return Err(DataCliError::Unreadable {
            files: c.unreadable_files,
        });
    }
    let (train, held) = split_and_shuffle(records, args.validation, args.seed);
    let kept = write_records(&args.output, args.mode, &train)?;
    let held_note = match &args.validation_output {
        Some(path) => {
            let n = write_records(path, args.mode, &held)?;
            format!(
                " and {n} to {} (validation, whole games in blocks of at least {SPLIT_BLOCK} records)",
                path.display()
            )
        }
        None => String::new(),
    };
    writeln!(
        out,
        "read {} records from {} files ({} bad, dropped; {} ending in a partial record); wrote {kept} to {}{held_note}, shuffled with seed {}",
        c.records, c.files, c.bad(), c.truncated_files, args.output.display(), args.seed
    )?;
    Ok(())
}

fn write_records(
    path: &Path,
    mode: OpenMode,
    records: &[PackedRecord],
) -> Result<u64, DataCliError> {
    let mut writer = PsvWriter::open(path, mode).map_err(DataCliError::Write)?;
    for chunk in records.chunks(1 << 16) {
        writer.write(chunk).map_err(DataCliError::Write)?;
    }
    writer.finish().map_err(DataCliError::Write)
}
