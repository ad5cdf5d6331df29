"""Burn (Unnamed System): pushing a Trait or Aspect now, weaker until rest.

The model, per check of a scene:

* The character has Traits (stack = d6s they give) and Aspects (stack = d8s). A check
  names the Traits and Aspects it uses, plus any other Unnamed parameters (``d6`` for
  Skills, ``bonus``, ``penalty``, ``target``, ...).
* At most one burn per check. Burning a Trait turns its d6s into d8s for this check;
  burning an Aspect gives one free success. Either way the burned stack drops by 1 for
  later checks (never below 0; a stack of 0 cannot be burned).
* A short rest (the string ``"rest"`` between checks) restores one point to the burned
  characteristic furthest below its stack (Traits first, then in the order given, on ties).
* Policy: ``"never"``; ``"always"`` (burn on every check where something can be burned);
  ``"when_likely_to_fail"`` (burn only when the check's exact P(pass) at the current stacks
  is below ``threshold``). A burn takes the option with the highest exact P(pass); these
  probabilities come from :func:`workbench.check` before the simulation, as a table.

Without burning the stacks never change, so the "without" column is exact.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

import numpy as np

from ..api import check
from ..engine.sampling import p_pass, use_tables
from ..errors import ParameterError
from ..limits import MAX_BURN_TABLE
from ..results.rich import RichResult
from ..rules.registry import get_system
from ..rules.system import System
from ..validation import optional_boolean
from ._common import (
    check_work,
    need_choice,
    need_int,
    need_probability,
    need_trials,
    pack_pools,
    resolve_seed,
    run_kernel,
)

WHERE = "burn_scene"
POLICIES = ("never", "always", "when_likely_to_fail")


@dataclass(frozen=True, repr=False)
class BurnResult(RichResult):
    """A simulated scene with burning.

    Attributes:
        summary: one-row DataFrame: mean pass rate without (exact) and with burning
            (simulated), burns per scene, trials, seed.
        checks: per check: P(pass) without / with burning, its ``stderr``, P(a Trait burned),
            P(an Aspect burned).
        stacks: mean stack of each characteristic before each check (columns
            ``"Trait: name"`` / ``"Aspect: name"``).
        params: the settings used.
    """

    summary: Any
    checks: Any
    stacks: Any
    params: dict


def _stacks(kind: str, given: Mapping[str, int] | None) -> dict[str, int]:
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise ParameterError(WHERE, kind, given, "a mapping name -> stack (dice it gives)")
    return {str(name): need_int(WHERE, f"{kind}[{name!r}]", stack, 0, 100)
            for name, stack in given.items()}


def _parse_scene(scene: Iterable, traits: dict, aspects: dict):
    if isinstance(scene, (str, bytes, Mapping)) or not isinstance(scene, Iterable):
        raise ParameterError(WHERE, "scene", scene, "a list of checks (dicts) and 'rest'")
    checks, rest_before, pending_rest = [], [], False
    for i, item in enumerate(scene):
        if isinstance(item, str) and item.strip().lower() == "rest":
            pending_rest = True
            continue
        if not isinstance(item, Mapping):
            raise ParameterError(WHERE, f"scene[{i}]", item,
                                 "a check (dict of parameters with 'traits'/'aspects') or 'rest'")
        given = dict(item)
        used = {}
        for kind, known in (("traits", traits), ("aspects", aspects)):
            names = given.pop(kind, ())
            names = [names] if isinstance(names, str) else names
            if not isinstance(names, (list, tuple, set, frozenset)):
                raise ParameterError(WHERE, f"scene[{i}].{kind}", names,
                                     f"names of the character's {kind}, such as ['Nimble']")
            names = [str(name) for name in names]  # as the character's names are kept
            for name in names:
                if name not in known:
                    raise ParameterError(WHERE, f"scene[{i}].{kind}", name,
                                         f"one of the character's {kind}: "
                                         + (", ".join(known) or "none given"))
            used[kind] = [n in names for n in known]
        checks.append((given, used["traits"], used["aspects"]))
        rest_before.append(pending_rest)
        pending_rest = False
    if not checks:
        raise ParameterError(WHERE, "scene", scene, "at least one check")
    return checks, rest_before


def burn_scene(scene: Iterable, *, traits: Mapping[str, int] | None = None,
               aspects: Mapping[str, int] | None = None, policy: str = "when_likely_to_fail",
               threshold: float = 0.5, system: "str | System" = "unnamed", trials: int = 100_000,
               seed: int | None = None, progress: bool | None = None) -> BurnResult:
    """Simulate a scene of checks where the character may burn Traits and Aspects.

    Args:
        scene: checks (dicts: ``traits`` and ``aspects`` used, by name, plus any Unnamed
            System parameter such as ``d6`` for Skills or ``target``), with ``"rest"``
            between checks for a short rest.
        traits, aspects: the character's characteristics, name -> stack.
        policy, threshold: when to burn (see the module docstring).
        system: the Unnamed System or a variant; ``trials`` scenes; ``seed``; ``progress``.

    Returns:
        A :class:`BurnResult` of DataFrames.

    Example:
        >>> scene = [{"traits": ["Nimble"], "aspects": ["Thief"], "d6": 1}] * 3
        >>> result = burn_scene(scene, traits={"Nimble": 2}, aspects={"Thief": 1},
        ...                     policy="always", trials=20_000, seed=3)
        >>> result.stacks.round(2).iloc[:, 0].tolist()
        [2.0, 2.0, 1.0]
    """
    sys_ = get_system(system)
    if not {"d6", "d8", "drama"} <= set(sys_.params):  # the Unnamed System or a variant of it
        raise ParameterError(WHERE, "system", sys_.id, "the Unnamed System or a variant of it")
    trait_stack, aspect_stack = _stacks("traits", traits), _stacks("aspects", aspects)
    policy = need_choice(WHERE, "policy", policy, POLICIES)
    threshold = need_probability(WHERE, "threshold", threshold)
    trials = need_trials(WHERE, trials)
    seed = resolve_seed(WHERE, seed)
    progress = optional_boolean(WHERE, "progress", progress)
    checks, rest_before = _parse_scene(scene, trait_stack, aspect_stack)
    t_stack = np.array(list(trait_stack.values()), np.int64)
    a_stack = np.array(list(aspect_stack.values()), np.int64)

    resolved, specs, extra_d6, extra_d8 = _resolved_checks(sys_, checks)
    exact = _p_pass_without_burning(sys_, resolved, checks, t_stack, a_stack)
    size_t = int(t_stack.sum())
    size_a = int(a_stack.sum())
    table_checks = len(checks) * (size_t + 1) * (size_a + size_t + 1) * 2 * (policy != "never")
    if table_checks > MAX_BURN_TABLE:
        raise ParameterError(WHERE, "traits", trait_stack,
                             f"stacks small enough for the burn table: {len(checks)} checks x "
                             f"{size_t} Trait dice x {size_a} Aspect dice need {table_checks} "
                             f"exact checks, more than {MAX_BURN_TABLE}")
    check_work(WHERE, float(trials) * len(checks))
    p_table = _policy_table(sys_, resolved, extra_d6, extra_d8, size_t, size_a, policy)

    n = len(checks)
    uses_trait = np.array([u for _, u, _ in checks], np.bool_).reshape(n, len(t_stack))
    uses_aspect = np.array([u for _, _, u in checks], np.bool_).reshape(n, len(a_stack))
    targets = np.array([p["target"] for p in resolved], np.int64)
    common = (uses_trait, uses_aspect, np.array(extra_d6, np.int64), np.array(extra_d8, np.int64))
    rules = (np.array(rest_before, np.bool_), t_stack, a_stack, POLICIES.index(policy),
             threshold, p_table)
    kernel, args = _burn_kernel(specs, targets, extra_d6, extra_d8, size_t, size_a, common, rules)
    passes, burns, stacks = run_kernel(
        kernel, trials, seed, args, [(n,), (n, 3), (n, len(t_stack) + len(a_stack))],
        progress, work=float(trials) * n, description="burn scenes")
    params = {"traits": trait_stack, "aspects": aspect_stack, "policy": policy,
              "threshold": threshold, "system": sys_.id, "trials": trials, "seed": seed}
    return _result(exact, passes, burns, stacks, rest_before, trials, params)


def _resolved_checks(sys_: System, checks: list) -> tuple[list, list, list, list]:
    """Each check's parameters resolved; its pool with one more d6 and d8 (the room a burn
    needs, for the kernels' tables); the d6 and d8 it rolls before any Trait or Aspect."""
    resolved, specs, extra_d6, extra_d8 = [], [], [], []
    for given, _, _ in checks:
        if "drama" in given:
            raise ParameterError(WHERE, "drama", given["drama"], "left out (see drama_campaign)")
        params = sys_.resolve(**given)
        resolved.append(params)
        base = dict((die.name, n) for die, n in sys_.mechanic.pool(params).groups)
        extra_d6.append(base.get("d6", 0))
        extra_d8.append(base.get("d8", 0))
        specs.append(sys_.mechanic.pool(dict(params, d6=params["d6"] + 1, d8=params["d8"] + 1)))
    return resolved, specs, extra_d6, extra_d8


def _p_pass_without_burning(sys_: System, resolved: list, checks: list, t_stack: np.ndarray,
                            a_stack: np.ndarray) -> list[float]:
    """Exact P(pass) of each check at the full stacks (without burning they never change)."""
    exact = []
    for params, (_, uses_t, uses_a) in zip(resolved, checks):
        full = dict(params, d6=params["d6"] + int(t_stack[uses_t].sum()) if len(t_stack) else params["d6"],
                    d8=params["d8"] + int(a_stack[uses_a].sum()) if len(a_stack) else params["d8"])
        exact.append(check(sys_, **full).p_pass)
    return exact


def _policy_table(sys_: System, resolved: list, extra_d6: list, extra_d8: list, size_t: int,
                  size_a: int, policy: str) -> np.ndarray:
    """Exact P(pass) the policy decides by: ``[check, d6, d8, free success]`` for every
    reachable number of dice (zeros when the policy never burns)."""
    d6_dim = max(extra_d6) + size_t + 1
    d8_dim = max(extra_d8) + size_a + size_t + 1
    p_table = np.zeros((len(resolved), d6_dim, d8_dim, 2))
    if policy != "never":
        for c, params in enumerate(resolved):
            for x in range(size_t + 1):
                for y in range(size_a + size_t + 1):
                    for free in (0, 1):
                        p_table[c, extra_d6[c] + x, extra_d8[c] + y, free] = check(
                            sys_, **dict(params, d6=params["d6"] + x, d8=params["d8"] + y,
                                         free_successes=params["free_successes"] + free)).p_pass
    return p_table


def _burn_kernel(specs, targets, extra_d6, extra_d8, size_t: int, size_a: int, common: tuple,
                 rules: tuple) -> tuple:
    """The kernel that plays the scenes and its arguments: each check drawn from its exact
    pass table, or (the reference) every die rolled."""
    names = [die.name for die, _ in specs[0].groups]
    pools = pack_pools(specs)
    n = len(specs)
    if use_tables(n * (size_t + 1) * (size_a + size_t + 1) * 2):
        from ..engine._kernels.sampled import burn_blocks as kernel  # lazy: numba

        d6_low = np.array(extra_d6, np.int64)
        d8_low = np.array(extra_d8, np.int64)
        p_sample = _pass_tables(specs, names, targets, d6_low, d8_low, size_t, size_a)
        return kernel, (d6_low, d8_low, *common, *rules, p_sample)
    from ..engine._kernels.stateful import burn_blocks as kernel  # lazy: numba

    return kernel, (pools.arrays(), names.index("d6"), names.index("d8"), *common, targets, *rules)


def _result(exact, passes, burns, stacks, rest_before, trials: int, params: dict) -> BurnResult:
    import pandas as pd  # lazy: pandas

    n = len(exact)
    index = pd.Index(range(1, n + 1), name="check")
    p_with = passes / trials
    table = pd.DataFrame({"p_pass_without_burning": exact, "p_pass_with_burning": p_with,
                          "stderr": np.sqrt(p_with * (1 - p_with) / trials),
                          "p_burn_trait": burns[:, 1] / trials, "p_burn_aspect": burns[:, 2] / trials,
                          "short_rest_before": rest_before}, index=index)
    columns = ([f"Trait: {k}" for k in params["traits"]]
               + [f"Aspect: {k}" for k in params["aspects"]])
    stack_frame = pd.DataFrame(stacks / trials, index=index, columns=columns)
    summary = pd.DataFrame([{"pass_without_burning": float(np.mean(exact)),
                             "pass_with_burning": float(p_with.mean()),
                             "burns_per_scene": float((burns[:, 1:].sum()) / trials),
                             "checks": n, "trials": trials, "seed": params["seed"]}])
    return BurnResult(summary, table, stack_frame, params)


def _pass_tables(specs, names, targets, d6_low, d8_low, size_t: int, size_a: int) -> np.ndarray:
    """Exact P(pass) of each check for every reachable number of d6 and d8 and a free
    success or not: ``[c, d6 - d6_low[c], d8 - d8_low[c], free]``."""
    d6_at, d8_at = names.index("d6"), names.index("d8")
    table = np.zeros((len(specs), size_t + 1, size_a + size_t + 1, 2))
    for c, spec in enumerate(specs):
        dice = [die for die, _ in spec.groups]
        for x in range(size_t + 1):
            for y in range(size_a + size_t + 1):
                counts = {d6_at: d6_low[c] + x, d8_at: d8_low[c] + y}
                groups = tuple((die, int(counts.get(g, 0))) for g, die in enumerate(dice))
                for free in (0, 1):
                    pool = replace(spec, groups=groups, modifier=spec.modifier + free)
                    table[c, x, y, free] = p_pass(pool, int(targets[c]))
    return table
