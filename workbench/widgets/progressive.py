"""Simulated views in two steps: a first estimate at once, then the trials asked for.

A simulation of 100,000 trials at every pool and rung takes a while; the explorer first draws
the same settings with :data:`FIRST_TRIALS` trials (well under half a second), says so, and
runs the full simulation in a worker thread. When it is done, and nothing has changed in the
meantime, its figure replaces the estimate; a change in between makes it obsolete (it is
dropped, never drawn over newer settings). The figure function stays pure: both steps are
:func:`~workbench.widgets.figures.figure_json` of frozen settings, differing in ``trials``.

Outside a running event loop (a script, a test) the full figure is computed at once, after
the estimate, in the calling thread.
"""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Callable

from ..analysis import evaluate, typical_pool
from ..errors import WorkbenchError
from ..rules.registry import get_system
from .settings import ExplorerSettings

#: Trials per point of the first estimate.
FIRST_TRIALS = 2_000


def first_estimate(settings: ExplorerSettings) -> ExplorerSettings | None:
    """The settings of the first estimate, or ``None`` when the settings themselves are quick
    (exact, or no more trials than the estimate would take).

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> s = ExplorerSettings((EntrySettings("uwr"),), method="simulate", trials=100_000, seed=1)
        >>> first_estimate(s).trials, first_estimate(replace(s, method="exact"))
        (2000, None)
    """
    if settings.method != "simulate" or settings.trials <= FIRST_TRIALS:
        return None
    return replace(settings, trials=FIRST_TRIALS)


class Refiner:
    """Runs the full simulation after a first estimate; ``done(settings, figure)`` is called in
    the explorer's own thread (the event loop) with the result of the latest request only, and
    ``failed(settings, error)`` with a :class:`~workbench.errors.WorkbenchError`."""

    def __init__(self, build: Callable[[ExplorerSettings], dict],
                 done: Callable[[ExplorerSettings, dict], None],
                 failed: Callable[[ExplorerSettings, WorkbenchError], None]):
        self.build, self.done, self.failed = build, done, failed
        self._executor: ThreadPoolExecutor | None = None
        self._latest = 0
        self._lock = threading.Lock()

    def cancel(self) -> None:
        """Make any refinement under way obsolete (its result is dropped)."""
        with self._lock:
            self._latest += 1

    def start(self, settings: ExplorerSettings) -> None:
        """Compute ``settings``' figure in the background (at once without an event loop)."""
        with self._lock:
            self._latest += 1
            ticket = self._latest
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._finish(ticket, settings, *self._run(settings))
            return
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wb-refine")

        def work():
            result = self._run(settings)
            loop.call_soon_threadsafe(self._finish, ticket, settings, *result)

        self._executor.submit(work)

    def _run(self, settings: ExplorerSettings) -> tuple:
        try:
            return self.build(settings), None
        except WorkbenchError as exc:
            return None, exc

    def _finish(self, ticket: int, settings: ExplorerSettings, figure: dict | None,
                error: WorkbenchError | None) -> None:
        with self._lock:
            if ticket != self._latest:
                return   # the settings changed meanwhile: a newer figure is (being) drawn
        if error is not None:
            self.failed(settings, error)
        else:
            self.done(settings, figure)


def warm_simulator(systems) -> threading.Thread | None:
    """Load the simulator's compiled kernels for ``systems`` in a background thread, so the
    first simulated view does not wait for them (numba loads each kernel on first use)."""
    try:
        import numba  # noqa: F401  # lazy: numba, only to know the simulator can run
    except ImportError:
        return None
    def warm():
        for system in systems:
            try:
                sys_ = get_system(system)
                given = {sys_.pool_parameter: typical_pool(sys_)} if sys_.pool_parameter else {}
                evaluate(sys_, given, "simulate", 64, 0)
            except Exception:   # a system that cannot simulate says so when it is drawn
                pass

    thread = threading.Thread(target=warm, name="wb-warm-simulator", daemon=True)
    thread.start()
    return thread
