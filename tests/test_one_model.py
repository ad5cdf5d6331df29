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
