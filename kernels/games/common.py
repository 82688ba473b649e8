"""What every game kernel shares: seat walks, the event log, the rules indices of
the showdown, and the declaration-and-showdown finish of a deal."""

import numpy as np
from numba import njit

from ..cards import NO_CARD, card_bit
from ..policies import DECLARE_HIGH, declare
from ..rng import draw, restock, stock_size
from ..showdown import SPLIT_DECLARE, settle

# Rules vector: the showdown options sit at the same indices in every game.
R_SPLIT_MODE = 0
R_LOW_QUALIFIER = 1  # low threshold strength (1 = any low)
R_DECLARE_MODE = 2  # 0 simultaneous, 1 sequential
R_BOTH_OUTRIGHT = 3
R_ALL_FAILED = 4
R_CHIP_MODE = 5
R_ODD_CHIP = 6
R_ANTE = 7
R_NATURAL_BEATS_WILD = 8
N_SHOWDOWN_RULES = 9

DECLARE_SIMULTANEOUS = 0
DECLARE_SEQUENTIAL = 1

# Event log: one row [kind, seat, card, a, b] per event.
EV_ANTE = 1  # seat, a = ante
EV_DEAL_DOWN = 2  # seat, card
EV_DEAL_UP = 3  # seat, card (dealt face up without an offer)
EV_ROUND = 4  # a = round number, seat = leader (or -1)
EV_TURN_UP = 5  # card turned up from the stock
EV_OFFER = 6  # seat offered card, a = rejections so far
EV_TAKE = 7  # seat takes card, a = 1 when forced
EV_REJECT = 8  # seat rejects card, a = rejections now
EV_DEAD = 9  # card goes dead, seat = who refused it (-1 none)
EV_POOL_TAKE = 10  # seat takes card from the pool
EV_POOL_DECLINE = 11  # seat declines the pool, a = pool size
EV_RESHUFFLE = 12  # a = cards in the new stock
EV_DECLARE = 13  # seat, a = 0 high / 1 low / 2 both
EV_HAND = 14  # seat, a = high strength, b = low strength
EV_PAYOUT = 15  # seat, a = payout in 1/1680 antes, b = net in 1/1680 antes
EV_CARRY = 16  # a = pot carried over in 1/1680 antes
EV_FORCED_NO_STOCK = 17  # seat must take a pool card: the stock is empty
EV_EXHAUSTED = 18  # no card left anywhere (only a short stacked deck): the deal is void
# Anaconda (40-49).
EV_PASS_PHASE = 40  # a = phase number, b = cards per packet (seat = -1)
EV_PASS = 41  # seat passes card to seat a
EV_DISCARD = 42  # seat discards card face down
EV_ROLL = 43  # seat turns up card, a = stack position 1..5
EV_PASS_SKIPPED = 44  # a = phase number: the offset points back to the passer (AN-A3 "skip")
# Train Wreck (50-69; RULES.md §4).
EV_STREET = 50  # seat = first to act, a = street 3..7, b = fee in chips to refuse the offered card
EV_PAY_FEE = 51  # seat pays a chips into the pot to refuse the offered card (card); a replacement follows
EV_ACCEPT = 52  # seat accepts the offered card free, a = 1 when paying was not allowed (no replacement)
EV_BURY = 53  # card refused by the last player (seat) is buried under the stock, never used
EV_SPECIAL = 54  # seat's table card (card) makes a special pair: a = action (1 extra, 2 discard, 3 steal), b = rank
EV_EXTRA_CARD = 55  # seat acts on its pair of rank a: an extra card face up (dealt next, or lost)
EV_TW_DISCARD = 56  # seat discards victim a's card face up; b = 4 * pair rank + source (0 table, 1 extra/stolen, 2 hole)
EV_STEAL = 57  # seat steals victim a's card; b as for EV_TW_DISCARD
EV_SPECIAL_SKIP = 58  # seat's action a not carried out; b = 4 * pair rank + why (0 no target, 1 declined, 2 no room)
EV_COMMUNITY = 59  # card turned up is a community card for every player (7th street, short stock)
EV_NO_CARD = 60  # a card could not be dealt and is lost: seat (-1 all), a = 0 table / 1 7th-street / 2 extra
EXHAUSTED = -1.0  # the carry a kernel returns for a void deal
TRACE_WIDTH = 5
UNITS = 1680  # every share of an integer pot among up to 8 winners of a half is a multiple of 1/1680


@njit(cache=True, inline="always")
def emit(trace, n_events, kind, seat, card, a, b):
    """Append an event when tracing (``trace`` has rows); returns the new count."""
    if n_events < trace.shape[0]:
        trace[n_events, 0] = kind
        trace[n_events, 1] = seat
        trace[n_events, 2] = card
        trace[n_events, 3] = a
        trace[n_events, 4] = b
        return n_events + 1
    return n_events


@njit(cache=True)
def draw_or_restock(deck, dstate, stream, dead, n_dead, trace, n_events):
    """Draw; on an empty stock shuffle the dead cards into a new one first.
    Returns ``(card or NO_CARD, dead cards left, n_events)``."""
    c = draw(deck, dstate, stream)
    if c == NO_CARD and n_dead > 0:
        restock(deck, dstate, dead, n_dead)
        n_events = emit(trace, n_events, EV_RESHUFFLE, -1, -1, stock_size(dstate), 0)
        n_dead = 0
        c = draw(deck, dstate, stream)
    return c, n_dead, n_events


@njit(cache=True)
def next_in(members, after, n):
    """First seat of the ``members`` bit set walking clockwise from ``after + 1``;
    wraps around to ``after`` itself when it is the only member (RULES.md §0.1)."""
    for k in range(1, n + 1):
        s = (after + k) % n
        if (members >> s) & 1:
            return s
    return -1


@njit(cache=True)
def high_odd_card(natural, strength):
    """The card that carries a high hand's suit for the odd-chip rule: the
    highest-suited natural card of the hand's top rank."""
    rank = ((strength >> 16) & 0xF) - 1
    if rank < 0:
        return 0
    for suit in range(3, -1, -1):
        if card_bit(4 * rank + suit) & natural:
            return 4 * rank + suit
    return 4 * rank + 3


@njit(cache=True)
def low_odd_card(natural, strength):
    """The lowest-suited natural card of a low hand's lowest rank (odd-chip rule)."""
    if strength == 0:
        return 52
    best_nibble = 0
    for shift in (16, 12, 8, 4, 0):
        best_nibble = max(best_nibble, (strength >> shift) & 0xF)
    v = 14 - best_nibble
    rank = 12 if v == 1 else v - 2
    for suit in range(4):
        if card_bit(4 * rank + suit) & natural:
            return 4 * rank + suit
    return 4 * rank


@njit(cache=True)
def finish(rules, policies, n, dealer, active, naturals, up_masks, high, low, high_natural,
           paid, trace, n_events, payout, high_share, low_share, declared):
    """Declarations (when the split mode asks for them), pot division, event log.

    ``naturals[s]`` is the mask of seat s's natural cards, ``up_masks[s]`` what the
    others see of it, ``high`` / ``low`` the final strengths (low already qualified,
    0 = none), ``paid[s]`` what seat s put in the pot (ante and any fees). Writes the
    payout and shares; returns ``(carry, n_events)``.
    """
    declared[:] = DECLARE_HIGH
    split_mode = int(rules[R_SPLIT_MODE])
    if split_mode == SPLIT_DECLARE:
        opp = np.zeros(n, np.uint64)
        earlier = np.zeros(n, np.int64)
        n_earlier = 0
        sequential = int(rules[R_DECLARE_MODE]) == DECLARE_SEQUENTIAL
        n_active = 0
        for s in range(n):
            n_active += active[s]
        for k in range(1, n + 1):
            s = (dealer + k) % n
            if not active[s]:
                continue
            n_opp = 0
            for o in range(n):
                if o != s and active[o]:
                    opp[n_opp] = up_masks[o]
                    n_opp += 1
            last = n_earlier == n_active - 1
            if sequential:
                d = declare(policies[s], high[s], low[s], opp, n_opp, earlier, n_earlier, last)
            else:
                d = declare(policies[s], high[s], low[s], opp, n_opp, earlier, 0, False)
            declared[s] = d
            earlier[n_earlier] = d
            n_earlier += 1
        for k in range(1, n + 1):
            s = (dealer + k) % n
            if active[s]:
                n_events = emit(trace, n_events, EV_DECLARE, s, -1, declared[s], 0)
    odd_high = np.zeros(n, np.int64)
    odd_low = np.zeros(n, np.int64)
    for s in range(n):
        odd_high[s] = high_odd_card(naturals[s], high[s])
        odd_low[s] = low_odd_card(naturals[s], low[s])
        if active[s]:
            n_events = emit(trace, n_events, EV_HAND, s, -1, high[s], low[s])
    pot = 0.0
    for s in range(n):
        pot += paid[s]
    carry = settle(active, high, low, declared, pot, dealer, split_mode, rules[R_BOTH_OUTRIGHT] > 0,
                   int(rules[R_ALL_FAILED]), int(rules[R_CHIP_MODE]), int(rules[R_ODD_CHIP]),
                   rules[R_NATURAL_BEATS_WILD] > 0, high_natural, odd_high, odd_low,
                   payout, high_share, low_share)
    for s in range(n):
        n_events = emit(trace, n_events, EV_PAYOUT, s, -1, np.int64(round(payout[s] * UNITS)),
                        np.int64(round((payout[s] - paid[s]) * UNITS)))
    if carry > 0:
        n_events = emit(trace, n_events, EV_CARRY, -1, -1, np.int64(round(carry * UNITS)), 0)
    return carry, n_events
