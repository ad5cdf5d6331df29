"""Self-test of the gallery brute force (``tests/_gallery_brute.py``).

Every mechanic's probabilities add up to exactly 1 (with the unexplored explosion mass), at
least one figure per game is worked out by hand in the test, a few games are checked against
each other, and icepool gives a second opinion where it is easy to ask.
"""
from __future__ import annotations

import pathlib
import re
from fractions import Fraction as F

import pytest

try:
    from tests import _gallery_brute as gb
except ImportError:  # tests/ is not a package: pytest puts tests/ itself on sys.path
    import _gallery_brute as gb

marginal, chance = gb.marginal, gb.chance
ONE_IN_1E13 = F(1, 10**13)

# Each mechanic with a few parameter sets, small enough to enumerate in well under a second.
EXAMPLES = {
    "owod": [dict(pool=0), dict(pool=1, difficulty=6), dict(pool=4, difficulty=8)],
    "cofd": [dict(pool=0), dict(pool=3), dict(pool=4, again=8), dict(pool=2, again=None)],
    "shadowrun": [dict(pool=1), dict(pool=5)],
    "cortex": [dict(dice=(4,)), dict(dice=(6, 6, 8, 10))],
    "blades": [dict(dice=0), dict(dice=1), dict(dice=4)],
    "year_zero": [dict(base=2, skill=2, gear=1)],
    "l5r": [dict(rolled=1, kept=1, target=15), dict(rolled=4, kept=2, target=20)],
    "genesys": [dict(ability=2, proficiency=1, difficulty=2),
                dict(ability=1, boost=1, challenge=1, setback=1)],
    "exalted": [dict(pool=4), dict(pool=3, difficulty=3, double_tens=False)],
    "one_roll_engine": [dict(pool=1), dict(pool=4)],
    "vampire5": [dict(pool=4, hunger=2, difficulty=2), dict(pool=3, hunger=5, difficulty=1)],
    "burning_wheel": [dict(exponent=4, obstacle=2), dict(exponent=5, obstacle=3, shade="grey"),
                      dict(exponent=4, obstacle=3, shade="white", open_ended=True)],
}
CASES = [(name, kwargs) for name, calls in EXAMPLES.items() for kwargs in calls]
EXPLODING = {"cofd", "l5r", "burning_wheel"}


def test_every_mechanic_has_examples():
    assert set(EXAMPLES) == set(gb.MECHANICS)


@pytest.mark.parametrize("name,kwargs", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_probabilities_add_up_to_one(name, kwargs):
    dist = gb.MECHANICS[name](**kwargs)
    assert all(isinstance(p, F) and p > 0 for p in dist.values())
    assert sum(dist.values()) + dist.unexplored == 1
    assert dist.unexplored < ONE_IN_1E13
    if name not in EXPLODING:
        assert dist.unexplored == 0
    # outcomes are named tuples of the statistics the game reads
    assert all(hasattr(outcome, "_fields") for outcome in dist)


def test_the_brute_force_never_uses_the_workbench():
    for module in ("_gallery_brute", "_gallery_dice", "_gallery_pools"):
        source = (pathlib.Path(__file__).parent / f"{module}.py").read_text()
        assert not re.search(r"^\s*(from|import)\s+workbench", source, re.MULTILINE), module


def test_marginal_and_chance():
    dist = gb.shadowrun(2)
    # hits on 2d6 at 1/3 each: 0 -> 4/9, 1 -> 4/9, 2 -> 1/9
    assert marginal(dist, "hits") == {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}
    joint = marginal(dist, "hits", "glitch")
    assert joint[(0, "critical glitch")] == F(1, 36)   # both dice show 1
    assert chance(dist, lambda roll: roll.hits >= 1) == F(5, 9)


# ---------------------------------------------------------------------------------------
# Figures worked out by hand, one or more per game

def test_owod():
    # One die at difficulty 6: 6-10 succeed (5/10), a 1 botches (1/10).
    one = marginal(gb.owod(1, 6), "outcome")
    assert one == {"success": F(1, 2), "botch": F(1, 10), "failure": F(2, 5)}
    # Two dice at 6: botch = no die in 6-10 and some 1 = (5/10)^2 - (4/10)^2 = 9/100.
    assert marginal(gb.owod(2, 6), "outcome")["botch"] == F(9, 100)
    # A success and a 1 cancel to a plain failure, not a botch: one die 6-10 and the other 1
    # is 2 * 5 = 10 rolls of 100, all of them 'failure'.
    two = gb.owod(2, 6)
    assert marginal(two, "successes", "ones", "outcome")[(1, 1, "failure")] == F(10, 100)


def test_cofd():
    # One die, 10-again: 1-7 nothing (7/10); 8, 9 one success, or 10 then 1-7: 2/10 + 7/100;
    # two or more: 10 then 8-10 = 3/100.
    one = marginal(gb.cofd(1), "successes")
    assert one[0] == F(7, 10) and one[1] == F(27, 100)
    assert sum(p for s, p in one.items() if s >= 2) == F(3, 100) - gb.cofd(1).unexplored
    # 8-again: two or more successes = (3/10)^2 = 9/100 (up to the unexplored tail)
    eight = gb.cofd(1, again=8)
    assert abs(chance(eight, lambda r: r.successes >= 2) - F(9, 100)) <= eight.unexplored
    # Chance die: 10 succeeds (1/10), 1 is a dramatic failure (1/10).
    chance_die = gb.cofd(0)
    assert marginal(chance_die, "outcome")["dramatic failure"] == F(1, 10)
    assert chance(chance_die, lambda r: r.successes >= 1) + chance_die.unexplored == F(1, 10)
    # A 10-again die averages 0.3 / (1 - 0.1) = 1/3 success.
    five = gb.cofd(5)
    mean = sum(r.successes * p for r, p in five.items())
    assert abs(mean - F(5, 3)) < 1e-12


def test_shadowrun():
    # 3 dice: glitch needs 2+ ones: 3*(1/6)^2*(5/6) + (1/6)^3 = 16/216. Critical glitch: two
    # ones and the third die 2-4 (3 * 3 rolls) or three ones: 10/216.
    glitch = marginal(gb.shadowrun(3), "glitch")
    assert glitch["glitch"] + glitch["critical glitch"] == F(16, 216)
    assert glitch["critical glitch"] == F(10, 216)
    # 4 dice: exactly half ones is no glitch; 3+ ones: 4*5/6^4 + 1/6^4 = 21/1296.
    assert chance(gb.shadowrun(4), lambda r: r.glitch != "none") == F(21, 1296)


def test_cortex():
    # d4 d4 d12: the d12 is left as the effect die only when both d4s are kept, i.e. no die is
    # a hitch and the d12 is no higher than the lower d4 (ties leave the bigger die as
    # effect): d12 = 2 with both d4 >= 2 (9), 3 with both >= 3 (4), 4 with both 4 (1) -> 14/192.
    pool = gb.cortex((4, 4, 12))
    assert marginal(pool, "effect")[12] == F(14, 192)
    assert marginal(pool, "botch")[True] == F(1, 192)
    # d6 d8: both kept, effect always d4; total 14 only as 6 + 8.
    two = gb.cortex((6, 8))
    assert marginal(two, "effect") == {4: 1}
    assert marginal(two, "total")[14] == F(1, 48)
    # hitches on d6 d8: 0 -> 35/48, 1 -> 12/48, 2 -> 1/48
    assert marginal(two, "hitches") == {0: F(35, 48), 1: F(12, 48), 2: F(1, 48)}


def test_blades():
    # 2 dice: critical 1/36; one 6: 10/36; best 4-5: (5/6)^2 - (3/6)^2 = 16/36; 1-3: 9/36.
    two = marginal(gb.blades(2), "outcome")
    assert two == {"critical": F(1, 36), "full success": F(10, 36),
                   "partial success": F(16, 36), "bad outcome": F(9, 36)}
    # 0 dice: lowest of 2d6; 6 only as (6,6) (no critical), 4-5: (3/6)^2 - 1/36 = 8/36.
    zero = marginal(gb.blades(0), "outcome")
    assert zero["full success"] == F(1, 36) and zero["partial success"] == F(8, 36)
    assert "critical" not in zero


def test_year_zero():
    # 3 dice: at least one 6 = 1 - (5/6)^3 = 91/216; 2 base dice: a bane = 1 - (5/6)^2.
    roll = gb.year_zero(2, skill=1)
    assert chance(roll, lambda r: r.successes >= 1) == F(91, 216)
    assert chance(roll, lambda r: r.base_banes >= 1) == F(11, 36)
    assert marginal(roll, "gear_banes") == {0: 1}
    # gear 1s are counted apart from base 1s
    assert chance(gb.year_zero(1, gear=1), lambda r: r.gear_banes == 1) == F(1, 6)


def test_l5r():
    # 1k1 against 15: a 10 (1/10) and then 5-10 (6/10): 6/100.
    one = gb.l5r(1, 1, 15)
    assert abs(chance(one, lambda r: r.success) - F(6, 100)) <= one.unexplored
    # 2k1 against 10: at least one 10 = 1 - (9/10)^2 = 19/100.
    two = gb.l5r(2, 1, 10)
    assert abs(chance(two, lambda r: r.success) - F(19, 100)) <= two.unexplored
    # 1k1 averages 5.5 / (1 - 1/10) = 55/9.
    mean = sum(r.total * p for r, p in gb.l5r(1, 1, 0).items())
    assert abs(mean - F(55, 9)) < 1e-11


def test_genesys():
    # One ability die: 4 of 8 faces carry a success.
    assert chance(gb.genesys(ability=1), lambda r: r.passed) == F(1, 2)
    # Ability vs difficulty. Successes on the ability die: 0 (4 faces), 1 (3), 2 (1); failures
    # on the difficulty die: 0 (5), 1 (2), 2 (1). Pass: 1 vs 0 (3*5) + 2 vs 0-1 (1*7) = 22/64.
    assert chance(gb.genesys(ability=1, difficulty=1), lambda r: r.passed) == F(22, 64)
    # Proficiency: 7 faces carry a success, and the triumph counts as one too: 8 of 12 pass.
    proficiency = gb.genesys(proficiency=1)
    assert chance(proficiency, lambda r: r.passed) == F(8, 12)
    assert marginal(proficiency, "triumphs")[1] == F(1, 12)
    # Triumph against despair: both counted, the successes cancel.
    both = gb.genesys(proficiency=1, challenge=1)
    assert marginal(both, "triumphs", "despairs", "successes")[(1, 1, 0)] == F(1, 144)
    # Advantage on a boost die: faces sa, aa, a -> 1 + 2 + 1 = 4 advantages over 6 faces.
    boost = gb.genesys(boost=1)
    assert sum(r.advantage * p for r, p in boost.items()) == F(4, 6)


def test_exalted():
    # One die: 7-9 one success, 10 two, 1 botches.
    assert marginal(gb.exalted(1), "successes") == {0: F(6, 10), 1: F(3, 10), 2: F(1, 10)}
    # Two dice: botch = (6/10)^2 - (5/10)^2 = 11/100.
    assert marginal(gb.exalted(2), "outcome")["botch"] == F(11, 100)


def test_one_roll_engine():
    # 2 dice match 1 in 10; 3 dice all differ 10*9*8 / 1000, so a set 28/100; 3 of a kind 1/100.
    assert chance(gb.one_roll_engine(2), lambda r: r.width >= 2) == F(1, 10)
    three = gb.one_roll_engine(3)
    assert chance(three, lambda r: r.width >= 2) == F(28, 100)
    assert marginal(three, "width")[3] == F(1, 100)
    # 2x10 on three dice: two 10s and a different die (3 * 9), or three 10s is 3x10.
    assert marginal(three, "width", "height")[(2, 10)] == F(27, 1000)
    # 4 dice, two pairs: choose the 2 faces (45) and arrange them (6): 270/10000.
    assert marginal(gb.one_roll_engine(4), "sets")[2] == F(270, 10000)


def test_vampire5():
    # 2 dice, difficulty 1: a win needs one 6+: 1 - (5/10)^2; critical: two 10s (1/100).
    two = marginal(gb.vampire5(2, 0, 1), "outcome")
    assert two["win"] + two["critical win"] == F(3, 4) and two["critical win"] == F(1, 100)
    # One of them a Hunger die: the critical is messy; bestial: hunger 1 and the other under 6.
    hungry = marginal(gb.vampire5(2, 1, 1), "outcome")
    assert hungry["messy critical"] == F(1, 100) and "critical win" not in hungry
    assert hungry["bestial failure"] == F(1, 10) * F(5, 10)
    # A pair of 10s is 4 successes: 2 dice pass difficulty 3 or 4 only as 10, 10.
    assert chance(gb.vampire5(2, 0, 4), lambda r: r.outcome != "failure") == F(1, 100)
    # 3 dice, 2 of them Hunger: two or more 10s in 3*9 + 1 = 28 rolls of 1000, and with one
    # regular die every pair of 10s has a Hunger 10: all 28 are messy.
    three = marginal(gb.vampire5(3, 2, 1), "outcome")
    assert three["messy critical"] == F(28, 1000) and "critical win" not in three


def test_burning_wheel():
    # B4 vs Ob 2: two or more of four coins: 11/16.
    assert chance(gb.burning_wheel(4, 2), lambda r: r.passed) == F(11, 16)
    # G2 vs Ob 2: (4/6)^2.
    assert chance(gb.burning_wheel(2, 2, shade="grey"), lambda r: r.passed) == F(4, 9)
    # Open-ended B1 vs Ob 2: a 6 and then 4+: 1/6 * 1/2 = 1/12.
    open1 = gb.burning_wheel(1, 2, open_ended=True)
    assert abs(chance(open1, lambda r: r.passed) - F(1, 12)) <= open1.unexplored


def test_blades_one_die_is_a_d6():
    assert marginal(gb.blades(1), "result") == {face: F(1, 6) for face in range(1, 7)}


@pytest.mark.parametrize("pool", [1, 3, 4])
def test_cofd_without_rerolls_is_owod_at_difficulty_8(pool):
    no_rerolls = gb.cofd(pool, again=None)
    assert marginal(no_rerolls, "successes") == marginal(gb.owod(pool, 8), "successes")


@pytest.mark.parametrize("pool", [1, 3])
def test_exalted_without_double_tens_is_owod_at_difficulty_7(pool):
    assert (marginal(gb.exalted(pool, double_tens=False), "successes")
            == marginal(gb.owod(pool, 7), "successes"))


def test_l5r_against_keeping_every_die_in_turn():
    """l5r's first-faces shortcut against the plain fold that keeps the highest, die by die."""
    die = gb.exploding_die(10, lambda f: f == 10, lambda total, f: total + f)
    for rolled, kept in [(2, 1), (2, 2), (3, 1)]:
        def keep(best, value):
            return tuple(sorted(best + (value,), reverse=True)[:kept])

        plain = gb.combine_dice([die] * rolled, keep, start=())
        plain_totals = gb.relabel(plain, sum)
        ours = marginal(gb.l5r(rolled, kept, 0), "total")
        slack = gb.l5r(rolled, kept, 0).unexplored + plain.unexplored
        assert slack < ONE_IN_1E13
        assert all(abs(plain_totals.get(t, 0) - ours.get(t, 0)) <= slack
                   for t in set(plain_totals) | set(ours))


def test_year_zero_single_group_counts_sixes_like_shadowrun_counts_ones():
    # by symmetry of the faces, the number of 6s on n d6 is distributed as the number of 1s
    assert marginal(gb.year_zero(4), "successes") == marginal(gb.shadowrun(4), "ones")


# ---------------------------------------------------------------------------------------
# icepool as a second opinion

icepool = pytest.importorskip("icepool")


def icepool_probabilities(die) -> dict:
    total = die.denominator()
    return {outcome: F(quantity, total) for outcome, quantity in die.items()}


@pytest.mark.parametrize("rolled,kept", [(3, 2), (4, 2)])
def test_l5r_agrees_with_icepool(rolled, kept):
    explode = icepool.d10.explode(depth=20)
    theirs = icepool_probabilities(icepool.Pool([explode] * rolled).highest(kept).sum())
    ours = marginal(gb.l5r(rolled, kept, 0), "total")
    slack = gb.l5r(rolled, kept, 0).unexplored + rolled * F(1, 10**21)
    for total in set(theirs) | set(ours):
        assert abs(theirs.get(total, 0) - ours.get(total, 0)) <= slack


def test_one_roll_engine_agrees_with_icepool():
    theirs = icepool_probabilities(icepool.d10.pool(4).largest_count())
    assert marginal(gb.one_roll_engine(4), "width") == theirs


def test_shadowrun_hits_agree_with_icepool():
    theirs = icepool_probabilities(5 @ icepool.Die({0: 4, 1: 2}))
    assert marginal(gb.shadowrun(5), "hits") == theirs
