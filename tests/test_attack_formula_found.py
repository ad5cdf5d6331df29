"""One-line formulas: wrong answers and refusals found by attacking the notation with random
and hand-written formulas, each against a brute force written here or a count by hand."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

import workbench as wb
from conftest import pool_toml


def exact(pmf) -> dict:
    return {int(k): p for k, p in pmf.to_dict().items()}


@pytest.mark.parametrize("formula,sides", [("d10", 10), ("1d10", 10), ("d6", 6), ("d100", 100)])
def test_a_lone_die_is_a_formula_even_beside_an_id_it_starts(formula, sides):
    """``d10`` is the first words of the system ``d10-pool``: it was taken for a misspelt id
    ("unknown system 'd10'"); a text that reads as a formula is the formula."""
    got = exact(wb.check(formula).pmf)
    assert got == pytest.approx({face: 1 / sides for face in range(1, sides + 1)})


def test_a_misspelt_id_that_is_no_formula_is_still_an_unknown_system():
    with pytest.raises(wb.WorkbenchError, match="unknown system 'd10-pol'"):
        wb.check("d10-pol")


@pytest.mark.parametrize("formula,shown", [
    ("1d10cs>1df2 >= @k=12", "allowed: df>=@k=12"),
    ("2d6cs2>=@t", "allowed: cs>=@t"),
    ("2d6r2>=@a", "r2>=@a: rerolling"),
    ("2d6x2>=@e", "x2>=@e: at most 2 explosions"),
])
def test_a_refusal_shows_a_knob_as_written(formula, shown):
    """The refusal of a limit before a comparison showed the knob as Python's repr
    ("allowed: df>=Knob(name='k', default=12, position=15)")."""
    with pytest.raises(wb.FormulaError) as caught:
        wb.check(formula)
    assert shown in str(caught.value) and "Knob(" not in str(caught.value)


def _faces_3d6(score):
    """{count: probability} of ``score(faces)`` over every roll of 3d6."""
    out = {}
    for faces in product(range(1, 7), repeat=3):
        k = score(faces)
        out[k] = out.get(k, 0) + Fraction(1, 216)
    return out


@pytest.mark.parametrize("formula,score", [
    # 1s rolled under min2 still show 1 (they count 2): the statistic counts them
    ("3d6min2; ones: cs=1", lambda f: sum(x == 1 for x in f)),
    # max4 leaves the 5s and 6s rolled: 5+ are hits although each counts 4
    ("3d6max4; hits: cs>=5", lambda f: sum(x >= 5 for x in f)),
    # without cs a statistic adds what a result counts (min3), doubled when it shows a 1
    ("3d6min3; lows: dbl=1", lambda f: sum(max(x, 3) * (2 if x == 1 else 1) for x in f)),
    ("3d6max5; s: df=6", lambda f: sum(-1 if x == 6 else min(x, 5) for x in f)),
])
def test_a_statistic_compares_the_result_as_rolled_under_min_and_max(formula, score):
    """A counting statistic over clamped dice compared the clamped value: ``3d6min2; ones:
    cs=1`` never counted a 1 (0 ones always). Comparisons read the result as rolled."""
    name = formula.split("; ")[1].split(":")[0]
    got = exact(wb.check(formula).stats[name])
    want = _faces_3d6(score)
    assert set(got) == {k for k, p in want.items() if p}
    for k, p in want.items():
        assert got.get(k, 0) == pytest.approx(float(p), abs=1e-12)


def test_an_exploding_clamped_die_counts_every_result_as_rolled():
    """``2d6min3x; ones: cs=1``: the initial dice count 3 for a 1 but still show it; the dice
    they explode into are counted too (a 1 there as well)."""
    got = exact(wb.check("1d6min3x; ones: cs=1").stats["ones"])
    # ones: the initial die shows 1 (1/6), or shows 6 and its chain brings a 1
    # P(chain of fresh dice holds k ones) from a die exploding on 6 only
    p_one_first = Fraction(1, 6)
    chain_none = Fraction(0)   # P(no 1 in a fresh chain) = 4/6 + 1/6 * chain_none
    chain_none = Fraction(4, 6) / (1 - Fraction(1, 6))
    assert got[1] + got.get(2, 0) + got.get(3, 0) == pytest.approx(
        float(p_one_first + Fraction(1, 6) * (1 - chain_none)), abs=1e-9)
    assert got[0] == pytest.approx(float(Fraction(4, 6) + Fraction(1, 6) * chain_none), abs=1e-9)


@pytest.mark.parametrize("formula", ["3d6; top: kh0", "3d6; low: kl0", "3d6; mid: km0",
                                     "3d6; rest: dl0", "4d6cs>=5; best: cs>=5kh0"])
def test_a_statistic_keeping_no_die_is_refused_as_a_term_is(formula):
    """``3d6; top: kh0`` answered 0 always (``3d6kh0`` is refused: Foundry reads kh0 as
    kh1)."""
    with pytest.raises(wb.FormulaError, match="0 keeps or drops no die"):
        wb.check(formula)


def test_a_knob_target_over_clamped_dice_is_refused_in_one_line():
    with pytest.raises(wb.FormulaError, match="over dice clamped by min or max"):
        wb.check("3d6min2; hi: cs>=@t=5")


def test_keeping_by_a_count_over_clamped_dice_is_refused():
    """``3d10r1min11; s: dbl6df>6dl1`` ranked every die as 11 and kept by the counts, where
    Foundry keeps by the result as rolled: a wrong answer, now a refusal in one line."""
    with pytest.raises(wb.FormulaError, match="over dice clamped by min or max"):
        wb.check("4d6min3; best: kh2cs=1")
    # apart, each is answered: the 1s, and the two highest as they count
    result = wb.check("4d6min3; ones: cs=1; best: kh2")
    assert result.stats["best"].to_dict()["6"] == pytest.approx((3 / 6) ** 4)   # all four 3 or less
    assert result.stats["ones"].to_dict()["0"] == pytest.approx((5 / 6) ** 4)


@pytest.mark.parametrize("formula", ["1d20+@mod=1000000", "1d20+@mod=999990 >= @dc=5",
                                     "2d6+@mod=999999; <= 1000000"])
def test_a_knob_at_the_end_of_its_range_is_answered(formula):
    """``1d20+@mod=1000000`` (a knob allows up to 1,000,000) was refused: its ladder's rungs
    went past what the pass target allows ("Input should be less than or equal to 1000000;
    got 1000005 (entry 'ladder[0].set.target'...)"). Rungs beyond the target's range are
    left out."""
    system = wb.system(formula)
    result = wb.check(formula)
    mod = int(formula.split("=")[1].split()[0].split(";")[0])
    dice = 20 if formula.startswith("1d20") else None
    if dice:
        assert exact(result.pmf) == pytest.approx({mod + f: 1 / 20 for f in range(1, 21)})
    for rung in system.ladder:
        assert all(abs(v) <= 10**6 for v in rung.set.values())
    if "999990" in formula:   # rungs within the range are kept
        assert [r.name for r in system.ladder] == ["total >= 999995", "total >= 999999"]


@pytest.mark.parametrize("position,steps,want", [("steps + 1", 1, "second"), ("steps - 1", 0, "highest"),
                                                ("steps + 3", 0, "none")])
def test_a_position_expression_out_of_range_reads_as_data_readme_says(pool_file, position, steps, want):
    """data/README.md: a position below 1 counts as 1 (the highest), one beyond the dice rolled
    picks none (0); checked against every roll of 2d6."""
    path = pool_file(pool_toml(die="sides = 6", dice=2, top='total = "top"', more=f"""
[params.steps]
default = {steps}
min = 0
max = 3

[stats.top]
pick = "highest"
position = "{position}"
"""))
    counts = {}
    for a, b in product(range(1, 7), repeat=2):
        k = {"second": min(a, b), "highest": max(a, b), "none": 0}[want]
        counts[k] = counts.get(k, 0) + 1 / 36
    assert exact(wb.check(path).pmf) == pytest.approx(counts)


def test_a_pass_target_below_zero_is_allowed_where_a_knob_can_take_the_total_there():
    """``1d6-@m=0 >= @t=0`` with m=10, t=-5 was refused ("t got -5; allowed: 0 to 1e6"): the
    range of the target was read from the knobs' defaults, where the total cannot go below 0."""
    assert wb.check("1d6-@m=0 >= @t=0", m=10, t=-5).p_pass == pytest.approx(2 / 6)
    assert wb.check("1d20+@mod=0 >= @dc=10", mod=-30, dc=-15).p_pass == pytest.approx(6 / 20)
    want = sum(Fraction(1, 6 ** 4) for a, *b in product(range(1, 7), repeat=4) if a - sum(b) >= -4)
    assert wb.check("1d6-(@n=0)d6 >= @t=0", n=3, t=-4).p_pass == pytest.approx(float(want))
    with pytest.raises(wb.ParameterError, match="from 0 to"):   # 3d6 never goes below 3
        wb.check("3d6 >= @t=10", t=-1)
