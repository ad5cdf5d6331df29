"""``workbench check-file``: what a data file written for an earlier version would need."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from workbench.cli._checkfile import FIXES, fix_for

HEAD = """
id = "ID"
name = "A file"
mechanic = "pool"
pool_parameter = "dice"

[dice.d6]
faces = [0, 0, 0, 0, 1, 1]

[params.dice]
default = 2
min = 0
max = 10
effect = { add_dice = "d6" }
"""

HOLE = HEAD.replace("ID", "hole") + """
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


def test_a_file_that_no_longer_loads_is_told_the_change_that_makes_it_load(tmp_path):
    path = tmp_path / "hole.toml"
    path.write_text(HOLE, encoding="utf-8")
    code, out, err = run(str(path))
    assert code == 1 and err == ""
    assert f"{path}: does not load:" in out and "totals 1 fall in no tier" in out
    assert "to load it: add a tier for those totals" in out
    fixed = tmp_path / "fixed.toml"
    fixed.write_text(HOLE.replace("min = 2", "min = 1").replace('"hole"', '"fixed"'), encoding="utf-8")
    code, out, _ = run(str(fixed))
    assert code == 0 and out.strip() == f"{fixed}: loads as fixed; every setting tried is made"


def test_settings_the_rules_refuse_are_listed(tmp_path):
    """A file that loads but whose own bounds allow a check the rules refuse (a pool past
    1000 dice at the top of ``dice``): check-file names that setting and the reason."""
    path = tmp_path / "big.toml"
    path.write_text(HEAD.replace("ID", "big").replace("max = 10", "max = 2000"), encoding="utf-8")
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


def test_a_path_that_is_no_file_is_one_line_and_status_2(tmp_path):
    code, out, err = run(str(tmp_path / "missing.toml"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "is not a file" in err


@pytest.mark.parametrize("problem", [
    "keeping the best and the worst at once has no single meaning",
    "pass_if says what passes and cannot read what add_to_target adds, so the effect would change nothing",
    "reroll_misses = false has no meaning: an effect is what each point of the parameter does",
    "skip does not go with keep = \"middle\" (the middle dice are counted from both ends)",
])
def test_each_earlier_load_check_has_a_fix(problem):
    assert fix_for(problem) is not None
    assert len(FIXES) >= 10
