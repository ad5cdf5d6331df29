"""The closed form for one die by rank among identical dice (workbench.engine.order).

Checked three ways on many small pools: against the walk of workbench.engine.evaluate (the
route every other roll takes, forced here by turning the closed form off), against brute
force over every face (tests/_roll_brute.py), and on larger pools against the walk alone,
including probabilities far below 1e-12 (compared relatively). Rolls the closed form does not
cover must fall back to the walk.
"""
from __future__ import annotations

import numpy as np
import pytest

from workbench.engine import order
from workbench.engine.evaluate import evaluate_roll
from workbench.rules.roll import Derived, Die, Keep, Percentile, Pick, RollSpec, Sum

from _roll_brute import brute_joint
from _walked import walked

d4, d6, d10 = Die.numbered("d4", 4), Die.numbered("d6", 6), Die.numbered("d10", 10)
fudge = Die("fudge", (-1, -1, 0, 0, 1, 1))
odd = Die("odd", (-2, 0, 0, 3, 3))
DICE = [d4, d6, fudge, odd]


def as_dict(joint):
    return {tuple(int(v) for v in row): float(p) for row, p in zip(joint.values, joint.probabilities)}


def assert_same_as_walk(closed, walk, rtol=1e-12):
    assert closed.names == walk.names
    np.testing.assert_array_equal(closed.values, walk.values)
    np.testing.assert_allclose(closed.probabilities, walk.probabilities, rtol=rtol, atol=0)
    assert closed.lost_mass == walk.lost_mass == 0.0


def stat_cases(n):
    """(statistic, position from the top or None when out of range) for every way to name one die."""
    cases = []
    for position in range(n + 1):
        cases.append(Pick("p", order="highest", position=position))
        cases.append(Pick("p", order="lowest", position=position))
        cases.append(Keep("p", take=1, order="highest", skip=position))
        cases.append(Keep("p", take=1, order="lowest", skip=position))
    cases.append(Pick("p", order="middle"))
    cases.append(Keep("p", take=1, order="middle"))
    return cases


# (total expression, the same in Python, modifier, floor, ceiling)
TOTALS = [("p", lambda s: s["p"], 0, None, None),
          ("p", lambda s: s["p"], 2, 3, 5),
          ("p", lambda s: s["p"], -1, None, 2),
          ("2 * p - 3", lambda s: 2 * s["p"] - 3, 1, None, None),
          ("p >= 3", lambda s: int(s["p"] >= 3), 0, None, None),
          ("-p", lambda s: -s["p"], -1, -3, 2),
          ("p + bonus", lambda s: s["p"] + s["bonus"], 0, 0, 5)]


def cases(n):
    """Every statistic naming one die, every total, with and without a derived statistic
    (without one, a total that is the die alone is read directly, not through columns.py)."""
    for stat in stat_cases(n):
        for total in TOTALS:
            for derived in (True, False):
                yield (stat, *total, (Derived("twice", "total * 2"),) if derived else ())


@pytest.mark.parametrize("die", DICE, ids=lambda d: d.name)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_every_position_and_total_against_the_walk_and_brute_force(die, n):
    taken = 0
    for stat, text, function, modifier, floor, ceiling, derived in cases(n):
        spec = RollSpec(((die, n),), stats=(stat, *derived), total=text,
                        modifier=modifier, floor=floor, ceiling=ceiling, values={"bonus": 2})
        closed = order.order_statistic_roll(spec)
        index = getattr(stat, "position", getattr(stat, "skip", 0))
        if stat.order != "middle" and index >= n:
            assert closed is None      # no die at that rank: the walk's zero column
            continue
        assert closed is not None
        taken += 1
        assert_same_as_walk(closed, walked(spec))
        brute = brute_joint(spec, function, {"twice": lambda s: s["total"] * 2}, {"bonus": 2})
        mine = as_dict(closed)
        assert max(abs(mine.get(k, 0.0) - brute.get(k, 0.0)) for k in set(mine) | set(brute)) <= 1e-12
        assert evaluate_roll(spec).values.tolist() == closed.values.tolist()
    assert taken >= 2 * len(TOTALS) * (4 * n + 2)


@pytest.mark.parametrize("extra", [-2, 1])
def test_percentile_dice_by_rank(extra):
    die = Percentile("pct", extra=extra)
    for stat in (Pick("p"), Pick("p", order="lowest"), Pick("p", order="middle")):
        spec = RollSpec(((die, 3),), stats=(stat,), total="p")
        assert_same_as_walk(order.order_statistic_roll(spec), walked(spec))


@pytest.mark.parametrize("die, n, stat", [
    (d10, 30, Pick("p")), (d10, 30, Pick("p", order="lowest", position=1)),
    (Die.numbered("d20", 20), 5, Pick("p", order="middle")), (fudge, 9, Pick("p", position=3)),
    (d6, 40, Pick("p", order="lowest")), (d6, 40, Pick("p"))])
def test_larger_pools_keep_tiny_probabilities_to_their_last_digits(die, n, stat):
    spec = RollSpec(((die, n),), stats=(stat,), total="p")
    closed = order.order_statistic_roll(spec)
    assert closed is not None
    assert_same_as_walk(closed, walked(spec), rtol=1e-9)
    assert closed.probabilities.min() < 1e-20 or die is not d6   # 6^-40 is there, not rounded to 0


def test_values_too_unlikely_for_a_float_are_left_out_as_the_walk_leaves_them():
    spec = RollSpec(((d6, 500),), stats=(Pick("p"),), total="60 // p")   # 6^-500 underflows to 0
    closed = order.order_statistic_roll(spec)
    assert 60 not in closed.values[:, 0]
    assert_same_as_walk(closed, walked(spec), rtol=1e-9)


def test_two_identical_dice_highest_by_hand():
    spec = RollSpec(((d6, 2),), stats=(Pick("high"),), total="high")
    assert [round(float(p) * 36, 9) for p in order.order_statistic_roll(spec).probabilities] == [1, 3, 5, 7, 9, 11]


@pytest.mark.parametrize("spec", [
    RollSpec(((Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]}), 3),), stats=(Pick("p"),), total="p"),
    RollSpec(((Die.numbered("x6", 6, explodes=[False] * 5 + [True]), 3),), stats=(Pick("p"),), total="p"),
    RollSpec(((d6, 2), (d4, 1)), stats=(Pick("p"),), total="p"),
    RollSpec(((d6, 3),), stats=(Pick("p"), Sum("s")), total="p"),
    RollSpec(((d6, 3),), stats=(Pick("p"),)),
    RollSpec(((d6, 3),), stats=(Keep("p", take=2),), total="p"),
    RollSpec(((d6, 3), (d4, 0)), stats=(Pick("p", dice="d4"),), total="p"),
], ids=["counts", "exploding", "two-types", "a-sum-beside", "total-of-all-dice", "keep-two", "no-such-dice"])
def test_rolls_outside_the_closed_form_take_the_walk(spec):
    assert order.order_statistic_roll(spec) is None
    assert evaluate_roll(spec).names == spec.statistic_names


def test_a_pool_beyond_the_budget_walks(monkeypatch):
    spec = RollSpec(((d6, 5),), stats=(Pick("p", position=1),), total="p")
    monkeypatch.setattr(order, "WORK_UP_TO", 10)
    assert order.order_statistic_roll(spec) is None
    monkeypatch.undo()
    assert_same_as_walk(order.order_statistic_roll(spec), walked(spec))
