#!/usr/bin/env python3
"""Heian shogi matches between Tokin builds: W/L/D, an Elo estimate with error bars, optional SPRT.

Standard shogi is played on ShogiArena (scripts/arena/: SPRT gates, gauntlets against other engines,
SPSA, records a GUI opens); its rules library knows no 9x8 or 8x8 board, so Heian games stay here.
Standard library only.

    scripts/match.py --engine1 ./tokin-new --engine2 ./tokin-old --byoyomi 300 --games 200
    scripts/match.py --engine1 ./tokin --engine2 ./tokin-old --variant heian8 --time 10000 --inc 100
    scripts/match.py --engine1 ./tokin-new --engine2 ./tokin-old --nodes 20000 --sprt 0 10 0.05 0.05

Engines are command lines (split like a shell would, e.g. "--engine1 'target/release/tokin --flag'");
both must declare USI_Variant (Tokin builds). Each opening of --openings (default
scripts/openings-<variant>.sfen) is played twice with the colours swapped; openings are used in file
order and cycle.

Time control: --byoyomi MS (per move after the main time), --time MS (main time per side),
--inc MS (Fischer increment). A side that exceeds its time by more than --time-margin MS loses.
--nodes N sends `go nodes N` instead (no clock): comparisons that do not depend on how busy the
machine is. Both engines of a game get the same budget, drawn for each pair of games within
--nodes-jitter (default 0.1, i.e. +-10%) of N: engines searching a fixed number of nodes are
deterministic, so without it every cycle through the openings would replay the same games.
Engine options: --threads N and --hash MB go to both engines as Threads and USI_Hash;
--option1/--option2 NAME=VALUE add any other option.

--concurrency N plays N games at once, each with its own pair of engine processes (on a machine with
C cores, N = C/2 keeps one core per thinking engine when both sides use 1 thread and no pondering).
--resign-cp CP --resign-moves K (default 1500 and 3) ends a game as a win once both engines' last K
reports each agree that one side is ahead by CP or more (mate scores count as infinite); 0 turns it
off.

Refereeing: a small board of its own checks that a move moves an own piece onto the board and
applies captures, promotion, the bare-king rule and fourfold repetition; it trusts the engines for
full legality (both are Tokin) and does not detect perpetual check. A game longer than --max-plies
is a draw.

Output: one line per game, then totals for engine1: W/L/D, score, Elo with a 95% interval, and with
--sprt ELO0 ELO1 ALPHA BETA the log-likelihood ratio; the match stops when H0 or H1 is accepted.
Under a clock, each engine's move with the least time to spare is printed too (a time check: with
--time-margin 0 any late move loses, and the margin shows how close the engine came).
--out DIR writes a line per game to DIR/games.txt as `position sfen ... moves ...` with the result.
"""

import argparse
import math
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

SCRIPT_DIR = Path(__file__).resolve().parent

START_SFEN = {
    "heian": "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
    "heian8": "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
}


class EngineError(Exception):
    pass


class Engine:
    """One USI engine process. A reader thread feeds stdout lines into a queue so every wait can time
    out: a hung engine loses its game instead of hanging the match."""

    def __init__(self, command, name, log=None):
        self.name = name
        self.log = log
        try:
            self.proc = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="ascii",
                errors="replace",
                bufsize=1,
            )
        except OSError as e:
            raise EngineError(f"{name}: cannot start '{command}': {e}") from e
        self.lines = queue.Queue()
        self.options = {}  # lower-case name -> declared name
        self.moves_timed = 0
        self.tightest = None  # (used ms, allowed ms, engine's reported ms) of the tightest move
        self.reported_ms = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, text):
        if self.log:
            self.log.write(f"> {self.name}: {text}\n")
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"{self.name}: engine closed its input") from e

    def read_until(self, token, timeout):
        """Lines up to and including the first whose first word is `token`."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"{self.name}: no '{token}' within {timeout:.1f}s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EngineError(f"{self.name}: engine exited while waiting for '{token}'")
            if self.log:
                self.log.write(f"< {self.name}: {line}\n")
            seen.append(line)
            if line.split()[:1] == [token]:
                return seen

    def start(self, options, timeout=60.0):
        self.send("usi")
        for line in self.read_until("usiok", timeout):
            words = line.split()
            if words[:2] == ["option", "name"] and len(words) > 2:
                self.options[words[2].lower()] = words[2]
        for name, value in options:
            declared = self.options.get(name.lower())
            if declared is not None:
                self.send(f"setoption name {declared} value {value}")
        self.ready(timeout)

    def declares(self, name):
        return name.lower() in self.options

    def ready(self, timeout=60.0):
        self.send("isready")
        self.read_until("readyok", timeout)

    def go(self, position, go_command, timeout):
        """Returns (bestmove word, last score text or None, elapsed seconds). The engine's own last
        reported `time` (ms, or None) is kept in `self.reported_ms`: a move that took much longer
        than the engine says it searched was held up outside its search (scheduling, I/O)."""
        self.send(position)
        self.send(go_command)
        started = time.monotonic()
        lines = self.read_until("bestmove", timeout)
        elapsed = time.monotonic() - started
        score = None
        self.reported_ms = None
        for line in lines:
            words = line.split()
            if words[:1] == ["info"] and "score" in words:
                i = words.index("score")
                score = " ".join(words[i + 1 : i + 3])
            if words[:1] == ["info"] and words[1:2] != ["string"] and "time" in words[:-1]:
                try:
                    self.reported_ms = int(words[words.index("time") + 1])
                except ValueError:
                    pass
        words = lines[-1].split()
        return (words[1] if len(words) > 1 else "resign"), score, elapsed

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()


class HeianReferee:
    """Heian shogi (9x8 or 8x8, no drops): applies moves, finds bare kings, captured kings and fourfold
    repetition. Full legality is the engines' (both Tokin) responsibility."""

    PROMOTES = {"P", "L", "N", "S"}

    def __init__(self, sfen, files, ranks):
        self.files, self.ranks = files, ranks
        fields = sfen.split()
        self.board = {}
        for r, row in enumerate(fields[0].split("/")):
            f = files - 1
            promoted = False
            for c in row:
                if c.isdigit():
                    f -= int(c)
                elif c == "+":
                    promoted = True
                else:
                    self.board[(f, r)] = ("+" if promoted else "") + c
                    promoted = False
                    f -= 1
        self.side = 0 if fields[1] == "b" else 1
        self.counts = {}
        self._count()

    def _key(self):
        return (tuple(sorted(self.board.items())), self.side)

    def _count(self):
        key = self._key()
        self.counts[key] = self.counts.get(key, 0) + 1
        return self.counts[key]

    def turn(self):
        return self.side

    @staticmethod
    def _owner(piece):
        return 0 if piece[-1].isupper() else 1

    def _square(self, text):
        if len(text) != 2 or not text[0].isdigit():
            return None
        f, r = int(text[0]) - 1, ord(text[1]) - ord("a")
        if 0 <= f < self.files and 0 <= r < self.ranks:
            return (f, r)
        return None

    def play(self, usi):
        mover = self.side
        bad = (1 - mover, f"illegal move {usi}")
        if len(usi) not in (4, 5) or "*" in usi:
            return bad
        src, dst = self._square(usi[:2]), self._square(usi[2:4])
        promote = usi[4:] == "+"
        if src is None or dst is None or (len(usi) == 5 and not promote):
            return bad
        piece = self.board.get(src)
        target = self.board.get(dst)
        if piece is None or self._owner(piece) != mover:
            return bad
        if target is not None and self._owner(target) == mover:
            return bad
        if promote:
            if piece.upper() not in self.PROMOTES:
                return bad
            piece = "+" + piece
        del self.board[src]
        self.board[dst] = piece
        self.side = 1 - mover
        if target is not None and target.upper() == "K":
            return mover, "king captured"
        enemy = [p for p in self.board.values() if self._owner(p) != mover]
        if len(enemy) == 1:
            return mover, "bare king"
        if self._count() >= 4:
            return None, "repetition"
        return None


def load_openings(path):
    """Each opening as (sfen or None for the variant's start, [moves])."""
    openings = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            if words[0] == "sfen":
                if len(words) < 5:
                    raise SystemExit(f"{path}:{number}: sfen needs board, side, hands, move number")
                sfen = " ".join(words[1:5])
                moves = words[6:] if len(words) > 5 and words[5] == "moves" else []
                openings.append((sfen, moves))
            else:
                openings.append((None, words[1:] if words[0] == "startpos" else words))
    if not openings:
        raise SystemExit(f"{path}: no openings")
    return openings


def new_referee(variant, sfen):
    files = 9 if variant == "heian" else 8
    return HeianReferee(sfen, files, 8)


def position_command(start_sfen, moves):
    base = f"position sfen {start_sfen}"
    return base + (" moves " + " ".join(moves) if moves else "")


def score_cp(score):
    """A reported score as centipawns from the mover's view (mates as +-100000), or None."""
    if not score:
        return None
    kind, _, value = score.partition(" ")
    try:
        if kind == "cp":
            return int(value)
        if kind == "mate":
            return -100000 if value.startswith("-") else 100000
    except ValueError:
        return None
    return None


def adjudicated_loser(args, records):
    """0 or 1 (relative to the mover of the last record: 0 = that mover, 1 = the other side) when both
    engines have agreed for --resign-moves moves each that the game is decided by at least
    --resign-cp, else None. Both must agree, so one engine's odd scale cannot end a game alone."""
    n = 2 * args.resign_moves
    if args.resign_cp <= 0 or len(records) < n:
        return None
    scores = [score_cp(r[2]) for r in records[-n:]]
    if any(s is None for s in scores):
        return None
    # scores[-1] is the last mover's view, scores[-2] the other side's, alternating backwards.
    last, other = scores[-1::-2], scores[-2::-2]
    if all(s <= -args.resign_cp for s in last) and all(s >= args.resign_cp for s in other):
        return 0
    if all(s >= args.resign_cp for s in last) and all(s <= -args.resign_cp for s in other):
        return 1
    return None


def nodes_budget(args, number):
    """The --nodes budget of game `number` (1-based): one draw per pair of games (same opening, colours
    swapped), seeded by the pair, so a match is reproducible."""
    pair = (number - 1) // 2
    factor = 1.0 + args.nodes_jitter * random.Random(pair).uniform(-1.0, 1.0)
    return max(1, round(args.nodes * factor))


def play_game(args, engines, black, opening, log, number):
    """Plays game `number`; engines[black] has Black. Returns (winner colour or None, reason, sfen,
    moves)."""
    start_sfen = opening[0] or START_SFEN[args.variant]
    referee = new_referee(args.variant, start_sfen)
    moves = []
    for usi in opening[1]:
        result = referee.play(usi)
        moves.append(usi)
        if result is not None:
            raise SystemExit(f"opening {opening} ends the game")
    by_colour = [engines[black], engines[1 - black]]
    for engine in by_colour:
        engine.send("usinewgame")
    clock = [float(args.time), float(args.time)]  # ms of main time left
    records = []
    while True:
        side = referee.turn()
        if len(moves) - len(opening[1]) >= args.max_plies:
            return None, "max plies", start_sfen, moves, records
        engine = by_colour[side]
        if args.nodes > 0:
            go = f"go nodes {nodes_budget(args, number)}"
            allowed = args.nodes_timeout * 1000
        elif args.inc > 0:
            go = f"go btime {int(clock[0])} wtime {int(clock[1])} binc {args.inc} winc {args.inc}"
            allowed = clock[side] + args.inc
        else:
            go = f"go btime {int(clock[0])} wtime {int(clock[1])} byoyomi {args.byoyomi}"
            allowed = clock[side] + args.byoyomi
        try:
            best, score, elapsed = engine.go(
                position_command(start_sfen, moves), go, allowed / 1000 + args.time_margin / 1000 + 5
            )
        except EngineError as e:
            print(f"  {e}", file=sys.stderr)
            return 1 - side, "engine failure", start_sfen, moves, records
        used = elapsed * 1000
        if args.nodes == 0:
            engine.moves_timed += 1
            if engine.tightest is None or used - allowed > engine.tightest[0] - engine.tightest[1]:
                engine.tightest = (used, allowed, engine.reported_ms)
        if used > allowed + args.time_margin:
            said = "" if engine.reported_ms is None else f", engine's own time {engine.reported_ms}"
            return 1 - side, f"time ({used:.0f} ms of {allowed:.0f}{said})", start_sfen, moves, records
        if args.nodes > 0:
            pass
        elif args.inc > 0:
            clock[side] = max(0.0, clock[side] - used) + args.inc
        else:
            clock[side] = max(0.0, clock[side] - used)
        if best == "resign":
            return 1 - side, "resign", start_sfen, moves, records
        records.append((best, used, score))
        if best != "win":
            moves.append(best)
        result = referee.play(best)
        if result is not None:
            winner, reason = result
            return winner, reason, start_sfen, moves, records
        loser = adjudicated_loser(args, records)
        if loser is not None:
            return (1 - side if loser == 0 else side), "adjudication", start_sfen, moves, records


def write_record(args, number, names, start_sfen, moves, opening_len, records, winner, reason):
    out = Path(args.out)
    result = "draw" if winner is None else ("black" if winner == 0 else "white")
    with open(out / "games.txt", "a", encoding="ascii") as f:
        f.write(
            f"{number} black={names[0]} white={names[1]} result={result} reason={reason} "
            f"{position_command(start_sfen, moves)}\n"
        )


def elo_from_score(s):
    s = min(max(s, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / s - 1)


def summary(w, l, d):
    """Score, Elo and a 95% interval from the trinomial variance of the per-game score."""
    n = w + l + d
    if n == 0:
        return "no games"
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + l * s**2 + d * (0.5 - s) ** 2) / n
    half = 1.96 * math.sqrt(var / n)
    lo, hi = elo_from_score(s - half), elo_from_score(s + half)
    return f"score {s:.3f}  elo {elo_from_score(s):+.1f}  95% [{lo:+.1f}, {hi:+.1f}]"


def sprt_llr(w, l, d, elo0, elo1):
    """Generalised SPRT log-likelihood ratio with the normal approximation of the score (as in
    Fishtest's trinomial test): LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 var)."""
    n = w + l + d
    if n == 0 or w + l == 0:
        return 0.0
    mean = (w + 0.5 * d) / n
    var = (w * (1 - mean) ** 2 + l * mean**2 + d * (0.5 - mean) ** 2) / n
    if var <= 0:
        return 0.0

    def expected(elo):
        return 1 / (1 + 10 ** (-elo / 400))

    s0, s1 = expected(elo0), expected(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def parse_options(items):
    out = []
    for item in items or []:
        if "=" not in item:
            raise SystemExit(f"option '{item}' is not NAME=VALUE")
        name, value = item.split("=", 1)
        out.append((name.strip(), value.strip()))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine1", required=True, help="command line of the engine under test")
    parser.add_argument("--engine2", required=True, help="command line of the opponent")
    parser.add_argument("--name1", help="display name (default: the engine's file name)")
    parser.add_argument("--name2")
    parser.add_argument("--option1", action="append", help="NAME=VALUE for engine1 (repeatable)")
    parser.add_argument("--option2", action="append", help="NAME=VALUE for engine2 (repeatable)")
    parser.add_argument("--games", type=int, default=20, help="total games (rounded up to pairs)")
    parser.add_argument("--openings", help="openings file (see scripts/openings.sfen)")
    parser.add_argument("--variant", choices=["heian", "heian8"], default="heian")
    parser.add_argument("--byoyomi", type=int, default=1000, help="ms per move after main time")
    parser.add_argument("--time", type=int, default=0, help="main time per side in ms")
    parser.add_argument("--inc", type=int, default=0, help="Fischer increment in ms (replaces byoyomi)")
    parser.add_argument("--nodes", type=int, default=0, help="fixed nodes per move instead of a clock")
    parser.add_argument("--nodes-jitter", type=float, default=0.1,
                        help="fraction the --nodes budget varies by between game pairs")
    parser.add_argument("--nodes-timeout", type=int, default=60, help="seconds a --nodes move may take")
    parser.add_argument("--time-margin", type=int, default=500, help="ms of lateness tolerated")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--hash", type=int, default=64, help="hash MB")
    parser.add_argument("--max-plies", type=int, default=320, help="draw after this many plies")
    parser.add_argument("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"))
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once")
    parser.add_argument("--resign-cp", type=int, default=1500,
                        help="adjudicate a win once both engines agree on at least this margin (0: never)")
    parser.add_argument("--resign-moves", type=int, default=3, help="... for this many moves each")
    parser.add_argument("--out", help="directory for game records")
    parser.add_argument("--log", help="file for the full USI traffic")
    args = parser.parse_args()

    openings_path = args.openings or str(
        SCRIPT_DIR / f"openings-{args.variant}.sfen"
    )
    openings = load_openings(openings_path)
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    log = open(args.log, "w", encoding="ascii", errors="replace") if args.log else None

    names = [
        args.name1 or Path(shlex.split(args.engine1)[0]).name,
        args.name2 or Path(shlex.split(args.engine2)[0]).name,
    ]
    if names[0] == names[1]:
        names = [names[0] + "-1", names[1] + "-2"]
    common = [
        ("Threads", args.threads),
        ("USI_Hash", args.hash),
        ("USI_Variant", args.variant),
    ]
    setups = [
        (args.engine1, names[0], common + parse_options(args.option1)),
        (args.engine2, names[1], common + parse_options(args.option2)),
    ]
    state = Tally(args)
    jobs = queue.Queue()
    games = args.games + args.games % 2
    for pair in range(games // 2):
        opening = openings[pair % len(openings)]
        for black in (0, 1):  # engine index playing Black
            jobs.put((2 * pair + black + 1, opening, black))
    threads = [
        threading.Thread(target=play_jobs, args=(args, setups, names, jobs, state, log), daemon=True)
        for _ in range(max(1, args.concurrency))
    ]
    try:
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.5)
    except KeyboardInterrupt:
        state.stop.set()
    finally:
        print(f"{names[0]} vs {names[1]}: +{state.w} -{state.l} ={state.d}  {summary(state.w, state.l, state.d)}")
        for i, name in enumerate(names):
            # Finished games only: a game cut short by an interrupt is not counted.
            if state.tightest[i] is not None:
                used, allowed, reported = state.tightest[i]
                said = "" if reported is None else f"; the engine reported {reported} ms"
                print(
                    f"{name}: {state.moves_timed[i]} timed move{'' if state.moves_timed[i] == 1 else 's'}; closest to the limit: "
                    f"{used:.0f} ms of {allowed:.0f} allowed ({allowed - used:+.0f} ms to spare{said})"
                )
        if args.sprt:
            llr = sprt_llr(state.w, state.l, state.d, state.elo0, state.elo1)
            print(
                f"SPRT elo0 {state.elo0} elo1 {state.elo1}: llr {llr:.2f} "
                f"bounds [{state.lower:.2f}, {state.upper:.2f}]"
            )
        if state.error:
            print(state.error, file=sys.stderr)
        if log:
            log.close()


class Tally:
    """The match's running result, shared by the game threads (all access under `lock`)."""

    def __init__(self, args):
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.w = self.l = self.d = 0
        self.error = None
        self.moves_timed = [0, 0]  # per engine index (0 = engine1)
        self.tightest = [None, None]
        if args.sprt:
            self.elo0, self.elo1, alpha, beta = args.sprt
            self.lower, self.upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)

    def add_timing(self, engines):
        """Takes over the game thread's engines' move timings (engines[0] is engine1)."""
        with self.lock:
            for i, engine in enumerate(engines):
                self.moves_timed[i] += engine.moves_timed
                engine.moves_timed = 0
                t, best = engine.tightest, self.tightest[i]
                engine.tightest = None
                if t is not None and (best is None or t[0] - t[1] > best[0] - best[1]):
                    self.tightest[i] = t

    def record(self, args, number, names, black, winner, reason, start, moves, records, opening_len):
        with self.lock:
            engine1_colour = 0 if black == 0 else 1
            if winner is None:
                self.d += 1
                result = "1/2"
            else:
                result = "1-0" if winner == 0 else "0-1"
                if winner == engine1_colour:
                    self.w += 1
                else:
                    self.l += 1
            game_names = [names[black], names[1 - black]]
            print(
                f"game {number:4d}: {game_names[0]} (black) vs {game_names[1]} (white) {result} "
                f"{reason}, {len(moves)} plies | {names[0]} +{self.w} -{self.l} ={self.d}",
                flush=True,
            )
            if args.out:
                write_record(args, number, game_names, start, moves, opening_len, records, winner, reason)
            if args.sprt:
                llr = sprt_llr(self.w, self.l, self.d, self.elo0, self.elo1)
                if llr >= self.upper or llr <= self.lower:
                    verdict = "H1 accepted" if llr >= self.upper else "H0 accepted"
                    print(f"SPRT: llr {llr:.2f} bounds [{self.lower:.2f}, {self.upper:.2f}]: {verdict}")
                    self.stop.set()


def play_jobs(args, setups, names, jobs, state, log):
    """One game thread: its own pair of engine processes, games taken from `jobs` until it is empty
    or the match is stopped."""
    engines = []
    try:
        for command, name, options in setups:
            engine = Engine(command, name, log)
            engines.append(engine)
            engine.start(options)
            if not engine.declares("USI_Variant"):
                raise EngineError(f"{name} does not declare USI_Variant: it cannot play {args.variant}")
        while not state.stop.is_set():
            try:
                number, opening, black = jobs.get_nowait()
            except queue.Empty:
                break
            for engine in engines:
                engine.ready()
            winner, reason, start, moves, records = play_game(args, engines, black, opening, log, number)
            for colour, engine in ((0, engines[black]), (1, engines[1 - black])):
                outcome = "draw" if winner is None else ("win" if winner == colour else "lose")
                try:
                    engine.send(f"gameover {outcome}")
                except EngineError:
                    pass
            state.record(args, number, names, black, winner, reason, start, moves, records, len(opening[1]))
            state.add_timing(engines)
    except EngineError as e:
        with state.lock:
            state.error = str(e)
        state.stop.set()
    finally:
        for engine in engines:
            engine.quit()


if __name__ == "__main__":
    main()
