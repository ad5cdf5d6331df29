"""The joint distribution of a check's statistics, as a result (several numbers per roll).

A check of a system with counts or statistics (``hits`` and ``ones``, the highest die, dice
beaten...) comes to a :class:`Joint`: one row per combination of values, with its probability.
Each statistic's own distribution is :meth:`Joint.marginal`; the chance of any condition over
the statistics (the same expression language as the data files) is :meth:`Joint.probability`.

Example:
    >>> import numpy as np
    >>> joint = Joint(("total", "ones"), np.array([[0, 0], [0, 1], [1, 0]]), np.array([0.5, 0.25, 0.25]))
    >>> joint.marginal("ones").to_dict(), joint.probability("total == 0 and ones >= 1")
    ({'0': 0.75, '1': 0.25}, 0.25)
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ..errors import WorkbenchError
from ..numbers import json_ready, round_sig
from ..rules.expressions import ExpressionError, evaluate, parse
from .distribution import Distribution
from .rich import RichResult


@dataclass(frozen=True, repr=False, eq=False)
class Joint(RichResult):
    """P(every statistic takes these values): ``values[i]`` has one value per name, in the
    order of ``names``; ``probabilities[i]`` is its probability (a frequency when simulated).

    ``parameters`` are the check's parameter values that conditions may read; ``flags`` the
    statistics that are true/false (a condition may name one alone: ``"panic"``, as it may a
    yes/no parameter: ``"advantage"``); ``texts`` the parameters whose choices are words, with
    their choices (a condition compares one with a word: ``mode == "middle"``).
    """

    names: tuple[str, ...]
    values: np.ndarray
    probabilities: np.ndarray
    trials: int | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    flags: tuple[str, ...] = ()
    texts: Mapping[str, tuple] = field(default_factory=dict)

    def __post_init__(self):
        values = np.asarray(self.values, dtype=np.int64).reshape(-1, len(self.names))
        probabilities = np.asarray(self.probabilities, dtype=float)
        values.setflags(write=False)
        probabilities.setflags(write=False)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "probabilities", probabilities)
        object.__setattr__(self, "names", tuple(self.names))

    def __len__(self) -> int:
        return len(self.probabilities)

    def marginal(self, name: str) -> Distribution:
        """One statistic's distribution."""
        if name not in self.names:
            raise WorkbenchError(f"no statistic {name!r}; statistics: {', '.join(self.names)}")
        column = self.values[:, self.names.index(name)]
        outcomes, inverse = np.unique(column, return_inverse=True)
        probabilities = np.bincount(inverse.reshape(-1), weights=self.probabilities, minlength=len(outcomes))
        return Distribution(tuple(int(o) for o in outcomes), probabilities, trials=self.trials)

    def columns(self) -> dict[str, Any]:
        """Each statistic's column by name, with the parameters a condition may read."""
        named = {name: value for name, value in self.parameters.items()
                 if isinstance(value, (int, bool, np.integer))}
        clash = next((name for name in self.names if name in self.parameters), None)
        if clash is not None:   # which one would a condition read? neither, silently
            raise WorkbenchError(f"the roll returns a statistic {clash!r} and the system has a "
                                 f"parameter {clash!r}; a condition could not tell them apart; "
                                 "allowed: different names")
        named.update({name: list(choices).index(self.parameters[name]) for name, choices in self.texts.items()
                      if self.parameters.get(name) in choices})
        named.update({name: self.values[:, i] for i, name in enumerate(self.names)})
        return named

    def where(self, condition: str) -> np.ndarray:
        """One true/false per row: whether ``condition`` holds there."""
        try:
            # A true/false statistic or a yes/no parameter (dnd5e's advantage, uwr's half)
            # may stand alone, as "panic" or "advantage and critical".
            yes_no = [name for name, value in self.parameters.items() if isinstance(value, (bool, np.bool_))]
            expression = parse(condition, known=list(self.columns()), want="bool",
                               conditions=[name for name in self.flags if name in self.names] + yes_no,
                               texts={name: choices for name, choices in self.texts.items()
                                      if name not in self.names})
        except ExpressionError as exc:
            unread = next((name for name, value in self.parameters.items() if name not in self.columns()
                           and re.search(rf"unknown name '{re.escape(name)}'", exc.problem)), None)
            if unread is not None:  # a parameter, but not a number: say so, not "unknown"
                raise WorkbenchError(
                    f"condition {exc.text!r}: parameter {unread!r} is {self.parameters[unread]!r} in "
                    "this check; conditions read whole numbers and yes/no values (names here: "
                    f"{', '.join(self.columns())})") from None
            raise WorkbenchError(f"condition {exc}") from None
        value = np.broadcast_to(evaluate(expression, self.columns()), (len(self),))
        return value if value.dtype == bool else value != 0

    def probability(self, condition: str) -> float:
        """P(``condition``), a condition over the statistics and the parameters such as
        ``"hits == 0 and ones >= 1"`` or ``"ones > dice / 2"``."""
        return min(float(self.probabilities[self.where(condition)].sum()), 1.0)  # rounding may sum past 1

    def to_dict(self) -> dict[str, Any]:
        """``{"names": [...], "rows": [[value, ..., probability], ...]}`` (probabilities to 15
        significant digits)."""
        rows = [[*map(int, row), round_sig(float(p))] for row, p in zip(self.values, self.probabilities)]
        return json_ready({"names": list(self.names), "rows": rows})
