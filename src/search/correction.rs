//! Static evaluation correction history: how far the search's results have been from the static
//! evaluation in positions alike, added to the evaluation before the search prunes with it.
//!
//! Two contexts say "alike": the pawns (both sides' pawns on the board and in hand, hashed), and
//! the last two moves (the move one ply back, keyed by each of the moves two and four plies back,
//! as continuation history does). Each entry moves toward the observed error with gravity, within
//! `+-LIMIT`; the correction is their weighted sum (Stockfish's and YaneuraOu's scheme: entries in
//! 1/1024ths of a step of the error, weights out of 131072). One set per search thread.

use super::history::PIECE_TO;
use super::params;
use crate::core::{Color, HandKind, PieceKind, Position};

/// Entries stay within `+-LIMIT`.
const LIMIT: i32 = 1024;
/// Pawn-structure entries per side to move (a power of two).
const PAWN_ENTRIES: usize = 1 << 14;

pub struct Correction {
    /// `[side to move][pawn key % PAWN_ENTRIES]`.
    pawn: Box<[[i16; PAWN_ENTRIES]; 2]>,
    /// `[piece_to two or four plies back][piece_to one ply back]`, flattened.
    continuation: Box<[i16]>,
}

/// Where a node's corrections are kept: looked up once per node, read for its evaluation and
/// written after its search.
#[derive(Clone, Copy)]
pub struct Slots {
    side: usize,
    pawn: usize,
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
            pawn: Box::new([[0; PAWN_ENTRIES]; 2]),
            continuation: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
        }
    }

    pub fn clear(&mut self) {
        *self.pawn = [[0; PAWN_ENTRIES]; 2];
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
            pawn: (pawn_key(pos) as usize) & (PAWN_ENTRIES - 1),
            continuation,
        }
    }

    /// The correction to add to the static evaluation of the node at `slots`, in score units.
    #[inline]
    pub fn value(&self, slots: &Slots) -> i32 {
        let pawn = i32::from(self.pawn[slots.side][slots.pawn]);
        let continuation: i32 = slots
            .continuation
            .iter()
            .flatten()
            .map(|&i| i32::from(self.continuation[i]))
            .sum();
        (params::CORR_PAWN_WEIGHT.get() * pawn
            + params::CORR_CONTINUATION_WEIGHT.get() * continuation)
            / 131_072
    }

    /// Learns from a node whose search of `depth` found `best` where the (corrected) static
    /// evaluation said `static_eval`. The caller passes only errors the bound proves: upward when
    /// a move beat alpha, downward when none did.
    #[inline]
    pub fn update(&mut self, slots: &Slots, depth: i32, static_eval: i32, best: i32) {
        let error = best - static_eval;
        let bonus = (error * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        gravity(&mut self.pawn[slots.side][slots.pawn], bonus);
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
        let ceiling = (params::CORR_PAWN_WEIGHT.get() + params::CORR_CONTINUATION_WEIGHT.get())
            * LIMIT
            / 131_072;
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
