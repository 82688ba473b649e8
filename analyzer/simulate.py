"""The simulation driver: runs a variant's batch kernel in chunks and aggregates.

Deal ``i`` always uses the random stream ``(seed, i)``, and every aggregate is kept
as exact integers (nets in 1/1680 of an ante), so the tables are identical whatever
the thread count or chunk size. A run interrupted (Ctrl-C) returns what it has
finished; with ``checkpoint=`` the sums are saved after every chunk and a rerun
with the same settings resumes from them.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from kernels.games.common import R_SPLIT_MODE, UNITS
from kernels.showdown import DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW, SPLIT_DECLARE

from .errors import WantitError
from .engine import Inputs, new_state, play_batch
from .evaluate import Category, _tables, hand_category
from .runs import check_run, resume, run_chunks
from .variants import Variant, get_variant

N_CATEGORIES = len(Category)


def seat_policies(variant: Variant, players: int, policies) -> list:
    """One policy spec per seat from ``None`` (the default), a spec for everyone,
    a list (one per seat), or a dict ``{seat or "all": spec}``."""
    if policies is None or isinstance(policies, str):
        return [policies] * players
    if isinstance(policies, dict) and not ({"preset"} & set(policies)) and all(
        isinstance(k, int) or str(k).isdigit() or k == "all" for k in policies
    ):
        specs = [policies.get("all")] * players
        for key, spec in policies.items():
            if key == "all":
                continue
            seat = int(key)
            if not 0 <= seat < players:
                raise WantitError(f"policy for seat {seat}: seats are 0..{players - 1}")
            specs[seat] = spec
        return specs
    if isinstance(policies, dict):
        return [policies] * players
    specs = list(policies)
    if len(specs) != players:
        raise WantitError(f"{len(specs)} policies given for {players} players")
    return specs


@dataclass
class Totals:
    """Exact running sums over deals, per seat."""

    players: int
    deals: int = 0
    net: np.ndarray = None  # sum of nets, 1/UNITS antes
    net_sq: np.ndarray = None
    wins_high: np.ndarray = None
    wins_low: np.ndarray = None
    scoops: np.ndarray = None
    declared: np.ndarray = None  # [seat, HIGH/LOW/BOTH]
    categories: np.ndarray = None  # [seat, Category]
    carry: int = 0  # pot carried over, 1/UNITS antes

    def __post_init__(self):
        n = self.players
        for name, shape in (("net", n), ("net_sq", n), ("wins_high", n), ("wins_low", n),
                            ("scoops", n), ("declared", (n, 3)), ("categories", (n, N_CATEGORIES))):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(shape, dtype=np.int64))

    @property
    def done(self):
        return self.deals

    def add(self, payout, paid, high_share, low_share, declared, high, carry):
        units = np.rint(payout * UNITS).astype(np.int64)
        paid_units = np.rint(paid * UNITS).astype(np.int64)
        net = units - paid_units
        pot = paid_units.sum(axis=1, keepdims=True)
        self.deals += payout.shape[0]
        self.net += net.sum(axis=0)
        self.net_sq += (net * net).sum(axis=0)
        self.wins_high += (high_share > 0).sum(axis=0)
        self.wins_low += (low_share > 0).sum(axis=0)
        self.scoops += (units == pot).sum(axis=0)
        for d in (DECLARE_HIGH, DECLARE_LOW, DECLARE_BOTH):
            self.declared[:, d] += (declared == d).sum(axis=0)
        cats = hand_category(high)
        for seat in range(self.players):
            self.categories[seat] += np.bincount(cats[:, seat], minlength=N_CATEGORIES)
        self.carry += int(np.rint(carry * UNITS).sum())

    def to_dict(self):
        return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in self.__dict__.items()}

    @classmethod
    def from_dict(cls, d):
        return cls(**{k: (np.array(v, dtype=np.int64) if isinstance(v, list) else v) for k, v in d.items()})


@dataclass
class SimulationResult:
    """Per-seat tables and the settings that made them."""

    seats: pd.DataFrame
    categories: pd.DataFrame
    meta: dict = field(default_factory=dict)

    def to_json_records(self):
        """One object per seat: seat, ev, ev_se, p_high, p_low, p_scoop, high_categories, ..."""
        out = []
        for _, row in self.seats.iterrows():
            cats = self.categories[self.categories.seat == row.seat]
            rec = {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            rec["high_categories"] = {c: float(p) for c, p in zip(cats.category, cats.probability)}
            out.append(rec)
        return out


def _frames(variant, totals, policy_values, split_mode):
    n = totals.players
    d = max(totals.deals, 1)
    mean = totals.net / d / UNITS
    var = np.maximum(totals.net_sq / d / UNITS**2 - mean**2, 0.0)
    se = np.sqrt(var / max(totals.deals - 1, 1))
    rows = []
    for s in range(n):
        row = {
            "seat": s,
            "policy": policy_values[s]["preset"],
            "ev": float(mean[s]),
            "ev_se": float(se[s]),
            "p_high": float(totals.wins_high[s] / d),
            "p_low": float(totals.wins_low[s] / d),
            "p_scoop": float(totals.scoops[s] / d),
        }
        if split_mode == SPLIT_DECLARE:
            row["declare_high"] = float(totals.declared[s, DECLARE_HIGH] / d)
            row["declare_low"] = float(totals.declared[s, DECLARE_LOW] / d)
            row["declare_both"] = float(totals.declared[s, DECLARE_BOTH] / d)
        rows.append(row)
    seats = pd.DataFrame(rows)
    cat_rows = [
        {"seat": s, "category": c.label, "probability": float(totals.categories[s, c] / d)}
        for s in range(n) for c in Category
    ]
    return seats, pd.DataFrame(cat_rows)


def simulate(variant, players=None, policies=None, rules=None, deals=100_000, seed=0,
             chunk=100_000, threads=None, rotate_dealer=True, checkpoint=None, progress=None):
    """Simulate ``deals`` deals of ``variant`` and return a ``SimulationResult``.

    ``policies``: a preset name or spec for every seat, a list per seat, or a dict
    ``{seat: spec, "all": spec}``; a spec is ``"preset:param=value,..."`` or a dict.
    ``rules``: ``{option: value}``. ``rotate_dealer``: the dealer is seat
    ``deal % players`` (each seat plays every position), else always the last seat.
    ``progress(done, total)`` is called after each chunk.
    """
    v = get_variant(variant)
    n = v.default_players if players is None else int(players)
    v.check_table(n, rules)
    deals = int(deals)
    check_run(deals, seed, chunk, threads)
    rules_vec = v.rules_vector(rules)
    values = [v.policy_values(spec) for spec in seat_policies(v, n, policies)]
    policy_matrix = np.stack([v.policy_vector(val) for val in values])
    settings = {"variant": v.name, "players": n, "seed": int(seed), "rules": {k: str(x) for k, x in (rules or {}).items()},
                "policies": [{k: val[k] for k in sorted(val)} for val in values], "rotate_dealer": bool(rotate_dealer)}
    totals = resume(checkpoint, settings, Totals, Totals(n))
    t = _tables()

    if v.game is not None:
        inp = Inputs(v, n, rules_vec, policy_matrix)
        start = new_state(inp, dealer=n - 1)
        res = v.result

        def play_chunk(first, count):
            out = play_batch(inp, start, seed, first, count, rotate_dealer)
            cols = {name: res.view(out, name)[:, :n] for name in ("payout", "paid", "high_share", "low_share",
                                                                    "declared", "high")}
            totals.add(cols["payout"], cols["paid"], cols["high_share"], cols["low_share"],
                       cols["declared"].astype(np.int64), cols["high"].astype(np.int64), res.view(out, "carry")[:, 0])
    else:
      def play_chunk(first, count):
        out = [np.zeros((count, n)) for _ in range(3)] + [np.zeros((count, n), np.int64) for _ in range(3)]
        payout, high_share, low_share, declared, high, low = out
        paid = np.zeros((count, n))
        carry = np.zeros(count)
        v.play_batch(t, rules_vec, policy_matrix, n, int(seed), first, count, bool(rotate_dealer),
                     payout, high_share, low_share, declared, high, low, paid, carry)
        totals.add(payout, paid, high_share, low_share, declared, high, carry)

    interrupted, used_threads, seconds = run_chunks(totals, deals, chunk, threads, play_chunk,
                                                    checkpoint, settings, progress)
    seats, categories = _frames(v, totals, values, int(rules_vec[R_SPLIT_MODE]))
    meta = {**settings, "deals": totals.deals, "requested_deals": deals, "interrupted": interrupted,
            "carried_over": totals.carry / UNITS, "threads": used_threads, "seconds": seconds}
    return SimulationResult(seats, categories, meta)
