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
# # Train Wreck: when a fee pays, and what a pair of 5s is worth
#
# Seven-card stud where each table card is offered in turn: accept it, or pay a fee (4, 8,
# 16 chips on streets 4-6) for a fresh card. Pairs among the table cards act: 2s get an
# extra card, 3s and 4s discard an opponent's table card, 5s steal one (RULES.md §4).
#
# 1. When does paying the fee pay? One seat's `pay_threshold` against the tuned field.
# 2. What is a pair of 5s worth? The example table, with and without the 5s' steal.
#
# Run it in Jupyter or as a script (`python notebooks/train_wreck.py`);
# `WANTIT_NOTEBOOK_SCALE` sets the share of `wantit report`'s sample sizes it plays.

# %%
from analyzer import report as R
from analyzer.notebook import chart_folder, scale, show, show_chart

SCALE = scale()
OUT = chart_folder("train_wreck")
VARIANT = "train_wreck"
show(f"scale {SCALE:g}: charts in {OUT}")

# %% [markdown]
# ## When a fee pays
# "Always pay" is the threshold -1,000,000 and "never pay" +1,000,000.

# %%
sweep = R.deciding_sweep(VARIANT, scale=SCALE)
summary = R.sweep_summary(sweep)
show(summary[["pay_threshold", "ev", "ev_se", "diff", "diff_se", "reference"]], "seat 0's net by pay threshold")
show(R.sweep_claims(summary, VARIANT), "what it shows")

# %% [markdown]
# The fee goes into a pot everyone contests, so a seat that pays often funds the others.

# %% [markdown]
# ## What a pair of 5s is worth
# `examples/train_wreck.toml`: on 5th street my table cards are Ah 5d 5h, so at the end of
# the street I steal a table card of my choice. The same table is played on twice: under
# the rules, and with the 5s' steal switched off (`--rule special_pairs=...,5=none`).

# %%
fives = R.pair_of_fives(scale=SCALE)
show(fives, "every seat, with and without the steal")
show(R.fives_claims(fives), "what it shows")

# %%
position = R.position_value(VARIANT, scale=SCALE)
show_chart(OUT / R.position_chart(position, VARIANT, OUT))
show(R.position_claims(position, VARIANT), "position")

# %% [markdown]
# ## Conclusions
# - Pay only when a fresh card is clearly better than the one offered; paying every time
#   is ruinous.
# - A pair of 5s among the table cards is a weapon: the steal moves a large share of the
#   pot on the example table (the numbers above).
