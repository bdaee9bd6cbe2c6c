//! The start positions of self-play games: a text file of opening lines in the format of
//! `scripts/openings.sfen` (which `scripts/match.py` plays too).
//!
//! One opening a line: USI moves from the standard start position (`7g7f 3c3d ...`), or
//! `sfen <board> <side> <hands> [<move number>] [moves <m1> <m2> ...]`. Blank lines and lines
//! starting with `#` are skipped. Each opening is the position after its moves, with the moves in
//! its history (repetitions count from the start).

use crate::core::{Color, Position, PositionError, Variant};
use std::path::Path;

/// The balanced openings of `scripts/openings.sfen`, built into the binary so that `gensfen`
/// runs from any directory.
pub const BUILT_IN: &str = include_str!("../../scripts/openings.sfen");

#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{source_name} line {line}: bad SFEN: {error}")]
    Sfen {
        source_name: String,
        line: usize,
        error: PositionError,
    },
    #[error("{source_name} line {line}: move {index} '{text}' is not legal there")]
    Move {
        source_name: String,
        line: usize,
        index: usize,
        text: String,
    },
    #[error("{source_name} line {line}: a training position needs both kings on the board")]
    NoKing { source_name: String, line: usize },
    #[error("{source_name}: no openings (every line is blank or a comment)")]
    Empty { source_name: String },
}

/// Reads an openings file.
pub fn read_openings(path: &Path) -> Result<Vec<Position>, OpeningsError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Io {
        path: name.clone(),
        source,
    })?;
    parse_openings(&text, &name)
}

/// Parses openings text; `source_name` names it in errors.
pub fn parse_openings(text: &str, source_name: &str) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (mut pos, moves) = match line.strip_prefix("sfen ") {
            Some(rest) => {
                let (sfen, moves) = rest.split_once(" moves ").unwrap_or((rest, ""));
                let pos = Position::from_sfen(sfen, Variant::Shogi).map_err(|error| {
                    OpeningsError::Sfen {
                        source_name: source_name.to_string(),
                        line: i + 1,
                        error,
                    }
                })?;
                (pos, moves)
            }
            None => (Position::startpos(Variant::Shogi), line),
        };
        for (index, text) in moves.split_whitespace().enumerate() {
            let m = pos.parse_usi_move(text).map_err(|_| OpeningsError::Move {
                source_name: source_name.to_string(),
                line: i + 1,
                index: index + 1,
                text: text.to_string(),
            })?;
            pos.do_move(m);
        }
        if Color::ALL.iter().any(|&c| pos.king_square(c).is_none()) {
            return Err(OpeningsError::NoKing {
                source_name: source_name.to_string(),
                line: i + 1,
            });
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty {
            source_name: source_name.to_string(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_openings_parse() {
        let openings = parse_openings(BUILT_IN, "built-in").unwrap();
        assert!(openings.len() >= 30, "{}", openings.len());
        // Each line is played from the start: the first is 1g1f 1c1d 7g7f 3c3d.
        assert_eq!(openings[0].game_ply(), 5);
        assert_eq!(openings[0].history_len(), 4);
    }

    /// scripts/openings-wide.sfen (the fixed-node matches' openings, from scripts/arena/openings.py)
    /// as that script promises: 1000 positions, none twice, none in check, each with a move to
    /// play, between game plies 16 and 40.
    #[test]
    fn the_wide_openings_hold_what_their_script_promises() {
        let text = include_str!("../../scripts/openings-wide.sfen");
        let openings = parse_openings(text, "openings-wide.sfen").unwrap();
        assert_eq!(openings.len(), 1000);
        let mut keys: Vec<u64> = openings.iter().map(|p| p.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 1000, "a position twice");
        for pos in &openings {
            assert!(!pos.in_check(), "{}", pos.to_sfen());
            assert!((16..=40).contains(&pos.game_ply()), "{}", pos.to_sfen());
            let mut moves = crate::core::MoveList::new();
            crate::core::movegen::generate_legal(pos, &mut moves);
            assert!(!moves.is_empty(), "{}", pos.to_sfen());
        }
    }

    #[test]
    fn both_line_forms_and_errors() {
        let text = "# comment\n\n7g7f 3c3d\nsfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n";
        let openings = parse_openings(text, "t").unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[1].to_sfen(), "4k4/4G4/9/9/9/9/9/9/4K4 w - 2");
        let e = parse_openings("7g7f 7g7f\n", "t").unwrap_err();
        assert_eq!(e.to_string(), "t line 1: move 2 '7g7f' is not legal there");
        assert!(matches!(
            parse_openings("sfen 9/9 b - 1\n", "t"),
            Err(OpeningsError::Sfen { line: 1, .. })
        ));
        assert!(matches!(
            parse_openings("sfen 4k4/9/9/9/9/9/9/9/9 b G 1\n", "t"),
            Err(OpeningsError::NoKing { line: 1, .. })
        ));
        assert!(matches!(
            parse_openings("# nothing\n", "t"),
            Err(OpeningsError::Empty { .. })
        ));
    }
}
