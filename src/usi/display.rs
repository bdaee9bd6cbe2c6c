//! The `d` debug command: the position as text lines (board, hands, SFEN, key, checkers).

use crate::core::position::Position;
use crate::core::{Color, Square};

/// Lines describing `pos`: a board diagram (files high to low left to right as a player reads it,
/// SFEN letters, `+` for promoted, lowercase for White, `.` for empty), hands, side, SFEN, key, checkers.
pub fn display_lines(pos: &Position) -> Vec<String> {
    let variant = pos.variant();
    let (files, ranks) = (variant.files(), variant.ranks());
    let mut lines = Vec::with_capacity(ranks as usize + 8);
    let mut header = String::new();
    for f in (0..files).rev() {
        header.push_str(&format!("  {}", f + 1));
    }
    lines.push(header);
    for r in 0..ranks {
        let mut row = String::new();
        for f in (0..files).rev() {
            let cell = match pos.piece_on(Square::new(f, r)) {
                Some(p) => p.to_sfen(),
                None => ".".to_string(),
            };
            row.push_str(&format!("{cell:>3}"));
        }
        row.push_str(&format!("  {}", (b'a' + r) as char));
        lines.push(row);
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
        assert_eq!(lines[0], "  9  8  7  6  5  4  3  2  1");
        assert_eq!(lines[1], "  l  n  s  g  k  g  s  n  l  a");
        assert_eq!(lines[8], "  .  B  .  .  .  .  .  R  .  h");
        assert!(lines.contains(&"hand black: -".to_string()));
        assert!(lines.contains(&format!("sfen: {}", Variant::Shogi.startpos_sfen())));
        assert!(lines.contains(&"checkers: none".to_string()));
        assert!(lines.iter().all(|l| l.is_ascii()));
        let heian8 = display_lines(&Position::startpos(Variant::Heian8));
        assert_eq!(heian8[0], "  8  7  6  5  4  3  2  1");
    }
}
