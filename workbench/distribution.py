"""Result types shared by the exact engine and the simulators.

A :class:`Distribution` maps outcomes (net successes, or narrative labels) to probabilities.
Exact results have ``trials=None``; simulated ones carry ``trials`` and so standard errors.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ._display import RichResult, json_ready, round_sig
from .errors import WorkbenchError, shown


class UnknownOutcome(WorkbenchError, KeyError):
    """An outcome a distribution does not have (a ``KeyError`` too, as a dict lookup gives).

    Example:
        >>> Distribution(("NO!", "YES!"), (0.5, 0.5))["YES!AND"]
        Traceback (most recent call last):
        ...
        workbench.distribution.UnknownOutcome: outcome 'YES!AND' is not one of: 'NO!', 'YES!'
    """

    def __init__(self, outcome, outcomes):
        self.outcome = outcome
        super().__init__(f"outcome {shown(outcome)} is not one of: "
                         + ", ".join(repr(o) for o in outcomes))

    __str__ = WorkbenchError.__str__  # KeyError would quote the whole message



@dataclass(frozen=True)
class RawDistribution:
    """Probabilities of a check's total, split by whether every initial die failed.

    ``table[0, i]`` is P(total = offset + i and not every initial die showed a failure face);
    ``table[1, i]`` the same with every initial die a failure face (the Unnamed Disaster).
    Simulated results use the same type with frequencies and ``trials`` set.
    """

    offset: int
    table: np.ndarray
    lost_mass: float = 0.0
    trials: int | None = None

    @property
    def totals(self) -> np.ndarray:
        return np.arange(self.offset, self.offset + self.table.shape[1])

    @property
    def pmf(self) -> np.ndarray:
        return self.table.sum(axis=0)


@dataclass(frozen=True, repr=False)
class Distribution(RichResult):
    """An immutable outcome -> probability table, outcomes in their natural order.

    Example:
        >>> d = Distribution((0, 1, 2), (0.25, 0.5, 0.25))
        >>> d[1], d.mean, d.at_least(1)
        (0.5, 1.0, 0.75)
    """

    outcomes: tuple
    probabilities: np.ndarray
    trials: int | None = None

    def __post_init__(self):
        try:
            probs = np.array(self.probabilities, dtype=float)
            outcomes = tuple(self.outcomes)
        except (TypeError, ValueError):
            raise WorkbenchError(f"Distribution got outcomes {shown(self.outcomes)} and "
                                 f"probabilities {shown(self.probabilities)}; allowed: two "
                                 "sequences of the same length, probabilities numbers") from None
        probs.setflags(write=False)
        object.__setattr__(self, "outcomes", outcomes)
        object.__setattr__(self, "probabilities", probs)
        if probs.ndim != 1 or len(self.outcomes) != len(probs):
            raise WorkbenchError(f"Distribution got {len(outcomes)} outcomes and probabilities "
                                 f"of shape {probs.shape}; allowed: one probability per outcome")

    def __getitem__(self, outcome) -> float:
        """P(outcome). A whole number a numeric distribution never reaches has probability 0;
        anything else not among the outcomes (a misspelt label) is an :class:`UnknownOutcome`."""
        index = self._index(outcome)
        if index is None:
            if self.numeric and isinstance(outcome, (int, np.integer)) and not isinstance(outcome, bool):
                return 0.0
            raise UnknownOutcome(outcome, self.outcomes)
        return float(self.probabilities[index])

    def _index(self, outcome) -> int | None:
        for i, known in enumerate(self.outcomes):
            if type(known) is type(outcome) or self.numeric and isinstance(outcome, (int, np.integer)):
                if known == outcome and not isinstance(outcome, bool):
                    return i
        return None

    def __len__(self) -> int:
        return len(self.outcomes)

    def __eq__(self, other) -> bool:
        # The dataclass default would compare numpy arrays element-wise (and fail).
        if not isinstance(other, Distribution):
            return NotImplemented
        return (self.outcomes == other.outcomes and self.trials == other.trials
                and np.array_equal(self.probabilities, other.probabilities))

    __hash__ = None

    def items(self):
        return zip(self.outcomes, (float(p) for p in self.probabilities))

    @property
    def numeric(self) -> bool:
        return all(isinstance(o, (int, np.integer)) for o in self.outcomes)

    @property
    def mean(self) -> float | None:
        """Expected outcome (``None`` for labelled outcomes)."""
        if not self.numeric:
            return None
        return float(np.dot(self.outcomes, self.probabilities))

    def at_least(self, value) -> float:
        """P(outcome >= value) for numbers; for labels, P(outcome at or after ``value``)."""
        if self.numeric:
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                    or value != value:
                raise WorkbenchError(f"at_least got {shown(value)}; allowed: a number")
            index = int(np.searchsorted(self.outcomes, value))
        else:
            index = self._index(value)
            if index is None:
                raise UnknownOutcome(value, self.outcomes)
        return float(self.probabilities[index:].sum())

    @property
    def stderr(self) -> np.ndarray | None:
        """Per-outcome standard errors of a simulated result (``None`` when exact)."""
        if self.trials is None:
            return None
        p = self.probabilities
        return np.sqrt(p * (1.0 - p) / self.trials)

    def to_dict(self) -> dict[str, float]:
        """Outcome (as text) -> probability, as the CLI prints it (15 significant digits:
        full precision without float noise).

        Example:
            >>> Distribution((0, 1), (0.1 + 0.2, 0.7)).to_dict()
            {'0': 0.3, '1': 0.7}
        """
        return {str(o): round_sig(p) for o, p in self.items()}

    def to_series(self, name: str = "probability"):
        import pandas as pd
        return pd.Series(self.probabilities, index=list(self.outcomes), name=name)


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

    def to_dict(self) -> dict[str, Any]:
        return json_ready({"system": self.system, "actor": dict(self.actor),
                           "reactor": dict(self.reactor), "ties_to": self.ties_to,
                           "p_actor": self.p_actor, "margin": self.margin.to_dict(),
                           "mean_margin": self.margin.mean, "lost_mass": self.lost_mass})


@dataclass(frozen=True, repr=False)
class Roll(RichResult):
    """The result of concrete faces (see :func:`workbench.score`)."""

    system: str
    successes: int
    failures: int
    net: int
    outcome: Any
    tier: str | None
    passed: bool | None
