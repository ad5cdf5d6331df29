"""The one-line dice language's front: fuzzed formulas (accepted ones exact against the brute
force, refused ones one line with a caret), limits checked before any work, the command line's
bytes, and the data file ``--as-toml`` prints giving identical results."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import workbench as wb
from workbench.errors import FormulaError

from conftest import run_cli

try:
    from tests import _formula_brute as brute
except ImportError:  # run from inside tests/
    import _formula_brute as brute

# -- fuzzed formulas against the brute force ------------------------------------------------

COMPS = (">=", "<=", ">", "<", "=")


@st.composite
def modifiers(draw, sides):
    """A few modifiers in a random order, each as (text, brute-force tuple or None)."""
    faces = brute.faces_of(sides)
    top = max(faces)
    value = st.sampled_from(faces)
    pool = [
        lambda: (lambda w, n: (f"{w}{n}", (w, n)))(draw(st.sampled_from(("kh", "kl", "dh", "dl", "km"))),
                                                      draw(st.integers(1, 2))),
        lambda: (lambda c: (f"x{c}{top}", ("x", c, top)))(draw(st.sampled_from(("=", ">=")))),
        lambda: ("xo", ("xo", "=", top)),
        lambda: (lambda c, v: (f"r{c}{v}", ("r", c, v)))(draw(st.sampled_from(COMPS)), draw(value)),
        lambda: (lambda c, v: (f"rr{c}{v}", ("rr", c, v)))(draw(st.sampled_from(("=", "<=", "<"))), draw(value)),
        lambda: (lambda v: (f"min{v}", ("min", v)))(draw(value)),
        lambda: (lambda v: (f"max{v}", ("max", v)))(draw(value)),
        lambda: (lambda c, v: (f"cs{c}{v}", ("cs", c, v)))(draw(st.sampled_from(COMPS)), draw(value)),
        lambda: (lambda c, v: (f"dbl{c}{v}", ("dbl", c, v)))(draw(st.sampled_from(COMPS)), draw(value)),
        lambda: (lambda c, v: (f"df{c}{v}", ("df", c, v)))(draw(st.sampled_from(COMPS)), draw(value)),
    ]
    chosen = draw(st.lists(st.integers(0, len(pool) - 1), max_size=3))
    return [pool[i]() for i in chosen]


def workbench_reading(mods):
    """The order the workbench reads a term in: cs, dbl and df after an explosion written
    later (``8d10cs>=8x`` counts every explosion), and in that order."""
    counting = {"cs": 0, "dbl": 1, "df": 2}
    rest = [m for m in mods if m[0] not in counting]
    return rest + sorted((m for m in mods if m[0] in counting), key=lambda m: counting[m[0]])


@st.composite
def formulas(draw):
    terms, texts = [], []
    for i in range(draw(st.integers(1, 2))):
        sign = 1 if i == 0 else draw(st.sampled_from((1, -1)))
        sides = draw(st.sampled_from((2, 3, 4, 6, "F")))
        count = draw(st.integers(1, 3 if i == 0 else 1))
        mods = draw(modifiers(sides))
        text = f"{count}d{sides}" + "".join(t for t, _ in mods)
        texts.append(("" if i == 0 else "+" if sign > 0 else "-") + text)
        terms.append((sign, brute.dice(count, sides, *workbench_reading([m for _, m in mods]))))
    if draw(st.booleans()):
        constant = draw(st.integers(0, 5))
        texts.append(f"+{constant}")
        terms.append((1, ("const", constant)))
    return "".join(texts), terms


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas())
def test_random_formulas_are_exact_or_refused_in_one_line(case):
    text, terms = case
    try:
        result = wb.check(text)
    except FormulaError as exc:
        assert "\n" not in str(exc) and 0 <= exc.position <= len(text)
        assert str(exc).startswith(f"{text}: column {exc.position + 1}: ")
        return
    got = {int(o): p for o, p in result.pmf.to_dict().items()}
    assert abs(sum(got.values()) - 1) < 1e-9
    want, lost = brute.distribution(terms, cutoff=1e-7)
    for outcome in set(got) | set(want):
        assert abs(got.get(outcome, 0) - want.get(outcome, 0)) <= 1e-8 + lost + result.lost_mass, (text, outcome)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789dDkhlxorcsfmina@{}()+-<>=;:,%F bpq ", max_size=20))
def test_any_text_is_a_formula_or_one_line_refusal(text):
    """No text crashes the reader: it is a system, or a refusal of one line (a formula's names
    the column, within the text)."""
    try:
        wb.formula_system(text)
    except FormulaError as exc:
        assert "\n" not in str(exc) and 0 <= exc.position <= len(text)
    except wb.WorkbenchError as exc:
        assert "\n" not in str(exc)


# -- limits before any work ---------------------------------------------------------------------

@pytest.mark.parametrize("text,column,words", [
    ("1000000d6", 1, "1,000,000 dice; allowed: at most 1,000"),
    ("900d6+200d6", 7, "200 dice; allowed: at most 1,000 dice in a formula"),
    ("1" * 40 + "d6", 1, "a number of 40 digits; allowed: at most 30"),
    ("４d6", 1, "'４' is not an ASCII digit"),
    ("4d６", 3, "'６' is not an ASCII digit"),
    ("3d6+٣", 5, "is not an ASCII digit"),
    ("{" * 6 + "1d6" + "}" * 6, 6, "pools nested 6 deep; allowed: at most 5"),
    ("1d6+" * 300 + "1", 81, "characters; allowed: at most 1,000"),
    ("1d2000", 3, "a d2000; allowed: dice of 1 to 1000 faces"),
    ("1d1000r1", 7, "1,000,000 equally likely faces"),
    ("1d6x>=1", 4, "explodes on every face"),
    ("3d6rr<=6", 4, "matches every face"),
    ("4d6xkh3", 5, "keeps from every result"),
    ("4d6kh0", 4, "keeps or drops no die"),
    ("4d6kh3r1", 7, "write the reroll first"),
    ("4d6df=1cs>=5", 4, "df before cs"),
    ("4d6cs", 6, "cs needs a target"),
    ("6d6even", 4, "not read by the workbench"),
    ("1d@n", 3, "a die's size cannot be a knob"),
    ("(@pool)d6", 2, "a keyword of the workbench's own functions"),
    ("(@dice=2000)d6", 2, "allowed: 0 to 1000"),
    ("4d6kq3", 5, "unexpected"),
    ("2d6+", 5, "the formula ends early"),
    ("1d20+5>=15>=3", 11, "unexpected"),
])
def test_refusals_name_the_column(text, column, words):
    with pytest.raises(FormulaError) as caught:
        wb.formula_system(text)
    assert caught.value.position + 1 == column, str(caught.value)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_ids_aliases_and_paths_win_and_unknown_words_stay_unknown(tmp_path):
    assert wb.system("uwr").id == "uwr" and wb.system("d10-pool").id == "d10-pool"
    with pytest.raises(wb.WorkbenchError, match=r"^unknown system 'uwrr'; known: uwr"):
        wb.system("uwrr")
    with pytest.raises(wb.WorkbenchError, match=r"^unknown system 'd10-pol'"):
        wb.system("d10-pol")   # a misspelt id, not a formula
    assert wb.system("4d6kh3") is wb.system("4d6kh3")


# -- the command line: bytes printed ------------------------------------------------------------

def run(capsys, *argv):
    return run_cli(capsys, *argv)


def test_cli_syntax_error_is_one_line_and_a_caret(capsys):
    code, out, err = run(capsys, "pmf", "4d6kq3")
    assert code == 2 and out == ""
    first = "workbench: error: 4d6kq3: column 5: unexpected "
    lines = err.split("\n")
    assert lines[0].startswith(first) and len(lines) == 3 and lines[2] == ""
    assert lines[1] == " " * (len("workbench: error: ") + 4) + "^"
    assert lines[0][lines[1].index("^")] == "q"


def test_cli_pmf_json_of_4d6kh3_is_exact(capsys):
    code, out, _ = run(capsys, "pmf", "4d6kh3", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["system"] == "4d6kh3"
    counts = {3: 1, 4: 4, 5: 10, 6: 21, 7: 38, 8: 62, 9: 91, 10: 122, 11: 148, 12: 167, 13: 172,
              14: 160, 15: 131, 16: 94, 17: 54, 18: 21}
    assert {int(k): round(v * 1296, 6) for k, v in data["pmf"].items()} == counts


def test_cli_versus_two_formulas_against_brute_force(capsys):
    code, out, _ = run(capsys, "versus", "4d6kh3", "3d6", "--format", "json")
    data = json.loads(out)
    a, _ = brute.distribution([(1, brute.dice(4, 6, ("kh", 3)))])
    r, _ = brute.distribution([(1, brute.dice(3, 6))])
    wins = sum(pa * pr for x, pa in a.items() for y, pr in r.items() if x > y)
    ties = sum(pa * pr for x, pa in a.items() for y, pr in r.items() if x == y)
    assert code == 0 and data["system"] == "4d6kh3" and data["against"] == "3d6"
    assert data["ties_to"] == "reactor" and abs(data["p_actor"] - wins) < 1e-12
    code, out, _ = run(capsys, "versus", "4d6kh3", "3d6", "--ties", "actor", "--format", "json")
    assert abs(json.loads(out)["p_actor"] - wins - ties) < 1e-12
    code, _, err = run(capsys, "versus", "4d6kh3")
    assert code == 2 and "--actor is needed with one system" in err


def test_cli_table_of_a_knob_formula(capsys):
    code, out, _ = run(capsys, "table", "(@dice)d6cs>=5", "--pools", "1-3", "--format", "csv",
                       "--digits", "6")
    rows = out.strip().split("\n")
    assert code == 0 and rows[0] == "Difficulty,Setting,1 die,2 dice,3 dice"
    # at least 2 hits on 2 dice: (1/3)^2; on 3 dice: 7/27
    assert rows[2].split(",") == ["total >= 2", "target=2", "0.000000", "0.111111", "0.259259"]


def test_as_toml_loads_and_gives_identical_results(capsys, tmp_path):
    formulas = [("(@dice)d10cs>=8x", ["dice=5"]), ("4d6r1kh3", []), ("{1d8x, 1d6x}kh+@mod=1", ["mod=2"]),
                ("(@dice=6)d6cs>=5; ones: cs=1; pass: hits >= 2 and ones <= 1", []),
                ("1d20+5 >= @dc=15", ["dc=12"]), ("2d6min3x", []), ("3d20; mid: km", [])]
    for i, (formula, settings_) in enumerate(formulas):
        code, out, _ = run(capsys, "pmf", formula, *settings_, "--as-toml")
        assert code == 0 and "# The data file of the one-line formula" in out
        path = tmp_path / f"f{i}.toml"
        path.write_text(out, encoding="utf-8")
        loaded = wb.load_system(path)
        given = dict(s.split("=") for s in settings_)
        mine, theirs = wb.check(formula, **given), wb.check(loaded)
        assert mine.pmf.to_dict() == theirs.pmf.to_dict(), formula
        assert mine.p_pass == theirs.p_pass and mine.lost_mass == theirs.lost_mass
    code, out, _ = run(capsys, "pmf", "2d6r1", "--as-toml")
    assert "# r=1: every (first roll, second roll) pair is equally likely" in out
    code, _, err = run(capsys, "pmf", "(@dice)d6", "--as-toml")
    assert code == 2 and "no default" in err
    code, _, err = run(capsys, "pmf", "uwr", "--as-toml")
    assert code == 2 and "is the system 'uwr'" in err


def test_python_error_carries_the_caret_as_a_note():
    done = subprocess.run([sys.executable, "-c", "import workbench as wb; wb.check('2d6kh3kl')"],
                          capture_output=True, text=True, cwd=Path(__file__).parents[1])
    tail = done.stderr.strip().split("\n")[-3:]
    assert tail[0].startswith("workbench.errors.FormulaError: 2d6kh3kl: column 7: a second kl")
    assert tail[1] == "    2d6kh3kl" and tail[2] == "          ^"


@pytest.mark.parametrize("text, column, says", [
    ("2d10!", 5, "Roll20's ! (explode) is written x here"),
    ("8d10!>8", 5, "Roll20's ! (explode) is written x here"),
    ("4d6!!", 4, "compounding explosions (Roll20's !!) are not in this notation"),
    ("5d6!p", 4, "penetrating explosions (Roll20's !p"),
    ("2d6ro<2", 5, "Roll20's ro (reroll once) is written r here"),
    ("4dF >= -1", 8, "a comparison with a negative number is written with a knob: @t=-1"),
    ("4dFcs=-1", 7, "a comparison with a negative number is written with a knob: @t=-1"),
])
def test_other_rollers_spellings_say_how_this_notation_writes_them(capsys, text, column, says):
    """A designer typing Roll20's spellings reads what to write instead, at the column."""
    code, out, err = run(capsys, "pmf", text)
    first, caret, _ = err.split("\n")
    assert code == 2 and out == ""
    assert first.startswith(f"workbench: error: {text}: column {column}: {says}")
    assert caret == " " * (len("workbench: error: ") + column - 1) + "^"


def test_the_knob_a_negative_comparison_is_pointed_to_answers_exactly():
    """4dF >= -1: 1 - P(total <= -2) = 1 - 15/81; 4dF counting -1s: P(none) = (2/3)**4."""
    assert wb.check("4dF >= @t=-1").p_pass == pytest.approx(66 / 81)
    assert wb.check("4dFcs=@t=-1").pmf[0] == pytest.approx((2 / 3) ** 4)
