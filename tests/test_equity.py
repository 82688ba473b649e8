"""Equity from a described table (analyzer.table, analyzer.equity): against an
independent Monte Carlo on a peer evaluator, on tables whose answer is known
exactly, and every kind of impossible table refused with its message."""

import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from analyzer.cards import parse_cards
from analyzer.cli import main
from analyzer.engine import play_state, new_stream
from analyzer.decide import decide
from analyzer.equity import equity
from analyzer.errors import WantitError
from analyzer.table import Table, load_table, table_state
from analyzer.variants import get_variant
from kernels.cards import card_bit
from kernels.games import common as C
from kernels.games import selection_rejection as SR

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def independent_stud_share(known_hole, known_up, gone, n, me, trials, seed):
    """My expected share of a high-only pot when every seat's missing cards (to seven)
    are random unseen cards: a plain Monte Carlo on eval7, sharing ties equally."""
    import eval7

    rng = np.random.default_rng(seed)
    known = [list(known_hole.get(s, [])) + list(known_up.get(s, [])) for s in range(n)]
    used = {c for cards in known for c in cards} | set(gone)
    unseen = np.array([c for c in range(52) if c not in used])
    names = "23456789TJQKA"
    deck = [eval7.Card(names[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    total = 0.0
    for _ in range(trials):
        draw = iter(rng.permutation(unseen))
        values = []
        for s in range(n):
            cards = known[s] + [int(next(draw)) for _ in range(7 - len(known[s]))]
            values.append(eval7.evaluate([deck[c] for c in cards]))
        best = max(values)
        winners = [s for s in range(n) if values[s] == best]
        total += 1.0 / len(winners) if me in winners else 0.0
    return total / trials


def codes(text):
    return [int(c) for c in parse_cards(text, allow_empty=True)]


@pytest.mark.parametrize("case", [
    # seat 0 holds a pair of aces and an ace up, round 2 about to start
    {"n": 4, "hole": {0: "As Ks"}, "up": {0: "Ah", 1: "7c", 2: "Td", 3: "2c"}, "gone": ""},
    # mid-game, three players, others' hole cards unknown, two dead cards
    {"n": 3, "hole": {0: "9h 9d"}, "up": {0: "9c 4s", 1: "Qh Qc", 2: "5d 6d"}, "gone": "Kc Kd"},
])
def test_always_take_equity_is_stud_equity_by_an_independent_monte_carlo(case):
    n = case["n"]
    table = Table("selection_rejection", players=n, hole=case["hole"], up=case["up"], gone=case["gone"])
    r = equity(table, policies="always_take", rules={"split_mode": "high_only"}, precision=0.004, seed=3)
    ours = r.seats.share[0]
    se = r.seats.share_se[0]
    theirs = independent_stud_share({s: codes(c) for s, c in case["hole"].items()},
                                    {s: codes(c) for s, c in case["up"].items()}, codes(case["gone"]), n, 0,
                                    trials=20_000, seed=5)
    their_se = np.sqrt(max(theirs * (1 - theirs), 0.01) / 20_000)
    assert abs(ours - theirs) < 4.5 * np.hypot(se, their_se), (ours, theirs)
    assert r.meta["half_width"] < 0.004 and r.meta["reached_precision"]
    assert abs(r.seats.share.sum() - 1.0) < 1e-9  # every pot is divided among the seats
    assert abs(r.seats.ev.sum()) < 1e-9  # zero-sum in antes


@pytest.mark.parametrize("case", [
    {"n": 4, "hole": {0: "As Ks"}, "up": {0: "Ah", 1: "7c", 2: "Td", 3: "2c"}, "gone": "", "split": "high_only"},
    {"n": 3, "hole": {0: "9h 9d"}, "up": {0: "9c 4s", 1: "Qh Qc", 2: "5d 6d"}, "gone": "Kc Kd",
     "split": "high_only"},
    {"n": 3, "hole": {0: "Ah 3d"}, "up": {0: "2s 5c", 1: "Kh Qc", 2: "9d 9s"}, "gone": "", "split": "cards_speak"},
])
def test_always_take_equity_agrees_with_poker_equity_stud(case):
    """poker-equity's stud on the same partly known hands ('*' for an unknown card);
    its stud_hi_lo is eight-or-better, so against cards_speak with the 8 qualifier."""
    import poker_equity as pe

    n = case["n"]
    rules = {"split_mode": case["split"]}
    game = "stud"
    if case["split"] == "cards_speak":
        rules["low_qualifier"] = 8
        game = "stud_hi_lo"
    table = Table("sr", players=n, hole=case["hole"], up=case["up"], gone=case["gone"])
    r = equity(table, policies="always_take", rules=rules, precision=0.004, seed=11)
    known = max(len(codes(case["hole"].get(s, ""))) + len(codes(case["up"].get(s, ""))) for s in range(n))
    fields = []
    for s in range(n):
        mine = case["hole"].get(s, "").split() + case["up"].get(s, "").split()
        fields.append("".join(mine) + "*" * (known - len(mine)))
    theirs = pe.chunk_from_text(game, fields, "", "".join(case["gone"].split()), samples=200_000, seed=1)
    for s in range(n):
        p = theirs["players"][s]
        assert abs(r.seats.share[s] - p["equity"]) < 4.5 * np.hypot(r.seats.share_se[s], p["std_error"]), s


def test_a_table_with_every_card_known_has_an_exact_answer():
    # After 7th street, every card known: seat 0's straight flush takes every pot.
    table = Table("sr", players=3, hole={0: "9s Ts 2d", 1: "Ah Ad 3c", 2: "Kh Kd 4c"},
                  up={0: "Js Qs Ks 5h", 1: "Ac As 6h 7h", 2: "Kc 8s 8d 8h"})
    r = equity(table, rules={"split_mode": "high_only"})
    assert r.seats.share.tolist() == [1.0, 0.0, 0.0]
    assert r.seats.share_se.tolist() == [0.0, 0.0, 0.0]
    assert r.seats.ev.tolist() == [2.0, -1.0, -1.0]
    assert r.meta["exact"] and r.meta["deals"] == 1  # one way for the cards to lie
    sampled = equity(table, rules={"split_mode": "high_only"}, exact=False)
    assert sampled.seats.share.tolist() == [1.0, 0.0, 0.0] and sampled.meta["deals"] == 4_000


def test_the_unknown_cards_are_dealt_from_the_unseen_ones_afresh_each_deal():
    v = get_variant("sr")
    inp = v.inputs(4, policies="heuristic")
    table = Table("sr", players=4, hole={0: "As Ks"}, up={0: "Ah", 1: "7c", 2: "Td", 3: "2c"}, gone="3h 3s")
    st = table_state(inp, table)
    known = {int(c) for c in parse_cards("As Ks Ah 7c Td 2c 3h 3s")}
    others = set()
    for deal in range(50):
        played = play_state(inp, st.copy(), new_stream(1, deal))
        hole = SR.STATE.view(played.state, "hole")[:4, :3]
        up = SR.STATE.view(played.state, "up")[:4]
        cards = hole.ravel().tolist() + up.ravel().tolist()
        assert len(set(cards)) == 28 and not (set(codes("3h 3s")) & set(cards))  # they are gone
        assert hole[0, :2].tolist() == codes("As Ks") and up[0, 0] == codes("Ah")[0]
        for s in range(4):
            assert int(SR.STATE.view(played.state, "hole_mask")[s]) == sum(int(card_bit(int(c))) for c in hole[s])
        others |= set(hole[1:, :2].ravel().tolist())
        assert not known & set(hole[1:].ravel().tolist())
    assert len(others) > 30  # the others' hole cards differ from deal to deal


def test_a_card_on_offer_is_offered_to_its_seat_with_its_refusals():
    v = get_variant("sr")
    inp = v.inputs(4, policies="heuristic")
    table = Table("sr", players=4, dealer=3, hole={1: "5c 6c"}, up={0: "Ah", 1: "7c", 2: "Td", 3: "2c 9d"},
                  offer="8c", to=1, refusals=1)
    st = table_state(inp, table)
    played = play_state(inp, st, new_stream(0, 0), stop=0)
    from analyzer.engine import decision

    assert decision(inp, played.state) == ("offer", 1, [C.TAKE, C.REFUSE])
    assert SR.STATE.get(played.state, "offer") == codes("8c")[0]
    assert SR.STATE.get(played.state, "rejections") == 1
    assert SR.STATE.get(played.state, "needs") == 0b0111  # seat 3 has its round-2 card
    # Forced to take by a second refusal: with max_rejections 2 the next seat must take it.
    done = play_state(inp, st.copy(), new_stream(0, 0), forced=C.REFUSE)
    events = [tuple(int(x) for x in e[:4]) for e in done.events[:3]]
    assert events[1] == (C.EV_OFFER, 2, codes("8c")[0], 2)
    assert (C.EV_TAKE, 2, codes("8c")[0], 1) == events[2]


def test_a_fresh_card_for_a_named_seat_is_turned_up_for_it():
    inp = get_variant("sr").inputs(3, policies="always_take")
    st = table_state(inp, Table("sr", players=3, up={0: "Ah", 1: "", 2: "Kd"}, to=1))
    played = play_state(inp, st, new_stream(2, 0))
    first = [tuple(int(x) for x in e[:3]) for e in played.events[:1]]
    assert first[0][0] == C.EV_TAKE and first[0][1] == 1
    assert SR.STATE.view(played.state, "up")[1, 0] == first[0][2]


@pytest.mark.parametrize("table,message", [
    (dict(hole={0: "As As"}), "card As is given twice"),
    (dict(hole={0: "As"}, up={2: "As"}), "card As is given twice (up card of seat 2 and hole card of seat 0)"),
    (dict(up={0: "Ah Kh", 1: ""}), "seats hold 0 to 2"),
    (dict(up={0: "Ah Kh Qh Jh Th"}), "5 up cards; a seat takes 4"),
    (dict(hole={0: "As Ks Qs Js"}), "4 hole cards; a seat has 3 at most"),
    (dict(hole={0: "As Ks Qs"}, up={0: "Ah", 1: "2c", 2: "3c", 3: "4c"}), "third hole card"),
    (dict(up={0: "Ah", 1: "Kd"}), "round 1 is under way"),
    (dict(up={0: "Ah"}, offer="Kd", to=0), "seat 0 already has its up card of round 1"),
    (dict(offer="Kd"), "say which seat"),
    (dict(offer="Kd", to=1, refusals=3), "refused 2 times at most"),
    (dict(refusals=1), "give the card on offer"),
    (dict(up={0: "Ah", 1: "Kd", 2: "Qc"}, offer="Jd", to=3, refusals=1), "only one still needing"),
    (dict(hole={9: "As"}), "seat 9 is not a seat 0..3"),
    (dict(hole={0: "Zz"}), "unknown card 'Zz'"),
    (dict(up={0: "??"}), "an unknown one cannot be up"),
    (dict(me=4), "me: seat 4 is not a seat"),
    (dict(dealer=-1), "dealer: seat -1 is not a seat"),
    (dict(up={0: "Ah Kh Qh Jh", 1: "2c 3c 4c 5c", 2: "2d 3d 4d 5d", 3: "2h 3h 4h 5h"}, offer="9s", to=1),
     "no card is offered any more"),
    # Seat 0 leads round 1 (the dealer is seat 3): seat 1 holding its card took the card
    # seat 0 refused, and the next card goes to seat 2.
    (dict(up={1: "As"}, offer="Kd", to=0), "to: seat 0 cannot be offered a card with no refusal in round 1, led by "
                                           "seat 0, with seat 1 holding its card: the card goes to seat 2"),
    (dict(offer="Kd", to=2), "with no seat holding its card: the card goes to seat 0"),
    (dict(up={0: "Ah"}, offer="Kd", to=2, dealer=1), "led by seat 2, with seat 0 holding its card: the card goes "
                                                     "to seat 1"),
])
def test_impossible_tables_are_refused_with_what_is_wrong(table, message):
    inp = get_variant("sr").inputs(4)
    with pytest.raises(WantitError, match=message.replace("(", r"\(").replace(")", r"\)")):
        table_state(inp, Table("sr", players=4, **table))


@pytest.mark.parametrize("players,rules", [(3, {}), (4, {}), (4, {"max_rejections": 2}),
                                           (3, {"last_player_rule": "forced", "max_rejections": 2})])
def test_every_offer_a_deal_reaches_is_a_position_a_table_may_describe(players, rules):
    """The table's check of whose turn it is (``_offer_positions``) against the
    kernel: at every offer decision of deals played with random choices, the seats
    still needing a card, the seat offered and the refusals are a position the check
    accepts for that round's leader; and the check accepts no more positions than
    the deals reach (every free one is seen)."""
    from analyzer.engine import decision, new_state
    from analyzer.table.selection_rejection import _offer_positions

    inp = get_variant("sr").inputs(players, rules=rules)
    max_rej = int(inp.rules[SR.R_MAX_REJECTIONS])
    fresh = int(inp.rules[SR.R_LAST_PLAYER_RULE]) == SR.LAST_PLAYER_FRESH_CARD
    rng = np.random.default_rng(players)
    seen = set()
    for deal in range(120):
        dealer = deal % players
        st = new_state(inp, dealer=dealer)
        stream = new_stream(7, deal)
        while not play_state(inp, st, stream, stop=int(st[C.B.decisions]), trace=False).finished:
            kind, seat, actions = decision(inp, st)
            if kind == "offer":
                rnd, needs = int(st[SR.S.round]), int(st[SR.S.needs])
                lone = needs == 1 << seat
                refusals = int(st[SR.S.lone_rejections] if lone else st[SR.S.rejections])
                leader = (dealer + 1 + rnd) % players
                assert (needs, seat, refusals) in _offer_positions(players, leader, max_rej, fresh), (deal, rnd)
                seen.add((leader, needs, seat, refusals))
            play_state(inp, st, stream, stop=int(st[C.B.decisions]) + 1, forced=int(rng.choice(actions)),
                       trace=False)
    for leader in range(players):
        free = set()
        for needs, seat, refusals in _offer_positions(players, leader, max_rej, fresh):
            lone = needs == 1 << seat
            if (refusals < max_rej) if (lone and fresh) else (refusals < max_rej and not lone):
                free.add((leader, needs, seat, refusals))
        assert free <= seen, sorted(free - seen)[:5]


def test_the_example_state_file_and_its_cli_json(capsys):
    path = EXAMPLES / "selection_rejection.toml"
    table = load_table(path)
    assert table.variant == "selection_rejection" and table.offer == "8c"
    main(["equity", "sr", "--state", str(path), "--format", "json", "--precision", "0.02"])
    data = json.loads(capsys.readouterr().out)
    assert set(data["meta"]) >= {"deals", "exact", "precision"} and data["meta"]["exact"] is False
    seats = data["seats"]
    assert [s["seat"] for s in seats] == list(range(data["meta"]["players"]))
    assert set(seats[0]) == {"seat", "share", "share_se", "ev", "ev_se", "p_high", "p_low", "p_scoop"}
    assert abs(sum(s["share"] for s in seats) - 1) < 1e-9
    assert 1.96 * seats[data["meta"]["me"]]["share_se"] < 0.02


def test_flags_override_the_state_file(capsys):
    path = EXAMPLES / "selection_rejection.toml"
    main(["equity", "sr", "--state", str(path), "--refusals", "0", "--format", "json", "--precision", "0.05"])
    assert json.loads(capsys.readouterr().out)["meta"]["deals"] >= 1000


@pytest.mark.parametrize("args,message", [
    (["equity", "sr", "--hole", "0=As As"], "card As is given twice"),
    (["equity", "sr", "--hole", "As Ks"], "should look like SEAT=CARDS"),
    (["equity", "sr", "--precision", "0"], "precision 0 must be between 0 and 1"),
    (["equity", "sr", "--max-deals", "0"], "max_deals 0 must be"),
    (["equity", "sr", "--max-deals", "1"], "max_deals 1 must be 2..1,000,000,000 (an interval needs at least 2"),
    (["decide", "sr", "--max-deals", "1"], "max_deals 1 must be 2..100,000,000"),
    (["equity", "selection", "--max-deals", "1"], "max_deals 1 must be 2.."),
    (["equity", "selection", "--round", "12"], "round: 12 is not a round 1..11"),
    (["equity", "sr", "--state", "/nonexistent/x.toml"], "not found"),
])
def test_bad_equity_queries_are_one_line(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and message in err, err


# Seat 0 leads round 1 and refuses the As; seat 1 takes it. Seat 0 plays a policy that
# takes a card only when it raises its hand by nearly a category (no draws, no denial):
# it would take the As holding an ace (a pair), and refuses it holding none.
READ = Table("sr", players=4, dealer=3, me=3, hole={3: "7d 2c"}, up={1: "As"},
             history="0 refuses As; 1 takes As")
READ_POLICIES = {"all": "heuristic", 0: "heuristic:take_threshold=0.9,draw_weight=0,deny_weight=0"}


def test_condition_a_refusal_rules_out_the_hole_cards_that_would_have_taken_it():
    from analyzer.table import condition_data
    from kernels.games.common import REJECTED

    inp = get_variant("sr").inputs(4, policies=READ_POLICIES)
    st = table_state(inp, READ)
    conditioned = replace(inp, idata=condition_data(inp, READ))
    aces = set(codes("Ac Ad Ah"))
    kept = with_ace_kept = with_ace = 0
    for deal in range(3000):
        played = play_state(conditioned, st.copy(), new_stream(5, deal), trace=False)
        holds_ace = bool(aces & set(SR.STATE.view(played.state, "hole")[0, :2].tolist()))
        with_ace += holds_ace
        if played.result[0] != REJECTED:
            kept += 1
            with_ace_kept += holds_ace
    assert with_ace_kept == 0  # a seat that refused the As holds no ace
    assert with_ace > 250  # while 12% of all deals give it one
    # By hand: two hole cards from the 49 unseen, 3 of them aces: P(no ace) = C(46,2)/C(49,2).
    p = 1035 / 1176
    assert abs(kept / 3000 - p) < 4.5 * np.sqrt(p * (1 - p) / 3000)


def test_condition_reports_the_acceptance_and_changes_the_answer():
    plain = equity(READ, policies=READ_POLICIES, precision=0.01, seed=4)
    read = equity(READ, policies=READ_POLICIES, precision=0.01, seed=4, condition=True)
    assert read.meta["conditioned"] and not plain.meta["conditioned"]
    assert read.meta["effective_sample_size"] == read.meta["deals"] < read.meta["deals_played"]
    assert 0.83 < read.meta["acceptance"] < 0.93 and plain.meta["acceptance"] == 1.0
    assert abs(read.seats.share.sum() - 1) < 1e-9


@pytest.mark.parametrize("history,message", [
    ("1 refuses As", "seat 0 is offered the card then, not seat 1"),
    ("0 refuses As; 1 refuses Ks", "the card on offer is As"),
    ("0 refuses As; 1 refuses As; 2 refuses As", "seat 2 had to take it"),
    ("0 takes As", "seat 0 takes As by it, but its up cards are given as none"),
    ("0 grabs As", "should look like 'SEAT takes CARD'"),
    ("0 refuses As; 1 takes As; 2 takes Kd; 3 takes Qd; 0 takes Jd; 2 takes 9c", "seat 1 is offered the card then"),
])
def test_a_history_that_cannot_have_happened_is_refused(history, message):
    inp = get_variant("sr").inputs(4)
    with pytest.raises(WantitError, match=message):
        table_state(inp, Table("sr", players=4, dealer=3, up={1: "As"}, history=history))


def test_condition_needs_a_history_and_a_possible_one():
    with pytest.raises(WantitError, match="needs the history"):
        equity(Table("sr", players=4, up={}), condition=True)
    with pytest.raises(WantitError, match="nearly\\) impossible"):
        equity(READ, policies={"all": "always_take"}, condition=True)


def test_a_conditioned_query_that_keeps_too_few_deals_says_so_under_the_impossible_limit():
    # Under the always-take field no deal agrees with seat 0's refusal; with fewer
    # deals than it takes to call the history impossible, the query still refuses to
    # estimate from nothing (it had divided by zero deals and printed nan), the same
    # for equity and decide, from the API and the command line.
    few = "only 0 of 3,000 deals agree with the choices seen, too few to estimate from: raise --max-deals"
    for query, table in ((equity, READ), (decide, replace(READ, me=2))):  # decide: seat 2 is to act
        with pytest.raises(WantitError, match=re.escape(few)):
            query(table, policies={"all": "always_take"}, condition=True, max_deals=3000)
    with pytest.raises(SystemExit) as exc:
        main(["equity", "do_ya", "--state", str(EXAMPLES / "do_ya.toml"), "--condition", "--max-deals", "2000"])
    assert exc.value.code == 2


def test_an_interval_from_fewer_deals_than_the_stopping_rule_trusts_has_not_reached_the_precision(capsys):
    # 500 deals give a half-width far under 0.5, but the stopping rule reads a standard
    # error only from 1,000 deals on: the run stopped at --max-deals, and says so.
    r = equity(READ, precision=0.5, max_deals=500)
    assert r.meta["deals"] == 500 and r.meta["half_width"] < 0.5 and not r.meta["reached_precision"]
    assert equity(READ, precision=0.5, max_deals=5000).meta["reached_precision"]
    main(["equity", "sr", "--state", str(EXAMPLES / "selection_rejection.toml"), "--max-deals", "500"])
    assert "stopped at --max-deals 500 before reaching the precision" in " ".join(capsys.readouterr().out.split())


def test_a_share_interval_stays_within_0_and_1(capsys):
    # From two deals the normal interval of a share reaches below 0: it printed as
    # "(-0.2400-0.7400)". A share is a fraction of the pot.
    r = equity(Table("sr", players=5), max_deals=2, seed=0, threads=1)
    seats = r.seats
    assert (seats.share_lo >= 0).all() and (seats.share_hi <= 1).all()
    assert (seats.share_lo <= seats.share).all() and (seats.share <= seats.share_hi).all()
    assert ((seats.share - 1.96 * seats.share_se) < 0).any()  # the case clipped
    assert not re.search(r" \d\.\d{4} \(-", r.format_table())  # no share printed with a negative bound


def test_a_precision_too_fine_to_reach_plays_to_max_deals():
    # The deals such a precision needs overflow a float (int(inf) had raised
    # OverflowError after the first chunk); the run plays its --max-deals and says so,
    # without numpy's overflow warning on stderr.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        r = equity(READ, precision=1e-300, max_deals=9000)
        assert r.meta["deals"] == 9000 and not r.meta["reached_precision"]
        path = EXAMPLES / "selection.toml"
        r = equity(load_table(path), precision=1e-300, max_deals=3000)
    assert r.meta["deals"] == 3000 and not r.meta["reached_precision"]


def test_condition_through_the_cli(capsys):
    main(["equity", "sr", "-n", "4", "--dealer", "3", "--me", "3", "--hole", "3=7d 2c", "--up", "1=As",
          "--history", "0 refuses As; 1 takes As", "--condition", "--policy", "all=heuristic",
          "--policy", "0=heuristic:take_threshold=0.9,draw_weight=0,deny_weight=0", "--format", "json",
          "--precision", "0.02"])
    meta = json.loads(capsys.readouterr().out)["meta"]
    assert meta["conditioned"] and 0.8 < meta["acceptance"] < 0.95


@pytest.mark.parametrize("split", ["high_only", "cards_speak"])
def test_exact_enumeration_agrees_with_the_monte_carlo(split):
    # Heads-up at the showdown: my seven cards known, the other's three hole cards
    # unknown: C(41, 3) = 10,660 ways.
    table = Table("sr", players=2, dealer=1, hole={0: "Ah 5d 9c"}, up={0: "Kd 8s 4c 3h", 1: "Qs Jh 7d 2s"})
    ex = equity(table, rules={"split_mode": split})
    assert ex.meta["exact"] and ex.meta["deals"] == 10_660 and ex.seats.share_se.tolist() == [0.0, 0.0]
    assert abs(ex.seats.share.sum() - 1) < 1e-12
    mc = equity(table, rules={"split_mode": split}, exact=False, precision=0.003, seed=9)
    assert not mc.meta["exact"]
    assert abs(mc.seats.share[0] - ex.seats.share[0]) < 4.5 * mc.seats.share_se[0]
    assert abs(mc.seats.p_high[0] - ex.seats.p_high[0]) < 0.02


def test_too_many_completions_or_choices_left_fall_back_to_sampling():
    # Declarations are choices: with the default declare split nothing is enumerated.
    table = Table("sr", players=2, dealer=1, hole={0: "Ah 5d 9c"}, up={0: "Kd 8s 4c 3h", 1: "Qs Jh 7d 2s"})
    assert not equity(table, precision=0.05).meta["exact"]
    # Five seats at 7th street with every hole card of the others unknown: far too many ways.
    many = Table("sr", players=5, hole={0: "Ah 5d"}, up={s: c for s, c in enumerate(
        ["Kd 8s 4c 3h", "Qs Jh 7d 2s", "9h 9s Tc Td", "6c 6d 7c 7h", "Js Jc 2h 2d"])})
    assert not equity(many, rules={"split_mode": "high_only"}, precision=0.05).meta["exact"]


@pytest.mark.parametrize("text,message", [
    ('variant = "sr"\ngone = 3.5\n', "gone: 3.5 is not cards"),
    ('variant = "sr"\nhole = 5\n', "hole: give a table of seat = cards"),
    ('variant = "sr"\nhistory = 5\n', "history: 5 should be a list"),
    ('variant = "sr"\nplayers = "x"\n', "players: 'x' is not a whole number"),
    ('variant = "do_ya"\n', "describes a do_ya table, not sr"),
    ('variant = "sr"\ncolour = 1\n', "unknown field 'colour'"),
    ('variant = "sr"\nme = 1.5\n', "me: seat 1.5 is not a seat"),
    ('variant = "sr\n', "not valid TOML"),
])
def test_a_bad_state_file_is_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "table.toml"
    path.write_text(text)
    with pytest.raises(SystemExit):
        main(["equity", "sr", "--state", str(path)])
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_fields_of_another_game_are_refused():
    with pytest.raises(WantitError, match="a selection_rejection table has no fees"):
        equity(Table("sr", players=3, fees={0: 4}))
    with pytest.raises(WantitError, match="history: reading the choices seen is built for selection_rejection, "
                                          "do_ya, train_wreck so far, not anaconda"):
        equity(Table("anaconda", players=3, history="0 refuses As"))


def test_a_game_without_a_table_builder_is_named(monkeypatch):
    from analyzer import table as T

    monkeypatch.delitem(T.BUILDERS, "selection")  # every game has one now: take one away
    inp = get_variant("selection").inputs(2)
    with pytest.raises(WantitError, match="describing a table is built for selection_rejection, do_ya, anaconda, "
                                          "train_wreck so far, not selection"):
        table_state(inp, Table("selection", players=2))


def test_the_history_may_end_before_a_fresh_card_that_the_table_names():
    # The history leaves the next card for seat 2 (seat 1 took the As seat 0 refused);
    # the table may name that card as turned up. Naming it was refused ("the table
    # says otherwise") while the same history and --to alone were taken.
    inp = get_variant("sr").inputs(3)
    base = dict(players=3, dealer=2, up={1: "As"}, history="0 refuses As; 1 takes As")
    st = table_state(inp, Table("sr", offer="Kd", to=2, **base))
    assert st[SR.S.offer] == codes("Kd")[0] and st[C.B.turn] == 2 and st[SR.S.rejections] == 0
    assert table_state(inp, Table("sr", to=2, **base))[C.B.turn] == 2
    for wrong in (dict(offer="Kd", to=0), dict(offer="Kd", to=2, refusals=1)):
        with pytest.raises(WantitError, match="the history leaves the next card for seat 2 with 0 refusals"):
            table_state(inp, Table("sr", **wrong, **base))


def test_the_history_rows_hold_up_cards_as_the_kernels_card_masks():
    from analyzer.table import condition_data

    table = Table("sr", players=3, dealer=2, up={0: "As Kd", 1: "7c", 2: "2h"},
                  history="0 takes As; 1 takes 7c; 2 takes 2h; 1 refuses Kd; 2 refuses Kd; 0 takes Kd")
    inp = get_variant("sr").inputs(3)
    rows = condition_data(inp, table).reshape(-1, SR.HISTORY_WIDTH)
    by_seat = {int(r[0]): r for r in rows if r[2] == 0}  # the refusals of round 2
    assert int(by_seat[1][3]) == int(card_bit(codes("7c")[0]))  # seat 1's up cards then: the 7c
    assert int(by_seat[1][4]) == int(card_bit(codes("2h")[0]))  # the next seat, 2, shows the 2h
    assert int(by_seat[2][4]) == int(card_bit(codes("As")[0]))  # and after it seat 0, the As


@pytest.mark.parametrize("name", ["selection_rejection", "do_ya", "train_wreck", "anaconda"])
def test_a_state_file_may_give_its_numbers_as_text(tmp_path, name):
    """Whole numbers given as text ("5") are read as the numbers, in every field that
    takes one: fees and Selection's round always were, while players, refusals and
    street had been refused."""
    path = Path(__file__).parents[1] / "examples" / f"{name}.toml"
    text = path.read_text()
    quoted = re.sub(r'^(players|dealer|me|to|refusals|street) = (\d+)', r'\1 = "\2"', text, flags=re.M)
    assert quoted != text
    (tmp_path / "t.toml").write_text(quoted)
    from analyzer.equity import setup

    _, n, _, as_numbers, _, me, _ = setup(load_table(path))
    _, n_text, _, as_text, _, me_text, _ = setup(load_table(tmp_path / "t.toml"))
    assert (n_text, me_text) == (n, me) and np.array_equal(as_text, as_numbers)
