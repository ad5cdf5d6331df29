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

from ..errors import WorkbenchError, shown
from ..limits import MAX_DICE, MAX_TOTAL
from ..validation import is_whole, suggest
from .dice import Die, HashedOnce, Percentile
from .expressions import Expression, ExpressionError, parse
from .roll_statistics import (ALL_NEGATIVE, NAME, ORDERS, RANKED, STATISTICS, AllNegative, Beats,
                              Derived, Keep, LargestSet, Pairs, Pick, Sets, Statistic, StatisticsFacts,
                              Sum, before_total, check_settings, checked_name, statistics_facts)

__all__ = ["ALL_NEGATIVE", "NAME", "ORDERS", "RANKED", "STATISTICS", "AllNegative", "Beats",
           "Derived", "Die", "Dice", "Keep", "KeptDice", "LargestSet", "Pairs", "Percentile", "Pick",
           "RerollFaces", "RollAgain", "RollSpec", "Sets", "Statistic", "StatisticsChecked",
           "StatisticsFacts", "Sum", "before_total", "checked_statistics", "statistics_facts"]
"""The statistics (:mod:`.roll_statistics`) and dice (:mod:`.dice`) a roll holds are named here
too: ``from workbench.rules.roll import Die, Keep, RollSpec``."""

Dice = Union[Die, Percentile]


@dataclass(frozen=True)
class KeptDice:
    """Only some dice of one type stay in the roll: the ``take`` highest (``order=
    "highest"``) or lowest dice of type ``dice``. The others are set aside before the total,
    the counts and every statistic read the roll (advantage: roll two d20, keep the higher).

    Example:
        >>> KeptDice("d20", take=1, order="lowest")
        KeptDice(dice='d20', take=1, order='lowest')
    """

    dice: str
    take: int
    order: str = "highest"


@dataclass(frozen=True)
class RerollFaces:
    """After the roll, every die showing one of the given faces is rolled once more and the
    new result counts: ``faces`` pairs a die type's name with the faces (numbers, 1 first)
    rerolled. With a ``condition`` (over the first roll's total, counts and statistics), only
    when it holds — a push: "when the roll has no success, reroll every die showing neither a
    6 nor a 1". Dice that explode cannot be rerolled by face (they show a chain).

    Example:
        >>> RerollFaces((("d6", (2, 3, 4, 5)),), "sixes == 0").condition.names
        ('sixes',)
    """

    faces: tuple[tuple[str, tuple[int, ...]], ...]
    condition: Expression | str | None = None

    def __post_init__(self):
        pairs = self.faces.items() if isinstance(self.faces, Mapping) else self.faces
        if not isinstance(pairs, (tuple, list, type({}.items()))) or not all(
                isinstance(pair, (tuple, list)) and len(pair) == 2 for pair in pairs):
            raise WorkbenchError(f"reroll faces got {shown(self.faces)}; allowed: (die name, faces) pairs")
        faces = []
        for name, numbers in pairs:
            numbers = tuple(numbers) if isinstance(numbers, (tuple, list, set, frozenset)) else None
            if numbers is None or not all(is_whole(f) and f >= 1 for f in numbers):
                raise WorkbenchError(f"reroll faces of {name!r} got {shown(numbers)}; allowed: face "
                                     "numbers, 1 and up")
            faces.append((str(name), tuple(sorted(set(int(f) for f in numbers)))))
        object.__setattr__(self, "faces", tuple(faces))
        if isinstance(self.condition, str):
            object.__setattr__(self, "condition", parse(self.condition))

    def of(self, die_name: str) -> tuple[int, ...]:
        """The faces of ``die_name`` rerolled (none: ``()``)."""
        return next((faces for name, faces in self.faces if name == die_name), ())


@dataclass(frozen=True)
class RollAgain:
    """The whole roll is rolled again and added while a condition holds on the newest roll:
    "doubles add and roll over". Every statistic of the check (the total, the counts, each
    statistic) is the sum of that statistic over the rolls made, as an exploding die's value
    is its chain's sum; ``modifier``, ``floor`` and ``ceiling`` then apply to the summed total
    once. ``limit``: most extra rolls (0: no cap; the exact engine follows the rolls until less
    than 1e-12 of the probability is left, and reports that as lost).

    Example:
        >>> RollAgain("high == low").condition.names
        ('high', 'low')
    """

    condition: Expression | str
    limit: int = 0

    def __post_init__(self):
        if isinstance(self.condition, str):
            object.__setattr__(self, "condition", parse(self.condition))
        if not isinstance(self.condition, Expression):
            raise WorkbenchError(f"roll again: condition got {shown(self.condition)}; allowed: a "
                                 "condition such as \"high == low\"")
        if not is_whole(self.limit) or not 0 <= self.limit <= 100:
            raise WorkbenchError(f"roll again: limit got {shown(self.limit)}; allowed: a whole number "
                                 "from 0 (no cap) to 100")


@dataclass(frozen=True)
class StatisticsChecked:
    """What checking a roll's statistics and total found (:func:`checked_statistics`), for
    the statistics, die types, counts, parameters and total in :attr:`key`. A data file's
    mechanic checks its statistics so once, when the file loads, and gives the record to each
    roll it builds (``RollSpec(..., checked=...)``): a roll whose own key is the same adopts
    it instead of checking them again; any other roll checks them itself."""

    key: tuple
    scores: tuple[str, ...]
    parsed_scores: dict
    early: tuple[str, ...]
    total: Expression | None
    facts: StatisticsFacts | None


def checked_statistics(stats: tuple, die_names, counts: tuple[str, ...], parameters,
                       total: Expression | str | None, facts: bool = True) -> StatisticsChecked:
    """Each statistic checked alone and against what it names: a name not yet taken, die
    types the roll has (``die_names``), a score over one die, an expression over what comes
    before it; then the total's expression (over the ``counts``, the statistics and the
    ``parameters``, names). Raises :class:`~workbench.errors.WorkbenchError` as the roll would.
    ``facts``: whether to tell :class:`StatisticsFacts` too (else the roll tells them when
    first asked).

    Example:
        >>> found = checked_statistics((Pick("high"),), ["d6"], (), (), "high + 1")
        >>> found.total.names, found.early
        (('high',), ())
    """
    stats, die_names, parameters = tuple(stats), tuple(die_names), tuple(parameters)
    key = (stats, die_names, tuple(counts), parameters, total)
    taken = {"total", "value", *counts}
    scores = ("value", *counts)
    score_expressions = tuple(dict.fromkeys(
        s.score for s in stats if isinstance(s, (Sum, Keep)) and s.score not in scores))
    parsed: dict[str, Expression] = {}   # the scores written as expressions, parsed once
    for stat in stats:
        where = checked_name(stat)
        if stat.name in taken or stat.name in parameters:
            raise WorkbenchError(f"{where}: the name is already taken (by the total, a count, "
                                 "a parameter or another statistic)")
        for part in ("dice", "against"):
            for die in getattr(stat, part, ()):
                if die not in die_names:
                    raise WorkbenchError(f"{where}: unknown die type {die!r}; the roll has "
                                         f"{', '.join(die_names) or 'no dice'}")
        if isinstance(stat, (Sum, Keep)) and stat.score not in scores and stat.score not in parsed:
            parsed[stat.score] = _parsed_score(stat, where, scores)
        check_settings(stat, where)
        if isinstance(stat, Derived):
            known = [name for name in taken if name != "value"]
            object.__setattr__(stat, "expression", _checked(stat.expression, [*known, *parameters], where))
        taken.add(stat.name)
    early = before_total(stats)
    if total is not None:
        total = _checked_total(stats, counts, total, early, parameters)
    return StatisticsChecked(key, score_expressions, parsed, early, total, statistics_facts(stats) if facts else None)


def _checked_total(stats: tuple, counts: tuple[str, ...], total: Expression | str, early: tuple[str, ...],
                   parameters) -> Expression:
    """The total's expression: over the counts, the statistics from the dice, the derived
    statistics that do not read the total themselves, and the parameters."""
    base = [s.name for s in stats if not isinstance(s, Derived)]
    expression = total if isinstance(total, Expression) else parse(str(total))
    late = [s.name for s in stats if isinstance(s, Derived) and s.name not in early]
    circle = [name for name in expression.names if name in late]
    if circle:
        raise WorkbenchError(f"total: reads {circle[0]!r}, which reads the total (a circle); "
                             "the total may read statistics that do not read it")
    return _checked(expression, [*counts, *base, *early, *parameters], "total")


@dataclass(frozen=True)
class RollSpec(HashedOnce):
    """Everything rolled for one check and every statistic read from it, as plain data.

    Attributes:
        groups: ``(die, count)`` pairs (a :class:`Die` or :class:`Percentile`); die names
            must differ; at most 1000 dice in all.
        stats: the statistics besides the total and the counts, in order (a
            :class:`Derived` reads the total and the statistics before it).
        total: ``None`` for the sum of every die's value, else an expression (or a
            statistic's name) over the counts, the other non-derived statistics and
            ``values``.
        modifier, floor, ceiling: added to the total, then the total is kept within them.
        values: parameter values that expressions read, as ``(name, value)`` pairs.
        rerolls: after the roll, up to this many dice that *missed* (their value, with
            their explosion chain, is 0) are rolled once more and the new result counts; the
            first misses in the order of ``groups``.
        kept: :class:`KeptDice`: only the highest or lowest dice of one type stay in the
            roll (``None``: every die does).
        reroll_faces: :class:`RerollFaces`: dice showing given faces are rolled once more,
            always or when a condition over the roll holds (a push).
        again: :class:`RollAgain`: the whole roll is rolled again and added while a condition
            holds on the newest roll (doubles roll over).
        checked: what checking these statistics and this total found already
            (:func:`checked_statistics`, made when a data file loads): adopted when it is for
            the same statistics, die types, counts, parameters and total, else they are checked
            again. Not part of the roll (not compared, not hashed, ``None`` once built).

    Every count of any die is a statistic of its own: the sum over all dice rolled (kept).

    Example:
        >>> d6 = Die.numbered("d6", 6)
        >>> RollSpec(((d6, 2),), stats=(Keep("best", take=1),), total="best").dice
        2
        >>> RollSpec(((d6, 2),), kept=KeptDice("d6", 1, "lowest")).sum_only
        True
    """

    groups: tuple[tuple[Dice, int], ...]
    stats: tuple[Statistic, ...] = ()
    total: Expression | str | None = None
    modifier: int = 0
    floor: int | None = None
    ceiling: int | None = None
    values: tuple[tuple[str, int], ...] = field(default=())
    rerolls: int = 0
    kept: KeptDice | None = None
    reroll_faces: RerollFaces | None = None
    again: RollAgain | None = None
    checked: StatisticsChecked | None = field(default=None, compare=False, repr=False)
    _hashed = ("groups", "stats", "total", "modifier", "floor", "ceiling", "values", "rerolls", "kept",
               "reroll_faces", "again")
    __hash__ = HashedOnce.__hash__   # worked out once: the engine's memos look a roll up often

    @classmethod
    def of_parts(cls, groups: tuple, stats: tuple, total, modifier: int, floor: int | None,
                 ceiling: int | None, values, rerolls: int, kept: KeptDice | None,
                 reroll_faces: RerollFaces | None, again: RollAgain | None,
                 checked: StatisticsChecked | None) -> "RollSpec":
        """``RollSpec(groups, stats=stats, ...)`` of every part given (what a mechanic builds
        for each check): its fields set at once, then checked as every roll is.

        Example:
            >>> d6 = Die.numbered("d6", 6)
            >>> RollSpec.of_parts(((d6, 2),), (), None, 1, None, None, (), 0, None, None, None, None) \\
            ...     == RollSpec(((d6, 2),), modifier=1)
            True
        """
        spec = object.__new__(cls)
        spec.__dict__.update(groups=groups, stats=stats, total=total, modifier=modifier, floor=floor,
                             ceiling=ceiling, values=values, rerolls=rerolls, kept=kept,
                             reroll_faces=reroll_faces, again=again, checked=checked)
        spec.__post_init__()
        return spec

    def __post_init__(self):
        fields = self.__dict__   # frozen: the checked values are set in place, once
        groups = fields["groups"] = _checked_groups(self.groups)
        fields["values"] = _checked_values(self.values)
        modifier, rerolls = fields["modifier"], fields["rerolls"]
        usual = type(modifier) is int and type(rerolls) is int and modifier == 0 == rerolls \
            and fields["floor"] is None and fields["ceiling"] is None   # (nothing to check)
        for name in () if usual else ("modifier", "floor", "ceiling", "rerolls"):
            number = fields[name]
            if type(number) is int and -MAX_TOTAL <= number <= MAX_TOTAL and (number >= 0 or name != "rerolls"):
                continue   # a whole number in range (int() of it is itself)
            if number is None and name in ("floor", "ceiling"):
                continue
            if not is_whole(number) or abs(number) > MAX_TOTAL or (name == "rerolls" and number < 0):
                low = 0 if name == "rerolls" else -MAX_TOTAL
                raise WorkbenchError(f"roll: {name} got {shown(number)}; allowed: a whole number "
                                     f"from {low:,} to {MAX_TOTAL:,}")
            fields[name] = int(number)
        stats = self.stats
        if type(stats) is not tuple:
            if not isinstance(stats, (tuple, list)):
                raise WorkbenchError(f"roll: stats got {shown(stats)}; allowed: a tuple of statistics")
            fields["stats"] = tuple(stats)
        names: list[str] = []
        counts: list[str] = []
        for die, _ in groups:
            names.append(die.name)
            for count in die.count_names:
                if count not in counts:
                    counts.append(count)
        fields["_counts"] = tuple(counts)  # read often: worked out once
        if len(set(names)) != len(names):
            raise WorkbenchError(f"a roll's die types need different names, got {names}")
        for count in counts:
            if not NAME.fullmatch(count):
                raise WorkbenchError(f"count name got {shown(count)}; allowed: letters A-Z and a-z, "
                                     "digits and _, not starting with a digit")
        if self.floor is not None and self.ceiling is not None and self.floor > self.ceiling:
            raise WorkbenchError(f"floor {self.floor} is above ceiling {self.ceiling}")
        if self.rerolls or self.kept is not None:
            self._check_rerolls_and_kept()
        self._check_statistics(names)
        if self.reroll_faces is not None:
            self._check_reroll_faces()
        if self.again is not None:
            self._check_again()

    def _check_reroll_faces(self) -> None:
        again = self.reroll_faces
        if again is None:
            return
        if not isinstance(again, RerollFaces):
            raise WorkbenchError(f"roll: reroll_faces got {shown(again)}; allowed: RerollFaces or None")
        dice = {die.name: die for die, _ in self.groups}
        for name, faces in again.faces:
            die = dice.get(name)
            if die is None:
                raise WorkbenchError(f"roll: reroll faces of {name!r}, which the roll does not have; "
                                     f"it has {', '.join(dice) or 'no dice'}")
            if not isinstance(die, Die) or any(die.explodes):
                raise WorkbenchError(f"roll: rerolling {name} dice by the face they show needs dice "
                                     "that do not explode (an exploding die shows a chain)")
            if faces and faces[-1] > die.sides:
                raise WorkbenchError(f"roll: reroll face {faces[-1]} of {name}, which has faces 1 to "
                                     f"{die.sides}")
        if self.rerolls or self.kept is not None:
            raise WorkbenchError("roll: rerolling dice by face does not combine with rerolls of "
                                 "misses or kept dice (which roll would the other read?)")
        if again.condition is not None:
            self._check_condition(again.condition, "the reroll's condition")

    def _check_again(self) -> None:
        again = self.again
        if again is None:
            return
        if not isinstance(again, RollAgain):
            raise WorkbenchError(f"roll: again got {shown(again)}; allowed: RollAgain or None")
        self._check_condition(again.condition, "the condition to roll again")

    def _check_condition(self, expression: Expression, where: str) -> None:
        """A condition over one roll: its total, counts, statistics and the parameters."""
        known = ["total", *self.count_names, *(s.name for s in self.stats), *(name for name, _ in self.values)]
        if expression.kind != "bool":
            raise WorkbenchError(f"roll: {where} {expression.text!r} is a number, not a condition: "
                                 "compare it")
        _checked(expression, known, where)

    def _check_rerolls_and_kept(self) -> None:
        if self.rerolls and any(f and e for d, _ in self.groups if isinstance(d, Die)
                                for f, e in zip(d.fails, d.explodes)):
            raise WorkbenchError("rerolls do not combine with cancelling faces that explode "
                                 "(whether such a die missed would depend on its whole chain)")
        kept = self.kept
        if kept is None:
            return
        if not isinstance(kept, KeptDice):
            raise WorkbenchError(f"roll: kept got {shown(kept)}; allowed: KeptDice or None")
        found = [(die, n) for die, n in self.groups if die.name == kept.dice]
        if not found:
            raise WorkbenchError(f"roll: kept dice {kept.dice!r} are not rolled; the roll has "
                                 f"{', '.join(d.name for d, _ in self.groups) or 'no dice'}")
        die, n = found[0]
        if kept.order not in ("highest", "lowest"):
            raise WorkbenchError(f"roll: kept order got {shown(kept.order)}; allowed: highest, lowest")
        if not is_whole(kept.take) or not 0 <= kept.take <= n:
            raise WorkbenchError(f"roll: kept take got {shown(kept.take)}; allowed: a whole number "
                                 f"from 0 to {n} (the {kept.dice} dice rolled)")
        if not isinstance(die, Die) or any(die.explodes):
            raise WorkbenchError(f"roll: keeping the highest or lowest {kept.dice} dice needs dice "
                                 "that do not explode (an exploding die's rank is its whole chain)")
        if self.rerolls:
            raise WorkbenchError("roll: rerolls of misses do not combine with keeping the highest "
                                 "or lowest dice (which dice would a reroll replace?)")

    def _check_statistics(self, die_names: list[str]) -> None:
        """The statistics and the total checked (:func:`checked_statistics`), or what a check
        of the same ones found when ``checked`` was given for them."""
        given = self.checked
        values = self.values
        key = (self.stats, tuple(die_names), self.count_names, tuple([name for name, _ in values]) if values else (),
               self.total)
        if given is None or not isinstance(given, StatisticsChecked) or given.key != key:
            given = checked_statistics(*key, facts=False)   # (told when the engine first asks)
        self.__dict__.update(_scores=given.scores, _parsed_scores=given.parsed_scores, _early=given.early,
                             total=given.total, checked=None, _facts=given.facts)

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
    def statistics_facts(self) -> StatisticsFacts:
        """What its statistics are (which are derived, what those read, ...): told when they
        were checked when a data file loaded, else worked out when first asked."""
        facts = self.__dict__.get("_facts")
        if facts is None:
            facts = self.__dict__["_facts"] = statistics_facts(self.stats)
        return facts

    def parsed_score(self, score: str) -> Expression:
        """One of :attr:`score_expressions`, parsed (when the roll was checked)."""
        return self._parsed_scores[score]

    def narrowed(self, groups: tuple, stats: tuple) -> "RollSpec":
        """This roll reading only ``stats`` (some of its statistics, in their order) of
        ``groups`` (its dice, in order, each scoring some of its counts): what a reading that
        needs fewer statistics computes (:func:`~workbench.engine.wanted.cut_down`, which
        keeps every statistic and count that what stays reads). Made from a roll checked
        already, so it is not checked again.

        Example:
            >>> d6 = Die.numbered("d6", 6, counts={"ones": [1, 0, 0, 0, 0, 0]})
            >>> spec = RollSpec(((d6, 2),), stats=(Pick("high"), Pick("low", order="lowest")), total="high")
            >>> spec.narrowed(((Die.numbered("d6", 6), 2),), spec.stats[:1]).statistic_names
            ('total', 'high')
        """
        narrow = object.__new__(RollSpec)
        narrow.__dict__.update(self.__dict__)
        narrow.__dict__.pop("_hash", None)   # other statistics, another hash, other names
        narrow.__dict__.pop("_names", None)
        counts: list[str] = []
        for die, _ in groups:
            names = die.count_names
            if names:
                counts += [name for name in names if name not in counts]
        scores = ("value", *counts)
        for name, value in (("groups", tuple(groups)), ("stats", tuple(stats)), ("_counts", tuple(counts)),
                            ("_scores", tuple(dict.fromkeys(s.score for s in stats if isinstance(s, (Sum, Keep))
                                                            and s.score not in scores))),
                            ("_early", before_total(stats)), ("_facts", None)):
            object.__setattr__(narrow, name, value)
        return narrow

    @property
    def statistic_names(self) -> tuple[str, ...]:
        """The joint distribution's columns: the total, the counts, then ``stats``."""
        names = self.__dict__.get("_names")
        if names is None:   # (worked out once: the engine reads them on every check)
            names = self.__dict__["_names"] = ("total", *self._counts, *(s.name for s in self.stats))
        return names

    @property
    def sum_only(self) -> bool:
        """Whether the roll is a sum of its dice's values and nothing else is read from it:
        no counts, statistics, total expression, ceiling or percentile dice. Such a roll is
        what the engine's fast paths (closed forms, convolutions) compute."""
        return (not self.stats and self.total is None and self.ceiling is None and not self._counts
                and self.reroll_faces is None and self.again is None
                and all(isinstance(die, Die) for die, _ in self.groups))


def _checked_groups(given) -> tuple:
    if type(given) is tuple:   # the usual: (die, count) pairs of whole numbers, as they stay
        rolled = 0
        for group in given:
            if type(group) is not tuple or len(group) != 2:
                break
            die, n = group
            if type(die) not in (Die, Percentile) or type(n) is not int or not 0 <= n <= MAX_DICE:
                break
            rolled += n
        else:
            if rolled <= MAX_DICE:
                return given
    if not isinstance(given, (tuple, list)) or not all(
            isinstance(g, (tuple, list)) and len(g) == 2 for g in given):
        raise WorkbenchError(f"roll groups got {shown(given)}; allowed: (die, count) pairs")
    groups = []
    for die, n in given:
        if not isinstance(die, (Die, Percentile)):
            raise WorkbenchError(f"roll groups: {shown(die)} is not a Die or a Percentile")
        if not is_whole(n) or not 0 <= n <= MAX_DICE:
            raise WorkbenchError(f"roll: {shown(n)} dice of {die.name!r}; allowed: a whole number "
                                 f"from 0 to {MAX_DICE}")
        groups.append((die, int(n)))
    rolled = sum(n for _, n in groups)
    if rolled > MAX_DICE:
        raise WorkbenchError(f"roll: {rolled} dice; allowed: at most {MAX_DICE} dice in one roll")
    return tuple(groups)


def _checked_values(given) -> tuple[tuple[str, int], ...]:
    """A roll's ``values``: ``(name, whole number)`` pairs, sorted by name."""
    if not given and type(given) in (tuple, dict):   # no parameter read: the usual
        return ()
    pairs = given.items() if type(given) is dict else given if type(given) is tuple else None
    if pairs is not None:
        for pair in pairs:
            if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not str or type(pair[1]) is not int \
                    or not -MAX_TOTAL <= pair[1] <= MAX_TOTAL:
                break
        else:
            return tuple(sorted(pairs))   # names and whole numbers as they stay
    return tuple(sorted((str(k), _parameter_number(k, v)) for k, v in
                        (given.items() if isinstance(given, Mapping) else given)))


def _parameter_number(name, value) -> int:
    """A parameter's value as expressions read it: a whole number (true/false as 1/0)."""
    if isinstance(value, bool):
        return int(value)
    if not is_whole(value) or abs(value) > MAX_TOTAL:
        raise WorkbenchError(f"parameter {name!r} is read by an expression, so it needs a whole "
                             f"number from {-MAX_TOTAL:,} to {MAX_TOTAL:,} or true/false, got "
                             f"{shown(value)}")
    return int(value)


def _parsed_score(stat: Sum | Keep, where: str, scores: tuple[str, ...]) -> Expression:
    """A :class:`Sum` or :class:`Keep` score written as an expression over one die's value and
    counts: the tree a data file parsed already when it is that same expression, else parsed."""
    given = stat.parsed
    try:
        if given is not None and given.text == stat.score and given.kind != "fraction" \
                and all(name in scores for name in given.names):
            return given   # the tree parse() gives, checked the same
        return parse(stat.score, known=scores, want="whole")
    except ExpressionError as exc:
        raise WorkbenchError(f"{where}: score {exc} (a score is 'value', a count, or an "
                             f"expression over one die's value and counts: "
                             f"{', '.join(scores)})") from None


def _checked(expression: Expression, known, where: str) -> Expression:
    """``expression`` (parsed already: a word choice compared with a word is read as its
    position) checked for a whole number over the names ``known``."""
    known = list(known)
    problem = None
    for name in expression.names:
        if name not in known:
            problem = (f"unknown name {name!r}{suggest(name, known)}; names here: "
                       f"{', '.join(known) or '(none)'}")
            break
    if problem is None and expression.kind == "fraction" and not where.startswith("the "):
        problem = "may not be whole: '/' divides exactly; use // to round down"
    if problem is not None:
        raise WorkbenchError(f"{where}: {ExpressionError(expression.text, problem)}")
    return expression
