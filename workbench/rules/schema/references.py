"""Checks of a pool file across its entries, once every entry has passed the schema on its own.

The schema's models check each table alone (its keys, types and ranges). What one entry says
about another is checked here, in this order: die faces written as outcome labels; die types
that explosions roll (declared, and chains that end); parameters and their effects (names that
are no keyword, the die types an effect names, faces within the die, a target read from a
whole number, ``when`` values the parameter allows, the effects only a roll with statistics
has); the tiers' ``when`` values, then tiers that name every roll; ``[[cancel_out]]`` and
``[shorthand]`` over parameters of the right kind.

Each problem is a :class:`~workbench.errors.DataFileError` naming the file, the entry as a
dotted path and what is allowed (``data/README.md`` documents every key).

Example:
    >>> from workbench.rules.schema import validate
    >>> validate({"id": "x", "name": "X", "mechanic": "pool", "dice": {"d6": {"sides": 6}},
    ...           "params": {"dice": {"default": 1, "effect": {"add_dice": "d8"}}}}, "x.toml")
    Traceback (most recent call last):
    ...
    workbench.errors.DataFileError: x.toml: entry 'params.dice.effect[0].add_dice': unknown die type 'd8'; declared: d6
"""
from __future__ import annotations

from typing import Any

from ...errors import DataFileError, ParameterError
from ...validation import suggest
from .._entries import declared_params, face_values, labels_of, names, numeric, word_choices
from ..expressions import ExpressionError, parse
from ..params import RESERVED
from .tier_coverage import check_coverage

FACE_VERBS = ("explode", "cancel", "reroll")
"""Effects whose argument is a list of faces (each must be a face of the dice it acts on)."""


def check_references(model, source: object) -> None:
    """Check a validated pool file's entries against each other (see the module's
    description); the first problem is raised as a :class:`DataFileError`."""
    _References(model, source).check()


class _References:
    """One pool file being checked: its declared parameters and labels, read once."""

    def __init__(self, model, source: object):
        self.model, self.source = model, source
        self.dice, self.params = model.dice, model.params
        self.labels = labels_of(model)
        self.declared = declared_params(model)

    def fail(self, where: str, problem: str):
        raise DataFileError(self.source, where, problem)

    def check(self) -> None:
        for name, die in self.dice.items():
            if not die.percentile:
                face_values(die.face_values, self.labels, self.source, f"dice.{name}.faces")
        for name, die in self.dice.items():
            self._explosions(name, die)
        for name, spec in self.params.items():
            self._parameter(name, spec)
        for i, tier in enumerate(self.model.tiers):
            self._when(f"tiers[{i}].when", tier.when)
        check_coverage(self.model.tiers, self.declared,
                       lambda key, value: self.declared[key].parse(self.model.id, value),
                       self._negative_faces(), self.fail)
        for i, rule in enumerate(self.model.cancel_out):
            for key in rule.params:
                if key not in self.params or self.params[key].kind != "int":
                    self.fail(f"cancel_out[{i}].params", f"{key!r} is not a whole-number parameter")
            self._when(f"cancel_out[{i}].when", rule.when)
        for name, short in self.model.shorthand.items():
            self._shorthand(name, short)

    # -- names ------------------------------------------------------------------------------
    def _dice_named(self, where: str, dice) -> None:
        for name in dice:
            if name not in self.dice:
                self.fail(where, f"unknown die type {name!r}{suggest(name, self.dice)}; declared: "
                          f"{', '.join(self.dice)}")

    def _when(self, where: str, when) -> None:
        """A ``when`` table: known parameters, each value one the parameter allows."""
        params = self.params
        for key, value in when.items():
            if key not in params:
                self.fail(f"{where}.{key}", f"unknown parameter{suggest(key, params)}; known: {', '.join(params)}")
            for v in value if isinstance(value, list) else [value]:
                try:
                    self.declared[key].parse(self.model.id, v)
                except ParameterError as exc:
                    self.fail(f"{where}.{key}", f"got {v!r}; allowed: {exc.allowed}")

    # -- dice -------------------------------------------------------------------------------
    def _explosions(self, name: str, die) -> None:
        """The die type explosions roll exists, chains of them end, and some face does not
        explode (or a limit or another die ends the chain)."""
        dice = self.dice
        if die.explode_into is not None:
            self._dice_named(f"dice.{name}.explode_into", [die.explode_into])
            seen, current = {name}, die.explode_into
            while dice[current].explode_into not in (None, current):
                if current in seen:
                    self.fail(f"dice.{name}.explode_into", "explosions loop between die types; "
                              "a die may explode into itself or into a chain that ends")
                seen.add(current)
                current = dice[current].explode_into
        if len(set(die.explode)) == die.face_count and not die.explode_limit and die.explode_into in (None, name):
            self.fail(f"dice.{name}.explode", "every face explodes, so a roll never ends "
                      "(leave a face out or set explode_limit)")

    def _negative_faces(self) -> bool:
        """Whether some die can show a negative face (then "all initial dice negative" rolls
        exist and need tiers too)."""
        tables = [face_values(die.face_values, self.labels, self.source, f"dice.{name}.faces")
                  for name, die in self.dice.items() if not die.percentile]
        tables += [face_values(faces, self.labels, self.source, "on") for spec in self.params.values()
                   for sub in spec.on.values() for faces in sub.faces.values()]
        cancels = any(e.verb in ("cancel", "cancel_up_to") for spec in self.params.values()
                      for e in [*spec.effect, *(e for sub in spec.on.values() for e in sub.effect)])
        return cancels or any(v < 0 for table in tables for v in table)

    # -- parameters and their effects -------------------------------------------------------
    def _parameter(self, name: str, spec) -> None:
        if name in RESERVED:
            self.fail(f"params.{name}", "has the name of a keyword of the workbench's own "
                      f"functions; allowed: any other name (not {', '.join(RESERVED)})")
        effects = [(f"params.{name}.effect[{i}]", e) for i, e in enumerate(spec.effect)]
        for choice, sub in spec.on.items():
            self._choice_faces(f"params.{name}.on.{choice}.faces", sub.faces)
            effects += [(f"params.{name}.on.{choice}.effect[{i}]", e) for i, e in enumerate(sub.effect)]
        if spec.kind == "choice" and spec.effect:
            self.fail(f"params.{name}.effect", "a choice parameter acts through 'on' (what each choice does)")
        for where, effect in effects:
            self._effect(where, effect, spec)

    def _choice_faces(self, where: str, faces) -> None:
        """A choice's ``faces``: a table of the right length for a declared, numbered die."""
        dice = self.dice
        for die, table in faces.items():
            self._dice_named(where, [die])
            if dice[die].percentile:
                self.fail(f"{where}.{die}", "a percentile die has no face table")
            if len(table) != dice[die].face_count:
                self.fail(f"{where}.{die}", f"{len(table)} faces, but the die has {dice[die].face_count}")
            face_values(table, self.labels, self.source, f"{where}.{die}")

    def _effect(self, where: str, effect, spec) -> None:
        dice, verb = self.dice, effect.verb
        self._roll_effect(where, effect)
        if verb in ("add_dice", "keep_highest", "keep_lowest", "tens_dice"):
            self._dice_named(f"{where}.{verb}", [effect.argument])
        elif verb in ("shift_faces", "explode_from", "cancel_up_to"):
            self._dice_named(f"{where}.{verb}", names(effect.argument))
        if effect.dice is not None:
            self._dice_named(f"{where}.dice", names(effect.dice))
        for die in names(effect.dice) if effect.dice is not None else dice:
            if dice[die].percentile and verb in FACE_VERBS and effect.dice is None:
                continue
            for face in effect.argument if verb in FACE_VERBS else ():
                if not 1 <= face <= dice[die].face_count:
                    self.fail(f"{where}.{verb}", f"face {face}, but {die} has faces 1 to {dice[die].face_count}")
        if verb in ("target", "obstacle") and spec.kind != "int":
            self.fail(f"{where}.{verb}", "needs a whole-number parameter (its value is the target)")
        self._when(f"{where}.when", effect.when)

    def _roll_effect(self, where: str, effect) -> None:
        """What only a roll with statistics reads (``points`` written as an expression), and
        what a percentile die allows (only ``add_dice`` and ``tens_dice`` act on it)."""
        dice, verb = self.dice, effect.verb
        if isinstance(effect.points, str):
            readable = [n for n, spec in self.params.items() if numeric(spec)]
            texts = word_choices(self.model)
            try:
                parse(effect.points, known=[*readable, *texts], want="whole", texts=texts)
            except ExpressionError as exc:
                raise DataFileError(self.source, f"{where}.points", exc.problem) from None
        if verb == "tens_dice" and effect.argument in dice and not dice[effect.argument].percentile:
            self.fail(f"{where}.tens_dice", f"{effect.argument!r} is not a percentile die (declare it "
                      "with percentile = true)")
        named = [effect.argument] if verb in ("keep_highest", "keep_lowest") else (
            names(effect.argument) if verb in ("shift_faces", "explode_from", "cancel_up_to") else
            (names(effect.dice) if effect.dice is not None and verb in ("explode", "cancel") else []))
        for die in named:
            if die in dice and dice[die].percentile:
                self.fail(f"{where}.{verb}", f"{die!r} is a percentile die: only add_dice and "
                          "tens_dice act on it")

    def _shorthand(self, name: str, short: Any) -> None:
        params = self.params
        if name in params:
            self.fail(f"shorthand.{name}", "is already a parameter's name")
        if short.choice not in params or params[short.choice].kind != "choice":
            self.fail(f"shorthand.{name}.choice", f"{short.choice!r} is not a choice parameter")
        if short.count not in params or params[short.count].kind != "int":
            self.fail(f"shorthand.{name}.count", f"{short.count!r} is not a whole-number parameter")
