"""Equity from a described table: "what are my chances?".

``equity(table, ...)`` plays the deal on from the table's state (``analyzer.table``)
many times, the unknown cards dealt at random from those nobody has seen and every
seat following its policy, and reports each seat's expected share of the pot, its
expected net, and how often it wins high, low and the whole pot, with standard
errors. It plays chunks of deals until the 95% interval on my share is narrower
than ``precision`` on either side, or ``max_deals`` have been played.
"""

import math
import time
from dataclasses import dataclass

import numpy as np

from kernels.engine import SUM_FIRST, SUM_KEPT, SUM_REJECTED, SUM_SEAT_FIELDS, SUM_VOID
from kernels.games.common import EXHAUSTED, REJECTED, UNITS, B, P

from .engine import equity_sums
from .exact import exact_equity
from .errors import WantitError
from .runs import check_seed, numba_threads, whole
from .table import Table, condition_data, table_state
from .table.parse import _given
from .text import fit_frame, wrap_line
from .variants import get_variant

Z95 = 1.959963984540054
MIN_DEALS = 1_000  # before the first stopping check: a standard error needs deals behind it
FIRST_CHUNK = 4_000


NO_AGREEMENT_AFTER = 20_000  # deals played with none kept: the choices seen are (nearly) impossible


STOCK_RAN_OUT = "the stock ran out before the deal was complete: the described table leaves too few cards"


def counted(v, rows):
    """Which result rows count: False for a deal ``--condition`` rejected (its unknown
    cards contradict the choices seen); a deal the stock ran out on is an error."""
    carry = v.result.view(rows, "carry")[:, 0]
    if (carry == EXHAUSTED).any():
        raise WantitError(STOCK_RAN_OUT)
    return carry != REJECTED


def check_agreement(kept, played):
    """Refuse a history no deal agrees with, once enough deals have been played."""
    if kept < 2 and played >= NO_AGREEMENT_AFTER:
        raise WantitError(f"no deal of {played:,} agrees with the choices seen: under these policies the history "
                          f"is (nearly) impossible")


@dataclass
class _Sums:
    """Running sums per seat (float64: equity needs no exact integer totals)."""

    deals: int
    share: np.ndarray
    share_sq: np.ndarray
    net: np.ndarray
    net_sq: np.ndarray
    high: np.ndarray
    low: np.ndarray
    scoop: np.ndarray
    carried_in: float = 0.0  # chips in the pot before the deal (a carried-over pot)
    tried: int = 0  # deals played, the rejected ones (--condition) included; ``deals`` counts those kept

    @classmethod
    def empty(cls, n):
        z = np.zeros(n)
        return cls(0, z.copy(), z.copy(), z.copy(), z.copy(), z.copy(), z.copy(), z.copy())

    def add(self, sums, n):
        """Add a batch's ``engine.equity_sums``."""
        if sums[SUM_VOID] > 0:
            raise WantitError(STOCK_RAN_OUT)
        kept = int(sums[SUM_KEPT])
        self.tried += kept + int(sums[SUM_REJECTED])
        self.deals += kept
        for k, name in enumerate(SUM_SEAT_FIELDS):
            total = getattr(self, name)
            total += sums[SUM_FIRST + k * n:SUM_FIRST + (k + 1) * n]

    def mean_se(self, total, total_sq):
        d = self.deals
        mean = total / d
        var = np.maximum(total_sq / d - mean ** 2, 0.0) * d / max(d - 1, 1)
        return mean, np.sqrt(var / d)


@dataclass
class EquityResult:
    """``meta`` (settings, deals, precision reached), ``seats`` (a DataFrame: seat,
    share, share_se, ev, ev_se, p_high, p_low, p_scoop, 95% bounds)."""

    meta: dict
    seats: object

    def to_json(self):
        cols = ["seat", "share", "share_se", "ev", "ev_se", "p_high", "p_low", "p_scoop"]
        return {"meta": self.meta,
                "seats": [{k: (int(r[k]) if k == "seat" else float(r[k])) for k in cols}
                          for _, r in self.seats.iterrows()]}

    def format_table(self, all_seats=False):
        m = self.meta
        head = (f"{m['variant']}, {m['players']} players, dealer seat {m['dealer']}: equity of seat {m['me']}"
                + (f" over all {m['deals']:,} ways the unknown cards can lie (exact)" if m["exact"] else
                   f" over {m['deals']:,} deals, 95% intervals (half-width {m['half_width']:.4f} on the share; "
                   f"asked {m['precision']:g})"))
        if not m["reached_precision"] and not m["exact"]:
            head += f"; stopped at --max-deals {m['max_deals']:,} before reaching the precision"
        if m.get("interrupted"):
            head += "; interrupted: partial"
        if m["conditioned"]:
            head += (f"; conditioned on the choices seen: {m['deals']:,} of {m['deals_played']:,} deals agree "
                     f"(acceptance {m['acceptance']:.3f}, effective sample size {m['effective_sample_size']:,})")
        s = self.seats
        rows = s if all_seats else s[s.seat == m["me"]]
        table = rows[["seat", "policy"]].copy()
        table["share"] = [f"{a:.4f} ({lo:.4f}-{hi:.4f})" for a, lo, hi in zip(rows.share, rows.share_lo, rows.share_hi)]
        table["ev (antes)"] = [f"{a:+.4f} ({lo:+.4f}..{hi:+.4f})" for a, lo, hi in zip(rows.ev, rows.ev_lo, rows.ev_hi)]
        for col in ("p_high", "p_low", "p_scoop"):
            table[col] = rows[col].map(lambda x: f"{x:.4f}")
        lines = wrap_line(head) + [fit_frame(table, ["seat"])]
        lines.append(f"(share: expected fraction of the pot; the unknown cards dealt from the "
                     f"{m['unseen']} unseen; policies: {m['field']})")
        return "\n".join(part for line in lines for part in (wrap_line(line) if "\n" not in line else [line]))


def _seat_specs(v, n, policies):
    from .simulate import seat_policies

    return seat_policies(v, n, policies)


def _meta(v, n, st, me, unseen, values, precision, max_deals, seed, rules, **more):
    return {"variant": v.name, "players": n, "dealer": int(st[B.dealer]), "me": me, **more,
            "precision": precision, "max_deals": max_deals, "seed": seed, "unseen": unseen,
            "rules": {k: str(x) for k, x in (rules or {}).items()},
            "field": ", ".join(sorted({val["preset"] for val in values})),
            "policies": [{k: val[k] for k in sorted(val)} for val in values],
            "units": "share: fraction of the pot; ev: antes"}


def _exact_result(v, n, st, ante, me, unseen, exact, values, precision, max_deals, seed, rules):
    """Every completion of the unknown cards, each equally likely: no error left."""
    import pandas as pd

    ways, share, p_high, p_low, p_scoop = exact
    paid = np.array([float(st[P.paid + s]) for s in range(n)])
    ev = (share * paid.sum() - paid) / ante
    zero = np.zeros(n)
    seats = pd.DataFrame({
        "seat": np.arange(n), "policy": [val["preset"] for val in values],
        "share": share, "share_se": zero, "share_lo": share, "share_hi": share,
        "ev": ev, "ev_se": zero, "ev_lo": ev, "ev_hi": ev, "p_high": p_high, "p_low": p_low, "p_scoop": p_scoop})
    meta = _meta(v, n, st, me, unseen, values, precision, max_deals, seed, rules, deals=int(ways),
                 deals_played=int(ways), conditioned=False, acceptance=1.0, effective_sample_size=int(ways),
                 exact=True, half_width=0.0, reached_precision=True, interrupted=False, seconds=0.0,
                 completions=int(ways))
    return EquityResult(meta, seats)


def setup(table: Table, policies=None, rules=None, condition=False):
    """``(variant, players, inputs, state, ante, my seat, unseen cards)`` of a query;
    with ``condition`` the inputs carry the history the unknown cards must agree with."""
    v = get_variant(table.variant)
    if v.kind != "pot":
        raise WantitError(f"equity is a share of a pot; {v.name} is scored on a board")
    n = v.default_players if table.players is None else whole(table.players, "players")
    inp = v.inputs(n, policies=policies, rules=rules)
    st = table_state(inp, table, condition=condition)
    # --condition reads the history (games that have one) and the declarations seen of
    # seats whose cards are unknown; with neither, condition_data says what it needs.
    if condition and not _given(table.history) and _given(table.declared) and not st[P.check_declared]:
        raise WantitError("--condition: every seat that declared holds known cards, so its declaration tells "
                          "nothing about unknown ones; give the choices seen (--history) or leave --condition out")
    if condition and (_given(table.history) or not st[P.check_declared]):
        from dataclasses import replace

        inp = replace(inp, idata=condition_data(inp, table))
    ante = float(inp.rules[v.option("ante").index])
    me = int(table.me)  # a seat: table_state checked it
    return v, n, inp, st, ante, me, int(st[P.deck + 1] - st[P.deck])


def equity(table: Table, policies=None, rules=None, precision=0.005, max_deals=1_000_000, seed=0,
           threads=None, progress=None, condition=False, exact=True) -> EquityResult:
    """Each seat's equity from the described ``table`` (see the module docstring).
    ``policies``: as for ``analyzer.simulate.simulate`` (default: every seat the
    variant's default policy); ``rules``: rules options. ``condition``: keep only
    the deals whose unknown hole cards agree with the choices in ``table.history``
    under the seats' policies (rejection sampling: each kept deal weighs the same;
    the effective sample size is the number kept). ``exact``: enumerate the unknown
    cards where no choice is left and they are few enough (``analyzer.exact``);
    False: always sample."""
    import pandas as pd

    v, n, inp, st, ante, me, unseen = setup(table, policies, rules, condition)
    try:
        precision = float(precision)
    except (TypeError, ValueError):
        raise WantitError(f"precision {precision!r} must be a number") from None
    if not (0 < precision < 1 and math.isfinite(precision)):
        raise WantitError(f"precision {precision:g} must be between 0 and 1 (a fraction of the pot)")
    max_deals = whole(max_deals, "max_deals")
    if not 1 <= max_deals <= 10**9:
        raise WantitError(f"max_deals {max_deals} must be 1..1,000,000,000")
    seed = check_seed(seed)
    values = [v.policy_values(spec) for spec in _seat_specs(v, n, policies)]
    enumerated = exact_equity(inp, st) if exact and not condition else None
    if enumerated is not None:
        return _exact_result(v, n, st, ante, me, unseen, enumerated, values, precision, max_deals, seed, rules)
    sums = _Sums.empty(n)
    sums.carried_in = float(st[P.carried_in]) / UNITS
    started = time.perf_counter()
    interrupted = False
    chunk = FIRST_CHUNK
    with numba_threads(threads):
        try:
            while sums.tried < max_deals:
                count = min(chunk, max_deals - sums.tried)
                sums.add(equity_sums(inp, st, seed, sums.tried, count, sums.carried_in, ante), n)
                if progress is not None:
                    progress(sums.tried, max_deals)
                if sums.deals < 2:
                    check_agreement(sums.deals, sums.tried)
                    chunk = min(chunk * 4, 500_000)
                    continue
                _, se = sums.mean_se(sums.share, sums.share_sq)
                if sums.deals >= MIN_DEALS and Z95 * se[me] < precision:
                    break
                # The next chunk aims at the deals the precision needs, within limits.
                needed = int(sums.deals * (Z95 * se[me] / precision) ** 2) - sums.deals if se[me] > 0 else chunk
                chunk = int(min(max(needed * 1.1 * sums.tried / sums.deals, 2_000), 500_000))
        except KeyboardInterrupt:
            interrupted = True
            if sums.deals < 2:
                raise
    seconds = time.perf_counter() - started
    share, share_se = sums.mean_se(sums.share, sums.share_sq)
    ev, ev_se = sums.mean_se(sums.net, sums.net_sq)
    seats = pd.DataFrame({
        "seat": np.arange(n), "policy": [val["preset"] for val in values],
        "share": share, "share_se": share_se, "share_lo": share - Z95 * share_se, "share_hi": share + Z95 * share_se,
        "ev": ev, "ev_se": ev_se, "ev_lo": ev - Z95 * ev_se, "ev_hi": ev + Z95 * ev_se,
        "p_high": sums.high / sums.deals, "p_low": sums.low / sums.deals, "p_scoop": sums.scoop / sums.deals,
    })
    half = float(Z95 * share_se[me])
    meta = _meta(v, n, st, me, unseen, values, precision, max_deals, seed, rules, deals=sums.deals,
                 deals_played=sums.tried, conditioned=bool(condition), acceptance=sums.deals / sums.tried,
                 effective_sample_size=sums.deals, exact=False, half_width=half, reached_precision=half < precision,
                 interrupted=interrupted, seconds=round(seconds, 3))
    return EquityResult(meta, seats)
