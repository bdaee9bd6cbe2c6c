//! Board geometry the evaluator needs: where a square lies relative to a king, ranks seen from each
//! side.

use crate::core::{Color, Square, Variant};

/// Length of a king-offset table: `FILE_OFFSETS` file distances times `RANK_OFFSETS` rank steps.
pub const KING_OFFSETS: usize = FILE_OFFSETS * RANK_OFFSETS;
/// File distance from a king, 0..=8 (left and right are mirror images).
pub const FILE_OFFSETS: usize = 9;
/// Rank step from a king, -8..=8, counted forward in the piece owner's direction.
pub const RANK_OFFSETS: usize = 17;

/// The index of `sq` in a king-offset table for a piece of `owner` and a king on `king` (either
/// king): `file distance * RANK_OFFSETS + (rank step + 8)`, where the rank step is positive when
/// `sq` lies ahead of the king as `owner` moves. Built at compile time for both owners, every king
/// square and every square: the piece loop fetches one row per king and pays one byte load per piece.
static KING_OFFSET: [[[u8; 81]; 81]; 2] = {
    let mut table = [[[0u8; 81]; 81]; 2];
    let mut owner = 0;
    while owner < 2 {
        let mut king = 0;
        while king < 81 {
            let mut sq = 0;
            while sq < 81 {
                let df = (sq / 9) as i32 - (king / 9) as i32;
                let df = if df < 0 { -df } else { df };
                // Black (owner 0) moves toward rank index 0.
                let step = (sq % 9) as i32 - (king % 9) as i32;
                let forward = if owner == 0 { -step } else { step };
                table[owner][king][sq] = (df * RANK_OFFSETS as i32 + forward + 8) as u8;
                sq += 1;
            }
            king += 1;
        }
        owner += 1;
    }
    table
};

/// The king-offset index of every square, for pieces of `owner` and a king on `king`.
#[inline]
pub fn king_offsets(owner: Color, king: Square) -> &'static [u8; 81] {
    &KING_OFFSET[owner.index()][king.index()]
}

/// `[board][color][square]`: how far the square is advanced from `color`'s own back rank, on the
/// 9-rank board (0) and the 8-rank Heian boards (1), so the piece loop pays one byte load.
static ADVANCE: [[[u8; 81]; 2]; 2] = {
    let mut table = [[[0u8; 81]; 2]; 2];
    let mut board = 0;
    while board < 2 {
        let ranks = 9 - board;
        let mut sq = 0;
        while sq < 81 {
            let rank = sq % 9;
            // Black's back rank is the board's last rank; squares beyond an 8-rank board are never
            // looked up (no piece stands there), so their entries are only kept in range.
            table[board][0][sq] = if rank < ranks {
                (ranks - 1 - rank) as u8
            } else {
                0
            };
            table[board][1][sq] = rank as u8;
            sq += 1;
        }
        board += 1;
    }
    table
};

/// How far each square is advanced from `color`'s own back rank: 0 on the own back rank,
/// `ranks - 1` on the far one. Works on the shorter Heian boards, where White's back rank is not
/// rank `i`.
#[inline]
pub fn advance_row(variant: Variant, color: Color) -> &'static [u8; 81] {
    let board = usize::from(variant.ranks() == 8);
    &ADVANCE[board][color.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_offsets_and_advance() {
        let sq = |s: &str| Square::from_usi(s).unwrap();
        let offset = |owner: Color, king: &str, s: &str| {
            let i = king_offsets(owner, sq(king))[sq(s).index()] as usize;
            (i / RANK_OFFSETS, i as i32 % RANK_OFFSETS as i32 - 8)
        };
        assert_eq!(offset(Color::Black, "5e", "5e"), (0, 0));
        // 3d is two files from 5e and one rank ahead for Black, one behind for White.
        assert_eq!(offset(Color::Black, "5e", "3d"), (2, 1));
        assert_eq!(offset(Color::White, "5e", "3d"), (2, -1));
        assert_eq!(offset(Color::Black, "9i", "1a"), (8, 8));
        assert_eq!(offset(Color::White, "9i", "1a"), (8, -8));
        // Turning the board round swaps owners and keeps the offset.
        assert_eq!(
            offset(Color::White, "5a", "6c"),
            offset(Color::Black, "5i", "4g")
        );
        let advance = |v: Variant, c: Color, s: &str| advance_row(v, c)[sq(s).index()];
        assert_eq!(advance(Variant::Shogi, Color::Black, "5i"), 0);
        assert_eq!(advance(Variant::Shogi, Color::Black, "5a"), 8);
        assert_eq!(advance(Variant::Shogi, Color::White, "5i"), 8);
        assert_eq!(advance(Variant::Heian, Color::Black, "5h"), 0);
        assert_eq!(advance(Variant::Heian, Color::Black, "5a"), 7);
        assert_eq!(advance(Variant::Heian, Color::White, "5a"), 0);
        assert_eq!(advance(Variant::Heian, Color::White, "5h"), 7);
        assert_eq!(advance(Variant::Heian8, Color::Black, "4h"), 0);
        assert_eq!(advance(Variant::Heian8, Color::White, "4h"), 7);
    }
}
