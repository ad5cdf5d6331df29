"""Narrative dice for the stateful models: colours, their outcome odds, and outcome tables.

Face tables always come from the system's data file (``workbench.system("erzahlspiel")``),
so a what-if variant with more colours (``erzahlspiel-six-dice``) works unchanged. What
the stateful rules read from an outcome is keyed by the outcome labels of RULES.md §5.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..api import check
from ..errors import ParameterError, WorkbenchError
from ..rules.pool import PoolSpec
from ..rules.registry import get_system
from ..rules.system import System

CONDITION_TIERS = ("none", "Mild", "Moderate", "Severe")

APPLYING = {"YES! AND...": 3, "YES!": 2, "YES! BUT...": 1,
            "NO! BUT...": 0, "NO!": 0, "NO! AND...": 0}
"""Applying Conditions (the actor's roll): outcome -> condition tier (0 none ... 3 Severe)."""

RESISTING = {"YES! AND...": 0, "YES!": 0, "YES! BUT...": 0,
             "NO! BUT...": 1, "NO!": 2, "NO! AND...": 3}
"""Resisting Conditions (the defender's roll): outcome -> condition tier received."""

CLOCK_MARKS = {"YES! AND...": 3, "YES!": 2, "YES! BUT...": 1,
               "NO! BUT...": 0, "NO!": 0, "NO! AND...": 0}
"""Segments a roll marks on a clock."""


@dataclass(frozen=True)
class NarrativeDice:
    """The colours of a narrative system, worst to best, with their odds and pools."""

    system: System
    colours: tuple[str, ...]
    labels: tuple[str, ...]
    odds: np.ndarray          # odds[level, outcome index]
    pools: tuple[PoolSpec, ...]

    def level(self, where: str, name: str, colour: str) -> int:
        """Index of a colour (worst die first); unknown colours name the known ones."""
        if isinstance(colour, str):
            for i, known in enumerate(self.colours):
                if colour.strip().lower() == known.lower():
                    return i
        raise ParameterError(where, name, colour, "a die colour of " + self.system.id + ": "
                             + ", ".join(self.colours))

    def table(self, mapping: dict[str, int], what: str) -> np.ndarray:
        """``mapping`` (label -> number) as an array over this system's outcome indices."""
        missing = [label for label in self.labels if label not in mapping]
        if missing:
            raise WorkbenchError(f"{self.system.id}: outcome {missing[0]!r} has no entry in the "
                                 f"{what} table (known: {', '.join(mapping)})")
        return np.array([mapping[label] for label in self.labels], np.int64)


def narrative_dice(system: "str | System" = "erzahlspiel") -> NarrativeDice:
    """The narrative dice of ``system`` (a system of the ``narrative`` mechanic).

    Example:
        >>> dice = narrative_dice()
        >>> dice.colours
        ('black', 'red', 'yellow', 'green', 'blue')
    """
    sys_ = get_system(system)
    if sys_.mechanic.kind != "narrative":
        raise WorkbenchError(f"system {sys_.id!r} has no narrative dice (its mechanic is "
                             f"{sys_.mechanic.kind}); use erzahlspiel or one of its variants")
    colours = tuple(sys_.mechanic.order)
    odds = np.array([check(sys_, die=c).pmf.probabilities for c in colours])
    pools = tuple(sys_.pool(die=c) for c in colours)
    return NarrativeDice(sys_, colours, tuple(sys_.outcome_labels), odds, pools)
