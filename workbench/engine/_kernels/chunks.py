"""The chunk path of the bulk simulator: one die type, summed, no explosions, no rerolls.

Plain dice (success counting, cancelling failures, any face values) are rolled several at a
time. ``g`` dice of ``sides`` faces have ``sides ** g`` equally likely outcomes; one draw of
a whole number ``i`` uniform in ``0 .. sides ** g - 1`` *is* a roll of all ``g`` dice (the
base-``sides`` digits of ``i``, lowest digit first, are the faces of dice 1 to ``g``). A
table made by enumerating every such roll (:func:`chunk_tables`) holds what the ``g`` dice
add up to, packed as in :mod:`.fast`::

    entry = (sum of the dice's values) << VALUE_SHIFT  |  (dice with value >= 0) << STANDING_SHIFT

A pool of ``count`` dice is ``count // g`` draws from the full table and, if ``count % g``
dice are left, one draw from a table of that many dice. 10d6 is two draws of five dice: one
64-bit word of the generator per check, where a die a byte took ten bytes and a test per die.

Draws are unbiased (Lemire's multiply-and-reject on 32 bits): a 32-bit half ``x`` of a
generator word gives ``p = x * m`` for ``m = sides ** g``; the draw is ``p >> 32`` unless the
low 32 bits of ``p`` fall below ``2**32 mod m`` (fewer than one draw in 400,000 for
``m <= 10,000``), when the half is thrown away and the next one drawn. Halves are read low half
first; a half left over at the end of a check starts the next one. (The tests roll the same
draws one die at a time in plain Python and compare.)

A chunk table has at most :data:`CHUNK_ENTRIES` entries (80 kB of int64: a d6 chunk is 5
dice, d7 to d10 4, d11 to d21 3, up to d100 2); dice with more sides take one die per draw.
Why 10,000 and not 8,192: 10d10 as draws of 4 + 4 + 2 dice ran 1.55 G dice/s a thread, as
3 + 3 + 3 + 1 (the most under 8,192) 1.33 G.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ._jit import inline_kernel, kernel, parallel_kernel
from .fast import (
    MAX_DICE,
    MAX_EXPECTED_WEIGHT,
    STANDING_MASK,
    STANDING_SHIFT,
    VALUE_SHIFT,
)
from .rng import seed_state, xoshiro_step

CHUNK_ENTRIES = 10_000
"""Most entries of one chunk table (``sides ** g``)."""

MAX_CHUNK_DICE = 32
"""Most dice per chunk (reached by one- and two-sided dice only)."""

_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = 1 << 32


def chunk_size(sides: int, count: int) -> int:
    """Dice per draw: the most ``g <= count`` with ``sides ** g <= CHUNK_ENTRIES``.

    Example:
        >>> chunk_size(6, 10), chunk_size(10, 10), chunk_size(20, 7), chunk_size(6, 3)
        (5, 4, 3, 3)
    """
    dice = 1
    while dice < min(count, MAX_CHUNK_DICE) and sides ** (dice + 1) <= CHUNK_ENTRIES:
        dice += 1
    return dice


def _table(values: np.ndarray, dice: int) -> np.ndarray:
    """Packed entries of every roll of ``dice`` dice, indexed by the roll's base-``sides``
    number (the first die is the lowest digit)."""
    sides = len(values)
    index = np.arange(sides ** dice, dtype=np.int64)
    total = np.zeros_like(index)
    standing = np.zeros_like(index)
    for _ in range(dice):
        value = values[index % sides]
        total += value
        standing += value >= 0
        index //= sides
    return (total << VALUE_SHIFT) + (standing << STANDING_SHIFT)


def chunk_tables(values, explodes, count: int):
    """``(full, full_draws, rest)`` for ``count`` dice with these face values, or ``None``
    where the chunk path does not apply (explosions, more than 2**16 - 1 dice or
    :data:`CHUNK_ENTRIES` sides, totals too large for the packed fields). A check is
    ``full_draws`` draws from ``full``, then one from ``rest`` (an empty table when the
    chunks use every die).

    Example:
        >>> full, draws, rest = chunk_tables([0, 0, 0, 0, 1, 1], [False] * 6, 12)
        >>> len(full), draws, len(rest)        # 12d6: two draws of 5 dice, one of 2
        (7776, 2, 36)
        >>> int((full >> VALUE_SHIFT).sum())   # successes over every roll of five dice
        12960
    """
    values = np.asarray(values, dtype=np.int64)
    if np.any(explodes) or not 1 <= count <= MAX_DICE or len(values) > CHUNK_ENTRIES:
        return None
    if count * max(int(np.abs(values).max()), 1) > MAX_EXPECTED_WEIGHT:
        return None
    dice = chunk_size(len(values), count)
    rest = count % dice
    return _table(values, dice), count // dice, (_table(values, rest) if rest else np.zeros(0, np.int64))


@inline_kernel
def _draw(s0, s1, s2, s3, spare, has_spare, size, reject_below):
    """A uniform index ``0 .. size - 1`` from the next 32-bit half (Lemire, see the module
    docstring). Returns ``(index, s0, s1, s2, s3, spare, has_spare)``."""
    while True:
        if has_spare:
            half = spare
            has_spare = False
        else:
            word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            half = word & _LOW32
            spare = word >> np.uint64(32)
            has_spare = True
        product = half * size
        if (product & _LOW32) >= reject_below:
            return np.int64(product >> np.uint64(32)), s0, s1, s2, s3, spare, has_spare


@kernel
def chunk_block(seed, block, trials, full, full_draws, rest, low, hist, extremes):
    """Roll ``trials`` checks from stream ``block`` of ``seed`` into ``hist[disaster, dice
    total - low]`` (the dice only: the caller adds the modifier and floor), as
    :func:`.fast.sum_block` does; ``extremes`` gets (checks outside, least, greatest)."""
    state = seed_state(seed, block)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    full_size = np.uint64(full.shape[0])
    full_reject = np.uint64(_TWO32 % full.shape[0])
    rest_size = np.uint64(max(rest.shape[0], 1))
    rest_reject = np.uint64(_TWO32 % max(rest.shape[0], 1))
    has_rest = rest.shape[0] > 0
    width = hist.shape[1]
    outside = 0
    least = np.iinfo(np.int64).max
    greatest = np.iinfo(np.int64).min
    spare = np.uint64(0)
    has_spare = False
    for _ in range(trials):
        acc = np.int64(0)
        for _ in range(full_draws):
            index, s0, s1, s2, s3, spare, has_spare = _draw(s0, s1, s2, s3, spare, has_spare,
                                                            full_size, full_reject)
            acc += full[index]
        if has_rest:
            index, s0, s1, s2, s3, spare, has_spare = _draw(s0, s1, s2, s3, spare, has_spare,
                                                            rest_size, rest_reject)
            acc += rest[index]
        # Recorded in the loop, as in .fast's kernels: the same lines as an inlined helper
        # shared with them ran 1.2 G dice/s a thread instead of 1.95 (10d6).
        total = acc >> VALUE_SHIFT
        if 0 <= total - low < width:
            hist[1 if ((acc >> STANDING_SHIFT) & STANDING_MASK) == 0 else 0, total - low] += 1
        else:
            outside += 1
            least = min(least, total)
            greatest = max(greatest, total)
    extremes[0] = outside
    extremes[1] = least
    extremes[2] = greatest


@parallel_kernel
def chunk_histogram_blocks(seed, first_block, block_count, block_size, trials, full, full_draws,
                           rest, low, hist, extremes):
    """Blocks ``first_block ..`` into ``hist[b]`` and ``extremes[b]`` (see :func:`chunk_block`);
    block ``k`` reads stream ``k`` of the seed, as every simulator kernel does."""
    for b in prange(block_count):
        block = first_block + b
        start = block * block_size
        stop = min(start + block_size, trials)
        chunk_block(seed, block, stop - start, full, full_draws, rest, low, hist[b], extremes[b])

