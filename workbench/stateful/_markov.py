"""Absorbing Markov chains (numpy): steps until absorption, exactly.

A chain is given by ``transient`` (``Q``: transient -> transient probabilities, one row per
state) and a start distribution over the transient states; whatever a row of ``Q`` does not
keep is absorbed. The number of steps ``T`` until absorption has
``P(T = n) = start Q^(n-1) r`` with ``r = 1 - Q 1``, and mean ``start (I - Q)^-1 1`` (the
fundamental matrix; Kemeny and Snell).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TAIL = 1e-12
"""The step distribution is followed until less than this much probability is left."""


@dataclass(frozen=True)
class Absorption:
    """Steps until absorption: ``probabilities[n - 1] = P(T = n)``, the mass left (``tail``)
    beyond the last step listed, and the exact mean (``inf`` when absorption can fail)."""

    probabilities: np.ndarray
    tail: float
    mean: float


def absorption_steps(transient: np.ndarray, start: np.ndarray, max_steps: int,
                     leave: np.ndarray | None = None) -> Absorption:
    """Distribution and mean of the steps until a chain leaves its transient states.

    ``leave[i]`` is the probability of absorption from state ``i`` in one step; pass it when
    known, so that impossible first steps come out as exactly 0 (``1 - row sum`` leaves
    rounding noise of about 1e-16).

    Example:
        >>> chain = absorption_steps(np.array([[0.5]]), np.array([1.0]), 100)
        >>> chain.mean, [float(p) for p in chain.probabilities[:3]]
        (2.0, [0.5, 0.25, 0.125])
    """
    transient = np.asarray(transient, dtype=float)
    start = np.asarray(start, dtype=float)
    if leave is None:
        leave = np.clip(1.0 - transient.sum(axis=1), 0.0, None)
    leave = np.asarray(leave, dtype=float)
    # Mass in states from which absorption is impossible stays forever: it is tail from the
    # start, so the loop stops once the rest is spent instead of running to max_steps.
    can_end = _can_reach_absorption(transient, leave)
    probs = []
    current = start.copy()
    for _ in range(max_steps):
        probs.append(float(current @ leave))
        current = current @ transient
        if current[can_end].sum() < TAIL:
            break
    tail = float(max(current.sum(), 0.0))
    return Absorption(np.clip(np.array(probs), 0.0, None), tail, _mean_steps(transient, start))


def _can_reach_absorption(transient: np.ndarray, leave: np.ndarray) -> np.ndarray:
    """States from which some path leads out of the transient set."""
    reach = leave > 0
    while True:
        grown = reach | ((transient > 0).astype(float) @ reach.astype(float) > 0)
        if (grown == reach).all():
            return reach
        reach = grown


def _mean_steps(transient: np.ndarray, start: np.ndarray) -> float:
    """``start (I - Q)^-1 1`` over the states reachable from ``start``; ``inf`` if some
    reachable state can never be left for good (a closed class inside the transient set)."""
    n = len(start)
    reach = start > 0
    while True:
        grown = reach | ((reach.astype(float) @ (transient > 0)) > 0)
        if (grown == reach).all():
            break
        reach = grown
    idx = np.nonzero(reach)[0]
    q = transient[np.ix_(idx, idx)]
    try:
        steps = np.linalg.solve(np.eye(len(idx)) - q, np.ones(len(idx)))
    except np.linalg.LinAlgError:
        return float("inf")
    if not np.all(np.isfinite(steps)) or np.any(steps < 0) or np.linalg.cond(np.eye(len(idx)) - q) > 1e12:
        return float("inf")
    return float(start[idx] @ steps) if n else 0.0
