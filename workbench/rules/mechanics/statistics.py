"""What a pool file says beyond a sum: counts, statistics, a total, a ceiling and conditions.

A ``mechanic = "pool"`` file that declares any of ``counts``, ``[stats.NAME]``, ``total``,
``ceiling``, ``pass_if``, a tier ``condition`` or a ``percentile`` die is rolled by the roll
engine (:class:`~workbench.rules.roll.RollSpec`); a file without them keeps the seeds' fast
path (:class:`~workbench.rules.pool.PoolSpec`). This module checks those keys once, when the
file is loaded (every name in every expression must exist: a misspelt name is a load error
naming the file and the entry), and turns them into a ``RollSpec`` for given parameters.

Names an expression may read:

- a die's ``counts`` expressions: ``face`` (the face's number, 1 first), ``value`` (what the
  face shows) and the whole-number and true/false parameters;
- a statistic's ``count`` and an effect's ``points``: the parameters;
- a statistic's ``score`` and ``sum``: one die's ``value`` and counts;
- ``total``: the counts, the statistics that are not expressions, the parameters;
- a statistic's ``expression``: the total, the counts, every other statistic that is not an
  expression and those expressions listed before it, the parameters;
- ``pass_if`` and tier conditions: all of the above.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping

from ...errors import DataFileError, ParameterError, WorkbenchError
from ..expressions import KEYWORDS, Expression, ExpressionError, evaluate_numbers, parse
from ..roll import (ALL_NEGATIVE, Beats, Derived, Keep, LargestSet, Pairs, Pick, Sets, Sum, before_total)
from ...validation import suggest
from .._entries import effects_of, names as _names, numeric, word_choices

if TYPE_CHECKING:  # a system read back from the cache runs without the schema (pydantic)
    from ..schema import PoolFile


class Statistics:
    """The checked, parsed statistics and conditions of one pool file."""

    def __init__(self, model: PoolFile, params: Mapping[str, Any], source: object):
        self.model, self.source = model, source
        # Expressions read numbers: whole-number and true/false parameters, and choices that
        # are all whole numbers (e.g. a divisor 1, 2 or 5).
        self.readable = [name for name, spec in model.params.items() if numeric(spec)]
        self.choices = [name for name, spec in model.params.items() if not numeric(spec)]
        # Choices that are words: read only compared with one of them (mode == "middle").
        self.texts = word_choices(model)
        self.counts = list(dict.fromkeys(c for die in model.dice.values() for c in die.counts))
        self.base = [n for n, s in model.stats.items() if s.kind != "expression"]
        self.derived = [n for n, s in model.stats.items() if s.kind == "expression"]
        self._parsed: dict[tuple, Expression] = {}
        self._check_names()
        self._check_passing()
        self._check_dice()
        self._check_statistics()
        self.total = self._total(model.total) if model.total else None
        everything = ["total", *self.counts, *self.base, *self.derived, *self.readable]
        conditions = [n for n in self.derived if self._expression(
            f"stats.{n}.expression", model.stats[n].expression, everything).kind == "bool"]
        self.flags = conditions   # true/false statistics: a condition may name them alone
        self.pass_if = self._expression("pass_if", model.pass_if, everything, "bool", conditions) \
            if model.pass_if else None
        self.conditions = {
            tier.condition: self._expression(f"tiers[{i}].condition", tier.condition, everything, "bool",
                                             conditions)
            for i, tier in enumerate(model.tiers) if tier.condition}
        # Conditions of rerolls by face (a push): over the first roll, before it passes.
        rolled = ["total", *self.counts, *self.base, *self.derived, *self.readable]
        self.roll_conditions = {
            effect.if_roll: self._expression(f"{where}.if_roll", effect.if_roll, rolled, "bool", conditions)
            for where, effect in effects_of(model) if effect.if_roll}
        self.again_if = self._expression("again_if", model.again_if, rolled, "bool", conditions) \
            if model.again_if else None
        self.reads = self._parameters_read()
        self.readable_read = [name for name in self.readable if name in self.reads]
        self.texts_read = [(name, choices) for name, choices in self.texts.items() if name in self.reads]
        # What describe() puts in every roll, worked out once: each statistic's kind (a
        # property that looks through the entry), the counts of a face's number, and the
        # statistics that read no parameter and no number of dice (the same in every roll).
        self.kinds = {name: stat.kind for name, stat in model.stats.items()}
        self.by_face = self._counts_by_face()
        self.fixed = {name: self._statistic(name, model.stats[name], {}, {}) for name in self.base
                      if self.kinds[name] != "drop" and not any(
                          isinstance(getattr(model.stats[name], modifier), str)
                          for modifier in ("count", "skip", "position"))}
        self.fixed_derived = tuple(
            Derived(name, self._expression(f"stats.{name}.expression", model.stats[name].expression,
                                           ["total", *self.counts, *self.base, *self.derived[:i], *self.readable]))
            for i, name in enumerate(self.derived))
        # Every statistic of a roll, when none reads a parameter or the dice rolled: the same
        # tuple in every roll (None: describe() builds each roll's).
        self.fixed_stats = (*(self.fixed[name] for name in self.base), *self.fixed_derived) \
            if all(name in self.fixed for name in self.base) else None

    # -- checking -----------------------------------------------------------------------------
    def _fail(self, where: str, problem: str):
        raise DataFileError(self.source, where, problem)

    def _expression(self, where, text, known, want="whole", conditions=()) -> Expression:
        key = (text, tuple(known), want, tuple(conditions))
        if key not in self._parsed:
            try:
                self._parsed[key] = parse(text, known=[*known, *self.texts], want=want,
                                          conditions=conditions, texts=self.texts)
            except ExpressionError as exc:
                self._fail(where, exc.problem)
        return self._parsed[key]

    def _check_names(self) -> None:
        # A statistic named `true` read as the constant (pass_if = "true" always passed), one
        # named `and` could not be read at all: the language's words are no names.
        word = ("a word of the expressions (" + ", ".join(KEYWORDS) + "), so an expression "
                "could not read it")
        for name in self.readable:
            if name in KEYWORDS:
                self._fail(f"params.{name}", f"the name {name!r} is {word}; choose another")
        taken = {"total": "the total", "face": "a die's face", "value": "a die's value",
                 **{keyword: word for keyword in KEYWORDS}}
        for name in self.model.params:
            taken.setdefault(name, "a parameter")
        if any(tier.all_negative is not None for tier in self.model.tiers):
            taken[ALL_NEGATIVE] = "the statistic all_negative tiers read"
        for die_name, die in self.model.dice.items():
            for count in die.counts:
                self._readable_name(f"dice.{die_name}.counts.{count}", count)
                if count in taken and taken[count] != "a count":
                    self._fail(f"dice.{die_name}.counts.{count}",
                               f"the name {count!r} is already {taken[count]}; choose another")
                taken[count] = "a count"
        for name in self.model.stats:
            self._readable_name(f"stats.{name}", name)
            if name in taken:
                self._fail(f"stats.{name}", f"the name {name!r} is already {taken[name]}; choose another")
            taken[name] = "a statistic"

    def _readable_name(self, where: str, name: str) -> None:
        """Counts and statistics are read by expressions (and ``.probability``) by name."""
        if not _NAME.fullmatch(name):
            self._fail(where, f"the name {name!r} cannot be read by an expression; allowed: "
                       "letters A-Z and a-z, digits and _, not starting with a digit")

    def _check_passing(self) -> None:
        """With ``pass_if``, that condition alone says what passes: an ``add_to_target`` (which
        no expression can read) or a target it never reads would change nothing. Such files
        reported P(pass) without them: a Hard +2 to the target left the odds unchanged."""
        if not self.model.pass_if:
            return
        read, todo = set(), [self.model.pass_if]
        while todo:   # what pass_if reads, through the statistics and the total it names
            for word in _words(todo.pop()) - read:
                read.add(word)
                stat = self.model.stats.get(word)
                todo += [stat.expression] if stat is not None and stat.kind == "expression" else []
                todo += [self.model.total] if word == "total" and self.model.total else []
        for name, spec in self.model.params.items():
            effects = [(f"params.{name}.effect[{i}]", e) for i, e in enumerate(spec.effect)]
            effects += [(f"params.{name}.on.{choice}.effect[{i}]", e)
                        for choice, sub in spec.on.items() for i, e in enumerate(sub.effect)]
            for where, effect in effects:
                if effect.verb == "add_to_target":
                    self._fail(f"{where}.add_to_target", "pass_if says what passes and cannot read "
                               "what add_to_target adds, so the effect would change nothing; allowed: "
                               "a parameter pass_if reads (e.g. pass_if = \"total >= target + hard * 2\"), "
                               "or no pass_if (a pass is then total >= the target)")
                if effect.verb in ("target", "obstacle") and name not in read:
                    self._fail(f"{where}.{effect.verb}", f"pass_if ({self.model.pass_if!r}) says what "
                               f"passes and does not read {name!r}, so the effect would change nothing; "
                               f"allowed: read it in pass_if (e.g. \"total >= {name}\"), or no pass_if")

    def _check_dice(self) -> None:
        for name, die in self.model.dice.items():
            for count, scores in die.counts.items():
                if isinstance(scores, str):
                    self._expression(f"dice.{name}.counts.{count}", scores, ["face", "value", *self.readable])

    def _check_statistics(self) -> None:
        dice, scores = self.model.dice, ["value", *self.counts]
        for name, stat in self.model.stats.items():
            where = f"stats.{name}"
            for part in ("dice", stat.kind if stat.kind in ("beats", "pairs") else None):
                for die in (_names(getattr(stat, part)) if part and getattr(stat, part) is not None else ()):
                    if die not in dice:
                        self._fail(f"{where}.{part}", f"unknown die type {die!r}{suggest(die, dice)}; "
                                   f"declared: {', '.join(dice)}")
            if stat.kind in ("sum", "keep", "drop"):
                text = stat.sum if stat.kind == "sum" else stat.score
                if text not in scores:
                    self._expression(f"{where}.{'sum' if stat.kind == 'sum' else 'score'}", text, scores)
            for modifier in ("count", "skip", "position"):
                if modifier in stat.model_fields_set and isinstance(getattr(stat, modifier), str):
                    self._expression(f"{where}.{modifier}", getattr(stat, modifier), self.readable)
            if stat.kind in ("beats", "pairs") and set(_names(stat.dice)) & set(_names(getattr(stat, stat.kind))):
                self._fail(f"{where}.dice", "the two sides must be different die types")
        done = ["total", *self.counts, *self.base]
        for name in self.derived:
            self._expression(f"stats.{name}.expression", self.model.stats[name].expression,
                             [*done, *self.readable])
            done.append(name)

    def _total(self, text: str) -> Expression:
        """The total's expression: over the counts, the statistics from the dice, the derived
        statistics that do not read the total themselves, and the parameters."""
        early = before_total([Derived(name, self._expression(
            f"stats.{name}.expression", self.model.stats[name].expression,
            ["total", *self.counts, *self.base, *self.derived[:i], *self.readable]))
            for i, name in enumerate(self.derived)])
        circle = [name for name in _words(text) if name in self.derived and name not in early]
        if circle:
            self._fail("total", f"reads {circle[0]!r}, which reads the total (a circle); the total may "
                       "read the statistics that do not read it")
        return self._expression("total", text, [*self.counts, *self.base, *early, *self.readable])

    def _parameters_read(self) -> set[str]:
        """Parameters the dice or the statistics depend on (conditions only say what passes)."""
        texts = [s for d in self.model.dice.values() for s in d.counts.values() if isinstance(s, str)]
        texts += [getattr(s, modifier) for s in self.model.stats.values()
                  for modifier in ("count", "skip", "position") if isinstance(getattr(s, modifier), str)]
        texts += [s.expression for s in self.model.stats.values() if s.expression]
        texts += [self.model.total] if self.model.total else []
        texts += [self.model.again_if] if self.model.again_if else []
        texts += [effect.if_roll for _, effect in effects_of(self.model) if effect.if_roll]
        return {name for text in texts for name in _words(text) if name in self.model.params}

    def roll_condition(self, text: str) -> Expression:
        """A reroll's ``if_roll``, parsed and checked when the file was loaded."""
        return self.roll_conditions[text]

    # -- building a roll ------------------------------------------------------------------
    def values(self, p: Mapping[str, Any], names) -> dict[str, int]:
        """The parameters ``names`` as whole numbers (true/false as 1/0) for expressions."""
        out = {}
        readable = self.readable if names is self.readable else set(self.readable)
        for name in names:
            if names is readable or name in readable:
                value = p[name]
                out[name] = None if value is None else int(value)
        for name, choices in self.texts.items():   # read as the choice's position
            if name in p:
                out[name] = None if p[name] is None else list(choices).index(p[name])
        return out

    def describe(self, system_id: str, p: Mapping[str, Any], rolled: Mapping[str, int]):
        """``(stats, total, values)`` of one check: the file's statistics (``rolled``: dice
        of each type in the roll, after any are set aside by keeping), its total expression
        and the parameters they read."""
        read = {}   # the parameters the statistics read, in order: numbers, then word choices
        for name in self.readable_read:
            value = p[name]
            read[name] = None if value is None else int(value)
        for name, choices in self.texts_read:
            if name in p:
                read[name] = None if p[name] is None else list(choices).index(p[name])
        stats = self.fixed_stats
        if stats is None:
            fixed = self.fixed
            stats = [fixed[name] if name in fixed else self._statistic(name, self.model.stats[name], p, rolled)
                     for name in self.base]
            stats = (*stats, *self.fixed_derived)
        missing = [name for name, v in read.items() if v is None]
        if missing:
            raise ParameterError(system_id, missing[0], None, "a value: this system's statistics read it")
        return stats, self.total, read

    def _counts_by_face(self) -> dict[tuple[str, str], tuple[int, ...]]:
        """The counts written as expressions of the face's number alone (``"face == 1"``), for
        each face of the die as declared: they do not change from check to check."""
        found = {}
        for name, die in self.model.dice.items():
            for count, scores in die.counts.items():
                if isinstance(scores, str) and not die.percentile:
                    expression = self._expression(f"dice.{name}.counts.{count}", scores,
                                                  ["face", "value", *self.readable])
                    if set(expression.names) <= {"face"}:
                        try:
                            found[name, count] = tuple(int(evaluate_numbers(expression, {"face": face}))
                                                       for face in range(1, len(die.face_values) + 1))
                        except WorkbenchError:   # (a division by zero) said by each check, as before
                            pass
        return found

    def die_counts(self, name: str, faces, p: Mapping[str, Any]) -> dict[str, list[int]]:
        """What each face of die type ``name`` counts, its values being ``faces``."""
        spec = self.model.dice[name]
        names = None
        out = {}
        for count, scores in spec.counts.items():
            if isinstance(scores, list):
                out[count] = scores
                continue
            by_face = self.by_face.get((name, count))
            if by_face is not None and len(by_face) == len(faces):
                out[count] = by_face
                continue
            expression = self._expression(f"dice.{name}.counts.{count}", scores, ["face", "value", *self.readable])
            if names is None:
                names = self.values(p, self.readable)
            scored = []
            try:   # a score past 1e9 is named here, not later as a table too large
                for face, value in enumerate(faces, start=1):   # one face after another, in one mapping
                    names["face"], names["value"] = face, value
                    scored.append(int(evaluate_numbers(expression, names)))
            except WorkbenchError as exc:
                self._fail(f"dice.{name}.counts.{count}", str(exc))
            out[count] = scored
        return out

    def _number(self, name: str, modifier: str, given, p: Mapping[str, Any]) -> int:
        """A statistic's ``count``, ``skip`` or ``position``: a whole number, or an expression
        over the parameters worked out for this check (below the least allowed: the least)."""
        if isinstance(given, int):
            return given
        expression = self._expression(f"stats.{name}.{modifier}", given, self.readable)
        return _scalar(expression, self.values(p, self.readable))

    def _statistic(self, name: str, stat, p: Mapping[str, Any], groups):
        dice = tuple(_names(stat.dice)) if stat.dice is not None else ()
        kind = self.kinds[name]
        scores = ["value", *self.counts]
        if kind in ("sum", "keep", "drop"):   # a score written as an expression: parsed at load
            text = stat.sum if kind == "sum" else stat.score
            parsed = None if text in scores else self._expression(
                f"stats.{name}.{'sum' if kind == 'sum' else 'score'}", text, scores)
        if kind == "sum":
            return Sum(name, score=stat.sum, dice=dice, parsed=parsed)
        if kind in ("keep", "drop"):
            take = self._number(name, "count", stat.count, p)
            if kind == "keep":
                skip = self._number(name, "skip", stat.skip, p)
                return Keep(name, take=max(int(take), 0), order=stat.keep, skip=max(skip, 0), dice=dice,
                            score=stat.score, parsed=parsed)
            # Dropping the k lowest keeps the n - k highest (n: the dice the statistic reads).
            rolled = sum(groups[d] for d in (dice or groups))
            return Keep(name, take=max(rolled - int(take), 0), order="lowest" if stat.drop == "highest"
                        else "highest", dice=dice, score=stat.score, parsed=parsed)
        if kind == "pick":
            position = self._number(name, "position", stat.position, p)
            return Pick(name, order=stat.pick, position=max(position - 1, 0), dice=dice)
        if kind == "beats":
            return Beats(name, dice, tuple(_names(stat.beats)))
        if kind == "pairs":
            return Pairs(name, dice, tuple(_names(stat.pairs)), ties="dice" if stat.ties == "win" else "against")
        if kind == "largest_set":
            return LargestSet(name, report=stat.largest_set, dice=dice)
        return Sets(name, size=stat.sets, dice=dice)


_POINTS: dict[str, Expression] = {}
"""Effects' ``points`` expressions, parsed once."""


def effect_points(texts: Mapping[str, tuple], system_id: str, name: str, points, p) -> int:
    """An effect's ``points``: a whole number, or an expression over the parameters
    (``texts``: the parameters whose choices are words, with their choices)."""
    if isinstance(points, int):
        return points
    key = (points, tuple(texts.items()))
    if key not in _POINTS:
        _POINTS[key] = parse(points, texts=texts)
    values = {k: (None if v is None else int(v)) for k, v in p.items()
              if isinstance(v, (bool, int)) or v is None}
    values.update({k: (None if p.get(k) is None else list(choices).index(p[k]))
                   for k, choices in texts.items() if k in p})
    try:
        return int(evaluate_numbers(_POINTS[key], values))
    except WorkbenchError as exc:
        raise ParameterError(system_id, name, p[name], f"a value for which {exc}") from None


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _words(text: str) -> set[str]:
    return set(_NAME.findall(text or ""))


def _scalar(expression: Expression, names: Mapping[str, Any]) -> int:
    """An expression over parameters (and a face): a whole number."""
    return int(evaluate_numbers(expression, names))
