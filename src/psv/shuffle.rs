//! Splitting records into training and validation parts, and shuffling them: for `tokin shuffle`,
//! which prepares files for trainers that read in file order (nnue-pytorch's loader reads a file
//! front to back, so a file straight from `gensfen` would feed it one game at a time), and for
//! `tokin learn`'s own held-out part.

use crate::psv::PackedRecord;
use crate::rng::Rng;

/// Records go to one side of a split in blocks of this many consecutive ones: `gensfen` writes a
/// game's positions together, and one game's positions on both sides would flatter the
/// validation loss (neighbouring positions are nearly the same example).
pub const SPLIT_BLOCK: usize = 256;

/// Draws, block by block, whether a block is held out for validation; seeded, so the same data,
/// fraction and seed give the same split.
pub struct BlockSplit {
    rng: Rng,
    fraction: f64,
}

impl BlockSplit {
    pub fn new(fraction: f64, seed: u64) -> BlockSplit {
        BlockSplit {
            rng: Rng::new(seed ^ 0x5EED_0F5B_1700),
            fraction,
        }
    }

    /// Whether the next block is held out.
    pub fn held_out(&mut self) -> bool {
        let draw = (self.rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        draw < self.fraction
    }
}

/// A uniform random permutation in place (Fisher-Yates), from `rng`.
pub fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

/// Splits `records` by [`BlockSplit`] and shuffles each part: returns (training, validation).
pub fn split_and_shuffle(
    records: Vec<PackedRecord>,
    validation: f64,
    seed: u64,
) -> (Vec<PackedRecord>, Vec<PackedRecord>) {
    let mut split = BlockSplit::new(validation, seed);
    let (mut train, mut held) = (Vec::with_capacity(records.len()), Vec::new());
    for block in records.chunks(SPLIT_BLOCK) {
        if split.held_out() {
            held.extend_from_slice(block);
        } else {
            train.extend_from_slice(block);
        }
    }
    let mut rng = Rng::new(seed ^ 0x05A1_F1E5_0000);
    shuffle(&mut train, &mut rng);
    shuffle(&mut held, &mut rng);
    (train, held)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::psv::RECORD_BYTES;

    /// Record `i` carries `i` in its first four bytes, so a permutation can be checked.
    fn numbered(n: u32) -> Vec<PackedRecord> {
        (0..n)
            .map(|i| {
                let mut bytes = [0u8; RECORD_BYTES];
                bytes[..4].copy_from_slice(&i.to_le_bytes());
                PackedRecord(bytes)
            })
            .collect()
    }

    fn number(r: &PackedRecord) -> u32 {
        u32::from_le_bytes([r.0[0], r.0[1], r.0[2], r.0[3]])
    }

    #[test]
    fn the_parts_are_a_permutation_held_out_by_whole_blocks() {
        let n = 100 * SPLIT_BLOCK as u32 + 17;
        let (train, held) = split_and_shuffle(numbered(n), 0.1, 7);
        let mut all: Vec<u32> = train.iter().chain(&held).map(number).collect();
        all.sort_unstable();
        assert_eq!(all, (0..n).collect::<Vec<_>>());
        // Whole blocks: every block's records are all on one side.
        let mut side = std::collections::HashMap::new();
        for (r, held_out) in train
            .iter()
            .map(|r| (r, false))
            .chain(held.iter().map(|r| (r, true)))
        {
            let block = number(r) as usize / SPLIT_BLOCK;
            assert_eq!(
                *side.entry(block).or_insert(held_out),
                held_out,
                "block {block} split"
            );
        }
        // About a tenth held out (101 blocks: 3 to 25 is far outside chance's reach).
        let held_blocks = side.values().filter(|&&h| h).count();
        assert!(
            (3..=25).contains(&held_blocks),
            "{held_blocks} blocks held out"
        );
        // Shuffled: the training part is not in file order.
        let in_order = train
            .windows(2)
            .filter(|w| number(&w[0]) < number(&w[1]))
            .count();
        assert!(
            in_order < train.len() * 6 / 10,
            "{in_order} of {} in order",
            train.len()
        );
    }

    #[test]
    fn a_seed_gives_the_same_parts_and_another_seed_others() {
        let parts = |seed| {
            let (t, h) = split_and_shuffle(numbered(5000), 0.2, seed);
            (
                t.iter().map(number).collect::<Vec<_>>(),
                h.iter().map(number).collect::<Vec<_>>(),
            )
        };
        assert_eq!(parts(3), parts(3));
        assert_ne!(parts(3), parts(4));
    }

    #[test]
    fn no_validation_keeps_everything_for_training() {
        let (train, held) = split_and_shuffle(numbered(1000), 0.0, 1);
        assert_eq!((train.len(), held.len()), (1000, 0));
    }
}
