"""Engine layer: computes distributions from the rules' descriptions (no results, no display).

- :mod:`.exact`: exact distributions of a :class:`~workbench.rules.pool.PoolSpec` (numpy):
  sums of per-die scores, the seeds' fast path.
- :mod:`.evaluate`: the exact joint distribution of a :class:`~workbench.rules.roll.RollSpec`'s
  statistics, outcome by outcome (numba kernels in :mod:`._kernels.walk`).
- :mod:`.simulation`: the same by rolling dice (numba kernels in :mod:`._kernels`, loaded on
  the first simulation).
- :mod:`.sampling`: exact outcome tables the simulators draw from.
- :mod:`.concrete`: one concrete roll scored face by face.
- :mod:`.raw` and :mod:`.joint`: :class:`RawDistribution` and :class:`JointDistribution`,
  what the engine returns.
"""
from .exact import exact_raw
from .joint import JointDistribution
from .raw import RawDistribution
from .scored import evaluate_scored, outcomes_distribution
from .forms import sum_form, total_form
from .wanted import cut_down
from ..rules.roll import RollSpec
from ..rules.scored import Outcomes, ScoredRoll


def exact_distribution(spec, wanted: "frozenset[str] | None" = None) -> "RawDistribution | JointDistribution":
    """The exact distribution of a roll that is a sum of dice (:func:`exact_raw`, see
    :func:`~workbench.engine.forms.sum_form`), of a roll with statistics (:func:`evaluate_roll`),
    of a roll scored by a Python function or of odds given outright (:mod:`.scored`).

    ``wanted``: the statistics a reading needs (names); a roll with statistics is then cut down
    to what they read (:func:`~workbench.engine.wanted.cut_down`), the rest left uncomputed,
    and its joint carries the wanted ones (and the total), with the others it read where the
    roll is not plain.

    Example:
        >>> from workbench.rules.roll import Die, RollSpec
        >>> exact_distribution(RollSpec(((Die.numbered("d4", 4), 1),))).pmf.tolist()
        [0.25, 0.25, 0.25, 0.25]
    """
    if wanted is not None and isinstance(spec, RollSpec):
        spec = cut_down(spec, wanted)   # (a sum of dice stays one: cutting only leaves things out)
    pool = sum_form(spec)
    if pool is not None:
        return exact_raw(pool)
    if isinstance(spec, ScoredRoll):
        return evaluate_scored(spec)
    if isinstance(spec, Outcomes):
        return outcomes_distribution(spec)
    if wanted is not None:
        pool = total_form(spec) if set(wanted) <= {"total"} else None
        if pool is not None:
            return exact_raw(pool)
    evaluate_roll = _walk()   # (a sum of dice never walks statistics: loaded when first needed)
    if wanted is None:
        return evaluate_roll(spec)
    # the joint of the wanted statistics only (the others computed as far as they are read)
    return evaluate_roll(spec, tuple(name for name in spec.statistic_names if name in wanted or name == "total"))


def _walk():
    """:func:`~workbench.engine.evaluate.evaluate_roll`, its module loaded on first use."""
    if not _WALK:
        from .evaluate import evaluate_roll   # lazy: evaluate (a sum of dice never walks statistics)
        _WALK.append(evaluate_roll)
    return _WALK[0]


_WALK: list = []


__all__ = ["sum_form", "RolledPool", "score_faces", "exact_raw", "evaluate_roll", "exact_distribution",
           "RawDistribution", "JointDistribution"]


def __getattr__(name: str):
    """``RolledPool`` and ``score_faces`` (scoring one concrete roll) and ``evaluate_roll``
    (the walk over statistics), loaded when first asked for: a sum of dice needs none of them."""
    if name in ("RolledPool", "score_faces"):
        from . import concrete   # lazy: concrete (one rolled pool; not on the exact path)
        return getattr(concrete, name)
    if name == "evaluate_roll":
        from .evaluate import evaluate_roll   # lazy: evaluate (statistics' walk; not for sums)
        return evaluate_roll
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
