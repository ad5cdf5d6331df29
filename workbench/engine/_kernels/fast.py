"""The byte-table path of the bulk simulator: one die type, summed, no rerolls.

Many checks are "roll N of one die, add up the face values, some faces explode" (open-ended
and bounce dice, with or without cancelling failures). For those, :func:`sum_histogram_blocks`
replaces the general :func:`~workbench.engine._kernels.pool.histogram_blocks` and runs several
times faster. (Without explosions, :mod:`.chunks` is faster still and is used instead;
:func:`byte_table` accepts such pools too.)

How: every byte ``b`` of the xoshiro256** stream is turned by a 256-entry table into one
int64 that packs everything a die contributes (see :func:`byte_table`)::

    entry = value << VALUE_SHIFT  |  (value >= 0) << STANDING_SHIFT  |  (not explodes)

Adding entries adds the three fields at once: the total, how many dice were not failures
(none: every initial die failed, the Unnamed Disaster), and how many explosion chains have
ended (a die that explodes extends its chain, so it does not count). A check is over when
the chain count reaches the pool size. Rejected bytes (Lemire's test: the low byte of
``b * sides`` below ``256 % sides``) have entry 0, so they change nothing and cost no
branch. Dice are therefore exactly those of :func:`~workbench.engine._kernels.rng.draw_face` on the
same bytes, in the same order: for the same seed this path gives *identical* counts to the
general kernel (the tests check it), and the generator state lives in four local variables
for a whole block instead of being stored and reloaded per check.

Field widths and why they cannot overflow in practice: the chain count (16 bits) stops at
the pool size (below 2**16); the standing count (24 bits) and the signed total (24 bits)
would need a check with over 2**16 times its expected number of dice or expected absolute
total. :func:`byte_table` only accepts pools whose expected dice times largest absolute
value is at most 2**16 (see ``MAX_EXPECTED_WEIGHT``), which puts such a check beyond any
realistic probability (an explosion chain 2**16 times its mean length). Other pools use the
general kernel.

Numba caches each function with its own file only: after editing this module's
dependencies (``rng.py``), delete ``workbench/_kernels/__pycache__/*.nb*``.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ._jit import kernel, parallel_kernel
from .rng import seed_state, xoshiro_step

CHAINS_MASK = np.int64(0xFFFF)
STANDING_SHIFT = 16
STANDING_MASK = np.int64(0xFFFFFF)
VALUE_SHIFT = 40
MAX_SIDES = 256
MAX_DICE = 0xFFFF
MAX_EXPECTED_WEIGHT = 1 << 16
"""Largest ``expected dice per check * max |face value|`` the packed fields accept."""

_BYTE = np.uint64(0xFF)


def byte_table(values, explodes, count: int) -> np.ndarray | None:
    """The packed per-byte table for ``count`` dice with these faces, or ``None`` if the
    fast path does not apply (then the general kernel is used).

    ``values`` (ints) and ``explodes`` (bools) are per face, face 1 first. The fast path
    needs at most 256 sides, ``1 <= count <= 65535``, no face that both fails (value < 0)
    and explodes (the Disaster test reads initial dice only), and a bounded expected total
    (see the module docstring).

    Example:
        >>> table = byte_table([0, 0, 0, 0, 1, 1], [False] * 6, 10)
        >>> int((table >> VALUE_SHIFT).sum()), int((table & CHAINS_MASK).sum())  # 84 + 84 of 252
        (84, 252)
    """
    values = np.asarray(values, dtype=np.int64)
    explodes = np.asarray(explodes, dtype=bool)
    sides = len(values)
    if not (1 <= sides <= MAX_SIDES and 1 <= count <= MAX_DICE):
        return None
    if np.any(explodes & (values < 0)) or explodes.all():
        return None
    chain_length = 1.0 / (1.0 - explodes.mean())
    if count * chain_length * max(int(np.abs(values).max()), 1) > MAX_EXPECTED_WEIGHT:
        return None
    byte = np.arange(256, dtype=np.int64)
    product = byte * sides
    accepted = (product & 0xFF) >= (256 % sides)  # Lemire's test, as in rng.draw_face
    face = product >> 8
    entry = ((values[face] << VALUE_SHIFT) + ((values[face] >= 0).astype(np.int64) << STANDING_SHIFT)
             + (~explodes[face]).astype(np.int64))
    return np.where(accepted, entry, 0).astype(np.int64)


@kernel
def sum_block(seed, block, trials, table, count, low, hist, extremes):
    """Roll ``trials`` checks from stream ``block`` of ``seed`` into ``hist[disaster, dice
    total - low]``: the sum of the dice only (the caller adds the modifier and applies the
    floor to the histogram, which keeps the hot loop's live values in registers).
    ``extremes`` receives (checks outside the histogram, least and greatest total among
    them; int64 max and min when there were none).

    Pools of eight dice or more go a word at a time (:func:`_sum_block_words`), smaller ones
    a byte at a time (:func:`_sum_block_bytes`); both read the same bytes in the same order."""
    if count >= 8:
        _sum_block_words(seed, block, trials, table, count, low, hist, extremes)
    else:
        _sum_block_bytes(seed, block, trials, table, count, low, hist, extremes)


@kernel
def _sum_block_words(seed, block, trials, table, count, low, hist, extremes):
    """:func:`sum_block` for pools of at least eight dice: a word's eight entries are added
    up as prefix sums, and a check ends at the first prefix whose chain count completes it.
    What follows in the word holds fewer than eight chains, so it cannot end the next check
    too: one test per word instead of one per die (the byte loop's exit, hard to predict,
    cost more than the dice)."""
    state = seed_state(seed, block)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    width = hist.shape[1]
    outside = 0
    least = np.iinfo(np.int64).max
    greatest = np.iinfo(np.int64).min
    acc = np.int64(0)
    done = 0
    while done < trials:
        word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        e0 = table[word & _BYTE]
        e1 = table[(word >> np.uint64(8)) & _BYTE]
        e2 = table[(word >> np.uint64(16)) & _BYTE]
        e3 = table[(word >> np.uint64(24)) & _BYTE]
        e4 = table[(word >> np.uint64(32)) & _BYTE]
        e5 = table[(word >> np.uint64(40)) & _BYTE]
        e6 = table[(word >> np.uint64(48)) & _BYTE]
        e7 = table[word >> np.uint64(56)]
        p2 = e0 + e1
        p4 = p2 + (e2 + e3)
        p6 = p4 + (e4 + e5)
        p8 = p6 + (e6 + e7)
        need = count - (acc & CHAINS_MASK)
        if (p8 & CHAINS_MASK) < need:   # the check goes on past this word
            acc += p8
            continue
        # The first prefix that completes the check (chain counts never fall along a word);
        # simple selects, which the compiler makes branch-free.
        end = p8
        p7 = p6 + e6
        if (p7 & CHAINS_MASK) >= need:
            end = p7
        if (p6 & CHAINS_MASK) >= need:
            end = p6
        p5 = p4 + e4
        if (p5 & CHAINS_MASK) >= need:
            end = p5
        if (p4 & CHAINS_MASK) >= need:
            end = p4
        p3 = p2 + e2
        if (p3 & CHAINS_MASK) >= need:
            end = p3
        if (p2 & CHAINS_MASK) >= need:
            end = p2
        if (e0 & CHAINS_MASK) >= need:
            end = e0
        acc += end
        total = acc >> VALUE_SHIFT
        if 0 <= total - low < width:
            hist[1 if ((acc >> STANDING_SHIFT) & STANDING_MASK) == 0 else 0, total - low] += 1
        else:
            outside += 1
            least = min(least, total)
            greatest = max(greatest, total)
        acc = p8 - end
        done += 1
    extremes[0] = outside
    extremes[1] = least
    extremes[2] = greatest


@kernel
def _sum_block_bytes(seed, block, trials, table, count, low, hist, extremes):
    """:func:`sum_block` for any pool: eight entries at once while no check can end inside
    the word, else a test after every die (several small checks may end in one word)."""
    state = seed_state(seed, block)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    width = hist.shape[1]
    outside = 0
    least = np.iinfo(np.int64).max
    greatest = np.iinfo(np.int64).min
    acc = np.int64(0)
    done = 0
    while done < trials:
        word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        if count - (acc & CHAINS_MASK) >= 8:
            # No check can end before this word's last byte: add all eight without tests
            # (a tree of sums, so the loads and adds overlap).
            acc += ((table[word & _BYTE] + table[(word >> np.uint64(8)) & _BYTE])
                    + (table[(word >> np.uint64(16)) & _BYTE] + table[(word >> np.uint64(24)) & _BYTE])
                    + ((table[(word >> np.uint64(32)) & _BYTE] + table[(word >> np.uint64(40)) & _BYTE])
                       + (table[(word >> np.uint64(48)) & _BYTE] + table[word >> np.uint64(56)])))
            if (acc & CHAINS_MASK) != count:
                continue
            total = acc >> VALUE_SHIFT
            if 0 <= total - low < width:
                hist[1 if ((acc >> STANDING_SHIFT) & STANDING_MASK) == 0 else 0, total - low] += 1
            else:
                # Rare, so tracked here only. (Writing these to ``extremes`` inside the loop
                # instead halved the speed: a store there keeps LLVM from holding values in
                # registers.)
                outside += 1
                least = min(least, total)
                greatest = max(greatest, total)
            acc = np.int64(0)
            done += 1
            continue
        for i in range(8):  # a check may end inside this word: test after every die
            acc += table[(word >> np.uint64(8 * i)) & _BYTE]
            if (acc & CHAINS_MASK) == count:
                total = acc >> VALUE_SHIFT
                if 0 <= total - low < width:
                    hist[1 if ((acc >> STANDING_SHIFT) & STANDING_MASK) == 0 else 0, total - low] += 1
                else:
                    outside += 1
                    least = min(least, total)
                    greatest = max(greatest, total)
                acc = np.int64(0)
                done += 1
                if done == trials:
                    break
    extremes[0] = outside
    extremes[1] = least
    extremes[2] = greatest


@parallel_kernel
def sum_histogram_blocks(seed, first_block, block_count, block_size, trials, table, count,
                         low, hist, extremes):
    """Blocks ``first_block ..`` into ``hist[b]`` and ``extremes[b]`` (see :func:`sum_block`),
    with the same streams and dice as :func:`workbench.engine._kernels.pool.histogram_blocks`."""
    for b in prange(block_count):
        block = first_block + b
        start = block * block_size
        stop = min(start + block_size, trials)
        sum_block(seed, block, stop - start, table, count, low, hist[b], extremes[b])
