"""The simulators' dice are unbiased: chi-square over >= 1e7 rolls through the kernel's die."""
from __future__ import annotations

import numpy as np
import pytest
from _stats import chisquare_pvalue

from workbench.engine._kernels.rng import fill_dice, face_counts, next_u64, roll_die, seed_state

ROLLS = 12_000_000


@pytest.mark.parametrize("sides", [6, 8, 10, 7, 200, 1000])
def test_faces_are_uniform(sides):
    """d7, d200 and d1000 exercise the rejection step and the 32-bit path (p < 1e-7 fails)."""
    counts = face_counts(np.uint64(12345), np.uint64(sides), sides, ROLLS)
    assert counts.sum() == ROLLS
    assert chisquare_pvalue(counts) > 1e-7


def test_roll_die_and_fill_dice_draw_the_same_faces():
    first, second = seed_state(np.uint64(9), np.uint64(1)), seed_state(np.uint64(9), np.uint64(1))
    batch = np.zeros(1000, dtype=np.int64)
    fill_dice(first, 6, batch)
    assert [roll_die(second, 6) for _ in range(1000)] == batch.tolist()
    assert set(batch.tolist()) == {1, 2, 3, 4, 5, 6}


def test_streams_differ_and_repeat():
    words = lambda seed, stream: [int(next_u64(s)) for s in [seed_state(np.uint64(seed), np.uint64(stream))]
                                  for _ in range(4)]
    assert words(1, 0) == words(1, 0)
    assert words(1, 0) != words(1, 1)
    assert words(1, 0) != words(2, 0)


def test_xoshiro_matches_reference_recurrence():
    """next_u64 follows the published xoshiro256** recurrence (checked in plain Python)."""
    state = seed_state(np.uint64(42), np.uint64(3))
    s = [int(w) for w in state[:4]]
    mask = (1 << 64) - 1
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & mask
    for _ in range(5):
        expected = (rotl((s[1] * 5) & mask, 7) * 9) & mask
        t = (s[1] << 17) & mask
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45)
        assert int(next_u64(state)) == expected


@pytest.mark.parametrize("sides", range(1, 257))
def test_byte_table_gives_every_face_the_same_number_of_bytes(sides):
    """The fast path's table: each face is reached by exactly 256 // sides bytes (unbiased)."""
    from workbench.engine._kernels.fast import CHAINS_MASK, VALUE_SHIFT, byte_table

    table = byte_table(list(range(sides)), [False] * sides, 1)
    accepted = (table & CHAINS_MASK) == 1
    assert accepted.sum() == 256 - 256 % sides
    faces = np.bincount(table[accepted] >> VALUE_SHIFT, minlength=sides)
    assert faces.tolist() == [256 // sides] * sides


@pytest.mark.parametrize("sides", [6, 7, 10, 200])
def test_fast_path_faces_are_uniform(sides):
    """Chi-square over >= 1e7 single-die checks through the byte-table kernel."""
    from workbench.engine._kernels.fast import byte_table, sum_block

    trials = 10_000_000
    hist = np.zeros((2, sides), dtype=np.int64)
    extremes = np.zeros(3, dtype=np.int64)
    sum_block(np.uint64(2024), 5, trials, byte_table(list(range(sides)), [False] * sides, 1), 1, 0,
              hist, extremes)
    assert extremes[0] == 0 and hist[1].sum() == 0 and hist[0].sum() == trials
    assert chisquare_pvalue(hist[0]) > 1e-7
