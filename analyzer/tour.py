"""``wantit tour``: the main job on built-in settings. For every variant, a small sweep
of one seat's headline parameter against the default field (the table, its chart and
run.json under ``results/<variant>/tour/``), and for the pot games how often each
kind of hand wins by the number of players; then a summary of what they show."""

import shutil
import time
from pathlib import Path

from .errors import WantitError
from .sweep import Z95, field_specs, sweep
from .variants import get_variant, pot_variant

TOUR_ID = "tour"
PLAYER_COUNTS = (3, 5, 7)

# One parameter per variant that decides the most: (players, parameter, values, deals a
# point). The default field's own value joins the values, as the reference point.
TOUR = {
    "selection_rejection": (5, "take_threshold", [0.0, 0.25, 0.5, 0.75, 1.0, 1.5], 60_000),
    "do_ya": (5, "take_threshold", [0.0, 0.25, 0.5, 0.75, 1.0, 1.5], 60_000),
    "anaconda": (5, "aim", [0.0, 1.0, 2.0], 60_000),
    "train_wreck": (5, "pay_threshold", [-0.5, 0.0, 0.25, 0.5, 1.0], 30_000),
    "selection": (4, "par_weight", [0.0, 0.5, 1.0, 2.0, 3.0], 2_000),
}
HAND_DEALS = 50_000  # deals at each player count for the winning hands


def winning_hands(variant, players=PLAYER_COUNTS, deals=20_000, seed=0, policies=None, rules=None, threads=None):
    """How often the high half goes to each category of hand, by number of players:
    a DataFrame of players, hand, probability, probability_se."""
    import pandas as pd

    from .simulate import simulate

    pot_variant(variant, "winning hands are")
    frames = []
    for n in players:
        r = simulate(variant, players=n, deals=deals, seed=seed, policies=policies, rules=rules, threads=threads)
        part = r.winning[r.winning.half == "high"].drop(columns="half")
        frames.append(part.assign(players=n))
    out = pd.concat(frames, ignore_index=True)
    return out[["players", "hand", "probability", "probability_se"]]


def _clear(folder):
    """Remove an earlier tour's folder (only one wantit wrote: it holds run.json or
    sums.json and nothing but files)."""
    folder = Path(folder)
    if not folder.exists():
        return
    names = {p.name for p in folder.iterdir()}
    if not ({"run.json", "sums.json"} & names) or any(p.is_dir() for p in folder.iterdir()):
        raise WantitError(f"{folder} exists and is not a wantit tour: move it, or give another --results")
    shutil.rmtree(folder)


def tour(results="results", variants=None, scale=1.0, threads=None, progress=None, say=None):
    """Run the tour; returns a list of per-variant dicts (variant, sweep, best,
    winning, folder, files). ``scale`` multiplies every run's deals (the tests use a
    small one); ``say(line)`` is called as each variant finishes."""
    from . import results as R
    from .charts import winning_hands_chart

    if not scale > 0:
        raise WantitError("scale must be positive")
    chosen = list(TOUR) if variants is None else [get_variant(x).name for x in variants]
    out = []
    for name in chosen:
        started = time.perf_counter()
        v = get_variant(name)
        players, param, values, deals = TOUR[name]
        deals = max(int(deals * scale), 10)
        own = field_specs(v, players, None)[0][param]  # the default field's value: the reference point
        values = sorted({*values, float(own)})
        folder = Path(results) / name / TOUR_ID
        _clear(folder)
        r = sweep(name, {param: values}, players=players, deals=deals, seed=0, threads=threads, results=results,
                  run_id=TOUR_ID, progress=progress, command="wantit tour")
        item = {"variant": name, "sweep": r, "best": r.best, "folder": folder, "files": list(r.files),
                "winning": None}
        if v.kind == "pot":
            hand_deals = max(int(HAND_DEALS * scale), 10)
            hands = winning_hands(name, deals=hand_deals, threads=threads)
            item["winning"] = hands
            item["files"] += R.write_table(folder, "winning_hands", hands)
            item["files"].append(winning_hands_chart(hands, name, hand_deals, folder))
        item["seconds"] = round(time.perf_counter() - started, 1)
        out.append(item)
        if say is not None:
            for line in describe(item):
                say(line)
    return out


def describe(item):
    """What one variant's part of the tour shows, in a few lines."""
    from .text import wrap_line

    r, v = item["sweep"], get_variant(item["variant"])
    s = r.settings
    param = s["grid"][0][0]
    b, p = item["best"], r.primary
    ref = r.summary[r.summary.reference].iloc[0]
    unit = "antes a deal" if v.kind == "pot" else "of the games won"
    default = s["field"][s["seat"]][param]
    lines = wrap_line(f"{v.title}: {item['folder']}/ ({item['seconds']:.1f} s)")
    head = (f"  seat 0's {param} against {s['players'] - 1} default seats, {r.meta['deals']:,} {v.unit} a point: "
            f"best {param}={b[param]:g}, {p} {b[p]:+.4f} +/- {Z95 * b[p + '_se']:.4f} {unit}")
    if b.reference:
        lines += wrap_line(head + f"; the default's own {param}={default:g} is the best value tried")
    else:
        lines += wrap_line(head + f", against {ref[p]:+.4f} with the default's {param}={default:g}: "
                           f"{b['diff']:+.4f} +/- {Z95 * b.diff_se:.4f} better, measured on the same {v.unit}")
    if item["winning"] is not None:
        w = item["winning"]
        parts = []
        for n in sorted(w.players.unique()):
            top = w[w.players == n].sort_values("probability", ascending=False).iloc[0]
            parts.append(f"{n} players {top.hand} {top.probability:.0%}")
        lines += wrap_line("  the hand that most often wins high: " + "; ".join(parts))
    return lines
