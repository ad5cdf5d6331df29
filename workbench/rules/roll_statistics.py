"""The statistics a roll reads besides its total, as plain data: sums and keeps of scores, dice
by rank, dice against dice, matching faces, expressions over the others, a botch.

Each is checked alone here (its name, its order, its numbers); what it names in a roll (die
types, counts, other statistics) is checked by :class:`~workbench.rules.roll.RollSpec`, which
holds it. The engine computes them jointly (:mod:`workbench.engine.evaluate`).

Example:
    >>> Keep("best", take=2, dice="d6")
    Keep(name='best', take=2, order='highest', skip=0, dice=('d6',), score='value')
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Union

from ..errors import WorkbenchError, shown
from ..limits import MAX_DICE
from ..validation import is_whole
from .dice import HashedOnce
from .expressions import Expression, parse

ORDERS = ("highest", "lowest", "middle")

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""What a count or statistic may be called: expressions read it by name."""


def _dice_names(dice) -> tuple[str, ...]:
    return (dice,) if isinstance(dice, str) else tuple(dice)


def _hashed_once(cls):
    """A frozen statistic whose hash is worked out once and kept (a roll's hash reads its
    statistics, and the engine's memos hash a roll on every check): the same hash as its
    compared fields give, never pickled."""
    cls._hashed = tuple(f.name for f in fields(cls) if f.compare)
    cls.__hash__ = HashedOnce.__hash__
    cls.__getstate__ = HashedOnce.__getstate__
    return cls


@_hashed_once
@dataclass(frozen=True)
class Sum:
    """The sum of ``score`` over the dice of types ``dice`` (empty: every die).

    ``score`` is ``"value"``, a count's name, or an expression over one die's ``value`` and
    counts: ``"value == 1"`` counts the dice whose whole chain shows 1 (Savage Worlds'
    snake eyes), ``"value >= 6"`` the dice showing 6 or more. ``parsed``: that expression
    parsed already (a data file's, parsed when it loaded), else parsed when a roll holding
    the statistic is checked; either way its names are checked against the roll's."""

    name: str
    score: str = "value"
    dice: tuple[str, ...] = ()
    parsed: Expression | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))


@_hashed_once
@dataclass(frozen=True)
class Keep:
    """The sum of ``score`` over ``take`` dice by rank: the highest, lowest or middle ones
    (``skip`` first passes over that many from that end), among the dice of types ``dice``.

    Example: Cortex's two highest of a mixed pool is ``Keep("kept", take=2)``. ``score`` and
    ``parsed`` as in :class:`Sum`.
    """

    name: str
    take: int
    order: str = "highest"
    skip: int = 0
    dice: tuple[str, ...] = ()
    score: str = "value"
    parsed: Expression | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))


@_hashed_once
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


@_hashed_once
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


@_hashed_once
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


@_hashed_once
@dataclass(frozen=True)
class LargestSet:
    """Matching faces: the size of the largest set of dice showing one value (``report=
    "size"``), or that value (``"value"``; the higher one when two sets are as large)."""

    name: str
    report: str = "size"
    dice: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))


@_hashed_once
@dataclass(frozen=True)
class Sets:
    """How many distinct values show on at least ``size`` dice (``size=2``: pairs or better)."""

    name: str
    size: int = 2
    dice: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "dice", _dice_names(self.dice))


@_hashed_once
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


Statistic = Union[Sum, Keep, Pick, Beats, Pairs, LargestSet, Sets, Derived, "AllNegative"]
RANKED = (Keep, Pick, Beats, Pairs, LargestSet, Sets)
"""Statistics that depend on how the dice rank (the rest are sums over dice)."""


@_hashed_once
@dataclass(frozen=True)
class AllNegative:
    """1 when the roll has dice and every die of the initial pool showed a negative face on
    its first roll (a botch), else 0."""

    name: str


ALL_NEGATIVE = "all_negative"
"""The statistic a data file with ``all_negative`` tiers reads them from."""


STATISTICS = (Sum, Keep, Pick, Beats, Pairs, LargestSet, Sets, Derived, AllNegative)
"""Every kind of statistic a roll may read."""


def checked_name(stat) -> str:
    """A statistic of a known kind with a name expressions can read; returns how errors
    name it (``statistic 'best'``)."""
    if not isinstance(stat, STATISTICS):
        raise WorkbenchError(f"a roll's statistics are {', '.join(t.__name__ for t in STATISTICS)}, "
                             f"got {type(stat).__name__}")
    if not isinstance(stat.name, str) or not NAME.fullmatch(stat.name):
        raise WorkbenchError(f"statistic name got {shown(stat.name)}; allowed: letters A-Z and "
                             "a-z, digits and _, not starting with a digit")
    return f"statistic {stat.name!r}"


def check_settings(stat, where: str) -> None:
    """A statistic's own settings: its order, how many dice it takes, skips or sets apart,
    which side wins a tie and what a set reports."""
    if isinstance(stat, (Keep, Pick)) and stat.order not in ORDERS:
        raise WorkbenchError(f"{where}: order {stat.order!r}; allowed: {', '.join(ORDERS)}")
    for part, low in (("take", 0), ("skip", 0), ("position", 0), ("size", 1)):
        number = getattr(stat, part, None) if not isinstance(stat, Derived) else None
        if number is not None and (not is_whole(number) or not low <= number <= MAX_DICE):
            raise WorkbenchError(f"{where}: {part} got {shown(number)}; allowed: a whole "
                                 f"number from {low} to {MAX_DICE}")
    if isinstance(stat, Pairs) and stat.ties not in ("dice", "against"):
        raise WorkbenchError(f"{where}: ties {stat.ties!r}; allowed: dice, against")
    if isinstance(stat, LargestSet) and stat.report not in ("size", "value"):
        raise WorkbenchError(f"{where}: report {stat.report!r}; allowed: size, value")


@dataclass(frozen=True)
class StatisticsFacts:
    """What a roll's statistics are, told once when they are checked, for the engine to read
    instead of sorting the statistics again on every check.

    Attributes:
        base: the statistics read off the dice (every kind but :class:`Derived`), in order.
        derived: the :class:`Derived` statistics, in order.
        reads: per derived statistic's name, every name it reads, directly or through the
            derived statistics it reads.
        from_dice: names of the statistics that read the dice beyond a botch (neither
            :class:`Derived` nor :class:`AllNegative`).
        base_names, names: names of the ``base`` statistics, and of them all.
        scored: the :class:`Sum` and :class:`Keep` statistics whose score is not the value.
        all_negative: whether an :class:`AllNegative` statistic is among them.
        countable: whether every statistic is of a kind that a roll counted outright reads
            (sums, keeps, picks, dice beating other dice, derived ones).

    Example:
        >>> facts = statistics_facts((Pick("high"), Derived("twice", "2 * high"),
        ...                           Derived("more", "twice + 1")))
        >>> [s.name for s in facts.base], sorted(facts.reads["more"])
        (['high'], ['high', 'twice'])
    """

    base: tuple
    derived: tuple
    reads: dict
    from_dice: frozenset
    base_names: frozenset
    names: frozenset
    scored: tuple
    all_negative: bool
    countable: bool


def statistics_facts(stats: tuple) -> StatisticsFacts:
    """:class:`StatisticsFacts` of ``stats`` (checked already: derived ones parsed)."""
    reads: dict[str, frozenset] = {}
    for stat in stats:
        if isinstance(stat, Derived):
            names = set(stat.expression.names)
            for name in stat.expression.names:
                names |= reads.get(name, frozenset())
            reads[stat.name] = frozenset(names)
    countable = all(
        isinstance(stat, (Sum, Pick, Derived, Keep))
        or (isinstance(stat, Beats) and stat.against and not set(stat.dice) & set(stat.against))
        for stat in stats)
    return StatisticsFacts(
        base=tuple(stat for stat in stats if not isinstance(stat, Derived)),
        derived=tuple(stat for stat in stats if isinstance(stat, Derived)),
        reads=reads,
        from_dice=frozenset(stat.name for stat in stats if not isinstance(stat, (Derived, AllNegative))),
        base_names=frozenset(stat.name for stat in stats if not isinstance(stat, Derived)),
        names=frozenset(stat.name for stat in stats),
        scored=tuple(stat for stat in stats if isinstance(stat, (Sum, Keep)) and stat.score != "value"),
        all_negative=any(isinstance(stat, AllNegative) for stat in stats),
        countable=countable)
