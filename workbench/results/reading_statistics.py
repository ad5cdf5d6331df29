"""Reading a roll's statistics row by row (:class:`~workbench.engine.joint.JointDistribution`):
each row's tier by the tiers' ranges and conditions, P(pass) by ``pass_if`` or the target.

Example:
    >>> import workbench
    >>> from workbench.engine import exact_distribution
    >>> alien = workbench.system("alien-rpg")
    >>> p = alien.resolve()
    >>> raw = exact_distribution(alien.pool())
    >>> round(p_pass(alien.mechanic, raw, p), 4)
    0.5177
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..engine.joint import JointDistribution
from ..errors import WorkbenchError
from ..rules.mechanics.base import Mechanic
from ..rules.roll import ALL_NEGATIVE
from ..rules.system import System
from .checked import UNNAMED, checked_target
from .conditions import condition_columns, said
from .distribution import Distribution
from .joint import Joint

READ = object()
"""``target`` not given: the mechanic's own, checked when read (:func:`~.checked.checked_target`)."""


def row_tiers(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any],
              columns: dict | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """Per row of the joint, the tier it falls in (its index in ``tier_names()``, -1: none)
    and whether that tier never passes (``None``: every tier that applies may pass);
    ``columns``: :func:`~.conditions.condition_columns` when worked out already."""
    names = list(mechanic.tier_names())
    rows = len(raw.probabilities)
    cells = np.full(rows, -1)
    rules = mechanic.tier_rules(p)
    blocked = None if all(tier.passes for tier in rules) else np.zeros(rows, dtype=bool)
    if columns is None:
        columns = condition_columns(mechanic, raw, p)
    total = columns["total"]
    for tier in reversed(rules):   # painted last to first: the first that fits wins
        mask = None   # every row, until a part of the tier's rule narrows it
        if tier.min is not None:
            mask = total >= tier.min
        if tier.max is not None:
            mask = _narrowed(mask, total <= tier.max)
        if getattr(tier, "condition", None):
            mask = _narrowed(mask, said(mechanic, f"tier {tier.name!r} condition",
                                        mechanic.condition(tier.condition), columns, rows))
        if getattr(tier, "all_negative", None) is not None:
            mask = _narrowed(mask, raw.column(ALL_NEGATIVE) == int(tier.all_negative))
        where = slice(None) if mask is None else mask
        cells[where] = names.index(tier.name)
        if blocked is not None:
            blocked[where] = not tier.passes
    return cells, blocked


def _narrowed(mask: np.ndarray | None, holds: np.ndarray) -> np.ndarray:
    return holds if mask is None else mask & holds


def tier_distribution(mechanic: Mechanic, raw: JointDistribution, cells: np.ndarray) -> Distribution:
    """The tier distribution of a roll with statistics, each row's tier known (``cells``,
    as :func:`row_tiers` gives them)."""
    outside = cells == -1
    if outside.any() and (unnamed := outside & (raw.probabilities > UNNAMED)).any():
        source = getattr(mechanic, "source", None)
        where = f" (tiers of {source})" if source is not None else ""
        raise WorkbenchError(f"{mechanic.system_id}: rolls with these statistics "
                             f"({', '.join(f'{n}={v}' for n, v in zip(raw.names, raw.values[unnamed][0]))}, "
                             f"together {float(raw.probabilities[cells == -1].sum()):.3g} of the rolls) "
                             f"fall in no tier with these parameters{where}; allowed: tiers that name "
                             "every roll (end with a tier without a condition)")
    index, weights = cells, raw.probabilities
    if outside.any():
        index, weights = index[~outside], weights[~outside]
    probs = np.bincount(index, weights=weights, minlength=len(mechanic.tier_names()))
    return Distribution(tuple(mechanic.tier_names()), probs, trials=raw.trials)


def tiers(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any]) -> Distribution:
    """The declared tiers' distribution (the mechanic has tiers)."""
    return tier_distribution(mechanic, raw, row_tiers(mechanic, raw, p)[0])


def p_pass(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any], target=READ,
           columns: dict | None = None, tiers_read: tuple | None = None) -> float | None:
    """P(pass) of a roll with statistics: its ``pass_if`` condition (else total >= target, or
    the first passing label), outside tiers that never pass. ``target``: the check's target
    when known (read only without a ``pass_if``); ``columns`` and ``tiers_read``:
    :func:`~.conditions.condition_columns` and :func:`row_tiers` when worked out already."""
    condition = getattr(mechanic, "pass_condition", None)
    if condition is not None:
        if columns is None:
            columns = condition_columns(mechanic, raw, p)
        passing = said(mechanic, "pass_if", condition, columns, len(raw.probabilities))
    else:
        if target is READ:
            target = checked_target(mechanic, p)
        if target is None:
            pass_from = mechanic.pass_from
            if pass_from is None or mechanic.labels is None:
                return None
            target = mechanic.labels.index(pass_from)
        passing = raw.column("total") >= target
    if mechanic.tier_names():
        blocked = (tiers_read or row_tiers(mechanic, raw, p, columns))[1]
        if blocked is not None:
            passing = passing & ~blocked
    return min(float(raw.probabilities[passing].sum()), 1.0)   # rounding may sum past 1


def readings(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any],
             target: int | None) -> tuple[Distribution | None, float | None]:
    """``(tiers, P(pass))`` by the declared readings, the columns and each row's tier worked
    out once for both (``target``: the check's, checked)."""
    columns = condition_columns(mechanic, raw, p)
    tiers_read = row_tiers(mechanic, raw, p, columns) if mechanic.tier_names() else None
    tier_dist = None if tiers_read is None else tier_distribution(mechanic, raw, tiers_read[0])
    return tier_dist, p_pass(mechanic, raw, p, target, columns, tiers_read)


def kept_p_pass(passed: float | None, raw: JointDistribution) -> float | None:
    """P(pass) as a check's result keeps it: as read."""
    return passed


def joint(system: System, raw: JointDistribution, params: Mapping[str, Any]) -> Joint:
    """The check's statistics together, as a result."""
    statistics = getattr(system.mechanic, "statistics", None)
    flags = tuple(statistics.flags) if statistics is not None else ()
    texts = dict(getattr(statistics, "texts", None) or {})
    return Joint(raw.names, raw.values, raw.probabilities, trials=raw.trials, parameters=dict(params),
                 flags=flags, texts=texts)


def statistics(system: System, raw: JointDistribution, params: Mapping[str, Any], later) -> dict:
    """What a check's result holds of its statistics: their joint (``later``: what gives it
    on first use, when ``raw`` holds only the statistics the reading needed)."""
    if later is not None:
        return {"later": later}
    return {"given_joint": joint(system, raw, params)}
