//! Splitting records into training and validation parts, and shuffling them: for `tokin shuffle`,
//! which prepares files for trainers that read in file order (nnue-pytorch's loader reads a file
//! front to back, so a file straight from `gensfen` would feed it one game at a time), and for
//! `tokin learn`'s own held-out part.

use crate::psv::PackedRecord;
use crate::rng::Rng;

/// Records go to one side of a split in blocks of at least this many consecutive ones, each
/// extended to the end of its game: `gensfen` writes a game's positions together, and one game's
/// positions on both sides would flatter the validation loss (neighbouring positions are nearly
/// the same example, and all of them carry the game's result).
pub const SPLIT_BLOCK: usize = 256;

/// The blocks of a split: runs of at least [`SPLIT_BLOCK`] consecutive records that end where a
/// game does, told by the game ply (`plies[i]`) not rising from one record to the next. A file in
/// `gensfen`'s order is then split between games, never inside one; a shuffled file, where the
/// ply falls every other record, gets blocks of about `SPLIT_BLOCK`.
pub fn game_blocks(plies: &[u16]) -> Vec<std::ops::Range<usize>> {
    let mut blocks = Vec::with_capacity(plies.len() / SPLIT_BLOCK + 1);
    let mut start = 0;
    for i in 0..plies.len() {
        let game_ends = plies.get(i + 1).is_none_or(|&next| next <= plies[i]);
        if i + 1 - start >= SPLIT_BLOCK && game_ends {
            blocks.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < plies.len() {
        blocks.push(start..plies.len());
    }
    blocks
}

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

/// Splits `items` (whose game plies are `plies`) into training and validation by whole games
/// ([`game_blocks`]), each block held out as [`BlockSplit`] draws: returns (training, validation),
/// each in the input's order.
pub fn split_by_games<T: Clone>(
    items: &[T],
    plies: &[u16],
    validation: f64,
    seed: u64,
) -> (Vec<T>, Vec<T>) {
    debug_assert_eq!(items.len(), plies.len());
    let mut split = BlockSplit::new(validation, seed);
    let (mut train, mut held) = (Vec::with_capacity(items.len()), Vec::new());
    for block in game_blocks(plies) {
        if split.held_out() {
            held.extend_from_slice(&items[block]);
        } else {
            train.extend_from_slice(&items[block]);
        }
    }
    (train, held)
}

/// Splits `records` by [`split_by_games`] and shuffles each part: returns (training, validation).
pub fn split_and_shuffle(
    records: Vec<PackedRecord>,
    validation: f64,
    seed: u64,
) -> (Vec<PackedRecord>, Vec<PackedRecord>) {
    let plies: Vec<u16> = records.iter().map(PackedRecord::game_ply).collect();
    let (mut train, mut held) = split_by_games(&records, &plies, validation, seed);
    drop(records);
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

    /// Games of 1 to 150 records with their plies rising: every block ends where a game does,
    /// holds at least `SPLIT_BLOCK` records (the last may hold fewer), and the blocks cover
    /// every record once, in order.
    #[test]
    fn blocks_end_between_games() {
        let mut rng = Rng::new(5);
        let (mut plies, mut game_of) = (Vec::new(), Vec::new());
        for game in 0..200 {
            let (first, length) = (16 + rng.below(20) as u16, 1 + rng.below(150) as u16);
            plies.extend(first..first + length);
            game_of.extend(std::iter::repeat_n(game, usize::from(length)));
        }
        let blocks = game_blocks(&plies);
        let mut next = 0;
        for (i, block) in blocks.iter().enumerate() {
            assert_eq!(block.start, next);
            next = block.end;
            assert!(
                i + 1 == blocks.len() || block.len() >= SPLIT_BLOCK,
                "{block:?}"
            );
            if block.end < plies.len() {
                assert_ne!(
                    game_of[block.end - 1],
                    game_of[block.end],
                    "{block:?} splits a game"
                );
            }
        }
        assert_eq!(next, plies.len());
        // Not one block for everything: games are far shorter than the data.
        assert!(
            blocks.len() > plies.len() / (4 * SPLIT_BLOCK),
            "{}",
            blocks.len()
        );
        assert!(game_blocks(&[]).is_empty());
        assert_eq!(game_blocks(&[3, 4]), vec![0..2]);
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
