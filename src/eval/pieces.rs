//! One pass over a side's pieces: mobility of the ranging pieces and the attack facts king safety and
//! threats need. Each piece's attacks are computed once and serve every term. (The terms of a piece
//! and its square alone are kept move by move: [`super::piece_square`].)

use super::geometry::king_offsets;
use super::params::{Class, Ranger, Weights, KING_OFFSETS};
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
        let board = pos.variant().board_mask();
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

/// `us`'s mobility (from `us`'s view) and attacks.
pub fn scan(w: &Weights, pos: &Position, frame: &Frame, us: Color) -> (i32, SideAttacks) {
    let them = !us;
    let mut scan = Scan {
        w,
        us,
        own: pos.pieces_of(us),
        occupied: frame.occupied,
        board: frame.board,
        own_zone: frame.zones[us.index()],
        enemy_zone: frame.zones[them.index()],
        mobility: 0,
        side: SideAttacks::default(),
    };
    // One call per kind with the kind as a constant: `visit` is inlined into each, so every `match
    // kind` below folds away (callgrind: 6140 -> 4170 instructions per evaluation compared with a loop
    // over PieceKind::ALL).
    macro_rules! visit_kinds {
        ($($kind:ident),*) => {
            $(scan.visit(PieceKind::$kind, pos.pieces(us, PieceKind::$kind));)*
        };
    }
    scan.visit_pawns(pos.pieces(us, PieceKind::Pawn));
    visit_kinds!(
        Lance, Knight, Silver, Bishop, Rook, Gold, King, ProPawn, ProLance, ProKnight, ProSilver,
        Horse, Dragon
    );
    scan.side.attacked &= scan.board;
    (scan.mobility, scan.side)
}

/// The state of one side's piece pass.
struct Scan<'a> {
    w: &'a Weights,
    us: Color,
    own: Bitboard,
    occupied: Bitboard,
    board: Bitboard,
    own_zone: Bitboard,
    enemy_zone: Bitboard,
    mobility: i32,
    side: SideAttacks,
}

impl Scan<'_> {
    /// Pawns, whose attacks are taken set-wise: each pawn attacks the one square ahead of it, so the
    /// shifted set is the union of their attacks and no two pawns share a square, which makes the
    /// zone counts of the union equal the sums over the pawns that `visit` would add.
    #[inline(always)]
    fn visit_pawns(&mut self, pawns: Bitboard) {
        if pawns.is_empty() {
            return;
        }
        let att = match self.us {
            Color::Black => pawns.shift_up(),
            Color::White => pawns.shift_down(),
        } & self.board;
        self.side.attacked |= att;
        self.add_zone_units(att, Class::Pawn.index());
    }

    /// King-zone attack and defence units of attacks `att` by pieces of class index `c`.
    #[inline(always)]
    fn add_zone_units(&mut self, att: Bitboard, c: usize) {
        let w = self.w;
        // Most pieces touch neither zone: test before counting (a u128 popcount is two
        // instructions with POPCNT and a dozen without).
        let on_enemy_zone = att & self.enemy_zone;
        if on_enemy_zone.is_nonempty() {
            self.side.zone_attack += on_enemy_zone.count() as i32 * w.attack_unit[c];
        }
        let on_own_zone = att & self.own_zone;
        if on_own_zone.is_nonempty() {
            self.side.zone_defence += on_own_zone.count() as i32 * w.defend_unit[c];
        }
    }

    #[inline(always)]
    fn visit(&mut self, kind: PieceKind, bb: Bitboard) {
        if bb.is_empty() {
            return;
        }
        let w = self.w;
        for sq in bb {
            let mut att = attacks_of(self.us, kind, sq, self.occupied);
            if Ranger::of(kind).is_some() {
                // A slider on a Heian board runs on past the board's edge, and its mobility counts
                // squares. A stepping piece's squares beyond the edge count nowhere (the zones lie
                // on the board) and leave `attacked` once, at the end of the pass.
                att &= self.board;
            }
            self.side.attacked |= att;
            // The king's attacks count only in `attacked`: it carries no zone units.
            let Some(class) = Class::of(kind) else {
                continue;
            };
            if let Some(r) = Ranger::of(kind) {
                let reach = att & !self.own;
                self.mobility += reach.count() as i32 * w.mobility[r as usize];
            }
            self.add_zone_units(att, class.index());
        }
    }
}

/// Which king a king-offset table is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingTable {
    /// `Weights::own_king_offset`.
    Own,
    /// `Weights::enemy_king_offset`.
    Enemy,
}

/// Every king-offset table entry the evaluation of `pos` reads, for tuners that need the evaluation's
/// derivative in those (linear) weights: `visit(table, entry, owner)` once per piece and king, where
/// `entry` indexes the table flattened (`class * KING_OFFSETS + offset`) and `owner`'s pieces count
/// with Black's sign. It walks the pieces with the same `king_offsets` rows as [`scan`]; a test checks
/// that bumping any entry moves the evaluation by exactly what these visits predict.
pub fn king_offset_entries(pos: &Position, mut visit: impl FnMut(KingTable, usize, Color)) {
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    for us in Color::ALL {
        let tables = [
            (KingTable::Own, kings[us.index()]),
            (KingTable::Enemy, kings[(!us).index()]),
        ];
        for kind in PieceKind::ALL {
            let Some(class) = Class::of(kind) else {
                continue;
            };
            for sq in pos.pieces(us, kind) {
                for (table, king) in tables {
                    if let Some(king) = king {
                        let offset = king_offsets(us, king)[sq.index()] as usize;
                        visit(table, class.index() * KING_OFFSETS + offset, us);
                    }
                }
            }
        }
    }
}
