"""Every bound on the work one call may ask for, declared in one place and checked up front.

Two kinds of limits:

* Fixed limits: sizes beyond any table (a pool of 1000 dice, a die of 1000 faces) where the
  answer would take minutes or gigabytes. They are part of the workbench's contract and are
  not meant to be raised.
* Work budgets: how much rolling one simulation may do. A run past the budget is refused
  before it starts, with an error saying how to raise the budget (an environment variable)
  for a deliberate long run; runs within it show a progress bar and stop cleanly on Ctrl-C.

Example:
    >>> MAX_DICE, MAX_SEED == 2**64 - 1
    (1000, True)
    >>> ROLLED_DICE.check(10**6, "simulate")   # well within the budget: no error
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import WorkbenchError

MAX_DICE = 1000
"""Largest pool (dice in one check) the workbench computes, exactly or by simulation."""

MAX_SIDES = 1000
"""Most faces one die type of a data file may have."""

MAX_TRIALS = 10**10
"""Most simulated checks (or campaigns, scenes, fights) in one run."""

MAX_SEED = 2**64 - 1
"""Seeds are whole numbers from 0 to this (the generator's 64-bit state), on the CLI too."""

MAX_CLOCK_SEGMENTS = 100
"""Largest clock (the rule's clocks have 4 to 10 segments)."""

MAX_STEPS = 10**7
"""Longest run a stateful model follows (``max_exchanges``, ``max_rolls``, ``max_rounds``)."""

MAX_HITS = 10_000
"""Most hits :func:`workbench.rounds_until_hits` may wait for."""

MAX_TABLE_POOL = 100
"""Largest pool size in the command line's tables (``--pools``, ``--pool``)."""

MAX_BURN_TABLE = 200_000
"""Most exact checks :func:`workbench.burn_scene` computes for its burn decisions (a table
over every Trait and Aspect stack the scene can reach)."""

MAX_CAMPAIGN_CHECKS = 20_000
"""Most checks in one :func:`workbench.drama_campaign` (sessions x checks per session)."""

MAX_DATA_FILE_BYTES = 1_000_000
"""Largest system or variant data file read (the shipped ones are about 2 kB)."""

MAX_DIGITS = 30
"""Longest whole number accepted as text (far past every limit above; stops 5000-digit input)."""

MAX_PAGE_BYTES = 10_000_000
"""Largest Markdown page ``workbench render`` reads (a rulebook chapter is well under 1 MB)."""

MAX_SWEEP_POINTS = 1_000_000
"""Most points in one sweep (every combination of the grid's values): checked before the grid
is built, so a grid such as 100,000 x 100,000 values is refused at once instead of filling
the memory. About 40 s of exact checks; split a larger design space into several sweeps."""


@dataclass(frozen=True)
class Budget:
    """A work budget: ``default`` units per run, raised with the environment variable ``env``."""

    what: str
    default: int
    env: str

    def current(self) -> int:
        """The budget in force: the environment variable when it holds a whole number > 0."""
        text = os.environ.get(self.env, "").strip().replace("_", "")
        try:
            value = int(float(text)) if text else 0
        except (ValueError, OverflowError):
            value = 0
        return value if value > 0 else self.default

    def check(self, amount: float, where: str) -> None:
        """Refuse ``amount`` units of work beyond the budget, before any work starts."""
        budget = self.current()
        if amount > budget:
            raise WorkbenchError(
                f"{where}: this run would need about {_short(amount)} {self.what}, more than the "
                f"limit of {_short(budget)}; use fewer trials (or fewer dice, checks or steps), or "
                f"raise the limit with the environment variable {self.env} (e.g. {self.env}="
                f"{_short(budget * 10)})")


def _short(number: float) -> str:
    """``1e+11`` as people write it: ``1e11``; ``2.5e+09`` -> ``2.5e9``."""
    return f"{number:.3g}".replace("e+", "e").replace("e0", "e")


ROLLED_DICE = Budget("rolled dice", 10**11, "WORKBENCH_MAX_ROLLED_DICE")
"""Dice one :func:`workbench.simulate` run may roll (about a minute or two on two cores)."""

SIMULATED_CHECKS = Budget("simulated checks", 10**10, "WORKBENCH_MAX_SIMULATED_CHECKS")
"""Checks one stateful simulation (campaigns, scenes, fights, clocks) may roll."""
