"""Every notebook in notebooks/ runs top to bottom at a small size, both as a plain
script and as a Jupyter notebook (jupytext reads the percent format, nbclient runs
it), and no output is lost in either: a cell never ends in a bare value (which a
script would drop), every titled ``show`` and every ``show_chart`` reaches the
script's stdout, and in Jupyter every ``show_chart`` is an image in its cell."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))
SMALL = {"WANTIT_NOTEBOOK_SCALE": "0.01", "WANTIT_NOTEBOOK_DEALS": "2000", "MPLBACKEND": "Agg"}
SHOWN = ("show", "show_chart", "print")


def code_cells(path):
    import jupytext

    nb = jupytext.read(path)
    return [cell.source for cell in nb.cells if cell.cell_type == "code"]


def calls(source, name):
    """The calls of ``name`` in ``source``: (node, has a title)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            found.append((node, len(node.args) > 1 or any(k.arg == "title" for k in node.keywords)))
    return found


def test_there_is_a_notebook_per_variant():
    from analyzer.variants import VARIANTS

    assert {p.stem for p in NOTEBOOKS} >= set(VARIANTS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_cell_ends_in_a_value_a_script_would_drop(path):
    for source in code_cells(path):
        body = ast.parse(source).body
        if body and isinstance(body[-1], ast.Expr):
            value = body[-1].value
            assert isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in SHOWN, (
                f"{path.name}: a cell ends in a bare value, lost when run as a script:\n{source}")


def _environment(tmp_path):
    return {**os.environ, **SMALL, "WANTIT_NOTEBOOK_OUT": str(tmp_path / "charts")}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_as_a_script_and_prints_everything_it_shows(path, tmp_path):
    done = subprocess.run([sys.executable, str(path)], cwd=ROOT, env=_environment(tmp_path), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    source = path.read_text()
    titled = sum(t for _, t in calls(source, "show"))
    charts = len(calls(source, "show_chart"))
    lines = done.stdout.splitlines()
    assert sum(line.startswith("== ") for line in lines) == titled
    drawn = [Path(line.removeprefix("chart: ")) for line in lines if line.startswith("chart: ")]
    assert len(drawn) == charts
    for chart in drawn:
        assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_in_jupyter_with_its_outputs(path, tmp_path, monkeypatch):
    import jupytext
    from nbclient import NotebookClient

    for key, value in _environment(tmp_path).items():
        monkeypatch.setenv(key, value)
    nb = jupytext.read(path)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    images = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert not [o for o in cell.outputs if o.output_type == "error"]
        if calls(cell.source, "show") or calls(cell.source, "show_chart"):
            assert cell.outputs, f"no output from:\n{cell.source}"
        images += sum("image/png" in o.get("data", {}) for o in cell.outputs)
    assert images == len(calls(path.read_text(), "show_chart"))
