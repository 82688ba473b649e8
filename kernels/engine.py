"""One engine for every game: dispatch on an integer game id, and one batch driver.

Every game module offers the same four kernels over its table state ``st`` (an
int64 array laid out by the module's ``STATE``):

* ``init_state(rules, st, n, dealer)``: a fresh deal, nothing dealt;
* ``play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced)``:
  advance to the end of the deal writing the result row ``out`` (float64, laid out
  by the module's ``RESULT``), or stop before the decision that would make ``stop``
  decisions (-1: never); ``forced`` >= 0 is the next decision's action;
* ``decision(t, rules, params, idata, fdata, st, scratch, actions)``:
  ``(kind, seat, count)`` of the decision ``play`` stopped at, the legal actions
  written to ``actions`` (``common.DK_*`` says what they mean);
* ``state_slots()``: the offsets it was compiled with.

``t`` is the evaluator tables, ``rules`` the rules vector, ``params`` one policy row
per seat, ``idata`` / ``fdata`` a game's extra data (Selection's deck, profile,
board and probability table; empty for the pot games), ``scratch`` a per-thread
int64 work array. Numba compiles one ``play`` that switches on the game id: a
dispatcher passed as an argument would defeat ``cache=True``.
"""

import numpy as np
from numba import njit, prange

from .games import anaconda, do_ya, selection, selection_rejection, train_wreck
from .games.common import BASE_STATE, MAX_ACTIONS, TRACE_WIDTH
from .rng import seed_stream

GAME_SELECTION_REJECTION = 0
GAME_DO_YA = 1
GAME_ANACONDA = 2
GAME_TRAIN_WRECK = 3
GAME_SELECTION = 4

SCRATCH = 2048  # int64 work space per thread
BLOCK = 256  # deals a thread plays with one set of private arrays
B = BASE_STATE.at


@njit(cache=True)
def init_state(game, rules, idata, st, n, dealer):
    if game == GAME_SELECTION_REJECTION:
        selection_rejection.init_state(rules, st, n, dealer)
    elif game == GAME_DO_YA:
        do_ya.init_state(rules, st, n, dealer)
    elif game == GAME_ANACONDA:
        anaconda.init_state(rules, st, n, dealer)
    elif game == GAME_TRAIN_WRECK:
        train_wreck.init_state(rules, st, n, dealer)
    elif game == GAME_SELECTION:
        selection.init_state(rules, st, n, dealer)


@njit(cache=True)
def play(game, t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced):
    if game == GAME_SELECTION_REJECTION:
        selection_rejection.play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced)
    elif game == GAME_DO_YA:
        do_ya.play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced)
    elif game == GAME_ANACONDA:
        anaconda.play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced)
    elif game == GAME_TRAIN_WRECK:
        train_wreck.play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced)
    elif game == GAME_SELECTION:
        selection.play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced)


@njit(cache=True)
def decision(game, t, rules, params, idata, fdata, st, scratch, actions):
    if game == GAME_SELECTION_REJECTION:
        return selection_rejection.decision(rules, st, actions)
    if game == GAME_DO_YA:
        return do_ya.decision(rules, st, actions)
    if game == GAME_ANACONDA:
        return anaconda.decision(rules, st, actions)
    if game == GAME_TRAIN_WRECK:
        return train_wreck.decision(rules, st, scratch, actions)
    if game == GAME_SELECTION:
        return selection.decision(rules, params, idata, fdata, st, scratch, actions)
    return 0, -1, 0


@njit(cache=True, parallel=True)
def play_batch(game, t, rules, params, idata, fdata, start, seed, first, count, rotate_dealer, out):
    """Deals ``first .. first + count - 1``, each from a copy of the table state
    ``start`` on the random stream ``(seed, deal)``; result row ``i`` of ``out`` for
    deal ``first + i``. With ``rotate_dealer`` the dealer is ``deal % players``,
    else the start state's. Threads take blocks of deals, each with its own state,
    stream, scratch and copies of the inputs (numba counts references to shared
    arrays on every call, and threads updating one count slow each other down):
    nothing is allocated per deal."""
    n = start[B.players]
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        st = np.empty_like(start)
        stream = np.zeros(2, np.uint64)
        scratch = np.zeros(SCRATCH, np.int64)
        no_trace = np.zeros((0, TRACE_WIDTH), np.int64)
        my_rules, my_params, my_idata, my_fdata = rules.copy(), params.copy(), idata.copy(), fdata.copy()
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            deal = first + i
            st[:] = start
            if rotate_dealer:
                st[B.dealer] = deal % n
            seed_stream(stream, seed, deal)
            play(game, t, my_rules, my_params, my_idata, my_fdata, st, stream, no_trace, scratch, out[i],
                 np.int64(-1), np.int64(-1))


def new_actions():
    return np.zeros(MAX_ACTIONS, np.int64)
