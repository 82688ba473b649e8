"""Anaconda (Pass the Trash, 3-2-1 Left), RULES.md §2.3, equity mode (every player
antes and goes to the showdown; betting is not modelled yet).

The pass schedule is data: up to ``MAX_PASSES`` phases of ``(cards, seats to the
left)``; a negative offset passes to the right. Passing is simultaneous: every
packet is chosen from the hands as they were before the phase.
"""

import numpy as np
from numba import njit, prange

from ..cards import NO_CARD, card_bit
from ..evaluate import high_mask, low_mask, qualify
from ..pass_policies import bit_to_code, choose_keep, choose_pass, split_high, split_low
from ..rng import draw, new_deal
from .common import (
    EV_ANTE,
    EV_DEAL_DOWN,
    EV_DISCARD,
    EV_EXHAUSTED,
    EV_PASS,
    EV_PASS_PHASE,
    EV_PASS_SKIPPED,
    EV_ROLL,
    EXHAUSTED,
    N_SHOWDOWN_RULES,
    R_ANTE,
    R_LOW_QUALIFIER,
    TRACE_WIDTH,
    emit,
    finish,
)

R_HAND_SIZE = N_SHOWDOWN_RULES  # AN-A7: 7, or 6 (discard one)
R_PASS_TO_SELF = N_SHOWDOWN_RULES + 1  # AN-A3: 0 wrap the offset, 1 skip the phase
R_WILD = N_SHOWDOWN_RULES + 2  # 0 none, 1 Howdy Doody (3s wild high, Ks wild low)
R_FIVE_KIND = N_SHOWDOWN_RULES + 3  # five-of-a-kind position (wild cards)
R_N_PASSES = N_SHOWDOWN_RULES + 4
R_PASSES = N_SHOWDOWN_RULES + 5  # (cards, offset) pairs
MAX_PASSES = 6
N_RULES = R_PASSES + 2 * MAX_PASSES

PASS_WRAP = 0
PASS_SKIP = 1
WILD_NONE = 0
WILD_HOWDY_DOODY = 1

MAX_PLAYERS = 8  # 8 only with six cards each (the deck bounds the table)
STACK = 5


@njit(cache=True)
def recipient(seat, offset, n, skip_rule):
    """The seat a packet goes to, or -1 when the phase is skipped (AN-A3)."""
    steps = abs(offset)
    if steps >= n:
        if skip_rule == PASS_SKIP:
            return -1
        steps = (steps - 1) % (n - 1) + 1  # never oneself
    if offset > 0:
        return (seat + steps) % n
    return (seat - steps) % n


@njit(cache=True)
def play(t, rules, policies, n, dealer, deck, dstate, stream, hole, up, trace,
         payout, high_share, low_share, declared, high, low, paid):
    """Play one deal from a filled deck; returns ``(carry, n_events)``. ``up[s]``
    gets the four rolled-up cards in stack order, ``hole[s, 0]`` the fifth."""
    n_events = 0
    ante = rules[R_ANTE]
    paid[:] = ante
    hand_size = int(rules[R_HAND_SIZE])
    howdy = int(rules[R_WILD]) == WILD_HOWDY_DOODY
    fk = int(rules[R_FIVE_KIND])
    skip_rule = int(rules[R_PASS_TO_SELF])
    for s in range(n):
        n_events = emit(trace, n_events, EV_ANTE, s, -1, np.int64(ante), 0)
    # 1. Deal hand_size cards face down, one at a time from the dealer's left.
    hands = np.zeros(n, np.uint64)
    for _ in range(hand_size):
        for i in range(1, n + 1):
            s = (dealer + i) % n
            c = draw(deck, dstate, stream)
            if c == NO_CARD:
                return EXHAUSTED, emit(trace, n_events, EV_EXHAUSTED, s, -1, 0, 0)
            hands[s] |= card_bit(c)
            n_events = emit(trace, n_events, EV_DEAL_DOWN, s, c, 0, 0)
    # 3. The passes: chosen simultaneously, then delivered.
    received = np.zeros((n, n), np.uint64)  # [receiver, passer]: cards passed so far
    packets = np.zeros(n, np.uint64)
    for phase in range(int(rules[R_N_PASSES])):
        count = int(rules[R_PASSES + 2 * phase])
        offset = int(rules[R_PASSES + 2 * phase + 1])
        if recipient(0, offset, n, skip_rule) < 0:
            n_events = emit(trace, n_events, EV_PASS_SKIPPED, -1, -1, phase + 1, 0)
            continue
        n_events = emit(trace, n_events, EV_PASS_PHASE, -1, -1, phase + 1, count)
        for s in range(n):
            r = recipient(s, offset, n, skip_rule)
            # What tells me what the recipient collects: what they passed me, or
            # else what my right neighbour passed me.
            evidence = received[s, r]
            if not evidence:
                evidence = received[s, (s - 1) % n]
            packets[s] = choose_pass(t, policies[s], hands[s], count, evidence, stream, howdy)
        for s in range(n):
            hands[s] &= ~packets[s]
        for i in range(1, n + 1):
            s = (dealer + i) % n
            r = recipient(s, offset, n, skip_rule)
            hands[r] |= packets[s]
            received[r, s] |= packets[s]
            m = packets[s]
            while m:
                b = m & (~m + np.uint64(1))
                m ^= b
                n_events = emit(trace, n_events, EV_PASS, s, bit_to_code(b), r, phase + 1)
    # 4-5. Discard down to five and stack them; the hidden card goes last.
    keep = np.zeros(n, np.uint64)
    shown = np.zeros(n, np.uint64)
    for i in range(1, n + 1):
        s = (dealer + i) % n
        kept, hidden = choose_keep(t, policies[s], hands[s], hand_size, howdy, fk)
        keep[s] = kept
        shown[s] = kept & ~hidden
        m = hands[s] & ~kept
        while m:
            b = m & (~m + np.uint64(1))
            m ^= b
            n_events = emit(trace, n_events, EV_DISCARD, s, bit_to_code(b), 0, 0)
        j = 0
        m = shown[s]
        while m:
            b = m & (~m + np.uint64(1))
            m ^= b
            up[s, j] = bit_to_code(b)
            j += 1
        hole[s, 0] = bit_to_code(hidden)
    # 6. Roll four cards, one at a time for everyone.
    for j in range(4):
        for i in range(1, n + 1):
            s = (dealer + i) % n
            n_events = emit(trace, n_events, EV_ROLL, s, up[s, j], j + 1, 0)
    # 7. Declare and show down: exactly the five stack cards, high and A-5 low.
    active = np.ones(n, np.bool_)
    high_natural = np.ones(n, np.bool_)
    threshold = np.int64(rules[R_LOW_QUALIFIER])
    for s in range(n):
        hn, hw = split_high(keep[s], howdy)
        high[s] = high_mask(t, hn, hw, fk, False)
        high_natural[s] = hw == 0
        ln, lw = split_low(keep[s], howdy)
        low[s] = qualify(low_mask(ln, lw), threshold)
    return finish(rules, policies, n, dealer, active, keep, shown, high, low, high_natural,
                  paid, trace, n_events, payout, high_share, low_share, declared)


@njit(cache=True)
def play_seeded(t, rules, policies, n, dealer, seed, deal, stacked, trace,
                payout, high_share, low_share, declared, high, low, paid, hole, up):
    """One deal on the stream ``(seed, deal)``, or on ``stacked`` when non-empty."""
    deck, dstate, stream = new_deal(seed, deal, stacked)
    return play(t, rules, policies, n, dealer, deck, dstate, stream, hole, up, trace,
                payout, high_share, low_share, declared, high, low, paid)


@njit(cache=True, parallel=True)
def play_batch(t, rules, policies, n, seed, first, count, rotate_dealer,
               payout, high_share, low_share, declared, high, low, paid, carry):
    """Deals ``first .. first + count - 1`` in parallel; results by deal row."""
    no_trace = np.zeros((0, TRACE_WIDTH), np.int64)
    no_stack = np.zeros(0, np.uint8)
    for i in prange(count):
        deal = first + i
        dealer = deal % n if rotate_dealer else n - 1
        hole = np.empty((n, 1), np.uint8)
        up = np.empty((n, 4), np.uint8)
        carry[i], _ = play_seeded(t, rules, policies, n, dealer, seed, deal, no_stack, no_trace,
                                  payout[i], high_share[i], low_share[i], declared[i], high[i], low[i],
                                  paid[i], hole, up)
