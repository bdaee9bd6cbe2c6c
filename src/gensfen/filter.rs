//! Which searched positions become records. The filters the field uses, each settable:
//!
//! - early plies: positions before `min_ply` (plies from the start position, the records'
//!   `gamePly`) are mostly the openings again (YaneuraOu's `write_minply`, default 16);
//! - in check: the evaluation of a position in check says little (an evasion decides it);
//! - noisy best move: a capture or promotion as the search's move means the static picture is
//!   about to change, so the position's score is not the evaluation's to learn (the quiet-position
//!   filter of nnue-pytorch's data loaders and Stockfish's trainer);
//! - extreme scores: beyond `eval_limit` the game is decided and the score saturates the
//!   training target (YaneuraOu's `eval_limit`, default 3000, where its gensfen ends the game;
//!   ours plays on to the real end and only skips the record).

use crate::core::{Move, Position};

/// Why a position was not written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    Early,
    InCheck,
    Noisy,
    Score,
}

/// The settings of the filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordFilter {
    /// Positions with `gamePly` below this are skipped.
    pub min_ply: u32,
    pub skip_in_check: bool,
    /// Skip positions whose best move is a capture or a promotion.
    pub skip_noisy: bool,
    /// Skip positions whose |score| is above this.
    pub eval_limit: i32,
}

impl Default for RecordFilter {
    fn default() -> RecordFilter {
        RecordFilter {
            min_ply: 16,
            skip_in_check: true,
            skip_noisy: true,
            eval_limit: 3000,
        }
    }
}

impl RecordFilter {
    /// Whether the position, searched to `best` with `score` (side to move's view), is written;
    /// the first filter that refuses it otherwise, in the order of the module doc.
    pub fn check(&self, pos: &Position, best: Move, score: i32) -> Result<(), Skip> {
        if pos.game_ply().saturating_sub(1) < self.min_ply {
            return Err(Skip::Early);
        }
        if self.skip_in_check && pos.in_check() {
            return Err(Skip::InCheck);
        }
        if self.skip_noisy && (pos.is_capture(best) || best.is_promotion()) {
            return Err(Skip::Noisy);
        }
        if score.abs() > self.eval_limit {
            return Err(Skip::Score);
        }
        Ok(())
    }
}

/// Positions skipped, by reason; `before_random` counts records dropped because a random move
/// followed them (their game's result no longer follows from their play).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkipCounts {
    pub early: u64,
    pub in_check: u64,
    pub noisy: u64,
    pub score: u64,
    pub before_random: u64,
}

impl SkipCounts {
    pub fn count(&mut self, skip: Skip) {
        match skip {
            Skip::Early => self.early += 1,
            Skip::InCheck => self.in_check += 1,
            Skip::Noisy => self.noisy += 1,
            Skip::Score => self.score += 1,
        }
    }

    pub fn add(&mut self, other: &SkipCounts) {
        self.early += other.early;
        self.in_check += other.in_check;
        self.noisy += other.noisy;
        self.score += other.score;
        self.before_random += other.before_random;
    }

    pub fn total(&self) -> u64 {
        self.early + self.in_check + self.noisy + self.score + self.before_random
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen, Variant::Shogi).unwrap()
    }

    #[test]
    fn each_filter_refuses_what_it_names_and_can_be_turned_off() {
        let f = RecordFilter::default();
        // Move 17 = gamePly 16: the first ply written by default.
        let quiet = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 17");
        let m = quiet.parse_usi_move("8c8d").unwrap();
        assert_eq!(f.check(&quiet, m, 100), Ok(()));
        assert_eq!(f.check(&quiet, m, 3000), Ok(()));
        assert_eq!(f.check(&quiet, m, -3001), Err(Skip::Score));
        let early = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 16");
        assert_eq!(f.check(&early, m, 0), Err(Skip::Early));
        // Bishop takes bishop, with promotion or without: noisy.
        let open = pos("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 20");
        for usi in ["8h2b+", "8h2b"] {
            let capture = open.parse_usi_move(usi).unwrap();
            assert_eq!(f.check(&open, capture, 0), Err(Skip::Noisy));
        }
        let keep_noisy = RecordFilter {
            skip_noisy: false,
            ..f
        };
        assert_eq!(
            keep_noisy.check(&open, open.parse_usi_move("8h2b+").unwrap(), 0),
            Ok(())
        );
        // White to move in check from Black's rook on 5e.
        let checked = pos("4k4/9/9/9/4R4/9/9/9/4K4 w 2b4g4s4n4l18pr 30");
        assert!(checked.in_check());
        let evasion = checked.parse_usi_move("5a4a").unwrap();
        assert_eq!(f.check(&checked, evasion, 0), Err(Skip::InCheck));
        let keep_checks = RecordFilter {
            skip_in_check: false,
            ..f
        };
        assert_eq!(keep_checks.check(&checked, evasion, 0), Ok(()));
    }
}
