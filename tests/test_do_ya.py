"""Do Ya on a stacked deck, one test per clause of RULES.md §3.3 and option of §3.6;
the worked trace of §3.3 reproduced exactly."""

import numpy as np
import pytest

from analyzer import Category, WantitError, describe_high, hand_category
from analyzer.cards import parse_cards
from analyzer.trace import play_deal
from kernels.games import common as C


def events(d, *kinds):
    return [tuple(int(x) for x in e) for e in d.events if e[0] in kinds]


def actions(d):
    kinds = (C.EV_OFFER, C.EV_TAKE, C.EV_REJECT, C.EV_POOL_TAKE, C.EV_POOL_DECLINE, C.EV_DEAD)
    return [(k, s, c) for k, s, c, _, _ in events(d, *kinds)]


def stacked(text, rest=True):
    """A stacked deck: the given cards first, then every other card in code order."""
    first = parse_cards(text).tolist()
    tail = [c for c in range(52) if c not in first] if rest else []
    return np.array(first + tail, dtype=np.uint8)


def run(policies, deck, players=4, dealer=3, rules=None):
    return play_deal("do_ya", players=players, policies=policies, rules=rules, stacked=deck, dealer=dealer)


def card(text):
    return int(parse_cards(text)[0])


def test_3_3_worked_trace():
    # A, C, D refuse whenever they may; B takes the reject that helps it most (Kc
    # pairs its wild higher than 7c). Holes 2c 2d 2h 2s; x1..x6 follow.
    deck = stacked("2c 2d 2h 2s 7c Kc 9c 8d Jd Qh")
    b = "heuristic:pool_threshold=-1000"
    d = run({0: "never_take", 1: b, 2: "never_take", 3: "never_take"}, deck)
    O, T, R, PT, PD, DEAD = C.EV_OFFER, C.EV_TAKE, C.EV_REJECT, C.EV_POOL_TAKE, C.EV_POOL_DECLINE, C.EV_DEAD
    x1, x2, x3, x4, x5, x6 = (card(c) for c in "7c Kc 9c 8d Jd Qh".split())
    round_one = actions(d)[:17]
    assert round_one == [
        (O, 0, x1), (R, 0, x1), (O, 0, x2), (R, 0, x2), (O, 0, x3), (T, 0, x3),  # A: pool [x1, x2]
        (PT, 1, x2),  # B takes x2 from the pool: pool [x1]
        (PD, 2, -1), (O, 2, x4), (R, 2, x4), (O, 2, x5), (T, 2, x5),  # C: pool [x1, x4]
        (PD, 3, -1), (O, 3, x6), (T, 3, x6),  # D declines both, must take x6
        (DEAD, -1, x1), (DEAD, -1, x4),  # the dealer's rejects are dead at the end of the round
    ]
    declines = events(d, C.EV_POOL_DECLINE)
    assert [e[3] for e in declines[:2]] == [1, 2]  # declining the pool counts its cards as rejections
    assert [e[3] for e in events(d, C.EV_TAKE)[:3]] == [1, 1, 1]  # A, C, D were forced


def test_3_3_1_wild_hole_card_dealt_from_the_dealers_left():
    d = run("always_take", stacked("2c 2d 2h 2s"), dealer=1)
    assert [(s, c) for _, s, c, *_ in events(d, C.EV_DEAL_DOWN)] == [(2, 0), (3, 1), (0, 2), (1, 3)]
    assert d.hole[:, 0].tolist() == [2, 3, 0, 1]


def test_dy_a5_each_round_starts_with_an_empty_pool_from_the_dealers_left():
    d = run("never_take", stacked("2c 2d 2h 2s"))
    rounds = [i for i, e in enumerate(d.events) if e[0] == C.EV_ROUND]
    for start in rounds:
        first = next(e for e in d.events[start:] if e[0] in (C.EV_OFFER, C.EV_POOL_DECLINE, C.EV_POOL_TAKE))
        assert first[0] == C.EV_OFFER and first[1] == 0  # seat 0, and no pool to choose from
        assert first[3] == 0


def test_3_3_invariants_pool_size_and_cards_per_round():
    for seed in range(30):
        d = play_deal("do_ya", players=8, seed=seed, policies="never_take" if seed % 2 else None)
        pool = 0
        drawn = 0
        for kind, seat, c, a, b in d.events:
            if kind == C.EV_ROUND:
                assert drawn <= 8 + 2
                pool = drawn = 0
            elif kind == C.EV_TURN_UP:
                drawn += 1
            elif kind == C.EV_REJECT:
                pool += 1
            elif kind == C.EV_POOL_TAKE:
                pool -= 1
            assert pool <= 2
        held = np.concatenate([d.hole.ravel(), d.up.ravel()])
        assert len(set(held.tolist())) == 40
        turned = len(events(d, C.EV_TURN_UP))
        assert 8 + turned <= 5 * 8 + 8


def test_dy_a1_five_of_a_kind_position():
    # Seat 0: wild + four nines. Seat 1: wild + Th Jh Qh Kh, a straight flush.
    deck = stacked("2c 3d 9c Th 9d Jh 9h Qh 9s Kh", rest=True)
    default = run("always_take", deck, players=2, dealer=1)
    assert describe_high(default.high[0]) == "Five of a kind, nines"
    assert hand_category(default.high[1]) == Category.STRAIGHT_FLUSH
    assert default.payout.tolist() == [2, 0]
    below = run("always_take", deck, players=2, dealer=1, rules={"five_kind_position": "below_straight_flush"})
    assert below.payout.tolist() == [0, 2]


def test_dy_a2_rank_mode_makes_every_card_of_the_hole_rank_wild():
    deck = stacked("7c 3d 7d 4c 2h 5c 5s 6c 9c 8d")
    hole_only = run("always_take", deck, players=2, dealer=1)
    rank = run("always_take", deck, players=2, dealer=1, rules={"wild_mode": "rank"})
    # Seat 0 holds 7c wild and 7d 2h 5s 9c up.
    assert hand_category(hole_only.high[0]) == Category.PAIR
    assert hand_category(rank.high[0]) == Category.THREE_OF_A_KIND


def test_dy_a3_double_ace_flush_option():
    # Seat 0: wild + Ah 9h 7h 4h. Seat 1: wild + Ks Qs 9s 7s.
    deck = stacked("2c 2d Ah Ks 9h Qs 7h 9s 4h 7s")
    plain = run("always_take", deck, players=2, dealer=1)
    assert describe_high(plain.high[0]) == "Flush, A-K-9-7-4"
    assert plain.payout.tolist() == [0, 2]  # A-K-Q-9-7 beats A-K-9-7-4
    double = run("always_take", deck, players=2, dealer=1, rules={"wild_may_duplicate_card": True})
    assert describe_high(double.high[0]) == "Flush, A-A-9-7-4"
    assert double.payout.tolist() == [2, 0]


def test_dy_a6_hi_lo_options():
    deck = stacked("Kc 2d 2h Qs 3h Js 4c Ts 5d 9s")  # seat 0: wild + 2-3-4-5 (a wheel), seat 1: wild + broadway
    d = run("always_take", deck, players=2, dealer=1, rules={"split_mode": "cards_speak", "low_qualifier": 8})
    assert d.low[0] > 0 and d.low[1] == 0
    assert d.payout.tolist() == [1, 1]  # low for seat 0, high (royal) for seat 1
    declared = run({0: "low", 1: "high"}, deck, players=2, dealer=1, rules={"split_mode": "declare"})
    assert [e[3] for e in events(declared, C.EV_DECLARE)] == [1, 0]


def test_deck_exhaustion_reshuffles_dead_cards_then_forces_a_pool_card():
    # Two players and a stacked deck of exactly ten cards; both refuse whenever allowed.
    # Rounds 3 and 4 need the dead rejects reshuffled; in round 4 nothing is left, so
    # each player must take a reject from the table.
    deck = parse_cards("2c 2d 3c 3d 3h 3s 4c 4d 4h 4s")
    d = run("never_take", deck, players=2, dealer=1)
    assert len(events(d, C.EV_RESHUFFLE)) == 2
    assert [e[1] for e in events(d, C.EV_FORCED_NO_STOCK)] == [0, 1]
    held = np.concatenate([d.hole.ravel(), d.up.ravel()])
    assert sorted(held.tolist()) == sorted(deck.tolist())


def test_a_deck_too_short_for_the_deal_is_an_error():
    with pytest.raises(WantitError, match="ran out"):
        run("never_take", parse_cards("2c 2d 3c 3d 3h 3s 4c 4d"), players=2, dealer=1)


@pytest.mark.parametrize("seed", range(20))
def test_nets_sum_to_zero_with_hi_lo(seed):
    d = play_deal("do_ya", players=6, seed=seed, rules={"split_mode": "declare", "chip_mode": "integer"})
    assert d.nets.sum() + d.carry == pytest.approx(0, abs=1e-12)
    assert all(float(p).is_integer() for p in d.payout)


# ---------------------------------------------------------------- engine decisions


def _engine(policies, deck, players=4, dealer=3, rules=None):
    from analyzer.engine import new_state
    from analyzer.variants import get_variant

    inp = get_variant("do_ya").inputs(players, policies=policies, rules=rules)
    return inp, new_state(inp, dealer=dealer, stacked=deck)


def test_rejects_on_the_table_are_a_decision_between_each_of_them_and_a_fresh_card():
    """§3.3 worked trace: seat 0 refuses 7c and Kc (two decisions) and must take 9c;
    seat 1 then chooses among the two rejects and a fresh card."""
    from analyzer.engine import decision, new_stream, play_state
    from kernels.games import do_ya as DY

    inp, st = _engine("never_take", stacked("2c 2d 2h 2s 7c Kc 9c 8d Jd Qh"))
    play_state(inp, st, new_stream(0, 0), stop=0)
    assert decision(inp, st) == ("offer", 0, [C.TAKE, C.REFUSE])
    play_state(inp, st, new_stream(0, 0), stop=2)
    assert decision(inp, st) == ("pool", 1, [card("7c"), card("Kc"), C.POOL_DRAW])
    assert DY.STATE.view(st, "up")[0, 0] == card("9c")  # the forced take was no decision

    took = play_state(inp, st.copy(), new_stream(0, 0), stop=3, forced=card("Kc"))
    assert DY.STATE.view(took.state, "up")[1, 0] == card("Kc")
    assert DY.STATE.view(took.state, "pool")[:DY.STATE.get(took.state, "n_pool")].tolist() == [card("7c")]
    assert [e[0] for e in took.events] == [C.EV_POOL_TAKE]

    # Declining both rejects counts them as two refusals: the fresh 8d must be taken.
    drew = play_state(inp, st.copy(), new_stream(0, 0), stop=3, forced=C.POOL_DRAW)
    assert DY.STATE.view(drew.state, "up")[1, 0] == card("8d")
    assert [tuple(e[:4]) for e in drew.events[:1]] == [(C.EV_POOL_DECLINE, 1, -1, 2)]
    assert decision(inp, drew.state) == ("pool", 2, [card("7c"), card("Kc"), C.POOL_DRAW])


def test_a_refused_fresh_card_joins_the_rejects_and_another_is_offered():
    from analyzer.engine import decision, new_stream, play_state
    from kernels.games import do_ya as DY

    inp, st = _engine("always_take", stacked("2c 2d 2h 2s 7c Kc 9c 8d Jd Qh"))
    play_state(inp, st, new_stream(0, 0), stop=1, forced=C.REFUSE)
    assert DY.STATE.view(st, "pool")[:1].tolist() == [card("7c")]
    assert DY.STATE.get(st, "offer") == card("Kc") and DY.STATE.get(st, "rejections") == 1
    assert decision(inp, st) == ("offer", 0, [C.TAKE, C.REFUSE])


def test_forcing_a_card_that_is_not_on_the_table_is_a_clear_error():
    from analyzer.engine import new_stream, play_state
    from analyzer.errors import WantitError

    inp, st = _engine("never_take", stacked("2c 2d 2h 2s 7c Kc 9c 8d Jd Qh"))
    play_state(inp, st, new_stream(0, 0), stop=2)
    with pytest.raises(WantitError, match="not legal at seat 1's pool decision"):
        play_state(inp, st, new_stream(0, 0), forced=card("Qh"))


@pytest.mark.parametrize("seed", range(20))
def test_a_table_described_by_hand_never_deals_a_card_it_places(seed):
    """Round 3 about to start, 5 players: hole cards and two up cards each placed by
    hand, four dead rejects; the rest of the deal draws only unplaced cards."""
    from analyzer.engine import new_state, new_stream, play_state
    from analyzer.variants import get_variant
    from kernels.cards import card_bit
    from kernels.games import do_ya as DY

    inp = get_variant("do_ya").inputs(5)
    lay = DY.STATE
    st = new_state(inp, dealer=0)
    holes = parse_cards("2c 7d Jh Ks 4s")
    ups = parse_cards("Ac Kc 3d 5d 6h 8h 9s Ts Qc Qd")
    dead = parse_cards("Ah Ad 2s 3s")
    placed = np.uint64(0)
    for s in range(5):
        lay.view(st, "hole")[s, 0] = holes[s]
        lay.view(st, "up")[s, :2] = ups[2 * s:2 * s + 2]
        lay.view(st, "n_up")[s] = 2
        for c in ups[2 * s:2 * s + 2]:
            lay.view(st, "up_mask")[s] |= int(card_bit(int(c)))
    for c in np.concatenate([holes, ups, dead]):
        placed |= card_bit(int(c))
    lay.view(st, "dead")[:4] = dead
    lay.put(st, "n_dead", 4)
    lay.put(st, "round", 2)
    lay.put(st, "phase", DY.PH_ROUND)
    C.fill_stock(st, placed)
    played = play_state(inp, st, new_stream(seed, 0))
    assert played.finished
    dealt = [int(e[2]) for e in played.events if e[0] == C.EV_TURN_UP]
    assert len(dealt) == len(set(dealt)) and not any(card_bit(c) & placed for c in dealt)
    assert lay.view(st, "hole")[:5, 0].tolist() == holes.tolist()
    assert lay.view(st, "up")[:5, :2].ravel().tolist() == ups.tolist()
    held = np.concatenate([lay.view(st, "hole")[:5].ravel(), lay.view(st, "up")[:5].ravel()])
    assert len(set(held.tolist())) == 25
