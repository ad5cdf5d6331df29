"""How much a sweep asks for, estimated before its first point runs.

A grid's size is counted before its points are listed (a grid of 10**9 points is refused in
microseconds, not after filling the memory); a sweep of simulations adds up the trials of
every point (and, for ``simulate``, the dice each trial rolls) against the same budgets a
single run has, so a sweep can never do more than the limits say in total.
"""
from __future__ import annotations

import inspect
import math
from typing import Any, Mapping, Sequence

from .. import validation
from ..engine.work import rolled_per_check
from ..errors import WorkbenchError
from ..limits import ROLLED_DICE, SIMULATED_CHECKS, SWEEP_POINTS
from ..rules.registry import get_system

SAMPLED_POINTS = 64
"""Points whose pools are read to estimate the dice a sweep of simulations rolls."""

FEWER = "fewer points (a coarser grid) or fewer trials per point"


def check_points(count: int, where: str = "sweep grid") -> None:
    """Refuse a sweep of more points than the budget allows, before listing them."""
    SWEEP_POINTS.check(count, where, fewer="a coarser grid or several smaller sweeps")


def _setting(name: str, point: Mapping, fixed: Mapping, function) -> Any:
    if name in point:
        return point[name]
    if name in fixed:
        return fixed[name]
    parameter = inspect.signature(function).parameters.get(name)
    return None if parameter is None or parameter.default is inspect.Parameter.empty else parameter.default


def trials_of(target, point: Mapping, fixed: Mapping) -> int:
    """Trials one point simulates (0 for an exact point; a bad value counts as 0 here and is
    refused when the point runs)."""
    function = target.function
    if "method" in inspect.signature(function).parameters:
        if _setting("method", point, fixed, function) != "simulate":
            return 0
    try:
        return validation.trials(None, _setting("trials", point, fixed, function))
    except WorkbenchError:
        return 0


def check_sweep_work(target, points: Sequence[Mapping], fixed: Mapping) -> None:
    """Refuse a sweep whose simulations add up past the budgets, before any point runs."""
    if not target.stochastic:
        return
    trials = [trials_of(target, point, fixed) for point in points]
    total = float(sum(trials))
    SIMULATED_CHECKS.check(total, f"sweep {target.name} ({len(points):,} points)", fewer=FEWER)
    if target.name != "simulate" or not total:
        return
    step = max(1, len(points) // SAMPLED_POINTS)
    dice = 1.0
    for point in points[::step]:
        params = {**fixed, **point}
        params.pop("trials", None)
        try:
            system = get_system(params.pop("system"))
            dice = max(dice, rolled_per_check(system.pool(**params)))
        except (WorkbenchError, KeyError):
            continue   # a bad point is refused, with its own message, when it runs
    ROLLED_DICE.check(total * dice, f"sweep simulate ({len(points):,} points)", fewer=FEWER)


def grid_count(columns: Sequence[Sequence]) -> int:
    """How many points every combination of ``columns`` makes."""
    return math.prod(len(values) for values in columns)
