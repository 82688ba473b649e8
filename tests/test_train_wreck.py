"""Train Wreck on a stacked deck, one test per step of RULES.md §4.3 and §4.4 and per
option of §4.6; random deals for conservation, deck exhaustion (TW-A9) and the
showdown; a statistical test against the exact seven-card stud frequencies (F2).

With two players and the dealer on seat 1, the cards are drawn in this order:
seat 0 hole, seat 1 hole, seat 0 hole, seat 1 hole, seat 0 table card #1, seat 1
table card #1; then on each of streets 4-6 (everyone accepting) seat 0's card and
seat 1's card, each followed by any cards the special pairs deal at the end of the
street; then the 7th-street cards. ``stacked(...)`` puts the given cards first and
the rest of the deck after them in code order (2c 2d 2h 2s 3c ...).
"""

from math import comb, sqrt

import numpy as np
import pytest

from analyzer import Category, WantitError, describe_high, hand_category
from analyzer.cards import format_cards, parse_cards
from analyzer.engine import decision, new_state, new_stream, play_state
from analyzer.simulate import simulate
from analyzer.trace import narrate, play_deal
from analyzer.variants import get_variant
from kernels.cards import NO_CARD, card_bit
from kernels.games import common as C
from kernels.games import train_wreck as TW
from tests.oracles import brute_high, same_order

F2 = [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584]
NO_SPECIALS = {"special_pairs": "none"}


def events(d, *kinds):
    return [tuple(int(x) for x in e) for e in d.events if e[0] in kinds]


def stacked(text, rest=True):
    first = parse_cards(text).tolist()
    tail = [c for c in range(52) if c not in first] if rest else []
    return np.array(first + tail, dtype=np.uint8)


def run(policies, deck, players=2, dealer=None, rules=None):
    dealer = players - 1 if dealer is None else dealer
    return play_deal("train_wreck", players=players, policies=policies, rules=rules, stacked=deck, dealer=dealer)


def card(text):
    return int(parse_cards(text)[0])


def cards(text):
    return [int(c) for c in parse_cards(text)]


def mask_of(text):
    m = np.uint64(0)
    for c in cards(text):
        m |= card_bit(c)
    return m


def up(d, seat):
    return format_cards(d.up[seat])


def hole(d, seat):
    return format_cards(d.hole[seat])


def specials(d):
    """(kind, seat, card, a, b) of every special-pair event, in order."""
    kinds = (C.EV_SPECIAL, C.EV_EXTRA_CARD, C.EV_TW_DISCARD, C.EV_STEAL, C.EV_SPECIAL_SKIP)
    return events(d, *kinds)


def held_cards(d):
    """Every card a seat holds at the showdown, the community card once."""
    out = [c for c in d.hole.ravel().tolist() if c != NO_CARD]
    community = {e[2] for e in events(d, C.EV_COMMUNITY)}
    for s in range(d.players):
        out += [c for c in d.up[s].tolist() if c != NO_CARD and c not in community]
    return out + sorted(community)


# --------------------------------------------------------------------------- §4.3


def test_4_3_1_two_down_then_table_card_one_a_circuit_from_the_dealers_left():
    d = run("always_accept", np.arange(52, dtype=np.uint8), players=3, dealer=0, rules=NO_SPECIALS)
    downs = events(d, C.EV_DEAL_DOWN)
    ups = events(d, C.EV_DEAL_UP)
    assert [(s, c) for _, s, c, *_ in downs[:6]] == [(1, 0), (2, 1), (0, 2), (1, 3), (2, 4), (0, 5)]
    assert [(s, c) for _, s, c, *_ in ups[:3]] == [(1, 6), (2, 7), (0, 8)]
    assert d.events[3][0] == C.EV_STREET and d.events[3][3] == 3  # after the antes
    assert [e[3] for e in events(d, C.EV_STREET)] == [3, 4, 5, 6, 7]
    assert [e[1] for e in events(d, C.EV_STREET)] == [1] * 5  # first to act: the dealer's left
    assert [e[4] for e in events(d, C.EV_STREET)] == [0, 4, 8, 16, 0]  # TW-A1 fees 1x, 2x, 4x of 4


def test_4_3_3_accept_takes_the_offered_card_free_and_a_new_card_is_turned_for_the_next():
    d = run("always_accept", np.arange(52, dtype=np.uint8), players=3, dealer=0, rules=NO_SPECIALS)
    offers = events(d, C.EV_OFFER)
    accepts = events(d, C.EV_ACCEPT)
    turned = events(d, C.EV_TURN_UP)
    assert [e[1] for e in offers] == [1, 2, 0] * 3
    assert [e[2] for e in offers] == [e[2] for e in accepts] == [e[2] for e in turned] == list(range(9, 18))
    assert all(e[3] == 0 for e in accepts + offers)  # free, nobody refused it
    assert not events(d, C.EV_PAY_FEE) and not events(d, C.EV_BURY)
    assert d.paid.tolist() == [1, 1, 1]
    # 4.3.4: the 7th-street card face down, clockwise from the dealer's left.
    assert [(s, c) for _, s, c, *_ in events(d, C.EV_DEAL_DOWN)[6:]] == [(1, 18), (2, 19), (0, 20)]
    assert (d.hole != NO_CARD).sum(axis=1).tolist() == [3, 3, 3]
    assert (d.up != NO_CARD).sum(axis=1).tolist() == [4, 4, 4]


def test_4_3_3_a_paid_away_card_is_offered_to_the_next_player():
    d = run({0: "always_pay", 1: "always_accept", 2: "always_accept"}, np.arange(52, dtype=np.uint8),
            players=3, dealer=2, rules=NO_SPECIALS)
    K = C.EV_TURN_UP, C.EV_OFFER, C.EV_PAY_FEE, C.EV_DEAL_UP, C.EV_ACCEPT
    street4 = [(k, s, c) for k, s, c, _, _ in events(d, *K)[3:][:9]]
    assert street4 == [
        (C.EV_TURN_UP, -1, 9), (C.EV_OFFER, 0, 9), (C.EV_PAY_FEE, 0, 9), (C.EV_DEAL_UP, 0, 10),
        (C.EV_OFFER, 1, 9), (C.EV_ACCEPT, 1, 9),  # seat 1 gets the card seat 0 refused
        (C.EV_TURN_UP, -1, 11), (C.EV_OFFER, 2, 11), (C.EV_ACCEPT, 2, 11),
    ]
    assert [e[3] for e in events(d, C.EV_OFFER)[:2]] == [0, 1]  # refusals so far
    assert d.up[0, 1] == 10 and d.up[1, 1] == 9 and d.up[2, 1] == 11


def test_4_3_3_4_the_last_players_refused_card_is_buried_and_never_used():
    d = run("always_pay", stacked("Ac Kd Qh Js 9c 8d 2c 3d 4h 5s 6c 7d 2h 3s 4c"), dealer=1,
            rules=NO_SPECIALS)
    buried = events(d, C.EV_BURY)
    assert [(s, c) for _, s, c, *_ in buried] == [(1, card("2c")), (1, card("5s")), (1, card("2h"))]
    # 4th street: seat 0 refuses 2c and is dealt 3d; seat 1 refuses 2c too and is dealt 4h.
    assert up(d, 0).split()[1] == "3d" and up(d, 1).split()[1] == "4h"
    held = held_cards(d)
    assert not {e[2] for e in buried} & set(held)
    drawn = [e[2] for e in d.events if e[0] in (C.EV_DEAL_DOWN, C.EV_DEAL_UP, C.EV_TURN_UP)]
    assert sorted(drawn) == sorted(held + [e[2] for e in buried])  # each buried card drawn once only


def test_tw_a1_fees_rise_each_street_and_go_into_the_pot():
    deck = np.arange(52, dtype=np.uint8)
    d = run({0: "always_pay", 1: "always_accept"}, deck, rules=NO_SPECIALS)
    assert [e[3] for e in events(d, C.EV_PAY_FEE)] == [4, 8, 16]
    assert d.paid.tolist() == [1 + 4 + 8 + 16, 1]
    assert d.payout.sum() == pytest.approx(30)  # the pot: antes and fees
    assert d.nets.sum() == pytest.approx(0)
    custom = run({0: "always_pay", 1: "always_accept"}, deck,
                 rules={**NO_SPECIALS, "fee_unit": 3, "fee_multipliers": "2,0,5", "ante": 2})
    assert [e[3] for e in events(custom, C.EV_PAY_FEE)] == [6, 0, 15]
    assert custom.paid.tolist() == [2 + 6 + 0 + 15, 2]
    assert custom.nets.sum() == pytest.approx(0)


@pytest.mark.parametrize("seed", range(30))
def test_nets_sum_to_zero_with_fees(seed):
    d = play_deal("train_wreck", players=2 + seed % 6, seed=seed, deal=seed,
                  policies={"all": "heuristic:fee_weight=0", 0: "always_pay"},
                  rules={"chip_mode": "integer"} if seed % 2 else None)
    assert d.nets.sum() == pytest.approx(0, abs=1e-12)
    assert d.paid[0] > 1
    fees = np.zeros(d.players)
    for _, s, _, a, _ in events(d, C.EV_PAY_FEE):
        fees[s] += a
    assert (d.paid - 1).tolist() == fees.tolist()


# --------------------------------------------------------------------------- §4.4

# Seat 0 pairs 2s on 4th street (2c, then 2d); Th is the next card: the extra card.
TWOS = "Ac Qc Kd Jd 2c 9h 2d 8h Th 6c 7s 5d 4s 3h 9c"


def test_4_4_3_a_pair_of_twos_deals_an_extra_card_face_up():
    d = run("always_accept", stacked(TWOS))
    sp = specials(d)
    assert sp[0] == (C.EV_SPECIAL, 0, card("2d"), TW.ACTION_EXTRA_CARD, 0)
    assert sp[1] == (C.EV_EXTRA_CARD, 0, -1, 0, 0)
    assert len(sp) == 2
    assert up(d, 0) == "2c 2d Th 6c 5d"
    assert up(d, 1) == "9h 8h 7s 4s"
    assert hole(d, 0) == "Ac Kd 3h"
    # The hand is the best five of all eight cards.
    assert describe_high(d.high[0]) == "Pair of twos, A-K-T kickers"


def test_4_4_1_only_table_cards_count_an_extra_card_never_makes_a_pair():
    # Seat 0 pairs 2s on 4th street; its extra card 3h and its 5th-street table card
    # 3c, its hole card 4c and 6th-street table card 4d make no special pair.
    deck = stacked("Ac 9s 4c Jd 2c 9h 2d 8h 3h 3c 7s 4d Ks 5c Qs")
    d = run("always_accept", deck)
    assert [e[0] for e in specials(d)] == [C.EV_SPECIAL, C.EV_EXTRA_CARD]  # only the 2s
    assert up(d, 0) == "2c 2d 3h 3c 4d" and hole(d, 0) == "Ac 4c 5c"
    # TW-A11 pairs_count_extras: the extra 3h and the table 3c now make a pair of 3s.
    counted = run("always_accept", deck, rules={"pairs_count_extras": True})
    sp = specials(counted)
    assert [(k, s) for k, s, *_ in sp] == [(C.EV_SPECIAL, 0), (C.EV_EXTRA_CARD, 0), (C.EV_SPECIAL, 0),
                                           (C.EV_TW_DISCARD, 0)]
    assert sp[2][2] == card("3c") and sp[2][4] == 1  # 3c completes the pair of 3s (rank 1)
    # Hole cards never count, even with the option: 4c (hole) + 4d (table) does nothing.
    assert not [e for e in sp if e[0] == C.EV_SPECIAL and e[4] == 2]


@pytest.mark.parametrize("pair", ["3", "4"])
def test_4_4_3_threes_and_fours_discard_an_opponents_table_card(pair):
    # Seat 0: table 3c/4c then 3d/4d on 4th street. Seat 1 shows Ah and 8h: losing the
    # ace hurts it most, so the ace goes face up to the dead cards, with no replacement.
    deck = stacked(f"Kc 7c Qd 6d {pair}c Ah {pair}d 8h Jc Tc 9s 2s Ts 5h")
    d = run("always_accept", deck)
    sp = specials(d)
    rank = int(pair) - 2
    assert sp[0] == (C.EV_SPECIAL, 0, card(pair + "d"), TW.ACTION_DISCARD, rank)
    assert sp[1] == (C.EV_TW_DISCARD, 0, card("Ah"), 1, 4 * rank + TW.SOURCE_TABLE)
    assert "Ah" not in up(d, 1) and "Ah" not in up(d, 0)
    assert (d.up[1] != NO_CARD).sum() == 3  # 8h and the 5th- and 6th-street cards
    assert card("Ah") not in held_cards(d)


def test_4_4_3_fives_steal_an_opponents_table_card():
    deck = stacked("Kc 7c Qd 6d 5c Ah 5d 8h Jc Tc 9s 2s 3s 4h")
    d = run("always_accept", deck)
    sp = specials(d)
    assert sp[0] == (C.EV_SPECIAL, 0, card("5d"), TW.ACTION_STEAL, 3)
    assert sp[1] == (C.EV_STEAL, 0, card("Ah"), 1, 4 * 3 + TW.SOURCE_TABLE)
    assert up(d, 0) == "5c 5d Ah Jc 9s"  # the stolen card is face up in the thief's hand
    assert up(d, 1) == "8h Tc 2s"  # no replacement
    assert describe_high(d.high[0]) == "Pair of fives, A-K-Q kickers"


def test_4_4_3_two_different_pairs_3_3_5_5_both_act_in_rank_order():
    # Seat 0: 3c, 5c, 3d (pair of 3s on 5th street), 5d (pair of 5s on 6th street).
    deck = stacked("Kc 7c Qd 6d 3c Ah 5c Kh 3d Qh 5d Jh 9s 8s")
    d = run("always_accept", deck)
    acts = [(k, s, e) for k, s, _, _, e in specials(d) if k in (C.EV_TW_DISCARD, C.EV_STEAL)]
    assert [(k, s, b >> 2) for k, s, b in acts] == [(C.EV_TW_DISCARD, 0, 1), (C.EV_STEAL, 0, 3)]


def test_tw_a11_a_stolen_card_can_make_a_new_pair_with_pairs_count_extras():
    # The 5-5 steal of As pairs seat 0's table Ac (special_pairs A=discard_opp): with
    # pairs_count_extras the aces act next; by default the stolen card never counts.
    deck = stacked("Kc 7c Qd 6d Ac As 5c 8h 5d 9h Jc Tc 3s 2s Js 4h")
    rules = {"special_pairs": "5=steal_opp,A=discard_opp,3=extra_card", "pairs_count_extras": True}
    d = run("always_accept", deck, rules=rules)
    sp = [(k, s, c, b) for k, s, c, _, b in specials(d)]
    assert sp[0][:2] == (C.EV_SPECIAL, 0) and sp[0][3] == 3
    assert sp[1] == (C.EV_STEAL, 0, card("As"), 4 * 3 + TW.SOURCE_TABLE)
    assert sp[2][:2] == (C.EV_SPECIAL, 0) and sp[2][3] == 12
    assert sp[3][0] == C.EV_TW_DISCARD and sp[3][3] >> 2 == 12
    without = run("always_accept", deck, rules={**rules, "pairs_count_extras": False})
    assert [k for k, *_ in specials(without)] == [C.EV_SPECIAL, C.EV_STEAL]


def test_4_4_1_trips_act_once_like_a_pair():
    deck = stacked("Kc 7c Qd 6d 3c Ah 3d 8h 3h Jh Tc 9c 2c 4c")
    d = run("always_accept", deck)
    assert [(k, s) for k, s, *_ in specials(d)] == [(C.EV_SPECIAL, 0), (C.EV_TW_DISCARD, 0)]


def test_tw_a6_quads_on_the_table_act_once():
    deck = stacked("Kc 7c Qd 6d 3c Ah 3d 8h 3h Jh 3s 9c 2c 4c")
    d = run("always_accept", deck)
    assert [(k, s) for k, s, *_ in specials(d)] == [(C.EV_SPECIAL, 0), (C.EV_TW_DISCARD, 0)]
    assert describe_high(d.high[0]).startswith("Four of a kind, threes")


# Seat 0 pairs 2s on 4th street (extra card 6s); seat 1 pairs 3s on 5th street and
# discards seat 0's 2c (breaking its pair); seat 0's 6th-street 2h re-forms the pair.
REFORM = "Jc Ks Qd 9d 2c 3c 2d 9h 6s 7s 3d 2h Kh 4d 5d 8c"


def test_tw_a5_a_rank_triggers_once_a_deal_by_default():
    d = run("always_accept", stacked(REFORM))
    sp = specials(d)
    assert [(k, s) for k, s, *_ in sp] == [(C.EV_SPECIAL, 0), (C.EV_EXTRA_CARD, 0), (C.EV_SPECIAL, 1),
                                           (C.EV_TW_DISCARD, 1)]
    assert sp[3][2] == card("2c") and sp[3][3] == 0  # seat 1 breaks seat 0's pair of 2s
    # §4.4.4: the victim's pairs are then counted among the table cards it still holds:
    # 2d and 2h are a pair again, but 2s already acted this deal.
    assert up(d, 0) == "2d 6s 7s 2h"


def test_tw_a5_retrigger_lets_a_reformed_pair_act_again():
    d = run("always_accept", stacked(REFORM), rules={"retrigger": True})
    sp = specials(d)
    assert [(k, s) for k, s, *_ in sp] == [(C.EV_SPECIAL, 0), (C.EV_EXTRA_CARD, 0), (C.EV_SPECIAL, 1),
                                           (C.EV_TW_DISCARD, 1), (C.EV_SPECIAL, 0), (C.EV_EXTRA_CARD, 0)]
    assert sp[4][2] == card("2h")
    assert up(d, 0) == "2d 6s 7s 2h 4d"  # the second extra card


def test_tw_a4_actions_resolve_at_the_end_of_the_street_by_default():
    d = run("always_accept", stacked(TWOS))
    street4 = [(k, s, c) for k, s, c, _, _ in d.events if k in (C.EV_ACCEPT, C.EV_EXTRA_CARD, C.EV_DEAL_UP)]
    street4 = street4[2:6]
    assert street4 == [(C.EV_ACCEPT, 0, card("2d")), (C.EV_ACCEPT, 1, card("8h")),
                       (C.EV_EXTRA_CARD, 0, -1), (C.EV_DEAL_UP, 0, card("Th"))]


def test_tw_a4_immediate_timing_resolves_before_the_next_offer():
    d = run("always_accept", stacked(TWOS), rules={"special_timing": "immediate"})
    street4 = [(k, s, c) for k, s, c, _, _ in d.events if k in (C.EV_ACCEPT, C.EV_EXTRA_CARD, C.EV_DEAL_UP)]
    assert street4[2:6] == [(C.EV_ACCEPT, 0, card("2d")), (C.EV_EXTRA_CARD, 0, -1), (C.EV_DEAL_UP, 0, card("8h")),
                            (C.EV_ACCEPT, 1, card("Th"))]


# 4th street: seat 0 pairs 3s (3c, 3d) and seat 1 pairs 5s (5c, 5d).
BROKEN = "Kc 7c Qd 6d 3c 5c 3d 5d Jh 9h Tc 8s 2s 4s"


def test_4_4_2_a_pair_broken_earlier_in_the_same_pass_still_acts():
    d = run("always_accept", stacked(BROKEN))
    sp = specials(d)
    assert [(k, s) for k, s, *_ in sp] == [(C.EV_SPECIAL, 0), (C.EV_SPECIAL, 1), (C.EV_TW_DISCARD, 0),
                                           (C.EV_STEAL, 1)]
    assert sp[2][2] in cards("5c 5d")  # seat 0 breaks seat 1's pair of 5s first ...
    assert sp[3][0] == C.EV_STEAL  # ... and seat 1 still steals


def test_tw_a4_immediate_a_discard_can_prevent_a_pair():
    d = run("always_accept", stacked(BROKEN), rules={"special_timing": "immediate"})
    sp = specials(d)
    # Seat 0 acts before seat 1 is dealt 5d: it discards 5c, seat 1's only table card.
    assert [(k, s) for k, s, *_ in sp] == [(C.EV_SPECIAL, 0), (C.EV_TW_DISCARD, 0)]
    assert sp[1][2] == card("5c")


def test_tw_a7_actions_are_mandatory_even_for_a_seat_that_would_decline():
    d = run("never_act", stacked(TWOS))
    assert [k for k, *_ in specials(d)] == [C.EV_SPECIAL, C.EV_EXTRA_CARD]
    d = run("always_accept", stacked("Kc 7c Qd 6d 5c Ah 5d 8h Jc Tc 9s 2s 3s 4h"))
    assert [k for k, *_ in specials(d)] == [C.EV_SPECIAL, C.EV_STEAL]  # the baseline still steals


@pytest.mark.parametrize("deck,action", [(TWOS, TW.ACTION_EXTRA_CARD),
                                         ("Kc 7c Qd 6d 5c Ah 5d 8h Jc Tc 9s 2s 3s 4h", TW.ACTION_STEAL),
                                         ("Kc 7c Qd 6d 3c Ah 3d 8h Jc Tc 9s 2s Ts 4h", TW.ACTION_DISCARD)])
def test_tw_a7_optional_actions_may_be_declined(deck, action):
    rules = {"actions_optional": True}
    declined = run("never_act", stacked(deck), rules=rules)
    sp = specials(declined)
    assert [(k, s) for k, s, *_ in sp] == [(C.EV_SPECIAL, 0), (C.EV_SPECIAL_SKIP, 0)]
    assert sp[1][3] == action and sp[1][4] & 3 == TW.SKIP_DECLINED
    assert (declined.up[0] != NO_CARD).sum() == 4 and (declined.up[1] != NO_CARD).sum() == 4
    taken = run("always_accept", stacked(deck), rules=rules)
    assert len(specials(taken)) == 2 and specials(taken)[1][0] != C.EV_SPECIAL_SKIP


def test_tw_a2_threes_and_fours_can_be_given_different_actions():
    deck = stacked("Kc 7c Qd 6d 4c Ah 4d 8h Jc Tc 9s 2s Ts 5h")
    d = run("always_accept", deck, rules={"special_pairs": "3=discard_opp,4=steal_opp"})
    assert [k for k, *_ in specials(d)] == [C.EV_SPECIAL, C.EV_STEAL]
    off = run("always_accept", deck, rules={"special_pairs": "none"})
    assert not specials(off)


def test_4_4_3_an_action_without_a_legal_target_is_skipped():
    """No opponent holds a table card (a state the kernel is started from directly):
    the mandatory discard is skipped."""
    inp = get_variant("train_wreck").inputs(2)
    st = new_state(inp, dealer=1)
    placed = np.uint64(0)
    for s, (down, table) in enumerate([(cards("Kc Qc"), cards("3c 3d")), (cards("Kd Qd"), [])]):
        for k, c in enumerate(down):
            TW.STATE.view(st, "hole")[s, k] = c
            TW.STATE.view(st, "hole_mask")[s] |= int(card_bit(c))
            placed |= card_bit(c)
        for k, c in enumerate(table):
            TW.STATE.view(st, "up")[s, k] = c
            TW.STATE.view(st, "table")[s] |= int(card_bit(c))
            placed |= card_bit(c)
        TW.STATE.view(st, "n_up")[s] = len(table)
    TW.STATE.view(st, "pending")[0] = TW.STATE.view(st, "triggered")[0] = 1 << 1  # seat 0: a pair of 3s to act on
    st[C.P.seen] = int(mask_of("3c 3d"))
    # The end of 6th street: seat 0 (the dealer's left) carries out its special pairs.
    for name, value in (("street", 6), ("res_step", 1), ("resolver", 0), ("phase", TW.PH_RESOLVE)):
        TW.STATE.put(st, name, value)
    C.fill_stock(st, placed)
    played = play_state(inp, st, new_stream(0, 0))
    rows = [tuple(int(x) for x in e) for e in played.events]
    seventh = rows.index((C.EV_STREET, 0, -1, 7, 0))
    assert rows[:seventh] == [(C.EV_SPECIAL_SKIP, 0, -1, TW.ACTION_DISCARD, 4 * 1 + TW.SKIP_NO_TARGET)]
    assert TW.STATE.get(st, "n_dead") == 0 and TW.STATE.view(st, "pending")[0] == 0
    assert played.finished


# --------------------------------------------------------------------- TW-A3 targets

# Seat 1 pairs 2s on 4th street (extra card Kc) and shows Kh on 5th; seat 0 pairs 3s
# on 5th street. Losing a king hurts seat 1 most: Kc comes first among its cards.
TARGETS = "Jc 8c Qd 9c 3c 2c 7d 2d Kc 3d Kh 6s 5s 4h 4s"


def test_tw_a3_discards_take_table_cards_only_by_default():
    d = run("always_accept", stacked(TARGETS))
    discards = events(d, C.EV_TW_DISCARD)
    assert [(s, c, a, b & 3) for _, s, c, a, b in discards] == [(0, card("Kh"), 1, TW.SOURCE_TABLE)]
    assert "Kc" in up(d, 1)


def test_tw_a3_any_face_up_lets_extra_cards_be_taken():
    d = run("always_accept", stacked(TARGETS), rules={"targets": "any_face_up"})
    discards = events(d, C.EV_TW_DISCARD)
    assert [(s, c, a, b & 3) for _, s, c, a, b in discards] == [(0, card("Kc"), 1, TW.SOURCE_FACE_UP)]
    assert "Kc" not in up(d, 1) and "Kh" in up(d, 1)


def test_tw_a3_any_includes_a_hole_card_taken_blind():
    # Seat 0 (As Kd, table 5c 5d) steals to improve its hand: seat 1 shows only 2h and
    # 7c, so a blind hole card (a fresh card, on average) is worth more.
    deck = stacked("As 9c Kd Tc 5c 2h 5d 7c Jh 8s 3d 4d 6h 6s")
    d = run("always_accept", deck, rules={"targets": "any"})
    steals = events(d, C.EV_STEAL)
    assert len(steals) == 1
    _, s, c, victim, b = steals[0]
    assert (s, victim, b & 3) == (0, 1, TW.SOURCE_HOLE)
    assert c in cards("9c Tc")
    assert c not in d.hole[1].tolist() and c in d.up[0].tolist()
    assert (d.hole[1] != NO_CARD).sum() == 2  # one hole card left and the 7th-street card
    table_only = run("always_accept", deck)
    assert events(table_only, C.EV_STEAL)[0][4] & 3 == TW.SOURCE_TABLE


def test_tw_a3_include_folded_is_accepted_and_changes_nothing_in_equity_mode():
    a = play_deal("train_wreck", players=5, seed=4, deal=2)
    b = play_deal("train_wreck", players=5, seed=4, deal=2, rules={"include_folded": True})
    assert a.events.tolist() == b.events.tolist()


# ------------------------------------------------------------------- §4.3.6 showdown


def oracle_value(held):
    """An independent value of any number of cards, larger is better: the brute-force
    best five of ``tests.oracles`` for five cards or more; for fewer (§0.3), the rank
    pattern (quads, trips, two pair, pair, high card) with a missing card lower than
    any real one."""
    digits = []
    if len(held) >= 5:
        slot, low = divmod(brute_high(held, 0), 16**5)
        if slot in (5, 10):  # straights and straight flushes: the top card only
            digits = [low + 1]
        else:
            digits = [((low >> (4 * k)) & 15) + 1 for k in range(4, -1, -1)]
    else:
        counts = {}
        for c in held:
            counts[c >> 2] = counts.get(c >> 2, 0) + 1
        groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
        for r, k in groups:
            digits += [r + 1] * k
        top = groups[0][1] if groups else 0
        pairs = sum(1 for _, k in groups if k == 2)
        slot = {4: 8, 3: 4}.get(top, 3 if pairs == 2 else 2 if pairs == 1 else 1)
    digits += [0] * (5 - len(digits))
    value = slot
    for x in digits:
        value = value * 16 + x
    return value


def check_showdown(d):
    held_by_seat = [[c for c in d.hole[s].tolist() + d.up[s].tolist() if c != NO_CARD] for s in range(d.players)]
    ok, example = same_order([int(h) for h in d.high], [oracle_value(h) for h in held_by_seat])
    assert ok, (example, [format_cards(h) for h in held_by_seat])
    winners = [s for s in range(d.players) if d.payout[s] > 0]
    assert winners == [s for s in range(d.players) if d.high[s] == d.high.max()]
    return [len(h) for h in held_by_seat]


EVERY_RANK_STEALS = {"special_pairs": ",".join(f"{r}=steal_opp" for r in "23456789TJQKA"),
                     "pairs_count_extras": True, "retrigger": True, "targets": "any"}


@pytest.mark.parametrize("seed", range(25))
def test_4_3_6_showdown_is_the_best_five_of_all_cards_held(seed):
    """Every seat's strength orders like an independent brute-force evaluator over all
    the cards it holds (hole, table, extra, stolen and community cards)."""
    rules = [None, {"special_pairs": "2=extra_card,3=extra_card,4=steal_opp,5=steal_opp,6=extra_card",
                    "targets": "any_face_up"}, EVERY_RANK_STEALS][seed % 3]
    d = play_deal("train_wreck", players=6, seed=seed, deal=seed, rules=rules)
    counts = check_showdown(d)
    assert min(counts) >= 5 or rules is EVERY_RANK_STEALS


def test_4_3_6_showdown_from_four_to_ten_cards():
    """Three players, every rank a steal that can chain: hands range from four cards
    (incomplete, §0.3) to ten, and the oracle agrees on every deal."""
    sizes = set()
    for seed in range(200):
        d = play_deal("train_wreck", players=3, seed=seed, deal=seed, rules=EVERY_RANK_STEALS)
        sizes |= set(check_showdown(d))
    assert min(sizes) <= 4 and max(sizes) >= 10


def test_4_3_6_more_than_seven_cards_count():
    # Seat 0 holds 3 hole cards, 4 table cards, an extra card and a stolen card: 9.
    # The flush needs the extra card (Th) and the stolen card (9h).
    deck = stacked("Ah Kc Qh 3s 2c 9h 2d 8c Th 5c 7c 5d 4s 6h Jd")
    d = run({0: "heuristic", 1: "always_accept"}, deck,
            rules={"special_pairs": "2=extra_card,5=steal_opp"})
    held = [c for c in d.hole[0].tolist() + d.up[0].tolist() if c != NO_CARD]
    assert len(held) == 9 and events(d, C.EV_STEAL)[0][2] == card("9h")
    assert describe_high(d.high[0]) == "Flush, A-Q-T-9-6"


def test_0_3_incomplete_hands_when_cards_run_out():
    # A stacked deck of eight cards: two hole cards and two table cards each, then
    # nothing: every later card is lost (TW-A9 d) and the hands have four cards.
    deck = parse_cards("As Ks Ad Kd Ah Qc Kh Qd")
    d = run("always_accept", deck, rules=NO_SPECIALS)
    assert [e[3] for e in events(d, C.EV_NO_CARD)] == [TW.LOST_TABLE_CARD] * 4 + [TW.LOST_SEVENTH_CARD]
    assert hand_category(d.high[0]) == Category.THREE_OF_A_KIND
    assert describe_high(d.high[0]) == "Three of a kind, aces, K kickers"
    assert describe_high(d.high[1]) == "Two pair, kings and queens"
    assert d.payout.tolist() == [2, 0]


def test_a_deck_too_short_for_the_first_three_cards_is_an_error():
    with pytest.raises(WantitError, match="ran out"):
        run("always_accept", parse_cards("As Ks Ad Kd Ah"))


# ------------------------------------------------------------- TW-A9 deck exhaustion


@pytest.mark.parametrize("seed", range(40))
def test_tw_a9_seven_players_paying_every_fee_never_crash(seed):
    rules = [None, {"reshuffle_includes_buried": True}, {"community_card": False},
             {"special_pairs": "2=extra_card,3=extra_card,4=extra_card,5=steal_opp,6=discard_opp",
              "pairs_count_extras": True, "retrigger": True}][seed % 4]
    d = play_deal("train_wreck", players=7, seed=seed, deal=seed, policies="always_pay", rules=rules)
    assert d.carry == 0 and d.nets.sum() == pytest.approx(0, abs=1e-9)
    check_conservation(d, buried_may_return=bool((rules or {}).get("reshuffle_includes_buried")))
    rows = [tuple(int(x) for x in e) for e in d.events]
    buried = {e[2] for e in rows if e[0] == C.EV_BURY}
    reshuffled = any(e[0] == C.EV_RESHUFFLE for e in rows)
    for i, e in enumerate(rows):
        if e[0] == C.EV_PAY_FEE:
            assert rows[i + 1][0] in (C.EV_DEAL_UP, C.EV_RESHUFFLE)  # (a) a replacement always comes
    drawn_after = [e[2] for e in rows if e[0] in (C.EV_DEAL_UP, C.EV_TURN_UP, C.EV_DEAL_DOWN)]
    if not (rules or {}).get("reshuffle_includes_buried"):
        # (b) buried cards are never dealt again; every card is drawn at most once
        # unless it went dead and was reshuffled.
        assert len([c for c in drawn_after if c in buried]) == len(buried)
    if not reshuffled:
        assert len(drawn_after) == len(set(drawn_after))


def test_tw_a9_every_exhaustion_rule_is_reached_in_random_seven_player_deals():
    """All seven players paying every fee: the reshuffle (b) and the community card (c)
    occur with the default rules, a lost 7th-street card without the community card,
    and a lost extra card (d) with many extra-card ranks; no deal is ever void."""
    every_rank = ",".join(f"{r}=extra_card" for r in "23456789TJQKA")
    seen = {}
    for name, rules in (("default", None), ("no_community", {"community_card": False}),
                        ("extras", {"special_pairs": every_rank, "pairs_count_extras": True})):
        kinds, lost = set(), set()
        for seed in range(200):
            d = play_deal("train_wreck", players=7, seed=seed, deal=seed, policies="always_pay", rules=rules)
            assert d.carry == 0
            kinds |= {int(e[0]) for e in d.events}
            lost |= {int(e[3]) for e in d.events if e[0] == C.EV_NO_CARD}
        seen[name] = kinds, lost
    assert {C.EV_RESHUFFLE, C.EV_COMMUNITY} <= seen["default"][0] and not seen["default"][1]
    assert C.EV_COMMUNITY not in seen["no_community"][0] and TW.LOST_SEVENTH_CARD in seen["no_community"][1]
    assert TW.LOST_EXTRA_CARD in seen["extras"][1]


def check_conservation(d, buried_may_return=False):
    """Every card drawn is held, buried or discarded (dead), and no card is held twice.
    A discarded card (and, with ``reshuffle_includes_buried``, a buried one) may come
    back through a reshuffle: then it is held, or out of play again."""
    rows = [tuple(int(x) for x in e) for e in d.events]
    held = held_cards(d)
    assert len(held) == len(set(held))
    buried = [e[2] for e in rows if e[0] == C.EV_BURY]
    discarded = [e[2] for e in rows if e[0] == C.EV_TW_DISCARD]
    drawn = [e[2] for e in rows if e[0] in (C.EV_DEAL_DOWN, C.EV_DEAL_UP, C.EV_TURN_UP)]
    assert set(drawn) == set(held) | set(buried) | set(discarded)
    if not buried_may_return:
        assert not set(held) & set(buried)
    if not any(e[0] == C.EV_RESHUFFLE for e in rows):
        assert len(drawn) == len(set(drawn))  # no card dealt twice
        assert len(buried + discarded) == len(set(buried + discarded))
        assert not set(held) & set(discarded)
    # A stolen card stays face up with the thief unless it is taken again later.
    for _, s, c, _, _ in [e for e in rows if e[0] == C.EV_STEAL]:
        assert c in held or c in discarded


@pytest.mark.parametrize("seed", range(60))
def test_conservation_every_card_accounted_for_in_random_deals(seed):
    rules = [None, {"targets": "any"}, {"special_timing": "immediate", "retrigger": True},
             {"targets": "any_face_up", "pairs_count_extras": True}][seed % 4]
    d = play_deal("train_wreck", players=2 + seed % 6, seed=seed, deal=seed,
                  policies={"all": "heuristic:fee_weight=0", 1: "always_pay"}, rules=rules)
    check_conservation(d)
    assert d.nets.sum() == pytest.approx(0, abs=1e-12)


def test_tw_a9_a_pay_needs_a_replacement_card():
    # Eight cards: 4th street's offered card is the 7th; seat 0 pays and gets the 8th;
    # nothing can replace the card for seat 1, who must accept it.
    d = run("always_pay", parse_cards("As Ks Ad Kd Ah Qc 2c 3d"), rules=NO_SPECIALS)
    assert [(s, c) for _, s, c, *_ in events(d, C.EV_PAY_FEE)] == [(0, card("2c"))]
    assert [(s, c, a) for _, s, c, a, _ in events(d, C.EV_ACCEPT)] == [(1, card("2c"), 1)]
    assert "paying is not allowed" in narrate(d)


def test_tw_a9_reshuffle_takes_dead_cards_but_not_buried_ones():
    # Two players, eleven cards. 4th street: both pay; 2c is buried, seat 0 gets 3d,
    # seat 1 4h. Seat 0 pairs 3s (3c, 3d) and discards seat 1's Ah. 5th street: the
    # stock holds 9c and 9d; then the stock is empty: the dead Ah is reshuffled in.
    deck = parse_cards("Kc Ks Qd Qs 3c Ah 2c 3d 4h 9c 9d")
    d = run("always_pay", deck)
    assert [e[2] for e in events(d, C.EV_BURY)] == [card("2c"), card("9c")]
    assert events(d, C.EV_TW_DISCARD)[0][2] == card("Ah")
    assert [e[3] for e in events(d, C.EV_RESHUFFLE)] == [1]
    assert card("Ah") in held_cards(d) and card("2c") not in held_cards(d)
    with_buried = run("always_pay", deck, rules={"reshuffle_includes_buried": True})
    assert [e[3] for e in events(with_buried, C.EV_RESHUFFLE)][0] == 2  # Ah and the buried 2c
    assert [e[3] for e in events(with_buried, C.EV_RESHUFFLE)] == [2, 1]  # then the buried 9c
    assert card("2c") in held_cards(with_buried) and card("9c") in held_cards(with_buried)


def test_tw_a9_community_card_when_7th_street_runs_short():
    # Thirteen cards for two players: after 6th street one card is left: a community card.
    deck = parse_cards("As Ks Ad Kd 7h 8c 2c 3d 4h 5s 6c Jd 9c")
    d = run("always_accept", deck, rules=NO_SPECIALS)
    assert [e[2] for e in events(d, C.EV_COMMUNITY)] == [card("9c")]
    assert not events(d, C.EV_DEAL_DOWN)[4:]
    assert "9c" in up(d, 0) and "9c" in up(d, 1)
    assert describe_high(d.high[0]) == "Pair of aces, 9-7-6 kickers"
    assert describe_high(d.high[1]) == "Pair of kings, J-9-8 kickers"
    # Without the community card the cards are dealt while they last.
    plain = run("always_accept", deck, rules={**NO_SPECIALS, "community_card": False})
    assert not events(plain, C.EV_COMMUNITY)
    assert [(s, c) for _, s, c, *_ in events(plain, C.EV_DEAL_DOWN)[4:]] == [(0, card("9c"))]
    assert [e[1] for e in events(plain, C.EV_NO_CARD)] == [1]


def test_tw_a9_an_extra_card_that_cannot_be_dealt_is_lost():
    # Two players, eight cards: seat 0 pairs 2s on 4th street when no card is left.
    deck = parse_cards("As Ks Ad Kd 2c 8c 2d 8h")
    d = run("always_accept", deck)
    sp = specials(d)
    assert [k for k, *_ in sp] == [C.EV_SPECIAL, C.EV_EXTRA_CARD]
    lost = events(d, C.EV_NO_CARD)
    assert (lost[0][1], lost[0][3]) == (0, TW.LOST_EXTRA_CARD)
    assert "extra card is lost" in narrate(d)


# ---------------------------------------------------------------- policies and views


def test_policy_presets():
    v = get_variant("tw")
    assert v is get_variant("train-wreck") is get_variant("trainwreck")
    assert {"heuristic", "always_accept", "always_pay"} <= set(v.presets)
    d = play_deal("train_wreck", players=4, seed=1, policies="always_pay")
    pays = events(d, C.EV_PAY_FEE)
    assert len(pays) == 12 and not events(d, C.EV_ACCEPT)
    d = play_deal("train_wreck", players=4, seed=1, policies="always_accept")
    assert not events(d, C.EV_PAY_FEE)


@pytest.mark.parametrize("bad,message", [
    ({"fee_multipliers": "1,2"}, "three whole numbers"),
    ({"fee_multipliers": "1,-2,4"}, "three whole numbers"),
    ({"special_pairs": "5=fly"}, "not one of"),
    ({"special_pairs": "X=steal_opp"}, "not one rank"),
    ({"special_pairs": "5=steal_opp,5=none"}, "given twice"),
    ({"targets": "everything"}, "not allowed"),
    ({"split_mode": "declare"}, "not allowed"),
    ({"fee_unit": 1001}, "out of range"),
    ({"low_qualifier": 8}, "has no rule"),
])
def test_bad_rules_are_clear_errors(bad, message):
    with pytest.raises(WantitError, match=message):
        get_variant("train_wreck").rules_vector(bad)


def test_rules_vector_encodes_the_tables():
    v = get_variant("train_wreck")
    vec = v.rules_vector({"fee_multipliers": "2,3,5", "special_pairs": "T=steal_opp,A=extra_card"})
    assert vec[TW.R_FEE_MULTIPLIERS:TW.R_FEE_MULTIPLIERS + 3].tolist() == [2, 3, 5]
    table = vec[TW.R_SPECIAL_PAIRS:TW.R_SPECIAL_PAIRS + 13].tolist()
    assert table == [0] * 8 + [TW.ACTION_STEAL, 0, 0, 0, TW.ACTION_EXTRA_CARD]
    default = v.rules_vector()
    assert default[TW.R_SPECIAL_PAIRS:TW.R_SPECIAL_PAIRS + 4].tolist() == [1, 2, 2, 3]
    assert default[TW.R_FEE_UNIT] == 4 and default[TW.R_COMMUNITY_CARD] == 1


def _decisions(d, skip_seat):
    keep = (C.EV_PAY_FEE, C.EV_ACCEPT, C.EV_TW_DISCARD, C.EV_STEAL, C.EV_SPECIAL_SKIP)
    return [tuple(int(x) for x in e) for e in d.events if e[0] in keep and e[1] != skip_seat]


@pytest.mark.parametrize("seed", range(8))
def test_information_sets_hidden_cards_of_others_do_not_change_decisions(seed):
    """§4.5: swap seat 1's two hole cards for cards nobody sees: every other seat pays,
    accepts and picks targets exactly as before (seat 1 always accepts and picks its
    targets from the public cards only, so its own play cannot differ)."""
    n = 5
    policies = {"all": "heuristic:fee_weight=0.02", 1: "always_accept:steal_aim=0"}
    d = play_deal("train_wreck", players=n, seed=seed, deal=seed, policies=policies, dealer=4)
    order = [int(e[2]) for e in d.events if e[0] in (C.EV_DEAL_DOWN, C.EV_DEAL_UP, C.EV_TURN_UP)]
    rest = [c for c in range(52) if c not in order]
    swapped = list(order) + rest
    swapped[1], swapped[len(order)] = swapped[len(order)], swapped[1]
    swapped[1 + n], swapped[len(order) + 1] = swapped[len(order) + 1], swapped[1 + n]
    a = play_deal("train_wreck", players=n, policies=policies, dealer=4, stacked=order + rest)
    b = play_deal("train_wreck", players=n, policies=policies, dealer=4, stacked=swapped)
    assert _decisions(a, 1) == _decisions(b, 1)
    assert set(a.hole[1, :2].tolist()).isdisjoint(b.hole[1, :2].tolist())
    assert events(a, C.EV_PAY_FEE)  # the seats did make choices


# ----------------------------------------------------------------- statistics (F2)


def test_always_accept_without_special_pairs_is_seven_card_stud():
    """Every seat accepting every card, no special pairs: each hand is a random 7-card
    hand, so the category frequencies follow F2. |z| <= 4.5 per category: the
    false-failure rate is below 1e-4 for the nine cells (binomial variance; the seats
    of one deal are negatively correlated, which only lowers the true variance)."""
    deals, n = 100_000, 7
    r = simulate("train_wreck", players=n, deals=deals, seed=2025, policies="always_accept", rules=NO_SPECIALS)
    total = deals * n
    observed = [r.categories[r.categories.category == c.label].probability.sum() * deals for c in Category][:9]
    for cat, o, f in zip(Category, observed, F2):
        p = f / comb(52, 7)
        z = (o - total * p) / sqrt(total * p * (1 - p))
        assert abs(z) <= 4.5, f"{cat.label}: z = {z:.2f}"


def test_simulate_reports_fees_in_the_nets():
    r = simulate("train_wreck", players=3, deals=2000, seed=1, policies={"all": "always_accept", 0: "always_pay"})
    assert r.seats.ev[0] < -15  # 28 chips of fees a deal, a third of the pot back
    assert abs(r.seats.ev.sum()) < 1e-9


# ------------------------------------------------------- the engine's decision points


def _inp(players=2, policies="always_accept", rules=None):
    return get_variant("train_wreck").inputs(players, policies=policies, rules=rules)


def _rows(played):
    return [tuple(int(x) for x in e) for e in played.events]


def test_a_pay_decision_is_accept_or_pay_and_only_when_a_card_could_replace_the_offered_one():
    # Eight cards (as in test_tw_a9_a_pay_needs_a_replacement_card): seat 0 is offered
    # 2c with 3d left to replace it; seat 1 is then offered 2c with nothing left.
    inp = _inp(policies="always_pay", rules=NO_SPECIALS)
    st = new_state(inp, dealer=1, stacked="As Ks Ad Kd Ah Qc 2c 3d")
    assert not play_state(inp, st, new_stream(0, 0), stop=0).finished
    assert decision(inp, st) == ("pay", 0, [C.ACCEPT, C.PAY])
    assert TW.STATE.get(st, "offered") == card("2c") and TW.STATE.get(st, "fee") == 4
    rest = play_state(inp, st, new_stream(0, 0))
    assert rest.finished and st[C.B.decisions] == 1  # seat 1 had no choice (TW-A9 a)
    assert [(s, c, a) for _, s, c, a, _ in (e for e in _rows(rest) if e[0] == C.EV_ACCEPT)] == [(1, card("2c"), 1)]
    # Seven cards: the offered card is the last one: nobody may pay, there is no decision.
    st = new_state(inp, dealer=1, stacked="As Ks Ad Kd Ah Qc 2c")
    played = play_state(inp, st, new_stream(0, 0), stop=0)
    assert played.finished and st[C.B.decisions] == 0 and decision(inp, st) == ("none", -1, [])
    assert [(s, c, a) for _, s, c, a, _ in (e for e in _rows(played) if e[0] == C.EV_ACCEPT)] == [(0, card("2c"), 1)]


def test_forcing_pay_deals_the_next_card_and_offers_the_refused_one_to_the_next_seat():
    # 2c 2d 2h ... in code order, three players, dealer seat 2: hole cards 0-5, table
    # cards 6 (seat 0), 7 (seat 1), 8 (seat 2); 4th street turns up card 9 for seat 0.
    inp = _inp(players=3, rules=NO_SPECIALS)
    st = new_state(inp, dealer=2, stacked=np.arange(52))
    stream = new_stream(0, 0)
    play_state(inp, st, stream, stop=0)
    assert decision(inp, st) == ("pay", 0, [C.ACCEPT, C.PAY])
    assert TW.STATE.get(st, "offered") == 9 and TW.STATE.get(st, "refusals") == 0
    played = play_state(inp, st, stream, stop=1, forced=C.PAY)
    assert _rows(played) == [(C.EV_PAY_FEE, 0, 9, 4, 0), (C.EV_DEAL_UP, 0, 10, 0, 0), (C.EV_OFFER, 1, 9, 1, 0)]
    assert TW.STATE.view(st, "paid")[:3].tolist() == [1 + 4, 1, 1]
    assert TW.STATE.view(st, "up")[0, :2].tolist() == [6, 10] and TW.STATE.view(st, "n_up")[0] == 2
    assert np.uint64(TW.STATE.view(st, "table")[0]) == card_bit(6) | card_bit(10)
    assert TW.STATE.get(st, "offered") == 9 and TW.STATE.get(st, "refusals") == 1
    assert decision(inp, st) == ("pay", 1, [C.ACCEPT, C.PAY])
    assert int(st[C.B.decisions]) == 1
    rest = play_state(inp, st, stream)
    assert rest.finished
    assert TW.STATE.view(st, "up")[1, 1] == 9  # seat 1 (always accepting) took the refused card


def test_an_optional_extra_card_is_a_decision_decline_or_take():
    # TWOS: the pay decisions of 4th street (seats 0, 1), then seat 0's pair of 2s.
    rules = {"actions_optional": True}
    inp = _inp(rules=rules)
    st = new_state(inp, dealer=1, stacked=stacked(TWOS))
    play_state(inp, st, new_stream(0, 0), stop=2)
    assert decision(inp, st) == ("extra", 0, [C.EXTRA_DECLINE, C.EXTRA_TAKE])
    declined = st.copy()
    played = play_state(inp, declined, new_stream(0, 0), forced=C.EXTRA_DECLINE)
    assert played.finished
    assert _rows(played)[0] == (C.EV_SPECIAL_SKIP, 0, -1, TW.ACTION_EXTRA_CARD, 4 * 0 + TW.SKIP_DECLINED)
    assert not [e for e in _rows(played) if e[0] == C.EV_EXTRA_CARD]
    assert TW.STATE.view(declined, "extra")[0] == 0 and TW.STATE.view(declined, "n_up")[0] == 4
    taken = st.copy()
    played = play_state(inp, taken, new_stream(0, 0), forced=C.EXTRA_TAKE)
    assert _rows(played)[:2] == [(C.EV_EXTRA_CARD, 0, -1, 0, 0), (C.EV_DEAL_UP, 0, card("Th"), 0, 0)]
    assert np.uint64(TW.STATE.view(taken, "extra")[0]) == card_bit(card("Th"))
    # Mandatory actions (the default): the extra card is no decision.
    inp = _inp()
    st = new_state(inp, dealer=1, stacked=stacked(TWOS))
    play_state(inp, st, new_stream(0, 0), stop=2)
    assert decision(inp, st)[:2] == ("pay", 0)  # 5th street's first offer


STEAL = "Kc 7c Qd 6d 5c Ah 5d 8h Jc Tc 9s 2s 3s 4h"  # seat 0 pairs 5s on 4th street; seat 1 shows 8h Ah
DISCARD = "Kc 7c Qd 6d 3c Ah 3d 8h Jc Tc 9s 2s Ts 4h"  # the same with 3s


@pytest.mark.parametrize("deck", [STEAL, DISCARD])
def test_a_target_decision_lists_the_opponents_table_cards_and_decline(deck):
    inp = _inp(rules={"actions_optional": True})
    st = new_state(inp, dealer=1, stacked=stacked(deck))
    play_state(inp, st, new_stream(0, 0), stop=2)
    # Seat 1's table cards in mask-bit order (8h, then Ah), then DECLINE.
    eight, ace = 64 * 1 + card("8h"), 64 * 1 + card("Ah")
    assert decision(inp, st) == ("target", 0, [eight, ace, C.DECLINE])
    steal = deck == STEAL
    rank = 3 if steal else 1
    forced = st.copy()
    played = play_state(inp, forced, new_stream(0, 0), stop=3, forced=eight)
    first = _rows(played)[0]
    assert first == ((C.EV_STEAL if steal else C.EV_TW_DISCARD), 0, card("8h"), 1, 4 * rank + TW.SOURCE_TABLE)
    assert TW.STATE.view(forced, "up")[1, :1].tolist() == [card("Ah")] and TW.STATE.view(forced, "n_up")[1] == 1
    assert np.uint64(TW.STATE.view(forced, "table")[1]) == card_bit(card("Ah"))
    if steal:
        assert TW.STATE.view(forced, "up")[0, :3].tolist() == cards("5c 5d 8h")
        assert np.uint64(TW.STATE.view(forced, "stolen")[0]) == card_bit(card("8h"))
    else:
        assert TW.STATE.view(forced, "n_up")[0] == 2 and TW.STATE.get(forced, "n_dead") == 1
        assert TW.STATE.view(forced, "dead")[0] == card("8h")
    declined = st.copy()
    played = play_state(inp, declined, new_stream(0, 0), stop=3, forced=C.DECLINE)
    assert _rows(played)[0] == (C.EV_SPECIAL_SKIP, 0, -1, TW.ACTION_STEAL if steal else TW.ACTION_DISCARD,
                                4 * rank + TW.SKIP_DECLINED)
    assert TW.STATE.view(declined, "n_up")[1] == 2
    # Mandatory: the same targets without DECLINE; TW-A3 any: the blind hole card last.
    for rules, expected in ((None, [eight, ace]), ({"targets": "any"}, [eight, ace, 64 + C.HOLE_BLIND])):
        inp = _inp(rules=rules)
        st = new_state(inp, dealer=1, stacked=stacked(deck))
        play_state(inp, st, new_stream(0, 0), stop=2)
        assert decision(inp, st) == ("target", 0, expected)


def test_a_mandatory_action_with_one_target_is_no_decision():
    # Immediate timing: seat 0 pairs its 5s and steals before seat 1's 4th-street card,
    # when seat 1 shows only Ah.
    inp = _inp(rules={"special_timing": "immediate"})
    st = new_state(inp, dealer=1, stacked=stacked(STEAL))
    whole = play_state(inp, st, new_stream(0, 0))
    rows = _rows(whole)
    assert [e[:4] for e in rows if e[0] == C.EV_STEAL] == [(C.EV_STEAL, 0, card("Ah"), 1)]
    assert [e[1] for e in rows if e[0] == C.EV_OFFER][:2] == [0, 1]
    assert TW.STATE.view(st, "up")[1, 0] == card("8h")
    # Decisions: the six pay decisions of streets 4-6 only.
    assert int(st[C.B.decisions]) == 6


def test_a_forced_blind_hole_card_is_one_of_the_victims_hole_cards_at_random():
    inp = _inp(rules={"targets": "any"})
    for seed in range(6):
        st = new_state(inp, dealer=1, stacked=stacked(STEAL))
        play_state(inp, st, new_stream(seed, 0), stop=2)
        played = play_state(inp, st, new_stream(seed, 0), stop=3, forced=64 + C.HOLE_BLIND)
        first = _rows(played)[0]
        assert first[:2] == (C.EV_STEAL, 0) and first[2] in cards("7c 6d") and first[4] == 4 * 3 + TW.SOURCE_HOLE
        assert first[2] not in TW.STATE.view(st, "hole")[1].tolist()
        assert TW.STATE.view(st, "hole")[1, :2].tolist().count(NO_CARD) == 1


def _described_table(inp):
    """Three players, dealer seat 2, 5th street about to begin: two hole cards and two
    table cards each (seat 1's table pair of 2s has already acted), one buried card."""
    st = new_state(inp, dealer=2)
    hole_cards = {0: "As Kd", 1: "9c 9s", 2: "Td Jd"}
    table_cards = {0: "Ah 4c", 1: "2c 2d", 2: "Qd 7h"}
    placed = np.uint64(0)
    for s in range(3):
        for k, c in enumerate(cards(hole_cards[s])):
            TW.STATE.view(st, "hole")[s, k] = c
            TW.STATE.view(st, "hole_mask")[s] |= int(card_bit(c))
            placed |= card_bit(c)
        for k, c in enumerate(cards(table_cards[s])):
            TW.STATE.view(st, "up")[s, k] = c
            TW.STATE.view(st, "table")[s] |= int(card_bit(c))
            placed |= card_bit(c)
            st[C.P.seen] = int(np.uint64(st[C.P.seen]) | card_bit(c))
        TW.STATE.view(st, "n_up")[s] = 2
    TW.STATE.view(st, "triggered")[1] = 1 << 0
    TW.STATE.view(st, "buried")[0] = card("8s")
    TW.STATE.put(st, "n_buried", 1)
    placed |= card_bit(card("8s"))
    st[C.P.seen] = int(np.uint64(st[C.P.seen]) | card_bit(card("8s")))
    TW.STATE.put(st, "street", 5)
    TW.STATE.put(st, "phase", TW.PH_STREET)
    C.fill_stock(st, placed)
    return st, placed


@pytest.mark.parametrize("seed", range(20))
def test_a_table_described_by_hand_plays_on_without_dealing_a_placed_card(seed):
    inp = _inp(players=3, policies={"all": "heuristic:fee_weight=0", 1: "always_pay"},
               rules={"special_pairs": "2=extra_card,3=discard_opp,4=discard_opp,5=steal_opp,9=steal_opp"})
    st, placed = _described_table(inp)
    assert TW.STATE.get(st, "deck")[1] == 52 - 13  # the stock holds exactly the unplaced cards
    played = play_state(inp, st, new_stream(seed, 0))
    assert played.finished
    rows = _rows(played)
    assert [e[3] for e in rows if e[0] == C.EV_STREET] == [5, 6, 7]
    assert not [e for e in rows if e[0] == C.EV_RESHUFFLE]
    dealt = [e[2] for e in rows if e[0] in (C.EV_TURN_UP, C.EV_DEAL_DOWN, C.EV_DEAL_UP)]
    assert len(dealt) == len(set(dealt)) >= 3 * 3
    assert not any(card_bit(c) & placed for c in dealt)
    assert TW.STATE.view(st, "hole")[:3, :2].tolist() == [cards("As Kd"), cards("9c 9s"), cards("Td Jd")]
    assert card("8s") not in TW.STATE.view(st, "up")[:3].ravel().tolist()  # buried: never dealt
    held = [c for c in TW.STATE.view(st, "up")[:3].ravel().tolist() + TW.STATE.view(st, "hole")[:3].ravel().tolist()
            if c != NO_CARD]
    discarded = [e[2] for e in rows if e[0] == C.EV_TW_DISCARD]
    for c in cards("Ah 4c 2c 2d Qd 7h"):  # each described table card is still held, or was discarded
        assert (c in held) != (c in discarded)
    # Seat 1's 2s acted before: no second extra card for them (TW-A5).
    assert not [e for e in rows if e[0] == C.EV_SPECIAL and e[1] == 1 and e[4] == 0]


def _card_by_card_gains(t, mine, other, unseen, draw_weight):
    """§4.5's fresh-card estimate by its definition: ``high_value`` of each hand with
    each unseen card, less the hand's own, averaged over the cards in mask order."""
    from kernels.policies import high_value

    base, base_other = high_value(t, mine, 0, draw_weight), high_value(t, other, 0, draw_weight)
    total = total_other = 0.0
    count, m = 0, int(unseen)
    while m:
        b = m & -m
        m ^= b
        total += high_value(t, np.uint64(int(mine) | b), 0, draw_weight) - base
        total_other += high_value(t, np.uint64(int(other) | b), 0, draw_weight) - base_other
        count += 1
    return (total / count, total_other / count) if count else (0.0, 0.0)


def test_the_fresh_card_estimate_is_the_card_by_card_mean():
    """``tw_fresh_gain`` sums a hand's gains in integers (strength slots and top
    ranks, draw counts; a card of a suit of three or fewer by its rank) and scales
    them once: the card-by-card mean to the last bits, and to the last bit when the
    draw weight is 0 (every term is then a multiple of 1/256, so neither sum
    rounds): hands of 0-9 cards, flush-heavy ones, and unseen cards that overlap
    the other hand. The offered card's gains are ``high_value``'s difference, bit
    for bit."""
    from analyzer.evaluate import _tables
    from kernels.policies import _FULL_DECK, high_value, tw_fresh_and_card_gain, tw_fresh_gain

    t, rng = _tables(), np.random.default_rng(11)

    def mask(cards):
        return np.uint64(sum(1 << (16 * (c % 4) + c // 4) for c in cards))

    for trial in range(400):
        cards = rng.permutation(52).tolist()
        if trial % 4 == 0:  # spades first: hands with four or more of a suit
            cards = [c for c in cards if c % 4 == 0] + [c for c in cards if c % 4]
        k, j = int(rng.integers(0, 10)), int(rng.integers(0, 6))
        mine, other = mask(cards[:k]), mask(cards[k:k + j])
        unseen = int(_FULL_DECK) & ~int(mask(cards[k + j:k + j + int(rng.integers(0, 20))])) & ~int(mine)
        if trial % 3 == 0:
            unseen |= int(other)
        dw = float(rng.choice([0.0, 1.0, 0.37, 2.5]))
        gains = (tw_fresh_gain(t, mine, np.uint64(unseen), dw), tw_fresh_gain(t, other, np.uint64(unseen), dw))
        expected = _card_by_card_gains(t, mine, other, unseen, dw)
        if dw == 0.0:
            assert gains == expected, (trial, k, j)
        else:
            assert gains == pytest.approx(expected, rel=0, abs=1e-13), (trial, k, j)
        # With the offered card's gain from the same parts: high_value's difference.
        offered = np.uint64(mask([cards[-1 - trial % 20]]))
        for hand, fresh in zip((mine, other), gains):
            gain_offered = high_value(t, np.uint64(int(hand) | int(offered)), 0, dw) - high_value(t, hand, 0, dw)
            assert tw_fresh_and_card_gain(t, hand, np.uint64(unseen), offered, dw) == (fresh, gain_offered), (trial, k, j)


def test_a_bound_of_the_next_seat_s_fresh_card_mean_needs_no_table():
    """The pay decision skips the next seat's fresh-card mean when even a bound of it
    cannot make the seat pay (``_fresh_gain_bound``). Its per-card strength gains
    are the most one card adds to ``strength_value`` of a hand of one to three
    cards, by how many of the card's rank the hand holds: checked on every rank
    multiset of 1-3 cards and every card, each constant reached by some hand. The
    bound is at least ``tw_fresh_gain`` on random hands, unseen cards and draw
    weights, and +inf for no card or four and more."""
    from itertools import combinations_with_replacement

    from analyzer.evaluate import _tables
    from kernels import policies as P
    from kernels.evaluate import high_mask

    t, rng = _tables(), np.random.default_rng(5)

    def value(ranks):  # each repeat of a rank in another suit: four cards make no flush anyway
        m = 0
        for i, r in enumerate(ranks):
            m |= 1 << (16 * ranks[:i].count(r) + r)
        return P.strength_value(high_mask(t, np.uint64(m), 0, 0, False))

    reached = {}
    for k in (1, 2, 3):
        for hand in combinations_with_replacement(range(13), k):
            paired = len(set(hand)) < k
            for rank in range(13):
                held = hand.count(rank)
                if held == 4:
                    continue
                gain = value(list(hand) + [rank]) - value(list(hand))
                if paired:
                    name = {0: "other", 1: "_PAIRING_THE_KICKER", 2: "_TRIPS_FROM_A_PAIR", 3: "_QUADS_FROM_TRIPS"}[held]
                    bound = 0.0 if held == 0 else getattr(P, name)
                elif held:
                    name, bound = "_PAIRING_A_SINGLE", P._PAIRING_A_SINGLE
                else:
                    name, bound = "new top", (12 - max(hand)) / 16 + 13 / 256
                assert 0.0 <= gain <= bound, (hand, rank, gain, bound)
                reached[name] = max(reached.get(name, 0.0), gain)
    for name in ("_PAIRING_A_SINGLE", "_PAIRING_THE_KICKER", "_TRIPS_FROM_A_PAIR", "_QUADS_FROM_TRIPS"):
        assert reached[name] == getattr(P, name), name
    assert reached["other"] == 0.0

    def mask(cards):
        return np.uint64(sum(1 << (16 * (c % 4) + c // 4) for c in cards))

    tight = 0
    for trial in range(3000):
        cards = rng.permutation(52).tolist()
        k = int(rng.integers(0, 6))
        hand = mask(cards[:k])
        unseen = mask(cards[k:k + int(rng.integers(0, 45))])
        dw = float(rng.choice([0.0, 0.37, 1.0, 2.5, 5.0]))
        bound = P._fresh_gain_bound(hand, unseen, dw)
        if not 1 <= k <= 3 or not unseen:
            assert bound == np.inf
            continue
        fresh = P.tw_fresh_gain(t, hand, unseen, dw)
        assert 0.0 <= fresh <= bound, (trial, k, fresh, bound)
        tight += bound < 2 * fresh + 0.2
    assert tight > 100  # and not far above: it must settle most decisions to be worth having


def test_a_pay_decision_is_its_definition():
    """``tw_pays`` pays when a fresh card's mean gain, less the offered card's gain,
    less ``deny_weight`` times how much more the offered card would give the next
    seat than a fresh card (nobody's when I act last), reaches ``pay_threshold +
    fee_weight x fee`` (RULES.md §4.5), whether its bound of the next seat's mean
    settles the decision or the mean is worked out: thresholds at each score and
    just either side of it, and ordinary ones."""
    from analyzer.evaluate import _tables
    from kernels.policies import (
        _FULL_DECK, N_TW_PARAMS, TW_DENY_WEIGHT, TW_DRAW_WEIGHT, TW_FEE_WEIGHT, TW_PAY_THRESHOLD,
        tw_fresh_and_card_gain, tw_pays,
    )

    t, rng = _tables(), np.random.default_rng(8)

    def mask(cards):
        return np.uint64(sum(1 << (16 * (c % 4) + c // 4) for c in cards))

    pays = {True: 0, False: 0}
    for trial in range(400):
        cards = rng.permutation(52).tolist()
        k, j = int(rng.integers(3, 7)), int(rng.integers(0, 5))
        mine, visible = mask(cards[:k]), mask(cards[k:k + j])
        offered = cards[k + j]
        seen = mask(cards[k + j + 1:k + j + 1 + int(rng.integers(0, 25))]) | visible
        last = trial % 5 == 0
        dw, deny = float(rng.choice([0.0, 0.37, 1.0, 2.5])), float(rng.choice([0.0, 0.5, 2.0, 5.0]))
        fee_weight, fee = float(rng.choice([0.0, 0.05, 0.25])), float(rng.choice([0.0, 4.0, 8.0, 16.0]))
        card = np.uint64(card_bit(offered))
        unseen = np.uint64(int(_FULL_DECK) & ~(int(seen) | int(mine) | int(card)))
        fresh, take = tw_fresh_and_card_gain(t, mine, unseen, card, dw)
        score = fresh - take
        if not last and deny != 0.0:
            fresh_next, given = tw_fresh_and_card_gain(t, visible, unseen, card, dw)
            score -= deny * (given - fresh_next)
        policy = np.zeros(N_TW_PARAMS)
        policy[TW_DRAW_WEIGHT], policy[TW_DENY_WEIGHT], policy[TW_FEE_WEIGHT] = dw, deny, fee_weight
        at = score - fee_weight * fee
        for threshold in (at, np.nextafter(at, -np.inf), np.nextafter(at, np.inf), at - 1e-9, at + 1e-9, 0.0, -0.3,
                          0.3):
            policy[TW_PAY_THRESHOLD] = threshold
            want = score >= threshold + fee_weight * fee
            assert tw_pays(t, policy, mine, offered, fee, visible, last, seen) == want, (trial, threshold)
            pays[want] += 1
    assert min(pays.values()) > 500
