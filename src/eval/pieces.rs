//! One pass over a side's pieces: placement relative to both kings, rank terms, mobility of the
//! ranging pieces, and the attack facts king safety needs. Each piece's attacks are computed once and
//! serve every term.

use super::geometry::{advance_row, king_offsets};
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

/// Scores `us`'s pieces and collects their attacks.
pub fn scan(w: &Weights, pos: &Position, frame: &Frame, us: Color) -> (PieceTerms, SideAttacks) {
    let them = !us;
    let variant = pos.variant();
    let mut scan = Scan {
        w,
        advance: advance_row(variant, us),
        us,
        own: pos.pieces_of(us),
        occupied: frame.occupied,
        board: frame.board,
        own_king: frame.kings[us.index()].map(|k| king_offsets(us, k)),
        enemy_king: frame.kings[them.index()].map(|k| king_offsets(us, k)),
        own_zone: frame.zones[us.index()],
        enemy_zone: frame.zones[them.index()],
        terms: PieceTerms::default(),
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
    (scan.terms, scan.side)
}

/// The state of one side's piece pass.
struct Scan<'a> {
    w: &'a Weights,
    /// How far each square is advanced from our back rank, for the rank terms.
    advance: &'static [u8; 81],
    us: Color,
    own: Bitboard,
    occupied: Bitboard,
    board: Bitboard,
    /// The king-offset index of every square for our pieces, relative to each king that exists.
    own_king: Option<&'static [u8; 81]>,
    enemy_king: Option<&'static [u8; 81]>,
    own_zone: Bitboard,
    enemy_zone: Bitboard,
    terms: PieceTerms,
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
        let w = self.w;
        let kind = PieceKind::Pawn;
        let Some(class) = Class::of(kind) else {
            unreachable!("a pawn has a placement class");
        };
        let c = class.index();
        let att = match self.us {
            Color::Black => pawns.shift_up(),
            Color::White => pawns.shift_down(),
        } & self.board;
        self.side.attacked |= att;
        self.add_zone_units(att, c);
        self.terms.material += pawns.count() as i32 * w.board[kind.index()];
        for sq in pawns {
            self.add_king_placement(c, sq);
            self.terms.placement += w.pawn_rank[self.advance[sq.index()] as usize];
        }
    }

    /// Placement of a piece of class index `c` on `sq` relative to each king that exists.
    #[inline(always)]
    fn add_king_placement(&mut self, c: usize, sq: Square) {
        let w = self.w;
        if let Some(offsets) = self.own_king {
            self.terms.placement += w.own_king_offset[c][offsets[sq.index()] as usize];
        }
        if let Some(offsets) = self.enemy_king {
            self.terms.placement += w.enemy_king_offset[c][offsets[sq.index()] as usize];
        }
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
        let class = Class::of(kind);
        let value = w.board[kind.index()];
        for sq in bb {
            self.terms.material += value;
            let mut att = attacks_of(self.us, kind, sq, self.occupied);
            if Ranger::of(kind).is_some() {
                // A slider on a Heian board runs on past the board's edge, and its mobility counts
                // squares. A stepping piece's squares beyond the edge count nowhere (the zones lie
                // on the board) and leave `attacked` once, at the end of the pass.
                att &= self.board;
            }
            self.side.attacked |= att;
            let Some(class) = class else {
                self.terms.placement += w.king_rank[self.advance[sq.index()] as usize];
                continue;
            };
            let c = class.index();
            self.add_king_placement(c, sq);
            // Pawns go through `visit_pawns`.
            let rank_table = match kind {
                PieceKind::Lance => Some(&w.lance_rank),
                PieceKind::Knight => Some(&w.knight_rank),
                _ => None,
            };
            if let Some(table) = rank_table {
                self.terms.placement += table[self.advance[sq.index()] as usize];
            }
            if let Some(r) = Ranger::of(kind) {
                let reach = att & !self.own;
                self.terms.mobility += reach.count() as i32 * w.mobility[r as usize];
            }
            self.add_zone_units(att, c);
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
