//! The evaluation as the search sees it: piece values for SEE / move ordering and the static
//! evaluation of a position. The one place the search touches `crate::eval`.

use super::score::EVAL_MAX;
use crate::core::{PieceKind, Position};
use crate::eval::params::Weights;
pub use crate::eval::{MoveRecord, PieceSquare};

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

/// Static evaluation of `pos` given its piece-square sums, which the search keeps along its line.
#[inline]
pub fn evaluate_from(pos: &Position, sums: &PieceSquare) -> i32 {
    crate::eval::evaluate_from(&Weights::DEFAULT, pos, sums).clamp(-EVAL_MAX, EVAL_MAX)
}

/// The piece-square sums of `pos`, from scratch (at the root).
#[inline]
pub fn piece_square(pos: &Position) -> PieceSquare {
    PieceSquare::compute(&Weights::DEFAULT, pos)
}

/// The piece-square sums after `moves` (recorded as they were made), given the sums before them;
/// `pos` is the position after the last.
#[inline]
pub fn piece_square_after(
    before: &PieceSquare,
    pos: &Position,
    moves: impl IntoIterator<Item = MoveRecord>,
) -> PieceSquare {
    before.after_moves(&Weights::DEFAULT, pos, moves)
}
