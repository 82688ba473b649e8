"""Pot division at the showdown (RULES.md §0.8), every option.

One entry point, :func:`settle`, divides one pot among the active seats from
their high and low strengths (larger is better; a low strength of 0 means "no
qualifying low") and, in declare mode, their declarations. It writes each
seat's payout and the fraction of the pot it took from the high half and from
the low half, and returns what is carried to the next deal.

Sets of seats are ``int64`` bit masks (seat ``s`` is bit ``s``), so nothing is
allocated: a table may have at most 63 seats.

Options are the integer constants below; the Python layer maps the rules
vector's names (``split_mode="declare"`` ...) onto them.

``settle`` and its helpers are inlined into their caller: called, its eighteen
arguments (thirteen arrays) and the helpers' calls cost a tenth of a stud deal
(measured side by side: 311 against 281 ns a four-player deal, results equal).
So each helper is called from one place where it can be: every inlined copy is
machine code that every pot game's ``play`` carries, compiles and loads. With a
``_divide`` (and up to four ``_split``) for each way a pot can end, the showdown
was three quarters of Train Wreck's compiled ``play`` (its first compile 96 s,
30 s with one ``_divide``). The one-line helpers (``_has``, ``_first``, ...) are
left to LLVM, which inlines them all, where numba's own inlining of each call
took 2.6 of ``settle_deal``'s 8 s of compiling.
"""

import math

import numpy as np
from numba import njit

from .ranking import low_bit, popcount

# split_mode
SPLIT_DECLARE = 0
SPLIT_CARDS_SPEAK = 1
SPLIT_HIGH_ONLY = 2
SPLIT_HIGH_AND_RIGHT_NEIGHBOUR = 3

# declared[s]
DECLARE_HIGH = 0
DECLARE_LOW = 1
DECLARE_BOTH = 2

# all_failed_rule
ALL_FAILED_CARDS_SPEAK = 0
ALL_FAILED_CARRY_OVER = 1

# chip_mode
CHIPS_FRACTIONAL = 0
CHIPS_INTEGER = 1

# odd_chip
ODD_CHIP_POSITION = 0
ODD_CHIP_SUIT = 1

MAX_SEATS = 63


# ------------------------------------------------------------------ seat sets


@njit(cache=True)
def _has(mask, s):
    return (mask >> s) & 1 == 1


@njit(cache=True)
def _first(mask):
    """The lowest seat of a non-empty seat set. The loops below walk a set's seats
    with it, lowest first (the order of ``range(n)``), instead of testing every
    seat: LLVM vectorises a loop over ``range(n)`` into masked vector code several
    times the size, for tables of at most a few seats."""
    return np.int64(low_bit(mask))


@njit(cache=True)
def _max_over(mask, values, least):
    """The largest of ``least`` and the ``values`` of the seats of ``mask``."""
    best = least
    rest = mask
    while rest != 0:
        s = _first(rest)
        rest &= rest - 1
        if values[s] > best:
            best = values[s]
    return best


@njit(cache=True)
def _seats_at(mask, values, value):
    """The seats of ``mask`` whose value is ``value``."""
    seats = np.int64(0)
    rest = mask
    while rest != 0:
        s = _first(rest)
        rest &= rest - 1
        if values[s] == value:
            seats |= np.int64(1) << s
    return seats


@njit(cache=True, inline="always")
def _top_high(mask, high, high_natural, natural_beats_wild):
    """Seats of ``mask`` holding the best high hand (ties kept). With
    ``natural_beats_wild``, a natural hand tied on the best strength beats the
    wild ones: if any tied hand is natural, only the natural ones remain."""
    if mask == 0:
        return np.int64(0)
    top = _seats_at(mask, high, _max_over(mask, high, high[_first(mask)]))
    if natural_beats_wild:
        naturals = np.int64(0)
        rest = top
        while rest != 0:
            s = _first(rest)
            rest &= rest - 1
            if high_natural[s]:
                naturals |= np.int64(1) << s
        if naturals != 0:
            top = naturals
    return top


@njit(cache=True, inline="always")
def _top_low(mask, low):
    """Seats of ``mask`` holding the best qualifying low (ties kept); empty
    when no seat of ``mask`` has a low (strength 0)."""
    best = _max_over(mask, low, np.int64(0))
    if best <= 0:
        return np.int64(0)
    return _seats_at(mask, low, best)


@njit(cache=True)
def _right_neighbour(active_mask, s, n):
    """First active seat to the right of ``s`` (s-1, s-2, ... mod n)."""
    for i in range(1, n + 1):
        r = (s - i) % n
        if _has(active_mask, r):
            return r
    return s


# ------------------------------------------------------------------ paying a split


@njit(cache=True)
def _order_key(s, dealer, n):
    """Position of seat ``s`` in clockwise order from the dealer's left
    (dealer+1 -> 0, ..., dealer -> n-1)."""
    return (s - dealer - 1) % n


@njit(cache=True)
def _precedes(a, b, use_suit, odd_cards, prefer_high, dealer, n):
    """Does seat ``a`` receive an odd chip before seat ``b``?"""
    if use_suit and odd_cards[a] != odd_cards[b]:
        if prefer_high:
            return odd_cards[a] > odd_cards[b]
        return odd_cards[a] < odd_cards[b]
    return _order_key(a, dealer, n) < _order_key(b, dealer, n)


@njit(cache=True, inline="always")
def _split(amount, frac, winners, pot, integer, use_suit, odd_cards, prefer_high,
           dealer, payout, share):
    """Share ``amount`` (the fraction ``frac`` of the pot) equally among
    ``winners``. In integer mode each winner gets ``floor(amount/k)`` chips and
    the ``amount mod k`` odd chips go one per winner in odd-chip order."""
    n = payout.shape[0]
    k = popcount(winners)
    if k == 0:
        return
    if integer:
        base = math.floor(amount / k)
        rest = winners
        while rest != 0:
            s = _first(rest)
            rest &= rest - 1
            payout[s] += base
            share[s] += base / pot if pot > 0.0 else frac / k
        rem = int(round(amount - base * k))
        given = np.int64(0)
        for _ in range(rem):
            pick = -1
            rest = winners & ~given
            while rest != 0:
                s = _first(rest)
                rest &= rest - 1
                if pick < 0 or _precedes(s, pick, use_suit, odd_cards, prefer_high, dealer, n):
                    pick = s
            given |= np.int64(1) << pick
            payout[pick] += 1.0
            if pot > 0.0:
                share[pick] += 1.0 / pot
    else:
        each = amount / k
        rest = winners
        while rest != 0:
            s = _first(rest)
            rest &= rest - 1
            payout[s] += each
            share[s] += frac / k


@njit(cache=True, inline="always")
def _divide(wh, wl, pot, integer, suit_high, suit_low, high_odd_card, low_odd_card,
            dealer, payout, high_share, low_share):
    """Steps 6-7: both sides won -> high half and low half; one side empty ->
    the other takes the whole pot. ``suit_high`` / ``suit_low``: the odd chips
    of that side follow the suit rule instead of position. One ``_split`` per
    side, written once: an empty side's split pays nobody (each copy of an inlined
    ``_split`` had made every game's machine code larger and slower to load)."""
    if wh != 0 and wl != 0:
        frac = 0.5
        if integer:
            low_amount = math.floor(pot / 2.0)
            high_amount = pot - low_amount
        else:
            low_amount = pot / 2.0
            high_amount = pot / 2.0
    else:
        frac = 1.0
        high_amount = pot
        low_amount = pot
    _split(high_amount, frac, wh, pot, integer, suit_high, high_odd_card, True, dealer,
           payout, high_share)
    _split(low_amount, frac, wl, pot, integer, suit_low, low_odd_card, False, dealer,
           payout, low_share)


# ------------------------------------------------------------------ settle


@njit(cache=True, inline="always")
def settle(active, high, low, declared, pot, dealer,
           split_mode, both_must_win_outright, all_failed_rule, chip_mode, odd_chip,
           natural_beats_wild, high_natural, high_odd_card, low_odd_card,
           payout, high_share, low_share):
    """Divide ``pot`` among the active seats (RULES.md §0.8); return the amount
    carried over to the next deal (0.0 unless ``carry_over`` applies).

    Inputs, one entry per seat (seats 0..n-1 clockwise, dealer ``dealer``):
    ``active`` bool; ``high`` and ``low`` int64 strengths, larger is better,
    ``low == 0`` meaning no (qualifying) low; ``declared`` DECLARE_* (read only
    in SPLIT_DECLARE); ``high_natural`` bool (the high hand uses no wild card,
    read only with ``natural_beats_wild``); ``high_odd_card`` / ``low_odd_card``
    card codes ``4*rank+suit`` (read only with ODD_CHIP_SUIT).
    Outputs, overwritten: ``payout`` (chips each seat takes from the pot),
    ``high_share`` / ``low_share`` (fraction of the pot taken from the high
    half / low half; when one side takes the whole pot its shares sum to 1).

    Split modes:

    * SPLIT_DECLARE: steps 1-8 of §0.8. HIGH and BOTH declarers compete for
      the high half, LOW and BOTH for the low half; a BOTH declarer survives
      only if at least as good as every high of HC and every low of LC (a tie
      fails with ``both_must_win_outright``; no low fails); failed BOTH
      declarers are removed and the rest compared again. A LOW declarer with
      no qualifying low cannot win the low half. A side nobody wins gives the
      whole pot to the other side. If neither side has a winner, every
      remaining declarer was a failed BOTH declarer: ``all_failed_rule``
      divides the pot cards-speak among them, or carries it over.
    * SPLIT_CARDS_SPEAK: every active seat counts as BOTH, no survival test:
      the best high takes the high half, the best low the low half; with no
      low anywhere the best high takes the whole pot.
    * SPLIT_HIGH_ONLY: the best high takes the pot; ties share.
    * SPLIT_HIGH_AND_RIGHT_NEIGHBOUR (Anaconda, pagat; RULES.md AN-A6): the
      best high (ties share) takes the high half, and the next ACTIVE seat to
      the right of each high winner (walking counter-clockwise s-1, s-2, ...,
      skipping folded seats) takes the low half. Several high winners: their
      right neighbours share the low half equally (they are distinct seats);
      a seat may be both a high winner and a neighbour. Low strengths and
      declarations are not read. The low half's odd chips always go in
      position order (the neighbours hold no winning low to compare suits).

    Chips: CHIPS_FRACTIONAL shares are real numbers, each half ``P/2``.
    CHIPS_INTEGER (``pot`` a whole number): the high half is ``P - floor(P/2)``
    and the low half ``floor(P/2)``; each half is divided equally in whole
    chips, and the leftover odd chips go one per winner, either clockwise
    from the dealer's left (ODD_CHIP_POSITION) or (ODD_CHIP_SUIT) to the
    highest ``high_odd_card`` first in a high split and the lowest
    ``low_odd_card`` first in a low split (equal codes fall back to position).

    Edge cases: a single active seat takes the whole pot (high_share 1); no
    active seat pays nobody and carries the whole pot. In declare mode, if
    nobody won either side and nobody failed as a BOTH declarer (every active
    seat declared LOW without a qualifying low), ``all_failed_rule`` applies
    to all active seats.
    """
    n = active.shape[0]
    for s in range(n):
        payout[s] = 0.0
        high_share[s] = 0.0
        low_share[s] = 0.0
    integer = chip_mode == CHIPS_INTEGER
    use_suit = odd_chip == ODD_CHIP_SUIT

    act = np.int64(0)
    for s in range(n):
        if active[s]:
            act |= np.int64(1) << s
    n_active = popcount(act)
    if n_active == 0:
        return pot
    if n_active == 1:
        s = _first(act)
        payout[s] = pot
        high_share[s] = 1.0
        return 0.0

    # Each mode finds the winners of each side; one ``_divide`` pays them (it is
    # inlined: one copy, not one per mode).
    suit_low = use_suit
    if split_mode != SPLIT_DECLARE:
        wh = _top_high(act, high, high_natural, natural_beats_wild)
        wl = np.int64(0)
        if split_mode == SPLIT_CARDS_SPEAK:
            wl = _top_low(act, low)
        elif split_mode == SPLIT_HIGH_AND_RIGHT_NEIGHBOUR:
            rest = wh
            while rest != 0:
                s = _first(rest)
                rest &= rest - 1
                wl |= np.int64(1) << _right_neighbour(act, s, n)
            suit_low = False  # the neighbours' half is split by position whatever odd_chip says
        elif split_mode != SPLIT_HIGH_ONLY:
            raise ValueError("settle: unknown split_mode")
    else:
        # Step 2: the contenders for each side.
        hc = np.int64(0)
        lc = np.int64(0)
        both = np.int64(0)
        rest = act
        while rest != 0:
            s = _first(rest)
            rest &= rest - 1
            d = declared[s]
            bit = np.int64(1) << s
            if d == DECLARE_HIGH or d == DECLARE_BOTH:
                hc |= bit
            if d == DECLARE_LOW or d == DECLARE_BOTH:
                lc |= bit
            if d == DECLARE_BOTH:
                both |= bit

        # Step 3: which BOTH declarers survive (other BOTH declarers included).
        top_h = _top_high(hc, high, high_natural, natural_beats_wild)
        top_l = _top_low(lc, low)
        failed = np.int64(0)
        rest = both
        while rest != 0:
            s = _first(rest)
            rest &= rest - 1
            bit = np.int64(1) << s
            if both_must_win_outright:
                ok = top_h == bit and top_l == bit
            else:
                ok = _has(top_h, s) and _has(top_l, s)  # top_l only holds qualifying lows
            if not ok:
                failed |= bit

        # Step 4-5: remove the failed BOTH declarers and compare again.
        hc &= ~failed
        lc &= ~failed
        wh = _top_high(hc, high, high_natural, natural_beats_wild)
        wl = _top_low(lc, low)

        # Step 8: nobody won either side.
        if wh == 0 and wl == 0:
            if all_failed_rule == ALL_FAILED_CARRY_OVER:
                return pot
            group = failed if failed != 0 else act
            wh = _top_high(group, high, high_natural, natural_beats_wild)
            wl = _top_low(group, low)
    _divide(wh, wl, pot, integer, use_suit, suit_low, high_odd_card, low_odd_card,
            dealer, payout, high_share, low_share)
    return 0.0


@njit(cache=True)
def nets(payout, antes):
    """Net result per seat: what the seat took from the pot minus what it put in."""
    out = np.empty(payout.shape[0], dtype=np.float64)
    for s in range(payout.shape[0]):
        out[s] = payout[s] - antes[s]
    return out
