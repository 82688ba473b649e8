"""A corpus of bad command lines (tests/bad_invocations.txt): each must end in one
line on stderr (``wantit: error: ...``), a non-zero exit, no traceback and nothing
on stdout, before any kernel plays (or compiles for) a deal.

Every line of the corpus is run in-process through ``analyzer.cli.main``. The files
it names (checkpoints, board files) are made here, in a folder the lines call
``{tmp}``. The game kernels are replaced by a tripwire: a line that got as far as
playing (or computing a Selection par, or evaluating a hand) fails at once instead
of running a simulation, so a bad input that is only noticed late, or a line that is
in fact legal, shows up as a failure here.
"""

import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

# decide and equity are imported before any test sets the tripwire: their module-level
# imports of the engine's functions must bind the real ones (a line run first under the
# tripwire left later tests' queries calling it).
import analyzer.decide  # noqa: F401
import analyzer.engine
import analyzer.equity  # noqa: F401
import analyzer.evaluate
import analyzer.selection
import analyzer.simulate
import analyzer.trace
from analyzer import cli
from analyzer.errors import WantitError
from analyzer.simulate import seat_policies

CORPUS = Path(__file__).with_name("bad_invocations.txt")


def corpus_lines():
    """The corpus lines: neither blank nor ``#`` comments."""
    return [line.strip() for line in CORPUS.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


# ------------------------------------------------------------------ the files the corpus names


def _toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(x) for x in value) + "]"
    return json.dumps(value)  # a TOML basic string


def _toml(data):
    """TOML for a board: top-level values, an optional [deck] table, [[board]] slots."""
    lines = [f"{k} = {_toml_value(v)}" for k, v in data.items()
             if k not in ("deck", "board") or not isinstance(v, (dict, list)) or
             (k == "board" and not all(isinstance(x, dict) for x in v))]
    if isinstance(data.get("deck"), dict):
        lines += ["", "[deck]"] + [f"{k} = {_toml_value(v)}" for k, v in data["deck"].items()]
    if isinstance(data.get("board"), list) and all(isinstance(x, dict) for x in data["board"]):
        for slot in data["board"]:
            lines += ["", "[[board]]"] + [f"{k} = {_toml_value(v)}" for k, v in slot.items()]
    return "\n".join(lines) + "\n"


def _slots():
    from analyzer.selection_config import PROVISIONAL_BOARD

    slots = [{"id": s.id, "predicate": s.kind} for s in PROVISIONAL_BOARD.slots]
    slots[0]["opening"] = True
    return slots


def _board(**changes):
    """A valid eleven-slot board with ``changes`` to its top level, or with
    ``slot=(index, {field: value or None to drop})``."""
    data = {"name": "test board", "board": _slots()}
    slot = changes.pop("slot", None)
    if slot is not None:
        i, fields = slot
        for key, value in fields.items():
            if value is None:
                data["board"][i].pop(key, None)
            else:
                data["board"][i][key] = value
    data.update(changes)
    return _toml(data)


def _boards():
    slots = _slots()
    colours = {"preset": "colours", "colours": 5, "ranks": "1-10,J,Q,K,A", "copies": 1}
    return {
        "not_toml.toml": "this is = = not toml\n",
        "empty.toml": "",
        "board_string.toml": 'board = "eleven slots"\n',
        "ten_slots.toml": _toml({"board": slots[:10]}),
        "twelve_slots.toml": _toml({"board": slots + [{"id": "extra", "predicate": "pair"}]}),
        "no_slots.toml": 'name = "nothing"\n',
        "unknown_kind.toml": _board(slot=(3, {"predicate": "pairr"})),
        "kind_number.toml": _board(slot=(3, {"predicate": 5})),
        "kind_and_predicate.toml": _board(slot=(3, {"kind": "pair"})),
        "no_predicate.toml": _board(slot=(3, {"predicate": None})),
        "bad_id.toml": _board(slot=(4, {"id": "1abc"})),
        "id_number.toml": _board(slot=(4, {"id": 5})),
        "id_unicode.toml": _board(slot=(4, {"id": "paire\u0301"})),
        "no_id.toml": _board(slot=(4, {"id": None})),
        "duplicate_id.toml": _board(slot=(4, {"id": "p_pair"})),
        "two_openings.toml": _board(slot=(5, {"opening": True})),
        "two_lows.toml": _board(slot=(5, {"predicate": "low"})),
        "two_highs.toml": _board(slot=(6, {"predicate": "high"})),
        "slot_field.toml": _board(slot=(2, {"colour": 3})),
        "top_field.toml": _board(rounds=11),
        "slots_not_tables.toml": _toml({"board": list(range(11))}),
        "used_unknown.toml": _board(slot=(3, {"used": "some"})),
        "used_number.toml": _board(slot=(3, {"used": 5})),
        "opening_text.toml": _board(slot=(0, {"opening": "yes"})),
        "placeholder_text.toml": _board(slot=(7, {"placeholder": "no"})),
        "label_number.toml": _board(slot=(7, {"label": 3})),
        "provisional_text.toml": _board(provisional="no"),
        "name_number.toml": _board(name=7),
        "deck_number.toml": _board(deck=5),
        "deck_text.toml": _board(deck="colours(8,,4)"),
        "deck_preset.toml": _board(deck={"preset": "jokers"}),
        "deck_field.toml": _board(deck={**colours, "jokers": 2}),
        "deck_colours_9.toml": _board(deck={**colours, "colours": 9}),
        "deck_colours_0.toml": _board(deck={**colours, "colours": 0}),
        "deck_colours_text.toml": _board(deck={**colours, "colours": "5"}),
        "deck_copies_0.toml": _board(deck={**colours, "copies": 0}),
        "deck_copies_fraction.toml": _board(deck={**colours, "copies": 1.5}),
        "deck_ranks_11.toml": _board(deck={**colours, "ranks": "1-11"}),
        "deck_ranks_twice.toml": _board(deck={**colours, "ranks": "1,1,2"}),
        "deck_ranks_empty.toml": _board(deck={**colours, "ranks": ""}),
        "deck_ranks_unknown.toml": _board(deck={**colours, "ranks": "1-10,Z"}),
        "deck_standard_extra.toml": _board(deck={"preset": "standard52", "colours": 5}),
        "deck_ace_low_text.toml": _board(deck={**colours, "ace_low_in_straights": "yes"}),
        "deck_ace_low_with_one.toml": _board(deck={**colours, "ace_low_in_straights": True}),
        "deck_colour_names_count.toml": _board(deck={**colours, "colour_names": ["red"]}),
        "deck_colour_names_letters.toml": _board(deck={**colours, "colour_names":
                                                       ["red", "rose", "blue", "green", "black"]}),
        "deck_too_small.toml": _board(deck={**colours, "colours": 1, "ranks": "1-5"}),
        "deck_too_big.toml": _board(deck={**colours, "colours": 8, "copies": 4}),
        "board.json": json.dumps({"board": slots}),
        "board.yaml": "board:\n  - id: cosmopolitan\n    predicate: cosmopolitan\n",
    }


def _checkpoints():
    """Checkpoint files: not JSON, JSON of the wrong shape, and totals with the
    settings of ``simulate sr -n 3`` or ``simulate selection -n 2`` (seed 0) that
    were tampered with."""
    from analyzer.selection import SelectionTotals, setup
    from analyzer.selection import run_settings as selection_settings
    from analyzer.simulate import Totals, run_settings
    from analyzer.variants import get_variant

    sr = get_variant("sr")
    sr_settings = run_settings(sr, 3, 0, {}, [sr.policy_values(s) for s in seat_policies(sr, 3, None)])
    sel_settings = selection_settings(setup(players=2, par=False), 0)

    def sr_file(**changes):
        totals = Totals(3).to_dict()
        if changes.pop("full", False):  # consistent totals of 10 deals
            totals["deals"] = 10
            totals["categories"] = [[10] + [0] * 9 for _ in range(3)]
        for key, value in changes.items():
            if value is None:
                totals.pop(key)
            else:
                totals[key] = value
        return json.dumps({"settings": sr_settings, "totals": totals})

    def sel_file(**changes):
        totals = SelectionTotals(2, 11).to_dict()
        for key, value in changes.items():
            if value is None:
                totals.pop(key)
            else:
                totals[key] = value
        return json.dumps({"settings": sel_settings, "totals": totals})

    hist = np.zeros((2, len(SelectionTotals(2, 11).hist[0])), np.int64)
    hist[:, 0] = 1000
    opened = np.zeros((2, 12), np.int64)
    opened[:, 0] = 1000
    return {
        "not_json.json": "this is not json {",
        "empty.json": "",
        "list.json": "[1, 2, 3]",
        "string.json": '"checkpoint"',
        "no_totals.json": json.dumps({"settings": sr_settings}),
        "totals_list.json": json.dumps({"settings": sr_settings, "totals": [1, 2]}),
        "other_settings.json": json.dumps({"settings": {"variant": "do_ya"}, "totals": {}}),
        "sr3_uncounted.json": sr_file(deals=10),
        "sr3_missing.json": sr_file(net_sq=None),
        "sr3_extra.json": sr_file(bonus=1),
        "sr3_negative.json": sr_file(full=True, wins_high=[-1, 0, 0]),
        "sr3_short.json": sr_file(net=[0, 0]),
        "sr3_bool.json": sr_file(deals=True),
        "sr3_float.json": sr_file(deals=10.0),
        "sr3_text.json": sr_file(deals="10"),
        "sr3_wins.json": sr_file(full=True, wins_high=[11, 0, 0]),
        "sr3_players4.json": sr_file(full=True, players=4),
        "sr3_players2.json": sr_file(full=True, players=2),
        "sr3_squares.json": sr_file(full=True, net=[5000, 0, 0]),
        "sr3_nested.json": sr_file(categories=[[[0]] * 10] * 3),
        "sr3_1000.json": sr_file(deals=1000, categories=[[1000] + [0] * 9 for _ in range(3)]),
        "sel2_uncounted.json": sel_file(games=5),
        "sel2_missing.json": sel_file(hist=None),
        "sel2_1000.json": sel_file(games=1000, hist=hist.tolist(), opened=opened.tolist()),
    }


def make_fixtures(folder: Path):
    """Write every file the corpus names under ``folder`` (the ``{tmp}`` of its lines)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in {**_boards(), **_checkpoints()}.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "not_utf8.json").write_bytes(b"\xff\xfe\x00{not a checkpoint")
    (folder / "not_utf8.toml").write_bytes(b"\xff\xfe\x00board")
    (folder / "a_file").write_text("a regular file, not a folder\n")
    (folder / "a_dir").mkdir(exist_ok=True)
    return folder


# ------------------------------------------------------------------ the tripwire


class KernelReached(AssertionError):
    """A corpus line got as far as the game or evaluation kernels."""


def _tripwire(*args, **kwargs):
    raise KernelReached("the line reached a kernel: its bad input was not refused up front (or it is legal)")


TRIPPED = (
    (analyzer.engine, ("new_state", "play_state", "play_batch", "simulation_totals", "decision")),
    (analyzer.simulate, ("new_state", "simulation_totals")),
    (analyzer.trace, ("new_state", "play_state")),
    (analyzer.selection, ("slot_par",)),
    (analyzer.evaluate, ("_tables", "check_hands")),
)


@pytest.fixture
def no_kernels(monkeypatch):
    for module, names in TRIPPED:
        for name in names:
            monkeypatch.setattr(module, name, _tripwire)


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    return make_fixtures(tmp_path_factory.mktemp("bad_input") / "corpus")


def run_line(line, folder, capsys):
    """``(exit code, stdout, stderr)`` of one corpus line run through ``cli.main``."""
    argv = shlex.split(line.replace("{tmp}", str(folder)))
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


# ------------------------------------------------------------------ the corpus


def test_the_corpus_is_large_and_has_no_duplicates():
    lines = corpus_lines()
    assert len(lines) >= 300
    seen = set()
    twice = [line for line in lines if line in seen or seen.add(line)]
    assert not twice, f"lines given twice: {twice}"
    for line in lines:
        shlex.split(line)  # every line parses


@pytest.mark.parametrize("line", corpus_lines(), ids=lambda line: line)
def test_bad_invocation_is_one_clear_line(line, fixtures, no_kernels, capsys):
    code, out, err = run_line(line, fixtures, capsys)
    assert code not in (0, None), f"exit {code!r}: {err!r}"
    assert out == "", f"stdout: {out!r}"
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    assert err.startswith("wantit: error: ") and err.strip() != "wantit: error:", err


# ------------------------------------------------------------------ the bugs the corpus found


@pytest.mark.parametrize("value", ["x", "6.5", "", "1000000000000000000000"])
def test_anaconda_hand_size_is_validated_before_the_deck_check(value):
    # _check_anaconda calls int(hand_size): it used to raise ValueError on 'x' or '6.5'.
    from analyzer.variants import get_variant

    with pytest.raises(WantitError, match="hand_size"):
        get_variant("anaconda").check_table(5, {"hand_size": value})


def test_every_alias_names_its_variant():
    # '3-2-1' was registered but unreachable: names are normalised ('-' to '_'), aliases were not.
    from analyzer.variants import VARIANTS, get_variant

    for v in VARIANTS.values():
        for alias in v.aliases:
            assert get_variant(alias) is v
            assert get_variant(alias.upper().replace("_", " ")) is v


@pytest.mark.parametrize("kwargs,message", [
    ({"deals": 2**63}, "below 2\\*\\*63"),
    ({"deals": 10**30}, "below 2\\*\\*63"),
    ({"target_se": float("inf")}, "positive finite"),
    ({"target_se": float("nan")}, "positive finite"),
    ({"target_se": -1.0}, "positive finite"),
])
def test_run_settings_out_of_range_are_refused(kwargs, message, no_kernels):
    from analyzer.simulate import simulate

    with pytest.raises(WantitError, match=message):
        simulate("sr", **{"deals": 10, **kwargs})


@pytest.mark.parametrize("kwargs", [
    {"games": 0}, {"seed": -1}, {"chunk": 0}, {"target_se": 0}, {"target_se": float("inf")},
    {"checkpoint": ""}, {"players": 7}, {"deck": "colours(8,,4)"},
])
def test_selection_refuses_bad_settings_before_computing_par(kwargs, no_kernels):
    # The slots' par (a kernel run of 2,000 rounds a slot) used to come before the
    # run settings were checked.
    from analyzer.selection import simulate_selection

    with pytest.raises(WantitError):
        simulate_selection(**{"games": 10, **kwargs})


@pytest.mark.parametrize("kwargs", [{"seed": -1}, {"game": 2**63}, {"stacked": "As As"}, {"stacked": "Xx"}])
def test_selection_replay_refuses_bad_input_before_computing_par(kwargs, no_kernels):
    from analyzer.selection import play_game

    with pytest.raises(WantitError):
        play_game(players=2, **kwargs)


def test_selection_checkpoint_is_read_before_par(fixtures, no_kernels):
    from analyzer.selection import simulate_selection

    with pytest.raises(WantitError, match="already holds 1,000 games"):
        simulate_selection(players=2, games=10, checkpoint=str(fixtures / "sel2_1000.json"))


@pytest.mark.parametrize("spec", ["colours(8,,4)", "colours(5,)", "colours(,1-10)", "colours(5,1-10,,)"])
def test_a_deck_spec_with_an_empty_argument_is_refused(spec):
    # 'colours(8,,4)' used to drop the gap and read 4 as the ranks: 8 cards of rank 4.
    from analyzer.selection_config import parse_deck

    with pytest.raises(WantitError, match="an argument is empty"):
        parse_deck(spec)
    assert parse_deck("colours()").name == parse_deck("colours").name


def test_a_checkpoint_folder_that_is_a_file_is_named_so(fixtures):
    from analyzer.runs import check_checkpoint_path

    with pytest.raises(WantitError, match="a_file is not a folder"):
        check_checkpoint_path(fixtures / "a_file" / "run.json")
    with pytest.raises(WantitError, match="does not exist"):
        check_checkpoint_path(fixtures / "missing" / "run.json")


@pytest.mark.parametrize("argv,message", [
    (["simulate", "sr", "--rule", "ante=2", "--rule", "ante=3"], "--rule ante is given twice"),
    (["deal", "tw", "--policy", "0=heuristic", "--policy", "00=always_pay"], "seat 0 is given twice"),
    (["simulate", "sr", "--policy", "all=heuristic:aim=0,aim=1"], "sets aim twice"),
])
def test_a_setting_given_twice_is_refused(argv, message, no_kernels, capsys):
    # The last one used to win silently.
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["hand", "As Ks Qs Js Ts", "--qualifier", "4"], "qualifier must be 5..13"),
    (["hand", "As Ks Qs Js Ts", "--wild", "Xx"], "unknown card 'Xx'"),
    (["hand", "As Ks Qs Js Ts", "--wild-ranks", "Z"], "unknown rank 'Z'"),
])
def test_hand_options_are_checked_before_evaluating(argv, message, no_kernels, capsys):
    # The high hand used to be evaluated (compiling the evaluators) before the
    # qualifier or the wild cards were looked at.
    with pytest.raises(SystemExit):
        cli.main(argv)
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("line,message", [
    ("simulate sr -n 3 --checkpoint {tmp}/sr3_uncounted.json", "damaged: the final hands"),
    ("simulate sr -n 3 --checkpoint {tmp}/sr3_missing.json", "missing totals net_sq"),
    ("simulate sr -n 3 --checkpoint {tmp}/sr3_negative.json", "damaged: bad or missing totals wins_high"),
    ("simulate sr -n 3 --checkpoint {tmp}/sr3_wins.json", "wins_high exceeds the 10 deals"),
    # Its per-seat lists are read by its player count: 4 ended in an IndexError.
    ("simulate sr -n 3 --checkpoint {tmp}/sr3_players4.json", "damaged: bad or missing totals players"),
    ("simulate sr -n 3 --checkpoint {tmp}/sr3_players2.json", "damaged: bad or missing totals players"),
    ("simulate sr -n 3 --checkpoint {tmp}/sr3_squares.json", "contradict"),
    ("simulate sr -n 3 --deals 10 --checkpoint {tmp}/sr3_1000.json", "already holds 1,000 deals"),
    ("simulate sr -n 4 --checkpoint {tmp}/sr3_1000.json", "other settings"),
    ("simulate selection -n 2 --checkpoint {tmp}/sel2_uncounted.json", "do not add up to the 5 games"),
    ("simulate selection -n 2 --deals 10 --checkpoint {tmp}/sel2_1000.json", "already holds 1,000 games"),
])
def test_tampered_checkpoints_are_refused_for_what_they_are(line, message, fixtures, no_kernels, capsys):
    # The corpus's checkpoints carry the right settings, so they are refused for
    # their totals, not as another run's.
    code, _, err = run_line(line, fixtures, capsys)
    assert code == 2 and message in err, err


@pytest.mark.parametrize("line,message", [
    ("equity tw -n 3 --fee 1=-8", "fees[1]: -8 chips; a fee paid is 0 or more"),
    ("equity tw -n 3 --fee 1=x", "fees[1]: 'x' is not a whole number"),
    ("equity selection --scores 0=cosmopolitan:-5", "scores[0].cosmopolitan: -5 must be points >= 0"),
    ("equity selection --scores 0=cosmopolitan:5.5", "'5.5' is not a whole number"),
])
def test_a_negative_number_is_refused_for_its_range_not_as_text(line, message, fixtures, no_kernels, capsys):
    # "-8" was called not a whole number.
    code, _, err = run_line(line, fixtures, capsys)
    assert code == 2 and message in err, err


def test_a_pass_offset_beyond_any_table_is_refused():
    # 1:1000000000000000000000 used to reach the kernel, which reads the offset as an int64.
    from analyzer.variants import MAX_PASS_OFFSET, parse_pass_schedule

    assert parse_pass_schedule(f"3:{MAX_PASS_OFFSET},2:-{MAX_PASS_OFFSET}") == [(3, MAX_PASS_OFFSET),
                                                                            (2, -MAX_PASS_OFFSET)]
    for text in (f"3:{MAX_PASS_OFFSET + 1}", "1:1000000000000000000000", "1:-1000000000000000000000"):
        with pytest.raises(WantitError, match="an offset is 1 to"):
            parse_pass_schedule(text)


def test_a_card_given_twice_is_named_once():
    # It used to read "duplicate card 'As' (also given as 'As')".
    from analyzer.cards import parse_cards

    with pytest.raises(WantitError, match=r"duplicate card 'As' \(given twice\)"):
        parse_cards("As Kd As")
    with pytest.raises(WantitError, match=r"duplicate card '10s' \(also given as 'Ts'\)"):
        parse_cards("Ts Kd 10s")


def test_an_empty_board_path_is_named_so():
    # It used to read "board file .: Is a directory".
    from analyzer.selection_config import load_board

    with pytest.raises(WantitError, match="board file '' is not a file path"):
        load_board("")


def _api_calls():
    from analyzer.decide import decide
    from analyzer.equity import equity
    from analyzer.simulate import simulate
    from analyzer.sweep import sweep
    from analyzer.table import Table, load_table

    small = dict(players=3, deals=100, write=False)
    return [
        (lambda: simulate("sr", players=3, deals=100, policies={0: 3}), "a policy is a preset name"),
        (lambda: simulate("sr", players=3, deals=100, rules="max_rejections=1"), "rules must be a dict"),
        (lambda: equity(Table("sr", players=3), rules=[("split_mode", "high_only")]), "rules must be a dict"),
        (lambda: equity("examples/selection_rejection.toml"), "a query takes a Table"),
        (lambda: decide(None), "a query takes a Table"),
        (lambda: load_table(3), "state file 3 is not a file path"),
        (lambda: sweep("sr", {"take_threshold": []}, **small), "take_threshold: no values given"),
        (lambda: sweep("sr", {"take_threshold": 0.5}, **small), "values are a list of numbers or text"),
        (lambda: sweep("sr", {"take_threshold": [0.5, 0.5]}, **small), "a value is given twice"),
        (lambda: sweep("sr", "take_threshold=0:1", **small), "a grid is a dict of parameter -> values"),
        (lambda: sweep("sr", {"take_threshold": [0, 1]}, rules="x=1", **small), "rules must be a dict"),
    ]


@pytest.mark.parametrize("case", range(len(_api_calls())))
def test_python_calls_of_the_wrong_type_are_one_clear_error(case, no_kernels):
    # Each ended in a TypeError, AttributeError or IndexError of the code inside, or
    # read a string one letter at a time.
    call, message = _api_calls()[case]
    with pytest.raises(WantitError, match=re.escape(message)):
        call()
