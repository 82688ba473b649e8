"""Selection / Rejection ("Want it? Want it? Got it!"), RULES.md §1.3, equity mode
(every player antes and goes to the showdown; betting is not modelled yet).

One deal is played by ``play`` on preallocated arrays; ``play_batch`` runs many deals
in parallel, deal ``i`` on the random stream ``(seed, first + i)``.
"""

import numpy as np
from numba import njit, prange

from ..cards import NO_CARD, card_bit
from ..evaluate import high_hashed, low_hashed, qualify
from ..policies import wants_card
from ..rng import draw, new_deal, stock_size
from .common import (
    EV_ANTE,
    EV_DEAD,
    EV_DEAL_DOWN,
    EV_DEAL_UP,
    EV_EXHAUSTED,
    EV_OFFER,
    EV_REJECT,
    EV_ROUND,
    EV_TAKE,
    EV_TURN_UP,
    EXHAUSTED,
    N_SHOWDOWN_RULES,
    R_ANTE,
    R_LOW_QUALIFIER,
    TRACE_WIDTH,
    draw_or_restock,
    emit,
    finish,
    next_in,
)

# Game rules (after the shared showdown options).
R_MAX_REJECTIONS = N_SHOWDOWN_RULES  # SR-A1: 2, or 1 (ickdb)
R_LAST_PLAYER_RULE = N_SHOWDOWN_RULES + 1  # SR-A2: 0 forced take, 1 fresh card
R_FIRST_UPCARD_OFFERED = N_SHOWDOWN_RULES + 2  # SR-A9
N_RULES = N_SHOWDOWN_RULES + 3

LAST_PLAYER_FORCED = 0
LAST_PLAYER_FRESH_CARD = 1

MAX_PLAYERS = 7
HOLE = 3
UP = 4


@njit(cache=True)
def play(t, rules, policies, n, dealer, deck, dstate, stream, hole, up, trace,
         payout, high_share, low_share, declared, high, low, paid):
    """Play one deal from a filled deck (random or stacked). Returns
    ``(carry, n_events)``; per-seat results are written into the output arrays."""
    n_events = 0
    ante = rules[R_ANTE]
    paid[:] = ante
    max_rej = int(rules[R_MAX_REJECTIONS])
    fresh_rule = int(rules[R_LAST_PLAYER_RULE]) == LAST_PLAYER_FRESH_CARD
    hole_mask = np.zeros(n, np.uint64)
    up_mask = np.zeros(n, np.uint64)
    n_up = np.zeros(n, np.int64)
    dead = np.empty(52, np.uint8)
    n_dead = 0
    for s in range(n):
        n_events = emit(trace, n_events, EV_ANTE, s, -1, np.int64(ante), 0)
    # 2. Two face-down cards each, one at a time from the dealer's left.
    for k in range(2):
        for i in range(1, n + 1):
            s = (dealer + i) % n
            c = draw(deck, dstate, stream)
            if c == NO_CARD:
                return EXHAUSTED, emit(trace, n_events, EV_EXHAUSTED, s, -1, 0, 0)
            hole[s, k] = c
            hole_mask[s] |= card_bit(c)
            n_events = emit(trace, n_events, EV_DEAL_DOWN, s, c, 0, 0)
    # 3-4. Four dealing rounds.
    leader = (dealer + 1) % n
    everyone = (1 << n) - 1
    for r in range(4):
        if r > 0:
            leader = (leader + 1) % n  # SR-A8: all players stay active in equity mode
        n_events = emit(trace, n_events, EV_ROUND, leader, -1, r + 1, 0)
        if r == 0 and rules[R_FIRST_UPCARD_OFFERED] == 0:
            for i in range(1, n + 1):
                s = (dealer + i) % n
                c = draw(deck, dstate, stream)
                if c == NO_CARD:
                    return EXHAUSTED, emit(trace, n_events, EV_EXHAUSTED, s, -1, 0, 0)
                up[s, n_up[s]] = c
                n_up[s] += 1
                up_mask[s] |= card_bit(c)
                n_events = emit(trace, n_events, EV_DEAL_UP, s, c, 0, 0)
            continue
        needs = everyone
        target = leader
        card, n_dead, n_events = draw_or_restock(deck, dstate, stream, dead, n_dead, trace, n_events)
        if card == NO_CARD:
            return EXHAUSTED, emit(trace, n_events, EV_EXHAUSTED, target, -1, 0, 0)
        n_events = emit(trace, n_events, EV_TURN_UP, -1, card, 0, 0)
        rej = 0
        lone_rejections = 0
        while True:
            lone = needs == (1 << target)
            n_events = emit(trace, n_events, EV_OFFER, target, card, rej, 0)
            if lone and fresh_rule:
                # At most max_rej refusals, and never when no card could replace it.
                can_refuse = (lone_rejections < max_rej and rej < max_rej
                              and (stock_size(dstate) > 0 or n_dead > 0))
            else:
                can_refuse = rej < max_rej and not lone
            take = True
            if can_refuse:
                mine = hole_mask[target] | up_mask[target]
                if lone:
                    nxt = target
                    nxt_forced = False  # a card the lone player refuses goes dead
                else:
                    nxt = next_in(needs, target, n)
                    nxt_forced = rej + 1 >= max_rej
                take = wants_card(t, policies[target], mine, 0, card, up_mask[nxt], 0, nxt_forced)
            if take:
                up[target, n_up[target]] = card
                n_up[target] += 1
                up_mask[target] |= card_bit(card)
                needs &= ~(1 << target)
                n_events = emit(trace, n_events, EV_TAKE, target, card, 0 if can_refuse else 1, 0)
                if needs == 0:
                    break
                target = next_in(needs, target, n)
                card, n_dead, n_events = draw_or_restock(deck, dstate, stream, dead, n_dead, trace, n_events)
                if card == NO_CARD:
                    return EXHAUSTED, emit(trace, n_events, EV_EXHAUSTED, target, -1, 0, 0)
                n_events = emit(trace, n_events, EV_TURN_UP, -1, card, 0, 0)
                rej = 0
                lone_rejections = 0
            elif lone:
                # SR-A2 fresh_card: the lone player's refused card goes dead; a new one comes.
                dead[n_dead] = card
                n_dead += 1
                lone_rejections += 1
                n_events = emit(trace, n_events, EV_DEAD, target, card, lone_rejections, 0)
                card, n_dead, n_events = draw_or_restock(deck, dstate, stream, dead, n_dead, trace, n_events)
                if card == NO_CARD:
                    return EXHAUSTED, emit(trace, n_events, EV_EXHAUSTED, target, -1, 0, 0)
                n_events = emit(trace, n_events, EV_TURN_UP, -1, card, 0, 0)
                rej = 0
            else:
                rej += 1
                n_events = emit(trace, n_events, EV_REJECT, target, card, rej, 0)
                target = next_in(needs, target, n)
    # 5. The seventh card face down, clockwise from the dealer's left.
    for i in range(1, n + 1):
        s = (dealer + i) % n
        c, n_dead, n_events = draw_or_restock(deck, dstate, stream, dead, n_dead, trace, n_events)
        if c == NO_CARD:
            return EXHAUSTED, emit(trace, n_events, EV_EXHAUSTED, s, -1, 0, 0)
        hole[s, 2] = c
        hole_mask[s] |= card_bit(c)
        n_events = emit(trace, n_events, EV_DEAL_DOWN, s, c, 0, 0)
    # 7. Showdown: best five of seven, high and A-5 low.
    codes = np.empty(7, np.uint8)
    active = np.ones(n, np.bool_)
    naturals = np.empty(n, np.uint64)
    high_natural = np.ones(n, np.bool_)
    threshold = np.int64(rules[R_LOW_QUALIFIER])
    for s in range(n):
        codes[0] = hole[s, 0]
        codes[1] = hole[s, 1]
        codes[2] = hole[s, 2]
        for j in range(4):
            codes[3 + j] = up[s, j]
        high[s] = high_hashed(t, codes, 7)
        low[s] = qualify(low_hashed(t, codes, 7), threshold)
        naturals[s] = hole_mask[s] | up_mask[s]
    return finish(rules, policies, n, dealer, active, naturals, up_mask, high, low, high_natural,
                  paid, trace, n_events, payout, high_share, low_share, declared)


@njit(cache=True)
def play_seeded(t, rules, policies, n, dealer, seed, deal, stacked, trace,
                payout, high_share, low_share, declared, high, low, paid, hole, up):
    """One deal on the stream ``(seed, deal)``, or on ``stacked`` when it is non-empty."""
    deck, dstate, stream = new_deal(seed, deal, stacked)
    return play(t, rules, policies, n, dealer, deck, dstate, stream, hole, up, trace,
                payout, high_share, low_share, declared, high, low, paid)


@njit(cache=True, parallel=True)
def play_batch(t, rules, policies, n, seed, first, count, rotate_dealer,
               payout, high_share, low_share, declared, high, low, paid, carry):
    """Deals ``first .. first + count - 1``; results by deal row. The dealer is
    ``deal % n`` when ``rotate_dealer`` else seat ``n - 1``."""
    no_trace = np.zeros((0, TRACE_WIDTH), np.int64)
    no_stack = np.zeros(0, np.uint8)
    for i in prange(count):
        deal = first + i
        dealer = deal % n if rotate_dealer else n - 1
        hole = np.empty((n, HOLE), np.uint8)
        up = np.empty((n, UP), np.uint8)
        carry[i], _ = play_seeded(t, rules, policies, n, dealer, seed, deal, no_stack, no_trace,
                                  payout[i], high_share[i], low_share[i], declared[i], high[i], low[i],
                                  paid[i], hole, up)
