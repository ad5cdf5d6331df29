"""Reading the engine's raw totals as a system's result: outcomes, tiers, P(pass).

The rules layer says *how* a check reads (outcome labels, the target, tier ranges, the first
passing label), all of it in one record per check
(:meth:`~workbench.rules.mechanics.base.Mechanic.reading_rules`, asked once at the start of a
reading); the engine computes the distribution of totals; this module puts the two together
into a :class:`~workbench.results.check.CheckResult`. A mechanic written in Python
may read its results itself by defining ``outcomes(raw)``, ``tiers(raw, p)`` or
``p_pass(raw, p)``; those are called instead of the declared readings, and what they return
is checked once (:mod:`.checked`).

Both raw types answer the same questions (the least and greatest total, the total's
marginal, columns and their probabilities, the probability held), so outcomes and conditions
are read here once. Tiers and P(pass) are read one way for a table of totals
(:mod:`.reading_totals`: slices of the table, tail sums) and another for rows of statistics
(:mod:`.reading_statistics`: conditions row by row); :func:`model` names the module that
reads a raw type, the one place that tells them apart.

Example:
    >>> import workbench
    >>> from workbench.engine import exact_distribution
    >>> uwr = workbench.system("uwr")
    >>> params = uwr.resolve(dice=2, target=1)
    >>> round(check_result(uwr, exact_distribution(uwr.pool(dice=2)), params).p_pass, 4)
    0.5556
"""
from __future__ import annotations

from functools import singledispatch
from typing import Any, Mapping

import numpy as np

from ..engine.joint import JointDistribution
from ..engine.raw import RawDistribution
from ..errors import WorkbenchError, shown
from ..limits import MAX_TOTALS
from ..rules.mechanics.base import Mechanic, ReadingRules
from ..rules.roll import ALL_NEGATIVE
from ..rules.system import System
from . import reading_rows, reading_statistics, reading_totals
from .check import CheckResult
from .checked import (SHARE_TOLERANCE, UNNAMED, checked_distribution,  # noqa: F401 (public here)
                      checked_extra, checked_probability, checked_target)
from .conditions import condition_columns, holds, tier_condition
from .distribution import SPARSE_SPAN, Distribution, possible_only
from .reading_statistics import joint  # noqa: F401 (public here)


@singledispatch
def model(raw):
    """The module that reads tiers and P(pass) off ``raw``: :mod:`.reading_totals` for a
    table of totals, :mod:`.reading_statistics` for rows of statistics.

    Example:
        >>> from workbench.engine import RawDistribution
        >>> import numpy as np
        >>> model(RawDistribution(0, np.ones((2, 1)) / 2)).__name__
        'workbench.results.reading_totals'
    """
    raise WorkbenchError(f"a raw distribution got {shown(raw)}; allowed: the engine's "
                         "RawDistribution or JointDistribution")


model.register(RawDistribution, lambda raw: reading_totals)
model.register(JointDistribution, lambda raw: reading_statistics)
_READERS = {RawDistribution: reading_totals, JointDistribution: reading_statistics}
"""What :func:`model` gives for each raw type itself (found at once, a check reads one)."""


def outcomes(mechanic: Mechanic, raw, rules: ReadingRules | None = None,
             rows: reading_rows.Rows | None = None) -> Distribution:
    """The distribution of outcomes: totals, or the outcome labels the totals index
    (``rules``: the check's reading rules when gathered already; ``rows``: a small joint read
    as lists, :func:`.reading_rows.rows_of`)."""
    custom = getattr(mechanic, "outcomes", None)
    if custom is not None:
        return checked_distribution(mechanic, "outcomes(raw)", custom(raw), raw)
    reader = mechanic if rules is None else rules
    labels = reader.labels
    if labels is None:
        if rows is not None:   # a few rows: their totals added in plain Python
            found = reading_rows.totals_pmf(rows, raw.trials)
            if found is not None:
                return found
        span = _checked_span(reader, raw)
        if span is not None and span[1] - span[0] + 1 > SPARSE_SPAN:   # else every total is listed
            totals, probs = raw.marginal("total")
            if len(totals) and possible_only(len(totals), int(totals[-1] - totals[0]) + 1):
                # Totals far apart (a count times 1000): the possible ones only, not a
                # table of millions of impossible totals between them.
                return Distribution(tuple(int(t) for t in totals), probs, raw.trials)
        return Distribution.of_totals(raw.offset, raw.pmf, raw.trials)
    totals = raw.totals
    if len(totals) and (totals[0] < 0 or totals[-1] >= len(labels)):
        source = getattr(reader, "source", None)
        raise WorkbenchError(
            f"{reader.system_id}{f' ({source})' if source else ''}: these parameters give totals "
            f"{totals[0]} to {totals[-1]}, but [outcome] labels name the totals 0 to {len(labels) - 1} "
            f"({', '.join(map(repr, labels))}); allowed: parameters whose totals stay within the "
            "labels (fewer dice), or a label for every total")
    probs = np.zeros(len(labels))
    probs[totals] = raw.pmf
    return Distribution(tuple(labels), probs, trials=raw.trials)


def _checked_span(mechanic: Mechanic | ReadingRules, raw) -> tuple[int, int] | None:
    """The least and greatest total, refused before a table of totals wider than MAX_TOTALS
    is laid out (a total such as ``hits * 400000000`` has three values, but a table from the
    least to the greatest would hold 800 million)."""
    span = raw.total_span
    if span is not None and span[1] - span[0] + 1 > MAX_TOTALS:
        low, high = span
        raise WorkbenchError(f"{mechanic.system_id}: totals run from {low:,} to {high:,}, "
                             f"{high - low + 1:,} values, more than the {MAX_TOTALS:,} one table "
                             "holds; allowed: a total whose values lie closer together (scale it "
                             "down, e.g. with //)")
    return span


def tiers(mechanic: Mechanic, raw, p: Mapping[str, Any],
          rules: ReadingRules | None = None) -> Distribution | None:
    """The tier distribution, or ``None`` for a system without tiers (``rules``: the check's
    reading rules when gathered already)."""
    custom = getattr(mechanic, "tiers", None)
    if custom is not None:
        found = custom(raw, p)
        return None if found is None else checked_distribution(mechanic, "tiers(raw, p)", found, raw)
    if rules is None:
        rules = mechanic.reading_rules(p, target="given")
    if not rules.tier_names:
        return None
    return model(raw).tiers(rules, raw)


def p_pass(mechanic: Mechanic, raw, p: Mapping[str, Any],
           rules: ReadingRules | None = None) -> float | None:
    """P(pass): the total reaches the target (outside tiers that never pass), or the outcome
    is at or after the first passing label; ``None`` when the check has neither (``rules``:
    the check's reading rules, the target read, when gathered already)."""
    custom = getattr(mechanic, "p_pass", None)
    if custom is not None:
        return checked_probability(mechanic, custom(raw, p), raw)
    read = model(raw)
    if rules is None:
        rules = mechanic.reading_rules(p, target=read.TARGET)
    return read.p_pass(rules, raw, checked_target(rules))


def declared_p_pass(mechanic: Mechanic, raw, p: Mapping[str, Any], target: int | None) -> float | None:
    """:func:`p_pass` by the declared reading, the target known (for mechanics whose target
    needs no checking: the data-defined ones check their own)."""
    return model(raw).p_pass(mechanic.reading_rules(p, target="given"), raw, target)


def probability(mechanic: Mechanic, raw, p: Mapping[str, Any], condition) -> float:
    """P(``condition``) (a parsed condition over the statistics and the parameters; a system
    without statistics knows ``total`` only)."""
    columns = condition_columns(mechanic.reading_rules(p, target="given"), raw)
    rows = holds(condition, columns, len(raw.probabilities))
    return float(raw.probabilities[rows].sum())


def check_result(system: System, raw, params: Mapping[str, Any],
                 method: str = "exact", seed: int | None = None, later=None) -> CheckResult:
    """Read a raw distribution (exact or simulated) as ``system``'s check result. ``later``:
    when ``raw`` holds only the statistics :func:`wanted` names, what gives them all (on first
    use of the result's ``stats``, ``joint`` or ``probability``)."""
    mechanic = system.mechanic
    if type(raw) is not JointDistribution:   # (a joint is read as it is)
        raw = as_read(mechanic, params, raw)
    rules = mechanic.reading_rules(params, facts=True)   # the one question to the rules
    extra = checked_extra(rules)
    rows = reading_rows.rows_of(raw)   # a few rows: read as Python lists
    layout = getattr(mechanic, "tier_layout", None)
    custom = getattr(mechanic, "tiers", None) is not None or getattr(mechanic, "p_pass", None) is not None
    found = None
    if rows is not None and layout is not None and layout.tiers is rules.tier_rules and rules.labels is None \
            and not custom and getattr(mechanic, "outcomes", None) is None:   # tiers laid out: in one pass
        found = reading_rows.laid_out(rules, raw, rows, layout)
    if found is not None:
        pmf, target, tier_dist, passed = found
    else:
        pmf = outcomes(mechanic, raw, rules, rows)
        target = checked_target(rules)
    if target is not None and pmf.numeric and len(pmf):
        extra["margin"] = _margin(pmf, target, raw.trials)
    read = _READERS.get(type(raw)) or model(raw)
    if found is None:
        if custom:
            tier_dist, passed = tiers(mechanic, raw, params, rules), p_pass(mechanic, raw, params, rules)
        elif rows is not None:   # a few rows of statistics: read in plain Python
            tier_dist, passed = reading_rows.readings(rules, raw, rows, target)
        else:   # the declared readings, sharing what both read
            tier_dist, passed = read.readings(rules, raw, target)
    if later is not None and read is reading_statistics:   # the statistics on first use
        return CheckResult.of_parts(
            system.id, dict(params), pmf, tier_dist, passed, raw.lost_mass, method, raw.trials, seed,
            extra, later=lambda: joint(system, as_read(mechanic, params, later()), params))
    whole = None if later is None else (lambda: joint(system, as_read(mechanic, params, later()), params))
    return CheckResult.of_parts(system.id, dict(params), pmf, tier_dist, read.kept_p_pass(passed, raw),
                               raw.lost_mass, method, raw.trials, seed, extra,
                               **read.statistics(system, raw, params, whole))


def _margin(pmf: Distribution, target: int, trials: int | None) -> Distribution:
    """The margin (total - target; net - Ob in Arrata) of a direct check."""
    first, last = pmf.outcomes[0], pmf.outcomes[-1]
    if last - first + 1 == len(pmf):   # consecutive totals: shifted as they are
        return Distribution.of_totals(first - target, pmf.probabilities, trials)
    return Distribution(tuple(int(o) - target for o in pmf.outcomes), pmf.probabilities, trials=trials)


def wanted(mechanic: Mechanic, params: Mapping[str, Any]) -> "frozenset[str] | None":
    """The statistics a check's outcomes, tiers and P(pass) read for a system described in a
    data file: the total, and the names its ``pass_if`` and the conditions of the tiers that
    apply read (``None``: every statistic, for a mechanic that reads results itself)."""
    if getattr(mechanic, "statistics", None) is None or getattr(mechanic, "outcomes", None) is not None \
            or getattr(mechanic, "tiers", None) is not None or getattr(mechanic, "p_pass", None) is not None:
        return None
    read = getattr(mechanic, "statistics_read", None)   # (a data file's: said by its rules)
    found = read(params) if read is not None else None
    return found if found is not None else read_by_rules(mechanic, params)


def read_by_rules(mechanic: Mechanic, params: Mapping[str, Any]) -> frozenset[str]:
    """:func:`wanted` read off the check's reading rules (a mechanic with statistics that
    does not say them itself)."""
    names = {"total"}
    rules = mechanic.reading_rules(params, target="given")
    if rules.pass_condition is not None:
        names.update(rules.pass_condition.names)
    for tier in rules.tier_rules:
        if getattr(tier, "condition", None):
            names.update(tier_condition(rules, tier.condition).names)
        if getattr(tier, "all_negative", None) is not None:
            names.add(ALL_NEGATIVE)
    return frozenset(names)


def as_read(mechanic: Mechanic, params: Mapping[str, Any], raw):
    """The engine's answer as the system reads it: a sum of dice (the engine's fast path) of
    a data file that reads its checks as statistics or conditions comes as their joint."""
    if type(raw) is JointDistribution:   # (a joint already: as it is)
        return raw
    if getattr(mechanic, "statistics", None) is not None:
        names = ("total", ALL_NEGATIVE) if getattr(mechanic, "reads_all_negative", False) else ("total",)
        return raw.as_joint(names)
    return raw
