"""Tiers that name every roll: a data file's ``[[tiers]]`` checked for holes when it loads.

A roll is named by the first tier that fits it. Tiers whose ranges leave a hole (``max = 0``
then ``min = 2``) would leave the rolls in the hole without a name, and the tier shares of a
check would add up to less than 100%: a silent wrong answer in every table. So each
combination of the values the tiers' ``when`` conditions test, and each kind of roll (every
initial die negative or not, when some face can be negative), must have tiers whose ranges
meet. Totals beyond both ends are checked when a check is read, against the totals it can
reach (:func:`workbench.results.reading.tiers`).

Example:
    >>> from workbench.rules.schema import Tier
    >>> first_hole([Tier(name="low", max=0), Tier(name="high", min=2)])
    (1, 1)
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping, Sequence

MAX_CONDITIONS = 4096
"""Most combinations of ``when`` values checked at load (beyond: checked per check only)."""


class _Other:
    """A value no ``when`` names (any value outside the listed ones)."""

    def __repr__(self) -> str:
        return "another value"


OTHER = _Other()


def first_hole(tiers: Sequence[Any]) -> tuple[int, int] | None:
    """The first run of totals between tiers that no tier covers, or ``None``."""
    spans = sorted(((-float("inf") if t.min is None else t.min), (float("inf") if t.max is None else t.max))
                   for t in tiers)
    if not spans:
        return None
    covered = spans[0][1]
    for low, high in spans[1:]:
        if low > covered + 1:
            return int(covered + 1), int(low - 1)
        covered = max(covered, high)
    return None


def _values(param, mentioned: list) -> list:
    """The values worth trying for one tested parameter: each named one, and another value
    when the parameter can take one the tiers do not name."""
    if param.kind == "choice":
        others = len(mentioned) < len(param.choices)
    elif param.kind == "bool":
        others = len(mentioned) < 2
    else:
        low, high = param.minimum, param.maximum
        others = low is None or high is None or high - low + 1 > len(mentioned)
    if param.optional and None not in mentioned:
        others = True
    return mentioned + ([OTHER] if others else [])


def check_coverage(tiers: Sequence[Any], params: Mapping[str, Any], parse: Callable,
                   negatives: bool, fail: Callable[[str, str], None]) -> None:
    """Call ``fail(entry, problem)`` for the first set of conditions under which the tiers
    leave a hole, or name no roll at all. ``parse(name, value)`` checks a ``when`` value;
    ``negatives``: some die can show a negative face (then rolls of all-negative initial
    dice are checked too)."""
    if not tiers:
        return
    keys = sorted({key for tier in tiers for key in tier.when})
    named: dict[str, list] = {key: [] for key in keys}
    for tier in tiers:
        for key, value in tier.when.items():
            for item in value if isinstance(value, list) else [value]:
                parsed = parse(key, item)
                if parsed not in named[key]:
                    named[key].append(parsed)
    options = [_values(params[key], named[key]) for key in keys]
    count = 1
    for values in options:
        count *= len(values)
    if count > MAX_CONDITIONS:
        return
    rows = (False, True) if negatives else (False,)
    for combo in itertools.product(*options):
        chosen = dict(zip(keys, combo))
        applying = [t for t in tiers if all(_matches(parse, key, chosen[key], value)
                                            for key, value in t.when.items())]
        for negative in rows:
            fitting = [t for t in applying if t.all_negative in (None, negative)]
            where = _conditions(chosen) + (" for rolls whose initial dice all show a negative face"
                                           if negative else "")
            if not fitting:
                fail("tiers", f"no tier names a roll{where or ''}; allowed: tiers that name "
                     "every roll (add a tier without when / all_negative)")
            hole = first_hole(fitting)
            if hole is not None:
                span = str(hole[0]) if hole[0] == hole[1] else f"{hole[0]} to {hole[1]}"
                fail("tiers", f"totals {span} fall in no tier{where}, so tier shares would add "
                     "up to less than 100%; allowed: tiers whose ranges meet (widen a "
                     "neighbour or add a tier for them)")


def _matches(parse, key, chosen, value) -> bool:
    if chosen is OTHER:
        return False
    return any(parse(key, item) == chosen for item in (value if isinstance(value, list) else [value]))


def _conditions(chosen: Mapping[str, Any]) -> str:
    if not chosen:
        return ""
    return " when " + ", ".join(f"{key} is {value!r}" for key, value in chosen.items())
