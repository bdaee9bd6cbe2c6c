//! The USI engine loop: a reader thread turns input bytes into lines and sends them over a channel;
//! the loop here owns the state (options, position, search pool) and acts on one command at a time.
//!
//! Nothing in the loop waits for a search to finish on its own: `Pool::start` returns at once, `stop`,
//! `ponderhit` and `gameover` only signal, and the loop waits for the pool only right after having
//! stopped it (a new `go`, `isready` with a new hash size, `quit`), which takes milliseconds.
//! `isready` during a search is answered at once.
//!
//! `go perft` and `bench` are the exception: they hold the loop, as in Stockfish and YaneuraOu, so
//! that a script's next command (another `go perft`, `isready`) waits for their count. They run on
//! a thread of their own all the same, so that `stop` (they end with what they counted, marked
//! partial) and `quit` (they end silently) are acted on at once; every other line waits for them.
//!
//! End of input counts as `stop` then `quit`, as in YaneuraOu and Stockfish: a search or mate job
//! still running gives its one answer (also `go ponder` and `go infinite`), then the engine exits.
//! Like any other input it waits behind a running `go perft` or `bench`.
//!
//! A refused `position` (bad SFEN, a move that cannot be played) leaves no position at all rather
//! than the previous one: until the next accepted `position`, `go` answers `bestmove resign` (held
//! until `stop`/`ponderhit` for `go infinite`/`go ponder`), `go mate` answers `checkmate timeout` and
//! `go perft` counts nothing, each after an `info string error` that says why. None of those can be
//! taken for a result about a position the client did not send.

use crate::core::attacks;
use crate::core::movegen;
use crate::core::position::{EnteringKingRule, Position};
use crate::core::Variant;
use crate::mate::MateResult;
use crate::search::{
    self, BestMove, Evaluation, EventSink, Limits, Pool, SearchConfig, SearchEvent, TimeConfig,
};
use crate::usi::command::{self, Command, Go, MateLimit, PositionBase, Quoted};
use crate::usi::display;
use crate::usi::evaluation::{EvalLoader, EvalReport, Notice};
use crate::usi::input::{Input, LineReader};
use crate::usi::mate::{format_checkmate, format_mate_progress, Dfpn, MateSolver};
use crate::usi::options::{OptionError, OptionId, Options, SetOutcome};
use crate::usi::output::{self, Output};
use crate::usi::tunables;
use std::collections::VecDeque;
use std::io::{BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Instant;

/// Depth `bench` uses when none is given.
pub const BENCH_DEFAULT_DEPTH: u32 = 8;

/// State shared between the loop and one search's event sink.
#[derive(Default)]
struct SearchSession {
    /// Set by `gameover`/`quit`: the sink drops everything, the client no longer wants this search.
    muted: AtomicBool,
    /// Set when this search's `bestmove` went out. A second one is dropped: a stale `bestmove`
    /// desynchronises every match runner.
    answered: AtomicBool,
}

/// Work on a thread of its own: a `go mate`, or a `go perft`/`bench` holding the loop.
struct Job {
    /// Set by `stop`: the work ends early and reports what it has.
    stop: Arc<AtomicBool>,
    /// Set by `gameover`/`quit`: the work ends early and reports nothing.
    muted: Arc<AtomicBool>,
    handle: thread::JoinHandle<()>,
}

impl Job {
    /// Runs `work(stop, muted)` on a new thread; `finished`, when given, hears when it is done.
    fn spawn(
        name: &str,
        finished: Option<mpsc::Sender<LoopEvent>>,
        work: impl FnOnce(&AtomicBool, &AtomicBool) + Send + 'static,
    ) -> std::io::Result<Job> {
        let stop = Arc::new(AtomicBool::new(false));
        let muted = Arc::new(AtomicBool::new(false));
        let (stop2, muted2) = (Arc::clone(&stop), Arc::clone(&muted));
        let handle = thread::Builder::new().name(name.into()).spawn(move || {
            work(&stop2, &muted2);
            if let Some(tx) = finished {
                let _ = tx.send(LoopEvent::JobDone);
            }
        })?;
        Ok(Job {
            stop,
            muted,
            handle,
        })
    }

    fn silence(&self) {
        self.muted.store(true, Ordering::Release);
        self.stop.store(true, Ordering::Release);
    }

    fn join(self, what: &str) {
        if self.handle.join().is_err() {
            log::error!("{what} thread panicked");
        }
    }
}

/// What the loop acts on, in order of arrival.
pub enum LoopEvent {
    /// A line from the client, and when it arrived.
    Input(Input, Instant),
    /// The client's input ended (or failed).
    EndOfInput,
    /// The `go perft` or `bench` holding the loop has finished.
    JobDone,
}

/// What the loop needs from a search pool: `search::Pool`, or a scripted stand-in in tests.
/// The rules are the pool's (see the contract): `start` returns at once; after `stop` exactly one
/// `BestMove` event follows; `abort` ends the search with none; `infinite`/`ponder` searches never
/// answer before `stop`/`ponderhit`.
pub trait Searcher {
    /// Sizes the table for `mb` MB; returns the size it got (less when `mb` does not fit).
    fn resize_hash(&mut self, mb: usize) -> usize;
    fn clear_hash(&mut self);
    fn start(&mut self, pos: Position, limits: Limits, config: SearchConfig, sink: EventSink);
    fn stop(&self);
    fn ponderhit(&self, clock: Option<Limits>, received: Instant);
    fn abort(&self);
    fn wait(&mut self);
    fn is_searching(&self) -> bool;
}

impl Searcher for Pool {
    fn resize_hash(&mut self, mb: usize) -> usize {
        Pool::resize_hash(self, mb)
    }
    fn clear_hash(&mut self) {
        Pool::clear_hash(self)
    }
    fn start(&mut self, pos: Position, limits: Limits, config: SearchConfig, sink: EventSink) {
        Pool::start(self, pos, limits, config, sink)
    }
    fn stop(&self) {
        Pool::stop(self)
    }
    fn ponderhit(&self, clock: Option<Limits>, received: Instant) {
        Pool::ponderhit(self, clock, received)
    }
    fn abort(&self) {
        Pool::abort(self)
    }
    fn wait(&mut self) {
        Pool::wait(self)
    }
    fn is_searching(&self) -> bool {
        Pool::is_searching(self)
    }
}

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The engine state the loop acts on.
pub struct Engine<S: Searcher = Pool> {
    out: Output,
    options: Options,
    /// The position to search; `None` stands for the selected variant's start, built on first use so
    /// that nothing touches the attack tables before `usiok`.
    pos: Option<Position>,
    /// Why the last `position` was refused; while set there is no position to search.
    refused: Option<String>,
    /// A `go infinite`/`go ponder` came with no position: its `bestmove resign` waits for
    /// `stop`/`ponderhit` like a search's.
    resign_owed: bool,
    pool: S,
    /// The session of the most recent search (None before the first `go`).
    session: Option<Arc<SearchSession>>,
    mate_solver: Arc<dyn MateSolver>,
    mate_job: Option<Job>,
    /// A `go perft` or `bench` running: the loop holds every command but `stop` and `quit` until
    /// it is done.
    blocking_job: Option<Job>,
    /// Where a blocking job reports that it is done (the loop's channel; none when driven directly).
    job_done: Option<mpsc::Sender<LoopEvent>>,
    /// Hash size the pool holds, once allocated (at `isready` or, without one, the first `go`).
    hash_mb: Option<usize>,
    /// `ClearHash` pressed during a search: cleared when the search is over.
    clear_pending: bool,
    /// A search or mate job has written to the hash tables since they were last cleared.
    tables_used: bool,
    /// The evaluation the options chose (a network is loaded at `isready`).
    evaluation: EvalLoader,
}

impl<S: Searcher> Engine<S> {
    /// A fresh engine around `pool`, which must be cheap to make (no hash yet): `usi` is answered
    /// before `isready` allocates anything. `go mate` is answered by the df-pn solver, whose table
    /// is allocated at the first `go mate`.
    pub fn new(out: Output, pool: S) -> Engine<S> {
        let options = Options::for_this_machine();
        let mate_solver = Arc::new(Dfpn::new(options.spin(OptionId::UsiHash) as usize));
        Engine {
            out,
            options,
            pos: None,
            refused: None,
            resign_owed: false,
            pool,
            session: None,
            mate_solver,
            mate_job: None,
            blocking_job: None,
            job_done: None,
            hash_mb: None,
            clear_pending: false,
            tables_used: false,
            evaluation: EvalLoader::new(),
        }
    }

    /// Tells the engine's loop when a `go perft` or `bench` is done (see [`LoopEvent::JobDone`]).
    pub fn with_job_done(mut self, tx: mpsc::Sender<LoopEvent>) -> Engine<S> {
        self.job_done = Some(tx);
        self
    }

    /// Whether a `go perft` or `bench` holds the loop: only `stop` and `quit` are for now.
    pub fn is_held(&self) -> bool {
        self.blocking_job.is_some()
    }

    /// The `go perft` or `bench` holding the loop has finished.
    pub fn job_finished(&mut self) {
        if let Some(job) = self.blocking_job.take() {
            job.join("perft/bench");
        }
    }

    /// End of input: `stop` then `quit`. A search or mate job still running gives its one answer
    /// first, as `stop` makes it (also `go infinite` and `go ponder`, which would never end).
    pub fn end_of_input(&mut self) {
        self.stop();
        self.wait_idle();
    }

    /// Replaces the `go mate` solver.
    pub fn with_mate_solver(mut self, solver: Arc<dyn MateSolver>) -> Engine<S> {
        self.mate_solver = solver;
        self
    }

    fn variant(&self) -> Variant {
        self.options
            .combo(OptionId::UsiVariant)
            .parse()
            .unwrap_or_default()
    }

    /// Acts on one input line, which arrived at `received` (a search's clock starts then).
    pub fn handle_line(&mut self, line: &str, received: Instant) -> Flow {
        match command::parse(line) {
            Ok(Some(cmd)) => self.execute(cmd, received),
            Ok(None) => Flow::Continue,
            Err(e) if e.command() == Some("position") => {
                self.refuse_position(e.to_string());
                Flow::Continue
            }
            Err(e) => {
                self.out.error(&format_args!("{e} (line ignored)"));
                Flow::Continue
            }
        }
    }

    pub fn execute(&mut self, cmd: Command, received: Instant) -> Flow {
        log::debug!("command: {cmd:?}");
        match cmd {
            Command::Usi => self.usi(),
            Command::IsReady => self.isready(),
            Command::SetOption { name, value } => self.setoption(&name, value.as_deref()),
            Command::UsiNewGame => self.usinewgame(),
            Command::Position { base, moves } => self.set_position(base, &moves),
            Command::Go(Go::Search {
                limits,
                searchmoves,
            }) => self.go(limits, &searchmoves, received),
            Command::Go(Go::Mate(limit)) => self.go_mate(limit),
            Command::Go(Go::Perft(depth)) => self.go_perft(depth),
            Command::Stop => self.stop(),
            Command::PonderHit { clock, warning } => {
                if let Some(w) = warning {
                    self.out
                        .error(&format_args!("{w}; ponderhit without a clock update"));
                }
                if self.resign_owed {
                    self.pay_owed_resign();
                } else if self.awaiting_bestmove() {
                    self.pool.ponderhit(clock, received);
                }
            }
            Command::GameOver { .. } => {
                self.silence();
                self.wait_idle();
                self.clear_used_tables();
            }
            Command::Quit => {
                self.silence();
                return Flow::Quit;
            }
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench { depth } => self.bench(depth.unwrap_or(BENCH_DEFAULT_DEPTH)),
            Command::UsiTunables => self.usi_tunables(),
        }
        Flow::Continue
    }

    fn usi(&self) {
        self.out
            .line(concat!("id name Tokin ", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Tokin authors");
        for line in self.options.usi_lines() {
            self.out.line(&line);
        }
        #[cfg(feature = "tune")]
        for p in crate::search::params::TABLE {
            self.out.line(&tunables::option_line(p));
        }
        self.out.line("usiok");
    }

    /// The tuning manifest, or an error in a build without tunable parameters.
    fn usi_tunables(&self) {
        if cfg!(feature = "tune") {
            self.out.info_string(&format!(
                "{} {}",
                tunables::MANIFEST_TAG,
                tunables::manifest_json()
            ));
            self.out.line("usi_tunablesok");
        } else {
            self.out.error(
                &"usi_tunables: this build has no tunable parameters (build with --features tune)",
            );
        }
    }

    /// `setoption` of a search parameter in a tuning build: a spin clamped to its range.
    #[cfg(feature = "tune")]
    fn set_tunable(&mut self, p: &crate::search::params::Param, value: Option<&str>) {
        let Some(wanted) = value.and_then(crate::usi::options::parse_integer) else {
            self.out.error(&format_args!(
                "option {} expects an integer, got '{}'",
                p.name,
                value.unwrap_or("")
            ));
            return;
        };
        let wanted = wanted.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        if let Some((_, stored)) = crate::search::params::set(p.name, wanted) {
            if i64::from(stored) != wanted {
                self.out.info_string(&format!(
                    "{} value {wanted} is out of range; using {stored}",
                    p.name
                ));
            }
        }
    }

    /// Builds tables and sizes the hash, unless a search is running (then the tables exist and the
    /// hash must not move under it; a new size takes effect at the next idle `isready` or `go`).
    /// The mate solver never blocks here: during a `go mate` it takes the new size afterwards.
    fn isready(&mut self) {
        if !self.pool.is_searching() {
            self.prepare();
        }
        self.out.line("readyok");
    }

    /// Everything a search needs, done lazily so that `usi` stays instant.
    fn prepare(&mut self) {
        attacks::init();
        let wanted = self.options.spin(OptionId::UsiHash) as usize;
        self.mate_solver.resize_hash(wanted);
        if self.hash_mb != Some(wanted) {
            let got = self.pool.resize_hash(wanted);
            if got < wanted {
                self.out.error(&format_args!(
                    "USI_Hash {wanted} MB does not fit in this machine's memory; the table has {got} MB"
                ));
            }
            self.hash_mb = Some(wanted);
            self.clear_pending = false;
        }
        if self.clear_pending {
            self.clear_search_table();
        }
        self.prepare_evaluation();
    }

    /// Loads the evaluation the options ask for, when they changed; tells the client what happened.
    fn prepare_evaluation(&mut self) {
        let variant = self.variant();
        for notice in self.evaluation.prepare(&self.options, variant) {
            match notice {
                Notice::Info(text) => self.out.info_string(&text),
                Notice::Warning(text) => self.out.info_string(&format!("warning: {text}")),
                Notice::Error(text) => self.out.error(&text),
            }
        }
    }

    /// Empties the search's table now; a `ClearHash` that was waiting for a search to end is then
    /// done too (clearing it again would cost the next move's clock).
    fn clear_search_table(&mut self) {
        self.pool.clear_hash();
        self.clear_pending = false;
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        #[cfg(feature = "tune")]
        if let Some(p) = crate::search::params::find(name) {
            self.set_tunable(p, value);
            return;
        }
        let old_variant = self.variant();
        match self.options.set(name, value) {
            Ok(SetOutcome::Set { id, clamped_from }) => {
                if let Some(wanted) = clamped_from {
                    self.out.info_string(&format!(
                        "{id} value {wanted} is out of range; using {}",
                        self.options.spin(id)
                    ));
                }
                if id == OptionId::UsiVariant && self.variant() != old_variant {
                    self.pos = None;
                    self.refused = None;
                    self.out.info_string(&format!(
                        "variant {}: position reset to its start",
                        self.variant()
                    ));
                }
            }
            Ok(SetOutcome::Pressed(OptionId::ClearHash)) => {
                self.mate_solver.clear_hash();
                if self.pool.is_searching() || self.hash_mb.is_none() {
                    self.clear_pending = self.hash_mb.is_some();
                } else {
                    self.clear_search_table();
                    self.tables_used = false;
                }
            }
            Ok(SetOutcome::Pressed(_)) => {}
            Err(e @ OptionError::Unknown(_)) => self.out.info_string(&format!("warning: {e}")),
            Err(e) => self.out.error(&e),
        }
    }

    fn usinewgame(&mut self) {
        // A new game while a search runs is a client bug; the old game's answer is not wanted.
        self.silence();
        self.wait_idle();
        self.clear_used_tables();
        self.pos = None;
        self.refused = None;
    }

    /// Empties the hash tables if a search has used them since they were last cleared. Done at
    /// `gameover` as well as `usinewgame`: after `gameover` the client waits for `readyok` before
    /// the next game, while `usinewgame` comes right before its first `go`, and clearing costs
    /// tens of ms per 256 MB on that move's clock (with `gameover` first, nothing is left to do).
    fn clear_used_tables(&mut self) {
        if !self.tables_used {
            return;
        }
        if self.hash_mb.is_some() {
            self.clear_search_table();
        }
        self.mate_solver.clear_hash();
        self.tables_used = false;
    }

    /// `position`: the new position, or none at all when any part of it cannot be used (a bad SFEN,
    /// a move that cannot be played, even after good ones). Searching what came before the bad part
    /// would answer for a position the client did not send: in a game, often with the other side
    /// to move.
    fn set_position(&mut self, base: PositionBase, moves: &[String]) {
        let variant = self.variant();
        let mut pos = match base {
            PositionBase::StartPos => Position::startpos(variant),
            PositionBase::Sfen(sfen) => match Position::from_sfen(&sfen, variant) {
                Ok(p) => p,
                Err(e) => {
                    self.refuse_position(format!("position: bad SFEN {}: {e}", Quoted::new(&sfen)));
                    return;
                }
            },
        };
        for (i, text) in moves.iter().enumerate() {
            match pos.parse_usi_move(text) {
                Ok(m) => pos.do_move(m),
                Err(e) => {
                    self.refuse_position(format!(
                        "position: move {} at ply {} is not playable: {e}",
                        Quoted::new(text),
                        i + 1
                    ));
                    return;
                }
            }
        }
        self.pos = Some(pos);
        self.refused = None;
    }

    /// Drops the position: until the next accepted `position`, nothing is searched.
    fn refuse_position(&mut self, why: String) {
        self.out.error(&format_args!(
            "{why}; refused: no position until the next valid one"
        ));
        self.pos = None;
        self.refused = Some(why);
    }

    /// The current position (the variant's start unless `position` set another), or why there is
    /// none (the last `position` was refused).
    fn position(&mut self) -> Result<&Position, &str> {
        if let Some(why) = &self.refused {
            return Err(why);
        }
        let variant = self.variant();
        Ok(self.pos.get_or_insert_with(|| Position::startpos(variant)))
    }

    /// `bestmove resign` for a `go infinite`/`go ponder` that had no position, now that `stop`,
    /// `ponderhit` or a new command has come.
    fn pay_owed_resign(&mut self) {
        if std::mem::take(&mut self.resign_owed) {
            self.out.line(&output::format_bestmove(&BestMove::Resign));
        }
    }

    /// Whether the latest search still owes its `bestmove`.
    fn awaiting_bestmove(&self) -> bool {
        self.pool.is_searching()
            && self.session.as_ref().is_some_and(|s| {
                !s.answered.load(Ordering::Acquire) && !s.muted.load(Ordering::Acquire)
            })
    }

    fn stop(&mut self) {
        self.pay_owed_resign();
        for job in [&self.mate_job, &self.blocking_job].into_iter().flatten() {
            job.stop.store(true, Ordering::Release);
        }
        // `stop` while idle is ignored (no stray bestmove).
        if self.awaiting_bestmove() {
            self.pool.stop();
        }
    }

    /// Ends any search or job with no further output (`gameover`, `quit`).
    fn silence(&mut self) {
        self.resign_owed = false;
        for job in [&self.mate_job, &self.blocking_job].into_iter().flatten() {
            job.silence();
        }
        if let Some(s) = &self.session {
            s.muted.store(true, Ordering::Release);
        }
        if self.pool.is_searching() {
            self.pool.abort();
        }
    }

    /// Brings the pool (and any mate job) to rest. A search still owing its `bestmove` is stopped
    /// and gives it: every `go` gets exactly one answer, also when a new `go` overtakes it.
    fn wait_idle(&mut self) {
        self.pay_owed_resign();
        if self.awaiting_bestmove() {
            self.pool.stop();
        }
        if self.pool.is_searching() {
            self.pool.wait();
        }
        if let Some(job) = self.mate_job.take() {
            job.stop.store(true, Ordering::Release);
            job.join("mate solver");
        }
        // The loop holds commands while a perft or bench runs, so only a direct caller gets here.
        if let Some(job) = self.blocking_job.take() {
            job.join("perft/bench");
        }
    }

    fn go(&mut self, mut limits: Limits, searchmoves: &[String], received: Instant) {
        limits.received = Some(received);
        self.wait_idle();
        if let Some(why) = &self.refused {
            self.out.error(&format_args!(
                "go: no position to search, the last was refused ({why}); answering resign"
            ));
            // `go infinite` and `go ponder` never answer before `stop`/`ponderhit`.
            if limits.infinite || limits.ponder {
                self.resign_owed = true;
            } else {
                self.out.line(&output::format_bestmove(&BestMove::Resign));
            }
            return;
        }
        self.prepare();
        let Ok(root) = self.position().cloned() else {
            return;
        };
        for text in searchmoves {
            match root.parse_usi_move(text) {
                Ok(m) => limits.searchmoves.push(m),
                Err(e) => self.out.error(&format_args!(
                    "go: searchmoves {} skipped: {e}",
                    Quoted::new(text)
                )),
            }
        }
        self.tables_used = true;
        let session = Arc::new(SearchSession::default());
        self.session = Some(Arc::clone(&session));
        let sink = event_sink(self.out.clone(), session, root.clone());
        self.pool.start(root, limits, self.search_config(), sink);
    }

    /// The one call site of the mate solver. Like `go`, it first brings a running search or mate
    /// job to rest (that one gives its own answer), then answers with exactly one `checkmate`
    /// line, preceded by `info nodes .. nps .. time .. hashfull ..` lines while it works; `stop`
    /// ends it with `checkmate timeout` unless the proof is complete.
    fn go_mate(&mut self, limit: MateLimit) {
        self.wait_idle();
        if let Some(why) = &self.refused {
            self.out.error(&format_args!(
                "go mate: no position to solve, the last was refused ({why}); answering timeout"
            ));
            self.out.line(&format_checkmate(&MateResult::Timeout));
            return;
        }
        self.prepare();
        let Ok(pos) = self.position().cloned() else {
            return;
        };
        self.tables_used = true;
        let (solver, out) = (Arc::clone(&self.mate_solver), self.out.clone());
        let job = Job::spawn("tokin-mate", None, move |stop, muted| {
            let mut progress = |p| {
                if !muted.load(Ordering::Acquire) {
                    out.line(&format_mate_progress(&p));
                }
            };
            let answer = solver.solve(&pos, limit, stop, &mut progress);
            if !muted.load(Ordering::Acquire) {
                out.line(&format_checkmate(&answer));
            }
        });
        match job {
            Ok(job) => self.mate_job = Some(job),
            Err(e) => {
                self.out.error(&format_args!(
                    "go mate: cannot start the solver thread: {e}"
                ));
                self.out.line(&format_checkmate(&MateResult::Timeout));
            }
        }
    }

    /// `go perft N`, holding the loop until it is done: `stop` cuts it short (the root moves counted
    /// so far, marked partial), `quit` ends it silently.
    fn go_perft(&mut self, depth: u32) {
        self.wait_idle();
        if let Some(why) = &self.refused {
            self.out.error(&format_args!(
                "go perft: no position to count, the last was refused ({why})"
            ));
            for line in output::perft_no_position_lines() {
                self.out.line(&line);
            }
            return;
        }
        attacks::init();
        let Ok(pos) = self.position().cloned() else {
            return;
        };
        let threads = self.options.spin(OptionId::Threads).max(1) as usize;
        let out = self.out.clone();
        self.start_blocking_job("tokin-perft", move |stop, muted| {
            let stopped = || stop.load(Ordering::Relaxed);
            let divide = movegen::perft_divide_until(&pos, depth, threads, &stopped);
            if !muted.load(Ordering::Acquire) {
                for line in output::perft_lines(&divide) {
                    out.line(&line);
                }
            }
        });
    }

    /// `bench [depth]`, reported as `info string` lines (it is not a search the client asked for),
    /// holding the loop like `go perft`. It runs the default evaluation (the built-in network),
    /// whatever the options say, as `tokin bench` does: its node count is the signature of the
    /// search and the built-in network together.
    fn bench(&mut self, depth: u32) {
        self.wait_idle();
        attacks::init();
        let out = self.out.clone();
        // The evaluation default options ask for, loaded as `isready` and `tokin bench` load it.
        let mut loader = EvalLoader::new();
        for notice in loader.prepare(&Options::for_this_machine(), Variant::Shogi) {
            if let Notice::Error(text) = notice {
                out.info_string(&format!("error: {text}"));
            }
        }
        let evaluation = loader.current().clone();
        self.start_blocking_job("tokin-bench", move |stop, muted| {
            let report = search::bench_until(depth, evaluation, &|| stop.load(Ordering::Relaxed));
            if !muted.load(Ordering::Acquire) {
                for line in output::bench_lines(&report) {
                    out.info_string(&line);
                }
            }
        });
    }

    fn start_blocking_job(
        &mut self,
        name: &str,
        work: impl FnOnce(&AtomicBool, &AtomicBool) + Send + 'static,
    ) {
        match Job::spawn(name, self.job_done.clone(), work) {
            Ok(job) => self.blocking_job = Some(job),
            Err(e) => self
                .out
                .error(&format_args!("cannot start the {name} thread: {e}")),
        }
    }

    /// The search settings of the options and the loaded evaluation.
    fn search_config(&self) -> SearchConfig {
        search_config(&self.options, self.evaluation.current().clone())
    }

    /// `eval`: `info string eval <N>`, the static evaluation from the side to move's view (with a
    /// network, in YaneuraOu's units: the same file gives the same number as its `eval`).
    fn eval(&mut self) {
        self.prepare_evaluation();
        let pos = match self.position() {
            Ok(pos) => pos.clone(),
            Err(why) => {
                let text = format!("no position: the last was refused ({why})");
                self.out.info_string(&text);
                return;
            }
        };
        let report = self.evaluation.evaluate(&pos);
        match report {
            EvalReport::Nnue(score) | EvalReport::HandWritten(score) => {
                self.out.info_string(&format!("eval {score}"))
            }
            EvalReport::HandWrittenWithoutKings(score) => {
                self.out.info_string(&format!("eval {score}"));
                self.out.info_string(
                    "(a king is missing: the network cannot evaluate this position; \
                     this is the hand-written evaluation)",
                );
            }
        }
    }

    fn display(&mut self) {
        let lines = match self.position() {
            Ok(pos) => display::display_lines(pos),
            Err(why) => vec![format!("no position: the last was refused ({why})")],
        };
        for line in lines {
            self.out.info_string(&line);
        }
    }

    /// Ends the session: no more output from searches, pool at rest.
    pub fn shutdown(&mut self) {
        self.silence();
        if self.pool.is_searching() {
            self.pool.wait();
        }
        // A perft or bench ends within milliseconds of its stop flag; the mate solver too, but
        // nothing it could still print matters, so it is not waited for.
        if let Some(job) = self.blocking_job.take() {
            job.join("perft/bench");
        }
    }
}

/// The search settings the options stand for, with `evaluation`.
pub fn search_config(o: &Options, evaluation: Evaluation) -> SearchConfig {
    let non_negative = |id| o.spin(id).max(0);
    SearchConfig {
        threads: non_negative(OptionId::Threads).max(1) as usize,
        multipv: non_negative(OptionId::MultiPv).max(1) as u32,
        entering_king_rule: match o.combo_index(OptionId::EnteringKingRule) {
            0 => EnteringKingRule::None,
            1 => EnteringKingRule::Csa24,
            _ => EnteringKingRule::Csa27,
        },
        max_moves_to_draw: non_negative(OptionId::MaxMovesToDraw) as u32,
        depth_limit: non_negative(OptionId::DepthLimit) as u32,
        nodes_limit: non_negative(OptionId::NodesLimit) as u64,
        resign_value: non_negative(OptionId::ResignValue) as i32,
        contempt: o.spin(OptionId::Contempt).clamp(-1000, 1000) as i32,
        time: TimeConfig {
            network_delay: o.spin(OptionId::NetworkDelay),
            network_delay2: o.spin(OptionId::NetworkDelay2),
            minimum_thinking_time: o.spin(OptionId::MinimumThinkingTime),
            slow_mover: o.spin(OptionId::SlowMover),
        },
        ponder_enabled: o.check(OptionId::UsiPonder),
        evaluation,
    }
}

/// The sink a search reports to: formats events onto the output, drops everything once the session is
/// muted, lets only the first `bestmove` through, and drops a ponder move that is not legal after the
/// best move (the pool promises legality; this keeps a bug there from reaching the client).
fn event_sink(out: Output, session: Arc<SearchSession>, root: Position) -> EventSink {
    Arc::new(move |event| {
        if session.muted.load(Ordering::Acquire) {
            return;
        }
        match event {
            SearchEvent::BestMove(best) => {
                if session.answered.swap(true, Ordering::AcqRel) {
                    log::error!("search sent a second bestmove ({best:?}); dropped");
                    return;
                }
                out.line(&output::format_bestmove(&checked_ponder(&root, best)));
            }
            other => out.line(&output::format_event(&other)),
        }
    })
}

fn checked_ponder(root: &Position, best: BestMove) -> BestMove {
    match best {
        BestMove::Move {
            best,
            ponder: Some(p),
        } => {
            if !root.is_legal(best) {
                log::error!("search answered the illegal move {best}");
                return BestMove::Move { best, ponder: None };
            }
            let mut after = root.clone();
            after.do_move(best);
            let ponder = after.is_legal(p).then_some(p);
            if ponder.is_none() {
                log::error!("search proposed the illegal ponder move {p} after {best}; dropped");
            }
            BestMove::Move { best, ponder }
        }
        other => other,
    }
}

/// Runs the USI loop with the real search pool until `quit` or end of input.
pub fn run<R: Read + Send + 'static>(input: R, out: Output) {
    run_with(input, out, Pool::new());
}

/// Runs the USI loop on `input` until `quit` or end of input.
pub fn run_with<R: Read + Send + 'static, S: Searcher>(input: R, out: Output, pool: S) {
    run_engine(input, out.clone(), Engine::new(out, pool));
}

fn run_engine<R: Read + Send + 'static, S: Searcher>(input: R, out: Output, engine: Engine<S>) {
    let (tx, rx) = mpsc::channel::<LoopEvent>();
    let reader_tx = tx.clone();
    // The reader only reads: it never waits on anything the loop does, so the instant it stamps on a
    // line is when the client sent it, however long the loop is still busy with earlier commands.
    let reader = thread::Builder::new()
        .name("usi-reader".into())
        .spawn(move || {
            let mut lines = LineReader::new(BufReader::new(input));
            loop {
                match lines.next_input() {
                    Ok(Some(input)) => {
                        if reader_tx
                            .send(LoopEvent::Input(input, Instant::now()))
                            .is_err()
                        {
                            return;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        log::warn!("input failed: {e}");
                        break;
                    }
                }
            }
            let _ = reader_tx.send(LoopEvent::EndOfInput);
        });
    if let Err(e) = reader {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    let mut engine = engine.with_job_done(tx);
    // Input that came while a perft or bench held the loop, in order.
    let mut held: VecDeque<LoopEvent> = VecDeque::new();
    loop {
        let next = match held.pop_front() {
            Some(event) if !engine.is_held() => event,
            other => {
                if let Some(event) = other {
                    held.push_front(event);
                }
                match rx.recv() {
                    Ok(event) => event,
                    Err(_) => break,
                }
            }
        };
        let flow = match next {
            LoopEvent::JobDone => {
                engine.job_finished();
                Flow::Continue
            }
            LoopEvent::Input(Input::Line(line), received)
                if !engine.is_held() || ends_a_held_job(&line) =>
            {
                engine.handle_line(&line, received)
            }
            LoopEvent::Input(Input::TooLong(n), _) if !engine.is_held() => {
                out.error(&format_args!(
                    "input line of {n} bytes is longer than the {} byte limit; ignored",
                    crate::usi::input::MAX_LINE
                ));
                Flow::Continue
            }
            LoopEvent::EndOfInput if !engine.is_held() => {
                engine.end_of_input();
                Flow::Quit
            }
            event => {
                held.push_back(event);
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            break;
        }
    }
    engine.shutdown();
}

/// `stop` and `quit` act on a `go perft` or `bench` at once; every other line waits for it.
fn ends_a_held_job(line: &str) -> bool {
    matches!(
        command::parse(line),
        Ok(Some(Command::Stop | Command::Quit))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Move;
    use crate::mate::{MateProgress, MateResult};
    use std::io::{Cursor, Write};
    use std::sync::Mutex;
    use std::time::Duration;

    /// A scripted pool: answers synchronously (timed searches inside `start`, infinite/ponder ones
    /// inside `stop`/`ponderhit`), logs every call, and can be told to misbehave.
    #[derive(Default)]
    struct Script {
        calls: Vec<String>,
        sink: Option<EventSink>,
        root: Option<Position>,
        /// Answer twice, or with an illegal ponder move, to test the sink's guards.
        double_answer: bool,
        bad_ponder: bool,
        /// How long `clear_hash` takes.
        clear_delay: Duration,
        /// For each `start`: how long before it the `go` had arrived.
        go_waited: Vec<Duration>,
    }

    #[derive(Clone, Default)]
    struct Fake(Arc<Mutex<Script>>);

    /// The largest table the fake's "machine" holds.
    const FAKE_MEMORY_MB: usize = 4096;

    impl Fake {
        fn calls(&self) -> Vec<String> {
            self.0.lock().unwrap().calls.clone()
        }
        fn answer(&self) {
            let (sink, root, double, bad) = {
                let mut s = self.0.lock().unwrap();
                (s.sink.take(), s.root.take(), s.double_answer, s.bad_ponder)
            };
            let (Some(sink), Some(root)) = (sink, root) else {
                return;
            };
            let moves = movegen::legal_moves(&root);
            let best = moves.as_slice()[0];
            // The same move again is never legal for the side that just moved.
            let ponder = if bad { Some(best) } else { None };
            sink(SearchEvent::BestMove(BestMove::Move { best, ponder }));
            if double {
                sink(SearchEvent::BestMove(BestMove::Resign));
            }
        }
    }

    impl Searcher for Fake {
        fn resize_hash(&mut self, mb: usize) -> usize {
            self.0.lock().unwrap().calls.push(format!("resize {mb}"));
            mb.min(FAKE_MEMORY_MB)
        }
        fn clear_hash(&mut self) {
            let delay = {
                let mut s = self.0.lock().unwrap();
                s.calls.push("clear".into());
                s.clear_delay
            };
            thread::sleep(delay);
        }
        fn start(&mut self, pos: Position, limits: Limits, c: SearchConfig, sink: EventSink) {
            {
                let mut s = self.0.lock().unwrap();
                s.calls
                    .push(format!("start threads={} multipv={}", c.threads, c.multipv));
                if let Some(received) = limits.received {
                    s.go_waited.push(received.elapsed());
                }
                s.sink = Some(sink);
                s.root = Some(pos);
            }
            if !limits.infinite && !limits.ponder {
                self.answer();
            }
        }
        fn stop(&self) {
            self.0.lock().unwrap().calls.push("stop".into());
            self.answer();
        }
        fn ponderhit(&self, _clock: Option<Limits>, _received: Instant) {
            self.0.lock().unwrap().calls.push("ponderhit".into());
            self.answer();
        }
        fn abort(&self) {
            let mut s = self.0.lock().unwrap();
            s.calls.push("abort".into());
            s.sink = None;
        }
        fn wait(&mut self) {}
        fn is_searching(&self) -> bool {
            self.0.lock().unwrap().sink.is_some()
        }
    }

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Runs the loop over `input` (to end of input) with the scripted pool; returns the output lines.
    fn session(input: &str, fake: &Fake) -> Vec<String> {
        session_solving(input, fake, Arc::new(ScriptedMate::default()))
    }

    /// `session` with the given mate solver.
    fn session_solving(input: &str, fake: &Fake, solver: Arc<dyn MateSolver>) -> Vec<String> {
        let buf = Buf::default();
        let out = Output::new(Box::new(buf.clone()));
        let engine = Engine::new(out.clone(), fake.clone()).with_mate_solver(solver);
        run_engine(Cursor::new(input.as_bytes().to_vec()), out, engine);
        let bytes = buf.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with(BUILT_IN_NOTICE))
            .map(str::to_string)
            .collect()
    }

    /// What the first `isready` (or search) of a session says about the built-in network; these
    /// tests are about the protocol's mechanics and leave it out (`tests/nnue.rs` checks it).
    const BUILT_IN_NOTICE: &str = "info string built-in network: ";

    fn bestmoves(lines: &[String]) -> Vec<&String> {
        lines.iter().filter(|l| l.starts_with("bestmove")).collect()
    }

    /// A `usinewgame` that clears a big hash holds up the `go` behind it; the client's clock is
    /// already running, so the search's clock must start when the `go` arrived.
    #[test]
    fn a_go_is_timed_from_its_arrival() {
        let fake = Fake::default();
        fake.0.lock().unwrap().clear_delay = Duration::from_millis(300);
        let go = "position startpos\ngo btime 0 wtime 0 byoyomi 1000\n";
        session(
            &format!("setoption name USI_Hash value 32\nisready\nusinewgame\n{go}usinewgame\n{go}"),
            &fake,
        );
        let waited = fake.0.lock().unwrap().go_waited.clone();
        assert_eq!(waited.len(), 2, "{:?}", fake.calls());
        // The first game used the hash, so the second usinewgame cleared it (300 ms).
        assert!(waited[1] >= Duration::from_millis(250), "{waited:?}");
    }

    /// Tables a game used are cleared once, at `gameover` when it comes (the client then waits for
    /// `readyok`), else at `usinewgame`; tables nothing has used since are not cleared again.
    #[test]
    fn used_tables_are_cleared_once_between_games() {
        let calls = |input: &str| {
            let fake = Fake::default();
            session(input, &fake);
            fake.calls()
        };
        let clears = |calls: &[String]| calls.iter().filter(|c| *c == "clear").count();
        let game = "isready\nusinewgame\nposition startpos\ngo btime 0 wtime 0 byoyomi 100\n";
        assert_eq!(clears(&calls("isready\nusinewgame\n")), 0);
        assert_eq!(clears(&calls(&format!("{game}usinewgame\n"))), 1);
        assert_eq!(clears(&calls(&format!("{game}gameover lose\n"))), 1);
        // ClearHash emptied them: the next usinewgame has nothing to do.
        let pressed = format!("{game}setoption name ClearHash\nusinewgame\n");
        assert_eq!(clears(&calls(&pressed)), 1);
        // ClearHash during a search waits for it to end; the usinewgame after it clears once, and
        // the next game's first go finds nothing left to do.
        let during =
            "isready\nusinewgame\nposition startpos\ngo infinite\nsetoption name ClearHash\n\
                      stop\nusinewgame\nposition startpos\ngo btime 0 wtime 0 byoyomi 100\n";
        assert_eq!(clears(&calls(during)), 1, "{:?}", calls(during));
        let two_games = calls(&format!("{game}gameover win\n{game}gameover draw\n"));
        assert_eq!(clears(&two_games), 2, "{two_games:?}");
        assert_eq!(
            two_games.iter().filter(|c| c.starts_with("start")).count(),
            2,
            "{two_games:?}"
        );
    }

    #[test]
    fn usi_allocates_nothing_and_isready_does() {
        let fake = Fake::default();
        let out = session("usi\n", &fake);
        assert_eq!(out.last().map(String::as_str), Some("usiok"));
        assert!(fake.calls().is_empty(), "{:?}", fake.calls());
        let out = session(
            "setoption name USI_Hash value 32\nisready\nisready\n",
            &fake,
        );
        assert_eq!(out, vec!["readyok", "readyok"]);
        assert_eq!(fake.calls(), vec!["resize 32"]);
    }

    #[test]
    fn a_hash_larger_than_memory_is_reported_once_and_the_engine_goes_on() {
        let fake = Fake::default();
        let out = session(
            "setoption name USI_Hash value 65536\nisready\nisready\nposition startpos\ngo depth 1\n",
            &fake,
        );
        assert_eq!(
            out[..3],
            [
                "info string error: USI_Hash 65536 MB does not fit in this machine's memory; \
                 the table has 4096 MB",
                "readyok",
                "readyok"
            ]
        );
        let calls = fake.calls();
        assert_eq!(calls[0], "resize 65536");
        assert!(calls[1].starts_with("start"), "{calls:?}");
    }

    #[test]
    fn one_bestmove_per_go_and_none_for_idle_stop() {
        let fake = Fake::default();
        let out = session(
            "stop\nposition startpos\ngo infinite\nisready\nstop\nstop\ngo btime 0 wtime 0 byoyomi 100\nstop\n",
            &fake,
        );
        assert_eq!(bestmoves(&out).len(), 2, "{out:?}");
        // readyok came while the infinite search ran, before its bestmove.
        let ready = out.iter().position(|l| l == "readyok").unwrap();
        let first = out.iter().position(|l| l.starts_with("bestmove")).unwrap();
        assert!(ready < first, "{out:?}");
        assert_eq!(
            fake.calls().iter().filter(|c| *c == "stop").count(),
            1,
            "{:?}",
            fake.calls()
        );
    }

    #[test]
    fn go_overtaking_a_search_answers_both() {
        let fake = Fake::default();
        let out = session("go infinite\ngo infinite\nstop\n", &fake);
        assert_eq!(bestmoves(&out).len(), 2, "{out:?}");
    }

    #[test]
    fn gameover_and_quit_abort_quietly() {
        let fake = Fake::default();
        let out = session("go ponder\ngameover win\nstop\nponderhit\n", &fake);
        assert!(bestmoves(&out).is_empty(), "{out:?}");
        assert!(fake.calls().contains(&"abort".to_string()));
        let fake = Fake::default();
        let out = session("go infinite\nquit\nstop\n", &fake);
        assert!(bestmoves(&out).is_empty(), "{out:?}");
    }

    #[test]
    fn sink_guards_against_a_misbehaving_pool() {
        let fake = Fake::default();
        fake.0.lock().unwrap().double_answer = true;
        fake.0.lock().unwrap().bad_ponder = true;
        let out = session("go btime 0 wtime 0 byoyomi 100\n", &fake);
        let answers = bestmoves(&out);
        assert_eq!(answers.len(), 1, "{out:?}");
        assert!(!answers[0].contains("ponder"), "{out:?}");
    }

    #[test]
    fn options_reach_the_search_and_variant_resets_position() {
        let fake = Fake::default();
        let out = session(
            "setoption name threads value 3\nsetoption name MULTIPV value 4\nsetoption name USI_Variant value heian8\nd\n",
            &fake,
        );
        assert!(
            out.iter()
                .any(|l| l.contains(Variant::Heian8.startpos_sfen())),
            "{out:?}"
        );
        let fake = Fake::default();
        let out = session(
            "setoption name threads value 3\nsetoption name MultiPV value 4\nsetoption name USI_Variant value heian\nposition startpos moves 7f7e\ngo depth 1\n",
            &fake,
        );
        assert_eq!(bestmoves(&out).len(), 1);
        assert!(fake
            .calls()
            .contains(&"start threads=3 multipv=4".to_string()));
    }

    #[test]
    fn options_map_onto_the_search_config() {
        let mut o = Options::new(4);
        let d = search_config(&o, Evaluation::HandWritten);
        assert_eq!((d.threads, d.multipv), (1, 1));
        assert_eq!(d.entering_king_rule, EnteringKingRule::Csa27);
        assert_eq!(d.time, TimeConfig::default());
        assert!(!d.ponder_enabled);
        for (name, value) in [
            ("EnteringKingRule", "NoEnteringKing"),
            ("NodesLimit", "5000"),
            ("DepthLimit", "7"),
            ("ResignValue", "3000"),
            ("MaxMovesToDraw", "256"),
            ("NetworkDelay2", "0"),
            ("Contempt", "-30"),
            ("USI_Ponder", "true"),
        ] {
            o.set(name, Some(value)).unwrap();
        }
        let c = search_config(&o, Evaluation::HandWritten);
        assert_eq!(c.entering_king_rule, EnteringKingRule::None);
        assert_eq!(
            (
                c.nodes_limit,
                c.depth_limit,
                c.resign_value,
                c.max_moves_to_draw
            ),
            (5000, 7, 3000, 256)
        );
        assert_eq!(c.time.network_delay2, 0);
        assert_eq!(c.contempt, -30);
        assert!(c.ponder_enabled);
        o.set("EnteringKingRule", Some("CSARule24")).unwrap();
        assert_eq!(
            search_config(&o, Evaluation::HandWritten).entering_king_rule,
            EnteringKingRule::Csa24
        );
    }

    /// A scripted mate solver: mates with the first legal move after one progress report, and
    /// logs the table calls.
    #[derive(Default)]
    struct ScriptedMate(Mutex<Vec<String>>);

    impl MateSolver for ScriptedMate {
        fn solve(
            &self,
            pos: &Position,
            limit: MateLimit,
            _: &AtomicBool,
            progress: &mut dyn FnMut(MateProgress),
        ) -> MateResult {
            self.0.lock().unwrap().push(format!("solve {limit:?}"));
            progress(MateProgress {
                nodes: 7,
                nps: 700,
                time_ms: 10,
                hashfull: 0,
            });
            let m: Move = movegen::legal_moves(pos).as_slice()[0];
            MateResult::Mate(vec![m])
        }
        fn resize_hash(&self, mb: usize) {
            self.0.lock().unwrap().push(format!("resize {mb}"));
        }
        fn clear_hash(&self) {
            self.0.lock().unwrap().push("clear".into());
        }
    }

    #[test]
    fn mate_plug_answers_checkmate_not_bestmove() {
        let buf = Buf::default();
        let solver = Arc::new(ScriptedMate::default());
        let mut engine = Engine::new(Output::new(Box::new(buf.clone())), Fake::default())
            .with_mate_solver(Arc::clone(&solver) as Arc<dyn MateSolver>);
        for line in [
            "setoption name USI_Hash value 32",
            "isready",
            "setoption name ClearHash",
            "usinewgame",
            "go mate 1000",
        ] {
            engine.handle_line(line, Instant::now());
        }
        // Joins the solver thread (its answer is not muted: no gameover/quit came).
        engine.wait_idle();
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with(BUILT_IN_NOTICE))
            .collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0], "readyok");
        assert_eq!(lines[1], "info nodes 7 nps 700 time 10 hashfull 0");
        assert!(lines[2].starts_with("checkmate "), "{text}");
        assert_eq!(
            *solver.0.lock().unwrap(),
            vec![
                // ClearHash; `usinewgame` finds nothing used since and clears nothing.
                "resize 32",
                "clear",
                "resize 32",
                "solve Time(1000)"
            ]
        );
    }

    #[test]
    fn go_mate_after_gameover_is_silent() {
        let buf = Buf::default();
        let mut engine = Engine::new(Output::new(Box::new(buf.clone())), Fake::default())
            .with_mate_solver(Arc::new(ScriptedMate::default()));
        engine.handle_line("go mate infinite", Instant::now());
        engine.handle_line("gameover", Instant::now());
        engine.wait_idle();
        // The scripted solver answers at once, so the line may or may not have gone out before
        // `gameover`; what must hold is that no `bestmove` ever comes and at most one answer.
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(text.lines().filter(|l| l.starts_with("checkmate")).count() <= 1);
        assert!(!text.contains("bestmove"));
    }

    fn starts(fake: &Fake) -> usize {
        fake.calls()
            .iter()
            .filter(|c| c.starts_with("start"))
            .count()
    }

    /// End of input is `stop` then `quit`: a search still running, timed or not, is stopped (not
    /// aborted) and gives its one `bestmove`; an idle engine exits without a word.
    #[test]
    fn end_of_input_stops_the_search_and_answers_once() {
        for go in [
            "go infinite",
            "go ponder btime 0 wtime 0 byoyomi 1000",
            "go ponder",
        ] {
            let fake = Fake::default();
            let out = session(&format!("position startpos\n{go}\n"), &fake);
            assert_eq!(bestmoves(&out).len(), 1, "{go}: {out:?}");
            let calls = fake.calls();
            assert!(calls.contains(&"stop".to_string()), "{go}: {calls:?}");
            assert!(!calls.contains(&"abort".to_string()), "{go}: {calls:?}");
        }
        // Answered already: nothing more at the end.
        let fake = Fake::default();
        let out = session("position startpos\ngo depth 1\n", &fake);
        assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
        // Idle, or after gameover: silence.
        let fake = Fake::default();
        assert!(session("isready\nposition startpos\n", &fake) == ["readyok"]);
        assert!(!fake.calls().contains(&"stop".to_string()));
        let out = session("go infinite\ngameover lose\n", &Fake::default());
        assert!(bestmoves(&out).is_empty(), "{out:?}");
    }

    /// A scripted mate solver that works until it is stopped.
    struct UntilStopped;

    impl MateSolver for UntilStopped {
        fn solve(
            &self,
            _: &Position,
            _: MateLimit,
            stop: &AtomicBool,
            _: &mut dyn FnMut(MateProgress),
        ) -> MateResult {
            while !stop.load(Ordering::Acquire) {
                thread::sleep(Duration::from_millis(1));
            }
            MateResult::Timeout
        }
        fn resize_hash(&self, _: usize) {}
        fn clear_hash(&self) {}
    }

    #[test]
    fn end_of_input_stops_go_mate_and_answers_once() {
        let out = session_solving(
            "position startpos\ngo mate infinite\n",
            &Fake::default(),
            Arc::new(UntilStopped),
        );
        assert_eq!(out, ["checkmate timeout"]);
    }

    const BAD_SFEN: &str = "position sfen lnsgkgsnl/9/ppppppppp b - 1";
    /// A tsume problem whose defender (the side not to move) is already in check.
    const CHECKED_DEFENDER: &str = "position sfen 4k4/4P4/9/9/9/9/9/9/9 b G 1";

    /// After a refused `position` no `go` answers for the position before it: `bestmove resign`,
    /// with the reason, and the search is never started.
    #[test]
    fn a_refused_position_is_answered_with_resign() {
        for refused in [
            BAD_SFEN,
            CHECKED_DEFENDER,
            // Partly playable: good moves, then one that is not.
            "position startpos moves 7g7f 3c3d 5i5i",
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 5c5d zz9",
            // A line that does not parse as a position at all.
            "position foo",
            "position sfen",
        ] {
            let fake = Fake::default();
            let out = session(
                &format!(
                    "position startpos\ngo depth 1\n{refused}\ngo btime 0 wtime 0 byoyomi 100\n"
                ),
                &fake,
            );
            let answers = bestmoves(&out);
            assert_eq!(answers.len(), 2, "{refused}: {out:?}");
            assert_eq!(answers[1], "bestmove resign", "{refused}: {out:?}");
            assert_eq!(starts(&fake), 1, "{refused}: {:?}", fake.calls());
            let said = out.iter().filter(|l| l.starts_with("info string error: "));
            let said: Vec<_> = said.collect();
            assert_eq!(said.len(), 2, "{refused}: {out:?}");
            assert!(said[0].contains("refused"), "{refused}: {out:?}");
            assert!(
                said[1].starts_with("info string error: go: no position"),
                "{out:?}"
            );
        }
        // The next accepted position is searched again; so is the start after usinewgame.
        for fresh in ["position startpos moves 7g7f", "usinewgame"] {
            let fake = Fake::default();
            let out = session(&format!("{BAD_SFEN}\n{fresh}\ngo depth 1\n"), &fake);
            assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
            assert_ne!(bestmoves(&out)[0], "bestmove resign", "{out:?}");
            assert_eq!(starts(&fake), 1, "{:?}", fake.calls());
        }
    }

    /// `go infinite` and `go ponder` on no position keep the rule that no `bestmove` comes before
    /// `stop`/`ponderhit`; `gameover` drops the answer; a new `go` or end of input pays it first.
    #[test]
    fn a_refused_position_holds_its_resign_until_stop_or_ponderhit() {
        let fake = Fake::default();
        let out = session(
            &format!("{BAD_SFEN}\ngo infinite\nisready\nstop\nstop\n"),
            &fake,
        );
        let ready = out.iter().position(|l| l == "readyok");
        let resign = out.iter().position(|l| l == "bestmove resign");
        assert!(ready.is_some() && ready < resign, "{out:?}");
        assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
        for (input, answers) in [
            (format!("{BAD_SFEN}\ngo ponder\nisready\nponderhit\n"), 1),
            (format!("{BAD_SFEN}\ngo ponder\ngameover win\nstop\n"), 0),
            (format!("{BAD_SFEN}\ngo infinite\ngo infinite\nquit\n"), 1),
            (format!("{BAD_SFEN}\ngo infinite\n"), 1),
        ] {
            let fake = Fake::default();
            let out = session(&input, &fake);
            let got = bestmoves(&out);
            assert_eq!(got.len(), answers, "{input}: {out:?}");
            assert!(got.iter().all(|b| *b == "bestmove resign"), "{out:?}");
            assert_eq!(starts(&fake), 0, "{input}: {:?}", fake.calls());
        }
    }

    /// `go mate` on no position: `checkmate timeout` (claims nothing), never the previous
    /// problem's answer, and the solver is not asked.
    #[test]
    fn a_refused_position_is_answered_with_checkmate_timeout() {
        let solver = Arc::new(ScriptedMate::default());
        let out = session_solving(
            &format!("{CHECKED_DEFENDER}\ngo mate 1000\nd\ngo perft 3\n"),
            &Fake::default(),
            Arc::clone(&solver) as Arc<dyn MateSolver>,
        );
        let answers: Vec<_> = out.iter().filter(|l| l.starts_with("checkmate")).collect();
        assert_eq!(answers, ["checkmate timeout"], "{out:?}");
        assert!(
            !solver
                .0
                .lock()
                .unwrap()
                .iter()
                .any(|c| c.starts_with("solve")),
            "{:?}",
            solver.0.lock().unwrap()
        );
        assert!(out
            .iter()
            .any(|l| l.starts_with("info string error: go mate: no position")));
        assert!(out
            .iter()
            .any(|l| l.starts_with("info string no position: ")));
        assert_eq!(
            out.last().map(String::as_str),
            Some("Nodes searched (no position): 0")
        );
    }

    /// A `go perft` holds the loop: what comes after it waits for its count, in order, and end of
    /// input too (the count is not cut short).
    #[test]
    fn go_perft_holds_the_loop_until_counted() {
        crate::core::attacks::init();
        let out = session(
            "go perft 3\nisready\ngo perft 1\nisready\n",
            &Fake::default(),
        );
        let at = |text: &str| out.iter().position(|l| l == text);
        assert!(at("Nodes searched: 25470") < at("readyok"), "{out:?}");
        assert!(at("Nodes searched: 30").is_some(), "{out:?}");
        assert_eq!(out.last().map(String::as_str), Some("readyok"), "{out:?}");
        assert_eq!(out.iter().filter(|l| *l == "readyok").count(), 2, "{out:?}");
    }
}
