"""Sweeps: evaluate a workbench function over a whole grid of settings, as one tidy frame.

:func:`sweep` takes a function (``check``, ``simulate``, ``versus``, ``solve_ladder``,
``drama_campaign``, ``burn_scene``, ``taken_out``, ``clock``, ``rounds_until_hits``; by name or
the function itself) and a grid (a dict of parameter -> values, every combination; or a
DataFrame, one row a point), and returns a pandas DataFrame with one row per point: the grid's
parameters, then the result's key figures (``p_pass``, ``mean``, standard errors, tiers, ...)
and, for simulations, the ``seed`` the point ran with.

Reproducible whatever runs it: each point's seed is derived from the sweep's ``seed`` and the
point's own parameters (:func:`point_seed`), so a point gives the same answer in any grid, on
any executor, and when run alone with that seed. Work runs in this process by default (the
numba kernels already use every core; Python-bound sweeps move to a process pool), on any
``concurrent.futures.Executor`` given as ``executor=``, or on a Dask cluster
(``executor=client`` or ``client.get_executor()``; install ``dice-workbench[dask]``).
Ctrl-C stops the sweep and returns the points finished so far, with a warning.

``workbench.sweep`` is this package and, called, its :func:`sweep`: ``wb.sweep("check",
{...})`` and ``from workbench.sweep import sweep`` run the same function.
"""
from __future__ import annotations

import gc
import inspect
import itertools
import sys
import types
from typing import Any, Mapping

import numpy as np

from .. import validation
from ..errors import WorkbenchError, shown
from ..ladders import parse_wanted, solve_ladder
from ..rules.registry import get_system
from ._budget import check_sweep_work
from ._functions import TARGETS, find_target, versus_sides
from ._grid import check_names, grid_points
from ._settings import allowed_names, need_required
from ._run import Runner
from ._seeds import point_seed

__all__ = ["sweep", "point_seed", "FUNCTIONS"]

FUNCTIONS = tuple(TARGETS)
"""Names of the functions a sweep can evaluate."""


def sweep(function: Any, grid: Any, *, seed: int | None = None, executor: Any = None,
          progress: bool | None = None, **fixed: Any):
    """Evaluate ``function`` at every point of ``grid``; one row per point.

    Args:
        function: a name in :data:`FUNCTIONS` or the workbench function itself.
        grid: dict of parameter -> values (a list, a range, or one value), every combination
            in order (the last parameter varies fastest); or a DataFrame of points.
        seed: the sweep's seed; each point's seed is derived from it and the point. ``None``
            (as everywhere in the workbench) draws a fresh one, kept in ``frame.attrs["seed"]``:
            pass it back to repeat the sweep.
        executor: ``None`` (this machine: in this process, or a process pool for long
            Python-bound sweeps), ``"local"``, ``"processes"``, any
            ``concurrent.futures.Executor``, or a ``dask.distributed.Client``.
        progress: show a progress bar (``None``: for sweeps estimated at a second or more).
        **fixed: parameters that stay the same at every point (``system="uwr"``,
            ``trials=100_000``, ``session=[...]``). For ``versus``, ``actor`` and ``reactor``
            give each side's parameters and ``actor.NAME`` / ``reactor.NAME`` one of them
            (``{"actor.favor": range(3)}``); a rule option by its own name applies to both,
            and any other name is an error (it would belong to no side).

    Work is bounded before the first point runs: at most 1e6 points
    (``WORKBENCH_MAX_SWEEP_POINTS``), and the trials of every simulated point together
    count against the simulation budgets.

    Returns:
        A DataFrame; ``frame.attrs`` holds ``function``, ``seed``, ``fixed``, ``parameters``
        (the grid's) and ``partial`` (True when Ctrl-C cut the sweep short). Draw it with
        :mod:`workbench.figures.sweeps`.

    Example:
        >>> frame = sweep("check", {"dice": [2, 4], "target": [1, 2]}, system="uwr")
        >>> frame[["dice", "target", "p_pass"]].round(4).values.tolist()
        [[2.0, 1.0, 0.5556], [2.0, 2.0, 0.1111], [4.0, 1.0, 0.8025], [4.0, 2.0, 0.4074]]
    """
    target = find_target(function)
    # An exact check sweep makes many small dicts, tuples and lists and keeps them (the
    # points, their figures, the frame's columns), none in a cycle: the cyclic garbage
    # collector would scan them again and again (once most of the sweep's time), so it
    # pauses until the frame is made. Other functions may make cyclic garbage: no pause.
    paused = target.name == "check" and gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _sweep(target, grid, seed, executor, progress, fixed)
    finally:
        if paused:
            gc.enable()


def _sweep(target, grid, seed, executor, progress, fixed):
    names, points = grid_points(grid, target.wants_whole)
    seed = _sweep_seed(seed)
    progress = validation.optional_boolean("sweep", "progress", progress)
    for name in ("seed", "progress"):
        if name in fixed:
            raise WorkbenchError(f"sweep {target.name}: {name!r} is set by the sweep itself")
    for name in names:
        if name in fixed:   # the grid's value would win at every point, the fixed one unused
            raise WorkbenchError(f"sweep {target.name}: {name!r} is both in the grid and fixed "
                                 f"({name}={shown(fixed[name])}); allowed: one of them (a "
                                 "fixed value is a grid of one value)")
    if not target.stochastic and ("trials" in fixed or "trials" in names):
        # an exact function has no trials: 100 of them were silently not rolled
        raise WorkbenchError(f"sweep {target.name}: trials does not apply: {target.name} is exact "
                             f"at every point; allowed: no trials"
                             + (", or sweep simulate with trials" if target.name == "check" else ""))
    check_names(target.name, names, allowed_names(target, names, fixed, points), fixed)
    need_required(target, names, fixed)
    known = check_every_point(target, points, fixed)
    check_sweep_work(target, points, fixed)
    if not (executor in (None, "local", "processes") or hasattr(executor, "submit")
            or hasattr(executor, "get_executor")):
        raise WorkbenchError(f"sweep executor got {executor!r}; allowed: None, 'local', "
                             "'processes', a concurrent.futures.Executor or a Dask Client")
    items = []
    for index, point in enumerate(points):
        point_seed_ = point_seed(seed, target.name, {**fixed, **point}) if target.stochastic else None
        items.append((index, point, point_seed_))


    runner = Runner(target.name, fixed, items, executor, progress, f"sweep {target.name}",
                    known if target.name == "check" else None)
    results = runner.run()
    return _frame(target, names, items, results, seed, fixed, runner.partial)


def _sweep_seed(seed: Any) -> int:
    """The sweep's one seed: checked, or fresh for ``None`` (each point's seed, derived from
    it, is in the frame's seed column, so any point re-runs alone)."""
    return validation.seed("sweep", seed)


def check_every_point(target, points: list[dict], fixed: Mapping[str, Any]) -> dict | None:
    """Every point's system parameters are checked before the first point runs, so a bad
    value at the end of a long grid fails at once, naming the point (``check``,
    ``simulate``, ``versus`` and ``solve_ladder``; the other functions check their settings
    as each point runs). For ``check`` and ``simulate``, returns what it found: point number
    -> (system, parameters)."""
    if target.name not in ("check", "simulate", "versus", "solve_ladder"):
        return None
    systems: dict[Any, Any] = {}
    wanted: set = set()
    if target.name in ("check", "simulate"):
        return _check_points(target, points, fixed, systems)
    for number, point in enumerate(points):
        params = {**fixed, **point}
        try:
            name = params.pop("system")
            system = _system(systems, name)
            if target.name == "versus":
                for side in versus_sides(name, params):
                    system.resolve(**side)
                continue
            if target.name == "solve_ladder":
                text = params.pop("wanted", "Normal=0.7")
                if isinstance(text, str) and text not in wanted:   # a dict is read by the solver
                    parse_wanted(text)
                    wanted.add(text)
                params = {k: v for k, v in params.items() if k not in _LADDER_OPTIONS}
            params.pop("trials", None)
            system.resolve(**params)
        except WorkbenchError as exc:
            _refuse_point(target, points, number, exc)
    return None


def _system(systems: dict, name):
    key = name if isinstance(name, str) else id(name)
    if key not in systems:
        systems[key] = get_system(name)
    return systems[key]


def _check_points(target, points: list[dict], fixed: Mapping[str, Any], systems: dict) -> dict:
    """:func:`check_every_point` for ``check`` and ``simulate``: the points of each system
    resolved together (``System.resolve_points``: points that differ only in what passes share
    one resolution of the rest, and their own values are checked)."""
    rest = dict(fixed)
    fixed_system = rest.pop("system", None)
    rest.pop("trials", None)
    by_name: dict[int, tuple] = {}   # points by the system given (an id, a path, a System)
    for number, point in enumerate(points):
        if rest or "system" in point or "trials" in point:
            params = {**rest, **point}
            name = params.pop("system", fixed_system)
            params.pop("trials", None)
        else:   # the usual case: the system fixed, the rest from the grid (read, not changed)
            params, name = point, fixed_system
        entry = by_name.get(id(name))
        if entry is None:
            entry = by_name[id(name)] = (name, [], [])
        entry[1].append(number)
        entry[2].append(params)
    failed = []   # the first bad point of each system: the earliest of them is named
    by_system: dict[int, tuple] = {}
    for name, numbers, given in by_name.values():
        try:
            system = _system(systems, name)
        except WorkbenchError as exc:
            failed.append((numbers[0], exc))
            continue
        found = by_system.setdefault(id(system), (system, [], []))
        found[1].extend(numbers)
        found[2].extend(given)
    known: dict[int, tuple] = {}
    for system, numbers, given in by_system.values():
        done = 0
        try:
            for resolved, _ in system.resolve_points(given, pools=False):
                known[numbers[done]] = (system, resolved)
                done += 1
        except WorkbenchError as exc:
            failed.append((numbers[done], exc))
    if failed:
        _refuse_point(target, points, *min(failed, key=lambda found: found[0]))
    return known


def _refuse_point(target, points: list[dict], number: int, exc: WorkbenchError):
    shown_point = ", ".join(f"{k}={v!r}" for k, v in points[number].items())
    said = str(exc).removeprefix(f"sweep {target.name}: ")   # named once, at the front
    raise WorkbenchError(f"sweep {target.name}: point {number + 1} of {len(points)} "
                         f"({shown_point}): {said}") from None


_LADDER_OPTIONS = {name for name in inspect.signature(solve_ladder).parameters} - {"params"}


def _frame(target, names, items, results, seed, fixed, partial):
    import pandas as pd  # lazy: pandas

    done = [(index, point, point_seed_) for index, point, point_seed_ in items if index in results]
    columns: dict[str, list] = {name: [point[name] for _, point, _ in done] for name in names}
    rows = [results[index] for index, _, _ in done]
    # Every figure any row has, in the order first seen (dict.fromkeys walks the keys in C).
    figure_names = [key for key in dict.fromkeys(itertools.chain.from_iterable(rows))
                    if key not in columns]
    for key in figure_names:
        columns[key] = [row.get(key) for row in rows]
        if target.name == "check":   # every figure of a check is a number: an array at once
            columns[key] = np.array(columns[key], dtype=float)
    if target.stochastic:
        columns["seed"] = [point_seed_ for _, _, point_seed_ in done]
    frame = pd.DataFrame(columns, index=pd.Index([index for index, _, _ in done], name="point"))
    frame.attrs.update({"function": target.name, "seed": seed, "fixed": dict(fixed),
                        "parameters": list(names), "partial": partial})
    return frame


class _SweepPackage(types.ModuleType):
    """This package, callable: ``workbench.sweep(...)`` is :func:`sweep`.

    The function and its package share a name, and Python binds a package to the attribute of
    its parent when it is imported, so ``workbench.sweep`` is always this module: calling it
    forwards to the function instead of failing with "'module' object is not callable".
    """

    def __call__(self, function: Any, grid: Any, **options: Any):
        """:func:`sweep`: ``workbench.sweep("check", {"dice": [2, 4]}, system="uwr")``."""
        return sweep(function, grid, **options)


sys.modules[__name__].__class__ = _SweepPackage
