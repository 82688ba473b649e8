"""Selection (RulesPal) hands: the configured deck's card model and the exact best
score of each board slot kind (RULES.md §5.3-§5.5).

Selection does not use the 52-card codes of ``kernels.cards``: its deck is
configuration (a standard 52-card deck or a deck of k colours). A card is an
index into the configured deck, described by a ``deck`` matrix with one row per
card: rank value (1..14: a "1" card, 2..10, J 11, Q 12, K 13, A 14), colour,
kind (numerical, face, ace) and card points (10 base plus the pip value for
numerical cards, plus 10 for faces, plus 15 for aces: §5.2.9). A small ``prof``
matrix summarises the deck for the policies and evaluators (cards per rank, per
colour and per colour-and-rank, points per rank, and scalars). Both are built
once on the Python side (``analyzer.selection_config``).

A hand is the 7 card indices a player holds. ``analyse`` copies what the
evaluators need about them (ranks, colours, points, counts) into a small context
array ``x`` once per decision. ``best_fill`` gives the best score a slot kind can
take from the hand, and which positions are used, by direct counting;
that equals enumerating every subset of at most five of the seven cards (the
tests check it against such an enumeration). A score of 0 means the slot cannot
be filled: every real fill scores at least 11.

Functions marked ``_nrt=False`` run without numba's reference counting whoever
calls them (they allocate nothing and return no array); see
``kernels.engine.game_play`` for why and what it gains.
"""

import numpy as np
from numba import njit

from ..ranking import low_bit

MAX_CARDS = 255
MAX_COLOURS = 8
HAND = 7
MAX_USED = 5
ACE = 14
NO_BOUND = 1 << 30
FULL_HAND = (1 << HAND) - 1

# Deck matrix columns.
C_RANK = 0
C_COLOUR = 1
C_KIND = 2
C_POINTS = 3
CARD_WIDTH = 4

NUMERICAL = 0
FACE = 1
ACE_KIND = 2

# Deck profile rows (PROFILE_COLS columns each).
P_RANK_TOTAL = 0  # cards of each rank value 1..14
P_RANK_POINTS = 1  # card points of each rank value
P_COLOUR_TOTAL = 2  # cards of each colour 0..MAX_COLOURS-1
P_SCALARS = 3
P_WINDOW_POINTS = 4  # column s: points of the five ranks s..s+4 (0 if the deck lacks one)
P_RC_TOTAL = 5  # rows 5.. : cards of (colour, rank value)
PROFILE_ROWS = P_RC_TOTAL + MAX_COLOURS
PROFILE_COLS = 16

# Scalars (row P_SCALARS).
S_N_CARDS = 0
S_N_COLOURS = 1
S_ACE_LOW = 2  # an ace also counts as rank 1 in straights (decks without a "1")
S_COSMO_COLOURS = 3  # distinct colours Cosmopolitan needs: min(5, colours) (§5.4, §5.5)
S_MEAN_POINTS_X1000 = 4  # mean card points of the deck, x1000
S_RANK_BITS = 5  # bit r set for each rank value in the deck (bit 1 also for an ace-low ace)

# Slot kinds (board matrix column B_KIND; names in analyzer.selection_config.KINDS).
K_COSMOPOLITAN = 0
K_LOW = 1
K_HIGH = 2
K_PAIR = 3
K_TWO_PAIR = 4
K_THREE = 5
K_STRAIGHT = 6
K_FLUSH = 7
K_FULL_HOUSE = 8
K_FOUR = 9
K_STRAIGHT_FLUSH = 10
N_KINDS = 11

# Which cards of a pair / two pair / trips / quads fill score.
USED_MATCHED = 0  # only the matched cards (§5.4 placeholders)
USED_ALL = 1  # the matched cards plus the best kickers up to five cards

# Decision context ``x`` (int64): what ``analyse`` extracts from a 7-card hand.
X_RANK = 0  # 7 rank values by hand position
X_COLOUR = 7  # 7 colours
X_POINTS = 14  # 7 card points
X_LH = 21  # 7 points in Low / High (0: the card may not be used there)
X_CNT = 28  # cards of each rank value 0..14
X_CCNT = 43  # cards of each colour
X_CRM = 51  # straight bits of each colour
X_RM = 59  # straight bits of the hand
X_BUF = 60  # 14 integers of scratch space
X_CSUM = 74  # points of the cards held of each colour
X_GROUPS = X_CSUM + MAX_COLOURS  # group_scores by slot kind (policies)
X_SCORES = X_GROUPS + 16  # fill scores by slot (policies)
X_HALF_SUMS = X_SCORES + 16  # best_low_high: subset sums of the first 3 (8) and the next 4 (16) values
CTX_SIZE = X_HALF_SUMS + 24


@njit(cache=True, _nrt=False)
def popcount(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def _exchange(a, b):
    return max(a, b), min(a, b)


@njit(cache=True, _nrt=False, inline="always")
def sort7_descending(k0, k1, k2, k3, k4, k5, k6):
    """Seven integers, largest first, by a 16-comparator sorting network: maxima and
    minima, no branch on the values (a choice of the largest over and over again
    branches on every comparison)."""
    k0, k6 = _exchange(k0, k6)
    k2, k3 = _exchange(k2, k3)
    k4, k5 = _exchange(k4, k5)
    k0, k2 = _exchange(k0, k2)
    k1, k4 = _exchange(k1, k4)
    k3, k6 = _exchange(k3, k6)
    k0, k1 = _exchange(k0, k1)
    k2, k5 = _exchange(k2, k5)
    k3, k4 = _exchange(k3, k4)
    k1, k2 = _exchange(k1, k2)
    k4, k6 = _exchange(k4, k6)
    k2, k3 = _exchange(k2, k3)
    k4, k5 = _exchange(k4, k5)
    k1, k2 = _exchange(k1, k2)
    k3, k4 = _exchange(k3, k4)
    k5, k6 = _exchange(k5, k6)
    return k0, k1, k2, k3, k4, k5, k6


@njit(cache=True, _nrt=False)
def rank_bits(rank, ace_low):
    """Straight bits of a rank value: bit ``rank``, and bit 1 for an ace-low ace."""
    b = 1 << rank
    if ace_low and rank == ACE:
        b |= 2
    return b


@njit(cache=True, _nrt=False)
def bit_rank(bit, ace_low):
    """The rank value a straight bit stands for."""
    if bit == 1 and ace_low:
        return ACE
    return bit


@njit(cache=True, _nrt=False)
def card_low_high_points(deck, c, ace_one):
    """A card's points in Low / High, or 0 if it may not be used there (§5.2.10;
    SE-A3: with ``ace_one`` an ace is a numerical 1 worth 11)."""
    k = deck[c, C_KIND]
    if k == NUMERICAL:
        return deck[c, C_POINTS]
    if k == ACE_KIND and ace_one:
        return 11
    return 0


@njit(cache=True, _nrt=False, inline="always")
def analyse(hand, deck, prof, ace_one, x):
    """Fill the context ``x`` from the 7 card indices of ``hand``."""
    ace_low = prof[P_SCALARS, S_ACE_LOW]
    for i in range(X_CNT, X_RM + 1):
        x[i] = 0
    for i in range(X_CSUM, X_CSUM + MAX_COLOURS):
        x[i] = 0
    rm = 0
    for i in range(HAND):
        c = hand[i]
        r = deck[c, C_RANK]
        col = deck[c, C_COLOUR]
        x[X_RANK + i] = r
        x[X_COLOUR + i] = col
        x[X_POINTS + i] = deck[c, C_POINTS]
        x[X_LH + i] = card_low_high_points(deck, c, ace_one)
        x[X_CNT + r] += 1
        x[X_CCNT + col] += 1
        x[X_CSUM + col] += x[X_POINTS + i]
        b = rank_bits(r, ace_low)
        rm |= b
        x[X_CRM + col] |= b
    x[X_RM] = rm


@njit(cache=True, _nrt=False, inline="always")
def held_ranks(x, prof):
    """Bit ``r`` for each rank value held: the hand's straight bits less the ace-low
    bit 1 of an ace (a deck whose aces play low has no 1 card)."""
    return x[X_RM] & ~2 if prof[P_SCALARS, S_ACE_LOW] else x[X_RM]


@njit(cache=True, _nrt=False)
def rank_positions(x, rank, k, exclude):
    """Mask of the first ``k`` positions holding ``rank``, skipping ``exclude``."""
    m = 0
    got = 0
    for i in range(HAND):
        if got >= k:
            break
        if not (exclude >> i) & 1 and x[X_RANK + i] == rank:
            m |= 1 << i
            got += 1
    return m


# A card's order key: its value x 8 + (7 - position), so that the larger key is the
# card taken first (the larger value, then the earlier position); 0 is no card.
@njit(cache=True, _nrt=False, inline="always")
def order_key(value, i):
    return value * 8 + (HAND - i)


@njit(cache=True, _nrt=False, inline="always")
def key_value(key):
    return key >> 3


@njit(cache=True, _nrt=False, inline="always")
def key_bit(key):
    """The hand-position bit of an order key's card."""
    return 1 << (HAND - (key & 7))


@njit(cache=True, _nrt=False, inline="always")
def _points_key(x, i, exclude, colour):
    """Card ``i``'s order key by points, or 0 when it is excluded or of another colour."""
    if (exclude >> i) & 1 or (colour >= 0 and x[X_COLOUR + i] != colour):
        return 0
    return order_key(x[X_POINTS + i], i)


@njit(cache=True, _nrt=False)
def top_points(x, exclude, k, colour):
    """``(sum, mask)`` of the ``k`` highest-point cards outside ``exclude`` (only
    cards of ``colour`` when it is >= 0; the earlier of equal ones first); fewer
    when fewer are there."""
    k0 = _points_key(x, 0, exclude, colour)
    k1 = _points_key(x, 1, exclude, colour)
    k2 = _points_key(x, 2, exclude, colour)
    k3 = _points_key(x, 3, exclude, colour)
    k4 = _points_key(x, 4, exclude, colour)
    k5 = _points_key(x, 5, exclude, colour)
    k6 = _points_key(x, 6, exclude, colour)
    if k == 1:
        key = max(max(max(k0, k1), max(k2, k3)), max(max(k4, k5), k6))
        if key == 0:
            return 0, 0
        return key_value(key), key_bit(key)
    total = 0
    used = 0
    taken = 0
    for key in sort7_descending(k0, k1, k2, k3, k4, k5, k6):
        if key == 0 or taken >= k:
            break
        total += key_value(key)
        used |= key_bit(key)
        taken += 1
    return total, used


@njit(cache=True, _nrt=False)
def group_shape(kind):
    """``(ca, cb)``: cards of one rank and of another a rank-group kind needs."""
    if kind == K_PAIR:
        return 2, 0
    if kind == K_TWO_PAIR:
        return 2, 2
    if kind == K_THREE:
        return 3, 0
    if kind == K_FOUR:
        return 4, 0
    return 3, 2  # K_FULL_HOUSE


@njit(cache=True, _nrt=False)
def best_groups(x, prof, kind, used_all):
    """Best ``ca`` cards of one rank plus (``cb`` > 0) ``cb`` of another rank:
    pair (2, 0), trips (3, 0), quads (4, 0), two pair (2, 2), full house (3, 2).
    With ``used_all`` the best other cards up to five score too."""
    ca, cb = group_shape(kind)
    none = np.int64(0)
    any_colour = np.int64(-1)
    best = 0
    best_mask = 0
    for a in range(1, ACE + 1):
        if x[X_CNT + a] < ca:
            continue
        pa = prof[P_RANK_POINTS, a]
        if cb == 0:
            s = ca * pa
            m = 0
            if used_all or s > best:
                m = rank_positions(x, a, ca, none)
            if used_all:
                k, km = top_points(x, m, MAX_USED - ca, any_colour)
                s += k
                m |= km
            if s > best:
                best = s
                best_mask = m
            continue
        for b in range(1, ACE + 1):
            if b == a or x[X_CNT + b] < cb:
                continue
            s = ca * pa + cb * prof[P_RANK_POINTS, b]
            m = 0
            if used_all or s > best:
                m = rank_positions(x, a, ca, none) | rank_positions(x, b, cb, none)
            if used_all:
                k, km = top_points(x, m, MAX_USED - ca - cb, any_colour)
                s += k
                m |= km
            if s > best:
                best = s
                best_mask = m
    return best, best_mask


@njit(cache=True, _nrt=False)
def straight_mask(x, prof, start, bits, colour):
    """One position for each rank of the window at ``start`` that ``bits`` holds
    (cards of ``colour`` only, when it is >= 0)."""
    ace_low = prof[P_SCALARS, S_ACE_LOW]
    mask = 0
    for b in range(start, start + 5):
        if not (bits >> b) & 1:
            continue
        r = bit_rank(b, ace_low)
        for i in range(HAND):
            if not (mask >> i) & 1 and x[X_RANK + i] == r and (colour < 0 or x[X_COLOUR + i] == colour):
                mask |= 1 << i
                break
    return mask


@njit(cache=True, _nrt=False)
def best_straight(x, prof, bits, colour):
    """Best five consecutive ranks among ``bits`` (one card each, of ``colour``
    when it is >= 0: a straight flush)."""
    ace_low = prof[P_SCALARS, S_ACE_LOW]
    best = 0
    start = -1
    for s in range(1, 11):
        w = 31 << s
        if bits & w != w:
            continue
        tot = 0
        for b in range(s, s + 5):
            tot += prof[P_RANK_POINTS, bit_rank(b, ace_low)]
        if tot > best:
            best = tot
            start = s
    if start < 0:
        return 0, 0
    return best, straight_mask(x, prof, start, bits, colour)


@njit(cache=True, _nrt=False)
def colour_bests(x, prof):
    """Mask of the highest-point card of each colour held, and how many colours."""
    k = prof[P_SCALARS, S_N_COLOURS]
    mask = 0
    present = 0
    for col in range(k):
        if x[X_CCNT + col] == 0:
            continue
        present += 1
        best = -1
        bi = -1
        for i in range(HAND):
            if x[X_COLOUR + i] == col and x[X_POINTS + i] > best:
                best = x[X_POINTS + i]
                bi = i
        mask |= 1 << bi
    return mask, present


@njit(cache=True, _nrt=False)
def best_cosmopolitan(x, prof):
    """Five cards of five different colours; with fewer than five colours in the
    deck (standard52: the 4-suit fallback of §5.4) five cards showing every colour."""
    need = prof[P_SCALARS, S_COSMO_COLOURS]
    bests, present = colour_bests(x, prof)
    if present < need:
        return 0, 0
    if need >= MAX_USED:
        # The five colours whose best cards score most.
        return top_points(x, FULL_HAND & ~bests, np.int64(MAX_USED), np.int64(-1))
    # Every colour once (the best card of each) and the best other cards.
    s = 0
    for i in range(HAND):
        if (bests >> i) & 1:
            s += x[X_POINTS + i]
    k, km = top_points(x, bests, MAX_USED - need, np.int64(-1))
    return s + k, bests | km


@njit(cache=True, _nrt=False)
def best_low_high(x, min_cards, lo, hi, want_max):
    """Numerical cards only, ``min_cards`` to 5 of them, with a score in
    ``(lo, hi]``: the highest such score (``want_max``) or the lowest."""
    # The usable values and their positions, packed to the front without a branch
    # on which cards are numerical: every value is written, only a usable one kept.
    n = 0
    total = 0
    for i in range(HAND):
        v = x[X_LH + i]
        x[X_BUF + n] = v
        x[X_BUF + HAND + n] = i
        n += v > 0
        total += v
    if n < min_cards or n == 0:
        return 0, 0
    if want_max:
        # The top five, when it fits under ``hi``, is the answer: the five largest
        # values, the earlier of equal ones first; so all but the smallest one or two,
        # the later of equal ones dropped first.
        taken = (1 << n) - 1
        top = total
        for _ in range(n - MAX_USED):
            bj = -1
            for j in range(n):
                if (taken >> j) & 1 and (bj < 0 or x[X_BUF + j] <= x[X_BUF + bj]):
                    bj = j
            taken &= ~(1 << bj)
            top -= x[X_BUF + bj]
        if top <= hi:
            if top <= lo:
                return 0, 0
            mask = 0
            for j in range(n):
                if (taken >> j) & 1:
                    mask |= 1 << x[X_BUF + HAND + j]
            return top, mask
    # Every subset's sum is that of its part among the first three values plus that of
    # its part among the next four: two lookups in 24 sums worked out first, instead of
    # summing each of up to 127 subsets bit by bit.
    x[X_HALF_SUMS] = 0
    x[X_HALF_SUMS + 8] = 0
    for m in range(1, 8):
        x[X_HALF_SUMS + m] = x[X_HALF_SUMS + (m & (m - 1))] + x[X_BUF + np.int64(low_bit(m))]
    for m in range(1, 16):
        x[X_HALF_SUMS + 8 + m] = x[X_HALF_SUMS + 8 + (m & (m - 1))] + x[X_BUF + 3 + np.int64(low_bit(m))]
    best = 0
    best_sub = 0
    for sub in range(1, 1 << n):
        pc = popcount(sub)
        if pc < min_cards or pc > MAX_USED:
            continue
        s = x[X_HALF_SUMS + (sub & 7)] + x[X_HALF_SUMS + 8 + (sub >> 3)]
        if s <= lo or s > hi:
            continue
        if best == 0 or (want_max and s > best) or (not want_max and s < best):
            best = s
            best_sub = sub
    mask = 0
    for j in range(n):
        if (best_sub >> j) & 1:
            mask |= 1 << x[X_BUF + HAND + j]
    return best, mask


@njit(cache=True, _nrt=False)
def best_fill(kind, used, x, prof, min_cards, lo, hi, want_max):
    """``(score, used positions)`` of the best fill of a slot of ``kind`` from the
    analysed hand ``x``; 0 when the slot cannot be filled. ``lo``, ``hi``,
    ``want_max`` and ``min_cards`` matter for Low and High only."""
    used_all = used == USED_ALL
    if kind == K_LOW or kind == K_HIGH:
        return best_low_high(x, min_cards, lo, hi, want_max)
    if kind == K_PAIR or kind == K_TWO_PAIR or kind == K_THREE or kind == K_FOUR or kind == K_FULL_HOUSE:
        return best_groups(x, prof, kind, used_all)
    if kind == K_STRAIGHT:
        return best_straight(x, prof, x[X_RM], np.int64(-1))
    if kind == K_FLUSH or kind == K_STRAIGHT_FLUSH:
        best = 0
        best_mask = 0
        for col in range(prof[P_SCALARS, S_N_COLOURS]):
            if x[X_CCNT + col] >= MAX_USED:
                if kind == K_FLUSH:
                    s, m = top_points(x, np.int64(0), np.int64(MAX_USED), col)
                else:
                    s, m = best_straight(x, prof, x[X_CRM + col], col)
                if s > best:
                    best = s
                    best_mask = m
        return best, best_mask
    if kind == K_COSMOPOLITAN:
        return best_cosmopolitan(x, prof)
    return 0, 0


@njit(cache=True, _nrt=False)
def group_scores(x, prof, out):
    """Best matched-card scores of the rank-group kinds in one pass over the rank
    counts: ``out[K_PAIR]``, ``out[K_TWO_PAIR]``, ``out[K_THREE]``, ``out[K_FOUR]``,
    ``out[K_FULL_HOUSE]`` (0 where the hand has none)."""
    pr1 = 0  # the best rank held twice or more (by points); the two best such points
    pp1 = 0
    pp2 = 0
    tr1 = 0  # the two best ranks held three times or more
    tp1 = 0
    tp2 = 0
    quad = 0
    for r in range(1, ACE + 1):
        c = x[X_CNT + r]
        if c < 2:
            continue
        p = prof[P_RANK_POINTS, r]
        if p > pp1:
            pp2 = pp1
            pr1, pp1 = r, p
        elif p > pp2:
            pp2 = p
        if c >= 3:
            if p > tp1:
                tp2 = tp1
                tr1, tp1 = r, p
            elif p > tp2:
                tp2 = p
        if c >= 4 and p > quad:
            quad = p
    out[K_PAIR] = 2 * pp1
    out[K_TWO_PAIR] = 2 * (pp1 + pp2) if pp2 > 0 else 0
    out[K_THREE] = 3 * tp1
    out[K_FOUR] = 4 * quad
    fh = 0
    if tp1 > 0:
        # Trips of the best triple rank with the best other pair, or trips of the
        # second triple rank with a pair from the first.
        other = pp2 if pr1 == tr1 else pp1
        if other > 0:
            fh = 3 * tp1 + 2 * other
        if tp2 > 0:
            fh = max(fh, 3 * tp2 + 2 * tp1)
    out[K_FULL_HOUSE] = fh


@njit(cache=True)
def slot_score(kind, used, hand, deck, prof, ace_one, min_cards, lo, hi, want_max):
    """``best_fill`` for one hand, with its own context (tests, queries)."""
    x = np.zeros(CTX_SIZE, np.int64)
    analyse(hand, deck, prof, ace_one, x)
    return best_fill(np.int64(kind), np.int64(used), x, prof, np.int64(min_cards), np.int64(lo), np.int64(hi),
                     np.bool_(want_max))
