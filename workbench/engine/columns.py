"""The last step of every exact roll: statistics' columns read as a :class:`JointDistribution`.

The engine's routes (the walk of :mod:`workbench.engine.evaluate`, the closed form of
:mod:`workbench.engine.order`) end with one column per statistic they computed and one
probability per row. Here the derived statistics that do not read the total are evaluated,
then the total (the sum of the dice, or ``spec.total`` evaluated over the statistics and
parameters) with its modifier, floor and ceiling, then the other derived statistics; equal
rows are merged.

Example:
    >>> import numpy as np
    >>> from workbench.rules.roll import Die, Pick, RollSpec
    >>> spec = RollSpec(((Die.numbered("d4", 4), 2),), stats=(Pick("high"),), total="high", modifier=1)
    >>> joint = joint_from_columns(spec, {"high": np.array([1, 2, 3, 4])},
    ...                            np.array([1, 3, 5, 7]) / 16, lost=0.0)
    >>> joint.values.tolist()
    [[2, 1], [3, 2], [4, 3], [5, 4]]
"""
from __future__ import annotations

import math

import numpy as np

from ..rules.expressions import Expression, evaluate_bounded
from ..rules.roll import RollSpec
from ._rows import SMALL, merge_columns, merge_rows
from .joint import JointDistribution


def finished_totals(spec: RollSpec, total: np.ndarray) -> np.ndarray:
    """A column of totals as the roll finishes them: its modifier added, then held to its
    floor and ceiling.

    Example:
        >>> finished_totals(RollSpec((), modifier=1, ceiling=3), np.array([0, 2, 5])).tolist()
        [1, 3, 3]
    """
    if spec.modifier:
        total = total + spec.modifier
    if spec.floor is not None:
        total = np.maximum(total, spec.floor)
    if spec.ceiling is not None:
        total = np.minimum(total, spec.ceiling)
    return total


def joint_from_columns(spec: RollSpec, columns: dict, probabilities: np.ndarray, lost: float,
                       per: int = 1, shown: "tuple[str, ...] | None" = None,
                       shape: "tuple[int, ...] | None" = None,
                       spans: "dict[str, tuple[int, int]] | None" = None) -> JointDistribution:
    """The joint distribution of ``spec``'s statistics from ``columns`` (statistic name ->
    int64 array, one value per row; ``"total"`` when ``spec.total`` is ``None``) and each
    row's probability (conditional on the explosion chains that were followed; ``lost`` is
    the probability cut off them). With ``per``, each row's weight is a whole number of
    combinations out of ``per``: merged exactly, then divided once (``probabilities`` ``None``:
    each row one combination, with ``shape`` given). ``shown``: the statistics
    the joint carries (the others are computed as far as these read them, then left out:
    fewer columns merge into fewer rows); every one of ``spec``'s when ``None``. ``shape``:
    the rows are the cells of an array of this shape, and each column any array that numpy
    spreads to it (a statistic of one die varies along that die's axis only). ``spans``: a
    least and a greatest value some of ``columns`` do not pass, known to the caller (the
    dict is added to: the bounds worked out here)."""
    rows = len(probabilities) if probabilities is not None else math.prod(shape)
    named = dict(spec.values)
    named.update(columns)
    early = spec.derived_before_total
    derived = _derived_read(spec, shown)
    bounds: dict = spans if spans is not None else {}   # (least, greatest) of columns: given or worked out
    for stat in derived:   # the derived statistics the total may read come first
        if stat.name in early:
            named[stat.name] = _column(stat.expression, named, rows, shape, bounds, stat.name)
    total = _column(spec.total, named, rows, shape, bounds, "total") if spec.total is not None else named["total"]
    named["total"] = finished_totals(spec, total)
    if "total" in bounds:
        bounds["total"] = _finished_bounds(spec, *bounds["total"])
    for stat in derived:
        if stat.name not in early:
            named[stat.name] = _column(stat.expression, named, rows, shape, bounds, stat.name)
    names = spec.statistic_names if shown is None else shown
    if rows <= SMALL:   # a few rows: merged in plain Python (numpy's fixed costs would dominate)
        values, merged = _merged_small([_whole(named[name], rows, shape).tolist() for name in names],
                                       [1.0] * rows if probabilities is None else probabilities.tolist(), lost)
    else:
        found = merge_columns([_whole(named[name], rows, shape, spread=False) for name in names],
                              probabilities, shape, [bounds.get(name) for name in names])
        counted = found is not None   # (rows of probability 0 left out already)
        if not counted:
            if probabilities is None:
                probabilities = np.ones(rows)
            matrix = np.empty((rows, len(names)), np.int64)
            for j, name in enumerate(names):
                matrix[:, j] = _whole(named[name], rows, shape)
            found = merge_rows(matrix, probabilities)
        values, merged = found
        if lost:
            merged *= 1.0 - lost
        if lost or not counted:
            keep = merged > 0.0
            if not keep.all():
                values, merged = values[keep], merged[keep]
    if per != 1 or merged.dtype != float:   # (combinations counted as whole numbers: divided once)
        merged = merged / per
    if values.dtype == np.int64 and values.ndim == 2 and values.shape[1] == len(names) \
            and merged.dtype == float and merged.shape == (len(values),):
        return JointDistribution.of_parts(names if type(names) is tuple else tuple(names), values, merged,
                                          float(lost))
    return JointDistribution(names, values, merged, lost_mass=float(lost))


def _derived_read(spec: RollSpec, shown: "tuple[str, ...] | None") -> list:
    """The derived statistics to work out: every one, or those ``shown`` reads (directly, or
    through the total or other derived statistics)."""
    derived = spec.statistics_facts.derived
    if shown is None or not derived:
        return derived
    needed = set(shown)
    if spec.total is not None:
        needed.update(spec.total.names)
    reads = spec.statistics_facts.reads   # (through the derived statistics each reads)
    for name in [name for name in needed if name in reads]:
        needed |= reads[name]
    return [stat for stat in derived if stat.name in needed]


def _merged_small(columns: list[list[int]], probabilities: list[float], lost: float):
    """Distinct rows sorted, probabilities of equal rows added (as :func:`merge_rows` does),
    scaled by ``1 - lost``; rows of probability 0 left out."""
    merged: dict = {}
    for row, p in zip(zip(*columns), probabilities):
        merged[row] = merged.get(row, 0.0) + p
    scale = 1.0 - lost
    keys = [row for row in sorted(merged) if merged[row] * scale > 0.0]
    values = np.array(keys, dtype=np.int64).reshape(len(keys), len(columns))
    return values, np.array([merged[row] * scale for row in keys], dtype=float)


def _whole(column: np.ndarray, rows: int, shape: "tuple[int, ...] | None" = None,
           spread: bool = True) -> np.ndarray:
    """A column as int64, one value per row (``shape``: spread to it first, then laid out in
    a row, unless ``spread`` is false)."""
    column = np.asarray(column)
    if column.dtype != np.int64:
        column = column.astype(np.int64)
    if shape is not None:
        if not spread:
            return column
        if column.shape != shape:
            full = np.empty(shape, np.int64)
            full[...] = column
            column = full
        return column.reshape(-1)
    return column if column.shape == (rows,) else np.broadcast_to(column, (rows,))


def _finished_bounds(spec: RollSpec, low: int, high: int) -> tuple[int, int]:
    """The least and greatest of a column of totals finished as :func:`finished_totals` does."""
    low, high = low + spec.modifier, high + spec.modifier
    if spec.floor is not None:
        low, high = max(low, spec.floor), max(high, spec.floor)
    if spec.ceiling is not None:
        low, high = min(low, spec.ceiling), min(high, spec.ceiling)
    return low, high


def _column(expression: Expression, named: dict, rows: int, shape: "tuple[int, ...] | None" = None,
            bounds: "dict | None" = None, name: str = "") -> np.ndarray:
    """An expression's value on every row (a statistic named alone is its column as it is;
    with ``shape``, as numpy spreads it); its least and greatest go to ``bounds[name]`` when
    the expressions' quick route gives them (and those known there are read from it)."""
    tree = expression.tree
    if tree[0] == "name" and isinstance(named.get(tree[1]), np.ndarray):
        return named[tree[1]]
    value, low, high = evaluate_bounded(expression, named, bounds)
    if bounds is not None and low is not None:
        bounds[name] = (low, high)
    if shape is not None or value.shape == (rows,):
        return value.astype(np.int64, copy=False)
    return np.broadcast_to(value, (rows,)).astype(np.int64)
