//! The lines of the CSA server protocol (version 1.2.1, as shogi-server speaks it): what a server
//! sends, parsed into [`ServerLine`], and the text of what a client sends.
//!
//! Facts used (the protocol document and shogi-server's `command.rb`, `game.rb`, `game_result.rb`):
//! - Lines end with LF; an empty line is a keep-alive, which shogi-server answers with an empty
//!   line. A client may send one, but not within 30 seconds of its previous one.
//! - Login: `LOGIN <id> <password>`, answered `LOGIN:<id> OK` or `LOGIN:incorrect`; `LOGOUT`,
//!   answered `LOGOUT:completed` (floodgate closes the connection after a game instead).
//! - A game is offered as a `BEGIN Game_Summary` ... `END Game_Summary` block (see
//!   `summary.rs`), accepted with `AGREE <game id>` or refused with `REJECT <game id>`; the server
//!   then sends `START:<game id>`, or `REJECT:<game id> by <name>` to both players.
//! - A move is sent bare (`+7776FU`) or with floodgate's comment (`+7776FU,'* 30 -3334FU +2726FU`:
//!   the score from Black's side and the expected line); the server echoes every move to both
//!   players with the time it charged in `Time_Unit`s (`+7776FU,T3`). `%TORYO` resigns, `%KACHI`
//!   declares an entering-king win.
//! - A game ends with a reason line (`#RESIGN`, `#TIME_UP`, `#ILLEGAL_MOVE`, `#SENNICHITE`,
//!   `#OUTE_SENNICHITE`, `#JISHOGI`, `#MAX_MOVES`; shogi-server sends `%TORYO` or `%KACHI` before
//!   the reason when a player resigned or declared) and a verdict line (`#WIN`, `#LOSE`, `#DRAW`,
//!   `#CENSORED` after `#MAX_MOVES`); `#CHUDAN` interrupts a game without a verdict.
//! - `##[...]` lines are the server's informational messages (errors, `%%` command answers).

use crate::core::Color;

/// What a server line means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerLine {
    /// An empty line (or only spaces).
    KeepAlive,
    LoginOk {
        name: String,
    },
    LoginIncorrect,
    LogoutCompleted,
    /// `BEGIN Game_Summary`: the lines up to `END Game_Summary` go to the summary reader.
    BeginSummary,
    Start {
        game_id: String,
    },
    Reject {
        game_id: String,
        by: String,
    },
    Move(MoveLine),
    /// `%TORYO`, `%KACHI`, ... (the name without `%`), with a charged time when the server gave one.
    Special {
        name: String,
        time: Option<u64>,
    },
    End(EndMarker),
    /// `##[TAG] text`: the whole line.
    Info(String),
}

/// A move as the server echoes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// The move itself, `+7776FU` (checked for shape only; legality is the game's to check).
    pub csa: String,
    /// The time the server charged, in `Time_Unit`s.
    pub time: Option<u64>,
    /// A floodgate comment, without its leading `'`.
    pub comment: Option<String>,
}

/// Why a game ended, as the server says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    Resign,
    TimeUp,
    IllegalMove,
    IllegalAction,
    Sennichite,
    OuteSennichite,
    Jishogi,
    MaxMoves,
    /// The game was interrupted; no verdict follows.
    Chudan,
    /// A reason this client does not know (the name without `#`).
    Other(String),
}

/// The result of a game for the player the line is sent to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Lose,
    Draw,
    /// The game reached `Max_Moves` (sent after `#MAX_MOVES`): no winner.
    Censored,
}

/// A `#` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndMarker {
    Reason(EndReason),
    Verdict(Verdict),
}

impl EndReason {
    /// The line's text, `#RESIGN` ...
    pub fn token(&self) -> String {
        let name = match self {
            EndReason::Resign => "RESIGN",
            EndReason::TimeUp => "TIME_UP",
            EndReason::IllegalMove => "ILLEGAL_MOVE",
            EndReason::IllegalAction => "ILLEGAL_ACTION",
            EndReason::Sennichite => "SENNICHITE",
            EndReason::OuteSennichite => "OUTE_SENNICHITE",
            EndReason::Jishogi => "JISHOGI",
            EndReason::MaxMoves => "MAX_MOVES",
            EndReason::Chudan => "CHUDAN",
            EndReason::Other(name) => name,
        };
        format!("#{name}")
    }
}

impl Verdict {
    pub fn token(self) -> &'static str {
        match self {
            Verdict::Win => "#WIN",
            Verdict::Lose => "#LOSE",
            Verdict::Draw => "#DRAW",
            Verdict::Censored => "#CENSORED",
        }
    }
}

/// Why a server line was not understood. The line is quoted in every message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("'{0}' is not a line of the CSA server protocol")]
    Unknown(String),
    #[error("'{0}': the move is not a sign, two squares and a piece name")]
    BadMove(String),
    #[error("'{0}': the time after ',T' is not a whole number")]
    BadTime(String),
    #[error("'{0}': unexpected text after the move")]
    BadAnnotation(String),
    #[error("'{0}': the game id is missing")]
    MissingGameId(String),
}

/// Parses one line from the server (a trailing CR, from a server that ends lines with CRLF, is
/// ignored).
pub fn parse_server_line(raw: &str) -> Result<ServerLine, LineError> {
    let line = raw.trim_end_matches(['\r', '\n']);
    let trimmed = line.trim();
    let unknown = || LineError::Unknown(line.to_string());
    if trimmed.is_empty() {
        return Ok(ServerLine::KeepAlive);
    }
    if trimmed.starts_with("##[") {
        return Ok(ServerLine::Info(trimmed.to_string()));
    }
    if let Some(name) = trimmed.strip_prefix('#') {
        return Ok(ServerLine::End(parse_end(name)));
    }
    if let Some(rest) = trimmed.strip_prefix('%') {
        let (name, time) = split_time(trimmed, rest)?;
        if name.is_empty() || name.starts_with('%') {
            return Err(unknown());
        }
        return Ok(ServerLine::Special {
            name: name.to_string(),
            time,
        });
    }
    if trimmed.starts_with('+') || trimmed.starts_with('-') {
        return parse_move_line(trimmed).map(ServerLine::Move);
    }
    if let Some(rest) = trimmed.strip_prefix("LOGIN:") {
        if rest == "incorrect" {
            return Ok(ServerLine::LoginIncorrect);
        }
        return match rest.strip_suffix(" OK") {
            Some(name) if !name.is_empty() => Ok(ServerLine::LoginOk {
                name: name.to_string(),
            }),
            _ => Err(unknown()),
        };
    }
    if trimmed == "LOGOUT:completed" {
        return Ok(ServerLine::LogoutCompleted);
    }
    if trimmed == "BEGIN Game_Summary" {
        return Ok(ServerLine::BeginSummary);
    }
    if let Some(id) = trimmed.strip_prefix("START:") {
        if id.is_empty() {
            return Err(LineError::MissingGameId(line.to_string()));
        }
        return Ok(ServerLine::Start {
            game_id: id.to_string(),
        });
    }
    if let Some(rest) = trimmed.strip_prefix("REJECT:") {
        let (id, by) = rest.split_once(" by ").unwrap_or((rest, ""));
        if id.is_empty() {
            return Err(LineError::MissingGameId(line.to_string()));
        }
        return Ok(ServerLine::Reject {
            game_id: id.to_string(),
            by: by.to_string(),
        });
    }
    Err(unknown())
}

fn parse_end(name: &str) -> EndMarker {
    let reason = match name {
        "WIN" => return EndMarker::Verdict(Verdict::Win),
        "LOSE" => return EndMarker::Verdict(Verdict::Lose),
        "DRAW" => return EndMarker::Verdict(Verdict::Draw),
        "CENSORED" => return EndMarker::Verdict(Verdict::Censored),
        "RESIGN" => EndReason::Resign,
        "TIME_UP" => EndReason::TimeUp,
        "ILLEGAL_MOVE" => EndReason::IllegalMove,
        "ILLEGAL_ACTION" => EndReason::IllegalAction,
        "SENNICHITE" => EndReason::Sennichite,
        "OUTE_SENNICHITE" => EndReason::OuteSennichite,
        "JISHOGI" => EndReason::Jishogi,
        "MAX_MOVES" => EndReason::MaxMoves,
        "CHUDAN" => EndReason::Chudan,
        other => EndReason::Other(other.to_string()),
    };
    EndMarker::Reason(reason)
}

/// `<head>[,T<n>]`.
fn split_time<'a>(line: &str, rest: &'a str) -> Result<(&'a str, Option<u64>), LineError> {
    match rest.split_once(',') {
        None => Ok((rest, None)),
        Some((head, annotation)) => Ok((head, Some(parse_time(line, annotation)?))),
    }
}

fn parse_time(line: &str, field: &str) -> Result<u64, LineError> {
    let digits = field
        .strip_prefix('T')
        .ok_or_else(|| LineError::BadAnnotation(line.to_string()))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LineError::BadTime(line.to_string()));
    }
    digits
        .parse()
        .map_err(|_| LineError::BadTime(line.to_string()))
}

/// `+7776FU`, `+7776FU,T12`, `+7776FU,'comment`, `+7776FU,T12,'comment` (the comment is the rest of
/// the line and may hold anything but a newline).
pub fn parse_move_line(line: &str) -> Result<MoveLine, LineError> {
    let (csa, mut rest) = match line.split_once(',') {
        Some((csa, rest)) => (csa, Some(rest)),
        None => (line, None),
    };
    if !is_move_shape(csa) {
        return Err(LineError::BadMove(line.to_string()));
    }
    let mut time = None;
    let mut comment = None;
    while let Some(field) = rest {
        if let Some(text) = field.strip_prefix('\'') {
            comment = Some(text.to_string());
            break;
        }
        if time.is_some() {
            return Err(LineError::BadAnnotation(line.to_string()));
        }
        let (head, next) = match field.split_once(',') {
            Some((head, next)) => (head, Some(next)),
            None => (field, None),
        };
        time = Some(parse_time(line, head)?);
        rest = next;
    }
    Ok(MoveLine {
        csa: csa.to_string(),
        time,
        comment,
    })
}

/// A sign, two squares (`00` for the hand as the source) and two capital letters.
fn is_move_shape(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 7
        && matches!(b[0], b'+' | b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..7].iter().all(u8::is_ascii_uppercase)
}

// ------------------------------------------------------------------------------------------------
// What a client sends
// ------------------------------------------------------------------------------------------------

pub fn login(id: &str, password: &str) -> String {
    format!("LOGIN {id} {password}")
}

/// The login line as logs show it: the password hidden, except for a floodgate game name before
/// its comma (`floodgate-300-10F,*****`), which says which games were asked for.
pub fn login_for_log(id: &str, password: &str) -> String {
    match password.split_once(',') {
        Some((game, _)) => format!("LOGIN {id} {game},*****"),
        None => format!("LOGIN {id} *****"),
    }
}

pub fn agree(game_id: &str) -> String {
    format!("AGREE {game_id}")
}

pub fn reject(game_id: &str) -> String {
    format!("REJECT {game_id}")
}

pub const LOGOUT: &str = "LOGOUT";
pub const RESIGN: &str = "%TORYO";
pub const DECLARE: &str = "%KACHI";
pub const KEEP_ALIVE: &str = "";

/// Our move, with floodgate's comment when one is given.
pub fn move_with_comment(csa: &str, comment: Option<&str>) -> String {
    match comment {
        // shogi-server splits a move line at commas: a comma would cut the comment short.
        Some(c) => format!("{csa},'{}", c.replace([',', '\n', '\r'], " ")),
        None => csa.to_string(),
    }
}

/// Floodgate's comment: `* <score> <line>`, the score in centipawns from Black's side and the
/// expected continuation after the move in CSA notation (shogi-server records it as `'** ...`).
/// A mate score is written as +-(`MATE_COMMENT_SCORE` - plies), since the format has numbers only.
pub fn floodgate_comment(score_for_us: CommentScore, us: Color, line: &[String]) -> String {
    let score = match score_for_us {
        CommentScore::Cp(cp) => cp as i64,
        CommentScore::Mate(plies) if plies >= 0 => MATE_COMMENT_SCORE - plies as i64,
        CommentScore::Mate(plies) => -MATE_COMMENT_SCORE - plies as i64,
    };
    let score = if us == Color::White { -score } else { score };
    let mut text = format!("* {score}");
    for m in line {
        text.push(' ');
        text.push_str(m);
    }
    text
}

/// The magnitude a mate score is written with in comments.
pub const MATE_COMMENT_SCORE: i64 = 100_000;

/// A search score for a comment, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentScore {
    Cp(i32),
    /// Mate in this many plies; negative when the mover is being mated.
    Mate(i32),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> ServerLine {
        parse_server_line(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn login_and_game_setup_lines() {
        assert_eq!(ok(""), ServerLine::KeepAlive);
        assert_eq!(ok(" "), ServerLine::KeepAlive);
        assert_eq!(ok("\r"), ServerLine::KeepAlive);
        assert_eq!(
            ok("LOGIN:tokin_test OK"),
            ServerLine::LoginOk {
                name: "tokin_test".into()
            }
        );
        assert_eq!(ok("LOGIN:incorrect"), ServerLine::LoginIncorrect);
        assert_eq!(ok("LOGOUT:completed"), ServerLine::LogoutCompleted);
        assert_eq!(ok("BEGIN Game_Summary"), ServerLine::BeginSummary);
        assert_eq!(ok("BEGIN Game_Summary\r"), ServerLine::BeginSummary);
        assert_eq!(
            ok("START:wdoor+floodgate-300-10F+a+b+20261201120000"),
            ServerLine::Start {
                game_id: "wdoor+floodgate-300-10F+a+b+20261201120000".into()
            }
        );
        assert_eq!(
            ok("REJECT:g1 by the Server (timed out)"),
            ServerLine::Reject {
                game_id: "g1".into(),
                by: "the Server (timed out)".into()
            }
        );
        assert_eq!(
            ok("REJECT:g1"),
            ServerLine::Reject {
                game_id: "g1".into(),
                by: String::new()
            }
        );
        assert_eq!(
            ok("##[ERROR] unknown command: FOO"),
            ServerLine::Info("##[ERROR] unknown command: FOO".into())
        );
    }

    #[test]
    fn moves_and_their_annotations() {
        let mv = |csa: &str, time, comment: Option<&str>| {
            ServerLine::Move(MoveLine {
                csa: csa.into(),
                time,
                comment: comment.map(Into::into),
            })
        };
        assert_eq!(ok("+7776FU"), mv("+7776FU", None, None));
        assert_eq!(ok("+7776FU,T12"), mv("+7776FU", Some(12), None));
        assert_eq!(ok("-0034KA,T0"), mv("-0034KA", Some(0), None));
        assert_eq!(
            ok("+7776FU,'* 30 -3334FU +2726FU"),
            mv("+7776FU", None, Some("* 30 -3334FU +2726FU"))
        );
        assert_eq!(
            ok("-8384FU,T7,'* -60 +2625FU"),
            mv("-8384FU", Some(7), Some("* -60 +2625FU"))
        );
        // A comment may hold commas after its quote.
        assert_eq!(ok("+7776FU,T1,'a,b"), mv("+7776FU", Some(1), Some("a,b")));
        for bad in ["+7776F", "+7776FUX", "+77a6FU", "+7776fu"] {
            assert_eq!(
                parse_server_line(bad),
                Err(LineError::BadMove(bad.into())),
                "{bad}"
            );
        }
        assert_eq!(
            parse_server_line("+7776FU,T"),
            Err(LineError::BadTime("+7776FU,T".into()))
        );
        assert_eq!(
            parse_server_line("+7776FU,T-3"),
            Err(LineError::BadTime("+7776FU,T-3".into()))
        );
        assert_eq!(
            parse_server_line("+7776FU,T99999999999999999999999"),
            Err(LineError::BadTime(
                "+7776FU,T99999999999999999999999".into()
            ))
        );
        assert_eq!(
            parse_server_line("+7776FU,X3"),
            Err(LineError::BadAnnotation("+7776FU,X3".into()))
        );
        assert_eq!(
            parse_server_line("+7776FU,T3,T4"),
            Err(LineError::BadAnnotation("+7776FU,T3,T4".into()))
        );
    }

    #[test]
    fn specials_and_game_endings() {
        assert_eq!(
            ok("%TORYO"),
            ServerLine::Special {
                name: "TORYO".into(),
                time: None
            }
        );
        assert_eq!(
            ok("%KACHI,T3"),
            ServerLine::Special {
                name: "KACHI".into(),
                time: Some(3)
            }
        );
        assert!(parse_server_line("%").is_err());
        assert!(parse_server_line("%%GAME x +").is_err());
        let reasons = [
            ("#RESIGN", EndReason::Resign),
            ("#TIME_UP", EndReason::TimeUp),
            ("#ILLEGAL_MOVE", EndReason::IllegalMove),
            ("#ILLEGAL_ACTION", EndReason::IllegalAction),
            ("#SENNICHITE", EndReason::Sennichite),
            ("#OUTE_SENNICHITE", EndReason::OuteSennichite),
            ("#JISHOGI", EndReason::Jishogi),
            ("#MAX_MOVES", EndReason::MaxMoves),
            ("#CHUDAN", EndReason::Chudan),
            ("#SOMETHING_NEW", EndReason::Other("SOMETHING_NEW".into())),
        ];
        for (text, reason) in reasons {
            assert_eq!(ok(text), ServerLine::End(EndMarker::Reason(reason.clone())));
            assert_eq!(reason.token(), text);
        }
        for (text, verdict) in [
            ("#WIN", Verdict::Win),
            ("#LOSE", Verdict::Lose),
            ("#DRAW", Verdict::Draw),
            ("#CENSORED", Verdict::Censored),
        ] {
            assert_eq!(ok(text), ServerLine::End(EndMarker::Verdict(verdict)));
            assert_eq!(verdict.token(), text);
        }
    }

    #[test]
    fn unknown_lines_are_errors_not_guesses() {
        for bad in [
            "Game_ID:x",
            "END Game_Summary",
            "LOGIN:",
            "LOGIN: OK",
            "LOGIN:x NG",
            "LOGOUT:later",
            "hello",
        ] {
            assert_eq!(
                parse_server_line(bad),
                Err(LineError::Unknown(bad.into())),
                "{bad}"
            );
        }
        assert_eq!(
            parse_server_line("START:"),
            Err(LineError::MissingGameId("START:".into()))
        );
    }

    #[test]
    fn client_lines() {
        assert_eq!(
            login("tokin", "floodgate-300-10F,pw"),
            "LOGIN tokin floodgate-300-10F,pw"
        );
        assert_eq!(
            login_for_log("tokin", "floodgate-300-10F,secret"),
            "LOGIN tokin floodgate-300-10F,*****"
        );
        assert_eq!(login_for_log("tokin", "secret"), "LOGIN tokin *****");
        assert_eq!(agree("g1"), "AGREE g1");
        assert_eq!(reject("g1"), "REJECT g1");
        assert_eq!(move_with_comment("+7776FU", None), "+7776FU");
        assert_eq!(
            move_with_comment("+7776FU", Some("* 30 -3334FU")),
            "+7776FU,'* 30 -3334FU"
        );
        assert_eq!(
            move_with_comment("+7776FU", Some("a,b\nc")),
            "+7776FU,'a b c"
        );
        let line = ["-3334FU".to_string(), "+2726FU".to_string()];
        // The score is Black's: a White mover's +30 is written -30.
        assert_eq!(
            floodgate_comment(CommentScore::Cp(30), Color::Black, &line),
            "* 30 -3334FU +2726FU"
        );
        assert_eq!(
            floodgate_comment(CommentScore::Cp(30), Color::White, &line),
            "* -30 -3334FU +2726FU"
        );
        assert_eq!(
            floodgate_comment(CommentScore::Mate(3), Color::Black, &[]),
            "* 99997"
        );
        assert_eq!(
            floodgate_comment(CommentScore::Mate(-2), Color::Black, &[]),
            "* -99998"
        );
        assert_eq!(
            floodgate_comment(CommentScore::Mate(3), Color::White, &[]),
            "* -99997"
        );
    }
}
