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
    // The opponent's attackers first: with none (most quiet moves the search tests) the move
    // keeps its piece and our own attackers are never needed. Sliders are looked up once for both.
    let sliders = pos.slider_attackers_to(to, occupied) & occupied;
    let theirs = (pos.step_attackers(stm.flip(), to) | sliders) & pos.pieces_of(stm.flip());
    if theirs.is_empty() {
        return true;
    }
    let ours = (pos.step_attackers(stm, to) | sliders) & pos.pieces_of(stm);
    // `from` is out of `occupied`, so the moved piece is no attacker of its own square.
    let mut attackers = (theirs | ours) & occupied;
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
            let bb = ours & pos.pieces_of_kind(kind);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::legal_moves;
    use crate::core::{Bitboard, Color, Square};
    use crate::test_support::for_each_random_position;

    /// What `side` gains by starting (or declining) the exchange on `to` against a piece worth
    /// `on_square`, recapturing with its least valuable attacker each time; all attackers are
    /// recomputed from the occupancy at every step.
    fn exchange(
        pos: &Position,
        to: Square,
        occupied: Bitboard,
        side: Color,
        on_square: i32,
    ) -> i32 {
        let attackers = pos.attackers_to(side, to, occupied) & occupied;
        let Some((kind, sq)) = ORDER
            .iter()
            .find_map(|&k| (attackers & pos.pieces(side, k)).lsb().map(|sq| (k, sq)))
        else {
            return 0;
        };
        let after = occupied.without(sq);
        let defended = pos.attackers_to(side.flip(), to, after) & after;
        if kind == PieceKind::King && defended.is_nonempty() {
            return 0;
        }
        (on_square - exchange(pos, to, after, side.flip(), piece_value(kind))).max(0)
    }

    /// The exchange value of `m` by the plain recursive definition.
    fn reference(pos: &Position, m: Move) -> i32 {
        let moved = pos.moved_piece(m).kind();
        let mut gain = pos.captured_piece(m).map_or(0, |p| piece_value(p.kind()));
        let mut on_square = moved;
        if m.is_promotion() {
            if let Some(promoted) = moved.promoted() {
                gain += piece_value(promoted) - piece_value(moved);
                on_square = promoted;
            }
        }
        let mut occupied = pos.occupied().with(m.to());
        if let Some(from) = m.from() {
            occupied = occupied.without(from);
        }
        let them = pos.side_to_move().flip();
        gain - exchange(pos, m.to(), occupied, them, piece_value(on_square))
    }

    #[test]
    fn see_agrees_with_the_recursive_exchange_on_random_positions() {
        let mut exchanges = 0;
        for_each_random_position(0x5ee0_5ee0_1234_abcd, 20, 120, |pos| {
            for m in legal_moves(pos).iter().copied() {
                let value = reference(pos, m);
                for threshold in [-1500, -300, -1, 0, 1, 90, 300, 700, 1500] {
                    assert_eq!(
                        see_ge(pos, m, threshold),
                        value >= threshold,
                        "{m} (exchange value {value}) against {threshold} in {}",
                        pos.to_sfen()
                    );
                }
                exchanges += usize::from(pos.is_capture(m));
            }
        });
        assert!(exchanges > 1000, "only {exchanges} captures");
    }
}
