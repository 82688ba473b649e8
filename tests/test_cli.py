"""The wantit command line: output, JSON fields, and one-line errors with a non-zero exit."""

import json
from pathlib import Path
import subprocess
import sys

import pytest

from analyzer.cli import main


def run(*args):
    """Run the console entry point in-process; returns (exit code, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-c", "from analyzer.cli import main; main()", *args],
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def test_hand_table():
    code, out, err = run("hand", "As Ks Qs Js Ts 9s 2c")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["hand", "As", "Ks", "Qs", "Js", "Ts", "9s", "2c"]
    assert "Royal flush" in lines[1] and lines[1].endswith("As Ks Qs Js Ts")
    assert "J-T-9-2-A" in lines[2] and lines[2].endswith("Js Ts 9s 2c As")


# Runs a command in a fresh interpreter, then prints which game kernels modules (and
# the engine and registry) it imported and whether it imported pandas.
LOADED_BY = """
import json, sys
from analyzer.cli import main
main(sys.argv[1:])
print(json.dumps({"kernels": sorted(m for m in sys.modules if m.startswith("kernels.games.")
                                    or m in ("kernels.engine", "analyzer.variants")),
                  "pandas": "pandas" in sys.modules}))
"""


def test_a_command_that_plays_no_game_loads_no_game_kernels():
    # The start-up cost of ``wantit hand``: each game module compiles or loads dozens
    # of kernels, and the command line's flags must not need them.
    proc = subprocess.run([sys.executable, "-c", LOADED_BY, "hand", "As Ks Qs Js Ts 9s 2c"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["kernels"] == []
    proc = subprocess.run([sys.executable, "-c", LOADED_BY, "variants"], capture_output=True, text=True)
    # the probe sees a command that does load them
    assert "kernels.engine" in json.loads(proc.stdout.splitlines()[-1])["kernels"]


@pytest.mark.parametrize("game", ["train_wreck", "selection"])
def test_a_query_about_one_game_loads_that_game_s_kernels_only_and_no_pandas(game):
    # Each game module makes dozens of numba dispatchers (0.1-0.2 ms each): the other
    # games' were about 20 ms of an equity query's start-up, and pandas 0.25 s of a
    # Selection query's.
    args = {"train_wreck": ["equity", "train_wreck", "--state", "examples/train_wreck.toml", "--max-deals", "2000"],
            "selection": ["equity", "selection", "-n", "1", "--hole", "0=As Kh Qd 2c 3c 4c 5c",
                          "--max-deals", "20"]}[game]
    proc = subprocess.run([sys.executable, "-c", LOADED_BY, *args], capture_output=True, text=True,
                          cwd=Path(__file__).parents[1])
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout.splitlines()[-1])
    games = {f"kernels.games.{g}" for g in ("selection_rejection", "do_ya", "anaconda", "train_wreck", "selection")}
    assert games & set(loaded["kernels"]) == {f"kernels.games.{game}"}
    assert not loaded["pandas"]


def test_the_command_line_game_flags_are_the_registry_s():
    from analyzer.game_options import GAME_OPTIONS
    from analyzer.variants import VARIANTS

    assert GAME_OPTIONS == {v.name: v.game_options for v in VARIANTS.values() if v.game_options}
    assert [g.flag for g in GAME_OPTIONS["selection"]] == ["--board", "--deck"]


def test_hand_json_with_wilds_and_qualifier():
    code, out, err = run("hand", "Kc", "7d", "4h", "2s", "3c", "--wild", "Kc", "--qualifier", "8",
                         "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["high"]["description"] == "Pair of sevens, 4-3-2 kickers"
    assert data["low"]["description"] == "7-4-3-2-A"
    assert {"card": "Kc", "wild_as": "Ac"} in data["low"]["cards"]
    assert data["low"]["qualifier"] == 8


def test_wild_ranks_option():
    code, out, _ = run("hand", "3c 3d As Ad Kc", "--wild-ranks", "3")
    assert code == 0
    assert "Four of a kind, aces, king kicker" in out


@pytest.mark.parametrize("args,message", [
    (("hand", "As Xs Kd 2c 3c"), "unknown card 'Xs'"),
    (("hand", "As As Kd 2c 3c"), "duplicate card 'As'"),
    (("hand", "As Kd"), "5 to 10 cards"),
    (("hand", "As Kd 2c 3c 4d", "--qualifier", "3"), "qualifier must be 5..13"),
    (("hand", "As Kd 2c 3c 4d", "--wild-ranks", "Z"), "unknown rank 'Z'"),
    (("hand", "As Kd 2c 3c 4d", "--five-kind", "top"), "Invalid value for '--five-kind'"),
    (("nosuchcommand",), "No such command"),
])
def test_errors_are_one_clear_line(args, message):
    code, out, err = run(*args)
    assert code != 0
    assert message in err
    assert "Traceback" not in err
    assert out == ""


def test_main_is_callable_in_process(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["hand", "2c 3d"])
    assert exc.value.code == 2
    assert "5 to 10 cards" in capsys.readouterr().err


def test_variants_lists_rules_and_policy_parameters():
    code, out, _ = run("variants")
    assert code == 0
    for text in ("selection_rejection", "do_ya", "max_rejections = 2", "last_player_rule = forced",
                 "wild_mode = hole_card_only", "take_threshold", "presets: heuristic, always_take"):
        assert text in out


def test_simulate_json_schema():
    code, out, err = run("simulate", "selection_rejection", "--players", "3", "--deals", "2000", "--seed", "4",
                         "--policy", "all=heuristic", "--policy", "1=always_take", "--rule", "low_qualifier=8",
                         "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["meta"]["seed"] == 4 and data["meta"]["deals"] == 2000
    seats = data["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert seats[1]["policy"] == "always_take"
    for s in seats:
        assert {"seat", "ev", "ev_se", "p_high", "p_low", "p_scoop", "high_categories"} <= set(s)
    assert abs(sum(s["ev"] for s in seats)) < 1e-9


def test_simulate_table_and_csv():
    code, out, _ = run("simulate", "do_ya", "-n", "4", "-d", "1000", "--format", "csv")
    assert code == 0
    header = out.splitlines()[0]
    assert header.startswith("seat,policy,aim,take_threshold,")  # each policy parameter's value, a column each
    assert ",pool_threshold,ev,ev_se,p_high,p_low,p_scoop" in header
    assert len(out.splitlines()) == 5
    code, out, _ = run("simulate", "do_ya", "-n", "4", "-d", "1000")
    assert code == 0 and "do_ya, 4 players, 1,000 deals, seed 0" in out and "final high hands" in out


def test_deal_trace_matches_the_golden_narration():
    from pathlib import Path

    # The transcript was made when the default field was the heuristic preset.
    code, out, _ = run("deal", "selection_rejection", "--seed", "7", "--players", "5", "--trace",
                       "--policy", "all=heuristic")
    assert code == 0
    golden = (Path(__file__).parent / "golden" / "selection_rejection_seed7.txt").read_text()
    assert out == golden
    code, short, _ = run("deal", "selection_rejection", "--seed", "7", "--players", "5")
    assert "is offered" not in short and "Showdown" in short


@pytest.mark.parametrize("args,message", [
    (("simulate", "holdem"), "unknown variant 'holdem'"),
    (("simulate", "sr", "--players", "8"), "2 to 7 players"),
    (("simulate", "sr", "--rule", "max_rejections"), "should look like name=value"),
    (("simulate", "sr", "--rule", "max_rejections=5"), "out of range"),
    (("simulate", "sr", "--policy", "heuristic"), "SEAT=PRESET"),
    (("simulate", "sr", "--policy", "0=heuristic:aim=7"), "out of range"),
    (("simulate", "sr", "--deals", "0"), "at least 2"),
    (("deal", "do_ya", "--stacked", "2c 2d 3c"), "ran out"),
    (("deal", "do_ya", "--stacked", "2c 2c"), "duplicate card"),
    (("simulate", "sr", "--board", "b.toml"), "--board applies to selection only, not selection_rejection"),
    (("deal", "anaconda", "--deck", "colours"), "--deck applies to selection only, not anaconda"),
])
def test_simulate_and_deal_errors(args, message):
    code, out, err = run(*args)
    assert code != 0
    assert message in err
    assert "Traceback" not in err


def test_an_interrupted_run_says_it_is_partial_and_exits_130(monkeypatch, capsys):
    import analyzer.simulate as S

    real = S._counts
    calls = {"n": 0}

    def interrupting(*args):
        calls["n"] += 1
        if calls["n"] == 6:  # inside the second chunk's totals (four count groups each)
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(S, "_counts", interrupting)
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "sr", "-n", "3", "-d", "5000", "--chunk", "1000", "--format", "csv"])
    assert exc.value.code == 130
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == "# partial: interrupted after 1000 of 5000 deals"
    assert "wantit: interrupted after 1,000 deals" in err
    calls["n"] = 0
    with pytest.raises(SystemExit):
        main(["simulate", "sr", "-n", "3", "-d", "5000", "--chunk", "1000"])
    assert "(interrupted: partial, 5,000 asked)" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("args,message", [
    (("simulate",), "Missing argument 'VARIANT'"),
    (("simulate", "sr", "--deals", "many"), "'many' is not a valid integer"),
    (("simulate", "sr", "--chunk", "100000000000"), "chunk must be 1..10,000,000"),
    (("simulate", "sr", "--policy", "²=heuristic"), "the seat must be a number or 'all'"),
    (("simulate", "sr", "--policy", "all="), "an empty policy"),
    (("deal", "sr", "--seed", str(2**64)), "seed must be a non-negative integer below 2**63"),
])
def test_usage_errors_are_one_line_too(args, message):
    code, out, err = run(*args)
    assert code != 0 and out == "" and "Traceback" not in err
    assert message in err and len(err.strip().splitlines()) == 1


CTRL_C_WHILE_IMPORTING = """
import builtins, sys
real_import = builtins.__import__
def interrupted_import(name, *args, **kwargs):
    if name.split(".")[0] == sys.argv[1]:
        raise KeyboardInterrupt  # as a Ctrl-C landing while this module loads
    return real_import(name, *args, **kwargs)
builtins.__import__ = interrupted_import
from analyzer.console import main
main(sys.argv[2:])
"""


@pytest.mark.parametrize("module", ["click", "numpy", "numba", "pandas"])
def test_ctrl_c_during_start_up_is_one_line_and_exit_130(module):
    proc = subprocess.run([sys.executable, "-c", CTRL_C_WHILE_IMPORTING, module, "simulate", "sr", "-d", "10"],
                          capture_output=True, text=True)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr == "wantit: interrupted\n"
    assert proc.stdout == ""


def test_the_console_script_is_the_interrupt_safe_entry_point():
    import tomllib
    from pathlib import Path

    scripts = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"wantit": "analyzer.console:main"}


COLLECTOR_AFTER_A_COMMAND = """
import atexit, gc, sys
from analyzer.console import main
entry, args = sys.argv[1], sys.argv[2:]
sys.argv = ["wantit", *args]
atexit.register(lambda: print("collector", gc.isenabled(), gc.get_freeze_count() > 0))
main(None if entry == "process" else args)  # the process's command line ends the process
print("collector", gc.isenabled(), gc.get_freeze_count() > 0)
"""


@pytest.mark.parametrize("entry", ["process", "in-process"])
def test_the_console_entry_collects_garbage_once_started_and_leaves_a_callers_collector_alone(entry):
    # Started as the process's command line it pauses the collector while its modules
    # load and freezes what they made; a long sweep must still have its garbage
    # collected afterwards. Called with arguments, in someone else's process, it
    # changes nothing.
    proc = subprocess.run([sys.executable, "-c", COLLECTOR_AFTER_A_COMMAND, entry, "hand", "As Ks Qs Js Ts 9s 2c"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Royal flush" in proc.stdout
    assert proc.stdout.splitlines()[-1] == f"collector True {entry == 'process'}"


def test_no_arguments_print_the_usage_not_an_error():
    code, out, err = run()
    assert code == 0 and err == ""
    assert out.startswith("Usage: wantit [OPTIONS] COMMAND")


WIDE_OUTPUTS = [
    ["variants"],
    ["rules"],
    ["hand", "As Ks Qs Js Ts 9s 2c", "--qualifier", "8"],
    ["simulate", "selection_rejection", "-n", "7", "-d", "300",
     "--policy", "0=heuristic:take_threshold=0.25,deny_weight=1.5,draw_weight=2,low_max=7"],
    ["simulate", "do_ya", "-n", "8", "-d", "300", "--rule", "split_mode=declare"],
    ["simulate", "anaconda", "-n", "7", "-d", "300", "--policy", "0=low:spite_weight=2"],
    ["simulate", "train_wreck", "-n", "6", "-d", "300"],
    ["simulate", "selection", "-n", "6", "-d", "40", "--policy", "1=heuristic:par_weight=0.5,keep_min=20"],
    ["equity", "sr", "--state", "examples/selection_rejection.toml", "--all", "--precision", "0.02"],
    ["decide", "sr", "--state", "examples/selection_rejection.toml", "--max-deals", "2000"],
] + [["deal", name, "--seed", "3", "--trace"] for name in
     ("selection_rejection", "do_ya", "anaconda", "train_wreck", "selection")] + [
    ["variants", name] for name in ("sr", "do_ya", "anaconda", "train_wreck", "selection")]


@pytest.mark.parametrize("args", WIDE_OUTPUTS, ids=" ".join)
def test_every_output_fits_100_columns(args, capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])  # examples/
    main(args)
    out = capsys.readouterr().out
    assert out.strip()
    too_wide = [line for line in out.splitlines() if len(line) > 100]
    assert not too_wide, too_wide[:3]


def test_a_wide_table_repeats_the_seat_column_in_each_block(capsys):
    main(["simulate", "selection", "-n", "6", "-d", "20"])
    out = capsys.readouterr().out
    blocks = out.split("\n\n")
    seat_blocks = [b for b in blocks if b.lstrip().startswith("seat ")]
    assert len(seat_blocks) >= 2 and all(len(b.splitlines()) == 7 for b in seat_blocks)
    assert "p_win" in seat_blocks[0] and "p_never_opened" in seat_blocks[-1]


def test_variants_name_lists_one_game(capsys):
    main(["variants", "tw"])
    out = capsys.readouterr().out
    assert out.startswith("train_wreck: ") and "fee_multipliers" in out and "selection_rejection" not in out


@pytest.mark.parametrize("width", [100, 40, 12])
def test_text_columns_lay_out_as_pandas_does(width):
    """``fit_columns`` (the query tables, without pandas) against pandas' own
    ``to_string`` through ``fit_frame``, on cells of every width."""
    import pandas as pd

    from analyzer.text import fit_columns, fit_frame

    columns = {"seat": [0, 1, 12], "policy": ["heuristic", "always_take", "low"],
               "share": ["0.3002 (0.2953-0.3051)", "0.1", "x"], "p": ["0.1738", "", "1"],
               "a long header": ["-0.2434", "+1", "0"], "n": [5, 123456, 0]}
    assert fit_columns(columns, ["seat"], width=width) == fit_frame(pd.DataFrame(columns), ["seat"], width=width)
    text = {c: [str(x) for x in cells] for c, cells in columns.items()}  # a text first column: no leading space
    assert fit_columns(text, ["policy"], width=width) == fit_frame(pd.DataFrame(text), ["policy"], width=width)


def test_the_command_line_process_flushes_its_output_and_keeps_its_exit_status(tmp_path):
    """The process ends itself without the interpreter's teardown (``cli._leave``):
    everything printed arrives, and the exit status is the command's."""
    code, out, err = run("hand", "As", "Ks", "--format", "json")
    assert code == 2 and out == "" and err.startswith("wantit: error:")
    code, out, err = run("deal", "sr", "--seed", "3", "--trace")
    assert code == 0 and err == "" and out.endswith("\n") and len(out.splitlines()) > 20
    script = tmp_path / "exit_handler.py"
    script.write_text("import atexit, sys\n"
                      "atexit.register(lambda: print('exit handler ran', file=sys.stderr))\n"
                      "from analyzer.cli import main\nmain()\n")
    proc = subprocess.run([sys.executable, str(script), "variants"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == "exit handler ran\n" and "selection_rejection" in proc.stdout


def _help_examples(command):
    """The ``wantit ...`` lines of a command's ``e.g.`` block, as argument lists."""
    import shlex

    from analyzer.cli import cli

    lines = cli.commands[command].help.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("e.g. wantit"))
    examples = []
    for line in lines[start:]:
        text = line.strip().removeprefix("e.g.").strip()
        if not text.startswith("wantit "):
            break
        examples.append(shlex.split(text.split("#")[0])[1:])
    return examples


@pytest.mark.parametrize("command", ["equity", "decide"])
def test_the_help_s_query_examples_run(command):
    examples = _help_examples(command)
    assert len(examples) >= 2
    for args in examples:
        code, out, err = run(*args, "--max-deals", "2000")
        assert code == 0, f"{args}: {err}"
        assert "seat" in out
