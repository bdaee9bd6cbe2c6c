//! The lazy-SMP thread pool: the protocol layer's only handle on the search.
//!
//! `start` returns at once. A control thread (which also runs search thread 0) spawns the helper
//! threads as scoped threads, all sharing the transposition table and one stop flag; when the search
//! ends it stops the helpers, picks the answer by a best-thread vote and emits the final `Info` and
//! exactly one `BestMove` (none after `abort`). Workers (history tables, stacks) live in the pool and
//! are lent to the threads for each search, so nothing big is allocated per `go`; spawning the
//! threads per search costs tens of microseconds, far below one ply of search.
//!
//! Rules enforced here: in `infinite` and `ponder` searches no `BestMove` before `stop`/`ponderhit`;
//! exactly one `BestMove` after `stop`; the final `Info` carries score and PV; `Resign` with no legal
//! move (or a score below `-resign_value`); `Win` when the side to move can declare; a ponder move
//! only when it is legal after the best move; a panic in any search thread is caught and a legal
//! move still answered.

use super::api::{BestMove, Bound, Limits, Score, SearchEvent, SearchInfo};
use super::mate_probe;
use super::score::{mate_in, to_api, MATE};
use super::time::{TimeConfig, TimeLimits};
use super::tt::TranspositionTable;
use super::worker::{MainDuties, Shared, ThreadResult, Worker};
use crate::core::movegen::legal_moves;
use crate::core::outcome::bare_king_loser;
use crate::core::{EnteringKingRule, Move, Position};
use crate::eval::nnue::{AnyNetwork, Network, NetworkVisitor, Nnue, Residual};
use crate::eval::{Evaluator, HandWritten};
use std::any::Any;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Everything the USI options feed into a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    pub threads: usize,
    pub multipv: u32,
    pub entering_king_rule: EnteringKingRule,
    /// 0 = none.
    pub max_moves_to_draw: u32,
    /// 0 = none.
    pub depth_limit: u32,
    /// 0 = none.
    pub nodes_limit: u64,
    /// Resign when the best score is below `-resign_value` (0 = never).
    pub resign_value: i32,
    pub time: TimeConfig,
    /// USI_Ponder: send `ponder` moves in `bestmove`.
    pub ponder_enabled: bool,
    /// Draw score offset in cp: a draw counts `-contempt` for the side the engine plays (0 = neutral).
    /// (An addition to the contract; see notes/search-api.md.)
    pub contempt: i32,
    /// What evaluates the positions.
    pub evaluation: Evaluation,
}

/// The evaluation a search runs: the search is compiled once for each, so the choice costs nothing
/// per node.
#[derive(Clone, Default)]
pub enum Evaluation {
    /// The hand-written sum (`crate::eval`).
    #[default]
    HandWritten,
    /// A network, its output divided by `fv_scale` (YaneuraOu's `FV_SCALE`).
    Nnue { network: AnyNetwork, fv_scale: i32 },
}

impl PartialEq for Evaluation {
    fn eq(&self, other: &Evaluation) -> bool {
        match (self, other) {
            (Evaluation::HandWritten, Evaluation::HandWritten) => true,
            (
                Evaluation::Nnue {
                    network: a,
                    fv_scale: x,
                },
                Evaluation::Nnue {
                    network: b,
                    fv_scale: y,
                },
            ) => a.same(b) && x == y,
            _ => false,
        }
    }
}

impl Eq for Evaluation {}

impl std::fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Evaluation::HandWritten => write!(f, "HandWritten"),
            Evaluation::Nnue { network, fv_scale } => {
                write!(f, "Nnue({}, FV_SCALE {fv_scale})", network.architecture())
            }
        }
    }
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: 1,
            multipv: 1,
            entering_king_rule: EnteringKingRule::default(),
            max_moves_to_draw: 0,
            depth_limit: 0,
            nodes_limit: 0,
            resign_value: 0,
            time: TimeConfig::default(),
            ponder_enabled: false,
            contempt: DEFAULT_CONTEMPT,
            evaluation: Evaluation::HandWritten,
        }
    }
}

/// A draw is worth a little less than an equal position to the engine: without it, two engines in a
/// closed position (Heian openings especially) shuffle into a fourfold repetition at score 0 when
/// any waiting move scored the same. 20 cp is under a quarter of a pawn (90): small next to real
/// advantages, so a side clearly behind still takes the draw.
pub const DEFAULT_CONTEMPT: i32 = 20;

/// Search threads recurse up to `MAX_PLY` deep with a move picker (a few KB) per frame.
const SEARCH_STACK_BYTES: usize = 64 << 20;
/// Hash size when `start` comes before any `resize_hash`.
const DEFAULT_HASH_MB: usize = 16;

/// A callback that receives the search's events (the USI layer prints them).
pub type EventSink = Arc<dyn Fn(SearchEvent) + Send + Sync>;

/// The parts of a running search the pool's methods reach from the protocol thread.
struct Control {
    shared: Arc<Shared>,
    /// Set by `stop`, `ponderhit` and `abort`; the control thread waits on it in infinite/ponder mode.
    released: Mutex<bool>,
    wake: Condvar,
    aborted: AtomicBool,
    searching: AtomicBool,
    infinite: bool,
    /// For recomputing the time limits at `ponderhit`.
    original_limits: Limits,
    us: crate::core::Color,
    game_ply: u32,
}

impl Control {
    fn release(&self) {
        let mut released = self.released.lock().unwrap_or_else(|e| e.into_inner());
        *released = true;
        self.wake.notify_all();
    }

    /// In infinite and ponder searches the answer waits for `stop` / `ponderhit` (which release
    /// it). The shared stop flag does not end the wait: a node limit raises it too, and a
    /// `NodesLimit` must not make a ponder search answer before its `ponderhit`.
    fn wait_until_released(&self) {
        let mut released = self.released.lock().unwrap_or_else(|e| e.into_inner());
        while !*released && (self.infinite || self.shared.pondering.load(Ordering::Relaxed)) {
            released = match self.wake.wait_timeout(released, Duration::from_millis(50)) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

/// Idle workers of one evaluation, their type erased: a worker's stack holds its evaluation's
/// per-ply state, so the pool keeps whichever kind the last search ran and replaces them when a
/// search asks for another.
trait IdleWorkers: Send {
    fn len(&self) -> usize;
    fn clear_history(&mut self);
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<E: Evaluator> IdleWorkers for Vec<Worker<E>> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn clear_history(&mut self) {
        self.iter_mut().for_each(Worker::clear);
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// Starts a search with a network of whatever shape the loaded file has.
struct StartWithNetwork<'a> {
    pool: &'a mut Pool,
    fv_scale: i32,
    pos: Position,
    limits: Limits,
    config: SearchConfig,
    sink: EventSink,
}

impl NetworkVisitor for StartWithNetwork<'_> {
    type Output = ();
    fn visit<const L1: usize, const L2: usize, const L3: usize>(
        self,
        network: Arc<Network<L1, L2, L3>>,
    ) {
        let residual = network.residual();
        let eval = Nnue::new(network, self.fv_scale);
        if residual {
            self.pool.start_with(
                Residual::new(eval),
                self.pos,
                self.limits,
                self.config,
                self.sink,
            );
        } else {
            self.pool
                .start_with(eval, self.pos, self.limits, self.config, self.sink);
        }
    }
}

pub struct Pool {
    tt: Option<Arc<TranspositionTable>>,
    hash_mb: usize,
    /// Idle workers; lent to the control thread during a search.
    workers: Box<dyn IdleWorkers>,
    handle: Option<JoinHandle<Box<dyn IdleWorkers>>>,
    control: Option<Arc<Control>>,
}

impl Default for Pool {
    fn default() -> Pool {
        Pool::new()
    }
}

impl Pool {
    /// Cheap: no hash, no threads (the USI handshake must be instant).
    pub fn new() -> Pool {
        Pool {
            tt: None,
            hash_mb: DEFAULT_HASH_MB,
            workers: Box::new(Vec::<Worker<HandWritten>>::new()),
            handle: None,
            control: None,
        }
    }

    /// (Re)allocates the table (at `isready`, or when USI_Hash changed). Stops a running search.
    /// Returns the size the table got in MB: less than `mb` when that does not fit in memory
    /// (`TranspositionTable::new`).
    pub fn resize_hash(&mut self, mb: usize) -> usize {
        self.finish_quietly();
        if self.tt.is_none() || mb != self.hash_mb {
            // Drop the old table first so both never exist at once.
            self.tt = None;
            self.hash_mb = mb.max(1);
            let tt = TranspositionTable::new(self.hash_mb);
            tt.touch_all_pages(hardware_threads());
            self.tt = Some(Arc::new(tt));
        }
        // The main worker's history tables (~10 MB) are allocated here too, not at the first `go`.
        if self.workers.len() == 0 {
            self.workers = Box::new(vec![Worker::new(0, HandWritten)]);
        }
        self.tt.as_ref().map_or(0, |tt| tt.megabytes())
    }

    /// Empties the table and forgets the move-ordering history (ClearHash, `usinewgame`).
    pub fn clear_hash(&mut self) {
        self.finish_quietly();
        if let Some(tt) = &self.tt {
            tt.clear(hardware_threads());
        }
        self.workers.clear_history();
    }

    fn finish_quietly(&mut self) {
        if self.handle.is_some() {
            self.abort();
            self.wait();
        }
    }

    /// Starts searching `pos` and returns at once. Events go to `sink`, from the search's threads.
    /// A search still running is aborted (no `BestMove` for it) first.
    pub fn start(&mut self, pos: Position, limits: Limits, config: SearchConfig, sink: EventSink) {
        self.finish_quietly();
        match config.evaluation.clone() {
            Evaluation::HandWritten => self.start_with(HandWritten, pos, limits, config, sink),
            Evaluation::Nnue { network, fv_scale } => network.visit(StartWithNetwork {
                pool: self,
                fv_scale,
                pos,
                limits,
                config,
                sink,
            }),
        }
    }

    fn start_with<E: Evaluator>(
        &mut self,
        eval: E,
        pos: Position,
        limits: Limits,
        config: SearchConfig,
        sink: EventSink,
    ) {
        let tt = match &self.tt {
            Some(tt) => Arc::clone(tt),
            None => {
                self.resize_hash(self.hash_mb);
                Arc::clone(self.tt.as_ref().expect("allocated above"))
            }
        };
        tt.new_search();

        let threads = config.threads.clamp(1, 256);
        let idle = std::mem::replace(
            &mut self.workers,
            Box::new(Vec::<Worker<HandWritten>>::new()),
        );
        // Workers of another evaluation are dropped: their stacks hold the wrong state.
        let mut workers = idle
            .into_any()
            .downcast::<Vec<Worker<E>>>()
            .map_or_else(|_| Vec::new(), |w| *w);
        for w in &mut workers {
            w.set_evaluator(eval.clone());
        }
        while workers.len() < threads {
            workers.push(Worker::new(workers.len(), eval.clone()));
        }
        workers.truncate(threads);

        let us = pos.side_to_move();
        let game_ply = pos.game_ply();
        let time = if limits.ponder {
            TimeLimits::NONE
        } else {
            TimeLimits::new(&limits, us, game_ply, &config.time)
        };
        // `go nodes 0` still means "stop at once", not "no limit".
        let nodes_limit = min_nonzero(limits.nodes.map_or(0, |n| n.max(1)), config.nodes_limit);
        let epoch = limits.received.unwrap_or_else(std::time::Instant::now);
        let shared = Arc::new(Shared {
            tt,
            config: config.clone(),
            stop: AtomicBool::new(false),
            epoch,
            started_ms: epoch.elapsed().as_millis() as u64,
            hard_deadline: AtomicU64::new(time.hard.unwrap_or(u64::MAX)),
            nodes_limit,
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            results: (0..threads)
                .map(|_| Mutex::new(ThreadResult::default()))
                .collect(),
            clock: Mutex::new((time, 0)),
            pondering: AtomicBool::new(limits.ponder),
            probe_stop: AtomicBool::new(false),
            refuted: Mutex::new(Vec::new()),
            sink: Arc::clone(&sink),
            last_report: AtomicU64::new(0),
        });
        let control = Arc::new(Control {
            shared,
            released: Mutex::new(false),
            wake: Condvar::new(),
            aborted: AtomicBool::new(false),
            searching: AtomicBool::new(true),
            infinite: limits.infinite,
            original_limits: limits.clone(),
            us,
            game_ply,
        });
        self.control = Some(Arc::clone(&control));
        let spawned = std::thread::Builder::new()
            .name("tokin-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let idle: Box<dyn IdleWorkers> =
                    Box::new(run_control(control, pos, limits, workers, sink));
                idle
            });
        match spawned {
            Ok(handle) => self.handle = Some(handle),
            Err(e) => {
                // No thread, no search: nothing can answer. Report it loudly; the workers are gone
                // with the closure and will be recreated.
                log::error!("cannot start the search thread: {e}");
                if let Some(c) = &self.control {
                    c.searching.store(false, Ordering::Relaxed);
                }
            }
        }
    }

    /// Ends the search; exactly one `BestMove` follows (also in infinite / ponder). Ignored when idle.
    pub fn stop(&self) {
        if let Some(c) = &self.control {
            if c.searching.load(Ordering::Relaxed) {
                c.shared.stop.store(true, Ordering::Relaxed);
                c.shared.probe_stop.store(true, Ordering::Relaxed);
                c.release();
            }
        }
    }

    /// The opponent played the expected move: the ponder search becomes a normal timed search whose
    /// clock started when the `ponderhit` arrived (`received`), with the new clock when one is given.
    pub fn ponderhit(&self, clock: Option<Limits>, received: std::time::Instant) {
        let Some(c) = &self.control else { return };
        if !c.searching.load(Ordering::Relaxed) || !c.shared.pondering.load(Ordering::Relaxed) {
            return;
        }
        let mut limits = clock.unwrap_or_else(|| c.original_limits.clone());
        limits.ponder = false;
        let time = TimeLimits::new(&limits, c.us, c.game_ply, &c.shared.config.time);
        let now = received
            .saturating_duration_since(c.shared.epoch)
            .as_millis() as u64;
        *c.shared.clock.lock().unwrap_or_else(|e| e.into_inner()) = (time, now);
        let hard = time.hard.map_or(u64::MAX, |h| now + h);
        c.shared.hard_deadline.store(hard, Ordering::Relaxed);
        // A mate probe still running had the ponder search's budget; at a short clock that is
        // longer than the whole move (the soak lost on time so: a probe of 100 ms after a
        // ponderhit at byoyomi 100).
        if !mate_probe::budget_survives_ponderhit(time.hard) {
            c.shared.probe_stop.store(true, Ordering::Relaxed);
        }
        c.shared.pondering.store(false, Ordering::Relaxed);
        if limits.infinite {
            return;
        }
        c.release();
    }

    /// Stops with no `BestMove` (e.g. `gameover` during a search).
    pub fn abort(&self) {
        if let Some(c) = &self.control {
            c.aborted.store(true, Ordering::Relaxed);
            c.shared.stop.store(true, Ordering::Relaxed);
            c.shared.probe_stop.store(true, Ordering::Relaxed);
            c.release();
        }
    }

    /// Blocks until the search thread has finished (after its `BestMove`).
    pub fn wait(&mut self) {
        if let Some(handle) = self.handle.take() {
            match handle.join() {
                Ok(workers) => self.workers = workers,
                Err(_) => log::error!("search control thread panicked; workers recreated"),
            }
        }
        if let Some(c) = &self.control {
            c.searching.store(false, Ordering::Relaxed);
        }
    }

    pub fn is_searching(&self) -> bool {
        self.control
            .as_ref()
            .is_some_and(|c| c.searching.load(Ordering::Relaxed))
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.finish_quietly();
    }
}

fn min_nonzero(a: u64, b: u64) -> u64 {
    match (a, b) {
        (0, x) | (x, 0) => x,
        (a, b) => a.min(b),
    }
}

/// The control thread: searches, waits where the protocol says so, answers once.
fn run_control<E: Evaluator>(
    control: Arc<Control>,
    pos: Position,
    limits: Limits,
    mut workers: Vec<Worker<E>>,
    sink: EventSink,
) -> Vec<Worker<E>> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        search_and_choose(&control, &pos, &limits, &mut workers, &*sink)
    }));
    let (best, info) = match outcome {
        Ok(answer) => answer,
        Err(_) => {
            log::error!("search panicked; answering with a legal move");
            control.shared.stop.store(true, Ordering::Relaxed);
            control.wait_until_released();
            fallback_answer(&pos)
        }
    };
    for w in &mut workers {
        w.release();
    }
    if !control.aborted.load(Ordering::Relaxed) {
        if let Some(info) = info {
            sink(SearchEvent::Info(info));
        }
        sink(SearchEvent::BestMove(best));
    }
    control.searching.store(false, Ordering::Relaxed);
    workers
}

/// Any legal move (used only after a panic); the rules core is trusted less here, hence the guard.
fn fallback_answer(pos: &Position) -> (BestMove, Option<SearchInfo>) {
    let first = catch_unwind(AssertUnwindSafe(|| legal_moves(pos).iter().next().copied()))
        .ok()
        .flatten();
    match first {
        Some(m) => (
            BestMove::Move {
                best: m,
                ponder: None,
            },
            Some(bare_info(Score::Cp(0), vec![m])),
        ),
        None => (BestMove::Resign, None),
    }
}

fn bare_info(score: Score, pv: Vec<Move>) -> SearchInfo {
    SearchInfo {
        depth: 1,
        seldepth: 1,
        multipv: 1,
        score,
        bound: Bound::Exact,
        nodes: 0,
        nps: 0,
        time_ms: 0,
        hashfull: 0,
        pv,
    }
}

fn search_and_choose<E: Evaluator>(
    control: &Control,
    pos: &Position,
    limits: &Limits,
    workers: &mut [Worker<E>],
    sink: &(dyn Fn(SearchEvent) + Send + Sync),
) -> (BestMove, Option<SearchInfo>) {
    let shared = &control.shared;
    let config = &shared.config;
    let began_ms = shared.elapsed_ms();

    // Root moves: every legal move, narrowed by `searchmoves` when that leaves any.
    let legal = legal_moves(pos);
    let mut root: Vec<Move> = legal.iter().copied().collect();
    if !limits.searchmoves.is_empty() {
        let narrowed: Vec<Move> = root
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if !narrowed.is_empty() {
            root = narrowed;
        }
    }

    // Heian: a side left with nothing but its king lost to the capture that led here. GUIs that do
    // not know the bare-king rule keep asking for moves, so answer as with no legal move.
    if root.is_empty() || bare_king_loser(pos) == Some(pos.side_to_move()) {
        control.wait_until_released();
        return (
            BestMove::Resign,
            Some(bare_info(Score::Mate(0), Vec::new())),
        );
    }
    if pos.can_declare(config.entering_king_rule) {
        control.wait_until_released();
        return (
            BestMove::Win,
            Some(bare_info(to_api(mate_in(1)), Vec::new())),
        );
    }

    if let Some(answer) = root_mate(control, pos, limits, &root, sink) {
        return answer;
    }

    // `go depth 0` searches one ply rather than forever.
    let max_depth = [limits.depth.map_or(0, |d| d.max(1)), config.depth_limit]
        .into_iter()
        .filter(|&d| d > 0)
        .min()
        .unwrap_or(u32::MAX);
    let multipv = config.multipv.max(1) as usize;
    for (i, w) in workers.iter_mut().enumerate() {
        // Helpers search one line each: MultiPV is the main thread's report.
        let lines = if i == 0 { multipv } else { 1 };
        w.prepare(pos.clone(), &root, Arc::clone(shared), lines);
    }

    let duties = MainDuties {
        sink,
        max_depth,
        infinite: limits.infinite,
    };
    let (main, helpers) = workers.split_first_mut().expect("at least one worker");
    std::thread::scope(|scope| {
        for helper in helpers.iter_mut() {
            let spawned = std::thread::Builder::new()
                .name(format!("tokin-helper-{}", helper.id))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    if catch_unwind(AssertUnwindSafe(|| helper.iterate(None))).is_err() {
                        log::error!("helper thread panicked; its result is ignored");
                    }
                });
            if let Err(e) = spawned {
                log::warn!("could not start a helper thread: {e}");
            }
        }
        let main_result = catch_unwind(AssertUnwindSafe(|| main.iterate(Some(&duties))));
        if main_result.is_err() {
            log::error!("main search thread panicked; answering from the other threads");
        }
        control.wait_until_released();
        shared.stop.store(true, Ordering::Relaxed);
    });

    let results: Vec<ThreadResult> = shared
        .results
        .iter()
        .map(|r| r.lock().unwrap_or_else(|e| e.into_inner()).clone())
        .collect();
    let results = without_refuted(
        results,
        &shared.refuted.lock().unwrap_or_else(|e| e.into_inner()),
    );
    let chosen = if multipv > 1 { 0 } else { vote(&results) };
    let mut result = results[chosen].clone();
    if result.pv.first().is_none_or(|m| !root.contains(m)) {
        // No thread finished even one line (stopped at once): pick by a one-ply look at the static
        // evaluation rather than answer the generator's first move.
        let (mv, score) = one_ply_choice(workers[0].evaluator(), pos, &root);
        result = ThreadResult {
            depth: 1,
            seldepth: 1,
            score,
            bound: Some(Bound::Exact),
            pv: vec![mv],
        };
    }

    let nodes = shared.total_nodes();
    let time_ms = shared.elapsed_ms();
    log_clock(shared, began_ms, workers, time_ms);
    let info = SearchInfo {
        depth: result.depth.max(1),
        seldepth: result.seldepth.max(result.depth.max(1)),
        multipv: 1,
        score: to_api(result.score),
        bound: result.bound.unwrap_or(Bound::Exact),
        nodes,
        nps: nodes * 1000 / time_ms.max(1),
        time_ms,
        hashfull: shared.tt.hashfull(),
        pv: legal_prefix(pos, &result.pv),
    };
    let best = result.pv[0];
    if config.resign_value > 0 && result.score < -config.resign_value {
        return (BestMove::Resign, Some(info));
    }
    let ponder = if config.ponder_enabled {
        ponder_move(pos, best, &result.pv, &shared.tt)
    } else {
        None
    };
    (BestMove::Move { best, ponder }, Some(info))
}

/// An answer this long after the hard limit is logged as a warning: more than the interval between
/// clock checks (1-3 ms) and the ordinary scheduling jitter of a busy machine.
const LATE_ANSWER_MS: u64 = 10;

/// Where a search's time went (debug log), and a warning when it answered well after its hard
/// limit: the first thing to read when a client reports a loss on time.
fn log_clock<E: Evaluator>(
    shared: &Shared,
    began_ms: u64,
    workers: &[Worker<E>],
    answered_ms: u64,
) {
    let hard = shared.hard_deadline.load(Ordering::Relaxed);
    let late = hard != u64::MAX && answered_ms > hard.saturating_add(LATE_ANSWER_MS);
    let level = if late {
        log::Level::Warn
    } else {
        log::Level::Debug
    };
    if !log::log_enabled!(level) {
        return;
    }
    let hard_text = if hard == u64::MAX {
        "none".to_string()
    } else {
        format!("{hard} ms")
    };
    let threads: Vec<String> = workers
        .iter()
        .map(|w| {
            let t = &w.clock_trace;
            let stop = t.hard_stop_ms.map_or(String::new(), |ms| {
                format!(", stopped the search at {ms} ms")
            });
            format!(
                "thread {}: last check {} ms, longest gap {} ms (ending at {} ms){stop}",
                w.id, t.last_check_ms, t.longest_gap_ms, t.longest_gap_end_ms
            )
        })
        .collect();
    log::log!(
        level,
        "clock (ms since go arrived): the pool got it at {} ms, search began at {began_ms} ms, \
         hard limit {hard_text}, answered at {answered_ms} ms{}; {}",
        shared.started_ms,
        if late { " (LATE)" } else { "" },
        threads.join("; ")
    );
}

/// The df-pn probe at the root (see `mate_probe`): a proven mate is answered at once with its line
/// and `score mate N`; in infinite and ponder searches it is reported and the answer waits for
/// `stop` / `ponderhit`, as the protocol requires. `None`: no probe, or no mate found.
fn root_mate(
    control: &Control,
    pos: &Position,
    limits: &Limits,
    root: &[Move],
    sink: &(dyn Fn(SearchEvent) + Send + Sync),
) -> Option<(BestMove, Option<SearchInfo>)> {
    let shared = &control.shared;
    let config = &shared.config;
    let waits = limits.infinite || limits.ponder;
    let move_time = shared
        .clock
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .0
        .hard;
    // Depth / node searches (bench, tests) stay pure alpha-beta; MultiPV wants several lines.
    if (move_time.is_none() && !waits) || config.multipv > 1 {
        return None;
    }
    let budget = mate_probe::probe_budget_ms(if waits { None } else { move_time })?;
    if !mate_probe::king_in_danger(pos, root) {
        return None;
    }
    let started = shared.elapsed_ms();
    let line = mate_probe::probe(pos, budget, &shared.probe_stop)?;
    if !root.contains(&line[0]) {
        return None;
    }
    let line = legal_prefix(pos, &line);
    let time_ms = shared.elapsed_ms();
    let info = SearchInfo {
        depth: line.len() as u32,
        seldepth: line.len() as u32,
        multipv: 1,
        score: Score::Mate(line.len() as i32),
        bound: Bound::Exact,
        nodes: 0,
        nps: 0,
        time_ms,
        hashfull: 0,
        pv: line.clone(),
    };
    log::debug!(
        "root mate probe: {} plies in {} ms",
        line.len(),
        time_ms - started
    );
    if waits {
        sink(SearchEvent::Info(info.clone()));
        control.wait_until_released();
    }
    let ponder = line.get(1).copied().filter(|_| config.ponder_enabled);
    Some((
        BestMove::Move {
            best: line[0],
            ponder,
        },
        Some(info),
    ))
}

/// The root move whose resulting position the static evaluation likes best (microseconds; only for
/// a search stopped before finishing depth 1). `root` is non-empty.
fn one_ply_choice<E: Evaluator>(eval: &E, pos: &Position, root: &[Move]) -> (Move, i32) {
    let mut p = pos.clone();
    let mut best = (root[0], -MATE);
    for &m in root {
        p.do_move(m);
        let score = -eval.evaluate_fresh(&p);
        p.undo_move();
        if score > best.1 {
            best = (m, score);
        }
    }
    best
}

/// The longest prefix of `pv` that is a legal sequence from `pos` (a PV stitched from the TT could
/// in principle hold a stale move; the protocol must never print an illegal one).
fn legal_prefix(pos: &Position, pv: &[Move]) -> Vec<Move> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        p.do_move(m);
        out.push(m);
    }
    out
}

/// The expected reply: the PV's second move, else the TT's move for the position after `best`;
/// only when legal there.
fn ponder_move(pos: &Position, best: Move, pv: &[Move], tt: &TranspositionTable) -> Option<Move> {
    let mut after = pos.clone();
    if !after.is_legal(best) {
        return None;
    }
    after.do_move(best);
    let candidate = pv.get(1).copied().or_else(|| {
        tt.probe(after.key(), after.side_to_move().index())
            .hit
            .and_then(|h| h.mv())
    })?;
    after.is_legal(candidate).then_some(candidate)
}

/// The threads' results with the lines that start with a move the defence check refuted left
/// out of the vote (emptied), unless that would leave none.
fn without_refuted(mut results: Vec<ThreadResult>, refuted: &[Move]) -> Vec<ThreadResult> {
    let is_refuted = |r: &ThreadResult| r.pv.first().is_some_and(|m| refuted.contains(m));
    if results.iter().any(|r| !r.pv.is_empty() && !is_refuted(r)) {
        for r in results.iter_mut().filter(|r| is_refuted(r)) {
            r.pv.clear();
        }
    }
    results
}

/// Best-thread vote: every thread votes for its best move with weight growing with its score margin
/// and completed depth; the chosen thread is the one voting for the most-voted move (the deeper one
/// on ties). Proven wins take precedence (the shortest); a thread that sees itself mated is only
/// chosen when all do.
fn vote(results: &[ThreadResult]) -> usize {
    let valid: Vec<usize> = (0..results.len())
        .filter(|&i| !results[i].pv.is_empty())
        .collect();
    let Some(&first) = valid.first() else {
        return 0;
    };
    let min_score = valid.iter().map(|&i| results[i].score).min().unwrap_or(0);
    let mut votes: HashMap<Move, i64> = HashMap::new();
    for &i in &valid {
        let r = &results[i];
        let weight = (r.score - min_score + 14) as i64 * r.depth.max(1) as i64;
        *votes.entry(r.pv[0]).or_default() += weight;
    }
    let mut best = first;
    for &i in &valid[1..] {
        let (b, r) = (&results[best], &results[i]);
        let better = if b.score >= super::score::MATE_IN_MAX_PLY {
            r.score > b.score
        } else if r.score >= super::score::MATE_IN_MAX_PLY {
            true
        } else if r.score > -super::score::MATE_IN_MAX_PLY {
            let (vb, vr) = (votes[&b.pv[0]], votes[&r.pv[0]]);
            vr > vb || (vr == vb && r.depth > b.depth)
        } else {
            false
        };
        if better {
            best = i;
        }
    }
    best
}

/// Threads the machine runs at once: how many share the work of zeroing a large table.
fn hardware_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(depth: u32, score: i32, mv: Move) -> ThreadResult {
        ThreadResult {
            depth,
            seldepth: depth,
            score,
            bound: Some(Bound::Exact),
            pv: vec![mv],
        }
    }

    /// Every search thread panics; the pool still answers exactly once with a legal move.
    #[test]
    fn panic_in_search_still_answers_legally() {
        use crate::core::{Position, Variant};
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink_events = Arc::clone(&events);
        let sink: EventSink = Arc::new(move |e| sink_events.lock().unwrap().push(e));
        super::super::worker::tests::INJECT_PANIC.store(true, Ordering::Relaxed);
        let mut pool = Pool::new();
        pool.resize_hash(1);
        let pos = Position::startpos(Variant::Shogi);
        let config = SearchConfig {
            threads: 2,
            ..SearchConfig::default()
        };
        pool.start(
            pos.clone(),
            Limits {
                depth: Some(3),
                ..Limits::default()
            },
            config,
            sink,
        );
        pool.wait();
        super::super::worker::tests::INJECT_PANIC.store(false, Ordering::Relaxed);
        let events = events.lock().unwrap();
        let best: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                SearchEvent::BestMove(b) => Some(*b),
                _ => None,
            })
            .collect();
        match best[..] {
            [BestMove::Move { best, .. }] => assert!(pos.is_legal(best)),
            ref other => panic!("expected one legal move, got {other:?}"),
        }
    }

    #[test]
    fn vote_prefers_consensus_and_mates() {
        use crate::core::Square;
        let a = Move::normal(Square::new(6, 6), Square::new(6, 5), false);
        let b = Move::normal(Square::new(1, 6), Square::new(1, 5), false);
        // Two threads agree on `a` at depth 10; one deeper thread likes `b` slightly more.
        let rs = vec![result(10, 50, a), result(10, 45, a), result(11, 60, b)];
        assert_eq!(rs[vote(&rs)].pv[0], a);
        // A proven mate wins the vote.
        let rs = vec![result(10, 50, a), result(8, mate_in(5), b)];
        assert_eq!(vote(&rs), 1);
        // Empty results are skipped.
        let rs = vec![ThreadResult::default(), result(3, 0, b)];
        assert_eq!(vote(&rs), 1);
    }

    #[test]
    fn refuted_lines_leave_the_vote_unless_all_are() {
        use crate::core::Square;
        let a = Move::normal(Square::new(6, 6), Square::new(6, 5), false);
        let b = Move::normal(Square::new(1, 6), Square::new(1, 5), false);
        // Two threads still vote for `a`, which the defence check refuted: `b` is chosen.
        let rs = vec![result(10, 50, a), result(10, 45, a), result(9, 20, b)];
        let rs = without_refuted(rs, &[a]);
        assert_eq!(rs[vote(&rs)].pv[0], b);
        // When every line starts with a refuted move, they all stay.
        let rs = without_refuted(vec![result(10, 50, a), result(9, 20, a)], &[a]);
        assert!(rs.iter().all(|r| r.pv == [a]));
    }
}
