#!/usr/bin/env python3
"""Measures search speed (nodes per second) of one or more USI engines on long middle-game searches.

Each round searches the same positions with every engine in turn, one search at a time, and takes
the nps of each engine's last `info` line that has one. Rounds interleave the engines, so when
several builds are given, each round's ratio against the first compares runs made within seconds
of each other: on a shared machine whose speed drifts by tens of per cent over minutes, the median
of those paired ratios is a steadier measure than two separate averages.

    scripts/nps.py --engine target/release/tokin --rounds 8
    scripts/nps.py --engine /tmp/tokin-before --engine target/release/tokin --rounds 10
    scripts/nps.py --engine /usr/games/gpsusi --go "go btime 0 wtime 0 byoyomi 5000"

The default positions are the middle games of `tokin bench` with pieces in hand (many drops, both
kings castled), the searches a position's node budget that long games spend on a move.
"""

import argparse
import statistics
import subprocess
import sys

MIDDLE_GAMES = [
    "l6nl/3g1kg2/2n1ppsp1/p1pps3p/1p5P1/P1PPSPP1P/1PS1P4/2GK1G3/LN5RL w BPrbn 1",
    "lr5nl/3g1kg2/2n1pps2/p1pps2pp/1p7/P1PP1PP1P/1PSSP4/1KG1G4/LN5RL b BNb2p 1",
    "ln5nl/2s3gk1/p2p1sspp/2pgpp3/1p7/2P1P1PP1/PPSP1P2P/1KG1G2R1/LN5NL b BPrb 1",
]


class Engine:
    def __init__(self, path: str, options: list[str]):
        self.path = path
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1,
        )
        self.send("usi")
        self.read_until("usiok")
        for option in options:
            name, _, value = option.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.read_until("readyok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        for line in self.proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"{self.path} closed its output before '{prefix}'")

    def nps(self, sfen: str, go: str) -> int:
        self.send("usinewgame")
        self.send(f"position sfen {sfen}")
        self.send(go)
        last = None
        for line in self.read_until("bestmove"):
            tokens = line.split()
            if tokens[:1] == ["info"] and "nps" in tokens:
                last = int(tokens[tokens.index("nps") + 1])
        if last is None:
            raise RuntimeError(f"{self.path} reported no nps for {sfen}")
        return last

    def quit(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", action="append", help="USI engine (repeat to compare builds)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--go", default="go nodes 1000000", help="the go command of every search")
    parser.add_argument("--hash", type=int, default=256, help="USI_Hash in MB")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, sent with setoption")
    parser.add_argument("--sfen", action="append", help="position to search (repeatable; default: three middle games)")
    args = parser.parse_args()
    paths = args.engine or ["target/release/tokin"]
    positions = args.sfen or MIDDLE_GAMES
    options = [f"USI_Hash={args.hash}", f"Threads={args.threads}"] + args.option

    engines = [Engine(path, options) for path in paths]
    rounds: list[list[float]] = []  # per round, per engine: mean nps over the positions
    try:
        for r in range(1, args.rounds + 1):
            means = []
            for engine in engines:
                values = [engine.nps(sfen, args.go) for sfen in positions]
                means.append(statistics.fmean(values))
            rounds.append(means)
            cells = "  ".join(f"{m / 1e6:.3f}" for m in means)
            ratios = "  ".join(f"x{m / means[0]:.3f}" for m in means[1:])
            print(f"round {r:2}: M nps {cells}  {ratios}".rstrip(), flush=True)
    finally:
        for engine in engines:
            engine.quit()

    for i, path in enumerate(paths):
        column = [means[i] for means in rounds]
        line = (f"{path}: median {statistics.median(column) / 1e6:.3f} M nps "
                f"(min {min(column) / 1e6:.3f}, max {max(column) / 1e6:.3f})")
        if i > 0:
            ratios = [means[i] / means[0] for means in rounds]
            faster = sum(x > 1 for x in ratios)
            line += f"; against the first: median x{statistics.median(ratios):.3f}, faster in {faster}/{len(ratios)} rounds"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
