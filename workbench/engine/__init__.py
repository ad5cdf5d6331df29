"""Engine layer: computes distributions from the rules' descriptions (no results, no display).

- :mod:`.exact`: exact distributions of a :class:`~workbench.rules.pool.PoolSpec` (numpy).
- :mod:`.simulation`: the same by rolling dice (numba kernels in :mod:`._kernels`, loaded on
  the first simulation).
- :mod:`.sampling`: exact outcome tables the stateful simulators draw from.
- :mod:`.concrete`: one concrete roll scored face by face.
- :mod:`.raw`: :class:`RawDistribution`, what the engine returns.
"""
from .concrete import RolledPool, score_faces
from .exact import exact_raw
from .raw import RawDistribution

__all__ = ["RolledPool", "score_faces", "exact_raw", "RawDistribution"]
