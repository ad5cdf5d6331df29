"""The one or two highest dice of a mixed pool in closed form (workbench/engine/highest.py):
against the walk of workbench.engine.evaluate (forced by turning the closed forms off) and
against brute force over every face (tests/_roll_brute.py), on random pools of dice with
repeated, negative and unordered faces; the rolls it does not cover fall back to the walk."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import workbench
from workbench.engine.evaluate import evaluate_roll
from workbench.engine.highest import highest_of_mixed
from workbench.engine.wanted import cut_down
from workbench.results import reading
from workbench.rules.roll import Derived, Die, Keep, Pick, RollSpec

from _walked import walked


SCORES = {"value": lambda v: v, "0 if value == 1 else value": lambda v: 0 if v == 1 else v,
          "value * 2 - 3": lambda v: v * 2 - 3, "min(value, 4)": lambda v: min(v, 4)}


def every_face(spec, score, take):
    """{(total, kept[, twice]): probability} over every face of every die, in plain Python:
    the dice sorted by value, the ``take`` highest scored and added; total = kept + 1."""
    dice = [die for die, n in spec.groups for _ in range(n)]
    derived = len(spec.stats) > 1
    counted: dict = {}
    for faces in itertools.product(*(die.values for die in dice)):
        kept = sum(score(v) for v in sorted(faces, reverse=True)[:take])
        row = (kept + 1, kept, kept * 2) if derived else (kept + 1, kept)
        counted[row] = counted.get(row, 0) + 1
    everything = math.prod(die.sides for die in dice)
    return {row: n / everything for row, n in counted.items()}


def as_dict(joint):
    return {tuple(int(v) for v in row): float(p) for row, p in zip(joint.values, joint.probabilities)}


@st.composite
def pools(draw):
    types = draw(st.integers(1, 3))
    groups = []
    for t in range(types):
        sides = draw(st.integers(2, 6))
        values = draw(st.one_of(st.just(tuple(range(1, sides + 1))),
                                st.lists(st.integers(-2, 7), min_size=sides, max_size=sides).map(tuple)))
        groups.append((Die(f"t{t}", values), draw(st.integers(0, 3))))
    if not any(n for _, n in groups):
        groups[0] = (groups[0][0], 1)
    score = draw(st.sampled_from(sorted(SCORES)))
    take = draw(st.sampled_from([1, 2]))
    derived = draw(st.booleans())
    spec = RollSpec(tuple(groups), stats=(Keep("kept", take=take, score=score),
                                          *((Derived("twice", "kept * 2"),) if derived else ())),
                    total="kept + bonus", values={"bonus": 1})
    return spec, score, take


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pools())
def test_the_highest_of_a_mixed_pool_is_the_walk_and_every_face(case):
    spec, score, take = case
    closed = highest_of_mixed(spec)
    assert closed is not None
    walk = walked(spec)
    assert closed.names == walk.names
    assert closed.values.tolist() == walk.values.tolist()
    # (the walk adds rounded chances; the closed form divides whole counts once)
    np.testing.assert_allclose(closed.probabilities, walk.probabilities, rtol=0, atol=1e-14)
    if sum(n for _, n in spec.groups) <= 7:
        mine = as_dict(closed)
        brute = every_face(spec, SCORES[score], take)
        assert mine == brute   # both whole counts over every combination, divided once
    # each probability is a whole count of combinations over all of them, divided once
    combinations = np.prod([float(die.sides) ** n for die, n in spec.groups])
    assert np.array_equal(closed.probabilities, np.round(closed.probabilities * combinations) / combinations)


def test_a_check_of_cortex_takes_the_closed_form_and_reads_as_the_walk():
    system = workbench.system("cortex-prime")
    params = {"d4": 1, "d6": 2, "d8": 2, "d10": 2, "d12": 1}
    resolved, pool = system.setting(params)
    narrow = cut_down(pool, reading.wanted(system.mechanic, resolved))
    assert highest_of_mixed(narrow) is not None
    walk = walked(narrow)
    closed = evaluate_roll.__wrapped__(narrow)
    assert closed.values.tolist() == walk.values.tolist()
    np.testing.assert_allclose(closed.probabilities, walk.probabilities, rtol=0, atol=1e-15)
    assert workbench.check("cortex-prime", **params).p_pass == pytest.approx(
        float(walk.probabilities[walk.values[:, 0] > resolved["difficulty"]].sum()), abs=1e-15)


D6 = Die.numbered("d6", 6)
D8 = Die.numbered("d8", 8)


@pytest.mark.parametrize("spec", [
    RollSpec(((D6, 2), (D8, 1)), stats=(Keep("k", take=3),), total="k"),                    # three kept
    RollSpec(((D6, 2), (D8, 1)), stats=(Keep("k", take=2, order="lowest"),), total="k"),    # the lowest
    RollSpec(((D6, 2), (D8, 1)), stats=(Keep("k", take=2, skip=1),), total="k"),            # skipping
    RollSpec(((D6, 2), (D8, 1)), stats=(Keep("k", take=2, dice=("d6",)),), total="k"),      # some types
    RollSpec(((D6, 2), (D8, 1)), stats=(Keep("k", take=2),)),                               # total: the sum
    RollSpec(((D6, 2), (D8, 1)), stats=(Keep("k", take=2), Pick("p")), total="k"),          # two statistics
    RollSpec(((Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]}), 2), (D8, 1)),
             stats=(Keep("k", take=2, score="value + ones"),), total="k"),                  # a score of counts
    RollSpec(((Die.numbered("x", 6, explodes=[False] * 5 + [True]), 2),),
             stats=(Keep("k", take=2),), total="k"),                                         # exploding
    RollSpec(((Die.numbered("d1000", 1000), 6),), stats=(Keep("k", take=2),), total="k"),  # 10^18 combinations
    RollSpec(((Die.numbered("d500", 500), 2), (Die("even", tuple(range(2, 1001, 2))), 1)),
             stats=(Keep("k", take=2),), total="k"),                                        # 750 values
])
def test_what_the_closed_form_does_not_cover_is_walked(spec):
    assert highest_of_mixed(spec) is None


def test_nine_dice_of_three_faces_agree_with_the_walk_to_its_rounding():
    # (a case the random pools found: the walk's added chances differ from the counts
    # divided once in the last bits, 1.1e-15)
    dice = tuple((Die(f"t{t}", (1, 2, 3)), 3) for t in range(3))
    spec = RollSpec(dice, stats=(Keep("kept", take=1, score="0 if value == 1 else value"),), total="kept")
    closed, walk = highest_of_mixed(spec), walked(spec)
    assert closed.values.tolist() == walk.values.tolist()
    np.testing.assert_allclose(closed.probabilities, walk.probabilities, rtol=0, atol=1e-14)
    assert closed.probabilities.tolist() == [1 / 3**9, (2**9 - 1) / 3**9, (3**9 - 2**9) / 3**9]
