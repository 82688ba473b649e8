"""Seeded runs saved from the engine before the table-state rewrite (issue 8) come out
identical from the current one: the same deals, the same decisions, the same totals.

The files in tests/golden/runs/ were written by the earlier engine (one JSON per run:
its arguments and its tables); nothing here regenerates them.
"""

import json
from pathlib import Path

import pandas as pd
import pytest

from analyzer.selection import simulate_selection
from analyzer.simulate import simulate

RUNS = Path(__file__).parent / "golden" / "runs"


def _load(path):
    saved = json.loads(path.read_text())
    kwargs = saved["kwargs"]
    if isinstance(kwargs.get("policies"), dict):
        kwargs["policies"] = {(int(k) if k.isdigit() else k): v for k, v in kwargs["policies"].items()}
    # The runs were saved when the default field was the heuristic preset: a seat they
    # left to the default plays it still (the default field is now the tuned preset).
    policies = kwargs.get("policies")
    if policies is None:
        kwargs["policies"] = "heuristic"
    elif isinstance(policies, dict) and not ({"preset", "all"} & set(policies)):
        kwargs["policies"] = {"all": "heuristic", **policies}
    return saved, kwargs


def _same(frame, saved):
    expected = pd.DataFrame(saved)
    pd.testing.assert_frame_equal(frame[list(expected.columns)].reset_index(drop=True), expected,
                                  check_dtype=False, rtol=0, atol=1e-12)


@pytest.mark.parametrize("path", sorted(p for p in RUNS.glob("*.json") if not p.name.startswith("selection_4")
                                        and not p.name.startswith("selection_colours")), ids=lambda p: p.stem)
def test_pot_game_run_is_unchanged(path):
    saved, kwargs = _load(path)
    r = simulate(**kwargs)
    _same(r.seats, saved["seats"])
    _same(r.categories, saved["categories"])


@pytest.mark.parametrize("path", sorted(RUNS.glob("selection_[4c]*.json")), ids=lambda p: p.stem)
def test_selection_run_is_unchanged(path):
    saved, kwargs = _load(path)
    r = simulate_selection(**kwargs)
    _same(r.seats, saved["seats"])
    _same(r.slots, saved["slots"])
    _same(r.totals, saved["totals"])
