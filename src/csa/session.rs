//! One connection to a CSA server, as a state machine: log in, wait for a game, read its summary,
//! agree (or refuse a summary that cannot be played), play it, log out. Inputs are the server's
//! lines, the search's events and the passing of time; outputs are the lines to send and notes for
//! the log. No sockets here: `client.rs` moves bytes, so this is tested with scripted servers.
//!
//! Bad input never ends the program: a line that does not parse is logged and ignored, an
//! unexpected one is logged and ignored, a summary that cannot be played is refused with `REJECT`,
//! and a move the rules core finds illegal stops our play (the server, the referee, ends the game)
//! instead of desynchronising the position.

use super::game::Game;
use super::message::{self, EndMarker, EndReason, ServerLine, Verdict};
use super::player::{comment_for, Decision, Player, Tagged};
use super::summary::{Feed, SummaryReader};
use crate::core::csa;
use crate::usi::engine::Searcher;
use std::time::{Duration, Instant, SystemTime};

/// How long the server may take to answer `LOGIN`.
pub const LOGIN_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait for `LOGOUT:completed` (floodgate closes the connection instead) or for the
/// server to confirm a refused game.
pub const CLOSING_TIMEOUT: Duration = Duration::from_secs(3);

/// What the session is given.
#[derive(Debug)]
pub enum Input {
    Line {
        text: String,
        at: Instant,
    },
    /// A line longer than the reader accepts (its length).
    TooLong(usize),
    /// The connection ended (the reason).
    Closed(String),
    Search(Tagged),
    /// Time passed (a deadline may be due).
    Tick(Instant),
}

/// How a session ended.
#[derive(Debug)]
pub enum Outcome {
    /// A game was played to its end (a verdict, or `#CHUDAN`).
    Played(Box<Game>),
    /// No game: the server withdrew it, the opponent refused it, or we refused its summary.
    Rejected(String),
    /// `LOGIN:incorrect`.
    LoginRefused,
    /// The connection ended or the server stopped answering; the game in progress, if any.
    Dropped {
        reason: String,
        game: Option<Box<Game>>,
    },
}

/// A line for the log (and, for `Progress`, for the console).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// The server accepted our login.
    LoggedIn,
    Progress(String),
    Info(String),
    Warn(String),
    /// A summary for this game id arrived: its lines belong in the game's log.
    GameId(String),
}

enum Phase {
    LoggingIn {
        since: Instant,
    },
    Waiting,
    Summary(Box<SummaryReader>),
    /// We refused a summary and wait for the server to confirm.
    Refusing {
        reason: String,
        since: Instant,
    },
    /// `AGREE` sent; waiting for `START`.
    Agreed(Box<Game>),
    Playing(Box<Game>),
    /// The game is over and `LOGOUT` sent.
    LoggingOut {
        game: Box<Game>,
        since: Instant,
    },
    Over,
}

pub struct Session<'p, S: Searcher> {
    player: &'p mut Player<S>,
    comments: bool,
    phase: Phase,
    outbox: Vec<String>,
    notes: Vec<Note>,
    /// The position stopped agreeing with the server's: we no longer move.
    desynced: bool,
    /// The game id of the summary being read, once announced in a note.
    announced: Option<String>,
}

impl<'p, S: Searcher> Session<'p, S> {
    /// Starts a session: the `LOGIN` line is the first to send.
    pub fn new(
        player: &'p mut Player<S>,
        id: &str,
        password: &str,
        comments: bool,
        now: Instant,
    ) -> Session<'p, S> {
        Session {
            player,
            comments,
            phase: Phase::LoggingIn { since: now },
            outbox: vec![message::login(id, password)],
            notes: Vec::new(),
            desynced: false,
            announced: None,
        }
    }

    /// Lines to send, in order.
    pub fn take_outbox(&mut self) -> Vec<String> {
        std::mem::take(&mut self.outbox)
    }

    pub fn take_notes(&mut self) -> Vec<Note> {
        std::mem::take(&mut self.notes)
    }

    /// When the session wants a `Tick` at the latest.
    pub fn deadline(&self) -> Option<Instant> {
        match &self.phase {
            Phase::LoggingIn { since } => Some(*since + LOGIN_TIMEOUT),
            Phase::Refusing { since, .. } | Phase::LoggingOut { since, .. } => {
                Some(*since + CLOSING_TIMEOUT)
            }
            _ => None,
        }
    }

    /// Whether a game is being played (for the log: a drop now loses it).
    pub fn in_game(&self) -> bool {
        matches!(self.phase, Phase::Playing(_))
    }

    pub fn handle(&mut self, input: Input) -> Option<Outcome> {
        let outcome = match input {
            Input::Line { text, at } => self.line(&text, at),
            Input::TooLong(n) => {
                self.warn(format!("ignored a server line of {n} bytes (too long)"));
                None
            }
            Input::Closed(reason) => Some(self.closed(reason)),
            Input::Search(tagged) => {
                self.search_event(tagged);
                None
            }
            Input::Tick(now) => self.tick(now),
        };
        if outcome.is_some() {
            self.player.stop();
            self.phase = Phase::Over;
        }
        outcome
    }

    fn warn(&mut self, text: String) {
        log::warn!("{text}");
        self.notes.push(Note::Warn(text));
    }

    fn info(&mut self, text: String) {
        log::info!("{text}");
        self.notes.push(Note::Info(text));
    }

    fn progress(&mut self, text: String) {
        log::info!("{text}");
        self.notes.push(Note::Progress(text));
    }

    fn closed(&mut self, reason: String) -> Outcome {
        match std::mem::replace(&mut self.phase, Phase::Over) {
            Phase::LoggingOut { game, .. } => Outcome::Played(game),
            Phase::Refusing { reason, .. } => Outcome::Rejected(reason),
            Phase::Playing(mut game) => {
                game.ended = Some(SystemTime::now());
                let text = format!(
                    "connection lost during game {} after {} plies ({reason}); the server may count it lost",
                    game.summary.game_id,
                    game.plies.len()
                );
                self.warn(text.clone());
                game.warnings.push(text);
                Outcome::Dropped {
                    reason,
                    game: Some(game),
                }
            }
            _ => Outcome::Dropped { reason, game: None },
        }
    }

    fn tick(&mut self, now: Instant) -> Option<Outcome> {
        let due = self.deadline().is_some_and(|d| now >= d);
        if !due {
            return None;
        }
        match std::mem::replace(&mut self.phase, Phase::Over) {
            Phase::LoggingIn { .. } => Some(Outcome::Dropped {
                reason: format!("no answer to LOGIN in {} s", LOGIN_TIMEOUT.as_secs()),
                game: None,
            }),
            Phase::Refusing { reason, .. } => Some(Outcome::Rejected(reason)),
            Phase::LoggingOut { game, .. } => Some(Outcome::Played(game)),
            other => {
                self.phase = other;
                None
            }
        }
    }

    fn line(&mut self, text: &str, at: Instant) -> Option<Outcome> {
        if let Phase::Summary(reader) = &mut self.phase {
            // The server may withdraw a game it is still describing.
            if !text.starts_with("REJECT:") {
                let fed = reader.feed(text);
                let id = reader.game_id().map(str::to_string);
                if id.is_some() && self.announced != id {
                    self.announced.clone_from(&id);
                    self.notes.extend(id.map(Note::GameId));
                }
                if let Feed::Done(result) = fed {
                    self.summary_done(*result);
                }
                return None;
            }
        }
        let parsed = match message::parse_server_line(text) {
            Ok(p) => p,
            Err(e) => {
                self.warn(format!("ignored: {e}"));
                return None;
            }
        };
        match parsed {
            ServerLine::KeepAlive => return None,
            ServerLine::Info(text) => {
                if text.starts_with("##[ERROR]") {
                    self.warn(format!("server: {text}"));
                } else {
                    self.info(format!("server: {text}"));
                }
                return None;
            }
            _ => {}
        }
        match std::mem::replace(&mut self.phase, Phase::Over) {
            Phase::LoggingIn { since } => match parsed {
                ServerLine::LoginOk { name } => {
                    self.notes.push(Note::LoggedIn);
                    self.progress(format!("logged in as {name}; waiting for a game"));
                    self.phase = Phase::Waiting;
                }
                ServerLine::LoginIncorrect => return Some(Outcome::LoginRefused),
                _ => {
                    self.unexpected(text, "before the login answer");
                    self.phase = Phase::LoggingIn { since };
                }
            },
            Phase::Waiting => match parsed {
                ServerLine::BeginSummary => self.phase = Phase::Summary(Box::default()),
                _ => {
                    self.unexpected(text, "while waiting for a game");
                    self.phase = Phase::Waiting;
                }
            },
            // Only `REJECT:` lines get here while a summary is read.
            Phase::Summary(reader) => match parsed {
                ServerLine::Reject { game_id, by } => {
                    return Some(Outcome::Rejected(format!(
                        "the server withdrew game {game_id} ({by})"
                    )))
                }
                _ => {
                    self.unexpected(text, "in a game summary");
                    self.phase = Phase::Summary(reader);
                }
            },
            Phase::Refusing { reason, since } => match parsed {
                ServerLine::Reject { .. } => return Some(Outcome::Rejected(reason)),
                _ => {
                    self.unexpected(text, "after refusing a game");
                    self.phase = Phase::Refusing { reason, since };
                }
            },
            Phase::Agreed(game) => return self.agreed(game, parsed, text, at),
            Phase::Playing(game) => return self.playing(game, parsed, text, at),
            Phase::LoggingOut { game, since } => match parsed {
                ServerLine::LogoutCompleted => return Some(Outcome::Played(game)),
                _ => {
                    self.unexpected(text, "after the game");
                    self.phase = Phase::LoggingOut { game, since };
                }
            },
            Phase::Over => {}
        }
        None
    }

    fn unexpected(&mut self, line: &str, when: &str) {
        self.warn(format!("ignored an unexpected line {when}: '{line}'"));
    }

    fn summary_done(
        &mut self,
        result: Result<super::summary::GameSummary, (Option<String>, super::summary::SummaryError)>,
    ) {
        let refuse = |session: &mut Self, id: Option<String>, reason: String| {
            session.warn(format!("refusing the game: {reason}"));
            session.outbox.push(match &id {
                Some(id) => message::reject(id),
                None => "REJECT".to_string(),
            });
            session.phase = Phase::Refusing {
                reason: format!("refused game {}: {reason}", id.unwrap_or_default()),
                since: Instant::now(),
            };
        };
        let summary = match result {
            Ok(s) => s,
            Err((id, e)) => return refuse(self, id, e.to_string()),
        };
        for line in &summary.unknown {
            self.info(format!("summary line not used: {line}"));
        }
        let id = summary.game_id.clone();
        match Game::from_summary(summary) {
            Ok(game) => {
                // Tables are cleared now, off both clocks (START has not come).
                self.player.new_game();
                let s = &game.summary;
                let text = format!(
                    "game {id}: {} (+) vs {} (-), we play {}, {}{}",
                    s.names[0],
                    s.names[1],
                    if game.us == crate::core::Color::Black {
                        "Black"
                    } else {
                        "White"
                    },
                    game.clock.rule(game.us).describe(),
                    if game.initial_plies > 0 {
                        format!(", from ply {}", game.initial_plies + 1)
                    } else {
                        String::new()
                    }
                );
                self.progress(text);
                self.outbox.push(message::agree(&id));
                self.phase = Phase::Agreed(Box::new(game));
            }
            Err(e) => refuse(self, Some(id), e.to_string()),
        }
    }

    fn agreed(
        &mut self,
        mut game: Box<Game>,
        line: ServerLine,
        text: &str,
        at: Instant,
    ) -> Option<Outcome> {
        match line {
            ServerLine::Start { game_id } => {
                if game_id != game.summary.game_id {
                    self.warn(format!(
                        "START names game {game_id}, the summary was for {}; playing it",
                        game.summary.game_id
                    ));
                }
                game.started = Some(SystemTime::now());
                self.info(format!("game {game_id} started"));
                if game.our_turn() {
                    self.player.think(&game, at);
                }
                self.phase = Phase::Playing(game);
                None
            }
            ServerLine::Reject { game_id, by } => Some(Outcome::Rejected(format!(
                "game {game_id} was refused by {by}"
            ))),
            _ => {
                self.unexpected(text, "while waiting for START");
                self.phase = Phase::Agreed(game);
                None
            }
        }
    }

    fn playing(
        &mut self,
        mut game: Box<Game>,
        line: ServerLine,
        text: &str,
        at: Instant,
    ) -> Option<Outcome> {
        match line {
            ServerLine::Move(m) => {
                let mover = game.pos.side_to_move();
                match game.server_move(&m) {
                    Ok(_) => {
                        if mover != game.us && game.our_turn() && !self.desynced {
                            self.player.think(&game, at);
                        }
                    }
                    Err(e) => {
                        self.warn(format!(
                            "{e}; our position no longer agrees with the server's, so we stop \
                             moving and wait for the server to end the game"
                        ));
                        self.desynced = true;
                        self.player.stop();
                    }
                }
            }
            ServerLine::Special { name, .. } => game.ending.special = Some(name),
            ServerLine::End(EndMarker::Reason(reason)) => {
                game.ending.reasons.push(reason);
            }
            ServerLine::End(EndMarker::Verdict(v)) => game.ending.verdict = Some(v),
            _ => self.unexpected(text, "during the game"),
        }
        if game.ending.is_final() {
            return self.game_over(game);
        }
        self.phase = Phase::Playing(game);
        None
    }

    fn game_over(&mut self, mut game: Box<Game>) -> Option<Outcome> {
        self.player.stop();
        game.ended = Some(SystemTime::now());
        for w in game.check_ending() {
            self.warn(format!("game {}: {w}", game.summary.game_id));
        }
        let result = match game.ending.verdict {
            Some(Verdict::Win) => "win",
            Some(Verdict::Lose) => "loss",
            Some(Verdict::Draw) => "draw",
            Some(Verdict::Censored) => "draw by the move limit",
            None => "interrupted",
        };
        let text = format!(
            "game {} over after {} plies: {result} ({})",
            game.summary.game_id,
            game.plies.len(),
            game.ending.describe()
        );
        self.progress(text);
        if game.ending.reasons.contains(&EndReason::Chudan) && game.ending.verdict.is_none() {
            // An interrupted game is not finished: the server decides whether it resumes.
            return Some(Outcome::Dropped {
                reason: "the server interrupted the game (#CHUDAN)".to_string(),
                game: Some(game),
            });
        }
        self.outbox.push(message::LOGOUT.to_string());
        self.phase = Phase::LoggingOut {
            game,
            since: Instant::now(),
        };
        None
    }

    fn search_event(&mut self, tagged: Tagged) {
        let Phase::Playing(game) = &mut self.phase else {
            return;
        };
        let Some(decision) = self.player.on_event(tagged, game) else {
            return;
        };
        if self.desynced || !game.our_turn() || game.pending.is_some() {
            log::warn!("search answered when no move was due; dropped");
            return;
        }
        match decision {
            Decision::Move { mv, ponder, info } => {
                let text = csa::format_move(&game.pos, mv);
                let comment = match (&info, self.comments) {
                    (Some(info), true) => Some(comment_for(&game.pos, mv, info)),
                    _ => None,
                };
                self.outbox
                    .push(message::move_with_comment(&text, comment.as_deref()));
                game.pending = Some((text, comment));
                if let Some(reply) = ponder {
                    self.player.ponder(game, mv, reply);
                }
            }
            Decision::Resign => {
                game.pending = Some((message::RESIGN.to_string(), None));
                self.outbox.push(message::RESIGN.to_string());
            }
            Decision::Declare => {
                game.pending = Some((message::DECLARE.to_string(), None));
                self.outbox.push(message::DECLARE.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::movegen::legal_moves;
    use crate::core::{Position, Variant};
    use crate::csa::player::Tagged;
    use crate::search::{
        BestMove, Bound, EventSink, Limits, Score, SearchConfig, SearchEvent, SearchInfo,
    };
    use crate::usi::options::Options;
    use std::sync::mpsc::{self, Receiver};
    use std::sync::{Arc, Mutex};

    /// A scripted pool: answers at once (timed searches inside `start`, ponder searches at
    /// `ponderhit`) with a declaration when the position allows one under the search's rule, a
    /// resignation without a legal move, and otherwise the generator's first move, expecting the
    /// first reply.
    #[derive(Default)]
    struct FakeState {
        calls: Vec<String>,
        sink: Option<EventSink>,
        root: Option<Position>,
        config: Option<SearchConfig>,
    }

    #[derive(Clone, Default)]
    struct Fake(Arc<Mutex<FakeState>>);

    impl Fake {
        fn calls(&self) -> Vec<String> {
            self.0.lock().unwrap().calls.clone()
        }
        fn answer(&self) {
            let (sink, root, config) = {
                let mut s = self.0.lock().unwrap();
                (s.sink.take(), s.root.take(), s.config.take())
            };
            let (Some(sink), Some(root), Some(config)) = (sink, root, config) else {
                return;
            };
            if root.can_declare(config.entering_king_rule) {
                sink(SearchEvent::BestMove(BestMove::Win));
                return;
            }
            let Some(&best) = legal_moves(&root).iter().next() else {
                sink(SearchEvent::BestMove(BestMove::Resign));
                return;
            };
            let mut after = root.clone();
            after.do_move(best);
            let ponder = legal_moves(&after).iter().next().copied();
            sink(SearchEvent::Info(SearchInfo {
                depth: 3,
                seldepth: 3,
                multipv: 1,
                score: Score::Cp(10),
                bound: Bound::Exact,
                nodes: 100,
                nps: 1000,
                time_ms: 1,
                hashfull: 0,
                pv: std::iter::once(best).chain(ponder).collect(),
            }));
            sink(SearchEvent::BestMove(BestMove::Move { best, ponder }));
        }
    }

    impl Searcher for Fake {
        fn resize_hash(&mut self, mb: usize) -> usize {
            mb
        }
        fn clear_hash(&mut self) {
            self.0.lock().unwrap().calls.push("clear".into());
        }
        fn start(&mut self, pos: Position, limits: Limits, config: SearchConfig, sink: EventSink) {
            {
                let mut s = self.0.lock().unwrap();
                s.calls.push(
                    if limits.ponder {
                        "start ponder"
                    } else {
                        "start"
                    }
                    .into(),
                );
                s.sink = Some(sink);
                s.root = Some(pos);
                s.config = Some(config);
            }
            if !limits.ponder {
                self.answer();
            }
        }
        fn stop(&self) {
            self.0.lock().unwrap().calls.push("stop".into());
            self.answer();
        }
        fn ponderhit(&self, _clock: Option<Limits>, _received: Instant) {
            self.0.lock().unwrap().calls.push("ponderhit".into());
            self.answer();
        }
        fn abort(&self) {
            let mut s = self.0.lock().unwrap();
            s.calls.push("abort".into());
            s.sink = None;
        }
        fn wait(&mut self) {}
        fn is_searching(&self) -> bool {
            self.0.lock().unwrap().sink.is_some()
        }
    }

    fn rig(ponder: bool) -> (Player<Fake>, Fake, Receiver<Tagged>) {
        let (tx, rx) = mpsc::channel();
        let mut options = Options::new(2);
        if ponder {
            options.set("USI_Ponder", Some("true")).unwrap();
        }
        let fake = Fake::default();
        let tx = Mutex::new(tx);
        let events: crate::csa::player::Events = Arc::new(move |t| {
            let _ = tx.lock().unwrap().send(t);
        });
        (Player::new(options, fake.clone(), events), fake, rx)
    }

    /// Gives the session one server line and then every search event it caused; returns what it
    /// sent and how it ended, if it did.
    fn step(
        s: &mut Session<Fake>,
        rx: &Receiver<Tagged>,
        line: &str,
    ) -> (Vec<String>, Option<Outcome>) {
        let mut outcome = s.handle(Input::Line {
            text: line.to_string(),
            at: Instant::now(),
        });
        let mut sent = Vec::new();
        loop {
            sent.extend(s.take_outbox());
            if outcome.is_some() {
                break;
            }
            match rx.try_recv() {
                Ok(t) => outcome = s.handle(Input::Search(t)),
                Err(_) => break,
            }
        }
        (sent, outcome)
    }

    /// One line that must not end the session; what it sent.
    fn sends(s: &mut Session<Fake>, rx: &Receiver<Tagged>, line: &str) -> Vec<String> {
        let (sent, outcome) = step(s, rx, line);
        assert!(outcome.is_none(), "{line}: {outcome:?}");
        sent
    }

    /// Feeds lines that must cause nothing to be sent and no end.
    fn quiet(s: &mut Session<Fake>, rx: &Receiver<Tagged>, lines: &[&str]) {
        for line in lines {
            let (sent, outcome) = step(s, rx, line);
            assert!(
                sent.is_empty() && outcome.is_none(),
                "{line}: {sent:?} {outcome:?}"
            );
        }
    }

    fn summary(your_turn: char, position: &[String], declaration: bool) -> Vec<String> {
        let mut lines: Vec<String> = [
            "BEGIN Game_Summary",
            "Protocol_Version:1.2",
            "Protocol_Mode:Server",
            "Format:Shogi 1.0",
            "Game_ID:g1",
            "Name+:black",
            "Name-:white",
            "Rematch_On_Draw:NO",
            "Max_Moves:256",
            "BEGIN Time",
            "Time_Unit:1sec",
            "Total_Time:600",
            "Byoyomi:10",
            "Least_Time_Per_Move:0",
            "END Time",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        lines.push(format!("Your_Turn:{your_turn}"));
        if declaration {
            lines.push("Declaration:Jishogi 1.1".into());
        }
        lines.push("BEGIN Position".into());
        lines.extend(position.iter().cloned());
        lines.push("END Position".into());
        lines.push("END Game_Summary".into());
        lines
    }

    fn start_lines() -> Vec<String> {
        csa::position_lines(&Position::startpos(Variant::Shogi).to_setup())
    }

    /// Logs in and agrees to a game; returns nothing sent but the AGREE.
    fn agree(s: &mut Session<Fake>, rx: &Receiver<Tagged>, summary: &[String]) {
        s.take_outbox();
        quiet(s, rx, &["LOGIN:tokin OK"]);
        let (last, head) = summary.split_last().unwrap();
        for line in head {
            quiet(s, rx, &[line.as_str()]);
        }
        assert_eq!(sends(s, rx, last), ["AGREE g1"]);
    }

    fn first_move(pos: &Position) -> (Move, String) {
        let m = *legal_moves(pos).iter().next().unwrap();
        (m, csa::format_move(pos, m))
    }

    use crate::core::Move;

    #[test]
    fn a_whole_game_as_white() {
        let (mut player, fake, rx) = rig(false);
        let mut s = Session::new(&mut player, "tokin", "pw", true, Instant::now());
        assert_eq!(s.take_outbox(), ["LOGIN tokin pw"]);
        agree(&mut s, &rx, &summary('-', &start_lines(), true));
        quiet(&mut s, &rx, &["START:g1", ""]);
        let mut pos = Position::startpos(Variant::Shogi);
        pos.do_move(pos.parse_usi_move("7g7f").unwrap());
        let (m, text) = first_move(&pos);
        let (sent, _) = step(&mut s, &rx, "+7776FU,T1");
        assert_eq!(sent.len(), 1);
        // Our comment: the fake's +10 for White is -10 from Black's side, then its expected reply.
        let mut after = pos.clone();
        after.do_move(m);
        let (_, reply) = first_move(&after);
        assert_eq!(sent[0], format!("{text},'* -10 {reply}"));
        quiet(&mut s, &rx, &[&format!("{text},T0"), "%TORYO", "#RESIGN"]);
        assert_eq!(sends(&mut s, &rx, "#WIN"), ["LOGOUT"]);
        let (sent, outcome) = step(&mut s, &rx, "LOGOUT:completed");
        assert!(sent.is_empty());
        let Some(Outcome::Played(game)) = outcome else {
            panic!("{outcome:?}")
        };
        assert_eq!(game.verdict(), Some(Verdict::Win));
        assert_eq!(game.plies.len(), 2);
        assert_eq!(
            game.plies[1].comment.as_deref(),
            Some(&*format!("* -10 {reply}"))
        );
        assert!(game.warnings.is_empty(), "{:?}", game.warnings);
        assert_eq!(fake.calls(), ["start"]);
    }

    #[test]
    fn ponder_hits_and_misses() {
        for hit in [true, false] {
            let (mut player, fake, rx) = rig(true);
            let mut s = Session::new(&mut player, "tokin", "pw", false, Instant::now());
            s.take_outbox();
            agree(&mut s, &rx, &summary('+', &start_lines(), true));
            let start = Position::startpos(Variant::Shogi);
            let (m, text) = first_move(&start);
            // We move at START (no comment asked for) and ponder on the expected reply.
            assert_eq!(sends(&mut s, &rx, "START:g1"), std::slice::from_ref(&text));
            assert_eq!(fake.calls(), ["start", "start ponder"]);
            quiet(&mut s, &rx, &[&format!("{text},T0")]);
            let mut after = start.clone();
            after.do_move(m);
            let replies: Vec<Move> = legal_moves(&after).iter().copied().collect();
            let reply = if hit { replies[0] } else { replies[1] };
            let (sent, _) = step(
                &mut s,
                &rx,
                &format!("{},T2", csa::format_move(&after, reply)),
            );
            assert_eq!(sent.len(), 1, "{sent:?}");
            let expected: &[&str] = if hit {
                &["start", "start ponder", "ponderhit", "start ponder"]
            } else {
                &["start", "start ponder", "abort", "start", "start ponder"]
            };
            assert_eq!(fake.calls(), expected, "hit {hit}");
        }
    }

    #[test]
    fn declarations_only_under_the_servers_rule() {
        // Black's king in its zone with twelve pieces there worth 28 points: a valid declaration.
        let pos =
            Position::from_sfen("RRBBGGGG1/SSSS3K1/9/9/9/9/9/9/4k4 b - 1", Variant::Shogi).unwrap();
        assert!(pos.can_declare(crate::core::EnteringKingRule::Csa27));
        let lines = csa::position_lines(&pos.to_setup());
        for declaration in [true, false] {
            let (mut player, _fake, rx) = rig(false);
            let mut s = Session::new(&mut player, "tokin", "pw", false, Instant::now());
            s.take_outbox();
            agree(&mut s, &rx, &summary('+', &lines, declaration));
            let (sent, _) = step(&mut s, &rx, "START:g1");
            let expected = if declaration {
                "%KACHI".to_string()
            } else {
                first_move(&pos).1
            };
            assert_eq!(sent, [expected]);
        }
    }

    #[test]
    fn bad_input_is_logged_and_ignored() {
        let (mut player, fake, rx) = rig(false);
        let mut s = Session::new(&mut player, "tokin", "pw", true, Instant::now());
        s.take_outbox();
        quiet(
            &mut s,
            &rx,
            &[
                "hello",
                "+7776XX",
                "##[ERROR] nope",
                "",
                "%",
                "#WEIRD",
                "START:g0",
            ],
        );
        let notes = s.take_notes();
        assert_eq!(
            notes.iter().filter(|n| matches!(n, Note::Warn(_))).count(),
            6,
            "{notes:?}"
        );
        agree(&mut s, &rx, &summary('-', &start_lines(), true));
        quiet(&mut s, &rx, &["LOGOUT:completed", "START:g1"]);
        // A move the rules core finds illegal: we stop moving and wait for the server's end.
        quiet(
            &mut s,
            &rx,
            &["+7775FU,T1", "-3334FU,T1", "#TIME_UP", "BEGIN Game_Summary"],
        );
        let (sent, outcome) = step(&mut s, &rx, "#LOSE");
        assert_eq!(
            (sent, outcome.is_none()),
            (vec!["LOGOUT".to_string()], true)
        );
        let (_, outcome) = step(&mut s, &rx, "LOGOUT:completed");
        let Some(Outcome::Played(game)) = outcome else {
            panic!()
        };
        assert_eq!(game.plies.len(), 0);
        assert!(
            fake.calls().iter().all(|c| c != "start"),
            "{:?}",
            fake.calls()
        );
    }

    #[test]
    fn summaries_that_cannot_be_played_are_refused() {
        let cases: [(&str, &str); 3] = [
            ("Time_Unit:1sec", "Time_Unit:1hour"),
            (
                "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
                "P1-KY-KE-GI-KI-OU-KI-GI-KE-XX",
            ),
            ("END Position", "+7775FU,T1\nEND Position"),
        ];
        for (from, to) in cases {
            let (mut player, _fake, rx) = rig(false);
            let mut s = Session::new(&mut player, "tokin", "pw", true, Instant::now());
            s.take_outbox();
            quiet(&mut s, &rx, &["LOGIN:tokin OK"]);
            let text = summary('+', &start_lines(), true)
                .join("\n")
                .replace(from, to);
            let lines: Vec<&str> = text.lines().collect();
            let (last, head) = lines.split_last().unwrap();
            quiet(&mut s, &rx, head);
            assert_eq!(sends(&mut s, &rx, last), ["REJECT g1"], "{to}");
            let (sent, outcome) = step(&mut s, &rx, "REJECT:g1 by tokin");
            assert!(sent.is_empty());
            assert!(
                matches!(outcome, Some(Outcome::Rejected(_))),
                "{to}: {outcome:?}"
            );
        }
    }

    #[test]
    fn login_refused_and_connections_lost() {
        let (mut player, _fake, rx) = rig(false);
        let mut s = Session::new(&mut player, "tokin", "pw", true, Instant::now());
        let (_, outcome) = step(&mut s, &rx, "LOGIN:incorrect");
        assert!(matches!(outcome, Some(Outcome::LoginRefused)));

        let (mut player, _fake, rx) = rig(false);
        let mut s = Session::new(&mut player, "tokin", "pw", true, Instant::now());
        agree(&mut s, &rx, &summary('-', &start_lines(), true));
        quiet(&mut s, &rx, &["START:g1"]);
        assert!(s.in_game());
        let outcome = s.handle(Input::Closed("reset".into()));
        let Some(Outcome::Dropped { game: Some(_), .. }) = outcome else {
            panic!("{outcome:?}")
        };

        // No answer to LOGIN.
        let (mut player, _fake, _rx) = rig(false);
        let t0 = Instant::now();
        let mut s = Session::new(&mut player, "tokin", "pw", true, t0);
        assert!(s.handle(Input::Tick(t0 + Duration::from_secs(1))).is_none());
        let outcome = s.handle(Input::Tick(t0 + LOGIN_TIMEOUT));
        assert!(matches!(outcome, Some(Outcome::Dropped { game: None, .. })));
    }

    #[test]
    fn an_interrupted_game_is_not_a_result() {
        let (mut player, _fake, rx) = rig(false);
        let mut s = Session::new(&mut player, "tokin", "pw", true, Instant::now());
        agree(&mut s, &rx, &summary('-', &start_lines(), true));
        quiet(&mut s, &rx, &["START:g1"]);
        let (sent, outcome) = step(&mut s, &rx, "#CHUDAN");
        assert!(sent.is_empty());
        assert!(matches!(
            outcome,
            Some(Outcome::Dropped { game: Some(_), .. })
        ));
    }
}
