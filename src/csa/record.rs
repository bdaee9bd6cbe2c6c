//! The game record, in the CSA standard record format (version 2.2): names, the server's game id,
//! start and end times, the time rule (as comments), the start position, every move with the time
//! the server charged (`T<n>` in whole units) and our comments, and the end (`%TORYO`, ...) with the
//! server's own lines and any disagreement with the rules core as comments.
//!
//! Facts used (the CSA record format 2.2): `V2.2` first; `N+`/`N-` names; `$EVENT:`,
//! `$START_TIME:`/`$END_TIME:` as `YYYY/MM/DD HH:MM:SS`; the position as in the protocol; each
//! move on its own line followed by `T<seconds>`; `'` comment lines (floodgate's `'**` marks an
//! engine's score and line, which shogi-server writes for the `'*` comment a client sends); special
//! moves `%TORYO`, `%CHUDAN`, `%SENNICHITE`, `%TIME_UP`, `%ILLEGAL_MOVE`, `%+ILLEGAL_ACTION` (Black
//! lost by a foul), `%-ILLEGAL_ACTION`, `%JISHOGI`, `%KACHI`.

use super::game::Game;
use super::message::{EndReason, Verdict};
use crate::core::csa;
use crate::core::Color;
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// `YYYY/MM/DD HH:MM:SS` in UTC.
pub fn csa_time(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s, _) = utc(t);
    format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}")
}

/// `YYYY-MM-DD HH:MM:SS.mmm` in UTC, for logs.
pub fn log_time(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s, ms) = utc(t);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}.{ms:03}")
}

/// Civil UTC date and time of `t` (the days-to-date step is Howard Hinnant's `civil_from_days`).
fn utc(t: SystemTime) -> (i64, u32, u32, u32, u32, u32, u32) {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs() as i64;
    let ms = since.subsec_millis();
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        m,
        d,
        (rem / 3600) as u32,
        (rem % 3600 / 60) as u32,
        (rem % 60) as u32,
        ms,
    )
}

/// The record of `game` as text.
pub fn write_record(game: &Game) -> String {
    let mut out = String::new();
    let s = &game.summary;
    let _ = writeln!(
        out,
        "'CSA record written by Tokin {}",
        env!("CARGO_PKG_VERSION")
    );
    out.push_str("V2.2\n");
    let _ = writeln!(out, "N+{}", s.names[0]);
    let _ = writeln!(out, "N-{}", s.names[1]);
    let _ = writeln!(out, "$EVENT:{}", s.game_id);
    if let Some(t) = game.started {
        let _ = writeln!(out, "$START_TIME:{}", csa_time(t));
    }
    if let Some(t) = game.ended {
        let _ = writeln!(out, "$END_TIME:{}", csa_time(t));
    }
    out.push_str("'times are UTC\n");
    for color in Color::ALL {
        let _ = writeln!(
            out,
            "'Time{}:{} (unit {} ms)",
            color.csa_sign(),
            game.clock.rule(color).describe(),
            game.clock.rule(color).unit_ms
        );
    }
    if let Some(n) = s.max_moves {
        let _ = writeln!(out, "'Max_Moves:{n}");
    }
    let _ = writeln!(out, "'Tokin played {}", side_name(game.us));
    for line in csa::position_lines(&game.start.to_setup()) {
        out.push_str(&line);
        out.push('\n');
    }
    match game.initial_plies {
        0 => {}
        1 => out.push_str("'the first move came with the game summary\n"),
        n => {
            let _ = writeln!(out, "'the first {n} moves came with the game summary");
        }
    }
    for ply in &game.plies {
        out.push_str(&ply.csa);
        out.push('\n');
        if let Some(t) = ply.time {
            let _ = writeln!(out, "T{t}");
        }
        if let Some(c) = &ply.comment {
            // shogi-server records a client's `'* ...` comment as `'** ...`.
            let _ = writeln!(out, "'*{c}");
        }
    }
    if let Some(special) = end_move(game) {
        out.push_str(special);
        out.push('\n');
    }
    if !game.ending.describe().is_empty() {
        let _ = writeln!(out, "'server: {}", game.ending.describe());
    }
    for w in &game.warnings {
        let _ = writeln!(out, "'warning: {w}");
    }
    out
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black (+)",
        Color::White => "White (-)",
    }
}

/// The special move that ends the record.
fn end_move(game: &Game) -> Option<&'static str> {
    let reasons = &game.ending.reasons;
    let has = |r: &EndReason| reasons.contains(r);
    // The side to move at the end is the one a foul or a time loss is charged to.
    let to_move = game.pos.side_to_move();
    if has(&EndReason::Resign) {
        return Some("%TORYO");
    }
    if has(&EndReason::TimeUp) {
        return Some("%TIME_UP");
    }
    if has(&EndReason::Jishogi) {
        return Some("%KACHI");
    }
    if has(&EndReason::Sennichite) {
        return Some("%SENNICHITE");
    }
    if has(&EndReason::OuteSennichite) {
        // The checker lost by a foul; the verdict says who that was.
        let we_lost = game.ending.verdict == Some(Verdict::Lose);
        let loser = if we_lost { game.us } else { game.us.flip() };
        return Some(match loser {
            Color::Black => "%+ILLEGAL_ACTION",
            Color::White => "%-ILLEGAL_ACTION",
        });
    }
    if has(&EndReason::IllegalMove) || has(&EndReason::IllegalAction) {
        if game.ending.special.as_deref() == Some("KACHI") {
            return Some("%KACHI");
        }
        return Some(match to_move {
            Color::Black => "%+ILLEGAL_ACTION",
            Color::White => "%-ILLEGAL_ACTION",
        });
    }
    if has(&EndReason::Chudan) || game.ending.verdict.is_none() {
        return Some("%CHUDAN");
    }
    // #MAX_MOVES has no special move in version 2.2: the server's line says it.
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csa::clock::TimeRule;
    use crate::csa::message::parse_move_line;
    use crate::csa::summary::GameSummary;
    use std::time::Duration;

    #[test]
    fn utc_dates() {
        let at = |secs: u64| UNIX_EPOCH + Duration::from_millis(secs);
        assert_eq!(csa_time(at(0)), "1970/01/01 00:00:00");
        // 2000-02-29 (a leap day of a century year) 12:34:56.789.
        assert_eq!(log_time(at(951_827_696_789)), "2000-02-29 12:34:56.789");
        assert_eq!(csa_time(at(1_798_761_599_000)), "2026/12/31 23:59:59");
        assert_eq!(csa_time(at(1_798_761_600_000)), "2027/01/01 00:00:00");
    }

    #[test]
    fn a_short_game_record() {
        let rule = TimeRule {
            total: 600,
            byoyomi: 10,
            ..TimeRule::default()
        };
        let summary = GameSummary {
            protocol_version: None,
            declaration: Some("Jishogi 1.1".into()),
            game_id: "test+g+a+b+1".into(),
            names: ["a".into(), "b".into()],
            your_turn: Color::White,
            to_move: None,
            rematch_on_draw: None,
            max_moves: Some(256),
            time: [rule; 2],
            position: vec!["PI".into(), "+".into(), "+7776FU,T2".into()],
            unknown: Vec::new(),
        };
        let mut game = Game::from_summary(summary).unwrap();
        game.pending = Some(("-3334FU".into(), Some("* -20 +2726FU".into())));
        game.server_move(&parse_move_line("-3334FU,T5").unwrap())
            .unwrap();
        game.started = Some(UNIX_EPOCH + Duration::from_secs(1_798_761_600));
        game.ending.special = Some("TORYO".into());
        game.ending.reasons.push(EndReason::Resign);
        game.ending.verdict = Some(Verdict::Win);
        let text = write_record(&game);
        let expected = format!(
            "'CSA record written by Tokin {}\n\
             V2.2\n\
             N+a\n\
             N-b\n\
             $EVENT:test+g+a+b+1\n\
             $START_TIME:2027/01/01 00:00:00\n\
             'times are UTC\n\
             'Time+:600 s + 10 s byoyomi (unit 1000 ms)\n\
             'Time-:600 s + 10 s byoyomi (unit 1000 ms)\n\
             'Max_Moves:256\n\
             'Tokin played White (-)\n\
             P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n\
             P2 * -HI *  *  *  *  * -KA * \n\
             P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
             P4 *  *  *  *  *  *  *  *  * \n\
             P5 *  *  *  *  *  *  *  *  * \n\
             P6 *  *  *  *  *  *  *  *  * \n\
             P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n\
             P8 * +KA *  *  *  *  * +HI * \n\
             P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n\
             +\n\
             'the first move came with the game summary\n\
             +7776FU\n\
             T2\n\
             -3334FU\n\
             T5\n\
             '** -20 +2726FU\n\
             %TORYO\n\
             'server: %TORYO #RESIGN #WIN\n",
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(text, expected);
    }
}
