//! The one stdout writer and the text of search events.
//!
//! Every line the engine prints goes through [`Output::line`]: one lock per line so lines from the
//! search thread and the command loop never interleave, a flush after each line (clients wait for
//! `readyok`/`bestmove` without a pipe ever filling), and ASCII only (one match runner decodes ASCII,
//! another Shift-JIS, so anything else could garble or kill the session).

use crate::core::movegen::Divide;
use crate::search::{bench, BenchReport, BestMove, Bound, Score, SearchEvent, SearchInfo};
use std::fmt::Write as _;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A cloneable handle to the single output stream.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Arc::new(Mutex::new(writer)),
        }
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one line (made ASCII and single-line) and flushes. Write errors mean the client went
    /// away; they are logged, not fatal: the loop ends when input ends.
    pub fn line(&self, text: &str) {
        let mut clean = ascii_line(text);
        clean.push('\n');
        // A panic elsewhere while holding the lock must not silence the engine: use the inner value.
        let mut w = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = w.write_all(clean.as_bytes()).and_then(|()| w.flush()) {
            log::warn!("output failed: {e}");
        }
    }

    /// `info string <text>`, one line per line of `text`.
    pub fn info_string(&self, text: &str) {
        for l in text.lines() {
            self.line(&format!("info string {l}"));
        }
    }

    /// `info string error: <text>`.
    pub fn error(&self, text: &dyn std::fmt::Display) {
        self.info_string(&format!("error: {text}"));
    }
}

/// `text` with every character that is not printable ASCII replaced by `?` (tabs and newlines too:
/// one call is one line), runs of spaces made one and trailing spaces dropped: a line that quotes
/// the client's input keeps one space between tokens like every other.
pub fn ascii_line(text: &str) -> String {
    let mut clean = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ' ' {
            if !clean.ends_with(' ') {
                clean.push(' ');
            }
        } else if c.is_ascii_graphic() {
            clean.push(c);
        } else {
            clean.push('?');
        }
    }
    clean.truncate(clean.trim_end_matches(' ').len());
    clean
}

/// An `info` line with `pv` last, e.g.
/// `info depth 5 seldepth 7 multipv 1 score cp 32 nodes 1000 nps 50000 hashfull 3 time 20 pv 7g7f 3c3d`.
pub fn format_info(info: &SearchInfo) -> String {
    let mut s = String::with_capacity(96 + 6 * info.pv.len());
    let _ = write!(
        s,
        "info depth {} seldepth {} multipv {} score ",
        info.depth, info.seldepth, info.multipv
    );
    match info.score {
        Score::Cp(cp) => {
            let _ = write!(s, "cp {cp}");
        }
        Score::Mate(plies) => {
            let _ = write!(s, "mate {plies}");
        }
    }
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    let _ = write!(
        s,
        " nodes {} nps {} hashfull {} time {}",
        info.nodes, info.nps, info.hashfull, info.time_ms
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            let _ = write!(s, " {m}");
        }
    }
    s
}

/// `bestmove ...`.
pub fn format_bestmove(best: &BestMove) -> String {
    match best {
        BestMove::Move {
            best,
            ponder: Some(p),
        } => format!("bestmove {best} ponder {p}"),
        BestMove::Move { best, ponder: None } => format!("bestmove {best}"),
        BestMove::Resign => "bestmove resign".to_string(),
        BestMove::Win => "bestmove win".to_string(),
    }
}

/// The text of any search event.
pub fn format_event(event: &SearchEvent) -> String {
    match event {
        SearchEvent::Info(info) => format_info(info),
        SearchEvent::Progress {
            nodes,
            nps,
            time_ms,
            hashfull,
        } => format!("info nodes {nodes} nps {nps} hashfull {hashfull} time {time_ms}"),
        SearchEvent::BestMove(b) => format_bestmove(b),
    }
}

/// `go perft` / `tokin perft` output: one `<move>: <count>` line per root move, an empty line, then
/// `Nodes searched: <total>`. A perft cut short lists only the root moves it finished, and its last
/// line says so before the colon, `Nodes searched (partial: 12 of 30 root moves): <their total>`, so
/// that a script reading `Nodes searched: N` cannot take it for the full count.
pub fn perft_lines(divide: &Divide) -> Vec<String> {
    let mut lines: Vec<String> = divide
        .counts
        .iter()
        .map(|(m, n)| format!("{m}: {n}"))
        .collect();
    lines.push(String::new());
    lines.push(if divide.is_complete() {
        format!("Nodes searched: {}", divide.nodes())
    } else {
        format!(
            "Nodes searched (partial: {} of {} root moves): {}",
            divide.counts.len(),
            divide.root_moves,
            divide.nodes()
        )
    });
    lines
}

/// The answer to `go perft` when there is no position to count (the last `position` was refused).
pub fn perft_no_position_lines() -> Vec<String> {
    vec![String::new(), "Nodes searched (no position): 0".to_string()]
}

/// `bench` output; `Nodes searched` and `Nodes/second` come last (scripts read them there). A bench
/// cut short says where, before the colon: `Nodes searched (partial: stopped in position 4 of
/// 21): N`.
pub fn bench_lines(report: &BenchReport) -> Vec<String> {
    let nodes = match report.stopped_at {
        None => format!("Nodes searched: {}", report.nodes),
        Some(i) => format!(
            "Nodes searched (partial: stopped in position {} of {}): {}",
            i + 1,
            bench::POSITIONS.len(),
            report.nodes
        ),
    };
    vec![
        format!("Total time (ms): {}", report.time_ms),
        nodes,
        format!("Nodes/second: {}", report.nps),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{HandKind, Move, Square};

    fn sq(s: &str) -> Square {
        Square::from_usi(s).unwrap()
    }

    fn info(score: Score, bound: Bound, pv: Vec<Move>) -> SearchInfo {
        SearchInfo {
            depth: 5,
            seldepth: 9,
            multipv: 2,
            score,
            bound,
            nodes: 12345,
            nps: 678900,
            time_ms: 18,
            hashfull: 4,
            pv,
        }
    }

    #[test]
    fn info_lines() {
        let pv = vec![
            Move::normal(sq("7g"), sq("7f"), false),
            Move::normal(sq("8h"), sq("2b"), true),
            Move::drop(HandKind::Bishop, sq("5e")),
        ];
        assert_eq!(
            format_info(&info(Score::Cp(-31), Bound::Exact, pv.clone())),
            "info depth 5 seldepth 9 multipv 2 score cp -31 nodes 12345 nps 678900 hashfull 4 time 18 pv 7g7f 8h2b+ B*5e"
        );
        assert_eq!(
            format_info(&info(Score::Mate(-4), Bound::Lower, pv[..1].to_vec())),
            "info depth 5 seldepth 9 multipv 2 score mate -4 lowerbound nodes 12345 nps 678900 hashfull 4 time 18 pv 7g7f"
        );
        // No `pv` token at all without moves (never `pv resign`).
        assert_eq!(
            format_info(&info(Score::Cp(0), Bound::Upper, vec![])),
            "info depth 5 seldepth 9 multipv 2 score cp 0 upperbound nodes 12345 nps 678900 hashfull 4 time 18"
        );
    }

    #[test]
    fn bestmove_lines() {
        let a = Move::normal(sq("7g"), sq("7f"), false);
        let b = Move::normal(sq("3c"), sq("3d"), false);
        assert_eq!(
            format_bestmove(&BestMove::Move {
                best: a,
                ponder: Some(b)
            }),
            "bestmove 7g7f ponder 3c3d"
        );
        assert_eq!(
            format_bestmove(&BestMove::Move {
                best: a,
                ponder: None
            }),
            "bestmove 7g7f"
        );
        assert_eq!(format_bestmove(&BestMove::Resign), "bestmove resign");
        assert_eq!(format_bestmove(&BestMove::Win), "bestmove win");
        assert_eq!(
            format_event(&SearchEvent::Progress {
                nodes: 1,
                nps: 2,
                time_ms: 3,
                hashfull: 4
            }),
            "info nodes 1 nps 2 hashfull 4 time 3"
        );
    }

    #[test]
    fn perft_and_bench_lines() {
        let a = Move::normal(sq("7g"), sq("7f"), false);
        let b = Move::drop(HandKind::Pawn, sq("5e"));
        let mut divide = Divide {
            counts: vec![(a, 30), (b, 2)],
            root_moves: 2,
        };
        assert_eq!(
            perft_lines(&divide),
            vec!["7g7f: 30", "P*5e: 2", "", "Nodes searched: 32"]
        );
        divide.root_moves = 5;
        assert_eq!(
            perft_lines(&divide),
            vec![
                "7g7f: 30",
                "P*5e: 2",
                "",
                "Nodes searched (partial: 2 of 5 root moves): 32"
            ]
        );
        let mut report = BenchReport {
            nodes: 1000,
            time_ms: 10,
            nps: 100_000,
            stopped_at: None,
        };
        assert_eq!(
            bench_lines(&report),
            vec![
                "Total time (ms): 10",
                "Nodes searched: 1000",
                "Nodes/second: 100000"
            ]
        );
        report.stopped_at = Some(3);
        assert_eq!(
            bench_lines(&report)[1],
            format!(
                "Nodes searched (partial: stopped in position 4 of {}): 1000",
                bench::POSITIONS.len()
            )
        );
    }

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn writer_keeps_lines_ascii_and_whole() {
        let buf = Shared::default();
        let out = Output::new(Box::new(buf.clone()));
        out.line("bestmove 7g7f");
        out.error(&"bad token '\u{fffd}\u{6b69}\t'");
        out.info_string("two\nlines");
        out.error(&"option X expects an integer, got '10  9i9i+ '");
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "bestmove 7g7f\ninfo string error: bad token '???'\ninfo string two\ninfo string lines\n\
             info string error: option X expects an integer, got '10 9i9i+ '\n"
        );
    }
}
