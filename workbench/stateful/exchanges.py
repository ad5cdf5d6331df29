"""Opposed exchanges (UWR/FoNS attack against dodge, Arrata versus): rounds until n hits.

Each round the attacker's pool is rolled against the defender's, as in
:func:`workbench.versus` (ties to the reactor in UWR/FoNS, to the attacker in Arrata and
under FoNS ``attack_resolution="defender_sets_target"``; any extra Obstacle of the actor
counts). Rounds are independent with the same P(hit) = ``p``, so the round of the ``n``-th
hit is negative binomial: ``P(T = t) = C(t - 1, n - 1) p^n (1 - p)^(t - n)``, mean ``n / p``.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from .. import validation
from ..api import versus
from ..engine.sampling import use_tables
from ..errors import ParameterError, WorkbenchError
from ..limits import MAX_HITS
from ..rules.registry import get_system
from ..rules.system import System
from ..validation import optional_boolean
from ._common import (
    TAIL_CUT,
    StepsResult,
    check_work,
    exact_steps,
    need_int,
    need_method,
    need_steps,
    need_trials,
    pack_pools,
    resolve_seed,
    run_kernel,
    simulated_steps,
)

WHERE = "rounds_until_hits"


def rounds_until_hits(system: "str | System", actor: Mapping[str, Any] | None = None,
                      reactor: Mapping[str, Any] | None = None, hits: int = 1, *,
                      method: str = "exact", trials: int = 200_000, seed: int | None = None,
                      max_rounds: int = 100_000, progress: bool | None = None, **unknown: Any) -> StepsResult:
    """Rounds of opposed checks until the attacker has landed ``hits`` hits.

    Args:
        system: ``"uwr"``, ``"fons"``, ``"arrata"`` (or a variant): a system with opposed checks.
        actor, reactor: the attacker's and the defender's check parameters, as for
            :func:`workbench.versus` (rule options such as FoNS ``attack_resolution`` are
            read from the actor's).
        hits: hits needed.
        method: ``"exact"`` (negative binomial over the exact P(hit) of
            :func:`workbench.versus`) or ``"simulate"``.
        trials, seed, progress: for simulations; ``max_rounds``: longest fight followed
            (beyond it: the ``tail``; if any, the mean is that of the fights ending within it).

    Returns:
        A :class:`~workbench.stateful.StepsResult` over ``rounds``; ``params["p_hit"]`` is the
        exact per-round P(hit).

    Raises:
        WorkbenchError: when the actor can never hit (P(hit) = 0), for either method, before
            any rolling: the fight never ends.

    Example:
        >>> result = rounds_until_hits("arrata", {"stat": "B4"}, {"stat": "B3"}, hits=2)
        >>> round(result.params["p_hit"], 4), round(result.mean, 3)
        (0.7734, 2.586)
    """
    if unknown:
        validation.renamed(WHERE, unknown)
        name = next(iter(unknown))
        raise ParameterError(WHERE, name, unknown[name], "a keyword of rounds_until_hits: system, "
                             "actor, reactor, hits, method, trials, seed, max_rounds, progress")
    sys_ = get_system(system)
    need = need_int(WHERE, "hits", hits, 1, MAX_HITS)
    method = need_method(WHERE, method)
    # The simulation's arguments are checked whatever the method: a bad one is an error,
    # not silently left unused by an exact answer.
    trials = need_trials(WHERE, trials)
    seed = resolve_seed(WHERE, seed)
    progress = optional_boolean(WHERE, "progress", progress)
    limit = need_steps(WHERE, "max_rounds", max_rounds)
    duel = versus(sys_, actor, reactor)
    p = float(duel.p_actor)
    params = {"system": sys_.id, "actor": dict(duel.actor), "reactor": dict(duel.reactor),
              "hits": need, "p_hit": p, "ties_to": duel.ties_to}
    if p <= 0.0:
        raise WorkbenchError(f"{WHERE}: the actor can never hit (P(hit) = 0), so the "
                             "number of rounds has no distribution")
    if method == "exact":
        return _negative_binomial(p, need, limit, params)

    return _simulated_rounds(sys_, duel, p, need, limit, trials, seed, progress, params)


def _simulated_rounds(sys_: System, duel, p: float, need: int, limit: int, trials: int,
                      seed: int, progress: bool | None, params: dict) -> StepsResult:
    """Fights simulated round by round: each round drawn from its exact P(hit), or (the
    reference) both pools rolled."""
    check_work(WHERE, trials * min(limit, need / p))
    specs = [sys_.mechanic.pool(duel.actor), sys_.mechanic.pool(duel.reactor)]
    if use_tables(2):
        from ..engine._kernels.sampled import exchange_blocks as kernel  # lazy: numba

        # One round is one opposed check: its exact P(hit) is the one versus computed (each
        # side's extra Obstacle, tie rule, uncontested checks).
        args = (p, need, limit)
    else:
        # The reference rolls both pools: the actor hits when attack - defence - the actor's
        # extra Ob + the reactor's extra Ob >= 0 (ties to the actor) or >= 1.
        mechanic = sys_.mechanic
        margin = ((0 if duel.ties_to == "actor" else 1) + mechanic.versus_extra_obstacle(duel.actor)
                  - mechanic.versus_extra_obstacle(duel.reactor))
        from ..engine._kernels.stateful import exchange_blocks as kernel  # lazy: numba

        args = (pack_pools(specs).arrays(), margin, need, limit)
    counts, = run_kernel(kernel, trials, seed, args, [(limit + 1,)], progress,
                         work=trials * need / max(p, 1e-3), description="exchanges")
    return simulated_steps("rounds", counts, trials, seed, params | {"max_rounds": limit})


def _negative_binomial(p: float, hits: int, limit: int, params: dict) -> StepsResult:
    """P(T = t) for t = hits .. until the tail is below TAIL_CUT (or ``limit``), in numpy
    chunks: ``log P(T = t)`` in log form keeps huge binomials and tiny powers finite."""
    if p >= 1.0:  # every round hits
        full = np.zeros(hits)
        full[-1] = 1.0
        return exact_steps("rounds", full, 0.0, float(hits), params)
    chunks = []
    total = 0.0
    first = hits
    size = max(1024, int(min(4 * hits / p, 1e6)))
    while first <= limit:
        t = np.arange(first, min(first + size, limit + 1), dtype=float)
        log_p = (_lgamma(t) - math.lgamma(hits) - _lgamma(t - hits + 1)
                 + hits * math.log(p) + (t - hits) * math.log1p(-p))
        probs = np.exp(log_p)
        chunks.append(probs)
        cumulative = total + np.cumsum(probs)
        done = np.nonzero((1.0 - cumulative < TAIL_CUT) & (t > hits / p))[0]
        if len(done):
            chunks[-1] = probs[:done[0] + 1]
            total = float(cumulative[done[0]])
            break
        total = float(cumulative[-1])
        first = int(t[-1]) + 1
    probs = np.concatenate(chunks)
    full = np.concatenate([np.zeros(hits - 1), probs])
    return exact_steps("rounds", full, max(1.0 - total, 0.0), hits / p, params)


def _lgamma(x: np.ndarray) -> np.ndarray:
    return np.array([math.lgamma(v) for v in x]) if len(x) < 64 else _lgamma_vector(x)


def _lgamma_vector(x: np.ndarray) -> np.ndarray:
    """log Gamma(x) for x >= 1 by Stirling's series (error < 1e-13 for x >= 8; smaller x
    exactly, through math.lgamma)."""
    out = np.empty_like(x)
    small = x < 8
    out[small] = [math.lgamma(v) for v in x[small]]
    y = x[~small]
    inv = 1.0 / y
    inv2 = inv * inv
    out[~small] = ((y - 0.5) * np.log(y) - y + 0.5 * math.log(2 * math.pi)
                   + inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680))))
    return out
