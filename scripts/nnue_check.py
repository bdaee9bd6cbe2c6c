#!/usr/bin/env python3
"""Tokin's NNUE against YaneuraOu's on the same network file: the same evaluation on every
position, and the speed of both searches (one thread each) on the same positions.

  nnue_check.py eval --tokin BIN --yaneuraou BIN --network FILE --positions FILE [--fv-scale 16]
      Both engines evaluate every position (Tokin's `eval`, YaneuraOu's `e`); prints how many
      agree and the first disagreements. Exit status 1 on any disagreement.

  nnue_check.py nps --tokin BIN --yaneuraou BIN --network FILE --positions FILE
                [--nodes 300000] [--rounds 5] [--hash 256]
      Each round searches every position with `go nodes N` in each engine in turn (Tokin first
      on odd rounds, YaneuraOu first on even ones), the table cleared before each position, and
      reports each engine's nodes per second over the round (from its own last info line) and
      the ratio Tokin / YaneuraOu; the median ratio at the end. A machine whose speed drifts
      disturbs the ratio of interleaved rounds far less than separate runs.

POSITIONS: one SFEN per line (`sfen ` prefix optional; blank lines and # comments skipped), e.g.
from `cargo run --release --example random_positions -- --count 1000`. A network file not named
nn.bin is linked into a temporary folder for YaneuraOu, which only reads EvalDir/nn.bin (and
resolves a relative EvalDir against its binary's folder, so the folder is made absolute).
Plain python3, no dependencies.
"""
import argparse
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time


class Engine:
    def __init__(self, path, name):
        self.name = name
        self.proc = subprocess.Popen(
            [os.path.abspath(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1,
            cwd=os.path.dirname(os.path.abspath(path)))
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, predicate, timeout=120.0):
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"{self.name}: timed out; last lines: {seen[-5:]}")
            if line is None:
                raise RuntimeError(f"{self.name} exited; last lines: {seen[-5:]}")
            seen.append(line)
            if predicate(line):
                return seen

    def start(self, options):
        self.send("usi")
        self.until(lambda l: l == "usiok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        lines = self.until(lambda l: l == "readyok")
        for l in lines:
            if "error" in l.lower():
                raise RuntimeError(f"{self.name}: {l}")

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def read_positions(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            out.append(line[5:] if line.startswith("sfen ") else line)
    return out


def network_dir(network, tmp):
    """A folder whose nn.bin is the network, for YaneuraOu's EvalDir."""
    network = os.path.abspath(network)
    if os.path.basename(network) == "nn.bin":
        return os.path.dirname(network)
    os.symlink(network, os.path.join(tmp, "nn.bin"))
    return tmp


def engines(args, tmp):
    tokin = Engine(args.tokin, "tokin")
    yane = Engine(args.yaneuraou, "yaneuraou")
    hash_mb = getattr(args, "hash", 256)
    tokin.start([("Threads", 1), ("USI_Hash", hash_mb), ("FV_SCALE", args.fv_scale),
                 ("EvalFile", os.path.abspath(args.network))])
    yane.start([("Threads", 1), ("USI_Hash", hash_mb), ("FV_SCALE", args.fv_scale),
                ("BookFile", "no_book"), ("EvalDir", network_dir(args.network, tmp))])
    return tokin, yane


def evaluate(engine, sfen):
    engine.send(f"position sfen {sfen}")
    if engine.name == "tokin":
        engine.send("eval")
        line = engine.until(lambda l: l.startswith("info string eval "))[-1]
    else:
        engine.send("e")
        line = engine.until(lambda l: l.startswith("eval = "))[-1]
    return int(line.split()[-1])


def cmd_eval(args):
    positions = read_positions(args.positions)
    with tempfile.TemporaryDirectory() as tmp:
        tokin, yane = engines(args, tmp)
        try:
            same, differ = 0, []
            for i, sfen in enumerate(positions):
                a, b = evaluate(tokin, sfen), evaluate(yane, sfen)
                if a == b:
                    same += 1
                else:
                    differ.append((sfen, a, b))
                if (i + 1) % 100 == 0:
                    print(f"{i + 1}/{len(positions)}: {same} identical", file=sys.stderr)
        finally:
            tokin.quit()
            yane.quit()
    print(f"{same}/{len(positions)} positions evaluated identically (FV_SCALE {args.fv_scale})")
    for sfen, a, b in differ[:10]:
        print(f"  tokin {a} yaneuraou {b}: {sfen}")
    return 0 if not differ else 1


def search(engine, sfen, nodes):
    engine.send("isready")
    engine.until(lambda l: l == "readyok")
    if engine.name == "tokin":
        engine.send("usinewgame")  # empties Tokin's table; YaneuraOu's isready does that
    engine.send(f"position sfen {sfen}")
    engine.send(f"go nodes {nodes}")
    lines = engine.until(lambda l: l.startswith("bestmove"))
    info = [l for l in lines if l.startswith("info") and " nodes " in l and " time " in l]
    if not info:
        raise RuntimeError(f"{engine.name}: no info line for {sfen}")
    words = info[-1].split()
    return int(words[words.index("nodes") + 1]), int(words[words.index("time") + 1])


def cmd_nps(args):
    positions = read_positions(args.positions)
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        tokin, yane = engines(args, tmp)
        try:
            print(f"{'round':>5} {'tokin nps':>12} {'yaneuraou nps':>14} {'ratio':>7}")
            for r in range(args.rounds):
                order = [tokin, yane] if r % 2 == 0 else [yane, tokin]
                totals = {tokin.name: [0, 0], yane.name: [0, 0]}
                for sfen in positions:
                    for engine in order:
                        n, t = search(engine, sfen, args.nodes)
                        totals[engine.name][0] += n
                        totals[engine.name][1] += t
                nps = {k: n * 1000 // max(t, 1) for k, (n, t) in totals.items()}
                ratio = nps["tokin"] / max(nps["yaneuraou"], 1)
                ratios.append(ratio)
                print(f"{r + 1:>5} {nps['tokin']:>12} {nps['yaneuraou']:>14} {ratio:>7.3f}")
        finally:
            tokin.quit()
            yane.quit()
    print(f"median ratio tokin/yaneuraou over {len(ratios)} rounds: {statistics.median(ratios):.3f}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    for mode in ("eval", "nps"):
        p = sub.add_parser(mode)
        p.add_argument("--tokin", required=True)
        p.add_argument("--yaneuraou", required=True)
        p.add_argument("--network", required=True)
        p.add_argument("--positions", required=True)
        p.add_argument("--fv-scale", type=int, default=16)
        if mode == "nps":
            p.add_argument("--nodes", type=int, default=300000)
            p.add_argument("--rounds", type=int, default=5)
            p.add_argument("--hash", type=int, default=256)
    args = ap.parse_args()
    try:
        return cmd_eval(args) if args.mode == "eval" else cmd_nps(args)
    except RuntimeError as e:
        print(f"nnue_check: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
