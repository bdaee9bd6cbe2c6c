//! HalfKP(Friend), the input features of the standard shogi NNUE, indexed exactly as YaneuraOu does.
//!
//! A feature is (the perspective's king square, one other piece as a "BonaPiece"): every piece on the
//! board but the kings, and every piece in hand counted one by one (the second pawn in hand is its own
//! feature). For White's perspective the board is rotated by 180 degrees and the colours swap, so both
//! perspectives see "friend" and "enemy" pieces and index the same table.
//!
//! BonaPiece layout (YaneuraOu `evaluate.h`, the Apery (WCSC26) order):
//! ```text
//!     0          no piece (a piece missing from the standard 40; see below)
//!     1..90      hand: friend/enemy pawn 1+19n, lance 39/44, knight 49/54, silver 59/64,
//!                gold 69/74, bishop 79/82, rook 85/88 (first piece of each kind; the n-th adds n-1)
//!    90..1548    board: 81 squares each for friend/enemy pawn, lance, knight, silver, gold,
//!                bishop, horse, rook, dragon (promoted minor pieces count as gold)
//! ```
//! Squares use the engine's index (`file_index * 9 + rank_index`, 1a = 0), which is YaneuraOu's
//! `SQ_11 = 0` order; the rotation is `80 - sq`. The feature index is `king * FE_END + bona_piece`,
//! where `king` is Black's king square for Black and the rotated White king square for White.
//!
//! YaneuraOu's piece list has 38 slots (40 pieces less the kings); a slot whose piece is absent (a
//! position set up with fewer pieces, a mate problem) holds BonaPiece 0, and that feature is still
//! summed. Tokin does the same, so such positions evaluate identically too.

use crate::core::position::Position;
use crate::core::stack_vec::StackVec;
use crate::core::{Color, HandKind, Move, Piece, PieceKind, Square};

/// End of the hand BonaPieces.
pub const FE_HAND_END: u32 = 90;
/// End of all BonaPieces: 90 hand + 18 board tables of 81 squares.
pub const FE_END: u32 = FE_HAND_END + 18 * 81;
/// Number of HalfKP features per perspective (81 king squares x `FE_END`).
pub const DIMENSIONS: usize = 81 * FE_END as usize;
/// Pieces other than the kings in a full set: every position has exactly this many active features.
pub const ACTIVE_FEATURES: usize = 38;

/// The first BonaPiece of each hand kind, indexed by [`HandKind`] (pawn, lance, knight, silver,
/// bishop, rook, gold), as (friend, enemy).
const HAND_BASE: [[u32; 2]; HandKind::NUM] = [
    [1, 20],  // pawn: up to 18 in hand
    [39, 44], // lance: up to 4
    [49, 54], // knight
    [59, 64], // silver
    [79, 82], // bishop: up to 2
    [85, 88], // rook
    [69, 74], // gold
];

/// The first board BonaPiece of each kind, indexed by [`PieceKind`], as (friend, enemy). Kings have
/// no BonaPiece here (they are the "K" of HalfKP).
const BOARD_BASE: [[u32; 2]; PieceKind::NUM] = {
    const fn pair(table: u32) -> [u32; 2] {
        [FE_HAND_END + 162 * table, FE_HAND_END + 162 * table + 81]
    }
    const PAWN: [u32; 2] = pair(0);
    const LANCE: [u32; 2] = pair(1);
    const KNIGHT: [u32; 2] = pair(2);
    const SILVER: [u32; 2] = pair(3);
    const GOLD: [u32; 2] = pair(4);
    const BISHOP: [u32; 2] = pair(5);
    const HORSE: [u32; 2] = pair(6);
    const ROOK: [u32; 2] = pair(7);
    const DRAGON: [u32; 2] = pair(8);
    // In PieceKind order: P L N S B R G K +P +L +N +S +B +R.
    [
        PAWN,
        LANCE,
        KNIGHT,
        SILVER,
        BISHOP,
        ROOK,
        GOLD,
        [0, 0],
        GOLD,
        GOLD,
        GOLD,
        GOLD,
        HORSE,
        DRAGON,
    ]
};

/// The square as `perspective` sees it.
#[inline(always)]
fn oriented(sq: Square, perspective: Color) -> u32 {
    match perspective {
        Color::Black => sq.index() as u32,
        Color::White => 80 - sq.index() as u32,
    }
}

/// Whether a piece of `owner` is a friend of `perspective` (index 0 of the base tables).
#[inline(always)]
fn side(owner: Color, perspective: Color) -> usize {
    usize::from(owner != perspective)
}

/// BonaPiece of `piece` (not a king) standing on `sq`, seen from `perspective`.
#[inline(always)]
pub fn board_piece(piece: Piece, sq: Square, perspective: Color) -> u32 {
    debug_assert!(piece.kind() != PieceKind::King);
    BOARD_BASE[piece.kind().index()][side(piece.color(), perspective)] + oriented(sq, perspective)
}

/// BonaPiece of the `nth` (0-based) piece of `kind` in `owner`'s hand, seen from `perspective`.
#[inline(always)]
pub fn hand_piece(owner: Color, kind: HandKind, nth: u32, perspective: Color) -> u32 {
    HAND_BASE[kind.index()][side(owner, perspective)] + nth
}

/// The king square that `perspective`'s features are relative to (its own king, oriented), or
/// `None` when that king is absent (the network cannot evaluate such a position).
#[inline(always)]
pub fn king_bucket(pos: &Position, perspective: Color) -> Option<u32> {
    pos.king_square(perspective)
        .map(|k| oriented(k, perspective))
}

/// The feature index of `bona_piece` for a perspective whose king bucket is `king`.
#[inline(always)]
pub fn index(king: u32, bona_piece: u32) -> u32 {
    king * FE_END + bona_piece
}

/// Every active feature of `perspective` in `pos` (whose king bucket is `king`): board pieces,
/// hand pieces one by one, and a BonaPiece-0 feature for each piece of the standard 38 that the
/// position lacks. (An SFEN never holds more than the standard set of any kind.)
pub fn active_features(pos: &Position, perspective: Color, king: u32) -> Features {
    let mut out = Features::new();
    let others = pos.occupied() & !pos.pieces_of_kind(PieceKind::King);
    for sq in others {
        if let Some(piece) = pos.piece_on(sq) {
            out.push_if_room(index(king, board_piece(piece, sq, perspective)));
        }
    }
    for owner in Color::ALL {
        for (kind, count) in pos.hand(owner).iter() {
            for nth in 0..count {
                out.push_if_room(index(king, hand_piece(owner, kind, nth, perspective)));
            }
        }
    }
    for _ in out.len()..ACTIVE_FEATURES {
        out.push(index(king, 0));
    }
    out
}

/// The active features of one perspective.
pub type Features = StackVec<u32, ACTIVE_FEATURES>;

/// What one move changes in the features, for both perspectives: at most two pieces change their
/// BonaPiece (the moved or dropped piece, and a captured piece going to hand), and a king move
/// changes the bucket of its owner's perspective (which must then be refreshed). Computed when the
/// move is made, from the position before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureDelta {
    /// (old, new) BonaPiece of each changed piece, per perspective (`[Black, White]`).
    changed: [[(u16, u16); 2]; 2],
    len: u8,
    /// The colour whose king moved, if any.
    king_moved: Option<Color>,
}

impl FeatureDelta {
    /// The delta of `m`, about to be made on `pos`.
    #[inline]
    pub fn new(pos: &Position, m: Move) -> FeatureDelta {
        let us = pos.side_to_move();
        let mut delta = FeatureDelta {
            changed: [[(0, 0); 2]; 2],
            len: 0,
            king_moved: None,
        };
        let to = m.to();
        match (m.from(), m.drop_kind()) {
            (None, Some(kind)) => {
                // The dropped piece is the last of its kind in hand (YaneuraOu's piece numbering).
                let nth = pos.hand(us).count(kind).saturating_sub(1);
                let piece = Piece::new(us, kind.piece_kind());
                delta.push(|p| (hand_piece(us, kind, nth, p), board_piece(piece, to, p)));
            }
            (Some(from), _) => {
                let moved = pos.moved_piece(m);
                if moved.kind() == PieceKind::King {
                    delta.king_moved = Some(us);
                } else {
                    let after = match moved.kind().promoted() {
                        Some(promoted) if m.is_promotion() => Piece::new(us, promoted),
                        _ => moved,
                    };
                    delta.push(|p| (board_piece(moved, from, p), board_piece(after, to, p)));
                }
                if let Some(captured) = pos.captured_piece(m) {
                    if let Some(kind) = captured.kind().hand_kind() {
                        // It joins the hand after the pieces already there.
                        let nth = pos.hand(us).count(kind);
                        delta
                            .push(|p| (board_piece(captured, to, p), hand_piece(us, kind, nth, p)));
                    }
                }
            }
            (None, None) => unreachable!("a move is a board move or a drop"),
        }
        delta
    }

    #[inline(always)]
    fn push(&mut self, bona: impl Fn(Color) -> (u32, u32)) {
        let i = usize::from(self.len);
        for p in Color::ALL {
            let (old, new) = bona(p);
            self.changed[p.index()][i] = (old as u16, new as u16);
        }
        self.len += 1;
    }

    /// The (old, new) BonaPieces of the changed pieces as `perspective` sees them.
    #[inline(always)]
    pub fn changes(&self, perspective: Color) -> &[(u16, u16)] {
        &self.changed[perspective.index()][..usize::from(self.len)]
    }

    #[inline(always)]
    pub fn king_moved(&self) -> Option<Color> {
        self.king_moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::legal_moves;
    use crate::core::Variant;

    /// The BonaPiece constants of YaneuraOu's `evaluate.h`, written out as there.
    #[test]
    fn bona_piece_constants_match_yaneuraou() {
        let hand = |k| HAND_BASE[HandKind::ALL.iter().position(|&h| h == k).unwrap()];
        assert_eq!(hand(HandKind::Pawn), [1, 20]);
        assert_eq!(hand(HandKind::Lance), [39, 44]);
        assert_eq!(hand(HandKind::Knight), [49, 54]);
        assert_eq!(hand(HandKind::Silver), [59, 64]);
        assert_eq!(hand(HandKind::Gold), [69, 74]);
        assert_eq!(hand(HandKind::Bishop), [79, 82]);
        assert_eq!(hand(HandKind::Rook), [85, 88]);
        let board = |k: PieceKind| BOARD_BASE[k.index()];
        // f_pawn = 90, e_pawn = 171, ... each table 81 squares, in the order P L N S G B +B R +R.
        let expected = [
            (PieceKind::Pawn, 90),
            (PieceKind::Lance, 252),
            (PieceKind::Knight, 414),
            (PieceKind::Silver, 576),
            (PieceKind::Gold, 738),
            (PieceKind::Bishop, 900),
            (PieceKind::Horse, 1062),
            (PieceKind::Rook, 1224),
            (PieceKind::Dragon, 1386),
            (PieceKind::ProPawn, 738),
            (PieceKind::ProLance, 738),
            (PieceKind::ProKnight, 738),
            (PieceKind::ProSilver, 738),
        ];
        for (kind, friend) in expected {
            assert_eq!(board(kind), [friend, friend + 81], "{kind:?}");
        }
        assert_eq!(FE_END, 1548);
        assert_eq!(DIMENSIONS, 125_388);
    }

    #[test]
    fn startpos_features_by_hand() {
        let pos = Position::startpos(Variant::Shogi);
        // Black's king on 5i: index 4 * 9 + 8 = 44; White's on 5a = 36, rotated 44 too.
        assert_eq!(king_bucket(&pos, Color::Black), Some(44));
        assert_eq!(king_bucket(&pos, Color::White), Some(44));
        let mut black = active_features(&pos, Color::Black, 44).as_slice().to_vec();
        assert_eq!(black.len(), ACTIVE_FEATURES);
        // Black's pawn on 7g (file 7 -> index 6, rank g -> 6): square 60, friend pawn 90 + 60.
        assert!(black.contains(&(44 * FE_END + 150)));
        // White's pawn on 3c (square 2 * 9 + 2 = 20): enemy pawn 171 + 20 from Black's view.
        assert!(black.contains(&(44 * FE_END + 191)));
        // From White's view the same pawn is a friend on the rotated square 60.
        let mut white = active_features(&pos, Color::White, 44).as_slice().to_vec();
        assert!(white.contains(&(44 * FE_END + 150)));
        // The position is symmetric: both perspectives see the same features.
        black.sort_unstable();
        white.sort_unstable();
        assert_eq!(black, white);
    }

    #[test]
    fn hand_pieces_are_counted_one_by_one_and_missing_pieces_are_bona_piece_zero() {
        // Black: king and 3 pawns in hand; White: king and a rook in hand; 34 pieces missing.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 3Pr 1", Variant::Shogi).unwrap();
        let f = active_features(&pos, Color::Black, 44);
        let bona: Vec<u32> = f.iter().map(|i| i - 44 * FE_END).collect();
        assert_eq!(bona.iter().filter(|&&b| b == 0).count(), 34);
        for b in [1, 2, 3, 88] {
            assert!(bona.contains(&b), "{b} in {bona:?}");
        }
    }

    /// Applying the deltas of random games to the features of the start position gives the features
    /// of every position reached (as multisets), in both perspectives.
    #[test]
    fn deltas_agree_with_recomputed_features() {
        let mut rng = crate::rng::Rng::new(7);
        for _game in 0..40 {
            let mut pos = Position::startpos(Variant::Shogi);
            let mut bona = [
                sorted_bona(&pos, Color::Black),
                sorted_bona(&pos, Color::White),
            ];
            for _ply in 0..150 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                let delta = FeatureDelta::new(&pos, m);
                pos.do_move(m);
                for p in Color::ALL {
                    for &(old, new) in delta.changes(p) {
                        let at = bona[p.index()].iter().position(|&b| b == u32::from(old));
                        bona[p.index()][at.expect("old piece present")] = u32::from(new);
                    }
                    bona[p.index()].sort_unstable();
                    assert_eq!(bona[p.index()], sorted_bona(&pos, p), "{}", pos.to_sfen());
                }
            }
        }
    }

    fn sorted_bona(pos: &Position, p: Color) -> Vec<u32> {
        let mut f = active_features(pos, p, 0).as_slice().to_vec();
        f.sort_unstable();
        f
    }
}
