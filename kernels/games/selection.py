"""Selection (RulesPal), the board-scoring game of RULES.md §5.3, for 1 to 6 players.

Eleven rounds (one per board slot). Each round: a fresh deck is shuffled (unless
``carry_hand``), 7 cards are dealt to each player one at a time from the
dealer's left, then 2 draws (3 in the last two rounds) in which each player
keeps at least 2 cards and is dealt replacements; an empty stock is rebuilt from
the discard pile (shuffled, or in discard order). Then every player fills one
open slot with at most five of their cards (scoring the used cards' points) or
writes 0 in one: while the opening slot (Cosmopolitan) is open only it can take
points, and a player who misses it scratches another slot; afterwards a player
scratches only when no open slot can be filled (unless voluntary scratches are
allowed). The highest total after eleven rounds wins; ties share.

The deck and board are configuration (``selection_hands``; the Python side is
``analyzer.selection_config``). Game ``i`` of a run seeded ``s`` draws from the
stream ``(s, i)``, so results do not depend on threads or chunking.

The game is a state machine over one table state (``STATE``) run by the engine
(``kernels.engine``, ``GAME_SELECTION``): ``play`` advances it from any legal state
to the end of the game (or until a given number of decisions has been taken),
``decision`` lists the legal actions where it stopped; a fresh game is
``init_state``. A game described in its middle (``analyzer.table.selection``)
is a state whose unknown hand and discard-pile places (``unknown_at``) are dealt
from its stock when play resumes, and whose later rounds draw from streams keyed
by the deal and the round (``round_keyed``), so that a decision's actions meet
the same later deals; a game played from its start has neither. The deck matrix, profile, board and stacked rounds travel in the
engine's ``idata``, the seats' parameter rows (with par) and the tail table in
``fdata`` (``pack_data``; offsets in the ``DATA`` header). Decision points, every
round, each seat in turn from the round dealer's left:

* ``DK_SEL_TARGET`` (only with ``declare_target_before_draws``, SE-A6): the slot
  declared; any open slot (see ``decision``);
* ``DK_SEL_KEEP`` at each draw: the mask of hand positions kept (at least two;
  127 stands pat);
* ``DK_SEL_FILL`` at scoring: ``slot + FILL_MASK * used-position mask``, or
  ``SCRATCH + slot`` (``fill_actions``).

Every decision is a decision point, even one with a single legal action (the last
round's fill may have one), so a game of ``n`` players has ``n x 35`` decisions
(``n x 46`` declaring targets).

Policies (one ``float64`` vector per seat, indices ``P_*``): the keep policy aims
at the open slot whose estimated final score, given the draws left, minus
``par_weight`` times the slot's par (its mean score in a round aimed at it
alone, ``par_batch``) is largest, and keeps the cards that slot wants (by
default it estimates every open slot at a round's first draw only, and later
switches only to a slot whose made hand beats its aim: ``reaim``); the assign
policy fills the slot whose exact score minus ``par_weight`` x par is largest,
and scratches the open slot of least par.

Functions marked ``_nrt=False`` run without numba's reference counting whoever
calls them (they allocate nothing and return no array): the slot par computed
first would otherwise compile them with counting for the game's play as well (see
``kernels.engine.game_play``).
"""

import math

import numpy as np
from numba import njit

from ..layout import Layout
from ..ranking import low_bit
from ..rng import GOLDEN, below, mix64, seed_stream
from .common import (
    BASE_STATE,
    DK_NONE,
    DK_SEL_FILL,
    DK_SEL_KEEP,
    DK_SEL_TARGET,
    PH_DONE,
    TRACE_WIDTH,
    B,
    emit,
    note,
    paused,
    seat_after,
)
from .selection_hands import (
    ACE,
    CTX_SIZE,
    FULL_HAND,
    HAND,
    K_COSMOPOLITAN,
    K_FLUSH,
    K_FOUR,
    K_FULL_HOUSE,
    K_HIGH,
    K_LOW,
    K_PAIR,
    K_STRAIGHT,
    K_STRAIGHT_FLUSH,
    K_THREE,
    K_TWO_PAIR,
    MAX_CARDS,
    MAX_USED,
    NO_BOUND,
    P_COLOUR_TOTAL,
    P_RANK_POINTS,
    P_RANK_TOTAL,
    P_RC_TOTAL,
    P_WINDOW_POINTS,
    P_SCALARS,
    S_ACE_LOW,
    S_COSMO_COLOURS,
    S_MEAN_POINTS_X1000,
    S_N_CARDS,
    S_N_COLOURS,
    USED_ALL,
    X_CCNT,
    X_COLOUR,
    X_BUF,
    X_CNT,
    X_CRM,
    X_CSUM,
    X_GROUPS,
    X_LH,
    X_POINTS,
    X_RANK,
    X_RM,
    X_SCORES,
    analyse,
    best_fill,
    bit_rank,
    card_low_high_points,
    colour_bests,
    group_scores,
    group_shape,
    held_ranks,
    key_bit,
    key_value,
    order_key,
    popcount,
    rank_bits,
    rank_positions,
    sort7_descending,
    straight_mask,
    top_points,
)

MIN_PLAYERS = 1
MAX_PLAYERS = 6
MIN_KEEP = 2
MAX_SLOTS = 16
MAX_SLOT_SCORE = MAX_USED * 25
# One row of the board matrix (int64; analyzer.selection_config writes it).
BOARD_ROW = Layout("board_row", [
    ("kind", 1),  # K_*
    ("used", 1),  # USED_MATCHED or USED_ALL
    ("opening", 1),  # 1: the opening slot (Cosmopolitan)
])
BOARD_KIND = BOARD_ROW.at.kind
BOARD_USED = BOARD_ROW.at.used
BOARD_OPENING = BOARD_ROW.at.opening
BOARD_WIDTH = BOARD_ROW.size

# Rules vector (RULES.md §5.7).
RULES = Layout("selection_rules", [
    ("ace_one", 1),  # SE-A3: an ace is a numerical 1 (11 points) in Low / High
    ("strict_zero", 1),  # SE-A4: once High is 0, Low can only be 0
    ("voluntary_scratch", 1),  # SE-A5
    ("declare_target", 1),  # SE-A6: the target slot is declared before the draws
    ("carry_hand", 1),  # SE-A7: hands carried over between rounds instead of a fresh deal
    ("reshuffle", 1),  # SE-A8: RESHUFFLE_* for the discard pile that becomes the stock
    ("low_high_min", 1),  # SE-A11: fewest cards in Low / High
])
R_ACE_ONE = RULES.at.ace_one
R_STRICT_ZERO = RULES.at.strict_zero
R_VOLUNTARY_SCRATCH = RULES.at.voluntary_scratch
R_DECLARE_TARGET = RULES.at.declare_target
R_CARRY_HAND = RULES.at.carry_hand
R_RESHUFFLE = RULES.at.reshuffle
R_LOW_HIGH_MIN = RULES.at.low_high_min
N_RULES = RULES.size
RESHUFFLE_SHUFFLE = 0
RESHUFFLE_IN_ORDER = 1

# Policy vector.
POLICY = Layout("selection_policy", [
    ("par_weight", 1),  # aim at / fill the slot maximising score - par_weight * par
    ("keep_min", 1),  # Low / High: keep numerical cards worth at least this while draws remain
    ("low_cap", 1),  # Low filled before High: score at most this (leave room for High)
    ("never_draw", 1),  # 1: stand pat at every draw (a baseline)
    ("reaim", 1),  # 1: re-estimate every open slot at every draw; 0: only at a round's first draw
])
P_PAR_WEIGHT = POLICY.at.par_weight
P_KEEP_MIN = POLICY.at.keep_min
P_LOW_CAP = POLICY.at.low_cap
P_NEVER_DRAW = POLICY.at.never_draw
P_REAIM = POLICY.at.reaim
N_POLICY = POLICY.size

# Per-seat constants derived from the deck and the policy.
AUX = Layout("selection_aux", [
    ("good_total", 1),  # numerical cards in the deck worth >= keep_min in Low / High
    ("good_mean", 1),  # their mean points
    ("mean_points", 1),  # mean card points of the deck
])
A_GOOD_TOTAL = AUX.at.good_total
A_GOOD_MEAN = AUX.at.good_mean
A_MEAN_POINTS = AUX.at.mean_points
AUX_WIDTH = AUX.size

# A seat's parameter row ``sp`` (float64): the rules, its policy, its deck
# constants and its par per slot, in one array (numba counts references to every
# array argument of a call, so fewer arrays make the decisions cheaper).
SEAT_PARAMS = Layout("selection_seat_params", [
    ("rules", N_RULES),
    ("policy", N_POLICY),
    ("aux", AUX_WIDTH),
    ("par", MAX_SLOTS),
])
SP_RULES = SEAT_PARAMS.at.rules
SP_POLICY = SEAT_PARAMS.at.policy
SP_AUX = SEAT_PARAMS.at.aux
SP_PAR = SEAT_PARAMS.at.par
SP_WIDTH = SEAT_PARAMS.size

# Stock state.
ST_TOP = 0
ST_SIZE = 1
ST_ORDERED = 2  # 1: draw the stock in order (a stacked round or an in-order reshuffle)
ST_DISCARDS = 3
ST_STACKED = 4  # 1: this round's deck is stacked (tests, replays)
ST_WIDTH = 5

# Events (rows [kind, seat, card, a, b] as in common.py; cards are deck indices).
EV_SEL_ROUND = 70  # seat = dealer, a = round 1..11, b = draws this round
EV_SEL_DEAL = 71  # seat is dealt card face down
EV_SEL_AIM = 72  # seat, a = draw number, b = slot aimed at (-1 none), card = cards kept (7: stands pat)
EV_SEL_DISCARD = 73  # seat discards card, a = draw number
EV_SEL_DRAWN = 74  # seat is dealt card as a replacement, a = draw number
EV_SEL_RESHUFFLE = 75  # the discards become the stock: a = cards, b = 1 shuffled / 0 in discard order
EV_SEL_TARGET = 76  # seat declares slot a as its target (SE-A6)
EV_SEL_FILL = 77  # seat fills slot a with b points
EV_SEL_USED = 78  # seat uses card in slot a
EV_SEL_SCRATCH = 79  # seat writes 0 in slot a; b = 1 voluntary (a fill was allowed), 0 forced
EV_SEL_OPENED = 80  # seat has made the opening in round a
EV_SEL_TOTAL = 81  # seat's final total a
EV_SEL_WIN = 82  # seat wins, a = winners sharing
EV_SEL_NO_CARD = 83  # the stock and discards are empty: seat's replacement is missing (never with a valid deck)


# ---------------------------------------------------------------- probability helpers

MAX_FRESH = 16  # (7 - 2 kept) x 3 draws = 15 fresh cards at most


@njit(cache=True)
def tail_table(unseen, out):
    """``out[need, outs, fresh]``: P(at least ``need`` of ``outs`` good cards among
    ``fresh`` cards drawn from ``unseen``), the hypergeometric tail, for need 0..5,
    outs 0..out.shape[1]-1 and fresh 0..MAX_FRESH-1."""
    lf = np.empty(unseen + 2, np.float64)
    lf[0] = 0.0
    for i in range(1, unseen + 2):
        lf[i] = lf[i - 1] + math.log(i)
    for need in range(out.shape[0]):
        for outs in range(out.shape[1]):
            for fresh in range(out.shape[2]):
                if need == 0:
                    out[need, outs, fresh] = 1.0
                    continue
                f = min(fresh, unseen)
                o = min(outs, unseen)
                if o < need or f < need:
                    out[need, outs, fresh] = 0.0
                    continue
                lc = lf[unseen] - lf[f] - lf[unseen - f]
                miss = 0.0
                for k in range(need):
                    if f - k > unseen - o:
                        continue
                    miss += math.exp(lf[o] - lf[k] - lf[o - k] + lf[unseen - o] - lf[f - k]
                                     - lf[unseen - o - f + k] - lc)
                out[need, outs, fresh] = max(0.0, 1.0 - miss)


@njit(cache=True)
def make_tail_table(prof):
    n_cards = prof[P_SCALARS, S_N_CARDS]
    tt = np.empty((MAX_USED + 1, n_cards + 1, MAX_FRESH), np.float64)
    tail_table(n_cards - HAND, tt)
    return tt


@njit(cache=True, _nrt=False)
def tail(tt, need, outs, fresh):
    if need <= 0:
        return 1.0
    if outs <= 0 or fresh <= 0:
        return 0.0
    return tt[need, min(outs, tt.shape[1] - 1), min(fresh, MAX_FRESH - 1)]


@njit(cache=True, _nrt=False)
def fresh_cards(kept, draws_left):
    return (HAND - max(kept, MIN_KEEP)) * draws_left


# ---------------------------------------------------------------- the keep policy's estimates

# Each ``aim_*`` returns ``(estimate, plan)``; ``keep_mask`` turns the plan of the
# slot aimed at into the hand positions kept, so that the other slots' positions are
# never looked for. A plan is the mask itself, except: a rank group's is rank ``a``
# + 16 x (rank ``b`` + 1); a straight's is the window's start + 16 x (colour + 1)
# (colour -1: any); -1 keeps nothing.
NO_PLAN = -1


@njit(cache=True, _nrt=False)
def aim_groups(x, prof, kind, used_all, draws_left, mean, tt):
    """Estimate and keep plan for ``ca`` of a rank (plus ``cb`` of another): keep
    the cards of the most promising ranks and draw to them."""
    ca, cb = group_shape(kind)
    # The (up to) three most promising ranks: most copies (capped at ca), then points.
    r0 = -1
    r1 = -1
    r2 = -1
    k0 = -1
    k1 = -1
    k2 = -1
    held = held_ranks(x, prof)
    while held:
        r = np.int64(low_bit(held))
        held &= held - 1
        key = min(x[X_CNT + r], ca) * 100 + prof[P_RANK_POINTS, r]
        if key > k0:
            r2, k2 = r1, k1
            r1, k1 = r0, k0
            r0, k0 = r, key
        elif key > k1:
            r2, k2 = r1, k1
            r1, k1 = r, key
        elif key > k2:
            r2, k2 = r, key
    best = 0.0
    ba = -1
    bb = -1
    for i in range(3):
        a = r0 if i == 0 else (r1 if i == 1 else r2)
        if a < 0:
            continue
        have_a = min(x[X_CNT + a], ca)
        outs_a = prof[P_RANK_TOTAL, a] - x[X_CNT + a]
        if cb == 0:
            p = tail(tt, ca - have_a, outs_a, fresh_cards(have_a, draws_left))
            v = p * ca * prof[P_RANK_POINTS, a]
            if used_all:
                v += p * (MAX_USED - ca) * mean
            if v > best:
                best = v
                ba = a
            continue
        for j in range(3):
            b = r0 if j == 0 else (r1 if j == 1 else r2)
            if b < 0 or b == a:
                continue
            have_b = min(x[X_CNT + b], cb)
            f = fresh_cards(have_a + have_b, draws_left)
            p = tail(tt, ca - have_a, outs_a, f)
            if p > 0.0:
                p *= tail(tt, cb - have_b, prof[P_RANK_TOTAL, b] - x[X_CNT + b], f)
            v = p * (ca * prof[P_RANK_POINTS, a] + cb * prof[P_RANK_POINTS, b])
            if used_all:
                v += p * (MAX_USED - ca - cb) * mean
            if v > best:
                best = v
                ba = a
                bb = b
    return best, ba + 16 * (bb + 1) if ba >= 0 else NO_PLAN


@njit(cache=True, _nrt=False)
def aim_straight(x, prof, bits, colour, draws_left, tt):
    """Estimate and keep plan for five consecutive ranks (of ``colour`` if >= 0):
    of the windows holding most of their ranks (or one fewer), the one whose
    chance of completion times points is best (no plan when it holds none)."""
    ace_low = prof[P_SCALARS, S_ACE_LOW]
    one = np.int64(1)
    most = 0
    for s in range(1, 11):
        if prof[P_WINDOW_POINTS, s] > 0:
            h = popcount(bits & (31 << s))
            x[X_BUF + s] = h
            most = max(most, h)
        else:
            x[X_BUF + s] = -1
    if most == 0:
        return 0.0, NO_PLAN
    best = 0.0
    start = -1
    for s in range(1, 11):
        held = x[X_BUF + s]
        if held < most - 1:
            continue
        need = 5 - held
        tot = prof[P_WINDOW_POINTS, s]
        if need == 0:
            v = float(tot)
        else:
            f_each = max(1, fresh_cards(held, draws_left) - need + 1)
            p = 1.0
            missing = ~bits & (31 << s)
            while missing and p > 0.0:
                b = np.int64(low_bit(missing))
                missing &= missing - 1
                r = bit_rank(b, ace_low)
                if colour < 0:
                    p *= tail(tt, one, prof[P_RANK_TOTAL, r] - x[X_CNT + r], f_each)
                else:
                    p *= tail(tt, one, prof[P_RC_TOTAL + colour, r], f_each)
            v = p * tot
        if v > best or start < 0:
            best = v
            start = s
    return best, start + 16 * (colour + 1) if x[X_BUF + start] > 0 else NO_PLAN


@njit(cache=True, _nrt=False)
def aim_flush(x, prof, draws_left, mean, tt):
    """The colour held most often (then by points): keep up to five of it."""
    best_c = -1
    best_key = -1
    for col in range(prof[P_SCALARS, S_N_COLOURS]):
        cc = x[X_CCNT + col]
        if cc == 0:
            continue
        key = min(cc, MAX_USED) * 10000 + x[X_CSUM + col]
        if key > best_key:
            best_key = key
            best_c = col
    if best_c < 0:
        return 0.0, 0
    have = min(x[X_CCNT + best_c], MAX_USED)
    s, mask = top_points(x, np.int64(0), have, best_c)
    need = MAX_USED - have
    p = tail(tt, need, prof[P_COLOUR_TOTAL, best_c] - x[X_CCNT + best_c], fresh_cards(have, draws_left))
    return p * (s + need * mean), mask


@njit(cache=True, _nrt=False)
def aim_straight_flush(x, prof, draws_left, tt):
    """Straight-flush draws in the colours held most often (three or more, else
    the most held); the best one."""
    most = 0
    for col in range(prof[P_SCALARS, S_N_COLOURS]):
        most = max(most, x[X_CCNT + col])
    floor = min(3, most)
    best = 0.0
    best_plan = NO_PLAN
    for col in range(prof[P_SCALARS, S_N_COLOURS]):
        if x[X_CCNT + col] < floor:
            continue
        v, plan = aim_straight(x, prof, x[X_CRM + col], col, draws_left, tt)
        if v > best or best_plan == NO_PLAN:
            best = v
            best_plan = plan
    return best, best_plan


@njit(cache=True, _nrt=False)
def aim_cosmopolitan(x, prof, draws_left, mean, tt):
    """Keep the best card of each colour held (of the five best colours), draw to
    the missing colours."""
    k = prof[P_SCALARS, S_N_COLOURS]
    need_colours = prof[P_SCALARS, S_COSMO_COLOURS]
    bests, present = colour_bests(x, prof)
    one = np.int64(1)
    any_colour = np.int64(-1)
    if need_colours >= MAX_USED:
        s, mask = top_points(x, FULL_HAND & ~bests, np.int64(MAX_USED), any_colour)
        have = min(present, MAX_USED)
        need = MAX_USED - have
        if need == 0:
            return float(s), mask
        f = fresh_cards(have, draws_left)
        if k == MAX_USED:
            f_each = max(1, f - need + 1)
            p = 1.0
            for col in range(k):
                if x[X_CCNT + col] == 0:
                    p *= tail(tt, one, prof[P_COLOUR_TOTAL, col], f_each)
        else:
            outs = 0
            for col in range(k):
                if x[X_CCNT + col] == 0:
                    outs += prof[P_COLOUR_TOTAL, col]
            p = tail(tt, need, outs, f)
        return p * (s + need * mean), mask
    # Fewer colours than five: every colour once, plus any other cards.
    s = 0
    for i in range(HAND):
        if (bests >> i) & 1:
            s += x[X_POINTS + i]
    if present == k:
        extra, em = top_points(x, bests, MAX_USED - k, any_colour)
        return float(s + extra), bests | em
    need = k - present
    f_each = max(1, fresh_cards(present, draws_left) - need + 1)
    p = 1.0
    for col in range(k):
        if x[X_CCNT + col] == 0:
            p *= tail(tt, one, prof[P_COLOUR_TOTAL, col], f_each)
    return p * (s + (MAX_USED - present) * mean), bests


@njit(cache=True, _nrt=False, inline="always")
def _good_key(x, i, keep_min):
    v = x[X_LH + i]
    return order_key(v, i) if v > 0 and v >= keep_min else 0


@njit(cache=True, _nrt=False)
def aim_low_high(x, sp, lo, hi, draws_left, unseen):
    """Keep the numerical cards worth at least ``keep_min`` (at most five, staying
    within ``hi``); expect the good numerical cards the draws bring."""
    keep_min = sp[SP_POLICY + P_KEEP_MIN]
    # The good cards in the order they are taken, most points first, then the
    # earlier position: one order key each (by Low / High points); 0 for the others.
    k0 = _good_key(x, 0, keep_min)
    k1 = _good_key(x, 1, keep_min)
    k2 = _good_key(x, 2, keep_min)
    k3 = _good_key(x, 3, keep_min)
    k4 = _good_key(x, 4, keep_min)
    k5 = _good_key(x, 5, keep_min)
    k6 = _good_key(x, 6, keep_min)
    good_held = (k0 > 0) + (k1 > 0) + (k2 > 0) + (k3 > 0) + (k4 > 0) + (k5 > 0) + (k6 > 0)
    s = 0
    kept = 0
    mask = 0
    for key in sort7_descending(k0, k1, k2, k3, k4, k5, k6):
        if key == 0 or kept >= MAX_USED:
            break
        v = key_value(key)
        if s + v > hi:
            continue
        s += v
        kept += 1
        mask |= key_bit(key)
    e = float(s)
    if kept < MAX_USED:
        outs = sp[SP_AUX + A_GOOD_TOTAL] - good_held
        expected = fresh_cards(kept, draws_left) * max(outs, 0.0) / max(unseen, 1)
        e += min(MAX_USED - kept, expected) * sp[SP_AUX + A_GOOD_MEAN]
    e = min(e, float(hi))
    if e <= lo:
        e *= 0.2
    return e, mask


# ---------------------------------------------------------------- rules helpers


@njit(cache=True, _nrt=False, inline="always")
def low_high_bounds(kind, score_row, low_idx, high_idx, sp):
    """``(lo, hi, forced)``: a Low / High fill must score in ``(lo, hi]``. ``forced``
    False means ``hi`` is only the policy's own cap (``low_cap``) for a Low filled
    before High (§5.4; SE-A4 with the strict option)."""
    if kind == K_HIGH:
        if low_idx >= 0 and score_row[low_idx] > 0:
            return np.int64(score_row[low_idx]), NO_BOUND, True
        return 0, NO_BOUND, True
    if kind == K_LOW and high_idx >= 0:
        h = np.int64(score_row[high_idx])
        if h > 0:
            return 0, h - 1, True
        if h == 0 and sp[SP_RULES + R_STRICT_ZERO] > 0:
            return 0, 0, True
        if h < 0:
            return 0, np.int64(sp[SP_POLICY + P_LOW_CAP]), False
    return 0, NO_BOUND, True


@njit(cache=True, _nrt=False, inline="always")
def eligible_slots(score_row, n_slots, opening, target):
    """Slots that may take points now: while the opening slot is open only it
    (§5.3 a: a declared target other than the opening takes nothing then), else the
    declared target (SE-A6), else every open slot."""
    if opening >= 0 and score_row[opening] < 0:
        if target >= 0 and target != opening:
            return 0
        return 1 << opening
    if target >= 0:
        return 1 << target
    m = 0
    for k in range(n_slots):
        if score_row[k] < 0:
            m |= 1 << k
    return m


@njit(cache=True, _nrt=False, inline="always")
def aim_slot(kind, used, x, prof, sp, lo, hi, draws_left, tt):
    """The keep policy's ``(estimated final score, keep plan)`` for one slot."""
    mean = sp[SP_AUX + A_MEAN_POINTS]
    used_all = used == USED_ALL
    if kind == K_LOW or kind == K_HIGH:
        return aim_low_high(x, sp, lo, hi, draws_left, prof[P_SCALARS, S_N_CARDS] - HAND)
    if kind == K_PAIR or kind == K_TWO_PAIR or kind == K_THREE or kind == K_FOUR or kind == K_FULL_HOUSE:
        return aim_groups(x, prof, kind, used_all, draws_left, mean, tt)
    if kind == K_STRAIGHT:
        return aim_straight(x, prof, x[X_RM], np.int64(-1), draws_left, tt)
    if kind == K_FLUSH:
        return aim_flush(x, prof, draws_left, mean, tt)
    if kind == K_STRAIGHT_FLUSH:
        return aim_straight_flush(x, prof, draws_left, tt)
    if kind == K_COSMOPOLITAN:
        return aim_cosmopolitan(x, prof, draws_left, mean, tt)
    return 0.0, 0


@njit(cache=True, _nrt=False)
def keep_mask(kind, plan, x, prof):
    """The hand positions a keep plan of a slot of ``kind`` keeps."""
    if plan < 0:
        return 0
    if kind == K_PAIR or kind == K_TWO_PAIR or kind == K_THREE or kind == K_FOUR or kind == K_FULL_HOUSE:
        ca, cb = group_shape(kind)
        none = np.int64(0)
        mask = rank_positions(x, plan & 15, ca, none)
        if plan >= 16:
            mask |= rank_positions(x, (plan >> 4) - 1, cb, none)
        return mask
    if kind == K_STRAIGHT or kind == K_STRAIGHT_FLUSH:
        colour = (plan >> 4) - 1
        bits = x[X_RM] if colour < 0 else x[X_CRM + colour]
        return straight_mask(x, prof, plan & 15, bits, colour)
    return plan


@njit(cache=True, _nrt=False)
def at_least_two(mask, x):
    """Add the highest-point cards until at least ``MIN_KEEP`` are kept."""
    while popcount(mask) < MIN_KEEP:
        _, m = top_points(x, mask, np.int64(1), np.int64(-1))
        mask |= m
    return mask


@njit(cache=True, _nrt=False, inline="always")
def fill_score(kind, used, x, prof, sp, score_row, low_idx, high_idx):
    """The score and used positions a seat writes in a slot (0: cannot fill). A Low
    filled before High keeps within the policy's ``low_cap``, or failing that
    scores as little as it can."""
    lo, hi, forced = low_high_bounds(kind, score_row, low_idx, high_idx, sp)
    if hi <= 0:
        return 0, 0
    mn = np.int64(sp[SP_RULES + R_LOW_HIGH_MIN])
    s, m = best_fill(kind, used, x, prof, mn, lo, hi, np.bool_(True))
    if s == 0 and not forced:
        s, m = best_fill(kind, used, x, prof, mn, lo, np.int64(NO_BOUND), np.bool_(False))
    return s, m


@njit(cache=True, _nrt=False)
def fill_scores(eligible, x, prof, board, sp, score_row, low_idx, high_idx):
    """``fill_score`` of every eligible slot into ``x[X_SCORES + k]`` (the score
    only; the rank-group kinds from one pass over the rank counts)."""
    # The loop walks the eligible slots' bits, lowest first: a test of every slot's
    # bit would be a branch on which slots happen to be open. The rank-group scores
    # are worked out when the first such slot comes.
    groups = False
    m = eligible
    while m:
        k = np.int64(low_bit(m))
        m &= m - 1
        kind = board[k, BOARD_KIND]
        if board[k, BOARD_USED] != USED_ALL and (kind == K_PAIR or kind == K_TWO_PAIR or kind == K_THREE
                                                  or kind == K_FOUR or kind == K_FULL_HOUSE):
            if not groups:
                group_scores(x, prof, x[X_GROUPS:])
                groups = True
            x[X_SCORES + k] = x[X_GROUPS + kind]
        else:
            x[X_SCORES + k], _ = fill_score(kind, board[k, BOARD_USED], x, prof, sp, score_row, low_idx, high_idx)


@njit(cache=True, _nrt=False, inline="always")
def choose_keep(eligible, prev_aim, x, prof, board, sp, score_row, low_idx, high_idx, draws_left, tt):
    """The keep policy on the analysed hand ``x``: ``(keep mask, slot aimed at or
    -1)``. It aims at the eligible slot whose estimated final score minus
    ``par_weight`` x par is largest and keeps the cards that slot wants. After a
    round's first draw (``prev_aim`` >= 0) and without ``reaim``, only the previous
    aim is estimated again; another slot takes over only when its made hand already
    beats that estimate (then its used cards are kept). Sees only the seat's own
    cards and board, the draws left and the deck's composition."""
    if sp[SP_POLICY + P_NEVER_DRAW] > 0:
        return FULL_HAND, -1
    w = sp[SP_POLICY + P_PAR_WEIGHT]
    best = -1e300
    best_k = -1
    best_mask = FULL_HAND
    best_plan = NO_PLAN
    if prev_aim < 0 or sp[SP_POLICY + P_REAIM] > 0 or not (eligible >> prev_aim) & 1:
        m = eligible
        while m:
            k = np.int64(low_bit(m))
            m &= m - 1
            kind = board[k, BOARD_KIND]
            lo, hi, _ = low_high_bounds(kind, score_row, low_idx, high_idx, sp)
            if hi <= 0:
                continue
            est, plan = aim_slot(kind, board[k, BOARD_USED], x, prof, sp, lo, hi, draws_left, tt)
            v = est - w * sp[SP_PAR + k]
            if v > best:
                best = v
                best_k = k
                best_plan = plan
        if best_k >= 0:
            best_mask = keep_mask(board[best_k, BOARD_KIND], best_plan, x, prof)
    else:
        kind = board[prev_aim, BOARD_KIND]
        lo, hi, _ = low_high_bounds(kind, score_row, low_idx, high_idx, sp)
        est, plan = aim_slot(kind, board[prev_aim, BOARD_USED], x, prof, sp, lo, hi, draws_left, tt)
        best_mask = keep_mask(kind, plan, x, prof)
        best = est - w * sp[SP_PAR + prev_aim]
        best_k = prev_aim
        others = eligible & ~(1 << prev_aim)
        fill_scores(others, x, prof, board, sp, score_row, low_idx, high_idx)
        made = -1
        m = others
        while m:
            k = np.int64(low_bit(m))
            m &= m - 1
            if x[X_SCORES + k] > 0:
                v = x[X_SCORES + k] - w * sp[SP_PAR + k]
                if v > best:
                    best = v
                    made = k
        if made >= 0:
            best_k = made
            _, best_mask = fill_score(board[made, BOARD_KIND], board[made, BOARD_USED], x, prof, sp, score_row,
                                      low_idx, high_idx)
    if best_k < 0:
        return FULL_HAND, -1
    return at_least_two(best_mask, x), best_k


@njit(cache=True, _nrt=False)
def choose_fill(eligible, x, prof, board, sp, score_row, opening, low_idx, high_idx):
    """The assign policy on the analysed hand ``x``: ``(slot, points, used mask,
    how)`` with ``how`` 0 a fill, 1 a voluntary scratch, 2 a forced scratch
    (points 0). Fills the slot whose score minus ``par_weight`` x par is largest;
    scratches the open slot of least par."""
    n_slots = board.shape[0]
    w = sp[SP_POLICY + P_PAR_WEIGHT]
    fill_scores(eligible, x, prof, board, sp, score_row, low_idx, high_idx)
    best = -1e300
    best_k = -1
    m = eligible
    while m:
        k = np.int64(low_bit(m))
        m &= m - 1
        if x[X_SCORES + k] > 0:
            v = x[X_SCORES + k] - w * sp[SP_PAR + k]
            if v > best:
                best = v
                best_k = k
    # The scratch candidate: the open slot of least par; not the opening slot while
    # it is open, unless it is the last open slot (§5.3 a, SE-A10). Looked for only
    # when a scratch can be the choice.
    opening_open = opening >= 0 and score_row[opening] < 0
    voluntary = sp[SP_RULES + R_VOLUNTARY_SCRATCH] > 0 and not opening_open
    if best_k < 0 or voluntary:
        z = -1
        for k in range(n_slots):
            if score_row[k] >= 0 or (opening_open and k == opening):
                continue
            if z < 0 or sp[SP_PAR + k] < sp[SP_PAR + z]:
                z = k
        if best_k < 0:
            if z < 0:
                return opening, 0, 0, 2
            return z, 0, 0, 2
        if z >= 0 and -w * sp[SP_PAR + z] > best:
            return z, 0, 0, 1
    s, m = fill_score(board[best_k, BOARD_KIND], board[best_k, BOARD_USED], x, prof, sp, score_row,
                      low_idx, high_idx)
    return best_k, s, m, 0


@njit(cache=True)
def hand_fills(hand, deck, prof, board, sp_row, score_row, scores, masks):
    """``fill_score`` of every open slot (``score_row[k] < 0``) for one 7-card hand,
    into ``scores`` and ``masks`` (-1 and 0 for filled slots): queries and tests."""
    x = np.zeros(CTX_SIZE, np.int64)
    analyse(hand, deck, prof, sp_row[SP_RULES + R_ACE_ONE] > 0, x)
    _, low_idx, high_idx = board_roles(board, board.shape[0])
    for k in range(board.shape[0]):
        if score_row[k] >= 0:
            scores[k] = -1
            masks[k] = 0
            continue
        scores[k], masks[k] = fill_score(board[k, BOARD_KIND], board[k, BOARD_USED], x, prof, sp_row, score_row,
                                         low_idx, high_idx)


# ---------------------------------------------------------------- the stock


@njit(cache=True, _nrt=False)
def new_stock(stock, st, n_cards, stacked, rnd):
    """Collect every card into a fresh stock for round ``rnd`` (0-based): shuffled
    lazily by ``draw_card``, or stacked when ``stacked`` has a row for this round
    (its cards first, in order, -1 ends a row; then the rest in index order)."""
    st[ST_TOP] = 0
    st[ST_SIZE] = n_cards
    st[ST_DISCARDS] = 0
    if rnd < stacked.shape[0]:
        m = 0
        for j in range(stacked.shape[1]):
            c = stacked[rnd, j]
            if c < 0:
                break
            stock[m] = c
            m += 1
        given = m
        for c in range(n_cards):
            placed = False
            for j in range(given):  # a stacked round is short: no scratch array needed
                placed = placed or stock[j] == c
            if not placed:
                stock[m] = c
                m += 1
        st[ST_ORDERED] = 1
        st[ST_STACKED] = 1
    else:
        for c in range(n_cards):
            stock[c] = c
        st[ST_ORDERED] = 0
        st[ST_STACKED] = 0


@njit(cache=True, _nrt=False, inline="always")
def draw_card(stock, st, disc, stream, in_order, trace, n_events):
    """The next stock card; an empty stock is first rebuilt from the discard pile
    (shuffled, or in discard order: ``in_order`` or a stacked round). Returns
    ``(card or -1, n_events, 1 if the discards were reshuffled)``."""
    reshuffled = 0
    if st[ST_TOP] >= st[ST_SIZE]:
        nd = st[ST_DISCARDS]
        if nd == 0:
            return -1, n_events, 0
        for i in range(nd):
            stock[i] = disc[i]
        st[ST_TOP] = 0
        st[ST_SIZE] = nd
        st[ST_DISCARDS] = 0
        st[ST_ORDERED] = 1 if (in_order or st[ST_STACKED]) else 0
        n_events = emit(trace, n_events, EV_SEL_RESHUFFLE, -1, -1, nd, 1 - st[ST_ORDERED])
        reshuffled = 1
    top = st[ST_TOP]
    if not st[ST_ORDERED]:
        j = top + below(stream, st[ST_SIZE] - top)
        c = stock[j]
        stock[j] = stock[top]
        stock[top] = c
    st[ST_TOP] = top + 1
    return stock[top], n_events, reshuffled


# ---------------------------------------------------------------- one game


@njit(cache=True, _nrt=False)
def board_roles(board, n_slots):
    """``(opening slot, low slot, high slot)``, -1 where the board has none."""
    opening = -1
    low_idx = -1
    high_idx = -1
    for k in range(n_slots):
        if board[k, BOARD_OPENING]:
            opening = k
        if board[k, BOARD_KIND] == K_LOW:
            low_idx = k
        if board[k, BOARD_KIND] == K_HIGH:
            high_idx = k
    return opening, low_idx, high_idx


@njit(cache=True)
def seat_params(deck, prof, rules, policies, par, n):
    """Each seat's parameter row ``sp``: rules, policy, deck constants seen
    through the policy, and par per slot."""
    ace_one = rules[R_ACE_ONE] > 0
    n_cards = prof[P_SCALARS, S_N_CARDS]
    sp = np.zeros((n, SP_WIDTH))
    for s in range(n):
        for i in range(rules.shape[0]):
            sp[s, SP_RULES + i] = rules[i]
        for i in range(policies.shape[1]):
            sp[s, SP_POLICY + i] = policies[s, i]
        for k in range(par.shape[1]):
            sp[s, SP_PAR + k] = par[s, k]
        keep_min = policies[s, P_KEEP_MIN]
        good = 0
        good_pts = 0
        for c in range(n_cards):
            v = card_low_high_points(deck, c, ace_one)
            if v > 0 and v >= keep_min:
                good += 1
                good_pts += v
        sp[s, SP_AUX + A_GOOD_TOTAL] = good
        sp[s, SP_AUX + A_GOOD_MEAN] = good_pts / good if good else 0.0
        sp[s, SP_AUX + A_MEAN_POINTS] = prof[P_SCALARS, S_MEAN_POINTS_X1000] / 1000.0
    return sp


@njit(cache=True, _nrt=False)
def replace_cards(hand, keep, stock, st, disc, stream, in_order, seat, draw_no, trace, n_events):
    """Discard the cards outside ``keep`` face down, then deal their replacements.
    Returns ``(n_events, reshuffles)``."""
    reshuffles = 0
    # Both loops walk the replaced positions' bits, lowest first: a test of every
    # position's bit would be a branch on which cards the policy kept.
    replaced = FULL_HAND & ~keep
    rest = replaced
    while rest:
        j = np.int64(low_bit(rest))
        rest &= rest - 1
        disc[st[ST_DISCARDS]] = hand[j]
        st[ST_DISCARDS] += 1
        n_events = emit(trace, n_events, EV_SEL_DISCARD, seat, hand[j], draw_no, 0)
    rest = replaced
    while rest:
        j = np.int64(low_bit(rest))
        rest &= rest - 1
        c, n_events, r = draw_card(stock, st, disc, stream, in_order, trace, n_events)
        reshuffles += r
        if c < 0:
            # Cannot happen with at least 7 cards per player (checked on the
            # Python side); keep the old card rather than lose one.
            st[ST_DISCARDS] -= 1
            n_events = emit(trace, n_events, EV_SEL_NO_CARD, seat, -1, draw_no, 0)
            continue
        hand[j] = c
        n_events = emit(trace, n_events, EV_SEL_DRAWN, seat, c, draw_no, 0)
    return n_events, reshuffles


# ---------------------------------------------------------------- the table state

# The table state of one game (int64; kernels/layout.py). BASE_STATE's ``dealer``
# is the first round's dealer; round ``t`` (0-based) is dealt by seat
# ``(dealer + t) % players``.
STATE = BASE_STATE.extend("selection", [
    ("round", 1),  # round under way, 0-based (0..10)
    ("draw", 1),  # draw under way in the round, 0-based
    ("step", 1),  # 1..players: the seat to act is (round dealer + step) % players
    ("hands", (MAX_PLAYERS, HAND)),  # card indices by hand position
    ("stock", MAX_CARDS),  # the stock is stock[top:size] (ST_*)
    ("disc", MAX_CARDS),  # the discard pile, in discard order
    ("stock_state", ST_WIDTH),  # ST_TOP, ST_SIZE, ST_ORDERED, ST_DISCARDS, ST_STACKED
    ("aims", (MAX_PLAYERS, 2)),  # [declared target (SE-A6), slot aimed at by the last draw]; -1 none
    ("score", (MAX_PLAYERS, MAX_SLOTS)),  # points written per slot; -1 open
    ("scratched", (MAX_PLAYERS, MAX_SLOTS)),  # 1: the slot was scratched (0 written)
    ("open_round", MAX_PLAYERS),  # round 1..11 the opening slot took points; 0 not (yet)
    ("total", MAX_PLAYERS),  # final totals (set at the end)
    ("reshuffles", 1),  # discard piles turned into a stock so far
    # A game resumed from a described table (analyzer.table.selection): the hand
    # and discard-pile places whose cards nobody at the query knows, dealt from
    # the stock when play resumes; 0 for a game played from its start.
    ("n_unknown", 1),
    ("unknown_at", MAX_PLAYERS * HAND + MAX_CARDS),  # offsets in this state
    # 1: every round after the one under way draws from its own stream keyed by
    # the deal's stream and the round (``ROUND_KEYED``), so that a query's actions
    # meet the same later deals; 2: the deal's key is saved in ``deal_key``.
    ("round_keyed", 1),
    ("deal_key", 1),
])
S = STATE.at
ROUND_KEYED = 1
ROUND_KEY_SAVED = 2
_ROUND_SALT = np.uint64(0xA0761D6478BD642F)

# The result row of one game (float64).
RESULT = Layout("selection_result", [
    ("score", (MAX_PLAYERS, MAX_SLOTS)),  # points in each slot (0 when scratched)
    ("scratched", (MAX_PLAYERS, MAX_SLOTS)),
    ("open_round", MAX_PLAYERS),  # round the opening slot took points (0 never, or no opening slot)
    ("total", MAX_PLAYERS),
    ("reshuffles", 1),
])
O = RESULT.at

# Game phases.
PH_ROUND = 0  # a round begins: a fresh stock and deal (unless hands carry over)
PH_TARGET = 1  # decision (SE-A6): the seat to act declares its target slot
PH_DRAW = 2  # decision: the seat to act keeps a mask of hand positions
PH_FILL = 3  # decision: the seat to act fills a slot or scratches one
PH_END = 4  # totals and winners

# Fill actions (DK_SEL_FILL): ``slot + FILL_MASK * used-position mask``, or
# ``SCRATCH + slot``.
FILL_MASK = MAX_SLOTS
SCRATCH = FILL_MASK * (1 << HAND)

# The game's data in the engine's ``idata`` (int64) and ``fdata`` (float64): a
# header of [offset, dimensions...] per array, offsets counted by ``pack_data``.
DATA = Layout("selection_data", [
    ("deck", 3),  # idata: [offset, cards, CARD_WIDTH]
    ("prof", 3),  # idata: [offset, PROFILE_ROWS, PROFILE_COLS]
    ("board", 3),  # idata: [offset, slots, board columns]
    ("stacked", 3),  # idata: [offset, stacked rounds, width] (-1 ends a row)
    ("sp", 3),  # fdata: [offset, seats, SP_WIDTH] the seats' parameter rows
    ("tt", 4),  # fdata: [offset, MAX_USED + 1, cards + 1, MAX_FRESH] the tail table
])
D = DATA.at


def pack_data(deck, prof, board, sp, tt, stacked=None):
    """``(idata, fdata)`` for the engine: the deck matrix, profile, board and
    stacked rows (int64) and the seats' parameter rows and tail table (float64),
    each found through the ``DATA`` header at the start of ``idata``."""
    if stacked is None:
        stacked = np.zeros((0, 1), np.int64)
    head = DATA.new()
    ints = []
    at = DATA.size
    for name, arr in (("deck", deck), ("prof", prof), ("board", board), ("stacked", stacked)):
        arr = np.ascontiguousarray(arr, np.int64)
        DATA.put(head, name, (at,) + arr.shape)
        ints.append(arr.ravel())
        at += arr.size
    floats = []
    at = 0
    for name, arr in (("sp", sp), ("tt", tt)):
        arr = np.ascontiguousarray(arr, np.float64)
        DATA.put(head, name, (at,) + arr.shape)
        floats.append(arr.ravel())
        at += arr.size
    return np.concatenate([head] + ints), np.concatenate(floats)


@njit(cache=True, inline="always")
def _imat(idata, f):
    a = idata[f]
    return idata[a:a + idata[f + 1] * idata[f + 2]].reshape((idata[f + 1], idata[f + 2]))


@njit(cache=True, inline="always")
def unpack_data(idata, fdata):
    """``(deck, prof, board, stacked, sp, tt)``: views of the packed data (inlined:
    a count-free play may make views but not receive new ones from a call)."""
    a = idata[D.sp]
    sp = fdata[a:a + idata[D.sp + 1] * idata[D.sp + 2]].reshape((idata[D.sp + 1], idata[D.sp + 2]))
    a = idata[D.tt]
    d0, d1, d2 = idata[D.tt + 1], idata[D.tt + 2], idata[D.tt + 3]
    tt = fdata[a:a + d0 * d1 * d2].reshape((d0, d1, d2))
    return _imat(idata, D.deck), _imat(idata, D.prof), _imat(idata, D.board), _imat(idata, D.stacked), sp, tt


@njit(cache=True)
def state_slots():
    """The offsets this compiled kernel uses (a test compares them with ``STATE``)."""
    return S


@njit(cache=True, _nrt=False)
def init_state(rules, st, n, dealer):
    """A fresh game: ``dealer`` deals round 1; every slot open, nothing dealt."""
    st[:] = 0
    st[B.players] = n
    st[B.dealer] = dealer
    st[B.turn] = -1
    st[B.phase] = PH_ROUND
    for s in range(MAX_PLAYERS):
        for k in range(MAX_SLOTS):
            st[S.score + MAX_SLOTS * s + k] = -1
        st[S.aims + 2 * s] = -1
        st[S.aims + 2 * s + 1] = -1


@njit(cache=True, inline="always")
def _seat(st):
    """The seat to act: ``step`` seats left of the round's dealer."""
    n = st[B.players]
    return (st[B.dealer] + st[S.round] + st[S.step]) % n


@njit(cache=True, inline="always")
def _draws(st, n_slots):
    return 3 if st[S.round] >= n_slots - 2 else 2


@njit(cache=True, _nrt=False)
def _start_round(rules, st, stream, trace, stacked, n_cards, n_slots):
    """The round's header event; a fresh stock and 7 cards each, one at a time from
    the dealer's left (unless hands carry over); then the first decision phase."""
    n = st[B.players]
    t = st[S.round]
    dealer = (st[B.dealer] + t) % n
    note(trace, st, EV_SEL_ROUND, dealer, -1, t + 1, _draws(st, n_slots))
    if st[S.round_keyed] == ROUND_KEY_SAVED:
        stream[0] = mix64(np.uint64(st[S.deal_key]) ^ (np.uint64(t + 1) * _ROUND_SALT + GOLDEN))
        stream[1] = np.uint64(0)
    stock = st[S.stock:S.stock + MAX_CARDS]
    disc = st[S.disc:S.disc + MAX_CARDS]
    sst = st[S.stock_state:S.stock_state + ST_WIDTH]
    in_order = rules[R_RESHUFFLE] == RESHUFFLE_IN_ORDER
    if t == 0 or not rules[R_CARRY_HAND] > 0:
        new_stock(stock, sst, n_cards, stacked, t)
        for j in range(HAND):
            for i in range(1, n + 1):
                s = seat_after(dealer, i, n)
                c, n_events, r = draw_card(stock, sst, disc, stream, in_order, trace, st[B.events])
                st[B.events] = n_events
                st[S.reshuffles] += r
                st[S.hands + HAND * s + j] = c
                note(trace, st, EV_SEL_DEAL, s, c, 0, 0)
    for s in range(n):
        st[S.aims + 2 * s] = -1
        st[S.aims + 2 * s + 1] = -1
    st[S.step] = 1
    st[S.draw] = 0
    st[B.phase] = PH_TARGET if rules[R_DECLARE_TARGET] > 0 else PH_DRAW
    st[B.turn] = _seat(st)


@njit(cache=True, _nrt=False)
def _advance(st, n_slots):
    """The next seat of the phase, else the next phase (draw, round)."""
    n = st[B.players]
    st[S.step] += 1
    if st[S.step] > n:
        st[S.step] = 1
        ph = st[B.phase]
        if ph == PH_TARGET:
            st[B.phase] = PH_DRAW
            st[S.draw] = 0
        elif ph == PH_DRAW:
            st[S.draw] += 1
            if st[S.draw] >= _draws(st, n_slots):
                st[B.phase] = PH_FILL
        else:
            st[S.round] += 1
            st[B.phase] = PH_END if st[S.round] >= n_slots else PH_ROUND
    ph = st[B.phase]
    st[B.turn] = _seat(st) if ph == PH_TARGET or ph == PH_DRAW or ph == PH_FILL else -1


@njit(cache=True, _nrt=False)
def _apply_fill(st, trace, s, action, x, prof, board, sp_row, opening, low_idx, high_idx, eligible):
    """Seat ``s`` writes ``action``: the used cards' points in a slot (Low / High:
    their Low / High points), or 0 in a scratched slot (voluntary when an eligible
    slot could have been filled)."""
    score_row = st[S.score + MAX_SLOTS * s:S.score + MAX_SLOTS * (s + 1)]
    if action >= SCRATCH:
        k = action - SCRATCH
        fill_scores(eligible, x, prof, board, sp_row, score_row, low_idx, high_idx)
        voluntary = 0
        for j in range(board.shape[0]):
            if (eligible >> j) & 1 and x[X_SCORES + j] > 0:
                voluntary = 1
        score_row[k] = 0
        st[S.scratched + MAX_SLOTS * s + k] = 1
        note(trace, st, EV_SEL_SCRATCH, s, -1, k, voluntary)
        return
    k = action % FILL_MASK
    used = action // FILL_MASK
    kind = board[k, BOARD_KIND]
    col = X_LH if kind == K_LOW or kind == K_HIGH else X_POINTS
    pts = 0
    for j in range(HAND):
        if (used >> j) & 1:
            pts += x[col + j]
    score_row[k] = pts
    note(trace, st, EV_SEL_FILL, s, -1, k, pts)
    for j in range(HAND):
        if (used >> j) & 1:
            note(trace, st, EV_SEL_USED, s, st[S.hands + HAND * s + j], k, 0)
    if k == opening:
        rnd = st[S.round] + 1
        st[S.open_round + s] = rnd
        note(trace, st, EV_SEL_OPENED, s, -1, rnd, 0)


@njit(cache=True, _nrt=False)
def _finish(st, trace, out, n_slots):
    """Totals, winners (ties share) and the result row."""
    n = st[B.players]
    best = -1
    winners = 0
    for s in range(n):
        tot = 0
        for k in range(n_slots):
            tot += st[S.score + MAX_SLOTS * s + k]
        st[S.total + s] = tot
        note(trace, st, EV_SEL_TOTAL, s, -1, tot, 0)
        if tot > best:
            best = tot
            winners = 1
        elif tot == best:
            winners += 1
    for s in range(n):
        if st[S.total + s] == best:
            note(trace, st, EV_SEL_WIN, s, -1, winners, 0)
    out[:] = 0.0
    for s in range(n):
        for k in range(n_slots):
            out[O.score + MAX_SLOTS * s + k] = st[S.score + MAX_SLOTS * s + k]
            out[O.scratched + MAX_SLOTS * s + k] = st[S.scratched + MAX_SLOTS * s + k]
        out[O.open_round + s] = st[S.open_round + s]
        out[O.total + s] = st[S.total + s]
    out[O.reshuffles] = st[S.reshuffles]
    st[B.phase] = PH_DONE
    st[B.turn] = -1


@njit(cache=True)
def play(t, rules, params, idata, fdata, st, stream, trace, scratch, out, stop, forced):
    """Advance the game in ``st`` to its end, writing the result row ``out``; or
    stop before the decision that would make ``stop`` decisions (``stop`` -1:
    never). ``forced`` >= 0 is taken as the next decision's action instead of the
    policy's. ``t`` and ``params`` are unused: the seats' parameter rows and the
    tail table are in ``fdata`` (``pack_data``); ``scratch`` holds the decision
    context ``x``. The state after a decision depends only on the action taken, not
    on who chose it: the aim a draw records is the seat's policy's own reading of
    its hand (it steers the seat's later draws) even when the keep is forced."""
    deck, prof, board, stacked, sp, tt = unpack_data(idata, fdata)
    n_slots = board.shape[0]
    n_cards = prof[P_SCALARS, S_N_CARDS]
    opening, low_idx, high_idx = board_roles(board, n_slots)
    ace_one = rules[R_ACE_ONE] > 0
    in_order = rules[R_RESHUFFLE] == RESHUFFLE_IN_ORDER
    x = scratch[:CTX_SIZE]
    if st[S.n_unknown] > 0 or st[S.round_keyed] == ROUND_KEYED:
        _resume(st, stream, trace, in_order)
    while True:
        ph = st[B.phase]
        if ph == PH_DONE:
            return
        if ph == PH_ROUND:
            _start_round(rules, st, stream, trace, stacked, n_cards, n_slots)
            continue
        if ph == PH_END:
            _finish(st, trace, out, n_slots)
            continue
        if paused(st, stop):
            return
        s = _seat(st)
        st[B.turn] = s
        hand = st[S.hands + HAND * s:S.hands + HAND * (s + 1)]
        score_row = st[S.score + MAX_SLOTS * s:S.score + MAX_SLOTS * (s + 1)]
        draws = _draws(st, n_slots)
        if ph == PH_TARGET:
            if forced >= 0:
                tk = forced
                forced = -1
            else:
                tk = _target_choice(st, s, deck, prof, board, sp, tt, x, opening, low_idx, high_idx, ace_one,
                                    draws)
            st[B.decisions] += 1
            st[S.aims + 2 * s] = tk
            note(trace, st, EV_SEL_TARGET, s, -1, tk, 0)
        elif ph == PH_DRAW:
            d = st[S.draw]
            if sp[s, SP_POLICY + P_NEVER_DRAW] > 0:
                keep, aimed = FULL_HAND, -1  # choose_keep's answer, without reading the hand
            else:
                el = eligible_slots(score_row, n_slots, opening, st[S.aims + 2 * s])
                analyse(hand, deck, prof, ace_one, x)
                keep, aimed = choose_keep(el, st[S.aims + 2 * s + 1], x, prof, board, sp[s], score_row, low_idx,
                                          high_idx, draws - d, tt)
            if forced >= 0:
                keep = forced
                forced = -1
            st[B.decisions] += 1
            st[S.aims + 2 * s + 1] = aimed
            note(trace, st, EV_SEL_AIM, s, popcount(keep), d + 1, aimed)
            if keep != FULL_HAND:
                stock = st[S.stock:S.stock + MAX_CARDS]
                disc = st[S.disc:S.disc + MAX_CARDS]
                sst = st[S.stock_state:S.stock_state + ST_WIDTH]
                n_events, r = replace_cards(hand, keep, stock, sst, disc, stream, in_order, s, d + 1, trace,
                                            st[B.events])
                st[B.events] = n_events
                st[S.reshuffles] += r
        else:
            el = eligible_slots(score_row, n_slots, opening, st[S.aims + 2 * s])
            analyse(hand, deck, prof, ace_one, x)
            if forced >= 0:
                action = forced
                forced = -1
            else:
                k, _, used, how = choose_fill(el, x, prof, board, sp[s], score_row, opening, low_idx, high_idx)
                action = k + FILL_MASK * used if how == 0 else SCRATCH + k
            st[B.decisions] += 1
            _apply_fill(st, trace, s, action, x, prof, board, sp[s], opening, low_idx, high_idx, el)
        _advance(st, n_slots)


@njit(cache=True, _nrt=False)
def _resume(st, stream, trace, in_order):
    """A described table's game resumes: save the deal's key for the later rounds'
    streams (``round_keyed``), then deal its unknown hand and discard-pile places
    from the stock (which holds every card nobody at the query knows, shuffled
    lazily: each deal a fresh, uniform completion)."""
    if st[S.round_keyed] == ROUND_KEYED:
        st[S.deal_key] = np.int64(stream[0])
        st[S.round_keyed] = ROUND_KEY_SAVED
    stock = st[S.stock:S.stock + MAX_CARDS]
    disc = st[S.disc:S.disc + MAX_CARDS]
    sst = st[S.stock_state:S.stock_state + ST_WIDTH]
    for i in range(st[S.n_unknown]):
        # The stock holds the unknown places' cards and more (checked on the Python
        # side), so this never reshuffles.
        c, n_events, _ = draw_card(stock, sst, disc, stream, in_order, trace, st[B.events])
        st[B.events] = n_events
        st[st[S.unknown_at + i]] = c
    st[S.n_unknown] = 0


@njit(cache=True, _nrt=False)
def _target_choice(st, s, deck, prof, board, sp, tt, x, opening, low_idx, high_idx, ace_one, draws):
    """The slot seat ``s`` declares (SE-A6): the one its keep policy aims at for the
    round; standing pat aims nowhere, so then the open slot scoring most now (or
    the slot it would scratch)."""
    n_slots = board.shape[0]
    score_row = st[S.score + MAX_SLOTS * s:S.score + MAX_SLOTS * (s + 1)]
    el = eligible_slots(score_row, n_slots, opening, np.int64(-1))
    analyse(st[S.hands + HAND * s:S.hands + HAND * (s + 1)], deck, prof, ace_one, x)
    _, tk = choose_keep(el, np.int64(-1), x, prof, board, sp[s], score_row, low_idx, high_idx, draws, tt)
    if tk < 0:
        tk, _, _, _ = choose_fill(el, x, prof, board, sp[s], score_row, opening, low_idx, high_idx)
    return tk


# ---------------------------------------------------------------- legal actions


@njit(cache=True)
def fill_points(kind, used, mask, x, prof, min_cards, lo, hi):
    """The points the hand positions ``mask`` score in a slot of ``kind`` when they
    satisfy it (§5.3-§5.4; Low / High: numerical cards only, ``min_cards`` to 5,
    a score in ``(lo, hi]``), else 0. Every real fill scores at least 11."""
    size = popcount(mask)
    if size == 0 or size > MAX_USED:
        return 0
    if kind == K_LOW or kind == K_HIGH:
        if size < min_cards:
            return 0
        s = 0
        for i in range(HAND):
            if (mask >> i) & 1:
                if x[X_LH + i] == 0:
                    return 0
                s += x[X_LH + i]
        return s if lo < s <= hi else 0
    ace_low = prof[P_SCALARS, S_ACE_LOW]
    cnt = np.zeros(ACE + 1, np.int64)
    colours = 0
    bits = 0
    s = 0
    for i in range(HAND):
        if (mask >> i) & 1:
            cnt[x[X_RANK + i]] += 1
            colours |= 1 << x[X_COLOUR + i]
            bits |= rank_bits(x[X_RANK + i], ace_low)
            s += x[X_POINTS + i]
    distinct = 0
    for r in range(ACE + 1):
        if cnt[r] > 0:
            distinct += 1
    if kind == K_PAIR or kind == K_TWO_PAIR or kind == K_THREE or kind == K_FOUR or kind == K_FULL_HOUSE:
        ca, cb = group_shape(kind)
        matched = used != USED_ALL
        if kind == K_FULL_HOUSE or (matched and cb > 0):
            if size != ca + cb:
                return 0
        if matched and cb == 0 and (size != ca or distinct != 1):
            return 0
        for a in range(ACE + 1):
            if cnt[a] < ca:
                continue
            if cb == 0:
                return s
            for b in range(ACE + 1):
                if b != a and cnt[b] >= cb:
                    return s
        return 0
    straight = False
    if size == MAX_USED and distinct == MAX_USED:
        for w in range(1, 11):
            if bits & (31 << w) == (31 << w):
                straight = True
    one_colour = size == MAX_USED and popcount(colours) == 1
    if kind == K_STRAIGHT:
        return s if straight else 0
    if kind == K_FLUSH:
        return s if one_colour else 0
    if kind == K_STRAIGHT_FLUSH:
        return s if straight and one_colour else 0
    if kind == K_COSMOPOLITAN:
        return s if size == MAX_USED and popcount(colours) >= prof[P_SCALARS, S_COSMO_COLOURS] else 0
    return 0


@njit(cache=True)
def fill_actions(st, s, x, prof, board, sp_row, opening, low_idx, high_idx, actions):
    """Seat ``s``'s legal fill actions on its analysed hand ``x``, ascending by
    slot then mask: every (eligible slot, used positions) that satisfies the slot
    under the rules' Low / High bounds (a policy's ``low_cap`` is not a rule), then
    the legal scratches: with no fill possible, any open slot but an open opening
    slot (which gets 0 only as the last open slot); with a fill possible, any open
    slot when voluntary scratches are allowed (SE-A5) and the opening is made.
    Returns how many."""
    n_slots = board.shape[0]
    score_row = st[S.score + MAX_SLOTS * s:S.score + MAX_SLOTS * (s + 1)]
    eligible = eligible_slots(score_row, n_slots, opening, st[S.aims + 2 * s])
    mn = np.int64(sp_row[SP_RULES + R_LOW_HIGH_MIN])
    count = 0
    for k in range(n_slots):
        if not (eligible >> k) & 1:
            continue
        kind = board[k, BOARD_KIND]
        lo, hi, forced = low_high_bounds(kind, score_row, low_idx, high_idx, sp_row)
        if not forced:
            hi = NO_BOUND
        if hi <= 0:
            continue
        for mask in range(1, 1 << HAND):
            if fill_points(kind, board[k, BOARD_USED], mask, x, prof, mn, lo, hi) > 0:
                actions[count] = k + FILL_MASK * mask
                count += 1
    opening_open = opening >= 0 and score_row[opening] < 0
    may_scratch = count == 0 or (sp_row[SP_RULES + R_VOLUNTARY_SCRATCH] > 0 and not opening_open)
    if may_scratch:
        first = count
        for k in range(n_slots):
            if score_row[k] < 0 and not (count == 0 and opening_open and k == opening):
                actions[count] = SCRATCH + k
                count += 1
        if count == first and opening_open:
            actions[count] = SCRATCH + opening
            count += 1
    return count


@njit(cache=True)
def decision(t, rules, params, idata, fdata, st, scratch, actions):
    """``(kind, seat, number of legal actions)`` at the decision ``play`` stopped
    at, the actions written to ``actions``; ``DK_NONE`` when there is none.

    * ``DK_SEL_TARGET`` (SE-A6): any open slot. While the opening slot is open the
      policy declares it, or, standing pat without the opening made, the slot it
      will scratch; a declared target is the only slot that can take points.
    * ``DK_SEL_KEEP``: every mask of hand positions keeping at least two cards
      (127: standing pat), ascending: 120 actions.
    * ``DK_SEL_FILL``: ``fill_actions`` (at most 11 x 119 fills and 11 scratches).
    """
    ph = st[B.phase]
    if ph != PH_TARGET and ph != PH_DRAW and ph != PH_FILL:
        return DK_NONE, -1, 0
    deck, prof, board, stacked, sp, tt = unpack_data(idata, fdata)
    n_slots = board.shape[0]
    s = _seat(st)
    if ph == PH_TARGET:
        count = 0
        for k in range(n_slots):
            if st[S.score + MAX_SLOTS * s + k] < 0:
                actions[count] = k
                count += 1
        return DK_SEL_TARGET, s, count
    if ph == PH_DRAW:
        count = 0
        for mask in range(1 << HAND):
            if popcount(mask) >= MIN_KEEP:
                actions[count] = mask
                count += 1
        return DK_SEL_KEEP, s, count
    x = scratch[:CTX_SIZE]
    opening, low_idx, high_idx = board_roles(board, n_slots)
    analyse(st[S.hands + HAND * s:S.hands + HAND * (s + 1)], deck, prof, rules[R_ACE_ONE] > 0, x)
    return DK_SEL_FILL, s, fill_actions(st, s, x, prof, board, sp[s], opening, low_idx, high_idx, actions)



@njit(cache=True)
def _workspace(n_cards):
    """Hands, stock, discard pile, stock state, targets and aims, decision context."""
    return (np.zeros((MAX_PLAYERS, HAND), np.int64), np.zeros(n_cards, np.int64), np.zeros(n_cards, np.int64),
            np.zeros(ST_WIDTH, np.int64), np.zeros((MAX_PLAYERS, 2), np.int64), np.zeros(CTX_SIZE, np.int64))


@njit(cache=True)
def par_batch(deck, prof, board, rules, policy, seed, trials, out):
    """Each slot's par: its mean score over ``trials`` single rounds (a fresh deck,
    7 cards, 2 draws) played by one seat aiming at that slot alone with ``policy``,
    every other slot open (so a Low keeps within the policy's ``low_cap``). Trial
    ``j`` of slot ``k`` uses the stream ``(seed, k * trials + j)``."""
    n_slots = board.shape[0]
    n_cards = prof[P_SCALARS, S_N_CARDS]
    tt = make_tail_table(prof)
    policies = np.zeros((1, policy.shape[0]))
    policies[0] = policy
    sp = seat_params(deck, prof, rules, policies, np.zeros((1, n_slots)), 1)
    ace_one = rules[R_ACE_ONE] > 0
    opening, low_idx, high_idx = board_roles(board, n_slots)
    zero, one, no = np.int64(0), np.int64(1), np.bool_(False)  # not literals: one compiled version of each callee
    for k in range(n_slots):
        hands, stock, disc, st, aims, x = _workspace(n_cards)
        no_stack = np.zeros((0, 1), np.int64)
        no_trace = np.zeros((0, TRACE_WIDTH), np.int64)
        stream = np.zeros(2, np.uint64)
        score_row = np.full(n_slots, -1, np.int32)
        my_sp = sp[0].copy()
        hand = hands[0]
        total = 0
        for j in range(trials):
            seed_stream(stream, seed, k * trials + j)
            new_stock(stock, st, n_cards, no_stack, zero)
            for i in range(HAND):
                c, _, _ = draw_card(stock, st, disc, stream, no, no_trace, zero)
                hand[i] = c
            for d in range(2):
                analyse(hand, deck, prof, ace_one, x)
                keep, _ = choose_keep(one << k, -one, x, prof, board, my_sp, score_row, low_idx, high_idx, 2 - d, tt)
                replace_cards(hand, keep, stock, st, disc, stream, no, zero, d + 1, no_trace, zero)
            analyse(hand, deck, prof, ace_one, x)
            s, _ = fill_score(board[k, BOARD_KIND], board[k, BOARD_USED], x, prof, my_sp, score_row,
                              low_idx, high_idx)
            total += s
        out[k] = total / trials
