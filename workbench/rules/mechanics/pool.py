"""The general dice-pool mechanic, configured entirely by a data file (``mechanic = "pool"``).

A system file declares die types (a value per face), parameters whose points have effects
from a fixed vocabulary, and how a total reads (tiers, labels, a target). This module
compiles resolved parameters into a :class:`~workbench.rules.roll.RollSpec`; it reads data
and never executes any. ``data/README.md`` documents every key with an example.

The mechanic is made of parts, each in its own module: the parameters' effects as a plan
(:mod:`.pool_plan`), what they make of the dice for one check (:mod:`.pool_effects`, one
handler per verb), how a total reads (:mod:`.pool_reading`) and the file's statistics
(:mod:`.statistics`). Its entries were checked against each other when the file was read
(:mod:`workbench.rules.schema.references`).

Order in which a die's faces are built for one check (documented in data/README.md):
1. the die's ``faces`` from the file, with any choice's ``faces`` replacing them;
2. ``shift_faces`` moves the value table (face ``f`` takes the value of face ``f + k``);
3. ``cancel`` / ``cancel_up_to`` faces score -1;
4. ``explode`` / ``explode_from`` add exploding faces to the die's own ``explode``.
Dice counts: every addition first, then removals in the order parameters are declared.
"""
from __future__ import annotations

import re
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Mapping

from ...errors import ParameterError, WorkbenchError
from ...limits import MAX_DIGITS, MAX_TOTAL, BoundedCache
from .._entries import face_values, labels_of
from ..dice import Die, Percentile
from ..params import Param
from ..roll import (ALL_NEGATIVE, AllNegative, KeptDice, RerollFaces, RollAgain, RollSpec, StatisticsChecked,
                    checked_statistics)
from .base import MAX_DICE, Mechanic, ReadingRules
from .pool_effects import CompiledCheck, compile_check, prepared_plan, written_check
from .pool_plan import EffectPlan
from .pool_reading import PoolReading, _big, _total_range, dice_parameters
from .statistics import Statistics

if TYPE_CHECKING:  # a system read back from the cache runs without the schema (pydantic)
    from ..schema import PoolFile

MAX_SHARED_REROLL_DICE = 100
"""Largest pool whose rerolls are shared by several die types (exact work grows as n^3)."""

SHORTHAND = re.compile(rf"^\s*([A-Za-z]+)\s*(\d{{1,{MAX_DIGITS}}})\s*$", re.ASCII)
"""``B5``: a choice's letters, then the count (at most MAX_DIGITS digits: 5000 are no count)."""


def shifted(values: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The value table moved ``k`` faces down (favor +1: a 5+ die becomes a 4+ die).

    Face ``f`` takes the value of face ``f + k``, clamped to the die. A downward move
    (``k < 0``) stops once the top face would lose its last success: favor -5 on a 5+ d6 still
    leaves a 6+ die, as UWR's "negative favor cannot go above 6".

    Example:
        >>> shifted((0, 0, 0, 0, 1, 1), 1), shifted((0, 0, 0, 0, 1, 1), -3)
        ((0, 0, 0, 1, 1, 1), (0, 0, 0, 0, 0, 1))
    """
    if k == 0:   # the usual case: nothing moves
        return tuple(values)
    sides = len(values)
    scoring = [i for i, v in enumerate(values) if v > 0]
    lowest = -(sides - 1 - scoring[0]) if scoring else -(sides - 1)
    k = max(min(k, sides - 1), lowest)
    return tuple(values[min(max(i + k, 0), sides - 1)] for i in range(sides))


_record = tuple.__new__
"""A named tuple made from its values at once (a record per check, made quickly)."""


_FILE_STATS = object()
"""Stands for the file's own statistics in the memo of distinct rolls (hashed at once)."""


_WRITTEN = object()
"""Stands for the dice as the file writes them in the memo of distinct rolls: their counts
follow it (hashed at once, where hashing each die calls Python)."""


def _no_key(p) -> tuple:
    """The pool memo's key for a mechanic whose dice depend on no parameter."""
    return ()


def _tuple_key(names: tuple[str, ...]):
    """A function giving the values of ``names`` in ``p`` as a tuple, as
    ``tuple(p[name] for name in names)`` does (read in C)."""
    if len(names) > 1:
        return itemgetter(*names)
    if names:
        return _OneKey(*names)
    return _no_key


class _OneKey:
    """``p[name]`` as a tuple of one (a memo key as :func:`_tuple_key` gives; pickled with
    the mechanic)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __call__(self, p: Mapping[str, Any]) -> tuple:
        return (p[self.name],)


class PoolMechanic(Mechanic):
    """Dice, parameters and outcome read from a validated :class:`~.schema.PoolFile`: the
    parameters as a plan (:attr:`plan`), how totals read (:attr:`reading`), the statistics
    (:attr:`statistics`, ``None`` for a sum of dice)."""

    kind = "pool"
    pure = True

    def __init__(self, system_id: str, model: PoolFile, source: object):
        self.system_id, self.model, self.source = system_id, model, source
        self.labels = labels_of(model)
        self.values = {name: face_values(die.face_values, self.labels, source, f"dice.{name}.faces")
                       for name, die in model.dice.items() if not die.percentile}
        self.plan = EffectPlan(system_id, model, source)
        # The dice as the file writes them: what every check's effects start from.
        self._written_check = written_check(model, self.values)
        self._prepared = prepared_plan(self.plan)   # each effect as a check reads it
        # Memos: every check asks for the pool, the target and the ties of its parameters.
        self._compiled = BoundedCache()    # every parameter's value -> CompiledCheck
        self._pools = BoundedCache()       # the parameters the dice depend on -> the roll
        self._distinct = BoundedCache()    # one object per distinct roll
        self._dice_made = BoundedCache()   # one object per distinct die
        self._tier_rules = BoundedCache()  # the values tiers' conditions name -> the tiers
        self.reads_all_negative = any(tier.all_negative is not None for tier in model.tiers)
        # Counts, statistics, a total or conditions: the roll engine computes these checks.
        self.statistics = Statistics(model, self.plan.params, source) if model.rolls_statistics else None
        self.reading = PoolReading(self.plan, model, self.statistics, self._tier_rules)
        self._pool_keys = dice_parameters(model, self.statistics)
        # The memos' keys: the values of the parameters the dice depend on (the pool's), of
        # every parameter (the compiled dice's); a tuple each, read in C.
        self._pool_key = _tuple_key(self._pool_keys)
        self._compile_key = _tuple_key(tuple(self.plan.params))
        # Parameters that only say what passes, which shorthand never sets: a point that
        # changes only these rolls the same pool (System.resolve_points).
        shorthand = {n for name, short in model.shorthand.items() for n in (name, short.choice, short.count)}
        self.reading_parameters = tuple(name for name in model.params
                                        if name not in self._pool_keys and name not in shorthand)
        self.uses_obstacle = self.reading.uses_obstacle
        self.tier_layout = self.reading.fixed_layout   # (None: the tiers are read one by one)
        # Each die type as the file writes it, checked once here: most checks roll it so
        # (no effect changes its faces), and then it is not built and checked again.
        self._as_written = {name: self._written(name) for name in model.dice}
        self._explode_written = {name: frozenset(die.explode) for name, die in model.dice.items()}
        # Every die type as written (None: some die is built by each check): what a check
        # rolls whose effects leave the faces alone.
        self._all_written = tuple(self._as_written.items()) \
            if all(die is not None for die in self._as_written.values()) else None
        self._written_names = tuple(name for name, _ in self._all_written or ())
        self._written_dice = tuple(die for _, die in self._all_written or ())
        self._all_negative = AllNegative(ALL_NEGATIVE)
        # What every roll of the file holds alike, made once: rolled again while (again_if),
        # and the statistics when none reads a parameter or the dice rolled (else None).
        statistics = self.statistics
        self._roll_again = RollAgain(statistics.again_if, model.again_limit) \
            if statistics is not None and statistics.again_if is not None else None
        fixed = statistics.fixed_stats if statistics is not None else ()
        self._file_stats = None if fixed is None else (
            (*fixed, self._all_negative) if self.reads_all_negative else fixed)
        # The statistics and the total checked once here when no parameter changes them: each
        # roll built from them adopts what was found (RollSpec's ``checked``).
        self._statistics_checked = self._checked_statistics()
        # The names a check's reading reads, when its tiers always apply: the file's.
        fixed_tiers = self.reading.fixed_tiers
        self._names_read = self.reading.names_read(fixed_tiers) if fixed_tiers is not None else None

    def adds_dice(self, name: str) -> bool:
        """Whether parameter ``name`` adds dice (``effect = { add_dice = ... }``), as a pool
        size does; a skill, a modifier or a target does not."""
        return any(planned.verb == "add_dice" for planned in self.plan.effects.get(name, ()))

    # -- the protocol -----------------------------------------------------------------------
    def params(self) -> tuple[Param, ...]:
        return tuple(self.plan.params.values())

    def preprocess(self, given: dict[str, Any]) -> dict[str, Any]:
        """Shorthand such as ``stat="B5"`` (or ``quality="B5"``): a choice and a count at once."""
        given = dict(given)
        for name, short in self.model.shorthand.items():
            choices = {str(c).lower(): c for c in self.plan.params[short.choice].choices}
            for key in (name, short.choice):
                value = given.get(key)
                match = SHORTHAND.match(value) if isinstance(value, str) else None
                if match and match.group(1).lower() not in choices:
                    match = None
                if key == name and key in given and not match:
                    raise ParameterError(self.system_id, name, value,
                                         f"a {short.choice} ({', '.join(map(str, choices.values()))}) "
                                         f"followed by the {short.count}, such as "
                                         f"{next(iter(choices.values()))}5")
                if not match:
                    continue
                choice, count = choices[match.group(1).lower()], int(match.group(2))
                for other, want in ((short.count, count), (short.choice, choice)):
                    if other != key and other in given and str(given[other]).strip().lower() != str(want).lower():
                        raise ParameterError(self.system_id, other, given[other],
                                             f"{want}, as {key}={value} says, or leave {other} out")
                given.pop(name, None)
                given[short.choice], given[short.count] = choice, count
        return given

    # -- how the total reads (PoolReading) --------------------------------------------------
    @property
    def pass_from(self) -> str | None:
        return self.reading.pass_from

    @property
    def pass_condition(self):
        """The file's ``pass_if`` (parsed), or ``None``: then a pass is total >= target."""
        return self.reading.pass_condition

    @property
    def uncontested(self) -> str:
        return self.reading.uncontested

    def tier_names(self) -> tuple[str, ...]:
        return self.reading.tier_names

    def tier_rules(self, p: Mapping[str, Any]) -> tuple:
        return self.reading.tier_rules(p)

    def statistics_read(self, p: Mapping[str, Any]) -> frozenset[str] | None:
        """The names a check with parameters ``p`` reads its result by: the total, those its
        ``pass_if`` and the conditions of the tiers that apply name, and whether every initial
        die failed when a tier asks (``None``: a file without statistics, or a tier condition
        it does not know, left to the reading to refuse).

        Example:
            >>> import workbench
            >>> sorted(workbench.system("ironsworn").mechanic.statistics_read({"stat": 2, "adds": 0}))
            ['beaten', 'total']
        """
        found = self._names_read
        return found if found is not None else self.reading.names_read(self.reading.tier_rules(p))

    def condition(self, text: str):
        """A tier's ``condition``, parsed and checked when the file was loaded."""
        return self.statistics.conditions[text]

    def target(self, p: Mapping[str, Any]) -> int | None:
        return self.reading.target(p)

    def versus_extra_obstacle(self, p: Mapping[str, Any]) -> int:
        return self.reading.added_to_target(p)

    def versus_ties(self, p: Mapping[str, Any]) -> str:
        ties = self._compile(p).ties
        if ties is None:
            raise WorkbenchError(f"{self.system_id}: its rules define no opposed checks (no [versus] table)")
        return ties

    def extra(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {"effective_ob": self.target(p)} if self.uses_obstacle else {}

    def reading_rules(self, p: Mapping[str, Any], *, facts: bool = False,
                      target: str = "read") -> ReadingRules:
        """:meth:`Mechanic.reading_rules`, quick (a sweep asks it per point): what never
        changes with the parameters (labels, the first pass, ``pass_if``, tier names, every
        tier condition parsed) is the file's, gathered once; the tiers that apply are
        remembered."""
        constant = self.__dict__.get("_reading_constant")
        if constant is None:
            reading, statistics = self.reading, self.statistics
            constant = self._reading_constant = (
                self.system_id, self.source, self.labels, reading.pass_from, reading.pass_condition,
                reading.tier_names, statistics.conditions if statistics is not None else {}, statistics)
        system_id, source, labels, pass_from, condition, names, conditions, statistics = constant
        found_extra = self.extra(p) if facts else None
        found_target = self.target(p) if target == "read" or (target == "for_pass" and condition is None) \
            else None
        return _record(ReadingRules, (system_id, source, p, labels, pass_from, condition, names,
                                      self.reading.tier_rules(p) if names else (), conditions,
                                      statistics, found_target, found_extra))

    # -- the dice of one check --------------------------------------------------------------
    def _compile(self, p: Mapping[str, Any]) -> CompiledCheck:
        # Cached: a check asks for the pool, the target and the ties of the same parameters.
        key = self._compile_key(p)
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled.keep(key, compile_check(self.plan, self._prepared, self._written_check, p))
        return found

    def _faces_of(self, name: str, c: CompiledCheck) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """One die type's values (shifted, cancelled) and exploding faces for this check."""
        values = list(shifted(tuple(c.faces[name]), c.shift[name]))
        for face in c.cancel[name]:
            values[face - 1] = -1
        return tuple(values), tuple(f in c.explode[name] for f in range(1, len(values) + 1))

    def _written(self, name: str) -> Die | None:
        """Die type ``name`` as the file writes it (its faces, its own exploding faces, counts
        that read the face alone), or ``None`` when its counts read parameters, it explodes
        into another die or is a percentile (then every check builds it)."""
        spec = self.model.dice[name]
        if spec.percentile or (spec.explode and spec.explode_into not in (None, name)):
            return None
        values = self.values[name]
        statistics = self.statistics
        if statistics is not None and not all(
                isinstance(scores, list) or len(statistics.by_face.get((name, count), ())) == len(values)
                for count, scores in spec.counts.items()):
            return None
        flags = tuple(f in set(spec.explode) for f in range(1, len(values) + 1))
        counts = statistics.die_counts(name, values, {}) if statistics is not None else {}
        try:
            return Die(name, tuple(values), flags, limit=spec.explode_limit,
                       counts=tuple((count, tuple(scores)) for count, scores in counts.items()))
        except WorkbenchError:   # (every face exploding) refused by each check that rolls it
            return None

    def _checked_statistics(self) -> StatisticsChecked | None:
        """The file's statistics checked as every roll holds them, when none of them reads a
        parameter or the dice rolled (``None`` otherwise, or when they are refused: then each
        roll checks them, and says why)."""
        statistics = self.statistics
        if statistics is None or any(name not in statistics.fixed for name in statistics.base):
            return None
        stats = (*(statistics.fixed[name] for name in statistics.base), *statistics.fixed_derived)
        if self.reads_all_negative:
            stats = (*stats, self._all_negative)
        counts: list[str] = []
        for name, die in self.model.dice.items():
            written = self._as_written.get(name)
            counts += [count for count in (written.count_names if written is not None else die.counts)
                       if count not in counts]
        parameters = sorted(name for name in (*statistics.readable, *statistics.texts) if name in statistics.reads)
        try:
            return checked_statistics(stats, tuple(self.model.dice), tuple(counts), parameters, statistics.total)
        except WorkbenchError:
            return None

    def _die(self, name: str, c: CompiledCheck, made: dict, p: Mapping[str, Any]) -> Die:
        if name not in made:
            written = self._as_written[name]
            if (written is not None and not c.shift[name] and not c.cancel[name]
                    and c.faces[name] is self.values[name] and c.explode[name] == self._explode_written[name]):
                made[name] = written
                return written
            spec = self.model.dice[name]
            values, flags = self._faces_of(name, c)
            into = None
            if spec.explode_into not in (None, name) and any(flags):
                into = self._die(spec.explode_into, c, made, p)
            if all(flags) and not spec.explode_limit and into is None:
                blamed = c.explode_sources.get(name)
                if blamed:
                    self.plan.refuse(blamed[-1][0], p, blamed[-1][1], f"a value that leaves some face of "
                                     f"{name} not exploding (with these parameters every face explodes, "
                                     "so a roll never ends)")
                raise WorkbenchError(f"{self.system_id}: with these parameters every face of {name} "
                                     "explodes, so a roll never ends")
            counts = self.statistics.die_counts(name, values, p) if self.statistics is not None else {}
            # One object per distinct die (most settings of a sweep roll the same few dice):
            # built and checked once, and rolls holding it compare by identity.
            key = (name, tuple(values), flags, spec.explode_limit, into,
                   tuple((count, tuple(scores)) for count, scores in counts.items()))
            die = self._dice_made.get(key)
            if die is None:
                try:
                    die = Die(name, key[1], flags, limit=spec.explode_limit, into=into, counts=key[5])
                except WorkbenchError as exc:
                    raise WorkbenchError(f"{self.system_id} ({self.source}): with these parameters, "
                                         f"{exc}") from None
                self._dice_made.keep(key, die)
            made[name] = die
        return made[name]

    def pool(self, p: Mapping[str, Any]) -> RollSpec:
        """What one check with resolved parameters ``p`` rolls and reads (the engine decides
        how to compute it: a sum of dice takes its fast paths)."""
        key = self._pool_key(p)
        found = self._pools.get(key)
        if found is None:
            found = self._pools.keep(key, self._pool_new(p))
        return found

    def _kept(self, c: CompiledCheck, counts: dict, p: Mapping[str, Any]) -> KeptDice | None:
        """``keep_highest`` / ``keep_lowest`` points: that many extra dice of the type are
        rolled (added to ``counts``) and as many as the pool had are kept."""
        keeping = [(+n if verb == "keep_highest" else -n, arg, name, entry)
                   for verb, arg, n, name, entry in c.keep if n]
        if not keeping:
            return None
        extra = sum(signed for signed, *_ in keeping)
        up = [k for k in keeping if k[0] > 0]
        down = [k for k in keeping if k[0] < 0]
        if up and down:
            self.plan.refuse(down[0][2], p, down[0][3], f"no points while {up[0][2]!r} keeps the best "
                             f"dice ({up[0][3]}): keeping the best and the worst at once has no "
                             "single meaning; net them with [[cancel_out]]")
        die, name = keeping[0][1], keeping[0][2]
        other = [k for k in keeping if k[1] != die]
        if other:
            self.plan.refuse(other[0][2], p, other[0][3], f"keeping the same die type as {name!r} "
                             f"({die}); one roll keeps one die type's best or worst")
        take = counts[die]
        counts[die] += abs(extra)
        return KeptDice(die, take, "highest" if extra > 0 else "lowest")

    def _reroll_faces(self, c: CompiledCheck, p: Mapping[str, Any]) -> RerollFaces | None:
        """``reroll`` effects: the faces of each die type rolled once more, and when."""
        if not c.again:
            return None
        conditions = {text for _, _, text in c.again_if}
        if len(conditions) > 1:
            (first, where, _), (other, entry, _) = c.again_if[0], next(
                e for e in c.again_if[1:] if e[2] != c.again_if[0][2])
            self.plan.refuse(other, p, entry, f"no points while {first!r} rerolls faces under another "
                             f"condition ({where}): one roll is rerolled once, under one condition")
        text = conditions.pop()
        condition = self.statistics.roll_condition(text) if text is not None else None
        faces = tuple((die, tuple(sorted(found))) for die, found in c.again.items() if found)
        return RerollFaces(faces, condition)

    def _checked_size(self, c: CompiledCheck, counts: dict, p: Mapping[str, Any]) -> None:
        """Refuse a pool past the dice, shared rerolls or modifier the workbench computes."""
        rolled = sum(counts.values())
        if rolled > MAX_DICE:
            name = self.model.pool_parameter if self.model.pool_parameter in p else next(
                (n for n, kind in self.plan.kinds.items() if kind == "int" and p[n]), "dice")
            raise ParameterError(self.system_id, name, p.get(name, rolled),
                                 f"a pool of at most {MAX_DICE} dice (these parameters roll {rolled})")
        if c.rerolls and sum(1 for n in counts.values() if n) > 1 and rolled > MAX_SHARED_REROLL_DICE:
            name, entry = c.reroll_sources[0]
            self.plan.refuse(name, p, entry, f"rerolls shared by several die types on at most "
                             f"{MAX_SHARED_REROLL_DICE} dice (these parameters roll {rolled}; use one "
                             "die type, or simulate)")
        if abs(c.modifier) > MAX_TOTAL:
            name, entry = c.modifier_sources[-1]
            self.plan.refuse(name, p, entry, f"values that keep what is added to the total within "
                             f"{_total_range()} (these add {_big(c.modifier)})")

    def _pool_new(self, p: Mapping[str, Any]) -> RollSpec:
        # Compiled here, not looked up: a pool not built yet has parameters not compiled yet
        # (the compile's memo is every parameter's value, the pool's a part of them).
        c = compile_check(self.plan, self._prepared, self._written_check, p)
        if c.keep:   # keeping the best or worst: extra dice rolled (counts copied, then added to)
            counts = dict(c.counts)
            kept = self._kept(c, counts, p)
        else:   # every die rolled stays (the usual): the counts as compiled, read only
            counts, kept = c.counts, None
        self._checked_size(c, counts, p)
        written = self._written_check
        if self._all_written is not None and c.faces is written.faces and c.shift is written.shift \
                and c.cancel is written.cancel and c.explode is written.explode:   # the dice as written
            rolled = [counts[name] for name in self._written_names]
            groups, dice_key = tuple(zip(self._written_dice, rolled)), (_WRITTEN, *rolled)
        else:
            made: dict[str, Die] = {}
            groups = tuple((Percentile(name, extra=c.tens[name]) if spec.percentile
                            else self._die(name, c, made, p), counts[name])
                           for name, spec in self.model.dice.items())
            dice_key = groups
        again = self._reroll_faces(c, p) if c.again else None
        stats, total, values = (), None, ()
        if self.statistics is not None:
            in_roll = counts if kept is None else {**counts, kept.dice: kept.take}
            stats, total, values = self.statistics.describe(self.system_id, p, in_roll)
        if self.reads_all_negative:
            stats = (*stats, self._all_negative)
        ceiling, roll_again = self.model.ceiling, self._roll_again
        # One object per distinct roll: settings that roll the same dice (a die penalty and a
        # smaller pool) share it, built and checked once, and the engine's memo finds it
        # without comparing rolls. The total, the ceiling and rolling again are the file's
        # (the same in every roll), and so are the statistics when they equal the file's; the
        # dice as the file writes them are known by their counts.
        if stats == self._file_stats:
            stats, stats_key = self._file_stats, _FILE_STATS
        else:
            stats_key = stats
        key = (dice_key, stats_key, c.modifier, c.floor,
               tuple(sorted(values.items())) if values else (), c.rerolls, kept, again)
        found = self._distinct.get(key)
        if found is not None:
            return found
        try:
            spec = RollSpec.of_parts(groups, stats, total, c.modifier, c.floor, ceiling, values, c.rerolls,
                                     kept, again, roll_again, self._statistics_checked)
        except WorkbenchError as exc:  # a combination the vocabulary cannot roll
            blamed = c.reroll_sources if c.rerolls else []
            if blamed:
                self.plan.refuse(blamed[0][0], p, blamed[0][1], f"0 with these dice: {exc}")
            raise WorkbenchError(f"{self.system_id} ({self.source}): with these parameters, {exc}") from None
        return self._distinct.keep(key, spec)
