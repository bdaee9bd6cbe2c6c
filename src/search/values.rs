//! The evaluation as the search sees it: piece values for SEE / move ordering and the static
//! evaluation of a position. The one place the search touches `crate::eval`.

use super::score::EVAL_MAX;
use crate::core::{PieceKind, Position};

/// SEE needs a king worth more than anything it could capture (`eval` values the king 0).
const KING_EXCHANGE_VALUE: i32 = 20_000;

/// Value of a piece of `kind` standing on the board, for SEE and move ordering.
#[inline]
pub fn piece_value(kind: PieceKind) -> i32 {
    if kind == PieceKind::King {
        KING_EXCHANGE_VALUE
    } else {
        crate::eval::piece_value(kind)
    }
}

/// Static evaluation from the side to move's view, clamped clear of the mate range.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    crate::eval::evaluate(pos).clamp(-EVAL_MAX, EVAL_MAX)
}
