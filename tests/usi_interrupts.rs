//! Ending work early through the real binary: end of input during a search or `go mate` (it counts as
//! `stop` then `quit`: one answer, then exit), and `stop`/`quit` during `go perft` and `bench`, which
//! otherwise hold the loop until they are done.

mod common;

use common::*;
use std::time::{Duration, Instant};

/// Past `usi`/`isready` with a small table (quick to allocate).
fn ready_client() -> Client {
    let mut c = Client::spawn();
    c.handshake();
    c.send("setoption name USI_Hash value 16");
    c.sync();
    c
}

/// Closes the input and checks that exactly one line starting with `answer` comes (returned), that
/// nothing else answering follows it, and that the engine exits cleanly, all promptly.
fn close_and_expect_one(c: &mut Client, answer: &str) -> String {
    let start = Instant::now();
    c.close_stdin();
    let mut lines = c.read_until(|l| l.starts_with(answer), QUICK, answer);
    let got = lines.pop().unwrap_or_default();
    assert!(c.wait_exit(QUICK).success());
    let rest = c.lines_for(Duration::from_millis(100));
    assert!(
        !rest
            .iter()
            .chain(&lines)
            .any(|l| l.starts_with("bestmove") || l.starts_with("checkmate")),
        "a second answer: {lines:?} {rest:?}"
    );
    assert!(start.elapsed() < QUICK, "{:?}", start.elapsed());
    got
}

/// `printf 'position startpos\ngo btime 0 wtime 0 byoyomi 10000\n' | tokin` answers at once instead
/// of exiting without a word (or thinking for ten seconds).
#[test]
fn end_of_input_during_a_search_gives_its_bestmove() {
    for go in [
        "go btime 0 wtime 0 byoyomi 10000",
        "go infinite",
        "go ponder btime 0 wtime 0 byoyomi 10000",
    ] {
        let mut c = ready_client();
        c.send("position startpos moves 7g7f");
        c.send(go);
        c.expect_no_bestmove(Duration::from_millis(300));
        let start = Instant::now();
        let best = close_and_expect_one(&mut c, "bestmove");
        let mut game = Game::new();
        game.moves.push("7g7f".into());
        check_bestmove(&best, &game.position());
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{go}: {:?}",
            start.elapsed()
        );
    }
}

/// The whole conversation in one write, as a shell pipe sends it: the answer still comes.
#[test]
fn a_piped_query_gets_its_answer() {
    let mut c = Client::spawn();
    c.send_raw(b"usi\nisready\nposition startpos\ngo btime 0 wtime 0 byoyomi 1000\n");
    let best = close_and_expect_one(&mut c, "bestmove");
    check_bestmove(&best, &Game::new().position());
}

#[test]
fn end_of_input_during_go_mate_gives_checkmate_timeout() {
    let mut c = ready_client();
    // A lone king in the open against many pieces in hand: the solver stays busy.
    c.send("position sfen 9/9/9/9/4k4/9/9/9/9 b RB2G2Srb2g2s4n4l18p 1");
    c.send("go mate infinite");
    c.read_until(|l| l.starts_with("info nodes"), QUICK, "mate progress");
    assert_eq!(
        close_and_expect_one(&mut c, "checkmate"),
        "checkmate timeout"
    );
}

#[test]
fn end_of_input_while_idle_exits_quietly() {
    let mut c = ready_client();
    c.send("position startpos");
    c.close_stdin();
    assert!(c.wait_exit(QUICK).success());
    assert!(c.lines_for(Duration::from_millis(100)).is_empty());
}

/// End of input waits behind `go perft` like any other input: the count comes whole.
#[test]
fn end_of_input_lets_go_perft_finish() {
    let mut c = ready_client();
    c.send("position startpos");
    c.send("go perft 4");
    c.send("isready");
    c.close_stdin();
    let lines = c.expect("readyok", Duration::from_secs(30));
    assert!(
        lines.contains(&"Nodes searched: 719731".to_string()),
        "{lines:?}"
    );
    assert!(c.wait_exit(QUICK).success());
}

/// `stop` cuts a perft short: the root moves counted so far, then a last line marked partial. The
/// commands sent meanwhile wait for it and run after, in order.
#[test]
fn stop_cuts_go_perft_short() {
    let mut c = ready_client();
    c.send("position startpos");
    c.send("go perft 9");
    c.send("isready");
    c.send("d");
    c.expect_no_bestmove(Duration::from_millis(500));
    let start = Instant::now();
    c.send("stop");
    let lines = c.read_until(|l| l.starts_with("Nodes searched"), QUICK, "the count");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    let last = lines.last().cloned().unwrap_or_default();
    assert!(
        last.starts_with("Nodes searched (partial: ") && last.contains(" of 30 root moves): "),
        "{last}"
    );
    // The listed root moves add up to the partial total.
    let count = |l: &str| l.rsplit_once(": ").and_then(|(_, n)| n.parse::<u64>().ok());
    let listed: u64 = lines[..lines.len() - 1]
        .iter()
        .filter_map(|l| count(l))
        .sum();
    assert_eq!(Some(listed), count(&last), "{lines:?}");
    // Then the held commands, in order, and the engine serves as before.
    let after = c.expect("readyok", QUICK);
    assert_eq!(after, ["readyok"]);
    c.read_until(|l| l.starts_with("info string checkers"), QUICK, "d");
    c.send("go perft 2");
    c.expect("Nodes searched: 900", QUICK);
    c.sync();
}

#[test]
fn quit_ends_go_perft_at_once_and_silently() {
    let mut c = ready_client();
    c.send("setoption name Threads value 2");
    c.send("go perft 9");
    c.expect_no_bestmove(Duration::from_millis(300));
    let start = Instant::now();
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    let rest = c.lines_for(Duration::from_millis(100));
    assert!(rest.is_empty(), "{rest:?}");
}

/// `stop` during `bench`: the three lines, the node count marked partial with where it stopped.
#[test]
fn stop_cuts_bench_short() {
    let mut c = ready_client();
    c.send("bench 60");
    c.send("isready");
    c.expect_no_bestmove(Duration::from_millis(500));
    let start = Instant::now();
    c.send("stop");
    let lines = c.expect("readyok", QUICK);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[0].starts_with("info string Total time (ms): "),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("info string Nodes searched (partial: stopped in position 1 of "),
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("info string Nodes/second: "),
        "{lines:?}"
    );
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
}

#[test]
fn quit_ends_bench_at_once_and_silently() {
    let mut c = ready_client();
    c.send("bench 60");
    c.expect_no_bestmove(Duration::from_millis(300));
    let start = Instant::now();
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert!(c.lines_for(Duration::from_millis(100)).is_empty());
}
