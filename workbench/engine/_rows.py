"""Rows of whole numbers as one whole number each (mixed radix), to sort and merge them fast.

``numpy.unique(..., axis=0)`` sorts rows through a structured view and is slow on the small
tables of a roll; a row of bounded columns is one integer instead, so a one-dimensional
``unique`` or ``bincount`` does the work. Codes sort as the rows do (first column most
significant).

Example:
    >>> rows = np.array([[1, 0], [0, 2], [1, 0]])
    >>> merge_rows(rows, np.array([0.25, 0.5, 0.25]))
    (array([[0, 2],
           [1, 0]]), array([0.5, 0.5]))
"""
from __future__ import annotations

import sys

import math

import numpy as np

_LIMIT = 2 ** 62


def row_codes(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(codes, lows, radices)`` with ``code = sum((row - lows) * weights)``, the first
    column most significant; ``None`` when the columns' ranges together pass 2**62."""
    rows = np.asarray(rows, dtype=np.int64)
    if rows.shape[0] == 0:
        lows = np.zeros(rows.shape[1], np.int64)
        return np.zeros(0, np.int64), lows, np.ones(rows.shape[1], np.int64)
    lows = rows.min(axis=0)
    radices = rows.max(axis=0) - lows + 1
    weights = np.ones(rows.shape[1], np.int64)
    total = 1
    for j in range(rows.shape[1] - 1, -1, -1):
        weights[j] = total
        total *= int(radices[j])
        if total >= _LIMIT:
            return None
    return (rows - lows) @ weights, lows, radices


SMALL = 64
"""Rows up to which :func:`merge_rows` and :func:`unique_rows` work in plain Python (numpy's
fixed costs per call outweigh the work on the few rows of a small roll)."""


def _small(rows: np.ndarray) -> list | None:
    """The rows as tuples when there are few of them and they code (see :func:`row_codes`):
    then sorting the tuples sorts them as their codes do."""
    if len(rows) > SMALL or not rows.shape[1]:
        return None
    listed = list(map(tuple, rows.tolist()))
    total = 1
    for column in zip(*listed):
        total *= max(column) - min(column) + 1
        if total >= _LIMIT:
            return None
    return listed


def merge_rows(rows: np.ndarray, probabilities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows, sorted, with the probabilities of equal rows added together."""
    rows = np.asarray(rows, dtype=np.int64).reshape(len(probabilities), -1)
    listed = _small(rows)
    if listed is not None:
        # The same sums in the same order as bincount's below (row by row from 0.0).
        merged: dict = {}
        for row, p in zip(listed, probabilities.tolist()):
            merged[row] = merged.get(row, 0.0) + p
        keys = sorted(merged)
        return (np.array(keys, dtype=np.int64).reshape(len(keys), rows.shape[1]),
                np.array([merged[key] for key in keys], dtype=float))
    if rows.shape[1] and "numba" in sys.modules:   # compiled already: one call sorts and merges
        from ._kernels import rows as kernels  # lazy: numba (never loaded for this alone)

        merged_rows, merged, coded = kernels.merge_rows(rows, np.asarray(probabilities, dtype=float))
        if coded:
            return merged_rows, merged
    starts = np.empty(len(rows), dtype=bool)   # where a run of equal rows starts, in order
    starts[:1] = True
    if rows.shape[1] and rows.size <= LEXSORT_CELLS:
        order = np.lexsort(rows.T[::-1])
        ranked = rows[order]
        np.any(ranked[1:] != ranked[:-1], axis=1, out=starts[1:])
    else:
        coded = row_codes(rows)
        if coded is None:
            unique, inverse = np.unique(rows, axis=0, return_inverse=True)
            return unique, np.bincount(inverse.reshape(-1), weights=probabilities, minlength=len(unique))
        codes = coded[0]
        order = np.argsort(codes, kind="stable")
        np.not_equal(codes[order][1:], codes[order][:-1], out=starts[1:])
        ranked = rows[order]
    if starts.all():   # every row differs: sorted, each probability alone (as bincount: 0.0 + p)
        return ranked, np.asarray(probabilities, dtype=float)[order]
    unique = ranked[starts]   # the first of equal rows (both sorts are stable)
    inverse = np.empty(len(rows), dtype=np.intp)
    inverse[order] = np.cumsum(starts) - 1
    return unique, np.bincount(inverse, weights=probabilities, minlength=len(unique))


def merge_columns(columns: list, probabilities: np.ndarray, shape: "tuple[int, ...] | None" = None,
                  bounds: "list | None" = None) -> "tuple[np.ndarray, np.ndarray] | None":
    """:func:`merge_rows` of the rows these columns (int64 arrays, one value per row) make,
    without building the rows, when their values together span few combinations (at most
    :data:`DENSE` or four per row): each row's code counted in one array as long as that
    span (``bincount``), the codes present read back as rows; ``None`` when they span more.
    Rows of probability 0 are left out (every caller leaves them out). With ``shape``, the
    rows are the cells of an array of that shape (in order) and the columns spread to it.
    ``bounds``: per column, ``(least, greatest)`` values it cannot pass, or ``None`` (then
    looked up). ``probabilities`` ``None``: each row weighs 1 (the rows are counted, as whole
    numbers).

    Example:
        >>> merge_columns([np.array([2, 1, 2]), np.array([5, 7, 5])], np.array([0.25, 0.5, 0.25]))
        (array([[1, 7],
               [2, 5]]), array([0.5, 0.5]))
    """
    rows = len(probabilities) if probabilities is not None else math.prod(shape)
    lows, radices, span = [], [], 1
    for j, column in enumerate(columns):
        known = bounds[j] if bounds else None
        if known is None:
            low = int(_LEAST(column, axis=None))
            radix = int(_GREATEST(column, axis=None)) - low + 1
        else:
            low, radix = known[0], known[1] - known[0] + 1
        lows.append(low)
        radices.append(radix)
        span *= radix
        if span > max(DENSE, 4 * rows):
            return None
    # The first column's least need not be taken off when it is small: its codes are then
    # offset by it (a few more counts, none of them rows), and its values read back as they are.
    offset = lows[0] * (span // radices[0]) if 0 < lows[0] and lows[0] <= radices[0] else 0
    codes = columns[0] - lows[0] if lows[0] and not offset else columns[0]
    for column, low, radix in zip(columns[1:], lows[1:], radices[1:]):
        codes = codes * radix + (column - low if low else column)
    if shape is not None:
        if codes.shape != shape:   # (no column spans every axis)
            spread = np.empty(shape, np.int64)
            spread[...] = codes
            codes = spread
        codes = codes.reshape(-1)
    merged = np.bincount(codes, weights=probabilities, minlength=span + offset)
    present = merged.nonzero()[0]
    rows = np.empty((len(present), len(columns)), np.int64)
    rest = present
    for j in range(len(columns) - 1, 0, -1):   # each code's digits, the last column's first
        rest, digit = np.divmod(rest, radices[j])
        rows[:, j] = digit + lows[j] if lows[j] else digit
    rows[:, 0] = rest + lows[0] if lows[0] and not offset else rest
    return rows, merged[present]


DENSE = 65536
"""Most combinations of values :func:`merge_columns` counts in one array whatever the rows."""

_LEAST, _GREATEST = np.minimum.reduce, np.maximum.reduce


LEXSORT_CELLS = 4096
"""Cells (rows times columns) up to which :func:`merge_rows` sorts the rows column by column
(``numpy.lexsort``); larger tables are sorted by one code per row (:func:`row_codes`), which
orders them the same way."""


def unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first, inverse)`` as ``numpy.unique`` gives them for the rows' codes: where each
    distinct row first occurs, in sorted order, and each row's place among them.

    Example:
        >>> first, inverse = unique_rows(np.array([[2, 0], [1, 5], [2, 0]]))
        >>> first.tolist(), inverse.tolist()
        ([1, 0], [1, 0, 1])
    """
    rows = np.asarray(rows, dtype=np.int64)
    listed = _small(rows)
    if listed is not None:
        firsts: dict = {}
        for i, row in enumerate(listed):
            firsts.setdefault(row, i)
        keys = sorted(firsts)
        place = {key: j for j, key in enumerate(keys)}
        return (np.array([firsts[key] for key in keys], dtype=np.intp),
                np.array([place[row] for row in listed], dtype=np.intp))
    coded = row_codes(rows)
    if coded is None:
        _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(coded[0], return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)
