"""Exact equity where the deal has no choice left: every completion of the unknown
cards, each equally likely, evaluated and the pot divided.

Built for Selection/Rejection from 7th street on (every up card taken) when the pot
is divided without declarations (``high_only`` or ``cards_speak``, fractional
chips, nothing carried in): the policies then have nothing left to decide, so the
answer is an average over the ways the unknown cards can lie. Up to
``MAX_COMPLETIONS`` completions are enumerated; more than that, or any other
state, is left to the Monte Carlo (``exact_equity`` returns None).
"""

from math import comb

import numpy as np

from kernels import showdown as S
from kernels.games import common as C
from kernels.games import selection_rejection as SR

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


def exact_equity(inp, st):
    """``(ways, share, p_high, p_low, p_scoop)`` per seat, or None (see the module
    docstring for when)."""
    rules = inp.rules
    if inp.variant.name != "selection_rejection" or st[C.B.phase] not in (SR.PH_SEVENTH, SR.PH_HANDS):
        return None
    split = int(rules[C.R_SPLIT_MODE])
    if split not in (S.SPLIT_HIGH_ONLY, S.SPLIT_CARDS_SPEAK) or int(rules[C.R_CHIP_MODE]) != S.CHIPS_FRACTIONAL:
        return None
    if st[C.P.carried_in] != 0 or inp.idata.shape[0] > 0:
        return None
    n = int(st[C.B.players])
    lay = SR.STATE
    known = []
    unknown_slots = {int(st[C.P.unknown_at + k]) for k in range(int(st[C.P.n_unknown]))}
    for s in range(n):
        cards = [int(c) for k, c in enumerate(lay.view(st, "hole")[s])
                 if c != SR.NO_CARD and lay.at.hole + SR.HOLE * s + k not in unknown_slots]
        cards += [int(c) for c in lay.view(st, "up")[s, :int(lay.view(st, "n_up")[s])]]
        known.append(cards)
    needs = [7 - len(k) for k in known]
    top, size = int(st[C.P.deck]), int(st[C.P.deck + 1])
    pool = sorted(int(c) for c in st[C.P.stock + top:C.P.stock + size])
    count, left = 1, len(pool)
    for k in needs:
        count *= comb(left, k)
        left -= k
    if count > MAX_COMPLETIONS or left < 0:
        return None
    ways = _completions(pool, needs)
    hands = np.empty((len(ways), n, 7), np.uint8)
    at = 0
    for s in range(n):
        hands[:, s, :len(known[s])] = known[s]
        hands[:, s, len(known[s]):] = ways[:, at:at + needs[s]]
        at += needs[s]
    flat = hands.reshape(-1, 7)
    high = evaluate_high(flat).reshape(len(ways), n)
    best_high = high == high.max(axis=1, keepdims=True)
    high_share = best_high / best_high.sum(axis=1, keepdims=True)
    if split == S.SPLIT_CARDS_SPEAK:
        low = evaluate_low(flat).reshape(len(ways), n).astype(np.int64)
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
