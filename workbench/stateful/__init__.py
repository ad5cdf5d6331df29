"""Stateful play: resources and conditions that carry from one check to the next.

Exact answers (numpy absorbing Markov chains, negative binomials) where the state is small,
and numba simulators that roll every check with the same per-check roll as
:func:`workbench.simulate`. numba loads only when a simulation runs.

- :func:`drama_campaign`: the Unnamed System's Drama Dice economy over a campaign.
- :func:`burn_scene`: burning Traits and Aspects over a scene, with short rests.
- :func:`taken_out`: Erzählspiel exchanges until Taken Out (conditions, death spiral).
- :func:`clock`, :func:`clock_table`: rolls to fill an Erzählspiel clock.
- :func:`rounds_until_hits`: UWR/FoNS/Arrata opposed rounds until n hits land.
"""
from ._common import StepsResult
from .burn import BurnResult, burn_scene
from .clocks import clock, clock_table
from .conditions import taken_out
from .drama import DramaResult, drama_campaign, pool_maximum
from .exchanges import rounds_until_hits

__all__ = ["StepsResult", "DramaResult", "BurnResult", "drama_campaign", "pool_maximum",
           "burn_scene", "taken_out", "clock", "clock_table", "rounds_until_hits"]
