"""The highest one or two dice of a mixed pool, counted exactly in closed form.

Cortex Prime's two highest of d4 2d6 2d8 2d10 d12 (a 1 scoring nothing) is a
:class:`~workbench.rules.roll.RollSpec` whose only statistic besides derived ones is a
:class:`~workbench.rules.roll.Keep` of the one or two highest dice of every type, scored by
an expression of the die's value alone (so which of two equal dice is kept does not
matter), read by a total expression, with no counts and no exploding dice. Its distribution needs no walk: with ``C_t(x)``
the faces of a die of type ``t`` showing ``x`` or less and ``n_t`` such dice,

    dice all at most x:                  A(x) = prod over t of C_t(x)^n_t
    highest at most a, second at most b:  H(a, b) = A(b) + sum over t of
                                           n_t (C_t(a) - C_t(b)) C_t(b)^(n_t - 1) prod over u != t of C_u(b)^n_u

for ``b <= a`` (one die above ``b``, the others at most ``b``), and ``H(a, b) = H(a, a)``
above. The combinations showing exactly (a, b) are the differences of ``H`` between
neighbouring values; every number is a whole count of the combinations of faces, so
nothing is rounded until each count is divided once by all the combinations (the route
applies while they stay below 2**53). Any other roll returns ``None`` and is walked
(:mod:`workbench.engine.evaluate`), which gives the same distribution.

Example:
    >>> from workbench.rules.roll import Die, Keep, RollSpec
    >>> spec = RollSpec(((Die.numbered("d4", 4), 1), (Die.numbered("d6", 6), 2)),
    ...                 stats=(Keep("kept", take=2),), total="kept")
    >>> joint = highest_of_mixed(spec)
    >>> round(float(joint.pmf[-1]) * 144)   # 12: both d6 show 6
    4
"""
from __future__ import annotations

import math

import numpy as np

from ..rules.dice import Die
from ..rules.expressions import evaluate
from ..rules.roll import Keep, RollSpec
from .columns import joint_from_columns
from .joint import JointDistribution

MOST_COMBINATIONS = 2**53
"""Most combinations of faces counted here (whole counts stay exact in a float)."""
MOST_VALUES = 400
"""Most different values the dice may show together (the form works over every pair of
them; beyond, the walk is quicker, as measured: 1,500 values took 0.34 s against 0.24 s)."""


def highest_of_mixed(spec: RollSpec, shown: "tuple[str, ...] | None" = None) -> JointDistribution | None:
    """The joint distribution of ``spec`` by the closed form, or ``None`` when it does not
    apply (see the module's description). ``shown``: as for
    :func:`~workbench.engine.columns.joint_from_columns`."""
    found = _kept(spec)
    if found is None:
        return None
    keep, dice, combinations = found
    values = sorted(set().union(*(die.values for die, _ in dice)))
    if len(values) > MOST_VALUES:
        return None
    scores = _scores(spec, keep, values)
    if scores is None:
        return None
    n = sum(count for _, count in dice)
    types, size = len(dice), len(values)
    place = {value: j for j, value in enumerate(values)}
    faces = [t * size + place[value] for t, (die, _) in enumerate(dice) for value in die.values]
    at_most = np.bincount(faces, minlength=types * size).reshape(types, size).cumsum(axis=1)   # C_t(x)
    counts = np.array([count for _, count in dice], np.int64)[:, None]
    powers = at_most ** counts
    everything = powers.prod(axis=0)   # A(x)
    if keep.take == 1 or n == 1:
        shows = everything.copy()
        shows[1:] -= everything[:-1]   # the highest die shows x
        present = np.flatnonzero(shows)
        kept, weights = scores[present], shows[present]
    else:
        # A(b) of the other dice but one of type t: products of the types before and after t
        others = counts * at_most ** (counts - 1)
        others[1:] *= np.cumprod(powers[:-1], axis=0)
        others[:-1] *= np.cumprod(powers[:0:-1], axis=0)[::-1]
        below = everything - (at_most * others).sum(axis=0)   # A(b) - sum_t n_t C_t(b) ...(b)
        index = np.arange(size)
        grid = np.zeros((size + 1, size + 1), np.int64)   # H(a, b) at row a + 1, column b + 1
        grid[1:, 1:] = (at_most.T @ others + below)[index[:, None], np.minimum.outer(index, index)]   # b above a: H(a, a)
        shows = grid[1:, 1:] - grid[:-1, 1:] - grid[1:, :-1] + grid[:-1, :-1]
        high, low = np.nonzero(shows)
        kept, weights = scores[high] + scores[low], shows[high, low]
    return joint_from_columns(spec, {keep.name: kept}, weights.astype(float), 0.0, combinations, shown)


def _kept(spec: RollSpec) -> "tuple[Keep, list, int] | None":
    """The roll's one :class:`Keep` of the highest dice, its dice (type, count) and their
    combinations of faces, when the closed form applies; else ``None``."""
    if spec.total is None or spec.count_names or spec.rerolls or spec.kept is not None or spec.reroll_faces is not None \
            or spec.again is not None:
        return None
    ranked = spec.statistics_facts.base   # (the statistics read off the dice)
    if len(ranked) != 1 or not isinstance(ranked[0], Keep):
        return None
    keep = ranked[0]
    if keep.order != "highest" or keep.skip or keep.take not in (1, 2):
        return None
    dice = [(die, n) for die, n in spec.groups if n > 0]
    if not dice or not all(isinstance(die, Die) and True not in die.explodes for die, _ in dice):
        return None
    if keep.dice and not all(die.name in keep.dice for die, _ in dice):
        return None
    combinations = math.prod(die.sides ** n for die, n in dice)
    if combinations >= MOST_COMBINATIONS:
        return None
    return keep, dice, combinations


def _scores(spec: RollSpec, keep: Keep, values: list) -> "np.ndarray | None":
    """Each value's score, when the score reads the value alone (else ``None``)."""
    values = np.array(values, np.int64)
    if keep.score == "value":
        return values
    expression = spec.parsed_score(keep.score)
    if set(expression.names) - {"value"}:
        return None
    scored = evaluate(expression, {"value": values})
    if scored.shape != values.shape or scored.dtype != np.int64:   # a number, or true/false
        scored = np.broadcast_to(scored, values.shape).astype(np.int64)
    return scored
