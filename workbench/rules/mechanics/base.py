"""What every mechanic provides: its parameters, its pool, and how a raw result reads."""
from __future__ import annotations

from typing import Any, Mapping

from ...distribution import Distribution
from ...errors import DataFileError, WorkbenchError
from ..params import Param
from ..pool import PoolSpec

MAX_DICE = 1000
"""Largest pool the workbench computes (exactly or by simulation); far above any table."""


class Mechanic:
    """Base class: a family of dice rules configured by a system's data file.

    Subclasses set ``kind`` (the ``mechanic`` key of data files) and implement ``params``
    and ``pool``; the defaults here read a raw result as net successes.
    """

    kind = ""
    optional_rule_options: tuple[str, ...] = ()

    def __init__(self, system_id: str, constants: Mapping[str, Any], source: object,
                 rule_options: tuple[str, ...] = ()):
        self.system_id = system_id
        self.constants = dict(constants)
        self.source = source
        unknown = set(rule_options) - set(self.optional_rule_options)
        if unknown:
            raise DataFileError(source, "rule_options",
                                f"unknown {sorted(unknown)}; this mechanic offers "
                                f"{list(self.optional_rule_options) or 'none'}")
        self.rule_options = tuple(rule_options)

    # -- data-file constants -------------------------------------------------------------
    def constant(self, name: str, default: Any = None, kind: type = int, minimum: int | None = None):
        value = self.constants.get(name, default)
        if value is None:
            raise DataFileError(self.source, f"constants.{name}", "is required")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise DataFileError(self.source, f"constants.{name}", f"must be a whole number, got {value!r}")
        if kind is not int and not isinstance(value, kind):
            raise DataFileError(self.source, f"constants.{name}",
                                f"must be a {kind.__name__}, got {value!r}")
        if minimum is not None and value < minimum:
            raise DataFileError(self.source, f"constants.{name}", f"must be >= {minimum}, got {value}")
        return value

    # -- what subclasses provide ---------------------------------------------------------
    def params(self) -> tuple[Param, ...]:
        raise NotImplementedError

    def preprocess(self, given: dict[str, Any]) -> dict[str, Any]:
        """Rewrite shorthand before validation (e.g. Arrata stat notation)."""
        return given

    def cross_check(self, p: Mapping[str, Any]) -> None:
        """Reject combinations of individually valid values."""

    def pool(self, p: Mapping[str, Any]) -> PoolSpec:
        raise NotImplementedError

    def outcomes(self, raw) -> Distribution:
        return Distribution(tuple(int(t) for t in raw.totals), raw.pmf, trials=raw.trials)

    def tiers(self, raw, p: Mapping[str, Any]) -> Distribution | None:
        return None

    def target(self, p: Mapping[str, Any]) -> int | None:
        """Total needed to pass, or ``None`` when the check has no target."""
        return None

    def p_pass(self, raw, p: Mapping[str, Any]) -> float | None:
        target = self.target(p)
        if target is None:
            return None
        return float(raw.pmf[raw.totals >= target].sum())

    def versus_ties(self, p: Mapping[str, Any]) -> str:
        """Who wins a tie in an opposed check: ``"actor"`` or ``"reactor"``."""
        raise WorkbenchError(f"{self.system_id}: its rules define no opposed checks")

    def versus_extra_obstacle(self, p: Mapping[str, Any]) -> int:
        return 0

    def extra(self, p: Mapping[str, Any]) -> dict[str, Any]:
        """Derived facts worth printing beside the result (e.g. the effective Ob)."""
        return {}

