"""Suite-wide set-up. The bounds-checked run (``tests/test_indexing.py``) compiles
every game again in a process of its own, the suite's slowest step; it starts as
soon as the tests are collected, when any test asks for it, so that it compiles on
another core while the other tests run."""

from tests.test_indexing import BOUNDS_RUN, BoundsCheckedRun


def pytest_collection_modifyitems(config, items):
    if any("bounds_checked_run" in getattr(item, "fixturenames", ()) for item in items):
        config.stash[BOUNDS_RUN] = BoundsCheckedRun()


def pytest_unconfigure(config):
    run = config.stash.get(BOUNDS_RUN, None)
    if run is not None:
        run.close()
