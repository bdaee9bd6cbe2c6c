//! The trainer: mini-batch gradient descent with Adam on the float model, all cores.
//!
//! Loss: the cross-entropy between the model's win probability, `sigmoid(eval / scale)`, and the
//! sample's target, the score's win probability blended with the game's result by `lambda`
//! ([`Sample::target`]). Each batch is split into one slice per thread; each thread accumulates
//! its gradients (the transformer's in a table of its own, with the rows it touched listed), then
//! the dense layers take one Adam step and the transformer's touched rows a sparse one: a row no
//! sample of the batch used keeps its weights and its moments (PyTorch's SparseAdam). The split
//! and the order of every sum are fixed, so a seed and a thread count give the same network.

use super::model::{add, relative_row, Activations, Model, EVAL_SCALE};
use super::sample::{sigmoid, Sample};
use crate::eval::nnue::features::DIMENSIONS;
use crate::eval::nnue::Architecture;
use crate::large_table::LargeTable;
use crate::rng::Rng;
use rayon::prelude::*;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

/// Settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    pub batch_size: usize,
    /// Adam's step size at the first epoch.
    pub learning_rate: f32,
    /// The step size is multiplied by this after every epoch.
    pub lr_decay: f32,
    /// Weight of the score in the target (1 = score only, 0 = result only).
    pub lambda: f32,
    /// Score units per unit of the win probability's logit.
    pub scale: f32,
    pub threads: usize,
    pub seed: u64,
    /// Mirror half of the samples (a fresh half each epoch): left-right symmetry doubles the data.
    pub mirror: bool,
    /// Decoupled weight decay (AdamW's) of the king-specific transformer rows, per unit of step
    /// size: each row a batch uses shrinks by `lr x decay` toward zero, so what the data does not
    /// insist on is left to the factoriser (shared by every king square). With the few million
    /// positions one machine generates those rows are what overfits.
    pub ft_decay: f32,
    /// Train with the HalfRelativeKP and HalfK factorisers beside P (`Model::king_relative`).
    pub king_relative: bool,
    /// The network learns a correction to the hand-written evaluation (the evaluation is their
    /// sum) instead of the whole evaluation.
    pub residual: bool,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            batch_size: 16_384,
            learning_rate: 1e-3,
            lr_decay: 0.9,
            lambda: 0.7,
            scale: 600.0,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            mirror: true,
            ft_decay: 0.0,
            king_relative: true,
            residual: false,
        }
    }
}

/// The bit of an epoch's order entry that marks a sample to mirror (so at most 2^31 samples).
const MIRROR_BIT: u32 = 1 << 31;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// Why a training run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("not enough memory for a {0} model and its training state")]
    Memory(Architecture),
    #[error("checkpoint {path}: {source}")]
    Checkpoint { path: String, source: io::Error },
    #[error("checkpoint {path}: {what}")]
    BadCheckpoint { path: String, what: String },
    #[error("cannot start {0} training threads: {1}")]
    Threads(usize, String),
}

/// One thread's gradients and scratch space.
struct ThreadState {
    ft: LargeTable<f32>,
    touched: Vec<u32>,
    mark: Vec<bool>,
    dense: Vec<Vec<f32>>,
    act: Activations,
    d_c: Vec<f32>,
    d_z1: Vec<f32>,
    d_z2: Vec<f32>,
    d_a1: Vec<f32>,
    loss: f64,
}

/// A model with its optimiser state, ready to train.
pub struct Trainer {
    pub model: Model,
    pub config: TrainConfig,
    /// Epochs completed.
    pub epoch: u32,
    /// Adam steps taken.
    pub step: u64,
    /// The lowest validation loss seen and the epoch it came after (kept in the checkpoint, so
    /// a resumed run still knows which network to keep).
    pub best_validation: Option<(f64, u32)>,
    ft_m: LargeTable<f32>,
    ft_v: LargeTable<f32>,
    dense_m: Vec<Vec<f32>>,
    dense_v: Vec<Vec<f32>>,
    threads: Vec<ThreadState>,
    touched_any: Vec<bool>,
    pool: rayon::ThreadPool,
}

/// Where an epoch stands, for a progress bar.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub samples_done: usize,
    pub samples_total: usize,
    /// Mean loss of the epoch's samples so far.
    pub loss: f64,
}

impl Trainer {
    /// A fresh model of `architecture` (seeded by `config.seed`). A residual network starts with
    /// no output, so its evaluation starts as the hand-written one.
    pub fn new(architecture: Architecture, config: TrainConfig) -> Result<Trainer, TrainError> {
        let mut model =
            Model::new(architecture, config.seed).ok_or(TrainError::Memory(architecture))?;
        if config.residual {
            model.w3.fill(0.0);
        }
        Trainer::around(model, config)
    }

    /// A trainer that starts from `model` (e.g. [`Model::from_raw`] of an existing network), with
    /// the factorisers `config` asks for.
    pub fn around(mut model: Model, config: TrainConfig) -> Result<Trainer, TrainError> {
        model.king_relative = config.king_relative;
        model.residual = config.residual;
        let a = model.architecture;
        let memory = || TrainError::Memory(a);
        let table = || LargeTable::<f32>::try_zeroed(DIMENSIONS * a.l1).ok_or_else(memory);
        let shapes: Vec<usize> = model.dense_tensors().iter().map(|t| t.len()).collect();
        let threads = config.threads.max(1);
        let states = (0..threads)
            .map(|_| {
                Ok(ThreadState {
                    ft: table()?,
                    touched: Vec::new(),
                    mark: vec![false; DIMENSIONS],
                    dense: shapes.iter().map(|&n| vec![0.0; n]).collect(),
                    act: Activations::new(a),
                    d_c: vec![0.0; 2 * a.l1],
                    d_z1: vec![0.0; a.l2],
                    d_z2: vec![0.0; a.l3],
                    d_a1: vec![0.0; a.l2],
                    loss: 0.0,
                })
            })
            .collect::<Result<Vec<_>, TrainError>>()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| TrainError::Threads(threads, e.to_string()))?;
        Ok(Trainer {
            ft_m: table()?,
            ft_v: table()?,
            dense_m: shapes.iter().map(|&n| vec![0.0; n]).collect(),
            dense_v: shapes.iter().map(|&n| vec![0.0; n]).collect(),
            model,
            config,
            epoch: 0,
            step: 0,
            best_validation: None,
            threads: states,
            touched_any: vec![false; DIMENSIONS],
            pool,
        })
    }

    /// The step size of the current epoch.
    pub fn learning_rate(&self) -> f32 {
        self.config.learning_rate * self.config.lr_decay.powi(self.epoch as i32)
    }

    /// One pass over `samples` in a seeded random order; returns the epoch's mean training loss.
    pub fn train_epoch(&mut self, samples: &[Sample], progress: &mut dyn FnMut(Progress)) -> f64 {
        // Each entry is a sample's index, with the top bit set when it is to be mirrored.
        let mut order: Vec<u32> = (0..samples.len() as u32).collect();
        let mut rng =
            Rng::new(self.config.seed ^ (u64::from(self.epoch) + 1).wrapping_mul(0x9E37_79B9));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        if self.config.mirror {
            for entry in order.iter_mut() {
                *entry |= ((rng.next() >> 63) as u32) << 31;
            }
        }
        let mut total_loss = 0.0;
        let mut done = 0;
        for batch in order.chunks(self.config.batch_size.max(1)) {
            total_loss += self.train_batch(samples, batch);
            done += batch.len();
            progress(Progress {
                samples_done: done,
                samples_total: samples.len(),
                loss: total_loss / done.max(1) as f64,
            });
        }
        self.epoch += 1;
        total_loss / samples.len().max(1) as f64
    }

    /// Gradients of one batch, then one Adam step. Returns the batch's summed loss.
    fn train_batch(&mut self, samples: &[Sample], batch: &[u32]) -> f64 {
        let per_thread = batch.len().div_ceil(self.threads.len());
        let model = &self.model;
        let config = &self.config;
        let threads = &mut self.threads;
        self.pool.install(|| {
            threads
                .par_iter_mut()
                .zip(batch.par_chunks(per_thread.max(1)))
                .for_each(|(state, chunk)| {
                    for &entry in chunk {
                        let sample = &samples[(entry & MIRROR_BIT.wrapping_sub(1)) as usize];
                        if entry & MIRROR_BIT != 0 {
                            state.accumulate(model, &sample.mirrored(), config);
                        } else {
                            state.accumulate(model, sample, config);
                        }
                    }
                });
        });
        self.step += 1;
        let step = self.step as i32;
        let lr = self.learning_rate() * (1.0 - BETA2.powi(step)).sqrt() / (1.0 - BETA1.powi(step));
        let scale = 1.0 / batch.len() as f32;
        let mut loss = 0.0;
        // Dense tensors: sum the threads' gradients (in thread order), one Adam step.
        let (first, rest) = self.threads.split_first_mut().expect("one thread at least");
        loss += first.loss;
        first.loss = 0.0;
        for other in rest.iter_mut() {
            loss += other.loss;
            other.loss = 0.0;
            for (sum, g) in first.dense.iter_mut().zip(&other.dense) {
                for (s, &g) in sum.iter_mut().zip(g) {
                    *s += g;
                }
            }
            for g in other.dense.iter_mut() {
                g.fill(0.0);
            }
        }
        for (((w, g), m), v) in self
            .model
            .dense_tensors_mut()
            .into_iter()
            .zip(first.dense.iter_mut())
            .zip(self.dense_m.iter_mut())
            .zip(self.dense_v.iter_mut())
        {
            adam(w, g, m, v, lr, scale);
            g.fill(0.0);
        }
        self.model.clip();
        // The transformer: the rows any thread touched.
        for state in &self.threads {
            for &r in &state.touched {
                self.touched_any[r as usize] = true;
            }
        }
        let l1 = self.model.architecture.l1;
        let shrink = 1.0 - self.learning_rate() * self.config.ft_decay;
        const ROWS: usize = 256;
        let states = &self.threads;
        let touched_any = &self.touched_any;
        self.pool.install(|| {
            self.model
                .ft
                .par_chunks_mut(ROWS * l1)
                .zip(self.ft_m.par_chunks_mut(ROWS * l1))
                .zip(self.ft_v.par_chunks_mut(ROWS * l1))
                .enumerate()
                .for_each(|(block, ((w, m), v))| {
                    let mut g = vec![0.0f32; l1];
                    for r in 0..w.len() / l1 {
                        let row = block * ROWS + r;
                        if !touched_any[row] {
                            continue;
                        }
                        g.fill(0.0);
                        for s in states {
                            if s.mark[row] {
                                for (g, &x) in g.iter_mut().zip(&s.ft[row * l1..(row + 1) * l1]) {
                                    *g += x;
                                }
                            }
                        }
                        let span = r * l1..(r + 1) * l1;
                        if shrink != 1.0 {
                            for w in &mut w[span.clone()] {
                                *w *= shrink;
                            }
                        }
                        adam(
                            &mut w[span.clone()],
                            &g,
                            &mut m[span.clone()],
                            &mut v[span],
                            lr,
                            scale,
                        );
                    }
                });
        });
        let touched_any = &mut self.touched_any;
        for state in self.threads.iter_mut() {
            for &r in &state.touched {
                let r = r as usize;
                state.ft[r * l1..(r + 1) * l1].fill(0.0);
                state.mark[r] = false;
                touched_any[r] = false;
            }
            state.touched.clear();
        }
        loss
    }

    /// The mean loss over `samples`, without learning.
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        self.losses(samples).0
    }

    /// The mean loss over `samples` against the training target, and against the games' results
    /// alone (lambda 0): the second says how well the network predicts the games, whatever
    /// taught it, so networks trained on different targets compare on it.
    pub fn losses(&self, samples: &[Sample]) -> (f64, f64) {
        let a = self.model.architecture;
        let config = &self.config;
        let model = &self.model;
        let chunk = samples.len().div_ceil(self.threads.len()).max(1);
        let sums: Vec<(f64, f64)> = self.pool.install(|| {
            samples
                .par_chunks(chunk)
                .map(|part| {
                    let mut act = Activations::new(a);
                    part.iter().fold((0.0, 0.0), |(blend, results), s| {
                        model.forward(s, &mut act);
                        let eval = s.evaluation(act.out * EVAL_SCALE, config.residual);
                        let p = sigmoid(eval / config.scale);
                        (
                            blend + cross_entropy(p, s.target(config.scale, config.lambda)),
                            results + cross_entropy(p, s.target(config.scale, 0.0)),
                        )
                    })
                })
                .collect()
        });
        let n = samples.len().max(1) as f64;
        let (blend, results) = sums
            .iter()
            .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
        (blend / n, results / n)
    }
}

/// `-(t ln p + (1 - t) ln (1 - p))`, with `p` kept off 0 and 1.
pub fn cross_entropy(p: f32, t: f32) -> f64 {
    let p = f64::from(p).clamp(1e-7, 1.0 - 1e-7);
    let t = f64::from(t);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// One Adam step on `w` from the summed gradient `g` (scaled by `scale` into a mean).
#[inline]
fn adam(w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], lr: f32, scale: f32) {
    for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
        let g = g * scale;
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        *w -= lr * *m / (v.sqrt() + EPSILON);
    }
}

impl ThreadState {
    /// Adds one sample's loss and gradients.
    #[inline]
    fn accumulate(&mut self, model: &Model, sample: &Sample, config: &TrainConfig) {
        let Architecture { l1, l2, l3 } = model.architecture;
        model.forward(sample, &mut self.act);
        let act = &self.act;
        let eval = sample.evaluation(act.out * EVAL_SCALE, config.residual);
        let p = sigmoid(eval / config.scale);
        let t = sample.target(config.scale, config.lambda);
        self.loss += cross_entropy(p, t);
        let d_out = (p - t) * EVAL_SCALE / config.scale;
        // Tensor order: factor, relative, king, ft_bias, w1, b1, w2, b2, w3, b3.
        let [g_factor, g_relative, g_king, g_ft_bias, g_w1, g_b1, g_w2, g_b2, g_w3, g_b3] =
            &mut self.dense[..]
        else {
            unreachable!("ten tensors")
        };
        g_b3[0] += d_out;
        let outputs = g_w3.iter_mut().zip(&act.a2).zip(&act.z2);
        for (((g, &a2), &z2), (d, &w3)) in outputs.zip(self.d_z2.iter_mut().zip(&model.w3)) {
            *g += d_out * a2;
            *d = if z2 > 0.0 && z2 < 1.0 {
                d_out * w3
            } else {
                0.0
            };
        }
        let d_a1 = &mut self.d_a1;
        d_a1.fill(0.0);
        for o in 0..l3 {
            let d = self.d_z2[o];
            if d == 0.0 {
                continue;
            }
            g_b2[o] += d;
            let row = &model.w2[o * l2..(o + 1) * l2];
            let g_row = &mut g_w2[o * l2..(o + 1) * l2];
            for i in 0..l2 {
                g_row[i] += d * act.a1[i];
                d_a1[i] += d * row[i];
            }
        }
        for ((d, &z1), &back) in self.d_z1.iter_mut().zip(&act.z1).zip(d_a1.iter()) {
            *d = if z1 > 0.0 && z1 < 1.0 { back } else { 0.0 };
        }
        self.d_c.fill(0.0);
        let inputs = 2 * l1;
        for o in 0..l2 {
            let d = self.d_z1[o];
            if d == 0.0 {
                continue;
            }
            g_b1[o] += d;
            let row = &model.w1[o * inputs..(o + 1) * inputs];
            let g_row = &mut g_w1[o * inputs..(o + 1) * inputs];
            for i in 0..inputs {
                g_row[i] += d * act.c[i];
                self.d_c[i] += d * row[i];
            }
        }
        // Through the clamp into the accumulators.
        for (d, &a) in self.d_c.iter_mut().zip(&act.acc) {
            if !(a > 0.0 && a < 1.0) {
                *d = 0.0;
            }
        }
        for (half, p) in sample.perspectives().into_iter().enumerate() {
            let d = &self.d_c[half * l1..(half + 1) * l1];
            add(g_ft_bias, d);
            let king = sample.king(p);
            if model.king_relative {
                add(&mut g_king[king * l1..(king + 1) * l1], d);
            }
            let bona = sample.bona_pieces(p).iter().map(|&b| usize::from(b));
            for (feature, bona) in sample.features(p).zip(bona) {
                if !self.mark[feature] {
                    self.mark[feature] = true;
                    self.touched.push(feature as u32);
                }
                add(&mut self.ft[feature * l1..(feature + 1) * l1], d);
                add(&mut g_factor[bona * l1..(bona + 1) * l1], d);
                if let Some(r) = relative_row(king, bona).filter(|_| model.king_relative) {
                    add(&mut g_relative[r * l1..(r + 1) * l1], d);
                }
            }
        }
    }
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"TOKINCKP";
/// 3: the HalfRelativeKP and HalfK factorisers (their tensors, and whether they take part), and
/// whether the network is residual.
const CHECKPOINT_VERSION: u32 = 3;

impl Trainer {
    /// Writes the model and the optimiser state; atomic (a temporary file renamed over `path`), so
    /// a killed run leaves the previous checkpoint whole.
    pub fn save(&mut self, path: &Path) -> Result<(), TrainError> {
        let fail = |source| TrainError::Checkpoint {
            path: path.display().to_string(),
            source,
        };
        let tmp = path.with_extension("tmp");
        let write = || -> io::Result<()> {
            let mut w = BufWriter::new(std::fs::File::create(&tmp)?);
            let a = self.model.architecture;
            w.write_all(CHECKPOINT_MAGIC)?;
            for word in [
                CHECKPOINT_VERSION,
                a.l1 as u32,
                a.l2 as u32,
                a.l3 as u32,
                self.epoch,
                u32::from(self.model.king_relative) | u32::from(self.config.residual) << 1,
            ] {
                w.write_all(&word.to_le_bytes())?;
            }
            w.write_all(&self.step.to_le_bytes())?;
            let (best_loss, best_epoch) = self.best_validation.unwrap_or((f64::NAN, 0));
            w.write_all(&best_loss.to_le_bytes())?;
            w.write_all(&best_epoch.to_le_bytes())?;
            super::model::write_f32s(&mut w, &self.model.ft)?;
            super::model::write_f32s(&mut w, &self.ft_m)?;
            super::model::write_f32s(&mut w, &self.ft_v)?;
            for t in self.model.dense_tensors() {
                super::model::write_f32s(&mut w, t)?;
            }
            for t in self.dense_m.iter().chain(&self.dense_v) {
                super::model::write_f32s(&mut w, t)?;
            }
            w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&tmp, path)
        };
        write().map_err(fail)
    }

    /// A trainer from a checkpoint, continuing with `config` (the step size schedule picks up at
    /// the checkpoint's epoch).
    pub fn resume(path: &Path, config: TrainConfig) -> Result<Trainer, TrainError> {
        let name = path.display().to_string();
        let io_fail = |source| TrainError::Checkpoint {
            path: name.clone(),
            source,
        };
        let mut r = BufReader::new(std::fs::File::open(path).map_err(io_fail)?);
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic).map_err(io_fail)?;
        if &magic != CHECKPOINT_MAGIC {
            return Err(TrainError::BadCheckpoint {
                path: name,
                what: "not a Tokin training checkpoint".into(),
            });
        }
        let mut word = || -> io::Result<u32> {
            let mut b = [0u8; 4];
            r.read_exact(&mut b)?;
            Ok(u32::from_le_bytes(b))
        };
        let version = word().map_err(io_fail)?;
        if version != CHECKPOINT_VERSION {
            return Err(TrainError::BadCheckpoint {
                path: name,
                what: format!("version {version}, this build reads {CHECKPOINT_VERSION}"),
            });
        }
        let (l1, l2, l3, epoch, flags) = (
            word().map_err(io_fail)? as usize,
            word().map_err(io_fail)? as usize,
            word().map_err(io_fail)? as usize,
            word().map_err(io_fail)?,
            word().map_err(io_fail)?,
        );
        let (king_relative, residual) = (flags & 1 != 0, flags & 2 != 0);
        if residual != config.residual {
            let kind = |r: bool| {
                if r {
                    "a residual"
                } else {
                    "a whole-evaluation"
                }
            };
            return Err(TrainError::BadCheckpoint {
                path: name,
                what: format!(
                    "{} network's run, asked to go on as {}",
                    kind(residual),
                    kind(config.residual)
                ),
            });
        }
        if king_relative != config.king_relative {
            let factorisers = |on: bool| if on { "all" } else { "piece" };
            return Err(TrainError::BadCheckpoint {
                path: name,
                what: format!(
                    "trained with --factorisers {}, asked to go on with {}",
                    factorisers(king_relative),
                    factorisers(config.king_relative)
                ),
            });
        }
        let mut step = [0u8; 8];
        r.read_exact(&mut step).map_err(io_fail)?;
        let mut best = [0u8; 12];
        r.read_exact(&mut best).map_err(io_fail)?;
        let best_loss = f64::from_le_bytes(best[..8].try_into().expect("8 bytes"));
        let best_epoch = u32::from_le_bytes(best[8..].try_into().expect("4 bytes"));
        let architecture = Architecture { l1, l2, l3 };
        if !architecture.is_runnable() {
            return Err(TrainError::BadCheckpoint {
                path: name,
                what: format!("{architecture} is not a shape this build trains"),
            });
        }
        let model = Model::new(architecture, 0).ok_or(TrainError::Memory(architecture))?;
        let mut t = Trainer::around(model, config)?;
        t.epoch = epoch;
        t.step = u64::from_le_bytes(step);
        t.best_validation = (!best_loss.is_nan()).then_some((best_loss, best_epoch));
        let mut read = || -> io::Result<()> {
            super::model::read_f32s(&mut r, &mut t.model.ft)?;
            super::model::read_f32s(&mut r, &mut t.ft_m)?;
            super::model::read_f32s(&mut r, &mut t.ft_v)?;
            for tensor in t.model.dense_tensors_mut() {
                super::model::read_f32s(&mut r, tensor)?;
            }
            for tensor in t.dense_m.iter_mut().chain(t.dense_v.iter_mut()) {
                super::model::read_f32s(&mut r, tensor)?;
            }
            let mut extra = [0u8; 1];
            if r.read(&mut extra)? != 0 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "bytes after the end",
                ));
            }
            Ok(())
        };
        read().map_err(io_fail)?;
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Position, Variant};

    /// The analytic gradients against central differences of the loss, for parameters of every
    /// tensor that the sample reaches.
    #[test]
    fn gradients_match_finite_differences() {
        let a = Architecture {
            l1: 64,
            l2: 8,
            l3: 8,
        };
        let pos = Position::from_sfen(
            "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P1P/PPSP1P3/2G2S1R1/LN2KG1NL b Bbp 37",
            Variant::Shogi,
        )
        .unwrap();
        let sample = Sample::new(&pos, 250, 1).unwrap();
        let config = TrainConfig {
            threads: 1,
            lambda: 0.6,
            ..TrainConfig::default()
        };
        let mut t = Trainer::new(a, config.clone()).unwrap();
        // Bigger hidden weights than the initialisation, so that every layer passes gradient,
        // and king-specific rows that are not zero (a trained model's).
        for w in t.model.w3.iter_mut() {
            *w *= 4.0;
        }
        let mut rng = crate::rng::Rng::new(3);
        for w in t.model.ft.iter_mut() {
            *w = ((rng.next() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.04;
        }
        let model = &t.model;
        let state = &mut t.threads[0];
        state.accumulate(model, &sample, &config);
        let analytic: Vec<Vec<f32>> = state.dense.clone();
        let feature = sample.features(sample.perspectives()[0]).next().unwrap();
        let ft_grad: Vec<f32> = state.ft[feature * a.l1..(feature + 1) * a.l1].to_vec();
        let samples = [sample];
        let mut checked = 0;
        let mut tensors_checked = 0;
        let h = 1e-2f32;
        for (tensor, grads) in analytic.iter().enumerate() {
            tensors_checked += usize::from(grads.iter().any(|g| g.abs() > 1e-3));
            for (i, &g) in grads
                .iter()
                .enumerate()
                .filter(|(_, g)| g.abs() > 1e-3)
                .take(3)
            {
                let base = t.model.dense_tensors()[tensor][i];
                t.model.dense_tensors_mut()[tensor][i] = base + h;
                let up = t.loss(&samples);
                t.model.dense_tensors_mut()[tensor][i] = base - h;
                let down = t.loss(&samples);
                t.model.dense_tensors_mut()[tensor][i] = base;
                let numeric = ((up - down) / (2.0 * f64::from(h))) as f32;
                assert!(
                    (numeric - g).abs() <= 0.05 * g.abs().max(numeric.abs()) + 1e-3,
                    "tensor {tensor} index {i}: analytic {g}, numeric {numeric}"
                );
                checked += 1;
            }
        }
        for (j, &g) in ft_grad
            .iter()
            .enumerate()
            .filter(|(_, g)| g.abs() > 1e-3)
            .take(3)
        {
            let at = feature * a.l1 + j;
            let base = t.model.ft[at];
            t.model.ft[at] = base + h;
            let up = t.loss(&samples);
            t.model.ft[at] = base - h;
            let down = t.loss(&samples);
            t.model.ft[at] = base;
            let numeric = ((up - down) / (2.0 * f64::from(h))) as f32;
            assert!(
                (numeric - g).abs() <= 0.05 * g.abs().max(numeric.abs()) + 1e-3,
                "transformer weight {j}: analytic {g}, numeric {numeric}"
            );
            checked += 1;
        }
        assert!(checked >= 15, "only {checked} parameters had a gradient");
        assert_eq!(
            tensors_checked,
            analytic.len(),
            "a tensor without a gradient"
        );
    }
}
