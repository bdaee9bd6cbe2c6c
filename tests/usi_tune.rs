//! The search parameters as USI options: declared, listed for SPSA and applied in a tuning build
//! (`cargo test --features tune`), absent from a normal one.

mod common;

use common::*;
use tokin::search::params::TABLE;

/// The `option` lines that stand for search parameters.
fn parameter_lines(handshake: &[String]) -> Vec<String> {
    handshake
        .iter()
        .filter(|l| {
            l.split(' ')
                .nth(2)
                .is_some_and(|name| TABLE.iter().any(|p| p.name == name))
        })
        .cloned()
        .collect()
}

/// The node count `bench` reports at `depth`.
#[cfg(feature = "tune")]
fn bench_nodes(c: &mut Client, depth: u32) -> u64 {
    c.send(&format!("bench {depth}"));
    let lines = c.read_until(
        |l| l.starts_with("info string Nodes searched: "),
        std::time::Duration::from_secs(120),
        "bench",
    );
    let last = lines.last().cloned().unwrap_or_default();
    last.rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {last:?}"))
}

#[cfg(not(feature = "tune"))]
#[test]
fn a_normal_build_declares_no_parameters() {
    let mut c = Client::spawn();
    let lines = c.handshake();
    assert_eq!(parameter_lines(&lines), Vec::<String>::new());
    c.send("usi_tunables");
    c.expect(
        "info string error: usi_tunables: this build has no tunable parameters (build with --features tune)",
        QUICK,
    );
    c.send("setoption name LMR_BASE value 100");
    c.expect(
        "info string warning: unknown option 'LMR_BASE' (ignored)",
        QUICK,
    );
    c.sync();
}

#[cfg(feature = "tune")]
#[test]
fn a_tuning_build_declares_every_parameter_with_its_range() {
    let mut c = Client::spawn();
    let lines = c.handshake();
    let expected: Vec<String> = TABLE
        .iter()
        .map(|p| {
            format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.value, p.min, p.max
            )
        })
        .collect();
    assert_eq!(parameter_lines(&lines), expected);

    c.send("usi_tunables");
    let got = c.expect("usi_tunablesok", QUICK);
    let manifest: Vec<&String> = got
        .iter()
        .filter(|l| l.starts_with("info string shogiarena_tunables_json {"))
        .collect();
    assert_eq!(manifest.len(), 1, "{got:?}");
    for p in TABLE {
        let entry = format!(
            r#"{{"id":"{n}","option":"{n}","value_type":"int","encoding":"integer","default":{},"min":{},"max":{},"schedule":{{"c_end":{},"r_end":0.002}}}}"#,
            p.value,
            p.min,
            p.max,
            p.step,
            n = p.name
        );
        assert!(manifest[0].contains(&entry), "{} missing", p.name);
    }
}

/// Setting a parameter changes what the search does (the bench's node count), and setting it back
/// restores the default behaviour; out-of-range values are clamped with a notice, bad ones refused.
#[cfg(feature = "tune")]
#[test]
fn setting_a_parameter_changes_the_search() {
    let mut c = Client::spawn();
    c.sync();
    let default = bench_nodes(&mut c, 6);
    c.send("setoption name lmr_base value 150");
    c.sync();
    let changed = bench_nodes(&mut c, 6);
    assert_ne!(changed, default, "LMR_BASE 150 searched the same tree");
    c.send("setoption name LMR_BASE value 75");
    c.sync();
    assert_eq!(bench_nodes(&mut c, 6), default);

    c.send("setoption name RFP_MARGIN value 900");
    c.expect(
        "info string RFP_MARGIN value 900 is out of range; using 200",
        QUICK,
    );
    c.send("setoption name RFP_MARGIN value much");
    c.expect(
        "info string error: option RFP_MARGIN expects an integer, got 'much'",
        QUICK,
    );
    c.sync();
}
