"""Solving a ladder: from the odds a designer wants to the settings that come closest while
the rungs keep their order (:func:`solve_ladder`).

The wanted odds are read and checked, the settings the ladder's knobs reach are tried
(:mod:`.search`), the closest ordered ladder is chosen, and each rung that is not where it was
wanted says why (:mod:`.notes`).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from .. import validation
from ..analysis import default_pool_sizes, pool_size_list, typical_pool
from ..errors import ParameterError, WorkbenchError
from ..limits import MAX_DICE
from ..rules.registry import get_system
from ..rules.system import Rung, System
from . import notes
from .notes import pools_text
from .search import (Candidate, Conflict, candidates, check_goals, check_knobs, check_pools,
                     check_search, closest_each, difficulty_knobs, find_conflicts, ordered_choice)
from .solution import LadderSolution, RungSolution


def parse_wanted(text: str) -> dict[str, float]:
    """``"Easy=0.9,Normal=70%"`` -> ``{"Easy": 0.9, "Normal": 0.7}`` (order kept).

    Example:
        >>> parse_wanted("Easy=0.9, Hard=45%")
        {'Easy': 0.9, 'Hard': 0.45}
        >>> parse_wanted("total >= 2=0.5")     # a formula's rung
        {'total >= 2': 0.5}
    """
    if not isinstance(text, str):
        raise WorkbenchError(f"--want got {text!r}; allowed: text such as \"Easy=0.9,Normal=70%\"")
    wanted: dict[str, float] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, sep, value = item.rpartition("=")   # a rung may hold "=": "total >= 3=0.5"
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise WorkbenchError(f"--want entry {item!r} is not RUNG=PROBABILITY "
                                 "(e.g. Easy=0.9 or Easy=90%)")
        number = validation.number_text(value[:-1] if value.endswith("%") else value)  # ASCII digits
        if number is None:
            raise WorkbenchError(f"--want {name}={value!r}: not a probability; allowed: a number "
                                 "from 0 to 1, or a percentage such as 90%")
        number = number / 100 if value.endswith("%") else float(number)
        twice = next((given for given in wanted if given.lower() == name.lower()), None)
        if twice is not None:   # Easy=90%,Easy=0.5 or Easy=90%,easy=0.5: one rung
            raise WorkbenchError(f"--want rung {twice!r} is given twice" + (
                f" (as {twice!r} and {name!r})" if twice != name else "")
                + "; allowed: each rung once")
        wanted[name] = number
    if not wanted:
        raise WorkbenchError(f"--want {text!r} names no rung; e.g. \"Easy=0.9,Normal=0.7\"")
    return wanted


def _default_pool(sys_: System, base: Mapping[str, Any], pools: "Sequence | None") -> Any:
    """The typical pool when none is given: the one among the character's settings, else
    :func:`typical_pool` if ``pools`` has it, else the middle of ``pools`` (a pool of 0
    dice, or ``None``, read as "no pool size", gave a ladder of 0% rungs)."""
    if sys_.pool_parameter in base:
        return base[sys_.pool_parameter]
    typical = typical_pool(sys_)
    if not isinstance(pools, (list, tuple, range)):
        return typical   # (None: just the typical pool; anything else: check_pools says why)
    sizes = sorted(n for n in pools if not isinstance(n, bool) and isinstance(n, (int, np.integer)))
    if typical in sizes or not sizes or len(sizes) != len(list(pools)):
        return typical   # (bad pools: the caller's check names what is wrong with them)
    return sizes[(len(sizes) - 1) // 2]


def _not_also_given(sys_: System, knobs: Mapping[str, Any], params: Mapping[str, Any],
                    base: Mapping[str, Any]) -> None:
    """Refuse a character setting that is one of the knobs the solver sets for each rung
    (``target=2`` while it chooses a target per rung: it was overridden). A knob the rungs
    *add* to (favor) is the character's starting value: rungs add to it, within its bounds.
    The message says how to keep a set knob: turn only the others."""
    adds = {key for rung in sys_.ladder for key in rung.add}
    for key in knobs:
        if key not in base or key in adds:
            continue
        said = f"{key}={params[key] if key in params else base[key]}"
        others = {k: v for k, v in knobs.items() if k != key}
        keep = (f"to keep {said}, let the solver turn only the other knobs: knobs={others!r} "
                f"(on the command line --turn {','.join(others)})" if others else
                f"leave {said} out, or solve with other knobs (knobs={{...}})")
        raise ParameterError(sys_.id, key, params.get(key, base[key]),
                             f"no value here: the solver chooses {key} for each rung "
                             f"(its knobs: {', '.join(knobs)}); {keep}")


def solve_ladder(system: "str | System", wanted: "Mapping[str, float] | str", pool: int | None = None,
                 *, pools: "Iterable[int] | None" = None, tolerance: float = 0.05,
                 knobs: "Mapping[str, Sequence | None] | None" = None,
                 report_pools: Iterable[int] | None = None, condition: str | None = None,
                 **params: Any) -> LadderSolution:
    """The closest ladder to the wanted odds whose rungs keep their order.

    The rungs are ranked by their wanted odds (the likeliest is the easiest; equal odds keep
    the order given). The solver only returns ladders in which each rung is at most as likely
    to pass as the easier one at every pool of ``pools`` (the typical characters) and no two
    rungs are equally likely at ``pool``; among those it takes the one closest to the wanted
    odds at ``pool``. When the closest settings rung by rung would break that order,
    ``conflicts`` says which rungs and pools clash and each moved rung's ``note`` says why.
    If no distinct ladder keeps its order at all (more rungs than distinct odds), the closest
    one that keeps its order with ties is returned with ``ordered=False``. Crossings at pools of
    ``report_pools`` outside ``pools`` are listed in ``outside``, not enforced: a ladder meant
    for 3-6 dice may well swap two rungs at 10.

    Args:
        system: system id, alias or :class:`System`.
        wanted: rung name -> wanted P(pass); or text such as ``"Easy=0.9,Normal=0.7"``.
            Names are free (``Hard`` need not be in the seed).
        pool: the typical pool the odds are wanted at (ignored by systems without a pool
            size, such as Erzählspiel's single die). ``None`` (the default): the pool given
            among ``params`` (``dice=5``, ``stat="A5"``), else :func:`typical_pool` (4 dice,
            or a skill's default such as Call of Cthulhu's 50) when it lies in ``pools``, else
            the middle of ``pools``, as ``workbench ladder`` chooses it.
        pools: the pool sizes over which the order must hold, e.g. ``range(3, 7)``; default
            just ``pool``. ``pool`` must be one of them.
        tolerance: how far off (at ``pool``) a rung may be and still count as reachable.
        knobs: override :func:`difficulty_knobs` (e.g. ``{"target": None, "favor": (0,)}``
            to solve with targets only).
        report_pools: pools where crossings are reported (``outside``) but not enforced;
            by default :func:`default_pool_sizes` (1-10 dice, within the system's bounds).
        condition: solve for P(condition) instead of P(pass): a condition over the system's
            statistics and parameters, such as ``"beaten == 2"`` (Ironsworn's strong hit).
        **params: the character's other settings (quality, rerolls, ...); not a knob the
            solver turns (``target=2`` for UWR is an error: to fix the target, solve with
            ``knobs={"favor": (-1, 0, 1)}``; then ``target=2`` is the character's setting).

    Ties go to the smaller change (least favor added), then to the lower target (a modifier:
    the one nearest 0). Targets and Obs start at 1: a check with nothing to beat is not a
    difficulty; a modifier is tried over its whole range, below 0 too.

    Example:
        >>> wanted = "Easy=0.9,Normal=0.7,Difficult=0.45,Extreme=0.2"
        >>> solution = solve_ladder("uwr", wanted, pool=4, pools=range(3, 7))
        >>> solution.table()[["rung", "setting"]].values.tolist()
        [['Easy', 'target=2, favor+2'], ['Normal', 'target=2, favor+1'], ['Difficult', 'target=2'], ['Extreme', 'target=2, favor-1']]
        >>> solution.ordered, solution.unreachable
        (True, ['Extreme'])
        >>> [solution.describe(c) for c in solution.conflicts]
        ['Extreme (target=4, favor+2) beats Difficult (target=2) at 6 dice']
        >>> solve_ladder("uwr", {"Sure": 0.999}, pool=1).unreachable
        ['Sure']
    """
    task = _task(system, wanted, pool, pools, tolerance, knobs, condition, params)
    cands = candidates(task.system, task.knobs, task.base, task.pools, task.typical, task.parsed)
    if not cands:
        raise WorkbenchError(f"{task.system.id}: the knobs {task.knobs} give no setting to try")
    check_search(task.system, cands, task.pools, len(task.goals))   # before the search, not hours into it
    solution = _closest_ordered(task, cands)
    if not task.sized:
        return solution
    report = pool_size_list(default_pool_sizes(task.system) if report_pools is None else report_pools,
                            "report_pools")
    outside = [n for n in report if n not in task.pools]
    return replace(solution, outside=solution.crossings(outside) if outside else ())


@dataclass(frozen=True)
class _Task:
    """What a ladder is solved for, checked: the system, the wanted odds, the character's
    settings, the typical pool and the pools the order is kept over, the knobs turned."""

    system: System
    goals: dict[str, float]
    tolerance: float
    params: dict
    base: dict             # the character's settings, shorthand expanded, the pool taken out
    sized: bool            # the system has a pool size and the ladder is solved at one
    pool: Any              # the typical pool (an int when sized)
    pools: tuple           # the pools the order is kept over ((None,) without a pool size)
    typical: int           # the typical pool's place among them
    knobs: dict
    condition: str | None
    parsed: Any            # the condition, parsed (None: P(pass))
    quality: str | None    # Arrata's Quality, which its pools are written with (B3)

    def where(self, pools: Sequence) -> str:
        """``at 3-5 dice``, as the system's designers write pools."""
        return pools_text(self.system, pools, self.quality)


def _task(system, wanted, pool, pools, tolerance, knobs, condition, params: dict) -> _Task:
    """The arguments of :func:`solve_ladder`, each checked in turn (the first bad one is
    said), before any odds are worked out."""
    sys_ = get_system(system)
    if not isinstance(wanted, (str, Mapping)):
        raise ParameterError(None, "wanted", wanted, "rung name -> probability, such as "
                             "{'Easy': 0.9} or 'Easy=0.9,Normal=0.7'")
    tolerance = validation.probability(None, "tolerance", tolerance)
    if pool is not None:
        validation.whole_number(None, "pool", pool, 0, MAX_DICE)
    if knobs is not None and (not isinstance(knobs, Mapping) or not all(
            value is None or isinstance(value, (tuple, list, range)) for value in knobs.values())):
        raise ParameterError(None, "knobs", knobs, "a mapping knob -> values to try (or None "
                             "to try its whole range: a target from 1 up, a modifier from its "
                             "min), such as {'target': None, 'favor': (0, 1)}")
    goals = check_goals(parse_wanted(wanted) if isinstance(wanted, str) else wanted, tolerance)
    base = sys_.mechanic.preprocess(dict(params))  # stat="A5" -> quality="A", dice=5
    if isinstance(pools, Iterable) and not isinstance(pools, (str, bytes, Mapping, list, tuple, range)):
        pools = tuple(pools)   # read once (a generator), then checked by check_pools
    if pool is None and sys_.pool_parameter is not None:
        pool = _default_pool(sys_, base, pools)
    sized = sys_.pool_parameter is not None and pool is not None
    if sized:
        if sys_.pool_parameter in base:
            if str(base[sys_.pool_parameter]).strip() != str(pool):
                raise WorkbenchError(f"give the pool as pool={pool}, not also "
                                     f"{sys_.pool_parameter}={base[sys_.pool_parameter]}")
            del base[sys_.pool_parameter]  # the same pool said twice (stat="A4" with pool=4)
        range_pools: tuple = check_pools(pool, pools)
        pool = int(pool)
    else:
        range_pools = (None,)
    resolved = sys_.resolve(**base)  # bad character settings fail here, before the search
    chosen_knobs = check_knobs(sys_, knobs) if knobs is not None else difficulty_knobs(sys_)
    _not_also_given(sys_, chosen_knobs, params, base)
    return _Task(sys_, goals, tolerance, dict(params), base, sized, pool, range_pools,
                 range_pools.index(pool) if sized else 0, chosen_knobs, condition,
                 None if condition is None else sys_.condition(condition), resolved.get("quality"))


def _closest_ordered(task: _Task, cands: Sequence[Candidate]) -> LadderSolution:
    """The closest ladder that keeps its order (distinct rungs if any such ladder exists,
    else rungs allowed to tie), each rung's note saying why it is where it is."""
    order = sorted(task.goals, key=lambda name: -task.goals[name])  # stable: equal odds keep their order
    ranked = [task.goals[name] for name in order]
    picks = ordered_choice(cands, ranked, task.tolerance)
    distinct = picks is not None
    if picks is None:  # more rungs than distinct odds: keep the order, allow ties
        picks = ordered_choice(cands, ranked, task.tolerance, distinct=False)
    free = closest_each(cands, ranked, task.tolerance)
    conflicts = () if free == picks else tuple(_clashes(task, cands, order, free))
    solved = _rung_solutions(task, cands, order, picks, free, conflicts)
    ties = [] if distinct else _clashes(task, cands, order, picks)
    if ties:
        solved = _tie_notes(task, cands, order, solved, ties)
    return LadderSolution(source=task.system, system=task.system.id,
                          pool=task.pool if task.sized else None, params=task.params,
                          rungs=tuple(solved[name] for name in task.goals), tolerance=task.tolerance,
                          knobs=task.knobs, pools=task.pools if task.sized else (),
                          order=tuple(order), ordered=distinct, condition=task.condition,
                          conflicts=conflicts + tuple(c for c in ties if c not in conflicts))


def _clashes(task: _Task, cands: Sequence[Candidate], order: Sequence[str],
             indices: Sequence[int]) -> list[Conflict]:
    """The pairs of rungs that the settings ``indices`` (one per rung of ``order``) put out of
    order at the pools of the range, or make equally likely at the typical pool."""
    return find_conflicts(order, [cands[i].rung.describe() for i in indices],
                          [cands[i].p_pass for i in indices], task.pools, task.typical)


def _rung_solutions(task: _Task, cands: Sequence[Candidate], order: Sequence[str],
                    picks: Sequence[int], free: Sequence[int],
                    conflicts: Sequence[Conflict]) -> dict[str, RungSolution]:
    """Each rung's solution by name: the setting picked for it, whether it comes within the
    tolerance, and its note (moved off the closest setting to keep the order; not reached)."""
    where = task.where([task.pool]) if task.sized else ""
    low = min(c.at_typical for c in cands)
    high = max(c.at_typical for c in cands)
    solved = {}
    for rank, name in enumerate(order):
        cand, goal = cands[picks[rank]], task.goals[name]
        reachable = abs(cand.at_typical - goal) <= task.tolerance
        note = ""
        if picks[rank] != free[rank]:
            clashes = [c for c in conflicts if name in (c.easier, c.harder)]
            note = notes.moved_note(name, cands[free[rank]], cand, clashes, task.where)
        if not reachable:
            reach = (notes.reaching_pool(task.system, task.knobs, task.base, goal, task.tolerance,
                                         task.pool, lambda n: task.where([n]), task.parsed)
                     if task.sized else "")
            note = notes.unreachable_note(goal, low, high, task.tolerance, where, reach, note)
        solved[name] = RungSolution(name, goal, Rung(name, cand.rung.set, cand.rung.add),
                                    cand.at_typical, reachable, note,
                                    dict(zip(task.pools, cand.p_pass)))
    return solved


def _tie_notes(task: _Task, cands: Sequence[Candidate], order: Sequence[str],
               solved: dict[str, RungSolution], ties: Sequence[Conflict]) -> dict[str, RungSolution]:
    """The rungs of a ladder that could not keep them distinct, each tied rung's note saying
    why no distinct ladder exists: too few different odds, or the range of pools."""
    where = task.where([task.pool]) if task.sized else ""
    levels = len({round(c.at_typical, 12) for c in cands})
    why = (f"only {levels} different odds can be set {where}".rstrip() + f" for {len(order)} rungs"
           if levels < len(order) else "no distinct setting keeps the order "
           + task.where(task.pools))
    solved = dict(solved)
    for tie in {tie.harder: tie for tie in reversed(ties)}.values():  # first tie per rung
        rung = solved[tie.harder]
        solved[tie.harder] = replace(rung, note="; ".join(filter(None, [
            rung.note, f"as likely as {tie.easier} {where}".rstrip() + f": {why}"])))
    return solved


