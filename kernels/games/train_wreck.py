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

The deal is a state machine over one table state (``STATE``): ``play`` advances it
from any legal state to the end of the deal (or until a given number of decisions
has been taken), ``decision`` lists the legal actions where it stopped. A fresh
deal is ``init_state``. Decision points, in order of play:

* ``DK_PAY`` the seat offered a table card: ``ACCEPT`` it free or ``PAY`` the fee to
  refuse it (only when a card could replace it, TW-A9 a);
* ``DK_EXTRA`` (optional actions only) a pair of 2s: ``EXTRA_DECLINE`` or ``EXTRA_TAKE``;
* ``DK_TARGET`` a discard or steal: ``64 * victim + card code`` (``HOLE_BLIND``: one of
  the victim's hole cards at random), listed in the order the candidates are built
  (opponents clockwise from the actor, each one's cards in mask-bit order, then its
  blind hole card), then ``DECLINE`` when actions are optional; not a decision when
  the action is mandatory and has a single target;
* ``DK_DECLARE`` (only with a declare split; Train Wreck is high only).

A described table resumes at any of the phases: a street's start, an offer, the
special pairs still to act (``PH_RESOLVE``) or, every card dealt, the hands
(``PH_HANDS``). With ``--condition`` (``idata`` rows, see ``history_consistent``) a
deal whose unknown hole cards disagree with the choices seen is dropped.
"""

import numpy as np
from numba import njit

from ..cards import NO_CARD, card_bit, rank_mask_to_cards
from ..evaluate import high_mask
from ..policies import ALWAYS, TW_NEVER, TW_PAY_THRESHOLD, tw_pays, tw_takes_extra, tw_target
from ..ranking import CAT_SHIFT, HIGH_CARD, low_bit, popcount
from ..rng import below
from .common import (
    deal_unknowns,
    reject_deal,
    ACCEPT,
    DECLINE,
    DK_DECLARE,
    DK_EXTRA,
    DK_NONE,
    DK_PAY,
    DK_TARGET,
    EV_ACCEPT,
    EV_ANTE,
    EV_BURY,
    EV_COMMUNITY,
    EV_DEAL_DOWN,
    EV_DEAL_UP,
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
    EXTRA_DECLINE,
    EXTRA_TAKE,
    HOLE_BLIND,
    SHOWDOWN_RULES,
    PAY,
    PH_DECLARE,
    PH_DONE,
    POT_RESULT,
    POT_STATE,
    R_ANTE,
    SEATS,
    B,
    P,
    add_dead,
    begin_showdown,
    declare_actions,
    init_pot_state,
    mask_at,
    next_card,
    next_card_or_restock,
    note,
    paused,
    seat_after,
    showdown_step,
    stock_left,
    void_deal,
)

# Game rules (after the shared showdown options).
RULES = SHOWDOWN_RULES.extend("train_wreck_rules", [
    ("fee_unit", 1),  # TW-A1: chips (the big bet, 4, by default)
    ("fee_multipliers", 3),  # streets 4, 5, 6
    ("special_pairs", 13),  # ranks 2..A: ACTION_*
    ("targets", 1),  # TW-A3: TARGETS_*
    ("special_timing", 1),  # TW-A4: TIMING_*
    ("retrigger", 1),  # TW-A5
    ("actions_optional", 1),  # TW-A7
    ("pairs_count_extras", 1),  # TW-A11
    ("reshuffle_buried", 1),  # TW-A9 (b)
    ("community_card", 1),  # TW-A9 (c)
    ("include_folded", 1),  # TW-A3: no effect in equity mode (nobody folds)
])
R_FEE_UNIT = RULES.at.fee_unit
R_FEE_MULTIPLIERS = RULES.at.fee_multipliers
R_SPECIAL_PAIRS = RULES.at.special_pairs
R_TARGETS = RULES.at.targets
R_SPECIAL_TIMING = RULES.at.special_timing
R_RETRIGGER = RULES.at.retrigger
R_ACTIONS_OPTIONAL = RULES.at.actions_optional
R_PAIRS_COUNT_EXTRAS = RULES.at.pairs_count_extras
R_RESHUFFLE_BURIED = RULES.at.reshuffle_buried
R_COMMUNITY_CARD = RULES.at.community_card
R_INCLUDE_FOLDED = RULES.at.include_folded
N_RULES = RULES.size

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
FULL_DECK = np.uint64(0x1FFF1FFF1FFF1FFF)

STATE = POT_STATE.extend("train_wreck", [
    ("hole", (SEATS, HOLE)),  # face-down cards: two dealt, the 7th-street card (NO_CARD: none, or taken)
    ("up", (SEATS, UP)),  # face-up cards in the order received (table, extra, stolen, community)
    ("n_up", SEATS),
    ("hole_mask", SEATS),
    ("table", SEATS),  # the stud table cards (mask): the only cards that make special pairs
    ("extra", SEATS),  # extra cards dealt for a pair of 2s (mask)
    ("stolen", SEATS),  # cards stolen with a pair of 5s (mask)
    ("triggered", SEATS),  # rank bits that have triggered this deal (TW-A5)
    ("pending", SEATS),  # rank bits whose action is still to be carried out
    ("street", 1),  # 4..6 during the offers, 7 after
    ("step", 1),  # the place in dealing order (1..n) of the seat dealt this street's card
    ("offered", 1),  # the table card on offer (NO_CARD: a new one is turned for the next seat)
    ("refusals", 1),  # fees paid to refuse the card on offer
    ("fee", 1),  # this street's fee in chips
    ("buried", 52),  # refused by the last player: out of the deal (TW-A9 b: or reshuffled)
    ("n_buried", 1),
    ("community", 1),  # the 7th-street community card (mask; TW-A9 c)
    ("resolver", 1),  # the seat carrying out its special pairs
    ("res_step", 1),  # end-of-street actions: the resolver's place in dealing order
    ("act_rank", 1),  # the rank whose action the resolver carries out now (-1 none)
])
S = STATE.at
RESULT = POT_RESULT

# Game phases.
PH_START = 0  # antes, two cards down and table card #1 each
PH_STREET = 1  # a street (4..6) begins, or 7th street
PH_SEAT = 2  # the seat at ``step`` is offered this street's card (a new one turned if needed)
PH_PAY = 3  # the seat ``turn`` accepts the offered card or pays to refuse it
PH_RESOLVE = 4  # the resolver's next pending special pair, or the next resolver
PH_ACT = 5  # the resolver carries out its pair of ``act_rank``
PH_SEVENTH = 6  # 7th street, then the showdown
PH_HANDS = 7  # every card dealt (a described table after 7th street): the hands, then the showdown

# Scratch (per-thread work space, never state): the seats' face-up masks and the
# candidate targets.
SC_VISIBLE = 0
SC_CAND_SEAT = SEATS
SC_CAND_CARD = SEATS + MAX_CANDIDATES


@njit(cache=True)
def state_slots():
    """The offsets this compiled kernel uses (a test compares them with ``STATE``)."""
    return S


@njit(cache=True)
def fee_of(rules, street):
    """Fee in chips to refuse the offered card on street 4, 5 or 6."""
    return rules[R_FEE_UNIT] * rules[R_FEE_MULTIPLIERS + street - 4]


@njit(cache=True)
def init_state(rules, st, n, dealer):
    init_pot_state(st, n, dealer, np.int64(rules[R_ANTE]))
    for s in range(SEATS):
        for k in range(HOLE):
            st[S.hole + HOLE * s + k] = NO_CARD
        for k in range(UP):
            st[S.up + UP * s + k] = NO_CARD
    st[S.offered] = NO_CARD
    st[S.resolver] = -1
    st[S.act_rank] = -1


@njit(cache=True, inline="always")
def _with_buried(rules):
    return rules[R_RESHUFFLE_BURIED] > 0


@njit(cache=True, inline="always")
def _immediate(rules):
    return int(rules[R_SPECIAL_TIMING]) == TIMING_IMMEDIATE


@njit(cache=True, inline="always")
def _visible(st, s):
    """Seat s's face-up cards that others may take (table, extra and stolen)."""
    return mask_at(st, S.table + s) | mask_at(st, S.extra + s) | mask_at(st, S.stolen + s)


@njit(cache=True, inline="always")
def _or(st, i, bit):
    st[i] = np.int64(mask_at(st, i) | bit)


@njit(cache=True, inline="always")
def _clear(st, i, bit):
    st[i] = np.int64(mask_at(st, i) & ~bit)


@njit(cache=True)
def _available(rules, st):
    """Cards that can still be dealt: the stock, then the dead cards (and the buried
    ones with ``reshuffle_includes_buried``) shuffled into a new stock."""
    return stock_left(st) + st[P.n_dead] + (st[S.n_buried] if _with_buried(rules) else 0)


@njit(cache=True, inline="always")
def _draw(rules, st, stream, trace):
    """Draw one card, rebuilding an empty stock first (TW-A9 b); NO_CARD when none is left.
    Inlined: as a call it passed the state, stream and trace as several words each
    (3-4% of a deal)."""
    if _with_buried(rules) and st[S.n_buried] > 0 and stock_left(st) == 0:
        for i in range(st[S.n_buried]):
            add_dead(st, st[S.buried + i])
        st[S.n_buried] = 0
    return next_card_or_restock(st, stream, trace)


@njit(cache=True)
def _add_up(st, s, c):
    st[S.up + UP * s + st[S.n_up + s]] = c
    st[S.n_up + s] += 1


@njit(cache=True)
def _remove_up(st, s, c):
    k = 0
    base = S.up + UP * s
    for j in range(st[S.n_up + s]):
        if st[base + j] != c:
            st[base + k] = st[base + j]
            k += 1
    for j in range(k, st[S.n_up + s]):
        st[base + j] = NO_CARD
    st[S.n_up + s] = k


@njit(cache=True)
def _counted(rules, st, s):
    """The cards seat s's special pairs are counted among (TW-A11)."""
    if rules[R_PAIRS_COUNT_EXTRAS] > 0:
        return _visible(st, s)
    return mask_at(st, S.table + s)


@njit(cache=True)
def _trigger(rules, st, trace, s, c):
    """§4.4.1: seat s just received ``c``. A count of c's rank going from 1 to 2 among
    the cards its pairs are counted in makes the seat pending for that rank, once per
    deal unless ``retrigger``."""
    r = c >> 2
    action = int(rules[R_SPECIAL_PAIRS + r])
    if action == ACTION_NONE:
        return
    if popcount(_counted(rules, st, s) & rank_mask_to_cards(1 << r)) != 2:
        return
    bit = 1 << r
    if st[S.triggered + s] & bit and rules[R_RETRIGGER] == 0:
        return
    st[S.triggered + s] |= bit
    st[S.pending + s] |= bit
    note(trace, st, EV_SPECIAL, s, c, action, r)


@njit(cache=True)
def _candidates(rules, st, p, cand_seat, cand_card):
    """Eligible targets of seat p's discard or steal (TW-A3): every opponent's table
    cards, or all its face-up cards, or those and one of its hole cards taken blind
    (card NO_CARD), opponents clockwise from p. Returns how many."""
    n = st[B.players]
    targets = int(rules[R_TARGETS])
    n_cand = 0
    for i in range(1, n):
        o = seat_after(p, i, n)
        m = mask_at(st, S.table + o)
        if targets != TARGETS_TABLE:
            m = _visible(st, o)
        while m and n_cand < MAX_CANDIDATES:
            b = low_bit(m)
            m &= m - np.uint64(1)
            cand_seat[n_cand] = o
            cand_card[n_cand] = 4 * (b & 15) + (b >> 4)
            n_cand += 1
        if targets == TARGETS_ANY and st[S.hole_mask + o] and n_cand < MAX_CANDIDATES:
            cand_seat[n_cand] = o
            cand_card[n_cand] = NO_CARD
            n_cand += 1
    return n_cand


@njit(cache=True, inline="always")
def _target_action(seat, c):
    return 64 * seat + (HOLE_BLIND if c == NO_CARD else c)


@njit(cache=True)
def _start(rules, st, stream, trace, out):
    """4.3.1 Antes; two face-down cards, then table card #1 face up, one card a
    circuit from the dealer's left."""
    n = st[B.players]
    dealer = st[B.dealer]
    for s in range(n):
        note(trace, st, EV_ANTE, s, -1, st[P.paid + s], 0)
    note(trace, st, EV_STREET, seat_after(dealer, 1, n), -1, 3, 0)
    for k in range(3):
        for i in range(1, n + 1):
            s = seat_after(dealer, i, n)
            c = next_card(st, stream)
            if c == NO_CARD:
                void_deal(st, trace, s, out)
                return
            bit = card_bit(c)
            if k < 2:
                st[S.hole + HOLE * s + k] = c
                _or(st, S.hole_mask + s, bit)
                note(trace, st, EV_DEAL_DOWN, s, c, 0, 0)
            else:
                _or(st, S.table + s, bit)
                _or(st, P.seen, bit)
                _add_up(st, s, c)
                note(trace, st, EV_DEAL_UP, s, c, 0, 0)
    st[S.street] = 4
    st[B.phase] = PH_STREET


@njit(cache=True)
def _street(rules, st, trace):
    """4.3.3 Streets 4, 5, 6: table cards #2-#4 offered, refused for a fee."""
    n = st[B.players]
    street = st[S.street]
    if street > 6:
        st[B.phase] = PH_SEVENTH
        return
    fee = fee_of(rules, street)
    st[S.fee] = np.int64(fee)
    note(trace, st, EV_STREET, seat_after(st[B.dealer], 1, n), -1, street, np.int64(fee))
    st[S.offered] = NO_CARD
    st[S.refusals] = 0
    st[S.step] = 1
    st[B.phase] = PH_SEAT


@njit(cache=True)
def _end_of_street(rules, st, trace):
    """4.3.3.4 The last player's refused card is buried: seen, never used; 4.3.3.5
    then the special pairs, in dealing order (§4.4.2)."""
    n = st[B.players]
    offered = st[S.offered]
    if offered != NO_CARD:
        st[S.buried + st[S.n_buried]] = offered
        st[S.n_buried] += 1
        note(trace, st, EV_BURY, st[B.dealer], offered, 0, 0)
        st[S.offered] = NO_CARD
    st[B.turn] = -1
    if _immediate(rules):
        st[S.street] += 1
        st[B.phase] = PH_STREET
    else:
        st[S.res_step] = 1
        st[S.resolver] = seat_after(st[B.dealer], 1, n)
        st[B.phase] = PH_RESOLVE


# The steps taken at every seat (``_seat``, ``_pays``, ``_apply_pay``, and ``_draw``)
# are inlined into ``play``: as calls they passed the tables, the state, the stream
# and the trace as several words each, and took a tenth of a heuristic deal.
@njit(cache=True, inline="always")
def _seat(rules, st, stream, trace):
    """The seat at ``step`` is offered the card on offer, or a newly turned one."""
    n = st[B.players]
    i = st[S.step]
    if i > n:
        _end_of_street(rules, st, trace)
        return
    p = seat_after(st[B.dealer], i, n)
    if st[S.offered] == NO_CARD:
        offered = _draw(rules, st, stream, trace)
        if offered == NO_CARD:
            note(trace, st, EV_NO_CARD, p, -1, LOST_TABLE_CARD, 0)
            st[S.step] = i + 1
            return
        _or(st, P.seen, card_bit(offered))
        st[S.offered] = offered
        st[S.refusals] = 0
        note(trace, st, EV_TURN_UP, -1, offered, 0, 0)
    note(trace, st, EV_OFFER, p, st[S.offered], st[S.refusals], 0)
    st[B.turn] = p
    st[B.phase] = PH_PAY


@njit(cache=True, inline="always")
def _pays(t, params, st):
    """The policy of the seat to act: pay to refuse the card on offer?"""
    n = st[B.players]
    p = st[B.turn]
    th = params[p, TW_PAY_THRESHOLD]
    if th >= TW_NEVER or th <= ALWAYS:
        return th <= ALWAYS  # never or always pays: decided before building the policy's arguments
    return tw_pays(t, params[p], mask_at(st, S.hole_mask + p) | _visible(st, p), st[S.offered],
                   np.float64(st[S.fee]), _visible(st, seat_after(p, 1, n)), st[S.step] == n, mask_at(st, P.seen))


@njit(cache=True, inline="always")
def _apply_pay(rules, st, stream, trace, action, can_pay):
    """The seat to act pays (and is dealt the next card) or accepts the offered card;
    the card joins its table cards and may trigger a special pair."""
    p = st[B.turn]
    offered = st[S.offered]
    if action == PAY:
        fee = st[S.fee]
        st[P.paid + p] += fee
        note(trace, st, EV_PAY_FEE, p, offered, fee, 0)
        c = _draw(rules, st, stream, trace)
        note(trace, st, EV_DEAL_UP, p, c, 0, 0)
        st[S.refusals] += 1
    else:
        c = offered
        st[S.offered] = NO_CARD
        note(trace, st, EV_ACCEPT, p, c, 0 if can_pay else 1, 0)
    bit = card_bit(c)
    _or(st, S.table + p, bit)
    _or(st, P.seen, bit)
    _add_up(st, p, c)
    _trigger(rules, st, trace, p, c)
    if _immediate(rules):
        st[S.resolver] = p
        st[B.phase] = PH_RESOLVE
    else:
        st[S.step] += 1
        st[B.phase] = PH_SEAT


@njit(cache=True)
def _resolve(rules, st):
    """§4.4.3 The resolver's pending special pairs, in rank order; after the last, the
    next seat is dealt (immediate timing) or the next seat resolves (end of street)."""
    p = st[S.resolver]
    pending = st[S.pending + p]
    if pending:
        r = low_bit(pending)
        st[S.pending + p] = pending & ~(1 << r)
        st[S.act_rank] = r
        st[B.turn] = p
        st[B.phase] = PH_ACT
        return
    st[B.turn] = -1
    if _immediate(rules):
        st[S.step] += 1
        st[B.phase] = PH_SEAT
        return
    n = st[B.players]
    st[S.res_step] += 1
    if st[S.res_step] > n:
        st[S.resolver] = -1
        st[S.street] += 1
        st[B.phase] = PH_STREET
    else:
        st[S.resolver] = seat_after(st[B.dealer], st[S.res_step], n)


@njit(cache=True)
def _act_done(st):
    st[S.act_rank] = -1
    st[B.phase] = PH_RESOLVE


@njit(cache=True)
def _act(t, rules, params, st, stream, trace, scratch, stop, forced):
    """Seat ``resolver`` carries out its pair of ``act_rank``: an extra card, or a
    discard or steal of a target. Returns ``(paused, forced)``."""
    n = st[B.players]
    p = st[S.resolver]
    r = st[S.act_rank]
    action = int(rules[R_SPECIAL_PAIRS + r])
    optional = rules[R_ACTIONS_OPTIONAL] > 0
    counts_extras = rules[R_PAIRS_COUNT_EXTRAS] > 0
    mine = mask_at(st, S.hole_mask + p) | _visible(st, p)
    unseen = FULL_DECK & ~(mask_at(st, P.seen) | mine)
    if action == ACTION_EXTRA_CARD:
        if st[S.n_up + p] >= UP - 1:
            note(trace, st, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_NO_ROOM)
            _act_done(st)
            return False, forced
        if optional:
            if paused(st, stop):
                return True, forced
            if forced >= 0:
                take = forced == EXTRA_TAKE
                forced = -1
            else:
                take = tw_takes_extra(t, params[p], mine, unseen)
            st[B.decisions] += 1
            if not take:
                note(trace, st, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_DECLINED)
                _act_done(st)
                return False, forced
        note(trace, st, EV_EXTRA_CARD, p, -1, r, 0)
        c = _draw(rules, st, stream, trace)
        if c == NO_CARD:
            note(trace, st, EV_NO_CARD, p, -1, LOST_EXTRA_CARD, 0)  # TW-A9 (d)
            _act_done(st)
            return False, forced
        note(trace, st, EV_DEAL_UP, p, c, 0, 0)
        _or(st, S.extra + p, card_bit(c))
        _or(st, P.seen, card_bit(c))
        _add_up(st, p, c)
        if counts_extras:
            _trigger(rules, st, trace, p, c)
        _act_done(st)
        return False, forced
    if action != ACTION_DISCARD and action != ACTION_STEAL:
        _act_done(st)
        return False, forced
    steal = action == ACTION_STEAL
    if steal and st[S.n_up + p] >= UP - 1:
        note(trace, st, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_NO_ROOM)
        _act_done(st)
        return False, forced
    cand_seat = scratch[SC_CAND_SEAT:SC_CAND_SEAT + MAX_CANDIDATES]
    cand_card = scratch[SC_CAND_CARD:SC_CAND_CARD + MAX_CANDIDATES]
    n_cand = _candidates(rules, st, p, cand_seat, cand_card)
    if n_cand == 0:
        note(trace, st, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_NO_TARGET)
        _act_done(st)
        return False, forced
    victim = -1
    c = NO_CARD
    if optional or n_cand > 1:
        if paused(st, stop):
            return True, forced
        if forced >= 0:
            if forced != DECLINE:
                victim = forced // 64
                c = forced % 64
                if c == HOLE_BLIND:
                    c = NO_CARD
            forced = -1
        else:
            visible = scratch[SC_VISIBLE:SC_VISIBLE + SEATS].view(np.uint64)
            for s in range(n):
                visible[s] = _visible(st, s)
            k = tw_target(t, params[p], steal, optional, mine, visible, cand_seat, cand_card, n_cand, unseen)
            if k >= 0:
                victim = cand_seat[k]
                c = cand_card[k]
        st[B.decisions] += 1
    else:
        victim = cand_seat[0]
        c = cand_card[0]
    if victim < 0:
        note(trace, st, EV_SPECIAL_SKIP, p, -1, action, 4 * r + SKIP_DECLINED)
        _act_done(st)
        return False, forced
    if c == NO_CARD:
        # A hole card taken blind: one of the victim's face-down cards at random.
        held = 0
        for j in range(HOLE):
            held += st[S.hole + HOLE * victim + j] != NO_CARD
        pick = below(stream, held)
        for j in range(HOLE):
            if st[S.hole + HOLE * victim + j] != NO_CARD:
                if pick == 0:
                    c = st[S.hole + HOLE * victim + j]
                    st[S.hole + HOLE * victim + j] = NO_CARD
                    break
                pick -= 1
        _clear(st, S.hole_mask + victim, card_bit(c))
        source = SOURCE_HOLE
    else:
        bit = card_bit(c)
        source = SOURCE_TABLE if mask_at(st, S.table + victim) & bit else SOURCE_FACE_UP
        _clear(st, S.table + victim, bit)
        _clear(st, S.extra + victim, bit)
        _clear(st, S.stolen + victim, bit)
        _remove_up(st, victim, c)
    _or(st, P.seen, card_bit(c))
    if steal:
        _or(st, S.stolen + p, card_bit(c))
        _add_up(st, p, c)
        note(trace, st, EV_STEAL, p, c, victim, 4 * r + source)
        if counts_extras:
            _trigger(rules, st, trace, p, c)
    else:
        add_dead(st, c)
        note(trace, st, EV_TW_DISCARD, p, c, victim, 4 * r + source)
    _act_done(st)
    return False, forced


@njit(cache=True)
def _seventh(t, rules, st, stream, trace):
    """4.3.4 7th street: one face-down card each, or (TW-A9 c) one community card;
    4.3.6 the best five of all the cards each player holds."""
    n = st[B.players]
    dealer = st[B.dealer]
    note(trace, st, EV_STREET, seat_after(dealer, 1, n), -1, 7, 0)
    community = np.uint64(0)
    if _available(rules, st) < n and rules[R_COMMUNITY_CARD] > 0:
        c = _draw(rules, st, stream, trace)
        if c == NO_CARD:
            note(trace, st, EV_NO_CARD, -1, -1, LOST_SEVENTH_CARD, 0)
        else:
            note(trace, st, EV_TURN_UP, -1, c, 0, 0)
            note(trace, st, EV_COMMUNITY, -1, c, 0, 0)
            community = card_bit(c)
            for s in range(n):
                _add_up(st, s, c)
    else:
        for i in range(1, n + 1):
            s = seat_after(dealer, i, n)
            c = _draw(rules, st, stream, trace)
            if c == NO_CARD:
                note(trace, st, EV_NO_CARD, s, -1, LOST_SEVENTH_CARD, 0)
                continue
            st[S.hole + HOLE * s + 2] = c
            _or(st, S.hole_mask + s, card_bit(c))
            note(trace, st, EV_DEAL_DOWN, s, c, 0, 0)
    st[S.community] = np.int64(community)
    if community:
        _or(st, P.seen, community)
    _hands(t, rules, st)


@njit(cache=True)
def _hands(t, rules, st):
    """4.3.6 Every seat's best five of all the cards it holds (the community card,
    if one was turned, counts for everyone); the showdown begins."""
    n = st[B.players]
    community = mask_at(st, S.community)
    for s in range(n):
        shown = _visible(st, s) | community
        natural = mask_at(st, S.hole_mask + s) | shown
        st[P.shown + s] = np.int64(shown)
        st[P.natural + s] = np.int64(natural)
        high = high_mask(t, natural, 0, 0, False)
        if high == 0:
            high = HIGH_CARD << CAT_SHIFT  # no card at all: below any real high card
        st[P.high + s] = high
        st[P.low + s] = 0
    st[S.street] = 7
    begin_showdown(rules, st)


# A described table's observed free choices (``idata``, for ``--condition``): rows of
# varying length, each ``[kind, length, seat, choice, held, visible, seen, ...]``:
# ``held`` the seat's hole cards then that are known now (taken blind since), its
# face-up cards then, every card seen face up then; after them
#   HK_PAY     offered card, fee, the next seat's face-up cards, 1 if the seat acted
#              last; choice 1 paid, 0 accepted;
#   HK_EXTRA   (optional actions) choice 1 took the extra card, 0 declined;
#   HK_TARGET  1 steal / 0 discard, 1 optional, the number of candidates, every seat's
#              face-up cards (SEATS), the candidates' seats, their cards (NO_CARD: a
#              hole card blind); choice the index of the candidate taken, -1 declined.
# Only decisions the seat was free to make, of seats whose hole cards are unknown.
HK_PAY = 0
HK_EXTRA = 1
HK_TARGET = 2
HISTORY_HEAD = 7
PAY_ROW = HISTORY_HEAD + 4
EXTRA_ROW = HISTORY_HEAD
TARGET_HEAD = HISTORY_HEAD + 3 + SEATS  # then 2 * the number of candidates


@njit(cache=True)
def history_consistent(t, params, st, idata, scratch):
    """Whether every seat, holding the hole cards just dealt to it (the two it held
    on streets 4-6), would have made the choices the table saw (its policy is
    deterministic: a likelihood of 0 or 1)."""
    visible = scratch[SC_VISIBLE:SC_VISIBLE + SEATS].view(np.uint64)
    cand_seat = scratch[SC_CAND_SEAT:SC_CAND_SEAT + MAX_CANDIDATES]
    cand_card = scratch[SC_CAND_CARD:SC_CAND_CARD + MAX_CANDIDATES]
    r = 0
    while r < idata.shape[0]:
        kind = idata[r]
        size = idata[r + 1]
        s = idata[r + 2]
        choice = idata[r + 3]
        mine = np.uint64(idata[r + 4]) | np.uint64(idata[r + 5])
        for k in range(2):
            c = st[S.hole + HOLE * s + k]
            if c != NO_CARD:
                mine |= card_bit(c)
        seen = np.uint64(idata[r + 6])
        unseen = FULL_DECK & ~(seen | mine)
        if kind == HK_PAY:
            pays = tw_pays(t, params[s], mine, idata[r + 7], np.float64(idata[r + 8]), np.uint64(idata[r + 9]),
                           idata[r + 10] != 0, seen)
            if pays != (choice == 1):
                return False
        elif kind == HK_EXTRA:
            if tw_takes_extra(t, params[s], mine, unseen) != (choice == 1):
                return False
        else:
            n_cand = idata[r + 9]
            for o in range(SEATS):
                visible[o] = np.uint64(idata[r + HISTORY_HEAD + 3 + o])
            for k in range(n_cand):
                cand_seat[k] = idata[r + TARGET_HEAD + k]
                cand_card[k] = idata[r + TARGET_HEAD + n_cand + k]
            k = tw_target(t, params[s], idata[r + 7] != 0, idata[r + 8] != 0, mine, visible, cand_seat, cand_card,
                          n_cand, unseen)
            if k != choice:
                return False
        r += size
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
        if idata.shape[0] > 0 and not history_consistent(t, params, st, idata, scratch):
            reject_deal(st, out)
            return
    while True:
        ph = st[B.phase]
        if ph == PH_DONE:
            return
        if ph == PH_START:
            _start(rules, st, stream, trace, out)
        elif ph == PH_STREET:
            _street(rules, st, trace)
        elif ph == PH_SEAT:
            _seat(rules, st, stream, trace)
        elif ph == PH_PAY:
            can_pay = _available(rules, st) > 0  # TW-A9 (a)
            action = ACCEPT
            if can_pay:
                if paused(st, stop):
                    return
                if forced >= 0:
                    action = forced
                    forced = -1
                elif _pays(t, params, st):
                    action = PAY
                st[B.decisions] += 1
            _apply_pay(rules, st, stream, trace, action, can_pay)
        elif ph == PH_RESOLVE:
            _resolve(rules, st)
        elif ph == PH_ACT:
            stopped, forced = _act(t, rules, params, st, stream, trace, scratch, stop, forced)
            if stopped:
                return
        elif ph == PH_SEVENTH:
            _seventh(t, rules, st, stream, trace)
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
    if ph == PH_PAY:
        actions[0] = ACCEPT
        actions[1] = PAY
        return DK_PAY, st[B.turn], 2
    if ph == PH_ACT:
        p = st[S.resolver]
        action = int(rules[R_SPECIAL_PAIRS + st[S.act_rank]])
        if action == ACTION_EXTRA_CARD:
            actions[0] = EXTRA_DECLINE
            actions[1] = EXTRA_TAKE
            return DK_EXTRA, p, 2
        cand_seat = scratch[SC_CAND_SEAT:SC_CAND_SEAT + MAX_CANDIDATES]
        cand_card = scratch[SC_CAND_CARD:SC_CAND_CARD + MAX_CANDIDATES]
        n_cand = _candidates(rules, st, p, cand_seat, cand_card)
        for k in range(n_cand):
            actions[k] = _target_action(cand_seat[k], cand_card[k])
        if rules[R_ACTIONS_OPTIONAL] > 0:
            actions[n_cand] = DECLINE
            n_cand += 1
        return DK_TARGET, p, n_cand
    if ph == PH_DECLARE:
        return DK_DECLARE, st[B.turn], declare_actions(actions)
    return DK_NONE, -1, 0
