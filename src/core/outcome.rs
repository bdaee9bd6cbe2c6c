//! Whether a game is over, and why: the results of every variant in one place.
//!
//! The search needs the cheap parts of this in its hot path ([`bare_king_loser`]); a game driver
//! (USI `gameover` handling, self-play, match scripts) asks [`outcome`] after every move.
//!
//! Order of the tests, and why:
//! 1. **Bare king / king captured** (variants where `Variant::bare_king_loses`, i.e. Heian): a side
//!    whose king is gone, or that has nothing left but its king, has lost. This is a property of
//!    the board, so it is tested first: the move that created it ended the game, whatever else is
//!    true of the position that follows (the opponent cannot "bare back" after the game is over).
//!    Both sides bare (only reachable from a set-up position, e.g. king against king) is a draw.
//!    In legal play the king is never captured (a move that leaves the own king attacked is
//!    illegal, so the capture of the king takes the form of checkmate); a Heian position without
//!    a king can only be set up, and it counts as that king captured.
//! 2. **No legal move**: the side to move loses, in check (checkmate) or not. In modern shogi the
//!    latter cannot happen without a position set up for it; in Heian it can (a lone king boxed in
//!    by its own blocked pawns), and the seed rules make it a loss like modern shogi, not a draw.
//! 3. **Sennichite** (`Position::sennichite`): the fourth occurrence of the same position (board,
//!    hands, side to move) is a draw, or a loss for the side that gave check with every move of the
//!    cycle. It comes after the first two because a repetition cycle has no captures and no moves
//!    out of a finished game.
//! 4. **Maximum game length** (`max_moves`, 0 = none): a draw once more moves were played.
//! 5. **Entering-king declaration** (modern shogi only, under `rule`): the side to move may declare
//!    and win; a game driver counts that as a win for it, as a USI engine answers `bestmove win`.

use super::movegen::legal_moves;
use super::position::{EnteringKingRule, GameResult, Position};
use super::types::{Color, PieceKind};

/// A finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The colour that won, and how.
    Win(Color, WinReason),
    Draw(DrawReason),
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(color, _) => Some(color),
            Outcome::Draw(_) => None,
        }
    }
}

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser is in check and has no legal move.
    Checkmate,
    /// The loser is not in check and has no legal move (a loss in every variant Tokin plays).
    NoLegalMove,
    /// Heian: the loser has nothing left but its king.
    BareKing,
    /// Heian: the loser's king is not on the board (set-up positions only; see the module doc).
    KingCaptured,
    /// Sennichite in which the loser gave check with every one of its moves.
    PerpetualCheck,
    /// The winner, to move, can declare an entering-king win.
    Declaration,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Sennichite: the fourth occurrence of the same position.
    Repetition,
    /// The game reached the maximum number of moves.
    MaxMoves,
    /// Heian: both sides are bare (set-up positions only).
    BothBare,
}

/// Whether the game is over in `pos`; see the module doc for the order of the tests.
/// `max_moves` is the maximum game length in moves (0 = none); `rule` decides declarations.
pub fn outcome(pos: &Position, rule: EnteringKingRule, max_moves: u32) -> Option<Outcome> {
    if let Some(result) = bare_king_result(pos) {
        return Some(result);
    }
    let us = pos.side_to_move();
    if legal_moves(pos).is_empty() {
        let reason = if pos.in_check() {
            WinReason::Checkmate
        } else {
            WinReason::NoLegalMove
        };
        return Some(Outcome::Win(us.flip(), reason));
    }
    match pos.sennichite() {
        Some(GameResult::Draw) => return Some(Outcome::Draw(DrawReason::Repetition)),
        Some(GameResult::Win(winner)) => {
            return Some(Outcome::Win(winner, WinReason::PerpetualCheck))
        }
        None => {}
    }
    if pos.is_max_moves_draw(max_moves) {
        return Some(Outcome::Draw(DrawReason::MaxMoves));
    }
    if pos.can_declare(rule) {
        return Some(Outcome::Win(us, WinReason::Declaration));
    }
    None
}

/// Heian's material results alone: a side without a king or with nothing but its king has lost
/// (both: a draw). `None` in variants without the bare-king rule. A few bitboard operations.
pub fn bare_king_result(pos: &Position) -> Option<Outcome> {
    let lost = |c: Color| lost_by_material(pos, c);
    match (lost(Color::Black), lost(Color::White)) {
        (Some(_), Some(_)) => Some(Outcome::Draw(DrawReason::BothBare)),
        (Some(reason), None) => Some(Outcome::Win(Color::White, reason)),
        (None, Some(reason)) => Some(Outcome::Win(Color::Black, reason)),
        (None, None) => None,
    }
}

/// The colour that has lost by the bare-king rule in `pos`, when exactly one has; for the search,
/// which asks this after captures. `None` in variants without the rule, when neither side is bare,
/// and when both are.
#[inline]
pub fn bare_king_loser(pos: &Position) -> Option<Color> {
    match bare_king_result(pos) {
        Some(Outcome::Win(winner, _)) => Some(winner.flip()),
        _ => None,
    }
}

/// Why `color` has lost on material alone in `pos`, if it has.
#[inline]
fn lost_by_material(pos: &Position, color: Color) -> Option<WinReason> {
    if !pos.variant().bare_king_loses() {
        return None;
    }
    if pos.king_square(color).is_none() {
        return Some(WinReason::KingCaptured);
    }
    let others = pos.pieces_of(color) & !pos.pieces(color, PieceKind::King);
    others.is_empty().then_some(WinReason::BareKing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;

    fn pos(sfen: &str, variant: Variant) -> Position {
        Position::from_sfen(sfen, variant).expect("test SFEN is valid")
    }

    #[test]
    fn start_positions_are_not_over() {
        for v in Variant::ALL {
            assert_eq!(
                outcome(&Position::startpos(v), EnteringKingRule::Csa27, 0),
                None
            );
        }
    }

    #[test]
    fn bare_king_loses_in_heian_only() {
        // White has only its king; Black to move or White to move, White has lost.
        let heian = pos("4k4/9/9/9/9/9/4P4/4K4 w - 1", Variant::Heian);
        assert_eq!(
            outcome(&heian, EnteringKingRule::Csa27, 0),
            Some(Outcome::Win(Color::Black, WinReason::BareKing))
        );
        assert_eq!(bare_king_loser(&heian), Some(Color::White));
        let shogi = pos("4k4/9/9/9/9/9/9/4P4/4K4 w - 1", Variant::Shogi);
        assert_eq!(bare_king_loser(&shogi), None);
        assert_eq!(outcome(&shogi, EnteringKingRule::Csa27, 0), None);
    }

    #[test]
    fn both_bare_is_a_draw() {
        let p = pos("3k4/8/8/8/8/8/8/4K3 b - 1", Variant::Heian8);
        assert_eq!(
            outcome(&p, EnteringKingRule::Csa27, 0),
            Some(Outcome::Draw(DrawReason::BothBare))
        );
        assert_eq!(bare_king_loser(&p), None);
    }

    #[test]
    fn missing_king_in_heian_is_a_captured_king() {
        let p = pos("4g4/9/9/9/9/9/4P4/4K4 b - 1", Variant::Heian);
        assert_eq!(
            outcome(&p, EnteringKingRule::Csa27, 0),
            Some(Outcome::Win(Color::Black, WinReason::KingCaptured))
        );
    }

    #[test]
    fn max_moves() {
        let p = pos(Variant::Heian.startpos_sfen(), Variant::Heian);
        let late = pos(
            "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 257",
            Variant::Heian,
        );
        assert_eq!(outcome(&p, EnteringKingRule::None, 256), None);
        assert_eq!(
            outcome(&late, EnteringKingRule::None, 256),
            Some(Outcome::Draw(DrawReason::MaxMoves))
        );
        assert_eq!(outcome(&late, EnteringKingRule::None, 0), None);
    }
}
