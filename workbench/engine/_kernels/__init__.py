"""Numba kernels of the bulk simulators (private; import lazily, never from the package root).

``rng``: xoshiro256** streams and unbiased dice. ``pool``: one check's roll driven by face
tables, and the parallel histogram kernel. Every ``@njit`` of the workbench lives in this
package, decorated through ``_jit`` (one place for the common options, ``cache=True``).
``chunks``: plain summed pools, several dice per draw. ``fast``: the byte-table kernel for
summed pools with explosions. ``stateful``: Drama Dice, burn,
conditions, clocks and exchanges, calling the same per-check roll.
"""
