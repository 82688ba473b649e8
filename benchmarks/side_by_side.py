"""A revision's game kernels against the working tree's, both running at once.

Run from the repository root (two cores or more):

    python benchmarks/side_by_side.py train_wreck                 # against HEAD
    python benchmarks/side_by_side.py anaconda --rev 9106787 --rounds 6
    python benchmarks/side_by_side.py do_ya --policy always_take --players 4
    python benchmarks/side_by_side.py selection                   # one-player games

On a machine whose runs vary from one process to the next by more than the change
being measured, timing old and new in turn shows nothing. Here the revision is
checked out in a git worktree of its own (its own numba cache, so nothing compiled
for one tree is loaded by the other), and each round starts one timing process in
each tree at the same moment, each pinned to a core of its own (the cores swap
sides every round, so that a slower core slows each tree as often): both see the
same noise, and the ratio of their times holds where the times themselves wander. Each process
plays the deals of its own tree's ``bench_games.py`` (``game_runner``: every seat
the same preset, the dealer rotating, the batch driver ``simulate`` plays through;
revisions from 64c1ead on have it in this form), or for Selection the games of its
``bench_selection.py`` (``runner``: one player by default), best of ``--repeats``, and
hashes the run's totals (Selection's: its result rows): the same hash in both trees
means the same results. The summary's geometric mean of the rounds' ratios cancels a
difference between the two cores over an even number of rounds (the default 4);
where a core's speed jumps between two levels from one moment to the next (a host
shared with other machines), the ratio of each tree's best time over all rounds
says more, and it prints that too.
The first round also compiles each tree's kernels (untimed).
The numbers are for information: no test depends on them.
"""

import argparse
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POT_GAMES = ("selection_rejection", "do_ya", "anaconda", "train_wreck")
SELECTION = "selection"


def time_here(game, deals, players, policy, repeats, core):
    """Best time a deal and the totals' hash, for the tree this process runs in:
    that tree's ``bench_games.game_runner``, the deals its benchmark plays."""
    sys.path[:0] = [os.getcwd(), os.path.join(os.getcwd(), "benchmarks")]
    if core >= 0:
        os.sched_setaffinity(0, {core})
    import numba

    numba.set_num_threads(1)
    if game == SELECTION:
        import bench_selection

        out = bench_selection.Outputs(deals, players)
        run = bench_selection.runner(players, policy, deals, out)
        run()  # compiles, or loads the tree's cache
        digest = hashlib.sha1(out.rows.tobytes()).hexdigest()[:12]
    else:
        from analyzer.evaluate import _tables
        from analyzer.variants import VARIANTS
        from bench_games import Outputs, game_runner

        out = Outputs(deals, players)
        run = game_runner(_tables(), VARIANTS[game], policy, players, deals, out)
        run()  # compiles, or loads the tree's cache
        digest = hashlib.sha1(out.totals().tobytes()).hexdigest()[:12]
    best = float("inf")
    for _ in range(repeats):
        begin = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - begin)
    return {"us_per_deal": 1e6 * best / deals, "digest": digest}


def child_command(args, core):
    return [sys.executable, str(Path(__file__).resolve()), args.game, "--child", "--deals", str(args.deals),
            "--players", str(args.players), "--policy", args.policy, "--repeats", str(args.repeats),
            "--core", str(core)]


def cores_of_round(number):
    """The cores the old and the new tree's timings are pinned to in round ``number``
    (-1: not pinned, where the system cannot or there is one core)."""
    try:
        cores = sorted(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return -1, -1
    if len(cores) < 2:
        return -1, -1
    return cores[number % 2], cores[(number + 1) % 2]


def one_round(args, old_tree, number):
    """Start the old tree's and the working tree's timing at once; their results."""
    # Each tree keeps numba's cache in its own folders (NUMBA_CACHE_DIR would put both in one).
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    procs = {name: subprocess.Popen(child_command(args, core), cwd=tree, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, env=env)
             for name, tree, core in zip(("old", "new"), (old_tree, ROOT), cores_of_round(number))}
    results = {}
    for name, proc in procs.items():
        out, err = proc.communicate()
        if proc.returncode != 0:
            last = (err.strip().splitlines() or ["no message"])[-1]
            raise SystemExit(f"the {name} tree's timing failed: {last}")
        results[name] = json.loads(out.strip().splitlines()[-1])
    return results


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=POT_GAMES + (SELECTION,))
    parser.add_argument("--rev", default="HEAD", help="the revision to compare with (default HEAD)")
    parser.add_argument("--rounds", type=int, default=4, help="timed rounds, both trees at once (default 4)")
    parser.add_argument("--deals", type=int, help="deals (Selection: games) a timing (default 20,000; Selection 2,000)")
    parser.add_argument("--players", type=int, help="players (default 7; Selection 1)")
    parser.add_argument("--policy", default="heuristic", help="the preset or spec at every seat (default heuristic)")
    parser.add_argument("--repeats", type=int, default=25, help="timings a round, the best kept (default 25)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--core", type=int, default=-1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.deals is None:
        args.deals = 2_000 if args.game == SELECTION else 20_000
    if args.players is None:
        args.players = 1 if args.game == SELECTION else 7
    for name in ("rounds", "deals", "players", "repeats"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    return args


def main():
    args = parse_args()
    if args.child:
        print(json.dumps(time_here(args.game, args.deals, args.players, args.policy, args.repeats, args.core)))
        return
    if (os.cpu_count() or 1) < 2:
        print("warning: one core: the two trees will share it, and the ratio means less")
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.rev}^{{commit}}"], cwd=ROOT,
                           capture_output=True, text=True)
    if found.returncode != 0:
        raise SystemExit(f"no commit {args.rev!r} in this repository")
    with tempfile.TemporaryDirectory(prefix="side_by_side_") as scratch:
        old_tree = Path(scratch) / "old"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(old_tree), args.rev], cwd=ROOT,
                       check=True)
        try:
            unit = "game" if args.game == SELECTION else "deal"
            print(f"{args.game}, {args.players} players, {args.policy}, one thread each, {args.deals:,} {unit}s, "
                  f"best of {args.repeats}: {args.rev} (old) and the working tree (new) at once")
            one_round(args, old_tree, 0)  # compiles both trees' kernels
            ratios = []
            times = {"old": [], "new": []}
            for r in range(1, args.rounds + 1):
                res = one_round(args, old_tree, r)
                old, new = res["old"], res["new"]
                times["old"].append(old["us_per_deal"])
                times["new"].append(new["us_per_deal"])
                ratios.append(new["us_per_deal"] / old["us_per_deal"])
                same = "same results" if old["digest"] == new["digest"] else "DIFFERENT results"
                print(f"round {r}: old {old['us_per_deal']:.3f} us a {unit}, new {new['us_per_deal']:.3f}: "
                      f"new / old {ratios[-1]:.3f} ({same})")
            # A core slower than the other by a factor k makes one round's ratio k times
            # too high and the next one's k times too low: the geometric mean of an even
            # number of rounds cancels it.
            # Where a core's speed jumps between two levels (a shared host), the best
            # time of each tree over all rounds is the better measure.
            geometric = math.exp(statistics.fmean(math.log(r) for r in ratios))
            print(f"new / old: geometric mean {geometric:.3f}, median {statistics.median(ratios):.3f}, "
                  f"range {min(ratios):.3f}-{max(ratios):.3f}; best times {min(times['new']):.3f} / "
                  f"{min(times['old']):.3f} us = {min(times['new']) / min(times['old']):.3f}")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old_tree)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
