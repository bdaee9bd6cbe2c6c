//! One self-play game: an opening, seeded random moves, then Tokin's search for both sides until
//! the game really ends; the positions the filters keep become records carrying the result.

use super::filter::SkipCounts;
use super::{GensfenConfig, MoveLimit, SearchSettings};
use crate::core::movegen::legal_moves;
use crate::core::packed_sfen::PackedSfen;
use crate::core::{outcome, Color, DrawReason, Move, Outcome, Position, WinReason};
use crate::psv::{to_move16, PackedRecord, RecordResult, MATE_SCORE};
use crate::rng::Rng;
use crate::search::{BestMove, Limits, Pool, Score, SearchConfig, SearchEvent};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// A win by the rules (`outcome`): checkmate, declaration, perpetual check, no legal move.
    Win(Color, WinReason),
    Draw(DrawReason),
    /// The search answered `resign` in a position the rules had not ended (never expected:
    /// counted apart so that it would show).
    Resigned(Color),
}

impl GameEnd {
    fn winner(self) -> Option<Color> {
        match self {
            GameEnd::Win(c, _) => Some(c),
            GameEnd::Resigned(c) => Some(c.flip()),
            GameEnd::Draw(_) => None,
        }
    }
}

/// A finished game's records, in the order played.
#[derive(Clone, Debug)]
pub struct GameRecords {
    pub records: Vec<PackedRecord>,
    pub end: GameEnd,
    /// The game's length: the `gamePly` of its final position.
    pub plies: u32,
    pub searches: u64,
    /// Nodes of those searches.
    pub nodes: u64,
    pub skipped: SkipCounts,
}

/// A record whose result is not known until the game ends.
struct Pending {
    sfen: PackedSfen,
    score: i16,
    move16: u16,
    game_ply: u16,
    side: Color,
}

/// What one search answered.
pub(crate) struct Answer {
    /// `None`: no move to answer with (no legal move, or a declaration's `win`).
    pub(crate) best: Option<Move>,
    /// The last reported score, as a record holds it (`score_to_record`).
    pub(crate) score: i32,
    pub(crate) nodes: u64,
    /// MultiPV lines: first move and score of each, by line.
    lines: Vec<Option<(Move, i32)>>,
}

/// One worker's engine: a pool with its own small table, reused game after game (or, for
/// `relabel`, batch after batch).
pub struct SelfPlay {
    pool: Pool,
}

impl SelfPlay {
    pub fn new(hash_mb: usize) -> SelfPlay {
        let mut pool = Pool::new();
        pool.resize_hash(hash_mb);
        SelfPlay { pool }
    }

    /// Plays one game from `start`; `None` when `stop` was raised before it ended. The table and
    /// the move-ordering history are cleared first, so a game depends only on its seed.
    pub fn play(
        &mut self,
        config: &GensfenConfig,
        start: &Position,
        seed: u64,
        stop: &AtomicBool,
    ) -> Option<GameRecords> {
        let mut rng = Rng::new(seed);
        self.clear();
        let settings = &config.search;
        let mut pos = start.clone();
        let random_plies = choose_random_plies(config, pos.game_ply(), &mut rng);
        let mut pending: Vec<Pending> = Vec::new();
        let mut skipped = SkipCounts::default();
        let mut searches = 0;
        let mut nodes = 0;
        let end = loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(o) = outcome(&pos, settings.entering_king_rule, settings.max_plies) {
                break match o {
                    Outcome::Win(c, reason) => GameEnd::Win(c, reason),
                    Outcome::Draw(reason) => GameEnd::Draw(reason),
                };
            }
            if random_plies.contains(&pos.game_ply()) {
                let m = self.random_move(config, &pos, &mut rng, &mut searches, &mut nodes);
                // The game's result says nothing about the play before a random move.
                skipped.before_random += pending.len() as u64;
                pending.clear();
                pos.do_move(m);
                continue;
            }
            let answer = self.search(settings, &pos, 1);
            searches += 1;
            nodes += answer.nodes;
            let Some(best) = answer.best else {
                break GameEnd::Resigned(pos.side_to_move());
            };
            match config.filter.check(&pos, best, answer.score) {
                Ok(()) => pending.push(Pending {
                    sfen: PackedSfen::from_position(&pos)
                        .expect("gensfen plays standard shogi with both kings"),
                    score: answer.score as i16,
                    move16: to_move16(best),
                    game_ply: (pos.game_ply() - 1).min(u32::from(u16::MAX)) as u16,
                    side: pos.side_to_move(),
                }),
                Err(skip) => skipped.count(skip),
            }
            pos.do_move(best);
        };
        let winner = end.winner();
        let records = pending
            .into_iter()
            .map(|p| {
                let result = match winner {
                    None => RecordResult::Draw,
                    Some(c) if c == p.side => RecordResult::Win,
                    Some(_) => RecordResult::Loss,
                };
                PackedRecord::from_fields(p.sfen, p.score, p.move16, p.game_ply, result)
            })
            .collect();
        Some(GameRecords {
            records,
            end,
            plies: pos.game_ply() - 1,
            searches,
            nodes,
            skipped,
        })
    }

    /// A random move: any legal move, or with `random_multipv` one of the search's best lines
    /// within `random_multipv_diff` of the first.
    fn random_move(
        &mut self,
        config: &GensfenConfig,
        pos: &Position,
        rng: &mut Rng,
        searches: &mut u64,
        nodes: &mut u64,
    ) -> Move {
        let moves = legal_moves(pos);
        if config.random.multipv > 1 {
            let answer = self.search(&config.search, pos, config.random.multipv);
            *searches += 1;
            *nodes += answer.nodes;
            let lines: Vec<(Move, i32)> = answer.lines.iter().flatten().copied().collect();
            if let Some(&(_, best)) = lines.first() {
                let close: Vec<Move> = lines
                    .iter()
                    .filter(|&&(_, s)| s >= best - config.random.multipv_diff)
                    .map(|&(m, _)| m)
                    .collect();
                return close[rng.below(close.len())];
            }
        }
        // `outcome` found the game not over, so there is a legal move.
        moves.as_slice()[rng.below(moves.len())]
    }

    /// Empties the table and the move-ordering history: what follows depends on its input alone.
    pub(crate) fn clear(&mut self) {
        self.pool.clear_hash();
    }

    /// Searches `pos` at the configured limit with `multipv` lines, one thread.
    pub(crate) fn search(
        &mut self,
        settings: &SearchSettings,
        pos: &Position,
        multipv: u32,
    ) -> Answer {
        let collected = Arc::new(Mutex::new(Answer {
            best: None,
            score: 0,
            nodes: 0,
            lines: vec![None; multipv as usize],
        }));
        let sink_collected = Arc::clone(&collected);
        let sink = Arc::new(move |event: SearchEvent| {
            let mut a = sink_collected.lock().unwrap_or_else(|e| e.into_inner());
            match event {
                SearchEvent::Info(info) => {
                    let score = score_to_record(info.score);
                    let line = info.multipv.max(1) as usize - 1;
                    if let (Some(slot), Some(&first)) = (a.lines.get_mut(line), info.pv.first()) {
                        *slot = Some((first, score));
                    }
                    if line == 0 {
                        a.score = score;
                    }
                    a.nodes = a.nodes.max(info.nodes);
                }
                SearchEvent::BestMove(BestMove::Move { best, .. }) => a.best = Some(best),
                _ => {}
            }
        });
        let limits = match settings.limit {
            MoveLimit::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            MoveLimit::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
        };
        let search_config = SearchConfig {
            threads: 1,
            multipv,
            entering_king_rule: settings.entering_king_rule,
            max_moves_to_draw: settings.max_plies,
            // Draws scored as draws: the data should not carry the engine's dislike of them.
            contempt: 0,
            evaluation: settings.evaluation.clone(),
            ..SearchConfig::default()
        };
        self.pool.start(pos.clone(), limits, search_config, sink);
        self.pool.wait();
        let mut a = collected.lock().unwrap_or_else(|e| e.into_inner());
        Answer {
            best: a.best,
            score: a.score,
            nodes: a.nodes,
            lines: std::mem::take(&mut a.lines),
        }
    }
}

/// The search's score as a record holds it: centipawn-like units as they are (within the i16
/// range below the mate scores), mate in `n` plies as `MATE_SCORE - n` (YaneuraOu's convention).
pub fn score_to_record(score: Score) -> i32 {
    let mate = i32::from(MATE_SCORE);
    match score {
        Score::Cp(v) => v.clamp(-(mate - 1001), mate - 1001),
        Score::Mate(n) if n > 0 => mate - n.min(1000),
        Score::Mate(n) => -mate - n.max(-1000),
    }
}

/// The game plies (SFEN move numbers) at which random moves are played: `count` distinct plies
/// drawn from `min_ply..=max_ply`, none inside the opening line (before `first_ply`).
fn choose_random_plies(config: &GensfenConfig, first_ply: u32, rng: &mut Rng) -> Vec<u32> {
    let r = &config.random;
    let low = r.min_ply.max(first_ply);
    let mut candidates: Vec<u32> = (low..=r.max_ply).collect();
    let take = (r.count as usize).min(candidates.len());
    // A partial Fisher-Yates shuffle: the first `take` entries are a uniform sample.
    for i in 0..take {
        let j = i + rng.below(candidates.len() - i);
        candidates.swap(i, j);
    }
    candidates.truncate(take);
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;
    use crate::gensfen::filter::RecordFilter;
    use crate::gensfen::RandomMoves;
    use crate::psv::TrainingRecord;

    /// Small and quick: 300 nodes a move, no random moves, every position written.
    fn quick_config() -> GensfenConfig {
        GensfenConfig {
            search: SearchSettings {
                limit: MoveLimit::Nodes(300),
                ..GensfenConfig::default().search
            },
            hash_mb: 1,
            random: RandomMoves {
                count: 0,
                ..GensfenConfig::default().random
            },
            filter: RecordFilter {
                min_ply: 0,
                skip_in_check: false,
                skip_noisy: false,
                eval_limit: 32000,
            },
            ..GensfenConfig::default()
        }
    }

    fn play(config: &GensfenConfig, sfen: &str, seed: u64) -> GameRecords {
        crate::core::attacks::init();
        let start = Position::from_sfen(sfen, Variant::Shogi).unwrap();
        let mut engine = SelfPlay::new(config.hash_mb);
        engine
            .play(config, &start, seed, &AtomicBool::new(false))
            .expect("not stopped")
    }

    fn decode(game: &GameRecords) -> Vec<TrainingRecord> {
        game.records
            .iter()
            .map(|r| TrainingRecord::decode(r).expect("a good record"))
            .collect()
    }

    #[test]
    fn a_mate_ends_the_game_and_its_record_is_a_win() {
        let game = play(
            &quick_config(),
            "4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1",
            1,
        );
        assert_eq!(game.end, GameEnd::Win(Color::Black, WinReason::Checkmate));
        let records = decode(&game);
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert_eq!(r.best_move.to_usi(), "G*5b");
        assert_eq!(
            (r.score, r.game_ply, r.result),
            (31999, 0, RecordResult::Win)
        );
        assert_eq!(game.plies, 1);
    }

    #[test]
    fn a_declaration_ends_the_game_before_any_search() {
        // Black's king on 5a with ten pieces in the zone (18 points) and 10 pawns in hand: 28.
        let game = play(&quick_config(), "RBGGKSS2/LL7/7NN/9/9/9/9/9/4k4 b 10P 1", 1);
        assert_eq!(game.end, GameEnd::Win(Color::Black, WinReason::Declaration));
        assert!(game.records.is_empty());
        assert_eq!(game.searches, 0);
    }

    #[test]
    fn a_game_that_reaches_the_ply_limit_is_drawn_and_every_record_says_so() {
        let mut config = quick_config();
        config.search.max_plies = 24;
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let game = play(&config, start, 1);
        assert_eq!(game.end, GameEnd::Draw(DrawReason::MaxMoves));
        assert_eq!(game.plies, 24);
        let records = decode(&game);
        assert_eq!(records.len(), 24);
        assert!(records.iter().all(|r| r.result == RecordResult::Draw));
        let plies: Vec<u16> = records.iter().map(|r| r.game_ply).collect();
        assert_eq!(plies, (0..24).collect::<Vec<u16>>());
    }

    #[test]
    fn records_carry_the_result_for_their_side_and_pass_the_filters() {
        let config = GensfenConfig {
            random: RandomMoves {
                count: 4,
                min_ply: 1,
                max_ply: 12,
                multipv: 0,
                multipv_diff: 0,
            },
            filter: RecordFilter::default(),
            ..quick_config()
        };
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let mut decisive = 0;
        for seed in 1..=3 {
            let game = play(&config, start, seed);
            let winner = game.end.winner();
            decisive += usize::from(winner.is_some());
            let records = decode(&game);
            assert!(!records.is_empty());
            for r in &records {
                let side = r.position.side_to_move();
                let expected = match winner {
                    None => RecordResult::Draw,
                    Some(c) if c == side => RecordResult::Win,
                    Some(_) => RecordResult::Loss,
                };
                assert_eq!(r.result, expected);
                assert!(r.game_ply >= 16);
                assert!(!r.position.in_check());
                assert!(!r.position.is_capture(r.best_move) && !r.best_move.is_promotion());
                assert!(r.score.abs() <= 3000);
            }
            let skipped = &game.skipped;
            assert!(skipped.early > 0 && skipped.noisy > 0, "{skipped:?}");
        }
        assert!(decisive > 0);
    }

    #[test]
    fn a_seed_decides_the_game() {
        let mut config = quick_config();
        config.random.count = 3;
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        config.search.max_plies = 40;
        let a = play(&config, start, 11);
        let b = play(&config, start, 11);
        let c = play(&config, start, 12);
        assert_eq!(a.records, b.records);
        assert_ne!(a.records, c.records);
    }

    #[test]
    fn scores_are_written_in_yaneuraou_units() {
        assert_eq!(score_to_record(Score::Cp(-345)), -345);
        assert_eq!(score_to_record(Score::Mate(3)), 31997);
        assert_eq!(score_to_record(Score::Mate(-4)), -31996);
        assert_eq!(score_to_record(Score::Mate(0)), -32000);
        assert_eq!(score_to_record(Score::Cp(40000)), 30999);
    }

    #[test]
    fn random_plies_are_distinct_in_range_and_after_the_opening() {
        let config = GensfenConfig::default();
        for seed in 1..50 {
            let mut rng = Rng::new(seed);
            let plies = choose_random_plies(&config, 9, &mut rng);
            assert_eq!(plies.len(), config.random.count as usize);
            let mut sorted = plies.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), plies.len());
            assert!(plies
                .iter()
                .all(|&p| (9..=config.random.max_ply).contains(&p)));
        }
        // A range smaller than the count gives every ply in it.
        let mut rng = Rng::new(3);
        let mut plies = choose_random_plies(&config, config.random.max_ply - 1, &mut rng);
        plies.sort_unstable();
        assert_eq!(plies, [config.random.max_ply - 1, config.random.max_ply]);
    }
}
