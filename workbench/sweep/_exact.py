"""The fast path of exact ``check`` sweeps: the exact engine memoised per distinct pool.

A grid of checks asks for many points that roll the same pool (a target or an Ob changes
what passes, not the dice), so each pool's exact distribution and outcome table are worked
out once per process, and each point only reads P(pass) and the tiers off them. Every memo
is keyed by content: pools by the pool itself, points by the :class:`System` object (a new
one whenever its data file changes or its mechanic is registered again), and system names
are looked up afresh for each batch (:func:`new_batch`). The figures
are those of :func:`workbench.sweep._functions.check_figures` of :func:`workbench.check`
(``tests/test_sweep.py`` checks they are equal).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping

from ..engine.raw import RawDistribution
from ..engine import exact_distribution
from ..engine.joint import JointDistribution
from ..results import reading
from ..rules.registry import get_system

MEMO_LIMIT = 200_000
"""Entries kept per memo before it is cleared (bounds a worker's memory on huge grids)."""

_systems: dict[Any, Any] = {}
_pools: dict[Any, tuple] = {}
_points: dict[Any, dict] = {}


def new_batch() -> None:
    """Look system names up again: a data file may have changed or a mechanic been registered
    again since the last batch (the points memo is keyed by the system objects found)."""
    _systems.clear()


@dataclass(frozen=True)
class _KeptRaw(RawDistribution):
    """A raw distribution that works its ``pmf`` and ``totals`` out once (each point reads
    them again to find P(pass) and the tiers)."""

    @cached_property
    def pmf(self):
        return self.table.sum(axis=0)

    @cached_property
    def totals(self):
        return super().totals


def _memo_put(memo: dict, key, value) -> None:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value


def _system(name):
    if not isinstance(name, str):
        return get_system(name)
    found = _systems.get(name)
    if found is None:
        found = get_system(name)
        _memo_put(_systems, name, found)
    return found


def _key(system, params: Mapping[str, Any]):
    """The memo key of a point: the system object itself (compared by identity, and kept
    alive by the memo, so a new object for changed content is a new key) and the values."""
    try:
        key = (system, tuple(params.items()))
        hash(key)
        return key
    except TypeError:   # an unhashable parameter value: no memo for this point
        return None


def exact_check_figures(params: Mapping[str, Any], fixed: Mapping[str, Any] | None = None) -> dict:
    """The key figures of ``check(**fixed, **params)`` (one of them holds ``system``); the
    same dict for a repeated point (read it, do not change it)."""
    given = {**fixed, **params} if fixed else dict(params)
    sys_ = _system(given.pop("system"))
    # The point as given: a repeated point skips even resolving. Only for systems read from
    # data: a mechanic's Python code may read anything, so its pool is asked for every time.
    asked = _key(sys_, given) if sys_.source is not None else None
    if asked is not None:
        row = _points.get(asked)
        if row is not None:
            return row
    row = _figures(sys_.mechanic, sys_.resolve(**given))
    if asked is not None:
        _memo_put(_points, asked, row)
    return row


def _figures(mechanic, resolved) -> dict:
    spec = mechanic.pool(resolved)
    pool = _pools.get(spec)
    if pool is None:
        exact = exact_distribution(spec)
        raw = exact if isinstance(exact, JointDistribution) else _KeptRaw(
            exact.offset, exact.table, exact.lost_mass, exact.trials)
        pmf = reading.outcomes(mechanic, raw)
        pool = (raw, pmf, float(pmf.mean) if pmf.numeric else None)
        _memo_put(_pools, spec, pool)
    raw, pmf, mean = pool
    row: dict[str, Any] = {}
    p_pass = reading.p_pass(mechanic, raw, resolved)
    if p_pass is not None:
        row["p_pass"] = float(p_pass)
    if mean is not None:
        row["mean"] = mean
    tiers = reading.tiers(mechanic, raw, resolved)
    if tiers is not None:
        row.update({f"tier: {name}": float(p) for name, p in zip(tiers.outcomes, tiers.probabilities)})
    elif not pmf.numeric:
        row.update({f"outcome: {name}": float(p) for name, p in zip(pmf.outcomes, pmf.probabilities)})
    row["lost_mass"] = float(raw.lost_mass)
    return row
