//! Material: pieces on the board, and pieces in hand valued apart.

use super::params::Weights;
use crate::core::position::Position;
use crate::core::{Color, Hand, HandKind, PieceKind};

/// Value of `color`'s pieces in hand. A hand piece is worth more than the same piece on the board (it
/// can be dropped where it is needed) and the first copy of a kind carries the drop threats, so it
/// gets an extra `hand_first`.
#[inline]
pub fn hand_material(w: &Weights, hand: Hand) -> i32 {
    if hand.is_empty() {
        return 0;
    }
    let mut sum = 0;
    for kind in HandKind::ALL {
        let n = hand.count(kind) as i32;
        if n > 0 {
            sum += n * w.hand[kind.index()] + w.hand_first[kind.index()];
        }
    }
    sum
}

/// Value of `color`'s pieces on the board (the king counts nothing).
#[inline]
pub fn board_material(w: &Weights, pos: &Position, color: Color) -> i32 {
    let mut sum = 0;
    for kind in PieceKind::ALL {
        sum += pos.pieces(color, kind).count() as i32 * w.board[kind.index()];
    }
    sum
}

/// Material balance from Black's view, scaled for variants without drops.
#[inline]
pub fn material(w: &Weights, pos: &Position) -> i32 {
    let mut score = board_material(w, pos, Color::Black) - board_material(w, pos, Color::White);
    if pos.variant().has_drops() {
        score +=
            hand_material(w, pos.hand(Color::Black)) - hand_material(w, pos.hand(Color::White));
        score
    } else {
        score * w.no_drop_material_scale / 64
    }
}
