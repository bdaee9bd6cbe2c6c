//! Streaming reader over one or many record files (`PackedSfenValue` files concatenate, so many
//! files are one stream), checking every record and counting what it skipped.
//!
//! [`PsvReader::next_raw`] hands out the 40 bytes unchecked (a trainer may decode on several
//! threads); the iterator decodes each with [`TrainingRecord::decode`]. Either way a file that
//! cannot be opened or read, and a partial record at a file's end, are reported once and reading
//! goes on with the next file.

use super::record::{PackedRecord, RecordError, RecordFault, TrainingRecord, RECORD_BYTES};
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

/// Where a record came from: the file and the record's index in it (0-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLocation {
    pub path: PathBuf,
    pub index: u64,
}

/// What went wrong while reading.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot open {}: {source}", .path.display())]
    Open { path: PathBuf, source: io::Error },
    #[error("reading {} after {records} records: {source}", .path.display())]
    Read {
        path: PathBuf,
        records: u64,
        source: io::Error,
    },
    #[error("{} ends with {bytes} bytes of a partial record after {records} records", .path.display())]
    Truncated {
        path: PathBuf,
        records: u64,
        bytes: usize,
    },
    #[error("{} record {}: {source}", .at.path.display(), .at.index)]
    BadRecord {
        at: RecordLocation,
        source: RecordError,
    },
}

/// Totals of a read so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadCounts {
    /// Files opened.
    pub files: usize,
    /// Files that could not be opened or read to the end.
    pub unreadable_files: usize,
    /// Files that ended in a partial record, and the bytes of those partial records.
    pub truncated_files: usize,
    pub trailing_bytes: u64,
    /// Whole records read (good and bad).
    pub records: u64,
    /// Records that did not decode, by the field at fault (the iterator only).
    pub bad_position: u64,
    pub bad_move: u64,
    pub bad_result: u64,
}

impl ReadCounts {
    pub fn bad(&self) -> u64 {
        self.bad_position + self.bad_move + self.bad_result
    }

    /// Records that decoded.
    pub fn good(&self) -> u64 {
        self.records - self.bad()
    }

    fn count_fault(&mut self, fault: RecordFault) {
        match fault {
            RecordFault::Position => self.bad_position += 1,
            RecordFault::Move => self.bad_move += 1,
            RecordFault::Result => self.bad_result += 1,
        }
    }
}

struct OpenFile {
    path: PathBuf,
    reader: BufReader<File>,
    index: u64,
}

/// Reads the records of `paths` in order.
pub struct PsvReader {
    paths: Vec<PathBuf>,
    next_path: usize,
    current: Option<OpenFile>,
    counts: ReadCounts,
}

/// A read buffer of a few thousand records: large sequential reads.
const BUFFER_BYTES: usize = 1 << 18;

impl PsvReader {
    pub fn new<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) -> PsvReader {
        PsvReader {
            paths: paths
                .into_iter()
                .map(|p| p.as_ref().to_path_buf())
                .collect(),
            next_path: 0,
            current: None,
            counts: ReadCounts::default(),
        }
    }

    pub fn counts(&self) -> &ReadCounts {
        &self.counts
    }

    /// The next record's bytes, unchecked; `None` after the last file.
    pub fn next_raw(&mut self) -> Option<Result<(PackedRecord, RecordLocation), ReadError>> {
        loop {
            if self.current.is_none() {
                let path = self.paths.get(self.next_path)?.clone();
                self.next_path += 1;
                match File::open(&path) {
                    Ok(file) => {
                        self.counts.files += 1;
                        self.current = Some(OpenFile {
                            path,
                            reader: BufReader::with_capacity(BUFFER_BYTES, file),
                            index: 0,
                        });
                    }
                    Err(source) => {
                        self.counts.unreadable_files += 1;
                        return Some(Err(ReadError::Open { path, source }));
                    }
                }
            }
            let file = self.current.as_mut()?;
            let mut buf = [0u8; RECORD_BYTES];
            match read_full(&mut file.reader, &mut buf) {
                Ok(0) => self.current = None,
                Ok(RECORD_BYTES) => {
                    let at = RecordLocation {
                        path: file.path.clone(),
                        index: file.index,
                    };
                    file.index += 1;
                    self.counts.records += 1;
                    return Some(Ok((PackedRecord(buf), at)));
                }
                Ok(bytes) => {
                    let file = self.current.take()?;
                    self.counts.truncated_files += 1;
                    self.counts.trailing_bytes += bytes as u64;
                    return Some(Err(ReadError::Truncated {
                        path: file.path,
                        records: file.index,
                        bytes,
                    }));
                }
                Err(source) => {
                    let file = self.current.take()?;
                    self.counts.unreadable_files += 1;
                    return Some(Err(ReadError::Read {
                        path: file.path,
                        records: file.index,
                        source,
                    }));
                }
            }
        }
    }
}

impl PsvReader {
    /// The next record, checked: its bytes as read (padding included) and their decoding.
    pub fn next_checked(&mut self) -> Option<Result<(PackedRecord, TrainingRecord), ReadError>> {
        Some(match self.next_raw()? {
            Ok((raw, at)) => match TrainingRecord::decode(&raw) {
                Ok(record) => Ok((raw, record)),
                Err(source) => {
                    self.counts.count_fault(source.kind());
                    Err(ReadError::BadRecord { at, source })
                }
            },
            Err(e) => Err(e),
        })
    }
}

impl Iterator for PsvReader {
    type Item = Result<TrainingRecord, ReadError>;

    /// The next record, decoded and checked.
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.next_checked()?.map(|(_, record)| record))
    }
}

/// Fills `buf` unless the stream ends first; returns how many bytes it read.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Position, Variant};
    use crate::psv::record::RecordResult;
    use std::io::Write;

    fn temp_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("tokin-psv-reader-{}-{name}", std::process::id()))
    }

    fn good_record(usi: &str, ply: u16) -> PackedRecord {
        let position = Position::startpos(Variant::Shogi);
        let best_move = position.parse_usi_move(usi).unwrap();
        TrainingRecord {
            position,
            score: 42,
            best_move,
            game_ply: ply,
            result: RecordResult::Win,
        }
        .encode()
        .unwrap()
    }

    #[test]
    fn reads_many_files_and_counts_what_it_skips() {
        let a = temp_path("a.bin");
        let b = temp_path("b.bin");
        let missing = temp_path("missing.bin");
        let mut bad = good_record("7g7f", 3);
        bad.0[38] = 7; // result
        {
            let mut f = File::create(&a).unwrap();
            for r in [good_record("7g7f", 0), bad, good_record("2g2f", 1)] {
                f.write_all(&r.0).unwrap();
            }
            let mut f = File::create(&b).unwrap();
            f.write_all(&good_record("5g5f", 2).0).unwrap();
            f.write_all(&[1, 2, 3]).unwrap(); // a torn last record
        }
        let results: Vec<_> = {
            let mut reader = PsvReader::new([&a, &missing, &b]);
            let results: Vec<_> = reader.by_ref().collect();
            let c = reader.counts().clone();
            assert_eq!(
                c,
                ReadCounts {
                    files: 2,
                    unreadable_files: 1,
                    truncated_files: 1,
                    trailing_bytes: 3,
                    records: 4,
                    bad_position: 0,
                    bad_move: 0,
                    bad_result: 1,
                }
            );
            assert_eq!(c.good(), 3);
            results
        };
        let moves: Vec<String> = results
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|r| r.best_move.to_usi())
            .collect();
        assert_eq!(moves, ["7g7f", "2g2f", "5g5f"]);
        assert!(matches!(
            &results[1],
            Err(ReadError::BadRecord { at, source: RecordError::BadResult(7) }) if at.index == 1
        ));
        assert!(matches!(&results[3], Err(ReadError::Open { .. })));
        assert!(matches!(
            &results[5],
            Err(ReadError::Truncated {
                records: 1,
                bytes: 3,
                ..
            })
        ));
        assert_eq!(results.len(), 6);
        std::fs::remove_file(a).ok();
        std::fs::remove_file(b).ok();
    }
}
