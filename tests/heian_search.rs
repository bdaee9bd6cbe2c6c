//! The search on Heian positions through the public `Pool` API: bare-king wins and checkmates are
//! scored as wins, and (ignored, measurement) short matches against a random mover and against a
//! shallower Tokin. Run the matches with
//! `cargo test --release --test heian_search -- --ignored --nocapture`.

mod common;

use std::sync::{Arc, Mutex};
use tokin::core::movegen::legal_moves;
use tokin::core::outcome::{outcome, Outcome};
use tokin::core::{Color, EnteringKingRule, Move, Position, Variant};
use tokin::rng::Rng;
use tokin::search::{BestMove, EventSink, Limits, Pool, Score, SearchConfig, SearchEvent};

/// One engine: a pool and the events of its last search.
struct Engine {
    pool: Pool,
    events: Arc<Mutex<Vec<SearchEvent>>>,
    depth: u32,
}

impl Engine {
    fn new(depth: u32) -> Engine {
        let mut pool = Pool::new();
        pool.resize_hash(16);
        Engine {
            pool,
            events: Arc::new(Mutex::new(Vec::new())),
            depth,
        }
    }

    /// Searches `pos` to the engine's depth; returns the best move and the final score.
    fn think(&mut self, pos: &Position) -> (BestMove, Option<Score>) {
        self.events.lock().unwrap().clear();
        let events = Arc::clone(&self.events);
        let sink: EventSink = Arc::new(move |e| events.lock().unwrap().push(e));
        let limits = Limits {
            depth: Some(self.depth),
            ..Limits::default()
        };
        let config = SearchConfig {
            threads: 1,
            entering_king_rule: EnteringKingRule::None,
            ..SearchConfig::default()
        };
        self.pool.start(pos.clone(), limits, config, sink);
        self.pool.wait();
        let events = self.events.lock().unwrap();
        let best = events
            .iter()
            .rev()
            .find_map(|e| match e {
                SearchEvent::BestMove(b) => Some(*b),
                _ => None,
            })
            .expect("a search ends with BestMove");
        let score = events.iter().rev().find_map(|e| match e {
            SearchEvent::Info(info) => Some(info.score),
            _ => None,
        });
        (best, score)
    }
}

fn heian(sfen: &str) -> Position {
    Position::from_sfen(sfen, Variant::Heian).expect("test SFEN is legal")
}

fn usi(m: Move) -> String {
    m.to_usi()
}

#[test]
fn capturing_the_last_piece_is_a_win_even_in_quiescence() {
    // 5g5f takes White's last piece. At depth 1 the reply is searched by quiescence only, so the
    // score shows that quiescence knows the bare-king rule.
    let pos = heian("4k4/9/9/9/9/4p4/4G4/K8 b - 1");
    for depth in [1, 3] {
        let (best, score) = Engine::new(depth).think(&pos);
        match best {
            BestMove::Move { best, .. } => assert_eq!(usi(best), "5g5f", "depth {depth}"),
            other => panic!("depth {depth}: {other:?}"),
        }
        assert_eq!(score, Some(Score::Mate(1)), "depth {depth}");
    }
}

#[test]
fn a_bare_king_win_two_moves_ahead_is_found() {
    // White's last piece, a pawn on 1c, cannot run from the gold: 2e2d then 2d1c (or 1d1c).
    let pos = heian("4k4/9/8p/9/7G1/9/9/K8 b - 1");
    let (_, score) = Engine::new(4).think(&pos);
    assert!(
        matches!(score, Some(Score::Mate(n)) if n > 0 && n <= 5),
        "expected a bare-king win, got {score:?}"
    );
}

#[test]
fn heian_checkmate_is_found() {
    let pos = heian("4k4/9/4SG3/8p/9/9/9/K8 b - 1");
    let (best, score) = Engine::new(2).think(&pos);
    assert!(matches!(best, BestMove::Move { .. }));
    assert_eq!(score, Some(Score::Mate(1)));
}

#[test]
fn the_side_about_to_be_bared_saves_its_last_piece() {
    // White's gold on 5f, its last piece, is attacked by the silver on 5g, which the gold on 5h
    // guards (taking it loses the gold to 5h5g). The only safe square is 5e.
    let pos = Position::from_sfen("4k4/9/9/9/9/4g4/4S4/K3G4 w - 1", Variant::Heian)
        .expect("test SFEN is legal");
    let (best, _) = Engine::new(3).think(&pos);
    let BestMove::Move { best, .. } = best else {
        panic!("{best:?}")
    };
    let mut after = pos.clone();
    after.do_move(best);
    for reply in legal_moves(&after).iter() {
        let mut p = after.clone();
        p.do_move(*reply);
        assert!(
            outcome(&p, EnteringKingRule::None, 0).is_none(),
            "{} lets Black win at once with {}",
            usi(best),
            usi(*reply)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Matches (measurement; ignored in the normal suite)
// ---------------------------------------------------------------------------------------------

enum Player {
    Engine(Engine),
    Random,
}

/// Plays one game from `variant`'s start after `opening` random plies; returns the winner
/// (`None` = draw or ply cap) and the number of plies.
fn play(
    variant: Variant,
    players: &mut [Player; 2],
    rng: &mut Rng,
    opening: usize,
) -> (Option<Outcome>, usize) {
    const PLY_CAP: usize = 300;
    let mut pos = Position::startpos(variant);
    for ply in 0..PLY_CAP {
        if let Some(result) = outcome(&pos, EnteringKingRule::None, 0) {
            return (Some(result), ply);
        }
        let moves = legal_moves(&pos);
        let m = if ply < opening {
            moves[rng.below(moves.len())]
        } else {
            match &mut players[pos.side_to_move().index()] {
                Player::Random => moves[rng.below(moves.len())],
                Player::Engine(e) => match e.think(&pos).0 {
                    BestMove::Move { best, .. } => best,
                    // Resign only happens without a legal move, which `outcome` caught above.
                    other => panic!("{other:?} with legal moves at {}", pos.to_sfen()),
                },
            }
        };
        assert!(moves.contains(m), "illegal move {m} at {}", pos.to_sfen());
        pos.do_move(m);
    }
    (outcome(&pos, EnteringKingRule::None, 0), PLY_CAP)
}

/// Plays `games` games, colours alternating; returns (wins of player A, losses, draws) and a
/// short log.
fn run_match(
    variant: Variant,
    make_a: &dyn Fn() -> Player,
    make_b: &dyn Fn() -> Player,
    games: usize,
    opening: usize,
    seed: u64,
) -> (usize, usize, usize) {
    let mut rng = Rng::new(seed);
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for g in 0..games {
        let a_color = if g % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut players = if a_color == Color::Black {
            [make_a(), make_b()]
        } else {
            [make_b(), make_a()]
        };
        let (result, plies) = play(variant, &mut players, &mut rng, opening);
        match result.and_then(Outcome::winner) {
            Some(c) if c == a_color => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
        eprintln!("  {variant} game {g}: A plays {a_color:?}, {result:?} after {plies} plies");
    }
    (wins, losses, draws)
}

#[test]
#[ignore]
fn match_tokin_vs_random() {
    for variant in [Variant::Heian, Variant::Heian8] {
        let (w, l, d) = run_match(
            variant,
            &|| Player::Engine(Engine::new(3)),
            &|| Player::Random,
            10,
            0,
            0x1234_5678,
        );
        eprintln!("{variant}: Tokin depth 3 vs random mover: +{w} -{l} ={d}");
        assert!(w >= 9 && l == 0, "{variant}: +{w} -{l} ={d}");
    }
}

#[test]
#[ignore]
fn match_depth_n_vs_depth_n_minus_2() {
    for variant in [Variant::Heian, Variant::Heian8] {
        let (w, l, d) = run_match(
            variant,
            &|| Player::Engine(Engine::new(5)),
            &|| Player::Engine(Engine::new(3)),
            20,
            4,
            0x9abc_def0,
        );
        eprintln!("{variant}: Tokin depth 5 vs depth 3: +{w} -{l} ={d}");
        assert!(w > 2 * l, "{variant}: +{w} -{l} ={d}");
    }
}

#[test]
fn a_bared_side_resigns() {
    // White has nothing but its king (Black just took the last piece): the game is over, and a GUI
    // that does not know the bare-king rule gets `resign` instead of a move.
    let pos = heian("4k4/9/9/9/9/4G4/9/K8 w - 1");
    let (best, _) = Engine::new(3).think(&pos);
    assert_eq!(best, BestMove::Resign);
}
