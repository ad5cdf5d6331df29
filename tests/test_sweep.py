"""workbench.sweep: tidy frames, per-point seeds, every function, executors, bad grids."""
import concurrent.futures as cf
import warnings

import numpy as np
import pandas as pd
import pytest
from _deps import need

import workbench as wb
from workbench import WorkbenchError
from workbench.sweep import FUNCTIONS, point_seed, sweep

SESSION = [{"d6": 2}, {"d6": 3, "target": 2}, {"d6": 1, "d8": 1}]


def test_check_grid_is_one_row_per_point_in_grid_order():
    frame = sweep("check", {"dice": range(1, 5), "favor": [0, 1], "target": [1, 2]}, system="uwr")
    assert len(frame) == 4 * 2 * 2
    assert list(frame.columns[:3]) == ["dice", "favor", "target"]
    assert frame[["dice", "favor", "target"]].iloc[1].tolist() == [1, 0, 2]   # last fastest
    for row in frame.to_dict("records"):
        exact = wb.check("uwr", dice=row["dice"], favor=row["favor"], target=row["target"])
        assert row["p_pass"] == exact.p_pass and row["mean"] == exact.mean
    assert frame.attrs["function"] == "check" and frame.attrs["partial"] is False


@pytest.mark.parametrize("system, grid", [
    ("unnamed", {"d6": [1, 3], "d8": [0, 2], "target": [1, 2]}),
    ("arrata", {"stat": ["B3", "A5"], "ob": [1, 3], "advantage": [0, 1]}),
    ("erzahlspiel", {"die": ["red", "green", "blue"]}),
    ("fons-exploding", {"dice": [2, 5], "target": [1, 3]}),   # a data-defined variant
])
def test_fast_exact_path_gives_the_figures_of_check(system, grid):
    from workbench.sweep._functions import check_figures

    frame = sweep(wb.check, grid, system=system)
    for row in frame.to_dict("records"):
        params = {name: row[name] for name in grid}
        expected = check_figures(wb.check(system, **params))
        got = {key: row[key] for key in expected}
        assert got == expected


def test_tiers_and_outcomes_are_columns():
    unnamed = sweep("check", {"d6": [2, 3]}, system="unnamed")
    tiers = [c for c in unnamed.columns if c.startswith("tier: ")]
    assert tiers[0] == "tier: Disaster" and len(tiers) == 6
    assert np.allclose(unnamed[tiers].sum(axis=1), 1.0)
    narrative = sweep("check", {"die": ["yellow"]}, system="erzahlspiel")
    assert "outcome: YES!" in narrative.columns


def test_simulated_points_rerun_alone_give_the_same_answer():
    grid = {"players": [2, 5], "refill_rate": [0.0, 0.3]}
    frame = sweep("drama_campaign", grid, seed=3, session=SESSION, trials=5_000)
    assert frame["seed"].nunique() == 4
    row = frame.to_dict("records")[3]
    alone = wb.drama_campaign(SESSION, players=int(row["players"]), refill_rate=row["refill_rate"],
                              trials=5_000, seed=int(row["seed"])).summary.iloc[0]
    assert alone["pass_with"] == row["pass_with"] and alone["empty_share"] == row["empty_share"]
    # The same point in another grid, in another order, gets the same seed and figures.
    other = sweep("drama_campaign", {"refill_rate": [0.3], "players": [5, 3]}, seed=3,
                  session=SESSION, trials=5_000)
    first = other.to_dict("records")[0]
    assert first["seed"] == row["seed"] and first["pass_with"] == row["pass_with"]
    again = sweep("drama_campaign", grid, seed=3, session=SESSION, trials=5_000)
    pd.testing.assert_frame_equal(frame, again)
    different = sweep("drama_campaign", grid, seed=4, session=SESSION, trials=5_000)
    assert not frame["seed"].equals(different["seed"])


def test_point_seed_depends_on_the_point_and_the_sweep_seed_only():
    a = point_seed(7, "clock", {"segments": 4, "die": "red"})
    assert a == point_seed(7, "clock", {"die": "red", "segments": 4})
    assert a != point_seed(7, "clock", {"segments": 6, "die": "red"})
    assert a != point_seed(8, "clock", {"segments": 4, "die": "red"})
    assert 0 <= a < 2**63


@pytest.mark.parametrize("function, grid, fixed, column", [
    ("simulate", {"dice": [2, 4]}, {"system": "uwr", "target": 1, "trials": 20_000},
     "p_pass_stderr"),
    ("versus", {"actor": [{"dice": 4}, {"dice": 2}]}, {"system": "uwr", "reactor": {"dice": 3}},
     "p_actor"),
    ("solve_ladder", {"pool": [3, 5]}, {"system": "uwr", "wanted": "Normal=0.7,Hard=0.4"},
     "Normal: p_pass"),
    ("burn_scene", {"policy": ["never", "always"]},
     {"scene": [{"traits": ["Quick"], "d6": 1}] * 2, "traits": {"Quick": 2}, "trials": 5_000},
     "burns_per_scene"),
    ("taken_out", {"actor": ["red", "blue"], "death_spiral": [False, True]}, {}, "mean"),
    ("taken_out", {"actor": ["green"]}, {"method": "simulate", "trials": 5_000}, "mean_stderr"),
    ("clock", {"segments": [4, 8], "die": ["yellow", "green"]}, {}, "median"),
    ("rounds_until_hits", {"hits": [1, 2]},
     {"system": "arrata", "actor": {"stat": "B4"}, "reactor": {"stat": "B3"}}, "mean"),
])
def test_every_function_sweeps(function, grid, fixed, column):
    frame = sweep(function, grid, seed=1, **fixed)
    points = int(np.prod([len(v) for v in grid.values()]))
    assert len(frame) == points and column in frame.columns
    assert frame[column].notna().all()


def test_clock_sweep_matches_clock_table():
    frame = sweep("clock", {"die": ["yellow", "blue"], "segments": [4, 6]})
    table = wb.clock_table([4, 6], ["yellow", "blue"])
    for row in frame.to_dict("records"):
        assert row["mean"] == pytest.approx(table.loc[row["die"], row["segments"]])


def test_dataframe_grid():
    points = pd.DataFrame({"dice": [3, 3, 6], "target": [1, 2, 2]})
    frame = sweep("check", points, system="uwr")
    assert frame[["dice", "target"]].values.tolist() == points.values.tolist()
    assert frame["p_pass"].iloc[2] == wb.check("uwr", dice=6, target=2).p_pass


def test_any_executor_gives_the_same_frame():
    grid = {"segments": [3, 4, 5], "die": ["red", "yellow"]}
    fixed = {"method": "simulate", "trials": 4_000}
    local = sweep("clock", grid, seed=2, executor="local", **fixed)
    with cf.ThreadPoolExecutor(max_workers=2) as pool:
        threaded = sweep("clock", grid, seed=2, executor=pool, **fixed)
    pd.testing.assert_frame_equal(local, threaded)
    processes = sweep("check", {"dice": range(1, 7), "target": [1, 2]}, executor="processes",
                      system="uwr")
    pd.testing.assert_frame_equal(processes, sweep("check", {"dice": range(1, 7),
                                                             "target": [1, 2]}, system="uwr"))


def test_dask_local_cluster_equals_the_local_run_point_for_point():
    distributed = need("distributed")   # in the dev extra: present in CI
    grid = {"players": [2, 3, 4], "refill_rate": [0.0, 0.5]}
    fixed = {"session": SESSION, "trials": 4_000}
    local = sweep("drama_campaign", grid, seed=5, **fixed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            on_cluster = sweep("drama_campaign", grid, seed=5, executor=client, **fixed)
            via_executor = sweep("drama_campaign", grid, seed=5,
                                 executor=client.get_executor(), **fixed)
    pd.testing.assert_frame_equal(local, on_cluster)
    pd.testing.assert_frame_equal(local, via_executor)


def test_ctrl_c_returns_the_points_finished_so_far(monkeypatch):
    from workbench.sweep import _run

    real = _run.evaluate_batch
    calls = {"n": 0}

    def interrupted(function, fixed, items, *known):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(function, fixed, items, *known)

    monkeypatch.setattr(_run, "evaluate_batch", interrupted)
    monkeypatch.setattr(_run, "LOCAL_BATCH_SECONDS", 0.0)   # one point a batch
    with pytest.warns(RuntimeWarning, match="interrupted: 3 of 10 points"):
        frame = sweep("check", {"dice": range(1, 11)}, system="uwr", target=1)
    assert frame.attrs["partial"] is True
    assert frame["dice"].tolist() == [1, 2, 3]


def test_progress_bar(capsys):
    sweep("check", {"dice": range(1, 4)}, system="uwr", progress=True)
    assert "sweep check" in capsys.readouterr().err


@pytest.mark.parametrize("call, words", [
    (lambda: sweep("check", {"dice": [1], "favour": [1]}, system="uwr"), ["favour", "favor"]),
    (lambda: sweep("check", {}, system="uwr"), ["no parameters"]),
    (lambda: sweep("check", {"dice": []}, system="uwr"), ["dice", "no values"]),
    (lambda: sweep("check", pd.DataFrame(), system="uwr"), ["empty"]),
    (lambda: sweep("roll_everything", {"dice": [1]}), ["roll_everything", "drama_campaign"]),
    (lambda: sweep(print, {"dice": [1]}), ["print", "allowed"]),
    (lambda: sweep("check", {"dice": [1]}), ["system"]),
    (lambda: sweep("clock", {"seed": [1, 2]}), ["seed", "sweep"]),
    (lambda: sweep("clock", {"segments": [4]}, seed=-1), ["seed", "-1"]),
    (lambda: sweep("clock", [4, 6]), ["list", "dict"]),
    (lambda: sweep("drama_campaign", {"player": [2]}, session=SESSION), ["player", "players"]),
    (lambda: sweep("check", {"dice": [1]}, system="uwr", executor="cloud"), ["executor", "cloud"]),
])
def test_bad_grids_name_the_problem(call, words):
    with pytest.raises(WorkbenchError) as info:
        call()
    message = str(info.value)
    assert all(word in message for word in words), message


def test_functions_listed():
    assert {"check", "simulate", "versus", "drama_campaign", "burn_scene", "taken_out", "clock",
            "solve_ladder"} <= set(FUNCTIONS)


def test_a_missing_required_argument_is_named_before_any_point_runs():
    with pytest.raises(WorkbenchError, match="no 'session'.*session="):
        sweep("drama_campaign", {"players": [2, 3]}, trials=1_000)


def test_a_sweep_without_a_seed_draws_one_and_keeps_it():
    # seed=None is a fresh seed, as everywhere in the workbench; the frame keeps it, so the
    # same sweep repeats exactly.
    grid = {"dice": [2, 3]}
    first = sweep("simulate", grid, system="uwr", target=1, trials=2_000)
    again = sweep("simulate", grid, system="uwr", target=1, trials=2_000, seed=first.attrs["seed"])
    pd.testing.assert_frame_equal(first, again)
    assert 0 <= first.attrs["seed"] < 2**64


@pytest.mark.parametrize("system, grid, fixed", [
    ("shadowrun-5e", {"dice": [4, 8]}, {}),        # a roll with statistics (data file)
    ("blades", {"dice": [1, 3]}, {}),
])
def test_simulated_sweep_of_a_roll_with_statistics_agrees_with_check(system, grid, fixed):
    # Rolls with statistics are drawn from their exact table; the sweep's budget estimate
    # once read them as dice pools and failed before the first point.
    frame = sweep("simulate", grid, system=system, trials=40_000, seed=8, **fixed)
    assert len(frame) == 2 and frame.attrs["partial"] is False
    for row in frame.to_dict("records"):
        params = {name: int(row[name]) for name in grid}
        exact = wb.check(system, **params, **fixed)
        alone = wb.simulate(system, trials=40_000, seed=int(row["seed"]), **params, **fixed)
        assert row["p_pass"] == alone.p_pass
        assert abs(row["p_pass"] - exact.p_pass) <= 5 * np.sqrt(exact.p_pass * (1 - exact.p_pass) / 40_000)
