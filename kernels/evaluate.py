"""High and ace-to-five low evaluators, single hands and batches.

Two paths give the same strengths:

* the **hashed path** for 5 to 7 natural cards: sum the cards' keys, test for a
  flush with one ``&``, then one lookup (``kernels.tables``);
* the **mask path** for anything else: more than seven cards, fewer than five,
  and wild cards. It works on a suit-major card mask (``kernels.cards``) and the
  rank-set evaluators of ``kernels.ranking``.

Every function takes the tables as its first argument ``t``: one ``uint32`` array
(``eval_tables``) holding the flush table, the row offsets of the perfect hash and
the high, low and high-with-a-wild tables, read through ``rank_slot`` /
``high_at`` / ``low_at`` / ``high_wild_at`` / ``flush_at``, then the seven-card
tables that only the batch kernels read (``seven_slot``, through the array's
``uint16`` view for the 16-bit row offsets), then the one-more rows of hands of up
to five cards that the policies read (``one_more_row``, through the same view), and
the short table of hands of up to six cards (``short_entry``, the same view). One
plain array, not a tuple of arrays: numba updates the reference count of every array
in a tuple argument on each call that is not inlined (about 50 ns for five arrays,
measured), and the game kernels make many such calls per deal. The card keys are a constant
(``CARD_KEYS``) derived from the multipliers in ``kernels/tables.py``; the tables
are data and never a global, since numba's cache would not notice a changed global
array.
"""

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from .cards import NO_CARD, SUIT_SHIFT, card_bit, suit_ranks
from .ranking import (
    CAT_SHIFT,
    FIVE_KIND_ABOVE_SF,
    FIVE_KIND_BELOW_SF,
    FK_ABOVE_SF_BELOW_NATURAL_ROYAL,
    FK_ABOVE_STRAIGHT_FLUSH,
    FK_BELOW_STRAIGHT_FLUSH,
    FLUSH,
    NATURAL_ROYAL,
    ROYAL,
    STRAIGHT_FLUSH,
    add_rank,
    high_from_rank_sets,
    low_bit,
    low_from_rank_sets,
    pack,
    popcount,
    straight_nibbles,
    to_low_order,
    top_bit,
    top_nibbles,
)
from .tables import (
    FLUSH_CHECK,
    INITIAL_KEY,
    N_ONE_MORE_ROWS,
    N_ONE_MORE_SLOTS,
    N_ROWS,
    N_SEVEN_ROWS,
    N_SEVEN_SLOTS,
    N_SHORT_ROWS,
    N_SHORT_SLOTS,
    N_SLOTS,
    ONE_MORE_ROW_MASK,
    ONE_MORE_ROW_SHIFT,
    ONE_MORE_WIDTH,
    RANK_MULTIPLIERS,
    ROW_MASK,
    ROW_SHIFT,
    SEVEN_ROW_MASK,
    SEVEN_ROW_SHIFT,
    SEVEN_STEP,
    SHORT_ROW_MASK,
    SHORT_ROW_SHIFT,
    SUIT_COUNTER_SHIFT,
    card_keys,
    load_tables,
)

CARD_KEYS = card_keys()  # the 64-bit key of each card code (a compile-time constant)


def _rank_set_keys():
    """For each 13-bit rank set, the sum of its ranks' multipliers: the rank part
    of the key of one suit's cards (a compile-time constant; ``uint32``, 32 KB)."""
    sets = np.arange(1 << 13)
    keys = np.zeros(1 << 13, dtype=np.uint64)
    for rank in range(13):
        keys += np.where((sets >> rank) & 1, RANK_MULTIPLIERS[rank], np.uint64(0))
    assert keys.max() < 2**32
    return keys.astype(np.uint32)


RANK_SET_KEYS = _rank_set_keys()


def _keys_by_bit():
    """``CARD_KEYS`` by each card's mask bit (``card_bit``: bit ``SUIT_SHIFT * suit +
    rank``; 0 where no card is), so that a card's key is read without its code."""
    keys = np.zeros(64, dtype=np.uint64)
    codes = np.arange(52)
    keys[SUIT_SHIFT * (codes & 3) + (codes >> 2)] = CARD_KEYS
    return keys


KEYS_BY_BIT = _keys_by_bit()  # a compile-time constant
# The packed tables: [flush table | row offsets | high | low | high_wild], at offsets
# fixed at compile time (a run-time header would be re-read after every store to an
# output).
FLUSH_SIZE = 1 << 13
T_FLUSH = 0
T_OFFSETS = T_FLUSH + FLUSH_SIZE
T_HIGH = T_OFFSETS + N_ROWS
T_LOW = T_HIGH + N_SLOTS
T_HIGH_WILD = T_LOW + N_SLOTS
T_SEVEN_OFFSETS = T_HIGH_WILD + N_SLOTS  # 16-bit offsets, two a word: read through a uint16 view
T_SEVEN_HIGH = T_SEVEN_OFFSETS + (N_SEVEN_ROWS + 1) // 2
T_SEVEN_LOW = T_SEVEN_HIGH + N_SEVEN_SLOTS
T_ONE_MORE_OFFSETS = T_SEVEN_LOW + N_SEVEN_SLOTS  # 16-bit offsets, then 16-bit rows: read through the uint16 view
T_ONE_MORE = T_ONE_MORE_OFFSETS + (N_ONE_MORE_ROWS + 1) // 2
T_SHORT_OFFSETS = T_ONE_MORE + N_ONE_MORE_SLOTS * ONE_MORE_WIDTH // 2  # 16-bit offsets, then 16-bit entries
T_SHORT = T_SHORT_OFFSETS + (N_SHORT_ROWS + 1) // 2
T_SIZE = T_SHORT + (N_SHORT_SLOTS + 1) // 2

ROYAL_FLUSH_STRENGTH = pack(STRAIGHT_FLUSH, 13, 12, 11, 10, 9)
LOW_ORDER = np.array([12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], dtype=np.int64)
_SUIT_COUNTER_SHIFT = np.uint64(32)


def _as_words(halves):
    """A ``uint16`` array as ``uint32`` words, padded to a whole word."""
    padded = np.zeros(2 * ((halves.shape[0] + 1) // 2), np.uint16)
    padded[:halves.shape[0]] = halves
    return padded.view(np.uint32)


def eval_tables():
    """The shipped lookup tables packed into the one ``uint32`` array every
    evaluator takes (see the module docstring)."""
    t = load_tables()
    names = ["flush", "offsets", "high", "low", "high_wild", "seven_offsets", "seven_high", "seven_low",
             "one_more_offsets", "one_more", "short_offsets", "short"]
    if (not np.array_equal(t["card_keys"], CARD_KEYS) or any(name not in t for name in names)
            or [t[name].shape[0] for name in names] != [FLUSH_SIZE, N_ROWS, N_SLOTS, N_SLOTS, N_SLOTS, N_SEVEN_ROWS,
                                                        N_SEVEN_SLOTS, N_SEVEN_SLOTS, N_ONE_MORE_ROWS,
                                                        N_ONE_MORE_SLOTS, N_SHORT_ROWS, N_SHORT_SLOTS]):
        raise RuntimeError("kernels/data/eval_tables.npz does not match kernels/tables.py: rebuild it with "
                           "python -m kernels.tables and set N_ROWS, N_SLOTS, N_SEVEN_ROWS, N_SEVEN_SLOTS, "
                           "N_ONE_MORE_ROWS, N_ONE_MORE_SLOTS, N_SHORT_ROWS and N_SHORT_SLOTS to the sizes it "
                           "prints")
    # The 16-bit parts are read back through the same view, whatever the byte order.
    sixteen_bit = ("seven_offsets", "one_more_offsets", "one_more", "short_offsets", "short")
    parts = [_as_words(t[name].reshape(-1)) if name in sixteen_bit else t[name] for name in names]
    packed = np.concatenate(parts).astype(np.uint32)
    assert packed.shape[0] == T_SIZE
    return np.ascontiguousarray(packed)


@njit(cache=True)
def high_at(t, slot):
    """The high table's value at a slot (``rank_slot``)."""
    return t[T_HIGH + slot]


@njit(cache=True)
def low_at(t, slot):
    """The low table's value at a slot (``rank_slot``)."""
    return t[T_LOW + slot]


@njit(cache=True)
def high_wild_at(t, slot):
    """The best high of the slot's rank multiset (at most six cards) plus one wild
    card that makes no five of a kind."""
    return t[T_HIGH_WILD + slot]


@njit(cache=True)
def flush_at(t, ranks):
    """The flush table's value for a 13-bit rank set."""
    return t[T_FLUSH + ranks]


# --------------------------------------------------------------------- hashed path


@njit(cache=True)
def rank_slot(t, key):
    """Table index of the rank part of a hand key."""
    rk = np.uint32(key)
    return (rk & np.uint32(ROW_MASK)) + t[T_OFFSETS + (rk >> np.uint32(ROW_SHIFT))]


@njit(cache=True)
def seven_slot(halves, key):
    """Slot of a seven-card hand's key in the seven-card tables; ``halves`` is
    the tables' ``uint16`` view (``t.view(np.uint16)``)."""
    rk = np.uint32(key)
    row = rk >> np.uint32(SEVEN_ROW_SHIFT)
    return (rk & np.uint32(SEVEN_ROW_MASK)) + SEVEN_STEP * halves[2 * T_SEVEN_OFFSETS + row]


@njit(cache=True, inline="always")
def one_more_row(halves, key):
    """Where the ``one_more`` row of a key's rank multiset (at most ``ONE_MORE_CARDS``
    cards) begins in the tables' ``uint16`` view ``halves``: entry ``r`` of the row
    is the hand with one more card of rank ``r`` (kernels/tables.py)."""
    rk = np.uint32(key)
    slot = (rk & np.uint32(ONE_MORE_ROW_MASK)) + halves[2 * T_ONE_MORE_OFFSETS + (rk >> np.uint32(ONE_MORE_ROW_SHIFT))]
    return 2 * T_ONE_MORE + ONE_MORE_WIDTH * np.int64(slot)


@njit(cache=True, inline="always")
def short_entry(halves, key):
    """The ``short`` table's entry of a key's rank multiset (at most ``SHORT_CARDS``
    cards), in the tables' ``uint16`` view ``halves``: ``S << 2 | D``, S the high
    strength's bits from 12 up if the hand holds no flush, D its straight-draw count
    less two (kernels/tables.py)."""
    rk = np.uint32(key)
    slot = (rk & np.uint32(SHORT_ROW_MASK)) + halves[2 * T_SHORT_OFFSETS + (rk >> np.uint32(SHORT_ROW_SHIFT))]
    return np.int64(halves[2 * T_SHORT + np.int64(slot)])


@njit(cache=True)
def flush_suit(key):
    """The suit holding five or more cards of a key that passed the flush check."""
    f = (key >> _SUIT_COUNTER_SHIFT) & np.uint64(0x8888)
    if f & np.uint64(0x8):
        return 0
    if f & np.uint64(0x80):
        return 1
    if f & np.uint64(0x800):
        return 2
    return 3


@njit(cache=True, inline="always")
def hand_key(t, codes, n):
    """Sum of the keys of ``codes[:n]`` (unrolled for the common seven cards)."""
    k = CARD_KEYS
    if n == 7:
        return (INITIAL_KEY + k[codes[0]] + k[codes[1]] + k[codes[2]] + k[codes[3]]
                + k[codes[4]] + k[codes[5]] + k[codes[6]])
    key = INITIAL_KEY
    for j in range(n):
        key += k[codes[j]]
    return key


@njit(cache=True)
def flush_value(t, key, codes, n):
    """Flush-table value of ``codes[:n]`` whose key passed the flush check."""
    suit = flush_suit(key)
    ranks = 0
    for j in range(n):
        if codes[j] & 3 == suit:
            ranks |= 1 << (codes[j] >> 2)
    return flush_at(t, ranks)


@njit(cache=True, inline="always")
def high_from_key(t, key, codes, n):
    """High strength of ``codes[:n]`` (5 to 7 real cards, no wilds) from their key."""
    # The rank lookup is valid for flush hands too; doing it unconditionally and
    # patching the rare flush afterwards keeps the hot loop branch-light (2.6x faster).
    value = high_at(t, rank_slot(t, key))
    if key & FLUSH_CHECK:
        value = flush_value(t, key, codes, n)
    return value


@njit(cache=True)
def bit_to_code(b):
    """Card code of a single suit-major mask bit."""
    bit = low_bit(b)
    return 4 * (bit & 15) + (bit >> 4)


@njit(cache=True, inline="always")
def _suit_key(cards, suit):
    """The key of the cards of one suit of a mask: their ranks' multipliers and
    their count in the suit's counter."""
    ranks = (cards >> np.uint64(16 * suit)) & np.uint64(0x1FFF)
    count = np.uint64(popcount(ranks))
    return np.uint64(RANK_SET_KEYS[ranks]) + (count << np.uint64(SUIT_COUNTER_SHIFT + 4 * suit))


@njit(cache=True)
def mask_key(t, cards):
    """The full hash key (rank part and suit counters) of up to seven cards: the
    sum of their keys, suit by suit (four independent lookups, where a card-by-card
    sum was a chain of up to seven)."""
    return INITIAL_KEY + _suit_key(cards, 0) + _suit_key(cards, 1) + _suit_key(cards, 2) + _suit_key(cards, 3)


@njit(cache=True, inline="always")
def flush_of_mask(t, key, cards):
    """Flush-table value of the cards (a mask) whose key passed the flush check: up
    to seven of them hold no better hand than that flush."""
    return flush_at(t, suit_ranks(cards, flush_suit(key)))


@njit(cache=True)
def plain_high(t, key, cards):
    """High strength of up to seven natural cards from their key (incremental:
    a key minus one card's key is the key of the hand without it)."""
    value = np.int64(high_at(t, rank_slot(t, key)))
    if key & FLUSH_CHECK:
        value = np.int64(flush_of_mask(t, key, cards))
    return value


@njit(cache=True)
def plain_low(t, key):
    """Ace-to-five low of up to seven natural cards from their key (0 under five
    cards), as ``plain_high`` is their high: one table, the slot of the key's ranks."""
    return np.int64(low_at(t, rank_slot(t, key)))


@njit(cache=True, inline="always")
def high_hashed(t, codes, n):
    """High strength of ``codes[:n]``: 5 to 7 distinct real cards, no wilds."""
    return high_from_key(t, hand_key(t, codes, n), codes, n)


@njit(cache=True, inline="always")
def low_hashed(t, codes, n):
    """Ace-to-five low strength of ``codes[:n]``: 5 to 7 real cards, no wilds."""
    return plain_low(t, hand_key(t, codes, n))


# ----------------------------------------------------------------------- mask path


@njit(cache=True)
def rank_sets(mask):
    """``(r1, r2, r3, r4)`` of a card mask: ranks held at least 1, 2, 3, 4 times."""
    s0 = np.int64(mask & np.uint64(0x1FFF))
    s1 = np.int64((mask >> np.uint64(16)) & np.uint64(0x1FFF))
    s2 = np.int64((mask >> np.uint64(32)) & np.uint64(0x1FFF))
    s3 = np.int64((mask >> np.uint64(48)) & np.uint64(0x1FFF))
    r1 = s0 | s1 | s2 | s3
    r2 = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    r3 = (s0 & s1 & s2) | (s0 & s1 & s3) | (s0 & s2 & s3) | (s1 & s2 & s3)
    r4 = s0 & s1 & s2 & s3
    return r1, r2, r3, r4


@njit(cache=True)
def _best_rank_only_wild(r1, r2, r3, r4, w):
    """Best non-flush high with ``w`` (1..4) wild cards, trying every rank multiset.

    A wild may not make a fifth card of a rank here: that is five of a kind,
    handled by the caller.
    """
    best = 0
    for a in range(13):
        if (r4 >> a) & 1:
            continue
        a1, a2, a3, a4 = add_rank(r1, r2, r3, r4, a)
        if w == 1:
            best = max(best, high_from_rank_sets(a1, a2, a3, a4))
            continue
        for b in range(a, 13):
            if (a4 >> b) & 1:
                continue
            b1, b2, b3, b4 = add_rank(a1, a2, a3, a4, b)
            if w == 2:
                best = max(best, high_from_rank_sets(b1, b2, b3, b4))
                continue
            for c in range(b, 13):
                if (b4 >> c) & 1:
                    continue
                c1, c2, c3, c4 = add_rank(b1, b2, b3, b4, c)
                if w == 3:
                    best = max(best, high_from_rank_sets(c1, c2, c3, c4))
                    continue
                for d in range(c, 13):
                    if (c4 >> d) & 1:
                        continue
                    d1, d2, d3, d4 = add_rank(c1, c2, c3, c4, d)
                    best = max(best, high_from_rank_sets(d1, d2, d3, d4))
    return best


@njit(cache=True)
def _count(r1, r2, r3, r4, r):
    return ((r1 >> r) & 1) + ((r2 >> r) & 1) + ((r3 >> r) & 1) + ((r4 >> r) & 1)


@njit(cache=True)
def rank_key(t, natural):
    """The rank part of the hash key of the cards in a mask (at most 7 cards)."""
    s0 = natural & np.uint64(0x1FFF)
    s1 = (natural >> np.uint64(16)) & np.uint64(0x1FFF)
    s2 = (natural >> np.uint64(32)) & np.uint64(0x1FFF)
    s3 = (natural >> np.uint64(48)) & np.uint64(0x1FFF)
    key = (np.uint64(RANK_SET_KEYS[s0]) + np.uint64(RANK_SET_KEYS[s1]) + np.uint64(RANK_SET_KEYS[s2])
           + np.uint64(RANK_SET_KEYS[s3]))
    return key & np.uint64(0xFFFFFFFF)


@njit(cache=True)
def _hashed_rank_only_wild(t, natural, r1, r2, r3, r4, w):
    """``_best_rank_only_wild`` for at most 7 cards and 1 or 2 wilds, by table
    lookups: the high_wild table places one wild, so one wild is one lookup and two
    are the best of one lookup per rank the first can become."""
    key = rank_key(t, natural)
    if w == 1:
        return np.int64(high_wild_at(t, rank_slot(t, key)))
    best = 0
    for a in range(13):
        if _count(r1, r2, r3, r4, a) < 4:
            ka = key + (CARD_KEYS[4 * a] & np.uint64(0xFFFFFFFF))
            best = max(best, np.int64(high_wild_at(t, rank_slot(t, ka))))
    return best


@njit(cache=True, inline="always")
def _suited_wild(ranks, w, five_kind_position, wild_may_duplicate):
    """Best straight flush or flush of one suit's natural ranks plus ``w`` wilds (0
    under five cards). The test is made in place and the work in a call: most suits
    make no flush, and calls that found that had cost 11% of a Do Ya deal."""
    if popcount(ranks) + w < 5:
        return 0
    return _suited_flush(ranks, w, five_kind_position, wild_may_duplicate)


@njit(cache=True)
def _suited_flush(ranks, w, five_kind_position, wild_may_duplicate):
    """``_suited_wild`` of a suit of at least five cards with the wilds."""
    if five_kind_position == FK_ABOVE_SF_BELOW_NATURAL_ROYAL and ranks & ROYAL == ROYAL:
        return pack(NATURAL_ROYAL, 13, 12, 11, 10, 9)
    for top in range(12, 2, -1):
        run = (1 << 12) | 0b1111 if top == 3 else 0b11111 << (top - 4)
        if 5 - popcount(ranks & run) <= w:
            return straight_nibbles(STRAIGHT_FLUSH, top)
    if wild_may_duplicate:
        # Every wild becomes another ace of the suit: the "double-ace flush".
        aces = w + ((ranks >> 12) & 1)
        if aces >= 5:
            return pack(FLUSH, 13, 13, 13, 13, 13)
        nib = 0
        for _ in range(aces):
            nib = (nib << 4) | 13
        rest = top_nibbles(ranks & 0xFFF, 5 - aces) >> (4 * aces)
        return (FLUSH << CAT_SHIFT) | (nib << (4 * (5 - aces))) | rest
    filled = ranks
    for _ in range(w):
        filled |= 1 << top_bit(~filled & 0x1FFF)
    return (FLUSH << CAT_SHIFT) | top_nibbles(filled, 5)


@njit(cache=True)
def high_mask(t, natural, w, five_kind_position, wild_may_duplicate):
    """High strength of the natural cards in a mask plus ``w`` wild cards.

    Any number of cards; fewer than five give an incomplete hand.
    ``five_kind_position`` is one of ``ranking.FK_*``.
    """
    r1, r2, r3, r4 = rank_sets(natural)
    fk_slot = FIVE_KIND_BELOW_SF if five_kind_position == FK_BELOW_STRAIGHT_FLUSH else FIVE_KIND_ABOVE_SF
    if w >= 5:
        best = pack(fk_slot, 13, 13, 13, 13, 13)
    else:
        best = 0
    if w == 0:
        if popcount(natural) <= 7:
            best = np.int64(high_at(t, rank_slot(t, rank_key(t, natural))))
        else:
            best = high_from_rank_sets(r1, r2, r3, r4)
    elif w < 5:
        if w <= 2 and popcount(natural) + w <= 7:
            best = _hashed_rank_only_wild(t, natural, r1, r2, r3, r4, w)
        else:
            best = _best_rank_only_wild(r1, r2, r3, r4, w)
        five = (r4, r3, r2, r1)[w - 1]  # ranks held 5 - w or more times
        best = max(best, _five_of_a_kind(five, fk_slot))
    for suit in range(4):
        ranks = np.int64((natural >> np.uint64(16 * suit)) & np.uint64(0x1FFF))
        if w == 0:
            f = np.int64(flush_at(t, ranks))
            if five_kind_position == FK_ABOVE_SF_BELOW_NATURAL_ROYAL and f == ROYAL_FLUSH_STRENGTH:
                f = pack(NATURAL_ROYAL, 13, 12, 11, 10, 9)
        else:
            f = _suited_wild(ranks, w, five_kind_position, wild_may_duplicate)
        best = max(best, f)
    return best


@njit(cache=True, inline="always")
def _five_of_a_kind(five, fk_slot):
    """A wild's five of a kind over ``five``, the ranks it completes (0: none)."""
    if five:
        q = top_bit(five) + 1
        return pack(fk_slot, q, q, q, q, q)
    return 0


@njit(cache=True, inline="always")
def _no_three_alike(natural, r3):
    """Whether the natural cards of a mask hold no suit three times or more, nor
    (``r3``: the ranks held three times or more) any rank."""
    longest = max(max(popcount(natural & np.uint64(0x1FFF)), popcount((natural >> np.uint64(16)) & np.uint64(0x1FFF))),
                  max(popcount((natural >> np.uint64(32)) & np.uint64(0x1FFF)), popcount(natural >> np.uint64(48))))
    return r3 == 0 and longest <= 2


@njit(cache=True, inline="always")
def high_one_wild_and_with_card(t, natural, b):
    """``high_mask(t, natural, 1, FK_ABOVE_STRAIGHT_FLUSH, False)`` and the same of
    ``natural | b``, for a card ``b`` (a mask bit) not in ``natural`` and at most
    five natural cards, as a pair of the same integers. Each is the best of
    ``high_mask``'s parts (the rank multiset with the wild, a wild's five of a kind,
    each suit's flush or straight flush); the card changes the rank key by its own
    key, the five of a kind by its rank, and one suit's part: the other three are
    worked out once for both (``high_one_wild_parts``, ``high_one_wild_with_card``)."""
    parts = high_one_wild_parts(t, natural)
    return parts[4], high_one_wild_with_card(t, natural, parts, b)


@njit(cache=True, inline="always")
def high_one_wild_parts(t, natural):
    """What ``high_one_wild_and_with_card`` works out of ``natural`` alone, for several
    cards to share: the rank key, the ranks held three and four times, each suit's
    flush or straight flush with the wild, and the strength without a card (its
    first integer)."""
    _, _, r3, r4 = rank_sets(natural)
    key = rank_key(t, natural)
    multiset = np.int64(high_wild_at(t, rank_slot(t, key)))
    if _no_three_alike(natural, r3):
        # No suit or rank held three times: with a card more and the wild, at most
        # four of a suit and of a rank, so no flush, no straight flush and no five of
        # a kind, with a card or without. The same parts as below: every suit's
        # flush 0, and the strength the rank multiset's.
        zero = np.int64(0)
        return key, r3, r4, (zero, zero, zero, zero), multiset
    flushes = (_suited_wild(np.int64(natural & np.uint64(0x1FFF)), 1, FK_ABOVE_STRAIGHT_FLUSH, False),
               _suited_wild(np.int64((natural >> np.uint64(16)) & np.uint64(0x1FFF)), 1, FK_ABOVE_STRAIGHT_FLUSH,
                            False),
               _suited_wild(np.int64((natural >> np.uint64(32)) & np.uint64(0x1FFF)), 1, FK_ABOVE_STRAIGHT_FLUSH,
                            False),
               _suited_wild(np.int64((natural >> np.uint64(48)) & np.uint64(0x1FFF)), 1, FK_ABOVE_STRAIGHT_FLUSH,
                            False))
    before = max(multiset, _five_of_a_kind(r4, FIVE_KIND_ABOVE_SF),
                 max(max(flushes[0], flushes[1]), max(flushes[2], flushes[3])))
    return key, r3, r4, flushes, before


@njit(cache=True, inline="always")
def high_one_wild_with_card(t, natural, parts, b):
    """The second integer of ``high_one_wild_and_with_card(t, natural, b)`` from the
    ``parts`` of ``high_one_wild_parts(t, natural)``."""
    key, r3, r4, flushes, _ = parts
    bit = np.int64(low_bit(b))
    rank, suit = bit & 15, bit >> 4
    multiset_card = np.int64(high_wild_at(t, rank_slot(t, key + (CARD_KEYS[4 * rank + suit] & np.uint64(0xFFFFFFFF)))))
    if _no_three_alike(natural, r3):
        return multiset_card  # only the rank multiset counts (high_one_wild_parts)
    others = 0
    for s in range(4):
        if s != suit:
            others = max(others, flushes[s])
    own = np.int64((natural >> np.uint64(16 * suit)) & np.uint64(0x1FFF))
    return max(multiset_card, _five_of_a_kind(r4 | (r3 & (np.int64(1) << rank)), FIVE_KIND_ABOVE_SF), others,
               _suited_wild(own | (np.int64(1) << rank), 1, FK_ABOVE_STRAIGHT_FLUSH, False))


@njit(cache=True, inline="always")
def one_wild_high_and_low(t, natural):
    """``(high_mask(t, natural, 1, FK_ABOVE_STRAIGHT_FLUSH, False), low_mask(natural,
    1))`` for up to five natural cards (Do Ya's showdown hands on the default rules),
    the same integers, from one rank key: the high is ``high_one_wild_parts``', the
    low the low table's entry for the natural ranks with the wild as the lowest rank
    they lack (ace first), as ``low_mask`` places it."""
    parts = high_one_wild_parts(t, natural)
    r1 = rank_sets(natural)[0]
    missing = ~to_low_order(r1) & 0x1FFF  # low order: bit 0 the ace, bit 1 the 2 ...
    lowest = low_bit(missing)
    fill = 12 if lowest == 0 else lowest - 1  # back to a rank: the ace 12, the 2 0 ...
    low = np.int64(low_at(t, rank_slot(t, parts[0] + (CARD_KEYS[4 * fill] & np.uint64(0xFFFFFFFF)))))
    return parts[4], low


@njit(cache=True)
def low_mask(natural, w):
    """Ace-to-five low of the natural cards plus ``w`` wilds (0 when under 5 cards).

    A wild takes the lowest rank the natural cards lack (ace first), so it can
    never undo a natural pair (RULES.md §0.5).
    """
    r1, r2, r3, r4 = rank_sets(natural)
    for r in LOW_ORDER:
        if w == 0:
            break
        if not (r1 >> r) & 1:
            r1 |= 1 << r
            w -= 1
    return low_from_rank_sets(r1, r2, r3, r4)


@njit(cache=True)
def qualify(low, threshold):
    return low if low >= threshold else 0


@njit(cache=True, inline="always")
def natural_royal_fix(strength, five_kind_position):
    if five_kind_position == FK_ABOVE_SF_BELOW_NATURAL_ROYAL and strength == ROYAL_FLUSH_STRENGTH:
        return pack(NATURAL_ROYAL, 13, 12, 11, 10, 9)
    return strength


# -------------------------------------------------------------------------- batches


@njit(cache=True, inline="always")
def _high_of_row(t, cards, i, k):
    """High strength of row ``i`` of a 2-D array of 5 to 7 real cards a row."""
    # cards[i] is written out each time: naming the row in a local variable
    # halves the speed of the batch loops (numba 0.6x keeps the view alive).
    key = hand_key(t, cards[i], k)
    value = high_at(t, rank_slot(t, key))
    if key & FLUSH_CHECK:
        value = flush_value(t, key, cards[i], k)
    return value


# Seven cards a row is the case that matters (stud, hold'em, every game's showdown),
# so each batch kernel has a loop of its own for it: the seven codes are read once
# into locals shared by the check, the key and the flush's rank set, with no loop
# over a run-time row length. It ran 1.1-1.3x the generic loop (measured side by side).


@njit(cache=True, inline="always")
def _key7(c0, c1, c2, c3, c4, c5, c6):
    k = CARD_KEYS
    return INITIAL_KEY + k[c0] + k[c1] + k[c2] + k[c3] + k[c4] + k[c5] + k[c6]


@njit(cache=True, inline="always")
def _suit_ranks7(suit, c0, c1, c2, c3, c4, c5, c6):
    """The rank set of the seven cards of one suit."""
    ranks = 0
    if c0 & 3 == suit:
        ranks |= 1 << (c0 >> 2)
    if c1 & 3 == suit:
        ranks |= 1 << (c1 >> 2)
    if c2 & 3 == suit:
        ranks |= 1 << (c2 >> 2)
    if c3 & 3 == suit:
        ranks |= 1 << (c3 >> 2)
    if c4 & 3 == suit:
        ranks |= 1 << (c4 >> 2)
    if c5 & 3 == suit:
        ranks |= 1 << (c5 >> 2)
    if c6 & 3 == suit:
        ranks |= 1 << (c6 >> 2)
    return ranks


@njit(cache=True, inline="always")
def _high7(t, halves, c0, c1, c2, c3, c4, c5, c6):
    """High strength of seven distinct real cards, from the seven-card tables
    (``halves``: ``t.view(np.uint16)``)."""
    return _high7_of_key(t, halves, _key7(c0, c1, c2, c3, c4, c5, c6), c0, c1, c2, c3, c4, c5, c6)


@njit(cache=True, inline="always")
def _high7_of_key(t, halves, key, c0, c1, c2, c3, c4, c5, c6):
    """``_high7`` of the seven cards whose key is ``key``."""
    value = t[T_SEVEN_HIGH + seven_slot(halves, key)]
    if key & FLUSH_CHECK:
        value = flush_at(t, _suit_ranks7(flush_suit(key), c0, c1, c2, c3, c4, c5, c6))
    return value


@njit(cache=True, inline="always")
def _low7(t, halves, c0, c1, c2, c3, c4, c5, c6):
    """Ace-to-five low strength of seven real cards, from the seven-card tables."""
    return _low7_of_key(t, halves, _key7(c0, c1, c2, c3, c4, c5, c6))


@njit(cache=True, inline="always")
def _low7_of_key(t, halves, key):
    """``_low7`` of the seven cards whose key is ``key``."""
    return t[T_SEVEN_LOW + seven_slot(halves, key)]


@njit(cache=True, parallel=True)
def high_batch_hashed(t, cards, five_kind_position, out):
    """High strengths of a 2-D array of 5 to 7 real cards per row, no wilds, into ``out``."""
    n, k = cards.shape
    if k == 7:
        halves = t.view(np.uint16)
        for i in prange(n):
            out[i] = _high7(t, halves, cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4],
                            cards[i, 5], cards[i, 6])
    else:
        for i in prange(n):
            out[i] = _high_of_row(t, cards, i, k)
    if five_kind_position == FK_ABOVE_SF_BELOW_NATURAL_ROYAL:
        # A separate pass: a test in the hot loop above costs a factor of two.
        for i in prange(n):
            out[i] = natural_royal_fix(out[i], five_kind_position)
    return out


@njit(cache=True, parallel=True)
def low_batch_hashed(t, cards, threshold, out):
    """Low strengths of a 2-D array of 5 to 7 real cards per row, no wilds, into ``out``."""
    n, k = cards.shape
    if k == 7:
        halves = t.view(np.uint16)
        for i in prange(n):
            out[i] = qualify(_low7(t, halves, cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4],
                                   cards[i, 5], cards[i, 6]), threshold)
    else:
        for i in prange(n):
            out[i] = qualify(low_hashed(t, cards[i], k), threshold)
    return out


# The checked batch kernels' table: for each byte a hand array may hold, two
# uint64 side by side, its key (``CARD_KEYS``; 0 for a byte that is not a card)
# and a check bit: ``1 << code`` for a card 0..51, bit 60 for anything else
# (NO_CARD, an unknown code). The sum of k <= 7 codes' check bits has k bits set
# and none from 52 up when, and only when, they are k distinct real cards: the
# sum of k single bits has fewer than k bits set as soon as two are the same (the
# second carries), and seven bits 60 cannot overflow. Seven cards a row read both
# halves at once (``_keys_and_checks7``).
_NOT_A_CARD = np.uint64(1 << 60)
KEYS_AND_CHECKS = np.zeros(2 * 256, dtype=np.uint64)
KEYS_AND_CHECKS[0:104:2] = CARD_KEYS
KEYS_AND_CHECKS[1:104:2] = np.uint64(1) << np.arange(52, dtype=np.uint64)
KEYS_AND_CHECKS[105::2] = _NOT_A_CARD


@njit(cache=True, inline="always")
def _checks_ok(checks, k):
    """Whether ``checks``, the sum of ``k`` codes' check bits, is ``k`` distinct real cards."""
    return (popcount(checks) == k) & (checks < np.uint64(1 << 52))


@njit(cache=True, inline="always")
def _row_ok(cards, i, k):
    """Whether row ``i`` holds ``k`` distinct real cards (no NO_CARD, no unknown code)."""
    checks = np.uint64(0)
    for j in range(k):
        checks += KEYS_AND_CHECKS[2 * np.int64(cards[i, j]) + 1]
    return _checks_ok(checks, k)


@intrinsic
def _keys_and_checks7(typingctx, table, c0, c1, c2, c3, c4, c5, c6):
    """``(sum of the keys, sum of the check bits)`` of seven codes: each code's two
    halves of ``table`` (``KEYS_AND_CHECKS``) read by one 16-byte load and added to
    both sums by one vector addition, where two loads and two scalar operations a
    card had made the check cost a third of the evaluation."""
    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        pairs = builder.bitcast(data, ir.VectorType(ir.IntType(64), 2).as_pointer())
        total = None
        for code in args[1:]:
            pair = builder.load(builder.gep(pairs, [builder.zext(code, ir.IntType(64))]), align=8)
            total = pair if total is None else builder.add(total, pair)
        keys = builder.extract_element(total, ir.Constant(ir.IntType(32), 0))
        checks = builder.extract_element(total, ir.Constant(ir.IntType(32), 1))
        return context.make_tuple(builder, signature.return_type, (keys, checks))
    return types.UniTuple(types.uint64, 2)(table, c0, c1, c2, c3, c4, c5, c6), codegen


@njit(cache=True, parallel=True)
def high_batch_checked(t, cards, five_kind_position, out):
    """``high_batch_hashed`` that checks each row as it reads it, in the same pass
    (a separate checking pass over the hands had cost more than the evaluation):
    returns the number of rows that are not 5 to 7 distinct real cards; their
    entries of ``out`` are left unwritten (the caller then finds out what is wrong)."""
    n, k = cards.shape
    bad = 0
    if k == 7:
        halves = t.view(np.uint16)
        for i in prange(n):
            c0, c1, c2, c3 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3]
            c4, c5, c6 = cards[i, 4], cards[i, 5], cards[i, 6]
            keys, checks = _keys_and_checks7(KEYS_AND_CHECKS, c0, c1, c2, c3, c4, c5, c6)
            if _checks_ok(checks, 7):
                out[i] = _high7_of_key(t, halves, INITIAL_KEY + keys, c0, c1, c2, c3, c4, c5, c6)
            else:
                bad += 1
    else:
        for i in prange(n):
            if _row_ok(cards, i, k):
                out[i] = _high_of_row(t, cards, i, k)
            else:
                bad += 1
    if five_kind_position == FK_ABOVE_SF_BELOW_NATURAL_ROYAL:
        for i in prange(n):
            out[i] = natural_royal_fix(out[i], five_kind_position)
    return bad


@njit(cache=True, parallel=True)
def low_batch_checked(t, cards, threshold, out):
    """``low_batch_hashed`` checking each row in the same pass, as
    ``high_batch_checked`` does: returns the number of rows that are not 5 to 7
    distinct real cards."""
    n, k = cards.shape
    bad = 0
    if k == 7:
        halves = t.view(np.uint16)
        for i in prange(n):
            c0, c1, c2, c3 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3]
            c4, c5, c6 = cards[i, 4], cards[i, 5], cards[i, 6]
            keys, checks = _keys_and_checks7(KEYS_AND_CHECKS, c0, c1, c2, c3, c4, c5, c6)
            if _checks_ok(checks, 7):
                out[i] = qualify(_low7_of_key(t, halves, INITIAL_KEY + keys), threshold)
            else:
                bad += 1
    else:
        for i in prange(n):
            if _row_ok(cards, i, k):
                out[i] = qualify(low_hashed(t, cards[i], k), threshold)
            else:
                bad += 1
    return bad


@njit(cache=True, inline="always")
def _split_row(row, wild):
    natural = np.uint64(0)
    w = 0
    for c in row:
        if c == NO_CARD:
            continue
        b = card_bit(c)
        if b & wild:
            w += 1
        else:
            natural |= b
    return natural, w


@njit(cache=True, parallel=True)
def high_batch_masked(t, cards, wild, five_kind_position, wild_may_duplicate, out):
    """High strengths of any rows (``NO_CARD`` padding allowed) into ``out``;
    ``wild[i]`` is the card mask of the cards that are wild in row ``i``."""
    n = cards.shape[0]
    for i in prange(n):
        natural, w = _split_row(cards[i], wild[i])
        out[i] = high_mask(t, natural, w, five_kind_position, wild_may_duplicate)
    return out


@njit(cache=True, parallel=True)
def low_batch_masked(t, cards, wild, threshold, out):
    """Low strengths of any rows (``NO_CARD`` padding allowed), wilds per row, into ``out``."""
    n = cards.shape[0]
    for i in prange(n):
        natural, w = _split_row(cards[i], wild[i])
        out[i] = qualify(low_mask(natural, w), threshold)
    return out
