//! A loaded network: the feature transformer (int16 weights per feature, per-perspective int16
//! accumulators) and the three affine layers, with the arithmetic of YaneuraOu's NNUE:
//!
//! ```text
//! accumulator[p] = bias + sum of the rows of p's active features          (int16, wrapping)
//! input          = clamp(accumulator[side to move], 0, 127) ++ clamp(accumulator[other], 0, 127)
//! hidden1        = clamp((W1 . input  + b1) >> 6, 0, 127)                  (int8 weights, int32 sums)
//! hidden2        = clamp((W2 . hidden1 + b2) >> 6, 0, 127)
//! output         =  W3 . hidden2 + b3                     (the caller divides by FV_SCALE)
//! ```
//!
//! The shape is three const parameters, so one code path serves the standard 256x2-32-32 file and
//! smaller networks of our own: `L1` a multiple of 64 up to 1024, `L2` and `L3` multiples of 8 up
//! to 32 (checked in [`Network::from_raw`]).

use super::architecture::{padded, Architecture};
use super::features::{self, DIMENSIONS};
use super::file::RawNetwork;
use super::simd::{self, Isa, MAX_INPUT_CHUNKS};
use crate::core::position::Position;
use crate::core::Color;
use crate::large_table::LargeTable;

/// One perspective's int16 accumulator (or the transformer's biases), aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Half<const L1: usize>(pub [i16; L1]);

impl<const L1: usize> Half<L1> {
    pub const ZERO: Half<L1> = Half([0; L1]);
}

/// The accumulators of both perspectives (`[Black, White]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator<const L1: usize> {
    pub values: [Half<L1>; 2],
}

impl<const L1: usize> Accumulator<L1> {
    pub const ZERO: Accumulator<L1> = Accumulator {
        values: [Half::ZERO; 2],
    };
}

#[repr(C, align(64))]
struct Aligned<T>(T);

/// A hidden affine layer with `OUT` outputs, its weights chunked for the kernels:
/// `weights[(chunk * OUT + o) * 4 + k]` belongs to input `4 * chunk + k` and output `o`.
struct Hidden<const OUT: usize> {
    biases: [i32; OUT],
    /// 64-byte aligned (the kernels' loads are aligned).
    weights: LargeTable<i8>,
}

impl<const OUT: usize> Hidden<OUT> {
    /// From the file's layout: `OUT` rows of `padded(inputs)` weights. The padding is dropped (its
    /// inputs are always zero).
    fn from_rows(inputs: usize, biases: &[i32], rows: &[i8]) -> Option<Hidden<OUT>> {
        let stride = padded(inputs);
        debug_assert_eq!(rows.len(), OUT * stride);
        let mut weights = LargeTable::try_zeroed(inputs * OUT)?;
        for o in 0..OUT {
            for i in 0..inputs {
                weights[(i / 4 * OUT + o) * 4 + i % 4] = rows[o * stride + i];
            }
        }
        Some(Hidden {
            biases: std::array::from_fn(|o| biases[o]),
            weights,
        })
    }
}

/// A network of shape `L1`x2-`L2`-`L3`, ready to evaluate.
pub struct Network<const L1: usize, const L2: usize, const L3: usize> {
    transformer_biases: Box<Half<L1>>,
    /// `DIMENSIONS` rows of `L1` weights, one per feature (64 MB for the standard shape, in 2 MB
    /// pages where the system allows: the rows are read at random).
    transformer_weights: LargeTable<i16>,
    hidden1: Hidden<L2>,
    hidden2: Hidden<L3>,
    output_bias: i32,
    output_weights: [i8; L3],
    isa: Isa,
    /// A correction to the hand-written evaluation (`RawNetwork::residual`).
    residual: bool,
}

/// Why a set of parameters cannot become a network of a given shape.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("the parameters are {found}, not {expected}")]
    Mismatch {
        found: Architecture,
        expected: Architecture,
    },
    #[error("{0} is not a shape this build evaluates")]
    Unsupported(Architecture),
    #[error("not enough memory for the network's layers")]
    Memory,
}

impl<const L1: usize, const L2: usize, const L3: usize> Network<L1, L2, L3> {
    pub const ARCHITECTURE: Architecture = Architecture {
        l1: L1,
        l2: L2,
        l3: L3,
    };

    /// The network of `raw`'s parameters, using the best instruction set of this CPU.
    pub fn from_raw(raw: RawNetwork) -> Result<Network<L1, L2, L3>, ShapeError> {
        Network::from_raw_with(raw, Isa::detect())
    }

    /// As [`Network::from_raw`] with a chosen instruction set (tests compare them); a set the CPU
    /// lacks falls back to the portable one.
    pub fn from_raw_with(raw: RawNetwork, isa: Isa) -> Result<Network<L1, L2, L3>, ShapeError> {
        let expected = Self::ARCHITECTURE;
        if raw.architecture != expected {
            return Err(ShapeError::Mismatch {
                found: raw.architecture,
                expected,
            });
        }
        let fits = expected.is_runnable() && 2 * L1 / 4 <= MAX_INPUT_CHUNKS;
        if !fits {
            return Err(ShapeError::Unsupported(expected));
        }
        let isa = if Isa::supported().contains(&isa) {
            isa
        } else {
            Isa::Portable
        };
        Ok(Network {
            transformer_biases: Box::new(Half(std::array::from_fn(|j| raw.transformer_biases[j]))),
            transformer_weights: raw.transformer_weights,
            hidden1: Hidden::from_rows(2 * L1, &raw.hidden1_biases, &raw.hidden1_weights)
                .ok_or(ShapeError::Memory)?,
            hidden2: Hidden::from_rows(L2, &raw.hidden2_biases, &raw.hidden2_weights)
                .ok_or(ShapeError::Memory)?,
            output_bias: raw.output_bias,
            output_weights: std::array::from_fn(|i| raw.output_weights[i]),
            isa,
            residual: raw.residual,
        })
    }

    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Whether the evaluation is the hand-written one plus this network's.
    pub fn residual(&self) -> bool {
        self.residual
    }

    #[inline(always)]
    fn row(&self, feature: u32) -> &[i16; L1] {
        let start = feature as usize * L1;
        let row = &self.transformer_weights[start..start + L1];
        row.try_into().expect("a row is L1 long")
    }

    /// `perspective`'s accumulator computed from scratch: the biases plus the rows of its active
    /// features. `king` is the perspective's king bucket ([`features::king_bucket`]).
    pub fn refresh(&self, pos: &Position, perspective: Color, king: u32, out: &mut Half<L1>) {
        let active = features::active_features(pos, perspective, king);
        self.update(&self.transformer_biases, out, &[], active.as_slice());
    }

    /// `out = from - (rows of removed) + (rows of added)`, in wrapping int16 arithmetic.
    #[inline]
    pub fn update(&self, from: &Half<L1>, out: &mut Half<L1>, removed: &[u32], added: &[u32]) {
        // The kernels read rows unchecked: a bad index would read outside the table.
        assert!(
            removed
                .iter()
                .chain(added)
                .all(|&f| (f as usize) < DIMENSIONS),
            "feature index out of range"
        );
        let (from, out) = (&from.0, &mut out.0);
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // Safety: `isa` is only ever a set the CPU supports (checked in `from_raw_with`), L1 a
            // multiple of 64 (checked there too); the rows are in range (asserted above); `Half`
            // is 64-byte aligned, the table too, and each row is L1 * 2 bytes.
            Isa::Avx2 => unsafe {
                simd::x86::update_avx2(from, out, &self.transformer_weights, removed, added)
            },
            #[cfg(target_arch = "x86_64")]
            // Safety: as above.
            Isa::Avx512Vnni => unsafe {
                simd::x86::update_avx512(from, out, &self.transformer_weights, removed, added)
            },
            _ => self.update_tiled::<64>(from, out, removed, added),
        }
    }

    /// The update `TILE` values at a time, so that a tile stays in vector registers while every
    /// row is added to it (the portable path: the compiler vectorises it for the build's target).
    #[inline(always)]
    fn update_tiled<const TILE: usize>(
        &self,
        from: &[i16; L1],
        out: &mut [i16; L1],
        removed: &[u32],
        added: &[u32],
    ) {
        let tile = TILE.min(L1);
        for start in (0..L1).step_by(tile) {
            let mut acc = [0i16; TILE];
            let acc = &mut acc[..tile];
            acc.copy_from_slice(&from[start..start + tile]);
            for &f in removed {
                let row = &self.row(f)[start..start + tile];
                for (v, w) in acc.iter_mut().zip(row) {
                    *v = v.wrapping_sub(*w);
                }
            }
            for &f in added {
                let row = &self.row(f)[start..start + tile];
                for (v, w) in acc.iter_mut().zip(row) {
                    *v = v.wrapping_add(*w);
                }
            }
            out[start..start + tile].copy_from_slice(acc);
        }
    }

    /// The network's output for the side to move `stm` given both perspectives' accumulators (the
    /// raw sum; YaneuraOu's evaluation is this divided by `FV_SCALE`).
    #[inline]
    pub fn propagate(&self, acc: &Accumulator<L1>, stm: Color) -> i32 {
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // Safety: `isa` is only ever a set the CPU supports.
            Isa::Avx2 => unsafe { self.propagate_avx2(acc, stm) },
            #[cfg(target_arch = "x86_64")]
            // Safety: as above.
            Isa::Avx512Vnni => unsafe { self.propagate_vnni(acc, stm) },
            _ => self.propagate_with(
                acc,
                stm,
                simd::affine_portable::<L2>,
                simd::affine_portable::<L3>,
            ),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn propagate_avx2(&self, acc: &Accumulator<L1>, stm: Color) -> i32 {
        self.propagate_with(
            acc,
            stm,
            // Safety (both): the caller checked AVX2; L2 and L3 are multiples of 8 up to 32.
            |x, c, w, b| unsafe { simd::x86::affine_avx2::<L2>(x, c, w, b) },
            |x, c, w, b| unsafe { simd::x86::affine_avx2::<L3>(x, c, w, b) },
        )
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
    unsafe fn propagate_vnni(&self, acc: &Accumulator<L1>, stm: Color) -> i32 {
        // Layers narrower than a 16-lane register take the AVX2 kernel.
        self.propagate_with(
            acc,
            stm,
            // Safety (both): the caller checked the features; the widths match each kernel.
            |x, c, w, b| unsafe {
                if L2.is_multiple_of(16) {
                    simd::x86::affine_vnni::<L2>(x, c, w, b)
                } else {
                    simd::x86::affine_avx2::<L2>(x, c, w, b)
                }
            },
            |x, c, w, b| unsafe {
                if L3.is_multiple_of(16) {
                    simd::x86::affine_vnni::<L3>(x, c, w, b)
                } else {
                    simd::x86::affine_avx2::<L3>(x, c, w, b)
                }
            },
        )
    }

    /// The layers after the accumulator, with the affine kernels of one instruction set.
    #[inline(always)]
    fn propagate_with(
        &self,
        acc: &Accumulator<L1>,
        stm: Color,
        affine1: impl Fn(&[u8], &[u16], &[i8], &[i32; L2]) -> [i32; L2],
        affine2: impl Fn(&[u8], &[u16], &[i8], &[i32; L3]) -> [i32; L3],
    ) -> i32 {
        let mut input = Aligned([[0u8; L1]; 2]);
        for (half, perspective) in [stm, !stm].into_iter().enumerate() {
            for (x, &v) in input.0[half]
                .iter_mut()
                .zip(&acc.values[perspective.index()].0)
            {
                *x = v.clamp(0, 127) as u8;
            }
        }
        let input = input.0.as_flattened();
        let mut chunks = [0u16; MAX_INPUT_CHUNKS];
        let nonzero = simd::nonzero_chunks(input, &mut chunks);
        let h1 = clipped_relu(affine1(
            input,
            nonzero,
            &self.hidden1.weights,
            &self.hidden1.biases,
        ));
        let nonzero = simd::nonzero_chunks(&h1, &mut chunks);
        let h2 = clipped_relu(affine2(
            &h1,
            nonzero,
            &self.hidden2.weights,
            &self.hidden2.biases,
        ));
        self.output_bias
            + h2.iter()
                .zip(&self.output_weights)
                .map(|(&x, &w)| i32::from(x) * i32::from(w))
                .sum::<i32>()
    }
}

/// `clamp(x >> 6, 0, 127)`: YaneuraOu's ClippedReLU (its SIMD packs saturate to the same values).
#[inline(always)]
fn clipped_relu<const N: usize>(sums: [i32; N]) -> [u8; N] {
    sums.map(|x| (x >> super::WEIGHT_SCALE_BITS).clamp(0, 127) as u8)
}
