"""Card codes and masks shared by every kernel.

A card is a ``uint8`` code ``4*rank + suit``: rank 0..12 for 2..A, suit 0..3 for
clubs, diamonds, hearts, spades. ``NO_CARD`` (255) pads a row of a 2-D hand array
that holds fewer cards than the array is wide.

A set of cards is a ``uint64`` mask laid out suit-major: bit ``16*suit + rank``.
One suit's 13 ranks are then one shift and one ``&`` away, which is what the
evaluators need (flushes, rank counts by bit arithmetic).
"""

import numpy as np
from numba import njit

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


@njit(cache=True)
def check_hands(cards):
    """Validate a 2-D array of codes. Returns ``(row, problem, code)`` of the first
    bad row, or ``(-1, 0, 0)``. Problems: 1 unknown code, 2 duplicate card.
    Also returns the smallest and largest number of real cards in a row."""
    fewest = cards.shape[1]
    most = 0
    for i in range(cards.shape[0]):
        m = np.uint64(0)
        n = 0
        for j in range(cards.shape[1]):
            c = cards[i, j]
            if c == NO_CARD:
                continue
            if c >= N_CARDS:
                return i, 1, np.int64(c), fewest, most
            b = card_bit(c)
            if m & b:
                return i, 2, np.int64(c), fewest, most
            m |= b
            n += 1
        fewest = min(fewest, n)
        most = max(most, n)
    return -1, 0, np.int64(0), fewest, most
