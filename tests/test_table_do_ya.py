"""A described Do Ya table (analyzer.table, RULES.md §3.3): equity against an
independent Monte Carlo on the brute-force wild-card oracle, tables with an exact
answer, the unknown hole cards dealt afresh from the unseen ones, a described turn
(the rejects on the table, a fresh card on offer, refusals so far) played on as
§3.3 says, and every impossible table refused in one line."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from analyzer.cards import parse_cards
from analyzer.cli import main
from analyzer.engine import decision, new_stream, play_state
from analyzer.equity import equity
from analyzer.errors import WantitError
from analyzer.table import Table, load_table, table_state
from analyzer.variants import get_variant
from kernels.cards import card_bit
from kernels.games import common as C
from kernels.games import do_ya as DY
from tests.oracles import brute_high

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
LAY = DY.STATE


def codes(text):
    return [int(c) for c in parse_cards(text, allow_empty=True)]


def card(text):
    return codes(text)[0]


def always_take_share(n, dealer, hole, up, gone, pool, offer, me, trials, seed):
    """My expected share of a high-only pot when every seat takes the first card it
    may (RULES.md §3.3 followed by hand): the seat to act takes the card on offer, or
    else the oldest reject on the table, or else a fresh card; each later seat of the
    round the oldest reject left, or a fresh one; the rejects still there at the end
    of the round are dead; every later card is fresh. The missing hole cards and
    fresh cards are random unseen cards; hands by the brute-force wild-card oracle
    (the four up cards natural, the hole card wild), ties shared."""
    rng = np.random.default_rng(seed)
    hole = {s: codes(c) for s, c in hole.items()}
    up = {s: codes(c) for s, c in up.items()}
    pool, offer = codes(pool), codes(offer)
    used = {c for cards in list(hole.values()) + list(up.values()) for c in cards} | set(codes(gone)) | set(pool) \
        | set(offer)
    unseen = np.array([c for c in range(52) if c not in used])
    counts = [len(up.get(s, [])) for s in range(n)]
    rnd = min(counts)
    order = [(dealer + i) % n for i in range(1, n + 1)]
    total = 0.0
    for _ in range(trials):
        draw = iter(rng.permutation(unseen).tolist())
        hands = {s: list(up.get(s, [])) for s in range(n)}
        for s in range(n):
            if not hole.get(s):
                next(draw)  # its hole card: not in the hand's naturals, but out of the deck
        left = list(pool)
        first = True
        for s in order:
            if counts[s] > rnd:
                continue  # it has its card of this round
            if first and offer:
                hands[s].append(offer[0])
            elif left:
                hands[s].append(left.pop(0))
            else:
                hands[s].append(next(draw))
            first = False
        values = []
        for s in range(n):
            while len(hands[s]) < 4:
                hands[s].append(next(draw))
            values.append(brute_high(hands[s], 1))
        best = max(values)
        winners = [s for s in range(n) if values[s] == best]
        total += 1.0 / len(winners) if me in winners else 0.0
    return total / trials


@pytest.mark.parametrize("case", [
    # round 2 under way: seat 0 refused the 7c and took the Qh; seat 1 faces the 7c
    {"n": 4, "dealer": 3, "hole": {1: "Kd"}, "up": {0: "2d Qh", 1: "Kc", 2: "8s", 3: "Jc"}, "gone": "4d",
     "pool": "7c", "offer": "", "me": 1},
    # round 3: seat 2 passed over the 5s and has the Tc on offer; seat 3 will take the 5s
    {"n": 4, "dealer": 3, "hole": {2: "3c"}, "up": {0: "Ah Ad 9c", 1: "4h 4s 6d", 2: "Td Ts", 3: "5c 5h"},
     "gone": "2s Jh", "pool": "5s", "offer": "Tc", "me": 2},
    # round 2 begins, five seats, mine a king pair with a wild card to come
    {"n": 5, "dealer": 1, "hole": {0: "8d"}, "up": {0: "Ks", 1: "Kh", 2: "7d", 3: "Qc", 4: "3s"}, "gone": "9h",
     "pool": "", "offer": "", "me": 0},
])
def test_always_take_equity_agrees_with_an_independent_monte_carlo(case):
    table = Table("do_ya", players=case["n"], dealer=case["dealer"], me=case["me"], hole=case["hole"], up=case["up"],
                  gone=case["gone"], pool=case["pool"], offer=case["offer"] or None)
    r = equity(table, policies="always_take", rules={"split_mode": "high_only"}, precision=0.004, seed=4)
    ours, se = r.seats.share[case["me"]], r.seats.share_se[case["me"]]
    trials = 20_000
    theirs = always_take_share(case["n"], case["dealer"], case["hole"], case["up"], case["gone"], case["pool"],
                               case["offer"], case["me"], trials, seed=6)
    their_se = np.sqrt(max(theirs * (1 - theirs), 0.01) / trials)
    assert abs(ours - theirs) < 4.5 * np.hypot(se, their_se), (ours, theirs)
    assert r.meta["reached_precision"]
    assert abs(r.seats.share.sum() - 1.0) < 1e-9 and abs(r.seats.ev.sum()) < 1e-9


@pytest.mark.parametrize("up,hole,shares,enumerated", [
    # every card dealt: five nines (a wild with four natural nines) beat two royal flushes
    ({0: "Ah Kh Qh Jh", 1: "As Ks Qs Js", 2: "9c 9d 9h 9s"}, {0: "2c", 1: "3c", 2: "4c"}, [0.0, 0.0, 1.0], True),
    # two royal flushes made with the wild card tie; a pair of eights (wild) loses
    ({0: "Ah Kh Qh Jh", 1: "As Ks Qs Js", 2: "8c 5d 3h 2s"}, {0: "2c", 1: "3c", 2: "4c"}, [0.5, 0.5, 0.0], True),
    # round 4 under way and seat 0 (first) has five aces: no card to come can matter
    ({0: "Ac Ad Ah As", 1: "2c 7d 9h", 2: "3c 8d Th"}, {0: "Kc"}, [1.0, 0.0, 0.0], False),
])
def test_a_table_with_nothing_left_to_decide_has_an_exact_answer(up, hole, shares, enumerated):
    table = Table("do_ya", players=3, dealer=2, hole=hole, up=up)
    r = equity(table, rules={"split_mode": "high_only"})
    assert r.seats.share.tolist() == shares
    assert r.seats.share_se.tolist() == [0.0, 0.0, 0.0]
    # Every card known: one way for them to lie, enumerated; with cards to come the
    # Monte Carlo stops at its first check, no uncertainty left.
    assert r.meta["exact"] is enumerated and r.meta["deals"] == (1 if enumerated else 4_000)


def test_the_unknown_hole_cards_are_dealt_from_the_unseen_ones_afresh_each_deal():
    inp = get_variant("do_ya").inputs(4, policies="heuristic")
    table = Table("do_ya", players=4, dealer=3, hole={0: "As"}, up={0: "Ah Kd", 1: "7c 2h", 2: "Td", 3: "2c"},
                  gone="3h 3s", pool="Qc")
    st = table_state(inp, table)
    known = set(codes("As Ah Kd 7c 2h Td 2c 3h 3s Qc"))
    assert int(st[C.P.n_unknown]) == 3
    assert st[C.P.unknown_at:C.P.unknown_at + 3].tolist() == [DY.S.hole + s for s in (1, 2, 3)]
    assert st[C.P.unknown_mask:C.P.unknown_mask + 3].tolist() == [-1, -1, -1]  # Do Ya keeps no hole mask
    assert int(st[C.P.deck + 1] - st[C.P.deck]) == 52 - len(known)  # the stock: every card not placed
    assert int(st[C.P.seen]) == sum(int(card_bit(c)) for c in known - set(codes("As")))  # all but my hole
    others = set()
    for deal in range(50):
        played = play_state(inp, st.copy(), new_stream(1, deal))
        assert played.finished
        hole = LAY.view(played.state, "hole")[:4, 0].tolist()
        up = LAY.view(played.state, "up")[:4]
        cards = hole + up.ravel().tolist()
        assert len(set(cards)) == 20 and not set(codes("3h 3s")) & set(cards)  # they are dead
        assert hole[0] == card("As") and up[0, :2].tolist() == codes("Ah Kd") and up[1, :2].tolist() == codes("7c 2h")
        for s in range(4):
            assert int(LAY.view(played.state, "up_mask")[s]) == sum(int(card_bit(int(c))) for c in up[s])
            assert LAY.view(played.state, "n_up")[s] == 4
        assert not known & set(hole[1:])
        others |= set(hole[1:])
    assert len(others) > 25  # the others' hole cards differ from deal to deal


def test_the_example_table_faces_its_seat_with_the_rejects():
    inp = get_variant("do_ya").inputs(5, policies="heuristic")
    table = load_table(EXAMPLES / "do_ya.toml")
    assert table.variant == "do_ya" and table.pool == "Qd" and table.offer is None
    st = table_state(inp, table)
    assert decision(inp, play_state(inp, st.copy(), new_stream(0, 0), stop=0).state) == \
        ("pool", 0, [card("Qd"), C.POOL_DRAW])
    # Taking the Qd: my third up card; seat 1 (the next in turn) finds no rejects and is offered a fresh card.
    took = play_state(inp, st.copy(), new_stream(0, 0), stop=1, forced=card("Qd"))
    assert LAY.view(took.state, "up")[0, :3].tolist() == codes("9c Ks Qd")
    assert decision(inp, took.state)[:2] == ("offer", 1) and LAY.get(took.state, "n_pool") == 0


def test_declining_the_rejects_counts_them_and_refusing_to_the_limit_forces_the_next_card():
    inp = get_variant("do_ya").inputs(5, policies="heuristic")
    st = table_state(inp, load_table(EXAMPLES / "do_ya.toml"))
    drew = play_state(inp, st, new_stream(0, 0), stop=1, forced=C.POOL_DRAW)
    assert tuple(drew.events[0][:4]) == (C.EV_POOL_DECLINE, 0, -1, 1)
    assert decision(inp, st) == ("offer", 0, [C.TAKE, C.REFUSE])
    assert LAY.get(st, "rejections") == 1  # the declined Qd counts
    fresh = int(LAY.get(st, "offer"))
    refused = play_state(inp, st, new_stream(0, 0), stop=2, forced=C.REFUSE)
    kinds = [tuple(int(x) for x in e[:4]) for e in refused.events]
    assert kinds[0] == (C.EV_REJECT, 0, fresh, 2)
    forced = next(e for e in kinds if e[0] == C.EV_TAKE)
    assert forced[1] == 0 and forced[3] == 1  # two refusals: my next card is forced
    assert decision(inp, st) == ("pool", 1, [card("Qd"), fresh, C.POOL_DRAW])  # seat 1 faces both rejects


def test_a_described_fresh_card_is_offered_to_the_seat_that_passed_over_the_rejects():
    inp = get_variant("do_ya").inputs(4, policies="heuristic")
    table = Table("do_ya", players=4, dealer=3, up={0: "Ah Ad 9c", 1: "4h 4s 6d", 2: "Td Ts", 3: "5c 5h"},
                  pool="5s", offer="Tc", to=2)
    st = table_state(inp, table)
    stopped = play_state(inp, st.copy(), new_stream(0, 0), stop=0)
    assert decision(inp, stopped.state) == ("offer", 2, [C.TAKE, C.REFUSE])
    assert [LAY.get(st, k) for k in ("round", "position", "rejections", "offer", "n_pool")] == \
        [2, 3, 1, card("Tc"), 1]
    # Refusing the Tc: the pool is [5s, Tc], two refusals, so seat 2 must take the next card;
    # seat 3 then chooses between the two rejects.
    done = play_state(inp, st.copy(), new_stream(0, 0), stop=1, forced=C.REFUSE)
    kinds = [tuple(int(x) for x in e[:4]) for e in done.events]
    assert kinds[0] == (C.EV_REJECT, 2, card("Tc"), 2)
    assert kinds[2][0] == C.EV_OFFER and kinds[2][1] == 2 and kinds[2][3] == 2
    assert kinds[3][0] == C.EV_TAKE and kinds[3][1] == 2 and kinds[3][3] == 1
    assert decision(inp, done.state) == ("pool", 3, [card("5s"), card("Tc"), C.POOL_DRAW])
    # Taking it: seat 3, the last of the round, finds the 5s.
    took = play_state(inp, st.copy(), new_stream(0, 0), stop=1, forced=C.TAKE)
    assert LAY.view(took.state, "up")[2, 2] == card("Tc")
    assert decision(inp, took.state) == ("pool", 3, [card("5s"), C.POOL_DRAW])


def test_refusals_so_far_with_no_card_on_offer_turn_up_a_fresh_one_forced_at_the_limit():
    inp = get_variant("do_ya").inputs(4, policies="heuristic")
    # Seat 1 passed over the 7c and refused the 8d: its next card is forced.
    table = Table("do_ya", players=4, dealer=3, up={0: "2d Qh", 1: "Kc", 2: "8s", 3: "Jc"}, pool="7c 8d",
                  refusals=1)
    st = table_state(inp, table)
    assert LAY.get(st, "rejections") == 2 and LAY.get(st, "phase") == DY.PH_DRAW
    played = play_state(inp, st.copy(), new_stream(0, 0), stop=0)
    kinds = [tuple(int(x) for x in e[:4]) for e in played.events]
    assert [k[0] for k in kinds[:3]] == [C.EV_TURN_UP, C.EV_OFFER, C.EV_TAKE]
    assert kinds[2][1] == 1 and kinds[2][3] == 1
    assert decision(inp, played.state) == ("pool", 2, [card("7c"), card("8d"), C.POOL_DRAW])
    # The first seat of a round, having refused one card, is offered the next with one refusal.
    first = table_state(inp, Table("do_ya", players=4, dealer=3, up={0: "Kc", 1: "8s", 2: "Jc", 3: "2d"},
                                   pool="7c", offer="9h", refusals=1))
    assert decision(inp, play_state(inp, first, new_stream(0, 0), stop=0).state) == ("offer", 0, [C.TAKE, C.REFUSE])
    assert LAY.get(first, "rejections") == 1


def test_the_last_seats_rejects_go_dead_and_the_next_round_starts_from_the_dealers_left():
    inp = get_variant("do_ya").inputs(3, policies="always_take")
    table = Table("do_ya", players=3, dealer=0, up={1: "Ah", 2: "Kh", 0: ""}, pool="2c")
    st = table_state(inp, table)
    assert decision(inp, play_state(inp, st.copy(), new_stream(0, 0), stop=0).state) == \
        ("pool", 0, [card("2c"), C.POOL_DRAW])
    played = play_state(inp, st, new_stream(0, 0), stop=2, forced=C.POOL_DRAW)
    kinds = [tuple(int(x) for x in e[:4]) for e in played.events]
    assert (C.EV_DEAD, -1, card("2c"), 0) in kinds  # the dealer's reject is dead
    assert C.EV_ROUND in [k[0] for k in kinds]
    assert LAY.get(st, "round") == 1 and card("2c") in LAY.view(st, "dead")[:LAY.get(st, "n_dead")].tolist()
    # round 2: seat 1 (the dealer's left) first, with no rejects
    assert decision(inp, st)[:2] == ("offer", 1) and LAY.get(st, "n_pool") == 0


def test_a_round_about_to_begin_starts_from_the_dealers_left():
    inp = get_variant("do_ya").inputs(4, policies="heuristic")
    for to in (None, 2):
        st = table_state(inp, Table("do_ya", players=4, dealer=1, up={0: "Ah", 1: "Kd", 2: "7c", 3: "2s"},
                                    gone="9d", to=to))
        played = play_state(inp, st, new_stream(0, 0), stop=0)
        assert decision(inp, played.state) == ("offer", 2, [C.TAKE, C.REFUSE])
        assert LAY.get(st, "round") == 1 and played.events[0][0] == C.EV_ROUND


@pytest.mark.parametrize("table,message", [
    (dict(hole={0: "As Ks"}), "hole[0]: 2 hole cards; a seat has 1"),
    (dict(hole={0: "As"}, up={2: "As"}), "card As is given twice (up card of seat 2 and hole card of seat 0)"),
    (dict(up={0: "Ah", 1: "Kd"}, pool="Ah"), "card Ah is given twice (up card of seat 0 and the pool)"),
    (dict(up={0: "Ah"}, pool="Kd", offer="Kd"), "card Kd is given twice (the pool and the card on offer)"),
    (dict(gone="2c 2c"), "card 2c is given twice"),
    (dict(hole={9: "As"}), "seat 9 is not a seat 0..3"),
    (dict(up={-1: "As"}), "seat -1 is not a seat 0..3"),
    (dict(to=4), "to: seat 4 is not a seat 0..3"),
    (dict(me=4), "me: seat 4 is not a seat"),
    (dict(dealer=-1), "dealer: seat -1 is not a seat"),
    (dict(hole={0: "Zz"}), "unknown card 'Zz'"),
    (dict(up={0: "Ah Kh", 1: ""}), "seats hold 0 to 2"),
    (dict(up={0: "Ah Kh Qh Jh Th"}), "5 up cards; a seat takes 4"),
    (dict(up={0: "??"}), "an unknown one cannot be up"),
    (dict(up={0: "Ah"}, pool="??"), "pool: the rejects lie face up"),
    (dict(offer="??"), "offer: give the one card on offer"),
    (dict(offer="Ah Kh"), "offer: give the one card on offer"),
    (dict(gone="??", up={0: "2c", 1: "3c", 2: "4c", 3: "5c"}), "gone: a card gone from play was seen"),
    (dict(up={1: "Ah"}), "seat 1 has its card, but seat 0 before it has not"),
    (dict(up={0: "Ah", 2: "Kd"}), "seat 2 has its card, but seat 1 before it has not"),
    (dict(up={0: "Ah"}, to=0), "seat 0 already has its up card of round 1"),
    (dict(up={0: "Ah"}, to=2), "it is seat 1's turn, not seat 2's"),
    (dict(to=1), "it is seat 0's turn, not seat 1's"),
    (dict(up={0: "Ah"}, refusals=3, pool="2c 3c 4c"), "refuses at most 2 card(s) a turn"),
    (dict(up={0: "Ah"}, refusals=-1), "refusals: -1"),
    (dict(up={0: "Ah"}, pool="2c 3c 4c"), "pool: 3 rejects; at most 2 lie on the table at once"),
    (dict(up={0: "Ah"}, refusals=1), "seat 1 refused 1 card(s) this turn, which lie in the pool, but the pool holds 0"),
    (dict(up={0: "Ah"}, refusals=2, pool="2c"), "the pool holds 1"),
    (dict(pool="2c"), "seat 0 is the first to act in round 1 and refused 0"),
    (dict(pool="2c 3c", refusals=1), "the pool starts empty each round"),
    (dict(up={0: "Ah"}, pool="2c 3c", offer="4c"), "so it must take the next card"),
    (dict(pool="2c 3c", refusals=2, offer="4c"), "so it must take the next card"),
    (dict(gone="2c"), "gone: 1 dead cards, but the 0 up-round(s) done leave 0 at most"),
    (dict(up={0: "Ah", 1: "Kd", 2: "Qc", 3: "Jd"}, gone="2c 3c 4c"), "done leave 2 at most"),
    (dict(up={0: "Ah Kh Qh Jh", 1: "2c 3c 4c 5c", 2: "2d 3d 4d 5d", 3: "2h 3h 4h 5h"}, offer="9s"),
     "no card is offered any more"),
    (dict(up={0: "Ah Kh Qh Jh", 1: "2c 3c 4c 5c", 2: "2d 3d 4d 5d", 3: "2h 3h 4h 5h"}, pool="9s"),
     "no rejects lie on the table"),
])
def test_impossible_tables_are_refused_with_what_is_wrong(table, message):
    inp = get_variant("do_ya").inputs(4)
    with pytest.raises(WantitError, match=re.escape(message)):
        table_state(inp, Table("do_ya", players=4, **{"dealer": 3, **table}))


def test_max_rejections_one_bounds_the_pool_and_the_refusals():
    inp = get_variant("do_ya").inputs(4, rules={"max_rejections": 1})
    with pytest.raises(WantitError, match="pool: 2 rejects; at most 1 lie"):
        table_state(inp, Table("do_ya", players=4, dealer=3, up={0: "Ah"}, pool="2c 3c"))
    with pytest.raises(WantitError, match="must take the next card"):
        table_state(inp, Table("do_ya", players=4, dealer=3, up={0: "Ah"}, pool="2c", offer="4c"))
    st = table_state(inp, Table("do_ya", players=4, dealer=3, up={0: "Ah"}, pool="2c"))
    assert decision(inp, play_state(inp, st, new_stream(0, 0), stop=0).state) == ("pool", 1, [card("2c"),
                                                                                               C.POOL_DRAW])


def test_selection_rejection_refuses_a_pool():
    with pytest.raises(WantitError, match="pool: a selection_rejection table has no pool .only do_ya tables have it"):
        table_state(get_variant("sr").inputs(4), Table("sr", players=4, pool="2c"))


def test_the_example_state_file_through_the_cli_as_json(capsys):
    path = EXAMPLES / "do_ya.toml"
    main(["equity", "do_ya", "--state", str(path), "--format", "json", "--precision", "0.02", "--all"])
    data = json.loads(capsys.readouterr().out)
    assert data["meta"]["variant"] == "do_ya" and data["meta"]["players"] == 5 and data["meta"]["me"] == 0
    assert data["meta"]["unseen"] == 52 - 16  # 14 up cards, the pool's, mine; two gone
    seats = data["seats"]
    assert [s["seat"] for s in seats] == list(range(5))
    assert abs(sum(s["share"] for s in seats) - 1) < 1e-9
    assert 1.96 * seats[0]["share_se"] < 0.02


def test_cli_flags_describe_a_pool_and_override_the_state_file(capsys):
    main(["equity", "do_ya", "-n", "4", "--dealer", "3", "--up", "0=2d Qh", "--up", "1=Kc", "--up", "2=8s",
          "--up", "3=Jc", "--pool", "7c", "--offer", "9h", "--format", "json", "--precision", "0.05"])
    assert json.loads(capsys.readouterr().out)["meta"]["unseen"] == 52 - 7
    # The example with a fresh card on offer to me, the Qd passed over: one card fewer unseen.
    main(["equity", "do_ya", "--state", str(EXAMPLES / "do_ya.toml"), "--offer", "Jc", "--format", "json",
          "--precision", "0.05"])
    assert json.loads(capsys.readouterr().out)["meta"]["unseen"] == 52 - 17


@pytest.mark.parametrize("args,message", [
    (["equity", "do_ya", "--pool", "As Ks Qs", "--up", "0=2c"], "pool: 3 rejects"),
    (["equity", "do_ya", "--state", str(EXAMPLES / "do_ya.toml"), "--pool", "Ks"],
     "card Ks is given twice (up card of seat 0 and the pool)"),
    (["equity", "do_ya", "--state", str(EXAMPLES / "do_ya.toml"), "--to", "1"], "it is seat 0's turn, not seat 1's"),
])
def test_bad_do_ya_queries_are_one_line(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and message in err, err


# ---------------------------------------------------------------- the kernel's seat walk and pool order


def test_rejects_keep_their_order_whatever_their_number():
    """RULES.md §3.3 keeps at most max_rejections (1 or 2 by the rules options) rejects
    on the table, so a take from the middle of a longer pool never happens in play;
    the kernel keeps their order for any number. With three refusals allowed (set in
    the rules vector itself) seat 0 refuses 7c, Kc, 9c and must take 8d; each later
    seat takes the first reject lying there: 7c, then Kc, then 9c."""
    from dataclasses import replace

    from analyzer.engine import new_state

    inp = get_variant("do_ya").inputs(4, policies={0: "never_take", "all": "always_take"})
    rules = inp.rules.copy()
    rules[DY.R_MAX_REJECTIONS] = 3
    inp = replace(inp, rules=rules)
    first = codes("2c 2d 2h 2s 7c Kc 9c 8d")
    st = new_state(inp, dealer=3, stacked=first + [c for c in range(52) if c not in first])
    play_state(inp, st, new_stream(0, 0))
    assert LAY.view(st, "up")[:4, 0].tolist() == codes("8d 7c Kc 9c")


def test_a_folded_seat_gets_no_card_and_the_next_active_seat_is_the_one_judged():
    """Seat 1 has folded (the kernel's ``active``; betting would fold it). Round 3: seat 0
    (pair of sevens with its wild) is offered the Ks. Its policy takes a card when its
    own gain plus what a reject would do for the next seat to act reaches 1: the Ks
    makes its pair kings (+0.40); the next seat to act is seat 2 (pair of eights with its
    wild: kings too, +0.33), so it refuses. Judged for the folded seat 1 (two kings up:
    trips to quads, +4 categories) it would take it. Seat 2 (always takes) then finds
    the Ks on the table; seat 1 gets no card at all."""
    inp = get_variant("do_ya").inputs(4, policies={0: "heuristic:take_threshold=1,deny_weight=1,draw_weight=0",
                                                   "all": "always_take"})
    table = Table("do_ya", players=4, dealer=3, hole={0: "5c", 1: "5d", 2: "5h", 3: "5s"},
                  up={0: "2c 7d", 1: "Kc Kd", 2: "3h 8s", 3: "4d 9c"})
    st = table_state(inp, table)
    st[C.P.active + 1] = 0
    placed = set(codes("5c 5d 5h 5s 2c 7d Kc Kd 3h 8s 4d 9c"))
    first = codes("Ks Qh Jc")
    C.stack_stock(st, np.array(first + [c for c in range(52) if c not in placed | set(first)], np.int64))
    played = play_state(inp, st, new_stream(0, 0))
    moves = [(int(e[0]), int(e[1]), int(e[2])) for e in played.events
             if e[0] in (C.EV_TAKE, C.EV_REJECT, C.EV_POOL_TAKE)]
    assert moves[0] == (C.EV_REJECT, 0, card("Ks"))
    assert (C.EV_POOL_TAKE, 2, card("Ks")) in moves
    assert all(seat != 1 for _, seat, _ in moves)
    assert LAY.view(st, "n_up")[:4].tolist() == [4, 2, 4, 4]
    assert played.result[C.O.payout + 1] == 0 and played.finished


# ---------------------------------------------------------------- the history of the choices seen

READ_HISTORY = "0 takes Kc; 1 takes Ac; 2 takes Jd; 0 refuses 7h; 0 takes 9s; 1 declines pool; 1 takes 2d"
# Seat 1 takes every fresh card, and a reject only when it raises its hand by 1.5 in
# the policy's units (a category is two: high card, pair, two pair, trips, ...; then
# the top two ranks, 1/16 a rank), no draws counted. Holding only the Ac up, it
# passed over the 7h. Under wild_mode=rank:
# * a hole ace (Ad Ah As) makes the Ac wild too: its two wilds count as a pair of
#   aces, and the 7h would make trips sevens: +2 - (A - 7)/16 = 1.56, taken;
# * any other hole card: the Ac and its wild, a pair of aces; the 7h adds a kicker
#   below the top two ranks: +0, declined.
# So the history rules out exactly the three aces.
READ = Table("do_ya", players=3, dealer=2, me=2, hole={0: "3c", 2: "Qs"}, history=READ_HISTORY)
READ_POLICIES = {"all": "heuristic", 1: "heuristic:pool_threshold=1.5,take_threshold=-1000000,draw_weight=0"}
RANK = {"wild_mode": "rank"}


def test_the_example_history_is_the_example_table():
    inp = get_variant("do_ya").inputs(5, policies="heuristic")
    table = load_table(EXAMPLES / "do_ya.toml")
    assert len(table.history) == 17
    described = table_state(inp, replace_table(table, history=()))
    assert np.array_equal(table_state(inp, table), described)
    # The history alone fills in the up cards, the pool and the dead cards.
    alone = Table("do_ya", players=5, dealer=2, hole={0: "9d"}, history=table.history)
    assert np.array_equal(table_state(inp, alone), described)


def replace_table(table, **changes):
    from dataclasses import replace

    return replace(table, **changes)


def test_the_history_leaves_the_seat_to_act_where_it_stopped():
    inp = get_variant("do_ya").inputs(4, policies="heuristic")
    # Seat 1 passed over the 7c and refused the 8d: the next card is forced; seat 2 then
    # faces both rejects, in the order refused.
    st = table_state(inp, Table("do_ya", players=4, dealer=3,
                                history="0 refuses 7c; 0 takes 2d; 1 declines pool; 1 refuses 8d"))
    assert [LAY.get(st, k) for k in ("phase", "rejections", "n_pool")] == [DY.PH_DRAW, 2, 2]
    played = play_state(inp, st, new_stream(0, 0), stop=0)
    assert decision(inp, played.state) == ("pool", 2, codes("7c 8d") + [C.POOL_DRAW])
    # Ending on "declines pool": its fresh card is still to come, offered with one refusal.
    st = table_state(inp, Table("do_ya", players=4, dealer=3, history="0 refuses 7c; 0 takes 2d; 1 declines pool"))
    assert [LAY.get(st, k) for k in ("phase", "rejections", "n_pool")] == [DY.PH_DRAW, 1, 1]
    assert decision(inp, play_state(inp, st, new_stream(0, 0), stop=0).state) == ("offer", 1, [C.TAKE, C.REFUSE])
    # The table carries on where the history stops: a fresh card on offer after a refusal.
    st = table_state(inp, Table("do_ya", players=4, dealer=3, history="0 refuses 7c", offer="9h"))
    assert [LAY.get(st, k) for k in ("phase", "rejections", "offer")] == [DY.PH_OFFER, 1, card("9h")]
    # A reject taken by its card's name, and a round finished: its leftovers dead.
    st = table_state(inp, Table("do_ya", players=4, dealer=3,
                                history="0 refuses 7c; 0 refuses 8d; 0 takes 2d; 1 takes 8d; 2 takes pool 7c; "
                                        "3 takes As"))
    assert LAY.get(st, "round") == 1 and LAY.get(st, "n_dead") == 0
    assert LAY.view(st, "up")[:4, 0].tolist() == codes("2d 8d 7c As")


@pytest.mark.parametrize("history,extra,message", [
    ("1 takes Ah", {}, "history entry 1 (1 takes Ah): it is seat 0's turn then (round 1), not seat 1's"),
    ("0 declines pool", {}, "seat 0 faces no rejects on the table then"),
    ("0 refuses Ah; 0 declines pool", {}, "seat 0 has refused a fresh card this turn"),
    ("0 refuses Ah; 0 takes Kd; 1 declines pool; 1 declines", {}, "has already passed over the rejects"),
    ("0 refuses Ah; 0 takes Ah", {}, "seat 0 has refused a fresh card this turn"),
    ("0 refuses Ah; 0 takes Kd; 1 declines pool; 1 takes Ah", {}, "has already passed over the rejects"),
    ("0 refuses Ah; 0 refuses Kd; 0 refuses Qc", {},
     "seat 0 has 2 refusals this turn (the rejects it passed over count), so it had to take it (max_rejections = 2)"),
    ("0 refuses Ah; 0 takes Kd; 1 refuses Qc; 1 refuses Jc", {}, "seat 1 has 2 refusals this turn"),
    ("0 refuses Ah; 0 takes Kd; 1 takes pool Qc", {}, "Qc is not among the rejects on the table (Ah)"),
    ("0 takes Ah; 1 refuses Ah", {}, "history entry 2 (1 refuses Ah): Ah was turned up earlier in the history"),
    ("0 grabs Ah", {}, "should look like 'SEAT takes CARD', 'SEAT takes pool CARD'"),
    ("0 declines Ah", {}, "should look like"),
    ("0 takes", {}, "should look like"),
    ("0 takes Zz", {}, "unknown card 'Zz'"),
    ("0 takes ??", {}, "name the card"),
    ("7 takes Ah", {}, "seat '7' is not a seat 0..3"),
    ("0 takes Ah", {"up": {0: "Kd"}}, "history: seat 0 takes Ah by it, but its up cards are given as Kd"),
    ("0 refuses Ah; 0 refuses Kd; 0 takes Qc", {"pool": "Kd Ah"},
     "history: it leaves the rejects Ah Kd on the table, in that order, but the pool is given as Kd Ah"),
    ("0 refuses Ah; 0 takes Qc; 1 takes Kd; 2 takes Jd; 3 takes 2c", {"gone": "Kh"},
     "the rounds it plays leave Ah dead, but gone is given as Kh"),
    ("0 refuses Ah", {"refusals": 2}, "refused 1 card(s) this turn by it, but refusals is given as 2"),
    ("0 takes Ah", {"declined": True}, "declined: by the history, the seat to act found no rejects on the table"),
    ("0 refuses Ah", {"declined": True}, "the seat to act found no rejects"),
    ("0 takes Ah", {"hole": {1: "Ah"}}, "card Ah is given twice"),
    ("0 refuses Ah; 0 takes Kd", {"offer": "Qc", "to": 2}, "it is seat 1's turn, not seat 2's"),
    (5, {}, "history: 5 should be a list of entries"),
])
def test_a_history_that_cannot_have_happened_is_refused(history, extra, message):
    inp = get_variant("do_ya").inputs(4)
    with pytest.raises(WantitError, match=re.escape(message)):
        table_state(inp, Table("do_ya", players=4, dealer=3, history=history, **extra))


def test_a_history_past_the_last_up_card_is_refused():
    inp = get_variant("do_ya").inputs(2)
    deal = "0 takes 2c; 1 takes 3c; 0 takes 4c; 1 takes 5c; 0 takes 6c; 1 takes 7c; 0 takes 8c; 1 takes 9c"
    st = table_state(inp, Table("do_ya", players=2, dealer=1, history=deal))
    assert LAY.view(st, "n_up")[:2].tolist() == [4, 4]
    with pytest.raises(WantitError, match="history: 1 entries after the last up card was taken"):
        table_state(inp, Table("do_ya", players=2, dealer=1, history=deal + "; 0 takes Tc"))


def test_condition_a_declined_reject_rules_out_the_hole_cards_that_would_have_taken_it():
    from dataclasses import replace

    from analyzer.table import condition_data

    inp = get_variant("do_ya").inputs(3, policies=READ_POLICIES, rules=RANK)
    st = table_state(inp, READ)
    rows = condition_data(inp, READ).reshape(-1, DY.HISTORY_WIDTH)
    # Seat 1's free choices only (seats 0 and 2 show their hole cards): its round-1
    # fresh card, the pool it passed over, its round-2 fresh card.
    assert rows[:, :3].tolist() == [[DY.H_OFFER, 1, C.TAKE], [DY.H_POOL, 1, C.POOL_DRAW], [DY.H_OFFER, 1, C.TAKE]]
    conditioned = replace(inp, idata=condition_data(inp, READ))
    aces = set(codes("Ad Ah As"))
    deals, kept = 3000, 0
    for deal in range(deals):
        played = play_state(conditioned, st.copy(), new_stream(5, deal), trace=False)
        hole = int(LAY.view(played.state, "hole")[1, 0])
        if played.result[0] != C.REJECTED:
            kept += 1
            assert hole not in aces  # a seat that passed over the 7h holds no ace
        else:
            assert hole in aces
    # By hand: seat 1's hole card is one of the 44 cards unseen (52 less the 8 shown:
    # 3c Qs, Kc 9s, Ac 2d, Jd, 7h), 3 of them aces: P(kept) = 41/44.
    p = 41 / 44
    assert abs(kept / deals - p) < 4.5 * np.sqrt(p * (1 - p) / deals)


def test_condition_where_the_hole_card_cannot_matter_keeps_every_deal_or_none():
    # hole_card_only: the hole card is wild whatever it is, so seat 1's choices say
    # nothing about it: every deal agrees with the policy that declined the 7h.
    r = equity(READ, policies=READ_POLICIES, condition=True, precision=0.02, seed=2)
    assert r.meta["conditioned"] and r.meta["acceptance"] == 1.0
    # A seat that takes any reject cannot have passed over the 7h: no deal agrees.
    with pytest.raises(WantitError, match="nearly\\) impossible"):
        equity(READ, policies={"all": "heuristic", 1: "always_take"}, condition=True)


def test_condition_reports_the_acceptance_of_a_declined_reject():
    r = equity(READ, policies=READ_POLICIES, rules=RANK, condition=True, precision=0.01, seed=4)
    assert r.meta["effective_sample_size"] == r.meta["deals"] < r.meta["deals_played"]
    assert abs(r.meta["acceptance"] - 41 / 44) < 0.02
    assert abs(r.seats.share.sum() - 1) < 1e-9


def test_decide_conditioned_on_a_declined_reject():
    from analyzer.decide import decide

    r = decide(READ, policies=READ_POLICIES, rules=RANK, condition=True, max_deals=4000, seed=5)
    assert r.meta["kind"] == "pool" and r.meta["me"] == 2 and r.meta["conditioned"]
    assert r.actions.action.tolist() == ["take 7h", "fresh card"]
    assert r.meta["effective_sample_size"] == r.meta["deals"] < r.meta["deals_played"]
    assert abs(r.meta["deals"] / r.meta["deals_played"] - 41 / 44) < 0.03


def test_condition_and_history_through_the_cli(capsys):
    args = ["-n", "3", "--dealer", "2", "--me", "2", "--hole", "0=3c", "--hole", "2=Qs", "--history", READ_HISTORY,
            "--rule", "wild_mode=rank", "--policy", "all=heuristic",
            "--policy", "1=heuristic:pool_threshold=1.5,take_threshold=-1000000,draw_weight=0",
            "--condition", "--format", "json"]
    main(["equity", "do_ya", *args, "--precision", "0.02"])
    meta = json.loads(capsys.readouterr().out)["meta"]
    assert meta["conditioned"] and 0.88 < meta["acceptance"] < 0.98
    main(["decide", "do_ya", *args, "--max-deals", "3000"])
    data = json.loads(capsys.readouterr().out)
    assert [a["action"] for a in data["actions"]] == ["take 7h", "fresh card"] and data["meta"]["conditioned"]


# ---------------------------------------------------------------- a seat that passed over the pool


def test_a_seat_that_passed_over_the_pool_is_turned_up_its_fresh_card():
    inp = get_variant("do_ya").inputs(5, policies="heuristic")
    table = replace_table(load_table(EXAMPLES / "do_ya.toml"), declined=True)
    st = table_state(inp, table)
    assert [LAY.get(st, k) for k in ("phase", "turn", "rejections", "n_pool")] == [DY.PH_DRAW, 0, 1, 1]
    played = play_state(inp, st, new_stream(0, 0), stop=0)
    assert decision(inp, played.state) == ("offer", 0, [C.TAKE, C.REFUSE])
    assert [int(e[0]) for e in played.events[:2]] == [C.EV_TURN_UP, C.EV_OFFER]
    # Passing over two rejects counts two refusals: the fresh card is forced, and the
    # next seat faces both rejects.
    inp = get_variant("do_ya").inputs(4, policies="heuristic")
    st = table_state(inp, Table("do_ya", players=4, dealer=3, up={0: "Ah"}, pool="2c 3c", declined=True))
    played = play_state(inp, st, new_stream(0, 0), stop=0)
    assert decision(inp, played.state) == ("pool", 2, codes("2c 3c") + [C.POOL_DRAW])
    assert LAY.view(played.state, "n_up")[:2].tolist() == [1, 1]


@pytest.mark.parametrize("table,message", [
    (dict(up={0: "Ah"}, declined=True), "declined: seat 1 found no rejects on the table when its turn began"),
    (dict(up={0: "Ah"}, pool="2c", refusals=1, declined=True), "so it had none to pass over"),
    (dict(up={0: "Ah Kh Qh Jh", 1: "2c 3c 4c 5c", 2: "2d 3d 4d 5d", 3: "2h 3h 4h 5h"}, declined=True),
     "no card is offered any more"),
    (dict(up={0: "Ah"}, pool="2c", declined="yes"), "declined: 'yes' should be true or false"),
    (dict(up={0: "Ah"}, pool="2c", offer="Jc", declined=True),
     "declined: seat 1's fresh card is not turned up yet, but offer gives it as turned up; give offer alone"),
])
def test_an_impossible_declined_is_refused(table, message):
    inp = get_variant("do_ya").inputs(4)
    with pytest.raises(WantitError, match=re.escape(message)):
        table_state(inp, Table("do_ya", players=4, dealer=3, **table))


def test_declined_through_the_cli_and_refused_for_other_games(capsys):
    main(["equity", "do_ya", "--state", str(EXAMPLES / "do_ya.toml"), "--declined", "--format", "json",
          "--precision", "0.05"])
    assert json.loads(capsys.readouterr().out)["meta"]["unseen"] == 52 - 16
    with pytest.raises(SystemExit):
        main(["equity", "sr", "-n", "4", "--declined"])
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "declined: a selection_rejection table has no declined (only do_ya tables" in err
    with pytest.raises(SystemExit):
        main(["equity", "do_ya", "-n", "4", "--history", "0 grabs Ah"])
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "should look like 'SEAT takes CARD'" in err


# ---------------------------------------------------------------- exact enumeration


def test_exact_enumeration_of_a_hand_worked_rank_wild_showdown():
    # Every up card dealt, heads-up. Mine: Ac Ad Kh 7s and the 2c wild: trips aces. The
    # other's Qc Qd 5h 3s and an unknown hole card, one of the 43 unseen. Under
    # wild_mode=rank every card of the hole card's rank is wild for it:
    # * Qh or Qs (2): the queens wild too, three wilds with the 5h: quad fives;
    # * a five, 5c 5d 5s (3): the 5h wild too, quad queens;
    # * a three, 3c 3d 3h (3): the 3s wild too, quad queens;
    # * any other (35): one wild, trips queens, below my aces.
    table = Table("do_ya", players=2, dealer=1, hole={0: "2c"}, up={0: "Ac Ad Kh 7s", 1: "Qc Qd 5h 3s"})
    r = equity(table, rules={"wild_mode": "rank"})
    assert r.meta["exact"] and r.meta["deals"] == 43
    assert r.seats.share[0] == pytest.approx(35 / 43, abs=1e-12)
    assert r.seats.p_scoop[0] == pytest.approx(35 / 43, abs=1e-12)
    assert r.seats.p_high[1] == pytest.approx(8 / 43, abs=1e-12)
    # With only the hole card wild the other always has trips queens: I win every way.
    plain = equity(table)
    assert plain.meta["exact"] and plain.meta["deals"] == 43 and plain.seats.share.tolist() == [1.0, 0.0]


@pytest.mark.parametrize("rules", [{"wild_mode": "rank", "split_mode": "cards_speak"},
                                   {"split_mode": "cards_speak", "low_qualifier": 8}])
def test_exact_enumeration_agrees_with_the_monte_carlo(rules):
    # Three seats, every up card dealt, the other two hole cards unknown: 39 x 38 ways.
    table = Table("do_ya", players=3, dealer=2, hole={0: "5c"},
                  up={0: "Ah 4d 6c Kh", 1: "2s 3s 8d 8h", 2: "Qc Jd 5s 7h"})
    ex = equity(table, rules=rules)
    assert ex.meta["exact"] and ex.meta["deals"] == 39 * 38 and ex.seats.share_se.tolist() == [0.0] * 3
    assert abs(ex.seats.share.sum() - 1) < 1e-12
    mc = equity(table, rules=rules, exact=False, precision=0.004, seed=9)
    assert not mc.meta["exact"]
    for s in range(3):
        assert abs(mc.seats.share[s] - ex.seats.share[s]) < 4.5 * mc.seats.share_se[s] + 1e-9
        assert abs(mc.seats.p_low[s] - ex.seats.p_low[s]) < 0.03


def test_no_exact_samples_and_declarations_are_not_enumerated(capsys):
    args = ["equity", "do_ya", "-n", "2", "--dealer", "1", "--hole", "0=2c", "--up", "0=Ac Ad Kh 7s",
            "--up", "1=Qc Qd 5h 3s", "--rule", "wild_mode=rank", "--format", "json", "--precision", "0.05"]
    main(args)
    assert json.loads(capsys.readouterr().out)["meta"]["exact"] is True
    main(args + ["--no-exact"])
    meta = json.loads(capsys.readouterr().out)["meta"]
    assert meta["exact"] is False and meta["deals"] >= 1_000
    main(args + ["--rule", "split_mode=declare"])
    assert json.loads(capsys.readouterr().out)["meta"]["exact"] is False


def test_condition_needs_a_history():
    with pytest.raises(WantitError, match="--condition needs the history of the choices seen"):
        equity(Table("do_ya", players=3, up={0: "Ah"}), condition=True)


def test_a_state_file_with_a_history_and_declined(tmp_path):
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"variant": "do_ya", "players": 4, "dealer": 3, "declined": True,
                                "history": ["0 refuses 7c", "0 takes 2d"]}))
    inp = get_variant("do_ya").inputs(4)
    st = table_state(inp, load_table(path))
    assert [LAY.get(st, k) for k in ("phase", "turn", "rejections", "n_pool")] == [DY.PH_DRAW, 1, 1, 1]
    assert LAY.view(st, "up")[0, 0] == card("2d") and LAY.view(st, "pool")[0] == card("7c")
