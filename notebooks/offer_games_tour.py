# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # A tour of wantit: offer and passing games
#
# Open with Jupyter (jupytext reads this percent-format file as a notebook) or run it as a
# script. `WANTIT_NOTEBOOK_DEALS` sets the sample size (the test suite runs it small).

# %%
import os

import matplotlib

if os.environ.get("MPLBACKEND") is None and not os.environ.get("DISPLAY"):
    matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from analyzer import describe_high, evaluate_high, evaluate_low, describe_low
from analyzer.notebook import chart_folder, show, show_chart
from analyzer.simulate import simulate
from analyzer.trace import narrate, play_deal

DEALS = int(os.environ.get("WANTIT_NOTEBOOK_DEALS", "100000"))

# %% [markdown]
# ## Hands
# Strengths are integers, larger is better, for high and for ace-to-five low.

# %%
hand = "Kc 7d 4h 2s 3c"
print(describe_high(evaluate_high(hand, wild="Kc")), "|", describe_low(evaluate_low(hand, wild="Kc")))

# %% [markdown]
# ## One deal, narrated
# Deal 0 of seed 7, exactly as `simulate` plays it.

# %%
print("\n".join(narrate(play_deal("selection_rejection", players=5, seed=7)).splitlines()[:25]))

# %% [markdown]
# ## How picky should you be?
# Seat 0 varies its take threshold in Selection/Rejection; the other four play the hand-set
# heuristic preset (not the tuned default field). Error bars are two standard errors.

# %%
rows = []
for threshold in (-1e6, 0.0, 0.1, 0.3, 0.6, 1.0):
    spec = "always_take" if threshold < -1e5 else f"heuristic:take_threshold={threshold}"
    r = simulate("selection_rejection", players=5, deals=DEALS, seed=11, policies={"all": "heuristic", 0: spec})
    seat = r.seats.iloc[0]
    rows.append({"take_threshold": max(threshold, -0.2), "ev": seat.ev, "ev_se": seat.ev_se,
                 "p_scoop": seat.p_scoop})
sweep = pd.DataFrame(rows)
show(sweep)

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.errorbar(sweep.take_threshold, sweep.ev, yerr=2 * sweep.ev_se, marker="o", capsize=3)
ax.axhline(0, color="grey", lw=0.8)
ax.set_xlabel("seat 0 take threshold (-0.2 = always take)")
ax.set_ylabel("net per deal (antes)")
ax.set_title("Selection/Rejection, 5 players")
fig.tight_layout()
chart = chart_folder("offer_games_tour") / "take_threshold.png"
fig.savefig(chart, dpi=100)
plt.close(fig)
show_chart(chart)

# %% [markdown]
# ## Passing games: how Anaconda's pass patterns change the hands

# %%
cats = []
for schedule in ("3-2-1-left", "left-right-left", "one-pass"):
    r = simulate("anaconda", players=5, deals=DEALS, seed=3, rules={"pass_schedule": schedule})
    c = r.categories.groupby("category").probability.mean().rename(schedule)
    cats.append(c)
show(pd.concat(cats, axis=1).round(4).reset_index())
