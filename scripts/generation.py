#!/usr/bin/env python3
"""One generation of Tokin's network, as one command: self-play data, a shuffled split, a trained
network, and every figure the learning loop reports kept in measurements/learn/NAME.json.

    nice scripts/generation.py run gen1 --count 1200000 --nodes 5000 --seed 1 --lambda 0.7 --batch 2048 --hand-written
    nice scripts/generation.py run gen2 --previous gen1 --count 1200000 --nodes 5000 --seed 2
    nice scripts/generation.py run gen2b --previous builtin --count 1200000 --nodes 5000 --seed 5 -- --residual
    scripts/generation.py table                  # every generation's figures, as a Markdown table

Steps, each in DATA/NAME/ (DATA: --data, default $TOKIN_DATA or ~/tokin-data):
  1. data.bin   `tokin gensfen`, played with the binary's built-in network (with --previous: the
                previous generation's network; with --hand-written: the hand-written evaluation);
  2. train.bin, val.bin   `tokin shuffle` (--validation of the records held out, by blocks);
  3. nn.bin     `tokin learn` on train.bin (and any --extra-train files, e.g. earlier generations'
                train.bin), validated on val.bin (or on --validation-data, a fixed yardstick shared
                by generations); with --previous it starts from that network (--init) unless --fresh.
A killed run continues where it stopped when the same command is run again: gensfen appends to its
file until it holds --count records, learn resumes from its checkpoint, and a finished step is not
run again. The figures are those of every segment, summed: records, games, seconds and CPU seconds
of gensfen (CPU seconds are the robust speed figure on a shared machine), and each epoch's
training, validation and results-alone losses with the hand-written evaluation's beside them.
The network's match against the previous one is played on ShogiArena (README, "Training
networks"); `record-match` stores its result in the same file.

The binary is target/release/tokin, built first (cargo build --release). Its SHA-256 and the commit
are kept with the figures; a generation continued with another binary says so in the file.
"""

import argparse
import hashlib
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "tokin"
MEASUREMENTS = ROOT / "measurements" / "learn"


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def git_commit():
    try:
        rev = subprocess.check_output(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, text=True)
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT).returncode != 0
        return rev.strip() + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Interrupted(Exception):
    """A step stopped by Ctrl-C (SIGINT; a SIGTERM is not caught and loses the segment's figures), after `seconds` and `cpu` seconds of its process."""

    def __init__(self, seconds, cpu, progress=()):
        super().__init__("interrupted")
        self.seconds, self.cpu, self.progress = seconds, cpu, list(progress)


def run_step(cmd, log):
    """Runs `cmd`: its stderr (progress lines) goes to the terminal and the log, its stdout (the
    summary) to both and is returned. Returns (stdout, seconds, cpu seconds); raises Interrupted
    when stopped, once the process has ended (so that its CPU time is counted)."""
    printable = " ".join(str(c) for c in cmd)
    print("+ " + printable, file=sys.stderr, flush=True)
    with open(log, "a") as log_file:
        log_file.write(f"\n+ {printable}\n")
        log_file.flush()
        started, cpu = time.monotonic(), children_cpu()
        proc = subprocess.Popen([str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, bufsize=1)
        lock = threading.Lock()

        def forward(stream, to, keep):
            for line in stream:
                with lock:
                    to.write(line)
                    to.flush()
                    log_file.write(line)
                    log_file.flush()
                keep.append(line)

        # Progress lines come on stderr, the summary (and learn's epoch lines) on stdout.
        progress, summary = [], []
        reader = threading.Thread(target=forward, args=(proc.stderr, sys.stderr, progress), daemon=True)
        reader.start()
        try:
            forward(proc.stdout, sys.stdout, summary)
            reader.join()
            rc = proc.wait()
        except KeyboardInterrupt:
            # Ctrl-C reaches the whole process group; a SIGINT to this script alone stops the step here.
            # The script ends once the step's figures are saved: another SIGINT (a second Ctrl-C, or
            # `timeout -s INT`, which signals the script and then its whole group) must not cut
            # that short, as it did to gen4's first segment.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            proc.terminate()
            proc.wait()
            raise Interrupted(time.monotonic() - started, children_cpu() - cpu, progress)
        out = "".join(summary)
        if rc != 0:
            sys.exit(f"step failed (exit status {rc}): {printable}")
        return out, time.monotonic() - started, children_cpu() - cpu


def records_in(path):
    return path.stat().st_size // 40 if path.exists() else 0


class Figures:
    """measurements/learn/NAME.json: what each step did, summed over the segments of a run."""

    def __init__(self, name):
        self.path = MEASUREMENTS / f"{name}.json"
        self.data = json.loads(self.path.read_text()) if self.path.exists() else {"name": name}

    def save(self):
        MEASUREMENTS.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data, indent=1) + "\n")
        tmp.replace(self.path)


def number(pattern, text, cast=float):
    m = re.search(pattern, text)
    return cast(m.group(1)) if m else None


def gensfen(args, figures, folder, log, previous_net):
    data = folder / "data.bin"
    if records_in(data) >= args.count:
        return data
    cmd = [BINARY, "gensfen", "--output", data, "--count", args.count, "--nodes", args.nodes,
           "--threads", args.threads, "--seed", args.seed, "--append"]
    if previous_net:
        cmd += ["--evalfile", previous_net]
    elif args.hand_written:
        cmd += ["--hand-written"]
    before = records_in(data)
    step = figures.data.setdefault("gensfen", {"command": [str(c) for c in cmd[1:]], "segments": []})
    try:
        out, seconds, cpu = run_step(cmd, log)
        segment = {"records": number(r"wrote (\d+) records", out, int),
                   "games": number(r"from (\d+) games", out, int),
                   "summary": out.strip().splitlines()}
    except Interrupted as stop:
        # The games finished before the stop are in the file, whole; keep their cost too.
        out, seconds, cpu = None, stop.seconds, stop.cpu
        # The last progress line's game count: a lower bound (games finished after it are in
        # the file too), so the total stays marked incomplete.
        games = [number(r"games done: (\d+)", line, int) for line in stop.progress]
        games = [g for g in games if g is not None]
        segment = {"records": records_in(data) - before, "games": None,
                   "games_at_last_progress": games[-1] if games else None, "interrupted": True}
    segment.update({"seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1)})
    step["segments"].append(segment)
    segments = step["segments"]
    step["records"] = records_in(data)
    step["games"] = sum(s["games"] or s.get("games_at_last_progress") or 0 for s in segments)
    step["games_complete"] = all(s["games"] is not None for s in segments)  # else a lower bound
    step["seconds"] = round(sum(s["seconds"] for s in segments), 1)
    step["cpu_seconds"] = round(sum(s["cpu_seconds"] for s in segments), 1)
    written = sum(s["records"] or 0 for s in segments)
    step["records_per_cpu_second"] = round(written / max(step["cpu_seconds"], 1e-9), 1)
    figures.save()
    if out is None:
        sys.exit(f"interrupted with {records_in(data)} records in {data} (this segment's figures "
                 "kept, its games uncounted); the same command continues")
    return data


def shuffle(args, figures, folder, log, data):
    train, val = folder / "train.bin", folder / "val.bin"
    if train.exists() and val.exists() and train.stat().st_mtime >= data.stat().st_mtime:
        return train, val
    cmd = [BINARY, "shuffle", data, "--output", train, "--validation", args.validation,
           "--validation-output", val, "--seed", args.seed, "--overwrite"]
    out, _, _ = run_step(cmd, log)
    figures.data["shuffle"] = {"command": [str(c) for c in cmd[1:]], "summary": out.strip(),
                               "training": records_in(train), "validation": records_in(val)}
    figures.save()
    return train, val


def learn(args, figures, folder, log, train, val, previous_net):
    net = folder / "nn.bin"
    step = figures.data.get("learn", {})
    if net.exists() and step.get("finished"):
        return net
    cmd = [BINARY, "learn", train, *args.extra_train, "--output", net, "--epochs", args.epochs, "--batch", args.batch,
           "--lambda", args.lambda_, "--scale", args.scale, "--threads", args.threads,
           "--seed", args.seed, "--resume"]
    cmd += ["--validation-data", args.validation_data or val]
    if previous_net and not args.fresh:
        cmd += ["--init", previous_net]
    else:
        cmd += ["--arch", args.arch]
    cmd += args.learn_args
    out, seconds, cpu = run_step(cmd, log)
    step.setdefault("command", [str(c) for c in cmd[1:]])
    step.setdefault("epochs", {})
    step["seconds"] = round(step.get("seconds", 0) + seconds, 1)
    step["cpu_seconds"] = round(step.get("cpu_seconds", 0) + cpu, 1)
    base = re.search(r"hand-written evaluation: ([\d.]+) \(results alone ([\d.]+)\).*entropy\): ([\d.]+)", out)
    if base:
        step["hand_written"] = {"validation": float(base.group(1)), "results": float(base.group(2))}
        step["entropy"] = float(base.group(3))
    sizes = re.search(r"(\d+) for training, (\d+) held out", out)
    if sizes:
        step["training_samples"] = int(sizes.group(1))
    start = re.search(r"epoch 0: validation loss ([\d.]+) \(results alone ([\d.]+)\)", out)
    if start:
        step["epochs"]["0"] = {"validation": float(start.group(1)), "results": float(start.group(2))}
    for m in re.finditer(r"epoch (\d+): training loss ([\d.]+), validation ([\d.]+) \(results alone "
                         r"([\d.]+)\), lr [^,]+, (\d+) samples/s \((\d+) a thread\)", out):
        step["epochs"][m.group(1)] = {
            "training": float(m.group(2)), "validation": float(m.group(3)),
            "results": float(m.group(4)), "samples_per_s": int(m.group(5)),
            "samples_per_s_thread": int(m.group(6)),
        }
    kept = re.search(r"holds epoch (\d+)'s, validation loss ([\d.]+) network", out)
    if kept:
        step["kept"] = {"epoch": int(kept.group(1)), "validation": float(kept.group(2))}
    step["finished"] = True
    step["network_sha256"] = sha256(net)
    figures.data["learn"] = step
    figures.save()
    return net


BUILTIN = "builtin"


def builtin_network(data_root):
    """The network built into the binary (networks/builtin.nn.bin.zlib), inflated into
    DATA/builtin/nn.bin: `--previous builtin` fine-tunes it on the new data."""
    net = data_root / BUILTIN / "nn.bin"
    packed = ROOT / "networks" / "builtin.nn.bin.zlib"
    data = zlib.decompress(packed.read_bytes())
    if not net.exists() or net.read_bytes() != data:
        net.parent.mkdir(parents=True, exist_ok=True)
        net.write_bytes(data)
    return net


def run(args):
    if not BINARY.exists() or not args.no_build:
        subprocess.check_call(["cargo", "build", "--release", "--quiet"], cwd=ROOT)
    data_root = Path(args.data).expanduser()
    folder = data_root / args.name
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "generation.log"
    figures = Figures(args.name)
    binary = {"sha256": sha256(BINARY), "commit": git_commit()}
    seen = figures.data.setdefault("binaries", [])
    if binary not in seen:
        if seen:
            print(f"note: {args.name} was begun with another binary ({seen[-1]}); both are recorded",
                  file=sys.stderr)
        seen.append(binary)
    data_settings = {"count": args.count, "nodes": args.nodes, "seed": args.seed, "previous": args.previous,
                     "player": "previous" if args.previous else "hand-written" if args.hand_written else "built-in"}
    learn_settings = {"lambda": args.lambda_, "scale": args.scale, "epochs": args.epochs, "batch": args.batch,
                      "validation_data": str(args.validation_data) if args.validation_data else None,
                      "extra_train": [str(p) for p in args.extra_train], "learn_args": args.learn_args}
    settings = {**data_settings, **learn_settings}
    # The data's settings hold from the first game; the learning's only once learning has begun
    # (until then a run may still change how it will train, e.g. add earlier data).
    stored = figures.data.get("settings", settings)
    fixed = list(data_settings) + (list(learn_settings) if "learn" in figures.data else [])
    changed = [k for k in fixed if k in stored and stored[k] != settings[k]]
    # A run may be cut short: a lower --count that the data already reaches keeps the whole games
    # written so far (gensfen writes them in game order, so `gensfen --count RECORDS` with the
    # same seed remakes that file); learning then trains on all of them.
    written = records_in(folder / "data.bin")
    if "count" in changed and args.count < stored["count"] and written >= args.count:
        print(f"note: {args.name} cut short at {written} records (begun for {stored['count']})",
              file=sys.stderr)
        changed.remove("count")
    if changed:
        sys.exit(f"{figures.path} was made with other settings ({', '.join(changed)}): {stored}; "
                 "use another name or the same settings")
    figures.data["settings"] = settings
    figures.data["data_dir"] = str(folder)
    figures.save()
    for extra in args.extra_train:
        if not extra.exists():
            sys.exit(f"--extra-train {extra}: no such file")
    previous_net = None
    if args.previous == BUILTIN:
        previous_net = builtin_network(data_root)
    elif args.previous:
        previous_net = data_root / args.previous / "nn.bin"
        if not previous_net.exists():
            sys.exit(f"--previous {args.previous}: no network at {previous_net}")
    data = gensfen(args, figures, folder, log, previous_net)
    try:
        train, val = shuffle(args, figures, folder, log, data)
        net = learn(args, figures, folder, log, train, val, previous_net)
    except Interrupted:
        sys.exit("interrupted; the same command continues (learn from its last checkpoint)")
    print(f"{args.name}: {net} ({figures.path.relative_to(ROOT)})")


def record_match(args):
    figures = Figures(args.name)
    if "settings" not in figures.data:
        sys.exit(f"no generation {args.name} in {MEASUREMENTS}")
    target = figures.data
    if args.variant:
        # A network trained otherwise on the same data (e.g. fine-tuned from the parent): its
        # figures sit under "variants", each with its own matches.
        target = figures.data.get("variants", {}).get(args.variant)
        if target is None:
            sys.exit(f"no variant {args.variant} of {args.name} in {figures.path}")
    target.setdefault("matches", []).append({
        "against": args.against, "clock": args.clock, "wins": args.wins, "draws": args.draws,
        "losses": args.losses, "run_dir": args.run_dir, "note": args.note,
    })
    figures.save()


def elo(wins, draws, losses):
    n = wins + draws + losses
    if n == 0:
        return None
    score = (wins + draws / 2) / n
    if score <= 0 or score >= 1:
        return None
    return -400 * math.log10(1 / score - 1)


def known(value, form):
    """A figure, or "-" where it was not measured (records assembled from logs)."""
    return "-" if value is None else form.format(value)


def match_summary(matches):
    def one(m):
        e = elo(m["wins"], m["draws"], m["losses"])
        return (f"{m['wins']}-{m['draws']}-{m['losses']} vs {m['against']} ({m['clock']}"
                + (f", {e:+.0f} Elo)" if e is not None else ")"))
    return "; ".join(one(m) for m in matches) or "-"


def table(_args):
    rows = []
    for path in sorted(MEASUREMENTS.glob("*.json")):
        d = json.loads(path.read_text())
        s, g, lr = d.get("settings", {}), d.get("gensfen", {}), d.get("learn", {})
        player = {"builtin": "built-in"}.get(s.get("previous"), s.get("previous")) or s.get("player", "-")
        games, cpu = g.get("games"), g.get("cpu_seconds")
        if "continues" in d:
            # Its data.bin began as a copy of another generation's: that run's games and CPU time
            # are part of the file's cost.
            before = json.loads((MEASUREMENTS / f"{d['continues']}.json").read_text())["gensfen"]
            games = games and before.get("games") and games + before["games"]
            cpu = cpu and before.get("cpu_seconds") and cpu + before["cpu_seconds"]
            g = {**g, "records_per_cpu_second": cpu and round(g["records"] / cpu, 1),
                 "games_complete": g.get("games_complete", True) and before.get("games_complete", True)}

        def played(records, games, cpu_seconds):
            """The data's columns: a network trained on part of it gives its own record count (its
            games and CPU time were not counted apart), the rate is the whole run's."""
            return [
                player, known(records, "{:,}"),
                known(games, "{:,}" if g.get("games_complete", True) else "{:,}+"), f"{s.get('nodes')}",
                known(cpu_seconds and cpu_seconds / 3600, "{:.2f}"),
                known(g.get("records_per_cpu_second"), "{}"),
            ]

        def network(name, entry, learnt, samples):
            """One network's row: `learnt` its training figures, `entry` its matches and when it
            was built into the binary ("built_in", as networks/README.md records it)."""
            kept = learnt.get("kept", {})
            epoch = learnt.get("epochs", {}).get(str(kept.get("epoch")), {})
            hw = learnt.get("hand_written", lr.get("hand_written", {}))
            data = (played(entry["records"], None, None) if "records" in entry
                    else played(g.get("records"), games, cpu))
            return [name, entry.get("built_in", "-")] + data + [
                f"{samples:,}" if samples is not None else "-",
                f"{s.get('lambda')}", str(kept.get("epoch", "-")),
                f"{epoch.get('training', float('nan')):.5f}", f"{epoch.get('validation', float('nan')):.5f}",
                f"{hw.get('validation', float('nan')):.5f}", f"{epoch.get('results', float('nan')):.5f}",
                f"{hw.get('results', float('nan')):.5f}", f"{epoch.get('samples_per_s_thread', '-')}",
                match_summary(entry.get("matches", [])),
            ]

        rows.append(network(d["name"], d, lr, lr.get("training_samples")))
        # Other networks trained on the same data (a fine-tune of the parent, say): one row each.
        for variant, v in d.get("variants", {}).items():
            rows.append(network(variant, v, v, v.get("training_samples", lr.get("training_samples"))))
    head = ["generation", "built in", "played by", "records", "games", "nodes", "gensfen CPU h", "records/CPU s",
            "trained on", "lambda", "kept epoch", "training loss", "validation", "hand-written", "results alone",
            "hand-written (results)", "samples/s a thread", "matches"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("run", help="generate, shuffle and train one generation (resumable)")
    p.add_argument("name", help="the generation's name: its folder in --data and its figures file")
    p.add_argument("--data", default=os.environ.get("TOKIN_DATA", "~/tokin-data"))
    p.add_argument("--previous", help="the generation whose network plays gensfen and starts learn "
                                      "('builtin': the network built into the binary)")
    p.add_argument("--fresh", action="store_true", help="learn from random weights even with --previous")
    p.add_argument("--hand-written", action="store_true",
                   help="without --previous, gensfen plays the hand-written evaluation (gen1's player) "
                        "instead of the binary's built-in network")
    p.add_argument("--count", type=int, default=1_200_000, help="records of gensfen (default 1200000)")
    p.add_argument("--nodes", type=int, default=5000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p.add_argument("--validation", type=float, default=0.03)
    p.add_argument("--validation-data", type=Path, help="validate on this file instead of val.bin")
    p.add_argument("--extra-train", type=Path, action="append", default=[], metavar="FILE",
                   help="train on this file too (repeatable), e.g. an earlier generation's train.bin: "
                        "a window of generations rather than the last alone")
    p.add_argument("--arch", default="64x2-32-32")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch", type=int, default=16384)
    p.add_argument("--lambda", dest="lambda_", type=float, default=0.7)
    p.add_argument("--scale", type=float, default=950)
    p.add_argument("--no-build", action="store_true", help="use target/release/tokin as it is")
    p.epilog = "Flags after -- go to tokin learn, e.g. -- --residual --lr 3e-4."
    p.set_defaults(func=run)
    p = sub.add_parser("record-match", help="store a match result with a generation's figures")
    p.add_argument("name")
    p.add_argument("--against", required=True, help="e.g. 'hand-written' or 'gen1'")
    p.add_argument("--clock", required=True, help="e.g. '1 s byoyomi' or '20000 nodes'")
    p.add_argument("--wins", type=int, required=True)
    p.add_argument("--draws", type=int, required=True)
    p.add_argument("--losses", type=int, required=True)
    p.add_argument("--run-dir", help="the ShogiArena run directory it came from")
    p.add_argument("--note", help="endings, time losses, anything the numbers do not say")
    p.add_argument("--variant", help="the network is this variant of the generation (its \"variants\" entry)")
    p.set_defaults(func=record_match)
    p = sub.add_parser("table", help="every generation's figures as a Markdown table")
    p.set_defaults(func=table)
    # argparse gives a trailing positional list nothing after options have come between, so the
    # flags for tokin learn are split off at "--" by hand.
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    args.learn_args = argv[split + 1:]
    if args.learn_args and args.mode != "run":
        parser.error("flags after -- are for run")
    # A shell without job control starts background commands (`nohup ... &`) with SIGINT ignored,
    # and Python then installs no handler: `kill -INT` would not stop a step and save its figures,
    # as it did not stop gen5's first segment. Stopping on SIGINT is this script's contract.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    args.func(args)


if __name__ == "__main__":
    main()
