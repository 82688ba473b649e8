"""The Python face of the engine (kernels/engine.py): a game's validated inputs, its
table states, one deal played or stopped at a decision, and batches of deals.

``Inputs`` holds what every kernel call of a game needs under given settings (the
rules vector, one policy row per seat, the game's extra data). A table state is a
plain int64 array laid out by the game's ``STATE`` layout: copying a state is
copying an array, so many deals can start from one described table.
"""

from dataclasses import dataclass, field

import numpy as np

from kernels import engine as E
from kernels.games import common as C

from .cards import parse_cards
from .errors import WantitError
from .evaluate import _tables
from .progress import compile_notice
from .runs import check_seed, flag, whole

MAX_EVENTS = 20_000
EMPTY_I = np.zeros(0, np.int64)
EMPTY_F = np.zeros(0, np.float64)


@dataclass
class Inputs:
    """Everything a kernel call of one game needs, validated."""

    variant: object  # the registry entry
    players: int
    rules: np.ndarray  # rules vector (float64)
    params: np.ndarray  # [seat, parameter] policy rows (float64)
    idata: np.ndarray = field(default_factory=lambda: EMPTY_I)
    fdata: np.ndarray = field(default_factory=lambda: EMPTY_F)

    @property
    def game(self):
        return self.variant.game

    @property
    def state_layout(self):
        return self.variant.state

    @property
    def result_layout(self):
        return self.variant.result


_LOADED = set()


def _load(inp: Inputs, batch=False):
    """Load the game's kernels from numba's cache, or compile them the first time
    (saying so on a terminal: it takes a minute or more): those a fresh state needs
    (``batch`` "state"), those of single deals (False), of batches (True), of
    equity sums ("sums"), of simulation totals ("totals") or of batches that check
    forced actions in each deal ("actions"). Only what is used: each load is some
    milliseconds of a query's start-up."""
    key = (inp.game, batch)
    if key in _LOADED:
        return
    with compile_notice(f"the {inp.variant.name} kernels"):
        _tables()
        if batch == "state":
            E.init_state(inp.game, inp.rules, inp.idata, inp.state_layout.new(), inp.players, 0)
            _LOADED.add(key)
            return
        E.game_play(inp.game)
        if batch == "sums":
            E._sums_runner()
        elif batch == "totals":
            E._totals_runner()
        elif batch == "actions":
            E._actions_batch_runner()
            E.game_decision(inp.game)
        elif batch:
            E._batch_runner()
        else:
            st = inp.state_layout.new()  # compiles the state set-up and the decision lister
            E.init_state(inp.game, inp.rules, inp.idata, st, inp.players, 0)
            E.decision(inp.game, _tables(), inp.rules, inp.params, inp.idata, inp.fdata, st,
                       np.zeros(E.SCRATCH, np.int64), E.new_actions())
    _LOADED.add(key)


def new_state(inp: Inputs, dealer=None, stacked=None) -> np.ndarray:
    """A fresh deal's table state; ``stacked``: cards (text or codes) the stock deals
    in this order instead of at random."""
    n = inp.players
    dealer = n - 1 if dealer is None else whole(dealer, "dealer")
    if not 0 <= dealer < n:
        raise WantitError(f"dealer must be a seat 0..{n - 1}")
    _load(inp, batch="state")
    st = inp.state_layout.new()
    E.init_state(inp.game, inp.rules, inp.idata, st, n, dealer)
    if stacked is not None:
        if "deck" not in inp.state_layout:
            raise WantitError(f"{inp.variant.name}: a stacked deck is part of the game's inputs, not of new_state")
        C.stack_stock(st, np.asarray(parse_cards(stacked), np.int64))  # unknown or repeated cards refused
    return st


def check_state(inp: Inputs, st, what="state"):
    """Refuse, before a kernel reads it, an array that is not a table state of this
    game and table size: the kernels index it by the game's layout, unchecked (a short
    array was read out of bounds)."""
    size = inp.state_layout.size
    if not isinstance(st, np.ndarray) or st.dtype != np.int64 or st.ndim != 1 or not st.flags.c_contiguous:
        raise WantitError(f"{what} must be a table state (a contiguous 1-D int64 array from new_state), got "
                          f"{type(st).__name__}" + (f" of {st.dtype}, shape {st.shape}" if isinstance(st, np.ndarray)
                                                     else ""))
    if st.shape[0] != size:
        raise WantitError(f"{what} holds {st.shape[0]} values; a {inp.variant.name} table state holds {size} "
                          f"(a state of another game?)")
    if int(st[C.B.players]) != inp.players:
        raise WantitError(f"{what} is a {int(st[C.B.players])}-player table; these inputs are for {inp.players}")


def new_stream(seed, deal) -> np.ndarray:
    from kernels.rng import seed_stream

    stream = np.zeros(2, np.uint64)
    seed_stream(stream, check_seed(seed), check_seed(deal, "deal"))
    return stream


@dataclass
class Played:
    """One deal (or part of one) played on a state: the result row, the events
    (rows [kind, seat, card, a, b]) and whether it ended."""

    state: np.ndarray
    result: np.ndarray
    events: np.ndarray
    finished: bool


def play_state(inp: Inputs, st, stream, stop=-1, forced=-1, trace=True, result=None) -> Played:
    """Play on from ``st`` (changed in place) with ``stream`` (advanced in place):
    to the end of the deal, or until ``stop`` decisions have been taken in all;
    ``forced`` is the action of the next decision, which must be one of its legal
    actions (``decision``). Events are appended after those already counted in
    the state."""
    check_state(inp, st)
    if not st.flags.writeable:
        raise WantitError("state must be writeable: play_state plays on it in place (pass st.copy())")
    forced = whole(forced, "forced")
    stop = whole(stop, "stop")
    if forced >= 0:
        before = _play(inp, st, stream, int(st[C.B.decisions]), -1, trace, result)
        kind, seat, actions = decision(inp, st)
        if kind == "none":
            raise WantitError("the deal is over: there is no decision to force")
        if int(forced) not in actions:
            shown = ", ".join(map(str, actions[:12])) + (", ..." if len(actions) > 12 else "")
            raise WantitError(f"action {forced} is not legal at seat {seat}'s {kind} decision; legal: {shown}")
        after = _play(inp, st, stream, stop, forced, trace, before.result)
        return Played(st, after.result, np.concatenate([before.events, after.events]), after.finished)
    return _play(inp, st, stream, stop, forced, trace, result)


def _play(inp: Inputs, st, stream, stop, forced, trace, result) -> Played:
    _load(inp)
    rows = MAX_EVENTS if trace else 0
    trace_arr = np.zeros((rows, C.TRACE_WIDTH), np.int64)
    first = int(st[C.B.events])
    st[C.B.events] = 0
    out = inp.result_layout.new(np.float64) if result is None else result
    scratch = np.zeros(E.SCRATCH, np.int64)
    E.play(inp.game, _tables(), inp.rules, inp.params, inp.idata, inp.fdata, st, stream, trace_arr, scratch, out,
           np.int64(stop), np.int64(forced))
    n_events = int(st[C.B.events])
    st[C.B.events] = first + n_events
    return Played(st, out, trace_arr[:n_events].copy(), int(st[C.B.phase]) == C.PH_DONE)


def decision(inp: Inputs, st):
    """``(kind name, seat, legal actions)`` at the decision ``st`` stopped at
    (``("none", -1, [])`` when the deal is over)."""
    check_state(inp, st)
    _load(inp)
    actions = E.new_actions()
    scratch = np.zeros(E.SCRATCH, np.int64)
    kind, seat, count = E.decision(inp.game, _tables(), inp.rules, inp.params, inp.idata, inp.fdata, st.copy(),
                                   scratch, actions)
    return C.DECISION_NAMES[kind], int(seat), actions[:count].tolist()


def _check_batch(inp: Inputs, start, seed, first, count):
    """A batch's start state, seed, first deal and count, checked: whole numbers, the
    seed and deals in the kernels' range."""
    check_state(inp, start, "start")
    seed, first, count = check_seed(seed), check_seed(first, "first"), whole(count, "count")
    if not 0 <= count <= 2**63 - 1 - first:
        raise WantitError(f"count must be 0 or more, with first + count below 2**63, not {count}")
    return seed, first, count


def _at_first_decision(inp: Inputs, start, seed, deal, rotate_dealer):
    """``(state, stream)`` of deal ``deal`` of a batch from ``start``, played to its
    first decision (or its end)."""
    st, stream = start.copy(), new_stream(seed, deal)
    if rotate_dealer:
        st[C.B.dealer] = deal % inp.players
    _play(inp, st, stream, int(st[C.B.decisions]), -1, False, None)
    return st, stream


def _refuse_missing(inp: Inputs, st, deal, required, why=""):
    """Raise, naming the seat, the decision and its legal actions, when an action of
    ``required`` is not one of the decision ``st`` (deal ``deal``'s first) stands at,
    as ``play_state`` checks one."""
    kind, seat, actions = decision(inp, st)
    missing = [a for a in required if a not in actions]
    if kind != "none" and missing:
        shown = ", ".join(map(str, actions[:12])) + (", ..." if len(actions) > 12 else "")
        raise WantitError(f"action {missing[0]} is not legal at seat {seat}'s {kind} decision (deal {deal}'s first); "
                          f"legal: {shown}{why}")


def _first_decisions(inp: Inputs, start, seed, first, count, rotate_dealer):
    """``{deal: state at its first decision}`` for one deal of each dealer the batch
    deals with, when every deal with that dealer reaches the same first decision:
    two of them reach it drawing no random word, in the same state. ``None`` when
    they do not (cards are dealt before the decision), and each deal needs its own
    check."""
    reached = {}
    for deal in range(first, first + min(count, inp.players if rotate_dealer else 1)):
        other = deal + inp.players if deal < 2**62 else deal - inp.players  # a deal with the same dealer
        (st, stream), (st_other, stream_other) = (_at_first_decision(inp, start, seed, d, rotate_dealer)
                                                  for d in (deal, other))
        if stream[1] != 0 or stream_other[1] != 0 or not np.array_equal(st, st_other):
            return None
        reached[deal] = st
    return reached


def _each_deal_needs_check(inp: Inputs, start, seed, first, count, rotate_dealer, required):
    """Whether a batch forcing ``required`` must check each deal's first decision:
    False when every deal reaches one of a few decisions (``_first_decisions``), which
    are checked here (a refusal names the first deal)."""
    reached = _first_decisions(inp, start, seed, first, count, rotate_dealer)
    if reached is None:
        return True
    for deal, st in reached.items():
        _refuse_missing(inp, st, deal, required)
    return False


def _check_action_code(forced):
    forced = whole(forced, "forced")
    if forced >= 2**63:  # an int64 in the kernels (Anaconda's pass codes use the high bits)
        raise WantitError(f"forced must be an action code below 2**63 (or -1 for none), not {forced}")
    return max(forced, -1)


def _batch(inp: Inputs, start, seed, first, count, rotate_dealer, forced):
    """``play_batch``'s rows (arguments checked), each deal's first decision checked
    to list ``forced`` (when >= 0)."""
    if forced >= 0 and _each_deal_needs_check(inp, start, seed, first, count, rotate_dealer, [forced]):
        return _actions_rows(inp, start, seed, first, count, rotate_dealer, [forced], True)[0]
    _load(inp, batch=True)
    out = np.zeros((count, inp.result_layout.size), np.float64)
    E.play_batch(inp.game, _tables(), inp.rules, inp.params, inp.idata, inp.fdata, start, seed, first, count,
                 rotate_dealer, out, forced=forced)
    return out


def _actions_rows(inp: Inputs, start, seed, first, count, rotate_dealer, actions, check):
    """The rows of each of ``actions`` forced at every deal's first decision, shape
    ``(len(actions), count, width)`` (``kernels.engine.play_actions``), each deal's
    decision checked to list them all when ``check``."""
    _load(inp, batch="actions")
    out = np.zeros((len(actions), count, inp.result_layout.size), np.float64)
    illegal = E.play_actions(inp.game, _tables(), inp.rules, inp.params, inp.idata, inp.fdata, start, seed, first,
                             count, rotate_dealer, np.array(actions, np.int64), check, out)
    _refuse_illegal(inp, start, seed, first, rotate_dealer, illegal, actions)
    return out


def _refuse_illegal(inp: Inputs, start, seed, first, rotate_dealer, illegal, required):
    """Raise for deal ``illegal`` of a checked batch (none when -1), whose first
    decision does not list every action of ``required``."""
    if illegal < 0:
        return
    why = "" if illegal == first else (
        " (the deals before it could take it: where cards are dealt before the decision, each deal's first "
        "decision has legal actions of its own)")
    _refuse_missing(inp, _at_first_decision(inp, start, seed, illegal, rotate_dealer)[0], illegal, required, why)
    raise AssertionError(f"deal {illegal}'s first decision lists every action it was found to lack")


def play_batch(inp: Inputs, start, seed, first, count, rotate_dealer=True, forced=-1) -> np.ndarray:
    """Result rows of deals ``first .. first + count - 1`` from copies of ``start``;
    ``forced`` >= 0 is the action of each deal's first decision, which must be one of
    its legal actions in every deal (checked as ``play_state`` checks one: once when
    every deal reaches the same decision, else in each deal, as where cards are dealt
    before the decision and the deciding seat's may differ)."""
    seed, first, count = _check_batch(inp, start, seed, first, count)
    forced, rotate_dealer = _check_action_code(forced), flag(rotate_dealer, "rotate_dealer")
    return _batch(inp, start, seed, first, count, rotate_dealer, forced)


def forced_batches(inp: Inputs, start, seed, first, count, actions, rotate_dealer=True):
    """``(action, rows)`` for each of ``actions`` in turn: ``play_batch`` of the same
    deals with that action forced, each deal's first decision checked to list every
    one of them. The rows of all the actions are played together when the first is
    asked for (``kernels.engine.play_actions``: each deal to its decision once, then
    on from a copy with each action), so they take ``len(actions)`` batches' memory."""
    seed, first, count = _check_batch(inp, start, seed, first, count)
    actions = [_check_action_code(a) for a in actions]
    rotate_dealer = flag(rotate_dealer, "rotate_dealer")
    if any(a < 0 for a in actions):
        raise WantitError("forced_batches forces an action in every batch: each must be an action code, not -1")
    if not actions:
        return
    checked = _each_deal_needs_check(inp, start, seed, first, count, rotate_dealer, actions)
    yield from zip(actions, _actions_rows(inp, start, seed, first, count, rotate_dealer, actions, checked))


def simulation_totals(inp: Inputs, start, seed, first, count, rotate_dealer=True, has_low=True) -> np.ndarray:
    """The int64 totals of pot-game deals ``first .. first + count - 1`` from copies of
    ``start``, one row per block of deals (``kernels.engine.simulation_totals``: per
    seat the net and its square in parts, wins, scoops, declarations and final
    hands; the carry, the winning hands and the deals without a low)."""
    seed, first, count = _check_batch(inp, start, seed, first, count)
    rotate_dealer, has_low = flag(rotate_dealer, "rotate_dealer"), flag(has_low, "has_low")
    _load(inp, batch="totals")
    return E.simulation_totals(inp.game, _tables(), inp.rules, inp.params, inp.idata, inp.fdata, start, seed,
                               first, count, rotate_dealer, has_low, inp.result_layout.size)


def equity_sums(inp: Inputs, start, seed, first, count, carried_in=0.0, ante=1.0):
    """The equity sums of pot-game deals ``first .. first + count - 1`` from copies of
    ``start`` (``kernels.engine.equity_sums``: deals kept, rejected, void, then per
    seat the share, share squared, net, net squared, high, low and scoop sums)."""
    seed, first, count = _check_batch(inp, start, seed, first, count)
    _load(inp, batch="sums")
    return E.equity_sums(inp.game, _tables(), inp.rules, inp.params, inp.idata, inp.fdata, start, seed,
                         first, count, float(carried_in), float(ante), inp.result_layout.size)
