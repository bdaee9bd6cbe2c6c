#!/usr/bin/env python3
"""Label training positions with another USI engine's search score (a teacher for examples/tune.rs).

Usage:

    scripts/label.py data.txt labelled.txt --engine /usr/games/gpsusi \\
        --option BookDepth=0 --option LimitDepth=4 --every 25 --processes 2

Reads lines `sfen<TAB>result<TAB>score` as examples/datagen.rs writes them, takes every --every-th
line (from --offset), asks the engine for `go <--go>` on each position, and appends the line with a
fourth column: the engine's last reported score for the side to move, in centipawns (mate scores
become +-30000, `bestmove resign` -30000, `bestmove win` +30000). A position the engine reports no
score for is left out. `tune --teacher` fits the evaluation to these scores.

Positions are spread over the file on purpose: consecutive positions of one game say nearly the same
thing, and the teacher's time is the expensive part.

--processes N runs N engine processes (one thread each); output order is then not the input order.
The output is appended to, and --resume skips the input lines already in it, so a stopped run can
go on where it was.

With gpsusi: `go depth` and `go nodes` are not understood (it exits), short byoyomi is ignored, and
its opening book answers without a score, so fix the depth with LimitDepth (4..10; 4 takes about
0.2 s a position on a 2.9 GHz Xeon core, 6 about 0.9 s) and turn the book off with BookDepth=0.
"""

import argparse
import queue
import sys
import threading
import time

# The USI engine driver is match.py's (standard library only).
from match import Engine, EngineError, score_cp

MATE = 30000
# Seconds one position may take before the engine counts as hung.
GO_TIMEOUT = 120.0


def label(engine, sfen, go):
    """The engine's last reported score for `sfen` (clamped to +-MATE), or None."""
    best, score, _ = engine.go("position sfen " + sfen, "go " + go, GO_TIMEOUT)
    cp = score_cp(score)
    if cp is None and best in ("resign", "win"):
        cp = -MATE if best == "resign" else MATE
    return None if cp is None else max(-MATE, min(MATE, cp))


def new_engine(args):
    engine = Engine(args.engine, "teacher")
    engine.start(args.option)
    engine.send("usinewgame")
    return engine


def parse_option(text):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--engine", required=True, help="command line of the teacher engine")
    parser.add_argument("--option", type=parse_option, action="append", default=[],
                        help="NAME=VALUE sent with setoption (repeatable)")
    parser.add_argument("--go", default="btime 0 wtime 0 byoyomi 1000",
                        help="arguments of the go command (default: %(default)s)")
    parser.add_argument("--every", type=int, default=1, help="label every K-th line")
    parser.add_argument("--offset", type=int, default=0, help="first line to label")
    parser.add_argument("--max", type=int, default=0, help="stop after this many labels (0: all)")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--resume", action="store_true",
                        help="skip positions already in the output")
    args = parser.parse_args()

    done = set()
    if args.resume:
        try:
            with open(args.output) as f:
                done = {line.split("\t", 1)[0] for line in f}
        except FileNotFoundError:
            pass

    work = queue.Queue(maxsize=1000)
    lock = threading.Lock()
    out = open(args.output, "a")
    state = {"labelled": 0, "skipped": 0}
    started = time.time()

    def worker():
        engine = new_engine(args)
        while True:
            line = work.get()
            if line is None:
                break
            sfen = line.split("\t", 1)[0]
            try:
                score = label(engine, sfen, args.go)
            except EngineError as e:
                # A crash or hang on one position loses only that position.
                print(f"{e} on {sfen}; restarting", file=sys.stderr)
                engine.quit()
                engine = new_engine(args)
                score = None
            with lock:
                if score is None:
                    state["skipped"] += 1
                    continue
                out.write(f"{line}\t{score}\n")
                state["labelled"] += 1
                n = state["labelled"]
                if n % 1000 == 0:
                    out.flush()
                    rate = n / (time.time() - started)
                    print(f"{n} labelled ({rate:.1f}/s)", file=sys.stderr, flush=True)
        engine.quit()

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.processes))]
    for t in threads:
        t.start()
    queued = 0
    try:
        with open(args.input) as f:
            for i, line in enumerate(f):
                if i < args.offset or (i - args.offset) % max(1, args.every):
                    continue
                line = line.rstrip("\n")
                if not line or line.split("\t", 1)[0] in done:
                    continue
                if args.max and queued >= args.max:
                    break
                work.put(line)
                queued += 1
    finally:
        for _ in threads:
            work.put(None)
        for t in threads:
            t.join()
        out.close()
    print(f"{state['labelled']} labelled, {state['skipped']} without a score, "
          f"{time.time() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
