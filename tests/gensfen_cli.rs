//! `tokin gensfen`, `relabel` and `sfeninfo` through the real binary: determinism, resuming, refusing
//! to overwrite, bad options and unwritable outputs, the data checker and the shuffler.

mod common;
#[path = "common/nnue.rs"]
mod reference;

use common::{run_tokin as tokin, stdout_lines};
use std::path::{Path, PathBuf};
use tokin::psv::{PsvReader, RECORD_BYTES};

fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("tokin-gensfen-{}-{name}", std::process::id()));
    std::fs::remove_file(&path).ok();
    path
}

/// A quick run: 200 nodes a move, one thread.
fn gensfen(output: &Path, count: u64, seed: u64, extra: &[&str]) -> std::process::Output {
    let count = count.to_string();
    let seed = seed.to_string();
    let mut args = vec![
        "gensfen",
        "--output",
        output.to_str().expect("utf-8 temp path"),
        "--count",
        &count,
        "--nodes",
        "200",
        "--threads",
        "1",
        "--seed",
        &seed,
        "--hash",
        "1",
    ];
    args.extend_from_slice(extra);
    tokin(&args)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_seed_gives_the_same_file_whatever_the_thread_count() {
    // Games finish out of order on several threads; the file still holds them in game order.
    let files: Vec<_> = [1, 3]
        .iter()
        .map(|threads| {
            let path = temp(&format!("threads-{threads}.bin"));
            let threads = threads.to_string();
            let out = tokin(&[
                "gensfen",
                "--output",
                path.to_str().expect("utf-8 temp path"),
                "--count",
                "300",
                "--nodes",
                "200",
                "--threads",
                &threads,
                "--seed",
                "9",
                "--hash",
                "1",
            ]);
            assert!(out.status.success(), "{}", stderr(&out));
            let bytes = std::fs::read(&path).unwrap();
            std::fs::remove_file(&path).ok();
            bytes
        })
        .collect();
    assert_eq!(files[0].len(), 300 * RECORD_BYTES);
    assert!(files[0] == files[1], "3 threads wrote another file than 1");
}

#[test]
fn one_thread_and_a_seed_give_the_same_file_and_another_seed_another() {
    let (a, b, c) = (temp("det-a.bin"), temp("det-b.bin"), temp("det-c.bin"));
    for (path, seed) in [(&a, 5), (&b, 5), (&c, 6)] {
        let out = gensfen(path, 120, seed, &[]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let (a_bytes, b_bytes, c_bytes) = (
        std::fs::read(&a).unwrap(),
        std::fs::read(&b).unwrap(),
        std::fs::read(&c).unwrap(),
    );
    assert_eq!(a_bytes.len(), 120 * RECORD_BYTES);
    assert_eq!(a_bytes, b_bytes);
    assert_ne!(a_bytes, c_bytes);
    // Every record decodes and passes the default filters.
    let mut n = 0;
    for r in PsvReader::new([&a]) {
        let r = r.expect("good record");
        assert!(r.game_ply >= 16 && r.score.abs() <= 3000 && !r.position.in_check());
        n += 1;
    }
    assert_eq!(n, 120);
    for p in [a, b, c] {
        std::fs::remove_file(p).ok();
    }
}

#[test]
fn the_summary_names_what_was_written() {
    let path = temp("summary.bin");
    let out = gensfen(&path, 40, 1, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    assert!(lines[0].starts_with("wrote 40 records to "), "{lines:?}");
    assert!(lines[0].contains("(it holds 40)"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("games: Black won ")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("not written: ")),
        "{lines:?}"
    );
    std::fs::remove_file(path).ok();
}

#[test]
fn an_existing_file_is_kept_unless_told_and_append_resumes_to_the_count() {
    let path = temp("resume.bin");
    let out = gensfen(&path, 50, 3, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let first = std::fs::read(&path).unwrap();

    let out = gensfen(&path, 80, 3, &[]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("already exists") && err.contains("--append"),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), first, "the file was touched");

    // A killed run leaves a torn record: appending cuts it off and completes the count with
    // games of its own (the records already there change the seed).
    let mut torn = first.clone();
    torn.extend_from_slice(&[7; 13]);
    std::fs::write(&path, &torn).unwrap();
    let out = gensfen(&path, 80, 3, &["--append"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("13 bytes of a partial record"),
        "{}",
        stderr(&out)
    );
    let resumed = std::fs::read(&path).unwrap();
    assert_eq!(resumed.len(), 80 * RECORD_BYTES);
    assert_eq!(&resumed[..first.len()], &first[..]);
    assert_ne!(&resumed[first.len()..], &first[..30 * RECORD_BYTES]);

    // Already at the count: nothing to do.
    let out = gensfen(&path, 60, 3, &["--append"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&path).unwrap().len(), 80 * RECORD_BYTES);

    let out = gensfen(&path, 10, 3, &["--overwrite"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&path).unwrap().len(), 10 * RECORD_BYTES);
    std::fs::remove_file(path).ok();
}

#[test]
fn bad_options_and_unwritable_outputs_fail_with_a_message() {
    let path = temp("bad.bin");
    for (extra, expect) in [
        (
            &["--random-min-ply", "30", "--random-max-ply", "10"][..],
            "after their last",
        ),
        (&["--append", "--overwrite"][..], "cannot be used with"),
        (&["--depth", "3"][..], "cannot be used with"),
        (&["--eval-limit", "40000"][..], "eval-limit"),
        (&["--skip-noisy", "maybe"][..], "skip-noisy"),
        (
            &["--openings", "/nonexistent/openings.sfen"][..],
            "cannot read",
        ),
    ] {
        let out = gensfen(&path, 10, 1, extra);
        assert!(!out.status.success(), "{extra:?}");
        assert!(stderr(&out).contains(expect), "{extra:?}: {}", stderr(&out));
        assert!(!path.exists(), "{extra:?} created the output");
    }
    let out = tokin(&[
        "gensfen",
        "--output",
        path.to_str().unwrap(),
        "--count",
        "0",
    ]);
    assert!(!out.status.success() && stderr(&out).contains("count"));

    let missing_dir = temp("no-such-dir").join("out.bin");
    let out = gensfen(&missing_dir, 10, 1, &[]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot open"), "{}", stderr(&out));
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_fails_with_a_message() {
    let out = gensfen(Path::new("/dev/full"), 10, 1, &["--overwrite"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("writing /dev/full failed"), "{err}");
    assert!(err.contains("0 whole records"), "{err}");
}

#[test]
fn sfeninfo_counts_records_and_bad_ones() {
    let path = temp("info.bin");
    let out = gensfen(&path, 30, 2, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[RECORD_BYTES + 38] = 9; // record 1's result
    bytes.extend_from_slice(&[0; 5]);
    std::fs::write(&path, &bytes).unwrap();

    let out = tokin(&["sfeninfo", path.to_str().unwrap(), path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    let has = |prefix: &str| lines.iter().any(|l| l.starts_with(prefix));
    assert!(has("bad record: "), "{lines:?}");
    assert!(
        has("files: 2 read, 0 unreadable, 2 ending in a partial record (10 bytes)"),
        "{lines:?}"
    );
    assert!(
        has("records: 60 (2 bad: position 0, move 0, result 2)"),
        "{lines:?}"
    );
    assert!(has("results for the side to move: "), "{lines:?}");
    assert!(has("score "), "{lines:?}");

    let out = tokin(&["sfeninfo", "/nonexistent/data.bin"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("could not be read"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_file(path).ok();
}

#[test]
fn a_network_file_plays_the_games() {
    let net = temp("nn.bin");
    reference::ReferenceNet::random(2).write(&net);
    let (with_net, without) = (temp("net.bin"), temp("no-net.bin"));
    let limits = ["--max-plies", "120"];
    let evalfile = ["--max-plies", "120", "--evalfile", net.to_str().unwrap()];
    let out = gensfen(&with_net, 30, 4, &evalfile);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gensfen(&without, 30, 4, &limits);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_ne!(
        std::fs::read(&with_net).unwrap(),
        std::fs::read(&without).unwrap(),
        "the network changed nothing"
    );
    let bad_net_output = temp("bad-net.bin");
    let out = gensfen(
        &bad_net_output,
        30,
        4,
        &["--evalfile", "/nonexistent/nn.bin"],
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot open"), "{}", stderr(&out));
    assert!(
        !bad_net_output.exists(),
        "an output made before the evaluation was checked"
    );
    for p in [net, with_net, without] {
        std::fs::remove_file(p).ok();
    }
}

#[test]
fn shuffle_keeps_every_good_record_splits_and_refuses_what_it_should() {
    let (data, train, val) = (
        temp("shuffle-in.bin"),
        temp("shuffle-train.bin"),
        temp("shuffle-val.bin"),
    );
    let out = gensfen(&data, 600, 3, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut bytes = std::fs::read(&data).unwrap();
    bytes[5 * RECORD_BYTES + 38] = 9; // record 5's result: a bad record, dropped
    std::fs::write(&data, &bytes).unwrap();
    let input: Vec<&[u8]> = bytes.chunks(RECORD_BYTES).collect();
    let p = |path: &PathBuf| path.to_str().expect("utf-8 temp path").to_owned();
    let args = [
        "shuffle".to_owned(),
        p(&data),
        "--output".into(),
        p(&train),
        "--validation-output".into(),
        p(&val),
        "--validation".into(),
        "0.3".into(),
        "--seed".into(),
        "9".into(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = tokin(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("bad record (dropped): ")),
        "{lines:?}"
    );
    let (t, v) = (std::fs::read(&train).unwrap(), std::fs::read(&val).unwrap());
    assert_eq!(t.len() + v.len(), 599 * RECORD_BYTES);
    // Every output record is an input record, each good one once, and not in the input's order.
    let mut outputs: Vec<&[u8]> = t
        .chunks(RECORD_BYTES)
        .chain(v.chunks(RECORD_BYTES))
        .collect();
    let mut expected: Vec<&[u8]> = input
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 5)
        .map(|(_, r)| *r)
        .collect();
    assert_ne!(
        t.chunks(RECORD_BYTES).collect::<Vec<_>>(),
        expected[..t.len() / RECORD_BYTES]
    );
    outputs.sort_unstable();
    expected.sort_unstable();
    assert_eq!(outputs, expected);
    assert!(
        !v.is_empty(),
        "a validation part of 0.3 over three blocks came out empty"
    );

    // The same seed gives the same files.
    let (train2, val2) = (temp("shuffle-train2.bin"), temp("shuffle-val2.bin"));
    let mut again: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    again[3] = p(&train2);
    again[5] = p(&val2);
    let again: Vec<&str> = again.iter().map(String::as_str).collect();
    assert!(tokin(&again).status.success());
    assert_eq!(std::fs::read(&train2).unwrap(), t);
    assert_eq!(std::fs::read(&val2).unwrap(), v);

    // Refusals, each with nothing written: an existing output, an input as output, a split
    // without its file.
    let out = tokin(&args);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert!(stderr(&out).contains("--overwrite"), "{}", stderr(&out));
    let fresh = temp("shuffle-fresh.bin");
    let (data_s, fresh_s, val2_s) = (p(&data), p(&fresh), p(&val2));
    for bad in [
        &["--output", &data_s, "--overwrite"][..],
        &["--output", &fresh_s, "--validation", "0.1"],
        &[
            "--output",
            &fresh_s,
            "--validation-output",
            &val2_s,
            "--overwrite",
        ],
        &[
            "--output",
            &fresh_s,
            "--validation",
            "0.95",
            "--validation-output",
            &val2_s,
        ],
    ] {
        let out = tokin(&[&["shuffle", &data_s][..], bad].concat());
        assert!(!out.status.success(), "{bad:?} succeeded");
        assert!(!stderr(&out).is_empty(), "{bad:?}: no message");
        assert!(!fresh.exists(), "{bad:?} wrote {}", fresh.display());
    }
    assert_eq!(std::fs::read(&data).unwrap(), bytes, "an input was changed");
    for path in [data, train, val, train2, val2] {
        std::fs::remove_file(path).ok();
    }
}

fn relabel(files: &[&Path], output: &Path, extra: &[&str]) -> std::process::Output {
    let mut args: Vec<&str> = vec!["relabel"];
    args.extend(files.iter().map(|p| p.to_str().expect("utf-8 temp path")));
    args.extend_from_slice(&[
        "--output",
        output.to_str().expect("utf-8 temp path"),
        "--hash",
        "1",
    ]);
    args.extend_from_slice(extra);
    tokin(&args)
}

#[test]
fn relabel_keeps_all_but_score_and_move_whatever_the_threads_and_resumes_exactly() {
    let (data, one, two, resumed) = (
        temp("relabel-in.bin"),
        temp("relabel-1.bin"),
        temp("relabel-2.bin"),
        temp("relabel-resumed.bin"),
    );
    // 150 records: three batches, the last one partial.
    let out = gensfen(&data, 150, 7, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let input = std::fs::read(&data).unwrap();
    for (path, threads) in [(&one, "1"), (&two, "2")] {
        let out = relabel(&[&data], path, &["--depth", "3", "--threads", threads]);
        assert!(out.status.success(), "{}", stderr(&out));
        let lines = stdout_lines(&out);
        assert!(
            lines[0].starts_with("relabelled 150 records into ")
                && lines[0].contains("(it holds 150)"),
            "{lines:?}"
        );
    }
    let relabelled = std::fs::read(&one).unwrap();
    assert_eq!(
        relabelled,
        std::fs::read(&two).unwrap(),
        "the thread count changed the output"
    );
    assert_eq!(relabelled.len(), input.len());
    let mut scores_changed = 0;
    for (old, new) in input
        .chunks(RECORD_BYTES)
        .zip(relabelled.chunks(RECORD_BYTES))
    {
        assert_eq!(old[..32], new[..32], "the position changed");
        assert_eq!(
            old[36..39],
            new[36..39],
            "the game ply or the result changed"
        );
        scores_changed += usize::from(old[32..34] != new[32..34]);
    }
    assert!(
        scores_changed > 0,
        "depth 3 gave every record the score of 200 nodes"
    );
    assert_eq!(PsvReader::new([&one]).filter(Result::is_ok).count(), 150);

    // A killed run: 70 whole records and a torn one. --append completes it to the same file.
    let mut torn = relabelled[..70 * RECORD_BYTES].to_vec();
    torn.extend_from_slice(&[3; 11]);
    std::fs::write(&resumed, &torn).unwrap();
    let out = relabel(
        &[&data],
        &resumed,
        &["--depth", "3", "--threads", "2", "--append"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("11 bytes of a partial record"),
        "{}",
        stderr(&out)
    );
    // The six records of the unfinished second batch were searched after its first ones: they
    // are cut off and the batch is searched again from its start.
    assert!(
        stdout_lines(&out).iter().any(|l| l.contains(
            "64 already in the output, skipped (6 more of an unfinished batch of 64 cut off and searched again)"
        )),
        "{:?}",
        stdout_lines(&out)
    );
    assert_eq!(std::fs::read(&resumed).unwrap(), relabelled);
    for p in [data, one, two, resumed] {
        std::fs::remove_file(p).ok();
    }
}

#[test]
fn relabel_finds_the_mate_a_record_missed() {
    use tokin::core::{Position, Variant};
    use tokin::psv::{RecordResult, TrainingRecord, MATE_SCORE};
    tokin::core::attacks::init();
    // Black mates with G*5b (the gold on 5c guards it); the record says 5i4h and 0.
    let position = Position::from_sfen("4k4/9/4G4/9/9/9/9/9/4K4 b G 41", Variant::Shogi).unwrap();
    let record = TrainingRecord {
        best_move: position.parse_usi_move("5i4h").unwrap(),
        position,
        score: 0,
        game_ply: 40,
        result: RecordResult::Win,
    };
    let (data, output) = (temp("relabel-mate-in.bin"), temp("relabel-mate-out.bin"));
    std::fs::write(&data, record.encode().unwrap().0).unwrap();
    let out = relabel(&[&data], &output, &["--depth", "3", "--threads", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let got: Vec<TrainingRecord> = PsvReader::new([&output]).map(|r| r.unwrap()).collect();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].best_move.to_usi(), "G*5b");
    assert_eq!(got[0].score, MATE_SCORE - 1, "mate in 1 ply");
    assert_eq!((got[0].game_ply, got[0].result), (40, RecordResult::Win));
    for p in [data, output] {
        std::fs::remove_file(p).ok();
    }
}

#[test]
fn relabel_drops_bad_records_and_refuses_what_would_lose_data() {
    let (data, output) = (temp("relabel-bad-in.bin"), temp("relabel-bad-out.bin"));
    let out = gensfen(&data, 20, 2, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut bytes = std::fs::read(&data).unwrap();
    bytes[4 * RECORD_BYTES + 38] = 9; // record 4's result
    std::fs::write(&data, &bytes).unwrap();
    let out = relabel(&[&data], &output, &["--depth", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("bad record (dropped): ") && l.contains("record 4")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("(1 bad, dropped")),
        "{lines:?}"
    );
    let relabelled = std::fs::read(&output).unwrap();
    assert_eq!(relabelled.len(), 19 * RECORD_BYTES);

    for (extra, expect) in [
        (&["--depth", "1"][..], "already exists"),
        (&["--overwrite"][..], "required"),
        (
            &["--depth", "1", "--nodes", "100", "--overwrite"][..],
            "cannot be used with",
        ),
        (
            &["--depth", "1", "--append", "--overwrite"][..],
            "cannot be used with",
        ),
    ] {
        let out = relabel(&[&data], &output, extra);
        assert!(!out.status.success(), "{extra:?} succeeded");
        assert!(stderr(&out).contains(expect), "{extra:?}: {}", stderr(&out));
        assert_eq!(
            std::fs::read(&output).unwrap(),
            relabelled,
            "{extra:?} touched the output"
        );
    }
    let out = relabel(&[&data], &data, &["--depth", "1", "--append"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("both an input and the output"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(&data).unwrap(),
        bytes,
        "the input was changed"
    );

    // A missing input is refused before the output is opened, even with --overwrite.
    let missing = temp("relabel-missing.bin");
    let out = relabel(
        &[&data, &missing],
        &output,
        &["--depth", "1", "--overwrite"],
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot open"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&output).unwrap(),
        relabelled,
        "the output was touched"
    );
    for p in [data, output] {
        std::fs::remove_file(p).ok();
    }
}
