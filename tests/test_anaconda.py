"""Anaconda on a stacked deck, one test per clause of RULES.md §2.3 and option of §2.6."""

from itertools import combinations
from math import comb, sqrt

import numpy as np
import pytest

from analyzer import Category, WantitError, describe_high, describe_low, evaluate_high, evaluate_low
from analyzer.cards import parse_cards
from analyzer.engine import Inputs, decision, new_state, new_stream, play_state
from analyzer.simulate import seat_policies, simulate
from analyzer.trace import play_deal
from analyzer.variants import get_variant
from kernels.games import anaconda as A
from kernels.games import common as C

F2 = [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584]
DECK = np.arange(52, dtype=np.uint8)


def events(d, *kinds):
    return [tuple(int(x) for x in e) for e in d.events if e[0] in kinds]


def run(policies="heuristic", players=5, dealer=4, rules=None, deck=DECK):
    return play_deal("anaconda", players=players, policies=policies, rules=rules, stacked=deck, dealer=dealer)


def hands_after_each_phase(d):
    """Each seat's hand (a set of codes) after the deal and after every pass phase."""
    hands = {}
    for _, s, c, *_ in events(d, C.EV_DEAL_DOWN):
        hands.setdefault(s, set()).add(c)
    snapshots = [{s: set(h) for s, h in hands.items()}]
    by_phase = {}
    for _, s, c, r, phase in events(d, C.EV_PASS):
        by_phase.setdefault(phase, []).append((s, c, r))
    for phase in sorted(by_phase):
        for s, c, r in by_phase[phase]:
            hands[s].remove(c)
        for s, c, r in by_phase[phase]:
            hands[r].add(c)
        snapshots.append({s: set(h) for s, h in hands.items()})
    return snapshots, by_phase


def test_2_3_1_deal_one_card_at_a_time_from_the_dealers_left():
    d = run(dealer=2)
    deals = events(d, C.EV_DEAL_DOWN)
    assert len(deals) == 35
    assert [s for _, s, *_ in deals[:10]] == [3, 4, 0, 1, 2, 3, 4, 0, 1, 2]
    assert [c for _, _, c, *_ in deals] == list(range(35))


@pytest.mark.parametrize("schedule,expected", [
    ("3-2-1-left", [(3, 1), (2, 1), (1, 1)]),
    ("3-2-1-spread", [(3, 1), (2, 2), (1, 3)]),
    ("left-right-left", [(3, 1), (2, -1), (1, 1)]),
    ("one-pass", [(3, 1)]),
    ("3:2,2:-2", [(3, 2), (2, -2)]),
])
def test_2_3_3_pass_schedules_and_the_invariant_hand_size(schedule, expected):
    n = 5
    d = run(rules={"pass_schedule": schedule}, players=n)
    snapshots, by_phase = hands_after_each_phase(d)
    assert len(by_phase) == len(expected)
    for (count, offset), phase in zip(expected, sorted(by_phase)):
        packets = by_phase[phase]
        assert len(packets) == count * n
        for s, _, r in packets:
            assert r == (s + offset) % n
    for snap in snapshots:
        assert all(len(h) == 7 for h in snap.values())  # §2.3 invariant


def test_2_3_3_1_passing_is_simultaneous_a_choice_ignores_what_is_coming():
    """Change the cards of seat 4 (who passes to seat 0) without touching seat 0's
    hand: seat 0's first packet is the same."""
    base = run(players=5, dealer=4)
    order = [e[2] for e in events(base, C.EV_DEAL_DOWN)]
    rest = [c for c in range(52) if c not in order]
    changed = list(order)
    seat4 = [i for i in range(35) if i % 5 == 4]  # seat 4 gets every fifth card from the dealer's left
    for k, i in enumerate(seat4[:5]):
        changed[i], rest[k] = rest[k], changed[i]
    other = run(players=5, dealer=4, deck=np.array(changed + rest, dtype=np.uint8))

    def first_packet(d, seat):
        return sorted(c for _, s, c, _, phase in events(d, C.EV_PASS) if s == seat and phase == 1)

    def dealt(d, seat):
        return {c for _, s, c, *_ in events(d, C.EV_DEAL_DOWN) if s == seat}

    assert dealt(base, 0) == dealt(other, 0) and dealt(base, 4) != dealt(other, 4)
    assert first_packet(base, 0) == first_packet(other, 0)


def test_an_a3_offset_reaching_the_passer_wraps_or_skips():
    wrapped = run(players=3, dealer=2, rules={"pass_schedule": "3-2-1-spread"})
    _, by_phase = hands_after_each_phase(wrapped)
    # Third pass: 3 seats left at a 3-player table wraps to the 1st player left.
    assert {(s, r) for s, _, r in by_phase[3]} == {(0, 1), (1, 2), (2, 0)}
    # Second pass: 2 seats left is fine with 3 players.
    assert {(s, r) for s, _, r in by_phase[2]} == {(0, 2), (1, 0), (2, 1)}
    skipped = run(players=3, dealer=2, rules={"pass_schedule": "3-2-1-spread", "pass_to_self_rule": "skip"})
    assert [e[3] for e in events(skipped, C.EV_PASS_SKIPPED)] == [3]
    _, by_phase = hands_after_each_phase(skipped)
    assert sorted(by_phase) == [1, 2]


def test_2_3_4_to_6_discard_to_five_stack_and_roll_four():
    d = run(players=5)
    discards = events(d, C.EV_DISCARD)
    assert sorted(s for _, s, *_ in discards) == sorted(list(range(5)) * 2)
    rolls = events(d, C.EV_ROLL)
    assert len(rolls) == 20 and [a for *_, a, _ in rolls[::5]] == [1, 2, 3, 4]
    snapshots, _ = hands_after_each_phase(d)
    final = snapshots[-1]
    for s in range(5):
        stack = set(d.up[s].tolist()) | {int(d.hole[s, 0])}
        assert len(stack) == 5
        assert stack | {c for _, x, c, *_ in discards if x == s} == final[s]
        assert {c for _, x, c, *_ in rolls if x == s} == set(d.up[s].tolist())  # the fifth stays down


def test_an_a7_six_card_hands_discard_one_and_allow_eight_players():
    d = run(players=8, dealer=7, rules={"hand_size": 6})
    assert len(events(d, C.EV_DISCARD)) == 8
    with pytest.raises(WantitError, match="need 56 cards"):
        run(players=8, rules={"hand_size": 7})


def test_2_3_7_showdown_hand_is_exactly_the_five_stack_cards():
    d = run(players=4, dealer=3)
    for s in range(4):
        five = list(d.up[s]) + [int(d.hole[s, 0])]
        assert d.high[s] == evaluate_high(five)
        assert d.low[s] == evaluate_low(five)


def test_howdy_doody_threes_wild_high_kings_wild_low():
    """In Howdy Doody every stack is scored with its 3s wild for high and its kings
    wild for low (the stacked deck gives seats plenty of both)."""
    d = run(players=3, dealer=2, rules={"wild": "howdy_doody", "pass_schedule": "1:1"}, policies="high")
    assert any(int(c) >> 2 in (1, 11) for c in np.concatenate([d.up.ravel(), d.hole.ravel()]))
    for s in range(3):
        five = [int(c) for c in d.up[s]] + [int(d.hole[s, 0])]
        assert d.high[s] == evaluate_high(five, wild_ranks="3")
        assert d.low[s] == evaluate_low(five, wild_ranks="K")


def test_howdy_doody_both_ways_evaluation_example():
    # The 3 is wild for high but a natural 3 for low; the king the other way round.
    five = parse_cards("3c Kd 4h 5s 6d")
    assert describe_high(evaluate_high(five, wild_ranks="3")) == "Pair of kings, 6-5-4 kickers"
    assert describe_low(evaluate_low(five, wild_ranks="K")) == "6-5-4-3-A"


@pytest.mark.parametrize("split,expect_low_share", [("high_only", False), ("cards_speak", True),
                                                    ("high_and_right_neighbour", True)])
def test_an_a6_pot_split_modes(split, expect_low_share):
    d = run(players=5, rules={"split_mode": split})
    assert d.nets.sum() + d.carry == pytest.approx(0)
    assert not events(d, C.EV_DECLARE)
    best = int(np.argmax(d.high))
    if split == "high_only":
        assert d.payout[best] == pytest.approx(5)
    if split == "high_and_right_neighbour":
        right = (best - 1) % 5
        assert d.payout[right] >= 2.5 and d.payout[best] >= 2.5
    assert (d.low_share.sum() > 0) == expect_low_share


@pytest.mark.parametrize("seed", range(25))
def test_conservation_every_dealt_card_kept_or_discarded(seed):
    players = 3 + seed % 5
    d = play_deal("anaconda", players=players, seed=seed, deal=seed,
                  rules={"hand_size": 6} if seed % 3 == 0 else None)
    dealt = [c for _, _, c, *_ in events(d, C.EV_DEAL_DOWN)]
    discards = [c for _, _, c, *_ in events(d, C.EV_DISCARD)]
    kept = d.up.ravel().tolist() + d.hole.ravel().tolist()
    assert sorted(dealt) == sorted(discards + kept)
    assert len(set(dealt)) == len(dealt)
    assert d.nets.sum() + d.carry == pytest.approx(0)


def test_random_passing_and_keeping_the_best_high_five_gives_f2():
    """Random passes keep every player's final seven cards a uniformly random
    7-card hand (the process ignores card identities), so keeping the best high
    five gives the best-of-7 category frequencies F2. |z| <= 4.5 per category:
    false-failure rate below 1e-4 for the nine cells."""
    deals, n = 20_000, 7
    r = simulate("anaconda", players=n, deals=deals, seed=99, policies="random_pass_best_high")
    total = deals * n
    for cat, f in zip(Category, F2):
        p = f / comb(52, 7)
        o = r.categories[r.categories.category == cat.label].probability.sum() * deals
        z = (o - total * p) / sqrt(total * p * (1 - p))
        assert abs(z) <= 4.5, f"{cat.label}: z = {z:.2f}"


# ------------------------------------------------------------ the engine: decisions, forced actions, resuming
# Masks are suit-major: card code 4 * rank + suit is bit 16 * suit + rank. With the
# stacked deck DECK, 5 players and dealer 4, seat s is dealt codes s, s + 5, ..., s + 30.

V = get_variant("anaconda")


def bit(c):
    return 1 << (16 * (c % 4) + c // 4)


def mask(cards):
    return sum(bit(c) for c in cards)


def by_bit(cards):
    """Codes in ascending mask-bit order (suit, then rank)."""
    return sorted(cards, key=lambda c: (c % 4, c // 4))


def subsets(cards, k):
    return sorted(mask(s) for s in combinations(cards, k))


def dealt(s, n=5, dealer=4, hand_size=7):
    first = (s - dealer - 1) % n
    return [first + n * j for j in range(hand_size)]


def inputs(players=5, rules=None, policies="heuristic"):
    pols = np.stack([V.policy_vector(p) for p in seat_policies(V, players, policies)])
    return Inputs(V, players, V.rules_vector(rules), pols)


def stacked(inp, dealer=4):
    """A fresh deal on the stacked deck DECK, stopped at its first decision."""
    st = new_state(inp, dealer, stacked=DECK)
    stream = new_stream(0, 0)
    play_state(inp, st, stream, stop=0)
    return st, stream


def step(inp, st, stream, action):
    """Apply ``action`` at the decision ``st`` stopped at; stop at the next one."""
    played = play_state(inp, st, stream, stop=int(st[C.B.decisions]) + 1, forced=action)
    return played.events


def hand(st, s):
    return int(V.state.view(st, "hand")[s])


def test_engine_state_slots_are_the_layout():
    assert tuple(A.state_slots()) == tuple(A.STATE.at)


def test_2_4_pass_actions_are_every_packet_of_count_cards_from_the_hand():
    inp = inputs()
    st, _ = stacked(inp)
    kind, seat, actions = decision(inp, st)
    assert (kind, seat) == ("pass", 0)  # seats choose in seat order
    assert actions == subsets(dealt(0), 3) and len(actions) == 35
    assert hand(st, 0) == mask(dealt(0))


def test_2_4_pass_actions_six_card_hands_eight_players():
    inp = inputs(players=8, rules={"hand_size": 6, "pass_schedule": "1:1,2:1,3:1"})
    st, stream = stacked(inp, dealer=7)
    kind, seat, actions = decision(inp, st)
    assert (kind, seat, len(actions)) == ("pass", 0, 6)
    assert actions == subsets(dealt(0, 8, 7, 6), 1)


def test_2_3_3_1_a_packet_is_chosen_from_the_hand_before_the_phase_and_delivered_after_all_choose():
    inp = inputs()
    st, stream = stacked(inp)
    packet0 = mask([0, 5, 10])
    events = step(inp, st, stream, packet0)
    assert events.shape[0] == 0  # nothing is passed yet
    assert int(V.state.view(st, "packets")[0]) == packet0
    assert hand(st, 0) == mask(dealt(0)) and hand(st, 1) == mask(dealt(1))
    assert V.state.get(st, "turn") == 1 and V.state.get(st, "pass_phase") == 0
    assert V.state.get(st, "decisions") == 1
    kind, seat, actions = decision(inp, st)
    assert (kind, seat) == ("pass", 1) and actions == subsets(dealt(1), 3)  # seat 0's packet is not in it


def test_2_3_3_forced_packets_are_delivered_to_the_left_in_dealing_order():
    inp = inputs()
    st, stream = stacked(inp)
    packets = {s: [s, s + 5, s + 10] for s in range(5)}  # each seat's three lowest codes
    events = []
    for s in range(5):
        events += [tuple(int(x) for x in e) for e in step(inp, st, stream, mask(packets[s]))]
    # Delivered from the dealer's left (seat 0), each packet in mask-bit order.
    assert [e for e in events if e[0] == C.EV_PASS] == [
        (C.EV_PASS, s, c, (s + 1) % 5, 1) for s in range(5) for c in by_bit(packets[s])]
    assert events[-1] == (C.EV_PASS_PHASE, -1, -1, 2, 2)
    received = V.state.view(st, "received")
    for r in range(5):
        p = (r - 1) % 5
        assert hand(st, r) == mask(set(dealt(r)) - set(packets[r]) | set(packets[p]))
        assert int(received[r, p]) == mask(packets[p])
        assert all(int(received[r, x]) == 0 for x in range(5) if x != p)
    assert V.state.get(st, "pass_phase") == 1
    kind, seat, actions = decision(inp, st)
    assert (kind, seat) == ("pass", 0) and actions == subsets(set(dealt(0)) - {0, 5, 10} | {4, 9, 14}, 2)


def _kinds(inp, st, stream):
    """(kind, seat) of every decision of the deal, each taken by the policy."""
    out = []
    while True:
        kind, seat, _ = decision(inp, st)
        if kind == "none":
            return out
        out.append((kind, seat))
        play_state(inp, st, stream, stop=int(st[C.B.decisions]) + 1)


def test_an_a3_a_skipped_phase_has_no_pass_decisions():
    inp = inputs(players=3, rules={"pass_schedule": "3-2-1-spread", "pass_to_self_rule": "skip"})
    st, stream = stacked(inp, dealer=2)
    kinds = _kinds(inp, st, stream)
    assert kinds[:6] == [("pass", s) for s in range(3)] * 2
    assert kinds[6:] == [("keep", 0), ("hide", 0), ("keep", 1), ("hide", 1), ("keep", 2), ("hide", 2),
                         ("declare", 0), ("declare", 1), ("declare", 2)]
    inp = inputs(players=3, rules={"pass_schedule": "3-2-1-spread"})  # wrap: three phases
    st, stream = stacked(inp, dealer=2)
    assert _kinds(inp, st, stream)[:10] == [("pass", s) for s in range(3)] * 3 + [("keep", 0)]


def test_an_a6_no_declarations_without_the_declare_split():
    inp = inputs(players=3, rules={"pass_schedule": "one-pass", "split_mode": "high_only"})
    st, stream = stacked(inp, dealer=2)
    assert _kinds(inp, st, stream) == [("pass", s) for s in range(3)] + [
        ("keep", 0), ("hide", 0), ("keep", 1), ("hide", 1), ("keep", 2), ("hide", 2)]


def test_2_4_a_packet_of_the_whole_hand_is_no_decision():
    """Only one packet is possible: applied without a decision (rules the registry
    refuses, written straight into the vector)."""
    inp = inputs(players=3, rules={"pass_schedule": "1:1"})
    inp.rules[A.R_PASSES] = 7
    st, stream = stacked(inp, dealer=2)
    assert decision(inp, st)[:2] == ("keep", 0) and V.state.get(st, "decisions") == 0
    for s in range(3):
        assert hand(st, s) == mask(dealt((s - 1) % 3, 3, 2))  # every hand moved one seat left


def _after_passes(inp, rules_phases=3, n=5):
    st, stream = stacked(inp)
    play_state(inp, st, stream, stop=rules_phases * n)
    return st, stream


def test_2_4_keep_actions_are_every_five_of_the_hand_from_the_dealers_left():
    inp = inputs(rules={"pass_schedule": "one-pass"})
    st, stream = _after_passes(inp, 1)
    kind, seat, actions = decision(inp, st)
    assert (kind, seat) == ("keep", 0)
    assert len(actions) == 21 and actions == subsets([c for c in range(52) if hand(st, 0) & bit(c)], 5)


def test_an_a7_six_card_hands_keep_actions_discard_one():
    inp = inputs(rules={"hand_size": 6, "pass_schedule": "one-pass"})
    st, stream = _after_passes(inp, 1)
    kind, seat, actions = decision(inp, st)
    assert (kind, seat, len(actions)) == ("keep", 0, 6)
    assert actions == subsets([c for c in range(52) if hand(st, 0) & bit(c)], 5)


def test_2_3_4_and_5_forced_keep_discards_the_rest_then_hide_one_of_the_five():
    inp = inputs(rules={"pass_schedule": "one-pass"})
    st, stream = _after_passes(inp, 1)
    cards = [c for c in range(52) if hand(st, 0) & bit(c)]
    keep, discard = cards[:5], cards[5:]
    events = step(inp, st, stream, mask(keep))
    assert [tuple(int(x) for x in e) for e in events] == [(C.EV_DISCARD, 0, c, 0, 0) for c in by_bit(discard)]
    assert int(V.state.view(st, "kept")[0]) == mask(keep)
    kind, seat, actions = decision(inp, st)
    assert (kind, seat, actions) == ("hide", 0, sorted(keep))
    hidden = keep[2]
    assert step(inp, st, stream, hidden).shape[0] == 0  # nothing shows until the roll
    assert int(V.state.view(st, "hole")[0, 0]) == hidden
    assert V.state.view(st, "up")[0].tolist() == by_bit([c for c in keep if c != hidden])
    assert decision(inp, st)[:2] == ("keep", 1)


def test_2_3_6_the_dealer_stacks_last_then_four_rolls_and_the_showdown_of_the_five():
    inp = inputs(rules={"pass_schedule": "one-pass"})
    st, stream = _after_passes(inp, 1)
    rolls = []
    for s in range(5):
        cards = [c for c in range(52) if hand(st, s) & bit(c)]
        assert decision(inp, st)[:2] == ("keep", s)
        step(inp, st, stream, mask(cards[:5]))
        assert decision(inp, st)[:2] == ("hide", s)
        rolls = step(inp, st, stream, cards[0])  # the events after the dealer's stack
    assert [tuple(int(x) for x in e[:4]) for e in rolls if e[0] == C.EV_ROLL] == [
        (C.EV_ROLL, s, int(V.state.view(st, "up")[s, j]), j + 1) for j in range(4) for s in range(5)]
    assert decision(inp, st) == ("declare", 0, [0, 1, 2])
    for s in range(5):
        cards = [c for c in range(52) if int(V.state.view(st, "kept")[s]) & bit(c)]
        assert int(V.state.view(st, "shown")[s]) == mask(cards[1:])
        assert int(V.state.view(st, "high")[s]) == evaluate_high(cards)
    played = play_state(inp, st, stream, forced=1)  # seat 0 declares LOW
    assert played.finished and int(V.result.view(played.result, "declared")[0]) == 1


def test_2_4_hiding_among_the_five_kept_is_the_joint_keep_and_hide_choice():
    """The HIDE decision's policy picks among the five kept cards; that must be the
    card the policy's joint keep-and-hide choice on the full hand hides, for every
    preset and hand size, wild or not."""
    from analyzer.evaluate import _tables
    from kernels.pass_policies import choose_keep

    t = _tables()
    rng = np.random.default_rng(24)
    specs = ["heuristic", "high", "low", "heuristic:hide_rule=1", "heuristic:aim=2,low_max=7", "random_pass_best_high",
             "heuristic:hide_rule=0.5"]
    for trial in range(3000):
        hand_size = 6 + trial % 2
        howdy = trial % 3 == 0
        policy = V.policy_vector(specs[trial % len(specs)])
        cards = rng.choice(52, hand_size, replace=False)
        hand = np.uint64(0)
        for c in cards:
            hand |= np.uint64(bit(int(c)))
        kept, hidden = choose_keep(t, policy, hand, hand_size, howdy, 0)
        again, hidden_again = choose_keep(t, policy, kept, 5, howdy, 0)
        assert again == kept and hidden_again == hidden


def test_the_card_hidden_of_five_is_the_keep_and_hide_choice_on_those_five():
    """``hide_of_five`` (the HIDE decision, which skips the keep) hides what
    ``choose_keep`` on a hand of five hides, for every preset, aim and hide rule,
    wild or not; random fives, and fives of a few ranks or mostly one suit, where
    the aim and the hidden card hang on ties."""
    from analyzer.evaluate import _tables
    from kernels.pass_policies import choose_keep, hide_of_five

    t = _tables()
    rng = np.random.default_rng(77)
    pools = [list(range(52)), [4 * r + s for r in (12, 0, 1, 2, 11) for s in range(4)],
             [4 * r for r in range(13)] + [4 * r + 1 for r in (0, 5, 12)]]
    specs = ["heuristic", "high", "low", "heuristic:hide_rule=1", "heuristic:hide_rule=0", "heuristic:hide_rule=0.5",
             "heuristic:aim=2,low_max=6", "heuristic:aim=2,low_max=13", "random_pass_best_high",
             "heuristic:draw_weight=0"]
    for trial in range(3000):
        howdy = trial % 3 == 0
        spec = specs[trial % len(specs)]
        policy = V.policy_vector(spec)
        pool = pools[trial % len(pools)]
        five = np.uint64(mask([int(c) for c in rng.choice(pool, 5, replace=False)]))
        kept, hidden = choose_keep(t, policy, five, 5, howdy, 0)
        assert kept == five
        assert hide_of_five(t, policy, five, howdy) == hidden, (spec, howdy, hex(five))


def _shown_value(rest, aim_low, low_max, draw_weight):
    """What four cards shown are worth to a natural hand, written out: aiming low, the
    lowest five different values up to ``low_max`` (ace 1) held, plus a tenth of the
    sum of ``(14 - v) / 70`` over them; aiming high, the high strength's bits from 12
    up over 256, plus the draw weight times 0.1 a card of the longest suit past two
    and 0.08 a rank of the best five in a row past two (the ace also low)."""
    if aim_low:
        values = sorted({v for v in (1 if c // 4 == 12 else c // 4 + 2 for c in rest) if v <= low_max})
        count, tiebreak = 0, 0.0
        for v in values[:5]:
            count += 1
            tiebreak += (14 - v) / 70.0
        return count + 0.1 * tiebreak
    longest_suit = max(sum(1 for c in rest if c % 4 == s) for s in range(4))
    ranks = {c // 4 + 1 for c in rest} | ({0} if any(c // 4 == 12 for c in rest) else set())  # 0: the ace low
    run = max(len(ranks & set(range(low, low + 5))) for low in range(10))
    bonus = 0.1 * max(0, longest_suit - 2) + 0.08 * max(0, run - 2)
    return (int(evaluate_high(rest)) >> 12) * (1.0 / 256.0) + draw_weight * bonus


def test_the_card_hidden_is_the_strongest_or_weakest_by_what_the_other_four_show():
    """``hide_card`` without wild cards against its rule written out: of the five (in
    mask-bit order), the first card whose four others show the least (hiding my
    strongest) or the most (my weakest) for the aim, the values worked out by the
    same float operations from the public evaluator. Random fives, and fives of few
    ranks or mostly one suit, where values tie."""
    from analyzer.evaluate import _tables
    from kernels.pass_policies import HIDE_RULE, hide_card
    from kernels.policies import AIM_HIGH, AIM_LOW, DRAW_WEIGHT, LOW_MAX

    t = _tables()
    rng = np.random.default_rng(91)
    pools = [list(range(52)), [4 * r + s for r in (12, 0, 1, 2, 11) for s in range(4)],
             [4 * r for r in range(13)] + [4 * r + 1 for r in (0, 5, 12)]]
    policies = [V.policy_vector(f"heuristic:hide_rule={h},draw_weight={w},low_max={m}")
                for h in (0, 1) for w in (0, 1, 0.37) for m in (6, 8, 13)]
    for trial in range(3000):
        policy = policies[trial % len(policies)]
        five = by_bit([int(c) for c in rng.choice(pools[trial % len(pools)], 5, replace=False)])
        for aim in (AIM_HIGH, AIM_LOW):
            shown = [_shown_value([c for c in five if c != gone], aim == AIM_LOW, int(policy[LOW_MAX]),
                                  float(policy[DRAW_WEIGHT])) for gone in five]
            score = [-v for v in shown] if policy[HIDE_RULE] == 1 else shown
            expected = five[score.index(min(score))]
            assert hide_card(t, policy, np.uint64(mask(five)), aim, False) == bit(expected), (five, aim, shown)


def test_keep_five_keeps_the_best_five_for_its_aim_by_the_rule_written_out():
    """``keep_five`` without wild cards against its rule written out over every five,
    each five's high and low from the public evaluators: the adaptive aim is low when
    the best low five is unpaired and topped by at most ``low_max`` (ace 1); the best
    five for the aim is kept, ties broken by the other side, then by the first five
    in the order of the discards (lowest mask bits first). Random hands, and hands
    from a few ranks or mostly one suit, where equal fives abound."""
    from analyzer.evaluate import _tables
    from kernels.pass_policies import keep_five
    from kernels.policies import AIM, AIM_ADAPTIVE, AIM_HIGH, AIM_LOW, LOW_MAX

    t = _tables()
    rng = np.random.default_rng(55)
    pools = [list(range(52)),
             [4 * r + s for r in (12, 0, 1) for s in range(4)],  # aces, deuces, treys
             [4 * r + s for r in (0, 1, 2, 3, 12) for s in range(4)],
             [4 * r + s for r in (8, 9, 10, 11, 12) for s in range(4)],
             [4 * r for r in range(13)] + [4 * r + 1 for r in (0, 5, 12)]]  # a suit and three more
    policies = [V.policy_vector(spec) for spec in
                ("heuristic", "heuristic:low_max=6", "heuristic:low_max=13", "high", "low")]

    def low_value_of(code):
        return 1 if code // 4 == 12 else code // 4 + 2

    for trial in range(1500):
        pool = pools[trial % len(pools)]
        size = 5 + trial % 3
        cards = by_bit([int(c) for c in rng.choice(pool, size, replace=False)])
        fives = [[c for c in cards if c not in gone] for gone in combinations(cards, size - 5)]
        highs = evaluate_high(np.array(fives, np.uint8))
        lows = evaluate_low(np.array(fives, np.uint8))
        best_low = fives[int(np.argmax(lows))]
        unpaired = len({c // 4 for c in best_low}) == 5
        for policy in policies:
            aim = int(policy[AIM])
            if aim == AIM_ADAPTIVE:
                low_enough = unpaired and max(low_value_of(c) for c in best_low) <= policy[LOW_MAX]
                aim = AIM_LOW if low_enough else AIM_HIGH
            order = [(int(lows[i]), int(highs[i])) if aim == AIM_LOW else (int(highs[i]), int(lows[i]))
                     for i in range(len(fives))]
            best = order.index(max(order))  # the first of the best
            assert keep_five(t, policy, np.uint64(mask(cards)), size, False, 0) == (mask(fives[best]), aim)


def test_the_discards_aiming_high_are_those_of_the_first_strongest_five():
    """``_high_discards`` reads ``keep_five``'s two discards aiming high at seven
    cards off the best five's ranks, with no five evaluated: its five must be the
    first five (in the order of the discards) of those as strong as the hand, ties
    broken by the low, each five's high and low from the public evaluators. 4,000
    hands from the whole deck, from few ranks (trips, full houses, quads) and from
    mostly one suit (flushes, straight flushes)."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import mask_key, plain_high
    from kernels.pass_policies import _high_discards

    t = _tables()
    rng = np.random.default_rng(77)
    pools = [list(range(52)),
             [4 * r + s for r in (12, 11, 5) for s in range(4)],  # aces, kings, sevens
             [4 * r + s for r in (0, 1, 2, 3, 4, 9) for s in range(4)],
             [4 * r + 2 for r in range(13)] + [4 * r + 3 for r in (0, 4, 8, 12)]]  # a suit and four more
    for trial in range(4000):
        cards = by_bit([int(c) for c in rng.choice(pools[trial % len(pools)], 7, replace=False)])
        fives = [[c for c in cards if c not in gone] for gone in combinations(cards, 2)]
        order = list(zip(evaluate_high(np.array(fives, np.uint8)).tolist(),
                         evaluate_low(np.array(fives, np.uint8)).tolist()))
        want = mask(fives[order.index(max(order))])
        hand = np.uint64(mask(cards))
        key = mask_key(t, hand)
        assert hand & ~np.uint64(_high_discards(hand, key, plain_high(t, key, hand))) == want, cards


def test_the_cards_a_hand_can_lose_and_keep_its_unpaired_low_are_read_off_its_ranks():
    """``keep_five``'s pool at an unpaired low, ``_free_low_cards`` with every value
    counted and none spited: the cards of seven holding five ranks or more that the
    hand can lose alone and keep its ace-to-five low must be those whose loss leaves
    the public evaluator's low as it is, for 3,000 hands (low cards, pairs among
    them)."""
    from kernels.pass_policies import _free_low_cards

    rng = np.random.default_rng(78)
    pools = [list(range(52)), [4 * r + s for r in (12, 0, 1, 2, 3, 4, 5) for s in range(4)]]
    checked = 0
    for trial in range(3000):
        cards = by_bit([int(c) for c in rng.choice(pools[trial % 2], 7, replace=False)])
        if len({c // 4 for c in cards}) < 5:
            continue
        rests = [[c for c in cards if c != gone] for gone in cards]
        lows = evaluate_low(np.array(rests, np.uint8)).tolist()
        want = mask([gone for gone, low in zip(cards, lows) if low == int(evaluate_low(cards))])
        assert _free_low_cards(np.uint64(mask(cards)), 13, 0) == want, cards
        checked += 1
    assert checked > 2_000


def test_the_keep_s_aim_from_the_ranks_is_the_aim_from_the_best_low():
    """``_aim_by_ranks`` (``keep_five``'s aim without a low lookup) must be the aim
    ``_aim_for_low`` reads off the hand's best low from the table, for hands of five
    to seven natural cards (random, and of low cards with pairs), every aim and low
    limits whole, fractional and out of the cards' range."""
    from analyzer.evaluate import _tables
    from kernels.evaluate import mask_key, plain_low
    from kernels.pass_policies import _aim_by_ranks, _aim_for_low
    from kernels.policies import AIM, LOW_MAX

    t = _tables()
    rng = np.random.default_rng(79)
    pools = [list(range(52)), [4 * r + s for r in (12, 0, 1, 2, 3, 4, 5) for s in range(4)]]
    policy = V.policy_vector("heuristic")
    for trial in range(6000):
        cards = np.uint64(mask([int(c) for c in rng.choice(pools[trial % 2], 5 + trial % 3, replace=False)]))
        policy[AIM] = (0, 1, 2, 2, 2)[trial % 5]
        policy[LOW_MAX] = (0, 1, 5, 6.5, 7, 8, 13, 14)[trial % 8]
        assert _aim_by_ranks(policy, cards) == _aim_for_low(policy, plain_low(t, mask_key(t, cards))), hex(cards)


def _random_hands(rng, count, size):
    hands = []
    for _ in range(count):
        hand = np.uint64(0)
        for c in rng.choice(52, size, replace=False):
            hand |= np.uint64(bit(int(c)))
        hands.append(hand)
    return hands


def _share_is(hits, n, p):
    """|z| <= 4.5 for a binomial share (a false failure about once in 150,000 runs)."""
    return abs(hits - n * p) <= 4.5 * (n * p * (1 - p)) ** 0.5


def test_a_mixed_hide_rule_hides_the_weakest_in_that_share_of_hands_fixed_by_the_kept_five():
    """hide_rule=0.3 keeps what 0 and 1 keep, and hides what 1 hides exactly when the
    kept five's draw is below 0.3, else what 0 hides; the draws are uniform."""
    from analyzer.evaluate import _tables
    from kernels.pass_policies import HIDE_SALT, choose_keep, mix_draw

    t = _tables()
    rng = np.random.default_rng(31)
    strongest, weakest, mixed = (V.policy_vector(f"heuristic:hide_rule={x}") for x in (0, 1, 0.3))
    n, below, differ = 4000, 0, 0
    for hand in _random_hands(rng, n, 7):
        k0, h0 = choose_keep(t, strongest, hand, 7, False, 0)
        k1, h1 = choose_keep(t, weakest, hand, 7, False, 0)
        km, hm = choose_keep(t, mixed, hand, 7, False, 0)
        assert k0 == k1 == km
        u = mix_draw(km, HIDE_SALT)
        assert 0.0 <= u < 1.0
        assert hm == (h1 if u < 0.3 else h0)
        below += u < 0.3
        differ += h0 != h1
    assert _share_is(below, n, 0.3)
    assert differ > n * 0.9  # the two rules hide different cards in almost every hand


def test_a_fractional_adaptive_count_mixes_the_aim_by_the_hand():
    """adaptive_low_count=3.4 aims as 4 does for the hands whose draw is below 0.4, as
    3 does for the rest; a whole count is that count exactly."""
    from kernels.pass_policies import AIM_SALT, mix_draw, mixed_count, pass_aim

    rng = np.random.default_rng(32)
    three, four, mixed = (V.policy_vector(f"heuristic:aim=2,adaptive_low_count={x}") for x in (3, 4, 3.4))
    n, below = 4000, 0
    for hand in _random_hands(rng, n, 7):
        u = mix_draw(hand, AIM_SALT)
        assert pass_aim(mixed, hand) == pass_aim(four if u < 0.4 else three, hand)
        assert mixed_count(3.0, hand, AIM_SALT) == 3.0
        below += u < 0.4
    assert _share_is(below, n, 0.4)
    draws = np.array([mix_draw(h, AIM_SALT) for h in _random_hands(rng, 20_000, 5)])
    counts = np.histogram(draws, bins=10, range=(0, 1))[0]
    assert all(_share_is(c, 20_000, 0.1) for c in counts)


RESUME_CASES = [
    (5, None, "heuristic"),
    (4, {"wild": "howdy_doody", "pass_schedule": "left-right-left"}, "random_pass_best_high"),
    (3, {"pass_schedule": "3-2-1-spread", "pass_to_self_rule": "skip", "declare_mode": "sequential"},
     {0: "random_pass_best_high", "all": "heuristic"}),
    (8, {"hand_size": 6, "split_mode": "high_and_right_neighbour"}, "heuristic:hide_rule=1"),
]


@pytest.mark.parametrize("case", range(len(RESUME_CASES)))
def test_a_deal_stopped_anywhere_and_played_on_from_copies_ends_the_same(case):
    n, rules, policies = RESUME_CASES[case]
    inp = inputs(players=n, rules=rules, policies=policies)
    rng = np.random.default_rng(case)
    for seed in range(25):
        dealer = seed % n
        st = new_state(inp, dealer)
        whole = play_state(inp, st, new_stream(seed, 7))
        total = int(st[C.B.decisions])
        stop = int(rng.integers(0, total))  # before one of the deal's decisions
        st = new_state(inp, dealer)
        stream = new_stream(seed, 7)
        first = play_state(inp, st, stream, stop=stop)
        assert int(st[C.B.decisions]) == stop and not first.finished
        st2, stream2 = st.copy(), stream.copy()
        play_state(inp, st, stream)  # the original plays on too: the copies must not share it
        rest = play_state(inp, st2, stream2)
        assert rest.finished
        assert np.array_equal(rest.result, whole.result)
        assert np.array_equal(np.concatenate([first.events, rest.events]), whole.events)
        assert int(st2[C.B.events]) == whole.events.shape[0]
