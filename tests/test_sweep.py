"""Sweeps: the grid, common random numbers, exact sums, and the same table however
it is run (in-process, on a local Dask cluster, resumed after an interruption, or
played again from its run.json)."""

import json
import math

import numpy as np
import pandas as pd
import pytest

import analyzer.sweep as S
from analyzer import cli
from analyzer.errors import WantitError
from analyzer.simulate import simulate

GRID = {"take_threshold": [0.1, 0.3, 0.4]}
SMALL = dict(players=4, deals=6_000, chunk=2_000, seed=5, field="heuristic")  # a field that stays put


def test_a_range_includes_both_ends_and_lists_are_taken_as_given():
    assert S.parse_values("0:1:0.25", "x") == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert S.parse_values("0.1:0.3:0.1", "x") == [0.1, 0.2, 0.3]  # 0.1 * 3 is 0.30000000000000004
    assert S.parse_values("0:1:0.3", "x") == [0.0, 0.3, 0.6, 0.9]
    assert S.parse_values("0.5, 0, 2", "x") == [0.5, 0.0, 2.0]
    assert S.parse_values("7", "x") == [7.0]


def test_the_grid_is_every_combination_first_parameter_slowest():
    grid = S.parse_grid(["take_threshold=0,1", "deny_weight=0:1:0.5"], "sr")
    assert S.grid_points(grid) == [
        {"take_threshold": a, "deny_weight": b} for a in (0.0, 1.0) for b in (0.0, 0.5, 1.0)]


def test_a_point_is_the_simulation_of_its_policies():
    """Point k of a sweep is a run of ``simulate`` with the swept seat on the point's
    values: the same deals (seed 5, deals 0..5999, in chunks of another size), so
    the same numbers."""
    r = S.sweep("sr", GRID, write=False, **SMALL)
    for k, x in enumerate(GRID["take_threshold"]):
        sim = simulate("sr", players=4, deals=6_000, seed=5,
                       policies={"all": "heuristic", 0: f"heuristic:take_threshold={x}"}).seats
        for metric in ("ev", "p_high", "p_low", "p_scoop"):
            part = r.table[(r.table.point == k) & (r.table.metric == metric)].sort_values("seat")
            assert np.allclose(part.value, sim[metric], rtol=0, atol=1e-12), (k, metric)
        ev = r.table[(r.table.point == k) & (r.table.metric == "ev")].sort_values("seat")
        assert np.allclose(ev.se, sim.ev_se, rtol=1e-9, atol=0)


def test_nets_sum_to_zero_and_differences_are_deal_by_deal():
    settings = S.sweep_settings("sr", grid=GRID, **SMALL)
    sums, interrupted, _ = S.run_sweep(settings)
    assert not interrupted and sums.deals == 6_000
    n = settings["players"]
    for x1, x2, d1, d2 in sums.sums:
        assert sum(x1[:n]) == 0  # Selection/Rejection's pot is all paid out: the nets are zero-sum, exactly
        assert sum(d1[:n]) == 0
    t = S.sweep_table(sums)
    ref = settings["reference"]
    assert ref == 0  # the heuristic's own take_threshold, 0.1, is point 0
    at_ref = t[t.point == ref]
    assert (at_ref["diff"] == 0).all() and (at_ref.diff_se == 0).all()
    for k in (1, 2):
        here = t[t.point == k].reset_index(drop=True)
        there = at_ref.reset_index(drop=True)
        assert np.allclose(here["diff"], here.value - there.value, rtol=0, atol=1e-12)
    # Common random numbers: every point is measured on the same deals, so its
    # difference from the reference is far more precise than it would be from two
    # independent runs of the same size (whose error is the two errors combined).
    ev = t[(t.metric == "ev") & (t.seat == 0)].set_index("point")
    for k in (1, 2):
        assert ev.diff_se[k] < 0.8 * math.hypot(ev.se[k], ev.se[ref])


def test_a_selection_sweep_shares_every_game_among_the_seats():
    settings = S.sweep_settings("selection", grid={"par_weight": [0.0, 1.0]}, players=3, deals=300, chunk=150,
                                seed=2)
    sums, _, _ = S.run_sweep(settings)
    for x1, _, d1, _ in sums.sums:
        assert sum(x1[:3]) == 60 * 300  # a win shared by k <= 6 seats is 60 / k sixtieths each
        assert sum(d1[:3]) == 0


def test_a_solitaire_selection_sweep_ranks_by_the_final_total():
    """At one player every win is the player's (p_win is 1 at every point), so the
    sweep ranks by the final total: each point's is the simulation's mean total on
    the same games."""
    values = [0.0, 1.0, 2.0]
    r = S.sweep("selection", {"par_weight": values}, players=1, deals=400, chunk=200, seed=3, write=False)
    assert r.primary == "total"
    for k, x in enumerate(values):
        sim = simulate("selection", players=1, deals=400, seed=3, policies={0: f"tuned:par_weight={x}"}).seats
        row = r.summary.iloc[k]
        assert row.total == pytest.approx(sim.mean_total[0], rel=0, abs=1e-9)
        assert row.total_se == pytest.approx(sim.total_se[0], rel=1e-9)
    assert r.best.point == r.summary.total.idxmax()
    assert "total in points" in " ".join(r.format_table().split())


def test_in_process_on_dask_and_resumed_the_table_is_the_same(tmp_path, monkeypatch):
    args = dict(grid=GRID, results=tmp_path, charts=False, **SMALL)
    whole = S.sweep("sr", run_id="whole", threads=1, **args).table

    calls = []
    real = S.chunk_sums
    monkeypatch.setattr(S, "chunk_sums", lambda *a: calls.append(a[1]) or real(*a))

    def interrupt_after_first(done, total):
        raise KeyboardInterrupt

    part = S.sweep("sr", run_id="cut", progress=interrupt_after_first, **args)
    assert part.meta["interrupted"] and part.meta["chunks_done"] == 1
    assert not (tmp_path / "selection_rejection" / "cut" / "table.csv").exists()
    resumed = S.sweep("sr", resume=True, **args)  # finds the unfinished run by its settings
    assert resumed.folder == tmp_path / "selection_rejection" / "cut"
    assert sorted(calls) == [0, 1, 2]  # every chunk played once: none lost, none twice
    pd.testing.assert_frame_equal(resumed.table, whole)
    monkeypatch.undo()

    dask = S.sweep("sr", run_id="dask", workers=2, **args).table
    pd.testing.assert_frame_equal(dask, whole)
    assert pd.read_parquet(tmp_path / "selection_rejection" / "dask" / "table.parquet").equals(whole)


def test_run_json_plays_the_same_table_again(tmp_path):
    first = S.sweep("sr", {"take_threshold": [0.1, 0.5], "deny_weight": [0.0, 0.5]}, results=tmp_path,
                    run_id="a", **SMALL)
    run = json.loads((first.folder / "run.json").read_text())
    assert run["settings"]["seed"] == 5 and run["meta"]["deals"] == 6_000
    assert {"version", "git_commit", "python", "numba", "written"} <= set(run)
    again = S.rerun(first.folder / "run.json", results=tmp_path, run_id="b", charts=False)
    pd.testing.assert_frame_equal(again.table, first.table)
    pd.testing.assert_frame_equal(pd.read_csv(again.folder / "table.csv"), pd.read_csv(first.folder / "table.csv"))


def test_charts_open_as_images_of_the_stated_size(tmp_path):
    import matplotlib.image

    r = S.sweep("sr", {"take_threshold": [0.1, 0.5], "deny_weight": [0.0, 0.5]}, results=tmp_path, run_id="c",
                **SMALL)
    charts = [f for f in r.files if f.endswith(".png")]
    assert charts == ["ev_take_threshold.png", "ev_deny_weight.png", "ev_take_threshold_deny_weight.png"]
    for name in charts:
        assert matplotlib.image.imread(r.folder / name).shape[:2] == (500, 800)


def test_a_run_is_continued_only_with_its_own_settings(tmp_path):
    args = dict(grid=GRID, results=tmp_path, run_id="r", charts=False, **SMALL)
    S.sweep("sr", **args)
    with pytest.raises(WantitError, match="already holds a run"):
        S.sweep("sr", **args)
    with pytest.raises(WantitError, match="made by another sweep"):
        S.sweep("sr", **{**args, "seed": 6}, resume=True)
    sums = tmp_path / "selection_rejection" / "r" / "sums.json"
    saved = json.loads(sums.read_text())
    saved["done"] = [0, 0]
    sums.write_text(json.dumps(saved))
    with pytest.raises(WantitError, match="damaged"):
        S.sweep("sr", **args, resume=True)


def test_the_command_line_prints_the_points_and_writes_the_run(tmp_path, capsys):
    cli.main(["sweep", "sr", "-n", "4", "--param", "take_threshold=0.1,0.4", "-d", "4000", "--seed", "5",
              "--results", str(tmp_path), "--run-id", "cli", "--no-charts"])
    out = capsys.readouterr().out
    assert "4,000 deals a point" in out and "best: point" in out
    assert (tmp_path / "selection_rejection" / "cli" / "table.parquet").exists()
    cli.main(["sweep", "--from", str(tmp_path / "selection_rejection" / "cli" / "run.json"), "--results",
              str(tmp_path), "--run-id", "again", "--format", "json", "--no-charts"])
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert [row["take_threshold"] for row in summary] == [0.1, 0.4]


@pytest.mark.parametrize("bound", [1_000, (1 << 20) - 1, 1 << 36])
def test_exact_sums_are_the_integer_sums_whatever_the_size_of_the_values(bound):
    from analyzer.simulate import exact_sums

    x = np.random.default_rng(bound).integers(-bound, bound + 1, size=(3_000, 3), dtype=np.int64)
    x[0, 0] = bound  # the largest magnitude is in the data
    total, squares = exact_sums(x)
    assert total == [sum(int(v) for v in x[:, c]) for c in range(3)]
    assert squares == [sum(int(v) * int(v) for v in x[:, c]) for c in range(3)]


def test_ctrl_c_keeps_the_finished_chunks_and_says_how_to_go_on(tmp_path, monkeypatch, capsys):
    real, calls = S.chunk_sums, []

    def cut_at_second(*args):
        calls.append(args[1])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(S, "chunk_sums", cut_at_second)
    argv = ["sweep", "sr", "-n", "4", "--param", "take_threshold=0.1,0.4", "-d", "4000", "--chunk", "2000",
            "--results", str(tmp_path), "--run-id", "cut", "--no-charts", "--policy", "all=heuristic"]
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    said = capsys.readouterr()
    assert stop.value.code == 130
    assert "(interrupted:" in said.out and "sums.json" in said.out and "after 1 of 2 chunks" in said.err and "--resume" in said.err
    monkeypatch.setattr(S, "chunk_sums", real)
    cli.main(argv + ["--resume"])
    assert "4,000 deals a point" in capsys.readouterr().out


@pytest.mark.parametrize("bound", [3, (1 << 20) - 1, 1 << 20, 1 << 36])
def test_paired_sums_are_exact_in_the_kernel_and_beyond_it(bound):
    """The one-pass kernel sums while int64 holds them; larger values go to the exact
    Python sums; either way the sums of x, x**2, d and d**2 are the integer ones."""
    rng = np.random.default_rng(bound)
    x = rng.integers(-bound, bound + 1, size=(2_000, 4), dtype=np.int64)
    ref = rng.integers(-bound, bound + 1, size=(2_000, 4), dtype=np.int64)
    x[0, 0] = bound
    got = S._paired_sums(x, ref)
    d = x - ref
    assert got == [[sum(int(v) for v in col) for col in x.T], [sum(int(v) ** 2 for v in col) for col in x.T],
                   [sum(int(v) for v in col) for col in d.T], [sum(int(v) ** 2 for v in col) for col in d.T]]


@pytest.mark.parametrize("damage,message", [
    (lambda s: s.update(rules=[1]), "rules should be a table of name = value"),
    (lambda s: s.update(game_settings=[1]), "game_settings should be a table"),
    (lambda s: s.update(field=[1, 2, 3]), "field should be a list of one policy table a seat"),
    (lambda s: s.update(field="tuned"), "field should be a list of one policy table a seat"),
    (lambda s: s.update(field=s["field"][:2]), "field has 2 seats for 3 players"),
    (lambda s: s.update(grid={"take_threshold": [0, 1]}), "grid should be a list of [parameter, values] pairs"),
    (lambda s: s.update(grid=[["take_threshold", [0, 1], 3]]), "grid should be a list of [parameter, values]"),
    (lambda s: s.pop("seed"), "its settings have no seed"),
])
def test_a_damaged_run_json_is_one_error_before_any_deal(tmp_path, damage, message):
    settings = S.sweep_settings("sr", players=3, grid={"take_threshold": [0, 1]}, deals=100)
    damage(settings)
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"settings": settings}))
    with pytest.raises(WantitError, match=f"run.json is damaged: {message}".replace("[", "\\[").replace("]", "\\]")):
        S.rerun(path, results=tmp_path)


def test_the_field_line_wraps_between_settings_not_inside_one(tmp_path):
    # It wrapped inside names and numbers ("low_ma" / "x=8", "deny_weight=0.3" / "148").
    many = "heuristic:aim=2,low_max=7,deny_weight=0.3148,draw_weight=0.115,declare_low_top=9,declare_both_category=5"
    r = S.sweep("sr", {"take_threshold": [0, 1]}, players=3, deals=200, field=many, results=tmp_path,
                charts=False)
    field = [line for line in r.format_table().splitlines() if line.startswith("field:")]
    assert len(r.format_table().split("field:")[1].split("\npoint")[0].splitlines()) > 2  # it wraps
    text = r.format_table().split("field:")[1].split("\npoint")[0]
    settings = [x.strip() for part in text.split(";") for x in part.split(":", 1)[-1].split(",")]
    assert field and all(x.count("=") == 1 and "\n" not in x for x in settings if x), settings


def test_the_field_line_names_what_differs_from_the_tuned_values_at_the_table_size():
    """A tuned seat is shown against the values tuned at the sweep's player count: at 3
    players every setting had been listed, as it differs from the 5-player tuning."""
    r = S.sweep("do_ya", {"take_threshold": [0.5, 1.0]}, players=3, deals=200, seed=1, write=False,
                field={"all": "tuned", 2: "tuned:deny_weight=0"})
    field = " ".join(r.format_table().split("field:")[1].split("\npoint")[0].split())
    assert field == "0=tuned; 1=tuned; 2=tuned:deny_weight=0"
