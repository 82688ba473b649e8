"""Golden transcripts: seeded, traced deals (Selection: games) of every variant,
told by the registry's replay (what ``wantit deal VARIANT --trace`` prints) and
diffed line by line.

A change to a rule, a policy or the narration shows up here first. After checking a
change by eye, regenerate with ``WANTIT_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py``.
The two Selection transcripts were written by the engine before the table-state
rewrite (issue 8).
"""

import os
from pathlib import Path

import pytest

from analyzer.variants import VARIANTS, get_variant

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "selection_rejection_seed7": dict(variant="selection_rejection", players=5, seed=7, deal=0),
    "selection_rejection_fresh_card_seed12": dict(variant="selection_rejection", players=7, seed=12, deal=3,
                                                  rules={"last_player_rule": "fresh_card", "chip_mode": "integer"}),
    "do_ya_seed3": dict(variant="do_ya", players=4, seed=3, deal=0),
    "anaconda_seed2": dict(variant="anaconda", players=5, seed=2, deal=0),
    "anaconda_howdy_doody_left_right_left_seed4": dict(
        variant="anaconda", players=4, seed=4, deal=2,
        rules={"wild": "howdy_doody", "pass_schedule": "left-right-left", "split_mode": "high_and_right_neighbour"}),
    "do_ya_hilo_seed5": dict(variant="do_ya", players=6, seed=5, deal=1,
                             rules={"split_mode": "declare", "wild_mode": "rank"}),
    "train_wreck_seed3": dict(variant="train_wreck", players=5, seed=3, deal=0),
    "train_wreck_specials_seed112": dict(variant="train_wreck", players=5, seed=112, deal=1),
    "train_wreck_always_pay_community_seed32": dict(variant="train_wreck", players=7, seed=32, deal=0,
                                                    policies="always_pay"),
    "selection_seed7": dict(variant="selection", players=3, seed=7, deal=0),
    "selection_colours_in_order_seed4": dict(variant="selection", players=2, seed=4, deal=1, deck="colours",
                                             rules={"reshuffle": "in_order", "carry_hand": True,
                                                    "ace_is_numerical_one": True}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_transcript(name):
    case = dict(CASES[name])
    # The transcripts were made when the default field was the heuristic preset.
    case.setdefault("policies", "heuristic")
    text = get_variant(case.pop("variant")).replay_text(**case) + "\n"
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("WANTIT_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text.splitlines() == path.read_text().splitlines()


def test_every_variant_has_a_golden_transcript():
    assert {case["variant"] for case in CASES.values()} == set(VARIANTS)
