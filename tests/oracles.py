"""Independent oracles for the evaluator tests.

* pokerkit, a peer library, for natural hands (high, ace-to-five low, 8-or-better);
* a slow, obviously correct brute force for wild cards: substitute every card for
  every wild, take the best five of the result, classify five cards the plain way.
  It shares no code with ``kernels``.
"""

from itertools import combinations, combinations_with_replacement

import numpy as np
from numba import njit

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def card_string(codes) -> str:
    return "".join(RANKS[c >> 2] + SUITS[c & 3] for c in codes)


# ------------------------------------------------------------------ pokerkit


def pokerkit_values(hands, kind):
    """pokerkit's order key of each hand, larger is better; ``None`` for no hand."""
    from pokerkit import EightOrBetterLowHand, RegularLowHand, StandardHighHand

    cls = {"high": StandardHighHand, "low": RegularLowHand, "low8": EightOrBetterLowHand}[kind]
    sign = -1 if cls.low else 1  # pokerkit's low entries are smaller when better
    out = []
    for row in hands:
        hand = cls.from_game_or_none(card_string(row))
        out.append(None if hand is None else sign * hand.entry.index)
    return out


def same_order(ours, theirs):
    """Whether two value lists order every pair of hands alike, ties included.

    ``None`` in ``theirs`` (no hand) must match 0 in ``ours`` and rank lowest.
    Returns ``(ok, example)`` with an example pair of indices that disagree.
    """
    ours = np.asarray(ours, dtype=np.int64)
    lowest = min(v for v in theirs if v is not None) - 1 if any(v is not None for v in theirs) else 0
    theirs = np.array([lowest if v is None else v for v in theirs], dtype=np.int64)
    pairs = np.unique(np.stack([ours, theirs], axis=1), axis=0)  # sorted by ours, then theirs
    # A strictly increasing bijection between the two value sets orders all pairs alike.
    bad = np.flatnonzero(np.diff(pairs[:, 0]) <= 0) if len(pairs) > 1 else []
    if len(bad) == 0 and len(pairs) > 1:
        bad = np.flatnonzero(np.diff(pairs[:, 1]) <= 0)
    if len(bad) == 0:
        return True, None
    a, b = pairs[bad[0]], pairs[bad[0] + 1]
    i = int(np.flatnonzero((ours == a[0]) & (theirs == a[1]))[0])
    j = int(np.flatnonzero((ours == b[0]) & (theirs == b[1]))[0])
    return False, (i, j)


# ------------------------------------------------------- brute force with wilds

# Category numbers of the oracle (its own, larger is better).
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS = range(8)
STRAIGHT_FLUSH_SLOT = 10
NATURAL_ROYAL_SLOT = 12


@njit(cache=True)
def _five_high(ranks, suits, natural, position):
    """Plain classification of exactly five cards (duplicates allowed), as an int.

    ``natural[i]`` says card i is not a wild; used for the natural royal flush.
    """
    counts = np.zeros(13, np.int64)
    for r in ranks:
        counts[r] += 1
    # Ranks ordered by (count, rank), highest first: the comparison order.
    order = np.empty(5, np.int64)
    k = 0
    for c in range(5, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == c:
                for _ in range(c):
                    order[k] = r
                    k += 1
    flush = suits[0] == suits[1] == suits[2] == suits[3] == suits[4]
    distinct = 0
    for r in range(13):
        if counts[r] > 0:
            distinct += 1
    straight_top = -1
    if distinct == 5:
        if order[0] - order[4] == 4:
            straight_top = order[0]
        elif order[0] == 12 and order[1] == 3:  # A-5-4-3-2
            straight_top = 3
    top_count = counts[order[0]]
    if top_count == 5:
        slot = 9 if position == 1 else 11  # below / above the straight flush
        return slot * 16**5 + order[0]
    if straight_top >= 0 and flush:
        all_natural = natural[0] and natural[1] and natural[2] and natural[3] and natural[4]
        if position == 2 and straight_top == 12 and all_natural:
            return NATURAL_ROYAL_SLOT * 16**5
        return STRAIGHT_FLUSH_SLOT * 16**5 + straight_top
    second_count = counts[order[top_count]] if top_count < 5 else 0
    if top_count == 4:
        cat = QUADS
    elif top_count == 3 and second_count == 2:
        cat = FULL_HOUSE
    elif flush:
        cat = FLUSH
    elif straight_top >= 0:
        return (STRAIGHT + 1) * 16**5 + straight_top
    elif top_count == 3:
        cat = TRIPS
    elif top_count == 2 and second_count == 2:
        cat = TWO_PAIR
    elif top_count == 2:
        cat = PAIR
    else:
        cat = HIGH_CARD
    if cat == FLUSH:
        # A flush compares its ranks from the top, duplicates (double-ace) included.
        srt = np.sort(ranks)[::-1]
        v = 0
        for r in srt:
            v = v * 16 + r
        return (cat + 1) * 16**5 + v
    v = 0
    for r in order:
        v = v * 16 + r
    return (cat + 1) * 16**5 + v


@njit(cache=True)
def _best_of(ranks, suits, natural, position, allow_duplicates):
    """Best value of every five-card subset; a subset with a repeated card counts
    only as five of a kind, or whenever duplicates are allowed."""
    n = ranks.shape[0]
    best = -1
    idx = np.empty(5, np.int64)
    r5 = np.empty(5, np.int64)
    s5 = np.empty(5, np.int64)
    n5 = np.empty(5, np.bool_)
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    for e in range(d + 1, n):
                        idx[0], idx[1], idx[2], idx[3], idx[4] = a, b, c, d, e
                        repeated = False
                        for i in range(5):
                            r5[i] = ranks[idx[i]]
                            s5[i] = suits[idx[i]]
                            n5[i] = natural[idx[i]]
                            for j in range(i):
                                if r5[i] == r5[j] and s5[i] == s5[j]:
                                    repeated = True
                        v = _five_high(r5, s5, n5, position)
                        slot = v // 16**5
                        if repeated and not allow_duplicates and slot != 9 and slot != 11:
                            continue
                        best = max(best, v)
    return best


@njit(cache=True)
def _brute_high(nat_ranks, nat_suits, w, position, allow_duplicates, subs):
    n = nat_ranks.shape[0]
    ranks = np.empty(n + w, np.int64)
    suits = np.empty(n + w, np.int64)
    natural = np.zeros(n + w, np.bool_)
    ranks[:n] = nat_ranks
    suits[:n] = nat_suits
    natural[:n] = True
    best = -1
    for row in range(subs.shape[0]):
        for j in range(w):
            ranks[n + j] = subs[row, j] >> 2
            suits[n + j] = subs[row, j] & 3
        best = max(best, _best_of(ranks, suits, natural, position, allow_duplicates))
    return best


_SUBSTITUTIONS = {}


def _substitutions(w):
    if w not in _SUBSTITUTIONS:
        _SUBSTITUTIONS[w] = np.array(list(combinations_with_replacement(range(52), w)), dtype=np.int64)
    return _SUBSTITUTIONS[w]


def brute_high(naturals, w, position=0, allow_duplicates=False):
    """Best high value of the natural card codes plus ``w`` wilds, by trying every
    substitution (each wild any of the 52 cards). Values order like the kernels'
    strengths but are not equal to them."""
    nat = np.asarray(naturals, dtype=np.int64)
    if w == 0:
        return _best_of(nat >> 2, nat & 3, np.ones(len(nat), np.bool_), position, allow_duplicates)
    return _brute_high(nat >> 2, nat & 3, w, position, allow_duplicates, _substitutions(w))


def _low_value(rank):
    return 1 if rank == 12 else rank + 2


def _five_low_key(values):
    """Sort key of five low values (ace 1), smaller is better: pattern, then groups."""
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    shape = sorted(counts.values(), reverse=True)
    pattern = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5}[tuple(shape)]
    groups = sorted(counts, key=lambda v: (-counts[v], -v))
    return (pattern, tuple(groups) if pattern else tuple(sorted(values, reverse=True)))


def brute_low(naturals, w):
    """Best ace-to-five low key (smaller is better) of natural codes plus ``w`` wilds,
    each wild tried as every rank (suits do not matter for low); ``None`` under 5 cards.
    A wild that would make a fifth card of a rank is not a real card and is skipped."""
    nat = [_low_value(int(c) >> 2) for c in naturals]
    best = None
    for subs in combinations_with_replacement(range(1, 14), w):
        values = nat + list(subs)
        if any(values.count(v) > 4 for v in values):
            continue
        for five in combinations(values, 5):
            if max(five.count(v) for v in five) > 4:
                continue
            key = _five_low_key(five)
            if best is None or key < best:
                best = key
    return best
