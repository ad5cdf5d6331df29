"""The Drama Dice economy of the Unnamed System over a campaign of sessions.

The model:

* One shared pool of d6 for the party. Its maximum is ``2 * players + 2 * tier`` (the seed),
  or ``2 + players``, at most 10, under the rule option ``drama_pool="source_page"``.
* ``start``: the pool when the campaign begins, ``"full"`` by default (the seed: "at the
  start of a campaign, a pool of Drama Dice is established").
* Every session, the first included, begins with +1 die, never above the maximum.
* After each check, Fiat or complication events add dice, never above the maximum:
  ``refill="probability"`` adds one die with probability ``refill_rate``;
  ``refill="poisson"`` adds a Poisson(``refill_rate``) number of dice.
* Before each check a spending policy says how many dice (0-2) the player wants; they pull
  that many, or what is left. ``"never"``; ``"always"`` (2); ``"when_likely_to_fail"``
  (``dice_per_spend`` dice when the check's exact P(pass) without Drama Dice, from
  :func:`workbench.check`, is below ``threshold``); or one number per check.

Without Drama Dice every check is independent, so the "without" columns are exact.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ..api import check
from ..engine.raw import RawDistribution
from ..engine.sampling import OutcomeTables, event_tables, outcomes, use_tables
from ..errors import ParameterError
from ..limits import MAX_CAMPAIGN_CHECKS
from ..results import reading
from ..results.rich import RichResult
from ..rules.registry import get_system
from ..rules.system import System
from ..validation import optional_boolean
from ._common import (
    check_work,
    need_choice,
    need_int,
    need_probability,
    need_rate,
    need_trials,
    pack_pools,
    resolve_seed,
    run_kernel,
)

WHERE = "drama_campaign"
POLICIES = ("never", "always", "when_likely_to_fail")
REFILLS = ("probability", "poisson")
LOW_TOTAL, HIGH_TOTAL = -8, 16
"""Totals are binned in this range for the tier mix (outside values fall into the end bins,
which keeps every tier of the Unnamed System exact)."""


def pool_maximum(players: int, tier: int, drama_pool: str = "seed") -> int:
    """The Drama Dice pool's maximum under a rule option.

    Example:
        >>> pool_maximum(4, 1), pool_maximum(4, 1, "source_page"), pool_maximum(12, 3, "source_page")
        (10, 6, 10)
    """
    players = need_int(WHERE, "players", players, 1, 1000)
    tier = need_int(WHERE, "tier", tier, 0, 1000)
    drama_pool = need_choice(WHERE, "drama_pool", drama_pool, ("seed", "source_page"))
    return 2 * players + 2 * tier if drama_pool == "seed" else min(2 + players, 10)


@dataclass(frozen=True, repr=False)
class DramaResult(RichResult):
    """A simulated Drama Dice campaign.

    Attributes:
        summary: one-row DataFrame: pass rate with (simulated, with ``stderr``) and without
            Drama Dice (exact), mean dice pulled per check, share of checks that found the
            pool empty, the pool maximum, trials and seed.
        checks: one row per check of the campaign (``session``, ``check``): the same figures
            per check, plus the mean pool level before it.
        tiers: tier probabilities over all checks, columns ``without`` (exact) and ``with``.
        pool_levels: P(pool level before the check), one row per check, one column per level.
        params: the settings used.
    """

    summary: Any
    checks: Any
    tiers: Any
    pool_levels: Any
    params: dict


def _sessions(session, sessions) -> list[list[dict]]:
    if isinstance(session, (str, bytes, Mapping)) or not isinstance(session, Iterable):
        raise ParameterError(WHERE, "session", session, "a list of checks (dicts of Unnamed "
                             "System parameters), or a list of such lists")
    items = list(session)
    if items and all(isinstance(item, Mapping) for item in items):
        count = need_int(WHERE, "sessions", 1 if sessions is None else sessions, 1, 10_000)
        return [list(items)] * count
    if sessions is not None:
        raise ParameterError(WHERE, "sessions", sessions,
                             "None when a list of sessions (lists of checks) is given")
    out = []
    for i, one in enumerate(items):
        if isinstance(one, (Mapping, str)) or not isinstance(one, Iterable):
            raise ParameterError(WHERE, f"session[{i}]", one,
                                 "a list of checks (dicts of Unnamed System parameters)")
        checks = list(one)
        if not all(isinstance(c, Mapping) for c in checks):
            raise ParameterError(WHERE, f"session[{i}]", checks, "checks as dicts of parameters")
        out.append(checks)
    if not any(out):
        raise ParameterError(WHERE, "session", session, "at least one check")
    return out


def _wanted(policy, p_without: np.ndarray, per_session: list[int], threshold, dice_per_spend):
    n = len(p_without)
    if isinstance(policy, str):
        name = need_choice(WHERE, "policy", policy, POLICIES)
        if name == "never":
            return np.zeros(n, np.int64), name
        if name == "always":
            return np.full(n, 2, np.int64), name
        threshold = need_probability(WHERE, "threshold", threshold)
        spend = need_int(WHERE, "dice_per_spend", dice_per_spend, 1, 2)
        return np.where(p_without < threshold, spend, 0).astype(np.int64), name
    plan = list(policy) if isinstance(policy, Iterable) else None
    if plan is None:
        raise ParameterError(WHERE, "policy", policy, "one of " + ", ".join(POLICIES)
                             + ", or dice to pull (0-2) for each check")
    lengths = {n} | ({per_session[0]} if len(set(per_session)) == 1 else set())
    if len(plan) not in lengths:
        raise ParameterError(WHERE, "policy", policy,
                             f"a list of {n} numbers (one per check of the campaign)"
                             + (f" or {per_session[0]} (one per check of a session)"
                                if len(lengths) > 1 else ""))
    numbers = [need_int(WHERE, f"policy[{i}]", v, 0, 2) for i, v in enumerate(plan)]
    if len(numbers) != n:
        numbers = numbers * len(per_session)
    return np.array(numbers, np.int64), "plan"


EXACT_CHECKS_BAR_FROM = 1000
"""Campaigns with at least this many different checks show a bar while their exact odds are
computed (the policy reads them before any campaign is rolled), when ``progress=None``."""


def _exact_checks(system: System, flat: list[dict], progress: bool | None) -> list:
    """The exact result of every check of a campaign, each different check computed once,
    with a progress bar for many different checks (20,000 checks of up to 500 dice took a
    minute with no bar before the simulation's own)."""
    keys = [repr(sorted(params.items())) for params in flat]
    distinct: dict[str, dict] = {}
    for key, params in zip(keys, flat):
        distinct.setdefault(key, params)
    show = len(distinct) >= EXACT_CHECKS_BAR_FROM if progress is None else progress
    bar = None
    if show:
        from tqdm.auto import tqdm  # lazy: tqdm.auto loads ipywidgets
        bar = tqdm(total=len(distinct), desc="exact odds of each check", unit="check")
    results = {}
    try:
        for key, params in distinct.items():
            results[key] = check(system, **params)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return [results[key] for key in keys]


def drama_campaign(session: Iterable, *, sessions: int | None = None, players: int = 4,
                   tier: int = 1, drama_pool: str = "seed", start: "int | str" = "full",
                   policy: "str | Sequence[int]" = "when_likely_to_fail", threshold: float = 0.5,
                   dice_per_spend: int = 2, refill_rate: float = 0.0, refill: str = "probability",
                   system: "str | System" = "unnamed", trials: int = 100_000,
                   seed: int | None = None, progress: bool | None = None) -> DramaResult:
    """Simulate campaigns of checks that share a Drama Dice pool (see the module docstring).

    Args:
        session: the checks of a session (dicts of Unnamed System parameters such as
            ``{"d6": 3, "target": 1}``; any iterable, a generator too), repeated ``sessions``
            times; or a list of sessions, each a list of checks (then leave ``sessions`` out).
        players, tier, drama_pool: set the pool maximum (:func:`pool_maximum`).
        start: pool at the start of the campaign, ``"full"`` or a number of dice.
        policy: ``"never"``, ``"always"``, ``"when_likely_to_fail"`` or dice (0-2) per check
            (of the campaign, or of one session when all sessions are the same length).
        threshold, dice_per_spend: for ``"when_likely_to_fail"``.
        refill_rate, refill: Fiat/complication events per check (see the module docstring).
        system: the Unnamed System or a variant of it.
        trials: campaigns simulated; ``seed`` (``None``: fresh), ``progress`` (tqdm bar).

    Returns:
        A :class:`DramaResult` of DataFrames.

    Example:
        >>> result = drama_campaign([{"d6": 2}, {"d6": 3, "target": 2}] * 5, players=3, tier=1,
        ...                         policy="always", trials=20_000, seed=1)
        >>> row = result.summary.iloc[0]
        >>> bool(row["pass_with"] > row["pass_without"]), int(row["pool_max"])
        (True, 8)
    """
    sys_ = get_system(system)
    if not {"d6", "d8", "drama"} <= set(sys_.params):  # the Unnamed System or a variant of it
        raise ParameterError(WHERE, "system", sys_.id, "the Unnamed System or a variant of it "
                             "(Drama Dice are its rule)")
    plan = _sessions(session, sessions)
    maximum = pool_maximum(players, tier, drama_pool)
    drama_pool = need_choice(WHERE, "drama_pool", drama_pool, ("seed", "source_page"))
    level0 = _start_level(start, maximum)
    rate, refill = _refill(refill_rate, refill)
    trials = need_trials(WHERE, trials)
    seed = resolve_seed(WHERE, seed)
    progress = optional_boolean(WHERE, "progress", progress)
    total = sum(len(checks) for checks in plan)
    if total > MAX_CAMPAIGN_CHECKS:
        raise ParameterError(WHERE, "session", f"{total} checks", f"at most {MAX_CAMPAIGN_CHECKS} "
                             "checks in a campaign (sessions x checks per session)")
    check_work(WHERE, float(trials) * total)

    flat, labels = _campaign_checks(sys_, plan, drama_pool)
    starts = _session_dice(plan, len(flat))
    exact = _exact_checks(sys_, flat, progress)
    p_without = np.array([r.p_pass for r in exact])
    wanted, policy_name = _wanted(policy, p_without, [len(c) for c in plan], threshold, dice_per_spend)
    specs, groups = _drama_pools(sys_, flat)
    targets = np.array([p["target"] for p in flat], np.int64)
    rules = (wanted, starts, maximum, level0, refill, rate)
    n = len(flat)
    if use_tables(3 * n):
        counts = _sampled_campaigns(specs, groups, targets, rules, trials, seed, progress)
    else:
        counts = _rolled_campaigns(specs, groups, targets, rules, trials, seed, progress)
    params = {"players": players, "tier": tier, "drama_pool": drama_pool, "pool_max": maximum,
              "start": level0, "policy": policy_name, "threshold": threshold,
              "dice_per_spend": dice_per_spend, "refill_rate": rate, "refill": refill,
              "system": sys_.id, "trials": trials, "seed": seed, "wanted": wanted.tolist()}
    return _result(sys_, flat, labels, exact, *counts, trials, params)


def _start_level(start: "int | str", maximum: int) -> int:
    """The pool when the campaign begins: ``"full"`` (the maximum) or a number of dice."""
    if isinstance(start, str):
        if start != "full":
            raise ParameterError(WHERE, "start", start, f'"full" or a number of dice from 0 to '
                                 f"{maximum} (the pool maximum for these players and tier)")
        return maximum
    return need_int(WHERE, "start", start, 0, maximum)


def _refill(refill_rate: float, refill: str) -> tuple[float, str]:
    """The refill rate and kind, checked (a probability when one die may come per check)."""
    rate = need_rate(WHERE, "refill_rate", refill_rate)
    refill = need_choice(WHERE, "refill", refill, REFILLS)
    if refill == "probability":
        need_probability(WHERE, "refill_rate", rate)
    return rate, refill


def _campaign_checks(sys_: System, plan: list[list[dict]], drama_pool: str) -> tuple[list, list]:
    """Every check of the campaign resolved (``flat``) with its ``(session, check)`` label; a
    check that names Drama Dice or another pool maximum is refused, naming where it is."""
    flat, labels = [], []
    for s, checks in enumerate(plan):
        for c, given in enumerate(checks):
            if "drama" in given:
                raise ParameterError(WHERE, f"session {s + 1} check {c + 1}: drama", given["drama"],
                                     "left out (the spending policy decides the Drama Dice)")
            if "drama_pool" in given and sys_.params["drama_pool"].parse(sys_.id, given["drama_pool"]) != drama_pool:
                # The campaign's pool maximum is drama_campaign's drama_pool: a check saying
                # otherwise would be silently overruled.
                raise ParameterError(WHERE, f"session {s + 1} check {c + 1}: drama_pool",
                                     given["drama_pool"], f"left out, or the campaign's {drama_pool!r} "
                                     "(give drama_pool to drama_campaign: it sets the pool maximum)")
            try:
                flat.append(sys_.resolve(**given))
            except ParameterError as error:  # say which check of the campaign it was
                raise ParameterError(WHERE, f"session {s + 1} check {c + 1}: {error.parameter}",
                                     error.value, error.allowed) from None
            labels.append((s + 1, c + 1))
    return flat, labels


def _session_dice(plan: list[list[dict]], checks: int) -> np.ndarray:
    """Dice added to the pool before each check: a session's +1 comes before its first check;
    an empty session passes its die on."""
    starts = np.zeros(checks, np.int64)
    position = 0
    pending = 0
    for session in plan:
        pending += 1
        if session:
            starts[position] += pending
            pending = 0
            position += len(session)
    return starts


def _drama_pools(sys_: System, flat: list[dict]) -> tuple[list, list[int]]:
    """Each check's pool with two Drama Dice, and the group of its dice the Drama Dice are."""
    specs, groups = [], []
    for params in flat:
        with_two = sys_.mechanic.pool(dict(params, drama=2))
        without = sys_.mechanic.pool(dict(params, drama=0))
        base = dict((die.name, n) for die, n in without.groups)
        group = next(g for g, (die, n) in enumerate(with_two.groups) if n - base.get(die.name, 0) == 2)
        specs.append(with_two)
        groups.append(group)
    return specs, groups


def _sampled_campaigns(specs, groups, targets, rules, trials, seed, progress) -> tuple:
    """The campaigns with each check drawn from its exact outcome table (0, 1 or 2 Drama
    Dice): counts of pool levels, passes, dice pulled and outcomes per check."""
    from ..engine._kernels.sampled import drama_blocks as sampled_blocks  # lazy: numba

    wanted, starts, maximum, level0, refill, rate = rules
    n = len(specs)
    width = HIGH_TOTAL - LOW_TOTAL + 1
    tables = _check_tables(specs, groups, targets, width)
    events, last = event_tables(REFILLS.index(refill), rate, maximum)
    args = (tables.cdf, tables.guide, tables.payload["bin"], wanted, starts, maximum,
            level0, events.cdf, events.guide, last)
    levels, bins = run_kernel(sampled_blocks, trials, seed, args,
                              [(n, maximum + 1), (n, 4 * width)], progress,
                              work=float(trials) * n, description="drama campaigns")
    # Bins are (pass, disaster, clipped total); dice pulled follow from the level.
    folded = bins.reshape(n, 2, 2, width)
    passes = folded[:, 1].sum(axis=(1, 2))
    outcomes = folded.sum(axis=1)
    spent = np.zeros((n, 3), np.int64)
    for c in range(n):
        np.add.at(spent[c], np.minimum(wanted[c], np.arange(maximum + 1)), levels[c])
    return levels, passes, spent, outcomes


def _rolled_campaigns(specs, groups, targets, rules, trials, seed, progress) -> tuple:
    """The campaigns with every die rolled (the reference kernel): the same counts as
    :func:`_sampled_campaigns`."""
    from ..engine._kernels.stateful import drama_blocks  # lazy: numba

    wanted, starts, maximum, level0, refill, rate = rules
    n = len(specs)
    width = HIGH_TOTAL - LOW_TOTAL + 1
    pools = pack_pools(specs)
    for c, group in enumerate(groups):
        pools.counts[c, group] -= 2
    args = (pools.arrays(), np.array(groups, np.int64), targets, wanted, starts, maximum,
            level0, REFILLS.index(refill), rate, LOW_TOTAL)
    return tuple(run_kernel(
        drama_blocks, trials, seed, args, [(n, maximum + 1), (n,), (n, 3), (n, 2, width)],
        progress, work=float(trials) * n, description="drama campaigns"))


def _check_tables(specs, groups, targets, width) -> OutcomeTables:
    """Exact outcome tables of every check with 0, 1 and 2 Drama Dice (table ``3 c + pull``);
    an outcome's bin is ``(pass * 2 + disaster) * width + clipped total``."""
    distributions = []
    for spec, group, target in zip(specs, groups, targets):
        for pull in range(3):
            counts = [(die, n - 2 + pull if g == group else n)
                      for g, (die, n) in enumerate(spec.groups)]
            totals, disaster, probs = outcomes(replace(spec, groups=tuple(counts)))
            passed = (disaster == 0) & (totals >= target)
            bins = (passed * 2 + disaster) * width + np.clip(totals - LOW_TOTAL, 0, width - 1)
            distributions.append((probs, {"bin": bins}))
    return OutcomeTables(distributions)


def _result(sys_, flat, labels, exact, levels, passes, spent, outcomes, trials, params):
    import pandas as pd  # lazy: pandas

    index = pd.MultiIndex.from_tuples(labels, names=["session", "check"])
    p_with = passes / trials
    level_probs = levels / trials
    mean_level = level_probs @ np.arange(levels.shape[1])
    mean_spent = (spent / trials) @ np.arange(3)
    checks = pd.DataFrame({
        "p_pass_without": [r.p_pass for r in exact], "p_pass_with": p_with,
        "stderr": np.sqrt(p_with * (1 - p_with) / trials), "mean_pool": mean_level,
        "p_empty": level_probs[:, 0], "mean_pulled": mean_spent}, index=index)
    n = len(flat)
    pass_with = float(passes.sum() / (trials * n))
    # Checks of one campaign share the pool, so they are not independent: the honest error
    # of the overall rate is over campaigns. A campaign's pass share lies in [0, 1], so its
    # variance is at most p(1 - p): sqrt(p(1 - p) / trials) bounds the standard error.
    summary = pd.DataFrame([{
        "pass_without": float(np.mean([r.p_pass for r in exact])), "pass_with": pass_with,
        "pass_with_stderr_bound": float(np.sqrt(pass_with * (1 - pass_with) / trials)),
        "mean_pulled": float(mean_spent.mean()), "empty_share": float(level_probs[:, 0].mean()),
        "pool_max": params["pool_max"], "checks": n, "trials": trials, "seed": params["seed"]}])
    raw = RawDistribution(LOW_TOTAL, outcomes.sum(axis=0) / (trials * n), trials=trials * n)
    with_tiers = reading.tiers(sys_.mechanic, raw, flat[0])
    without = np.mean([r.tiers.probabilities for r in exact], axis=0)
    tiers = pd.DataFrame({"without": without, "with": with_tiers.probabilities},
                         index=pd.Index(with_tiers.outcomes, name="tier"))
    pool_levels = pd.DataFrame(level_probs, index=index,
                               columns=pd.Index(range(levels.shape[1]), name="pool level"))
    return DramaResult(summary, checks, tiers, pool_levels, params)
