//! NNUE through the real binary: a standard-layout network written by an independent writer
//! (`common/nnue.rs`) is loaded with `EvalFile` / `EvalDir`, and the engine's `eval` must give the
//! independent implementation's number on every position; every kind of bad file gets a clear
//! `info string error` and the engine keeps serving with the evaluation it had.

mod common;
#[path = "common/nnue.rs"]
mod reference;

use common::{Client, QUICK};
use reference::ReferenceNet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;
use tokin::core::movegen::legal_moves;
use tokin::core::position::Position;
use tokin::core::Variant;

/// Loading 64 MB on a busy machine.
const LOAD: Duration = Duration::from_secs(60);

/// Cargo's scratch folder for integration tests: the files (64 MB each) are overwritten by the
/// next run instead of piling up.
fn scratch_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nnue");
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    })
}

/// The network, its file, and the file's bytes (shared by the tests of this binary).
fn network() -> &'static (ReferenceNet, PathBuf, Vec<u8>) {
    static NET: OnceLock<(ReferenceNet, PathBuf, Vec<u8>)> = OnceLock::new();
    NET.get_or_init(|| {
        let net = ReferenceNet::random(1);
        let dir = scratch_dir().join("eval");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("nn.bin");
        net.write(&path);
        let bytes = std::fs::read(&path).unwrap();
        (net, path, bytes)
    })
}

fn write_variant(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch_dir().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Positions with every kind of feature: openings, captures into hand, promotions, king walks, and
/// set-up positions with pieces missing from the standard set.
fn positions() -> Vec<String> {
    let mut out = vec![
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_string(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1".to_string(),
        "4k4/9/9/9/9/9/9/9/4K4 b 3Pr 1".to_string(),
        "8l/4g1k2/4pp1p1/6p1p/9/4P4/9/9/4K4 b RGSrb2g2s4n3l11p 1".to_string(),
        "K1+P+P+P+P3/1+P+P6/+P+P+P6/9/9/9/6ppp/6gk1/9 b RB2S2N2Lrb3g2s2n2l6p 1".to_string(),
    ];
    let mut seed = 12345u64;
    for _ in 0..6 {
        let mut pos = Position::startpos(Variant::Shogi);
        for ply in 0..140u32 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let list = moves.as_slice();
            let m = list
                .iter()
                .copied()
                .find(|&m| seed.is_multiple_of(3) && pos.is_capture(m))
                .unwrap_or(list[(seed % list.len() as u64) as usize]);
            pos.do_move(m);
            if ply.is_multiple_of(9) {
                out.push(pos.to_sfen());
            }
        }
    }
    out
}

fn load(c: &mut Client, option: &str, value: &str) -> Vec<String> {
    c.send(&format!("setoption name {option} value {value}"));
    c.send("isready");
    c.expect("readyok", LOAD)
}

fn eval(c: &mut Client, sfen: &str) -> i32 {
    c.send(&format!("position sfen {sfen}"));
    c.send("eval");
    let lines = c.read_until(|l| l.starts_with("info string eval "), QUICK, "eval");
    lines
        .last()
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a number")
}

#[test]
fn eval_matches_an_independent_implementation() {
    let (net, path, _) = network();
    let mut c = Client::spawn();
    c.handshake();
    let lines = load(&mut c, "EvalFile", path.to_str().unwrap());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string network ") && l.contains("HalfKP 256x2-32-32")),
        "{lines:?}"
    );
    let positions = positions();
    assert!(positions.len() > 60);
    let mut nonzero = 0;
    for sfen in &positions {
        let expected = net.evaluate(sfen, 16);
        assert_eq!(eval(&mut c, sfen), expected, "{sfen}");
        nonzero += usize::from(expected != 0);
    }
    assert!(
        nonzero > positions.len() / 2,
        "a network that says something"
    );
    // FV_SCALE changes the division, without reloading.
    c.send("setoption name FV_SCALE value 24");
    for sfen in positions.iter().take(10) {
        assert_eq!(eval(&mut c, sfen), net.evaluate(sfen, 24), "{sfen}");
    }
    // The engine plays with it.
    c.send("position startpos moves 7g7f 3c3d");
    let (best, _, _) = c.go("go depth 4", Duration::from_secs(30));
    assert!(best.starts_with("bestmove "), "{best}");
}

#[test]
fn evaldir_finds_nn_bin_and_use_nnue_false_plays_the_hand_written_evaluation() {
    let (net, path, _) = network();
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let hand_written = tokin::eval::evaluate(&Position::from_sfen(sfen, Variant::Shogi).unwrap());
    let mut c = Client::spawn();
    load(&mut c, "EvalDir", path.parent().unwrap().to_str().unwrap());
    assert_eq!(eval(&mut c, sfen), net.evaluate(sfen, 16));
    load(&mut c, "UseNNUE", "false");
    assert_eq!(eval(&mut c, sfen), hand_written);
    // Back on, the same file is used again.
    load(&mut c, "UseNNUE", "true");
    assert_eq!(eval(&mut c, sfen), net.evaluate(sfen, 16));
    // A file name inside EvalDir, as YaneuraOu reads the pair (ShogiArena sends them so).
    let mut c = Client::spawn();
    c.send(&format!(
        "setoption name EvalDir value {}",
        path.parent().unwrap().display()
    ));
    let lines = load(&mut c, "EvalFile", "nn.bin");
    let loaded = format!("info string network {}", path.display());
    assert!(lines.iter().any(|l| l.starts_with(&loaded)), "{lines:?}");
    assert_eq!(eval(&mut c, sfen), net.evaluate(sfen, 16));
}

#[test]
fn heian_does_not_use_the_network_and_says_so() {
    let (_, path, _) = network();
    let mut c = Client::spawn();
    c.send("setoption name USI_Variant value heian");
    let lines = load(&mut c, "EvalFile", path.to_str().unwrap());
    assert!(
        lines
            .iter()
            .any(|l| l.contains("has no network") && l.contains("not used")),
        "{lines:?}"
    );
    c.send("position startpos");
    let (best, _, _) = c.go("go depth 3", Duration::from_secs(30));
    assert!(best.starts_with("bestmove "), "{best}");
}

/// Every kind of bad file: a clear error naming the file and what is wrong; the engine keeps the
/// evaluation it had (here the network loaded first) and keeps playing.
#[test]
fn bad_files_are_refused_with_a_reason_and_the_engine_keeps_its_evaluation() {
    let (net, path, bytes) = network();
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let mut c = Client::spawn();
    load(&mut c, "EvalFile", path.to_str().unwrap());
    let good = net.evaluate(sfen, 16);
    let mut bad_version = bytes.clone();
    bad_version[0] ^= 0xFF;
    let mut trailing = bytes.clone();
    trailing.extend_from_slice(b"extra");
    let mut unknown = bytes[..1000].to_vec();
    unknown[4] ^= 1;
    let cases: Vec<(String, &str)> = vec![
        (
            scratch_dir().join("missing.bin").display().to_string(),
            "cannot open",
        ),
        (scratch_dir().display().to_string(), "is a directory"),
        (
            write_variant("empty.bin", &[]).display().to_string(),
            "too short",
        ),
        (
            write_variant("truncated.bin", &bytes[..bytes.len() - 100])
                .display()
                .to_string(),
            "truncated",
        ),
        (
            write_variant("header.bin", &bytes[..40])
                .display()
                .to_string(),
            "truncated",
        ),
        (
            write_variant("trailing.bin", &trailing)
                .display()
                .to_string(),
            "5 bytes follow",
        ),
        (
            write_variant("version.bin", &bad_version)
                .display()
                .to_string(),
            "version word",
        ),
        (
            write_variant("unknown.bin", &unknown).display().to_string(),
            "unknown architecture",
        ),
    ];
    for (file, reason) in &cases {
        let lines = load(&mut c, "EvalFile", file);
        let error = lines
            .iter()
            .find(|l| l.starts_with("info string error: "))
            .unwrap_or_else(|| panic!("no error for {file}: {lines:?}"));
        assert!(
            error.contains(file.as_str()) && error.contains(reason),
            "{error}"
        );
        assert!(
            error.contains("keeping the network loaded before"),
            "{error}"
        );
        assert_eq!(eval(&mut c, sfen), good, "{file}");
    }
    // An empty EvalDir names no folder.
    c.send("setoption name EvalFile value <empty>");
    let lines = load(&mut c, "EvalDir", "");
    assert!(
        lines.iter().any(|l| l.contains("error: EvalDir is empty")),
        "{lines:?}"
    );
    assert_eq!(eval(&mut c, sfen), good);
    // The engine still plays.
    c.send("position startpos");
    let (best, _, _) = c.go("go depth 3", Duration::from_secs(30));
    assert!(best.starts_with("bestmove "), "{best}");
}

#[test]
fn a_hash_mismatch_is_a_warning_and_the_file_is_read_by_its_size() {
    let (net, _, bytes) = network();
    let mut other = bytes.clone();
    other[4..8].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    let path = write_variant("other-hash.bin", &other);
    let mut c = Client::spawn();
    let lines = load(&mut c, "EvalFile", path.to_str().unwrap());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string warning: ") && l.contains("0x12345678")),
        "{lines:?}"
    );
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    assert_eq!(eval(&mut c, sfen), net.evaluate(sfen, 16));
}

#[test]
fn the_bench_and_analyse_run_with_a_network_file() {
    let (_, path, _) = network();
    let out = common::run_tokin(&[
        "bench",
        "--depth",
        "3",
        "--evalfile",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let lines = common::stdout_lines(&out);
    assert!(
        lines.iter().any(|l| l.starts_with("Nodes searched: ")),
        "{lines:?}"
    );
    let out = common::run_tokin(&[
        "analyse",
        "--depth",
        "3",
        "--evalfile",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(common::stdout_lines(&out)
        .last()
        .unwrap()
        .starts_with("bestmove "));
    // Without a file the built-in network plays, with --hand-written the hand-written evaluation
    // (another search: another count), and the USI `bench` runs the built-in network too.
    let nodes = |args: &[&str]| {
        let out = common::run_tokin(args);
        assert!(out.status.success(), "{out:?}");
        common::stdout_lines(&out)
            .into_iter()
            .find(|l| l.starts_with("Nodes searched: "))
            .expect("a node count")
    };
    let built_in = nodes(&["bench", "--depth", "4"]);
    assert_ne!(
        built_in,
        nodes(&["bench", "--depth", "4", "--hand-written"])
    );
    let mut c = Client::spawn();
    c.send("bench 4");
    let lines = c.read_until(
        |l| l.starts_with("info string Nodes searched"),
        Duration::from_secs(60),
        "bench",
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some(format!("info string {built_in}").as_str())
    );
    // A bad file is an error for a one-shot command.
    let bad = scratch_dir().join("nothing-here.bin");
    let out = common::run_tokin(&["bench", "--evalfile", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nothing-here.bin") && err.contains("cannot open"),
        "{err}"
    );
}

/// With no file the built-in network plays: `isready` says so, `eval` is the hand-written
/// evaluation corrected by the network, and `UseNNUE false` (and Heian) play the hand-written
/// evaluation alone.
#[test]
fn the_built_in_network_plays_by_default() {
    let sfen = "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P1P/PPSP1P3/2G2S1R1/LN2KG1NL w Bbp 38";
    let hand_written = tokin::eval::evaluate(&Position::from_sfen(sfen, Variant::Shogi).unwrap());
    let mut c = Client::spawn();
    c.send("isready");
    let lines = c.expect("readyok", LOAD);
    assert!(
        lines.iter().any(
            |l| l.starts_with("info string built-in network: HalfKP 64x2-32-32")
                && l.contains("residual")
        ),
        "{lines:?}"
    );
    let corrected = eval(&mut c, sfen);
    assert_ne!(corrected, hand_written);
    assert!(
        (corrected - hand_written).abs() < 1000,
        "{corrected} against {hand_written}"
    );
    let (best, _, _) = c.go("go depth 4", Duration::from_secs(30));
    assert!(best.starts_with("bestmove "), "{best}");
    let lines = load(&mut c, "UseNNUE", "false");
    assert!(!lines.iter().any(|l| l.contains("network")), "{lines:?}");
    assert_eq!(eval(&mut c, sfen), hand_written);
    load(&mut c, "UseNNUE", "true");
    assert_eq!(eval(&mut c, sfen), corrected);
    let lines = load(&mut c, "USI_Variant", "heian");
    assert!(!lines.iter().any(|l| l.contains("network")), "{lines:?}");
}
