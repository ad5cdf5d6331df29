"""One-line formulas answer exactly: every feature against an independent brute force that runs
Foundry VTT's modifier algorithms on every sequence of rolls (``tests/_formula_brute.py``)."""
from __future__ import annotations

import pytest

import workbench as wb

try:
    from tests import _formula_brute as brute
except ImportError:  # run from inside tests/
    import _formula_brute as brute

d, C = brute.dice, (lambda c: ("const", c))


def assert_same(formula, terms, cutoff=1e-8, **settings):
    mine = wb.check(formula, **settings)
    want, lost = brute.distribution(terms, cutoff)
    got = {int(k): p for k, p in mine.pmf.to_dict().items()}
    tolerance = 1e-9 + lost + mine.lost_mass
    for outcome in set(got) | set(want):
        assert abs(got.get(outcome, 0.0) - want.get(outcome, 0.0)) <= tolerance, (formula, outcome)
    assert abs(sum(got.values()) - 1) < 1e-9


CASES = [
    # plain dice, numbers, + and -
    ("3d6", [(1, d(3, 6))]),
    ("d6", [(1, d(1, 6))]),
    ("2d6-1d4+3", [(1, d(2, 6)), (-1, d(1, 4)), (1, C(3))]),
    ("-1d4+2d3", [(-1, d(1, 4)), (1, d(2, 3))]),
    ("3d6+2d6", [(1, d(5, 6))]),
    ("4dF", [(1, d(4, "F"))]),
    ("d%", [(1, d(1, "%"))]),
    ("1d20+5", [(1, d(1, 20)), (1, C(5))]),
    # keep and drop
    ("4d6kh3", [(1, d(4, 6, ("kh", 3)))]),
    ("4d6k3", [(1, d(4, 6, ("kh", 3)))]),
    ("2d20kh", [(1, d(2, 20, ("kh", 1)))]),
    ("2d20kl", [(1, d(2, 20, ("kl", 1)))]),
    ("5d6kl2", [(1, d(5, 6, ("kl", 2)))]),
    ("4d6dl", [(1, d(4, 6, ("dl", 1)))]),
    ("4d6d1", [(1, d(4, 6, ("dl", 1)))]),
    ("5d4dh2", [(1, d(5, 4, ("dh", 2)))]),
    ("3d20km", [(1, d(3, 20, ("km", 1)))]),
    ("5d6km3", [(1, d(5, 6, ("km", 3)))]),
    ("4dFkh2", [(1, d(4, "F", ("kh", 2)))]),
    # explosions
    ("2d6x", [(1, d(2, 6, ("x", "=", 6)))]),
    ("1d10x>=9", [(1, d(1, 10, ("x", ">=", 9)))]),
    ("2d4x=1", [(1, d(2, 4, ("x", "=", 1)))]),
    ("2d6x5", [(1, d(2, 6, ("x", "=", 5)))]),
    ("3d6xo", [(1, d(3, 6, ("xo", "=", 6)))]),
    ("2d4xo>=3", [(1, d(2, 4, ("xo", ">=", 3)))]),
    # rerolls
    ("3d6r1", [(1, d(3, 6, ("r", "=", 1)))]),
    ("2d6r", [(1, d(2, 6, ("r", "=", 1)))]),
    ("2d8r<=2", [(1, d(2, 8, ("r", "<=", 2)))]),
    ("3d6rr1", [(1, d(3, 6, ("rr", "=", 1)))]),
    ("2d10rr<3", [(1, d(2, 10, ("rr", "<", 3)))]),
    ("4d6r1kh3", [(1, d(4, 6, ("r", "=", 1), ("kh", 3)))]),
    ("2d6r1x", [(1, d(2, 6, ("r", "=", 1), ("x", "=", 6)))]),
    ("2d6rr<=2x", [(1, d(2, 6, ("rr", "<=", 2), ("x", "=", 6)))]),
    # clamps (Foundry: before x they reach only the initial result)
    ("3d6min2", [(1, d(3, 6, ("min", 2)))]),
    ("3d6max4", [(1, d(3, 6, ("max", 4)))]),
    ("2d6min2max5", [(1, d(2, 6, ("min", 2), ("max", 5)))]),
    ("2d6min3x", [(1, d(2, 6, ("min", 3), ("x", "=", 6)))]),
    ("2d6xmin3", [(1, d(2, 6, ("x", "=", 6), ("min", 3)))]),
    ("1d6xmax5", [(1, d(1, 6, ("x", "=", 6), ("max", 5)))]),
    ("4d6min2kh3", [(1, d(4, 6, ("min", 2), ("kh", 3)))]),
    ("2d6r1min3", [(1, d(2, 6, ("r", "=", 1), ("min", 3)))]),
    # counting
    ("5d6cs>=5", [(1, d(5, 6, ("cs", ">=", 5)))]),
    ("4d10cs8", [(1, d(4, 10, ("cs", "=", 8)))]),
    ("4d6cs<3", [(1, d(4, 6, ("cs", "<", 3)))]),
    ("3d10xcs>=8", [(1, d(3, 10, ("x", "=", 10), ("cs", ">=", 8)))]),
    ("2d6xcs>=5", [(1, d(2, 6, ("x", "=", 6), ("cs", ">=", 5)))]),
    ("4d10cs>=8df=1", [(1, d(4, 10, ("cs", ">=", 8), ("df", "=", 1)))]),
    ("4d6df=1", [(1, d(4, 6, ("df", "=", 1)))]),
    ("4d6df<=2", [(1, d(4, 6, ("df", "<=", 2)))]),
    ("5d6kh3cs>=4", [(1, d(5, 6, ("kh", 3), ("cs", ">=", 4)))]),
    ("5d6cs>=4kh3", [(1, d(5, 6, ("cs", ">=", 4), ("kh", 3)))]),
    ("3d6r1cs>=5", [(1, d(3, 6, ("r", "=", 1), ("cs", ">=", 5)))]),
    ("2d6xocs>=5df=1", [(1, d(2, 6, ("xo", "=", 6), ("cs", ">=", 5), ("df", "=", 1)))]),
    ("4d6cs>=5-1d6cs>=5", [(1, d(4, 6, ("cs", ">=", 5))), (-1, d(1, 6, ("cs", ">=", 5)))]),
    # beyond Foundry: a face counting twice
    ("4d10cs>=7dbl=10", [(1, d(4, 10, ("cs", ">=", 7), ("dbl", "=", 10)))]),
    ("4d6dbl=6", [(1, d(4, 6, ("dbl", "=", 6)))]),
    ("2d10xcs>=8dbl=10df=1", [(1, d(2, 10, ("x", "=", 10), ("cs", ">=", 8), ("dbl", "=", 10),
                                     ("df", "=", 1)))]),
    # pools of terms
    ("{1d8x, 1d6x}kh", [(1, ("pool", [[(1, d(1, 8, ("x", "=", 8)))], [(1, d(1, 6, ("x", "=", 6)))]], ("kh", 1)))]),
    ("{1d20, 1d20}kl", [(1, ("pool", [[(1, d(1, 20))], [(1, d(1, 20))]], ("kl", 1)))]),
    ("{2d6, 1d10, 1d8+1}kh2", [(1, ("pool", [[(1, d(2, 6))], [(1, d(1, 10))], [(1, d(1, 8)), (1, C(1))]], ("kh", 2)))]),
    ("{1d6, 1d6, 1d6}dl", [(1, ("pool", [[(1, d(1, 6))]] * 3, ("kh", 2)))]),
    ("{1d20+2, 15}kh+1", [(1, ("pool", [[(1, d(1, 20)), (1, C(2))], [(1, C(15))]], ("kh", 1))), (1, C(1))]),
    ("{1d10, 1d10}cs>=6", [(1, ("pool", [[(1, d(1, 10))]] * 2, ("cs", ">=", 6)))]),
    ("{1d6, 1d8}", [(1, ("pool", [[(1, d(1, 6))], [(1, d(1, 8))]], None))]),
]


@pytest.mark.parametrize("formula,terms", CASES, ids=[c[0] for c in CASES])
def test_formula_matches_foundry_brute_force(formula, terms):
    assert_same(formula, terms)


def test_cs_written_before_x_counts_every_explosion():
    """``8d10cs>=8x`` (how the formula is usually typed) is read as ``8d10xcs>=8``: 8+ succeeds,
    10s explode, and what a 10 exploded into is a result counted like the others."""
    assert wb.check("8d10cs>=8x").pmf.to_dict() == wb.check("8d10xcs>=8").pmf.to_dict()
    assert_same("3d6cs>=5x", [(1, d(3, 6, ("x", "=", 6), ("cs", ">=", 5)))])


@pytest.mark.parametrize("formula,settings,terms", [
    ("(@dice)d6cs>=5", {"dice": 4}, [(1, d(4, 6, ("cs", ">=", 5)))]),
    ("(@dice=3)d6cs>=5", {}, [(1, d(3, 6, ("cs", ">=", 5)))]),
    ("(@dice=2)d10cs>=@tn=8", {"tn": 6}, [(1, d(2, 10, ("cs", ">=", 6)))]),
    ("1d20+@mod", {"mod": -2}, [(1, d(1, 20)), (1, C(-2))]),
    ("1d20-@mod=3", {}, [(1, d(1, 20)), (1, C(-3))]),
    ("5d6kh@k=2", {"k": 3}, [(1, d(5, 6, ("kh", 3)))]),
    ("(@a=2)d6+(@b=1)d6", {"b": 2}, [(1, d(4, 6))]),
    ("1d10x>=@e=9", {"e": 8}, [(1, d(1, 10, ("x", ">=", 8)))]),
    ("2d6xo>=@e=5", {}, [(1, d(2, 6, ("xo", ">=", 5)))]),
    ("(@n=3)d6df=@f=1", {"f": 2}, [(1, d(3, 6, ("df", "=", 2)))]),
])
def test_knobs_turn_the_formula(formula, settings, terms):
    assert_same(formula, terms, **settings)


def test_a_knob_without_a_default_must_be_given():
    with pytest.raises(wb.ParameterError, match="gives @dice no default"):
        wb.check("(@dice)d6cs>=5")


def test_pass_targets_and_conditions():
    # 1d20+5 >= 15: a d20 of 10 or more
    assert wb.check("1d20+5>=15").p_pass == pytest.approx(11 / 20)
    assert wb.check("1d20+@mod=5 >= @dc=15", dc=20, mod=2).p_pass == pytest.approx(3 / 20)
    assert wb.check("1d100 <= @skill=40").p_pass == pytest.approx(0.4)
    assert wb.check("3d6 > 10").p_pass == pytest.approx(0.5)
    # a pass target after a modifier that takes a comparison goes after ;
    plain = wb.check("2d6x").pmf.to_dict()
    assert wb.check("2d6x; >= 12").p_pass == pytest.approx(sum(p for o, p in plain.items() if int(o) >= 12))
    assert wb.check("2d6x>=12").pmf.to_dict() != plain   # there x>=12 explodes on 12 or more: never
    # without a target: pass iff total >= target, when one is given
    assert wb.check("3d6").p_pass is None
    assert wb.check("3d6", target=11).p_pass == pytest.approx(0.5)


def test_several_statistics_and_a_condition_against_brute_force():
    """Hits and 1s of one pool, and a glitch condition over both (Shadowrun's), exactly."""
    formula = "(@dice=4)d6cs>=5; ones: cs=1; pass: hits >= 2 and ones * 2 <= dice"

    def hits_and_ones(roll):
        faces = [roll([1, 2, 3, 4, 5, 6]) for _ in range(4)]
        return (sum(f >= 5 for f in faces), sum(f == 1 for f in faces))
    joint, _ = brute.distribution(None, statistic=hits_and_ones)
    result = wb.check(formula)
    assert result.p_pass == pytest.approx(sum(p for (h, o), p in joint.items() if h >= 2 and 2 * o <= 4))
    assert result.probability("ones >= 2") == pytest.approx(sum(p for (h, o), p in joint.items() if o >= 2))
    assert result.stats["ones"].to_dict()["1"] == pytest.approx(sum(p for (h, o), p in joint.items() if o == 1))


def test_a_middle_die_and_a_kept_statistic():
    def middle(roll):
        faces = sorted(roll(list(range(1, 21))) for _ in range(3))
        return faces[1]
    want, _ = brute.distribution(None, statistic=middle)
    got = wb.check("3d20; mid: km").stats["mid"].to_dict()
    assert all(abs(got.get(str(k), 0) - p) < 1e-12 for k, p in want.items())


def test_a_reroll_encoding_too_large_is_refused():
    with pytest.raises(wb.WorkbenchError, match="1,000,000 equally likely faces"):
        wb.check("1d1000r1")
    assert wb.check("1d100r<=10").mean == pytest.approx(50.5 + 0.1 * (50.5 - 5.5))
