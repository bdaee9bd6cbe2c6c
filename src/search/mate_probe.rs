//! The root mate probe: before iterative deepening, a short df-pn run (the `mate` module's solver)
//! when the enemy king looks exposed. Alpha-beta finds a mate of 7-11 plies of checks only at a
//! depth it rarely reaches in a game; df-pn proves many of them in milliseconds. A found mate is a
//! verified line, played at once.
//!
//! The probe costs at most an eighth of the move's time (500 ms at most) and is skipped when that
//! is under `MIN_PROBE_MS`, when the king is not in danger, and in searches that asked for a depth or
//! node count (those must stay reproducible, e.g. `bench`).
//!
//! The defence check turns the probe around: the position after the best root move, with the
//! opponent to move, is probed for the opponent's mate by checks (`refutation`), after each
//! iteration and as soon as a move becomes best within one (a move that first led in an
//! iteration the clock cut short was otherwise played unchecked: g0065 of the bundle's run). Of
//! Tokin's 40 losses to gpsusi at 1 s byoyomi (2026-12-05), 18 came with gpsusi announcing a mate
//! right after a Tokin move; in 11 of them df-pn proves that mate after the move Tokin played
//! (`scripts/arena/arena.py mates`), while most of those positions had moves after which it proves
//! none (g0057: 10 of 89). Alpha-beta at 700 ms scored those moves up to +2107: a mate of 17-29
//! plies of checks lies far past its horizon, and df-pn's proof numbers find it in a few hundred
//! thousand nodes.

use crate::core::attacks::step_attacks;
use crate::core::movegen::legal_moves;
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
    let limits = MateLimits {
        time_ms: Some(budget_ms),
        nodes: Some(budget_ms * NODES_PER_MS),
    };
    match solver(&limits).solve(pos, limits, stop, &mut |_| {}) {
        MateResult::Mate(line) if !line.is_empty() => Some(line),
        _ => None,
    }
}

/// The defence check's share of a move's time (`move_time_ms`, its hard limit): each probe gets at
/// most a fifth of it, and all of a search's probes together a third. Most probes end far sooner:
/// over 49 middle-game positions of gen5's games at 1 s byoyomi, 98 probes took 7 ms on average
/// (14 ms a move) and 3 ran to the limit; g0057's mate after 7e7d took 88-91 ms to prove.
pub(crate) fn defence_budget_ms(move_time_ms: u64, spent_ms: u64, elapsed_ms: u64) -> Option<u64> {
    let total = move_time_ms / 3;
    let left = total
        .saturating_sub(spent_ms)
        .min(move_time_ms.saturating_sub(elapsed_ms) / 2);
    let ms = left.min(move_time_ms / 5).min(MAX_PROBE_MS);
    (ms >= MIN_DEFENCE_MS).then_some(ms)
}

/// Below this a defence probe proves too little to be worth the move's time.
const MIN_DEFENCE_MS: u64 = 20;
/// df-pn's node rate on one thread, measured 1.2-5 M nodes/s on the 2-core guest (`tokin mate`);
/// the defence's node cap only bounds its table, the clock bounds the probe.
const DEFENCE_NODES_PER_MS: u64 = 5000;

/// The opponent's mate by checks in `child`, the position after one of our root moves with the
/// opponent to move, when `king_in_danger` says an attack on our king is plausible: the proven
/// line, found within `budget_ms` (or until `stop`).
pub(crate) fn refutation(child: &Position, budget_ms: u64, stop: &AtomicBool) -> Option<Vec<Move>> {
    let replies = legal_moves(child);
    if !king_in_danger(child, replies.as_slice()) {
        return None;
    }
    let limits = MateLimits {
        time_ms: Some(budget_ms),
        nodes: Some(budget_ms * DEFENCE_NODES_PER_MS),
    };
    match solver(&limits).prove(child, limits, stop) {
        MateResult::Mate(line) if !line.is_empty() => Some(line),
        _ => None,
    }
}

/// A solver whose table holds what a probe within `limits` can visit (entries are 32 bytes).
fn solver(limits: &MateLimits) -> MateSolver {
    let nodes = limits.nodes.unwrap_or(0);
    MateSolver::new(((nodes * 32) >> 20).clamp(1, 16) as usize)
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

    /// Tokin (Black) to move in g0057 of gen5 against gpsusi (2026-12-05), scoring +1846: it
    /// played 7e7d, after which White mates in 21 plies of checks (G*8h ...); after 8a4a or 8i7g
    /// df-pn proves White has no such mate.
    const G0057: &str =
        "1+R4+Pnl/l1p1ks3/4ppp1p/2bs5/ppP1bN3/5PP2/PP2P3P/2S1GS3/LNKG4+r b N3P2gl 75";

    fn after(sfen: &str, usi: &str) -> Position {
        let mut pos = Position::from_sfen(sfen, crate::core::Variant::Shogi).expect("test SFEN");
        let mv = pos.parse_usi_move(usi).expect("test move");
        pos.do_move(mv);
        pos
    }

    #[test]
    fn the_defence_proves_the_mate_a_move_walks_into() {
        let stop = AtomicBool::new(false);
        let child = after(G0057, "7e7d");
        let line = refutation(&child, 20_000, &stop).expect("White mates after 7e7d");
        assert!(crate::mate::is_mating_line(&child, &line));
        assert_eq!(line[0].to_usi(), "G*8h");
        for safe in ["8a4a", "8i7g"] {
            assert_eq!(
                refutation(&after(G0057, safe), 20_000, &stop),
                None,
                "{safe}"
            );
        }
        // A raised stop flag ends the probe with nothing proven.
        assert_eq!(refutation(&child, 20_000, &AtomicBool::new(true)), None);
    }

    #[test]
    fn the_defence_takes_its_share_of_the_move() {
        // A 700 ms hard limit (1 s byoyomi less a NetworkDelay2 of 300): 140 ms a probe, 233 in all.
        assert_eq!(defence_budget_ms(700, 0, 100), Some(140));
        assert_eq!(defence_budget_ms(700, 140, 300), Some(93));
        assert_eq!(defence_budget_ms(700, 220, 300), None);
        // Never more than half of what is left of the move.
        assert_eq!(defence_budget_ms(700, 0, 600), Some(50));
        assert_eq!(defence_budget_ms(700, 0, 700), None);
        assert_eq!(defence_budget_ms(60_000, 0, 0), Some(MAX_PROBE_MS));
        assert_eq!(defence_budget_ms(100, 0, 0), Some(20));
        assert_eq!(defence_budget_ms(90, 0, 0), None);
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
