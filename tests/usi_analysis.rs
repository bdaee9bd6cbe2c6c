//! An analysis session as GUIs run it: go infinite, stop, MultiPV changes without isready, quit in
//! the middle of a search, end of input.

mod common;

use common::*;
use std::time::{Duration, Instant};

#[test]
fn analysis_session() {
    let mut c = Client::spawn();
    c.handshake();
    c.send("setoption name USI_Hash value 16");
    c.sync();
    let mut game = Game::new();
    game.moves = vec!["7g7f".into(), "3c3d".into()];
    c.send(&game.command());
    c.send("go infinite");
    c.expect_no_bestmove(Duration::from_millis(300));
    let start = Instant::now();
    c.send("stop");
    let (best, lines, took) = c.await_bestmove(start, QUICK);
    check_bestmove(&best, &game.position());
    assert_final_score(&lines);
    assert!(took < Duration::from_secs(1), "stop took {took:?}");
    c.sync();

    // MultiPV between searches, no isready; then a new position.
    c.send("setoption name MultiPV value 3");
    game.moves.push("2g2f".into());
    c.send(&game.command());
    c.send("go infinite");
    let got = c.lines_for(Duration::from_millis(400));
    assert!(!got.iter().any(|l| l.starts_with("bestmove")), "{got:?}");
    c.send("stop");
    let (best, lines, _) = c.await_bestmove(Instant::now(), QUICK);
    check_bestmove(&best, &game.position());
    let all: Vec<&String> = got.iter().chain(lines.iter()).collect();
    assert!(
        all.iter().any(|l| l.contains(" multipv 2 ")),
        "no second line with MultiPV 3: {all:?}"
    );
    c.sync();

    // `stop` while idle: nothing.
    c.send("stop");
    c.expect_no_bestmove(Duration::from_millis(200));
    c.sync();

    // quit during go infinite: prompt exit with status 0.
    c.send("go infinite");
    c.expect_no_bestmove(Duration::from_millis(100));
    let start = Instant::now();
    c.send("quit");
    let status = c.wait_exit(QUICK);
    assert!(status.success(), "{status:?}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "quit took {:?}",
        start.elapsed()
    );
}

/// End of input during a search counts as quit.
#[test]
fn eof_mid_search_exits_cleanly() {
    let mut c = Client::spawn();
    c.send("usi");
    c.send("isready");
    c.expect("readyok", QUICK);
    c.send("position startpos");
    c.send("go infinite");
    c.expect_no_bestmove(Duration::from_millis(100));
    let start = Instant::now();
    c.close_stdin();
    let status = c.wait_exit(QUICK);
    assert!(status.success(), "{status:?}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}

/// Debug helpers: `d`, `go perft`, `go mate`.
#[test]
fn debug_helpers() {
    let mut c = Client::spawn();
    c.send("position startpos moves 7g7f");
    c.send("d");
    let lines = c.read_until(|l| l.starts_with("info string checkers"), QUICK, "d output");
    assert!(
        lines.iter().any(|l| l
            .contains("sfen: lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")),
        "{lines:?}"
    );
    c.send("position startpos");
    c.send("go perft 3");
    let lines = c.read_until(
        |l| l.starts_with("Nodes searched"),
        Duration::from_secs(10),
        "perft",
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 25470")
    );
    assert_eq!(lines.len(), 30 + 2, "{lines:?}");
    assert_eq!(lines[30], "");
    c.send("go mate 1000");
    // The start position has no check at all: proven at once, after the solver's table is
    // allocated and cleared (its first use), which a loaded machine can stretch past QUICK.
    c.expect("checkmate nomate", Duration::from_secs(30));
    c.sync();
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
}
