"""Systems as data: shipped variants, a designer's own file, and malformed files.

A data file is TOML, parsed and never executed; a broken one raises ``DataFileError``
naming the file, the entry and the problem.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import workbench
from workbench import DataFileError, load_system
from workbench.rules.registry import DATA_DIR

WORKBENCH_SOURCE = Path(workbench.__file__).parent


# ---------------------------------------------------------------------------------------
# The shipped variants load and behave

def test_shipped_variants_are_listed():
    ids = [s.id for s in workbench.systems()]
    for variant in ("fons-exploding", "arrata-cancelling", "erzahlspiel-six-dice", "d10-pool"):
        assert variant in ids
        assert (DATA_DIR / "variants" / f"{variant}.toml").exists()


def test_fons_exploding_sixes_roll_again():
    # Two dice show 6 and 2; the 6 is a success and rolls again, showing 5: two successes.
    roll = workbench.score("fons-exploding", [6, 2, 5], dice=2)
    assert roll.successes == 2
    with pytest.raises(workbench.WorkbenchError):
        workbench.score("fons-exploding", [6, 2], dice=2)  # the 6's extra die is missing
    assert workbench.score("fons", [6, 2], dice=2).successes == 1
    exploding = workbench.check("fons-exploding", dice=1)
    assert exploding.pmf[1] == pytest.approx(1 / 6 + 1 / 6 * 4 / 6)  # a 5, or a 6 then a miss
    assert exploding.mean == pytest.approx((2 / 6) / (1 - 1 / 6))  # geometric chain of 6s
    assert workbench.system("fons-exploding").ladder == workbench.system("fons").ladder


def test_arrata_cancelling_levels_cancel():
    for adv, dis in [(2, 1), (1, 1), (1, 3), (3, 0)]:
        variant = workbench.check("arrata-cancelling", stat="B3", advantage=adv, disadvantage=dis)
        net_adv, net_dis = max(adv - dis, 0), max(dis - adv, 0)
        plain = workbench.check("arrata", stat="B3", advantage=net_adv, disadvantage=net_dis)
        assert list(variant.pmf.probabilities) == pytest.approx(list(plain.pmf.probabilities))
    assert workbench.system("arrata-cancelling").params["combine"].default == "net"


def test_erzahlspiel_sixth_die():
    six = workbench.system("erzahlspiel-six-dice")
    assert six.params["die"].choices == ("black", "red", "yellow", "green", "blue", "purple")
    purple = workbench.check(six, die="purple")
    assert purple.p_pass == pytest.approx(1.0)
    assert purple.pmf["YES! AND..."] == pytest.approx(3 / 6)
    assert workbench.check(six, advantage=3).extra["rolled"] == "purple"
    assert workbench.check("erzahlspiel", advantage=3).extra["rolled"] == "blue"
    with pytest.raises(workbench.ParameterError):
        workbench.check("erzahlspiel", die="purple")  # the base system is untouched


def test_d10_pool_succeeds_on_eight_or_more():
    assert workbench.score("d10-pool", [8, 7, 10], dice=3).successes == 2
    assert workbench.check("d10-pool", dice=1, target=1).p_pass == pytest.approx(3 / 10)
    assert workbench.check("d10-pool", dice=1, favor=1, target=1).p_pass == pytest.approx(4 / 10)
    with pytest.raises(workbench.WorkbenchError):
        workbench.score("d10-pool", [11], dice=1)


# ---------------------------------------------------------------------------------------
# A designer's own files

def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_designers_variant_file(tmp_path):
    path = write(tmp_path, "generous-unnamed.toml", """
        base = "unnamed"
        id = "generous-unnamed"
        name = "Unnamed, successes on 4+"
        [constants]
        success_from = 4
        [defaults]
        bounce_on = 6
    """)
    mine = load_system(path)
    assert mine.id == "generous-unnamed"
    assert mine.params["bounce_on"].default == 6
    assert [r.name for r in mine.ladder] == [r.name for r in workbench.system("unnamed").ladder]
    assert workbench.score(mine, [4, 2], d6=2).net == 1
    assert workbench.score("unnamed", [4, 2], d6=2).net == 0
    by_path = workbench.check(str(path), d6=2)
    assert by_path.system == "generous-unnamed"
    assert by_path.p_pass > workbench.check("unnamed", d6=2).p_pass


def test_designers_own_system_file(tmp_path):
    path = write(tmp_path, "d8-pool.toml", """
        id = "d8-pool"
        name = "d8 pool, 6+"
        mechanic = "success_pool"
        pool_parameter = "dice"
        [constants]
        sides = 8
        threshold = 6
        [[ladder]]
        name = "Hard"
        set = { target = 2 }
    """)
    result = workbench.check(str(path), dice=2, target=2)
    assert result.p_pass == pytest.approx((3 / 8) ** 2)
    assert workbench.system(str(path)).with_rung("Hard", dice=4) == {"dice": 4, "target": 2}


def test_data_files_are_parsed_never_executed(tmp_path):
    marker = tmp_path / "executed"
    path = write(tmp_path, "sneaky.toml", f"""
        base = "uwr"
        id = "sneaky"
        name = "__import__('pathlib').Path({str(marker)!r}).touch()"
        description = "exec(open('x').read())"
    """)
    system = load_system(path)
    assert system.name.startswith("__import__")  # kept as text
    assert not marker.exists()
    for source in WORKBENCH_SOURCE.rglob("*.py"):  # nothing evaluates text from a file
        code = source.read_text(encoding="utf-8")
        assert "eval(" not in code and "exec(" not in code, source


# ---------------------------------------------------------------------------------------
# Malformed files: DataFileError naming file, entry and problem

MALFORMED = {
    "bad-toml": ('id = "x"\nname = [unclosed\n', "(file)", "TOML"),
    "unknown-mechanic": ('id = "x"\nname = "X"\nmechanic = "roulette"\n', "mechanic", "roulette"),
    "unknown-key": ('id = "x"\nname = "X"\nmechanic = "success_pool"\ncolour = "red"\n', "colour", "unknown key"),
    "bad-constant": ('id = "x"\nname = "X"\nmechanic = "success_pool"\n[constants]\nsides = "six"\n',
                     "constants.sides", "whole number"),
    "negative-constant": ('id = "x"\nname = "X"\nmechanic = "open_ended"\n[constants]\nsides = -3\n',
                          "constants.sides", ">= 2"),
    "unknown-ladder-parameter": ('base = "uwr"\nid = "x"\nname = "X"\n[[ladder]]\nname = "Odd"\n'
                                 'set = { colour = 3 }\n', "ladder.Odd", "colour"),
    "ladder-add-not-a-number": ('base = "uwr"\nid = "x"\nname = "X"\n[[ladder]]\nname = "Odd"\n'
                                'add = { favor = "one" }\n', "ladder[0].add", "whole numbers"),
    "unknown-base": ('base = "gurps"\nid = "x"\nname = "X"\n', "base", "gurps"),
    "bad-default": ('base = "uwr"\nid = "x"\nname = "X"\n[defaults]\nfavor = "lots"\n', "defaults.favor", "'lots'"),
    "unknown-default": ('base = "uwr"\nid = "x"\nname = "X"\n[defaults]\nluck = 1\n', "defaults.luck", "unknown"),
    "unknown-rule-option": ('base = "uwr"\nid = "x"\nname = "X"\nrule_options = ["teleport"]\n',
                            "rule_options", "teleport"),
    "missing-name": ('id = "x"\nmechanic = "success_pool"\n', "name", "required"),
    "narrative-bad-face": ('base = "erzahlspiel"\nid = "x"\nname = "X"\n[constants.dice]\n'
                           'grey = ["MAYBE", "NO!", "NO!", "NO!", "NO!", "NO!"]\n', "constants.dice.grey", "MAYBE"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_file_names_file_entry_and_problem(tmp_path, case):
    text, entry, problem = MALFORMED[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        load_system(path)
    error = caught.value
    assert isinstance(error, ValueError)
    assert Path(error.path) == path
    assert error.entry == entry
    assert problem in error.problem
    message = str(error)
    assert str(path) in message and entry in message and problem in message


def test_missing_file_is_a_data_file_error(tmp_path):
    with pytest.raises(DataFileError) as caught:
        load_system(tmp_path / "nowhere.toml")
    assert caught.value.entry == "(file)"


def test_cli_reports_a_broken_file_in_one_line(tmp_path, capsys):
    from workbench.cli import main
    path = write(tmp_path, "broken.toml", 'id = "x"\nname = "X"\nmechanic = "roulette"\n')
    assert main(["pmf", str(path), "dice=2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "mechanic" in err


def test_variants_remember_their_base():
    """A variant names the preset it changes, so comparisons can find the baseline."""
    assert workbench.system("fons-exploding").base == "fons"
    assert workbench.system("d10-pool").base == "uwr"
    assert workbench.system("fons").base is None
