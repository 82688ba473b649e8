"""Every notebook in notebooks/ runs top to bottom at a small size."""

import runpy
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.py"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("WANTIT_NOTEBOOK_DEALS", "2000")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace = runpy.run_path(str(path), run_name="__main__")
    assert "DEALS" in namespace and namespace["DEALS"] == 2000
