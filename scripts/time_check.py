#!/usr/bin/env python3
"""Measures how long an engine takes from `go` to `bestmove` under one time control.

The engine plays itself from the start position (restarting after --max-plies or at a game end),
so the searches see varied positions: openings, middle games with many drops, checks and mates.
Prints the distribution of go->bestmove wall times and exits non-zero if any search reached the
limit (the time the GUI would allow, byoyomi or movetime).

    scripts/time_check.py --engine target/release/tokin --go "go btime 0 wtime 0 byoyomi 100" --searches 300
    scripts/time_check.py --go "go btime 0 wtime 0 byoyomi 1000" --searches 40 --limit 1000
"""

import argparse
import re
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/tokin")
    parser.add_argument("--go", default="go btime 0 wtime 0 byoyomi 100", help="the go command sent every move")
    parser.add_argument("--searches", type=int, default=300)
    parser.add_argument("--limit", type=int, default=None, help="ms the GUI allows (default: byoyomi/movetime)")
    parser.add_argument("--max-plies", type=int, default=160)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, sent with setoption")
    args = parser.parse_args()

    limit = args.limit
    if limit is None:
        m = re.search(r"\b(?:byoyomi|movetime) (\d+)", args.go)
        if not m:
            parser.error("give --limit when the go command has no byoyomi/movetime")
        limit = int(m.group(1))

    engine = subprocess.Popen(
        [args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line: str) -> None:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    last_info_time = [0]

    def wait_for(prefix: str) -> str:
        while True:
            line = engine.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith("info") and " time " in line:
                last_info_time[0] = int(line.split(" time ")[1].split()[0])
            if line.startswith(prefix):
                return line.strip()

    send("usi")
    wait_for("usiok")
    for opt in args.option:
        name, _, value = opt.partition("=")
        send(f"setoption name {name} value {value}")
    send("isready")
    wait_for("readyok")
    send("usinewgame")

    times = []
    moves: list[str] = []
    games = 1
    for _ in range(args.searches):
        send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        start = time.monotonic()
        send(args.go)
        best = wait_for("bestmove")
        times.append((time.monotonic() - start) * 1000)
        if times[-1] >= limit * 0.9:
            print(f"slow: search {len(times)} ply {len(moves)}: {times[-1]:.1f} ms "
                  f"(engine's own final info: time {last_info_time[0]}): moves {' '.join(moves)}", file=sys.stderr)
        move = best.split()[1]
        if move in ("resign", "win") or len(moves) >= args.max_plies:
            moves = []
            games += 1
            # ShogiHome's order: the first `go` of the game comes right after `usinewgame`.
            send("isready")
            wait_for("readyok")
            send("usinewgame")
        else:
            moves.append(move)
    send("quit")
    engine.wait(timeout=10)

    times.sort()
    n = len(times)
    pct = lambda q: times[min(n - 1, int(q * n))]
    print(f"{args.go}: {n} searches over {games} games; go->bestmove ms: "
          f"min {times[0]:.1f} median {pct(0.5):.1f} p90 {pct(0.9):.1f} p99 {pct(0.99):.1f} max {times[-1]:.1f} "
          f"(limit {limit})")
    late = [t for t in times if t >= limit]
    if late:
        print(f"{len(late)} searches reached the limit", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
