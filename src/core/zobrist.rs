//! Zobrist keys, generated at compile time from a fixed seed so every build and every thread agrees.
//!
//! The full key of a position is `board_key ^ hand_key`:
//! - `board_key` xors one key per (piece, square) plus [`SIDE`] when White is to move;
//! - `hand_key` is a *sum* of `count * HAND[color][kind]` (wrapping). Adding one piece to a hand adds
//!   one key, so the update is one add or subtract, and two positions with the same board but
//!   different hands share `board_key`: repetition detection and hand superiority (the mate solver's
//!   "same board, more in hand" test) look at `board_key` first and then compare the [`Hand`]s.
//!
//! [`Hand`]: super::types::Hand

use super::types::{Color, HandKind, Piece, Square};

/// splitmix64: a tiny generator with good bit mixing, usable in `const fn`.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    psq: [[u64; Square::NUM]; Piece::NUM],
    hand: [[u64; HandKind::NUM]; Color::NUM],
    side: u64,
}

const KEYS: Keys = {
    let mut state = 0x746f_6b69_6e5f_7a62; // "tokin_zb"
    let mut psq = [[0u64; Square::NUM]; Piece::NUM];
    let mut p = 0;
    while p < Piece::NUM {
        let mut s = 0;
        while s < Square::NUM {
            let (next, key) = splitmix64(state);
            state = next;
            psq[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    let mut hand = [[0u64; HandKind::NUM]; Color::NUM];
    let mut c = 0;
    while c < Color::NUM {
        let mut k = 0;
        while k < HandKind::NUM {
            let (next, key) = splitmix64(state);
            state = next;
            hand[c][k] = key;
            k += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix64(state);
    Keys { psq, hand, side }
};

/// Xored into `board_key` when White is to move.
pub const SIDE: u64 = KEYS.side;

/// The key of `piece` standing on `sq` (xored into `board_key`).
#[inline]
pub fn psq(piece: Piece, sq: Square) -> u64 {
    KEYS.psq[piece.index()][sq.index()]
}

/// The key of one piece of `kind` in `color`'s hand (added to `hand_key` once per piece held).
#[inline]
pub fn hand(color: Color, kind: HandKind) -> u64 {
    KEYS.hand[color.index()][kind.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::types::PieceKind;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.psq.iter().flatten().copied().collect();
        all.extend(KEYS.hand.iter().flatten());
        all.push(SIDE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert_ne!(
            psq(Piece::new(Color::Black, PieceKind::Pawn), Square::new(0, 0)),
            0
        );
    }
}
