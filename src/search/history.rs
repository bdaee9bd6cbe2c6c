//! Move-ordering statistics learnt during the search: butterfly history, continuation history,
//! counter moves. One set per search thread (kept between searches; lazy-SMP threads diverge
//! partly through these).

use super::params;
use crate::core::{Color, HandKind, Move, Piece, PieceKind, Position, Square};

/// A (piece after the move, destination) pair: the context continuation history keys on.
pub const PIECE_TO: usize = Piece::NUM * Square::NUM;

/// Index of the (piece, destination) of `m` played in `pos` (before it is made): the piece is the
/// one standing on the destination afterwards, so a promotion counts as the promoted piece.
#[inline]
pub fn piece_to(pos: &Position, m: Move) -> usize {
    // A promoting move's piece can promote, and its promoted form lies `PROMOTION_STEP` kinds on
    // (the same colour), so the promoted piece's index is the mover's plus that step.
    let step = usize::from(m.is_promotion()) * PieceKind::PROMOTION_STEP;
    (pos.moved_piece(m).index() + step) * Square::NUM + m.to().index()
}

/// Bonus for a move that caused a cutoff at `depth` (the other quiets tried get the negation).
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (params::HISTORY_BONUS_MULT.get() * depth - params::HISTORY_BONUS_SUB.get())
        .clamp(0, params::HISTORY_BONUS_MAX.get())
}

/// Moves `entry` toward +-HISTORY_MAX by `bonus`, more slowly the closer it already is ("gravity"),
/// so values stay bounded and recent results weigh more.
#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-params::HISTORY_MAX.get(), params::HISTORY_MAX.get());
    *entry = (e + b - e * b.abs() / params::HISTORY_MAX.get()) as i16;
}

/// The continuation row of a missing previous move: all zero, so scoring needs no branch.
static ZERO_ROW: [i16; PIECE_TO] = [0; PIECE_TO];

/// `History::quiet_score` with the side's and the previous moves' tables already looked up.
pub struct QuietScorer<'a> {
    butterfly: &'a [[i16; Square::NUM]; Move::SOURCES],
    continuation: [&'a [i16]; 2],
}

impl QuietScorer<'_> {
    /// The score of quiet move `m` whose (piece, destination) index is `cur`.
    #[inline]
    pub fn score(&self, m: Move, cur: usize) -> i32 {
        self.butterfly[m.source_index()][m.to().index()] as i32
            + self.continuation[0][cur] as i32
            + self.continuation[1][cur] as i32
    }

    /// `score` of a drop of `kind` (as `piece`, the scorer's side's) on every square, plus
    /// `bias[square]`. The three tables keep one drop kind's destinations contiguous, so a whole
    /// row costs about what a few drops scored one by one do, and a hand piece has dozens.
    #[inline]
    pub fn drop_row(
        &self,
        kind: HandKind,
        piece: Piece,
        bias: &[i32; Square::NUM],
    ) -> [i32; Square::NUM] {
        let butterfly = &self.butterfly[Move::FIRST_DROP_SOURCE + kind.index()];
        let base = piece.index() * Square::NUM;
        let one = &self.continuation[0][base..base + Square::NUM];
        let two = &self.continuation[1][base..base + Square::NUM];
        std::array::from_fn(|i| butterfly[i] as i32 + one[i] as i32 + two[i] as i32 + bias[i])
    }
}

pub struct History {
    /// `[side][source][to]`.
    butterfly: Box<[[[i16; Square::NUM]; Move::SOURCES]; 2]>,
    /// `[previous piece_to][piece_to]`, flattened; used for the moves one and two plies back.
    continuation: Box<[i16]>,
    /// `[previous piece_to]`: the quiet move that last refuted it.
    counter: Box<[Option<Move>]>,
    /// `[piece_to][captured kind]`: how often this capture refuted a position (orders captures of
    /// equal MVV-LVA).
    capture: Box<[[i16; PieceKind::NUM]]>,
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History {
            butterfly: Box::new([[[0; Square::NUM]; Move::SOURCES]; 2]),
            continuation: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
            counter: vec![None; PIECE_TO].into_boxed_slice(),
            capture: vec![[0; PieceKind::NUM]; PIECE_TO].into_boxed_slice(),
        }
    }

    pub fn clear(&mut self) {
        *self.butterfly = [[[0; Square::NUM]; Move::SOURCES]; 2];
        self.continuation.fill(0);
        self.counter.fill(None);
        self.capture.fill([0; PieceKind::NUM]);
    }

    #[inline]
    pub fn capture(&self, cur: usize, captured: PieceKind) -> i32 {
        self.capture[cur][captured.index()] as i32
    }

    #[inline]
    pub fn update_capture(&mut self, cur: usize, captured: PieceKind, bonus: i32) {
        gravity(&mut self.capture[cur][captured.index()], bonus);
    }

    #[inline]
    pub fn counter(&self, prev: Option<usize>) -> Option<Move> {
        prev.and_then(|p| self.counter[p])
    }

    /// Ordering score of a quiet move: butterfly plus the continuation histories of the moves one
    /// and two plies back.
    #[inline]
    pub fn quiet_score(&self, side: Color, m: Move, cur: usize, prev: [Option<usize>; 2]) -> i32 {
        self.quiet_scorer(side, prev).score(m, cur)
    }

    /// The tables `quiet_score` reads for `side` after the moves `prev`, looked up once for a
    /// whole list of moves.
    #[inline]
    pub fn quiet_scorer(&self, side: Color, prev: [Option<usize>; 2]) -> QuietScorer<'_> {
        let row = |p: Option<usize>| match p {
            Some(p) => &self.continuation[p * PIECE_TO..(p + 1) * PIECE_TO],
            None => &ZERO_ROW[..],
        };
        QuietScorer {
            butterfly: &self.butterfly[side.index()],
            continuation: [row(prev[0]), row(prev[1])],
        }
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in all three tables.
    #[inline]
    pub fn update_quiet(
        &mut self,
        side: Color,
        m: Move,
        cur: usize,
        prev: [Option<usize>; 2],
        bonus: i32,
    ) {
        gravity(
            &mut self.butterfly[side.index()][m.source_index()][m.to().index()],
            bonus,
        );
        for p in prev.into_iter().flatten() {
            gravity(&mut self.continuation[p * PIECE_TO + cur], bonus);
        }
    }

    #[inline]
    pub fn set_counter(&mut self, prev: Option<usize>, m: Move) {
        if let Some(p) = prev {
            self.counter[p] = Some(m);
        }
    }
}
