"""Reading a table of totals (:class:`~workbench.engine.raw.RawDistribution`, the engine's
answer for a sum of dice): tiers as ranges of totals painted on the table, P(pass) as one
look-up in its tail sums.

The table has one column per total and two rows (every initial die failed or not), so a
tier's cells are a slice of it: they are worked out once per set of tiers and table shape
and kept (a sweep or a curve reads the same few tables over and over). A reading here gives
the same numbers as :mod:`.reading_statistics` would give for the table's rows, added in the
table's own order.

Example:
    >>> import workbench
    >>> from workbench.engine import exact_distribution
    >>> unnamed = workbench.system("unnamed")
    >>> p = unnamed.resolve(d6=2)
    >>> raw = exact_distribution(unnamed.pool(d6=2))
    >>> rules = unnamed.mechanic.reading_rules(p)
    >>> round(tiers(rules, raw)["Triumph"], 4), round(p_pass(rules, raw, rules.target), 4)
    (0.0, 0.4444)
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..engine.raw import RawDistribution
from ..errors import WorkbenchError, shown
from ..limits import BoundedCache
from ..rules.mechanics.base import ReadingRules
from .checked import UNNAMED, as_probability
from .distribution import Distribution

TARGET = "read"
"""The target this reading needs (:data:`~workbench.rules.mechanics.base.TARGET_READS`):
always, a pass being the total reaching it (or the first passing label without one)."""

_CELLS = BoundedCache()
"""Tier cells by what they depend on: the tiers' names and spans, and the table's place and
shape (a sweep or a curve reads the same few tables over and over)."""


def tier_cells(rules: ReadingRules, raw: RawDistribution):
    """Per (row, total) cell of the raw table, the tier it falls in: its index, or
    ``-2 - index`` for a tier that never passes; -1 outside every tier. Returns the tier
    names, the cells, per cell the tier's index + 1 (0 outside every tier), and whether any
    cell is outside every tier."""
    names, tiers = rules.tier_names, rules.tier_rules
    try:
        key = (names, tuple((t.name, t.min, t.max, t.all_negative, t.passes,
                             getattr(t, "condition", None)) for t in tiers),
               raw.offset, raw.table.shape)
        found = _CELLS.get(key)
    except (AttributeError, TypeError):   # not tiers at all: refused below, by name
        key = found = None
    if found is None:
        found = _painted(rules, raw, names, tiers)
        if key is not None:
            _CELLS.keep(key, found)
    return (names, *found)


def _painted(rules: ReadingRules, raw: RawDistribution, names: tuple, tiers) -> tuple:
    """The cells of :func:`tier_cells`, each tier painted on the slice of totals it spans."""
    offset, width = raw.offset, raw.table.shape[1]
    cells = np.full(raw.table.shape, -1)
    for tier in reversed(tiers):  # painted last to first: the first that fits wins
        if getattr(tier, "name", None) not in names:
            raise WorkbenchError(f"{rules.system_id}: tier_rules(p) gave a tier named "
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
    return cells, flat, bool((cells == -1).any())


def tier_probabilities(rules: ReadingRules, raw: RawDistribution, names, cells, flat,
                       unnamed: bool) -> Distribution:
    """The tier distribution, each cell's tier known (:func:`tier_cells`)."""
    if unnamed:
        _named_everywhere(rules, raw, cells)
    probs = np.bincount(flat, weights=raw.table.ravel(), minlength=len(names) + 1)[1:]
    return Distribution(names, probs, trials=raw.trials)


def _named_everywhere(rules: ReadingRules, raw: RawDistribution, cells: np.ndarray) -> None:
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
    source = rules.source
    where = f" (tiers of {source})" if source is not None else ""
    raise WorkbenchError(f"{rules.system_id}: totals {span} (together {share:.3g} of the rolls) "
                         f"fall in no tier with these parameters{where}; allowed: tiers that name "
                         "every total a check can reach (leave the lowest tier's min or the "
                         "highest tier's max out)")


def at_least(raw: RawDistribution, total: int) -> float:
    """P(total >= ``total``), one look-up in the raw table's tail sums."""
    tail = raw.at_least_floats
    column = total - raw.offset
    if column <= 0:
        return tail[0] if tail else 0.0
    return tail[column] if column < len(tail) else 0.0


def tiers(rules: ReadingRules, raw: RawDistribution) -> Distribution:
    """The declared tiers' distribution (the mechanic has tiers)."""
    return tier_probabilities(rules, raw, *tier_cells(rules, raw))


def p_pass(rules: ReadingRules, raw: RawDistribution, target: int | None,
           cells=None) -> float | None:
    """P(pass) by the declared reading: the total reaches ``target`` (the check's, checked;
    outside tiers that never pass), or the outcome is at or after the first passing label;
    ``None`` when the check has neither. ``cells``: :func:`tier_cells`' cells when worked
    out already."""
    if target is None:
        pass_from, labels = rules.pass_from, rules.labels
        if pass_from is None or labels is None:
            return None
        return at_least(raw, labels.index(pass_from))
    if not rules.tier_names:
        return at_least(raw, target)
    first = min(max(target - raw.offset, 0), raw.table.shape[1])
    if cells is None:
        cells = tier_cells(rules, raw)[1]
    return float(raw.table[:, first:][cells[:, first:] > -2].sum())


def readings(rules: ReadingRules, raw: RawDistribution,
             target: int | None) -> tuple[Distribution | None, float | None]:
    """``(tiers, P(pass))`` by the declared readings, the tier cells worked out once for both
    (``target``: the check's, checked)."""
    cells, tier_dist = None, None
    if rules.tier_names:
        names, cells, flat, unnamed = tier_cells(rules, raw)
        tier_dist = tier_probabilities(rules, raw, names, cells, flat, unnamed)
    return tier_dist, p_pass(rules, raw, target, cells)


def kept_p_pass(passed: float | None, raw: RawDistribution) -> float | None:
    """P(pass) as a check's result keeps it: :func:`~.checked.as_probability`."""
    return as_probability(passed, raw.trials)


def statistics(system, raw: RawDistribution, params: Mapping[str, Any], later) -> dict:
    """What a check's result holds of its statistics: nothing but the total."""
    return {}
