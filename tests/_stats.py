"""Pearson's chi-square goodness-of-fit test for the statistical tests.

scipy would do this too, but scipy in the environment makes every fresh process that runs a
numba kernel import ``scipy.linalg`` (numba probes it for BLAS), ~0.35 s of start-up the
workbench's users would pay; mpmath gives the chi-square tail without that cost.
"""
from __future__ import annotations

import mpmath
import numpy as np


def chisquare_pvalue(observed, expected=None) -> float:
    """P(chi-square >= the observed statistic) with ``len(observed) - 1`` degrees of freedom.

    ``expected`` defaults to equal counts; it is scaled to the observed total.

    Example:
        >>> round(chisquare_pvalue([10, 10, 10]), 6)
        1.0
    """
    observed = np.asarray(observed, dtype=float)
    if expected is None:
        expected = np.full_like(observed, observed.sum() / len(observed))
    expected = np.asarray(expected, dtype=float)
    expected = expected * observed.sum() / expected.sum()
    statistic = float(((observed - expected) ** 2 / expected).sum())
    dof = len(observed) - 1
    return float(mpmath.gammainc(dof / 2.0, statistic / 2.0, mpmath.inf, regularized=True))
