"""A closed form for one die picked by rank among identical dice (an order statistic).

Blades in the Dark's highest of 3d6, advantage's higher of 2d20, the middle of 3d20: a
:class:`~workbench.rules.roll.RollSpec` of ``n`` dice of one type that do not explode, whose
only statistic besides :class:`~workbench.rules.roll.Derived` ones is one die by rank
(:class:`~workbench.rules.roll.Pick`, or a :class:`~workbench.rules.roll.Keep` of one die's
value), read by an expression as the total, with no counts. Then the die at position ``p``
from the top shows ``x`` exactly when at most ``p`` dice show more than ``x`` and at least
``p + 1`` show ``x`` or more, so with ``a``, ``b``, ``c`` the chances that one die shows more
than, exactly, or less than ``x``:

    P(X_p = x) = sum over u <= p, e >= p + 1 - u of  n! / (u! e! (n-u-e)!) a^u b^e c^(n-u-e)

Every term is positive, so small probabilities keep their precision (no difference of two
cumulative probabilities); ``p`` is counted from the nearer end. For the highest (or lowest)
die the sum is ``(b + c)^n - c^n``, written as ``b`` times ``n`` positive terms. Pools larger
than :data:`WORK_UP_TO` allows are left to the walk of :mod:`workbench.engine.evaluate`,
which gives the same distribution.

Example:
    >>> from workbench.rules.roll import Die, Pick, RollSpec
    >>> spec = RollSpec(((Die.numbered("d6", 6), 2),), stats=(Pick("high"),), total="high")
    >>> [round(float(p) * 36, 9) for p in order_statistic_roll(spec).probabilities]
    [1.0, 3.0, 5.0, 7.0, 9.0, 11.0]
"""
from __future__ import annotations

from math import comb

import numpy as np

from ..rules.roll import Die, Keep, Percentile, Pick, RollSpec
from .columns import joint_from_columns
from .dice import die_outcomes
from .joint import JointDistribution

WORK_UP_TO = 4000
"""Most steps the closed form takes in plain Python (above that the walk is quicker, as
measured): the highest or lowest die takes ``n`` steps per value; another position ``p``
(from the nearer end) sums ``(p + 1) * (n - p)`` terms per value, each about six steps."""


def order_statistic_roll(spec: RollSpec, shown: "tuple[str, ...] | None" = None) -> JointDistribution | None:
    """The joint distribution of ``spec`` by the closed form, or ``None`` when it does not
    apply (see the module's description). ``shown``: as for
    :func:`~workbench.engine.columns.joint_from_columns`."""
    found = _one_die_by_rank(spec)
    if found is None:
        return None
    die, n, name, from_top = found
    values, chances = _value_chances(die)
    if from_top > n - 1 - from_top:              # count from the nearer end: fewer terms
        values, chances, position = values[::-1], chances[::-1], n - 1 - from_top
    else:
        position = from_top
    per_value = n if position == 0 else 6 * (position + 1) * (n - position)
    if len(values) * per_value > WORK_UP_TO:
        return None
    probabilities = order_statistic(chances, n, position)
    if 0.0 in probabilities:   # underflow, as in the walk: such values are left out before reading
        values, probabilities = zip(*[(v, p) for v, p in zip(values, probabilities) if p > 0.0])
    if _total_is_the_die(spec, name):
        return _read_directly(spec, values, probabilities)
    return joint_from_columns(spec, {name: np.array(values, np.int64)}, np.array(probabilities), lost=0.0,
                              shown=shown)


def _total_is_the_die(spec: RollSpec, name: str) -> bool:
    """Whether the total reads the picked die alone (then modifier, floor and ceiling), and
    nothing is derived from them: the joint's rows are (total, die) for each value."""
    return spec.total.tree == ("name", name) and len(spec.stats) == 1


def _read_directly(spec: RollSpec, values, probabilities) -> JointDistribution:
    """The rows (total, die) sorted, as :func:`~workbench.engine.columns.joint_from_columns`
    would give them, without its general machinery (values differ, so rows do)."""
    totals = [value + spec.modifier for value in values]
    if spec.floor is not None:
        totals = [max(total, spec.floor) for total in totals]
    if spec.ceiling is not None:
        totals = [min(total, spec.ceiling) for total in totals]
    rows = sorted(zip(totals, values, probabilities))
    return JointDistribution(spec.statistic_names, np.array([row[:2] for row in rows], np.int64),
                             np.array([row[2] for row in rows]))


def order_statistic(chances: list[float], n: int, position: int) -> list[float]:
    """P(the die at ``position`` from the top among ``n`` shows outcome ``i``) for outcomes
    ``i`` ranked from the lowest (``chances[i]``: one die's chance of outcome ``i``).

    Example:
        >>> [round(p * 8, 12) for p in order_statistic([0.5, 0.5], 3, 1)]
        [4.0, 4.0]
    """
    result = []
    below = 0.0
    if position == 0:
        # The highest shows x: (b + c)^n - c^n = b * sum of (b + c)^k c^(n-1-k), k < n.
        for i, b in enumerate(chances):
            at_most, total, c_power = below + b, 1.0, 1.0
            for _ in range(n - 1):
                c_power *= below
                total = total * at_most + c_power
            result.append(b * total)
            below += b
        return result
    above = [0.0] * (len(chances) + 1)          # added from the top: no cancellation
    for i in range(len(chances) - 1, -1, -1):
        above[i] = above[i + 1] + chances[i]
    terms = [(comb(n, u) * comb(n - u, e), u, e, n - u - e) for u in range(position + 1)
             for e in range(position + 1 - u, n - u + 1)]
    for i, b in enumerate(chances):
        a, c = above[i + 1], below
        result.append(sum([ways * a ** u * b ** e * c ** r for ways, u, e, r in terms]))
        below += b
    return result


def _one_die_by_rank(spec: RollSpec):
    """``(die, n, statistic name, position from the top)`` when the closed form applies."""
    ranked = spec.statistics_facts.base   # (the statistics read off the dice)
    if spec.total is None or spec.count_names or len(ranked) != 1:
        return None
    rolled = [(die, n) for die, n in spec.groups if n > 0]
    if len(rolled) != 1:
        return None
    die, n = rolled[0]
    if not isinstance(die, Percentile) and (not isinstance(die, Die) or any(die.explodes)):
        return None
    stat = ranked[0]
    if stat.dice and die.name not in stat.dice:
        return None
    if isinstance(stat, Pick):
        position = (n - 1) // 2 if stat.order == "middle" else stat.position
    elif isinstance(stat, Keep) and stat.take == 1 and stat.score == "value":
        position = max((n - 1) // 2, 0) if stat.order == "middle" else stat.skip
    else:
        return None
    if position >= n:
        return None
    from_top = position if stat.order != "lowest" else n - 1 - position
    return die, n, stat.name, from_top


def _value_chances(die) -> tuple[list[int], list[float]]:
    """One die's distinct values, ascending, and their chances."""
    if isinstance(die, Percentile):
        attributes, probabilities, _ = die_outcomes(die, ())
        return attributes[:, 0].tolist(), probabilities.tolist()
    chance = 1.0 / die.sides
    values = sorted(set(die.values))
    if len(values) == die.sides:
        return values, [chance] * die.sides
    tally = dict.fromkeys(values, 0)
    for value in die.values:
        tally[value] += 1
    return values, [tally[value] * chance for value in values]
