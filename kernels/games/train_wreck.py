"""Train Wreck: seven-card stud with buyable table cards and special pairs
(RULES.md §4.3-4.4), equity mode (every player antes and goes to the showdown;
nobody folds, so every player is active throughout).

Per seat the state is a set of card masks: hole cards (two down, then the 7th-street
card), **table cards** (the four face-up stud cards: the only cards that make special
pairs), **extra** cards (dealt for a pair of 2s) and **stolen** cards (taken with a
pair of 5s). ``up[s]`` lists seat s's face-up cards in the order received (table,
extra and stolen cards, and a community card if one is turned); ``hole[s]`` its
face-down cards. Public information (``seen``) is every card ever turned face up.

Streets 4-6: the offered card is accepted free or refused with a fee paid into the
pot (the payer is dealt the next card instead, and the refused card is offered to the
next player; the last player's refused card is buried). Special pairs trigger when a
table card makes the count of its rank among the player's table cards go from 1 to
2 and are resolved at the end of the street in dealing order, or at once (option).

Cards that cannot be dealt (TW-A9, only with 7 players or exotic special-pair tables):
paying needs a replacement card; an empty stock is rebuilt from the dead cards (the
discards of 3s/4s, and the buried cards only with ``reshuffle_includes_buried``); a
short 7th street gives one community card; any card that still cannot be dealt
(an extra card, a table card, a 7th-street card) is lost and the seat plays without
it. Only the initial deal needs every card: a deck too short for it (a stacked deck)
makes the deal void (``EXHAUSTED``).
"""

import numpy as np
from numba import njit, prange

from ..cards import NO_CARD, card_bit, rank_mask_to_cards
from ..evaluate import high_mask
from ..policies import tw_pays, tw_takes_extra, tw_target
from ..ranking import CAT_SHIFT, HIGH_CARD, low_bit, popcount
from ..rng import below, draw, new_deal, stock_size
from .common import (
    EV_ACCEPT,
    EV_ANTE,
    EV_BURY,
    EV_COMMUNITY,
    EV_DEAL_DOWN,
    EV_DEAL_UP,
    EV_EXHAUSTED,
    EV_EXTRA_CARD,
    EV_NO_CARD,
    EV_OFFER,
    EV_PAY_FEE,
    EV_SPECIAL,
    EV_SPECIAL_SKIP,
    EV_STEAL,
    EV_STREET,
    EV_TURN_UP,
    EV_TW_DISCARD,
    EXHAUSTED,
    N_SHOWDOWN_RULES,
    R_ANTE,
    TRACE_WIDTH,
    draw_or_restock,
    emit,
    finish,
)

# Game rules (after the shared showdown options).
R_FEE_UNIT = N_SHOWDOWN_RULES  # TW-A1: chips (the big bet, 4, by default)
R_FEE_MULTIPLIERS = N_SHOWDOWN_RULES + 1  # three slots: streets 4, 5, 6
R_SPECIAL_PAIRS = N_SHOWDOWN_RULES + 4  # thirteen slots, ranks 2..A: ACTION_*
R_TARGETS = N_SHOWDOWN_RULES + 17  # TW-A3: TARGETS_*
R_SPECIAL_TIMING = N_SHOWDOWN_RULES + 18  # TW-A4: TIMING_*
R_RETRIGGER = N_SHOWDOWN_RULES + 19  # TW-A5
R_ACTIONS_OPTIONAL = N_SHOWDOWN_RULES + 20  # TW-A7
R_PAIRS_COUNT_EXTRAS = N_SHOWDOWN_RULES + 21  # TW-A11
R_RESHUFFLE_BURIED = N_SHOWDOWN_RULES + 22  # TW-A9 (b)
R_COMMUNITY_CARD = N_SHOWDOWN_RULES + 23  # TW-A9 (c)
R_INCLUDE_FOLDED = N_SHOWDOWN_RULES + 24  # TW-A3: no effect in equity mode (nobody folds)
N_RULES = N_SHOWDOWN_RULES + 25

ACTION_NONE = 0
ACTION_EXTRA_CARD = 1
ACTION_DISCARD = 2
ACTION_STEAL = 3

TARGETS_TABLE = 0
TARGETS_FACE_UP = 1
TARGETS_ANY = 2

TIMING_END_OF_STREET = 0
TIMING_IMMEDIATE = 1

# Where a discarded or stolen card came from (EV_TW_DISCARD / EV_STEAL, low bits of b).
SOURCE_TABLE = 0
SOURCE_FACE_UP = 1  # an extra or stolen card
SOURCE_HOLE = 2  # a hole card taken blind

# Why an action was not carried out (EV_SPECIAL_SKIP, low bits of b).
SKIP_NO_TARGET = 0
SKIP_DECLINED = 1
SKIP_NO_ROOM = 2

# What could not be dealt (EV_NO_CARD, a).
LOST_TABLE_CARD = 0
LOST_SEVENTH_CARD = 1
LOST_EXTRA_CARD = 2

MAX_PLAYERS = 7
HOLE = 3
UP = 14  # 4 table cards + extra and stolen cards + a community card
MAX_CANDIDATES = 64


@njit(cache=True)
def fee_of(rules, street):
    """Fee in chips to refuse the offered card on street 4, 5 or 6."""
    return rules[R_FEE_UNIT] * rules[R_FEE_MULTIPLIERS + street - 4]


@njit(cache=True)
def _available(dstate, n_dead, n_buried, with_buried):
    """Cards that can still be dealt: the stock, then the dead cards (and the buried
    ones with ``reshuffle_includes_buried``) shuffled into a new stock."""
    return stock_size(dstate) + n_dead + (n_buried if with_buried else 0)


@njit(cache=True)
def _draw(deck, dstate, stream, dead, n_dead, buried, n_buried, with_buried, trace, n_events):
    """Draw one card, rebuilding an empty stock first (TW-A9 b). Returns
    ``(card or NO_CARD, n_dead, n_buried, n_events)``."""
    if with_buried and n_buried > 0 and stock_size(dstate) == 0:
        for i in range(n_buried):
            dead[n_dead + i] = buried[i]
        n_dead += n_buried
        n_buried = 0
    c, n_dead, n_events = draw_or_restock(deck, dstate, stream, dead, n_dead, trace, n_events)
    return c, n_dead, n_buried, n_events


@njit(cache=True)
def _add_up(up, n_up, s, c):
    up[s, n_up[s]] = c
    n_up[s] += 1


@njit(cache=True)
def _remove_up(up, n_up, s, c):
    k = 0
    for j in range(n_up[s]):
        if up[s, j] != c:
            up[s, k] = up[s, j]
            k += 1
    for j in range(k, n_up[s]):
        up[s, j] = NO_CARD
    n_up[s] = k


@njit(cache=True)
def _trigger(rules, s, c, counted, triggered, pending, trace, n_events):
    """§4.4.1: seat s just received ``c``; ``counted`` is the mask its pairs are counted
    in (its table cards, with ``c``). A count of c's rank going from 1 to 2 makes the
    seat pending for that rank, once per deal unless ``retrigger``."""
    r = c >> 2
    action = int(rules[R_SPECIAL_PAIRS + r])
    if action == ACTION_NONE:
        return n_events
    if popcount(counted & rank_mask_to_cards(1 << r)) != 2:
        return n_events
    bit = 1 << r
    if triggered[s] & bit and rules[R_RETRIGGER] == 0:
        return n_events
    triggered[s] |= bit
    pending[s] |= bit
    return emit(trace, n_events, EV_SPECIAL, s, c, action, r)


@njit(cache=True)
def _counted(rules, s, table, extra, stolen):
    """The cards seat s's special pairs are counted among (TW-A11)."""
    if rules[R_PAIRS_COUNT_EXTRAS] > 0:
        return table[s] | extra[s] | stolen[s]
    return table[s]


@njit(cache=True)
def _resolve(t, rules, policies, n, p, deck, dstate, stream, hole, hole_mask, up, n_up, table, extra,
             stolen, triggered, pending, seen, dead, n_dead, buried, n_buried, trace, n_events):
    """Carry out seat p's pending special-pair actions in rank order (§4.4.3).
    Returns ``(seen, n_dead, n_buried, n_events)``."""
    if pending[p] == 0:
        return seen, n_dead, n_buried, n_events
    optional = rules[R_ACTIONS_OPTIONAL] > 0
    with_buried = rules[R_RESHUFFLE_BURIED] > 0
    counts_extras = rules[R_PAIRS_COUNT_EXTRAS] > 0
    targets = int(rules[R_TARGETS])
    full = np.uint64(0x1FFF1FFF1FFF1FFF)
    cand_seat = np.empty(MAX_CANDIDATES, np.int64)
    cand_card = np.empty(MAX_CANDIDATES, np.int64)
    visible = np.empty(n, np.uint64)
    while pending[p]:
        r = low_bit(pending[p])
        pending[p] &= ~(1 << r)
        action = int(rules[R_SPECIAL_PAIRS + r])
        for s in range(n):
            visible[s] = table[s] | extra[s] | stolen[s]
        mine = hole_mask[p] | visible[p]
        if action == ACTION_EXTRA_CARD:
            if n_up[p] >= UP - 1:
                n_events = emit(trace, n_events, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_NO_ROOM)
                continue
            if optional and not tw_takes_extra(t, policies[p], mine, full & ~(seen | mine)):
                n_events = emit(trace, n_events, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_DECLINED)
                continue
            n_events = emit(trace, n_events, EV_EXTRA_CARD, p, -1, r, 0)
            c, n_dead, n_buried, n_events = _draw(deck, dstate, stream, dead, n_dead, buried, n_buried,
                                                  with_buried, trace, n_events)
            if c == NO_CARD:
                n_events = emit(trace, n_events, EV_NO_CARD, p, -1, LOST_EXTRA_CARD, 0)  # TW-A9 (d)
                continue
            n_events = emit(trace, n_events, EV_DEAL_UP, p, c, 0, 0)
            extra[p] |= card_bit(c)
            seen |= card_bit(c)
            _add_up(up, n_up, p, c)
            if counts_extras:
                n_events = _trigger(rules, p, c, _counted(rules, p, table, extra, stolen), triggered, pending,
                                    trace, n_events)
            continue
        if action != ACTION_DISCARD and action != ACTION_STEAL:
            continue
        steal = action == ACTION_STEAL
        if steal and n_up[p] >= UP - 1:
            n_events = emit(trace, n_events, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_NO_ROOM)
            continue
        # Eligible targets (TW-A3): every active opponent's table cards, or all its
        # face-up cards, or those and one of its hole cards taken blind.
        n_cand = 0
        for i in range(1, n):
            o = (p + i) % n
            pool = table[o]
            if targets != TARGETS_TABLE:
                pool = visible[o]
            m = pool
            while m and n_cand < MAX_CANDIDATES:
                b = low_bit(m)
                m &= m - np.uint64(1)
                cand_seat[n_cand] = o
                cand_card[n_cand] = 4 * (b & 15) + (b >> 4)
                n_cand += 1
            if targets == TARGETS_ANY and hole_mask[o] and n_cand < MAX_CANDIDATES:
                cand_seat[n_cand] = o
                cand_card[n_cand] = NO_CARD
                n_cand += 1
        if n_cand == 0:
            n_events = emit(trace, n_events, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_NO_TARGET)
            continue
        k = tw_target(t, policies[p], steal, optional, mine, visible, cand_seat, cand_card, n_cand,
                      full & ~(seen | mine))
        if k < 0:
            n_events = emit(trace, n_events, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_DECLINED)
            continue
        victim = cand_seat[k]
        c = cand_card[k]
        if c == NO_CARD:
            # A hole card taken blind: one of the victim's face-down cards at random.
            held = 0
            for j in range(HOLE):
                held += hole[victim, j] != NO_CARD
            pick = below(stream, held)
            for j in range(HOLE):
                if hole[victim, j] != NO_CARD:
                    if pick == 0:
                        c = hole[victim, j]
                        hole[victim, j] = NO_CARD
                        break
                    pick -= 1
            hole_mask[victim] &= ~card_bit(c)
            source = SOURCE_HOLE
        else:
            bit = card_bit(c)
            source = SOURCE_TABLE if table[victim] & bit else SOURCE_FACE_UP
            table[victim] &= ~bit
            extra[victim] &= ~bit
            stolen[victim] &= ~bit
            _remove_up(up, n_up, victim, c)
        seen |= card_bit(c)
        if steal:
            stolen[p] |= card_bit(c)
            _add_up(up, n_up, p, c)
            n_events = emit(trace, n_events, EV_STEAL, p, c, victim, 4 * r + source)
            if counts_extras:
                n_events = _trigger(rules, p, c, _counted(rules, p, table, extra, stolen), triggered, pending,
                                    trace, n_events)
        else:
            dead[n_dead] = c
            n_dead += 1
            n_events = emit(trace, n_events, EV_TW_DISCARD, p, c, victim, 4 * r + source)
    return seen, n_dead, n_buried, n_events


@njit(cache=True)
def play(t, rules, policies, n, dealer, deck, dstate, stream, hole, up, trace,
         payout, high_share, low_share, declared, high, low, paid):
    """Play one deal from a filled deck (random or stacked). Returns
    ``(carry, n_events)``; per-seat results are written into the output arrays."""
    n_events = 0
    ante = rules[R_ANTE]
    paid[:] = ante
    hole[:, :] = NO_CARD
    up[:, :] = NO_CARD
    with_buried = rules[R_RESHUFFLE_BURIED] > 0
    immediate = int(rules[R_SPECIAL_TIMING]) == TIMING_IMMEDIATE
    hole_mask = np.zeros(n, np.uint64)
    table = np.zeros(n, np.uint64)
    extra = np.zeros(n, np.uint64)
    stolen = np.zeros(n, np.uint64)
    visible = np.zeros(n, np.uint64)
    n_up = np.zeros(n, np.int64)
    triggered = np.zeros(n, np.int64)
    pending = np.zeros(n, np.int64)
    seen = np.uint64(0)
    dead = np.empty(52, np.uint8)
    n_dead = 0
    buried = np.empty(52, np.uint8)
    n_buried = 0
    for s in range(n):
        n_events = emit(trace, n_events, EV_ANTE, s, -1, np.int64(ante), 0)
    # 4.3.1 Two face-down cards, then table card #1 face up, one card a circuit from
    # the dealer's left.
    n_events = emit(trace, n_events, EV_STREET, (dealer + 1) % n, -1, 3, 0)
    for k in range(3):
        for i in range(1, n + 1):
            s = (dealer + i) % n
            c = draw(deck, dstate, stream)
            if c == NO_CARD:
                return EXHAUSTED, emit(trace, n_events, EV_EXHAUSTED, s, -1, 0, 0)
            if k < 2:
                hole[s, k] = c
                hole_mask[s] |= card_bit(c)
                n_events = emit(trace, n_events, EV_DEAL_DOWN, s, c, 0, 0)
            else:
                table[s] |= card_bit(c)
                seen |= card_bit(c)
                _add_up(up, n_up, s, c)
                n_events = emit(trace, n_events, EV_DEAL_UP, s, c, 0, 0)
    # 4.3.3 Streets 4, 5, 6: table cards #2-#4 offered, refused for a fee.
    for street in range(4, 7):
        fee = fee_of(rules, street)
        n_events = emit(trace, n_events, EV_STREET, (dealer + 1) % n, -1, street, np.int64(fee))
        offered = NO_CARD
        refusals = 0
        last_seat = (dealer + n) % n
        for i in range(1, n + 1):
            p = (dealer + i) % n
            if offered == NO_CARD:
                offered, n_dead, n_buried, n_events = _draw(deck, dstate, stream, dead, n_dead, buried,
                                                            n_buried, with_buried, trace, n_events)
                if offered == NO_CARD:
                    n_events = emit(trace, n_events, EV_NO_CARD, p, -1, LOST_TABLE_CARD, 0)
                    continue
                seen |= card_bit(offered)
                refusals = 0
                n_events = emit(trace, n_events, EV_TURN_UP, -1, offered, 0, 0)
            n_events = emit(trace, n_events, EV_OFFER, p, offered, refusals, 0)
            can_pay = _available(dstate, n_dead, n_buried, with_buried) > 0  # TW-A9 (a)
            pay = False
            if can_pay:
                for s in range(n):
                    visible[s] = table[s] | extra[s] | stolen[s]
                pay = tw_pays(t, policies[p], hole_mask[p] | visible[p], offered, fee,
                              visible[(p + 1) % n], i == n, seen)
            if pay:
                paid[p] += fee
                n_events = emit(trace, n_events, EV_PAY_FEE, p, offered, np.int64(fee), 0)
                c, n_dead, n_buried, n_events = _draw(deck, dstate, stream, dead, n_dead, buried, n_buried,
                                                      with_buried, trace, n_events)
                n_events = emit(trace, n_events, EV_DEAL_UP, p, c, 0, 0)
                refusals += 1
            else:
                c = offered
                offered = NO_CARD
                n_events = emit(trace, n_events, EV_ACCEPT, p, c, 0 if can_pay else 1, 0)
            table[p] |= card_bit(c)
            seen |= card_bit(c)
            _add_up(up, n_up, p, c)
            n_events = _trigger(rules, p, c, _counted(rules, p, table, extra, stolen), triggered, pending,
                                trace, n_events)
            if immediate:
                seen, n_dead, n_buried, n_events = _resolve(
                    t, rules, policies, n, p, deck, dstate, stream, hole, hole_mask, up, n_up, table, extra,
                    stolen, triggered, pending, seen, dead, n_dead, buried, n_buried, trace, n_events)
        # 4.3.3.4 The last player's refused card is buried: seen, never used.
        if offered != NO_CARD:
            buried[n_buried] = offered
            n_buried += 1
            n_events = emit(trace, n_events, EV_BURY, last_seat, offered, 0, 0)
        # 4.3.3.5 Special pairs, in dealing order (§4.4.2).
        if not immediate:
            for i in range(1, n + 1):
                p = (dealer + i) % n
                seen, n_dead, n_buried, n_events = _resolve(
                    t, rules, policies, n, p, deck, dstate, stream, hole, hole_mask, up, n_up, table, extra,
                    stolen, triggered, pending, seen, dead, n_dead, buried, n_buried, trace, n_events)
    # 4.3.4 7th street: one face-down card each, or (TW-A9 c) one community card.
    n_events = emit(trace, n_events, EV_STREET, (dealer + 1) % n, -1, 7, 0)
    community = np.uint64(0)
    if _available(dstate, n_dead, n_buried, with_buried) < n and rules[R_COMMUNITY_CARD] > 0:
        c, n_dead, n_buried, n_events = _draw(deck, dstate, stream, dead, n_dead, buried, n_buried,
                                              with_buried, trace, n_events)
        if c == NO_CARD:
            n_events = emit(trace, n_events, EV_NO_CARD, -1, -1, LOST_SEVENTH_CARD, 0)
        else:
            n_events = emit(trace, n_events, EV_TURN_UP, -1, c, 0, 0)
            n_events = emit(trace, n_events, EV_COMMUNITY, -1, c, 0, 0)
            community = card_bit(c)
            for s in range(n):
                _add_up(up, n_up, s, c)
    else:
        for i in range(1, n + 1):
            s = (dealer + i) % n
            c, n_dead, n_buried, n_events = _draw(deck, dstate, stream, dead, n_dead, buried, n_buried,
                                                  with_buried, trace, n_events)
            if c == NO_CARD:
                n_events = emit(trace, n_events, EV_NO_CARD, s, -1, LOST_SEVENTH_CARD, 0)
                continue
            hole[s, 2] = c
            hole_mask[s] |= card_bit(c)
            n_events = emit(trace, n_events, EV_DEAL_DOWN, s, c, 0, 0)
    # 4.3.6 Showdown: the best five of all the cards each player holds.
    active = np.ones(n, np.bool_)
    naturals = np.empty(n, np.uint64)
    up_masks = np.empty(n, np.uint64)
    high_natural = np.ones(n, np.bool_)
    for s in range(n):
        up_masks[s] = table[s] | extra[s] | stolen[s] | community
        naturals[s] = hole_mask[s] | up_masks[s]
        high[s] = high_mask(t, naturals[s], 0, 0, False)
        if high[s] == 0:
            high[s] = HIGH_CARD << CAT_SHIFT  # no card at all: below any real high card
        low[s] = 0
    return finish(rules, policies, n, dealer, active, naturals, up_masks, high, low, high_natural,
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
    """Deals ``first .. first + count - 1`` in parallel; results by deal row. The dealer
    is ``deal % n`` when ``rotate_dealer`` else seat ``n - 1``."""
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
