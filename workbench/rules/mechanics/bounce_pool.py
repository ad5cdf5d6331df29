"""The Unnamed System: d6 + d8 pools where high faces bounce and low faces cancel."""
from __future__ import annotations

import numpy as np

from ...distribution import Distribution
from ..params import Param
from ..pool import DieType, PoolSpec
from .base import MAX_DICE, Mechanic

TIERS = ("Disaster", "Failure", "Marginal Failure", "Success with a Twist", "Success", "Triumph")


class BouncePool(Mechanic):
    """Faces >= ``success_from`` succeed, >= ``bounce_on`` also roll again, <= ``fail_on`` fail.

    Tiers follow the seed's table read after cancelling: Disaster when every die of the
    initial pool failed; else net <= -1 Failure, 0 Marginal Failure, 1 Success with a Twist,
    2 Success, >= 3 Triumph.
    """

    kind = "bounce_pool"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.success_from = self.constant("success_from", 5, minimum=2)

    def params(self):
        return (
            Param("d6", "int", 0, 0, MAX_DICE, help="d6s from Traits and Skills"),
            Param("d8", "int", 0, 0, MAX_DICE, help="d8s from Aspects (and burned Traits)"),
            Param("bonus", "int", 0, 0, MAX_DICE, help="bonus d6s (cancel penalties one for one)"),
            Param("penalty", "int", 0, 0, 2, help="penalty failures added to the result"),
            Param("free_successes", "int", 0, 0, MAX_DICE, help="e.g. a burned Aspect gives 1"),
            Param("drama", "int", 0, 0, 2, help="Drama Dice pulled from the party pool (d6)"),
            Param("stunt", "bool", False, help="+1 d6 Stunt Die"),
            Param("target", "int", 1, 0, MAX_DICE,
                  help="net successes to pass (1: the seed's quick pass/fail)"),
            Param("bounce_on", "int", 7, self.success_from, 9, rule_option=True,
                  help="faces that bounce (7; 6 for positive Origin; 9: never)"),
            Param("fail_on", "int", 1, 0, self.success_from - 1, rule_option=True,
                  help="faces that fail (1; 2 for negative Origin)"),
            Param("drama_pool", "choice", "seed", choices=("seed", "source_page"), rule_option=True,
                  help="Drama Dice maximum: 2/player + 2/tier (seed) or 2 + 1/player, cap 10"),
        )

    def pool(self, p):
        cancelled = min(p["bonus"], p["penalty"])
        d6_count = p["d6"] + p["bonus"] - cancelled + p["drama"] + int(p["stunt"])

        def die(sides):
            bounce = p["bounce_on"] if p["bounce_on"] <= sides else 0
            return DieType.threshold(f"d{sides}", sides, self.success_from,
                                     fail_to=p["fail_on"], explode_from=bounce)

        modifier = p["free_successes"] - (p["penalty"] - cancelled)
        return PoolSpec(((die(6), d6_count), (die(8), p["d8"])), modifier=modifier)

    def tiers(self, raw, p):
        totals, some = raw.totals, raw.table[0]
        probs = np.array([
            raw.table[1].sum(),
            some[totals <= -1].sum(),
            some[totals == 0].sum(),
            some[totals == 1].sum(),
            some[totals == 2].sum(),
            some[totals >= 3].sum(),
        ])
        return Distribution(TIERS, probs, trials=raw.trials)

    def p_pass(self, raw, p):
        # A Disaster never passes, whatever free successes would add.
        return float(raw.table[0][raw.totals >= p["target"]].sum())

    def target(self, p):
        return p["target"]
