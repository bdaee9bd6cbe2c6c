//! Material: pieces on the board, and pieces in hand valued apart.

use super::params::Weights;
use crate::core::position::Position;
use crate::core::{Color, Hand, HandKind};

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

/// Material balance from Black's view, given the board's (Black's minus White's, kept by the
/// piece-square sums): hands added where drops exist, the whole scaled where they do not.
#[inline]
pub fn material(w: &Weights, pos: &Position, board: i32) -> i32 {
    if pos.variant().has_drops() {
        board + hand_material(w, pos.hand(Color::Black)) - hand_material(w, pos.hand(Color::White))
    } else {
        board * w.no_drop_material_scale / 64
    }
}
