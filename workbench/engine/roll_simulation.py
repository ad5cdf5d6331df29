"""Simulating a roll with statistics by rolling its dice, independently of the exact engine.

:func:`simulate_roll` rolls every die of a :class:`~workbench.rules.roll.RollSpec` (faces,
explosion chains, percentile tens and units dice, rerolls of misses, dice set aside) and reads
every statistic from the dice rolled, check by check, in the kernels of
:mod:`workbench.engine._kernels.rolls`; the total and the derived statistics are then
evaluated over the distinct combinations that came up (:func:`finish`). Nothing is taken from
the exact engine, so a simulated check tests it.

Rules, as :func:`workbench.score` reads one roll (:mod:`workbench.engine.concrete_roll`):

- an exploding die is one die: its value and counts are its whole chain's sums;
- dice rank by value, then by their counts (more first, the first count deciding first);
- ``rerolls``: after the roll, the first dice (in the order of the groups) whose value is 0
  are rolled again, once each, up to ``rerolls`` dice; the new result counts;
- ``kept``: only the highest (lowest) dice of one type stay in the roll; the total, the
  counts and every statistic read the dice that stay;
- :class:`~workbench.rules.roll.AllNegative` is 1 when the roll has dice and every initial
  die (set aside or not) showed a negative value on its first face.

Seeds: blocks of trials, block ``k`` from stream ``k`` of the seed (the generator of
:mod:`workbench.engine._kernels.rng`), counts added as whole numbers: a seed gives the same
result on every run and for any number of threads.

Example:
    >>> from workbench.rules.roll import Die, Pick, RollSpec
    >>> spec = RollSpec(((Die.numbered("d6", 6), 2),), stats=(Pick("best"),), total="best")
    >>> joint = simulate_roll(spec, 100_000, seed=1)
    >>> joint.trials, joint.column("total").tolist(), bool(abs(joint.probabilities[-1] - 11 / 36) < 0.01)
    (100000, [1, 2, 3, 4, 5, 6], True)
"""
from __future__ import annotations

import threading

import numpy as np

from ..errors import WorkbenchError
from ..rules.expressions import evaluate, parse
from ..rules.roll import Derived, Percentile, RollSpec
from .compiled_roll import CompiledRoll, compile_roll
from .columns import finished_totals
from .joint import JointDistribution

MAX_ROWS = 5_000_000
"""Most distinct combinations of statistics one simulated roll may come to (as exact)."""

TABLE_START = 1 << 10
"""Rows of each block's table at first; it grows (the blocks rerun) when a block fills it."""

CALL_CELLS = 1 << 22
"""Most cells (whole numbers) the arrays of one kernel call hold (32 MB)."""

_CHAIN_CAP = 10**6
"""Dice one chain is counted as at most when estimating the work of a run."""


def rolled_per_roll(spec: RollSpec) -> float:
    """Dice one simulated check of ``spec`` rolls on average: each initial die with its
    expected explosion chain (a percentile die: its units die and its tens dice), each reroll
    one more chain of the dice most costly to roll, each die that a reroll by face may push
    one more (a roll made again: :mod:`workbench.engine.roll_rounds` counts its rolls once it
    knows how often it rolls again).

    Example:
        >>> from workbench.rules.roll import Die, Percentile, RollSpec
        >>> d6 = Die("d6", (1, 2, 3, 4, 5, 6), (False,) * 5 + (True,))
        >>> round(rolled_per_roll(RollSpec(((d6, 5), (Percentile(extra=-2), 1)))), 6)   # 5 x 1.2 + 4
        10.0
    """
    rolled, costliest = 0.0, 0.0
    for die, count in spec.groups:
        if isinstance(die, Percentile):
            chain = 2.0 + abs(die.extra)
        else:
            chain, alive, kind, extra = 1.0, 1.0, die, 0
            while True:
                alive *= sum(kind.explodes) / kind.sides
                extra += 1
                if alive < 1e-12 or (die.limit and extra > die.limit):
                    break
                if extra > _CHAIN_CAP:
                    chain = float("inf")
                    break
                chain += alive
                kind = kind.next
        rolled += count * chain
        if count:
            costliest = max(costliest, chain)
    pushed = sum(n for die, n in spec.groups if spec.reroll_faces is not None and spec.reroll_faces.of(die.name))
    return max(rolled + min(spec.rerolls, spec.dice) * costliest + pushed, 1.0)


def simulate_roll(spec: RollSpec, trials: int, seed: int, block_size: int = 1 << 16,
                  chunk_blocks: int = 32, bar=None) -> JointDistribution:
    """``trials`` checks of ``spec``, every die rolled: the joint distribution of its
    statistics with frequencies and ``trials``. Blocks of ``block_size`` trials draw from
    their own streams of ``seed``, on as many threads as numba uses (``NUMBA_NUM_THREADS``,
    ``numba.set_num_threads``); ``bar`` (a tqdm bar) moves after each group of blocks.
    Arguments are not checked here (:func:`workbench.engine.simulation.simulate_raw` does)."""
    import numba  # lazy: numba

    from ._kernels import rolls  # lazy: numba

    compiled = compile_roll(spec)
    blocks = -(-trials // block_size)
    table = TABLE_START
    found: list = []
    first = 0
    workers = thread_pool(min(numba.get_num_threads(), chunk_blocks, blocks))
    with np.errstate(over="ignore"):   # the table's hash wraps around (pure-Python mode only)
        while first < blocks:
            count = min(_blocks_per_call(compiled, table, block_size, chunk_blocks), blocks - first)
            counted = _count(rolls, compiled, seed, first, count, block_size, trials, table, workers)
            if counted is None:   # a block met more combinations than its table holds
                table = min(table * 16, _largest_table(block_size))
                continue   # the same blocks again, the same dice, a larger table
            found.append(counted)
            if len(found) > 1 and sum(len(rows) for rows, _ in found) > max(1 << 16, 4 * len(found[0][0])):
                found = [_merged(found)]
                _check_rows(len(found[0][0]))
            if bar is not None:
                bar.update(min(trials, (first + count) * block_size) - min(trials, first * block_size))
            first += count
    rows, hits = _merged(found)
    _check_rows(len(rows))
    return finish(spec, compiled.names, rows, hits, trials)


def _count(rolls, compiled: CompiledRoll, seed: int, first: int, count: int, block_size: int,
           trials: int, table: int, workers):
    """Blocks ``first .. first + count - 1`` rolled and read: their distinct rows of
    statistics and how often each came up, or ``None`` when a block's table filled up."""
    keys = np.zeros((count, table, len(compiled.names)), np.int64)
    hits = np.zeros((count, table), np.int64)
    status = np.zeros(count, np.int64)
    if compiled.scores:
        att, negative = _roll_and_score(rolls, compiled, seed, first, count, block_size, trials, workers)
        _each_block(workers, count, lambda b: rolls.count_block(
            first + b, b, block_size, trials, att, negative, *compiled.dice[-3:], *compiled.reading,
            keys, hits, status))
    else:
        kernel = rolls.joint_block if compiled.general else rolls.plain_joint_block
        _each_block(workers, count, lambda b: kernel(
            np.uint64(seed), first + b, b, block_size, trials, *compiled.dice, *compiled.reading,
            keys, hits, status))
    if status.any():
        return None
    seen = hits > 0
    return keys[seen], hits[seen]


def _each_block(workers, count: int, work) -> None:
    """``work(b)`` for ``b`` in ``0 .. count - 1`` (see :func:`each`)."""
    each(workers, [(b,) for b in range(count)], work)


_POOLS: dict = {}
_POOLS_LOCK = threading.Lock()


def thread_pool(threads: int) -> "ThreadPoolExecutor | None":
    """A pool of ``threads`` threads kept for the next runs (``None`` for one thread: the
    blocks run here). Threads cost a few milliseconds to start, as much as a small run."""
    if threads <= 1:
        return None
    from concurrent.futures import ThreadPoolExecutor   # lazy: threads only where a run needs them
    with _POOLS_LOCK:
        if threads not in _POOLS:
            _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="wb-roll")
        return _POOLS[threads]


def each(workers, parts: list, work) -> None:
    """``work(*part)`` for each part, on the threads of ``workers`` (``None``: here, in turn).
    The kernels release the GIL; each part writes its own rows of the arrays. When a part
    fails or Ctrl-C interrupts the wait, the parts not started are dropped and those under way
    finish (none is left writing) before the exception goes on."""
    if workers is None:
        for part in parts:
            work(*part)
        return
    futures = [workers.submit(work, *part) for part in parts]
    try:
        for done in futures:
            done.result()   # waits (Ctrl-C interrupts the wait) and raises what a part raised
    except BaseException:
        from concurrent.futures import wait   # loaded already: workers is such a pool
        for future in futures:
            future.cancel()
        wait(futures)
        raise


def _check_rows(rows: int) -> None:
    if rows > MAX_ROWS:
        raise WorkbenchError(f"simulate: these rolls came to more than {MAX_ROWS:,} different "
                             "combinations of their statistics, more than one table keeps; "
                             "use fewer statistics (or fewer trials)")


def _largest_table(block_size: int) -> int:
    """A table with room for every trial of a block at half load."""
    return 1 << int(2 * block_size - 1).bit_length()


def _blocks_per_call(compiled: CompiledRoll, table: int, block_size: int, most: int) -> int:
    """Blocks one kernel call rolls: its tables (and rolled dice) within :data:`CALL_CELLS`."""
    cells = table * (len(compiled.names) + 1)
    if compiled.scores:
        cells += block_size * (max(compiled.out_dice, 1) * (compiled.dice[3].shape[2] + len(compiled.scores)) + 1)
    return max(1, min(most, CALL_CELLS // cells))


def _roll_and_score(rolls, compiled: CompiledRoll, seed, first, count, block_size, trials, workers):
    """The dice of ``count`` blocks, each die's chain scored by the roll's score expressions
    (a score is read from the chain's sums, so it is computed after the dice are rolled)."""
    width = compiled.dice[3].shape[2]
    room = max(compiled.out_dice, 1)
    rolled = min(count * block_size, trials - first * block_size)   # the last block may end early
    att = np.zeros((rolled, room, width + len(compiled.scores)), np.int64)
    negative = np.zeros(rolled, np.bool_)
    _each_block(workers, count, lambda b: rolls.dice_block(
        np.uint64(seed), first + b, b, block_size, trials, *compiled.dice, att, negative))
    names = {"value": att[:, :, 0], **{name: att[:, :, 1 + j] for j, name in enumerate(compiled.count_names)}}
    for e, text in enumerate(compiled.scores):
        att[:, :, width + e] = np.broadcast_to(evaluate(parse(text), names), att.shape[:2])
    return att, negative


def _merged(found: list) -> tuple[np.ndarray, np.ndarray]:
    """Rows counted in several tables as one sorted table of distinct rows and counts."""
    rows = np.concatenate([r for r, _ in found])
    hits = np.concatenate([h for _, h in found])
    if not len(rows):
        return rows, hits
    distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    counts = np.zeros(len(distinct), np.int64)
    np.add.at(counts, inverse.reshape(-1), hits)
    return distinct, counts


def finish(spec: RollSpec, names: tuple, rows: np.ndarray, hits: np.ndarray, trials: int) -> JointDistribution:
    """The joint distribution of every statistic from the distinct rows read from the dice
    (one column per name of ``names``) and how often each came up (:func:`full_rows`, equal
    rows merged)."""
    values, counts = _merged([(full_rows(spec, names, rows), hits)])
    return JointDistribution(spec.statistic_names, values, counts / trials, trials=trials)


def full_rows(spec: RollSpec, names: tuple, rows: np.ndarray) -> np.ndarray:
    """Rows of every statistic of ``spec`` (``spec.statistic_names``) from rows read from the
    dice (one column per name of ``names``): the derived statistics the total reads, the total
    with its modifier, floor and ceiling, the other derived statistics."""
    named: dict = dict(spec.values)
    named.update({name: rows[:, k] for k, name in enumerate(names) if name is not None})
    size = len(rows)

    def column(expression) -> np.ndarray:
        return np.broadcast_to(np.asarray(evaluate(expression, named)), (size,)).astype(np.int64)

    early = spec.derived_before_total
    derived = [stat for stat in spec.stats if isinstance(stat, Derived)]
    for stat in derived:
        if stat.name in early:
            named[stat.name] = column(stat.expression)
    total = named["total"] if spec.total is None else column(spec.total)
    named["total"] = finished_totals(spec, total)
    for stat in derived:
        if stat.name not in early:
            named[stat.name] = column(stat.expression)
    return np.column_stack([np.broadcast_to(named[name], (size,)) for name in spec.statistic_names]
                           ).astype(np.int64).reshape(size, len(spec.statistic_names))
