"""What a mechanic says about a check, checked once before anything shows it.

A mechanic written in Python may read its results itself (``outcomes(raw)``, ``tiers(raw, p)``,
``p_pass(raw, p)``) and says the target of a check (``target(p)``) and the facts shown beside
it (``extra(p)``), gathered in its :class:`~workbench.rules.mechanics.base.ReadingRules`.
What those return is checked here: a Distribution whose probabilities are numbers from 0 to 1
adding up to the check's whole probability, a P(pass) from 0 to 1, a whole-number target (a NaN, a share of
1.2 or a target of 2.5 is a clear error naming the system and the method, never a number in a
table).

Example:
    >>> as_probability(0.30000000000000004, None), as_probability(1999999 / 2000000 + 1e-12, 2_000_000)
    (0.30000000000000004, 0.9999995)
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..errors import WorkbenchError, shown
from ..limits import MAX_TOTAL
from ..rules.mechanics.base import Mechanic, ReadingRules
from .distribution import Distribution

SHARE_TOLERANCE = 1e-9
"""How far a reading's shares may stray from the check's whole probability (float noise)."""

UNNAMED = 1e-12
"""Probability of rolls outside every tier beyond which a check's tiers are refused (float
noise of an exact result stays far below it; one simulated roll is far above it)."""


def as_probability(p: float | None, trials: int | None) -> float | None:
    """A probability summed from a table, without the float noise of the sum: within 0 and 1
    (a long tail summed may pass 1 by 1e-14), and for a simulation the share of trials it
    counts (passes / trials exactly: 2e6 passes of 2e6 trials are 1, not 1.0000000000000002)."""
    if p is None:
        return None
    if trials:
        p = round(p * trials) / trials
    return min(max(float(p), 0.0), 1.0)


def checked_distribution(mechanic: Mechanic, method: str, found: Any, raw) -> Distribution:
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
    whole = raw.whole
    if abs(float(probs.sum()) - whole) > SHARE_TOLERANCE:
        raise WorkbenchError(f"{where} gave probabilities adding up to {float(probs.sum()):.6g}; "
                             f"allowed: shares of the check's rolls, adding up to {whole:.6g}")
    return found


def checked_probability(mechanic: Mechanic, found: Any, raw) -> float | None:
    """A custom P(pass): ``None`` or a number from 0 to the check's whole probability."""
    if found is None:
        return None
    whole = raw.whole
    if isinstance(found, (bool, np.bool_)) or not isinstance(found, (int, float, np.integer, np.floating)) \
            or not np.isfinite(found) or not -SHARE_TOLERANCE <= found <= whole + SHARE_TOLERANCE:
        raise WorkbenchError(f"{mechanic.system_id}: p_pass(raw, p) returned {shown(found)}; allowed: "
                             f"None or a probability from 0 to {whole:.6g}")
    return float(min(max(found, 0.0), whole))


def checked_target(rules: ReadingRules) -> int | None:
    """The target the mechanic gave (:meth:`~workbench.rules.mechanics.base.Mechanic.reading_rules`):
    ``None`` or a whole number within the total's bounds."""
    target = rules.target
    if target is None:
        return None
    if type(target) is int and -MAX_TOTAL <= target <= MAX_TOTAL:   # the usual case, at once
        return target
    if isinstance(target, (bool, np.bool_)) or not isinstance(target, (int, np.integer)) \
            or abs(target) > MAX_TOTAL:
        raise WorkbenchError(f"{rules.system_id}: target(p) returned {shown(target)} for "
                             f"{shown(dict(rules.params))}; allowed: None or a whole number from "
                             f"-{MAX_TOTAL:,} to {MAX_TOTAL:,}")
    return int(target)


def checked_extra(rules: ReadingRules) -> dict:
    """The mechanic's derived facts shown beside a result (gathered with ``facts=True``),
    checked: a dict."""
    found = rules.extra
    if type(found) is not dict and not isinstance(found, Mapping):   # a dict: at once
        raise WorkbenchError(f"{rules.system_id}: extra(p) returned {shown(found)}; allowed: a "
                             "dict of facts to show beside the result")
    return dict(found)
