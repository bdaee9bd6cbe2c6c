//! `tokin learn` through the real binary: data from `tokin gensfen` trains a network the engine
//! then loads and plays with; a killed run resumes from its checkpoint; bad options and data are
//! refused with a reason; a validation file from `tokin shuffle` is the held-out part.

mod common;

use common::{run_tokin as tokin, Client, QUICK};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tokin-learn-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn data(at: &Path) -> PathBuf {
    let path = at.join("data.bin");
    let out = tokin(&[
        "gensfen",
        "--output",
        path.to_str().unwrap(),
        "--count",
        "600",
        "--nodes",
        "150",
        "--threads",
        "1",
        "--seed",
        "3",
        "--hash",
        "1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

fn learn(data: &Path, output: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "learn",
        data.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
        "--threads",
        "1",
        "--batch",
        "128",
    ];
    args.extend_from_slice(extra);
    tokin(&args)
}

/// The number that follows the last `marker` in `text`.
fn number_after(text: &str, marker: &str) -> f64 {
    let at = text
        .rfind(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in {text}"))
        + marker.len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after {marker:?} in {text}"))
}

fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_trained_network_loads_and_plays_and_a_run_resumes() {
    let d = dir("train");
    let data = data(&d);
    let net = d.join("nn.bin");
    let out = learn(&data, &net, &["--epochs", "1"]);
    assert!(out.status.success(), "{}", text(&out));
    let report = text(&out);
    assert!(report.contains("epoch 1: training loss"), "{report}");
    // 16 MB: the 64-wide shape.
    assert_eq!(std::fs::metadata(&net).unwrap().len(), 16_055_401);
    // Resuming goes on from epoch 1 to 2 (the checkpoint is beside the network).
    let out = learn(&data, &net, &["--epochs", "2", "--resume"]);
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(
        report.contains("resumed") && report.contains("epoch 2:"),
        "{report}"
    );
    assert!(!report.contains("epoch 1:"), "{report}");
    // ...but not with other factorisers than the run was trained with.
    let out = learn(
        &data,
        &net,
        &["--epochs", "3", "--resume", "--factorisers", "piece"],
    );
    assert!(!out.status.success());
    assert!(text(&out).contains("--factorisers all"), "{}", text(&out));
    // The next run starts from that network (--init): before its first step it is the network
    // the last run kept, so its epoch-0 validation loss is that network's, up to quantisation.
    let first = d.join("first.bin");
    let out = learn(&data, &first, &["--epochs", "1", "--validation", "0.5"]);
    let kept: f64 = number_after(&text(&out), "validation loss ");
    let tuned = d.join("tuned.bin");
    let init = ["--epochs", "1", "--validation", "0.5", "--init"];
    let out = learn(
        &data,
        &tuned,
        &[&init[..], &[first.to_str().unwrap()]].concat(),
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("starting from"), "{report}");
    let start: f64 = number_after(&report, "epoch 0: validation loss ");
    assert!((start - kept).abs() < 2e-3, "{start} vs {kept}: {report}");
    assert!(report.contains("(results alone "), "{report}");
    assert_eq!(std::fs::metadata(&tuned).unwrap().len(), 16_055_401);
    for (flags, says) in [
        (
            vec!["--arch", "256x2-32-32"],
            "is a HalfKP 64x2-32-32 network",
        ),
        (vec!["--init-fv-scale", "0"], "--init-fv-scale"),
        (vec!["--residual"], "is a whole-evaluation network"),
    ] {
        let mut all = vec!["--epochs", "1", "--init", net.to_str().unwrap()];
        all.extend(flags.iter().copied());
        let out = learn(&data, &d.join("refused.bin"), &all);
        assert!(!out.status.success(), "{flags:?}");
        assert!(text(&out).contains(says), "{flags:?}: {}", text(&out));
    }
    let out = learn(
        &data,
        &d.join("refused.bin"),
        &["--init", data.to_str().unwrap()],
    );
    assert!(!out.status.success());
    assert!(
        text(&out).contains("--init") && text(&out).contains("data.bin"),
        "{}",
        text(&out)
    );
    // The engine loads it and plays.
    let mut c = Client::spawn();
    c.send(&format!("setoption name EvalFile value {}", net.display()));
    c.send("isready");
    let lines = c.expect("readyok", Duration::from_secs(30));
    assert!(
        lines.iter().any(|l| l.contains("HalfKP 64x2-32-32")),
        "{lines:?}"
    );
    c.send("position startpos moves 7g7f");
    c.send("eval");
    c.read_until(|l| l.starts_with("info string eval "), QUICK, "eval");
    let (best, _, _) = c.go("go depth 4", Duration::from_secs(30));
    assert!(best.starts_with("bestmove "), "{best}");
    // A residual network: the engine says so and plays with it.
    let residual = d.join("residual.bin");
    let out = learn(&data, &residual, &["--epochs", "1", "--residual"]);
    assert!(out.status.success(), "{}", text(&out));
    c.send(&format!(
        "setoption name EvalFile value {}",
        residual.display()
    ));
    c.send("isready");
    let lines = c.expect("readyok", Duration::from_secs(30));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("residual (added to the hand-written evaluation)")),
        "{lines:?}"
    );
    let (best, _, _) = c.go("go depth 4", Duration::from_secs(30));
    assert!(best.starts_with("bestmove "), "{best}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_options_and_data_are_refused() {
    let d = dir("bad");
    let net = d.join("nn.bin");
    let missing = d.join("missing.bin");
    let out = learn(&missing, &net, &["--epochs", "1"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no training samples"), "{}", text(&out));
    let garbage = d.join("garbage.bin");
    std::fs::write(&garbage, [0xFFu8; 400]).unwrap();
    let out = learn(&garbage, &net, &["--epochs", "1"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("bad records"), "{}", text(&out));
    for (flags, says) in [
        (&["--arch", "128x2-32-32"][..], "the engine evaluates"),
        (&["--lambda", "1.5"][..], "--lambda"),
        (&["--epochs", "0"][..], "at least 1"),
        (&["--arch", "big"][..], "not a shape"),
        (&["--factorisers", "some"][..], "--factorisers"),
    ] {
        let out = learn(&garbage, &net, flags);
        assert!(!out.status.success(), "{flags:?}");
        assert!(text(&out).contains(says), "{flags:?}: {}", text(&out));
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_separate_validation_file_is_the_held_out_part() {
    let d = dir("validation-file");
    let data = data(&d);
    let (train, val) = (d.join("train.bin"), d.join("val.bin"));
    let out = tokin(&[
        "shuffle",
        data.to_str().unwrap(),
        "--output",
        train.to_str().unwrap(),
        "--validation",
        "0.5",
        "--validation-output",
        val.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let records = |p: &Path| std::fs::metadata(p).unwrap().len() / 40;
    let (n_train, n_val) = (records(&train), records(&val));
    assert!(n_train > 0 && n_val > 0, "{n_train} and {n_val}");
    let net = d.join("nn.bin");
    let val_arg = val.to_str().unwrap();
    let out = learn(
        &train,
        &net,
        &["--epochs", "1", "--validation-data", val_arg],
    );
    let report = text(&out);
    assert!(out.status.success(), "{report}");
    assert!(
        report.contains(&format!("{n_train} for training, {n_val} held out")),
        "{report}"
    );
    assert!(
        report.contains("validation loss of the hand-written evaluation"),
        "{report}"
    );
    // Both kinds of validation at once, or an empty validation file: refused.
    let out = learn(
        &train,
        &net,
        &["--validation", "0.1", "--validation-data", val_arg],
    );
    assert!(!out.status.success(), "{}", text(&out));
    let empty = d.join("empty.bin");
    std::fs::write(&empty, []).unwrap();
    let out = learn(
        &train,
        &net,
        &["--validation-data", empty.to_str().unwrap()],
    );
    assert!(!out.status.success());
    assert!(
        text(&out).contains("no samples in the validation data"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_dir_all(&d);
}
