"""The simulator's chunk path rolled one die at a time in plain Python, for identical-counts
tests: the same 32-bit halves of the same streams, decoded die by die.

Written from the documented contract, not from the engine's code (nothing here imports the
workbench): SplitMix64 and xoshiro256** as their authors publish them (Steele, Lea and Flood
2014; Blackman and Vigna 2018), the seeding of a stream as ``workbench/engine/_kernels/rng.py``'s
docstring states it, and the chunk draws as ``chunks.py``'s docstring states them: the most
dice ``g <= count`` (at most 32) with ``sides ** g <= 10,000`` per draw, a 32-bit half ``x``
(low half of a word first) giving ``x * sides ** g``, rejected while its low 32 bits fall below
``2**32 mod sides ** g``, the draw's base-``sides`` digits (lowest first) being the dice.
:func:`splitmix64` and :func:`xoshiro256ss` are checked against the published test outputs in
``tests/test_simulate.py``.
"""
from __future__ import annotations

from typing import Iterator

MASK = (1 << 64) - 1
_TWO32 = 1 << 32
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
CHUNK_ENTRIES = 10_000
MOST_DICE_A_DRAW = 32


def mix(z: int) -> int:
    """SplitMix64's output function."""
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return z ^ (z >> 31)


def splitmix64(x: int) -> Iterator[int]:
    """SplitMix64's outputs from state ``x``."""
    while True:
        x = (x + GOLDEN) & MASK
        yield mix(x)


def xoshiro256ss(state: list[int]) -> Iterator[int]:
    """xoshiro256**'s outputs from four state words."""
    s0, s1, s2, s3 = state

    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK

    while True:
        result = (rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        yield result


def stream(seed: int, number: int) -> Iterator[int]:
    """The 64-bit words of stream ``number`` of ``seed``."""
    key = mix((seed + GOLDEN) & MASK) ^ mix((number * GOLDEN + MIX1) & MASK)
    words = splitmix64(key)
    state = [next(words) for _ in range(4)]
    if not any(state):
        state[0] = GOLDEN
    return xoshiro256ss(state)


def dice_per_draw(sides: int, count: int) -> int:
    """The most dice ``g <= count`` (at most 32) whose ``sides ** g`` rolls fit a chunk table."""
    best = 1
    for g in range(1, min(count, MOST_DICE_A_DRAW) + 1):
        if sides ** g <= CHUNK_ENTRIES:
            best = g
    return best


def reference_counts(seed: int, block: int, trials: int, values, count: int) -> dict:
    """The chunk path's dice rolled one die at a time in plain Python (slow; for tests):
    ``{(disaster, total): checks}`` for ``trials`` checks of stream ``block`` of ``seed``."""
    values = [int(v) for v in values]
    sides = len(values)
    dice = dice_per_draw(sides, count)
    draws = [dice] * (count // dice) + ([count % dice] if count % dice else [])
    words = stream(seed, block)
    halves: list[int] = []
    counts: dict = {}
    for _ in range(trials):
        faces = []
        for size in draws:
            outcomes = sides ** size
            while True:
                if not halves:
                    word = next(words)
                    halves = [word & 0xFFFFFFFF, word >> 32]
                product = halves.pop(0) * outcomes
                if product % _TWO32 >= _TWO32 % outcomes:
                    break
            roll = product >> 32
            for _ in range(size):
                faces.append(values[roll % sides])
                roll //= sides
        key = (int(all(v < 0 for v in faces)), sum(faces))
        counts[key] = counts.get(key, 0) + 1
    return counts
