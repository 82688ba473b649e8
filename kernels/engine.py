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
int64 work array.

Each game's ``play`` is compiled on its own with one explicit signature
(``PLAY_SIG``) and handed to the one batch driver as a first-class function
(``types.FunctionType``): a plain dispatcher argument would defeat ``cache=True``,
and one ``play`` switching on the game id would inline every game into one
function, which measured 15% slower per deal than a game compiled alone. The
small ``init_state`` and ``decision`` dispatch on the game id in Python. A game's
module is imported when it is first played (each module makes dozens of numba
dispatchers: some milliseconds of a query's start-up that a query about another
game need not spend), and its kernels are compiled (or loaded from numba's cache)
on first use, so importing this module compiles nothing.
"""

import importlib
from functools import lru_cache

import numpy as np
from numba import njit, prange, types

from .games.common import BASE_STATE, DK_NONE, EXHAUSTED, MAX_ACTIONS, PH_DONE, REJECTED, TRACE_WIDTH, UNITS, O
from .ranking import CAT_SHIFT, N_CATEGORIES, NATURAL_ROYAL, SLOT_CATEGORY
from .rng import seed_stream
from .showdown import DECLARE_BOTH

GAME_SELECTION_REJECTION = 0
GAME_DO_YA = 1
GAME_ANACONDA = 2
GAME_TRAIN_WRECK = 3
GAME_SELECTION = 4

SCRATCH = 2048  # int64 work space per thread
BLOCK = 256  # deals a thread plays with one set of private arrays
B = BASE_STATE.at


# The game modules in kernels/games, by game id.
GAMES = ("selection_rejection", "do_ya", "anaconda", "train_wreck", "selection")


def game_module(game):
    """Game ``game``'s module (imported on first use)."""
    return importlib.import_module(f"{__package__}.games.{GAMES[game]}")


def init_state(game, rules, idata, st, n, dealer):
    """A fresh deal of ``game`` in ``st``: ``n`` seats, ``dealer`` dealing, nothing dealt."""
    game_module(game).init_state(rules, st, n, dealer)


def decision(game, t, rules, params, idata, fdata, st, scratch, actions):
    """``(kind, seat, count)`` of the decision ``play`` stopped at (see the module
    docstring)."""
    return game_module(game).decision(t, rules, params, idata, fdata, st, scratch, actions)


_I64 = types.int64[::1]
_F64 = types.float64[::1]
TABLES = types.uint32[::1]  # kernels.evaluate.eval_tables()
# play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced)
PLAY_SIG = types.void(TABLES, _F64, types.float64[:, ::1], _I64, _F64, _I64, types.uint64[::1],
                      types.int64[:, ::1], _I64, _F64, types.int64, types.int64)
BATCH_SIG = types.void(types.FunctionType(PLAY_SIG), TABLES, _F64, types.float64[:, ::1], _I64, _F64, _I64,
                       types.int64, types.int64, types.int64, types.boolean, types.int64, types.float64[:, ::1])
# decision(t, rules, params, idata, fdata, st, scratch, actions) -> (kind, seat, count)
DECISION_SIG = types.UniTuple(types.int64, 3)(TABLES, _F64, types.float64[:, ::1], _I64, _F64, _I64, _I64, _I64)
ACTIONS_BATCH_SIG = types.void(types.FunctionType(PLAY_SIG), types.FunctionType(DECISION_SIG), TABLES, _F64,
                               types.float64[:, ::1], _I64, _F64, _I64, types.int64, types.int64, types.int64,
                               types.boolean, _I64, types.boolean, types.int64, types.float64[:, :, ::1], _I64)
# Games whose play (and everything it calls) allocates nothing and returns no new
# array, so it can run without numba's reference counting (see ``game_play``).
COUNT_FREE = (True, True, True, True, True)


@njit(cache=True, inline="always")
def copy_state(st, start):
    """``st[:] = start`` as a loop: numba's slice assignment checks the two arrays
    for overlap first, and measured 3% of a four-player stud deal more."""
    for i in range(start.shape[0]):
        st[i] = start[i]


@lru_cache(maxsize=None)
def game_play(game):
    """Game ``game``'s ``play``, compiled for ``PLAY_SIG`` (once; numba caches it),
    for the ``COUNT_FREE`` games without numba's reference counting
    (``_nrt=False``, which the functions it compiles along with it inherit): a
    table state machine passes its arrays through many small helpers, and the
    counts numba keeps on them cost the pot games most of a deal (measured: Do Ya
    with every seat taking every card, 6.6 us a deal with counting, 1.1 us
    without, the same results). Nothing they call allocates or returns a new
    array; one that did would fail to compile here (a test compiles each from a
    cold cache). A helper compiled earlier with counting is reused as it is:
    correct, only slower."""
    if COUNT_FREE[game]:
        return njit(PLAY_SIG, cache=True, _nrt=False)(game_module(game).play.py_func)
    return njit(PLAY_SIG, cache=True)(game_module(game).play.py_func)


def play(game, t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced):
    """Play on from ``st`` (see the module docstring); the arrays must have the
    types of ``PLAY_SIG`` (C-contiguous, those dtypes)."""
    game_play(game)(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced)


@njit(cache=True, inline="always")
def _block_arrays(start, rules, params, idata, fdata, width):
    """A thread's private arrays for a block of deals (see ``play_batch``): a table
    state, a stream, scratch, a result row of ``width``, an empty trace, and its
    own copies of the inputs."""
    return (np.empty_like(start), np.zeros(2, np.uint64), np.zeros(SCRATCH, np.int64), np.zeros(width, np.float64),
            np.zeros((0, TRACE_WIDTH), np.int64), rules.copy(), params.copy(), idata.copy(), fdata.copy())


@njit(cache=True, inline="always")
def _start_deal(st, start, stream, seed, deal, rotate_dealer):
    """Deal ``deal`` of a batch: ``st`` a copy of ``start`` (its dealer ``deal %
    players`` with ``rotate_dealer``), ``stream`` keyed for it."""
    copy_state(st, start)
    if rotate_dealer:
        st[B.dealer] = deal % start[B.players]
    seed_stream(stream, seed, deal)


def _run_batch(play, t, rules, params, idata, fdata, start, seed, first, count, rotate_dealer, forced, out):
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        st, stream, scratch, _, no_trace, my_rules, my_params, my_idata, my_fdata = _block_arrays(
            start, rules, params, idata, fdata, 0)
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            _start_deal(st, start, stream, seed, first + i, rotate_dealer)
            play(t, my_rules, my_params, my_idata, my_fdata, st, stream, no_trace, scratch, out[i],
                 np.int64(-1), forced)


@njit(cache=True, inline="always")
def _lists_all(actions, k, required):
    """Whether ``actions[:k]`` holds every action of ``required``."""
    for r in range(required.shape[0]):
        listed = False
        for j in range(k):
            if actions[j] == required[r]:
                listed = True
                break
        if not listed:
            return False
    return True


def _run_actions_batch(play, decide, t, rules, params, idata, fdata, start, seed, first, count, rotate_dealer,
                       actions, check, per_block, out, illegal):
    k = actions.shape[0]
    n_blocks = (count + per_block - 1) // per_block
    for b in prange(n_blocks):
        st, stream, scratch, row, no_trace, my_rules, my_params, my_idata, my_fdata = _block_arrays(
            start, rules, params, idata, fdata, out.shape[2])
        at_decision, stream_at_decision = np.empty_like(start), np.zeros(2, np.uint64)
        decide_scratch = np.zeros(SCRATCH, np.int64)
        listed = np.zeros(MAX_ACTIONS, np.int64)
        for i in range(b * per_block, min(count, (b + 1) * per_block)):
            _start_deal(st, start, stream, seed, first + i, rotate_dealer)
            row[:] = 0.0
            # Up to the deal's first decision, once; then on from a copy of that point
            # with each action in turn (a deal with no decision has played out).
            play(t, my_rules, my_params, my_idata, my_fdata, st, stream, no_trace, scratch, row, st[B.decisions],
                 np.int64(-1))
            over = st[B.phase] == PH_DONE
            if check and not over:
                kind, _, n_listed = decide(t, my_rules, my_params, my_idata, my_fdata, st, decide_scratch, listed)
                over = kind == DK_NONE
                if not over and not _lists_all(listed, n_listed, actions):
                    illegal[b] = first + i
                    break
            if over:
                for j in range(k):
                    out[j, i, :] = row
                continue
            if k > 1:
                copy_state(at_decision, st)
                stream_at_decision[0], stream_at_decision[1] = stream[0], stream[1]
            for j in range(k):
                if j > 0:
                    copy_state(st, at_decision)
                    stream[0], stream[1] = stream_at_decision[0], stream_at_decision[1]
                out[j, i, :] = row
                play(t, my_rules, my_params, my_idata, my_fdata, st, stream, no_trace, scratch, out[j, i],
                     np.int64(-1), actions[j])


@lru_cache(maxsize=None)
def _batch_runner():
    return njit(BATCH_SIG, cache=True, parallel=True)(_run_batch)


@lru_cache(maxsize=None)
def _actions_batch_runner():
    return njit(ACTIONS_BATCH_SIG, cache=True, parallel=True)(_run_actions_batch)


@lru_cache(maxsize=None)
def game_decision(game):
    """Game ``game``'s ``decision``, compiled for ``DECISION_SIG`` (once; numba
    caches it), for the batch that checks a forced action in every deal."""
    return njit(DECISION_SIG, cache=True)(game_module(game).decision.py_func)


def play_batch(game, t, rules, params, idata, fdata, start, seed, first, count, rotate_dealer, out, forced=-1):
    """Deals ``first .. first + count - 1``, each from a copy of the table state
    ``start`` on the random stream ``(seed, deal)``; result row ``i`` of ``out`` for
    deal ``first + i``. With ``rotate_dealer`` the dealer is ``deal % players``,
    else the start state's. Threads take blocks of deals, each with its own state,
    stream, scratch and copies of the inputs (numba counts references to shared
    arrays on every call, and threads updating one count slow each other down):
    nothing is allocated per deal.

    ``forced`` >= 0: the action of every deal's first decision, applied as it is, for
    a caller that knows every deal can take it: an action a deal cannot take may
    corrupt its state. ``play_actions`` checks it in each deal."""
    _batch_runner()(game_play(game), t, rules, params, idata, fdata, start, int(seed), int(first), int(count),
                    bool(rotate_dealer), int(forced), out)


def play_actions(game, t, rules, params, idata, fdata, start, seed, first, count, rotate_dealer, actions, check,
                 out):
    """``play_batch`` forcing each of ``actions`` (int64) in turn at every deal's first
    decision, into ``out[j]`` for ``actions[j]`` (shape ``(len(actions), count, width)``):
    each deal is played to that decision once, and on from a copy of it with each
    action, so a decision query pays the deal's start (its unknown cards dealt, the
    seats before mine played) once, not once an action. The rows are those of
    ``play_batch`` forcing each action alone. With ``check`` each deal lists its
    decision's legal actions first, and the first deal of a block whose list lacks one
    of ``actions`` is not played on; without it the actions are applied as they are
    (as ``play_batch`` does). Returns the first deal that could not take
    them all, or -1. A thread's block holds about ``BLOCK`` plays, ``BLOCK // k`` deals
    of ``k`` actions: blocks of ``BLOCK`` deals of Selection's 120 keeps took 0.45 s
    each, too few to share between the threads."""
    per_block = max(1, BLOCK // actions.shape[0])
    illegal = np.full((count + per_block - 1) // per_block, -1, np.int64)
    _actions_batch_runner()(game_play(game), game_decision(game), t, rules, params, idata, fdata, start, int(seed),
                            int(first), int(count), bool(rotate_dealer), actions, bool(check), per_block, out,
                            illegal)
    found = illegal[illegal >= 0]
    return int(found.min()) if found.size else -1


# The equity sums of a batch of pot-game deals, per block of deals (``equity_sums``):
# the deals kept, rejected (--condition) and void, then per seat (n columns each)
# the sums of its share of the pot and its square, its net in antes and its square,
# and the deals it won some of the high half, of the low half, the whole pot.
SUM_KEPT, SUM_REJECTED, SUM_VOID = 0, 1, 2
SUM_SEAT_FIELDS = ("share", "share_sq", "net", "net_sq", "high", "low", "scoop")
SUM_FIRST = 3


def _run_sums(play, t, rules, params, idata, fdata, start, seed, first, count, carried_in, ante, width, sums):
    n = start[B.players]
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        st, stream, scratch, row, no_trace, my_rules, my_params, my_idata, my_fdata = _block_arrays(
            start, rules, params, idata, fdata, width)
        acc = sums[b]
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            _start_deal(st, start, stream, seed, first + i, False)
            row[:] = 0.0
            play(t, my_rules, my_params, my_idata, my_fdata, st, stream, no_trace, scratch, row, np.int64(-1),
                 np.int64(-1))
            carry = row[O.carry]
            if carry == REJECTED:
                acc[SUM_REJECTED] += 1
                continue
            if carry == EXHAUSTED:
                acc[SUM_VOID] += 1
                continue
            acc[SUM_KEPT] += 1
            pot = carried_in
            for s in range(n):
                pot += row[O.paid + s]
            pot_units = np.rint(pot * UNITS)
            for s in range(n):
                payout = row[O.payout + s]
                share = payout / pot
                net = (payout - row[O.paid + s]) / ante
                acc[SUM_FIRST + s] += share
                acc[SUM_FIRST + n + s] += share * share
                acc[SUM_FIRST + 2 * n + s] += net
                acc[SUM_FIRST + 3 * n + s] += net * net
                if row[O.high_share + s] > 0:
                    acc[SUM_FIRST + 4 * n + s] += 1
                if row[O.low_share + s] > 0:
                    acc[SUM_FIRST + 5 * n + s] += 1
                if np.rint(payout * UNITS) == pot_units:
                    acc[SUM_FIRST + 6 * n + s] += 1


SUMS_SIG = types.void(types.FunctionType(PLAY_SIG), TABLES, _F64, types.float64[:, ::1], _I64, _F64, _I64,
                      types.int64, types.int64, types.int64, types.float64, types.float64, types.int64,
                      types.float64[:, ::1])


@lru_cache(maxsize=None)
def _sums_runner():
    return njit(SUMS_SIG, cache=True, parallel=True)(_run_sums)


def equity_sums(game, t, rules, params, idata, fdata, start, seed, first, count, carried_in, ante, width):
    """The equity sums (``SUM_*``) of pot-game deals ``first .. first + count - 1``
    played as ``play_batch`` plays them, added up per block of ``BLOCK`` deals and
    then in block order, so the totals do not depend on the threads. No result rows
    are kept: an equity query needs only these sums, and allocating and filling a
    row per deal (57 float64) was a sixth of the time of a stud deal (measured:
    page clearing alone, 14.5% of a profile)."""
    n = int(start[B.players])
    sums = np.zeros(((count + BLOCK - 1) // BLOCK, SUM_FIRST + len(SUM_SEAT_FIELDS) * n), np.float64)
    _sums_runner()(game_play(game), t, rules, params, idata, fdata, start, int(seed), int(first), int(count),
                   float(carried_in), float(ante), int(width), sums)
    return sums.sum(axis=0)


def new_actions():
    return np.zeros(MAX_ACTIONS, np.int64)


# The totals of a batch of pot-game deals for a simulation (``simulation_totals``), per
# block of deals, in int64: nothing is rounded, so they are exact and the same for
# any number of threads. Per seat (n columns each): the sum of its net in 1/UNITS
# chips, then the sums of a*a, a*b and b*b for net = a * 2**20 + b (0 <= b < 2**20),
# which give the exact sum of squares (``analyzer.simulate.exact_sums`` splits the
# same way), then the deals it won some of the high half, of the low half, the
# whole pot. Then per seat its declarations (3 each: DECLARE_*) and the category of
# its final high hand (N_CATEGORIES each); then the carry in 1/UNITS chips, the
# category of the best high taking a share of the high half (N_CATEGORIES), the top
# card 1..13 of the best low taking a share of the low half (LOW_TOPS, only when the
# deal has a low half), the deals where no seat held a low, and the high strengths
# that are not a hand (a kernel's error, which the caller reports).
TOT_SEAT_GROUPS = 7
TOT_NET, TOT_AA, TOT_AB, TOT_BB, TOT_WINS_HIGH, TOT_WINS_LOW, TOT_SCOOPS = range(TOT_SEAT_GROUPS)  # times n
LOW_TOPS = 14  # a low's top card, 1 (ace) .. 13 (king); 0 unused
NET_SPLIT = 20


@njit(cache=True)
def totals_layout(n):
    """Where the parts of a block's totals for ``n`` seats start, after the seat
    groups: (declarations, final hands, carry, winning highs, winning lows, no low,
    errors, width)."""
    declared = TOT_SEAT_GROUPS * n
    categories = declared + (DECLARE_BOTH + 1) * n
    carry = categories + N_CATEGORIES * n
    winning_high = carry + 1
    winning_low = winning_high + N_CATEGORIES
    no_low = winning_low + LOW_TOPS
    return declared, categories, carry, winning_high, winning_low, no_low, no_low + 1, no_low + 2


@njit(cache=True, inline="always")
def _category_column(high, first, bad):
    """Column of the category of high strength ``high`` in a group starting at
    ``first``; ``bad`` (the error column) when it is not a high hand."""
    slot = high >> CAT_SHIFT
    if 1 <= slot <= NATURAL_ROYAL:
        return first + SLOT_CATEGORY[slot]
    return bad


def _run_totals(play, t, rules, params, idata, fdata, start, seed, first, count, rotate_dealer, has_low, width,
                totals):
    n = start[B.players]
    declared_at, categories_at, carry_at, winning_high_at, winning_low_at, no_low_at, bad_at, _ = totals_layout(n)
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        st, stream, scratch, row, no_trace, my_rules, my_params, my_idata, my_fdata = _block_arrays(
            start, rules, params, idata, fdata, width)
        acc = totals[b]
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            _start_deal(st, start, stream, seed, first + i, rotate_dealer)
            row[:] = 0.0
            play(t, my_rules, my_params, my_idata, my_fdata, st, stream, no_trace, scratch, row, np.int64(-1),
                 np.int64(-1))
            pot = np.int64(0)
            for s in range(n):
                pot += np.int64(np.rint(row[O.paid + s] * UNITS))
            won_high = np.int64(0)
            won_low = np.int64(0)
            best_low = np.int64(0)
            for s in range(n):
                payout = np.int64(np.rint(row[O.payout + s] * UNITS))
                net = payout - np.int64(np.rint(row[O.paid + s] * UNITS))
                a = net >> NET_SPLIT
                r = net - (a << NET_SPLIT)
                acc[TOT_NET * n + s] += net
                acc[TOT_AA * n + s] += a * a
                acc[TOT_AB * n + s] += a * r
                acc[TOT_BB * n + s] += r * r
                high = np.int64(row[O.high + s])
                low = np.int64(row[O.low + s])
                if row[O.high_share + s] > 0:
                    acc[TOT_WINS_HIGH * n + s] += 1
                    won_high = max(won_high, high)
                if row[O.low_share + s] > 0:
                    acc[TOT_WINS_LOW * n + s] += 1
                    won_low = max(won_low, low)
                if payout == pot:
                    acc[TOT_SCOOPS * n + s] += 1
                declared = np.int64(row[O.declared + s])
                if 0 <= declared <= DECLARE_BOTH:
                    acc[declared_at + (DECLARE_BOTH + 1) * s + declared] += 1
                acc[_category_column(high, categories_at + N_CATEGORIES * s, bad_at)] += 1
                best_low = max(best_low, low)
            acc[carry_at] += np.int64(np.rint(row[O.carry] * UNITS))
            if won_high > 0:
                acc[_category_column(won_high, winning_high_at, bad_at)] += 1
            if has_low:
                if won_low > 0:
                    acc[winning_low_at + 14 - ((won_low >> 16) & 0xF)] += 1  # its top card, ace 1
                if best_low == 0:
                    acc[no_low_at] += 1


TOTALS_SIG = types.void(types.FunctionType(PLAY_SIG), TABLES, _F64, types.float64[:, ::1], _I64, _F64, _I64,
                        types.int64, types.int64, types.int64, types.boolean, types.boolean, types.int64,
                        types.int64[:, ::1])


@lru_cache(maxsize=None)
def _totals_runner():
    return njit(TOTALS_SIG, cache=True, parallel=True)(_run_totals)


def simulation_totals(game, t, rules, params, idata, fdata, start, seed, first, count, rotate_dealer, has_low,
                      width):
    """The totals (the layout above) of pot-game deals ``first .. first + count - 1``
    played as ``play_batch`` plays them, one row per block of ``BLOCK`` deals: a
    simulation needs only these. A result row per deal (57 float64), allocated,
    filled and summed again in numpy, had cost more than the deals themselves with
    every seat taking every card (7-player Selection/Rejection through ``simulate``:
    2.49 us a deal, 1.05 us now) and a fifth of a heuristic deal (3.23 us, 2.58 us
    now). ``width``: the game's result row."""
    n = int(start[B.players])
    totals = np.zeros(((count + BLOCK - 1) // BLOCK, totals_layout(n)[-1]), np.int64)
    _totals_runner()(game_play(game), t, rules, params, idata, fdata, start, int(seed), int(first), int(count),
                     bool(rotate_dealer), bool(has_low), int(width), totals)
    return totals
