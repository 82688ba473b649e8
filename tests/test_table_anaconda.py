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


def test_after_the_passes_every_seat_keeping_its_best_high_five_is_a_seven_card_showdown():
    # With the passes 3 left then 2 right, where every card I passed is now is known:
    # seat 1 could pass mine only back to me, and seat 4 has not passed since.
    rules = {"split_mode": "high_only", "pass_schedule": "3:1,2:-1"}
    table = Table("anaconda", players=5, dealer=4, **AFTER)
    r = equity(table, policies="high", rules=rules, precision=0.004, seed=1)
    known = [codes("As Ks Qs Js 9h 9d Tc"), codes("2c 3d 5h"), [], [], codes("7d 4c")]
    theirs = independent_share(known, [7] * 5, 0, trials=20_000, seed=2)
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
    received = A.STATE.view(st, "received")
    assert int(received[1, 0]) == mask("2c 3d 7h")  # seat 1 got my packet from me
    assert int(received[0, 4]) == mask("Qs 8d 8h")  # and I got seat 4's
    assert int(np.count_nonzero(received)) == 2  # what the others passed each other is unknown
    assert A.STATE.get(st, "pass_phase") == 1 and st[C.B.phase] == A.PH_PASS_PHASE
    others = set()
    for deal in range(60):
        played = play_state(inp, st.copy(), new_stream(3, deal), stop=0)  # the unknowns dealt, no pass made
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


def test_what_i_passed_and_received_is_the_evidence_my_next_pass_reads():
    inp = V.inputs(5, rules={"pass_schedule": "left-right-left"})
    table = Table("anaconda", players=5, dealer=4, hole={0: "As Ks Qs Js 9h 9d Tc"}, passed=AFTER["passed"],
                  received=AFTER["received"])
    st = table_state(inp, table)
    received = A.STATE.view(st, "received")
    assert int(received[1, 0]) == mask("2c 3d 5h") and int(received[4, 0]) == mask("7d 4c")
    assert int(received[0, 4]) == mask("Js 9h 4c") and int(received[0, 1]) == mask("9d Tc")
    hands = A.STATE.view(st, "hand")
    assert int(hands[1]) == mask("2c 3d 5h") and int(hands[4]) == mask("7d 4c")  # the rest unknown
    assert A.STATE.get(st, "pass_phase") == 2
    # Seat 1 passes to seat 2 in pass 3: my pass-1 cards may be with seat 1 or 2.
    done = Table("anaconda", players=5, hole={0: "As Ks Qs Js 9h 9d 2h"}, passed=AFTER["passed"] + ["Tc"],
                 received=AFTER["received"] + ["2h"])
    with pytest.raises(WantitError, match="card 2c you passed to seat 1 in pass 1 may have been passed on since "
                                          r"\(seat 1 or 2 holds it\)"):
        table_state(inp, done)


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
    (dict(hole={0: "As Ks Qs Js 9h 9d Tc"}, passed=["2c 3d 5h", "7d 4c"], received=["Js 9h 4c", "9d Tc"]), {},
     "card 2c you passed to seat 1 in pass 1 may have been passed on since"),
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
    (dict(passed="2c 3d 7h; 5c 6c", hole={0: H7}), {}, "card 2c you passed to seat 1 in pass 1 may have been"),
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
