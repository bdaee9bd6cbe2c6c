//! Time management: how long one move may take, from the clock the GUI sent.
//!
//! Two limits per move. The *soft* limit is the target: the main thread checks it between iterations
//! and stretches or shrinks it with the stability of the best move (`adjusted_soft`). The *hard* limit
//! is the promise never to break: every search thread polls it every ~1k nodes and stops at once.
//! Both are milliseconds from the moment the clock started (the `go`, or the `ponderhit` of a ponder
//! search).

use super::api::Limits;
use super::params;
use crate::core::Color;

/// The USI options that shape time use (all milliseconds, `slow_mover` a percentage).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeConfig {
    /// Typical GUI/network lag, subtracted from every target.
    pub network_delay: i64,
    /// Worst-case lag: the hard limit in byoyomi stays this far from the end of the period.
    pub network_delay2: i64,
    /// Think at least this long when the clock allows (avoids throwing away byoyomi periods).
    pub minimum_thinking_time: i64,
    /// Percent scale of the soft limit (100 = normal; larger thinks longer).
    pub slow_mover: i64,
}

impl Default for TimeConfig {
    /// Tuned for the usual case, a GUI on the same machine (the USI option defaults come from here).
    ///
    /// - `network_delay` 120: the margin shogi engines traditionally subtract from a planned time; it
    ///   also covers a `movetime` search's start-up and answer.
    /// - `network_delay2` 120: a local GUI reads `bestmove` within a few ms of our writing it, and
    ///   the search answers within ~1-2 ms of its hard limit (threads poll the clock every 1024
    ///   nodes): in 100 gauntlet games at 1 s byoyomi on a shared 2-core machine the slowest answer
    ///   came 9 ms after it, the slowest ever seen there 73 ms. 120 ms covers that with room; 300
    ///   (the default until 2026-12-05) left 30% of a 1 s byoyomi unused while gpsusi used all of it.
    ///   (The traditional 1120 is for internet servers.) Online play raises it.
    /// - `minimum_thinking_time` 1000: a floor above the planned share of a move; in a 1-minute
    ///   sudden-death game that share is ~1.1 s, so a 2 s floor front-loaded the clock.
    fn default() -> TimeConfig {
        TimeConfig {
            network_delay: 120,
            network_delay2: 120,
            minimum_thinking_time: 1000,
            slow_mover: 100,
        }
    }
}

/// Limits for one move, in ms from the clock start. `None` = no such limit: both `None` for infinite,
/// depth and node searches; only `soft` `None` when the search should use all the time up to `hard`
/// (`movetime`; pure byoyomi, whose period is renewed every move, so time left over is simply lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    pub soft: Option<u64>,
    pub hard: Option<u64>,
}

/// Bare `go`: nobody will send `stop`, so answer by ourselves after a few seconds.
const BARE_GO_SOFT_MS: i64 = 3000;
const BARE_GO_HARD_MS: i64 = 5000;

impl TimeLimits {
    pub const NONE: TimeLimits = TimeLimits {
        soft: None,
        hard: None,
    };

    /// The limits for `us` to move at `game_ply` (SFEN move number) under `limits`.
    pub fn new(limits: &Limits, us: Color, game_ply: u32, config: &TimeConfig) -> TimeLimits {
        if limits.infinite {
            return TimeLimits::NONE;
        }
        if let Some(movetime) = limits.movetime {
            // Exactly this long (less the usual delay): no soft limit to stop early at.
            let ms = (movetime - config.network_delay)
                .max(movetime.min(10))
                .max(1);
            return TimeLimits::hard_only(ms);
        }
        if limits.is_unbounded() {
            return TimeLimits::fixed(BARE_GO_SOFT_MS, BARE_GO_HARD_MS);
        }
        let time = limits.time[us.index()];
        let inc = limits.inc[us.index()].max(0);
        let byoyomi = limits.byoyomi.max(0);
        let empty_clock = time.unwrap_or(0) <= 0 && inc == 0 && byoyomi == 0;
        if empty_clock && (time.is_none() || limits.nodes.is_some() || limits.depth.is_some()) {
            // No clock (depth / nodes / ponder without one), or an empty clock beside a node or
            // depth limit (`go btime 0 wtime 0 nodes 20000`, as ShogiArena sends for fixed-node
            // games): the limit governs, as in YaneuraOu and Stockfish. An empty clock alone
            // still means "move now".
            return TimeLimits::NONE;
        }
        let bank = time.unwrap_or(0).max(0);

        // What the clock allows on this move before the flag falls, and the hard limit kept a
        // worst-case delay away from it (but never less than half of it: with a 100 ms byoyomi and
        // a 300 ms NetworkDelay2, thinking 0 ms would be silly and 50 ms is still safe).
        let allowed = bank + inc + byoyomi;
        let cap = (allowed - config.network_delay2).max(allowed / 2).max(1);

        if bank == 0 && byoyomi > 0 {
            // Pure byoyomi: the period is renewed every move, so unused time is simply lost. No
            // soft limit: search until the hard one (a proven mate or a forced move still answers
            // early).
            return TimeLimits::hard_only(cap);
        }

        // Our moves still to play, roughly: shogi games run ~120-140 plies.
        let moves_to_go = ((150 - game_ply as i64) / 2).clamp(16, 50);

        let share = bank / moves_to_go + inc * 3 / 4 + byoyomi - config.network_delay;
        let soft = share * config.slow_mover.max(1) / 100;
        // Hard: a few times the target, never more than a quarter of the bank beyond what the move
        // itself grants (increment / byoyomi).
        let hard = (soft * 4)
            .min(bank / 4 + inc + byoyomi - config.network_delay)
            .min(cap);
        let floor = config
            .minimum_thinking_time
            .min(byoyomi + inc + bank / 20)
            .max(1);
        let hard = hard.max(floor.min(cap)).max(1);
        let soft = soft.max(floor).min(hard).max(1);
        TimeLimits::fixed(soft, hard)
    }

    fn hard_only(hard: i64) -> TimeLimits {
        TimeLimits {
            soft: None,
            hard: Some(hard.max(1) as u64),
        }
    }

    fn fixed(soft: i64, hard: i64) -> TimeLimits {
        TimeLimits {
            soft: Some(soft.max(1) as u64),
            hard: Some(hard.max(1) as u64),
        }
    }

    /// The soft limit scaled by how settled the search is. `best_move_changes` counts changes of the
    /// best move over the last iterations (decayed by the caller); `score_drop` is how much the score
    /// fell since the previous iteration (cp, positive = worse).
    pub fn adjusted_soft(
        &self,
        stable_iterations: u32,
        best_move_changes: f64,
        score_drop: i32,
    ) -> Option<u64> {
        let soft = self.soft? as f64;
        let mut factor = 1.0;
        if stable_iterations >= 4 && best_move_changes < 0.5 {
            factor *= params::STABLE_PERCENT.get() as f64 / 100.0;
        }
        if best_move_changes >= 1.0 {
            factor *= 1.0
                + (params::UNSTABLE_PERCENT.get() as f64 / 100.0 - 1.0)
                    * best_move_changes.min(2.0)
                    / 2.0;
        }
        if score_drop > params::SCORE_DROP_CP.get() {
            factor *= params::SCORE_DROP_PERCENT.get() as f64 / 100.0;
        }
        let hard = self.hard.unwrap_or(u64::MAX) as f64;
        Some((soft * factor).min(hard) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(btime: i64, wtime: i64, byoyomi: i64, inc: i64) -> Limits {
        Limits {
            time: [Some(btime), Some(wtime)],
            inc: [inc, inc],
            byoyomi,
            ..Limits::default()
        }
    }

    #[test]
    fn byoyomi_never_exceeded() {
        let cfg = TimeConfig::default();
        for byoyomi in [1000, 3000, 10_000, 30_000, 60_000] {
            for bank in [0, 500, 5000, 60_000, 600_000] {
                for ply in [1, 40, 120, 300] {
                    let t =
                        TimeLimits::new(&clock(bank, bank, byoyomi, 0), Color::Black, ply, &cfg);
                    let hard = t.hard.unwrap() as i64;
                    assert!(
                        hard < bank + byoyomi,
                        "bank {bank} byo {byoyomi}: hard {hard}"
                    );
                    if bank == 0 {
                        // Uses all of the period but the worst-case delay; no early stop.
                        assert_eq!(hard, byoyomi - cfg.network_delay2, "byo {byoyomi}");
                        assert_eq!(t.soft, None);
                    } else {
                        assert!(t.soft.unwrap() as i64 <= hard);
                    }
                }
            }
        }
        // `go btime 0 wtime 0 byoyomi 30000`: close to 30 s minus the worst-case delay.
        let t = TimeLimits::new(&clock(0, 0, 30_000, 0), Color::White, 50, &cfg);
        assert_eq!(t.hard, Some(30_000 - 120));
        // Local play: a 1 s byoyomi is used up to 0.88 s, a 3 s one up to 2.88 s.
        let t = TimeLimits::new(&clock(0, 0, 1000, 0), Color::Black, 9, &cfg);
        assert_eq!(
            t,
            TimeLimits {
                soft: None,
                hard: Some(880)
            }
        );
        let t = TimeLimits::new(&clock(0, 0, 3000, 0), Color::Black, 9, &cfg);
        assert_eq!(t.hard, Some(2880));
    }

    #[test]
    fn short_byoyomi_keeps_half_the_period_as_margin() {
        // Fast test games (`byoyomi 100`): NetworkDelay2 exceeds the period, so think half of it.
        let cfg = TimeConfig::default();
        for (byoyomi, hard) in [
            (100, 50),
            (200, 100),
            (240, 120),
            (241, 121),
            (300, 180),
            (1, 1),
        ] {
            let t = TimeLimits::new(&clock(0, 0, byoyomi, 0), Color::White, 80, &cfg);
            assert_eq!(t.hard, Some(hard), "byoyomi {byoyomi}");
        }
        // An online setting (the traditional 1120) still leaves a sane time.
        let online = TimeConfig {
            network_delay2: 1120,
            ..cfg
        };
        let t = TimeLimits::new(&clock(0, 0, 1000, 0), Color::Black, 9, &online);
        assert_eq!(t.hard, Some(500));
    }

    #[test]
    fn fischer_budget_sane() {
        let cfg = TimeConfig::default();
        // `go btime 55000 wtime 60000 binc 5000 winc 5000`
        let t = TimeLimits::new(&clock(55_000, 60_000, 0, 5000), Color::Black, 30, &cfg);
        let (soft, hard) = (t.soft.unwrap() as i64, t.hard.unwrap() as i64);
        assert!((3000..=8000).contains(&soft), "soft {soft}");
        assert!(hard >= soft && hard < 55_000 + 5000 - 1000, "hard {hard}");
        // Nearly flagged: still below what the clock allows.
        let t = TimeLimits::new(&clock(300, 300, 0, 1000), Color::Black, 100, &cfg);
        assert!((t.hard.unwrap() as i64) < 1300);
    }

    #[test]
    fn sudden_death_spreads_the_bank() {
        let cfg = TimeConfig::default();
        let t = TimeLimits::new(&clock(27_000, 30_000, 0, 0), Color::Black, 60, &cfg);
        let (soft, hard) = (t.soft.unwrap(), t.hard.unwrap());
        assert!(soft <= 1400, "soft {soft}");
        assert!(hard <= 27_000 / 4, "hard {hard}");
        let t = TimeLimits::new(&clock(600_000, 600_000, 0, 0), Color::White, 1, &cfg);
        assert!(t.soft.unwrap() >= 10_000 && t.hard.unwrap() <= 150_000);
    }

    #[test]
    fn other_forms() {
        let cfg = TimeConfig::default();
        let movetime = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        // `go movetime 1000`: all of it but NetworkDelay, no early stop.
        let t = TimeLimits::new(&movetime, Color::Black, 1, &cfg);
        assert_eq!(
            t,
            TimeLimits {
                soft: None,
                hard: Some(880)
            }
        );
        let infinite = Limits {
            infinite: true,
            ..clock(1000, 1000, 0, 0)
        };
        assert_eq!(
            TimeLimits::new(&infinite, Color::Black, 1, &cfg),
            TimeLimits::NONE
        );
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(
            TimeLimits::new(&depth, Color::Black, 1, &cfg),
            TimeLimits::NONE
        );
        // ShogiArena's fixed-node games: an empty clock beside the limit is no clock.
        for (nodes, depth, wtime) in [(Some(20_000), None, 0), (None, Some(8), 5000)] {
            let limits = Limits {
                nodes,
                depth,
                ..clock(0, wtime, 0, 0)
            };
            assert_eq!(
                TimeLimits::new(&limits, Color::Black, 1, &cfg),
                TimeLimits::NONE
            );
        }
        // A clock with time on it still applies beside a node limit; an empty one alone means
        // "move at once".
        let timed_nodes = Limits {
            nodes: Some(20_000),
            ..clock(0, 0, 1000, 0)
        };
        assert_eq!(
            TimeLimits::new(&timed_nodes, Color::Black, 1, &cfg).hard,
            Some(880)
        );
        assert_eq!(
            TimeLimits::new(&clock(0, 0, 0, 0), Color::Black, 1, &cfg).hard,
            Some(1)
        );
        let bare = TimeLimits::new(&Limits::default(), Color::Black, 1, &cfg);
        assert_eq!(bare.hard, Some(5000));
        // `go byoyomi 1000` with no btime/wtime.
        let byo = Limits {
            byoyomi: 1000,
            ..Limits::default()
        };
        let t = TimeLimits::new(&byo, Color::Black, 1, &cfg);
        assert_eq!(t.hard, Some(880));
        // Negative times from a client are clamped, not trusted.
        let t = TimeLimits::new(&clock(-500, -500, 2000, 0), Color::Black, 1, &cfg);
        assert!(t.hard.unwrap() < 2000);
    }

    #[test]
    fn adjusted_soft_moves_with_stability() {
        let t = TimeLimits {
            soft: Some(1000),
            hard: Some(5000),
        };
        let base = t.adjusted_soft(1, 0.0, 0).unwrap();
        assert_eq!(base, 1000);
        assert!(t.adjusted_soft(6, 0.0, 0).unwrap() < base);
        assert!(t.adjusted_soft(1, 2.0, 0).unwrap() > base);
        assert!(t.adjusted_soft(1, 0.0, 100).unwrap() > base);
        assert!(t.adjusted_soft(1, 10.0, 500).unwrap() <= 5000);
    }
}
