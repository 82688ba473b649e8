"""An Anaconda table described from my chair (analyzer.table.anaconda): equity
against independent Monte Carlos on eval7, a table whose answer is exact, the
unknown cards dealt only from the unseen ones, the first decision of each stage,
and every impossible table refused with its message."""

import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.cards import parse_cards
from analyzer.cli import main
from analyzer.engine import decision, new_stream, play_state
from analyzer.equity import equity
from analyzer.errors import WantitError
from analyzer.table import Table, load_table, table_from_flags, table_state
from analyzer.variants import get_variant
from kernels.cards import card_bit
from kernels.games import anaconda as A
from kernels.games import common as C

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
V = get_variant("anaconda")
NAMES = "23456789TJQKA"


def codes(text):
    return [int(c) for c in parse_cards(text, allow_empty=True)]


def mask(cards):
    return sum(int(card_bit(c)) for c in (codes(cards) if isinstance(cards, str) else cards))


def cards_of(m):
    return {c for c in range(52) if int(card_bit(c)) & int(m)}


def _eval7_deck():
    import eval7

    return [eval7.Card(NAMES[c >> 2] + "cdhs"[c & 3]) for c in range(52)]


def high_only_share(hands, me):
    """My share of a high-only pot among hands of 5 or 7 cards (best five), ties shared."""
    import eval7

    deck = _eval7_deck()
    values = [eval7.evaluate([deck[c] for c in h]) for h in hands]
    best = max(values)
    winners = [s for s, x in enumerate(values) if x == best]
    return 1.0 / len(winners) if me in winners else 0.0


def independent_share(known, sizes, me, trials, seed, schedule=(), excluded=()):
    """A plain Monte Carlo of my high-only share: every seat's missing cards (up to
    ``sizes[s]``) random from the cards nobody has placed, then ``schedule``'s passes
    made with uniformly random packets (``(cards, seats to the left)``, simultaneous),
    then every seat's best five of what it holds."""
    rng = np.random.default_rng(seed)
    n = len(sizes)
    used = {c for cards in known for c in cards} | set(excluded)
    unseen = np.array([c for c in range(52) if c not in used])
    total = 0.0
    for _ in range(trials):
        draw = iter(rng.permutation(unseen))
        hands = [list(known[s]) + [int(next(draw)) for _ in range(sizes[s] - len(known[s]))] for s in range(n)]
        for count, offset in schedule:
            packets = [list(rng.choice(h, count, replace=False)) for h in hands]
            hands = [[c for c in h if c not in p] for h, p in zip(hands, packets)]
            for s in range(n):
                hands[(s + offset) % n] += packets[s]
        total += high_only_share(hands, me)
    return total / trials


def agree(r, theirs, trials, me=0):
    ours, se = r.seats.share[me], r.seats.share_se[me]
    their_se = np.sqrt(max(theirs * (1 - theirs), 0.01) / trials)
    assert abs(ours - theirs) < 4.5 * np.hypot(se, their_se), (ours, theirs, se, their_se)
    assert abs(r.seats.share.sum() - 1.0) < 1e-9 and abs(r.seats.ev.sum()) < 1e-9


# ---------------------------------------------------------------- (1) an independent Monte Carlo agrees

# Dealt As Ks Qs 2c 3d 5h 7d; pass 1 (three to the left): 2c 3d 5h to seat 1, Js 9h 4c
# from seat 4; pass 2 (two to the right): 7d 4c to seat 4, 9d Tc from seat 1.
AFTER = dict(hole={0: "As Ks Qs Js 9h 9d Tc"}, passed=["2c 3d 5h", "7d 4c"],
             received=["Js 9h 4c", "9d Tc"])


def replayed_share(mine, fixed, placed, n, me, trials, seed, schedule):
    """A plain Monte Carlo of the replayed passes (high only, best five of seven):
    my hand as dealt (``mine``), each ``placed[seat]`` dealt to that seat and the rest
    of the others' hands at random; then the ``schedule``'s passes, simultaneous, the
    packets ``fixed[(pass, seat)]`` as given and every other packet uniformly random
    among the seat's cards it does not pass later (``fixed``)."""
    rng = np.random.default_rng(seed)
    used = set(mine) | {c for cards in placed.values() for c in cards}
    unseen = np.array([c for c in range(52) if c not in used])
    total = 0.0
    for _ in range(trials):
        draw = iter(rng.permutation(unseen))
        hands = [list(mine) if s == me else list(placed.get(s, [])) for s in range(n)]
        for s in range(n):
            hands[s] += [int(next(draw)) for _ in range(7 - len(hands[s]))]
        for k, (count, offset) in enumerate(schedule):
            packets = []
            for s in range(n):
                if (k, s) in fixed:
                    packets.append(list(fixed[(k, s)]))
                    continue
                later = {c for (j, t), cards in fixed.items() if t == s and j > k for c in cards}
                free = [c for c in hands[s] if c not in later]
                packets.append([int(c) for c in rng.choice(free, count, replace=False)])
            hands = [[c for c in h if c not in p] for h, p in zip(hands, packets)]
            for s in range(n):
                hands[(s + offset) % n] += packets[s]
        total += high_only_share(hands, me)
    return total / trials


def test_after_the_passes_they_are_replayed_my_packets_as_given_the_others_at_random():
    # Pass 1 three to the left, pass 2 two to the right. My hand as dealt: As Ks Qs
    # 2c 3d 5h 7d (what I hold, less what I received, plus what I passed). Seat 4
    # passed me Js 9h 4c and seat 1 passed me 9d Tc: each was dealt them, and kept
    # 9d Tc through pass 1. Every other packet random (random_pass_best_high).
    rules = {"split_mode": "high_only", "pass_schedule": "3:1,2:-1"}
    table = Table("anaconda", players=5, dealer=4, **AFTER)
    r = equity(table, policies="random_pass_best_high", rules=rules, precision=0.004, seed=1)
    fixed = {(0, 0): codes("2c 3d 5h"), (1, 0): codes("7d 4c"), (0, 4): codes("Js 9h 4c"), (1, 1): codes("9d Tc")}
    placed = {4: codes("Js 9h 4c"), 1: codes("9d Tc")}
    theirs = replayed_share(codes("As Ks Qs 2c 3d 5h 7d"), fixed, placed, 5, 0, trials=20_000, seed=2,
                            schedule=[(3, 1), (2, -1)])
    agree(r, theirs, 20_000)
    assert r.meta["reached_precision"] and r.meta["unseen"] == 40


def test_before_the_first_pass_random_passes_then_the_best_high_five():
    # Random passes: the kernel's packets against the test's own, 3-2-1 to the left.
    rules = {"split_mode": "high_only"}
    table = Table("anaconda", players=4, dealer=3, hole={0: "Ah Ad Kc Kd 7s 4h 2c"})
    r = equity(table, policies="random_pass_best_high", rules=rules, precision=0.004, seed=4)
    known = [codes("Ah Ad Kc Kd 7s 4h 2c"), [], [], []]
    theirs = independent_share(known, [7] * 4, 0, trials=20_000, seed=5, schedule=[(3, 1), (2, 1), (1, 1)])
    agree(r, theirs, 20_000)


def test_in_the_roll_the_unknown_stack_cards_are_random_unseen_cards():
    rules = {"split_mode": "high_only"}
    up = {0: "Th Td", 1: "Ac Ad", 2: "5s 6s"}
    table = Table("anaconda", players=3, dealer=2, hole={0: "Kh Kd 2s"}, up=up, gone="3c 4c", phase="roll")
    r = equity(table, rules=rules, precision=0.004, seed=6)
    known = [codes("Th Td Kh Kd 2s"), codes("Ac Ad"), codes("5s 6s")]
    theirs = independent_share(known, [5] * 3, 0, trials=20_000, seed=7, excluded=codes("3c 4c"))
    agree(r, theirs, 20_000)
    # The output says so: the others did not keep these stacks by their policies.
    assert "in the roll the others' unknown stack cards are dealt at random" in r.meta["model"]
    assert "(note: in the roll the others' unknown stack cards" in r.format_table()


def test_the_high_presets_keep_the_best_high_five():
    """What the independent Monte Carlos assume: ``high`` and ``random_pass_best_high``
    keep the best high five of seven (eval7's best-of-7 value)."""
    import eval7

    deck = _eval7_deck()
    rng = np.random.default_rng(8)
    for preset in ("high", "random_pass_best_high"):
        inp = V.inputs(5, policies=preset, rules={"split_mode": "high_only"})
        for deal in range(40):
            seven = [int(c) for c in rng.choice(52, 7, replace=False)]
            table = Table("anaconda", players=5, dealer=4, hole={0: seven}, phase="keep")
            played = play_state(inp, table_state(inp, table), new_stream(9, deal), stop=1)  # seat 0 has kept
            kept = cards_of(A.STATE.view(played.state, "kept")[0])
            assert len(kept) == 5 and kept <= set(seven)
            assert eval7.evaluate([deck[c] for c in kept]) == eval7.evaluate([deck[c] for c in seven])


# ---------------------------------------------------------------- (2) exact answers

def test_every_stack_known_in_the_roll_has_an_exact_answer():
    table = Table("anaconda", players=3, dealer=2, up={0: "Ts Js Qs", 1: "Ah Ad Ac", 2: "2c 2d 2h"},
                  hole={0: "Ks As", 1: "Kd Kc", 2: "3s 3h"}, gone="4c 5c 6c 7c 8c 9c", phase="roll")
    r = equity(table, rules={"split_mode": "high_only"})
    assert r.seats.share.tolist() == [1.0, 0.0, 0.0]
    assert r.seats.share_se.tolist() == [0.0, 0.0, 0.0]
    assert r.seats.ev.tolist() == [2.0, -1.0, -1.0]
    assert r.meta["deals"] == 4_000  # stopped at the first check: nothing left to chance
    assert "model" not in r.meta  # no stack card is dealt


def test_every_hand_known_after_the_passes_with_a_fixed_field_is_the_best_of_seven_showdown():
    hands = {0: "2c 3c 4c 5c 6c Kd Kh", 1: "As Ah Ad Ac 7s 8s 9s", 2: "Ts Js Qs Ks 2d 3d 4d"}
    table = Table("anaconda", players=3, dealer=2, hole=hands, phase="keep")
    r = equity(table, policies="high", rules={"split_mode": "high_only"})
    assert r.seats.share.tolist() == [1.0, 0.0, 0.0] and r.seats.share_se.tolist() == [0.0] * 3
    assert high_only_share([codes(hands[s]) for s in range(3)], 0) == 1.0


# ---------------------------------------------------------------- (3) the unknown cards

def test_the_unknown_cards_are_dealt_from_the_unseen_ones_afresh_each_deal():
    inp = V.inputs(5)
    table = load_table(EXAMPLES / "anaconda.toml")
    st = table_state(inp, table)
    mine = codes("As Ks Qs 9s 4s 8d 8h")
    # The deal as dealt (the first pass is replayed in play): my hand then, Qs 8d 8h dealt to seat 4.
    assert A.STATE.view(st, "hand")[0] == mask("As Ks 9s 4s 2c 3d 7h") and A.STATE.get(st, "replay_to") == 1
    assert A.STATE.get(st, "pass_phase") == 0 and st[C.B.phase] == A.PH_PASS_PHASE
    others = set()
    for deal in range(60):
        played = play_state(inp, st.copy(), new_stream(3, deal), stop=0)  # dealt, pass 1 replayed, no pass made
        received = A.STATE.view(played.state, "received")
        assert int(received[1, 0]) == mask("2c 3d 7h")  # seat 1 got my packet from me
        assert int(received[0, 4]) == mask("Qs 8d 8h")  # and I got seat 4's
        assert all(len(cards_of(received[(s + 1) % 5, s])) == 3 for s in range(5))  # and each seat its right's
        assert int(np.count_nonzero(received)) == 5
        hands = [cards_of(m) for m in A.STATE.view(played.state, "hand")[:5]]
        assert [len(h) for h in hands] == [7] * 5
        assert len(set().union(*hands)) == 35  # nobody holds a card twice
        assert hands[0] == set(mine) and set(codes("2c 3d 7h")) <= hands[1]
        assert not set(codes("Qs 8d 8h")) & set().union(*hands[1:])
        others |= hands[2] | hands[3] | hands[4]
    assert len(others) > 35  # the unknown cards differ from deal to deal


def test_in_the_roll_the_unknown_stack_cards_fill_the_stacks_and_their_masks():
    inp = V.inputs(4)
    table = Table("anaconda", players=4, dealer=3, up={s: u for s, u in enumerate(["Ah", "2c", "Kd", "7s"])},
                  hole={0: "Ad Ac As 3h", 2: "?? ?? ?? Kc"}, gone="Qh Qd")
    st = table_state(inp, table)
    known = set(codes("Ah 2c Kd 7s Ad Ac As 3h Kc Qh Qd"))
    stacks = set()
    for deal in range(40):
        played = play_state(inp, st.copy(), new_stream(4, deal), stop=0)
        ups = A.STATE.view(played.state, "up")[:4]
        holes = A.STATE.view(played.state, "hole")[:4, 0]
        kept = A.STATE.view(played.state, "kept")[:4]
        for s in range(4):
            assert cards_of(kept[s]) == set(ups[s].tolist()) | {int(holes[s])}
        every = ups.ravel().tolist() + holes.tolist()
        assert len(set(every)) == 20 and not set(codes("Qh Qd")) & set(every)
        assert ups[0].tolist() == codes("Ah Ad Ac As") and holes[0] == codes("3h")[0]
        assert holes[2] == codes("Kc")[0] and ups[2, 0] == codes("Kd")[0]
        assert int(A.STATE.view(played.state, "shown")[1]) & mask("2c")
        stacks |= set(every) - known
    assert len(stacks) > 25


# ---------------------------------------------------------------- (4) the first decision of each stage

@pytest.mark.parametrize("table,rules,expect", [
    # Before a pass every seat chooses a packet, seat 0 first (whatever my seat).
    (dict(hole={2: "As Ks Qs Js 2c 3d 4h"}, me=2), {}, ("pass", 0, 35)),
    (dict(hole={0: "As Ks Qs 9s 4s 8d 8h"}, passed=["2c 3d 7h"], received=["Qs 8d 8h"]), {}, ("pass", 0, 21)),
    (dict(hole={0: "As Ks Qs 9s 4s 8d 8h"}, phase="pass 3"), {}, ("pass", 0, 7)),
    # The passes done: the keeps from the dealer's left.
    (dict(**AFTER), {"pass_schedule": "3:1,2:-1"}, ("keep", 0, 21)),
    (dict(hole={0: "As Ks Qs 9s 4s 8d"}, phase="keep"), {"hand_size": 6}, ("keep", 0, 6)),
    # I have kept five: my stack order (the hide) is still mine to choose.
    (dict(hole={0: "As Ks Qs 9s 4s"}, gone="2c 3d"), {}, ("hide", 0, 5)),
    (dict(hole={2: "As Ks Qs 9s 4s"}, gone="2c 3d", me=2), {}, ("keep", 0, 21)),
    # The stacks rolled: declarations, from the dealer's left.
    (dict(up={s: [c] for s, c in enumerate("Ah 2c Kd 7s 9h".split())}, hole={0: "As Ks Qs 9s"}), {},
     ("declare", 0, 3)),
])
def test_the_first_decision_is_the_right_kind_at_the_right_seat(table, rules, expect):
    inp = V.inputs(5, rules=rules)
    st = table_state(inp, Table("anaconda", players=5, dealer=4, **table))
    played = play_state(inp, st, new_stream(0, 0), stop=0)
    kind, seat, actions = decision(inp, played.state)
    assert (kind, seat, len(actions)) == expect
    if kind in ("pass", "keep") and seat == table.get("me", 0):
        hand = A.STATE.view(played.state, "hand")[seat]
        assert all(a & ~int(hand) == 0 for a in actions)


def test_a_phase_skipped_at_the_table_does_not_count():
    # Three players: a pass three seats to the left reaches the passer, and AN-A3 "skip" drops it.
    rules = {"pass_schedule": "1:3,2:1", "pass_to_self_rule": "skip"}
    inp = V.inputs(3, rules=rules)
    st = table_state(inp, Table("anaconda", players=3, hole={0: "As Ks Qs Js 2c 3d 4h"}, phase="pass 1"))
    assert A.STATE.get(st, "pass_phase") == 1
    kind, seat, actions = decision(inp, play_state(inp, st, new_stream(0, 0), stop=0).state)
    assert (kind, seat, len(actions)) == ("pass", 0, 21)
    with pytest.raises(WantitError, match="this table makes 1 pass "):
        table_state(inp, Table("anaconda", players=3, phase="pass 2"))


def test_every_seat_has_the_pass_history_its_spite_reads_consistent_with_its_cards():
    # Before pass 3 of left-right-left the passes are replayed: after them every seat
    # holds seven, every card once; what each seat was passed is in its hand unless
    # it passed it on in pass 2; and each seat's record holds what it passed and was
    # passed (before the replay it held only what involved me, so the others' spite
    # in pass 3, which reads what the recipient passed them in pass 2, saw nothing).
    inp = V.inputs(5, rules={"pass_schedule": "left-right-left"})
    table = Table("anaconda", players=5, dealer=4, hole={0: "As Ks Qs Js 9h 9d Tc"}, passed=AFTER["passed"],
                  received=AFTER["received"])
    st = table_state(inp, table)
    assert A.STATE.get(st, "pass_phase") == 0 and A.STATE.get(st, "replay_to") == 2
    for deal in range(20):
        played = play_state(inp, st.copy(), new_stream(3, deal), stop=0)
        assert decision(inp, played.state)[:2] == ("pass", 0)
        assert A.STATE.get(played.state, "pass_phase") == 2
        assert played.events[:, [0, 3]].tolist() == [[C.EV_PASS_PHASE, 3]]  # the replayed passes leave no events
        hands = [cards_of(m) for m in A.STATE.view(played.state, "hand")[:5]]
        got = A.STATE.view(played.state, "received")
        assert all(len(h) == 7 for h in hands) and len(set().union(*hands)) == 35
        assert hands[0] == set(codes("As Ks Qs Js 9h 9d Tc"))
        assert got[1, 0] == mask("2c 3d 5h") and got[4, 0] == mask("7d 4c")
        assert got[0, 4] == mask("Js 9h 4c") and got[0, 1] == mask("9d Tc")
        for s in range(1, 5):
            left, right = (s + 1) % 5, (s - 1) % 5
            assert len(cards_of(got[left, s])) == 3 and len(cards_of(got[right, s])) == 2  # pass 1 left, 2 right
            passed_on = cards_of(got[right, s])
            assert cards_of(got[s, right]) - passed_on <= hands[s]  # pass 1's cards, unless passed on in pass 2
            assert cards_of(got[s, left]) <= hands[s]
        # Pass 3 goes left: each seat's spite reads what its recipient passed it in pass 2 (to the right).
        assert all(len(cards_of(got[s, (s + 1) % 5])) == 2 for s in range(1, 5))


def text(cards):
    return " ".join("23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in sorted(cards))


@pytest.mark.parametrize("schedule,stop", [
    ("3-2-1-left", 5), ("left-right-left", 10), ("3-2-1-spread", 15),  # before a pass, after the passes
    ("3-2-1-left", 17), ("one-pass", 9),  # seat 0 has kept (and stacked) its five
    ("3-2-1-left", 25), ("one-pass", 15),  # the stacks made and rolled: the declarations next
])
def test_a_table_described_from_a_played_deal_plays_on_as_the_deal_does(schedule, stop):
    """A deal played to a pause, then described from seat 0's chair with every hand
    known: the described table plays on to the same end (the policies without
    spite, which reads what the others passed each other, unknown to seat 0)."""
    inp = V.inputs(5, policies="heuristic:spite_weight=0", rules={"pass_schedule": schedule})
    from analyzer.engine import new_state

    deal = play_state(inp, new_state(inp, dealer=4), new_stream(11, 0), stop=stop)
    st = deal.state
    passes = [tuple(int(x) for x in e[1:5]) for e in deal.events if e[0] == C.EV_PASS]  # seat, card, to, phase
    done = max((p[3] for p in passes), default=0)
    passed = [text(c for s, c, r, ph in passes if s == 0 and ph == k) for k in range(1, done + 1)]
    received = [text(c for s, c, r, ph in passes if r == 0 and ph == k) for k in range(1, done + 1)]
    hands = {s: text(cards_of(m)) for s, m in enumerate(A.STATE.view(st, "hand")[:5])}
    if st[C.B.phase] == C.PH_DECLARE:  # the stacks rolled: describe the roll
        ups = {s: [int(c) for c in A.STATE.view(st, "up")[s]] for s in range(5)}
        holes = {s: [int(A.STATE.view(st, "hole")[s, 0])] for s in range(5)}
        table = Table("anaconda", players=5, dealer=4, up=ups, hole=holes)
    else:
        kept = cards_of(A.STATE.view(st, "kept")[0])
        if kept:  # my five and my discards
            hands[0], gone = text(kept), text(cards_of(A.STATE.view(st, "hand")[0]) - kept)
        table = Table("anaconda", players=5, dealer=4, hole=hands, passed=passed, received=received,
                      gone=gone if kept else "")
    described = table_state(inp, table)
    if st[C.B.phase] != C.PH_DECLARE:
        mine = A.STATE.view(st, "kept" if kept else "hand")[0]  # the kernel's hand keeps the discards
        assert A.STATE.view(described, "hand")[0] == mine
        assert (A.STATE.view(described, "hand")[1:] == A.STATE.view(st, "hand")[1:]).all()
        for r, s in [(r, s) for r in range(5) for s in range(5) if 0 in (r, s)]:
            assert A.STATE.view(described, "received")[r, s] == A.STATE.view(st, "received")[r, s]
    end = play_state(inp, st, new_stream(11, 0))
    again = play_state(inp, described, new_stream(12, 0))
    assert end.finished and again.finished
    assert (again.result == end.result).all()
    assert (A.STATE.view(again.state, "kept") == A.STATE.view(end.state, "kept")).all()


# ---------------------------------------------------------------- (5) impossible tables

H7 = "As Ks Qs 9s 4s 8d 8h"


@pytest.mark.parametrize("table,rules,message", [
    (dict(hole={0: "As As Ks Qs Js Ts 9s"}), {}, "card As is given twice"),
    (dict(hole={0: H7, 1: "As"}), {}, r"card As is given twice \(hole card of seat 0 and hole card of seat 1\)"),
    (dict(hole={7: H7}), {}, "hole: seat 7 is not a seat 0..4"),
    (dict(me=5), {}, "me: seat 5 is not a seat"),
    (dict(hole={0: "As Ks Qs"}), {}, r"hole\[0\]: 3 cards; a hand is 7 cards before pass 1"),
    (dict(hole={0: "As Ks Qs 9s"}), {}, "a hand between passing and receiving"),
    (dict(hole={0: "As Ks Qs 9s 4s 8d"}, phase="keep"), {}, r"you hold 7, or the 5 you kept"),
    (dict(hole={0: H7, 1: "2c 3c 4c 5c 6c 7c 8c 9c"}), {}, r"hole\[1\]: 8 cards; a hand is 7"),
    (dict(hole={0: "As Ks Qs 9s 4s 8d"}), {"hand_size": 6}, None),  # fine: a hand of six
    (dict(hole={0: H7}, passed=["2c 3d"], received=["Qs 8d 8h"]), {}, r"passed\[1\]: 2 cards; pass 1 passes 3"),
    (dict(hole={0: H7}, passed=["2c 3d 7h", "5c 6c"], received=["Qs 8d 8h"]), {},
     "received: 1 packet, but 2 passes are done"),
    (dict(hole={0: H7}, passed=["2c 3d 7h"] * 4), {}, "passed: 4 packets; this table makes 3 passes"),
    (dict(hole={0: H7}, passed=["2c 3d ??"]), {}, "you know the cards you passed"),
    (dict(hole={0: H7}, passed=["2c 3d 4s"], received=["Qs 8d 8h"]), {},
     "card 4s you passed in pass 1 is in your hand"),
    (dict(hole={0: H7}, passed=["2c 3d 7h"], received=["Qs 8d 5h"]), {},
     "card 5h you received in pass 1 is not in your hand"),
    (dict(hole={0: H7}, passed=["2c 3d 8h"], received=["Qs 8d 8h"]), {}, "card 8h is passed and received in pass 1"),
    (dict(hole={0: H7, 2: "2c"}, passed=["2c 3d 7h"], received=["Qs 8d 8h"]), {},
     r"card 2c you passed to seat 1 in pass 1 cannot have reached seat 2 \(seat 1 holds it\)"),
    (dict(hole={0: H7, 1: "5c 6c 7c 8c 9c"}, passed=["2c 3d 7h"], received=["Qs 8d 8h"]), {},
     r"hole\[1\]: seat 1 holds the 3 cards you passed it and 5 more"),
    (dict(hole={0: "?? Ks Qs 9s 4s 8d 8h"}, passed=["2c 3d 7h"], received=["Qs 8d 8h"]), {},
     "give your own cards to describe what you passed"),
    # Where the cards I passed went is for the replayed passes to say (fine); with a seat's cards given, refused.
    (dict(hole={0: "As Ks Qs Js 9h 9d Tc"}, passed=["2c 3d 5h", "7d 4c"], received=["Js 9h 4c", "9d Tc"]), {}, None),
    (dict(hole={0: "As Ks Qs Js 9h 9d Tc", 3: "Ah"}, passed=["2c 3d 5h", "7d 4c"], received=["Js 9h 4c", "9d Tc"]),
     {}, r"card 2c you passed to seat 1 in pass 1 may have been passed on since \(seat 1 or 2 holds it\): with the "
         r"other seats' cards given, the table is held as it is now .*leave out hole\[3\]"),
    (dict(hole={0: H7}, phase="pass 4"), {}, r"phase: pass 4; this table makes 3 passes \(pass 1..3\)"),
    (dict(hole={0: H7}, phase="draw"), {}, "phase 'draw': write 'pass N'"),
    (dict(hole={0: H7}, phase="pass 2"), {}, None),  # fine: the history may be left out
    (dict(hole={0: H7}, phase="pass 3", passed=["2c 3d 7h"]), {}, "passed: 1 packet, but 2 passes are done"),
    (dict(hole={0: H7}, gone="2c"), {}, "nothing is out of play before you keep five"),
    (dict(hole={0: "As Ks Qs 9s 4s"}), {}, "gone: give the 2 cards you discarded"),
    (dict(hole={0: "As Ks Qs 9s 4s"}, gone="2c ??"), {}, "a card gone from play was seen"),
    (dict(hole={0: H7}, offer="2c", to=1), {}, "Anaconda offers none"),
    (dict(hole={0: H7}, up={0: "2c"}, phase="pass 1"), {}, "turned up in the roll, once the stacks are made; before "
                                                           "pass 1 none is up"),
    (dict(up={0: "2c"}, phase="keep"), {}, "after the passes none is up"),
    (dict(up={0: "2c 3c", 1: "4c 5c", 2: "6c", 3: "7c 8c", 4: "9c Tc"}), {},
     "up: seat 2 shows 1 card and seat 0 2; every seat turns up its stack cards together"),
    (dict(up={s: ["??"] for s in range(5)}), {}, "an unknown one cannot be up"),
    (dict(up={0: "2c 3c 4c 5c 6c"}), {}, r"up\[0\]: 5 cards turned up; a stack turns up 4"),
    (dict(up={s: [c] for s, c in enumerate("2c 3c 4c 5c 6c".split())}, hole={0: "As Ks"}), {},
     r"hole\[0\]: 2 cards; a stack has 4 face down with 1 turned up"),
    (dict(up={s: [c] for s, c in enumerate("2c 3c 4c 5c 6c".split())}, hole={0: "As Ks Qs Js", 1: "Ah Kh Qh Jh Th"}),
     {}, r"hole\[1\]: 5 cards; a stack has 4 face down"),
    (dict(up={s: [c] for s, c in enumerate("2c 3c 4c 5c 6c".split())}, hole={0: "As Ks Qs Js"},
          gone="2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd"), {}, "gone: 11 cards; the 5 seats discard 10 in all"),
    (dict(up={s: [c] for s, c in enumerate("2c 3c 4c 5c 6c".split())}, hole={0: "As Ks Qs Js"},
          passed=["7c 8c 9c"]), {}, "in the roll a card you passed is in its holder's stack or among its discards"),
    (dict(up={s: [c] for s, c in enumerate("2c 3c 4c 5c 6c".split())}, hole={0: "As Ks Qs 2c"}), {},
     r"card 2c is given twice \(up card of seat 0 and hole card of seat 0\)"),
    (dict(hole={0: "As Ks Qs 9s 4s"}, gone="8d 8h", phase="roll"), {},
     "phase roll with no card turned up and the others' stacks unknown: describe it as --phase stacked"),
    (dict(hole={0: "As Ks Qs 9s 4s"}, gone="8d 8h", phase="stacked"), {}, None),
    (dict(passed="2c 3d 7h; 5c 6c", hole={0: H7}), {}, "card 2c you passed to seat 1 in pass 1 may have been passed on "
                                                        "since .*the passes are replayed only with the packets you "
                                                        "received; give received"),
])
def test_impossible_tables_are_refused_with_what_is_wrong(table, rules, message):
    inp = V.inputs(5, rules=rules)
    t = Table("anaconda", players=5, dealer=4, **table)
    if message is None:
        table_state(inp, t)
        return
    with pytest.raises(WantitError, match=message):
        table_state(inp, t)


def test_a_selection_rejection_table_has_no_passes():
    with pytest.raises(WantitError, match="a selection_rejection table has no passed .only anaconda tables have it"):
        table_state(get_variant("sr").inputs(4), Table("sr", players=4, passed=["2c 3d 7h"]))


# ---------------------------------------------------------------- the example file and the command line

def test_the_example_state_file_and_its_cli_json(capsys):
    path = EXAMPLES / "anaconda.toml"
    table = load_table(path)
    assert table.variant == "anaconda" and table.passed == ["2c 3d 7h"] and table.received == ["Qs 8d 8h"]
    main(["equity", "anaconda", "--state", str(path), "--format", "json", "--precision", "0.02"])
    data = json.loads(capsys.readouterr().out)
    assert data["meta"]["variant"] == "anaconda" and data["meta"]["exact"] is False
    assert data["meta"]["unseen"] == 52 - 7 - 3
    seats = data["seats"]
    assert [s["seat"] for s in seats] == list(range(5))
    assert abs(sum(s["share"] for s in seats) - 1) < 1e-9
    assert 1.96 * seats[0]["share_se"] < 0.02


def test_the_flags_describe_the_same_table_as_the_file(capsys):
    flags = table_from_flags("anaconda", 5, 4, 0, ["0=As Ks Qs 9s 4s 8d 8h"], passed=["2c 3d 7h"],
                             received=["Qs 8d 8h"])
    inp = V.inputs(5)
    assert (table_state(inp, flags) == table_state(inp, load_table(EXAMPLES / "anaconda.toml"))).all()
    args = ["equity", "anaconda", "--hole", "0=As Ks Qs 9s 4s 8d 8h", "--passed", "2c 3d 7h", "--received",
            "Qs 8d 8h", "--format", "json", "--precision", "0.05", "--seed", "3"]
    main(args)
    by_flags = json.loads(capsys.readouterr().out)
    main(["equity", "anaconda", "--state", str(EXAMPLES / "anaconda.toml"), "--format", "json", "--precision",
          "0.05", "--seed", "3"])
    assert json.loads(capsys.readouterr().out)["seats"] == by_flags["seats"]
    # A flag overrides the file: the passes stated done, one packet passed is one too few.
    with pytest.raises(SystemExit):
        main(["equity", "anaconda", "--state", str(EXAMPLES / "anaconda.toml"), "--phase", "keep"])
    assert "passed: 1 packet, but 3 passes are done (after the passes)" in capsys.readouterr().err


@pytest.mark.parametrize("args,message", [
    (["equity", "anaconda", "--hole", "0=As As Ks Qs Js Ts 9s"], "card As is given twice"),
    (["equity", "anaconda", "--phase", "later"], "phase 'later'"),
    (["equity", "anaconda", "--hole", "0=As Ks Qs 9s 4s 8d 8h", "--passed", "2c 3d"], r"passed[1]: 2 cards"),
])
def test_bad_anaconda_queries_are_one_line(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and message in err, err


# ---------------------------------------------------------------- the passes replayed: cards whose holder is open

def test_a_card_i_passed_is_wherever_the_replayed_passes_took_it():
    # 3-2-1 to the left, five players, every pass done: my 2c went to seat 1 in pass
    # 1. With random packets (none of seats 1-3 passes to me, so none keeps cards
    # back) seat 1 passes it on in pass 2 with chance 2/7 (two of its seven cards),
    # and whoever holds it in pass 3 passes it on with chance 1/7: it is with seat 1
    # (5/7)(6/7) = 30/49 of the time, seat 2 (5/7)(1/7) + (2/7)(6/7) = 17/49, seat 3
    # (2/7)(1/7) = 2/49.
    inp = V.inputs(5, policies="random_pass_best_high")
    table = Table("anaconda", players=5, dealer=4, hole={0: "As Ks Qs Js 9h 9d 2h"}, passed=["2c 3d 5h", "7d 4c", "Tc"],
                  received=["Js 9h 4c", "9d Tc", "2h"])
    st = table_state(inp, table)
    deals = 2000
    where = np.zeros(5)
    for deal in range(deals):
        played = play_state(inp, st.copy(), new_stream(4, deal), stop=0, trace=False)
        holders = [s for s in range(5) if int(A.STATE.view(played.state, "hand")[s]) & mask("2c")]
        assert len(holders) == 1
        where[holders[0]] += 1
    expect = np.array([0, 30, 17, 2, 0]) / 49
    se = np.sqrt(expect * (1 - expect) / deals)
    assert (np.abs(where / deals - expect) <= 4.5 * se + 1e-12).all(), where / deals


def test_a_card_passed_to_me_lies_in_any_slot_it_can_have_come_from_equally_likely():
    # Before pass 3 of 3-2-1-left: seat 4 passed me Js 9h 4c in pass 1 (dealt to it:
    # its only possible origin) and 9d Tc in pass 2, each dealt to seat 4 or to seat 3
    # (which passed seat 4 three cards in pass 1). Under --condition every placement
    # is equally likely: with Js 9h 4c in three of seat 4's seven slots, 9d lies in one
    # of the other 4 + seat 3's 7 slots: at seat 3 with chance 7/11.
    inp = V.inputs(5)
    table = Table("anaconda", players=5, dealer=4, hole={0: "As Ks Qs Js 9h 9d Tc"}, passed=["2c 3d 5h", "7d 4c"],
                  received=["Js 9h 4c", "9d Tc"])
    st = table_state(inp, table)
    S = A.STATE.at
    roaming = {int(c): int(w) for c, w in zip(A.STATE.view(st, "roam_card")[:A.STATE.get(st, "n_roam")],
                                              A.STATE.view(st, "roam_seats_wide"))}
    assert roaming == {**{c: 1 << 4 for c in codes("Js 9h 4c")}, **{c: (1 << 3) | (1 << 4) for c in codes("9d Tc")}}
    deals = 4000
    at_three = both_at_four = 0
    for deal in range(deals):
        trial = st.copy()
        assert C.place_in_unknowns(trial, new_stream(5, deal), S.roam_card, S.roam_seats_wide, S.roam_pick,
                                   A.STATE.get(st, "n_roam"), S.hand)
        hands = A.STATE.view(trial, "hand")
        assert all(int(hands[4]) & mask(c) for c in ("Js", "9h", "4c"))
        at_three += bool(int(hands[3]) & mask("9d"))
        both_at_four += bool(int(hands[4]) & mask("9d Tc") == mask("9d Tc"))
        assert int(trial[C.P.n_unknown]) == 4 * 7 - 5  # the slots they took are no longer unknown
    for seen, p in ((at_three / deals, 7 / 11), (both_at_four / deals, (4 / 11) * (3 / 10))):
        assert abs(seen - p) < 4.5 * np.sqrt(p * (1 - p) / deals), (seen, p)
    # Without --condition they were dealt to the seat that passed them to me.
    assert all(int(w) == 1 << 4 for w in A.STATE.view(st, "roam_seats")[:5])


# ---------------------------------------------------------------- --condition on the passes

# One pass of three to the left; seat 4 passed me 2c 3c 4c; I was dealt the four 5s,
# As Ks and 9h and passed 9h As Ks.
ONE_PASS = dict(players=5, dealer=4, hole={0: "5c 5d 5h 5s 2c 3c 4c"}, passed=["9h As Ks"], received=["2c 3c 4c"])


def test_condition_a_random_passer_needs_only_to_have_held_my_packet():
    # A passer of uniformly random cards passes any three of its seven one time in
    # C(7, 3) = 35, whatever it holds: every deal is as likely to have given me my
    # packet, so none is rejected for it (seat 4 was dealt it: it can have come from
    # nowhere else before the first pass), and the answer is the unconditioned one.
    table = Table("anaconda", **ONE_PASS)
    kw = dict(policies="random_pass_best_high", rules={"pass_schedule": "one-pass"}, precision=1e-4, max_deals=4000,
              seed=2)
    r = equity(table, condition=True, **kw)
    assert r.meta["conditioned"] and r.meta["deals"] == r.meta["deals_played"] == 4000
    plain = equity(table, **kw)
    assert abs(r.seats.share[0] - plain.seats.share[0]) < 4.5 * np.hypot(r.seats.share_se[0], plain.seats.share_se[0])


def passes_the_three_low_clubs(x):
    """Whether a high-aiming passer (no draw or spite weight) holding 2c 3c 4c and
    the four cards ``x`` (no 5 among them) gives away exactly 2c 3c 4c, worked by
    hand. It gives away, one at a time, the card whose loss leaves the best value of
    what stays (the category and the top two ranks of its best hand); among equal
    values the first in its card order (clubs 2..A, then diamonds, hearts, spades),
    where 2c 3c 4c come first. No straight goes through 2, 3 or 4 without a 5.
    With no 2, 3 or 4 in ``x`` (its cards all 6 or higher) losing a low club costs
    nothing the value counts, so they go, unless the clubs make a flush that
    losing one breaks while another loss keeps it: x holding two or three clubs
    (five or six in all; with four, the last low club goes when the flush is lost
    anyway). With a 2, 3 or 4 in x the pair is kept, except when x is three of a
    kind besides: the full house is broken at the last step, where losing either
    card of the pair leaves the same value, and my club comes first."""
    lows = [c for c in x if c >> 2 <= 2]
    clubs = sum(1 for c in x if c & 3 == 0)
    if not lows:
        return clubs in (0, 1, 4)
    ranks = [c >> 2 for c in x if c >> 2 > 2]
    return len(lows) == 1 and len(ranks) == 3 and len(set(ranks)) == 1


def test_condition_a_passer_of_its_weakest_cards_keeps_what_they_pair():
    # I was dealt all four 5s: X, what seat 4 holds besides my packet, is four of the
    # 42 unseen cards: nine 2s, 3s and 4s (none a club) and 33 cards ranked 6 or more,
    # 9 of them clubs. Its policy passes exactly 2c 3c 4c for the X with no low card
    # and no, one or four clubs, C(24, 4) + 9 C(24, 3) + C(9, 4) = 10,626 + 18,216 +
    # 126, and for the 27 three of a kind (six ranks with four cards left, 9, K and A
    # with three) with any of the nine low cards: acceptance 29,211 / 111,930.
    from dataclasses import replace
    from math import comb

    from analyzer.table import condition_data

    rules = {"pass_schedule": "one-pass"}
    inp = V.inputs(5, policies="high:draw_weight=0,spite_weight=0", rules=rules)
    table = Table("anaconda", **ONE_PASS)
    st = table_state(inp, table)
    rows = condition_data(inp, table)
    assert rows.tolist() == [0, 4, mask("2c 3c 4c")]
    conditioned = replace(inp, idata=rows)
    deals, kept = 3000, 0
    for deal in range(deals):
        played = play_state(conditioned, st.copy(), new_stream(6, deal), stop=0, trace=False)
        hand4 = cards_of(A.STATE.view(played.state, "hand")[4])
        if played.result[0] == C.REJECTED:  # stopped at seat 4's choice, before any packet was delivered
            x = hand4 - set(codes("2c 3c 4c"))
            assert len(x) == 4 and not passes_the_three_low_clubs(sorted(x)), x
            continue
        kept += 1
        x = hand4 - cards_of(A.STATE.view(played.state, "received")[4, 3])
        assert len(x) == 4 and passes_the_three_low_clubs(sorted(x)), x
    p = (comb(24, 4) + 9 * comb(24, 3) + comb(9, 4) + 27 * 9) / comb(42, 4)
    assert abs(p - 29_211 / 111_930) < 1e-15
    assert abs(kept / deals - p) < 4.5 * np.sqrt(p * (1 - p) / deals), (kept / deals, p)
    # The same deals unconditioned: none rejected.
    for deal in range(100):
        assert play_state(inp, st.copy(), new_stream(6, deal), stop=0, trace=False).result[0] != C.REJECTED


def test_decide_conditioned_on_the_passes(capsys):
    # My keep after the pass of ONE_PASS; seat 4 passes its weakest cards: a deal is
    # kept 29,211 times in 111,930 (above).
    args = ["decide", "anaconda", "-n", "5", "--dealer", "4", "--hole", "0=5c 5d 5h 5s 2c 3c 4c", "--passed",
            "9h As Ks", "--received", "2c 3c 4c", "--rule", "pass_schedule=one-pass", "--policy",
            "all=high:draw_weight=0,spite_weight=0", "--condition", "--max-deals", "4000", "--format", "json"]
    main(args)
    data = json.loads(capsys.readouterr().out)
    meta = data["meta"]
    assert meta["kind"] == "keep" and meta["conditioned"] and len(data["actions"]) == 21
    p = 29_211 / 111_930
    assert abs(meta["deals"] / meta["deals_played"] - p) < 4.5 * np.sqrt(p * (1 - p) / meta["deals_played"])
    assert "5c 5d 5h 5s" in data["best"]


# ---------------------------------------------------------------- a packet chosen, a stack made, a roll under way

def test_a_packet_chosen_before_the_others_play_is_the_forced_pass():
    # My pass-2 packet chosen (7d 4c), not yet delivered: my equity then is the EV
    # decide finds for passing 7d 4c at the table before it, on the same deals.
    from analyzer.decide import decide

    rules = {"pass_schedule": "left-right-left"}
    before = Table("anaconda", players=5, dealer=4, hole={0: "As Ks Qs Js 9h 7d 4c"}, passed=["2c 3d 5h"],
                   received=["Js 9h 4c"])
    chosen = Table("anaconda", players=5, dealer=4, hole={0: "As Ks Qs Js 9h"}, passed=["2c 3d 5h", "7d 4c"],
                   received=["Js 9h 4c"])
    inp = V.inputs(5, rules=rules)
    st = table_state(inp, chosen)
    assert A.STATE.view(st, "fixed")[1, 0] == mask("7d 4c")
    played = play_state(inp, st.copy(), new_stream(0, 0), stop=0)
    assert decision(inp, played.state)[:2] == ("pass", 1)  # the others choose theirs; mine is made
    r = equity(chosen, rules=rules, precision=1e-6, max_deals=2000, seed=7, exact=False)
    d = decide(before, rules=rules, precision=1e-6, max_deals=2000, seed=7, race=False)  # this pass on every deal
    ev = d.actions.set_index("action").ev["pass 4c 7d"]
    assert r.meta["deals"] == d.meta["deals"] == 2000
    assert abs(r.seats.ev[0] - ev) < 1e-9


def test_a_stack_made_before_the_roll_is_my_hide_decision_taken():
    from analyzer.decide import decide

    kept = Table("anaconda", players=5, dealer=4, hole={0: "As Ks Qs 9s 4s"}, gone="2c 3d")
    stacked = Table("anaconda", players=5, dealer=4, hole={0: "Ks As 4s 9s Qs"}, gone="2c 3d", phase="stacked")
    inp = V.inputs(5)
    st = table_state(inp, stacked)
    played = play_state(inp, st.copy(), new_stream(0, 0))
    rolls = [(int(e[2]), int(e[3])) for e in played.events if e[0] == C.EV_ROLL and e[1] == 0]
    assert rolls == list(zip(codes("Ks As 4s 9s"), range(1, 5)))  # turned up in my order, Qs stays down
    assert int(A.STATE.view(played.state, "hole")[0, 0]) == codes("Qs")[0]
    r = equity(stacked, precision=1e-6, max_deals=2000, seed=8, exact=False)
    d = decide(kept, precision=1e-6, max_deals=2000, seed=8, race=False)  # this hide on every deal
    assert r.meta["deals"] == d.meta["deals"] == 2000
    assert abs(r.seats.ev[0] - d.actions.set_index("action").ev["hide Qs"]) < 1e-9


def test_a_described_roll_turns_up_only_the_cards_still_down():
    up = {s: c for s, c in enumerate(["Th Td", "Ac Ad", "5s 6s"])}
    table = Table("anaconda", players=3, dealer=2, hole={0: "Kh Kd 2s"}, up=up, gone="3c 4c", phase="roll")
    inp = V.inputs(3)
    played = play_state(inp, table_state(inp, table), new_stream(0, 0))
    rolls = [(int(e[1]), int(e[3])) for e in played.events if e[0] == C.EV_ROLL]
    assert sorted(rolls) == sorted((s, j) for s in range(3) for j in (3, 4))
    assert [int(e[2]) for e in played.events if e[0] == C.EV_ROLL and e[1] == 0] == codes("Kh Kd")


@pytest.mark.parametrize("table,rules,condition,message", [
    (dict(hole={0: H7}), {}, True, "--condition needs the packets passed to you"),
    (dict(hole={0: H7, 3: "Ah"}, passed=["2c 3d 7h"], received=["Qs 8d 8h"]), {}, True,
     r"--condition: the passes are replayed only when the other seats' cards are left unknown; leave out hole\[3\]"),
    (dict(hole={0: "As Ks Qs 9s 4s"}, gone="2c 3d", phase="stacked", players=3), {}, False, None),
    (dict(hole={0: H7}, phase="stacked"), {}, False, "stacked, give your five in stack order"),
    (dict(hole={0: "As Ks ?? 9s 4s"}, gone="2c 3d", phase="stacked"), {}, False, "stacked, give your five"),
    (dict(hole={0: "As Ks Qs 9s"}, passed=["2c 3d 7h", "5c"], received=["Qs 8d 8h"], phase="pass 2"), {}, False,
     r"passed\[2\]: 1 cards; pass 2 passes 2"),
    (dict(hole={0: "?? Ks Qs 9s"}, passed=["2c 3d 7h"], phase="pass 1"), {}, False,
     "give your own cards to describe the packet you chose"),
    (dict(hole={0: "As Ks Qs 9s"}, passed=["2c 3d 7h"]), {}, False, None),  # my first packet chosen
    (dict(hole={0: "As Ks Qs 9s"}, passed=["2c 3d As"]), {}, False, r"card As is given twice"),
])
def test_the_new_table_fields_refuse_what_cannot_be(table, rules, condition, message):
    from analyzer.table import condition_data

    kw = {"players": 5, "dealer": None, **table}
    inp = V.inputs(kw["players"], rules=rules)
    t = Table("anaconda", **kw)
    if message is None:
        table_state(inp, t)
        return
    with pytest.raises(WantitError, match=message):
        condition_data(inp, t) if condition else table_state(inp, t)


def test_condition_refused_before_any_pass_is_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["equity", "anaconda", "--hole", "0=As Ks Qs 9s 4s 8d 8h", "--condition"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and "--condition needs the packets passed to you" in err


def test_cards_passed_to_me_that_cannot_all_have_been_dealt_to_their_passer():
    # Three passes of three to the left: seat 4 passed me nine cards, more than the
    # seven it was dealt. Without --condition seven of them were dealt to it (the
    # first two packets and one card of the third); the other two may have come from
    # seat 4, 3 or 2 (each could hand them on to seat 4 by pass 3), and a deal whose
    # passes do not bring them to seat 4 in time is rejected.
    rules = {"pass_schedule": "3:1,3:1,3:1"}
    inp = V.inputs(5, policies="random_pass_best_high", rules=rules)
    table = Table("anaconda", players=5, dealer=4, hole={0: "As Ks Qs Js 8s 2d 3d"},
                  passed=["2c 3c 4c", "5c 6c 7c", "8c 9s Ts"], received=["As Ks Qs", "Js Ts 9s", "8s 2d 3d"])
    st = table_state(inp, table)
    wide = (1 << 2) | (1 << 3) | (1 << 4)
    assert A.STATE.view(st, "roam_seats")[:9].tolist() == [1 << 4] * 6 + [wide, wide, 1 << 4]
    kept = 0
    for deal in range(300):
        played = play_state(inp, st.copy(), new_stream(8, deal), stop=0, trace=False)
        if played.result[0] == C.REJECTED:
            continue
        kept += 1
        assert cards_of(A.STATE.view(played.state, "hand")[0]) == set(codes("As Ks Qs Js 8s 2d 3d"))
    assert 0 < kept < 300
