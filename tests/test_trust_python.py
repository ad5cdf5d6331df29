"""Trust in mechanics written in Python: what a designer's code returns is checked once, at
the boundary (the pool and the parameters where they are declared, the readings where they
are read), so a NaN, a share of 1.2 or a pool of 2.7 dice never reaches a table."""
from __future__ import annotations

import math
import threading

import pytest

import workbench as wb
from workbench import WorkbenchError
from workbench.results import Distribution
from workbench.rules import DieType, PoolSpec
from workbench.rules.mechanics.base import Mechanic
from workbench.rules.params import Param

from _brute import designed_roll, enumerate_rolls

D6 = DieType("d6", (0, 0, 0, 1, 1, 1))
DICE = {"dice": {"default": 2, "min": 0, "max": 10}}


@pytest.fixture
def register(registered):
    """``registered`` with ``params`` defaulting to a dice count for pool functions."""
    def make(id, pool, **kw):
        if not (isinstance(pool, type) and issubclass(pool, Mechanic)):
            kw.setdefault("params", DICE)
        return registered(id, pool, **kw)
    return make


class Reading(Mechanic):
    """A d6 pool (4+) whose readings are whatever the test puts in ``found``."""

    found: dict = {}

    def params(self):
        return (Param("dice", "int", 2, 0, 10),)

    def pool(self, p):
        return PoolSpec(((D6, p["dice"]),))


def reading(**found):
    return type("Custom", (Reading,), {name: (lambda value: (lambda self, *a: value))(value)
                                       for name, value in found.items()})


@pytest.mark.parametrize("found, message", [
    ({"p_pass": math.nan}, r"p_pass\(raw, p\) returned nan"),
    ({"p_pass": -0.1}, r"p_pass\(raw, p\) returned -0.1"),
    ({"p_pass": 1.5}, r"p_pass\(raw, p\) returned 1.5"),
    ({"p_pass": True}, r"p_pass\(raw, p\) returned True"),
    ({"tiers": Distribution(("low", "high"), (0.6, 0.6))}, r"tiers\(raw, p\) gave probabilities adding up to 1.2"),
    ({"tiers": Distribution(("low", "high"), (-0.2, 1.2))}, r"tiers\(raw, p\) gave outcome 'low' the probability -0.2"),
    ({"tiers": {"low": 0.5}}, r"tiers\(raw, p\) returned \{'low': 0.5\}"),
    ({"outcomes": Distribution((0, 1), (math.nan, 1.0))}, r"outcomes\(raw\) gave outcome 0 the probability nan"),
    ({"target": 2.5}, r"target\(p\) returned 2.5"),
    ({"target": 10**19}, r"target\(p\) returned 10000000000000000000"),
])
def test_readings_of_a_python_mechanic_are_checked(register, found, message):
    register("custom-reading", reading(**found))
    with pytest.raises(WorkbenchError, match="custom-reading: " + message):
        wb.check("custom-reading", dice=2)


def test_good_readings_pass_through(register):
    register("custom-good", reading(p_pass=0.25, target=1,
                                    tiers=Distribution(("low", "high"), (0.25, 0.75))))
    result = wb.check("custom-good", dice=2)
    assert result.p_pass == 0.25 and result.tiers.to_dict() == {"low": 0.25, "high": 0.75}


@pytest.mark.parametrize("pool, message", [
    (lambda p: PoolSpec(((D6, p["dice"] + 0.7),)), r"'d6', a whole number of them; got 2.7 dice"),
    (lambda p: PoolSpec(((DieType("half", (0, 0.5)), p["dice"]),)), r"face 2 has value 0.5"),
    (lambda p: PoolSpec(((D6, p["dice"]),), modifier=math.nan), r"modifier got nan"),
    (lambda p: PoolSpec(((D6, p["dice"]),), modifier=2**63), r"modifier got 9223372036854775808"),
    (lambda p: PoolSpec(((DieType("big", (0, 10**18)), 2),)), r"face 2 has value 1000000000000000000"),
    (lambda p: PoolSpec(((D6, True),)), r"got True dice"),
    (lambda p: {"d6": p["dice"]}, r"returned dict"),
])
def test_pools_of_a_python_mechanic_are_checked(register, pool, message):
    register("bad-pool", pool)
    with pytest.raises(WorkbenchError, match="bad-pool: .*" + message):
        wb.check("bad-pool", dice=2)


@pytest.mark.parametrize("params, message", [
    ({"dice": {"default": 50, "min": 0, "max": 10}}, "declares default 50"),
    ({"dice": {"default": 2.5, "min": 0, "max": 10}}, "declares default 2.5"),
    ({"dice": {"default": 2, "min": 10, "max": 0}}, "min 10 above max 0"),
    ({"dice": {"default": 2, "min": 0.5}}, "bound 0.5"),
    ({"size": {"choices": [4, 6, 6], "default": 4}}, "declares choices"),
    ({"size": {"choices": [4, 6], "default": 5}}, "declares default 5"),
    ({"size": {"choices": [], "optional": True}}, "declares choices"),
])
def test_parameters_of_a_python_mechanic_are_checked(register, params, message):
    with pytest.raises(WorkbenchError, match=message):
        register("bad-params", lambda p: PoolSpec(((D6, 1),)), params=params)
    assert "bad-params" not in [s.id for s in wb.systems()]


def test_a_mechanic_class_with_a_default_outside_its_bounds(register):
    class Outside(Reading):
        def params(self):
            return (Param("dice", "int", 50, 0, 10),)

    with pytest.raises(WorkbenchError, match="declares default 50"):
        register("outside", Outside)


def test_defaults_given_at_registration_are_checked(register):
    with pytest.raises(WorkbenchError, match=r"defaults\['dice'\]' got 99; allowed: a whole number from 0 to 10"):
        register("bad-default", lambda p: PoolSpec(((D6, p["dice"]),)), defaults={"dice": 99})
    with pytest.raises(WorkbenchError, match="did you mean 'dice'"):
        register("bad-default", lambda p: PoolSpec(((D6, p["dice"]),)), defaults={"dcie": 3})


def test_a_choice_default_is_kept_as_declared(register):
    seen = []

    def pool(p):
        seen.append(p["quality"])
        return PoolSpec(((D6, 1),))
    register("quality-case", pool, params={"quality": {"choices": ["B", "A"], "default": "a"}})
    wb.check("quality-case")
    assert seen == ["A"]


def test_a_good_python_pool_matches_the_brute_force(register):
    d6 = DieType("d6", (-1, 0, 0, 1, 1, 2), (False,) * 5 + (True,), limit=1)
    register("brute-python", lambda p: PoolSpec(((d6, p["dice"]),), modifier=p["bonus"], floor=0),
             params={"dice": {"default": 2, "min": 0, "max": 4}, "bonus": {"default": 0, "min": -2, "max": 2}})
    for dice, bonus in [(1, 0), (2, -1), (3, 2)]:
        truth, unexplored = enumerate_rolls(designed_roll(
            {"d6": {"faces": [-1, 0, 0, 1, 1, 2], "explode": {6}, "limit": 1}}, {"d6": dice},
            modifier=bonus, floor=0), max_faces=8)
        assert unexplored == 0
        totals: dict = {}
        for (total, _), p in truth.items():
            totals[total] = totals.get(total, 0.0) + p
        result = wb.check("brute-python", dice=dice, bonus=bonus)
        assert dict(zip(result.pmf.outcomes, result.pmf.probabilities)) == pytest.approx(totals)


def test_ties_of_a_python_mechanic_are_checked(register):
    class Sideways(Reading):
        def versus_ties(self, p):
            return "Actor"

    register("sideways", Sideways)
    with pytest.raises(WorkbenchError, match=r"sideways: versus_ties\(p\) returned 'Actor'"):
        wb.versus("sideways", {"dice": 2}, {"dice": 2})


def test_registering_while_other_threads_check(register):
    register("busy-0", lambda p: PoolSpec(((D6, p["dice"]),)), target=None)
    failures: list = []
    stop = threading.Event()

    def checking():
        while not stop.is_set():
            try:
                assert wb.check("uwr", dice=2, target=1).p_pass == pytest.approx(5 / 9)
                wb.systems()
            except Exception as exc:  # noqa: BLE001 - any exception here is the bug
                failures.append(exc)
                return

    threads = [threading.Thread(target=checking) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        for i in range(60):
            register(f"busy-{i % 7}", lambda p: PoolSpec(((D6, p["dice"]),)))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert not failures, failures[0]
