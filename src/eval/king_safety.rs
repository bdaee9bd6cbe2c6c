//! King safety: danger from attackers on the king's 3x3 zone and from drop threats, set against the
//! defenders covering it; escape squares; files without an own pawn beside the king.

use super::params::{Weights, DANGER_MAX};
use super::pieces::{Frame, SideAttacks};
use crate::core::attacks;
use crate::core::position::Position;
use crate::core::{Bitboard, Color, Hand, HandKind, PieceKind};

/// Danger units from the pieces `hand` holds: each could be dropped next to the king. At most two
/// copies of a kind count: a third pawn adds no new threat.
#[inline]
fn hand_threat(w: &Weights, hand: Hand) -> i32 {
    if hand.is_empty() {
        return 0;
    }
    let mut units = 0;
    for kind in HandKind::ALL {
        units += hand.count(kind).min(2) as i32 * w.hand_attack_unit[kind.index()];
    }
    units
}

/// Whether `side` has a piece that could use an open file: a rook or lance in hand, or a rook, dragon
/// or lance on the board.
#[inline]
fn has_file_ranger(pos: &Position, side: Color) -> bool {
    let hand = pos.hand(side);
    hand.has(HandKind::Rook)
        || hand.has(HandKind::Lance)
        || (pos.pieces(side, PieceKind::Rook)
            | pos.pieces(side, PieceKind::Dragon)
            | pos.pieces(side, PieceKind::Lance))
        .is_nonempty()
}

/// The safety of `us`'s king, from `us`'s view (0 without a king).
pub fn king_safety(
    w: &Weights,
    pos: &Position,
    frame: &Frame,
    us: Color,
    ours: &SideAttacks,
    theirs: &SideAttacks,
) -> i32 {
    let them = !us;
    let Some(king) = frame.kings[us.index()] else {
        return 0;
    };
    let mut score = 0;

    let mut attack = theirs.zone_attack;
    if pos.variant().has_drops() {
        attack += hand_threat(w, pos.hand(them));
    }
    let danger = (attack - ours.zone_defence).clamp(0, DANGER_MAX);
    score -= w.danger_linear * danger + w.danger_quadratic * danger * danger / 16;

    let escapes = attacks::step_attacks(us, PieceKind::King, king)
        & frame.board
        & !pos.pieces_of(us)
        & !theirs.attacked;
    score += w.escape[escapes.count() as usize];

    let pawns = pos.pieces(us, PieceKind::Pawn);
    let ranger = if has_file_ranger(pos, them) {
        w.open_file_ranger
    } else {
        0
    };
    let king_file = king.file();
    let first = king_file.saturating_sub(1);
    let last = (king_file + 1).min(pos.variant().files() - 1);
    for file in first..=last {
        if (pawns & Bitboard::file(file)).is_empty() {
            let adjacent = usize::from(file != king_file);
            score -= w.open_file[adjacent] + ranger;
        }
    }
    score
}
