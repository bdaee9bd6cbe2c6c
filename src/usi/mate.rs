//! The plug for `go mate`. The engine calls [`MateSolver::solve`] from exactly one place
//! (`Engine::go_mate`, on its own thread); [`Dfpn`], the df-pn solver of [`crate::mate`], is the
//! one installed. The trait stays a seam so that the loop's tests can script the solver.

use crate::core::position::Position;
use crate::mate::{self, MateLimits, MateProgress, MateResult};
use crate::usi::command::MateLimit;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, TryLockError};
use std::time::Instant;

/// A tsume solver for `go mate`. The side to move attacks.
///
/// `solve` runs on the mate thread; `resize_hash` and `clear_hash` come from the command loop and
/// must never block on a running solve (the loop answers `isready` at once), so a solver that is
/// busy applies them when its current solve is over.
pub trait MateSolver: Send + Sync {
    /// `stop` is raised by `stop`/`gameover`/`quit` (or a new `go`); the solver must then return
    /// soon. `progress` is called every few hundred milliseconds and once at the end.
    fn solve(
        &self,
        pos: &Position,
        limit: MateLimit,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(MateProgress),
    ) -> MateResult;

    /// The table size in MB (`USI_Hash`), asked for at every `isready`.
    fn resize_hash(&self, _mb: usize) {}

    /// Forgets every stored result (`ClearHash`, `usinewgame`).
    fn clear_hash(&self) {}
}

/// The df-pn solver behind a mutex: the loop holds it as `&self` while the solver needs `&mut`.
///
/// The table is allocated at the first `go mate`, not at `isready`: a game never sends `go mate`
/// and should not hold a second `USI_Hash`-sized table beside the search's. Once allocated it
/// follows `USI_Hash` at every `isready`.
pub struct Dfpn {
    state: Mutex<DfpnState>,
    /// The size asked for last; applied at once when idle, else before the next solve.
    wanted_mb: AtomicUsize,
    /// `clear_hash` came during a solve: clear before the next one.
    clear_pending: AtomicBool,
}

struct DfpnState {
    /// `None` until the first solve.
    solver: Option<mate::MateSolver>,
    /// The size `solver` was allocated with.
    mb: usize,
}

impl Dfpn {
    /// A solver that will use `hash_mb` MB once it is first used; allocates nothing now.
    pub fn new(hash_mb: usize) -> Dfpn {
        Dfpn {
            state: Mutex::new(DfpnState {
                solver: None,
                mb: hash_mb,
            }),
            wanted_mb: AtomicUsize::new(hash_mb),
            clear_pending: AtomicBool::new(false),
        }
    }

    /// The state unless a solve holds it. A solve that panicked left a table that is still
    /// memory-safe to reuse (at worst it holds stale entries, which the verification of every mate
    /// line guards against), so a poisoned lock is taken over.
    fn try_state(&self) -> Option<std::sync::MutexGuard<'_, DfpnState>> {
        match self.state.try_lock() {
            Ok(guard) => Some(guard),
            Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    /// Brings an idle state up to the size and contents asked for.
    fn apply_pending(&self, state: &mut DfpnState) {
        let wanted = self.wanted_mb.load(Ordering::Acquire);
        if state.solver.is_some() && state.mb != wanted {
            // The old table goes before the new one is made: a resize drops the contents anyway,
            // and holding both would need old + new memory at once.
            state.solver = None;
            state.solver = Some(mate::MateSolver::new(wanted));
            state.mb = wanted;
            self.clear_pending.store(false, Ordering::Release);
        }
        if let Some(solver) = state.solver.as_mut() {
            if self.clear_pending.swap(false, Ordering::AcqRel) {
                solver.clear();
            }
        } else {
            state.mb = wanted;
            // Nothing stored yet: nothing to clear.
            self.clear_pending.store(false, Ordering::Release);
        }
    }
}

impl MateSolver for Dfpn {
    fn solve(
        &self,
        pos: &Position,
        limit: MateLimit,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(MateProgress),
    ) -> MateResult {
        let start = Instant::now();
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.apply_pending(&mut state);
        let mb = state.mb;
        let solver = state
            .solver
            .get_or_insert_with(|| mate::MateSolver::new(mb));
        // The client's time covers the whole answer: a first allocation (or a resize) of a big
        // table takes a noticeable part of it.
        let spent = start.elapsed().as_millis() as u64;
        let limits = MateLimits {
            time_ms: match limit {
                // A negative time is no time at all: the solver looks once and answers.
                MateLimit::Time(ms) => Some((ms.max(0) as u64).saturating_sub(spent)),
                MateLimit::Infinite => None,
            },
            nodes: None,
        };
        solver.solve(pos, limits, stop, progress)
    }

    fn resize_hash(&self, mb: usize) {
        self.wanted_mb.store(mb, Ordering::Release);
        if let Some(mut state) = self.try_state() {
            self.apply_pending(&mut state);
        }
    }

    fn clear_hash(&self) {
        self.clear_pending.store(true, Ordering::Release);
        if let Some(mut state) = self.try_state() {
            self.apply_pending(&mut state);
        }
    }
}

/// `checkmate ...` text.
pub fn format_checkmate(answer: &MateResult) -> String {
    match answer {
        MateResult::Mate(moves) if !moves.is_empty() => {
            let mut s = String::from("checkmate");
            for m in moves {
                s.push(' ');
                s.push_str(&m.to_usi());
            }
            s
        }
        // An empty sequence would read as a malformed line; treat it as no proof.
        MateResult::Mate(_) | MateResult::Timeout => "checkmate timeout".to_string(),
        MateResult::NoMate => "checkmate nomate".to_string(),
    }
}

/// The `info` line of a mate progress report.
pub fn format_mate_progress(p: &MateProgress) -> String {
    format!(
        "info nodes {} nps {} time {} hashfull {}",
        p.nodes, p.nps, p.time_ms, p.hashfull
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{HandKind, Move, Square, Variant};

    #[test]
    fn checkmate_lines() {
        let to = Square::from_usi("5b").unwrap();
        assert_eq!(
            format_checkmate(&MateResult::Mate(vec![Move::drop(HandKind::Gold, to)])),
            "checkmate G*5b"
        );
        assert_eq!(
            format_checkmate(&MateResult::Mate(vec![])),
            "checkmate timeout"
        );
        assert_eq!(format_checkmate(&MateResult::NoMate), "checkmate nomate");
        assert_eq!(
            format_mate_progress(&MateProgress {
                nodes: 10,
                nps: 2000,
                time_ms: 5,
                hashfull: 1
            }),
            "info nodes 10 nps 2000 time 5 hashfull 1"
        );
    }

    #[test]
    fn dfpn_allocates_on_first_solve_and_follows_resizes() {
        crate::core::attacks::init();
        let dfpn = Dfpn::new(1);
        dfpn.resize_hash(2);
        dfpn.clear_hash();
        assert!(dfpn.state.lock().unwrap().solver.is_none());
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", Variant::Shogi)
            .unwrap();
        let stop = AtomicBool::new(false);
        let mut reports = 0;
        let answer = dfpn.solve(&pos, MateLimit::Time(10_000), &stop, &mut |_| reports += 1);
        assert_eq!(format_checkmate(&answer), "checkmate G*5b");
        assert!(reports >= 1);
        assert_eq!(dfpn.state.lock().unwrap().mb, 2);
        // While a solve holds the table, a resize waits for the next solve.
        let guard = dfpn.state.lock().unwrap();
        dfpn.resize_hash(3);
        dfpn.clear_hash();
        assert!(dfpn.clear_pending.load(Ordering::Acquire));
        drop(guard);
        let answer = dfpn.solve(&pos, MateLimit::Infinite, &stop, &mut |_| {});
        assert_eq!(format_checkmate(&answer), "checkmate G*5b");
        let state = dfpn.state.lock().unwrap();
        assert_eq!(state.mb, 3);
        assert!(!dfpn.clear_pending.load(Ordering::Acquire));
    }
}
