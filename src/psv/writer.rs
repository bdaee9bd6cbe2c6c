//! Writing record files in whole records.
//!
//! Each batch goes to the file in one `write` of whole records, straight to the operating system
//! (no user-space buffer to lose), so a killed writer leaves at most a torn last record, which
//! appending later trims. A write that fails (a full disk) is rolled back to the last whole record
//! before the error is returned: what was written before stays readable.

use super::record::{PackedRecord, TrainingRecord, RECORD_BYTES};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// What to do with an existing file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenMode {
    /// The file must not exist yet.
    CreateNew,
    /// Keep the records already there and add to them (a new file is created).
    Append,
    /// Empty an existing file first.
    Overwrite,
}

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{} already exists ({bytes} bytes); refusing to overwrite it", .path.display())]
    Exists { path: PathBuf, bytes: u64 },
    #[error("cannot open {} for writing: {source}", .path.display())]
    Open { path: PathBuf, source: io::Error },
    #[error("{} does not look like a record file ({bytes} bytes, and its last whole record does not decode: {reason}); not appending to it", .path.display())]
    NotRecords {
        path: PathBuf,
        bytes: u64,
        reason: String,
    },
    #[error("writing {} failed: {source}; it holds {records} whole records", .path.display())]
    Write {
        path: PathBuf,
        records: u64,
        source: io::Error,
    },
}

/// An open record file.
#[derive(Debug)]
pub struct PsvWriter {
    file: File,
    path: PathBuf,
    records: u64,
    trimmed_bytes: u64,
    buffer: Vec<u8>,
}

impl PsvWriter {
    /// Opens `path` as `mode` says. Appending to a file that ends in a partial record (a writer
    /// killed mid-write) first cuts that partial record off; a file whose last whole record does
    /// not decode is refused, so a wrong path never gets records glued to something else.
    pub fn open(path: &Path, mode: OpenMode) -> Result<PsvWriter, WriteError> {
        let open_error = |source| WriteError::Open {
            path: path.to_path_buf(),
            source,
        };
        let mut options = OpenOptions::new();
        match mode {
            OpenMode::CreateNew => options.write(true).create_new(true),
            OpenMode::Append => options.read(true).write(true).create(true),
            OpenMode::Overwrite => options.write(true).create(true).truncate(true),
        };
        let mut file = match options.open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
                return Err(WriteError::Exists {
                    path: path.to_path_buf(),
                    bytes,
                });
            }
            Err(e) => return Err(open_error(e)),
        };
        let (records, trimmed_bytes) = if mode == OpenMode::Append {
            let bytes = file.seek(SeekFrom::End(0)).map_err(open_error)?;
            let records = bytes / RECORD_BYTES as u64;
            let trimmed = bytes % RECORD_BYTES as u64;
            if records > 0 {
                check_last_record(&mut file, records).map_err(|reason| WriteError::NotRecords {
                    path: path.to_path_buf(),
                    bytes,
                    reason,
                })?;
            } else if trimmed > 0 {
                return Err(WriteError::NotRecords {
                    path: path.to_path_buf(),
                    bytes,
                    reason: "shorter than one record".into(),
                });
            }
            if trimmed > 0 {
                file.set_len(records * RECORD_BYTES as u64)
                    .map_err(open_error)?;
            }
            file.seek(SeekFrom::Start(records * RECORD_BYTES as u64))
                .map_err(open_error)?;
            (records, trimmed)
        } else {
            (0, 0)
        };
        Ok(PsvWriter {
            file,
            path: path.to_path_buf(),
            records,
            trimmed_bytes,
            buffer: Vec::new(),
        })
    }

    /// Records in the file: those it held when opened plus those written since.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Bytes of a partial last record cut off when the file was opened for appending.
    pub fn trimmed_bytes(&self) -> u64 {
        self.trimmed_bytes
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `records` in one write; on failure the file is cut back to its last whole record.
    pub fn write(&mut self, records: &[PackedRecord]) -> Result<(), WriteError> {
        self.buffer.clear();
        for r in records {
            self.buffer.extend_from_slice(&r.0);
        }
        if let Err(source) = self.file.write_all(&self.buffer) {
            // Part of the batch may have gone out: cut it off so the file ends on a record.
            if let Err(e) = self.file.set_len(self.records * RECORD_BYTES as u64) {
                log::warn!(
                    "{}: cutting back to whole records failed: {e}",
                    self.path.display()
                );
            }
            return Err(WriteError::Write {
                path: self.path.clone(),
                records: self.records,
                source,
            });
        }
        self.records += records.len() as u64;
        Ok(())
    }

    /// Cuts the file back to its first `records` records (no more than it holds), so that they are
    /// written again: a resumed run that must redo an unfinished unit of work.
    pub fn truncate_to(&mut self, records: u64) -> Result<(), WriteError> {
        let records = records.min(self.records);
        let fail = |source| WriteError::Write {
            path: self.path.clone(),
            records: self.records,
            source,
        };
        self.file
            .set_len(records * RECORD_BYTES as u64)
            .map_err(fail)?;
        self.file
            .seek(SeekFrom::Start(records * RECORD_BYTES as u64))
            .map_err(fail)?;
        self.records = records;
        Ok(())
    }

    /// Flushes the data to the disk; returns the number of records in the file.
    pub fn finish(self) -> Result<u64, WriteError> {
        self.file.sync_data().map_err(|source| WriteError::Write {
            path: self.path.clone(),
            records: self.records,
            source,
        })?;
        Ok(self.records)
    }
}

/// Reads the last whole record and says why it is not one, if it is not.
fn check_last_record(file: &mut File, records: u64) -> Result<(), String> {
    let mut raw = PackedRecord([0; RECORD_BYTES]);
    file.seek(SeekFrom::Start((records - 1) * RECORD_BYTES as u64))
        .and_then(|_| file.read_exact(&mut raw.0))
        .map_err(|e| e.to_string())?;
    TrainingRecord::decode(&raw)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Position, Variant};
    use crate::psv::reader::PsvReader;
    use crate::psv::record::RecordResult;

    fn temp_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("tokin-psv-writer-{}-{name}", std::process::id()))
    }

    fn record(ply: u16) -> PackedRecord {
        let position = Position::startpos(Variant::Shogi);
        let best_move = position.parse_usi_move("7g7f").unwrap();
        TrainingRecord {
            position,
            score: 0,
            best_move,
            game_ply: ply,
            result: RecordResult::Draw,
        }
        .encode()
        .unwrap()
    }

    fn plies(path: &Path) -> Vec<u16> {
        PsvReader::new([path])
            .map(|r| r.unwrap().game_ply)
            .collect()
    }

    #[test]
    fn truncating_keeps_the_first_records_and_writing_goes_on_after_them() {
        let path = temp_path("truncate");
        let _ = std::fs::remove_file(&path);
        let mut w = PsvWriter::open(&path, OpenMode::CreateNew).unwrap();
        w.write(&[record(1), record(2), record(3)]).unwrap();
        w.truncate_to(5).unwrap();
        assert_eq!(w.records(), 3, "no more than it holds");
        w.truncate_to(1).unwrap();
        assert_eq!(w.records(), 1);
        w.write(&[record(7)]).unwrap();
        assert_eq!(w.finish().unwrap(), 2);
        assert_eq!(plies(&path), vec![1, 7]);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn create_new_refuses_an_existing_file_and_append_adds_to_it() {
        let path = temp_path("append.bin");
        std::fs::remove_file(&path).ok();
        let mut w = PsvWriter::open(&path, OpenMode::CreateNew).unwrap();
        w.write(&[record(1), record(2)]).unwrap();
        assert_eq!(w.finish().unwrap(), 2);
        assert!(matches!(
            PsvWriter::open(&path, OpenMode::CreateNew),
            Err(WriteError::Exists { bytes: 80, .. })
        ));
        let mut w = PsvWriter::open(&path, OpenMode::Append).unwrap();
        assert_eq!(w.records(), 2);
        w.write(&[record(3)]).unwrap();
        assert_eq!(w.finish().unwrap(), 3);
        assert_eq!(plies(&path), [1, 2, 3]);
        let w = PsvWriter::open(&path, OpenMode::Overwrite).unwrap();
        assert_eq!(w.finish().unwrap(), 0);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
        std::fs::remove_file(path).ok();
    }

    #[test]
    fn append_trims_a_torn_last_record_and_refuses_other_files() {
        let path = temp_path("torn.bin");
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&record(1).0);
        bytes.extend_from_slice(&record(2).0[..17]);
        std::fs::write(&path, &bytes).unwrap();
        let mut w = PsvWriter::open(&path, OpenMode::Append).unwrap();
        assert_eq!((w.records(), w.trimmed_bytes()), (1, 17));
        w.write(&[record(5)]).unwrap();
        w.finish().unwrap();
        assert_eq!(plies(&path), [1, 5]);

        std::fs::write(
            &path,
            "not records, just a text file that happens to be longer than 40 bytes\n",
        )
        .unwrap();
        assert!(matches!(
            PsvWriter::open(&path, OpenMode::Append),
            Err(WriteError::NotRecords { bytes: 70, .. })
        ));
        // Nothing was cut off the text file.
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 70);
        std::fs::remove_file(path).ok();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_is_an_error_that_names_the_records_kept() {
        // /dev/full answers every write with ENOSPC.
        let mut w = PsvWriter::open(Path::new("/dev/full"), OpenMode::Overwrite).unwrap();
        let e = w.write(&[record(1)]).unwrap_err();
        assert!(
            matches!(&e, WriteError::Write { records: 0, source, .. }
                if source.raw_os_error() == Some(libc::ENOSPC)),
            "{e}"
        );
        assert_eq!(w.records(), 0);
    }
}
