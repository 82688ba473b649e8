"""Do Ya: five-card stud where each player's hole card is wild for them, up cards
offered from the deck with the rejects left on the table (RULES.md §3.3), equity
mode (every player antes and goes to the showdown)."""

import numpy as np
from numba import njit, prange

from ..cards import NO_CARD, card_bit, rank_mask_to_cards
from ..evaluate import high_mask, low_mask, qualify
from ..policies import ALWAYS, POOL_THRESHOLD, aim_of, gain, wants_card
from ..rng import draw, new_deal
from .common import (
    EV_ANTE,
    EV_DEAD,
    EV_DEAL_DOWN,
    EV_EXHAUSTED,
    EV_FORCED_NO_STOCK,
    EV_OFFER,
    EV_POOL_DECLINE,
    EV_POOL_TAKE,
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
)

R_MAX_REJECTIONS = N_SHOWDOWN_RULES
R_WILD_MODE = N_SHOWDOWN_RULES + 1  # DY-A2: 0 hole card only, 1 every card of its rank
R_FIVE_KIND = N_SHOWDOWN_RULES + 2  # DY-A1: kernels.ranking.FK_*
R_WILD_DUPLICATE = N_SHOWDOWN_RULES + 3  # DY-A3
N_RULES = N_SHOWDOWN_RULES + 4

WILD_HOLE_CARD = 0
WILD_RANK = 1

MAX_PLAYERS = 8
UP = 4


@njit(cache=True)
def wild_cards(rules, hole_card, cards):
    """The wild cards among ``cards`` (a mask) for a player whose hole card is given."""
    if int(rules[R_WILD_MODE]) == WILD_RANK:
        return cards & rank_mask_to_cards(1 << (hole_card >> 2))
    return card_bit(hole_card) & cards


@njit(cache=True)
def split_wild(rules, hole_card, up_cards):
    """``(natural mask, number of wild cards)`` of a hole card and an up-card mask."""
    cards = up_cards | card_bit(hole_card)
    wild = wild_cards(rules, hole_card, cards)
    w = 0
    m = wild
    while m:
        m &= m - np.uint64(1)
        w += 1
    return cards & ~wild, w


@njit(cache=True)
def _best_pool_card(t, policy, natural, w, pool, n_pool, aim):
    """Index of the reject on the table that raises my estimate most, and that gain."""
    best = 0
    best_gain = -1e300
    for j in range(n_pool):
        g = gain(t, policy, natural, w, card_bit(pool[j]), aim)
        if g > best_gain:
            best_gain = g
            best = j
    return best, best_gain


@njit(cache=True)
def play(t, rules, policies, n, dealer, deck, dstate, stream, hole, up, trace,
         payout, high_share, low_share, declared, high, low, paid):
    """Play one deal from a filled deck; returns ``(carry, n_events)``."""
    n_events = 0
    ante = rules[R_ANTE]
    paid[:] = ante
    max_rej = int(rules[R_MAX_REJECTIONS])
    up_mask = np.zeros(n, np.uint64)
    n_up = np.zeros(n, np.int64)
    dead = np.empty(52, np.uint8)
    n_dead = 0
    pool = np.empty(64, np.uint8)
    for s in range(n):
        n_events = emit(trace, n_events, EV_ANTE, s, -1, np.int64(ante), 0)
    # 1. The wild hole card.
    for i in range(1, n + 1):
        s = (dealer + i) % n
        hole[s] = draw(deck, dstate, stream)
        if hole[s] == NO_CARD:
            return EXHAUSTED, emit(trace, n_events, EV_EXHAUSTED, s, -1, 0, 0)
        n_events = emit(trace, n_events, EV_DEAL_DOWN, s, hole[s], 0, 0)
    # 2. Four up-rounds.
    for r in range(4):
        n_events = emit(trace, n_events, EV_ROUND, -1, -1, r + 1, 0)
        n_pool = 0
        for i in range(1, n + 1):
            p = (dealer + i) % n
            pol = policies[p]
            natural, w = split_wild(rules, hole[p], up_mask[p])
            aim = aim_of(pol, natural)
            last = i == n
            nxt = (p + 1) % n
            rej = 0
            taken = np.uint8(NO_CARD)
            if n_pool > 0 and pol[POOL_THRESHOLD] <= ALWAYS:
                taken = pool[0]  # "always take": the first reject, no estimate needed
                pool[0] = pool[n_pool - 1]
                n_pool -= 1
                n_events = emit(trace, n_events, EV_POOL_TAKE, p, taken, 0, 0)
            elif n_pool > 0:
                best, best_gain = _best_pool_card(t, pol, natural, w, pool, n_pool, aim)
                if best_gain >= pol[POOL_THRESHOLD]:
                    taken = pool[best]
                    pool[best] = pool[n_pool - 1]
                    n_pool -= 1
                    n_events = emit(trace, n_events, EV_POOL_TAKE, p, taken, 0, 0)
                else:
                    rej = n_pool
                    n_events = emit(trace, n_events, EV_POOL_DECLINE, p, -1, n_pool, 0)
            while taken == NO_CARD:
                c, n_dead, n_events = draw_or_restock(deck, dstate, stream, dead, n_dead, trace, n_events)
                if c == NO_CARD and n_pool == 0:
                    n_events = emit(trace, n_events, EV_EXHAUSTED, p, -1, 0, 0)
                    return EXHAUSTED, n_events
                if c == NO_CARD:
                    # Stock and dead cards exhausted: take the pool card of my choice.
                    best, _ = _best_pool_card(t, pol, natural, w, pool, n_pool, aim)
                    taken = pool[best]
                    pool[best] = pool[n_pool - 1]
                    n_pool -= 1
                    n_events = emit(trace, n_events, EV_FORCED_NO_STOCK, p, taken, 0, 0)
                    break
                n_events = emit(trace, n_events, EV_TURN_UP, -1, c, 0, 0)
                n_events = emit(trace, n_events, EV_OFFER, p, c, rej, 0)
                if rej >= max_rej:
                    taken = c
                    n_events = emit(trace, n_events, EV_TAKE, p, c, 1, 0)
                    break
                # What the next player could do with my reject is judged from their
                # up cards plus one unknown wild hole card.
                nxt_visible = up_mask[nxt]
                if wants_card(t, pol, natural, w, c, nxt_visible, 1, not last):
                    taken = c
                    n_events = emit(trace, n_events, EV_TAKE, p, c, 0, 0)
                else:
                    pool[n_pool] = c
                    n_pool += 1
                    rej += 1
                    n_events = emit(trace, n_events, EV_REJECT, p, c, rej, 0)
            up[p, n_up[p]] = taken
            n_up[p] += 1
            up_mask[p] |= card_bit(taken)
        # 3. The rejects left on the table are dead (seen, then turned down).
        for j in range(n_pool):
            dead[n_dead] = pool[j]
            n_dead += 1
            n_events = emit(trace, n_events, EV_DEAD, -1, pool[j], 0, 0)
    # Showdown: four up-cards plus the wild hole card.
    active = np.ones(n, np.bool_)
    naturals = np.empty(n, np.uint64)
    high_natural = np.zeros(n, np.bool_)  # every Do Ya hand plays its wild card
    threshold = np.int64(rules[R_LOW_QUALIFIER])
    fk = int(rules[R_FIVE_KIND])
    dup = rules[R_WILD_DUPLICATE] > 0
    for s in range(n):
        natural, w = split_wild(rules, hole[s], up_mask[s])
        naturals[s] = natural
        high[s] = high_mask(t, natural, w, fk, dup)
        low[s] = qualify(low_mask(natural, w), threshold)
    return finish(rules, policies, n, dealer, active, naturals, up_mask, high, low, high_natural,
                  paid, trace, n_events, payout, high_share, low_share, declared)


@njit(cache=True)
def play_seeded(t, rules, policies, n, dealer, seed, deal, stacked, trace,
                payout, high_share, low_share, declared, high, low, paid, hole, up):
    """One deal on the stream ``(seed, deal)``, or on ``stacked`` when non-empty."""
    deck, dstate, stream = new_deal(seed, deal, stacked)
    return play(t, rules, policies, n, dealer, deck, dstate, stream, hole[:, 0], up, trace,
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
        up = np.empty((n, UP), np.uint8)
        carry[i], _ = play_seeded(t, rules, policies, n, dealer, seed, deal, no_stack, no_trace,
                                  payout[i], high_share[i], low_share[i], declared[i], high[i], low[i],
                                  paid[i], hole, up)
