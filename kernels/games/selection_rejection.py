"""Selection / Rejection ("Want it? Want it? Got it!"), RULES.md §1.3, equity mode
(every player antes and goes to the showdown; betting is not modelled yet).

The deal is a state machine over one table state (``STATE``): ``play`` advances it
from any legal state to the end of the deal (or until a given number of decisions
has been taken), ``decision`` lists the legal actions where it stopped. A fresh
deal is ``init_state``.
"""

import numpy as np
from numba import njit

from ..cards import NO_CARD, card_bit
from ..evaluate import mask_key, plain_high, plain_low, qualify
from ..policies import ALWAYS, DENY_WEIGHT, TAKE_THRESHOLD, wants_card
from ..showdown import SPLIT_CARDS_SPEAK, SPLIT_DECLARE
from .common import (
    reject_deal,
    deal_unknowns,
    DK_DECLARE,
    DK_NONE,
    DK_OFFER,
    EV_ANTE,
    EV_DEAD,
    EV_DEAL_DOWN,
    EV_DEAL_UP,
    EV_OFFER,
    EV_REJECT,
    EV_ROUND,
    EV_TAKE,
    EV_TURN_UP,
    SHOWDOWN_RULES,
    PH_DECLARE,
    PH_DONE,
    POT_RESULT,
    POT_STATE,
    R_ANTE,
    R_LOW_QUALIFIER,
    R_SPLIT_MODE,
    REFUSE,
    SEATS,
    TAKE,
    B,
    P,
    add_dead,
    begin_showdown,
    declare_actions,
    init_pot_state,
    mask_at,
    next_card,
    next_card_or_restock,
    next_in,
    note,
    paused,
    seat_after,
    showdown_step,
    stock_left,
    void_deal,
)

# Game rules (after the shared showdown options).
RULES = SHOWDOWN_RULES.extend("selection_rejection_rules", [
    ("max_rejections", 1),  # SR-A1: 2, or 1 (ickdb)
    ("last_player_rule", 1),  # SR-A2: 0 forced take, 1 fresh card
    ("first_upcard_offered", 1),  # SR-A9
])
R_MAX_REJECTIONS = RULES.at.max_rejections
R_LAST_PLAYER_RULE = RULES.at.last_player_rule
R_FIRST_UPCARD_OFFERED = RULES.at.first_upcard_offered
N_RULES = RULES.size

LAST_PLAYER_FORCED = 0
LAST_PLAYER_FRESH_CARD = 1

MAX_PLAYERS = 7
HOLE = 3
UP = 4

STATE = POT_STATE.extend("selection_rejection", [
    ("hole", (SEATS, HOLE)),  # face-down cards in the order dealt (NO_CARD: not yet)
    ("up", (SEATS, UP)),  # face-up cards in the order taken
    ("n_up", SEATS),
    ("hole_mask", SEATS),
    ("up_mask", SEATS),
    ("round", 1),  # dealing round 0..3 (4: all taken)
    ("leader", 1),  # first to be offered a card this round
    ("needs", 1),  # bit set of the seats still needing their card this round
    ("offer", 1),  # the card on offer (NO_CARD none)
    ("rejections", 1),  # refusals of the card on offer
    ("lone_rejections", 1),  # fresh cards the lone last player has refused (SR-A2)
])
S = STATE.at
RESULT = POT_RESULT

# Game phases.
PH_START = 0  # antes, two cards down each
PH_ROUND = 1  # a dealing round begins (or the four are done)
PH_OFFER = 2  # a card is on offer to ``turn``: a decision when it may be refused
PH_SEVENTH = 3  # the seventh card down, then the showdown
PH_HANDS = 4  # every card dealt (a described table after 7th street): the hands, then the showdown


@njit(cache=True)
def state_slots():
    """The offsets this compiled kernel uses (a test compares them with ``STATE``)."""
    return S


@njit(cache=True)
def init_state(rules, st, n, dealer):
    init_pot_state(st, n, dealer, np.int64(rules[R_ANTE]))
    for s in range(SEATS):
        for k in range(HOLE):
            st[S.hole + HOLE * s + k] = NO_CARD
        for k in range(UP):
            st[S.up + UP * s + k] = NO_CARD
    st[S.offer] = NO_CARD


@njit(cache=True, inline="always")
def _can_refuse(rules, st):
    """Whether the seat to act may refuse the card on offer (§1.3, SR-A1, SR-A2)."""
    max_rej = int(rules[R_MAX_REJECTIONS])
    target = st[B.turn]
    lone = st[S.needs] == (1 << target)
    if lone and int(rules[R_LAST_PLAYER_RULE]) == LAST_PLAYER_FRESH_CARD:
        # At most max_rej refusals, and never when no card could replace it.
        return (st[S.lone_rejections] < max_rej and st[S.rejections] < max_rej
                and (stock_left(st) > 0 or st[P.n_dead] > 0))
    return st[S.rejections] < max_rej and not lone


@njit(cache=True, inline="always")
def _wants(t, rules, params, st):
    """The policy of the seat to act: take the card on offer? It sees its own
    cards, the card, and the face-up cards of the seat a refusal would hand it to."""
    target = st[B.turn]
    if params[target, TAKE_THRESHOLD] <= ALWAYS:
        return True  # "always take", decided before building the policy's arguments
    needs = st[S.needs]
    mine = mask_at(st, S.hole_mask + target) | mask_at(st, S.up_mask + target)
    # The seat a refusal would hand the card to, read only with a deny weight (the
    # walk to it had cost the default field's deals, which deny nothing); a card the
    # lone player refuses goes dead.
    nxt_visible = np.uint64(0)
    nxt_forced = False
    if params[target, DENY_WEIGHT] != 0.0 and needs != (1 << target):
        nxt_visible = mask_at(st, S.up_mask + next_in(needs, target, st[B.players]))
        nxt_forced = st[S.rejections] + 1 >= int(rules[R_MAX_REJECTIONS])
    return wants_card(t, params[target], mine, 0, st[S.offer], nxt_visible, 0, nxt_forced)


@njit(cache=True, inline="always")
def _turn_up(st, stream, trace, out, seat):
    """Turn up the next card and offer it to ``seat``; False when the deal is void."""
    card = next_card_or_restock(st, stream, trace)
    if card == NO_CARD:
        void_deal(st, trace, seat, out)
        return False
    note(trace, st, EV_TURN_UP, -1, card, 0, 0)
    st[P.seen] |= np.int64(card_bit(card))
    st[S.offer] = card
    st[S.rejections] = 0
    st[B.turn] = seat
    note(trace, st, EV_OFFER, seat, card, 0, 0)
    return True


@njit(cache=True, inline="always")
def _give_up_card(st, s, c):
    st[S.up + UP * s + st[S.n_up + s]] = c
    st[S.n_up + s] += 1
    st[S.up_mask + s] |= np.int64(card_bit(c))
    st[P.seen] |= np.int64(card_bit(c))


@njit(cache=True, inline="always")
def _apply_offer(rules, st, stream, trace, out, action, could_refuse):
    target = st[B.turn]
    card = st[S.offer]
    n = st[B.players]
    lone = st[S.needs] == (1 << target)
    if action == TAKE:
        _give_up_card(st, target, card)
        st[S.needs] &= ~(1 << target)
        note(trace, st, EV_TAKE, target, card, 0 if could_refuse else 1, 0)
        st[S.offer] = NO_CARD
        if st[S.needs] == 0:
            st[S.round] += 1
            st[B.phase] = PH_ROUND
            st[B.turn] = -1
            return
        target = next_in(st[S.needs], target, n)
        st[S.lone_rejections] = 0
        _turn_up(st, stream, trace, out, target)
    elif lone:
        # SR-A2 fresh_card: the lone player's refused card goes dead; a new one comes.
        add_dead(st, card)
        st[S.lone_rejections] += 1
        note(trace, st, EV_DEAD, target, card, st[S.lone_rejections], 0)
        _turn_up(st, stream, trace, out, target)
    else:
        st[S.rejections] += 1
        note(trace, st, EV_REJECT, target, card, st[S.rejections], 0)
        target = next_in(st[S.needs], target, n)
        st[B.turn] = target
        note(trace, st, EV_OFFER, target, card, st[S.rejections], 0)


@njit(cache=True)
def _start(rules, st, stream, trace, out):
    n = st[B.players]
    dealer = st[B.dealer]
    for s in range(n):
        note(trace, st, EV_ANTE, s, -1, st[P.paid + s], 0)
    # 2. Two face-down cards each, one at a time from the dealer's left.
    for k in range(2):
        for i in range(1, n + 1):
            s = seat_after(dealer, i, n)
            c = next_card(st, stream)
            if c == NO_CARD:
                void_deal(st, trace, s, out)
                return
            st[S.hole + HOLE * s + k] = c
            st[S.hole_mask + s] |= np.int64(card_bit(c))
            note(trace, st, EV_DEAL_DOWN, s, c, 0, 0)
    st[S.round] = 0
    st[B.phase] = PH_ROUND


@njit(cache=True, inline="always")
def _round(rules, st, stream, trace, out):
    """3-4. Start dealing round ``round``: its leader, then its first card. Inlined
    into ``play`` (0.977x the time a heuristic deal; ``_start``, ``_seventh`` and
    ``_hands`` inlined as well made the deal 1.08x slower)."""
    n = st[B.players]
    dealer = st[B.dealer]
    r = st[S.round]
    if r >= 4:
        st[B.phase] = PH_SEVENTH
        return
    st[S.leader] = seat_after(dealer, 1, n) if r == 0 else seat_after(st[S.leader], 1, n)  # SR-A8: nobody folds
    note(trace, st, EV_ROUND, st[S.leader], -1, r + 1, 0)
    if r == 0 and rules[R_FIRST_UPCARD_OFFERED] == 0:
        for i in range(1, n + 1):
            s = seat_after(dealer, i, n)
            c = next_card(st, stream)
            if c == NO_CARD:
                void_deal(st, trace, s, out)
                return
            _give_up_card(st, s, c)
            note(trace, st, EV_DEAL_UP, s, c, 0, 0)
        st[S.round] = 1
        return
    st[S.needs] = (1 << n) - 1
    st[S.lone_rejections] = 0
    st[B.phase] = PH_OFFER
    _turn_up(st, stream, trace, out, st[S.leader])


@njit(cache=True)
def _seventh(t, rules, st, stream, trace, out):
    """5. The seventh card face down, clockwise from the dealer's left; 7. the hands."""
    n = st[B.players]
    dealer = st[B.dealer]
    for i in range(1, n + 1):
        s = seat_after(dealer, i, n)
        c = next_card_or_restock(st, stream, trace)
        if c == NO_CARD:
            void_deal(st, trace, s, out)
            return
        st[S.hole + HOLE * s + 2] = c
        st[S.hole_mask + s] |= np.int64(card_bit(c))
        note(trace, st, EV_DEAL_DOWN, s, c, 0, 0)
    _hands(t, rules, st)


@njit(cache=True)
def _hands(t, rules, st):
    """7. Every seat's best high and low of its seven cards; the showdown begins."""
    n = st[B.players]
    threshold = np.int64(rules[R_LOW_QUALIFIER])
    split = int(rules[R_SPLIT_MODE])
    needs_low = split == SPLIT_DECLARE or split == SPLIT_CARDS_SPEAK  # no other split reads a low
    for s in range(n):
        natural = mask_at(st, S.hole_mask + s) | mask_at(st, S.up_mask + s)
        st[P.natural + s] = np.int64(natural)
        st[P.shown + s] = st[S.up_mask + s]
        # One key a hand, from its mask, for both tables.
        key = mask_key(t, natural)
        st[P.high + s] = plain_high(t, key, natural)
        st[P.low + s] = qualify(plain_low(t, key), threshold) if needs_low else 0
    begin_showdown(rules, st)


# A described table's observed offer decisions (``idata``, rows of HISTORY_WIDTH):
# the seat, the card, 1 taken / 0 refused, the seat's up cards then (mask), the up
# cards of the seat a refusal would hand it to (mask), and whether that seat would
# have had to take it. Only decisions the seat was free to make, of seats whose
# hole cards are unknown.
HISTORY_WIDTH = 6


@njit(cache=True)
def history_consistent(t, params, st, idata):
    """Whether every seat, holding the hole cards just dealt to it, would have made
    the choices the table saw (its policy is deterministic: a likelihood of 0 or 1)."""
    for i in range(idata.shape[0] // HISTORY_WIDTH):
        r = HISTORY_WIDTH * i
        s = idata[r]
        hole = card_bit(st[S.hole + HOLE * s]) | card_bit(st[S.hole + HOLE * s + 1])
        wants = wants_card(t, params[s], hole | np.uint64(idata[r + 3]), 0, idata[r + 1], np.uint64(idata[r + 4]),
                           0, idata[r + 5] != 0)
        if wants != (idata[r + 2] == 1):
            return False
    return True


@njit(cache=True)
def play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced):
    """Advance the deal in ``st`` to its end, writing the result row ``out``; or
    stop before the decision that would make ``stop`` decisions (``stop`` -1: never).
    ``forced`` >= 0 is taken as the action of the next decision instead of the
    policy's. Cards are drawn from the state's stock on ``stream``."""
    if st[P.n_unknown] > 0:
        if not deal_unknowns(st, stream):
            void_deal(st, trace, -1, out)
            return
        if idata.shape[0] > 0 and not history_consistent(t, params, st, idata):
            reject_deal(st, out)
            return
    while True:
        ph = st[B.phase]
        if ph == PH_DONE:
            return
        if ph == PH_START:
            _start(rules, st, stream, trace, out)
        elif ph == PH_ROUND:
            _round(rules, st, stream, trace, out)
        elif ph == PH_OFFER:
            can = _can_refuse(rules, st)
            action = TAKE
            if can:
                if paused(st, stop):
                    return
                if forced >= 0:
                    action = forced
                    forced = -1
                elif not _wants(t, rules, params, st):
                    action = REFUSE
                st[B.decisions] += 1
            _apply_offer(rules, st, stream, trace, out, action, can)
        elif ph == PH_SEVENTH:
            _seventh(t, rules, st, stream, trace, out)
        elif ph == PH_HANDS:
            _hands(t, rules, st)
        else:
            stopped, forced = showdown_step(rules, params, st, trace, out, stop, forced)
            if stopped:
                return


@njit(cache=True)
def decision(t, rules, params, idata, fdata, st, scratch, actions):
    """``(kind, seat, number of legal actions)`` at the decision ``play`` stopped
    at, the actions written to ``actions``; ``DK_NONE`` when the deal is over."""
    ph = st[B.phase]
    if ph == PH_OFFER:
        actions[0] = TAKE
        actions[1] = REFUSE
        return DK_OFFER, st[B.turn], 2
    if ph == PH_DECLARE:
        return DK_DECLARE, st[B.turn], declare_actions(actions)
    return DK_NONE, -1, 0
