"""Strengths in words, categories, and the five cards used."""

import numpy as np
import pytest

from analyzer import (
    Category,
    WantitError,
    best_high_five,
    best_low_five,
    describe_high,
    describe_low,
    evaluate_high,
    evaluate_low,
    hand_category,
)
from analyzer.evaluate import format_used

HIGH_EXAMPLES = [
    ("9c 9d 9h 5s 5c 2d 3h", "Full house, nines full of fives", Category.FULL_HOUSE),
    ("As Ks Qs Js Ts 9s 2c", "Royal flush", Category.STRAIGHT_FLUSH),
    ("5h 4h 3h 2h Ah Kc", "Straight flush, five high", Category.STRAIGHT_FLUSH),
    ("7c 7d 7h 7s Kc 2d", "Four of a kind, sevens, king kicker", Category.FOUR_OF_A_KIND),
    ("Ah Jh 9h 4h 2h 3c", "Flush, A-J-9-4-2", Category.FLUSH),
    ("As 2c 3d 4h 5s 9c 9d", "Straight, five high", Category.STRAIGHT),
    ("Tc Td Th 4s 2c", "Three of a kind, tens, 4-2 kickers", Category.THREE_OF_A_KIND),
    ("Kc Kd 4h 4s Ac 2d", "Two pair, kings and fours, ace kicker", Category.TWO_PAIR),
    ("Jc Jd 9h 4s 2c", "Pair of jacks, 9-4-2 kickers", Category.PAIR),
    ("Ac Kd 9h 4s 2c", "High card, A-K-9-4-2", Category.HIGH_CARD),
]


@pytest.mark.parametrize("cards,text,category", HIGH_EXAMPLES)
def test_describe_high(cards, text, category):
    s = evaluate_high(cards)
    assert describe_high(s) == text
    assert hand_category(s) == category


def test_categories_of_arrays_and_order():
    strengths = evaluate_high(np.array([[0, 5, 10, 15, 16], [0, 1, 8, 12, 16]], dtype=np.uint8))
    assert hand_category(strengths).tolist() == [Category.STRAIGHT, Category.PAIR]
    values = [evaluate_high(c) for c, _, _ in HIGH_EXAMPLES]
    cats = [hand_category(v) for v in values]
    for a, ca in zip(values, cats):
        for b, cb in zip(values, cats):
            if ca != cb:
                assert (a > b) == (ca > cb)
    with pytest.raises(WantitError):
        hand_category(5)


def test_incomplete_hands_rank_below_complete_ones():
    four = evaluate_high(np.array([[48, 44, 40, 36, 255]], dtype=np.uint8))[0]  # A K Q J
    assert describe_high(four) == "High card, A-K-Q-J"
    assert evaluate_high("Ac Kc Qd Jd 2h") > four
    assert describe_high(evaluate_high(np.array([[48, 49, 255, 255, 255]], dtype=np.uint8))[0]) == "Pair of aces"


def test_describe_low():
    assert describe_low(evaluate_low("7c 5d 4h 3s 2c Kd Kh")) == "7-5-4-3-2"
    assert describe_low(evaluate_low("5c 4d 3h 2s Ac")) == "5-4-3-2-A"
    assert describe_low(evaluate_low("9c 9d 9h 5s 5c 2d 3h")) == "9-5-5-3-2 (pair)"
    assert describe_low(evaluate_low("Kc Kd Kh Ks Qc")) == "K-K-K-K-Q (four of a kind)"
    assert describe_low(0) == "No low"
    assert evaluate_low("9c 7d 4h 3s 2c", qualifier=8) == 0
    assert evaluate_low("8c 7d 4h 3s 2c", qualifier=8) > 0


def test_paired_lows_order():
    # RULES.md §0.5: no pair > pair > two pair > trips > full house > quads.
    hands = ["Kc Qd Jh Ts 9c", "2c 2d 3h 4s 5c", "2c 2d 3h 3s 4c", "2c 2d 2h 3s 4c",
             "2c 2d 2h 3s 3c", "2c 2d 2h 2s 3c"]
    values = [evaluate_low(h) for h in hands]
    assert values == sorted(values, reverse=True)
    # Within a pattern lower paired ranks win: 3-3 beats 4-4 even with worse kickers.
    assert evaluate_low("3c 3d Kh Qs Jc") > evaluate_low("4c 4d 2h As 5c")


def test_best_five_shows_the_cards_and_wild_substitutes():
    s, used = best_high_five("As Ks Qs Js 3h 2c", wild="3h")
    assert describe_high(s) == "Royal flush"
    assert format_used(used) == "As Ks Qs Js 3h(=Ts)"
    s, used = best_low_five("Kc 7d 4h 2s 3c", wild="Kc")
    assert format_used(used) == "7d 4h 3c 2s Kc(=Ac)"
    assert best_low_five("Kc Qd Jh Ts 9c", qualifier=8) == (0, [])


@pytest.mark.parametrize("bad", [-1, 2**40, (1 << 20) | 0xFFFFF, (5 << 20) | 0xEEEEE, (2 << 20) | 0xD0D00,
                                 "x", 1.5, True, None])
def test_describing_what_no_evaluator_returns_is_a_clear_error(bad):
    with pytest.raises(WantitError, match="is not a high-hand strength"):
        describe_high(bad)


@pytest.mark.parametrize("bad", [-1, (1 << 20) | 0xFFFFF, (1 << 20) | 0x0E000, "7", 2.5])
def test_describing_a_bad_low_strength_is_a_clear_error(bad):
    with pytest.raises(WantitError, match="is not a low-hand strength"):
        describe_low(bad)
