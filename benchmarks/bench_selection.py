"""Complete eleven-round games of Selection (RulesPal) per second.

Run from the repository root:

    python benchmarks/bench_selection.py                  # 50,000 games per measurement
    python benchmarks/bench_selection.py --quick          # 5,000 games: smoke run
    python benchmarks/bench_selection.py --games 200000 --out results/x.csv

The engine's batch driver ``kernels.engine.play_batch`` is called directly, as
``analyzer.selection.simulate_selection`` does (through ``analyzer.engine``), into
a preallocated array of result rows (``kernels.games.selection.RESULT``), on the
default rules, the PROVISIONAL board of RULES.md §5.4 and the standard52 deck, with the dealer rotating. It plays 1 and 4 players, with the same
policy preset at every seat (``heuristic``, the default, and ``stand_pat``, which
never draws: the floor of dealing and scoring without draw decisions), at one
numba thread and at all of them. Each slot's par (which the policy reads) is
computed before timing. Each timing is the best of 3 repeats after an untimed
compile-and-warm-up run. The numbers are for information: no test depends on them.
"""

import argparse
import datetime
import os
import platform
import time

import numba
import numpy as np

from _common import REPEATS, add_output_options, best_times, on_threads, table_lines, write_results
from analyzer.engine import new_state
from analyzer.evaluate import _tables
from analyzer.selection import selection_inputs
from kernels import engine as E
from kernels.engine import play_batch as engine_batch
from kernels.games import selection as G

SEED = 20240607
PLAYERS = (1, 4)
POLICIES = ("heuristic", "stand_pat")
WARMUP_GAMES = 200
ROTATE_DEALER = True
TARGET_PLAYERS = 1
TARGET_RATE = 100_000
TARGET = "target: >= 100,000 complete eleven-round one-player games per second per thread"
COLUMNS = ["players", "policy", "threads", "games", "seconds", "games_per_s", "games_per_s_per_thread"]


class Outputs:
    """Preallocated result rows for ``games`` games of ``n`` players."""

    def __init__(self, games, n):
        self.rows = np.zeros((games, G.RESULT.size), np.float64)


def runner(n, preset, count, out):
    """A no-argument call of ``play_batch`` for ``count`` games, every seat ``preset``."""
    inp = selection_inputs(players=n, policies=preset)
    start = new_state(inp, dealer=0)
    tables = _tables()

    def run():
        engine_batch(E.GAME_SELECTION, tables, inp.rules, inp.params, inp.idata, inp.fdata, start, SEED, 0, count,
                     ROTATE_DEALER, out.rows)

    return run




def measure(games, thread_counts):
    rows = []
    for n in PLAYERS:
        out = Outputs(games, n)
        for preset in POLICIES:
            run = runner(n, preset, games, out)
            # One thread and all of them take turns: the scaling compares the same
            # stretch of a host whose speed drifts.
            times = best_times([on_threads(threads, run) for threads in thread_counts])
            for threads, seconds in zip(thread_counts, times):
                rows.append({"players": n, "policy": preset, "threads": threads, "games": games,
                             "seconds": seconds, "games_per_s": games / seconds,
                             "games_per_s_per_thread": games / seconds / threads})
    return rows


def compile_all():
    """JIT-compile (or load from numba's cache) the kernels and compute every par:
    not timed."""
    start = time.perf_counter()
    for n in PLAYERS:
        out = Outputs(WARMUP_GAMES, n)
        for preset in POLICIES:
            runner(n, preset, WARMUP_GAMES, out)()
    return time.perf_counter() - start


def print_table(rows, thread_counts):
    headers = ["players", "policy", "threads", "games", "seconds", "games/s", "games/s/thread"]

    def cell(r, key):
        v = r[key]
        if key == "seconds":
            return f"{v:.4f}"
        if key in ("games_per_s", "games_per_s_per_thread", "games"):
            return f"{v:,.0f}"
        return str(v)

    lines = [[cell(r, k) for k in COLUMNS] for r in rows]
    print("\n".join(table_lines(headers, lines, text_columns=(1,))))
    print()
    print(TARGET)
    for r in rows:
        if r["players"] == TARGET_PLAYERS and r["policy"] == "heuristic":
            verdict = "meets" if r["games_per_s_per_thread"] >= TARGET_RATE else "below"
            threads = "1 thread" if r["threads"] == 1 else f"{r['threads']} threads"
            print(f"measured: 1 player, heuristic, {threads}: {r['games_per_s_per_thread']:,.0f} games/s per "
                  f"thread ({verdict} target)")
    if len(thread_counts) == 1:
        print("measured: thread scaling not measured (numba has one thread here)")




def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000, help="games per measurement (default 50,000)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 5,000 games")
    add_output_options(parser, "results/bench_selection.csv")
    args = parser.parse_args()
    if args.quick:
        args.games = 5_000
    if args.games < 1:
        parser.error("--games must be at least 1")
    return args


def main():
    args = parse_args()
    all_threads = numba.config.NUMBA_NUM_THREADS
    thread_counts = sorted({1, all_threads})
    seconds = compile_all()
    print(f"compiled the Selection kernels and computed the slot pars in {seconds:.1f} s (untimed)")
    rows = measure(args.games, thread_counts)
    print()
    print_table(rows, thread_counts)
    write_results(rows, args, COLUMNS, {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "games": args.games,
        "seed": SEED,
        "rotate_dealer": ROTATE_DEALER,
        "repeats": REPEATS,
        "players": list(PLAYERS),
        "policies": list(POLICIES),
        "thread_counts": thread_counts,
        "board": "RULES.md §5.4 provisional board (PROVISIONAL)",
        "deck": "standard52",
        "rules": "defaults",
        "target": TARGET,
        "compile_seconds": round(seconds, 3),
        "cpu_count": os.cpu_count(),
        "numba_threads": all_threads,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "numpy": np.__version__,
        "numba": numba.__version__,
    })


if __name__ == "__main__":
    main()
