"""The mechanic protocol: what the workbench asks of a family of dice rules.

A mechanic turns a check's resolved parameters into a :class:`~workbench.rules.pool.PoolSpec`
(what is rolled) and reads the raw distribution of totals back as outcomes, tiers and a pass
probability. Everything else (exact engine, simulator, ladders, tables, explorer, report)
works from these few methods, so a mechanic defined in a notebook cell and registered with
:func:`workbench.register_mechanic` gets all of it.

Must provide:
    ``params()``: the declared :class:`~workbench.rules.params.Param` s (names, defaults, bounds).
    ``pool(p)``: the :class:`PoolSpec` for resolved parameters ``p`` (a dict of every value).

May override (the defaults read a numeric total):
    ``target(p)``: the total needed to pass, or ``None`` (then ``p_pass`` is ``None``).
    ``p_pass(raw, p)``, ``outcomes(raw)``, ``tiers(raw, p)``: reading a raw result.
    ``versus_ties(p)`` (``"actor"``/``"reactor"``; default: no opposed checks),
    ``versus_extra_obstacle(p)``, ``uncontested`` (``"counts"`` or ``"passes"``).
    ``preprocess(given)``, ``cross_check(p)``: shorthand and combinations of values.
    ``extra(p)``: derived facts printed beside a result. ``labels``: outcome labels or ``None``.
"""
from __future__ import annotations

from typing import Any, Mapping

from ...distribution import Distribution
from ...errors import WorkbenchError
from ..params import Param
from ..pool import PoolSpec

MAX_DICE = 1000
"""Largest pool the workbench computes (exactly or by simulation); far above any table."""


class Mechanic:
    """Base class of the protocol above; subclasses implement ``params`` and ``pool``."""

    kind = ""
    labels: tuple[str, ...] | None = None
    uncontested = "counts"
    system_id = ""

    def params(self) -> tuple[Param, ...]:
        raise NotImplementedError

    def pool(self, p: Mapping[str, Any]) -> PoolSpec:
        raise NotImplementedError

    def preprocess(self, given: dict[str, Any]) -> dict[str, Any]:
        """Rewrite shorthand before validation (e.g. Arrata stat notation)."""
        return given

    def cross_check(self, p: Mapping[str, Any]) -> None:
        """Reject combinations of individually valid values."""

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
