"""Narrative dice for the stateful models: colours, their outcome odds, and outcome tables.

Face tables always come from the system's data file (``workbench.system("erzahlspiel")``),
so a what-if variant with more colours (``erzahlspiel-six-dice``) works unchanged. What
the stateful rules read from an outcome is keyed by the outcome labels of the Erzählspiel rules.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from .. import validation
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
    """The dice of a narrative system as a ladder of levels, worst to best, with their odds
    and pools: one level per die colour, or under the rule option ``dice="d6"`` the regular
    dice at the same steps (3d6 keep lowest ... 3d6 keep highest).

    ``options`` are the rule options every roll uses (``dice``, ``ladder``).
    """

    system: System
    colours: tuple[str, ...]
    labels: tuple[str, ...]
    odds: np.ndarray          # odds[level, outcome index]
    pools: tuple[PoolSpec, ...]
    options: dict = field(default_factory=dict)

    def level(self, where: str, name: str, die: Any) -> int:
        """Index (worst die first) of a side's die: a colour (``"green"``), a net advantage
        level (``1``: the system's mapping, ``ladder="spectrum"`` included), or check
        parameters (``{"advantage": -2}``, ``{"die": "red"}``)."""
        if isinstance(die, str):
            for i, known in enumerate(self.colours):
                if die.strip().lower() == known.lower():
                    return i
        given = None
        if isinstance(die, Mapping) and set(die) <= {"die", "advantage"}:
            given = dict(die)
        elif isinstance(die, (int, np.integer)) and not isinstance(die, (bool, np.bool_)):
            given = {"advantage": die}
        if given is not None:
            mechanic = self.system.mechanic
            return mechanic.home + mechanic.level(self.system.resolve(**given, **self.options))
        raise ParameterError(where, name, die, "a die colour of " + self.system.id + " ("
                             + ", ".join(self.colours) + "), a net advantage level such as 1 "
                             "or -2, or {'advantage': n}")

    def name(self, level: int) -> str:
        """How a level is shown in results: its colour, or the d6s it rolls."""
        if self.options.get("dice") == "d6":
            return str(self.system.mechanic.extra({**self.system.resolve(
                die=self.colours[level], **self.options)})["rolled"])
        return self.colours[level]

    def table(self, mapping: dict[str, int], what: str) -> np.ndarray:
        """``mapping`` (label -> number) as an array over this system's outcome indices."""
        missing = [label for label in self.labels if label not in mapping]
        if missing:
            raise WorkbenchError(f"{self.system.id}: outcome {missing[0]!r} has no entry in the "
                                 f"{what} table (known: {', '.join(mapping)})")
        return np.array([mapping[label] for label in self.labels], np.int64)


def narrative_dice(system: "str | System" = "erzahlspiel", where: str = "narrative dice",
                   **options: Any) -> NarrativeDice:
    """The narrative dice of ``system`` (a system of the ``narrative`` mechanic), under the
    rule options given (``dice="d6"``: the regular-dice variant; ``ladder="spectrum"``).

    Example:
        >>> dice = narrative_dice()
        >>> dice.colours
        ('black', 'red', 'yellow', 'green', 'blue')
        >>> narrative_dice(dice="d6").name(0)
        '3d6 keep lowest'
    """
    sys_ = get_system(system)
    if sys_.mechanic.kind != "narrative":
        raise WorkbenchError(f"system {sys_.id!r} has no narrative dice (its mechanic is "
                             f"{sys_.mechanic.kind}); use erzahlspiel or one of its variants")
    rule_options = {p.name for p in sys_.params.values() if p.rule_option}
    unknown = [name for name in options if name not in rule_options]
    validation.renamed(where, unknown)
    if unknown:
        raise ParameterError(where, unknown[0], options[unknown[0]],
                             "a rule option of " + sys_.id + ": " + ", ".join(sorted(rule_options)))
    options = {name: sys_.params[name].parse(sys_.id, value) for name, value in options.items()}
    colours = tuple(sys_.mechanic.order)
    odds = np.array([check(sys_, die=c, **options).pmf.probabilities for c in colours])
    pools = tuple(sys_.pool(die=c, **options) for c in colours)
    return NarrativeDice(sys_, colours, tuple(sys_.outcome_labels), odds, pools, options)
