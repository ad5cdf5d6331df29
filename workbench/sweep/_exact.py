"""The fast path of exact ``check`` sweeps: each point read off its pool's exact table.

A grid of checks asks for many points that roll the same pool (a target or an Ob changes what
passes, not the dice). The points of a batch are resolved together, and those that differ only
in what passes share one resolution and one pool (``System.resolve_points``). Each pool's exact
distribution comes from the engine's memo, keyed by the pool itself (a changed data file or a
mechanic registered again never meets old numbers), and P(pass) for any target is one look-up
in the pool's tail sums (``RawDistribution.at_least``): a whole axis of targets is read off one
array. No :class:`~workbench.results.CheckResult` is built; the figures are those of
:func:`workbench.sweep._functions.check_figures` of :func:`workbench.check`
(``tests/test_sweep.py`` checks they are equal).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..engine import exact_distribution
from ..engine.joint import JointDistribution
from ..results import reading
from ..rules.registry import get_system


def exact_check_figures(params: Mapping[str, Any], fixed: Mapping[str, Any] | None = None) -> dict:
    """The key figures of ``check(**fixed, **params)`` (one of them holds ``system``).

    Example:
        >>> exact_check_figures({"dice": 2, "target": 1}, {"system": "uwr"})["p_pass"]
        0.5555555555555556
    """
    return exact_check_rows([(0, params, None)], fixed or {})[0][1]


def exact_check_rows(items: Sequence[tuple[int, dict, Any]], fixed: Mapping[str, Any],
                     known: Mapping[int, tuple] | None = None) -> list[tuple[int, dict]]:
    """``(index, figures)`` for sweep items ``(index, params, seed)`` of exact checks.

    ``known`` (index -> (system, parameters)): points the sweep resolved already when it
    checked them all, in this process; a point is taken from it when its system is the very
    object found again here (a data file changed since is read anew)."""
    rest = dict(fixed)
    fixed_system = rest.pop("system", None)
    by_system: dict[int, tuple] = {}   # this batch's points by the system given (id, path ...)
    for index, params, _ in items:
        if rest or "system" in params:
            given = {**rest, **params}
            named = given.pop("system", fixed_system)
        else:   # the usual case: the system fixed, the rest from the grid (read, not changed)
            given, named = params, fixed_system
        entry = by_system.get(id(named))
        if entry is None:
            entry = by_system[id(named)] = (named, [], [])
        entry[1].append(index)
        entry[2].append(given)
    rows: dict[int, dict] = {}
    for named, indices, points in by_system.values():
        system = get_system(named)
        mechanic = system.mechanic
        # What a data-defined system reads off a pool besides P(pass) (the mean, the tiers,
        # the mass lost) depends on the pool and on which tiers apply, not on the target:
        # worked out once per pool and set of tiers, then each point adds its P(pass).
        shared = mechanic.pure and mechanic.p_pass is None and mechanic.tiers is None
        templates: dict[tuple, tuple] = {}
        tiered = bool(mechanic.tier_names())
        last_pool = last_raw = None
        # Points that differ only in what passes share one resolution and one pool.
        for index, (resolved, pool) in zip(indices, _resolved(system, indices, points, known)):
            if pool is not last_pool:   # a grid's next points often roll the same pool
                # a pool's sums, or a roll's statistics together
                last_pool, last_raw = pool, reading.as_read(mechanic, resolved, exact_distribution(pool))
            raw = last_raw
            if not shared or isinstance(raw, JointDistribution):
                rows[index] = _figures(mechanic, resolved, raw)
                continue
            rules = mechanic.tier_rules(resolved) if tiered else ()
            found = templates.get((id(raw), id(rules)))
            if found is None or found[0] is not raw or found[1] is not rules:
                row = _figures(mechanic, resolved, raw)
                row.pop("p_pass", None)
                found = templates[(id(raw), id(rules))] = (raw, rules, row)
            # A data-defined mechanic checks its own target: read P(pass) straight off.
            p_pass = reading.declared_p_pass(mechanic, raw, resolved, mechanic.target(resolved))
            rows[index] = found[2].copy() if p_pass is None else {"p_pass": p_pass, **found[2]}
    return [(index, rows[index]) for index, _, _ in items]


def _resolved(system, indices, points, known):
    """``(parameters, pool)`` of each point: from ``known`` when it has them all for this
    system, else :meth:`System.resolve_points`."""
    if known is not None:
        found = [known.get(index) for index in indices]
        if all(entry is not None and entry[0] is system for entry in found):
            pool = system.mechanic.pool   # remembered by the parameters the dice depend on
            return ((resolved, pool(resolved)) for _, resolved in found)
    return system.resolve_points(points)


def _figures(mechanic, resolved, raw) -> dict:
    pmf = reading.outcomes(mechanic, raw)
    row: dict[str, Any] = {}
    p_pass = reading.p_pass(mechanic, raw, resolved)
    if p_pass is not None:
        row["p_pass"] = float(p_pass)
    if pmf.numeric:
        row["mean"] = float(pmf.mean)
    tiers = reading.tiers(mechanic, raw, resolved)
    if tiers is not None:
        row.update({f"tier: {name}": float(p) for name, p in zip(tiers.outcomes, tiers.probabilities)})
    elif not pmf.numeric:
        row.update({f"outcome: {name}": float(p) for name, p in zip(pmf.outcomes, pmf.probabilities)})
    row["lost_mass"] = float(raw.lost_mass)
    return row
