"""The sweep surfaces under odd input: ``workbench sweep`` and ``workbench.sweep.sweep``.

Each bad input ends in one line naming the parameter, what was given and what is allowed (exit
status 2 on the command line), never a traceback; odd but meaningful input gives the value a
user would expect.
"""
from __future__ import annotations

import pytest

from workbench.cli import main


def _fails(capsys, argv: list[str]) -> str:
    """Run a command that must be refused: exit 2, nothing on stdout, one line on stderr."""
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 2, (code, captured)
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error: "), captured.err
    return lines[0]


# -- 1. options of the sweep itself given as NAME=VALUE -----------------------------------
@pytest.mark.parametrize("word, said", [
    ("seed=3", "NAME=VALUE seed=3 is an option of the sweep, not a setting of the function; "
               "allowed: --seed 3"),
    ("progress=true", "NAME=VALUE progress=true is an option of the sweep, not a setting of the "
                      "function; allowed: --progress"),
    ("executor=processes", "NAME=VALUE executor=processes is an option of the sweep"),
    ("function=check", "allowed: the function as the word after sweep (workbench sweep check"),
    ("grid=dice=3", "NAME=VALUE grid=dice=3 is an option of the sweep"),
])
def test_sweep_options_given_as_settings_say_which_option(capsys, word, said):
    # Before: a TypeError traceback (sweep() got multiple values for keyword argument 'seed').
    line = _fails(capsys, ["sweep", "simulate", "--grid", "dice=1-2", "system=uwr", word])
    assert said in line, line


def test_sweep_options_in_the_grid_say_which_option(capsys):
    line = _fails(capsys, ["sweep", "simulate", "--grid", "dice=1-2 seed=1,2", "system=uwr"])
    assert "--grid seed=1,2 is an option of the sweep" in line and "--seed" in line, line


def test_trials_as_a_setting_is_the_trials_option(capsys):
    assert main(["sweep", "simulate", "--grid", "dice=1-2", "system=uwr", "trials=100",
                 "--seed", "1"]) == 0
    by_setting = capsys.readouterr().out
    assert main(["sweep", "simulate", "--grid", "dice=1-2", "system=uwr", "--trials", "100",
                 "--seed", "1"]) == 0
    assert capsys.readouterr().out == by_setting
    assert by_setting.splitlines()[1].split(",")[3] == "100"   # the trials column


@pytest.mark.parametrize("function", ["check", "simulate"])
def test_a_setting_named_self_is_an_unknown_parameter(capsys, function):
    # Before: a TypeError traceback (System.resolve() got multiple values for argument 'self').
    line = _fails(capsys, ["sweep", function, "--grid", "dice=1-2 self=1", "system=uwr"])
    assert "uwr: parameter 'self' got 1; allowed: a parameter of this system" in line, line
    line = _fails(capsys, ["sweep", function, "--grid", "dice=1-2", "system=uwr", "self=1"])
    assert "parameter 'self' got 1" in line, line


# -- 2. a required setting left out ------------------------------------------------------
@pytest.mark.parametrize("argv, said", [
    (["rounds_until_hits", "--grid", "hits=1-2"],
     "sweep rounds_until_hits: no 'system'; allowed: give system=... as a fixed setting or a "
     "grid column (a system id, variant id or data file, e.g. system=uwr)"),
    (["drama_campaign", "--grid", "players=2-3"],
     "sweep drama_campaign: no 'session'; allowed: give session=... as a fixed setting"),
    (["burn_scene", "--grid", "threshold=0.5"], "sweep burn_scene: no 'scene'; allowed: give scene="),
    (["solve_ladder", "--grid", "pool=2-3", "system=uwr"],
     "sweep solve_ladder: no 'wanted'; allowed: give wanted=... as a fixed setting or a grid "
     "column (e.g. wanted=Normal=0.7)"),
    (["check", "--grid", "dice=1-2"], "sweep check: no 'system'; allowed: system=..."),
    (["versus", "--grid", "actor.dice=1-2"], "sweep versus: no 'system'"),
])
def test_a_missing_required_setting_is_named(capsys, argv, said):
    # Before: rounds_until_hits printed a TypeError traceback (missing 'system').
    line = _fails(capsys, ["sweep", *argv])
    assert said in line, line


def test_python_sweep_names_a_missing_system():
    from workbench.errors import WorkbenchError
    from workbench.sweep import sweep
    with pytest.raises(WorkbenchError, match=r"^sweep rounds_until_hits: no 'system'; allowed: "
                                             r"give system=\.\.\."):
        sweep("rounds_until_hits", {"hits": [1, 2]})


# -- 3. --grid read as a shell user means it ---------------------------------------------
def _csv(capsys, argv: list[str]):
    import io

    import pandas as pd

    assert main(argv) == 0
    return pd.read_csv(io.StringIO(capsys.readouterr().out))


def test_a_json_list_in_the_grid_gives_its_values(capsys):
    # Before: "--grid quality got '[A,B]'; allowed: JSON (Expecting value)" (quotes lost).
    frame = _csv(capsys, ["sweep", "check", "--grid", 'quality=["A","B"] dice=2,3',
                          "system=arrata"])
    assert frame[["quality", "dice"]].values.tolist() == [["A", 2], ["A", 3], ["B", 2], ["B", 3]]
    assert frame["mean"].round(6).tolist() == [1.333333, 2.0, 1.0, 1.5]


def test_quotes_in_the_grid_group_spaces_and_commas(capsys):
    from workbench.cli._grid import parse_grid

    assert parse_grid('''label="a b",'c,d' tier=0-1 q="A" ''') == {
        "label": ["a b", "c,d"], "tier": [0, 1], "q": ["A"]}
    assert parse_grid('session=[[{"d6": 2}], [{"d6": 3, "target": 2}]] '
                      'actor={"dice": 2},{"dice": 3}') == {
        "session": [[{"d6": 2}], [{"d6": 3, "target": 2}]],
        "actor": [{"dice": 2}, {"dice": 3}]}
    # A value with spaces reaches the system whole (and is refused there, naming it).
    line = _fails(capsys, ["sweep", "check", "--grid", 'quality="A, B"', "system=arrata"])
    assert "parameter 'quality' got 'A, B'; allowed: one of B, A, S" in line, line


@pytest.mark.parametrize("grid, said", [
    ('dice=1-2 quality="B', "--grid got 'dice=1-2 quality=\"B'; allowed: quotes in pairs (no closing \")"),
    ("dice=[1,2", "--grid got 'dice=[1,2'; allowed: JSON with its brackets closed"),
    ("dice=[]", "--grid dice got '[]'; allowed: a JSON list of at least one value"),
    ('quality=["A",B]', "--grid quality got '[\"A\",B]'; allowed: JSON"),
])
def test_broken_quotes_and_json_in_the_grid_are_named(capsys, grid, said):
    line = _fails(capsys, ["sweep", "check", "--grid", grid, "system=arrata"])
    assert said in line, line


# -- 4. list and dict cells on stdout ----------------------------------------------------
def test_csv_on_stdout_writes_list_and_dict_cells_as_json_like_the_file(capsys, tmp_path):
    argv = ["sweep", "drama_campaign", "--grid", 'session=[[{"d6": 2}], [{"d6": 3, "target": 2}]]',
            "--trials", "500", "--seed", "1"]
    assert main(argv) == 0
    stdout = capsys.readouterr().out
    out = tmp_path / "r.csv"
    assert main([*argv, "--out", str(out)]) == 0
    capsys.readouterr()
    # Before: stdout had the Python repr [{'d6': 2}]; the file had JSON [{"d6": 2}].
    assert stdout.encode() == out.read_bytes().replace(b"\r\n", b"\n")
    lines = stdout.splitlines()
    assert lines[1].startswith('"[{""d6"": 2}]",') and lines[2].startswith('"[{""d6"": 3, ""target"": 2}]",')
    assert main(["sweep", "versus", "--grid", 'actor={"dice": 2},{"dice": 3}', 'reactor={"dice": 1}',
                 "system=uwr"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith('"{""dice"": 2}",0.407407407407407,')


# -- 5. DataFrame grids as pandas leaves them ---------------------------------------------
def test_an_empty_dataframe_cell_is_named_by_column_and_row():
    import numpy as np
    import pandas as pd

    from workbench.errors import WorkbenchError
    from workbench.sweep import sweep

    grid = pd.DataFrame({"dice": [2, 3, 4], "target": [1, np.nan, 2]}, index=[10, 11, 12])
    # Before: "point 1 of 3 (dice=2, target=1.0): uwr: parameter 'target' got 1.0", blaming
    # a good cell (pandas made the column float because of the gap).
    with pytest.raises(WorkbenchError) as caught:
        sweep("check", grid, system="uwr")
    assert str(caught.value) == ("sweep grid: the DataFrame's column 'target' is empty in row 11 "
                                 "(point 2 of 3; got nan); allowed: a value in every cell (fill "
                                 "it, or drop the row)")
    # A float column's gap in a float setting was run as nan (or refused only by the setting).
    grid = pd.DataFrame({"refill_rate": [0.5, np.nan]})
    with pytest.raises(WorkbenchError, match=r"column 'refill_rate' is empty in row 1 \(point 2 of 2"):
        sweep("drama_campaign", grid, session=[{"d6": 2}], trials=200, seed=1)
    grid = pd.DataFrame({"dice": pd.array([2, None], dtype="Int64")})
    with pytest.raises(WorkbenchError, match=r"column 'dice' is empty in row 1 .*got <NA>"):
        sweep("check", grid, system="uwr")


def test_whole_floats_from_a_dataframe_are_whole_numbers():
    import pandas as pd

    from workbench.sweep import sweep

    # pandas reads an int column with a gap (filled later) or from CSV as float: 2.0, 3.0.
    frame = sweep("check", pd.DataFrame({"dice": [2.0, 3.0], "target": [1.0, 2.0]}), system="uwr")
    expected = sweep("check", {"dice": [2, 3], "target": [1, 2]}, system="uwr")
    assert frame["dice"].tolist() == [2, 3] and frame["p_pass"].tolist() == [
        expected["p_pass"][0], expected["p_pass"][3]]
    # A simulation's points keep their seeds (3.0 is the point players=3, as in a dict grid);
    # a float setting stays float.
    by_frame = sweep("drama_campaign", pd.DataFrame({"players": [2.0, 3.0], "refill_rate": [0.0, 1.0]}),
                     session=[{"d6": 2}], trials=200, seed=1)
    by_dict = sweep("drama_campaign", {"players": [2, 3], "refill_rate": [0.0, 1.0]},
                    session=[{"d6": 2}], trials=200, seed=1)
    assert by_frame["seed"].tolist() == [by_dict["seed"][0], by_dict["seed"][3]]
    assert by_frame["pass_with"].tolist() == [by_dict["pass_with"][0], by_dict["pass_with"][3]]
    assert by_frame["refill_rate"].tolist() == [0.0, 1.0]
    by_frame = sweep("versus", pd.DataFrame({"actor.dice": [2.0]}), system="uwr", reactor={"dice": 2})
    assert by_frame["p_actor"][0] == sweep("versus", {"actor.dice": [2]}, system="uwr",
                                           reactor={"dice": 2})["p_actor"][0]


def test_a_fraction_from_a_dataframe_is_still_refused():
    import pandas as pd

    from workbench.errors import WorkbenchError
    from workbench.sweep import sweep

    with pytest.raises(WorkbenchError, match=r"point 2 of 2 \(dice=3\.5\): uwr: parameter 'dice' "
                                             r"got 3\.5; allowed: a whole number from 0 to 1000"):
        sweep("check", pd.DataFrame({"dice": [2.0, 3.5]}), system="uwr")


# -- the neighbourhood: a setting given twice ---------------------------------------------
def test_python_sweep_refuses_a_setting_both_in_the_grid_and_fixed():
    from workbench.errors import WorkbenchError
    from workbench.sweep import sweep

    # Before: the grid's dice silently won, and dice=5 was dropped.
    with pytest.raises(WorkbenchError) as caught:
        sweep("check", {"dice": [1, 2]}, system="uwr", dice=5)
    assert str(caught.value) == ("sweep check: 'dice' is both in the grid and fixed (dice=5); "
                                 "allowed: one of them (a fixed value is a grid of one value)")
    with pytest.raises(WorkbenchError, match=r"'system' is both in the grid and fixed \(system='fons'\)"):
        sweep("check", {"system": ["uwr"], "dice": [1]}, system="fons")


@pytest.mark.parametrize("argv, said", [
    (["--grid", "dice=1-3", "dice=2"],
     "parameter 'dice' is both swept (--grid dice=1-3) and fixed (dice=2); allowed: one of them"),
    (["--grid", "dice=1-3 trials=5", "--trials", "4"],
     "trials is given twice (--trials and --grid trials=...); allowed: one of them"),
    (["--grid", "dice=1-3", "trials=5", "--trials", "4"],
     "trials is given twice (--trials and trials=...); allowed: one of them"),
    (["--grid", "dice=1 dice=2"], "--grid entry 'dice' is given twice"),
    (["--grid", "dice=1-3 system="], "--grid system got ''; allowed: a range such as 2-6"),
    (["--grid", "dice=1-100001"], "--grid dice got '1-100001'; allowed: ranges of at most 100,000 values"),
])
def test_a_setting_given_twice_or_empty_on_the_command_line(capsys, argv, said):
    line = _fails(capsys, ["sweep", "simulate", "system=uwr", *argv])
    assert said in line, line


# -- the neighbourhood: rule options of clock and taken_out --------------------------------
def test_rule_options_of_clock_and_taken_out_can_be_swept(capsys):
    import workbench as wb
    from workbench.sweep import sweep

    # Before: "sweep clock: unknown parameter 'dice'; allowed: die, max_rolls, ..." although
    # clock(3, "green", dice="d6") takes it.
    frame = sweep("clock", {"segments": [2, 3], "dice": ["narrative", "d6"]}, die="green", seed=1)
    assert frame["mean"].tolist() == [wb.clock(s, "green", dice=d).mean
                                      for s in (2, 3) for d in ("narrative", "d6")]
    frame = _csv(capsys, ["sweep", "taken_out", "--grid", "ladder=steps,spectrum", "dice=d6",
                          "--seed", "1"])
    assert frame["ladder"].tolist() == ["steps", "spectrum"]
    assert frame["mean"].tolist() == pytest.approx(
        [wb.taken_out(ladder=ladder, dice="d6").mean for ladder in ("steps", "spectrum")], abs=1e-12)
    line = _fails(capsys, ["sweep", "taken_out", "--grid", "mode=apply", "foo=1"])
    assert ("sweep taken_out: unknown parameter 'foo'; allowed: actor, death_spiral, dice, ladder, "
            "max_exchanges") in line, line


def test_a_refused_point_names_the_sweep_once(capsys):
    from workbench.cli import main
    assert main(["sweep", "versus", "--grid", "method=exact,simulate", "system=uwr"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("sweep versus:") == 1 and "point 1 of 2 (method='exact')" in err, err
    assert "'method' belongs to no side" in err and "\n" not in err
