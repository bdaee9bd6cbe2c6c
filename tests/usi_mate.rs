//! `go mate` through the real binary, and the `tokin mate` command line.
//!
//! Every `go mate` gets exactly one `checkmate ...` line (never a `bestmove`), preceded only by
//! `info nodes .. nps .. time .. hashfull ..` progress lines; `stop` ends it with `checkmate
//! timeout` unless proven, `gameover` silences it, `quit` exits at once.

mod common;

use common::{run_tokin as tokin, stdout_lines, Client, QUICK, SLACK};
use std::time::{Duration, Instant};

/// Mate in 1 by a drop; the attacker has no king (a tsume problem).
const MATE_1: &str = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
/// Mate in 3: two gold drops around a cornered king.
const MATE_3: &str = "7nl/7k1/6Ppp/9/9/9/9/9/9 b 2G2r2b2g4s3n3l15p 1";
/// Mate in 3 from a game, White attacking with its own king on the board.
const MATE_3_WHITE: &str =
    "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";
/// No mate, proven in a few hundred nodes (the only mating drop would be uchifuzume).
const NO_MATE: &str = "8k/9/7GN/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1";
/// A lone king in the open against rook, bishop, two golds and two silvers in hand. Whether it mates
/// is unknown; what matters is that the solver stays busy far longer than these tests wait (the rook
/// and two golds used before were disproved in 0.6 s once the core got faster), so a `stop` after a
/// moment always finds it working.
const HARD: &str = "9/9/9/9/4k4/9/9/9/9 b RB2G2Srb2g2s4n4l18p 1";

/// A client past `usi`/`isready` with a small table (quick to allocate).
fn ready_client() -> Client {
    let mut c = Client::spawn();
    c.handshake();
    c.send("setoption name USI_Hash value 16");
    c.sync();
    c
}

/// Sends `go_line` and returns the `checkmate` line, checking that only progress `info` lines
/// came before it.
fn go_mate(c: &mut Client, go_line: &str, timeout: Duration) -> String {
    c.send(go_line);
    let mut lines = c.read_until(|l| l.starts_with("checkmate"), timeout, "checkmate");
    let answer = lines.pop().unwrap_or_default();
    for l in &lines {
        assert!(is_progress(l), "unexpected line before the answer: {l}");
    }
    answer
}

/// `info nodes N nps N time T hashfull H`.
fn is_progress(line: &str) -> bool {
    let toks: Vec<&str> = line.split(' ').collect();
    toks.len() == 9
        && toks[0] == "info"
        && ["nodes", "nps", "time", "hashfull"]
            .iter()
            .enumerate()
            .all(|(i, k)| toks[1 + 2 * i] == *k && toks[2 + 2 * i].parse::<u64>().is_ok())
}

/// Reads what comes within `duration` and checks that no `checkmate`/`bestmove` line is among it.
fn assert_silent(c: &mut Client, duration: Duration) {
    for l in c.lines_for(duration) {
        assert!(
            !l.starts_with("checkmate") && !l.starts_with("bestmove"),
            "stray '{l}'"
        );
    }
}

#[test]
fn mate_in_one_is_answered_exactly() {
    let mut c = ready_client();
    c.send(&format!("position sfen {MATE_1}"));
    assert_eq!(go_mate(&mut c, "go mate 1000", QUICK), "checkmate G*5b");
    // Exactly one answer: nothing else is pending.
    c.sync();
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
}

#[test]
fn mate_in_three_is_answered_exactly() {
    let mut c = ready_client();
    c.send(&format!("position sfen {MATE_3}"));
    assert_eq!(
        go_mate(&mut c, "go mate 5000", QUICK),
        "checkmate G*3b 2b1b G*2b"
    );
    // The table kept from the last problem gives the same answer; so does `go mate infinite`.
    c.send(&format!("position sfen {MATE_3_WHITE}"));
    assert_eq!(
        go_mate(&mut c, "go mate infinite", QUICK),
        "checkmate B*5g 4h5h 7i6i"
    );
    // A position reached by moves: the last attacking move is left.
    c.send(&format!("position sfen {MATE_3} moves G*3b 2b1b"));
    assert_eq!(go_mate(&mut c, "go mate 1000", QUICK), "checkmate G*2b");
    c.sync();
}

#[test]
fn proven_no_mate_is_nomate() {
    let mut c = ready_client();
    c.send(&format!("position sfen {NO_MATE}"));
    assert_eq!(go_mate(&mut c, "go mate 10000", QUICK), "checkmate nomate");
    // No check at all.
    c.send("position sfen 4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1");
    assert_eq!(go_mate(&mut c, "go mate", QUICK), "checkmate nomate");
    c.sync();
}

#[test]
fn stop_ends_go_mate_infinite_with_one_timeout() {
    let mut c = ready_client();
    c.send(&format!("position sfen {HARD}"));
    c.send("go mate infinite");
    // Working: progress lines (every ~250 ms), never an answer before `stop`.
    let lines = c.lines_for(Duration::from_millis(800));
    assert!(lines.iter().all(|l| is_progress(l)), "{lines:?}");
    assert!(!lines.is_empty(), "no progress line in 800 ms");
    // `isready` is answered at once while the solver works (and does not resize under it).
    c.send("setoption name USI_Hash value 32");
    c.send("isready");
    let lines = c.expect("readyok", QUICK);
    assert!(lines.iter().all(|l| l == "readyok" || is_progress(l)));
    let start = Instant::now();
    c.send("stop");
    let mut lines = c.read_until(|l| l.starts_with("checkmate"), QUICK, "checkmate");
    assert!(start.elapsed() < SLACK, "stop took {:?}", start.elapsed());
    assert_eq!(lines.pop().as_deref(), Some("checkmate timeout"));
    // A second `stop` is ignored; exactly one answer went out.
    c.send("stop");
    assert_silent(&mut c, Duration::from_millis(300));
    c.sync();
    // The engine is ready for the next problem (the new hash size taken on the way).
    c.send(&format!("position sfen {MATE_1}"));
    assert_eq!(go_mate(&mut c, "go mate 1000", QUICK), "checkmate G*5b");
}

#[test]
fn time_limit_answers_timeout() {
    let mut c = ready_client();
    c.send(&format!("position sfen {HARD}"));
    let start = Instant::now();
    assert_eq!(go_mate(&mut c, "go mate 300", QUICK), "checkmate timeout");
    assert!(
        start.elapsed() < Duration::from_millis(300) + SLACK,
        "{:?}",
        start.elapsed()
    );
    c.sync();
}

#[test]
fn quit_during_go_mate_exits_at_once() {
    let mut c = ready_client();
    c.send(&format!("position sfen {HARD}"));
    c.send("go mate infinite");
    c.lines_for(Duration::from_millis(300));
    let start = Instant::now();
    c.send("quit");
    let status = c.wait_exit(QUICK);
    assert!(status.success(), "{status:?}");
    assert!(start.elapsed() < SLACK, "quit took {:?}", start.elapsed());
    for l in c.lines_for(Duration::from_millis(100)) {
        assert!(
            !l.starts_with("checkmate") && !l.starts_with("bestmove"),
            "{l}"
        );
    }
}

#[test]
fn gameover_silences_go_mate() {
    let mut c = ready_client();
    c.send(&format!("position sfen {HARD}"));
    c.send("go mate infinite");
    c.lines_for(Duration::from_millis(300));
    c.send("gameover lose");
    assert_silent(&mut c, Duration::from_millis(500));
    c.sync();
    c.send("usinewgame");
    c.send(&format!("position sfen {MATE_3}"));
    assert_eq!(
        go_mate(&mut c, "go mate 5000", QUICK),
        "checkmate G*3b 2b1b G*2b"
    );
}

#[test]
fn go_mate_and_search_each_get_their_own_answer() {
    let mut c = ready_client();
    // A search running when `go mate` comes is stopped first and gives its bestmove.
    c.send("position startpos");
    c.send("go infinite");
    c.lines_for(Duration::from_millis(200));
    c.send(&format!("position sfen {MATE_1}"));
    c.send("go mate 1000");
    let lines = c.read_until(|l| l.starts_with("checkmate"), QUICK, "checkmate");
    let answers: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
        .collect();
    assert_eq!(answers.len(), 2, "{lines:?}");
    assert!(answers[0].starts_with("bestmove "), "{lines:?}");
    assert_eq!(answers[1], "checkmate G*5b");
    // A `go` while `go mate` works stops it (`checkmate timeout`), then searches.
    c.send(&format!("position sfen {HARD}"));
    c.send("go mate infinite");
    c.lines_for(Duration::from_millis(200));
    c.send("position startpos");
    c.send("go depth 1");
    let lines = c.read_until(|l| l.starts_with("bestmove"), QUICK, "bestmove");
    let answers: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
        .collect();
    assert_eq!(answers.len(), 2, "{lines:?}");
    assert_eq!(answers[0], "checkmate timeout");
    c.sync();
}

/// A problem the engine refuses (here the defender, the side not to move, is already in check)
/// must not be answered with the previous problem's mate: `checkmate timeout`, which claims nothing,
/// after an error that says why. The next valid problem is solved as usual.
#[test]
fn a_refused_problem_is_not_answered_with_the_last_one() {
    let mut c = ready_client();
    c.send(&format!("position sfen {MATE_1}"));
    assert_eq!(go_mate(&mut c, "go mate 1000", QUICK), "checkmate G*5b");
    c.send("position sfen 4k4/4P4/9/9/9/9/9/9/9 b G 1");
    for go in ["go mate 1000", "go mate infinite"] {
        c.send(go);
        let mut lines = c.read_until(|l| l.starts_with("checkmate"), QUICK, "checkmate");
        assert_eq!(
            lines.pop().as_deref(),
            Some("checkmate timeout"),
            "{lines:?}"
        );
        let error = lines
            .iter()
            .find(|l| l.starts_with("info string error: go mate: "));
        let error = error.unwrap_or_else(|| panic!("no error in {lines:?}"));
        assert!(error.contains("no position to solve"), "{error}");
        assert!(error.contains("in check"), "{error}");
        c.sync();
    }
    c.send(&format!("position sfen {MATE_3}"));
    assert_eq!(
        go_mate(&mut c, "go mate 5000", QUICK),
        "checkmate G*3b 2b1b G*2b"
    );
    c.sync();
}

// ---- tokin mate ----

/// `Name: number` on a line starting with `name`.
fn number_after(lines: &[String], name: &str) -> u64 {
    let line = lines
        .iter()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no '{name}' in {lines:?}"));
    line[name.len()..]
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{line}"))
}

#[test]
fn cli_solves_one_position() {
    let out = tokin(&["mate", "--sfen", MATE_3, "--hash", "16"]);
    assert!(out.status.success(), "{out:?}");
    let lines = stdout_lines(&out);
    assert_eq!(lines[0], "checkmate G*3b 2b1b G*2b");
    assert_eq!(lines[1], "Mate length (plies): 3");
    assert!(number_after(&lines, "Nodes searched:") > 0);
    number_after(&lines, "Time (ms):");
    number_after(&lines, "Nodes/second:");

    let out = tokin(&["mate", "--sfen", NO_MATE, "--time", "5000"]);
    assert_eq!(stdout_lines(&out)[0], "checkmate nomate");

    let out = tokin(&["mate", "--sfen", HARD, "--time", "200", "--hash", "16"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_lines(&out)[0], "checkmate timeout");
}

#[test]
fn cli_refuses_bad_input() {
    let out = tokin(&["mate", "--sfen", "xyz b - 1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("SFEN"));
    // One of --sfen and --file, not both, not neither.
    assert!(!tokin(&["mate"]).status.success());
    assert!(!tokin(&["mate", "--sfen", MATE_1, "--file", "x"])
        .status
        .success());
    let out = tokin(&["mate", "--file", "/nonexistent/problems.txt"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn cli_solves_a_problem_file() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("usi_mate_problems.txt");
    let text = format!(
        "# a comment, then a blank line\n\n{MATE_1}\nsfen {MATE_3}\nnot a position\n{NO_MATE}\n{HARD}\n"
    );
    std::fs::write(&path, text).expect("write the problem file");
    let path_text = path.to_str().expect("a UTF-8 temp path");
    let out = tokin(&["mate", "--file", path_text, "--time", "300", "--hash", "16"]);
    assert!(out.status.success(), "{out:?}");
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert!(
        lines[0].starts_with("line 3: mate 1 plies, ") && lines[0].ends_with(" nodes: G*5b"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("line 4: mate 3 plies, ") && lines[1].ends_with(": G*3b 2b1b G*2b"),
        "{lines:?}"
    );
    assert!(lines[2].starts_with("line 5: error: bad SFEN"), "{lines:?}");
    assert!(lines[3].starts_with("line 6: nomate, "), "{lines:?}");
    assert!(lines[4].starts_with("line 7: timeout, "), "{lines:?}");
    assert!(
        lines[5].starts_with("solved 2/5 (nomate 1, timeout 1, errors 1), total "),
        "{lines:?}"
    );
    assert!(lines[5].ends_with(" nps"), "{lines:?}");
}
