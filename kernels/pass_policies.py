"""Policies of the passing game (Anaconda): what to pass, what to keep, which card
to hide. Declarations use ``kernels.policies.declare``.

The vector shares the offer games' indices for the parameters both use (aim,
low_max, adaptive count, draw weight, declarations) and adds its own after them.
A pass choice sees only the passer's own hand and the history of what it passed
and received, never what it is about to receive.
"""

import numpy as np
from numba import njit

from .evaluate import (
    CARD_KEYS,
    KEYS_BY_BIT,
    bit_to_code,
    flush_of_mask,
    flush_suit,
    high_mask,
    low_mask,
    mask_key,
    plain_high,
    plain_low,
    rank_sets,
    short_entry,
)
from .policies import (
    AIM,
    AIM_ADAPTIVE,
    AIM_HIGH,
    AIM_LOW,
    ADAPTIVE_LOW_COUNT,
    DRAW_BONUSES,
    DRAW_WEIGHT,
    LOW_MAX,
    OFFER_POLICY,
    _cards_of_ranks,
    _low_value_set,
    _ranks_of_low_values,
    _suit_length,
    draw_bonus,
    high_value,
    low_card_count,
    low_value,
    low_value_by_table,
    strength_value,
)
from .ranking import (
    CAT_SHIFT,
    FLUSH,
    LOW_NO_PAIR,
    STRAIGHT_FLUSH,
    high_from_rank_sets,
    low_bit,
    nth_bit,
    popcount,
)
from .rng import below
from .tables import FLUSH_CHECK

# Anaconda's policy vector: the offer games' parameters (those it uses keep their
# meaning), then its own.
PASS_POLICY = OFFER_POLICY.extend("pass_policy", [
    ("spite_weight", 1),  # penalty for passing a card the recipient seems to collect
    ("hide_rule", 1),  # the chance of hiding my weakest card (else my strongest): 0 or 1, or a mix
    ("random_pass", 1),  # 1: pass uniformly random cards (a baseline)
])
SPITE_WEIGHT = PASS_POLICY.at.spite_weight
HIDE_RULE = PASS_POLICY.at.hide_rule
RANDOM_PASS = PASS_POLICY.at.random_pass
N_PASS_PARAMS = PASS_POLICY.size

THREES = np.uint64(0x0002_0002_0002_0002)  # every 3 (rank 1), suit-major mask
KINGS = np.uint64(0x0800_0800_0800_0800)  # every K (rank 11)


@njit(cache=True)
def split_high(cards, howdy):
    """(natural mask, wild count) for high: threes are wild in Howdy Doody."""
    if howdy:
        return cards & ~THREES, popcount(cards & THREES)
    return cards, 0


@njit(cache=True)
def split_low(cards, howdy):
    """(natural mask, wild count) for low: kings are wild in Howdy Doody."""
    if howdy:
        return cards & ~KINGS, popcount(cards & KINGS)
    return cards, 0


@njit(cache=True)
def aim_value(t, policy, cards, aim, howdy):
    """My estimate of a set of cards for an aim (the best five of them)."""
    if aim == AIM_LOW:
        nat, w = split_low(cards, howdy)
        return low_value(nat, w, int(policy[LOW_MAX]))
    nat, w = split_high(cards, howdy)
    if w == 0:
        return strength_value(plain_high(t, mask_key(t, nat), nat)) + policy[DRAW_WEIGHT] * draw_bonus(nat, 0)
    return high_value(t, nat, w, policy[DRAW_WEIGHT])


@njit(cache=True, inline="always")
def _aim_value_without(t, policy, cards, key, b, aim, howdy):
    """``aim_value(t, policy, cards & ~b, aim, howdy)``, the same float, for a card
    ``b`` (a mask bit) of ``cards`` whose hash key is ``key``: a natural high hand's
    key is ``key`` less the card's (``key`` is read for nothing else)."""
    rest = cards & ~b
    if not howdy:
        if aim != AIM_LOW:
            return (strength_value(plain_high(t, key - CARD_KEYS[bit_to_code(b)], rest))
                    + policy[DRAW_WEIGHT] * draw_bonus(rest, 0))
        low_max = int(policy[LOW_MAX])
        if 0 <= low_max <= 13:  # low_value's lookup, here: the call cost more than it
            return low_value_by_table(rank_sets(rest)[0], 0, low_max)
    return aim_value(t, policy, rest, aim, howdy)


@njit(cache=True, inline="always")
def _longest_less_one_by_suit(cards):
    """The longest suit of ``cards`` less one card of suit ``s``, for each suit: four
    4-bit fields, suit ``s`` at bit ``4 s``."""
    l0 = _suit_length(cards, 0)
    l1 = _suit_length(cards, 1)
    l2 = _suit_length(cards, 2)
    l3 = _suit_length(cards, 3)
    return (max(l0 - 1, l1, l2, l3) | (max(l0, l1 - 1, l2, l3) << 4)
            | (max(l0, l1, l2 - 1, l3) << 8) | (max(l0, l1, l2, l3 - 1) << 12))


@njit(cache=True, inline="always")
def _plain_high_score_without(t, halves, scaled_weight, cards, key, longest_less_one, b):
    """256 times ``_plain_high_value_without`` for ``scaled_weight`` 256 times its
    draw weight, exactly: a power of two scales each term and the sum without a
    rounding of its own (the weight is at most 5, the bonuses finite and at least
    0), so scores compare as the values do, ties included, and the strength is not
    multiplied."""
    bit = np.int64(low_bit(b))
    less = key - KEYS_BY_BIT[bit]
    entry = short_entry(halves, less)
    strength = entry >> 2
    if less & FLUSH_CHECK:
        strength = np.int64(flush_of_mask(t, less, cards & ~b)) >> 12
    # _draw_bonus_of's: its table at the longest suit and the straight-draw count,
    # which the entry holds less two (at least 0; at two or less the bonus is the
    # same). With no draw weight the product is 0.0 (the bonuses are finite and at
    # least 0), which leaves the strength as it is, without a test in the loop.
    longest = (longest_less_one >> (4 * (bit >> 4))) & 15
    return strength + scaled_weight * DRAW_BONUSES[16 * longest + (entry & 3) + 2]


@njit(cache=True, inline="always")
def _plain_high_value_without(t, halves, draw_weight, cards, key, longest_less_one, b):
    """``aim_value`` aiming high without wild cards of ``cards`` (up to seven) less its
    card ``b`` (a mask bit), the same float, from the hash key of ``cards`` and its
    longest suit less one card of each suit (``_longest_less_one_by_suit``), which
    every card's loss shares. The six cards or fewer left have an entry of the
    short table (read in the tables' ``uint16`` view ``halves``): their strength
    unless they hold a flush, and their straight-draw count. (strength_value's
    float plus the draw bonus's, as ``_plain_high_score_without`` over 256.)"""
    return _plain_high_score_without(t, halves, 256.0 * draw_weight, cards, key, longest_less_one, b) * (1.0 / 256.0)


AIM_SALT = np.uint64(0x9E3779B97F4A7C15)
HIDE_SALT = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True, inline="always")
def mix_draw(cards, salt):
    """A number in [0, 1) fixed by the cards (a mask) and ``salt``: the draw of a
    mixed choice. A mix is purified by the hand: the same cards always choose the
    same way, so the deal's random stream (and common random numbers) are untouched,
    while over the hands an opponent cannot see the choice is mixed. (splitmix64's
    finalizer.)"""
    z = np.uint64(cards) ^ np.uint64(salt)  # one unsigned type wherever it is inlined
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def mixed_count(x, cards, salt):
    """A whole-number threshold from ``x``: ``floor(x)``, or one more for a share
    ``x - floor(x)`` of the hands (``x`` whole: exactly ``x``)."""
    whole = np.floor(x)
    return whole + (1.0 if x - whole > mix_draw(cards, salt) else 0.0)


@njit(cache=True)
def pass_aim(policy, cards):
    aim = int(policy[AIM])
    if aim == AIM_ADAPTIVE:
        need = mixed_count(policy[ADAPTIVE_LOW_COUNT], cards, AIM_SALT)
        if low_card_count(cards, int(policy[LOW_MAX])) >= need:
            return AIM_LOW
        return AIM_HIGH
    return aim


@njit(cache=True, inline="always")
def _rank_and_value(b):
    """Rank (0..12) and low value (ace 1) of the card of a single mask bit."""
    rank = low_bit(b) & 15
    return rank, (1 if rank == 12 else rank + 2)


@njit(cache=True)
def collects_low(cards, low_max):
    """Whether cards someone gave away suggest they collect low: they gave away
    more high cards (above ``low_max``) than low ones."""
    lows = 0
    highs = 0
    m = cards
    while m:
        b = m & (~m + np.uint64(1))
        m ^= b
        if _rank_and_value(b)[1] <= low_max:
            lows += 1
        else:
            highs += 1
    return highs > lows


@njit(cache=True, inline="always")
def _free_low_cards(cards, low_max, spited):
    """The cards of ``cards`` (a mask) whose loss leaves its low value
    (``low_value_by_table``, ``low_max`` 0-13) as it is and that are not of the
    ``spited`` ranks. The value is that of the lowest five values held up to
    ``low_max``: a card of a rank held twice or more, or of a value not among those
    five, takes none of them away."""
    r1, r2, _, _ = rank_sets(cards)
    held = _low_value_set(r1) & ((np.int64(1) << low_max) - 1)
    if popcount(held) > 5:
        held &= np.int64(nth_bit(held, 5)) - 1
    return _cards_of_ranks(cards, (r2 | ~_ranks_of_low_values(held)) & ~spited)


@njit(cache=True, inline="always")
def choose_pass(t, policy, hand, count, evidence, stream, howdy):
    """The ``count`` cards to pass from ``hand`` (a mask), as a mask.

    Greedy: repeatedly give away the card whose loss hurts my aim least, plus
    ``SPITE_WEIGHT`` if the recipient seems to collect it. ``evidence`` is the
    mask of cards that tell me what the recipient collects: what the recipient
    passed me, or else what my right neighbour passed me (``0`` when nothing has
    been passed yet). ``RANDOM_PASS`` passes uniformly random cards instead.
    Inlined where a deal asks it (its one caller): 2% of an Anaconda deal.
    """
    if policy[RANDOM_PASS] > 0:
        chosen = np.uint64(0)
        left = hand
        for _ in range(count):
            b = nth_bit(left, below(stream, popcount(left)))
            chosen |= b
            left ^= b
        return chosen
    aim = pass_aim(policy, hand)
    low_max = int(policy[LOW_MAX])
    spite = policy[SPITE_WEIGHT]
    # What the recipient collects is read with spite only; worked out whatever the
    # spite, its test of the evidence had cost 3% of a deal of the default field,
    # which passes without spite. (The same test moved into the block that sets
    # ``spited`` below measured no gain, and 1.03x slower with spite: keep this form.)
    they_go_low = collects_low(evidence, low_max) if spite != 0.0 and evidence else False
    # Aiming low without wild cards, a card that leaves my low value as it is and
    # draws no spite scores the most any card can (a loss never raises the value;
    # spite only lowers a score), so the first such card in mask order is the
    # loop's choice, without the loop.
    low_by_table = aim == AIM_LOW and not howdy and 0 <= low_max <= 13
    spited = np.int64(0)
    if spite != 0.0 and evidence:
        spited = _ranks_of_low_values((np.int64(1) << low_max) - 1) if they_go_low else np.int64(0x1F00)
    # Aiming high without wild cards, the parts of the hand that every card's loss
    # shares are worked out once a card passed.
    plain_high_aim = aim != AIM_LOW and not howdy
    draw_weight = policy[DRAW_WEIGHT]
    scaled_weight = 256.0 * draw_weight
    halves = t.view(np.uint16)
    chosen = np.uint64(0)
    for _ in range(count):
        best = np.uint64(0)
        best_score = -1e300
        left = hand & ~chosen
        if low_by_table:
            free = _free_low_cards(left, low_max, spited)
            if free:
                chosen |= free & (~free + np.uint64(1))
                continue
        key = mask_key(t, left)
        longest_less_one = _longest_less_one_by_suit(left)  # (read aiming high without wild cards only)
        m = left
        if plain_high_aim and not (spite != 0.0 and evidence):
            # The loop below with the tests that do not change in it taken out (LLVM
            # kept them in), on scores 256 times the values: the default field's pass.
            while m:
                b = m & (~m + np.uint64(1))
                m ^= b
                score = _plain_high_score_without(t, halves, scaled_weight, left, key, longest_less_one, b)
                if score > best_score:
                    best_score = score
                    best = b
            chosen |= best
            continue
        while m:
            b = m & (~m + np.uint64(1))
            m ^= b
            if plain_high_aim:
                score = _plain_high_value_without(t, halves, draw_weight, left, key, longest_less_one, b)
            else:
                score = _aim_value_without(t, policy, left, key, b, aim, howdy)
            if spite != 0.0 and evidence:
                rank, v = _rank_and_value(b)
                if (v <= low_max) if they_go_low else (rank >= 8):
                    score -= spite
            if score > best_score:
                best_score = score
                best = b
        chosen |= best
    return chosen


@njit(cache=True)
def choose_keep(t, policy, hand, hand_size, howdy, fk):
    """The five cards to keep (a mask) and the one to hide (a card bit): ``keep_five``
    then ``hide_card``.

    ``hand_size`` is 7 (discard two), 6 (discard one) or 5 (keep all: only the card
    to hide is chosen). Nothing is allocated.
    """
    keep, aim = keep_five(t, policy, hand, hand_size, howdy, fk)
    return keep, hide_card(t, policy, keep, aim, howdy)


@njit(cache=True, inline="always")
def _aim_by_ranks(policy, cards):
    """``_aim_for_low(policy, plain_low(t, mask_key(t, cards)))`` of natural cards,
    from their ranks alone: their best low is unpaired when they hold five different
    low values (ace 1 .. king 13), and then it is topped by the fifth lowest."""
    aim = int(policy[AIM])
    if aim == AIM_ADAPTIVE:
        held = _low_value_set(rank_sets(cards)[0])
        top = np.int64(low_bit(nth_bit(held, 4))) + 1 if popcount(held) >= 5 else 99
        aim = AIM_LOW if top <= policy[LOW_MAX] else AIM_HIGH
    return aim


@njit(cache=True, inline="always")
def _aim_for_low(policy, best_low):
    """The aim of ``policy``, adaptive resolved by the hand's best low: low when it is
    unpaired and no higher than ``LOW_MAX``."""
    aim = int(policy[AIM])
    if aim == AIM_ADAPTIVE:
        top = 14 - ((best_low >> 16) & 0xF) if best_low > 0 and best_low >> CAT_SHIFT == LOW_NO_PAIR else 99
        aim = AIM_LOW if top <= policy[LOW_MAX] else AIM_HIGH
    return aim


@njit(cache=True, inline="always")
def _used_rank_sets(strength):
    """The ranks of a high strength's five cards held once or more, twice or more,
    three times or more and four times, ``(u1, u2, u3, u4)``: its five nibbles are
    the cards' ranks plus one (0: no card), equal ranks side by side
    (``kernels.ranking.high_from_rank_sets``)."""
    n0 = (strength >> 16) & 15
    n1 = (strength >> 12) & 15
    n2 = (strength >> 8) & 15
    n3 = (strength >> 4) & 15
    n4 = strength & 15
    b0 = (np.int64(1) << n0) >> 1
    b1 = (np.int64(1) << n1) >> 1
    b2 = (np.int64(1) << n2) >> 1
    b3 = (np.int64(1) << n3) >> 1
    b4 = (np.int64(1) << n4) >> 1
    e01, e12, e23, e34 = n0 == n1, n1 == n2, n2 == n3, n3 == n4
    u1 = b0 | b1 | b2 | b3 | b4
    u2 = (b0 if e01 else 0) | (b1 if e12 else 0) | (b2 if e23 else 0) | (b3 if e34 else 0)
    u3 = (b0 if e01 and e12 else 0) | (b1 if e12 and e23 else 0) | (b2 if e23 and e34 else 0)
    u4 = (b0 if e01 and e12 and e23 else 0) | (b1 if e12 and e23 and e34 else 0)
    return u1, u2, u3, u4


@njit(cache=True, inline="always")
def _high_discards(hand, key, strength):
    """The two cards ``keep_five`` discards aiming high from ``hand`` (seven natural
    cards, a mask, whose hash key is ``key`` and high strength ``strength``), without
    a lookup. The fives as strong as the hand hold its best five's cards: a flush's
    five are its suit's cards of the five ranks (seven cards hold one flush at
    most), so the other two go. Else they hold the best five's ranks as often as it
    does, so exactly those fives are as strong, and their low is the same (the same
    ranks): the first of them in the order of the discards is kept, which discards
    the lowest card (mask bit) of each rank held once more than the five hold it,
    or the two lowest of a rank held twice more."""
    u1, u2, u3, u4 = _used_rank_sets(strength)
    slot = strength >> CAT_SHIFT
    if key & FLUSH_CHECK and (slot == FLUSH or slot == STRAIGHT_FLUSH):
        return hand & ~(np.uint64(u1) << np.uint64(16 * flush_suit(key)))
    r1, r2, r3, r4 = rank_sets(hand)
    extra = (r1 & ~u1) | (r2 & ~u2) | (r3 & ~u3) | (r4 & ~u4)  # the ranks held more often than the five hold them
    first = _cards_of_ranks(hand, extra & -extra)
    gone = first & (~first + np.uint64(1))
    second = _cards_of_ranks(hand, extra & (extra - 1)) if extra & (extra - 1) else first & ~gone
    return gone | (second & (~second + np.uint64(1)))


@njit(cache=True)
def keep_five(t, policy, hand, hand_size, howdy, fk):
    """The five cards to keep (a mask) and the aim they were kept for.

    Keeps the best five for my aim (adaptive: low when the best low is unpaired and
    no higher than ``LOW_MAX``), ties broken by the other side, then by the order of
    the discards (the first five found of the best). Without wild cards the best
    five's high and low are those of the whole hand, so the aim is known before any
    five is evaluated, and each five reads one table, the other only when it
    equals the best; each five's key is the hand's less the discards' keys; the aim
    itself comes from the hand's ranks (``_aim_by_ranks``), so only the aim's side
    is worked out for the hand (high from its rank sets or its flush, low from its
    key's table entry). Aiming high at seven cards, the discards are read off the
    best five's ranks (``_high_discards``) with no five evaluated. With Howdy
    Doody's wild cards every five's high and low are worked out, and the aim after
    them."""
    hand = np.uint64(hand)
    full_key = mask_key(t, hand)
    aim = AIM_HIGH
    best_side = np.int64(0)
    if not howdy:
        # The aim from the ranks, then the hand's strength on its side. Aiming high,
        # it is worked out from the ranks, or read in the small flush table: the
        # general high table's entry missed the cache (half of keep_five's samples
        # waited on it).
        aim = _aim_by_ranks(policy, hand)
        if aim == AIM_LOW:
            best_side = plain_low(t, full_key)
        elif full_key & FLUSH_CHECK:
            best_side = np.int64(flush_of_mask(t, full_key, hand))
        else:
            r1, r2, r3, r4 = rank_sets(hand)
            best_side = np.int64(high_from_rank_sets(r1, r2, r3, r4))
    aim_low = aim == AIM_LOW
    if not howdy and hand_size == 7 and not aim_low:
        return hand & ~_high_discards(hand, full_key, best_side), aim
    best_mask = np.uint64(0)
    best_other = np.int64(-1)
    # With wild cards: the best (high, low) and (low, high) so far, each pair packed
    # in one integer (strengths are below 2**31) and kept by selects, not branches.
    best_high_mask = best_low_mask = np.uint64(0)
    best_hl = best_lh = np.int64(-1)
    n_discard = hand_size - 5
    pool = hand
    if not howdy and n_discard == 2:
        # (Aiming low: aiming high, seven cards have gone above.) A five as low as
        # the whole hand leaves out two cards each of which the hand can lose alone
        # and stay as low (a card set's best five only gets worse with fewer cards):
        # the fives are those of these cards' pairs, a few where there were 21, in
        # the same order. At an unpaired low they are read off the five lowest
        # ranks; a paired low tries each card.
        if best_side >> CAT_SHIFT == LOW_NO_PAIR:
            # The cards whose loss leaves the five lowest values held: the pass's free
            # low cards, every value counted and none spited.
            pool = _free_low_cards(hand, 13, np.int64(0))
        else:
            pool = np.uint64(0)
            m = hand
            while m:
                b = m & (~m + np.uint64(1))
                m ^= b
                if plain_low(t, full_key - CARD_KEYS[bit_to_code(b)]) == best_side:
                    pool |= b
    # Every way to discard hand_size - 5 cards of the pool, in the order of their
    # lowest bits.
    mi = pool if n_discard > 0 else np.uint64(1)
    while mi:
        bi = mi & (~mi + np.uint64(1))
        mi ^= bi
        if n_discard == 0:
            bi = np.uint64(0)
        key_i = full_key - CARD_KEYS[bit_to_code(bi)] if bi else full_key
        mj = mi if n_discard == 2 else np.uint64(1)
        while mj:
            bj = mj & (~mj + np.uint64(1))
            mj ^= bj
            if n_discard == 2:
                five = hand & ~(bi | bj)
                key = key_i - CARD_KEYS[bit_to_code(bj)]
            else:
                five = hand & ~bi
                key = key_i
            if howdy:
                hn, hw = split_high(five, howdy)
                h = np.int64(high_mask(t, hn, hw, fk, False))
                ln, lw = split_low(five, howdy)
                lo = np.int64(low_mask(ln, lw))
                hl = (h << 32) | lo
                lh = (lo << 32) | h
                high_better = hl > best_hl
                low_better = lh > best_lh
                best_hl = hl if high_better else best_hl
                best_high_mask = five if high_better else best_high_mask
                best_lh = lh if low_better else best_lh
                best_low_mask = five if low_better else best_low_mask
            # Without: a branch, seldom mispredicted (one five or a few equal the best).
            elif aim_low:
                if plain_low(t, key) == best_side:
                    other = plain_high(t, key, five)
                    if other > best_other:
                        best_other = other
                        best_mask = five
            elif plain_high(t, key, five) == best_side:
                other = plain_low(t, key)
                if other > best_other:
                    best_other = other
                    best_mask = five
    if howdy:
        aim = _aim_for_low(policy, best_lh >> 32)
        best_mask = best_low_mask if aim == AIM_LOW else best_high_mask
    return best_mask, aim


@njit(cache=True)
def hide_card(t, policy, keep, aim, howdy):
    """The card of the five kept (a card bit) to turn face down: my strongest
    (``HIDE_RULE`` 0) or my weakest (1; between: the weakest in that share of the
    hands, ``mix_draw``), judged by what the other four show for ``aim``."""
    return _hide_card_by_key(t, policy, keep, mask_key(t, keep), aim, howdy)


@njit(cache=True)
def hide_of_five(t, policy, five, howdy):
    """``choose_keep(t, policy, five, 5, howdy, fk)[1]``, the card the policy hides
    of the five it holds, without the keep: the aim ``keep_five`` finds for a hand
    of five (from its ranks, ``_aim_by_ranks``; with Howdy Doody's wild cards from
    its low with the kings wild, ``_aim_for_low``), then ``hide_card`` by the five's
    key."""
    key = mask_key(t, five)
    if howdy:
        natural, w = split_low(five, howdy)
        aim = _aim_for_low(policy, np.int64(low_mask(natural, w)))
    else:
        aim = _aim_by_ranks(policy, five)  # no low lookup
    return _hide_card_by_key(t, policy, five, key, aim, howdy)


@njit(cache=True, inline="always")
def _hide_card_by_key(t, policy, keep, key, aim, howdy):
    """``hide_card`` of the five kept whose hash key is ``key``."""
    hide = np.uint64(0)
    hide_score = 1e300
    hide_weakest = policy[HIDE_RULE] > mix_draw(keep, HIDE_SALT)  # 0: never; 1: always
    # Aiming high without wild cards, from the parts of the five that every card's
    # loss shares, as the pass does.
    plain_high_aim = aim != AIM_LOW and not howdy
    draw_weight = policy[DRAW_WEIGHT]
    halves = t.view(np.uint16)
    longest_less_one = _longest_less_one_by_suit(keep)
    m = keep
    while m:
        b = m & (~m + np.uint64(1))
        m ^= b
        if plain_high_aim:
            shown = _plain_high_value_without(t, halves, draw_weight, keep, key, longest_less_one, b)
        else:
            shown = _aim_value_without(t, policy, keep, key, b, aim, howdy)
        score = -shown if hide_weakest else shown  # hiding my strongest leaves the weakest show
        if score < hide_score:
            hide_score = score
            hide = b
    return hide
