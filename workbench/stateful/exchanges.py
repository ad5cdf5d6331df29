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

from ..api import versus
from ..errors import WorkbenchError
from ..rules.registry import get_system
from ..rules.system import System
from ..limits import MAX_HITS
from ..validation import optional_boolean
from ._common import (TAIL_CUT, StepsResult, check_work, exact_steps, need_int, need_method,
                      need_steps, need_trials, pack_pools, resolve_seed, run_kernel,
                      simulated_steps)

WHERE = "rounds_until_hits"


def rounds_until_hits(system: "str | System", actor: Mapping[str, Any],
                      reactor: Mapping[str, Any], hits: int = 1, *, method: str = "exact",
                      trials: int = 200_000, seed: int | None = None, max_rounds: int = 100_000,
                      progress: bool | None = None) -> StepsResult:
    """Rounds of opposed checks until the attacker has landed ``hits`` hits.

    Args:
        system: ``"uwr"``, ``"fons"``, ``"arrata"`` (or a variant): a system with opposed checks.
        actor, reactor: the attacker's and the defender's check parameters, as for
            :func:`workbench.versus` (rule options such as FoNS ``attack_resolution`` are
            read from the actor's).
        hits: hits needed.
        method: ``"exact"`` (negative binomial over the exact P(hit) of
            :func:`workbench.versus`) or ``"simulate"``.
        trials, seed, progress: for simulations; ``max_rounds``: longest fight followed.

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
    sys_ = get_system(system)
    need = need_int(WHERE, "hits", hits, 1, MAX_HITS)
    method = need_method(WHERE, method)
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

    from .._kernels.stateful import exchange_blocks

    trials = need_trials(WHERE, trials)
    seed = resolve_seed(WHERE, seed)
    progress = optional_boolean(WHERE, "progress", progress)
    check_work(WHERE, trials * min(limit, need / p))
    specs = [sys_.mechanic.pool(duel.actor), sys_.mechanic.pool(duel.reactor)]
    # The actor hits when attack - defence - extra Ob >= 0 (ties to the attacker) or >= 1.
    margin = (0 if duel.ties_to == "actor" else 1) + sys_.mechanic.versus_extra_obstacle(duel.actor)
    pools = pack_pools(specs)
    counts, = run_kernel(exchange_blocks, trials, seed, (pools.arrays(), margin, need, limit),
                         [(limit + 1,)], progress, work=trials * need / max(p, 1e-3),
                         description="exchanges")
    return simulated_steps("rounds", counts, trials, seed, params | {"max_rounds": limit})


def _negative_binomial(p: float, hits: int, limit: int, params: dict) -> StepsResult:
    rounds = []
    probs = []
    total = 0.0
    t = hits
    while t <= limit:
        # log form keeps huge binomials and tiny powers finite.
        log_p = (math.lgamma(t) - math.lgamma(hits) - math.lgamma(t - hits + 1)
                 + hits * math.log(p) + ((t - hits) * math.log1p(-p) if p < 1.0 else 0.0))
        value = math.exp(log_p) if p < 1.0 or t == hits else 0.0
        rounds.append(t)
        probs.append(value)
        total += value
        if 1.0 - total < TAIL_CUT and t > hits / p:
            break
        t += 1
    full = np.zeros(rounds[-1])
    full[np.array(rounds) - 1] = probs
    return exact_steps("rounds", full, max(1.0 - total, 0.0), hits / p, params)
