//! Static evaluation correction history: how far the search's results have been from the static
//! evaluation in positions alike, added to the evaluation before the search prunes with it.
//!
//! Two kinds of context say "alike". Structures: a hash of some of the pieces, so positions that
//! share them share an entry ([`Structure`]: the pawns, the kings' castles, the long-range and
//! jumping pieces, the kings with both hands). And the last two moves (the move one ply back,
//! keyed by each of the moves two and four plies back, as continuation history does). Each entry
//! moves toward the observed error with gravity, within `+-LIMIT`; the correction is their
//! weighted sum (Stockfish's and YaneuraOu's scheme: entries in 1/1024ths of a step of the error,
//! weights out of 131072). One set per search thread.

use super::history::PIECE_TO;
use super::params;
use crate::core::{Color, HandKind, PieceKind, Position};

/// Entries stay within `+-LIMIT`.
const LIMIT: i32 = 1024;
/// Entries per structure and side to move (a power of two).
const STRUCTURE_ENTRIES: usize = 1 << 14;

/// The piece sets whose placement keys a structure correction. Shogi has no pawn structure to
/// speak of beyond files, so the pawns alone say little; where the evaluation errs is the kings'
/// safety (the castle around each king, the pieces in hand that can be dropped on it) and the
/// pieces that attack from afar or jump in. The sets are Stoat's (Ciekce's shogi engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    /// Both sides' pawns, on the board and in hand.
    Pawns,
    /// Both sides' kings, golds and silvers on the board.
    Castles,
    /// Both sides' knights, bishops, rooks, horses and dragons on the board, and knights, bishops
    /// and rooks in hand.
    Cavalry,
    /// Both kings' squares and both whole hands.
    KingsAndHands,
}

impl Structure {
    pub const ALL: [Structure; 4] = [
        Structure::Pawns,
        Structure::Castles,
        Structure::Cavalry,
        Structure::KingsAndHands,
    ];

    /// The weight of this structure's correction (0 = not used).
    #[inline(always)]
    fn weight(self) -> i32 {
        match self {
            Structure::Pawns => params::CORR_PAWN_WEIGHT.get(),
            Structure::Castles => params::CORR_CASTLE_WEIGHT.get(),
            Structure::Cavalry => params::CORR_CAVALRY_WEIGHT.get(),
            Structure::KingsAndHands => params::CORR_KING_HAND_WEIGHT.get(),
        }
    }

    /// The hash of this structure's pieces in `pos`.
    #[inline]
    fn key(self, pos: &Position) -> u64 {
        use PieceKind::*;
        match self {
            Structure::Pawns => pawn_key(pos),
            Structure::Castles => board_key(pos, &[King, Gold, Silver], 0),
            Structure::Cavalry => {
                let hands = [Color::Black, Color::White].map(|c| {
                    let h = pos.hand(c);
                    u64::from(h.count(HandKind::Knight))
                        | u64::from(h.count(HandKind::Bishop)) << 4
                        | u64::from(h.count(HandKind::Rook)) << 8
                });
                board_key(
                    pos,
                    &[Knight, Bishop, Rook, Horse, Dragon],
                    hands[0] | hands[1] << 12,
                )
            }
            Structure::KingsAndHands => {
                let hands = u64::from(pos.hand(Color::Black).to_u32())
                    | u64::from(pos.hand(Color::White).to_u32()) << 32;
                board_key(pos, &[King], hands)
            }
        }
    }
}

pub struct Correction {
    /// `[structure][side to move][structure key % STRUCTURE_ENTRIES]`.
    structures: Box<[[[i16; STRUCTURE_ENTRIES]; 2]; Structure::ALL.len()]>,
    /// `[piece_to two or four plies back][piece_to one ply back]`, flattened.
    continuation: Box<[i16]>,
}

/// Where a node's corrections are kept: looked up once per node, read for its evaluation and
/// written after its search.
#[derive(Clone, Copy)]
pub struct Slots {
    side: usize,
    structures: [usize; Structure::ALL.len()],
    continuation: [Option<usize>; 2],
}

impl Default for Correction {
    fn default() -> Correction {
        Correction::new()
    }
}

impl Correction {
    pub fn new() -> Correction {
        Correction {
            structures: Box::new([[[0; STRUCTURE_ENTRIES]; 2]; Structure::ALL.len()]),
            continuation: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
        }
    }

    pub fn clear(&mut self) {
        *self.structures = [[[0; STRUCTURE_ENTRIES]; 2]; Structure::ALL.len()];
        self.continuation.fill(0);
    }

    /// The slots of the node at `pos`, reached by a move whose (piece, to) was `last` after
    /// moves `earlier` two and four plies back (`None` for a null move or the root's history).
    #[inline]
    pub fn slots(pos: &Position, last: Option<usize>, earlier: [Option<usize>; 2]) -> Slots {
        let continuation = match last {
            Some(last) => earlier.map(|e| e.map(|e| e * PIECE_TO + last)),
            None => [None; 2],
        };
        Slots {
            side: pos.side_to_move().index(),
            // An unused structure's key is not worth computing: its slot is never read.
            structures: Structure::ALL.map(|s| {
                if s.weight() == 0 {
                    0
                } else {
                    (s.key(pos) as usize) & (STRUCTURE_ENTRIES - 1)
                }
            }),
            continuation,
        }
    }

    /// The correction to add to the static evaluation of the node at `slots`, in score units.
    #[inline]
    pub fn value(&self, slots: &Slots) -> i32 {
        let structures: i32 = Structure::ALL
            .iter()
            .zip(self.structures.iter())
            .zip(slots.structures)
            .filter(|((s, _), _)| s.weight() != 0)
            .map(|((s, table), i)| s.weight() * i32::from(table[slots.side][i]))
            .sum();
        let continuation: i32 = slots
            .continuation
            .iter()
            .flatten()
            .map(|&i| i32::from(self.continuation[i]))
            .sum();
        (structures + params::CORR_CONTINUATION_WEIGHT.get() * continuation) / 131_072
    }

    /// Learns from a node whose search of `depth` found `best` where the (corrected) static
    /// evaluation said `static_eval`. The caller passes only errors the bound proves: upward when
    /// a move beat alpha, downward when none did.
    #[inline]
    pub fn update(&mut self, slots: &Slots, depth: i32, static_eval: i32, best: i32) {
        let error = best - static_eval;
        let bonus = (error * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        for ((s, table), i) in Structure::ALL
            .iter()
            .zip(self.structures.iter_mut())
            .zip(slots.structures)
        {
            if s.weight() != 0 {
                gravity(&mut table[slots.side][i], bonus);
            }
        }
        for i in slots.continuation.iter().flatten() {
            gravity(&mut self.continuation[*i], bonus);
        }
    }
}

/// Moves `entry` toward `+-LIMIT` by `bonus`, more slowly the closer it is.
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = i32::from(*entry);
    *entry = (e + bonus - e * bonus.abs() / LIMIT) as i16;
}

/// A hash of both sides' pawns, on the board and in hand.
#[inline]
fn pawn_key(pos: &Position) -> u64 {
    let fold = |b: u128| (b as u64) ^ ((b >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let black = fold(pos.pieces(Color::Black, PieceKind::Pawn).to_u128());
    let white = fold(pos.pieces(Color::White, PieceKind::Pawn).to_u128());
    let hands = u64::from(pos.hand(Color::Black).count(HandKind::Pawn))
        | u64::from(pos.hand(Color::White).count(HandKind::Pawn)) << 8;
    mix(black ^ mix(white ^ hands.wrapping_mul(0xD6E8_FEB8_6659_FD93)))
}

/// A hash of both sides' pieces of `kinds` on the board, and `extra` (what the structure holds
/// besides: hand counts).
#[inline]
fn board_key(pos: &Position, kinds: &[PieceKind], extra: u64) -> u64 {
    // Each (colour, kind) bitboard folded to 64 bits and weighted by its own odd constant, so
    // that the same squares under another kind or colour hash apart.
    const WEIGHTS: [u64; 2] = [0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F];
    let fold = |b: u128| (b as u64) ^ ((b >> 64) as u64).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    let mut h = extra.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    for (i, &kind) in kinds.iter().enumerate() {
        for (c, w) in [Color::Black, Color::White].into_iter().zip(WEIGHTS) {
            let b = fold(pos.pieces(c, kind).to_u128());
            h = h.rotate_left(11) ^ b.wrapping_mul(w.wrapping_add(2 * i as u64));
        }
    }
    mix(h)
}

/// SplitMix64's finaliser: every input bit moves about half the output bits.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;

    #[test]
    fn positions_with_the_same_pawns_share_a_slot_and_others_mostly_do_not() {
        crate::core::attacks::init();
        let start = Position::startpos(Variant::Shogi);
        // A silver move leaves the pawns as they were; a pawn push or a pawn in hand does not.
        let silver = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B3S1R1/LN1GKGSNL b - 1",
            Variant::Shogi,
        )
        .unwrap();
        let pushed = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
            Variant::Shogi,
        )
        .unwrap();
        let held = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PP1PPPPPP/1B5R1/LNSGKGSNL b P 1",
            Variant::Shogi,
        )
        .unwrap();
        assert_eq!(pawn_key(&start), pawn_key(&silver));
        assert_ne!(pawn_key(&start), pawn_key(&pushed));
        assert_ne!(pawn_key(&pushed), pawn_key(&held));
    }

    #[test]
    fn each_structure_keys_on_its_own_pieces() {
        crate::core::attacks::init();
        let sfen = |s: &str| Position::from_sfen(s, Variant::Shogi).unwrap();
        let start = Position::startpos(Variant::Shogi);
        // 7g7f: a pawn moves; 3i4h: a silver; 2h3h: the rook; 5i4h: the king; and the start
        // with a bishop in each hand instead of on the board.
        let pawn = sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
        let silver = sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B3S1R1/LNSGKG1NL w - 2");
        let rook = sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B4R2/LNSGKGSNL w - 2");
        let king = sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B3K1R1/LNSG1GSNL w - 2");
        let bishops = sfen("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b Bb 1");
        let same = |s: Structure, a: &Position, b: &Position| s.key(a) == s.key(b);
        use Structure::*;
        // What each structure holds changes its key; what it does not, leaves it.
        assert!(!same(Pawns, &start, &pawn) && same(Pawns, &start, &silver));
        assert!(!same(Castles, &start, &silver) && same(Castles, &start, &pawn));
        assert!(!same(Castles, &start, &king) && same(Castles, &start, &rook));
        assert!(!same(Cavalry, &start, &rook) && same(Cavalry, &start, &silver));
        assert!(!same(Cavalry, &start, &bishops) && same(Cavalry, &start, &king));
        assert!(!same(KingsAndHands, &start, &king) && !same(KingsAndHands, &start, &bishops));
        assert!(same(KingsAndHands, &start, &silver) && same(KingsAndHands, &start, &rook));
        // The same squares under the other colour are another castle.
        let kings = sfen("3gk4/9/9/9/9/9/9/9/4KG3 b - 1");
        let swapped = sfen("3GK4/9/9/9/9/9/9/9/4kg3 b - 1");
        assert!(!same(Castles, &kings, &swapped));
    }

    #[test]
    fn errors_are_learnt_in_their_direction_and_stay_bounded() {
        crate::core::attacks::init();
        let pos = Position::startpos(Variant::Shogi);
        let mut c = Correction::new();
        let slots = Correction::slots(&pos, Some(7), [Some(3), None]);
        assert_eq!(c.value(&slots), 0);
        for _ in 0..200 {
            c.update(&slots, 10, 0, 300);
        }
        let up = c.value(&slots);
        assert!(up > 20, "learnt upward: {up}");
        // The bound: no entry passes LIMIT however often it is pushed.
        let weights: i32 = Structure::ALL.iter().map(|s| s.weight()).sum();
        let ceiling = (weights + params::CORR_CONTINUATION_WEIGHT.get()) * LIMIT / 131_072;
        assert!(up <= ceiling, "{up} <= {ceiling}");
        for _ in 0..400 {
            c.update(&slots, 10, 0, -300);
        }
        assert!(c.value(&slots) < 0, "and back down: {}", c.value(&slots));
        // Another previous move is another context (the pawns are shared).
        let other = Correction::slots(&pos, Some(8), [Some(3), None]);
        assert_ne!(c.value(&other), c.value(&slots));
        c.clear();
        assert_eq!(c.value(&slots), 0);
    }
}
