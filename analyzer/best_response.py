"""Best responses: the policy parameters that maximise one seat's result against a
field, found by racing candidates on common random numbers (successive halving),
then measured afresh; and iterated best response, a field tuned until no seat's
deviation gains beyond the noise.

Every race round plays the surviving candidates on the same new stretch of deals
(stream ``(seed, i)`` for the round's ``i``), so candidates are compared deal by
deal; each round keeps the better half and doubles the deals. The winner is then
measured against the seat's own (field) parameters on deals no round used, so the
gain it reports is not flattered by having been picked as the best of many.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import WantitError
from .runs import check_seed, whole
from .sweep import (METRIC_UNITS, Z95, _mean_se, check_workers, dask_client, field_specs, metric_names, metric_scales,
                    parse_values, primary_metric, run_sweep)
from .variants import get_variant, spec_text

MAX_CANDIDATES = 4096
TUNE_STATE = "tune.json"  # a tuning's iterations so far, saved after each
RACE_STATE = "race.json"  # a best response's race so far, saved after each round
FINAL_SEED = 10_000  # an unconverged tuning's last measurement draws from seed + this
CHECK_FACTOR = 4  # after an answer that gains nothing, the next races this many times the candidates


def parse_space(items, variant):
    """``["take_threshold=0:1", "aim=0,2"]`` -> ``[(name, kind, values)]``: kind
    ``"range"`` (``LOW:HIGH``, drawn at random; whole numbers for an integer
    parameter) or ``"values"`` (``LOW:HIGH:STEP`` or ``a,b,c``, as for a sweep)."""
    v = get_variant(variant)
    if not items:
        names = ", ".join(p.name for p in v.params)
        raise WantitError(f"give at least one --param NAME=LOW:HIGH or NAME=a,b,c; {v.name}'s parameters: {names}")
    space, seen = [], set()
    pairs = items.items() if isinstance(items, dict) else (
        i if isinstance(i, (tuple, list)) else str(i).partition("=")[::2] for i in items)
    for name, text in pairs:
        name = name.strip()
        p = v.param(name)
        if name in seen:
            raise WantitError(f"--param {name} is given twice")
        seen.add(name)
        if isinstance(text, (list, tuple)):
            kind, values = "values", [float(x) for x in text]
        elif str(text).count(":") == 1:
            try:
                lo, hi = (float(x) for x in str(text).split(":"))
            except ValueError:
                raise WantitError(f"--param {name}={text!r}: give LOW:HIGH, LOW:HIGH:STEP or a,b,c") from None
            if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
                raise WantitError(f"--param {name}={text}: a range LOW:HIGH needs HIGH > LOW")
            kind, values = "range", [lo, hi]
        else:
            kind, values = "values", parse_values(text, name)
        for x in values:
            if not p.low <= x <= p.high:
                raise WantitError(f"--param {name}: {x:g} is out of range {p.low:g}..{p.high:g}")
            if p.integer and kind == "values" and not float(x).is_integer():
                raise WantitError(f"--param {name}: {x:g} must be a whole number")
        space.append((name, kind, values))
    return space


# The space ``wantit tune`` searches when no --param is given: every parameter that
# shapes play, over the range where play changes (the thresholds' full ranges,
# +-1e6, only reach always / never), and none of the baselines' switches.
TUNE_SPACE = {
    "selection_rejection": ["aim=0,1,2", "take_threshold=-0.5:3", "low_max=5:13", "deny_weight=0:3",
                            "adaptive_low_count=0:7", "draw_weight=0:3", "declare_low_top=0:14",
                            "declare_both_category=1:13"],
    "do_ya": ["aim=0,1,2", "take_threshold=-0.5:3", "pool_threshold=-0.5:3", "low_max=5:13", "deny_weight=0:3",
              "adaptive_low_count=0:7", "draw_weight=0:3", "declare_low_top=0:14", "declare_both_category=1:13"],
    "anaconda": ["aim=0,1,2", "low_max=5:13", "adaptive_low_count=0:7", "draw_weight=0:3", "declare_low_top=0:14",
                 "declare_both_category=1:13", "spite_weight=0:3", "hide_rule=0:1"],
    "train_wreck": ["pay_threshold=-1:2", "fee_weight=0:2", "deny_weight=0:3", "draw_weight=0:3", "steal_aim=0:1"],
    "selection": ["par_weight=0:3", "keep_min=11:25", "low_cap=11:125", "reaim=0,1"],
}
LOCAL_SHARE = 0.5  # of the drawn candidates, the share drawn near the current parameters
LOCAL_WIDTH = 0.15  # a local draw's spread, as a share of the range


def candidates_of(space, count, seed, variant, around=None):
    """The candidate points: every combination when the space is all value lists
    and has at most ``count`` of them, else ``count`` distinct points drawn at
    random (ranges uniformly, lists by choice) from a stream of ``seed``."""
    import itertools

    v = get_variant(variant)
    names = [name for name, _, _ in space]
    if all(kind == "values" for _, kind, _ in space):
        points = [dict(zip(names, c)) for c in itertools.product(*(values for _, _, values in space))]
        if len(points) <= count:
            return points
    rng = np.random.default_rng([check_seed(seed), 0xB357])
    points, seen = [], set()
    for draw in range(count * 20):
        local = around is not None and draw % 2 == 1 and rng.random() < 2 * LOCAL_SHARE
        point = {}
        for name, kind, values in space:
            if kind == "range":
                lo, hi = values
                if local:  # near the current value: most gains are small steps
                    x = float(np.clip(rng.normal(float(around[name]), LOCAL_WIDTH * (hi - lo)), lo, hi))
                else:
                    x = float(rng.uniform(lo, hi))
                x = float(round(x)) if v.param(name).integer else round(x, 4)
            elif local and rng.random() < 0.75:
                x = float(around[name]) if float(around[name]) in values else float(rng.choice(values))
            else:
                x = float(values[int(rng.integers(len(values)))])
            point[name] = x
        key = tuple(point.values())
        if key not in seen:
            seen.add(key)
            points.append(point)
        if len(points) == count:
            break
    return points


@dataclass
class BestResponse:
    """``candidates``: each candidate's parameters, the last round it raced in, its
    deals, ev (the seat's primary metric), ev_se, and its difference from the seat's
    own parameters (diff, diff_se) on the same deals. ``winner``: the parameters
    found; ``validation``: on fresh deals, the winner against the seat's own
    parameters (or, when those won the race, the best other candidate: ``measured``,
    ``own_won``), with gain, gain_se, ev, ev_se, own_ev, own_ev_se, deals."""

    candidates: object
    winner: dict
    validation: dict
    settings: dict
    meta: dict
    folder: Path = None
    files: list = field(default_factory=list)

    @property
    def gain(self):
        return self.validation["gain"]

    @property
    def gain_se(self):
        return self.validation["gain_se"]

    def format_table(self):
        from .text import count_of, fit_frame, wrap_line

        s, m, val = self.settings, self.meta, self.validation
        v = get_variant(s["variant"])
        p = primary_metric(v, s["players"])
        lines = wrap_line(f"{v.title}, {count_of(s['players'], 'player')}, seed {s['seed']}: best response of "
                          f"seat {s['seat']} against the field "
                          f"({'; '.join(spec_text(v, x, s['players']) for x in s['field'])})")
        lines += wrap_line(f"{m['candidates']} candidates raced in {m['rounds']} rounds (each round the better "
                           f"half, twice the {v.unit}: {', '.join(f'{d:,}' for d in m['round_deals'])}), "
                           f"{m['deals_played']:,} {v.unit} in all, {m['seconds']:.1f} s")
        top = self.candidates.sort_values(["round", "diff"], ascending=False).head(8)
        shown = top.drop(columns=["candidate"]).copy()
        lines += ["", "the last candidates standing (diff: from the seat's own parameters, same deals):",
                  fit_frame(shown, ["round"], float_format=lambda x: f"{x:.4f}")]
        names = [name for name, _, _ in s["space"]]
        found = ", ".join(f"{k}={self.winner[k]:g}" for k in names)
        own = ", ".join(f"{k}={s['field'][s['seat']][k]:g}" for k in names)
        verdict = ("gains beyond the noise" if val["gain"] - Z95 * val["gain_se"] > 0 else
                   "no gain the fresh deals can tell from noise")
        lines += [""] + wrap_line(f"best response: {found} (own: {own})")
        if val["own_won"]:
            other = ", ".join(f"{k}={val['measured'][k]:g}" for k in names)
            lines += wrap_line(f"the seat's own parameters won the race; the best other candidate, {other}, "
                               "is measured as the best deviation found")
        lines += wrap_line(f"measured afresh on {val['deals']:,} other {v.unit}: {p} {val['ev']:+.4f} +/- "
                           f"{Z95 * val['ev_se']:.4f} against {val['own_ev']:+.4f} +/- {Z95 * val['own_ev_se']:.4f} "
                           f"with its own; gain {val['gain']:+.4f} +/- {Z95 * val['gain_se']:.4f} (95%): {verdict}")
        if self.folder is not None:
            lines += wrap_line(f"written to {self.folder}/: {', '.join(self.files)}")
        return "\n".join(lines)

    def to_json(self):
        return {"settings": self.settings, "meta": self.meta, "winner": self.winner, "validation": self.validation,
                "candidates": self.candidates.to_dict(orient="records"),
                "folder": None if self.folder is None else str(self.folder)}


def _race(race, pool, base, k, threads, client, state_path, progress):
    """Play the race's rounds from where ``race`` stands until one candidate is left:
    each round the candidates alive on the same new deals, then the better half on
    twice as many (saved after every round); returns the finished race."""
    from .results import write_json

    while not race["finished"]:
        alive, n_deals, offset = race["alive"], race["n_deals"], race["offset"]
        sums, last_round, rounds = race["sums"], list(race["last_round"]), len(race["round_deals"])
        racing = [0] + [c for c in alive if c != 0]  # own parameters first: the reference
        stage = {**base, "points": [pool[c] for c in racing], "first": offset, "deals": n_deals,
                 "chunk": min(n_deals, 20_000)}
        part, interrupted, _ = run_sweep(stage, None, threads, client=client)
        if interrupted:
            raise KeyboardInterrupt
        sums = [list(x) for x in sums]
        for slot, c in enumerate(racing):
            x1, x2, d1, d2 = (part.sums[slot][j][k] for j in range(4))
            sums[c] = [sums[c][0] + x1, sums[c][1] + x2, sums[c][2] + d1, sums[c][3] + d2, sums[c][4] + n_deals]
            last_round[c] = rounds
        # Everyone alive played the same deals: rank by the mean difference from own.
        # The race ends when the halving leaves one: a round of that one alone would
        # only play it against the seat's own parameters again (or itself).
        ranked = sorted(alive, key=lambda c: (-sums[c][2] / sums[c][4], c))
        left = ranked[:math.ceil(len(alive) / 2)]
        race = {**race, "sums": sums, "last_round": last_round, "offset": offset + n_deals,
                "round_deals": [*race["round_deals"], n_deals], "finished": len(left) == 1,
                "alive": left, "n_deals": n_deals * 2}
        if state_path is not None:
            write_json(state_path, race)
        if progress is not None:
            done = len(race["round_deals"])
            progress(done, done + max(math.ceil(math.log2(max(len(race["alive"]), 1))), 0))
    return race


def best_response(variant, space, players=None, seat=0, field=None, rules=None, seed=0, deals=2_000,
                  candidates=32, validate=50_000, game_settings=None, threads=None, workers=None, scheduler=None,
                  results="results", run_id=None, write=True, resume=False, progress=None, command=None, client=None,
                  charts=True):
    """The parameters in ``space`` (see ``parse_space``; default ``TUNE_SPACE``, every
    parameter that shapes play) that maximise ``seat``'s
    result (ev in antes; Selection: its share of the wins, its total in solitaire) against
    ``field``.

    ``candidates`` points (all combinations of value lists when there are no more)
    race on common random numbers: round 0 plays each on ``deals`` deals, every
    later round the better half on twice as many new ones, until one is left. The
    seat's own parameters always race too. The winner and the seat's own parameters
    are then played on ``validate`` deals no round used. With ``write`` the race is
    saved after every round (``race.json``); ``resume`` goes on from it. ``workers``
    / ``scheduler``: every round runs on one Dask cluster, started once (or on
    ``client``, an open ``sweep.dask_client``, as ``tune`` passes for all its answers).
    ``charts``: write ``race.png`` with the tables (False: the tables and run.json only).
    """
    v = get_variant(variant)
    n = v.default_players if players is None else whole(players, "players")
    v.check_table(n, rules)
    seat = whole(seat, "seat")
    if not 0 <= seat < n:
        raise WantitError(f"seat {seat} is not at a {n}-player table (seats 0..{n - 1})")
    for value, what, low in ((deals, "deals", 2), (candidates, "candidates", 1), (validate, "validate", 2)):
        if not low <= whole(value, what) <= (MAX_CANDIDATES if what == "candidates" else 10**12):
            raise WantitError(f"{what} must be at least {low}" + (f" and at most {MAX_CANDIDATES}"
                                                                  if what == "candidates" else ""))
    seed = check_seed(seed)
    check_workers(workers)
    space = parse_space(space or TUNE_SPACE[v.name], v)
    specs = field_specs(v, n, field)
    v.rules_vector(rules)
    own = {name: specs[seat][name] for name, _, _ in space}
    pool = [own] + [c for c in candidates_of(space, int(candidates), seed, v, around=own) if c != own]
    base = {"kind": "sweep", "variant": v.name, "players": n, "seat": seat, "field": specs, "grid": [],
            "rules": {k: str(x) for k, x in (rules or {}).items()},
            "game_settings": {k: str(x) for k, x in (game_settings or {}).items()}, "seed": seed, "reference": 0}
    settings = {"kind": "best_response", "variant": v.name, "players": n, "seat": seat, "field": specs,
                "space": [[name, kind, values] for name, kind, values in space], "rules": base["rules"],
                "game_settings": base["game_settings"], "seed": seed, "deals": int(deals),
                "candidates": int(candidates), "validate": int(validate)}
    from . import results as R

    folder = (R.chosen_folder(results, v.name, run_id, "best-response", resume, settings, RACE_STATE)
              if write else None)
    primary = metric_names(v).index(primary_metric(v, n))
    k = primary * n + seat
    scale = metric_scales(v, base)[primary]
    # The race so far (saved after every round; a resumed run goes on from it): per
    # candidate the sums x, x2, d, d2 and deals, the last round it raced, who is alive.
    race = {"settings": settings, "sums": [[0, 0, 0, 0, 0] for _ in pool], "last_round": [0] * len(pool),
            "alive": list(range(len(pool))), "offset": 0, "n_deals": int(deals), "round_deals": [],
            "finished": False}
    state_path = None if folder is None else folder / RACE_STATE
    if resume and state_path is not None and state_path.exists():
        saved = R.read_json(state_path, "race state")
        if not isinstance(saved, dict) or saved.get("settings") != settings:
            raise WantitError(f"{state_path} was made by another best response (other settings); "
                              "give another --run-id")
        race = saved
    elif folder is not None:
        R.make_folder(folder)
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if client is None:
            client = stack.enter_context(dask_client(workers, scheduler))
        race = _race(race, pool, base, k, threads, client, state_path, progress)
        sums, last_round, alive, offset = race["sums"], race["last_round"], race["alive"], race["offset"]
        winner = measured = alive[0]
        if winner == 0 and len(pool) > 1:
            # The seat's own parameters won the race: measure the best other candidate (the
            # one that raced furthest, then the best there), the best deviation found.
            measured = max(range(1, len(pool)), key=lambda c: (last_round[c], sums[c][2] / sums[c][4], -c))
        final = {**base, "points": [pool[0], pool[measured]], "first": offset, "deals": int(validate),
                 "chunk": min(int(validate), 20_000)}
        check, interrupted, _ = run_sweep(final, None, threads, client=client)
    if interrupted:
        raise KeyboardInterrupt
    rounds, round_deals = len(race["round_deals"]), race["round_deals"]
    own_ev, own_se = _mean_se(check.sums[0][0][k], check.sums[0][1][k], int(validate), scale)
    ev, ev_se = _mean_se(check.sums[1][0][k], check.sums[1][1][k], int(validate), scale)
    gain, gain_se = _mean_se(check.sums[1][2][k], check.sums[1][3][k], int(validate), scale)
    validation = {"ev": ev, "ev_se": ev_se, "own_ev": own_ev, "own_ev_se": own_se, "gain": gain, "gain_se": gain_se,
                  "deals": int(validate), "first_deal": offset, "measured": dict(pool[measured]),
                  "own_won": winner == 0}
    meta = {"candidates": len(pool), "rounds": rounds, "round_deals": round_deals,
            "deals_played": sum(s[4] for s in sums) + 2 * int(validate),
            "seconds": round(time.perf_counter() - started, 3),
            "executor": (f"dask {scheduler}" if scheduler else f"dask local, {workers} workers" if workers
                         else "in-process")}
    result = BestResponse(_candidate_table(pool, sums, last_round, scale, space), dict(pool[winner]), validation,
                          settings, meta, folder)
    if write:
        _write(result, command, charts)
    return result


def _candidate_table(pool, sums, last_round, scale, space):
    import pandas as pd

    rows = []
    for c, point in enumerate(pool):
        x1, x2, d1, d2, d = sums[c]
        ev, ev_se = _mean_se(x1, x2, d, scale)
        diff, diff_se = _mean_se(d1, d2, d, scale)
        rows.append({"candidate": c, **{name: point[name] for name, _, _ in space}, "own": c == 0,
                     "round": last_round[c], "deals": d, "ev": ev, "ev_se": ev_se, "diff": diff, "diff_se": diff_se})
    return pd.DataFrame(rows)


def _write(result, command, charts=True):
    from . import results as R

    R.make_folder(result.folder)
    files = R.write_table(result.folder, "candidates", result.candidates)
    if charts:
        files.append(_race_chart(result))
    run = {"kind": "best_response", "settings": result.settings, "meta": result.meta, "winner": result.winner,
           "validation": result.validation, "files": files, **R.provenance(),
           "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    if command is not None:
        run["command"] = command
    R.write_json(result.folder / R.RUN, run)
    result.files = [*files, R.RUN, RACE_STATE]


def _race_chart(result):
    """Each candidate's difference from the seat's own parameters with its 95%
    interval, over the deals it raced: the race as it was run."""
    from .charts import SIZE, _pyplot, _save
    from .text import count_of

    s = result.settings
    v = get_variant(s["variant"])
    t = result.candidates
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=SIZE)
    for r in sorted(t["round"].unique()):
        part = t[t["round"] == r]
        ax.errorbar(part.deals, part["diff"], yerr=Z95 * part.diff_se, fmt="o", capsize=2, markersize=4,
                    label=f"out after round {r}" if r < t["round"].max() else "raced to the end")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xscale("log")
    ax.set_xlabel(f"{v.unit} raced (log scale)")
    ax.set_ylabel(f"{primary_metric(v, s['players'])} minus own parameters'")
    ax.set_title(f"{v.title}, {count_of(s['players'], 'player')}: best response of seat {s['seat']}\n"
                 f"{len(t)} candidates, gain {result.gain:+.4f} +/- {Z95 * result.gain_se:.4f} on "
                 f"{result.validation['deals']:,} fresh {v.unit}", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return _save(fig, result.folder, "race.png")


def _json_default(x):
    return float(x) if isinstance(x, np.floating) else int(x) if isinstance(x, np.integer) else str(x)


def dumps(obj):
    return json.dumps(obj, indent=2, default=_json_default)


# ---------------------------------------------------------------- iterated best response


@dataclass
class Tuning:
    """``steps``: per iteration the field's parameters, the best response found
    against it, its gain with gain_se, and whether it was taken; ``tuned``: the
    parameters every seat ends on; ``exploitability``: what the last best response
    gained against them (gain, gain_se), the most a seat was found to gain by
    deviating within the space."""

    steps: object
    tuned: dict
    exploitability: dict
    settings: dict
    meta: dict
    folder: Path = None
    files: list = field(default_factory=list)

    def format_table(self):
        from .text import count_of, fit_frame, wrap_line

        s, m, e = self.settings, self.meta, self.exploitability
        v = get_variant(s["variant"])
        lines = wrap_line(f"{v.title}, {count_of(s['players'], 'player')}, seed {s['seed']}: iterated best "
                          f"response over {', '.join(name for name, _, _ in s['space'])}, every seat alike, from "
                          f"{spec_text(v, s['start'], s['players'])}; {m['iterations']} iterations, "
                          f"{m['seconds']:.1f} s")
        names = [name for name, _, _ in s["space"]]
        shown = self.steps[["iteration", "kind", "candidates", "gain"]].copy()
        shown["gain 95%"] = [f"{g - Z95 * e:+.4f}..{g + Z95 * e:+.4f}" for g, e in zip(self.steps.gain,
                                                                                     self.steps.gain_se)]
        shown["taken"] = ["yes" if t else "no" for t in self.steps.taken]
        lines.append(fit_frame(shown, ["iteration"], float_format=lambda x: f"{x:+.4f}"))
        for _, row in self.steps.iterrows():
            changed = ", ".join(f"{k}={row[f'answer_{k}']:g}" for k in names if row[f"answer_{k}"] != row[f"field_{k}"])
            if row.kind == "final":
                lines += wrap_line(f"  {int(row.iteration)}, the chosen field measured afresh (a wider search)")
            elif row.kind == "polish":
                proposal = ", ".join(f"{k}={row[f'field_{k}']:g}" for k in names)
                lines += wrap_line(f"  {int(row.iteration)}, a field near the least exploitable: {proposal}")
            else:
                lines += wrap_line(f"  {int(row.iteration)}, answer: {changed or '(the field parameters themselves)'}")
        found = ", ".join(f"{k}={x:g}" for k, x in self.tuned.items())
        state = ("converged: two answers in a row, the second racing more candidates, gained nothing beyond the "
                 "noise" if m["converged"] else
                 f"not converged after {m['iterations']} iterations: the least exploitable field measured, "
                 f"measured again by the last")
        lines += [""] + wrap_line(f"tuned ({state}): {found}")
        lines += wrap_line(f"exploitability: a seat deviating within the space gains {e['gain']:+.4f} +/- "
                           f"{Z95 * e['gain_se']:.4f} {METRIC_UNITS[primary_metric(v, s['players'])]} "
                           f"(95%, on {e['deals']:,} fresh {v.unit}; noise threshold {s['tolerance']:g})")
        if m.get("saved"):
            lines += wrap_line(f"saved as the tuned preset for {count_of(s['players'], 'player')} in {m['saved']}")
        if self.folder is not None:
            lines += wrap_line(f"written to {self.folder}/: {', '.join(self.files)}")
        return "\n".join(lines)

    def to_json(self):
        return {"settings": self.settings, "meta": self.meta, "tuned": self.tuned,
                "exploitability": self.exploitability, "steps": self.steps.to_dict(orient="records"),
                "folder": None if self.folder is None else str(self.folder)}


def _least_exploitable(steps):
    """The step whose field's answer gained least, by the upper end of its 95% interval.
    A loss counts as no gain: the seat's own parameters are always a deviation open to
    it, so a field is never less exploitable than 0 (a badly chosen challenger would
    otherwise flatter its field)."""
    return min(steps, key=lambda st: (max(st["gain"], 0.0) + Z95 * st["gain_se"], st["iteration"]))


def _proposal(v, space, field_values, answer, rng, half_step):
    """A field near ``field_values``: a half step toward ``answer`` (value lists keep
    the field's value, integers round), or a random local draw."""
    out = dict(field_values)
    for name, kind, values in space:
        x = float(field_values[name])
        if kind == "range":
            lo, hi = values
            if half_step:
                x = x + 0.5 * (float(answer[name]) - x)
            else:
                x = float(np.clip(rng.normal(x, LOCAL_WIDTH * (hi - lo)), lo, hi))
            x = float(round(x)) if v.param(name).integer else round(x, 4)
        elif not half_step and rng.random() < 0.25:
            x = float(values[int(rng.integers(len(values)))])
        out[name] = x
    return out


def tune(variant, space, players=None, start=None, rules=None, seed=0, deals=2_000, candidates=32, validate=50_000,
         tolerance=0.01, iterations=12, polish=8, game_settings=None, threads=None, workers=None, scheduler=None,
         results="results", run_id=None, write=True, save=False, resume=False, progress=None, command=None):
    """Iterated best response with every seat alike: from ``start`` (a policy spec,
    default the variant's default policy), seat 0 answers a field of the current
    parameters (``best_response``); when the answer gains more than ``tolerance``
    beyond its 95% interval, every seat takes it, and the next iteration answers
    that. It stops when no answer gains beyond the noise (converged), or after
    ``iterations``; then up to ``polish`` fields near the least exploitable one
    measured are measured too (half of them a half step toward its answer), the
    tuned field is the least exploitable of all, and it is measured once more by a
    wider search (its exploitability, free of having been picked as the least).

    With the dealer rotating, every seat sits in every position equally often, so
    a field of one set of parameters is the same to every seat: seat 0's best
    response is each seat's, and the tuned parameters are one preset.
    ``save``: write them to the package's tuned presets (``analyzer/data/tuned.json``).
    The state is saved after every iteration (``tune.json`` in the run folder); an
    interrupted run continues with ``resume`` (its ``run_id``, or the latest run under
    ``results/<variant>/`` made with these settings).
    """
    v = get_variant(variant)
    n = v.default_players if players is None else whole(players, "players")
    try:
        tolerance = float(tolerance)
    except (TypeError, ValueError):
        tolerance = math.nan
    if not (tolerance >= 0 and math.isfinite(tolerance)):
        raise WantitError(f"tolerance must be a non-negative number, not {tolerance!r}")
    if not 1 <= whole(iterations, "iterations") <= 100:
        raise WantitError("iterations must be 1..100")
    if not 0 <= whole(polish, "polish") <= 100:
        raise WantitError("polish must be 0..100")
    check_workers(workers)
    space = parse_space(space or TUNE_SPACE[v.name], v)
    current = {k: x for k, x in field_specs(v, n, start)[0].items()}
    settings = {"kind": "tune", "variant": v.name, "players": n, "start": dict(current),
                "space": [[name, kind, values] for name, kind, values in space],
                "rules": {k: str(x) for k, x in (rules or {}).items()},
                "game_settings": {k: str(x) for k, x in (game_settings or {}).items()}, "seed": check_seed(seed),
                "deals": int(deals), "candidates": int(candidates), "validate": int(validate),
                "tolerance": tolerance, "iterations": int(iterations), "polish": int(polish)}
    from . import results as R

    folder = state_path = None
    if write:
        folder = R.chosen_folder(results, v.name, run_id, "tune", resume, settings, TUNE_STATE)
        state_path = folder / TUNE_STATE
    # What the iterations so far found (a resumed run starts from it): each iteration is
    # a best response of its own seed, so the run goes on exactly as it would have.
    state = {"settings": settings, "steps": [], "current": current, "check": False, "converged": False}
    if resume and state_path is not None and state_path.exists():
        saved = R.read_json(state_path, "tuning state")
        if not isinstance(saved, dict) or saved.get("settings") != settings:
            raise WantitError(f"{state_path} was made by another tuning (other settings); give another --run-id")
        state = saved
    elif write:
        R.make_folder(folder)
    started = time.perf_counter()
    searched = [(name, values if kind == "values" else f"{values[0]}:{values[1]}") for name, kind, values in space]
    def answer_to(it, field_values, wide, kind, draw=0):
        answer = best_response(v.name, searched, players=n, seat=0, field={"all": field_values}, rules=rules,
                               seed=seed + it + draw, deals=deals, candidates=candidates * (CHECK_FACTOR if wide else 1),
                               validate=validate, game_settings=game_settings, threads=threads, workers=workers,
                               scheduler=scheduler, write=False, client=cluster())
        measured = answer.validation["measured"]
        taken = kind == "answer" and answer.gain - Z95 * answer.gain_se > tolerance
        return measured, {"iteration": it, "kind": kind, "candidates": answer.meta["candidates"], "gain": answer.gain,
                          "gain_se": answer.gain_se, "validate_deals": answer.validation["deals"], "taken": bool(taken),
                          **{f"field_{k}": field_values[k] for k, _, _ in space},
                          **{f"answer_{k}": measured[k] for k, _, _ in space}}

    def save_state(new):
        if state_path is not None:
            R.write_json(state_path, new)
        if progress is not None:
            progress(len(new["steps"]), int(iterations) + int(polish))
        return new

    # Every answer's rounds run on one Dask cluster (--workers / --scheduler), started
    # once, at the first answer: a finished run resumed starts none.
    with contextlib.ExitStack() as stack:
        clients = []

        def cluster():
            if not clients:
                clients.append(stack.enter_context(dask_client(workers, scheduler)))
            return clients[0]

        while not state["converged"] and len(state["steps"]) < int(iterations):
            it, current, check = len(state["steps"]), state["current"], state["check"]
            measured, step = answer_to(it, current, check, "answer")
            state = save_state({**state, "steps": [*state["steps"], step],
                                "current": {**current, **measured} if step["taken"] else current,
                                "check": not step["taken"],
                                "converged": bool(check and not step["taken"])})  # two answers, the second wider
        # Best responses can cycle (a field aiming high invites aiming low, and back): then
        # search near the least exploitable field measured, each proposal measured by a
        # best response against it, half of them a half step toward that field's answer.
        while not state["converged"] and len(state["steps"]) < int(iterations) + int(polish):
            it = len(state["steps"])
            best = _least_exploitable(state["steps"])
            base = {**state["current"], **{k: best[f"field_{k}"] for k, _, _ in space}}
            rng = np.random.default_rng([settings["seed"], 0x7011, it])  # its own: a resumed run draws the same
            polished = sum(st.get("kind") == "polish" for st in state["steps"])  # the first is a half step
            proposal = _proposal(v, space, base, {k: best[f"answer_{k}"] for k, _, _ in space}, rng,
                                 half_step=polished % 2 == 0)
            _, step = answer_to(it, proposal, False, "polish")
            state = save_state({**state, "steps": [*state["steps"], step]})
        if state["converged"]:
            current, last = state["current"], state["steps"][-1]
        else:
            # The least exploitable field measured, by the upper end of its interval; the
            # least of many noisy measurements flatters its field, so the field is then
            # measured once more, by a wider search of its own seed: that is its exploitability.
            chosen = _least_exploitable([st for st in state["steps"] if st.get("kind") != "final"])
            current = {**state["current"], **{name: chosen[f"field_{name}"] for name, _, _ in space}}
            if state["steps"][-1].get("kind") != "final":
                _, step = answer_to(len(state["steps"]), current, True, "final", draw=FINAL_SEED)
                state = save_state({**state, "steps": [*state["steps"], step]})
            last = state["steps"][-1]
    import pandas as pd

    tuned = {name: current[name] for name, _, _ in space}
    exploit = {"gain": last["gain"], "gain_se": last["gain_se"], "deals": last["validate_deals"],
               "iteration": last["iteration"], "answer": {name: last[f"answer_{name}"] for name, _, _ in space}}
    meta = {"iterations": len(state["steps"]), "converged": state["converged"],
            "seconds": round(time.perf_counter() - started, 3)}
    result = Tuning(pd.DataFrame(state["steps"]), tuned, exploit, settings, meta, folder)
    if save:
        from .presets import save_tuned

        # Every parameter's value, on the variant's hand-set preset: the entry never
        # refers to a tuned preset (itself).
        values = v.policy_values({**current, "preset": v.default_policy})
        meta["saved"] = str(save_tuned(v.name, n, values, exploit, settings))
    if write:
        files = R.write_table(folder, "steps", result.steps)
        R.write_json(folder / R.RUN, {"kind": "tune", "settings": settings, "meta": meta, "tuned": tuned,
                                      "exploitability": exploit, "files": files, **R.provenance(),
                                      "command": command,
                                      "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
        result.files = [*files, R.RUN, TUNE_STATE]
    return result
