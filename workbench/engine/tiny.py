"""Tiny rolls counted outright: every combination of faces at once, in numpy.

A roll of a few dice that do not explode (Ironsworn's d6 against 2d10: 600 combinations)
costs the walk of :mod:`workbench.engine.evaluate` more in planning its registers than in
walking them. Here, when the dice have at most :data:`MOST_COMBINATIONS` combinations of
outcomes together, each combination is one cell of an array with one axis per die: a die's
outcome varies along its own axis, so a statistic of some dice is worked out over their
axes only (numpy spreads it over the rest); the statistics read by rank (picked, kept,
compared) are read from the dice sorted by value, the sums added, and the columns go on to
:func:`~workbench.engine.columns.joint_from_columns` as the walk's registers do (the total,
the derived statistics, equal rows merged, where the cells are laid out in full). Only the
statistics whose meaning does not depend on how equal values are ordered are counted here;
any other roll returns ``None`` and is walked.

Example:
    >>> from workbench.rules.roll import Beats, Die, RollSpec
    >>> from workbench.engine.dice import die_outcomes
    >>> spec = RollSpec(((Die.numbered("a", 6), 1), (Die.numbered("c", 10), 2)),
    ...                 stats=(Beats("beaten", "a", "c"),), total="beaten")
    >>> groups = [(i, die, n, *die_outcomes(die, ())[:2]) for i, (die, n) in enumerate(spec.groups)]
    >>> joint = counted_outright(spec, (), groups)
    >>> [round(float(p) * 600) for p in joint.pmf]
    [355, 190, 55]
"""
from __future__ import annotations

import math

import numpy as np

from ..rules.dice import Die
from ..rules.roll import Keep, Pick, RollSpec, Sum
from .columns import joint_from_columns
from .joint import JointDistribution

MOST_COMBINATIONS = 4096
"""Most combinations of the dice's outcomes counted outright (beyond, the walk is faster)."""


def counted_outright(spec: RollSpec, counts: tuple[str, ...], groups: list,
                     shown: "tuple[str, ...] | None" = None) -> JointDistribution | None:
    """The joint distribution of ``spec``'s statistics over ``groups`` (``(index, die, n,
    attributes, probabilities)``, as :func:`~workbench.engine.evaluate.evaluate_roll` makes
    them; columns: value, ``counts``, the scores written as expressions), every combination
    of outcomes counted; ``None`` when the roll is not tiny or reads what is not counted here.
    ``shown``: the statistics the joint carries (see :func:`joint_from_columns`)."""
    sizes: list[int] = []
    for group in groups:
        sizes += [len(group[3])] * group[2]
    rows = math.prod(sizes)
    if not sizes or rows > MOST_COMBINATIONS:
        return None
    if spec.count_names != counts or not _countable(spec, groups):
        return None
    # One row per combination, an array with one axis per die (slot), the first die's the
    # slowest: a slot's column is its outcomes' column along its own axis, and the statistics
    # are worked out on these (numpy spreads them); the merge lays them out in full.
    faces, combinations, whole, single = [], 1, True, True
    for _, die, n, _, chances in groups:
        counted = _faces_showing(die, chances)
        faces.append(counted)
        combinations *= len(die.values) ** n
        whole = whole and counted is not None
        single = single and counted is True   # each outcome one face: one combination each
    whole = whole and combinations <= 2**53
    single = single and whole
    slots: list[_Slot] = []
    of_type: dict[str, list[int]] = {}   # each die type's slots
    probabilities = None   # (each combination's weight 1: counted as it is)
    dice = len(sizes)
    for (_, die, n, attributes, chances), counted in zip(groups, faces):
        by_column = attributes.T
        if not single:   # faces showing each outcome (sums stay exact), else the chances
            weights = (np.ones(len(chances)) if counted is True else counted) if whole else chances
        of_type[die.name] = list(range(len(slots), len(slots) + n))
        for _ in range(n):
            slots.append(_Slot(die, by_column, len(slots), dice))
            if not single:
                probabilities = weights if probabilities is None else np.multiply.outer(probabilities, weights)
    shape = tuple(sizes)
    if not single:
        probabilities = probabilities.reshape(-1)
    names = ("value", *counts, *spec.score_expressions)
    columns: dict[str, np.ndarray] = {}
    everything = list(range(len(slots)))
    for j, name in enumerate(counts):
        columns[name] = _summed(slots, everything, 1 + j)
    if spec.total is None:
        columns["total"] = _summed(slots, everything, 0)
    spans: dict[str, tuple[int, int]] = {}   # a die picked alone: its least and greatest
    for stat in spec.statistics_facts.base:
        chosen = of_type.get(stat.dice[0], []) if len(stat.dice) == 1 else _chosen(slots, stat.dice)
        if isinstance(stat, Sum):
            columns[stat.name] = _summed(slots, chosen, names.index(stat.score))
        elif isinstance(stat, Pick):
            columns[stat.name] = _picked(slots, chosen, stat)
            if len(chosen) == 1 and not stat.position and slots[chosen[0]].die.faces_table is not None:
                values = slots[chosen[0]].die.values   # one die's value: its values, in order
                spans[stat.name] = (values[0], values[-1])
        elif isinstance(stat, Keep):
            columns[stat.name] = _kept(slots, chosen, stat, names.index(stat.score))
        else:   # Beats
            against = of_type.get(stat.against[0], []) if len(stat.against) == 1 else _chosen(slots, stat.against)
            beaten = ZERO
            for i in chosen:
                for k in against:
                    beaten = beaten + (slots[i].value > slots[k].value)
            columns[stat.name] = beaten
    # Whole numbers of combinations, merged exactly, divided once: each probability is the
    # count over every combination, correctly rounded (2 dice of Blades: 27/36 is 0.75).
    return joint_from_columns(spec, columns, probabilities, 0.0, combinations if whole else 1, shown, shape,
                              spans)


ZERO = np.zeros(1, np.int64)
"""A statistic of no dice: 0 on every combination (numpy spreads it; read-only, shared)."""
ZERO.setflags(write=False)


def _faces_showing(die, chances: np.ndarray) -> "np.ndarray | bool | None":
    """How many of a die's faces show each outcome (its chances are whole numbers of faces
    over its sides): ``True`` when each outcome is one face (its values all differ); ``None``
    for dice that are not a :class:`Die` (percentile dice)."""
    if not isinstance(die, Die):
        return None
    if len(chances) == len(die.values):
        return True
    return np.rint(chances * len(die.values))


class _Slot:
    """One die of the roll: its type, its outcomes' attributes (by column), the shape that
    puts its outcomes along its own axis among the dice's, and its value along that axis."""

    __slots__ = ("die", "name", "by_column", "shape", "value")

    def __init__(self, die: Die, by_column: np.ndarray, axis: int, dice: int):
        self.die, self.name, self.by_column = die, die.name, by_column
        self.shape = (1,) * axis + (-1,) + (1,) * (dice - axis - 1)
        self.value = by_column[0].reshape(self.shape)

    def column(self, j: int) -> np.ndarray:
        """The ``j``-th attribute of the outcome this die shows, along its axis."""
        return self.value if j == 0 else self.by_column[j].reshape(self.shape)


def _countable(spec: RollSpec, groups: list) -> bool:
    """Dice that do not explode, statistics counted here (a kept score that only the value
    decides, so that which of two equal dice is kept does not matter)."""
    if spec.rerolls or spec.kept is not None or spec.reroll_faces is not None or spec.again is not None:
        return False
    for group in groups:
        if not isinstance(group[1], Die) or True in group[1].explodes:
            return False
    if not spec.statistics_facts.countable:
        return False
    return all(isinstance(stat, Sum) or _value_decides(spec, groups, stat)
               for stat in spec.statistics_facts.scored)


def _value_decides(spec: RollSpec, groups: list, stat: Keep) -> bool:
    """Whether, among the dice ``stat`` reads, every outcome's value gives one score."""
    column = ("value", *spec.count_names, *spec.score_expressions).index(stat.score)
    seen: dict[int, int] = {}
    for _, die, _, attributes, _ in groups:
        if stat.dice and die.name not in stat.dice:
            continue
        for value, score in zip(attributes[:, 0].tolist(), attributes[:, column].tolist()):
            if seen.setdefault(value, score) != score:
                return False
    return True


def _chosen(slots: list, dice: tuple[str, ...]) -> list[int]:
    if not dice:
        return list(range(len(slots)))
    return [i for i, slot in enumerate(slots) if slot.name in dice]


def _summed(slots: list, chosen: list[int], column: int) -> np.ndarray:
    if not chosen:
        return ZERO
    total = slots[chosen[0]].column(column)
    for i in chosen[1:]:
        total = total + slots[i].column(column)
    return total


def _picked(slots: list, chosen: list[int], stat: Pick) -> np.ndarray:
    n = len(chosen)
    if n == 1 and not stat.position:   # one die: its value, whatever the order
        return slots[chosen[0]].value
    if stat.order == "middle":
        position = (n - 1) // 2
    else:
        position = stat.position if stat.order == "highest" else n - 1 - stat.position
    if not 0 <= position < n or stat.position >= n:
        return ZERO
    values = [slots[i].value for i in chosen]
    if n == 1:
        return values[0]
    if position in (0, n - 1):   # the highest or the lowest: no sort needed
        reduce = np.maximum if position == 0 else np.minimum
        found = reduce(values[0], values[1])
        for value in values[2:]:
            found = reduce(found, value)
        return found
    return -np.sort(-_stacked(values), axis=0)[position]


def _kept(slots: list, chosen: list[int], stat: Keep, column: int) -> np.ndarray:
    n = len(chosen)
    if stat.order == "middle":
        low = max((n - stat.take) // 2, 0)
        low, high = low, min(low + stat.take, n)
    else:
        low, high = min(stat.skip, n), min(stat.skip + stat.take, n)
        if stat.order != "highest":
            low, high = n - high, n - low
    if high <= low:
        return ZERO
    values = _stacked([slots[i].value for i in chosen])
    scores = _stacked([slots[i].column(column) for i in chosen]) if column else values
    order = np.argsort(-values, axis=0, kind="stable")
    ranked = np.take_along_axis(scores, order, axis=0)
    return ranked[low:high].sum(axis=0)


def _stacked(columns: list) -> np.ndarray:
    """Dice's columns (each along its own axis) stacked on a first axis, spread in full."""
    out = np.empty((len(columns), *np.broadcast_shapes(*(column.shape for column in columns))), np.int64)
    for i, column in enumerate(columns):
        out[i] = column
    return out
