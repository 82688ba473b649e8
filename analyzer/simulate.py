"""The simulation driver: runs a variant's batch kernel in chunks and aggregates.

Deal ``i`` always uses the random stream ``(seed, i)``, and every aggregate is kept
as exact integers (nets in 1/1680 of an ante), so the tables are identical whatever
the thread count or chunk size. A run interrupted (Ctrl-C) returns what it has
finished; with ``checkpoint=`` the sums are saved after every chunk and a rerun
with the same settings resumes from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from kernels.engine import (
    BLOCK,
    LOW_TOPS,
    NET_SPLIT,
    TOT_AA,
    TOT_AB,
    TOT_BB,
    TOT_NET,
    TOT_SCOOPS,
    TOT_WINS_HIGH,
    TOT_WINS_LOW,
    totals_layout,
)
from kernels.games.common import R_ANTE, R_SPLIT_MODE, UNITS
from kernels.ranking import N_CATEGORIES
from kernels.showdown import DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW, SPLIT_CARDS_SPEAK, SPLIT_DECLARE

from .errors import WantitError
from .engine import Inputs, new_state, simulation_totals
from .evaluate import Category
from .runs import check_run, check_target_se, flag, resume, run_chunks, whole
from .text import count_of, fit_frame, wrap_items, wrap_line
from .variants import Variant, get_variant

if TYPE_CHECKING:  # pandas is imported where a table is made, not with this module
    import pandas as pd

LOW_TOP_NAMES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}

# What each column of ``SimulationResult.seats`` means (``wantit simulate --help``, README).
SEAT_COLUMNS = {
    "seat": "seat number, 0..players-1 (the dealer rotates: deal i is dealt by seat i % players)",
    "policy": "the seat's policy preset; its parameter values follow in one column each",
    "ev": "mean net per deal in antes (payout minus ante and fees paid), the seat's expected value",
    "ev_se": "standard error of ev (antes); a 95% interval is ev +/- 1.96 ev_se",
    "p_high": "fraction of deals the seat won (a share of) the high half",
    "p_low": "fraction of deals the seat won (a share of) the low half",
    "p_scoop": "fraction of deals the seat took the whole pot",
    "declare_high / declare_low / declare_both": "fraction of deals the seat declared so (declare split only)",
}


def seat_policies(variant: Variant, players: int, policies) -> list:
    """One policy spec per seat from ``None`` (the default), a spec for everyone,
    a list (one per seat), or a dict ``{seat or "all": spec}``. A ``tuned`` spec is
    made explicit for ``players`` (``analyzer.presets``)."""
    from .presets import resolve

    return [resolve(variant, players, spec) for spec in _seat_specs(variant, players, policies)]


def _seat_specs(variant, players, policies):
    if policies is None or isinstance(policies, str):
        return [policies] * players
    if isinstance(policies, dict) and any(isinstance(k, (bool, np.bool_)) for k in policies):
        raise WantitError(f"policies: a seat is a number 0..{players - 1} or 'all', not {policies!r}")
    if isinstance(policies, dict) and not ({"preset"} & set(policies)) and all(
        isinstance(k, int) or str(k).isdecimal() or k == "all" for k in policies
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


SUM_ROWS = 1 << 20  # rows summed at a time in int64 (see exact_sums)
SUM_BLOCKS = SUM_ROWS // BLOCK  # simulation_totals' blocks, likewise


def exact_sums(x):
    """``(sum of x, sum of x**2)`` per column of an int64 array, as exact Python ints.

    A net at the largest legal stakes reaches about 2**36 units, so its square
    overflows int64; ``x = a * 2**20 + b`` with ``0 <= b < 2**20`` gives
    ``x**2 = a**2 * 2**40 + 2ab * 2**20 + b**2``, each part summed in int64 over at
    most ``SUM_ROWS`` rows (every part stays below 2**62) and added up in Python."""
    cols = x.shape[1]
    total, squares = [0] * cols, [0] * cols
    for start in range(0, x.shape[0], SUM_ROWS):
        part = x[start:start + SUM_ROWS]
        if part.size and max(-int(part.min()), int(part.max())) < 1 << 20:
            # Small values (every net of an ordinary deal): each square is below 2**40 and
            # a sum of at most 2**20 of them below 2**60, so int64 holds it exactly.
            s1, s2 = part.sum(axis=0), (part * part).sum(axis=0)
            for c in range(cols):
                total[c] += int(s1[c])
                squares[c] += int(s2[c])
            continue
        a = part >> NET_SPLIT
        b = part - (a << NET_SPLIT)
        s1, aa, ab, bb = part.sum(axis=0), (a * a).sum(axis=0), (a * b).sum(axis=0), (b * b).sum(axis=0)
        for c in range(cols):
            total[c] += int(s1[c])
            squares[c] += split_square(int(aa[c]), int(ab[c]), int(bb[c]))
    return total, squares


def split_square(aa, ab, bb):
    """The sum of x**2 from the sums of a*a, a*b and b*b, for x = a * 2**NET_SPLIT + b
    (Python ints: exact)."""
    return (aa << 2 * NET_SPLIT) + (ab << NET_SPLIT + 1) + bb


def _counts(col, at, size):
    return np.array(col[at:at + size], dtype=np.int64)


@dataclass
class Totals:
    """Exact running sums over deals, per seat. ``net`` and ``net_sq`` are lists of
    Python ints (no overflow at any legal stakes); the counts are int64 arrays.
    ``add`` changes everything at once, so an interrupt never leaves a half-added chunk."""

    SIGNED = ("net",)  # totals that may be negative
    UNIT = "deals"

    players: int
    deals: int = 0
    net: list = None  # sum of nets, 1/UNITS antes
    net_sq: list = None
    wins_high: np.ndarray = None
    wins_low: np.ndarray = None
    scoops: np.ndarray = None
    declared: np.ndarray = None  # [seat, HIGH/LOW/BOTH]
    categories: np.ndarray = None  # [seat, Category]
    carry: int = 0  # pot carried over, 1/UNITS chips
    winning_high: np.ndarray = None  # [Category]: deals the high half went to a hand of it (ties: the best)
    winning_low: np.ndarray = None  # [top card 1..13]: deals the low half went to a low topped by it
    no_low: int = 0  # deals where no seat held a qualifying low

    def __post_init__(self):
        n = self.players
        for name in ("net", "net_sq"):
            value = getattr(self, name)
            setattr(self, name, [0] * n if value is None else [int(v) for v in value])
        for name, shape in (("wins_high", n), ("wins_low", n),
                            ("scoops", n), ("declared", (n, 3)), ("categories", (n, N_CATEGORIES)),
                            ("winning_high", N_CATEGORIES), ("winning_low", LOW_TOPS)):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(shape, dtype=np.int64))

    @property
    def done(self):
        return self.deals

    def add_blocks(self, blocks, deals, has_low):
        """Add the ``engine.simulation_totals`` of a chunk of ``deals`` deals (int64, a
        row per block of deals, summed exactly in Python ints)."""
        n = self.players
        col = [0] * blocks.shape[1]
        for start in range(0, blocks.shape[0], SUM_BLOCKS):  # at most 2**20 deals summed in int64
            for c, v in enumerate(blocks[start:start + SUM_BLOCKS].sum(axis=0).tolist()):
                col[c] += v
        declared_at, categories_at, carry_at, winning_high_at, winning_low_at, no_low_at, bad_at, _ = \
            totals_layout(n)
        if col[bad_at]:
            raise WantitError("not every value is a high-hand strength")

        def seats(group):
            return col[group * n:(group + 1) * n]

        squares = [split_square(aa, ab, bb) for aa, ab, bb in zip(seats(TOT_AA), seats(TOT_AB), seats(TOT_BB))]
        new = {
            "deals": self.deals + deals,
            "net": [a + b for a, b in zip(self.net, seats(TOT_NET))],
            "net_sq": [a + b for a, b in zip(self.net_sq, squares)],
            "wins_high": self.wins_high + seats(TOT_WINS_HIGH),
            "wins_low": self.wins_low + seats(TOT_WINS_LOW),
            "scoops": self.scoops + seats(TOT_SCOOPS),
            "declared": self.declared + _counts(col, declared_at, 3 * n).reshape(n, 3),  # HIGH, LOW, BOTH
            "categories": self.categories + _counts(col, categories_at, N_CATEGORIES * n).reshape(n, N_CATEGORIES),
            "carry": self.carry + col[carry_at],
            "winning_high": self.winning_high + _counts(col, winning_high_at, N_CATEGORIES),
        }
        if has_low:
            new["winning_low"] = self.winning_low + _counts(col, winning_low_at, LOW_TOPS)
            new["no_low"] = self.no_low + col[no_low_at]
        self.__dict__.update(new)  # one call: an interrupt lands before or after it, never inside

    def to_dict(self):
        return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in self.__dict__.items()}

    def inconsistency(self):
        """What makes these totals impossible (a damaged checkpoint), or None."""
        d = self.deals
        if any(int(c) != d for c in self.categories.sum(axis=1)):
            return f"the final hands of a seat do not add up to the {d} deals"
        for name in ("wins_high", "wins_low", "scoops"):
            if (getattr(self, name) > d).any():
                return f"{name} exceeds the {d} deals"
        if (self.declared.sum(axis=1) > d).any() or self.no_low > d:
            return f"declarations or no-low counts exceed the {d} deals"
        if self.winning_high.sum() > d or self.winning_low.sum() > d:
            return f"winning hands exceed the {d} deals"
        if any(q * max(d, 1) < s * s for s, q in zip(self.net, self.net_sq)) or (d == 0 and any(self.net_sq)):
            return "the sums of nets and of their squares contradict each other"
        # What the seats lose together is the pot carried over, exactly (in 1/UNITS
        # chips). A void deal would break this, but only a short stacked deck runs
        # out, and a simulation deals at random.
        if sum(self.net) + self.carry != 0:
            return "the seats' nets and the pot carried over do not sum to zero"
        return None

    @classmethod
    def from_dict(cls, d):
        exact = ("net", "net_sq")  # Python ints, possibly beyond int64
        return cls(**{k: (np.array(v, dtype=np.int64) if isinstance(v, list) and k not in exact else v)
                      for k, v in d.items()})


@dataclass
class SimulationResult:
    """Per-seat tables and the settings that made them."""

    seats: pd.DataFrame
    categories: pd.DataFrame
    meta: dict = field(default_factory=dict)
    winning: pd.DataFrame = None  # half (high / low), hand, probability, probability_se

    def to_json_records(self):
        """One object per seat: seat, ev, ev_se, p_high, p_low, p_scoop, high_categories, ..."""
        out = []
        for _, row in self.seats.iterrows():
            cats = self.categories[self.categories.seat == row.seat]
            rec = {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            rec["high_categories"] = {c: float(p) for c, p in zip(cats.category, cats.probability)}
            out.append(rec)
        return out

    def to_json(self):
        """What ``wantit simulate --format json`` prints."""
        return {"meta": self.meta, "seats": self.to_json_records(), "winning_hands": self.winning_json()}

    def to_csv(self):
        return self.seats.to_csv(index=False)

    def format_table(self):
        """The text report of ``wantit simulate``: one row per seat (the policy as
        ``preset:changed=value``), the final high hands and the winning hands."""
        meta = self.meta
        stopped = (f" (every ev_se below {meta['target_se']:g} antes)" if meta["reached_target_se"]
                   and meta["deals"] < meta["requested_deals"] else "")
        if meta.get("target_se") is not None and not meta["reached_target_se"] and not meta["interrupted"]:
            stopped = f" (--target-se {meta['target_se']:g} not reached: some ev_se is above it)"
        carried = f", pot carried over {meta['carried_over']:g} chips" if meta["carried_over"] else ""
        if meta["interrupted"]:
            stopped += f" (interrupted: partial, {meta['requested_deals']:,} asked)"
        four = {"float_format": lambda x: f"{x:.4f}"}
        lines = wrap_line(f"{meta['variant']}, {count_of(meta['players'], 'player')}, {meta['deals']:,} deals"
                          f"{stopped}, "
                          f"seed {meta['seed']}; nets in antes{carried}")
        if meta.get("field"):
            lines += wrap_line(meta["field"])
        lines.append(fit_frame(compact_policies(meta["variant"], self.seats), ["seat"], **four))
        pivot = self.categories.pivot(index="seat", columns="category", values="probability")
        top = [c.label for c in Category if c.label in pivot.columns and pivot[c.label].max() >= 0.0005]
        lines += ["", "final high hands (probability):", fit_frame(pivot[top].reset_index(), ["seat"], **four)]
        win = self.winning[self.winning.probability > 0]
        for half, title in (("high", "winning high hand"), ("low", "winning low (top card)")):
            part = win[win.half == half]
            if len(part):
                lines += ["", f"{title} (probability per deal):",
                          *wrap_items(f"{h} {p:.4f}" for h, p in zip(part.hand, part.probability))]
        return "\n".join(lines)

    def winning_json(self):
        """``{"high": {category: probability}, "low": {top card: probability}}``: the hand
        that won each half, over all deals, each half's probabilities summing to 1 (with
        ``"high half not won"``; ``"no qualifying low"`` and ``"low half not won, a low
        held"``, a qualifying low held but no low declarer winning)."""
        out = {}
        for half in ("high", "low"):
            part = self.winning[self.winning.half == half]
            if len(part):
                out[half] = {h: float(p) for h, p in zip(part.hand, part.probability)}
        return out


def compact_policies(variant, seats):
    """The seats table for reading: the policy as ``preset:param=value,...`` (only the
    parameters that differ from the preset) instead of one column per parameter."""
    from .presets import resolve

    v = get_variant(variant)
    names = [p.name for p in v.params]
    labels = []
    for _, row in seats.iterrows():
        preset = v.policy_values(resolve(v, len(seats), row.policy))  # a tuned preset at this table's count
        changed = [f"{k}={row[k]:g}" for k in names if row[k] != preset[k]]
        labels.append(row.policy + (":" + ",".join(changed) if changed else ""))
    table = seats.drop(columns=names)
    table["policy"] = labels
    return table


def ev_and_se(totals, ante=1.0):
    """Each seat's mean net per deal and its standard error, in antes (the variance
    from the exact integer sums, so no precision is lost to cancellation)."""
    d = max(totals.deals, 1)
    mean = np.array([s / d / UNITS for s in totals.net])
    var = np.array([max(q * d - s * s, 0) / d / d / UNITS**2 for s, q in zip(totals.net, totals.net_sq)])
    se = np.sqrt(var / max(totals.deals - 1, 1))
    return mean / ante, se / ante


HIGH_NOT_WON = "high half not won"
NO_LOW = "no qualifying low"
LOW_NOT_WON = "low half not won, a low held"


def _winning(totals, has_low):
    import pandas as pd

    d = max(totals.deals, 1)
    rows = []

    def add(half, hand, count):
        p = count / d
        rows.append({"half": half, "hand": hand, "probability": p, "probability_se": float(np.sqrt(p * (1 - p) / d))})

    # Each half's rows share out every deal: the hand that won it, or why it was not won
    # (no seat held a qualifying low; or one did, and no low declarer won the half).
    for c in Category:
        add("high", c.label, totals.winning_high[c])
    add("high", HIGH_NOT_WON, totals.deals - int(totals.winning_high.sum()))
    if has_low:
        for top in range(5, LOW_TOPS):
            char = LOW_TOP_NAMES.get(top, str(top))
            add("low", f"{char}-low", totals.winning_low[top])
        add("low", NO_LOW, totals.no_low)
        add("low", LOW_NOT_WON, totals.deals - int(totals.winning_low.sum()) - totals.no_low)
    return pd.DataFrame(rows, columns=["half", "hand", "probability", "probability_se"])


def _frames(variant, totals, policy_values, split_mode, ante=1.0):
    import pandas as pd

    n = totals.players
    d = max(totals.deals, 1)
    mean, se = ev_and_se(totals, ante)
    rows = []
    for s in range(n):
        row = {
            "seat": s,
            "policy": policy_values[s]["preset"],
            **{p.name: float(policy_values[s][p.name]) for p in variant.params},
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


def run_settings(variant, players, seed, rules, values, rotate_dealer=True) -> dict:
    """What a run's results depend on, as saved in (and compared with) its checkpoint:
    ``values`` are the seats' ``policy_values``."""
    return {"variant": variant.name, "players": players, "seed": int(seed),
            "rules": {k: str(x) for k, x in (rules or {}).items()},
            "policies": [{k: val[k] for k in sorted(val)} for val in values], "rotate_dealer": bool(rotate_dealer)}


def simulate(variant, players=None, policies=None, rules=None, deals=100_000, seed=0,
             chunk=100_000, threads=None, rotate_dealer=True, checkpoint=None, progress=None, target_se=None):
    """Simulate ``deals`` deals of ``variant`` and return a ``SimulationResult``.

    ``policies``: a preset name or spec for every seat, a list per seat, or a dict
    ``{seat: spec, "all": spec}``; a spec is ``"preset:param=value,..."`` or a dict.
    ``rules``: ``{option: value}``. ``rotate_dealer``: the dealer is seat
    ``deal % players`` (each seat plays every position), else always the last seat.
    ``target_se``: stop early, after the first chunk where every seat's ``ev_se``
    (antes) is below it (``deals`` is then the most played).
    ``progress(done, total)`` is called after each chunk.

    Selection, the board-scoring game, is played by its own driver
    (``analyzer.selection.simulate_selection``: ``deals`` counts games, ``target_se``
    is a ``p_win_se``, and the board and deck are its defaults).
    """
    v = get_variant(variant)
    if v.kind == "scored":
        from .selection import simulate_selection

        return simulate_selection(players=players, policies=policies, rules=rules, games=deals, seed=seed,
                                  threads=threads, chunk=chunk, rotate_dealer=rotate_dealer, checkpoint=checkpoint,
                                  progress=progress, target_se=target_se)
    n = v.default_players if players is None else whole(players, "players")
    v.check_table(n, rules)
    check_run(deals, seed, chunk, threads, least=2)
    deals, seed, rotate_dealer = int(deals), int(seed), flag(rotate_dealer, "rotate_dealer")
    target_se = check_target_se(target_se, "antes")
    rules_vec = v.rules_vector(rules)
    values = [v.policy_values(spec) for spec in seat_policies(v, n, policies)]
    policy_matrix = np.stack([v.policy_vector(val) for val in values])
    split_mode = int(rules_vec[R_SPLIT_MODE])
    ante = float(rules_vec[R_ANTE])
    settings = run_settings(v, n, seed, rules, values, rotate_dealer)
    totals = resume(checkpoint, settings, Totals, Totals(n), target=deals)
    inp = Inputs(v, n, rules_vec, policy_matrix)
    start = new_state(inp, dealer=n - 1)
    has_low = split_mode in (SPLIT_DECLARE, SPLIT_CARDS_SPEAK)

    def play_chunk(first, count):
        totals.add_blocks(simulation_totals(inp, start, seed, first, count, rotate_dealer, has_low), count, has_low)

    def precise_enough(t):
        return target_se is not None and t.deals > 1 and ev_and_se(t, ante)[1].max() < float(target_se)

    interrupted, used_threads, seconds = run_chunks(totals, deals, chunk, threads, play_chunk,
                                                    checkpoint, settings, progress, until=precise_enough)
    seats, categories = _frames(v, totals, values, split_mode, ante)
    from .presets import describe_field

    meta = {**settings, "field": describe_field(v, n, values), "deals": totals.deals, "requested_deals": deals,
            "interrupted": interrupted,
            "target_se": target_se, "reached_target_se": bool(precise_enough(totals)),
            "units": "antes (ev, ev_se); chips (carried_over)", "ante": ante,
            "carried_over": totals.carry / UNITS, "threads": used_threads, "seconds": seconds}
    return SimulationResult(seats, categories, meta, _winning(totals, has_low))
