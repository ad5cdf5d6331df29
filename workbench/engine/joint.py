"""The engine's output for a roll with several statistics: their joint distribution as arrays.

:class:`~workbench.engine.raw.RawDistribution` is the distribution of one total (the seeds'
fast path). A :class:`JointDistribution` holds every statistic of a
:class:`~workbench.rules.roll.RollSpec` at once: one row per distinct combination of values,
its probability beside it. Marginals, conditions and tiers are read from it by the results
layer; the total's own distribution is available as :attr:`totals` / :attr:`pmf`, as on a
``RawDistribution``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import WorkbenchError


@dataclass(frozen=True, eq=False)
class JointDistribution:
    """P(every statistic takes these values), one row per combination.

    Attributes:
        names: the statistics, ``"total"`` first.
        values: int64 array ``[rows, len(names)]``; rows differ and are sorted.
        probabilities: float64 array ``[rows]`` (frequencies for a simulated result).
        lost_mass: probability cut off explosion chains (exact), 0 for simulations.
        trials: checks rolled (simulations) or ``None`` (exact).

    Example:
        >>> joint = JointDistribution(("total", "ones"), np.array([[0, 1], [1, 0]]), np.array([0.5, 0.5]))
        >>> joint.marginal("ones")
        (array([0, 1]), array([0.5, 0.5]))
    """

    names: tuple[str, ...]
    values: np.ndarray
    probabilities: np.ndarray
    lost_mass: float = 0.0
    trials: int | None = None

    def __post_init__(self):
        values = np.asarray(self.values, dtype=np.int64).reshape(-1, len(self.names))
        probabilities = np.asarray(self.probabilities, dtype=float)
        if len(values) != len(probabilities):
            raise WorkbenchError(f"a joint distribution needs one probability per row, got "
                                 f"{len(values)} rows and {len(probabilities)} probabilities")
        values.setflags(write=False)
        probabilities.setflags(write=False)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "probabilities", probabilities)

    @classmethod
    def of_parts(cls, names: tuple[str, ...], values: np.ndarray, probabilities: np.ndarray,
                 lost_mass: float = 0.0) -> "JointDistribution":
        """An exact joint of arrays the engine made as the fields say (``values`` int64
        ``[rows, len(names)]``, ``probabilities`` float64 ``[rows]``), taken as they are
        (made read-only), without the checks of building one from any values."""
        values.setflags(write=False)
        probabilities.setflags(write=False)
        joint = object.__new__(cls)
        joint.__dict__.update(names=names, values=values, probabilities=probabilities,
                              lost_mass=lost_mass, trials=None)
        return joint

    def column(self, name: str) -> np.ndarray:
        """The values of one statistic, row by row."""
        if name not in self.names:
            raise WorkbenchError(f"no statistic {name!r}; statistics: {', '.join(self.names)}")
        return self.values[:, self.names.index(name)]

    def columns(self) -> dict[str, np.ndarray]:
        """Every statistic's column by name (what expressions are evaluated over)."""
        return {name: self.values[:, i] for i, name in enumerate(self.names)}

    def rows(self, mask: np.ndarray) -> "JointDistribution":
        """The rows where ``mask`` holds (their probabilities as they are: a part of the whole)."""
        mask = np.asarray(mask, dtype=bool)
        return JointDistribution(self.names, self.values[mask], self.probabilities[mask],
                                 lost_mass=self.lost_mass, trials=self.trials)

    def marginal(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """(outcomes ascending, probabilities) of one statistic."""
        if name == "total":
            return self.total_marginal
        return _marginal(self.column(name), self.probabilities)

    @cached_property
    def total_marginal(self) -> tuple[np.ndarray, np.ndarray]:
        """(totals ascending, probabilities): :meth:`marginal` of ``"total"``, worked out once."""
        outcomes, probabilities = _marginal(self.column("total"), self.probabilities)
        outcomes.setflags(write=False)
        probabilities.setflags(write=False)
        return outcomes, probabilities

    @property
    def whole(self) -> float:
        """The probability the rows hold (1 less what explosion chains lost)."""
        return float(self.probabilities.sum())

    def as_joint(self, names: tuple[str, ...] | None = None) -> "JointDistribution":
        """Itself: a joint distribution already (as :meth:`RawDistribution.as_joint
        <workbench.engine.raw.RawDistribution.as_joint>` gives one)."""
        return self

    def probability(self, mask: np.ndarray) -> float:
        """P(rows where ``mask`` holds)."""
        return float(self.probabilities[np.asarray(mask, dtype=bool)].sum())

    @cached_property
    def total_span(self) -> tuple[int, int] | None:
        """The least and the greatest total (``None``: no rows)."""
        column = self.column("total")
        return (int(column.min()), int(column.max())) if len(column) else None

    # The total's distribution, as a RawDistribution gives it.
    @cached_property
    def _total(self) -> tuple[np.ndarray, np.ndarray]:
        if self.total_span is None:
            return np.zeros(1, np.int64), np.zeros(1)
        low, high = self.total_span
        # Each total's rows added in order from 0.0, as marginal() adds them.
        dense = np.bincount(self.column("total") - low, weights=self.probabilities, minlength=high - low + 1)
        dense.setflags(write=False)   # shared: a Distribution keeps it without a copy
        return np.arange(low, high + 1), dense

    @property
    def offset(self) -> int:
        return int(self._total[0][0])

    @property
    def totals(self) -> np.ndarray:
        """Every total from the least to the greatest (some may have probability 0)."""
        return self._total[0]

    @property
    def pmf(self) -> np.ndarray:
        """P(total) for each of :attr:`totals`."""
        return self._total[1]


def _marginal(column: np.ndarray, probabilities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct values ascending, the probability of each) of one column. A column in
    ascending order (the total's: rows are sorted, the total first) is read run by run,
    without sorting it again."""
    if len(column) > 1 and (column[1:] >= column[:-1]).all():
        starts = np.concatenate(([True], column[1:] != column[:-1]))
        inverse = np.cumsum(starts) - 1
        return column[starts], np.bincount(inverse, weights=probabilities, minlength=int(inverse[-1]) + 1)
    outcomes, inverse = np.unique(column, return_inverse=True)
    return outcomes, np.bincount(inverse, weights=probabilities, minlength=len(outcomes))
