#!/usr/bin/env python3
"""The soak: Tokin plays itself one game at a time with the options users turn on, and every rule a
GUI relies on is counted instead of assumed.

Usage (run from the repository; the first run creates scripts/.venv-soak with pinned cshogi):

    nice scripts/soak.py --games 1000                     # all four configurations, one after another
    nice scripts/soak.py --games 6 --config ponder-byoyomi --config ponder-fischer

Configurations (--config, repeatable; default all four):

    threads2-byoyomi   Threads 2, byoyomi --byoyomi (default 100 ms), no main time
    threads2-fischer   Threads 2, --time main time (default 1000 ms) + --inc (default 100 ms) a move
    ponder-byoyomi     USI_Ponder true, Threads 1, byoyomi
    ponder-fischer     USI_Ponder true, Threads 1, Fischer

Both engines get USI_Hash --hash (default 1024) and keep their processes for the whole configuration,
as match runners do. With ponder the runner acts as a GUI: after each `bestmove X ponder Y` it sends
that engine `position ... X Y` and `go ponder` with the clock; when the opponent answers Y it sends
`ponderhit` (the move's clock starts then), otherwise `stop`, reads the discarded answer and sends a
fresh `go`. So both engines think at once, one on its own time and one on the other's.

Counted per configuration:
  - time losses: a move whose go->bestmove (or ponderhit->bestmove) time exceeds the time the GUI
    allows (main time left + byoyomi, or + increment) by more than --time-margin ms (default 0: any
    late move loses the game, as on a strict GUI); each is printed with the engine's own last reported
    time, and every engine's move closest to its limit is reported;
  - the host's share of each late move: the steal time (/proc/stat) of the busiest virtual CPU
    during the move, the time the hypervisor ran something else on it. A loss whose overrun the
    steal covers is the host's ("host" in the table: no engine can answer while it is not run);
    the others are the engine's. Both end the game and both make the exit status 1;
  - illegal moves (the game is lost) and illegal ponder moves (the GUI would not ponder on them);
  - answers: exactly one `bestmove` per `go` and per `go ponder`: a `bestmove` that arrives when
    none is owed (before a `stop`/`ponderhit`, or a second one) counts as extra, a `go` left
    without one for --answer-timeout seconds past its limit counts as missing;
  - engine exits (the process ended or stopped answering; both engines are restarted and the
    configuration goes on);
  - each engine process's resident set size (VmRSS in /proc/PID/status, every --rss-every seconds):
    first, middle and last sample and the maximum, to show memory stays steady over the run.

Games start from scripts/openings.sfen (colours alternate), end by the referee (cshogi: mate,
repetition, perpetual check, declaration), by resignation, by adjudication once both engines agree
for --resign-moves moves each that one side is --resign-cp ahead (as match.py), or as a draw after
--max-plies. --debug-log DIR runs the engines with RUST_LOG=tokin::search=debug and keeps each
process's stderr in DIR: the clock trace of every search, to find where a late move's time went.
A progress line follows every game (games/s, ETA); a table sums up at the end. The exit status is 1
when anything above went wrong, else 0.

--state DIR makes a run resumable across sittings: after every game each configuration's counts
are written to DIR/NAME.json, and a later run with the same DIR continues that configuration from
the next game (the same openings in the same order) and sums up all its segments. It refuses to
continue with a different engine binary (by SHA-256) or different settings. The engines start
afresh in each segment, so the table gives the number of segments beside the resident set sizes.
"""

import argparse
import hashlib
import json
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

SCRIPT_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPT_DIR))
sys.dont_write_bytecode = True  # no scripts/__pycache__ left behind by the import
import match  # noqa: E402  (the referee, openings and adjudication are match.py's)

CSHOGI = "cshogi==1.1.0"

CONFIGS = {
    "threads2-byoyomi": {"threads": 2, "ponder": False, "clock": "byoyomi"},
    "threads2-fischer": {"threads": 2, "ponder": False, "clock": "fischer"},
    "ponder-byoyomi": {"threads": 1, "ponder": True, "clock": "byoyomi"},
    "ponder-fischer": {"threads": 1, "ponder": True, "clock": "fischer"},
}


VENV = Path(__file__).resolve().parent / ".venv-soak"
# A move with this much steal time is counted as one the host interfered with.
STEALTHY_MS = 50
STANDARD_START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def ensure_venv():
    """Re-executes this script inside scripts/.venv-soak, creating it (with pinned cshogi, the
    referee) when missing."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {VENV} and installing {CSHOGI} ...", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
        subprocess.check_call([str(python), "-m", "pip", "install", "-q", CSHOGI])
    os.execv(str(python), [str(python), str(Path(__file__).resolve())] + sys.argv[1:])


class ShogiReferee:
    """Standard shogi through cshogi (an independent rules implementation): legality, mate,
    declarations, fourfold repetition and perpetual check."""

    def __init__(self, sfen):
        import cshogi

        self.cshogi = cshogi
        self.board = cshogi.Board(sfen)
        self.counts = {}
        self._count()

    def _key(self):
        return self.board.sfen().rsplit(" ", 1)[0]

    def _count(self):
        key = self._key()
        self.counts[key] = self.counts.get(key, 0) + 1
        return self.counts[key]

    def turn(self):
        return self.board.turn  # 0 Black, 1 White

    def play(self, usi):
        """Applies a move. Returns None while the game goes on, else (winner or None, reason)."""
        mover = self.turn()
        if usi == "win":
            if self.board.is_nyugyoku():
                return mover, "declaration"
            return 1 - mover, "false declaration"
        move = self.board.move_from_usi(usi)
        if not move or not self.board.is_legal(move):
            return 1 - mover, f"illegal move {usi}"
        self.board.push(move)
        if self.board.is_game_over():
            return mover, "mate"
        if self._count() >= 4:
            rep = self.board.is_draw()
            if rep == self.cshogi.REPETITION_WIN:  # side to move wins: the mover checked throughout
                return 1 - mover, "perpetual check"
            if rep == self.cshogi.REPETITION_LOSE:
                return mover, "perpetual check"
            return None, "repetition"
        return None

    def is_legal(self, usi):
        move = self.board.move_from_usi(usi)
        return bool(move) and self.board.is_legal(move)


class EngineFailure(Exception):
    """The engine exited or stopped answering."""


class Player:
    """One engine process. A reader thread stamps every line with its arrival time, so a move's time
    is measured to the moment its `bestmove` arrived, however late this thread reads it."""

    def __init__(self, command, name, options, log_dir):
        self.name = name
        env = dict(os.environ)
        env.pop("RUST_LOG", None)
        stderr = subprocess.DEVNULL
        if log_dir:
            env["RUST_LOG"] = "tokin::search=debug"
            stderr = open(Path(log_dir) / f"{name}-{int(time.time() * 1000)}.log", "w")
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            encoding="ascii",
            errors="replace",
            bufsize=1,
            env=env,
        )
        self.lines = queue.Queue()
        self.gos = self.answers = self.extra = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.send("usi")
        self.read_until("usiok", 30)
        for name_, value in options:
            self.send(f"setoption name {name_} value {value}")
        self.sync(120)

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\r\n")))
        self.lines.put((time.monotonic(), None))

    def send(self, text):
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineFailure(f"{self.name}: its input is closed ({e})") from e
        return time.monotonic()

    def _next(self, deadline, waiting_for):
        try:
            stamp, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineFailure(f"{self.name}: no {waiting_for} in time") from None
        if line is None:
            raise EngineFailure(f"{self.name}: exited (status {self.proc.poll()}) waiting for {waiting_for}")
        return stamp, line

    def read_until(self, token, timeout):
        deadline = time.monotonic() + timeout
        while True:
            _, line = self._next(deadline, token)
            if line.split()[:1] == [token]:
                return
            if line.startswith("bestmove"):
                self.extra += 1

    def drain(self):
        """Reads what has arrived; a `bestmove` now is one nobody asked for."""
        while True:
            try:
                _, line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.lines.put((time.monotonic(), None))
                return
            if line.startswith("bestmove"):
                self.extra += 1

    def go(self, *lines):
        """Sends `lines` (the last a `go`) and returns when the go was sent."""
        self.drain()
        sent = None
        for line in lines:
            sent = self.send(line)
        self.gos += 1
        return sent

    def signal(self, line):
        """`ponderhit` or `stop` to a pondering engine; no answer may have come before it."""
        self.drain()
        return self.send(line)

    def answer(self, timeout):
        """Reads to the owed `bestmove`: (arrival time, move, ponder move or None, last score, the
        engine's last reported time in ms or None)."""
        deadline = time.monotonic() + timeout
        score = reported = None
        while True:
            stamp, line = self._next(deadline, "bestmove")
            words = line.split()
            if words[:1] == ["info"] and words[1:2] != ["string"]:
                if "score" in words:
                    i = words.index("score")
                    score = " ".join(words[i + 1 : i + 3])
                if "time" in words[:-1]:
                    try:
                        reported = int(words[words.index("time") + 1])
                    except ValueError:
                        pass
            if words[:1] == ["bestmove"]:
                self.answers += 1
                best = words[1] if len(words) > 1 else "resign"
                ponder = words[3] if len(words) > 3 and words[2] == "ponder" else None
                return stamp, best, ponder, score, reported

    def sync(self, timeout=60):
        self.send("isready")
        self.read_until("readyok", timeout)

    def rss_kb(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (EngineFailure, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


class StealClock:
    """The hypervisor's steal time per virtual CPU (Linux /proc/stat, field 8 of each cpuN line):
    how long the host kept that CPU from the guest. On a shared VM it comes in slices of up to
    ~100 ms, the whole budget of a byoyomi-100 move."""

    def __init__(self):
        self.ms_per_tick = 1000 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 10
        self.available = self.snapshot() is not None

    def snapshot(self):
        try:
            with open("/proc/stat") as f:
                return [int(line.split()[8]) for line in f
                        if line.startswith("cpu") and line[3].isdigit()]
        except (OSError, IndexError, ValueError):
            return None

    def stolen_ms(self, before):
        """The largest steal on one CPU since `before` (ms), or None where not measurable."""
        after = self.snapshot()
        if before is None or after is None or len(before) != len(after):
            return None
        return max((a - b for a, b in zip(after, before)), default=0) * self.ms_per_tick


STEAL = StealClock()


class Tally:
    def __init__(self, name):
        self.name = name
        self.games = self.moves = 0
        self.wins = [0, 0]  # by colour
        self.draws = 0
        self.time_losses = []
        self.host_time_losses = []  # late moves whose overrun the host's steal time covers
        self.steal_max = 0.0  # the most steal time in one move, ms
        self.steal_moves = 0  # moves with at least STEALTHY_MS of steal
        self.illegal = self.illegal_ponder = 0
        self.exits = []
        self.gos = self.answers = self.extra = self.missing = 0
        self.ponderhits = self.pondermisses = 0
        self.closest = {}  # engine slot -> (spare ms, used, allowed, reported, steal ms)
        self.rss = {0: [], 1: []}  # slot -> [(seconds, kB)]
        self.started = time.monotonic()
        self.finished = None
        self.last_plies = 0  # of the game just played, its opening left out
        self.interrupted = False
        # Earlier sittings of a resumed run (--state): their playing time, and how many there were.
        self.prior_seconds = 0.0
        self.prior_games = 0
        self.segments = 1

    # What a resumed run carries over: the counts, not the clocks of this process.
    SAVED = ("games", "moves", "wins", "draws", "time_losses", "host_time_losses", "steal_max",
             "steal_moves", "illegal", "illegal_ponder", "exits", "gos", "answers", "extra", "missing",
             "ponderhits", "pondermisses")

    def seconds(self):
        return self.prior_seconds + (self.finished or time.monotonic()) - self.started

    def to_json(self, settings):
        saved = {key: getattr(self, key) for key in self.SAVED}
        saved["closest"] = {str(slot): list(c) for slot, c in self.closest.items()}
        # RSS sample times are run-wide seconds, so the middle sample is the middle of all segments.
        saved["rss"] = {str(slot): [[self.prior_seconds + t, kb] for t, kb in samples]
                        for slot, samples in self.rss.items()}
        saved["seconds"] = self.seconds()
        saved["segments"] = self.segments
        saved["settings"] = settings
        return saved

    def resume_from(self, saved):
        for key in self.SAVED:
            setattr(self, key, saved[key])
        self.closest = {int(slot): tuple(c) for slot, c in saved["closest"].items()}
        self.prior_seconds = saved["seconds"]
        self.rss = {int(slot): [(t - self.prior_seconds, kb) for t, kb in samples]
                    for slot, samples in saved["rss"].items()}
        self.prior_games = self.games
        self.segments = saved["segments"] + 1

    def absorb(self, players):
        for p in players:
            self.gos += p.gos
            self.answers += p.answers
            self.extra += p.extra
            p.gos = p.answers = p.extra = 0

    def failed(self):
        return bool(self.time_losses or self.host_time_losses or self.illegal or self.illegal_ponder or self.exits
                    or self.extra or self.missing)


def sample_rss(players_box, tally, every, stop):
    """Every `every` seconds, each engine's resident set size."""
    while not stop.wait(every):
        for slot, player in enumerate(players_box[0]):
            kb = player.rss_kb()
            if kb is not None:
                tally.rss[slot].append((time.monotonic() - tally.started, kb))


def clock_words(config, clock, args):
    if config["clock"] == "fischer":
        return f"btime {int(clock[0])} wtime {int(clock[1])} binc {args.inc} winc {args.inc}"
    return f"btime {int(clock[0])} wtime {int(clock[1])} byoyomi {args.byoyomi}"


def play_game(args, config, players, black, opening, tally, number):
    """One game; players[black] has Black. Returns (winner colour or None, reason)."""
    start_sfen = opening[0] or STANDARD_START
    referee = ShogiReferee(start_sfen)
    moves = list(opening[1])
    for usi in moves:
        if referee.play(usi) is not None:
            raise SystemExit(f"opening {opening} ends the game")
    by_colour = [players[black], players[1 - black]]
    for p in by_colour:
        p.sync()
        p.send("usinewgame")
    fischer = config["clock"] == "fischer"
    clock = [float(args.time if fischer else 0)] * 2
    extra_ms = args.inc if fischer else args.byoyomi
    pondering = [None, None]  # colour -> the move it ponders on
    records = []
    tally.last_plies = 0

    def end_pondering():
        for colour in (0, 1):
            if pondering[colour] is not None:
                by_colour[colour].signal("stop")
                by_colour[colour].answer(args.answer_timeout)
                pondering[colour] = None

    while True:
        side = referee.turn()
        if len(moves) - len(opening[1]) >= args.max_plies:
            end_pondering()
            return None, "max plies"
        engine = by_colour[side]
        allowed = clock[side] + extra_ms
        timeout = allowed / 1000 + args.time_margin / 1000 + args.answer_timeout
        # The GUI's clock for this move starts now: at the ponderhit, or at the stop of a ponder
        # on the wrong move (the wait for its discarded answer counts, as it does on a GUI).
        started = None
        ponderhit = False
        steal_before = STEAL.snapshot()
        if pondering[side] is not None:
            if moves[-1] == pondering[side]:
                started = engine.signal("ponderhit")
                ponderhit = True
                tally.ponderhits += 1
            else:
                started = engine.signal("stop")
                engine.answer(args.answer_timeout)
                tally.pondermisses += 1
            pondering[side] = None
        if not ponderhit:
            sent = engine.go(
                match.position_command(start_sfen, moves), "go " + clock_words(config, clock, args)
            )
            started = started or sent
        arrived, best, ponder, score, reported = engine.answer(timeout)
        used = (arrived - started) * 1000
        stolen = STEAL.stolen_ms(steal_before)
        if stolen is not None:
            tally.steal_max = max(tally.steal_max, stolen)
            tally.steal_moves += stolen >= STEALTHY_MS
        tally.moves += 1
        tally.last_plies += 1
        slot = players.index(engine)
        spare = allowed - used
        if slot not in tally.closest or spare < tally.closest[slot][0]:
            tally.closest[slot] = (spare, used, allowed, reported, stolen)
        overrun = -(spare + args.time_margin)
        if overrun > 0:
            host = stolen is not None and stolen >= overrun
            steal_text = "not measurable" if stolen is None else f"{stolen:.0f} ms"
            text = (
                f"{tally.name} game {number} ply {len(moves) + 1} ({engine.name}): {used:.0f} ms of "
                f"{allowed:.0f} allowed, the engine's own last reported time {reported}, host steal "
                f"{steal_text}" + (" (the host's: it covers the overrun)" if host else "")
            )
            (tally.host_time_losses if host else tally.time_losses).append(text)
            print(f"  time loss: {text}", flush=True)
            end_pondering()
            return 1 - side, "time"
        clock[side] = max(0.0, clock[side] + args.inc - used if fischer else clock[side] - used)
        if best == "resign":
            end_pondering()
            return 1 - side, "resign"
        if best != "win" and not referee.is_legal(best):
            tally.illegal += 1
            print(f"  illegal move {best} by {engine.name} in game {number}", flush=True)
            end_pondering()
            return 1 - side, f"illegal move {best}"
        records.append((best, used, score))
        result = referee.play(best)
        if best != "win":
            moves.append(best)
        if result is not None:
            end_pondering()
            return result
        loser = match.adjudicated_loser(args, records)
        if loser is not None:
            end_pondering()
            return (1 - side if loser == 0 else side), "adjudication"
        if config["ponder"] and ponder is not None:
            if not referee.is_legal(ponder):
                tally.illegal_ponder += 1
                print(f"  illegal ponder move {best} ponder {ponder} by {engine.name}", flush=True)
                continue
            engine.go(
                match.position_command(start_sfen, moves + [ponder]),
                "go ponder " + clock_words(config, clock, args),
            )
            pondering[side] = ponder


def options_for(args, config):
    options = [("USI_Hash", args.hash), ("Threads", config["threads"]),
               ("USI_Ponder", "true" if config["ponder"] else "false")]
    return options + match.parse_options(args.option)


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def run_settings(args, name):
    """What a resumed configuration must share with its earlier segments for the sum to mean one run."""
    program, *arguments = shlex.split(args.engine)
    resolved = shutil.which(program) or program
    try:
        engine_hash = file_sha256(resolved)
    except OSError as e:
        raise SystemExit(f"--state: cannot read the engine binary {resolved}: {e}")
    return {
        # The binary by content, so a copy of the same build elsewhere continues the run.
        "config": name, "engine_sha256": engine_hash, "engine_arguments": arguments,
        "openings_sha256": file_sha256(args.openings),
        **{key: getattr(args, key) for key in ("byoyomi", "time", "inc", "hash", "option", "time_margin",
                                                "max_plies", "resign_cp", "resign_moves")},
    }


class StateFile:
    """One configuration's counts in --state DIR, rewritten atomically after every game."""

    def __init__(self, directory, name, settings):
        self.path = Path(directory) / f"{name}.json"
        self.settings = settings

    def load_into(self, tally):
        if not self.path.exists():
            return
        try:
            saved = json.loads(self.path.read_text())
        except (OSError, ValueError) as e:
            raise SystemExit(f"--state: {self.path} cannot be read ({e}); move it away to start afresh")
        differ = sorted(k for k in set(saved.get("settings", {})) | set(self.settings)
                        if saved.get("settings", {}).get(k) != self.settings.get(k))
        if differ:
            raise SystemExit(f"--state: {self.path} was played with other settings ({', '.join(differ)}); "
                             "use another --state directory or move the file away")
        tally.resume_from(saved)
        print(f"  continuing from {self.path}: {tally.games} games in {tally.segments - 1} segment(s), "
              f"{tally.prior_seconds / 60:.1f} minutes", flush=True)

    def save(self, tally):
        partial = self.path.with_suffix(".json.partial")
        partial.write_text(json.dumps(tally.to_json(self.settings)))
        os.replace(partial, self.path)


def run_config(args, name, openings):
    config = CONFIGS[name]
    tally = Tally(name)
    options = options_for(args, config)
    print(f"== {name}: {', '.join(f'{k} {v}' for k, v in options)}; "
          + (f"{args.time} ms + {args.inc} ms a move" if config["clock"] == "fischer"
             else f"byoyomi {args.byoyomi} ms") + f"; {args.games} games", flush=True)
    state = StateFile(args.state, name, run_settings(args, name)) if args.state else None
    if state:
        state.load_into(tally)
        if tally.games >= args.games:
            print(f"  already played {tally.games} games", flush=True)
            tally.segments -= 1
            tally.finished = tally.started
            return tally

    def start_players():
        return [Player(args.engine, f"{name}-{i + 1}", options, args.debug_log) for i in range(2)]

    box = [start_players()]
    stop = threading.Event()
    sampler = threading.Thread(target=sample_rss, args=(box, tally, args.rss_every, stop), daemon=True)
    sampler.start()
    try:
        play_games(args, name, config, box, start_players, tally, openings, state)
    except KeyboardInterrupt:
        tally.interrupted = True
    finally:
        tally.finished = time.monotonic()
        stop.set()
        sampler.join()
        for slot, p in enumerate(box[0]):
            kb = p.rss_kb()
            if kb is not None:
                tally.rss[slot].append((time.monotonic() - tally.started, kb))
            p.close()
    return tally


def play_games(args, name, config, box, start_players, tally, openings, state):
    deadline = tally.started + args.max_minutes * 60 if args.max_minutes else None
    for number in range(tally.games + 1, args.games + 1):
        if deadline and time.monotonic() > deadline:
            print(f"  --max-minutes reached after {tally.games} games", flush=True)
            return
        opening = openings[((number - 1) // 2) % len(openings)]
        black = (number - 1) % 2
        players = box[0]
        try:
            winner, reason = play_game(args, config, players, black, opening, tally, number)
            for colour, p in ((0, players[black]), (1, players[1 - black])):
                outcome = "draw" if winner is None else ("win" if winner == colour else "lose")
                p.send(f"gameover {outcome}")
            for p in players:
                p.sync()
        except EngineFailure as e:
            winner, reason = None, "engine failure"
            if "no bestmove" in str(e):
                tally.missing += 1
            tally.exits.append(f"game {number}: {e}")
            print(f"  {e}; restarting both engines", flush=True)
            tally.absorb(players)
            for p in players:
                p.close()
            box[0] = start_players()
        tally.absorb(box[0])
        tally.games += 1
        if winner is None:
            tally.draws += 1
        else:
            tally.wins[winner] += 1
        if state:
            state.save(tally)
        elapsed = time.monotonic() - tally.started
        rate = (tally.games - tally.prior_games) / elapsed
        eta = (args.games - tally.games) / rate if rate > 0 else 0
        rss = "/".join(f"{s[-1][1] // 1024}" for s in tally.rss.values() if s) or "-"
        print(
            f"{name} game {number}/{args.games} {reason} ({tally.last_plies} plies): {rate:.3f} games/s, "
            f"ETA {eta / 60:.0f} min | time losses {len(tally.time_losses)} (+{len(tally.host_time_losses)} "
            f"host), illegal "
            f"{tally.illegal}+{tally.illegal_ponder}, answers {tally.answers}/{tally.gos} "
            f"(extra {tally.extra}, missing {tally.missing}), exits {len(tally.exits)} | "
            f"RSS {rss} MB",
            flush=True,
        )


def rss_summary(samples):
    if not samples:
        return "-"
    kb = [k for _, k in samples]
    mb = lambda k: f"{k / 1024:.0f}"  # noqa: E731
    return f"{mb(kb[0])}/{mb(kb[len(kb) // 2])}/{mb(kb[-1])} max {mb(max(kb))}"


def print_summary(tallies):
    head = ["config", "games", "moves", "plies/game", "B/W/D", "time losses", "host time losses",
            "closest (ms spare)", f"host steal (max ms, moves >= {STEALTHY_MS})", "illegal",
            "answers/go", "extra", "missing", "exits", "ponder hit/miss",
            "RSS MB engine 1 (first/mid/last)", "RSS MB engine 2", "segments", "minutes"]
    rows = []
    for t in tallies:
        closest = ", ".join(
            f"{c[0]:+.0f} ({c[1]:.0f} of {c[2]:.0f}, engine {c[3]}"
            + ("" if c[4] is None else f", steal {c[4]:.0f}") + ")"
            for _, c in sorted(t.closest.items())
        )
        rows.append([
            t.name, str(t.games), str(t.moves), f"{t.moves / max(1, t.games):.0f}",
            f"{t.wins[0]}/{t.wins[1]}/{t.draws}",
            str(len(t.time_losses)), str(len(t.host_time_losses)), closest or "-",
            f"{t.steal_max:.0f}, {t.steal_moves}" if STEAL.available else "-",
            f"{t.illegal}+{t.illegal_ponder}",
            f"{t.answers}/{t.gos}", str(t.extra), str(t.missing), str(len(t.exits)),
            f"{t.ponderhits}/{t.pondermisses}", rss_summary(t.rss[0]), rss_summary(t.rss[1]),
            str(t.segments), f"{t.seconds() / 60:.1f}",
        ])
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    print()
    for r in [head] + rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
    for t in tallies:
        for line in t.time_losses + t.host_time_losses:
            print(f"time loss: {line}")
        for line in t.exits:
            print(f"engine exit: {t.name} {line}")


def main():
    ensure_venv()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/tokin", help="command line of the engine")
    parser.add_argument("--config", action="append", choices=list(CONFIGS), help="repeatable; default all")
    parser.add_argument("--games", type=int, default=1000, help="games per configuration")
    parser.add_argument("--max-minutes", type=float, default=0, help="end a configuration after this long")
    parser.add_argument("--byoyomi", type=int, default=100, help="ms a move (byoyomi configurations)")
    parser.add_argument("--time", type=int, default=1000, help="main time ms (Fischer configurations)")
    parser.add_argument("--inc", type=int, default=100, help="increment ms a move (Fischer configurations)")
    parser.add_argument("--hash", type=int, default=1024, help="USI_Hash MB for each engine")
    parser.add_argument("--option", action="append", help="NAME=VALUE for both engines (repeatable)")
    parser.add_argument("--time-margin", type=int, default=0, help="ms of lateness tolerated")
    parser.add_argument("--answer-timeout", type=float, default=10.0,
                        help="seconds past a move's limit before its bestmove counts as missing")
    parser.add_argument("--max-plies", type=int, default=320)
    parser.add_argument("--resign-cp", type=int, default=1500)
    parser.add_argument("--resign-moves", type=int, default=3)
    parser.add_argument("--openings", default=str(SCRIPT_DIR / "openings.sfen"))
    parser.add_argument("--rss-every", type=float, default=5.0, help="seconds between RSS samples")
    parser.add_argument("--debug-log", help="directory for the engines' RUST_LOG=tokin::search=debug stderr")
    parser.add_argument("--state", help="directory of resumable counts, one file per configuration")
    args = parser.parse_args()
    for directory in (args.debug_log, args.state):
        if directory:
            Path(directory).mkdir(parents=True, exist_ok=True)
    openings = match.load_openings(args.openings)
    tallies = []
    for name in args.config or list(CONFIGS):
        tallies.append(run_config(args, name, openings))
        if tallies[-1].interrupted:
            print("interrupted", file=sys.stderr)
            break
    print_summary(tallies)
    return 1 if any(t.failed() for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
