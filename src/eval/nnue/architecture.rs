//! The shape of a HalfKP network and everything the file format derives from it: the layer sizes,
//! the section sizes, the hash words and the description string YaneuraOu writes.
//!
//! The network is `HalfKP(Friend)[125388 -> L1 x 2] -> L2 -> L3 -> 1`: a feature transformer per
//! perspective, its two halves concatenated (side to move first), then two hidden affine layers with
//! clipped ReLU and one output. The standard file ("nn.bin" of the Suisho, tanuki- and Hao
//! families) is `256x2-32-32`. Hash formulas are those of YaneuraOu's layer templates
//! (`eval/nnue/layers/*.h`, `features/half_kp.h`, `nnue_feature_transformer.h`).

use super::features::DIMENSIONS;
use std::fmt;

/// `kVersion` of YaneuraOu's `nnue_common.h`: the first word of every file.
pub const FILE_VERSION: u32 = 0x7AF3_2F16;

/// Hidden-layer inputs are padded to a multiple of this many bytes (`kMaxSimdWidth`), in the file
/// as in memory.
pub const INPUT_PADDING: usize = 32;

/// Rounds `n` up to the layers' input padding.
pub const fn padded(n: usize) -> usize {
    n.div_ceil(INPUT_PADDING) * INPUT_PADDING
}

/// The sizes of a HalfKP network's layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    /// Feature transformer outputs per perspective.
    pub l1: usize,
    /// First hidden layer.
    pub l2: usize,
    /// Second hidden layer.
    pub l3: usize,
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HalfKP {}x2-{}-{}", self.l1, self.l2, self.l3)
    }
}

impl std::str::FromStr for Architecture {
    type Err = String;

    /// `256x2-32-32` (the `HalfKP ` prefix optional).
    fn from_str(text: &str) -> Result<Architecture, String> {
        let bad = || format!("'{text}' is not a shape like 256x2-32-32");
        let body = text.trim().trim_start_matches("HalfKP").trim();
        let (l1, rest) = body.split_once("x2-").ok_or_else(bad)?;
        let (l2, l3) = rest.split_once('-').ok_or_else(bad)?;
        let number = |s: &str| s.parse::<usize>().map_err(|_| bad());
        Ok(Architecture {
            l1: number(l1)?,
            l2: number(l2)?,
            l3: number(l3)?,
        })
    }
}

/// `HalfKP<Side::kFriend>::kHashValue`.
const HALF_KP_FRIEND_HASH: u32 = 0x5D69_D5B9 ^ 1;

const fn affine_hash(outputs: usize, previous: u32) -> u32 {
    let mut h = 0xCC03_DAE4u32.wrapping_add(outputs as u32);
    h ^= previous >> 1;
    h ^= previous << 31;
    h
}

const fn clipped_relu_hash(previous: u32) -> u32 {
    0x538D_24C7u32.wrapping_add(previous)
}

impl Architecture {
    /// The standard network of the field: HalfKP 256x2-32-32 (64,217,066 bytes).
    pub const STANDARD: Architecture = Architecture {
        l1: 256,
        l2: 32,
        l3: 32,
    };

    /// Whether the engine's kernels evaluate this shape: `l1` a multiple of 64 up to 1024, `l2`
    /// and `l3` multiples of 8 up to 32.
    pub const fn is_runnable(&self) -> bool {
        self.l1 > 0
            && self.l1.is_multiple_of(64)
            && self.l1 <= 1024
            && self.l2 > 0
            && self.l2.is_multiple_of(8)
            && self.l2 <= 32
            && self.l3 > 0
            && self.l3.is_multiple_of(8)
            && self.l3 <= 32
    }

    /// Hash word of the feature transformer section.
    pub const fn transformer_hash(&self) -> u32 {
        HALF_KP_FRIEND_HASH ^ (2 * self.l1) as u32
    }

    /// Hash word of the layers section: the output layer's hash, folding in every layer below it.
    pub const fn layers_hash(&self) -> u32 {
        let input_slice = 0xEC42_E90Du32 ^ (2 * self.l1) as u32; // offset 0
        let hidden1 = clipped_relu_hash(affine_hash(self.l2, input_slice));
        let hidden2 = clipped_relu_hash(affine_hash(self.l3, hidden1));
        affine_hash(1, hidden2)
    }

    /// The header's hash word: both sections' hashes combined.
    pub const fn file_hash(&self) -> u32 {
        self.transformer_hash() ^ self.layers_hash()
    }

    /// The description YaneuraOu writes into the header (readers must not rely on it: other
    /// trainers write a fixed one).
    pub fn description(&self) -> String {
        let (l1x2, l2, l3) = (2 * self.l1, self.l2, self.l3);
        format!(
            "Features=HalfKP(Friend)[{DIMENSIONS}->{}x2],Network=AffineTransform[1<-{l3}](\
             ClippedReLU[{l3}](AffineTransform[{l3}<-{l2}](ClippedReLU[{l2}](\
             AffineTransform[{l2}<-{l1x2}](InputSlice[{l1x2}(0:{l1x2})])))))",
            self.l1
        )
    }

    /// Bytes of the feature transformer section after its hash word: int16 biases, then int16
    /// weights feature by feature.
    pub const fn transformer_bytes(&self) -> usize {
        2 * self.l1 + 2 * self.l1 * DIMENSIONS
    }

    /// Bytes of one affine layer: int32 biases, then int8 weights output by output over the padded
    /// inputs.
    pub const fn affine_bytes(inputs: usize, outputs: usize) -> usize {
        4 * outputs + outputs * padded(inputs)
    }

    /// Bytes of the layers section after its hash word.
    pub const fn layers_bytes(&self) -> usize {
        Self::affine_bytes(2 * self.l1, self.l2)
            + Self::affine_bytes(self.l2, self.l3)
            + Self::affine_bytes(self.l3, 1)
    }

    /// The size of a file of this shape whose description is `description_len` bytes long.
    pub const fn file_size(&self, description_len: usize) -> u64 {
        (12 + description_len + 4 + self.transformer_bytes() + 4 + self.layers_bytes()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard file's figures as the field knows them: the header hash of every nn.bin of
    /// the Suisho / tanuki- families, and the file size.
    #[test]
    fn standard_network_hash_and_size() {
        let a = Architecture::STANDARD;
        assert_eq!(a.transformer_hash(), 0x5D69_D7B8);
        assert_eq!(a.layers_hash(), 0x6333_7156);
        assert_eq!(a.file_hash(), 0x3E5A_A6EE);
        assert_eq!(a.description().len(), 178);
        assert_eq!(a.file_size(a.description().len()), 64_217_066);
    }

    #[test]
    fn shapes_read_as_they_print() {
        let a: Architecture = "256x2-32-32".parse().unwrap();
        assert_eq!(a, Architecture::STANDARD);
        assert_eq!(a.to_string().parse::<Architecture>(), Ok(a));
        assert!("256x32-32".parse::<Architecture>().is_err());
        assert!("64x2-32-x".parse::<Architecture>().is_err());
    }

    #[test]
    fn padding_rounds_up_to_32() {
        assert_eq!(padded(512), 512);
        assert_eq!(padded(32), 32);
        assert_eq!(padded(8), 32);
        assert_eq!(padded(33), 64);
    }
}
