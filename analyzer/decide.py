"""Decisions from a described table: "should I take this card?".

``decide(table, ...)`` finds the decision the table stands at (it must be mine),
lists its legal actions, and plays the same deals on after each action (common
random numbers: deal ``i`` uses the same random stream, so the same unknown cards,
whichever action was taken), every later decision by the policies. It reports
each action's expected net in antes with its standard error, the best action, and
its edge over the runner-up with the edge's standard error, computed from the
paired differences (much smaller than the two errors together).
"""

import math
import time
from dataclasses import dataclass

import numpy as np

from kernels.cards import card_bit
from kernels.games import common as C

from .cards import card_text
from .engine import decision, new_stream, play_batch, play_state
from .equity import MIN_DEALS, Z95, check_agreement, counted, setup
from .errors import WantitError
from .runs import numba_threads, whole
from .table import Table
from .text import fit_frame, wrap_line

FIRST_CHUNK = 2_000
PROBES = 8  # streams tried to check that the decision does not depend on unseen cards


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


@dataclass
class DecisionResult:
    """``meta``, ``actions`` (a DataFrame: action, code, ev, ev_se, bounds), ``best``,
    ``edge`` and ``edge_se`` (best minus runner-up, in antes)."""

    meta: dict
    actions: object
    best: str
    edge: float
    edge_se: float

    def to_json(self):
        return {"meta": self.meta,
                "actions": [{"action": r.action, "code": int(r.code), "ev": float(r.ev), "ev_se": float(r.ev_se)}
                            for r in self.actions.itertuples()],
                "best": self.best, "edge": self.edge, "edge_se": self.edge_se}

    def format_table(self):
        m = self.meta
        lines = wrap_line(f"{m['variant']}, {m['players']} players: seat {m['me']}'s {m['kind']} decision, "
                          f"{len(self.actions)} actions on the same {m['deals']:,} deals; nets in antes with "
                          f"95% intervals")
        t = self.actions[["action"]].copy()
        t["ev"] = [f"{e:+.4f} ({lo:+.4f}..{hi:+.4f})" for e, lo, hi in
                   zip(self.actions.ev, self.actions.ev_lo, self.actions.ev_hi)]
        lines.append(fit_frame(t, ["action"]))
        if len(self.actions) > 1:
            lo, hi = self.edge - Z95 * self.edge_se, self.edge + Z95 * self.edge_se
            sure = "" if lo > 0 else " (not yet distinguishable from the runner-up)"
            lines += wrap_line(f"best: {self.best}, by {self.edge:+.4f} antes ({lo:+.4f}..{hi:+.4f}) over "
                               f"{m['runner_up']}{sure}")
        else:
            lines.append(f"only one action: {self.best}")
        if m.get("interrupted"):
            lines.append("interrupted: partial")
        return "\n".join(lines)


def _the_decision(inp, st, seed, me):
    """``(kind, seat, actions)`` of the first decision from ``st``, the same on every
    probe stream (else the decision depends on cards not dealt yet)."""
    from dataclasses import replace

    from .engine import EMPTY_I

    inp = replace(inp, idata=EMPTY_I)  # the decision is the same whatever --condition keeps
    st = st.copy()
    st[C.P.check_declared] = 0
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


def decide(table: Table, policies=None, rules=None, precision=0.01, max_deals=200_000, seed=0, threads=None,
           progress=None, condition=False) -> DecisionResult:
    """Every legal action of my decision at ``table`` (see the module docstring).
    Stops when the edge of the best action is known to ``precision`` antes (95%
    half-width), or when it is clearly positive, or at ``max_deals``."""
    import pandas as pd

    v, n, inp, st, ante, me, _ = setup(table, policies, rules, condition)
    try:
        precision = float(precision)
    except (TypeError, ValueError):
        raise WantitError(f"precision {precision!r} must be a number") from None
    if not (0 < precision and math.isfinite(precision)):
        raise WantitError(f"precision {precision:g} must be a positive number of antes")
    max_deals = whole(max_deals, "max_deals")
    if not 1 <= max_deals <= 10**8:
        raise WantitError(f"max_deals {max_deals} must be 1..100,000,000")
    kind, actions = _the_decision(inp, st, seed, me)
    k = len(actions)
    total = np.zeros(k)
    cross = np.zeros((k, k))  # sums of net_a * net_b over deals: the variances of every paired difference
    deals = played = 0  # deals kept (all but those --condition rejects), deals played
    started = time.perf_counter()
    interrupted = False
    chunk = FIRST_CHUNK
    res = v.result

    def standing():
        mean = total / deals
        cov = cross / deals - np.outer(mean, mean)
        order = np.argsort(-mean, kind="stable")
        best, second = order[0], order[1] if k > 1 else order[0]
        edge = mean[best] - mean[second]
        var = max(cov[best, best] + cov[second, second] - 2 * cov[best, second], 0.0)
        scale = deals / max(deals - 1, 1)
        return mean, np.sqrt(np.maximum(np.diag(cov), 0.0) * scale / deals), best, second, edge, \
            math.sqrt(var * scale / deals)

    with numba_threads(threads):
        try:
            while played < max_deals:
                count = min(chunk, max_deals - played)
                nets = np.empty((count, k))
                kept = None
                for j, a in enumerate(actions):
                    rows = play_batch(inp, st, seed, played, count, rotate_dealer=False, forced=a)
                    kept = counted(v, rows)  # the same deals for every action: the check precedes the decision
                    nets[:, j] = (res.view(rows, "payout")[:, me] - res.view(rows, "paid")[:, me]) / ante
                nets = nets[kept]
                total += nets.sum(axis=0)
                cross += nets.T @ nets
                deals += len(nets)
                played += count
                if deals < 2:
                    check_agreement(deals, played)
                    continue
                if progress is not None:
                    progress(played, max_deals)
                if k == 1:
                    break
                _, _, _, _, edge, edge_se = standing()
                if deals >= MIN_DEALS and (Z95 * edge_se < precision or edge - 2 * Z95 * edge_se > 0):
                    break
                chunk = int(min(max(chunk * 2, 2_000), 200_000))
        except KeyboardInterrupt:
            interrupted = True
            if deals < 2:
                raise
    mean, se, best, second, edge, edge_se = standing()
    names = [action_text(kind, a, inp) for a in actions]
    frame = pd.DataFrame({"action": names, "code": actions, "ev": mean, "ev_se": se,
                          "ev_lo": mean - Z95 * se, "ev_hi": mean + Z95 * se})
    meta = {"variant": v.name, "players": n, "me": me, "kind": kind, "deals": deals, "deals_played": played,
            "conditioned": bool(condition), "effective_sample_size": deals, "precision": precision,
            "max_deals": max_deals, "seed": int(seed), "interrupted": interrupted,
            "runner_up": names[second], "seconds": round(time.perf_counter() - started, 3),
            "rules": {key: str(x) for key, x in (rules or {}).items()},
            "units": "antes (ev, edge)"}
    return DecisionResult(meta, frame, names[best], float(edge), float(edge_se))
