"""One roll model: a die and a roll mean the same on every route (data file, Python), and a
number that is not whole is refused where the description is made, never cut to a whole one."""
from __future__ import annotations

import math

import numpy as np
import pytest

import workbench as wb
from workbench import WorkbenchError
from workbench.rules import DieType, PoolSpec
from workbench.rules.dice import Die, Percentile
from workbench.rules.roll import Derived, Keep, KeptDice, Pick, RollSpec, Sets, Sum

D6 = Die.numbered("d6", 6)


def test_one_die_class_on_both_routes():
    assert DieType is Die
    assert Die("d", (0, 1), (False, True)).explodes == (False, True)
    assert Die.numbered("d4", 4, counts={"fours": [0, 0, 0, 1]}).count_names == ("fours",)


@pytest.mark.parametrize("make, message", [
    (lambda: Die("half", (0, 0.5)), r"face 2 has value 0\.5"),
    (lambda: Die("half", (1, 2), counts={"hits": (0, 0.5)}), r"face 2 has value 0\.5 in count 'hits'"),
    (lambda: Die("big", (0, 10**18)), r"face 2 has value 1000000000000000000"),
    (lambda: Die("d", (1, 2), limit=1.5), r"explode_limit got 1\.5"),
    (lambda: Die("d", (1, 2), explodes=(0, 1)), r"explodes got \(0, 1\)"),
    (lambda: Die("d", ()), r"values got \(\)"),
    (lambda: Die.numbered("d", 2.5), r"sides got 2\.5"),
    (lambda: Percentile("d100", extra=1.5), r"extra got 1\.5"),
    (lambda: RollSpec(((D6, 2.7),)), r"2\.7 dice of 'd6'"),
    (lambda: RollSpec(((D6, 1001),)), r"1001 dice of 'd6'"),
    (lambda: RollSpec(((D6, 600), (Die.numbered("d8", 8), 600))), r"1200 dice; allowed: at most 1000"),
    (lambda: RollSpec(((D6, 2),), modifier=0.5), r"modifier got 0\.5"),
    (lambda: RollSpec(((D6, 2),), ceiling=3.5), r"ceiling got 3\.5"),
    (lambda: RollSpec(((D6, 2),), floor=math.nan), r"floor got nan"),
    (lambda: RollSpec(((D6, 2),), modifier=10**20), r"modifier got 100000000000000000000"),
    (lambda: RollSpec(((D6, 2),), stats=(Keep("k", take=1.5),)), r"take got 1\.5"),
    (lambda: RollSpec(((D6, 2),), stats=(Keep("k", take=1, skip=-1),)), r"skip got -1"),
    (lambda: RollSpec(((D6, 2),), stats=(Pick("p", position=1.5),)), r"position got 1\.5"),
    (lambda: RollSpec(((D6, 2),), stats=(Sets("s", size=0),)), r"size got 0"),
    (lambda: RollSpec(((D6, 2),), stats=(Sum("my stat"),)), r"statistic name got 'my stat'"),
    (lambda: RollSpec(((Die.numbered("d6", 6, counts={"my count": [0] * 6}), 2),)), r"count name got 'my count'"),
    (lambda: RollSpec(((D6, 2),), values={"skill": 2.5}, total="skill"), r"'skill'.*got 2\.5"),
    (lambda: RollSpec(((D6, 2),), kept=KeptDice("d6", 1.5)), r"kept take got 1\.5"),
    (lambda: RollSpec(((D6, 2),), kept=KeptDice("d6", 3)), r"kept take got 3"),
    (lambda: RollSpec(((D6, 2),), kept=KeptDice("d8", 1)), r"kept dice 'd8' are not rolled"),
    (lambda: RollSpec(((D6, 2),), kept=KeptDice("d6", 1, "middle")), r"kept order got 'middle'"),
    (lambda: RollSpec(((Die.numbered("d6", 6, explodes=(False,) * 5 + (True,)), 2),),
                      kept=KeptDice("d6", 1)), r"dice that do not explode"),
    (lambda: RollSpec(((D6, 2),), rerolls=1, kept=KeptDice("d6", 1)), r"rerolls of misses do not combine"),
    (lambda: PoolSpec(((Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]}), 2),)),
     r"scores counts \(ones\), which a PoolSpec"),
])
def test_python_route_refuses_what_is_not_whole(make, message):
    with pytest.raises(WorkbenchError, match=message):
        make()


def test_numpy_whole_numbers_are_whole():
    die = Die("d", np.array([0, 1, 2], dtype=np.int8))
    assert die.values == (0, 1, 2) and all(type(v) is int for v in die.values)
    spec = RollSpec(((die, np.int64(3)),), modifier=np.int16(2))
    assert spec.dice == 3 and spec.modifier == 2


def test_a_derived_statistic_reads_what_is_before_it():
    spec = RollSpec(((D6, 2),), stats=(Keep("best", take=1), Derived("twice", "best * 2")), total="best")
    assert spec.statistic_names == ("total", "best", "twice")


# -- rerolled misses, kept dice and all-negative rolls, against every face ------------------
from collections import Counter  # noqa: E402
from fractions import Fraction  # noqa: E402
import itertools  # noqa: E402

from hypothesis import given, settings, strategies as st  # noqa: E402

from workbench.engine import evaluate_roll  # noqa: E402
from workbench.rules.roll import AllNegative  # noqa: E402


def _faces(die):
    """Each face of a die that does not explode: (value, {count: score}), equally likely."""
    return [(v, {name: scores[i] for name, scores in die.counts}) for i, v in enumerate(die.values)]


def brute(groups, *, rerolls=0, kept=None, stats=(), count_names=()):
    """Every roll of every face (rerolled dice roll every face again), as a player reads it:
    {(total, counts..., stats...): exact chance}."""
    out = Counter()
    dice = [(name, faces) for name, faces, n in groups for _ in range(n)]
    for first in itertools.product(*[range(len(faces)) for _, faces in dice]):
        chance = Fraction(1, math.prod(len(faces) for _, faces in dice))
        shown = [(name, faces[i], faces) for (name, faces), i in zip(dice, first)]
        negative_first = [face[0] < 0 for _, face, _ in shown]
        missed = [k for k, (_, face, _) in enumerate(shown) if face[0] == 0][:rerolls]
        for again in itertools.product(*[range(len(shown[k][2])) for k in missed]):
            rolled = list(shown)
            for k, i in zip(missed, again):
                rolled[k] = (rolled[k][0], rolled[k][2][i], rolled[k][2])
            weight = chance / math.prod(len(shown[k][2]) for k in missed) if missed else chance
            first_negative = [flag for flag in negative_first]
            for k in missed:
                first_negative[k] = False
            if kept is not None:
                mine = [k for k, (name, _, _) in enumerate(rolled) if name == kept.dice]
                ranked = sorted(mine, key=lambda k: (rolled[k][1][0], *[rolled[k][1][1].get(c, 0) for c in count_names]),
                                reverse=kept.order == "highest")
                dropped = set(ranked[kept.take:])
                rolled = [r for k, r in enumerate(rolled) if k not in dropped]
                first_negative = [f for k, f in enumerate(first_negative) if k not in dropped]
            values = [face[0] for _, face, _ in rolled]
            row = [sum(values)] + [sum(face[1].get(c, 0) for _, face, _ in rolled) for c in count_names]
            for stat in stats:
                if isinstance(stat, AllNegative):
                    row.append(int(bool(rolled) and all(first_negative)))
                elif isinstance(stat, Pick):
                    ordered = sorted(values, reverse=stat.order == "highest")
                    row.append(ordered[stat.position] if stat.position < len(ordered) else 0)
                elif isinstance(stat, Keep):
                    ordered = sorted(values, reverse=stat.order == "highest")
                    row.append(sum(ordered[stat.skip:stat.skip + stat.take]))
            out[tuple(row)] += weight
    return out


def engine_rows(spec):
    joint = evaluate_roll(spec)
    return {tuple(int(v) for v in row): p for row, p in zip(joint.values, joint.probabilities)}


def assert_same(spec, expected):
    found = engine_rows(spec)
    assert set(found) == {row for row, p in expected.items() if p}, (found, expected)
    for row, p in expected.items():
        assert found[row] == pytest.approx(float(p), abs=1e-12)


FACES = st.lists(st.integers(-1, 3), min_size=2, max_size=4)


@settings(max_examples=60, deadline=None)
@given(first=FACES, second=FACES, n1=st.integers(0, 3), n2=st.integers(0, 2),
       rerolls=st.integers(0, 3), with_counts=st.booleans(), with_negative=st.booleans())
def test_rerolled_misses_with_counts_and_statistics_match_every_face(first, second, n1, n2, rerolls,
                                                                    with_counts, with_negative):
    counts = {"highs": [int(v >= 2) for v in first]} if with_counts else {}
    a = Die("a", tuple(first), counts=counts)
    b = Die("b", tuple(second), counts={"highs": [int(v >= 2) for v in second]} if with_counts else {})
    stats = (Pick("best"),) + ((AllNegative("botch"),) if with_negative else ())
    spec = RollSpec(((a, n1), (b, n2)), stats=stats, rerolls=rerolls)
    names = spec.count_names
    expected = brute([("a", _faces(a), n1), ("b", _faces(b), n2)], rerolls=rerolls, stats=stats,
                     count_names=names)
    assert_same(spec, expected)


@settings(max_examples=60, deadline=None)
@given(first=FACES, n=st.integers(0, 4), other=st.integers(0, 2), take=st.integers(0, 4),
       order=st.sampled_from(["highest", "lowest"]), with_negative=st.booleans())
def test_kept_dice_feed_every_statistic_and_count(first, n, other, take, order, with_negative):
    take = min(take, n)
    a = Die("a", tuple(first), counts={"twos": [int(v == 2) for v in first]})
    b = Die.numbered("b", 3)
    stats = (Pick("top"), Keep("low2", take=2, order="lowest")) + ((AllNegative("botch"),) if with_negative else ())
    spec = RollSpec(((a, n), (b, other)), stats=stats, kept=KeptDice("a", take, order))
    expected = brute([("a", _faces(a), n), ("b", _faces(b), other)], kept=KeptDice("a", take, order),
                     stats=stats, count_names=spec.count_names)
    assert_same(spec, expected)


def test_all_negative_reads_first_faces_not_explosions():
    # A d6 whose 1 cancels and whose 6 explodes (at most once): a 6 then a 1 is no botch.
    die = Die("d", (-1, 0, 0, 0, 1, 1), (False,) * 5 + (True,), limit=1)
    spec = RollSpec(((die, 2),), stats=(AllNegative("botch"),))
    joint = evaluate_roll(spec)
    botch = joint.values[:, joint.names.index("botch")]
    assert float(joint.probabilities[botch == 1].sum()) == pytest.approx(1 / 36)
    assert set(joint.values[botch == 1, 0].tolist()) == {-2}


def test_groups_that_agree_only_with_a_one_faced_die_do_not_walk_as_one():
    """A die with one face agrees with every die on that face: two other dice that both agree
    with it but not with each other were walked as one (the highest of a constant 1, a die
    showing 1 or 6 and a d6 came out as if both were d6s: 6 with 1/12 too little)."""
    one, split = Die("one", (1,)), Die("split", (1, 6))
    spec = RollSpec(((one, 1), (split, 1), (D6, 1)), stats=(Pick("top"),), total="top")
    found = engine_rows(spec)
    expected = Counter()
    for a, b in itertools.product((1, 6), range(1, 7)):
        top = max(1, a, b)
        expected[(top, top)] += Fraction(1, 12)
    assert_same(spec, expected)
    assert found[(6, 6)] == pytest.approx(7 / 12)


# -- lazy statistics: what the reading needs first, the rest on first use --------------------

def test_a_check_computes_the_statistics_its_reading_needs_and_the_rest_on_first_use():
    """Cortex's tiers and P(pass) read the two dice kept; its hitches are computed only when
    asked for (then exactly as before)."""
    from workbench.engine import evaluate_roll as full_roll
    result = wb.check("cortex-prime")
    assert result.later is not None and "joint" not in result.__dict__
    spec = wb.system("cortex-prime").pool()
    whole = full_roll(spec)
    kept = whole.values[:, whole.names.index("total")]
    assert result.p_pass == pytest.approx(float(whole.probabilities[kept > 7].sum()))   # beats 7
    hitches = whole.values[:, whole.names.index("hitches")]
    assert result.stats["hitches"][0] == pytest.approx(float(whole.probabilities[hitches == 0].sum()))
    assert result.joint.names == whole.names
    assert result.probability("hitches >= 1 and total > 7") == pytest.approx(
        float(whole.probabilities[(hitches >= 1) & (kept > 7)].sum()))


def test_cutting_a_roll_down_keeps_what_ranks_the_dice():
    """A statistic adding a count over dice kept by rank keeps every count (ties in rank go
    by the counts, in order); one reading values only leaves the other counts out."""
    from workbench.engine.wanted import cut_down
    die = Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0], "evens": [0, 1, 0, 1, 0, 1]})
    by_value = RollSpec(((die, 3),), stats=(Keep("best", take=2),), total="best")
    assert cut_down(by_value, frozenset({"total"})).count_names == ()
    by_count = RollSpec(((die, 3),), stats=(Keep("best", take=2, score="evens"),), total="best")
    assert cut_down(by_count, frozenset({"total"})).count_names == ("ones", "evens")
    for spec in (by_value, by_count):
        cut = evaluate_roll(cut_down(spec, frozenset({"total"})))
        whole = evaluate_roll(spec)
        for total in set(whole.values[:, 0].tolist()):
            assert float(cut.probabilities[cut.values[:, 0] == total].sum()) == pytest.approx(
                float(whole.probabilities[whole.values[:, 0] == total].sum()))


# -- a total that is the dice's sum plus numbers: the sum path for a reading of the total alone

TOTAL_FORMS = ["3d6+1", "2d6-1", "1d20+5>=15", "4dF+@skill=2", "2d6+1d4+3", "1d8+1d4-2",
               "{2d6, d8}kh2+1", "3d6x+2", "d6+@b=-3"]


def _brute_total(formula: str) -> dict:
    """Every face of every die, by hand (exploding dice aside)."""
    import itertools
    import re
    from collections import Counter
    dice, constant = [], 0
    text = formula.split(">=")[0].replace("{", "").replace("}kh2", "").replace(" ", "").replace(",", "+")
    for sign, term in re.findall(r"([+-]?)([^+-]+)", text):
        s = -1 if sign == "-" else 1
        if "@" in term:
            constant += s * int(term.split("=")[1])
        elif "dF" in term:
            dice += [(-1, 0, 1)] * int(term.split("d")[0])
        elif "d" in term:
            n, sides = term.split("d")
            dice += [tuple(s * v for v in range(1, int(sides) + 1))] * int(n or 1)
        else:
            constant += s * int(term)
    counts = Counter(sum(faces) + constant for faces in itertools.product(*dice))
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


@pytest.mark.parametrize("formula", [f for f in TOTAL_FORMS if "x" not in f and "-3" not in f])
def test_a_total_of_dice_plus_numbers_takes_the_sum_path_and_matches_every_face(formula):
    from workbench.engine.forms import total_form
    system = wb.system(formula)
    assert total_form(system.pool()) is not None
    pmf = wb.check(formula).pmf
    got = dict(zip(pmf.outcomes, pmf.probabilities))
    expected = _brute_total(formula)
    assert got.keys() == expected.keys()
    assert all(got[k] == pytest.approx(expected[k], abs=1e-12) for k in expected)


@pytest.mark.parametrize("formula", TOTAL_FORMS)
def test_the_sum_path_and_the_walk_give_one_total_and_the_statistics_stay(formula):
    from workbench.engine import exact_distribution
    from workbench.engine.evaluate import evaluate_roll
    spec = wb.system(formula).pool()
    fast = dict(zip(*exact_distribution(spec, frozenset({"total"})).total_marginal))
    walked = dict(zip(*evaluate_roll(spec).total_marginal))
    for total in fast.keys() | walked.keys():   # exploding dice: both cut the same far tail
        assert fast.get(total, 0.0) == pytest.approx(walked.get(total, 0.0), abs=1e-12)
    full = wb.check(formula)
    assert set(full.stats) > {"total"}   # the statistics the total reads are still there
    assert full.mean == pytest.approx(sum(k * v for k, v in walked.items()), abs=1e-9)


@pytest.mark.parametrize("total, stats, why", [
    ("d6 + d6", (Sum("d6", dice=("d6",)),), "the dice summed twice"),
    ("d6 - d8", (Sum("d6", dice=("d6",)), Sum("d8", dice=("d8",))), "a sum subtracted"),
    ("d6 + 1", (Sum("d6", dice=("d6",)), Sum("d8", dice=("d8",))), "a statistic the total does not read"),
    ("d6 + 1", (Sum("d6", dice=("d6",)),), "dice the total does not read"),
    ("d6 * 2", (Sum("d6", dice=("d6",)),), "a product"),
    ("ones + 1", (Sum("ones", score="value == 1", dice=("d6",)),), "a count of faces"),
])
def test_a_total_that_is_more_than_the_dice_plus_numbers_walks(total, stats, why):
    from workbench.engine.forms import total_form
    groups = ((D6, 2),) if "d8" not in total and len(stats) == 1 and why != "dice the total does not read" \
        else ((D6, 2), (Die.numbered("d8", 8), 1))
    assert total_form(RollSpec(groups, stats=stats, total=total)) is None, why


KEEP_FORMS = [("4d6kh3", 4, 6, "highest", 3, 0), ("4d6kl3", 4, 6, "lowest", 3, 0),
              ("2d20kh1+5", 2, 20, "highest", 1, 5), ("3d8kl2-1", 3, 8, "lowest", 2, -1),
              ("4d6dl1", 4, 6, "highest", 3, 0), ("5d4kh2+@b=3", 5, 4, "highest", 2, 3)]


@pytest.mark.parametrize("formula, n, sides, order, take, constant", KEEP_FORMS,
                         ids=[k[0] for k in KEEP_FORMS])
def test_kept_dice_plus_numbers_take_the_sum_path_and_match_every_face(formula, n, sides, order,
                                                                       take, constant):
    import itertools
    from collections import Counter
    from workbench.engine.forms import total_form
    form = total_form(wb.system(formula).pool())
    assert (form.keep, form.kept) == (order, take)
    counts = Counter(sum(sorted(faces, reverse=order == "highest")[:take]) + constant
                     for faces in itertools.product(range(1, sides + 1), repeat=n))
    pmf = wb.check(formula).pmf
    got = dict(zip(pmf.outcomes, pmf.probabilities))
    assert got.keys() == counts.keys()
    assert all(got[k] == pytest.approx(c / sides ** n, abs=1e-12) for k, c in counts.items())
    assert set(wb.check(formula).stats) > {"total"}   # the kept statistic is still there


@pytest.mark.parametrize("formula", ["{4d6kh3, 3d6}kh1", "3d6km1", "4d6kh3+1d4", "{2d6x, 2d6x}kh1"])
def test_keeps_the_sum_path_cannot_say_walk(formula):
    from workbench.engine.forms import total_form
    assert total_form(wb.system(formula).pool()) is None


COUNT_FORMS = ["8d10cs>=8x", "8d10cs>=8", "(@dice=5)d10cs>=8x", "6d6cs>=5+2", "4d6cs>=6-1"]


@pytest.mark.parametrize("formula", COUNT_FORMS)
def test_a_count_plus_numbers_takes_the_sum_path_and_gives_the_walks_total(formula):
    from workbench.engine import exact_distribution
    from workbench.engine.evaluate import evaluate_roll
    from workbench.engine.forms import total_form
    spec = wb.system(formula).pool()
    assert total_form(spec) is not None
    fast = dict(zip(*exact_distribution(spec, frozenset({"total"})).total_marginal))
    walked = dict(zip(*evaluate_roll(spec).total_marginal))
    for total in fast.keys() | walked.keys():
        assert fast.get(total, 0.0) == pytest.approx(walked.get(total, 0.0), abs=1e-12)
    result = wb.check(formula)
    assert dict(zip(result.pmf.outcomes, result.pmf.probabilities)).keys() <= fast.keys() | {"< 0.01%"}


def _gallery_settings():
    """Every system at its defaults and, where they are allowed, pools of 1 and 3."""
    out = []
    for system in wb.systems():
        system = wb.system(system) if isinstance(system, str) else system
        pool = system.pool_parameter
        for size in [None] if not pool else [None, 1, 3]:
            params = {} if size is None else {pool: size}
            try:
                system.resolve(**params)
            except WorkbenchError:   # a pool size the system does not allow (Hero skill 1)
                continue
            out.append((system.id, params))
    return out


@pytest.mark.parametrize("system_id, params", _gallery_settings(),
                         ids=[f"{s}-{p}" for s, p in _gallery_settings()])
def test_every_systems_total_is_the_same_on_the_sum_path_and_the_walk(system_id, params):
    """Wherever the total alone is answered as a sum (dice plus numbers, kept dice, a count),
    it is the walk's total: every system of the gallery at its defaults and two pool sizes."""
    from workbench.engine import exact_distribution
    from workbench.engine.evaluate import evaluate_roll
    from workbench.engine.forms import sum_form, total_form
    system = wb.system(system_id)
    spec = system.pool(**system.resolve(**params))
    if not isinstance(spec, RollSpec) or sum_form(spec) is not None or total_form(spec) is None:
        return   # answered one way only
    fast = dict(zip(*exact_distribution(spec, frozenset({"total"})).total_marginal))
    walked = dict(zip(*evaluate_roll(spec).total_marginal))
    for total in fast.keys() | walked.keys():
        assert fast.get(total, 0.0) == pytest.approx(walked.get(total, 0.0), abs=1e-12)


def test_a_total_with_rerolls_of_misses_walks():
    from workbench.engine.forms import total_form
    summed = RollSpec(((D6, 2),), stats=(Sum("d6", dice=("d6",)),), total="d6 + 1", rerolls=1)
    kept = RollSpec(((D6, 3),), stats=(Keep("d6", take=2),), total="d6", rerolls=1)
    assert total_form(summed) is None and total_form(kept) is None
