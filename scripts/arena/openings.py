#!/usr/bin/env python3
"""Balanced openings drawn from self-play data: one position per game, as `sfen ...` lines.

    scripts/arena/.venv/bin/python scripts/arena/openings.py DATA.bin [...] \\
        --count 1000 --seed 1 --out scripts/openings-wide.sfen

A fixed-node match is deterministic: an opening played twice replays the same game, so such a
match may play each opening only once per colour, and its size is bounded by the openings file.
scripts/openings.sfen has 33 (66 games). This script draws many more from PackedSfenValue files
(`tokin gensfen`'s output, or anyone's): positions between --min-ply and --max-ply whose search
score is within --max-score of level, not in check, at most one per game (a game is a run of
records whose game ply increases), no position twice, sampled with --seed so the file can be
made again from the same data. A self-play record's score comes from a short search (gensfen's
5000 nodes swing by a hundred centipawns from one ply to the next), so with --check TOKIN each
candidate is searched again (`tokin analyse --nodes`, default 30000) and kept only when that
score is within --max-score too.

It runs in ShogiArena's venv (arena.py creates it) because it decodes the packed positions with
rsshogi, the rules library beneath ShogiArena: a second implementation of the layout that
`tokin gensfen` writes, so a record this script cannot decode is a finding, and it stops.
"""

import argparse
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
from rsshogi import core

# YaneuraOu's PackedSfenValue: 32 bytes of packed position, then the score (int16, side to move's
# view), the move (uint16), the game ply (uint16), the result (int8) and one byte of padding.
RECORD = np.dtype(
    [("sfen", "u1", 32), ("score", "<i2"), ("move", "<u2"), ("ply", "<u2"), ("result", "i1"), ("pad", "u1")]
)
assert RECORD.itemsize == 40


def games(records):
    """Index ranges [start, end) of the games in `records`: a game ply that does not increase
    starts a new game."""
    ply = records["ply"].astype(np.int64)
    starts = np.flatnonzero(np.diff(ply) <= 0) + 1
    bounds = np.concatenate(([0], starts, [len(records)]))
    return list(zip(bounds[:-1], bounds[1:]))


def engine_score(tokin, sfen, nodes):
    """The centipawn score of `tokin analyse` on `sfen` at `nodes` (a mate counts as 100000)."""
    done = subprocess.run([tokin, "analyse", "--sfen", sfen, "--nodes", str(nodes)], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"openings.py: {tokin} analyse failed on {sfen}: {done.stderr.strip()}")
    out = done.stdout
    info = [line.split() for line in out.splitlines() if line.startswith("info depth")]
    if not info:
        sys.exit(f"openings.py: {tokin} analyse printed no info line for {sfen}")
    words = info[-1]
    if "mate" in words:
        return 100000
    return int(words[words.index("cp") + 1])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", nargs="+", help="PackedSfenValue files")
    p.add_argument("--out", required=True, help="the openings file to write")
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--min-ply", type=int, default=16, help="earliest game ply (default 16)")
    p.add_argument("--max-ply", type=int, default=40, help="latest game ply (default 40)")
    p.add_argument("--max-score", type=int, default=100, help="largest |score| in centipawns (default 100)")
    p.add_argument("--check", metavar="TOKIN", help="a tokin binary whose search must agree with --max-score")
    p.add_argument("--check-nodes", type=int, default=30000, help="nodes of that search (default 30000)")
    args = p.parse_args()
    if args.count < 1 or args.min_ply < 1 or args.max_ply < args.min_ply or args.max_score < 0:
        sys.exit("openings.py: --count and --min-ply must be positive, --max-ply >= --min-ply, --max-score >= 0")

    if args.check and not Path(args.check).is_file():
        sys.exit(f"openings.py: --check {args.check}: no such tokin binary")
    rng = random.Random(args.seed)
    candidates = []  # per game, the records that qualify
    for path in args.data:
        raw = Path(path).read_bytes()
        if len(raw) % RECORD.itemsize:
            sys.exit(f"openings.py: {path}: {len(raw)} bytes is not a whole number of 40-byte records")
        records = np.frombuffer(raw, dtype=RECORD)
        ok = (
            (records["ply"] >= args.min_ply)
            & (records["ply"] <= args.max_ply)
            & (np.abs(records["score"].astype(np.int32)) <= args.max_score)
        )
        for start, end in games(records):
            chosen = [records[i] for i in range(start, end) if ok[i]]
            if chosen:
                candidates.append(chosen)
    rng.shuffle(candidates)

    board = core.Board()
    seen, lines = set(), []
    for game in candidates:
        record = rng.choice(game)
        try:
            board.set_packed_sfen(bytes(record["sfen"]))
        except Exception as e:  # rsshogi raises its own error types
            sys.exit(f"openings.py: a record rsshogi cannot decode ({e}): {bytes(record['sfen']).hex()}")
        if board.is_in_check():
            continue
        # The position without its move number: the same position reached at another ply is a repeat.
        board_part, side, hand = board.to_sfen().split()[:3]
        if (board_part, side, hand) in seen:
            continue
        seen.add((board_part, side, hand))
        if args.check and abs(engine_score(args.check, f"{board_part} {side} {hand} 1", args.check_nodes)) > args.max_score:
            continue
        lines.append(f"sfen {board_part} {side} {hand} {int(record['ply'])}")
        if len(lines) == args.count:
            break
    if len(lines) < args.count:
        sys.exit(f"openings.py: only {len(lines)} positions qualify (of {len(candidates)} games); "
                 "widen --min-ply/--max-ply/--max-score or add data")

    header = [
        f"# {len(lines)} balanced openings for fixed-node matches (scripts/arena/openings.py, seed {args.seed}):",
        f"# one position per self-play game, game ply {args.min_ply}-{args.max_ply}, |score| <= {args.max_score},",
        f"# not in check, no position twice; drawn from {', '.join(Path(d).name for d in args.data)}.",
    ]
    if args.check:
        header.append(f"# Each also within {args.max_score} by `tokin analyse --nodes {args.check_nodes}` ({Path(args.check).name}).")
    Path(args.out).write_text("\n".join(header + lines) + "\n")
    print(f"openings.py: {len(lines)} openings from {len(candidates)} games -> {args.out}")


if __name__ == "__main__":
    main()
