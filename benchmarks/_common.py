"""What the benchmark scripts share: timing, table layout, result files."""

import csv
import json
import math
import subprocess
import time
from pathlib import Path

REPEATS = 3


def best_time(run, repeats=REPEATS):
    """Best wall time of ``repeats`` calls of ``run``: the least disturbed one."""
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def best_times(runs, repeats=REPEATS):
    """Best wall time of each of ``runs``, called in turn ``repeats`` times (the
    first run, the second, ..., then again): times that are compared with each other
    come from the same stretches of a host whose speed drifts."""
    best = [math.inf] * len(runs)
    for _ in range(repeats):
        for k, run in enumerate(runs):
            start = time.perf_counter()
            run()
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def run_wantit(args, **options):
    """``wantit ARGS`` as a fresh process from the repository root (``subprocess.run``
    with ``options``), writing Python's bytecode as a player's machine does (a sandbox
    may set PYTHONDONTWRITEBYTECODE, which would compile every module of the package
    from source on every run)."""
    import os
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run([sys.executable, "-c", "from analyzer.console import main; main()", *args], check=True,
                          cwd=Path(__file__).resolve().parents[1], env=env, **options)


def shell_command(args, warmed=False):
    """Best of ``REPEATS`` wall seconds of ``wantit ARGS`` (``run_wantit``), after an
    untimed run (``warmed``: the caller has just run it): warm caches, numba's and
    Python's bytecode, as a player's machine has them."""
    if not warmed:
        run_wantit(args, capture_output=True)  # warm the caches
    return best_time(lambda: run_wantit(args, capture_output=True))


def on_threads(threads, run):
    """``run`` on ``threads`` numba threads (a thread count per timing, for ``best_times``)."""
    import numba

    def timed():
        numba.set_num_threads(threads)
        run()
    return timed


def table_lines(headers, lines, text_columns=(0,)):
    """A plain text table: header, rule, rows; text columns left-aligned, numbers right."""
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(headers)]

    def fmt(values):
        return "  ".join(v.ljust(w) if i in text_columns else v.rjust(w)
                         for i, (v, w) in enumerate(zip(values, widths)))

    return [fmt(headers), "  ".join("-" * w for w in widths)] + [fmt(line) for line in lines]


def add_output_options(parser, default):
    """``--save`` (write ``default``) and ``--out PATH``: a run writes nothing unless asked."""
    parser.add_argument("--save", action="store_true", help=f"write the table to {default} (and its JSON)")
    parser.add_argument("--out", type=Path, default=None,
                        help="write the table as CSV here, the metadata JSON next to it (implies --save)")
    parser.set_defaults(default_out=Path(default))


def output_path(args):
    """Where to write the results, or None when the run was not asked to save them."""
    if args.out is not None:
        return args.out
    return args.default_out if args.save else None


def git_commit():
    """The commit measured (with ``-dirty`` when the working tree has changes
    outside results/), or None outside a git checkout."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
        # results/ is what the benchmarks write: a run before this one does not make the code dirty.
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!results"],
                               cwd=root, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def _text(path):
    """A small system file's text, stripped; None where it cannot be read."""
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def host():
    """The processor measured on: its model name and its L2 cache a core (Linux; None
    where the system does not say). The same code runs at different speeds on the
    development machines (an AMD EPYC with 1 MB of L2 a core, an Intel with 2 MB),
    so a saved run names the one it came from."""
    lines = (_text("/proc/cpuinfo") or "").splitlines()
    model = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), None)
    caches = sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*"))
    l2 = next((_text(index / "size") for index in caches if _text(index / "level") == "2"), None)
    return {"cpu_model": model, "l2_cache_per_core": l2}


def write_results(rows, args, columns, metadata):
    """The rows as CSV and the metadata as JSON beside it, when the run was asked to
    save them (``--save`` / ``--out``); every row and the metadata name the commit,
    and the metadata the processor (``host``)."""
    out = output_path(args)
    if out is None:
        print(f"\n(not saved: --save writes {args.default_out}, --out PATH elsewhere)")
        return
    commit = git_commit()
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=[*columns, "commit"], restval="n/a")
        writer.writeheader()
        writer.writerows({**row, "commit": commit or "n/a"} for row in rows)
    meta_path = out.with_suffix(".json")
    meta_path.write_text(json.dumps({"commit": commit, **host(), **metadata}, indent=2) + "\n")
    print(f"\nwrote {out} and {meta_path} (commit {commit})")
