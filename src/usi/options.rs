//! The USI option table: one declaration per option drives both the `option` lines sent at `usi`
//! and the parsing, checking and clamping of `setoption`.

use crate::search::{SearchConfig, TimeConfig};
use std::fmt;

/// Every option Tokin declares. The index is the option's row in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionId {
    UsiHash,
    UsiPonder,
    Threads,
    MultiPv,
    NetworkDelay,
    NetworkDelay2,
    MinimumThinkingTime,
    SlowMover,
    EnteringKingRule,
    MaxMovesToDraw,
    DepthLimit,
    NodesLimit,
    ResignValue,
    Contempt,
    ClearHash,
    UsiVariant,
    UseNnue,
    EvalDir,
    EvalFile,
    FvScale,
}

impl OptionId {
    pub const ALL: [OptionId; 20] = [
        OptionId::UsiHash,
        OptionId::UsiPonder,
        OptionId::Threads,
        OptionId::MultiPv,
        OptionId::NetworkDelay,
        OptionId::NetworkDelay2,
        OptionId::MinimumThinkingTime,
        OptionId::SlowMover,
        OptionId::EnteringKingRule,
        OptionId::MaxMovesToDraw,
        OptionId::DepthLimit,
        OptionId::NodesLimit,
        OptionId::ResignValue,
        OptionId::Contempt,
        OptionId::ClearHash,
        OptionId::UsiVariant,
        OptionId::UseNnue,
        OptionId::EvalDir,
        OptionId::EvalFile,
        OptionId::FvScale,
    ];

    /// The name as declared (no spaces: clients split `option` lines on whitespace).
    pub const fn name(self) -> &'static str {
        match self {
            OptionId::UsiHash => "USI_Hash",
            OptionId::UsiPonder => "USI_Ponder",
            OptionId::Threads => "Threads",
            OptionId::MultiPv => "MultiPV",
            OptionId::NetworkDelay => "NetworkDelay",
            OptionId::NetworkDelay2 => "NetworkDelay2",
            OptionId::MinimumThinkingTime => "MinimumThinkingTime",
            OptionId::SlowMover => "SlowMover",
            OptionId::EnteringKingRule => "EnteringKingRule",
            OptionId::MaxMovesToDraw => "MaxMovesToDraw",
            OptionId::DepthLimit => "DepthLimit",
            OptionId::NodesLimit => "NodesLimit",
            OptionId::ResignValue => "ResignValue",
            OptionId::Contempt => "Contempt",
            OptionId::ClearHash => "ClearHash",
            OptionId::UsiVariant => "USI_Variant",
            OptionId::UseNnue => "UseNNUE",
            OptionId::EvalDir => "EvalDir",
            OptionId::EvalFile => "EvalFile",
            OptionId::FvScale => "FV_SCALE",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// Names of the `EnteringKingRule` choices, in the order of `core`'s rule enum (none, 24, 27).
pub const ENTERING_KING_RULES: [&str; 3] = ["NoEnteringKing", "CSARule24", "CSARule27"];
/// `EvalDir`'s value for the evaluation built into the binary (YaneuraOu's spelling).
pub const INTERNAL_EVAL: &str = "<internal>";
/// Names of the `USI_Variant` choices, as `Variant::usi_name` spells them.
pub const VARIANTS: [&str; 3] = ["shogi", "heian", "heian8"];

/// The type and range of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    /// `default` is an index into `vars`.
    Combo {
        default: usize,
        vars: &'static [&'static str],
    },
    Button,
    /// Free text (a path). An empty default is declared as `<empty>`, as clients expect.
    String {
        default: &'static str,
    },
}

/// How an empty string option is written in `option` lines, and accepted in `setoption`.
pub const EMPTY_STRING: &str = "<empty>";

/// A current option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Spin(i64),
    Check(bool),
    /// Index into the combo's `vars`.
    Combo(usize),
    Button,
    String(String),
}

impl OptionKind {
    fn default_value(self) -> OptionValue {
        match self {
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Check { default } => OptionValue::Check(default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default),
            OptionKind::Button => OptionValue::Button,
            OptionKind::String { default } => OptionValue::String(default.to_string()),
        }
    }
}

/// Highest `Threads` value offered. More threads than cores only helps to test the pool; 256 keeps a
/// typo from spawning thousands of threads.
const THREADS_CAP: usize = 256;

/// The declaration of `id`. `hardware_threads` sizes the `Threads` range.
fn kind_of(id: OptionId, hardware_threads: usize) -> OptionKind {
    let spin = |default, min, max| OptionKind::Spin { default, min, max };
    match id {
        // 256 MB fills in well under a second and suits the short and medium games GUIs play; the
        // maximum is 64 GB.
        OptionId::UsiHash => spin(256, 1, 65536),
        OptionId::UsiPonder => OptionKind::Check { default: false },
        // Default 1 thread, as Stockfish does: a GUI game usually runs two engines (often pondering) on
        // one machine, and single-threaded search is reproducible. Users raise it to their core count.
        OptionId::Threads => spin(1, 1, (hardware_threads.max(1) * 4).min(THREADS_CAP) as i64),
        OptionId::MultiPv => spin(1, 1, 600),
        // The time-margin options keep the names and meanings Japanese GUIs know from YaneuraOu-style
        // engines: NetworkDelay is subtracted from Fischer/sudden-death time and movetime,
        // NetworkDelay2 from byoyomi; MinimumThinkingTime is a floor; SlowMover scales the planned
        // time in percent. The defaults are the search's (tuned for a GUI on the same machine).
        OptionId::NetworkDelay => spin(TimeConfig::default().network_delay, 0, 10_000),
        OptionId::NetworkDelay2 => spin(TimeConfig::default().network_delay2, 0, 10_000),
        OptionId::MinimumThinkingTime => {
            spin(TimeConfig::default().minimum_thinking_time, 0, 100_000)
        }
        OptionId::SlowMover => spin(TimeConfig::default().slow_mover, 1, 1000),
        OptionId::EnteringKingRule => OptionKind::Combo {
            default: 2,
            vars: &ENTERING_KING_RULES,
        },
        // 0 = no limit; otherwise the game is a draw after this many plies.
        OptionId::MaxMovesToDraw => spin(0, 0, 100_000),
        // 0 = no limit. Ranges stay within i32 because some GUIs store spins as 32-bit integers.
        OptionId::DepthLimit => spin(0, 0, 255),
        OptionId::NodesLimit => spin(0, 0, i32::MAX as i64),
        // 0 = never resign; otherwise resign when the best score is below -ResignValue.
        OptionId::ResignValue => spin(0, 0, 100_000),
        // Centipawns a draw costs the engine (negative: it seeks draws); the search's default.
        OptionId::Contempt => spin(SearchConfig::default().contempt as i64, -1000, 1000),
        OptionId::ClearHash => OptionKind::Button,
        OptionId::UsiVariant => OptionKind::Combo {
            default: 0,
            vars: &VARIANTS,
        },
        // The evaluation: a network file (EvalFile, the Stockfish family's name, wins when set),
        // else `nn.bin` in EvalDir (YaneuraOu's name and default meaning: `<internal>` is the
        // evaluation built into the binary); UseNNUE false plays the hand-written one.
        OptionId::UseNnue => OptionKind::Check { default: true },
        OptionId::EvalDir => OptionKind::String {
            default: INTERNAL_EVAL,
        },
        OptionId::EvalFile => OptionKind::String { default: "" },
        OptionId::FvScale => spin(crate::eval::nnue::DEFAULT_FV_SCALE as i64, 1, 128),
    }
}

/// What `setoption` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOutcome {
    /// The value was stored (possibly unchanged). `clamped_from` holds the requested spin value when it
    /// was outside the range and the stored one is the nearest bound.
    Set {
        id: OptionId,
        clamped_from: Option<i128>,
    },
    /// A button was pressed (any value is ignored).
    Pressed(OptionId),
}

/// Why a `setoption` was refused. The option keeps its previous value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown option '{0}' (ignored)")]
    Unknown(String),
    #[error("option {name} needs a value")]
    MissingValue { name: &'static str },
    #[error("option {name} expects an integer, got '{value}'")]
    NotANumber { name: &'static str, value: String },
    #[error("option {name} expects true or false, got '{value}'")]
    NotABool { name: &'static str, value: String },
    #[error("option {name} expects one of {}, got '{value}'", vars.join(", "))]
    NotAChoice {
        name: &'static str,
        value: String,
        vars: &'static [&'static str],
    },
}

/// The declared options and their current values.
#[derive(Clone, Debug)]
pub struct Options {
    kinds: [OptionKind; OptionId::ALL.len()],
    values: [OptionValue; OptionId::ALL.len()],
}

impl Options {
    /// All options at their defaults. `hardware_threads` is the machine's parallelism.
    pub fn new(hardware_threads: usize) -> Options {
        let kinds = OptionId::ALL.map(|id| kind_of(id, hardware_threads));
        let values = kinds.map(OptionKind::default_value);
        Options { kinds, values }
    }

    /// Options sized for this machine.
    pub fn for_this_machine() -> Options {
        Options::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    pub fn kind(&self, id: OptionId) -> OptionKind {
        self.kinds[id.index()]
    }

    /// Finds an option by name, ignoring ASCII case.
    pub fn lookup(name: &str) -> Option<OptionId> {
        OptionId::ALL
            .into_iter()
            .find(|id| id.name().eq_ignore_ascii_case(name))
    }

    /// The `option ...` lines for `usi`, in table order.
    pub fn usi_lines(&self) -> Vec<String> {
        OptionId::ALL
            .into_iter()
            .map(|id| {
                let name = id.name();
                match self.kind(id) {
                    OptionKind::Spin { default, min, max } => {
                        format!(
                            "option name {name} type spin default {default} min {min} max {max}"
                        )
                    }
                    OptionKind::Check { default } => {
                        format!("option name {name} type check default {default}")
                    }
                    OptionKind::Combo { default, vars } => {
                        let mut line =
                            format!("option name {name} type combo default {}", vars[default]);
                        for v in vars {
                            line.push_str(" var ");
                            line.push_str(v);
                        }
                        line
                    }
                    OptionKind::Button => format!("option name {name} type button"),
                    OptionKind::String { default } => {
                        let shown = if default.is_empty() {
                            EMPTY_STRING
                        } else {
                            default
                        };
                        format!("option name {name} type string default {shown}")
                    }
                }
            })
            .collect()
    }

    /// Applies `setoption name <name> [value <value>]`.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<SetOutcome, OptionError> {
        let id = Options::lookup(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let name = id.name();
        let kind = self.kind(id);
        if let OptionKind::Button = kind {
            return Ok(SetOutcome::Pressed(id));
        }
        let value = value.ok_or(OptionError::MissingValue { name })?;
        let mut clamped_from = None;
        let new = match kind {
            OptionKind::Spin { min, max, .. } => {
                let wanted = parse_integer(value).ok_or_else(|| OptionError::NotANumber {
                    name,
                    value: value.to_string(),
                })?;
                let v = wanted.clamp(min as i128, max as i128);
                if v != wanted {
                    clamped_from = Some(wanted);
                }
                OptionValue::Spin(v as i64)
            }
            OptionKind::Check { .. } => {
                if value.eq_ignore_ascii_case("true") {
                    OptionValue::Check(true)
                } else if value.eq_ignore_ascii_case("false") {
                    OptionValue::Check(false)
                } else {
                    return Err(OptionError::NotABool {
                        name,
                        value: value.to_string(),
                    });
                }
            }
            OptionKind::Combo { vars, .. } => OptionValue::Combo(
                vars.iter()
                    .position(|v| v.eq_ignore_ascii_case(value))
                    .ok_or_else(|| OptionError::NotAChoice {
                        name,
                        value: value.to_string(),
                        vars,
                    })?,
            ),
            OptionKind::String { .. } => {
                // Paths may hold spaces (the command keeps the value whole); `<empty>` is empty.
                let text = if value == EMPTY_STRING { "" } else { value };
                OptionValue::String(text.to_string())
            }
            OptionKind::Button => unreachable!("handled above"),
        };
        self.values[id.index()] = new;
        Ok(SetOutcome::Set { id, clamped_from })
    }

    /// The value of a spin option (0 for other kinds, which callers never ask for).
    pub fn spin(&self, id: OptionId) -> i64 {
        match self.values[id.index()] {
            OptionValue::Spin(v) => v,
            _ => 0,
        }
    }

    pub fn check(&self, id: OptionId) -> bool {
        matches!(self.values[id.index()], OptionValue::Check(true))
    }

    /// The value of a string option ("" for other kinds).
    pub fn string(&self, id: OptionId) -> &str {
        match &self.values[id.index()] {
            OptionValue::String(v) => v,
            _ => "",
        }
    }

    /// The chosen entry of a combo option.
    pub fn combo(&self, id: OptionId) -> &'static str {
        match (&self.values[id.index()], self.kind(id)) {
            (&OptionValue::Combo(i), OptionKind::Combo { vars, .. }) => vars[i],
            _ => "",
        }
    }

    /// Index of the chosen entry of a combo option.
    pub fn combo_index(&self, id: OptionId) -> usize {
        match self.values[id.index()] {
            OptionValue::Combo(i) => i,
            _ => 0,
        }
    }
}

/// A signed decimal integer of any length. Values beyond i128 saturate: they are clamped to the option
/// range afterwards anyway.
pub(crate) fn parse_integer(text: &str) -> Option<i128> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.parse::<i128>().unwrap_or(i128::MAX);
    Some(if negative { -magnitude } else { magnitude })
}

impl fmt::Display for OptionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_are_well_formed() {
        let opts = Options::new(8);
        let lines = opts.usi_lines();
        assert_eq!(lines.len(), OptionId::ALL.len());
        for line in &lines {
            let toks: Vec<&str> = line.split(' ').collect();
            assert!(line.is_ascii() && !line.contains("  "), "{line}");
            assert_eq!(&toks[..2], ["option", "name"]);
            assert_eq!(toks[3], "type", "option names have no spaces: {line}");
            // default/min/max/var are each followed by exactly one token that is not a keyword.
            for (i, t) in toks.iter().enumerate() {
                if ["default", "min", "max", "var"].contains(t) {
                    let next = toks.get(i + 1).expect(line);
                    assert!(!["default", "min", "max", "var"].contains(next), "{line}");
                }
            }
        }
        assert!(lines
            .contains(&"option name USI_Hash type spin default 256 min 1 max 65536".to_string()));
        assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 32".to_string()));
        assert!(lines.contains(
            &"option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule27"
                .to_string()
        ));
        assert!(lines.contains(
            &"option name USI_Variant type combo default shogi var shogi var heian var heian8"
                .to_string()
        ));
        assert!(lines.contains(&"option name ClearHash type button".to_string()));
        assert!(lines.contains(&"option name USI_Ponder type check default false".to_string()));
        assert_eq!(
            Options::new(1000).usi_lines()[2].rsplit(' ').next(),
            Some("256")
        );
    }

    #[test]
    fn setoption_case_insensitive_and_clamped() {
        let mut o = Options::new(2);
        assert_eq!(
            o.set("usi_hash", Some("1024")),
            Ok(SetOutcome::Set {
                id: OptionId::UsiHash,
                clamped_from: None
            })
        );
        assert_eq!(o.spin(OptionId::UsiHash), 1024);
        assert_eq!(
            o.set("MultiPV", Some("0")),
            Ok(SetOutcome::Set {
                id: OptionId::MultiPv,
                clamped_from: Some(0)
            })
        );
        assert_eq!(o.spin(OptionId::MultiPv), 1);
        let huge = "9".repeat(60);
        assert!(matches!(
            o.set("Threads", Some(&huge)),
            Ok(SetOutcome::Set {
                clamped_from: Some(_),
                ..
            })
        ));
        assert_eq!(o.spin(OptionId::Threads), 8);
        assert_eq!(
            o.set("USI_Hash", Some("-5"))
                .map(|_| o.spin(OptionId::UsiHash)),
            Ok(1)
        );
        assert_eq!(o.set("usi_ponder", Some("TRUE")).map(|_| ()), Ok(()));
        assert!(o.check(OptionId::UsiPonder));
        assert_eq!(
            o.set("entEringKingRule", Some("csarule24")).map(|_| ()),
            Ok(())
        );
        assert_eq!(o.combo(OptionId::EnteringKingRule), "CSARule24");
        assert_eq!(o.set("USI_Variant", Some("heian8")).map(|_| ()), Ok(()));
        assert_eq!(o.combo(OptionId::UsiVariant), "heian8");
        assert_eq!(
            o.set("clearhash", None),
            Ok(SetOutcome::Pressed(OptionId::ClearHash))
        );
        assert_eq!(
            o.set("ClearHash", Some("")),
            Ok(SetOutcome::Pressed(OptionId::ClearHash))
        );
    }

    #[test]
    fn variant_choices_are_the_variants() {
        let names: Vec<&str> = crate::core::Variant::ALL
            .iter()
            .map(|v| v.usi_name())
            .collect();
        assert_eq!(names, VARIANTS);
    }

    #[test]
    fn setoption_errors_keep_the_old_value() {
        let mut o = Options::new(2);
        assert!(matches!(
            o.set("BookFile", Some("")),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            o.set("USI_Hash", Some("")),
            Err(OptionError::NotANumber { .. })
        ));
        assert!(matches!(
            o.set("USI_Hash", Some("12 MB")),
            Err(OptionError::NotANumber { .. })
        ));
        assert!(matches!(
            o.set("USI_Hash", None),
            Err(OptionError::MissingValue { .. })
        ));
        assert_eq!(o.spin(OptionId::UsiHash), 256);
        assert!(matches!(
            o.set("USI_Ponder", Some("yes")),
            Err(OptionError::NotABool { .. })
        ));
        let e = o.set("USI_Variant", Some("chess")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "option USI_Variant expects one of shogi, heian, heian8, got 'chess'"
        );
        assert_eq!(o.combo(OptionId::UsiVariant), "shogi");
    }
}
