//! A set of squares of the 9x9 grid.

use super::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit `i` of the `u128` is the square with index `i` (see [`Square`]).
///
/// Invariant: bits 81..128 are always zero. Every operation that could set them (`Not`, shifts)
/// masks them off, so equality and `is_empty` can compare the raw word.
///
/// Why `u128` rather than apery's `[u64; 2]` split 63/18: the compiler lowers u128 and/or/xor/shift
/// to two 64-bit operations anyway, popcount and trailing-zeros stay branch-light, and the code reads
/// as plain integer arithmetic. A file is nine consecutive bits, so file masks and lance rays are
/// contiguous.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(u128);

// Safety: a `u128`; zero bits are the empty set. (The slider attack tables live in a `LargeTable`.)
unsafe impl crate::large_table::Zeroable for Bitboard {}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard((1u128 << 81) - 1);

    /// Builds from a raw word; bits at 81 and above are dropped to keep the invariant.
    #[inline]
    pub const fn from_u128(bits: u128) -> Bitboard {
        Bitboard(bits & Bitboard::ALL.0)
    }

    #[inline]
    pub const fn to_u128(self) -> u128 {
        self.0
    }

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// The nine squares of a file (`file_index` 0 is USI file 1).
    #[inline]
    pub const fn file(file_index: u8) -> Bitboard {
        Bitboard(0x1ffu128 << (9 * file_index as u32))
    }

    /// The nine squares of a rank (`rank_index` 0 is USI rank `a`).
    #[inline]
    pub const fn rank(rank_index: u8) -> Bitboard {
        // One bit per file at the same offset within each 9-bit file.
        let mut bits = 0u128;
        let mut f = 0;
        while f < 9 {
            bits |= 1u128 << (9 * f + rank_index as u32);
            f += 1;
        }
        Bitboard(bits)
    }

    /// The ranks `first..=last` (rank indices), all files.
    pub const fn ranks(first: u8, last: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut r = first;
        while r <= last {
            bits |= Bitboard::rank(r).0;
            r += 1;
        }
        Bitboard(bits)
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u128 << sq.index();
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest-index square, if any.
    #[inline]
    pub const fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The only square of a one-square set (`None` when empty or when several are set).
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.has_more_than_one() {
            None
        } else {
            self.lsb()
        }
    }

    /// Removes and returns the lowest-index square.
    #[inline]
    pub fn pop_lsb(&mut self) -> Option<Square> {
        let sq = self.lsb()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    /// Shifts every square one rank toward rank `a` (Black's forward direction). Squares on rank `a`
    /// fall off rather than wrapping into the neighbouring file.
    #[inline]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::rank(0).0) >> 1)
    }

    /// Shifts every square one rank toward rank `i` (White's forward direction). Squares on rank `i`
    /// fall off rather than wrapping.
    #[inline]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::rank(8).0) << 1)
    }

    /// A set of whole files: every file that holds at least one square of `self`.
    pub fn files_occupied(self) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for f in 0..9 {
            let file = Bitboard::file(f);
            if (self & file).is_nonempty() {
                out |= file;
            }
        }
        out
    }

    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter {
            lo: self.0 as u64,
            hi: (self.0 >> 64) as u64,
        }
    }

    /// Every subset of `self` (the carry-rippler enumeration), for building slider tables.
    pub fn subsets(self) -> impl Iterator<Item = Bitboard> {
        let mask = self.0;
        let mut subset: u128 = 0;
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let current = subset;
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                done = true;
            }
            Some(Bitboard(current))
        })
    }
}

/// Iterates the squares of a bitboard in index order.
///
/// Holds the two 64-bit halves apart: each step is then a 64-bit test, bit scan and clear instead
/// of their `u128` forms (two words each, with carries). Startpos perft(4) under callgrind:
/// 158.8 M -> 154.7 M instructions.
pub struct BitboardIter {
    lo: u64,
    hi: u64,
}

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let index = if self.lo != 0 {
            let i = self.lo.trailing_zeros();
            self.lo &= self.lo - 1;
            i
        } else if self.hi != 0 {
            let i = self.hi.trailing_zeros();
            self.hi &= self.hi - 1;
            64 + i
        } else {
            return None;
        };
        Some(Square::from_index_unchecked(index as u8))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.lo.count_ones() + self.hi.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline]
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.set(sq);
        }
        bb
    }
}

macro_rules! impl_bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

impl_bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
impl_bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
impl_bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl std::fmt::Debug for Bitboard {
    /// Nine rows, rank `a` first, file 9 on the left, as a player sees the board from Black's side.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in 0..9 {
            for file in (0..9).rev() {
                let c = if self.contains(Square::new(file, rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_cover_the_board() {
        let mut files = Bitboard::EMPTY;
        let mut ranks = Bitboard::EMPTY;
        for i in 0..9 {
            assert_eq!(Bitboard::file(i).count(), 9);
            assert_eq!(Bitboard::rank(i).count(), 9);
            files |= Bitboard::file(i);
            ranks |= Bitboard::rank(i);
        }
        assert_eq!(files, Bitboard::ALL);
        assert_eq!(ranks, Bitboard::ALL);
        assert_eq!((!Bitboard::EMPTY), Bitboard::ALL);
        assert_eq!(Bitboard::ranks(0, 2).count(), 27);
    }

    #[test]
    fn shifts_do_not_wrap_between_files() {
        let top = Bitboard::rank(0);
        assert!(top.shift_up().is_empty());
        assert!(Bitboard::rank(8).shift_down().is_empty());
        let sq = Square::new(4, 4);
        assert_eq!(
            Bitboard::from_square(sq).shift_up(),
            Bitboard::from_square(Square::new(4, 3))
        );
        assert_eq!(
            Bitboard::from_square(sq).shift_down(),
            Bitboard::from_square(Square::new(4, 5))
        );
    }

    #[test]
    fn iteration_and_subsets() {
        let bb: Bitboard = [Square::new(0, 0), Square::new(8, 8), Square::new(3, 5)]
            .into_iter()
            .collect();
        assert_eq!(bb.count(), 3);
        assert_eq!(bb.iter().len(), 3);
        assert_eq!(bb.iter().collect::<Vec<_>>().len(), 3);
        assert_eq!(bb.subsets().count(), 8);
        assert!(bb.has_more_than_one());
        assert_eq!(
            Bitboard::from_square(Square::new(2, 2)).single(),
            Some(Square::new(2, 2))
        );
    }
}
