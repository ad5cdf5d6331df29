"""``workbench check-file``: what a data file written for an earlier version would need."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from workbench.cli._checkfile import FIXES, fix_for

from conftest import pool_toml


HOLE = pool_toml("hole", "A file") + """
[[tiers]]
name = "Miss"
max = 0

[[tiers]]
name = "Great"
min = 2
"""

def run(*args):
    done = subprocess.run([sys.executable, "-m", "workbench", "check-file", *args],
                          capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def test_a_file_that_no_longer_loads_is_told_the_change_that_makes_it_load(pool_file):
    path = pool_file(HOLE, file="hole.toml")
    code, out, err = run(str(path))
    assert code == 1 and err == ""
    assert f"{path}: does not load:" in out and "totals 1 fall in no tier" in out
    assert "to load it: add a tier for those totals" in out
    fixed = pool_file(HOLE.replace("min = 2", "min = 1").replace('"hole"', '"fixed"'), file="fixed.toml")
    code, out, _ = run(str(fixed))
    assert code == 0 and out.strip() == f"{fixed}: loads as fixed; every setting tried is made"


def test_settings_the_rules_refuse_are_listed(pool_file):
    """A file that loads but whose own bounds allow a check the rules refuse (a pool past
    1000 dice at the top of ``dice``): check-file names that setting and the reason."""
    path = pool_file(id="big", name="A file", most=2000)
    code, out, _ = run(str(path), "--format", "json")
    assert code == 1
    (report,) = json.loads(out)
    assert report["loads"] and report["id"] == "big"
    assert [r["setting"] for r in report["refused"]] == [{"dice": 2000}]
    assert "a pool of at most 1000 dice" in report["refused"][0]["problem"]
    code, text, _ = run(str(path))
    assert "1 setting(s) refused" in text and "  dice=2000: " in text


def test_the_shipped_files_need_nothing():
    from workbench.rules.registry import DATA_DIR
    paths = sorted(str(p) for p in (DATA_DIR / "systems").glob("*.toml"))[:3]
    code, out, _ = run(*paths)
    assert code == 0, out
    assert out.count("every setting tried is made") == len(paths)


def test_a_path_that_is_no_file_is_one_line_and_status_2(tmp_path, assert_one_line):
    assert_one_line(*run(str(tmp_path / "missing.toml")), contains=("is not a file",))


@pytest.mark.parametrize("problem", [
    "keeping the best and the worst at once has no single meaning",
    "pass_if says what passes and cannot read what add_to_target adds, so the effect would change nothing",
    "reroll_misses = false has no meaning: an effect is what each point of the parameter does",
    "skip does not go with keep = \"middle\" (the middle dice are counted from both ends)",
])
def test_each_earlier_load_check_has_a_fix(problem):
    assert fix_for(problem) is not None
    assert len(FIXES) >= 10
