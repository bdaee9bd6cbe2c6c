//! Which evaluation the options ask for, and loading it. A network file is read at `isready` (never
//! before `usiok`: clients time the handshake), once per change of the options, and shared
//! read-only by every search thread. A file that cannot be used leaves the evaluation as it was and
//! says why; the engine keeps serving.
//!
//! The options, with the names players already set:
//! - `EvalFile` (the Stockfish family's): a network file; wins when set (a relative name is looked
//!   up inside `EvalDir` when that names a folder, as YaneuraOu's builds with the option do);
//! - `EvalDir` (YaneuraOu's): a folder holding `nn.bin`; `<internal>` (the default) is the
//!   evaluation built into the binary: the built-in network (`nnue::builtin`), a residual one
//!   over the hand-written evaluation;
//! - `FV_SCALE`: the network's output is divided by it (YaneuraOu's default 16);
//! - `UseNNUE`: false plays the hand-written evaluation instead of any network, built-in or from
//!   a file.
//!
//! Heian has no network: with a Heian variant the files and the built-in network are not used
//! (the hand-written evaluation plays, and the engine says so when a file was configured).

use crate::core::Variant;
use crate::eval::nnue::{self, AnyNetwork};
use crate::search::Evaluation;
use crate::usi::options::{OptionId, Options, INTERNAL_EVAL};
use std::path::{Path, PathBuf};

/// What the options ask for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// The hand-written evaluation; with the reason a configured file is not used, if one is.
    HandWritten { unused_file: Option<String> },
    /// The network built into the binary.
    BuiltIn,
    /// The network in this file.
    File(PathBuf),
    /// The options name no usable source (why).
    Bad(String),
}

impl Request {
    pub fn from_options(options: &Options, variant: Variant) -> Request {
        let file = options.string(OptionId::EvalFile);
        let dir = options.string(OptionId::EvalDir);
        if !options.check(OptionId::UseNnue) {
            return Request::HandWritten { unused_file: None };
        }
        let folder = (!dir.is_empty() && dir != INTERNAL_EVAL).then(|| Path::new(dir));
        let configured = if !file.is_empty() {
            // YaneuraOu's composite reading (a file name inside EvalDir), which match runners
            // such as ShogiArena rely on, when EvalDir names a folder; else a path of its own.
            let path = Path::new(file);
            match folder {
                Some(folder) if path.is_relative() => Some(resolve(&folder.join(path))),
                _ => Some(resolve(path)),
            }
        } else if dir == INTERNAL_EVAL {
            None
        } else if dir.is_empty() {
            return Request::Bad(format!(
                "EvalDir is empty: give a folder holding {}, or {INTERNAL_EVAL} for the built-in \
                 evaluation",
                nnue::FILE_NAME
            ));
        } else {
            Some(resolve(&Path::new(dir).join(nnue::FILE_NAME)))
        };
        match (configured, variant) {
            (Some(path), Variant::Shogi) => Request::File(path),
            (None, Variant::Shogi) => Request::BuiltIn,
            (None, _) => Request::HandWritten { unused_file: None },
            (Some(path), v) => Request::HandWritten {
                unused_file: Some(format!(
                    "{v} has no network: {} is not used; the hand-written evaluation plays",
                    path.display()
                )),
            },
        }
    }
}

/// A relative path as given when it exists there, else beside the binary (where YaneuraOu looks
/// for its EvalDir), else as given (the error will name it).
fn resolve(path: &Path) -> PathBuf {
    if path.is_absolute() || path.exists() {
        return path.to_path_buf();
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(path)))
        .filter(|beside| beside.exists())
        .unwrap_or_else(|| path.to_path_buf())
}

/// What loading had to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    Info(String),
    Warning(String),
    /// The request could not be met; the evaluation stayed as it was.
    Error(String),
}

/// The evaluation in use and where it came from.
#[derive(Default)]
pub struct EvalLoader {
    /// The last request met, or attempted.
    last: Option<Request>,
    /// The last attempt failed: the next `prepare` tries again.
    failed: bool,
    network: Option<AnyNetwork>,
    evaluation: Evaluation,
}

impl EvalLoader {
    pub fn new() -> EvalLoader {
        EvalLoader::default()
    }

    /// The evaluation searches use now.
    pub fn current(&self) -> &Evaluation {
        &self.evaluation
    }

    /// Brings the evaluation in line with the options (at `isready`). Returns what the client
    /// should be told.
    pub fn prepare(&mut self, options: &Options, variant: Variant) -> Vec<Notice> {
        let request = Request::from_options(options, variant);
        let fv_scale = options.spin(OptionId::FvScale) as i32;
        let mut notices = Vec::new();
        if self.last.as_ref() != Some(&request) || self.failed {
            self.failed = false;
            match &request {
                Request::HandWritten { unused_file } => {
                    self.network = None;
                    if let Some(text) = unused_file {
                        notices.push(Notice::Info(text.clone()));
                    }
                }
                Request::BuiltIn => match nnue::builtin::network() {
                    Ok(network) => {
                        notices.push(Notice::Info(format!(
                            "built-in network: {}",
                            describe(&network)
                        )));
                        self.network = Some(network);
                    }
                    Err(e) => {
                        self.failed = true;
                        notices.push(Notice::Error(format!("{e}; keeping {}", self.kept())));
                    }
                },
                Request::Bad(why) => {
                    self.failed = true;
                    notices.push(Notice::Error(format!("{why}; keeping {}", self.kept())));
                }
                Request::File(path) => match AnyNetwork::load(path) {
                    Ok((network, warnings)) => {
                        notices.push(Notice::Info(format!(
                            "network {}: {}",
                            path.display(),
                            describe(&network)
                        )));
                        notices.extend(
                            warnings
                                .into_iter()
                                .map(|w| Notice::Warning(format!("{}: {w}", path.display()))),
                        );
                        self.network = Some(network);
                    }
                    Err(e) => {
                        self.failed = true;
                        notices.push(Notice::Error(format!("{e}; keeping {}", self.kept())));
                    }
                },
            }
            self.last = Some(request);
        }
        self.evaluation = match &self.network {
            Some(network) => Evaluation::Nnue {
                network: network.clone(),
                fv_scale,
            },
            None => Evaluation::HandWritten,
        };
        notices
    }

    /// What plays while a request fails.
    fn kept(&self) -> String {
        match &self.network {
            Some(n) => format!("the network loaded before ({})", n.architecture()),
            None => "the hand-written evaluation".to_string(),
        }
    }

    /// The static evaluation of `pos` as the `eval` command reports it: with a network,
    /// YaneuraOu's number (the output divided by FV_SCALE, truncated toward zero, unclamped).
    pub fn evaluate(&self, pos: &crate::core::Position) -> EvalReport {
        match &self.evaluation {
            Evaluation::Nnue { network, fv_scale } => match network.evaluate(pos, *fv_scale) {
                Some(score) => EvalReport::Nnue(score),
                None => EvalReport::HandWrittenWithoutKings(crate::eval::evaluate(pos)),
            },
            Evaluation::HandWritten => EvalReport::HandWritten(crate::eval::evaluate(pos)),
        }
    }
}

/// A network's shape, instruction set and kind, for the client.
fn describe(network: &AnyNetwork) -> String {
    format!(
        "{}, {}{}",
        network.architecture(),
        network.isa().name(),
        if network.residual() {
            ", residual (added to the hand-written evaluation)"
        } else {
            ""
        }
    )
}

/// What `eval` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalReport {
    Nnue(i32),
    HandWritten(i32),
    /// A network is loaded but the position lacks a king, which the network cannot evaluate.
    HandWrittenWithoutKings(i32),
}
