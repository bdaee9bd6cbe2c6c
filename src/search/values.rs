//! The evaluation as the search sees it: piece values for SEE / move ordering and the static
//! evaluation of a position.
//!
//! TEMPORARY: until the `eval` module lands this is plain material (board + hand). Everything the
//! search needs goes through these three functions, so switching to `crate::eval` is one edit here.

use super::score::EVAL_MAX;
use crate::core::{Color, HandKind, PieceKind, Position};

/// Board value by `PieceKind` index (P L N S B R G K +P +L +N +S +B +R). The king's value only
/// matters to SEE, where it must exceed everything else.
const BOARD: [i32; PieceKind::NUM] = [
    90, 315, 405, 495, 855, 990, 540, 15_000, 540, 540, 540, 540, 945, 1395,
];
/// In hand a piece is worth a little more than on the board: it can go anywhere.
const HAND: [i32; HandKind::NUM] = [100, 350, 450, 550, 950, 1100, 600];

#[inline]
pub fn piece_value(kind: PieceKind) -> i32 {
    BOARD[kind.index()]
}

/// Value of a piece in hand (not used by the search yet; kept beside `piece_value` for SEE of drops).
#[allow(dead_code)]
#[inline]
pub fn hand_value(kind: HandKind) -> i32 {
    HAND[kind.index()]
}

/// Static evaluation from the side to move's view, clamped clear of the mate range.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for color in Color::ALL {
        let sign = if color == pos.side_to_move() { 1 } else { -1 };
        for kind in PieceKind::ALL {
            if kind != PieceKind::King {
                score += sign * BOARD[kind.index()] * pos.pieces(color, kind).count() as i32;
            }
        }
        let hand = pos.hand(color);
        for kind in HandKind::ALL {
            score += sign * HAND[kind.index()] * hand.count(kind) as i32;
        }
    }
    score.clamp(-EVAL_MAX, EVAL_MAX)
}
