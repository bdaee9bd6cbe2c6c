//! The `d` debug command: the position as text lines (board, hands, SFEN, key, checkers).

use crate::core::position::Position;
use crate::core::{Color, Square};

/// Lines describing `pos`: a board diagram (files high to low left to right as a player reads it,
/// SFEN letters, `+` for promoted, lowercase for White, `.` for empty), hands, side, SFEN, key, checkers.
pub fn display_lines(pos: &Position) -> Vec<String> {
    let variant = pos.variant();
    let (files, ranks) = (variant.files(), variant.ranks());
    let mut lines = Vec::with_capacity(ranks as usize + 8);
    // Tokens joined by single spaces, as every line on stdout is (a promoted piece's `+` widens
    // its cell, so such a row reads one character off).
    let header: Vec<String> = (1..=files).rev().map(|f| f.to_string()).collect();
    lines.push(header.join(" "));
    for r in 0..ranks {
        let mut cells: Vec<String> = (0..files)
            .rev()
            .map(|f| match pos.piece_on(Square::new(f, r)) {
                Some(p) => p.to_sfen(),
                None => ".".to_string(),
            })
            .collect();
        cells.push(((b'a' + r) as char).to_string());
        lines.push(cells.join(" "));
    }
    lines.push(format!("hand black: {:?}", pos.hand(Color::Black)));
    lines.push(format!("hand white: {:?}", pos.hand(Color::White)));
    lines.push(format!(
        "side to move: {} ({})",
        match pos.side_to_move() {
            Color::Black => "black",
            Color::White => "white",
        },
        variant
    ));
    lines.push(format!("sfen: {}", pos.to_sfen()));
    lines.push(format!("key: {:016x}", pos.key()));
    let checkers: Vec<String> = pos.checkers().iter().map(|s| s.to_string()).collect();
    lines.push(format!(
        "checkers: {}",
        if checkers.is_empty() {
            "none".to_string()
        } else {
            checkers.join(" ")
        }
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;

    #[test]
    fn startpos_diagram() {
        let pos = Position::startpos(Variant::Shogi);
        let lines = display_lines(&pos);
        assert_eq!(lines[0], "9 8 7 6 5 4 3 2 1");
        assert_eq!(lines[1], "l n s g k g s n l a");
        assert_eq!(lines[8], ". B . . . . . R . h");
        assert!(lines.contains(&"hand black: -".to_string()));
        assert!(lines.contains(&format!("sfen: {}", Variant::Shogi.startpos_sfen())));
        assert!(lines.contains(&"checkers: none".to_string()));
        assert!(lines.iter().all(|l| l.is_ascii()));
        let heian8 = display_lines(&Position::startpos(Variant::Heian8));
        assert_eq!(heian8[0], "8 7 6 5 4 3 2 1");
        let promoted = Position::from_sfen(
            "lnsgk2nl/1r4gs1/p1pppp1pp/6p2/7P1/2P6/PP1PPPP1P/1+bG4R1/LN2KGSNL b Sp 1",
            Variant::Shogi,
        )
        .expect("valid sfen");
        let lines = display_lines(&promoted);
        assert_eq!(lines[8], ". +b G . . . . R . h");
        // One space between tokens on every line, as on all of stdout.
        assert!(lines
            .iter()
            .all(|l| !l.contains("  ") && !l.starts_with(' ') && !l.ends_with(' ')));
    }
}
