"""No tracebacks, and messages that say what was meant: each input here used to end in a
traceback or an unclear line; now it is one line naming the parameter, the value and what
is allowed (CLI: exit status 2; Python: a WorkbenchError), and what is accepted is right."""
from __future__ import annotations

import textwrap

import pytest

import workbench as wb
from workbench import WorkbenchError
from workbench.cli import main
from workbench.render import parse_block, table_cells
from workbench.sweep import sweep

from conftest import pool_toml


LUCK = pool_toml("lucky", "Luck ladder", most=20) + """
[params.luck]
default = 0
min = 0
max = 3
effect = { shift_faces = "d6" }

[params.target]
default = 1
min = 0
max = 20
effect = "target"

[params.grade]
choices = ["low", "high"]
default = "low"

[params.extra]
optional = true
min = 0
max = 3
effect = { add_to_total = 1 }

[[ladder]]
name = "Easy"
set = { target = 1 }
add = { luck = 1 }

[[ladder]]
name = "Normal"
set = { target = 1 }
"""


@pytest.fixture
def lucky(pool_file):
    return str(pool_file(LUCK, file="lucky.toml"))


def test_the_solver_stays_inside_declared_bounds(lucky):
    # luck is 0 to 3: a step of -2 from 0 used to end in "luck got -2".
    for luck in (0, 3):
        solved = wb.solve_ladder(lucky, "Easy=0.9,Normal=0.6", pool=4, luck=luck)
        for rung in solved.rungs:
            value = luck + rung.rung.add.get("luck", 0)
            assert 0 <= value <= 3
            # Independent: 4 dice, success from face 5 - luck, at least target successes.
            success = min(6, max(1, 5 - value))
            p = (7 - success) / 6
            from math import comb
            want = sum(comb(4, k) * p ** k * (1 - p) ** (4 - k) for k in range(rung.rung.set["target"], 5))
            assert rung.achieved == pytest.approx(want)


def test_a_rung_that_would_leave_the_bounds_names_itself(lucky):
    with pytest.raises(WorkbenchError, match=r"'luck' got 3; allowed: .*rung 'Easy' adds \+1"):
        wb.ladder_table(lucky, [2], luck=3)


@pytest.mark.parametrize("key", ["grade", "extra"])
def test_a_rung_adding_to_a_choice_or_an_optional_parameter_is_a_load_error(key, pool_file):
    path = pool_file(LUCK.replace("add = { luck = 1 }", f"add = {{ {key} = 1 }}"), file="bad-rung.toml")
    with pytest.raises(wb.DataFileError, match=rf"ladder\.Easy\.add\.{key}.*adds to '{key}'"):
        wb.load_system(path)


@pytest.mark.parametrize("knobs, message", [
    ({"bogus": None}, r"'knobs' got 'bogus'; allowed: names of its parameters"),
    ({"favr": None}, r"did you mean 'favor'"),
    ({"half": None}, r"whole-number parameters only"),
    ({"target": ()}, r"one or more values"),
    ({"target": ("x",)}, r"'target' got 'x'"),
    ({"favor": (0.5,)}, r"whole numbers to add"),
])
def test_solver_knobs_are_checked(knobs, message):
    with pytest.raises(WorkbenchError, match=message):
        wb.solve_ladder("uwr", "Normal=0.7", knobs=knobs)


def test_a_long_stat_is_a_one_line_error(one_line_error):
    with pytest.raises(WorkbenchError, match=r"parameter 'stat' got 'B9999.*such as B5"):
        wb.check("arrata", stat="B" + "9" * 5000)
    one_line_error("pmf", "arrata", "stat=B" + "9" * 5000, contains=("such as B5",))
    one_line_error("pmf", "arrata", "stat=B\u0663", contains=("such as B5",))


def test_a_figure_of_many_panels(tmp_path, capsys, one_line_error):
    many = ",".join(["fons", "unnamed", "arrata", "erzahlspiel", "blades", "cofd", "owod", "pbta",
                     "fate", "risk", "exalted", "vampire5", "year-zero", "alien-rpg", "genesys",
                     "dnd5e", "traveller", "cypher", "gurps", "ironsworn"])   # each once
    out = tmp_path / "many.html"
    assert main(["figure", "uwr", "--compare", many, "--out", str(out)]) == 0
    capsys.readouterr()
    assert out.stat().st_size > 0
    one_line_error("figure", "uwr", "--compare", ",".join(f"{n}d6" for n in range(1, 81)), "--out",
                   str(tmp_path / "too-many.html"), contains=("at most 60",))


def test_old_keywords_say_their_new_names(one_line_error):
    for call in (lambda: wb.versus("uwr", attacker={"dice": 3}, defender={"dice": 2}),
                 lambda: wb.rounds_until_hits("uwr", attacker={"dice": 3}, reactor={"dice": 2}),
                 lambda: wb.taken_out(defender="red"),
                 lambda: sweep("versus", {"attacker": [{"dice": 3}]}, system="uwr")):
        with pytest.raises(WorkbenchError, match=r"(attacker= is now actor=|defender= is now reactor=)"):
            call()
    one_line_error("versus", "uwr", "--attacker", "dice=3", "--defender", "dice=2",
                   contains=("--attacker is now --actor",))
    with pytest.raises(WorkbenchError, match="did you mean 'actor'"):
        wb.versus("uwr", actr={"dice": 3}, reactor={})


def test_misspelt_names_get_suggestions_on_every_surface(one_line_error):
    with pytest.raises(WorkbenchError, match="did you mean 'favor'"):
        table_cells(parse_block("table", "uwr", {"favr": "1"}))
    with pytest.raises(WorkbenchError, match="did you mean 'players'"):
        sweep("drama_campaign", {"player": [3]}, session=[{"d6": 3}])
    with pytest.raises(WorkbenchError, match="did you mean 'favor'"):
        sweep("check", {"favr": [1]}, system="uwr")
    one_line_error("table", "uwr", "favr=1", contains=("did you mean 'favor'",))


def test_an_effect_error_names_the_parameter_and_its_file(pool_file):
    path = pool_file(id="all-explode", name="Wild dice", file="every.toml", more=textwrap.dedent("""
        [params.wild]
        default = 0
        min = 0
        max = 6
        effect = { explode_from = "d6" }
        """))
    with pytest.raises(WorkbenchError) as caught:
        wb.check(str(path), wild=1)
    message = str(caught.value)
    assert "parameter 'wild' got 1" in message and "params.wild.effect[0]" in message
    assert str(path) in message
    # Within what the file allows, the numbers are right: 6s explode from wild=6.
    assert wb.check(str(path), dice=1, wild=6).mean == pytest.approx((2 / 6) / (1 - 1 / 6))


# -- found in the adversarial pass -----------------------------------------------------------

@pytest.mark.parametrize("name", ["system", "trials", "seed", "pool", "actor"])
def test_a_parameter_named_like_a_keyword_is_refused(name, pool_file):
    # check(path, system=1) used to be a TypeError; simulate(..., trials=...) silently took
    # the parameter as the number of trials.
    path = pool_file(LUCK.replace("[params.extra]", f"[params.{name}]"), file="reserved.toml")
    with pytest.raises(wb.DataFileError, match=rf"params\.{name}.*keyword of the workbench"):
        wb.load_system(path)
    from workbench.rules import DieType, PoolSpec
    with pytest.raises(WorkbenchError, match="keyword of the workbench"):
        wb.register_mechanic("reserved", lambda p: PoolSpec(((DieType("d2", (0, 1)), 1),)),
                             params={name: {"default": 0, "min": 0, "max": 3}})


def test_data_folder_names_that_are_files_or_repeated(tmp_path, monkeypatch):
    from workbench.rules import registry

    (tmp_path / "systems").mkdir()
    (tmp_path / "systems" / "lucky.toml").write_text(LUCK, encoding="utf-8")
    a_file = tmp_path / "not-a-folder.toml"
    a_file.write_text("", encoding="utf-8")
    try:
        monkeypatch.setenv("WORKBENCH_PATH", str(a_file))
        registry.reload()
        with pytest.raises(WorkbenchError, match="is a file, not a folder"):
            wb.systems()
        monkeypatch.setenv("WORKBENCH_PATH", f"{tmp_path}:{tmp_path}/")
        registry.reload()
        assert [s.id for s in wb.systems()].count("lucky") == 1   # read once, not a clash
    finally:
        monkeypatch.delenv("WORKBENCH_PATH")
        registry.reload()


def test_ladders_and_curves_are_bounded_in_total():
    with pytest.raises(WorkbenchError, match="wanted names 300 rungs; allowed: 1 to 100"):
        wb.solve_ladder("uwr", {f"R{i}": 0.5 for i in range(300)}, pool=4)
    with pytest.raises(WorkbenchError, match=r"1,000 settings x 1001 pools.*WORKBENCH_MAX_SWEEP_POINTS"):
        wb.solve_ladder("uwr", "Normal=0.7", pool=500, pools=range(0, 1001))
    with pytest.raises(WorkbenchError, match=r"a curve over .* different pools.*WORKBENCH_MAX_EXACT_WORK"):
        wb.success_curve("fons-exploding", range(1, 1001))


def test_the_protocol_of_a_python_mechanic_is_checked():
    from workbench.rules import DieType, PoolSpec
    from workbench.rules.mechanics.base import Mechanic
    from workbench.rules.params import Param

    class Odd(Mechanic):
        uncontested = "pass"

        def params(self):
            return (Param("dice", "int", 1, 0, 5),)

        def pool(self, p):
            return PoolSpec(((DieType("d2", (0, 1)), p["dice"]),))

        def versus_ties(self, p):
            return "actor"

    class NoDict(Odd):
        def preprocess(self, given):
            return None

    class NoExtra(Odd):
        def extra(self, p):
            return ["margin"]

    try:
        wb.register_mechanic("odd", Odd, replace=True)
        with pytest.raises(WorkbenchError, match="uncontested is 'pass'; allowed: 'counts' or 'passes'"):
            wb.versus("odd", {"dice": 1}, {"dice": 0})
        wb.register_mechanic("odd", NoDict, replace=True)
        with pytest.raises(WorkbenchError, match=r"preprocess\(given\) returned None"):
            wb.check("odd")
        wb.register_mechanic("odd", NoExtra, replace=True)
        with pytest.raises(WorkbenchError, match=r"extra\(p\) returned \['margin'\]"):
            wb.check("odd")
    finally:
        wb.unregister_mechanic("odd")
