//! One pass over a side's pieces: placement relative to both kings, rank terms, mobility of the
//! ranging pieces, and the attack facts king safety needs. Each piece's attacks are computed once and
//! serve every term.

use super::geometry::{self, advance, distances_from};
use super::params::{Class, Ranger, Weights};
use crate::core::attacks;
use crate::core::position::Position;
use crate::core::{Bitboard, Color, PieceKind, Square};

/// What the king-safety terms need to know about one side, gathered during its piece pass.
#[derive(Clone, Copy, Debug, Default)]
pub struct SideAttacks {
    /// Every square the side attacks, its king included (the enemy king cannot step there).
    pub attacked: Bitboard,
    /// Danger units against the enemy king's zone.
    pub zone_attack: i32,
    /// Defence units over the own king's zone.
    pub zone_defence: i32,
}

/// The scored terms of one side's piece pass (from that side's view).
#[derive(Clone, Copy, Debug, Default)]
pub struct PieceTerms {
    /// Board material (summed here rather than by popcounts per kind: the pass visits every piece).
    pub material: i32,
    pub placement: i32,
    pub mobility: i32,
}

/// The per-position facts both sides' passes share.
pub struct Frame {
    pub occupied: Bitboard,
    pub board: Bitboard,
    pub kings: [Option<Square>; 2],
    /// Each king's 3x3 neighbourhood (its square and the squares it can step to), empty without a king.
    pub zones: [Bitboard; 2],
}

impl Frame {
    pub fn new(pos: &Position) -> Frame {
        let board = geometry::board(pos.variant());
        let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        let zone = |c: Color| match kings[c.index()] {
            Some(k) => (attacks::step_attacks(c, PieceKind::King, k) & board).with(k),
            None => Bitboard::EMPTY,
        };
        Frame {
            occupied: pos.occupied(),
            board,
            kings,
            zones: [zone(Color::Black), zone(Color::White)],
        }
    }
}

#[inline]
fn attacks_of(color: Color, kind: PieceKind, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Lance => attacks::lance_attacks(color, sq, occupied),
        PieceKind::Bishop => attacks::bishop_attacks(sq, occupied),
        PieceKind::Rook => attacks::rook_attacks(sq, occupied),
        PieceKind::Horse => attacks::horse_attacks(sq, occupied),
        PieceKind::Dragon => attacks::dragon_attacks(sq, occupied),
        _ => attacks::step_attacks(color, kind, sq),
    }
}

/// Scores `us`'s pieces and collects their attacks.
pub fn scan(w: &Weights, pos: &Position, frame: &Frame, us: Color) -> (PieceTerms, SideAttacks) {
    let them = !us;
    let variant = pos.variant();
    let own = pos.pieces_of(us);
    let own_king = frame.kings[us.index()].map(distances_from);
    let enemy_king = frame.kings[them.index()].map(distances_from);
    let own_zone = frame.zones[us.index()];
    let enemy_zone = frame.zones[them.index()];
    let enemy_camp = geometry::enemy_camp(variant, us);

    let mut terms = PieceTerms::default();
    let mut side = SideAttacks::default();

    for kind in PieceKind::ALL {
        let bb = pos.pieces(us, kind);
        if bb.is_empty() {
            continue;
        }
        let class = Class::of(kind);
        let value = w.board[kind.index()];
        for sq in bb {
            terms.material += value;
            let att = attacks_of(us, kind, sq, frame.occupied) & frame.board;
            side.attacked |= att;
            let Some(class) = class else {
                terms.placement += w.king_rank[advance(variant, us, sq)];
                continue;
            };
            let c = class.index();
            if let Some(d) = own_king {
                terms.placement += w.own_king_distance[c][d[sq.index()] as usize];
            }
            if let Some(d) = enemy_king {
                terms.placement += w.enemy_king_distance[c][d[sq.index()] as usize];
            }
            match kind {
                PieceKind::Pawn => terms.placement += w.pawn_rank[advance(variant, us, sq)],
                PieceKind::Lance => terms.placement += w.lance_rank[advance(variant, us, sq)],
                PieceKind::Knight => terms.placement += w.knight_rank[advance(variant, us, sq)],
                _ => {}
            }
            if let Some(r) = Ranger::of(kind) {
                let reach = att & !own;
                terms.mobility += reach.count() as i32 * w.mobility[r as usize];
                let promo = match kind {
                    PieceKind::Bishop => Some(0),
                    PieceKind::Rook => Some(1),
                    _ => None,
                };
                if let Some(i) = promo {
                    if (reach & enemy_camp).is_nonempty() {
                        terms.placement += w.promotion_reach[i];
                    }
                }
            }
            // Most pieces touch neither zone: test before counting (a u128 popcount is two
            // instructions with POPCNT and a dozen without).
            let on_enemy_zone = att & enemy_zone;
            if on_enemy_zone.is_nonempty() {
                side.zone_attack += on_enemy_zone.count() as i32 * w.attack_unit[c];
            }
            let on_own_zone = att & own_zone;
            if on_own_zone.is_nonempty() {
                side.zone_defence += on_own_zone.count() as i32 * w.defend_unit[c];
            }
        }
    }
    (terms, side)
}
