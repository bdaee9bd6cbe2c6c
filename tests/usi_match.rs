//! Match-runner conversations (cshogi style): `go byoyomi` without clocks, bare `go`, bare `gameover`,
//! and a second game in the same process with setoption + isready and no `usi`.

mod common;

use common::*;
use std::time::{Duration, Instant};

#[test]
fn cshogi_style_match() {
    let mut c = Client::spawn();
    c.handshake();
    c.send("setoption name USI_Hash value 16");
    c.send("setoption name USI_Ponder value false");
    c.send("isready");
    c.expect("readyok", QUICK);
    c.send("usinewgame");

    let mut game = Game::new();
    for _ in 0..2 {
        c.send(&game.command());
        let (best, lines, took) = c.go("go byoyomi 1000", Duration::from_secs(5));
        let (m, _) = check_bestmove(&best, &game.position());
        assert_final_score(&lines);
        assert!(took < Duration::from_millis(1000) + SLACK, "{took:?}");
        game.moves.push(m);
    }
    c.sync();

    // Bare `go`: nobody will send stop; the engine must answer by itself.
    c.send(&game.command());
    let (best, _, _) = c.go("go", Duration::from_secs(30));
    check_bestmove(&best, &game.position());
    c.sync();
    c.send("gameover");
    c.sync();

    // Second game, same process: setoption + isready again, no `usi`.
    c.send("setoption name USI_Hash value 32");
    c.send("setoption name MultiPV value 1");
    c.send("isready");
    c.expect("readyok", QUICK);
    c.send("usinewgame");
    c.send("position startpos");
    let (best, _, _) = c.go("go byoyomi 500", Duration::from_secs(5));
    check_bestmove(&best, &Game::new().position());
    c.send("gameover draw");
    c.sync();
    let start = Instant::now();
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
    assert!(start.elapsed() < Duration::from_secs(1));
}

/// Small fixed-limit searches answer once each; depth and nodes limits are honoured.
#[test]
fn fixed_limits_answer_once() {
    let mut c = Client::spawn();
    c.send("isready");
    c.expect("readyok", QUICK);
    let game = Game::new();
    for go in [
        "go depth 3",
        "go nodes 5000",
        "go movetime 200",
        "go depth 2 searchmoves 2g2f 7g7f",
    ] {
        c.send(&game.command());
        let (best, _, _) = c.go(go, Duration::from_secs(10));
        let (m, _) = check_bestmove(&best, &game.position());
        if go.contains("searchmoves") {
            assert!(m == "2g2f" || m == "7g7f", "{best}");
        }
        c.sync();
    }
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
}

/// No legal move: `bestmove resign`.
#[test]
fn mated_position_resigns() {
    let mut c = Client::spawn();
    c.send("isready");
    c.expect("readyok", QUICK);
    // Black king on 5i mated by a gold on 5h protected by a silver on 5g... (white to have mated).
    c.send("position sfen 4k4/9/9/9/9/9/4s4/4g4/4K4 b - 1");
    let (best, _, _) = c.go("go byoyomi 300", Duration::from_secs(5));
    assert_eq!(best, "bestmove resign");
    c.sync();
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
}

/// Heian shogi through USI_Variant (startpos means the variant's start), and ShogiHome's bare
/// `go ponder` followed by `ponderhit` with a clock.
#[test]
fn heian_variant_and_ponderhit_clock() {
    let mut c = Client::spawn();
    c.handshake();
    c.send("setoption name USI_Variant value heian");
    c.send("setoption name USI_Ponder value true");
    c.send("isready");
    c.expect("readyok", QUICK);
    c.send("usinewgame");
    let mut game = Game::new();
    game.variant = tokin::core::Variant::Heian;
    game.moves.push("7f7e".into());
    c.send(&game.command());
    let (best, _, _) = c.go(
        "go btime 1000 wtime 1000 byoyomi 200",
        Duration::from_secs(5),
    );
    let (m, _) = check_bestmove(&best, &game.position());
    game.moves.push(m);
    c.sync();

    c.send(&game.command());
    c.send("go ponder");
    c.expect_no_bestmove(Duration::from_millis(300));
    let start = Instant::now();
    c.send("ponderhit btime 1000 wtime 1000 binc 100 winc 100");
    let (best, _, took) = c.await_bestmove(start, Duration::from_secs(5));
    check_bestmove(&best, &game.position());
    assert!(took < Duration::from_millis(1100) + SLACK, "{took:?}");
    c.sync();

    // Back to shogi: the position resets to the shogi start.
    c.send("setoption name USI_Variant value shogi");
    c.send("position startpos moves 7g7f");
    let (best, _, _) = c.go("go depth 2", Duration::from_secs(5));
    check_bestmove(
        &best,
        &Game {
            moves: vec!["7g7f".into()],
            ..Game::new()
        }
        .position(),
    );
    c.send("quit");
    assert!(c.wait_exit(QUICK).success());
}
