"""Anaconda (Pass the Trash, 3-2-1 Left), RULES.md §2.3, equity mode (every player
antes and goes to the showdown; betting is not modelled yet).

The pass schedule is data: up to ``MAX_PASSES`` phases of ``(cards, seats to the
left)``; a negative offset passes to the right. Passing is simultaneous: every
packet is chosen from the hands as they were before the phase, and delivered only
after every seat has chosen.

The deal is a state machine over one table state (``STATE``): ``play`` advances it
from any legal state to the end of the deal (or until a given number of decisions
has been taken), ``decision`` lists the legal actions where it stopped. A fresh
deal is ``init_state``. Decision points, in order:

* ``DK_PASS`` each pass phase, seats 0..n-1 in turn: the mask of the packet (every
  ``count``-card subset of the seat's hand as it was before the phase);
* ``DK_KEEP`` then ``DK_HIDE`` for each seat from the dealer's left: the mask of
  the five cards kept (the rest are discarded), then the code of the kept card
  that stays face down (the other four are rolled in ascending mask-bit order);
* ``DK_DECLARE`` (when the split mode asks for declarations).

A table described from a player's chair (``analyzer.table.anaconda``) may hold the
deal as dealt with the passes made so far still to replay (``replay_passes``, first
thing in ``play``), cards passed to that player dealt to one of the seats they can
have come from (``place_in_unknowns``), a packet of theirs chosen and not yet
delivered (``fixed`` at the phase under way: no decision), and their five kept, or
kept and stacked, before the others keep (``kept``, ``hole`` and ``up`` set: those
decisions are skipped).
"""

import numpy as np
from numba import njit

from ..cards import NO_CARD, card_bit
from ..evaluate import high_mask, low_mask, mask_key, plain_high, plain_low, qualify
from ..pass_policies import (
    RANDOM_PASS,
    bit_to_code,
    choose_pass,
    hide_of_five,
    keep_five,
    split_high,
    split_low,
)
from ..ranking import popcount
from ..rng import DECK_SIZE, DECK_STACKED, DECK_TOP, draw_held
from .common import (
    DK_DECLARE,
    DK_HIDE,
    DK_KEEP,
    DK_NONE,
    DK_PASS,
    EV_ANTE,
    EV_DEAL_DOWN,
    EV_DISCARD,
    EV_PASS,
    EV_PASS_PHASE,
    EV_PASS_SKIPPED,
    EV_ROLL,
    PH_DECLARE,
    PH_DONE,
    POT_RESULT,
    POT_STATE,
    R_ANTE,
    R_LOW_QUALIFIER,
    SEATS,
    SHOWDOWN_RULES,
    B,
    P,
    begin_showdown,
    deal_unknowns,
    declare_actions,
    init_pot_state,
    mask_at,
    note,
    paused,
    place_in_unknowns,
    reject_deal,
    seat_after,
    seat_before,
    showdown_step,
    void_deal,
)

MAX_PASSES = 6
RULES = SHOWDOWN_RULES.extend("anaconda_rules", [
    ("hand_size", 1),  # AN-A7: 7, or 6 (discard one)
    ("pass_to_self", 1),  # AN-A3: 0 wrap the offset, 1 skip the phase
    ("wild", 1),  # 0 none, 1 Howdy Doody (3s wild high, Ks wild low)
    ("five_kind", 1),  # five-of-a-kind position (wild cards)
    ("n_passes", 1),
    ("passes", (MAX_PASSES, 2)),  # (cards, offset) pairs
])
R_HAND_SIZE = RULES.at.hand_size
R_PASS_TO_SELF = RULES.at.pass_to_self
R_WILD = RULES.at.wild
R_FIVE_KIND = RULES.at.five_kind
R_N_PASSES = RULES.at.n_passes
R_PASSES = RULES.at.passes
N_RULES = RULES.size

PASS_WRAP = 0
PASS_SKIP = 1
WILD_NONE = 0
WILD_HOWDY_DOODY = 1

MAX_PLAYERS = 8  # 8 only with six cards each (the deck bounds the table)
MAX_ROAM = 32  # cards passed to me whose first holder a described table leaves open (at most 6 packets of 5)
STACK = 5
HOLE = 1
UP = 4

STATE = POT_STATE.extend("anaconda", [
    ("hand", SEATS),  # each seat's cards (mask): dealt, then passed and received
    ("received", (SEATS, SEATS)),  # [receiver, passer]: every card passed so far (the spite evidence)
    ("packets", SEATS),  # this pass phase's packets (mask), chosen but not yet delivered
    ("pass_phase", 1),  # index into the pass schedule of the phase under way
    ("kept", SEATS),  # the five cards each seat keeps (mask; 0 before its choice)
    ("hole", (SEATS, HOLE)),  # the face-down fifth card (NO_CARD: not yet)
    ("up", (SEATS, UP)),  # the four rolled cards in stack order (NO_CARD: not yet)
    # A described table (analyzer.table.anaconda) after some passes, from the chair
    # ``my_seat``: the deal is held as dealt, and play first replays the passes made
    # (``replay_passes``) up to the phase ``replay_to`` the table stands at.
    ("replay_to", 1),  # schedule index the table stands at (0: nothing to replay)
    ("my_seat", 1),
    ("fixed", (MAX_PASSES, SEATS)),  # [phase, seat]: the packet the table saw (mine, and those passed to me)
    ("n_roam", 1),  # cards passed to me, dealt to one of several seats (place_in_unknowns)
    ("roam_card", MAX_ROAM),
    ("roam_seats", MAX_ROAM),  # the seats (bits) it may have been dealt to, without --condition
    ("roam_seats_wide", MAX_ROAM),  # with --condition: every seat it could have come from
    ("roam_pick", MAX_ROAM),  # scratch for place_in_unknowns
])
S = STATE.at
RESULT = POT_RESULT

# Game phases.
PH_START = 0  # antes, the hands dealt
PH_PASS_PHASE = 1  # a pass phase begins (or skipped, or all done)
PH_PASS = 2  # the seat ``turn`` chooses its packet
PH_KEEP = 3  # the seat ``turn`` keeps five cards, discarding the rest
PH_HIDE = 4  # the seat ``turn`` chooses its face-down card
PH_ROLL = 5  # four cards rolled, one at a time for everyone; then the showdown


@njit(cache=True)
def state_slots():
    """The offsets this compiled kernel uses (a test compares them with ``STATE``)."""
    return S


@njit(cache=True)
def recipient(seat, offset, n, skip_rule):
    """The seat a packet goes to, or -1 when the phase is skipped (AN-A3)."""
    steps = abs(offset)
    if steps >= n:
        if skip_rule == PASS_SKIP:
            return -1
        steps = (steps - 1) % (n - 1) + 1  # never oneself
    if offset > 0:
        return seat_after(seat, steps, n)
    return seat_before(seat, steps, n)


@njit(cache=True)
def init_state(rules, st, n, dealer):
    init_pot_state(st, n, dealer, np.int64(rules[R_ANTE]))
    for s in range(SEATS):
        for k in range(HOLE):
            st[S.hole + HOLE * s + k] = NO_CARD
        for k in range(UP):
            st[S.up + UP * s + k] = NO_CARD


@njit(cache=True, inline="always")
def _low_bit(m):
    return m & (~m + np.uint64(1))


@njit(cache=True, inline="always")
def _has_choice(n, k):
    """Whether there is more than one way to choose ``k`` of ``n`` cards (n choose
    k > 1), without working the count out (its divisions cost 3% of a deal)."""
    return 0 < k < n


@njit(cache=True)
def _subsets(hand, k, actions):
    """Every ``k``-card subset of the ``hand`` mask into ``actions``, in ascending
    mask order; returns how many. (Gosper's walk over the hand's bit positions: the
    positions map to the mask bits in order, so the masks come out ascending.)"""
    n = popcount(hand)
    if k < 0 or k > n:
        return 0
    count = 0
    x = (1 << k) - 1
    while x < (1 << n):
        mask = np.uint64(0)
        m = hand
        pos = 0
        while m:
            b = _low_bit(m)
            m ^= b
            if (x >> pos) & 1:
                mask |= b
            pos += 1
        actions[count] = np.int64(mask)
        count += 1
        if x == 0:
            break
        c = x & -x
        r = x + c
        x = (((r ^ x) >> 2) // c) | r
    return count


@njit(cache=True)
def _start(rules, st, stream, trace, out):
    """1. Antes; ``hand_size`` cards face down each, one at a time from the dealer's left."""
    n = st[B.players]
    dealer = st[B.dealer]
    for s in range(n):
        note(trace, st, EV_ANTE, s, -1, st[P.paid + s], 0)
    top, size, stacked = st[P.deck + DECK_TOP], st[P.deck + DECK_SIZE], st[P.deck + DECK_STACKED] != 0
    key, counter = stream[0], stream[1]
    for _ in range(int(rules[R_HAND_SIZE])):
        for i in range(1, n + 1):
            s = seat_after(dealer, i, n)
            c, top, counter = draw_held(st, P.stock, top, size, stacked, key, counter)
            if c == NO_CARD:
                st[P.deck + DECK_TOP] = top
                stream[1] = counter
                void_deal(st, trace, s, out)
                return
            st[S.hand + s] |= np.int64(card_bit(c))
            note(trace, st, EV_DEAL_DOWN, s, c, 0, 0)
    st[P.deck + DECK_TOP] = top
    stream[1] = counter
    st[S.pass_phase] = 0
    st[B.phase] = PH_PASS_PHASE


@njit(cache=True)
def _pass_phase(rules, st, trace):
    """3. The next pass phase begins: seat 0 chooses first (or the phase is skipped,
    AN-A3; or the passes are over and the seat left of the dealer keeps five)."""
    n = st[B.players]
    ph = st[S.pass_phase]
    if ph >= int(rules[R_N_PASSES]):
        st[B.phase] = PH_KEEP
        st[B.turn] = seat_after(st[B.dealer], 1, n)
        return
    count = int(rules[R_PASSES + 2 * ph])
    offset = int(rules[R_PASSES + 2 * ph + 1])
    if recipient(0, offset, n, int(rules[R_PASS_TO_SELF])) < 0:
        note(trace, st, EV_PASS_SKIPPED, -1, -1, ph + 1, 0)
        st[S.pass_phase] = ph + 1
        return
    note(trace, st, EV_PASS_PHASE, -1, -1, ph + 1, count)
    for s in range(n):
        st[S.packets + s] = 0
    st[B.phase] = PH_PASS
    st[B.turn] = 0


# The steps taken at every seat (``_pass_choice``, ``_apply_pass``, ``_apply_keep``,
# ``_hide_choice``, ``_apply_hide``) are inlined where they are taken: as calls they
# passed the tables, the state and the stream as several words each (6% of a
# heuristic deal). Inlining ``keep_five`` and ``_roll`` as well gained nothing.
@njit(cache=True, inline="always")
def _pass_choice(t, rules, params, st, stream, hand, count):
    """The packet of the seat to act by its policy, ``count`` cards of ``hand``: it
    sees its own hand and what was passed to it (what the recipient passed it, or
    else what its right neighbour passed it, tells it what the recipient collects)."""
    n = st[B.players]
    s = st[B.turn]
    ph = st[S.pass_phase]
    r = recipient(s, int(rules[R_PASSES + 2 * ph + 1]), n, int(rules[R_PASS_TO_SELF]))
    evidence = mask_at(st, S.received + SEATS * s + r)
    if not evidence:
        evidence = mask_at(st, S.received + SEATS * s + seat_before(s, 1, n))
    howdy = int(rules[R_WILD]) == WILD_HOWDY_DOODY
    return choose_pass(t, params[s], hand, count, evidence, stream, howdy)


@njit(cache=True, inline="always")
def _apply_pass(rules, st, trace, packet):
    """Seat ``turn`` commits its packet; after the last seat every packet is delivered."""
    n = st[B.players]
    st[S.packets + st[B.turn]] = np.int64(packet)
    st[B.turn] += 1
    if st[B.turn] < n:
        return
    ph = st[S.pass_phase]
    offset = int(rules[R_PASSES + 2 * ph + 1])
    skip_rule = int(rules[R_PASS_TO_SELF])
    for s in range(n):
        st[S.hand + s] = np.int64(mask_at(st, S.hand + s) & ~mask_at(st, S.packets + s))
    dealer = st[B.dealer]
    for i in range(1, n + 1):
        s = seat_after(dealer, i, n)
        r = recipient(s, offset, n, skip_rule)
        m = mask_at(st, S.packets + s)
        st[S.hand + r] = np.int64(mask_at(st, S.hand + r) | m)
        st[S.received + SEATS * r + s] = np.int64(mask_at(st, S.received + SEATS * r + s) | m)
        while m:
            b = _low_bit(m)
            m ^= b
            note(trace, st, EV_PASS, s, bit_to_code(b), r, ph + 1)
    st[S.pass_phase] = ph + 1
    st[B.phase] = PH_PASS_PHASE
    st[B.turn] = -1


@njit(cache=True, inline="always")
def _apply_keep(st, trace, kept):
    """4. Seat ``turn`` keeps ``kept`` and discards the rest face down."""
    s = st[B.turn]
    st[S.kept + s] = np.int64(kept)
    m = mask_at(st, S.hand + s) & ~kept
    while m:
        b = _low_bit(m)
        m ^= b
        note(trace, st, EV_DISCARD, s, bit_to_code(b), 0, 0)
    st[B.phase] = PH_HIDE


@njit(cache=True, inline="always")
def _hide_choice(t, rules, params, st):
    """The policy's face-down card among the five kept. (It is the card its joint
    keep-and-hide choice would hide: checked on 60,000 random hands, and the hidden
    card depends only on the kept five and the aim, which the five kept reproduce.)"""
    s = st[B.turn]
    hidden = hide_of_five(t, params[s], mask_at(st, S.kept + s), int(rules[R_WILD]) == WILD_HOWDY_DOODY)
    return np.int64(bit_to_code(hidden))


@njit(cache=True, inline="always")
def _apply_hide(st, card):
    """5. Seat ``turn`` stacks its five: ``card`` last (face down), the other four in
    ascending mask-bit order; then the next seat keeps, or the stacks are rolled."""
    s = st[B.turn]
    st[S.hole + HOLE * s] = card
    j = 0
    m = mask_at(st, S.kept + s) & ~card_bit(card)
    while m:
        b = _low_bit(m)
        m ^= b
        st[S.up + UP * s + j] = bit_to_code(b)
        j += 1
    _next_keeper(st)


@njit(cache=True)
def _next_keeper(st):
    """The next seat keeps five, or (after the dealer) the stacks are rolled."""
    s = st[B.turn]
    if s == st[B.dealer]:
        st[B.phase] = PH_ROLL
        st[B.turn] = -1
    else:
        st[B.turn] = seat_after(s, 1, st[B.players])
        st[B.phase] = PH_KEEP


@njit(cache=True)
def _roll(t, rules, st, trace):
    """6. Four cards rolled, one at a time for everyone; 7. the hands (exactly the
    five stack cards, high and A-5 low)."""
    n = st[B.players]
    dealer = st[B.dealer]
    # The cards seen are gathered in a variable and stored once: or'd into the state
    # card by card, each card waited on the last one's store.
    seen = st[P.seen]
    for j in range(UP):
        for i in range(1, n + 1):
            s = seat_after(dealer, i, n)
            c = st[S.up + UP * s + j]
            if mask_at(st, P.shown + s) & card_bit(c):
                continue  # a described roll: turned up before the table was described
            note(trace, st, EV_ROLL, s, c, j + 1, 0)
            st[P.shown + s] |= np.int64(card_bit(c))
            seen |= np.int64(card_bit(c))
    st[P.seen] = seen
    howdy = int(rules[R_WILD]) == WILD_HOWDY_DOODY
    fk = int(rules[R_FIVE_KIND])
    threshold = np.int64(rules[R_LOW_QUALIFIER])
    for s in range(n):
        keep = mask_at(st, S.kept + s)
        st[P.natural + s] = np.int64(keep)
        if not howdy:
            # No wild card: one key for both tables, as keep_five reads them (the same
            # strengths as high_mask and low_mask give; 0.97x the time of a deal).
            key = mask_key(t, keep)
            st[P.high + s] = plain_high(t, key, keep)
            st[P.high_natural + s] = 1
            st[P.low + s] = qualify(plain_low(t, key), threshold)
            continue
        hn, hw = split_high(keep, howdy)
        st[P.high + s] = high_mask(t, hn, hw, fk, False)
        st[P.high_natural + s] = 1 if hw == 0 else 0
        ln, lw = split_low(keep, howdy)
        st[P.low + s] = qualify(low_mask(ln, lw), threshold)
    begin_showdown(rules, st)


# --condition's rows (``idata``, OBSERVED_WIDTH each): the packets passed to me at a
# described table, [schedule phase, passer, mask]; the passer's policy must choose them.
OBSERVED_WIDTH = 3


@njit(cache=True)
def _observed(idata, ph, s):
    """The packet the table saw seat ``s`` pass in phase ``ph`` (``idata`` rows), or 0."""
    for i in range(idata.shape[0] // OBSERVED_WIDTH):
        r = OBSERVED_WIDTH * i
        if idata[r] == ph and idata[r + 1] == s:
            return np.uint64(idata[r + 2])
    return np.uint64(0)


@njit(cache=True)
def replay_passes(t, rules, params, idata, st, stream, trace):
    """A described table after some passes is held as dealt (every hand before the
    first pass); the passes made so far are played here, before anything else and
    out of the trace (they are the table's past), so that every seat holds what
    those passes left it and has the history of what it passed and received that
    its pass policy reads (the spite evidence). My packets are the ones the table
    gives (``fixed``). The others pass by their policies; a packet passed to me
    is the one I received: without ``--condition`` (no ``idata``) it is passed as
    such, and the seat keeps its cards for it until then (the seat's other passes
    choose among the rest); with ``--condition`` the seat's policy must choose it,
    holding what the deal dealt it and the earlier passes left it (a random
    passer's choice is as likely whatever it holds: its packet must only be in its
    hand). False when the deal contradicts the table (a packet I received is not in
    its passer's hand, or under ``--condition`` not the policy's choice): the deal is
    rejected."""
    conditioned = idata.shape[0] > 0
    events = st[B.events]
    me = st[S.my_seat]
    end = st[S.replay_to]
    while st[S.pass_phase] < end:
        if st[B.phase] == PH_PASS_PHASE:
            _pass_phase(rules, st, trace)
            continue
        s = st[B.turn]
        ph = st[S.pass_phase]
        count = int(rules[R_PASSES + 2 * ph])
        hand = mask_at(st, S.hand + s)
        fixed = mask_at(st, S.fixed + SEATS * ph + s)
        if s == me:
            packet = fixed
        elif conditioned:
            seen = _observed(idata, ph, s)
            if seen and params[s][RANDOM_PASS] > 0:
                # A random passer passes any packet of its hand equally often: the one seen
                # needs only to be in its hand (the same likelihood for every deal).
                if seen & ~hand:
                    return False
                packet = seen
            else:
                packet = _pass_choice(t, rules, params, st, stream, hand, count)
                if seen and packet != seen:
                    return False
        elif fixed:
            if fixed & ~hand:
                return False
            packet = fixed
        else:
            later = np.uint64(0)  # the cards it passes me later stay in its hand till then
            for j in range(ph + 1, end):
                later |= mask_at(st, S.fixed + SEATS * j + s)
            free = hand & ~later
            if popcount(free) < count:
                return False
            packet = _pass_choice(t, rules, params, st, stream, free, count)
        _apply_pass(rules, st, trace, packet)
    st[B.events] = events  # the replayed passes leave no events
    st[S.replay_to] = 0
    return True


@njit(cache=True)
def play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced):
    """Advance the deal in ``st`` to its end, writing the result row ``out``; or
    stop before the decision that would make ``stop`` decisions (``stop`` -1: never).
    ``forced`` >= 0 is taken as the action of the next decision instead of the
    policy's. Cards are drawn from the state's stock on ``stream``."""
    if st[S.n_roam] > 0:
        wide = S.roam_seats_wide if idata.shape[0] > 0 else S.roam_seats
        if not place_in_unknowns(st, stream, S.roam_card, wide, S.roam_pick, st[S.n_roam], S.hand):
            reject_deal(st, out)
            return
        st[S.n_roam] = 0
    if st[P.n_unknown] > 0 and not deal_unknowns(st, stream):
        void_deal(st, trace, -1, out)
        return
    if st[S.replay_to] > 0 and not replay_passes(t, rules, params, idata, st, stream, trace):
        reject_deal(st, out)
        return
    while True:
        ph = st[B.phase]
        if ph == PH_DONE:
            return
        if ph == PH_START:
            _start(rules, st, stream, trace, out)
        elif ph == PH_PASS_PHASE:
            _pass_phase(rules, st, trace)
        elif ph == PH_PASS:
            s = st[B.turn]
            hand = mask_at(st, S.hand + s)
            count = int(rules[R_PASSES + 2 * st[S.pass_phase]])
            committed = mask_at(st, S.fixed + SEATS * st[S.pass_phase] + s) if s == st[S.my_seat] else np.uint64(0)
            if committed:
                packet = committed  # a described table: my packet of this phase is chosen already
            elif _has_choice(popcount(hand), count):
                if paused(st, stop):
                    return
                if forced >= 0:
                    packet = np.uint64(forced)
                    forced = -1
                else:
                    packet = _pass_choice(t, rules, params, st, stream, hand, count)
                st[B.decisions] += 1
            else:
                packet = hand
            _apply_pass(rules, st, trace, packet)
        elif ph == PH_KEEP:
            hand = mask_at(st, S.hand + st[B.turn])
            if st[S.kept + st[B.turn]] != 0:  # a described table: this seat has kept its five
                if st[S.hole + HOLE * st[B.turn]] == NO_CARD:
                    st[B.phase] = PH_HIDE
                else:
                    _next_keeper(st)  # and stacked them
                continue
            if _has_choice(popcount(hand), STACK):
                if paused(st, stop):
                    return
                if forced >= 0:
                    kept = np.uint64(forced)
                    forced = -1
                else:
                    kept, _ = keep_five(t, params[st[B.turn]], hand, int(rules[R_HAND_SIZE]),
                                        int(rules[R_WILD]) == WILD_HOWDY_DOODY, int(rules[R_FIVE_KIND]))
                st[B.decisions] += 1
            else:
                kept = hand
            _apply_keep(st, trace, kept)
        elif ph == PH_HIDE:
            if paused(st, stop):
                return
            if forced >= 0:
                card = forced
                forced = -1
            else:
                card = _hide_choice(t, rules, params, st)
            st[B.decisions] += 1
            _apply_hide(st, card)
        elif ph == PH_ROLL:
            _roll(t, rules, st, trace)
        else:
            stopped, forced = showdown_step(rules, params, st, trace, out, stop, forced)
            if stopped:
                return


@njit(cache=True)
def decision(t, rules, params, idata, fdata, st, scratch, actions):
    """``(kind, seat, number of legal actions)`` at the decision ``play`` stopped
    at, the actions written to ``actions``; ``DK_NONE`` when the deal is over."""
    ph = st[B.phase]
    s = st[B.turn]
    if ph == PH_PASS:
        count = int(rules[R_PASSES + 2 * st[S.pass_phase]])
        return DK_PASS, s, _subsets(mask_at(st, S.hand + s), count, actions)
    if ph == PH_KEEP:
        return DK_KEEP, s, _subsets(mask_at(st, S.hand + s), STACK, actions)
    if ph == PH_HIDE:
        kept = mask_at(st, S.kept + s)
        k = 0
        for c in range(52):
            if card_bit(c) & kept:
                actions[k] = c
                k += 1
        return DK_HIDE, s, k
    if ph == PH_DECLARE:
        return DK_DECLARE, s, declare_actions(actions)
    return DK_NONE, -1, 0
