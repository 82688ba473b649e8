"""Hand strengths: the integer layout, and rank-set evaluators that work for any card count.

A strength is an integer, larger is better, for high and for low alike.

High strength = ``slot << 20 | five rank nibbles``. The nibbles are the ranks of the
five cards used, in the order they are compared (quads then kicker; trips then pair;
pairs then kickers; straights from the top card down), each as ``rank + 1`` so that
0 can stand for a missing card in an incomplete hand (fewer than five cards).
The slot orders the categories; five of a kind has two possible slots and a natural
royal flush a slot of its own, chosen by the five-of-a-kind position (RULES.md §0.4).

Low (ace-to-five) strength = ``pattern << 20 | five nibbles``, pattern 6 for no pair
down to 1 for quads, each nibble ``14 - v`` for a card of low value ``v`` (ace 1,
king 13) so that lower cards give larger strengths. 0 means "no low" (fewer than five
cards, or a qualifier not met).

The functions here work on *rank sets*: ``r1``, ``r2``, ``r3``, ``r4`` are 13-bit
masks of the ranks held at least once, twice, three and four times. They serve the
table builder, hands of more than seven cards, and wild-card evaluation.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

CAT_SHIFT = 20

# High-hand slots (the order of categories).
HIGH_CARD = 1
PAIR = 2
TWO_PAIR = 3
TRIPS = 4
STRAIGHT = 5
FLUSH = 6
FULL_HOUSE = 7
QUADS = 8
FIVE_KIND_BELOW_SF = 9
STRAIGHT_FLUSH = 10
FIVE_KIND_ABOVE_SF = 11
NATURAL_ROYAL = 12
# The category (analyzer.Category: high card 0 .. straight flush 8, five of a kind 9)
# of each slot; -1 for 0, which no high strength has.
SLOT_CATEGORY = np.array([-1, 0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 9, 8], dtype=np.int64)
N_CATEGORIES = 10

# Five-of-a-kind positions (RULES.md §0.4 option five_kind_position).
FK_ABOVE_STRAIGHT_FLUSH = 0
FK_BELOW_STRAIGHT_FLUSH = 1
FK_ABOVE_SF_BELOW_NATURAL_ROYAL = 2

# Low patterns, best first.
LOW_NO_PAIR = 6
LOW_PAIR = 5
LOW_TWO_PAIR = 4
LOW_TRIPS = 3
LOW_FULL_HOUSE = 2
LOW_QUADS = 1

WHEEL = (1 << 12) | 0b1111  # A-2-3-4-5 as a rank set
ROYAL = 0b11111 << 8  # T-J-Q-K-A


@njit(cache=True, inline="always")
def top_bit(m):
    """Index of the highest set bit of a non-zero mask."""
    return 63 - leading_zeros(np.uint64(m))


@njit(cache=True, inline="always")
def low_bit(m):
    """Index of the lowest set bit of a non-zero mask."""
    return trailing_zeros(np.uint64(m))


@intrinsic
def _ctpop(typingctx, m):
    """LLVM's ``ctpop`` of a ``uint64``: one ``popcnt`` instruction where the CPU has
    it. numba has no popcount of its own, and LLVM did not recognise the SWAR
    formula as one (about 15 instructions a call, four calls in every draw bonus)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.uint64), codegen


@njit(cache=True, inline="always")
def popcount(m):
    """Number of set bits."""
    return _ctpop(np.uint64(m))


def _compiles_pdep():
    """Whether numba compiles for a CPU whose BMI2 ``pdep`` is one fast instruction:
    numba's own view of the target (``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES``
    honoured). AMD's Zen 1 and 2 have ``pdep`` in microcode, slower than the
    portable search."""
    from llvmlite import binding
    from numba.core import config
    from numba.core.codegen import get_host_cpu_features

    features = config.CPU_FEATURES if config.CPU_FEATURES is not None else get_host_cpu_features()
    name = config.CPU_NAME if config.CPU_NAME not in (None, "", "host") else binding.get_host_cpu_name()
    return "+bmi2" in features.split(",") and name not in ("znver1", "znver2")


HAS_PDEP = _compiles_pdep()


@intrinsic
def _pdep(typingctx, source, mask):
    """BMI2's ``pdep``: the low bits of ``source`` deposited at the set bits of ``mask``."""
    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        name = "llvm.x86.bmi.pdep.64"
        pdep = builder.module.globals.get(name) or ir.Function(builder.module, ir.FunctionType(i64, [i64, i64]), name)
        return builder.call(pdep, list(args))
    return types.uint64(types.uint64, types.uint64), codegen


@njit(cache=True, inline="always")
def nth_bit_pdep(m, k):
    """``nth_bit`` in one ``pdep`` (only where ``HAS_PDEP``)."""
    return _pdep(np.uint64(1) << np.uint64(k), np.uint64(m))


@njit(cache=True, inline="always")
def nth_bit_search(m, k):
    """``nth_bit`` anywhere: the halves of the word searched by their bit counts, six
    steps with selects and no branch to mispredict."""
    m = np.uint64(m)
    k = np.int64(k)
    at = np.uint64(0)
    for width in (32, 16, 8, 4, 2, 1):
        below_half = _ctpop((m >> at) & np.uint64((1 << width) - 1))
        past = k >= below_half
        k = k - below_half if past else k
        at = at + np.uint64(width) if past else at
    return np.uint64(1) << at


# The ``k``-th lowest set bit of ``m`` (``k`` from 0, below ``popcount(m)``), as a
# mask bit: an Anaconda random pass picks each card so. Clearing the ``k`` lowest
# bits one by one was a loop the branch predictor cannot learn (``k`` is random):
# 29 ns for a pass of two cards on average, the search 19.7 and ``pdep`` 4.5.
nth_bit = nth_bit_pdep if HAS_PDEP else nth_bit_search


@njit(cache=True, inline="always")
def pack(slot, a, b, c, d, e):
    """A strength from a slot and five nibbles (already ``rank + 1`` or 0)."""
    return (slot << CAT_SHIFT) | (a << 16) | (b << 12) | (c << 8) | (d << 4) | e


@njit(cache=True)
def straight_top(ranks):
    """Top rank of the best straight in a 13-bit rank set, or -1."""
    for top in range(12, 3, -1):
        run = 0b11111 << (top - 4)
        if ranks & run == run:
            return top
    if ranks & WHEEL == WHEEL:
        return 3
    return -1


@njit(cache=True, inline="always")
def straight_nibbles(slot, top):
    if top == 3:  # 5-4-3-2-A
        return pack(slot, 4, 3, 2, 1, 13)
    return pack(slot, top + 1, top, top - 1, top - 2, top - 3)


@njit(cache=True)
def top_nibbles(ranks, k):
    """The ``k`` highest ranks of a rank set as nibbles, highest first, 0-padded to 5."""
    out = 0
    got = 0
    m = ranks
    while got < k and m:
        r = top_bit(m)
        m &= ~(1 << r)
        out = (out << 4) | (r + 1)
        got += 1
    return out << (4 * (5 - got))


@njit(cache=True)
def high_from_rank_sets(r1, r2, r3, r4):
    """Best high hand of a rank multiset, ignoring flushes, any number of cards.

    Fewer than five cards give an incomplete hand whose missing cards rank below
    every real card (RULES.md §0.3).
    """
    if r4:
        q = top_bit(r4)
        rest = r1 & ~(1 << q)
        k = top_bit(rest) + 1 if rest else 0
        return pack(QUADS, q + 1, q + 1, q + 1, q + 1, k)
    if r3:
        t = top_bit(r3)
        pairs = r2 & ~(1 << t)
        if pairs:
            p = top_bit(pairs)
            return pack(FULL_HOUSE, t + 1, t + 1, t + 1, p + 1, p + 1)
    top = straight_top(r1)
    if top >= 0:
        return straight_nibbles(STRAIGHT, top)
    if r3:
        t = top_bit(r3)
        k = top_nibbles(r1 & ~(1 << t), 2) >> 12
        return (TRIPS << CAT_SHIFT) | ((t + 1) * 0x11100) | k
    if r2:
        hi = top_bit(r2)
        lower = r2 & ~(1 << hi)
        if lower:
            lo = top_bit(lower)
            rest = r1 & ~((1 << hi) | (1 << lo))
            k = top_bit(rest) + 1 if rest else 0
            return pack(TWO_PAIR, hi + 1, hi + 1, lo + 1, lo + 1, k)
        k = top_nibbles(r1 & ~(1 << hi), 3) >> 8
        return (PAIR << CAT_SHIFT) | ((hi + 1) * 0x11000) | k
    return (HIGH_CARD << CAT_SHIFT) | top_nibbles(r1, 5)


@njit(cache=True)
def flush_from_suit(ranks):
    """Best straight flush or flush of one suit's 13-bit rank set, or 0 (< 5 cards)."""
    if popcount(ranks) < 5:
        return 0
    top = straight_top(ranks)
    if top >= 0:
        return straight_nibbles(STRAIGHT_FLUSH, top)
    return (FLUSH << CAT_SHIFT) | top_nibbles(ranks, 5)


@njit(cache=True, inline="always")
def to_low_order(ranks):
    """Rank set 2..A (bit 12 = ace) to low order A..K (bit 0 = ace)."""
    return ((ranks << 1) | (ranks >> 12)) & 0x1FFF


@njit(cache=True)
def low_nibbles(lows, k):
    """The ``k`` highest cards (low order) of a set as low nibbles ``13 - bit``."""
    out = 0
    got = 0
    m = lows
    while got < k and m:
        b = top_bit(m)
        m &= ~(1 << b)
        out = (out << 4) | (13 - b)
        got += 1
    return out << (4 * (5 - got))


@njit(cache=True)
def low_from_rank_sets(r1, r2, r3, r4):
    """Best ace-to-five low of a rank multiset (any card count), 0 if under 5 cards."""
    l1 = to_low_order(r1)
    n = popcount(l1)
    if n >= 5:
        keep = 0
        m = l1
        for _ in range(5):
            b = low_bit(m)
            keep |= 1 << b
            m &= ~(1 << b)
        return (LOW_NO_PAIR << CAT_SHIFT) | low_nibbles(keep, 5)
    l2 = to_low_order(r2)
    l3 = to_low_order(r3)
    l4 = to_low_order(r4)
    if n == 4:
        if l2 == 0:
            return 0
        p = low_bit(l2)
        return (LOW_PAIR << CAT_SHIFT) | ((13 - p) * 0x11000) | (low_nibbles(l1 & ~(1 << p), 3) >> 8)
    if n == 3:
        if popcount(l2) >= 2:
            lo = low_bit(l2)
            hi = low_bit(l2 & ~(1 << lo))
            kick = l1 & ~((1 << lo) | (1 << hi))
            return pack(LOW_TWO_PAIR, 13 - hi, 13 - hi, 13 - lo, 13 - lo, 13 - top_bit(kick))
        if l3 == 0:
            return 0
        t = low_bit(l3)
        return (LOW_TRIPS << CAT_SHIFT) | ((13 - t) * 0x11100) | (low_nibbles(l1 & ~(1 << t), 2) >> 12)
    if n == 2:
        # A full house (lower trips first) beats quads.
        if l3:
            t = low_bit(l3)
            other = l1 & ~(1 << t)
            if other & l2:
                p = low_bit(other)
                return pack(LOW_FULL_HOUSE, 13 - t, 13 - t, 13 - t, 13 - p, 13 - p)
        if l4:
            q = low_bit(l4)
            k = l1 & ~(1 << q)
            return pack(LOW_QUADS, 13 - q, 13 - q, 13 - q, 13 - q, 13 - low_bit(k))
    return 0


@njit(cache=True)
def low_qualifier_threshold(qualifier):
    """Smallest low strength that qualifies: the no-pair low topped by ``qualifier``.

    ``qualifier`` is a low value (ace 1 .. king 13); 0 means no qualifier.
    """
    if qualifier <= 0:
        return 1
    keep = 0
    for v in range(qualifier - 4, qualifier + 1):
        keep |= 1 << (v - 1)
    return (LOW_NO_PAIR << CAT_SHIFT) | low_nibbles(keep, 5)


@njit(cache=True, inline="always")
def add_rank(r1, r2, r3, r4, r):
    """Rank sets after one more card of rank ``r`` (the caller checks r4 has no ``r``)."""
    b = 1 << r
    return r1 | b, r2 | (r1 & b), r3 | (r2 & b), r4 | (r3 & b)


def longest_runs():
    """For each 14-bit rank set (bit 0: the ace playing low; bits 1..13: 2..A), the
    most of its ranks in any five in a row: a straight draw's count (``uint8``).
    ``run_index`` turns a 13-bit rank set into this table's index."""
    sets = np.arange(1 << 14)
    ones = np.array([bin(i).count("1") for i in range(32)])  # of five bits
    windows = [ones[(sets >> low) & 0b11111] for low in range(10)]
    return np.max(windows, axis=0).astype(np.uint8)


@njit(cache=True, inline="always")
def run_index(ranks):
    """``longest_runs``'s index of a 13-bit rank set: the ace once more at the bottom."""
    return (ranks << 1) | ((ranks >> 12) & 1)
