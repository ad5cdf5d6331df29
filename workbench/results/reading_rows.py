"""Reading a small joint (a few dozen rows: what a check's reading needs of its statistics)
row by row in plain Python: the same outcomes, tiers and P(pass) as
:mod:`.reading_statistics` reads with numpy, number for number.

On a joint of a few dozen rows, each numpy call costs more than the work it does; here the
joint's total column and probabilities are read once as Python lists, the conditions
(``pass_if``, the tiers') are evaluated over the columns as everywhere (the one
interpreter), and the rest is a loop over the rows. Probabilities are added in the order
numpy adds them (each tier's and each total's rows one after another, from 0.0, as
``np.bincount`` does; P(pass) summed by numpy itself), so every number is the one the numpy
reading gives. Anything unusual (no rows, totals far apart, rolls outside every tier) is
read by :mod:`.reading_statistics` and :mod:`.reading`, as before.

Example:
    >>> import workbench
    >>> from workbench.engine import exact_distribution
    >>> alien = workbench.system("alien-rpg")
    >>> p = alien.resolve()
    >>> raw = exact_distribution(alien.pool())
    >>> rules = alien.mechanic.reading_rules(p)
    >>> readings(rules, raw, rules.target)[1] == reading_statistics.readings(rules, raw, rules.target)[1]
    True
"""
from __future__ import annotations

import numpy as np

from ..engine.joint import JointDistribution
from ..rules.mechanics.base import ReadingRules
from ..rules.roll import ALL_NEGATIVE
from . import reading_statistics
from .conditions import condition_columns, said, tier_condition
from .distribution import SPARSE_SPAN, Distribution

SMALL_ROWS = 64
"""Joints of at most this many rows are read here (past it, numpy's calls pay for themselves)."""


def small(raw) -> bool:
    """Whether ``raw`` is a joint read here: a few rows, at least one."""
    return type(raw) is JointDistribution and 0 < len(raw.probabilities) <= SMALL_ROWS


def totals_pmf(raw: JointDistribution) -> tuple[int, np.ndarray] | None:
    """``(least total, P(each total from it to the greatest))`` of a small joint, as its
    ``offset`` and ``pmf`` give them; ``None`` when its totals span more than
    :data:`~.distribution.SPARSE_SPAN` whole numbers (read as the possible ones only)."""
    totals = raw.column("total").tolist()
    low, high = min(totals), max(totals)
    if high - low + 1 > SPARSE_SPAN:
        return None
    dense = [0.0] * (high - low + 1)
    for total, p in zip(totals, raw.probabilities.tolist()):   # row by row, as np.bincount adds
        dense[total - low] += p
    probabilities = np.array(dense)
    probabilities.setflags(write=False)
    return low, probabilities


def readings(rules: ReadingRules, raw: JointDistribution,
             target: int | None) -> tuple[Distribution | None, float | None]:
    """``(tiers, P(pass))`` of a small joint, as :func:`.reading_statistics.readings` gives
    them (and refused as it refuses them)."""
    columns = condition_columns(rules, raw)
    rows = len(raw.probabilities)
    names = rules.tier_names
    blocked = None
    if names:
        tiers = rules.tier_rules
        totals = columns["total"].tolist()
        fits: list = []
        for tier in reversed(tiers):   # (read last to first, as numpy's painting reads them)
            mask = None   # every row, until a part of the tier's rule narrows it
            if tier.min is not None:
                mask = [total >= tier.min for total in totals]
            if tier.max is not None:
                mask = _narrowed(mask, [total <= tier.max for total in totals])
            if getattr(tier, "condition", None):
                mask = _narrowed(mask, said(rules, f"tier {tier.name!r} condition",
                                            tier_condition(rules, tier.condition), columns, rows).tolist())
            if getattr(tier, "all_negative", None) is not None:
                mask = _narrowed(mask, (raw.column(ALL_NEGATIVE) == int(tier.all_negative)).tolist())
            fits.append([True] * rows if mask is None else mask)
        fits.reverse()
        # Each row's tier: the first that fits it (-1: none)
        listed = list(names)
        index = [listed.index(tier.name) for tier in tiers]
        firsts = [flags.index(True) if True in flags else -1 for flags in zip(*fits)] if tiers else [-1] * rows
        cells = [-1 if first < 0 else index[first] for first in firsts]
        if not all(tier.passes for tier in tiers):
            blocked = [first >= 0 and not tiers[first].passes for first in firsts]
        if -1 in cells:   # rolls outside every tier: refused (or left out) as numpy reads them
            tier_dist = reading_statistics.tier_distribution(rules, raw, np.array(cells))
        else:
            shares = [0.0] * len(names)
            for cell, p in zip(cells, raw.probabilities.tolist()):   # row by row, as np.bincount adds
                shares[cell] += p
            tier_dist = Distribution(names, np.array(shares), trials=raw.trials)
    else:
        tier_dist = None
    condition = rules.pass_condition
    if condition is not None:
        passing = said(rules, "pass_if", condition, columns, rows)
    else:
        if target is None:
            pass_from, labels = rules.pass_from, rules.labels
            if pass_from is None or labels is None:
                return tier_dist, None
            target = labels.index(pass_from)
        passing = columns["total"] >= target
    if blocked is not None:
        passing = [holds and not never for holds, never in zip(passing.tolist(), blocked)]
    return tier_dist, min(float(raw.probabilities[np.asarray(passing, dtype=bool)].sum()), 1.0)


def _narrowed(mask: list | None, holds: list) -> list:
    return holds if mask is None else [a and b for a, b in zip(mask, holds)]
