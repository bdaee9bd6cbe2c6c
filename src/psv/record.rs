//! One training record in YaneuraOu's `PackedSfenValue` layout: 40 bytes, little-endian.
//!
//! ```text
//! offset  size  field
//!  0      32    packed SFEN (crate::core::packed_sfen)
//! 32       2    score: i16, the search's score from the side to move's view
//! 34       2    move: u16, the search's best move as a Move16 (super::move16)
//! 36       2    gamePly: u16, plies played since the game's start position (0 there)
//! 38       1    game_result: i8, the game's result for the side to move: 1 win, 0 draw, -1 loss
//! 39       1    padding (written 0, ignored when read)
//! ```
//! Facts from YaneuraOu's `Learner::PackedSfenValue` (learn.h) and its `gensfen`, which writes
//! `gamePly` as the ply counter of its game loop (0 at the start position) and `game_result` from
//! the side to move's view; cshogi's `PackedSfenValue` numpy dtype and nnue-pytorch's shogi loader
//! (`outcome = (game_result + 1) / 2` for the side to move) read the same fields.

use super::move16::{from_move16, to_move16, Move16Error};
use crate::core::packed_sfen::{PackedSfen, PackedSfenError, PACKED_SFEN_BYTES};
use crate::core::{Move, Position};

/// Bytes of one record.
pub const RECORD_BYTES: usize = 40;

/// YaneuraOu's `VALUE_MATE`: a score of mate in `n` plies is written `MATE_SCORE - n`.
pub const MATE_SCORE: i16 = 32000;

/// Scores at or beyond this (either sign) are mate scores (mate within 1000 plies).
pub const MATE_THRESHOLD: i16 = MATE_SCORE - 1000;

pub fn is_mate_score(score: i16) -> bool {
    score.unsigned_abs() >= MATE_THRESHOLD.unsigned_abs()
}

/// One record's bytes, unchecked.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedRecord(pub [u8; RECORD_BYTES]);

const _: () = assert!(std::mem::size_of::<PackedRecord>() == RECORD_BYTES);

impl std::fmt::Debug for PackedRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PackedRecord {{ sfen: {:?}, score: {}, move: {:#06x}, ply: {}, result: {} }}",
            self.packed_sfen(),
            self.score(),
            self.move16(),
            self.game_ply(),
            self.game_result()
        )
    }
}

impl PackedRecord {
    pub fn packed_sfen(&self) -> PackedSfen {
        let mut bytes = [0u8; PACKED_SFEN_BYTES];
        bytes.copy_from_slice(&self.0[..PACKED_SFEN_BYTES]);
        PackedSfen(bytes)
    }

    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[32], self.0[33]])
    }

    pub fn move16(&self) -> u16 {
        u16::from_le_bytes([self.0[34], self.0[35]])
    }

    pub fn game_ply(&self) -> u16 {
        u16::from_le_bytes([self.0[36], self.0[37]])
    }

    pub fn game_result(&self) -> i8 {
        self.0[38] as i8
    }

    /// Writes the fields; the padding byte is 0.
    pub fn from_fields(
        sfen: PackedSfen,
        score: i16,
        move16: u16,
        game_ply: u16,
        result: RecordResult,
    ) -> PackedRecord {
        let mut b = [0u8; RECORD_BYTES];
        b[..PACKED_SFEN_BYTES].copy_from_slice(&sfen.0);
        b[32..34].copy_from_slice(&score.to_le_bytes());
        b[34..36].copy_from_slice(&move16.to_le_bytes());
        b[36..38].copy_from_slice(&game_ply.to_le_bytes());
        b[38] = result.to_i8() as u8;
        PackedRecord(b)
    }
}

/// The game's result from the view of the side to move in the record's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    Loss,
    Draw,
    Win,
}

impl RecordResult {
    pub const fn to_i8(self) -> i8 {
        match self {
            RecordResult::Loss => -1,
            RecordResult::Draw => 0,
            RecordResult::Win => 1,
        }
    }

    pub const fn from_i8(value: i8) -> Option<RecordResult> {
        match value {
            -1 => Some(RecordResult::Loss),
            0 => Some(RecordResult::Draw),
            1 => Some(RecordResult::Win),
            _ => None,
        }
    }

    /// The same game seen from the other side.
    pub const fn flip(self) -> RecordResult {
        match self {
            RecordResult::Loss => RecordResult::Win,
            RecordResult::Draw => RecordResult::Draw,
            RecordResult::Win => RecordResult::Loss,
        }
    }
}

/// Why 40 bytes are not a good record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("bad position: {0}")]
    Position(#[from] PackedSfenError),
    #[error("bad move: {0}")]
    Move(#[from] Move16Error),
    #[error("move {usi} ({word:#06x}) is not legal in {sfen}")]
    IllegalMove {
        word: u16,
        usi: String,
        sfen: String,
    },
    #[error("game result {0} is none of 1 (win), 0 (draw), -1 (loss)")]
    BadResult(i8),
}

impl RecordError {
    /// A short name of the kind of fault, for counts.
    pub fn kind(&self) -> RecordFault {
        match self {
            RecordError::Position(_) => RecordFault::Position,
            RecordError::Move(_) | RecordError::IllegalMove { .. } => RecordFault::Move,
            RecordError::BadResult(_) => RecordFault::Result,
        }
    }
}

/// Which field made a record bad.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordFault {
    Position,
    Move,
    Result,
}

/// A record decoded and checked: a legal position, a legal move in it, a known result.
#[derive(Clone, Debug)]
pub struct TrainingRecord {
    /// The position; its SFEN move number is `game_ply + 1`.
    pub position: Position,
    /// The search's score, side to move's view (mate in `n` plies: `MATE_SCORE - n`).
    pub score: i16,
    pub best_move: Move,
    /// Plies since the game's start position.
    pub game_ply: u16,
    pub result: RecordResult,
}

impl TrainingRecord {
    /// Decodes and checks every field but the padding.
    pub fn decode(raw: &PackedRecord) -> Result<TrainingRecord, RecordError> {
        let result = RecordResult::from_i8(raw.game_result())
            .ok_or(RecordError::BadResult(raw.game_result()))?;
        let game_ply = raw.game_ply();
        let position = raw.packed_sfen().to_position(u32::from(game_ply) + 1)?;
        let word = raw.move16();
        let best_move = from_move16(word)?;
        if !position.is_legal(best_move) {
            return Err(RecordError::IllegalMove {
                word,
                usi: best_move.to_usi(),
                sfen: position.to_sfen(),
            });
        }
        Ok(TrainingRecord {
            position,
            score: raw.score(),
            best_move,
            game_ply,
            result,
        })
    }

    /// Packs a record; fails only for positions the format cannot hold (not standard shogi, a
    /// king missing).
    pub fn encode(&self) -> Result<PackedRecord, PackedSfenError> {
        Ok(PackedRecord::from_fields(
            PackedSfen::from_position(&self.position)?,
            self.score,
            to_move16(self.best_move),
            self.game_ply,
            self.result,
        ))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::Variant;

    /// A record of `sfen` with best move `usi` (both must be good), for tests.
    pub(crate) fn record(
        sfen: &str,
        usi: &str,
        score: i16,
        ply: u16,
        result: RecordResult,
    ) -> TrainingRecord {
        let position = Position::from_sfen(sfen, Variant::Shogi).unwrap();
        let best_move = position.parse_usi_move(usi).unwrap();
        TrainingRecord {
            position,
            score,
            best_move,
            game_ply: ply,
            result,
        }
    }

    #[test]
    fn fields_sit_at_their_offsets_little_endian() {
        let r = record(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "7g7f",
            -300,
            0x1234,
            RecordResult::Loss,
        );
        let raw = r.encode().unwrap();
        assert_eq!(&raw.0[32..34], &(-300i16).to_le_bytes());
        assert_eq!(&raw.0[34..36], &[0x3b, 0x1e]);
        assert_eq!(&raw.0[36..38], &[0x34, 0x12]);
        assert_eq!(raw.0[38], 0xff);
        assert_eq!(raw.0[39], 0);
        let back = TrainingRecord::decode(&raw).unwrap();
        assert_eq!(
            back.position.to_sfen(),
            r.position.to_sfen().replace(" 1", " 4661")
        );
        assert_eq!(
            (back.score, back.best_move, back.game_ply, back.result),
            (-300, r.best_move, 0x1234, RecordResult::Loss)
        );
    }

    #[test]
    fn bad_fields_are_reported() {
        let r = record(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "2g2f",
            0,
            0,
            RecordResult::Draw,
        );
        let good = r.encode().unwrap();
        let mut raw = good;
        raw.0[38] = 2;
        assert_eq!(
            TrainingRecord::decode(&raw).unwrap_err(),
            RecordError::BadResult(2)
        );
        let mut raw = good;
        raw.0[34..36].copy_from_slice(&0u16.to_le_bytes());
        assert_eq!(
            TrainingRecord::decode(&raw).unwrap_err(),
            RecordError::Move(Move16Error::NoMove)
        );
        // 7g7e: a well-formed word, not a legal move.
        let mut raw = good;
        raw.0[34..36].copy_from_slice(&(58u16 | 60 << 7).to_le_bytes());
        assert!(matches!(
            TrainingRecord::decode(&raw).unwrap_err(),
            RecordError::IllegalMove { ref usi, .. } if usi == "7g7e"
        ));
        let mut raw = good;
        raw.0[0] |= 0xfe; // Black's king field becomes 127
        assert!(matches!(
            TrainingRecord::decode(&raw).unwrap_err(),
            RecordError::Position(PackedSfenError::BadKingSquare { .. })
        ));
        // The padding is ignored.
        let mut raw = good;
        raw.0[39] = 0x5a;
        assert!(TrainingRecord::decode(&raw).is_ok());
    }

    #[test]
    fn results_map_to_the_field_values() {
        for (r, v) in [
            (RecordResult::Loss, -1),
            (RecordResult::Draw, 0),
            (RecordResult::Win, 1),
        ] {
            assert_eq!(r.to_i8(), v);
            assert_eq!(RecordResult::from_i8(v), Some(r));
            assert_eq!(r.flip().flip(), r);
        }
        assert_eq!(RecordResult::Win.flip(), RecordResult::Loss);
        assert_eq!(RecordResult::from_i8(-2), None);
    }
}
