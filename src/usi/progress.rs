//! The progress line of long command-line work (`gensfen`, `learn`): an indicatif bar on a
//! terminal, a plain line every 30 s when stderr is a log file. Always on stderr: stdout carries
//! the tool's results.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

/// How often the line is written when stderr is not a terminal.
const LOG_INTERVAL: Duration = Duration::from_secs(30);

pub struct ProgressLine {
    bar: Option<ProgressBar>,
    label: &'static str,
    unit: &'static str,
    total: u64,
    /// Where this run started counting (a resumed run starts past zero).
    start: u64,
    started: Instant,
    last_log: Instant,
}

impl ProgressLine {
    /// A line for `total` `unit`s, `position` of them already done.
    pub fn new(label: &'static str, unit: &'static str, total: u64, position: u64) -> ProgressLine {
        let bar = io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4));
            let template = format!(
                "{label} {{bar:30}} {{human_pos}}/{{human_len}} {unit}, {{msg}} [{{elapsed}}, ETA {{eta}}]"
            );
            let style = ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                // ASCII, like everything Tokin prints.
                .progress_chars("#>-");
            bar.set_style(style);
            bar.set_position(position);
            bar.reset_eta();
            bar
        });
        ProgressLine {
            bar,
            label,
            unit,
            total,
            start: position,
            started: Instant::now(),
            last_log: Instant::now(),
        }
    }

    /// `position` units done; `message` says the rest (rates, losses).
    pub fn update(&mut self, position: u64, message: String) {
        match &self.bar {
            Some(bar) => {
                bar.set_position(position);
                bar.set_message(message);
            }
            None if self.last_log.elapsed() >= LOG_INTERVAL => {
                self.last_log = Instant::now();
                let elapsed = self.started.elapsed().as_secs_f64();
                let rate = position.saturating_sub(self.start) as f64 / elapsed.max(1e-3);
                let left = self.total.saturating_sub(position);
                eprintln!(
                    "{}: {position}/{} {} ({:.1}%), {message}, {} s, ETA {}",
                    self.label,
                    self.total,
                    self.unit,
                    100.0 * position as f64 / self.total.max(1) as f64,
                    elapsed as u64,
                    format_duration(left as f64 / rate.max(1e-9))
                );
            }
            None => {}
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `42s`, `3m05s`, `2h10m`.
pub fn format_duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds > 1e9 {
        return "unknown".into();
    }
    let s = seconds.round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}
