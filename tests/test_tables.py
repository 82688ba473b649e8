"""The shipped lookup tables: current, compact, and keyed as designed."""

import numpy as np

from kernels.tables import (
    FLUSH_CHECK,
    INITIAL_KEY,
    RANK_MULTIPLIERS,
    build_tables,
    load_tables,
    rank_multisets,
)


def test_shipped_tables_match_a_fresh_build():
    shipped = load_tables()
    fresh = build_tables()
    assert shipped.keys() == fresh.keys()
    for name in fresh:
        assert np.array_equal(shipped[name], fresh[name]), f"{name} is stale: run python -m kernels.tables"


def test_rank_keys_are_unique_for_every_multiset_of_up_to_seven_cards():
    multisets = rank_multisets()
    assert len(multisets) == 76_155  # sum over n<=7 of rank multisets with <=4 per rank
    keys = multisets @ RANK_MULTIPLIERS.astype(np.int64)
    assert len(np.unique(keys)) == len(keys)
    assert keys.max() < 2**32


def test_flush_check_fires_at_exactly_five_of_a_suit():
    keys = load_tables()["card_keys"]
    hearts = [4 * r + 2 for r in range(13)]
    for n in range(1, 8):
        key = INITIAL_KEY + keys[hearts[:n]].sum(dtype=np.uint64)
        assert bool(key & FLUSH_CHECK) == (n >= 5)


def test_tables_fit_in_l2():
    t = load_tables()
    high_path = t["offsets"].nbytes + t["high"].nbytes + t["flush"].nbytes + t["card_keys"].nbytes
    low_path = t["offsets"].nbytes + t["low"].nbytes + t["card_keys"].nbytes
    assert high_path < 1 << 20 and low_path < 1 << 20
    # The batch kernels' seven-card tables: what a 7-card hand touches is well
    # under the general tables' (353 KB against 670 KB when they were built).
    seven_path = t["seven_offsets"].nbytes + t["seven_high"].nbytes + t["flush"].nbytes + t["card_keys"].nbytes
    assert seven_path < 0.6 * high_path
    assert t["seven_offsets"].dtype == np.uint16 and t["seven_high"].shape == t["seven_low"].shape
