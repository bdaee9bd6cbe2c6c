//! Static exchange evaluation: does a move win at least `threshold` on its destination square if
//! both sides keep recapturing with their least valuable attacker?
//!
//! The swap loop recomputes attackers from the shrinking occupancy, so sliders (lance, bishop,
//! rook and their promotions) behind a capturer join in. Promotions during the exchange and pins are
//! ignored: SEE is an ordering and pruning estimate, not a proof.

use super::values::piece_value;
use crate::core::{Move, PieceKind, Position};

/// Attackers tried cheapest first. Gold-likes are ordered by their board value.
const ORDER: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::ProSilver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Dragon,
    PieceKind::King,
];

/// True when `m` (pseudo-legal) gains at least `threshold` by exchange on its destination.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let moved = pos.moved_piece(m).kind();
    // The piece that stands on `to` after the move, which the opponent may capture next.
    let mut on_square = moved;
    let mut swap = pos.captured_piece(m).map_or(0, |p| piece_value(p.kind())) - threshold;
    if m.is_promotion() {
        if let Some(promoted) = moved.promoted() {
            swap += piece_value(promoted) - piece_value(moved);
            on_square = promoted;
        }
    }
    if swap < 0 {
        return false;
    }
    swap = piece_value(on_square) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = pos.occupied().with(to);
    if let Some(from) = m.from() {
        occupied = occupied.without(from);
    }
    let mut stm = pos.side_to_move();
    let mut attackers = pos.all_attackers_to(to, occupied) & occupied;
    // 1 while the side that made the last capture is ahead of the threshold.
    let mut res = 1;
    loop {
        stm = stm.flip();
        attackers &= occupied;
        let ours = attackers & pos.pieces_of(stm);
        if ours.is_empty() {
            break;
        }
        res ^= 1;
        let mut attacker = None;
        for kind in ORDER {
            let bb = ours & pos.pieces(stm, kind);
            if let Some(sq) = bb.lsb() {
                attacker = Some((kind, sq));
                break;
            }
        }
        let Some((kind, sq)) = attacker else { break };
        if kind == PieceKind::King {
            // The king may only capture when the other side has no attacker left.
            return if (attackers & pos.pieces_of(stm.flip())).is_nonempty() {
                res ^ 1 != 0
            } else {
                res != 0
            };
        }
        swap = piece_value(kind) - swap;
        if swap < res {
            break;
        }
        occupied = occupied.without(sq);
        // Only a slider behind the captured-with piece can join; a knight stands on no line.
        if kind != PieceKind::Knight {
            attackers |= pos.slider_attackers_to(to, occupied);
        }
    }
    res != 0
}
