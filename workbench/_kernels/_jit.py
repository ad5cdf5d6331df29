"""The workbench's numba decorators: the common options live here, once.

``cache=True`` everywhere, so a second process loads compiled kernels instead of compiling.
"""
from numba import njit

kernel = njit(cache=True)
"""A plain compiled function."""

inline_kernel = njit(cache=True, inline="always")
"""A small function inlined into its callers at the numba IR level (the per-die hot path)."""

parallel_kernel = njit(cache=True, parallel=True)
"""An outer kernel whose ``prange`` loop spreads blocks over all threads."""
