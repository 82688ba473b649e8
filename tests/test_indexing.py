"""The kernels index arrays without numba's negative-index wrap-around, and nothing
else loses it (``kernels.indexing``); the games then play within their arrays under
numba's bounds checks, in a process whose first act compiles every game's play from
an empty cache."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from numba import njit, types

import kernels  # noqa: F401  (drops the wrap-around, as any import of a kernel does)
from kernels.games.common import mask_at
from kernels.indexing import WRAPAROUND_DROPPED

SIG = (types.int64[::1], types.int64)


def _mask_at_outside_kernels(st, i):
    """``kernels.games.common.mask_at``'s body, in a module outside the package."""
    return np.uint64(st[i])


def _wraps(dispatcher):
    """Whether the compiled function tests its index for a negative value."""
    dispatcher.compile(SIG)
    return "icmp slt i64 %arg.i, 0" in dispatcher.inspect_llvm(SIG)


def test_a_kernel_indexes_without_the_wrap_around_and_other_code_keeps_it():
    assert WRAPAROUND_DROPPED
    assert not _wraps(njit(mask_at.py_func))
    outside = njit(_mask_at_outside_kernels)
    assert _wraps(outside)
    st = np.arange(10, dtype=np.int64)
    assert outside(st, -1) == 9 and outside(st, -10) == 0  # Python's meaning, outside the kernels
    assert mask_at(st, 9) == 9 and mask_at(st, 0) == 0


# First what a user's first command does: each game's play compiled before anything
# else, from an empty numba cache. Then every game on every preset, at its fewest
# players and at seven (Selection: one and four), a few rules options that take other
# paths, and an equity query from each example table (unknown cards dealt, passes
# replayed; --condition's rejection where the table has choices seen): played with
# numba's bounds checks on, in a process of its own with a cache of its own. One
# process for both, since each compiles every game (about 4.5 minutes on the AMD machine).
_BOUNDS_SCRIPT = """
from kernels import engine as E
for g in range(len(E.GAMES)):
    E.game_play(g)
print("compiled first", flush=True)

from pathlib import Path
from analyzer.console import main
from analyzer.selection import simulate_selection
from analyzer.simulate import simulate
from analyzer.variants import get_variant

options = {"selection_rejection": [{"max_rejections": 1}, {"last_player_rule": "fresh_card"}],
           "do_ya": [{}], "anaconda": [{"wild": "howdy_doody", "hand_size": 6}],
           "train_wreck": [{}]}
for game, extra in options.items():
    v = get_variant(game)
    for preset in v.presets:
        for players in (v.min_players, 7):
            simulate(game, players=players, policies=preset, deals=150, seed=3, threads=1)
    for rules in extra:
        simulate(game, players=5, policies="heuristic", rules=rules, deals=150, seed=4, threads=1)
for preset in get_variant("selection").presets:
    for players in (1, 4):
        simulate_selection(players=players, policies=preset, games=6, seed=3, threads=1)
for path in sorted(Path("examples").glob("*.toml")):
    if path.stem in options or path.stem == "selection":
        conditioned = path.stem in ("anaconda", "do_ya")  # the example tables with choices seen to condition on
        for more in ([], ["--condition"]) if conditioned else ([],):
            try:
                main(["equity", path.stem, "--state", str(path), "--max-deals", "2000", "--threads", "1",
                      "--format", "json", *more])
            except SystemExit as exc:  # Do Ya's example history: no deal agrees under the default field
                assert path.stem == "do_ya" and more and exc.code == 2, (path.stem, more, exc.code)
print("within bounds")
"""


class BoundsCheckedRun:
    """``_BOUNDS_SCRIPT`` running in a process of its own, with an empty numba cache
    in a temporary folder. Its output goes to files there: a pipe nobody reads while
    other tests run could fill and stall it."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="wantit-bounds-"))
        env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(self.folder / "numba"))
        with open(self.folder / "stdout", "w") as out, open(self.folder / "stderr", "w") as err:
            self.process = subprocess.Popen([sys.executable, "-c", _BOUNDS_SCRIPT], env=env, stdout=out, stderr=err,
                                            cwd=Path(__file__).resolve().parents[1])

    def finish(self, timeout=1800):
        """Wait for the run: ``(returncode, stdout, stderr)``."""
        code = self.process.wait(timeout=timeout)
        return code, (self.folder / "stdout").read_text(), (self.folder / "stderr").read_text()

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


# Where ``conftest.py`` keeps the run it starts as the tests are collected, so that it
# compiles on another core while the other tests run.
BOUNDS_RUN = pytest.StashKey[BoundsCheckedRun]()


@pytest.fixture(scope="module")
def bounds_checked_run(request):
    """The bounds-checked run's ``(returncode, stdout, stderr)``: the one started at
    collection, or one started now."""
    started = request.config.stash.get(BOUNDS_RUN, None)
    run = started or BoundsCheckedRun()
    try:
        yield run.finish()
    finally:
        if started is None:
            run.close()


def test_every_game_compiles_first_thing_from_a_cold_cache(bounds_checked_run):
    """The count-free plays (``kernels.engine.COUNT_FREE``) compile the helpers they
    reach without reference counting; a helper that needed counting would fail to
    compile here, where each play is the first thing compiled."""
    _, stdout, stderr = bounds_checked_run
    lines = stdout.splitlines()
    assert lines and lines[0] == "compiled first", stderr[-3000:]


def test_the_games_index_within_their_arrays_with_numba_s_bounds_checks_on(bounds_checked_run):
    """With the wrap-around gone, a negative index in a kernel would read outside
    its array unnoticed; numba's bounds checks (``NUMBA_BOUNDSCHECK=1``) raise
    ``IndexError`` for it and for an index past the end."""
    code, stdout, stderr = bounds_checked_run
    assert code == 0, stderr[-3000:]
    assert stdout.rstrip().endswith("within bounds")
