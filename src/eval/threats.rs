//! Threatened pieces: a piece the enemy attacks where no own piece defends it, or a piece worth more
//! than a pawn that an enemy pawn attacks. Quiescence settles the side to move's captures, but not
//! the threats against the side to move: it can save one piece a move, and a fork or a second
//! threat costs it material the static evaluation would otherwise not see.

use super::params::{Class, Weights};
use super::pieces::SideAttacks;
use crate::core::position::Position;
use crate::core::{Bitboard, Color, PieceKind};

/// The squares enemy pawns attack, for `us`'s pieces.
#[inline]
fn pawn_attacks(pos: &Position, them: Color) -> Bitboard {
    let pawns = pos.pieces(them, PieceKind::Pawn);
    match them {
        Color::Black => pawns.shift_up(),
        Color::White => pawns.shift_down(),
    }
}

/// The penalty, from `us`'s view (negative or zero), for `us`'s threatened pieces.
#[inline]
pub fn threats(
    w: &Weights,
    pos: &Position,
    us: Color,
    ours: &SideAttacks,
    theirs: &SideAttacks,
) -> i32 {
    let them = !us;
    let pieces = pos.pieces_of(us) & !pos.pieces(us, PieceKind::King);
    let hanging = pieces & theirs.attacked & !ours.attacked;
    let by_pawn = (pieces & !pos.pieces(us, PieceKind::Pawn)) & pawn_attacks(pos, them);
    let threatened = hanging | by_pawn;
    if threatened.is_empty() {
        return 0;
    }
    let table = if pos.side_to_move() == us {
        &w.threatened_to_move
    } else {
        &w.threatened_waiting
    };
    let mut penalty = 0;
    for sq in threatened {
        if let Some(class) = pos.piece_on(sq).and_then(|p| Class::of(p.kind())) {
            penalty += table[class.index()];
        }
    }
    -penalty
}
