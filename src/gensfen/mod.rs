//! `tokin gensfen`: training data from self-play, written as `PackedSfenValue` records
//! (`crate::psv`).
//!
//! Both sides are the same engine: Tokin's search with the evaluation the run is given (the
//! hand-written one by default, or a network). Each game starts from an opening (the balanced lines of `scripts/openings.sfen` unless another
//! file is given), plays a few seeded random moves in its first plies for variety, and is then
//! played by Tokin's search for both sides at a fixed node count or depth per move until it really
//! ends: checkmate, an entering-king declaration, sennichite (a draw, or a loss for perpetual
//! check), or the maximum length (a draw). Every position searched after the last random move
//! that the filters keep (`filter`) becomes a record with the search's score and move and the
//! game's result from its side to move's view. Records before a random move are dropped: their
//! game's result no longer follows from their play.
//!
//! `threads` games run at once, each on its own thread with its own small table: at a fixed node
//! count one search thread per game uses the cores best (no shared-table contention, no idle
//! helpers at a few thousand nodes). Every game clears its table and history and draws its
//! randomness from `(seed, game number)` alone, and games reach the file in the order of their
//! numbers (a game that finishes early waits for those before it), so a seed gives the same file
//! byte for byte whatever the thread count. Files outside a repository get lost; the command that
//! made one makes it again, and `shuffle` and `learn` are seeded too, so a network can be remade
//! from its recipe.
//!
//! Records reach the file game by game in whole records (`psv::PsvWriter`): a killed run loses
//! the games in progress (and the few finished ones waiting for them) and nothing else, and
//! appending resumes it (`run` mixes the records already in the file into the seed, so a resumed
//! run plays new games).
//!
//! `relabel` searches the records of existing files again (deeper, or with another evaluation) and
//! replaces their scores and moves: a better teacher for positions already played.

pub mod filter;
pub mod game;
pub mod openings;
pub mod relabel;

use crate::core::{Color, DrawReason, EnteringKingRule, Position, WinReason};
use crate::psv::{PsvWriter, WriteError};
use crate::search::Evaluation;
use filter::{RecordFilter, SkipCounts};
use game::{GameEnd, GameRecords, SelfPlay};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The search limit of every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    Nodes(u64),
    Depth(u32),
}

/// The random moves at the start of each game (YaneuraOu's `random_move_count`,
/// `random_move_minply`, `random_move_maxply`, `random_multi_pv`, `random_multi_pv_diff`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomMoves {
    /// How many random moves a game gets.
    pub count: u32,
    /// They are played at distinct plies (SFEN move numbers) in `min_ply..=max_ply`, after the
    /// opening line.
    pub min_ply: u32,
    pub max_ply: u32,
    /// 0 or 1: any legal move, uniformly. More: one of the search's best `multipv` moves...
    pub multipv: u32,
    /// ...whose score is within this of the best one's.
    pub multipv_diff: i32,
}

/// What every search of a run is given (`relabel`'s searches too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    pub limit: MoveLimit,
    /// A game is a draw when it reaches this many plies (the search's `max_moves_to_draw`).
    pub max_plies: u32,
    pub entering_king_rule: EnteringKingRule,
    /// What the search evaluates with (the hand-written evaluation, or a network).
    pub evaluation: Evaluation,
}

/// Everything a run is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GensfenConfig {
    /// Records the file holds when the run is done (those already there count).
    pub count: u64,
    pub search: SearchSettings,
    pub threads: usize,
    pub seed: u64,
    /// Table size of each game's search, MB.
    pub hash_mb: usize,
    pub random: RandomMoves,
    pub filter: RecordFilter,
}

impl Default for GensfenConfig {
    /// YaneuraOu's gensfen defaults where it has them (random moves 5 in plies 1-24, eval_limit
    /// 3000, write_minply 16, 400 plies), Tokin's fixed node count otherwise.
    fn default() -> GensfenConfig {
        GensfenConfig {
            count: 1_000_000,
            search: SearchSettings {
                limit: MoveLimit::Nodes(5000),
                max_plies: 400,
                entering_king_rule: EnteringKingRule::default(),
                evaluation: Evaluation::default(),
            },
            threads: 1,
            seed: 1,
            hash_mb: 16,
            random: RandomMoves {
                count: 5,
                min_ply: 1,
                max_ply: 24,
                multipv: 0,
                multipv_diff: 32000,
            },
            filter: RecordFilter::default(),
        }
    }
}

/// A setting out of its range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("{name} must be at least {min} (got {value})")]
    TooSmall {
        name: &'static str,
        value: u64,
        min: u64,
    },
    #[error("{name} must be at most {max} (got {value})")]
    TooLarge {
        name: &'static str,
        value: u64,
        max: u64,
    },
    #[error("the random moves' first ply ({min}) is after their last ({max})")]
    RandomPlies { min: u32, max: u32 },
}

impl GensfenConfig {
    /// Checks every setting's range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let at_least = |name, value: u64, min| {
            if value < min {
                Err(ConfigError::TooSmall { name, value, min })
            } else {
                Ok(())
            }
        };
        let at_most = |name, value: u64, max| {
            if value > max {
                Err(ConfigError::TooLarge { name, value, max })
            } else {
                Ok(())
            }
        };
        at_least("count", self.count, 1)?;
        match self.search.limit {
            MoveLimit::Nodes(n) => at_least("nodes", n, 1)?,
            MoveLimit::Depth(d) => {
                at_least("depth", u64::from(d), 1)?;
                at_most("depth", u64::from(d), 64)?;
            }
        }
        at_least("threads", self.threads as u64, 1)?;
        at_most("threads", self.threads as u64, 256)?;
        at_least("hash", self.hash_mb as u64, 1)?;
        at_most("hash", self.hash_mb as u64, 4096)?;
        at_least("max-plies", u64::from(self.search.max_plies), 1)?;
        at_most(
            "max-plies",
            u64::from(self.search.max_plies),
            u64::from(u16::MAX),
        )?;
        at_most("random-multipv", u64::from(self.random.multipv), 64)?;
        at_least("random-min-ply", u64::from(self.random.min_ply), 1)?;
        if self.random.min_ply > self.random.max_ply {
            return Err(ConfigError::RandomPlies {
                min: self.random.min_ply,
                max: self.random.max_ply,
            });
        }
        Ok(())
    }
}

/// Where a run stands, after each game written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Records in the file now, and the count it is to reach.
    pub records: u64,
    pub target: u64,
    /// Records and games written by this run.
    pub written: u64,
    pub games: u64,
    pub elapsed: Duration,
}

/// How the games of a run ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndCounts {
    pub black_wins: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub checkmate: u64,
    pub declaration: u64,
    pub perpetual_check: u64,
    pub repetition: u64,
    pub max_plies: u64,
    /// Anything else (no legal move without check, a resigning search): expected never.
    pub other: u64,
}

impl EndCounts {
    fn add(&mut self, end: GameEnd) {
        match end {
            GameEnd::Win(Color::Black, _) | GameEnd::Resigned(Color::White) => self.black_wins += 1,
            GameEnd::Win(Color::White, _) | GameEnd::Resigned(Color::Black) => self.white_wins += 1,
            GameEnd::Draw(_) => self.draws += 1,
        }
        match end {
            GameEnd::Win(_, WinReason::Checkmate) => self.checkmate += 1,
            GameEnd::Win(_, WinReason::Declaration) => self.declaration += 1,
            GameEnd::Win(_, WinReason::PerpetualCheck) => self.perpetual_check += 1,
            GameEnd::Draw(DrawReason::Repetition) => self.repetition += 1,
            GameEnd::Draw(DrawReason::MaxMoves) => self.max_plies += 1,
            _ => self.other += 1,
        }
    }

    pub fn games(&self) -> u64 {
        self.black_wins + self.white_wins + self.draws
    }
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GensfenReport {
    /// Records in the file at the start and the end of the run.
    pub records_before: u64,
    pub records_after: u64,
    /// Games whose records were written (the last one possibly in part).
    pub games: u64,
    pub ends: EndCounts,
    /// Plies of those games, and searches made in them.
    pub plies: u64,
    pub searches: u64,
    pub nodes: u64,
    pub skipped: SkipCounts,
    pub elapsed: Duration,
}

impl GensfenReport {
    pub fn written(&self) -> u64 {
        self.records_after - self.records_before
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GensfenError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error("no openings to start games from")]
    NoOpenings,
}

/// splitmix64's finaliser: decorrelates seeds that differ in a few bits.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The seed of game `game` of a run: depends on the run's seed, the records already in the file
/// (so that resuming does not replay the games already written) and the game's number only.
pub fn game_seed(seed: u64, records_before: u64, game: u64) -> u64 {
    mix(mix(seed ^ mix(records_before)) ^ game)
}

/// Plays games and writes their records to `writer` until it holds `config.count`, calling
/// `progress` after each game written. Returns what was done; on a write error the file keeps every
/// whole record written before it.
pub fn run(
    config: &GensfenConfig,
    openings: &[Position],
    writer: &mut PsvWriter,
    progress: &mut dyn FnMut(&Progress),
) -> Result<GensfenReport, GensfenError> {
    config.validate()?;
    if openings.is_empty() {
        return Err(GensfenError::NoOpenings);
    }
    crate::core::attacks::init();
    let started = Instant::now();
    let records_before = writer.records();
    let mut report = GensfenReport {
        records_before,
        records_after: records_before,
        games: 0,
        ends: EndCounts::default(),
        plies: 0,
        searches: 0,
        nodes: 0,
        skipped: SkipCounts::default(),
        elapsed: Duration::ZERO,
    };
    if records_before >= config.count {
        return Ok(report);
    }

    let stop = AtomicBool::new(false);
    let next_game = AtomicU64::new(0);
    // A few games in flight per thread at most: the writer never falls far behind.
    let (tx, rx) = mpsc::sync_channel::<(u64, GameRecords)>(config.threads * 2);
    let result = std::thread::scope(|scope| {
        for _ in 0..config.threads {
            let tx = tx.clone();
            let (stop, next_game) = (&stop, &next_game);
            scope.spawn(move || {
                let mut engine = SelfPlay::new(config.hash_mb);
                while !stop.load(Ordering::Relaxed) {
                    let g = next_game.fetch_add(1, Ordering::Relaxed);
                    let seed = game_seed(config.seed, records_before, g);
                    let start = &openings[(mix(seed) % openings.len() as u64) as usize];
                    let Some(game) = engine.play(config, start, seed, stop) else {
                        return;
                    };
                    if tx.send((g, game)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let outcome = write_games(config, &rx, writer, &mut report, started, progress);
        // Done or failed: the workers finish their current move and leave.
        stop.store(true, Ordering::Relaxed);
        drop(rx);
        outcome
    });
    report.records_after = writer.records();
    report.elapsed = started.elapsed();
    result.map(|()| report)
}

/// The writer's side of `run`: games in the order of their numbers, until the file holds
/// `config.count` records.
fn write_games(
    config: &GensfenConfig,
    rx: &mpsc::Receiver<(u64, GameRecords)>,
    writer: &mut PsvWriter,
    report: &mut GensfenReport,
    started: Instant,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(), GensfenError> {
    // Games that finished before one with a smaller number, held until it arrives: at most a few
    // per thread, since a game's length varies by a few times at most.
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    for (number, game) in rx.iter() {
        waiting.insert(number, game);
        while let Some(game) = waiting.remove(&next) {
            next += 1;
            write_game(config, &game, writer, report, started, progress)?;
            if writer.records() >= config.count {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Writes one game's records (those that fit under `config.count`) and counts it.
fn write_game(
    config: &GensfenConfig,
    game: &GameRecords,
    writer: &mut PsvWriter,
    report: &mut GensfenReport,
    started: Instant,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(), GensfenError> {
    let room = config.count.saturating_sub(writer.records());
    let take = (game.records.len() as u64).min(room) as usize;
    writer.write(&game.records[..take])?;
    report.games += 1;
    report.ends.add(game.end);
    report.plies += u64::from(game.plies);
    report.searches += game.searches;
    report.nodes += game.nodes;
    report.skipped.add(&game.skipped);
    progress(&Progress {
        records: writer.records(),
        target: config.count,
        written: writer.records() - report.records_before,
        games: report.games,
        elapsed: started.elapsed(),
    });
    Ok(())
}
