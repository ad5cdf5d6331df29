"""Rules layer: pure descriptions of the systems (no numba, no plotting)."""
from .params import Param
from .pool import DieType, PoolSpec
from .registry import DATA_DIR, all_systems, get_system, load_system
from .dice import Die, Percentile
from .roll import (AllNegative, Beats, Derived, Keep, KeptDice, LargestSet, Pairs, Pick, RollSpec,
                   Sets, Sum)
from .scored import Outcomes, ScoredRoll
from .system import Rung, System

__all__ = ["Param", "DieType", "PoolSpec", "DATA_DIR", "all_systems",
           "get_system", "load_system", "Rung", "System",
           "RollSpec", "Die", "Percentile", "Sum", "Keep", "Pick", "Beats", "Pairs", "LargestSet",
           "Sets", "Derived", "KeptDice", "AllNegative", "ScoredRoll", "Outcomes"]
