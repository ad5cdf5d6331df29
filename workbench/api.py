"""The public functions: exact checks, opposed checks and concrete rolls, by system name."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from .distribution import CheckResult, Distribution, Roll, VersusResult
from .errors import WorkbenchError
from .exact import exact_raw
from .rules.registry import all_systems, get_system
from .rules.system import System


def systems() -> list[System]:
    """Every preset system and shipped what-if variant.

    Example:
        >>> [s.id for s in systems()][:5]
        ['uwr', 'fons', 'unnamed', 'arrata', 'erzahlspiel']
    """
    return list(all_systems().values())


def system(name: "str | System") -> System:
    """A system by id (``uwr``), alias (``hkrpg``) or path to a data file.

    Example:
        >>> system("hkrpg").name
        'UWR (= HKRPG)'
    """
    return get_system(name)


def check(system_name: "str | System", **params: Any) -> CheckResult:
    """The exact result of one check: outcome distribution, tiers, P(pass), mean.

    Example:
        >>> result = check("uwr", dice=4, favor=1, rerolls=2, target=2)
        >>> round(result.p_pass, 4)
        0.8906
        >>> check("erzahlspiel", die="green").p_pass
        0.6666666666666666
    """
    sys_ = get_system(system_name)
    resolved = sys_.resolve(**params)
    return sys_.result(exact_raw(sys_.mechanic.pool(resolved)), resolved)


def score(system_name: "str | System", faces: "Sequence[int] | Mapping[str, Sequence[int]]",
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
    return get_system(system_name).score(faces, **params)


def margin_distribution(actor: Distribution, reactor: Distribution, shift: int = 0) -> Distribution:
    """Distribution of ``actor - reactor - shift`` for independent numeric distributions."""
    a, r = np.asarray(actor.probabilities), np.asarray(reactor.probabilities)
    probs = np.convolve(a, r[::-1])
    low = actor.outcomes[0] - reactor.outcomes[-1] - shift
    return Distribution(tuple(range(low, low + len(probs))), probs)


def versus(system_name: "str | System", actor: Mapping[str, Any], reactor: Mapping[str, Any]) -> VersusResult:
    """An opposed check: each reactor success cancels one of the actor's.

    Ties go to the reactor in UWR and FoNS (to the attacker under FoNS
    ``attack_resolution="defender_sets_target"``), to the actor in Arrata (the defender's
    successes are the actor's Obstacle). Rule options are the actor's: the reactor's pool is
    rolled under them too (giving the reactor a different rule option is an error). Extra
    Obstacle from either side's levels (Arrata ``disadvantage_mode="obstacle"``) counts
    against that side. In FoNS an uncontested check (a reactor without dice) always passes.

    Example:
        >>> round(versus("uwr", {"dice": 4}, {"dice": 4}).p_actor, 4)
        0.3536
        >>> versus("fons", {"dice": 3}, {}).p_actor
        1.0
    """
    sys_ = get_system(system_name)
    a_params = sys_.resolve(**actor)
    options = {name: a_params[name] for name, param in sys_.params.items() if param.rule_option}
    given = sys_.mechanic.preprocess(dict(reactor))
    for name, value in options.items():
        if name in given and sys_.params[name].parse(sys_.id, given[name]) != value:
            raise WorkbenchError(f"{sys_.id}: reactor rule option {name}={given[name]!r} differs from the "
                                 f"actor's {value!r}; an opposed check is rolled under one set of rule "
                                 "options (give them with the actor)")
    r_params = sys_.resolve(**{**given, **options})
    mechanic = sys_.mechanic
    ties = mechanic.versus_ties(a_params)
    a_res, r_res = check(sys_, **a_params), check(sys_, **r_params)
    if not (a_res.pmf.numeric and r_res.pmf.numeric):
        raise WorkbenchError(f"{sys_.id}: opposed checks need numeric results")
    shift = mechanic.versus_extra_obstacle(a_params) - mechanic.versus_extra_obstacle(r_params)
    margin = margin_distribution(a_res.pmf, r_res.pmf, shift)
    p_actor = margin.at_least(0 if ties == "actor" else 1)
    if getattr(mechanic, "uncontested", "counts") == "passes" and mechanic.pool(r_params).dice == 0:
        p_actor = 1.0  # "an uncontested opposed check is a guaranteed success"
    return VersusResult(system=sys_.id, actor=a_params, reactor=r_params, ties_to=ties,
                        p_actor=p_actor, margin=margin,
                        lost_mass=a_res.lost_mass + r_res.lost_mass)
