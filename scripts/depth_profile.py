#!/usr/bin/env python3
"""Nodes and time each USI engine needs to finish each depth on the same positions.

Two engines evaluating the same network (Tokin with `EvalFile`, YaneuraOu's NNUE edition with
`EvalDir`) differ only in their searches; the nodes each needs to finish a depth show whose tree
is bushier, which a match at a fixed clock shows only as a result. Each (depth, position) is its
own search after `usinewgame`, stopped by `go depth D`, and its figures are those of the last
`info` line of depth D without a bound, so an engine that prints only some iterations (YaneuraOu
9.70 printed only the last one in these searches) is measured the same way as one that prints
every one.

    scripts/depth_profile.py --depths 10,12,14 \\
        --engine "target/release/tokin,EvalFile=/data/std256/nn.bin,FV_SCALE=16" \\
        --engine "/opt/yaneuraou-nnue,EvalDir=/data/std256,FV_SCALE=16,BookFile=no_book"

With one thread Tokin's node counts repeat exactly from run to run; the times are the engines'
own and drift with the machine's load: compare them only within one run.
"""

import argparse
import sys

from nps import MIDDLE_GAMES, Engine

# nps.py's three middle games with pieces in hand, and three from earlier in the game.
POSITIONS = MIDDLE_GAMES + [
    "lnsg1g1nl/1k3rs2/ppppp1bpp/5pp2/7P1/2P1P4/PP1P1PP1P/1BK1GS1R1/LNSG3NL b - 17",
    "ln1g3nl/1r3kg2/pppsppspp/3p2p2/9/2P2P1P1/PP1PPSP1P/1SG4R1/LN2KG1NL b Bb 17",
    "lnsg1gsnl/4r1kb1/pppp1p1pp/4p1p2/7P1/2P6/PP1PPPP1P/1BK2S1R1/LNSG1G1NL w - 12",
]


def depth_figures(engine: Engine, sfen: str, depth: int) -> tuple[int, int]:
    """(nodes, ms) of the search of `sfen` to `depth`, from its last unbounded line of that depth."""
    engine.send("usinewgame")
    engine.send(f"position sfen {sfen}")
    engine.send(f"go depth {depth}")
    found = None
    for line in engine.read_until("bestmove"):
        tokens = line.split()
        if tokens[:1] != ["info"] or "nodes" not in tokens or "depth" not in tokens:
            continue
        if "lowerbound" in tokens or "upperbound" in tokens:
            continue
        if int(tokens[tokens.index("depth") + 1]) == depth:
            ms = int(tokens[tokens.index("time") + 1]) if "time" in tokens else 0
            found = (int(tokens[tokens.index("nodes") + 1]), ms)
    if found is None:
        raise RuntimeError(f"{engine.path} finished {sfen} without a line of depth {depth}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", action="append", required=True,
                        help="PATH[,NAME=VALUE...]: a USI engine and its options (repeat to compare)")
    parser.add_argument("--depths", default="8,10,12,14", help="comma-separated depths")
    parser.add_argument("--hash", type=int, default=256, help="USI_Hash in MB")
    parser.add_argument("--sfen", action="append", help="position (repeatable; default: six positions)")
    args = parser.parse_args()
    try:
        depths = [int(d) for d in args.depths.split(",")]
    except ValueError:
        parser.error(f"--depths must be comma-separated integers, not '{args.depths}'")
    positions = args.sfen or POSITIONS

    names, table = [], {}  # table[depth][engine index] = (nodes, ms) summed over the positions
    for i, spec in enumerate(args.engine):
        path, *options = spec.split(",")
        names.append(path.rsplit("/", 1)[-1])
        engine = Engine(path, [f"USI_Hash={args.hash}", "Threads=1"] + options)
        try:
            for depth in depths:
                figures = [depth_figures(engine, sfen, depth) for sfen in positions]
                table.setdefault(depth, {})[i] = (sum(n for n, _ in figures), sum(ms for _, ms in figures))
                nodes, ms = table[depth][i]
                print(f"{names[i]} depth {depth}: {nodes} nodes, {ms} ms", file=sys.stderr, flush=True)
        finally:
            engine.quit()

    print(f"Sums over {len(positions)} positions, one thread each (nodes, ms; x = nodes against the first engine)")
    print("| depth | " + " | ".join(names) + " |")
    print("|---:|" + "---:|" * len(names))
    for depth in depths:
        first = table[depth][0][0]
        cells = []
        for i in range(len(names)):
            nodes, ms = table[depth][i]
            ratio = f" x{nodes / first:.2f}" if i and first else ""
            cells.append(f"{nodes / 1e6:.2f}M, {ms} ms{ratio}")
        print(f"| {depth} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
