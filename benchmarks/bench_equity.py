"""Equity queries: wall time from the shell, and deals per second next to poker-equity.

Run from the repository root (needs poker-equity: ``pip install -e '.[bench]'``):

    python benchmarks/bench_equity.py                 # 1,000,000 deals per speed measurement
    python benchmarks/bench_equity.py --quick         # 100,000
    python benchmarks/bench_equity.py --save          # and write results/bench_equity.csv

1. ``wantit equity VARIANT --state examples/VARIANT.toml`` for every example state
   shipped, run as a fresh process from the shell with warm numba and bytecode
   caches (a first untimed run fills them), to the default precision of 0.005: the wall time a player
   waits, start-up included (best of 3); and ``wantit hand`` the same way.
2. Deals per second on one thread of an always-take Selection/Rejection table,
   which is seven-card stud with partly known hands (high only), played by the
   batch driver ``analyzer.equity.equity`` runs (``engine.equity_sums``: the deals
   and their sums, no result rows), and poker-equity's ``stud`` on the
   same hands ('*' for the unknown cards) in the same run, and their ratio.

Targets (the equity issue): under 1 s per query including start-up; at least 2x
poker-equity's deals per second per thread. The speed issue: ``wantit hand`` and
``wantit equity`` under 0.5 s with warm caches.
"""

import argparse
import datetime
import platform
import time
from pathlib import Path

import numba

from _common import REPEATS, add_output_options, best_time, shell_command, table_lines, write_results
from analyzer.engine import equity_sums
from analyzer.table import Table, table_state
from analyzer.variants import get_variant

ROOT = Path(__file__).resolve().parents[1]
SEED = 20240607
STUD_TABLE = {"hole": {0: "As Ks"}, "up": {0: "Ah", 1: "7c", 2: "Td", 3: "2c"}}  # 4 players, 3rd street
COLUMNS = ["measure", "variant", "what", "deals", "seconds", "per_s", "ratio"]
WALL_TARGET_S = 1.0
START_UP_TARGET_S = 0.5
HAND = "As Ks Qs Js Ts 9s 2c"
RATIO_TARGET = 2.0


def shell_queries():
    seconds = shell_command(["hand", HAND])
    rows = [{"measure": "wall", "variant": "", "what": f"wantit hand {HAND}", "deals": "",
             "seconds": f"{seconds:.3f}", "per_s": "", "ratio": ""}]
    for path in sorted((ROOT / "examples").glob("*.toml")):
        variant = path.stem
        if variant not in ("selection_rejection", "do_ya", "anaconda", "train_wreck"):
            continue
        seconds = shell_command(["equity", variant, "--state", str(path), "--format", "json"])
        rows.append({"measure": "wall", "variant": variant, "what": f"wantit equity --state {path.name}",
                     "deals": "", "seconds": f"{seconds:.3f}", "per_s": "", "ratio": ""})
    return rows


def speed(deals):
    import poker_equity as pe

    v = get_variant("selection_rejection")
    inp = v.inputs(4, policies="always_take", rules={"split_mode": "high_only"})
    st = table_state(inp, Table("selection_rejection", players=4, **STUD_TABLE))
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        equity_sums(inp, st, SEED, 0, 1000)  # compile and warm up, untimed
        ours = best_time(lambda: equity_sums(inp, st, SEED, 0, deals))
    finally:
        numba.set_num_threads(previous)
    fields = ["AsKsAh", "**7c", "**Td", "**2c"]
    pe.chunk_from_text("stud", fields, samples=1000, seed=1, threads=1)
    theirs = best_time(lambda: pe.chunk_from_text("stud", fields, samples=deals, seed=1, threads=1))
    return [
        {"measure": "speed", "variant": "selection_rejection", "what": "wantit, always-take 4-player stud table",
         "deals": deals, "seconds": f"{ours:.3f}", "per_s": f"{deals / ours:,.0f}",
         "ratio": f"{theirs / ours:.2f}"},
        {"measure": "speed", "variant": "stud", "what": "poker-equity 0.1.1 stud, same hands",
         "deals": deals, "seconds": f"{theirs:.3f}", "per_s": f"{deals / theirs:,.0f}", "ratio": "1.00"},
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals per speed measurement")
    parser.add_argument("--quick", action="store_true", help="100,000 deals")
    add_output_options(parser, "results/bench_equity.csv")
    args = parser.parse_args()
    if args.quick:
        args.deals = 100_000
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    rows = shell_queries() + speed(args.deals)
    print("\n".join(table_lines(COLUMNS, [[str(r[c]) for c in COLUMNS] for r in rows], text_columns=(0, 1, 2))))
    walls = [float(r["seconds"]) for r in rows if r["measure"] == "wall" and r["variant"]]
    hand = float(rows[0]["seconds"])
    ratio = float(rows[-2]["ratio"])
    print(f"\ntargets: wall under {WALL_TARGET_S:g} s per query (worst here {max(walls):.2f} s: "
          f"{'met' if max(walls) < WALL_TARGET_S else 'MISSED'}); at least {RATIO_TARGET:g}x poker-equity per "
          f"thread (here {ratio:.2f}x: {'met' if ratio >= RATIO_TARGET else 'MISSED'})")
    worst = max(walls + [hand])
    print(f"start-up under {START_UP_TARGET_S:g} s (the speed issue): hand {hand:.2f} s, worst equity query "
          f"{max(walls):.2f} s: {'met' if worst < START_UP_TARGET_S else 'MISSED'}")
    write_results(rows, args, COLUMNS, {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "deals": args.deals, "seed": SEED, "repeats": REPEATS, "stud_table": STUD_TABLE,
        "python": platform.python_version(), "numba": numba.__version__, "cpu_count": numba.config.NUMBA_NUM_THREADS,
        "precision": 0.005, "time": time.strftime("%H:%M:%S")})


if __name__ == "__main__":
    main()
