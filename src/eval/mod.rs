//! Static evaluation: a hand-written sum of terms, every weight in [`params::Weights`].
//!
//! Terms (each computed for both sides, Black minus White, then seen from the side to move):
//! - material, with hand pieces valued apart from board pieces ([`material`]);
//! - placement: every piece by where it stands relative to its own king (defence) and to the enemy
//!   king (attack): file distance and rank step, a table per piece class and king,
//!   pawn/lance/knight/king by rank ([`piece_square`], kept up to date move by move in the search);
//! - mobility of lance, bishop, rook, horse, dragon ([`pieces`]);
//! - king safety: attackers and drop threats against defenders on the 3x3 zone, escape squares, open
//!   files beside the king ([`king_safety`]);
//! - threatened pieces: attacked and undefended, or attacked by a pawn, for the side to move and the
//!   other ([`threats`]);
//! - a tempo bonus for the side to move.
//!
//! Variants without drops (Heian) have empty hands by rule; their material is scaled up because a
//! capture there is permanent.
//!
//! [`nnue`] is the other evaluation: networks in YaneuraOu's layout. The search runs either through
//! [`Evaluator`], compiled once for each.
//!
//! The evaluator allocates nothing and walks each piece once; see `benches/eval.rs` for its cost. The
//! search hands it the piece-square sums it keeps along its line ([`evaluate_from`]), so only the
//! terms that need attacks walk the pieces.

mod default_weights;
mod geometry;
mod king_safety;
mod material;
pub mod nnue;
pub mod params;
mod piece_square;
mod pieces;
mod threats;

#[cfg(test)]
mod tests;

use crate::core::position::Position;
use crate::core::{Color, HandKind, Move, PieceKind};
use params::Weights;
pub use piece_square::{MoveRecord, PieceSquare};
pub use pieces::{king_offset_entries, KingTable};

/// A pawn on the board, the unit of the scale.
pub const PAWN_VALUE: i32 = Weights::DEFAULT.board[PieceKind::Pawn as usize];

/// The evaluation never leaves `-EVAL_MAX..=EVAL_MAX`, so the search can keep mate scores above it.
pub const EVAL_MAX: i32 = 20_000;

/// Value of a piece of `kind` on the board (0 for the king), for SEE and move ordering.
#[inline]
pub const fn piece_value(kind: PieceKind) -> i32 {
    Weights::DEFAULT.board[kind as usize]
}

/// Value of one copy of `kind` in hand (without the first-copy bonus), for SEE and move ordering.
#[inline]
pub const fn hand_value(kind: HandKind) -> i32 {
    Weights::DEFAULT.hand[kind as usize]
}

/// What capturing a piece of `kind` gains in material: the piece leaves the board and, where drops
/// exist, its unpromoted form joins the capturer's hand.
#[inline]
pub const fn capture_value(kind: PieceKind, has_drops: bool) -> i32 {
    let on_board = piece_value(kind);
    match kind.hand_kind() {
        Some(h) if has_drops => on_board + hand_value(h),
        _ => on_board,
    }
}

/// The static evaluation of `pos` from the side to move's view, with the default weights.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(&Weights::DEFAULT, pos)
}

/// The static evaluation with the given weights (for tuning and for measuring single terms).
pub fn evaluate_with(w: &Weights, pos: &Position) -> i32 {
    evaluate_from(w, pos, &PieceSquare::compute(w, pos))
}

/// The static evaluation given `pos`'s piece-square sums under the same weights (what the search
/// keeps move by move): equal to [`evaluate_with`].
#[inline]
pub fn evaluate_from(w: &Weights, pos: &Position, sums: &PieceSquare) -> i32 {
    debug_assert_eq!(
        *sums,
        PieceSquare::compute(w, pos),
        "wrong piece-square sums for {}",
        pos.to_sfen()
    );
    let terms = Breakdown::from_sums(w, pos, sums);
    let black_view =
        terms.material + terms.placement + terms.mobility + terms.king_safety + terms.threats;
    let score = match pos.side_to_move() {
        Color::Black => black_view,
        Color::White => -black_view,
    };
    (score + terms.tempo).clamp(-EVAL_MAX, EVAL_MAX)
}

/// The evaluation split into its terms, each from Black's view except `tempo` (side to move's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    pub material: i32,
    pub placement: i32,
    pub mobility: i32,
    pub king_safety: i32,
    pub threats: i32,
    pub tempo: i32,
}

impl Breakdown {
    pub fn compute(w: &Weights, pos: &Position) -> Breakdown {
        Breakdown::from_sums(w, pos, &PieceSquare::compute(w, pos))
    }

    #[inline]
    fn from_sums(w: &Weights, pos: &Position, sums: &PieceSquare) -> Breakdown {
        let frame = pieces::Frame::new(pos);
        let (black_mobility, black_att) = pieces::scan(w, pos, &frame, Color::Black);
        let (white_mobility, white_att) = pieces::scan(w, pos, &frame, Color::White);
        let king_safety =
            king_safety::king_safety(w, pos, &frame, Color::Black, &black_att, &white_att)
                - king_safety::king_safety(w, pos, &frame, Color::White, &white_att, &black_att);
        let threats = threats::threats(w, pos, Color::Black, &black_att, &white_att)
            - threats::threats(w, pos, Color::White, &white_att, &black_att);
        Breakdown {
            material: material::material(w, pos, sums.material),
            placement: sums.placement(),
            mobility: black_mobility - white_mobility,
            king_safety,
            threats,
            tempo: w.tempo,
        }
    }
}

/// An evaluation as the search runs it: a state kept per ply along the search's line, brought up to
/// date lazily from what the moves made since the last ready ply changed, and the score of a
/// position given its state. The search is compiled once per implementation (static dispatch).
pub trait Evaluator: Clone + Send + Sync + 'static {
    /// What the evaluation keeps per position (sums, accumulators).
    type State: Clone + Send;
    /// What it needs to know of a move, taken from the position before it.
    type Delta: Copy + Send;

    /// A state to overwrite (the search allocates its stack of them once).
    fn blank_state(&self) -> Self::State;

    /// `m`'s delta, about to be made on `pos`.
    fn delta(&self, pos: &Position, m: Move) -> Self::Delta;

    /// `pos`'s state from scratch.
    fn compute(&self, pos: &Position, state: &mut Self::State);

    /// The state of `pos`, reached from the position of `before` by moves with these deltas (null
    /// moves have none).
    fn update(
        &self,
        before: &Self::State,
        pos: &Position,
        deltas: impl Iterator<Item = Self::Delta> + Clone,
        after: &mut Self::State,
    );

    /// The static evaluation of `pos` (side to move's view) given its state, within
    /// `-EVAL_MAX..=EVAL_MAX`.
    fn evaluate(&self, pos: &Position, state: &Self::State) -> i32;

    /// The static evaluation from scratch.
    fn evaluate_fresh(&self, pos: &Position) -> i32 {
        let mut state = self.blank_state();
        self.compute(pos, &mut state);
        self.evaluate(pos, &state)
    }
}

/// The hand-written evaluation with the default weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandWritten;

impl Evaluator for HandWritten {
    type State = PieceSquare;
    type Delta = MoveRecord;

    #[inline]
    fn blank_state(&self) -> PieceSquare {
        PieceSquare::ZERO
    }

    #[inline]
    fn delta(&self, pos: &Position, m: Move) -> MoveRecord {
        MoveRecord::new(pos, m)
    }

    #[inline]
    fn compute(&self, pos: &Position, state: &mut PieceSquare) {
        *state = PieceSquare::compute(&Weights::DEFAULT, pos);
    }

    #[inline]
    fn update(
        &self,
        before: &PieceSquare,
        pos: &Position,
        deltas: impl Iterator<Item = MoveRecord> + Clone,
        after: &mut PieceSquare,
    ) {
        *after = before.after_moves(&Weights::DEFAULT, pos, deltas);
    }

    #[inline]
    fn evaluate(&self, pos: &Position, state: &PieceSquare) -> i32 {
        evaluate_from(&Weights::DEFAULT, pos, state)
    }
}
