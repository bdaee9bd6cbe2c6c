//! Staged move picker: hands out moves best-first and generates each class only when the previous
//! ones failed to cut off, so a node that cuts on the TT move never generates anything.
//!
//! Main search, not in check:
//!   TT move -> captures (and promoting pawn pushes) that pass SEE, best MVV-LVA first -> killer 1 ->
//!   killer 2 -> counter move -> quiets and drops by history -> the captures that failed SEE.
//! In check: TT move -> evasions (captures first by MVV-LVA, then quiets by history).
//! Quiescence, not in check: TT move if tactical -> captures by MVV-LVA (the search applies SEE).
//!
//! Every move handed out is pseudo-legal: generated moves come from the core's staged generators,
//! TT, killer and counter moves are re-validated with `Position::is_pseudo_legal`. The caller
//! filters with `is_legal_pseudo` just before playing.

use super::history::{piece_to, History};
use super::params;
use super::see::see_ge;
use super::values::piece_value;
use crate::core::movegen::{generate_captures, generate_evasions, generate_quiets};
use crate::core::{Move, MoveList, PieceKind, Position, Square, MAX_MOVES};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenEvasions,
    Evasions,
    QGenCaptures,
    QCaptures,
    Done,
}

/// Moves the core's capture generator emits: captures and promoting pawn pushes. Killers and counter
/// moves are taken only from the complement, so no move is handed out twice.
#[inline]
pub fn is_tactical(pos: &Position, m: Move) -> bool {
    pos.is_capture(m) || (m.is_promotion() && pos.moved_piece(m).kind() == PieceKind::Pawn)
}

/// Ordering context a picker needs from the search stack.
#[derive(Clone, Copy)]
pub struct OrderingContext {
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    /// (piece, to) of the moves one and two plies back.
    pub prev: [Option<usize>; 2],
}

pub struct MovePicker {
    stage: Stage,
    /// The stage that follows the TT move.
    first: Stage,
    tt_move: Option<Move>,
    ctx: OrderingContext,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    cur: usize,
    bad: MoveList,
    bad_cur: usize,
    skip_quiets: bool,
    /// Quiet moves scored below this are not sorted (see `partial_sort_descending`).
    sort_limit: i32,
}

/// Most valuable victim first, least valuable attacker as the tie-break; promotions add their gain.
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let moved = pos.moved_piece(m).kind();
    let victim = pos.captured_piece(m).map_or(0, |p| piece_value(p.kind()));
    let promo = if m.is_promotion() {
        moved
            .promoted()
            .map_or(0, |p| piece_value(p) - piece_value(moved))
    } else {
        0
    };
    16 * (victim + promo) - piece_value(moved).min(2000) / 16
}

/// A static nudge for quiet moves before history has anything to say: promotions first, drops next
/// to the enemy king before drops far from it (most far drops are pointless). Bench nodes at depths
/// 8/9/10: no nudge 707396/1252539/2047451; near +500 / far -1500 529669/799962/1446185 (kept);
/// +1000/-3000 649287/966661/1578809; +250/-750 725936/1126786/1906960.
#[inline]
fn quiet_bias(pos: &Position, m: Move) -> i32 {
    if m.is_promotion() {
        return 3000;
    }
    if m.is_drop() {
        let near_king = pos
            .king_square(pos.side_to_move().flip())
            .is_some_and(|k| chebyshev(k, m.to()) <= 2);
        return if near_king { 500 } else { -1500 };
    }
    0
}

#[inline]
fn chebyshev(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

impl MovePicker {
    /// Picker for an interior node of the main search.
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        ctx: OrderingContext,
        depth: i32,
    ) -> MovePicker {
        let first = if pos.in_check() {
            Stage::GenEvasions
        } else {
            Stage::GenCaptures
        };
        let mut picker = MovePicker::with(tt_move, ctx, first);
        picker.sort_limit = -params::QUIET_SORT_LIMIT * depth;
        picker
    }

    /// Picker for quiescence: evasions when in check, otherwise captures only.
    pub fn quiescence(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        let ctx = OrderingContext {
            killers: [None; 2],
            counter: None,
            prev: [None; 2],
        };
        if pos.in_check() {
            MovePicker::with(tt_move, ctx, Stage::GenEvasions)
        } else {
            let tt_move = tt_move.filter(|&m| is_tactical(pos, m));
            MovePicker::with(tt_move, ctx, Stage::QGenCaptures)
        }
    }

    fn with(tt_move: Option<Move>, ctx: OrderingContext, first: Stage) -> MovePicker {
        MovePicker {
            stage: if tt_move.is_some() {
                Stage::TtMove
            } else {
                first
            },
            first,
            tt_move,
            ctx,
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            cur: 0,
            bad: MoveList::new(),
            bad_cur: 0,
            skip_quiets: false,
            sort_limit: i32::MIN,
        }
    }

    /// Late-move pruning: no more quiet moves from now on (killers and counter included).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Index of the best-scored move in `cur..len`, swapped to `cur`.
    #[inline]
    fn select_best(&mut self) -> Option<Move> {
        let len = self.moves.len();
        if self.cur >= len {
            return None;
        }
        let mut best = self.cur;
        for i in self.cur + 1..len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.as_mut_slice().swap(self.cur, best);
        self.scores.swap(self.cur, best);
        let m = self.moves[self.cur];
        self.cur += 1;
        Some(m)
    }

    fn score_captures(&mut self, pos: &Position, history: &History) {
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            let learnt = pos
                .captured_piece(m)
                .map_or(0, |c| history.capture(piece_to(pos, m), c.kind()));
            self.scores[i] = mvv_lva(pos, m) + learnt / params::CAPTURE_HISTORY_DIV;
        }
    }

    fn score_quiets(&mut self, pos: &Position, history: &History) {
        let side = pos.side_to_move();
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            self.scores[i] =
                history.quiet_score(side, m, piece_to(pos, m), self.ctx.prev) + quiet_bias(pos, m);
        }
    }

    fn score_evasions(&mut self, pos: &Position, history: &History) {
        let side = pos.side_to_move();
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            self.scores[i] = if pos.is_capture(m) {
                1 << 20 | mvv_lva(pos, m)
            } else {
                history.quiet_score(side, m, piece_to(pos, m), self.ctx.prev)
            };
        }
    }

    /// A killer or counter move is handed out only when it is a legal-looking quiet move here.
    #[inline]
    fn usable_refutation(&self, pos: &Position, m: Option<Move>) -> Option<Move> {
        let m = m?;
        (!self.skip_quiets
            && Some(m) != self.tt_move
            && pos.is_pseudo_legal(m)
            && !is_tactical(pos, m))
        .then_some(m)
    }

    #[inline]
    fn is_special(&self, m: Move) -> bool {
        Some(m) == self.tt_move
            || Some(m) == self.ctx.killers[0]
            || Some(m) == self.ctx.killers[1]
            || Some(m) == self.ctx.counter
    }

    /// The next move to try, or `None` when all are out.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = self.first;
                    if let Some(m) = self.tt_move.filter(|&m| pos.is_pseudo_legal(m)) {
                        return Some(m);
                    }
                    self.tt_move = None;
                }
                Stage::GenCaptures | Stage::QGenCaptures => {
                    self.moves.clear();
                    generate_captures(pos, &mut self.moves);
                    self.score_captures(pos, history);
                    self.cur = 0;
                    self.stage = if self.stage == Stage::GenCaptures {
                        Stage::GoodCaptures
                    } else {
                        Stage::QCaptures
                    };
                }
                Stage::GoodCaptures => match self.select_best() {
                    Some(m) if Some(m) == self.tt_move => {}
                    Some(m) => {
                        // Losing captures wait until after the quiet moves.
                        if see_ge(pos, m, 0) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    None => {
                        // Refutations are checked here (not in later stages) so that `ctx`
                        // duplicates can be dropped before they are handed out.
                        let k0 = self.usable_refutation(pos, self.ctx.killers[0]);
                        self.ctx.killers[0] = k0;
                        self.stage = Stage::Killer1;
                    }
                },
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    if let Some(m) = self.ctx.killers[0] {
                        return Some(m);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    let k1 = self
                        .usable_refutation(pos, self.ctx.killers[1])
                        .filter(|&m| Some(m) != self.ctx.killers[0]);
                    self.ctx.killers[1] = k1;
                    if let Some(m) = k1 {
                        return Some(m);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let c = self.usable_refutation(pos, self.ctx.counter).filter(|&m| {
                        Some(m) != self.ctx.killers[0] && Some(m) != self.ctx.killers[1]
                    });
                    self.ctx.counter = c;
                    if let Some(m) = c {
                        return Some(m);
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    self.cur = 0;
                    self.moves.clear();
                    if !self.skip_quiets {
                        generate_quiets(pos, &mut self.moves);
                        self.score_quiets(pos, history);
                        partial_sort_descending(
                            self.moves.as_mut_slice(),
                            &mut self.scores,
                            self.sort_limit,
                        );
                    }
                }
                Stage::Quiets => {
                    if self.skip_quiets || self.cur >= self.moves.len() {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let m = self.moves[self.cur];
                    self.cur += 1;
                    if !self.is_special(m) {
                        return Some(m);
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad.len() {
                        let m = self.bad[self.bad_cur];
                        self.bad_cur += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    self.moves.clear();
                    generate_evasions(pos, &mut self.moves);
                    self.score_evasions(pos, history);
                    self.cur = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions | Stage::QCaptures => match self.select_best() {
                    Some(m) if Some(m) == self.tt_move => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

/// Moves scored at least `limit` go to the front, sorted descending (ties keep their order); the
/// rest stay behind them unsorted. Shogi quiet lists run to hundreds of drops that are mostly tried
/// last or pruned, so sorting them all would be wasted work. The front part is partitioned first and
/// then sorted in O(k log k): an insertion sort here took a quarter of all search time.
fn partial_sort_descending(moves: &mut [Move], scores: &mut [i32; MAX_MOVES], limit: i32) {
    // Partition by swapping (the tail keeps the order this leaves it in).
    let mut sorted_end = 0;
    for i in 0..moves.len() {
        if scores[i] >= limit {
            moves.swap(i, sorted_end);
            scores.swap(i, sorted_end);
            sorted_end += 1;
        }
    }
    // Stable descending sort of the front without allocation: each key packs the score (high
    // bits, negated), the position (tie-break) and the move, so sorting the distinct keys ascending
    // gives the stable descending order.
    let mut keys = [0i64; MAX_MOVES];
    for j in 0..sorted_end {
        keys[j] = -(i64::from(scores[j]) << 32) | (j as i64) << 16 | i64::from(moves[j].to_u16());
    }
    keys[..sorted_end].sort_unstable();
    for (slot, &key) in keys[..sorted_end].iter().enumerate() {
        let low = key & 0xFFFF_FFFF;
        // Every key was built from a real move, so the low word is never zero.
        if let Some(m) = Move::from_u16(low as u16) {
            moves[slot] = m;
        }
        scores[slot] = (-((key - low) >> 32)) as i32;
    }
}
