"""Exact outcome tables for the simulators: one random number per check.

A documented speed-up of the stateful simulators. (A single check's simulation rolls its dice,
rolls with statistics too, :mod:`workbench.engine.roll_simulation`, so that it checks the
exact engine; only rolls scored by a Python function or given outright are drawn from their
exact joint distribution there, :func:`simulate_joint`.)

Within one check the dice are independent, so the check's outcome distribution is known
exactly (:func:`workbench.engine.exact.exact_raw`). The simulators therefore draw each check's
outcome from a table of that distribution instead of rolling its dice: exact inversion of
its cumulative distribution, one 53-bit uniform per outcome, sped up by a guide table that
answers almost every draw with one read (:class:`OutcomeTables`).
The state of the game (pool level, stacks, filled slots) picks which table is used.

The tables are built here, in Python (the exact layer); the kernels in
:mod:`workbench.engine._kernels.sampled` only read them. Where a game could reach too many
distinct pools to tabulate (:data:`TABLE_POOLS_MAX`), the simulators fall back to rolling
the dice (:mod:`workbench.engine._kernels.stateful`), which stays the reference: the two agree in
distribution, which ``tests/test_stateful_sampling.py`` checks with chi-square tests.
"""
from __future__ import annotations

import contextvars
from contextlib import contextmanager
from typing import Sequence

import numpy as np

from ..errors import WorkbenchError
from .exact import exact_raw
from .joint import JointDistribution
from ..rules.pool import PoolSpec
from .forms import sum_form

TABLE_POOLS_MAX = 4096
"""Most distinct pools a simulation tabulates exactly; beyond that it rolls the dice."""

_SAMPLER = contextvars.ContextVar("workbench_stateful_sampler", default="tables")


@contextmanager
def rolling_dice():
    """Within this block the stateful simulators roll every die (the reference kernels).

    The results agree in distribution with the default table sampling, not draw for draw.

    Example:
        >>> from workbench.stateful import clock
        >>> with rolling_dice():
        ...     rolled = clock(4, "yellow", method="simulate", trials=2_000, seed=1)
        >>> rolled.trials
        2000
    """
    token = _SAMPLER.set("dice")
    try:
        yield
    finally:
        _SAMPLER.reset(token)


def use_tables(pools: int) -> bool:
    """Whether to sample from exact tables for a game that can reach ``pools`` pools."""
    return _SAMPLER.get() == "tables" and pools <= TABLE_POOLS_MAX


GUIDE_BITS = 10
"""Each table has a guide of ``2**GUIDE_BITS`` cells, one per slice of [0, 1) (see
:class:`OutcomeTables`)."""


class OutcomeTables:
    """Inverse-CDF tables of several outcome distributions, with a guide for speed.

    ``cdf[t, k]``: P(outcome <= k) of table ``t`` (the last entry of each table is ``inf``,
    so rounding can never leave a uniform without an outcome). An outcome is drawn from a
    53-bit uniform ``u`` as the first ``k`` with ``u < cdf[t, k]``: exact inversion.
    ``guide[t, j]`` holds the outcome of every ``u`` whose top :data:`GUIDE_BITS` bits are
    ``j`` when they all share one, so nearly every draw is one table read; otherwise
    ``-(first + 1)``, where the search starts. ``payload[name][t, k]`` is what outcome ``k``
    means to the kernel (a histogram bin, a number of marks, ...).

    Example:
        >>> tables = OutcomeTables([([0.5, 0.25, 0.25], {"value": [10, 20, 30]})])
        >>> tables.cdf[0].tolist(), tables.guide[0, [0, 511, 512, 767, 768]].tolist()
        ([0.5, 0.75, inf], [0, 0, 1, 1, 2])
    """

    def __init__(self, distributions: Sequence[tuple[Sequence[float], dict]]):
        width = max(max(len(p) for p, _ in distributions), 1)
        count = len(distributions)
        buckets = 1 << GUIDE_BITS
        self.cdf = np.full((count, width), np.inf)
        self.guide = np.zeros((count, buckets), np.int32)
        names = distributions[0][1].keys() if distributions else ()
        self.payload = {name: np.zeros((count, width), np.int64) for name in names}
        # The least and greatest 53-bit uniforms of each guide cell.
        step = 2.0 ** -53
        low = np.arange(buckets) / buckets
        high = (np.arange(buckets) + 1) / buckets - step
        for t, (probs, payload) in enumerate(distributions):
            probs = np.asarray(probs, dtype=float)
            cdf = np.cumsum(probs / probs.sum())
            cdf[-1] = np.inf
            self.cdf[t, :len(cdf)] = cdf
            first = np.searchsorted(cdf, low, side="right")
            last = np.searchsorted(cdf, high, side="right")
            self.guide[t] = np.where(first == last, first, -(first + 1))
            for name, values in payload.items():
                self.payload[name][t, :len(probs)] = np.asarray(values)


def outcomes(spec: PoolSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A pool's exact outcomes as flat arrays: ``(total, disaster, probability)``.

    ``disaster`` is 1 when every initial die showed a failure face (as the rolling kernel's
    ``all_failed``); outcomes of probability 0 are left out.
    """
    pool = sum_form(spec)
    if pool is None:
        raise WorkbenchError("outcome tables of totals need a roll that is a sum of dice; this one "
                             "reads counts or statistics")
    raw = exact_raw(pool)
    totals = np.concatenate([raw.totals, raw.totals])
    disaster = np.repeat([0, 1], raw.table.shape[1])
    probs = raw.table.reshape(-1)
    keep = probs > 0.0
    return totals[keep].astype(np.int64), disaster[keep].astype(np.int64), probs[keep]


def p_pass(spec: PoolSpec, target: int) -> float:
    """P(no disaster and total >= ``target``): a pass as the rolling kernels count it."""
    totals, disaster, probs = outcomes(spec)
    return float(probs[(disaster == 0) & (totals >= target)].sum())


QUIET_RUN = 64
"""Refill gaps are tabulated up to this many checks; longer gaps are drawn in pieces."""


def event_tables(mode: int, rate: float, cap: int) -> tuple["OutcomeTables", int]:
    """Tables for refill events: table 0 the checks without events before the next check
    with some (``0 .. QUIET_RUN - 1``, or ``QUIET_RUN``: that many without, then draw again),
    table 1 the dice that check adds (given at least one; ``cap`` stands for ``cap`` or
    more). Returns the tables and :data:`QUIET_RUN`, or 0 when there are never events.

    Example:
        >>> tables, last = event_tables(0, 0.5, 4)
        >>> last, tables.cdf[0, :3].tolist(), tables.cdf[1, :5].tolist()
        (64, [0.5, 0.75, 0.875], [0.0, 1.0, 1.0, 1.0, inf])
    """
    per_check = events_distribution(mode, rate, cap)
    some = 1.0 - per_check[0]
    if rate == 0.0 or some <= 0.0:
        return OutcomeTables([([1.0], {}), ([1.0], {})]), 0
    gaps = some * (1.0 - some) ** np.arange(QUIET_RUN)
    gaps = np.append(gaps, (1.0 - some) ** QUIET_RUN)
    added = per_check.copy()
    added[0] = 0.0
    return OutcomeTables([(gaps, {}), (added, {})]), QUIET_RUN


def events_distribution(mode: int, rate: float, cap: int) -> np.ndarray:
    """P(k refill events) for ``k = 0 .. cap`` after a check, the last entry holding every
    ``k >= cap`` (a pool cannot keep more): mode 0 one event with probability ``rate``,
    mode 1 Poisson(``rate``)."""
    out = np.zeros(cap + 1)
    if cap == 0:
        out[0] = 1.0
        return out
    if mode == 0:
        out[0], out[1] = 1.0 - rate, rate
        return out
    term = np.exp(-rate)
    for k in range(cap):
        out[k] = term
        term *= rate / (k + 1)
    out[cap] = max(1.0 - out[:cap].sum(), 0.0)
    return out


def simulate_joint(joint: JointDistribution, trials: int, seed: int, block_size: int,
                   chunk_blocks: int, bar=None) -> JointDistribution:
    """``trials`` checks drawn from a roll's exact joint distribution (one number a check):
    the same joint, with frequencies and ``trials``. Blocks of ``block_size`` trials each draw
    from their own stream of the seed, so a seed gives the same counts on any number of
    threads; ``bar`` (a tqdm bar) moves once per ``chunk_blocks`` blocks."""
    from ._kernels import sampled  # lazy: numba

    tables = OutcomeTables([(joint.probabilities, {})])
    outcomes = len(joint.probabilities)
    counts = np.zeros(outcomes, np.int64)
    blocks = -(-trials // block_size)
    for first in range(0, blocks, chunk_blocks):
        chunk = min(chunk_blocks, blocks - first)
        found = np.zeros((chunk, outcomes), np.int64)
        sampled.table_blocks(np.uint64(seed), first, chunk, block_size, trials, tables.cdf,
                             tables.guide, found)
        counts += found.sum(axis=0)
        if bar is not None:
            bar.update(min(trials, (first + chunk) * block_size) - min(trials, first * block_size))
    seen = counts > 0
    return JointDistribution(joint.names, joint.values[seen], counts[seen] / trials, trials=trials)
