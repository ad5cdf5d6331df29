"""Closed forms for the pools most checks roll, so they skip the generic convolutions.

Each function gives the probabilities of one group of identical dice as a plain array
(``probs[i]`` is P(total = offset + i)); :mod:`workbench.engine.exact` uses them where they
apply and falls back to its convolutions everywhere else:

- **counting dice** (every face adds 0 or the same value): a binomial;
- **counting with cancelling faces** (faces add -1, 0 or +1): failures are binomial, and the
  successes among the other dice binomial again (a trinomial);
- **open-ended dice** (the exploding faces all add one value and roll the die again, without
  a cap): the explosions of ``n`` dice are negative binomial, and the faces that stop their
  chains are one of the two cases above; the two parts are independent, so the total is their
  convolution;
- **misses rerolled** (counting dice, up to ``r`` of the dice that scored nothing rolled once
  more): for ``m`` misses, ``n - m`` dice hit and ``min(m, r)`` rolls are binomial; the weights
  of ``m`` are binomial too.

Small pools use exact product recurrences; larger ones work in log space over a table of
``log k!`` (each entry from :func:`math.lgamma`, so good to about 1e-13 relative even at a
thousand dice). Example:

    >>> [round(float(p) * 9, 6) for p in binomial(2, 1 / 3)]
    [4.0, 4.0, 1.0]
"""
from __future__ import annotations

import math

import numpy as np

RECURRENCE_UP_TO = 40
"""Binomials of at most this many dice use a Python product recurrence (fewer numpy calls)."""

TABLE_RECURRENCE_UP_TO = 12
"""Tables of binomials with at most this many rows are made row by row (exactly as above)."""

TRINOMIAL_UP_TO = 400
"""Largest pool whose cancelling faces are summed as a trinomial table (n^2 / 2 cells)."""

NEGLIGIBLE = 1e-18
"""Tail mass a negative binomial may leave out (reported as lost, never hidden)."""

_log_factorials = np.zeros(1)


def log_factorials(n: int) -> np.ndarray:
    """``log(k!)`` for ``k = 0 .. n`` (at least; a table that grows as needed).

    Example:
        >>> round(float(log_factorials(4)[4]), 12) == round(math.log(24), 12)
        True
    """
    global _log_factorials
    if len(_log_factorials) <= n:
        size = max(n + 1, 2 * len(_log_factorials), 64)
        _log_factorials = np.array([math.lgamma(k + 1.0) for k in range(size)])
    return _log_factorials


def forget() -> None:
    """Drop the ``log k!`` table (benchmarks time the first use too)."""
    global _log_factorials
    _log_factorials = np.zeros(1)


def binomial(n: int, p: float) -> np.ndarray:
    """P(k of ``n`` dice hit) for ``k = 0 .. n``, each hitting with probability ``p``.

    Example:
        >>> binomial(3, 0.5).tolist()
        [0.125, 0.375, 0.375, 0.125]
    """
    if n <= RECURRENCE_UP_TO or p <= 0.0 or p >= 1.0:
        return np.array(binomial_list(n, p))
    q = 1.0 - p
    lf = log_factorials(n)
    log_q = math.log1p(-p)
    return np.exp((lf[n] + n * log_q) - (lf[:n + 1] + lf[n::-1])
                  + np.arange(n + 1) * (math.log(p) - log_q))


def binomial_list(n: int, p: float) -> list[float]:
    """:func:`binomial` as a list, by the product recurrence (exact to a few ulps; for small
    pools, where it is quicker than any array arithmetic).

    Example:
        >>> binomial_list(2, 0.5)
        [0.25, 0.5, 0.25]
    """
    if p <= 0.0 or p >= 1.0 or n == 0:
        out = [0.0] * (n + 1)
        out[n if p >= 1.0 else 0] = 1.0
        return out
    q = 1.0 - p
    ratio = p / q
    term = q ** n
    out = [term]
    for k in range(n):
        term = term * (n - k) / (k + 1) * ratio
        out.append(term)
    return out


def binomial_table(rows: int, p: float) -> np.ndarray:
    """``table[r, j]`` = P(j of ``r`` dice hit), for ``r, j = 0 .. rows`` (0 where j > r).

    Example:
        >>> binomial_table(2, 0.5).tolist()
        [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.25, 0.5, 0.25]]
    """
    if rows <= TABLE_RECURRENCE_UP_TO:
        table = np.zeros((rows + 1, rows + 1))
        for r in range(rows + 1):
            table[r, :r + 1] = binomial(r, p)
        return table
    r = np.arange(rows + 1)[:, None]
    j = np.arange(rows + 1)[None, :]
    if p <= 0.0 or p >= 1.0:
        return ((j == (r if p >= 1.0 else 0)) & (j <= r)).astype(float)
    lf = log_factorials(rows)
    inside = j <= r
    rest = np.where(inside, r - j, 0)
    log_q = math.log1p(-p)
    logs = lf[r] - lf[j] - lf[rest] + j * math.log(p) + rest * log_q
    return np.where(inside, np.exp(np.where(inside, logs, 0.0)), 0.0)


def trinomial_difference(n: int, up: float, down: float) -> np.ndarray:
    """P(hits - cancels = t) for ``t = -n .. n`` when each of ``n`` dice adds +1 with
    probability ``up``, -1 with probability ``down`` and 0 otherwise.

    Example:
        >>> [round(float(p), 6) for p in trinomial_difference(1, 0.5, 0.25)]
        [0.25, 0.25, 0.5]
    """
    cancels = binomial(n, down)
    rest = 1.0 - down
    given = up / rest if rest > 0.0 else 0.0
    table = binomial_table(n, given)            # table[r, s]: s hits among r dice
    f = np.arange(n + 1)
    # Row f (f dice cancel): s hits among the other n - f dice, total s - f.
    weights = table[n - f] * cancels[:, None]
    totals = np.arange(n + 1)[None, :] - f[:, None] + n
    valid = np.arange(n + 1)[None, :] <= (n - f)[:, None]
    return np.bincount(totals[valid], weights=weights[valid], minlength=2 * n + 1)


def negative_binomial(n: int, p: float) -> tuple[np.ndarray, float]:
    """P(k explosions in all) for ``k = 0, 1, ...`` when ``n`` dice each explode with
    probability ``p`` per roll and roll again, as far as the chains go: the distribution is
    cut where the rest holds at most :data:`NEGLIGIBLE`; returns it and that bound.

    Example:
        >>> pmf, lost = negative_binomial(1, 0.5)
        >>> [round(float(x), 12) for x in pmf[:3]], lost < 1e-18
        ([0.5, 0.25, 0.125], True)
    """
    if n == 0 or p <= 0.0:
        return np.ones(1), 0.0
    mean = n * p / (1.0 - p)
    spread = math.sqrt(n * p) / (1.0 - p)
    length = int(mean + 12.0 * spread + 20.0)
    log_q = math.log1p(-p)
    log_p = math.log(p)
    while True:
        lf = log_factorials(n + length)
        k = np.arange(length + 1)
        pmf = np.exp(lf[n - 1 + k] - lf[k] - lf[n - 1] + k * log_p + n * log_q)
        ratio = (n + length) / (length + 1.0) * p   # falls towards p beyond the mode
        if ratio < 1.0:
            bound = float(pmf[-1]) * ratio / (1.0 - ratio)
            if bound <= NEGLIGIBLE:
                return pmf, bound
        length *= 2


def rerolled_counts(n: int, p: float, rerolls: int, skip: float) -> tuple[np.ndarray, float]:
    """P(total = t) for ``t = 0 .. n``: ``n`` counting dice (hit with probability ``p``, else
    0), then up to ``rerolls`` of the misses rolled once more. Numbers of misses less likely
    than ``skip`` are left out; returns the distribution and the weight left out.

    Example:
        >>> [round(float(x), 6) for x in rerolled_counts(1, 0.5, 1, 0.0)[0]]
        [0.25, 0.75]
    """
    misses = binomial(n, 1.0 - p)
    wanted = np.nonzero(misses >= skip)[0]
    low, high = int(wanted[0]), int(wanted[-1])
    skipped = float(misses[:low].sum() + misses[high + 1:].sum())
    m = np.arange(low, high + 1)
    rolled = np.minimum(m, rerolls)
    table = binomial_table(int(rolled.max()), p)     # table[r, j]: j hits among r rerolls
    weights = table[rolled] * misses[low:high + 1, None]
    totals = (n - m)[:, None] + np.arange(table.shape[1])[None, :]
    valid = np.arange(table.shape[1])[None, :] <= rolled[:, None]
    return np.bincount(totals[valid], weights=weights[valid], minlength=n + 1), skipped
