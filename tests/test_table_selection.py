"""Selection (RulesPal) tables (analyzer.table.selection) and the equity and decide
queries on them: answers known exactly (the last round, worked by hand; exact
hypergeometric chances of a last draw), an independent Monte Carlo of an unknown
hand, a described first round against whole games, and every impossible table
refused with one line."""

import itertools
import json
from math import comb
from pathlib import Path

import numpy as np
import pytest

from analyzer.cli import main
from analyzer.decide import decide
from analyzer.equity import equity
from analyzer.errors import WantitError
from analyzer.selection import simulate_selection
from analyzer.table import Table, load_table

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "selection.toml"
# Card points (§5.2.9), written out: 2..9 -> 12..19, T J Q K -> 20, A -> 25.
POINTS = {**{str(v): 10 + v for v in range(2, 10)}, "T": 20, "J": 20, "Q": 20, "K": 20, "A": 25}
# Every slot of the provisional board filled (346 points); tables open one by deleting it.
FULL = {"cosmopolitan": 94, "low": 60, "high": 85, "p_pair": 50, "p_two_pair": 0, "p_three_kind": 57,
        "p_straight": 0, "p_flush": 0, "p_full_house": 0, "p_four_kind": 0, "p_straight_flush": 0}


def board(*open_slots, **changed):
    """``FULL`` with ``open_slots`` left open and ``changed`` scores."""
    out = {**FULL, **changed}
    for slot in open_slots:
        del out[slot]
    return out


def last_round(hand, scores, players=1, draw="score", **kw):
    """Round 11 (three draws), me seat 0, the dealer the last seat: seat 0 acts first."""
    return Table("selection", players=players, round=11, draw=draw, hole={0: hand}, scores={0: scores}, **kw)


def points_of(text):
    """The card points of the cards an action names (``... with 9s 8h (37 points)``)."""
    cards = text.split(" with ")[1].split(" (")[0].split()
    return sum(POINTS[c[0]] for c in cards)


# ---------------------------------------------------------------- equity, known answers


def test_last_round_with_every_hand_known_is_exact():
    # Seat 0: As Ad fill the open pair slot, 296 + 50 = 346. Seat 1: Ks Kd, 40 points.
    mine = "As Ad 2c 3d 7h 9s Kc"
    theirs = "Ks Kd 2d 3c 7c 9d Qc"
    base = sum(board("p_pair").values())
    assert base == 296
    win = Table("selection", players=2, round=11, draw="score", hole={0: mine, 1: theirs},
                scores={0: board("p_pair"), 1: board("p_pair", high=90)})  # seat 1: 301 + 40 = 341
    r = equity(win, max_deals=2000)
    s = r.seats
    assert s.ev.tolist() == [346, 341] and s.ev_se.tolist() == [0, 0]
    assert s.share.tolist() == [1, 0] and s.p_win.tolist() == [1, 0] and r.meta["reached_precision"]
    tie = Table("selection", players=2, round=11, draw="score", hole={0: mine, 1: theirs},
                scores={0: board("p_pair"), 1: board("p_pair", low=65, high=90)})  # 306 + 40 = 346
    s = equity(tie, max_deals=2000).seats
    assert s.ev.tolist() == [346, 346] and s.share.tolist() == [0.5, 0.5] and s.p_tie.tolist() == [1, 1]


def best_pair_points(cards):
    """The pair slot's best score of a hand of (rank, suit) cards: the highest paired rank."""
    ranks = [r for r, _ in cards]
    paired = [r for r in set(ranks) if ranks.count(r) >= 2]
    return 2 * max(POINTS[r] for r in paired) if paired else 0  # TT JJ QQ KK all score 40


def test_an_unknown_opponent_hand_agrees_with_an_independent_monte_carlo():
    # Last round, scoring: my As Ad make 346. Seat 1 (306 on its board, its hand
    # unknown) fills its pair slot with its best pair: it wins with AA (the other two
    # aces), ties with a pair worth 40 (T, J, Q or K) as its best, else loses.
    mine = "As Ad 2c 3d 7h 9s Kc"
    table = Table("selection", players=2, round=11, draw="score", hole={0: mine},
                  scores={0: board("p_pair"), 1: board("p_pair", low=65, high=90)})
    r = equity(table, precision=0.004, seed=4)
    deck = [(r_, s_) for r_ in "23456789TJQKA" for s_ in "cdhs"]
    unseen = [c for c in deck if c[0] + c[1] not in mine.split()]
    rng = np.random.default_rng(11)
    trials = 40_000
    share = np.empty(trials)
    pair = np.empty(trials)
    for i in range(trials):
        hand = [unseen[j] for j in rng.choice(len(unseen), 7, replace=False)]
        pair[i] = best_pair_points(hand)
        theirs = 306 + pair[i]
        share[i] = 1.0 if 346 > theirs else (0.5 if theirs == 346 else 0.0)
    for ours, se, theirs in ((r.seats.share[0], r.seats.share_se[0], share),
                             (r.seats.ev[1], r.seats.ev_se[1], 306 + pair)):
        their_se = theirs.std(ddof=1) / np.sqrt(trials)
        assert abs(ours - theirs.mean()) < 4.5 * np.hypot(se, their_se), (ours, theirs.mean())
    assert r.seats.ev[0] == 346 and r.seats.ev_se[0] == 0
    assert r.meta["half_width"] < 0.004 and r.meta["unseen"] == 45


def test_a_table_at_the_first_draw_of_round_one_plays_whole_games():
    # Nothing dealt known, round 1's dealer seat 0, seat 1 (its left) to draw first:
    # the same game as simulate's.
    r = equity(Table("selection", players=2, dealer=0, round=1, draw=1, to=1), max_deals=20_000, precision=1e-9,
               seed=3)
    whole = simulate_selection(players=2, games=20_000, seed=8, rotate_dealer=False).seats
    for s in range(2):
        assert abs(r.seats.ev[s] - whole.mean_total[s]) < 4.5 * np.hypot(r.seats.ev_se[s], whole.total_se[s])
        assert abs(r.seats.share[s] - whole.p_win[s]) < 4.5 * np.hypot(r.seats.share_se[s], whole.p_win_se[s])
    assert r.meta["deals"] == 20_000 and not r.meta["reached_precision"]


def test_solitaire_measures_the_total_and_stops_on_its_precision():
    r = equity(Table("selection", players=1, round=10, hole={0: "??"},
                     scores={0: board("p_pair", "p_flush")}), precision=2.0, seed=1)
    assert r.meta["measure"] == "total" and r.seats.share[0] == 1
    assert r.meta["half_width"] < 2.0 and r.meta["reached_precision"]
    assert r.seats.ev[0] >= sum(board("p_pair", "p_flush").values())


# ---------------------------------------------------------------- decide, known answers


def test_last_assignment_with_one_slot_open_is_won_by_its_exact_points():
    # High is open (Low 60): every set of my numerical cards scoring above 60 fills it;
    # the ace and king may not be used. T 9 8 7 6 make 90, the most.
    hand = "Ts 9h 8d 7c 6s As Kd"
    scores = board("high")
    base = sum(scores.values())
    r = decide(last_round(hand, scores), seed=2)
    numerical = [POINTS[c[0]] for c in hand.split()[:5]]
    legal = [u for k in range(1, 6) for u in itertools.combinations(numerical, k) if sum(u) > 60]
    assert r.meta["kind"] == "fill" and len(r.actions) == len(legal)
    for row in r.actions.itertuples():
        assert row.action.startswith("fill high with ") and row.ev == base + points_of(row.action)
        assert row.ev_se == 0
    # The runner-up leaves out the 6s: 74 points.
    assert r.best == "fill high with Ts 9h 8d 7c 6s (90 points)" and r.edge == 90 - 74 and r.edge_se == 0


def test_keeping_a_made_straight_flush_on_the_last_draw_beats_breaking_it():
    # 5h-9h is a straight flush worth 85 whatever comes. Keeping just those five
    # draws two cards from the 45 unseen, C(45, 2) = 990 pairs: Th with one of the 43
    # others makes 6h-Th (90), Th with Jh 7h-Jh (94): 85 + (5 * 43 + 9 * 1) / 990 on
    # average. Breaking it leaves almost nothing.
    hand = "5h 6h 7h 8h 9h 2c 3d"
    scores = board("p_straight_flush")
    base = sum(scores.values())
    r = decide(last_round(hand, scores, draw=3), seed=5, max_deals=20_000)
    ev = dict(zip(r.actions.action, r.actions.ev))
    se = dict(zip(r.actions.action, r.actions.ev_se))
    assert r.meta["kind"] == "draw" and len(ev) == 120
    hearts = set("5h 6h 7h 8h 9h".split())
    keeps_it = [a for a in ev if a == "stand pat" or hearts <= set(a.split()[1:])]
    assert len(keeps_it) == 4 and all(ev[a] >= base + 85 for a in keeps_it)
    assert r.best in keeps_it
    exact = base + 85 + (5 * 43 + 9) / 990
    assert abs(ev["keep 5h 6h 7h 8h 9h"] - exact) < 4.5 * se["keep 5h 6h 7h 8h 9h"]
    assert ev["stand pat"] == base + 85
    breaking = [a for a in ev if a not in keeps_it]
    assert max(ev[a] for a in breaking) < base + 85 - 50


def test_drawing_to_four_of_a_kind_matches_the_hypergeometric_chance():
    # Keep 7s 7h 7d, draw four of the 45 unseen: 7c comes with chance 4/45 (68 points);
    # four of a rank none of my cards has (5 6 8 T J Q K A) with chance 1 / C(45, 4) each.
    hand = "7s 7h 7d 2c 3d 4h 9s"
    scores = board("p_four_kind")
    base = sum(scores.values())
    r = decide(last_round(hand, scores, draw=3), seed=7, max_deals=30_000, precision=0.2)
    row = r.actions[r.actions.action == "keep 7s 7h 7d"].iloc[0]
    quads = 4 * sum(POINTS[c] for c in "568TJQKA")
    exact = base + 68 * 4 / 45 + quads / comb(45, 4)
    assert abs(row.ev - exact) < 4.5 * row.ev_se, (row.ev, exact)
    assert r.best == "keep 7s 7h 7d"


def test_a_declared_target_is_the_only_slot_that_takes_points():
    # SE-A6: Three of a kind declared; As Ad would fill the open pair slot, but only
    # scratches are legal (either open slot).
    table = Table("selection", players=1, round=10, draw="score", hole={0: "As Ad Kc Kd 2c 3d 7h"},
                  scores={0: board("p_pair", "p_three_kind")}, targets={0: "p_three_kind"})
    rules = {"declare_target_before_draws": True}
    r = decide(table, rules=rules, max_deals=1000)
    assert sorted(r.actions.action) == ["scratch p_pair", "scratch p_three_kind"]
    # Before the draws, the declaration itself: any open slot.
    table = Table("selection", players=1, round=10, draw="target", hole={0: "As Ad Kc Kd 2c 3d 7h"},
                  scores={0: board("p_pair", "p_three_kind")})
    r = decide(table, rules=rules, max_deals=1000)
    assert r.meta["kind"] == "target_slot" and list(r.actions.action) == ["declare p_pair", "declare p_three_kind"]


def test_a_json_state_file_is_the_toml_one(tmp_path):
    import tomllib

    data = tomllib.loads(EXAMPLE.read_text())
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    assert load_table(path) == load_table(EXAMPLE)
    with pytest.raises(WantitError, match="board: a selection_rejection table has no board"):
        equity(Table("sr", players=3, board="examples/board.toml"))


def test_decide_json_from_the_example_state(capsys):
    main(["decide", "selection", "--state", str(EXAMPLE), "--format", "json", "--max-deals", "200"])
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"meta", "actions", "best", "edge", "edge_se"}
    assert len(data["actions"]) == 120 and data["meta"]["kind"] == "draw" and data["meta"]["measure"] == "share"
    assert all(set(a) == {"action", "code", "ev", "ev_se", "deals"} for a in data["actions"])
    assert all(a["deals"] == 200 for a in data["actions"])  # no race look before RACE_FIRST games
    assert data["best"] in [a["action"] for a in data["actions"]]
    # Each keep names the cards of the hand positions its mask keeps.
    hand = load_table(EXAMPLE).hole["0"].split()
    for a in data["actions"]:
        kept = [hand[j] for j in range(7) if a["code"] >> j & 1]
        assert a["action"] == ("stand pat" if len(kept) == 7 else "keep " + " ".join(kept))


def test_equity_json_from_the_example_state_with_flags_on_top(capsys):
    main(["equity", "selection", "--state", str(EXAMPLE), "--format", "json", "--max-deals", "3000",
          "--measure", "total"])
    data = json.loads(capsys.readouterr().out)
    assert [set(s) for s in data["seats"]] == [{"seat", "share", "share_se", "ev", "ev_se", "p_win", "p_win_se",
                                                 "p_tie"}] * 3
    assert abs(sum(s["share"] for s in data["seats"]) - 1) < 1e-9
    m = data["meta"]
    assert (m["round"], m["phase"], m["draw"], m["measure"], m["deals"]) == (6, "draw", 2, "total", 3000)
    assert m["unseen"] == 52 - 7 - 3 and m["stock"] == 52 - 7 - 3 - 14
    main(["equity", "selection", "--state", str(EXAMPLE), "--format", "json", "--max-deals", "1000",
          "--stock", "20"])
    assert json.loads(capsys.readouterr().out)["meta"]["stock"] == 20


# ---------------------------------------------------------------- impossible tables


def sel(**kw):
    kw.setdefault("players", 2)
    return Table("selection", **kw)


R4 = {"cosmopolitan": 94, "low": 60, "high": 85}


@pytest.mark.parametrize("table,message", [
    (sel(round=12), "round: 12 is not a round 1..11"),
    (sel(round="x"), "round: 'x' is not a whole number"),
    (sel(round=5, draw=3), "draw: 3; this round has 2 draws"),
    (sel(draw="later"), "draw: 'later' should be the draw under way (1..2), 'score' after the last draw"),
    (sel(draw="target"), "'target' is the declaration of the targets, which only declare_target_before_draws has"),
    (sel(round=2, scores={0: "cosmopolitan:94,cosmopolitan:90"}), "scores[0]: slot cosmopolitan is given twice"),
    (sel(round=2, scores={0: "cosmopolitan"}), "scores[0]: 'cosmopolitan' should look like SLOT:POINTS"),
    (sel(round=2, scores={0: {"pairs": 22}}), "scores[0]: no slot 'pairs' on the board; slots are cosmopolitan,"),
    (sel(round=2, scores={0: {"p_pair": -4}}), "scores[0].p_pair: -4 must be points >= 0"),
    (sel(round=3, scores={0: {"cosmopolitan": 94}}), "scores[0]: 1 slot filled, but seat 0 has filled 2 by now"),
    (sel(round=2, scores={0: {"low": 60}}), "scores[0]: low has 60 points while cosmopolitan is open; until the "
                                            "opening is made only it takes points"),
    (sel(round=3, scores={0: {"p_pair": 0, "cosmopolitan": 0}}),
     "scores[0]: cosmopolitan is 0, which it is given only as the last open slot"),
    (sel(round=4, scores={0: {"cosmopolitan": 94, "low": 80, "high": 70}}), "scores[0]: high 70 must be above low 80"),
    (sel(round=3, scores={0: {"cosmopolitan": 94, "p_pair": 23}}),
     "scores[0].p_pair: no pair fill scores 23 with deck standard52"),
    (sel(round=3, scores={0: {"cosmopolitan": 54, "p_pair": 0}}),
     "scores[0].cosmopolitan: no cosmopolitan fill scores 54"),  # five cards score 61 at least (2 2 2 2 3)
    (sel(round=3, scores={0: {"cosmopolitan": 94, "low": 9}}), "scores[0].low: no low fill scores 9"),
    (sel(hole={0: "As Ks Qs Js Ts 9s 8s 7s"}), "hole[0]: 8 cards; a Selection hand has 7"),
    (sel(hole={0: "As Kx"}), "hand of seat 0: unknown card 'Kx' for deck standard52"),
    (sel(round=1, draw=2, hole={0: "As Ks Qs Js Ts 9s 8s"}, discards="As"),
     "card As is given twice (hand of seat 0 and discards)"),
    (sel(hole={0: "Ar Ar Ar"}, deck="colours(5, 1-10/J/Q/K/A, 2)"),
     "card Ar is given 3 times; deck colours(5, 1-10/J/Q/K/A, 2) holds 2"),
    (sel(draw=2, discards="2c ??"), "discards: name each card"),
    (sel(draw=1, discards="2c 3c"), "discards: 2 cards, but seat 0 has made 0 draw(s) by now"),
    (sel(draw=2, discards="2c 3c 4c 5c 6c 7c"), "discards: 6 cards, but seat 0 has made 1 draw(s) by now"),
    (sel(players=1, stock=46), "stock: 46 cards, but 45 cards are neither in a hand nor among my discards"),
    (sel(stock=-1), "stock: -1 cards"),
    (sel(targets={1: "low"}), "targets: slots are declared before the draws only with declare_target_before_draws"),
    (sel(up={0: "As"}), "up: a Selection table has no up"),
    (sel(gone="As"), "gone: a Selection table has no gone"),
    (sel(offer="As"), "offer: a Selection table has no offer"),
    (sel(history="0 takes As"), "history: reading the choices seen is built for selection_rejection, do_ya"),
    (sel(to=2), "to: seat 2 is not a seat 0..1"),
    (sel(scores={0: {"low": 60}}, round=1, to=5), "to: seat 5 is not a seat 0..1"),
    (sel(players=7), "selection takes 1 to 6 players, not 7"),
    (sel(deck="colours(9)"), "colours: 9 must be a whole number 1..8"),
])
def test_an_impossible_table_is_one_clear_error(table, message):
    with pytest.raises(WantitError) as e:
        equity(table, max_deals=10)
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("table,message", [
    (sel(draw=1), "targets: seat 0 has declared its target this round (declare_target_before_draws): give it"),
    (sel(draw="target", to=0, targets={0: "cosmopolitan"}),
     "targets[0]: seat 0 has not declared its target yet (seat 0 is to declare now"),
    (sel(draw="target", to=1, targets={1: "low", 0: "cosmopolitan"}),
     "targets[1]: seat 1 has not declared its target yet (seat 1 is to declare now"),
    (sel(draw=1, targets={0: "low", 1: "lowest"}), "targets[1]: no slot 'lowest' on the board"),
    (sel(round=2, draw=1, scores={0: {"cosmopolitan": 94}, 1: {"p_pair": 0}},
         targets={0: "cosmopolitan", 1: "low"}), "targets[0]: cosmopolitan is filled already"),
])
def test_impossible_declared_targets(table, message):
    with pytest.raises(WantitError) as e:
        equity(table, rules={"declare_target_before_draws": True}, max_deals=10)
    assert message in str(e.value)


def test_a_seat_yet_to_score_this_round_and_one_that_has_scored():
    # Scoring in round 2 with seat 1 the dealer: seat 0 scores first, so at seat 1's
    # turn seat 0 has two slots filled and seat 1 one; the other way round is refused.
    ok = sel(round=2, draw="score", to=1, me=1, hole={1: "As Ad 2c 3d 7h 9s Kc"},
             scores={0: {"cosmopolitan": 94, "p_pair": 0}, 1: {"p_flush": 0}})
    assert equity(ok, max_deals=1000).meta["where"] == "round 2, scoring, seat 1 to act"
    bad = sel(round=2, draw="score", to=1, scores={0: {"cosmopolitan": 94}, 1: {"p_flush": 0}})
    with pytest.raises(WantitError, match="scores.0.: 1 slot filled, but seat 0 has filled 2 by now"):
        equity(bad, max_deals=10)


@pytest.mark.parametrize("kwargs,message", [
    (dict(table=sel(draw=1)), "decide: give all 7 of my cards"),
    (dict(table=sel(draw=1, to=1, hole={0: "As Ks Qs Js Ts 9s 8s"})), "the next decision is seat 1's (draw), "
                                                                       "not seat 0's"),
    (dict(table=sel(hole={0: "As Ks Qs Js Ts 9s 8s"}), condition=True),
     "--condition: reading the choices seen is built for selection_rejection, do_ya"),
    (dict(table=sel(hole={0: "As Ks Qs Js Ts 9s 8s"}), measure="points"), "measure 'points' must be share"),
    (dict(table=sel(hole={0: "As Ks Qs Js Ts 9s 8s"}), precision=0), "precision 0 must be a positive number"),
    (dict(table=Table("sr", players=3), measure="share"), "measure: a pot game's decisions are measured in antes"),
    (dict(table=Table("sr", players=3, round=3)), "round: a selection_rejection table has no round (only selection "
                                                  "tables have it)"),
])
def test_decide_refuses(kwargs, message):
    with pytest.raises(WantitError) as e:
        decide(max_deals=10, **kwargs)
    assert message in str(e.value)


@pytest.mark.parametrize("argv,message", [
    (["equity", "sr", "-n", "3", "--board", "examples/board.toml"], "--board applies to selection only, not "
                                                                    "selection_rejection"),
    (["equity", "selection", "--scores", "0"], "--scores '0' should look like SEAT=SLOT:POINTS"),
    (["equity", "selection", "--target", "low"], "--target 'low' should look like SEAT=SLOT"),
    (["equity", "selection", "--round", "11", "--scores", "0=low:60"], "scores[0]: 1 slot filled"),
    (["decide", "selection", "-n", "1", "--round", "1", "--hole", "0=As Ks Qs Js Ts 9s", "--measure", "share",
      "--precision", "-1"], "precision -1 must be a positive number"),
])
def test_cli_errors_are_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and err.startswith("wantit: error: ") and message in err


@pytest.mark.parametrize("board", ["5", '["x"]', "true"])
def test_a_state_file_board_that_is_not_a_path_is_one_line(tmp_path, capsys, board):
    path = tmp_path / "table.toml"
    path.write_text(f'variant = "selection"\nplayers = 3\nround = 2\nboard = {board}\n')
    with pytest.raises(SystemExit) as e:
        main(["equity", "selection", "--state", str(path)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "is not a file path (give a .toml board file)" in err, err
