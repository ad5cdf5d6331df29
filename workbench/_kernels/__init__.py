"""Numba kernels of the bulk simulators (private; import lazily, never from the package root).

``rng``: xoshiro256** streams and unbiased dice. ``pool``: one check's roll driven by face
tables, and the parallel histogram kernel. Every ``@njit`` of the workbench lives in this
package, compiled with ``cache=True``.
"""
