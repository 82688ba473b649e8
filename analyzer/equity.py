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

from .engine import equity_sums, play_batch
from .exact import exact_equity
from .errors import WantitError
from .runs import check_seed, check_threads, numba_threads, whole
from .table import Table, condition_data, table_state
from .table.parse import _given, whole_text
from .text import count_of, fit_columns, wrap_line
from .variants import get_variant

Z95 = 1.959963984540054
MIN_DEALS = 1_000  # before the first stopping check: a standard error needs deals behind it
FEWEST_DEALS = 2  # an interval needs a spread: --max-deals below it is refused
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


def check_agreement(kept, played, final=False):
    """Refuse a history no deal agrees with, once enough deals have been played, or
    (``final``: the last batch is in) a run that kept too few deals to estimate from."""
    if kept >= FEWEST_DEALS:
        return
    if played >= NO_AGREEMENT_AFTER:
        raise WantitError(f"no deal of {played:,} agrees with the choices seen: under these policies the history "
                          f"is (nearly) impossible")
    if final:
        raise WantitError(f"only {kept} of {played:,} deals agree with the choices seen, too few to estimate from: "
                          f"raise --max-deals (at {NO_AGREEMENT_AFTER:,} with none kept, the history is taken "
                          f"as impossible under these policies)")


def _deals_needed(deals, over):
    """The deals still to play for a half-width ``over`` times the precision after
    ``deals`` (it falls as one over the root of the deals), at most 10**15: a tiny
    precision would need more than a float can count (an infinity ``int`` refuses).
    ``over`` is capped first: its square could overflow numpy's floats (with a warning)."""
    return int(min(deals * min(over, 1e8) ** 2, 1e15)) - deals


def reached(half_width, precision, deals):
    """Whether an estimate's 95% half-width is below ``precision`` with at least
    ``MIN_DEALS`` deals behind its standard error (the stopping rule's own test: a
    handful of deals can show no spread at all)."""
    return bool(deals >= MIN_DEALS and half_width < precision)


def check_max_deals(max_deals, most):
    max_deals = whole(max_deals, "max_deals")
    if not FEWEST_DEALS <= max_deals <= most:
        raise WantitError(f"max_deals {max_deals} must be {FEWEST_DEALS}..{most:,} (an interval needs at least "
                          f"{FEWEST_DEALS} deals)")
    return max_deals


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


class _SeatsResult:
    """``meta`` and ``seats``, a DataFrame made from the columns it was given when
    first read: the JSON output needs no pandas, whose import was a third of a
    query's start-up from the shell."""

    json_columns = ()

    def __init__(self, meta, seats):
        self.meta = meta
        self._seats = seats  # a dict of columns, or a DataFrame

    @property
    def seats(self):
        if isinstance(self._seats, dict):
            import pandas as pd

            self._seats = pd.DataFrame(self._seats)
        return self._seats

    def _rows(self, all_seats):
        """The seats' columns as lists, every seat's or only mine."""
        s = self._seats
        if not isinstance(s, dict):
            s = {c: s[c].tolist() for c in s.columns}
        keep = [i for i, seat in enumerate(s["seat"]) if all_seats or int(seat) == self.meta["me"]]
        return {c: [s[c][i] for i in keep] for c in s}

    def _table(self, all_seats, ev_name, ev_format, probabilities):
        """The seats' table as text: share and ev with their 95% bounds, then the
        probabilities; every seat's row or only mine."""
        rows = self._rows(all_seats)
        return fit_columns({
            "seat": rows["seat"], "policy": rows["policy"],
            "share": [f"{a:.4f} ({lo:.4f}-{hi:.4f})" for a, lo, hi in
                      zip(rows["share"], rows["share_lo"], rows["share_hi"])],
            ev_name: [ev_format.format(a, lo, hi) for a, lo, hi in zip(rows["ev"], rows["ev_lo"], rows["ev_hi"])],
            **{col: [f"{x:.4f}" for x in rows[col]] for col in probabilities}}, ["seat"])

    def to_json(self):
        s = self._seats
        return {"meta": self.meta,
                "seats": [{k: (int(s[k][i]) if k == "seat" else float(s[k][i])) for k in self.json_columns}
                          for i in range(len(s["seat"]))]}


class EquityResult(_SeatsResult):
    """``meta`` (settings, deals, precision reached), ``seats`` (a DataFrame: seat,
    share, share_se, ev, ev_se, p_high, p_low, p_scoop, 95% bounds)."""

    json_columns = ("seat", "share", "share_se", "ev", "ev_se", "p_high", "p_low", "p_scoop")

    def format_table(self, all_seats=False):
        m = self.meta
        head = (f"{m['variant']}, {count_of(m['players'], 'player')}, dealer seat {m['dealer']}: equity of seat "
                f"{m['me']}"
                + ((f" over all {m['deals']:,} ways the unknown cards can lie (exact)" if m["deals"] != 1 else
                    " over the one way the unknown cards can lie (exact)") if m["exact"] else
                   f" over {m['deals']:,} deals, 95% intervals (half-width {m['half_width']:.4f} on the share; "
                   f"asked {m['precision']:g})"))
        if not m["reached_precision"] and not m["exact"] and not m.get("interrupted"):
            head += f"; stopped at --max-deals {m['max_deals']:,} before reaching the precision"
        if m.get("interrupted"):
            head += "; interrupted: partial"
        if m["conditioned"]:
            head += (f"; conditioned on the choices seen: {m['deals']:,} of {m['deals_played']:,} deals agree "
                     f"(acceptance {m['acceptance']:.3f}, effective sample size {m['effective_sample_size']:,})")
        table = self._table(all_seats, "ev (antes)", "{:+.4f} ({:+.4f}..{:+.4f})", ("p_high", "p_low", "p_scoop"))
        lines = wrap_line(head) + [table]
        lines.append(f"(share: expected fraction of the pot; the unknown cards dealt from the "
                     f"{m['unseen']} unseen; policies: {m['field']})")
        if m.get("model"):
            lines.append(f"(note: {m['model']})")
        return "\n".join(part for line in lines for part in (wrap_line(line) if "\n" not in line else [line]))


def _seat_specs(v, n, policies):
    from .simulate import seat_policies

    return seat_policies(v, n, policies)


def _model_note(v, st):
    """What a reader must know of how the unknown cards are dealt, where it is not
    what the policies would have done: Anaconda's roll deals the others' unknown stack
    cards from the unseen ones (keeps from the hands cannot be replayed to agree with
    the cards turned up)."""
    if v.name == "anaconda":
        from kernels.games import anaconda as AN

        if st[B.phase] == AN.PH_ROLL and st[P.n_unknown] > 0:
            return ("in the roll the others' unknown stack cards are dealt at random from the unseen, not kept by "
                    "their policies from their hands")
    return None


def _meta(v, n, st, me, unseen, values, precision, max_deals, seed, rules, **more):
    note = _model_note(v, st)
    if note:
        more = {**more, "model": note}
    return {"variant": v.name, "players": n, "dealer": int(st[B.dealer]), "me": me, **more,
            "precision": precision, "max_deals": max_deals, "seed": seed, "unseen": unseen,
            "rules": {k: str(x) for k, x in (rules or {}).items()},
            "field": ", ".join(sorted({val["preset"] for val in values})),
            "policies": [{k: val[k] for k in sorted(val)} for val in values],
            "units": "share: fraction of the pot; ev: antes"}


def _exact_result(v, n, st, ante, me, unseen, exact, values, precision, max_deals, seed, rules):
    """Every completion of the unknown cards, each equally likely: no error left."""
    ways, share, p_high, p_low, p_scoop = exact
    paid = np.array([float(st[P.paid + s]) for s in range(n)])
    ev = (share * paid.sum() - paid) / ante
    zero = np.zeros(n)
    seats = {
        "seat": np.arange(n), "policy": [val["preset"] for val in values],
        "share": share, "share_se": zero, "share_lo": share, "share_hi": share,
        "ev": ev, "ev_se": zero, "ev_lo": ev, "ev_hi": ev, "p_high": p_high, "p_low": p_low, "p_scoop": p_scoop}
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
    n = v.default_players if table.players is None else whole_text(table.players, "players")
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


def equity(table: Table, policies=None, rules=None, precision=None, max_deals=1_000_000, seed=0,
           threads=None, progress=None, condition=False, exact=True, measure=None) -> EquityResult:
    """Each seat's equity from the described ``table`` (see the module docstring).
    ``policies``: as for ``analyzer.simulate.simulate`` (default: every seat the
    variant's default policy); ``rules``: rules options. ``condition``: keep only
    the deals whose unknown hole cards agree with the choices in ``table.history``
    under the seats' policies (rejection sampling: each kept deal weighs the same;
    the effective sample size is the number kept). ``exact``: enumerate the unknown
    cards where no choice is left and they are few enough (``analyzer.exact``);
    False: always sample. ``precision`` (default 0.005) is a fraction of the pot.

    Selection, scored on a board, is ``selection_equity`` (``measure`` is its
    choice of the share of the win or the final total; ``exact`` does not apply:
    its games are always sampled)."""
    if is_scored(table):
        return selection_equity(table, policies, rules, precision, max_deals, seed, threads, progress, condition,
                                measure)
    if measure is not None:
        raise WantitError("measure: a pot game's equity is its share of the pot (measure is for Selection)")
    if precision is None:
        precision = 0.005
    precision = check_precision(precision, "a fraction of the pot", below=1)
    max_deals, seed = check_query_run(max_deals, 10**9, seed, threads)
    v, n, inp, st, ante, me, unseen = setup(table, policies, rules, condition)
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
                if sums.deals < FEWEST_DEALS:
                    check_agreement(sums.deals, sums.tried)
                    chunk = min(chunk * 4, 500_000)
                    continue
                _, se = sums.mean_se(sums.share, sums.share_sq)
                if sums.deals >= MIN_DEALS and Z95 * se[me] < precision:
                    break
                # The next chunk aims at the deals the precision needs, within limits.
                needed = _deals_needed(sums.deals, Z95 * se[me] / precision) if se[me] > 0 else chunk
                chunk = int(min(max(needed * 1.1 * sums.tried / sums.deals, 2_000), 500_000))
        except KeyboardInterrupt:
            interrupted = True
            if sums.deals < FEWEST_DEALS:
                raise
    check_agreement(sums.deals, sums.tried, final=True)
    seconds = time.perf_counter() - started
    share, share_se = sums.mean_se(sums.share, sums.share_sq)
    ev, ev_se = sums.mean_se(sums.net, sums.net_sq)
    seats = {
        "seat": np.arange(n), "policy": [val["preset"] for val in values],
        "share": share, "share_se": share_se, "share_lo": np.clip(share - Z95 * share_se, 0.0, 1.0),
        "share_hi": np.clip(share + Z95 * share_se, 0.0, 1.0),
        "ev": ev, "ev_se": ev_se, "ev_lo": ev - Z95 * ev_se, "ev_hi": ev + Z95 * ev_se,
        "p_high": sums.high / sums.deals, "p_low": sums.low / sums.deals, "p_scoop": sums.scoop / sums.deals,
    }
    half = float(Z95 * share_se[me])
    meta = _meta(v, n, st, me, unseen, values, precision, max_deals, seed, rules, deals=sums.deals,
                 deals_played=sums.tried, conditioned=bool(condition), acceptance=sums.deals / sums.tried,
                 effective_sample_size=sums.deals, exact=False, half_width=half,
                 reached_precision=reached(half, precision, sums.deals), interrupted=interrupted,
                 seconds=round(seconds, 3))
    return EquityResult(meta, seats)


# ---------------------------------------------------------------- Selection (scored on a board)

MEASURES = ("share", "total")
# Default precisions (95% half-widths) by measure: a fraction of the win, or points.
SELECTION_EQUITY_PRECISION = {"share": 0.005, "total": 1.0}


def is_scored(table: Table) -> bool:
    """Whether ``table`` is of a game scored on a board (Selection), not a pot game
    (and ``WantitError`` for anything but a ``Table``: every query asks this first)."""
    if not isinstance(table, Table):
        raise WantitError(f"a query takes a Table (analyzer.table.Table, or load_table(path) for a state file), "
                          f"not {type(table).__name__} {table!r}")
    return get_variant(table.variant).kind == "scored"


def selection_measure(measure, players):
    """What a Selection query measures: ``"total"`` (my expected final total, the
    default for solitaire, where the win is always mine) or ``"share"`` (my expected
    share of the win, ties shared: the default with opponents)."""
    if measure is None:
        return "total" if players == 1 else "share"
    if measure not in MEASURES:
        raise WantitError(f"measure {measure!r} must be share (of the win) or total (final points)")
    return measure


@dataclass
class SelectionQuery:
    """A Selection table made ready for the engine: the validated set-up, the
    inputs (with each seat's par), the table state and where it stands."""

    setup: object  # analyzer.selection.Setup
    inputs: object
    state: np.ndarray
    where: object  # analyzer.table.selection.Where
    me: int


def selection_query(table: Table, policies=None, rules=None, condition=False) -> SelectionQuery:
    """The table refused or made ready before any long kernel run (the slots' par
    is computed last)."""
    from dataclasses import replace

    from .selection import setup as selection_setup
    from .selection import setup_inputs, with_par
    from .table import check_own_fields
    from .table.selection import selection_table

    v = get_variant(table.variant)
    if condition:
        from .table import CONDITIONS

        raise WantitError(f"--condition: reading the choices seen is built for {', '.join(CONDITIONS)} so far, not "
                          f"{v.name}")
    check_own_fields(v.name, table)
    n = v.default_players if table.players is None else whole_text(table.players, "players")
    s = selection_setup(n, policies, rules, table.board, table.deck, par=False)
    # The table state does not depend on the par: check the table before computing it.
    unpriced = setup_inputs(replace(s, par=np.zeros((n, len(s.board.slots)))))
    st, where = selection_table(unpriced, table)
    s = with_par(s)
    return SelectionQuery(s, setup_inputs(s), st, where, int(table.me))


def check_precision(precision, what, below=None):
    """``precision`` as a float, or ``WantitError`` unless it is a positive finite
    number, under ``below`` where given (``what``: its unit)."""
    try:
        precision = float(precision)
    except (TypeError, ValueError):
        raise WantitError(f"precision {precision!r} must be a number") from None
    if not (0 < precision and math.isfinite(precision)) or (below is not None and precision >= below):
        bounds = "a positive number" if below is None else f"between 0 and {below:g}"
        raise WantitError(f"precision {precision:g} must be {bounds} ({what})")
    return precision


def check_query_run(max_deals, most, seed, threads):
    """A query's ``(max_deals, seed)``, and its thread count, checked before its table
    is set up (which can replay the table's history in the kernels)."""
    max_deals = check_max_deals(max_deals, most)
    seed = check_seed(seed)
    check_threads(threads)
    return max_deals, seed


def selection_values(q: SelectionQuery, rows):
    """Per game and seat: ``(share of the win, ties shared; final total; 1 if at the
    top, alone or tied)`` of result rows ``rows``."""
    from .selection import result_arrays

    total = result_arrays(rows, q.setup.players, len(q.setup.board.slots))[3].astype(np.float64)
    at_top = total == total.max(axis=1, keepdims=True)
    share = at_top / at_top.sum(axis=1, keepdims=True)
    return share, total, at_top


def where_text(w) -> str:
    stage = {"target": "declaring targets", "score": "scoring"}.get(w.phase, f"draw {w.draw} of {w.draws}")
    return f"round {w.round}, {stage}, seat {w.to} to act"


class SelectionEquityResult(_SeatsResult):
    """``meta`` and ``seats`` (a DataFrame: seat, policy, share, share_se, share_lo,
    share_hi, ev, ev_se, ev_lo, ev_hi, p_win, p_win_se, p_tie). ``share`` is the
    expected share of the win (ties shared: 1 in solitaire), ``ev`` the expected final
    total in points, ``p_win`` how often the seat has the top total (alone or tied)
    and ``p_tie`` how often it shares it. The pot games' p_high, p_low and p_scoop mean
    nothing here and are left out."""

    json_columns = ("seat", "share", "share_se", "ev", "ev_se", "p_win", "p_win_se", "p_tie")

    def format_table(self, all_seats=False):
        m = self.meta
        head = (f"{m['variant']}, {m['players']} player{'s' if m['players'] != 1 else ''}, {m['where']}: equity of "
                f"seat {m['me']} over {m['deals']:,} games, 95% intervals (half-width {m['half_width']:.4g} on the "
                f"{'share' if m['measure'] == 'share' else 'final total'}; asked {m['precision']:g})")
        if not m["reached_precision"] and not m.get("interrupted"):
            head += f"; stopped at --max-deals {m['max_deals']:,} before reaching the precision"
        if m.get("interrupted"):
            head += "; interrupted: partial"
        table = self._table(all_seats, "total (points)", "{:.1f} ({:.1f}-{:.1f})", ("p_win", "p_tie"))
        lines = wrap_line(head) + [table]
        lines += wrap_line(f"(share: expected fraction of the win, ties shared; total: expected final total; the "
                           f"unknown cards dealt from the {m['unseen']} unseen, {m['stock']} of them in the stock; "
                           f"board: {m['board']}; policies: {m['field']})")
        return "\n".join(lines)


def selection_meta(q: SelectionQuery, values, measure, precision, max_deals, seed, rules, **more):
    s = q.setup
    return {"variant": "selection", "players": s.players, "dealer": q.where.dealer,
            "me": q.me, "round": q.where.round, "phase": q.where.phase, "draw": q.where.draw,
            "draws": q.where.draws, "to_act": q.where.to, "where": where_text(q.where), "measure": measure,
            "precision": precision, "max_deals": max_deals, "seed": seed, "unseen": q.where.unseen,
            "stock": q.where.stock, "board": s.board.label(), "deck": s.deck.name, **more,
            "rules": {k: str(x) for k, x in (rules or {}).items()},
            "field": ", ".join(sorted({val["preset"] for val in values})),
            "policies": [{k: val[k] for k in sorted(val)} for val in values],
            "units": "share: expected fraction of the win (ties shared); ev: expected final total in points"}


def selection_equity(table: Table, policies=None, rules=None, precision=None, max_deals=1_000_000, seed=0,
                     threads=None, progress=None, condition=False, measure=None) -> SelectionEquityResult:
    """Each seat's equity at a Selection table (``SelectionEquityResult``): the rest
    of the game played out (the unknown cards dealt at random from those nobody at
    the table knows, every seat on its policy) until the 95% half-width of my
    ``measure`` is below ``precision`` (default 0.005 of the win, or 1 point of the
    final total) or ``max_deals`` games have been played."""
    max_deals, seed = check_query_run(max_deals, 10**9, seed, threads)
    q = selection_query(table, policies, rules, condition)
    n, me = q.setup.players, q.me
    measure = selection_measure(measure, n)
    precision = check_precision(SELECTION_EQUITY_PRECISION[measure] if precision is None else precision,
                                "of the win" if measure == "share" else "points")
    if measure == "share" and precision >= 1:
        raise WantitError(f"precision {precision:g} must be below 1 (a fraction of the win)")
    sums = np.zeros((6, n))  # share, share^2, total, total^2, at the top, tied at the top
    games = 0
    started = time.perf_counter()
    interrupted = False
    chunk = FIRST_CHUNK

    def mean_se(k):
        mean = sums[k] / games
        var = np.maximum(sums[k + 1] / games - mean ** 2, 0.0) * games / max(games - 1, 1)
        return mean, np.sqrt(var / games)

    with numba_threads(threads):
        try:
            while games < max_deals:
                count = min(chunk, max_deals - games)
                share, total, at_top = selection_values(q, play_batch(q.inputs, q.state, seed, games, count,
                                                                      rotate_dealer=False))
                tied = at_top & (at_top.sum(axis=1, keepdims=True) > 1)
                sums += np.stack([share.sum(0), (share ** 2).sum(0), total.sum(0), (total ** 2).sum(0),
                                  at_top.sum(0), tied.sum(0)])
                games += count
                if progress is not None:
                    progress(games, max_deals)
                _, se = mean_se(0 if measure == "share" else 2)
                if games >= MIN_DEALS and Z95 * se[me] < precision:
                    break
                needed = _deals_needed(games, Z95 * se[me] / precision)
                chunk = int(min(max(needed * 1.1, 2_000), 500_000))
        except KeyboardInterrupt:
            interrupted = True
            if games < FEWEST_DEALS:
                raise
    share, share_se = mean_se(0)
    ev, ev_se = mean_se(2)
    values = q.setup.values
    p_win = sums[4] / games
    seats = {
        "seat": np.arange(n), "policy": [val["preset"] for val in values],
        "share": share, "share_se": share_se, "share_lo": np.clip(share - Z95 * share_se, 0.0, 1.0),
        "share_hi": np.clip(share + Z95 * share_se, 0.0, 1.0),
        "ev": ev, "ev_se": ev_se, "ev_lo": ev - Z95 * ev_se, "ev_hi": ev + Z95 * ev_se,
        "p_win": p_win, "p_win_se": np.sqrt(p_win * (1 - p_win) / max(games - 1, 1)), "p_tie": sums[5] / games}
    half = float(Z95 * (share_se if measure == "share" else ev_se)[me])
    meta = selection_meta(q, values, measure, precision, max_deals, seed, rules, deals=games, deals_played=games,
                          conditioned=False, exact=False, half_width=half,
                          reached_precision=reached(half, precision, games), interrupted=interrupted,
                          seconds=round(time.perf_counter() - started, 3))
    return SelectionEquityResult(meta, seats)
