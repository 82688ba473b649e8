"""Selection (RulesPal), RULES.md §5: slot scoring worked by hand, the Low/High rule,
scratches and the opening rule on stacked decks, stock exhaustion, three-draw rounds,
card conservation, determinism, an exact probability, the board file and the CLI."""

import itertools
import json
import subprocess
import sys
from collections import Counter
from math import comb, sqrt

import numpy as np
import pandas as pd
import pytest

from analyzer import engine
from analyzer.errors import WantitError
from analyzer.selection import (
    SELECTION,
    play_game,
    result_arrays,
    score_hand,
    selection_inputs,
    simulate_selection,
)
from analyzer.selection_config import (
    KINDS,
    PROVISIONAL_BOARD,
    BoardError,
    board_to_toml,
    card_points,
    colours_deck,
    load_board,
    parse_deck,
    standard52,
)
from kernels.games import selection as G
from kernels.games import selection_hands as H

SLOT = {s.id: k for k, s in enumerate(PROVISIONAL_BOARD.slots)}
COLOURS5 = colours_deck()  # colours(5, 1-10/J/Q/K/A, 1): 70 cards


def points(text, **kw):
    """{slot id: (points, used cards)} of a 7-card hand on the provisional board."""
    df = score_hand(text, **kw)
    return {r.id: (r.points, r.cards) for r in df.itertuples()}


# ---------------------------------------------------------------- card points and slots, by hand


def test_card_points_are_the_seed_table():
    # §5.2.9: 10 base + pip value; faces + 10; aces + 15.
    assert [card_points(r) for r in range(1, 15)] == [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 20, 20, 20, 25]


def test_cosmopolitan_four_suit_fallback_by_hand():
    # Best card of each suit (As 25, Kh 20, Qd 20, 5c 15) plus the best other card (4c 14).
    p = points("As Kh Qd 2c 3c 4c 5c")
    assert p["cosmopolitan"] == (94, "As Kh Qd 4c 5c")
    assert points("As Ks Qh Jh 2d 3d 4d")["cosmopolitan"][0] == 0  # no club


def test_cosmopolitan_five_colours_by_hand():
    # colours deck: one card of each of five colours, the best of each.
    p = points("Ar Kb Qg 2y 3k 4r 5r", deck=COLOURS5)
    assert p["cosmopolitan"] == (25 + 20 + 20 + 12 + 13, "Ar Kb Qg 2y 3k")
    assert points("Ar Kb Qg 2y 4r 5r 6r", deck=COLOURS5)["cosmopolitan"][0] == 0  # no black


def test_rank_group_slots_by_hand():
    p = points("As Ad Kh Kd 2c 2d 7h")
    assert p["p_pair"] == (50, "As Ad")  # the two paired cards only (§5.4)
    assert p["p_two_pair"] == (90, "As Ad Kh Kd")
    assert p["p_three_kind"][0] == 0
    q = points("9s 9h 9d 5c 5d 5h Ac")
    assert q["p_three_kind"][0] == 57  # 9-9-9 beats 5-5-5
    assert q["p_full_house"][0] == 3 * 19 + 2 * 15  # 9s full of 5s (87) beats 5s full of 9s (83)
    assert points("7s 7h 7d 7c Ah Ad 2c")["p_four_kind"] == (68, "7s 7h 7d 7c")


def test_used_all_scores_the_best_kickers_too():
    from analyzer.selection_config import Board, Slot

    slots = list(PROVISIONAL_BOARD.slots)
    slots[3] = Slot("pair_plus", "pair", used="all")
    slots[4] = Slot("two_pair_plus", "two_pair", used="all")
    board = Board("kickers", tuple(slots), False)
    p = {r.id: r.points for r in score_hand("As Ad Kh Kd 2c 2d 7h", board=board).itertuples()}
    assert p["pair_plus"] == 50 + 20 + 20 + 17  # A A plus K K 7
    assert p["two_pair_plus"] == 50 + 40 + 17


def test_straights_and_flushes_by_hand():
    assert points("As 2d 3c 4h 5s Kd Qc")["p_straight"][0] == 25 + 12 + 13 + 14 + 15  # ace low
    assert points("Ts Jd Qc Kh As 2d 3c")["p_straight"][0] == 105
    # A-5 (79 points: the ace scores 25) beats 2-6 (70): the slot keeps the best score.
    assert points("As 2d 3c 4h 5s 6d Kc")["p_straight"][0] == 79
    assert points("As Ks 9s 5s 3s 2s Qh")["p_flush"] == (92, "As Ks 9s 5s 3s")
    assert points("5h 6h 7h 8h 9h Th 2c")["p_straight_flush"][0] == 16 + 17 + 18 + 19 + 20
    assert points("5h 6h 7h 8h 9d Th 2c")["p_straight_flush"][0] == 0
    # A deck with a 1: 1-2-3-4-5 is a straight, the ace is only high.
    assert points("1r 2b 3g 4y 5k Ar Kb", deck=COLOURS5)["p_straight"][0] == 65
    assert points("Ar 2b 3g 4y 5k 9r 9b", deck=COLOURS5)["p_straight"][0] == 0


def test_low_and_high_numerical_cards_only_and_fewer_than_five():
    p = points("Ts 9h 8d 7c 6s As Kd", policy="heuristic:low_cap=125")
    assert p["high"] == (90, "Ts 9h 8d 7c 6s")  # the ace and king may not be used
    assert p["low"][0] == 90
    # High written at 85: Low must score below it; five cards make 90, so four (74).
    assert points("Ts 9h 8d 7c 6s As Kd", filled={"high": 85})["low"] == (74, "Ts 9h 8d 7c")
    # Low written at 74: High must beat it.
    assert points("Ts 9h 8d 7c 6s As Kd", filled={"low": 74})["high"][0] == 90
    assert points("5s 4h 3d 2c Kd Qd Ad", filled={"low": 74})["high"][0] == 0  # 54 does not beat 74
    # One numerical card is a Low / High (SE-A11 default 1); with 2 required it is not.
    assert points("9h As Kd Qd Jd Ac Ks")["high"][0] == 19
    assert points("9h As Kd Qd Jd Ac Ks", rules={"low_high_min_cards": 2})["high"][0] == 0


def test_low_high_zero_entries_and_the_strict_option():
    hand = "Ts 9h 8d 7c 6s As Kd"
    # SE-A4 default: a scratched (0) High puts no bound on Low.
    assert points(hand, filled={"high": 0}, policy="heuristic:low_cap=125")["low"][0] == 90
    assert points(hand, filled={"high": 0}, rules={"low_high_strict_with_zero": True})["low"][0] == 0
    assert points(hand, filled={"low": 0})["high"][0] == 90


def test_low_filled_before_high_keeps_under_the_policy_cap():
    # High open: the policy's low_cap (default 80) bounds the Low; 74 is the best fit.
    assert points("Ts 9h 8d 7c 6s As Kd")["low"][0] == 74
    assert points("Ts 9h 8d 7c 6s As Kd", policy="heuristic:low_cap=40")["low"][0] == 39  # 20 + 19


def test_ace_as_numerical_one():
    hand = "As 2c 3d Kd Qd Jd 9h"
    assert points(hand)["high"][0] == 12 + 13 + 19
    assert points(hand, rules={"ace_is_numerical_one": True})["high"][0] == 11 + 12 + 13 + 19


# ---------------------------------------------------------------- an independent oracle


def _satisfies(kind, used_all, u, deck, ace_one=False):
    """Whether the cards ``u`` (at most five) make a slot of ``kind``, literally."""
    size = len(u)
    ranks = [deck.cards[c][0] for c in u]
    cols = [deck.cards[c][1] for c in u]
    rc = Counter(ranks)
    if kind in ("low", "high"):
        return all(r <= 10 or (ace_one and r == 14) for r in ranks)
    if kind in ("pair", "three_of_a_kind", "four_of_a_kind"):
        c = {"pair": 2, "three_of_a_kind": 3, "four_of_a_kind": 4}[kind]
        return max(rc.values()) >= c if used_all else (size == c and len(rc) == 1)
    if kind in ("two_pair", "full_house"):
        ca, cb = (2, 2) if kind == "two_pair" else (3, 2)
        ok = any(rc[a] >= ca and rc[b] >= cb for a in rc for b in rc if a != b)
        return ok and (size == ca + cb or (used_all and kind == "two_pair"))
    if kind in ("straight", "straight_flush") and size == 5 and len(rc) == 5:
        rs = sorted(ranks)
        ok = rs[4] - rs[0] == 4 or (deck.ace_low and rs == [2, 3, 4, 5, 14])
        return ok and (kind == "straight" or len(set(cols)) == 1)
    if kind == "flush":
        return size == 5 and len(set(cols)) == 1
    if kind == "cosmopolitan":
        return size == 5 and len(set(cols)) >= min(5, deck.n_colours)
    return False


def _oracle(kind, used_all, cards, deck):
    """Literal enumeration of every subset of at most five of the cards."""
    best = 0
    for size in range(1, 6):
        for u in itertools.combinations(cards, size):
            if _satisfies(kind, used_all, u, deck):
                best = max(best, sum(card_points(deck.cards[c][0]) for c in u))
    return best


@pytest.mark.parametrize("deck", [standard52(), COLOURS5, colours_deck(4, "2-10,J,Q,K,A", 2)],
                         ids=lambda d: d.name)
def test_best_fill_equals_enumerating_every_subset(deck):
    """The kernel counts; the oracle enumerates all C(7, <=5) = 120 subsets."""
    rng = np.random.default_rng(11)
    m, prof = deck.matrix(), deck.profile()
    for _ in range(40):
        hand = rng.choice(deck.size, 7, replace=False).astype(np.int64)
        for kind, code in KINDS.items():
            for used_all in (False, True):
                s, mask = H.slot_score(code, int(used_all), hand, m, prof, False, 1, 0, H.NO_BOUND, True)
                assert s == _oracle(kind, used_all, list(hand), deck), (kind, used_all, deck.format(hand))
                used = [hand[j] for j in range(7) if mask >> j & 1]
                assert len(used) <= 5 and sum(card_points(deck.cards[c][0]) for c in used) == s


def test_the_sorting_network_sorts_every_input():
    """``sort7_descending`` (16 comparators): every 0/1 input (enough for any input,
    by the 0-1 principle) and random inputs full of ties come out as ``sorted``."""
    for bits in itertools.product((0, 1), repeat=7):
        assert list(H.sort7_descending(*bits)) == sorted(bits, reverse=True)
    rng = np.random.default_rng(12)
    for row in rng.integers(0, 5, (2000, 7)).tolist():
        assert list(H.sort7_descending(*row)) == sorted(row, reverse=True)


def test_top_points_takes_the_k_highest_cards_the_earlier_of_equal_ones_first():
    """Against the definition written out: the cards outside ``exclude`` (of
    ``colour`` when it is >= 0), by points, the earlier position first; the first k."""
    rng = np.random.default_rng(13)
    for _ in range(3000):
        x = np.zeros(H.CTX_SIZE, np.int64)
        points = rng.choice([12, 12, 15, 20, 20, 25], 7)
        colours = rng.integers(0, 3, 7)
        x[H.X_POINTS:H.X_POINTS + 7] = points
        x[H.X_COLOUR:H.X_COLOUR + 7] = colours
        exclude, k, colour = int(rng.integers(0, 128)), int(rng.integers(0, 6)), int(rng.integers(-1, 3))
        order = sorted((i for i in range(7) if not exclude >> i & 1 and (colour < 0 or colours[i] == colour)),
                       key=lambda i: (-points[i], i))[:k]
        want = (sum(int(points[i]) for i in order), sum(1 << i for i in order))
        assert H.top_points(x, exclude, k, colour) == want


def test_the_low_high_aim_keeps_the_good_cards_by_points_within_the_cap():
    """``aim_low_high``'s kept cards against its rule written out: the cards worth at
    least ``keep_min`` in Low / High, most points first (the earlier of equal ones),
    each kept while the sum stays within ``hi``, at most five."""
    rng = np.random.default_rng(14)
    sp = np.zeros(G.SP_WIDTH)
    sp[G.SP_AUX + G.A_GOOD_TOTAL], sp[G.SP_AUX + G.A_GOOD_MEAN] = 20, 16.0
    for _ in range(3000):
        x = np.zeros(H.CTX_SIZE, np.int64)
        values = rng.choice([0, 0, 11, 12, 14, 16, 16, 18, 20], 7)
        x[H.X_LH:H.X_LH + 7] = values
        keep_min = float(rng.choice([11, 15, 16.5, 19]))
        sp[G.SP_POLICY + G.P_KEEP_MIN] = keep_min
        hi = int(rng.choice([H.NO_BOUND, 80, 55, 30]))
        good = sorted((i for i in range(7) if values[i] > 0 and values[i] >= keep_min), key=lambda i: (-values[i], i))
        total, mask, kept = 0, 0, 0
        for i in good:
            if kept == 5:
                break
            if total + values[i] <= hi:
                total, mask, kept = total + int(values[i]), mask | 1 << i, kept + 1
        assert G.aim_low_high(x, sp, 0, hi, 2, 45)[1] == mask


# ---------------------------------------------------------------- games on stacked decks

# Seven-card hands for one stand-pat player (the hand is the first 7 cards of the round).
FOUR_SUITS = "As Kh Qd Jc 9s 8h 2d"  # Cosmopolitan: 25 + 20 + 20 + 20 + 19 = 104
NO_CLUBS = ["As Ad Ah Ks Kd 2s 3d", "Ts Jh Qd Kh 9s 8h 2d", "2s 3h 4d 5s 6h 7d 8s", "9h 9d 9s 4h 4d 4s 3h",
            "Td Th Ts 7d 7h 7s 5d", "Jd Jh Js 6d 6h 6s 2h", "Qd Qh Qs 8d 8h 8s 3s", "Kd Kh Ks 5h 5s 2d 3d",
            "Ad Ah As 4d 4h 3s 2h", "2d 2h 2s 3d 3h 3s 4d", "5d 5h 5s 6d 6h 6s 7h"]


def _events(g, kinds):
    return [tuple(int(v) for v in e) for e in g.events if e[0] in kinds]


def test_the_opening_rule_scratches_another_slot_until_cosmopolitan_is_made():
    # Round 1: a full house but no club; it may not be written (only Cosmopolitan can
    # take points), so a slot other than Cosmopolitan is scratched: the one of least
    # par, the straight flush. Round 2 makes the opening.
    g = play_game(players=1, policies="stand_pat", stacked=[NO_CLUBS[0], FOUR_SUITS] + NO_CLUBS[2:], first_dealer=0)
    fills = _events(g, (G.EV_SEL_FILL, G.EV_SEL_SCRATCH))
    assert fills[0] == (G.EV_SEL_SCRATCH, 0, -1, SLOT["p_straight_flush"], 0)
    assert fills[1] == (G.EV_SEL_FILL, 0, -1, SLOT["cosmopolitan"], 104)
    assert g.open_round[0] == 2
    assert _events(g, (G.EV_SEL_OPENED,)) == [(G.EV_SEL_OPENED, 0, -1, 2, 0)]


def test_an_opening_never_made_scores_zero_as_the_last_slot():
    # SE-A10: eleven rounds without a club: ten other slots are scratched, then
    # Cosmopolitan itself gets 0 in round 11.
    g = play_game(players=1, policies="stand_pat", stacked=NO_CLUBS, first_dealer=0)
    scratches = _events(g, (G.EV_SEL_SCRATCH,))
    assert len(scratches) == 11 and not _events(g, (G.EV_SEL_FILL,))
    assert scratches[-1][3] == SLOT["cosmopolitan"]
    assert g.total[0] == 0 and g.open_round[0] == 0 and g.scratched[0].all()


def test_after_the_opening_a_slot_is_scratched_only_when_none_can_be_filled():
    # Round 2 "2s Kd Qc Jh 9d 7c 5h": only Low / High (and nothing else) can be
    # filled, so by default the player must fill one (SE-A5); the policy prefers
    # Low (63 under the cap, against its par) to High.
    rows = [FOUR_SUITS, "2s Kd Qc Jh 9d 7c 5h"]
    g = play_game(players=1, policies="stand_pat", stacked=rows, first_dealer=0)
    second = _events(g, (G.EV_SEL_FILL, G.EV_SEL_SCRATCH))[1]
    assert second[0] == G.EV_SEL_FILL and second[3] in (SLOT["low"], SLOT["high"]) and second[4] == 63
    # With voluntary scratches, writing 0 in the straight flush (par about 2) costs
    # less than 63 points in a slot whose par is about 75-90.
    g = play_game(players=1, policies="stand_pat", stacked=rows, first_dealer=0,
                  rules={"allow_voluntary_scratch": True})
    assert _events(g, (G.EV_SEL_FILL, G.EV_SEL_SCRATCH))[1] == (G.EV_SEL_SCRATCH, 0, -1,
                                                                 SLOT["p_straight_flush"], 1)


def test_low_then_high_in_a_game_respects_high_above_low():
    for seed in range(6):
        g = play_game(players=2, seed=seed, rules={"ace_is_numerical_one": seed % 2 == 1})
        low, high = g.score[:, SLOT["low"]], g.score[:, SLOT["high"]]
        for lo, hi in zip(low, high):
            assert lo == 0 or hi == 0 or hi > lo


def test_declared_target_is_the_only_slot_that_can_take_points():
    g = play_game(players=3, seed=4, rules={"declare_target_before_draws": True})
    targets = _events(g, (G.EV_SEL_TARGET,))
    results = _events(g, (G.EV_SEL_FILL, G.EV_SEL_SCRATCH))
    assert len(targets) == len(results) == 33
    by_seat = {}
    for t in targets:
        by_seat.setdefault(t[1], []).append(t[3])
    for r in results:
        target = by_seat[r[1]].pop(0)
        if r[0] == G.EV_SEL_FILL:
            assert r[3] == target


def test_rounds_ten_and_eleven_have_three_draws():
    g = play_game(players=2, seed=3)
    draws = {}
    rnd = 0
    for kind, seat, _, a, b in _events(g, (G.EV_SEL_ROUND, G.EV_SEL_AIM)):
        if kind == G.EV_SEL_ROUND:
            rnd = a
            assert b == (3 if a >= 10 else 2)
        else:
            draws[(rnd, seat)] = max(draws.get((rnd, seat), 0), a)
    assert all(draws[(r, s)] == (3 if r >= 10 else 2) for r in range(1, 12) for s in range(2))


def _check_conservation(g, carry=False):
    """Rebuild hands, discards and stock from the events: every card is in exactly
    one place; a card dealt comes from the stock; a reshuffle happens only on an
    empty stock and moves exactly the discards (in order, when not shuffled)."""
    everything = set(range(g.deck.size))
    hands = [[] for _ in range(g.players)]
    discards, stock, order = [], set(), None
    reshuffles = 0
    for kind, seat, card, a, b in (tuple(int(v) for v in e) for e in g.events):
        if kind == G.EV_SEL_ROUND and (a == 1 or not carry):
            hands = [[] for _ in range(g.players)]
            discards, stock, order = [], set(everything), None
        elif kind in (G.EV_SEL_DEAL, G.EV_SEL_DRAWN):
            assert card in stock
            if order is not None:
                assert card == order.pop(0)
            stock.remove(card)
            hands[seat].append(card)
        elif kind == G.EV_SEL_DISCARD:
            hands[seat].remove(card)
            discards.append(card)
        elif kind == G.EV_SEL_RESHUFFLE:
            assert not stock and a == len(discards)
            stock, order = set(discards), (list(discards) if b == 0 else None)
            discards = []
            reshuffles += 1
        elif kind == G.EV_SEL_AIM:
            assert len(hands[seat]) == 7
        elif kind == G.EV_SEL_USED:
            assert card in hands[seat]
        assert not _overlap(hands, discards, stock)
        assert sorted(sum(hands, []) + discards + list(stock)) == sorted(everything)
    assert not _events(g, (G.EV_SEL_NO_CARD,))
    return reshuffles


def _overlap(hands, discards, stock):
    seen = Counter(sum(hands, []) + discards + list(stock))
    return [c for c, k in seen.items() if k > 1]


@pytest.mark.parametrize("players,rules,deck", [
    (1, {}, None),
    (4, {}, None),
    (6, {}, None),
    (6, {"reshuffle": "in_order"}, None),
    (5, {"carry_hand": True}, None),
    (6, {"carry_hand": True, "reshuffle": "in_order"}, "colours(5, 2-10/J/Q/K/A, 1)"),
])
def test_cards_are_conserved_across_draws_and_reshuffles(players, rules, deck):
    total = 0
    for seed in range(3):
        g = play_game(players=players, seed=seed, rules=rules, deck=deck)
        reshuffles = _check_conservation(g, carry=rules.get("carry_hand", False))
        assert reshuffles == g.reshuffles
        total += reshuffles
    if players == 6:
        assert total > 0  # 42 cards held, 10 in the stock: the stock runs out


def test_stock_exhaustion_on_a_stacked_deck():
    # Six players hold 42 cards; the 10-card stock runs out in the first draw and the
    # discards (stacked rounds reshuffle in discard order) become the stock.
    g = play_game(players=6, seed=0, stacked=[[]] * 11, first_dealer=5)
    first = next(i for i, e in enumerate(g.events) if e[0] == G.EV_SEL_RESHUFFLE)
    drawn_before = sum(1 for e in g.events[:first] if e[0] == G.EV_SEL_DRAWN)
    assert drawn_before == 10
    assert _check_conservation(g) >= 11


# ---------------------------------------------------------------- the driver


def test_determinism_across_threads_and_chunks():
    import numba

    runs = []
    for threads, chunk in ((1, 7), (numba.config.NUMBA_NUM_THREADS, 1000), (1, 1000)):
        runs.append(simulate_selection(players=2, games=300, seed=5, threads=threads, chunk=chunk))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for r in runs[1:]:
        for name in ("seats", "totals", "slots", "opening"):
            pd.testing.assert_frame_equal(getattr(runs[0], name), getattr(r, name))


def test_a_simulated_game_is_the_traced_game():
    inp = selection_inputs(players=3)
    count = 40
    out = engine.play_batch(inp, engine.new_state(inp, dealer=0), 8, 0, count, True)
    score, scratched, open_round, total, _ = result_arrays(out, 3, 11)
    for i in (0, 13, 39):
        g = play_game(players=3, seed=8, game=i)
        assert g.total.tolist() == total[i].tolist()
        assert g.score.tolist() == score[i].tolist()


def _all_suits_probability():
    """P(7 cards from 52 show all four suits), by inclusion-exclusion."""
    missing = sum((-1) ** (j + 1) * comb(4, j) * comb(52 - 13 * j, 7) for j in range(1, 4))
    return 1 - missing / comb(52, 7)


def _five_colours_probability():
    """P(7 cards from colours(5, 1-10/J/Q/K/A) show all five colours)."""
    return sum((-1) ** j * comb(5, j) * comb(70 - 14 * j, 7) for j in range(6)) / comb(70, 7)


@pytest.mark.parametrize("deck,exact", [("standard52", _all_suits_probability()),
                                        ("colours", _five_colours_probability())])
def test_cosmopolitan_in_the_first_seven_cards_matches_the_exact_probability(deck, exact):
    """Standing pat, round 1 makes the opening exactly when the first 7 cards hold a
    Cosmopolitan: all four suits among 5 of them (standard52 fallback; that is all
    four suits among the 7) or five colours. |z| <= 4.5: the false-failure rate of
    each check is below 7e-6 (two-sided normal tail)."""
    if deck == "standard52":
        assert abs(exact - (1 - 57_583_812 / 133_784_560)) < 1e-15  # 0.56958...
    games = 30_000
    r = simulate_selection(players=1, games=games, seed=2024, policies="stand_pat", deck=deck)
    p = r.seats.p_opening_round_1[0]
    z = (p - exact) / sqrt(exact * (1 - exact) / games)
    assert abs(z) <= 4.5, f"opening in round 1: {p:.4f} vs exact {exact:.4f}, z = {z:.2f}"


def test_result_frames():
    r = simulate_selection(players=3, games=400, seed=1, policies={"all": "heuristic", 2: "stand_pat"})
    assert list(r.seats.policy) == ["heuristic", "heuristic", "stand_pat"]
    assert abs(r.seats.p_win.sum() - 1) < 1e-12
    assert (r.seats.board == "PROVISIONAL").all() and r.meta["board_provisional"]
    for s in range(3):
        t = r.totals[r.totals.seat == s]
        assert abs(t.probability.sum() - 1) < 1e-12
        assert abs((t.total * t.probability).sum() - r.seats.mean_total[s]) < 1e-9
        assert abs(r.slots[r.slots.seat == s].mean_score.sum() - r.seats.mean_total[s]) < 1e-9
        assert abs(r.opening[r.opening.seat == s].probability.sum() - 1) < 1e-12
    # Drawing beats standing pat by a wide margin.
    assert r.seats.mean_total[0] > r.seats.mean_total[2] + 150
    rec = r.to_json_records()[0]
    assert {"p_win", "p_win_se", "mean_total", "total_se", "slots", "opening_rounds", "totals"} <= set(rec)
    assert set(rec["slots"]) == set(SLOT)


def test_interrupt_and_checkpoint(tmp_path):
    def stop_at(n):
        def progress(done, total):
            if done == n:
                raise KeyboardInterrupt
        return progress

    part = simulate_selection(players=2, games=300, seed=3, chunk=100, progress=stop_at(200))
    assert part.meta["interrupted"] and part.meta["games"] == 200
    pd.testing.assert_frame_equal(part.seats, simulate_selection(players=2, games=200, seed=3).seats)
    path = tmp_path / "sel.json"
    simulate_selection(players=2, games=300, seed=3, chunk=100, checkpoint=path, progress=stop_at(100))
    assert json.loads(path.read_text())["totals"]["games"] == 100
    resumed = simulate_selection(players=2, games=300, seed=3, chunk=100, checkpoint=path)
    pd.testing.assert_frame_equal(resumed.seats, simulate_selection(players=2, games=300, seed=3).seats)
    with pytest.raises(WantitError, match="other settings"):
        simulate_selection(players=2, games=300, seed=4, chunk=100, checkpoint=path)


def test_games_reported_at_an_interrupt_inside_a_chunk_are_checkpointed(tmp_path, monkeypatch):
    """A chunk plays its games in batches: Ctrl-C after the first batch reported its
    games, but the checkpoint (saved after whole chunks) had none, and a rerun
    started again from game 0."""
    import analyzer.selection as sel

    real, calls = sel.engine.play_batch, []

    def interrupt_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(sel, "BATCH", 40)
    monkeypatch.setattr(sel.engine, "play_batch", interrupt_second)
    path = tmp_path / "sel.json"
    part = simulate_selection(players=2, games=300, seed=3, chunk=100, checkpoint=path)
    assert part.meta["interrupted"] and part.meta["games"] == 40
    assert json.loads(path.read_text())["totals"]["games"] == 40
    monkeypatch.setattr(sel.engine, "play_batch", real)
    resumed = simulate_selection(players=2, games=300, seed=3, chunk=100, checkpoint=path)
    pd.testing.assert_frame_equal(resumed.seats, simulate_selection(players=2, games=300, seed=3).seats)


def test_a_players_first_decision_depends_only_on_its_own_cards():
    """Seat 0 acts first (dealer seat 1): changing seat 1's cards does not change
    seat 0's first keep decision."""
    base = "As 2s 7h 9d Kc Qh 3s"  # dealt alternately from the dealer's left: seat 0 first
    other_a = "4c 5c 6c 8c Tc Jc Ac"
    other_b = "Th Jh Ah 2h 4h 5h 6h"

    def deal(other):
        cards = [c for pair in zip(base.split(), other.split()) for c in pair]
        g = play_game(players=2, stacked=" ".join(cards), first_dealer=1)
        first = next(i for i, e in enumerate(g.events) if e[0] == G.EV_SEL_AIM)
        assert g.events[first][1] == 0
        upto = next(i for i in range(first + 1, len(g.events)) if g.events[i][0] == G.EV_SEL_AIM)
        return [tuple(e) for e in g.events[first:upto] if e[0] != G.EV_SEL_DRAWN]

    assert deal(other_a) == deal(other_b)


# ---------------------------------------------------------------- configuration


def test_deck_presets():
    from analyzer.cards import parse_cards

    # standard52 card indices are the project's card codes.
    assert standard52().size == 52 and standard52().parse("As Td 2c") == [int(c) for c in parse_cards("As Td 2c")]
    assert COLOURS5.size == 70 and COLOURS5.n_colours == 5 and not COLOURS5.ace_low
    d = parse_deck("colours(6, 2-10/J/Q/K/A, 2)")
    assert d.size == 6 * 13 * 2 and d.ace_low
    assert d.parse("Ar Ar") != d.parse("Ar")[:1] * 2  # two copies: two different cards
    with pytest.raises(WantitError, match="unknown deck"):
        parse_deck("tarot")
    with pytest.raises(WantitError, match="more times"):
        d.parse("Ar Ar Ar")


def test_board_file_round_trip(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(board_to_toml(PROVISIONAL_BOARD, COLOURS5))
    b = load_board(path)
    assert b.slots == PROVISIONAL_BOARD.slots and b.provisional
    assert parse_deck(b.deck).cards == COLOURS5.cards
    r = simulate_selection(players=1, games=50, board=path)
    assert r.meta["deck"] == COLOURS5.name


@pytest.mark.parametrize("old,new,message", [
    ('predicate = "pair"', 'predicate = "pairr"', "board[3].predicate: unknown kind 'pairr'"),
    ('id = "p_flush"', 'id = "low"', "board[7].id: 'low' is already board[1]"),
    ('predicate = "flush"', 'predicate = "low"', "board[7].predicate: only one low slot"),
    ('id = "p_pair"\n', 'id = "p_pair"\nopening = true\n', "board[3].opening: only one slot"),
    ('id = "p_pair"\n', 'id = "p_pair"\nused = "some"\n', "board[3].used: 'some' must be matched or all"),
    ('id = "p_pair"\n', 'id = "p_pair"\nused = ["all"]\n', "board[3].used: ['all'] must be matched or all"),
    ('id = "p_pair"\n', 'id = "p_pair"\ncolour = 3\n', "board[3]: unknown field 'colour'"),
    ('provisional = true', 'provisional = "yes"', "provisional: must be true or false"),
    ('provisional = true', 'provisional = true\n[deck]\npreset = "colours"\ncolours = 12',
     "deck.colours: 12 must be a whole number 1..8"),
    ('[[board]]\nid = "p_straight_flush"', '[[nope]]\nid = "x"', "unknown field"),
    ('name = ', 'name = [', "not valid TOML"),
])
def test_bad_board_files_name_the_field(tmp_path, old, new, message):
    text = board_to_toml(PROVISIONAL_BOARD)
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(BoardError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_board(path)


def test_a_board_file_nested_50000_deep_is_refused_in_one_line(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("name = " + "[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(BoardError, match="nested too deeply to be a board"):
        load_board(path)


def test_board_needs_eleven_slots(tmp_path):
    text = board_to_toml(PROVISIONAL_BOARD)
    path = tmp_path / "short.toml"
    path.write_text(text[:text.index('[[board]]\nid = "p_four_kind"')])
    with pytest.raises(BoardError, match="board: 9 slots given; the board has 11"):
        load_board(path)


@pytest.mark.parametrize("kwargs,message", [
    ({"players": 7}, "1 to 6 players"),
    ({"deck": "colours(2, J/Q/K/A, 1)"}, "4 players need at least 28"),
    ({"rules": {"reshuffle": "random"}}, "not allowed"),
    ({"rules": {"wild": 1}}, "no rule 'wild'"),
    ({"policies": "heuristic:keep_min=99"}, "out of range"),
    ({"games": 0}, "at least 2"),
])
def test_bad_input_is_a_clear_error(kwargs, message):
    with pytest.raises(WantitError, match=message):
        simulate_selection(**{"games": 10, **kwargs})


# ---------------------------------------------------------------- command line


def _cli(*args):
    proc = subprocess.run([sys.executable, "-c", "from analyzer.cli import main; main()", *args],
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def test_cli_simulate_deal_and_variants(tmp_path):
    code, out, err = _cli("simulate", "selection", "-n", "2", "-d", "300", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["meta"]["board_provisional"] and data["meta"]["games"] == 300
    assert len(data["seats"]) == 2 and "cosmopolitan" in data["seats"][0]["slots"]
    code, out, err = _cli("deal", "selection", "--seed", "3", "-n", "2", "--trace")
    assert code == 0, err
    assert "PROVISIONAL" in out and "Round 11 (dealer seat 0, 3 draws)" in out and "draw 3:" in out
    assert "Final board" in out and " wins with " in out
    code, out, err = _cli("variants")
    assert code == 0 and "selection:" in out and "PROVISIONAL" in out and "low_high_strict_with_zero" in out
    bad = tmp_path / "bad.toml"
    bad.write_text(board_to_toml(PROVISIONAL_BOARD).replace('"pair"', '"pairr"', 1))
    code, out, err = _cli("simulate", "selection", "--board", str(bad))
    assert code == 2 and out == "" and "board[3].predicate: unknown kind 'pairr'" in err
    assert "Traceback" not in err


def test_selection_registry_entry():
    assert SELECTION.rules_vector().shape == (G.N_RULES,)
    assert {o.clause for o in SELECTION.options} == {"SE-A3", "SE-A4", "SE-A5", "SE-A6", "SE-A7", "SE-A8", "SE-A11"}


# ---------------------------------------------------------------- the engine: states, decisions, legal actions

WALKS = {
    "default": dict(players=2),
    "declare_colours": dict(players=3, deck="colours", policies={"all": "heuristic", 1: "reaim"},
                            rules={"declare_target_before_draws": True, "allow_voluntary_scratch": True}),
    "stand_pat_no_clubs": dict(players=1, policies="stand_pat", stacked=NO_CLUBS),
    "strict_low_high": dict(players=2, rules={"ace_is_numerical_one": True, "low_high_strict_with_zero": True,
                                              "low_high_min_cards": 2, "allow_voluntary_scratch": True}),
}


def _decisions_per_game(players, declare):
    """Per seat: 2 draws in rounds 1-9, 3 in rounds 10-11, a fill every round, and a
    declared target every round (SE-A6)."""
    return players * (9 * 2 + 2 * 3 + 11 + (11 if declare else 0))


@pytest.mark.parametrize("seed", range(6))
def test_a_game_stopped_at_a_random_decision_and_copied_plays_on_identically(seed):
    n = 1 + seed % 4
    rules = {"declare_target_before_draws": True} if seed % 2 else {}
    inp = selection_inputs(players=n, rules=rules)
    start = engine.new_state(inp, dealer=seed % n)
    full = engine.play_state(inp, start.copy(), engine.new_stream(seed, seed))
    decisions = int(full.state[G.B.decisions])
    assert full.finished and decisions == _decisions_per_game(n, seed % 2)
    rng = np.random.default_rng(seed)
    for k in sorted(set(rng.integers(0, decisions + 1, 3).tolist()) | {0, decisions}):
        st, stream = start.copy(), engine.new_stream(seed, seed)
        first = engine.play_state(inp, st, stream, stop=k)
        assert first.finished == (k == decisions) and int(st[G.B.decisions]) == k
        saved_state, saved_stream = st.copy(), stream.copy()
        rest = engine.play_state(inp, saved_state, saved_stream)
        assert rest.finished
        np.testing.assert_array_equal((first if first.finished else rest).result, full.result)
        np.testing.assert_array_equal(np.concatenate([first.events, rest.events]), full.events)
        np.testing.assert_array_equal(rest.state, full.state)


def _action_taken(kind, before, events):
    """The action of the one decision that ``events`` (played from state ``before``)
    begin with, read from the event log."""
    seat = int(events[0][1])
    hand = G.STATE.view(before, "hands")[seat].tolist()
    if kind == "target_slot":
        assert events[0][0] == G.EV_SEL_TARGET
        return int(events[0][3])
    if kind == "draw":
        assert events[0][0] == G.EV_SEL_AIM
        discarded = [int(e[2]) for e in events[1:8] if e[0] == G.EV_SEL_DISCARD]
        return sum(1 << j for j, c in enumerate(hand) if c not in discarded)
    if events[0][0] == G.EV_SEL_SCRATCH:
        return G.SCRATCH + int(events[0][3])
    assert events[0][0] == G.EV_SEL_FILL
    used = [int(e[2]) for e in events[1:6] if e[0] == G.EV_SEL_USED]
    return int(events[0][3]) + G.FILL_MASK * sum(1 << j for j, c in enumerate(hand) if c in used)


def _expected_fills(st, seat, board, deck, rules):
    """Every legal fill and scratch at a scoring decision by §5.3-§5.4, enumerated
    literally (independently of the kernel's ``fill_actions``)."""
    score = G.STATE.view(st, "score")[seat, :len(board.slots)].tolist()
    target = int(G.STATE.view(st, "aims")[seat, 0])
    hand = G.STATE.view(st, "hands")[seat].tolist()
    cosmo = board.opening
    cosmo_open = cosmo is not None and score[cosmo] < 0
    open_slots = [k for k, v in enumerate(score) if v < 0]
    eligible = [target] if target >= 0 else ([cosmo] if cosmo_open else open_slots)
    ace_one = bool(rules.get("ace_is_numerical_one"))
    low = next(k for k, s in enumerate(board.slots) if s.kind == "low")
    high = next(k for k, s in enumerate(board.slots) if s.kind == "high")
    fills = []
    for k in eligible:
        slot = board.slots[k]
        for size in range(1, 6):
            for pos in itertools.combinations(range(7), size):
                u = [hand[j] for j in pos]
                if not _satisfies(slot.kind, slot.used == "all", u, deck, ace_one):
                    continue
                if slot.kind in ("low", "high"):
                    pts = sum(11 if deck.cards[c][0] == 14 else card_points(deck.cards[c][0]) for c in u)
                    if size < rules.get("low_high_min_cards", 1):
                        continue
                    if slot.kind == "low" and score[high] > 0 and pts >= score[high]:
                        continue
                    if slot.kind == "low" and score[high] == 0 and rules.get("low_high_strict_with_zero"):
                        continue
                    if slot.kind == "high" and score[low] > 0 and pts <= score[low]:
                        continue
                fills.append(k + G.FILL_MASK * sum(1 << j for j in pos))
    if not fills:
        scratch = [k for k in open_slots if not (cosmo_open and k == cosmo)] or [cosmo]
    elif rules.get("allow_voluntary_scratch") and not cosmo_open:
        scratch = open_slots
    else:
        scratch = []
    # In the kernel's order: by slot, then by mask; the scratches last, by slot.
    return sorted(fills, key=lambda a: (a % G.FILL_MASK, a // G.FILL_MASK)) + [G.SCRATCH + k for k in scratch]


@pytest.mark.parametrize("name", WALKS)
def test_legal_actions_follow_the_rules_and_hold_the_policys_choice(name):
    """At every decision of a game: keep masks keep at least two cards; targets are
    open slots; the fills are exactly the (eligible slot, cards) pairs §5.3 allows
    (while Cosmopolitan is open, and no target is declared, only it takes points),
    then the legal scratches; the policy's choice is one of them, and forcing that
    action instead gives the same state, stream and events."""
    from analyzer.selection_config import resolve

    kw = dict(WALKS[name])
    board, deck = resolve(None, kw.get("deck"))
    rules = kw.get("rules", {})
    inp = selection_inputs(**kw)
    st = engine.new_state(inp, dealer=0)
    stream = engine.new_stream(5, 1)
    engine.play_state(inp, st, stream, stop=0)
    seen = Counter()
    k = 0
    while True:
        kind, seat, actions = engine.decision(inp, st)
        if kind == "none":
            break
        seen[kind] += 1
        assert len(set(actions)) == len(actions)
        score = G.STATE.view(st, "score")[seat, :11]
        if kind == "draw":
            assert actions == sorted(actions) and len(actions) == 120 and 127 in actions
            assert all(bin(a).count("1") >= 2 for a in actions)
        elif kind == "target_slot":
            assert actions == [j for j in range(11) if score[j] < 0]
        else:
            assert kind == "fill"
            assert actions == _expected_fills(st, seat, board, deck, rules)
            target = int(G.STATE.view(st, "aims")[seat, 0])
            if target < 0 and score[SLOT["cosmopolitan"]] < 0:
                assert {a % G.FILL_MASK for a in actions if a < G.SCRATCH} <= {SLOT["cosmopolitan"]}
        before, stream_before = st.copy(), stream.copy()
        step = engine.play_state(inp, st, stream, stop=k + 1)
        action = _action_taken(kind, before, step.events)
        assert action in actions, (kind, action)
        forced = engine.play_state(inp, before, stream_before, stop=k + 1, forced=action)
        np.testing.assert_array_equal(forced.state, st)
        np.testing.assert_array_equal(stream_before, stream)
        np.testing.assert_array_equal(forced.events, step.events)
        k += 1
    assert k == _decisions_per_game(inp.players, "declare_target_before_draws" in rules)
    assert seen["fill"] == 11 * inp.players


def test_forced_keep_and_fill_on_a_stacked_deck():
    """Stand-pat seat, round 1 stacked: keeping As Kh Qd Jc discards 9s 8h 2d and
    draws the next three stock cards into their places; a Cosmopolitan filled with
    a legal hand that is not the best scores its own cards' points."""
    d = standard52()
    inp = selection_inputs(players=1, policies="stand_pat", stacked=FOUR_SUITS + " Tc Th Ts")
    st = engine.new_state(inp, dealer=0)
    stream = engine.new_stream(0, 0)
    engine.play_state(inp, st, stream, stop=0)
    kind, seat, actions = engine.decision(inp, st)
    assert (kind, seat) == ("draw", 0)
    with pytest.raises(WantitError, match="not legal"):
        engine.play_state(inp, st.copy(), stream.copy(), stop=1, forced=0b0000001)  # keeps one card
    played = engine.play_state(inp, st, stream, stop=1, forced=0b0001111)
    hands = G.STATE.view(st, "hands")
    assert d.format(hands[0].tolist()) == "As Kh Qd Jc Tc Th Ts"
    ev = [tuple(int(v) for v in e) for e in played.events]
    assert ev[0] == (G.EV_SEL_AIM, 0, 4, 1, -1)
    assert [e[2] for e in ev if e[0] == G.EV_SEL_DISCARD] == d.parse("9s 8h 2d")
    assert [e[2] for e in ev if e[0] == G.EV_SEL_DRAWN] == d.parse("Tc Th Ts")
    assert G.STATE.get(st, "stock_state")[G.ST_TOP] == 10
    assert G.STATE.view(st, "disc")[:3].tolist() == d.parse("9s 8h 2d")
    played = engine.play_state(inp, st, stream, stop=2, forced=127)  # stands pat
    assert [tuple(int(v) for v in e) for e in played.events] == [(G.EV_SEL_AIM, 0, 7, 2, -1)]
    kind, _, actions = engine.decision(inp, st)
    assert kind == "fill"
    cosmo = SLOT["cosmopolitan"]
    assert all(a % G.FILL_MASK == cosmo for a in actions) and not any(a >= G.SCRATCH for a in actions)
    for illegal in (SLOT["p_pair"] + G.FILL_MASK * 0b1010000,  # Tc Th: no pair before the opening
                    G.SCRATCH + SLOT["p_pair"]):  # nor a scratch when Cosmopolitan is made
        with pytest.raises(WantitError, match="not legal"):
            engine.play_state(inp, st.copy(), stream.copy(), stop=3, forced=illegal)
    tens = 0b1111100  # Qd Jc Tc Th Ts: four suits, 100 points (As Kh Qd Jc Tc make 105)
    played = engine.play_state(inp, st, stream, stop=3, forced=cosmo + G.FILL_MASK * tens)
    ev = [tuple(int(v) for v in e) for e in played.events]
    assert ev[0] == (G.EV_SEL_FILL, 0, -1, cosmo, 100)
    assert [e[2] for e in ev[1:6]] == d.parse("Qd Jc Tc Th Ts") and ev[6] == (G.EV_SEL_OPENED, 0, -1, 1, 0)
    assert ev[7][0] == G.EV_SEL_ROUND and ev[7][3] == 2
    assert G.STATE.view(st, "score")[0, cosmo] == 100 and G.STATE.view(st, "open_round")[0] == 1
    assert (G.STATE.view(st, "score")[0, :11] < 0).sum() == 10
    assert engine.decision(inp, st)[0] == "draw"  # round 2's first draw


def test_compiled_kernel_uses_the_layouts_offsets_and_unpacks_its_data():
    from analyzer.selection import setup, setup_inputs
    from kernels.games import common as C

    assert tuple(G.state_slots()) == tuple(G.STATE.at)
    assert G.STATE.fields[:len(C.BASE_STATE.fields)] == C.BASE_STATE.fields
    st = setup(players=3, deck="colours")
    inp = setup_inputs(st, stacked=["Ar Kb", "2y"])
    deck, prof, board, stacked, sp, tt = G.unpack_data(inp.idata, inp.fdata)
    np.testing.assert_array_equal(deck, st.deck_matrix)
    np.testing.assert_array_equal(prof, st.profile)
    np.testing.assert_array_equal(board, st.board_matrix)
    assert stacked.tolist() == [COLOURS5.parse("Ar Kb"), COLOURS5.parse("2y") + [-1]]
    np.testing.assert_array_equal(sp[:, G.SP_PAR:G.SP_PAR + 11], st.par)
    np.testing.assert_array_equal(tt, G.make_tail_table(st.profile))


def test_a_declared_target_takes_no_points_while_cosmopolitan_is_open():
    """SE-A6 with §5.3 (a): a seat that declares Low while Cosmopolitan is open cannot
    write its low there (only Cosmopolitan takes points until it is made) and must
    scratch a slot other than Cosmopolitan; declaring Cosmopolitan itself fills it."""
    rows = ["2s 3h 4d 5c 6s 9h 8d"]  # a 5-card low (and all four suits: a Cosmopolitan)
    inp = selection_inputs(players=1, policies="stand_pat", stacked=rows,
                           rules={"declare_target_before_draws": True})
    st = engine.new_state(inp, dealer=0)
    stream = engine.new_stream(0, 0)
    engine.play_state(inp, st, stream, stop=0)
    kind, seat, actions = engine.decision(inp, st)
    assert (kind, seat) == ("target_slot", 0) and SLOT["low"] in actions
    declared_low_stream = stream.copy()
    declared_low = engine.play_state(inp, st.copy(), declared_low_stream, stop=3, forced=SLOT["low"])
    kind, _, fills = engine.decision(inp, declared_low.state)
    assert kind == "fill" and all(a >= G.SCRATCH for a in fills)  # only scratches are legal
    assert G.SCRATCH + SLOT["cosmopolitan"] not in fills
    done = engine.play_state(inp, declared_low.state, declared_low_stream, stop=4)
    first = [tuple(int(v) for v in e) for e in done.events if e[0] in (G.EV_SEL_FILL, G.EV_SEL_SCRATCH)][0]
    assert first[0] == G.EV_SEL_SCRATCH and first[3] != SLOT["cosmopolitan"]
    assert G.STATE.view(done.state, "score")[0, SLOT["low"]] <= 0
    declared_cosmo = engine.play_state(inp, st.copy(), stream.copy(), stop=4, forced=SLOT["cosmopolitan"])
    filled = [tuple(int(v) for v in e) for e in declared_cosmo.events if e[0] == G.EV_SEL_FILL]
    assert filled and filled[0][3] == SLOT["cosmopolitan"]


def test_target_se_stops_when_every_seats_win_share_is_precise_enough():
    r = simulate_selection(players=2, games=2000, seed=2, chunk=100, target_se=0.03)
    assert r.meta["reached_target_se"] and r.meta["games"] < 2000
    assert (r.seats.p_win_se < 0.03).all() and r.meta["games"] > 100
    # The chunk before the stop was not yet precise enough: one chunk fewer misses it.
    fewer = simulate_selection(players=2, games=r.meta["games"] - 100, seed=2, chunk=100)
    assert (fewer.seats.p_win_se >= 0.03).any()
    short = simulate_selection(players=2, games=200, seed=2, chunk=100, target_se=0.03)
    assert not short.meta["reached_target_se"]
    assert "(--target-se 0.03 not reached: some p_win_se is above it)" in " ".join(short.format_table().split())
    with pytest.raises(WantitError, match="target_se must be a positive"):
        simulate_selection(players=2, games=10, target_se=0)


def test_score_hand_refuses_a_card_given_twice():
    with pytest.raises(WantitError, match=r"card 2c \(index 0\) is given twice"):
        score_hand([0] * 7)
    with pytest.raises(WantitError, match="given twice"):
        score_hand([0, 5, 10, 15, 20, 25, 5])
