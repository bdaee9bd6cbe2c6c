//! Statistics of a set of records, to check a data set before training on it: results, scores
//! (and how well they predict the results), game plies, kinds of best move. `tokin sfeninfo`
//! prints them.

use super::record::{is_mate_score, RecordResult, TrainingRecord};
use crate::core::Color;
use std::collections::BTreeMap;

/// Counts of results from the side to move's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResultCounts {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl ResultCounts {
    fn add(&mut self, r: RecordResult) {
        match r {
            RecordResult::Win => self.wins += 1,
            RecordResult::Draw => self.draws += 1,
            RecordResult::Loss => self.losses += 1,
        }
    }

    pub fn total(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The side to move's score: a win 1, a draw 1/2 (0 when empty).
    pub fn expected(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.total().max(1) as f64
    }
}

/// Statistics of the records added so far.
#[derive(Clone, Debug, PartialEq)]
pub struct DataSummary {
    /// Width of a score histogram bucket in score units, and the score beyond which scores share
    /// one bucket per side.
    pub score_bucket: i32,
    pub score_clamp: i32,
    /// Width of a game-ply histogram bucket.
    pub ply_bucket: u32,

    pub records: u64,
    pub results: ResultCounts,
    pub black_to_move: u64,
    pub in_check: u64,
    pub captures: u64,
    pub promotions: u64,
    pub drops: u64,
    /// Records with a mate score (|score| >= `MATE_THRESHOLD`), not in the score moments.
    pub mate_scores: u64,
    pub score_sum: f64,
    pub score_square_sum: f64,
    pub score_min: i16,
    pub score_max: i16,
    /// By bucket (`floor(score / score_bucket)`, clamped), the results there; mate scores too.
    pub by_score: BTreeMap<i32, ResultCounts>,
    pub ply_min: u16,
    pub ply_max: u16,
    pub ply_sum: u64,
    /// By bucket (`ply / ply_bucket`), the number of records.
    pub by_ply: BTreeMap<u32, u64>,
}

impl DataSummary {
    pub fn new(score_bucket: i32, score_clamp: i32, ply_bucket: u32) -> DataSummary {
        DataSummary {
            score_bucket: score_bucket.max(1),
            score_clamp: score_clamp.max(score_bucket.max(1)),
            ply_bucket: ply_bucket.max(1),
            records: 0,
            results: ResultCounts::default(),
            black_to_move: 0,
            in_check: 0,
            captures: 0,
            promotions: 0,
            drops: 0,
            mate_scores: 0,
            score_sum: 0.0,
            score_square_sum: 0.0,
            score_min: i16::MAX,
            score_max: i16::MIN,
            by_score: BTreeMap::new(),
            ply_min: u16::MAX,
            ply_max: 0,
            ply_sum: 0,
            by_ply: BTreeMap::new(),
        }
    }

    /// The bucket of a score: `floor(score / width)`, with everything at or beyond the clamp on
    /// either side in one bucket.
    pub fn score_bucket_of(&self, score: i16) -> i32 {
        let w = self.score_bucket;
        let limit = self.score_clamp / w;
        i32::from(score).div_euclid(w).clamp(-limit - 1, limit)
    }

    pub fn add(&mut self, r: &TrainingRecord) {
        self.records += 1;
        self.results.add(r.result);
        let pos = &r.position;
        if pos.side_to_move() == Color::Black {
            self.black_to_move += 1;
        }
        self.in_check += u64::from(pos.in_check());
        self.captures += u64::from(pos.is_capture(r.best_move));
        self.promotions += u64::from(r.best_move.is_promotion());
        self.drops += u64::from(r.best_move.is_drop());
        if is_mate_score(r.score) {
            self.mate_scores += 1;
        } else {
            let s = f64::from(r.score);
            self.score_sum += s;
            self.score_square_sum += s * s;
        }
        self.score_min = self.score_min.min(r.score);
        self.score_max = self.score_max.max(r.score);
        let bucket = self.score_bucket_of(r.score);
        self.by_score.entry(bucket).or_default().add(r.result);
        self.ply_min = self.ply_min.min(r.game_ply);
        self.ply_max = self.ply_max.max(r.game_ply);
        self.ply_sum += u64::from(r.game_ply);
        *self
            .by_ply
            .entry(u32::from(r.game_ply) / self.ply_bucket)
            .or_default() += 1;
    }

    /// Mean and standard deviation of the scores that are not mate scores.
    pub fn score_mean_and_deviation(&self) -> (f64, f64) {
        let n = (self.records - self.mate_scores).max(1) as f64;
        let mean = self.score_sum / n;
        let variance = (self.score_square_sum / n - mean * mean).max(0.0);
        (mean, variance.sqrt())
    }

    pub fn ply_mean(&self) -> f64 {
        self.ply_sum as f64 / self.records.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(score: i16, ply: u16, result: RecordResult, sfen: &str, usi: &str) -> TrainingRecord {
        crate::psv::record::tests::record(sfen, usi, score, ply, result)
    }

    #[test]
    fn counts_results_scores_plies_and_moves() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let mut s = DataSummary::new(100, 300, 10);
        s.add(&record(-150, 5, RecordResult::Loss, start, "7g7f"));
        s.add(&record(50, 15, RecordResult::Win, start, "7g7f"));
        s.add(&record(99, 16, RecordResult::Draw, start, "2g2f"));
        s.add(&record(
            31990,
            40,
            RecordResult::Win,
            "4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1",
            "G*5b",
        ));
        // White to move after 7g7f.
        s.add(&record(
            5000,
            41,
            RecordResult::Loss,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
            "8c8d",
        ));
        assert_eq!(s.records, 5);
        assert_eq!(
            s.results,
            ResultCounts {
                wins: 2,
                draws: 1,
                losses: 2
            }
        );
        assert_eq!(s.black_to_move, 4);
        assert_eq!((s.drops, s.captures, s.promotions), (1, 0, 0));
        assert_eq!(s.mate_scores, 1);
        let (mean, dev) = s.score_mean_and_deviation();
        assert!((mean - (5000.0 + 99.0 + 50.0 - 150.0) / 4.0).abs() < 1e-9);
        assert!(dev > 0.0);
        assert_eq!((s.score_min, s.score_max), (-150, 31990));
        // Buckets of 100 clamped at 300: -150 -> -2, 50 and 99 -> 0, 5000 and 31990 -> 3.
        let buckets: Vec<(i32, u64)> = s.by_score.iter().map(|(&b, c)| (b, c.total())).collect();
        assert_eq!(buckets, [(-2, 1), (0, 2), (3, 2)]);
        assert_eq!(s.score_bucket_of(-301), -4);
        assert_eq!(s.score_bucket_of(-300), -3);
        assert_eq!(s.by_score[&0].expected(), 0.75);
        let plies: Vec<(u32, u64)> = s.by_ply.iter().map(|(&b, &n)| (b, n)).collect();
        assert_eq!(plies, [(0, 1), (1, 2), (4, 2)]);
        assert_eq!((s.ply_min, s.ply_max), (5, 41));
    }
}
