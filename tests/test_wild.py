"""Wild cards against the brute-force oracle of ``tests/oracles.py`` (every
substitution tried), for each five-of-a-kind position, high and low, on random
hands of 5 to 7 cards with 1 to 4 wild cards; plus worked examples of RULES.md §0.4-0.5.
"""

import numpy as np
import pytest

from analyzer import Category, describe_high, describe_low, evaluate_high, evaluate_low, hand_category
from tests.oracles import brute_high, brute_low, card_string, same_order

POSITIONS = ["above_straight_flush", "below_straight_flush", "above_sf_below_natural_royal"]
# Hands per (cards, wilds): the brute force costs 52^w substitutions (fewer by symmetry).
SAMPLES = {1: 300, 2: 100, 3: 12, 4: 4}


def wild_hands(n_cards, w, count, seed):
    """Random hands whose last ``w`` places are wild. Half are dealt from a dense
    sub-deck (T-A and 2-5 of two suits) so straight flushes, five of a kind, wheels
    and natural royals come up often."""
    rng = np.random.default_rng(seed)
    dense = np.array([4 * r + s for r in (0, 1, 2, 3, 8, 9, 10, 11, 12) for s in (2, 3)], dtype=np.uint8)
    rows = []
    for i in range(count):
        deck = dense if i % 2 else np.arange(52, dtype=np.uint8)
        naturals = rng.choice(deck, n_cards - w, replace=False)
        rest = np.setdiff1d(np.arange(52, dtype=np.uint8), naturals)
        wilds = rng.choice(rest, w, replace=False)
        rows.append(np.concatenate([naturals, wilds]))
    hands = np.array(rows, dtype=np.uint8)
    flags = np.zeros(hands.shape, dtype=bool)
    flags[:, n_cards - w:] = True
    return hands, flags


CASES = [(n, w) for n in (5, 6, 7) for w in (1, 2, 3, 4) if not (w == 4 and n == 7)]


@pytest.mark.slow
@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("n_cards,w", CASES)
def test_high_matches_brute_force(n_cards, w, position):
    code = POSITIONS.index(position)
    hands, flags = wild_hands(n_cards, w, SAMPLES[w], seed=100 * n_cards + w)
    mine = evaluate_high(hands, wild=flags, five_kind=position)
    theirs = [brute_high(row[: n_cards - w], w, code) for row in hands]
    ok, pair = same_order(mine, theirs)
    assert ok, _explain(hands, flags, mine, pair, describe_high)


@pytest.mark.slow
@pytest.mark.parametrize("n_cards,w", CASES)
def test_double_ace_flush_option_matches_brute_force(n_cards, w):
    hands, flags = wild_hands(n_cards, w, SAMPLES[w], seed=7 * n_cards + w)
    mine = evaluate_high(hands, wild=flags, wild_may_duplicate=True)
    theirs = [brute_high(row[: n_cards - w], w, 0, allow_duplicates=True) for row in hands]
    ok, pair = same_order(mine, theirs)
    assert ok, _explain(hands, flags, mine, pair, describe_high)


@pytest.mark.parametrize("n_cards,w", CASES)
def test_low_matches_brute_force(n_cards, w):
    hands, flags = wild_hands(n_cards, w, 4 * SAMPLES[w], seed=31 * n_cards + w)
    mine = evaluate_low(hands, wild=flags)
    keys = [brute_low(row[: n_cards - w], w) for row in hands]
    # Brute-force keys are smaller when better: turn them into larger-is-better ranks.
    order = {k: i for i, k in enumerate(sorted(set(keys), reverse=True))}
    ok, pair = same_order(mine, [order[k] for k in keys])
    assert ok, _explain(hands, flags, mine, pair, describe_low)


def _explain(hands, flags, mine, pair, describe):
    i, j = pair
    def one(k):
        return f"{card_string(hands[k][~flags[k]])} + {flags[k].sum()} wild: {describe(mine[k])}"
    return f"ordered unlike the brute force: {one(i)} / {one(j)}"


# Worked examples (RULES.md §0.4, §0.5, Do Ya and Howdy Doody).


def test_four_naturals_and_a_wild_make_at_least_a_pair():
    assert hand_category(evaluate_high("2c 7d 9h Js 3c", wild="3c")) == Category.PAIR  # §0.4.5


def test_five_of_a_kind_positions():
    five = "9c 9d 9h 9s 3c"
    sf = "Kh Qh Jh Th 9h"
    above = evaluate_high(five, wild="3c")
    assert describe_high(above) == "Five of a kind, nines"
    assert above > evaluate_high(sf) > evaluate_high(five, wild="3c", five_kind="below_straight_flush")
    royal = "Ah Kh Qh Jh Th"
    mode = "above_sf_below_natural_royal"
    assert evaluate_high(royal, five_kind=mode) > evaluate_high(five, wild="3c", five_kind=mode)
    wild_royal = evaluate_high("Ah Kh Qh Jh 3c", wild="3c", five_kind=mode)
    assert evaluate_high(five, wild="3c", five_kind=mode) > wild_royal > evaluate_high(sf, five_kind=mode)


def test_no_double_ace_flush_by_default():
    hand = "Ah 9h 7h 4h 3c"
    default = evaluate_high(hand, wild="3c")
    assert describe_high(default) == "Flush, A-K-9-7-4"
    double = evaluate_high(hand, wild="3c", wild_may_duplicate=True)
    assert describe_high(double) == "Flush, A-A-9-7-4"
    assert double > default


def test_wild_in_low_takes_the_best_missing_rank_and_never_undoes_a_pair():
    assert describe_low(evaluate_low("Kc 7d 4h 2s 3c", wild="Kc")) == "7-4-3-2-A"
    # Naturals 4-4-2-A plus one wild: the wild becomes a 3, the pair stays.
    assert describe_low(evaluate_low("4c 4d 2h As Kd", wild="Kd")) == "4-4-3-2-A (pair)"
    # Howdy Doody: kings are wild for low.
    assert describe_low(evaluate_low("Kc Kd 9h 3s 2c", wild_ranks="K")) == "9-4-3-2-A"
    assert evaluate_low("Kc Kd 9h 6s 2c", wild_ranks="K", qualifier=8) == 0


def test_wild_ranks_for_high_threes():
    s = evaluate_high("3c 3d As Ad Kc", wild_ranks="3")
    assert describe_high(s) == "Four of a kind, aces, king kicker"


def test_one_wild_hand_and_the_hand_with_a_card_are_high_mask_s_strengths():
    # The offer policies value a card for a hand with one wild (Do Ya's hole card)
    # from the parts of high_mask the card leaves alone. Each pair must be high_mask's
    # own two strengths: random hands of 0-5 natural cards, every card not in the
    # hand added. A third come from the whole deck, a third from T-A and 2-5 of two
    # suits (straight flushes, wheels), a third from three ranks in every suit
    # (four of a kind with the card: the wild's five of a kind). The parts shared by
    # several cards (high_one_wild_parts, Do Ya's pool) must give the same two.
    from kernels.evaluate import (
        eval_tables, high_mask, high_one_wild_and_with_card, high_one_wild_parts, high_one_wild_with_card,
    )
    from kernels.ranking import CAT_SHIFT, FIVE_KIND_ABOVE_SF, STRAIGHT_FLUSH

    t = eval_tables()
    rng = np.random.default_rng(11)
    decks = [np.arange(52),
             np.array([4 * r + s for r in (0, 1, 2, 3, 8, 9, 10, 11, 12) for s in (2, 3)]),
             np.array([4 * r + s for r in (4, 7, 12) for s in range(4)])]
    slots = set()
    for i in range(600):
        hand = rng.choice(decks[i % 3], rng.integers(0, 6), replace=False)
        natural = np.uint64(sum(1 << (16 * (c % 4) + c // 4) for c in hand))
        parts = high_one_wild_parts(t, natural)
        assert parts[4] == high_mask(t, natural, 1, 0, False), hand
        for c in sorted(set(range(52)) - set(hand.tolist())):
            b = np.uint64(1 << (16 * (c % 4) + c // 4))
            expected = (high_mask(t, natural, 1, 0, False), high_mask(t, natural | b, 1, 0, False))
            assert high_one_wild_and_with_card(t, natural, b) == expected, (hand, c)
            assert high_one_wild_with_card(t, natural, parts, b) == expected[1], (hand, c)
            slots.add(expected[1] >> CAT_SHIFT)
    assert {FIVE_KIND_ABOVE_SF, STRAIGHT_FLUSH} <= slots


def test_a_do_ya_showdown_hand_s_high_and_low_from_one_key_are_high_mask_s_and_low_mask_s():
    # Do Ya's showdown on the default rules reads a hand's high and low (the wild as
    # the lowest rank missing) from one rank key: both must be the general
    # evaluators' integers. Hands of 0-5 natural cards from the whole deck, from low
    # cards only (every low pattern: pairs, trips, a wheel with the wild), and from
    # three ranks in every suit (the wild's five of a kind).
    from kernels.evaluate import eval_tables, high_mask, low_mask, one_wild_high_and_low
    from kernels.ranking import CAT_SHIFT, LOW_NO_PAIR

    t = eval_tables()
    rng = np.random.default_rng(12)
    decks = [np.arange(52), np.array([4 * r + s for r in (12, 0, 1, 2, 3) for s in range(4)]),
             np.array([4 * r + s for r in (4, 7, 12) for s in range(4)])]
    patterns = set()
    for i in range(6000):
        hand = rng.choice(decks[i % 3], rng.integers(0, 6), replace=False)
        natural = np.uint64(sum(1 << (16 * (c % 4) + c // 4) for c in hand))
        high, low = one_wild_high_and_low(t, natural)
        assert (high, low) == (high_mask(t, natural, 1, 0, False), low_mask(natural, 1)), hand
        patterns.add(low >> CAT_SHIFT if low else -1)
    assert {-1, LOW_NO_PAIR} < patterns and len(patterns) >= 5


def test_one_and_two_wilds_by_table_are_every_rank_tried_on_every_rank_multiset():
    # The high_wild table places one wild card; the hashed wild path reads it. Its
    # non-flush strength depends on the ranks alone, so every rank multiset of up to
    # six natural cards (one wild) and up to five (two wilds) covers every hand; the
    # reference tries every rank for each wild through the rank-set evaluator.
    from kernels.evaluate import _best_rank_only_wild, _hashed_rank_only_wild, eval_tables, rank_sets
    from kernels.tables import rank_multisets

    t = eval_tables()
    checked = 0
    for counts in rank_multisets(6):
        natural = np.uint64(0)
        for r, c in enumerate(counts):
            for suit in range(c):
                natural |= np.uint64(1 << (16 * suit + r))
        sets = rank_sets(natural)
        for w in (1, 2):
            if counts.sum() + w <= 7:
                assert _hashed_rank_only_wild(t, natural, *sets, w) == _best_rank_only_wild(*sets, w), (counts, w)
                checked += 1
    # Multisets of n cards of 13 ranks, at most 4 a rank: x^n in (1 + x + ... + x^4)^13.
    per_size = np.polynomial.polynomial.polypow([1] * 5, 13)
    assert checked == per_size[:7].sum() + per_size[:6].sum() == 26_950 + 8_555
