"""Difficulty ladders: P(pass) tables per rung, and a solver from wanted odds to settings.

A *ladder* is a system's list of difficulty rungs (``[[ladder]]`` in ``workbench/data/systems/*.toml``):
UWR's Easy/Normal/Difficult/Extreme, Arrata's Ob 1-6, Erzählspiel's die colours, the Unnamed
System's tiers. :func:`ladder_table` and :func:`difficulty_table` (from
:mod:`workbench.odds_tables`) say how likely each rung is for each pool size;
:func:`solve_ladder` goes the other way, from the odds a designer wants ("Easy 90%, Normal
70% at 4 dice") to the target / Ob / favor / die that comes closest
while the ladder stays a ladder: no rung more likely to pass than an easier one at any pool
of the typical characters' range.

The knobs the solver turns are the ones the system's own ladder turns (the keys its rungs set
or add to), so a new system file gets a solver without new code.

The package: :mod:`.table` (a ladder's odds by pool size), :mod:`.search` (the settings to
try and the closest ordered ladder), :mod:`.notes` (what a rung's note says), :mod:`.solution`
(:class:`LadderSolution`) and :mod:`.solve` (:func:`solve_ladder`).
"""
from __future__ import annotations

from ..analysis import (  # noqa: F401 (public here too)
    default_pool_sizes, pool_label, pool_size_list, probability_header, shown_probability,
    success_curve, typical_pool)
from ..odds_tables import column_knob, difficulty_table  # noqa: F401 (public here)
from .notes import pools_text  # noqa: F401 (public here)
from .search import (  # noqa: F401 (public here)
    DEFAULT_ADD_STEPS, Conflict, candidates, check_goals, check_knobs, check_pools, check_search,
    closest_each, difficulty_knobs, find_conflicts, ordered_choice)
from .solution import LadderSolution, RungSolution  # noqa: F401 (public here)
from .solve import parse_wanted, solve_ladder  # noqa: F401 (public here)
from .table import ladder_table  # noqa: F401 (public here)
