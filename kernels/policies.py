"""Parameterised card-decision policies, shared by the games.

A policy is a ``float64`` vector per seat; the names, defaults, ranges and meanings
live on the Python side (``analyzer.variants``), the indices here. A policy only
ever receives what its seat can see: its own cards, the cards face up, and the
public state of the deal (whose turn, rejections, the pool).

The hand estimates are deliberately cheap:

* high: the category of the best (possibly incomplete) hand plus its top ranks,
  and a small bonus for flush and straight draws weighted by ``DRAW_WEIGHT``;
* low: how many different ranks no higher than ``LOW_MAX`` the hand holds
  (at most five), with a tie-break for lower ones.
"""

import numpy as np
from numba import njit

from .cards import card_bit
from .evaluate import high_mask, rank_sets
from .ranking import CAT_SHIFT, LOW_NO_PAIR, popcount

# Parameter indices, shared by the offer games (Selection/Rejection, Do Ya).
AIM = 0  # 0 high, 1 low, 2 adaptive
TAKE_THRESHOLD = 1
LOW_MAX = 2
DENY_WEIGHT = 3
ADAPTIVE_LOW_COUNT = 4
DRAW_WEIGHT = 5
DECLARE_LOW_TOP = 6
DECLARE_BOTH_CATEGORY = 7
FEAR_VISIBLE_LOW = 8
SEQUENTIAL_GRAB = 9
POOL_THRESHOLD = 10
N_OFFER_PARAMS = 11

ALWAYS = -1e5  # a threshold at or below this takes every card without estimating

AIM_HIGH = 0
AIM_LOW = 1
AIM_ADAPTIVE = 2


@njit(cache=True, inline="always")
def strength_value(strength):
    """A high strength as a float: slot plus the top two ranks as fractions."""
    return (strength >> CAT_SHIFT) + ((strength >> 16) & 0xF) / 16.0 + ((strength >> 12) & 0xF) / 256.0


@njit(cache=True)
def draw_bonus(natural, w):
    """Flush and straight draw potential of a partial hand, in category units."""
    best_suit = 0
    for s in range(4):
        best_suit = max(best_suit, popcount((natural >> np.uint64(16 * s)) & np.uint64(0x1FFF)))
    r1 = rank_sets(natural)[0]
    ranks = (r1 << 1) | ((r1 >> 12) & 1)  # bit 0: the ace playing low; bits 1..13: 2..A
    best_run = 0
    for low in range(0, 10):
        best_run = max(best_run, popcount((ranks >> low) & 0b11111))
    return 0.1 * max(0, best_suit + w - 2) + 0.08 * max(0, best_run + w - 2)


@njit(cache=True)
def high_value(t, natural, w, draw_weight):
    return strength_value(high_mask(t, natural, w, 0, False)) + draw_weight * draw_bonus(natural, w)


@njit(cache=True)
def low_value(natural, w, low_max):
    """Different low ranks (ace 1) no higher than ``low_max``, capped at five, plus
    a small preference for lower ones; wilds count as missing low ranks."""
    r1 = rank_sets(natural)[0]
    count = 0
    tiebreak = 0.0
    wilds = w
    for v in range(1, low_max + 1):
        held = (r1 >> (12 if v == 1 else v - 2)) & 1
        if held or wilds > 0:
            if not held:
                wilds -= 1
            count += 1
            tiebreak += (14 - v) / 70.0
            if count == 5:
                break
    return count + 0.1 * tiebreak


@njit(cache=True)
def low_card_count(natural, low_max):
    r1 = rank_sets(natural)[0]
    n = 0
    for v in range(1, low_max + 1):
        r = 12 if v == 1 else v - 2
        n += (r1 >> r) & 1
    return n


@njit(cache=True)
def aim_of(policy, natural):
    aim = int(policy[AIM])
    if aim == AIM_ADAPTIVE:
        if low_card_count(natural, int(policy[LOW_MAX])) >= policy[ADAPTIVE_LOW_COUNT]:
            return AIM_LOW
        return AIM_HIGH
    return aim


@njit(cache=True)
def gain(t, policy, natural, w, card_mask, aim):
    """How much a card raises my estimate, in the units of my aim."""
    if aim == AIM_LOW:
        low_max = int(policy[LOW_MAX])
        return low_value(natural | card_mask, w, low_max) - low_value(natural, w, low_max)
    dw = policy[DRAW_WEIGHT]
    return high_value(t, natural | card_mask, w, dw) - high_value(t, natural, w, dw)


@njit(cache=True)
def public_gain(t, policy, visible, w, card_mask):
    """What a card would do for an opponent judged from their visible cards: the
    larger of its high and low gains (their aim is unknown)."""
    dw = policy[DRAW_WEIGHT]
    g_high = high_value(t, visible | card_mask, w, dw) - high_value(t, visible, w, dw)
    low_max = int(policy[LOW_MAX])
    g_low = low_value(visible | card_mask, w, low_max) - low_value(visible, w, low_max)
    return max(g_high, g_low)


@njit(cache=True)
def wants_card(t, policy, natural, w, card, next_visible, next_w, next_forced):
    """Offer decision: take when my gain, plus ``DENY_WEIGHT`` times what the card
    would do for the next player when they would be forced to take it, reaches
    ``TAKE_THRESHOLD``."""
    if policy[TAKE_THRESHOLD] <= ALWAYS:
        return True  # "always take": no estimate needed
    cm = card_bit(card)
    score = gain(t, policy, natural, w, cm, aim_of(policy, natural))
    if next_forced and policy[DENY_WEIGHT] != 0.0:
        score += policy[DENY_WEIGHT] * public_gain(t, policy, next_visible, next_w, cm)
    return score >= policy[TAKE_THRESHOLD]


# Declarations.
DECLARE_HIGH = 0
DECLARE_LOW = 1
DECLARE_BOTH = 2


@njit(cache=True)
def declare(policy, high, low, opponents_up, n_opponents, earlier, n_earlier, last_to_declare):
    """HIGH, LOW or BOTH from my final high and low strengths (low 0 = none) and
    the up cards I can see (``opponents_up[:n_opponents]`` masks).

    * LOW when my low is unpaired and topped by at most ``DECLARE_LOW_TOP``, unless
      ``FEAR_VISIBLE_LOW`` and some opponent already shows four different up cards
      all lower than my top card;
    * BOTH when that holds and my high category slot is at least
      ``DECLARE_BOTH_CATEGORY``;
    * in sequential declaration, with ``SEQUENTIAL_GRAB``, the last to declare takes
      an uncontested low with any low at all;
    * HIGH otherwise.
    """
    top = 99
    if low > 0 and low >> CAT_SHIFT == LOW_NO_PAIR:
        top = 14 - ((low >> 16) & 0xF)
    want_low = top <= policy[DECLARE_LOW_TOP]
    if want_low and policy[FEAR_VISIBLE_LOW] > 0:
        for i in range(n_opponents):
            r1 = rank_sets(opponents_up[i])[0]
            shown = 0
            for v in range(1, top):
                r = 12 if v == 1 else v - 2
                shown += (r1 >> r) & 1
            if shown >= 4:
                want_low = False
    if policy[SEQUENTIAL_GRAB] > 0 and last_to_declare and low > 0 and n_earlier > 0:
        contested = False
        for i in range(n_earlier):
            if earlier[i] != DECLARE_HIGH:
                contested = True
        if not contested:
            want_low = True
    if want_low:
        if (high >> CAT_SHIFT) >= policy[DECLARE_BOTH_CATEGORY]:
            return DECLARE_BOTH
        return DECLARE_LOW
    return DECLARE_HIGH
