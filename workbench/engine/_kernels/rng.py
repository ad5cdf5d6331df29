"""The simulators' random numbers: xoshiro256** seeded through SplitMix64, unbiased dice.

Generator: **xoshiro256**** (Blackman and Vigna, 2018; period 2**256 - 1), its four state
words filled by **SplitMix64** from a mix of ``(seed, stream)``. Every block of trials gets
its own stream number, so results do not depend on how blocks are spread over threads.

Dice are unbiased: a die with ``sides <= 256`` takes one byte of a 64-bit word (eight dice
per word) and maps it with Lemire's multiply-and-reject method: ``m = byte * sides``;
the die is ``m >> 8`` unless the low byte of ``m`` falls in the ``256 % sides`` values
that would over-represent some faces, in which case the byte is thrown away and another
drawn. No modulo bias, no floating point. Larger dice use the same method on 32 bits.
(The simulator's chunk path, ``chunks.py``, draws several dice at once from 32-bit halves
by the same method; the functions here roll one die at a time.)

Seeding, exactly (all arithmetic modulo 2**64; ``mix`` is SplitMix64's output function,
``G = 0x9E3779B97F4A7C15``, ``M1 = 0xBF58476D1CE4E5B9``): ``key = mix(seed + G) ^
mix(stream * G + M1)``; the four xoshiro words are the first four outputs of SplitMix64 started
at ``key`` (word ``i`` is ``mix(key + (i + 1) * G)``), with word 0 set to ``G`` should all four
be 0. (``tests/_chunk_reference.py`` rolls from this description in plain Python.)

State layout (``np.ndarray`` of ``uint64``, length :data:`STATE_WORDS`): words 0-3 are the
xoshiro state; word 4 holds unused bytes of the last word drawn, word 5 how many.

Shared contract (kept stable for ``stateful.py``; every function is ``@njit``):

- ``seed_state(seed: uint64, stream: uint64) -> uint64[6]``
- ``next_u64(state) -> uint64``
- ``roll_die(state, sides: int64) -> int64`` (a face from 1 to ``sides``)
- ``xoshiro_step(s0, s1, s2, s3)`` and ``draw_face(s0, s1, s2, s3, buffer, left, sides)``:
  the same generator on state held in local variables (about twice as fast in hot loops)
- ``fill_dice(state, sides: int64, out: int64[:]) -> None`` (batched rolls)
- ``face_counts(seed, stream, sides, n) -> int64[sides]`` (for the chi-square test)

Numba caches each function with its own file only: after editing this module, delete the
``*.nbi``/``*.nbc`` files under ``workbench/_kernels/__pycache__`` so callers recompile.
"""
from __future__ import annotations

import numpy as np

from ._jit import kernel, inline_kernel

STATE_WORDS = 6

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_BYTE = np.uint64(0xFF)
_LOW32 = np.uint64(0xFFFFFFFF)
_REJECT_BELOW = np.array([0] + [256 % sides for sides in range(1, 257)], dtype=np.uint64)
"""Per die size up to 256: low bytes below this are rejected (256 mod sides; a frozen table,
so the hot loop never divides)."""


@inline_kernel
def _mix64(z):
    """SplitMix64's output function (a bijection of 64-bit words)."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@inline_kernel
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@kernel
def seed_state(seed, stream):
    """A fresh generator state for stream ``stream`` of ``seed`` (both taken as uint64)."""
    state = np.zeros(STATE_WORDS, dtype=np.uint64)
    # Hash seed and stream together first, so neighbouring (seed, stream) pairs start far
    # apart; then SplitMix64 fills the four xoshiro words (never all zero in practice).
    key = _mix64(np.uint64(seed) + _GOLDEN) ^ _mix64(np.uint64(stream) * _GOLDEN + _MIX1)
    for i in range(4):
        key = key + _GOLDEN
        state[i] = _mix64(key)
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN
    return state


@inline_kernel
def xoshiro_step(s0, s1, s2, s3):
    """One xoshiro256** step on state words held in local variables.

    Returns ``(word, s0, s1, s2, s3)``. Kernels that roll many dice keep the state in locals
    (registers) with this and :func:`draw_face`, and store it back once per check.
    """
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@kernel
def next_u64(state):
    """The next 64-bit word of xoshiro256** (advances ``state`` in place)."""
    result, state[0], state[1], state[2], state[3] = xoshiro_step(state[0], state[1],
                                                                  state[2], state[3])
    return result


@inline_kernel
def draw_face(s0, s1, s2, s3, buffer, left, sides):
    """An unbiased face index ``0 .. sides - 1`` from state held in locals.

    ``buffer`` holds ``left`` unused bytes (int64 count). Returns
    ``(face_index, s0, s1, s2, s3, buffer, left)``. Same draws as :func:`roll_die`.
    """
    n = np.uint64(sides)
    if sides <= 256:
        while True:
            if left == 0:
                buffer, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
                left = 8
            m = (buffer & _BYTE) * n
            buffer = buffer >> np.uint64(8)
            left -= 1
            low = m & _BYTE
            if low >= _REJECT_BELOW[sides]:
                return np.int64(m >> np.uint64(8)), s0, s1, s2, s3, buffer, left
    while True:
        word, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        m = (word >> np.uint64(32)) * n
        low = m & _LOW32
        if low >= n or low >= (np.uint64(0x100000000) - n) % n:
            return np.int64(m >> np.uint64(32)), s0, s1, s2, s3, buffer, left


@kernel
def roll_die(state, sides):
    """One unbiased face from 1 to ``sides`` (``sides`` >= 1, below 2**32)."""
    face, state[0], state[1], state[2], state[3], state[4], left = draw_face(
        state[0], state[1], state[2], state[3], state[4], np.int64(state[5]), sides)
    state[5] = np.uint64(left)
    return face + 1


@kernel
def fill_dice(state, sides, out):
    """Fill ``out`` (int64 array) with unbiased faces from 1 to ``sides``."""
    for i in range(out.shape[0]):
        out[i] = roll_die(state, sides)


@kernel
def face_counts(seed, stream, sides, n):
    """How often each face (index 0 = face 1) came up in ``n`` rolls of one die."""
    state = seed_state(seed, stream)
    counts = np.zeros(sides, dtype=np.int64)
    for _ in range(n):
        counts[roll_die(state, sides) - 1] += 1
    return counts
