"""Points per second of a 7-player sweep, and the sweep driver's overhead over the raw
kernel.

Run from the repository root:

    python benchmarks/bench_sweep.py                 # 200,000 deals a point, 4 points
    python benchmarks/bench_sweep.py --quick         # 20,000 deals a point: smoke run
    python benchmarks/bench_sweep.py --save          # and write results/bench_sweep.csv / .json

A Selection/Rejection sweep of seat 0's take_threshold over 4 points against the
heuristic field, 7 players, every point on the same deals (``analyzer.sweep``):

- **raw kernel**: ``analyzer.engine.play_batch`` of each point's deals in one call,
  nothing summed: what the kernel alone costs;
- **sweep in-process**: ``analyzer.sweep.run_sweep`` (chunks of 20,000 deals, the
  exact sums of every metric and seat, the differences from the reference), on one
  thread and on all numba threads; the overhead is its time over the raw kernel's on
  the same threads;
- **sweep on Dask**: the same on a local cluster of two single-threaded worker
  processes, the cluster's start timed apart.

Each in-process timing is the best of 3 after an untimed warm-up. The target is the
issue's: the driver's overhead under 10% at 200,000 deals a point. Numbers are for
information: no test depends on them.
"""

import argparse
import datetime
import json
import os
import platform
import time

import numba

from _common import add_output_options, best_time, table_lines, write_results
from analyzer.engine import play_batch
from analyzer.runs import numba_threads
from analyzer.sweep import _prepared, run_sweep, sweep_settings

POINTS = [0.1, 0.4, 0.7, 1.0]
PLAYERS = 7
TARGET = "target: the sweep driver's overhead over the raw kernel under 10% at 200,000 deals a point"
COLUMNS = ["how", "threads", "points", "deals_per_point", "seconds", "points_per_s", "deals_per_s",
           "overhead_vs_kernel"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200_000, help="deals a point")
    parser.add_argument("--quick", action="store_true", help="20,000 deals a point")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask rows")
    add_output_options(parser, "results/bench_sweep.csv")
    args = parser.parse_args()
    deals = 20_000 if args.quick else args.deals
    settings = sweep_settings("sr", grid={"take_threshold": POINTS}, players=PLAYERS, deals=deals, seed=1,
                              field="heuristic")
    text = json.dumps(settings, sort_keys=True)
    _, prepared = _prepared(text)
    all_threads = numba.config.NUMBA_NUM_THREADS
    thread_counts = sorted({1, all_threads})

    def raw():
        for inp, start in prepared:
            play_batch(inp, start, settings["seed"], 0, deals)

    def swept():
        run_sweep(settings)

    rows = []
    with numba_threads(1):
        play_batch(*prepared[0], settings["seed"], 0, 1_000)  # compile / load, untimed
        run_sweep({**settings, "deals": 2_000, "chunk": 2_000})
    for threads in thread_counts:
        with numba_threads(threads):
            kernel = best_time(raw)
            driver = best_time(swept)
        for how, seconds in (("raw kernel", kernel), ("sweep in-process", driver)):
            rows.append({"how": how, "threads": threads, "points": len(POINTS), "deals_per_point": deals,
                         "seconds": round(seconds, 3), "points_per_s": round(len(POINTS) / seconds, 3),
                         "deals_per_s": round(len(POINTS) * deals / seconds),
                         "overhead_vs_kernel": "" if how == "raw kernel" else f"{driver / kernel - 1:+.1%}"})
    if not args.no_dask:
        from dask.distributed import Client, LocalCluster

        started = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            startup = time.perf_counter() - started
            client.run(lambda: None)
            run_sweep({**settings, "deals": 4_000, "chunk": 2_000}, workers=None, scheduler=cluster.scheduler_address,
                      threads=1)  # every worker loads its kernels, untimed
            seconds = best_time(lambda: run_sweep(settings, scheduler=cluster.scheduler_address, threads=1))
        one = next(r for r in rows if r["how"] == "sweep in-process" and r["threads"] == 1)
        rows.append({"how": "sweep on Dask, 2 workers", "threads": 2, "points": len(POINTS),
                     "deals_per_point": deals, "seconds": round(seconds, 3),
                     "points_per_s": round(len(POINTS) / seconds, 3),
                     "deals_per_s": round(len(POINTS) * deals / seconds),
                     "overhead_vs_kernel": f"{seconds * 2 / one['seconds'] - 1:+.1%} vs 1 thread / 2"})
        print(f"(the local Dask cluster took {startup:.1f} s to start; not in its row)")
    headers = COLUMNS
    print(f"Selection/Rejection sweep, {PLAYERS} players, {len(POINTS)} points of take_threshold, heuristic field")
    print("\n".join(table_lines(headers, [[str(r[c]) for c in headers] for r in rows], text_columns=(0, 7))))
    print(TARGET)
    write_results(rows, args, COLUMNS, {"date": datetime.datetime.now().isoformat(timespec="seconds"),
                                        "machine": platform.machine(), "cpus": os.cpu_count(),
                                        "numba_threads": all_threads, "players": PLAYERS, "points": POINTS,
                                        "deals_per_point": deals, "target": TARGET})


if __name__ == "__main__":
    main()
