"""Pure descriptions of what is rolled: die face tables and the pool of one check.

A mechanic turns a system's parameters into a :class:`PoolSpec`; the exact engine and the
bulk simulator both read nothing but that spec, which is how they stay in agreement.

Each face of a :class:`DieType` carries a *value* (what it adds to the check's total: +1 for a
success, -1 for a cancelling failure, 0 for a miss; for narrative dice, the outcome's index)
and whether it *explodes* (the same die type is rolled again and its value added too).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from ..errors import WorkbenchError, shown
from ..limits import MAX_DICE, MAX_FACE_VALUE, MAX_SIDES, MAX_TOTAL

Keep = Literal["sum", "highest", "lowest"]


@dataclass(frozen=True)
class DieType:
    """One kind of die: per face (face 1 first) its value and whether it explodes.

    An exploding face rolls one more die, of the type ``into`` (``None``: the same type),
    whose value is added too; ``limit`` caps the extra dice one initial die can add
    (0: no cap; the chain is followed as far as it goes).

    Example:
        >>> d6 = DieType.threshold("d6", sides=6, success_from=5)
        >>> d6.values
        (0, 0, 0, 0, 1, 1)
    """

    name: str
    values: tuple[int, ...]
    explodes: tuple[bool, ...] = ()
    limit: int = 0
    into: "DieType | None" = None

    def __post_init__(self):
        values = tuple(self.values) if isinstance(self.values, (tuple, list)) else None
        if not values or len(values) > MAX_SIDES:
            raise WorkbenchError(f"die {self.name!r}: values got {shown(self.values)}; allowed: a "
                                 f"tuple of 1 to {MAX_SIDES} face values")
        for face, value in enumerate(values, 1):
            if not _whole(value) or abs(value) > MAX_FACE_VALUE:
                raise WorkbenchError(f"die {self.name!r}: face {face} has value {shown(value)}; "
                                     f"allowed: a whole number from -{MAX_FACE_VALUE:,} to "
                                     f"{MAX_FACE_VALUE:,}")
        object.__setattr__(self, "values", tuple(int(v) for v in values))
        if not self.explodes:
            object.__setattr__(self, "explodes", (False,) * len(self.values))
        if not isinstance(self.explodes, (tuple, list)) or not all(
                isinstance(flag, (bool, np.bool_)) for flag in self.explodes):
            raise WorkbenchError(f"die {self.name!r}: explodes got {shown(self.explodes)}; "
                                 "allowed: one True or False per face")
        object.__setattr__(self, "explodes", tuple(bool(flag) for flag in self.explodes))
        if len(self.explodes) != len(self.values):
            raise WorkbenchError(f"die '{self.name}': {len(self.values)} face values but "
                                 f"{len(self.explodes)} explode flags")
        if not _whole(self.limit) or not 0 <= self.limit <= 100:
            raise WorkbenchError(f"die '{self.name}': explode_limit got {shown(self.limit)}; "
                                 "allowed: a whole number from 0 (no cap) to 100")
        if self.into is not None and not isinstance(self.into, DieType):
            raise WorkbenchError(f"die '{self.name}': into got {shown(self.into)}; allowed: a "
                                 "DieType or None")
        if all(self.explodes) and not self.limit and self.next is self:
            raise WorkbenchError(f"die '{self.name}': every face explodes, so a roll never ends")

    @property
    def next(self) -> "DieType":
        """The die an explosion rolls."""
        return self if self.into is None else self.into

    @property
    def plain(self) -> bool:
        """Explodes into itself without a cap (or never): what the simplest kernels handle."""
        return self.into is None and not self.limit

    @property
    def sides(self) -> int:
        return len(self.values)

    @property
    def fails(self) -> tuple[bool, ...]:
        """Faces that are cancelling failures (value below zero)."""
        return tuple(v < 0 for v in self.values)

    @classmethod
    def threshold(cls, name: str, sides: int, success_from: int, fail_to: int = 0,
                  explode_from: int = 0) -> "DieType":
        """A counting die: faces >= ``success_from`` succeed, faces <= ``fail_to`` fail,
        faces >= ``explode_from`` explode (0 means never)."""
        return _threshold_die(cls, name, sides, success_from, fail_to, explode_from)


def _whole(value) -> bool:
    """A whole number (a numpy one too), not a bool, not 2.7."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


@lru_cache(maxsize=1024)
def _threshold_die(cls, name, sides, success_from, fail_to, explode_from) -> DieType:
    # Cached: curves and tables build the same few dice hundreds of times, and one shared
    # (immutable) object also makes the exact engine's cache lookups cheaper.
    values = tuple(1 if f >= success_from else (-1 if f <= fail_to else 0)
                   for f in range(1, sides + 1))
    explodes = tuple(bool(explode_from) and f >= explode_from for f in range(1, sides + 1))
    return cls(name, values, explodes)


@dataclass(frozen=True)
class PoolSpec:
    """Everything rolled for one check, as plain data.

    Attributes:
        groups: ``(die type, count)`` pairs; the initial pool.
        rerolls: after the roll, up to this many distinct dice that *missed* are rolled once
            more and the new result counts. A die missed when its faces (with its explosion
            chain) add up to exactly 0: a cancelling face (-1) is not a miss and is not
            rerolled. With several die types the rerolls go to the first misses, in the
            order of ``groups``.
        modifier: added to the total (free successes minus penalty failures).
        floor: the total is raised to at least this (``None``: no floor).
        keep: ``"sum"`` adds all dice; ``"highest"`` / ``"lowest"`` keep the ``kept`` best /
            worst dice of a pool of one die type and add their values (no explosions or
            rerolls).
        kept: dice kept under ``keep`` (``None``: one).

    Example:
        >>> d6 = DieType.threshold("d6", 6, 5)
        >>> PoolSpec(((d6, 4),), rerolls=1).dice
        4
    """

    groups: tuple[tuple[DieType, int], ...]
    rerolls: int = 0
    modifier: int = 0
    floor: int | None = None
    keep: Keep = "sum"
    kept: int | None = None

    def __post_init__(self):
        if not isinstance(self.groups, (tuple, list)) or not all(
                isinstance(g, (tuple, list)) and len(g) == 2 for g in self.groups):
            raise WorkbenchError(f"pool groups got {shown(self.groups)}; allowed: (DieType, count) pairs")
        for die, n in self.groups:
            if not isinstance(die, DieType):
                raise WorkbenchError(f"pool groups: {shown(die)} is not a DieType")
            if not _whole(n) or not 0 <= n <= MAX_DICE:
                raise WorkbenchError(f"pool: allowed at most {MAX_DICE} dice of {die.name!r}, a "
                                     f"whole number of them; got {shown(n)} dice")
        groups = tuple((die, int(n)) for die, n in self.groups if n > 0)
        object.__setattr__(self, "groups", groups)
        for name in ("rerolls", "modifier", "floor", "kept"):
            value = getattr(self, name)
            if value is None and name in ("floor", "kept"):
                continue
            if not _whole(value) or abs(value) > MAX_TOTAL:
                raise WorkbenchError(f"pool: {name} got {shown(value)}; allowed: a whole number "
                                     f"from -{MAX_TOTAL:,} to {MAX_TOTAL:,}")
            object.__setattr__(self, name, int(value))
        if self.rerolls < 0:
            raise WorkbenchError(f"rerolls must be >= 0, got {self.rerolls}")
        if self.rerolls and any(f and e for d, _ in groups for f, e in zip(d.fails, d.explodes)):
            raise WorkbenchError("rerolls do not combine with cancelling faces that explode "
                                 "(whether such a die missed would depend on its whole chain)")
        if self.keep not in ("sum", "highest", "lowest"):
            raise WorkbenchError(f"keep must be sum, highest or lowest, got {self.keep!r}")
        if self.keep != "sum":
            if len(groups) > 1:
                raise WorkbenchError("keep highest/lowest needs exactly one die type")
            if self.rerolls or any(any(d.explodes) for d, _ in groups):
                raise WorkbenchError("keep highest/lowest does not combine with rerolls or explosions")
            kept = 1 if self.kept is None else int(self.kept)
            if not 0 <= kept <= self.dice:
                raise WorkbenchError(f"kept must be 0 to {self.dice} (the dice rolled), got {kept}")
            object.__setattr__(self, "kept", kept)
        else:
            object.__setattr__(self, "kept", None)

    @property
    def dice(self) -> int:
        """Dice in the initial pool."""
        return sum(n for _, n in self.groups)

    @property
    def plain(self) -> bool:
        """Uses only what the original kernels handle (no explosion caps or changes of die,
        no rerolls of dice with cancelling faces, one die kept)."""
        return (all(d.plain for d, _ in self.groups) and not (self.keep != "sum" and self.kept != 1)
                and not (self.rerolls and (len(self.groups) > 1 or any(any(d.fails) for d, _ in self.groups))))
