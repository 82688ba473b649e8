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
# # Selection/Rejection: when to refuse a card, and what a refusal hands on
#
# Each face-up card is offered in turn; a player may refuse it twice over, and the third
# player offered must take it (RULES.md §1). This notebook asks two questions a player
# brings to the table, with the numbers measured by the package:
#
# 1. How picky should I be? One seat's `take_threshold` (take a card when its estimated
#    gain reaches it) against four players of the tuned default field.
# 2. When I refuse, what do I hand the next player, who may have to take the card?
#
# Open it in Jupyter (jupytext reads this percent-format file as a notebook) or run it as
# a script: `python notebooks/selection_rejection.py`. `WANTIT_NOTEBOOK_SCALE` sets the
# share of `wantit report`'s sample sizes it plays (default 0.25; the tests run it small).
# Every number comes with its 95% interval.

# %%
from analyzer import report as R
from analyzer.notebook import chart_folder, scale, show, show_chart

SCALE = scale()
OUT = chart_folder("selection_rejection")
VARIANT = "selection_rejection"
show(f"scale {SCALE:g}: charts in {OUT}")

# %% [markdown]
# ## How picky should you be?
# Seat 0 tries each threshold on the same deals (common random numbers), so each
# difference from the tuned value is measured deal by deal. "Always take" is the
# threshold -1,000,000.

# %%
sweep = R.deciding_sweep(VARIANT, scale=SCALE)
summary = R.sweep_summary(sweep)
show(summary[["take_threshold", "ev", "ev_se", "diff", "diff_se", "reference"]], "seat 0's net by take threshold")
show(R.sweep_claims(summary, VARIANT), "what it shows")

# %% [markdown]
# Refusing too much throws away cards; taking everything fills the hand with cards that
# help nobody. The tuned field sits where no seat gains by being pickier or less picky.

# %% [markdown]
# ## What a refusal hands the next player
# The example table (`examples/selection_rejection.toml`): I hold As 5s with the Ah up and
# am offered the 8c after one refusal. If I refuse, it is the card's second refusal and the
# next seat must take it. Below, every seat's share of the pot and net after each choice.

# %%
handoff = R.refusal_handoff(scale=SCALE)
show(handoff, "each seat after I take and after I refuse")
show(R.refusal_claims(handoff), "what it shows")

# %% [markdown]
# ## The value of position and the hands that win

# %%
position = R.position_value(VARIANT, scale=SCALE)
show_chart(OUT / R.position_chart(position, VARIANT, OUT))
show(R.position_claims(position, VARIANT), "position")

# %%
from analyzer.charts import winning_hands_chart
from analyzer.tour import winning_hands

hand_deals = R.scaled(R.HAND_DEALS, SCALE)
hands = winning_hands(VARIANT, deals=hand_deals, seed=R.SEED)
show_chart(OUT / winning_hands_chart(hands, VARIANT, hand_deals, OUT))
show(R.winning_claims(hands), "which hands win")

# %% [markdown]
# ## Conclusions
# - Take a card when its estimated gain clears the tuned threshold; the sweep above shows
#   how much the extremes cost (always taking is far worse than being a little picky).
# - A refusal is not free: when it is the card's second, it forces the card on the next
#   player. On the example table the committed report (scale 1) measures that it hurts
#   them, so the refusal also denies; at a notebook's smaller scale the claim printed above
#   may find the difference within the noise.
# - The tuned presets, and how far a seat could still gain by deviating, are in
#   `results/report/README.md`; `wantit report` regenerates every number here at full size.
