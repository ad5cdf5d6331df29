"""The engine's output: probabilities of a check's total, as plain arrays."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RawDistribution:
    """Probabilities of a check's total, split by whether every initial die failed.

    ``table[0, i]`` is P(total = offset + i and not every initial die showed a failure face);
    ``table[1, i]`` the same with every initial die a failure face (the Unnamed Disaster).
    Simulated results use the same type with frequencies and ``trials`` set.
    """

    offset: int
    table: np.ndarray
    lost_mass: float = 0.0
    trials: int | None = None

    @property
    def totals(self) -> np.ndarray:
        return np.arange(self.offset, self.offset + self.table.shape[1])

    @property
    def pmf(self) -> np.ndarray:
        return self.table.sum(axis=0)
