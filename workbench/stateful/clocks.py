"""Clocks (Erzählspiel's optional rule): rolls of one die colour until a clock is full.

Each roll marks segments by its outcome: YES! AND... 3, YES! 2, YES! BUT... 1, any NO 0.
The marks so far are the state of an absorbing Markov chain (0 .. segments - 1 marked, then
full), so the number of rolls has an exact distribution; the simulator rolls the same die.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from ..rules.system import System
from ._common import (StepsResult, exact_steps, need_int, need_method, need_trials, pack_pools,
                      resolve_seed, run_kernel, simulated_steps)
from ._markov import absorption_steps
from ._narrative import CLOCK_MARKS, narrative_dice
from ._sampling import OutcomeTables, outcomes, use_tables

WHERE = "clock"
CLOCK_SIZES = (4, 6, 8, 10)


def clock(segments: int = 4, die: str | None = None, *, system: "str | System" = "erzahlspiel",
          method: str = "exact", trials: int = 200_000, seed: int | None = 0,
          max_rolls: int = 100_000, progress: bool | None = None) -> StepsResult:
    """Rolls until a clock of ``segments`` is full, exactly or simulated.

    Args:
        segments: the clock's size (the rule's 4, 6, 8 or 10; any size from 1 is accepted).
        die: the colour rolled each time (default: the system's default die, yellow).
        system: a narrative system (``"erzahlspiel"`` or a what-if variant of it).
        method: ``"exact"`` or ``"simulate"``; ``trials``, ``seed``, ``progress`` for the latter.
        max_rolls: longest run followed (probability beyond it is the result's ``tail``).

    Returns:
        A :class:`~workbench.stateful.StepsResult` over ``rolls``.

    Example:
        >>> result = clock(4, "yellow")
        >>> round(result.mean, 4), round(result.within(2), 4)
        (4.7407, 0.1667)
    """
    dice = narrative_dice(system)
    colour = die or dice.system.mechanic.default_die
    level = dice.level(WHERE, "die", colour)
    size = need_int(WHERE, "segments", segments, 1, 10_000)
    method = need_method(WHERE, method)
    limit = need_int(WHERE, "max_rolls", max_rolls, 1, 10**7)
    marks = dice.table(CLOCK_MARKS, "clock marks")
    params = {"segments": size, "die": dice.colours[level], "system": dice.system.id}
    if method == "exact":
        odds = np.zeros(marks.max() + 1)
        np.add.at(odds, marks, dice.odds[level])
        transient = np.zeros((size, size))
        leave = np.zeros(size)
        for marked in range(size):
            for mark, p in enumerate(odds):
                if marked + mark >= size:
                    leave[marked] += p
                else:
                    transient[marked, marked + mark] += p
        start = np.zeros(size)
        start[0] = 1.0
        chain = absorption_steps(transient, start, limit, leave)
        return exact_steps("rolls", chain.probabilities, chain.tail, chain.mean, params)

    trials = need_trials(WHERE, trials)
    seed = resolve_seed(WHERE, seed)
    if use_tables(1):
        from .._kernels.sampled import clock_blocks as kernel

        totals, _, probs = outcomes(dice.pools[level])
        tables = OutcomeTables([(probs, {"marks": marks[totals]})])
        args = (tables.cdf, tables.guide, tables.payload["marks"], size, limit)
    else:
        from .._kernels.stateful import clock_blocks as kernel

        args = (pack_pools([dice.pools[level]]).arrays(), marks, size, limit)
    counts, = run_kernel(kernel, trials, seed, args, [(limit + 1,)], progress,
                         work=trials * size, description="clock")
    return simulated_steps("rolls", counts, trials, seed, params | {"max_rolls": limit})


def clock_table(segments: Iterable[int] = CLOCK_SIZES, dice: Iterable[str] | None = None, *,
                within: int | None = None, system: "str | System" = "erzahlspiel"):
    """Exact mean rolls to fill each clock with each die colour, as a DataFrame.

    One row per colour (worst first), one column per clock size; with ``within=n`` the
    cells are P(full within n rolls) instead.

    Example:
        >>> table = clock_table([4, 6], ["yellow", "blue"])
        >>> table.round(3).to_dict()
        {4: {'yellow': 4.741, 'blue': 2.65}, 6: {'yellow': 6.65, 'blue': 3.666}}
    """
    import pandas as pd

    narrative = narrative_dice(system)
    colours = list(dice) if dice is not None else list(narrative.colours)
    sizes = list(segments)
    if within is not None:
        within = need_int(WHERE, "within", within, 0)
    cells = {}
    for size in sizes:
        column = {}
        for colour in colours:
            result = clock(size, colour, system=narrative.system)
            column[colour] = result.mean if within is None else result.within(within)
        cells[size] = column
    table = pd.DataFrame(cells, index=colours)
    table.index.name = "die"
    table.columns.name = "segments"
    return table
