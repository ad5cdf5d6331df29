"""What a solved ladder says in words: each rung's note, and where (at which pools).

A note is one sentence a designer can act on: why a rung is not where it was wanted, which
rungs a closer setting would clash with (named once each, grouped by pool), and, for a rung
no setting reaches, the nearest pool size at which one of the ladder's settings would.
Pools are said as the system's designers write them (:func:`pools_text`).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ..analysis import pool_label
from ..numbers import fixed
from ..rules.system import System
from .search import Candidate, Conflict, candidates

#: How far past the typical pool the search for a reaching pool looks (in dice).
REACH_SPAN = 30


def pct(value: float) -> str:
    """A probability as the ladder tables write it: one decimal.

    Example:
        >>> pct(0.3125)
        '31.3%'
    """
    return fixed(value, 1, percent=True)


def _names(items: Sequence[str]) -> str:
    """``["Easy", "Normal", "Hard"]`` -> ``"Easy, Normal and Hard"``."""
    items = list(dict.fromkeys(items))
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def clash_phrase(name: str, clashes: Sequence[Conflict], where: Callable[[tuple], str]) -> str:
    """How the closer setting of rung ``name`` would clash: each kind of clash once, the rungs
    it involves named together (``would be as likely as Easy and Difficult at 4d6``).

    Example:
        >>> c = [Conflict("Easy", "Normal", "ties", (4,)), Conflict("Normal", "Hard", "ties", (4,))]
        >>> clash_phrase("Normal", c, lambda pools: f"at {pools[0]} dice")
        'would be as likely as Easy and Hard at 4 dice'
    """
    groups: dict[tuple[str, str], list[str]] = {}
    for conflict in clashes:
        other = conflict.easier if name == conflict.harder else conflict.harder
        verb = ("would be as likely as" if conflict.kind == "ties" else
                "would beat" if name == conflict.harder else "would lose to")
        groups.setdefault((verb, where(conflict.pools)), []).append(other)
    parts = [f"{verb} {_names(others)} {place}".rstrip() for (verb, place), others in groups.items()]
    return _names(parts) if parts else ""


def moved_note(name: str, closer: Candidate, chosen: Candidate, clashes: Sequence[Conflict],
               where: Callable[[tuple], str]) -> str:
    """A rung that keeping the order moved off its closest setting.

    Example:
        >>> from workbench.rules.system import Rung
        >>> near = Candidate(Rung("?", {"ob": 2}), (0.69,), 0.69, 0, 2)
        >>> kept = Candidate(Rung("?", {"ob": 3}), (0.31,), 0.31, 0, 3)
        >>> moved_note("Hard", near, kept, [], str)
        'ob=2 (69.0%) would be closer, but the rungs around it need it, so the ladder keeps ob=3 (31.0%)'
    """
    why = clash_phrase(name, clashes, where)
    why = f"it {why}" if why else "the rungs around it need it"
    return (f"{closer.rung.describe()} ({pct(closer.at_typical)}) would be closer, but {why}, "
            f"so the ladder keeps {chosen.rung.describe()} ({pct(chosen.at_typical)})")


def unreachable_note(goal: float, low: float, high: float, tolerance: float, where: str,
                     reach: str, moved: str = "") -> str:
    """A rung no setting brings within ``tolerance`` of ``goal`` at the typical pool, in one
    sentence: after ``moved`` (:func:`moved_note`) when keeping the order moved it too, and
    with what would reach it (``reach``, from :func:`reaching_pool`) when something does.

    Example:
        >>> unreachable_note(0.9, 0.0, 0.556, 0.05, "at 4d6", "target=1 would at 9d6 (86.1%)")
        'cannot reach 90.0% at 4d6 (the settings tried give 0.0% to 55.6%); target=1 would at 9d6 (86.1%)'
    """
    band = f"{100 * tolerance:.1f} pp"  # a distance between probabilities: points, not percent
    if moved:
        head = f"{moved}, not within {band} of {pct(goal)}"
    elif low <= goal <= high:  # inside the range, but the steps between settings are coarse
        head = (f"no setting comes within {band} of {pct(goal)} {where}".rstrip()
                + " (the settings step over it)")
    else:
        head = (f"cannot reach {pct(goal)} {where}".rstrip()
                + f" (the settings tried give {pct(low)} to {pct(high)})")
    return f"{head}; {reach}" if reach else head


def reaching_pool(sys_: System, knobs: Mapping[str, Any], base: dict, goal: float,
                  tolerance: float, pool: int, where: Callable[[int], str], condition=None) -> str:
    """The nearest pool size (fewer dice first when the goal is below every setting, more when
    above) at which one of the ladder's settings comes within ``tolerance`` of ``goal``:
    ``"target=1, favor+2 would come within 5.0 pp of it at 9 dice (90.1%)"``; or what was searched
    in vain. With ``condition`` (parsed), the odds are P(condition), as the ladder was solved
    for: a note about P(pass) under a ladder of P(condition) named the wrong pool.

    The search runs from the typical ``pool`` outwards, up to :data:`REACH_SPAN` dice more
    (within the pool parameter's bounds).
    """
    param = sys_.params[sys_.pool_parameter]
    low_bound = max(param.minimum or 0, 0)
    high_bound = min(param.maximum if param.maximum is not None else pool + REACH_SPAN,
                     pool + REACH_SPAN)
    order = []
    for step in range(1, REACH_SPAN + 1):  # nearest pool first, both ways
        order += [n for n in (pool + step, pool - step) if low_bound <= n <= high_bound]
    for size in order:
        cands = candidates(sys_, knobs, base, (size,), 0, condition)
        best = min(cands, key=lambda c: abs(c.at_typical - goal))
        if abs(best.at_typical - goal) <= tolerance:
            return (f"{best.rung.describe()} would come within {100 * tolerance:.1f} pp of it "
                    f"{where(size)} ({pct(best.at_typical)})")
    if not order:
        return f"no other pool than {where(pool).removeprefix('at ')} to try"
    # "from 1 die to 34 dice", "from skill 20 to skill 80": in the system's own words
    span = f"from {where(min(order)).removeprefix('at ')} to {where(max(order)).removeprefix('at ')}"
    return f"no pool {span} comes within {100 * tolerance:.1f} pp with these settings"


def pools_text(system: "str | System", pools: Sequence, quality: str | None = None) -> str:
    """``[3, 4, 5, 7]`` -> ``"at 3-5 and 7 dice"`` (``"at B3-B5 and B7"`` for Arrata); empty
    for a system without a pool size.

    Example:
        >>> pools_text("uwr", [6, 7, 8, 10]), pools_text("arrata", [3, 4]), pools_text("uwr", [1])
        ('at 6-8 and 10 dice', 'at B3-B4', 'at 1 die')
    """
    sizes = sorted(n for n in pools if n is not None)
    if not sizes:
        return ""
    runs: list[list[int]] = []
    for n in sizes:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    plain = pool_label(system, 2).endswith(" dice")
    if plain:
        parts = [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs]
        unit = " die" if sizes == [1] else " dice"
    else:
        parts = [pool_label(system, r[0], quality) if len(r) == 1 else
                 f"{pool_label(system, r[0], quality)}-{pool_label(system, r[-1], quality)}"
                 for r in runs]
        unit = ""
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"at {joined}{unit}"
