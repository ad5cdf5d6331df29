"""What one die of a :class:`~workbench.rules.roll.RollSpec` can come to, with probabilities.

An exploding die is one die with more outcomes: each outcome is its whole chain (the values
and counts of every die the explosions rolled, summed), followed until the probability still
rolling is far below :data:`~workbench.engine.exact.TOLERANCE`; what is cut off is returned
as lost. A :class:`~workbench.rules.roll.Percentile` die's outcomes are the d100 results 1 to
100 with its bonus or penalty tens dice applied.

Outcomes are rows of *attributes*: the value first, then one column per count name.

Example:
    >>> from workbench.rules.roll import Die
    >>> attributes, probabilities, lost = die_outcomes(Die.numbered("d4", 4), ())
    >>> attributes[:, 0].tolist(), probabilities.tolist(), lost
    ([1, 2, 3, 4], [0.25, 0.25, 0.25, 0.25], 0.0)
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..errors import WorkbenchError
from ..rules.roll import Die, Percentile
from ._rows import merge_rows
from .exact import TOLERANCE

MAX_CHAIN_OUTCOMES = 100_000
"""Most distinct outcomes one exploding die may have (values and counts together)."""
MAX_CHAIN_LINKS = 2000
"""Most dice one explosion chain is followed through before the rest is cut off."""


@lru_cache(maxsize=4096)
def die_outcomes(die: "Die | Percentile", count_names: tuple[str, ...],
                 dice_in_pool: int = 1) -> tuple[np.ndarray, np.ndarray, float]:
    """``(attributes int64[F, 1 + len(count_names)], probabilities[F], lost)`` of one die:
    distinct outcomes (value, counts...) sorted by value then counts, their probabilities
    (summing to 1 - lost) and the probability cut off its explosion chain."""
    if isinstance(die, Percentile):
        values, probabilities = _percentile(die.extra)
        attributes = np.zeros((len(values), 1 + len(count_names)), np.int64)
        attributes[:, 0] = values
        return _frozen(attributes, probabilities, 0.0)
    if not count_names:
        table = die.faces_table   # (values all different, in order: made with the die)
        if table is not None:
            return (*table, 0.0)
    if True in die.explodes:
        return _chain(die, count_names, dice_in_pool)
    faces = _face_rows(die, count_names)
    chances = np.full(die.sides, 1.0 / die.sides)
    values = die.values
    if all(a < b for a, b in zip(values, values[1:])):   # values in order, all different: rows already are
        faces.setflags(write=False)
        chances.setflags(write=False)
        return faces, chances, 0.0
    return _merged(faces, chances, 0.0)


def _chain(die: Die, count_names: tuple[str, ...], dice_in_pool: int):
    """An exploding die's chains, summed: dense arrays over every (value, counts) a chain of
    the needed length can reach, one convolution per link."""
    from ._kernels import walk as kernels  # numba loads on the first exploding die, not on import

    links, in_flight, rolling = [], 0.0, 1.0
    kind, remaining, rows_of = die, die.limit or None, {}
    while True:
        capped = remaining is not None and len(links) == remaining
        if id(kind) not in rows_of:
            rows_of[id(kind)] = (_face_rows(kind, count_names), np.asarray(kind.explodes, bool))
        rows, explodes = rows_of[id(kind)]
        if capped:
            explodes = np.zeros(kind.sides, bool)
        links.append((rows, explodes))
        rolling *= float(np.count_nonzero(explodes)) / kind.sides
        if rolling * max(dice_in_pool, 1) <= TOLERANCE * 1e-2:
            in_flight = rolling
            break
        if len(links) > MAX_CHAIN_LINKS:
            raise WorkbenchError(f"die '{die.name}': explodes so often that its chains need more than "
                                 f"{MAX_CHAIN_LINKS} dice to end; allowed: fewer exploding faces, or an "
                                 "explode_limit on the die")
        kind = kind.next
    # Mixed radix over the chain's attributes: each column's range is the sum of every
    # link's, so no partial sum ever leaves its digit.
    lows = sum(np.minimum(rows.min(axis=0), 0) for rows, _ in links)
    highs = sum(np.maximum(rows.max(axis=0), 0) for rows, _ in links)
    radices = highs - lows + 1
    weights = np.concatenate((np.cumprod(radices[::-1])[::-1][1:], [1])).astype(np.int64)
    size = int(np.prod(radices))
    if size > MAX_CHAIN_OUTCOMES * 10:
        raise WorkbenchError(f"die '{die.name}': its explosion chains reach more than "
                             f"{MAX_CHAIN_OUTCOMES * 10:,} combinations of value and counts")
    widest = max(len(rows) for rows, _ in links)
    shifts = np.zeros((len(links), widest), np.int64)
    again = np.zeros((len(links), widest), np.bool_)
    chance = np.zeros((len(links), widest))
    for i, (rows, explodes) in enumerate(links):
        shifts[i, :len(rows)] = rows @ weights
        again[i, :len(rows)] = explodes
        chance[i, :len(rows)] = 1.0 / len(rows)
    finished = kernels.chain(shifts, again, chance, size, int(np.dot(-lows, weights)))
    codes = np.flatnonzero(finished)
    attributes = (codes[:, None] // weights) % radices + lows
    return _merged(attributes, finished[codes], float(in_flight))


def _face_rows(die: Die, count_names: tuple[str, ...]) -> np.ndarray:
    """One row per face: its value, then its counts (0 for a count the die does not score)."""
    if not count_names:
        return np.array(die.values, np.int64).reshape(die.sides, 1)
    counts = dict(die.counts)
    zeros = (0,) * die.sides
    columns = [die.values, *(counts.get(name, zeros) for name in count_names)]
    return np.array(list(zip(*columns)), np.int64).reshape(die.sides, len(columns))


def _merged(attributes: np.ndarray, probabilities: np.ndarray, lost: float):
    """Equal rows merged, sorted ascending (value first, then the counts)."""
    rows, merged = merge_rows(attributes, probabilities)
    keep = merged > 0.0
    return _frozen(rows[keep], merged[keep], lost)


def _frozen(attributes, probabilities, lost):
    attributes = np.ascontiguousarray(attributes, dtype=np.int64)
    probabilities = np.ascontiguousarray(probabilities, dtype=float)
    attributes.setflags(write=False)
    probabilities.setflags(write=False)
    return attributes, probabilities, lost


def _percentile(extra: int) -> tuple[np.ndarray, np.ndarray]:
    """d100 results 1..100 and their probabilities with ``extra`` bonus (> 0, the lowest tens
    result kept) or penalty (< 0, the highest) tens dice, all read with the one units die."""
    tens = np.arange(10)
    dice = 1 + abs(extra)
    probabilities = np.zeros(101)
    for units in range(10):
        results = np.sort(np.where((tens == 0) & (units == 0), 100, 10 * tens + units))
        at_most = np.arange(1, 11) / 10.0              # P(one tens die's result <= results[i])
        if extra > 0:
            kept_at_most = 1.0 - (1.0 - at_most) ** dice
        else:
            kept_at_most = at_most ** dice
        probabilities[results] += np.diff(np.concatenate(([0.0], kept_at_most))) / 10.0
    return np.arange(1, 101), probabilities[1:]
