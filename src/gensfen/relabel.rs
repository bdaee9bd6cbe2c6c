//! `tokin relabel`: the records of `PackedSfenValue` files searched again and their score and move
//! replaced, everything else kept (the position's bytes, the game ply, the game's result).
//!
//! Self-play is the expensive part of training data, and a record's score is only as good as the
//! search that made it: `gensfen` at a few thousand nodes a move plays fast games, and relabelling
//! its positions at a deeper limit (or with a stronger network) gives them a better teacher
//! without replaying a game. It is YaneuraOu's `gensfen` → `learn` loop with the labelling step on
//! its own, as the field does with re-scored public data.
//!
//! Records go out in the order they came in, one for each good input record. Work is split into
//! batches of [`BATCH`] consecutive records (one game's positions share table entries); each
//! batch starts from an empty table and empty histories, so the output does not depend on the
//! number of threads, and a run resumes exactly: appending to the output keeps its whole batches
//! (a killed run may leave part of one, which is cut off and searched again, since its records
//! were searched after the batch's first ones) and skips as many good input records.

use super::game::SelfPlay;
use super::{ConfigError, GensfenConfig, SearchSettings};
use crate::psv::{
    is_mate_score, to_move16, PackedRecord, PsvReader, PsvWriter, ReadError, TrainingRecord,
    WriteError,
};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// Records a worker takes at a time.
pub const BATCH: usize = 64;

/// Everything a relabelling run is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelabelConfig {
    pub search: SearchSettings,
    /// Batches searched at once, one search thread each.
    pub threads: usize,
    /// Table size of each thread's search, MB.
    pub hash_mb: usize,
}

impl RelabelConfig {
    /// The ranges of `gensfen`'s settings of the same names.
    pub fn validate(&self) -> Result<(), ConfigError> {
        GensfenConfig {
            search: self.search.clone(),
            threads: self.threads,
            hash_mb: self.hash_mb,
            ..GensfenConfig::default()
        }
        .validate()
    }
}

/// Where a run stands, after each batch written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelabelProgress {
    /// Records in the output now.
    pub records: u64,
    /// Records written by this run.
    pub written: u64,
    pub elapsed: Duration,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RelabelReport {
    /// Records in the output at the start, after cutting off an unfinished batch (that many good
    /// input records were skipped), and at the end.
    pub records_before: u64,
    pub records_after: u64,
    /// Records of an unfinished batch that were in the output, cut off and searched again.
    pub redone: u64,
    pub changes: Changes,
    pub elapsed: Duration,
}

/// What the new searches changed, over the records written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Records whose best move changed.
    pub moves: u64,
    /// Records whose new score is a mate score.
    pub mates: u64,
    /// Sum of |new score - old score| over the records where neither is a mate score, and how
    /// many those are (a mate score against a centipawn one is no distance worth averaging).
    pub score_change: u64,
    pub scores_compared: u64,
    /// Records whose position had no move to search (a declaration's win): score replaced, move
    /// kept.
    pub no_move: u64,
    pub nodes: u64,
}

impl Changes {
    fn add(&mut self, other: &Changes) {
        self.moves += other.moves;
        self.mates += other.mates;
        self.score_change += other.score_change;
        self.scores_compared += other.scores_compared;
        self.no_move += other.no_move;
        self.nodes += other.nodes;
    }
}

impl RelabelReport {
    pub fn written(&self) -> u64 {
        self.records_after - self.records_before
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RelabelError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// One batch searched: its records as written, with what changed.
struct Relabelled {
    records: Vec<PackedRecord>,
    changes: Changes,
}

/// Searches each record of `batch` and replaces its score and move.
fn relabel_batch(
    engine: &mut SelfPlay,
    settings: &SearchSettings,
    batch: &[(PackedRecord, TrainingRecord)],
    stop: &AtomicBool,
) -> Option<Relabelled> {
    engine.clear();
    let mut out = Relabelled {
        records: Vec::with_capacity(batch.len()),
        changes: Changes::default(),
    };
    let c = &mut out.changes;
    for (raw, record) in batch {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let answer = engine.search(settings, &record.position, 1);
        c.nodes += answer.nodes;
        // Within the i16 range by `score_to_record`.
        let score = answer.score as i16;
        if is_mate_score(score) {
            c.mates += 1;
        } else if !is_mate_score(record.score) {
            c.score_change +=
                u64::from((i32::from(score) - i32::from(record.score)).unsigned_abs());
            c.scores_compared += 1;
        }
        let move16 = match answer.best {
            Some(best) => {
                c.moves += u64::from(best != record.best_move);
                to_move16(best)
            }
            None => {
                c.no_move += 1;
                raw.move16()
            }
        };
        out.records.push(PackedRecord::from_fields(
            raw.packed_sfen(),
            score,
            move16,
            raw.game_ply(),
            record.result,
        ));
    }
    Some(out)
}

/// Reads `reader` to its end, skipping as many good records as `writer` already holds, and writes
/// each good record searched again. `on_read_error` hears of every bad record and unreadable file
/// (they are dropped; the caller decides whether that ends the run). On a write error the output
/// keeps every whole record written before it.
pub fn run(
    config: &RelabelConfig,
    reader: &mut PsvReader,
    writer: &mut PsvWriter,
    on_read_error: &mut dyn FnMut(&ReadError),
    progress: &mut dyn FnMut(&RelabelProgress),
) -> Result<RelabelReport, RelabelError> {
    config.validate()?;
    crate::core::attacks::init();
    let started = Instant::now();
    // The batches already written whole; the rest of an unfinished one is searched again.
    let whole = writer.records() / BATCH as u64 * BATCH as u64;
    let redone = writer.records() - whole;
    writer.truncate_to(whole)?;
    let records_before = whole;
    let mut report = RelabelReport {
        redone,
        records_before,
        records_after: records_before,
        ..RelabelReport::default()
    };
    let mut to_skip = records_before;
    // The next batch of good records not yet written; `None` once the input is done.
    let mut next_batch = || -> Option<Vec<(PackedRecord, TrainingRecord)>> {
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            match reader.next_checked() {
                None => break,
                Some(Ok(_)) if to_skip > 0 => to_skip -= 1,
                Some(Ok(pair)) => batch.push(pair),
                Some(Err(e)) => on_read_error(&e),
            }
        }
        (!batch.is_empty()).then_some(batch)
    };

    let stop = AtomicBool::new(false);
    let (work_tx, work_rx) = mpsc::channel::<(u64, Vec<(PackedRecord, TrainingRecord)>)>();
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<(u64, Relabelled)>();
    let result = std::thread::scope(|scope| {
        for _ in 0..config.threads {
            let done_tx = done_tx.clone();
            let (stop, work_rx) = (&stop, &work_rx);
            scope.spawn(move || {
                let mut engine = SelfPlay::new(config.hash_mb);
                loop {
                    let job = work_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok((index, batch)) = job else {
                        return;
                    };
                    let Some(done) = relabel_batch(&mut engine, &config.search, &batch, stop)
                    else {
                        return;
                    };
                    if done_tx.send((index, done)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);

        // Two batches in flight per thread keep every thread busy while the writer waits for the
        // oldest; batches that finish early wait in `ready` for their turn.
        let in_flight_max = config.threads * 2;
        let (mut sent, mut written) = (0u64, 0u64);
        let mut input_done = false;
        let mut ready: BTreeMap<u64, Relabelled> = BTreeMap::new();
        let outcome: Result<(), RelabelError> = 'run: loop {
            while !input_done && sent - written < in_flight_max as u64 {
                match next_batch() {
                    Some(batch) => {
                        // The workers live until `work_tx` is dropped.
                        let _ = work_tx.send((sent, batch));
                        sent += 1;
                    }
                    None => input_done = true,
                }
            }
            if written == sent {
                break Ok(());
            }
            // Workers leave early only on `stop`, set below; a panic in one ends the scope.
            let Ok((index, done)) = done_rx.recv() else {
                break Ok(());
            };
            ready.insert(index, done);
            while let Some(done) = ready.remove(&written) {
                if let Err(e) = writer.write(&done.records) {
                    break 'run Err(e.into());
                }
                report.changes.add(&done.changes);
                written += 1;
                progress(&RelabelProgress {
                    records: writer.records(),
                    written: writer.records() - records_before,
                    elapsed: started.elapsed(),
                });
            }
        };
        stop.store(true, Ordering::Relaxed);
        drop(work_tx);
        outcome
    });
    report.records_after = writer.records();
    report.elapsed = started.elapsed();
    result.map(|()| report)
}
