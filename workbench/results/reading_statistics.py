"""Reading a roll's statistics row by row (:class:`~workbench.engine.joint.JointDistribution`):
each row's tier by the tiers' ranges and conditions, P(pass) by ``pass_if`` or the target.

Example:
    >>> import workbench
    >>> from workbench.engine import exact_distribution
    >>> alien = workbench.system("alien-rpg")
    >>> p = alien.resolve()
    >>> raw = exact_distribution(alien.pool())
    >>> rules = alien.mechanic.reading_rules(p)
    >>> round(p_pass(rules, raw, rules.target), 4)
    0.5177
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..engine.joint import JointDistribution
from ..errors import WorkbenchError
from ..rules.mechanics.base import ReadingRules
from ..rules.roll import ALL_NEGATIVE
from ..rules.system import System
from .checked import UNNAMED
from .conditions import condition_columns, said, tier_condition
from .distribution import Distribution
from .joint import Joint

TARGET = "for_pass"
"""The target this reading needs (:data:`~workbench.rules.mechanics.base.TARGET_READS`):
only without a ``pass_if``, which decides a pass by itself."""


def row_tiers(rules: ReadingRules, raw: JointDistribution,
              columns: dict | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """Per row of the joint, the tier it falls in (its index in ``tier_names()``, -1: none)
    and whether that tier never passes (``None``: every tier that applies may pass);
    ``columns``: :func:`~.conditions.condition_columns` when worked out already."""
    names = list(rules.tier_names)
    rows = len(raw.probabilities)
    cells = np.full(rows, -1)
    tiers = rules.tier_rules
    blocked = None if all(tier.passes for tier in tiers) else np.zeros(rows, dtype=bool)
    if columns is None:
        columns = condition_columns(rules, raw)
    total = columns["total"]
    for tier in reversed(tiers):   # painted last to first: the first that fits wins
        mask = None   # every row, until a part of the tier's rule narrows it
        if tier.min is not None:
            mask = total >= tier.min
        if tier.max is not None:
            mask = _narrowed(mask, total <= tier.max)
        if getattr(tier, "condition", None):
            mask = _narrowed(mask, said(rules, f"tier {tier.name!r} condition",
                                        tier_condition(rules, tier.condition), columns, rows))
        if getattr(tier, "all_negative", None) is not None:
            mask = _narrowed(mask, raw.column(ALL_NEGATIVE) == int(tier.all_negative))
        where = slice(None) if mask is None else mask
        cells[where] = names.index(tier.name)
        if blocked is not None:
            blocked[where] = not tier.passes
    return cells, blocked


def _narrowed(mask: np.ndarray | None, holds: np.ndarray) -> np.ndarray:
    return holds if mask is None else mask & holds


def tier_distribution(rules: ReadingRules, raw: JointDistribution, cells: np.ndarray) -> Distribution:
    """The tier distribution of a roll with statistics, each row's tier known (``cells``,
    as :func:`row_tiers` gives them)."""
    outside = cells == -1
    if outside.any() and (unnamed := outside & (raw.probabilities > UNNAMED)).any():
        source = rules.source
        where = f" (tiers of {source})" if source is not None else ""
        raise WorkbenchError(f"{rules.system_id}: rolls with these statistics "
                             f"({', '.join(f'{n}={v}' for n, v in zip(raw.names, raw.values[unnamed][0]))}, "
                             f"together {float(raw.probabilities[cells == -1].sum()):.3g} of the rolls) "
                             f"fall in no tier with these parameters{where}; allowed: tiers that name "
                             "every roll (end with a tier without a condition)")
    index, weights = cells, raw.probabilities
    if outside.any():
        index, weights = index[~outside], weights[~outside]
    probs = np.bincount(index, weights=weights, minlength=len(rules.tier_names))
    return Distribution(rules.tier_names, probs, trials=raw.trials)


def tiers(rules: ReadingRules, raw: JointDistribution) -> Distribution:
    """The declared tiers' distribution (the mechanic has tiers)."""
    return tier_distribution(rules, raw, row_tiers(rules, raw)[0])


def p_pass(rules: ReadingRules, raw: JointDistribution, target: int | None,
           columns: dict | None = None, tiers_read: tuple | None = None) -> float | None:
    """P(pass) of a roll with statistics: its ``pass_if`` condition (else total >= target, or
    the first passing label), outside tiers that never pass. ``target``: the check's,
    checked (read only without a ``pass_if``); ``columns`` and ``tiers_read``:
    :func:`~.conditions.condition_columns` and :func:`row_tiers` when worked out already."""
    condition = rules.pass_condition
    if condition is not None:
        if columns is None:
            columns = condition_columns(rules, raw)
        passing = said(rules, "pass_if", condition, columns, len(raw.probabilities))
    else:
        if target is None:
            pass_from, labels = rules.pass_from, rules.labels
            if pass_from is None or labels is None:
                return None
            target = labels.index(pass_from)
        passing = raw.column("total") >= target
    if rules.tier_names:
        blocked = (tiers_read or row_tiers(rules, raw, columns))[1]
        if blocked is not None:
            passing = passing & ~blocked
    return min(float(raw.probabilities[passing].sum()), 1.0)   # rounding may sum past 1


def readings(rules: ReadingRules, raw: JointDistribution,
             target: int | None) -> tuple[Distribution | None, float | None]:
    """``(tiers, P(pass))`` by the declared readings, the columns and each row's tier worked
    out once for both (``target``: the check's, checked)."""
    columns = condition_columns(rules, raw)
    tiers_read = row_tiers(rules, raw, columns) if rules.tier_names else None
    tier_dist = None if tiers_read is None else tier_distribution(rules, raw, tiers_read[0])
    return tier_dist, p_pass(rules, raw, target, columns, tiers_read)


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
