//! The evaluation's values as the search's move ordering sees them: piece values for SEE and move
//! ordering. (The static evaluation reaches the search through `crate::eval::Evaluator`, kept per
//! ply in `eval_stack`.)

use crate::core::PieceKind;

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
