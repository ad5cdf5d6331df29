"""Trust in the Python route, round 4: what a designer's ScoredRoll or Outcomes says is held to
the data files' rules (whole numbers, totals within 1e9), a scoring function that reads a
global is scored afresh, and names that would shadow the roll's own numbers are refused.

Every number is checked against a brute force written here, without ``workbench.engine``:
each ordered roll of the dice, one by one."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import workbench as wb
from workbench.errors import WorkbenchError
from workbench.rules import registry
from workbench.rules.roll import Die
from workbench.rules.scored import Outcomes, ScoredRoll

from conftest import pool_toml, run_cli

d6 = Die.numbered("d6", 6)
d4 = Die.numbered("d4", 4)


def brute(sides: list[int], score) -> dict:
    """{what score returns: exact probability} over every ordered roll (faces 1..s)."""
    out: dict = {}
    rolls = list(itertools.product(*(range(1, s + 1) for s in sides)))
    for roll in rolls:
        key = score(roll)
        out[key] = out.get(key, 0) + Fraction(1, len(rolls))
    return out


@pytest.fixture
def register(registered):
    return registered


# -- item: non-whole numbers and totals past 1e9 -------------------------------------------

@pytest.mark.parametrize("count", [2.7, 2.0, True, "2", None, -1, 1001])
def test_a_scored_roll_of_a_non_whole_count_of_dice_is_refused(count):
    # 2.7 dice were cut to 2 by int(): a pool of two dice answered for "2.7"
    with pytest.raises(WorkbenchError, match=r"ScoredRoll: the count of 'd6' got .*; allowed: a "
                                             r"whole number of dice from 0 to 1000"):
        ScoredRoll(((d6, count),), sum)


def test_numpy_counts_are_whole_numbers():
    assert ScoredRoll(((d6, np.int64(2)),), sum).groups == ((d6, 2),)


@pytest.mark.parametrize("value", [0.5, 2.0, np.float64(1.0), "3", None])
def test_a_score_that_is_not_a_whole_number_is_refused(value):
    with pytest.raises(WorkbenchError, match=r"the scoring function's 'total' is .* for the roll"):
        wb.engine.exact_distribution(ScoredRoll(((d6, 1),), lambda faces: value))


@pytest.mark.parametrize("value", [10**20, 5 * 10**18, np.int64(5 * 10**18), -(10**9) - 1, 10**9 + 1])
def test_a_total_past_1e9_is_refused_by_name_not_overflow(value):
    # 10**20 raised OverflowError; 5e18 was accepted and wrapped around in versus
    with pytest.raises(WorkbenchError, match=r"'total' is .* allowed: a whole number from "
                                             r"-1,000,000,000 to 1,000,000,000"):
        wb.engine.exact_distribution(ScoredRoll(((d6, 1),), lambda faces: value))


def test_another_statistic_past_1e9_is_refused_too():
    with pytest.raises(WorkbenchError, match=r"'spare' is 10000000000 for the roll"):
        wb.engine.exact_distribution(ScoredRoll(((d6, 1),), lambda f: {"total": f[0], "spare": 10**10}))


def test_versus_near_the_bound_is_exact(register):
    # Totals 1e9 apart on either side: the actor always wins (the old 5e18 totals wrapped to 0).
    def pool(p):
        sign = 1 if p["high"] else -1
        return ScoredRoll(((d6, 1),), lambda faces: sign * (10**9 - 6) + faces[0])
    register("far-apart", pool, params={"high": {"default": False}}, ties="actor")
    assert wb.versus("far-apart", {"high": True}, {"high": False}).p_actor == 1.0
    assert wb.versus("far-apart", {"high": False}, {"high": True}).p_actor == 0.0


def test_versus_past_the_bound_is_refused_not_wrapped(register):
    register("too-far", lambda p: ScoredRoll(((d6, 1),), lambda faces: 5 * 10**18 + faces[0]),
             params={"x": {"default": 0}}, ties="actor")
    with pytest.raises(WorkbenchError, match=r"too-far: .*'total' is 5000000000000000006"):
        wb.versus("too-far", {}, {})


@pytest.mark.parametrize("row, name", [((10**12,), "total"), ((1, -(10**10)), "crit")])
def test_outcomes_past_1e9_are_refused(row, name):
    names = ("total",) if len(row) == 1 else ("total", "crit")
    with pytest.raises(WorkbenchError, match=rf"Outcomes: {name} .* allowed: a whole number from "
                                             r"-1,000,000,000"):
        Outcomes(names, {row: 1.0})


def test_outcomes_take_numpy_integers_as_scored_rolls_do(register):
    # ScoredRoll's function may return np.int64; Outcomes refused the same numbers
    table = {(np.int64(2), np.bool_(True)): np.float64(0.25), (np.int32(0), False): 0.75}
    spec = Outcomes(("total", "crit"), table)
    assert spec.table == (((2, 1), 0.25), ((0, 0), 0.75))
    register("np-outcomes", lambda p: spec, params={"x": {"default": 0}})
    result = wb.check("np-outcomes")
    assert result.probability("crit == 1 and total == 2") == pytest.approx(0.25, abs=1e-15)


# -- item: a die type rolled 0 times -------------------------------------------------------

@pytest.mark.parametrize("reads, empty", [("sorted", ()), ("counts", {})])
def test_one_die_type_with_no_dice_is_shown_as_no_dice(reads, empty):
    seen = []
    joint = wb.engine.exact_distribution(ScoredRoll(((d6, 0),), lambda f: seen.append(f) or 0,
                                                    reads=reads))
    assert seen == [empty] and type(seen[0]) is type(empty)
    assert joint.probabilities.tolist() == [1.0]


def test_a_die_type_with_no_dice_keeps_its_name_among_several():
    # The function was handed {"d4": ...} without "d6": reading f["d6"] raised a KeyError
    def score(f):
        return len(f["d6"]) * 100 + sum(f["d4"])
    joint = wb.engine.exact_distribution(ScoredRoll(((d6, 0), (d4, 2)), score))
    got = {int(v): Fraction(p).limit_denominator(1000) for v, p in
           zip(joint.values[:, 0], joint.probabilities)}
    assert got == brute([4, 4], sum)


# -- item: a scoring function that reads a global -------------------------------------------

BONUS = {"value": 0}


def _with_bonus(faces):
    return sum(faces) + BONUS["value"]


def _bonus_pool(p):
    return ScoredRoll(((d6, 2),), _with_bonus)   # the same function each time: equal rolls


def test_a_scoring_function_reading_a_global_is_scored_afresh(register):
    register("global-bonus", _bonus_pool, params={"target": {"default": 10, "min": 0, "max": 30}},
             target="target")
    expected = {bonus: float(sum(p for total, p in brute([6, 6], sum).items() if total + bonus >= 10))
                for bonus in (0, 3)}
    try:
        BONUS["value"] = 0
        assert wb.check("global-bonus").p_pass == pytest.approx(expected[0], abs=1e-12)   # 1/6
        BONUS["value"] = 3
        assert wb.check("global-bonus").p_pass == pytest.approx(expected[3], abs=1e-12)   # 26/36
        # registered again with the same function: the new odds, not the first ones kept
        register("global-bonus", _bonus_pool, params={"target": {"default": 10, "min": 0, "max": 30}},
                 target="target")
        BONUS["value"] = 0
        assert wb.check("global-bonus").p_pass == pytest.approx(expected[0], abs=1e-12)
    finally:
        BONUS["value"] = 0
    assert expected[0] != expected[3]


# -- item: names that shadow the roll's own numbers ----------------------------------------

def shadow(name: str) -> str:
    """d6s counting hits (5+), passing on ``hits >= NAME``, NAME a parameter."""
    return pool_toml(f"shadow-{name}", "Shadow", top=f'pass_if = "hits >= {name}"',
                     die='sides = 6\ncounts = { hits = "face >= 5" }',
                     more=f"\n[params.{name}]\ndefault = 2\nmin = 0\nmax = 10\n")


@pytest.mark.parametrize("name, what", [("total", "the roll's total"), ("face", "a die's face"),
                                        ("value", "a die's value")])
def test_a_parameter_named_like_the_roll_is_refused_at_load(tmp_path, name, what):
    # "hits >= total" compared the hits with the dice's sum: P(pass) 0 where it is 1/9
    path = tmp_path / f"shadow-{name}.toml"
    path.write_text(shadow(name))
    with pytest.raises(WorkbenchError, match=rf"entry 'params.{name}': the name '{name}' is {what}"):
        wb.check(str(path))


def test_the_same_file_with_another_name_reads_the_parameter(pool_file):
    path = pool_file(shadow("need"), file="shadow-need.toml")
    hits = brute([6, 6], lambda roll: sum(face >= 5 for face in roll))
    assert wb.check(str(path)).p_pass == pytest.approx(float(hits[2]), abs=1e-15)   # 1/9


def test_a_plain_pool_file_may_not_name_a_parameter_total(tmp_path):
    # no statistics: a condition still reads `total` as the roll's total
    path = tmp_path / "plain.toml"
    path.write_text('id = "plain-total"\nname = "P"\nmechanic = "pool"\n[dice.d6]\nsides = 6\n'
                    '[params.total]\ndefault = 3\n')
    with pytest.raises(WorkbenchError, match=r"entry 'params.total': the name 'total'"):
        wb.check(str(path))


@pytest.mark.parametrize("name", ["total", "face", "value"])
def test_a_python_parameter_named_like_the_roll_is_refused(register, name):
    with pytest.raises(WorkbenchError, match=rf"parameter '{name}': the name '{name}' is"):
        register("py-shadow", lambda p: ScoredRoll(((d6, 2),), sum), params={name: {"default": 2}},
                 pass_if=f"total >= {name}")


def test_a_python_statistic_named_like_a_parameter_is_refused(register):
    # the statistic silently won over the parameter in every condition
    register("py-clash", lambda p: ScoredRoll(((d6, 2),), lambda f: {"total": sum(f), "need": f[0]}),
             params={"need": {"default": 2}}, pass_if="total >= need")
    with pytest.raises(WorkbenchError, match=r"py-clash: the roll returns a statistic 'need' and "
                                             r"the system has a parameter 'need'"):
        wb.check("py-clash")


# -- item: earlier inputs still mishandled -------------------------------------------------

def cli(capsys, *argv):
    return run_cli(capsys, *argv, exits=True)


@pytest.mark.parametrize("function, grid", [("check", "dice=1-2"), ("versus", "actor.dice=1-2"),
                                            ("solve_ladder", "dice=1-2")])
def test_sweep_of_an_exact_function_refuses_trials(one_line_error, function, grid):
    # --trials 100 was silently not rolled: the rows were exact, the command said nothing
    extra = ["wanted=Normal=0.7"] if function == "solve_ladder" else []
    one_line_error("sweep", function, "system=uwr", *extra, "--grid", grid, "--trials", "100",
                   contains=(f"--trials 100 does not apply to sweep {function}", "exact"), usage=True)
    one_line_error("sweep", function, "system=uwr", *extra, "trials=100", "--grid", grid,
                   contains=(f"sweep {function}: trials does not apply",), usage=True)
    with pytest.raises(WorkbenchError, match=f"sweep {function}: trials does not apply"):
        wb.sweep(function, {"trials": [10, 20]}, system="uwr",
                 **({"wanted": "Normal=0.7"} if function == "solve_ladder" else {}))


def test_sweep_check_without_trials_is_exact(capsys):
    import io
    import pandas as pd
    code, out, err = cli(capsys, "sweep", "check", "system=uwr", "target=1", "--grid", "dice=1-2")
    frame = pd.read_csv(io.StringIO(out))
    # 5+ on a d6 (UWR at favor 0): P(at least one success) 1/3 and 5/9
    hits = {n: brute([6] * n, lambda roll: sum(face >= 5 for face in roll) >= 1)[True] for n in (1, 2)}
    assert code == 0 and frame["p_pass"].tolist() == pytest.approx([float(hits[1]), float(hits[2])],
                                                                   abs=1e-14)


@pytest.mark.parametrize("choices, said", [([], r"py-choices: parameter 'c' declares choices \(\)"),
                                           ((), r"py-choices: parameter 'c' declares choices \(\)"),
                                           ("ab", r"parameter 'c': choices got 'ab'"),
                                           (3, r"parameter 'c': choices got 3")])
def test_python_choices_that_are_no_list_of_choices_are_refused(register, choices, said):
    # [] raised an IndexError; "ab" became the choices "a" and "b"
    with pytest.raises(WorkbenchError, match=said + r".*allowed: (a list of )?1 to 100 (different )?texts"):
        register("py-choices", lambda p: ScoredRoll(((d6, 1),), sum), params={"c": {"choices": choices}})


def test_a_variant_of_a_python_mechanic_is_told_why(register, tmp_path):
    register("py-base", lambda p: ScoredRoll(((d6, 1),), sum), params={"x": {"default": 1}},
             aliases=["py-base-alias"])
    for base in ("py-base", "PY-BASE", "py-base-alias"):
        path = tmp_path / "variant.toml"
        path.write_text(f'id = "py-variant"\nname = "V"\nbase = "{base}"\n')
        with pytest.raises(WorkbenchError, match=rf"entry 'base': '{base}' is a mechanic registered in "
                                                 r"Python.*a variant's base must be a data-file system"):
            wb.check(str(path))


# -- item: messages that name what was written ---------------------------------------------

KIND_BASE = pool_toml("kind-base", "Kind base", top='total = "best"', die="sides = 6", dice=3, least=1,
                      more="""
[stats.best]
keep = "highest"
count = 2
""")


def _data_folder(tmp_path, monkeypatch, systems: dict, variants: dict):
    for kind, texts in (("systems", systems), ("variants", variants)):
        (tmp_path / kind).mkdir()
        for name, text in texts.items():
            (tmp_path / kind / f"{name}.toml").write_text(text)
    monkeypatch.setenv("WORKBENCH_PATH", str(tmp_path))
    registry.reload()


def test_a_variant_changing_a_statistics_kind_replaces_it(tmp_path, monkeypatch):
    # "needs exactly one of keep, ...; got keep, pick": keep was the base's, never written here
    _data_folder(tmp_path, monkeypatch, {"base": KIND_BASE}, {
        "pick": 'id = "kind-pick"\nname = "P"\nbase = "kind-base"\n[stats.best]\npick = "highest"\n',
        "same": 'id = "kind-same"\nname = "S"\nbase = "kind-base"\n[stats.best]\nkeep = "lowest"\n'})
    try:
        highest = brute([6, 6, 6], max)
        got = wb.check("kind-pick", dice=3).pmf
        assert {o: float(p) for o, p in zip(got.outcomes, got.probabilities)} == pytest.approx(
            {o: float(p) for o, p in highest.items()}, abs=1e-15)
        # the same kind merges key by key: count = 2 is kept, the two lowest of 3d6 are summed
        lowest = brute([6, 6, 6], lambda roll: sum(sorted(roll)[:2]))
        got = wb.check("kind-same", dice=3).pmf
        assert {o: float(p) for o, p in zip(got.outcomes, got.probabilities)} == pytest.approx(
            {o: float(p) for o, p in lowest.items()}, abs=1e-15)
    finally:
        monkeypatch.delenv("WORKBENCH_PATH")
        registry.reload()


@pytest.mark.parametrize("kw, where", [({"pass_if": "crits >= 1"}, "pass_if"),
                                       ({"tiers": [("Crit", "crits >= 1"), ("Rest", "true")]},
                                        "tier 'Crit' condition")])
def test_a_condition_reading_a_statistic_the_roll_never_returns(register, kw, where):
    # it suggested "an optional parameter left out?": there is no such parameter
    register("py-missing", lambda p: ScoredRoll(((d6, 2),), lambda f: {"total": sum(f), "hits": 1}),
             params={"x": {"default": 1}}, **kw)
    with pytest.raises(WorkbenchError) as caught:
        wb.check("py-missing")
    message = str(caught.value)
    assert message.startswith(f"py-missing: {where} 'crits >= 1' reads 'crits', which is no "
                              "statistic of this roll and no parameter; names here: ")
    assert "optional parameter" not in message and "hits" in message


@pytest.mark.parametrize("name", ["my stat", "and", "2nd", "hits!", 3, "Ünd"])
def test_a_python_statistic_name_a_condition_cannot_read_is_refused(name):
    with pytest.raises(WorkbenchError, match=r"cannot be read by a condition"):
        wb.engine.exact_distribution(ScoredRoll(((d6, 1),), lambda f: {"total": f[0], name: 1}))
    with pytest.raises(WorkbenchError, match=r"Outcomes: the name .* cannot be read by a condition"):
        Outcomes(("total", name), {(1, 1): 1.0})
