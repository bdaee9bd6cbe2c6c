//! Whole games between two `tokin csa` processes (the real binary) through the test CSA server
//! (`csa_server/`, loopback only), one ending of each kind: mate (the mated side resigns, as on
//! shogi-server, which does not detect mate), resignation, a slow client's time loss, an
//! entering-king declaration (and none when a point is missing), sennichite, a dropped connection
//! and the game resumed from its moves, and a handicap start with moves already played whose times
//! leave almost no clock. Then a scripted server's bad input, a refused login and no server at all.
//!
//! The games run one at a time (each has two engines and its clock would suffer from the others'
//! load) on fast clocks and small node limits; together they take well under a minute.

mod csa_server;

use csa_server::{Plan, Report, TestServer, Time};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};
use tokin::core::csa;
use tokin::core::position::Position;
use tokin::core::{Color, Variant};

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// A fresh directory for one client's records.
fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("csa-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The options every test client plays with: a small table and a few thousand nodes a move.
const FAST: &[&str] = &["--option", "USI_Hash=16", "--option", "NodesLimit=3000"];

struct Client {
    child: Child,
    name: String,
    records: PathBuf,
    out: thread::JoinHandle<String>,
    err: thread::JoinHandle<String>,
}

fn client(port: u16, name: &str, extra: &[&str]) -> Client {
    let records = dir(name);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tokin"))
        .arg("csa")
        .args([
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--id",
            name,
        ])
        .args(if extra.contains(&"--password") {
            &[][..]
        } else {
            &["--password", "pw"][..]
        })
        .args(["--keepalive", "1"])
        .arg("--record-dir")
        .arg(&records)
        .args(extra)
        .env_remove("RUST_LOG")
        .env_remove("TOKIN_CSA_PASSWORD")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tokin csa");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    Client {
        child,
        name: name.into(),
        records,
        out,
        err,
    }
}

struct Finished {
    status: ExitStatus,
    out: String,
    err: String,
    records: PathBuf,
}

impl Client {
    /// Waits for the process to end (killing it after `timeout`).
    fn finish(mut self, timeout: Duration, server: Option<&TestServer>) -> Finished {
        let deadline = Instant::now() + timeout;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "{} did not exit within {timeout:?}\nstdout:\n{}\nstderr:\n{}\nserver:\n{}",
                    self.name,
                    self.out.join().unwrap(),
                    self.err.join().unwrap(),
                    server.map(TestServer::transcript).unwrap_or_default()
                );
            }
            thread::sleep(Duration::from_millis(10));
        };
        Finished {
            status,
            out: self.out.join().unwrap(),
            err: self.err.join().unwrap(),
            records: self.records,
        }
    }
}

impl Finished {
    fn assert_ok(&self, what: &str) {
        assert!(
            self.status.success(),
            "{what}: {}\nstdout:\n{}\nstderr:\n{}",
            self.status,
            self.out,
            self.err
        );
    }

    /// The text of the records written, by file name.
    fn files(&self, ext: &str) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = std::fs::read_dir(&self.records)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    }
}

fn lines(sfen: &str) -> Vec<String> {
    let pos = Position::from_sfen(sfen, Variant::Shogi).unwrap();
    csa::position_lines(&pos.to_setup())
}

/// Runs one game between two fresh clients; returns the report and both clients' ends.
fn play(plan: Plan, black: &[&str], white: &[&str]) -> (Report, Finished, Finished) {
    let server = TestServer::start(vec![plan.clone()]);
    let b = client(server.port, &plan.black, black);
    let w = client(server.port, &plan.white, white);
    let report = server.report(Duration::from_secs(60));
    let b = b.finish(Duration::from_secs(20), Some(&server));
    let w = w.finish(Duration::from_secs(20), Some(&server));
    b.assert_ok("black");
    w.assert_ok("white");
    assert!(
        report.violations.is_empty(),
        "{:?}\n{}",
        report.violations,
        server.transcript()
    );
    (report, b, w)
}

fn with<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(more).copied().collect()
}

#[test]
fn mate_ends_with_the_mated_side_resigning() {
    let _serial = serial();
    let mut plan = Plan::new("mate", "mater", "mated", Time::msec(10_000, 1000, 0));
    // G*5b mates (the gold on 5c guards it).
    plan.position = lines("4k4/9/4G4/9/9/9/9/9/4K4 b G 1");
    let session_log = Path::new(env!("CARGO_TARGET_TMPDIR")).join("csa-mated-session.log");
    let _ = std::fs::remove_file(&session_log);
    let white = with(FAST, &["--log", session_log.to_str().unwrap()]);
    let (report, b, w) = play(plan, &with(FAST, &["--ponder"]), &white);
    assert_eq!(report.reason, "#RESIGN");
    assert_eq!(report.winner, Some(Color::Black));
    assert!(report.no_legal_move && report.in_check, "{report:?}");
    assert_eq!(report.moves.len(), 1);
    let records = b.files("csa");
    assert_eq!(records.len(), 1, "{records:?}");
    let record = &records[0].1;
    assert!(record.contains("\nV2.2\nN+mater\nN-mated\n"), "{record}");
    assert!(record.contains("\n+0052KI\nT"), "{record}");
    // Our own move carries the search's comment (recorded as floodgate does, '**).
    assert!(record.contains("\n'** "), "{record}");
    assert!(
        record.contains("\n%TORYO\n'server: %TORYO #RESIGN #WIN\n"),
        "{record}"
    );
    let logs = w.files("log");
    assert_eq!(logs.len(), 1);
    let log = &logs[0].1;
    for expected in [
        "< BEGIN Game_Summary",
        "> AGREE test+mate+",
        "> %TORYO",
        "< #LOSE",
        "> LOGOUT",
    ] {
        assert!(log.contains(expected), "{expected} missing:\n{log}");
    }
    assert!(w.out.contains("loss"), "{}", w.out);
    // The session log has everything, the password hidden.
    let session = std::fs::read_to_string(&session_log).unwrap();
    assert!(session.contains("> LOGIN mated *****\n"), "{session}");
    assert!(!session.contains(" pw"), "{session}");
    assert!(session.contains("< LOGIN:mated OK") && session.contains("< #LOSE"));
    assert!(b.out.contains("played 1 games: 1 won"), "{}", b.out);
}

#[test]
fn a_lost_position_is_resigned() {
    let _serial = serial();
    let mut plan = Plan::new("resign", "strong", "weak", Time::msec(10_000, 1000, 0));
    plan.position = lines("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S 1");
    let (report, _b, w) = play(plan, FAST, &with(FAST, &["--option", "ResignValue=1000"]));
    assert_eq!(report.reason, "#RESIGN");
    assert_eq!(report.winner, Some(Color::Black));
    // Resigned with legal moves left: not a mate.
    assert!(!report.no_legal_move, "{report:?}");
    assert!(w.files("csa")[0].1.contains("\n%TORYO\n"));
}

#[test]
fn a_slow_client_loses_on_time_and_we_keep_the_connection_alive() {
    let _serial = serial();
    let plan = Plan::new("slow", "quick", "sleepy", Time::msec(0, 2500, 0));
    let server = TestServer::start(vec![plan]);
    let tokin = client(server.port, "quick", FAST);
    // The slow side: agrees, then never moves.
    let mut fake = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    fake.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut reader = BufReader::new(fake.try_clone().unwrap());
    let mut read = |until: &str| -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let mut line = String::new();
            assert!(
                reader.read_line(&mut line).unwrap() > 0,
                "closed before '{until}': {got:?}"
            );
            let line = line.trim_end().to_string();
            let done = line.starts_with(until);
            got.push(line);
            if done {
                return got;
            }
        }
    };
    writeln!(fake, "LOGIN sleepy pw").unwrap();
    read("LOGIN:sleepy OK");
    let summary = read("END Game_Summary");
    let id = summary
        .iter()
        .find_map(|l| l.strip_prefix("Game_ID:"))
        .unwrap()
        .to_string();
    writeln!(fake, "AGREE {id}").unwrap();
    read("START:");
    // Black's move arrives; our clock runs out while we stay silent.
    let after = read("#LOSE");
    assert!(after.iter().any(|l| l == "#TIME_UP"), "{after:?}");
    let report = server.report(Duration::from_secs(10));
    assert_eq!(report.reason, "#TIME_UP");
    assert_eq!(report.winner, Some(Color::Black));
    let t = tokin.finish(Duration::from_secs(20), Some(&server));
    t.assert_ok("the quick side");
    assert!(t.files("csa")[0].1.contains("\n%TIME_UP\n"));
    assert!(t.out.contains("win"), "{}", t.out);
    // 2.5 s of waiting with a 1 s keep-alive interval.
    assert!(report.keepalives[0] >= 1, "{report:?}");
}

#[test]
fn a_valid_declaration_wins_and_an_invalid_one_is_never_made() {
    let _serial = serial();
    // Black's king in its zone with twelve pieces worth 28 points there: a win by the 27-point
    // rule, declared at once.
    let mut plan = Plan::new("kachi", "declarer", "other", Time::msec(10_000, 1000, 0));
    plan.position = lines("RRBBGGGG1/SSSS3K1/9/9/9/9/9/9/4k4 b - 1");
    let (report, b, _w) = play(plan, FAST, FAST);
    assert_eq!(report.reason, "#JISHOGI");
    assert_eq!(report.winner, Some(Color::Black));
    assert!(report.moves.is_empty());
    assert!(b.files("log")[0].1.contains("> %KACHI"));
    // One gold fewer: 27 points, one short for Black. No declaration; the move limit ends it.
    let mut plan = Plan::new("no-kachi", "declarer", "other", Time::msec(10_000, 1000, 0));
    plan.position = lines("RRBBGGG2/SSSS3K1/9/9/9/9/9/9/4k4 b - 1");
    plan.max_moves = 2;
    let (report, b, _w) = play(plan, FAST, FAST);
    assert_eq!(report.reason, "#MAX_MOVES");
    assert!(!b.files("log")[0].1.contains("%KACHI"));
    assert!(b.out.contains("draw by the move limit"), "{}", b.out);
}

#[test]
fn two_kings_that_want_a_draw_repeat_the_position() {
    let _serial = serial();
    let mut plan = Plan::new("sennichite", "left", "right", Time::msec(20_000, 1000, 0));
    plan.position = lines("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    let draw = with(FAST, &["--option", "Contempt=-1000", "--ponder"]);
    let (report, b, w) = play(plan, &draw, &draw);
    assert_eq!(report.reason, "#SENNICHITE", "{report:?}");
    assert_eq!(report.winner, None);
    for f in [&b, &w] {
        assert!(f.files("csa")[0].1.contains("\n%SENNICHITE\n"));
        assert!(
            !f.files("csa")[0].1.contains("'warning"),
            "the rules core disagreed"
        );
    }
}

#[test]
fn a_dropped_game_is_resumed_from_its_moves() {
    let _serial = serial();
    let mut plan = Plan::new("resume", "keeper", "dropped", Time::msec(60_000, 1000, 0));
    plan.position = lines("4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S 1");
    // After Black's first move the server drops White (to move) and interrupts Black's game.
    plan.drop_after = Some(1);
    let server = TestServer::start(vec![plan]);
    let b = client(server.port, "keeper", FAST);
    let w = client(
        server.port,
        "dropped",
        &with(FAST, &["--option", "ResignValue=1000"]),
    );
    let first = server.report(Duration::from_secs(30));
    assert_eq!(first.reason, "#CHUDAN");
    let second = server.report(Duration::from_secs(30));
    assert_eq!(second.reason, "#RESIGN");
    assert_eq!(second.winner, Some(Color::Black));
    assert_eq!(second.initial_moves, 1);
    assert_eq!(second.moves[0], first.moves[0]);
    let b = b.finish(Duration::from_secs(20), Some(&server));
    let w = w.finish(Duration::from_secs(20), Some(&server));
    b.assert_ok("black");
    w.assert_ok("white");
    assert!(second.violations.is_empty(), "{:?}", second.violations);
    for f in [&b, &w] {
        assert!(f.out.contains("trying again in 1 s"), "{}", f.out);
        // The interrupted game's record and the resumed one's.
        let records = f.files("csa");
        assert_eq!(records.len(), 2, "{records:?}");
        assert!(records.iter().any(|(_, r)| r.contains("\n%CHUDAN\n")));
        assert!(records
            .iter()
            .any(|(_, r)| r.contains("'the first move came with the game summary")));
    }
}

#[test]
fn a_handicap_start_with_moves_played_leaves_only_byoyomi() {
    let _serial = serial();
    // Two-piece handicap, White first; four moves already played whose times use up both sides'
    // 3 s: only the 300 ms byoyomi is left. A client that ignored those times would plan for 3 s
    // and lose on time. No node limit here: the engines think on the clock.
    let mut plan = Plan::new("handicap", "shitate", "uwate", Time::msec(3000, 300, 0));
    plan.position = vec!["PI82HI22KA".into(), "-".into()];
    plan.moves = vec![
        ("-3334FU".into(), 1600),
        ("+7776FU".into(), 1600),
        ("-8384FU".into(), 1600),
        ("+2726FU".into(), 1600),
    ];
    plan.charge_summary_moves = true;
    plan.max_moves = 10;
    let opts: &[&str] = &["--option", "USI_Hash=16"];
    let (report, b, _w) = play(plan, opts, opts);
    assert_eq!(report.reason, "#MAX_MOVES", "{report:?}");
    assert_eq!(report.initial_moves, 4);
    for (side, margin) in report.closest_ms.iter().enumerate() {
        let margin = margin.expect("both sides moved");
        assert!(
            margin >= 50,
            "side {side} came within {margin} ms of its flag"
        );
    }
    assert!(b.out.contains("from ply 5"), "{}", b.out);
}

/// A server that sends what no real one should: the client logs it, refuses a summary it cannot
/// play, reconnects, and plays the next game.
#[test]
fn bad_server_input_is_survived() {
    let _serial = serial();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let script = thread::spawn(move || {
        let accept = || {
            let (s, _) = listener.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            let r = BufReader::new(s.try_clone().unwrap());
            (s, r)
        };
        let expect = |r: &mut BufReader<TcpStream>, prefix: &str| -> String {
            loop {
                let mut line = String::new();
                assert!(
                    r.read_line(&mut line).unwrap() > 0,
                    "closed before {prefix}"
                );
                let line = line.trim_end().to_string();
                if line.is_empty() {
                    continue; // keep-alive
                }
                assert!(line.starts_with(prefix), "expected {prefix}, got '{line}'");
                return line;
            }
        };
        let summary = |unit: &str| {
            format!(
                "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n\
                 Declaration:Jishogi 1.1\nGame_ID:bad+1\nName+:script\nName-:victim\n\
                 Your_Turn:-\nRematch_On_Draw:NO\nTo_Move:+\nMax_Moves:256\nBEGIN Time\n\
                 Time_Unit:{unit}\nTotal_Time:60\nByoyomi:1\nLeast_Time_Per_Move:0\nEND Time\n\
                 BEGIN Position\nPI\n+\nEND Position\nEND Game_Summary\n"
            )
        };
        // First connection: noise, then a summary with an impossible time unit.
        let (mut s, mut r) = accept();
        expect(&mut r, "LOGIN victim pw");
        s.write_all(b"LOGIN:victim OK\nhello\n+7776XX\n##[ERROR] something\n%\n#NOPE\n\n")
            .unwrap();
        s.write_all(summary("1hour").as_bytes()).unwrap();
        expect(&mut r, "REJECT bad+1");
        s.write_all(b"REJECT:bad+1 by victim\n").unwrap();
        drop(s);
        // Second connection: the login refused, as shogi-server refuses a name it still counts in
        // a game; known-good credentials make that a reason to retry.
        let (mut s, mut r) = accept();
        expect(&mut r, "LOGIN victim pw");
        s.write_all(b"LOGIN:incorrect\n").unwrap();
        drop(s);
        // Third connection: a proper game that Black resigns after one move each.
        let (mut s, mut r) = accept();
        expect(&mut r, "LOGIN victim pw");
        s.write_all(b"LOGIN:victim OK\n").unwrap();
        s.write_all(summary("1sec").as_bytes()).unwrap();
        expect(&mut r, "AGREE bad+1");
        s.write_all(b"START:bad+1\n+7776FU,T0\n").unwrap();
        let reply = expect(&mut r, "-");
        let mv = reply.split(',').next().unwrap().to_string();
        s.write_all(format!("{mv},T0\n%TORYO\n#RESIGN\n#WIN\n").as_bytes())
            .unwrap();
        expect(&mut r, "LOGOUT");
        s.write_all(b"LOGOUT:completed\n").unwrap();
    });
    let c = client(port, "victim", FAST).finish(Duration::from_secs(30), None);
    script.join().unwrap();
    c.assert_ok("the client of a bad server");
    for expected in [
        "ignored: 'hello'",
        "refusing the game: summary line 'Time_Unit:1hour'",
        "trying again in 1 s",
        "refused the login (it may still hold our previous connection)); trying again in 2 s",
        "1 won",
    ] {
        assert!(c.out.contains(expected), "{expected}:\n{}", c.out);
    }
}

#[test]
fn a_refused_login_a_missing_network_and_a_missing_server_end_with_the_reason() {
    let _serial = serial();
    let server = TestServer::start(Vec::new());
    let c = client(server.port, "nobody", &["--password", "bad"]);
    let f = c.finish(Duration::from_secs(20), Some(&server));
    assert!(!f.status.success());
    assert!(f.err.contains("LOGIN:incorrect"), "{}", f.err);

    // A network file that is not there: the run does not start on another evaluation.
    let f = client(
        server.port,
        "nonet",
        &["--option", "EvalFile=/no/such/nn.bin"],
    )
    .finish(Duration::from_secs(20), Some(&server));
    assert!(!f.status.success());
    assert!(f.err.contains("tokin csa: evaluation: "), "{}", f.err);
    assert!(!server.transcript().contains("nonet"), "it connected");

    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let f = client(port, "alone", &["--retries", "1"]).finish(Duration::from_secs(20), None);
    assert!(!f.status.success());
    assert!(
        f.err
            .contains("played 0 of 1 games; gave up after 2 failed attempts"),
        "{}",
        f.err
    );
}
