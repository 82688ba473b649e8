"""Strategy sweeps: one seat's policy parameters (or every seat's alike) over a grid,
each point played against the same field on the same deals.

Deal ``i`` of every point uses the random stream ``(seed, i)`` (common random
numbers), so the difference between two points is measured deal by deal and its
error is much smaller than either point's own. Every sum is an exact integer (nets
in 1/1680 of an ante, Selection's wins in 1/60), so a table does not depend on the
order its chunks were played in: in-process, on Dask, or resumed after an
interruption, it is the same table.

The unit of work is a chunk of deals played at every point: ``chunk_sums`` plays
it and returns its sums, which any process can compute from the JSON settings
alone (that is what a Dask worker receives).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import WantitError
from .runs import _same_shape, check_run, check_seed, numba_threads, whole
from .variants import get_variant, spec_text

POT_METRICS = ("ev", "p_high", "p_low", "p_scoop")
SCORED_METRICS = ("p_win", "total")
PRIMARY = {"pot": "ev", "scored": "p_win"}
# What a sweep or a best response ranks by, and its unit: in solitaire every win is the
# one player's, so Selection at one player ranks by the final total instead.
METRIC_UNITS = {"ev": "antes a deal", "p_win": "share of the wins", "total": "points"}
MAX_POINTS = 10_000
Z95 = 1.959963984540054


# ---------------------------------------------------------------- the grid


def parse_values(text, name):
    """``lo:hi:step`` (lo, lo + step, ... up to hi: hi included when the steps reach
    it), ``a,b,c`` or one value, as floats."""
    text = str(text).strip()
    try:
        parts = [float(x) for x in text.split(":" if ":" in text else ",")]
    except ValueError:
        parts = []
    if not parts or (":" in text and len(parts) != 3) or not all(map(math.isfinite, parts)):
        raise WantitError(f"--param {name}={text!r}: give LOW:HIGH:STEP, a list a,b,c, or one number")
    if ":" in text:
        lo, hi, step = parts
        if not (step > 0 and hi >= lo):
            raise WantitError(f"--param {name}={text}: a range is LOW:HIGH:STEP with HIGH >= LOW and STEP > 0")
        count = int(math.floor((hi - lo) / step + 1e-9)) + 1
        if count > MAX_POINTS:
            raise WantitError(f"--param {name}={text} has {count:,} values; at most {MAX_POINTS:,}")
        return [round(lo + k * step, 12) for k in range(count)]
    if len(set(parts)) != len(parts):
        raise WantitError(f"--param {name}={text}: a value is given twice")
    return parts


def parse_grid(items, variant):
    """``["take_threshold=0:1:0.25", "deny_weight=0,0.5"]`` (or a dict name -> values)
    -> ``[(name, [values])]``, each name a policy parameter of ``variant`` and each
    value in its range."""
    v = get_variant(variant)
    if isinstance(items, str) or not isinstance(items, (dict, list, tuple)):
        raise WantitError(f"a grid is a dict of parameter -> values or a list of 'NAME=VALUES' items, not "
                          f"{type(items).__name__} {items!r}")
    pairs = list(items.items()) if isinstance(items, dict) else []
    if not isinstance(items, dict):
        for item in items:
            name, eq, text = str(item).partition("=")
            if not eq or not name.strip():
                raise WantitError(f"--param {item!r} should look like NAME=LOW:HIGH:STEP or NAME=a,b,c")
            pairs.append((name.strip(), text))
    if not pairs:
        names = ", ".join(p.name for p in v.params)
        raise WantitError(f"a sweep needs at least one --param NAME=VALUES; {v.name}'s parameters: {names}")
    grid, seen = [], set()
    for name, values in pairs:
        p = v.param(name)
        if name in seen:
            raise WantitError(f"--param {name} is given twice")
        seen.add(name)
        if isinstance(values, str):
            values = parse_values(values, name)
        else:
            try:
                values = [float(x) for x in values]
            except (TypeError, ValueError):
                raise WantitError(f"--param {name}: values are a list of numbers or text, not {values!r}") from None
            if not values:
                raise WantitError(f"--param {name}: no values given")
            if len(set(values)) != len(values):
                raise WantitError(f"--param {name}: a value is given twice")
        for x in values:
            if not p.low <= x <= p.high:
                raise WantitError(f"--param {name}: {x:g} is out of range {p.low:g}..{p.high:g}")
            if p.integer and not float(x).is_integer():
                raise WantitError(f"--param {name}: {x:g} must be a whole number")
        grid.append((name, values))
    if math.prod(len(values) for _, values in grid) > MAX_POINTS:
        raise WantitError(f"the grid has more than {MAX_POINTS:,} points")
    return grid


def grid_points(grid):
    """Every combination of the grid's values, the first parameter varying slowest."""
    names = [name for name, _ in grid]
    return [dict(zip(names, combo)) for combo in itertools.product(*(values for _, values in grid))]


def settings_points(settings):
    """The points a sweep's settings play: an explicit list (a best response's
    candidates), else every combination of the grid."""
    if settings.get("points") is not None:
        return [dict(p) for p in settings["points"]]
    return grid_points(settings["grid"])


# ---------------------------------------------------------------- settings


def field_specs(v, players, field):
    """One policy spec per seat (as ``simulate``'s ``policies``), as plain values
    dicts (``{"preset": ..., param: value}``) that JSON keeps exactly."""
    from .simulate import seat_policies

    return [{k: (x if k == "preset" else float(x)) for k, x in sorted(v.policy_values(spec).items())}
            for spec in seat_policies(v, players, field)]


def point_specs(settings, point):
    """The seats' policy values at ``point``: the field, with the swept seat's (or
    every seat's) parameters set to the point's."""
    specs = [dict(s) for s in settings["field"]]
    seats = range(settings["players"]) if settings["seat"] == "all" else [settings["seat"]]
    for s in seats:
        specs[s].update(point)
    return specs


def sweep_settings(variant, players=None, grid=(), seat=0, field=None, rules=None, deals=20_000, seed=0,
                   chunk=None, reference=None, game_settings=None):
    """The validated settings of a sweep, as JSON-able data: what its table depends on
    (and all ``run.json`` needs to reproduce it)."""
    v = get_variant(variant)
    n = v.default_players if players is None else whole(players, "players")
    v.check_table(n, rules)
    if seat != "all":
        seat = whole(seat, "seat")
        if not 0 <= seat < n:
            raise WantitError(f"seat {seat} is not at a {n}-player table (seats 0..{n - 1})")
    deals = whole(deals, v.unit)
    chunk = min(deals, 20_000 if v.kind == "pot" else 1_000) if chunk is None else whole(chunk, "chunk")
    check_run(deals, seed, chunk, None, what=v.unit, least=2)
    grid = parse_grid(grid, v)
    points = grid_points(grid)
    specs = field_specs(v, n, field)
    v.rules_vector(rules)  # bad rules values are refused here
    rules_text = {k: str(x) for k, x in (rules or {}).items()}
    if v.kind == "scored":  # the board and deck files are read (and refused) before any kernel runs
        from .selection import setup

        setup(n, {i: spec for i, spec in enumerate(specs)}, rules, par=False, **(game_settings or {}))
    settings = {"kind": "sweep", "variant": v.name, "players": n, "seat": seat, "field": specs,
                "grid": [[name, values] for name, values in grid], "rules": rules_text,
                "game_settings": {k: str(x) for k, x in (game_settings or {}).items()},
                "seed": check_seed(seed), "deals": deals, "chunk": chunk}
    settings["reference"] = _reference_index(settings, points, reference)
    return settings


def _reference_index(settings, points, reference):
    """The point the others are compared with: ``reference`` (an index, or a dict /
    ``"name=value,..."`` naming a grid point), else the point where the swept seat
    plays the field's own values, else point 0."""
    names = [name for name, _ in settings["grid"]]
    if reference is None:
        own = settings["field"][0 if settings["seat"] == "all" else settings["seat"]]
        target = {name: own[name] for name in names}
        return next((i for i, p in enumerate(points) if p == target), 0)
    if isinstance(reference, str):
        try:
            reference = {k.strip(): float(x) for k, _, x in (item.partition("=") for item in reference.split(","))}
        except ValueError:
            raise WantitError(f"--reference {reference!r} should look like name=value,...") from None
    if isinstance(reference, dict):
        if set(reference) != set(names):
            raise WantitError(f"--reference must give every swept parameter: {', '.join(names)}")
        hits = [i for i, p in enumerate(points) if all(abs(p[k] - float(reference[k])) < 1e-9 for k in names)]
        if not hits:
            shown = ",".join(f"{k}={float(x):g}" for k, x in reference.items())
            raise WantitError(f"--reference {shown} is not a point of the grid")
        return hits[0]
    index = whole(reference, "reference")
    if not 0 <= index < len(points):
        raise WantitError(f"reference point {index} is not one of the {len(points)} points")
    return index


def chunk_count(settings):
    return -(-settings["deals"] // settings["chunk"])


def primary_metric(v, players):
    """The metric a sweep or a best response ranks points by: ``ev`` for the pot games,
    Selection's ``p_win``, or its ``total`` in solitaire (where ``p_win`` is always 1)."""
    return "total" if v.kind == "scored" and int(players) == 1 else PRIMARY[v.kind]


def metric_names(v):
    return POT_METRICS if v.kind == "pot" else SCORED_METRICS


# ---------------------------------------------------------------- playing a chunk


@functools.lru_cache(maxsize=4)
def _prepared(settings_json):
    """Each point's engine inputs and start state (kept per process: a Dask worker
    prepares a sweep once for all its chunks)."""
    from .engine import new_state

    settings = json.loads(settings_json)
    v = get_variant(settings["variant"])
    n = settings["players"]
    out = []
    for point in settings_points(settings):
        inp = v.inputs(n, policies=point_specs(settings, point), rules=settings["rules"],
                       **settings["game_settings"])
        out.append((inp, new_state(inp, dealer=0 if v.kind == "scored" else n - 1)))
    return v, out


def _metric_units(v, inp, rows):
    """Per deal and seat, each metric as an exact integer: ``[deals, metrics * seats]``
    int64, metric-major."""
    n = inp.players
    if v.kind == "pot":
        from kernels.games.common import UNITS

        from kernels.sums import pot_units

        at = v.result.at
        out = np.empty((rows.shape[0], 4 * n), np.int64)
        pot_units(rows, at.payout, at.paid, at.high_share, at.low_share, n, float(UNITS), out)
        return out
    from kernels.games.selection import RESULT

    from .selection import WIN_UNITS

    total = RESULT.view(rows, "total")[:, :n].astype(np.int64)
    at_top = total == total.max(axis=1, keepdims=True)
    return np.concatenate([np.where(at_top, WIN_UNITS // at_top.sum(axis=1, keepdims=True), 0), total], axis=1)


def metric_scales(v, settings):
    """What one integer unit of each metric is worth (antes, a probability, points)."""
    if v.kind == "pot":
        from kernels.games.common import R_ANTE, UNITS

        ante = float(v.rules_vector(settings["rules"])[R_ANTE])
        return [1.0 / (UNITS * ante), 1.0, 1.0, 1.0]
    from .selection import WIN_UNITS

    return [1.0 / WIN_UNITS, 1.0]


def chunk_sums(settings_json, index, threads=None):
    """Play chunk ``index`` of the sweep at every point; returns per point the exact
    sums ``[x, x**2, d, d**2]`` of each (metric, seat), ``d`` the difference from the
    reference point on the same deal. Python ints: nothing overflows, any order adds."""
    from .engine import play_batch

    settings = json.loads(settings_json)
    v, prepared = _prepared(settings_json)
    first = index * settings["chunk"]
    count = min(settings["chunk"], settings["deals"] - first)
    first += settings.get("first", 0)  # a later stretch of the same streams (a best response's rounds)
    ref = settings["reference"]
    with numba_threads(threads):
        units = [None] * len(prepared)
        inp, start = prepared[ref]
        units[ref] = _metric_units(v, inp, play_batch(inp, start, settings["seed"], first, count))
        out = []
        for p, (inp, start) in enumerate(prepared):
            if units[p] is None:
                units[p] = _metric_units(v, inp, play_batch(inp, start, settings["seed"], first, count))
            out.append(_paired_sums(units[p], units[ref]))
            if p != ref:
                units[p] = None  # only the reference's units are needed again
    return out


def _paired_sums(x, ref):
    """``[x, x**2, d, d**2]`` column sums (``d = x - ref``) as Python ints: in one
    kernel pass while int64 holds them exactly, else in exact Python arithmetic."""
    from kernels.sums import paired_sums

    from .simulate import exact_sums

    sums = np.zeros((4, x.shape[1]), np.int64)
    if paired_sums(x, ref, sums):
        return [[int(v) for v in row] for row in sums]
    x1, x2 = exact_sums(x)
    d1, d2 = exact_sums(x - ref)
    return [x1, x2, d1, d2]


# ---------------------------------------------------------------- running


@dataclass
class SweepSums:
    """The exact sums of the chunks finished so far; ``add`` takes a chunk whole."""

    settings: dict
    done: list = field(default_factory=list)  # finished chunk indices
    sums: list = None  # [point][x, x2, d, d2][metric * seat] Python ints

    def __post_init__(self):
        if self.sums is None:
            v = get_variant(self.settings["variant"])
            width = len(metric_names(v)) * self.settings["players"]
            self.sums = [[[0] * width for _ in range(4)] for _ in settings_points(self.settings)]

    @property
    def deals(self):
        c, total = self.settings["chunk"], self.settings["deals"]
        return sum(min(c, total - i * c) for i in self.done)

    def add(self, index, part):
        if index in self.done:
            raise WantitError(f"chunk {index} would be counted twice")
        sums = [[[a + b for a, b in zip(mine, theirs)] for mine, theirs in zip(point, new)]
                for point, new in zip(self.sums, part)]
        self.__dict__.update({"sums": sums, "done": sorted(self.done + [index])})  # one step: all or nothing

    def to_dict(self):
        return {"settings": self.settings, "done": self.done, "sums": self.sums}

    @classmethod
    def load(cls, path, settings):
        from .results import read_json

        saved = read_json(path, "sweep sums")
        if not isinstance(saved, dict) or saved.get("settings") != settings:
            raise WantitError(f"{path} was made by another sweep (other settings); "
                              "give the same settings or another --run-id")
        fresh = cls(settings)
        done, sums = saved.get("done"), saved.get("sums")
        chunks = chunk_count(settings)
        if (not isinstance(done, list) or len(set(done)) != len(done)
                or not all(isinstance(i, int) and 0 <= i < chunks for i in done)
                or not _same_shape(sums, fresh.sums, signed=True)):
            raise WantitError(f"{path} is damaged: its chunks or sums do not fit this sweep")
        return cls(settings, sorted(done), sums)


def _in_process(settings_json, pending, threads):
    for index in pending:
        yield index, chunk_sums(settings_json, index, threads)


def check_workers(workers):
    """A local Dask cluster's process count: 1..256 (None: no cluster)."""
    if workers is not None and not 1 <= whole(workers, "workers") <= 256:
        raise WantitError("workers must be 1..256")


@contextlib.contextmanager
def dask_client(workers=None, scheduler=None):
    """A Dask client for ``run_sweep``: of a local cluster of ``workers`` processes,
    or of the cluster at ``scheduler``; None (play in this process) when neither is
    given. A caller that runs many sweeps (a best response's rounds, a tuning's best
    responses) opens one and passes it to each, instead of starting a cluster a sweep
    (a local one takes seconds to start and its workers to load the kernels)."""
    if workers is None and scheduler is None:
        yield None
        return
    check_workers(workers)
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise WantitError("--workers and --scheduler need Dask: pip install 'wantit[dask]'") from None
    with contextlib.ExitStack() as stack:
        if scheduler is not None:
            try:
                client = stack.enter_context(Client(scheduler, timeout="10s"))
            except (OSError, TimeoutError, ValueError) as e:
                raise WantitError(f"cannot reach the Dask scheduler at {scheduler} ({e})") from None
        else:
            cluster = stack.enter_context(LocalCluster(n_workers=int(workers), threads_per_worker=1, processes=True,
                                                       dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        yield client


def _on_dask(settings_json, pending, client, threads):
    """Chunks on the Dask cluster of ``client``; yields each chunk's sums as it
    finishes (in any order)."""
    from dask.distributed import as_completed

    futures = {client.submit(chunk_sums, settings_json, i, threads, pure=False): i for i in pending}
    try:
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        client.cancel(list(futures))


def run_sweep(settings, sums_path=None, threads=None, workers=None, scheduler=None, progress=None, client=None):
    """Play every chunk not yet in the sums at ``sums_path`` (saved after each chunk),
    or all of them. Returns ``(sums, interrupted, seconds)``. On ``client`` (an open
    ``dask_client``) when given, else on a cluster of its own when ``workers`` or
    ``scheduler`` is given, else in this process."""
    from .results import write_json

    check_run(1, 0, 1, threads)
    if client is None and (workers is not None or scheduler is not None):
        with dask_client(workers, scheduler) as own:  # checks workers first
            return run_sweep(settings, sums_path, threads, progress=progress, client=own)
    sums = SweepSums(settings)
    if sums_path is not None and Path(sums_path).exists():
        sums = SweepSums.load(sums_path, settings)
    pending = [i for i in range(chunk_count(settings)) if i not in set(sums.done)]
    text = json.dumps(settings, sort_keys=True)
    points = len(sums.sums)
    started = time.perf_counter()
    interrupted = False
    if client is None:
        from .engine import _load

        _load(_prepared(text)[1][0][0], batch=True)  # compile (or load) before the clock of the first chunk
        chunks = _in_process(text, pending, threads)
    else:
        chunks = _on_dask(text, pending, client, threads if threads is not None else 1)
    try:
        for index, part in chunks:
            sums.add(index, part)
            if sums_path is not None:
                write_json(sums_path, sums.to_dict())
            if progress is not None:
                progress(sums.deals * points, settings["deals"] * points)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    if interrupted and not sums.done:
        raise KeyboardInterrupt  # nothing finished: nothing to report
    return sums, interrupted, round(time.perf_counter() - started, 3)


# ---------------------------------------------------------------- the table


def sweep_table(sums):
    """The long-format table: one row per point, seat and metric with its value,
    standard error, difference from the reference point (deal by deal) and that
    difference's standard error."""
    import pandas as pd

    settings = sums.settings
    v = get_variant(settings["variant"])
    names = metric_names(v)
    scales = metric_scales(v, settings)
    n_seats = settings["players"]
    d = sums.deals
    points = settings_points(settings)
    rows = []
    for p, point in enumerate(points):
        x1, x2, d1, d2 = sums.sums[p]
        for m, metric in enumerate(names):
            for s in range(n_seats):
                k = m * n_seats + s
                value, se = _mean_se(x1[k], x2[k], d, scales[m])
                diff, diff_se = _mean_se(d1[k], d2[k], d, scales[m])
                role = "all" if settings["seat"] == "all" else ("swept" if s == settings["seat"] else "field")
                rows.append({"point": p, **point, "seat": s, "role": role, "metric": metric, "value": value,
                             "se": se, "diff": diff, "diff_se": diff_se, "deals": d,
                             "reference": p == settings["reference"]})
    return pd.DataFrame(rows)


def _mean_se(s1, s2, n, scale):
    """Mean and standard error of the mean from exact sums (the variance from
    integers, so nothing cancels)."""
    if n == 0:
        return math.nan, math.nan
    mean = s1 / n * scale
    var = max(s2 * n - s1 * s1, 0) / n / n * scale * scale
    return mean, math.sqrt(var / max(n - 1, 1))


@dataclass
class SweepResult:
    """``table``: the long-format table; ``summary``: the watched seat's primary
    metric per point (value, interval, difference from the reference with its
    interval); ``folder``: where the run's files are (None when not written)."""

    table: object
    settings: dict
    meta: dict
    folder: Path = None
    files: list = field(default_factory=list)

    @property
    def primary(self):
        return primary_metric(get_variant(self.settings["variant"]), self.settings["players"])

    @property
    def watched_seat(self):
        return 0 if self.settings["seat"] == "all" else self.settings["seat"]

    @property
    def summary(self):
        t = self.table
        part = t[(t.metric == self.primary) & (t.seat == self.watched_seat)]
        names = [name for name, _ in self.settings["grid"]]
        out = part[["point", *names, "value", "se", "diff", "diff_se", "reference"]].reset_index(drop=True)
        return out.rename(columns={"value": self.primary, "se": f"{self.primary}_se"})

    @property
    def best(self):
        """The point with the best primary metric for the watched seat."""
        s = self.summary
        return s.loc[s[self.primary].idxmax()]

    def format_table(self):
        from .text import count_of, fit_frame, wrap_line

        s, m = self.settings, self.meta
        v = get_variant(s["variant"])
        who = ("every seat alike (seat 0 shown)" if s["seat"] == "all" else f"seat {s['seat']}")
        unit = METRIC_UNITS[self.primary]
        partial = f" (interrupted: partial, {s['deals']:,} asked)" if m["interrupted"] else ""
        lines = wrap_line(f"{v.title}, {count_of(s['players'], 'player')}, {m['deals']:,} {v.unit} a point{partial}, "
                          f"seed {s['seed']}: {who}, {self.primary} in {unit}; the same {v.unit} at every "
                          f"point, so diff (from the reference, *) is measured {v.unit[:-1]} by {v.unit[:-1]}")
        field_text = "; ".join(f"{i}={spec_text(v, spec, s['players'])}" for i, spec in enumerate(s["field"]))
        lines += wrap_line("field: " + field_text)
        summary = self.summary
        p = self.primary
        table = summary.drop(columns=["reference", "point"]).copy()
        table.insert(0, "point", [f"{i}*" if r else str(i) for i, r in zip(summary.point, summary.reference)])
        table[f"{p} 95%"] = [f"{a - Z95 * b:+.4f}..{a + Z95 * b:+.4f}" for a, b in zip(summary[p], summary[f"{p}_se"])]
        table["diff 95%"] = [f"{a - Z95 * b:+.4f}..{a + Z95 * b:+.4f}" for a, b in zip(summary["diff"],
                                                                                       summary.diff_se)]
        table = table.drop(columns=[f"{p}_se", "diff_se"])
        lines.append(fit_frame(table, ["point"], float_format=lambda x: f"{x:.4f}"))
        b = self.best
        names = [name for name, _ in s["grid"]]
        lines += [""] + wrap_line(f"best: point {int(b.point)} ({', '.join(f'{k}={b[k]:g}' for k in names)}), "
                                  f"{p} {b[p]:+.4f} +/- {Z95 * b[f'{p}_se']:.4f}, "
                                  f"{b['diff']:+.4f} +/- {Z95 * b.diff_se:.4f} from the reference")
        if self.folder is not None and m["interrupted"]:
            lines += wrap_line(f"the sums of the chunks finished are kept in {self.folder}/sums.json")
        elif self.folder is not None:
            lines += wrap_line(f"written to {self.folder}/: {', '.join(self.files)}")
        return "\n".join(lines)


# ---------------------------------------------------------------- the entry point


def sweep(variant, grid, players=None, seat=0, field=None, rules=None, deals=20_000, seed=0, chunk=None,
          reference=None, game_settings=None, threads=None, workers=None, scheduler=None, results="results",
          run_id=None, resume=False, write=True, charts=True, progress=None, command=None):
    """Sweep ``grid`` (``{"take_threshold": [0, 0.5, 1]}`` or ``["take_threshold=0:1:0.5"]``)
    for ``seat`` (or ``"all"`` seats alike) against ``field`` (policies as for
    ``simulate``), every point on the same ``deals`` deals of ``seed``.

    With ``write`` the run goes to ``results/<variant>/<run_id>/`` (a new id by
    default): the sums after every chunk, then ``table.parquet``, ``table.csv``,
    ``run.json`` and the charts. ``resume``: continue the run at ``run_id``, or the
    latest one under ``results/<variant>/`` made with these settings. ``workers``: a
    local Dask cluster of that many processes; ``scheduler``: an existing cluster's
    address. The table is the same in every case.
    """
    from . import results as R

    settings = sweep_settings(variant, players, grid, seat, field, rules, deals, seed, chunk, reference,
                              game_settings)
    folder = sums_path = None
    if write:
        folder = R.chosen_folder(results, settings["variant"], run_id, "sweep", resume, settings, R.SUMS)
        sums_path = folder / R.SUMS
        R.make_folder(folder)
    try:
        sums, interrupted, seconds = run_sweep(settings, sums_path, threads, workers, scheduler, progress)
    except BaseException:
        if folder is not None and not any(folder.iterdir()):
            folder.rmdir()  # nothing was played: leave no empty run behind
        raise
    executor = (f"dask {scheduler}" if scheduler else f"dask local, {workers} workers" if workers else "in-process")
    meta = {"deals": sums.deals, "interrupted": interrupted, "seconds": seconds, "executor": executor,
            "points": len(sums.sums), "chunks_done": len(sums.done), "chunks": chunk_count(settings)}
    result = SweepResult(sweep_table(sums), settings, meta, folder)
    if write and not interrupted:
        _write_run(result, charts, command)
    return result


def _write_run(result, charts, command):
    from . import results as R

    folder = result.folder
    files = R.write_table(folder, "table", result.table)
    if charts:
        from .charts import sweep_charts

        files += sweep_charts(result, folder)
    run = {"kind": "sweep", "settings": result.settings, "meta": result.meta, "files": files,
           **R.provenance(), "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    if command is not None:
        run["command"] = command
    R.write_json(folder / R.RUN, run)
    result.files = [*files, R.RUN, R.SUMS]


def _check_run_shapes(s, run_json):
    """Refuse, in one line, settings of a ``run.json`` whose parts are not shaped as a
    sweep writes them (the sweep checks their values itself): a field of one policy
    table a seat, a grid of [parameter, values] pairs, tables of rules and settings."""
    def damaged(what):
        return WantitError(f"{run_json} is damaged: {what}")

    for key in ("variant", "players", "seat", "field", "grid", "rules", "game_settings", "seed", "deals", "chunk",
                "reference"):
        if key not in s:
            raise damaged(f"its settings have no {key}")
    field = s["field"]
    if not isinstance(field, list) or not all(isinstance(spec, dict) for spec in field):
        raise damaged("field should be a list of one policy table a seat")
    if isinstance(s["players"], int) and len(field) != s["players"]:
        raise damaged(f"field has {len(field)} seats for {s['players']} players")
    grid = s["grid"]
    if not isinstance(grid, list) or not all(isinstance(g, list) and len(g) == 2 and isinstance(g[0], str)
                                             and isinstance(g[1], list) for g in grid):
        raise damaged("grid should be a list of [parameter, values] pairs")
    for key in ("rules", "game_settings"):
        if not isinstance(s[key], dict):
            raise damaged(f"{key} should be a table of name = value")


def rerun(run_json, results="results", run_id=None, **how):
    """Play the sweep ``run_json`` describes again (a new run folder): its table is the
    same, to the last digit. ``how``: threads, workers, scheduler, charts, progress."""
    from .results import read_json

    run = read_json(run_json, "run file")
    s = run.get("settings") if isinstance(run, dict) else None
    if not isinstance(s, dict) or s.get("kind") != "sweep":
        raise WantitError(f"{run_json} is not a wantit sweep's run.json")
    _check_run_shapes(s, run_json)
    field = {i: spec for i, spec in enumerate(s["field"])}
    return sweep(s["variant"], {name: values for name, values in s["grid"]}, players=s["players"], seat=s["seat"],
                 field=field, rules=s["rules"], deals=s["deals"], seed=s["seed"], chunk=s["chunk"],
                 reference=s["reference"], game_settings=s["game_settings"], results=results, run_id=run_id, **how)
