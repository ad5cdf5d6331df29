"""The simulator's chunk path rolled one die at a time in plain Python: the same 32-bit
halves of the same streams, decoded die by die (``workbench/engine/_kernels/chunks.py`` does
it with tables), for identical-counts tests."""
from __future__ import annotations

import numpy as np

from workbench.engine._kernels.chunks import chunk_size
from workbench.engine._kernels.rng import next_u64, seed_state

_TWO32 = 1 << 32


def reference_counts(seed: int, block: int, trials: int, values, count: int) -> dict:
    """The chunk path's dice rolled one die at a time in plain Python (slow; for tests):
    ``{(disaster, total): checks}`` for ``trials`` checks of stream ``block`` of ``seed``."""
    values = [int(v) for v in values]
    sides = len(values)
    dice = chunk_size(sides, count)
    draws = [dice] * (count // dice) + ([count % dice] if count % dice else [])
    state = seed_state(np.uint64(seed), block)
    halves: list[int] = []
    counts: dict = {}
    for _ in range(trials):
        faces = []
        for size in draws:
            outcomes = sides ** size
            while True:
                if not halves:
                    word = int(next_u64(state))
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
