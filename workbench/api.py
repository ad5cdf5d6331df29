"""The public entry points for one check (checks layer): exact and simulated checks, opposed
checks and concrete rolls, by system name.

Each one resolves the parameters by the system's description (rules), computes (engine) and
reads the outcome as a result (results); analyses, figures and interfaces build on these.
"""
from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

import numpy as np

from . import validation
from .engine import RawDistribution, exact_distribution, sum_form
from .errors import ParameterError, WorkbenchError, shown
from .limits import MAX_SIDES, MAX_TOTAL
from .results import CheckResult, Roll, VersusResult, check_result, reading
from .results.distribution import MAX_MARGIN_WORK, margin_distribution  # noqa: F401 (public here too)
from .rules.registry import all_systems, get_system
from .rules.registry import load_system as registry_load_system
from .rules.scored import Outcomes, ScoredRoll
from .rules.system import System


def systems() -> list[System]:
    """Every preset system and shipped what-if variant.

    Example:
        >>> [s.id for s in systems()][:5]
        ['uwr', 'fons', 'unnamed', 'arrata', 'erzahlspiel']
    """
    return list(all_systems().values())


def load_system(path: "str | os.PathLike") -> System:
    """Load one system or variant data file (TOML), checked entry by entry.

    Example:
        >>> from workbench.rules.registry import DATA_DIR
        >>> load_system(DATA_DIR / "variants" / "fons-exploding.toml").id
        'fons-exploding'
    """
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise ParameterError(None, "path", path, "the path of a .toml data file")
    return registry_load_system(path)


def system(name: "str | System") -> System:
    """A system by id (``uwr``), alias (``hkrpg``) or path to a data file.

    Example:
        >>> system("hkrpg").name
        'UWR (= HKRPG)'
    """
    return get_system(name)


def check(system: "str | System", **params: Any) -> CheckResult:
    """The exact result of one check: outcome distribution, tiers, P(pass), mean.

    Example:
        >>> result = check("uwr", dice=4, favor=1, rerolls=2, target=2)
        >>> round(result.p_pass, 4)
        0.8906
        >>> check("erzahlspiel", die="green").p_pass
        0.6666666666666666
    """
    sys_ = get_system(system)
    resolved, pool = sys_.setting(params)   # remembered per setting (data-defined systems)
    wanted = reading.wanted(sys_.mechanic, resolved)
    try:
        # a pool's sums, or the statistics the check reads (the rest on first use)
        raw = exact_distribution(pool, wanted)
    except WorkbenchError as exc:  # work refused up front: say which system asked for it
        raise WorkbenchError(f"{sys_.id}: {exc}") from None
    raw = reading.as_read(sys_.mechanic, resolved, raw)   # statistics: as their joint
    later = None
    if wanted is not None and not set(raw.names).issuperset(getattr(pool, "statistic_names", ())):
        later = (lambda: _exact_of(sys_, pool))   # what the reading did not need: on first use
    return check_result(sys_, raw, resolved, later=later)


def exact_reading(sys_: System, resolved: Mapping[str, Any], spec, memo: dict,
                  condition=None) -> tuple[float | None, float | None]:
    """P(pass) (or P(``condition``), a parsed condition) and the mean of one exact check of
    ``sys_`` with ``resolved`` parameters rolling ``spec``, as :func:`check` gives them.

    Curves, tables and ladders ask for hundreds of checks whose pools repeat (every rung of a
    size rolls the same dice), so each distinct pool's distribution and mean are kept in
    ``memo`` (a dict the caller keeps for one table); building the full
    :class:`~workbench.results.CheckResult` for each point was most of a table's time.

    Example:
        >>> uwr = get_system("uwr")
        >>> p = uwr.resolve(dice=2, target=1)
        >>> [round(x, 4) for x in exact_reading(uwr, p, uwr.mechanic.pool(p), {})]
        [0.5556, 0.6667]
    """
    wanted = reading.wanted(sys_.mechanic, resolved)
    if wanted is not None:   # what this reading reads, nothing more
        wanted = wanted | set(condition.names) if condition is not None else wanted
    key = (spec, wanted)
    if key not in memo:
        raw = reading.as_read(sys_.mechanic, resolved, exact_distribution(spec, wanted))
        memo[key] = raw, reading.outcomes(sys_.mechanic, raw).mean
    raw, mean = memo[key]
    if condition is not None:
        return reading.probability(sys_.mechanic, raw, resolved, condition), mean
    return reading.p_pass(sys_.mechanic, raw, resolved), mean


def _exact_of(sys_: System, pool):
    try:
        return exact_distribution(pool)
    except WorkbenchError as exc:
        raise WorkbenchError(f"{sys_.id}: {exc}") from None


def simulate(system: Any, trials: int = 1_000_000, seed: int | None = None,
             progress: bool | None = None, **params: Any) -> CheckResult:
    """Simulate one check: the same result as :func:`workbench.check`, by rolling dice.

    Args:
        system: system id, alias, variant id, path to a data file, or a ``System``.
        trials: checks to roll, a whole number from 1 to 1e10 (standard errors shrink
            as ``1/sqrt(trials)``).
        seed: 0 to 2**64 - 1 gives identical results on every run and thread count of
            one version (the changelog names versions that draw other dice for a seed);
            ``None`` draws a fresh seed, reported as ``result.seed``. Every die is rolled:
            plain pools several dice per random draw (a uniform draw over every roll of,
            say, five d6), exploding dice one at a time, chains and all; a roll with
            statistics die by die, every statistic read from the dice rolled.
        progress: show a tqdm progress bar (``None``: only for long runs).
        **params: the check's parameters, checked exactly as :func:`workbench.check` does.

    Returns:
        A :class:`~workbench.results.CheckResult` with ``method="simulate"``,
        ``trials`` and ``seed``.

    Raises:
        WorkbenchError: bad ``trials`` or ``seed``; ``ParameterError`` for bad parameters.
        KeyboardInterrupt: re-raised after the progress bar is closed; no partial result.

    Example:
        >>> result = simulate("uwr", trials=200_000, seed=7, dice=4, target=2)
        >>> result.method, result.seed, abs(result.p_pass - 0.4074) < 5 * result.p_pass_stderr
        ('simulate', 7, True)
    """
    trials = validation.trials("simulate", trials)
    seed = validation.seed("simulate", seed)
    sys_ = get_system(system)
    resolved = sys_.resolve(**params)
    spec = sys_.mechanic.pool(resolved)
    from .engine.simulation import check_work, simulate_raw   # lazy: simulation (an exact check never needs it)

    try:
        check_work(trials, spec)
        raw = simulate_raw(spec, trials, seed, progress)
    except WorkbenchError as exc:   # say which system asked, as check does
        raise WorkbenchError(f"{sys_.id}: {exc}") from None
    return check_result(sys_, raw, resolved, method="simulate", seed=seed)


def score(system: "str | System", faces: "Sequence[int] | Mapping[str, Sequence[int]]",
          **params: Any) -> Roll:
    """Score concrete faces, as in the seeds' worked examples.

    ``faces`` lists the initial pool's faces first, then one face per extra die in the order
    rolled (each exploding face, then each reroll). For pools mixing die types give a mapping
    such as ``{"d6": [...], "d8": [...]}``.

    Example:
        >>> roll = score("unnamed", [1, 4, 5, 6], d6=4)
        >>> roll.net, roll.tier
        (1, 'Success with a Twist')
        >>> score("arrata", [2, 6, 4, 5, 1, 3, 4, 4], stat="B5", advantage=3).net
        5
    """
    from .engine.concrete import score_faces   # lazy: concrete (scoring faces; not on the exact path)
    from .engine.concrete_roll import score_scored   # lazy: concrete_roll (scoring faces)

    sys_ = get_system(system)
    resolved = sys_.resolve(**params)
    spec = sys_.mechanic.pool(resolved)
    if isinstance(spec, ScoredRoll):
        return _score_statistics(sys_, spec, _checked_faces(faces), resolved, score_scored(spec, _checked_faces(faces)))
    if isinstance(spec, Outcomes):
        raise WorkbenchError(f"{sys_.id}: its odds are given outright, without dice: there are no faces to score")
    pool = sum_form(spec)
    if pool is None:
        return _score_statistics(sys_, spec, _checked_faces(faces), resolved)
    rolled = score_faces(pool, _checked_faces(faces))
    table = np.zeros((2, 1))
    table[int(rolled.all_initial_failed), 0] = 1.0
    res = check_result(sys_, RawDistribution(rolled.total, table), resolved)
    outcome = next(o for o, p in res.pmf.items() if p == 1.0)
    tier = next((o for o, p in res.tiers.items() if p == 1.0), None) if res.tiers else None
    labelled = sys_.outcome_labels is not None
    return Roll(system=sys_.id, successes=rolled.successes, failures=rolled.failures,
                net=None if labelled else rolled.total, outcome=outcome, tier=tier,
                passed=None if res.p_pass is None else res.p_pass == 1.0)


def _score_statistics(sys_: System, spec, faces, resolved, joint=None) -> Roll:
    """Concrete faces of a system with counts or statistics: every statistic as read."""
    from .engine.concrete_roll import score_roll   # lazy: concrete_roll (scoring faces)

    res = check_result(sys_, joint if joint is not None else score_roll(spec, faces), resolved)
    stats = {name: int(value) for name, value in zip(res.joint.names, res.joint.values[0])}
    tier = next((o for o, p in res.tiers.items() if p == 1.0), None) if res.tiers else None
    labelled = sys_.outcome_labels is not None
    outcome = next(o for o, p in res.pmf.items() if p == 1.0)
    return Roll(system=sys_.id, successes=None, failures=None,
                net=None if labelled else stats["total"], outcome=outcome, tier=tier,
                passed=None if res.p_pass is None else res.p_pass == 1.0, stats=stats)


def _checked_faces(faces: Any) -> "list[int] | dict[str, list[int]]":
    """Faces as whole numbers (a face of 1.5 is an error, never truncated to 1)."""
    def one_list(name: str, given: Any) -> list[int]:
        if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, (Sequence, np.ndarray)):
            raise ParameterError(None, name, given, "a list of faces such as [1, 4, 6]")
        return [validation.whole_number(None, f"{name}[{i}]", face, 1, MAX_SIDES)
                for i, face in enumerate(np.asarray(given).tolist() if isinstance(given, np.ndarray)
                                         else given)]
    if isinstance(faces, Mapping):
        return {_die_name(name): one_list(f"faces[{name!r}]", given) for name, given in faces.items()}
    return one_list("faces", faces)


def _die_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ParameterError(None, "faces", name, "die names such as 'd6' as the mapping's keys")
    return name


def _check_sides(actor: Any, reactor: Any) -> None:
    for name, side in (("actor", actor), ("reactor", reactor)):
        if not isinstance(side, Mapping) or not all(isinstance(k, str) for k in side):
            raise ParameterError(None, name, side,
                                 "a mapping of check parameters, such as {\"dice\": 4} ({} for the defaults)")


def versus(system: "str | System", actor: Mapping[str, Any] | None = None,
           reactor: Mapping[str, Any] | None = None, *, against: "str | System | None" = None,
           ties: str | None = None, **unknown: Any) -> VersusResult:
    """An opposed check: each reactor success cancels one of the actor's.

    Ties go to the reactor in UWR and FoNS (to the attacker under FoNS
    ``attack_resolution="defender_sets_target"``), to the actor in Arrata (the defender's
    successes are the actor's Obstacle). Rule options are the actor's: the reactor's pool is
    rolled under them too (giving the reactor a different rule option is an error). Extra
    Obstacle from either side's levels (Arrata ``disadvantage_mode="obstacle"``) counts
    against that side. In FoNS an uncontested check (a reactor without dice) always passes.

    With ``against`` (another system or a one-line formula) the two totals are compared
    instead: the actor (``system`` with ``actor``'s settings) passes when its total beats the
    reactor's (``against`` with ``reactor``'s), a tie going to ``ties`` (``"reactor"`` unless
    given); ``margin`` is actor total - reactor total.

    Example:
        >>> round(versus("uwr", {"dice": 4}, {"dice": 4}).p_actor, 4)
        0.3536
        >>> versus("fons", {"dice": 3}, {}).p_actor
        1.0
        >>> round(versus("1d6", against="1d6").p_actor, 4)   # a higher d6: 15 of 36
        0.4167
    """
    if unknown:
        _unknown_keyword(unknown)
    if against is not None:
        return _versus_totals(system, against, {} if actor is None else actor,
                              {} if reactor is None else reactor, "reactor" if ties is None else ties)
    if ties is not None:
        raise ParameterError("versus", "ties", ties, "no ties without against= (one system's own "
                             "rules say who wins a tie)")
    _check_sides(actor, reactor)
    sys_ = get_system(system)
    a_params, r_params = _opposed_settings(sys_, actor, reactor)
    ties = _ties_of(sys_, a_params)
    a_res, r_res = check(sys_, **a_params), check(sys_, **r_params)
    if not (a_res.pmf.numeric and r_res.pmf.numeric):
        raise WorkbenchError(f"{sys_.id}: opposed checks need numeric results")
    margin = margin_distribution(a_res.pmf, r_res.pmf, _obstacle_shift(sys_, a_params, r_params))
    p_actor = margin.at_least(0 if ties == "actor" else 1)
    if _uncontested_passes(sys_, r_params):
        p_actor = 1.0  # "an uncontested opposed check is a guaranteed success"
    return VersusResult(system=sys_.id, actor=a_params, reactor=r_params, ties_to=ties,
                        p_actor=p_actor, margin=margin,
                        lost_mass=a_res.lost_mass + r_res.lost_mass)


def _unknown_keyword(unknown: Mapping[str, Any]) -> None:
    """Refuse a keyword :func:`versus` does not take, naming the one meant (or its new name)."""
    validation.renamed("versus", unknown)
    name = next(iter(unknown))
    raise ParameterError("versus", name, unknown[name], "the keywords system, actor, reactor, "
                         "against and ties" + validation.suggest(name, ("actor", "reactor", "system",
                                                                        "against", "ties")))


def _opposed_settings(sys_: System, actor: Mapping[str, Any],
                      reactor: Mapping[str, Any]) -> tuple[dict, dict]:
    """Both sides' parameters, resolved: the reactor rolls under the actor's rule options
    (a different rule option given for the reactor is refused)."""
    a_params = sys_.resolve(**actor)
    options = {name: a_params[name] for name, param in sys_.params.items() if param.rule_option}
    given = sys_.mechanic.preprocess(dict(reactor))
    for name, value in options.items():
        if name in given and sys_.params[name].parse(sys_.id, given[name]) != value:
            raise WorkbenchError(f"{sys_.id}: reactor rule option {name}={given[name]!r} differs from the "
                                 f"actor's {value!r}; an opposed check is rolled under one set of rule "
                                 "options (give them with the actor)")
    return a_params, sys_.resolve(**{**given, **options})


def _ties_of(sys_: System, a_params: Mapping[str, Any]) -> str:
    """Who wins a tie under the actor's settings: ``"actor"`` or ``"reactor"``, checked."""
    ties = sys_.mechanic.versus_ties(a_params)
    if ties not in ("actor", "reactor"):
        raise WorkbenchError(f"{sys_.id}: versus_ties(p) returned {shown(ties)}; allowed: 'actor' "
                             "or 'reactor'")
    return ties


def _obstacle_shift(sys_: System, a_params: Mapping[str, Any], r_params: Mapping[str, Any]) -> int:
    """The extra Obstacle the actor faces less the reactor's, checked: a whole number."""
    mechanic = sys_.mechanic
    shift = mechanic.versus_extra_obstacle(a_params) - mechanic.versus_extra_obstacle(r_params)
    if not isinstance(shift, (int, np.integer)) or isinstance(shift, bool) or abs(shift) > MAX_TOTAL:
        raise WorkbenchError(f"{sys_.id}: versus_extra_obstacle(p) gave {shown(shift)}; allowed: "
                             "whole numbers")
    return shift


def _uncontested_passes(sys_: System, r_params: Mapping[str, Any]) -> bool:
    """Whether the actor passes outright because the reactor rolls no dice (the mechanic's
    ``uncontested`` is ``"passes"``, as in FoNS)."""
    uncontested = getattr(sys_.mechanic, "uncontested", "counts")
    if uncontested not in ("counts", "passes"):
        raise WorkbenchError(f"{sys_.id}: uncontested is {shown(uncontested)}; allowed: 'counts' "
                             "or 'passes'")
    return uncontested == "passes" and sys_.mechanic.pool(r_params).dice == 0


def _versus_totals(system, against, actor, reactor, ties: str) -> VersusResult:
    """Two systems (or formulas) rolled against each other: the actor passes when its total
    is higher, a tie going to ``ties``."""
    _check_sides(actor, reactor)
    ties = validation.choice("versus", "ties", ties, ("actor", "reactor"))
    a_res, r_res = check(system, **actor), check(against, **reactor)
    for name, res in (("system", a_res), ("against", r_res)):
        if not res.pmf.numeric:
            raise ParameterError("versus", name, res.system, "a system with a numeric total (an "
                                 "outcome label cannot be compared with another system's)")
    margin = margin_distribution(a_res.pmf, r_res.pmf)
    return VersusResult(system=a_res.system, actor=dict(a_res.params), reactor=dict(r_res.params),
                        ties_to=ties, p_actor=margin.at_least(0 if ties == "actor" else 1),
                        margin=margin, lost_mass=a_res.lost_mass + r_res.lost_mass,
                        against=r_res.system)
