//! Heian shogi end to end: two `tokin` processes play each other over USI after
//! `setoption name USI_Variant value heian` (and `heian8`), the way a match runner drives them.
//! Every move must be legal per the core; the game ends with a result `core::outcome` accepts, or at
//! the ply cap.

mod common;

use common::{check_bestmove, Client, Game, QUICK};
use std::time::Duration;
use tokin::core::outcome::{outcome, Outcome};
use tokin::core::{EnteringKingRule, Variant};

/// Enough plies to leave the opening; low depth keeps each move to milliseconds.
const PLY_CAP: usize = 60;
const GO: &str = "go depth 3";

fn engine(variant: Variant) -> Client {
    let mut c = Client::spawn();
    c.handshake();
    c.send(&format!(
        "setoption name USI_Variant value {}",
        variant.usi_name()
    ));
    c.send("setoption name USI_Hash value 16");
    c.sync();
    c.send("usinewgame");
    c
}

/// Plays one game; returns the outcome (None at the ply cap) and the number of plies.
fn play(variant: Variant) -> (Option<Outcome>, usize) {
    let mut engines = [engine(variant), engine(variant)];
    let mut game = Game::new();
    game.variant = variant;
    let mut pos = game.position();
    let mut result = None;
    let mut plies = PLY_CAP;
    for ply in 0..PLY_CAP {
        result = outcome(&pos, EnteringKingRule::None, 0);
        if result.is_some() {
            plies = ply;
            break;
        }
        let side = pos.side_to_move().index();
        let cmd = game.command();
        let e = &mut engines[side];
        e.send(&cmd);
        let (line, _, _) = e.go(GO, Duration::from_secs(30));
        let (best, _) = check_bestmove(&line, &pos);
        assert!(
            best != "win",
            "no declaration in {variant}: {line} at {}",
            pos.to_sfen()
        );
        assert_ne!(
            best,
            "resign",
            "resigned with legal moves and no lost result at {}",
            pos.to_sfen()
        );
        let m = pos.parse_usi_move(&best).expect("checked legal above");
        assert!(!m.is_drop(), "a drop in {variant}: {best}");
        pos.do_move(m);
        game.moves.push(best);
    }
    if result.is_none() {
        result = outcome(&pos, EnteringKingRule::None, 0);
    }
    for e in &mut engines {
        e.send("gameover");
        e.send("quit");
        e.wait_exit(QUICK);
    }
    (result, plies)
}

#[test]
fn heian_engine_vs_engine() {
    let (result, plies) = play(Variant::Heian);
    eprintln!("heian: {result:?} after {plies} plies");
    assert!(plies > 0);
}

#[test]
fn heian8_engine_vs_engine() {
    let (result, plies) = play(Variant::Heian8);
    eprintln!("heian8: {result:?} after {plies} plies");
    assert!(plies > 0);
}

#[test]
fn heian_engine_refuses_a_shogi_sfen_and_drops() {
    let mut e = engine(Variant::Heian);
    // A 9x9 SFEN while Heian is selected: an error line, the previous position is kept.
    e.send(&format!("position sfen {}", Variant::Shogi.startpos_sfen()));
    e.read_until(
        |l| l.starts_with("info string error") && l.contains("bad SFEN"),
        QUICK,
        "the bad-SFEN error",
    );
    // A drop in the move list: refused, the position after the moves before it is used.
    e.send("position startpos moves 5f5e P*5d");
    e.read_until(
        |l| l.starts_with("info string error") && l.contains("P*5d"),
        QUICK,
        "the refused drop",
    );
    let mut game = Game::new();
    game.variant = Variant::Heian;
    game.moves.push("5f5e".to_string());
    let pos = game.position();
    let (line, _, _) = e.go("go depth 2", Duration::from_secs(30));
    let (best, _) = check_bestmove(&line, &pos);
    assert!(!best.contains('*'), "{line}");
    e.send("quit");
    e.wait_exit(QUICK);
}
