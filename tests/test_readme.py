"""The README's examples run as written: every ``wantit`` command of its shell blocks
(with fewer deals) and every Python block."""

import re
import shlex
from pathlib import Path

import pytest

from analyzer.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, re.DOTALL)


def shell_commands():
    commands = []
    for lang, body in BLOCKS:
        if lang != "bash":
            continue
        for line in body.replace("\\\n", " ").splitlines():
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words and words[0] == "wantit":
                    commands.append(words[1:])
    return commands


def smaller(args):
    """The same command with at most 2,000 deals (200 Selection games); paths of the
    repository's files made absolute."""
    out, i = [], 0
    games = "selection" in args
    while i < len(args):
        a = args[i]
        if a in ("-d", "--deals"):
            out += [a, str(min(int(args[i + 1]), 200 if games else 2000))]
            i += 2
            continue
        out.append(str(ROOT / a) if a.startswith("examples/") else a)
        i += 1
    if args and args[0] == "simulate" and not {"-d", "--deals"} & set(args):
        out += ["-d", "200" if games else "2000"]
    if args and args[0] in ("tour", "report"):
        out += ["--scale", "0.01"]
        if args[0] == "report":  # into the test's own folder, not the committed results/
            if "--results" in out:
                out[out.index("--results") + 1] = "."
            else:
                out += ["--results", "."]
    if args and args[0] in ("best-response", "tune"):  # a small race: its first round, its check, 2 rounds
        out += ["--deals", "300", "--candidates", "3", "--validate", "2000"]
        if args[0] == "tune":
            out += ["--iterations", "2"]
    return out


COMMANDS = shell_commands()


def test_the_readme_shows_the_commands_of_every_kind():
    kinds = {c[0] for c in COMMANDS}
    assert {"simulate", "deal", "variants", "rules", "hand", "warmup", "tour", "sweep", "best-response",
            "tune", "report"} <= kinds
    assert len(COMMANDS) >= 20


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_every_readme_command_runs(args, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # the checkpoint example writes run.json here
    try:
        main(smaller(args))
    except SystemExit as e:
        pytest.fail(f"exit {e.code}: {capsys.readouterr().err}")
    said = capsys.readouterr()
    assert (said.out + said.err).strip()


PYTHON = [body for lang, body in BLOCKS if lang == "python"]


@pytest.mark.parametrize("index", range(len(PYTHON)))
def test_every_readme_python_block_runs(index, monkeypatch):
    code = PYTHON[index]
    # Fewer deals, games and hands than the README's, to keep the suite fast.
    code = re.sub(r"\b(deals|games|count)=[\d_]+", r"\1=2_000", code)
    code = code.replace("1_000_000", "20_000")
    monkeypatch.chdir(ROOT)  # examples/ as the README's paths say; no block writes a file
    exec(compile(code, f"README python block {index}", "exec"), {})
