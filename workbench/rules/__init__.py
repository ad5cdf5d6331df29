"""Rules layer: pure descriptions of the systems (no numba, no plotting)."""
from .params import Param
from .pool import DieType, PoolSpec
from .registry import DATA_DIR, all_systems, get_system, load_system
from .system import Rung, System

__all__ = ["Param", "DieType", "PoolSpec", "DATA_DIR", "all_systems",
           "get_system", "load_system", "Rung", "System"]
