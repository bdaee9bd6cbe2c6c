//! Training records in YaneuraOu's `PackedSfenValue` layout, the field's format for evaluation
//! training data (YaneuraOu's learner, nnue-pytorch's shogi branch, cshogi and others read and
//! write it): the 40-byte record, streaming readers over many files, an appending writer that
//! keeps files in whole records, the split and shuffle of `tokin shuffle`, and the statistics
//! `tokin sfeninfo` prints.
//!
//! `tokin gensfen` (`crate::gensfen`) writes these files; a trainer reads them with [`PsvReader`].

pub mod move16;
pub mod reader;
pub mod record;
pub mod shuffle;
pub mod summary;
pub mod writer;

pub use move16::{from_move16, to_move16, Move16Error};
pub use reader::{PsvReader, ReadCounts, ReadError, RecordLocation};
pub use record::{
    is_mate_score, PackedRecord, RecordError, RecordFault, RecordResult, TrainingRecord,
    MATE_SCORE, MATE_THRESHOLD, RECORD_BYTES,
};
pub use summary::{DataSummary, ResultCounts};
pub use writer::{OpenMode, PsvWriter, WriteError};
