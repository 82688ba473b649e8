"""Exhaustive counts over every 5-card and 7-card hand against published numbers
(RULES.md §6: F1-F4 for high, F6-F7b for ace-to-five low).

The enumerations run in numba over the kernels' evaluators; the expected numbers
come from the literature, not from this code.
"""

import numpy as np
import pytest
from numba import njit

from analyzer import Category, hand_category
from kernels.evaluate import _high7, _low7, eval_tables, high_hashed, high_mask, low_hashed, low_mask
from kernels.cards import card_bit
from kernels.ranking import CAT_SHIFT, LOW_NO_PAIR, low_qualifier_threshold

# F1 / F2, in Category order HIGH_CARD .. STRAIGHT_FLUSH.
F1 = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
F2 = [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584]
# F3: distinct five-card values per category (same order).
F3 = [1_277, 2_860, 858, 858, 10, 1_277, 156, 156, 10]
# F6 / F7: no-pair lows by top card 5..K (low values 5..13).
F6 = [1_024, 5_120, 15_360, 35_840, 71_680, 129_024, 215_040, 337_920, 506_880]
F7 = [781_824, 3_151_360, 7_426_560, 13_171_200, 19_174_400, 23_675_904, 24_837_120,
      21_457_920, 13_939_200]


@njit(cache=True)
def _enumerate5(t):
    """Every 5-card hand through both evaluator paths: hands per high and per low
    strength, and the number of hands where the two paths disagree."""
    high_counts = np.zeros(1 << 24, np.int32)
    low_counts = np.zeros(1 << 24, np.int32)
    mismatches = 0
    codes = np.empty(5, np.uint8)
    n = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        codes[0] = a
                        codes[1] = b
                        codes[2] = c
                        codes[3] = d
                        codes[4] = e
                        h = high_hashed(t, codes, 5)
                        lo = low_hashed(t, codes, 5)
                        mask = card_bit(a) | card_bit(b) | card_bit(c) | card_bit(d) | card_bit(e)
                        if high_mask(t, mask, 0, 0, False) != h or low_mask(mask, 0) != lo:
                            mismatches += 1
                        high_counts[h] += 1
                        low_counts[lo] += 1
                        n += 1
    return n, high_counts, low_counts, mismatches


@njit(cache=True)
def _enumerate7(t):
    """Every 7-card hand through the batch kernels' seven-card tables: high
    strengths seen, low strengths seen, counts, and the number of hands where the
    general tables (``high_hashed`` / ``low_hashed``) disagree."""
    halves = t.view(np.uint16)
    seen_high = np.zeros(1 << 24, np.bool_)
    low_counts = np.zeros(1 << 24, np.int64)
    slot_counts = np.zeros(16, np.int64)
    codes = np.empty(7, np.uint8)
    n = 0
    mismatches = 0
    for a in range(52):
        codes[0] = a
        for b in range(a + 1, 52):
            codes[1] = b
            for c in range(b + 1, 52):
                codes[2] = c
                for d in range(c + 1, 52):
                    codes[3] = d
                    for e in range(d + 1, 52):
                        codes[4] = e
                        for f in range(e + 1, 52):
                            codes[5] = f
                            for g in range(f + 1, 52):
                                codes[6] = g
                                h = _high7(t, halves, a, b, c, d, e, f, g)
                                lo = _low7(t, halves, a, b, c, d, e, f, g)
                                if h != high_hashed(t, codes, 7) or lo != low_hashed(t, codes, 7):
                                    mismatches += 1
                                seen_high[h] = True
                                slot_counts[h >> CAT_SHIFT] += 1
                                low_counts[lo] += 1
                                n += 1
    return n, seen_high, low_counts, slot_counts, mismatches


@pytest.fixture(scope="module")
def tables():
    return eval_tables()


@pytest.fixture(scope="module")
def five(tables):
    return _enumerate5(tables)


@pytest.fixture(scope="module")
def seven(tables):
    return _enumerate7(tables)


def _by_category(strengths, weights=None):
    cats = hand_category(strengths)
    return np.bincount(cats, weights=weights, minlength=10)[:9].astype(np.int64).tolist()


def test_f3_distinct_five_card_values(five):
    n, high_counts, _, mismatches = five
    assert n == 2_598_960
    assert mismatches == 0, "hashed and mask paths disagree on some 5-card hands"
    values = np.flatnonzero(high_counts)
    assert len(values) == 7_462
    assert _by_category(values) == F3


def test_f1_category_hand_counts(five):
    high_counts = five[1]
    values = np.flatnonzero(high_counts)
    slot_counts = np.bincount(values >> CAT_SHIFT, weights=high_counts[values], minlength=16)
    assert _slot_counts_by_category(slot_counts) == F1
    assert sum(F1) == 2_598_960


def test_royal_flushes(tables):
    from analyzer import evaluate_high

    royal = evaluate_high("As Ks Qs Js Ts")
    assert hand_category(royal) == Category.STRAIGHT_FLUSH
    assert royal == evaluate_high("Ah Kh Qh Jh Th") > evaluate_high("Kc Qc Jc Tc 9c")


@pytest.mark.slow
def test_f2_seven_card_categories(seven):
    assert seven[4] == 0  # the seven-card and the general tables agree on every hand
    by_cat = _slot_counts_by_category(seven[3])
    assert by_cat == F2
    assert sum(by_cat) == 133_784_560


@pytest.mark.slow
def test_f4_distinct_seven_card_values(seven):
    n, seen_high, _, _, _ = seven
    assert n == 133_784_560
    assert np.count_nonzero(seen_high) == 4_824


def _slot_counts_by_category(slot_counts):
    """Hand counts per strength slot -> per Category; no five of a kind without wilds."""
    by_cat = [0] * 10
    for slot in range(1, 13):
        by_cat[hand_category(slot << CAT_SHIFT)] += int(slot_counts[slot])
    assert by_cat[Category.FIVE_OF_A_KIND] == 0
    return by_cat[:9]


def _low_top(strengths):
    """Top card (low value 5..13) of no-pair low strengths."""
    return 14 - ((np.asarray(strengths) >> 16) & 0xF)


def test_f6_f7b_five_card_lows(five):
    low_counts = five[2]
    values = np.flatnonzero(low_counts)
    no_pair = values[(values >> CAT_SHIFT) == LOW_NO_PAIR]
    assert len(no_pair) == 1_287  # F7b: C(13, 5)
    assert len(values) == 6_175  # F7b: every five-card low value, paired included
    q8 = low_qualifier_threshold(8)
    assert np.count_nonzero(no_pair >= q8) == 56  # F7b: C(8, 5)
    by_top = np.bincount(_low_top(no_pair) - 5, weights=low_counts[no_pair], minlength=9).astype(np.int64)
    assert by_top.tolist() == F6
    assert low_counts[values[values >= q8]].sum() == 57_344  # F7a
    assert sum(F6) == 1_317_888


@pytest.mark.slow
def test_f7_seven_card_lows(seven):
    n, _, low_counts, _, _ = seven
    values = np.flatnonzero(low_counts)
    counts = low_counts[values]
    no_pair = (values >> CAT_SHIFT) == LOW_NO_PAIR
    tops = _low_top(values[no_pair])
    by_top = np.bincount(tops - 5, weights=counts[no_pair], minlength=9).astype(np.int64)
    assert by_top.tolist() == F7
    assert counts[no_pair].sum() == 127_615_488
    assert counts[~no_pair].sum() == 6_169_072
    assert counts[values >= low_qualifier_threshold(8)].sum() == 24_530_944  # F7a
