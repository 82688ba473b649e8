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
# # Do Ya: how often five of a kind appears and wins
#
# Five-card stud where each player's hole card is wild for that player; face-up cards are
# offered and may be refused into a pool that later players may take from (RULES.md §3).
# With a wild card in every hand, hands run high. The questions:
#
# 1. How often does a seat make five of a kind, and how often does it win the high half?
# 2. When should I take the offered card? One seat's `take_threshold` against the tuned field.
#
# Run it in Jupyter or as a script (`python notebooks/do_ya.py`); `WANTIT_NOTEBOOK_SCALE`
# sets the share of `wantit report`'s sample sizes it plays.

# %%
from analyzer import report as R
from analyzer.notebook import chart_folder, scale, show, show_chart

SCALE = scale()
OUT = chart_folder("do_ya")
VARIANT = "do_ya"
show(f"scale {SCALE:g}: charts in {OUT}")

# %% [markdown]
# ## Five of a kind

# %%
deals = R.scaled(R.HAND_DEALS, SCALE)
five = R.five_of_a_kind(deals=deals)
show(five, "five of a kind by number of players")
show(R.five_kind_claims(five), "what it shows")

# %%
from analyzer.charts import winning_hands_chart
from analyzer.tour import winning_hands

hands = winning_hands(VARIANT, deals=deals, seed=R.SEED)
show_chart(OUT / winning_hands_chart(hands, VARIANT, deals, OUT))
show(R.winning_claims(hands), "which hands win")

# %% [markdown]
# Five of a kind needs four of a kind face up beside the wild hole card, so it stays rare
# (well under one deal in a hundred per seat); four of a kind is what usually wins at five
# and seven players.

# %% [markdown]
# ## When to take the offered card

# %%
sweep = R.deciding_sweep(VARIANT, scale=SCALE)
summary = R.sweep_summary(sweep)
show(summary[["take_threshold", "ev", "ev_se", "diff", "diff_se", "reference"]], "seat 0's net by take threshold")
show(R.sweep_claims(summary, VARIANT), "what it shows")
position = R.position_value(VARIANT, scale=SCALE)
show(R.position_claims(position, VARIANT), "position")

# %% [markdown]
# ## Conclusions
# - Five of a kind is a rare winner; plan around four of a kind.
# - Be picky: always taking the offered card costs the most of every threshold tried.
