//! Search behaviour through the public `Pool` API: results, protocol rules, determinism.

use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokin::core::{Position, Variant};
use tokin::search::{BestMove, EventSink, Limits, Pool, Score, SearchConfig, SearchEvent};

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// Black mates with G*5b (protected by the pawn on 5c).
const MATE_IN_1: &str = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
/// Black to move has no legal move (gold on 5h protected by the pawn on 5g).
const MATED: &str = "4k4/9/9/9/9/9/4p4/4g4/4K4 b - 1";
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

#[test]
fn finds_mate_in_one() {
    let rec = search(MATE_IN_1, depth(4), SearchConfig::default());
    let info = rec.final_info();
    assert_eq!(info.score, Score::Mate(1));
    assert_eq!(info.pv[0].to_string(), "G*5b");
    assert_eq!(rec.best_moves().len(), 1);
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

#[test]
fn ponder_waits_for_ponderhit() {
    let mut pool = Pool::new();
    pool.resize_hash(8);
    let (rec, sink) = Recorder::new();
    let limits = Limits {
        ponder: true,
        byoyomi: 200,
        ..Limits::default()
    };
    pool.start(pos(STARTPOS), limits, SearchConfig::default(), sink);
    std::thread::sleep(Duration::from_millis(400));
    assert!(rec.best_moves().is_empty());
    pool.ponderhit(None);
    pool.wait();
    assert_eq!(rec.best_moves().len(), 1);
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
    let rec = search(
        STARTPOS,
        Limits {
            movetime: Some(400),
            ..Limits::default()
        },
        config,
    );
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
