"""The margin of two independent checks: the distribution of one total less the other.

An opposed check is decided by the margin (actor's total - reactor's total, less any extra
Obstacle); both are numeric :class:`~.distribution.Distribution` s, so the margin is their
convolution, counting every pair of outcomes.
"""
from __future__ import annotations

import numpy as np

from .. import validation
from ..errors import ParameterError
from .distribution import Distribution, possible_only


MAX_MARGIN_WORK = 10**8
"""Most products of probabilities :func:`margin_distribution` computes (outcomes of one side
times outcomes of the other, or the two spans of whole numbers when those are fewer)."""


def margin_distribution(actor: Distribution, reactor: Distribution, shift: int = 0) -> Distribution:
    """Distribution of ``actor - reactor - shift`` for independent numeric distributions.

    The outcomes may have gaps (a statistic's distribution lists only the values it takes):
    every pair of outcomes counts. Outcomes far apart give the possible margins only.

    Example:
        >>> coin = Distribution((0, 1), (0.5, 0.5))
        >>> margin_distribution(coin, coin).to_dict()
        {'-1': 0.25, '0': 0.5, '1': 0.25}
        >>> odd = Distribution((-2, 0, 2), (0.25, 0.5, 0.25))   # Risk's total: no -1, no 1
        >>> margin_distribution(odd, Distribution((0,), (1.0,)), shift=1).to_dict()
        {'-3': 0.25, '-2': 0.0, '-1': 0.5, '0': 0.0, '1': 0.25}
    """
    for name, side in (("actor", actor), ("reactor", reactor)):
        if not isinstance(side, Distribution) or not side.numeric or not len(side):
            raise ParameterError(None, name, side, "a numeric Distribution, such as check(...).pmf")
    shift = validation.whole_number(None, "shift", shift, -10**6, 10**6)
    a_out = np.array([int(o) for o in actor.outcomes], dtype=np.int64)
    r_out = np.array([int(o) for o in reactor.outcomes], dtype=np.int64)
    a, r = np.asarray(actor.probabilities), np.asarray(reactor.probabilities)
    a_span, r_span = int(a_out[-1] - a_out[0]) + 1, int(r_out[-1] - r_out[0]) + 1
    low = int(a_out[0] - r_out[-1]) - shift
    if a_span * r_span <= MAX_MARGIN_WORK and not possible_only(len(a) * len(r), a_span + r_span - 1):
        # Every whole number between (the impossible ones with probability 0): a convolution.
        a_dense, r_dense = np.zeros(a_span), np.zeros(r_span)
        np.add.at(a_dense, a_out - a_out[0], a)
        np.add.at(r_dense, r_out - r_out[0], r)
        return Distribution.of_totals(low, np.convolve(a_dense, r_dense[::-1]))
    if len(a) * len(r) > MAX_MARGIN_WORK:
        raise ParameterError(None, "actor", f"{len(a)} outcomes against {len(r)}",
                             f"at most {MAX_MARGIN_WORK:.0e} pairs of outcomes for outcomes this far apart")
    margins, where = np.unique(np.subtract.outer(a_out, r_out).ravel() - shift, return_inverse=True)
    probs = np.bincount(where.reshape(-1), weights=np.outer(a, r).ravel(), minlength=len(margins))
    return Distribution(tuple(int(m) for m in margins), probs)
