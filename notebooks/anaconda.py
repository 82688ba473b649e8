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
# # Anaconda: which cards to pass, and how often a wheel wins low
#
# Seven cards each, three passes to the left (3, 2, 1 cards), then every player keeps five
# and rolls four of them up one at a time; the pot splits between the best high and the
# best low by declaration (RULES.md §2). The questions:
#
# 1. Which cards should I pass? The tuned policy passes by a spite weight (how much it
#    avoids handing the left neighbour what helps them); a random passer is the baseline.
#    (The tuned spite weight differs with the table: 0.75 at 5 players, 0 at 7.)
# 2. How often does a wheel (A-2-3-4-5) take the low half, by number of players?
#
# Run it in Jupyter or as a script (`python notebooks/anaconda.py`);
# `WANTIT_NOTEBOOK_SCALE` sets the share of `wantit report`'s sample sizes it plays.

# %%
from analyzer import report as R
from analyzer.notebook import chart_folder, scale, show, show_chart

SCALE = scale()
OUT = chart_folder("anaconda")
VARIANT = "anaconda"
show(f"scale {SCALE:g}: charts in {OUT}")

# %% [markdown]
# ## Which cards to pass
# Seat 0 passes at random (`random_pass=1`) or by the tuned rule with each spite weight,
# against four tuned players, every point on the same deals.

# %%
sweep = R.deciding_sweep(VARIANT, scale=SCALE)
summary = R.sweep_summary(sweep)
show(summary[["random_pass", "spite_weight", "ev", "ev_se", "diff", "diff_se", "reference"]],
     "seat 0's net by passing rule")
show(R.sweep_claims(summary, VARIANT), "what it shows")

# %% [markdown]
# Passing at random costs the most: the cards you pass are the cards your left neighbour
# builds with, and the cards you keep are your hand. How much spite is worth against this
# field is the small difference between the tuned rule's points.

# %% [markdown]
# ## How often a wheel wins low

# %%
low_deals = R.scaled(R.HAND_DEALS, SCALE)
lows = R.low_wins(VARIANT, deals=low_deals)
show_chart(OUT / R.low_wins_chart(lows, VARIANT, low_deals, OUT))
show(lows.drop(columns="deals"), "which low takes the low half")
show(R.low_claims(lows), "what it shows")

# %% [markdown]
# ## Which hands win high, and position

# %%
from analyzer.charts import winning_hands_chart
from analyzer.tour import winning_hands

hands = winning_hands(VARIANT, deals=low_deals, seed=R.SEED)
show_chart(OUT / winning_hands_chart(hands, VARIANT, low_deals, OUT))
show(R.winning_claims(hands), "which hands win")
position = R.position_value(VARIANT, scale=SCALE)
show(R.position_claims(position, VARIANT), "position")

# %% [markdown]
# ## Conclusions
# - Pass by a rule, never at random: a random passer loses the most of every rule tried.
# - With more players a wheel takes more of the low halves: at seven players a 6-low or
#   better is close to what it takes to win low (the numbers above).
# - A full house is the hand that most often wins high, at every table size measured.
# - The tuned field mixes: it hides its weakest card in about a fifth of hands, its strongest
#   in the rest, so the card it shows says less. No seat gains more than 0.05 antes a deal
#   by changing its parameters against it (`results/report/README.md`).
