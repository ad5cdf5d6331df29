"""The workbench's numba decorators: the common options live here, once.

``cache=True`` everywhere, so a second process loads compiled kernels instead of compiling.

OpenMP threads wait passively (sleep) between parallel calls unless the user chose otherwise.
By default a thread that finishes a parallel call spins for some milliseconds first; the
workbench's calls are short and separated by Python work (building tables, summing counts),
so on a 2-core machine the spinning thread took the core the main thread needed:
``benchmarks/bench_stateful.py`` ran slower on two threads than on one (0.191 s against
0.127 s) and in 0.120 s with passive waiting. It takes effect if set before numba starts its
threads, which the first parallel kernel does.
"""
import os

os.environ.setdefault("OMP_WAIT_POLICY", "passive")

from numba import njit  # noqa: E402  (after the wait policy, as documented above)

kernel = njit(cache=True)
"""A plain compiled function."""

inline_kernel = njit(cache=True, inline="always")
"""A small function inlined into its callers at the numba IR level (the per-die hot path)."""

parallel_kernel = njit(cache=True, parallel=True)
"""An outer kernel whose ``prange`` loop spreads blocks over all threads."""

thread_kernel = njit(cache=True, nogil=True)
"""A kernel that releases the GIL, for Python threads to run side by side (one block of
trials each): compiled once, where a ``prange`` loop around a large kernel compiled it again."""
