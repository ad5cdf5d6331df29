"""``workbench sweep``: grids from the command line, CSV/JSON/Parquet out, bad input."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import workbench as wb
from workbench.cli import main
from workbench.sweep import sweep

ROOT = Path(__file__).resolve().parents[1]
SESSION = '[{"d6": 2}, {"d6": 3, "target": 2}]'


def test_check_grid_to_stdout_csv(capsys):
    assert main(["sweep", "check", "--grid", "dice=1-4 target=1,2", "system=uwr", "favor=1"]) == 0
    frame = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert len(frame) == 8 and list(frame.columns[:2]) == ["dice", "target"]
    row = frame[(frame["dice"] == 3) & (frame["target"] == 2)].iloc[0]
    assert row["p_pass"] == pytest.approx(wb.check("uwr", dice=3, favor=1, target=2).p_pass, abs=1e-15)


def test_drama_sweep_to_each_format_matches_python(tmp_path, capsys):
    expected = sweep("drama_campaign", {"players": [2, 3], "refill_rate": [0, 0.5]}, seed=4,
                     session=json.loads(SESSION), trials=3000)
    for suffix, read in ((".csv", pd.read_csv), (".json", pd.read_json),
                         (".parquet", pd.read_parquet)):
        out = tmp_path / f"results{suffix}"
        code = main(["sweep", "drama_campaign", "--grid", "players=2-3 refill_rate=0,0.5",
                     f"session={SESSION}", "--trials", "3000", "--seed", "4", "--out", str(out)])
        assert code == 0
        assert f"wrote {out} (4 points" in capsys.readouterr().out
        frame = read(out)
        assert frame["seed"].tolist() == expected["seed"].tolist()
        assert frame["pass_with"].tolist() == pytest.approx(expected["pass_with"].tolist(), abs=1e-15)


def test_parquet_without_pyarrow_says_how_to_get_it(tmp_path, monkeypatch, one_line_error):
    monkeypatch.setitem(sys.modules, "pyarrow", None)   # import pyarrow now fails
    one_line_error("sweep", "check", "--grid", "dice=1-2", "system=uwr", "--out", str(tmp_path / "r.parquet"),
                   contains=("pyarrow", "dice-workbench[parquet]"))


@pytest.mark.parametrize("argv, words", [
    (["sweep", "check", "--grid", "dice=1-3", "system=uwr", "favour=1"], ["favour"]),
    (["sweep", "check", "--grid", "dice=4-2", "system=uwr"], ["--grid dice", "4-2"]),
    (["sweep", "check", "--grid", "dice", "system=uwr"], ["dice", "NAME=VALUE"]),
    (["sweep", "check", "--grid", "", "system=uwr"], ["--grid"]),
    (["sweep", "check", "--grid", "dice=1,,2", "system=uwr"], ["dice", "commas"]),
    # An empty value used to be read as broken JSON ("allowed: JSON (Expecting value)").
    (["sweep", "check", "--grid", "dice=", "system=uwr"], ["--grid dice got ''", "a range such as 2-6"]),
    (["sweep", "roll", "--grid", "dice=1-2"], ["roll", "check"]),
    (["sweep", "check", "--grid", "dice=1-2", "system=uwr", "--out", "r.xlsx"], ["--out", ".csv"]),
    (["sweep", "check", "--grid", "dice=1-2", "system=uwr", "--seed", "x"], ["--seed", "'x'"]),
    (["sweep", "drama_campaign", "--grid", "players=2", "--trials", "0",
      f"session={SESSION}"], ["--trials", "'0'"]),
    (["sweep", "drama_campaign", "--grid", "players=2", "session=[{"], ["session", "JSON"]),
    (["sweep", "check", "--grid", "dice=1-2", "dice=3", "system=uwr"], ["dice", "both"]),
    (["sweep", "check", "system=uwr"], ["--grid"]),
])
def test_bad_input_is_one_line_and_status_2(assert_one_line, argv, words):
    done = subprocess.run([sys.executable, "-m", "workbench", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert_one_line(done.returncode, done.stdout, done.stderr, contains=words)


def test_sweep_trials_follow_the_one_rule(capsys):
    # --trials 1e3 is accepted by every command, the sweep included.
    assert main(["sweep", "simulate", "--grid", "dice=2", "system=uwr", "--trials", "1e3",
                 "--seed", "1"]) == 0
    assert "1000" in capsys.readouterr().out


def test_every_point_and_the_out_file_are_checked_before_the_first_point_runs(tmp_path, capsys,
                                                                              monkeypatch):
    import workbench.sweep as sweep_module

    def no_work(*args, **kwargs):
        raise AssertionError("a point ran before the whole grid was checked")
    monkeypatch.setattr(sweep_module, "Runner", no_work)
    # The bad value is at the end of the grid: found before any point runs, and named.
    code = main(["sweep", "check", "--grid", "dice=999-1001 rerolls=0,1", "system=uwr"])
    err = capsys.readouterr().err
    assert code == 2 and "point 5 of 6 (dice=1001, rerolls=0)" in err and "dice" in err, err
    code = main(["sweep", "versus", "--grid", """actor='{"dice": 2}'""", 'reactor={"dice": -1}',
                 "system=uwr"])
    assert code == 2 and "point 1 of 1" in capsys.readouterr().err
    code = main(["sweep", "check", "--grid", "dice=1-3", "system=uwr", "--out", str(tmp_path) + "/"])
    assert code == 2 and "--out" in capsys.readouterr().err



def test_simulated_sweep_of_a_gallery_roll_writes_the_whole_file(tmp_path, capsys):
    out = tmp_path / "glitch.csv"
    code = main(["sweep", "simulate", "--grid", "dice=4,8", "system=shadowrun-5e",
                 "--trials", "20000", "--seed", "3", "--out", str(out)])
    assert code == 0
    frame = pd.read_csv(out)
    assert frame["dice"].tolist() == [4, 8]
    for row in frame.to_dict("records"):
        alone = wb.simulate("shadowrun-5e", dice=int(row["dice"]), trials=20_000, seed=int(row["seed"]))
        assert row["p_pass"] == pytest.approx(alone.p_pass, abs=1e-12)


def test_sweep_csv_numbers_carry_no_float_noise(capsys):
    """15 significant digits, as the JSON: a pass rate reads 0.684, never 0.6839999999999999."""
    import re

    assert main(["sweep", "simulate", "--grid", "dice=1-6", "system=uwr", "--trials", "1000",
                 "--seed", "3"]) == 0
    text = capsys.readouterr().out
    digits = [len(re.sub(r"[^0-9]", "", number.split("e")[0]).lstrip("0"))
              for number in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", text)]
    assert digits and max(digits) <= 15, text
    frame = pd.read_csv(io.StringIO(text))
    expected = sweep("simulate", {"dice": list(range(1, 7))}, system="uwr", trials=1000, seed=3)
    assert frame["mean_stderr"].tolist() == pytest.approx(expected["mean_stderr"].tolist(), rel=1e-14)
    assert frame["seed"].tolist() == expected["seed"].tolist()
