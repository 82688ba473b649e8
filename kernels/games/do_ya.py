"""Do Ya: five-card stud where each player's hole card is wild for them, up cards
offered from the deck with the rejects left on the table (RULES.md §3.3), equity
mode (every player antes and goes to the showdown).

The deal is a state machine over one table state (``STATE``): ``play`` advances it
from any legal state to the end of the deal (or until a given number of decisions
has been taken), ``decision`` lists the legal actions where it stopped. A fresh
deal is ``init_state``. Decisions: a seat facing rejects on the table takes one of
them or asks for a fresh card (``DK_POOL``); a fresh card that may still be
refused is taken or refused (``DK_OFFER``); declarations when the split asks.
A described table's observed choices (``idata``, rows of ``HISTORY_WIDTH``) are
checked against each deal's unknown hole cards first (``history_consistent``).

The rejects on the table never number more than ``max_rejections``: a seat adds to
them only by refusing a fresh card while its refusals (the declined rejects
counted) are below ``max_rejections``, so a pool of k cards grows to at most
max(k, max_rejections), and every round's starts empty. They are kept in the
order refused, whatever their number.
"""

import numpy as np
from numba import njit

from ..cards import NO_CARD, card_bit, rank_mask_to_cards
from ..evaluate import high_mask, low_mask, one_wild_high_and_low, qualify
from ..policies import (
    ALWAYS, DENY_WEIGHT, POOL_THRESHOLD, TAKE_THRESHOLD, aim_of, best_gain, deny_can_change, own_score, public_gain,
    wants_card,
)
from ..ranking import FK_ABOVE_STRAIGHT_FLUSH, popcount
from .common import (
    DK_DECLARE,
    DK_NONE,
    DK_OFFER,
    DK_POOL,
    EV_ANTE,
    EV_DEAD,
    EV_DEAL_DOWN,
    EV_FORCED_NO_STOCK,
    EV_OFFER,
    EV_POOL_DECLINE,
    EV_POOL_TAKE,
    EV_REJECT,
    EV_ROUND,
    EV_TAKE,
    EV_TURN_UP,
    PH_DECLARE,
    PH_DONE,
    POOL_DRAW,
    POT_RESULT,
    POT_STATE,
    R_ANTE,
    R_LOW_QUALIFIER,
    REFUSE,
    SEATS,
    SHOWDOWN_RULES,
    TAKE,
    B,
    P,
    add_dead,
    begin_showdown,
    deal_unknowns,
    declare_actions,
    init_pot_state,
    mask_at,
    next_card,
    next_card_or_restock,
    note,
    paused,
    reject_deal,
    seat_after,
    showdown_step,
    void_deal,
)

RULES = SHOWDOWN_RULES.extend("do_ya_rules", [
    ("max_rejections", 1),
    ("wild_mode", 1),  # DY-A2: 0 hole card only, 1 every card of its rank
    ("five_kind", 1),  # DY-A1: kernels.ranking.FK_*
    ("wild_duplicate", 1),  # DY-A3
])
R_MAX_REJECTIONS = RULES.at.max_rejections
R_WILD_MODE = RULES.at.wild_mode
R_FIVE_KIND = RULES.at.five_kind
R_WILD_DUPLICATE = RULES.at.wild_duplicate
N_RULES = RULES.size

WILD_HOLE_CARD = 0
WILD_RANK = 1

MAX_PLAYERS = 8
HOLE = 1
UP = 4
POOL = 2 * MAX_PLAYERS  # rejects one round can leave on the table (max_rejections per seat)

STATE = POT_STATE.extend("do_ya", [
    ("hole", (SEATS, HOLE)),  # the wild hole card (NO_CARD: not yet)
    ("up", (SEATS, UP)),  # face-up cards in the order received
    ("n_up", SEATS),
    ("up_mask", SEATS),
    ("round", 1),  # up-round 0..3 (4: all dealt)
    ("position", 1),  # the seat to act is the position-th from the dealer's left (1..players)
    ("pool", POOL),  # rejects on the table this round, in the order the kernel keeps them
    ("n_pool", 1),
    ("offer", 1),  # the fresh card on offer (NO_CARD none)
    ("rejections", 1),  # refusals so far for this seat's card (declining the pool counts its cards)
])
S = STATE.at
RESULT = POT_RESULT

# Game phases.
PH_START = 0  # antes, the wild hole cards
PH_ROUND = 1  # an up-round begins (or the four are done)
PH_SEAT = 2  # the next seat of the round gets its card (or the round ends)
PH_POOL = 3  # decision: a reject from the table, or a fresh card
PH_DRAW = 4  # a fresh card is turned up for the seat to act
PH_OFFER = 5  # decision: take the fresh card or refuse it
PH_HANDS = 6  # the hands are made, then the showdown


@njit(cache=True)
def state_slots():
    """The offsets this compiled kernel uses (a test compares them with ``STATE``)."""
    return S


@njit(cache=True)
def init_state(rules, st, n, dealer):
    init_pot_state(st, n, dealer, np.int64(rules[R_ANTE]))
    for s in range(SEATS):
        st[S.hole + HOLE * s] = NO_CARD
        for k in range(UP):
            st[S.up + UP * s + k] = NO_CARD
    st[S.offer] = NO_CARD


@njit(cache=True, inline="always")
def wild_cards(rules, hole_card, cards):
    """The wild cards among ``cards`` (a mask) for a player whose hole card is given."""
    if int(rules[R_WILD_MODE]) == WILD_RANK:
        return cards & rank_mask_to_cards(1 << (hole_card >> 2))
    return card_bit(hole_card) & cards


@njit(cache=True, inline="always")
def split_wild(rules, hole_card, up_cards):
    """``(natural mask, number of wild cards)`` of a hole card and an up-card mask."""
    cards = up_cards | card_bit(hole_card)
    wild = wild_cards(rules, hole_card, cards)
    return cards & ~wild, popcount(wild)


@njit(cache=True, inline="always")
def _seat_hand(rules, st, p):
    return split_wild(rules, st[S.hole + HOLE * p], mask_at(st, S.up_mask + p))


@njit(cache=True)
def _best_pool_card(t, policy, natural, w, cards, start, k):
    """``best_gain`` for my aim, a call of its own, for the cold paths: the stock and
    the dead cards run out, and ``history_consistent``. numba compiles an inlined
    function's whole tree again at each site it is inlined at (the pool choice's
    took 6-12 s of compile a site); ``play``'s own pool choice keeps it inlined (as
    a call, tuned deals measured 1.15-1.17x slower)."""
    return best_gain(t, policy, natural, w, cards, start, k, aim_of(policy, natural))


@njit(cache=True, inline="always")
def _pool_pick(t, policy, natural, w, cards, start, k):
    """A policy at the rejects ``cards[start:start + k]`` (in the order refused): the
    card code it takes, or ``POOL_DRAW``."""
    best, most = best_gain(t, policy, natural, w, cards, start, k, aim_of(policy, natural))
    return _picked(policy, cards, start, best, most)


@njit(cache=True, inline="always")
def _picked(policy, cards, start, best, most):
    """The pool choice from ``best_gain``'s answer: that card, if it gains enough."""
    if most >= policy[POOL_THRESHOLD]:
        return cards[start + best]
    return POOL_DRAW


@njit(cache=True, inline="always")
def _pool_choice(t, rules, params, st):
    """The seat to act's policy at the rejects: a card code, or ``POOL_DRAW``."""
    p = st[B.turn]
    if params[p, POOL_THRESHOLD] <= ALWAYS:
        return st[S.pool]  # "always take": the first reject, no estimate needed
    natural, w = _seat_hand(rules, st, p)
    return _pool_pick(t, params[p], natural, w, st, S.pool, st[S.n_pool])


@njit(cache=True, inline="always")
def _later_seat(st):
    """The first active seat still to act this round after the seat to act (a reject
    of its own would lie on the table for that seat), or -1: it acts last."""
    n = st[B.players]
    for position in range(st[S.position] + 1, n + 1):
        s = seat_after(st[B.dealer], position, n)
        if st[P.active + s]:
            return s
    return -1


@njit(cache=True, inline="always")
def _wants(t, rules, params, st):
    """Take the fresh card on offer? What the next player could do with my reject is
    judged from their up cards plus one unknown wild hole card."""
    p = st[B.turn]
    if params[p, TAKE_THRESHOLD] <= ALWAYS:
        return True  # "always take", decided before building the policy's arguments
    natural, w = _seat_hand(rules, st, p)
    policy = params[p]
    # ``wants_card``'s decision from its parts, with the later seat found only when
    # the deny term can still change the choice, not before every decision (the walk
    # is a loop): the same decision as ``history_consistent`` asks ``wants_card`` for.
    cm = card_bit(st[S.offer])
    score = own_score(t, policy, natural, w, cm)
    if deny_can_change(policy, score):
        nxt = _later_seat(st)
        if nxt >= 0:
            score += policy[DENY_WEIGHT] * public_gain(t, policy, mask_at(st, S.up_mask + nxt), 1, cm)
    return score >= policy[TAKE_THRESHOLD]


@njit(cache=True, inline="always")
def _take_from_pool(st, c):
    """Remove ``c`` from the rejects; those after it move up, keeping their order."""
    k = st[S.n_pool]
    for j in range(k):
        if st[S.pool + j] == c:
            for i in range(j, k - 1):
                st[S.pool + i] = st[S.pool + i + 1]
            st[S.n_pool] = k - 1
            return


@njit(cache=True, inline="always")
def _give(st, p, c):
    """Seat p receives its up card for this round; the next seat is up."""
    st[S.up + UP * p + st[S.n_up + p]] = c
    st[S.n_up + p] += 1
    st[S.up_mask + p] |= np.int64(card_bit(c))
    st[P.seen] |= np.int64(card_bit(c))
    st[S.offer] = NO_CARD
    st[S.position] += 1
    st[B.phase] = PH_SEAT


@njit(cache=True, inline="always")
def _apply_pool(st, trace, action):
    p = st[B.turn]
    if action == POOL_DRAW:
        note(trace, st, EV_POOL_DECLINE, p, -1, st[S.n_pool], 0)
        st[S.rejections] = st[S.n_pool]
        st[B.phase] = PH_DRAW
        return
    _take_from_pool(st, action)
    note(trace, st, EV_POOL_TAKE, p, action, 0, 0)
    _give(st, p, action)


@njit(cache=True, inline="always")
def _apply_offer(st, trace, action):
    p = st[B.turn]
    c = st[S.offer]
    if action == TAKE:
        note(trace, st, EV_TAKE, p, c, 0, 0)
        _give(st, p, c)
        return
    st[S.pool + st[S.n_pool]] = c
    st[S.n_pool] += 1
    st[S.rejections] += 1
    st[S.offer] = NO_CARD
    note(trace, st, EV_REJECT, p, c, st[S.rejections], 0)
    st[B.phase] = PH_DRAW


@njit(cache=True)
def _start(st, stream, trace, out):
    """1. Antes; the wild hole card, one each from the dealer's left."""
    n = st[B.players]
    dealer = st[B.dealer]
    for s in range(n):
        note(trace, st, EV_ANTE, s, -1, st[P.paid + s], 0)
    for i in range(1, n + 1):
        s = seat_after(dealer, i, n)
        c = next_card(st, stream)
        if c == NO_CARD:
            void_deal(st, trace, s, out)
            return
        st[S.hole + HOLE * s] = c
        note(trace, st, EV_DEAL_DOWN, s, c, 0, 0)
    st[S.round] = 0
    st[B.phase] = PH_ROUND


@njit(cache=True, inline="always")
def _round(st, trace):
    """2. An up-round: every seat gets one card, from the dealer's left."""
    if st[S.round] >= 4:
        st[B.phase] = PH_HANDS
        return
    note(trace, st, EV_ROUND, -1, -1, st[S.round] + 1, 0)
    st[S.n_pool] = 0
    st[S.position] = 1
    st[B.phase] = PH_SEAT


@njit(cache=True, inline="always")
def _seat(st, trace):
    n = st[B.players]
    while st[S.position] <= n and not st[P.active + seat_after(st[B.dealer], st[S.position], n)]:
        st[S.position] += 1  # a folded seat gets no more cards (RULES.md §0.1.2)
    if st[S.position] > n:
        # 3. The rejects left on the table are dead (seen, then turned down).
        for j in range(st[S.n_pool]):
            c = st[S.pool + j]
            add_dead(st, c)
            note(trace, st, EV_DEAD, -1, c, 0, 0)
        st[S.n_pool] = 0
        st[S.round] += 1
        st[B.turn] = -1
        st[B.phase] = PH_ROUND
        return
    st[B.turn] = seat_after(st[B.dealer], st[S.position], n)
    st[S.rejections] = 0
    st[B.phase] = PH_POOL if st[S.n_pool] > 0 else PH_DRAW


@njit(cache=True, inline="always")
def _draw(t, rules, params, st, stream, trace, out):
    """A fresh card for the seat to act; taken at once when it has had its refusals."""
    p = st[B.turn]
    c = next_card_or_restock(st, stream, trace)
    if c == NO_CARD:
        if st[S.n_pool] == 0:
            void_deal(st, trace, p, out)
            return
        # Stock and dead cards exhausted: take the pool card of my choice.
        natural, w = _seat_hand(rules, st, p)
        best, _ = _best_pool_card(t, params[p], natural, w, st, S.pool, st[S.n_pool])
        taken = st[S.pool + best]
        _take_from_pool(st, taken)
        note(trace, st, EV_FORCED_NO_STOCK, p, taken, 0, 0)
        _give(st, p, taken)
        return
    st[P.seen] |= np.int64(card_bit(c))
    note(trace, st, EV_TURN_UP, -1, c, 0, 0)
    note(trace, st, EV_OFFER, p, c, st[S.rejections], 0)
    st[S.offer] = c
    if st[S.rejections] >= int(rules[R_MAX_REJECTIONS]):
        note(trace, st, EV_TAKE, p, c, 1, 0)
        _give(st, p, c)
        return
    st[B.phase] = PH_OFFER


@njit(cache=True)
def _hands(t, rules, st):
    """Showdown hands: four up cards plus the wild hole card."""
    n = st[B.players]
    threshold = np.int64(rules[R_LOW_QUALIFIER])
    fk = int(rules[R_FIVE_KIND])
    dup = rules[R_WILD_DUPLICATE] > 0
    for s in range(n):
        natural, w = _seat_hand(rules, st, s)
        st[P.natural + s] = np.int64(natural)
        st[P.shown + s] = st[S.up_mask + s]
        if w == 1 and fk == FK_ABOVE_STRAIGHT_FLUSH and not dup and popcount(natural) <= 5:
            high, low = one_wild_high_and_low(t, natural)  # the default rules' hands, one key for both
        else:
            high, low = high_mask(t, natural, w, fk, dup), low_mask(natural, w)
        st[P.high + s] = high
        st[P.low + s] = qualify(low, threshold)
        st[P.high_natural + s] = 0  # every Do Ya hand plays its wild card
    begin_showdown(rules, st)


# A described table's observed decisions (``idata``, rows of HISTORY_WIDTH), only
# those of seats whose hole card is unknown: the kind (H_POOL: at the rejects,
# H_OFFER: a fresh card it was free to refuse), the seat, the action seen (H_POOL:
# the card code taken or POOL_DRAW; H_OFFER: TAKE or REFUSE), the fresh card
# (H_OFFER), the seat's up cards then (mask), the up cards of the next seat to act
# that round (mask; 0 when none), 1 when such a seat was still to act, the number of
# rejects on the table, then the rejects in the order refused (H_POOL).
H_POOL = 0
H_OFFER = 1
HISTORY_WIDTH = 8 + POOL


@njit(cache=True)
def history_consistent(t, rules, params, st, idata):
    """Whether every seat, holding the hole card just dealt to it, would have made
    the choices the table saw (its policy is deterministic: a likelihood of 0 or 1).
    Under ``wild_mode`` hole_card_only the hole card is wild whatever it is, so a
    seat's choices do not depend on it: they agree with every deal or with none."""
    for i in range(idata.shape[0] // HISTORY_WIDTH):
        r = HISTORY_WIDTH * i
        s = idata[r + 1]
        policy = params[s]
        natural, w = split_wild(rules, st[S.hole + HOLE * s], np.uint64(idata[r + 4]))
        if idata[r] == H_POOL:
            if policy[POOL_THRESHOLD] <= ALWAYS:
                chosen = idata[r + 8]  # "always take": the first reject
            else:
                best, most = _best_pool_card(t, policy, natural, w, idata, r + 8, idata[r + 7])
                chosen = _picked(policy, idata, r + 8, best, most)
            if chosen != idata[r + 2]:
                return False
        else:
            wants = wants_card(t, policy, natural, w, idata[r + 3], np.uint64(idata[r + 5]), 1, idata[r + 6] != 0)
            if wants != (idata[r + 2] == TAKE):
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
        if idata.shape[0] > 0 and not history_consistent(t, rules, params, st, idata):
            reject_deal(st, out)
            return
    while True:
        ph = st[B.phase]
        if ph == PH_DONE:
            return
        if ph == PH_START:
            _start(st, stream, trace, out)
        elif ph == PH_ROUND:
            _round(st, trace)
        elif ph == PH_SEAT:
            _seat(st, trace)
        elif ph == PH_POOL:
            if paused(st, stop):
                return
            if forced >= 0:
                action = forced
                forced = -1
            else:
                action = _pool_choice(t, rules, params, st)
            st[B.decisions] += 1
            _apply_pool(st, trace, action)
        elif ph == PH_DRAW:
            _draw(t, rules, params, st, stream, trace, out)
        elif ph == PH_OFFER:
            if paused(st, stop):
                return
            if forced >= 0:
                action = forced
                forced = -1
            else:
                action = TAKE if _wants(t, rules, params, st) else REFUSE
            st[B.decisions] += 1
            _apply_offer(st, trace, action)
        elif ph == PH_HANDS:
            _hands(t, rules, st)
        else:
            stopped, forced = showdown_step(rules, params, st, trace, out, stop, forced)
            if stopped:
                return


@njit(cache=True)
def decision(t, rules, params, idata, fdata, st, scratch, actions):
    """``(kind, seat, number of legal actions)`` at the decision ``play`` stopped
    at, the actions written to ``actions``; ``DK_NONE`` when the deal is over. At
    the rejects: each reject's card code, or ``POOL_DRAW`` (declining them is always
    allowed; with no card left to draw the seat then takes a reject after all)."""
    ph = st[B.phase]
    if ph == PH_POOL:
        k = st[S.n_pool]
        for j in range(k):
            actions[j] = st[S.pool + j]
        actions[k] = POOL_DRAW
        return DK_POOL, st[B.turn], k + 1
    if ph == PH_OFFER:
        actions[0] = TAKE
        actions[1] = REFUSE
        return DK_OFFER, st[B.turn], 2
    if ph == PH_DECLARE:
        return DK_DECLARE, st[B.turn], declare_actions(actions)
    return DK_NONE, -1, 0
