"""The results of one check, of an opposed check and of concrete faces."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Mapping

import numpy as np

from ..errors import WorkbenchError
from ..numbers import json_ready
from ..rules.system import labels_refused
from .distribution import Distribution
from .joint import Joint
from .rich import RichResult


def stderr_of(p: float | None, trials: int | None) -> float | None:
    """Binomial standard error of a simulated probability (``None`` when exact)."""
    if p is None or trials is None:
        return None
    return math.sqrt(max(p * (1.0 - p), 0.0) / trials)


@dataclass(frozen=True, repr=False)
class CheckResult(RichResult):
    """The full answer for one check: outcome distribution, tiers, pass probability.

    Attributes:
        system: system id.
        params: every parameter with its value, defaults included.
        pmf: distribution of net successes (or narrative outcome labels).
        tiers: tier distribution where the system has tiers, else ``None``.
        p_pass: P(pass) where the check has a target, else ``None``.
        lost_mass: probability cut off from explosion chains (exact), 0 for simulations.
        method: ``"exact"`` or ``"simulate"``.
        trials, seed: for simulations.

    ``stats`` and ``joint`` (below) give a system's counts and statistics, each by name and
    all together.
    """

    system: str
    params: Mapping[str, Any]
    pmf: Distribution
    tiers: Distribution | None = None
    p_pass: float | None = None
    lost_mass: float = 0.0
    method: str = "exact"
    trials: int | None = None
    seed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    given_stats: Mapping[str, Distribution] | None = field(default=None, repr=False)
    given_joint: Joint | None = field(default=None, repr=False)
    later: "Callable[[], Joint] | None" = field(default=None, repr=False, compare=False)

    @classmethod
    def of_parts(cls, system: str, params: Mapping[str, Any], pmf: Distribution, tiers: Distribution | None,
                 p_pass: float | None, lost_mass: float, method: str, trials: int | None, seed: int | None,
                 extra: Mapping[str, Any], given_stats: Mapping[str, Distribution] | None = None,
                 given_joint: Joint | None = None, later: "Callable[[], Joint] | None" = None) -> "CheckResult":
        """The result of these parts, every field given (what a reading has worked out): the
        same object as ``CheckResult(...)`` makes, its fields set at once.

        Example:
            >>> made = CheckResult.of_parts("x", {}, Distribution((0, 1), (0.5, 0.5)), None, 0.5, 0.0,
            ...                             "exact", None, None, {})
            >>> made == CheckResult("x", {}, Distribution((0, 1), (0.5, 0.5)), p_pass=0.5)
            True
        """
        made = object.__new__(cls)
        made.__dict__.update(system=system, params=params, pmf=pmf, tiers=tiers, p_pass=p_pass,
                             lost_mass=lost_mass, method=method, trials=trials, seed=seed, extra=extra,
                             given_stats=given_stats, given_joint=given_joint, later=later)
        return made

    @cached_property
    def joint(self) -> Joint | None:
        """The statistics together (:class:`~.joint.Joint`), for a system with counts or
        statistics; else ``None``. Computed on first use when the check's P(pass), tiers and
        outcomes did not need them all."""
        if self.later is not None:
            return self.later()
        return self.given_joint

    @cached_property
    def stats(self) -> Mapping[str, Distribution] | None:
        """Each statistic's distribution by name (the total's too), for a system with counts
        or statistics; else ``None``."""
        if self.given_stats is not None:
            return self.given_stats
        joint = self.joint
        return None if joint is None else {name: joint.marginal(name) for name in joint.names}

    def probability(self, condition: str) -> float:
        """P(``condition``) over this check's statistics and parameters, e.g.
        ``"hits == 0 and ones >= 1"`` (systems with statistics; others know only ``total``).

        Example:
            >>> import workbench
            >>> workbench.check("uwr", dice=2).probability("total >= 1")
            0.5555555555555556
        """
        if self.joint is None:
            values = np.asarray(self.pmf.outcomes if self.pmf.numeric else [], dtype=np.int64)
            if not self.pmf.numeric:   # as every surface says it (System.condition)
                raise labels_refused(self.system, condition, self.pmf.outcomes)
            return Joint(("total",), values.reshape(-1, 1), self.pmf.probabilities,
                         parameters=self.params).probability(condition)
        return self.joint.probability(condition)

    @property
    def mean(self) -> float | None:
        return self.pmf.mean

    @property
    def p_pass_stderr(self) -> float | None:
        return stderr_of(self.p_pass, self.trials)

    @property
    def mean_stderr(self) -> float | None:
        if self.trials is None or not self.pmf.numeric:
            return None
        values = np.asarray(self.pmf.outcomes, dtype=float)
        var = float(np.dot((values - self.mean) ** 2, self.pmf.probabilities))
        return math.sqrt(var / self.trials)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``workbench pmf --format json``: exactly the contract's keys,
        numbers rounded to 15 significant digits (full precision without float noise).

        Derived facts (``extra``) and the standard errors of ``p_pass`` and ``mean`` stay on
        the Python object, so tools reading the JSON never meet keys they don't expect.
        """
        out: dict[str, Any] = {"system": self.system, "params": dict(self.params),
                               "method": self.method}
        if self.method == "simulate":
            out["trials"] = self.trials
            out["seed"] = self.seed
        out["pmf"] = self.pmf.to_dict()
        if self.method == "simulate":
            out["stderr"] = {str(o): float(s) for o, s in zip(self.pmf.outcomes, self.pmf.stderr)}
        if self.tiers is not None:
            out["tiers"] = self.tiers.to_dict()
        if self.p_pass is not None:
            out["p_pass"] = self.p_pass
        if self.mean is not None:
            out["mean"] = self.mean
        out["lost_mass"] = self.lost_mass
        if self.stats is not None:
            out["stats"] = {name: dist.to_dict() for name, dist in self.stats.items()}
            out["joint"] = self.joint.to_dict()
        return json_ready(out)


@dataclass(frozen=True, repr=False)
class VersusResult(RichResult):
    """An opposed check: P(actor passes) and the distribution of actor - reactor margin.

    ``margin`` already includes any extra Obstacle the actor faces; the actor passes iff
    margin > 0 when ties go to the reactor, margin >= 0 when ties go to the actor.
    """

    system: str
    actor: Mapping[str, Any]
    reactor: Mapping[str, Any]
    ties_to: str
    p_actor: float
    margin: Distribution
    lost_mass: float = 0.0
    against: str | None = None
    """The reactor's system when two systems were compared (``versus(a, against=b)``)."""

    def to_dict(self) -> dict[str, Any]:
        return json_ready({"system": self.system, **({"against": self.against} if self.against else {}),
                           "actor": dict(self.actor),
                           "reactor": dict(self.reactor), "ties_to": self.ties_to,
                           "p_actor": self.p_actor, "margin": self.margin.to_dict(),
                           "mean_margin": self.margin.mean, "lost_mass": self.lost_mass})


@dataclass(frozen=True, repr=False)
class Roll(RichResult):
    """The result of concrete faces (see :func:`workbench.score`). A system with counts or
    statistics gives each of them in ``stats`` (its total as ``net``; ``successes`` and
    ``failures`` are a sum's words and stay ``None``)."""

    system: str
    successes: int | None
    failures: int | None
    net: int | None
    outcome: Any
    tier: str | None
    passed: bool | None
    stats: Mapping[str, int] | None = None
