//! The server's clock, kept by us from the times it charges: what each side has left, how long our
//! next move may take before the server calls time, and the [`Limits`] the search's time manager
//! gets from that.
//!
//! Facts used (the protocol document's `BEGIN Time` block; shogi-server's `time_clock.rb`):
//! - Every number is a count of `Time_Unit` (`1sec`, `1min`, `1msec`; shogi-server always sends
//!   `1sec`).
//! - The server charges a move its elapsed time in whole units, truncated (`Time_Roundup:NO`, the
//!   default) or rounded up (`YES`), and at least `Least_Time_Per_Move` (0 since CSA's 2014 rules,
//!   1 before). It sends the charge with the move (`,T<n>`).
//! - `Increment` is added before each move is charged: remaining = remaining + increment - charge,
//!   never below 0 (what is left of a move's byoyomi is not kept).
//! - The flag falls when a charge reaches remaining + increment + byoyomi (shogi-server:
//!   `mytime - t + byoyomi + fischer <= 0`). With truncation a move is safe while its real time
//!   stays below that many units; rounded up, a server comparing the same way flags any move past
//!   one unit less, so that unit is not counted as ours.
//! - No total, byoyomi or increment at all means no time limit.
//! - `Delay` (in some servers' summaries) is not counted in our favour: whether it is granted
//!   before or within a move's charge differs between servers, and leaving it out can only make
//!   us faster.

use crate::core::Color;
use crate::search::Limits;

/// One side's time rule, in `Time_Unit`s except `unit_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeRule {
    /// Milliseconds per unit.
    pub unit_ms: u64,
    /// `Total_Time`: the main time.
    pub total: u64,
    pub byoyomi: u64,
    pub increment: u64,
    pub delay: u64,
    pub least_per_move: u64,
    /// `Time_Roundup:YES`.
    pub roundup: bool,
}

impl Default for TimeRule {
    /// No time limit, one-second units: a summary's `Time` block fills in what it gives.
    fn default() -> TimeRule {
        TimeRule {
            unit_ms: 1000,
            total: 0,
            byoyomi: 0,
            increment: 0,
            delay: 0,
            least_per_move: 0,
            roundup: false,
        }
    }
}

impl TimeRule {
    /// Whether the server never calls time (shogi-server: no total, byoyomi or increment).
    pub fn is_unlimited(&self) -> bool {
        self.total == 0 && self.byoyomi == 0 && self.increment == 0
    }

    /// Milliseconds of `units`, saturating.
    pub fn ms(&self, units: u64) -> u64 {
        units.saturating_mul(self.unit_ms)
    }

    /// A short description for logs and records, e.g. `300 s + 10 s increment`.
    pub fn describe(&self) -> String {
        if self.is_unlimited() {
            return "no time limit".to_string();
        }
        let show = |units: u64| {
            let ms = self.ms(units);
            if ms.is_multiple_of(1000) {
                format!("{} s", ms / 1000)
            } else {
                format!("{ms} ms")
            }
        };
        let mut text = show(self.total);
        if self.byoyomi > 0 {
            text.push_str(&format!(" + {} byoyomi", show(self.byoyomi)));
        }
        if self.increment > 0 {
            text.push_str(&format!(" + {} increment", show(self.increment)));
        }
        if self.least_per_move > 0 {
            text.push_str(&format!(", at least {} a move", show(self.least_per_move)));
        }
        if self.roundup {
            text.push_str(", rounded up");
        }
        text
    }
}

/// Both sides' time left, as the server counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    rules: [TimeRule; 2],
    /// Units left, indexed by `Color::index()`.
    remaining: [u64; 2],
}

impl Clock {
    pub fn new(rules: [TimeRule; 2]) -> Clock {
        Clock {
            rules,
            remaining: [rules[0].total, rules[1].total],
        }
    }

    pub fn rule(&self, color: Color) -> &TimeRule {
        &self.rules[color.index()]
    }

    /// Units `color` has left.
    pub fn remaining(&self, color: Color) -> u64 {
        self.remaining[color.index()]
    }

    /// The server charged `color` `units` for a move.
    pub fn charge(&mut self, color: Color, units: u64) {
        let rule = self.rules[color.index()];
        let left = &mut self.remaining[color.index()];
        *left = left.saturating_add(rule.increment).saturating_sub(units);
    }

    /// After the moves of a summary's position block: a side never has more than its total.
    /// Servers differ on those moves' times (shogi-server starts everyone at the total; a resumed
    /// game counts them, the protocol's way): the smaller figure is right for one and safe for both.
    pub fn cap_at_total(&mut self) {
        for color in Color::ALL {
            let total = self.rules[color.index()].total;
            let left = &mut self.remaining[color.index()];
            *left = (*left).min(total);
        }
    }

    /// How long `color`'s next move may take on the server's clock before the flag falls, in ms;
    /// `None` without a time limit.
    pub fn allowance_ms(&self, color: Color) -> Option<u64> {
        let rule = self.rules[color.index()];
        if rule.is_unlimited() {
            return None;
        }
        let units = self.remaining[color.index()]
            .saturating_add(rule.increment)
            .saturating_add(rule.byoyomi);
        let units = if rule.roundup {
            units.saturating_sub(1)
        } else {
            units
        };
        Some(rule.ms(units))
    }

    /// The clock as a USI `go` would give it to the time manager for `us` to move: each side's
    /// remaining time, increments and our byoyomi, in ms, so that what the manager may use
    /// (bank + increment + byoyomi) is [`Clock::allowance_ms`]. Without a time limit: no limit
    /// at all (the manager picks a few seconds, as for a bare `go`).
    pub fn limits(&self, us: Color) -> Limits {
        let rule = self.rules[us.index()];
        if rule.is_unlimited() {
            return Limits::default();
        }
        let mut bank = rule.ms(self.remaining[us.index()]);
        let mut byoyomi = rule.ms(rule.byoyomi);
        let mut inc = rule.ms(rule.increment);
        if rule.roundup {
            // The unit rounding may cost comes off the bank first, then byoyomi, then increment.
            let mut unit = rule.unit_ms;
            for part in [&mut bank, &mut byoyomi, &mut inc] {
                let taken = unit.min(*part);
                *part -= taken;
                unit -= taken;
            }
        }
        let mut limits = Limits {
            byoyomi: byoyomi as i64,
            ..Limits::default()
        };
        for color in Color::ALL {
            let r = self.rules[color.index()];
            let (time, increment) = if color == us {
                (bank, inc)
            } else {
                (r.ms(self.remaining[color.index()]), r.ms(r.increment))
            };
            limits.time[color.index()] = Some(time.min(i64::MAX as u64) as i64);
            limits.inc[color.index()] = increment.min(i64::MAX as u64) as i64;
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::TimeConfig;
    use crate::search::TimeLimits;

    fn rule(total: u64, byoyomi: u64, increment: u64) -> TimeRule {
        TimeRule {
            total,
            byoyomi,
            increment,
            ..TimeRule::default()
        }
    }

    #[test]
    fn fischer_adds_before_charging() {
        // floodgate-300-10F: 300 s and 10 s a move.
        let mut clock = Clock::new([rule(300, 0, 10); 2]);
        assert_eq!(clock.allowance_ms(Color::Black), Some(310_000));
        clock.charge(Color::Black, 3);
        assert_eq!(clock.remaining(Color::Black), 307);
        clock.charge(Color::Black, 30);
        assert_eq!(clock.remaining(Color::Black), 287);
        assert_eq!(clock.remaining(Color::White), 300);
        // A move charged more than the bank plus increment has flagged; the count stays at 0.
        clock.charge(Color::White, 400);
        assert_eq!(clock.remaining(Color::White), 0);
        assert_eq!(clock.allowance_ms(Color::White), Some(10_000));
    }

    #[test]
    fn byoyomi_is_not_banked() {
        // 10 s and 10 s byoyomi: a 15 s move empties the bank, the next may take 10 s.
        let mut clock = Clock::new([rule(10, 10, 0); 2]);
        assert_eq!(clock.allowance_ms(Color::White), Some(20_000));
        clock.charge(Color::White, 15);
        assert_eq!(clock.remaining(Color::White), 0);
        assert_eq!(clock.allowance_ms(Color::White), Some(10_000));
        clock.charge(Color::White, 9);
        assert_eq!(clock.allowance_ms(Color::White), Some(10_000));
    }

    #[test]
    fn units_other_than_seconds() {
        let minutes = TimeRule {
            unit_ms: 60_000,
            ..rule(15, 1, 0)
        };
        let clock = Clock::new([minutes; 2]);
        assert_eq!(clock.allowance_ms(Color::Black), Some(16 * 60_000));
        let msec = TimeRule {
            unit_ms: 1,
            ..rule(0, 500, 0)
        };
        let mut clock = Clock::new([msec; 2]);
        clock.charge(Color::Black, 480);
        assert_eq!(clock.allowance_ms(Color::Black), Some(500));
        let limits = clock.limits(Color::Black);
        assert_eq!(limits.byoyomi, 500);
        assert_eq!(limits.time, [Some(0), Some(0)]);
    }

    #[test]
    fn rounding_up_costs_one_unit() {
        let up = TimeRule {
            roundup: true,
            ..rule(0, 3, 0)
        };
        let clock = Clock::new([up; 2]);
        assert_eq!(clock.allowance_ms(Color::Black), Some(2000));
        assert_eq!(clock.limits(Color::Black).byoyomi, 2000);
        let up = TimeRule {
            roundup: true,
            ..rule(60, 10, 0)
        };
        let clock = Clock::new([up; 2]);
        let limits = clock.limits(Color::Black);
        assert_eq!((limits.time[0], limits.byoyomi), (Some(59_000), 10_000));
        assert_eq!(clock.allowance_ms(Color::Black), Some(69_000));
    }

    #[test]
    fn no_limit_means_no_limit() {
        let clock = Clock::new([TimeRule::default(); 2]);
        assert_eq!(clock.allowance_ms(Color::Black), None);
        assert!(clock.limits(Color::Black).is_unbounded());
    }

    #[test]
    fn the_summary_moves_never_add_time() {
        let mut clock = Clock::new([rule(60, 0, 10); 2]);
        // Two quick moves each: the protocol's count would give 60 + 2 * (10 - 1) = 78.
        for _ in 0..2 {
            clock.charge(Color::Black, 1);
            clock.charge(Color::White, 50);
        }
        clock.cap_at_total();
        assert_eq!(clock.remaining(Color::Black), 60);
        assert_eq!(clock.remaining(Color::White), 0);
    }

    #[test]
    fn separate_rules_per_side() {
        let clock = Clock::new([rule(600, 0, 0), rule(300, 30, 0)]);
        let limits = clock.limits(Color::White);
        assert_eq!(limits.time, [Some(600_000), Some(300_000)]);
        assert_eq!(limits.byoyomi, 30_000);
        assert_eq!(clock.limits(Color::Black).byoyomi, 0);
    }

    /// The time manager given our limits stays inside the server's allowance with the worst-case
    /// delay to spare, for every clock this test can think of.
    #[test]
    fn the_time_manager_never_plans_past_the_flag() {
        let config = TimeConfig {
            network_delay2: 1000,
            ..TimeConfig::default()
        };
        for unit_ms in [1, 1000, 60_000] {
            for (total, byoyomi, inc) in [
                (0, 1, 0),
                (0, 10, 0),
                (10, 10, 0),
                (300, 0, 10),
                (600, 0, 0),
                (1, 0, 0),
                (0, 0, 5),
                (1500, 60, 0),
            ] {
                for roundup in [false, true] {
                    let r = TimeRule {
                        unit_ms,
                        roundup,
                        ..rule(total, byoyomi, inc)
                    };
                    let mut clock = Clock::new([r; 2]);
                    for spent in [0, 1, 7, 100] {
                        clock.charge(Color::Black, spent);
                        let Some(allowance) = clock.allowance_ms(Color::Black) else {
                            continue;
                        };
                        let limits = clock.limits(Color::Black);
                        for ply in [1, 50, 150] {
                            let t = TimeLimits::new(&limits, Color::Black, ply, &config);
                            let hard = t.hard.unwrap_or(u64::MAX);
                            assert!(
                                hard < allowance || allowance <= 1,
                                "{r:?} after {spent}: hard {hard} >= allowance {allowance}"
                            );
                            if allowance > 2000 {
                                assert!(
                                    hard + 1000 <= allowance,
                                    "{r:?}: hard {hard} within the delay of {allowance}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
