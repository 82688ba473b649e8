"""Pot division of RULES.md §0.8 (``kernels.showdown.settle``): hand-worked cases
with exact payouts, one per clause, and a conservation property over random
tables and every option combination.

Strengths are plain integers: a bigger high is a better high hand; a bigger low
is a better low, and 0 means no qualifying low.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.showdown import (
    ALL_FAILED_CARDS_SPEAK,
    ALL_FAILED_CARRY_OVER,
    CHIPS_FRACTIONAL,
    CHIPS_INTEGER,
    DECLARE_BOTH,
    DECLARE_HIGH,
    DECLARE_LOW,
    ODD_CHIP_POSITION,
    ODD_CHIP_SUIT,
    SPLIT_CARDS_SPEAK,
    SPLIT_DECLARE,
    SPLIT_HIGH_AND_RIGHT_NEIGHBOUR,
    SPLIT_HIGH_ONLY,
    nets,
    settle,
)

H, L, B = DECLARE_HIGH, DECLARE_LOW, DECLARE_BOTH
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3


def card(rank, suit):
    return 4 * rank + suit


def run(high, low=None, declared=None, pot=100.0, *, active=None, dealer=0,
        split=SPLIT_DECLARE, outright=False, all_failed=ALL_FAILED_CARDS_SPEAK,
        chips=CHIPS_FRACTIONAL, odd_chip=ODD_CHIP_POSITION, nbw=False,
        natural=None, high_cards=None, low_cards=None):
    """Call ``settle`` with per-seat lists; return (payout, high_share, low_share, carried)."""
    n = len(high)
    low = [0] * n if low is None else low
    declared = [H] * n if declared is None else declared
    active = [True] * n if active is None else active
    natural = [False] * n if natural is None else natural
    high_cards = [0] * n if high_cards is None else high_cards
    low_cards = [0] * n if low_cards is None else low_cards
    payout = np.full(n, -7.0)
    hs = np.full(n, -7.0)
    ls = np.full(n, -7.0)
    carried = settle(
        np.array(active, dtype=np.bool_), np.array(high, dtype=np.int64),
        np.array(low, dtype=np.int64), np.array(declared, dtype=np.int64),
        float(pot), dealer, split, outright, all_failed, chips, odd_chip, nbw,
        np.array(natural, dtype=np.bool_), np.array(high_cards, dtype=np.int64),
        np.array(low_cards, dtype=np.int64), payout, hs, ls)
    return payout, hs, ls, carried


def pays(**kw):
    """Payouts only, after checking nothing was carried."""
    payout, _, _, carried = run(**kw)
    assert carried == 0.0
    return payout.tolist()


# ------------------------------------------------------------------ §0.8 test vector


@pytest.mark.parametrize("chips", [CHIPS_FRACTIONAL, CHIPS_INTEGER])
def test_0_8_test_vector_anna_ben_carla(chips):
    # Anna full house HIGH, Ben 6-4-3-2-A LOW, Carla K-K-Q-J-7 HIGH; pot 30.
    payout, hs, ls, carried = run(high=[60, 5, 20], low=[0, 90, 0], declared=[H, L, H],
                                  pot=30, chips=chips)
    assert payout.tolist() == [15.0, 15.0, 0.0]
    assert hs.tolist() == [0.5, 0.0, 0.0]
    assert ls.tolist() == [0.0, 0.5, 0.0]
    assert carried == 0.0


# ------------------------------------------------------------------ cards speak


def test_cards_speak_no_qualifying_low_high_scoops():
    # pokerkit 0.7.4 gave half of the pot to nobody here: with no low anywhere
    # the best high takes the WHOLE pot.
    payout, hs, ls, _ = run(high=[30, 50, 10], low=[0, 0, 0], split=SPLIT_CARDS_SPEAK)
    assert payout.tolist() == [0.0, 100.0, 0.0]
    assert hs.tolist() == [0.0, 1.0, 0.0]
    assert ls.tolist() == [0.0, 0.0, 0.0]
    payout, _, _, _ = run(high=[30, 50, 10], low=[0, 0, 0], pot=7,
                          split=SPLIT_CARDS_SPEAK, chips=CHIPS_INTEGER)
    assert payout.tolist() == [0.0, 7.0, 0.0]


def test_cards_speak_best_high_and_best_low_each_take_half():
    # declarations are ignored; seat 2 has the best high AND the best low: scoops
    payout, _, _, _ = run(high=[30, 50, 10], low=[4, 2, 0], declared=[L, L, L],
                          split=SPLIT_CARDS_SPEAK)
    assert payout.tolist() == [50.0, 50.0, 0.0]
    payout, _, _, _ = run(high=[30, 50, 10], low=[4, 6, 0], split=SPLIT_CARDS_SPEAK)
    assert payout.tolist() == [0.0, 100.0, 0.0]


# ------------------------------------------------------------------ high only


def test_high_only_best_high_takes_pot_ties_share():
    assert pays(high=[30, 50, 10], low=[9, 1, 9], split=SPLIT_HIGH_ONLY) == [0.0, 100.0, 0.0]
    payout, hs, ls, _ = run(high=[50, 50, 10, 50], split=SPLIT_HIGH_ONLY, pot=90)
    assert payout.tolist() == [30.0, 30.0, 0.0, 30.0]
    assert hs.sum() == pytest.approx(1.0)
    assert ls.tolist() == [0.0] * 4


# ------------------------------------------------------------------ step 6: one side empty


def test_step6_nobody_declares_low_high_declarers_compete_for_whole_pot():
    # seat 1 has a great low but declared HIGH: the low is irrelevant.
    assert pays(high=[30, 20, 40], low=[0, 99, 0], declared=[H, H, H]) == [0.0, 0.0, 100.0]


def test_step6_nobody_declares_high_low_declarers_compete_for_whole_pot():
    payout, hs, ls, _ = run(high=[30, 20, 40], low=[5, 9, 7], declared=[L, L, L])
    assert payout.tolist() == [0.0, 100.0, 0.0]
    assert ls.tolist() == [0.0, 1.0, 0.0]
    assert hs.tolist() == [0.0, 0.0, 0.0]


def test_step5_low_declarer_without_qualifying_low_cannot_win_low():
    # seat 0 declared LOW with no qualifying low: the HIGH side takes everything.
    assert pays(high=[90, 20], low=[0, 0], declared=[L, H]) == [0.0, 100.0]
    # ... and a LOW declarer who has a low beats them for the low half.
    assert pays(high=[90, 20, 10], low=[0, 0, 3], declared=[L, H, L]) == [0.0, 50.0, 50.0]


# ------------------------------------------------------------------ steps 3, 4, 7: BOTH declarers


def test_step3_both_declarer_who_wins_both_sides_scoops():
    payout, hs, ls, _ = run(high=[80, 50, 10], low=[9, 0, 7], declared=[B, H, L])
    assert payout.tolist() == [100.0, 0.0, 0.0]
    assert (hs[0], ls[0]) == (0.5, 0.5)


def test_step7_both_declarer_tying_one_side_gets_three_quarters():
    # seat 0 BOTH: best high outright, tied best low with seat 2: 1/2 + 1/4.
    payout, hs, ls, _ = run(high=[80, 50, 10], low=[7, 0, 7], declared=[B, H, L], pot=40)
    assert payout.tolist() == [30.0, 0.0, 10.0]
    assert (hs[0], ls[0], ls[2]) == (0.5, 0.25, 0.25)


def test_step4_failed_both_declarer_removed_and_sides_compared_again():
    # seat 0 BOTH: best high but loses low to seat 1. Seat 0 gets nothing; seat 2,
    # who lost the high only to seat 0, now wins the high half.
    payout, _, _, _ = run(high=[80, 10, 50], low=[3, 7, 0], declared=[B, L, H])
    assert payout.tolist() == [0.0, 50.0, 50.0]
    # the failed declarer's low no longer counts either: seat 1 (low 2) beat only
    # by seat 0 (low 7), seat 0 failed on the high side.
    payout, _, _, _ = run(high=[40, 10, 50], low=[7, 2, 0], declared=[B, L, H])
    assert payout.tolist() == [0.0, 50.0, 50.0]


def test_step3_both_declarer_without_a_low_fails():
    payout, _, _, _ = run(high=[80, 50, 10], low=[0, 0, 0], declared=[B, H, L])
    assert payout.tolist() == [0.0, 100.0, 0.0]


def test_step3_other_both_declarers_included_in_comparison():
    payout, _, _, _ = run(high=[80, 80, 10], low=[7, 7, 9], declared=[B, B, B])
    # seat 2 has the best low (9) so seats 0 and 1 fail on low; seat 2 fails on high.
    # Everyone failed: cards speak among them (step 8): 0,1 share high, 2 takes low.
    assert payout.tolist() == [25.0, 25.0, 50.0]
    # two BOTH declarers tied on both sides survive together and share both
    # halves; seat 2 loses both sides to them and fails.
    payout, _, _, _ = run(high=[80, 80, 10], low=[7, 7, 3], declared=[B, B, B])
    assert payout.tolist() == [50.0, 50.0, 0.0]


def test_step3_both_must_win_outright_tie_fails():
    # same table as the 3/4 case: default (tie enough) vs outright (tie fails).
    kw = dict(high=[80, 50, 10], low=[7, 0, 7], declared=[B, H, L], pot=40)
    assert pays(**kw) == [30.0, 0.0, 10.0]
    assert pays(outright=True, **kw) == [0.0, 20.0, 20.0]
    # a tie on the high side fails too
    kw = dict(high=[80, 80, 10], low=[9, 0, 7], declared=[B, H, L], pot=40)
    assert pays(**kw) == [30.0, 10.0, 0.0]
    assert pays(outright=True, **kw) == [0.0, 20.0, 20.0]
    # outright wins on both sides still scoop
    assert pays(outright=True, high=[80, 50], low=[9, 7], declared=[B, L]) == [100.0, 0.0]


# ------------------------------------------------------------------ step 8: everyone failed


def test_step8_all_failed_cards_speak_among_failed_both_declarers():
    # seat 0 best high / worse low, seat 1 the reverse: both fail; seat 2 folded.
    payout, hs, ls, carried = run(high=[80, 50, 99], low=[3, 7, 99], declared=[B, B, B],
                                  active=[True, True, False], pot=20)
    assert payout.tolist() == [10.0, 10.0, 0.0]
    assert (hs[0], ls[1], carried) == (0.5, 0.5, 0.0)


def test_step8_all_failed_cards_speak_no_low_high_takes_all():
    # outright: the two BOTH declarers tie on high -> both fail; cards speak
    # among them: they share the high half and seat 1, the only low, takes the low half.
    assert pays(high=[80, 80], low=[0, 5], declared=[B, B], outright=True) == [25.0, 75.0]
    # tied high, no low anywhere: they share the whole pot as high.
    assert pays(high=[80, 80, 20], low=[0, 0, 0], declared=[B, B, L],
                outright=True) == [50.0, 50.0, 0.0]


def test_step8_all_failed_carry_over_pays_nobody():
    payout, hs, ls, carried = run(high=[80, 50], low=[3, 7], declared=[B, B], pot=20,
                                  all_failed=ALL_FAILED_CARRY_OVER)
    assert carried == 20.0
    assert payout.tolist() == [0.0, 0.0]
    assert hs.tolist() == ls.tolist() == [0.0, 0.0]
    # carry_over only applies when nobody won: an ordinary split is unaffected
    payout, _, _, carried = run(high=[60, 5, 20], low=[0, 90, 0], declared=[H, L, H],
                                pot=30, all_failed=ALL_FAILED_CARRY_OVER)
    assert (payout.tolist(), carried) == ([15.0, 15.0, 0.0], 0.0)


def test_step8_every_low_declarer_without_low_falls_back_to_all_active():
    # nobody failed as BOTH, but nobody can win either: cards speak among all.
    assert pays(high=[10, 30, 20], low=[0, 0, 0], declared=[L, L, L]) == [0.0, 100.0, 0.0]
    _, _, _, carried = run(high=[10, 30], low=[0, 0], declared=[L, L],
                           all_failed=ALL_FAILED_CARRY_OVER)
    assert carried == 100.0


# ------------------------------------------------------------------ step 9: chips


def test_step9_integer_odd_pot_high_half_gets_the_odd_chip():
    payout, hs, ls, _ = run(high=[60, 5, 20], low=[0, 90, 0], declared=[H, L, H], pot=7,
                            chips=CHIPS_INTEGER)
    assert payout.tolist() == [4.0, 3.0, 0.0]
    assert hs[0] == pytest.approx(4 / 7) and ls[1] == pytest.approx(3 / 7)
    # fractional mode splits 3.5 / 3.5
    assert pays(high=[60, 5, 20], low=[0, 90, 0], declared=[H, L, H],
                pot=7) == [3.5, 3.5, 0.0]


def test_step9_position_three_way_tie_extra_chip_clockwise_from_dealer_left():
    # pot 8: high half 4 shared by tied seats 1, 2, 3; seat 0 takes the low half 4.
    kw = dict(high=[5, 70, 70, 70, 1], low=[9, 0, 0, 0, 0], declared=[L, H, H, H, H], pot=8,
              chips=CHIPS_INTEGER)
    assert pays(dealer=2, **kw) == [4.0, 1.0, 1.0, 2.0, 0.0]  # seat 3 is left of dealer
    assert pays(dealer=0, **kw) == [4.0, 2.0, 1.0, 1.0, 0.0]
    assert pays(dealer=3, **kw) == [4.0, 2.0, 1.0, 1.0, 0.0]  # 4, 0 not tied; 1 first
    assert pays(dealer=1, **kw) == [4.0, 1.0, 2.0, 1.0, 0.0]


def test_step9_no_player_gets_more_than_one_odd_chip_per_split():
    # high only, pot 5 among three tied seats: 1 each + 2 odd chips to two seats.
    payout = pays(high=[7, 7, 7], split=SPLIT_HIGH_ONLY, pot=5, chips=CHIPS_INTEGER,
                  dealer=0)
    assert payout == [1.0, 2.0, 2.0]
    payout = pays(high=[7, 7, 7], split=SPLIT_HIGH_ONLY, pot=5, chips=CHIPS_INTEGER,
                  dealer=1)
    assert payout == [2.0, 1.0, 2.0]


def test_step9_suit_rule_high_split_odd_chip_to_highest_suit():
    # two tied high hands, top cards A-clubs (seat 0) and A-spades (seat 1)
    kw = dict(high=[70, 70], split=SPLIT_HIGH_ONLY, pot=3, chips=CHIPS_INTEGER, dealer=1)
    cards = [card(12, CLUBS), card(12, SPADES)]
    assert pays(odd_chip=ODD_CHIP_POSITION, high_cards=cards, **kw) == [2.0, 1.0]
    assert pays(odd_chip=ODD_CHIP_SUIT, high_cards=cards, **kw) == [1.0, 2.0]


def test_step9_suit_rule_low_split_odd_chip_to_lowest_suit():
    # pot 7: high 4 to seat 0; low 3 shared by seats 1 (5-hearts) and 2 (5-diamonds)
    kw = dict(high=[90, 1, 2], low=[0, 40, 40], declared=[H, L, L], pot=7,
              chips=CHIPS_INTEGER, dealer=0,
              low_cards=[0, card(3, HEARTS), card(3, DIAMONDS)])
    assert pays(odd_chip=ODD_CHIP_POSITION, **kw) == [4.0, 2.0, 1.0]
    assert pays(odd_chip=ODD_CHIP_SUIT, **kw) == [4.0, 1.0, 2.0]


# ------------------------------------------------------------------ natural beats wild (DY-A8)


def test_dy_a8_natural_beats_wild_on_tie():
    kw = dict(high=[70, 70, 70, 10], natural=[False, True, False, True], split=SPLIT_HIGH_ONLY,
              pot=90)
    assert pays(nbw=False, **kw) == [30.0, 30.0, 30.0, 0.0]
    assert pays(nbw=True, **kw) == [0.0, 90.0, 0.0, 0.0]
    # all tied hands wild: the tie still splits; a better wild hand still wins
    assert pays(nbw=True, high=[70, 70], natural=[False, False],
                split=SPLIT_HIGH_ONLY) == [50.0, 50.0]
    assert pays(nbw=True, high=[71, 70], natural=[False, True],
                split=SPLIT_HIGH_ONLY) == [100.0, 0.0]


def test_dy_a8_natural_beats_wild_in_both_declarer_survival():
    # BOTH declarer ties the high with a natural HIGH declarer: fails with the option on.
    kw = dict(high=[70, 70, 1], low=[9, 0, 5], declared=[B, H, L], natural=[False, True, True])
    assert pays(nbw=False, **kw) == [75.0, 25.0, 0.0]
    assert pays(nbw=True, **kw) == [0.0, 50.0, 50.0]


# ------------------------------------------------------------------ AN-A6 high and right neighbour


def test_an_a6_high_and_right_neighbour_takes_low_half():
    kw = dict(split=SPLIT_HIGH_AND_RIGHT_NEIGHBOUR, pot=40)
    payout, hs, ls, _ = run(high=[10, 20, 90, 30], low=[99, 0, 0, 0], **kw)
    assert payout.tolist() == [0.0, 20.0, 20.0, 0.0]  # seat 1 is right of seat 2
    assert (hs[2], ls[1]) == (0.5, 0.5)
    # wrap-around: the right neighbour of seat 0 is seat n-1
    assert pays(high=[90, 20, 10, 30], **kw) == [20.0, 0.0, 0.0, 20.0]


def test_an_a6_right_neighbour_skips_inactive_seat():
    assert pays(high=[10, 99, 90, 30], active=[True, False, True, True],
                split=SPLIT_HIGH_AND_RIGHT_NEIGHBOUR, pot=40) == [20.0, 0.0, 20.0, 0.0]


def test_an_a6_tied_high_winners_neighbours_share_low_half():
    # seats 0 and 1 tie high; neighbours: of 0 -> seat 2, of 1 -> seat 0.
    payout, hs, ls, _ = run(high=[50, 50, 10], split=SPLIT_HIGH_AND_RIGHT_NEIGHBOUR, pot=40)
    assert payout.tolist() == [20.0, 10.0, 10.0]
    assert (hs[0], ls[0]) == (0.25, 0.25)
    # heads-up: the loser is the winner's right neighbour
    assert pays(high=[5, 9], split=SPLIT_HIGH_AND_RIGHT_NEIGHBOUR,
                pot=7, chips=CHIPS_INTEGER) == [3.0, 4.0]



def test_an_a6_neighbours_odd_chip_goes_by_position_even_under_the_suit_rule():
    """Seats 0 and 2 tie high; their right neighbours 3 and 1 share the low half.
    Pot 10 in whole chips: each half is 5, one odd chip a half. With the suit rule
    the high half's odd chip goes to the higher card (seat 0's ace of spades; by
    position seat 2, first from the dealer's left, gets it); the low half's goes by
    position (seat 3 before seat 1) although seat 1 holds the lower card, since a
    neighbour holds no winning low to compare."""
    kw = dict(high=[50, 10, 50, 20], split=SPLIT_HIGH_AND_RIGHT_NEIGHBOUR, pot=10, chips=CHIPS_INTEGER,
              dealer=1, high_cards=[card(12, SPADES), 0, card(12, CLUBS), 0],
              low_cards=[0, card(0, CLUBS), 0, card(12, SPADES)])
    assert pays(odd_chip=ODD_CHIP_POSITION, **kw) == [2.0, 2.0, 3.0, 3.0]
    assert pays(odd_chip=ODD_CHIP_SUIT, **kw) == [3.0, 2.0, 2.0, 3.0]

# ------------------------------------------------------------------ 0.1 activity


def test_0_1_inactive_seats_never_paid():
    # folded seat 1 holds the best high and the best low in every mode
    for split in (SPLIT_DECLARE, SPLIT_CARDS_SPEAK, SPLIT_HIGH_ONLY,
                  SPLIT_HIGH_AND_RIGHT_NEIGHBOUR):
        payout, hs, ls, _ = run(high=[30, 99, 20], low=[3, 99, 5], declared=[H, B, L],
                                active=[True, False, True], split=split)
        assert payout[1] == 0.0 and hs[1] == 0.0 and ls[1] == 0.0
        assert payout.sum() == 100.0


def test_0_1_single_active_seat_takes_whole_pot():
    for split in (SPLIT_DECLARE, SPLIT_CARDS_SPEAK, SPLIT_HIGH_ONLY,
                  SPLIT_HIGH_AND_RIGHT_NEIGHBOUR):
        # even a LOW declarer with no low: no declaration when alone
        payout, hs, ls, carried = run(high=[1, 99, 20], low=[0, 9, 9], declared=[L, B, H],
                                      active=[True, False, False], pot=13, split=split,
                                      chips=CHIPS_INTEGER)
        assert payout.tolist() == [13.0, 0.0, 0.0]
        assert hs.tolist() == [1.0, 0.0, 0.0] and ls.tolist() == [0.0, 0.0, 0.0]
        assert carried == 0.0


def test_nets_are_payout_minus_contribution():
    payout, _, _, _ = run(high=[60, 5, 20], low=[0, 90, 0], declared=[H, L, H], pot=30)
    out = nets(payout, np.array([10.0, 10.0, 10.0]))
    assert out.tolist() == [5.0, 5.0, -10.0]
    assert out.sum() == 0.0


# ------------------------------------------------------------------ conservation property


@st.composite
def tables(draw):
    n = draw(st.integers(2, 7))
    active = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if draw(st.booleans()):  # mostly several active seats
        active[draw(st.integers(0, n - 1))] = True
    high = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))   # frequent ties
    low = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))    # frequent "no low"
    declared = draw(st.lists(st.sampled_from([H, L, B]), min_size=n, max_size=n))
    natural = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    high_cards = draw(st.lists(st.integers(0, 51), min_size=n, max_size=n))
    low_cards = draw(st.lists(st.integers(0, 51), min_size=n, max_size=n))
    chips = draw(st.sampled_from([CHIPS_FRACTIONAL, CHIPS_INTEGER]))
    if chips == CHIPS_INTEGER:
        pot = float(draw(st.integers(0, 60)))
    else:
        pot = draw(st.floats(0.0, 1000.0, allow_nan=False, allow_infinity=False))
    options = dict(
        dealer=draw(st.integers(0, n - 1)),
        split=draw(st.sampled_from([SPLIT_DECLARE, SPLIT_CARDS_SPEAK, SPLIT_HIGH_ONLY,
                                    SPLIT_HIGH_AND_RIGHT_NEIGHBOUR])),
        outright=draw(st.booleans()),
        all_failed=draw(st.sampled_from([ALL_FAILED_CARDS_SPEAK, ALL_FAILED_CARRY_OVER])),
        chips=chips,
        odd_chip=draw(st.sampled_from([ODD_CHIP_POSITION, ODD_CHIP_SUIT])),
        nbw=draw(st.booleans()),
    )
    return dict(high=high, low=low, declared=declared, pot=pot, active=active,
                natural=natural, high_cards=high_cards, low_cards=low_cards, **options)


@settings(max_examples=300, deadline=None)
@given(tables())
def test_conservation_pot_paid_out_or_carried_exactly(kw):
    payout, hs, ls, carried = run(**kw)
    pot = kw["pot"]
    active = np.array(kw["active"])
    assert (payout >= 0.0).all()
    assert (payout[~active] == 0.0).all()
    assert (hs[~active] == 0.0).all() and (ls[~active] == 0.0).all()
    assert carried in (0.0, pot)
    if kw["chips"] == CHIPS_INTEGER:
        assert payout.sum() + carried == pot
        assert (payout == np.floor(payout)).all()
    else:
        assert abs(payout.sum() + carried - pot) <= 1e-9 * max(1.0, pot)
    if carried > 0.0:
        assert (payout == 0.0).all()
        assert kw["split"] == SPLIT_DECLARE or not active.any()
    elif pot > 0.0 and active.any():
        assert hs.sum() + ls.sum() == pytest.approx(1.0)
        assert payout == pytest.approx((hs + ls) * pot)
    if active.sum() == 1:
        assert payout[active].tolist() == [pot]
    if kw["split"] == SPLIT_HIGH_ONLY:
        assert (ls == 0.0).all()
