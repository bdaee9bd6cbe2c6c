//! Search behaviour through the public `Pool` API: results, protocol rules, determinism.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokin::core::{Position, Variant};
use tokin::mate::{MateLimits, MateResult, MateSolver};
use tokin::search::{BestMove, EventSink, Limits, Pool, Score, SearchConfig, SearchEvent};

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// Black mates with G*5b (protected by the pawn on 5c).
const MATE_IN_1: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
/// Black to move: taking the lance on 1c (1i1c+) lets White mate with the drop G*5h (protected by
/// the pawn on 5g); a king step out of the net does not.
const DROP_MATE_BEHIND_CAPTURE: &str = "4k4/9/8l/9/9/9/4p4/9/4K3R b g 1";
/// Black to move has no legal move (gold on 5h protected by the pawn on 5g).
const MATED: &str = "4k4/9/9/9/9/9/4p4/4g4/4K4 b - 1";
/// Mate in 3 plies and no win in 1 (checked by brute force over all moves when chosen).
const MATE_IN_3: &str = "n6k1/5s3/8R/9/9/9/9/9/K8 b G 1";
/// Black's bishop on 5e is attacked by the pawn on 5d and cannot be defended profitably.
const HANGING_BISHOP: &str = "3gk4/4g4/2p3p2/4p4/4B4/2P3P2/9/4G4/4K4 b - 1";
/// White's rook on 2e stands en prise to Black's silver on 3f: take it.
const FREE_ROOK: &str = "4k4/9/ppppppppp/9/7r1/6S2/PPPPPPPPP/9/4K4 b - 1";
/// Black may declare: king in the zone, ten pieces there, 30 points with the hand.
const DECLARE: &str = "9/4K3G/PPPPPPPPP/9/9/9/9/9/4k4 b 2R2B 1";

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen, Variant::Shogi).expect("test SFEN is legal")
}

struct Recorder {
    events: Arc<Mutex<Vec<SearchEvent>>>,
}

impl Recorder {
    fn new() -> (Recorder, EventSink) {
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink_events = Arc::clone(&events);
        let sink: EventSink = Arc::new(move |e| sink_events.lock().unwrap().push(e));
        (Recorder { events }, sink)
    }

    fn events(&self) -> Vec<SearchEvent> {
        self.events.lock().unwrap().clone()
    }

    fn best_moves(&self) -> Vec<BestMove> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                SearchEvent::BestMove(b) => Some(b),
                _ => None,
            })
            .collect()
    }

    /// The final Info (the one right before BestMove).
    fn final_info(&self) -> tokin::search::SearchInfo {
        let events = self.events();
        let n = events.len();
        assert!(n >= 2, "expected Info + BestMove, got {events:?}");
        assert!(matches!(events[n - 1], SearchEvent::BestMove(_)));
        match &events[n - 2] {
            SearchEvent::Info(info) => info.clone(),
            other => panic!("event before BestMove is {other:?}"),
        }
    }
}

fn search(sfen: &str, limits: Limits, config: SearchConfig) -> Recorder {
    let mut pool = Pool::new();
    pool.resize_hash(16);
    let (rec, sink) = Recorder::new();
    pool.start(pos(sfen), limits, config, sink);
    pool.wait();
    rec
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn movetime(ms: i64) -> Limits {
    Limits {
        movetime: Some(ms),
        ..Limits::default()
    }
}

#[test]
fn finds_mate_in_one() {
    let rec = search(MATE_IN_1, depth(4), SearchConfig::default());
    let info = rec.final_info();
    assert_eq!(info.score, Score::Mate(1));
    assert_eq!(info.pv[0].to_string(), "G*5b");
    assert_eq!(rec.best_moves().len(), 1);
}

/// At depth 1 the capture's reply is left to quiescence, which searches captures only: it sees
/// the drop mate because it probes a mate in one first (before, depth 1 played 1i1c+).
#[test]
fn quiescence_sees_a_drop_mate_behind_a_capture() {
    let rec = search(DROP_MATE_BEHIND_CAPTURE, depth(1), SearchConfig::default());
    let info = rec.final_info();
    let best = info.pv[0].to_string();
    assert!(
        best.starts_with("5i"),
        "{best}: the king must step out of the net"
    );
}

/// Black's king has one move (1i2i), after which G*2h mates: at depth 1 the mate is found by
/// quiescence's mate-in-one probe at a PV node, and the PV must show it.
const ONLY_MOVE_INTO_DROP_MATE: &str = "4k4/9/9/9/9/9/7s1/9/8K b g 1";

#[test]
fn a_mate_found_in_quiescence_ends_the_pv() {
    let rec = search(ONLY_MOVE_INTO_DROP_MATE, depth(1), SearchConfig::default());
    let info = rec.final_info();
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    assert_eq!(pv, ["1i2i", "G*2h"], "{info:?}");
    assert_eq!(info.score, Score::Mate(-2), "{info:?}");
}

#[test]
fn finds_mate_in_three() {
    let rec = search(MATE_IN_3, depth(6), SearchConfig::default());
    let info = rec.final_info();
    assert_eq!(info.score, Score::Mate(3), "{info:?}");
}

#[test]
fn does_not_hang_a_piece() {
    let rec = search(HANGING_BISHOP, depth(6), SearchConfig::default());
    let info = rec.final_info();
    let best = info.pv[0];
    assert_eq!(
        best.from().map(|s| s.to_string()),
        Some("5e".to_string()),
        "pv {:?}",
        info.pv
    );
    let mut p = pos(HANGING_BISHOP);
    p.do_move(best);
    assert!(
        !p.is_attacked(tokin::core::Color::White, best.to()),
        "bishop hangs after {best}"
    );
}

#[test]
fn takes_a_free_rook() {
    let rec = search(FREE_ROOK, depth(5), SearchConfig::default());
    assert_eq!(rec.final_info().pv[0].to_string(), "3f2e");
}

#[test]
fn resigns_without_legal_move() {
    let rec = search(MATED, depth(3), SearchConfig::default());
    assert_eq!(rec.best_moves(), vec![BestMove::Resign]);
}

#[test]
fn declares_entering_king_win() {
    let rec = search(DECLARE, depth(3), SearchConfig::default());
    assert_eq!(rec.best_moves(), vec![BestMove::Win]);
}

#[test]
fn infinite_waits_for_stop_and_answers_once() {
    let mut pool = Pool::new();
    pool.resize_hash(8);
    let (rec, sink) = Recorder::new();
    // Mate in one is found at once, yet infinite must not answer before stop.
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    pool.start(pos(MATE_IN_1), limits, SearchConfig::default(), sink);
    std::thread::sleep(Duration::from_millis(300));
    assert!(rec.best_moves().is_empty());
    assert!(pool.is_searching());
    pool.stop();
    pool.wait();
    assert!(!pool.is_searching());
    assert_eq!(rec.best_moves().len(), 1);
    assert_eq!(rec.final_info().score, Score::Mate(1));
    // A stop while idle is ignored.
    pool.stop();
    assert_eq!(rec.best_moves().len(), 1);
}

/// A ponder search of the start position under `limits` (with `ponder` set).
fn start_pondering(limits: Limits) -> (Pool, Recorder) {
    let mut pool = Pool::new();
    pool.resize_hash(8);
    let (rec, sink) = Recorder::new();
    let limits = Limits {
        ponder: true,
        ..limits
    };
    pool.start(pos(STARTPOS), limits, SearchConfig::default(), sink);
    (pool, rec)
}

#[test]
fn ponder_waits_for_ponderhit() {
    let (mut pool, rec) = start_pondering(Limits {
        byoyomi: 200,
        ..Limits::default()
    });
    std::thread::sleep(Duration::from_millis(400));
    assert!(rec.best_moves().is_empty());
    pool.ponderhit(None, Instant::now());
    pool.wait();
    assert_eq!(rec.best_moves().len(), 1);
}

/// A node limit (the `NodesLimit` option, or `go ponder nodes N`) ends the thinking but not the
/// wait: a ponder search answers only at `ponderhit`, an infinite one only at `stop`.
#[test]
fn node_limits_do_not_answer_before_ponderhit_or_stop() {
    let limited = SearchConfig {
        nodes_limit: 2000,
        ..SearchConfig::default()
    };
    for (limits, config) in [
        (Limits::default(), limited.clone()),
        (
            Limits {
                nodes: Some(2000),
                ..Limits::default()
            },
            SearchConfig::default(),
        ),
    ] {
        for infinite in [false, true] {
            let mut pool = Pool::new();
            pool.resize_hash(8);
            let (rec, sink) = Recorder::new();
            let limits = Limits {
                ponder: !infinite,
                infinite,
                ..limits.clone()
            };
            pool.start(pos(STARTPOS), limits, config.clone(), sink);
            std::thread::sleep(Duration::from_millis(300));
            assert!(rec.best_moves().is_empty(), "infinite {infinite}");
            assert!(pool.is_searching());
            if infinite {
                pool.stop();
            } else {
                pool.ponderhit(None, Instant::now());
            }
            pool.wait();
            assert_eq!(rec.best_moves().len(), 1);
        }
    }
}

/// The clock runs from when the client's `go` arrived, not from when the search started: a `go`
/// that waited 10 s behind other work (a hash clear, a previous search) has used up its 5 s.
#[test]
fn the_clock_runs_from_when_go_arrived() {
    let arrived = Instant::now()
        .checked_sub(Duration::from_secs(10))
        .expect("the monotonic clock has run for 10 s");
    let started = Instant::now();
    let limits = Limits {
        movetime: Some(5000),
        received: Some(arrived),
        ..Limits::default()
    };
    let rec = search(STARTPOS, limits, SearchConfig::default());
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
    assert!(matches!(rec.best_moves()[..], [BestMove::Move { .. }]));
    assert!(rec.final_info().time_ms >= 10_000, "{:?}", rec.final_info());
}

/// Likewise after `ponderhit`: its clock starts when the `ponderhit` arrived.
#[test]
fn ponderhit_clock_runs_from_when_it_arrived() {
    let t0 = Instant::now();
    let (mut pool, rec) = start_pondering(Limits {
        movetime: Some(2000),
        ..Limits::default()
    });
    std::thread::sleep(Duration::from_millis(2300));
    assert!(rec.best_moves().is_empty());
    // Arrived 100 ms after the search began: its 2000 ms are already over.
    let hit = Instant::now();
    pool.ponderhit(None, t0 + Duration::from_millis(100));
    pool.wait();
    assert_eq!(rec.best_moves().len(), 1);
    assert!(
        hit.elapsed() < Duration::from_millis(1200),
        "{:?}",
        hit.elapsed()
    );
}

#[test]
fn abort_sends_no_bestmove() {
    let mut pool = Pool::new();
    pool.resize_hash(8);
    let (rec, sink) = Recorder::new();
    pool.start(
        pos(STARTPOS),
        Limits {
            infinite: true,
            ..Limits::default()
        },
        SearchConfig::default(),
        sink,
    );
    std::thread::sleep(Duration::from_millis(100));
    pool.abort();
    pool.wait();
    assert!(rec.best_moves().is_empty());
}

#[test]
fn deterministic_with_one_thread() {
    let mut pool = Pool::new();
    pool.resize_hash(16);
    let mut counts = Vec::new();
    for _ in 0..2 {
        pool.clear_hash();
        let (rec, sink) = Recorder::new();
        pool.start(pos(STARTPOS), depth(7), SearchConfig::default(), sink);
        pool.wait();
        counts.push(rec.final_info().nodes);
    }
    assert_eq!(counts[0], counts[1]);
    assert!(counts[0] > 0);
}

#[test]
fn two_threads_return_a_legal_move() {
    let config = SearchConfig {
        threads: 2,
        ..SearchConfig::default()
    };
    let rec = search(STARTPOS, movetime(400), config);
    let best = rec.best_moves();
    assert_eq!(best.len(), 1);
    match best[0] {
        BestMove::Move { best, .. } => assert!(pos(STARTPOS).is_legal(best)),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn ponder_move_is_legal_after_best() {
    let config = SearchConfig {
        ponder_enabled: true,
        ..SearchConfig::default()
    };
    let rec = search(STARTPOS, depth(6), config);
    match rec.best_moves()[..] {
        [BestMove::Move {
            best,
            ponder: Some(ponder),
        }] => {
            let mut p = pos(STARTPOS);
            p.do_move(best);
            assert!(p.is_legal(ponder));
        }
        ref other => panic!("expected a move with a ponder move, got {other:?}"),
    }
}

#[test]
fn heian_bare_king_capture_wins() {
    // Heian 9x8: Black's gold takes White's last piece besides the king.
    let sfen = "4k4/9/4p4/4G4/9/9/9/4K4 b - 1";
    let p = Position::from_sfen(sfen, Variant::Heian).expect("legal Heian setup");
    let mut pool = Pool::new();
    pool.resize_hash(4);
    let (rec, sink) = Recorder::new();
    pool.start(p, depth(4), SearchConfig::default(), sink);
    pool.wait();
    let info = rec.final_info();
    assert_eq!(info.pv[0].to_string(), "5d5c");
    assert_eq!(info.score, Score::Mate(1));
}

#[test]
fn heian_startpos_plays_a_legal_move() {
    let p = Position::startpos(Variant::Heian8);
    let mut pool = Pool::new();
    pool.resize_hash(4);
    let (rec, sink) = Recorder::new();
    pool.start(p.clone(), depth(5), SearchConfig::default(), sink);
    pool.wait();
    match rec.best_moves()[..] {
        [BestMove::Move { best, .. }] => assert!(p.is_legal(best)),
        ref other => panic!("{other:?}"),
    }
}

#[test]
fn multipv_reports_distinct_lines() {
    let config = SearchConfig {
        multipv: 3,
        ..SearchConfig::default()
    };
    let rec = search(STARTPOS, depth(5), config);
    let infos: Vec<_> = rec
        .events()
        .into_iter()
        .filter_map(|e| match e {
            SearchEvent::Info(i) if i.depth == 5 && i.multipv > 0 => Some(i),
            _ => None,
        })
        .collect();
    let mut firsts: Vec<_> = infos
        .iter()
        .filter(|i| i.multipv <= 3)
        .map(|i| (i.multipv, i.pv[0]))
        .collect();
    firsts.sort_by_key(|(k, _)| *k);
    firsts.dedup_by_key(|(k, _)| *k);
    assert_eq!(firsts.len(), 3, "{infos:?}");
    assert!(firsts[0].1 != firsts[1].1 && firsts[1].1 != firsts[2].1 && firsts[0].1 != firsts[2].1);
}

#[test]
fn node_limit_is_respected() {
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let rec = search(STARTPOS, limits, SearchConfig::default());
    let info = rec.final_info();
    // Checked every 1024 nodes.
    assert!(info.nodes <= 20_000 + 1024, "{}", info.nodes);
    assert_eq!(rec.best_moves().len(), 1);
}

#[test]
fn zero_limits_answer_at_once() {
    for limits in [
        Limits {
            depth: Some(0),
            ..Limits::default()
        },
        Limits {
            nodes: Some(0),
            ..Limits::default()
        },
        Limits {
            movetime: Some(0),
            ..Limits::default()
        },
        Limits {
            time: [Some(0), Some(0)],
            ..Limits::default()
        },
    ] {
        let rec = search(STARTPOS, limits.clone(), SearchConfig::default());
        assert_eq!(rec.best_moves().len(), 1, "{limits:?}");
    }
}

#[test]
fn immediate_stop_still_answers_a_sensible_move() {
    // White's rook on 2e hangs to the silver; a stop before depth 1 completes must still see that.
    let mut pool = Pool::new();
    pool.resize_hash(4);
    let (rec, sink) = Recorder::new();
    pool.start(
        pos(FREE_ROOK),
        Limits {
            infinite: true,
            ..Limits::default()
        },
        SearchConfig::default(),
        sink,
    );
    pool.stop();
    pool.wait();
    assert_eq!(rec.best_moves().len(), 1);
    assert_eq!(rec.final_info().pv[0].to_string(), "3f2e");
}

#[test]
fn movetime_is_respected() {
    let start = std::time::Instant::now();
    let rec = search(STARTPOS, movetime(300), SearchConfig::default());
    let elapsed = start.elapsed().as_millis();
    assert_eq!(rec.best_moves().len(), 1);
    // movetime minus NetworkDelay, plus thread start and a loaded test machine's slack.
    assert!(elapsed < 600, "took {elapsed} ms");
}

/// Black to move (g0057 of gen5 against gpsusi, 2026-12-05): 7e7d looks winning to alpha-beta at
/// any depth it reaches in seconds, and White then mates in 21 plies of checks (G*8h ...). The
/// defence check proves that mate within its share of a timed move and plays something else.
const WALKS_INTO_A_LONG_MATE: &str =
    "1+R4+Pnl/l1p1ks3/4ppp1p/2bs5/ppP1bN3/5PP2/PP2P3P/2S1GS3/LNKG4+r b N3P2gl 75";

#[test]
fn a_timed_search_does_not_walk_into_a_proven_mate() {
    let rec = search(
        WALKS_INTO_A_LONG_MATE,
        movetime(4000),
        SearchConfig::default(),
    );
    match rec.best_moves()[..] {
        [BestMove::Move { best, .. }] => assert_ne!(best.to_usi(), "7e7d"),
        ref other => panic!("unexpected {other:?}"),
    }
}

/// Black to move (g0065 of the bundle against gpsusi at 1 s byoyomi, 2026-12-07): 6b5b, 6b5a,
/// 1e1d, 3b4b and 4c4b each look best at some depth and each lets White mate in 15 plies of
/// checks. A move that first led within an iteration the clock then cut short went unchecked:
/// 6b5b was played in 3 of 4 searches at 1 s byoyomi, 3b4b in 4 of 4 of this test beside a match.
const BEST_LATE_WALKS_INTO_MATE: &str =
    "l7l/3+Rsg+P1k/p4S1pp/7b1/4P2NP/1P7/P2P1PBPL/2+r3P2/L4gSK1 b 2N5P2gsnp 101";

#[test]
fn a_move_that_becomes_best_within_an_iteration_is_checked_too() {
    let rec = search(
        BEST_LATE_WALKS_INTO_MATE,
        movetime(1000),
        SearchConfig::default(),
    );
    let [BestMove::Move { best, .. }] = rec.best_moves()[..] else {
        panic!("unexpected {:?}", rec.best_moves());
    };
    // The move played leaves no mate that df-pn proves in the time the defence check had.
    let mut after = pos(BEST_LATE_WALKS_INTO_MATE);
    after.do_move(best);
    let limits = MateLimits {
        time_ms: Some(500),
        nodes: None,
    };
    let result = MateSolver::new(16).prove(&after, limits, &AtomicBool::new(false));
    assert!(
        !matches!(result, MateResult::Mate(_)),
        "{} lets White mate: {result:?}",
        best.to_usi()
    );
}

#[test]
fn searchmoves_restricts_the_root() {
    let p = pos(STARTPOS);
    let only = p.parse_usi_move("9g9f").unwrap();
    let limits = Limits {
        depth: Some(4),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let rec = search(STARTPOS, limits, SearchConfig::default());
    assert_eq!(
        rec.best_moves(),
        vec![BestMove::Move {
            best: only,
            ponder: None
        }]
    );
}

/// `cargo test --release --test search -- --ignored --nocapture bench_report` prints the bench.
#[test]
#[ignore]
fn bench_report() {
    let depth = std::env::var("BENCH_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(9);
    let r = tokin::search::bench(depth);
    println!(
        "bench depth {depth}: nodes {} time {} ms nps {}",
        r.nodes, r.time_ms, r.nps
    );
}

/// `cargo test --release --test search -- --ignored --nocapture smp_report`: time to depth and nps
/// with 1 and 2 threads over the first bench positions.
#[test]
#[ignore]
fn smp_report() {
    let depth = std::env::var("SMP_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(10);
    for threads in [1, 2] {
        let mut pool = Pool::new();
        pool.resize_hash(64);
        let (mut time_ms, mut nodes) = (0u64, 0u64);
        for sfen in &tokin::search::bench::POSITIONS[..8] {
            pool.clear_hash();
            let (rec, sink) = Recorder::new();
            let config = SearchConfig {
                threads,
                ..SearchConfig::default()
            };
            pool.start(pos(sfen), depth_limits(depth), config, sink);
            pool.wait();
            let info = rec.final_info();
            time_ms += info.time_ms;
            nodes += info.nodes;
        }
        println!(
            "threads {threads}: depth {depth} in {time_ms} ms, {nodes} nodes, {} nps",
            nodes * 1000 / time_ms.max(1)
        );
        // What a `go` costs beyond the search itself (thread start, root setup, answer).
        let start = std::time::Instant::now();
        for _ in 0..20 {
            let (_rec, sink) = Recorder::new();
            let config = SearchConfig {
                threads,
                ..SearchConfig::default()
            };
            pool.start(pos(STARTPOS), depth_limits(1), config, sink);
            pool.wait();
        }
        println!(
            "threads {threads}: go depth 1 round trip {} us",
            start.elapsed().as_micros() / 20
        );
    }
}

fn depth_limits(d: u32) -> Limits {
    depth(d)
}

/// A mate of 11 plies that alpha-beta does not prove at the depth a short search reaches: the
/// root df-pn probe finds it and the move is answered at once with `score mate 11` and the line.
#[test]
fn root_mate_probe_plays_a_long_mate() {
    let sfen = "4+P2kl/7s1/5R3/7B1/9/9/9/9/9 b GNrb3g3s3n3l17p 1";
    let shallow = search(sfen, depth(3), SearchConfig::default());
    assert!(
        !matches!(shallow.final_info().score, Score::Mate(n) if n > 0),
        "depth 3 already sees the mate"
    );
    let start = std::time::Instant::now();
    let rec = search(
        sfen,
        Limits {
            movetime: Some(10_000),
            ..Limits::default()
        },
        SearchConfig::default(),
    );
    let info = rec.final_info();
    assert_eq!(info.score, Score::Mate(11));
    let line: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    assert_eq!(line[0], "G*3b");
    assert_eq!(line.len(), 11);
    assert!(tokin::mate::is_mating_line(&pos(sfen), &info.pv));
    match rec.best_moves()[..] {
        [BestMove::Move { best, .. }] => assert_eq!(best, info.pv[0]),
        ref other => panic!("expected one move, got {other:?}"),
    }
    // Played at once, not after the 10 s.
    assert!(start.elapsed().as_millis() < 3000);
}

/// In an infinite search the mate is reported, but `bestmove` still waits for `stop`.
#[test]
fn root_mate_probe_in_infinite_waits_for_stop() {
    let sfen = "4+P2kl/7s1/5R3/7B1/9/9/9/9/9 b GNrb3g3s3n3l17p 1";
    let (rec, sink) = Recorder::new();
    let mut pool = Pool::new();
    pool.resize_hash(16);
    pool.start(
        pos(sfen),
        Limits {
            infinite: true,
            ..Limits::default()
        },
        SearchConfig::default(),
        sink,
    );
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(rec.best_moves().is_empty());
    let mate_reported = rec
        .events()
        .iter()
        .any(|e| matches!(e, SearchEvent::Info(i) if i.score == Score::Mate(11)));
    assert!(mate_reported);
    pool.stop();
    pool.wait();
    assert_eq!(rec.best_moves().len(), 1);
    assert_eq!(rec.final_info().score, Score::Mate(11));
}

/// The draw is scored `-contempt` for the side to move at the root: with White able to complete a
/// fourfold repetition at once, a negative contempt (draw-seeking) takes it at `-contempt` and a
/// positive one avoids it.
#[test]
fn contempt_scores_the_draw_for_the_root_side() {
    let mut p = pos(STARTPOS);
    let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"];
    for m in cycle.iter().cycle().take(11) {
        let mv = p.parse_usi_move(m).unwrap();
        p.do_move(mv);
    }
    // White to move; 5b5a repeats the start position a fourth time.
    let repeat = p.parse_usi_move("5b5a").unwrap();
    let run = |contempt: i32| {
        let mut pool = Pool::new();
        pool.resize_hash(16);
        let (rec, sink) = Recorder::new();
        let config = SearchConfig {
            contempt,
            ..SearchConfig::default()
        };
        pool.start(p.clone(), depth(4), config, sink);
        pool.wait();
        rec
    };
    let seeker = run(-500);
    assert_eq!(seeker.final_info().score, Score::Cp(500));
    assert_eq!(seeker.final_info().pv[0], repeat);
    let avoider = run(500);
    assert_ne!(avoider.final_info().pv[0], repeat);
    assert_eq!(SearchConfig::default().contempt, 20);
}
