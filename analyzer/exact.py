"""Exact equity where the deal has no choice left: every completion of the unknown
cards, each equally likely, evaluated and the pot divided.

Built where the policies have nothing left to decide and the pot is divided
without declarations (``high_only`` or ``cards_speak``, fractional chips, nothing
carried in, no ``--condition``): the answer is then an average over the ways the
unknown cards can lie. Each game says when its deal is there and how its hands
are made (``HANDS``):

* Selection/Rejection from 7th street on (every up card taken): seven cards a seat;
* Do Ya once every up card is dealt: the four up cards and the hole card, wild
  (``wild_mode`` hole_card_only), or every card of its rank (``rank``);
* Train Wreck after the 7th-street card (only the showdown left): the best five of
  every card a seat holds (hole, table, extra and stolen cards, and a community
  card), however many the special pairs left it.

Up to ``MAX_COMPLETIONS`` completions are enumerated; more than that, or any other
state, is left to the Monte Carlo (``exact_equity`` returns None).
"""

from math import comb

import numpy as np

from kernels import showdown as S
from kernels.cards import NO_CARD, card_bit
from kernels.games import common as C

from .evaluate import evaluate_high, evaluate_low

MAX_COMPLETIONS = 2_000_000


def _completions(pool, needs):
    """Every way to give seat ``i`` ``needs[i]`` cards of ``pool`` (order within a
    seat not counted): an int array ``(ways, sum(needs))``, seat by seat."""
    from itertools import combinations

    pool = np.asarray(pool, np.int64)
    ways = np.zeros((1, 0), np.int64)
    rest = pool[None, :]
    for k in needs:
        if k == 0:
            continue
        picks = np.array(list(combinations(range(rest.shape[1]), k)), np.int64)  # positions in what is left
        chosen = rest[:, picks]  # (ways, picks, k)
        keep = np.ones((len(picks), rest.shape[1]), bool)
        keep[np.arange(len(picks))[:, None], picks] = False
        left = np.broadcast_to(rest[:, None, :], (rest.shape[0], len(picks), rest.shape[1]))[:, keep]
        left = left.reshape(rest.shape[0] * len(picks), rest.shape[1] - k)
        ways = np.concatenate([np.repeat(ways, len(picks), axis=0), chosen.reshape(-1, k)], axis=1)
        rest = left
    return ways


def _unknown_slots(st):
    return {int(st[C.P.unknown_at + k]) for k in range(int(st[C.P.n_unknown]))}


def _sr_hands(inp, st):
    """Selection/Rejection from 7th street: ``(known cards a seat, cards a hand,
    strengths)``, or None before it. ``strengths(hands, with_low)`` maps hands (rows
    of codes, seat by seat, each seat's known cards first) to their high strengths
    and (``with_low``) their low strengths."""
    from kernels.games import selection_rejection as SR  # imported with its game (see analyzer.table)

    if st[C.B.phase] not in (SR.PH_SEVENTH, SR.PH_HANDS):
        return None
    lay = SR.STATE
    unknown = _unknown_slots(st)
    known = []
    for s in range(int(st[C.B.players])):
        cards = [int(c) for k, c in enumerate(lay.view(st, "hole")[s])
                 if c != SR.NO_CARD and lay.at.hole + SR.HOLE * s + k not in unknown]
        cards += [int(c) for c in lay.view(st, "up")[s, :int(lay.view(st, "n_up")[s])]]
        known.append(cards)

    def strengths(flat, with_low):
        return evaluate_high(flat), evaluate_low(flat) if with_low else None

    return known, SR.HOLE + SR.UP, strengths


def _dy_hands(inp, st):
    """Do Ya once every up card is dealt (as ``_sr_hands``): a seat's hole card
    first when it is known, else last (dealt from the unseen cards)."""
    from kernels.games import do_ya as DY  # imported with its game (see analyzer.table)

    rules = inp.rules
    if not (st[C.B.phase] == DY.PH_HANDS or (st[C.B.phase] == DY.PH_ROUND and st[DY.S.round] >= DY.UP)):
        return None
    lay = DY.STATE
    unknown = _unknown_slots(st)
    n = int(st[C.B.players])
    known, hole_at = [], []
    for s in range(n):
        hole = int(lay.view(st, "hole")[s, 0])
        up = [int(c) for c in lay.view(st, "up")[s, :int(lay.view(st, "n_up")[s])]]
        if len(up) != DY.UP:
            return None
        if lay.at.hole + DY.HOLE * s in unknown or hole == DY.NO_CARD:
            known.append(up)
            hole_at.append(DY.UP)
        else:
            known.append([hole] + up)
            hole_at.append(0)
    rank_wild = int(rules[DY.R_WILD_MODE]) == DY.WILD_RANK
    five_kind = int(rules[DY.R_FIVE_KIND])
    duplicate = bool(rules[DY.R_WILD_DUPLICATE] > 0)

    def strengths(flat, with_low):
        hands = flat.reshape(-1, n, DY.HOLE + DY.UP)
        holes = hands[:, np.arange(n), hole_at]  # (ways, seats)
        if rank_wild:  # every card of the hole card's rank (DY-A2)
            wild = (hands >> 2) == (holes >> 2)[:, :, None]
        else:
            wild = np.zeros(hands.shape, bool)
            wild[:, np.arange(n), hole_at] = True
        wild = wild.reshape(flat.shape)
        return (evaluate_high(flat, wild=wild, five_kind=five_kind, wild_may_duplicate=duplicate),
                evaluate_low(flat, wild=wild) if with_low else None)

    return known, DY.HOLE + DY.UP, strengths


def _tw_hands(inp, st):
    """Train Wreck after the 7th-street card (as ``_sr_hands``, but a seat holds as
    many cards as the special pairs left it: one hand size a seat)."""
    from kernels.games import train_wreck as TW  # imported with its game (see analyzer.table)

    if st[C.B.phase] != TW.PH_HANDS:
        return None
    at = TW.S
    n = int(st[C.B.players])
    unknown_into = [int(st[C.P.unknown_mask + k]) for k in range(int(st[C.P.n_unknown]))]
    community = int(st[at.community])
    known, sizes = [], []
    for s in range(n):
        held = int(st[at.hole_mask + s]) | int(st[at.table + s]) | int(st[at.extra + s]) | int(st[at.stolen + s])
        cards = [c for c in range(52) if int(card_bit(c)) & (held | community)]
        known.append(cards)
        sizes.append(len(cards) + unknown_into.count(at.hole_mask + s))
    if sum(sizes) - sum(map(len, known)) != len(unknown_into) or min(sizes) < 1:
        return None  # an unknown card not a hole card, or a seat with no card at all: left to the Monte Carlo

    def strengths(flat, with_low):
        return evaluate_high(flat), None

    return known, sizes, strengths


# Each game's hands at a state with no choice left (None: not there yet): ``(known
# cards a seat, cards a hand (one size, or one a seat), strengths)``.
HANDS = {"selection_rejection": _sr_hands, "do_ya": _dy_hands, "train_wreck": _tw_hands}


def exact_equity(inp, st):
    """``(ways, share, p_high, p_low, p_scoop)`` per seat, or None (see the module
    docstring for when)."""
    rules = inp.rules
    hands_of = HANDS.get(inp.variant.name)
    if hands_of is None:
        return None
    split = int(rules[C.R_SPLIT_MODE])
    if split not in (S.SPLIT_HIGH_ONLY, S.SPLIT_CARDS_SPEAK) or int(rules[C.R_CHIP_MODE]) != S.CHIPS_FRACTIONAL:
        return None
    n = int(st[C.B.players])
    if st[C.P.carried_in] != 0 or inp.idata.shape[0] > 0 or not all(st[C.P.active + s] for s in range(n)):
        return None
    made = hands_of(inp, st)
    if made is None:
        return None
    known, size, strengths = made
    sizes = [size] * n if isinstance(size, int) else list(size)
    needs = [z - len(k) for z, k in zip(sizes, known)]
    top, stock_end = int(st[C.P.deck]), int(st[C.P.deck + 1])
    pool = sorted(int(c) for c in st[C.P.stock + top:C.P.stock + stock_end])
    count, left = 1, len(pool)
    for k in needs:
        count *= comb(left, k)
        left -= k
    if count > MAX_COMPLETIONS or left < 0:
        return None
    ways = _completions(pool, needs)
    width = max(sizes)
    hands = np.full((len(ways), n, width), NO_CARD, np.uint8)  # a shorter hand is padded
    at = 0
    for s in range(n):
        hands[:, s, :len(known[s])] = known[s]
        hands[:, s, len(known[s]):sizes[s]] = ways[:, at:at + needs[s]]
        at += needs[s]
    flat = hands.reshape(-1, width)
    high, low = strengths(flat, split == S.SPLIT_CARDS_SPEAK)
    high = high.reshape(len(ways), n)
    best_high = high == high.max(axis=1, keepdims=True)
    high_share = best_high / best_high.sum(axis=1, keepdims=True)
    if split == S.SPLIT_CARDS_SPEAK:
        low = low.reshape(len(ways), n).astype(np.int64)
        low = np.where(low >= int(rules[C.R_LOW_QUALIFIER]), low, 0)
        has_low = low.max(axis=1) > 0
        best_low = (low == low.max(axis=1, keepdims=True)) & has_low[:, None]
        low_share = np.where(has_low[:, None], best_low / np.maximum(best_low.sum(axis=1, keepdims=True), 1), 0.0)
        share = np.where(has_low[:, None], 0.5 * high_share + 0.5 * low_share, high_share)
        p_low = (low_share > 0).mean(axis=0)
        wins_high = high_share > 0
    else:
        share = high_share
        p_low = np.zeros(n)
        wins_high = high_share > 0
    return len(ways), share.mean(axis=0), wins_high.mean(axis=0), p_low, np.isclose(share, 1.0).mean(axis=0)
