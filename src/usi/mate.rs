//! The plug for `go mate`. The engine calls [`MateSolver::solve`] from exactly one place
//! (`Engine::go_mate`, on its own thread); a df-pn solver replaces [`NotImplemented`] there.

use crate::core::position::Position;
use crate::core::Move;
use crate::usi::command::MateLimit;
use std::sync::atomic::AtomicBool;

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// The attacker's mating sequence (attacker and defender moves, attacker last).
    Mate(Vec<Move>),
    /// Proven: no mate exists.
    NoMate,
    /// The limit ran out (or `stop` came) before a proof.
    Timeout,
    /// No solver is installed.
    NotImplemented,
}

/// A tsume solver. `stop` is raised by `stop`/`gameover`/`quit`; the solver must then return soon.
pub trait MateSolver: Send + Sync {
    fn solve(&self, pos: &Position, limit: MateLimit, stop: &AtomicBool) -> MateAnswer;
}

/// Placeholder until the mate solver lands.
pub struct NotImplemented;

impl MateSolver for NotImplemented {
    fn solve(&self, _pos: &Position, _limit: MateLimit, _stop: &AtomicBool) -> MateAnswer {
        MateAnswer::NotImplemented
    }
}

/// `checkmate ...` text.
pub fn format_checkmate(answer: &MateAnswer) -> String {
    match answer {
        MateAnswer::Mate(moves) if !moves.is_empty() => {
            let mut s = String::from("checkmate");
            for m in moves {
                s.push(' ');
                s.push_str(&m.to_usi());
            }
            s
        }
        // An empty sequence would read as a malformed line; treat it as no proof.
        MateAnswer::Mate(_) | MateAnswer::Timeout => "checkmate timeout".to_string(),
        MateAnswer::NoMate => "checkmate nomate".to_string(),
        MateAnswer::NotImplemented => "checkmate notimplemented".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{HandKind, Square};

    #[test]
    fn checkmate_lines() {
        let to = Square::from_usi("5b").unwrap();
        assert_eq!(
            format_checkmate(&MateAnswer::Mate(vec![Move::drop(HandKind::Gold, to)])),
            "checkmate G*5b"
        );
        assert_eq!(
            format_checkmate(&MateAnswer::Mate(vec![])),
            "checkmate timeout"
        );
        assert_eq!(format_checkmate(&MateAnswer::NoMate), "checkmate nomate");
        assert_eq!(
            format_checkmate(&MateAnswer::NotImplemented),
            "checkmate notimplemented"
        );
    }
}
