"""The wantit command line: output, JSON fields, and one-line errors with a non-zero exit."""

import json
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
