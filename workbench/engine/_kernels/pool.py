"""One generic success-counting roll, driven by face tables, and the parallel histogram kernel.

Shared contract (kept stable for ``stateful.py``; both ``@njit``)::

    roll_pool(state, values, explodes, sides, counts, rerolls, modifier, floor, has_floor,
              keep) -> (total: int64, all_failed: bool)

- ``state``: a generator state from :func:`workbench.engine._kernels.rng.seed_state`.
- ``values``: int64[G, S], per die type ``g`` and face ``f`` (0-based) the value the face adds;
  ``explodes``: bool[G, S], whether the face rolls the same die again. Rows are padded past
  ``sides[g]`` (padding is never read).
- ``sides``: int64[G]; ``counts``: int64[G], dice of each type in the initial pool.
- ``rerolls``: up to this many initial dice whose chain scored nothing (no face above 0) are
  rolled once more, first to last, group by group; the new chain replaces the old one.
- ``modifier`` is added to the total, then the total is raised to ``floor`` if ``has_floor``.
- ``keep``: 0 sums every die; 1 keeps the highest / 2 the lowest initial face value.
- ``all_failed``: the pool had at least one die and every initial die showed a failure face
  (value below 0): the Unnamed System's Disaster.

:func:`workbench.engine.simulation.pack` turns a :class:`~workbench.rules.pool.PoolSpec` into these
arguments. The semantics are those of :func:`workbench.engine.concrete.score_faces` and
:func:`workbench.engine.exact.exact_raw`.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ._jit import inline_kernel, kernel, parallel_kernel
from .rng import draw_face, seed_state

KEEP_SUM, KEEP_HIGHEST, KEEP_LOWEST = 0, 1, 2
_NONE_LEAST, _NONE_GREATEST = np.iinfo(np.int64).max, np.iinfo(np.int64).min
"""The least and greatest total of a block before any trial."""


# -- what both rolls and both histogram kernels do alike (inlined: no cost) --------------

@inline_kernel
def _load(state):
    """The generator's words as locals: ``(s0, s1, s2, s3, buffer, left)``."""
    return state[0], state[1], state[2], state[3], state[4], np.int64(state[5])


@inline_kernel
def _store(state, s0, s1, s2, s3, buffer, left):
    state[0], state[1], state[2], state[3], state[4] = s0, s1, s2, s3, buffer
    state[5] = np.uint64(left)


@inline_kernel
def _finish(total, modifier, floor, has_floor):
    """The modifier, then the floor."""
    total += modifier
    if has_floor and total < floor:
        total = floor
    return total


@inline_kernel
def _tally(hist, b, low, total, all_failed, outside, least, greatest):
    """Bin one total into ``hist[b]`` (or count it outside); returns the updated
    ``(outside, least, greatest)``."""
    index = total - low
    if 0 <= index < hist.shape[2]:
        hist[b, 1 if all_failed else 0, index] += 1
    else:
        outside += 1
    return outside, min(least, total), max(greatest, total)


@kernel
def roll_pool(state, values, explodes, sides, counts, rerolls, modifier, floor, has_floor, keep):
    """Roll one check's pool; see the module docstring for the contract."""
    # The generator state lives in locals for the whole check (registers, not memory).
    s0, s1, s2, s3, buffer, left = _load(state)
    total = 0
    dice = 0
    all_failed = True
    rerolls_left = rerolls
    best = 0
    for g in range(counts.shape[0]):
        side_count = sides[g]
        for _ in range(counts[g]):
            face, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, side_count)
            value = values[g, face]
            all_failed &= value < 0
            if keep != KEEP_SUM:
                if dice == 0 or (keep == KEEP_HIGHEST and value > best) or (
                        keep == KEEP_LOWEST and value < best):
                    best = value
                dice += 1
                continue
            dice += 1
            chain = value
            scored = value > 0
            while explodes[g, face]:  # unbounded, as in the rules
                face, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, side_count)
                value = values[g, face]
                chain += value
                scored |= value > 0
            if not scored and rerolls_left > 0:
                # A die that scored nothing is rolled once more and the new chain counts.
                # Rolling it at once instead of after the pool picks the same dice (the
                # first misses) and leaves the distribution unchanged.
                rerolls_left -= 1
                face, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, side_count)
                chain = values[g, face]
                while explodes[g, face]:
                    face, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, side_count)
                    chain += values[g, face]
            total += chain
    if keep != KEEP_SUM:
        total = best
    _store(state, s0, s1, s2, s3, buffer, left)
    return _finish(total, modifier, floor, has_floor), all_failed and dice > 0


@parallel_kernel
def histogram_blocks(seed, first_block, block_count, block_size, trials, values, explodes,
                     sides, counts, rerolls, modifier, floor, has_floor, keep, low, hist, extremes):
    """Simulate blocks ``first_block ..`` (``block_size`` trials each, the last one cut at
    ``trials``) into ``hist[b, all_failed, total - low]`` (int64, zeroed by the caller).

    Block ``k`` always uses stream ``k`` of ``seed``, so counts do not depend on the number
    of threads. Totals outside the histogram are not binned; ``extremes[b]`` receives
    (trials outside, least total, greatest total) so the caller can widen and rerun.
    """
    for b in prange(block_count):
        block = first_block + b
        state = seed_state(seed, block)
        start = block * block_size
        stop = min(start + block_size, trials)
        outside, least, greatest = 0, _NONE_LEAST, _NONE_GREATEST
        for _ in range(start, stop):
            total, all_failed = roll_pool(state, values, explodes, sides, counts, rerolls,
                                          modifier, floor, has_floor, keep)
            outside, least, greatest = _tally(hist, b, low, total, all_failed, outside, least,
                                              greatest)
        extremes[b, 0], extremes[b, 1], extremes[b, 2] = outside, least, greatest


# -- Pools beyond the original contract: explosion caps, explosions into another die type,
# rerolls of dice with cancelling faces, several dice kept. Same stream, same dice order.
#
#   roll_pool_general(state, values, explodes, sides, counts, into, limit, rerolls, modifier,
#                     floor, has_floor, keep, kept, scratch) -> (total, all_failed)
#
# - ``into``: int64[G], the row of the die an exploding face of row ``g`` rolls (rows past
#   the pool's groups have count 0 and exist only as explosion targets);
# - ``limit``: int64[G], extra dice one initial die of row ``g`` may add (0: no cap);
# - a die *missed* when its chain added up to exactly 0 (a cancelling face is not a miss);
# - ``kept``: with ``keep`` 1 / 2, the number of highest / lowest initial values summed;
# - ``scratch``: int64 buffer with room for every initial die (values to rank under keep).

@kernel
def _chain_general(state, values, explodes, sides, into, limit, g, face, s0, s1, s2, s3, buffer, left):
    chain = values[g, face]
    kind = g
    extra = 0
    while explodes[kind, face] and (limit[g] == 0 or extra < limit[g]):
        kind = into[kind]
        face, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, sides[kind])
        chain += values[kind, face]
        extra += 1
    return chain, s0, s1, s2, s3, buffer, left


@kernel
def roll_pool_general(state, values, explodes, sides, counts, into, limit, rerolls, modifier,
                      floor, has_floor, keep, kept, scratch):
    """Roll one check's pool; see the contract above."""
    s0, s1, s2, s3, buffer, left = _load(state)
    total = 0
    dice = 0
    all_failed = True
    rerolls_left = rerolls
    for g in range(counts.shape[0]):
        for _ in range(counts[g]):
            face, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, sides[g])
            all_failed &= values[g, face] < 0
            if keep != KEEP_SUM:
                scratch[dice] = values[g, face]
                dice += 1
                continue
            dice += 1
            chain, s0, s1, s2, s3, buffer, left = _chain_general(
                state, values, explodes, sides, into, limit, g, face, s0, s1, s2, s3, buffer, left)
            if chain == 0 and rerolls_left > 0:
                # A missed die is rolled once more and the new chain counts. Rolling it at
                # once instead of after the pool picks the same dice (the first misses).
                rerolls_left -= 1
                face, s0, s1, s2, s3, buffer, left = draw_face(s0, s1, s2, s3, buffer, left, sides[g])
                chain, s0, s1, s2, s3, buffer, left = _chain_general(
                    state, values, explodes, sides, into, limit, g, face, s0, s1, s2, s3, buffer, left)
            total += chain
    if keep != KEEP_SUM:
        ranked = np.sort(scratch[:dice])
        if keep == KEEP_HIGHEST:
            for i in range(min(kept, dice)):
                total += ranked[dice - 1 - i]
        else:
            for i in range(min(kept, dice)):
                total += ranked[i]
    _store(state, s0, s1, s2, s3, buffer, left)
    return _finish(total, modifier, floor, has_floor), all_failed and dice > 0


@parallel_kernel
def histogram_blocks_general(seed, first_block, block_count, block_size, trials, values, explodes,
                             sides, counts, into, limit, rerolls, modifier, floor, has_floor, keep,
                             kept, low, hist, extremes):
    """:func:`histogram_blocks` for :func:`roll_pool_general` pools (same streams, same layout)."""
    for b in prange(block_count):
        block = first_block + b
        state = seed_state(seed, block)
        scratch = np.zeros(max(counts.sum(), 1), dtype=np.int64)
        start = block * block_size
        stop = min(start + block_size, trials)
        outside, least, greatest = 0, _NONE_LEAST, _NONE_GREATEST
        for _ in range(start, stop):
            total, all_failed = roll_pool_general(state, values, explodes, sides, counts, into,
                                                  limit, rerolls, modifier, floor, has_floor,
                                                  keep, kept, scratch)
            outside, least, greatest = _tally(hist, b, low, total, all_failed, outside, least,
                                              greatest)
        extremes[b, 0], extremes[b, 1], extremes[b, 2] = outside, least, greatest
