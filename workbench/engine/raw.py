"""The engine's output: probabilities of a check's total, as plain arrays."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import WorkbenchError
from .joint import JointDistribution


@dataclass(frozen=True, init=False)
class RawDistribution:
    """Probabilities of a check's total, split by whether every initial die failed.

    ``table[0, i]`` is P(total = offset + i and not every initial die showed a failure face);
    ``table[1, i]`` the same with every initial die a failure face (the Unnamed Disaster).
    Simulated results use the same type with frequencies and ``trials`` set.

    ``totals``, ``pmf`` and ``at_least`` are worked out on first use and kept (read-only
    arrays): a result, a sweep point or a ladder rung reads them again and again.

    Example:
        >>> raw = RawDistribution(0, np.array([[0.25, 0.5, 0.25], [0.0, 0.0, 0.0]]))
        >>> raw.totals.tolist(), raw.at_least.tolist()
        ([0, 1, 2], [1.0, 0.75, 0.25])
    """

    offset: int
    table: np.ndarray
    lost_mass: float = 0.0
    trials: int | None = None

    def __init__(self, offset: int, table: np.ndarray, lost_mass: float = 0.0,
                 trials: int | None = None):
        # Straight into the instance (a frozen dataclass sets each field through
        # object.__setattr__: this is made for every check).
        fields = self.__dict__
        fields["offset"], fields["table"] = offset, table
        fields["lost_mass"], fields["trials"] = lost_mass, trials

    @cached_property
    def totals(self) -> np.ndarray:
        totals = np.arange(self.offset, self.offset + self.table.shape[1])
        totals.setflags(write=False)
        return totals

    @cached_property
    def pmf(self) -> np.ndarray:
        pmf = self.table[0] + self.table[1] if self.table.shape[0] == 2 else self.table.sum(axis=0)
        pmf.setflags(write=False)
        return pmf

    # The same questions a JointDistribution answers, so a reading is written once: the
    # least and greatest total, the total's marginal, the total as rows with their
    # probabilities (conditions over ``total``), the probability held.
    @cached_property
    def total_span(self) -> tuple[int, int] | None:
        """The least and the greatest total of the table (``None``: an empty table)."""
        width = self.table.shape[1]
        return (self.offset, self.offset + width - 1) if width else None

    @property
    def total_marginal(self) -> tuple[np.ndarray, np.ndarray]:
        """(every total of the table ascending, its probability): :attr:`totals`, :attr:`pmf`."""
        return self.totals, self.pmf

    def marginal(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """(outcomes ascending, probabilities) of the one statistic a table of totals holds.

        Example:
            >>> raw = RawDistribution(2, np.array([[0.5, 0.5], [0.0, 0.0]]))
            >>> [a.tolist() for a in raw.marginal("total")]
            [[2, 3], [0.5, 0.5]]
        """
        if name != "total":
            raise WorkbenchError(f"no statistic {name!r}; statistics: total")
        return self.total_marginal

    def columns(self) -> dict[str, np.ndarray]:
        """The total as a column, one row per total (the rows :attr:`probabilities` weigh)."""
        return {"total": self.totals}

    @property
    def probabilities(self) -> np.ndarray:
        """P(each row of :meth:`columns`): :attr:`pmf`."""
        return self.pmf

    @property
    def whole(self) -> float:
        """The probability the table holds (1 less what explosion chains lost)."""
        return float(self.table.sum())

    @cached_property
    def at_least(self) -> np.ndarray:
        """``at_least[i]`` = P(total >= offset + i): P(pass) for every target at once."""
        tail = np.cumsum(self.pmf[::-1])[::-1]
        tail.setflags(write=False)
        return tail

    @cached_property
    def at_least_floats(self) -> list[float]:
        """:attr:`at_least` as a list of Python floats (a sweep reads one per point)."""
        return self.at_least.tolist()

    def as_joint(self, names: tuple[str, ...] = ("total",)):
        """The same distribution as a :class:`~workbench.engine.joint.JointDistribution` of
        ``names``: ``("total",)``, or ``("total", NAME)`` with NAME 1 on the rows where every
        initial die failed (a roll that is a sum of dice, read by conditions).

        Example:
            >>> raw = RawDistribution(0, np.array([[0.25, 0.5, 0.0], [0.25, 0.0, 0.0]]))
            >>> joint = raw.as_joint(("total", "all_negative"))
            >>> joint.values.tolist(), joint.probabilities.tolist()
            ([[0, 0], [0, 1], [1, 0]], [0.25, 0.25, 0.5])
        """
        rows, columns = np.nonzero(self.table)
        totals = self.offset + columns
        values = np.column_stack([totals, rows] if len(names) > 1 else [totals]).astype(np.int64)
        probabilities = self.table[rows, columns]
        order = np.lexsort(values.T[::-1])
        return JointDistribution(tuple(names), values[order], probabilities[order],
                                 lost_mass=self.lost_mass, trials=self.trials)

