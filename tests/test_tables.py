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
    # The policies' short table of hands of up to six cards: 128 KB with its offsets.
    short_path = t["short_offsets"].nbytes + t["short"].nbytes + t["flush"].nbytes + t["card_keys"].nbytes
    assert short_path < 0.25 * high_path


def _cards_of(counts):
    """A card mask of a rank multiset, its cards' suits in turn (no suit holds five
    of up to seven cards)."""
    cards, suit = 0, 0
    for rank, c in enumerate(counts):
        for _ in range(c):
            cards |= 1 << (16 * suit + rank)
            suit = (suit + 1) % 4
    return cards


def _entry(t, high_mask, counts):
    """``S << 2 | D`` of a rank multiset: S its high strength's bits from 12 up by the
    rank-set evaluator (``high_mask``, no table), D the most of its ranks in any five
    in a row, counted here, less two (at least 0)."""
    ranks = [r for r in range(13) if counts[r]]
    lows = set(r + 1 for r in ranks) | ({0} if 12 in ranks else set())
    run = max(len(lows & set(range(low, low + 5))) for low in range(10))
    return int(high_mask(t, np.uint64(_cards_of(counts)), 0, 0, False)) >> 12 << 2 | max(0, run - 2)


def test_one_more_rows_hold_each_hand_with_one_more_card():
    """Every rank multiset of up to five cards: its row's entry for each rank is the
    hand with one more card of that rank, and its own entry the hand itself, each
    ``S << 2 | D`` with S the high strength's bits from 12 up by the rank-set
    evaluator (``high_mask``, no table) and D the most of its ranks in any five in a
    row, counted here, less two (at least 0); a rank held four times is 0."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import high_mask, mask_key, one_more_row
    from kernels.tables import ONE_MORE_CARDS, ONE_MORE_OWN, ONE_MORE_WIDTH

    t = _tables()
    halves = t.view(np.uint16)

    def expected(counts):
        return _entry(t, high_mask, counts), _cards_of(counts)

    multisets = rank_multisets(ONE_MORE_CARDS)
    assert len(multisets) == 1 + 13 + 91 + 455 + 1820 + 6175
    for counts in multisets.tolist():
        own, cards = expected(counts)
        row = one_more_row(halves, mask_key(t, np.uint64(cards)))
        entries = halves[row:row + ONE_MORE_WIDTH].tolist()
        assert entries[ONE_MORE_OWN] == own, counts
        for rank in range(13):
            more = counts[:rank] + [counts[rank] + 1] + counts[rank + 1:]
            assert entries[rank] == (expected(more)[0] if counts[rank] < 4 else 0), (counts, rank)


def test_the_short_table_holds_each_hand_of_up_to_six_cards():
    """Every rank multiset of up to six cards: its entry is ``S << 2 | D``, as a
    one-more entry's."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import high_mask, mask_key, short_entry
    from kernels.tables import SHORT_CARDS

    t = _tables()
    halves = t.view(np.uint16)
    multisets = rank_multisets(SHORT_CARDS)
    assert len(multisets) == 1 + 13 + 91 + 455 + 1820 + 6175 + 18395
    for counts in multisets.tolist():
        assert short_entry(halves, mask_key(t, np.uint64(_cards_of(counts)))) == _entry(t, high_mask, counts), counts
