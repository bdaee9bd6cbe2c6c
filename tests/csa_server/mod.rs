//! A CSA protocol server for the tests, on loopback only: it pairs two logged-in clients by id,
//! sends each the game summary shogi-server would (position, moves already played with their
//! times, the time block), referees with the rules core (legality, sennichite and perpetual check,
//! the 27-point declaration, the move limit), keeps and enforces the clock itself (a flag falls
//! even while the player to move stays silent), and reports every game.
//!
//! Its clock is written here, not taken from `tokin::csa::clock`, so the client's bookkeeping is
//! checked against a second implementation of the rules (shogi-server's `time_clock.rb`: charge =
//! elapsed in whole units, truncated or rounded up, at least `Least_Time_Per_Move`; the flag falls
//! when the charge reaches remaining + increment + byoyomi; remaining = max(0, remaining +
//! increment - charge)).
//!
//! A plan may drop the connection of the player to move after some plies: the other player gets
//! `#CHUDAN`, and the game is offered again to the same two players, from the position reached
//! with every move so far (and its time) in the summary, its times charged (the protocol's way of
//! resuming).

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};
use tokin::core::csa;
use tokin::core::position::{EnteringKingRule, GameResult, Position};
use tokin::core::{movegen, Color};

/// The time rule of a plan (both sides).
#[derive(Clone, Debug)]
pub struct Time {
    /// As written in `Time_Unit` (`1sec`, `1msec`, ...).
    pub unit: &'static str,
    pub unit_ms: u64,
    pub total: u64,
    pub byoyomi: u64,
    pub increment: u64,
    pub least: u64,
    pub roundup: bool,
}

impl Time {
    /// Milliseconds as units: `1msec`.
    pub fn msec(total: u64, byoyomi: u64, increment: u64) -> Time {
        Time {
            unit: "1msec",
            unit_ms: 1,
            total,
            byoyomi,
            increment,
            least: 0,
            roundup: false,
        }
    }
}

/// One game to play.
#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub black: String,
    pub white: String,
    pub time: Time,
    /// The board part of the position block (rows or `PI`, hands, side to move).
    pub position: Vec<String>,
    /// Moves already played, with the units they were charged.
    pub moves: Vec<(String, u64)>,
    /// Charge the summary's moves to the clocks (a resumed game) instead of starting at the total
    /// (what shogi-server does for its buoy games).
    pub charge_summary_moves: bool,
    pub max_moves: u32,
    pub declaration: bool,
    /// Drop the player to move once this many plies (the summary's included) have been played.
    pub drop_after: Option<usize>,
}

impl Plan {
    pub fn new(name: &str, black: &str, white: &str, time: Time) -> Plan {
        Plan {
            name: name.into(),
            black: black.into(),
            white: white.into(),
            time,
            position: vec!["PI".into(), "+".into()],
            moves: Vec::new(),
            charge_summary_moves: false,
            max_moves: 256,
            declaration: true,
            drop_after: None,
        }
    }
}

/// How a game went.
#[derive(Clone, Debug)]
pub struct Report {
    pub game_id: String,
    pub black: String,
    pub white: String,
    /// Every move with its charge, the summary's first.
    pub moves: Vec<(String, u64)>,
    pub initial_moves: usize,
    /// The server's reason line (`#RESIGN`, `#TIME_UP`, `#CHUDAN`, ...).
    pub reason: String,
    pub winner: Option<Color>,
    pub final_position: String,
    /// Whether the side to move at the end had no legal move (and whether it was in check).
    pub no_legal_move: bool,
    pub in_check: bool,
    /// Lines that broke the protocol (a move out of turn, an unknown command...).
    pub violations: Vec<String>,
    /// Each side's smallest margin, in ms, between a move's real time and its flag.
    pub closest_ms: [Option<i64>; 2],
    /// Keep-alive lines received, by side.
    pub keepalives: [usize; 2],
}

enum Event {
    Connected(u64, TcpStream),
    Line(u64, String, Instant),
    Closed(u64),
}

pub struct TestServer {
    pub port: u16,
    reports: Receiver<Report>,
    stop: Arc<AtomicBool>,
    /// Every line the server saw or sent, for failure messages.
    pub transcript: Arc<std::sync::Mutex<Vec<String>>>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl TestServer {
    /// Starts a server that plays `plans` in order.
    pub fn start(plans: Vec<Plan>) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let (events_tx, events_rx) = mpsc::channel();
        let (reports_tx, reports) = mpsc::channel();
        let transcript = Arc::new(std::sync::Mutex::new(Vec::new()));
        {
            let stop = Arc::clone(&stop);
            thread::spawn(move || accept_loop(listener, events_tx, stop));
        }
        {
            let stop = Arc::clone(&stop);
            let transcript = Arc::clone(&transcript);
            thread::spawn(move || {
                Referee {
                    conns: HashMap::new(),
                    plans: plans.into(),
                    game: None,
                    reports: reports_tx,
                    transcript,
                    closing: Vec::new(),
                    next_game: 1,
                }
                .run(events_rx, stop)
            });
        }
        TestServer {
            port,
            reports,
            stop,
            transcript,
        }
    }

    /// The next finished game's report.
    pub fn report(&self, timeout: Duration) -> Report {
        match self.reports.recv_timeout(timeout) {
            Ok(r) => r,
            Err(_) => panic!(
                "no game report within {timeout:?}\n--- server transcript ---\n{}",
                self.transcript.lock().unwrap().join("\n")
            ),
        }
    }

    pub fn transcript(&self) -> String {
        self.transcript.lock().unwrap().join("\n")
    }
}

fn accept_loop(listener: TcpListener, tx: Sender<Event>, stop: Arc<AtomicBool>) {
    let mut next = 1u64;
    while !stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).unwrap();
                stream.set_nodelay(true).unwrap();
                let id = next;
                next += 1;
                let reader = stream.try_clone().unwrap();
                if tx.send(Event::Connected(id, stream)).is_err() {
                    return;
                }
                let tx = tx.clone();
                thread::spawn(move || {
                    let mut reader = BufReader::new(reader);
                    let mut buf = String::new();
                    loop {
                        buf.clear();
                        match reader.read_line(&mut buf) {
                            Ok(0) | Err(_) => break,
                            Ok(_) => {
                                let at = Instant::now();
                                let line = buf.trim_end_matches(['\n', '\r']).to_string();
                                if tx.send(Event::Line(id, line, at)).is_err() {
                                    return;
                                }
                            }
                        }
                    }
                    let _ = tx.send(Event::Closed(id));
                });
            }
            Err(_) => thread::sleep(Duration::from_millis(5)),
        }
    }
}

struct Conn {
    stream: TcpStream,
    name: Option<String>,
    /// Logged in and not in a game.
    waiting: bool,
}

struct Game {
    plan: Plan,
    id: String,
    /// Connection ids, by colour.
    players: [u64; 2],
    agreed: [bool; 2],
    started: bool,
    pos: Position,
    moves: Vec<(String, u64)>,
    initial_moves: usize,
    remaining: [u64; 2],
    turn_start: Instant,
    violations: Vec<String>,
    closest_ms: [Option<i64>; 2],
    keepalives: [usize; 2],
}

impl Game {
    fn allowance_units(&self, c: Color) -> u64 {
        self.remaining[c.index()] + self.plan.time.increment + self.plan.time.byoyomi
    }

    fn unlimited(&self) -> bool {
        let t = &self.plan.time;
        t.total == 0 && t.byoyomi == 0 && t.increment == 0
    }

    /// When the player to move flags: its allowance from the start of its turn.
    fn flag_at(&self) -> Option<Instant> {
        if !self.started || self.unlimited() {
            return None;
        }
        let units = self.allowance_units(self.pos.side_to_move());
        // Truncated charges flag at `units` whole units of real time; rounded up, one unit less.
        let units = if self.plan.time.roundup {
            units.saturating_sub(1)
        } else {
            units
        };
        Some(self.turn_start + Duration::from_millis(units * self.plan.time.unit_ms))
    }
}

struct Referee {
    conns: HashMap<u64, Conn>,
    plans: std::collections::VecDeque<Plan>,
    game: Option<Game>,
    reports: Sender<Report>,
    transcript: Arc<std::sync::Mutex<Vec<String>>>,
    /// Connections to close at a moment (after a game, unless they log out first).
    closing: Vec<(u64, Instant)>,
    next_game: u64,
}

impl Referee {
    fn run(mut self, events: Receiver<Event>, stop: Arc<AtomicBool>) {
        while !stop.load(Ordering::Relaxed) {
            let mut wake = Instant::now() + Duration::from_millis(50);
            if let Some(flag) = self.game.as_ref().and_then(Game::flag_at) {
                wake = wake.min(flag);
            }
            for &(_, at) in &self.closing {
                wake = wake.min(at);
            }
            match events.recv_timeout(wake.saturating_duration_since(Instant::now())) {
                Ok(Event::Connected(id, stream)) => {
                    self.log(format!("[{id}] connected"));
                    self.conns.insert(
                        id,
                        Conn {
                            stream,
                            name: None,
                            waiting: false,
                        },
                    );
                }
                Ok(Event::Line(id, line, at)) => self.line(id, &line, at),
                Ok(Event::Closed(id)) => self.closed(id),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            self.timers();
        }
        for conn in self.conns.values() {
            let _ = conn.stream.shutdown(Shutdown::Both);
        }
    }

    fn log(&self, text: String) {
        self.transcript.lock().unwrap().push(text);
    }

    fn send(&mut self, id: u64, text: &str) {
        self.log(format!("[{id}] > {text}"));
        if let Some(conn) = self.conns.get_mut(&id) {
            let mut bytes = text.as_bytes().to_vec();
            bytes.push(b'\n');
            let _ = conn.stream.write_all(&bytes);
        }
    }

    fn close(&mut self, id: u64) {
        if let Some(conn) = self.conns.remove(&id) {
            self.log(format!("[{id}] closed by the server"));
            let _ = conn.stream.shutdown(Shutdown::Both);
        }
    }

    fn timers(&mut self) {
        let now = Instant::now();
        let due: Vec<u64> = self
            .closing
            .iter()
            .filter(|(_, at)| *at <= now)
            .map(|(id, _)| *id)
            .collect();
        self.closing.retain(|(_, at)| *at > now);
        for id in due {
            self.close(id);
        }
        let flagged = self
            .game
            .as_ref()
            .and_then(Game::flag_at)
            .is_some_and(|at| now >= at);
        if flagged {
            let loser = self.game.as_ref().unwrap().pos.side_to_move();
            self.end(&["#TIME_UP"], Some(loser.flip()));
        }
    }

    fn closed(&mut self, id: u64) {
        self.log(format!("[{id}] closed by the client"));
        self.conns.remove(&id);
        self.closing.retain(|(c, _)| *c != id);
        let in_game = self
            .game
            .as_ref()
            .and_then(|g| g.players.iter().position(|&p| p == id));
        if let Some(i) = in_game {
            let started = self.game.as_ref().unwrap().started;
            if started {
                // shogi-server's abnormal end: the one left wins.
                let winner = Color::ALL[1 - i];
                self.end(&["%TORYO", "#RESIGN"], Some(winner));
            } else {
                let other = self.game.as_ref().unwrap().players[1 - i];
                let gid = self.game.as_ref().unwrap().id.clone();
                self.send(
                    other,
                    &format!("REJECT:{gid} by the Server (opponent left)"),
                );
                self.game = None;
                self.close(other);
            }
        }
    }

    fn line(&mut self, id: u64, line: &str, at: Instant) {
        self.log(format!("[{id}] < {line}"));
        let in_game = self
            .game
            .as_ref()
            .and_then(|g| g.players.iter().position(|&p| p == id));
        if let Some(rest) = line.strip_prefix("LOGIN ") {
            let mut parts = rest.split(' ');
            let (name, pw) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            if pw == "bad" || name.is_empty() {
                self.send(id, "LOGIN:incorrect");
                self.close(id);
                return;
            }
            self.send(id, &format!("LOGIN:{name} OK"));
            if let Some(c) = self.conns.get_mut(&id) {
                c.name = Some(name.to_string());
                c.waiting = true;
            }
            self.try_pair();
            return;
        }
        if line == "LOGOUT" {
            self.send(id, "LOGOUT:completed");
            self.close(id);
            return;
        }
        if line.is_empty() {
            // shogi-server answers a keep-alive with an empty line.
            self.send(id, "");
            if let (Some(i), Some(g)) = (in_game, self.game.as_mut()) {
                g.keepalives[i] += 1;
            }
            return;
        }
        let Some(i) = in_game else {
            self.log(format!("[{id}] violation: '{line}' outside a game"));
            return;
        };
        let color = Color::ALL[i];
        if let Some(gid) = line.strip_prefix("AGREE") {
            let g = self.game.as_mut().unwrap();
            if !gid.trim().is_empty() && gid.trim() != g.id {
                g.violations
                    .push(format!("{color:?} agreed to '{}'", gid.trim()));
            }
            g.agreed[i] = true;
            if g.agreed == [true, true] && !g.started {
                g.started = true;
                let gid = g.id.clone();
                let players = g.players;
                for p in players {
                    self.send(p, &format!("START:{gid}"));
                }
                self.game.as_mut().unwrap().turn_start = Instant::now();
            }
            return;
        }
        if line.starts_with("REJECT") {
            let g = self.game.take().unwrap();
            let name = self.conns[&id].name.clone().unwrap_or_default();
            for p in g.players {
                self.send(p, &format!("REJECT:{} by {name}", g.id));
                self.close(p);
            }
            let _ = self.reports.send(report(&g, "REJECT", None));
            return;
        }
        let g = self.game.as_mut().unwrap();
        if !g.started {
            g.violations
                .push(format!("{color:?} sent '{line}' before START"));
            return;
        }
        if g.pos.side_to_move() != color {
            g.violations
                .push(format!("{color:?} sent '{line}' out of turn"));
            return;
        }
        // The charge for this move.
        let elapsed = at.saturating_duration_since(g.turn_start).as_millis() as u64;
        let unit = g.plan.time.unit_ms;
        let units = if g.plan.time.roundup {
            elapsed.div_ceil(unit)
        } else {
            elapsed / unit
        };
        let t = units.max(g.plan.time.least);
        if !g.unlimited() {
            let allowance = g.allowance_units(color);
            let margin = (allowance * unit) as i64 - elapsed as i64;
            let closest = &mut g.closest_ms[i];
            *closest = Some(closest.map_or(margin, |c| c.min(margin)));
            if t >= allowance {
                self.end(&["#TIME_UP"], Some(color.flip()));
                return;
            }
        }
        if line == "%TORYO" {
            self.end(&["%TORYO", "#RESIGN"], Some(color.flip()));
            return;
        }
        if line == "%KACHI" {
            if g.pos.can_declare(EnteringKingRule::Csa27) {
                self.end(&["%KACHI", "#JISHOGI"], Some(color));
            } else {
                self.end(&["%KACHI", "#ILLEGAL_MOVE"], Some(color.flip()));
            }
            return;
        }
        let mv_text = line.split(',').next().unwrap_or("");
        if line.contains(",T") {
            g.violations
                .push(format!("{color:?} sent a time with its move: '{line}'"));
        }
        if let Some(comment) = line.split_once(",'").map(|(_, c)| c) {
            if !comment.starts_with("* ") {
                g.violations.push(format!(
                    "{color:?}'s comment is not floodgate's '* <score> ...'"
                ));
            }
        }
        let m = match csa::parse_move(&g.pos, mv_text) {
            Ok(m) => m,
            Err(e) => {
                g.violations.push(format!("{color:?} played '{line}': {e}"));
                self.end(&["#ILLEGAL_MOVE"], Some(color.flip()));
                return;
            }
        };
        g.pos.do_move(m);
        let rem = &mut g.remaining[i];
        *rem = (*rem + g.plan.time.increment).saturating_sub(t);
        g.moves.push((mv_text.to_string(), t));
        let echo = format!("{mv_text},T{t}");
        let players = g.players;
        for p in players {
            self.send(p, &echo);
        }
        let g = self.game.as_mut().unwrap();
        g.turn_start = Instant::now();
        match g.pos.sennichite() {
            Some(GameResult::Draw) => return self.end(&["#SENNICHITE"], None),
            Some(GameResult::Win(w)) => return self.end(&["#OUTE_SENNICHITE"], Some(w)),
            None => {}
        }
        if g.plan.max_moves > 0 && g.moves.len() >= g.plan.max_moves as usize {
            return self.end(&["#MAX_MOVES"], None);
        }
        if g.plan.drop_after == Some(g.moves.len()) {
            self.drop_player_to_move();
        }
    }

    /// Ends the game: the reason lines, each player's verdict, a report; the players may log out
    /// within a second, then their connections close.
    fn end(&mut self, lines: &[&str], winner: Option<Color>) {
        let Some(g) = self.game.take() else { return };
        let censored = lines.contains(&"#MAX_MOVES");
        for (i, &p) in g.players.iter().enumerate() {
            for l in lines {
                self.send(p, l);
            }
            let verdict = match winner {
                _ if censored => "#CENSORED",
                None => "#DRAW",
                Some(w) if w.index() == i => "#WIN",
                Some(_) => "#LOSE",
            };
            self.send(p, verdict);
            self.closing
                .push((p, Instant::now() + Duration::from_secs(1)));
        }
        let reason = lines.last().copied().unwrap_or("");
        let _ = self.reports.send(report(&g, reason, winner));
    }

    /// The plan's drop: the player to move loses its connection, the other gets `#CHUDAN`, and the
    /// game is offered again from here.
    fn drop_player_to_move(&mut self) {
        let g = self.game.take().unwrap();
        let to_move = g.pos.side_to_move().index();
        self.close(g.players[to_move]);
        let other = g.players[1 - to_move];
        self.send(other, "#CHUDAN");
        self.closing
            .push((other, Instant::now() + Duration::from_millis(200)));
        let mut resumed = g.plan.clone();
        resumed.moves = g.moves.clone();
        resumed.charge_summary_moves = true;
        resumed.drop_after = None;
        self.plans.push_front(resumed);
        let _ = self.reports.send(report(&g, "#CHUDAN", None));
    }

    fn try_pair(&mut self) {
        if self.game.is_some() {
            return;
        }
        let Some(plan) = self.plans.front().cloned() else {
            return;
        };
        let find = |conns: &HashMap<u64, Conn>, name: &str| {
            conns
                .iter()
                .find(|(_, c)| c.waiting && c.name.as_deref() == Some(name))
                .map(|(&id, _)| id)
        };
        let (Some(b), Some(w)) = (
            find(&self.conns, &plan.black),
            find(&self.conns, &plan.white),
        ) else {
            return;
        };
        self.plans.pop_front();
        for id in [b, w] {
            self.conns.get_mut(&id).unwrap().waiting = false;
        }
        let gid = format!(
            "test+{}+{}+{}+{}",
            plan.name, plan.black, plan.white, self.next_game
        );
        self.next_game += 1;
        let mut pos = csa::parse_position(&plan.position).expect("plan position");
        let mut remaining = [plan.time.total; 2];
        for (text, t) in &plan.moves {
            let c = pos.side_to_move().index();
            if plan.charge_summary_moves {
                remaining[c] = (remaining[c] + plan.time.increment).saturating_sub(*t);
            }
            let m = csa::parse_move(&pos, text).expect("plan move");
            pos.do_move(m);
        }
        let game = Game {
            id: gid,
            players: [b, w],
            agreed: [false; 2],
            started: false,
            initial_moves: plan.moves.len(),
            moves: plan.moves.clone(),
            pos,
            remaining,
            turn_start: Instant::now(),
            violations: Vec::new(),
            closest_ms: [None; 2],
            keepalives: [0; 2],
            plan,
        };
        for (i, &p) in [b, w].iter().enumerate() {
            for line in summary(&game, Color::ALL[i]) {
                self.send(p, &line);
            }
        }
        self.game = Some(game);
    }
}

/// The summary shogi-server's `propose_message` sends, for `to`.
fn summary(g: &Game, to: Color) -> Vec<String> {
    let t = &g.plan.time;
    let mut lines = vec![
        "BEGIN Game_Summary".to_string(),
        "Protocol_Version:1.2".into(),
        "Protocol_Mode:Server".into(),
        "Format:Shogi 1.0".into(),
    ];
    if g.plan.declaration {
        lines.push("Declaration:Jishogi 1.1".into());
    }
    lines.extend([
        format!("Game_ID:{}", g.id),
        format!("Name+:{}", g.plan.black),
        format!("Name-:{}", g.plan.white),
        format!("Your_Turn:{}", to.csa_sign()),
        "Rematch_On_Draw:NO".into(),
        format!("To_Move:{}", g.pos.side_to_move().csa_sign()),
        format!("Max_Moves:{}", g.plan.max_moves),
        "BEGIN Time".into(),
        format!("Time_Unit:{}", t.unit),
        format!("Total_Time:{}", t.total),
        format!("Byoyomi:{}", t.byoyomi),
        format!("Increment:{}", t.increment),
        format!("Least_Time_Per_Move:{}", t.least),
    ]);
    if t.roundup {
        lines.push("Time_Roundup:YES".into());
    }
    lines.push("END Time".into());
    lines.push("BEGIN Position".into());
    lines.extend(g.plan.position.iter().cloned());
    for (m, t) in &g.plan.moves {
        lines.push(format!("{m},T{t}"));
    }
    lines.push("END Position".into());
    lines.push("END Game_Summary".into());
    lines
}

fn report(g: &Game, reason: &str, winner: Option<Color>) -> Report {
    let legal = movegen::legal_moves(&g.pos);
    Report {
        game_id: g.id.clone(),
        black: g.plan.black.clone(),
        white: g.plan.white.clone(),
        moves: g.moves.clone(),
        initial_moves: g.initial_moves,
        reason: reason.to_string(),
        winner,
        final_position: g.pos.to_sfen(),
        no_legal_move: legal.is_empty(),
        in_check: g.pos.in_check(),
        violations: g.violations.clone(),
        closest_ms: g.closest_ms,
        keepalives: g.keepalives,
    }
}
