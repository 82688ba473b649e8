"""Decision queries: wall time from the shell, and deal-actions per second of their batches.

Run from the repository root:

    python benchmarks/bench_decide.py                 # 20,000 deals per speed measurement
    python benchmarks/bench_decide.py --quick         # 2,000
    python benchmarks/bench_decide.py --save          # and write results/bench_decide.csv

1. Each ``wantit decide`` command of the README's table and Selection sections (the
   shipped example states), run as a fresh process from the shell with warm numba and
   bytecode caches (a first untimed run fills them): the wall time a player waits for
   the answer, start-up included (best of 3).
2. Deal-actions per second on one thread of each example's decision batches:
   ``analyzer.engine.forced_batches``, which plays each deal to the decision once and
   on from a copy of that point with each action, against the same deals with each
   action's batch played from the deal's start (``play_batch`` with ``forced``, as
   decision queries played them before), in turns, and their ratio. The two must give
   the same rows: the run stops with an error where they do not. ``play_batch`` checks
   its action in each deal where cards are dealt before the decision, as the queries
   did only in the first action's batch: for two actions the ratio is that much above
   the old queries' (Selection/Rejection's check measured about 1.04x a batch).
3. The race (``wantit decide``'s default with more than two actions): the example
   decisions of many actions, Selection's keep and Anaconda's pass, at the query's
   defaults from the shell, raced and with ``--no-race``, and their ratio. Both must
   give the same best action, edge and edge error: the run stops where they do not.
"""

import argparse
import datetime
import json
import platform
import time
from pathlib import Path

import numba
import numpy as np

from _common import REPEATS, add_output_options, best_times, run_wantit, shell_command, table_lines, write_results
from analyzer.decide import _the_decision
from analyzer.engine import forced_batches, play_batch
from analyzer.equity import selection_query
from analyzer.table import load_table, table_state
from analyzer.variants import get_variant

ROOT = Path(__file__).resolve().parents[1]
SEED = 20241207
COLUMNS = ["measure", "variant", "what", "actions", "deals", "seconds", "per_s", "ratio"]
# The README's decide commands (the example states): (variant, extra arguments).
QUERIES = [
    ("selection_rejection", []),
    ("do_ya", []),
    ("anaconda", ["--max-deals", "4000"]),
    ("train_wreck", ["--me", "2"]),
    ("selection", ["--max-deals", "1000"]),
]
SELECTION_SHARE = 20  # Selection's games are many rounds and its keeps 120 actions: deals / 20
RACED = ["selection", "anaconda"]  # the example decisions of more than two actions


def shell_queries():
    rows = []
    for variant, extra in QUERIES:
        path = ROOT / "examples" / f"{variant}.toml"
        args = ["decide", variant, "--state", str(path.relative_to(ROOT)), *extra]
        seconds = shell_command([*args, "--format", "json"])
        rows.append({"measure": "wall", "variant": variant, "what": "wantit " + " ".join(args), "actions": "",
                     "deals": "", "seconds": f"{seconds:.3f}", "per_s": "", "ratio": ""})
    return rows


def _answer(args):
    """The best action, edge, edge error, deals and actions dropped of ``wantit ARGS --format json``."""
    out = run_wantit([*args, "--format", "json"], capture_output=True, text=True).stdout
    data = json.loads(out)
    return data["best"], data["edge"], data["edge_se"], data["meta"]["deals"], data["meta"]["dropped"]


def race_queries():
    rows = []
    for variant in RACED:
        args = ["decide", variant, "--state", f"examples/{variant}.toml"]
        raced, every = _answer(args), _answer([*args, "--no-race"])
        if raced[:4] != every[:4]:
            raise SystemExit(f"{variant}: the race answered {raced[:4]}, --no-race {every[:4]}")
        # Each was just run for its answer: that run warmed the caches.
        ours, theirs = shell_command(args, warmed=True), shell_command([*args, "--no-race"], warmed=True)
        rows += [
            {"measure": "race", "variant": variant, "what": f"wantit {' '.join(args)} ({raced[4]} dropped)",
             "actions": "", "deals": raced[3], "seconds": f"{ours:.3f}", "per_s": "", "ratio": f"{theirs / ours:.2f}"},
            {"measure": "race", "variant": variant, "what": f"wantit {' '.join(args)} --no-race", "actions": "",
             "deals": every[3], "seconds": f"{theirs:.3f}", "per_s": "", "ratio": "1.00"},
        ]
    return rows


def _query(variant, extra):
    """``(inputs, state, actions)`` of an example's decision."""
    table = load_table(ROOT / "examples" / f"{variant}.toml")
    me = int(extra[extra.index("--me") + 1]) if "--me" in extra else table.me
    if variant == "selection":
        q = selection_query(table)
        inp, st = q.inputs, q.state
        _, actions = _the_decision(inp, st, SEED, q.me, game_data=True)
    else:
        inp = get_variant(variant).inputs(table.players)
        st = table_state(inp, table)
        _, actions = _the_decision(inp, st, SEED, me)
    return inp, st, actions


def speed(deals):
    rows = []
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        for variant, extra in QUERIES:
            inp, st, actions = _query(variant, extra)
            n = max(1, deals // SELECTION_SHARE) if variant == "selection" else deals
            together = lambda count: [r for _, r in forced_batches(inp, st, SEED, 0, count, actions, False)]
            apart = lambda count: [play_batch(inp, st, SEED, 0, count, False, forced=a) for a in actions]
            for a, b in zip(together(50), apart(50)):  # compile and warm up, untimed; the same rows
                if not np.array_equal(a, b):
                    raise SystemExit(f"{variant}: forced_batches and play_batch gave different rows")
            ours, theirs = best_times([lambda: together(n), lambda: apart(n)])
            k = len(actions)
            rows += [
                {"measure": "speed", "variant": variant, "what": "forced_batches: to the decision once",
                 "actions": k, "deals": n, "seconds": f"{ours:.3f}", "per_s": f"{n * k / ours:,.0f}",
                 "ratio": f"{theirs / ours:.2f}"},
                {"measure": "speed", "variant": variant, "what": "each action from the deal's start",
                 "actions": k, "deals": n, "seconds": f"{theirs:.3f}", "per_s": f"{n * k / theirs:,.0f}",
                 "ratio": "1.00"},
            ]
    finally:
        numba.set_num_threads(previous)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals per speed measurement (Selection: / 20)")
    parser.add_argument("--quick", action="store_true", help="2,000 deals")
    add_output_options(parser, "results/bench_decide.csv")
    args = parser.parse_args()
    if args.quick:
        args.deals = 2_000
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    rows = shell_queries() + race_queries() + speed(args.deals)
    print("\n".join(table_lines(COLUMNS, [[str(r[c]) for c in COLUMNS] for r in rows], text_columns=(0, 1, 2))))
    print("\nper_s: deal-actions a second, one thread; ratio: the time of each action from the deal's start "
          "over forced_batches'; race: --no-race's time over the raced query's, the same answer")
    write_results(rows, args, COLUMNS, {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "deals": args.deals, "seed": SEED, "repeats": REPEATS, "python": platform.python_version(),
        "numba": numba.__version__, "cpu_count": numba.config.NUMBA_NUM_THREADS, "time": time.strftime("%H:%M:%S")})


if __name__ == "__main__":
    main()
