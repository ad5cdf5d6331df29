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
        [dice.d6]
        faces = [0, 0, 0, 1, 1, 1]
        [dice.d8]
        faces = [0, 0, 0, 1, 1, 1, 1, 1]
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
        mechanic = "pool"
        pool_parameter = "dice"
        [dice.d8]
        faces = [0, 0, 0, 0, 0, 1, 1, 1]
        [params.dice]
        default = 0
        min = 0
        max = 100
        effect = { add_dice = "d8" }
        [params.target]
        optional = true
        min = 0
        effect = "target"
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

POOL = 'id = "x"\nname = "X"\nmechanic = "pool"\n[dice.d6]\nfaces = [0, 0, 0, 0, 1, 1]\n'
VARIANT = 'base = "uwr"\nid = "x"\nname = "X"\n'

MALFORMED = {
    "bad-toml": ('id = "x"\nname = [unclosed\n', "(file)", "TOML"),
    "unknown-mechanic": ('id = "x"\nname = "X"\nmechanic = "roulette"\n', "mechanic", "roulette"),
    "old-mechanic": ('id = "x"\nname = "X"\nmechanic = "success_pool"\n', "mechanic", "pool, narrative"),
    "unknown-key": (POOL + 'colour = "red"\n', "dice.d6.colour", "unknown key 'colour'"),
    "top-unknown-key": ('colour = "red"\n' + POOL, "colour", "keys here: id, name"),
    "misspelled-die-key": (POOL + 'explodes_on = [6]\n', "dice.d6.explodes_on", "did you mean 'explode'?"),
    "old-constants": (VARIANT + '[constants]\nexplodes_on = 6\n', "constants", "[dice.NAME]"),
    "explode-missing-face": (POOL + 'explode = [7]\n', "dice.d6.explode", "faces 1 to 6"),
    "every-face-explodes": (POOL.replace("[0, 0, 0, 0, 1, 1]", "[1, 1]") + 'explode = [1, 2]\n',
                            "dice.d6.explode", "never ends"),
    "bad-face-type": (POOL.replace("[0, 0, 0, 0, 1, 1]", '["four", 1]'), "dice.d6.faces[0]", "outcome label"),
    "die-not-a-table": (POOL + '[dice]\nred = 3\n', "dice.red", "table"),
    "die-is-a-number": ('id = "x"\nname = "X"\nmechanic = "pool"\ndice = { red = 3 }\n', "dice.red", "table"),
    "ties-nobody": (POOL + '[versus]\nties = "nobody"\n', "versus.ties", "'actor' or 'reactor'"),
    "aliases-number": ('aliases = 3\n' + POOL, "aliases", "list"),
    "aliases-text": ('aliases = "abc"\n' + POOL, "aliases", "list"),
    "base-list": ('base = ["fons"]\nid = "x"\nname = "X"\n', "base", "text"),
    "rule-options-number": (VARIANT + 'rule_options = 3\n', "rule_options", "rule_option = true"),
    "ladder-set-number": (VARIANT + '[[ladder]]\nname = "A"\nset = 3\n', "ladder[0].set", "table"),
    "ladder-duplicate": (VARIANT + '[[ladder]]\nname = "A"\n[[ladder]]\nname = "a"\n', "ladder", "differ"),
    "unknown-ladder-parameter": (VARIANT + '[[ladder]]\nname = "Odd"\nset = { colour = 3 }\n', "ladder.Odd", "colour"),
    "ladder-add-not-a-number": (VARIANT + '[[ladder]]\nname = "Odd"\nadd = { favor = "one" }\n',
                                "ladder[0].add.favor", "integer"),
    "ladder-set-out-of-range": (VARIANT + '[[ladder]]\nname = "Odd"\nset = { target = -3 }\n',
                                "ladder.Odd.set.target", "whole number"),
    "unknown-base": ('base = "hero-system"\nid = "x"\nname = "X"\n', "base", "hero-system"),
    "bad-default": (VARIANT + '[defaults]\nfavor = "lots"\n', "defaults.favor", "'lots'"),
    "unknown-default": (VARIANT + '[defaults]\nluck = 1\n', "defaults.luck", "unknown"),
    "missing-name": ('id = "x"\nmechanic = "pool"\n[dice.d6]\nfaces = [1]\n', "name", "required"),
    "unknown-effect": (POOL + '[params.n]\ndefault = 0\neffect = { add_die = "d6" }\n',
                       "params.n.effect[0].add_die", "did you mean 'add_dice'"),
    "effect-unknown-die": (POOL + '[params.n]\ndefault = 0\neffect = { add_dice = "d8" }\n',
                           "params.n.effect[0].add_dice", "declared: d6"),
    "two-verbs": (POOL + '[params.n]\ndefault = 0\neffect = { add_dice = "d6", add_to_total = 1 }\n',
                  "params.n.effect[0]", "exactly one"),
    "default-out-of-range": (POOL + '[params.n]\ndefault = 9\nmin = 0\nmax = 3\n', "params.n", "outside"),
    "cancel-missing-face": (POOL + '[params.n]\ndefault = 0\neffect = { cancel = [9] }\n',
                            "params.n.effect[0].cancel", "faces 1 to 6"),
    "when-unknown-value": (POOL + '[params.n]\ndefault = 0\neffect = { add_to_total = 1, when = { n = "x" } }\n',
                           "params.n.effect[0].when.n", "whole number"),
    "choice-on-unknown": (POOL + '[params.q]\nchoices = ["a"]\non.b.faces = { d6 = [1, 1, 1, 1, 1, 1] }\n',
                          "params.q", "not one of the choices"),
    "choice-faces-count": (POOL + '[params.q]\nchoices = ["a"]\non.a.faces = { d6 = [1, 1] }\n',
                           "params.q.on.a.faces.d6", "the die has 6"),
    "explode-into-unknown": (POOL + 'explode = [6]\nexplode_into = "d8"\n', "dice.d6.explode_into", "unknown die"),
    "qualities-text": ('base = "arrata"\nid = "x"\nname = "X"\n[params.quality.on.B]\nfaces = { d6 = "four" }\n',
                       "params.quality.on.B.faces.d6", "list"),
    "narrative-bad-face": ('base = "erzahlspiel"\nid = "x"\nname = "X"\n[constants.dice]\n'
                           'grey = ["MAYBE", "NO!", "NO!", "NO!", "NO!", "NO!"]\n', "constants.dice.grey", "MAYBE"),
    "narrative-dice-number": ('base = "erzahlspiel"\nid = "x"\nname = "X"\n[constants.dice]\nred = 3\n',
                              "constants.dice.red", "list"),
    "modifier-wrong-verb": (POOL + '[params.n]\ndefault = 0\neffect = { add_to_total = 1, keep_at_least = 1 }\n',
                            "params.n.effect[0]", "keep_at_least does not apply to add_to_total"),
    "pool-parameter-bool": ('pool_parameter = "n"\n' + POOL + '[params.n]\ndefault = false\n',
                            "pool_parameter", "not a whole-number parameter"),
    "text-default": (POOL + '[params.n]\ndefault = "three"\n', "params.n", "whole number or true/false"),
    "shipped-id": ('base = "fons"\nid = "fons-exploding"\nname = "X"\n', "id", "already used"),
    "shipped-id-other-case": ('base = "fons"\nid = "FONS"\nname = "X"\n', "id", "already used"),
    "shift-faces-unknown-die": (POOL + '[params.n]\ndefault = 0\neffect = { shift_faces = "d8" }\n',
                                "params.n.effect[0].shift_faces", "unknown die type 'd8'; declared: d6"),
    "misspelt-effect-word": (POOL + '[params.n]\ndefault = 0\neffect = "reroll_mises"\n',
                             "params.n.effect", "did you mean 'reroll_misses'"),
    "choice-unknown-die": (POOL + '[params.q]\nchoices = ["a"]\non.a.faces = { d10 = [1, 1, 1, 1, 1, 1] }\n',
                           "params.q.on.a.faces", "unknown die type 'd10'"),
    # Overlapping tiers used to load, the later tier silently losing the shared totals.
    "tiers-overlap": (POOL + '[[tiers]]\nname = "Fail"\nmax = 1\n[[tiers]]\nname = "Win"\nmin = 1\n',
                      "tiers", "tiers[1] 'Win' overlaps tiers[0] 'Fail' (totals up to 1 and 1 and up)"),
    "tiers-shadowed": (POOL + '[[tiers]]\nname = "Any"\n[[tiers]]\nname = "High"\nmin = 3\nmax = 4\n',
                       "tiers", "(totals every total and 3 to 4)"),
    "tier-min-above-max": (POOL + '[[tiers]]\nname = "Odd"\nmin = 3\nmax = 1\n',
                           "tiers[0]", "min 3 is above max 1"),
    "alias-of-other-system": ('base = "fons"\nid = "x"\nname = "X"\naliases = ["hkrpg"]\n', "aliases", "already used"),
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


def test_cli_reports_a_broken_file_in_one_line(tmp_path, one_line_error):
    path = write(tmp_path, "broken.toml", 'id = "x"\nname = "X"\nmechanic = "roulette"\n')
    one_line_error("pmf", str(path), "dice=2", contains=(str(path), "mechanic"))


def test_variants_remember_their_base():
    """A variant names the preset it changes, so comparisons can find the baseline."""
    assert workbench.system("fons-exploding").base == "fons"
    assert workbench.system("d10-pool").base == "uwr"
    assert workbench.system("fons").base is None


# ---------------------------------------------------------------------------------------
# Reading files safely, and where systems come from

def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes("\ufeff".encode() + b'base = "uwr"\nid = "with-bom"\nname = "BOM"\n')
    assert load_system(path).id == "with-bom"


@pytest.mark.parametrize("content, problem", [
    (b'id = "x"\nname = "\xff\xfe"\n', "not UTF-8"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00", "binary"),
    (b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested"),
    (b"# " + b"x" * (2 << 20) + b"\n", "larger than"),
])
def test_unreadable_files_are_data_file_errors(tmp_path, content, problem):
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    with pytest.raises(DataFileError) as caught:
        load_system(path)
    assert caught.value.entry == "(file)" and problem in caught.value.problem


def test_endless_file_is_read_only_up_to_the_limit(tmp_path):
    with pytest.raises(DataFileError, match="not a regular file"):
        load_system("/dev/zero")   # a device is never opened
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * (1 << 20) + b"\n")
    with pytest.raises(DataFileError, match="larger than"):
        load_system(big)
    with pytest.raises(DataFileError, match="binary|not valid|larger"):
        workbench.system("/bin/ls")


def test_variants_do_not_inherit_description_or_seed(tmp_path):
    path = write(tmp_path, "plain.toml", 'base = "fons"\nid = "plain"\nname = "P"\n')
    mine = load_system(path)
    assert mine.description == "" and mine.seed == ""
    assert workbench.system("fons").description


def test_ids_match_ignoring_case():
    assert workbench.system("UWR").id == "uwr"
    assert workbench.system("HKRPG").id == "uwr"
    assert workbench.system("Fons-Exploding").id == "fons-exploding"


@pytest.fixture
def folders(monkeypatch):
    from workbench.rules import registry
    yield monkeypatch, registry
    monkeypatch.undo()
    registry.reload()


@pytest.fixture
def user_folder(tmp_path, folders):
    """A folder named by WORKBENCH_PATH: ``put(name, text or bytes)`` drops a file into its
    variants/ and reloads the catalogue, as a designer adding a file would."""
    monkeypatch, registry = folders
    variants = tmp_path / "variants"
    variants.mkdir()
    monkeypatch.setenv("WORKBENCH_PATH", str(tmp_path))

    def put(name: str, content: "str | bytes") -> Path:
        if isinstance(content, bytes):
            (variants / name).write_bytes(content)
        else:
            write(variants, name, content)
        registry.reload()
        return variants / name
    return put


def test_workbench_path_adds_a_folder_and_loaded_files_say_where(tmp_path, user_folder):
    from workbench.rules import registry
    user_folder("mine.toml", 'base = "arrata"\nid = "mine"\nname = "Mine"\n')
    assert workbench.system("mine").base == "arrata"
    where = {f.id: f for f in registry.loaded_files()}
    assert where["mine"].origin == "WORKBENCH_PATH" and where["mine"].path == tmp_path / "variants" / "mine.toml"
    assert where["uwr"].origin == "packaged"


def test_a_second_file_with_a_shipped_id_is_a_load_error(user_folder):
    user_folder("again.toml", 'base = "fons"\nid = "Fons-Exploding"\nname = "Again"\n')
    with pytest.raises(DataFileError, match="already used"):
        workbench.systems()


def test_missing_data_folder_is_named(folders):
    monkeypatch, registry = folders
    monkeypatch.setenv("WORKBENCH_DATA", "/nonexistent")
    registry.reload()
    with pytest.raises(workbench.WorkbenchError, match="does not exist"):
        workbench.systems()


def test_a_broken_file_in_a_folder_is_one_clean_error(user_folder):
    user_folder("broken.toml", b"\xff\xfe\x00")
    with pytest.raises(DataFileError) as caught:
        workbench.check("uwr", dice=1)
    assert "broken.toml" in str(caught.value)


def test_import_stays_light():
    """pydantic (the schema) loads with the first data file, not with ``import workbench``."""
    import subprocess
    import sys
    code = "import sys, workbench; print('pydantic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_file_system_is_found_again_by_the_code_that_keeps_its_id(tmp_path, capsys):
    """A solved ladder's across-pools table and the report use the file's own system."""
    from workbench.cli import main
    edge = WORKBENCH_SOURCE.parent / "data" / "examples" / "d10-edge.toml"
    solution = workbench.solve_ladder(str(edge), {"Hard": 0.45}, pool=5)
    across = solution.across_pools([3, 5])
    assert across.iloc[0, 1] == pytest.approx(workbench.check(str(edge), dice=5, target=3).p_pass)
    assert main(["ladder", str(edge), "--want", "Hard=0.45", "--pool", "5", "--pools", "3,5",
                 "--format", "csv"]) == 0
    assert "Hard" in capsys.readouterr().out


@pytest.mark.slow
def test_report_renders_a_variant_given_by_file(tmp_path):
    """A what-if variant of one's own, given as a path: its section compares it with its base."""
    mine = tmp_path / "uwr-hard-sixes.toml"
    mine.write_text('base = "uwr"\nid = "uwr-hard-sixes"\nname = "UWR, sixes explode"\n\n'
                    '[dice.d6]\nexplode = [6]\n', encoding="utf-8")
    out = workbench.build_report(tmp_path / "r.html", ["uwr"], variants=[str(mine)], progress=False)
    page = out.read_text(encoding="utf-8")
    assert "UWR, sixes explode" in page and "no pool size to compare along" not in page


def test_report_refuses_a_file_without_a_base_as_a_variant(tmp_path):
    """A system of one's own with no base compares with nothing: it goes among the systems."""
    edge = WORKBENCH_SOURCE.parent / "data" / "examples" / "d10-edge.toml"
    with pytest.raises(workbench.ParameterError, match="'d10-edge' has no base: list it among the systems"):
        workbench.build_report(tmp_path / "r.html", ["uwr"], variants=[str(edge)], progress=False)
    assert not (tmp_path / "r.html").exists()


def test_pools_beyond_the_limit_are_parameter_errors():
    with pytest.raises(workbench.ParameterError, match="at most 1000 dice"):
        workbench.check("unnamed", d6=900, d8=200)


def test_an_id_out_of_ascii_says_what_an_id_may_be_in_words(tmp_path):
    """pydantic says a pattern as a regular expression; the file's author reads it in words."""
    path = tmp_path / "wuerfel.toml"
    path.write_text('id = "würfel"\nname = "W"\nmechanic = "pool"\n[dice.d6]\nsides = 6\n',
                    encoding="utf-8")
    with pytest.raises(workbench.DataFileError) as caught:
        workbench.load_system(path)
    message = str(caught.value)
    assert "entry 'id': allowed: ASCII letters, digits, '_', '.' and '-'" in message
    assert "got 'würfel'" in message and "[A-Za-z" not in message
