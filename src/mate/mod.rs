//! Tsume (mate) solver: depth-first proof-number search (df-pn) for `go mate` and the CLI.
//!
//! The side to move attacks with checks only; the defender answers with every legal reply
//! (drops and interpositions included). The solver owns its transposition table (sized in MB, the
//! USI layer passes `USI_Hash`), reports progress through a callback and never prints. A mate it
//! returns has been replayed move by move with the rules core ([`is_mating_line`]).
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use tokin::core::{Position, Variant};
//! use tokin::mate::{MateLimits, MateResult, MateSolver};
//!
//! let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", Variant::Shogi).unwrap();
//! let mut solver = MateSolver::new(16);
//! let stop = AtomicBool::new(false);
//! let limits = MateLimits { time_ms: Some(10_000), nodes: None };
//! match solver.solve(&pos, limits, &stop, &mut |_progress| {}) {
//!     MateResult::Mate(pv) => assert_eq!(pv[0].to_string(), "G*5b"),
//!     other => panic!("{other:?}"),
//! }
//! ```
//!
//! Layout: `table` (the hash with hand superiority and the path table), `moves` (checks, evasions,
//! mate in one), `dfpn` (the search), `pv` (solution extraction and verification),
//! `problem_file` (one SFEN per line, for the CLI).

mod dfpn;
mod moves;
pub mod problem_file;
mod pv;
mod shortest;
mod table;

pub use pv::is_mating_line;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::core::{Color, HandKind, Move, PieceKind, Position};
use dfpn::{splitmix64, Search, ROOT_PATH_KEY};
use table::{PathTable, Table};

/// Limits of one solve; `None` means unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateLimits {
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
}

/// A progress report, sent every few hundred milliseconds during a solve and once at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateProgress {
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// Table use in per mille.
    pub hashfull: u32,
}

/// The answer to a mate problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A verified mating line: attacker, defender, ..., attacker (odd length, in plies). The
    /// attacker's moves are its shortest mate found, the defender's its longest resistance.
    Mate(Vec<Move>),
    /// Proven: the side to move cannot force mate with continuous checks.
    NoMate,
    /// Neither within the limits (or stopped).
    Timeout,
}

/// The solver and its transposition table. Reuse one across problems: the table's contents stay
/// valid (entries of a problem with different material never match, see `material_salt`).
pub struct MateSolver {
    table: Table,
    paths: PathTable,
    last_nodes: u64,
}

impl MateSolver {
    /// A solver whose table uses about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> MateSolver {
        MateSolver {
            table: Table::new(hash_mb),
            paths: PathTable::new(),
            last_nodes: 0,
        }
    }

    /// Reallocates the table for `hash_mb` megabytes (its contents are dropped).
    pub fn resize(&mut self, hash_mb: usize) {
        self.table.resize(hash_mb);
    }

    /// Forgets everything stored.
    pub fn clear(&mut self) {
        self.table.clear();
        self.paths.clear();
    }

    /// Table use in per mille.
    pub fn hashfull(&self) -> u32 {
        self.table.hashfull()
    }

    /// Nodes searched by the last `solve` (also reported in its final progress call).
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes
    }

    /// Solves `pos` for the side to move as the attacker.
    ///
    /// `stop` is polled about every thousand nodes; `progress` is called every ~250 ms and once at
    /// the end. A position whose defender has no king is answered `NoMate`.
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: MateLimits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(MateProgress),
    ) -> MateResult {
        self.run(pos, limits, stop, progress, true)
    }

    /// As `solve`, but a mate is answered with df-pn's own line as soon as it is proven, not
    /// necessarily the shortest: for a caller that needs to know whether a mate exists (the
    /// search's defence check), the shortening pass (at least `SHORTEN_MIN_BUDGET` nodes) is
    /// time it does not have.
    pub fn prove(&mut self, pos: &Position, limits: MateLimits, stop: &AtomicBool) -> MateResult {
        self.run(pos, limits, stop, &mut |_| {}, false)
    }

    fn run(
        &mut self,
        pos: &Position,
        limits: MateLimits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(MateProgress),
        shortest: bool,
    ) -> MateResult {
        let start = Instant::now();
        let attacker = pos.side_to_move();
        if pos.king_square(attacker.flip()).is_none() {
            self.last_nodes = 0;
            return MateResult::NoMate;
        }
        self.paths.clear();
        let salt = material_salt(pos, attacker);
        let mut search = Search::new(
            pos.clone(),
            &mut self.table,
            &mut self.paths,
            salt,
            limits,
            stop,
            progress,
            start,
        );
        let root = search.search_from(&[], ROOT_PATH_KEY);
        let result = if root.pn == 0 {
            match pv::principal_variation(&mut search) {
                Some(line) if is_mating_line(pos, &line) => MateResult::Mate(if shortest {
                    shorten(&mut search, pos, line)
                } else {
                    line
                }),
                // Proven, but the line could not be read back within the limits.
                _ => MateResult::Timeout,
            }
        } else if root.dn == 0 && !search.hit_ply_limit {
            MateResult::NoMate
        } else {
            MateResult::Timeout
        };
        search.report_progress();
        self.last_nodes = search.nodes;
        result
    }
}

/// df-pn's line is a mate, not necessarily the shortest: look for the exact shortest one (with the
/// longest resistance) within a node budget proportional to the proof's cost, and keep df-pn's line
/// when that runs out.
fn shorten(search: &mut Search, pos: &Position, line: Vec<Move>) -> Vec<Move> {
    if line.len() <= 1 {
        return line;
    }
    let budget = search.nodes.saturating_mul(4).max(SHORTEN_MIN_BUDGET);
    let max_len = line.len().min(u16::MAX as usize) as u16;
    match shortest::Shortener::new(search, budget).line(max_len) {
        Some(short) if short.len() <= line.len() && is_mating_line(pos, &short) => short,
        _ => line,
    }
}

/// Nodes the shortening pass may always spend, however cheap the proof was.
const SHORTEN_MIN_BUDGET: u64 = 2_000_000;

/// A quick mate probe for the normal search at the root: a df-pn of at most `node_budget` nodes
/// with a small private table. Returns the verified mating line when one is found.
pub fn probe_root_mate(pos: &Position, node_budget: u64) -> Option<Vec<Move>> {
    // Entries are 32 bytes and most nodes store one; past 16 MB the allocation and clearing would
    // cost more than the probe itself at the budgets a game search can afford.
    let mb = (node_budget.saturating_mul(32) >> 20).clamp(1, 16) as usize;
    let mut solver = MateSolver::new(mb);
    let stop = AtomicBool::new(false);
    let limits = MateLimits {
        time_ms: None,
        nodes: Some(node_budget),
    };
    match solver.solve(pos, limits, &stop, &mut |_| {}) {
        MateResult::Mate(line) => Some(line),
        _ => None,
    }
}

/// A key mixed into every table key of a solve: which side attacks, and how many pieces of each
/// kind exist in total (board and hands). With the material fixed, the same board and a larger
/// attacker hand means a smaller defender hand, which is what makes hand superiority sound; a
/// problem with other material (e.g. a defender hand given as `-` rather than "all the rest")
/// must never match these entries.
fn material_salt(pos: &Position, attacker: Color) -> u64 {
    let mut counts = [0u64; 8];
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            counts[kind.unpromoted().index()] += pos.pieces(color, kind).count() as u64;
        }
        let hand = pos.hand(color);
        for kind in HandKind::ALL {
            counts[kind.index()] += hand.count(kind) as u64;
        }
    }
    let mut salt = splitmix64(attacker as u64 + 1);
    for (i, n) in counts.iter().enumerate() {
        salt = splitmix64(salt ^ (n << 8 | i as u64));
    }
    salt
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Hand, Variant};

    #[test]
    fn proofs_are_stored_under_the_least_hand_they_need() {
        // G*5b mates; the silver in hand plays no part, so the root's proof must also answer
        // for a hand with the gold alone.
        let pos = Position::from_sfen(
            "4k4/9/4P4/9/9/9/9/9/9 b GS2r2b3g3s4n4l17p 1",
            Variant::Shogi,
        )
        .expect("valid sfen");
        let mut solver = MateSolver::new(1);
        let stop = AtomicBool::new(false);
        let result = solver.solve(&pos, MateLimits::default(), &stop, &mut |_| {});
        assert!(matches!(result, MateResult::Mate(ref pv) if pv.len() == 1));
        let key = pos.board_key() ^ material_salt(&pos, Color::Black);
        let mut gold = Hand::EMPTY;
        gold.add(HandKind::Gold);
        let probe = solver.table.probe(key, gold).expect("stored proof");
        assert_eq!((probe.pn, probe.hand), (0, gold));
        assert_eq!(solver.table.probe(key, Hand::EMPTY), None);
    }
}
