"""What every game kernel shares: seat walks, the event log, the rules indices of
the showdown, and the declaration-and-showdown finish of a deal."""

import numpy as np
from numba import njit

from ..cards import NO_CARD, card_bit
from ..layout import Layout
from ..policies import DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW, declare
from ..ranking import popcount
from ..rng import DECK_SIZE, DECK_TOP, below, draw, fill_deck, restock, stack_deck
from ..showdown import ODD_CHIP_SUIT, SPLIT_DECLARE, settle

# Rules vector (float64): the showdown options open every pot game's rules layout,
# so they sit at the same indices in every game (``SHOWDOWN_RULES.extend``).
SHOWDOWN_RULES = Layout("showdown_rules", [
    ("split_mode", 1),  # kernels.showdown.SPLIT_*
    ("low_qualifier", 1),  # low threshold strength (1 = any low)
    ("declare_mode", 1),  # 0 simultaneous, 1 sequential
    ("both_outright", 1),
    ("all_failed", 1),
    ("chip_mode", 1),
    ("odd_chip", 1),
    ("ante", 1),
    ("natural_beats_wild", 1),
])
R_SPLIT_MODE = SHOWDOWN_RULES.at.split_mode
R_LOW_QUALIFIER = SHOWDOWN_RULES.at.low_qualifier
R_DECLARE_MODE = SHOWDOWN_RULES.at.declare_mode
R_BOTH_OUTRIGHT = SHOWDOWN_RULES.at.both_outright
R_ALL_FAILED = SHOWDOWN_RULES.at.all_failed
R_CHIP_MODE = SHOWDOWN_RULES.at.chip_mode
R_ODD_CHIP = SHOWDOWN_RULES.at.odd_chip
R_ANTE = SHOWDOWN_RULES.at.ante
R_NATURAL_BEATS_WILD = SHOWDOWN_RULES.at.natural_beats_wild
N_SHOWDOWN_RULES = SHOWDOWN_RULES.size

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
REJECTED = -2.0  # the carry of a deal whose unknown cards contradict the choices seen (equity --condition)
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


@njit(cache=True, inline="always")
def seat_after(seat, k, n):
    """``(seat + k) % n`` for a seat ``0 <= seat < n`` and ``0 <= k <= n``, by one
    comparison: numba's signed ``%`` by a number known only at run time is a
    division and a sign fix-up, and the games take it for every card dealt."""
    s = seat + k
    return s - n if s >= n else s


@njit(cache=True, inline="always")
def seat_before(seat, k, n):
    """``(seat - k) % n`` for a seat ``0 <= seat < n`` and ``0 <= k <= n`` (as
    ``seat_after``)."""
    s = seat - k
    return s + n if s < 0 else s


@njit(cache=True, inline="always")
def next_in(members, after, n):
    """First seat of the ``members`` bit set walking clockwise from ``after + 1``;
    wraps around to ``after`` itself when it is the only member (RULES.md §0.1);
    ``after`` is a seat, or -1 to start at seat 0. The walk wraps by comparison,
    not ``%``: numba's signed modulo (a division and a sign fix-up) on every step
    was 6% of a four-player stud deal."""
    s = after
    for _ in range(n):
        s += 1
        if s >= n:
            s = 0
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


# ======================================================================== table state
# Every game's table state is one int64 array described by a Layout
# (kernels/layout.py). BASE_STATE opens every layout, so the engine reads these
# slots at the same offsets in every game; POT_STATE opens every pot game's layout,
# so the deck, the declarations and the showdown below are written once.

SEATS = 8  # the most seats any game has
MAX_UNKNOWN = 64  # hidden cards of a described table dealt at random when play resumes
MAX_ACTIONS = 2048  # room for the legal actions at one decision point (Selection's fills: up to 11 x 119 + 11)

BASE_STATE = Layout("base", [
    ("players", 1),
    ("dealer", 1),
    ("phase", 1),  # PH_*; game phases are below PH_DECLARE
    ("turn", 1),  # the seat to act at a decision point, -1 none
    ("decisions", 1),  # decisions taken so far in this deal
    ("events", 1),  # events written to the trace so far
    ("void", 1),  # 1: a stacked deck ran out before the deal was complete
])

POT_STATE = BASE_STATE.extend("pot", [
    ("stock", 52),  # the stock is stock[top:size] (kernels.rng's lazy deck)
    ("deck", 3),  # [top, size, stacked]
    ("dead", 64),  # dead cards that an empty stock is rebuilt from
    ("n_dead", 1),
    ("seen", 1),  # mask of every card that has been face up (public)
    ("active", SEATS),  # in the hand (1) or folded (0); nobody folds until betting lands
    ("folded", SEATS),
    ("committed", SEATS),  # chips bet this deal (0 until betting lands)
    ("paid", SEATS),  # chips put in the pot: ante and fees
    ("declared", SEATS),  # DECLARE_*; HIGH for everyone unless declarations are made
    ("declare_order", SEATS),  # the declarations in the order made (sequential declaring)
    ("n_declared", 1),
    # A described table's declarations already made (sequential declaring: the first
    # preset_declared seats from the dealer's left; declared and declare_order hold
    # them), and the seats whose declaration each deal must reproduce (--condition).
    ("preset_declared", 1),
    ("check_declared", 1),
    ("natural", SEATS),  # showdown: each seat's natural cards (mask)
    ("shown", SEATS),  # showdown: what the others see of each hand (mask)
    ("high", SEATS),  # final high strength
    ("low", SEATS),  # final low strength, already qualified (0 none)
    ("high_natural", SEATS),  # 1: the high hand uses no wild card
    ("odd_high", SEATS),  # the odd-chip cards (RULES.md §0.8.9)
    ("odd_low", SEATS),
    ("carried_in", 1),  # chips already in the pot, carried over from an earlier deal (§0.8.8), in 1/UNITS
    # A described table's hidden cards nobody at the table knows (the others' hole
    # cards): play deals them from the stock first, card k to state slot
    # unknown_at[k] (-1: none) with its bit into the mask at unknown_mask[k] (-1: none).
    ("n_unknown", 1),
    ("unknown_at", MAX_UNKNOWN),
    ("unknown_mask", MAX_UNKNOWN),
])
B = BASE_STATE.at
P = POT_STATE.at

# The result row of one pot-game deal (float64), SEATS columns per field.
POT_RESULT = Layout("pot_result", [
    ("carry", 1),  # pot carried to the next deal, chips (EXHAUSTED: a void deal)
    ("payout", SEATS),  # chips taken from the pot
    ("paid", SEATS),  # chips put in (ante and fees); net = payout - paid
    ("high_share", SEATS),  # fraction of the pot taken from the high half
    ("low_share", SEATS),
    ("declared", SEATS),  # DECLARE_*
    ("high", SEATS),  # final high strength
    ("low", SEATS),  # final low strength (0 none)
])
O = POT_RESULT.at

# Phases every game shares (game phases count up from 0).
PH_DECLARE = 100  # decision: the seat ``turn`` declares HIGH, LOW or BOTH
PH_SETTLE = 101
PH_DONE = 102

# Kinds of decision point (``decision`` in each game), and what an action means there.
DK_NONE = 0  # no decision: the deal is over
DK_OFFER = 1  # Selection/Rejection, Do Ya: 0 take the card on offer, 1 refuse it
DK_POOL = 2  # Do Ya: a card code, take that reject from the table; POOL_DRAW: a fresh card
DK_DECLARE = 3  # DECLARE_HIGH, DECLARE_LOW or DECLARE_BOTH
DK_PASS = 4  # Anaconda: the mask of the cards to pass
DK_KEEP = 5  # Anaconda: the mask of the five cards to keep
DK_HIDE = 6  # Anaconda: the card code to keep face down
DK_PAY = 7  # Train Wreck: 0 accept the offered card, 1 pay the fee to refuse it
DK_EXTRA = 8  # Train Wreck (optional actions): 0 decline the extra card, 1 take it
DK_TARGET = 9  # Train Wreck: 64 * victim + card code (HOLE_BLIND: a hole card blind); DECLINE
DK_SEL_TARGET = 10  # Selection (SE-A6): the slot declared as the target
DK_SEL_KEEP = 11  # Selection: the mask of hand positions kept at a draw
DK_SEL_FILL = 12  # Selection: slot + 16 * used-position mask, or SCRATCH + slot
DECISION_NAMES = ("none", "offer", "pool", "declare", "pass", "keep", "hide", "pay", "extra", "target",
                  "target_slot", "draw", "fill")
TAKE = 0
REFUSE = 1
POOL_DRAW = 52
# Train Wreck's actions: DK_PAY, DK_EXTRA, and DK_TARGET's card code for a hole card
# taken blind (a random one of the victim's) and its decline (optional actions).
ACCEPT = 0
PAY = 1
EXTRA_DECLINE = 0
EXTRA_TAKE = 1
HOLE_BLIND = 52
DECLINE = 64 * SEATS


@njit(cache=True, inline="always")
def note(trace, st, kind, seat, card, a, b):
    """Append an event to ``trace`` when tracing (it has rows), counting in the state."""
    k = st[B.events]
    if k < trace.shape[0]:
        trace[k, 0] = kind
        trace[k, 1] = seat
        trace[k, 2] = card
        trace[k, 3] = a
        trace[k, 4] = b
        st[B.events] = k + 1


@njit(cache=True, inline="always")
def paused(st, stop):
    """Whether play stops before this decision (``stop`` decisions taken; -1 never)."""
    return stop >= 0 and st[B.decisions] >= stop


@njit(cache=True, inline="always")
def mask_at(st, i):
    """A card mask stored in the state, as ``uint64`` (masks stay below 2**61)."""
    return np.uint64(st[i])


@njit(cache=True)
def init_pot_state(st, n, dealer, ante):
    """A fresh pot-game deal: every seat active with its ante paid, the full deck in
    the stock, nothing dealt."""
    st[:] = 0
    st[B.players] = n
    st[B.dealer] = dealer
    st[B.turn] = -1
    for s in range(n):
        st[P.active + s] = 1
        st[P.paid + s] = ante
        st[P.high_natural + s] = 1
    fill_stock(st, np.uint64(0))


@njit(cache=True)
def fill_stock(st, placed):
    """Every card not in the ``placed`` mask into the stock, in code order (drawn at
    random); a described table's unknown cards."""
    fill_deck(st[P.stock:P.stock + 52], st[P.deck:P.deck + 3], placed)


@njit(cache=True)
def deal_unknowns(st, stream):
    """Deal a described table's unknown hidden cards from the stock (each deal of a
    batch plays from a copy of the described state, so each deals them afresh);
    False when the stock ran out first."""
    for k in range(st[P.n_unknown]):
        c = next_card(st, stream)
        if c == NO_CARD:
            return False
        if st[P.unknown_at + k] >= 0:
            st[st[P.unknown_at + k]] = c
        if st[P.unknown_mask + k] >= 0:
            st[st[P.unknown_mask + k]] |= np.int64(card_bit(c))
    st[P.n_unknown] = 0
    return True


PLACE_TRIES = 10_000  # draws of a placement before ``place_in_unknowns`` gives up


@njit(cache=True, inline="always")
def _picked_alike(st, seats_at, picks_at, i, k):
    """Whether entry ``k`` is taken by a card before card ``i`` with the same seats."""
    for q in range(i):
        if st[seats_at + q] == st[seats_at + i] and st[picks_at + q] == k:
            return True
    return False


@njit(cache=True)
def place_in_unknowns(st, stream, cards_at, seats_at, picks_at, n_cards, base):
    """Known cards whose holder is uncertain, into a described table's unknown
    slots before ``deal_unknowns`` deals the rest: card ``i`` (``st[cards_at + i]``)
    lies in one of the unknown entries whose mask slot is ``base + s`` for a seat
    ``s`` of the bit set ``st[seats_at + i]``. Every placement with no two cards in
    one entry is equally likely: the cards with the same seats are drawn without
    replacement from their entries (uniformly), and all of them again while cards
    with different seats collide; ``picks_at`` is room for ``n_cards`` entry
    numbers. The entries used leave the unknown list. False when no placement was
    found."""
    n = st[P.n_unknown]
    placed = False
    for _ in range(PLACE_TRIES):
        placed = True
        for i in range(n_cards):
            seats = st[seats_at + i]
            m = 0
            for k in range(n):
                s = st[P.unknown_mask + k] - base
                if 0 <= s < SEATS and (seats >> s) & 1 and not _picked_alike(st, seats_at, picks_at, i, k):
                    m += 1
            if m == 0:
                return False
            j = below(stream, m)
            pick = -1
            for k in range(n):
                s = st[P.unknown_mask + k] - base
                if 0 <= s < SEATS and (seats >> s) & 1 and not _picked_alike(st, seats_at, picks_at, i, k):
                    if j == 0:
                        pick = k
                        break
                    j -= 1
            for q in range(i):
                if st[picks_at + q] == pick:
                    placed = False
            st[picks_at + i] = pick
            if not placed:
                break
        if placed:
            break
    if not placed:
        return False
    for i in range(n_cards):
        k = st[picks_at + i]
        c = st[cards_at + i]
        if st[P.unknown_at + k] >= 0:
            st[st[P.unknown_at + k]] = c
        if st[P.unknown_mask + k] >= 0:
            st[st[P.unknown_mask + k]] |= np.int64(card_bit(c))
        st[P.unknown_mask + k] = -2  # used
    kept = 0
    for k in range(n):
        if st[P.unknown_mask + k] != -2:
            st[P.unknown_at + kept] = st[P.unknown_at + k]
            st[P.unknown_mask + kept] = st[P.unknown_mask + k]
            kept += 1
    st[P.n_unknown] = kept
    return True


@njit(cache=True)
def stack_stock(st, order):
    """A stacked stock: draws return ``order`` front to back (tests, replays)."""
    stack_deck(st[P.stock:P.stock + 52], st[P.deck:P.deck + 3], order)


@njit(cache=True, inline="always")
def stock_left(st):
    return st[P.deck + DECK_SIZE] - st[P.deck + DECK_TOP]


@njit(cache=True, inline="always")
def next_card(st, stream):
    """The next stock card, or ``NO_CARD``."""
    return draw(st, P.stock, P.deck, stream)


@njit(cache=True, inline="always")
def add_dead(st, c):
    st[P.dead + st[P.n_dead]] = c
    st[P.n_dead] += 1


@njit(cache=True)
def restock_from_dead(st, trace):
    """The dead cards become the stock (with what is left of it)."""
    restock(st[P.stock:P.stock + 52], st[P.deck:P.deck + 3], st[P.dead:P.dead + 64], st[P.n_dead])
    note(trace, st, EV_RESHUFFLE, -1, -1, stock_left(st), 0)
    st[P.n_dead] = 0


@njit(cache=True, inline="always")
def next_card_or_restock(st, stream, trace):
    """Draw; on an empty stock shuffle the dead cards into a new one first (in a
    function of its own: slices of the state in the hot path cost reference counts)."""
    c = next_card(st, stream)
    if c == NO_CARD and st[P.n_dead] > 0:
        restock_from_dead(st, trace)
        c = next_card(st, stream)
    return c


@njit(cache=True)
def void_deal(st, trace, seat, out):
    """A stacked deck ran out before the deal was complete: the deal is void."""
    note(trace, st, EV_EXHAUSTED, seat, -1, 0, 0)
    st[B.void] = 1
    st[B.phase] = PH_DONE
    out[O.carry] = EXHAUSTED
    for s in range(st[B.players]):
        out[O.paid + s] = st[P.paid + s]


@njit(cache=True)
def reject_deal(st, out):
    """The unknown cards dealt contradict what the table saw the players choose: the
    deal is dropped (rejection sampling; ``REJECTED``)."""
    st[B.phase] = PH_DONE
    out[O.carry] = REJECTED
    for s in range(st[B.players]):
        out[O.paid + s] = st[P.paid + s]


@njit(cache=True)
def begin_showdown(rules, st):
    """The game has set natural / shown / high / low / high_natural: declarations
    next (when the split mode asks for them), else the pot is divided. A described
    table's declarations already made stand."""
    st[P.n_declared] = st[P.preset_declared]
    if int(rules[R_SPLIT_MODE]) == SPLIT_DECLARE:
        st[B.turn] = _next_declarer(st)
        st[B.phase] = PH_DECLARE if st[B.turn] >= 0 else PH_SETTLE
    else:
        st[B.phase] = PH_SETTLE
        st[B.turn] = -1


@njit(cache=True)
def _next_declarer(st):
    """The next active seat clockwise from the dealer's left that has not declared
    (declarations go round once, in that order), or -1."""
    n = st[B.players]
    dealer = st[B.dealer]
    done = 0
    for k in range(1, n + 1):
        s = seat_after(dealer, k, n)
        if not st[P.active + s]:
            continue
        if done == st[P.n_declared]:
            return s
        done += 1
    return -1


@njit(cache=True, inline="always")
def active_seats(st):
    """The active seats as a seat set (bit ``s``): nobody folds while the
    declarations are made, so each declaration reads the set found once."""
    active = 0
    for o in range(st[B.players]):
        if st[P.active + o]:
            active |= 1 << o
    return active


@njit(cache=True, inline="always")
def declare_choice(rules, params, st, s, active):
    """Seat s's declaration by its policy: it sees its own hand, the others' face-up
    cards and, when declaring in turn, the declarations made before it; ``active``
    is ``active_seats(st)``. (Inlined: a call a declaration was 5% of a
    Selection/Rejection deal where every seat takes every card.)"""
    n_active = popcount(np.uint64(active))
    opponents = active & ~(1 << s)
    shown = st[P.shown:P.shown + SEATS].view(np.uint64)
    earlier = st[P.declare_order:P.declare_order + SEATS]
    k = st[P.n_declared]
    if int(rules[R_DECLARE_MODE]) == DECLARE_SEQUENTIAL:
        d = declare(params[s], st[P.high + s], st[P.low + s], shown, opponents, earlier, k, k == n_active - 1)
    else:
        d = declare(params[s], st[P.high + s], st[P.low + s], shown, opponents, earlier, 0, False)
    return d


@njit(cache=True, inline="always")
def _declarer_after(st, s):
    """``_next_declarer`` once seat ``s``, the one it named, has declared: the next
    active seat clockwise up to the dealer, or -1 (no walk from the dealer's left
    and no division a seat)."""
    n = st[B.players]
    dealer = st[B.dealer]
    while s != dealer:
        s = s + 1 if s + 1 < n else 0
        if st[P.active + s]:
            return s
    return -1


@njit(cache=True)
def apply_declaration(st, s, d):
    st[P.declared + s] = d
    st[P.declare_order + st[P.n_declared]] = d
    st[P.n_declared] += 1
    st[B.turn] = _declarer_after(st, s)
    if st[B.turn] < 0:
        st[B.phase] = PH_SETTLE


@njit(cache=True)
def declarations_consistent(rules, params, st):
    """Whether each seat of ``check_declared``, holding the cards this deal dealt it,
    would have made the declaration the table saw, seeing what it saw then (the
    earlier declarations, in sequential declaring). Policies are deterministic."""
    made = st[P.n_declared]
    ok = True
    st[P.n_declared] = 0
    active = active_seats(st)
    for k in range(made):
        s = _next_declarer(st)
        if (st[P.check_declared] >> s) & 1 and declare_choice(rules, params, st, s, active) != st[P.declare_order + k]:
            ok = False
            break
        st[P.n_declared] += 1
    st[P.n_declared] = made
    st[P.check_declared] = 0
    return ok


@njit(cache=True)
def showdown_step(rules, params, st, trace, out, stop, forced):
    """The shared end of a pot-game deal from PH_DECLARE or PH_SETTLE: the
    declarations left, each one a decision (counted, and a place to pause before:
    ``stop``), then the pot divided. Returns ``(paused, forced)``: paused before a
    declaration, and the forced action left for later decisions (-1 once used). A
    deal whose cards contradict the declarations seen (``check_declared``) is
    rejected first. All in one call: a return to the game's loop and a call back
    for each declaration had cost more than the declarations."""
    if st[P.check_declared] != 0 and not declarations_consistent(rules, params, st):
        reject_deal(st, out)
        return False, forced
    active = active_seats(st)
    while st[B.phase] == PH_DECLARE:
        if paused(st, stop):
            return True, forced
        s = st[B.turn]
        if forced >= 0:
            d = forced
            forced = -1
        else:
            d = declare_choice(rules, params, st, s, active)
        st[B.decisions] += 1
        apply_declaration(st, s, d)
    settle_deal(rules, st, trace, out)
    return False, forced


@njit(cache=True)
def settle_deal(rules, st, trace, out):
    """Declarations told, hands shown, the pot divided (RULES.md §0.8) into ``out``."""
    n = st[B.players]
    dealer = st[B.dealer]
    split_mode = int(rules[R_SPLIT_MODE])
    if split_mode == SPLIT_DECLARE:
        for k in range(1, n + 1):
            s = seat_after(dealer, k, n)
            if st[P.active + s]:
                note(trace, st, EV_DECLARE, s, -1, st[P.declared + s], 0)
    pot = st[P.carried_in] / UNITS
    by_suit = int(rules[R_ODD_CHIP]) == ODD_CHIP_SUIT  # settle reads the odd-chip cards only then
    for s in range(n):
        if by_suit:
            st[P.odd_high + s] = high_odd_card(mask_at(st, P.natural + s), st[P.high + s])
            st[P.odd_low + s] = low_odd_card(mask_at(st, P.natural + s), st[P.low + s])
        if st[P.active + s]:
            note(trace, st, EV_HAND, s, -1, st[P.high + s], st[P.low + s])
        pot += st[P.paid + s]
    carry = settle(st[P.active:P.active + n], st[P.high:P.high + n], st[P.low:P.low + n],
                   st[P.declared:P.declared + n], pot, dealer, split_mode, rules[R_BOTH_OUTRIGHT] > 0,
                   int(rules[R_ALL_FAILED]), int(rules[R_CHIP_MODE]), int(rules[R_ODD_CHIP]),
                   rules[R_NATURAL_BEATS_WILD] > 0, st[P.high_natural:P.high_natural + n],
                   st[P.odd_high:P.odd_high + n], st[P.odd_low:P.odd_low + n],
                   out[O.payout:O.payout + n], out[O.high_share:O.high_share + n], out[O.low_share:O.low_share + n])
    for s in range(n):
        payout = out[O.payout + s]
        note(trace, st, EV_PAYOUT, s, -1, np.int64(round(payout * UNITS)),
             np.int64(round((payout - st[P.paid + s]) * UNITS)))
        out[O.paid + s] = st[P.paid + s]
        out[O.declared + s] = st[P.declared + s]
        out[O.high + s] = st[P.high + s]
        out[O.low + s] = st[P.low + s]
    if carry > 0:
        note(trace, st, EV_CARRY, -1, -1, np.int64(round(carry * UNITS)), 0)
    out[O.carry] = carry
    st[B.phase] = PH_DONE
    st[B.turn] = -1


@njit(cache=True)
def declare_actions(actions):
    actions[0] = DECLARE_HIGH
    actions[1] = DECLARE_LOW
    actions[2] = DECLARE_BOTH
    return 3
