"""Where a sweep runs: in this process, in a process pool, or on any ``Executor`` (Dask too).

Points go out in batches, so each task carries enough work that scheduling costs little
(:data:`BATCH_SECONDS` of estimated work a batch, measured on the first point). Results come
back as ``(index, figures)`` pairs and are put back in grid order, so the frame does not
depend on which worker finished first.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gc
import math
import os
import signal
import threading
import time
import warnings
from typing import Any, Mapping, Sequence

from ..errors import WorkbenchError
from ._exact import exact_check_rows
from ._functions import TARGETS

BATCH_SECONDS = 0.5
"""Estimated work per batch sent to an executor (a task's overhead is a few milliseconds)."""

LOCAL_BATCH_SECONDS = 0.1
"""Estimated work per batch in this process (how often the progress bar moves)."""

BALANCE = 4
"""At least this many batches per worker, so a slow batch does not leave workers idle."""

PROCESS_POOL_FROM = 5.0
"""A Python-bound sweep estimated to take this many seconds or more uses a process pool."""

PROGRESS_FROM = 1.0
"""With ``progress=None`` a bar shows for sweeps estimated to take this long or more."""


def evaluate_batch(function: str, fixed: Mapping[str, Any],
                   items: Sequence[tuple[int, dict, int | None]],
                   known: Any = None) -> list[tuple[int, dict]]:
    """Evaluate points ``(index, params, seed)`` of a sweep (runs in workers too; ``known``:
    in this process, the points' parameters as the sweep checked them, see
    :func:`~._exact.exact_check_rows`)."""
    target = TARGETS[function]
    out = []
    # Exact checks allocate many small dicts and tuples a point and keep most of them (the
    # memo): the cyclic garbage collector would rescan them over and over (a quarter of the
    # time), and none of them form cycles, so it pauses for the batch.
    collecting = gc.isenabled() and function == "check"
    if collecting:
        gc.disable()
    try:
        if function == "check":
            out = exact_check_rows(items, fixed, known)   # system names looked up afresh per batch
        else:
            for index, params, seed in items:
                out.append((index, target.figures(target.call({**fixed, **params}, seed))))
    finally:
        if collecting:
            gc.enable()
    return out


def _workers(executor) -> int:
    for attribute in ("_max_workers", "_max_threads"):
        count = getattr(executor, attribute, None)
        if isinstance(count, int) and count > 0:
            return count
    client = getattr(executor, "_client", None)
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:   # a client that cannot say: assume this machine's size
            pass
    return os.cpu_count() or 1


@contextlib.contextmanager
def _workers_ignore_ctrl_c(starting: bool):
    """Processes started inside inherit "ignore Ctrl-C" (a Python process started with SIGINT
    ignored keeps it ignored). This process ignores it only for those few milliseconds."""
    if not starting or threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler if handler is not None else signal.default_int_handler)


def _batches(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


class Runner:
    """Runs the items of one sweep and collects ``index -> figures``."""

    def __init__(self, function: str, fixed: Mapping[str, Any], items: list,
                 executor: Any, progress: bool | None, description: str, known: Any = None):
        self.function = function
        self.known = known   # what the sweep checked, reused by the points run here
        self.fixed = dict(fixed)
        self.items = items
        self.executor = executor
        self.progress = progress
        self.description = description
        self.results: dict[int, dict] = {}
        self.partial = False

    def run(self) -> dict[int, dict]:
        items = self.items
        bar = None
        try:
            # The first points run here: the first compiles (or loads) any kernels, the
            # second times a point.
            first = 2 if len(items) > 2 else 1
            self._store(evaluate_batch(self.function, self.fixed, items[:first - 1], self.known))
            start = time.perf_counter()
            self._store(evaluate_batch(self.function, self.fixed, items[first - 1:first], self.known))
            per_point = max(time.perf_counter() - start, 1e-6)
            rest = items[first:]
            estimate = per_point * len(rest)
            show = estimate >= PROGRESS_FROM if self.progress is None else bool(self.progress)
            if show:
                from tqdm.auto import tqdm  # lazy: tqdm.auto loads ipywidgets

                bar = tqdm(total=len(items), initial=first, desc=self.description, unit="point")
            if rest:
                self._run_rest(rest, per_point, estimate, bar)
        except KeyboardInterrupt:
            self.partial = True
            warnings.warn(f"sweep interrupted: {len(self.results)} of {len(items)} points "
                          "finished; the frame holds only those (attrs['partial'] is True)",
                          RuntimeWarning, stacklevel=3)
        finally:
            if bar is not None:
                bar.close()
        return self.results

    def _store(self, pairs) -> None:
        for index, figures in pairs:
            self.results[index] = figures

    def _run_rest(self, rest: list, per_point: float, estimate: float, bar) -> None:
        executor = self.executor
        if executor is None or executor == "auto":
            python_bound = TARGETS[self.function].python_bound and self.function != "check"
            cores = os.cpu_count() or 1
            executor = "processes" if python_bound and cores > 1 and \
                estimate >= PROCESS_POOL_FROM else "local"
        if executor == "local":
            size = max(1, min(math.ceil(LOCAL_BATCH_SECONDS / per_point), 5000))
            for batch in _batches(rest, size):
                self._store(evaluate_batch(self.function, self.fixed, batch, self.known))
                if bar is not None:
                    bar.update(len(batch))
            return
        if executor == "processes":
            # Spawned, not forked: a fork of a process whose numba threads are running can
            # hang in the child.
            import multiprocessing  # lazy: only for a process pool

            pool = cf.ProcessPoolExecutor(mp_context=multiprocessing.get_context("spawn"))
            try:
                self._submit_all(pool, rest, per_point, bar, own_processes=True)
            finally:   # on Ctrl-C too: drop what has not started, do not wait for it
                pool.shutdown(wait=False, cancel_futures=True)
            return
        if hasattr(executor, "get_executor"):   # a dask.distributed Client
            executor = executor.get_executor()
        if not hasattr(executor, "submit"):
            raise WorkbenchError(f"sweep executor got {executor!r}; allowed: None, 'local', "
                                 "'processes', a concurrent.futures.Executor or a Dask Client")
        self._submit_all(executor, rest, per_point, bar)

    def _submit_all(self, executor, rest: list, per_point: float, bar,
                    own_processes: bool = False) -> None:
        workers = _workers(executor)
        size = max(1, min(math.ceil(BATCH_SECONDS / per_point),
                          math.ceil(len(rest) / (workers * BALANCE))))
        batches = _batches(rest, size)
        # The first submissions start the pool's processes: they start ignoring Ctrl-C (the
        # terminal sends it to every process of the group; this process alone stops the sweep,
        # so no worker prints a traceback of its own).
        with _workers_ignore_ctrl_c(own_processes):
            futures = [executor.submit(evaluate_batch, self.function, self.fixed, batch)
                       for batch in batches[:workers]]
        futures += [executor.submit(evaluate_batch, self.function, self.fixed, batch)
                    for batch in batches[workers:]]
        try:
            for future in cf.as_completed(futures):
                pairs = future.result()
                self._store(pairs)
                if bar is not None:
                    bar.update(len(pairs))
        except BaseException:
            for future in futures:
                future.cancel()
            raise
