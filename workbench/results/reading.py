"""Reading the engine's raw totals as a system's result: outcomes, tiers, P(pass).

The rules layer says *how* a check reads (outcome labels, the target, tier ranges, the first
passing label); the engine computes the distribution of totals; this module puts the two
together into a :class:`~workbench.results.check.CheckResult`. A mechanic written in Python
may read its results itself by defining ``outcomes(raw)``, ``tiers(raw, p)`` or
``p_pass(raw, p)``; those are called instead of the declared readings.

Example:
    >>> import workbench
    >>> from workbench.engine import exact_raw
    >>> uwr = workbench.system("uwr")
    >>> params = uwr.resolve(dice=2, target=1)
    >>> round(check_result(uwr, exact_raw(uwr.pool(dice=2)), params).p_pass, 4)
    0.5556
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..engine.raw import RawDistribution
from ..errors import WorkbenchError
from ..rules.mechanics.base import Mechanic
from ..rules.system import System
from .check import CheckResult
from .distribution import Distribution


def outcomes(mechanic: Mechanic, raw: RawDistribution) -> Distribution:
    """The distribution of outcomes: totals, or the outcome labels the totals index."""
    custom = getattr(mechanic, "outcomes", None)
    if custom is not None:
        return custom(raw)
    labels = mechanic.labels
    if labels is None:
        return Distribution.of_totals(raw.offset, raw.pmf, raw.trials)
    totals = raw.totals
    if len(totals) and (totals[0] < 0 or totals[-1] >= len(labels)):
        raise WorkbenchError(f"{mechanic.system_id}: totals {totals[0]}..{totals[-1]} fall outside "
                             f"the {len(labels)} outcome labels")
    probs = np.zeros(len(labels))
    probs[totals] = raw.pmf
    return Distribution(tuple(labels), probs, trials=raw.trials)


_CELLS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
"""Tier cells by what they depend on: the tiers' names and spans, and the table's place and
shape (a sweep or a curve reads the same few tables over and over)."""


def _tier_cells(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any]):
    """Per (row, total) cell of the raw table, the tier it falls in: its index, or
    ``-2 - index`` for a tier that never passes; -1 outside every tier. Returns the tier
    names, the cells and, per cell, the tier's index + 1 (0 outside every tier)."""
    names = tuple(mechanic.tier_names())
    rules = mechanic.tier_rules(p)
    key = (names, tuple((t.name, t.min, t.max, t.all_negative, t.passes) for t in rules),
           raw.offset, raw.table.shape)
    found = _CELLS.get(key)
    if found is None:
        offset, width = raw.offset, raw.table.shape[1]
        cells = np.full(raw.table.shape, -1)
        for tier in reversed(rules):  # painted last to first: the first that fits wins
            low = 0 if tier.min is None else max(tier.min - offset, 0)
            high = width if tier.max is None else min(tier.max - offset + 1, width)
            if low >= high:
                continue
            index = names.index(tier.name)
            rows = slice(None) if tier.all_negative is None else int(tier.all_negative)
            cells[rows, low:high] = index if tier.passes else -2 - index
        flat = (np.where(cells <= -2, -2 - cells, cells) + 1).ravel()
        cells.setflags(write=False)
        if len(_CELLS) >= 4096:
            _CELLS.clear()
        found = _CELLS[key] = cells, flat
    return names, found[0], found[1]


def _tier_probabilities(raw: RawDistribution, names, flat) -> Distribution:
    probs = np.bincount(flat, weights=raw.table.ravel(), minlength=len(names) + 1)[1:]
    return Distribution(names, probs, trials=raw.trials)


def tiers(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any]) -> Distribution | None:
    """The tier distribution, or ``None`` for a system without tiers."""
    custom = getattr(mechanic, "tiers", None)
    if custom is not None:
        return custom(raw, p)
    if not mechanic.tier_names():
        return None
    names, _, flat = _tier_cells(mechanic, raw, p)
    return _tier_probabilities(raw, names, flat)


def _at_least(raw: RawDistribution, total: int) -> float:
    """P(total >= ``total``), one look-up in the raw table's tail sums."""
    column = total - raw.offset
    if column <= 0:
        return float(raw.at_least[0]) if raw.table.shape[1] else 0.0
    return float(raw.at_least[column]) if column < raw.table.shape[1] else 0.0


def _from(raw: RawDistribution, total: int) -> int:
    """The column of ``total`` in the raw table (0 below it; the width above it)."""
    return min(max(total - raw.offset, 0), raw.table.shape[1])


def p_pass(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any], cells=None) -> float | None:
    """P(pass): the total reaches the target (outside tiers that never pass), or the outcome
    is at or after the first passing label; ``None`` when the check has neither.
    ``cells``: the tier cells when the caller has them already."""
    custom = getattr(mechanic, "p_pass", None)
    if custom is not None:
        return custom(raw, p)
    target = mechanic.target(p)
    if target is None:
        pass_from = mechanic.pass_from
        if pass_from is None or mechanic.labels is None:
            return None
        return _at_least(raw, mechanic.labels.index(pass_from))
    if not mechanic.tier_names():
        return _at_least(raw, target)
    first = _from(raw, target)
    if cells is None:
        cells = _tier_cells(mechanic, raw, p)[1]
    return float(raw.table[:, first:][cells[:, first:] > -2].sum())


def check_result(system: System, raw: RawDistribution, params: Mapping[str, Any],
                 method: str = "exact", seed: int | None = None) -> CheckResult:
    """Read a raw distribution (exact or simulated) as ``system``'s check result."""
    mechanic = system.mechanic
    pmf, extra = outcomes(mechanic, raw), dict(mechanic.extra(params))
    target = mechanic.target(params)
    if target is not None and pmf.numeric and len(pmf):
        # The margin (total - target; net - Ob in Arrata) of a direct check.
        if getattr(mechanic, "outcomes", None) is None:   # totals: consecutive whole numbers
            extra["margin"] = Distribution.of_totals(pmf.outcomes[0] - target, pmf.probabilities,
                                                     raw.trials)
        else:
            extra["margin"] = Distribution(tuple(int(o) - target for o in pmf.outcomes),
                                           pmf.probabilities, trials=raw.trials)
    cells, tier_dist = None, None
    if getattr(mechanic, "tiers", None) is not None:
        tier_dist = mechanic.tiers(raw, params)
    elif mechanic.tier_names():
        names, cells, flat = _tier_cells(mechanic, raw, params)
        tier_dist = _tier_probabilities(raw, names, flat)
    return CheckResult(system=system.id, params=dict(params), pmf=pmf, tiers=tier_dist,
                       p_pass=p_pass(mechanic, raw, params, cells), lost_mass=raw.lost_mass,
                       method=method, trials=raw.trials, seed=seed, extra=extra)
