"""Arrata: Quality sets the success face, Advantage opens the roll, Disadvantage bites on 1s."""
from __future__ import annotations

import re

from ...errors import ParameterError
from ..params import Param
from ..pool import DieType, PoolSpec
from .base import MAX_DICE, Mechanic

STAT = re.compile(r"^\s*([BASbas])\s*(\d+)\s*$")


class OpenEndedPool(Mechanic):
    """Quality B/A/S succeeds on 4+/3+/2+; open-ended 6s add a die; 1s cancel under Disadvantage.

    Constants: ``qualities`` (table quality -> success face), ``sides`` (6), ``explode_on``
    (6), ``ties`` (``"actor"``: the defender's successes are the actor's Ob).
    """

    kind = "open_ended"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = self.constant("sides", 6, minimum=2)
        self.explode_on = self.constant("explode_on", 6, minimum=2)
        self.qualities = self.constant("qualities", {"B": 4, "A": 3, "S": 2}, kind=dict)
        self.ties = self.constant("ties", "actor", kind=str)

    def params(self):
        return (
            Param("quality", "choice", "B", choices=tuple(self.qualities),
                  help="success face: " + ", ".join(f"{q} {f}+" for q, f in self.qualities.items())
                       + "; stat notation such as B5 also sets dice"),
            Param("dice", "int", 0, 0, MAX_DICE, help="Quantity: d6s rolled"),
            Param("advantage", "int", 0, 0, MAX_DICE, help="level 1 opens the roll; +1D per level past it"),
            Param("disadvantage", "int", 0, 0, MAX_DICE, help="level 1: 1s cancel; -1D per level past it"),
            Param("ob", "int", None, 0, MAX_DICE, optional=True, help="Obstacle: successes needed"),
            Param("disadvantage_mode", "choice", "dice", choices=("dice", "obstacle"),
                  rule_option=True, help="levels past the first: -1D (dice) or +1 Ob (obstacle)"),
            Param("allow_negative", "bool", False, rule_option=True,
                  help="let 1s push net successes below zero"),
            Param("combine", "choice", "independent", choices=("independent", "net"),
                  rule_option=True, help="advantage and disadvantage both apply, or cancel level for level"),
        )

    def preprocess(self, given):
        """Accept ``stat="B5"`` or ``quality="B5"``: Quality and Quantity in one."""
        given = dict(given)
        for key in ("stat", "quality"):
            value = given.get(key)
            match = STAT.match(value) if isinstance(value, str) else None
            if key == "stat" and value is not None and not match:
                raise ParameterError(self.system_id, "stat", value,
                                     "Quality letter and Quantity, such as B5, A4, S10")
            if match:
                quality, dice = match.group(1).upper(), int(match.group(2))
                if "dice" in given and str(given["dice"]).strip() != str(dice):
                    raise ParameterError(self.system_id, "dice", given["dice"],
                                         f"{dice}, as {value} says, or leave dice out")
                if key == "stat" and str(given.get("quality", quality)).strip().upper() != quality:
                    raise ParameterError(self.system_id, "quality", given["quality"],
                                         f"{quality}, as stat={value} says, or leave quality out")
                given.pop("stat", None)
                given["quality"], given["dice"] = quality, dice
        return given

    def levels(self, p):
        adv, dis = p["advantage"], p["disadvantage"]
        if p["combine"] == "net":
            adv, dis = max(adv - dis, 0), max(dis - adv, 0)
        return adv, dis

    def extra_obstacle(self, p) -> int:
        _, dis = self.levels(p)
        return max(dis - 1, 0) if p["disadvantage_mode"] == "obstacle" else 0

    def pool(self, p):
        adv, dis = self.levels(p)
        dice = p["dice"] + max(adv - 1, 0)
        if p["disadvantage_mode"] == "dice":
            dice = max(dice - max(dis - 1, 0), 0)
        die = DieType.threshold(f"d{self.sides}", self.sides, self.qualities[p["quality"]],
                                fail_to=1 if dis >= 1 else 0,
                                explode_from=self.explode_on if adv >= 1 else 0)
        return PoolSpec(((die, dice),), floor=None if p["allow_negative"] else 0)

    def target(self, p):
        return None if p["ob"] is None else p["ob"] + self.extra_obstacle(p)

    def versus_ties(self, p):
        return self.ties

    def versus_extra_obstacle(self, p):
        return self.extra_obstacle(p)

    def extra(self, p):
        return {"effective_ob": self.target(p)}
