"""Bulk simulation of checks: the same results as the exact engine, by rolling dice (numba).

:func:`simulate` is :func:`workbench.check` by Monte Carlo: it returns the same
:class:`~workbench.results.CheckResult`, with ``method="simulate"``, ``trials`` and the
``seed`` used, so every probability carries a standard error. :func:`simulate_raw` works on a
:class:`~workbench.rules.pool.PoolSpec` directly (a :class:`~workbench.rules.roll.RollSpec`:
:mod:`workbench.engine.roll_simulation`, every die rolled), and :func:`pack` gives the plain
arrays the kernels read (the stateful simulators call the same per-check roll inside their
own kernels)::

    pack(spec) -> (values int64[G, S], explodes bool[G, S], sides int64[G], counts int64[G],
                   rerolls, modifier, floor, has_floor, keep)

Reproducibility: trials are cut into blocks of :data:`BLOCK_SIZE`; block ``k`` always draws
from stream ``k`` of the seed (xoshiro256** seeded through SplitMix64), and per-block counts
are whole numbers added together, so a seed gives identical results on every run and for
any number of threads. Seeds are stable within a version of the workbench; a change to the
generator or the dice is noted in the changelog (``docs/changelog.md``).

Speed: a pool of one die type that is summed without explosions or rerolls (success
counting, cancelling failures, plain sums) runs on the chunk path of
:mod:`workbench.engine._kernels.chunks`: several dice per random draw (five d6, four d10),
each draw a uniform number over every roll of those dice, read from a table of what they
add up to. Such a pool with explosions (open-ended and bounce dice; at most 256 sides) runs
on the byte-table path of :mod:`workbench.engine._kernels.fast` (one die per byte, identical
results to the general kernel for the same seed); every other pool runs on
:func:`workbench.engine._kernels.pool.histogram_blocks`. ``benchmarks/bench_simulate.py``
measures them against numpy. Version 0.2.0 brought the chunk path: a seed gives plain pools
other counts than 0.1.0 gave (the same distribution, other dice drawn).

Interrupting (Ctrl-C) a long run stops it after the current chunk of blocks, closes the
progress bar and re-raises ``KeyboardInterrupt``: a partial run returns nothing, so it can
never be mistaken for a full one.

numba is imported only when a simulation first runs (``workbench.engine._kernels``), never by
``import workbench``.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .. import validation
from ..errors import WorkbenchError
from ..limits import MAX_SEED, MAX_TOTALS, MAX_TRIALS, ROLLED_DICE, count_text  # noqa: F401  (MAX_*: re-exported)
from ..rules.pool import PoolSpec
from ..rules.roll import RollSpec
from ..rules.scored import Outcomes, ScoredRoll
from ..validation import fresh_seed  # noqa: F401  (the stateful simulators import it from here)
from .exact import _die_chain
from .forms import sum_form
from .joint import JointDistribution
from .raw import RawDistribution
from .roll_rounds import simulate_rounds
from .roll_simulation import rolled_per_roll, simulate_roll
from .sampling import simulate_joint
from .summed_roll import summed_roll
from .scored import evaluate_scored, outcomes_distribution
from .work import check_exact, rolled_per_check, spread_of_totals

BLOCK_SIZE = 1 << 16
"""Trials per block; each block has its own random stream (fixed: it defines the results)."""

CHUNK_BLOCKS = 32
"""Blocks per kernel call; the progress bar moves once per chunk."""

CHUNK_CELLS = 1 << 23
"""Most histogram cells one kernel call fills (64 MB of counts)."""

PROGRESS_MIN_DICE = 3 * 10**8
"""With ``progress=None`` a bar is shown when a run rolls about this many dice or more."""

_KEEP_CODES = {"sum": 0, "highest": 1, "lowest": 2}


def pack(spec: PoolSpec) -> tuple:
    """The kernel arguments for a pool: padded face tables and plain numbers.

    Returns ``(values, explodes, sides, counts, rerolls, modifier, floor, has_floor, keep)``
    with ``values`` int64[G, S] and ``explodes`` bool[G, S] (rows padded to the largest die),
    ``sides`` and ``counts`` int64[G], ``keep`` 0 sum / 1 highest / 2 lowest.

    Example:
        >>> from workbench.rules.pool import DieType, PoolSpec
        >>> d6 = DieType.threshold("d6", 6, 5, explode_from=6)
        >>> values, explodes, sides, counts, *rest = pack(PoolSpec(((d6, 3),), modifier=1))
        >>> values.tolist(), explodes[0].tolist()[-1], counts.tolist(), rest
        ([[0, 0, 0, 0, 1, 1]], True, [3], [0, 1, 0, False, 0])
    """
    spec = _summed(spec)
    groups = spec.groups
    widest = max((die.sides for die, _ in groups), default=1)
    values = np.zeros((max(len(groups), 1), widest), dtype=np.int64)
    explodes = np.zeros((max(len(groups), 1), widest), dtype=np.bool_)
    sides = np.ones(max(len(groups), 1), dtype=np.int64)
    counts = np.zeros(max(len(groups), 1), dtype=np.int64)
    for g, (die, count) in enumerate(groups):
        values[g, :die.sides] = die.values
        explodes[g, :die.sides] = die.explodes
        sides[g] = die.sides
        counts[g] = count
    has_floor = spec.floor is not None
    return (values, explodes, sides, counts, int(spec.rerolls), int(spec.modifier),
            int(spec.floor) if has_floor else 0, has_floor, _KEEP_CODES[spec.keep])


def _summed(spec) -> PoolSpec:
    """The roll as the sum the dice-summing kernels roll (stateful play rolls only those)."""
    pool = sum_form(spec)
    if pool is None:
        raise WorkbenchError("this roll reads more than the sum of its dice (counts or statistics); "
                             "the dice-summing kernels cannot roll it")
    return pool


def check_work(trials: int, spec: "PoolSpec | RollSpec") -> None:
    """Refuse a run past the limits before any die is rolled: the dice rolled (each die with
    its expected explosion chain, through ``explode_into`` too; rerolls once more), the
    width of the histogram of totals, and the exact chains the histogram's range is read from.
    A roll that is not a sum has its dice rolled too (a roll with statistics:
    :func:`~workbench.engine.roll_simulation.rolled_per_roll`); one scored in Python, or
    given outright, is drawn from its exact table, one number a check."""
    pool = sum_form(spec)
    if pool is None:
        if isinstance(spec, RollSpec):
            ROLLED_DICE.check(float(trials) * rolled_per_roll(spec), "simulate")
            return
        ROLLED_DICE.check(float(trials), "simulate")
        return
    spec = pool
    ROLLED_DICE.check(float(trials) * rolled_per_check(spec), "simulate")
    width = spread_of_totals(spec)
    if width > MAX_TOTALS:
        raise WorkbenchError(f"simulate: these dice spread over up to {count_text(width)} different totals, "
                             f"more than the {count_text(MAX_TOTALS)} one table may hold; allowed: dice "
                             "whose face values lie closer together (or fewer dice)")
    for die, count in spec.groups:
        if not die.plain:   # its chain's moments are read from the exact chain
            check_exact(PoolSpec(((die, 1),)), f"simulate (the explosion chain of {die.name!r})",
                        fewer="fewer exploding faces, or explode_limit on the die rolled first")


def pack_general(spec: PoolSpec) -> tuple:
    """The arguments of :func:`workbench.engine._kernels.pool.roll_pool_general` for any pool.

    Returns ``(values, explodes, sides, counts, into, limit, rerolls, modifier, floor,
    has_floor, keep, kept)``: :func:`pack`'s tables with one more row for each die type that
    only explosions roll (count 0), ``into`` (row an explosion rolls) and ``limit`` (extra
    dice per initial die, 0: no cap) per row, and ``kept`` (dice kept under ``keep``).

    Example:
        >>> from workbench.rules.pool import DieType, PoolSpec
        >>> d6 = DieType("d6", (0, 0, 0, 0, 1, 1))
        >>> d8 = DieType("d8", (0, 0, 0, 0, 1, 1, 1, 2), (False,) * 7 + (True,), limit=1, into=d6)
        >>> values, explodes, sides, counts, into, limit, *rest = pack_general(PoolSpec(((d8, 2),)))
        >>> sides.tolist(), counts.tolist(), into.tolist(), limit.tolist()
        ([8, 6], [2, 0], [1, 1], [1, 0])
    """
    spec = _summed(spec)
    rows = [die for die, _ in spec.groups]
    counts_of = [n for _, n in spec.groups]
    for die in list(rows):
        kind = die
        while any(kind.explodes) and kind.next is not kind:
            kind = kind.next
            if kind not in rows:
                rows.append(kind)
                counts_of.append(0)
    n_rows = max(len(rows), 1)
    widest = max((die.sides for die in rows), default=1)
    values = np.zeros((n_rows, widest), dtype=np.int64)
    explodes = np.zeros((n_rows, widest), dtype=np.bool_)
    sides = np.ones(n_rows, dtype=np.int64)
    counts = np.zeros(n_rows, dtype=np.int64)
    into = np.arange(n_rows, dtype=np.int64)
    limit = np.zeros(n_rows, dtype=np.int64)
    for g, die in enumerate(rows):
        values[g, :die.sides] = die.values
        explodes[g, :die.sides] = die.explodes
        sides[g], counts[g], limit[g] = die.sides, counts_of[g], die.limit
        into[g] = rows.index(die.next)
    has_floor = spec.floor is not None
    return (values, explodes, sides, counts, into, limit, int(spec.rerolls), int(spec.modifier),
            int(spec.floor) if has_floor else 0, has_floor, _KEEP_CODES[spec.keep], int(spec.kept or 1))



def _chain_moments(values, explodes) -> tuple[float, float]:
    """Mean and variance of one die with its explosion chain (``C = X + [explodes] C'``)."""
    x = np.asarray(values, dtype=float)
    e = np.asarray(explodes, dtype=float)
    p = e.mean()
    mean = x.mean() / (1.0 - p)
    second = ((x ** 2).mean() + 2.0 * (x * e).mean() * mean) / (1.0 - p)
    return mean, max(second - mean ** 2, 0.0)


def _histogram_range(spec: PoolSpec) -> tuple[int, int]:
    """Totals the histogram covers at first: mean +- 8 sd (+8), cut to the possible range.

    A total outside is never dropped: the kernel reports it and the run is repeated (same
    seed, same dice) with the range it saw.
    """
    mean = var = 0.0
    hard_low, hard_high = float(spec.modifier), float(spec.modifier)
    for die, count in spec.groups:
        values = np.asarray(die.values)
        if spec.keep != "sum":
            kept = spec.kept or 1
            return spec.modifier + kept * int(values.min()), spec.modifier + kept * int(values.max())
        if not die.plain:
            # Capped chains or chains into other dice: moments of the exact chain; no hard
            # bounds (a total outside the first range is binned by the rerun).
            chain = _die_chain(die, max(count, 1))[0]
            totals = chain.offset + np.arange(len(chain.probs))
            chain_mean = float(np.dot(totals, chain.probs))
            chain_var = max(float(np.dot(totals ** 2, chain.probs)) - chain_mean ** 2, 0.0)
            extra = min(count, spec.rerolls)
            mean += (count + extra) * chain_mean
            var += (count + extra) * chain_var + extra * chain_mean ** 2
            hard_low, hard_high = -math.inf, math.inf
            continue
        chain_mean, chain_var = _chain_moments(die.values, die.explodes)
        extra = min(count, spec.rerolls)  # a reroll adds at most one more chain per die
        mean += count * chain_mean
        var += (count + extra) * chain_var + extra * chain_mean ** 2
        exploding = values[np.asarray(die.explodes)]
        stopping = values[~np.asarray(die.explodes)]
        hard_low += count * (stopping.min() if len(exploding) == 0 or exploding.min() >= 0
                             else -math.inf)
        hard_high += count * (values.max() if len(exploding) == 0 else math.inf)
    spread = 8.0 * math.sqrt(var) + 8.0
    low = int(max(hard_low, math.floor(spec.modifier + mean - spread)))
    high = int(min(hard_high, math.ceil(spec.modifier + mean + spread + _reroll_mean_bound(spec))))
    if spec.floor is not None:
        low, high = max(low, spec.floor), max(high, spec.floor)
    return low, high


def _reroll_mean_bound(spec: PoolSpec) -> float:
    """Upper bound on the mean the rerolls add (each reroll adds at most one chain)."""
    if not spec.rerolls or not spec.groups or not spec.groups[0][0].plain:
        return 0.0
    die, count = spec.groups[0]
    return min(count, spec.rerolls) * abs(_chain_moments(die.values, die.explodes)[0])


def _progress_bar(enabled: bool, trials: int):
    if not enabled:
        return None
    from tqdm.auto import tqdm  # lazy: tqdm.auto loads ipywidgets
    return tqdm(total=trials, unit="checks", unit_scale=True, desc="simulating")


def _kernel(spec: PoolSpec):
    """The histogram kernel for this pool, its arguments after the common five, and the
    pool whose totals it bins.

    Pools beyond :func:`pack`'s tables (explosion caps, explosions into another die type,
    several dice kept, rerolls of dice with cancelling faces) take
    :func:`workbench.engine._kernels.pool.histogram_blocks_general`.

    Pools of one die type that are summed without rerolls take a fast path that bins the sum
    of the dice only (the modifier and floor are applied to its histogram afterwards,
    :func:`_apply_modifier_and_floor`): the chunk path (:mod:`workbench.engine._kernels.chunks`)
    without explosions, else the byte-table path (:mod:`workbench.engine._kernels.fast`),
    which rolls the same dice as the general kernel for the same seed. Everything else takes
    the general face-table kernel. All have the signature
    ``(seed, first_block, block_count, block_size, trials, *args, low, hist, extremes)``.
    """
    spec = _summed(spec)
    if not spec.plain:
        from ._kernels import pool  # lazy: numba
        return pool.histogram_blocks_general, pack_general(spec), spec
    if len(spec.groups) == 1 and spec.keep == "sum" and not spec.rerolls:
        from ._kernels import chunks, fast  # lazy: numba

        die, count = spec.groups[0]
        tables = chunks.chunk_tables(die.values, die.explodes, count)
        if tables is not None:
            return chunks.chunk_histogram_blocks, tables, replace(spec, modifier=0, floor=None)
        table = fast.byte_table(die.values, die.explodes, count)
        if table is not None:
            return fast.sum_histogram_blocks, (table, count), replace(spec, modifier=0, floor=None)
    from ._kernels import pool  # lazy: numba
    return pool.histogram_blocks, pack(spec), spec


def _run(kernel, args, seed: int, trials: int, low: int, high: int, bar):
    """All blocks into one int64 histogram; also (trials outside, least, greatest total)."""
    width = high - low + 1
    total = np.zeros((2, width), dtype=np.int64)
    outside, least, greatest = 0, np.iinfo(np.int64).max, np.iinfo(np.int64).min
    blocks = -(-trials // BLOCK_SIZE)
    # Fewer blocks a call for wide histograms, so one call's counts stay within CHUNK_CELLS
    # (the blocks and so the results are the same; only the progress bar moves more often).
    per_call = max(1, min(CHUNK_BLOCKS, CHUNK_CELLS // (2 * width)))
    for first in range(0, blocks, per_call):
        count = min(per_call, blocks - first)
        hist = np.zeros((count, 2, width), dtype=np.int64)
        extremes = np.zeros((count, 3), dtype=np.int64)
        kernel(np.uint64(seed), first, count, BLOCK_SIZE, trials, *args, low, hist, extremes)
        total += hist.sum(axis=0)  # whole numbers: the order of addition cannot matter
        # The fast kernel reports the extremes of the totals outside the histogram only,
        # the general one of all totals: with the histogram's own range, both give the same.
        outside += int(extremes[:, 0].sum())
        least, greatest = min(least, int(extremes[:, 1].min())), max(greatest, int(extremes[:, 2].max()))
        if bar is not None:
            bar.update(min(trials, (first + count) * BLOCK_SIZE) - min(trials, first * BLOCK_SIZE))
    seen = np.flatnonzero(total.sum(axis=0))
    if len(seen):
        least, greatest = min(least, low + int(seen[0])), max(greatest, low + int(seen[-1]))
    return total, outside, least, greatest


def _apply_modifier_and_floor(counts: np.ndarray, least: int, spec: PoolSpec) -> tuple[np.ndarray, int]:
    """Histogram of dice sums (first total ``least``) -> histogram of the check's totals:
    shifted by the modifier, totals below the floor moved onto the floor."""
    least += spec.modifier
    if spec.floor is None or least >= spec.floor:
        return counts, least
    below = spec.floor - least  # columns (totals) that move onto the floor
    if below >= counts.shape[1]:  # every total was below the floor
        return counts.sum(axis=1, keepdims=True), spec.floor
    floored = counts[:, below:].copy()
    floored[:, 0] += counts[:, :below].sum(axis=1)
    return floored, spec.floor


def _simulate_roll(spec, trials: int, seed: int, progress: bool | None) -> JointDistribution:
    """A roll with statistics: every die rolled and every statistic read from the dice
    (:mod:`workbench.engine.roll_simulation`, independent of the exact engine), with the same
    blocks and streams as the pool kernels. A roll scored in Python, or given outright, is
    drawn from its exact table instead (one number a check)."""
    if progress is None:
        dice = rolled_per_roll(spec) if isinstance(spec, RollSpec) else 1.0
        progress = trials * dice >= PROGRESS_MIN_DICE
    bar = _progress_bar(bool(progress), trials)
    try:
        if isinstance(spec, RollSpec) and (spec.reroll_faces is not None or spec.again is not None):
            return simulate_rounds(spec, trials, seed, BLOCK_SIZE, CHUNK_BLOCKS, bar)
        if isinstance(spec, RollSpec):
            return simulate_roll(spec, trials, seed, BLOCK_SIZE, CHUNK_BLOCKS, bar)
        joint = evaluate_scored(spec) if isinstance(spec, ScoredRoll) else outcomes_distribution(spec)
        return simulate_joint(joint, trials, seed, BLOCK_SIZE, CHUNK_BLOCKS, bar)
    finally:
        if bar is not None:
            bar.close()


def simulate_raw(spec: "PoolSpec | RollSpec", trials: int = 1_000_000, seed: int | None = None,
                 progress: bool | None = None) -> "RawDistribution | JointDistribution":
    """Simulate a pool: frequencies of each total, split by "every initial die failed"; or a
    roll with statistics: frequencies of each combination, every die rolled.

    Args:
        spec: the pool (from a mechanic, or built by hand).
        trials: checks to roll, a whole number from 1 to 1e10.
        seed: 0 to 2**64 - 1 for reproducible results; ``None`` draws a fresh seed (use
            :func:`simulate` to learn which).
        progress: ``True`` / ``False`` to show a tqdm bar or not; ``None`` shows it for
            long runs only.

    Returns:
        A :class:`~workbench.engine.raw.RawDistribution` with ``trials`` set and
        ``lost_mass`` 0 (explosion chains are never cut); for a roll with statistics a
        :class:`~workbench.engine.joint.JointDistribution` of its statistics, likewise.

    Example:
        >>> from workbench.rules.pool import DieType, PoolSpec
        >>> raw = simulate_raw(PoolSpec(((DieType.threshold("d6", 6, 4), 1),)), 100_000, seed=1)
        >>> raw.totals.tolist(), raw.trials, bool(abs(raw.pmf[1] - 0.5) < 0.01)
        ([0, 1], 100000, True)
    """
    trials = validation.trials("simulate", trials)
    seed = validation.seed("simulate", seed)
    check_work(trials, spec)
    progress = validation.optional_boolean("simulate", "progress", progress)
    pool = sum_form(spec)
    if pool is None:
        summed = summed_roll(spec) if isinstance(spec, RollSpec) else None
        if summed is not None:   # sums over dice and counts only: the pool kernels roll it as one sum
            return summed.joint(simulate_raw(summed.pool, trials, seed, progress))
        return _simulate_roll(spec, trials, seed, progress)
    return _simulate_pool(pool, trials, seed, progress)


def _simulate_pool(spec: PoolSpec, trials: int, seed: int, progress: bool | None) -> RawDistribution:
    """A pool summed by the histogram kernels: every total binned (a run whose explosions
    left the first range is rolled again, the same dice, over the range seen), then the
    modifier and floor applied where the kernel binned the dice's sum only."""
    kernel, args, binned = _kernel(spec)
    low, high = _histogram_range(binned)
    if progress is None:
        progress = trials * max(spec.dice, 1) >= PROGRESS_MIN_DICE
    bar = _progress_bar(bool(progress), trials)
    try:
        with np.errstate(over="ignore"):  # wrap-around is intended (pure-Python mode only)
            counts, outside, least, greatest = _run(kernel, args, seed, trials, low, high, bar)
            if outside:
                # A long explosion chain left the range: the same seed rolls the same dice,
                # so a rerun over the range actually seen bins every trial.
                low, high = min(low, least), max(high, greatest)
                if high - low + 1 > MAX_TOTALS:
                    raise WorkbenchError(f"simulate: the totals rolled spread from {low} to {high}, "
                                         f"more than the {MAX_TOTALS:,} one table may hold; "
                                         "allowed: dice whose explosions stop sooner")
                counts, outside, least, greatest = _run(kernel, args, seed, trials, low, high, None)
    finally:
        if bar is not None:
            bar.close()
    if outside:  # cannot happen: the rerun's range covers every total seen
        raise RuntimeError(f"simulation lost {outside} trials outside [{low}, {high}]")
    counts = counts[:, least - low:greatest - low + 1]
    if binned is not spec:
        counts, least = _apply_modifier_and_floor(counts, least, spec)
    return RawDistribution(least, counts / trials, lost_mass=0.0, trials=trials)
