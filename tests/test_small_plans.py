"""What the walk's planner tells in plain Python for a few outcomes (whether faces equal in
value differ in counts, which decides how tied dice rank) is what numpy tells for many, and a
roll whose ties rank by counts comes out as every face counted one by one."""
from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from workbench.engine import _rows, registers
from workbench.engine.dice import die_outcomes
from workbench.engine.evaluate import count_columns, evaluate_roll
from workbench.rules.roll import Die, Keep, RollSpec


def plan_of(dice):
    spec = RollSpec(tuple((die, 1) for die in dice))
    counts = count_columns(spec)
    groups = [(i, die, 1, *die_outcomes(die, counts)[:2]) for i, die in enumerate(dice)]
    return registers.Plan(spec, groups, counts)


@pytest.mark.parametrize("seed", range(40))
def test_faces_sharing_values_are_told_alike_in_python_and_in_numpy(seed, monkeypatch):
    rng = random.Random(seed)
    dice = []
    for k in range(rng.randint(1, 3)):
        sides = rng.randint(1, 6)
        values = tuple(rng.randint(0, 3) for _ in range(sides))
        counts = {"marks": [rng.randint(0, 1) for _ in range(sides)]} if rng.random() < 0.7 else {}
        dice.append(Die(f"d{k}", values, counts=counts))
    small = plan_of(dice).shared_values
    monkeypatch.setattr(registers, "SMALL", -1)   # the numpy route, whatever the size
    assert plan_of(dice).shared_values == small
    every = [(die.values[f], dict(die.counts).get("marks", [0] * die.sides)[f])
             for die in dice for f in range(die.sides)]
    has_marks = any(die.counts for die in dice)
    assert small == (has_marks and len({v for v, _ in every}) < len(set(every)))


def test_ties_ranked_by_counts_match_every_face_counted():
    # two faces show 2, one of them marked: the kept die's mark depends on which ranks first
    d = Die("d", (1, 2, 2, 3), counts={"marks": [0, 1, 0, 0]})
    spec = RollSpec(((d, 3),), stats=(Keep("best", take=1, score="marks"),))
    joint = evaluate_roll.__wrapped__(spec)
    exact: dict = {}
    for faces in itertools.product(range(4), repeat=3):
        shown = [(d.values[f], d.counts[0][1][f]) for f in faces]
        best = sorted(shown, key=lambda s: (s[0], s[1]), reverse=True)[0]   # ties: more marks first
        row = (sum(v for v, _ in shown), sum(m for _, m in shown), best[1])
        exact[row] = exact.get(row, 0) + Fraction(1, 64)
    mine = {tuple(row): p for row, p in zip(joint.values.tolist(), joint.probabilities.tolist())}
    assert set(mine) == set(exact)
    assert max(abs(mine[k] - float(exact[k])) for k in exact) < 1e-15
