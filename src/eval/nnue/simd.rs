//! The instruction sets the network runs on, chosen once at load time with run-time detection, so
//! one binary (built for x86-64-v2) runs everywhere and uses AVX2 or AVX-512 where the CPU has them.
//!
//! Every kernel computes exactly the same integers on every path: the accumulators add in wrapping
//! int16 arithmetic (as YaneuraOu's do), the affine layers multiply unsigned 7-bit activations by
//! int8 weights into int32 sums, where no intermediate can saturate (two products are at most
//! 2 x 127 x 128 = 32,512 < 32,767). The tests compare the paths on random networks and positions.
//!
//! Shape of the code: the feature-transformer loops are plain Rust, written once and compiled per
//! instruction set by `#[target_feature]` wrappers (the compiler vectorises them at that width); the
//! affine layers, where a plain loop vectorises poorly, have an intrinsic kernel per set.

/// An instruction set the kernels are compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// What the build targets (x86-64-v2: SSE4.2), or any other architecture.
    Portable,
    /// AVX2 (Intel Haswell, AMD Zen and later).
    Avx2,
    /// AVX-512 with VNNI (Intel Ice Lake, AMD Zen 4 and later).
    Avx512Vnni,
}

impl Isa {
    /// The best set this CPU supports.
    pub fn detect() -> Isa {
        Isa::supported().into_iter().last().unwrap_or(Isa::Portable)
    }

    /// Every set this CPU supports, the portable one first.
    pub fn supported() -> Vec<Isa> {
        #[allow(unused_mut)]
        let mut sets = vec![Isa::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                sets.push(Isa::Avx2);
                if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512vnni")
                {
                    sets.push(Isa::Avx512Vnni);
                }
            }
        }
        sets
    }

    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "AVX2",
            Isa::Avx512Vnni => "AVX-512 VNNI",
        }
    }
}

/// Upper bound on a hidden affine layer's input chunks (4 bytes each): 2 x 1024 inputs.
pub const MAX_INPUT_CHUNKS: usize = 512;

/// The indices of the non-zero 4-byte chunks of `input` (most activations after the transformer
/// are zero: skipping them is what makes the first hidden layer cheap). Branch-free.
#[inline(always)]
pub fn nonzero_chunks<'a>(input: &[u8], out: &'a mut [u16; MAX_INPUT_CHUNKS]) -> &'a [u16] {
    let mut n = 0;
    for (i, chunk) in input.chunks_exact(4).enumerate() {
        out[n] = i as u16;
        n += usize::from(chunk != [0; 4]);
    }
    &out[..n]
}

/// An affine layer over chunked weights: `weights[(chunk * OUT + o) * 4 + k]` is the weight of
/// input `4 * chunk + k` for output `o`. Only the chunks listed in `chunks` are read.
#[inline(always)]
pub fn affine_portable<const OUT: usize>(
    input: &[u8],
    chunks: &[u16],
    weights: &[i8],
    biases: &[i32; OUT],
) -> [i32; OUT] {
    let mut sums = *biases;
    for &c in chunks {
        let c = usize::from(c);
        let x = &input[4 * c..4 * c + 4];
        let w = &weights[c * OUT * 4..(c + 1) * OUT * 4];
        for (o, sum) in sums.iter_mut().enumerate() {
            let w = &w[4 * o..4 * o + 4];
            *sum += i32::from(w[0]) * i32::from(x[0])
                + i32::from(w[1]) * i32::from(x[1])
                + i32::from(w[2]) * i32::from(x[2])
                + i32::from(w[3]) * i32::from(x[3]);
        }
    }
    sums
}

#[cfg(target_arch = "x86_64")]
pub mod x86 {
    //! Intrinsic kernels. Callers guarantee the CPU has the features (the network only picks a set
    //! `Isa::supported` reported), the sizes each kernel names, and 64-byte alignment of the
    //! weights and accumulators: the loads are aligned ones, which the build's x86-64-v2 tuning
    //! would otherwise split into two 16-byte halves each (measured: the compiler's own
    //! vectorisation of the accumulator update ran slower under AVX2 than the SSE build).

    use std::arch::x86_64::*;

    /// `out = from - rows(removed) + rows(added)` in wrapping int16, 16 registers (256 values)
    /// at a time when `L1` allows, else 4; `weights` holds one row of `L1` per feature.
    ///
    /// # Safety
    /// The CPU has AVX2; `L1` is a multiple of 64; `from`, `out` and `weights` are 32-byte
    /// aligned; every feature's row lies inside `weights`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn update_avx2<const L1: usize>(
        from: &[i16; L1],
        out: &mut [i16; L1],
        weights: &[i16],
        removed: &[u32],
        added: &[u32],
    ) {
        if L1.is_multiple_of(256) {
            update_tiles_avx2::<L1, 16>(from, out, weights, removed, added)
        } else {
            update_tiles_avx2::<L1, 4>(from, out, weights, removed, added)
        }
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn update_tiles_avx2<const L1: usize, const REGS: usize>(
        from: &[i16; L1],
        out: &mut [i16; L1],
        weights: &[i16],
        removed: &[u32],
        added: &[u32],
    ) {
        let w = weights.as_ptr();
        for base in (0..L1).step_by(REGS * 16) {
            let mut acc = [_mm256_setzero_si256(); REGS];
            for (r, a) in acc.iter_mut().enumerate() {
                *a = _mm256_load_si256(from.as_ptr().add(base + 16 * r).cast());
            }
            for &f in removed {
                let row = w.add(f as usize * L1 + base);
                for (r, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_sub_epi16(*a, _mm256_load_si256(row.add(16 * r).cast()));
                }
            }
            for &f in added {
                let row = w.add(f as usize * L1 + base);
                for (r, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_add_epi16(*a, _mm256_load_si256(row.add(16 * r).cast()));
                }
            }
            for (r, a) in acc.iter().enumerate() {
                _mm256_store_si256(out.as_mut_ptr().add(base + 16 * r).cast(), *a);
            }
        }
    }

    /// As [`update_avx2`], 32 values a register, 8 registers a tile.
    ///
    /// # Safety
    /// The CPU has AVX-512 F/BW; `L1` is a multiple of 64; `from`, `out` and `weights` are
    /// 64-byte aligned; every feature's row lies inside `weights`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    pub unsafe fn update_avx512<const L1: usize>(
        from: &[i16; L1],
        out: &mut [i16; L1],
        weights: &[i16],
        removed: &[u32],
        added: &[u32],
    ) {
        if L1.is_multiple_of(256) {
            update_tiles_avx512::<L1, 8>(from, out, weights, removed, added)
        } else {
            update_tiles_avx512::<L1, 2>(from, out, weights, removed, added)
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn update_tiles_avx512<const L1: usize, const REGS: usize>(
        from: &[i16; L1],
        out: &mut [i16; L1],
        weights: &[i16],
        removed: &[u32],
        added: &[u32],
    ) {
        let w = weights.as_ptr();
        for base in (0..L1).step_by(REGS * 32) {
            let mut acc = [_mm512_setzero_si512(); REGS];
            for (r, a) in acc.iter_mut().enumerate() {
                *a = _mm512_load_si512(from.as_ptr().add(base + 32 * r).cast());
            }
            for &f in removed {
                let row = w.add(f as usize * L1 + base);
                for (r, a) in acc.iter_mut().enumerate() {
                    *a = _mm512_sub_epi16(*a, _mm512_load_si512(row.add(32 * r).cast()));
                }
            }
            for &f in added {
                let row = w.add(f as usize * L1 + base);
                for (r, a) in acc.iter_mut().enumerate() {
                    *a = _mm512_add_epi16(*a, _mm512_load_si512(row.add(32 * r).cast()));
                }
            }
            for (r, a) in acc.iter().enumerate() {
                _mm512_store_si512(out.as_mut_ptr().add(base + 32 * r).cast(), *a);
            }
        }
    }

    /// AVX2: per chunk, the four input bytes broadcast against 8 outputs' 4 weights per register;
    /// `maddubs` then `madd` with ones sum the four products into each output's int32 lane.
    ///
    /// # Safety
    /// The CPU has AVX2; `OUT` is a multiple of 8 up to 32; `weights` is 32-byte aligned and holds
    /// `input.len() / 4` chunks of `OUT * 4`; every index in `chunks` is below `input.len() / 4`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn affine_avx2<const OUT: usize>(
        input: &[u8],
        chunks: &[u16],
        weights: &[i8],
        biases: &[i32; OUT],
    ) -> [i32; OUT] {
        debug_assert!(OUT.is_multiple_of(8) && OUT <= 32);
        debug_assert!(weights.len() >= input.len() / 4 * OUT * 4);
        let regs = OUT / 8;
        let ones = _mm256_set1_epi16(1);
        let mut acc = [_mm256_setzero_si256(); 4];
        for (r, a) in acc.iter_mut().enumerate().take(regs) {
            *a = _mm256_loadu_si256(biases.as_ptr().add(8 * r).cast());
        }
        let w = weights.as_ptr();
        let x = input.as_ptr();
        for &c in chunks {
            let c = usize::from(c);
            let broadcast = _mm256_set1_epi32(x.add(4 * c).cast::<i32>().read_unaligned());
            let block = w.add(c * OUT * 4);
            for (r, a) in acc.iter_mut().enumerate().take(regs) {
                let wv = _mm256_load_si256(block.add(32 * r).cast());
                let pairs = _mm256_maddubs_epi16(broadcast, wv);
                *a = _mm256_add_epi32(*a, _mm256_madd_epi16(pairs, ones));
            }
        }
        let mut out = [0i32; OUT];
        for (r, a) in acc.iter().enumerate().take(regs) {
            _mm256_storeu_si256(out.as_mut_ptr().add(8 * r).cast(), *a);
        }
        out
    }

    /// AVX-512 VNNI: `vpdpbusd` does the four multiplies and the sum in one instruction, 16
    /// outputs per register.
    ///
    /// # Safety
    /// The CPU has AVX-512 F/BW/VL/VNNI; `OUT` is a multiple of 16 up to 32; `weights` is 64-byte
    /// aligned; `weights` and `chunks` otherwise as for [`affine_avx2`].
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni")]
    #[inline]
    pub unsafe fn affine_vnni<const OUT: usize>(
        input: &[u8],
        chunks: &[u16],
        weights: &[i8],
        biases: &[i32; OUT],
    ) -> [i32; OUT] {
        debug_assert!(OUT.is_multiple_of(16) && OUT <= 32);
        debug_assert!(weights.len() >= input.len() / 4 * OUT * 4);
        let regs = OUT / 16;
        let mut acc = [_mm512_setzero_si512(); 2];
        for (r, a) in acc.iter_mut().enumerate().take(regs) {
            *a = _mm512_loadu_si512(biases.as_ptr().add(16 * r).cast());
        }
        let w = weights.as_ptr();
        let x = input.as_ptr();
        for &c in chunks {
            let c = usize::from(c);
            let broadcast = _mm512_set1_epi32(x.add(4 * c).cast::<i32>().read_unaligned());
            let block = w.add(c * OUT * 4);
            for (r, a) in acc.iter_mut().enumerate().take(regs) {
                let wv = _mm512_load_si512(block.add(64 * r).cast());
                *a = _mm512_dpbusd_epi32(*a, broadcast, wv);
            }
        }
        let mut out = [0i32; OUT];
        for (r, a) in acc.iter().enumerate().take(regs) {
            _mm512_storeu_si512(out.as_mut_ptr().add(16 * r).cast(), *a);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonzero_chunks_lists_exactly_the_nonzero_ones() {
        let mut input = [0u8; 64];
        input[0] = 1;
        input[7] = 3;
        input[63] = 127;
        let mut buf = [0; MAX_INPUT_CHUNKS];
        assert_eq!(nonzero_chunks(&input, &mut buf), &[0, 1, 15]);
    }

    /// Each kernel against a plain dot product, on random inputs that reach the extremes.
    #[test]
    fn affine_kernels_compute_the_plain_sums() {
        let mut rng = crate::rng::Rng::new(3);
        const OUT: usize = 32;
        let inputs = 96;
        for _ in 0..50 {
            let input: Vec<u8> = (0..inputs)
                .map(|_| match rng.below(4) {
                    0 | 1 => 0,
                    2 => 127,
                    _ => rng.below(128) as u8,
                })
                .collect();
            let plain: Vec<Vec<i8>> = (0..OUT)
                .map(|_| (0..inputs).map(|_| rng.next() as i8).collect())
                .collect();
            let biases: [i32; OUT] = std::array::from_fn(|_| rng.next() as i32 >> 12);
            let mut chunked = vec![0i8; inputs * OUT];
            for c in 0..inputs / 4 {
                for o in 0..OUT {
                    for k in 0..4 {
                        chunked[(c * OUT + o) * 4 + k] = plain[o][4 * c + k];
                    }
                }
            }
            let expected: [i32; OUT] = std::array::from_fn(|o| {
                biases[o]
                    + (0..inputs)
                        .map(|i| i32::from(plain[o][i]) * i32::from(input[i]))
                        .sum::<i32>()
            });
            let mut buf = [0; MAX_INPUT_CHUNKS];
            let chunks = nonzero_chunks(&input, &mut buf);
            assert_eq!(affine_portable(&input, chunks, &chunked, &biases), expected);
            #[cfg(target_arch = "x86_64")]
            for isa in Isa::supported() {
                // Safety: only sets the CPU reported.
                let got = unsafe {
                    match isa {
                        Isa::Portable => continue,
                        Isa::Avx2 => x86::affine_avx2(&input, chunks, &chunked, &biases),
                        Isa::Avx512Vnni => x86::affine_vnni(&input, chunks, &chunked, &biases),
                    }
                };
                assert_eq!(got, expected, "{isa:?}");
            }
        }
    }
}
