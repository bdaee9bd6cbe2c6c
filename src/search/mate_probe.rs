//! The root mate probe: before iterative deepening, a short df-pn run (the `mate` module's solver)
//! when the enemy king looks exposed. Alpha-beta finds a mate of 7-11 plies of checks only at a
//! depth it rarely reaches in a game; df-pn proves many of them in milliseconds. A found mate is a
//! verified line, played at once.
//!
//! The probe costs at most an eighth of the move's time (500 ms at most) and is skipped when that
//! is under `MIN_PROBE_MS`, when the king is not in danger, and in searches that asked for a depth or
//! node count (those must stay reproducible, e.g. `bench`).

use crate::core::attacks::step_attacks;
use crate::core::{Move, PieceKind, Position};
use crate::mate::{MateLimits, MateResult, MateSolver};
use std::sync::atomic::AtomicBool;

/// Below this the probe cannot prove anything worth its start-up (table allocation).
const MIN_PROBE_MS: u64 = 25;
/// Upper bound of one probe, also the budget of infinite / ponder searches.
const MAX_PROBE_MS: u64 = 500;
/// df-pn's speed, roughly (nodes per ms, one thread): sizes the table and the node limit.
const NODES_PER_MS: u64 = 400;

/// How long to probe (ms) given the move's time limit (`None` = infinite / ponder), or `None` when
/// the probe is not worth it.
pub(crate) fn probe_budget_ms(move_time_ms: Option<u64>) -> Option<u64> {
    let ms = move_time_ms.map_or(MAX_PROBE_MS, |t| (t / 8).min(MAX_PROBE_MS));
    (ms >= MIN_PROBE_MS).then_some(ms)
}

/// Whether a probe started by a ponder search (budget `MAX_PROBE_MS`) may run on after a
/// `ponderhit` whose move has `move_time_ms`: only when that move's own budget is as large.
pub(crate) fn budget_survives_ponderhit(move_time_ms: Option<u64>) -> bool {
    probe_budget_ms(move_time_ms) == probe_budget_ms(None)
}

/// A cheap look at whether a mating attack is plausible: the side to move has checks among `root`
/// (the legal moves), and either its pieces already bear on two squares next to the enemy king or
/// it holds pieces with several checks to choose from (most mates in shogi are built with drops).
pub(crate) fn king_in_danger(pos: &Position, root: &[Move]) -> bool {
    let us = pos.side_to_move();
    let Some(king) = pos.king_square(us.flip()) else {
        return false;
    };
    let checks = root.iter().filter(|&&m| pos.gives_check(m)).count();
    if checks == 0 {
        return false;
    }
    if pos.hand(us).to_u32() != 0 && checks >= 3 {
        return true;
    }
    let around = step_attacks(us.flip(), PieceKind::King, king) & pos.variant().board_mask();
    around
        .into_iter()
        .filter(|&sq| pos.is_attacked(us, sq))
        .count()
        >= 2
}

/// The mating line df-pn proves within `budget_ms` (or until `stop`), verified by the solver.
pub(crate) fn probe(pos: &Position, budget_ms: u64, stop: &AtomicBool) -> Option<Vec<Move>> {
    let nodes = budget_ms * NODES_PER_MS;
    // Entries are 32 bytes; the table need not hold more than the probe can visit.
    let mb = ((nodes * 32) >> 20).clamp(1, 16) as usize;
    let mut solver = MateSolver::new(mb);
    let limits = MateLimits {
        time_ms: Some(budget_ms),
        nodes: Some(nodes),
    };
    match solver.solve(pos, limits, stop, &mut |_| {}) {
        MateResult::Mate(line) if !line.is_empty() => Some(line),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ponderhit_at_a_short_clock_ends_the_probe() {
        // Byoyomi 100 (hard limit 50 ms), 1 s, 3.9 s: the ponder budget (500 ms) is too long.
        for ms in [50, 1000, 3999] {
            assert!(!budget_survives_ponderhit(Some(ms)), "{ms} ms");
        }
        // From 4 s a move, an eighth of it is the full budget; no clock at all keeps it too.
        assert!(budget_survives_ponderhit(Some(4000)));
        assert!(budget_survives_ponderhit(None));
    }

    #[test]
    fn budget_scales_with_the_move_time() {
        assert_eq!(probe_budget_ms(Some(100)), None);
        assert_eq!(probe_budget_ms(Some(150)), None);
        assert_eq!(probe_budget_ms(Some(700)), Some(87));
        assert_eq!(probe_budget_ms(Some(30_000)), Some(500));
        assert_eq!(probe_budget_ms(None), Some(500));
    }
}
