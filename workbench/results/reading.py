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
    >>> from workbench.engine import exact_distribution
    >>> uwr = workbench.system("uwr")
    >>> params = uwr.resolve(dice=2, target=1)
    >>> round(check_result(uwr, exact_distribution(uwr.pool(dice=2)), params).p_pass, 4)
    0.5556
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..rules.expressions import evaluate
from ..engine.joint import JointDistribution
from ..engine.raw import RawDistribution
from ..errors import WorkbenchError, shown
from ..limits import MAX_TOTAL, MAX_TOTALS, BoundedCache
from ..rules.mechanics.base import Mechanic
from ..rules.roll import ALL_NEGATIVE
from ..rules.system import System
from .check import CheckResult
from .distribution import SPARSE_SPAN, Distribution, possible_only
from .joint import Joint


def outcomes(mechanic: Mechanic, raw: RawDistribution) -> Distribution:
    """The distribution of outcomes: totals, or the outcome labels the totals index."""
    custom = getattr(mechanic, "outcomes", None)
    if custom is not None:
        return _checked_distribution(mechanic, "outcomes(raw)", custom(raw), raw)
    labels = mechanic.labels
    if labels is None:
        _check_span(mechanic, raw)
        span = raw.total_span if isinstance(raw, JointDistribution) else None
        if span is not None and span[1] - span[0] + 1 > SPARSE_SPAN:   # else every total is listed
            totals, probs = raw.marginal("total")
            if len(totals) and possible_only(len(totals), int(totals[-1] - totals[0]) + 1):
                # Totals far apart (a count times 1000): the possible ones only, not a
                # table of millions of impossible totals between them.
                return Distribution(tuple(int(t) for t in totals), probs, raw.trials)
        return Distribution.of_totals(raw.offset, raw.pmf, raw.trials)
    totals = raw.totals
    if len(totals) and (totals[0] < 0 or totals[-1] >= len(labels)):
        source = getattr(mechanic, "source", None)
        raise WorkbenchError(
            f"{mechanic.system_id}{f' ({source})' if source else ''}: these parameters give totals "
            f"{totals[0]} to {totals[-1]}, but [outcome] labels name the totals 0 to {len(labels) - 1} "
            f"({', '.join(map(repr, labels))}); allowed: parameters whose totals stay within the "
            "labels (fewer dice), or a label for every total")
    probs = np.zeros(len(labels))
    probs[totals] = raw.pmf
    return Distribution(tuple(labels), probs, trials=raw.trials)


def _check_span(mechanic: Mechanic, raw) -> None:
    """Refuse a table of totals wider than MAX_TOTALS before it is laid out (a total such as
    ``hits * 400000000`` has three values, but a table from the least to the greatest would
    hold 800 million)."""
    if isinstance(raw, JointDistribution):
        if raw.total_span is None:
            return
        low, high = raw.total_span
    else:
        column = getattr(raw, "column", None)
        if column is None:
            return
        totals = column("total")
        if not len(totals):
            return
        low, high = int(totals.min()), int(totals.max())
    if high - low + 1 > MAX_TOTALS:
        raise WorkbenchError(f"{mechanic.system_id}: totals run from {low:,} to {high:,}, "
                             f"{high - low + 1:,} values, more than the {MAX_TOTALS:,} one table "
                             "holds; allowed: a total whose values lie closer together (scale it "
                             "down, e.g. with //)")


_CELLS = BoundedCache()
"""Tier cells by what they depend on: the tiers' names and spans, and the table's place and
shape (a sweep or a curve reads the same few tables over and over)."""


def _tier_cells(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any]):
    """Per (row, total) cell of the raw table, the tier it falls in: its index, or
    ``-2 - index`` for a tier that never passes; -1 outside every tier. Returns the tier
    names, the cells, per cell the tier's index + 1 (0 outside every tier), and whether any
    cell is outside every tier."""
    names = tuple(mechanic.tier_names())
    rules = mechanic.tier_rules(p)
    try:
        key = (names, tuple((t.name, t.min, t.max, t.all_negative, t.passes,
                             getattr(t, "condition", None)) for t in rules),
               raw.offset, raw.table.shape)
        found = _CELLS.get(key)
    except (AttributeError, TypeError):   # not tiers at all: refused below, by name
        key = found = None
    if found is None:
        offset, width = raw.offset, raw.table.shape[1]
        cells = np.full(raw.table.shape, -1)
        for tier in reversed(rules):  # painted last to first: the first that fits wins
            if getattr(tier, "name", None) not in names:
                raise WorkbenchError(f"{mechanic.system_id}: tier_rules(p) gave a tier named "
                                     f"{shown(getattr(tier, 'name', tier))}; allowed: one of "
                                     "tier_names(): " + ", ".join(map(str, names)))
            low = 0 if tier.min is None else min(max(tier.min - offset, 0), width)
            high = width if tier.max is None else max(min(tier.max - offset + 1, width), 0)
            if low >= high:
                continue
            index = names.index(tier.name)
            rows = slice(None) if tier.all_negative is None else int(tier.all_negative)
            cells[rows, low:high] = index if tier.passes else -2 - index
        flat = (np.where(cells <= -2, -2 - cells, cells) + 1).ravel()
        cells.setflags(write=False)
        found = cells, flat, bool((cells == -1).any())
        if key is not None:
            _CELLS.keep(key, found)
    return (names, *found)


def _tier_probabilities(mechanic: Mechanic, raw: RawDistribution, names, cells, flat,
                        unnamed: bool) -> Distribution:
    if unnamed:
        _named_everywhere(mechanic, raw, cells)
    probs = np.bincount(flat, weights=raw.table.ravel(), minlength=len(names) + 1)[1:]
    return Distribution(names, probs, trials=raw.trials)


def _joint_columns(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any]) -> dict:
    """The joint's columns and the parameters expressions may read, by name."""
    named = {name: (None if value is None else int(value)) for name, value in p.items()
             if isinstance(value, (bool, int)) or value is None}
    columns = raw.columns()
    clash = next((name for name in columns if name in p), None)
    if clash is not None:   # a Python roll's statistic read where the parameter was meant
        raise WorkbenchError(f"{mechanic.system_id}: the roll returns a statistic {clash!r} and the "
                             f"system has a parameter {clash!r}; a condition could not tell them "
                             "apart; allowed: different names")
    named.update(_choice_positions(mechanic, p))
    named.update(columns)
    return named


def _choice_positions(mechanic: Mechanic, p: Mapping[str, Any]) -> dict:
    """Parameters whose choices are words, as expressions read them: the choice's position."""
    statistics = getattr(mechanic, "statistics", None)
    texts = getattr(statistics, "texts", None) or {}
    return {name: (None if p.get(name) is None else list(choices).index(p[name]))
            for name, choices in texts.items() if name in p}


def _holds(expression, columns: dict, rows: int) -> np.ndarray:
    """Where a condition holds, one true/false per row (a true/false statistic read as one)."""
    value = evaluate(expression, columns)
    if value.shape != (rows,):
        value = np.broadcast_to(value, (rows,))
    return value if value.dtype == bool else value != 0


def _said(mechanic: Mechanic, where: str, expression, columns: dict, rows: int) -> np.ndarray:
    """:func:`_holds` for a condition of the system's own (``pass_if``, a tier's): a problem
    met while reading it names the system and which condition it is."""
    try:
        return _holds(expression, columns, rows)
    except WorkbenchError as exc:
        raise WorkbenchError(f"{mechanic.system_id}: {where} {exc}") from None


def _joint_tiers(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any],
                 columns: dict | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """Per row of the joint, the tier it falls in (its index in ``tier_names()``, -1: none)
    and whether that tier never passes (``None``: every tier that applies may pass);
    ``columns``: :func:`_joint_columns` when worked out already."""
    names = list(mechanic.tier_names())
    rows = len(raw.probabilities)
    cells = np.full(rows, -1)
    rules = mechanic.tier_rules(p)
    blocked = None if all(tier.passes for tier in rules) else np.zeros(rows, dtype=bool)
    if columns is None:
        columns = _joint_columns(mechanic, raw, p)
    total = columns["total"]
    for tier in reversed(rules):   # painted last to first: the first that fits wins
        mask = None   # every row, until a part of the tier's rule narrows it
        if tier.min is not None:
            mask = total >= tier.min
        if tier.max is not None:
            mask = _narrowed(mask, total <= tier.max)
        if getattr(tier, "condition", None):
            mask = _narrowed(mask, _said(mechanic, f"tier {tier.name!r} condition",
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


def tiers(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any]) -> Distribution | None:
    """The tier distribution, or ``None`` for a system without tiers."""
    custom = getattr(mechanic, "tiers", None)
    if custom is not None:
        found = custom(raw, p)
        return None if found is None else _checked_distribution(mechanic, "tiers(raw, p)", found, raw)
    if not mechanic.tier_names():
        return None
    if isinstance(raw, JointDistribution):
        return _joint_tier_distribution(mechanic, raw, _joint_tiers(mechanic, raw, p)[0])
    return _tier_probabilities(mechanic, raw, *_tier_cells(mechanic, raw, p))


def _joint_tier_distribution(mechanic: Mechanic, raw: JointDistribution, cells: np.ndarray) -> Distribution:
    """The tier distribution of a roll with statistics, each row's tier known (``cells``,
    as :func:`_joint_tiers` gives them)."""
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


def _at_least(raw: RawDistribution, total: int) -> float:
    """P(total >= ``total``), one look-up in the raw table's tail sums."""
    tail = raw.at_least_floats
    column = total - raw.offset
    if column <= 0:
        return tail[0] if tail else 0.0
    return tail[column] if column < len(tail) else 0.0


def p_pass(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any]) -> float | None:
    """P(pass): the total reaches the target (outside tiers that never pass), or the outcome
    is at or after the first passing label; ``None`` when the check has neither."""
    custom = getattr(mechanic, "p_pass", None)
    if custom is not None:
        return _checked_probability(mechanic, custom(raw, p), raw)
    if isinstance(raw, JointDistribution):
        return _joint_p_pass(mechanic, raw, p)
    return declared_p_pass(mechanic, raw, p, checked_target(mechanic, p))


def declared_p_pass(mechanic: Mechanic, raw: RawDistribution, p: Mapping[str, Any],
                     target: int | None, cells=None) -> float | None:
    """:func:`p_pass` by the declared reading, the target (and the tier cells) known (for
    mechanics whose target needs no checking: the data-defined ones check their own)."""
    if isinstance(raw, JointDistribution):   # a roll's statistics: conditions, tiers by row
        return _joint_p_pass(mechanic, raw, p)
    if target is None:
        pass_from = mechanic.pass_from
        if pass_from is None or mechanic.labels is None:
            return None
        return _at_least(raw, mechanic.labels.index(pass_from))
    if not mechanic.tier_names():
        return _at_least(raw, target)
    first = min(max(target - raw.offset, 0), raw.table.shape[1])
    if cells is None:
        cells = _tier_cells(mechanic, raw, p)[1]
    return float(raw.table[:, first:][cells[:, first:] > -2].sum())


def _joint_p_pass(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any],
                  columns: dict | None = None, tiers_read: tuple | None = None) -> float | None:
    """P(pass) of a roll with statistics: its ``pass_if`` condition (else total >= target, or
    the first passing label), outside tiers that never pass. ``columns`` and ``tiers_read``:
    :func:`_joint_columns` and :func:`_joint_tiers` when worked out already."""
    condition = getattr(mechanic, "pass_condition", None)
    if condition is not None:
        if columns is None:
            columns = _joint_columns(mechanic, raw, p)
        passing = _said(mechanic, "pass_if", condition, columns, len(raw.probabilities))
    else:
        target = checked_target(mechanic, p)
        if target is None:
            pass_from = mechanic.pass_from
            if pass_from is None or mechanic.labels is None:
                return None
            target = mechanic.labels.index(pass_from)
        passing = raw.column("total") >= target
    if mechanic.tier_names():
        blocked = (tiers_read or _joint_tiers(mechanic, raw, p, columns))[1]
        if blocked is not None:
            passing = passing & ~blocked
    return min(float(raw.probabilities[passing].sum()), 1.0)   # rounding may sum past 1


def probability(mechanic: Mechanic, raw: "RawDistribution | JointDistribution",
                p: Mapping[str, Any], condition) -> float:
    """P(``condition``) (a parsed condition over the statistics and the parameters; a system
    without statistics knows ``total`` only)."""
    if isinstance(raw, JointDistribution):
        holds = _holds(condition, _joint_columns(mechanic, raw, p), len(raw.probabilities))
        return float(raw.probabilities[holds].sum())
    columns = {name: (None if value is None else int(value)) for name, value in p.items()
               if isinstance(value, (bool, int)) or value is None}
    columns.update(_choice_positions(mechanic, p))
    columns["total"] = raw.totals
    return float(raw.pmf[_holds(condition, columns, len(raw.pmf))].sum())


def joint(system: System, raw: JointDistribution, params: Mapping[str, Any]) -> Joint:
    """The check's statistics together, as a result."""
    statistics = getattr(system.mechanic, "statistics", None)
    flags = tuple(statistics.flags) if statistics is not None else ()
    texts = dict(getattr(statistics, "texts", None) or {})
    return Joint(raw.names, raw.values, raw.probabilities, trials=raw.trials, parameters=dict(params),
                 flags=flags, texts=texts)


def check_result(system: System, raw: RawDistribution, params: Mapping[str, Any],
                 method: str = "exact", seed: int | None = None, later=None) -> CheckResult:
    """Read a raw distribution (exact or simulated) as ``system``'s check result. ``later``:
    when ``raw`` holds only the statistics :func:`wanted` names, what gives them all (on first
    use of the result's ``stats``, ``joint`` or ``probability``)."""
    mechanic = system.mechanic
    raw = as_read(mechanic, params, raw)
    found = mechanic.extra(params)
    if type(found) is not dict and not isinstance(found, Mapping):   # a dict: at once
        raise WorkbenchError(f"{mechanic.system_id}: extra(p) returned {shown(found)}; allowed: a "
                             "dict of facts to show beside the result")
    pmf, extra = outcomes(mechanic, raw), dict(found)
    target = checked_target(mechanic, params)
    if target is not None and pmf.numeric and len(pmf):
        # The margin (total - target; net - Ob in Arrata) of a direct check.
        if getattr(mechanic, "outcomes", None) is None and not isinstance(raw, JointDistribution):
            # totals: consecutive whole numbers
            extra["margin"] = Distribution.of_totals(pmf.outcomes[0] - target, pmf.probabilities,
                                                     raw.trials)
        else:
            extra["margin"] = Distribution(tuple(int(o) - target for o in pmf.outcomes),
                                           pmf.probabilities, trials=raw.trials)
    if isinstance(raw, JointDistribution):   # a roll's statistics: each one's marginal too
        tier_dist, passed = _joint_readings(mechanic, raw, params)
        if later is not None:   # the statistics this reading did not need: on first use
            whole = (lambda: joint(system, as_read(mechanic, params, later()), params))
            return CheckResult(system=system.id, params=dict(params), pmf=pmf, tiers=tier_dist,
                               p_pass=passed, lost_mass=raw.lost_mass, method=method,
                               trials=raw.trials, seed=seed, extra=extra, later=whole)
        return CheckResult(system=system.id, params=dict(params), pmf=pmf, tiers=tier_dist,
                           p_pass=passed, lost_mass=raw.lost_mass, method=method, trials=raw.trials,
                           seed=seed, extra=extra, given_joint=joint(system, raw, params))
    cells, tier_dist = None, None
    if getattr(mechanic, "tiers", None) is not None:
        tier_dist = tiers(mechanic, raw, params)
    elif mechanic.tier_names():
        names, cells, flat, unnamed = _tier_cells(mechanic, raw, params)
        tier_dist = _tier_probabilities(mechanic, raw, names, cells, flat, unnamed)
    if getattr(mechanic, "p_pass", None) is not None:
        passed = p_pass(mechanic, raw, params)
    else:
        passed = declared_p_pass(mechanic, raw, params, target, cells)
    passed = _as_probability(passed, raw.trials)
    return CheckResult(system=system.id, params=dict(params), pmf=pmf, tiers=tier_dist,
                       p_pass=passed, lost_mass=raw.lost_mass, method=method, trials=raw.trials,
                       seed=seed, extra=extra)


def _joint_readings(mechanic: Mechanic, raw: JointDistribution, p: Mapping[str, Any]):
    """``(tiers, P(pass))`` of a roll with statistics, as :func:`tiers` and :func:`p_pass`
    give them, the columns and each row's tier worked out once for both."""
    if getattr(mechanic, "tiers", None) is not None or getattr(mechanic, "p_pass", None) is not None:
        return tiers(mechanic, raw, p), p_pass(mechanic, raw, p)
    columns = _joint_columns(mechanic, raw, p)
    tiers_read = _joint_tiers(mechanic, raw, p, columns) if mechanic.tier_names() else None
    tier_dist = None if tiers_read is None else _joint_tier_distribution(mechanic, raw, tiers_read[0])
    return tier_dist, _joint_p_pass(mechanic, raw, p, columns, tiers_read)


def wanted(mechanic: Mechanic, params: Mapping[str, Any]) -> "frozenset[str] | None":
    """The statistics a check's outcomes, tiers and P(pass) read for a system described in a
    data file: the total, and the names its ``pass_if`` and the conditions of the tiers that
    apply read (``None``: every statistic, for a mechanic that reads results itself)."""
    statistics = getattr(mechanic, "statistics", None)
    if statistics is None or any(getattr(mechanic, name, None) is not None for name in ("outcomes", "tiers", "p_pass")):
        return None
    names = {"total"}
    condition = getattr(mechanic, "pass_condition", None)
    if condition is not None:
        names |= set(condition.names)
    for tier in mechanic.tier_rules(params):
        if getattr(tier, "condition", None):
            names |= set(mechanic.condition(tier.condition).names)
        if getattr(tier, "all_negative", None) is not None:
            names.add(ALL_NEGATIVE)
    return frozenset(names)


def as_read(mechanic: Mechanic, params: Mapping[str, Any], raw):
    """The engine's answer as the system reads it: a sum of dice (the engine's fast path) of
    a data file that reads its checks as statistics or conditions comes as their joint."""
    if isinstance(raw, RawDistribution) and getattr(mechanic, "statistics", None) is not None:
        names = ("total", ALL_NEGATIVE) if getattr(mechanic, "reads_all_negative", False) else ("total",)
        return raw.as_joint(names)
    return raw


# -- what a mechanic written in Python reads, checked once ------------------------------------
SHARE_TOLERANCE = 1e-9
"""How far a reading's shares may stray from the check's whole probability (float noise)."""


def _as_probability(p: float | None, trials: int | None) -> float | None:
    """A probability summed from a table, without the float noise of the sum: within 0 and 1
    (a long tail summed may pass 1 by 1e-14), and for a simulation the share of trials it
    counts (passes / trials exactly: 2e6 passes of 2e6 trials are 1, not 1.0000000000000002)."""
    if p is None:
        return None
    if trials:
        p = round(p * trials) / trials
    return min(max(float(p), 0.0), 1.0)


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
    if type(target) is int and -MAX_TOTAL <= target <= MAX_TOTAL:   # the usual case, at once
        return target
    if isinstance(target, (bool, np.bool_)) or not isinstance(target, (int, np.integer)) \
            or abs(target) > MAX_TOTAL:
        raise WorkbenchError(f"{mechanic.system_id}: target(p) returned {shown(target)} for "
                             f"{shown(dict(p))}; allowed: None or a whole number from "
                             f"-{MAX_TOTAL:,} to {MAX_TOTAL:,}")
    return int(target)
