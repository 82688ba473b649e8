"""Registry-wide: every game, pot or scored, is one registry entry that the same
calls run (simulate, replay, describe), with the invariants of its kind: pot games
are zero-sum deal by deal, Selection's win shares sum to one game by game, and no
table depends on the thread count or the chunk size."""

import json
import subprocess
import sys

import pandas as pd
import pytest

from analyzer.variants import VARIANTS, get_variant

ALL = sorted(VARIANTS)
SMALL = {"selection": 2}  # Selection plays whole games of eleven rounds: a small table keeps this quick


def _run(name, **kwargs):
    v = get_variant(name)
    return v.simulate(players=SMALL.get(name, v.default_players), seed=3, **kwargs)


def test_all_five_games_are_registered_once():
    assert ALL == ["anaconda", "do_ya", "selection", "selection_rejection", "train_wreck"]
    kinds = {name: get_variant(name).kind for name in ALL}
    assert kinds == {"anaconda": "pot", "do_ya": "pot", "selection": "scored", "selection_rejection": "pot",
                     "train_wreck": "pot"}
    aliases = [a for v in VARIANTS.values() for a in (v.name, *v.aliases)]
    assert len(aliases) == len(set(aliases))


@pytest.mark.parametrize("name", ALL)
def test_the_same_numbers_whatever_the_threads_and_chunks(name):
    deals = 120 if name == "selection" else 2000
    runs = [_run(name, deals=deals, threads=th, chunk=ch) for th, ch in ((1, deals), (2, deals), (2, deals // 3))]
    for other in runs[1:]:
        pd.testing.assert_frame_equal(runs[0].seats, other.seats)


@pytest.mark.parametrize("name", ALL)
def test_the_results_add_up(name):
    """Pot games: the seats' mean nets sum to zero (nothing carried over by default).
    Selection: every game has winners, so the win shares sum to one."""
    v = get_variant(name)
    r = _run(name, deals=150 if name == "selection" else 3000)
    if v.kind == "pot":
        assert abs(r.seats.ev.sum()) < 1e-9
        assert r.meta["carried_over"] == 0
    else:
        assert r.seats.p_win.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("name", ALL)
def test_every_seat_row_carries_its_policy_parameter_values(name):
    v = get_variant(name)
    first = v.params[0]
    r = _run(name, deals=60 if name == "selection" else 500,
             policies={"all": v.default_policy, 0: f"{v.default_policy}:{first.name}={first.low:g}"})
    assert r.seats.loc[0, first.name] == first.low
    assert (r.seats.loc[1:, first.name] == v.policy_values(v.default_policy)[first.name]).all()
    assert [p.name for p in v.params] == list(r.seats.columns[2:2 + len(v.params)])


@pytest.mark.parametrize("name", ALL)
def test_replay_tells_the_deal_or_game(name):
    v = get_variant(name)
    text = v.replay_text(players=SMALL.get(name, v.default_players), seed=5, deal=2)
    assert text.splitlines()[0].startswith(v.title)


def _cli(*args):
    proc = subprocess.run([sys.executable, "-c", "from analyzer.cli import main; main()", *args],
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def test_the_command_line_runs_every_game_the_same_way():
    for name in ALL:
        v = get_variant(name)
        code, out, err = _cli("simulate", name, "-n", str(SMALL.get(name, v.min_players + 1)), "-d", "40",
                              "--format", "json")
        assert code == 0, err
        data = json.loads(out)
        assert data["meta"]["variant"] == name and len(data["seats"]) == SMALL.get(name, v.min_players + 1)
    code, out, _ = _cli("variants")
    assert code == 0
    for name in ALL:
        assert f"\n{name}: " in "\n" + out


@pytest.mark.parametrize("name", ["howdy_doody", "Howdy Doody", "howdy-doody"])
def test_a_name_of_a_variant_under_a_rule_is_refused_with_the_rule(name):
    # As an alias it played plain Anaconda, without the wild cards the name promises.
    from analyzer.errors import WantitError

    with pytest.raises(WantitError, match="is anaconda with --rule wild=howdy_doody"):
        get_variant(name)


def test_a_pot_game_function_given_selection_says_so():
    """Selection has no pot, no hands to trace as a pot deal, no low half: these calls
    had ended in a ValueError or an AttributeError from inside."""
    from analyzer.errors import WantitError
    from analyzer.report import low_wins, position_value
    from analyzer.tour import winning_hands
    from analyzer.trace import play_deal, replay

    calls = [lambda: play_deal("selection", players=2), lambda: replay("selection", players=2),
             lambda: winning_hands("selection", players=(2,), deals=10),
             lambda: low_wins("selection", players=(2,), deals=10)]
    for call in calls:
        with pytest.raises(WantitError, match="the pot games'.*selection is scored on a board"):
            call()
    with pytest.raises(WantitError, match="position needs two players or more"):
        position_value("selection", players=1, deals=10)  # its share of the wins is 1 at one player
