"""Conditions read over a check's rows: its statistics and the parameters they may name.

A raw distribution gives its rows as columns by name with a probability per row (a
:class:`~workbench.engine.joint.JointDistribution` one row per combination of statistics, a
:class:`~workbench.engine.raw.RawDistribution` one row per total); a condition (parsed by the
rules, ``pass_if``, a tier's, or one asked for) holds on some of them.

Example:
    >>> import workbench
    >>> from workbench.engine import exact_distribution
    >>> uwr = workbench.system("uwr")
    >>> p = uwr.resolve(dice=2)
    >>> raw = exact_distribution(uwr.pool(dice=2))
    >>> rules = uwr.mechanic.reading_rules(p, target="given")
    >>> holds(uwr.condition("total >= 1"), condition_columns(rules, raw), 3).tolist()
    [False, True, True]
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..rules.expressions import evaluate
from ..errors import WorkbenchError
from ..rules.mechanics.base import ReadingRules


def condition_columns(rules: ReadingRules, raw, columns: dict | None = None) -> dict:
    """The raw distribution's columns and the parameters expressions may read, by name (the
    parameters the check's ``rules`` were gathered for); ``columns``: the raw distribution's
    columns as they are read (Python lists, say) when not its own arrays."""
    p = rules.params
    named = {}
    for name, value in p.items():   # whole numbers and true/false (as 1 and 0); no value: None
        if type(value) is int or value is None:   # (the usual: as it is)
            named[name] = value
        elif isinstance(value, (bool, int)):
            named[name] = int(value)
    if columns is None:
        columns = raw.columns()
    clash = None if p.keys().isdisjoint(columns) else next(name for name in columns if name in p)
    if clash is not None:   # a Python roll's statistic read where the parameter was meant
        raise WorkbenchError(f"{rules.system_id}: the roll returns a statistic {clash!r} and the "
                             f"system has a parameter {clash!r}; a condition could not tell them "
                             "apart; allowed: different names")
    if getattr(rules.statistics, "texts", None):
        named.update(choice_positions(rules.statistics, p))
    named.update(columns)
    return named


def choice_positions(statistics, p: Mapping[str, Any]) -> dict:
    """Parameters whose choices are words, as expressions read them: the choice's position
    (``statistics``: the mechanic's, or ``None``)."""
    texts = getattr(statistics, "texts", None) or {}
    return {name: (None if p.get(name) is None else list(choices).index(p[name]))
            for name, choices in texts.items() if name in p}


def holds(expression, columns: dict, rows: int) -> np.ndarray:
    """Where a condition holds, one true/false per row (a true/false statistic read as one)."""
    value = evaluate(expression, columns)
    if value.shape != (rows,):
        value = np.broadcast_to(value, (rows,))
    return value if value.dtype.kind == "b" else value != 0


def said(rules: ReadingRules, where: str, expression, columns: dict, rows: int) -> np.ndarray:
    """:func:`holds` for a condition of the system's own (``pass_if``, a tier's): a problem
    met while reading it names the system and which condition it is."""
    try:
        return holds(expression, columns, rows)
    except WorkbenchError as exc:
        raise WorkbenchError(f"{rules.system_id}: {where} {exc}") from None


def tier_condition(rules, text: str):
    """The parsed tier condition ``text`` from a check's reading rules; a mechanic that gives
    tiers conditions but no ``condition()`` to read them is told so, naming the condition."""
    try:
        return rules.conditions[text]
    except KeyError:
        raise WorkbenchError(f"{rules.system_id}: a tier has the condition {text!r} but the "
                             "mechanic has no condition() to read it; allowed: a "
                             "condition(text) method, or tiers without conditions") from None
