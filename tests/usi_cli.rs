//! The command-line tools: perft, bench, analyse, --help.

mod common;

use common::{run_tokin as tokin, stdout_lines};

#[test]
fn perft_output_format() {
    let out = tokin(&["perft", "3"]);
    assert!(out.status.success(), "{out:?}");
    let lines = stdout_lines(&out);
    // 30 root moves, an empty line, the total, then timing lines.
    assert!(lines[..30].iter().all(|l| {
        let (m, n) = l.split_once(": ").expect(l);
        (4..=5).contains(&m.len()) && n.parse::<u64>().is_ok()
    }));
    assert_eq!(lines[30], "");
    assert_eq!(lines[31], "Nodes searched: 25470");
    assert!(lines[32..].iter().any(|l| l.starts_with("Nodes/second: ")));

    let out = tokin(&["perft", "1", "--variant", "heian8", "--threads", "2"]);
    assert!(out.status.success(), "{out:?}");
    let lines = stdout_lines(&out);
    let empty = lines.iter().position(String::is_empty).expect("empty line");
    assert_eq!(lines[empty + 1], format!("Nodes searched: {empty}"));

    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    let out = tokin(&["perft", "1", "--sfen", sfen]);
    assert_eq!(stdout_lines(&out)[31], "Nodes searched: 30");
}

#[test]
fn perft_bad_sfen_fails_cleanly() {
    let out = tokin(&["perft", "1", "--sfen", "xyz b - 1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("SFEN"), "{err}");
    let out = tokin(&["perft", "1", "--variant", "chess"]);
    assert!(!out.status.success());
}

#[test]
fn analyse_prints_info_and_bestmove() {
    let out = tokin(&[
        "analyse",
        "--moves",
        "7g7f",
        "3c3d",
        "--depth",
        "3",
        "--multipv",
        "2",
    ]);
    assert!(out.status.success(), "{out:?}");
    let lines = stdout_lines(&out);
    let last = lines.last().expect("output");
    assert!(last.starts_with("bestmove "), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );

    let out = tokin(&["analyse", "--moves", "7g7f", "7g7f", "--depth", "1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 2"));
}

#[test]
fn bench_ends_with_counts() {
    let out = tokin(&["bench", "--depth", "2"]);
    assert!(out.status.success(), "{out:?}");
    let lines = stdout_lines(&out);
    let n = lines.len();
    assert!(lines[n - 2].starts_with("Nodes searched: "), "{lines:?}");
    assert!(lines[n - 1].starts_with("Nodes/second: "), "{lines:?}");
}

#[test]
fn help_explains_subcommands() {
    let out = tokin(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for word in ["perft", "bench", "analyse"] {
        assert!(text.contains(word), "{text}");
    }
    let out = tokin(&["analyse", "--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--movetime"));
}
