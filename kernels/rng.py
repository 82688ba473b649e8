"""Counter-based randomness and lazy dealing.

Deal ``i`` of a run with seed ``s`` draws from its own stream keyed by ``(s, i)``:
word ``j`` of the stream is ``mix(key + j * GOLDEN)`` (SplitMix64's output function
over a counter). Any deal can be replayed alone, and results do not depend on the
number of threads or on how the deals are chunked.

A stream is a ``uint64[2]`` array ``[key, counter]``. A deck is 52 card slots with a
small state ``[top, size, stacked]``: the stock is ``deck[top:size]``; a draw swaps a
uniformly chosen stock card to ``top`` (a lazy Fisher-Yates shuffle), or, for a
stacked deck in tests, takes ``deck[top]`` as is. ``draw`` reads both in place in one
int64 array (a game's table state) at given offsets.
"""

import numpy as np
from numba import njit

from .cards import NO_CARD, card_bit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_DEAL_SALT = np.uint64(0xD1B54A32D192ED03)

DECK_TOP = 0
DECK_SIZE = 1
DECK_STACKED = 2


@njit(cache=True, inline="always")
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def seed_stream(stream, seed, deal):
    """Key ``stream`` for deal ``deal`` of a run seeded ``seed`` (both non-negative)."""
    stream[0] = mix64(mix64(np.uint64(seed) + GOLDEN) ^ (np.uint64(deal) * _DEAL_SALT))
    stream[1] = np.uint64(0)


@njit(cache=True, inline="always")
def next_u64(stream):
    stream[1] += np.uint64(1)
    return mix64(stream[0] + stream[1] * GOLDEN)


@njit(cache=True, inline="always")
def below(stream, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n <= 2**32`` (Lemire's multiply)."""
    return _below_of_word(next_u64(stream), n)


@njit(cache=True, inline="always")
def _below_of_word(word, n):
    """``below``'s integer from the stream's word ``word``."""
    return np.int64(((word >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def uniform(stream):
    """A uniform float in ``[0, 1)``."""
    return (next_u64(stream) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def fill_deck(deck, state, known):
    """Put every card not in the ``known`` mask into the stock, in code order."""
    n = 0
    for c in range(52):
        if not card_bit(c) & known:
            deck[n] = c
            n += 1
    state[DECK_TOP] = 0
    state[DECK_SIZE] = n
    state[DECK_STACKED] = 0


@njit(cache=True)
def stack_deck(deck, state, order):
    """A stacked deck: draws return ``order`` front to back (tests, replays)."""
    for i in range(order.shape[0]):
        deck[i] = order[i]
    state[DECK_TOP] = 0
    state[DECK_SIZE] = order.shape[0]
    state[DECK_STACKED] = 1


@njit(cache=True, inline="always")
def stock_size(state):
    return state[DECK_SIZE] - state[DECK_TOP]


@njit(cache=True, inline="always")
def draw(cards, deck_at, state_at, stream):
    """The next card of the stock, or ``NO_CARD`` when it is empty. The deck is
    ``cards[deck_at:deck_at + 52]`` and its state ``cards[state_at:state_at + 3]``,
    read in place in one int64 array (a game's table state): slices of it would
    cost reference counts on every card."""
    c, top, counter = draw_held(cards, deck_at, cards[state_at + DECK_TOP], cards[state_at + DECK_SIZE],
                                cards[state_at + DECK_STACKED] != 0, stream[0], stream[1])
    cards[state_at + DECK_TOP] = top
    stream[1] = counter
    return c


@njit(cache=True, inline="always")
def draw_held(cards, deck_at, top, size, stacked, key, counter):
    """``draw`` for a dealing loop that holds the deck's ``top``, ``size`` and
    ``stacked`` and the stream's ``key`` and ``counter`` in variables of its own:
    ``(card, top, counter)`` after the draw. ``draw`` reads them back from memory
    for every card, so that in a loop each card waits for the last one's stores;
    the loop stores ``top`` and ``counter`` back when it ends."""
    if top >= size:
        return np.int64(NO_CARD), top, counter
    if not stacked:
        counter += np.uint64(1)
        j = top + _below_of_word(mix64(key + counter * GOLDEN), size - top)
        c = cards[deck_at + j]
        cards[deck_at + j] = cards[deck_at + top]
        cards[deck_at + top] = c
    return cards[deck_at + top], top + 1, counter


@njit(cache=True)
def restock(deck, state, cards, n):
    """Make a new stock of the remaining stock plus ``cards[:n]`` (dead cards being
    reshuffled in). A random deck draws uniformly from it anyway; a stacked deck
    deals the old stock first, then ``cards`` in the order given."""
    top = state[DECK_TOP]
    size = state[DECK_SIZE]
    m = 0
    for i in range(top, size):
        deck[m] = deck[i]
        m += 1
    for i in range(n):
        deck[m] = cards[i]
        m += 1
    state[DECK_TOP] = 0
    state[DECK_SIZE] = m

