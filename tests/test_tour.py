"""``wantit tour``, the README's main job, at a small scale: every variant's sweep,
chart and run.json, the pot games' winning hands, and a summary that fits 100
columns."""

import matplotlib.image
import pandas as pd

from analyzer import cli
from analyzer.tour import TOUR, tour


def test_the_tour_writes_every_variant_and_says_what_it_shows(tmp_path, capsys):
    cli.main(["tour", "--results", str(tmp_path), "--scale", "0.02"])
    out = capsys.readouterr().out
    assert all(len(line) <= 100 for line in out.splitlines())
    for name in TOUR:
        folder = tmp_path / name / "tour"
        assert (folder / "run.json").exists() and (folder / "table.parquet").exists()
        assert str(folder) in out
        charts = sorted(folder.glob("*.png"))
        assert charts and all(matplotlib.image.imread(c).shape[:2] == (500, 800) for c in charts)
    hands = pd.read_parquet(tmp_path / "do_ya" / "tour" / "winning_hands.parquet")
    assert sorted(hands.players.unique()) == [3, 5, 7]
    for _, part in hands.groupby("players"):
        assert abs(part.probability.sum() - 1) < 1e-9  # someone wins the high half of every deal (cards speak
        # or declared: a deal whose high half nobody won would be a missing category)
    assert not (tmp_path / "selection" / "tour" / "winning_hands.csv").exists()  # scored: no pot halves


def test_a_second_tour_replaces_the_first(tmp_path):
    first = tour(tmp_path, variants=["sr"], scale=0.01)
    again = tour(tmp_path, variants=["sr"], scale=0.01)
    assert first[0]["folder"] == again[0]["folder"]
    pd.testing.assert_frame_equal(first[0]["sweep"].table, again[0]["sweep"].table)
