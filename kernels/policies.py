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
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from .cards import card_bit
from .evaluate import (
    CARD_KEYS,
    flush_of_mask,
    high_mask,
    high_one_wild_and_with_card,
    high_one_wild_parts,
    high_one_wild_with_card,
    mask_key,
    one_more_row,
    plain_high,
    rank_sets,
    short_entry,
)
from .layout import Layout
from .ranking import CAT_SHIFT, LOW_NO_PAIR, longest_runs, low_bit, popcount, run_index, top_bit
from .showdown import DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW
from .tables import FLUSH_CHECK, ONE_MORE_CARDS, ONE_MORE_OWN, ONE_MORE_WIDTH, SHORT_CARDS

# The offer games' policy vector (Selection/Rejection, Do Ya; Anaconda's extends it).
OFFER_POLICY = Layout("offer_policy", [
    ("aim", 1),  # 0 high, 1 low, 2 adaptive
    ("take_threshold", 1),
    ("low_max", 1),
    ("deny_weight", 1),
    ("adaptive_low_count", 1),
    ("draw_weight", 1),
    ("declare_low_top", 1),
    ("declare_both_category", 1),
    ("fear_visible_low", 1),
    ("sequential_grab", 1),
    ("pool_threshold", 1),
])
AIM = OFFER_POLICY.at.aim
TAKE_THRESHOLD = OFFER_POLICY.at.take_threshold
LOW_MAX = OFFER_POLICY.at.low_max
DENY_WEIGHT = OFFER_POLICY.at.deny_weight
ADAPTIVE_LOW_COUNT = OFFER_POLICY.at.adaptive_low_count
DRAW_WEIGHT = OFFER_POLICY.at.draw_weight
DECLARE_LOW_TOP = OFFER_POLICY.at.declare_low_top
DECLARE_BOTH_CATEGORY = OFFER_POLICY.at.declare_both_category
FEAR_VISIBLE_LOW = OFFER_POLICY.at.fear_visible_low
SEQUENTIAL_GRAB = OFFER_POLICY.at.sequential_grab
POOL_THRESHOLD = OFFER_POLICY.at.pool_threshold
N_OFFER_PARAMS = OFFER_POLICY.size

ALWAYS = -1e5  # a threshold at or below this takes every card without estimating

AIM_HIGH = 0
AIM_LOW = 1
AIM_ADAPTIVE = 2


@njit(cache=True)
def strength_value(strength):
    """A high strength as a float: slot plus the top two ranks as fractions,
    ``slot + r1 / 16 + r2 / 256``. Those are the strength's bits from 12 up (slot
    from bit 20, then two 4-bit ranks) over 256: one conversion and one exact
    scaling, the same float as adding the three parts (every one of them exact)."""
    return (strength >> 12) * (1.0 / 256.0)


@njit(cache=True)
def draw_bonus(natural, w):
    """Flush and straight draw potential of a partial hand, in category units."""
    return _draw_bonus_of(_longest_suit(natural), rank_sets(natural)[0], w)


@njit(cache=True)
def _suit_length(natural, suit):
    return popcount((natural >> np.uint64(16 * suit)) & np.uint64(0x1FFF))


@njit(cache=True, inline="always")
def _longest_suit(natural):
    best_suit = 0
    for s in range(4):
        best_suit = max(best_suit, _suit_length(natural, s))
    return best_suit


# The straight-draw count of ``draw_bonus``, looked up (a numba constant; 16 KB: it
# stays in the L1 cache) instead of counted in ten windows per call.
LONGEST_RUN = longest_runs()


@njit(cache=True, inline="always")
def _run_of(ranks):
    """The most of the rank set ``ranks`` in any five in a row (``LONGEST_RUN``)."""
    return np.int64(LONGEST_RUN[run_index(ranks)])


@njit(cache=True)
def _draw_bonus_of(best_suit, r1, w):
    """``draw_bonus`` from the hand's longest suit and its set of ranks held."""
    return _draw_bonus_from(best_suit, _run_of(r1), w)


def _draw_bonuses():
    """``_draw_bonus_of_counts`` of every longest suit 0..31 and longest run 0..15
    (each counting the wild cards), less two each (at least 0): row ``suit``, column
    ``run`` (a compile-time constant, 4 KB). numpy's float operations are the
    kernel's, one at a time, so these are the same floats."""
    suit = np.maximum(0, np.arange(32) - 2)[:, None]
    run = np.maximum(0, np.arange(16) - 2)[None, :]
    return (0.1 * suit + 0.08 * run).ravel()


DRAW_BONUSES = _draw_bonuses()


@njit(cache=True)
def _draw_bonus_from(best_suit, best_run, w):
    suit, run = best_suit + w, best_run + w
    if 0 <= suit < 32 and 0 <= run < 16:
        return DRAW_BONUSES[16 * suit + run]
    return _draw_bonus_of_counts(max(0, suit - 2), max(0, run - 2))


@njit(cache=True, inline="always")
def _draw_bonus_of_counts(flush_count, straight_count):
    """The draw bonus of the flush and straight draw counts, each less two (at least 0)."""
    return 0.1 * flush_count + 0.08 * straight_count


@njit(cache=True, inline="always")
def _natural_value(t, key, natural, best_suit, draw_weight):
    """``high_value`` of up to seven natural cards from their key and longest suit."""
    return strength_value(plain_high(t, key, natural)) + draw_weight * _draw_bonus_of(
        best_suit, rank_sets(natural)[0], 0)


@njit(cache=True)
def high_value(t, natural, w, draw_weight):
    if w == 0 and popcount(natural) <= 7:
        # The same strength as high_mask's for up to seven natural cards, from the
        # hand's key and one flush test (high_mask looks up all four suits): a
        # third less time, and every policy calls this.
        return _natural_value(t, mask_key(t, natural), natural, _longest_suit(natural), draw_weight)
    return strength_value(high_mask(t, natural, w, 0, False)) + draw_weight * draw_bonus(natural, w)


@njit(cache=True)
def _low_value_set(r1):
    """A rank set (bit 0: the 2 .. bit 12: the ace) as the set of low values it
    holds: bit ``v - 1`` for value ``v``, ace 1, 2 .. king 13."""
    return ((r1 << 1) | (r1 >> 12)) & 0x1FFF


@njit(cache=True, inline="always")
def _ranks_of_low_values(values):
    """The rank set (bit 0: the 2 .. bit 12: the ace) of a set of low values (bit
    ``v - 1`` for value ``v``, ace 1): ``_low_value_set`` undone."""
    return ((values >> 1) | ((values & 1) << 12)) & 0x1FFF


def _low_values():
    """``low_value`` of natural cards for each 13-bit set of the low values they
    hold (bit ``v - 1`` for value ``v``: ace 1 .. king 13), worked out by the same
    float operations in the same order as the loop (a compile-time constant, 64 KB).
    All 8,192 sets at once, one value at a time: a loop over the sets took 7 ms of
    every command's start-up."""
    held = np.arange(1 << 13)
    count = np.zeros(1 << 13, np.int64)
    tiebreak = np.zeros(1 << 13)
    for v in range(1, 14):
        counted = (((held >> (v - 1)) & 1) == 1) & (count < 5)  # the lowest five values held
        count += counted
        tiebreak[counted] += (14 - v) / 70.0
    return count + 0.1 * tiebreak


LOW_VALUES = _low_values()


@njit(cache=True, inline="always")
def low_value_by_table(r1, w, low_max):
    """``low_value`` of the ranks ``r1`` for ``low_max`` 0-13: one lookup
    (``LOW_VALUES``) of the values held, each wild added as the lowest one missing."""
    within = (np.int64(1) << low_max) - 1
    held = _low_value_set(r1) & within
    for _ in range(w):  # each wild is the lowest value still missing
        missing = ~held & within
        held |= missing & -missing
    return LOW_VALUES[held]


@njit(cache=True)
def low_value(natural, w, low_max):
    """Different low ranks (ace 1) no higher than ``low_max``, capped at five, plus
    a small preference for lower ones; wilds count as missing low ranks. With
    ``low_max`` 0-13 it is ``low_value_by_table``; the loop counts the first five
    of that set."""
    r1 = rank_sets(natural)[0]
    if 0 <= low_max <= 13:
        return low_value_by_table(r1, w, low_max)
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


@njit(cache=True, inline="always")
def high_gain(t, natural, w, b, draw_weight):
    """``high_value(t, natural | b, w, draw_weight) - high_value(t, natural, w,
    draw_weight)``, the same float, for one card ``b`` (a mask bit): for a natural
    hand of up to six cards with the card, the hand's key is worked out once, the
    card's key added to it, and both hands read in the short table (strength and
    straight-draw count in one entry); with one wild and up to six natural cards
    with the card, the parts of the hand's strength that the card leaves alone are
    shared. A natural hand of seven cards with the card takes the two values' calls
    (measured: keeping its key path beside the short table's made Selection/Rejection's
    deals 1.045x slower)."""
    more = natural | b
    n = popcount(natural)
    if b & natural or not (w == 0 and n < SHORT_CARDS or w == 1 and n <= 5):
        return high_value(t, more, w, draw_weight) - high_value(t, natural, w, draw_weight)
    # The draw bonus with the card, from the hand's: the card's suit one longer,
    # its rank added to the set (the same integers, so the same float).
    bit = np.int64(low_bit(b))
    rank, suit = bit & 15, bit >> 4
    longest = _longest_suit(natural)
    r1 = rank_sets(natural)[0]
    longest_after = max(longest, _suit_length(natural, suit) + 1)
    if w == 0:
        # Both hands in the short table: strength and straight-draw count, one entry
        # each (the same integers, so the same float).
        halves = t.view(np.uint16)
        key = mask_key(t, natural)
        key_after = key + CARD_KEYS[4 * rank + suit]
        entry_before = short_entry(halves, key)
        entry_after = short_entry(halves, key_after)
        s_before, s_after = entry_before >> 2, entry_after >> 2
        if key_after & FLUSH_CHECK:  # five of a suit: a flush with the card, perhaps before it too
            s_after = np.int64(flush_of_mask(t, key_after, more)) >> 12
            if key & FLUSH_CHECK:
                s_before = np.int64(flush_of_mask(t, key, natural)) >> 12
        if draw_weight == 0.0:
            return s_after * (1.0 / 256.0) - s_before * (1.0 / 256.0)
        after = s_after * (1.0 / 256.0) + draw_weight * DRAW_BONUSES[16 * longest_after + (entry_after & 3) + 2]
        before = s_before * (1.0 / 256.0) + draw_weight * DRAW_BONUSES[16 * longest + (entry_before & 3) + 2]
        return after - before
    # One wild (Do Ya's hole card): high_mask's parts, shared where the card leaves
    # them alone.
    strength_before, strength_after = high_one_wild_and_with_card(t, natural, b)
    # The two values written out rather than through _value_of_parts: that form made
    # Selection/Rejection's heuristic deals 1.10x slower side by side (the same floats).
    if draw_weight == 0.0:
        # No draw bonus: the same float (adding 0.0 to a value of at least 0 leaves it).
        return strength_value(strength_after) - strength_value(strength_before)
    after = strength_value(strength_after) + draw_weight * _draw_bonus_of(longest_after, r1 | (np.int64(1) << rank), w)
    before = strength_value(strength_before) + draw_weight * _draw_bonus_of(longest, r1, w)
    return after - before


@njit(cache=True, inline="always")
def _value_of_parts(strength, longest, ranks, w, draw_weight):
    """``high_value``'s float from a hand's strength, longest suit and set of ranks
    held. With no draw weight the bonus is not worked out: the same float, since
    adding 0.0 to a value of at least 0 leaves it."""
    if draw_weight == 0.0:
        return strength_value(strength)
    return strength_value(strength) + draw_weight * _draw_bonus_of(longest, ranks, w)


@njit(cache=True, inline="always")
def low_gain(natural, w, b, low_max):
    """``low_value(natural | b, w, low_max) - low_value(natural, w, low_max)``, the
    same float, for one card ``b`` (a mask bit): 0.0 at once for a card whose rank
    is held already or above ``low_max`` (``low_value`` reads no other ranks)."""
    rank = low_bit(b) & 15
    if (rank_sets(natural)[0] >> rank) & 1 or (1 if rank == 12 else rank + 2) > low_max:
        return 0.0
    return low_value(natural | b, w, low_max) - low_value(natural, w, low_max)


@njit(cache=True)
def low_card_count(natural, low_max):
    """How many different ranks of ace (1) .. ``low_max`` the cards hold: one
    popcount of their low-value set for 1-13."""
    r1 = rank_sets(natural)[0]
    if 1 <= low_max <= 13:
        return popcount(_low_value_set(r1) & ((np.int64(1) << low_max) - 1))
    if low_max < 1:
        return 0
    # Above 13 the values go on past the king (14 is the ace's rank again, then
    # ranks no card has), as counting them one by one did, without a loop LLVM
    # would turn into vector code.
    return ((r1 >> 12) & 1) + popcount(r1)


@njit(cache=True, inline="always")
def aim_of(policy, natural):
    aim = int(policy[AIM])
    if aim == AIM_ADAPTIVE:
        if low_card_count(natural, int(policy[LOW_MAX])) >= policy[ADAPTIVE_LOW_COUNT]:
            return AIM_LOW
        return AIM_HIGH
    return aim


@njit(cache=True, inline="always")
def gain(t, policy, natural, w, card_mask, aim):
    """How much a card raises my estimate, in the units of my aim."""
    if aim == AIM_LOW:
        return low_gain(natural, w, card_mask, int(policy[LOW_MAX]))
    return high_gain(t, natural, w, card_mask, policy[DRAW_WEIGHT])


@njit(cache=True, inline="always")
def best_gain(t, policy, natural, w, cards, start, k, aim):
    """Index (0..k-1) of the card among the codes ``cards[start:start + k]`` that
    raises my estimate most (``gain``; the first of equals), and that gain. The same
    floats as ``gain``'s: aiming high with one wild and up to five natural cards (Do
    Ya's hands), what ``high_gain`` works out of my hand alone is worked out once for
    all the cards (``high_one_wild_parts``)."""
    best = 0
    best_score = -1e300
    if aim == AIM_LOW or not (w == 1 and popcount(natural) <= 5):
        for j in range(k):
            g = gain(t, policy, natural, w, card_bit(cards[start + j]), aim)
            if g > best_score:
                best_score = g
                best = j
        return best, best_score
    draw_weight = policy[DRAW_WEIGHT]
    parts = high_one_wild_parts(t, natural)
    longest = _longest_suit(natural)
    r1 = rank_sets(natural)[0]
    before = _value_of_parts(parts[4], longest, r1, w, draw_weight)
    for j in range(k):
        b = card_bit(cards[start + j])
        if b & natural:
            g = high_gain(t, natural, w, b, draw_weight)
        else:
            bit = np.int64(low_bit(b))
            rank, suit = bit & 15, bit >> 4
            g = _value_of_parts(high_one_wild_with_card(t, natural, parts, b),
                                max(longest, _suit_length(natural, suit) + 1), r1 | (np.int64(1) << rank), w,
                                draw_weight) - before
        if g > best_score:
            best_score = g
            best = j
    return best, best_score


@njit(cache=True, inline="always")
def public_gain(t, policy, visible, w, card_mask):
    """What a card would do for an opponent judged from their visible cards: the
    larger of its high and low gains (their aim is unknown)."""
    g_high = high_gain(t, visible, w, card_mask, policy[DRAW_WEIGHT])
    g_low = low_gain(visible, w, card_mask, int(policy[LOW_MAX]))
    return max(g_high, g_low)


@njit(cache=True, inline="always")
def own_score(t, policy, natural, w, card_mask):
    """The offer decision's own term: how much the card raises my estimate, in the
    units of the aim my cards give me (``gain`` with ``aim_of``)."""
    return gain(t, policy, natural, w, card_mask, aim_of(policy, natural))


@njit(cache=True, inline="always")
def deny_can_change(policy, score):
    """Whether the deny term can still change the offer decision on my own ``score``:
    there is a deny weight, and the score falls short of ``TAKE_THRESHOLD`` or the
    weight is negative. With a positive weight a score that reaches the threshold is
    taken whatever the next player's gain: ``public_gain`` is never negative (its low
    gain never is, and it is the larger of that and the high gain), and adding a
    non-negative float never lowers a score. So a game need find the next player
    only when this says so (Do Ya's offer walks the seats to find them)."""
    deny = policy[DENY_WEIGHT]
    return deny != 0.0 and not (deny > 0.0 and score >= policy[TAKE_THRESHOLD])


@njit(cache=True, inline="always")
def wants_card(t, policy, natural, w, card, next_visible, next_w, next_forced):
    """Offer decision: take when my gain (``own_score``), plus ``DENY_WEIGHT`` times
    what the card would do for the next player when they would be forced to take it,
    reaches ``TAKE_THRESHOLD``. Inlined where it is asked (the call passed the tables
    and the policy as several words each: 1-4% of a Selection/Rejection or Do Ya
    deal)."""
    if policy[TAKE_THRESHOLD] <= ALWAYS:
        return True  # "always take": no estimate needed
    cm = card_bit(card)
    score = own_score(t, policy, natural, w, cm)
    if next_forced and deny_can_change(policy, score):
        score += policy[DENY_WEIGHT] * public_gain(t, policy, next_visible, next_w, cm)
    return score >= policy[TAKE_THRESHOLD]


# Declarations: the showdown's codes (kernels.showdown.DECLARE_*).


@njit(cache=True)
def declare(policy, high, low, shown, opponents, earlier, n_earlier, last_to_declare):
    """HIGH, LOW or BOTH from my final high and low strengths (low 0 = none) and
    the up cards I can see: ``shown[o]`` (a mask) of each seat ``o`` in the seat set
    ``opponents`` (bit ``o``).

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
    # The loops stop at the first seat that settles them (LLVM had turned each into
    # vector code several times its size, the largest function of the pot games).
    if want_low and policy[FEAR_VISIBLE_LOW] > 0:
        rest = opponents
        while rest:
            if low_card_count(shown[low_bit(rest)], top - 1) >= 4:
                want_low = False
                break
            rest &= rest - 1
    if policy[SEQUENTIAL_GRAB] > 0 and last_to_declare and low > 0 and n_earlier > 0:
        contested = False
        for i in range(n_earlier):
            if earlier[i] != DECLARE_HIGH:
                contested = True
                break
        if not contested:
            want_low = True
    if want_low:
        if (high >> CAT_SHIFT) >= policy[DECLARE_BOTH_CATEGORY]:
            return DECLARE_BOTH
        return DECLARE_LOW
    return DECLARE_HIGH


# ------------------------------------------------------------------------ Train Wreck
# Train Wreck (RULES.md §4.5) has a parameter vector of its own (indices TW_*), read
# only by the functions below. A seat sees its own cards (``mine``: hole and face up),
# every face-up card, the offered card and its fee, the next seat's face-up cards and
# whether it acts last, and ``seen``: every card ever turned face up (offered, buried,
# discarded, stolen, held face up). A fresh card is judged as the mean over the cards
# it has not seen.

TRAIN_WRECK_POLICY = Layout("train_wreck_policy", [
    ("pay_threshold", 1),
    ("fee_weight", 1),
    ("deny_weight", 1),
    ("draw_weight", 1),
    ("steal_aim", 1),
    ("act_threshold", 1),
])
TW_PAY_THRESHOLD = TRAIN_WRECK_POLICY.at.pay_threshold
TW_FEE_WEIGHT = TRAIN_WRECK_POLICY.at.fee_weight
TW_DENY_WEIGHT = TRAIN_WRECK_POLICY.at.deny_weight
TW_DRAW_WEIGHT = TRAIN_WRECK_POLICY.at.draw_weight
TW_STEAL_AIM = TRAIN_WRECK_POLICY.at.steal_aim
TW_ACT_THRESHOLD = TRAIN_WRECK_POLICY.at.act_threshold
N_TW_PARAMS = TRAIN_WRECK_POLICY.size

TW_NEVER = 1e5  # a pay threshold at or above this never pays, without estimating
TW_NOT_BEST_SHOWING = 10.0  # the hurt score's penalty for a victim other than the best hand showing
_FULL_DECK = np.uint64(0x1FFF1FFF1FFF1FFF)
_LOWEST_OF_EACH_SUIT = np.uint64(0x0001000100010001)  # bit r of this, shifted by r: rank r in every suit


@njit(cache=True, inline="always")
def _suit_terms(t, key, natural, cards, best_suit):
    """``_fresh_total``'s suit by suit part: the sum over ``cards`` of the flush
    draw count with each card (``A``), the strength parts (``S``) of the cards of
    suits of four or more (a flush may come: each card by its own key), and the
    cards of the other suits (``short``: their ``S`` depends on their rank alone),
    with one of those suits (-1: none)."""
    d_suit = 0
    d_strength = 0
    short_cards = np.uint64(0)
    short_suit = -1
    for suit in range(4):
        shift = np.uint64(16 * suit)
        held = _suit_length(natural, suit)
        of_suit = (cards >> shift) & np.uint64(0x1FFF)
        d_suit += popcount(of_suit) * max(0, max(best_suit, held + 1) - 2)
        if held <= 3:
            short_cards |= of_suit << shift
            short_suit = suit
        else:
            m = np.int64(of_suit)
            while m:
                rank = low_bit(m)
                m &= m - np.int64(1)
                d_strength += plain_high(t, key + CARD_KEYS[4 * rank + suit],
                                         natural | (np.uint64(1) << (shift + np.uint64(rank)))) >> 12
    return d_suit, d_strength, short_cards, short_suit


@njit(cache=True, inline="always")
def _longest_suits(natural, best_suit):
    """Every card of the suits of which ``natural`` holds ``best_suit`` cards (a mask)."""
    m = np.uint64(0)
    for suit in range(4):
        if _suit_length(natural, suit) == best_suit:
            m |= np.uint64(0x1FFF) << np.uint64(16 * suit)
    return m


@njit(cache=True, inline="always")
def _suit_parts(t, key, natural, cards, best_suit, n):
    """``_suit_terms`` with the flush draw count's sum less ``n`` (the number of
    ``cards``) times the hand's own. With no suit of four or more, no card makes a
    flush: every card is short, and a card adds one to the count only in a suit as
    long as the longest, from two up (the same integers, without the suit loop:
    0.8x the time of a ``_fresh_total`` call)."""
    if best_suit <= 3:
        d_suit = np.int64(popcount(cards & _longest_suits(natural, best_suit))) if best_suit >= 2 else np.int64(0)
        return d_suit, np.int64(0), cards, 3
    d_suit, d_strength, short_cards, short_suit = _suit_terms(t, key, natural, cards, best_suit)
    return d_suit - n * max(0, best_suit - 2), d_strength, short_cards, short_suit


@njit(cache=True, inline="always")
def _rank_count(cards, rank):
    """How many of ``cards`` (a mask) are of rank ``rank``."""
    return popcount((cards >> np.uint64(rank)) & _LOWEST_OF_EACH_SUIT)


@njit(cache=True, inline="always")
def _fresh_total(t, natural, unseen, card, draw_weight):
    """The sum over the cards of ``unseen`` of ``high_value(t, natural | c, 0,
    draw_weight) - high_value(t, natural, 0, draw_weight)``, and ``high_gain(t,
    natural, 0, card, draw_weight)`` of one card ``card`` (a mask bit; 0: none,
    gain 0.0), the same float as high_gain's.

    For up to six natural cards every term is ``(S - S0) / 256 + draw_weight *
    (0.1 * (A - A0) + 0.08 * (B - B0))``: ``S`` the strength's slot and top two
    ranks (``strength_value`` times 256), ``A`` and ``B`` the flush and straight
    draw counts (``_draw_bonus_from``), all integers. Their sums are taken in
    integers and scaled once: a card of a suit of three or fewer makes no flush,
    so its ``S`` and ``B`` depend on its rank alone, and its ``A`` on its suit. Up
    to five cards with no flush, every rank's ``S`` and ``B`` (and the hand's own)
    are one row of the one-more table (``_fresh_total_by_row``); six cards, or a
    flush held, one lookup per rank (``_fresh_total_by_ranks``). The float is the
    exact sum rounded a few times, where adding card by card rounded once a card
    (they differ in the last bits). More cards: card by card."""
    cards = unseen & _FULL_DECK & ~natural  # a card the hand holds adds nothing
    n_held = popcount(natural)
    if n_held > 6 or card & natural:
        base = high_value(t, natural, 0, draw_weight)
        total = 0.0
        m = cards
        while m:
            b = m & (~m + np.uint64(1))
            total += high_value(t, natural | b, 0, draw_weight) - base
            m ^= b
        return total, high_gain(t, natural, 0, card, draw_weight) if card else 0.0
    key = mask_key(t, natural)
    best_suit = _longest_suit(natural)
    if n_held <= ONE_MORE_CARDS and best_suit <= 4:
        return _fresh_total_by_row(t, key, natural, cards, best_suit, card, draw_weight)
    return _fresh_total_by_ranks(t, key, natural, cards, best_suit, card, draw_weight)


def _splat(builder, value, count):
    """An LLVM vector of ``count`` copies of ``value``."""
    vector = ir.VectorType(value.type, count)
    undef = ir.Constant(vector, ir.Undefined)
    first = builder.insert_element(undef, value, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(first, undef, ir.Constant(ir.VectorType(ir.IntType(32), count), [0] * count))


def _declared(module, name, returns, argument):
    """The LLVM intrinsic ``name`` of one argument, declared once per module."""
    return module.globals.get(name) or ir.Function(module, ir.FunctionType(returns, [argument]), name=name)


@intrinsic
def _one_more_sums(typingctx, halves, row, cards, short_cards):
    """``(sum over ranks r of count(cards, r) * (e_r & 3), sum of count(short_cards,
    r) * (e_r >> 2))``, ``e_r`` the entries of the one-more row that begins at
    ``halves[row]`` and ``count(m, r)`` how many cards of rank r the mask ``m``
    holds: the straight-draw and strength sums of a fresh card. All sixteen entries
    at once in vector registers (a rank count is 0 past the thirteenth), where a
    loop over the ranks with two popcounts a rank took twice the time."""
    i16, i32, i64 = ir.IntType(16), ir.IntType(32), ir.IntType(64)
    lanes = ONE_MORE_WIDTH

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        start = builder.gep(data, [args[1]])
        entries = builder.zext(builder.load(builder.bitcast(start, ir.VectorType(i16, lanes).as_pointer()), align=2),
                               ir.VectorType(i32, lanes))
        ranks = ir.Constant(ir.VectorType(i64, lanes), list(range(lanes)))
        lowest = _splat(builder, ir.Constant(i64, int(_LOWEST_OF_EACH_SUIT)), lanes)
        ctpop = _declared(builder.module, f"llvm.ctpop.v{lanes}i64", ir.VectorType(i64, lanes),
                          ir.VectorType(i64, lanes))
        add_up = _declared(builder.module, f"llvm.vector.reduce.add.v{lanes}i32", i32, ir.VectorType(i32, lanes))

        def counts(mask):
            of_rank = builder.and_(builder.lshr(_splat(builder, mask, lanes), ranks), lowest)
            return builder.trunc(builder.call(ctpop, [of_rank]), ir.VectorType(i32, lanes))

        runs = builder.and_(entries, _splat(builder, ir.Constant(i32, 3), lanes))
        strengths = builder.lshr(entries, _splat(builder, ir.Constant(i32, 2), lanes))
        run_sum = builder.call(add_up, [builder.mul(counts(args[2]), runs)])
        strength_sum = builder.call(add_up, [builder.mul(counts(args[3]), strengths)])
        return context.make_tuple(builder, signature.return_type,
                                  (builder.sext(run_sum, i64), builder.sext(strength_sum, i64)))
    return types.UniTuple(types.int64, 2)(halves, row, cards, short_cards), codegen


@njit(cache=True, inline="always")
def _fresh_total_by_row(t, key, natural, cards, best_suit, card, draw_weight):
    """``_fresh_total`` of up to five cards holding no flush, from the hand's row of
    the one-more table (``key`` the hand's, ``cards`` the unseen cards it does not
    hold, ``best_suit`` its longest suit's length)."""
    halves = t.view(np.uint16)
    row = one_more_row(halves, key)
    own = np.int64(halves[row + ONE_MORE_OWN])
    strength, run = own >> 2, own & 3
    n = np.int64(popcount(cards))
    d_suit, d_strength, short_cards, _ = _suit_parts(t, key, natural, cards, best_suit, n)
    d_strength -= n * strength
    d_run = -n * run
    runs, strengths = _one_more_sums(halves, row, cards, short_cards)
    d_run += runs
    d_strength += strengths
    total = d_strength * (1.0 / 256.0) + draw_weight * _draw_bonus_of_counts(d_suit, d_run)
    if not card:
        return total, 0.0
    bit = np.int64(low_bit(card))
    rank, suit = bit & 15, bit >> 4
    held = _suit_length(natural, suit)
    entry = np.int64(halves[row + rank])
    if held <= 3:
        strength_after = entry >> 2
    else:
        strength_after = plain_high(t, key + CARD_KEYS[4 * rank + suit], natural | card) >> 12
    return total, _gain_of_parts(strength, strength_after, best_suit, max(best_suit, held + 1), run, entry & 3,
                                 draw_weight)


@njit(cache=True, inline="always")
def _fresh_total_by_ranks(t, key, natural, cards, best_suit, card, draw_weight):
    """``_fresh_total`` of up to six cards, one lookup per rank (the arguments as
    ``_fresh_total_by_row``'s)."""
    r1 = rank_sets(natural)[0]
    strength = plain_high(t, key, natural) >> 12
    run = max(0, _run_of(r1) - 2)
    n = np.int64(popcount(cards))
    d_suit, d_strength, short_cards, short_suit = _suit_parts(t, key, natural, cards, best_suit, n)
    d_strength -= n * strength
    d_run = -n * run
    for rank in range(13):
        count = _rank_count(cards, rank)
        if count:
            d_run += count * max(0, _run_of(r1 | (np.int64(1) << rank)) - 2)
            short_count = _rank_count(short_cards, rank)
            if short_count:
                # A short card's key: the rank part is the same in every suit, and
                # ``natural`` holds the cards of any flush it already has.
                d_strength += short_count * (plain_high(t, key + CARD_KEYS[4 * rank + short_suit], natural) >> 12)
    total = d_strength * (1.0 / 256.0) + draw_weight * _draw_bonus_of_counts(d_suit, d_run)
    if not card:
        return total, 0.0
    bit = np.int64(low_bit(card))
    rank, suit = bit & 15, bit >> 4
    strength_after = plain_high(t, key + CARD_KEYS[4 * rank + suit], natural | card) >> 12
    run_after = max(0, _run_of(r1 | (np.int64(1) << rank)) - 2)
    return total, _gain_of_parts(strength, strength_after, best_suit, max(best_suit, _suit_length(natural, suit) + 1),
                                 run, run_after, draw_weight)


@njit(cache=True, inline="always")
def _gain_of_parts(strength, strength_after, suit, suit_after, run, run_after, draw_weight):
    """``high_gain``'s float from a hand's strength bits from 12 up (``S``), longest
    suit and straight-draw count less two (at least 0), before and after the card."""
    after = strength_after * (1.0 / 256.0) + draw_weight * _draw_bonus_of_counts(max(0, suit_after - 2), run_after)
    before = strength * (1.0 / 256.0) + draw_weight * _draw_bonus_of_counts(max(0, suit - 2), run)
    return after - before


# These run without numba's reference counts: their inlined helpers take arrays, and
# with the counts (on every card, when the means were walks) the Train Wreck deal
# took 2.2x the time.
@njit(cache=True, _nrt=False)
def tw_fresh_gain(t, natural, unseen, draw_weight):
    """Mean gain of ``high_value`` for the cards ``natural`` from one card drawn
    uniformly from ``unseen`` (``_fresh_total`` over their count)."""
    return tw_fresh_and_card_gain(t, natural, unseen, np.uint64(0), draw_weight)[0]


@njit(cache=True, _nrt=False)
def tw_fresh_and_card_gain(t, natural, unseen, card, draw_weight):
    """``tw_fresh_gain`` and ``high_gain(t, natural, 0, card, draw_weight)`` of one
    card ``card`` (a mask bit; 0: none, gain 0.0)."""
    count = popcount(unseen & _FULL_DECK)
    total, gain = _fresh_total(t, natural, unseen, card, draw_weight)
    return total / count if count else 0.0, gain


# What one more card can add to the ``strength_value`` of a hand of one to three
# natural cards, by how many of the card's rank the hand holds (four cards make no
# straight or flush; see ``_fresh_gain_bound``). A test checks each against every
# such hand and card.
_PAIRING_A_SINGLE = 1.0 + 13.0 / 256.0  # no pair held: a pair of rank a over kicker b, 1 + (a - b) / 256 at most
_PAIRING_THE_KICKER = 1.0 + 12.0 / 16.0 + 12.0 / 256.0  # a pair held: two pair, 1 + (kicker - pair) * 17 / 256 at most
_TRIPS_FROM_A_PAIR = 2.0
_QUADS_FROM_TRIPS = 4.0
_DRAWS_UP = 0.1 + 0.08  # the flush and the straight draw counts, each one higher at most
_BOUND_MARGIN = 1e-9  # far over the rounding of the sums the bound is compared with


@njit(cache=True, inline="always")
def _cards_of_ranks(cards, ranks):
    """The cards of ``cards`` (a mask) of the ranks of the rank set ``ranks``."""
    return cards & (np.uint64(ranks & 0x1FFF) * _LOWEST_OF_EACH_SUIT)


@njit(cache=True, inline="always")
def _unseen_of_ranks(cards, ranks):
    """How many of ``cards`` (a mask) are of the ranks of the rank set ``ranks``."""
    return popcount(_cards_of_ranks(cards, ranks))


@njit(cache=True, inline="always")
def _fresh_gain_bound(natural, unseen, draw_weight):
    """An upper bound of ``tw_fresh_gain(t, natural, unseen, draw_weight)`` without
    a table, for one to three natural cards and a draw weight of 0 or more (+inf
    otherwise). A card of a rank not held adds nothing to the top two ranks of a
    pair or trips; to one to three different ranks at most (12 - top) / 16 + 13 /
    256 (a new top rank; below the top it moves the second at most 12 / 256)."""
    n = popcount(natural)
    count = popcount(unseen & _FULL_DECK)
    if n == 0 or n > 3 or count == 0 or not draw_weight >= 0.0:
        return np.inf
    r1, r2, r3, _ = rank_sets(natural)
    cards = unseen & _FULL_DECK & ~natural
    if r2 == 0:
        new_top = (12 - top_bit(r1)) * (1.0 / 16.0) + 13.0 / 256.0
        total = _unseen_of_ranks(cards, r1) * _PAIRING_A_SINGLE + _unseen_of_ranks(cards, ~r1) * new_top
    else:
        total = (_unseen_of_ranks(cards, r1 & ~r2) * _PAIRING_THE_KICKER
                 + _unseen_of_ranks(cards, r2 & ~r3) * _TRIPS_FROM_A_PAIR + _unseen_of_ranks(cards, r3) * _QUADS_FROM_TRIPS)
    return total / count + draw_weight * _DRAWS_UP + _BOUND_MARGIN


@njit(cache=True, inline="always")
def tw_pays(t, policy, mine, offered, fee, next_visible, last, seen):
    """ACCEPT (False) or PAY (True) for the offered card (RULES.md §4.5).

    Pays when the mean gain of a fresh card, less the offered card's gain, less
    ``TW_DENY_WEIGHT`` times how much more the offered card would give the next seat
    than a fresh card (a paid-away card is offered to them; nobody's when I act last:
    it is buried), reaches ``TW_PAY_THRESHOLD + TW_FEE_WEIGHT * fee`` (fee in chips).
    Inlined where it is asked (3-4% of a Train Wreck deal).
    """
    th = policy[TW_PAY_THRESHOLD]
    if th >= TW_NEVER:
        return False
    if th <= ALWAYS:
        return True
    dw = policy[TW_DRAW_WEIGHT]
    cm = card_bit(offered)
    unseen = _FULL_DECK & ~(seen | mine | cm)
    bar = th + policy[TW_FEE_WEIGHT] * fee
    deny = policy[TW_DENY_WEIGHT]
    reads_next = not last and deny != 0.0
    # Bounds of the fresh-card means without a table settle most decisions before
    # the means are worked out: the score falls by the offered card's gains (never
    # negative) and rises by my mean and ``deny`` times the next seat's, and each
    # float operation rounds monotonically, so a bound's score is at least the
    # exact one's. Mine first (on 4th street, three cards), then the next seat's.
    # (A negative ``deny``, which the parameter's range excludes, is bounded by nothing.)
    bounded = not reads_next or deny > 0.0
    # ``deny`` times the bound of the next seat's gains, as the score's own
    # operations would take it off: ``deny * (given - fresh_next)`` at given 0.
    next_off = deny * (0.0 - _fresh_gain_bound(next_visible, unseen, dw)) if reads_next and bounded else 0.0
    mine_bound = _fresh_gain_bound(mine, unseen, dw)
    if bounded and (mine_bound - next_off if reads_next else mine_bound) < bar:
        return False
    # The offered card's gains (high_gain's floats) come with the fresh-card means,
    # from the hand's key and counts these work out anyway.
    fresh, take = tw_fresh_and_card_gain(t, mine, unseen, cm, dw)
    score = fresh - take
    if reads_next:
        if bounded and score - next_off < bar:
            return False
        fresh_next, given = tw_fresh_and_card_gain(t, next_visible, unseen, cm, dw)
        score -= deny * (given - fresh_next)
    return score >= bar


@njit(cache=True)
def tw_takes_extra(t, policy, mine, unseen):
    """Optional actions only: take the extra card of a pair of 2s when its mean gain
    reaches ``TW_ACT_THRESHOLD``."""
    if policy[TW_ACT_THRESHOLD] <= ALWAYS:
        return True
    if policy[TW_ACT_THRESHOLD] >= TW_NEVER:
        return False
    gain_me = tw_fresh_gain(t, mine, unseen, policy[TW_DRAW_WEIGHT])
    return gain_me >= policy[TW_ACT_THRESHOLD]


@njit(cache=True)
def tw_target(t, policy, steal, optional, mine, visible, cand_seat, cand_card, n_cand, unseen):
    """Index of the chosen target among ``cand_seat[:n_cand]`` / ``cand_card[:n_cand]``
    (a card code, or 255 for one of that seat's hole cards taken blind), or -1 to
    decline (only when ``optional``).

    Each candidate scores ``(1 - aim) * hurt + aim * gain``, ``aim`` =
    ``TW_STEAL_AIM`` for a steal and 0 for a discard: ``hurt`` is how much the card's
    loss lowers its owner's face-up hand (a hole card taken blind: 0), less a large
    penalty unless the owner shows the best hand among the candidates' owners; ``gain``
    how much the card raises my hand (a blind hole card: the mean over unseen cards).
    With aim 0 this takes the card that most hurts the best hand showing; with aim 1
    the card that most improves my hand. An optional action is declined when the best
    score, without the penalty, is below ``TW_ACT_THRESHOLD``.
    """
    dw = policy[TW_DRAW_WEIGHT]
    aim = policy[TW_STEAL_AIM] if steal else 0.0
    # With aim 1 (the default) the hurt and the penalty count for nothing (times
    # 0): they are not worked out. The scores are the same (but for a zero's sign,
    # which no comparison sees), so the choice is.
    hurts = aim < 1.0
    # A seat's candidates come one after another: its shown value is worked out
    # once for them all (``shown``, of seat ``shown_seat``).
    best_seat = -1
    best_shown = -1e300
    shown_seat = -1
    shown = 0.0
    if hurts:
        for k in range(n_cand):
            if cand_seat[k] != shown_seat:
                shown_seat = cand_seat[k]
                shown = high_value(t, visible[shown_seat], 0, dw)
            if shown > best_shown:
                best_shown = shown
                best_seat = shown_seat
    blind_gain = -1.0
    best = -1
    best_score = -1e300
    best_value = -1e300
    shown_seat = -1
    shown_key = np.uint64(0)
    for k in range(n_cand):
        o = cand_seat[k]
        c = cand_card[k]
        if c == 255:
            hurt = 0.0
            if aim > 0 and blind_gain < 0:
                blind_gain = tw_fresh_gain(t, mine, unseen, dw)
            gain_me = max(blind_gain, 0.0)
        else:
            cm = card_bit(c)
            hurt = 0.0
            if hurts:
                shown_cards = visible[o]
                # (A card the seat does not show would make its key less the card's no hand's key.)
                by_key = popcount(shown_cards) <= 7 and shown_cards & cm != 0
                if o != shown_seat:
                    shown_seat = o
                    shown_key = mask_key(t, shown_cards)
                    shown = (_natural_value(t, shown_key, shown_cards, _longest_suit(shown_cards), dw) if by_key
                             else high_value(t, shown_cards, 0, dw))
                rest = shown_cards & ~cm
                if by_key:
                    # high_value's, inlined, from the seat's key less the card's.
                    without = _natural_value(t, shown_key - CARD_KEYS[c], rest, _longest_suit(rest), dw)
                else:
                    without = high_value(t, rest, 0, dw)
                hurt = shown - without
            gain_me = high_gain(t, mine, 0, cm, dw) if aim > 0 else 0.0
        value = (1.0 - aim) * hurt + aim * gain_me
        score = value - ((1.0 - aim) * TW_NOT_BEST_SHOWING if o != best_seat else 0.0)
        if score > best_score:
            best_score = score
            best_value = value
            best = k
    if optional and best_value < policy[TW_ACT_THRESHOLD]:
        return -1
    return best
