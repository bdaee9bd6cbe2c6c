//! The network in floating point, as the trainer sees it, and its quantisation into the file
//! layout the engine (and YaneuraOu) read.
//!
//! Shapes and scales follow the integer network exactly (`crate::eval::nnue::network`):
//! ```text
//! acc  = b + sum over active features of (W[feature] + F[bona piece])   F: the factoriser
//! c    = clamp(acc, 0, 1)          [side to move's half, then the other's]   int: x 127
//! a1   = clamp(W1 c + b1, 0, 1)                                               weights x 64
//! a2   = clamp(W2 a1 + b2, 0, 1)
//! eval = (w3 . a2 + b3) * EVAL_SCALE                                          output x 600 x FV_SCALE / 127
//! ```
//! The factorisers are rows shared by many (king, piece) features, trained from every sample that
//! has one of them and folded into each feature's row at export (nnue-pytorch's "virtual
//! features"): with the few million positions this machine can generate, most (king, piece) rows
//! are seen too rarely to learn alone. They are YaneuraOu's learner's for HalfKP:
//! - P: a row per BonaPiece, what a piece on a square (or in hand) is worth whatever the king does;
//! - HalfRelativeKP: a row per board piece kind and offset from the king (17 x 17 offsets), what a
//!   piece is worth for where it stands against the king wherever the king is: king safety, which
//!   the (king, piece) rows learn square by square, learnt once for the whole board;
//! - HalfK: a row per king square, active once a perspective; there are always 38 features, so it
//!   folds into each of the king's rows as a 38th.

use super::sample::Sample;
use crate::eval::nnue::architecture::padded;
use crate::eval::nnue::features::{ACTIVE_FEATURES, DIMENSIONS, FE_END, FE_HAND_END};
use crate::eval::nnue::{Architecture, RawNetwork, DEFAULT_FV_SCALE};
use crate::large_table::LargeTable;
use crate::rng::Rng;
use std::io::{self, Read, Write};

/// Activations of 1.0 are 127 in the integer network.
pub const ACTIVATION_SCALE: f32 = 127.0;
/// Hidden-layer weights of 1.0 are 64 (`1 << WEIGHT_SCALE_BITS`).
pub const WEIGHT_SCALE: f32 = 64.0;
/// The float output times this is the evaluation in the engine's units (YaneuraOu's: the integer
/// output divided by FV_SCALE).
pub const EVAL_SCALE: f32 = 600.0;

/// Largest hidden weight that quantises into int8.
pub const HIDDEN_WEIGHT_LIMIT: f32 = 127.0 / WEIGHT_SCALE;

/// The output layer's integer weight per float weight.
fn output_weight_scale() -> f32 {
    EVAL_SCALE * DEFAULT_FV_SCALE as f32 / ACTIVATION_SCALE
}

/// Largest output weight that quantises into int8.
pub fn output_weight_limit() -> f32 {
    127.0 / output_weight_scale()
}

/// Offsets from the king along a file or a rank: -8 to 8.
const OFFSETS: usize = 17;
/// Rows of the HalfRelativeKP factoriser: the 18 board tables of BonaPieces (friend and enemy
/// pawn to dragon) by the piece's offset from the king.
pub const RELATIVE_ROWS: usize = 18 * OFFSETS * OFFSETS;
/// Rows of the HalfK factoriser: one per king square.
pub const KING_ROWS: usize = 81;

/// The HalfRelativeKP row of BonaPiece `bona` for a king on `king` (both as the perspective sees
/// them), or `None` for a piece in hand (or BonaPiece 0), which stands nowhere.
#[inline(always)]
pub fn relative_row(king: usize, bona: usize) -> Option<usize> {
    let board = bona.checked_sub(FE_HAND_END as usize)?;
    let (table, square) = (board / 81, board % 81);
    let file = square / 9 + 8 - king / 9;
    let rank = square % 9 + 8 - king % 9;
    Some((table * OFFSETS + file) * OFFSETS + rank)
}

/// How many tensors [`Model::dense_tensors`] lists.
pub const DENSE_TENSORS: usize = 10;

/// Every parameter, each a flat row-major tensor.
pub struct Model {
    pub architecture: Architecture,
    /// Whether the HalfRelativeKP and HalfK factorisers take part (P always does); when not, their
    /// rows stay zero.
    pub king_relative: bool,
    /// A correction to the hand-written evaluation (written as a residual network).
    pub residual: bool,
    /// `DIMENSIONS` rows of `l1`.
    pub ft: LargeTable<f32>,
    /// P: `FE_END` rows of `l1`.
    pub factor: Vec<f32>,
    /// HalfRelativeKP: `RELATIVE_ROWS` rows of `l1`.
    pub relative: Vec<f32>,
    /// HalfK: `KING_ROWS` rows of `l1`.
    pub king: Vec<f32>,
    pub ft_bias: Vec<f32>,
    /// `l2` rows of `2 l1`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `l3` rows of `l2`.
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub w3: Vec<f32>,
    pub b3: Vec<f32>,
}

/// What the forward pass keeps for the backward one.
pub struct Activations {
    /// The two accumulators before clamping, side to move first.
    pub acc: Vec<f32>,
    pub z1: Vec<f32>,
    pub a1: Vec<f32>,
    pub z2: Vec<f32>,
    pub a2: Vec<f32>,
    pub c: Vec<f32>,
    /// The float output (eval / EVAL_SCALE).
    pub out: f32,
}

impl Activations {
    pub fn new(a: Architecture) -> Activations {
        Activations {
            acc: vec![0.0; 2 * a.l1],
            c: vec![0.0; 2 * a.l1],
            z1: vec![0.0; a.l2],
            a1: vec![0.0; a.l2],
            z2: vec![0.0; a.l3],
            a2: vec![0.0; a.l3],
            out: 0.0,
        }
    }
}

#[inline(always)]
pub fn clamp01(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl Model {
    /// A freshly initialised model: the factoriser's weights small and random, the transformer's
    /// biases at the middle of the clipping range (activations start where they pass gradients),
    /// hidden layers uniform in `+-1/sqrt(fan_in)`, and the king-specific rows at zero: a (king,
    /// piece) row the data never reaches then adds nothing to the factoriser's value instead of
    /// noise. With a million positions the rows of unusual king squares are rarely or never
    /// trained, and the search meets those squares where validation positions do not.
    pub fn new(architecture: Architecture, seed: u64) -> Option<Model> {
        let Architecture { l1, l2, l3 } = architecture;
        let mut rng = Rng::new(seed);
        let mut uniform = move |limit: f32| {
            let unit = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            ((2.0 * unit - 1.0) as f32) * limit
        };
        let ft = LargeTable::try_zeroed(DIMENSIONS * l1)?;
        let factor = (0..FE_END as usize * l1).map(|_| uniform(0.02)).collect();
        let dense = |n: usize, fan_in: usize, u: &mut dyn FnMut(f32) -> f32| -> Vec<f32> {
            let limit = 1.0 / (fan_in as f32).sqrt();
            (0..n).map(|_| u(limit)).collect()
        };
        let w1 = dense(l2 * 2 * l1, 2 * l1, &mut uniform);
        let b1 = dense(l2, 2 * l1, &mut uniform);
        let w2 = dense(l3 * l2, l2, &mut uniform);
        let b2 = dense(l3, l2, &mut uniform);
        let w3 = dense(l3, l3, &mut uniform);
        Some(Model {
            architecture,
            king_relative: true,
            residual: false,
            ft,
            factor,
            relative: vec![0.0; RELATIVE_ROWS * l1],
            king: vec![0.0; KING_ROWS * l1],
            ft_bias: vec![0.5; l1],
            w1,
            b1,
            w2,
            b2,
            w3,
            b3: vec![0.0],
        })
    }

    /// The forward pass for one sample.
    #[inline]
    pub fn forward(&self, sample: &Sample, act: &mut Activations) {
        let Architecture { l1, l2, l3 } = self.architecture;
        for (half, p) in sample.perspectives().into_iter().enumerate() {
            let acc = &mut act.acc[half * l1..(half + 1) * l1];
            acc.copy_from_slice(&self.ft_bias);
            let king = sample.king(p);
            if self.king_relative {
                add(acc, &self.king[king * l1..(king + 1) * l1]);
            }
            let bona = sample.bona_pieces(p).iter().map(|&b| usize::from(b));
            for (feature, bona) in sample.features(p).zip(bona) {
                let row = &self.ft[feature * l1..(feature + 1) * l1];
                let shared = &self.factor[bona * l1..(bona + 1) * l1];
                for ((a, w), f) in acc.iter_mut().zip(row).zip(shared) {
                    *a += w + f;
                }
                if let Some(r) = relative_row(king, bona).filter(|_| self.king_relative) {
                    add(acc, &self.relative[r * l1..(r + 1) * l1]);
                }
            }
        }
        for (c, &a) in act.c.iter_mut().zip(&act.acc) {
            *c = clamp01(a);
        }
        dense_forward(&self.w1, &self.b1, &act.c, &mut act.z1, 2 * l1);
        for (a, &z) in act.a1.iter_mut().zip(&act.z1) {
            *a = clamp01(z);
        }
        dense_forward(&self.w2, &self.b2, &act.a1, &mut act.z2, l2);
        for (a, &z) in act.a2.iter_mut().zip(&act.z2) {
            *a = clamp01(z);
        }
        act.out = self.b3[0] + (0..l3).map(|i| self.w3[i] * act.a2[i]).sum::<f32>();
    }

    /// Keeps the hidden and output weights inside what int8 holds after quantisation.
    pub fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(self.w2.iter_mut()) {
            *w = w.clamp(-HIDDEN_WEIGHT_LIMIT, HIDDEN_WEIGHT_LIMIT);
        }
        let limit = output_weight_limit();
        for w in self.w3.iter_mut() {
            *w = w.clamp(-limit, limit);
        }
    }

    /// The integer network in the file's layout (the factoriser folded into every king's rows),
    /// and how many values had to be clamped to their integer range.
    pub fn quantize(&self) -> Option<(RawNetwork, u64)> {
        let a = self.architecture;
        let Architecture { l1, l2, l3 } = a;
        let mut raw = RawNetwork::zeroed(a)?;
        raw.residual = self.residual;
        let mut clamped = 0u64;
        let mut q16 = |x: f32| -> i16 {
            let r = (x * ACTIVATION_SCALE).round();
            if r.abs() > i16::MAX as f32 {
                clamped += 1;
            }
            r.clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        for (q, &b) in raw.transformer_biases.iter_mut().zip(&self.ft_bias) {
            *q = q16(b);
        }
        // Every position has ACTIVE_FEATURES features a perspective, so a king's HalfK row
        // folds into each of its (king, piece) rows as that fraction.
        let king_share = 1.0 / ACTIVE_FEATURES as f32;
        let part = |r: usize| r * l1..(r + 1) * l1;
        let mut row = vec![0.0f32; l1];
        for feature in 0..DIMENSIONS {
            let (king, bona) = (feature / FE_END as usize, feature % FE_END as usize);
            row.copy_from_slice(&self.ft[part(feature)]);
            add(&mut row, &self.factor[part(bona)]);
            if self.king_relative {
                if let Some(r) = relative_row(king, bona) {
                    add(&mut row, &self.relative[part(r)]);
                }
                for (w, &k) in row.iter_mut().zip(&self.king[part(king)]) {
                    *w += k * king_share;
                }
            }
            for (q, &w) in raw.transformer_weights[feature * l1..(feature + 1) * l1]
                .iter_mut()
                .zip(&row)
            {
                *q = q16(w);
            }
        }
        let mut q8 = |x: f32, scale: f32| -> i8 {
            let r = (x * scale).round();
            if r.abs() > 127.0 {
                clamped += 1;
            }
            r.clamp(-127.0, 127.0) as i8
        };
        let stride1 = padded(2 * l1);
        for o in 0..l2 {
            raw.hidden1_biases[o] = (self.b1[o] * WEIGHT_SCALE * ACTIVATION_SCALE).round() as i32;
            for i in 0..2 * l1 {
                raw.hidden1_weights[o * stride1 + i] = q8(self.w1[o * 2 * l1 + i], WEIGHT_SCALE);
            }
        }
        let stride2 = padded(l2);
        for o in 0..l3 {
            raw.hidden2_biases[o] = (self.b2[o] * WEIGHT_SCALE * ACTIVATION_SCALE).round() as i32;
            for i in 0..l2 {
                raw.hidden2_weights[o * stride2 + i] = q8(self.w2[o * l2 + i], WEIGHT_SCALE);
            }
        }
        let out_scale = output_weight_scale();
        for i in 0..l3 {
            raw.output_weights[i] = q8(self.w3[i], out_scale);
        }
        raw.output_bias = (self.b3[0] * EVAL_SCALE * DEFAULT_FV_SCALE as f32).round() as i32;
        Some((raw, clamped))
    }

    /// The float model of an integer network, to train further from it: every weight is its
    /// integer over the scale `quantize` multiplies by, the factorisers start at zero (the file's
    /// rows already hold what they would learn), so that `quantize` gives the same integers back.
    /// `fv_scale` is the file's FV_SCALE: the output layer is rescaled so that the model evaluates
    /// as the file does at that scale, in the units of the networks this trainer writes
    /// (`DEFAULT_FV_SCALE`). Returns the model and how many output weights left the range a
    /// `DEFAULT_FV_SCALE` file holds (clipped at the first step; only a scale below the default
    /// does that); `None` when memory is short.
    pub fn from_raw(raw: &RawNetwork, fv_scale: i32) -> Option<(Model, u64)> {
        let a = raw.architecture;
        let Architecture { l1, l2, l3 } = a;
        let mut ft = LargeTable::try_zeroed(DIMENSIONS * l1)?;
        for (w, &q) in ft.iter_mut().zip(raw.transformer_weights.iter()) {
            *w = f32::from(q) / ACTIVATION_SCALE;
        }
        let hidden = |biases: &[i32], weights: &[i8], inputs: usize| {
            let stride = padded(inputs);
            let w: Vec<f32> = (0..biases.len() * inputs)
                .map(|k| f32::from(weights[k / inputs * stride + k % inputs]) / WEIGHT_SCALE)
                .collect();
            let b: Vec<f32> = biases
                .iter()
                .map(|&q| q as f32 / (WEIGHT_SCALE * ACTIVATION_SCALE))
                .collect();
            (w, b)
        };
        let (w1, b1) = hidden(&raw.hidden1_biases, &raw.hidden1_weights, 2 * l1);
        let (w2, b2) = hidden(&raw.hidden2_biases, &raw.hidden2_weights, l2);
        // The file's evaluation is its integer output over `fv_scale`; ours over the default.
        let rescale = DEFAULT_FV_SCALE as f32 / fv_scale as f32;
        let w3: Vec<f32> = raw.output_weights[..l3]
            .iter()
            .map(|&q| f32::from(q) / output_weight_scale() * rescale)
            .collect();
        let limit = output_weight_limit();
        let out_of_range = w3.iter().filter(|w| w.abs() > limit * 1.0001).count() as u64;
        let b3 = raw.output_bias as f32 / (EVAL_SCALE * DEFAULT_FV_SCALE as f32) * rescale;
        let model = Model {
            architecture: a,
            king_relative: true,
            residual: raw.residual,
            ft,
            factor: vec![0.0; FE_END as usize * l1],
            relative: vec![0.0; RELATIVE_ROWS * l1],
            king: vec![0.0; KING_ROWS * l1],
            ft_bias: raw
                .transformer_biases
                .iter()
                .map(|&q| f32::from(q) / ACTIVATION_SCALE)
                .collect(),
            w1,
            b1,
            w2,
            b2,
            w3,
            b3: vec![b3],
        };
        debug_assert_eq!(model.w2.len(), l3 * l2);
        Some((model, out_of_range))
    }

    /// The tensors but the transformer table, in a fixed order (for the optimiser's state and the
    /// checkpoint file).
    pub fn dense_tensors_mut(&mut self) -> [&mut Vec<f32>; DENSE_TENSORS] {
        [
            &mut self.factor,
            &mut self.relative,
            &mut self.king,
            &mut self.ft_bias,
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            &mut self.b3,
        ]
    }

    pub fn dense_tensors(&self) -> [&Vec<f32>; DENSE_TENSORS] {
        [
            &self.factor,
            &self.relative,
            &self.king,
            &self.ft_bias,
            &self.w1,
            &self.b1,
            &self.w2,
            &self.b2,
            &self.w3,
            &self.b3,
        ]
    }
}

/// `acc += row`.
#[inline(always)]
pub fn add(acc: &mut [f32], row: &[f32]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a += w;
    }
}

/// `z = W x + b` for `W` of `z.len()` rows of `inputs`.
#[inline(always)]
fn dense_forward(w: &[f32], b: &[f32], x: &[f32], z: &mut [f32], inputs: usize) {
    for (o, z) in z.iter_mut().enumerate() {
        let row = &w[o * inputs..(o + 1) * inputs];
        *z = b[o] + row.iter().zip(x).map(|(w, x)| w * x).sum::<f32>();
    }
}

/// Writes `values` little-endian.
pub fn write_f32s(w: &mut impl Write, values: &[f32]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(values.len().min(1 << 16) * 4);
    for chunk in values.chunks(1 << 16) {
        buf.clear();
        for v in chunk {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        w.write_all(&buf)?;
    }
    Ok(())
}

/// Reads `out.len()` little-endian values.
pub fn read_f32s(r: &mut impl Read, out: &mut [f32]) -> io::Result<()> {
    let mut buf = vec![0u8; out.len().min(1 << 16) * 4];
    for chunk in out.chunks_mut(1 << 16) {
        let bytes = &mut buf[..chunk.len() * 4];
        r.read_exact(bytes)?;
        for (v, b) in chunk.iter_mut().zip(bytes.chunks_exact(4)) {
            *v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
    }
    Ok(())
}
