//! What the search receives and what it reports. The protocol layer (`usi/`) turns these into text;
//! the search itself never prints.

use crate::core::Move;
use std::time::Instant;

/// What `go` asked for. Times are milliseconds and may be negative or zero (clients send both).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Remaining clock per colour (index `Color::index()`); `None` when the client sent none.
    pub time: [Option<i64>; 2],
    /// Fischer increment per colour.
    pub inc: [i64; 2],
    /// Byoyomi period in ms (0 = none).
    pub byoyomi: i64,
    pub movetime: Option<i64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// `go infinite`: search until `stop`.
    pub infinite: bool,
    /// `go ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty = all).
    pub searchmoves: Vec<Move>,
    /// When the client's `go` arrived. The clock runs from then, as the client's does, so time
    /// spent before the search could start (clearing the hash after `usinewgame`, finishing the
    /// previous search) counts against this move instead of overrunning it. `None`: from the moment
    /// the search starts.
    pub received: Option<Instant>,
}

impl Limits {
    /// True when the client gave no limit at all (bare `go`): the engine must pick one itself.
    pub fn is_unbounded(&self) -> bool {
        self.time.iter().all(Option::is_none)
            && self.byoyomi <= 0
            && self.inc == [0, 0]
            && self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && !self.infinite
            && !self.ponder
    }
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units.
    Cp(i32),
    /// Mate in this many plies; negative when the side to move is being mated.
    Mate(i32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One `info` line's worth of progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line for MultiPV.
    pub multipv: u32,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The search's final answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    Move {
        best: Move,
        ponder: Option<Move>,
    },
    /// No legal move, or the position is lost beyond `ResignValue`.
    Resign,
    /// The side to move declares an entering-king win (valid under the configured rule).
    Win,
}

/// Everything the search reports, in order: zero or more `Info`, then exactly one `BestMove` per search
/// (unless the search was aborted quietly, e.g. by `gameover`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    Info(SearchInfo),
    /// A periodic progress line without a score (`nodes`, `nps`, `time`, `hashfull`).
    Progress {
        nodes: u64,
        nps: u64,
        time_ms: u64,
        hashfull: u32,
    },
    BestMove(BestMove),
}
