"""Card codes and masks shared by every kernel.

A card is a ``uint8`` code ``4*rank + suit``: rank 0..12 for 2..A, suit 0..3 for
clubs, diamonds, hearts, spades. ``NO_CARD`` (255) pads a row of a 2-D hand array
that holds fewer cards than the array is wide.

A set of cards is a ``uint64`` mask laid out suit-major: bit ``16*suit + rank``.
One suit's 13 ranks are then one shift and one ``&`` away, which is what the
evaluators need (flushes, rank counts by bit arithmetic).
"""

import numpy as np
from numba import njit, prange

N_RANKS = 13
N_SUITS = 4
N_CARDS = 52
NO_CARD = 255

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"

ACE = 12
KING = 11

RANK_BITS = 0x1FFF  # the 13 rank bits of one suit
SUIT_SHIFT = 16


@njit(cache=True, inline="always")
def rank_of(code):
    return code >> 2


@njit(cache=True, inline="always")
def suit_of(code):
    return code & 3


@njit(cache=True, inline="always")
def card_bit(code):
    """The mask bit of one card code."""
    return np.uint64(1) << np.uint64(SUIT_SHIFT * (code & 3) + (code >> 2))


@njit(cache=True, inline="always")
def suit_ranks(mask, suit):
    """The 13-bit rank set of one suit in a card mask."""
    return (mask >> np.uint64(SUIT_SHIFT * suit)) & np.uint64(RANK_BITS)


@njit(cache=True, inline="always")
def rank_mask_to_cards(rank_mask):
    """Every card of the ranks in a 13-bit rank set, as a card mask."""
    m = np.uint64(rank_mask) & np.uint64(RANK_BITS)
    return m | (m << np.uint64(16)) | (m << np.uint64(32)) | (m << np.uint64(48))


@njit(cache=True)
def codes_to_mask(codes):
    """Card mask of a 1-D array of codes; ``NO_CARD`` entries are skipped."""
    m = np.uint64(0)
    for c in codes:
        if c != NO_CARD:
            m |= card_bit(c)
    return m


@njit(cache=True, parallel=True)
def check_hands(cards):
    """Validate a 2-D array of codes, one hand per row, in parallel.

    Returns ``(problems, counts)``: per row 0, or ``256 * problem + code`` with
    problem 1 for an unknown code and 2 for a duplicate card; and the number of
    real cards (not ``NO_CARD``) in each row.
    """
    n, k = cards.shape
    problems = np.zeros(n, np.int16)
    counts = np.zeros(n, np.uint8)
    for i in prange(n):
        m = np.uint64(0)
        real = 0
        for j in range(k):
            c = cards[i, j]
            if c == NO_CARD:
                continue
            if c >= N_CARDS:
                problems[i] = 256 + c
                break
            b = card_bit(c)
            if m & b:
                problems[i] = 512 + c
                break
            m |= b
            real += 1
        counts[i] = real
    return problems, counts
