"""Exact distributions of rolls scored by a designer's Python function, or given outright.

A :class:`~workbench.rules.scored.ScoredRoll`'s function is called once for every distinct
roll: every multiset of values of each die type (the order dice land in does not matter),
weighted by its multinomial probability. That is exact, and far fewer calls than every
ordered roll (6 d6s: 462 multisets instead of 46,656), but it grows quickly with the pool:
beyond :data:`MAX_CALLS` rolls the engine refuses with a clear error (a data file's
statistics evaluate outcome by outcome and go much further). A long enumeration shows a
progress bar.

Example:
    >>> from workbench.rules.roll import Die
    >>> from workbench.rules.scored import ScoredRoll
    >>> joint = evaluate_scored(ScoredRoll(((Die.numbered("d6", 6), 2),), lambda faces: faces[0]))
    >>> [round(float(p) * 36) for p in joint.pmf]
    [1, 3, 5, 7, 9, 11]
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ..errors import WorkbenchError, shown
from ..limits import MAX_TOTAL
from ..rules.scored import BOUNDED, Outcomes, ScoredRoll, statistic_name_problem
from ._rows import merge_rows
from .dice import die_outcomes
from .joint import JointDistribution

MAX_CALLS = 2_000_000
"""Most distinct rolls a scoring function is called for in one check."""

PROGRESS_CALLS = 200_000
"""A progress bar is shown from this many calls on."""


def _multisets(values: np.ndarray, probabilities: np.ndarray, n: int):
    """Every multiset of ``n`` values (highest first) with its probability."""
    order = np.argsort(-values, kind="stable")
    values, probabilities = values[order], probabilities[order]
    log_p = np.log(np.where(probabilities > 0, probabilities, 1.0))
    base = math.lgamma(n + 1)
    for picked in itertools.combinations_with_replacement(range(len(values)), n):
        counts: dict[int, int] = {}
        for i in picked:
            counts[i] = counts.get(i, 0) + 1
        log_weight = base + sum(k * log_p[i] - math.lgamma(k + 1) for i, k in counts.items())
        yield tuple(int(values[i]) for i in picked), math.exp(log_weight)


def _roll_count(sizes: list[tuple[int, int]]) -> int:
    return math.prod(math.comb(n + f - 1, n) for f, n in sizes)


def evaluate_scored(spec: ScoredRoll) -> JointDistribution:
    """The exact joint distribution of what ``spec.score`` returns over every roll.

    Not memoised: a scoring function is a designer's code and may read anything (a global
    changed between two checks changes the odds), so each call scores the rolls afresh
    (a curve or ladder still scores each distinct pool once, :func:`workbench.analysis`).
    A die type rolled 0 times is still shown to the function, as no dice (``()``)."""
    groups = list(spec.groups)
    outcomes, lost = [], 0.0
    for die, n in groups:
        attributes, probabilities, cut = die_outcomes(die, (), spec.dice)
        outcomes.append((attributes[:, 0], probabilities / probabilities.sum()))
        lost = 1.0 - (1.0 - lost) * (1.0 - cut) ** n
    calls = _roll_count([(len(v), n) for (v, _), (_, n) in zip(outcomes, groups)])
    if calls > MAX_CALLS:
        raise WorkbenchError(f"this scored roll has {calls:,} distinct rolls, more than the {MAX_CALLS:,} a "
                             "scoring function is called for; use fewer dice, or say the rule as "
                             "statistics (a RollSpec or a data file), which need no enumeration")
    bar = None
    if calls >= PROGRESS_CALLS:
        from tqdm.auto import tqdm  # lazy: tqdm
        bar = tqdm(total=calls, unit="rolls", unit_scale=True, desc="scoring")
    rows, weights, names = [], [], None
    try:
        per_group = [list(_multisets(values, probs, n)) for (values, probs), (_, n) in zip(outcomes, groups)]
        for combination in itertools.product(*per_group):
            weight = math.prod(w for _, w in combination)
            roll = shown_roll(spec, groups, [faces for faces, _ in combination])
            row, names = read_score(spec.score(roll), names, roll)
            rows.append(row)
            weights.append(weight)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    names = names or ("total",)
    values, merged = merge_rows(np.array(rows, dtype=np.int64).reshape(len(rows), len(names)),
                                np.array(weights) * (1.0 - lost))
    return JointDistribution(names, values, merged, lost_mass=lost)


def shown_roll(spec: ScoredRoll, groups, faces_by_group):
    """One roll as the scoring function reads it."""
    if spec.reads == "counts":
        read = [dict(sorted(((v, faces.count(v)) for v in set(faces)), reverse=True)) for faces in faces_by_group]
    else:
        read = list(faces_by_group)
    if len(groups) == 1:
        return read[0]
    return {die.name: part for (die, _), part in zip(groups, read)}


def read_score(result, names, roll=None):
    """A scoring function's answer (for ``roll``) as a row of whole numbers, in the order of
    ``names``: each a Python or numpy integer (or true/false) within 1e9 either way.

    Example:
        >>> read_score(10**20, None, (6, 6))
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: the scoring function's 'total' is 100000000000000000000 for the roll (6, 6); allowed: a whole number from -1,000,000,000 to 1,000,000,000 (as totals of data files)
    """
    if isinstance(result, dict):
        if "total" not in result:
            raise WorkbenchError(f"the scoring function returned {sorted(result)!r}: a mapping needs "
                                 "\"total\" among its statistics")
        keys = ("total", *(k for k in result if k != "total"))
        if names is None:   # once: every later roll must return the same names
            for key in keys:
                if statistic_name_problem(key) is not None:
                    raise WorkbenchError(f"the scoring function returned the statistic "
                                         f"{statistic_name_problem(key)}")
        if names is not None and set(keys) != set(names):
            raise WorkbenchError(f"the scoring function returned {sorted(keys)!r} for one roll and "
                                 f"{sorted(names)!r} for another; allowed: the same statistics every time")
        names = names or keys
        values = [result[k] for k in names]
    else:
        names = names or ("total",)
        if len(names) != 1:
            raise WorkbenchError("the scoring function returned a number for one roll and a mapping "
                                 "for another")
        values = [result]
    row = []
    for name, value in zip(names, values):
        if isinstance(value, (bool, np.bool_)):
            value = int(value)
        if not isinstance(value, (int, np.integer)):
            raise WorkbenchError(f"the scoring function's {name!r} is {shown(value)}{_for(roll)}; "
                                 "allowed: a whole number (or true/false)")
        if abs(int(value)) > MAX_TOTAL:   # 5e18 wrapped around in an opposed check's difference
            raise WorkbenchError(f"the scoring function's {name!r} is {shown(value)}{_for(roll)}; "
                                 f"allowed: {BOUNDED}")
        row.append(int(value))
    return row, tuple(names)


def _for(roll) -> str:
    return "" if roll is None else f" for the roll {shown(roll)}"


def outcomes_distribution(spec: Outcomes) -> JointDistribution:
    """An :class:`~workbench.rules.scored.Outcomes` as the engine's joint distribution."""
    values = np.array([row for row, _ in spec.table], dtype=np.int64).reshape(-1, len(spec.names))
    probabilities = np.array([p for _, p in spec.table])
    rows, merged = merge_rows(values, probabilities)
    keep = merged > 0
    return JointDistribution(spec.names, rows[keep], merged[keep])
