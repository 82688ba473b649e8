"""One game's kernels at a git revision against the working tree's, timed in one process.

Run from the repository root:

    python benchmarks/compare_kernels.py selection_rejection            # HEAD against the working tree
    python benchmarks/compare_kernels.py do_ya --rev d75ea2f --policy always_take --players 4
    python benchmarks/compare_kernels.py selection --players 1 --deals 5000

On a shared machine one process's timings can differ from the next one's by more
than a change is worth, so a before / after comparison of two runs says little.
This script imports the revision's ``kernels/`` as a package of its own
(``git archive`` into ``benchmarks/.compare/<commit>/``, where numba's cache for it
stays), builds one set of inputs with the working tree's ``analyzer`` and plays the
same deals with both ``play_batch`` kernels in alternate rounds (the order swapped
every round), one thread. It prints each side's best and median time a deal, the
median of the per-round ratios (working tree / revision) and whether both wrote
the same result rows, bit for bit. The first run at a revision compiles its
kernels (minutes). Compare revisions whose kernels take the same inputs (rules,
policy and state layouts); otherwise the results differ, and the script says so.
The numbers are for information: no test depends on them.
"""

import argparse
import contextlib
import hashlib
import importlib
import io
import os
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import numba
import numpy as np
from numba.core import config as numba_config

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(__file__).resolve().parent / ".compare"


@contextlib.contextmanager
def numba_cache_dir(path):
    """numba's cache folder is ``path`` for the dispatchers made meanwhile.

    Each side's game module, ``play`` and batch driver are made lazily, at its first
    run; made under the other side's folder, the working tree's would be cached
    without the hash of its sources, and numba, which checks only the file of the
    function it caches, would load a ``play`` compiled before an edit to, say,
    ``kernels/policies.py``."""
    saved = numba_config.CACHE_DIR
    numba_config.CACHE_DIR = path
    try:
        yield
    finally:
        numba_config.CACHE_DIR = saved


def kernels_at(rev):
    """The ``kernels`` package of commit ``rev``, imported as ``kernels_<commit>``."""
    sha = subprocess.run(["git", "rev-parse", "--short=10", rev], cwd=ROOT, capture_output=True, text=True)
    if sha.returncode != 0:
        sys.exit(f"compare_kernels: no such revision: {rev}")
    sha = sha.stdout.strip()
    name = f"kernels_{sha}"
    home = CACHE / sha
    if not (home / name).exists():
        archive = subprocess.run(["git", "archive", sha, "kernels"], cwd=ROOT, capture_output=True, check=True)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(home / "unpacked", filter="data")
        (home / "unpacked" / "kernels").rename(home / name)  # relative imports only: any name works
    sys.path.insert(0, str(home))
    # numba reads CACHE_DIR as each dispatcher is made. The revision's package
    # (from d544ebb on) points it at a folder named by its sources' hash; an older
    # one gets a folder of its own here. The caller's setting is put back.
    with numba_cache_dir(str(home / "numba-cache")):
        engine = importlib.import_module(f"{name}.engine")
        evaluate = importlib.import_module(f"{name}.evaluate")
        rev_dir = numba_config.CACHE_DIR
    return sha, engine, evaluate, rev_dir


def game_kernels(engine, game):
    """Game ``game``'s module of ``engine``'s package: ``game_module`` imports it (from
    1572ff6 on); older revisions hold the modules in ``GAMES``."""
    if hasattr(engine, "game_module"):
        return engine.game_module(game)
    return engine.GAMES[game]


def runner(engine, evaluate, inp, start, deals, seed):
    """A no-argument call of ``engine``'s ``play_batch`` over ``deals`` deals, and its result rows."""
    out = np.zeros((deals, game_kernels(engine, inp.game).RESULT.size), np.float64)
    tables = evaluate.eval_tables()

    def run():
        engine.play_batch(inp.game, tables, inp.rules, inp.params, inp.idata, inp.fdata, start, seed, 0, deals, True,
                          out)

    return run, out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a variant name or alias (selection_rejection, sr, do_ya, selection, ...)")
    parser.add_argument("--rev", default="HEAD", help="the revision to compare with (default HEAD)")
    parser.add_argument("--policy", default="heuristic", help="the preset at every seat (default heuristic)")
    parser.add_argument("--players", type=int, default=None, help="default: the variant's; Selection 1")
    parser.add_argument("--deals", type=int, default=None, help="deals a round (default 50,000; Selection 5,000)")
    parser.add_argument("--rounds", type=int, default=30, help="alternate rounds (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from analyzer.engine import new_state
    from analyzer.errors import WantitError
    from analyzer.variants import get_variant

    try:
        v = get_variant(args.game)
    except WantitError as e:
        parser.error(str(e))
    selection = v.kind == "scored"
    players = args.players if args.players is not None else (1 if selection else v.default_players)
    deals = args.deals or (5_000 if selection else 50_000)
    if deals < 1 or args.rounds < 2:
        parser.error("--deals must be at least 1 and --rounds at least 2")
    numba.set_num_threads(1)
    import kernels.engine as new_engine
    import kernels.evaluate as new_evaluate

    tree_dir = numba_config.CACHE_DIR  # the working tree's, named by its sources' hash
    if os.environ.get("NUMBA_CACHE_DIR"):
        print("compare_kernels: NUMBA_CACHE_DIR is set, so the working tree's cache is not named by its "
              "sources' hash: after an edit outside a game's own file numba may load its old play", file=sys.stderr)
    sha, old_engine, old_evaluate, rev_dir = kernels_at(args.rev)

    try:
        inp = v.inputs(players, policies=args.policy)
    except WantitError as e:
        parser.error(str(e))
    start = new_state(inp, dealer=0)
    sides = {}
    for side, engine, evaluate, cache in (("rev", old_engine, old_evaluate, rev_dir),
                                          ("tree", new_engine, new_evaluate, tree_dir)):
        print(f"compiling or loading the {'kernels at ' + sha if side == 'rev' else 'working tree'}...", flush=True)
        with numba_cache_dir(cache):
            run, out = runner(engine, evaluate, inp, start, deals, args.seed)
            run()  # compile, or load from numba's cache
        sides[side] = (run, out)
    times = {"rev": [], "tree": []}
    for r in range(args.rounds):
        for side in ("rev", "tree") if r % 2 == 0 else ("tree", "rev"):
            began = time.perf_counter()
            sides[side][0]()
            times[side].append((time.perf_counter() - began) / deals * 1e6)
    rev, tree = np.array(times["rev"]), np.array(times["tree"])
    same = hashlib.sha256(sides["rev"][1].tobytes()).digest() == hashlib.sha256(sides["tree"][1].tobytes()).digest()
    what = "games" if selection else "deals"
    seats = f"{inp.players} player{'s' if inp.players != 1 else ''}"
    print(f"{v.name}, {seats}, {args.policy}, {deals:,} {what} a round, {args.rounds} rounds, "
          f"one thread (us a {what[:-1]}):")
    print(f"  {sha:<14} best {rev.min():8.3f}  median {np.median(rev):8.3f}")
    print(f"  {'working tree':<14} best {tree.min():8.3f}  median {np.median(tree):8.3f}")
    print(f"  working tree / {sha}: best {tree.min() / rev.min():.3f}, median of the rounds' ratios "
          f"{np.median(tree / rev):.3f}")
    print(f"  the same results: {'yes' if same else 'NO (the result rows differ)'}")


if __name__ == "__main__":
    main()
