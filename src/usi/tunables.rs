//! The search parameters (`search::params`) as USI options, for a tuning build (`--features tune`).
//!
//! Each parameter is a spin option named as in the table, with its range; `usi_tunables` answers
//! with the table in the manifest format of ShogiArena's SPSA (`info string
//! shogiarena_tunables_json {...}` then `usi_tunablesok`), so a tuning run takes names, ranges and
//! steps from the engine rather than from a copy that could drift. A normal build declares none of
//! this: its parameters are constants.

use crate::search::params::{self, Param};
use std::fmt::Write as _;

/// SPSA's final learning rate for every parameter (`r_end`, the value fishtest uses): with each
/// parameter's `step` as its final perturbation `c_end`, one game pair moves a parameter by about
/// `r_end * c_end` per point of result.
pub const R_END: f64 = 0.002;

/// First token of the manifest line after `info string`.
pub const MANIFEST_TAG: &str = "shogiarena_tunables_json";

/// The `option` line of one parameter.
pub fn option_line(p: &Param) -> String {
    format!(
        "option name {} type spin default {} min {} max {}",
        p.name, p.value, p.min, p.max
    )
}

/// The manifest (one line of JSON, no spaces): schema `shogiarena.usi_tunables.v1`, one entry per
/// parameter with its default, range and schedule. Parameter names are ASCII identifiers, so they
/// need no JSON escaping.
pub fn manifest_json() -> String {
    let mut s = String::from(r#"{"schema_version":"shogiarena.usi_tunables.v1","tunables":["#);
    for (i, p) in params::TABLE.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            r#"{{"id":"{n}","option":"{n}","value_type":"int","encoding":"integer","default":{},"min":{},"max":{},"schedule":{{"c_end":{},"r_end":{R_END}}}}}"#,
            p.value,
            p.min,
            p.max,
            p.step,
            n = p.name
        );
    }
    s.push_str("]}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_are_spins_with_the_table_range() {
        let p = params::find("RFP_MARGIN").expect("a parameter");
        assert_eq!(
            option_line(p),
            "option name RFP_MARGIN type spin default 100 min 40 max 200"
        );
        for p in params::TABLE {
            let line = option_line(p);
            assert!(
                line.is_ascii() && line.split(' ').nth(3) == Some("type"),
                "{line}"
            );
        }
    }

    #[test]
    fn no_parameter_shadows_an_option() {
        for p in params::TABLE {
            assert_eq!(
                crate::usi::options::Options::lookup(p.name),
                None,
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn manifest_lists_every_parameter_once() {
        let json = manifest_json();
        assert!(json.is_ascii() && !json.contains(' '));
        assert!(json.starts_with(r#"{"schema_version":"shogiarena.usi_tunables.v1","tunables":[{"#));
        assert!(json.ends_with("}]}"));
        assert_eq!(json.matches(r#"{"id":"#).count(), params::TABLE.len());
        assert!(json.contains(
            r#"{"id":"LMR_DIV","option":"LMR_DIV","value_type":"int","encoding":"integer","default":225,"min":150,"max":350,"schedule":{"c_end":10,"r_end":0.002}}"#
        ));
        // Balanced braces and brackets: a truncated or doubled entry would break the count.
        assert_eq!(json.matches('{').count(), json.matches('}').count());
        assert_eq!(json.matches('[').count(), json.matches(']').count());
    }
}
