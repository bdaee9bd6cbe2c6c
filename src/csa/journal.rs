//! The transcript: every line the server sent (`<`), every line we sent (`>`, the password hidden)
//! and our notes (`#`), timestamped, into the session log (`--log`) and, from a game's summary to
//! its end, into that game's own log beside its record. A lost game can be understood from it.

use super::record::log_time;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub struct Journal {
    session: Option<File>,
    game: Option<File>,
    /// Lines since `BEGIN Game_Summary`, kept until the game id names the game's log.
    pending: Option<Vec<String>>,
    dir: PathBuf,
}

/// A game id as a file name: letters, digits and `+ - _ .` kept, anything else `_`.
pub fn file_stem(game_id: &str) -> String {
    let stem: String = game_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "+-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    // Never a hidden or empty name.
    format!("game-{}", stem.trim_start_matches('.'))
        .trim_end_matches('.')
        .to_string()
}

/// `dir/stem.ext`, or `dir/stem-2.ext` ... when that exists (a resumed game keeps its id).
pub fn unused_path(dir: &Path, stem: &str, ext: &str) -> PathBuf {
    let first = dir.join(format!("{stem}.{ext}"));
    if !first.exists() {
        return first;
    }
    (2..)
        .map(|n| dir.join(format!("{stem}-{n}.{ext}")))
        .find(|p| !p.exists())
        .expect("some suffix is free")
}

impl Journal {
    /// A journal writing games' logs under `dir` and, with `session_log`, everything there
    /// (appended).
    pub fn open(session_log: Option<&Path>, dir: &Path) -> io::Result<Journal> {
        let session = match session_log {
            Some(path) => Some(OpenOptions::new().create(true).append(true).open(path)?),
            None => None,
        };
        Ok(Journal {
            session,
            game: None,
            pending: None,
            dir: dir.to_path_buf(),
        })
    }

    fn write(&mut self, line: String) {
        if let Some(f) = &mut self.session {
            if let Err(e) = writeln!(f, "{line}") {
                log::warn!("session log: {e}");
            }
        }
        if let Some(f) = &mut self.game {
            if let Err(e) = writeln!(f, "{line}") {
                log::warn!("game log: {e}");
            }
        } else if let Some(p) = &mut self.pending {
            p.push(line);
        }
    }

    pub fn received(&mut self, text: &str) {
        if text.trim() == "BEGIN Game_Summary" && self.game.is_none() {
            self.pending = Some(Vec::new());
        }
        self.write(format!("{} < {text}", log_time(SystemTime::now())));
    }

    /// A line we sent, as it may be shown (the caller hides the password).
    pub fn sent(&mut self, shown: &str) {
        self.write(format!("{} > {shown}", log_time(SystemTime::now())));
    }

    pub fn note(&mut self, text: &str) {
        self.write(format!("{} # {text}", log_time(SystemTime::now())));
    }

    /// The summary being read is for `game_id`: its log starts (with the lines so far).
    pub fn open_game(&mut self, game_id: &str) -> Option<PathBuf> {
        if let Some(mut f) = self.game.take() {
            let _ = f.flush();
        }
        let path = unused_path(&self.dir, &file_stem(game_id), "log");
        match File::create(&path) {
            Ok(mut f) => {
                for line in self.pending.take().unwrap_or_default() {
                    let _ = writeln!(f, "{line}");
                }
                self.game = Some(f);
                Some(path)
            }
            Err(e) => {
                log::warn!("cannot write the game log {}: {e}", path.display());
                self.pending = None;
                None
            }
        }
    }

    pub fn close_game(&mut self) {
        if let Some(mut f) = self.game.take() {
            let _ = f.flush();
        }
        self.pending = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_make_safe_file_names() {
        assert_eq!(
            file_stem("wdoor+floodgate-300-10F+a+b+20261201120000"),
            "game-wdoor+floodgate-300-10F+a+b+20261201120000"
        );
        assert_eq!(file_stem("../x/y"), "game-_x_y");
        assert_eq!(file_stem("a:b*c?"), "game-a_b_c_");
        assert_eq!(file_stem(""), "game-");
    }
}
