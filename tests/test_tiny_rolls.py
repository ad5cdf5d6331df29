"""Tiny rolls counted outright (workbench.engine.tiny): the same joint distributions as the
walk and as a brute force in plain Python."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from workbench.engine import evaluate as engine
from workbench.engine.dice import die_outcomes
from workbench.engine.tiny import MOST_COMBINATIONS, counted_outright
from workbench.rules.roll import Beats, Derived, Die, Keep, Pick, RollSpec, Sum

D6 = Die.numbered("a", 6, counts={"ones": [1, 0, 0, 0, 0, 0]})
D10 = Die.numbered("c", 10)
D4 = Die("f", (-1, 0, 0, 1), counts={"plus": [0, 0, 0, 1]})
D8 = Die.numbered("e", 8, counts={"hitches": [1] + [0] * 7})

ROLLS = [
    RollSpec(((Die.numbered("action", 6), 1), (Die.numbered("challenge", 10), 2)),
             stats=(Pick("action_die", dice="action"), Pick("high", dice="challenge"),
                    Pick("low", order="lowest", dice="challenge"),
                    Derived("beaten", "(total > high) + (total > low)"), Derived("match", "high == low")),
             total="min(action_die + stat, 10)", values={"stat": 2}),
    RollSpec(((D6, 2), (D10, 2)), stats=(Beats("won", "a", "c"), Sum("sixes", score="value == 6")),
             total="won"),
    RollSpec(((D6, 3),), stats=(Keep("best", take=2), Pick("mid", order="middle")), total="best"),
    RollSpec(((D6, 1), (D8, 2), (D10, 1)), stats=(Keep("kept", take=2, score="0 if value == 1 else value"),)),
    RollSpec(((D6, 4),), stats=(Keep("low2", take=2, order="lowest", skip=1), Pick("third", position=2))),
    RollSpec(((D4, 4), (D6, 1)), stats=(Sum("fate", dice="f"), Keep("mid", take=1, order="middle", dice="f")),
             total="fate + plus", modifier=1, floor=-2, ceiling=4),
    RollSpec(((D6, 2),), stats=(Pick("none", position=5), Keep("nothing", take=0)), total="ones"),
    # a die type rolled 0 times: what reads it reads no dice
    RollSpec(((D6, 2), (D10, 0)), stats=(Pick("top", dice="c"), Sum("tens", dice="c"), Beats("won", "a", "c"),
                                         Pick("own", dice="a")), total="own + top + tens + won"),
]


def groups_of(spec: RollSpec):
    counts = engine.count_columns(spec)
    groups = [(i, die, n, *die_outcomes(die, counts, spec.dice)[:2]) for i, (die, n) in enumerate(spec.groups) if n]
    if spec.score_expressions:
        groups = engine._with_scores(spec, counts, groups)
    return counts, groups


def brute_force(spec: RollSpec) -> dict:
    """Every face of every die in plain Python, exact fractions: the statistics the rules
    define, then the total and derived ones read as the joint does."""
    joint = engine._evaluate_groups(spec, *groups_of(spec), 0.0)   # for the derived columns' names only
    dice = [die for die, n in spec.groups for _ in range(n)]
    out: dict = {}
    for faces in itertools.product(*(range(die.sides) for die in dice)):
        shown = [(die.name, die.values[f], {c: dict(die.counts)[c][f] for c in dict(die.counts)})
                 for die, f in zip(dice, faces)]
        row = {}
        for c in spec.count_names:
            row[c] = sum(counts.get(c, 0) for _, _, counts in shown)
        for stat in spec.stats:
            if isinstance(stat, Derived):
                continue
            mine = [s for s in shown if not stat.dice or s[0] in stat.dice]
            values = sorted((v for _, v, _ in mine), reverse=True)
            if isinstance(stat, Sum):
                row[stat.name] = sum(score(spec, stat.score, v, c) for _, v, c in mine)
            elif isinstance(stat, Pick):
                n = len(values)
                at = (n - 1) // 2 if stat.order == "middle" else (
                    stat.position if stat.order == "highest" else n - 1 - stat.position)
                row[stat.name] = values[at] if stat.position < n and 0 <= at < n else 0
            elif isinstance(stat, Keep):
                ranked = sorted(mine, key=lambda s: s[1], reverse=True)
                n = len(ranked)
                if stat.order == "middle":
                    low = max((n - stat.take) // 2, 0)
                    part = ranked[low:low + stat.take]
                elif stat.order == "highest":
                    part = ranked[stat.skip:stat.skip + stat.take]
                else:
                    part = ranked[::-1][stat.skip:stat.skip + stat.take]
                row[stat.name] = sum(score(spec, stat.score, v, c) for _, v, c in part)
            elif isinstance(stat, Beats):
                against = [v for name, v, _ in shown if name in stat.against]
                row[stat.name] = sum(v > w for _, v, _ in mine for w in against)
        key = tuple(row.get(name) for name in joint.names if name in row)
        p = Fraction(1)
        for die in dice:
            p /= die.sides
        out[key] = out.get(key, 0) + p
    return out


def score(spec, text, value, counts):
    if text == "value":
        return value
    if text in counts:
        return counts[text]
    from workbench.rules.expressions import evaluate
    return int(evaluate(spec.parsed_score(text), {"value": np.array([value]), **{
        c: np.array([counts.get(c, 0)]) for c in spec.count_names}})[0])


@pytest.mark.parametrize("spec", ROLLS, ids=range(len(ROLLS)))
def test_counted_outright_is_the_walk_and_the_brute_force(spec):
    counts, groups = groups_of(spec)
    tiny = counted_outright(spec, counts, groups)
    assert tiny is not None   # these rolls are counted outright
    walked = engine._evaluate_groups(spec, counts, groups, 0.0)
    assert tiny.names == walked.names
    assert tiny.values.tolist() == walked.values.tolist()
    np.testing.assert_allclose(tiny.probabilities, walked.probabilities, rtol=0, atol=1e-15)
    assert engine.evaluate_roll.__wrapped__(spec).values.tolist() == walked.values.tolist()
    # the statistics from the dice (not the derived ones) against every face in plain Python
    base = [j for j, name in enumerate(tiny.names) if name in {*spec.count_names, *(s.name for s in spec.stats
                                                                                 if not isinstance(s, Derived))}]
    mine: dict = {}
    for row, p in zip(tiny.values[:, base].tolist(), tiny.probabilities.tolist()):
        mine[tuple(row)] = mine.get(tuple(row), 0.0) + p
    exact = brute_force(spec)
    assert set(mine) == set(exact)
    assert max(abs(mine[k] - float(exact[k])) for k in exact) < 1e-15


def test_what_is_not_counted_outright_is_walked():
    exploding = Die.numbered("x", 6, explodes=[False] * 5 + [True])
    many = RollSpec(((D10, 4),), stats=(Keep("k", take=2),), total="k")   # 10^4 combinations
    assert 10 ** 4 > MOST_COMBINATIONS
    for spec in (RollSpec(((exploding, 2),), stats=(Pick("p"),), total="p"), many,
                 RollSpec(((D6, 2), (D10, 1)), stats=(Beats("b", "a", "a"),))):
        assert counted_outright(spec, *groups_of(spec)) is None
    # a kept score that equal values may give differently: which die is kept matters
    tie = Die("t", (1, 1), counts={"mark": [0, 1]})
    spec = RollSpec(((tie, 2),), stats=(Keep("k", take=1, score="mark"),))
    assert counted_outright(spec, *groups_of(spec)) is None


@pytest.mark.parametrize("spec", ROLLS, ids=range(len(ROLLS)))
def test_a_tiny_rolls_odds_are_its_counts_over_every_combination_correctly_rounded(spec):
    """Each probability is (combinations giving the row) / (every combination), divided once:
    no sum of rounded products (two dice of Blades: 27/36 is 0.75, not 0.7500000000000001)."""
    tiny = counted_outright(spec, *groups_of(spec))
    every = 1
    for die, n in spec.groups:
        every *= die.sides ** n
    counts = np.rint(tiny.probabilities * every)
    assert counts.sum() == every
    assert (tiny.probabilities == counts / every).all()


def test_two_dice_of_blades_read_three_quarters_exactly():
    from workbench.odds_tables import difficulty_rows
    assert difficulty_rows("blades", [1, 2]).rows == (("P(pass)", 0.5, 0.75),)
