"""What a sweep can evaluate: each workbench function and the key figures of its result.

Each entry says how to call the function with one point's parameters and how to read its
result as flat figures (numbers and short text) for one row of the sweep's frame.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .. import validation
from ..api import check, simulate, versus
from ..errors import WorkbenchError
from ..ladders import solve_ladder
from ..rules.registry import get_system
from ..stateful import burn_scene, clock, drama_campaign, rounds_until_hits, taken_out


@dataclass(frozen=True)
class Target:
    """One function a sweep can evaluate.

    ``stochastic``: takes ``seed`` (and ``progress``) and so gets a seed per point.
    ``python_bound``: its time goes to Python, not to the numba kernels (so a process pool
    helps where the kernels would already use every core).
    """

    name: str
    function: Callable
    figures: Callable[[Any], dict]
    stochastic: bool
    python_bound: bool
    system_params: bool = False   # takes a system's own parameters as keywords

    def call(self, params: Mapping[str, Any], seed: int | None) -> Any:
        function = self.function
        kwargs = dict(params)
        if self.stochastic and _takes(function, "seed", kwargs):
            kwargs["seed"] = seed
            if _takes(function, "progress", kwargs):
                kwargs["progress"] = False
        if self.name in ("check", "simulate", "versus", "solve_ladder"):
            if "system" not in kwargs:
                raise WorkbenchError(f"sweep {self.name}: no 'system'; allowed: give system=... "
                                     "(a system id, variant id or data file) or a grid of systems")
            system = kwargs.pop("system")
            if self.name == "solve_ladder":
                return function(system, kwargs.pop("wanted", "Normal=0.7"), **kwargs)
            if self.name == "versus":
                return function(system, *versus_sides(system, kwargs))
            return function(system, **kwargs)
        return function(**kwargs)

    def allowed(self) -> set[str] | None:
        """Keyword names the function takes, or ``None`` when they depend on the system."""
        if self.system_params:
            return None
        parameters = inspect.signature(self.function).parameters
        names = {name for name, p in parameters.items() if p.kind is not p.VAR_KEYWORD}
        return names - {"seed", "progress", "params"}


    def wants_whole(self, name: str) -> bool:
        """Whether ``name`` takes a whole number (or no number at all) rather than any number:
        only the function's own ``float`` settings (``refill_rate``, ``threshold``,
        ``tolerance``) take 3.5; a system's parameters never do.

        Example:
            >>> TARGETS["drama_campaign"].wants_whole("players"), TARGETS["drama_campaign"].wants_whole("refill_rate")
            (True, False)
        """
        parameter = inspect.signature(self.function).parameters.get(name)
        return parameter is None or "float" not in str(parameter.annotation)


def versus_sides(system: Any, settings: Mapping[str, Any]) -> tuple[dict, dict]:
    """The actor's and the reactor's parameters of a point of a ``versus`` sweep.

    ``actor`` and ``reactor`` give each side's parameters; ``actor.NAME`` / ``reactor.NAME``
    set one of them (a grid over ``actor.favor``); a rule option given by its own name
    applies to both sides (it is the actor's, as in :func:`workbench.versus`). Any other
    name is an error: it would belong to no side.

    Example:
        >>> versus_sides("uwr", {"actor": {"dice": 4}, "reactor.dice": 3, "actor.favor": 1})
        ({'dice': 4, 'favor': 1}, {'dice': 3})
    """
    settings = dict(settings)
    sides = {}
    for side in ("actor", "reactor"):
        given = settings.pop(side, {})
        if not isinstance(given, Mapping):
            raise WorkbenchError(f"sweep versus: {side} got {given!r}; allowed: a mapping of "
                                 "parameters such as {'dice': 4}")
        sides[side] = dict(given)
    options = None
    for name, value in settings.items():
        side, dot, parameter = name.partition(".")
        if dot and side in sides and parameter:
            sides[side][parameter] = value
            continue
        validation.renamed("sweep versus", [name])
        if options is None:
            sys_ = get_system(system)
            options = {n for n, p in sys_.params.items() if p.rule_option}
        if name in options:
            sides["actor"][name] = value
            continue
        raise WorkbenchError(f"sweep versus: {name!r} belongs to no side; allowed: actor.{name} or "
                             f"reactor.{name} (one side's parameter), actor / reactor (each side's "
                             "parameters), system, or a rule option by its own name")
    return sides["actor"], sides["reactor"]


def _takes(function, name: str, kwargs) -> bool:
    return name in inspect.signature(function).parameters and name not in kwargs


# -- reading results --------------------------------------------------------------------
def check_figures(result) -> dict:
    """P(pass), mean, their standard errors (simulations) and the tier / outcome mix."""
    row: dict[str, Any] = {}
    if result.p_pass is not None:
        row["p_pass"] = float(result.p_pass)
    if result.pmf.numeric:
        row["mean"] = float(result.mean)
    if result.method == "simulate":
        if result.p_pass is not None:
            row["p_pass_stderr"] = float(result.p_pass_stderr)
        if result.pmf.numeric:
            row["mean_stderr"] = float(result.mean_stderr)
        row["trials"] = result.trials
    if result.tiers is not None:
        row.update({f"tier: {name}": float(p) for name, p in
                    zip(result.tiers.outcomes, result.tiers.probabilities)})
    elif not result.pmf.numeric:
        row.update({f"outcome: {name}": float(p) for name, p in
                    zip(result.pmf.outcomes, result.pmf.probabilities)})
    row["lost_mass"] = float(result.lost_mass)
    return row


def versus_figures(result) -> dict:
    return {"p_actor": float(result.p_actor), "margin_mean": float(result.margin.mean),
            "ties_to": result.ties_to}


def drama_figures(result) -> dict:
    summary = result.summary.iloc[0]
    row = {name: _plain(summary[name]) for name in
           ("pass_without", "pass_with", "pass_with_stderr_bound", "mean_pulled", "empty_share",
            "pool_max")}
    row.update({f"tier: {name}": float(p) for name, p in result.tiers["with"].items()})
    row["trials"] = int(summary["trials"])
    return row


def burn_figures(result) -> dict:
    summary = result.summary.iloc[0]
    row = {name: _plain(summary[name]) for name in ("pass_without_burning", "pass_with_burning",
                                                     "burns_per_scene")}
    row["trials"] = int(summary["trials"])
    return row


def steps_figures(result) -> dict:
    row = {"mean": float(result.mean), "tail": float(result.tail)}
    if result.mean_stderr is not None:
        row["mean_stderr"] = float(result.mean_stderr)
    cumulative = result.frame["cumulative"].to_numpy()
    steps = result.frame[result.quantity].to_numpy()
    reached = steps[cumulative >= 0.5]
    row["median"] = int(reached[0]) if len(reached) else math.inf
    if result.trials is not None:
        row["trials"] = result.trials
    return row


def ladder_figures(solution) -> dict:
    """Each rung's setting, its odds (``Easy: p_pass``; solved for a condition, named by it:
    ``Easy: P(ones >= 1)``) and whether it was reached."""
    row: dict[str, Any] = {}
    odds = "p_pass" if solution.condition is None else f"P({solution.condition})"
    for rung in solution.rungs:
        row[f"{rung.name}: setting"] = rung.rung.describe()
        row[f"{rung.name}: {odds}"] = float(rung.achieved)
        row[f"{rung.name}: reachable"] = bool(rung.reachable)
    row["all_reachable"] = not solution.unreachable
    return row


def _plain(value):
    return value.item() if hasattr(value, "item") else value


TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("check", check, check_figures, False, True, system_params=True),
    Target("simulate", simulate, check_figures, True, False, system_params=True),
    Target("versus", versus, versus_figures, False, True, system_params=True),
    Target("solve_ladder", solve_ladder, ladder_figures, False, True, system_params=True),
    Target("drama_campaign", drama_campaign, drama_figures, True, False),
    Target("burn_scene", burn_scene, burn_figures, True, False),
    Target("taken_out", taken_out, steps_figures, True, False),
    Target("clock", clock, steps_figures, True, False),
    Target("rounds_until_hits", rounds_until_hits, steps_figures, True, False),
)}


def find_target(function: Any) -> Target:
    """A sweepable function by name (``"drama_campaign"``) or the function itself."""
    if isinstance(function, str) and function.strip() in TARGETS:
        return TARGETS[function.strip()]
    if callable(function):
        for target in TARGETS.values():
            if target.function is function:
                return target
    raise WorkbenchError(f"sweep got function {getattr(function, '__name__', function)!r}; "
                         "allowed: " + ", ".join(TARGETS))
