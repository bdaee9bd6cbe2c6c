//! YaneuraOu's 16-bit move (`Move16`), the move field of a training record.
//!
//! ```text
//!  15        14     13..7                        6..0
//! [promote] [drop] [from square, or drop kind]  [to square]
//! ```
//! Squares are indices in [`Square`]'s order (YaneuraOu's `SQ_11 = 0`, `SQ_12 = 1`, ...). A drop
//! stores YaneuraOu's piece type in bits 7..13: pawn 1, lance 2, knight 3, silver 4, bishop 5,
//! rook 6, gold 7 (our [`HandKind`] index plus one). 0 is `MOVE_NONE`; YaneuraOu's null, resign
//! and win moves (`0x81`, `0x102`, `0x183`) are not moves of a position and are refused here.
//! (Facts from YaneuraOu's `source/types.h`; cshogi's `move16_to_psv` converts to the same words.)

use crate::core::{HandKind, Move, Square};

const DROP: u16 = 1 << 14;
const PROMOTE: u16 = 1 << 15;

/// Why a 16-bit word is not a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Move16Error {
    #[error("move word 0 (no move)")]
    NoMove,
    #[error("move word {0:#06x} is not a move (a square above 80, a drop of no piece, a promoting drop, or from and to the same square)")]
    NotAMove(u16),
}

/// Our move as YaneuraOu's `Move16` word.
pub fn to_move16(m: Move) -> u16 {
    let to = m.to().index() as u16;
    match (m.from(), m.drop_kind()) {
        (Some(from), _) => {
            to | (from.index() as u16) << 7 | if m.is_promotion() { PROMOTE } else { 0 }
        }
        (None, Some(kind)) => to | (kind.index() as u16 + 1) << 7 | DROP,
        // Every move is a board move or a drop.
        (None, None) => to,
    }
}

/// A `Move16` word as our move: its shape only; whether it is legal is the position's to say.
pub fn from_move16(word: u16) -> Result<Move, Move16Error> {
    if word == 0 {
        return Err(Move16Error::NoMove);
    }
    let bad = Move16Error::NotAMove(word);
    let to = Square::from_index((word & 0x7f) as u8).ok_or(bad)?;
    let source = (word >> 7 & 0x7f) as usize;
    if word & DROP != 0 {
        if word & PROMOTE != 0 {
            return Err(bad);
        }
        let kind = source
            .checked_sub(1)
            .and_then(HandKind::from_index)
            .ok_or(bad)?;
        Ok(Move::drop(kind, to))
    } else {
        let from = Square::from_index(source as u8).ok_or(bad)?;
        if from == to {
            return Err(bad);
        }
        Ok(Move::normal(from, to, word & PROMOTE != 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::from_usi(s).unwrap()
    }

    #[test]
    fn words_match_yaneuraou_and_cshogi() {
        // From cshogi 1.1.0: move16_to_psv(move16(board.move_from_usi(...))).
        assert_eq!(to_move16(Move::normal(sq("7g"), sq("7f"), false)), 0x1e3b);
        assert_eq!(to_move16(Move::drop(HandKind::Pawn, sq("5e"))), 0x40a8);
        // 8h2b+: from 8h = 7 * 9 + 7 = 70, to 2b = 9 + 1 = 10.
        assert_eq!(
            to_move16(Move::normal(sq("8h"), sq("2b"), true)),
            0x8000 | 70 << 7 | 10
        );
        // G*5e: gold is YaneuraOu's piece type 7.
        assert_eq!(
            to_move16(Move::drop(HandKind::Gold, sq("5e"))),
            0x4000 | 7 << 7 | 40
        );
        assert_eq!(
            to_move16(Move::drop(HandKind::Rook, sq("1a"))),
            0x4000 | 6 << 7
        );
    }

    #[test]
    fn every_move_shape_round_trips() {
        let mut count = 0;
        for to in Square::all() {
            for from in Square::all().filter(|&f| f != to) {
                for promote in [false, true] {
                    let m = Move::normal(from, to, promote);
                    assert_eq!(from_move16(to_move16(m)), Ok(m));
                    count += 1;
                }
            }
            for kind in HandKind::ALL {
                let m = Move::drop(kind, to);
                assert_eq!(from_move16(to_move16(m)), Ok(m));
                count += 1;
            }
        }
        assert_eq!(count, 81 * 80 * 2 + 81 * 7);
    }

    #[test]
    fn words_that_are_no_moves_are_refused() {
        assert_eq!(from_move16(0), Err(Move16Error::NoMove));
        for word in [
            0x81,            // YaneuraOu's MOVE_NULL: 1 to 1
            0x102,           // MOVE_RESIGN: 2 to 2
            0x183,           // MOVE_WIN: 3 to 3
            81,              // to square 81
            81 << 7,         // from square 81
            0x4000 | 40,     // a drop of piece type 0
            0x4000 | 8 << 7, // a drop of piece type 8 (king)
            0xc000 | 1 << 7, // a promoting pawn drop
        ] {
            assert_eq!(
                from_move16(word),
                Err(Move16Error::NotAMove(word)),
                "{word:#x}"
            );
        }
    }
}
