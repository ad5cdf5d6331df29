"""Pure descriptions of what is rolled: die face tables and the pool of one check.

A mechanic turns a system's parameters into a :class:`PoolSpec`; the exact engine and the
bulk simulator both read nothing but that spec, which is how they stay in agreement.

Each face of a :class:`DieType` carries a *value* (what it adds to the check's total: +1 for a
success, -1 for a cancelling failure, 0 for a miss; for narrative dice, the outcome's index)
and whether it *explodes* (the same die type is rolled again and its value added too).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..errors import WorkbenchError, shown
from ..limits import MAX_DICE, MAX_TOTAL
from ..validation import is_whole
from .dice import Die, HashedOnce

Keep = Literal["sum", "highest", "lowest"]


DieType = Die
"""The same class as :class:`~workbench.rules.dice.Die` (its name in earlier versions)."""


@dataclass(frozen=True)
class PoolSpec(HashedOnce):
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
    _hashed = ("groups", "rerolls", "modifier", "floor", "keep", "kept")
    __hash__ = HashedOnce.__hash__

    def __post_init__(self):
        if not isinstance(self.groups, (tuple, list)) or not all(
                isinstance(g, (tuple, list)) and len(g) == 2 for g in self.groups):
            raise WorkbenchError(f"pool groups got {shown(self.groups)}; allowed: (DieType, count) pairs")
        for die, n in self.groups:
            if not isinstance(die, Die):
                raise WorkbenchError(f"pool groups: {shown(die)} is not a Die")
            if die.count_names:
                raise WorkbenchError(f"pool: die {die.name!r} scores counts "
                                     f"({', '.join(die.count_names)}), which a PoolSpec (a sum of "
                                     "values) would ignore; allowed: a RollSpec, which reads them")
            if not is_whole(n) or not 0 <= n <= MAX_DICE:
                raise WorkbenchError(f"pool: allowed at most {MAX_DICE} dice of {die.name!r}, a "
                                     f"whole number of them; got {shown(n)} dice")
        groups = tuple((die, int(n)) for die, n in self.groups if n > 0)
        object.__setattr__(self, "groups", groups)
        for name in ("rerolls", "modifier", "floor", "kept"):
            value = getattr(self, name)
            if value is None and name in ("floor", "kept"):
                continue
            if not is_whole(value) or abs(value) > MAX_TOTAL:
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
