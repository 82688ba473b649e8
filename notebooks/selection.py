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
# # Selection: how the slots score on the provisional board
#
# Eleven rounds; each round every player draws twice (three times in the last two) and
# fills one slot of their board with the points of the cards that satisfy it, or scratches
# one (RULES.md §5). Only three of the eleven slots are known from the sources: the other
# eight are PROVISIONAL placeholders, so read every number on them as a property of the
# placeholder board.
#
# 1. How does each slot score: how often is it filled, and for how much?
# 2. How much should a player aim at a slot's par? One seat's `par_weight` against the field.
#
# Run it in Jupyter or as a script (`python notebooks/selection.py`);
# `WANTIT_NOTEBOOK_SCALE` sets the share of `wantit report`'s sample sizes it plays.

# %%
from analyzer import report as R
from analyzer.notebook import chart_folder, scale, show, show_chart

SCALE = scale()
OUT = chart_folder("selection")
VARIANT = "selection"
show(f"scale {SCALE:g}: charts in {OUT}")

# %% [markdown]
# ## How the slots score

# %%
slots = R.slot_scores(scale=SCALE)
show_chart(OUT / R.slot_chart(slots, OUT))
show(slots, "per slot, one-player games")
show(R.slot_claims(slots), "what it shows")

# %% [markdown]
# ## How much to aim at par

# %%
sweep = R.deciding_sweep(VARIANT, scale=SCALE)
summary = R.sweep_summary(sweep)
show(summary[["par_weight", "p_win", "p_win_se", "diff", "diff_se", "reference"]], "seat 0's share of the wins")
show(R.sweep_claims(summary, VARIANT), "what it shows")
position = R.position_value(VARIANT, scale=SCALE)
show(R.position_claims(position, VARIANT), "position")

# %% [markdown]
# ## Conclusions
# - Cosmopolitan opens the board and is always filled first; the rare hands at the end of
#   the board are scratched most of the time.
# - Weigh a slot's par moderately: the sweep shows what too much costs.
