"""Simulated views in two steps: a first estimate at once, then the trials asked for.

A simulation of 100,000 trials at every pool and rung takes a while; the explorer first draws
the same settings with :data:`FIRST_TRIALS` trials (well under half a second), says so, and
runs the full simulation in a worker thread. When it is done, and nothing has changed in the
meantime, its figure replaces the estimate; a change in between makes it obsolete (it is
dropped, never drawn over newer settings). The figure function stays pure: both steps are
:func:`~workbench.widgets.figures.figure_json` of frozen settings, differing in ``trials``.

Outside a running event loop (a script, a test) the full figure is computed at once, after
the estimate, in the calling thread.

:class:`Prefetcher` works the same way for exact views: after a slider moves, the values a step
either side are computed in the background, so stepping on finds them ready.
"""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Callable, Iterable

from ..analysis import evaluate, typical_pool
from ..errors import WorkbenchError
from ..rules.registry import get_system
from .axes import entry_axis
from .data import entry_checks, entry_curves, entry_spread
from .settings import ExplorerSettings

#: Trials per point of the first estimate.
FIRST_TRIALS = 2_000


#: Points (rungs x pool sizes) the first estimate simulates at most: past that it takes every
#: second (third...) pool size of a dice axis, the ends always included.
FIRST_POINTS = 90


def first_estimate(settings: ExplorerSettings) -> ExplorerSettings | None:
    """The settings of the first estimate, or ``None`` when the settings themselves are quick
    (exact, or no more trials than the estimate would take): :data:`FIRST_TRIALS` trials, at
    every pool size while there are at most :data:`FIRST_POINTS` points, else at every k-th.

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> s = ExplorerSettings((EntrySettings("uwr"),), method="simulate", trials=100_000,
        ...                      seed=1, pool_sizes=tuple(range(1, 41)))
        >>> quick = first_estimate(s)
        >>> quick.trials, quick.pool_sizes[:3], quick.pool_sizes[-1]
        (2000, (1, 3, 5), 40)
        >>> first_estimate(replace(s, method="exact"))
    """
    if settings.method != "simulate" or settings.trials <= FIRST_TRIALS:
        return None
    sizes = settings.pool_sizes
    points = sum(len(entry.chosen_rungs()) * len(_axis(entry, settings).values)
                 for entry in settings.entries if _axis(entry, settings).kind == "dice")
    step = -(-points // FIRST_POINTS) if points > FIRST_POINTS else 1
    if step > 1:
        sizes = tuple(dict.fromkeys((*sizes[::step], sizes[-1])))
    return replace(settings, trials=FIRST_TRIALS, pool_sizes=sizes)


def _axis(entry, settings: ExplorerSettings):
    return entry_axis(entry.system_object, settings.pool_sizes, entry.chosen_rungs())


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


class Prefetcher:
    """After a slider moves, the values either side of it are computed in a worker thread
    (exact only), so the next step of the same slider finds its numbers ready: a slider is
    mostly moved a step at a time. Only the memo of :mod:`.data` is filled; nothing is drawn."""

    def __init__(self):
        self._executor: ThreadPoolExecutor | None = None
        self.pending = None   # the last job (a Future), for tests and benchmarks to wait on

    def start(self, settings: ExplorerSettings, index: int, knobs: "str | Iterable[str]",
              skip: str | None = None) -> None:
        """Compute entry ``index`` of ``settings`` with each of ``knobs`` one step down and up
        (``skip``: a knob the view draws along, which has no steps of its own)."""
        if settings.method != "exact":
            return
        entry = settings.entries[index]
        values = dict(entry.params)
        neighbours = []
        for knob in [knobs] if isinstance(knobs, str) else list(knobs):
            param = entry.system_object.params.get(knob)
            value = values.get(knob)
            if (knob == skip or param is None or param.kind != "int"
                    or not isinstance(value, int) or isinstance(value, bool)):
                continue
            steps = [v for v in (value - 1, value + 1)
                     if (param.minimum is None or v >= param.minimum)
                     and (param.maximum is None or v <= param.maximum)]
            neighbours += [replace(entry, params=tuple((k, v if k == knob else old)
                                                       for k, old in entry.params)) for v in steps]
        if not neighbours:
            return
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wb-prefetch")
        self.pending = self._executor.submit(_fill, settings, neighbours)


def _fill(settings: ExplorerSettings, entries: list) -> None:
    options = (settings.method, settings.trials, settings.seed)
    for entry in entries:
        try:
            if settings.view in ("curve", "difference"):
                axis = entry_axis(entry.system_object, settings.pool_sizes, entry.chosen_rungs())
                entry_curves(entry, axis, *options)
            elif settings.view == "outcomes":
                entry_checks(entry, *options)
            else:
                entry_spread(entry, *options)
        except WorkbenchError:   # a value the rules refuse: drawn (and said) if it is chosen
            pass
