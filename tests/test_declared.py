"""Declarations already made at a described table (``Table.declared``, ``--declared``;
RULES.md §0.8): they stand as the table saw them, in turn from the dealer's left when
declaring in turn, and ``--condition`` keeps only the deals whose unknown cards would
have made a seat declare as it did."""

import json

import pytest

from analyzer.cli import main
from analyzer.decide import decide
from analyzer.equity import equity
from analyzer.errors import WantitError
from analyzer.table import Table, table_state
from analyzer.variants import get_variant

SEQUENTIAL = {"declare_mode": "sequential"}

# Heads-up Selection/Rejection after the seventh card, every card known. The dealer is
# seat 0, so seat 1 declares first. Seat 1: Ac 2c 3c | 4d 6h Ks Kd, a pair of kings and
# the low 6-4-3-2-A. Me (seat 0): 2h 5h 7h | 9h Jh 3s 4s, a heart flush and the low
# 7-5-4-3-2, which seat 1's low beats. Seat 1 declared low.
KNOWN = Table("sr", players=2, dealer=0, me=0, hole={0: "2h 5h 7h", 1: "Ac 2c 3c"},
              up={0: "9h Jh 3s 4s", 1: "4d 6h Ks Kd"}, declared={1: "low"})


def test_my_declaration_after_a_low_declaration_is_worked_by_hand():
    # Seat 1's policy would declare high; the table saw it declare low, and that stands.
    # By §0.8, with a pot of 2 antes: high: I win the high half, seat 1 the low half
    # (net 0); low: seat 1's low beats mine and nobody goes high, so it takes the pot
    # (net -1); both: I fail on low and win nothing (net -1).
    r = decide(KNOWN, policies={"all": "high"}, rules=SEQUENTIAL, max_deals=2000)
    ev = {a["action"]: a["ev"] for a in r.to_json()["actions"]}
    assert ev == {"high": 0.0, "low": -1.0, "both": -1.0}
    assert r.to_json()["best"] == "high" and r.to_json()["edge"] == 1.0


def test_declarations_made_at_once_decide_the_pot():
    # Declaring at once, every seat's declaration is shown together: me high, seat 1
    # low, so each takes half the pot, whatever the policies would have said.
    table = Table(**{**KNOWN.__dict__, "declared": {0: "high", 1: "low"}})
    r = equity(table, policies={"all": "low"}, max_deals=2000)
    assert list(r.seats.share) == [0.5, 0.5]


# Seat 1's three hole cards are unknown; its up cards are 2c 3d 9h Ks. Its policy goes
# low exactly when its best unpaired low is topped by an 8 or less, and never both.
# Holding 2 and 3 already, it has such a low exactly when its three hole cards are of
# three different ranks among A, 4, 5, 6, 7, 8: 24 such cards are unseen (my cards are
# Q Q J J T T 9), so C(6,3) * 4^3 = 1,280 of the C(41,3) = 10,660 possible hole cards.
READ = Table("sr", players=2, dealer=0, me=0, hole={0: "Qc Qd Jc"}, up={0: "Jd Tc Th 9c", 1: "2c 3d 9h Ks"},
             declared={1: "low"})
READ_POLICIES = {"all": "heuristic",
                 1: "heuristic:declare_low_top=8,declare_both_category=13,fear_visible_low=0,sequential_grab=0"}


def test_condition_on_a_low_declaration_keeps_the_hole_cards_that_make_that_low():
    r = equity(READ, policies=READ_POLICIES, rules=SEQUENTIAL, condition=True, precision=0.02, seed=3)
    p = 1280 / 10660
    played = r.meta["deals_played"]
    assert r.meta["conditioned"] and r.meta["deals"] < played
    assert abs(r.meta["acceptance"] - p) < 4.5 * (p * (1 - p) / played) ** 0.5
    plain = equity(READ, policies=READ_POLICIES, rules=SEQUENTIAL, precision=0.02, seed=3)
    assert plain.meta["acceptance"] == 1.0


def test_condition_on_declarations_through_the_cli(capsys):
    main(["equity", "sr", "-n", "2", "--dealer", "0", "--hole", "0=Qc Qd Jc", "--up", "0=Jd Tc Th 9c",
          "--up", "1=2c 3d 9h Ks", "--declared", "1=low", "--rule", "declare_mode=sequential", "--condition",
          "--policy", "all=heuristic", "--policy",
          "1=heuristic:declare_low_top=8,declare_both_category=13,fear_visible_low=0,sequential_grab=0",
          "--format", "json", "--precision", "0.03"])
    meta = json.loads(capsys.readouterr().out)["meta"]
    assert meta["conditioned"] and 0.09 < meta["acceptance"] < 0.15


def test_condition_on_the_declarations_of_seats_with_known_cards_is_refused():
    # Seat 1's cards are all known: its declaration tells nothing about unknown cards.
    with pytest.raises(WantitError, match="every seat that declared holds known cards"):
        equity(KNOWN, policies={"all": "high"}, rules=SEQUENTIAL, condition=True, max_deals=2000)


SEVENTH = {"hole": {0: "2h 5h 7h"}, "up": {0: "9h Jh 3s 4s", 1: "4d 6h Ks Kd"}}


@pytest.mark.parametrize("variant,rules,fields,message", [
    ("sr", SEQUENTIAL, {**SEVENTH, "declared": {0: "low"}},
     "seats declare in turn from the dealer's left \\(1, 0\\), so the first 1 to declare are seat 1, not 0"),
    ("sr", {}, {**SEVENTH, "declared": {1: "low"}}, "1 of 2 seats; declarations are shown all at once"),
    ("sr", SEQUENTIAL, {**SEVENTH, "declared": {1: "swung"}}, "declared\\[1\\]: 'swung'; a seat declares high, low"),
    ("sr", {"split_mode": "high_only", **SEQUENTIAL}, {**SEVENTH, "declared": {1: "low"}},
     "nobody declares at this table \\(split_mode = high_only\\)"),
    ("sr", SEQUENTIAL, {"hole": {0: "2h 5h"}, "up": {0: "9h Jh 3s 4s", 1: "4d 6h Ks Kd"}, "declared": {1: "low"}},
     "this table still waits for the seventh card"),
    ("sr", SEQUENTIAL, {"up": {0: "9h Jh", 1: "4d 6h"}, "declared": {1: "low"}},
     "still waits for more up cards and the seventh card"),
    ("sr", SEQUENTIAL, {**SEVENTH, "declared": {5: "low"}}, "seat 5 is not a seat 0..1"),
    ("do_ya", {"split_mode": "declare", **SEQUENTIAL}, {"up": {0: "9h Jh", 1: "4d 6h"}, "declared": {1: "low"}},
     "this table still waits for the rest of the up cards"),
    ("train_wreck", {}, {"declared": {1: "high"}}, "nobody declares at this table \\(split_mode = high_only\\)"),
])
def test_declarations_that_cannot_have_been_made_are_refused(variant, rules, fields, message):
    inp = get_variant(variant).inputs(2, rules=rules)
    with pytest.raises(WantitError, match=message):
        table_state(inp, Table(variant, players=2, dealer=0, **fields))


def test_a_malformed_declared_flag_is_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["equity", "sr", "-n", "2", "--declared", "1:low"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1
    assert "--declared '1:low' should look like SEAT=high|low|both" in err
