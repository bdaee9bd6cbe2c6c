//! A small USI client that drives the real `tokin` binary: spawns it, writes lines, reads lines with
//! timeouts, and never hangs (every wait has a deadline; the child is killed on drop).
//!
//! Every line the engine prints is checked on arrival: ASCII only, no trailing space, single spaces
//! (except inside `info string` text, which may quote client input).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};
use tokin::core::position::Position;
use tokin::core::Variant;

/// Extra time allowed over a clock limit: the test machine is shared and may stall a process for a
/// few hundred milliseconds.
pub const SLACK: Duration = Duration::from_millis(700);
/// Upper bound for anything that should be immediate.
pub const QUICK: Duration = Duration::from_secs(5);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`> `) and received (`< `), shown when an expectation fails.
    pub transcript: Vec<String>,
}

impl Client {
    pub fn spawn() -> Client {
        Client::spawn_args(&[])
    }

    pub fn spawn_args(args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tokin"))
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn tokin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        assert!(buf.is_ascii(), "non-ASCII output: {buf:?}");
                        let line = String::from_utf8_lossy(&buf)
                            .trim_end_matches('\n')
                            .to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    fn fail(&self, what: &str) -> ! {
        panic!("{what}\n--- transcript ---\n{}", self.transcript.join("\n"))
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
        self.transcript.push(format!("> {}", shown.trim_end()));
        let Some(stdin) = self.stdin.as_mut() else {
            self.fail("stdin already closed")
        };
        if let Err(e) = stdin.write_all(bytes).and_then(|()| stdin.flush()) {
            self.fail(&format!("write failed: {e}"));
        }
    }

    pub fn close_stdin(&mut self) {
        self.transcript.push("> <EOF>".into());
        self.stdin = None;
    }

    /// The next line, or `None` when `timeout` passes first (or output ended).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                check_format(&line);
                self.transcript.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them (the match last).
    pub fn read_until(
        &mut self,
        done: impl Fn(&str) -> bool,
        timeout: Duration,
        what: &str,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                None => self.fail(&format!("timed out after {timeout:?} waiting for {what}")),
            }
        }
    }

    pub fn expect(&mut self, exact: &str, timeout: Duration) -> Vec<String> {
        self.read_until(|l| l == exact, timeout, &format!("'{exact}'"))
    }

    /// All lines that arrive within `duration`.
    pub fn lines_for(&mut self, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut got = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            got.push(line);
        }
        got
    }

    /// Asserts that nothing but `info` lines arrives within `duration` (no `bestmove`).
    pub fn expect_no_bestmove(&mut self, duration: Duration) {
        for line in self.lines_for(duration) {
            if line.starts_with("bestmove") {
                self.fail(&format!("unexpected '{line}'"));
            }
        }
    }

    /// `isready` -> `readyok`, asserting that no `bestmove` arrives in between: a synchronisation
    /// point that proves no stray answer was pending.
    pub fn sync(&mut self) {
        self.send("isready");
        for line in self.expect("readyok", QUICK) {
            if line.starts_with("bestmove") || line.starts_with("checkmate") {
                self.fail(&format!("stray '{line}'"));
            }
        }
    }

    /// Sends `go_line` and waits for its `bestmove`; returns (the bestmove line, the lines before it,
    /// the time it took).
    pub fn go(&mut self, go_line: &str, timeout: Duration) -> (String, Vec<String>, Duration) {
        let start = Instant::now();
        self.send(go_line);
        self.await_bestmove(start, timeout)
    }

    pub fn await_bestmove(
        &mut self,
        start: Instant,
        timeout: Duration,
    ) -> (String, Vec<String>, Duration) {
        let mut lines = self.read_until(|l| l.starts_with("bestmove"), timeout, "bestmove");
        let elapsed = start.elapsed();
        let best = lines.pop().unwrap_or_default();
        (best, lines, elapsed)
    }

    /// Waits for the process to exit and returns its status; kills it and fails after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => {
                    let _ = self.child.kill();
                    self.fail(&format!("engine did not exit within {timeout:?}"));
                }
            }
        }
    }

    /// `usi` -> id and option lines -> `usiok`; returns the lines.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("usi");
        self.expect("usiok", QUICK)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The format every output line must have.
fn check_format(line: &str) {
    assert!(line.is_ascii(), "non-ASCII line {line:?}");
    assert!(
        !line.ends_with(' ') && !line.ends_with('\r'),
        "trailing space: {line:?}"
    );
    assert!(!line.contains("  "), "double space: {line:?}");
    if line.starts_with("info") && line.contains(" pv ") {
        assert!(!line.contains(" pv resign"), "pv resign: {line:?}");
        let after_pv = &line[line.find(" pv ").unwrap_or(0) + 4..];
        for tok in after_pv.split(' ') {
            assert!(tok.len() >= 4 && tok.len() <= 5, "pv not last: {line:?}");
        }
    }
}

/// The position a client tracks: start (or SFEN) plus the moves played so far.
pub struct Game {
    pub base: Option<String>,
    pub moves: Vec<String>,
    pub variant: Variant,
}

impl Game {
    pub fn new() -> Game {
        Game {
            base: None,
            moves: Vec::new(),
            variant: Variant::Shogi,
        }
    }

    pub fn position(&self) -> Position {
        let mut pos = match &self.base {
            Some(sfen) => Position::from_sfen(sfen, self.variant).expect("test SFEN"),
            None => Position::startpos(self.variant),
        };
        for m in &self.moves {
            let mv = pos.parse_usi_move(m).expect("test move");
            pos.do_move(mv);
        }
        pos
    }

    pub fn command(&self) -> String {
        let mut s = match &self.base {
            Some(sfen) => format!("position sfen {sfen}"),
            None => "position startpos".to_string(),
        };
        if !self.moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.moves.join(" "));
        }
        s
    }
}

/// Parses `bestmove X [ponder Y]` and checks both moves are legal in `pos` (Y after X).
/// Returns (X, Y); X may be `resign` or `win`.
pub fn check_bestmove(line: &str, pos: &Position) -> (String, Option<String>) {
    let toks: Vec<&str> = line.split(' ').collect();
    assert_eq!(toks[0], "bestmove", "{line}");
    assert!(
        toks.len() == 2 || (toks.len() == 4 && toks[2] == "ponder"),
        "{line}"
    );
    let best = toks[1].to_string();
    if best == "resign" || best == "win" {
        assert_eq!(toks.len(), 2, "{line}");
        return (best, None);
    }
    let m = pos
        .parse_usi_move(&best)
        .unwrap_or_else(|e| panic!("illegal bestmove in '{line}': {e}"));
    assert!(pos.is_legal(m), "{line}");
    let ponder = toks.get(3).map(|p| {
        let mut after = pos.clone();
        after.do_move(m);
        let pm = after
            .parse_usi_move(p)
            .unwrap_or_else(|e| panic!("illegal ponder move in '{line}': {e}"));
        assert!(after.is_legal(pm), "{line}");
        p.to_string()
    });
    (best, ponder)
}

/// The last `info` line with a score before a bestmove must exist (match runners read it).
pub fn assert_final_score(lines: &[String]) {
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info ") && !l.starts_with("info string"));
    match last_info {
        Some(l) => assert!(
            l.contains(" score "),
            "last info before bestmove has no score: {l}"
        ),
        None => panic!("no info line before bestmove: {lines:?}"),
    }
}

/// Runs `tokin` with command-line arguments to completion (the CLI tools, not the USI loop).
pub fn run_tokin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tokin"))
        .args(args)
        .output()
        .expect("run tokin")
}

/// The tool's stdout as lines, after checking it is ASCII.
pub fn stdout_lines(out: &Output) -> Vec<String> {
    assert!(out.stdout.is_ascii());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}
