"""``wantit report``: the headline results a player reads, regenerated from the
package under ``results/report/``.

Per variant (``results/report/<variant>/``): the winning-hand distribution by number
of players (pot games), the value of position (each seat's net by its place after
the dealer, the dealer fixed), the variant's own questions (below), a sweep of its
deciding parameter against the tuned default field, and ``strategy.md``, a one-page
strategy card in plain words where every claim carries the number and 95% interval
behind it. Across variants: ``tuned.csv`` (and its table in ``README.md``), the tuned parameters per
variant and player count with their exploitability.

The questions (the notebooks ask the same ones, through the same functions, at a
small size):

* Selection/Rejection, ``refusal_handoff``: what refusing a card hands the next
  player, on the example table.
* Anaconda, ``low_wins``: how often a wheel (5-low) wins the low half, and the
  sweep of which cards to pass (spite, random passing).
* Do Ya, ``five_of_a_kind``: how often a seat makes five of a kind and how often it
  takes the high half.
* Train Wreck, ``pair_of_fives``: what a table pair of 5s (a steal) is worth on the
  example table, the same table with the 5s' steal switched off beside it.
* Selection, ``slot_scores``: how each slot of the provisional board scores.

Every part is saved as it finishes (``report.json`` lists them with the settings);
``resume`` keeps the finished parts of an interrupted report made with the same
settings and plays only the rest.
"""

import dataclasses
import time
from pathlib import Path

from .errors import WantitError
from .runs import whole
from .sweep import PRIMARY, Z95
from .variants import get_variant, pot_variant

REPORT_DIR = "report"
PLAYER_COUNTS = (3, 5, 7)
EXAMPLES = Path(__file__).parent.parent / "examples"
SEED = 2026

# Deals at scale 1 (Selection: games).
HAND_DEALS = 200_000  # each player count, for the winning hands
POSITION_DEALS = {"pot": 400_000, "scored": 8_000}
SWEEP_DEALS = {"pot": 200_000, "scored": 4_000}
QUERY_PRECISION = 0.004  # the example-table equities: half-width on the share
SLOT_GAMES = 8_000

# The deciding parameters swept against the tuned field: (players, grid).
SWEEPS = {
    "selection_rejection": (5, {"take_threshold": [-1e6, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5]}),
    "do_ya": (5, {"take_threshold": [-1e6, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5]}),
    "anaconda": (5, {"random_pass": [0, 1], "spite_weight": [0.0, 0.5, 1.0, 2.0]}),
    "train_wreck": (5, {"pay_threshold": [-1e6, -0.5, 0.0, 0.25, 0.5, 1.0, 1e6]}),
    "selection": (4, {"par_weight": [0.0, 0.5, 1.0, 2.0, 3.0]}),
}
ALWAYS = 1e5  # a threshold this far out stands for "always" / "never"


def _players(v):
    return 5 if v.kind == "pot" else 4


def _interval(value, se, digits=3):
    return f"{value:+.{digits}f} ± {Z95 * se:.{digits}f}"


def _significant(value, se):
    return abs(value) > Z95 * se


def _combined(se_a, se_b):
    """The standard error of a difference of two independent estimates."""
    return (se_a**2 + se_b**2) ** 0.5


def _unit(v):
    return "antes a deal" if v.kind == "pot" else "of the games won"


def scaled(deals, scale):
    """A sample size at ``scale`` (at least 20)."""
    return max(int(deals * scale), 20)


def query_precision(scale):
    """The example-table equities' precision at ``scale`` (the same work per deal)."""
    return min(QUERY_PRECISION / scale**0.5, 0.05)


# ---------------------------------------------------------------- the questions


def position_value(variant, players=None, deals=None, seed=SEED, threads=None, scale=1.0):
    """Each seat's result by its place after the dealer, the dealer fixed at the last
    seat: a DataFrame of position (1 = the dealer's left; the dealer last), seat,
    metric (``ev`` in antes, Selection ``p_win``), value, se."""
    import pandas as pd

    v = get_variant(variant)
    n = _players(v) if players is None else whole(players, "players")
    if n < 2:
        raise WantitError("a seat's position needs two players or more")
    deals = scaled(POSITION_DEALS[v.kind], scale) if deals is None else int(deals)
    r = v.simulate(players=n, deals=deals, seed=seed, threads=threads, rotate_dealer=False)
    metric = PRIMARY[v.kind]
    s = r.seats
    out = pd.DataFrame({"position": s.seat + 1, "seat": s.seat, "metric": metric, "value": s[metric],
                        "se": s[f"{metric}_se"]})
    return out.assign(players=n, deals=int(r.meta.get("deals", r.meta.get("games"))))


def tuned_table():
    """The tuned presets: variant, players, parameter, tuned value, hand-set value,
    and the exploitability (gain, gain_se: what one seat could still gain by
    changing its parameters, antes a deal or share of the wins)."""
    import pandas as pd

    from .presets import _load

    rows = []
    for name, entries in _load().items():
        v = get_variant(name)
        base = v.policy_values(v.default_policy)
        for players, entry in sorted(entries.items(), key=lambda kv: int(kv[0])):
            e = entry["exploitability"]
            for param, value in entry["values"].items():
                if param == "preset":
                    continue
                rows.append({"variant": name, "players": int(players), "parameter": param, "tuned": value,
                             "hand_set": base[param], "exploitability": e["gain"],
                             "exploitability_se": e["gain_se"], "checked_on": e["deals"]})
    return pd.DataFrame(rows)


def _example(variant):
    from .table import load_table

    path = EXAMPLES / f"{variant}.toml"
    if not path.exists():  # examples/ is in the source tree, not in a wheel
        raise WantitError(f"the example table {path} is missing: run wantit report from a checkout of wantit")
    return load_table(path)


def _equity_rows(table, label, precision, seed, rules=None, threads=None):
    from .equity import equity

    r = equity(table, precision=precision, seed=seed, rules=rules, threads=threads)
    s = r.seats
    return s.assign(case=label, deals=int(r.meta["deals"]))[["case", "seat", "share", "share_se", "ev", "ev_se",
                                                              "deals"]]


def refusal_handoff(precision=None, seed=SEED, threads=None, scale=1.0):
    """Selection/Rejection: the example table (seat 0 offered the 8c after one
    refusal) played on after I take the card and after I refuse it (the next seat
    must then take it: the second refusal). Rows per case and seat: share, ev with
    their errors. The next seat's difference is what my refusal hands it."""
    import pandas as pd

    precision = query_precision(scale) if precision is None else precision
    t = _example("selection_rejection")
    n = t.players
    up = {str(k): v for k, v in t.up.items()}
    me = str(t.me)
    after_take = dataclasses.replace(t, up={**up, me: f"{up.get(me, '')} {t.offer}".strip()}, offer=None,
                                     to=(t.me + 1) % n, refusals=0)
    after_refuse = dataclasses.replace(t, to=(t.me + 1) % n, refusals=t.refusals + 1)
    return pd.concat([_equity_rows(after_take, "take", precision, seed, threads=threads),
                      _equity_rows(after_refuse, "refuse", precision, seed, threads=threads)], ignore_index=True)


def low_wins(variant="anaconda", players=PLAYER_COUNTS, deals=None, seed=SEED, threads=None, scale=1.0):
    """Who takes the low half, by number of players: players, hand (5-low = a wheel,
    ..., "no qualifying low", "low half not won, a low held"), probability,
    probability_se."""
    import pandas as pd

    from .simulate import simulate

    pot_variant(variant, "low halves are")
    deals = scaled(HAND_DEALS, scale) if deals is None else int(deals)
    frames = []
    for n in players:
        r = simulate(variant, players=n, deals=deals, seed=seed, threads=threads)
        part = r.winning[(r.winning.half == "low") & (r.winning.probability > 0)].drop(columns="half")
        frames.append(part.assign(players=n, deals=int(r.meta["deals"])))
    return pd.concat(frames, ignore_index=True)[["players", "hand", "probability", "probability_se", "deals"]]


def five_of_a_kind(players=PLAYER_COUNTS, deals=None, seed=SEED, threads=None, scale=1.0):
    """Do Ya: per number of players, the chance a given seat ends with five of a
    kind (``p_made``, seats pooled), and the chance the high half goes to five of a
    kind (``p_wins``)."""
    import math

    import pandas as pd

    from .simulate import simulate

    deals = scaled(HAND_DEALS, scale) if deals is None else int(deals)
    rows = []
    for n in players:
        r = simulate("do_ya", players=n, deals=deals, seed=seed, threads=threads)
        c = r.categories
        made = float(c[c.category == "Five of a kind"].probability.mean())
        w = r.winning[(r.winning.half == "high") & (r.winning.hand == "Five of a kind")].iloc[0]
        d = int(r.meta["deals"])
        rows.append({"players": n, "p_made": made, "p_made_se": math.sqrt(made * (1 - made) / (d * n)),
                     "p_wins": float(w.probability), "p_wins_se": float(w.probability_se), "deals": d})
    return pd.DataFrame(rows)


NO_STEAL = "2=extra_card,3=discard_opp,4=discard_opp,5=none"


def pair_of_fives(precision=None, seed=SEED, threads=None, scale=1.0):
    """Train Wreck: my equity on the example table (my table cards Ah 5d 5h on 5th
    street: a pair of 5s, which steals at the end of the street) under the rules,
    and the same table with the 5s' steal switched off (``special_pairs`` with
    5=none): the difference is what the steal is worth; the pair's own strength is
    in both."""
    import pandas as pd

    precision = query_precision(scale) if precision is None else precision
    t = _example("train_wreck")
    return pd.concat([_equity_rows(t, "steal", precision, seed, threads=threads),
                      _equity_rows(t, "no steal", precision, seed, rules={"special_pairs": NO_STEAL},
                                   threads=threads)], ignore_index=True)


def slot_scores(players=1, games=None, seed=SEED, threads=None, batches=8, scale=1.0):
    """Selection: per slot of the provisional board, how often it is filled with
    points, scratched, and its mean score (all games, and when filled), pooled over
    the seats. The games are played in ``batches`` of their own seeds, and each
    column's standard error (``*_se``) is the spread of the batch means."""
    import pandas as pd

    v = get_variant("selection")
    games = scaled(SLOT_GAMES, scale) if games is None else int(games)
    columns = ["fill_rate", "scratch_rate", "mean_score", "mean_when_filled"]
    size = max(int(games) // batches, 1)
    parts = []
    for b in range(batches):
        r = v.simulate(players=players, deals=size, seed=seed + b, threads=threads)
        parts.append(r.slots.groupby(["slot", "id", "kind"], as_index=False)[columns].mean().assign(batch=b))
    every = pd.concat(parts, ignore_index=True)
    grouped = every.groupby(["slot", "id", "kind"], sort=True)
    out = grouped[columns].mean().reset_index()
    se = (grouped[columns].std(ddof=1) / batches**0.5).reset_index(drop=True)
    for c in columns:
        out[f"{c}_se"] = se[c].to_numpy()
    return out.assign(players=players, games=size * batches)


def sweep_summary(result):
    """A deciding sweep's summary with its players and deals (what ``sweep_claims``
    reads)."""
    return result.summary.assign(players=result.settings["players"], deals=int(result.meta["deals"]))


def deciding_sweep(variant, deals=None, seed=SEED, threads=None, results=None, progress=None, scale=1.0):
    """One seat's deciding parameter(s) (``SWEEPS``) against the tuned default field:
    a ``SweepResult`` (written under ``results/<variant>/sweep/`` when ``results``
    is given)."""
    from .sweep import field_specs, sweep

    v = get_variant(variant)
    players, grid = SWEEPS[v.name]
    deals = scaled(SWEEP_DEALS[v.kind], scale) if deals is None else int(deals)
    own = field_specs(v, players, None)[0]
    # the field's own values join the grid, so the reference point is the tuned seat
    grid = {k: sorted({*map(float, values), float(own[k])}) for k, values in grid.items()}
    return sweep(v.name, grid, players=players, deals=deals, seed=seed, threads=threads, results=results or ".",
                 run_id="sweep", write=results is not None, progress=progress, command="wantit report")


# ---------------------------------------------------------------- charts


def position_chart(frame, variant, folder, name="position.png"):
    """Bars of each position's result with 95% intervals."""
    from .charts import SIZE, _pyplot, _save

    v = get_variant(variant)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=SIZE)
    n = int(frame.players.iloc[0])
    labels = [f"{p}" + (" (dealer)" if p == n else "") for p in frame.position]
    ax.bar(labels, frame.value, yerr=Z95 * frame.se, capsize=4, color="tab:blue")
    metric = frame.metric.iloc[0]
    ax.axhline(0.0 if metric == "ev" else 1.0 / n, color="black", linewidth=0.8)
    ax.set_xlabel("place after the dealer (1 = the dealer's left, who acts first)")
    ax.set_ylabel("net per deal (antes)" if metric == "ev" else "share of the games won")
    ax.set_title(f"{v.title}: the value of position, {n} players\n"
                 f"{int(frame.deals.iloc[0]):,} {v.unit}, the dealer fixed, every seat on the default field",
                 fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return _save(fig, folder, name)


def low_wins_chart(frame, variant, deals, folder, name="low_wins.png"):
    """Bars of which low takes the low half, one colour per number of players."""
    from .charts import winning_hands_chart

    return winning_hands_chart(frame, variant, deals, folder, name, half="low")


def slot_chart(frame, folder, name="slots.png"):
    """Each slot's mean score when filled, with how often it is filled."""
    from .charts import SIZE, _pyplot, _save

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=SIZE)
    ax.bar(frame.id, frame.mean_score, yerr=Z95 * frame.mean_score_se, capsize=3, color="tab:blue",
           label="mean score (scratches count 0), 95% interval")
    ax.plot(frame.id, frame.mean_when_filled, "o", color="tab:orange", label="mean score when filled with points")
    for x, (rate, score) in enumerate(zip(frame.fill_rate, frame.mean_when_filled)):
        ax.text(x, score + 2, f"{rate:.0%}", ha="center", fontsize=7)
    ax.set_xticks(range(len(frame)), frame.id, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("points")
    ax.set_ylim(0, 1.3 * max(frame.mean_when_filled.max(), 1.0))  # room for the legend above the labels
    ax.set_title("Selection: how each slot of the PROVISIONAL board scores (labels: how often it is filled)\n"
                 f"{int(frame.games.iloc[0]):,} games, {int(frame.players.iloc[0])} player(s), default policy",
                 fontsize=10)
    ax.legend(fontsize=8, loc="upper center", ncol=2)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return _save(fig, folder, name)


# ---------------------------------------------------------------- strategy cards


def _value_text(name, value):
    if value <= -ALWAYS:
        return {"pay_threshold": "always pay"}.get(name, "always take")
    if value >= ALWAYS:
        return {"pay_threshold": "never pay"}.get(name, "never take")
    return f"{name}={value:g}"


def _point_text(row, names):
    return ", ".join(_value_text(k, float(row[k])) for k in names)


def sweep_claims(summary, variant):
    """What a deciding sweep shows (``sweep_summary``), in sentences: the tuned
    seat's own point, the best point tried, and the worst, each with its difference
    (deal by deal)."""
    v = get_variant(variant)
    players, deals = int(summary.players.iloc[0]), int(summary.deals.iloc[0])
    names = [c for c in summary.columns if c not in ("point", "diff", "diff_se", "reference", "players", "deals")
             and not c.startswith(("ev", "p_win"))]
    p, unit = PRIMARY[v.kind], _unit(v)
    ref = summary[summary.reference].iloc[0]
    others = summary[~summary.reference]
    best = others.loc[others["diff"].idxmax()]
    worst = others.loc[others["diff"].idxmin()]
    lines = [f"Seat 0 against {players - 1} tuned players ({deals:,} {v.unit} a point, every point on the same "
             f"{v.unit}): the tuned {_point_text(ref, names)} gives {_interval(ref[p], ref[p + '_se'])} {unit}."]
    if _significant(best["diff"], best.diff_se) and best["diff"] > 0:
        lines.append(f"{_point_text(best, names)} does better, by {_interval(best['diff'], best.diff_se)}: "
                     "the tuned value is not the best against this field.")
    elif best["diff"] == 0 and best.diff_se == 0:
        lines.append(f"No value tried beats it; {_point_text(best, names)} plays exactly as it on every deal "
                     f"(a difference of {_interval(0.0, 0.0)}).")
    else:
        lines.append(f"No value tried beats it beyond the noise; the closest, {_point_text(best, names)}, "
                     f"differs by {_interval(best['diff'], best.diff_se)}.")
    lines.append(f"The worst tried, {_point_text(worst, names)}, costs {_interval(-worst['diff'], worst.diff_se)} "
                 f"{unit}.")
    return lines


def position_claims(frame, variant):
    v = get_variant(variant)
    n, unit = int(frame.players.iloc[0]), _unit(v)
    best = frame.loc[frame.value.idxmax()]
    worst = frame.loc[frame.value.idxmin()]
    spread_se = _combined(best.se, worst.se)

    def place(row):
        return "the dealer" if int(row.position) == n else f"place {int(row.position)} after the dealer"

    line = (f"With the dealer fixed at {n} players, {place(best)} does best ({_interval(best.value, best.se)} "
            f"{unit}) and {place(worst)} worst ({_interval(worst.value, worst.se)}).")
    if _significant(best.value - worst.value, spread_se):
        return [line + f" Position is worth {_interval(best.value - worst.value, spread_se)} {unit} between them."]
    return [line + " The gap between them is within the noise: position matters little here."]


def winning_claims(frame):
    parts = []
    for n in sorted(frame.players.unique()):
        part = frame[frame.players == n].sort_values("probability", ascending=False).iloc[0]
        parts.append(f"at {n} players {part.hand} ({part.probability:.1%} ± {Z95 * part.probability_se:.1%})")
    return ["The hand that most often takes the high half: " + "; ".join(parts) + "."]


def _changes(rows):
    """The tuned parameters that differ from the hand-set ones, as text."""
    return ", ".join(f"{r.parameter} {r.hand_set:g} → {r.tuned:g}" for r in rows.itertuples() if r.tuned != r.hand_set)


def tuned_claims(frame, variant):
    part = frame[frame.variant == variant]
    lines = []
    for n, rows in part.groupby("players"):
        e, what = rows.iloc[0], _changes(rows)
        lines.append(f"{n} players: the tuning's last best response (one seat changing its parameters) gains "
                     f"{_interval(e.exploitability, e.exploitability_se)} on {e.checked_on:,} fresh "
                     f"{get_variant(variant).unit}; " + (f"tuned from the hand-set values: {what}." if what else
                                   "the hand-set values, already a fixed point of the tuning."))
    return lines


def refusal_claims(frame):
    me, nxt = 0, 1
    a = frame[(frame.case == "take") & (frame.seat == me)].iloc[0]
    b = frame[(frame.case == "refuse") & (frame.seat == me)].iloc[0]
    x = frame[(frame.case == "take") & (frame.seat == nxt)].iloc[0]
    y = frame[(frame.case == "refuse") & (frame.seat == nxt)].iloc[0]
    t = _example("selection_rejection")
    gain_se, hand_se = _combined(a.ev_se, b.ev_se), _combined(x.ev_se, y.ev_se)
    better = "refusing" if b.ev > a.ev else "taking"
    return [f"On the example table (examples/selection_rejection.toml: I hold {t.hole.get('0', t.hole.get(0))} "
            f"under {t.up.get('0', t.up.get(0))}, and am offered the {t.offer} after {t.refusals} refusal), "
            f"taking it gives me {_interval(a.ev, a.ev_se)} antes, refusing {_interval(b.ev, b.ev_se)}: "
            f"{better} is better by {_interval(abs(b.ev - a.ev), gain_se)} (two independent runs).",
            f"My refusal is the card's second, so seat {nxt} must take it: seat {nxt}'s net goes from "
            f"{_interval(x.ev, x.ev_se)} (I take) to {_interval(y.ev, y.ev_se)} (I refuse): "
            f"{_interval(y.ev - x.ev, hand_se)} antes. " + (
                "The forced card hurts it: here a refusal also denies." if y.ev < x.ev and _significant(y.ev - x.ev, hand_se)
                else "The card helps it: weigh that against my own gain." if _significant(y.ev - x.ev, hand_se)
                else "The difference to it is within the noise.")]


def low_claims(frame):
    parts = []
    for n in sorted(frame.players.unique()):
        row = frame[(frame.players == n) & (frame.hand == "5-low")]
        if len(row):
            r = row.iloc[0]
            parts.append(f"{n} players {r.probability:.1%} ± {Z95 * r.probability_se:.1%}")
    lines = ["A wheel (5-low, the best low) takes the low half in " + "; ".join(parts) + " of deals."]
    counts = sorted(frame.players.unique())
    if len(counts) > 1:
        def six_or_better(n):
            part = frame[frame.players == n]
            p = float(part[part.hand.isin(["5-low", "6-low"])].probability.sum())
            return f"{p:.1%} ± {Z95 * (p * (1 - p) / int(part.deals.iloc[0])) ** 0.5:.1%}"

        few, many = counts[0], counts[-1]
        lines.append(f"A 6-low or better takes the low half in {six_or_better(few)} of deals at {few} players and "
                     f"{six_or_better(many)} at {many}.")
    return lines


def five_kind_claims(frame):
    parts = [f"{int(r.players)} players: a seat makes it {r.p_made:.2%} ± {Z95 * r.p_made_se:.2%} of deals, "
             f"and the high half goes to it {r.p_wins:.2%} ± {Z95 * r.p_wins_se:.2%}" for r in frame.itertuples()]
    return ["Five of a kind (four naturals and the wild hole card): " + "; ".join(parts) + "."]


def fives_claims(frame):
    a = frame[(frame.case == "steal") & (frame.seat == 0)].iloc[0]
    b = frame[(frame.case == "no steal") & (frame.seat == 0)].iloc[0]
    se, ev_se = _combined(a.share_se, b.share_se), _combined(a.ev_se, b.ev_se)
    return [f"On the example table (examples/train_wreck.toml: my table cards Ah 5d 5h on 5th street), my share of "
            f"the pot is {_interval(a.share, a.share_se)} with the pair's steal and {_interval(b.share, b.share_se)} "
            f"with the 5s' steal switched off: the steal is worth {_interval(a.share - b.share, se)} of the pot, "
            f"{_interval(a.ev - b.ev, ev_se)} antes (two independent runs). Take the card that makes a pair of 5s."]


def slot_claims(frame):
    easy = frame.sort_values("fill_rate", ascending=False).iloc[0]
    hard = frame.sort_values("fill_rate").iloc[0]
    rich = frame.sort_values("mean_score", ascending=False).iloc[0]

    def share(row, column):
        return f"{row[column]:.1%} ± {Z95 * row[column + '_se']:.1%}"

    def points(row, column):
        return f"{row[column]:.1f} ± {Z95 * row[column + '_se']:.1f}"

    return [f"On the PROVISIONAL board (slots 4-11 are placeholders), over {int(frame.games.iloc[0]):,} one-player "
            f"games: {easy.id} is filled with points most often ({share(easy, 'fill_rate')} of games), {hard.id} "
            f"least ({share(hard, 'fill_rate')}; scratched {share(hard, 'scratch_rate')}).",
            f"{rich.id} scores the most on average, {points(rich, 'mean_score')} points a game."]


# ---------------------------------------------------------------- the run


def _parts(v, scale, seed, threads, folder, progress):
    """``(part, compute, draw)`` for one variant: ``compute()`` returns the part's
    frame, ``draw(frame)`` draws its charts and returns their names."""
    from .charts import winning_hands_chart
    from .tour import winning_hands

    run = {"seed": seed, "threads": threads, "scale": scale}
    hand_deals = scaled(HAND_DEALS, scale)
    here = folder / v.name
    out = []
    if v.kind == "pot":
        out.append(("winning_hands", lambda: winning_hands(v.name, players=PLAYER_COUNTS, deals=hand_deals, seed=seed,
                                                           threads=threads),
                    lambda f: [winning_hands_chart(f, v.name, hand_deals, here)]))
    out.append(("position", lambda: position_value(v.name, **run), lambda f: [position_chart(f, v.name, here)]))

    def the_sweep():
        from .tour import _clear

        _clear(here / "sweep")
        return sweep_summary(deciding_sweep(v.name, results=folder, progress=progress, **run))

    out.append(("sweep", the_sweep, lambda f: [f"sweep/{name}" for name in sorted(
        p.name for p in (here / "sweep").glob("*.png"))]))
    question = {
        "selection_rejection": ("refusal", lambda: refusal_handoff(**run), lambda f: []),
        "anaconda": ("low_wins", lambda: low_wins(v.name, **run),
                     lambda f: [low_wins_chart(f, v.name, hand_deals, here)]),
        "do_ya": ("five_of_a_kind", lambda: five_of_a_kind(**run), lambda f: []),
        "train_wreck": ("pair_of_fives", lambda: pair_of_fives(**run), lambda f: []),
        "selection": ("slots", lambda: slot_scores(**run), lambda f: [slot_chart(f, here)]),
    }
    return out + [question[v.name]]


QUESTION_CLAIMS = {"refusal": ("What a refusal hands on", refusal_claims),
                   "low_wins": ("How often a wheel wins low", low_claims),
                   "five_of_a_kind": ("Five of a kind", five_kind_claims),
                   "pair_of_fives": ("What a pair of 5s is worth", fives_claims),
                   "slots": ("How the slots score", slot_claims)}
SWEEP_TITLES = {"selection_rejection": "When to take and when to refuse",
                "do_ya": "When to take the offered card",
                "anaconda": "Which cards to pass",
                "train_wreck": "When a fee pays",
                "selection": "How much to aim at the par of a slot"}


def strategy_card(v, frames, tuned, files, meta):
    """The variant's one-page strategy card (Markdown): every claim with its number
    and interval."""
    lines = [f"# {v.title}: a strategy card", "",
             f"Made by `wantit report` (wantit {meta['version']}, commit {meta['git_commit'] or 'unknown'}, "
             f"seed {meta['seed']}). Every number is measured by the package, with its 95% interval; "
             f"{'nets are antes a deal' if v.kind == 'pot' else 'results are shares of the games won'}. "
             "The field is the tuned default (`wantit variants " + v.name + "`).", ""]

    def section(title, claims, images=()):
        lines.extend([f"## {title}", ""] + [f"- {c}" for c in claims] + [""])
        lines.extend(f"![{title}]({name})" for name in images)
        if images:
            lines.append("")

    if "sweep" in frames:
        s = frames["sweep"]
        section(SWEEP_TITLES[v.name], sweep_claims(s, v.name), files.get("sweep", [])[:1])
    for part, (title, claims) in QUESTION_CLAIMS.items():
        if part in frames:
            section(title, claims(frames[part]), files.get(part, []))
    if "winning_hands" in frames:
        section("Which hands win", winning_claims(frames["winning_hands"]), files.get("winning_hands", []))
    section("Position", position_claims(frames["position"], v.name), files.get("position", []))
    if tuned is not None and (tuned.variant == v.name).any():
        section("The tuned field", tuned_claims(tuned, v.name))
    return "\n".join(lines)


@dataclasses.dataclass
class ReportResult:
    folder: Path
    files: list
    cards: dict  # variant -> the strategy card's text
    frames: dict  # variant -> {part: DataFrame}
    resumed: list  # the parts kept from an interrupted report


def check_report(results="results", variants=None, scale=1.0, seed=SEED, threads=None, resume=False):
    """The chosen variants and the report's saved state to go on from (a fresh one
    unless ``resume``); ``WantitError`` for bad settings, before anything is played."""
    from .results import read_json
    from .runs import check_run
    from .variants import VARIANTS

    if not (isinstance(scale, (int, float)) and 0 < scale < 1e6):
        raise WantitError(f"scale must be a positive number below 1e6, not {scale}")
    check_run(1, seed, 1, threads)
    chosen = list(VARIANTS) if not variants else list(dict.fromkeys(get_variant(x).name for x in variants))
    settings = {"scale": float(scale), "seed": int(seed)}
    state_path = Path(results) / REPORT_DIR / "report.json"
    if not resume:
        return chosen, {"settings": settings, "parts": {}}
    if not state_path.exists():
        raise WantitError(f"nothing to resume: {state_path} does not exist")
    saved = read_json(state_path, "the report's state")
    if saved.get("settings") != settings or not isinstance(saved.get("parts"), dict):
        raise WantitError(f"{state_path} was made with {saved.get('settings')}, not {settings}: "
                          "run without --resume to start again")
    return chosen, saved


def report(results="results", variants=None, scale=1.0, seed=SEED, threads=None, resume=False, say=None,
           progress=None):
    """Regenerate the headline results under ``results/report/`` (see the module's
    description). ``scale`` multiplies every run's deals; ``say(line)`` is called as
    each part finishes."""
    import pandas as pd

    from .results import atomic_write, provenance, write_json

    chosen, state = check_report(results, variants, scale, seed, threads, resume)
    folder = Path(results) / REPORT_DIR
    settings = state["settings"]
    state_path = folder / "report.json"
    meta = {**provenance(), "seed": int(seed)}
    state["provenance"] = meta
    tuned = tuned_table()
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / "tuned.csv", lambda f: tuned.to_csv(f, index=False))
    files, cards, all_frames, resumed = ["tuned.csv"], {}, {}, []
    for name in chosen:
        v = get_variant(name)
        here = folder / name
        here.mkdir(parents=True, exist_ok=True)
        frames, charts = {}, {}
        for part, compute, draw in _parts(v, scale, seed, threads, folder, progress):
            key, csv = f"{name}/{part}", here / f"{part}.csv"
            done = state["parts"].get(key)
            if done is not None and csv.exists():
                frame = pd.read_csv(csv)
                resumed.append(key)
                charts[part] = done["charts"]
            else:
                started = time.perf_counter()
                frame = compute()
                atomic_write(csv, lambda f, frame=frame: frame.to_csv(f, index=False))
                charts[part] = draw(frame)
                state["parts"][key] = {"seconds": round(time.perf_counter() - started, 1), "charts": charts[part]}
                write_json(state_path, state)
                if say is not None:
                    say(f"{v.title}: {part} ({state['parts'][key]['seconds']:.1f} s)")
            frames[part] = frame
            files += [f"{name}/{part}.csv"] + [f"{name}/{c}" for c in charts[part]]
        cards[name] = strategy_card(v, frames, tuned, charts, meta)
        atomic_write(here / "strategy.md", lambda f, text=cards[name]: f.write(text + "\n"))
        files.append(f"{name}/strategy.md")
        all_frames[name] = frames
    index = _index(chosen, files, meta, settings, tuned)
    atomic_write(folder / "README.md", lambda f: f.write(index))
    files.append("README.md")
    return ReportResult(folder, files, cards, all_frames, resumed)


def tuned_markdown(tuned):
    rows = ["| variant | players | exploitability (antes a deal; Selection: share of wins) | changed from the "
            "hand-set values |", "|---|---|---|---|"]
    for (name, n), part in tuned.groupby(["variant", "players"], sort=False):
        e = part.iloc[0]
        changed = _changes(part)
        rows.append(f"| {get_variant(name).title} | {n} | {_interval(e.exploitability, e.exploitability_se)} | "
                    f"{changed or 'none'} |")
    return "\n".join(rows)


def _index(chosen, files, meta, settings, tuned):
    lines = ["# wantit: headline results", "",
             f"Regenerated by `wantit report` (wantit {meta['version']}, commit {meta['git_commit'] or 'unknown'}, "
             f"seed {settings['seed']}, scale {settings['scale']:g}). Each variant's folder has its strategy card, "
             "the tables (CSV) and the charts; `report.json` lists the parts and how long each took.", ""]
    for name in chosen:
        v = get_variant(name)
        lines.append(f"## {v.title}")
        lines.append("")
        lines.append(f"- [strategy card]({name}/strategy.md)")
        lines += [f"- [{Path(f).name}]({f})" for f in files if f.startswith(name + "/") and not f.endswith(".md")]
        lines.append("")
    lines += ["## The tuned presets", "", "The default field of every variant ([tuned.csv](tuned.csv)):", "",
              tuned_markdown(tuned), ""]
    return "\n".join(lines)
