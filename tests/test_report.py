"""wantit report: every file it lists is written (charts as 800x500 images), the
numbers behave as independently known facts say (zero-sum nets by position, shares
adding to the pot, the tuned presets as shipped), every strategy-card claim carries
an interval, the card's sentences follow the numbers, and an interrupted report
resumes to the same tables."""

import json

import pandas as pd
import pytest

from analyzer import report as R
from analyzer.cli import main
from analyzer.errors import WantitError
from analyzer.presets import TUNED_FILE

SCALE = 0.01


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    return root, R.report(root, scale=SCALE)


def test_every_listed_file_is_written_and_every_chart_is_800_by_500(made):
    from matplotlib.image import imread

    root, r = made
    assert set(r.cards) == {"selection_rejection", "do_ya", "anaconda", "train_wreck", "selection"}
    for name in r.files:
        path = r.folder / name
        assert path.is_file(), name
        if name.endswith(".png"):
            assert imread(path).shape[:2] == (500, 800), name
    index = (r.folder / "README.md").read_text()
    for name in r.files:
        if name != "README.md" and not name.startswith("tuned"):
            assert f"({name})" in index, name


def test_nets_by_position_sum_to_zero_and_selection_wins_to_one(made):
    _, r = made
    for name, frames in r.frames.items():
        p = frames["position"]
        if name == "selection":
            assert p.value.sum() == pytest.approx(1.0, abs=1e-9)  # ties shared, so the wins add to 1
        else:
            assert p.value.sum() == pytest.approx(0.0, abs=1e-9)  # every chip won was put in by a seat
        assert list(p.position) == list(range(1, len(p) + 1))


def test_the_example_equities_share_out_the_whole_pot(made):
    _, r = made
    for name, part in (("selection_rejection", "refusal"), ("train_wreck", "pair_of_fives")):
        frame = r.frames[name][part]
        for case, rows in frame.groupby("case"):
            assert rows.share.sum() == pytest.approx(1.0, abs=1e-9), (name, case)
    cases = r.frames["selection_rejection"]["refusal"]
    assert set(cases.case) == {"take", "refuse"} and len(cases) == 10


def test_the_winning_lows_and_hands_are_distributions(made):
    _, r = made
    for n, part in r.frames["anaconda"]["low_wins"].groupby("players"):
        assert part.probability.sum() == pytest.approx(1.0, abs=1e-9)
    for n, part in r.frames["train_wreck"]["winning_hands"].groupby("players"):
        assert part.probability.sum() == pytest.approx(1.0, abs=1e-9)  # high only: every pot has a high winner
    for name in ("selection_rejection", "do_ya", "anaconda"):  # declare: a pot where all go low has no high half
        for n, part in r.frames[name]["winning_hands"].groupby("players"):
            assert 0.5 < part.probability.sum() <= 1.0 + 1e-9
    five = r.frames["do_ya"]["five_of_a_kind"]
    # the high half goes to five of a kind only in a deal where some seat made it
    assert (five.p_wins <= five.p_made * five.players + 1e-12).all()
    slots = r.frames["selection"]["slots"]
    assert (slots.fill_rate + slots.scratch_rate).round(12).eq(1.0).all()
    assert slots.loc[slots.id == "cosmopolitan", "fill_rate"].iloc[0] == 1.0  # it opens the board (RULES §5.3 a)


def test_the_tuned_table_is_the_shipped_presets():
    table = R.tuned_table()
    shipped = json.loads(TUNED_FILE.read_text())
    assert len(table.groupby(["variant", "players"])) == sum(len(v) for v in shipped.values())
    for row in table.itertuples():
        entry = shipped[row.variant][str(row.players)]
        assert row.tuned == entry["values"][row.parameter]
        assert row.exploitability == entry["exploitability"]["gain"]


def test_every_claim_of_every_card_carries_an_interval(made):
    _, r = made
    for name, card in r.cards.items():
        claims = [line for line in card.splitlines() if line.startswith("- ")]
        assert len(claims) >= 5, name
        for claim in claims:
            assert "±" in claim, (name, claim)


def _summary(diffs):
    rows = [{"point": i, "x": float(i), "ev": 0.1 + d, "ev_se": 0.01, "diff": d, "diff_se": se,
             "reference": i == 0, "players": 5, "deals": 1000} for i, (d, se) in enumerate(diffs)]
    return pd.DataFrame(rows)


def test_the_sweep_sentences_follow_the_numbers():
    better = R.sweep_claims(_summary([(0, 0), (0.05, 0.01), (-0.2, 0.02)]), "do_ya")
    assert "x=1 does better, by +0.050 ± 0.020" in better[1]
    assert "x=2, costs +0.200 ± 0.039" in better[2]
    noise = R.sweep_claims(_summary([(0, 0), (0.01, 0.01), (-0.2, 0.02)]), "do_ya")
    assert "No value tried beats it beyond the noise" in noise[1]
    same = R.sweep_claims(_summary([(0, 0), (0.0, 0.0), (-0.2, 0.02)]), "do_ya")
    assert "plays exactly as it on every deal" in same[1]


def test_position_sentences_say_when_the_gap_is_noise():
    frame = pd.DataFrame({"position": [1, 2, 3], "value": [0.1, 0.0, -0.1], "se": [0.01, 0.01, 0.01],
                          "players": 3, "deals": 100, "metric": "ev"})
    assert "Position is worth +0.200 ± 0.028" in R.position_claims(frame, "do_ya")[0]
    assert "the dealer worst" in R.position_claims(frame, "do_ya")[0]
    frame["se"] = 0.2
    assert "within the noise" in R.position_claims(frame, "do_ya")[0]


def test_an_interrupted_report_resumes_to_the_same_tables(made, tmp_path):
    _, whole = made
    said = []

    def stop_after_three(line):
        said.append(line)
        if len(said) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        R.report(tmp_path, variants=["selection_rejection", "do_ya"], scale=SCALE, say=stop_after_three)
    state = json.loads((tmp_path / "report" / "report.json").read_text())
    assert len(state["parts"]) == 3
    r = R.report(tmp_path, variants=["selection_rejection", "do_ya"], scale=SCALE, resume=True)
    assert r.resumed == list(state["parts"])
    for name in ("selection_rejection", "do_ya"):
        for part, frame in r.frames[name].items():
            fresh = pd.read_csv(whole.folder / name / f"{part}.csv")
            pd.testing.assert_frame_equal(pd.read_csv(r.folder / name / f"{part}.csv"), fresh)
        assert r.cards[name] == whole.cards[name]
    with pytest.raises(WantitError, match="was made with"):
        R.report(tmp_path, variants=["do_ya"], scale=SCALE * 2, resume=True)


def test_the_command_prints_the_claims_and_the_index(tmp_path, capsys):
    main(["report", "--results", str(tmp_path), "--variant", "train_wreck", "--scale", str(SCALE)])
    out = capsys.readouterr().out
    words = " ".join(out.split())  # the claims are wrapped at 100 columns
    assert "train_wreck/strategy.md:" in out and "with the 5s' steal switched off" in words
    assert f"index of every table and chart: {tmp_path / 'report' / 'README.md'}" in words
    assert max(len(line) for line in out.splitlines() if "/" not in line) <= 100  # paths may be longer
