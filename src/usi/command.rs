//! One line of USI input parsed into a typed [`Command`].
//!
//! Pure text handling: nothing here knows the position, so moves stay text until the engine checks
//! them against the board (a move is only "illegal" relative to a position). Tokens are separated by
//! any run of ASCII whitespace, which also absorbs CRLF endings and leading/trailing/multiple spaces.

use crate::core::movegen::MAX_PERFT_DEPTH;
use crate::search::Limits;
use std::fmt;

/// Longest piece of client text quoted back in an error message, so a line of megabytes of garbage
/// produces a one-line answer.
const MAX_QUOTE: usize = 40;

/// Client text quoted in an error message, shortened to [`MAX_QUOTE`] characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quoted(pub String);

impl Quoted {
    pub fn new(text: &str) -> Quoted {
        Quoted(text.to_string())
    }
}

impl fmt::Display for Quoted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.chars().count();
        if n <= MAX_QUOTE {
            write!(f, "'{}'", self.0)
        } else {
            let head: String = self.0.chars().take(MAX_QUOTE).collect();
            write!(f, "'{head}...' ({n} characters)")
        }
    }
}

/// Where `position` starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    /// The selected variant's start position.
    StartPos,
    /// SFEN text (board, side, hands, optional move number), validated by the engine.
    Sfen(String),
}

/// `go mate` limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLimit {
    Infinite,
    /// Milliseconds.
    Time(i64),
}

/// What a `go` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Go {
    /// A normal search. `searchmoves` are still text (checked against the position by the engine);
    /// `limits.searchmoves` is left empty here.
    Search {
        limits: Limits,
        searchmoves: Vec<String>,
    },
    /// `go mate ...`: answered with `checkmate ...`, never `bestmove`.
    Mate(MateLimit),
    /// `go perft N`: debug move-path count.
    Perft(u32),
}

/// `gameover` result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Lose,
    Draw,
}

/// A parsed USI line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Usi,
    IsReady,
    /// `value` is `None` when the line has no `value` token (buttons), `Some("")` for `value ` with
    /// nothing after it.
    SetOption {
        name: String,
        value: Option<String>,
    },
    UsiNewGame,
    Position {
        base: PositionBase,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    /// `clock` carries btime/wtime/binc/winc/byoyomi when the client sent them. `warning` is set when
    /// part of the clock could not be read: the ponderhit itself must still happen, or the client
    /// waits for a `bestmove` forever.
    PonderHit {
        clock: Option<Limits>,
        warning: Option<CommandError>,
    },
    /// `result` is `None` for a bare `gameover` (or an unknown result word, which is not worth
    /// refusing: the point of the command is to stop).
    GameOver {
        result: Option<GameResult>,
    },
    Quit,
    /// Debug: print the position.
    Display,
    /// Debug: the static evaluation of the position (YaneuraOu's `eval`/`e`).
    Eval,
    /// Debug: the fixed benchmark.
    Bench {
        depth: Option<u32>,
    },
    /// `usi_tunables`: a tuning build lists its search parameters for ShogiArena's SPSA.
    UsiTunables,
}

/// Why a line is not a command we can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("unknown command {0}")]
    Unknown(Quoted),
    #[error("{command}: missing {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    #[error("{command}: {key} expects a number, got {token}")]
    NotANumber {
        command: &'static str,
        key: String,
        token: Quoted,
    },
    #[error("{command}: unexpected {token}")]
    Unexpected {
        command: &'static str,
        token: Quoted,
    },
    #[error("{command}: {key} {value} is over the limit of {max}")]
    OverLimit {
        command: &'static str,
        key: &'static str,
        value: u64,
        max: u64,
    },
}

impl CommandError {
    /// The command the line named, when it named a known one.
    pub fn command(&self) -> Option<&'static str> {
        match self {
            CommandError::Unknown(_) => None,
            CommandError::Missing { command, .. }
            | CommandError::NotANumber { command, .. }
            | CommandError::Unexpected { command, .. }
            | CommandError::OverLimit { command, .. } => Some(command),
        }
    }
}

/// Splits on ASCII whitespace, remembering where each token starts (setoption values need the raw rest
/// of the line).
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, b) in line.bytes().enumerate() {
        if b.is_ascii_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// Parses one input line. `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let toks = tokens(line);
    let Some(&(_, head)) = toks.first() else {
        return Ok(None);
    };
    let args: Vec<&str> = toks[1..].iter().map(|&(_, t)| t).collect();
    let command = match head {
        "usi" => Command::Usi,
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(line, &toks)?,
        "usinewgame" => Command::UsiNewGame,
        "position" => parse_position(&args)?,
        "go" => Command::Go(parse_go(&args)?),
        "stop" => Command::Stop,
        "ponderhit" => parse_ponderhit(&args),
        "gameover" => Command::GameOver {
            result: match args.first().copied() {
                Some("win") => Some(GameResult::Win),
                Some("lose") => Some(GameResult::Lose),
                Some("draw") => Some(GameResult::Draw),
                _ => None,
            },
        },
        "quit" => Command::Quit,
        "usi_tunables" => Command::UsiTunables,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => Command::Bench {
            depth: match args.first() {
                Some(t) => Some(number("bench", "depth", t)?),
                None => None,
            },
        },
        other => return Err(CommandError::Unknown(Quoted::new(other))),
    };
    Ok(Some(command))
}

/// `setoption name <N> [value <V>]`. The name is the tokens between `name` and `value` joined by one
/// space (real option names have none); the value is the raw rest of the line after the `value` token,
/// trimmed at both ends, inner spacing kept (file paths may contain spaces).
fn parse_setoption(line: &str, toks: &[(usize, &str)]) -> Result<Command, CommandError> {
    const CMD: &str = "setoption";
    match toks.get(1) {
        Some(&(_, "name")) => {}
        Some(&(_, other)) => {
            return Err(CommandError::Unexpected {
                command: CMD,
                token: Quoted::new(other),
            })
        }
        None => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "'name'",
            })
        }
    }
    let rest = &toks[2..];
    let value_at = rest.iter().position(|&(_, t)| t == "value");
    let name_toks = &rest[..value_at.unwrap_or(rest.len())];
    if name_toks.is_empty() {
        return Err(CommandError::Missing {
            command: CMD,
            what: "option name",
        });
    }
    let name = name_toks
        .iter()
        .map(|&(_, t)| t)
        .collect::<Vec<_>>()
        .join(" ");
    let value = value_at.map(|i| {
        let (start, tok) = rest[i];
        line[start + tok.len()..].trim().to_string()
    });
    Ok(Command::SetOption { name, value })
}

/// `position startpos|sfen <SFEN> [moves m1 m2 ...]`.
fn parse_position(args: &[&str]) -> Result<Command, CommandError> {
    const CMD: &str = "position";
    let moves_at = args.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let base = match head.first().copied() {
        Some("startpos") => {
            if let Some(extra) = head.get(1) {
                return Err(CommandError::Unexpected {
                    command: CMD,
                    token: Quoted::new(extra),
                });
            }
            PositionBase::StartPos
        }
        Some("sfen") => {
            if head.len() < 2 {
                return Err(CommandError::Missing {
                    command: CMD,
                    what: "SFEN after 'sfen'",
                });
            }
            PositionBase::Sfen(head[1..].join(" "))
        }
        Some(other) => {
            return Err(CommandError::Unexpected {
                command: CMD,
                token: Quoted::new(other),
            })
        }
        None => {
            return Err(CommandError::Missing {
                command: CMD,
                what: "'startpos' or 'sfen'",
            })
        }
    };
    Ok(Command::Position {
        base,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn number<T: std::str::FromStr>(
    command: &'static str,
    key: &str,
    token: &str,
) -> Result<T, CommandError> {
    token.parse().map_err(|_| CommandError::NotANumber {
        command,
        key: key.to_string(),
        token: Quoted::new(token),
    })
}

/// Reads the value after a `go`/`ponderhit` key.
fn value<'a, T: std::str::FromStr>(
    command: &'static str,
    key: &str,
    it: &mut impl Iterator<Item = &'a str>,
) -> Result<T, CommandError> {
    match it.next() {
        Some(token) => number(command, key, token),
        None => Err(CommandError::NotANumber {
            command,
            key: key.to_string(),
            token: Quoted::new(""),
        }),
    }
}

/// Applies one clock key (btime wtime binc winc byoyomi) to `limits`. `Ok(false)` when `key` is not a
/// clock key.
fn clock_key<'a>(
    command: &'static str,
    key: &str,
    it: &mut impl Iterator<Item = &'a str>,
    limits: &mut Limits,
) -> Result<bool, CommandError> {
    match key {
        "btime" => limits.time[0] = Some(value(command, key, it)?),
        "wtime" => limits.time[1] = Some(value(command, key, it)?),
        "binc" => limits.inc[0] = value(command, key, it)?,
        "winc" => limits.inc[1] = value(command, key, it)?,
        "byoyomi" => limits.byoyomi = value(command, key, it)?,
        _ => return Ok(false),
    }
    Ok(true)
}

const GO_KEYWORDS: [&str; 14] = [
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
    "perft",
    "movestogo",
];

/// `go` with any of its arguments. A later duplicate key overrides an earlier one. A non-number or an
/// unknown word rejects the whole `go`: searching with a half-understood limit could lose on time.
fn parse_go(args: &[&str]) -> Result<Go, CommandError> {
    const CMD: &str = "go";
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut mate = None;
    let mut perft = None;
    let mut it = args.iter().copied().peekable();
    while let Some(key) = it.next() {
        if clock_key(CMD, key, &mut it, &mut limits)? {
            continue;
        }
        match key {
            "movetime" => limits.movetime = Some(value(CMD, key, &mut it)?),
            "depth" => limits.depth = Some(value(CMD, key, &mut it)?),
            "nodes" => limits.nodes = Some(value(CMD, key, &mut it)?),
            // UCI's moves-to-go has no meaning in shogi time controls; accepted and ignored.
            "movestogo" => {
                let _: i64 = value(CMD, key, &mut it)?;
            }
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "perft" => {
                let depth: u32 = value(CMD, key, &mut it)?;
                if depth > MAX_PERFT_DEPTH {
                    return Err(CommandError::OverLimit {
                        command: CMD,
                        key: "perft",
                        value: depth.into(),
                        max: MAX_PERFT_DEPTH.into(),
                    });
                }
                perft = Some(depth);
            }
            "mate" => {
                mate = Some(match it.peek().copied() {
                    Some("infinite") => {
                        it.next();
                        MateLimit::Infinite
                    }
                    Some(t) if !GO_KEYWORDS.contains(&t) => {
                        it.next();
                        MateLimit::Time(number(CMD, "mate", t)?)
                    }
                    // Bare `go mate`: no limit given, search until stop.
                    _ => MateLimit::Infinite,
                })
            }
            "searchmoves" => {
                while let Some(m) = it.next_if(|t| !GO_KEYWORDS.contains(t)) {
                    searchmoves.push(m.to_string());
                }
            }
            other => {
                return Err(CommandError::Unexpected {
                    command: CMD,
                    token: Quoted::new(other),
                })
            }
        }
    }
    Ok(if let Some(depth) = perft {
        Go::Perft(depth)
    } else if let Some(mate) = mate {
        Go::Mate(mate)
    } else {
        Go::Search {
            limits,
            searchmoves,
        }
    })
}

/// `ponderhit [btime T] [wtime T] [binc T] [winc T] [byoyomi T]` (the clock part is a ShogiHome
/// extension). Never fails: a bad clock becomes a warning and the ponderhit still counts.
fn parse_ponderhit(args: &[&str]) -> Command {
    const CMD: &str = "ponderhit";
    let mut limits = Limits::default();
    let mut it = args.iter().copied();
    let mut any = false;
    let mut warning = None;
    while let Some(key) = it.next() {
        match clock_key(CMD, key, &mut it, &mut limits) {
            Ok(true) => any = true,
            Ok(false) => {
                warning = Some(CommandError::Unexpected {
                    command: CMD,
                    token: Quoted::new(key),
                });
                break;
            }
            Err(e) => {
                warning = Some(e);
                break;
            }
        }
    }
    Command::PonderHit {
        clock: (any && warning.is_none()).then_some(limits),
        warning,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    fn search(line: &str) -> (Limits, Vec<String>) {
        match ok(line) {
            Command::Go(Go::Search {
                limits,
                searchmoves,
            }) => (limits, searchmoves),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn simple_commands_and_whitespace() {
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("   \r\n").unwrap(), None);
        assert_eq!(ok("usi"), Command::Usi);
        assert_eq!(ok("  isready \r"), Command::IsReady);
        assert_eq!(ok("usinewgame\r\n"), Command::UsiNewGame);
        assert_eq!(ok("usi_tunables"), Command::UsiTunables);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("d"), Command::Display);
        assert_eq!(ok("eval"), Command::Eval);
        assert_eq!(ok("bench"), Command::Bench { depth: None });
        assert_eq!(ok("bench 7"), Command::Bench { depth: Some(7) });
    }

    #[test]
    fn unknown_command_is_quoted_and_shortened() {
        let long = "x".repeat(100_000);
        let err = parse(&long).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("unknown command 'xxxx"), "{text}");
        assert!(text.len() < 120, "{text}");
        assert!(text.contains("100000 characters"));
    }

    #[test]
    fn setoption_values() {
        assert_eq!(
            ok("setoption name USI_Hash value 256"),
            Command::SetOption {
                name: "USI_Hash".into(),
                value: Some("256".into())
            }
        );
        assert_eq!(
            ok("setoption name BookFile value "),
            Command::SetOption {
                name: "BookFile".into(),
                value: Some(String::new())
            }
        );
        assert_eq!(
            ok("setoption name BookFile value"),
            Command::SetOption {
                name: "BookFile".into(),
                value: Some(String::new())
            }
        );
        assert_eq!(
            ok("setoption  name  EvalDir   value  C:\\My  Evals\\x \r"),
            Command::SetOption {
                name: "EvalDir".into(),
                value: Some("C:\\My  Evals\\x".into())
            }
        );
        assert_eq!(
            ok("setoption name ClearHash"),
            Command::SetOption {
                name: "ClearHash".into(),
                value: None
            }
        );
        assert!(matches!(
            parse("setoption"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            parse("setoption name value 3"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            parse("setoption USI_Hash 3"),
            Err(CommandError::Unexpected { .. })
        ));
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            ok("position startpos"),
            Command::Position {
                base: PositionBase::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position startpos moves"),
            Command::Position {
                base: PositionBase::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position startpos moves 7g7f  3c3d\r"),
            Command::Position {
                base: PositionBase::StartPos,
                moves: vec!["7g7f".into(), "3c3d".into()]
            }
        );
        assert_eq!(
            ok("position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL w RBrb 1 moves 3c3d"),
            Command::Position {
                base: PositionBase::Sfen(
                    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL w RBrb 1".into()
                ),
                moves: vec!["3c3d".into()]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position sfen").is_err());
        assert!(parse("position sfen moves 7g7f").is_err());
        assert!(parse("position foo").is_err());
        assert!(parse("position startpos 7g7f").is_err());
    }

    #[test]
    fn go_clocks() {
        let (l, _) = search("go btime 0 wtime 0 byoyomi 30000");
        assert_eq!(l.time, [Some(0), Some(0)]);
        assert_eq!(l.byoyomi, 30000);
        let (l, _) = search("go btime 55000 wtime 60000 binc 5000 winc 5000");
        assert_eq!(l.time, [Some(55000), Some(60000)]);
        assert_eq!(l.inc, [5000, 5000]);
        let (l, _) = search("go btime -120 wtime 30000 byoyomi 0");
        assert_eq!(l.time[0], Some(-120));
        let (l, _) = search("go byoyomi 1000");
        assert_eq!(l.time, [None, None]);
        assert_eq!(l.byoyomi, 1000);
        let (l, _) = search("go");
        assert!(l.is_unbounded());
        let (l, _) = search("go ponder btime 100 wtime 100 byoyomi 1000");
        assert!(l.ponder);
        let (l, _) = search("go infinite");
        assert!(l.infinite && !l.is_unbounded());
        let (l, _) = search("go movetime 500 depth 3 nodes 10000");
        assert_eq!(
            (l.movetime, l.depth, l.nodes),
            (Some(500), Some(3), Some(10000))
        );
    }

    #[test]
    fn go_searchmoves_mate_perft() {
        let (l, sm) = search("go searchmoves 7g7f 2g2f depth 4");
        assert_eq!(sm, vec!["7g7f", "2g2f"]);
        assert_eq!(l.depth, Some(4));
        assert!(l.searchmoves.is_empty());
        assert_eq!(
            ok("go mate infinite"),
            Command::Go(Go::Mate(MateLimit::Infinite))
        );
        assert_eq!(
            ok("go mate 10000"),
            Command::Go(Go::Mate(MateLimit::Time(10000)))
        );
        assert_eq!(ok("go mate"), Command::Go(Go::Mate(MateLimit::Infinite)));
        assert_eq!(ok("go perft 3"), Command::Go(Go::Perft(3)));
        assert_eq!(ok("go perft 64"), Command::Go(Go::Perft(64)));
        // Deeper would overflow the recursion's stack (and never end).
        let e = parse("go perft 65").unwrap_err();
        assert_eq!(e.to_string(), "go: perft 65 is over the limit of 64");
        assert_eq!(e.command(), Some("go"));
        assert_eq!(
            parse("position foo").unwrap_err().command(),
            Some("position")
        );
        assert_eq!(parse("foo").unwrap_err().command(), None);
    }

    #[test]
    fn go_errors() {
        let e = parse("go btime abc wtime 100").unwrap_err();
        assert_eq!(e.to_string(), "go: btime expects a number, got 'abc'");
        assert!(matches!(
            parse("go depth"),
            Err(CommandError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("go depth -1"),
            Err(CommandError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("go perft x"),
            Err(CommandError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("go fast"),
            Err(CommandError::Unexpected { .. })
        ));
        assert!(parse("go btime 99999999999999999999999").is_err());
    }

    #[test]
    fn ponderhit_and_gameover() {
        assert_eq!(
            ok("ponderhit"),
            Command::PonderHit {
                clock: None,
                warning: None
            }
        );
        match ok("ponderhit btime 1000 wtime 2000 binc 10 winc 20 byoyomi 0") {
            Command::PonderHit {
                clock: Some(c),
                warning: None,
            } => {
                assert_eq!(c.time, [Some(1000), Some(2000)]);
                assert_eq!(c.inc, [10, 20]);
            }
            other => panic!("{other:?}"),
        }
        match ok("ponderhit btime x") {
            Command::PonderHit {
                clock: None,
                warning: Some(_),
            } => {}
            other => panic!("{other:?}"),
        }
        assert_eq!(ok("gameover"), Command::GameOver { result: None });
        assert_eq!(
            ok("gameover win"),
            Command::GameOver {
                result: Some(GameResult::Win)
            }
        );
        assert_eq!(
            ok("gameover draw"),
            Command::GameOver {
                result: Some(GameResult::Draw)
            }
        );
        assert_eq!(ok("gameover ???"), Command::GameOver { result: None });
    }

    #[test]
    fn never_panics_on_noise() {
        for line in [
            "\u{fffd}\u{fffd}",
            "go searchmoves",
            "go mate btime 1",
            "setoption name",
            "position sfen \u{0}",
            "ponderhit byoyomi",
            "go \t\t depth\t3",
        ] {
            let _ = parse(line);
        }
        assert_eq!(search("go \t\t depth\t3").0.depth, Some(3));
    }
}
