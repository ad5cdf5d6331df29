"""Shared plumbing of the stateful simulators: input checks, seeds, blocks, progress, packing.

Reproducibility: the trials of a run are cut into fixed blocks of :data:`BLOCK_TRIALS`
trials; block ``b`` draws from its own random stream ``(seed, b)`` and writes its own rows
of the output, so the result is the same whatever the number of threads or progress chunks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .. import validation
from ..engine.simulation import pack
from ..limits import MAX_STEPS, SIMULATED_CHECKS
from ..results.rich import RichResult
from ..rules.pool import PoolSpec

BLOCK_TRIALS = 4096
"""Trials per random stream; fixed so results never depend on how the work is split."""

TAIL_CUT = 1e-12
"""Exact step distributions are followed until less than this much probability is left."""

PROGRESS_FROM = 20_000_000
"""Runs with at least this many rolled checks show a progress bar when ``progress=None``."""

CHUNK_BLOCKS = 64
"""Blocks per kernel call (the progress bar moves between calls; counts are summed)."""

QUIET_CHUNK_BLOCKS = 1024
"""Blocks per kernel call when no progress bar shows."""


# -- input checks: the one validator (workbench.validation), under the names used here --
need_int = validation.whole_number
need_probability = validation.probability
need_rate = validation.rate
need_choice = validation.choice


def need_trials(where: str, trials: Any) -> int:
    return validation.trials(where, trials)


def need_method(where: str, method: Any) -> str:
    return validation.method(where, method)


def need_steps(where: str, name: str, value: Any) -> int:
    """The longest run followed (``max_exchanges``, ``max_rolls``, ``max_rounds``)."""
    return validation.whole_number(where, name, value, 1, MAX_STEPS)


def resolve_seed(where: str, seed: Any) -> int:
    """The seed to use: the one given, or a fresh one (reported in the result) for ``None``."""
    return validation.seed(where, seed)


def check_work(where: str, checks: float) -> None:
    """Refuse a simulation that would roll more checks than the budget, before it starts."""
    SIMULATED_CHECKS.check(checks, where)


# -- seeds and blocks ------------------------------------------------------------------
def block_count(trials: int) -> int:
    return -(-trials // BLOCK_TRIALS)


def run_kernel(kernel, trials: int, seed: int, args: tuple, outputs: Sequence[tuple],
               progress: bool | None, work: float, description: str) -> list[np.ndarray]:
    """Run ``kernel(seed, first, blocks, BLOCK_TRIALS, trials, *args, *outputs)`` over every
    block, :data:`CHUNK_BLOCKS` blocks per call, and return each output summed over blocks.

    ``outputs`` are the shapes of one block's int64 counts. ``work`` (rolled checks) decides
    whether a progress bar shows when ``progress`` is ``None``. The sums do not depend on
    the chunking: each block has its own stream and its own output rows.
    """
    blocks = block_count(trials)
    totals = [np.zeros(shape, np.int64) for shape in outputs]
    show = work >= PROGRESS_FROM if progress is None else validation.boolean(
        description, "progress", progress)
    bar = None
    if show:
        from tqdm.auto import tqdm  # lazy: tqdm.auto loads ipywidgets
        bar = tqdm(total=blocks, desc=description, unit="block")
    # Without a bar to move, fewer and larger calls: each call ends waiting for its slowest
    # thread, which on a busy machine costs more than the kernel itself for short runs.
    per_call = CHUNK_BLOCKS if bar is not None else max(CHUNK_BLOCKS, QUIET_CHUNK_BLOCKS)
    try:
        for first in range(0, blocks, per_call):
            count = min(per_call, blocks - first)
            chunk = [np.zeros((count, *shape), np.int64) for shape in outputs]
            kernel(np.uint64(seed), first, count, BLOCK_TRIALS, trials, *args, *chunk)
            for total, part in zip(totals, chunk):
                total += part.sum(axis=0)
            if bar is not None:
                bar.update(count)
    finally:
        if bar is not None:
            bar.close()
    return totals


# -- pools as arrays -------------------------------------------------------------------
@dataclass(frozen=True)
class PackedPools:
    """Several :class:`PoolSpec` as padded arrays, one row per pool, for the kernels.

    ``values[p, g, f]``/``explodes[p, g, f]``: face ``f`` (0-based) of die type ``g`` of pool
    ``p``; ``sides[p, g]``, ``counts[p, g]``; ``rerolls``, ``modifier``, ``floor``,
    ``has_floor``, ``keep`` per pool (``keep``: 0 sum, 1 highest, 2 lowest).
    """

    values: np.ndarray
    explodes: np.ndarray
    sides: np.ndarray
    counts: np.ndarray
    rerolls: np.ndarray
    modifier: np.ndarray
    floor: np.ndarray
    has_floor: np.ndarray
    keep: np.ndarray

    def arrays(self) -> tuple:
        """The nine arrays in the order the kernels unpack them."""
        return (self.values, self.explodes, self.sides, self.counts, self.rerolls,
                self.modifier, self.floor, self.has_floor, self.keep)


def pack_pools(specs: Sequence[PoolSpec]) -> PackedPools:
    """Stack :func:`workbench.engine.simulation.pack` of each spec into padded arrays (one row a pool)."""

    packed = [pack(spec) for spec in specs]
    groups = max(p[0].shape[0] for p in packed)
    faces = max(p[0].shape[1] for p in packed)
    n = len(specs)
    values = np.zeros((n, groups, faces), np.int64)
    explodes = np.zeros((n, groups, faces), np.bool_)
    sides = np.ones((n, groups), np.int64)
    counts = np.zeros((n, groups), np.int64)
    for row, (vals, expl, sid, cnt, *_rest) in enumerate(packed):
        values[row, :vals.shape[0], :vals.shape[1]] = vals
        explodes[row, :expl.shape[0], :expl.shape[1]] = expl
        sides[row, :len(sid)] = sid
        counts[row, :len(cnt)] = cnt
    column = lambda k, dtype: np.array([p[k] for p in packed], dtype)  # noqa: E731
    return PackedPools(values, explodes, sides, counts, rerolls=column(4, np.int64),
                       modifier=column(5, np.int64), floor=column(6, np.int64),
                       has_floor=column(7, np.bool_), keep=column(8, np.int64))


# -- results: how many steps until something happens -------------------------------------
@dataclass(frozen=True, repr=False)
class StepsResult(RichResult):
    """How many steps (exchanges, rolls, rounds) until an event: exact or simulated.

    Attributes:
        quantity: what a step is (``"exchanges"``, ``"rolls"``, ``"rounds"``).
        frame: a DataFrame with columns ``<quantity>``, ``probability``, ``cumulative`` and,
            when simulated, ``stderr`` (binomial standard error of each probability).
        mean: expected steps. Where no run was cut (``tail`` below 1e-12, as with the
            default ``max_*``), the expectation (exact: from the fundamental matrix). Where
            runs were cut at ``max_*`` (``tail`` above), the mean of the runs that ended
            within it, for both methods, so exact and simulated answers agree: a clock
            expecting 24 rolls, cut at 20, has mean 14.7 with 57% of runs beyond the table.
            ``inf`` when no run ends.
        mean_stderr: standard error of a simulated mean (``None`` when exact).
        tail: probability beyond the last row (exact: below 1e-12 unless ``max_steps`` cut
            it; simulated: share of trials still running after ``max_steps``).
        method, trials, seed, params: how it was computed and from what.
    """

    quantity: str
    frame: Any
    mean: float
    mean_stderr: float | None
    tail: float
    method: str
    trials: int | None
    seed: int | None
    params: dict

    def probability(self, steps: int) -> float:
        """P(exactly ``steps`` steps)."""
        steps = validation.whole_number(None, "steps", steps)
        rows = self.frame[self.frame[self.quantity] == steps]
        return float(rows["probability"].iloc[0]) if len(rows) else 0.0

    def within(self, steps: int) -> float:
        """P(the event within ``steps`` steps)."""
        steps = validation.whole_number(None, "steps", steps)
        return float(self.frame.loc[self.frame[self.quantity] <= steps, "probability"].sum())


def exact_steps(quantity: str, probabilities: np.ndarray, tail: float, mean: float,
                params: dict) -> StepsResult:
    """``mean`` is the chain's whole expectation; where runs were cut (``tail`` above
    :data:`TAIL_CUT`), the result's mean is that of the runs that ended within the table
    instead, the figure a simulation measures (see :class:`StepsResult`)."""
    import pandas as pd  # lazy: pandas

    steps = np.arange(1, len(probabilities) + 1)
    if tail > TAIL_CUT:
        ended = float(probabilities.sum())
        mean = float(steps @ probabilities) / ended if ended > 0 else float("inf")
    frame = pd.DataFrame({quantity: steps, "probability": probabilities,
                          "cumulative": np.cumsum(probabilities)})
    return StepsResult(quantity, frame, float(mean), None, float(tail), "exact", None, None, params)


def simulated_steps(quantity: str, counts: np.ndarray, trials: int, seed: int,
                    params: dict) -> StepsResult:
    """``counts[n]``: trials that ended after ``n`` steps (``n >= 1``); ``counts[0]``: trials
    still running at the limit."""
    import pandas as pd  # lazy: pandas

    finished = counts[1:].astype(float)
    last = int(np.nonzero(finished)[0][-1]) + 1 if finished.any() else 0
    probs = finished[:last] / trials
    steps = np.arange(1, last + 1)
    frame = pd.DataFrame({quantity: steps, "probability": probs, "cumulative": np.cumsum(probs),
                          "stderr": np.sqrt(probs * (1 - probs) / trials)})
    done = finished.sum()
    if done:
        mean = float((steps * finished[:last]).sum() / done)
        var = float(((steps - mean) ** 2 * finished[:last]).sum() / done)
        mean_stderr = math.sqrt(var / done)
    else:
        mean, mean_stderr = float("inf"), None
    return StepsResult(quantity, frame, mean, mean_stderr, float(counts[0]) / trials,
                       "simulate", trials, seed, params)


