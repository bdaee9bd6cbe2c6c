//! The evaluation's piece-square terms: board material, placement relative to each king, and the
//! rank tables. Each is a sum over single pieces, so the search carries them along its line and
//! updates them by the moves made ([`PieceSquare::after_moves`]) instead of visiting every piece at
//! every evaluation. A king move shifts every piece's offset to that king, so it recomputes that
//! king's sum.

use super::geometry::{advance_row, king_offsets};
use super::params::{Class, Weights};
use crate::core::position::Position;
use crate::core::{Bitboard, Color, Move, Piece, PieceKind, Square};

/// The piece-square sums of a position, each Black's pieces minus White's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceSquare {
    /// Board material (the king counts its `Weights::board` entry, like every kind).
    pub material: i32,
    /// Rank terms of pawns, lances, knights and kings.
    ranks: i32,
    /// Placement relative to Black's king and to White's king: each piece with its owner's own-king
    /// table for its own king and enemy-king table for the other; 0 for a king that is absent.
    near_king: [i32; 2],
}

impl PieceSquare {
    /// All sums zero (an empty board's).
    pub const ZERO: PieceSquare = PieceSquare {
        material: 0,
        ranks: 0,
        near_king: [0; 2],
    };

    /// The sums of `pos`, from scratch.
    pub fn compute(w: &Weights, pos: &Position) -> PieceSquare {
        let mut sums = PieceSquare::ZERO;
        for owner in Color::ALL {
            let rows = Rows::new(pos, owner);
            let mut side = Terms::default();
            // One loop per kind with the kind a constant, so each kind's rank-table and class
            // choices fold away (as in the piece pass).
            macro_rules! add_kinds {
                ($($kind:ident),*) => {
                    $(for sq in pos.pieces(owner, PieceKind::$kind) {
                        side.add(rows.terms(w, PieceKind::$kind, sq));
                    })*
                };
            }
            add_kinds!(
                Pawn, Lance, Knight, Silver, Gold, Bishop, Rook, King, ProPawn, ProLance,
                ProKnight, ProSilver, Horse, Dragon
            );
            sums.apply(owner, side);
        }
        sums
    }

    /// Placement of every piece (both kings' sums together), Black's minus White's.
    #[inline]
    pub fn placement(&self) -> i32 {
        self.ranks + self.near_king[0] + self.near_king[1]
    }

    /// The sums after `moves`, made in order from the position these sums belong to; `pos` is the
    /// position after the last of them.
    pub fn after_moves(
        &self,
        w: &Weights,
        pos: &Position,
        moves: impl IntoIterator<Item = MoveRecord>,
    ) -> PieceSquare {
        let mut next = *self;
        // Deltas are taken with the kings where they stand now: for a king that did not move that
        // is where it stood all along, and the sum of a king that did is recomputed at the end.
        let mut king_moved = [false; 2];
        for record in moves {
            let MoveRecord { m, moved, captured } = record;
            let us = moved.color();
            let before = moved.kind();
            let after = match before.promoted() {
                Some(promoted) if m.is_promotion() => promoted,
                _ => before,
            };
            let rows = Rows::new(pos, us);
            let mut ours = rows.piece_terms(w, after, m.to());
            if let Some(from) = m.from() {
                ours.sub(rows.piece_terms(w, before, from));
            }
            if let Some(captured) = captured {
                if captured.kind() == PieceKind::King {
                    // Only a position set up without the rules' help loses a king; no fast path.
                    return PieceSquare::compute(w, pos);
                }
                let mut theirs = Terms::default();
                theirs.sub(Rows::new(pos, !us).piece_terms(w, captured.kind(), m.to()));
                next.apply(!us, theirs);
            }
            next.apply(us, ours);
            king_moved[us.index()] |= before == PieceKind::King;
        }
        for color in Color::ALL {
            if king_moved[color.index()] {
                // Every piece's offset to this king changed: the deltas left its sum wrong.
                next.near_king[color.index()] = near_king_sum(w, pos, color);
            }
        }
        next
    }

    /// Adds `side`'s terms (from its view) with its sign.
    #[inline(always)]
    fn apply(&mut self, side: Color, t: Terms) {
        let them = !side;
        let (material, ranks, own, enemy) = match side {
            Color::Black => (t.material, t.ranks, t.own_king, t.enemy_king),
            Color::White => (-t.material, -t.ranks, -t.own_king, -t.enemy_king),
        };
        self.material += material;
        self.ranks += ranks;
        self.near_king[side.index()] += own;
        self.near_king[them.index()] += enemy;
    }
}

/// A move as the sums need it, recorded before it is made: the piece that moves (before any
/// promotion) and the piece it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    m: Move,
    moved: Piece,
    captured: Option<Piece>,
}

impl MoveRecord {
    /// `m`, about to be made on `pos`.
    #[inline]
    pub fn new(pos: &Position, m: Move) -> MoveRecord {
        MoveRecord {
            m,
            moved: pos.moved_piece(m),
            captured: pos.captured_piece(m),
        }
    }
}

/// Some pieces' terms from their owner's view, placement split by king.
#[derive(Clone, Copy, Default)]
struct Terms {
    material: i32,
    ranks: i32,
    own_king: i32,
    enemy_king: i32,
}

impl Terms {
    #[inline(always)]
    fn add(&mut self, t: Terms) {
        self.material += t.material;
        self.ranks += t.ranks;
        self.own_king += t.own_king;
        self.enemy_king += t.enemy_king;
    }

    #[inline(always)]
    fn sub(&mut self, t: Terms) {
        self.material -= t.material;
        self.ranks -= t.ranks;
        self.own_king -= t.own_king;
        self.enemy_king -= t.enemy_king;
    }
}

/// The geometry one side's pieces are scored with: how far each square is advanced for it, and the
/// king-offset index of each square relative to its own and the enemy king (where they exist).
struct Rows {
    advance: &'static [u8; 81],
    own_king: Option<&'static [u8; 81]>,
    enemy_king: Option<&'static [u8; 81]>,
}

impl Rows {
    #[inline(always)]
    fn new(pos: &Position, owner: Color) -> Rows {
        Rows {
            advance: advance_row(pos.variant(), owner),
            own_king: pos.king_square(owner).map(|k| king_offsets(owner, k)),
            enemy_king: pos.king_square(!owner).map(|k| king_offsets(owner, k)),
        }
    }

    /// One piece's terms, inlined: `compute` calls it with each kind a constant.
    #[inline(always)]
    fn terms(&self, w: &Weights, kind: PieceKind, sq: Square) -> Terms {
        let advance = self.advance[sq.index()] as usize;
        let ranks = match kind {
            PieceKind::Pawn => w.pawn_rank[advance],
            PieceKind::Lance => w.lance_rank[advance],
            PieceKind::Knight => w.knight_rank[advance],
            PieceKind::King => w.king_rank[advance],
            _ => 0,
        };
        let mut t = Terms {
            material: w.board[kind.index()],
            ranks,
            own_king: 0,
            enemy_king: 0,
        };
        if let Some(class) = Class::of(kind) {
            let c = class.index();
            if let Some(row) = self.own_king {
                t.own_king = w.own_king_offset[c][row[sq.index()] as usize];
            }
            if let Some(row) = self.enemy_king {
                t.enemy_king = w.enemy_king_offset[c][row[sq.index()] as usize];
            }
        }
        t
    }

    /// [`Rows::terms`] as one shared call: the search's per-move update stays small, which measured
    /// fewer instruction-cache misses than three inlined copies.
    #[inline(never)]
    fn piece_terms(&self, w: &Weights, kind: PieceKind, sq: Square) -> Terms {
        self.terms(w, kind, sq)
    }
}

/// Every piece's placement relative to `king_color`'s king, from scratch.
fn near_king_sum(w: &Weights, pos: &Position, king_color: Color) -> i32 {
    let Some(king) = pos.king_square(king_color) else {
        return 0;
    };
    let mut sum = 0;
    for owner in Color::ALL {
        let row = king_offsets(owner, king);
        let table = if owner == king_color {
            &w.own_king_offset
        } else {
            &w.enemy_king_offset
        };
        // By kind with each kind a constant (its class folds away), the four promoted minors
        // together as the one class they share: no per-piece mailbox read or class lookup.
        let mut side = 0;
        let mut add = |pieces: Bitboard, kind: PieceKind| {
            if let Some(class) = Class::of(kind) {
                for sq in pieces {
                    side += table[class.index()][row[sq.index()] as usize];
                }
            }
        };
        for kind in [
            PieceKind::Pawn,
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Horse,
            PieceKind::Dragon,
        ] {
            add(pos.pieces(owner, kind), kind);
        }
        let promoted_minors = pos.gold_likes(owner) & !pos.pieces(owner, PieceKind::Gold);
        add(promoted_minors, PieceKind::ProPawn);
        sum += match owner {
            Color::Black => side,
            Color::White => -side,
        };
    }
    sum
}
