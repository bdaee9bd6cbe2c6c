//! The engine side of a CSA game: the same options, search pool and time manager as the USI loop.
//! Searches start through the pool with [`Limits`] made from the server's clock and the
//! [`SearchConfig`] the options give (as `usi/engine.rs` builds them), with the server's rules laid
//! over it: its entering-king rule and move limit. Pondering thinks on the opponent's time from the
//! position after our move and the reply the search expects; the opponent's real move is a hit (the
//! search goes on with our clock) or a miss (it is dropped and a new one starts).

use super::clock::Clock;
use super::game::Game;
use crate::core::csa;
use crate::core::position::EnteringKingRule;
use crate::core::{attacks, Move, Position, Variant};
use crate::search::{BestMove, Limits, Score, SearchConfig, SearchEvent, SearchInfo};
use crate::usi::engine::{search_config, Searcher};
use crate::usi::evaluation::{EvalLoader, Notice};
use crate::usi::options::{OptionId, Options};
use std::sync::Arc;
use std::time::Instant;

/// A search event, with the number of the search it belongs to (events of a search dropped on a
/// ponder miss may still arrive and are ignored).
#[derive(Clone, Debug)]
pub struct Tagged {
    pub search: u64,
    pub event: SearchEvent,
}

/// What to send for our move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Move {
        mv: Move,
        /// The reply the search expects, legal after `mv`.
        ponder: Option<Move>,
        info: Option<SearchInfo>,
    },
    Resign,
    /// `%KACHI`: checked valid under the server's rule.
    Declare,
}

#[derive(Clone, Debug)]
enum State {
    Idle,
    /// A timed search of `root` (our turn).
    Thinking {
        search: u64,
        root: Position,
    },
    /// Thinking on the opponent's time about `root`, the position after their expected `reply`.
    Pondering {
        search: u64,
        root: Position,
        reply: Move,
    },
}

/// Where a search's events go (the session's input channel).
pub type Events = Arc<dyn Fn(Tagged) + Send + Sync>;

/// The engine: options, the pool, and the search in progress.
pub struct Player<S: Searcher> {
    options: Options,
    pool: S,
    events: Events,
    state: State,
    next_search: u64,
    /// The latest principal-variation report of the current search.
    last_info: Option<SearchInfo>,
    hash_mb: Option<usize>,
    tables_used: bool,
    /// The evaluation the options chose (a network is loaded in `prepare`).
    evaluation: EvalLoader,
}

/// The longest expected line written into a floodgate comment.
const COMMENT_PLIES: usize = 16;

impl<S: Searcher> Player<S> {
    pub fn new(options: Options, pool: S, events: Events) -> Player<S> {
        Player {
            options,
            pool,
            events,
            state: State::Idle,
            next_search: 1,
            last_info: None,
            hash_mb: None,
            tables_used: false,
            evaluation: EvalLoader::new(),
        }
    }

    /// Tables, hash and evaluation (what USI's `isready` does), before the first game; returns
    /// what is worth telling, or why the evaluation the options ask for cannot be loaded (a network
    /// game should not start on another evaluation than the one asked for).
    pub fn prepare(&mut self) -> Result<Vec<String>, String> {
        attacks::init();
        let mut told = Vec::new();
        let wanted = self.options.spin(OptionId::UsiHash).max(1) as usize;
        if self.hash_mb != Some(wanted) {
            let got = self.pool.resize_hash(wanted);
            self.hash_mb = Some(wanted);
            if got < wanted {
                told.push(format!(
                    "USI_Hash {wanted} MB does not fit in memory; the table has {got} MB"
                ));
            }
        }
        for notice in self.evaluation.prepare(&self.options, Variant::Shogi) {
            match notice {
                Notice::Info(text) => told.push(text),
                Notice::Warning(text) => told.push(format!("warning: {text}")),
                Notice::Error(text) => return Err(text),
            }
        }
        Ok(told)
    }

    /// A new game: nothing of the last one's tables is kept (as USI's `usinewgame`).
    pub fn new_game(&mut self) {
        self.stop();
        if self.tables_used {
            self.pool.clear_hash();
            self.tables_used = false;
        }
    }

    /// Whether `USI_Ponder` is on.
    pub fn ponders(&self) -> bool {
        self.options.check(OptionId::UsiPonder)
    }

    /// The options' search settings under the server's rules.
    pub fn config(&self, game: &Game) -> SearchConfig {
        let mut config = search_config(&self.options, self.evaluation.current().clone());
        // A declaration the server would refuse loses the game: declare only under a rule the
        // server names, and at least as strictly as the options ask (CSARule24's 31 points are
        // also 27-point-valid).
        if game.declaration_rule == EnteringKingRule::None {
            config.entering_king_rule = EnteringKingRule::None;
        }
        if let Some(limit) = game.summary.max_moves {
            config.max_moves_to_draw = match config.max_moves_to_draw {
                0 => limit,
                own => own.min(limit),
            };
        }
        config
    }

    /// Our turn: search the game's position on our clock, which started at `received` (when the
    /// opponent's move, or `START`, arrived). A ponder search on the move just played continues.
    pub fn think(&mut self, game: &Game, received: Instant) {
        if let State::Pondering { search, root, .. } = &self.state {
            let same = root.key() == game.pos.key()
                && root.history_len() == game.pos.history_len()
                && root.last_move() == game.pos.last_move();
            // A ponder search answers only at its ponderhit, so one still running is ours to hit.
            if same && self.pool.is_searching() {
                let (search, root) = (*search, root.clone());
                self.pool
                    .ponderhit(Some(our_limits(&game.clock, game, received)), received);
                self.state = State::Thinking { search, root };
                return;
            }
        }
        self.stop();
        let search = self.start(
            game.pos.clone(),
            our_limits(&game.clock, game, received),
            game,
        );
        self.state = State::Thinking {
            search,
            root: game.pos.clone(),
        };
    }

    /// After sending `mv`: think on the opponent's time about `reply` (when pondering is on).
    pub fn ponder(&mut self, game: &Game, mv: Move, reply: Move) {
        if !self.ponders() {
            return;
        }
        let mut root = game.pos.clone();
        if !root.is_legal(mv) {
            return;
        }
        root.do_move(mv);
        if !root.is_legal(reply) {
            return;
        }
        root.do_move(reply);
        let limits = Limits {
            ponder: true,
            ..Limits::default()
        };
        let search = self.start(root.clone(), limits, game);
        self.state = State::Pondering {
            search,
            root,
            reply,
        };
    }

    /// Whether the search expects the opponent to play `mv` (a ponder hit coming).
    pub fn is_pondering_on(&self, mv: Move) -> bool {
        matches!(&self.state, State::Pondering { reply, .. } if *reply == mv)
    }

    fn start(&mut self, root: Position, limits: Limits, game: &Game) -> u64 {
        let search = self.next_search;
        self.next_search += 1;
        self.last_info = None;
        self.tables_used = true;
        let events = Arc::clone(&self.events);
        let sink = Arc::new(move |event| events(Tagged { search, event }));
        self.pool.start(root, limits, self.config(game), sink);
        search
    }

    /// Drops any search (no answer is wanted any more) and waits for the pool to rest.
    pub fn stop(&mut self) {
        if self.pool.is_searching() {
            self.pool.abort();
            self.pool.wait();
        }
        self.state = State::Idle;
    }

    /// A search event. Returns our decision when the timed search answers.
    pub fn on_event(&mut self, tagged: Tagged, game: &Game) -> Option<Decision> {
        let State::Thinking { search, root } = &self.state else {
            if let State::Pondering { search, .. } = &self.state {
                if tagged.search == *search {
                    if let SearchEvent::Info(info) = tagged.event {
                        if info.multipv == 1 {
                            self.last_info = Some(info);
                        }
                    }
                }
            }
            return None;
        };
        if tagged.search != *search {
            return None;
        }
        match tagged.event {
            SearchEvent::Info(info) => {
                if info.multipv == 1 {
                    self.last_info = Some(info);
                }
                None
            }
            SearchEvent::Progress { .. } => None,
            SearchEvent::BestMove(best) => {
                let root = root.clone();
                // The pool's thread ends right after its answer.
                self.pool.wait();
                self.state = State::Idle;
                Some(self.decide(best, &root, game))
            }
        }
    }

    fn decide(&mut self, best: BestMove, root: &Position, game: &Game) -> Decision {
        match best {
            BestMove::Resign => Decision::Resign,
            BestMove::Win => {
                if root.can_declare(game.declaration_rule)
                    && root.can_declare(EnteringKingRule::Csa27)
                {
                    Decision::Declare
                } else {
                    // The search's rule is the server's or stricter, so this is a bug; a legal
                    // move keeps the game going where a wrong declaration would lose it.
                    log::error!("search declared a win the server's rule does not allow");
                    match crate::core::movegen::legal_moves(root).iter().next() {
                        Some(&mv) => Decision::Move {
                            mv,
                            ponder: None,
                            info: None,
                        },
                        None => Decision::Resign,
                    }
                }
            }
            BestMove::Move { best, ponder } => {
                if !root.is_legal(best) {
                    log::error!("search answered the illegal move {best}");
                    return match crate::core::movegen::legal_moves(root).iter().next() {
                        Some(&mv) => Decision::Move {
                            mv,
                            ponder: None,
                            info: None,
                        },
                        None => Decision::Resign,
                    };
                }
                Decision::Move {
                    mv: best,
                    ponder,
                    info: self.last_info.take(),
                }
            }
        }
    }
}

/// Our limits on `game`'s clock, timed from `received`.
fn our_limits(clock: &Clock, game: &Game, received: Instant) -> Limits {
    let mut limits = clock.limits(game.us);
    limits.received = Some(received);
    limits
}

/// The floodgate comment for our move `mv` from `root`: the search's score and its line after the
/// move, in CSA notation (stopping at the first move that is not legal).
pub fn comment_for(root: &Position, mv: Move, info: &SearchInfo) -> String {
    let mut pos = root.clone();
    let mut line = Vec::new();
    let mut pv = info.pv.iter().copied();
    // The line starts with the move itself when it is the search's first move.
    if info.pv.first() == Some(&mv) {
        pv.next();
    }
    pos.do_move(mv);
    for m in pv.take(COMMENT_PLIES) {
        if !pos.is_legal(m) {
            break;
        }
        line.push(csa::format_move(&pos, m));
        pos.do_move(m);
    }
    let score = match info.score {
        Score::Cp(cp) => super::message::CommentScore::Cp(cp),
        Score::Mate(plies) => super::message::CommentScore::Mate(plies),
    };
    super::message::floodgate_comment(score, root.side_to_move(), &line)
}

/// `tokin csa`'s default for `NetworkDelay2` when neither the options nor the config give one: over
/// the internet a move's round trip and the server's scheduling take far more than on one machine
/// (the USI default, 300 ms, is for a GUI on the same machine).
pub const NETWORK_DELAY2_DEFAULT_MS: i64 = 1000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;
    use crate::search::Bound;

    #[test]
    fn comments_hold_the_line_after_our_move() {
        let root = Position::startpos(Variant::Shogi);
        let mv = root.parse_usi_move("7g7f").unwrap();
        let mut after = root.clone();
        after.do_move(mv);
        let reply = after.parse_usi_move("3c3d").unwrap();
        let mut after2 = after.clone();
        after2.do_move(reply);
        let third = after2.parse_usi_move("2g2f").unwrap();
        let info = SearchInfo {
            depth: 5,
            seldepth: 5,
            multipv: 1,
            score: Score::Cp(30),
            bound: Bound::Exact,
            nodes: 1,
            nps: 1,
            time_ms: 1,
            hashfull: 0,
            // A line with an illegal move after three good ones: cut there.
            pv: vec![mv, reply, third, third],
        };
        assert_eq!(comment_for(&root, mv, &info), "* 30 -3334FU +2726FU");
        // White's score is written from Black's side.
        let info = SearchInfo {
            score: Score::Cp(45),
            pv: vec![reply],
            ..info
        };
        assert_eq!(comment_for(&after, reply, &info), "* -45");
    }
}
