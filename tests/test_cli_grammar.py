"""One grammar for a system's settings: shorthand such as Arrata's stat=B5 works in every
command and block that takes settings, and ``wb.sweep`` is callable as the README shows."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import workbench as wb
from workbench.render import BlockOptionError, parse_block, table_cells

from conftest import run_cli


def run(capsys, *argv):
    return run_cli(capsys, *argv)


def test_stat_shorthand_in_pmf_and_versus(capsys):
    code, out, _ = run(capsys, "pmf", "arrata", "stat=A5", "ob=3", "--format", "json")
    assert code == 0 and json.loads(out)["p_pass"] == pytest.approx(
        wb.check("arrata", quality="A", dice=5, ob=3).p_pass)
    code, out, _ = run(capsys, "versus", "arrata", "--actor", "stat=A5", "--reactor", "stat=B3",
                       "--format", "json")
    assert code == 0 and json.loads(out)["p_actor"] == pytest.approx(
        wb.versus("arrata", {"quality": "A", "dice": 5}, {"dice": 3}).p_actor)


def test_stat_shorthand_in_table_is_refused_the_columns_are_the_pools(capsys, assert_one_line):
    # stat=A5 sets the quality and 5 dice; the columns would override the 5 without a word.
    err = assert_one_line(*run(capsys, "table", "arrata", "stat=A5", "--pools", "2-3", "--format", "csv"))
    assert ("stat=A5 sets dice, which the table's columns step through (--pools 2-3); allowed: "
            "--pools 5 for that pool alone, without stat=A5 (with quality=A instead)") in err
    code, out, err = run(capsys, "table", "arrata", "quality=A", "--pools", "2-3", "--format", "csv",
                         "--digits", "6")
    assert code == 0, err
    header, ob1 = out.splitlines()[:2]
    assert header.split(",")[-2:] == ["A2", "A3"]
    assert float(ob1.split(",")[-1]) == pytest.approx(wb.check("arrata", stat="A3", ob=1).p_pass, abs=1e-6)


def test_stat_shorthand_in_ladder_is_the_typical_pool(capsys):
    code, out, err = run(capsys, "ladder", "arrata", "stat=A5", "--want", "Normal=0.8", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["pool"] == 5 and data["params"] == {"quality": "A"}
    code, _, err = run(capsys, "ladder", "arrata", "stat=A5", "--pool", "4", "--want", "Normal=0.8")
    assert code == 2 and "--pool got '4'; allowed: 5, as stat=A5 says" in err


def test_stat_shorthand_in_figure_and_sweep(capsys, tmp_path):
    out = tmp_path / "check.html"
    code, _, err = run(capsys, "figure", "arrata", "stat=A5", "--kind", "check", "--out", str(out))
    assert code == 0, err
    assert "Arrata: one check (dice=5, quality=A)" in out.read_text(encoding="utf-8")
    code, _, err = run(capsys, "figure", "arrata", "stat=Q5", "--out", str(out))
    assert code == 2 and "parameter 'stat' got 'Q5'; allowed: a quality (B, A, S)" in err
    grid = tmp_path / "grid.csv"
    code, _, err = run(capsys, "sweep", "check", "--grid", "ob=1-2", "system=arrata", "stat=A5",
                       "--out", str(grid))
    assert code == 0, err
    rows = grid.read_text(encoding="utf-8").splitlines()
    assert float(rows[1].split(",")[1]) == pytest.approx(wb.check("arrata", stat="A5", ob=1).p_pass)


def test_stat_shorthand_in_rulebook_blocks():
    with pytest.raises(BlockOptionError) as caught:   # its 5 dice: what the columns step through
        parse_block("table", "arrata", {"stat": "A5", "pools": "3"})
    assert str(caught.value) == ("option 'stat' got 'A5'; allowed: no dice here: the columns step "
                                 "through dice (pools=3); pools=5 shows that pool alone, with "
                                 "quality=A instead of stat=A5")
    block = parse_block("table", "arrata", {"quality": "A", "pools": "3"})
    header, rows = table_cells(block)
    assert header[-1] == "A3"
    ladder = parse_block("ladder", "arrata", {"stat": "A5", "want": "Normal=0.8"})
    assert ladder.pool == 5 and dict(ladder.params) == {"quality": "A"}
    with pytest.raises(BlockOptionError, match="option 'pool' got '4'; allowed: 5"):
        parse_block("ladder", "arrata", {"stat": "A5", "want": "Normal=0.8", "pool": "4"})
    with pytest.raises(BlockOptionError, match="option 'stat' got 'Q5'"):
        parse_block("figure", "arrata", {"stat": "Q5"})


def test_sweep_is_callable_from_the_package_and_importable_as_before():
    from workbench.sweep import sweep
    frame = wb.sweep("check", {"dice": [2, 4]}, system="uwr", target=1)
    assert frame["p_pass"].tolist() == pytest.approx([1 - (2 / 3) ** 2, 1 - (2 / 3) ** 4])
    assert wb.sweep.sweep is sweep and wb.sweep.FUNCTIONS
    assert sweep("check", {"dice": [2]}, system="uwr", target=1)["p_pass"].tolist() == \
        frame["p_pass"].tolist()[:1]


def test_import_workbench_does_not_load_the_sweep_package():
    code = "import sys, workbench; print('workbench.sweep' in sys.modules, 'concurrent.futures' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "False"], done.stderr
