//! Bad input of every kind: a clear `info string error: ...` (or warning) and the engine keeps serving.

mod common;

use common::*;
use std::time::Duration;

/// Sends `line` and returns the `info string` lines it caused (up to the next readyok).
fn answer(c: &mut Client, line: &[u8]) -> Vec<String> {
    c.send_raw(line);
    c.send("isready");
    let lines = c.expect("readyok", QUICK);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    lines
        .into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

fn assert_error(lines: &[String], needles: &[&str]) {
    let l = lines
        .iter()
        .find(|l| l.starts_with("info string error: "))
        .unwrap_or_else(|| panic!("no error line in {lines:?}"));
    for n in needles {
        assert!(l.contains(n), "'{l}' lacks '{n}'");
    }
}

/// Checks the engine still plays from the position `d` reports.
fn current_sfen(c: &mut Client) -> String {
    c.send("d");
    let lines = c.read_until(|l| l.starts_with("info string checkers"), QUICK, "d");
    lines
        .iter()
        .find_map(|l| l.strip_prefix("info string sfen: ").map(str::to_string))
        .expect("sfen line")
}

/// After a refused `position`: `d` says there is none and why (naming `needles`), and `go` answers
/// `bestmove resign` after an error that says why, also a `go infinite` (only at `stop`).
fn assert_no_position(c: &mut Client, needles: &[&str]) {
    c.send("d");
    let l = c.read_until(|l| l.starts_with("info string "), QUICK, "d");
    let l = l.last().cloned().unwrap_or_default();
    assert!(
        l.starts_with("info string no position: the last was refused ("),
        "{l}"
    );
    for n in needles {
        assert!(l.contains(n), "'{l}' lacks '{n}'");
    }
    let (best, before, _) = c.go("go btime 0 wtime 0 byoyomi 1000", QUICK);
    assert_eq!(best, "bestmove resign");
    assert_error(&before, &["go: no position to search", needles[0]]);
    c.send("go infinite");
    c.expect_no_bestmove(Duration::from_millis(200));
    c.send("stop");
    let (best, _, _) = c.await_bestmove(std::time::Instant::now(), QUICK);
    assert_eq!(best, "bestmove resign");
    c.sync();
}

#[test]
fn bad_input_keeps_serving() {
    let mut c = Client::spawn();
    c.handshake();
    c.sync();

    assert_error(&answer(&mut c, b"foo bar\n"), &["unknown command", "'foo'"]);
    assert_error(
        &answer(&mut c, b"go btime abc wtime 100\n"),
        &["btime", "'abc'"],
    );
    assert_error(&answer(&mut c, b"go depth\n"), &["depth"]);
    assert_error(
        &answer(&mut c, b"setoption name USI_Hash value lots\n"),
        &["USI_Hash", "lots"],
    );
    assert_error(&answer(&mut c, b"setoption\n"), &["setoption"]);

    // Unknown option: a warning, not an error.
    let lines = answer(&mut c, b"setoption name NoSuchOption value 1\n");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("warning") && l.contains("NoSuchOption")),
        "{lines:?}"
    );
    // Clamped spin: said so.
    let lines = answer(&mut c, b"setoption name MultiPV value 100000\n");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("MultiPV") && l.contains("600")),
        "{lines:?}"
    );
    let lines = answer(&mut c, b"setoption name multipv value 1\n");
    assert!(lines.is_empty(), "{lines:?}");

    // Malformed SFEN: the SfenError text, and no position at all (not the previous one).
    c.send("position startpos moves 7g7f");
    let lines = answer(&mut c, b"position sfen lnsgkgsnl/9/ppppppppp b - 1\n");
    assert_error(&lines, &["SFEN", "ranks", "refused"]);
    assert_no_position(&mut c, &["SFEN", "ranks"]);
    assert_error(&answer(&mut c, b"position sfen xyz b - 1\n"), &["SFEN"]);

    // Illegal and unparsable moves, also after good ones: token and ply named, position refused.
    let lines = answer(&mut c, b"position startpos moves 7g7f 3c3d 7f7e 5i5h\n");
    assert_error(&lines, &["'5i5h'", "ply 4", "refused"]);
    assert_no_position(&mut c, &["'5i5h'"]);
    let lines = answer(&mut c, b"position startpos moves 7g7f zz9\n");
    assert_error(&lines, &["'zz9'", "ply 2"]);
    // A position line that does not parse: refused too.
    c.send("position startpos moves 7g7f");
    assert_error(
        &answer(&mut c, b"position startpos 7g7f\n"),
        &["'7g7f'", "refused"],
    );
    assert_no_position(&mut c, &["position: unexpected '7g7f'"]);

    // A line of megabytes, binary garbage and invalid UTF-8, CRLF and odd spacing.
    let mut big = vec![b'a'; 3 << 20];
    big.push(b'\n');
    assert_error(&answer(&mut c, &big), &["bytes"]);
    let mut big = b"position startpos moves ".to_vec();
    big.extend(std::iter::repeat_n(b"7g7f ".as_slice(), 150_000).flatten());
    big.push(b'\n');
    let lines = answer(&mut c, &big);
    assert!(!lines.is_empty(), "long line gave no answer");
    assert_error(
        &answer(&mut c, b"\xff\xfe\x00\x01garbage\x80\n"),
        &["unknown command"],
    );
    assert_error(&answer(&mut c, b"\x1b[2J\x07\n"), &["unknown command"]);
    assert!(answer(&mut c, b"   \r\n").is_empty());
    assert!(answer(&mut c, b"\r\n").is_empty());
    let lines = answer(&mut c, b"  position   startpos  moves  7g7f \r\n");
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(
        current_sfen(&mut c),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    );

    // After all that the engine still plays.
    c.send("position startpos\r");
    let (best, _, _) = c.go("go  depth 2\r", Duration::from_secs(10));
    check_bestmove(&best, &Game::new().position());
    c.sync();
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
}
