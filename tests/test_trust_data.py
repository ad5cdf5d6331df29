"""Trust in data files: each file the workbench accepts means what the designer wrote.

Every case here was accepted once and gave a number that belonged to no reading of the file
(tier shares adding up to 31%, a total of 2**63, two parameters netting silently), or a
traceback. Each is now right, checked against the brute force in ``tests/_brute.py``, or
one clear error naming the file, the entry and what is allowed.
"""
from __future__ import annotations

import itertools

import os
import textwrap

import pytest

import workbench as wb
from workbench import DataFileError, WorkbenchError
from workbench.cli import main
from workbench.rules import registry

from _brute import designed_roll, enumerate_rolls
from conftest import pool_toml


def plain_pool(id: str) -> str:
    """The plain d6 pool the files below start with."""
    return pool_toml(id, "Test pool", most=40)


@pytest.fixture
def write(tmp_path):
    """``write(text, head=True)``: a data file (with the plain d6 pool above it) -> its path."""
    made = []

    def make(text: str, head: bool = True, name: str | None = None) -> str:
        name = name or f"case{len(made)}"
        body = (plain_pool(name) if head else "") + textwrap.dedent(text)
        path = tmp_path / f"{name}.toml"
        path.write_text(body, encoding="utf-8")
        made.append(path)
        return str(path)
    return make


def brute(dice, counts, **kw):
    probs, unexplored = enumerate_rolls(designed_roll(dice, counts, **kw), max_faces=8)
    assert unexplored == 0
    totals: dict[int, float] = {}
    for (total, _), p in probs.items():
        totals[total] = totals.get(total, 0.0) + p
    return totals


D6 = {"d6": {"faces": [0, 0, 0, 0, 1, 1]}}


# -- cancel_out, when, keep: what the file says, or a clear error ---------------------------

def test_cancel_out_naming_one_parameter_twice_is_an_error(write):
    path = write("""
        [params.bonus]
        default = 1
        min = 0
        max = 3
        effect = { add_dice = "d6" }

        [[cancel_out]]
        params = ["bonus", "bonus"]
        """)
    with pytest.raises(DataFileError, match=r"cancel_out\[0\]\.params.*'bonus' twice"):
        wb.load_system(path)


@pytest.mark.parametrize("where", ["effect", "tier", "cancel_out"])
def test_when_with_an_empty_list_is_an_error(write, where):
    text = {
        "effect": """
            [params.grit]
            default = 1
            min = 0
            max = 3
            effect = { add_to_total = 1, when = { dice = [] } }
            """,
        "tier": """
            [[tiers]]
            name = "All"
            when = { dice = [] }
            """,
        "cancel_out": """
            [params.a]
            default = 0
            min = 0
            max = 3
            [params.b]
            default = 0
            min = 0
            max = 3
            [[cancel_out]]
            params = ["a", "b"]
            when = { dice = [] }
            """,
    }[where]
    with pytest.raises(DataFileError, match=r"when\.dice.*at least 1 item"):
        wb.load_system(write(text))


KEEPS = """
[dice.d6]
faces = [0, 0, 0, 0, 1, 1]

[params.best]
default = 0
min = 0
max = 3
effect = {{ keep_highest = "d6" }}

[params.worst]
default = 0
min = 0
max = 3
effect = {{ keep_lowest = "d6"{worst_extra} }}
"""


def test_keeping_best_and_worst_at_once_is_an_error_naming_both(write):
    path = write("""
        id = "keeps"
        name = "Keeps"
        mechanic = "pool"
        pool_parameter = "dice"
        [params.dice]
        default = 2
        min = 0
        max = 10
        effect = { add_dice = "d6" }
        """ + KEEPS.format(worst_extra=""), head=False)
    with pytest.raises(WorkbenchError) as caught:
        wb.check(path, best=1, worst=1)
    message = str(caught.value)
    assert "'worst'" in message and "'best'" in message and "params.worst.effect[0]" in message
    assert path in message and "cancel_out" in message
    # One direction at a time is what the brute force says it is.
    for best, worst, keep in [(2, 0, "highest"), (0, 1, "lowest")]:
        result = wb.check(path, best=best, worst=worst)
        truth = brute(D6, {"d6": 2 + best + worst}, keep=keep, kept=2)
        assert dict(zip(result.pmf.outcomes, result.pmf.probabilities)) == pytest.approx(truth)


def test_keep_with_other_dice_keeps_only_its_own_type(write):
    path = write("""
        [dice.d10]
        faces = [0, 0, 0, 0, 0, 0, 1, 1, 1, 2]
        [params.edge]
        default = 0
        min = 0
        max = 2
        effect = { keep_highest = "d10" }
        [params.d10]
        default = 0
        min = 0
        max = 5
        effect = { add_dice = "d10" }
        """)
    # The d6s of the pool stay in the roll; the best two of three d10s are kept beside them
    # (refused before: one pool kept one die type's best only when it rolled nothing else).
    mixed = wb.check(path, edge=1, d10=2)
    d10 = [0, 0, 0, 0, 0, 0, 1, 1, 1, 2]
    expected: dict = {}
    for roll in itertools.product(d10, repeat=3):
        kept = sum(sorted(roll)[1:])
        for sixes in itertools.product([0, 0, 0, 0, 1, 1], repeat=wb.system(path).params["dice"].default):
            expected[kept + sum(sixes)] = expected.get(kept + sum(sixes), 0.0) + 1 / 1000 / 6 ** len(sixes)
    assert dict(zip(mixed.pmf.outcomes, mixed.pmf.probabilities)) == pytest.approx(expected)
    result = wb.check(path, edge=1, d10=2, dice=0)
    truth = brute({"d10": {"faces": [0, 0, 0, 0, 0, 0, 1, 1, 1, 2]}}, {"d10": 3}, keep="highest", kept=2)
    assert dict(zip(result.pmf.outcomes, result.pmf.probabilities)) == pytest.approx(truth)


# -- tiers name every roll ------------------------------------------------------------------

def test_tiers_with_a_hole_are_an_error(write):
    path = write("""
        [[tiers]]
        name = "Low"
        max = 0
        [[tiers]]
        name = "High"
        min = 2
        """)
    with pytest.raises(DataFileError, match=r"entry 'tiers'.*totals 1 fall in no tier"):
        wb.load_system(path)


def test_tiers_with_a_hole_under_one_rule_option_only(write):
    path = write("""
        [params.strict]
        choices = ["yes", "no"]
        default = "no"
        rule_option = true
        [[tiers]]
        name = "Low"
        max = 0
        [[tiers]]
        name = "High"
        min = 1
        when = { strict = "no" }
        [[tiers]]
        name = "High"
        min = 2
        when = { strict = "yes" }
        """)
    with pytest.raises(DataFileError, match=r"totals 1 fall in no tier when strict is 'yes'"):
        wb.load_system(path)


def test_tiers_for_all_negative_rolls_are_checked_when_faces_can_be_negative(write):
    path = write("""
        [dice.dn]
        faces = [-1, 0, 0, 0, 1, 1]
        [[tiers]]
        name = "Low"
        max = 0
        all_negative = false
        [[tiers]]
        name = "High"
        min = 1
        all_negative = false
        """)
    with pytest.raises(DataFileError, match="no tier names a roll for rolls whose initial dice all show a negative"):
        wb.load_system(path)
    # Without negative faces such rolls never happen, and the same tiers are fine.
    assert wb.load_system(write("""
        [[tiers]]
        name = "Low"
        max = 0
        all_negative = false
        [[tiers]]
        name = "High"
        min = 1
        all_negative = false
        """)).id


def test_tiers_that_stop_short_of_the_reachable_totals_are_an_error_when_read(write):
    path = write("""
        [[tiers]]
        name = "Some"
        min = 0
        max = 1
        """)
    assert wb.check(path, dice=1).tiers.to_dict() == pytest.approx({"Some": 1.0})
    with pytest.raises(WorkbenchError, match=r"totals 2 .*fall in no tier"):
        wb.check(path, dice=2)


def test_shipped_tiers_cover_every_roll():
    for system in wb.systems():
        if system.mechanic.tier_names():
            result = wb.check(system)
            assert sum(result.tiers.probabilities) == pytest.approx(1.0)


# -- bounded numbers: totals never wrap around ----------------------------------------------

@pytest.mark.parametrize("text, entry", [
    ("[dice.big]\nfaces = [0, 0, 0, 0, 1, 1000000000000000000]\n", r"dice\.big\.faces\[5\]"),
    ("[params.grit]\ndefault = 1\nmin = 0\nmax = 1\neffect = { add_to_total = 9223372036854775807 }\n",
     r"params\.grit\.effect\[0\]\.add_to_total"),
])
def test_huge_numbers_in_a_file_are_refused_at_load(write, text, entry):
    with pytest.raises(DataFileError, match=entry + ".*less than or equal to"):
        wb.load_system(write(text))


def test_huge_floor_is_refused_at_load(write):
    path = write("floor = 9223372036854775807\n" + plain_pool("floors"), head=False)
    with pytest.raises(DataFileError, match=r"entry 'floor'.*less than or equal to 1000000000"):
        wb.load_system(path)


def test_totals_built_from_many_points_are_bounded_per_check(write):
    path = write("""
        [params.grit]
        default = 0
        min = 0
        max = 1000000
        effect = { add_to_total = 1000000 }
        [params.target]
        optional = true
        min = 0
        max = 1000000
        effect = "target"
        [params.hard]
        default = 0
        min = 0
        max = 1000000
        effect = { add_to_target = 1000000 }
        [params.small]
        default = 0
        min = 0
        max = 1000000
        effect = { add_to_total = 1 }
        """)
    with pytest.raises(WorkbenchError, match=r"parameter 'grit' got 1000000.*params\.grit\.effect\[0\]"):
        wb.check(path, grit=10**6)
    with pytest.raises(WorkbenchError, match=r"parameter 'hard'.*the target"):
        wb.check(path, target=1, hard=10**6)
    result = wb.check(path, small=999_999, target=10**6)
    assert result.p_pass == pytest.approx(1 - (4 / 6) ** 2)
    assert sum(result.pmf.probabilities) == pytest.approx(1.0)


# -- choices that are numbers ----------------------------------------------------------------

def test_numeric_choices_from_text(write, capsys):
    path = write("""
        [dice.dX]
        faces = [0, 0, 1, 1]
        [params.size]
        choices = [4, 6, 8]
        default = 6
        on.4.faces = { d6 = [0, 0, 0, 1, 1, 1] }
        """)
    assert wb.check(path, size="4").params["size"] == 4
    assert wb.check(path, size=4).pmf.to_dict() == wb.check(path, size=" 4 ").pmf.to_dict()
    assert wb.check(path, size="4").p_pass is None
    assert wb.check(path, size=4).pmf[2] == pytest.approx(0.25)
    with pytest.raises(WorkbenchError, match="one of 4, 6, 8"):
        wb.check(path, size="5")
    with pytest.raises(WorkbenchError, match="one of 4, 6, 8"):
        wb.check(path, size=True)
    assert main(["pmf", path, "size=4", "--format", "json"]) == 0
    assert '"2": 0.25' in capsys.readouterr().out
    # A rulebook block (Sphinx and Markdown read options as text) sets it too.
    from workbench.render import parse_block
    block = parse_block("figure", path, {"kind": "check", "size": "4"})
    assert dict(block.params) == {"size": "4"}
    assert block.system.resolve(**block.param_dict)["size"] == 4


# -- variants: an effect replaces the base's -------------------------------------------------

def test_variant_effect_replaces_the_base_effect(write):
    # UWR's penalty removes dice ({ add_dice = "d6", per_point = -1, keep_at_least = 1 }); the
    # variant's penalty costs a success instead: nothing of the base's effect is left.
    variant = write("""
        base = "uwr"
        id = "uwr-penalty-costs-a-success"
        name = "UWR, a penalty costs a success"
        [params.penalty]
        effect = { add_to_total = -1 }
        """, head=False)
    system = wb.load_system(variant)
    assert [e.verb for e in system.mechanic.model.params["penalty"].effect] == ["add_to_total"]
    result = wb.check(variant, dice=2, penalty=1)
    truth = brute(D6, {"d6": 2}, modifier=-1)
    assert dict(zip(result.pmf.outcomes, result.pmf.probabilities)) == pytest.approx(truth)


# -- data folders -------------------------------------------------------------------------

def test_a_folder_of_loose_toml_files_says_where_they_belong(tmp_path, monkeypatch, one_line_error):
    (tmp_path / "mine.toml").write_text(plain_pool("loose"), encoding="utf-8")
    monkeypatch.setenv("WORKBENCH_PATH", str(tmp_path))
    registry.reload()
    try:
        with pytest.raises(WorkbenchError, match=r"holds \.toml files \(mine\.toml\) but no systems/"):
            wb.systems()
        one_line_error("systems", contains=("systems/",))
    finally:
        monkeypatch.delenv("WORKBENCH_PATH")
        registry.reload()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_in_a_data_folder_is_refused_not_read(tmp_path, monkeypatch):
    (tmp_path / "systems").mkdir()
    os.mkfifo(tmp_path / "systems" / "pipe.toml")
    monkeypatch.setenv("WORKBENCH_PATH", str(tmp_path))
    registry.reload()
    try:
        with pytest.raises(DataFileError, match="pipe.toml.*not a regular file"):
            wb.systems()   # would block forever if the pipe were opened
        with pytest.raises(DataFileError, match="not a regular file"):
            wb.load_system(tmp_path / "systems" / "pipe.toml")
    finally:
        monkeypatch.delenv("WORKBENCH_PATH")
        registry.reload()


# -- lists are bounded ----------------------------------------------------------------------

def test_too_many_tiers_are_refused_quickly(write):
    tiers = ",".join(f'{{name="t{i}",min={i},max={i}}}' for i in range(25_000))
    path = write("tiers = [" + tiers + "]\n" + plain_pool("many-tiers"), head=False)
    with pytest.raises(DataFileError, match=r"entry 'tiers'.*at most 100 items"):
        wb.load_system(path)


# -- messages name what was meant ------------------------------------------------------------

def test_misspelt_parameter_gets_a_suggestion_everywhere(capsys):
    with pytest.raises(WorkbenchError, match="'favr'.*did you mean 'favor'"):
        wb.check("uwr", favr=1)
    assert main(["pmf", "uwr", "favr=1"]) == 2
    assert "did you mean 'favor'" in capsys.readouterr().err


def test_two_targets_at_once_are_an_error_not_a_sum(write):
    path = write("""
        [params.target]
        optional = true
        min = 0
        max = 20
        effect = "target"
        [params.ob]
        optional = true
        min = 0
        max = 20
        effect = "obstacle"
        """)
    # Either alone: at least one success of two d6 at 5+ (the target was summed to 2 before).
    assert wb.check(path, target=1).p_pass == pytest.approx(1 - (4 / 6) ** 2)
    assert wb.check(path, ob=1).p_pass == pytest.approx(1 - (4 / 6) ** 2)
    with pytest.raises(WorkbenchError, match=r"'ob' got 1; allowed: no value while 'target' sets the target"):
        wb.check(path, target=1, ob=1)
