//! Board geometry the evaluator needs: distances between squares, ranks seen from each side.

use crate::core::{Bitboard, Color, Square, Variant};

/// The variant's board and promotion zones, evaluated at compile time: `Variant::board_mask` and
/// `Variant::promotion_zone` loop over ranks and files, which cost about 10% of an evaluation when
/// called per call (measured with perf on benches/eval.rs).
struct VariantMasks {
    board: Bitboard,
    /// Indexed by `Color::index()`: the three ranks that colour promotes in (the enemy camp).
    camp: [Bitboard; 2],
}

const fn masks(v: Variant) -> VariantMasks {
    VariantMasks {
        board: v.board_mask(),
        camp: [
            v.promotion_zone(Color::Black),
            v.promotion_zone(Color::White),
        ],
    }
}

static MASKS: [VariantMasks; 3] = [
    masks(Variant::Shogi),
    masks(Variant::Heian),
    masks(Variant::Heian8),
];

#[inline]
fn variant_masks(v: Variant) -> &'static VariantMasks {
    &MASKS[match v {
        Variant::Shogi => 0,
        Variant::Heian => 1,
        Variant::Heian8 => 2,
    }]
}

/// The squares that exist on the variant's board.
#[inline]
pub fn board(v: Variant) -> Bitboard {
    variant_masks(v).board
}

/// The enemy camp of `color`: where its pieces promote.
#[inline]
pub fn enemy_camp(v: Variant, color: Color) -> Bitboard {
    variant_masks(v).camp[color.index()]
}

/// Chebyshev (king-move) distance between every pair of squares of the 9x9 grid, built at compile
/// time: one byte load per lookup in the placement loop.
static DISTANCE: [[u8; 81]; 81] = {
    let mut table = [[0u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let df = (a / 9) as i32 - (b / 9) as i32;
            let dr = (a % 9) as i32 - (b % 9) as i32;
            let df = if df < 0 { -df } else { df };
            let dr = if dr < 0 { -dr } else { dr };
            table[a][b] = if df > dr { df as u8 } else { dr as u8 };
            b += 1;
        }
        a += 1;
    }
    table
};

/// Every square's king-move distance to `from`: the piece loop fetches this row once per king and
/// then pays a single byte load per piece.
#[inline]
pub fn distances_from(from: Square) -> &'static [u8; 81] {
    &DISTANCE[from.index()]
}

/// Rank index of every square, so the piece loop needs no division by nine.
static RANK: [u8; 81] = {
    let mut table = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        table[i] = (i % 9) as u8;
        i += 1;
    }
    table
};

/// How far `sq` is advanced from `color`'s own back rank: 0 on the own back rank, `ranks - 1` on the
/// far one. Works on the shorter Heian boards, where White's back rank is not rank `i`.
#[inline]
pub fn advance(variant: Variant, color: Color, sq: Square) -> usize {
    let rank = RANK[sq.index()];
    match color {
        Color::Black => (variant.ranks() - 1 - rank) as usize,
        Color::White => rank as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_advance() {
        let sq = |s: &str| Square::from_usi(s).unwrap();
        let distance = |a: &str, b: &str| distances_from(sq(a))[sq(b).index()];
        assert_eq!(distance("5e", "5e"), 0);
        assert_eq!(distance("1a", "9i"), 8);
        assert_eq!(distance("5e", "3d"), 2);
        assert_eq!(distances_from(sq("5e"))[sq("3d").index()], 2);
        assert_eq!(advance(Variant::Shogi, Color::Black, sq("5i")), 0);
        assert_eq!(advance(Variant::Shogi, Color::White, sq("5i")), 8);
        assert_eq!(advance(Variant::Heian, Color::Black, sq("5h")), 0);
        assert_eq!(advance(Variant::Heian, Color::White, sq("5a")), 0);
        assert_eq!(advance(Variant::Heian, Color::White, sq("5h")), 7);
        for v in Variant::ALL {
            assert_eq!(board(v), v.board_mask());
            for c in Color::ALL {
                assert_eq!(enemy_camp(v, c), v.promotion_zone(c));
            }
        }
    }
}
