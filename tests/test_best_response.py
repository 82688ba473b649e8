"""Best responses and iterated best response: each finds what a brute-force sweep
finds, and the tuned field it stops at gains nothing to any tested deviation."""

import json

import pytest

import analyzer.presets as presets
from analyzer.best_response import best_response, candidates_of, parse_space, tune
from analyzer.errors import WantitError
from analyzer.simulate import seat_policies
from analyzer.sweep import Z95, sweep
from analyzer.variants import get_variant

THRESHOLDS = [0.0, 0.2, 0.5, 1.0, 2.0]


def stop_after_first(done, total):
    """A progress callback that interrupts the run after its first step."""
    raise KeyboardInterrupt


def test_the_race_finds_the_brute_force_optimum_of_one_parameter():
    """Do Ya, seat 0's take_threshold against the heuristic field: a sweep of every
    value on 20,000 deals finds the best by a margin far beyond its noise; the race,
    on a twentieth of the deals per candidate at first, finds the same value."""
    brute = sweep("do_ya", {"take_threshold": THRESHOLDS}, players=4, deals=20_000, seed=11, field="heuristic",
                  write=False).summary
    ranked = brute.sort_values("ev", ascending=False).reset_index(drop=True)
    best, runner_up = ranked.iloc[0], ranked.iloc[1]
    assert best["diff"] - runner_up["diff"] > 4 * (best.diff_se + runner_up.diff_se)  # decisive
    found = best_response("do_ya", {"take_threshold": THRESHOLDS}, players=4, seed=3, deals=1_000,
                          validate=20_000, field="heuristic", write=False)
    assert found.winner == {"take_threshold": best.take_threshold}
    assert found.meta["candidates"] == len(THRESHOLDS) + 1  # every value, and the seat's own 0.1
    assert found.gain - Z95 * found.gain_se > 0
    # The race doubles the deals each round and halves the field, until one is left:
    # 6 candidates race 3 rounds (6, 3, 2 alive), not a fourth of the winner alone; the
    # seat's own parameters race every round, as the reference.
    assert found.meta["round_deals"] == [1_000 * 2**k for k in range(found.meta["rounds"])]
    assert found.meta["rounds"] == 3 and sorted(found.candidates["round"]) == [0, 0, 1, 2, 2, 2]


def test_anaconda_aiming_high_against_the_heuristic_field_is_found():
    """The issue's own measurement: against four heuristic seats, 'always aim high'
    wins about +0.69 antes a deal at five players."""
    found = best_response("anaconda", ["aim=0,1,2"], players=5, seed=1, deals=1_000, validate=20_000,
                          field="heuristic", write=False)
    assert found.winner == {"aim": 0.0}
    assert 0.6 < found.gain < 0.8


def test_a_solitaire_selection_best_response_maximises_the_final_total():
    """At one player the share of the wins is always 1, so every candidate tied and
    the seat's own parameters won: the race now runs on the final total, and finds
    the sweep's best par_weight against an own value of 0."""
    values = [0.0, 1.0, 2.0]
    own = "tuned:par_weight=0"
    brute = sweep("selection", {"par_weight": values}, players=1, deals=4_000, seed=11, field=own,
                  write=False).summary.sort_values("total", ascending=False).reset_index(drop=True)
    best, runner_up = brute.iloc[0], brute.iloc[1]
    assert best["diff"] - runner_up["diff"] > 4 * (best.diff_se + runner_up.diff_se)  # decisive
    found = best_response("selection", {"par_weight": values}, players=1, seed=3, deals=500, validate=4_000,
                          field=own, write=False)
    assert found.winner == {"par_weight": best.par_weight}
    assert found.gain - Z95 * found.gain_se > 0  # points a game over the own par_weight of 0
    assert "other games: total +" in " ".join(found.format_table().split())


def test_iterated_best_response_stops_where_no_tested_deviation_gains():
    """Tuning Do Ya's take_threshold over five values: at the end, a sweep of every
    value for one seat against the tuned field gains nothing beyond the noise."""
    space = {"take_threshold": THRESHOLDS}
    tuned = tune("do_ya", space, players=4, seed=2, deals=1_000, validate=20_000, tolerance=0.01, start="heuristic",
                 write=False)
    assert tuned.meta["converged"]
    assert tuned.exploitability["gain"] - Z95 * tuned.exploitability["gain_se"] <= 0.01
    field = {"all": {"preset": "heuristic", **tuned.tuned}}
    check = sweep("do_ya", space, players=4, field=field, deals=20_000, seed=99, write=False).summary
    assert (check["diff"] - Z95 * check.diff_se <= 0.01).all(), check


def test_candidates_are_every_combination_or_distinct_draws_in_range():
    v = get_variant("sr")
    space = parse_space(["aim=0,1,2", "deny_weight=0,1"], v)
    assert len(candidates_of(space, 32, 0, v)) == 6
    drawn = candidates_of(parse_space(["take_threshold=-0.5:3", "low_max=5:13"], v), 40, 0, v,
                          around={"take_threshold": 0.1, "low_max": 8})
    assert len(drawn) == 40 and len({tuple(p.values()) for p in drawn}) == 40
    assert all(-0.5 <= p["take_threshold"] <= 3 and p["low_max"] in range(5, 14) for p in drawn)


@pytest.mark.parametrize("items, message", [
    (["take_threshold=1:0"], "needs HIGH > LOW"),
    (["take_threshold=0:x"], "give LOW:HIGH"),
    (["aim=0:9:1"], "out of range"),
    (["bogus=0:1"], "no parameter 'bogus'"),
    (["aim=0,1", "aim=2"], "given twice"),
])
def test_a_bad_search_space_is_refused(items, message):
    with pytest.raises(WantitError, match=message):
        parse_space(items, "sr")


def test_the_tuned_preset_is_the_saved_values_at_the_nearest_player_count(tmp_path, monkeypatch):
    path = tmp_path / "tuned.json"
    for n, x in ((3, 0.7), (5, 0.9)):
        presets.save_tuned("do_ya", n, {"preset": "heuristic", "take_threshold": x}, {"gain": 0.0}, {"n": n},
                           path=path)
    saved = json.loads(path.read_text())
    assert list(saved["do_ya"]) == ["3", "5"]
    monkeypatch.setattr(presets, "TUNED_FILE", path)
    v = get_variant("do_ya")
    heuristic = v.policy_values("heuristic")
    at = {n: v.policy_values(seat_policies(v, n, "tuned")[0]) for n in (3, 4, 5, 7)}
    assert [at[n]["take_threshold"] for n in (3, 4, 5, 7)] == [0.7, 0.7, 0.9, 0.9]  # 4 is nearer 3 on a tie
    assert all(at[n]["preset"] == "tuned" and at[n]["pool_threshold"] == heuristic["pool_threshold"] for n in at)
    changed = v.policy_values(seat_policies(v, 5, {"all": "tuned:deny_weight=0"})[2])
    assert changed == {**heuristic, "take_threshold": 0.9, "deny_weight": 0.0, "preset": "tuned"}
    assert v.policy_values("tuned")["take_threshold"] == 0.9  # by name alone: the default 5 players
    assert "tuned" in v.preset_names
    with pytest.raises(WantitError, match="no tuned preset yet"):
        seat_policies(get_variant("sr"), 5, "tuned")


@pytest.fixture
def clusters_started(monkeypatch):
    """The keyword arguments of every Dask ``LocalCluster`` started from now on."""
    import dask.distributed

    started = []
    real = dask.distributed.LocalCluster

    def counted(*a, **kw):
        started.append(kw)
        return real(*a, **kw)

    monkeypatch.setattr(dask.distributed, "LocalCluster", counted)
    return started


def test_a_tuning_on_dask_workers_starts_one_cluster_and_finds_the_same_result(clusters_started):
    """Every round of every best response of a tuning runs on one local cluster,
    started once (not one a round), and plays the same deals as in this process."""
    args = dict(space={"take_threshold": THRESHOLDS}, players=3, seed=4, deals=300, validate=3_000,
                start="heuristic", write=False)
    here = tune("do_ya", **args)
    on_dask = tune("do_ya", workers=1, **args)
    assert len(clusters_started) == 1 and clusters_started[0]["n_workers"] == 1
    assert sum(step["candidates"] > 0 for _, step in on_dask.steps.iterrows()) >= 2  # several best responses
    assert on_dask.steps.equals(here.steps) and on_dask.tuned == here.tuned


def test_an_interrupted_tuning_resumes_to_the_same_result(tmp_path):
    args = dict(space={"take_threshold": THRESHOLDS}, players=3, seed=4, deals=300, validate=3_000,
                results=tmp_path, start="heuristic")
    whole = tune("do_ya", run_id="whole", **args)

    with pytest.raises(KeyboardInterrupt):
        tune("do_ya", run_id="cut", progress=stop_after_first, **args)
    saved = json.loads((tmp_path / "do_ya" / "cut" / "tune.json").read_text())
    assert len(saved["steps"]) == 1
    resumed = tune("do_ya", resume=True, **args)  # the unfinished run, found by its settings
    assert resumed.folder == tmp_path / "do_ya" / "cut"
    assert resumed.steps.equals(whole.steps) and resumed.tuned == whole.tuned
    assert len(whole.steps) >= 2


def test_a_finished_tuning_resumed_on_dask_workers_starts_no_cluster(tmp_path, clusters_started):
    """Resuming a tuning that had finished plays nothing, so it starts no cluster
    (a local one takes a second or more) and gives the same result."""
    args = dict(space={"take_threshold": THRESHOLDS}, players=3, seed=4, deals=300, validate=3_000,
                results=tmp_path, start="heuristic", run_id="done")
    whole = tune("do_ya", **args)
    again = tune("do_ya", resume=True, workers=1, **args)
    assert clusters_started == []
    assert again.steps.equals(whole.steps) and again.tuned == whole.tuned


def test_a_saved_tuning_is_the_default_field_and_names_no_preset_but_its_base(tmp_path, monkeypatch):
    monkeypatch.setattr(presets, "TUNED_FILE", tmp_path / "tuned.json")
    v = get_variant("do_ya")
    assert v.default_preset == "heuristic"
    first = tune("do_ya", {"take_threshold": THRESHOLDS}, players=3, seed=4, deals=300, validate=3_000, write=False,
                 save=True)
    assert v.default_preset == "tuned"
    entry = json.loads((tmp_path / "tuned.json").read_text())["do_ya"]["3"]
    assert entry["values"]["preset"] == "heuristic" and entry["values"]["take_threshold"] == first.tuned[
        "take_threshold"]
    listing = "\n".join(v.describe())
    assert "default tuned" in listing and f"3 players: {first.exploitability['gain']:+.4f}" in listing
    field = v.policy_values(seat_policies(v, 3, None)[1])  # the default: the tuned preset, at 3 players
    assert field == {**v.policy_values("heuristic"), **first.tuned, "preset": "tuned"}
    # Tuned again from the tuned field (the default start now), and saved over it.
    again = tune("do_ya", {"take_threshold": THRESHOLDS}, players=3, seed=5, deals=300, validate=3_000, write=False,
                 save=True)
    entry = json.loads((tmp_path / "tuned.json").read_text())["do_ya"]["3"]
    assert entry["values"]["preset"] == "heuristic" and entry["settings"]["start"]["preset"] == "tuned"
    assert v.policy_values(seat_policies(v, 3, None)[0])["take_threshold"] == again.tuned["take_threshold"]


def test_an_unconverged_tuning_keeps_the_least_exploitable_field_it_measured():
    """One iteration measures only the starting field: that is what it keeps."""
    r = tune("do_ya", {"take_threshold": THRESHOLDS}, players=4, seed=2, deals=300, validate=3_000, iterations=1,
             polish=0, start="heuristic", write=False)
    assert not r.meta["converged"] and r.tuned == {"take_threshold": 0.1}
    assert list(r.steps.kind) == ["answer", "final"]  # then measured again, afresh
    assert r.exploitability["iteration"] == 1 and r.exploitability["gain"] > 0.3


def test_an_unconverged_tuning_measures_fields_near_the_least_exploitable():
    """After one answer, the first polish step is the half step from the start toward
    that answer; every step's field is measured by a best response against it."""
    space = {"take_threshold": "0:2", "deny_weight": "0:2"}
    r = tune("do_ya", space, players=4, seed=2, deals=300, validate=3_000, iterations=1, polish=2,
             start="heuristic", write=False)
    steps = r.steps
    assert list(steps.kind) == ["answer", "polish", "polish", "final"]
    for name in space:
        start, answer = steps[f"field_{name}"][0], steps[f"answer_{name}"][0]
        assert steps[f"field_{name}"][1] == round(start + 0.5 * (answer - start), 4)
    measured = steps[steps.kind != "final"]
    best = measured.loc[(measured.gain.clip(lower=0) + Z95 * measured.gain_se).idxmin()]  # a loss counts as none
    assert r.tuned == {name: best[f"field_{name}"] for name in space}
    assert {name: steps[f"field_{name}"].iloc[-1] for name in space} == r.tuned
    assert r.exploitability["gain"] == steps.gain.iloc[-1]


def test_an_interrupted_race_resumes_to_the_same_answer(tmp_path):
    args = dict(space={"take_threshold": THRESHOLDS}, players=3, seed=4, deals=300, validate=3_000,
                field="heuristic", results=tmp_path)
    whole = best_response("do_ya", run_id="whole", **args)

    with pytest.raises(KeyboardInterrupt):
        best_response("do_ya", run_id="cut", progress=stop_after_first, **args)
    saved = json.loads((tmp_path / "do_ya" / "cut" / "race.json").read_text())
    assert saved["round_deals"] == [300] and not saved["finished"]
    with pytest.raises(WantitError, match="already holds a run"):
        best_response("do_ya", run_id="cut", **args)
    resumed = best_response("do_ya", resume=True, **args)  # found by its settings
    assert resumed.folder == tmp_path / "do_ya" / "cut"
    assert resumed.candidates.equals(whole.candidates) and resumed.validation == whole.validation
    assert whole.meta["rounds"] >= 3


def test_no_charts_writes_the_tables_and_run_json_only(tmp_path):
    from analyzer.cli import main

    for run_id, flags in (("charts", []), ("plain", ["--no-charts"])):
        main(["best-response", "sr", "-n", "3", "--param", "take_threshold=0,1", "--deals", "200", "--validate",
              "200", "--threads", "1", "--results", str(tmp_path), "--run-id", run_id, *flags])
    written = {run_id: sorted(p.name for p in (tmp_path / "selection_rejection" / run_id).iterdir())
               for run_id in ("charts", "plain")}
    assert written["charts"] == sorted(written["plain"] + ["race.png"])
    assert "race.png" not in json.loads((tmp_path / "selection_rejection" / "plain" / "run.json").read_text())["files"]


def test_the_best_response_help_offers_one_seat_as_it_takes_one(capsys):
    # It offered --seat SEAT|all, and 'all' is refused (wantit tune answers for every seat).
    from analyzer.cli import main

    with pytest.raises(SystemExit):
        main(["best-response", "--help"])
    out = capsys.readouterr().out
    assert "--seat SEAT " in out and "SEAT|all" not in out
    with pytest.raises(SystemExit):
        main(["sweep", "--help"])
    assert "--seat SEAT|all" in capsys.readouterr().out
