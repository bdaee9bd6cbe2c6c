//! `tokin learn`: trains a network from PackedSfenValue files and writes it in the file layout the
//! engine (and YaneuraOu, for the standard shape) loads. The work is in `crate::learn`; this module
//! reads the data, splits off the validation part, runs the epochs with a progress line, writes
//! checkpoints and the network, and reports.

use crate::eval::nnue::{self, Architecture, RawNetwork};
use crate::eval::{Evaluator, HandWritten};
use crate::learn::sample::sigmoid;
use crate::learn::train::cross_entropy;
use crate::learn::{Model, Progress, Sample, TrainConfig, TrainError, Trainer};
use crate::psv::shuffle::split_by_games;
use crate::psv::PsvReader;
use crate::usi::progress::{format_duration, ProgressLine};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    #[error("{0}")]
    Train(#[from] TrainError),
    #[error("{0}")]
    Options(String),
    #[error("no training samples in the data ({0})")]
    NoData(String),
    #[error("no samples in the validation data ({0})")]
    NoValidationData(String),
    #[error("{path}: {source}")]
    Write { path: String, source: io::Error },
    #[error("--init {0}")]
    Init(#[from] nnue::LoadError),
    #[error("output: {0}")]
    Io(#[from] io::Error),
}

/// What `tokin learn` was asked for.
#[derive(Clone, Debug)]
pub struct LearnArgs {
    pub data: Vec<PathBuf>,
    pub output: PathBuf,
    /// The shape to train (default [`DEFAULT_ARCHITECTURE`], or the shape of `init`).
    pub architecture: Option<Architecture>,
    /// A network file to start from instead of random weights (a previous generation's, or
    /// anyone's network of a shape the engine evaluates).
    pub init: Option<PathBuf>,
    /// The FV_SCALE `init` was made for (its evaluation is its output divided by this).
    pub init_fv_scale: i32,
    pub epochs: u32,
    /// Fraction of the data held out for validation (by blocks of whole games, so that a
    /// game's positions stay on one side).
    pub validation: f64,
    /// Validation records from these files instead (then `validation` is 0).
    pub validation_data: Vec<PathBuf>,
    /// Use at most this many samples (0: all).
    pub max_samples: usize,
    /// The checkpoint file (default: the output with `.ckpt` appended).
    pub checkpoint: Option<PathBuf>,
    /// Continue from the checkpoint when it exists.
    pub resume: bool,
    pub config: TrainConfig,
}

impl LearnArgs {
    fn validate(&self) -> Result<(), LearnError> {
        let bad = |text: String| Err(LearnError::Options(text));
        let c = &self.config;
        if let Some(a) = self.architecture.filter(|a| !nnue::SUPPORTED.contains(a)) {
            let known: Vec<String> = nnue::SUPPORTED.iter().map(|a| a.to_string()).collect();
            return bad(format!(
                "--arch {a}: the engine evaluates {}",
                known.join(", ")
            ));
        }
        if !(1..=128).contains(&self.init_fv_scale) {
            return bad(format!(
                "--init-fv-scale {} is not between 1 and 128",
                self.init_fv_scale
            ));
        }
        if self.data.is_empty() {
            return bad("no data files given".into());
        }
        if self.epochs == 0 || c.batch_size == 0 || c.threads == 0 {
            return bad("--epochs, --batch and --threads must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&c.lambda) {
            return bad(format!("--lambda {} is not between 0 and 1", c.lambda));
        }
        if !(c.scale > 0.0 && c.learning_rate > 0.0 && c.lr_decay > 0.0) {
            return bad("--scale, --lr and --lr-decay must be positive".into());
        }
        if !(c.ft_decay >= 0.0 && c.ft_decay * c.learning_rate < 1.0) {
            return bad(format!(
                "--ft-decay {} must be at least 0 and below 1 / --lr",
                c.ft_decay
            ));
        }
        if !(0.0..0.9).contains(&self.validation) {
            return bad(format!(
                "--validation {} is not in [0, 0.9)",
                self.validation
            ));
        }
        if !self.validation_data.is_empty() && self.validation > 0.0 {
            return bad("--validation and --validation-data exclude each other".into());
        }
        Ok(())
    }

    fn checkpoint_path(&self) -> PathBuf {
        self.checkpoint.clone().unwrap_or_else(|| {
            let mut name = self.output.as_os_str().to_owned();
            name.push(".ckpt");
            PathBuf::from(name)
        })
    }
}

/// The samples of some record files, in file order (each with its hand-written evaluation, the
/// baseline a network has to beat).
pub struct ReadSamples {
    pub samples: Vec<Sample>,
    /// The game ply of each (where games begin and end, for the split).
    pub plies: Vec<u16>,
    /// What was read, in a line.
    pub line: String,
}

/// Reads every record of `paths` into samples (records that fail to decode are counted, not
/// used).
pub fn read_samples(paths: &[PathBuf], max: usize) -> Result<ReadSamples, LearnError> {
    let mut reader = PsvReader::new(paths);
    let mut samples = Vec::new();
    let mut plies = Vec::new();
    let mut skipped = 0u64;
    let mut first_error = None;
    for item in reader.by_ref() {
        match item {
            Ok(r) => {
                if let Some(mut s) = Sample::new(&r.position, r.score, r.result.to_i8()) {
                    s.hand_written =
                        HandWritten.evaluate_fresh(&r.position).clamp(-32000, 32000) as i16;
                    samples.push(s);
                    plies.push(r.game_ply);
                    if max > 0 && samples.len() >= max {
                        break;
                    }
                }
            }
            Err(e) => {
                skipped += 1;
                first_error.get_or_insert_with(|| e.to_string());
            }
        }
    }
    let counts = reader.counts();
    let mut line = format!(
        "read {} samples from {} file(s)",
        samples.len(),
        counts.files
    );
    if skipped > 0 {
        line.push_str(&format!(
            "; {skipped} bad records or unreadable files skipped (the first: {})",
            first_error.unwrap_or_default()
        ));
    }
    if samples.is_empty() {
        return Err(LearnError::NoData(line));
    }
    Ok(ReadSamples {
        samples,
        plies,
        line,
    })
}

/// The losses the hand-written evaluation would have on `samples` as the model's output, against
/// the training target and against the results alone (as [`Trainer::losses`]): a network is worth
/// its speed once its validation losses are below these.
fn baseline_losses(samples: &[Sample], config: &TrainConfig) -> (f64, f64) {
    let (blend, results) = samples.iter().fold((0.0, 0.0), |(blend, results), s| {
        let p = sigmoid(f32::from(s.hand_written) / config.scale);
        (
            blend + cross_entropy(p, s.target(config.scale, config.lambda)),
            results + cross_entropy(p, s.target(config.scale, 0.0)),
        )
    });
    let n = samples.len().max(1) as f64;
    (blend / n, results / n)
}

/// The shape a run trains when neither `--arch` nor `--init` says.
pub const DEFAULT_ARCHITECTURE: Architecture = Architecture {
    l1: 64,
    l2: 32,
    l3: 32,
};

/// A trainer starting from the network file `path`; prints what it loaded.
fn trainer_from_network(
    out: &mut dyn Write,
    path: &Path,
    args: &LearnArgs,
) -> Result<Trainer, LearnError> {
    let loaded = nnue::RawNetwork::load(path, nnue::SUPPORTED)?;
    for warning in &loaded.warnings {
        writeln!(out, "warning: --init {}: {warning}", path.display())?;
    }
    let a = loaded.raw.architecture;
    if let Some(asked) = args.architecture.filter(|&asked| asked != a) {
        return Err(LearnError::Options(format!(
            "--arch {asked}, but --init {} is a {a} network",
            path.display()
        )));
    }
    if loaded.raw.residual != args.config.residual {
        let kind = |r: bool| {
            if r {
                "a residual"
            } else {
                "a whole-evaluation"
            }
        };
        return Err(LearnError::Options(format!(
            "--init {} is {} network; training {} one from it needs{} --residual",
            path.display(),
            kind(loaded.raw.residual),
            kind(args.config.residual),
            if loaded.raw.residual { "" } else { " no" }
        )));
    }
    let (model, out_of_range) =
        Model::from_raw(&loaded.raw, args.init_fv_scale).ok_or(TrainError::Memory(a))?;
    drop(loaded);
    writeln!(
        out,
        "starting from {} ({a}, FV_SCALE {}); the networks written are for FV_SCALE {}",
        path.display(),
        args.init_fv_scale,
        nnue::DEFAULT_FV_SCALE
    )?;
    if out_of_range > 0 {
        writeln!(
            out,
            "warning: {out_of_range} output weights exceed what FV_SCALE {} holds and are clipped",
            nnue::DEFAULT_FV_SCALE
        )?;
    }
    Ok(Trainer::around(model, args.config.clone())?)
}

/// The lowest loss any evaluation can have on `samples`: the targets' own entropy.
fn target_entropy(samples: &[Sample], config: &TrainConfig) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let t = f64::from(s.target(config.scale, config.lambda)).clamp(1e-7, 1.0 - 1e-7);
            -(t * t.ln() + (1.0 - t) * (1.0 - t).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// `tokin learn`.
pub fn learn(out: &mut dyn Write, args: &LearnArgs) -> Result<(), LearnError> {
    args.validate()?;
    crate::core::attacks::init();
    let started = Instant::now();
    let read = read_samples(&args.data, args.max_samples)?;
    writeln!(
        out,
        "{} in {:.1} s",
        read.line,
        started.elapsed().as_secs_f64()
    )?;
    let (train, held) = if args.validation_data.is_empty() {
        // The parts are copies: the whole is freed before training.
        let parts = split_by_games(
            &read.samples,
            &read.plies,
            args.validation,
            args.config.seed,
        );
        drop(read);
        parts
    } else {
        let held = read_samples(&args.validation_data, 0).map_err(|e| match e {
            LearnError::NoData(line) => LearnError::NoValidationData(line),
            e => e,
        })?;
        writeln!(out, "validation: {}", held.line)?;
        (read.samples, held.samples)
    };
    let checkpoint = args.checkpoint_path();
    for file in [&args.output, &checkpoint] {
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| LearnError::Write {
                path: dir.display().to_string(),
                source,
            })?;
        }
    }
    let mut trainer = if args.resume && checkpoint.exists() {
        let t = Trainer::resume(&checkpoint, args.config.clone())?;
        if let Some(asked) = args.architecture.filter(|&a| a != t.model.architecture) {
            return Err(LearnError::Options(format!(
                "{} holds a {} model, not {asked}",
                checkpoint.display(),
                t.model.architecture,
            )));
        }
        writeln!(
            out,
            "resumed {} after epoch {}",
            checkpoint.display(),
            t.epoch
        )?;
        t
    } else if let Some(init) = &args.init {
        trainer_from_network(out, init, args)?
    } else {
        let a = args.architecture.unwrap_or(DEFAULT_ARCHITECTURE);
        Trainer::new(a, args.config.clone())?
    };
    let architecture = trainer.model.architecture;
    writeln!(
        out,
        "{} for training, {} held out; {}, factorisers {}, batch {}, lr {}, decay {} an epoch, lambda {}, scale {}, king-row decay {}, {} thread(s), seed {}",
        train.len(),
        held.len(),
        architecture,
        if args.config.king_relative {
            "P, HalfRelativeKP, HalfK"
        } else {
            "P"
        },
        args.config.batch_size,
        args.config.learning_rate,
        args.config.lr_decay,
        args.config.lambda,
        args.config.scale,
        args.config.ft_decay,
        args.config.threads,
        args.config.seed
    )?;
    if !held.is_empty() {
        let (blend, results) = baseline_losses(&held, &args.config);
        writeln!(
            out,
            "validation loss of the hand-written evaluation: {blend:.5} (results alone {results:.5}); of a perfect one (the targets' entropy): {:.5}",
            target_entropy(&held, &args.config)
        )?;
    }
    if trainer.epoch == 0 && !held.is_empty() {
        let (blend, results) = trainer.losses(&held);
        writeln!(
            out,
            "epoch 0: validation loss {blend:.5} (results alone {results:.5})"
        )?;
    }
    let total = u64::from(args.epochs) * train.len() as u64;
    let done_before = u64::from(trainer.epoch) * train.len() as u64;
    let mut line = ProgressLine::new("learn", "samples", total, done_before);
    // The network written is the epoch with the lowest validation loss (the last one when nothing
    // is held out): with a few million positions a large first layer overfits in later epochs.
    while trainer.epoch < args.epochs {
        let epoch_started = Instant::now();
        let lr = trainer.learning_rate();
        let base = u64::from(trainer.epoch) * train.len() as u64;
        let threads = args.config.threads;
        let train_loss = trainer.train_epoch(&train, &mut |p: Progress| {
            let rate = p.samples_done as f64 / epoch_started.elapsed().as_secs_f64().max(1e-3);
            line.update(
                base + p.samples_done as u64,
                format!(
                    "loss {:.5}, {:.0} samples/s ({:.0} a thread)",
                    p.loss,
                    rate,
                    rate / threads as f64
                ),
            );
        });
        let secs = epoch_started.elapsed().as_secs_f64();
        let validation = (!held.is_empty()).then(|| trainer.losses(&held));
        let improved = match (validation, trainer.best_validation) {
            (Some((v, _)), Some((b, _))) => v < b,
            _ => true,
        };
        // The network first, then the checkpoint that names it as the best: a run killed in
        // between resumes from the previous checkpoint and redoes the epoch.
        let written = if improved {
            trainer.best_validation = validation.map(|(v, _)| (v, trainer.epoch));
            let clamped = write_network(&trainer, &args.output)?;
            if clamped > 0 {
                format!(", written ({clamped} values clamped to their integer range)")
            } else {
                ", written".to_string()
            }
        } else {
            String::new()
        };
        trainer.save(&checkpoint)?;
        line.finish();
        writeln!(
            out,
            "epoch {}: training loss {train_loss:.5}{}, lr {lr:.2e}, {:.0} samples/s ({:.0} a thread), {}{written}",
            trainer.epoch,
            validation.map_or(String::new(), |(v, r)| format!(
                ", validation {v:.5} (results alone {r:.5})"
            )),
            train.len() as f64 / secs,
            train.len() as f64 / secs / threads as f64,
            format_duration(secs),
        )?;
        line = ProgressLine::new("learn", "samples", total, base + train.len() as u64);
    }
    line.finish();
    let chosen = match trainer.best_validation {
        Some((loss, epoch)) => format!("epoch {epoch}'s, validation loss {loss:.5}"),
        None => format!("epoch {}'s", trainer.epoch),
    };
    writeln!(
        out,
        "{} holds {chosen} network ({}); checkpoint of epoch {}: {}",
        args.output.display(),
        architecture,
        trainer.epoch,
        checkpoint.display()
    )?;
    Ok(())
}

/// Quantises the model and writes it to `path` (atomically: a killed run never leaves half a
/// network there). Returns how many values were clamped.
fn write_network(trainer: &Trainer, path: &Path) -> Result<u64, LearnError> {
    let fail = |source| LearnError::Write {
        path: path.display().to_string(),
        source,
    };
    let (raw, clamped): (RawNetwork, u64) = trainer
        .model
        .quantize()
        .ok_or(TrainError::Memory(trainer.model.architecture))?;
    let tmp = path.with_extension("tmp");
    let file = std::fs::File::create(&tmp).map_err(fail)?;
    raw.write(io::BufWriter::new(file)).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)?;
    Ok(clamped)
}
