#!/usr/bin/env python3
"""Tokin's games on ShogiArena: SPRT gates, gauntlets, SPSA tuning and SSH workers, one command each.

    scripts/arena/arena.py sprt                  # this tree's build against main's, until SPRT decides
    scripts/arena/arena.py sprt --nodes 50000 --openings scripts/openings-wide.sfen   # per node, any load
    scripts/arena/arena.py gauntlet              # Tokin against gpsusi, Fairy-Stockfish, YaneuraOu
    scripts/arena/arena.py spsa                  # tune src/search/params.rs with a --features tune build
    scripts/arena/arena.py same-network --network nn.bin   # Tokin and YaneuraOu NNUE on one network
    scripts/arena/arena.py report RUN_DIR        # Elo table, every game's ending, CSA and KIF records
    scripts/arena/arena.py mates RUN_DIR         # losses to an announced mate: could df-pn have seen it?
    scripts/arena/arena.py compare OLD NEW       # two runs of the same openings, game by game

The first run creates scripts/arena/.venv and installs scripts/arena/requirements.txt there (pinned
versions, nothing system-wide). Each run writes RUN_DIR (default target/arena/<mode>-<time>): the
configuration it ran (config.yaml, engines/*.yaml with the engine paths filled in, openings.txt
from scripts/openings.sfen), ShogiArena's own run directory (arena/: game.db, transcripts, state to
resume from), and after it the report (report.txt, records/*.csa and *.kif).

The settings (clock, bounds, margins, adjudication) live in the YAML files beside this script;
arena.py only fills in paths. Anything after `--` goes to `shogiarena run` unchanged, e.g.
`arena.py gauntlet -- --tournament games_per_pair=10` or `-- --rules time_control.byoyomi_ms=3000`.
Run it again with the same --run-dir to resume an interrupted run; `spsa --state FILE --minutes M`
plays M minutes of a long SPSA run and saves it in FILE, to commit and continue in a later sitting.

--instances FILE (sprt, gauntlet) plays on the machines that ShogiArena instance file names, over
SSH: see README "Remote workers".
"""

import argparse
import datetime
import hashlib
import json
import math
import os
import re
import shutil
import signal
import string
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VENV = HERE / ".venv"
REQUIREMENTS = HERE / "requirements.txt"
OPENINGS = ROOT / "scripts" / "openings.sfen"


def ensure_venv():
    """Re-executes this script inside scripts/arena/.venv, creating it when missing or when
    requirements.txt changed since it was made."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    python = VENV / "bin" / "python"
    stamp = VENV / "requirements.installed"
    wanted = REQUIREMENTS.read_text()
    if not python.exists() or not stamp.exists() or stamp.read_text() != wanted:
        print(f"creating {VENV} from {REQUIREMENTS.name} ...", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
        subprocess.check_call([str(python), "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)])
        stamp.write_text(wanted)
    os.execv(str(python), [str(python), str(Path(__file__).resolve())] + sys.argv[1:])


# ---------------------------------------------------------------------------------------------
# Builds


def run(cmd, cwd=None, env=None):
    print("+ " + " ".join(str(c) for c in cmd), file=sys.stderr)
    subprocess.check_call([str(c) for c in cmd], cwd=cwd, env=env)


def build_tree(features=None, target_dir=None):
    """Builds this tree in release and returns the binary."""
    cmd = ["cargo", "build", "--release", "--quiet"]
    if features:
        cmd += ["--features", features]
    target = Path(target_dir) if target_dir else ROOT / "target"
    if target_dir:
        cmd += ["--target-dir", str(target)]
    run(cmd, cwd=ROOT)
    return target / "release" / "tokin"


def build_ref(ref):
    """Builds git revision `ref` in a worktree of its own (target/arena/build-<sha>) and returns the
    binary; an existing build of the same commit is reused."""
    sha = subprocess.check_output(["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=ROOT, text=True)
    sha = sha.strip()
    tree = ROOT / "target" / "arena" / f"build-{sha[:12]}"
    binary = tree / "target" / "release" / "tokin"
    if binary.exists():
        return binary
    if not tree.exists():
        run(["git", "worktree", "add", "--detach", tree, sha], cwd=ROOT)
    run(["cargo", "build", "--release", "--quiet"], cwd=tree)
    return binary


# ---------------------------------------------------------------------------------------------
# Run directories


def opening_lines(path=OPENINGS):
    """An openings file (scripts/openings.sfen by default) in ShogiArena's form: `position startpos
    moves ...` or `sfen ...`."""
    lines = []
    for raw in Path(path).read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        lines.append(line if line.startswith("sfen ") else f"position startpos moves {line}")
    return lines


def engine_yaml(template, name, path, options=()):
    """The engine file `template` (engines/*.yaml) with its name and binary replaced and the USI
    `options` ("Name=Value") added to its options block, e.g. EvalDir=/path/to/folder (its nn.bin) to test a
    network against the build's built-in evaluation."""
    text = (HERE / "engines" / template).read_text()
    text = re.sub(r"(?m)^name: .*$", f"name: {name}", text)
    text = re.sub(r"(?m)^engine_path: .*$", f"engine_path: {Path(path).resolve()}", text)
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or not key.strip():
            sys.exit(f"arena.py: option '{option}' is not Name=Value")
        key, value = key.strip(), value.strip()
        if re.search(rf"(?m)^  {re.escape(key)}:", text):
            text = re.sub(rf"(?m)^  {re.escape(key)}:.*$", f"  {key}: {value}", text)
        else:
            text = text.rstrip("\n") + f"\n  {key}: {value}\n"
    return text


def network_files(options):
    """The network files that USI `options` ("Name=Value") make an engine load (EvalFile, else
    EvalDir's nn.bin), so a run that spans sittings can check them by hash as it does binaries: a
    network regenerated under the same name is another network."""
    values = {k.strip(): v.strip() for k, _, v in (o.partition("=") for o in options or [])}
    file, folder = values.get("EvalFile"), values.get("EvalDir")
    if folder == "<internal>":
        folder = None
    path = None
    if file:
        path = Path(folder) / file if folder and not Path(file).is_absolute() else Path(file)
    elif folder:
        path = Path(folder) / "nn.bin"
    if path is None:
        return []
    require(path, "network")
    return [path]


def prepare(run_dir, config, engines, instances=None, openings=OPENINGS):
    """Writes config.yaml (from `config`: a file here, or the text of one), engines/*.yaml ({file:
    text}) and openings.txt (from the openings file `openings`)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "engines").mkdir(exist_ok=True)
    for file, text in engines.items():
        (run_dir / "engines" / file).write_text(text)
    text = (HERE / config).read_text() if config.endswith(".yaml") else config
    if instances:
        # Games go to whichever listed machine has free slots (ShogiArena's "auto" scheduling).
        text += f"instances:\n  - {Path(instances).resolve()}\n"
        text += "system:\n  instance_scheduling:\n    policy: auto\n"
    (run_dir / "config.yaml").write_text(text)
    (run_dir / "openings.txt").write_text("\n".join(opening_lines(openings)) + "\n")


def shogiarena(mode, run_dir, extra, minutes=None):
    """Runs `shogiarena run MODE` on run_dir/config.yaml with its state in run_dir/arena.

    With `minutes`, the run is interrupted (SIGINT, as Ctrl-C: ShogiArena ends its games and
    keeps its state) after that long, and so is it when this script gets SIGINT or SIGTERM;
    either way this returns once ShogiArena has exited, so the caller can save the state."""
    exe = Path(sys.prefix) / "bin" / "shogiarena"
    cmd = [exe, "--output-dir", run_dir / "output", "run", mode, run_dir / "config.yaml"]
    cmd += ["--run-dir", run_dir / "arena"] + list(extra)
    # The venv's bin first: remote runs call `uv` (installed there) to build the worker bundle.
    env = dict(os.environ, PATH=f"{exe.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    print("+ " + " ".join(str(c) for c in cmd), file=sys.stderr)
    child = subprocess.Popen([str(c) for c in cmd], cwd=run_dir, env=env)
    try:
        child.wait(timeout=None if minutes is None else minutes * 60)
    except subprocess.TimeoutExpired:
        print(f"arena.py: stopping ShogiArena ({minutes:g} minutes are up)", file=sys.stderr)
        stop_gracefully(child)
    except KeyboardInterrupt:
        print("arena.py: stopping ShogiArena (interrupted)", file=sys.stderr)
        stop_gracefully(child)
    else:
        # A timed run keeps what it played even when ShogiArena failed; an untimed one stops here.
        if minutes is None and child.returncode != 0:
            sys.exit(f"arena.py: ShogiArena exited with status {child.returncode}")


def stop_gracefully(child):
    """SIGINT, as Ctrl-C: ShogiArena ends its games and keeps its state; killed after 3 minutes."""
    child.send_signal(signal.SIGINT)
    try:
        child.wait(timeout=180)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def default_run_dir(mode):
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return ROOT / "target" / "arena" / f"{mode}-{stamp}"


def staged(path, name="tokin", folder="engines"):
    """A copy of a file alone in a folder named by its content hash,
    target/arena/<folder>/<sha256[:16]>/<name>: an engine binary (tokin), or a network (nn.bin, as
    YaneuraOu reads it from EvalDir). ShogiArena keeps a copy of the engine's whole folder with
    each run (for target/release, 140 MB of build products), and a run that resumes must find the
    same bytes at the same path: a staged copy is both small and immune to rebuilds."""
    path = Path(path).resolve()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    # Named by the hash alone: a run continued from its state file finds the same path whatever
    # the rebuilt file was called.
    target = ROOT / "target" / "arena" / folder / digest / name
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target.with_suffix(".tmp"))
        os.replace(target.with_suffix(".tmp"), target)
    return target


def require(path, what):
    if not Path(path).exists():
        sys.exit(f"{what} not found: {path}")


# ---------------------------------------------------------------------------------------------
# Report: Elo table, endings, records


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def elo_interval(w, l, d):
    """Elo and its 95% interval from a W/L/D count (normal approximation of the mean score)."""
    n = w + l + d
    if n == 0:
        return None
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + l * s**2 + d * (0.5 - s) ** 2) / n
    half = 1.96 * math.sqrt(var / n)
    return elo(s), elo(s - half), elo(s + half)


def engine_lines(text):
    """The words of each line an engine sent, from a ShogiArena USI transcript's text (its lines
    read `<time>ms in <runner state> <what the engine sent>`)."""
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 4 and words[1] == "in":
            yield words[3:]


def last_bestmove(transcript):
    """The last `bestmove` word an engine sent in a game, from its transcript (None when it has
    none, or when the transcript is not there)."""
    word = None
    if transcript.exists():
        for words in engine_lines(transcript.read_text(errors="replace")):
            if words[0] == "bestmove" and len(words) > 1:
                word = words[1]
    return word


# The last `bestmove` word of every transcript of a run's earlier sittings, by transcript name: a
# state file leaves the transcripts out (STATE_SKIP), and without the word a resignation would
# read as an adjudication in the report of a continued run.
LAST_BESTMOVES = "last-bestmoves.json"


def last_bestmoves(arena_dir):
    """`LAST_BESTMOVES` of `arena_dir` (carried by its state file) updated from the transcripts
    there now."""
    saved = arena_dir / LAST_BESTMOVES
    words = json.loads(saved.read_text()) if saved.exists() else {}
    for transcript in sorted((arena_dir / "transcripts").glob("*.log")):
        words[transcript.name] = last_bestmove(transcript)
    return words


def classify(result, board, loser_word, loser_played):
    """How a game ended, in words. ShogiArena records a win as BLACK_WIN/WHITE_WIN whether it came
    from a mate, a resignation, an illegal move or its own resign adjudication; the final position
    and the loser's last `bestmove` (`loser_word`, from its transcript) against the last move the
    record has from it (`loser_played`) tell them apart."""
    from rsshogi.types import RepetitionState

    if result.endswith("_BY_TIMEOUT"):
        return "time"
    if result == "DRAW_BY_REPETITION":
        return "repetition"
    if result == "DRAW_BY_MAX_PLIES":
        return "max plies"
    if result not in ("BLACK_WIN", "WHITE_WIN"):
        return result.lower().replace("_", " ")
    if board.is_mated():
        return "mate"
    if board.repetition_state() in (RepetitionState.WIN, RepetitionState.LOSE):
        return "perpetual check"
    if loser_word == "resign":
        return "resignation"
    if loser_word == "win" or board.can_declare_win():
        return "declaration"
    if loser_word is not None and loser_word != loser_played:
        return "illegal move"  # its answer never reached the record
    return "adjudication"


# The record's closing line for an ending, when the side to move is the loser (CSA and KIF say
# "the side to move resigned / is mated / ran out of time"). Other endings keep no closing line.
TERMINALS = {
    "mate": "mate",
    "resignation": "resign",
    "adjudication": "resign",
    "time": "timeout",
    "illegal move": "lose_by_illegal_move",
    "repetition": "draw",
    "max plies": "max_moves",
}


def records_text(sfen, entries, result, ending, loser_to_move, black, white, start, tcb, tcw):
    """The game as CSA and KIF text. ShogiArena's result and the ending are written into the header
    (`$result:` / `result：` lines); the closing line is the ending's where the record formats can
    say it (a time loss or an adjudication right after the loser's own move cannot be: the side to
    move is the winner), else left out."""
    import rsshogi

    draw = result.startswith("DRAW")
    kind = TERMINALS.get(ending) if (loser_to_move or draw) else None

    def build(terminal_kind):
        metadata = rsshogi.record.RecordMetadata(
            game_name=None,
            black_player=black,
            white_player=white,
            start_date=start,
            black_time_control=rsshogi.record.TimeControl.from_spec(tcb) if tcb else None,
            white_time_control=rsshogi.record.TimeControl.from_spec(tcw) if tcw else None,
            attributes={"result": result, "ending": ending},
        )
        terminal = None
        if terminal_kind:
            terminal = rsshogi.record.SpecialMoveEntry(terminal_kind, rsshogi.record.GameResult.from_str(result))
        record = rsshogi.record.Record.from_main_line(sfen, entries, terminal, metadata)
        return record.to_csa(), record.to_kif()

    try:
        return build(kind)
    except ValueError:
        return build(None)


def arena_dir_of(run_dir):
    """ShogiArena's directory of `run_dir`: arena.py's run directories keep it in arena/; a
    directory of ShogiArena's own is its own."""
    return run_dir / "arena" if (run_dir / "arena" / "game.db").exists() else run_dir


def load_games(arena_dir):
    """Every finished game of a ShogiArena run: name, players, result, moves (USI), records."""
    import rsshogi
    from rsshogi.core import Board, Move

    db = sqlite3.connect(arena_dir / "game.db")
    players = dict(db.execute("select id, player_name from player"))
    bestmoves = last_bestmoves(arena_dir)
    games = []
    rows = db.execute(
        "select id, game_name, game_result, black_player_id, white_player_id, initial_position_sfen, "
        "time_control_black, time_control_white, start_date from game order by id"
    ).fetchall()
    for gid, name, result, bid, wid, sfen, tcb, tcw, start in rows:
        board = Board()
        board.set_sfen(sfen)
        entries, late, played = [], [], {"black": None, "white": None}
        usi_moves, scores = [], []
        walls = {"black": [], "white": []}
        evals = {"black": [], "white": []}
        moves = db.execute(
            "select next_move, next_move_time_ms, wall_time_ms, eval from game_move where game_id = ? order by id",
            (gid,),
        ).fetchall()
        for code, time_ms, wall_ms, score in moves:
            if code == int(Move.MOVE_END):
                break
            mover = "black" if board.turn.is_black() else "white"
            played[mover] = Move(code).to_usi()
            if wall_ms is not None:
                walls[mover].append(wall_ms)
            if score is not None:
                evals[mover].append((len(entries) + 1, score))
            usi_moves.append(Move(code).to_usi())
            scores.append(score)
            mv = board.push_move(Move(code)).to_move()
            info = rsshogi.record.EngineInfo(eval=score, wall_time_ms=wall_ms)
            entries.append(rsshogi.record.MoveEntry(mv, time_ms=time_ms, engine_info=info))
            late.append(wall_ms or 0)
        black, white = players[bid], players[wid]
        loser = None
        if result.startswith("BLACK_WIN"):
            loser = ("white", white)
        elif result.startswith("WHITE_WIN"):
            loser = ("black", black)
        word = bestmoves.get(f"game-{name}-{loser[0]}.log") if loser else None
        ending = classify(result, board, word, played[loser[0]] if loser else None)
        loser_to_move = loser is not None and board.turn.is_black() == (loser[0] == "black")
        csa, kif = records_text(sfen, entries, result, ending, loser_to_move, black, white, start, tcb, tcw)
        games.append(
            {
                "name": name,
                "black": black,
                "white": white,
                "result": result,
                "ending": ending,
                "plies": len(entries),
                "csa": csa,
                "kif": kif,
                "last_wall_ms": late[-1] if late else None,
                "walls": {black: walls["black"], white: walls["white"]},
                "evals": {black: evals["black"], white: evals["white"]},
                "sfen": sfen,
                "moves": usi_moves,
                "scores": scores,
            }
        )
    return games


def report(run_dir, focus=None):
    """Writes run_dir/report.txt and run_dir/records/, prints the report. `run_dir` is one of
    arena.py's (ShogiArena's state in its arena/) or ShogiArena's own."""
    arena_dir = arena_dir_of(run_dir)
    games = load_games(arena_dir)
    records = run_dir / "records"
    records.mkdir(exist_ok=True)
    for g in games:
        (records / f"{g['name']}.csa").write_text(g["csa"], encoding="ascii", errors="replace")
        (records / f"{g['name']}.kif").write_text(g["kif"], encoding="utf-8")

    names = sorted({g["black"] for g in games} | {g["white"] for g in games})
    if focus is None or focus not in names:
        # The engine that played most (a gauntlet's baseline); between equals, Tokin (a gauntlet
        # against one peer, an SPRT's candidate over its base), then the first by name.
        def rank(n):
            return (sum(n in (g["black"], g["white"]) for g in games), n.startswith("tokin"), n == "candidate")

        focus = max(names, key=rank) if names else None
    out = [f"{len(games)} games in {arena_dir}", ""]

    # Elo of `focus` against each opponent: every game, and without time forfeits.
    out.append(f"{focus} against   games   W   L   D   score    Elo [95%]              without time losses")
    for other in [n for n in names if n != focus]:
        rows = [g for g in games if {g["black"], g["white"]} == {focus, other}]
        for label, subset in (("all", rows), ("untimed", [g for g in rows if g["ending"] != "time"])):
            w = sum(1 for g in subset if winner(g) == focus)
            l = sum(1 for g in subset if winner(g) == other)
            d = len(subset) - w - l
            e = elo_interval(w, l, d)
            if label == "all":
                line = f"{other:<18} {len(subset):>5} {w:>3} {l:>3} {d:>3}  {score_text(w, l, d):>6}  {elo_text(e):<22}"
            else:
                line += f" {elo_text(e)} ({len(subset)} games)"
        out.append(line)
    out.append("")

    # Endings, per winner.
    out.append("endings (winner: how)")
    tally = {}
    for g in games:
        key = (winner(g) or "draw", g["ending"])
        tally[key] = tally.get(key, 0) + 1
    for (who, how), n in sorted(tally.items()):
        out.append(f"  {who:<20} {how:<16} {n}")
    out.append("")

    out.append("slowest moves (go to bestmove, ms, as the runner's clock saw them)")
    for name in names:
        walls = sorted(w for g in games for w in g["walls"].get(name, []))
        if walls:
            out.append(f"  {name:<20} {len(walls):>6} moves, median {walls[len(walls) // 2]}, slowest {walls[-3:][::-1]}")
    out.append("")

    out.extend(search_depths(arena_dir))
    out.extend(collapses(games, focus))

    forfeits = [g for g in games if g["ending"] == "time"]
    out.append(f"time forfeits: {len(forfeits)}")
    for g in forfeits:
        late = g["black"] if g["result"].startswith("WHITE") else g["white"]
        out.append(f"  {g['name']}: {late} lost on time at ply {g['plies'] + 1} ({g['last_wall_ms']} ms on the clock's last move)")
    out.append("")

    out.append("every game: name, black, white, result, ending, plies")
    for g in games:
        out.append(f"  {g['name']}  {g['black']} - {g['white']}  {g['result']}  {g['ending']}  {g['plies']}")
    sprt = sprt_state(arena_dir)
    if sprt:
        out.append("")
        out.append(sprt)
    out.append("")
    out.append(f"records (CSA and KIF): {records}")
    text = "\n".join(out) + "\n"
    (run_dir / "report.txt").write_text(text)
    print(text)


INFO_FIELDS = ("depth", "seldepth", "nodes", "nps")


def move_infos(text):
    """Per move in one engine's transcript text, the depth, seldepth, nodes and nps (those it
    gave) of its last `info` line with a depth before its `bestmove`."""
    moves, last = [], None
    for words in engine_lines(text):
        if words[0] == "info":
            # The fields come before any `pv` or `string`, whose words are moves or free text.
            head = words[1:]
            for stop in ("pv", "string"):
                if stop in head:
                    head = head[: head.index(stop)]
            fields = {
                key: int(value)
                for key, value in zip(head, head[1:])
                if key in INFO_FIELDS and value.isdigit()
            }
            if "depth" in fields:
                last = fields
        elif words[0] == "bestmove":
            if last is not None:
                moves.append(last)
            last = None
    return moves


def search_depths(arena_dir):
    """Report lines: how deep and how fast each engine searched, medians over its moves of its
    last `info` line (what it reached when it answered). From the USI transcripts, which a state
    file leaves out: a restored run's earlier sittings are not in it."""
    by_engine = {}
    for transcript in sorted((arena_dir / "transcripts").glob("*.log")):
        text = transcript.read_text(errors="replace")
        engine = next((l.split(":", 1)[1].strip() for l in text.splitlines()[:8] if l.startswith("# engine:")), None)
        if engine:
            by_engine.setdefault(engine, []).extend(move_infos(text))
    if not by_engine:
        return []
    out = ["search at each move's last info line (medians over the moves of this run's transcripts)"]
    for engine, moves in sorted(by_engine.items()):
        cells = []
        for key in INFO_FIELDS:
            values = sorted(m[key] for m in moves if key in m)
            if values:
                cells.append(f"{key} {values[len(values) // 2]}")
        out.append(f"  {engine:<20} {len(moves):>6} moves, " + ", ".join(cells))
    out.append("")
    return out


# A loss is "sudden" when the loser's own score was at least this good within its last
# COLLAPSE_WINDOW moves: it lost a position it believed better, the horizon effect of a mating
# attack it did not see, rather than being ground down.
COLLAPSE_PEAK = 500
COLLAPSE_WINDOW = 10
LOST_SCORE = -1000


def collapses(games, focus):
    """Report lines: how `focus`'s losses came, from its own scores (the `eval` of its moves)."""
    rows = []
    for g in games:
        if winner(g) is None or winner(g) == focus or focus not in (g["black"], g["white"]):
            continue
        evals = g["evals"].get(focus, [])
        if not evals:
            continue
        window = evals[-COLLAPSE_WINDOW:]
        peak_ply, peak = max(window, key=lambda e: e[1])
        # The first of its moves from which it never again scored above LOST_SCORE.
        lost_ply = None
        for ply, score in reversed(evals):
            if score > LOST_SCORE:
                break
            lost_ply = ply
        rows.append((g["name"], g["plies"], peak_ply, peak, lost_ply))
    if not rows:
        return []
    sudden = [r for r in rows if r[3] >= COLLAPSE_PEAK]
    level = [r for r in rows if 0 <= r[3] < COLLAPSE_PEAK]
    out = [
        f"{focus}'s losses by its own best score in its last {COLLAPSE_WINDOW} moves",
        f"  +{COLLAPSE_PEAK} or better (sudden): {len(sudden)}   0 to +{COLLAPSE_PEAK - 1}: {len(level)}"
        f"   below 0 (seen coming): {len(rows) - len(sudden) - len(level)}   of {len(rows)}",
    ]
    if sudden:
        out.append(f"  sudden: game, plies, its best score (at ply), first ply of its scores below {LOST_SCORE} to the end")
        for name, plies, peak_ply, peak, lost_ply in sudden:
            out.append(f"    {name}  {plies:>4}  {peak:>+6} ({peak_ply})  {lost_ply if lost_ply else '-'}")
    out.append("")
    return out


# A score at least this large is a mate announcement (engines report mates as about +-32000).
MATE_SCORE = 30000


def walked_into_mates(run_dir, focus, tokin, ms, alternatives_ms):
    """For each loss of `focus` in which the opponent announced a mate right after a move of
    `focus`: whether Tokin's df-pn (`tokin mate`, checks only) proves that mate after the move
    played within `ms`, and how many of the other legal moves it proves no mate after within
    `alternatives_ms` (the moves a defence check could have played instead)."""
    from rsshogi.core import Board

    arena_dir = arena_dir_of(run_dir)
    games = [g for g in load_games(arena_dir) if focus in (g["black"], g["white"]) and winner(g) not in (None, focus)]
    print(f"{focus}'s {len(games)} losses in {arena_dir}; df-pn {ms} ms after the move played, "
          f"{alternatives_ms} ms after each other legal move")
    print("game                 ply  move    its score  opponent's mate after it      other moves: no mate / legal")
    counts = {"announced": 0, "proven": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for g in games:
            focus_black = g["black"] == focus
            board = Board()
            board.set_sfen(g["sfen"])
            last_score = None
            for i, (mv, score) in enumerate(zip(g["moves"], g["scores"])):
                mover_is_focus = board.turn.is_black() == focus_black
                if not mover_is_focus and i > 0 and score is not None and score >= MATE_SCORE:
                    break
                if mover_is_focus:
                    last_score = score
                board.push_usi(mv)
            else:
                continue
            # board: after the move that let the mate in (ply i, 1-based); step back to before it.
            counts["announced"] += 1
            played = g["moves"][i - 1]
            board.pop()
            children = []
            for m in board.legal_moves():
                usi = m.to_usi()
                board.push_usi(usi)
                children.append((usi, board.to_sfen()))
                board.pop()
            sfen_of = dict(children)
            proven = mate_verdict(tokin, [sfen_of[played]], ms, tmp)[0]
            counts["proven"] += proven.startswith("mate")
            verdicts = mate_verdict(tokin, [s for u, s in children if u != played], alternatives_ms, tmp)
            safe = sum(v.startswith("nomate") for v in verdicts)
            score_text_ = "-" if last_score is None else f"{last_score:+d}"
            print(f"{g['name']:<20} {i:>4}  {played:<7} {score_text_:>9}  {proven:<28}  {safe:>3} / {len(children)}")
    print(f"the opponent announced a mate right after {focus}'s move in {counts['announced']} losses; "
          f"df-pn proves it after the move played in {counts['proven']}")


def mate_verdict(tokin, sfens, ms, tmp):
    """`tokin mate --file` on `sfens`: per position "mate N plies, T ms", "nomate, T ms" or "timeout"."""
    path = Path(tmp) / "positions.sfen"
    path.write_text("".join(s + "\n" for s in sfens))
    out = subprocess.run([tokin, "mate", "--file", str(path), "--time", str(ms), "--hash", "64"],
                         capture_output=True, text=True, check=True).stdout
    verdicts = ["error"] * len(sfens)
    for line in out.splitlines():
        m = re.match(r"line (\d+): (mate \d+ plies, \d+ ms|nomate, \d+ ms|timeout)", line)
        if m:
            verdicts[int(m.group(1)) - 1] = m.group(2)
    return verdicts


def cmd_mates(args, _extra):
    tokin = Path(args.tokin).resolve() if args.tokin else build_tree()
    walked_into_mates(Path(args.run_dir).resolve(), args.focus, str(tokin), args.ms, args.alternatives_ms)


def winner(g):
    if g["result"].startswith("BLACK_WIN"):
        return g["black"]
    if g["result"].startswith("WHITE_WIN"):
        return g["white"]
    return None


def score_text(w, l, d):
    n = w + l + d
    return f"{(w + 0.5 * d) / n:.3f}" if n else "-"


def elo_text(e):
    if e is None:
        return "-"
    if abs(e[0]) > 2000:
        return "(all won)" if e[0] > 0 else "(all lost)"
    return f"{e[0]:+.0f} [{e[1]:+.0f}, {e[2]:+.0f}]"


def sprt_state(arena_dir):

    state = arena_dir / "state.json"
    if not state.exists():
        return None
    s = json.loads(state.read_text()).get("sprt_state")
    if not s:
        return None
    bound = math.log((1 - s["beta"]) / s["alpha"])
    verdict = "H1 accepted (passed)" if s["llr"] >= bound else "H0 accepted (failed)" if s["llr"] <= -bound else "undecided"
    return (
        f"SPRT [{s['elo0']:g}, {s['elo1']:g}] alpha {s['alpha']:g} beta {s['beta']:g} ({s['model']}): "
        f"LLR {s['llr']:.2f} (bounds +-{bound:.2f}), {verdict}; "
        f"+{s['wins']} -{s['losses']} ={s['draws']} in {s['games_played']} games, pairs {s['penta_bins']}"
    )


# ---------------------------------------------------------------------------------------------
# Modes


def resumable_run_dir(mode, args, binaries):
    """The state file (`--state`, or None) and run directory of a run that may span sittings: a
    run with a state file has one fixed directory (ShogiArena's resume checks the run's paths),
    filled from the file when it is not there yet."""
    state = Path(args.state).resolve() if args.state else None
    if args.run_dir:
        run_dir = Path(args.run_dir).resolve()
    elif state:
        run_dir = ROOT / "target" / "arena" / f"{mode}-{state.name.split('.')[0]}"
    else:
        run_dir = default_run_dir(mode)
    if state and state.exists() and not (run_dir / "arena").exists():
        restore_state(state, run_dir / "arena", binaries)
    return state, run_dir


def cmd_sprt(args, extra):
    candidate = Path(args.candidate) if args.candidate else build_tree()
    base = Path(args.base_engine) if args.base_engine else build_ref(args.base)
    require(candidate, "candidate engine")
    require(base, "base engine")
    candidate, base = staged(candidate), staged(base)
    played = [candidate, base] + network_files(args.candidate_option) + network_files(args.base_option)
    state, run_dir = resumable_run_dir("sprt", args, played)
    config = "sprt.yaml"
    if args.nodes:
        if ":" in args.nodes:
            sys.exit("arena.py: sprt --nodes takes one count, played by both builds")
        config = at_fixed_nodes((HERE / "sprt.yaml").read_text(), parse_nodes(args.nodes)[0],
                                max_games=fixed_node_games(args, None))
    prepare(
        run_dir,
        config,
        {
            "candidate.yaml": engine_yaml(
                "tokin-fast.yaml", "candidate", candidate, args.candidate_option or []
            ),
            "base.yaml": engine_yaml("tokin-fast.yaml", "base", base, args.base_option or []),
        },
        args.instances,
        args.openings,
    )
    shogiarena("sprt", run_dir, extra, minutes=args.minutes)
    if state:
        save_state(run_dir / "arena", state, played)
    report(run_dir, focus="candidate")


PEERS = ("gpsusi", "fairy-stockfish", "yaneuraou-material")


def gauntlet_config(peers):
    """gauntlet.yaml with only the engine entries of Tokin and `peers`."""
    text = (HERE / "gauntlet.yaml").read_text()
    for name in PEERS:
        if name not in peers:
            text = re.sub(rf"(?m)^  - name: {re.escape(name)}\n(?:    .*\n)*", "", text)
    return text


def cmd_gauntlet(args, extra):
    tokin = Path(args.tokin) if args.tokin else build_tree()
    paths = {"gpsusi": args.gpsusi, "fairy-stockfish": args.fairy_stockfish, "yaneuraou-material": args.yaneuraou}
    peers = {name: paths[name] for name in (args.peer or PEERS)}
    for name, path in peers.items():
        require(path, name)
    require(tokin, "tokin")
    tokin = staged(tokin)
    # Peers are not hashed: they are other people's releases, named by path in the run's config.
    played = [tokin] + network_files(args.tokin_option)
    state, run_dir = resumable_run_dir("gauntlet", args, played)
    engines = {"tokin.yaml": engine_yaml("tokin.yaml", "tokin", tokin, args.tokin_option or [])}
    for name, path in peers.items():
        engines[f"{name}.yaml"] = engine_yaml(f"{name}.yaml", name, path)
    prepare(run_dir, gauntlet_config(peers), engines, args.instances, args.openings)
    shogiarena("tournament", run_dir, extra, minutes=args.minutes)
    if state:
        save_state(run_dir / "arena", state, played)
    report(run_dir, focus="tokin")


# The size of a network file of the standard shape, HalfKP 256x2-32-32: the only one YaneuraOu's
# NNUE edition (as built by its Makefile's default) evaluates.
STANDARD_NETWORK_BYTES = 64_217_066


def staged_network(path):
    """The network file staged as target/arena/networks/<sha256[:16]>/nn.bin, once it is checked
    to be of the standard shape."""
    require(path, "network file")
    size = Path(path).stat().st_size
    if size != STANDARD_NETWORK_BYTES:
        sys.exit(
            f"arena.py: {path} has {size:,} bytes, not the {STANDARD_NETWORK_BYTES:,} of the standard shape "
            "HalfKP 256x2-32-32, the only one YaneuraOu's NNUE edition evaluates (tokin learn --arch 256x2-32-32)"
        )
    return staged(path, name="nn.bin", folder="networks")


def parse_nodes(text):
    """`--nodes T[:Y]`: Tokin's and YaneuraOu's node counts per move (Y defaults to T)."""
    parts = text.split(":")
    try:
        counts = [int(p) for p in parts]
    except ValueError:
        counts = []
    if len(counts) not in (1, 2) or min(counts) < 1:
        sys.exit(f"arena.py: --nodes '{text}' is not TOKIN[:YANEURAOU] (positive node counts)")
    return counts[0], counts[-1]


def fixed_node_games(args, games):
    """How many games a fixed-node run of `games` (None: as many as it may) plays from
    args.openings: each opening once with each colour, since a repeated opening replays the same
    game, so at most two per opening."""
    openings = len(opening_lines(args.openings))
    games = games or 2 * openings
    if games > 2 * openings:
        sys.exit(f"arena.py: {games} games at fixed nodes need {games // 2} openings, "
                 f"{args.openings} has {openings} (a repeated opening replays the same game)")
    return games


def cmd_same_network(args, extra):
    tokin = Path(args.tokin) if args.tokin else build_tree()
    require(tokin, "tokin")
    require(args.yaneuraou, "YaneuraOu NNUE edition")
    tokin, network = staged(tokin), staged_network(args.network)
    # The network is checked by hash like the binary: a resumed run plays on with the same file.
    state, run_dir = resumable_run_dir("same-network", args, [tokin, network])
    eval_dir = f"EvalDir={network.parent}"
    engines = {
        "tokin.yaml": engine_yaml("tokin.yaml", "tokin", tokin, [eval_dir] + args.tokin_option),
        "yaneuraou-nnue.yaml": engine_yaml("yaneuraou-nnue.yaml", "yaneuraou-nnue", args.yaneuraou, [eval_dir]),
    }
    config = "same-network.yaml"
    if args.games and not args.nodes:
        sys.exit("arena.py: --games applies to --nodes runs (the clocked match plays same-network.yaml's count)")
    if args.nodes:
        tokin_nodes, yaneuraou_nodes = parse_nodes(args.nodes)
        games = fixed_node_games(args, args.games)
        config = string.Template((HERE / "same-network-nodes.yaml").read_text()).substitute(
            tokin_nodes=tokin_nodes, yaneuraou_nodes=yaneuraou_nodes, games=games)
    prepare(run_dir, config, engines, args.instances, args.openings)
    shogiarena("tournament", run_dir, extra, minutes=args.minutes)
    if state:
        save_state(run_dir / "arena", state, [tokin, network])
    report(run_dir, focus="tokin")


def at_fixed_nodes(text, nodes, max_games=None):
    """A clocked configuration (sprt.yaml, spsa.yaml) played at `nodes` a move instead: its
    rules.time_control block becomes a node limit, free of the clock and of machine load. Both
    sides of an SPRT are then deterministic, so a repeated opening replays the same game: with
    `max_games` the openings are drawn without replacement and the run ends after `max_games`
    (two per opening at most, fixed_node_games). A pair of SPSA variants differs in its
    parameters, so SPSA keeps its openings as they are."""
    clock = re.compile(r"(?m)^  time_control:\n(?:    .*\n)+")
    if not clock.search(text):
        sys.exit("arena.py: the configuration has no rules.time_control block to replace with --nodes")
    text = clock.sub(f"  time_control:\n    node_limit: {nodes}\n", text, count=1)
    if max_games is not None:
        flip = re.compile(r"(?m)^(    flip_policy: .*\n)")
        games = re.compile(r"(?m)^(  max_games: )\d+")
        if not flip.search(text) or not games.search(text):
            sys.exit("arena.py: the configuration has no initial_positions.flip_policy or sprt.max_games for --nodes")
        text = flip.sub(r"\1    selection_policy: without_replacement\n", text, count=1)
        text = games.sub(rf"\g<1>{max_games}", text, count=1)
        text = text.replace("experiment_name: sprt\n", "experiment_name: sprt-nodes\n", 1)
    return text


def cmd_spsa(args, extra):
    tokin = Path(args.tokin) if args.tokin else build_tree(features="tune", target_dir=ROOT / "target" / "tune")
    require(tokin, "tuning build")
    tokin = staged(tokin)
    state, run_dir = resumable_run_dir("spsa", args, [tokin])
    config = "spsa.yaml"
    if args.nodes:
        if ":" in args.nodes:
            sys.exit("arena.py: spsa --nodes takes one count, played by both variants")
        config = at_fixed_nodes((HERE / "spsa.yaml").read_text(), parse_nodes(args.nodes)[0])
    prepare(run_dir, config, {"tokin.yaml": engine_yaml("tokin-fast.yaml", "tokin", tokin)})
    shutil.copy(HERE / "spsa-space.yaml", run_dir / "spsa-space.yaml")
    shogiarena("spsa", run_dir, extra, minutes=args.minutes)
    if state:
        if (run_dir / "arena" / "spsa" / "ledger.sqlite3").exists():
            save_state(run_dir / "arena", state, [tokin], keep_moves=False)
        else:
            print(f"arena.py: no SPSA ledger in {run_dir} (the run never began): {state} not written", file=sys.stderr)
    spsa_result(run_dir)


# What of a run's directory its state file leaves out, all of it written and never read back by a
# run that resumes: the engines' transcripts and logs, the per-game execution specs, the SPSA
# ledger's JSON projections (spsa/index.json, events.jsonl: ShogiArena writes them anew from the
# ledger when it starts), the variants log, and in game.db the games' moves (2 kB a game, xz'd).
# What a run resumes from is state.json (with schedule.json for an SPRT, and the ledger
# spsa/ledger.sqlite3 for an SPSA: every game's result and parameters, every update); on resume
# ShogiArena checks them against game.db's games, their results, participants and metadata (the
# engines' binaries by hash, an SPRT's pairs), which the file keeps. So the file grows by about
# 0.5 kB a game. Of the transcripts it keeps the one word the report needs from each, the engine's
# last `bestmove` (LAST_BESTMOVES: a resignation is told from an adjudication by it).
ENGINE_COPIES = "engine-copies.json"
ENGINE_HASHES = "engine-hashes.json"
STATE_SKIP = {
    "transcripts", "replay-transcripts", "logs", "dashboard", "html", "static", "game_execution_specs",
    "index.json", "events.jsonl", "variants.jsonl",
}


def save_state(arena_dir, state, binaries, keep_moves=True):
    """Packs the run in `arena_dir` into `state` (a .tar.xz, replaced atomically), small enough to
    commit: a run longer than one sitting continues from it on another day or machine. The games'
    moves (their records, about 1.6 KB a game packed) are kept unless `keep_moves` is false, as for
    an SPSA's thousands of games, whose records nobody replays. The engine
    binaries that played (`binaries`) are left out, their hashes kept (ENGINE_HASHES; where
    ShogiArena keeps a copy of one inside the run, as an SPSA does, ENGINE_COPIES says where): they
    are rebuilt from the same commits (the release build is reproducible) and put back."""
    if not (arena_dir / "state.json").exists():
        print(f"arena.py: {arena_dir} holds no run state (the run never began): {state} not written", file=sys.stderr)
        return
    state.parent.mkdir(parents=True, exist_ok=True)
    played = {}
    for binary in binaries:
        data = Path(binary).read_bytes()
        played[hashlib.sha256(data).hexdigest()] = data
    with tempfile.TemporaryDirectory(dir=state.parent) as tmp:
        copy = Path(tmp) / "arena"
        for db in arena_dir.rglob("*.sqlite3"):
            checkpoint_sqlite(db)
        checkpoint_sqlite(arena_dir / "game.db")
        shutil.copytree(
            arena_dir, copy, ignore=lambda d, names: [n for n in names if n in STATE_SKIP or n.endswith(("-wal", "-shm"))]
        )
        copies = {}
        for path in sorted(copy.rglob("*")):
            if not path.is_file():
                continue
            for digest, data in played.items():
                if path.stat().st_size == len(data) and path.read_bytes() == data:
                    copies[str(path.relative_to(copy))] = digest
                    path.unlink()
                    break
        (copy / ENGINE_COPIES).write_text(json.dumps(copies, indent=1) + "\n")
        (copy / LAST_BESTMOVES).write_text(json.dumps(last_bestmoves(arena_dir), indent=0, sort_keys=True) + "\n")
        (copy / ENGINE_HASHES).write_text(json.dumps(sorted(played), indent=1) + "\n")
        if not keep_moves:
            db = sqlite3.connect(copy / "game.db")
            with db:
                db.execute("delete from game_move")
            db.close()
        for path in [copy / "game.db", *copy.rglob("*.sqlite3")]:
            db = sqlite3.connect(path)
            db.execute("vacuum")
            db.close()
        # xz: a third smaller than gzip on these repetitive JSON-in-SQLite pages.
        packed = Path(tmp) / "state.tar.xz"
        with tarfile.open(packed, "w:xz") as tar:
            for path in sorted(copy.rglob("*")):
                tar.add(path, arcname=str(path.relative_to(copy)), recursive=False)
        os.replace(packed, state)
    print(f"state saved to {state} ({state.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)


def restore_state(state, arena_dir, binaries):
    """Unpacks a state file written by save_state into `arena_dir`, putting the engine binaries
    back where ShogiArena had its copies; refuses binaries other than those the run began with."""
    print(f"continuing the run saved in {state}", file=sys.stderr)
    given = {}
    for binary in binaries:
        data = Path(binary).read_bytes()
        given[hashlib.sha256(data).hexdigest()] = (Path(binary), data)
    try:
        tar = tarfile.open(state, "r:*")
        copies = json.loads(tar.extractfile(ENGINE_COPIES).read())
        # State files of SPSA runs written before ENGINE_HASHES have their one binary in copies.
        played = json.loads(tar.extractfile(ENGINE_HASHES).read()) if ENGINE_HASHES in tar.getnames() else []
    except (tarfile.TarError, KeyError, ValueError, OSError) as e:
        sys.exit(f"arena.py: {state} is not a state file written by arena.py ({e})")
    with tar:
        for wanted in sorted(set(copies.values()) | set(played)):
            if wanted not in given:
                have = "; ".join(f"{path} has {digest}" for digest, (path, _) in given.items())
                sys.exit(
                    f"arena.py: {state} was played by a binary or network with sha256 {wanted}, and none of those "
                    f"given has it ({have}): build the commits that began the run (measurements/*/README.md) "
                    "in this checkout with the same toolchain"
                )
        arena_dir.mkdir(parents=True)
        tar.extractall(arena_dir, filter="data")
    for relative, digest in copies.items():
        target = arena_dir / relative
        target.write_bytes(given[digest][1])
        target.chmod(0o755)


def checkpoint_sqlite(path):
    """Moves a write-ahead log's pages into the database file, so the file alone is complete."""
    if path.exists():
        db = sqlite3.connect(path)
        db.execute("pragma wal_checkpoint(truncate)")
        db.close()


def spsa_result(run_dir):
    """Writes and prints the tuned values next to the defaults (run_dir/report.txt)."""
    spsa = run_dir / "arena" / "spsa"
    current = spsa / "current.json"
    if not current.exists():
        print(f"no {current}: the run made no update", file=sys.stderr)
        return
    data = json.loads(current.read_text())
    space = json.loads((spsa / "space.normalized.json").read_text())
    lines = [f"SPSA: {data['update_idx']} updates, {2 * data['pair_index_end']} games ({current})"]
    lines.append("parameter            default     now   (now - default) / c_end")
    for p in space["parameters"]:
        name, initial, c_end = p["id"], p["initial"], p["schedule"]["c_end"]
        now = data["theta"][name]
        lines.append(f"  {name:<18} {initial:>7g} {now:>9.1f}   {(now - initial) / c_end:+.2f}")
    lines.append("keep: write the rounded values into src/search/params.rs, then pass `arena.py sprt` at a longer clock")
    text = "\n".join(lines) + "\n"
    (run_dir / "report.txt").write_text(text)
    print(text)


def cmd_report(args, _extra):
    run_dir = Path(args.run_dir).resolve()
    if (run_dir / "arena" / "spsa").exists():
        spsa_result(run_dir)
    else:
        report(run_dir, args.focus)


def games_of(source):
    """The games of `source`: an arena.py run directory, ShogiArena's own, or a state file."""
    source = Path(source)
    if source.is_file():
        with tempfile.TemporaryDirectory() as tmp:
            try:
                with tarfile.open(source, "r:*") as tar:
                    tar.extractall(tmp, filter="data")
            except (tarfile.TarError, OSError) as e:
                sys.exit(f"arena.py: {source} is not a state file written by arena.py ({e})")
            return load_games(Path(tmp))
    arena_dir = arena_dir_of(source)
    if not (arena_dir / "game.db").exists():
        sys.exit(f"arena.py: {source} is neither a run directory (no game.db) nor a state file")
    return load_games(arena_dir)


def cmd_compare(args, _extra):
    """Two runs that played the same openings in the same order (ShogiArena names the n-th game
    gNNNN in every run of one configuration), game by game: which went better for `focus`."""
    def scores(source):
        out = {}
        for g in games_of(source):
            if args.focus not in (g["black"], g["white"]):
                continue
            won = winner(g)
            s = 0.5 if won is None else float(won == args.focus)
            out[g["name"].split("-")[0]] = (s, g["sfen"], g["black"] == args.focus, g["name"], g["ending"])
        return out

    a, b = scores(args.old), scores(args.new)
    paired = [k for k in sorted(set(a) & set(b)) if a[k][1:3] == b[k][1:3]]
    unpaired = len(set(a) & set(b)) - len(paired)
    if not paired:
        sys.exit(f"arena.py: no game of {args.focus} with the same name, opening and colour in both runs")
    better = [k for k in paired if b[k][0] > a[k][0]]
    worse = [k for k in paired if b[k][0] < a[k][0]]
    n = len(better) + len(worse)
    # Two-sided sign test on the games that changed: how likely so lopsided a split is by chance.
    tail = sum(math.comb(n, i) for i in range(min(len(better), len(worse)) + 1)) / 2**n if n else 1.0
    old_score = sum(a[k][0] for k in paired)
    new_score = sum(b[k][0] for k in paired)
    lines = [
        f"{len(paired)} games of {args.focus} paired by name, opening and colour"
        + (f" ({unpaired} with the same name but another opening or colour left out)" if unpaired else ""),
        f"  old {args.old}: {old_score:g} ({old_score / len(paired):.3f})",
        f"  new {args.new}: {new_score:g} ({new_score / len(paired):.3f})",
        f"  better in {len(better)}, worse in {len(worse)}, the same in {len(paired) - n}; "
        f"sign test p = {min(1.0, 2 * tail):.3f}",
        "changed games: game, old result (ending), new result (ending)",
    ]
    word = {1.0: "win", 0.0: "loss", 0.5: "draw"}
    for k in sorted(better + worse):
        lines.append(f"  {k}  {word[a[k][0]]:>4} ({a[k][4]})  ->  {word[b[k][0]]:>4} ({b[k][4]})")
    print("\n".join(lines))


def add_openings(p):
    p.add_argument("--openings", default=OPENINGS, metavar="FILE",
                   help="openings file (default scripts/openings.sfen, 33 openings; scripts/openings-wide.sfen "
                        "has 1000 for fixed-node runs, made by scripts/arena/openings.py)")


def stop_on_signals():
    """SIGINT and SIGTERM both stop a run as Ctrl-C does. A job that a shell without job control
    starts in the background (`nohup arena.py ... &`) inherits SIGINT ignored, and Python then
    never raises KeyboardInterrupt: `kill -INT` did nothing, and only a kill that loses the state
    save could stop the run."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)


def main():
    ensure_venv()
    stop_on_signals()
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)

    p = sub.add_parser("sprt", help="candidate build against base build until the SPRT decides")
    p.add_argument("--base", default="main", help="git revision of the base build (default main)")
    p.add_argument("--base-engine", help="a base binary instead of building --base")
    p.add_argument("--candidate", help="a candidate binary instead of building this tree")
    p.add_argument("--candidate-option", action="append", metavar="NAME=VALUE",
                   help="a USI option of the candidate (repeatable), e.g. EvalDir=/data/net1 for the nn.bin there (ShogiArena rewrites an EvalFile path to a name inside EvalDir, as YaneuraOu reads it)")
    p.add_argument("--base-option", action="append", metavar="NAME=VALUE",
                   help="a USI option of the base (repeatable)")
    p.add_argument("--instances", help="ShogiArena instance file: play on those machines")
    p.add_argument("--run-dir")
    p.add_argument("--state", metavar="FILE.tar.xz",
                   help="continue the run saved in FILE (if it exists) and save it there when this sitting ends")
    p.add_argument("--minutes", type=float, help="stop the run after this long (it resumes where it stopped)")
    p.add_argument("--nodes", metavar="N",
                   help="both engines search N nodes a move instead of the clock (sprt.yaml's clock replaced): per-node "
                        "quality, free of machine load; each opening once with both colours, so use a large "
                        "--openings file (scripts/openings-wide.sfen)")
    add_openings(p)
    p.set_defaults(func=cmd_sprt)

    p = sub.add_parser("gauntlet", help="Tokin against gpsusi, Fairy-Stockfish and YaneuraOu (material)")
    p.add_argument("--tokin", help="Tokin binary (default: build this tree)")
    p.add_argument("--gpsusi", default="/usr/games/gpsusi")
    p.add_argument("--fairy-stockfish", default="/usr/games/fairy-stockfish")
    p.add_argument("--yaneuraou", default="/work/peers/bin/yaneuraou-material-avx2",
                   help="YaneuraOu material edition binary (README: how to build it)")
    p.add_argument("--peer", action="append", choices=PEERS,
                   help="play only this peer (repeatable; default all three)")
    p.add_argument("--tokin-option", action="append", metavar="NAME=VALUE",
                   help="a USI option of Tokin (repeatable), e.g. EvalDir=/data/net1 or UseNNUE=false")
    p.add_argument("--instances", help="ShogiArena instance file: play on those machines")
    p.add_argument("--run-dir")
    p.add_argument("--state", metavar="FILE.tar.xz",
                   help="continue the run saved in FILE (if it exists) and save it there when this sitting ends")
    p.add_argument("--minutes", type=float, help="stop the run after this long (it resumes where it stopped)")
    add_openings(p)
    p.set_defaults(func=cmd_gauntlet)

    p = sub.add_parser("same-network", help="Tokin against YaneuraOu's NNUE edition, both evaluating one network")
    p.add_argument("--network", required=True, help="a network file of the standard shape (HalfKP 256x2-32-32)")
    p.add_argument("--tokin", help="Tokin binary (default: build this tree)")
    p.add_argument("--yaneuraou", default="/work/peers/bin/yaneuraou-nnue-avx2",
                   help="YaneuraOu NNUE edition binary (README: how to build it)")
    p.add_argument("--nodes", metavar="T[:Y]",
                   help="fixed node counts per move instead of the clock: Tokin's T, YaneuraOu's Y (default T); "
                        "each opening once with both colours (same-network-nodes.yaml)")
    p.add_argument("--games", type=int, help="with --nodes: games to play (default: two per opening)")
    p.add_argument("--tokin-option", action="append", default=[], metavar="NAME=VALUE",
                   help="a USI option for Tokin (repeatable), e.g. a --features tune build's parameter")
    p.add_argument("--instances", help="ShogiArena instance file: play on those machines")
    p.add_argument("--run-dir")
    p.add_argument("--state", metavar="FILE.tar.xz",
                   help="continue the run saved in FILE (if it exists) and save it there when this sitting ends")
    p.add_argument("--minutes", type=float, help="stop the run after this long (it resumes where it stopped)")
    add_openings(p)
    p.set_defaults(func=cmd_same_network)

    p = sub.add_parser("spsa", help="tune the search parameters with a --features tune build")
    p.add_argument("--tokin", help="tuning binary (default: build this tree with --features tune)")
    p.add_argument("--run-dir")
    p.add_argument("--state", metavar="FILE.tar.xz",
                   help="continue the run saved in FILE (if it exists) and save it there at the end (commit it: "
                   "a run of many hours continues across sittings and machines)")
    p.add_argument("--minutes", type=float, help="stop the run after this long (it resumes where it stopped)")
    p.add_argument("--nodes", metavar="N",
                   help="play every game at N nodes a move instead of spsa.yaml's clock (free of machine load; "
                        "the tuned values still pass the clocked SPRT before they are kept)")
    p.set_defaults(func=cmd_spsa)

    p = sub.add_parser("report", help="Elo table, endings and CSA/KIF records of a finished run")
    p.add_argument("run_dir")
    p.add_argument("--focus", help="the engine the Elo table is about (default: the first by name)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("compare", help="two runs of the same openings in the same order, game by game")
    p.add_argument("old", help="run directory or state file (.tar.xz)")
    p.add_argument("new", help="run directory or state file (.tar.xz)")
    p.add_argument("--focus", default="tokin", help="the engine whose results to compare (default tokin)")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("mates", help="the losses in which the opponent announced a mate right after a move: "
                                     "does df-pn prove it after that move, and after the others?")
    p.add_argument("run_dir")
    p.add_argument("--focus", default="tokin", help="the engine whose losses to look at (default tokin)")
    p.add_argument("--tokin", help="Tokin binary for `tokin mate` (default: build this tree)")
    p.add_argument("--ms", type=int, default=1000, help="df-pn time after the move played (default 1000)")
    p.add_argument("--alternatives-ms", type=int, default=100,
                   help="df-pn time after each other legal move (default 100)")
    p.set_defaults(func=cmd_mates)

    args = parser.parse_args(argv)
    args.func(args, extra)


if __name__ == "__main__":
    main()
