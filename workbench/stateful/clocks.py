"""Clocks (Erzählspiel's optional rule): rolls of one die colour until a clock is full.

Each roll marks segments by its outcome: YES! AND... 3, YES! 2, YES! BUT... 1, any NO 0.
The marks so far are the state of an absorbing Markov chain (0 .. segments - 1 marked, then
full), so the number of rolls has an exact distribution; the simulator rolls the same die.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from ..engine.sampling import OutcomeTables, outcomes, use_tables
from ..errors import ParameterError, WorkbenchError
from ..limits import MAX_CLOCK_SEGMENTS, MAX_STEPS
from ..rules.system import System
from ..validation import optional_boolean
from ._common import (
    StepsResult,
    check_work,
    exact_steps,
    need_int,
    need_method,
    need_steps,
    need_trials,
    pack_pools,
    resolve_seed,
    run_kernel,
    simulated_steps,
)
from ._markov import absorption_steps
from ._narrative import CLOCK_MARKS, narrative_dice

WHERE = "clock"
CLOCK_SIZES = (4, 6, 8, 10)


def clock(segments: int = 4, die: "str | int | None" = None, *,
          system: "str | System" = "erzahlspiel", method: str = "exact", trials: int = 200_000,
          seed: int | None = None, max_rolls: int = 100_000, progress: bool | None = None,
          **rule_options) -> StepsResult:
    """Rolls until a clock of ``segments`` is full, exactly or simulated.

    Args:
        segments: the clock's size (the rule's 4, 6, 8 or 10; any size from 1 to 100).
        die: the die rolled each time: a colour, a net advantage level (``-1``: one step
            down) or ``{"advantage": n}`` (default: the system's default die, yellow).
        system: a narrative system (``"erzahlspiel"`` or a what-if variant of it).
        method: ``"exact"`` or ``"simulate"``; ``trials``, ``seed``, ``progress`` for the latter.
        max_rolls: longest run followed (probability beyond it is the result's ``tail``;
            if any, the mean is that of the runs ending within it).
        **rule_options: the system's rule options: ``dice="d6"`` (regular dice),
            ``ladder="spectrum"``.

    Returns:
        A :class:`~workbench.stateful.StepsResult` over ``rolls``.

    Example:
        >>> result = clock(4, "yellow")
        >>> round(result.mean, 4), round(result.within(2), 4)
        (4.7407, 0.1667)
        >>> round(clock(4, 1, dice="d6").mean, 4)   # 2d6 keep highest
        3.01
    """
    dice = narrative_dice(system, WHERE, **rule_options)
    level = dice.level(WHERE, "die", dice.system.mechanic.default_die if die is None else die)
    size = need_int(WHERE, "segments", segments, 1, MAX_CLOCK_SEGMENTS)
    method = need_method(WHERE, method)
    # The simulation's arguments are checked whatever the method: a bad one is an error,
    # not silently left unused by an exact answer.
    trials = need_trials(WHERE, trials)
    seed = resolve_seed(WHERE, seed)
    progress = optional_boolean(WHERE, "progress", progress)
    limit = need_steps(WHERE, "max_rolls", max_rolls)
    marks = dice.table(CLOCK_MARKS, "clock marks")
    params = {"segments": size, "die": dice.name(level), "system": dice.system.id, **dice.options}
    if method == "exact":
        return _exact_clock(dice.odds[level], marks, size, limit, params)
    return _simulated_clock(dice, level, marks, size, limit, trials, seed, progress, params)


def _exact_clock(odds_of_faces: np.ndarray, marks: np.ndarray, size: int, limit: int,
                 params: dict) -> StepsResult:
    """Rolls until the clock is full, exactly: the marks so far are an absorbing Markov chain
    (``odds_of_faces``: the die's chance of each outcome, ``marks``: what each marks)."""
    odds = np.zeros(marks.max() + 1)
    np.add.at(odds, marks, odds_of_faces)
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


def _simulated_clock(dice, level: int, marks: np.ndarray, size: int, limit: int, trials: int,
                     seed: int, progress: bool | None, params: dict) -> StepsResult:
    """Rolls until the clock is full, simulated: each roll drawn from the die's exact outcome
    table, or (the reference) the die rolled. A die that never marks is refused first."""
    expected = clock(size, level_die(dice, level), system=dice.system, **dice.options).mean
    if not np.isfinite(expected):
        raise WorkbenchError(f"{WHERE}: the die {dice.name(level)} never marks a segment, so "
                             "the clock never fills (the exact answer says so at once)")
    check_work(WHERE, trials * min(limit, expected) * 2)
    if use_tables(1):
        from ..engine._kernels.sampled import clock_blocks as kernel  # lazy: numba

        totals, _, probs = outcomes(dice.pools[level])
        tables = OutcomeTables([(probs, {"marks": marks[totals]})])
        args = (tables.cdf, tables.guide, tables.payload["marks"], size, limit)
    else:
        from ..engine._kernels.stateful import clock_blocks as kernel  # lazy: numba

        args = (pack_pools([dice.pools[level]]).arrays(), marks, size, limit)
    counts, = run_kernel(kernel, trials, seed, args, [(limit + 1,)], progress,
                         work=trials * size, description="clock")
    return simulated_steps("rolls", counts, trials, seed, params | {"max_rolls": limit})


def level_die(dice, level: int) -> str:
    """The colour naming a level (what :meth:`NarrativeDice.level` reads back)."""
    return dice.colours[level]


def clock_table(segments: Iterable[int] = CLOCK_SIZES, dice: Iterable | None = None, *,
                within: int | None = None, system: "str | System" = "erzahlspiel"):
    """Exact mean rolls to fill each clock with each die colour, as a DataFrame.

    One row per die (by colour; every colour, worst first, when ``dice`` is left out), one
    column per clock size; with ``within=n`` the cells are P(full within n rolls) instead.
    ``dice`` names each die as :func:`clock` reads it: a colour, a net advantage level or
    ``{"advantage": n}``; each die and each size once.

    Example:
        >>> table = clock_table([4, 6], ["yellow", "blue"])
        >>> table.round(3).to_dict()
        {4: {'yellow': 4.741, 'blue': 2.65}, 6: {'yellow': 6.65, 'blue': 3.666}}
    """
    import pandas as pd  # lazy: pandas

    narrative = narrative_dice(system, "clock_table")
    colours = _listed("dice", dice) if dice is not None else list(narrative.colours)
    sizes = [need_int("clock_table", "segments", size, 1, MAX_CLOCK_SEGMENTS)
             for size in _listed("segments", segments)]
    if not sizes or not colours:
        raise ParameterError("clock_table", "segments" if not sizes else "dice",
                             segments if not sizes else dice, "one or more")
    # Each die as its colour: a level (0, -1) or {"advantage": n} names the same dice.
    levels = [narrative.level("clock_table", "dice", die) for die in colours]
    for listed, values in (("segments", sizes), ("dice", levels)):
        twice = next((i for i, value in enumerate(values) if value in values[:i]), None)
        if twice is not None:
            given = segments if listed == "segments" else dice
            shown_twice = sizes[twice] if listed == "segments" else narrative.name(levels[twice])
            raise ParameterError("clock_table", listed, given,
                                 f"each {'size' if listed == 'segments' else 'die'} once "
                                 f"({shown_twice} is listed twice)")
    if within is not None:
        within = need_int("clock_table", "within", within, 0, MAX_STEPS)
    names = [narrative.name(level) for level in levels]
    cells = {}
    for size in sizes:
        column = {}
        for level, name in zip(levels, names):
            result = clock(size, level_die(narrative, level), system=narrative.system)
            column[name] = result.mean if within is None else result.within(within)
        cells[size] = column
    table = pd.DataFrame(cells, index=names)
    table.index.name = "die"
    table.columns.name = "segments"
    return table


def _listed(name: str, items) -> list:
    """An iterable argument as a list (a single string or number is an error, not a list)."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise ParameterError("clock_table", name, items, "a list, such as [4, 6] or ['yellow']")
    return list(items)
