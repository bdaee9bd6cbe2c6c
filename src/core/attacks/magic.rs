//! Magic bitboards for the bishop and the rook.
//!
//! For a slider on square `s`, only the squares of its rays that could block it matter: the *relevant
//! mask*, its rays on an empty board without the last square of each ray (a piece there blocks
//! nothing further). The attack set is then a function of `occupied & mask`, which is mapped to a
//! dense table index by
//!
//! ```text
//! index = offset[s] + (fold(occupied & mask[s]) * magic[s]) >> (64 - bits[s])
//! ```
//!
//! where `bits[s]` is at least the number of squares in the mask (at most 14 on 9x9: a rook in a
//! corner) and at most one more (see below).
//!
//! **The fold.** A bitboard has 81 bits; the multiply wants 64. `fold(x) = lo ^ (hi << 1)` (with
//! `lo`/`hi` the low and high 64-bit halves) costs two instructions and, for every one of the 162
//! masks, sends the mask's squares to distinct bits, so it loses no information on a masked
//! occupancy (checked for every mask when the tables are built and in the tests). A shift of 1 is
//! the only one in `0..48` with that property on this geometry; a wider fold (a `u128` multiply
//! taking the top bits) would also work but costs three multiplies instead of one.
//!
//! **The magic numbers** are constants below, found offline by a deterministic seeded search
//! (`find_magics`, an ignored test in this file that prints both tables: `cargo test --release
//! find_magics -- --ignored --nocapture`; it asserts that it reproduces the constants, 31 s in the
//! test profile). A search at start-up was measured first and
//! rejected: with the index exactly as wide as the mask, the 12-bit bishop on 5e took over 5 million
//! candidates and a rook search did not finish in 100 s (far over a 50 ms start-up budget). The
//! generator tries the exact width for 300 000 candidates and then widens the index by one bit; 2
//! bishop and 21 rook squares took the wider index (rook 634 880 entries, 10 MB; bishop 25 344).
//! Start-up only fills the tables, and checks every subset of every mask while doing so: two
//! occupancies may share an index only if they give the same attack set (a *constructive*
//! collision), otherwise the build panics, so a table that builds is correct for every occupancy.
//! The fill time is printed by `cargo bench --bench attacks` (`attacks::init`): 45 ms wall clock on a
//! shared 2-core machine at load average 14 (105 ms before the fill used bit scans instead of walking
//! rays); expect a fraction of that on an idle core.

use super::super::bitboard::Bitboard;
use super::super::types::Square;
use crate::large_table::LargeTable;

/// Diagonal and orthogonal directions as (file delta, rank delta).
pub(super) const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
pub(super) const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The 81-bit masked occupancy folded to 64 bits without loss (see the module doc).
#[inline(always)]
fn fold(bb: Bitboard) -> u64 {
    let x = bb.to_u128();
    (x as u64) ^ (((x >> 64) as u64) << 1)
}

/// The index recipe of one square. 32 bytes, so two share a cache line.
#[derive(Clone, Copy)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    /// `64 - bits`.
    shift: u32,
    /// Start of this square's block in the shared attack table.
    offset: u32,
}

const _: () = assert!(std::mem::size_of::<Magic>() == 32);

impl Magic {
    const EMPTY: Magic = Magic {
        mask: Bitboard::EMPTY,
        magic: 0,
        shift: 64,
        offset: 0,
    };

    #[inline(always)]
    fn index(&self, occupied: Bitboard) -> usize {
        self.offset as usize
            + (fold(occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// The magic tables of one slider.
pub(super) struct SliderTable {
    magics: [Magic; Square::NUM],
    /// Every square's block, back to back. Entries no occupancy maps to stay empty. In 2 MB pages
    /// where the system gives them: the rook's 10 MB are probed at random by every node (check
    /// detection, evaluation, move generation), and in 4 KB pages most probes also missed the TLB.
    attacks: LargeTable<Bitboard>,
}

impl SliderTable {
    /// Attacks from `sq` given the occupancy (any squares may be set, the mask picks the relevant ones).
    #[inline(always)]
    pub(super) fn attacks(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let magic = &self.magics[sq.index()];
        self.attacks[magic.index(occupied)]
    }

    /// Builds the table for a slider moving along `directions` from its magic numbers, checking
    /// every subset of every mask: a magic with a destructive collision (two occupancies with
    /// different attacks on one index) panics here, at start-up, instead of answering wrongly later.
    pub(super) fn build(
        directions: &[(i32, i32)],
        numbers: &[(u64, u8); Square::NUM],
    ) -> SliderTable {
        let rays = Rays::new(directions);
        let mut magics = [Magic::EMPTY; Square::NUM];
        // Every block's size is known from the index widths: the table is allocated once, empty.
        let len = numbers.iter().map(|&(_, bits)| 1usize << bits).sum();
        let mut attacks: LargeTable<Bitboard> = LargeTable::try_zeroed(len)
            .unwrap_or_else(|| panic!("no memory for the {len} slider attack entries"));
        let mut offset = 0;
        let mut filled: Vec<bool> = Vec::new();
        for sq in Square::all() {
            let mask = relevant_mask(sq, directions);
            // The fold must keep every mask square distinct, or no magic could exist.
            assert_eq!(
                fold(mask).count_ones(),
                mask.count(),
                "fold loses bits of {sq}"
            );
            let (magic, bits) = numbers[sq.index()];
            let bits = u32::from(bits);
            assert!(bits >= mask.count() && bits <= 16, "index width of {sq}");
            filled.clear();
            filled.resize(1usize << bits, false);
            let entry = Magic {
                mask,
                magic,
                shift: 64 - bits,
                offset: offset as u32,
            };
            for occupied in mask.subsets() {
                let reach = rays.reach(sq, occupied);
                let i = entry.index(occupied);
                if filled[i - offset] {
                    assert_eq!(
                        attacks[i], reach,
                        "destructive collision in the magic of {sq}"
                    );
                } else {
                    filled[i - offset] = true;
                    attacks[i] = reach;
                }
            }
            magics[sq.index()] = entry;
            offset += 1usize << bits;
        }
        SliderTable { magics, attacks }
    }

    /// Number of table entries (for the tests and the size note).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.attacks.len()
    }

    #[cfg(test)]
    pub(super) fn mask(&self, sq: Square) -> Bitboard {
        self.magics[sq.index()].mask
    }
}

/// Empty-board rays per direction and square, to compute attacks for table construction by
/// finding each ray's first blocker with one bit scan. Walking the rays square by square for all
/// 660 000 table entries took most of the start-up time.
struct Rays {
    rays: [[Bitboard; Square::NUM]; 4],
    /// Whether the direction runs toward higher square indices (its first blocker is the lowest bit).
    ascending: [bool; 4],
}

impl Rays {
    fn new(directions: &[(i32, i32)]) -> Rays {
        let mut rays = [[Bitboard::EMPTY; Square::NUM]; 4];
        let mut ascending = [false; 4];
        for (d, &(df, dr)) in directions.iter().enumerate() {
            ascending[d] = 9 * df + dr > 0;
            for sq in Square::all() {
                rays[d][sq.index()] = slide(sq, &[(df, dr)], Bitboard::EMPTY);
            }
        }
        Rays { rays, ascending }
    }

    fn reach(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let mut reach = Bitboard::EMPTY;
        for (rays, &ascending) in self.rays.iter().zip(&self.ascending) {
            let ray = rays[sq.index()];
            let blockers = (occupied & ray).to_u128();
            reach |= if blockers == 0 {
                ray
            } else {
                let first = if ascending {
                    blockers.trailing_zeros()
                } else {
                    127 - blockers.leading_zeros()
                };
                // Everything past the first blocker is shadowed; the blocker itself is attacked.
                Bitboard::from_u128(ray.to_u128() & !rays[first as usize].to_u128())
            };
        }
        reach
    }
}

/// The squares along `directions` from `sq` that can block: each ray on an empty board without its
/// final square.
fn relevant_mask(sq: Square, directions: &[(i32, i32)]) -> Bitboard {
    let mut mask = Bitboard::EMPTY;
    for &(df, dr) in directions {
        let ray = slide(sq, &[(df, dr)], Bitboard::EMPTY);
        // The last square of a ray is the one farthest from `sq`; drop it.
        let mut f = sq.file() as i32 + df;
        let mut r = sq.rank() as i32 + dr;
        let mut last = None;
        while let Some(to) = Square::try_new(f, r) {
            last = Some(to);
            f += df;
            r += dr;
        }
        if let Some(last) = last {
            mask |= ray.without(last);
        }
    }
    mask
}

/// Slider attacks by walking the rays (table construction only).
fn slide(sq: Square, directions: &[(i32, i32)], occupied: Bitboard) -> Bitboard {
    let mut attacks = Bitboard::EMPTY;
    for &(df, dr) in directions {
        let mut f = sq.file() as i32 + df;
        let mut r = sq.rank() as i32 + dr;
        while let Some(to) = Square::try_new(f, r) {
            attacks.set(to);
            if occupied.contains(to) {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// Bishop magic numbers and index widths by square index (from `find_magics`).
#[rustfmt::skip]
pub(super) const BISHOP_MAGICS: [(u64, u8); Square::NUM] = [
    (0x9410_0102_0004_00a2, 7),
    (0x0a08_0404_200a_4551, 6),
    (0x2208_08c0_2850_8840, 6),
    (0xa004_0080_0841_0100, 6),
    (0x0402_0440_8420_6018, 6),
    (0x1020_80c1_0020_4000, 6),
    (0x0400_1020_8a03_0040, 6),
    (0x1420_2009_0080_4090, 6),
    (0x0200_0810_4021_8002, 7),
    (0x0440_0084_c100_2004, 6),
    (0x0088_8204_2010_2004, 6),
    (0x8048_0080_1031_9804, 6),
    (0x0004_2108_0402_0600, 6),
    (0x8002_0500_204a_0301, 6),
    (0x0110_1022_0104_4000, 6),
    (0x2c02_a060_4451_0009, 6),
    (0x8230_0040_0880_10e0, 6),
    (0x9204_0140_0820_5102, 6),
    (0xc088_00a0_4020_4020, 6),
    (0x2210_0206_0041_0402, 6),
    (0x0122_0400_4080_0c84, 8),
    (0x0424_0001_201c_0842, 8),
    (0x0004_8000_4005_0800, 8),
    (0x0101_0009_0408_0220, 8),
    (0x0800_8008_6204_0140, 8),
    (0x0800_2003_4486_4020, 6),
    (0x0c00_8000_0104_9022, 6),
    (0x0110_0181_2100_8024, 6),
    (0x0400_80c2_0842_2050, 6),
    (0x010a_0100_0402_0202, 8),
    (0xc004_1004_0402_2003, 11),
    (0x0901_0020_0000_8041, 10),
    (0x6802_4025_0020_0208, 10),
    (0x2000_8810_0208_0902, 8),
    (0x0840_1080_0048_0204, 6),
    (0x1100_8004_a004_3090, 6),
    (0x0801_0084_480a_06e0, 6),
    (0x0482_04a4_8811_c040, 6),
    (0xf300_3005_0004_4820, 8),
    (0x2200_0080_4002_0102, 10),
    (0x4150_8040_8000_0104, 13),
    (0x0860_0c28_0400_1002, 10),
    (0x0982_2006_1005_6802, 8),
    (0x0400_4108_0810_0430, 6),
    (0x0440_4104_5002_081e, 6),
    (0x4422_0045_0030_0100, 6),
    (0x0804_4220_1080_0080, 6),
    (0x2040_3241_0080_0104, 8),
    (0x0480_2800_400a_0520, 10),
    (0x8200_0400_8201_0618, 10),
    (0x0010_0800_0800_4201, 10),
    (0x0090_4044_0808_0044, 8),
    (0x3248_0100_1424_020e, 6),
    (0x1041_c008_2014_0204, 6),
    (0x4011_e081_12c1_0028, 6),
    (0x0800_1080_0821_0400, 6),
    (0x2800_8804_4203_8020, 8),
    (0x0400_0040_0b04_0200, 8),
    (0x0400_2150_8104_9000, 8),
    (0x00c0_0140_4080_3000, 8),
    (0x1060_0024_0440_4200, 8),
    (0x0602_a500_20a0_2100, 6),
    (0x4022_4381_8010_0080, 6),
    (0x8004_1085_00a0_8840, 6),
    (0x0010_2010_4008_0482, 6),
    (0x0020_2002_0840_1084, 6),
    (0x1100_8000_2410_1220, 6),
    (0x0441_2021_0f52_0810, 6),
    (0x0040_0201_1820_4408, 6),
    (0x0904_4814_90c8_c011, 6),
    (0x00e0_2040_6010_c81c, 6),
    (0x0402_0402_4304_0092, 6),
    (0x4400_5020_4042_4480, 7),
    (0x0200_00c0_2006_1008, 6),
    (0x9000_4020_2201_1004, 6),
    (0x0400_0000_0048_8410, 6),
    (0x0408_0004_0010_4084, 6),
    (0x0300_0080_c400_1825, 6),
    (0x0080_a084_8200_2081, 6),
    (0x0020_2805_0058_4012, 6),
    (0x0102_0040_4032_7006, 7),
];

/// Rook magic numbers and index widths by square index (from `find_magics`).
#[rustfmt::skip]
pub(super) const ROOK_MAGICS: [(u64, u8); Square::NUM] = [
    (0x0010_0204_0000_8101, 15),
    (0x5620_008c_0000_c140, 13),
    (0x5840_0521_0100_0080, 13),
    (0x2040_0200_1041_10c0, 13),
    (0x00c0_0082_2c80_00d0, 13),
    (0x0040_0500_0011_4408, 13),
    (0x0280_0040_1004_2008, 13),
    (0x1640_0009_2000_0e42, 13),
    (0x2040_000a_0404_0282, 14),
    (0x0208_c002_0449_0c05, 13),
    (0x8840_2002_0400_0480, 12),
    (0x9000_4800_0240_1020, 12),
    (0x8080_4000_8085_0040, 12),
    (0x0101_2000_8010_4001, 12),
    (0x0080_4001_0090_1030, 12),
    (0x0002_8001_1420_0204, 13),
    (0x1002_2010_0010_0002, 12),
    (0x0000_2000_04ac_8f82, 14),
    (0x0448_8420_0083_0101, 14),
    (0x0841_8410_0200_0100, 12),
    (0x8134_0024_0021_0010, 13),
    (0x0408_0020_0041_1022, 12),
    (0x0001_0004_1010_2020, 13),
    (0x0840_0050_0020_0110, 12),
    (0x9522_2020_0110_2008, 13),
    (0x2040_1010_0008_000c, 12),
    (0x0008_e140_8014_0002, 14),
    (0x2164_1000_0800_4485, 14),
    (0x3000_7000_0401_8080, 12),
    (0x0418_0010_4800_4180, 12),
    (0x0010_0220_1000_6040, 12),
    (0xa840_0200_1800_1810, 12),
    (0x0201_0010_0800_8810, 12),
    (0x0080_0300_1000_4808, 12),
    (0x0080_0050_1000_1004, 12),
    (0x1040_0228_0800_2192, 13),
    (0x0508_0828_0004_0047, 13),
    (0x1480_0808_0008_0041, 12),
    (0x0210_2001_0001_0010, 13),
    (0x0001_4204_0202_0010, 13),
    (0x0414_0040_8004_0009, 12),
    (0x0c00_1010_4002_0004, 12),
    (0x0080_2b00_2008_0008, 12),
    (0x0240_0340_0004_000a, 12),
    (0x0208_1010_1200_3022, 14),
    (0x0108_0808_2280_0011, 14),
    (0x1001_2800_0102_0100, 12),
    (0x0400_0202_8201_0080, 13),
    (0x1020_0601_0082_00d0, 13),
    (0x0024_0210_0080_c002, 13),
    (0x4002_0041_0010_2402, 13),
    (0x0020_0810_0180_8008, 13),
    (0x4480_0042_0080_2004, 13),
    (0x0400_8100_0208_1001, 14),
    (0x0400_04b8_0021_4201, 13),
    (0x0060_0030_0200_0143, 12),
    (0x0010_0009_0100_0601, 12),
    (0x0020_0174_0100_4804, 12),
    (0x2100_0400_8061_0024, 12),
    (0x0840_0100_0050_5003, 12),
    (0x0100_2300_4480_4404, 12),
    (0x0200_4202_8004_0808, 12),
    (0x4100_a005_04a0_0404, 13),
    (0x0100_0404_2008_0301, 13),
    (0x1320_0800_0100_0100, 12),
    (0x1080_0800_0100_410a, 12),
    (0x0080_0101_0200_8002, 12),
    (0x0240_0100_0122_4001, 12),
    (0x1100_0102_0020_414c, 12),
    (0x8100_0c80_8019_4044, 12),
    (0x8040_0040_000c_0002, 12),
    (0x04c0_0308_1000_0391, 13),
    (0x4020_2100_0100_1001, 15),
    (0x0804_1000_0100_2080, 13),
    (0x2024_a000_a200_04c0, 13),
    (0x0002_2000_4100_0420, 13),
    (0xcc00_2000_c0b0_2020, 13),
    (0x1148_e000_8000_4818, 13),
    (0x8201_2000_2000_0418, 13),
    (0x0000_6000_1000_2104, 13),
    (0x2080_2000_0216_0442, 14),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Candidates tried at one index width before widening it by a bit.
    const TRIES_PER_WIDTH: u64 = 300_000;

    /// The search that produced `BISHOP_MAGICS` and `ROOK_MAGICS` (one generator per piece, squares
    /// in index order). Candidates are the AND of three random words (about 8 bits set: sparse
    /// multipliers gather the mask bits into the top of the product far more often).
    fn search(directions: &[(i32, i32)], seed: u64) -> Vec<(u64, u8)> {
        let mut rng = Rng::new(seed);
        let mut found = Vec::new();
        for sq in Square::all() {
            let mask = relevant_mask(sq, directions);
            let cases: Vec<(u64, Bitboard)> = mask
                .subsets()
                .map(|occ| (fold(occ), slide(sq, directions, occ)))
                .collect();
            let mut bits = mask.count();
            let magic = 'widths: loop {
                let mut table = vec![Bitboard::EMPTY; 1 << bits];
                let mut stamp = vec![0u64; 1 << bits];
                for attempt in 1..=TRIES_PER_WIDTH {
                    let candidate = rng.next() & rng.next() & rng.next();
                    let fits = cases.iter().all(|&(folded, reach)| {
                        let i = (folded.wrapping_mul(candidate) >> (64 - bits)) as usize;
                        if stamp[i] != attempt {
                            stamp[i] = attempt;
                            table[i] = reach;
                            true
                        } else {
                            table[i] == reach
                        }
                    });
                    if fits {
                        break 'widths candidate;
                    }
                }
                bits += 1;
            };
            found.push((magic, bits as u8));
        }
        found
    }

    #[test]
    #[ignore = "offline generator for the magic constants (about 30 s in release)"]
    fn find_magics() {
        let bishop = search(&BISHOP_DIRECTIONS, 0x0b15_4095_0b15_4095);
        let rook = search(&ROOK_DIRECTIONS, 0x7e57_ab1e_5eed_0001);
        for (name, table) in [("BISHOP_MAGICS", &bishop), ("ROOK_MAGICS", &rook)] {
            println!("{name}:");
            for (magic, bits) in table {
                println!("    ({magic:#018x}, {bits}),");
            }
        }
        assert_eq!(bishop.as_slice(), BISHOP_MAGICS.as_slice());
        assert_eq!(rook.as_slice(), ROOK_MAGICS.as_slice());
    }

    #[test]
    fn fold_keeps_every_mask_square_distinct() {
        for directions in [&BISHOP_DIRECTIONS, &ROOK_DIRECTIONS] {
            for sq in Square::all() {
                let mask = relevant_mask(sq, directions);
                assert_eq!(fold(mask).count_ones(), mask.count(), "{sq}");
            }
        }
    }
}
