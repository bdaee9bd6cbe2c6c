//! Staged move picker: hands out moves best-first and generates each class only when the previous
//! ones failed to cut off, so a node that cuts on the TT move never generates anything.
//!
//! Main search, not in check:
//!   TT move -> captures (and promoting pawn pushes) that pass SEE, best MVV-LVA first -> killer 1 ->
//!   killer 2 -> counter move -> quiets and drops by history -> the captures that failed SEE.
//!   When the search says futility would prune every quiet move, only quiet checks are generated;
//!   when late-move pruning has begun, none are.
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
use crate::core::attacks::step_attacks;
use crate::core::movegen::{
    generate_captures, generate_checks, generate_evasions, generate_quiets,
};
use crate::core::{
    Bitboard, HandKind, Move, MoveList, Piece, PieceKind, Position, Square, MAX_MOVES,
};
use std::mem::MaybeUninit;

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
    /// The generated moves of the current stage, in generation order (never reordered).
    moves: MoveList,
    /// Their ordering keys; `keys[cur..]` are still to be handed out.
    keys: OrderKeys,
    cur: usize,
    bad: MoveList,
    bad_cur: usize,
    skip_quiets: bool,
    /// Generate only the quiet moves that give check (the search would prune the others).
    quiet_checks_only: bool,
    /// Quiet moves scored below this are not sorted (see `front_bound`).
    sort_limit: i32,
    /// The quiet keys before this index are in their final order; up to `front_end` the rest of the
    /// front is sorted when the stage gets there.
    sorted_end: usize,
    front_end: usize,
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

// A static nudge for quiet moves before history has anything to say: promotions first, drops next
// to the enemy king before drops far from it (most far drops are pointless). Bench nodes at depths
// 8/9/10: no nudge 707396/1252539/2047451; near +500 / far -1500 529669/799962/1446185 (kept);
// +1000/-3000 649287/966661/1578809; +250/-750 725936/1126786/1906960.
const PROMOTION_BIAS: i32 = 3000;
const NEAR_DROP_BIAS: i32 = 500;
const FAR_DROP_BIAS: i32 = -1500;

/// The nudge of a board move (drops take theirs from [`drop_bias`]).
#[inline]
fn board_move_bias(m: Move) -> i32 {
    if m.is_promotion() {
        PROMOTION_BIAS
    } else {
        0
    }
}

/// The nudge of a drop on each square.
#[inline]
fn drop_bias(near_enemy_king: Bitboard) -> [i32; Square::NUM] {
    let mut bias = [FAR_DROP_BIAS; Square::NUM];
    for sq in near_enemy_king {
        bias[sq.index()] = NEAR_DROP_BIAS;
    }
    bias
}

/// The squares within two steps (Chebyshev distance 2) of the enemy king: where drops attack.
#[inline]
fn near_king(pos: &Position) -> Bitboard {
    let them = pos.side_to_move().flip();
    let Some(k) = pos.king_square(them) else {
        return Bitboard::EMPTY;
    };
    let mut near = step_attacks(them, PieceKind::King, k);
    for sq in near {
        near |= step_attacks(them, PieceKind::King, sq);
    }
    near
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
        picker.sort_limit = -params::QUIET_SORT_LIMIT.get() * depth;
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
            keys: OrderKeys::new(),
            cur: 0,
            bad: MoveList::new(),
            bad_cur: 0,
            skip_quiets: false,
            quiet_checks_only: false,
            sort_limit: i32::MIN,
            sorted_end: 0,
            front_end: 0,
        }
    }

    /// Late-move pruning: no more quiet moves from now on (killers and counter included).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Futility: quiet moves that do not give check would all be pruned, so when the quiets are
    /// generated, generate only the checking ones (a node at the horizon then never builds its
    /// hundred-odd drops). Moves already generated are not filtered: the search prunes them.
    pub fn quiet_checks_only(&mut self) {
        self.quiet_checks_only = true;
    }

    /// The best-keyed move still to be handed out; of equal scores, the one nearest the front of
    /// the keys as they stand (earlier selections swap keys about, so not always generation order).
    #[inline]
    fn select_best(&mut self) -> Option<Move> {
        let keys = self.keys.as_mut_slice();
        if self.cur >= keys.len() {
            return None;
        }
        let mut best = self.cur;
        for i in self.cur + 1..keys.len() {
            if order_score(keys[i]) > order_score(keys[best]) {
                best = i;
            }
        }
        keys.swap(self.cur, best);
        let key = keys[self.cur];
        self.cur += 1;
        Some(self.moves[order_index(key)])
    }

    // The scorers, `sort_leaders` and the core's generators stay out of line:
    // inlined into `next` they made its hot loop 7% more instructions of the whole search
    // (callgrind, bench depth 10).
    #[inline(never)]
    fn score_captures(&mut self, pos: &Position, history: &History) {
        self.keys.fill(&self.moves, |m| {
            let learnt = pos
                .captured_piece(m)
                .map_or(0, |c| history.capture(piece_to(pos, m), c.kind()));
            mvv_lva(pos, m) + learnt / params::CAPTURE_HISTORY_DIV.get()
        });
    }

    #[inline(never)]
    fn score_quiets(&mut self, pos: &Position, history: &History) {
        let side = pos.side_to_move();
        let scorer = history.quiet_scorer(side, self.ctx.prev);
        let board_move = |m: Move| scorer.score(m, piece_to(pos, m)) + board_move_bias(m);
        let hand = pos.hand(side);
        let limit = self.sort_limit;
        if hand.is_empty() {
            self.front_end = self.keys.fill_partitioned(&self.moves, limit, board_move);
            return;
        }
        // Drops are most of a shogi quiet list (every empty square for every kind in hand), and a
        // drop's score depends only on its kind and square: score them row by row. Each row is
        // written once (a kind not in hand gets zeros it never uses), not zeroed first.
        let bias = drop_bias(near_king(pos));
        let drop_scores: [[i32; Square::NUM]; HandKind::NUM] = std::array::from_fn(|k| {
            let kind = HandKind::ALL[k];
            if hand.has(kind) {
                scorer.drop_row(kind, Piece::new(side, kind.piece_kind()), &bias)
            } else {
                [0; Square::NUM]
            }
        });
        self.front_end = self.keys.fill_partitioned(&self.moves, limit, |m| {
            match m.source_index().checked_sub(Move::FIRST_DROP_SOURCE) {
                Some(kind) => drop_scores[kind][m.to().index()],
                None => board_move(m),
            }
        });
    }

    #[inline(never)]
    fn score_evasions(&mut self, pos: &Position, history: &History) {
        let scorer = history.quiet_scorer(pos.side_to_move(), self.ctx.prev);
        self.keys.fill(&self.moves, |m| {
            if pos.is_capture(m) {
                1 << 20 | mvv_lva(pos, m)
            } else {
                scorer.score(m, piece_to(pos, m))
            }
        });
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
                    self.keys.clear();
                    if !self.skip_quiets {
                        if self.quiet_checks_only {
                            generate_checks(pos, &mut self.moves);
                        } else {
                            generate_quiets(pos, &mut self.moves);
                        }
                        self.score_quiets(pos, history);
                        let keys = self.keys.as_mut_slice();
                        self.sorted_end = sort_leaders(&mut keys[..self.front_end]);
                    }
                }
                Stage::Quiets => {
                    if self.skip_quiets || self.cur >= self.keys.len {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let keys = self.keys.as_mut_slice();
                    if self.cur == self.sorted_end && self.cur < self.front_end {
                        // Rarely reached (the node has tried its leaders without a cutoff), so the
                        // standard library's sort, quicker than insertion for a few dozen keys.
                        keys[self.cur..self.front_end].sort_unstable();
                        self.sorted_end = self.front_end;
                    }
                    let m = self.moves[order_index(keys[self.cur])];
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

/// Ordering keys of a stage's moves: one integer per move packing its score (negated, high half)
/// and its index in the move list (low half), so ascending keys are best-first with ties in
/// generation order, and sorting or selecting touches one array of plain integers.
struct OrderKeys {
    keys: [MaybeUninit<i64>; MAX_MOVES],
    len: usize,
}

impl OrderKeys {
    #[inline]
    fn new() -> OrderKeys {
        // Uninitialised: zeroing 4.8 KB in every node was 15% of the search's instructions.
        OrderKeys {
            keys: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }

    /// Sets the keys of the whole list `moves`, each move scored by `score`. Written in one pass
    /// with the length stored once at the end (a store per move kept it in memory: callgrind).
    #[inline]
    fn fill(&mut self, moves: &MoveList, mut score: impl FnMut(Move) -> i32) {
        let n = moves.len();
        for (i, (slot, &m)) in self.keys[..n].iter_mut().zip(moves.iter()).enumerate() {
            *slot = MaybeUninit::new(-(i64::from(score(m)) << 32) | i as i64);
        }
        self.len = n;
    }

    /// `fill`, with the keys of moves scored at least `limit` moved to the front as they are
    /// written; returns the front's length. Each such key swaps with the first key behind the
    /// front, as a partition pass over the filled keys would, so the order is the same, without
    /// reading every key a second time.
    #[inline]
    fn fill_partitioned(
        &mut self,
        moves: &MoveList,
        limit: i32,
        mut score: impl FnMut(Move) -> i32,
    ) -> usize {
        let bound = front_bound(limit);
        let n = moves.len();
        let keys = &mut self.keys[..n];
        let mut front = 0;
        for (i, &m) in moves.iter().enumerate() {
            let key = -(i64::from(score(m)) << 32) | i as i64;
            if key < bound {
                // `front <= i`: slot `front` holds a written key unless it is slot `i` itself,
                // which the next line then writes.
                keys[i] = keys[front];
                keys[front] = MaybeUninit::new(key);
                front += 1;
            } else {
                keys[i] = MaybeUninit::new(key);
            }
        }
        self.len = n;
        front
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [i64] {
        // Safety: the first `len` keys were written by `fill` (MaybeUninit<i64> has i64's layout),
        // and `len <= MAX_MOVES` because `fill` slices the array to `len` with a bounds check.
        unsafe { std::slice::from_raw_parts_mut(self.keys.as_mut_ptr().cast::<i64>(), self.len) }
    }
}

/// The move-list index a key refers to.
#[inline]
fn order_index(key: i64) -> usize {
    (key & 0xFFFF_FFFF) as usize
}

/// The score a key was built from.
#[inline]
fn order_score(key: i64) -> i32 {
    (-((key - (key & 0xFFFF_FFFF)) >> 32)) as i32
}

/// The key bound of the quiet front: a move scored at least `limit` has a key below it. Shogi
/// quiet lists run to hundreds of drops that are mostly tried last or pruned, so only the front is
/// ordered; the rest is handed out unsorted.
///
/// A key is `-(score << 32) | index` with the index below 2^32, so `score >= limit` is one
/// comparison of the whole key against the smallest key a move scored `limit - 1` can have
/// (saturating: a limit near i32::MIN lets every key through, as the score test would).
#[inline]
fn front_bound(limit: i32) -> i64 {
    (1 - i64::from(limit)).saturating_mul(1 << 32)
}

/// How many of the best quiet moves are ordered up front.
const LEADERS: usize = 16;

/// Puts the `LEADERS` smallest keys of `front` (the best moves) first, in order, and returns how
/// many keys are now in their final place. Most nodes hand out a handful of quiet moves and cut
/// off, so the rest of the front is sorted only when the stage reaches it. Keys are distinct
/// (they hold the move's index), so the order is the same as sorting the whole front at once.
#[inline(never)]
fn sort_leaders(front: &mut [i64]) -> usize {
    // Insertion sort: a tenth of the standard library's sort in code on a path every quiet stage
    // runs. Under cachegrind it cost a few more instructions but fewer instruction-cache misses and
    // mispredicted branches; a branch-free insertion (min/max over the sixteen leaders) mispredicted
    // less still but cost 3.5% more instructions, and selecting moves one at a time cost more too.
    let n = front.len().min(LEADERS);
    let (leaders, rest) = front.split_at_mut(n);
    for i in 1..n {
        sink(leaders, i, leaders[i]);
    }
    // Then every later key that beats the worst leader takes its place and sinks to its rank:
    // fronts run to a few dozen keys, few of which get in.
    for key in rest {
        let worst = leaders[n - 1];
        if *key < worst {
            sink(leaders, n - 1, *key);
            *key = worst;
        }
    }
    n
}

/// Stores `key` at `slot` of `sorted` (whose keys before `slot` are in order) and moves it down past
/// every larger key before it.
#[inline(always)]
fn sink(sorted: &mut [i64], slot: usize, key: i64) {
    let mut j = slot;
    while j > 0 && sorted[j - 1] > key {
        sorted[j] = sorted[j - 1];
        j -= 1;
    }
    sorted[j] = key;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;

    /// A middle game with four kinds in the mover's hand: a quiet list of hundreds of moves,
    /// mostly drops.
    fn drop_rich_position() -> Position {
        Position::from_sfen(
            "l2R4l/4g1k2/2n1pp1pp/p1pp2p2/1p5P1/P1PPP1P1P/1PSG1P3/1KG6/LN5RL b BG2S2Nbs 1",
            Variant::Shogi,
        )
        .expect("valid SFEN")
    }

    /// The front holds exactly the keys whose decoded score reaches the limit, for limits around
    /// the scores present and at the extremes, and the keys stand exactly where filling them and
    /// then partitioning them in a second pass (the plain swap partition) puts them.
    #[test]
    fn the_front_holds_the_keys_scored_at_least_the_limit() {
        let pos = drop_rich_position();
        let mut moves = MoveList::new();
        generate_quiets(&pos, &mut moves);
        assert!(moves.len() > 100);
        let scores = [-70_000, -3001, -3000, -2999, -1, 0, 1, 2999, 3000, 65_000];
        let score = |m: Move| scores[(m.to().index() * 7 + m.source_index()) % scores.len()];
        for limit in [i32::MIN, -70_001, -3000, -1, 0, 1, 3000, 65_001, i32::MAX] {
            let mut keys = OrderKeys::new();
            let front = keys.fill_partitioned(&moves, limit, score);
            let keys = keys.as_mut_slice();
            assert!(
                keys[..front].iter().all(|&k| order_score(k) >= limit),
                "limit {limit}"
            );
            assert!(
                keys[front..].iter().all(|&k| order_score(k) < limit),
                "limit {limit}"
            );
            let mut expected: Vec<i64> = moves
                .iter()
                .enumerate()
                .map(|(i, &m)| -(i64::from(score(m)) << 32) | i as i64)
                .collect();
            let mut expected_front = 0;
            for i in 0..expected.len() {
                if order_score(expected[i]) >= limit {
                    expected.swap(i, expected_front);
                    expected_front += 1;
                }
            }
            assert_eq!(front, expected_front, "limit {limit}");
            assert_eq!(keys, &expected[..], "limit {limit}");
        }
    }

    /// The quiet stage hands out every quiet move once: those scored at least the sort limit first,
    /// best first with ties in generation order (the front is sorted), then the
    /// rest. Checked with a history of many ties, at depths whose limits cut the list differently.
    #[test]
    fn quiets_come_out_best_first_then_the_unsorted_rest() {
        let pos = drop_rich_position();
        let side = pos.side_to_move();
        let mut quiets = MoveList::new();
        generate_quiets(&pos, &mut quiets);
        assert!(quiets.len() > 100, "a list long enough to need ordering");
        // Continuation history after two made-up previous moves, so all three tables count.
        let prev = [Some(1234), Some(567)];
        let mut history = History::new();
        for (i, &m) in quiets.iter().enumerate() {
            let bonus = (i * 37 % 9) as i32 * 2000 - 8000;
            history.update_quiet(side, m, piece_to(&pos, m), prev, bonus);
            history.update_quiet(side, m, piece_to(&pos, m), [prev[i % 2], None], bonus / 3);
        }
        // The nudges as documented, written out again rather than taken from the picker.
        let near = near_king(&pos);
        let bias = |m: Move| match (m.is_promotion(), m.is_drop()) {
            (true, _) => 3000,
            (false, true) if near.contains(m.to()) => 500,
            (false, true) => -1500,
            (false, false) => 0,
        };
        let score = |m: Move| history.quiet_score(side, m, piece_to(&pos, m), prev) + bias(m);
        let no_refutations = OrderingContext {
            killers: [None; 2],
            counter: None,
            prev,
        };
        for depth in [1, 2] {
            let limit = -params::QUIET_SORT_LIMIT.get() * depth;
            let mut picker = MovePicker::new(&pos, None, no_refutations, depth);
            let mut out = Vec::new();
            while let Some(m) = picker.next(&pos, &history) {
                if !is_tactical(&pos, m) {
                    out.push(m);
                }
            }
            let mut expected: Vec<Move> = quiets
                .iter()
                .copied()
                .filter(|&m| score(m) >= limit)
                .collect();
            expected.sort_by_key(|&m| -score(m)); // stable: ties stay in generation order
            assert!(
                !expected.is_empty() && expected.len() < quiets.len(),
                "depth {depth}: the limit cuts the list"
            );
            assert_eq!(out[..expected.len()], expected[..], "depth {depth}");
            assert!(out[expected.len()..].iter().all(|&m| score(m) < limit));
            let mut all_out = out.clone();
            all_out.sort_by_key(|m| format!("{m}"));
            let mut all = quiets.iter().copied().collect::<Vec<_>>();
            all.sort_by_key(|m| format!("{m}"));
            assert_eq!(all_out, all, "depth {depth}: every quiet move exactly once");
        }
    }
}
