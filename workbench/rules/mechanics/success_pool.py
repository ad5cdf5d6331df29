"""UWR / HKRPG and FoNS: d6 pools counting faces at or above a favor-shifted threshold."""
from __future__ import annotations

from ..params import Param
from ..pool import DieType, PoolSpec
from .base import MAX_DICE, Mechanic


class SuccessPool(Mechanic):
    """Count dice at or above ``threshold - favor``; rerolls of failed dice; die penalty.

    Constants (data file): ``sides`` (6), ``threshold`` (5: the face that succeeds at favor
    0), ``explode_on`` (0: never; else faces at or above it roll again), ``ties`` (who wins
    a tied opposed check: ``"reactor"`` in UWR and FoNS).
    """

    kind = "success_pool"
    optional_rule_options = ("attack_resolution",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = self.constant("sides", 6, minimum=2)
        self.threshold = self.constant("threshold", 5, minimum=1)
        self.explode_on = self.constant("explode_on", 0, minimum=0)
        self.ties = self.constant("ties", "reactor", kind=str)

    def params(self):
        params = [
            Param("dice", "int", 0, 0, MAX_DICE, help="Attribute + skill-rank bonus dice"),
            Param("favor", "int", 0, -MAX_DICE, MAX_DICE,
                  help=f"each +1 lowers the success face by one ({self.threshold}+ at 0)"),
            Param("rerolls", "int", 0, 0, MAX_DICE, help="failed dice rolled once more"),
            Param("half", "bool", False, help="the Attribute ends in .5: one extra reroll"),
            Param("penalty", "int", 0, 0, MAX_DICE, help="dice removed (never below 1 die)"),
            Param("target", "int", None, 0, MAX_DICE, optional=True,
                  help="successes needed to pass a direct check"),
        ]
        if "attack_resolution" in self.rule_options:
            params.append(Param("attack_resolution", "choice", "opposed",
                                choices=("opposed", "defender_sets_target"), rule_option=True,
                                help="attack vs dodge/parry: opposed (ties to the defender) "
                                     "or the defence sets the target (ties to the attacker)"))
        return tuple(params)

    def success_face(self, favor: int) -> int:
        return min(max(self.threshold - favor, 1), self.sides)

    def pool(self, p):
        dice = p["dice"]
        rolled = max(dice - p["penalty"], 1) if dice >= 1 else 0
        die = DieType.threshold(f"d{self.sides}", self.sides, self.success_face(p["favor"]),
                                explode_from=self.explode_on)
        return PoolSpec(((die, rolled),), rerolls=p["rerolls"] + int(p["half"]))

    def target(self, p):
        return p["target"]

    def versus_ties(self, p):
        if p.get("attack_resolution") == "defender_sets_target":
            return "actor"
        return self.ties

    def extra(self, p):
        return {"success_face": self.success_face(p["favor"])}
