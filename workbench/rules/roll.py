"""A roll described as plain data: dice of any types, several statistics, dice by rank.

:class:`~workbench.rules.pool.PoolSpec` says "sum these dice's scores": the seeds' fast path.
A :class:`RollSpec` says everything a published mechanic needs, still without computing
anything (the engine reads it: :mod:`workbench.engine.evaluate`):

- **dice** (:class:`Die`): per face a *value* (the number the die shows: how it ranks, what
  it adds to the total) and named *counts* (``hits``, ``ones``...: what else the face scores);
  explosions as in :class:`~workbench.rules.pool.DieType` (an exploding die is one die whose
  value and counts are its chain's sums). :class:`Percentile` is a d100 read as a tens die and
  a units die, extra tens dice kept best or worst.
- **statistics**, computed jointly: each count summed over the dice; :class:`Sum` of a score
  over some dice; :class:`Keep` (the sum of the k highest / lowest / middle dice of any die
  types); :class:`Pick` (one die's value by rank: the highest, the middle of three);
  :class:`Beats` and :class:`Pairs` (dice against dice); :class:`LargestSet` and
  :class:`Sets` (matching faces); :class:`Derived` (an expression over the others).
- the **total**: the sum of every die's value, or an expression over the statistics; then
  ``modifier``, ``floor`` and ``ceiling``.

Ties in rank: dice showing the same value rank by their counts (more first), then equally.

Example:
    >>> d6 = Die.numbered("d6", 6, counts={"sixes": [0, 0, 0, 0, 0, 1]})
    >>> spec = RollSpec(((d6, 3),), stats=(Pick("highest"),), total="highest")
    >>> spec.statistic_names
    ('total', 'sixes', 'highest')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Union

from ..errors import WorkbenchError
from .expressions import Expression, ExpressionError, parse

ORDERS = ("highest", "lowest", "middle")


@dataclass(frozen=True)
class Die:
    """One die type: per face (face 1 first) its value, its named counts and explosions.

    ``counts`` pairs a count's name with one score per face (``("ones", (1, 0, 0, 0, 0, 0))``).
    An exploding face rolls one more die (of type ``into``; ``None``: the same) whose value
    and counts are added to this die's; ``limit`` caps the extra dice (0: no cap).

    Example:
        >>> Die.numbered("d4", 4).values
        (1, 2, 3, 4)
    """

    name: str
    values: tuple[int, ...]
    counts: tuple[tuple[str, tuple[int, ...]], ...] = ()
    explodes: tuple[bool, ...] = ()
    limit: int = 0
    into: "Die | None" = None

    def __post_init__(self):
        object.__setattr__(self, "values", tuple(int(v) for v in self.values))
        if not self.values:
            raise WorkbenchError(f"die '{self.name}': needs at least one face")
        counts = tuple((str(name), tuple(int(s) for s in scores)) for name, scores in
                       (self.counts.items() if isinstance(self.counts, Mapping) else self.counts))
        object.__setattr__(self, "counts", counts)
        for name, scores in counts:
            if len(scores) != len(self.values):
                raise WorkbenchError(f"die '{self.name}': count {name!r} has {len(scores)} scores "
                                     f"for {len(self.values)} faces; allowed: one per face")
        if not self.explodes:
            object.__setattr__(self, "explodes", (False,) * len(self.values))
        object.__setattr__(self, "explodes", tuple(bool(e) for e in self.explodes))
        if len(self.explodes) != len(self.values):
            raise WorkbenchError(f"die '{self.name}': {len(self.values)} faces but "
                                 f"{len(self.explodes)} explode flags")
        if self.limit < 0:
            raise WorkbenchError(f"die '{self.name}': explode_limit must be >= 0, got {self.limit}")
        if all(self.explodes) and not self.limit and self.next is self:
            raise WorkbenchError(f"die '{self.name}': every face explodes, so a roll never ends")

    @classmethod
    def numbered(cls, name: str, sides: int, **options) -> "Die":
        """A die numbered 1 to ``sides`` (``counts``, ``explodes``... as keywords)."""
        return cls(name, tuple(range(1, sides + 1)), **options)

    @property
    def next(self) -> "Die":
        """The die an explosion rolls."""
        return self if self.into is None else self.into

    @property
    def sides(self) -> int:
        return len(self.values)

    @property
    def count_names(self) -> tuple[str, ...]:
        """Counts this die scores, with those of the dice its explosions roll."""
        names: list[str] = []
        kind, seen = self, set()
        while kind is not None and id(kind) not in seen:
            seen.add(id(kind))
            names += [name for name, _ in kind.counts if name not in names]
            kind = kind.next if any(kind.explodes) else None
        return tuple(names)


@dataclass(frozen=True)
class Percentile:
    """A d100 roll read as a tens die (00-90) and a units die (0-9); 00 with 0 reads 100.

    ``extra`` more tens dice are rolled with the same units die: bonus dice (``extra > 0``)
    keep the lowest (best) result, penalty dice (``extra < 0``) the highest (worst).

    Example:
        >>> Percentile("d100", extra=1).values
        (1, 100)
    """

    name: str = "d100"
    extra: int = 0
    counts: tuple = ()

    @property
    def values(self) -> tuple[int, int]:
        """The lowest and highest result."""
        return (1, 100)

    @property
    def count_names(self) -> tuple[str, ...]:
        return ()


Dice = Union[Die, Percentile]


def _dice_names(dice) -> tuple[str, ...]:
    return (dice,) if isinstance(dice, str) else tuple(dice)


@dataclass(frozen=True)
class Sum:
    """The sum of ``score`` over the dice of types ``dice`` (empty: every die).

    ``score`` is ``"value"``, a count's name, or an expression over one die's ``value`` and
    counts: ``"value == 1"`` counts the dice whose whole chain shows 1 (Savage Worlds'
    snake eyes), ``"value >= 6"`` the dice showing 6 or more."""

    name: str
    score: str = "value"
    dice: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))


@dataclass(frozen=True)
class Keep:
    """The sum of ``score`` over ``take`` dice by rank: the highest, lowest or middle ones
    (``skip`` first passes over that many from that end), among the dice of types ``dice``.

    Example: Cortex's two highest of a mixed pool is ``Keep("kept", take=2)``.
    """

    name: str
    take: int
    order: str = "highest"
    skip: int = 0
    dice: tuple[str, ...] = ()
    score: str = "value"

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))


@dataclass(frozen=True)
class Pick:
    """The value of one die by rank among the dice of types ``dice``: ``position`` 0 is the
    highest (or lowest) one; ``order="middle"`` picks the middle die ((n - 1) // 2 from the
    top, so the higher of two middle dice). 0 when there are fewer dice."""

    name: str
    order: str = "highest"
    position: int = 0
    dice: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))


@dataclass(frozen=True)
class Beats:
    """How many pairs (a die of ``dice``, a die of ``against``) the first die wins by showing
    more: with one die in ``dice``, the number of ``against`` dice it beats."""

    name: str
    dice: tuple[str, ...]
    against: tuple[str, ...]

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))
        object.__setattr__(self, "against", _dice_names(self.against))


@dataclass(frozen=True)
class Pairs:
    """Sorted pairwise comparison (as in RISK): the highest die of ``dice`` against the highest
    of ``against``, the second against the second, ...; the number of pairs ``dice`` wins.
    A tie goes to ``ties`` (``"against"`` or ``"dice"``)."""

    name: str
    dice: tuple[str, ...]
    against: tuple[str, ...]
    ties: str = "against"

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))
        object.__setattr__(self, "against", _dice_names(self.against))


@dataclass(frozen=True)
class LargestSet:
    """Matching faces: the size of the largest set of dice showing one value (``report=
    "size"``), or that value (``"value"``; the higher one when two sets are as large)."""

    name: str
    report: str = "size"
    dice: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))


@dataclass(frozen=True)
class Sets:
    """How many distinct values show on at least ``size`` dice (``size=2``: pairs or better)."""

    name: str
    size: int = 2
    dice: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))


@dataclass(frozen=True)
class Derived:
    """A statistic computed from others, the total and parameters (a whole number)."""

    name: str
    expression: Expression | str

    def __post_init__(self):
        if isinstance(self.expression, str):
            object.__setattr__(self, "expression", parse(self.expression))


def before_total(stats) -> tuple[str, ...]:
    """Names of the derived statistics among ``stats`` that read neither the total nor a
    derived statistic that does (each reads only those before it).

    Example:
        >>> before_total((Derived("kept", "min(a, b)"), Derived("margin", "skill - total")))
        ('kept',)
    """
    late: set[str] = {"total"}
    early = []
    for stat in stats:
        if isinstance(stat, Derived):
            expression = stat.expression if isinstance(stat.expression, Expression) else parse(stat.expression)
            if late & set(expression.names):
                late.add(stat.name)
            else:
                early.append(stat.name)
    return tuple(early)


Statistic = Union[Sum, Keep, Pick, Beats, Pairs, LargestSet, Sets, Derived]
RANKED = (Keep, Pick, Beats, Pairs, LargestSet, Sets)
"""Statistics that depend on how the dice rank (the rest are sums over dice)."""


@dataclass(frozen=True)
class RollSpec:
    """Everything rolled for one check and every statistic read from it, as plain data.

    Attributes:
        groups: ``(die, count)`` pairs (a :class:`Die` or :class:`Percentile`); die names
            must differ.
        stats: the statistics besides the total and the counts, in order (a
            :class:`Derived` reads the total and the statistics before it).
        total: ``None`` for the sum of every die's value, else an expression (or a
            statistic's name) over the counts, the other non-derived statistics and
            ``values``.
        modifier, floor, ceiling: added to the total, then the total is kept within them.
        values: parameter values that expressions read, as ``(name, value)`` pairs.

    Every count of any die is a statistic of its own: the sum over all dice rolled.

    Example:
        >>> d6 = Die.numbered("d6", 6)
        >>> RollSpec(((d6, 2),), stats=(Keep("best", take=1),), total="best").dice
        2
    """

    groups: tuple[tuple[Dice, int], ...]
    stats: tuple[Statistic, ...] = ()
    total: Expression | str | None = None
    modifier: int = 0
    floor: int | None = None
    ceiling: int | None = None
    values: tuple[tuple[str, int], ...] = field(default=())

    def __post_init__(self):
        groups = tuple((die, max(int(n), 0)) for die, n in self.groups)
        object.__setattr__(self, "groups", groups)
        values = tuple(sorted((str(k), _whole_value(k, v)) for k, v in
                              (self.values.items() if isinstance(self.values, Mapping) else self.values)))
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "stats", tuple(self.stats))
        names = [die.name for die, _ in groups]
        counts: list[str] = []
        for die, _ in groups:
            counts += [name for name in die.count_names if name not in counts]
        object.__setattr__(self, "_counts", tuple(counts))  # read often: worked out once
        if len(set(names)) != len(names):
            raise WorkbenchError(f"a roll's die types need different names, got {names}")
        if self.floor is not None and self.ceiling is not None and self.floor > self.ceiling:
            raise WorkbenchError(f"floor {self.floor} is above ceiling {self.ceiling}")
        self._check_statistics(names)

    def _check_statistics(self, die_names: list[str]) -> None:
        counts = self.count_names
        taken = {"total", "value", *counts}
        parameters = [name for name, _ in self.values]
        scores = ("value", *counts)
        object.__setattr__(self, "_scores", tuple(dict.fromkeys(
            s.score for s in self.stats if isinstance(s, (Sum, Keep)) and s.score not in scores)))
        for stat in self.stats:
            where = f"statistic {stat.name!r}"
            if not isinstance(stat, (Sum, Keep, Pick, Beats, Pairs, LargestSet, Sets, Derived)):
                raise WorkbenchError(f"a roll's statistics are Sum, Keep, Pick, Beats, Pairs, "
                                     f"LargestSet, Sets or Derived, got {type(stat).__name__}")
            if stat.name in taken or stat.name in parameters:
                raise WorkbenchError(f"{where}: the name is already taken (by the total, a count, "
                                     "a parameter or another statistic)")
            for part in ("dice", "against"):
                for die in getattr(stat, part, ()):
                    if die not in die_names:
                        raise WorkbenchError(f"{where}: unknown die type {die!r}; the roll has "
                                             f"{', '.join(die_names) or 'no dice'}")
            if isinstance(stat, (Sum, Keep)) and stat.score not in scores:
                try:
                    parse(stat.score, known=scores, want="whole")
                except ExpressionError as exc:
                    raise WorkbenchError(f"{where}: score {exc} (a score is 'value', a count, or an "
                                         f"expression over one die's value and counts: "
                                         f"{', '.join(scores)})") from None
            if isinstance(stat, (Keep, Pick)) and stat.order not in ORDERS:
                raise WorkbenchError(f"{where}: order {stat.order!r}; allowed: {', '.join(ORDERS)}")
            if isinstance(stat, Keep) and (stat.take < 0 or stat.skip < 0):
                raise WorkbenchError(f"{where}: take and skip must be >= 0")
            if isinstance(stat, Pick) and stat.position < 0:
                raise WorkbenchError(f"{where}: position must be >= 0")
            if isinstance(stat, Pairs) and stat.ties not in ("dice", "against"):
                raise WorkbenchError(f"{where}: ties {stat.ties!r}; allowed: dice, against")
            if isinstance(stat, LargestSet) and stat.report not in ("size", "value"):
                raise WorkbenchError(f"{where}: report {stat.report!r}; allowed: size, value")
            if isinstance(stat, Sets) and stat.size < 1:
                raise WorkbenchError(f"{where}: size must be >= 1")
            if isinstance(stat, Derived):
                known = [name for name in taken if name != "value"]
                object.__setattr__(stat, "expression", _checked(stat.expression, [*known, *parameters], where))
            taken.add(stat.name)
        early = before_total(self.stats)
        object.__setattr__(self, "_early", early)
        if self.total is not None:
            base = [s.name for s in self.stats if not isinstance(s, Derived)]
            expression = self.total if isinstance(self.total, Expression) else parse(str(self.total))
            late = [s.name for s in self.stats if isinstance(s, Derived) and s.name not in early]
            circle = [name for name in expression.names if name in late]
            if circle:
                raise WorkbenchError(f"total: reads {circle[0]!r}, which reads the total (a circle); "
                                     "the total may read statistics that do not read it")
            object.__setattr__(self, "total", _checked(expression, [*counts, *base, *early, *parameters], "total"))

    @property
    def dice(self) -> int:
        """Dice in the initial pool."""
        return sum(n for _, n in self.groups)

    @property
    def count_names(self) -> tuple[str, ...]:
        """Every count any die type scores, in order of first appearance."""
        return self._counts

    @property
    def derived_before_total(self) -> tuple[str, ...]:
        """The :class:`Derived` statistics that do not read the total (directly or through
        another): worked out before it, so the total may read them."""
        return self._early

    @property
    def score_expressions(self) -> tuple[str, ...]:
        """Scores of :class:`Sum` and :class:`Keep` written as expressions over one die."""
        return self._scores

    @property
    def statistic_names(self) -> tuple[str, ...]:
        """The joint distribution's columns: the total, the counts, then ``stats``."""
        return ("total", *self.count_names, *(s.name for s in self.stats))


def _whole_value(name, value) -> int:
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, int):
        raise WorkbenchError(f"parameter {name!r} is read by an expression, so it needs a whole "
                             f"number or true/false, got {value!r}")
    return value


def _checked(expression: Expression, known, where: str) -> Expression:
    try:
        return parse(expression.text, known=known, want="whole")
    except ExpressionError as exc:
        raise WorkbenchError(f"{where}: {exc}") from None
