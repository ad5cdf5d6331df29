"""Rolls only Python can say: a designer's function over the dice rolled, or odds given outright.

Data files and :class:`~workbench.rules.roll.RollSpec` say a great deal; for anything else a
mechanic registered from a notebook (:func:`workbench.register_mechanic`) may describe its
check as

- a :class:`ScoredRoll`: dice, and a function that reads one roll (the values sorted highest
  first, or how many dice show each value) and returns the total, or a mapping of
  statistics with the total among them. The engine calls it once for every distinct roll
  (every multiset of values) and weighs each by its exact probability
  (:mod:`workbench.engine.scored`);
- an :class:`Outcomes`: a joint distribution written out (from a formula, a paper, another
  tool), statistic names and the probability of each combination.

Either gives everything a data system has: exact checks, simulation (drawn from the exact
table), statistics and conditions, ladders, tables, figures, the explorer.

Example:
    >>> from workbench.rules.roll import Die
    >>> d6 = Die.numbered("d6", 6)
    >>> roll = ScoredRoll(((d6, 3),), lambda faces: {"total": faces[0] + faces[1], "spare": faces[2]})
    >>> roll.reads, roll.dice
    ('sorted', 3)
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

from ..errors import ParameterError, WorkbenchError, shown
from ..limits import MAX_DICE, MAX_TOTAL
from ..validation import whole_number
from .expressions import KEYWORDS
from .roll import Die, Percentile

READS = ("sorted", "counts")

WHOLE = (int, np.integer, bool, np.bool_)
"""What a whole-number value of a Python roll may be (true/false count 1/0)."""

BOUNDED = f"a whole number from -{MAX_TOTAL:,} to {MAX_TOTAL:,} (as totals of data files)"
"""What a statistic of a Python roll may be: far inside the engine's 64-bit numbers, so no
total, margin or opposed difference ever wraps around."""


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)


def statistic_name_problem(name: Any) -> str | None:
    """Why ``name`` cannot name a statistic of a Python roll (conditions read statistics by
    name, as a data file's), or ``None``.

    Example:
        >>> statistic_name_problem("my stat")
        "'my stat' cannot be read by a condition; allowed: letters A-Z and a-z, digits and _, not starting with a digit, not a word of the expressions (and, or, not, if, else, true, false)"
        >>> statistic_name_problem("crits") is None
        True
    """
    if isinstance(name, str) and _NAME.fullmatch(name) and name not in KEYWORDS:
        return None
    return (f"{shown(name)} cannot be read by a condition; allowed: letters A-Z and a-z, digits and "
            f"_, not starting with a digit, not a word of the expressions ({', '.join(KEYWORDS)})")


@dataclass(frozen=True)
class ScoredRoll:
    """Dice and a function scoring one roll of them.

    Attributes:
        groups: ``(die, count)`` pairs (:class:`~workbench.rules.roll.Die` or
            :class:`~workbench.rules.roll.Percentile`; an exploding die shows its chain's sum).
        score: called with one roll; returns a whole number (the total) or a mapping
            ``{"total": ..., "other": ...}`` of whole numbers (true/false count 1/0), each
            within 1e9 either way, as data files' totals.
        reads: ``"sorted"``: the function gets the values highest first (a tuple; with
            several die types, a dict die name -> tuple); ``"counts"``: a dict value -> how
            many dice show it (with several types, die name -> such a dict).
    """

    groups: tuple[tuple["Die | Percentile", int], ...]
    score: Callable[[Any], Any]
    reads: str = "sorted"

    def __post_init__(self):
        pairs = self.groups.items() if isinstance(self.groups, Mapping) else self.groups
        if isinstance(pairs, (str, bytes)) or not hasattr(pairs, "__iter__"):
            raise WorkbenchError(f"ScoredRoll: groups got {shown(self.groups)}; allowed: (die, count) "
                                 "pairs such as ((d6, 3),), or a dict die -> count")
        groups = []
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise WorkbenchError(f"ScoredRoll: a group got {shown(pair)}; allowed: a (die, count) "
                                     "pair such as (d6, 3)")
            die, n = pair
            name = getattr(die, "name", "a die")
            try:   # 2.7 dice are no roll: a count is a whole number (not cut to 2)
                groups.append((die, whole_number(None, "count", n, 0, MAX_DICE)))
            except ParameterError:
                raise WorkbenchError(f"ScoredRoll: the count of {shown(name)} got {shown(n)}; allowed: "
                                     f"a whole number of dice from 0 to {MAX_DICE}") from None
        groups = tuple(groups)
        object.__setattr__(self, "groups", groups)
        if not callable(self.score):
            raise WorkbenchError(f"ScoredRoll: score must be a function of one roll, got {self.score!r}")
        if self.reads not in READS:
            raise WorkbenchError(f"ScoredRoll: reads got {self.reads!r}; allowed: {', '.join(READS)}")
        for die, n in groups:
            if not isinstance(die, (Die, Percentile)):
                raise WorkbenchError(f"ScoredRoll: a group's die is a workbench.rules.roll.Die or "
                                     f"Percentile, got {type(die).__name__}")
        names = [die.name for die, _ in groups]
        if len(set(names)) != len(names):
            raise WorkbenchError(f"ScoredRoll: die types need different names, got {names}")

    @property
    def dice(self) -> int:
        return sum(n for _, n in self.groups)


@dataclass(frozen=True)
class Outcomes:
    """A joint distribution given outright: statistic names (the total first) and, for each
    combination of whole-number values (Python or numpy integers within 1e9 either way,
    true/false as 1/0), its probability (adding up to 1).

    Example:
        >>> Outcomes(("total", "crit"), {(1, 0): 0.5, (2, 1): 0.5}).names
        ('total', 'crit')
    """

    names: tuple[str, ...]
    table: tuple[tuple[tuple[int, ...], float], ...]

    def __post_init__(self):
        names = (self.names,) if isinstance(self.names, str) else tuple(self.names)
        object.__setattr__(self, "names", names)
        if not names or names[0] != "total" or len(set(names)) != len(names):
            raise WorkbenchError(f"Outcomes: names got {names!r}; allowed: different names, "
                                 "\"total\" first")
        for name in names:
            if statistic_name_problem(name) is not None:
                raise WorkbenchError(f"Outcomes: the name {statistic_name_problem(name)}")
        rows = self.table.items() if isinstance(self.table, Mapping) else self.table
        clean = []
        for row, p in rows:
            values = (row,) if isinstance(row, WHOLE) else tuple(row)
            if len(values) != len(names) or not all(isinstance(v, WHOLE) for v in values):
                raise WorkbenchError(f"Outcomes: the combination {shown(row)} needs {len(names)} whole "
                                     f"numbers ({', '.join(names)})")
            for name, value in zip(names, values):
                if abs(int(value)) > MAX_TOTAL:
                    raise WorkbenchError(f"Outcomes: {name} {shown(value)} in the combination "
                                         f"{shown(row)}; allowed: {BOUNDED}")
            if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, float, np.integer, np.floating)) \
                    or not math.isfinite(p) or p < 0:
                raise WorkbenchError(f"Outcomes: probability {shown(p)} of {shown(row)}; allowed: a "
                                     "number >= 0")
            clean.append((tuple(int(v) for v in values), float(p)))
        total = sum(p for _, p in clean)
        if abs(total - 1.0) > 1e-9:
            raise WorkbenchError(f"Outcomes: the probabilities add up to {total!r}; allowed: 1")
        object.__setattr__(self, "table", tuple(clean))

    @property
    def dice(self) -> int:
        return 0
