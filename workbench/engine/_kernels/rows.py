"""Rows of whole numbers sorted and merged in one compiled call (:func:`workbench.engine._rows.merge_rows`
calls it for tables past a few dozen rows, once numba is loaded).

The same result as the numpy route, bit for bit: rows ordered by one mixed-radix code each
(first column most significant), a stable sort, and each distinct row's probability added
from 0.0 in the order the rows came (as ``numpy.bincount`` adds them).
"""
from __future__ import annotations

import numpy as np

from ._jit import kernel

CODE_LIMIT = 2.0 ** 62
"""Combinations of the columns' ranges past which rows get no code (the caller sorts them
another way)."""


@kernel
def merge_rows(rows, probabilities):
    """``(distinct rows sorted, their probabilities, True)``, or empty arrays and ``False``
    when the columns' ranges together pass :data:`CODE_LIMIT`."""
    n, width = rows.shape
    lows = np.empty(width, np.int64)
    weights = np.empty(width, np.int64)
    span = 1.0           # the ranges' product, as a float: told past the limit without overflow
    weight = np.int64(1)  # and exactly, while it is below
    for j in range(width - 1, -1, -1):
        low = rows[0, j]
        high = rows[0, j]
        for i in range(1, n):
            value = rows[i, j]
            if value < low:
                low = value
            elif value > high:
                high = value
        lows[j] = low
        weights[j] = weight
        span *= float(high) - float(low) + 1.0
        if span >= CODE_LIMIT:
            return np.empty((0, width), np.int64), np.empty(0), False
        weight *= high - low + 1
    codes = np.empty(n, np.int64)
    for i in range(n):
        code = 0
        for j in range(width):
            code += (rows[i, j] - lows[j]) * weights[j]
        codes[i] = code
    order = np.argsort(codes, kind="mergesort")
    distinct = 0
    for k in range(n):
        if k == 0 or codes[order[k]] != codes[order[k - 1]]:
            distinct += 1
    out_rows = np.empty((distinct, width), np.int64)
    out_probabilities = np.zeros(distinct)
    g = -1
    for k in range(n):
        i = order[k]
        if k == 0 or codes[i] != codes[order[k - 1]]:
            g += 1
            out_rows[g, :] = rows[i, :]
        out_probabilities[g] += probabilities[i]
    return out_rows, out_probabilities, True


@kernel
def registers_of(codes, sizes, lows, needed):
    """Row ``k``: register ``needed[k]`` of each state's code (register ``j`` is digit ``j``
    of a mixed radix over ``sizes``, counted from ``lows[j]``), as the walk numbers them."""
    strides = np.empty(sizes.shape[0], np.int64)
    stride = np.int64(1)
    for j in range(sizes.shape[0]):
        strides[j] = stride
        stride *= sizes[j]
    out = np.empty((needed.shape[0], codes.shape[0]), np.int64)
    for k in range(needed.shape[0]):
        j = needed[k]
        for i in range(codes.shape[0]):
            out[k, i] = (codes[i] // strides[j]) % sizes[j] + lows[j]
    return out
