"""Erzählspiel: one narrative die (or d6s kept high/low) read as YES/NO outcomes."""
from __future__ import annotations

from ...errors import DataFileError, ParameterError
from ..params import Param
from ..pool import DieType, PoolSpec
from .base import Mechanic


class NarrativeDie(Mechanic):
    """Dice whose faces are outcome labels, chosen by colour or by net advantage.

    Constants: ``outcomes`` (labels worst to best), ``pass_from`` (first passing label),
    ``default_die``, ``dice`` (table colour -> six face labels, face 1 first, listed worst
    die to best), ``d6_faces`` (the regular-dice variant), ``spectrum`` (the |advantage|
    bounds of the spectrum ladder's steps).
    """

    kind = "narrative"
    pure = True

    def __init__(self, system_id: str, constants, source: object):
        """``constants``: the validated ``[constants]`` table (:class:`~..schema.NarrativeConstants`)."""
        self.system_id, self.source = system_id, source
        self.labels = tuple(constants.outcomes)
        self.pass_from = constants.pass_from
        self.colours = dict(constants.dice)
        self.default_die = constants.default_die
        self.d6_faces = list(constants.d6_faces)
        self.spectrum = list(constants.spectrum)
        for name, faces in [*self.colours.items(), ("d6_faces", self.d6_faces)]:
            bad = [f for f in faces if f not in self.labels]
            if bad or not faces:
                raise DataFileError(self.source, f"constants.dice.{name}",
                                    f"faces must be outcome labels {list(self.labels)}; got {bad or 'none'}")
        for key, value in (("pass_from", self.pass_from), ("default_die", self.default_die)):
            if value not in (self.labels if key == "pass_from" else self.colours):
                raise DataFileError(self.source, f"constants.{key}", f"unknown: {value!r}")
        self.order = tuple(self.colours)
        self.home = self.order.index(self.default_die)

    def params(self):
        return (
            Param("die", "choice", None, choices=self.order, optional=True,
                  help="die colour (default: chosen by advantage)"),
            Param("advantage", "int", 0, -100, 100,
                  help=f"net advantage level: 0 {self.default_die}, +1/+2 up, -1/-2 down"),
            Param("ladder", "choice", "steps", choices=("steps", "spectrum"), rule_option=True,
                  help="advantage to die: one step per level, or the later spectrum chart"),
            Param("dice", "choice", "narrative", choices=("narrative", "d6"), rule_option=True,
                  help="coloured narrative dice, or regular d6s kept highest/lowest"),
        )

    def cross_check(self, p):
        if p["die"] is not None and p["advantage"] != 0:
            raise ParameterError(self.system_id, "advantage", p["advantage"],
                                 "0 when a die colour is given (give die or advantage, not both)")

    def level(self, p) -> int:
        """Steps above (or below) the default die."""
        if p["die"] is not None:
            return self.order.index(p["die"]) - self.home
        adv = p["advantage"]
        if p["ladder"] == "spectrum":
            low, high = self.spectrum
            steps = 0 if abs(adv) <= low else (1 if abs(adv) <= high else 2)
            adv = steps if adv > 0 else -steps
        return max(-self.home, min(adv, len(self.order) - 1 - self.home))

    def pool(self, p):
        level = self.level(p)
        if p["dice"] == "d6":
            values = tuple(self.labels.index(f) for f in self.d6_faces)
            count = 1 + min(abs(level), 2)
            keep = "sum" if level == 0 else ("highest" if level > 0 else "lowest")
            return PoolSpec(((DieType("d6", values), count),), keep=keep)
        colour = self.order[self.home + level]
        values = tuple(self.labels.index(f) for f in self.colours[colour])
        return PoolSpec(((DieType(colour, values), 1),))

    def extra(self, p):
        level = self.level(p)
        if p["dice"] == "d6":
            return {"rolled": f"{1 + min(abs(level), 2)}d6" + ("" if level == 0 else
                                                               " keep " + ("highest" if level > 0 else "lowest"))}
        return {"rolled": self.order[self.home + level]}
