//! `tokin csa`: connects, runs one session (one login, at most one game) per connection, writes
//! each game's record, and goes on until the games asked for are played. A connection that fails,
//! drops or brings no game is tried again after a pause that doubles each time (1 s up to 60 s);
//! after too many failures in a row, or a refused login, the run ends with the reason.
//!
//! A reader thread turns the socket's bytes into lines stamped with their arrival (a move's clock
//! starts then) and sends them down the same channel as the search's events, so the session acts
//! on one input at a time and never blocks on the network.

use super::config::Settings;
use super::journal::{file_stem, unused_path, Journal};
use super::message::{self, Verdict};
use super::player::{Events, Player};
use super::record::write_record;
use super::session::{Input, Note, Outcome, Session};
use crate::search::Pool;
use crate::usi::engine::Searcher;
use crate::usi::input::{Input as ReadInput, LineReader};
use std::io::{self, BufReader, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// A write that cannot go out in this long means the server is gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(20);
const BACKOFF_FIRST: Duration = Duration::from_secs(1);
const BACKOFF_MAX: Duration = Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
pub enum CsaError {
    #[error("{what} {path}: {source}")]
    File {
        what: &'static str,
        path: PathBuf,
        source: io::Error,
    },
    #[error("evaluation: {0}")]
    Evaluation(String),
    #[error("the server refused the login of {0} (LOGIN:incorrect): check the id and password")]
    LoginRefused(String),
    #[error("played {played} of {wanted} games; gave up after {attempts} failed attempts in a row (last: {last})")]
    GaveUp {
        played: u32,
        wanted: u32,
        attempts: u32,
        last: String,
    },
}

/// What a run played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub played: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub records: Vec<PathBuf>,
}

/// A channel input, with the connection it came from (0: the search, which outlives connections).
type Tagged = (u64, Input);

/// Plays `settings.games` games with the real search pool; progress lines go to `console`.
pub fn run(settings: &Settings, console: &mut dyn Write) -> Result<Report, CsaError> {
    run_with(settings, console, Pool::new())
}

pub fn run_with<S: Searcher>(
    settings: &Settings,
    console: &mut dyn Write,
    pool: S,
) -> Result<Report, CsaError> {
    std::fs::create_dir_all(&settings.record_dir).map_err(|source| CsaError::File {
        what: "cannot create the record directory",
        path: settings.record_dir.clone(),
        source,
    })?;
    let mut journal =
        Journal::open(settings.log.as_deref(), &settings.record_dir).map_err(|source| {
            CsaError::File {
                what: "cannot open the log",
                path: settings.log.clone().unwrap_or_default(),
                source,
            }
        })?;
    let (tx, rx) = mpsc::channel::<Tagged>();
    let search_tx = tx.clone();
    let events: Events = Arc::new(move |t| {
        let _ = search_tx.send((0, Input::Search(t)));
    });
    let mut player = Player::new(settings.options.clone(), pool, events);
    match player.prepare() {
        Ok(told) => {
            for text in told {
                say(console, &mut journal, &text);
            }
        }
        Err(why) => return Err(CsaError::Evaluation(why)),
    }
    let mut report = Report::default();
    let mut failures = 0u32;
    let mut connection = 0u64;
    let mut logged_in = false;
    while report.played < settings.games {
        connection += 1;
        say(
            console,
            &mut journal,
            &format!(
                "game {} of {}: connecting to {}:{} as {}",
                report.played + 1,
                settings.games,
                settings.host,
                settings.port,
                settings.id
            ),
        );
        let failure = match play_connection(
            settings,
            &mut player,
            &tx,
            &rx,
            connection,
            &mut journal,
            console,
            &mut logged_in,
        ) {
            Ok(Outcome::Played(game)) => {
                let path = save_record(settings, &game, &mut journal, console);
                report.records.extend(path);
                report.played += 1;
                match game.verdict() {
                    Some(Verdict::Win) => report.wins += 1,
                    Some(Verdict::Lose) => report.losses += 1,
                    _ => report.draws += 1,
                }
                failures = 0;
                None
            }
            // shogi-server refuses a second login under a name whose first connection it still
            // counts in a game (it has not noticed that connection drop yet): once the id and
            // password have worked, a refusal is a reason to wait, not to give up.
            Ok(Outcome::LoginRefused) if logged_in => Some(
                "the server refused the login (it may still hold our previous connection)"
                    .to_string(),
            ),
            Ok(Outcome::LoginRefused) => {
                journal.note("login refused");
                return Err(CsaError::LoginRefused(settings.id.clone()));
            }
            Ok(Outcome::Rejected(reason)) => Some(reason),
            Ok(Outcome::Dropped { reason, game }) => {
                if let Some(game) = game {
                    save_record(settings, &game, &mut journal, console);
                }
                Some(reason)
            }
            Err(e) => Some(e.to_string()),
        };
        journal.close_game();
        if let Some(reason) = failure {
            failures += 1;
            if failures > settings.retries {
                return Err(CsaError::GaveUp {
                    played: report.played,
                    wanted: settings.games,
                    attempts: failures,
                    last: reason,
                });
            }
            let pause = backoff(failures);
            say(
                console,
                &mut journal,
                &format!(
                    "no game ({reason}); trying again in {} s",
                    pause.as_secs_f64()
                ),
            );
            thread::sleep(pause);
        }
    }
    say(
        console,
        &mut journal,
        &format!(
            "played {} games: {} won, {} lost, {} drawn",
            report.played, report.wins, report.losses, report.draws
        ),
    );
    Ok(report)
}

/// The pause after `failures` failed attempts in a row: 1 s, 2 s, 4 s ... at most 60 s.
pub fn backoff(failures: u32) -> Duration {
    let doubled = BACKOFF_FIRST.saturating_mul(1u32 << failures.saturating_sub(1).min(16));
    doubled.min(BACKOFF_MAX)
}

fn say(console: &mut dyn Write, journal: &mut Journal, text: &str) {
    journal.note(text);
    let _ = writeln!(console, "csa: {text}");
    let _ = console.flush();
}

fn save_record(
    settings: &Settings,
    game: &super::game::Game,
    journal: &mut Journal,
    console: &mut dyn Write,
) -> Option<PathBuf> {
    let path = unused_path(
        &settings.record_dir,
        &file_stem(&game.summary.game_id),
        "csa",
    );
    match std::fs::write(&path, write_record(game)) {
        Ok(()) => {
            say(console, journal, &format!("record: {}", path.display()));
            Some(path)
        }
        Err(e) => {
            say(
                console,
                journal,
                &format!("warning: cannot write the record {}: {e}", path.display()),
            );
            None
        }
    }
}

fn connect(host: &str, port: u16) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, format!("{host} has no address"));
    for addr in (host, port).to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT) {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// One connection: log in, play at most one game, and say how it went (`logged_in` is set once the
/// server accepts the login).
#[allow(clippy::too_many_arguments)]
fn play_connection<S: Searcher>(
    settings: &Settings,
    player: &mut Player<S>,
    tx: &Sender<Tagged>,
    rx: &Receiver<Tagged>,
    connection: u64,
    journal: &mut Journal,
    console: &mut dyn Write,
    logged_in: &mut bool,
) -> io::Result<Outcome> {
    let stream = connect(&settings.host, settings.port)?;
    stream.set_nodelay(true)?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    journal.note(&format!(
        "connected to {}",
        stream
            .peer_addr()
            .map_or_else(|_| settings.host.clone(), |a| a.to_string())
    ));
    spawn_reader(stream.try_clone()?, tx.clone(), connection)?;
    let mut writer = Writer {
        stream: &stream,
        last_sent: Instant::now(),
        login: message::login(&settings.id, &settings.password),
        login_shown: message::login_for_log(&settings.id, &settings.password),
    };
    let mut session = Session::new(
        player,
        &settings.id,
        &settings.password,
        settings.comments,
        Instant::now(),
    );
    let mut outcome = None;
    let mut input = None;
    while outcome.is_none() {
        if let Some(next) = input.take() {
            outcome = session.handle(next);
        }
        for note in session.take_notes() {
            match note {
                Note::LoggedIn => *logged_in = true,
                Note::Progress(text) => say(console, journal, &text),
                Note::Warn(text) => say(console, journal, &format!("warning: {text}")),
                Note::Info(text) => journal.note(&text),
                Note::GameId(id) => {
                    if let Some(path) = journal.open_game(&id) {
                        journal.note(&format!("game log: {}", path.display()));
                    }
                }
            }
        }
        for line in session.take_outbox() {
            if let Err(e) = writer.send(&line, journal) {
                input = Some(Input::Closed(format!("cannot send to the server: {e}")));
                break;
            }
        }
        if outcome.is_some() || input.is_some() {
            continue;
        }
        let keepalive_due = settings.keepalive.map(|k| writer.last_sent + k);
        let wake = [session.deadline(), keepalive_due]
            .into_iter()
            .flatten()
            .min();
        let received = match wake {
            Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok((from, event)) => {
                if from != 0 && from != connection {
                    continue; // A closed connection's reader, finishing.
                }
                if let Input::Line { text, .. } = &event {
                    journal.received(text);
                }
                if let Input::Closed(reason) = &event {
                    journal.note(&format!("connection closed: {reason}"));
                }
                input = Some(event);
            }
            Err(RecvTimeoutError::Timeout) => {
                let now = Instant::now();
                if keepalive_due.is_some_and(|due| now >= due) {
                    if let Err(e) = writer.send(message::KEEP_ALIVE, journal) {
                        input = Some(Input::Closed(format!("cannot send to the server: {e}")));
                        continue;
                    }
                }
                input = Some(Input::Tick(now));
            }
            // Both ends live in this function's caller: cannot happen while it runs.
            Err(RecvTimeoutError::Disconnected) => {
                input = Some(Input::Closed("input channel closed".into()));
            }
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
    Ok(outcome.expect("the loop ends with an outcome"))
}

struct Writer<'a> {
    stream: &'a TcpStream,
    last_sent: Instant,
    login: String,
    login_shown: String,
}

impl Writer<'_> {
    fn send(&mut self, line: &str, journal: &mut Journal) -> io::Result<()> {
        let shown = if line == self.login {
            self.login_shown.as_str()
        } else {
            line
        };
        journal.sent(shown);
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let mut stream = self.stream;
        stream.write_all(&bytes)?;
        stream.flush()?;
        self.last_sent = Instant::now();
        Ok(())
    }
}

fn spawn_reader(stream: TcpStream, tx: Sender<Tagged>, connection: u64) -> io::Result<()> {
    thread::Builder::new()
        .name("csa-reader".into())
        .spawn(move || {
            let mut lines = LineReader::new(BufReader::new(stream));
            let reason = loop {
                match lines.next_input() {
                    Ok(Some(ReadInput::Line(text))) => {
                        let at = Instant::now();
                        if tx.send((connection, Input::Line { text, at })).is_err() {
                            return;
                        }
                    }
                    Ok(Some(ReadInput::TooLong(n))) => {
                        if tx.send((connection, Input::TooLong(n))).is_err() {
                            return;
                        }
                    }
                    Ok(None) => break "the server closed the connection".to_string(),
                    Err(e) => break format!("read failed: {e}"),
                }
            };
            let _ = tx.send((connection, Input::Closed(reason)));
        })
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_a_minute() {
        let secs: Vec<u64> = (1..=9).map(|n| backoff(n).as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(backoff(1000).as_secs(), 60);
    }
}
