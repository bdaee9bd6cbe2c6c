#!/usr/bin/env python3
"""Writes the PackedSfenValue fixture that tests/psv_cshogi.rs checks Tokin's reader and writer
against: records written by cshogi, an independent implementation of YaneuraOu's format.

Usage (from anywhere; the first run creates scripts/.venv-psv with the pinned packages below):

    python3 scripts/psv_fixture.py

It writes tests/data/cshogi_psv.bin (40-byte records, cshogi's packed SFEN and PSV move word) and
tests/data/cshogi_psv.txt (one line per record: SFEN, USI move, score, gamePly, game_result,
tab-separated: what the record was made from). The positions are fixed ones (pieces in hand,
promoted pieces, handicaps with a piece box) and positions of seeded random play that prefers
captures and promotions; each record's move is a random legal move of its position. The same seed
gives the same files.
"""

import os
import random
import subprocess
import sys
from pathlib import Path

SCRIPT_DIR = Path(__file__).resolve().parent
REPO = SCRIPT_DIR.parent
VENV = SCRIPT_DIR / ".venv-psv"
PACKAGES = ["cshogi==1.1.0", "numpy==2.4.6"]
SEED = 20261201

FIXED_SFENS = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
    # The most legal moves (593): most pieces in hand.
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    # Handicaps: the missing pieces are written to the piece box (a gold as a White +S).
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b - 1",
]


def ensure_venv():
    """Re-executes this script inside scripts/.venv-psv, creating it when missing."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {VENV} with {' '.join(PACKAGES)} ...", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
        subprocess.check_call([str(python), "-m", "pip", "install", "-q"] + PACKAGES)
    os.execv(str(python), [str(python), str(Path(__file__).resolve())] + sys.argv[1:])


def random_positions(cshogi, rng, games, plies, every):
    """SFENs along random games that prefer captures and promotions (hands fill up)."""
    out = []
    for _ in range(games):
        board = cshogi.Board()
        for ply in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            if ply % every == every - 1:
                out.append(board.sfen())
            noisy = [m for m in moves if cshogi.move_cap(m) or cshogi.move_is_promotion(m)]
            if noisy and rng.random() < 0.75:
                board.push(rng.choice(noisy))
            else:
                board.push(rng.choice(moves))
    return out


def main():
    ensure_venv()
    import cshogi
    import numpy as np

    rng = random.Random(SEED)
    sfens = FIXED_SFENS + random_positions(cshogi, rng, games=6, plies=200, every=14)
    records = np.zeros(len(sfens), dtype=cshogi.PackedSfenValue)
    lines = []
    for i, sfen in enumerate(sfens):
        board = cshogi.Board(sfen)
        moves = list(board.legal_moves)
        drops = [m for m in moves if cshogi.move_is_drop(m)]
        promotions = [m for m in moves if cshogi.move_is_promotion(m)]
        pool = rng.choice([moves, drops or moves, promotions or moves])
        move = rng.choice(pool)
        score = rng.choice([rng.randint(-3000, 3000), rng.randint(-32768, 32767), 32000 - 7, -32000 + 4])
        ply = rng.choice([0, 65535, rng.randint(0, 400)])
        result = rng.choice([-1, 0, 1])
        board.to_psfen(records[i]["sfen"])
        records[i]["score"] = score
        records[i]["move"] = cshogi.move16_to_psv(cshogi.move16(move))
        records[i]["gamePly"] = ply
        records[i]["game_result"] = result
        # cshogi reads its own bytes back to the same position.
        check = cshogi.Board()
        check.set_psfen(records[i]["sfen"])
        assert check.sfen().rsplit(" ", 1)[0] == board.sfen().rsplit(" ", 1)[0], (sfen, check.sfen())
        lines.append(f"{board.sfen()}\t{cshogi.move_to_usi(move)}\t{score}\t{ply}\t{result}")

    data = REPO / "tests" / "data"
    data.mkdir(parents=True, exist_ok=True)
    records.tofile(data / "cshogi_psv.bin")
    header = (
        f"# Written by scripts/psv_fixture.py (seed {SEED}, {' '.join(PACKAGES)}): the inputs of\n"
        "# cshogi_psv.bin, one record a line: SFEN, USI move, score, gamePly, game_result.\n"
    )
    (data / "cshogi_psv.txt").write_text(header + "\n".join(lines) + "\n")
    print(f"wrote {len(sfens)} records to {data / 'cshogi_psv.bin'}", file=sys.stderr)


if __name__ == "__main__":
    main()
