"""Independent brute-force references for the gallery of published dice mechanics.

Nothing here imports ``workbench``: each function rolls one game's core roll the way a player
would, over every face of every die, and counts. Gallery data files are tested against it.
The mechanics live in ``_gallery_pools.py`` (dice pools) and ``_gallery_rolls.py`` (totals,
roll-unders, battles), the enumeration in ``_gallery_dice.py``; import them all from here.

Return shape
------------
Every mechanic returns a :class:`Dist`, a dict from *outcome* to probability:

* an outcome is a named tuple of the statistics the game reads from one roll, e.g.
  ``ShadowrunRoll(hits=2, ones=1, glitch='none')``; each function's docstring lists its fields
  and labels, what it models, the readings chosen where the rules are ambiguous, and what it
  leaves out;
* probabilities are exact ``fractions.Fraction``;
* ``dist.unexplored`` is the probability of the rolls not enumerated: 0 for finite dice; for
  exploding dice, the chance that an explosion chain runs deeper than followed (each die is
  followed until less than ``CHAIN_TOLERANCE`` = 1e-14 is left), so that always
  ``sum(dist.values()) + dist.unexplored == 1`` exactly.

Read it with :func:`marginal` and :func:`chance`::

    marginal(shadowrun(4), "hits")            # {0: Fraction(16, 81), 1: ..., ...}
    marginal(shadowrun(4), "hits", "glitch")  # {(0, 'critical glitch'): ..., ...}
    chance(shadowrun(4), lambda roll: roll.hits >= 2)

Pools are enumerated in full, so keep them small: 5 d10s or 6 d6s take well under a second,
each further die ten or six times as long; ``l5r`` up to 5 rolled dice.
"""
# ruff: noqa: F401  (this module re-exports)
try:
    from tests._gallery_dice import (CHAIN_TOLERANCE, Dist, chance, combine_dice, every_roll,
                                     exploding_die, marginal, relabel)
    from tests._gallery_pools import *  # noqa: F403
    from tests._gallery_rolls import *  # noqa: F403
except ImportError:  # tests/ is not a package: pytest puts tests/ itself on sys.path
    from _gallery_dice import (CHAIN_TOLERANCE, Dist, chance, combine_dice, every_roll,
                               exploding_die, marginal, relabel)
    from _gallery_pools import *  # noqa: F403
    from _gallery_rolls import *  # noqa: F403

MECHANICS = {
    # 24 from the brief, then extras
    "owod": owod, "cofd": cofd, "shadowrun": shadowrun, "savage_worlds": savage_worlds,
    "cortex": cortex, "blades": blades, "year_zero": year_zero, "l5r": l5r,
    "call_of_cthulhu": call_of_cthulhu, "ironsworn": ironsworn, "pbta": pbta, "dnd5e": dnd5e,
    "fate": fate, "gurps": gurps, "genesys": genesys, "exalted": exalted,
    "one_roll_engine": one_roll_engine, "dragon_age": dragon_age, "vampire5": vampire5,
    "warhammer4e": warhammer4e, "burning_wheel": burning_wheel, "risk": risk,
    "cyberpunk_red": cyberpunk_red, "star_wars_d6": star_wars_d6,
    "traveller": traveller, "cypher": cypher, "mork_borg": mork_borg, "feng_shui2": feng_shui2,
}
"""Every mechanic by name."""
