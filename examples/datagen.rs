//! Self-play data for tuning the evaluation (see examples/tune.rs).
//!
//! Plays games from scripts/openings.sfen (plus a few random but sane plies, so the games differ)
//! with a fixed node budget per move, and writes quiet positions with the game's result:
//!
//! ```text
//! cargo run --release --example datagen -- OUT.txt [--nodes 4000] [--seconds 1800] [--threads 2]
//!     [--seed 1] [--openings scripts/openings.sfen]
//! ```
//!
//! Each output line is `sfen<TAB>result<TAB>score`: `result` is 1, 0.5 or 0 from the view of the side
//! to move in that position, `score` the search's score there (cp, side to move's view).
//!
//! A position is kept when it is not in check, the search's move is not a capture or promotion, and a
//! capture-only quiescence search cannot beat the static evaluation: the static evaluation then
//! describes the position, which is what Texel tuning assumes. Games end at mate, repetition, a
//! declaration, a search score beyond `ADJUDICATE` for both sides over several plies, or `MAX_PLIES`.

use rayon::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;
use tokin::core::movegen::{generate_captures, legal_moves};
use tokin::core::{outcome, Color, EnteringKingRule, Move, MoveList, Outcome, Position, Variant};
use tokin::eval;
use tokin::rng::Rng;
use tokin::search::{BestMove, Limits, Pool, Score, SearchConfig, SearchEvent};

/// Games longer than this are drawn: long shuffles teach the evaluation little.
const MAX_PLIES: u32 = 320;
/// A search score beyond this (cp, more than a rook and a gold ahead) on `ADJUDICATE_PLIES` plies in a
/// row decides the game: at this node budget such games are practically never turned around.
const ADJUDICATE: i32 = 1500;
const ADJUDICATE_PLIES: u32 = 4;
/// Random plies after the opening line: variety without playing into lost positions (each is chosen
/// among moves a capture-only search scores within `RANDOM_MARGIN` of the best).
const RANDOM_PLIES: (u32, u32) = (2, 8);
const RANDOM_MARGIN: i32 = 120;
/// Positions before this game ply are mostly duplicates of the openings.
const MIN_RECORD_PLY: u32 = 16;

struct Args {
    out: String,
    nodes: u64,
    seconds: u64,
    threads: usize,
    seed: u64,
    openings: String,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        out: String::new(),
        nodes: 4000,
        seconds: 1800,
        threads: 2,
        seed: 1,
        openings: "scripts/openings.sfen".into(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        let num = |s: String| s.parse::<u64>().map_err(|e| format!("{s}: {e}"));
        match a.as_str() {
            "--nodes" => args.nodes = num(value("--nodes")?)?,
            "--seconds" => args.seconds = num(value("--seconds")?)?,
            "--threads" => args.threads = num(value("--threads")?)? as usize,
            "--seed" => args.seed = num(value("--seed")?)?,
            "--openings" => args.openings = value("--openings")?,
            _ if args.out.is_empty() && !a.starts_with("--") => args.out = a,
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if args.out.is_empty() {
        return Err("usage: datagen OUT.txt [--nodes N] [--seconds S] [--threads T]".into());
    }
    Ok(args)
}

/// The opening lines: positions after each line's moves.
fn load_openings(path: &str) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (mut pos, moves) = if let Some(rest) = line.strip_prefix("sfen ") {
            let (sfen, moves) = match rest.split_once(" moves ") {
                Some((s, m)) => (s, m),
                None => (rest, ""),
            };
            let pos =
                Position::from_sfen(sfen, Variant::Shogi).map_err(|e| format!("{line}: {e:?}"))?;
            (pos, moves)
        } else {
            (Position::startpos(Variant::Shogi), line)
        };
        for text in moves.split_whitespace() {
            let m = pos
                .parse_usi_move(text)
                .map_err(|e| format!("{line}: {text}: {e:?}"))?;
            pos.do_move(m);
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(format!("{path}: no openings"));
    }
    Ok(out)
}

/// Capture-only quiescence with the default evaluation (side to move's view). Enough to tell quiet
/// positions from ones with a winning capture; the real search's qsearch is not public.
fn qsearch(pos: &mut Position, mut alpha: i32, beta: i32, depth: u32) -> i32 {
    let stand = eval::evaluate(pos);
    if stand >= beta || depth == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut list = MoveList::new();
    generate_captures(pos, &mut list);
    // Most valuable victim first keeps the tree small.
    let mut moves: Vec<(i32, Move)> = list
        .iter()
        .filter(|&&m| pos.is_legal_pseudo(m))
        .map(|&m| {
            let victim = pos
                .captured_piece(m)
                .map_or(0, |p| eval::piece_value(p.kind()));
            (victim, m)
        })
        .collect();
    moves.sort_unstable_by_key(|&(v, _)| -v);
    for (_, m) in moves {
        pos.do_move(m);
        let v = if pos.in_check() {
            // Not resolved by captures alone: count it as no better than standing pat.
            stand
        } else {
            -qsearch(pos, -beta, -alpha, depth - 1)
        };
        pos.undo_move();
        if v > alpha {
            alpha = v;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

/// A random legal move scored close to the best by a one-ply capture search, or `None` without moves.
fn sane_random_move(pos: &mut Position, rng: &mut Rng) -> Option<Move> {
    let moves = legal_moves(pos);
    let mut scored: Vec<(i32, Move)> = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        pos.do_move(m);
        let v = if pos.in_check() {
            -eval::evaluate(pos)
        } else {
            -qsearch(pos, -30_000, 30_000, 6)
        };
        pos.undo_move();
        scored.push((v, m));
    }
    let best = scored.iter().map(|&(v, _)| v).max()?;
    let good: Vec<Move> = scored
        .iter()
        .filter(|&&(v, _)| v >= best - RANDOM_MARGIN)
        .map(|&(_, m)| m)
        .collect();
    Some(good[rng.below(good.len())])
}

/// One search at the node budget: the move and the score (cp, mate as +-30000 minus plies).
fn search(pool: &mut Pool, pos: &Position, nodes: u64) -> Option<(Move, i32)> {
    let result: Arc<Mutex<(Option<Move>, i32)>> = Arc::new(Mutex::new((None, 0)));
    let sink_result = Arc::clone(&result);
    let sink = Arc::new(move |event: SearchEvent| {
        let mut r = sink_result.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            SearchEvent::Info(info) => {
                r.1 = match info.score {
                    Score::Cp(v) => v,
                    Score::Mate(n) if n >= 0 => 30_000 - n,
                    Score::Mate(n) => -30_000 - n,
                };
            }
            SearchEvent::BestMove(BestMove::Move { best, .. }) => r.0 = Some(best),
            _ => {}
        }
    });
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let config = SearchConfig {
        threads: 1,
        // Draws scored neutrally: the data should not carry the engine's dislike of them.
        contempt: 0,
        ..SearchConfig::default()
    };
    pool.start(pos.clone(), limits, config, sink);
    pool.wait();
    let r = *result.lock().unwrap_or_else(|e| e.into_inner());
    r.0.map(|m| (m, r.1))
}

/// Plays one game; returns its kept positions as output lines.
fn play_game(pool: &mut Pool, start: &Position, nodes: u64, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut pos = start.clone();
    pool.clear_hash();
    let rule = EnteringKingRule::default();
    let random = RANDOM_PLIES.0 + rng.below((RANDOM_PLIES.1 - RANDOM_PLIES.0 + 1) as usize) as u32;
    for _ in 0..random {
        if outcome(&pos, rule, 0).is_some() {
            return Vec::new();
        }
        match sane_random_move(&mut pos, &mut rng) {
            Some(m) => pos.do_move(m),
            None => return Vec::new(),
        }
    }

    // (sfen, side to move) of the kept positions; results are known at the end.
    let mut kept: Vec<(String, Color, i32)> = Vec::new();
    let mut streak: (i32, u32) = (0, 0);
    let start_ply = pos.game_ply();
    let winner: Option<Color> = loop {
        match outcome(&pos, rule, 0) {
            Some(Outcome::Win(c, _)) => break Some(c),
            Some(Outcome::Draw(_)) => break None,
            None => {}
        }
        if pos.game_ply() - start_ply >= MAX_PLIES {
            break None;
        }
        let Some((m, score)) = search(pool, &pos, nodes) else {
            break Some(pos.side_to_move().flip());
        };
        let us = pos.side_to_move();
        // Adjudication: the sign of the score from Black's view must hold for several plies.
        let black_score = if us == Color::Black { score } else { -score };
        let sign = if black_score >= ADJUDICATE {
            1
        } else if black_score <= -ADJUDICATE {
            -1
        } else {
            0
        };
        streak = if sign != 0 && sign == streak.0 {
            (sign, streak.1 + 1)
        } else {
            (sign, u32::from(sign != 0))
        };
        if streak.1 >= ADJUDICATE_PLIES || score.abs() >= 29_000 {
            let black_wins = if score.abs() >= 29_000 {
                black_score > 0
            } else {
                streak.0 > 0
            };
            break Some(if black_wins {
                Color::Black
            } else {
                Color::White
            });
        }
        let quiet_move = !pos.is_capture(m) && !m.is_promotion();
        if pos.game_ply() >= MIN_RECORD_PLY && !pos.in_check() && quiet_move {
            let stand = eval::evaluate(&pos);
            if qsearch(&mut pos, -30_000, 30_000, 8) <= stand {
                kept.push((pos.to_sfen(), us, score));
            }
        }
        pos.do_move(m);
    };
    kept.into_iter()
        .map(|(sfen, side, score)| {
            let result = match winner {
                None => "0.5",
                Some(c) if c == side => "1",
                Some(_) => "0",
            };
            format!("{sfen}\t{result}\t{score}")
        })
        .collect()
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let openings = match load_openings(&args.openings) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let file = match File::create(&args.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{}: {e}", args.out);
            std::process::exit(1);
        }
    };
    let threads = args.threads.max(1);
    if let Err(e) = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
    {
        eprintln!("thread pool: {e}");
    }

    // Games finish on the rayon threads; one writer thread owns the file.
    let (tx, rx) = mpsc::channel::<Vec<String>>();
    let writer = std::thread::spawn(move || -> std::io::Result<(u64, u64)> {
        let mut out = BufWriter::new(file);
        let (mut games, mut lines) = (0u64, 0u64);
        for batch in rx {
            games += 1;
            lines += batch.len() as u64;
            for line in batch {
                writeln!(out, "{line}")?;
            }
            if games % 50 == 0 {
                out.flush()?;
                eprintln!("{games} games, {lines} positions");
            }
        }
        out.flush()?;
        Ok((games, lines))
    });

    let started = Instant::now();
    let next_game = AtomicU64::new(0);
    let deadline = args.seconds;
    (0..threads).into_par_iter().for_each_with(tx, |tx, _| {
        let mut pool = Pool::new();
        pool.resize_hash(8);
        while started.elapsed().as_secs() < deadline {
            let g = next_game.fetch_add(1, Ordering::Relaxed);
            let start = &openings[(g % openings.len() as u64) as usize];
            let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(g);
            let lines = play_game(&mut pool, start, args.nodes, seed);
            if tx.send(lines).is_err() {
                return;
            }
        }
    });
    match writer.join() {
        Ok(Ok((games, lines))) => eprintln!(
            "done: {games} games, {lines} positions in {} s",
            started.elapsed().as_secs()
        ),
        Ok(Err(e)) => eprintln!("write failed: {e}"),
        Err(_) => eprintln!("writer panicked"),
    }
}
