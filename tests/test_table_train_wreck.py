"""Equity from a described Train Wreck table (analyzer.table.train_wreck):
stud equity against an independent eval7 Monte Carlo when nothing special can
happen, exact answers, the unknown cards dealt afresh from the unseen ones, a
described offer as the first decision, the special pairs a described table still
owes (and those it does not), and every impossible table refused in one line."""

import itertools
import json
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from analyzer.cards import card_text
from analyzer.cli import main
from analyzer.engine import decision, new_state, new_stream, play_state
from analyzer.equity import equity
from analyzer.errors import WantitError
from analyzer.table import Table, condition_data, load_table, table_state
from analyzer.variants import get_variant
from kernels.cards import NO_CARD, card_bit
from kernels.games import common as C
from kernels.games import train_wreck as TW
from tests.test_equity import codes, independent_stud_share

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_wreck.toml"
PLAIN = {"special_pairs": "none"}


def tw(n, **fields):
    return Table("train_wreck", players=n, **fields)


def state(table, policies=None, rules=None):
    inp = get_variant("tw").inputs(table.players, policies=policies, rules=rules)
    return inp, table_state(inp, table)


def events(played, *kinds):
    return [tuple(int(x) for x in e) for e in played.events if e[0] in kinds]


def mask(cards):
    m = 0
    for c in cards:
        m |= int(card_bit(c))
    return m


@pytest.mark.parametrize("case", [
    # The start of 5th street, 4 players: my queens; the dealer paid 4 to refuse (and bury) the 9c on 4th.
    {"n": 4, "dealer": 3, "hole": {0: "Qs Qd"}, "up": {0: "Qh 4c", 1: "Ac 7d", 2: "Ks Kd", 3: "2h 8s"},
     "gone": "9c", "fees": {3: 4}, "offer": None, "to": None, "refusals": 0, "known_hole": {0: "Qs Qd"}},
    # 6th street under way, 3 players, dealer seat 0: seat 1 (first) paid 16 to refuse the Js and is dealt the
    # 3s instead; the Js is offered to seat 2, one of whose hole cards is known.
    {"n": 3, "dealer": 0, "hole": {0: "Th 9h", 2: "?? 5c"},
     "up": {0: "8h 7h 2s", 1: "Ad Ah 6c 3s", 2: "Kc Qc Jc"}, "gone": "", "fees": {1: 16}, "offer": "Js", "to": 2,
     "refusals": 1, "known_hole": {0: "Th 9h", 2: "5c"}},
])
def test_always_accept_with_no_special_pairs_is_stud_equity_by_an_independent_monte_carlo(case):
    n = case["n"]
    table = tw(n, dealer=case["dealer"], hole=case["hole"], up=case["up"], gone=case["gone"], fees=case["fees"],
               offer=case["offer"], to=case["to"], refusals=case["refusals"])
    r = equity(table, policies="always_accept", rules=PLAIN, precision=0.004, seed=3)
    ours, se = r.seats.share[0], r.seats.share_se[0]
    up = {s: codes(c) for s, c in case["up"].items()}
    if case["offer"]:
        up[case["to"]] = up[case["to"]] + codes(case["offer"])  # always accepted
    theirs = independent_stud_share({s: codes(c) for s, c in case["known_hole"].items()}, up, codes(case["gone"]),
                                    n, 0, trials=20_000, seed=5)
    their_se = np.sqrt(max(theirs * (1 - theirs), 0.01) / 20_000)
    assert abs(ours - theirs) < 4.5 * np.hypot(se, their_se), (ours, theirs)
    assert r.meta["reached_precision"]
    assert abs(r.seats.share.sum() - 1.0) < 1e-9 and abs(r.seats.ev.sum()) < 1e-9


def test_a_table_with_every_card_known_and_no_choice_left_has_an_exact_answer():
    # The start of 7th street, every card dealt so far known: seat 0's royal flush wins whatever comes. Seat 1
    # paid 4 on 4th street; the dealer paid 8 on 5th, and its refused 9h was buried: the pot is 3 + 4 + 8.
    table = tw(3, dealer=2, hole={0: "Ts Js", 1: "2c 3c", 2: "Kd Kh"},
               up={0: "Qs Ks As 2d", 1: "4c 6d 7d 8d", 2: "9s 9c Jh Jd"}, gone="9h", fees={1: 4, 2: 8})
    r = equity(table)
    assert r.seats.share.tolist() == [1.0, 0.0, 0.0]
    assert r.seats.share_se.tolist() == [0.0, 0.0, 0.0]
    assert r.seats.ev.tolist() == [14.0, -5.0, -9.0]
    assert r.meta["deals"] == 4_000  # stopped at the first check: no uncertainty left


def test_the_start_of_7th_street_against_every_pair_of_7th_cards():
    # Two players, every card known but the two face-down 7th-street cards: the exact share by enumeration.
    import eval7

    hole, up = {0: "Ah Kd", 1: "7s 7c"}, {0: "Qh Jh 9c 2s", 1: "8d 8h Tc 3d"}
    r = equity(tw(2, hole=hole, up=up), precision=0.004, seed=11)
    names = "23456789TJQKA"
    deck = [eval7.Card(names[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    mine, theirs = codes(hole[0] + " " + up[0]), codes(hole[1] + " " + up[1])
    unseen = [c for c in range(52) if c not in mine + theirs]
    total = 0.0
    pairs = list(itertools.permutations(unseen, 2))
    for a, b in pairs:
        x, y = eval7.evaluate([deck[c] for c in mine + [a]]), eval7.evaluate([deck[c] for c in theirs + [b]])
        total += 1.0 if x > y else 0.5 if x == y else 0.0
    exact = total / len(pairs)
    assert abs(r.seats.share[0] - exact) < 4.5 * r.seats.share_se[0], (r.seats.share[0], exact)


def test_the_unknown_cards_are_dealt_from_the_unseen_ones_afresh_each_deal():
    table = load_table(EXAMPLE)
    inp, st = state(table)
    known = set(codes("Ks Qs Ah 5d 5h 7c 7h 2d 3c 3d 2c 2h 8s Jd Qh Td Kd"))
    others = set()
    for deal in range(40):
        paused = play_state(inp, st.copy(), new_stream(1, deal), stop=0).state  # the unknowns are dealt first
        hole = TW.STATE.view(paused, "hole")[:5]
        assert hole[0, :2].tolist() == codes("Ks Qs") and (hole[:, 2] == NO_CARD).all()
        dealt = hole[1:, :2].ravel().tolist()
        assert len(set(dealt)) == 8 and not known & set(dealt)
        for s in range(5):
            assert int(TW.STATE.view(paused, "hole_mask")[s]) == mask(hole[s, :2].tolist())
        others |= set(dealt)
        # Played to the end, no card is held twice and the buried and discarded cards stay out.
        end = play_state(inp, st.copy(), new_stream(1, deal)).state
        held = [c for c in TW.STATE.view(end, "hole")[:5].ravel().tolist() if c != NO_CARD]
        for s in range(5):
            held += TW.STATE.view(end, "up")[s, :TW.STATE.view(end, "n_up")[s]].tolist()
        assert len(held) == len(set(held)) and not set(codes("Qh Td")) & set(held)
    assert len(others) > 25  # the others' hole cards differ from deal to deal


def test_a_described_offer_is_the_first_decision_and_paying_it_puts_the_fee_in_the_pot():
    table = load_table(EXAMPLE)
    inp, st = state(table)
    played = play_state(inp, st.copy(), new_stream(0, 0), stop=0)
    assert decision(inp, played.state) == ("pay", 2, [C.ACCEPT, C.PAY])
    assert TW.STATE.get(st, "offered") == codes("Kd")[0] and TW.STATE.get(st, "refusals") == 1
    assert TW.STATE.get(st, "fee") == 8 and TW.STATE.get(st, "street") == 5 and TW.STATE.get(st, "step") == 3
    assert C.POT_STATE.view(st, "paid")[:5].tolist() == [1, 9, 1, 1, 5]  # antes and fees paid before
    # Seat 2 pays 8: it is dealt a card instead, and the Kd goes on to seat 3 with two refusals.
    paid = play_state(inp, st.copy(), new_stream(0, 0), forced=C.PAY, stop=1)
    assert events(paid, C.EV_PAY_FEE) == [(C.EV_PAY_FEE, 2, codes("Kd")[0], 8, 0)]
    assert events(paid, C.EV_OFFER)[-1] == (C.EV_OFFER, 3, codes("Kd")[0], 2, 0)
    assert decision(inp, paid.state)[:2] == ("pay", 3)
    assert C.POT_STATE.view(paid.state, "paid")[2] == 9
    done = play_state(inp, paid.state, new_stream(0, 0))
    out = TW.RESULT.view(done.result, "paid")[:5]
    assert out[1] == 9 and out[2] >= 9 and out[4] >= 5
    assert abs(TW.RESULT.view(done.result, "payout")[:5].sum() - out.sum()) < 1e-9  # the fees are in the pot


def test_a_pair_made_on_the_street_under_way_acts_at_its_end():
    # In the example my 5h made a pair of 5s on 5th street: at the end of the street I steal (by the
    # mandatory action), before 6th street's first offer.
    inp, st = state(load_table(EXAMPLE), policies="always_accept")
    assert TW.STATE.view(st, "pending")[:5].tolist() == [1 << 3, 0, 0, 0, 0]
    assert TW.STATE.view(st, "triggered")[:5].tolist() == [1 << 3, 0, 1 << 1, 1 << 0, 0]  # 3s and 2s acted on 4th
    played = play_state(inp, st, new_stream(4, 0))
    kinds = [e[0] for e in played.events]
    steal = kinds.index(C.EV_STEAL)
    assert played.events[steal][1] == 0 and steal < kinds.index(C.EV_STREET)  # before 6th street begins


# 6th street, 3 players, dealer seat 2: seat 0 took the 5h, its 5s having been discarded on 5th street by seat
# 2's pair of 3s after its own pair of 5s stole seat 1's Qd. The 5h re-forms a pair of 5s that has acted.
REFORMED = dict(street=6, dealer=2, hole={0: "Ac Ad"}, up={0: "5c 9d 5h", 1: "7c 8c", 2: "3c 3d Kh"},
                stolen={0: "Qd"}, discarded="5s", acted={0: "5"}, offer="Tc", to=1)


def test_a_pair_that_has_acted_does_not_act_again_unless_retrigger():
    _, st = state(tw(3, **REFORMED))
    assert TW.STATE.view(st, "pending")[:3].tolist() == [0, 0, 0]
    assert TW.STATE.view(st, "triggered")[:3].tolist() == [1 << 3, 0, 1 << 1]
    assert TW.STATE.view(st, "stolen")[0] == mask(codes("Qd"))
    _, again = state(tw(3, **REFORMED), rules={"retrigger": True})
    assert TW.STATE.view(again, "pending")[:3].tolist() == [1 << 3, 0, 0]
    with pytest.raises(WantitError, match=r"stolen\[0\]: 1 stolen card, but seat 0 has had 0 pairs that steal"):
        state(tw(3, **{**REFORMED, "acted": {}}))


def test_the_street_starts_and_the_next_card_for_a_seat():
    _, st = state(tw(2))  # nothing dealt yet: a fresh deal
    assert st[C.B.phase] == TW.PH_START and st[C.P.n_unknown] == 0
    _, st = state(tw(2, up={0: "Ah", 1: "Kd"}))
    assert st[C.B.phase] == TW.PH_STREET and TW.STATE.get(st, "street") == 4 and st[C.P.n_unknown] == 4
    _, st = state(tw(2, up={0: "Ah 2c 7d 9s", 1: "Kd Qc 8h 6s"}))
    assert st[C.B.phase] == TW.PH_SEVENTH and TW.STATE.get(st, "street") == 7
    # With --to and no card: seat 1 accepted its card, a fresh one is turned for seat 0 (the dealer).
    inp, st = state(tw(2, dealer=0, up={0: "Ah", 1: "Kd 9c"}, to=0), policies="always_accept")
    assert st[C.B.phase] == TW.PH_SEAT and TW.STATE.get(st, "offered") == NO_CARD
    played = play_state(inp, st, new_stream(0, 0))
    first = events(played, C.EV_TURN_UP, C.EV_OFFER, C.EV_ACCEPT)[:3]
    assert [e[0] for e in first] == [C.EV_TURN_UP, C.EV_OFFER, C.EV_ACCEPT] and first[1][1] == 0


BASE = load_table(EXAMPLE)


@pytest.mark.parametrize("change,message", [
    (dict(hole={0: "Ks Ks"}), "card Ks is given twice"),
    (dict(hole={0: "Ks Ah"}), "card Ah is given twice (table card of seat 0 and hole card of seat 0)"),
    (dict(hole={7: "Ks"}), "hole: seat 7 is not a seat 0..4"),
    (dict(up={**BASE.up, "1": "7c ?? 2d"}), "table cards are face up and known to everyone"),
    (dict(extra={3: "??"}), "extra cards are face up and known to everyone"),
    (dict(up={**BASE.up, "0": "Ah 5d 5h 9c 9s"}), "up[0]: 5 table cards; a seat is dealt 4"),
    (dict(hole={0: "Ks Qs Js"}), "offer: no table card is offered on the showdown (after 7th street)"),
    (dict(hole={0: "Ks Qs Js"}, street=5), "hole[0]: 3 hole cards; a seat has 2 before 7th street and 3 after"),
    (dict(hole={0: "Ks Qs Js 2s"}), "4 hole cards; a seat has 2 before 7th street and 3 after"),
    (dict(up={**BASE.up, "3": "2c 2h 9c"}),
     "up[3]: 3 table cards; on 5th street with the card on offer for seat 2 seat 3 has been dealt 2"),
    (dict(street=7), "no table card is offered on 7th street"),
    (dict(street=9), "street: 9; Train Wreck's streets are 3 to 7"),
    (dict(to=None), "offer: say which seat the card is offered to"),
    (dict(refusals=3), "only 2 seats were offered a card before seat 2"),
    (dict(to=0, refusals=1), "seat 0 is the first offered a card this street"),
    (dict(offer=None, to=None), "refusals: give the card on offer"),
    (dict(offer=None), "refusals: give the card that was refused"),
    (dict(fees={1: 8, 4: 5}), "fees[4]: 5 chips is not what refusing cards can have cost seat 4 on 5th street"),
    (dict(fees={1: 0, 4: 4}), "fees[1]: seat 1 refused the card on offer (refusals = 1) and paid 8 on 5th street"),
    (dict(fees={0: 8, 1: 8, 4: 4}), "fees[0]: seat 0 took its 5th street card free"),
    (dict(fees={1: 8}), "gone: 1 buried card, but a card is buried only when the dealer (seat 4"),
    (dict(fees={1: 8, 4: -4}), "fees[4]: -4 chips; a fee paid is 0 or more"),
    (dict(extra={2: "Jd"}), "extra[2]: 1 extra card, but seat 2 has had 0 pairs that deal one"),
    (dict(stolen={4: "4h"}), "stolen[4]: 1 stolen card, but seat 4 has had 0 pairs that steal one"),
    (dict(extra={}), ("seat 3's pair of 2s has acted by now, but seat 3 holds 0 extra cards: if it is still to act, "
                      "say so (to_act SEAT = RANKS, the pairs still to act this street)")),
    (dict(discarded=""), ("1 pair among the table cards that discard a card has acted by now, but 0 cards are "
                          "discarded: if it is still to act, say so")),
    (dict(discarded="Td 9h"), "discarded: 2 cards, but the seats have had 1 pair that discards one"),
    (dict(up={**BASE.up, "4": "8s Td"}, discarded="9h"), "the seats hold 12 of the 12 dealt on 5th street with"),
    (dict(up={**BASE.up, "4": ""}), "table cards: the seats hold 10 of the 12 dealt"),
    (dict(up={k: v for k, v in BASE.up.items() if k != "4"}), "up: give seat 4's table cards"),
    (dict(acted={1: "7"}), "acted[1]: a pair of 7s does nothing under special_pairs"),
    (dict(acted={1: "Z"}), "acted[1]: unknown rank 'Z'"),
    # Seat 0's pair of 5s is made by this street's 5h, still to act at the street's end;
    # listed as acted, its steal had been dropped. And seat 0 never held two 2s.
    (dict(acted={0: "5"}), "acted[0]: seat 0 holds no pair of 5s that has acted, and none was broken since (no 5 "
                           "has been discarded or stolen)"),
    (dict(acted={0: "2"}), "acted[0]: seat 0 holds no pair of 2s that has acted"),
    (dict(acted={0: "3"}, discarded="3h"), "acted[0]: seat 0 holds no pair of 3s that has acted, and none was broken "
                                           "since (it has lost none of its table cards)"),
    (dict(up={0: "", 1: "", 2: "", 3: "", 4: ""}, offer=None, to=None, refusals=0),
     "no seat has a table card"),
    (dict(gone="??"), "gone: a buried card was seen face up; give it"),
    (dict(me=5), "me: seat 5 is not a seat"),
])
def test_impossible_tables_are_refused_with_what_is_wrong(change, message):
    inp = get_variant("tw").inputs(5)
    with pytest.raises(WantitError, match=re.escape(message)):
        table_state(inp, replace(BASE, **change))


def test_acted_needs_two_table_cards_and_fees_need_an_offer():
    inp = get_variant("tw").inputs(2)
    with pytest.raises(WantitError, match=r"acted\[0\]: seat 0 had 1 table card when special pairs last acted"):
        table_state(inp, tw(2, up={0: "Ah", 1: "Kd"}, acted={0: "5"}))
    with pytest.raises(WantitError, match=r"fees\[1\]: 4 chips .* no card has been offered to it yet"):
        table_state(inp, tw(2, up={0: "Ah", 1: "Kd"}, fees={1: 4}))
    with pytest.raises(WantitError, match="a selection_rejection table has no fees"):
        table_state(get_variant("sr").inputs(2), Table("sr", players=2, fees={1: 4}))


def test_the_example_state_file_and_its_cli_json(capsys):
    table = load_table(EXAMPLE)
    assert table.variant == "train_wreck" and table.offer == "Kd" and table.extra == {"3": "Jd"}
    main(["equity", "train_wreck", "--state", str(EXAMPLE), "--format", "json", "--precision", "0.02"])
    data = json.loads(capsys.readouterr().out)
    assert data["meta"]["exact"] is False and data["meta"]["players"] == 5 and data["meta"]["unseen"] == 35
    seats = data["seats"]
    assert [s["seat"] for s in seats] == list(range(5))
    assert abs(sum(s["share"] for s in seats) - 1) < 1e-9 and abs(sum(s["ev"] for s in seats)) < 1e-9
    assert all(s["p_low"] == 0 for s in seats)  # high only
    assert 1.96 * seats[0]["share_se"] < 0.02


def test_train_wreck_flags_describe_a_table_and_override_the_file(capsys):
    # The start of 5th street: seat 0's pair of 2s got the extra 9s; the dealer paid 4 and buried the Qs.
    main(["equity", "tw", "-n", "2", "--up", "0=2h 2c", "--up", "1=Kd 7d", "--extra", "0=9s", "--fee", "1=4",
          "--gone", "Qs", "--dealer", "1", "--format", "json", "--precision", "0.05"])
    assert json.loads(capsys.readouterr().out)["meta"]["unseen"] == 52 - 6
    with pytest.raises(SystemExit) as exc:
        main(["equity", "tw", "--state", str(EXAMPLE), "--fee", "1=0"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and "fees[1]: seat 1 refused the card on offer" in err


def describe(kernel_state, n):
    """The ``Table`` of a deal the kernel stopped at an offer, read off its state."""
    st = kernel_state
    view = lambda name: TW.STATE.view(st, name)
    text = lambda cs: " ".join(card_text(int(c)) for c in cs)
    hole, up, extra, stolen, fees, acted = {}, {}, {}, {}, {}, {}
    for s in range(n):
        hole[s] = text(c for c in view("hole")[s] if c != NO_CARD)
        order = view("up")[s, :view("n_up")[s]]
        for name, out in (("table", up), ("extra", extra), ("stolen", stolen)):
            out[s] = text(c for c in order if int(view(name)[s]) & int(card_bit(int(c))))
        fees[s] = int(C.POT_STATE.view(st, "paid")[s]) - 1
        bits = int(view("triggered")[s]) & ~int(view("pending")[s])
        acted[s] = "".join("23456789TJQKA"[r] for r in range(13) if bits >> r & 1)
    return Table("train_wreck", players=n, dealer=int(st[C.B.dealer]), hole=hole, up=up, extra=extra,
                 stolen=stolen, fees=fees, acted=acted, gone=text(view("buried")[:view("n_buried")[0]]),
                 discarded=text(C.POT_STATE.view(st, "dead")[:st[C.P.n_dead]]), street=int(view("street")[0]),
                 offer=card_text(int(view("offered")[0])), to=int(st[C.B.turn]), refusals=int(view("refusals")[0]))


@pytest.mark.parametrize("rules", [None, {"special_timing": "immediate"}, {"pairs_count_extras": True},
                                   {"targets": "any_face_up"}, {"retrigger": True},
                                   {"special_pairs": "2=extra_card,3=discard_opp,4=discard_opp,5=steal_opp,"
                                                     "6=steal_opp,7=extra_card,8=discard_opp"}])
def test_a_table_read_off_a_deal_stopped_at_an_offer_is_the_kernels_own_state(rules):
    # Deals played from the start and stopped at an offer; the table a player sees there (every hole card
    # known) built afresh is the kernel's state: every field play reads, the same cards left in the stock.
    n = 5
    inp = get_variant("tw").inputs(n, rules=rules, policies=["always_pay", "heuristic", "always_pay",
                                                             "always_accept", "always_pay"])
    rng = np.random.default_rng(7)
    skip = {"stock", "deck", "decisions", "events", "up", "resolver", "res_step"}
    compared = paid = buried = starts = 0
    for deal in range(150):
        st = new_state(inp, dealer=deal % n)
        played = play_state(inp, st, new_stream(9, deal), stop=int(rng.integers(0, 13)))
        if played.finished or st[C.B.phase] != TW.PH_PAY or events(played, C.EV_RESHUFFLE):
            continue
        built = table_state(inp, describe(st, n))
        for name in TW.STATE.offsets:
            if name not in skip:
                assert np.array_equal(TW.STATE.view(built, name), TW.STATE.view(st, name)), (deal, name)
        for s in range(n):
            a, b = (sorted(TW.STATE.view(x, "up")[s, :TW.STATE.view(x, "n_up")[s]].tolist()) for x in (built, st))
            assert a == b, (deal, s)
        left = lambda x: set(C.POT_STATE.view(x, "stock")[x[C.P.deck]:x[C.P.deck + 1]].tolist())
        assert left(built) == left(st), deal
        if TW.STATE.get(st, "step") == 1:  # the street's first offer: the same table at the street's start
            start = table_state(inp, replace(describe(st, n), offer=None, to=None, refusals=0))
            assert start[C.B.phase] == TW.PH_STREET and TW.STATE.get(start, "street") == TW.STATE.get(st, "street")
            for name in ("triggered", "pending", "table", "extra", "stolen", "hole_mask"):
                assert np.array_equal(TW.STATE.view(start, name), TW.STATE.view(st, name)), (deal, name)
            starts += 1
        compared += 1
        paid += TW.STATE.get(st, "refusals") > 0
        buried += TW.STATE.get(st, "n_buried") > 0
    assert compared > 60 and paid > 10 and buried > 10 and starts > 10


# ------------------------------------------------------------- after the 7th-street card

def test_after_the_7th_street_card_only_the_showdown_is_left_exactly_by_eval7():
    # Two players, three hole cards each (street 8 read from the counts); seat 1's 7th-street card is the only
    # unknown: my exact share is the mean over the 39 unseen cards it can be, each hand judged by eval7.
    import eval7

    hole, up = {0: "Ah Kd 2c", 1: "7s 7c ??"}, {0: "Qh Jh 9c 2s", 1: "8d 8h Tc 3d"}
    inp, st = state(tw(2, hole=hole, up=up))
    assert st[C.B.phase] == TW.PH_HANDS and st[C.P.n_unknown] == 1
    names = "23456789TJQKA"
    deck = [eval7.Card(names[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    mine, theirs = codes(hole[0] + " " + up[0]), codes("7s 7c " + up[1])
    unseen = [c for c in range(52) if c not in mine + theirs]
    assert len(unseen) == 39
    mine_value = eval7.evaluate([deck[c] for c in mine])
    wins = [1.0 if mine_value > v else 0.5 if mine_value == v else 0.0
            for v in (eval7.evaluate([deck[c] for c in theirs + [x]]) for x in unseen)]
    exact = sum(wins) / len(wins)
    r = equity(tw(2, hole=hole, up=up), precision=0.003, seed=2)
    assert abs(r.seats.share[0] - exact) < 4.5 * r.seats.share_se[0] + 1e-12, (r.seats.share[0], exact)
    assert r.meta["exact"] and r.meta["completions"] == 39  # enumerated, not sampled
    # Every card known: nothing is left to chance (a pair of 2s against two pair, 8s and 7s, and a 9).
    known = equity(tw(2, hole={0: "Ah Kd 2c", 1: "7s 7c 9d"}, up=up, street=8))
    assert known.seats.share.tolist() == [0.0, 1.0] and known.seats.share_se.tolist() == [0.0, 0.0]


def test_after_the_7th_street_card_with_a_hole_card_taken_blind():
    # targets = any: seat 0's pair of 5s stole seat 1's hole card 9c blind on 4th street. Seat 1 is left with one
    # hole card of the first two and its 7th-street card; every card known: seat 0's flush of hearts wins.
    rules = {"targets": "any"}
    table = tw(2, dealer=1, hole={0: "Ah Kh 2h", 1: "Qs 4c"}, up={0: "5h 5c Jh 3d", 1: "Ad 8c Td 6s"},
               stolen={0: "9c"}, hole_taken={1: "9c"})
    inp, st = state(table, rules=rules)
    assert st[C.B.phase] == TW.PH_HANDS
    assert TW.STATE.view(st, "hole")[1].tolist() == [codes("Qs")[0], NO_CARD, codes("4c")[0]]
    assert int(TW.STATE.view(st, "hole_mask")[1]) == mask(codes("Qs 4c"))
    played = play_state(inp, st, new_stream(0, 0))
    assert TW.RESULT.view(played.result, "payout")[:2].tolist() == [2.0, 0.0]
    r = equity(table, rules=rules)
    assert r.seats.share.tolist() == [1.0, 0.0]


# ------------------------------------------------------------- in the middle of the special pairs

def describe_deal(st, n, played_events):
    """The ``Table`` a player sees where the kernel stopped (an offer, or a special pair
    acting), every hole card known, read off its state and the events so far."""
    view = lambda name: TW.STATE.view(st, name)
    text = lambda cs: " ".join(card_text(int(c)) for c in cs)
    rank = lambda bits: "".join("23456789TJQKA"[r] for r in range(13) if bits >> r & 1)
    hole, up, extra, stolen, fees, acted, to_act, taken = {}, {}, {}, {}, {}, {}, {}, {}
    acting = int(view("act_rank")[0])
    for s in range(n):
        hole[s] = text(c for c in view("hole")[s] if c != NO_CARD)
        order = view("up")[s, :view("n_up")[s]]
        for name, out in (("table", up), ("extra", extra), ("stolen", stolen)):
            out[s] = text(c for c in order if int(view(name)[s]) & int(card_bit(int(c))))
        fees[s] = int(C.POT_STATE.view(st, "paid")[s]) - 1
        pending = int(view("pending")[s]) | (1 << acting if acting >= 0 and s == int(view("resolver")[0]) else 0)
        acted[s] = rank(int(view("triggered")[s]) & ~pending)
        to_act[s] = rank(pending) if st[C.B.phase] == TW.PH_ACT else ""
        taken[s] = text(e[2] for e in played_events if e[0] in (C.EV_TW_DISCARD, C.EV_STEAL) and e[3] == s
                        and e[4] & 3 == TW.SOURCE_HOLE)
    fields = dict(players=n, dealer=int(st[C.B.dealer]), hole=hole, up=up, extra=extra, stolen=stolen, fees=fees,
                  acted=acted, gone=text(view("buried")[:view("n_buried")[0]]), hole_taken=taken,
                  discarded=text(C.POT_STATE.view(st, "dead")[:st[C.P.n_dead]]), street=int(view("street")[0]))
    if st[C.B.phase] == TW.PH_PAY:
        fields.update(offer=card_text(int(view("offered")[0])), to=int(st[C.B.turn]),
                      refusals=int(view("refusals")[0]))
    else:
        fields.update(to_act=to_act)
        step = int(view("step")[0])
        if step < n:  # immediate timing: the seat just dealt acts, then the next is offered a card
            offered = int(view("offered")[0])  # NO_CARD: the seat took it (then refusals is stale)
            fields.update(to=(int(st[C.B.dealer]) + step + 1) % n, refusals=int(view("refusals")[0])
                          if offered != NO_CARD else 0, offer=card_text(offered) if offered != NO_CARD else None)
        elif int(view("offered")[0]) != NO_CARD:  # the dealer paid: its refused card is buried when it is done
            fields["gone"] = (fields["gone"] + " " + card_text(int(view("offered")[0]))).strip()
    return Table("train_wreck", **fields)


MID_RULES = [None, {"special_timing": "immediate"}, {"targets": "any"}, {"targets": "any_face_up"},
             {"pairs_count_extras": True}, {"retrigger": True}, {"actions_optional": True},
             {"special_pairs": "2=extra_card,3=discard_opp,4=discard_opp,5=steal_opp,6=steal_opp,7=extra_card,"
                               "8=discard_opp,9=steal_opp,T=discard_opp"}]


@pytest.mark.parametrize("rules", MID_RULES)
def test_a_table_read_off_a_deal_stopped_in_the_special_pairs_is_the_kernels_own_state(rules):
    # Deals played from the start and stopped where a special pair decides (which target, or with optional
    # actions whether to act), or at an offer after one. The table a player sees there, built afresh and played
    # to its first decision, is the kernel's own state: every field play reads, the same cards left in the stock.
    n = 5
    inp = get_variant("tw").inputs(n, rules=rules, policies=["always_pay", "heuristic", "always_pay",
                                                             "always_accept", "heuristic"])
    rng = np.random.default_rng(11)
    skip = {"stock", "deck", "decisions", "events", "up", "hole", "refusals", "offered", "buried", "n_buried"}
    compared = blind = 0
    for deal in range(1200):
        st = new_state(inp, dealer=deal % n)
        stream = new_stream(5, deal)
        played = play_state(inp, st, stream, stop=int(rng.integers(0, 16)))
        so_far = played.events
        if rules == {"targets": "any"} and st[C.B.phase] == TW.PH_ACT:
            # A hole card taken blind (the policies seldom choose one): forced, then on to a later decision.
            blinds = [a for a in decision(inp, st)[2] if a != C.DECLINE and a % 64 == C.HOLE_BLIND]
            if blinds:
                played = play_state(inp, st, stream, forced=blinds[0],
                                    stop=int(st[C.B.decisions]) + 1 + int(rng.integers(0, 4)))
                so_far = np.concatenate([so_far, played.events])
        if played.finished or st[C.B.phase] not in (TW.PH_ACT, TW.PH_PAY) or events(played, C.EV_RESHUFFLE):
            continue
        built = table_state(inp, describe_deal(st, n, so_far))
        assert built[C.B.phase] == (TW.PH_RESOLVE if st[C.B.phase] == TW.PH_ACT else TW.PH_PAY)
        resumed = play_state(inp, built, new_stream(0, 0), stop=0)
        assert not resumed.finished and decision(inp, built) == decision(inp, st), deal
        stale = {"resolver", "res_step"} if st[C.B.phase] == TW.PH_PAY else set()  # unread during the offers
        for name in TW.STATE.offsets:
            if name not in skip | stale:
                assert np.array_equal(TW.STATE.view(built, name), TW.STATE.view(st, name)), (deal, name)
        # The card on offer, and the buried ones (the dealer's refused card, with immediate timing, is buried
        # once its pairs are done: a described table has it buried already, which changes nothing in play).
        out = lambda x: sorted(TW.STATE.view(x, "buried")[:TW.STATE.get(x, "n_buried")].tolist() +
                               [TW.STATE.get(x, "offered")] * (TW.STATE.get(x, "offered") != NO_CARD))
        assert out(built) == out(st), deal
        if TW.STATE.get(st, "step") < n:
            assert TW.STATE.get(built, "offered") == TW.STATE.get(st, "offered"), deal
        for s in range(n):
            for name, count in (("up", "n_up"), ("hole", None)):
                a, b = (sorted(c for c in (TW.STATE.view(x, name)[s, :TW.STATE.view(x, count)[s]] if count else
                                           TW.STATE.view(x, name)[s]).tolist() if c != NO_CARD) for x in (built, st))
                assert a == b, (deal, s, name)
        left = lambda x: set(C.POT_STATE.view(x, "stock")[x[C.P.deck]:x[C.P.deck + 1]].tolist())
        assert left(built) == left(st), deal
        compared += st[C.B.phase] == TW.PH_ACT
        blind += any(e[0] in (C.EV_TW_DISCARD, C.EV_STEAL) and e[4] & 3 == TW.SOURCE_HOLE for e in so_far)
    if rules == {"targets": "any"}:
        assert blind > 20
    else:
        assert compared > 25


# Seat 0 (dealer 2's left) made a pair of 5s on 5th street and steals now; seat 1's pair of 3s discards after it.
MIDDLE = dict(dealer=2, hole={0: "As Ks"}, up={0: "5c 9d 5h", 1: "3c 8c 3d", 2: "Kh Qd Jc"}, to_act={0: "5", 1: "3"})


def test_in_the_middle_of_the_special_pairs_my_steal_is_the_decision(capsys):
    inp, st = state(tw(3, **MIDDLE), policies="always_accept")
    assert st[C.B.phase] == TW.PH_RESOLVE and TW.STATE.get(st, "street") == 5
    assert TW.STATE.get(st, "resolver") == 0 and TW.STATE.get(st, "res_step") == 1
    assert TW.STATE.view(st, "pending")[:3].tolist() == [1 << 3, 1 << 1, 0]
    # The targets: the opponents' table cards clockwise from me, each seat's in the kernel's mask order
    # (clubs, then diamonds, hearts, spades).
    assert decision(inp, play_state(inp, st.copy(), new_stream(0, 0), stop=0).state) == \
        ("target", 0, [64 * 1 + c for c in codes("3c 8c 3d")] + [64 * 2 + c for c in codes("Jc Qd Kh")])
    main(["decide", "tw", "-n", "3", "--dealer", "2", "--hole", "0=As Ks", "--up", "0=5c 9d 5h", "--up",
          "1=3c 8c 3d", "--up", "2=Kh Qd Jc", "--to-act", "0=5", "--to-act", "1=3", "--policy", "all=always_accept",
          "--format", "json", "--precision", "0.5", "--max-deals", "4000"])
    data = json.loads(capsys.readouterr().out)
    assert data["meta"]["kind"] == "target"
    assert [a["action"] for a in data["actions"]] == ["seat 1's 3c", "seat 1's 8c", "seat 1's 3d", "seat 2's Jc",
                                                      "seat 2's Qd", "seat 2's Kh"]
    # After my steal, seat 1's discard: the first pair still to act is its own.
    inp, st = state(tw(3, **{**MIDDLE, "up": {**MIDDLE["up"], 2: "Qd Jc"}, "stolen": {0: "Kh"}, "to_act": {1: "3"}}))
    assert TW.STATE.get(st, "resolver") == 1 and TW.STATE.get(st, "res_step") == 2
    assert TW.STATE.view(st, "triggered")[:3].tolist() == [1 << 3, 1 << 1, 0]


def test_immediate_timing_the_seat_just_dealt_acts_before_the_next_offer():
    # special_timing = immediate: seat 0 took the 5h on 5th street (a pair of 5s); it steals now, then the next
    # card is turned for seat 1.
    rules = {"special_timing": "immediate"}
    table = tw(3, **{**MIDDLE, "up": {**MIDDLE["up"], 1: "3c 8c", 2: "Kh Qd"}, "to_act": {0: "5"}, "to": 1})
    inp, st = state(table, rules=rules, policies="always_accept")
    assert st[C.B.phase] == TW.PH_RESOLVE and TW.STATE.get(st, "resolver") == 0 and TW.STATE.get(st, "step") == 1
    played = play_state(inp, st, new_stream(3, 0))
    kinds = [int(e[0]) for e in played.events]
    assert kinds.index(C.EV_STEAL) < kinds.index(C.EV_OFFER)
    assert played.events[kinds.index(C.EV_OFFER)][1] == 1


BAD_MIDDLE = [
    (dict(to_act={0: "7"}), "to_act[0]: a pair of 7s does nothing under special_pairs"),
    (dict(to_act={0: "5", 1: "3", 2: "2"}), "to_act[2]: seat 2's table card of this street (Jc) makes no new "
                                            "pair of 2s"),
    (dict(to_act={0: "35"}), "to_act[0]: 2 pairs; a seat gets one table card a street"),
    (dict(to_act={0: "5"}), "to_act: seat 1's 3d made a pair of 3s this street, and seat 1 acts after seat 0: it "
                            "is still to act (to_act 1 = 3)"),
    (dict(to_act={1: "3"}), "seat 0's pair of 5s has acted by now, but seat 0 holds 0 stolen cards: if it is "
                            "still to act, say so"),
    (dict(to_act={0: "5", 1: "3"}, to=1, offer="2c"), "to_act: special pairs act once the street's offers are over"),
    (dict(to_act={0: "5", 1: "3"}, street=7), "to_act: special pairs act on streets 4 to 6 (TW-A12), not on "
                                              "7th street"),
    (dict(to_act={0: "5", 1: "3"}, acted={0: "5"}), "to_act[0]: seat 0's pair of 5s has acted (acted[0]); a rank "
                                                     "acts once a deal"),
    (dict(to_act={0: "X"}), "to_act[0]: unknown rank 'X'"),
    (dict(hole_taken={1: "8c"}), "hole_taken[1]: a hole card is taken blind only with targets = any"),
]


@pytest.mark.parametrize("change,message", BAD_MIDDLE)
def test_impossible_special_pairs_in_progress_are_refused(change, message):
    with pytest.raises(WantitError, match=re.escape(message)):
        state(tw(3, **{**MIDDLE, **change}))


@pytest.mark.parametrize("change,message", [
    (dict(to_act={0: "5"}, to=0), "to_act: seat 0 is the first offered a card this street; nobody has been dealt"),
    (dict(to_act={2: "5"}, to=1), "to_act[2]: with special_timing = immediate only the seat just dealt its card "
                                  "(seat 0) has pairs to act"),
])
def test_impossible_immediate_actions_are_refused(change, message):
    table = tw(3, **{**MIDDLE, "up": {**MIDDLE["up"], 1: "3c 8c", 2: "Kh Qd"}, **change})
    with pytest.raises(WantitError, match=re.escape(message)):
        state(table, rules={"special_timing": "immediate"})


@pytest.mark.parametrize("change,message", [
    (dict(stolen={}), "hole_taken[1]: 9c is neither discarded nor stolen by another seat"),
    (dict(hole_taken={1: "??"}, stolen={0: "9c"}), "hole_taken[1]: a hole card taken blind is turned face up"),
    (dict(hole_taken={0: "9c"}), "hole_taken[0]: 9c is neither discarded nor stolen by another seat"),
    (dict(hole_taken={1: "9c"}, hole={0: "Ah Kh 2h", 1: "Qs 4c 9c"}),
     "hole[1]: 3 hole cards; a seat has 2 before 7th street and 3 after, less the 1 taken blind"),
    (dict(hole_taken={1: "9c 4c 2d"}), "hole_taken[1]: 3 cards; a seat holds 2 hole cards while special pairs act"),
])
def test_impossible_hole_cards_taken_blind_are_refused(change, message):
    table = tw(2, **{**dict(dealer=1, hole={0: "Ah Kh 2h", 1: "Qs 4c"}, up={0: "5h 5c Jh 3d", 1: "Ad 8c Td 6s"},
                            stolen={0: "9c"}, hole_taken={1: "9c"}), **change})
    with pytest.raises(WantitError, match=re.escape(message)):
        state(table, rules={"targets": "any"})


# ------------------------------------------------------------- the history: --history and --condition

EXAMPLE_HISTORY = ("0 takes 5d; 1 takes 7h; 2 takes 3d; 3 takes 2h; 4 pays Qh for Td; 2 discards Td; 3 gets Jd; "
                   "0 takes 5h; 1 pays Kd for 2d")


def test_the_examples_history_gives_the_example_table_and_fills_in_what_is_left_out():
    # The example's comments, as a history: on 4th street seat 4 (the dealer) paid 4 to refuse the Qh (buried)
    # and was dealt the Td, seat 2's pair of 3s discarded it and seat 3's pair of 2s got the Jd; on 5th street
    # I took the 5h (a pair of 5s: I steal at the end of the street) and seat 1 paid 8 to refuse the Kd.
    inp = get_variant("tw").inputs(5)
    written = table_state(inp, BASE)
    assert np.array_equal(table_state(inp, replace(BASE, history=EXAMPLE_HISTORY)), written)
    bare = tw(5, dealer=4, hole={0: "Ks Qs"}, up=BASE.up, history=EXAMPLE_HISTORY)
    assert np.array_equal(table_state(inp, bare), written)
    # The fee's card may be left out when the seat still shows it (read from up in order).
    assert np.array_equal(table_state(inp, replace(bare, history=EXAMPLE_HISTORY.replace("Kd for 2d", "Kd"))),
                          written)


def history_of(played_events, n, omit):
    """The history text of a deal's events: every offer's outcome and special action.
    ``omit``: leave out the card dealt for a fee where the seat shows it at the end
    (``omit`` is that set of (seat, card)) and the victim of a face-up card."""
    out = []
    evs = [tuple(int(x) for x in e) for e in played_events]
    first = next(i for i, e in enumerate(evs) if e[0] == C.EV_OFFER)
    card_1 = {e[2] for e in evs[:first] if e[0] == C.EV_DEAL_UP}  # table card #1 of each seat: needs its seat
    for i, (kind, s, c, a, b) in enumerate(evs):
        if kind == C.EV_ACCEPT:
            out.append(f"{s} takes {card_text(c)}")
        elif kind in (C.EV_PAY_FEE, C.EV_EXTRA_CARD):
            dealt = next(e[2] for e in evs[i + 1:] if e[0] == C.EV_DEAL_UP)
            if kind == C.EV_EXTRA_CARD:
                out.append(f"{s} gets {card_text(dealt)}")
            else:
                out.append(f"{s} pays {card_text(c)}" + ("" if (s, dealt) in omit else f" for {card_text(dealt)}"))
        elif kind in (C.EV_TW_DISCARD, C.EV_STEAL):
            verb = "discards" if kind == C.EV_TW_DISCARD else "steals"
            blind = b & 3 == TW.SOURCE_HOLE
            out.append(f"{s} {verb} {card_text(c)}" + ("" if omit and not blind and c not in card_1 else f" from {a}") +
                       (" blind" if blind else ""))
        elif kind == C.EV_SPECIAL_SKIP and b & 3 == TW.SKIP_DECLINED:
            out.append(f"{s} declines")
    return "; ".join(out)


@pytest.mark.parametrize("rules", MID_RULES)
def test_a_history_read_off_a_deal_rebuilds_the_kernels_state_and_its_rows_accept_the_true_cards(rules):
    # Deals played from the start, stopped at a decision (an offer, a special pair) or played to the end. Given
    # only the hole and table cards and the history of the events, the table built is the kernel's state (the
    # extra, stolen, discarded and buried cards, fees, pairs acted and to act, street and offer all filled in
    # from the history). The conditioning rows of every seat's choices accept the cards each really held, and
    # reject them once any one choice is turned around.
    from analyzer.evaluate import _tables
    from analyzer.table.train_wreck import _Replay

    n = 5
    inp = get_variant("tw").inputs(n, rules=rules, policies=["always_pay", "heuristic", "always_pay",
                                                             "always_accept", "heuristic"])
    rng = np.random.default_rng(13)
    skip = {"stock", "deck", "decisions", "events", "up", "hole", "refusals", "offered", "buried", "n_buried"}
    scratch = np.zeros(2048, np.int64)
    checked = ends = rows_checked = 0
    for deal in range(300):
        st = new_state(inp, dealer=deal % n)
        stream = new_stream(17, deal)
        played = play_state(inp, st, stream, stop=int(rng.integers(0, 25)))
        so_far = played.events
        forced = False
        if rules == {"targets": "any"} and st[C.B.phase] == TW.PH_ACT:
            blinds = [a for a in decision(inp, st)[2] if a != C.DECLINE and a % 64 == C.HOLE_BLIND]
            if blinds:
                played = play_state(inp, st, stream, forced=blinds[0], stop=-1 if deal % 2 else
                                    int(st[C.B.decisions]) + 1 + int(rng.integers(0, 4)))
                so_far = np.concatenate([so_far, played.events])
                forced = True
        if any(e[0] in (C.EV_RESHUFFLE, C.EV_NO_CARD, C.EV_COMMUNITY) for e in so_far):
            continue
        if not played.finished and st[C.B.phase] not in (TW.PH_ACT, TW.PH_PAY):
            continue
        seen_table = describe_deal(st, n, so_far)
        shown = {(s, c) for s in range(n) for c in codes(seen_table.up[s])}
        history = history_of(so_far, n, shown if deal % 3 == 0 else set())
        if not history:
            continue
        hole = {s: " ".join(card_text(int(c)) for c in TW.STATE.view(st, "hole")[s, :2] if c != NO_CARD) +
                (" " + card_text(int(TW.STATE.view(st, "hole")[s, 2])) if played.finished else "") for s in range(n)}
        fields = dict(dealer=int(st[C.B.dealer]), hole=hole, up=seen_table.up, history=history)
        if st[C.B.phase] == TW.PH_PAY and TW.STATE.get(st, "refusals") == 0:
            fields.update(offer=seen_table.offer, to=seen_table.to)  # turned up after the last entry
        table = tw(n, **fields)
        built = table_state(inp, table)
        stale = {"resolver", "res_step"} if st[C.B.phase] != TW.PH_ACT else set()
        names = TW.STATE.offsets
        if played.finished:  # the cards and fees; and the showdown the built table plays is the deal's
            names = ("hole_mask", "table", "extra", "stolen", "triggered", "pending", "paid", "seen", "dead",
                     "n_dead")
            assert built[C.B.phase] == TW.PH_HANDS
            end = play_state(inp, built, new_stream(0, 0))
            assert np.array_equal(TW.RESULT.view(end.result, "payout"), TW.RESULT.view(played.result, "payout"))
            ends += 1
        else:
            play_state(inp, built, new_stream(0, 0), stop=0)
        for name in names:
            if name not in skip | stale:
                assert np.array_equal(TW.STATE.view(built, name), TW.STATE.view(st, name)), (deal, name, history)
        replay = _Replay(inp, table, n, int(st[C.B.dealer])).run()
        rows = replay.condition_rows()
        if forced:  # the blind take was forced, not the policy's: only the choices before it are the policies'
            blind_at = [j for j, (_, r) in enumerate(rows) if r[0] == TW.HK_TARGET and r[3] >= 0 and
                        r[TW.TARGET_HEAD + r[9] + r[3]] == NO_CARD]
            rows = rows[:blind_at[0]] if blind_at else rows
        idata = np.array([x for _, row in rows for x in row], np.int64)
        assert TW.history_consistent(_tables(), inp.params, st, idata, scratch), (deal, history)
        for k in rng.permutation(len(rows))[:3]:
            row = list(rows[k][1])
            kind, choice = row[0], row[3]
            row[3] = 1 - choice if kind != TW.HK_TARGET else (choice + 1) % row[9]
            turned = [x for j, (_, r) in enumerate(rows) for x in (row if j == k else r)]
            assert not TW.history_consistent(_tables(), inp.params, st, np.array(turned, np.int64), scratch)
            rows_checked += 1
        checked += 1
    assert checked > 40 and ends > 5 and rows_checked > 40


# Seat 0's policy pays to refuse any card that does not pair one of its cards and takes one that does, fees
# aside: with an ace showing the ace is its top card, so an unpaired card changes its hand estimate by less
# than 0.05 (a kicker), a pair lifts it by more than 0.5, and a fresh card's mean gain stays below 0.42.
PAIRS_ONLY = "heuristic:pay_threshold=-0.15,fee_weight=0,deny_weight=0,draw_weight=0"
# Two players, seat 1 the dealer. 4th street: seat 0 (Ac showing) paid 4 to refuse the 7d, so it holds no 7,
# and was dealt the 7h; then it took the Ah and Ad, which pair its ace (taken whatever it holds). I (seat 1,
# Kh Ks down) show 9s 7d 9d Kd: a full house, kings full. Seat 0's aces beat it when its hole cards hold a pair,
# an ace or a 7 (then aces full), or its 7th-street card pairs one of them or the 7h: holding no 7 hurts it.
CONDITIONED = dict(dealer=1, me=1, hole={1: "Kh Ks"}, up={0: "Ac 7h Ah Ad", 1: "9s 7d 9d Kd"},
                   history="0 pays 7d for 7h; 1 takes 7d; 0 takes Ah; 1 takes 9d; 0 takes Ad; 1 takes Kd")


def conditioned_share(mine, seats_up, trials, seed, extra_card=False):
    """Seat 1's share of the pot by a plain Monte Carlo on eval7: seat 0's two hole
    cards are two of the unseen cards that are not 7s (the condition), then each seat's
    7th-street card (and seat 1's card dealt for a fee, ``extra_card``) at random."""
    import eval7

    names = "23456789TJQKA"
    deck = [eval7.Card(names[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    rng = np.random.default_rng(seed)
    known = set(mine) | set(seats_up[0]) | set(seats_up[1]) | set(codes("Kd"))
    unseen = [c for c in range(52) if c not in known]
    no_seven = [c for c in unseen if c >> 2 != 5]
    total = 0.0
    for _ in range(trials):
        hole0 = list(rng.choice(no_seven, 2, replace=False))
        rest = [c for c in unseen if c not in hole0]
        more = list(rng.choice(rest, 3 if extra_card else 2, replace=False))
        ours = mine + seats_up[1] + more[1:]
        theirs = hole0 + seats_up[0] + more[:1]
        a, b = eval7.evaluate([deck[c] for c in ours]), eval7.evaluate([deck[c] for c in theirs])
        total += 1.0 if a > b else 0.5 if a == b else 0.0
    return total / trials


def test_condition_keeps_the_deals_where_the_seat_that_paid_to_refuse_a_7_holds_none():
    table = tw(2, **CONDITIONED)
    policies = [PAIRS_ONLY, "always_accept"]
    inp, st = state(table, policies=policies, rules=PLAIN)
    assert st[C.B.phase] == TW.PH_SEVENTH and C.POT_STATE.view(st, "paid")[:2].tolist() == [5, 1]  # the fee
    r = equity(table, policies=policies, rules=PLAIN, condition=True, precision=0.004, seed=1)
    # 42 unseen cards, 2 of them 7s (7c 7s): seat 0 holds no 7 with probability C(40,2)/C(42,2) = 780/861.
    p = 780 / 861
    played = r.meta["deals_played"]
    assert abs(r.meta["acceptance"] - p) < 4.5 * np.sqrt(p * (1 - p) / played), r.meta["acceptance"]
    theirs = conditioned_share(codes("Kh Ks"), {0: codes("Ac 7h Ah Ad"), 1: codes("9s 7d 9d Kd")}, 20_000, 7)
    their_se = np.sqrt(theirs * (1 - theirs) / 20_000)
    ours, se = r.seats.share[1], r.seats.share_se[1]
    assert abs(ours - theirs) < 4.5 * np.hypot(se, their_se), (ours, theirs)
    # Without the condition seat 0 holds a 7 one time in ten and my share is lower.
    plain = equity(table, policies=policies, rules=PLAIN, precision=0.004, seed=1)
    assert plain.seats.share[1] < ours - 4.5 * np.hypot(se, plain.seats.share_se[1])
    # Each deal kept holds no 7 in seat 0's hole; each dropped holds one.
    cond = replace(inp, idata=condition_data(inp, table))
    for deal in range(60):
        played_deal = play_state(cond, st.copy(), new_stream(1, deal))
        kept = TW.RESULT.view(played_deal.result, "carry")[0] != C.REJECTED
        holds_seven = any(c >> 2 == 5 for c in TW.STATE.view(played_deal.state, "hole")[0, :2])
        assert kept != holds_seven


def test_decide_with_condition_plays_my_choice_over_the_deals_the_history_allows(capsys):
    # 6th street: the Kd is offered to me (the dealer, last); accepting gives the table above. Each action's EV,
    # in antes: accept, my share of the 6-chip pot less my ante; pay, my share of 22 chips less 17 paid (the 6th
    # street fee is 16), with a fresh card for me instead.
    fields = {**CONDITIONED, "up": {0: "Ac 7h Ah Ad", 1: "9s 7d 9d"}, "offer": "Kd", "to": 1,
              "history": CONDITIONED["history"].rsplit(";", 1)[0]}
    main(["decide", "tw", "-n", "2", "--dealer", "1", "--me", "1", "--hole", "1=Kh Ks", "--up", "0=Ac 7h Ah Ad",
          "--up", "1=9s 7d 9d", "--offer", "Kd", "--to", "1", "--history", fields["history"], "--condition",
          "--policy", f"0={PAIRS_ONLY}", "--policy", "1=always_accept", "--rule", "special_pairs=none",
          "--precision", "0.03", "--max-deals", "60000", "--seed", "2", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["meta"]["kind"] == "pay" and data["meta"]["conditioned"]
    p = 780 / 861
    kept, played = data["meta"]["deals"], data["meta"]["deals_played"]
    assert abs(kept / played - p) < 4.5 * np.sqrt(p * (1 - p) / played)
    ev = {a["action"]: (a["ev"], a["ev_se"]) for a in data["actions"]}
    mine, ups = codes("Kh Ks"), {0: codes("Ac 7h Ah Ad"), 1: codes("9s 7d 9d")}
    accept = 6 * conditioned_share(mine, {0: ups[0], 1: ups[1] + codes("Kd")}, 20_000, 3) - 1
    pay = 22 * conditioned_share(mine, ups, 20_000, 4, extra_card=True) - 17
    for name, theirs, scale in (("accept", accept, 6), ("pay", pay, 22)):
        ours, se = ev[name]
        assert abs(ours - theirs) < 4.5 * np.hypot(se, scale * 0.5 / np.sqrt(20_000)), (name, ours, theirs)


H4 = "0 takes 5d; 1 takes 7h; 2 takes 3d; 3 takes 2h; 4 pays Qh for Td"  # 4th street's offers in the example


@pytest.mark.parametrize("change,message", [
    (dict(history="0 wants 5d"), "history: '0 wants 5d' should look like 'SEAT takes CARD', 'SEAT pays CARD [for"),
    (dict(history="0 takes"), "history '0 takes': name the card"),
    (dict(history="0 takes ??"), "history '0 takes ??': name the card"),
    (dict(history="9 takes 5d"), "history '9 takes 5d': seat '9' is not a seat 0..4"),
    (dict(history="0 pays 5d to 1"), "should look like 'SEAT pays CARD' or 'SEAT pays CARD for CARD'"),
    (dict(history="0 declines 5d"), "'SEAT declines' declines the special action due; nothing follows it"),
    (dict(history="0 steals 5d blind"), "say whose hole card it was ('... from SEAT blind')"),
    (dict(history="0 steals 5d off 1"), "should look like 'SEAT steals CARD [from SEAT] [blind]'"),
    (dict(history="0 takes 5d ok"), "history '0 takes 5d ok' should look like 'SEAT takes CARD'"),
    (dict(history="1 takes 5d"), "history entry 1 (1 takes 5d): seat 0 is offered 4th street's card then"),
    (dict(history="0 pays 5d for 9c; 1 takes 7h"), "history entry 2 (1 takes 7h): the card on offer is 5d"),
    (dict(history="0 takes Ah"), "history entry 1 (0 takes Ah): Ah was seen before; a card turned up to be "
                                 "offered is a fresh card"),
    (dict(history="0 takes Ks"), "history entry 1 (0 takes Ks): Ks is a hole card of seat 0; a card turned up"),
    (dict(history="0 pays 5d for Ah"), "Ah was seen before; the card dealt for the fee is a fresh card"),
    (dict(history="0 takes 5d; 1 takes 7h; 2 takes 3d; 3 takes 2h; 4 pays Qh"),
     "history entry 5 (4 pays Qh): say which card seat 4 was dealt in its place ('4 pays Qh for CARD'): up[4] "
     "has no more"),
    (dict(history=H4 + "; 3 gets Jd"), "history entry 6 (3 gets Jd): seat 2's pair of 3s acts then: '2 discards "
                                       "CARD'"),
    (dict(history=H4 + "; 2 discards 9c"), "history entry 6 (2 discards 9c): no opponent of seat 2 shows 9c as a "
                                           "card it may take then (a table card #1 since lost: say whose"),
    (dict(history=H4 + "; 2 discards 3d from 2"), "history entry 6 (2 discards 3d from 2): seat 2 cannot take 3d "
                                                  "from seat 2 then (targets: 3:2c, 3:2h, 4:Td, 4:8s, 0:5d, 0:Ah"),
    (dict(history=H4 + "; 2 steals Td"), "seat 2's pair of 3s acts then: '2 discards CARD'"),
    (dict(history=H4 + "; 2 discards Td; 3 gets Jd; 0 takes 5h; 1 pays Kd for 2d; 2 takes Kd"),
     "history: seat 2 holds the table cards 3c 3d Kd by it, but up[2] gives 3c 3d"),
    (dict(history=EXAMPLE_HISTORY, extra={3: "9h"}), "history: seat 3 has the extra cards Jd by it, but extra[3] "
                                                     "gives 9h"),
    (dict(history=EXAMPLE_HISTORY, discarded="9h"), "history: the discarded cards are Td by it, but discarded "
                                                    "gives 9h"),
    (dict(history=EXAMPLE_HISTORY, gone="9h"), "history: the buried cards are Qh by it, but gone gives 9h"),
    (dict(history=EXAMPLE_HISTORY, fees={1: 4}), "history: seat 1 paid 8 chips in fees by it, but fees[1] = 4"),
    (dict(history=EXAMPLE_HISTORY, acted={2: "3"}), "history: seat 2's acted ranks are none by it, but acted[2] "
                                                    "gives 3"),
    (dict(history=EXAMPLE_HISTORY, street=6), "history: it leaves the deal on 5th street, but street = 6"),
    (dict(history=EXAMPLE_HISTORY, to=3), "history: it leaves Kd offered to seat 2 with 1 refusals; the table says "
                                          "otherwise"),
    (dict(history=H4 + "; 2 discards Td; 3 gets Jd; 0 takes 5h; 1 pays Kd for 2d; 2 pays Kd for 4s; 3 pays Kd "
                       "for 4c; 4 pays Kd for 4d; 0 steals 7c; 0 takes 6c; 1 takes 6d; 2 takes 6h; 3 takes 6s; "
                       "4 takes 8c; 1 takes 8d"),
     "history: 1 entries after 6th street's special pairs; nothing is offered or acts after them"),
    (dict(history="0 takes 5d; 1 takes 7h; 2 takes 3d; 3 takes 2h; 4 pays Qh for Td; 2 discards 9c from 4; "
                  "3 gets Jd; 2 discards 9d from 4"),
     "history: 9c, 9d are taken from seat 4, which was dealt neither"),
])
def test_impossible_histories_are_refused_with_what_is_wrong(change, message):
    inp = get_variant("tw").inputs(5)
    with pytest.raises(WantitError, match=re.escape(message)):
        table_state(inp, replace(BASE, **change))


def test_history_and_condition_on_the_command_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["equity", "tw", "--state", str(EXAMPLE), "--condition"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and "--condition needs the history of the choices seen" in err
    with pytest.raises(SystemExit):
        main(["equity", "tw", "--state", str(EXAMPLE), "--history", "1 takes 5d"])
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "wantit: error: history entry 1 (1 takes 5d): seat 0 is offered" in err
    # Every seat's choices are the heuristic's here but seat 4's fee and seat 2's discard: --condition says the
    # history is impossible under the default policies, in one line.
    with pytest.raises(SystemExit):
        main(["equity", "tw", "--state", str(EXAMPLE), "--history", EXAMPLE_HISTORY, "--condition"])
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "agrees with the choices seen" in err
    main(["equity", "tw", "--state", str(EXAMPLE), "--history", EXAMPLE_HISTORY, "--format", "json", "--precision",
          "0.05"])
    assert json.loads(capsys.readouterr().out)["meta"]["unseen"] == 35


def test_train_wreck_flags_for_the_showdown_and_the_special_pairs(capsys):
    # After the 7th-street card, with a hole card taken blind: every card known, seat 0's flush wins.
    main(["equity", "tw", "-n", "2", "--rule", "targets=any", "--hole", "0=Ah Kh 2h", "--hole", "1=Qs 4c",
          "--up", "0=5h 5c Jh 3d", "--up", "1=Ad 8c Td 6s", "--stolen", "0=9c", "--hole-taken", "1=9c",
          "--street", "8", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert [s["share"] for s in data["seats"]] == [1.0, 0.0]
    with pytest.raises(SystemExit) as exc:
        main(["equity", "tw", "-n", "3", "--dealer", "2", "--up", "0=5c 9d 5h", "--up", "1=3c 8c 3d", "--up",
              "2=Kh Qd Jc", "--to-act", "0=5"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and "to_act: seat 1's 3d made a pair of 3s this street" in err


def test_after_a_7th_street_community_card_the_table_plays_the_deals_showdown():
    # Seven players who always pay: the stock runs short and 7th street is one community card for all (TW-A9 c).
    # The table read off the deal's end (every card known) plays the same showdown.
    n = 7
    inp = get_variant("tw").inputs(n, policies="always_pay")
    found = 0
    for deal in range(60):
        st = new_state(inp, dealer=deal % n)
        played = play_state(inp, st, new_stream(32, deal))
        kinds = {int(e[0]) for e in played.events}
        if C.EV_COMMUNITY not in kinds or kinds & {C.EV_RESHUFFLE, C.EV_NO_CARD}:
            continue
        bit = int(TW.STATE.get(st, "community")).bit_length() - 1  # the mask's bit: 16 a suit
        table = replace(describe_deal(st, n, played.events), street=None, to_act={},
                        community=card_text(4 * (bit % 16) + bit // 16))
        built = table_state(inp, table)
        assert built[C.B.phase] == TW.PH_HANDS and TW.STATE.get(built, "community") == TW.STATE.get(st, "community")
        end = play_state(inp, built, new_stream(0, 0))
        assert np.array_equal(TW.RESULT.view(end.result, "payout"), TW.RESULT.view(played.result, "payout")), deal
        with pytest.raises(WantitError, match=re.escape("hole[0]: 3 hole cards; a seat has 2 before 7th street and "
                                                        "3 after (2 when 7th street is a community card)")):
            table_state(inp, replace(table, hole={**table.hole, 0: table.hole[0] + " " + table.community}))
        found += 1
    assert found > 3
    # A community card where every seat could have had its own (52 - 12 known cards left), or with the rule off,
    # is refused.
    two = tw(2, hole={0: "Ah Kd", 1: "7s 7c"}, up={0: "Qh Jh 9c 2s", 1: "8d 8h Tc 3d"}, community="5c")
    with pytest.raises(WantitError, match=re.escape("community: 40 cards were left for 7th street, enough for every "
                                                    "seat's face-down card")):
        state(two)
    with pytest.raises(WantitError, match=re.escape("community: no community card is turned with community_card = "
                                                    "false")):
        state(two, rules={"community_card": False})
    with pytest.raises(WantitError, match=re.escape("community: the community card is turned on 7th street; 5th "
                                                    "street is before it")):
        state(replace(two, street=5, up={0: "Qh Jh", 1: "8d 8h"}))


def test_after_the_7th_street_card_equity_enumerates_every_hidden_hand_as_eval7_does():
    # Three players after the 7th-street card; seat 1's three hole cards and seat 2's 7th-street card are
    # unknown: of the 35 unseen cards, C(35,3) * 32 = 209,440 ways, each judged by eval7 here, against the
    # enumeration and a sample.
    import eval7

    hole, up = {0: "Ah Kd Qc", 2: "5s 5c ??"}, {0: "Qh Jh 9c 2s", 1: "8d 8h Tc 3d", 2: "Ac 6d 7h 4s"}
    names = "23456789TJQKA"
    deck = [eval7.Card(names[c >> 2] + "cdhs"[c & 3]) for c in range(52)]
    mine, seat1, seat2 = codes(hole[0] + " " + up[0]), codes(up[1]), codes("5s 5c " + up[2])
    unseen = [c for c in range(52) if c not in mine + seat1 + seat2]
    assert len(unseen) == 35
    mine_value = eval7.evaluate([deck[c] for c in mine])
    best2 = {x: eval7.evaluate([deck[c] for c in seat2 + [x]]) for x in unseen}
    total = ways = 0
    for three in itertools.combinations(unseen, 3):
        v1 = eval7.evaluate([deck[c] for c in seat1 + list(three)])
        for x in unseen:
            if x in three:
                continue
            top = max(mine_value, v1, best2[x])
            if mine_value == top:
                total += 1.0 / ((v1 == top) + (best2[x] == top) + 1)
            ways += 1
    assert ways == 209_440 and 0.1 < total / ways < 0.9  # queens, against 8s and 5s with straight draws
    r = equity(tw(3, hole=hole, up=up))
    assert r.meta["exact"] and r.meta["completions"] == ways
    assert abs(r.seats.share[0] - total / ways) < 1e-12
    sampled = equity(tw(3, hole=hole, up=up), exact=False, precision=0.004, seed=5)
    assert not sampled.meta["exact"]
    assert abs(sampled.seats.share[0] - total / ways) < 4.5 * sampled.seats.share_se[0]
