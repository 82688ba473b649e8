"""Decisions from a described table (analyzer.decide): answers known in advance,
common random numbers, and tables that stand at no decision of mine."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from analyzer import decide as D
from analyzer.cli import main
from analyzer.decide import decide
from analyzer.engine import forced_batches, new_stream, play_batch, play_state
from analyzer.equity import setup
from analyzer.errors import WantitError
from analyzer.table import Table, load_table, table_state
from analyzer.variants import get_variant
from kernels.games import common as C

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "selection_rejection.toml"
# Round 3 at three seats: the lead moves one seat a round from the dealer's left, so with
# the dealer at seat 0 seat 0 leads round 3 and the first card is offered to it.
ROUND_3_STRAIGHT_FLUSH = Table("selection_rejection", players=3, dealer=0, hole={0: "9s Ts"},
                               up={0: "Js Qs", 1: "4d 7c", 2: "2h 6c"}, offer="Ks", to=0)


def test_refusing_the_card_that_makes_my_straight_flush_is_worse_than_taking_it():
    r = decide(ROUND_3_STRAIGHT_FLUSH, rules={"split_mode": "high_only"}, seed=1)
    ev = dict(zip(r.actions.action, r.actions.ev))
    assert set(ev) == {"take", "refuse"} and r.best == "take"
    assert r.edge - 1.96 * r.edge_se > 0
    assert ev["take"] > 1.5  # a made straight flush with three players: nearly every pot (net 2 antes)
    assert r.meta["kind"] == "offer" and r.meta["me"] == 0


def test_the_edge_comes_from_paired_deals_and_matches_playing_each_action_alone():
    table = load_table(EXAMPLE)  # take the 8c or refuse it, round 2 of five players
    r = decide(table, seed=2, max_deals=2000)
    assert r.meta["deals"] == 2000
    v = get_variant("sr")
    inp = v.inputs(5)
    st = table_state(inp, table)
    nets = []
    for action in (C.TAKE, C.REFUSE):
        rows = play_batch(inp, st, 2, 0, 2000, rotate_dealer=False, forced=action)
        nets.append(v.result.view(rows, "payout")[:, 0] - v.result.view(rows, "paid")[:, 0])
    take, refuse = nets
    assert r.actions.ev.tolist() == pytest.approx([take.mean(), refuse.mean()])
    diff = (take - refuse) if r.best == "take" else (refuse - take)
    assert r.edge == pytest.approx(diff.mean())
    assert r.edge_se == pytest.approx(diff.std(ddof=1) / np.sqrt(len(diff)))
    # Common random numbers: the same unknown cards after either action, so the paired
    # error is well below the two errors together.
    assert r.edge_se < 0.9 * np.hypot(*r.actions.ev_se)


def test_a_query_whose_batches_are_played_in_pieces_gives_the_same_answer(monkeypatch):
    """The deals of a batch are played in pieces whose rows fit ``FORCED_VALUES``:
    pieces of 8 deals give the answer of one piece a batch, to the bit."""
    table = load_table(EXAMPLE)
    whole = decide(table, seed=2, max_deals=3000)
    monkeypatch.setattr(D, "FORCED_VALUES", 8 * 2 * get_variant("sr").result.size)
    pieces = decide(table, seed=2, max_deals=3000)
    assert pieces.meta["deals"] == whole.meta["deals"] == 3000
    assert pieces.actions.ev.tolist() == whole.actions.ev.tolist()
    assert pieces.actions.ev_se.tolist() == whole.actions.ev_se.tolist()
    assert (pieces.edge, pieces.edge_se) == (whole.edge, whole.edge_se)


def test_declaring_low_with_no_low_is_worse_than_declaring_high():
    # Every card dealt; I hold no card below nine but the other two hold wheels' cards.
    table = Table("sr", players=3, dealer=2, hole={0: "Kc Kd Qh", 1: "Ac 2d 3h", 2: "Ad 2h 4s"},
                  up={0: "Ks Qd Jc Tc", 1: "4c 5d 9h 9d", 2: "3c 5h 6h 8s"})
    r = decide(table, seed=3)
    ev = dict(zip(r.actions.action, r.actions.ev))
    assert r.meta["kind"] == "declare"
    assert ev["high"] > ev["low"] and r.best in ("high", "both")


@pytest.mark.parametrize("table,message", [
    (Table("sr", players=3, dealer=2, up={0: "Js", 1: "", 2: ""}, offer="Ks", to=1), "is seat 1's (offer)"),
    (Table("sr", players=3, dealer=2, hole={0: "9s Ts 2c", 1: "Ac 2d 3h", 2: "Ad 2h 4s"},
           up={0: "Js Qs Ks 7d", 1: "4c 5d 9h 9d", 2: "3c 5h 6h 8s"}, me=1), "is seat 0's (declare)"),
])
def test_a_table_not_at_my_decision_is_refused(table, message):
    with pytest.raises(WantitError, match=message.replace("(", r"\(").replace(")", r"\)")):
        decide(table, max_deals=100)


def test_decide_json_schema(capsys):
    main(["decide", "sr", "--state", str(EXAMPLE), "--format", "json", "--max-deals", "3000"])
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"meta", "actions", "best", "edge", "edge_se"}
    assert [a["action"] for a in data["actions"]] == ["take", "refuse"]
    assert all(set(a) == {"action", "code", "ev", "ev_se", "deals"} for a in data["actions"])
    assert all(a["deals"] == data["meta"]["deals"] == 3000 for a in data["actions"])  # two actions: no race
    assert data["meta"]["race_z"] is None and data["meta"]["dropped"] == 0
    assert data["best"] in ("take", "refuse") and data["edge"] >= 0


ANACONDA_EXAMPLE = EXAMPLE.parent / "anaconda.toml"  # the second pass: 21 pairs of cards


def test_race_z_gives_each_droppable_action_and_look_an_equal_part_of_the_error():
    # One-sided normal tails by erfc: with 120 actions, the 118 that may be dropped at
    # 16 looks each get 0.05 / 1888 = 2.648e-5, the tail beyond 4.0421.
    assert math.isinf(D.race_z(2)) and D.RACE_LOOKS == 16 and D.RACE_ERROR == 0.05
    z = D.race_z(120)
    assert 0.5 * math.erfc(z / math.sqrt(2)) == pytest.approx(0.05 / (118 * 16), rel=1e-9)
    assert z == pytest.approx(4.0421, abs=1e-4)
    # Few actions: never below twice the 95% half-width, where a query calls the best clear.
    assert D.race_z(3) == D.race_z(21) == 2 * 1.959963984540054


def test_a_race_drops_only_actions_clearly_below_the_best_never_the_runner_up():
    race = D._Race(4, race=True)
    rng = np.random.default_rng(0)
    common = rng.normal(0, 1, (D.RACE_FIRST, 1))  # the deal's luck, shared by every action
    values = common + np.array([0.5, 0.45, 0.0, 0.47]) + rng.normal(0, 0.01, (D.RACE_FIRST, 4))
    race.add(values[: D.RACE_FIRST - 1])
    race.look()
    assert race.looks == 0 and race.alive.all()  # no look before RACE_FIRST deals
    race.add(values[D.RACE_FIRST - 1:])
    race.look()
    # Action 2 is 0.5 below the best with a paired error near 0.01 / sqrt(500) * sqrt(2):
    # dropped. Action 3 is the runner-up, action 1 0.05 below the best: many errors, dropped.
    assert race.looks == 1 and race.alive.tolist() == [True, False, False, True]
    mean, se, best, second, edge, edge_se = race.standing()
    assert (best, second) == (0, 3)
    race.add(values[:10, [0, 3]])  # only the actions still played are played on
    assert race.deals.tolist() == [510, 500, 500, 510] and race.deals_played == 510


def test_a_raced_query_answers_as_one_playing_every_action_on_every_deal():
    """Anaconda's second pass (21 actions): the race drops the actions clearly worse
    than the best and keeps the best and the runner-up, played on every deal, so the
    best, the edge and its error are those of playing every action on every deal; a
    dropped action's EV is that of the first deals, where it was dropped."""
    table = load_table(ANACONDA_EXAMPLE)
    raced = decide(table, seed=4, max_deals=3000, threads=1)
    every = decide(table, seed=4, max_deals=3000, threads=1, race=False)
    assert every.meta["dropped"] == 0 and every.meta["race_z"] is None
    assert (every.actions.deals == every.meta["deals"]).all()
    assert raced.meta["dropped"] > 0 and raced.meta["race_z"] == pytest.approx(2 * 1.959963984540054, abs=1e-4)
    assert (raced.best, raced.meta["runner_up"], raced.meta["deals"]) == \
        (every.best, every.meta["runner_up"], every.meta["deals"])
    assert raced.edge == pytest.approx(every.edge, rel=1e-12) and raced.edge_se == pytest.approx(every.edge_se)
    played_on = raced.actions.deals
    assert played_on[raced.actions.action == raced.best].item() == raced.meta["deals"]
    assert played_on[raced.actions.action == raced.meta["runner_up"]].item() == raced.meta["deals"]
    whole = played_on == raced.meta["deals"]
    assert raced.actions.ev[whole].tolist() == pytest.approx(every.actions.ev[whole].tolist(), rel=1e-12)
    for n in sorted(set(played_on[~whole])):
        assert n % D.RACE_FIRST == 0  # the first chunk's looks
        first = decide(table, seed=4, max_deals=int(n), threads=1, race=False)
        at = played_on == n
        assert raced.actions.ev[at].tolist() == pytest.approx(first.actions.ev[at].tolist(), rel=1e-12)
        assert raced.actions.ev_se[at].tolist() == pytest.approx(first.actions.ev_se[at].tolist(), rel=1e-9)
    text = " ".join(raced.format_table().split())
    assert f"21 actions on up to {raced.meta['deals']:,} deals" in text
    assert f"{raced.meta['dropped']} of the actions dropped from the race" in text


def test_no_race_on_the_command_line_plays_every_action_on_every_deal(capsys):
    main(["decide", "anaconda", "--state", str(ANACONDA_EXAMPLE), "--max-deals", "1000", "--no-race", "--format",
          "json"])
    data = json.loads(capsys.readouterr().out)
    assert len(data["actions"]) == 21 and data["meta"]["dropped"] == 0
    assert all(a["deals"] == 1000 for a in data["actions"])
    main(["decide", "anaconda", "--state", str(ANACONDA_EXAMPLE), "--max-deals", "1000", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["meta"]["dropped"] == sum(a["deals"] < 1000 for a in data["actions"]) > 0


def test_actions_are_named_by_their_cards():
    from analyzer.decide import action_text
    from kernels.cards import card_bit

    from analyzer.cards import parse_cards

    mask = sum(int(card_bit(int(c))) for c in parse_cards("8d 8h"))
    assert action_text("pass", mask) == "pass 8d 8h"
    assert action_text("keep", mask) == "keep 8d 8h"
    assert action_text("pool", 52) == "fresh card" and action_text("pool", 51) == "take As"
    assert action_text("target", 64 * 2 + 52) == "seat 2's hole card, blind"


def test_decide_conditioned_on_the_choices_seen():
    # Seat 0 refused the As (it takes a card only when it pairs); seat 1 took it; the
    # next card goes to me, seat 2.
    table = Table("sr", players=4, dealer=3, me=2, hole={2: "Kh Kc"}, up={1: "As"},
                  history="0 refuses As; 1 takes As")
    policies = {"all": "heuristic", 0: "heuristic:take_threshold=0.9,draw_weight=0,deny_weight=0"}
    r = decide(table, policies=policies, condition=True, max_deals=4000, seed=5)
    assert r.meta["kind"] == "offer" and r.meta["conditioned"]
    assert r.meta["effective_sample_size"] == r.meta["deals"] < r.meta["deals_played"]


def test_forced_batches_of_a_conditioned_table_give_a_rejected_deal_its_unforced_row():
    """Under --condition a deal whose unknown cards contradict the history ends before
    my decision: every action's row of it is the deal's own; the others are
    ``play_state`` forcing the action."""
    table = Table("sr", players=4, dealer=3, me=2, hole={2: "Kh Kc"}, up={1: "As"},
                  history="0 refuses As; 1 takes As")
    policies = {"all": "heuristic", 0: "heuristic:take_threshold=0.9,draw_weight=0,deny_weight=0"}
    v, _, inp, st, _, _, _ = setup(table, policies=policies, condition=True)
    got = dict(forced_batches(inp, st, 5, 0, 30, [C.TAKE, C.REFUSE], rotate_dealer=False))
    rejected = 0
    for d in range(30):
        played = play_state(inp, st.copy(), new_stream(5, d), stop=int(st[C.B.decisions]), trace=False)
        if played.finished:
            rejected += 1
            assert played.result[v.result.offsets["carry"]] == C.REJECTED
            for a in got:
                np.testing.assert_array_equal(got[a][d], played.result)
            continue
        for a in got:
            forced = play_state(inp, st.copy(), new_stream(5, d), forced=a, trace=False)
            np.testing.assert_array_equal(got[a][d], forced.result)
    assert 0 < rejected < 30


def test_the_result_says_why_the_run_stopped(capsys):
    """A run that stops before the edge is known to the precision says so: the best
    action clear early, or --max-deals reached; an exact tie says more deals will
    not break it."""
    examples = Path(__file__).resolve().parents[1] / "examples"
    clear = decide(load_table(examples / "do_ya.toml"), max_deals=50_000, threads=1)
    assert clear.meta["stopped"] == "clear" and not clear.meta["reached_precision"]
    assert clear.edge - 2 * 1.96 * clear.edge_se > 0 and clear.meta["deals"] < 50_000
    assert "stopped once the best action was clear" in " ".join(clear.format_table().split())
    short = decide(load_table(examples / "selection_rejection.toml"), max_deals=3_000, threads=1)
    assert short.meta["stopped"] == "max_deals" and short.meta["deals"] == 3_000
    assert "stopped at --max-deals 3,000 before the edge was known" in " ".join(short.format_table().split())
    main(["decide", "sr", "-n", "2", "--dealer", "0", "--hole", "0=2h 5h 7h", "--up", "0=9h Jh 3s 4s", "--up",
          "1=4d 6h Ks Kd", "--declared", "1=low", "--rule", "declare_mode=sequential", "--format", "json"])
    tie = json.loads(capsys.readouterr().out)
    assert tie["edge"] == 0 and tie["edge_se"] == 0 and tie["meta"]["stopped"] == "precision"
    main(["decide", "sr", "-n", "2", "--dealer", "0", "--hole", "0=2h 5h 7h", "--up", "0=9h Jh 3s 4s", "--up",
          "1=4d 6h Ks Kd", "--declared", "1=low", "--rule", "declare_mode=sequential"])
    assert "the same on every deal: more deals would not tell them apart" in " ".join(capsys.readouterr().out.split())


def test_an_interrupted_race_keeps_every_look_it_finished(monkeypatch):
    """A Ctrl-C in the first chunk's third look (deals 1,000-1,499) keeps the two
    looks before it: the answer stands on 1,000 deals, the dropped actions on 500."""
    real = D.forced_batches
    calls = {"n": 0}

    def interrupting(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(D, "forced_batches", interrupting)
    r = decide(load_table(ANACONDA_EXAMPLE), seed=4, max_deals=3000, threads=1)
    assert r.meta["interrupted"] and r.meta["stopped"] == "interrupted"
    assert r.meta["deals"] == r.meta["deals_played"] == 1000
    assert set(r.actions.deals) == {500, 1000} and r.meta["dropped"] == (r.actions.deals == 500).sum()
    assert "interrupted: partial" in r.format_table()
