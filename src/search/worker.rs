//! One search thread: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta search and a quiescence search. Every thread of the pool runs one `Worker` on its own
//! copy of the position; they share only the transposition table, the stop flag and their results.
//!
//! Nothing here allocates per node: the stack, PV table and history tables are allocated once per
//! worker and kept between searches.

use super::api::{Bound, SearchEvent, SearchInfo};
use super::correction::{Correction, Slots};
use super::eval_stack::EvalStack;
use super::history::{bonus, piece_to, History};
use super::mate3;
use super::mate_probe;
use super::movepick::{is_tactical, MovePicker, OrderingContext};
use super::params;
use super::pool::SearchConfig;
use super::score::{
    from_tt, is_mate_score, mate_in, mated_in, to_api, to_tt, DRAW, EVAL_NONE, INFINITE,
    MATE_IN_MAX_PLY, MAX_PLY,
};
use super::see::see_ge;
use super::time::TimeLimits;
use super::tt::{Probe, TranspositionTable, TtBound};
use crate::core::attacks::piece_attacks;
use crate::core::outcome::bare_king_loser;
use crate::core::stack_vec::StackVec;
use crate::core::{Move, PieceKind, Position, Repetition, Square, Variant};
use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How often (in nodes of one thread) the clock, the node limit and the stop flag's sources are
/// checked: about every millisecond at a few Mnps, so a hard limit is overrun by well under 1 ms.
const POLL_MASK: u64 = 1023;
const PROGRESS_INTERVAL_MS: u64 = 1000;

/// What one thread found in its last completed iteration (read by the best-thread vote).
#[derive(Clone, Debug, Default)]
pub(crate) struct ThreadResult {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub bound: Option<Bound>,
    pub pv: Vec<Move>,
}

/// How one thread watched the clock during a search, for the debug log: when a move comes back
/// late, it tells a thread that went long between two checks (stalled, or a slow node) from time
/// lost before the search started or after it stopped. All times are ms since `Shared::epoch`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClockTrace {
    /// The latest check.
    pub last_check_ms: u64,
    /// The longest interval between two consecutive checks, and when it ended.
    pub longest_gap_ms: u64,
    pub longest_gap_end_ms: u64,
    /// The check at which this thread stopped the search on its hard limit.
    pub hard_stop_ms: Option<u64>,
}

impl ClockTrace {
    fn record_check(&mut self, now_ms: u64) {
        let gap = now_ms.saturating_sub(self.last_check_ms);
        if gap > self.longest_gap_ms {
            self.longest_gap_ms = gap;
            self.longest_gap_end_ms = now_ms;
        }
        self.last_check_ms = now_ms;
    }
}

/// State shared by every thread of one search.
pub(crate) struct Shared {
    pub tt: Arc<TranspositionTable>,
    pub config: SearchConfig,
    pub stop: AtomicBool,
    /// When the move's clock started (its `go` arrived, or the search started when that is not
    /// known); all deadlines are ms since then.
    pub epoch: Instant,
    /// When the pool was asked to start it, ms since `epoch` (its `go` may have waited before).
    pub started_ms: u64,
    /// Hard deadline in ms since `epoch` (`u64::MAX` = none, e.g. while pondering).
    pub hard_deadline: AtomicU64,
    /// Total node limit (0 = none).
    pub nodes_limit: u64,
    /// Per-thread node counters, published every `POLL_MASK + 1` nodes.
    pub nodes: Vec<AtomicU64>,
    pub results: Vec<Mutex<ThreadResult>>,
    /// The current move's time limits and when its clock started (ms since `epoch`): replaced at
    /// `ponderhit`.
    pub clock: Mutex<(TimeLimits, u64)>,
    pub pondering: AtomicBool,
    /// Ends the root mate probe: raised with `stop`, and by a `ponderhit` whose clock leaves the
    /// probe less than the ponder search gave it (the probe watches no deadline of its own).
    pub probe_stop: AtomicBool,
    /// Root moves the defence check proved lose to a mate (`Worker::defence_refutes`).
    pub refuted: Mutex<Vec<Move>>,
    /// Where thread 0 sends periodic `Progress` events.
    pub sink: super::pool::EventSink,
    /// When the last `Progress` (or `Info`) went out, ms since `epoch`.
    pub last_report: AtomicU64,
}

impl Shared {
    pub fn elapsed_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with what the last iterations said about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    /// Score shown to the user for this line (kept from the last search that touched it).
    pub display_score: i32,
    pub bound: Bound,
    pub seldepth: u32,
    pub pv: Vec<Move>,
}

impl RootMove {
    fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            display_score: -INFINITE,
            bound: Bound::Exact,
            seldepth: 0,
            pv: {
                let mut pv = Vec::with_capacity(MAX_PLY + 1);
                pv.push(mv);
                pv
            },
        }
    }
}

/// The defence check runs from this depth on: earlier iterations' best moves change too often.
const DEFENCE_MIN_DEPTH: u32 = 5;

/// What the defence check did in one search: the moves it probed and the time it took.
#[derive(Default)]
struct Defence {
    probed: Vec<Move>,
    spent_ms: u64,
}

/// A mating move found by a probe, and the plies to the mate.
#[derive(Clone, Copy)]
struct FoundMate {
    mv: Move,
    plies: usize,
}

/// One ply of the search stack.
#[derive(Clone, Copy)]
struct Frame {
    /// (piece, to) of the move made at this ply; `None` for a null move / not yet made.
    piece_to: Option<usize>,
    static_eval: i32,
    killers: [Option<Move>; 2],
    /// A real move (not a null move) was made at this ply.
    moved: bool,
    /// The move a singular-extension search of this ply leaves out (set by the node itself,
    /// around its own reduced search of the other moves).
    excluded: Option<Move>,
    /// Plies by which the move searched from this ply is being reduced (0 outside a reduced
    /// search), so the child can judge the reduction in hindsight.
    reduction: i32,
    /// Beta cutoffs at this ply since the node two plies up began (Stockfish's `cutoffCnt`):
    /// many say the node one ply up is an all node, whose late moves `LMR_CUTOFFS` reduces more.
    cutoffs: u8,
}

impl Frame {
    const EMPTY: Frame = Frame {
        piece_to: None,
        static_eval: EVAL_NONE,
        killers: [None; 2],
        moved: false,
        excluded: None,
        reduction: 0,
        cutoffs: 0,
    };
}

/// The static evaluation as the table keeps it: `i16::MIN` where none was computed (in check).
#[inline]
fn tt_eval(raw_eval: i32) -> i16 {
    if raw_eval == EVAL_NONE {
        i16::MIN
    } else {
        raw_eval as i16
    }
}

/// The better estimate of a node's value from its static evaluation and the table's score: the
/// latter where its bound says the truth lies beyond the former (mate scores are not estimates).
#[inline]
fn refined_eval(static_eval: i32, bound: TtBound, tt_score: i32) -> i32 {
    if is_mate_score(tt_score) {
        return static_eval;
    }
    match bound {
        TtBound::Exact => tt_score,
        TtBound::Lower if tt_score > static_eval => tt_score,
        TtBound::Upper if tt_score < static_eval => tt_score,
        _ => static_eval,
    }
}

/// One ply in the units late-move reductions are summed in (Stockfish's 1024ths): the terms
/// add up in these and the sum is truncated to whole plies once, at the end, so a term worth
/// less than a ply can still tip a move into a deeper or shallower search.
const REDUCTION_UNIT: i32 = 1024;

/// Late-move reduction of the `m`-th move at depth `d` (both at least 1), in `REDUCTION_UNIT`s:
/// whole plies (the formula's value truncated) unless `LMR_FRACTIONAL` keeps its fraction.
fn reduction_formula(d: usize, m: usize) -> i32 {
    let v = params::LMR_BASE.get() as f64 / 100.0
        + (d as f64).ln() * (m as f64).ln() * 100.0 / params::LMR_DIV.get() as f64;
    to_reduction_units(v, params::LMR_FRACTIONAL.get() != 0)
}

/// `plies` (zero if negative) in `REDUCTION_UNIT`s, whole plies unless `fractional`.
fn to_reduction_units(plies: f64, fractional: bool) -> i32 {
    let plies = plies.max(0.0);
    if fractional {
        (plies * f64::from(REDUCTION_UNIT)) as i32
    } else {
        plies as i32 * REDUCTION_UNIT
    }
}

/// The late-move reduction in whole plies, for the pruning rules that judge a move by the depth
/// it would be searched to.
#[inline]
fn reduction_plies(depth: i32, move_count: usize) -> i32 {
    reduction(depth, move_count) / REDUCTION_UNIT
}

/// How much less a quiet move with history `hist` is reduced, in `REDUCTION_UNIT`s: a ply per
/// `LMR_HISTORY_DIV`, truncated to whole plies unless `LMR_FRACTIONAL` keeps the fraction
/// (Stockfish's `statScore` term is continuous).
#[inline]
fn history_relief(hist: i32) -> i32 {
    history_relief_units(
        hist,
        params::LMR_HISTORY_DIV.get(),
        params::LMR_FRACTIONAL.get() != 0,
    )
}

/// `hist / div` plies in `REDUCTION_UNIT`s (toward zero), whole plies unless `fractional`.
#[inline]
fn history_relief_units(hist: i32, div: i32, fractional: bool) -> i32 {
    if fractional {
        (i64::from(hist) * i64::from(REDUCTION_UNIT) / i64::from(div)) as i32
    } else {
        hist / div * REDUCTION_UNIT
    }
}

/// Late-move reduction table `[depth][move number]` in `REDUCTION_UNIT`s, built once per process.
#[cfg(not(feature = "tune"))]
fn reductions() -> &'static [[i32; 64]; 64] {
    use std::sync::OnceLock;
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = reduction_formula(d, m);
            }
        }
        t
    })
}

#[cfg(not(feature = "tune"))]
#[inline]
fn reduction(depth: i32, move_count: usize) -> i32 {
    reductions()[(depth as usize).min(63)][move_count.min(63)]
}

/// A tuning build's `LMR_BASE` and `LMR_DIV` change between searches, so it computes each
/// reduction from them: the table's formula at the table's indices (its zero row and column are 0).
#[cfg(feature = "tune")]
fn reduction(depth: i32, move_count: usize) -> i32 {
    let (d, m) = ((depth as usize).min(63), move_count.min(63));
    if d == 0 || m == 0 {
        return 0;
    }
    reduction_formula(d, m)
}

/// Futility pruning of the `move_count`-th quiet move: even a big positional gain would not lift
/// the static evaluation to alpha. Once true at a node it stays true for every later move (the
/// reduction only grows with the move count, alpha only rises).
#[inline]
fn futile_quiet(depth: i32, move_count: usize, static_eval: i32, alpha: i32) -> bool {
    let lmr_depth = (depth - 1 - reduction_plies(depth, move_count)).max(0);
    lmr_depth < params::FUTILITY_MAX_DEPTH.get()
        && static_eval + params::FUTILITY_BASE.get() + params::FUTILITY_MULT.get() * lmr_depth
            <= alpha
}

/// `futile_quiet` for one move whose history (butterfly and continuations) is `hist`: with
/// `FUTILITY_HIST_DIV` on, the move's expected depth grows (or shrinks) by `hist` over it, as in
/// Stockfish's and YaneuraOu's futility, so a move that often refuted here is tried deeper and
/// one that often failed is dropped sooner. Not monotone in the move count then, so the move
/// picker's shortcut (`quiet_checks_only`) is off with it.
#[inline]
fn futile_quiet_history(
    depth: i32,
    move_count: usize,
    static_eval: i32,
    alpha: i32,
    hist: i32,
) -> bool {
    let div = params::FUTILITY_HIST_DIV.get();
    if div == 0 {
        return futile_quiet(depth, move_count, static_eval, alpha);
    }
    let lmr_depth = (depth - 1 - reduction_plies(depth, move_count)).max(0) + hist / div;
    lmr_depth < params::FUTILITY_MAX_DEPTH.get()
        && static_eval + params::FUTILITY_BASE.get() + params::FUTILITY_MULT.get() * lmr_depth
            <= alpha
}

/// How much material a quiet move may give away (SEE) at an expected depth `lmr_depth` before
/// it is pruned: linear in the depth, or with `SEE_QUIET_QUAD` on quadratic as YaneuraOu's
/// (-25 d^2 there), which spares sacrifices at the larger depths where mating attacks need them.
#[inline]
fn quiet_see_margin(lmr_depth: i32) -> i32 {
    match params::SEE_QUIET_QUAD.get() {
        0 => params::SEE_QUIET_MARGIN.get() * lmr_depth,
        quad => -quad * lmr_depth * lmr_depth,
    }
}

/// Late-move pruning: how many moves a non-PV node tries before it drops the quiet ones.
#[inline]
fn late_move_limit(depth: i32, improving: bool) -> usize {
    (params::LMP_BASE.get() + depth * depth) as usize / (2 - usize::from(improving))
}

/// Lazy-SMP diversification: helper threads skip some depths so that they run ahead of the main
/// thread at different depths instead of duplicating its work (size/phase pattern per helper).
/// What a drop `m` in `pos` (before it is made) threatens: the enemy pieces it attacks, and
/// whether it lands within two squares of the enemy king with support. Late drops are reduced as
/// the pointless ones are unless these spare them (`LMR_DROP_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DropThreats {
    attacked: i32,
    supported_near_king: bool,
}

impl DropThreats {
    #[inline]
    fn of(pos: &Position, m: Move) -> DropThreats {
        let us = pos.side_to_move();
        let to = m.to();
        let reach = piece_attacks(pos.moved_piece(m), to, pos.occupied());
        let supported_near_king = pos.king_square(!us).is_some_and(|king| {
            let distance = king
                .file()
                .abs_diff(to.file())
                .max(king.rank().abs_diff(to.rank()));
            distance < 3 && pos.attackers_to(us, to, pos.occupied()).is_nonempty()
        });
        DropThreats {
            attacked: (reach & pos.pieces_of(!us)).count() as i32,
            supported_near_king,
        }
    }

    /// Plies of reduction the drop is spared.
    #[inline]
    fn relief(self) -> i32 {
        self.attacked * params::LMR_DROP_ATTACKS.get()
            + i32::from(self.supported_near_king) * params::LMR_DROP_NEAR_KING.get()
    }
}

const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Heian's bare-king rule for the side to move: it has nothing left but its king (or no king), so
/// the capture that led here won the game; scored like being mated at this ply. Always false in
/// variants without the rule (`core::outcome` is the one definition of the rule).
#[inline]
fn is_bare_king_loss(pos: &Position) -> bool {
    bare_king_loser(pos) == Some(pos.side_to_move())
}

/// The main thread's extra duties: reporting and time decisions.
pub(crate) struct MainDuties<'a> {
    pub sink: &'a (dyn Fn(SearchEvent) + Send + Sync),
    /// Maximum depth to iterate to.
    pub max_depth: u32,
    /// `go infinite`: iterate until stopped (time decisions off).
    pub infinite: bool,
}

pub(crate) struct Worker<E: Evaluator> {
    pub id: usize,
    pos: Position,
    /// The evaluation and its state per ply.
    eval: EvalStack<E>,
    shared: Option<Arc<Shared>>,
    history: History,
    correction: Correction,
    stack: Vec<Frame>,
    pv_table: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    pub root_moves: Vec<RootMove>,
    pv_idx: usize,
    multipv: usize,
    pub nodes: u64,
    seldepth: usize,
    root_depth: i32,
    completed_depth: u32,
    /// Null move is disabled for plies below this (null-move verification).
    nmp_min_ply: usize,
    /// The defence check's moves and time in this search (main thread).
    defence: Defence,
    pub clock_trace: ClockTrace,
}

impl<E: Evaluator> Worker<E> {
    pub fn new(id: usize, eval: E) -> Worker<E> {
        Worker {
            id,
            pos: Position::startpos(Variant::Shogi),
            eval: EvalStack::new(eval, MAX_PLY + 4),
            shared: None,
            history: History::new(),
            correction: Correction::new(),
            stack: vec![Frame::EMPTY; MAX_PLY + 4],
            pv_table: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves: Vec::new(),
            pv_idx: 0,
            multipv: 1,
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            completed_depth: 0,
            nmp_min_ply: 0,
            defence: Defence::default(),
            clock_trace: ClockTrace::default(),
        }
    }

    /// The evaluation this worker runs (the same type, another network or scale).
    pub fn set_evaluator(&mut self, eval: E) {
        self.eval.set_evaluator(eval);
    }

    pub fn evaluator(&self) -> &E {
        self.eval.evaluator()
    }

    /// Forget everything learnt (for `usinewgame` / ClearHash and deterministic benches).
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
    }

    /// Prepares a search of `pos` over `root_moves` (legal, non-empty).
    pub fn prepare(
        &mut self,
        pos: Position,
        root_moves: &[Move],
        shared: Arc<Shared>,
        multipv: usize,
    ) {
        self.pos = pos;
        self.shared = Some(shared);
        self.root_moves = root_moves.iter().map(|&m| RootMove::new(m)).collect();
        self.multipv = multipv.clamp(1, root_moves.len().max(1));
        self.pv_idx = 0;
        self.nodes = 0;
        self.seldepth = 0;
        self.completed_depth = 0;
        self.nmp_min_ply = 0;
        self.defence = Defence::default();
        self.stack.fill(Frame::EMPTY);
        self.clock_trace = ClockTrace {
            last_check_ms: self.shared().elapsed_ms(),
            ..ClockTrace::default()
        };
    }

    /// Drops the references to this search's shared state (the TT can then be resized).
    pub fn release(&mut self) {
        self.shared = None;
    }

    #[inline]
    fn shared(&self) -> &Shared {
        self.shared.as_deref().expect("worker prepared")
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.shared().stop.load(Ordering::Relaxed)
    }

    /// Called every `POLL_MASK + 1` nodes: publish the node count, enforce the hard limit and the
    /// node limit.
    #[cold]
    fn poll(&mut self, shared: &Shared) {
        let now = shared.elapsed_ms();
        if self.id == 0 {
            self.maybe_progress(shared, now);
        }
        shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        self.clock_trace.record_check(now);
        let deadline = shared.hard_deadline.load(Ordering::Relaxed);
        if deadline != u64::MAX && now >= deadline && !shared.stop.swap(true, Ordering::Relaxed) {
            self.clock_trace.hard_stop_ms = Some(now);
        }
        if shared.nodes_limit != 0 {
            let total = if shared.nodes.len() == 1 {
                self.nodes
            } else {
                shared.total_nodes()
            };
            if total >= shared.nodes_limit {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// A progress line once a second while an iteration runs long (GUIs show nodes and nps).
    fn maybe_progress(&self, shared: &Shared, now: u64) {
        if now < shared.last_report.load(Ordering::Relaxed) + PROGRESS_INTERVAL_MS {
            return;
        }
        shared.last_report.store(now, Ordering::Relaxed);
        let nodes = shared.total_nodes().max(self.nodes);
        (shared.sink)(SearchEvent::Progress {
            nodes,
            nps: nodes * 1000 / now.max(1),
            time_ms: now,
            hashfull: shared.tt.hashfull(),
        });
    }

    #[inline]
    fn count_node(&mut self, sh: &Shared) {
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 {
            self.poll(sh);
        }
    }

    /// Score of a draw for the side to move at `ply`: `-contempt` for the root side.
    #[inline]
    fn draw_score(sh: &Shared, ply: usize) -> i32 {
        let contempt = sh.config.contempt;
        if ply.is_multiple_of(2) {
            DRAW - contempt
        } else {
            DRAW + contempt
        }
    }

    // ----------------------------------------------------------------------------------------
    // Iterative deepening
    // ----------------------------------------------------------------------------------------

    /// Runs iterative deepening until stopped (helpers) or until the main thread's limits say so.
    pub fn iterate(&mut self, main: Option<&MainDuties<'_>>) {
        #[cfg(test)]
        if tests::INJECT_PANIC.load(Ordering::Relaxed) {
            panic!("panic injected by a test");
        }
        let max_depth = main
            .map_or(MAX_PLY as u32 - 1, |m| m.max_depth)
            .min(MAX_PLY as u32 - 1);
        let mut last_best: Option<Move> = None;
        let mut stable_iterations = 0u32;
        let mut best_move_changes = 0.0f64;
        let mut prev_iteration_score = -INFINITE;
        // One handle for the whole search: the hot path borrows it instead of touching the Arc.
        let shared = Arc::clone(self.shared.as_ref().expect("worker prepared"));
        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            if self.stopped() {
                break;
            }
            self.drop_refuted(&shared);
            if self.id > 0 {
                let i = (self.id - 1) % SKIP_SIZE.len();
                if !((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]).is_multiple_of(2) {
                    continue;
                }
            }
            self.root_depth = depth as i32;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            let mut changes_this_iteration = 0u32;
            for pv_idx in 0..self.multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let before = self.root_moves[0].mv;
                self.aspiration(&shared, depth as i32, main);
                if self.root_moves[0].mv != before {
                    changes_this_iteration += 1;
                }
                // Keep the lines above `pv_idx` in place; sort the searched ones.
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() && self.completed_depth > 0 {
                // An interrupted iteration only counts where it produced a new best line (handled by
                // the root-move sort); keep the completed depth as is.
                self.publish(false);
                break;
            }
            self.completed_depth = depth;
            self.publish(true);

            let Some(main) = main else { continue };
            self.report(main);
            if self.refute_best(&shared, depth) {
                // The best move loses to a mate: the same depth again without it.
                depth -= 1;
                last_best = None;
                stable_iterations = 0;
                continue;
            }

            // Time decisions (not in infinite search, not while pondering).
            let best = self.root_moves[0].mv;
            if Some(best) == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            last_best = Some(best);
            best_move_changes = best_move_changes / 2.0 + changes_this_iteration as f64;
            let score = self.root_moves[0].score;
            if main.infinite || self.shared().pondering.load(Ordering::Relaxed) {
                prev_iteration_score = score;
                continue;
            }
            // A proven mate needs no deeper search.
            if is_mate_score(score) && (super::score::MATE - score.abs()) as u32 * 2 + 2 <= depth {
                break;
            }
            let (limits, clock_start) = *self
                .shared()
                .clock
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            // A single legal move needs no thinking time (but a `go depth N` still gets its depth).
            if self.root_moves.len() == 1 && depth >= 4 && limits.hard.is_some() {
                break;
            }
            let score_drop = if prev_iteration_score == -INFINITE {
                0
            } else {
                prev_iteration_score - score
            };
            prev_iteration_score = score;
            if let Some(soft) =
                limits.adjusted_soft(stable_iterations, best_move_changes, score_drop)
            {
                let elapsed = self.shared().elapsed_ms().saturating_sub(clock_start);
                if elapsed >= soft {
                    break;
                }
            }
        }
        self.shared().nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// The defence check of the best root move after a completed iteration (a move that becomes
    /// best within one is checked there, `root_search`). A move after which the opponent is proven
    /// to mate by checks leaves the root moves for every thread; `true` then, and the caller
    /// searches the iteration again.
    fn refute_best(&mut self, sh: &Shared, depth: u32) -> bool {
        let best = &self.root_moves[0];
        if !self.defence_refutes(sh, best.mv, best.score, depth) {
            return false;
        }
        let refuted = self.root_moves.remove(0);
        // Until the repeated iteration scores it, the next move stands in the vote with the
        // refuted move's score as an upper bound: every other move failed low against it.
        let next = &mut self.root_moves[0];
        let unscored = next.score == -INFINITE;
        if unscored {
            next.score = refuted.score;
            next.display_score = refuted.score;
        }
        next.bound = Bound::Upper;
        next.pv.truncate(1);
        self.publish(true);
        if unscored {
            self.root_moves[0].score = -INFINITE;
        }
        true
    }

    /// The defence check (`mate_probe::refutation`) of root move `mv`, scored `score` at `depth`:
    /// once per move and search, from `DEFENCE_MIN_DEPTH` on, in searches with a hard time limit
    /// (depth and node searches stay pure alpha-beta and reproducible), one line, and while
    /// another root move is left. `true` when the opponent is proven to mate by checks after it;
    /// the move is then in `Shared::refuted` for every thread, and the caller drops it.
    fn defence_refutes(&mut self, sh: &Shared, mv: Move, score: i32, depth: u32) -> bool {
        if self.multipv > 1
            || self.root_moves.len() < 2
            || depth < DEFENCE_MIN_DEPTH
            || is_mate_score(score)
            || self.defence.probed.contains(&mv)
            || sh.pondering.load(Ordering::Relaxed)
        {
            return false;
        }
        let (limits, clock_start) = *sh.clock.lock().unwrap_or_else(|e| e.into_inner());
        let Some(hard) = limits.hard else {
            return false;
        };
        let started = sh.elapsed_ms();
        let elapsed = started.saturating_sub(clock_start);
        let Some(budget) = mate_probe::defence_budget_ms(hard, self.defence.spent_ms, elapsed)
        else {
            return false;
        };
        self.defence.probed.push(mv);
        let mut child = self.pos.clone();
        child.do_move(mv);
        let line = mate_probe::refutation(&child, budget, &sh.stop);
        let finished = sh.elapsed_ms();
        self.defence.spent_ms += finished - started;
        let Some(line) = line else {
            log::trace!(
                "defence: {} holds for {} ms at depth {depth}",
                mv.to_usi(),
                finished - started
            );
            return false;
        };
        log::debug!(
            "defence: {} (scored {score}) loses to a mate in {} plies, proven in {} ms at depth {depth}",
            mv.to_usi(),
            line.len(),
            finished - started
        );
        sh.refuted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(mv);
        true
    }

    /// Drops the root moves another thread's defence check refuted (while more than one is left).
    fn drop_refuted(&mut self, sh: &Shared) {
        let refuted = sh.refuted.lock().unwrap_or_else(|e| e.into_inner());
        if refuted.is_empty() {
            return;
        }
        for mv in refuted.iter() {
            if self.root_moves.len() > 1 {
                self.root_moves.retain(|rm| rm.mv != *mv);
            }
        }
    }

    /// Writes this thread's current best line for the vote.
    fn publish(&self, completed: bool) {
        let rm = &self.root_moves[0];
        let mut slot = self.shared().results[self.id]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if !completed && slot.depth > 0 && slot.pv.first() == Some(&rm.mv) {
            return;
        }
        slot.depth = self.completed_depth;
        slot.seldepth = rm.seldepth;
        slot.score = rm.score;
        slot.bound = Some(rm.bound);
        slot.pv.clone_from(&rm.pv);
    }

    /// Emits one `Info` per MultiPV line.
    fn report(&self, main: &MainDuties<'_>) {
        let shared = self.shared();
        shared
            .last_report
            .store(shared.elapsed_ms(), Ordering::Relaxed);
        for (i, rm) in self.root_moves.iter().take(self.multipv).enumerate() {
            (main.sink)(SearchEvent::Info(self.info_for(
                i,
                rm,
                self.completed_depth,
            )));
        }
    }

    pub(crate) fn info_for(&self, index: usize, rm: &RootMove, depth: u32) -> SearchInfo {
        let shared = self.shared();
        let nodes = shared.total_nodes().max(self.nodes);
        let time_ms = shared.elapsed_ms();
        SearchInfo {
            depth: depth.max(1),
            seldepth: rm.seldepth.max(depth),
            multipv: index as u32 + 1,
            score: to_api(rm.display_score),
            bound: rm.bound,
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            time_ms,
            hashfull: shared.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }

    /// One iteration for the line `pv_idx`, re-searching with wider windows on fail high / low.
    fn aspiration(&mut self, sh: &Shared, depth: i32, main: Option<&MainDuties<'_>>) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = params::ASPIRATION_DELTA.get();
        let (mut alpha, mut beta) = if depth >= 4 && prev > -INFINITE && !is_mate_score(prev) {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.root_search(sh, alpha, beta, depth, main.is_some());
            self.root_moves[self.pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if sh.stop.load(Ordering::Relaxed) {
                return;
            }
            let bound = if score <= alpha {
                Bound::Upper
            } else if score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.root_moves[self.pv_idx].bound = bound;
            if bound == Bound::Exact {
                return;
            }
            // Tell the user about long fail highs / lows as they happen.
            if let Some(main) = main {
                if sh.elapsed_ms() > 3000 {
                    let rm = &self.root_moves[self.pv_idx];
                    (main.sink)(SearchEvent::Info(self.info_for(
                        self.pv_idx,
                        rm,
                        depth as u32,
                    )));
                }
            }
            if bound == Bound::Upper {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else {
                beta = (score + delta).min(INFINITE);
            }
            delta += delta / 2 + 5;
        }
    }

    /// The root node: searches root moves `pv_idx..` in their current order. On the main thread
    /// (`defend`) a move that becomes the best one has the defence check at once and leaves the
    /// root moves if it loses to a mate: checked only after its iteration, a move that became
    /// best in an iteration the clock then cut short would be played unchecked.
    fn root_search(
        &mut self,
        sh: &Shared,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        defend: bool,
    ) -> i32 {
        let ply = 0;
        self.pv_len[0] = 0;
        self.stack[0] = Frame {
            static_eval: EVAL_NONE,
            killers: self.stack[0].killers,
            ..Frame::EMPTY
        };
        self.eval.set_root(&self.pos);
        self.stack[2].killers = [None; 2];
        self.stack[1].cutoffs = 0;
        self.stack[2].cutoffs = 0;
        let in_check = self.pos.in_check();
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut i = self.pv_idx;
        while i < self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let move_count = i - self.pv_idx + 1;
            self.seldepth = 0;
            let gives_check = self.pos.gives_check(m);
            let quiet = !is_tactical(&self.pos, m);
            let new_depth = depth - 1 + i32::from(gives_check);
            self.make(sh, m, ply);
            let mut score;
            if move_count == 1 {
                score = -self.search::<true>(sh, -beta, -alpha, new_depth, ply + 1, false);
            } else {
                let r = if depth >= 3 && quiet && !in_check && !gives_check {
                    (reduction_plies(depth, move_count) - 1).max(0)
                } else {
                    0
                };
                score = -self.search::<false>(sh, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score =
                        -self.search::<false>(sh, -alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if score > alpha {
                    score = -self.search::<true>(sh, -beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unmake();
            if sh.stop.load(Ordering::Relaxed) {
                break;
            }
            if defend
                && move_count > 1
                && score > alpha
                && self.defence_refutes(sh, m, score, depth as u32)
            {
                self.root_moves.remove(i);
                continue;
            }
            let seldepth = self.seldepth as u32;
            let rm = &mut self.root_moves[i];
            if move_count == 1 || score > alpha {
                rm.score = score;
                rm.display_score = score;
                rm.seldepth = seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                let len = self.pv_len[1];
                rm.pv
                    .extend(self.pv_table[1][1..len].iter().map_while(|m| *m));
            } else {
                // Only the best move keeps a real score; the others sort below it by last score.
                rm.score = -INFINITE;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            i += 1;
        }
        if let Some(m) = best_move {
            if !sh.stop.load(Ordering::Relaxed) && self.pv_idx == 0 {
                let key = self.pos.key();
                let side = self.pos.side_to_move().index();
                let bound = if best_score >= beta {
                    TtBound::Lower
                } else {
                    TtBound::Exact
                };
                let tt = &sh.tt;
                let probe = tt.probe(key, side);
                tt.store(
                    &probe,
                    key,
                    Some(m),
                    to_tt(best_score, 0),
                    i16::MIN,
                    depth,
                    bound,
                    true,
                );
            }
        }
        best_score
    }

    // ----------------------------------------------------------------------------------------
    // Making moves with the bookkeeping the search stack needs
    // ----------------------------------------------------------------------------------------

    #[inline]
    fn make(&mut self, sh: &Shared, m: Move, ply: usize) {
        let pos = &mut self.pos;
        // Fetch the child's bucket before making the move: the memory latency (mostly a TLB miss
        // on a large table) then overlaps `do_move` and its check detection instead of stalling
        // the child's probe.
        sh.tt
            .prefetch(pos.key_after(m), pos.side_to_move().flip().index());
        self.stack[ply].piece_to = Some(piece_to(pos, m));
        self.stack[ply].moved = true;
        self.eval.make(ply, pos, m);
        pos.do_move(m);
    }

    /// The static evaluation of the position at `ply` (the current one).
    #[inline]
    fn evaluate(&mut self, ply: usize) -> i32 {
        self.eval.evaluate(ply, &self.pos)
    }

    /// Brings the evaluation's state of `ply` (the current position) up to date: before a move
    /// loop, so that the children update from it.
    #[inline]
    fn ready_eval(&mut self, ply: usize) {
        self.eval.ready(ply, &self.pos);
    }

    #[inline]
    fn unmake(&mut self) {
        self.pos.undo_move();
    }

    /// The (piece, destination) of the moves one and two plies back from the node at `ply`,
    /// whose continuation histories order and learn its quiets.
    #[inline]
    fn prev(&self, ply: usize) -> [Option<usize>; 2] {
        let one = if ply >= 1 {
            self.stack[ply - 1].piece_to
        } else {
            None
        };
        let two = if ply >= 2 {
            self.stack[ply - 2].piece_to
        } else {
            None
        };
        [one, two]
    }

    /// Where the correction history keeps the node at `ply` (the current position).
    #[inline]
    fn correction_slots(&self, ply: usize) -> Slots {
        let back = |n: usize| {
            if ply >= n {
                self.stack[ply - n].piece_to
            } else {
                None
            }
        };
        Correction::slots(&self.pos, back(1), [back(2), back(4)])
    }

    /// `raw` corrected by the search's past errors at `slots`, kept off the mate scores.
    #[inline]
    fn corrected(&self, raw: i32, slots: &Slots) -> i32 {
        (raw + self.correction.value(slots)).clamp(-MATE_IN_MAX_PLY + 1, MATE_IN_MAX_PLY - 1)
    }

    /// A mate a probe found at `ply`: the PV (at PV nodes) and the table learn it (as an exact
    /// entry of `depth`, the node's evaluation `eval` kept), and the node returns its score.
    #[allow(clippy::too_many_arguments)]
    fn found_mate<const PV: bool>(
        &mut self,
        tt: &TranspositionTable,
        probe: &Probe<'_>,
        key: u64,
        ply: usize,
        found: FoundMate,
        eval: i16,
        depth: i32,
    ) -> i32 {
        let score = mate_in(ply + found.plies);
        if PV {
            self.pv_len[ply + 1] = ply + 1;
            self.update_pv(ply, found.mv);
        }
        tt.store(
            probe,
            key,
            Some(found.mv),
            to_tt(score, ply),
            eval,
            depth,
            TtBound::Exact,
            PV,
        );
        score
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv_table[ply][ply] = Some(m);
        for i in ply + 1..child_len {
            self.pv_table[ply][i] = self.pv_table[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    // ----------------------------------------------------------------------------------------
    // Node-level shogi rules
    // ----------------------------------------------------------------------------------------

    /// The game-theoretic value of the node when a rule ends the game here (repetition, maximum
    /// game length, declaration, Heian's bare king), from the side to move's view.
    fn rule_score(&mut self, sh: &Shared, ply: usize) -> Option<i32> {
        let (rule, max_moves) = {
            let c = &sh.config;
            (c.entering_king_rule, c.max_moves_to_draw)
        };
        let draw = Self::draw_score(sh, ply);
        let pos = &self.pos;
        match pos.repetition() {
            Repetition::None => {}
            Repetition::Draw => return Some(draw),
            // The opponent checked on every move of the cycle: perpetual check loses for them.
            Repetition::Win => return Some(mate_in(ply)),
            Repetition::Loss => return Some(mated_in(ply)),
            Repetition::Superior => return Some(params::SUPERIOR_REPETITION.get()),
            Repetition::Inferior => return Some(-params::SUPERIOR_REPETITION.get()),
        }
        if max_moves != 0 && pos.game_ply() > max_moves {
            return Some(draw);
        }
        if is_bare_king_loss(pos) {
            return Some(mated_in(ply));
        }
        if pos.can_declare(rule) {
            return Some(mate_in(ply + 1));
        }
        None
    }

    /// Cheap filters before the mate-in-three probe: the enemy king has few free squares, and the
    /// game cannot hit the move limit inside the three plies (the probe does not know that rule).
    #[inline]
    fn mate3_allowed(&self, sh: &Shared) -> bool {
        let max_moves = sh.config.max_moves_to_draw;
        (max_moves == 0 || self.pos.game_ply() + 3 <= max_moves)
            && mate3::king_escapes(&self.pos) <= params::MATE3_MAX_ESCAPES.get() as u32
    }

    // ----------------------------------------------------------------------------------------
    // Alpha-beta
    // ----------------------------------------------------------------------------------------

    fn search<const PV: bool>(
        &mut self,
        sh: &Shared,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch::<PV>(sh, alpha, beta, ply);
        }
        // 1. Bookkeeping.
        if PV {
            self.pv_len[ply] = ply;
        }
        self.count_node(sh);
        self.seldepth = self.seldepth.max(ply + 1);
        if sh.stop.load(Ordering::Relaxed) {
            return 0;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        self.stack[ply + 2].killers = [None; 2];
        self.stack[ply + 2].cutoffs = 0;
        self.stack[ply].piece_to = None;
        self.stack[ply].moved = false;

        // 2. The game may be over here by rule (sennichite, declaration, max moves, bare king).
        if let Some(score) = self.rule_score(sh, ply) {
            return score;
        }

        // 3. Mate-distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // 4. Transposition table.
        let (key, side) = {
            let pos = &self.pos;
            (pos.key(), pos.side_to_move())
        };
        let tt = &sh.tt;
        let probe = tt.probe(key, side.index());
        // A singular-extension search of this node leaves out one move: the table's entry is
        // about all of them, so it neither cuts this search off nor gets its result.
        let excluded = self.stack[ply].excluded;
        let tt_hit = probe.hit.filter(|_| excluded.is_none());
        let tt_move = tt_hit
            .and_then(|h| h.mv())
            .filter(|&m| self.pos.is_pseudo_legal(m));
        let tt_score = tt_hit.map(|h| from_tt(h.score, ply));
        if let (false, Some(hit), Some(score)) = (PV, tt_hit, tt_score) {
            if hit.depth as i32 >= depth
                && match hit.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => score >= beta,
                    TtBound::Upper => score <= alpha,
                    TtBound::None => false,
                }
            {
                // The table's move refuted this node before: its history learns it as a
                // search's cutoff would have taught it (Stockfish's quiet TT move bonus).
                if params::TT_CUTOFF_HISTORY.get() != 0 && score >= beta {
                    if let Some(m) = tt_move.filter(|&m| !is_tactical(&self.pos, m)) {
                        let pt = piece_to(&self.pos, m);
                        let prev = self.prev(ply);
                        self.history.update_quiet(side, m, pt, prev, bonus(depth));
                    }
                }
                return score;
            }
        }

        // 5. Static evaluation: the evaluation's (kept in the table as it is) plus the correction
        // history's. A singular-extension search's is its node's, already known.
        let slots = (!in_check).then(|| self.correction_slots(ply));
        let (raw_eval, static_eval) = match &slots {
            None => (EVAL_NONE, EVAL_NONE),
            Some(_) if excluded.is_some() => (EVAL_NONE, self.stack[ply].static_eval),
            Some(slots) => {
                let raw = match tt_hit {
                    Some(h) if h.eval != i16::MIN => h.eval as i32,
                    _ => {
                        let e = self.evaluate(ply);
                        // Cached at once: the pruning below often returns without a store, and
                        // the next iteration would evaluate the position again.
                        if tt_hit.is_none() {
                            tt.store_eval(&probe, key, e as i16);
                        }
                        e
                    }
                };
                (raw, self.corrected(raw, slots))
            }
        };
        self.stack[ply].static_eval = static_eval;
        // How far the correction history moved the evaluation: large where it is unsure.
        let correction_size = if raw_eval != EVAL_NONE && static_eval != EVAL_NONE {
            (static_eval - raw_eval).abs()
        } else {
            0
        };
        // The TT score is a better estimate when its bound points the right way.
        let eval = match (tt_hit, tt_score) {
            (Some(h), Some(s)) if !in_check => refined_eval(static_eval, h.bound, s),
            _ => static_eval,
        };
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;

        // The parent's reduction judged in hindsight, by the two static evaluations (each from
        // its side to move, so their sum is what the move cost its mover): a move reduced a lot
        // that cost its mover nothing gets a ply back; one reduced that cost its mover 200 or
        // more, a ply less.
        let mut depth = depth;
        if params::HINDSIGHT.get() != 0 && !PV && !in_check && excluded.is_none() && ply >= 1 {
            let parent = &self.stack[ply - 1];
            if parent.static_eval != EVAL_NONE {
                let sum = static_eval + parent.static_eval;
                if parent.reduction >= 3 && sum <= 0 {
                    depth += 1;
                } else if depth >= 2 && parent.reduction >= 1 && sum >= 200 {
                    depth -= 1;
                }
            }
        }

        // 6. Mate in one, then (cramped enemy king, enough depth for it to pay) mate in three.
        if !in_check
            && excluded.is_none()
            && depth >= params::MATE1_MIN_DEPTH.get()
            && !tt_hit.is_some_and(|h| h.has_search_result())
        {
            let mut found = mate3::mate_in_one(&mut self.pos).map(|m| (m, 1));
            if found.is_none() && depth >= params::MATE3_MIN_DEPTH.get() && self.mate3_allowed(sh) {
                found = mate3::mate_in_three(
                    &mut self.pos,
                    params::MATE3_MAX_EVASIONS.get() as usize,
                    params::MATE3_BUDGET.get() as u32,
                )
                .map(|(m, plies)| (m, plies as usize));
            }
            if let Some((m, plies)) = found {
                let found = FoundMate { mv: m, plies };
                return self.found_mate::<PV>(
                    tt,
                    &probe,
                    key,
                    ply,
                    found,
                    raw_eval as i16,
                    depth + 6,
                );
            }
        }

        if !PV && !in_check && excluded.is_none() {
            // 7. Razoring: hopeless at low depth, verify with quiescence.
            if depth <= params::RAZOR_MAX_DEPTH.get()
                && eval + params::RAZOR_MARGIN.get() * depth < alpha
            {
                let score = self.qsearch::<false>(sh, alpha, alpha + 1, ply);
                if score <= alpha {
                    return score;
                }
            }
            // 8. Reverse futility: far above beta at low depth.
            let margin = params::RFP_MARGIN.get() * (depth - i32::from(improving))
                + correction_size * params::RFP_CORR_PCT.get() / 100;
            if depth <= params::RFP_MAX_DEPTH.get() && eval - margin >= beta && !is_mate_score(beta)
            {
                return eval;
            }
            // 9. Null move: give the opponent a free move; still above beta means a cutoff.
            if depth >= params::NMP_MIN_DEPTH.get()
                && eval >= beta
                && static_eval >= beta
                && ply >= self.nmp_min_ply
                && ply >= 1
                && self.stack[ply - 1].moved
                && !is_mate_score(beta)
            {
                let r = params::NMP_BASE.get()
                    + depth / params::NMP_DEPTH_DIV.get()
                    + ((eval - beta) / params::NMP_EVAL_DIV.get()).min(3);
                self.stack[ply].piece_to = None;
                self.stack[ply].moved = false;
                self.eval.make_null(ply);
                self.pos.do_null_move();
                let score =
                    -self.search::<false>(sh, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.undo_null_move();
                if sh.stop.load(Ordering::Relaxed) {
                    return 0;
                }
                if score >= beta {
                    let score = if is_mate_score(score) { beta } else { score };
                    if depth < params::NMP_VERIFY_DEPTH.get() || self.nmp_min_ply != 0 {
                        return score;
                    }
                    // Verification (zugzwang guard, which matters in drop-less Heian endings):
                    // the same reduced search without null moves for our side.
                    self.nmp_min_ply = ply + 3 * (depth - r).max(0) as usize / 4;
                    let v = self.search::<false>(sh, beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if v >= beta {
                        return score;
                    }
                }
            }
        }

        // 10. ProbCut: a capture that beats beta by a margin in a shallower search very probably
        // beats beta at full depth too. Not when the table already says this node stays below it.
        let probcut_beta = beta + params::PROBCUT_MARGIN.get();
        if !PV
            && !in_check
            && excluded.is_none()
            && params::PROBCUT_MARGIN.get() > 0
            && depth >= params::PROBCUT_MIN_DEPTH.get()
            && !is_mate_score(beta)
            && !matches!((tt_hit, tt_score), (Some(h), Some(s))
                if h.depth as i32 > depth - params::PROBCUT_REDUCTION.get()
                    && s < probcut_beta)
        {
            if let Some((m, score)) = self.probcut(sh, probcut_beta, depth, ply, cut_node, tt_move)
            {
                let stored_eval = tt_eval(raw_eval);
                tt.store(
                    &probe,
                    key,
                    Some(m),
                    to_tt(score, ply),
                    stored_eval,
                    depth - params::PROBCUT_REDUCTION.get() + 1,
                    TtBound::Lower,
                    false,
                );
                return score;
            }
            if sh.stop.load(Ordering::Relaxed) {
                return 0;
            }
        }

        // 11. Internal iterative reduction: no TT move, so this node was never searched well;
        // search it shallower first.
        if tt_move.is_none()
            && excluded.is_none()
            && depth >= params::IIR_MIN_DEPTH.get()
            && (PV || cut_node)
        {
            depth -= 1;
        }

        // 12. Move loop.
        self.ready_eval(ply);
        let prev = self.prev(ply);
        let ctx = OrderingContext {
            killers: self.stack[ply].killers,
            counter: self.history.counter(prev[0]),
            prev,
        };
        let mut picker = MovePicker::new(&self.pos, tt_move, ctx, depth);
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut move_count = 0usize;
        // The first 32 of each kind are enough for the history update; not zeroed up front (an
        // array of `Option`s cost every node ~100 unrolled stores).
        let mut quiets_tried = StackVec::<(Move, usize), 32>::new();
        let mut captures_tried = StackVec::<(usize, PieceKind), 32>::new();
        let original_alpha = alpha;

        let lmp_limit = late_move_limit(depth, improving);
        let lmp_applies = !PV && depth <= params::LMP_MAX_DEPTH.get();
        loop {
            // Quiet moves that the shallow-depth pruning below would drop are not even generated.
            if ply > 0 && best_score > -MATE_IN_MAX_PLY {
                if lmp_applies && move_count >= lmp_limit {
                    picker.skip_quiets();
                } else if !in_check
                    && params::FUTILITY_HIST_DIV.get() == 0
                    && futile_quiet(depth, move_count + 1, static_eval, alpha)
                {
                    picker.quiet_checks_only();
                }
            }
            let Some(m) = picker.next(&self.pos, &self.history) else {
                break;
            };
            let pos = &self.pos;
            if Some(m) == excluded || !pos.is_legal_pseudo(m) {
                continue;
            }
            move_count += 1;
            let tactical = is_tactical(pos, m);
            let gives_check = pos.gives_check(m);
            let pt = piece_to(pos, m);
            let hist = if tactical {
                0
            } else {
                self.history.quiet_score(side, m, pt, prev)
            };

            // 13. Shallow-depth pruning (only once a line that does not lose is known).
            if ply > 0 && best_score > -MATE_IN_MAX_PLY {
                let lmr_depth = (depth - 1 - reduction_plies(depth, move_count)).max(0);
                if !tactical && !gives_check {
                    // Late-move pruning.
                    if lmp_applies && move_count > lmp_limit {
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility.
                    if !in_check
                        && futile_quiet_history(depth, move_count, static_eval, alpha, hist)
                    {
                        continue;
                    }
                    // History: this move has failed here again and again.
                    if params::HIST_PRUNE_MULT.get() > 0
                        && lmr_depth < params::HIST_PRUNE_MAX_DEPTH.get()
                        && hist < -params::HIST_PRUNE_MULT.get() * depth
                    {
                        continue;
                    }
                    // SEE: the moved piece just hangs.
                    if lmr_depth < params::SEE_PRUNE_MAX_DEPTH.get()
                        && !see_ge(pos, m, quiet_see_margin(lmr_depth))
                    {
                        continue;
                    }
                } else if depth <= params::SEE_PRUNE_MAX_DEPTH.get()
                    && !see_ge(pos, m, params::SEE_CAPTURE_MARGIN.get() * depth)
                {
                    continue;
                }
            }

            if !tactical {
                quiets_tried.push_if_room((m, pt));
            }
            if let Some(captured) = pos.captured_piece(m) {
                captures_tried.push_if_room((pt, captured.kind()));
            }

            // 14. Extensions, bounded by twice the root depth. The TT move is extended when a
            // reduced search of every other move fails low against a margin below its score (it
            // is singular: the only good move here), and reduced when its score already beats
            // beta without being singular; when even the others beat beta, this node does too
            // (multi-cut). Otherwise checks that do not lose material are extended.
            let extendable = ply < 2 * self.root_depth as usize;
            let check_extension = i32::from(
                params::CHECK_EXTENSION.get() != 0
                    && gives_check
                    && extendable
                    && see_ge(pos, m, 0),
            );
            let mut extension = check_extension;
            if let (Some(hit), Some(tt_score)) = (tt_hit, tt_score) {
                if ply > 0
                    && extendable
                    && Some(m) == tt_move
                    && excluded.is_none()
                    && depth >= params::SE_MIN_DEPTH.get()
                    && hit.depth as i32 >= depth - params::SE_TT_DEPTH_MARGIN.get()
                    && matches!(hit.bound, TtBound::Lower | TtBound::Exact)
                    && !is_mate_score(tt_score)
                {
                    let singular_beta = tt_score - params::SE_MARGIN.get() * depth;
                    self.stack[ply].excluded = Some(m);
                    let score = self.search::<false>(
                        sh,
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        cut_node,
                    );
                    self.stack[ply].excluded = None;
                    if sh.stop.load(Ordering::Relaxed) {
                        return 0;
                    }
                    if score < singular_beta {
                        extension = 1;
                    } else if !PV && singular_beta >= beta {
                        return singular_beta;
                    } else if tt_score >= beta {
                        extension = -1;
                    }
                }
            }
            let new_depth = depth - 1 + extension;
            let drop_relief = if m.is_drop()
                && (params::LMR_DROP_ATTACKS.get() != 0 || params::LMR_DROP_NEAR_KING.get() != 0)
            {
                DropThreats::of(&self.pos, m).relief()
            } else {
                0
            };

            // 15. Make the move and search it: late moves reduced, null window first.
            self.make(sh, m, ply);
            let mut score;
            let reducible = !tactical || (!PV && !gives_check && params::LMR_TACTICAL.get() != 0);
            if depth >= params::LMR_MIN_DEPTH.get() && move_count > 1 + usize::from(PV) && reducible
            {
                // In `REDUCTION_UNIT`s, truncated to plies once at the end.
                let mut r = reduction(depth, move_count);
                let mut plies = 0;
                if tactical {
                    plies += i32::from(cut_node) - 1;
                } else {
                    plies += i32::from(!PV) + i32::from(cut_node) * params::LMR_CUT_NODE.get();
                    plies -= i32::from(improving) + i32::from(gives_check) + drop_relief;
                    r -= history_relief(hist);
                }
                let cutoffs = params::LMR_CUTOFFS.get();
                if cutoffs > 0 && i32::from(self.stack[ply + 1].cutoffs) > cutoffs {
                    plies += 1;
                }
                r += plies * REDUCTION_UNIT;
                let d = (new_depth - r.max(0) / REDUCTION_UNIT).clamp(1, new_depth.max(1));
                self.stack[ply].reduction = new_depth - d;
                score = -self.search::<false>(sh, -alpha - 1, -alpha, d, ply + 1, true);
                self.stack[ply].reduction = 0;
                if score > alpha && d < new_depth {
                    score = -self.search::<false>(
                        sh,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        !cut_node,
                    );
                }
            } else if !PV || move_count > 1 {
                score =
                    -self.search::<false>(sh, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = alpha + 1; // forces the PV search below
            }
            if PV && (move_count == 1 || score > alpha) {
                score = -self.search::<true>(sh, -beta, -alpha, new_depth, ply + 1, false);
            }
            self.unmake();
            if sh.stop.load(Ordering::Relaxed) {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.stack[ply].cutoffs = self.stack[ply].cutoffs.saturating_add(1);
                        break;
                    }
                    alpha = score;
                }
            }
        }

        // 16. No legal move: mated (in shogi, as in Heian, having no move loses even without check).
        // A singular-extension search without the one move it left out fails low.
        if move_count == 0 {
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }

        // 17. Learn from the cutoff: reward the move that caused it, punish the ones tried before it
        // (captures in the capture history, quiets in the quiet tables).
        if let Some(best) = best_move.filter(|_| best_score >= beta) {
            let b = bonus(depth);
            let best_capture = self
                .pos
                .captured_piece(best)
                .map(|c| (piece_to(&self.pos, best), c.kind()));
            for &(pt, kind) in captures_tried.as_slice() {
                let delta = if Some((pt, kind)) == best_capture {
                    b
                } else {
                    -b
                };
                self.history.update_capture(pt, kind, delta);
            }
            if !is_tactical(&self.pos, best) {
                for &(m, pt) in quiets_tried.as_slice() {
                    let delta = if m == best { b } else { -b };
                    self.history.update_quiet(side, m, pt, prev, delta);
                }
                let killers = &mut self.stack[ply].killers;
                if killers[0] != Some(best) {
                    killers[1] = killers[0];
                    killers[0] = Some(best);
                }
                self.history.set_counter(prev[0], best);
            }
        }

        // 18. Store (not a search that left a move out: the entry would be about fewer moves),
        // and learn the static evaluation's error where the bound proves it: upward when a move
        // beat alpha, downward when none did; not from a capture, whose gain the evaluation of
        // the position before it is not meant to see.
        if excluded.is_some() {
            return best_score;
        }
        if let Some(slots) = &slots {
            let best_is_capture = best_move.is_some_and(|m| self.pos.captured_piece(m).is_some());
            if !best_is_capture
                && !is_mate_score(best_score)
                && (best_score > static_eval) == best_move.is_some()
            {
                self.correction
                    .update(slots, depth, static_eval, best_score);
            }
        }
        let bound = if best_score >= beta {
            TtBound::Lower
        } else if PV && best_score > original_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        let stored_eval = tt_eval(raw_eval);
        tt.store(
            &probe,
            key,
            best_move,
            to_tt(best_score, ply),
            stored_eval,
            depth,
            bound,
            PV,
        );
        best_score
    }

    /// ProbCut's tries (the caller decides whether the node qualifies): captures whose exchange
    /// alone could reach `probcut_beta`, each verified first by quiescence, then by a search
    /// `PROBCUT_REDUCTION` plies shallower. The move and its score when one holds.
    fn probcut(
        &mut self,
        sh: &Shared,
        probcut_beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
        tt_move: Option<Move>,
    ) -> Option<(Move, i32)> {
        let static_eval = self.stack[ply].static_eval;
        let reduced = depth - params::PROBCUT_REDUCTION.get();
        self.ready_eval(ply);
        let mut picker = MovePicker::quiescence(&self.pos, tt_move);
        while let Some(m) = picker.next(&self.pos, &self.history) {
            let pos = &self.pos;
            if !pos.is_legal_pseudo(m) || !see_ge(pos, m, probcut_beta - static_eval) {
                continue;
            }
            self.make(sh, m, ply);
            let mut score = -self.qsearch::<false>(sh, -probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta && reduced > 0 {
                score = -self.search::<false>(
                    sh,
                    -probcut_beta,
                    -probcut_beta + 1,
                    reduced,
                    ply + 1,
                    !cut_node,
                );
            }
            self.unmake();
            if sh.stop.load(Ordering::Relaxed) {
                return None;
            }
            if score >= probcut_beta {
                return Some((m, score));
            }
        }
        None
    }

    // ----------------------------------------------------------------------------------------
    // Quiescence
    // ----------------------------------------------------------------------------------------

    fn qsearch<const PV: bool>(
        &mut self,
        sh: &Shared,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = ply;
        }
        self.count_node(sh);
        self.seldepth = self.seldepth.max(ply + 1);
        if sh.stop.load(Ordering::Relaxed) {
            return 0;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        self.stack[ply].piece_to = None;
        self.stack[ply].moved = false;

        // Heian: the capture that led here may have taken our last piece but the king. Quiescence
        // is where such captures are searched, and standing pat on material would score a lost
        // game as merely a piece down.
        if is_bare_king_loss(&self.pos) {
            return mated_in(ply);
        }

        // Transposition table (depth 0 entries and deeper all serve).
        let (key, side) = {
            let pos = &self.pos;
            (pos.key(), pos.side_to_move())
        };
        let tt = &sh.tt;
        let probe = tt.probe(key, side.index());
        let tt_hit = probe.hit;
        let tt_move = tt_hit
            .and_then(|h| h.mv())
            .filter(|&m| self.pos.is_pseudo_legal(m));
        if let (false, Some(hit)) = (PV, tt_hit) {
            let score = from_tt(hit.score, ply);
            if match hit.bound {
                TtBound::Exact => true,
                TtBound::Lower => score >= beta,
                TtBound::Upper => score <= alpha,
                TtBound::None => false,
            } {
                return score;
            }
        }

        // Stand pat: the side to move may decline every capture (not when in check). The
        // evaluation is corrected as in the main search; the table keeps it uncorrected.
        let (raw_eval, static_eval);
        let mut best_score;
        // A mate in one here is worth finding before the evaluation: quiescence only looks at
        // captures, and in shogi a drop mates as often as a capture does.
        if !in_check && tt_hit.is_none() {
            if let Some(m) = mate3::mate_in_one(&mut self.pos) {
                let found = FoundMate { mv: m, plies: 1 };
                // Stored as a quiescence entry (depth 0); at a PV node the mate ends the PV.
                return self.found_mate::<PV>(tt, &probe, key, ply, found, i16::MIN, 0);
            }
        }
        if in_check {
            (raw_eval, static_eval) = (EVAL_NONE, EVAL_NONE);
            best_score = -INFINITE;
        } else {
            raw_eval = match tt_hit {
                Some(h) if h.eval != i16::MIN => h.eval as i32,
                _ => self.evaluate(ply),
            };
            static_eval = self.corrected(raw_eval, &self.correction_slots(ply));
            best_score = static_eval;
            // The table's score, where its bound says it is nearer the truth, stands in for the
            // static evaluation (not for the futility bounds below, which are about the latter).
            if let Some(h) = tt_hit.filter(|_| params::QS_TT_STAND_PAT.get() != 0) {
                best_score = refined_eval(best_score, h.bound, from_tt(h.score, ply));
            }
            if best_score >= beta {
                if !tt_hit.is_some_and(|h| h.has_search_result()) {
                    tt.store(
                        &probe,
                        key,
                        None,
                        to_tt(best_score, ply),
                        raw_eval as i16,
                        0,
                        TtBound::Lower,
                        false,
                    );
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        self.ready_eval(ply);
        // Where the opponent's last move went: taking back there is never pruned by count.
        let recapture_square = (ply >= 1)
            .then(|| self.stack[ply - 1].piece_to)
            .flatten()
            .map(|pt| pt % Square::NUM);
        let mut picker = MovePicker::quiescence(&self.pos, tt_move);
        let mut best_move = None;
        let mut move_count = 0usize;
        while let Some(m) = picker.next(&self.pos, &self.history) {
            let pos = &self.pos;
            if !pos.is_legal_pseudo(m) {
                continue;
            }
            move_count += 1;
            // Once a line that does not lose is known (in check: one evasion has held), only the
            // few moves that can change the verdict are searched, as YaneuraOu's quiescence does.
            if best_score > -MATE_IN_MAX_PLY {
                if !in_check && recapture_square != Some(m.to().index()) && !pos.gives_check(m) {
                    // Move-count pruning: the picker's first captures are the ones that matter.
                    if move_count > params::QS_MOVE_COUNT.get() as usize {
                        continue;
                    }
                    // Delta pruning: even winning the captured piece for free would not reach
                    // alpha.
                    let gain = pos
                        .captured_piece(m)
                        .map_or(0, |p| super::values::piece_value(p.kind()));
                    if !m.is_promotion()
                        && static_eval + gain + params::QS_FUTILITY_MARGIN.get() <= alpha
                    {
                        best_score =
                            best_score.max(static_eval + gain + params::QS_FUTILITY_MARGIN.get());
                        continue;
                    }
                }
                // Quiet evasions (king steps, interposing drops: many in shogi) after one that
                // held, and losing captures, are not worth a look in quiescence.
                if !is_tactical(pos, m) || !see_ge(pos, m, 0) {
                    continue;
                }
            }
            self.make(sh, m, ply);
            let score = -self.qsearch::<PV>(sh, -beta, -alpha, ply + 1);
            self.unmake();
            if sh.stop.load(Ordering::Relaxed) {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        let bound = if best_score >= beta {
            TtBound::Lower
        } else {
            TtBound::Upper
        };
        let stored_eval = tt_eval(raw_eval);
        tt.store(
            &probe,
            key,
            best_move,
            to_tt(best_score, ply),
            stored_eval,
            0,
            bound,
            false,
        );
        best_score
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::ClockTrace;
    use std::sync::atomic::AtomicBool;

    /// Makes every search thread panic at its start (for the pool's panic-recovery test).
    pub(crate) static INJECT_PANIC: AtomicBool = AtomicBool::new(false);

    #[test]
    fn the_table_refines_the_static_evaluation_only_where_its_bound_points_past_it() {
        use super::{mate_in, refined_eval, TtBound};
        assert_eq!(refined_eval(100, TtBound::Exact, 40), 40);
        assert_eq!(refined_eval(100, TtBound::Lower, 150), 150);
        assert_eq!(refined_eval(100, TtBound::Lower, 40), 100);
        assert_eq!(refined_eval(100, TtBound::Upper, 40), 40);
        assert_eq!(refined_eval(100, TtBound::Upper, 150), 100);
        assert_eq!(refined_eval(100, TtBound::None, 150), 100);
        // A mate score is a proof about a line, not an estimate of the position.
        assert_eq!(refined_eval(100, TtBound::Exact, mate_in(5)), 100);
        assert_eq!(refined_eval(100, TtBound::Lower, mate_in(5)), 100);
    }

    #[test]
    fn whole_ply_reductions_truncate_each_term_and_fractional_ones_keep_the_fraction() {
        use super::{history_relief_units, to_reduction_units, REDUCTION_UNIT};
        let ply = REDUCTION_UNIT;
        // The table: 2.75 plies is 2 whole plies, or 2816 1024ths; never below zero.
        assert_eq!(to_reduction_units(2.75, false), 2 * ply);
        assert_eq!(to_reduction_units(2.75, true), 2816);
        assert_eq!(to_reduction_units(-0.5, true), 0);
        // History at 8000 a ply: whole plies toward zero, or the exact share of one.
        assert_eq!(history_relief_units(7999, 8000, false), 0);
        assert_eq!(history_relief_units(-8000, 8000, false), -ply);
        assert_eq!(history_relief_units(17000, 8000, false), 2 * ply);
        assert_eq!(history_relief_units(4000, 8000, true), ply / 2);
        assert_eq!(history_relief_units(-12000, 8000, true), -3 * ply / 2);
        // The point of the finer units: 2.75 plies less 0.875 of history is 1 ply (1.875
        // truncated once), where each term truncated alone gives 2 - 0 = 2.
        let sum = |fractional| {
            (to_reduction_units(2.75, fractional) - history_relief_units(7000, 8000, fractional))
                / ply
        };
        assert_eq!((sum(false), sum(true)), (2, 1));
    }

    #[test]
    fn a_drop_counts_the_pieces_it_attacks_and_its_support_next_to_the_king() {
        use super::DropThreats;
        use crate::core::{Position, Variant};
        crate::core::attacks::init();
        // White's king on 5a and rook on 1a; Black's gold on 3d, a bishop in hand.
        let pos = Position::from_sfen("4k3r/9/9/6G2/9/9/9/9/4K4 b B 1", Variant::Shogi).unwrap();
        let threats = |m: &str| DropThreats::of(&pos, pos.parse_usi_move(m).unwrap());
        // B*3c forks king and rook, two squares from the king, the gold behind it.
        assert_eq!(
            threats("B*3c"),
            DropThreats {
                attacked: 2,
                supported_near_king: true
            }
        );
        // B*9i reaches the rook down the long diagonal, far from the king.
        assert_eq!(
            threats("B*9i"),
            DropThreats {
                attacked: 1,
                supported_near_king: false
            }
        );
        // B*4b touches the king, with nothing behind it.
        assert_eq!(
            threats("B*4b"),
            DropThreats {
                attacked: 1,
                supported_near_king: false
            }
        );
    }

    #[test]
    fn the_clock_trace_keeps_the_longest_gap_between_checks() {
        let mut trace = ClockTrace {
            last_check_ms: 3,
            ..ClockTrace::default()
        };
        for now in [4, 5, 17, 18, 20] {
            trace.record_check(now);
        }
        assert_eq!(trace.last_check_ms, 20);
        assert_eq!((trace.longest_gap_ms, trace.longest_gap_end_ms), (12, 17));
    }
}
