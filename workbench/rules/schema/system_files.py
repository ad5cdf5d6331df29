"""The files: a pool system (dice, parameters, tiers, statistics, outcome) and the
Erzählspiel system, with the tables only a file has (tiers, ladder rungs, shorthand,
cancelling rules, opposed checks, outcome labels)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from ...limits import MAX_DIE_TYPES, MAX_EFFECTS, MAX_PARAMS, MAX_RUNGS, MAX_SIDES, MAX_TIERS
from ._base import (ID_PATTERN, MAX_FACES, Bounded, ExpressionText, ParamName, Scalar, TotalValue,
                    When, _Strict)
from .dice import DieSpec
from .parameters import ParamSpec
from .statistics import StatSpec


class Tier(_Strict):
    """``[[tiers]]``: a named range of totals; the first tier that fits a roll names it."""

    name: str = Field(min_length=1)
    min: TotalValue | None = None
    max: TotalValue | None = None
    all_negative: bool | None = None
    condition: ExpressionText | None = None
    passes: bool = True
    when: When = {}

    @model_validator(mode="after")
    def _range(self):
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}: the tier could never "
                             "name a roll; allowed: min <= max")
        return self

    def shadows(self, later: "Tier") -> bool:
        """Whether this tier, listed first, names some roll that ``later`` also fits, under
        the same conditions (then ``later`` never gets those totals)."""
        low = max(-10**9 if self.min is None else self.min, -10**9 if later.min is None else later.min)
        high = min(10**9 if self.max is None else self.max, 10**9 if later.max is None else later.max)
        return (low <= high and self.all_negative == later.all_negative
                and self.condition is None and later.condition is None
                and (not self.when or self.when == later.when))


class Rung(_Strict):
    """``[[ladder]]``: one difficulty step, setting and adding parameter values."""

    name: str = Field(min_length=1)
    set: dict[str, Scalar] = {}
    add: dict[str, Bounded] = {}
    example: str = ""


class Shorthand(_Strict):
    """``[shorthand.NAME]``: a value such as ``B5`` sets a choice and a count at once."""

    choice: str
    count: str


class CancelOut(_Strict):
    """``[[cancel_out]]``: two parameters whose points cancel one for one before anything else."""

    params: list[str] = Field(min_length=2, max_length=2)
    when: When = {}

    @field_validator("params")
    @classmethod
    def _two_parameters(cls, params):
        if params[0] == params[1]:
            raise ValueError(f"names {params[0]!r} twice; allowed: two different whole-number "
                             "parameters whose points cancel each other")
        return params


class Versus(_Strict):
    """``[versus]``: opposed checks, each reactor success cancelling one of the actor's."""

    ties: Literal["actor", "reactor"]
    uncontested: Literal["counts", "passes"] = "counts"


class Outcome(_Strict):
    """``[outcome]``: labels for the totals 0, 1, ... (narrative faces) and the first passing one."""

    labels: list[str] = Field(min_length=1, max_length=MAX_SIDES)
    pass_from: str | None = None

    @model_validator(mode="after")
    def _known(self):
        if len(set(self.labels)) != len(self.labels):
            raise ValueError("labels must differ from each other")
        if self.pass_from is not None and self.pass_from not in self.labels:
            raise ValueError(f"pass_from {self.pass_from!r} is not one of the labels {self.labels}")
        return self


class _Common(_Strict):
    id: str = Field(min_length=1, max_length=100, pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    mechanic: str
    aliases: list[str] = []
    seed: str = ""
    description: str = ""
    pool_parameter: str | None = None
    defaults: dict[str, Scalar] = {}
    ladder: list[Rung] = Field([], max_length=MAX_RUNGS)

    @field_validator("ladder")
    @classmethod
    def _unique_rungs(cls, ladder):
        names = [r.name.lower() for r in ladder]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"two rungs are named {name!r}; rung names must differ")
        return ladder


class PoolFile(_Common):
    """A ``mechanic = "pool"`` system: dice, parameters and outcome, all in data."""

    dice: dict[str, DieSpec] = Field(min_length=1, max_length=MAX_DIE_TYPES)
    params: dict[ParamName, ParamSpec] = Field({}, max_length=MAX_PARAMS)
    tiers: list[Tier] = Field([], max_length=MAX_TIERS)
    tier_order: list[str] = Field([], max_length=MAX_TIERS)
    outcome: Outcome | None = None
    versus: Versus | None = None
    floor: TotalValue | None = None
    cancel_out: list[CancelOut] = Field([], max_length=MAX_EFFECTS)
    shorthand: dict[str, Shorthand] = {}
    stats: dict[str, StatSpec] = {}
    total: ExpressionText | None = None
    ceiling: TotalValue | None = None
    pass_if: ExpressionText | None = None
    again_if: ExpressionText | None = None
    again_limit: int = Field(0, ge=0, le=100)

    @model_validator(mode="after")
    def _limit_with_again(self):
        if "again_limit" in self.model_fields_set and self.again_if is None:
            raise ValueError("again_limit caps the rolls made again, but no again_if says when the "
                             "roll is made again; allowed: again_if = \"CONDITION\" beside it, or "
                             "no again_limit")
        return self

    @model_validator(mode="after")
    def _every_tier_ranked_once(self):
        """``tier_order`` (worst to best) names each tier exactly once, or is left out."""
        if not self.tier_order:
            return self
        names = list(dict.fromkeys(t.name for t in self.tiers))
        twice = [n for i, n in enumerate(self.tier_order) if n in self.tier_order[:i]]
        unknown = [n for n in self.tier_order if n not in names]
        missing = [n for n in names if n not in self.tier_order]
        if twice or unknown or missing:
            said = "; ".join(filter(None, [twice and f"{twice[0]!r} is named twice",
                                           unknown and f"{unknown[0]!r} is no tier",
                                           missing and f"{missing[0]!r} is missing"]))
            allowed = (f"every tier's name once, worst first ({', '.join(map(repr, names))} in some "
                       "order)" if names else "no tier_order: the file has no [[tiers]] to rank")
            raise ValueError(f"tier_order {self.tier_order!r}: {said}; allowed: {allowed}")
        return self

    @model_validator(mode="after")
    def _floor_below_ceiling(self):
        if self.floor is not None and self.ceiling is not None and self.floor > self.ceiling:
            raise ValueError(f"floor {self.floor} is above ceiling {self.ceiling}; allowed: floor <= ceiling")
        return self

    @property
    def rolls_statistics(self) -> bool:
        """Whether the file says more than a sum of per-die scores (then the roll engine
        computes it; otherwise the seeds' fast path does)."""
        return bool(self.stats or self.total or self.ceiling is not None or self.pass_if or self.again_if
                    or any(t.condition for t in self.tiers)
                    or any(e.if_roll for spec in self.params.values()
                           for e in [*spec.effect, *(e for sub in spec.on.values() for e in sub.effect)])
                    or any(d.counts or d.percentile for d in self.dice.values()))

    @field_validator("tiers")
    @classmethod
    def _no_overlap(cls, tiers):
        for i, later in enumerate(tiers):
            for j, first in enumerate(tiers[:i]):
                if first.shadows(later):
                    raise ValueError(
                        f"tiers[{i}] {later.name!r} overlaps tiers[{j}] {first.name!r} (totals "
                        f"{_span(first)} and {_span(later)}); the first tier that fits names a roll, "
                        "so the later one would be cut short; allowed: ranges that do not overlap "
                        "(or that differ in all_negative / when)")
        return tiers


class NarrativeConstants(_Strict):
    outcomes: list[str] = Field(min_length=1)
    pass_from: str
    default_die: str
    spectrum: list[int] = Field([1, 3], min_length=2, max_length=2)
    d6_faces: list[str] = Field(min_length=1, max_length=MAX_FACES)
    dice: dict[str, list[str]] = Field(min_length=1)


class NarrativeFile(_Common):
    """The Erzählspiel mechanic: coloured dice whose faces are outcome labels."""

    constants: NarrativeConstants


def _span(tier: Tier) -> str:
    if tier.min is None:
        return "every total" if tier.max is None else f"up to {tier.max}"
    return f"{tier.min} and up" if tier.max is None else f"{tier.min} to {tier.max}"
