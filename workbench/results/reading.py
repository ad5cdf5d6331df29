"""Reading the engine's raw totals as a system's result: outcomes, tiers, P(pass).

The rules layer says *how* a check reads (outcome labels, the target, tier ranges, the first
passing label); the engine computes the distribution of totals; this module puts the two
together into a :class:`~workbench.results.check.CheckResult`. A mechanic written in Python
may read its results itself by defining ``outcomes(raw)``, ``tiers(raw, p)`` or
``p_pass(raw, p)``; those are called instead of the declared readings, and what they return
is checked here, once, before anything shows it: a Distribution whose probabilities are
numbers from 0 to 1 adding up to the check's whole probability, a P(pass) from 0 to 1, a
whole-number target (a NaN, a share of 1.2 or a target of 2.5 is a clear error naming the
system and the method, never a number in a table).

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

from ..engine.expressions import evaluate
from ..engine.joint import JointDistribution
from ..engine.raw import RawDistribution
from ..errors import WorkbenchError, shown
from ..limits import MAX_TOTAL
from ..rules.mechanics.base import Mechanic
from ..rules.system import System
from .check import CheckResult
from .distribution import Distribution
from .joint import Joint


def outcomes(mechanic: Mechanic, raw: RawDistribution) -> Distribution:
    """The distribution of outcomes: totals, or the outcome labels the totals index."""
    custom = getattr(mechanic, "outcomes", None)
    if custom is not None:
        return _checked_distribution(mechanic, "outcomes(raw)", custom(raw), raw)
    labels = mechanic.labels
    if labels is None:
        return Distribution(tuple(int(t) for t in raw.totals), raw.pmf, trials=raw.trials)
    totals = raw.totals
    if len(totals) and (totals[0] < 0 or totals[-1] >= len(labels)):
        raise WorkbenchError(f"{mechanic.system_id}: totals {totals[0]}..{totals[-1]} fall outside "
                             f"the {len(labels)} outcome labels")
    probs = np.zeros(len(labels))
    probs[totals] = raw.pmf
    return Distribution(tuple(labels), probs, trials=raw.trials)


def _tier_cells(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any]):
    """Per (row, total) cell of the raw table, the tier it falls in: its index, or
    ``-2 - index`` for a tier that never passes; -1 outside every tier."""
    names = list(mechanic.tier_names())
    cells = np.full(raw.table.shape, -1)
    totals = np.broadcast_to(raw.totals, raw.table.shape)
    rows = np.broadcast_to(np.arange(raw.table.shape[0])[:, None], raw.table.shape)
    for tier in reversed(mechanic.tier_rules(p)):  # painted last to first: the first that fits wins
        if getattr(tier, "name", None) not in names:
            raise WorkbenchError(f"{mechanic.system_id}: tier_rules(p) gave a tier named "
                                 f"{shown(getattr(tier, 'name', tier))}; allowed: one of tier_names(): "
                                 + ", ".join(map(str, names)))
        mask = np.ones(raw.table.shape, dtype=bool)
        if tier.all_negative is not None:
            mask &= rows == int(tier.all_negative)
        if tier.min is not None:
            mask &= totals >= tier.min
        if tier.max is not None:
            mask &= totals <= tier.max
        index = names.index(tier.name)
        cells[mask] = index if tier.passes else -2 - index
    return names, cells


def _joint_columns(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any]) -> dict:
    """The joint's columns and the parameters expressions may read, by name."""
    named = {name: (None if value is None else int(value)) for name, value in p.items()
             if isinstance(value, (bool, int)) or value is None}
    named.update(raw.columns())
    return named


def _holds(expression, columns: dict, rows: int) -> np.ndarray:
    """Where a condition holds, one true/false per row (a true/false statistic read as one)."""
    value = np.broadcast_to(evaluate(expression, columns), (rows,))
    return value if value.dtype == bool else value != 0


def _joint_tiers(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any]) -> np.ndarray:
    """Per row of the joint, the tier it falls in (as :func:`_tier_cells` numbers them)."""
    names = list(mechanic.tier_names())
    cells = np.full(len(raw.probabilities), -1)
    columns = _joint_columns(mechanic, raw, p)
    total = raw.column("total")
    for tier in reversed(mechanic.tier_rules(p)):   # painted last to first: the first that fits wins
        mask = np.ones(len(cells), dtype=bool)
        if tier.min is not None:
            mask &= total >= tier.min
        if tier.max is not None:
            mask &= total <= tier.max
        if getattr(tier, "condition", None):
            mask &= _holds(mechanic.condition(tier.condition), columns, len(mask))
        index = names.index(tier.name)
        cells[mask] = index if tier.passes else -2 - index
    return cells


def tiers(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any]) -> Distribution | None:
    """The tier distribution, or ``None`` for a system without tiers."""
    custom = getattr(mechanic, "tiers", None)
    if custom is not None:
        found = custom(raw, p)
        return None if found is None else _checked_distribution(mechanic, "tiers(raw, p)", found, raw)
    if not mechanic.tier_names():
        return None
    if isinstance(raw, JointDistribution):
        cells = _joint_tiers(mechanic, raw, p)
        unnamed = (cells == -1) & (raw.probabilities > UNNAMED)
        if unnamed.any():
            source = getattr(mechanic, "source", None)
            where = f" (tiers of {source})" if source is not None else ""
            raise WorkbenchError(f"{mechanic.system_id}: rolls with these statistics "
                                 f"({', '.join(f'{n}={v}' for n, v in zip(raw.names, raw.values[unnamed][0]))}, "
                                 f"together {float(raw.probabilities[cells == -1].sum()):.3g} of the rolls) "
                                 f"fall in no tier with these parameters{where}; allowed: tiers that name "
                                 "every roll (end with a tier without a condition)")
        index = np.where(cells <= -2, -2 - cells, cells)
        probs = np.bincount(index[index >= 0], weights=raw.probabilities[index >= 0],
                            minlength=len(mechanic.tier_names()))
        return Distribution(tuple(mechanic.tier_names()), probs, trials=raw.trials)
    names, cells = _tier_cells(mechanic, raw, p)
    _named_everywhere(mechanic, raw, cells)
    index = np.where(cells <= -2, -2 - cells, cells)
    probs = np.array([raw.table[index == k].sum() for k in range(len(names))])
    return Distribution(tuple(names), probs, trials=raw.trials)


UNNAMED = 1e-12
"""Probability of rolls outside every tier beyond which a check's tiers are refused (float
noise of an exact result stays far below it; one simulated roll is far above it)."""


def _named_everywhere(mechanic: Mechanic, raw: RawDistribution, cells: np.ndarray) -> None:
    """Refuse tiers that leave reachable totals without a name: their shares would add up
    to less than 100% (holes between tiers are refused when a file loads; this catches the
    totals past the ends, which depend on the check)."""
    unnamed = (cells == -1) & (raw.table > UNNAMED)
    if not unnamed.any():
        return
    totals = np.broadcast_to(raw.totals, raw.table.shape)[unnamed]
    low, high = int(totals.min()), int(totals.max())
    share = float(raw.table[cells == -1].sum())
    span = str(low) if low == high else f"{low} to {high}"
    source = getattr(mechanic, "source", None)
    where = f" (tiers of {source})" if source is not None else ""
    raise WorkbenchError(f"{mechanic.system_id}: totals {span} (together {share:.3g} of the rolls) "
                         f"fall in no tier with these parameters{where}; allowed: tiers that name "
                         "every total a check can reach (leave the lowest tier's min or the "
                         "highest tier's max out)")


def p_pass(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any]) -> float | None:
    """P(pass): the total reaches the target (outside tiers that never pass), or the outcome
    is at or after the first passing label; ``None`` when the check has neither."""
    custom = getattr(mechanic, "p_pass", None)
    if custom is not None:
        return _checked_probability(mechanic, custom(raw, p), raw)
    if isinstance(raw, JointDistribution):
        return _joint_p_pass(mechanic, raw, p)
    target = checked_target(mechanic, p)
    if target is None:
        pass_from = mechanic.pass_from
        if pass_from is None or mechanic.labels is None:
            return None
        return float(raw.pmf[raw.totals >= mechanic.labels.index(pass_from)].sum())
    passing = raw.totals >= target
    if not mechanic.tier_names():
        return float(raw.pmf[passing].sum())
    _, cells = _tier_cells(mechanic, raw, p)
    return float(raw.table[(cells > -2) & passing[None, :]].sum())


def _joint_p_pass(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any]) -> float | None:
    """P(pass) of a roll with statistics: its ``pass_if`` condition (else total >= target, or
    the first passing label), outside tiers that never pass."""
    condition = getattr(mechanic, "pass_condition", None)
    if condition is not None:
        passing = _holds(condition, _joint_columns(mechanic, raw, p), len(raw.probabilities))
    else:
        target = checked_target(mechanic, p)
        if target is None:
            pass_from = mechanic.pass_from
            if pass_from is None or mechanic.labels is None:
                return None
            target = mechanic.labels.index(pass_from)
        passing = raw.column("total") >= target
    if mechanic.tier_names():
        passing = passing & (_joint_tiers(mechanic, raw, p) > -2)
    return float(raw.probabilities[passing].sum())


def probability(mechanic: Mechanic, raw: "RawDistribution | JointDistribution",
                p: Mapping[str, Any], condition) -> float:
    """P(``condition``) (a parsed condition over the statistics and the parameters; a system
    without statistics knows ``total`` only)."""
    if isinstance(raw, JointDistribution):
        holds = _holds(condition, _joint_columns(mechanic, raw, p), len(raw.probabilities))
        return float(raw.probabilities[holds].sum())
    columns = {name: (None if value is None else int(value)) for name, value in p.items()
               if isinstance(value, (bool, int)) or value is None}
    columns["total"] = raw.totals
    return float(raw.pmf[_holds(condition, columns, len(raw.pmf))].sum())


def joint(system: System, raw: JointDistribution, params: Mapping[str, Any]) -> Joint:
    """The check's statistics together, as a result."""
    return Joint(raw.names, raw.values, raw.probabilities, trials=raw.trials, parameters=dict(params))


def check_result(system: System, raw: RawDistribution, params: Mapping[str, Any],
                 method: str = "exact", seed: int | None = None) -> CheckResult:
    """Read a raw distribution (exact or simulated) as ``system``'s check result."""
    mechanic = system.mechanic
    found = mechanic.extra(params)
    if not isinstance(found, Mapping):
        raise WorkbenchError(f"{mechanic.system_id}: extra(p) returned {shown(found)}; allowed: a "
                             "dict of facts to show beside the result")
    pmf, extra = outcomes(mechanic, raw), dict(found)
    target = checked_target(mechanic, params)
    if target is not None and pmf.numeric and len(pmf):
        # The margin (total - target; net - Ob in Arrata) of a direct check.
        extra["margin"] = Distribution(tuple(int(o) - target for o in pmf.outcomes),
                                       pmf.probabilities, trials=raw.trials)
    together = joint(system, raw, params) if isinstance(raw, JointDistribution) else None
    stats = {name: together.marginal(name) for name in raw.names} if together is not None else None
    return CheckResult(system=system.id, params=dict(params), pmf=pmf,
                       tiers=tiers(mechanic, raw, params), p_pass=p_pass(mechanic, raw, params),
                       lost_mass=raw.lost_mass, method=method, trials=raw.trials,
                       seed=seed, extra=extra, stats=stats, joint=together)


# -- what a mechanic written in Python reads, checked once ------------------------------------
SHARE_TOLERANCE = 1e-9
"""How far a reading's shares may stray from the check's whole probability (float noise)."""


def _whole(raw) -> float:
    """The probability a raw distribution holds (1 less what explosion chains lost)."""
    return float(raw.probabilities.sum() if isinstance(raw, JointDistribution) else raw.table.sum())


def _checked_distribution(mechanic: Mechanic, method: str, found: Any,
                          raw: RawDistribution) -> Distribution:
    """A custom reading's Distribution, refused unless its probabilities are numbers from 0
    to 1 adding up to the probability the raw distribution holds."""
    where = f"{mechanic.system_id}: {method}"
    if not isinstance(found, Distribution):
        raise WorkbenchError(f"{where} returned {shown(found)}; allowed: a "
                             "workbench.results.Distribution (outcomes and their probabilities)")
    probs = found.probabilities
    bad = [i for i, q in enumerate(probs) if not (np.isfinite(q) and -SHARE_TOLERANCE <= q <= 1 + SHARE_TOLERANCE)]
    if bad:
        raise WorkbenchError(f"{where} gave outcome {shown(found.outcomes[bad[0]])} the probability "
                             f"{shown(float(probs[bad[0]]))}; allowed: numbers from 0 to 1")
    whole = _whole(raw)
    if abs(float(probs.sum()) - whole) > SHARE_TOLERANCE:
        raise WorkbenchError(f"{where} gave probabilities adding up to {float(probs.sum()):.6g}; "
                             f"allowed: shares of the check's rolls, adding up to {whole:.6g}")
    return found


def _checked_probability(mechanic: Mechanic, found: Any, raw: RawDistribution) -> float | None:
    """A custom P(pass): ``None`` or a number from 0 to the check's whole probability."""
    if found is None:
        return None
    whole = _whole(raw)
    if isinstance(found, (bool, np.bool_)) or not isinstance(found, (int, float, np.integer, np.floating)) \
            or not np.isfinite(found) or not -SHARE_TOLERANCE <= found <= whole + SHARE_TOLERANCE:
        raise WorkbenchError(f"{mechanic.system_id}: p_pass(raw, p) returned {shown(found)}; allowed: "
                             f"None or a probability from 0 to {whole:.6g}")
    return float(min(max(found, 0.0), whole))


def checked_target(mechanic: Mechanic, p: Mapping[str, Any]) -> int | None:
    """The mechanic's target for ``p``: ``None`` or a whole number within the total's bounds."""
    target = mechanic.target(p)
    if target is None:
        return None
    if isinstance(target, (bool, np.bool_)) or not isinstance(target, (int, np.integer)) \
            or abs(target) > MAX_TOTAL:
        raise WorkbenchError(f"{mechanic.system_id}: target(p) returned {shown(target)} for "
                             f"{shown(dict(p))}; allowed: None or a whole number from "
                             f"-{MAX_TOTAL:,} to {MAX_TOTAL:,}")
    return int(target)
