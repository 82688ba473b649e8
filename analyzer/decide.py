"""Decisions from a described table: "should I take this card?".

``decide(table, ...)`` finds the decision the table stands at (it must be mine),
lists its legal actions, and plays the same deals on after each action (common
random numbers: deal ``i`` uses the same random stream, so the same unknown cards,
whichever action was taken), every later decision by the policies. It reports
each action's expected net in antes with its standard error, the best action, and
its edge over the runner-up with the edge's standard error, computed from the
paired differences (much smaller than the two errors together).

With more than two actions the query races them (``race``, on by default): an action
whose paired shortfall against the best is beyond ``race_z`` standard errors is no
longer played. Its EV stays in the answer, over the deals it was played on. The best
action and the runner-up are never dropped, and every action still played has been
played on every deal, so the best, the edge and the point the query stops at are
those of playing every action on every deal, unless a dropped action would have
climbed back to second.
"""

import math
import time
from statistics import NormalDist

import numpy as np

from kernels.cards import card_bit
from kernels.games import common as C

from .cards import card_text
from .engine import decision, forced_batches, new_stream, play_state
from .equity import (
    FEWEST_DEALS,
    MIN_DEALS,
    Z95,
    check_agreement,
    check_precision,
    check_query_run,
    counted,
    is_scored,
    selection_measure,
    selection_meta,
    selection_query,
    selection_values,
    setup,
)
from .errors import WantitError
from .runs import numba_threads
from .table import Table
from .text import fit_columns, wrap_line

FIRST_CHUNK = 2_000
FORCED_VALUES = 2**24  # result values a query's forced batches hold at once (128 MB of float64)
PROBES = 8  # streams tried to check that the decision does not depend on unseen cards
RACE_FIRST = 500  # deals before a race's first look, and between its looks in the first chunk
RACE_LOOKS = 16  # the looks a race takes at most (race_z's bound counts them all)
RACE_ERROR = 0.05  # at most this chance, over all the looks, of dropping an action as good as the best


def _mask_cards(mask):
    """The cards of a kernel card mask (``kernels.cards.card_bit``), in code order."""
    return " ".join(card_text(c) for c in range(52) if int(mask) & int(card_bit(c)))


def action_text(kind, action, inp=None):
    """An action of decision ``kind`` in words."""
    if kind == "offer":
        return "take" if action == C.TAKE else "refuse"
    if kind == "pool":
        return "fresh card" if action == C.POOL_DRAW else f"take {card_text(action)}"
    if kind == "declare":
        return {C.DECLARE_HIGH: "high", C.DECLARE_LOW: "low", C.DECLARE_BOTH: "both"}[action]
    if kind == "pass":
        return f"pass {_mask_cards(action)}"
    if kind == "keep":
        return f"keep {_mask_cards(action)}"
    if kind == "hide":
        return f"hide {card_text(action)}"
    if kind == "pay":
        return "accept" if action == C.ACCEPT else "pay"
    if kind == "extra":
        return "take the extra card" if action == C.EXTRA_TAKE else "decline the extra card"
    if kind == "target":
        if action == C.DECLINE:
            return "decline"
        victim, card = divmod(action, 64)
        return f"seat {victim}'s " + ("hole card, blind" if card == C.HOLE_BLIND else card_text(card))
    return str(action)


class DecisionResult:
    """``meta``, ``actions`` (a DataFrame: action, code, ev, ev_se, bounds, the deals
    each action was played on, made from its columns when first read: the JSON and
    table outputs need no pandas), ``best``, ``edge`` and ``edge_se`` (best minus
    runner-up, in antes)."""

    def __init__(self, meta, actions, best, edge, edge_se):
        self.meta = meta
        self._actions = actions  # a dict of columns, or a DataFrame
        self.best, self.edge, self.edge_se = best, edge, edge_se

    @property
    def actions(self):
        if isinstance(self._actions, dict):
            import pandas as pd

            self._actions = pd.DataFrame(self._actions)
        return self._actions

    def _columns(self):
        a = self._actions
        return a if isinstance(a, dict) else {c: a[c].tolist() for c in a.columns}

    def to_json(self):
        a = self._columns()
        return {"meta": self.meta,
                "actions": [{"action": a["action"][i], "code": int(a["code"][i]), "ev": float(a["ev"][i]),
                             "ev_se": float(a["ev_se"][i]), "deals": int(a["deals"][i])}
                            for i in range(len(a["action"]))],
                "best": self.best, "edge": self.edge, "edge_se": self.edge_se}

    def format_table(self):
        m = self.meta
        unit = m.get("unit", "antes")  # Selection: points or a fraction of the win
        where = f", {m['where']}" if "where" in m else ""  # Selection: the round and draw
        a = self._columns()
        count = len(a["action"])
        dropped = sum(int(d) < m["deals"] for d in a["deals"])
        lines = wrap_line(f"{m['variant']}, {m['players']} player{'s' if m['players'] != 1 else ''}{where}: "
                          f"seat {m['me']}'s {m['kind']} decision, "
                          f"{count} action{'' if count == 1 else 's'} on {'up to' if dropped else 'the same'} "
                          f"{m['deals']:,} deals; "
                          f"{m.get('measured', 'nets in antes')} with 95% intervals")
        columns = {"action": a["action"],
                   "ev": [f"{e:+.4f} ({lo:+.4f}..{hi:+.4f})" for e, lo, hi in zip(a["ev"], a["ev_lo"], a["ev_hi"])]}
        if dropped:
            lines += wrap_line(f"{dropped} of the actions dropped from the race once clearly worse than the best "
                               f"({m['race_z']:.2f} paired standard errors below it); their EVs are over the "
                               f"deals they were played on")
            columns["deals"] = [f"{int(d):,}" for d in a["deals"]]
        lines.append(fit_columns(columns, ["action"]))
        if count > 1:
            lo, hi = self.edge - Z95 * self.edge_se, self.edge + Z95 * self.edge_se
            if self.edge == 0 and self.edge_se == 0 and m["deals"] > 1:
                sure = " (the same on every deal: more deals would not tell them apart)"
            else:
                sure = "" if lo > 0 else " (not yet distinguishable from the runner-up)"
            lines += wrap_line(f"best: {self.best}, by {self.edge:+.4f} {unit} ({lo:+.4f}..{hi:+.4f}) over "
                               f"{m['runner_up']}{sure}")
        else:
            lines.append(f"only one action: {self.best}")
        stopped = m.get("stopped")
        if stopped == "clear":
            lines += wrap_line(f"stopped once the best action was clear (its edge above twice its 95% half-width), "
                               f"before the edge was known to the precision asked ({m['precision']:g} {unit})")
        elif stopped == "max_deals":
            lines += wrap_line(f"stopped at --max-deals {m['max_deals']:,} before the edge was known to the "
                               f"precision asked ({m['precision']:g} {unit})")
        if m.get("interrupted"):
            lines.append("interrupted: partial")
        return "\n".join(lines)


def _action_columns(names, actions, mean, se, deals):
    """The columns of ``DecisionResult.actions``: each action's EV with its 95% bounds,
    and the deals it was played on."""
    return {"action": names, "code": actions, "ev": mean, "ev_se": se,
            "ev_lo": mean - Z95 * se, "ev_hi": mean + Z95 * se, "deals": deals}


def race_z(k):
    """How many paired standard errors an action of ``k`` must fall short of the best
    by to be dropped from the race: each of the ``k - 2`` actions that may be dropped
    (never the best nor the runner-up) at each of ``RACE_LOOKS`` looks gets an equal
    part of ``RACE_ERROR`` (one-sided, Bonferroni), and never less than twice the 95%
    half-width, the bound at which a query calls the best action clear. Infinite for
    two actions or fewer: nothing to race."""
    if k <= 2:
        return math.inf
    return max(2 * Z95, NormalDist().inv_cdf(1 - RACE_ERROR / ((k - 2) * RACE_LOOKS)))


class _Race:
    """The sums of the actions' values over the deals each was played on, the actions
    still played (``alive``), and the race's looks. Every action still played has been
    played on every deal so far, so their paired errors come from the sums of the
    products of their values (``cross``), as with common random numbers."""

    def __init__(self, k, race):
        self.total = np.zeros(k)
        self.cross = np.zeros((k, k))  # sums of value_a * value_b over the deals both were played on
        self.deals = np.zeros(k, np.int64)
        self.alive = np.ones(k, bool)
        self.z = race_z(k) if race else math.inf
        self.looks = 0

    @property
    def racing(self):
        """Whether actions may still be dropped (a race of more than two actions)."""
        return self.z != math.inf

    @property
    def playing(self):
        """The indices of the actions still played."""
        return np.flatnonzero(self.alive)

    @property
    def deals_played(self):
        """The deals the actions still played were played on (all of them)."""
        return int(self.deals[self.alive][0])

    def add(self, values):
        """``values``: ``(deals, actions still played)``, in ``playing`` order."""
        idx = self.playing
        self.total[idx] += values.sum(axis=0)
        self.cross[np.ix_(idx, idx)] += values.T @ values
        self.deals[idx] += len(values)

    def standing(self):
        """``(mean, se, best, runner-up, edge, edge se)``: each action's over its own
        deals; the best and runner-up among the actions still played, the edge's error
        paired (common random numbers), from the covariance of the two actions."""
        deals = np.maximum(self.deals, 1)
        mean = self.total / deals
        scale = deals / np.maximum(deals - 1, 1)
        se = np.sqrt(np.maximum(np.diag(self.cross) / deals - mean * mean, 0.0) * scale / deals)
        idx = self.playing
        order = idx[np.argsort(-mean[idx], kind="stable")]
        best, second = order[0], order[1] if len(order) > 1 else order[0]
        edge, edge_se = self._shortfall(mean, best, second)
        return mean, se, best, second, edge, edge_se

    def _shortfall(self, mean, best, other):
        """``(mean[best] - mean[other], its paired standard error)`` over the deals both
        were played on (every deal so far: both still played)."""
        n = self.deals_played
        cov = self.cross / max(n, 1)
        var = (cov[best, best] - mean[best] * mean[best]) + (cov[other, other] - mean[other] * mean[other]) \
            - 2 * (cov[best, other] - mean[best] * mean[other])
        scale = n / max(n - 1, 1)
        return mean[best] - mean[other], math.sqrt(max(var, 0.0) * scale / max(n, 1))

    def look(self):
        """Drop every action still played, but the best and the runner-up, whose
        shortfall against the best is beyond ``z`` paired standard errors; at most
        ``RACE_LOOKS`` looks, none before ``RACE_FIRST`` deals."""
        if not self.racing or self.looks >= RACE_LOOKS or self.deals_played < RACE_FIRST:
            return
        self.looks += 1
        mean, _, best, second, _, _ = self.standing()
        for a in self.playing:
            if a != best and a != second:
                gap, gap_se = self._shortfall(mean, best, a)
                if gap > self.z * gap_se:
                    self.alive[a] = False

    def parts(self, first, count):
        """The sizes of the parts a chunk of ``count`` deals from deal ``first`` is
        played in, a look after each: ``RACE_FIRST`` deals at a time in the first chunk
        of a race, else the whole chunk."""
        if not self.racing or first > 0:
            return [count]
        return [RACE_FIRST] * (count // RACE_FIRST) + ([count % RACE_FIRST] if count % RACE_FIRST else [])

    def _found(self, precision):
        """How the best action is found, after enough deals: "precision" (its edge over
        the runner-up known to ``precision``, 95% half-width), "clear" (the edge clearly
        positive before that), or None."""
        _, _, _, _, edge, edge_se = self.standing()
        if self.deals_played < MIN_DEALS:
            return None
        if Z95 * edge_se < precision:
            return "precision"
        return "clear" if edge - 2 * Z95 * edge_se > 0 else None

    def settled(self, precision):
        """Whether the best action is found (``_found``)."""
        return self._found(precision) is not None

    def stopping(self, precision, interrupted):
        """The meta fields that say why the run stopped: ``reached_precision`` (the edge's
        95% half-width under ``precision``) and ``stopped``: "precision", "clear" (the
        edge clearly positive before that), "max_deals", "interrupted" or "one action";
        and the race's: ``race_z`` (None without a race), ``dropped`` (actions)."""
        found = self._found(precision)
        one = len(self.alive) == 1
        if one:
            stopped = "one action"
        elif interrupted:
            stopped = "interrupted"
        else:
            stopped = found or "max_deals"
        return {"reached_precision": found == "precision" or one, "stopped": stopped,
                "race_z": round(self.z, 4) if self.racing else None, "dropped": int((~self.alive).sum())}


def _the_decision(inp, st, seed, me, game_data=False):
    """``(kind, seat, actions)`` of the first decision from ``st``, the same on every
    probe stream (else the decision depends on cards not dealt yet). ``game_data``:
    ``idata`` is the game's own data (Selection's deck and board), not conditioning
    rows, and is kept."""
    from dataclasses import replace

    from .engine import EMPTY_I

    if not game_data:
        inp = replace(inp, idata=EMPTY_I)  # the decision is the same whatever --condition keeps
        st = st.copy()
        st[C.P.check_declared] = 0  # nor whatever the declarations seen keep
    seen = set()
    for k in range(PROBES):
        probe = play_state(inp, st.copy(), new_stream(seed, k), stop=0, trace=False)
        kind, seat, actions = decision(inp, probe.state)
        seen.add((kind, seat, tuple(actions)))
    if len(seen) > 1:
        raise WantitError("the next decision depends on cards not dealt yet: describe the table at the decision")
    kind, seat, actions = seen.pop()
    if kind == "none":
        raise WantitError("no decision is left at this table: every card and choice is made (ask for equity)")
    if seat != me:
        raise WantitError(f"the next decision is seat {seat}'s ({kind}), not seat {me}'s: describe the table at "
                          f"my decision, or say --me {seat}")
    return kind, list(actions)


def _forced_pieces(inp, st, seed, first, count, actions):
    """``(lo, hi, j, rows)``: deals ``first + lo .. first + hi - 1`` played forcing
    ``actions[j]`` (``forced_batches``), in pieces whose rows for every action fit in
    ``FORCED_VALUES``: a piece plays all its actions at once."""
    step = max(1, FORCED_VALUES // (len(actions) * inp.result_layout.size))
    for lo in range(0, count, step):
        hi = min(count, lo + step)
        for j, (_, rows) in enumerate(forced_batches(inp, st, seed, first + lo, hi - lo, actions,
                                                     rotate_dealer=False)):
            yield lo, hi, j, rows


def decide(table: Table, policies=None, rules=None, precision=None, max_deals=200_000, seed=0, threads=None,
           progress=None, condition=False, measure=None, race=True) -> DecisionResult:
    """Every legal action of my decision at ``table`` (see the module docstring).
    Stops when the edge of the best action is known to ``precision`` antes (95%
    half-width; default 0.01), or when it is clearly positive, or at ``max_deals``.
    ``race``: drop an action once it is clearly worse than the best (``race_z``);
    False plays every action on every deal. Selection is ``selection_decide``
    (``measure``: what its EV is)."""
    if is_scored(table):
        return selection_decide(table, policies, rules, precision, max_deals, seed, threads, progress, condition,
                                measure, race)
    if measure is not None:
        raise WantitError("measure: a pot game's decisions are measured in antes (measure is for Selection)")
    if precision is None:
        precision = 0.01
    precision = check_precision(precision, "antes")
    max_deals, seed = check_query_run(max_deals, 10**8, seed, threads)
    v, n, inp, st, ante, me, _ = setup(table, policies, rules, condition)
    kind, actions = _the_decision(inp, st, seed, me)
    k = len(actions)
    sums = _Race(k, race)
    deals = played = 0  # deals kept (all but those --condition rejects), deals played
    started = time.perf_counter()
    interrupted = False
    chunk = FIRST_CHUNK
    res = v.result

    with numba_threads(threads):
        try:
            while played < max_deals:
                count = min(chunk, max_deals - played)
                for part in sums.parts(played, count):
                    playing = [actions[a] for a in sums.playing]
                    nets = np.empty((part, len(playing)))
                    kept = np.empty(part, bool)
                    for lo, hi, j, rows in _forced_pieces(inp, st, seed, played, part, playing):
                        kept[lo:hi] = counted(v, rows)  # the same deals for every action: checked before the decision
                        nets[lo:hi, j] = (res.view(rows, "payout")[:, me] - res.view(rows, "paid")[:, me]) / ante
                    nets = nets[kept]
                    sums.add(nets)
                    deals += len(nets)
                    played += part
                    sums.look()
                if deals < FEWEST_DEALS:
                    check_agreement(deals, played)
                    continue
                if progress is not None:
                    progress(played, max_deals)
                if k == 1:
                    break
                if sums.settled(precision):
                    break
                chunk = int(min(max(chunk * 2, 2_000), 200_000))
        except KeyboardInterrupt:
            interrupted = True
            if deals < FEWEST_DEALS:
                raise
    check_agreement(deals, played, final=True)
    mean, se, best, second, edge, edge_se = sums.standing()
    names = [action_text(kind, a, inp) for a in actions]
    frame = _action_columns(names, actions, mean, se, sums.deals)
    meta = {"variant": v.name, "players": n, "me": me, "kind": kind, "deals": deals, "deals_played": played,
            "conditioned": bool(condition), "effective_sample_size": deals, "precision": precision,
            "max_deals": max_deals, "seed": int(seed), "interrupted": interrupted,
            "runner_up": names[second], "seconds": round(time.perf_counter() - started, 3),
            "rules": {key: str(x) for key, x in (rules or {}).items()},
            "units": "antes (ev, edge)", **sums.stopping(precision, interrupted)}
    return DecisionResult(meta, frame, names[best], float(edge), float(edge_se))


# ---------------------------------------------------------------- Selection (scored on a board)

# Default precisions (95% half-width of the edge) by measure: a fraction of the win, or points.
SELECTION_DECIDE_PRECISION = {"share": 0.01, "total": 1.0}


def selection_action_text(kind, action, hand, deck, board, ace_one):
    """A Selection action in words: ``keep`` (the cards kept, or ``stand pat``),
    ``fill SLOT with CARDS (N points)``, ``scratch SLOT``, ``declare SLOT``."""
    from kernels.games import selection as G

    from .selection_config import card_points

    ids = [s.id for s in board.slots]
    if kind == "draw":
        if action == G.FULL_HAND:
            return "stand pat"
        return "keep " + deck.format([hand[j] for j in range(G.HAND) if (action >> j) & 1])
    if kind == "target_slot":
        return f"declare {ids[action]}"
    if action >= G.SCRATCH:
        return f"scratch {ids[action - G.SCRATCH]}"
    k, mask = action % G.FILL_MASK, action // G.FILL_MASK
    used = [hand[j] for j in range(G.HAND) if (mask >> j) & 1]
    ranks = [deck.cards[c][0] for c in used]
    if board.slots[k].kind in ("low", "high"):
        points = sum(11 if r == 14 and ace_one else card_points(r) for r in ranks)
    else:
        points = sum(card_points(r) for r in ranks)
    return f"fill {ids[k]} with {deck.format(used)} ({points} points)"


def selection_decide(table: Table, policies=None, rules=None, precision=None, max_deals=200_000, seed=0,
                     threads=None, progress=None, condition=False, measure=None, race=True) -> DecisionResult:
    """Every legal action of my decision at a Selection table: the keep at a draw
    (every mask of my hand keeping 2..7 cards: 120 actions), the assignment at
    scoring (every open slot my cards may fill with every set of cards that fills
    it, and the legal scratches), or the declared target (SE-A6). Each action is
    played on over the same games (common random numbers: the same unknown cards,
    and every later round dealt from the same stream whichever action was taken),
    every later decision by the policies. The EV is ``measure``: my expected final
    total in points (default in solitaire) or my expected share of the win, ties
    shared (default with opponents). Stops when the best action's edge is known to
    ``precision`` (95% half-width; default 1 point, or 0.01 of the win), when it is
    clearly positive, or at ``max_deals`` games per action. ``race``: drop an action
    once it is clearly worse than the best (``decide``)."""
    from kernels.games import selection as G

    max_deals, seed = check_query_run(max_deals, 10**8, seed, threads)
    q = selection_query(table, policies, rules, condition)
    me = q.me
    measure = selection_measure(measure, q.setup.players)
    precision = check_precision(SELECTION_DECIDE_PRECISION[measure] if precision is None else precision,
                                "of the win" if measure == "share" else "points")
    unknown = q.state[G.S.unknown_at:G.S.unknown_at + q.state[G.S.n_unknown]]
    mine = G.S.hands + G.HAND * me
    if ((unknown >= mine) & (unknown < mine + G.HAND)).any():
        raise WantitError(f"decide: give all {G.HAND} of my cards (--hole {me}='...'); a decision is taken on "
                          f"the cards held")
    kind, actions = _the_decision(q.inputs, q.state, seed, me, game_data=True)
    k = len(actions)
    sums = _Race(k, race)
    deals = 0
    started = time.perf_counter()
    interrupted = False
    chunk = FIRST_CHUNK
    column = 0 if measure == "share" else 1

    with numba_threads(threads):
        try:
            while deals < max_deals:
                count = min(chunk, max_deals - deals)
                for part in sums.parts(deals, count):
                    playing = [actions[a] for a in sums.playing]
                    values = np.empty((part, len(playing)))
                    for lo, hi, j, rows in _forced_pieces(q.inputs, q.state, seed, deals, part, playing):
                        values[lo:hi, j] = selection_values(q, rows)[column][:, me]
                    sums.add(values)
                    deals += part
                    sums.look()
                if progress is not None:
                    progress(deals, max_deals)
                if k == 1:
                    break
                if deals < 2:
                    continue
                if sums.settled(precision):
                    break
                chunk = int(min(max(chunk * 2, 2_000), 200_000))
        except KeyboardInterrupt:
            interrupted = True
            if deals < 2:
                raise
    mean, se, best, second, edge, edge_se = sums.standing()
    hand = G.STATE.view(q.state, "hands")[me].tolist()
    names = [selection_action_text(kind, a, hand, q.setup.deck, q.setup.board, q.inputs.rules[G.R_ACE_ONE] > 0)
             for a in actions]
    frame = _action_columns(names, actions, mean, se, sums.deals)
    unit = "of the win" if measure == "share" else "points"
    meta = selection_meta(q, q.setup.values, measure, precision, max_deals, int(seed), rules, kind=kind,
                          deals=deals, deals_played=deals, conditioned=False, effective_sample_size=deals,
                          interrupted=interrupted, runner_up=names[second],
                          seconds=round(time.perf_counter() - started, 3), unit=unit,
                          measured=("expected shares of the win" if measure == "share" else
                                    "expected final totals in points"))
    meta["units"] = f"{unit} (ev, edge): " + ("my expected share of the win, ties shared" if measure == "share" else
                                              "my expected final total")
    meta.update(sums.stopping(precision, interrupted))
    return DecisionResult(meta, frame, names[best], float(edge), float(edge_se))
