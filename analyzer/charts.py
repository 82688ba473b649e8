"""Charts of sweeps and runs (matplotlib, drawn off-screen): each readable without
the table, titled with the variant, the players and the deals behind it."""

from pathlib import Path

import numpy as np

from .text import count_of
from .variants import get_variant

Z95 = 1.959963984540054
SIZE = (8, 5)  # inches
DPI = 100  # so a chart is 800 x 500 pixels


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # no display: files only
    import matplotlib.pyplot as plt

    return plt


def _save(fig, folder, name):
    from .results import atomic_write

    atomic_write(Path(folder) / name, lambda f: fig.savefig(f, format="png", dpi=DPI), mode="wb")
    _pyplot().close(fig)
    return name


def _slice(summary, names, keep, best):
    """The rows of ``summary`` where every parameter but ``keep`` sits at the best
    point's value (the whole summary for a one-parameter sweep)."""
    mask = np.ones(len(summary), bool)
    for name in names:
        if name not in keep:
            mask &= np.isclose(summary[name].to_numpy(float), float(best[name]))
    return summary[mask]


def sweep_charts(result, folder):
    """``<metric>_<param>.png`` for each swept parameter (the others at the best
    point), and ``<metric>_<p1>_<p2>.png``, a heatmap over the first two. Returns the
    file names."""
    s = result.settings
    v = get_variant(s["variant"])
    names = [name for name, _ in s["grid"]]
    summary, best, p = result.summary, result.best, result.primary
    who = "every seat alike, seat 0" if s["seat"] == "all" else f"seat {s['seat']}"
    label = {"ev": "net per deal (antes)", "p_win": "share of the games won", "total": "final total (points)"}[p]
    header = f"{v.title}, {count_of(s['players'], 'player')}, {result.meta['deals']:,} {v.unit} a point"
    files = []
    plt = _pyplot()
    for name in names:
        part = _slice(summary, names, [name], best).sort_values(name)
        if len(part) < 2:
            continue
        x, y, se = part[name].to_numpy(float), part[p].to_numpy(float), part[f"{p}_se"].to_numpy(float)
        fig, ax = plt.subplots(figsize=SIZE)
        ax.fill_between(x, y - Z95 * se, y + Z95 * se, alpha=0.25, label="95% interval")
        ax.plot(x, y, marker="o", label=f"{who}: {p}")
        ref = summary[summary.reference]
        if len(ref):
            ax.axhline(float(ref[p].iloc[0]), color="grey", linestyle="--", linewidth=1, label="reference point")
        if p != "total":  # break-even: no net, or an even share of the wins
            ax.axhline(0.0 if p == "ev" else 1.0 / s["players"], color="black", linewidth=0.6)
        others = [f"{k}={best[k]:g}" for k in names if k != name]
        ax.set_title(f"{header}\n{who}: {p} against {name}" + (f" ({', '.join(others)})" if others else ""),
                     fontsize=10)
        ax.set_xlabel(name)
        ax.set_ylabel(label)
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        files.append(_save(fig, folder, f"{p}_{name}.png"))
    if len(names) >= 2:
        a, b = names[:2]
        part = _slice(summary, names, [a, b], best)
        grid = part.pivot_table(index=b, columns=a, values=p)
        fig, ax = plt.subplots(figsize=SIZE)
        image = ax.imshow(grid.to_numpy(float), origin="lower", aspect="auto", cmap="viridis")
        ax.set_xticks(range(grid.shape[1]), [f"{x:g}" for x in grid.columns], fontsize=8)
        ax.set_yticks(range(grid.shape[0]), [f"{y:g}" for y in grid.index], fontsize=8)
        ax.set_xlabel(a)
        ax.set_ylabel(b)
        fig.colorbar(image, ax=ax, label=label)
        if grid.size <= 144:  # the value in each cell, readable without the colour scale
            for (i, j), value in np.ndenumerate(grid.to_numpy(float)):
                ax.text(j, i, f"{value:+.3f}", ha="center", va="center", fontsize=7, color="white")
        others = [f"{k}={best[k]:g}" for k in names[2:]]
        ax.set_title(f"{header}\n{who}: {p} over {a} and {b}" + (f" ({', '.join(others)})" if others else ""),
                     fontsize=10)
        files.append(_save(fig, folder, f"{p}_{a}_{b}.png"))
    return files


def winning_hands_chart(frame, variant, deals, folder, name="winning_hands.png", half="high"):
    """Bars of how often each category of hand wins the ``half`` (high, or low: the
    lows by their top card), one colour per number of players (as the R package
    wildpoker draws it). ``frame``: players, hand, probability, probability_se
    (``analyzer.tour.winning_hands``, ``analyzer.report.low_wins``)."""
    v = get_variant(variant)
    plt = _pyplot()
    hands = [h for h in dict.fromkeys(frame.hand) if frame[frame.hand == h].probability.max() >= 0.0005]
    counts = sorted(frame.players.unique())
    fig, ax = plt.subplots(figsize=SIZE)
    width = 0.8 / len(counts)
    for k, n in enumerate(counts):
        part = frame[frame.players == n].set_index("hand").reindex(hands).fillna(0.0)
        x = np.arange(len(hands)) + (k - (len(counts) - 1) / 2) * width
        ax.bar(x, part.probability, width, yerr=Z95 * part.probability_se, label=f"{n} players", capsize=2)
    ax.set_xticks(range(len(hands)), hands, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(f"share of deals the {half} half went to it")
    what = "the winning high hand" if half == "high" else "the winning low (5-low = a wheel)"
    ax.set_title(f"{v.title}: {what} by number of players\n"
                 f"{deals:,} deals each, every seat on the default field", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return _save(fig, folder, name)
