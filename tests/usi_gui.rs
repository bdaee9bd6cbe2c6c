//! Conversations as GUIs hold them (ShogiHome, ShogiArena), against the real binary.

mod common;

use common::*;
use std::time::{Duration, Instant};

/// ShogiHome registers an engine with `usi` -> `usiok` -> `quit` and gives up after 10 s; we want it
/// instant. Also checks the option lines are what clients can read.
#[test]
fn registration_is_instant() {
    let start = Instant::now();
    let mut c = Client::spawn();
    let lines = c.handshake();
    c.send("quit");
    let status = c.wait_exit(QUICK);
    assert!(status.success(), "{status:?}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );

    assert!(lines[0].starts_with("id name Tokin "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    for name in [
        "USI_Hash",
        "USI_Ponder",
        "Threads",
        "MultiPV",
        "NetworkDelay",
        "NetworkDelay2",
        "MinimumThinkingTime",
        "SlowMover",
        "EnteringKingRule",
        "MaxMovesToDraw",
        "DepthLimit",
        "NodesLimit",
        "ResignValue",
        "Contempt",
        "ClearHash",
        "USI_Variant",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            options.iter().any(|l| l.starts_with(&prefix)),
            "missing {name}"
        );
    }
    assert_eq!(lines.last().map(String::as_str), Some("usiok"));
}

/// Parses the option lines into `setoption` commands carrying each default, as a GUI does.
fn setoptions_from(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| {
            let toks: Vec<&str> = l.split(' ').collect();
            if toks.first() != Some(&"option") {
                return None;
            }
            let name = toks[2];
            let value = toks
                .iter()
                .position(|&t| t == "default")
                .map(|i| toks[i + 1]);
            Some(match value {
                Some(v) => format!("setoption name {name} value {v}"),
                None => format!("setoption name {name}"),
            })
        })
        .collect()
}

/// A ShogiHome game: every option set with raw values, isready then usinewgame, byoyomi and Fischer
/// moves, ponder hit, ponder miss, gameover while pondering, quit.
#[test]
fn shogihome_game() {
    let mut c = Client::spawn();
    let lines = c.handshake();
    for cmd in setoptions_from(&lines) {
        c.send(&cmd);
    }
    c.send("setoption name USI_Hash value 16");
    c.send("setoption name USI_Ponder value true");
    // An option we do not know, with an empty value: warned about, nothing else.
    c.send("setoption name BookFile value ");
    let warn = c.read_until(
        |l| l.starts_with("info string"),
        QUICK,
        "unknown-option warning",
    );
    assert!(
        warn.last().is_some_and(|l| l.contains("BookFile")),
        "{warn:?}"
    );
    c.send("isready");
    c.expect("readyok", Duration::from_secs(10));
    c.send("usinewgame");

    let mut game = Game::new();

    // Byoyomi 300 ms, no main time.
    c.send(&game.command());
    let (best, lines, took) = c.go("go btime 0 wtime 0 byoyomi 300", Duration::from_secs(5));
    let (m, _) = check_bestmove(&best, &game.position());
    assert_final_score(&lines);
    assert!(
        took < Duration::from_millis(300) + SLACK,
        "byoyomi 300 took {took:?}"
    );
    game.moves.push(m);
    game.moves.push(reply(&game));

    // Fischer 5 s + 0.1 s.
    c.send(&game.command());
    let (best, _, took) = c.go(
        "go btime 5000 wtime 5000 binc 100 winc 100",
        Duration::from_secs(10),
    );
    let (m, ponder) = check_bestmove(&best, &game.position());
    assert!(
        took < Duration::from_millis(5100),
        "Fischer move took {took:?}"
    );
    game.moves.push(m);

    // Ponder hit: the opponent plays the predicted move (or our own choice if none was given).
    let predicted = ponder.unwrap_or_else(|| reply(&game));
    let mut pondered = game.moves.clone();
    pondered.push(predicted.clone());
    c.send(
        &Game {
            moves: pondered.clone(),
            ..Game::new()
        }
        .command(),
    );
    c.send("go ponder btime 0 wtime 0 byoyomi 300");
    c.expect_no_bestmove(Duration::from_millis(400));
    let start = Instant::now();
    c.send("ponderhit");
    let (best, _, took) = c.await_bestmove(start, Duration::from_secs(5));
    game.moves.push(predicted);
    let (m, ponder) = check_bestmove(&best, &game.position());
    assert!(
        took < Duration::from_millis(300) + SLACK,
        "after ponderhit {took:?}"
    );
    game.moves.push(m);
    c.sync();

    // Ponder miss: `stop` answers the ponder search (its move is discarded), then the real search.
    let predicted = ponder.unwrap_or_else(|| reply(&game));
    let mut pondered = game.moves.clone();
    pondered.push(predicted.clone());
    let ponder_game = Game {
        moves: pondered,
        ..Game::new()
    };
    c.send(&ponder_game.command());
    c.send("go ponder btime 1000 wtime 1000 byoyomi 300");
    c.expect_no_bestmove(Duration::from_millis(200));
    let start = Instant::now();
    c.send("stop");
    let (best, _, _) = c.await_bestmove(start, QUICK);
    check_bestmove(&best, &ponder_game.position());
    let actual = other_reply(&game, &predicted);
    game.moves.push(actual);
    c.send(&game.command());
    let (best, _, _) = c.go(
        "go btime 1000 wtime 1000 byoyomi 300",
        Duration::from_secs(5),
    );
    let (m, ponder) = check_bestmove(&best, &game.position());
    game.moves.push(m);
    c.sync();

    // Gameover while pondering: the search ends quietly, no bestmove afterwards.
    let predicted = ponder.unwrap_or_else(|| reply(&game));
    let mut pondered = game.moves.clone();
    pondered.push(predicted);
    c.send(
        &Game {
            moves: pondered,
            ..Game::new()
        }
        .command(),
    );
    c.send("go ponder btime 1000 wtime 1000 byoyomi 300");
    c.expect_no_bestmove(Duration::from_millis(200));
    c.send("gameover lose");
    c.expect_no_bestmove(Duration::from_millis(500));
    c.sync();

    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
}

/// Some legal move for the side to move (the first one generated).
fn reply(game: &Game) -> String {
    let pos = game.position();
    let moves = tokin::core::movegen::legal_moves(&pos);
    moves.as_slice()[0].to_usi()
}

/// A legal move other than `not` (a ponder miss).
fn other_reply(game: &Game, not: &str) -> String {
    let pos = game.position();
    let moves = tokin::core::movegen::legal_moves(&pos);
    moves
        .iter()
        .map(|m| m.to_usi())
        .find(|m| m != not)
        .unwrap_or_else(|| not.to_string())
}

/// ShogiArena sends `usinewgame` before `isready`.
#[test]
fn shogiarena_order() {
    let mut c = Client::spawn();
    c.handshake();
    c.send("setoption name USI_Hash value 16");
    c.send("usinewgame");
    c.send("isready");
    c.expect("readyok", Duration::from_secs(10));
    c.send("position startpos moves 7g7f");
    let (best, _, _) = c.go(
        "go btime 1000 wtime 1000 byoyomi 200",
        Duration::from_secs(5),
    );
    check_bestmove(
        &best,
        &Game {
            moves: vec!["7g7f".into()],
            ..Game::new()
        }
        .position(),
    );
    c.sync();
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
}
