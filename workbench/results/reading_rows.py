"""Reading a small joint (a few dozen rows: what a check's reading needs of its statistics)
row by row in plain Python: the same outcomes, tiers and P(pass) as
:mod:`.reading_statistics` reads with numpy, number for number.

On a joint of a few dozen rows, each numpy call costs more than the work it does; here the
joint is read once as Python lists (:func:`rows_of`), a condition comparing a statistic with
a number or a parameter is read over them (:func:`~workbench.rules.expressions.compared_rows`;
any other condition is evaluated over the columns as everywhere), and the rest is a loop over
the rows. Probabilities are added in the order numpy adds them (each tier's and each total's
rows one after another from 0.0, as ``np.bincount`` does; P(pass) as numpy's ``sum`` adds,
:func:`numpy_sum`), so every number is the one the numpy reading gives. Anything unusual (no
rows, totals far apart, rolls outside every tier) is read by :mod:`.reading_statistics` and
:mod:`.reading`, as before.

Example:
    >>> import workbench
    >>> from workbench.engine import exact_distribution
    >>> from workbench.results import reading_statistics
    >>> alien = workbench.system("alien-rpg")
    >>> p = alien.resolve()
    >>> raw = exact_distribution(alien.pool())
    >>> rules = alien.mechanic.reading_rules(p)
    >>> mine = readings(rules, raw, rows_of(raw), rules.target)
    >>> mine[1] == reading_statistics.readings(rules, raw, rules.target)[1]
    True
"""
from __future__ import annotations

from itertools import compress
from typing import NamedTuple

import numpy as np

from ..engine.joint import JointDistribution
from ..rules.expressions import compared_rows
from ..rules.mechanics.base import ReadingRules, TierLayout
from ..rules.roll import ALL_NEGATIVE
from . import reading_statistics
from .checked import UNNAMED, checked_target
from .conditions import condition_columns, said, tier_condition
from .distribution import SPARSE_SPAN, Distribution

SMALL_ROWS = 64
"""Joints of at most this many rows are read here (past it, numpy's calls pay for themselves)."""


class Rows(NamedTuple):
    """A small joint as Python lists: each statistic's column by name, and the probabilities."""

    columns: dict[str, list[int]]
    probabilities: list[float]


def _rows(fields: tuple) -> Rows:
    """:class:`Rows` of its fields in order (made at once: one per check)."""
    return tuple.__new__(Rows, fields)


def rows_of(raw) -> Rows | None:
    """``raw`` read as :class:`Rows` when it is a joint of a few rows (at least one), else
    ``None`` (read with numpy)."""
    if type(raw) is not JointDistribution or not 0 < len(raw.probabilities) <= SMALL_ROWS:
        return None
    return _rows((dict(zip(raw.names, raw.values.T.tolist())), raw.probabilities.tolist()))


def totals_pmf(rows: Rows, trials: int | None) -> Distribution | None:
    """The distribution of a small joint's totals, every whole number from the least to the
    greatest, as ``Distribution.of_totals(raw.offset, raw.pmf, trials)`` gives it; ``None``
    when its totals span more than :data:`~.distribution.SPARSE_SPAN` whole numbers (read as
    the possible ones only)."""
    totals = rows.columns["total"]
    low, high = min(totals), max(totals)
    if high - low + 1 > SPARSE_SPAN:
        return None
    dense = [0.0] * (high - low + 1)
    for total, p in zip(totals, rows.probabilities):   # row by row, as np.bincount adds
        dense[total - low] += p
    return Distribution.of_read(tuple(range(low, high + 1)), dense, trials, numeric=True)


def readings(rules: ReadingRules, raw: JointDistribution, rows: Rows,
             target: int | None) -> tuple[Distribution | None, float | None]:
    """``(tiers, P(pass))`` of a small joint (``rows``: it as :func:`rows_of` reads it), as
    :func:`.reading_statistics.readings` gives them (and refused as it refuses them)."""
    lists, probabilities = rows.columns, rows.probabilities
    named = condition_columns(rules, raw, lists)
    totals = lists["total"]
    names, tier_dist, blocked = rules.tier_names, None, None
    if names:
        tiers = rules.tier_rules
        # Each tier's rows (read last to first, as numpy's painting reads them: the same
        # condition refused first), then each row's tier: the first that fits it.
        fits, every = [], None
        for tier in reversed(tiers):
            text = getattr(tier, "condition", None)
            found = None
            if tier.min is None and tier.max is None and getattr(tier, "all_negative", None) is None:
                if text:
                    found = compared_rows(tier_condition(rules, text), named)   # (the usual: at once)
                else:   # a tier without a rule (the last, usually) fits every row
                    found = every = every or [True] * len(probabilities)
            fits.append(found if found is not None else _fits(rules, raw, tier, named, lists))
        fits.reverse()
        listed = list(names)
        index = [listed.index(tier.name) for tier in tiers]
        never = [not tier.passes for tier in tiers]
        blocked = [] if True in never else None
        shares, unnamed = [0.0] * len(names), False
        every_row = zip(*fits) if fits else [()] * len(probabilities)
        if fits and fits[-1] is every:   # the last tier fits every row (the usual)
            condition = rules.pass_condition
            passing = compared_rows(condition, named) if condition is not None else \
                None if target is None else [total >= target for total in totals]
            if passing is not None:   # each row's tier and pass at once
                passed = []
                for flags, p, holds in zip(every_row, probabilities, passing):
                    first = flags.index(True)
                    shares[index[first]] += p   # row by row, as np.bincount adds
                    if holds and not never[first]:
                        passed.append(p)
                return _tiers(names, shares, raw.trials), min(numpy_sum(passed), 1.0)
        if blocked is None and fits and fits[-1] is every:
            for flags, p in zip(every_row, probabilities):
                shares[index[flags.index(True)]] += p   # row by row, as np.bincount adds
        else:
            for flags, p in zip(every_row, probabilities):
                if True in flags:
                    first = flags.index(True)
                    shares[index[first]] += p   # row by row, as np.bincount adds
                    if blocked is not None:
                        blocked.append(never[first])
                else:   # in no tier: refused unless a trace of float noise
                    unnamed = unnamed or p > UNNAMED
                    if blocked is not None:
                        blocked.append(False)
        if unnamed:   # refused as numpy refuses it, naming the rows
            cells = [index[flags.index(True)] if True in flags else -1
                     for flags in (zip(*fits) if fits else [()] * len(probabilities))]
            reading_statistics.tier_distribution(rules, raw, np.array(cells))
        tier_dist = _tiers(names, shares, raw.trials)
    condition = rules.pass_condition
    if condition is not None:
        passing = _where(rules, raw, "pass_if", condition, named)
    else:
        if target is None:
            pass_from, labels = rules.pass_from, rules.labels
            if pass_from is None or labels is None:
                return tier_dist, None
            target = labels.index(pass_from)
        passing = [total >= target for total in totals]
    if blocked is not None:
        passed = [p for p, holds, never in zip(probabilities, passing, blocked) if holds and not never]
    else:
        passed = [p for p, holds in zip(probabilities, passing) if holds]
    return tier_dist, min(numpy_sum(passed), 1.0)


def laid_out(rules: ReadingRules, raw: JointDistribution, rows: Rows,
             layout: TierLayout) -> tuple[Distribution, int | None, Distribution, float | None] | None:
    """``(outcomes, target, tiers, P(pass))`` of a small joint whose tiers are ``layout``'s
    (the mechanic's ``tier_layout``, for the tiers of ``rules``) and whose outcomes are its
    totals, read in one pass over the rows: what :func:`totals_pmf`, the target checked
    (:func:`~.checked.checked_target`) and :func:`readings` give, one after another (and
    refused as they refuse it); ``None`` when the totals span more than
    :data:`~.distribution.SPARSE_SPAN` whole numbers, or some roll is in no tier (read tier by
    tier then: refused, or a trace of float noise left out).

    Each tier's condition is read over the rows (last to first, as the tiers are read one by
    one), each row's tier is the first that fits it, and its pass is read by ``pass_if``, else
    by the total against the target (or the first passing label).

    Example:
        >>> import workbench
        >>> from workbench.engine import exact_distribution
        >>> ironsworn = workbench.system("ironsworn")
        >>> p = ironsworn.resolve(stat=2)
        >>> raw = exact_distribution(ironsworn.pool(stat=2), frozenset({"total", "beaten"}))
        >>> rules = ironsworn.mechanic.reading_rules(p, facts=True)
        >>> pmf, target, tiers, passed = laid_out(rules, raw, rows_of(raw), ironsworn.mechanic.tier_layout)
        >>> readings(rules, raw, rows_of(raw), target) == (tiers, passed), pmf == totals_pmf(rows_of(raw), None)
        (True, True)
    """
    lists, probabilities = rows.columns, rows.probabilities
    totals = lists["total"]
    low, high = min(totals), max(totals)
    if high - low + 1 > SPARSE_SPAN:
        return None
    target = checked_target(rules)
    named = condition_columns(rules, raw, lists)
    # Each tier's rows (read last to first, as the tiers are read one by one: the same
    # condition refused first), then each row's tier: the first that fits it.
    fits, k = [], len(layout.steps)
    for step in layout.steps:
        k -= 1
        if step is None:   # no rule: every row
            fits.append(None)
            continue
        condition, least, greatest = step
        if condition is not None:
            found = compared_rows(condition, named)   # (the usual: at once)
            fits.append(found if found is not None else _fits(rules, raw, layout.tiers[k], named, lists))
        elif greatest is None:
            fits.append([total >= least for total in totals])
        elif least is None:
            fits.append([total <= greatest for total in totals])
        else:
            fits.append([least <= total <= greatest for total in totals])
    positions = layout.positions
    covers = layout.covers   # the last tier: every row the others leave
    tier_of = [positions[-1] if covers else -1] * len(probabilities)   # each row's tier's position
    every = range(len(probabilities))
    k = len(fits)
    for fit in fits:   # each tier over the rows it fits, the earlier tiers painted last
        k -= 1
        if fit is None:   # (the last tier's rows are those it starts with)
            if k != len(fits) - 1:
                tier_of = [positions[k]] * len(probabilities)
            continue
        position = positions[k]
        for row in compress(every, fit):
            tier_of[row] = position
    if not covers and -1 in tier_of:   # rolls in no tier: read (or refused) tier by tier
        return None
    dense, shares = [0.0] * (high - low + 1), [0.0] * len(rules.tier_names)
    for total, position, p in zip(totals, tier_of, probabilities):   # row by row, as np.bincount adds
        dense[total - low] += p
        shares[position] += p
    pmf = Distribution.of_read(tuple(range(low, high + 1)), dense, raw.trials, numeric=True)
    tiers = Distribution.of_read(rules.tier_names, shares, raw.trials) if layout.plain_names \
        else _tiers(rules.tier_names, shares, raw.trials)
    condition = rules.pass_condition
    if condition is not None:
        passing = _where(rules, raw, "pass_if", condition, named)
    else:
        least = target
        if least is None:   # the first passing label's position
            pass_from, labels = rules.pass_from, rules.labels
            if pass_from is None or labels is None:
                return pmf, target, tiers, None
            least = labels.index(pass_from)
        passing = [total >= least for total in totals]
    never = layout.never
    if never is None:
        passed = list(compress(probabilities, passing))
    else:
        passed = [p for p, position, holds in zip(probabilities, tier_of, passing) if holds and not never[position]]
    return pmf, target, tiers, min(numpy_sum(passed), 1.0)


def _where(rules: ReadingRules, raw: JointDistribution, what: str, expression, named: dict) -> list[bool]:
    """Where a condition of the system's holds, row by row: over the lists when it compares
    two leaves, else evaluated over the columns (and refused, naming ``what``)."""
    found = compared_rows(expression, named)
    if found is None:
        found = said(rules, what, expression, condition_columns(rules, raw), len(raw.probabilities)).tolist()
    return found


def _fits(rules: ReadingRules, raw: JointDistribution, tier, named: dict, lists: dict) -> list[bool]:
    """The rows a tier's rule fits (its range of totals, its condition, all negative)."""
    mask = None   # every row, until a part of the tier's rule narrows it
    totals = lists["total"]
    if tier.min is not None:
        mask = [total >= tier.min for total in totals]
    if tier.max is not None:
        mask = _narrowed(mask, [total <= tier.max for total in totals])
    if getattr(tier, "condition", None):
        mask = _narrowed(mask, _where(rules, raw, f"tier {tier.name!r} condition",
                                      tier_condition(rules, tier.condition), named))
    if getattr(tier, "all_negative", None) is not None:
        column = lists.get(ALL_NEGATIVE)
        if column is None:
            raw.column(ALL_NEGATIVE)   # (refused, naming the statistics there are)
        flag = int(tier.all_negative)
        mask = _narrowed(mask, [value == flag for value in column])
    return [True] * len(totals) if mask is None else mask


def _tiers(names: tuple, shares: list[float], trials: int | None) -> Distribution:
    """The tiers' distribution: names that are texts, each once (the usual), made at once;
    any others checked as every distribution is."""
    if type(names) is tuple and {*map(type, names)} == {str} and len(set(names)) == len(names):
        return Distribution.of_read(names, shares, trials)
    return Distribution(names, np.array(shares), trials=trials)


def _narrowed(mask: list | None, holds: list) -> list:
    return holds if mask is None else [a and b for a, b in zip(mask, holds)]


def numpy_sum(values: list[float]) -> float:
    """The sum of ``values`` as numpy's ``sum`` of a float64 array adds them (pairwise), so a
    probability summed here is the one the numpy reading gives, to the last bit: numpy adds
    them (its order of additions is its own, and may change between its versions).

    Example:
        >>> values = [0.1] * 10
        >>> numpy_sum(values) == float(np.array(values).sum()) != sum(values)
        True
    """
    return float(np.add.reduce(np.array(values, dtype=float)))
