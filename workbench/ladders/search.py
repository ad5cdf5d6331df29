"""The search behind :func:`~workbench.ladders.solve_ladder`: the settings to try, and the
closest ladder whose rungs keep their order.

A ladder *keeps its order* over a range of pools when, at every pool in the range, each rung
is at most as likely to pass as the rung above it (the easier one), and it is *distinct* when
no two rungs are equally likely at the typical pool. Among all ladders that keep their order
the search returns the one closest to the wanted odds at the typical pool: first the least
total shortfall beyond the tolerance, then the least total distance, then the smallest
changes (least favor added), then the lowest targets / Obs (modifiers: nearest 0). It is
an exact dynamic programme over (rung, setting) pairs, so it never misses a better ordered
ladder.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from .. import validation
from ..api import exact_reading
from ..errors import ParameterError, WorkbenchError
from ..limits import LADDER_COMPARISONS, MAX_RUNGS, SWEEP_POINTS
from ..rules.registry import get_system
from ..rules.system import Rung, System
from ..validation import suggest

#: Steps tried for a knob a ladder *adds* to in steps of 1 (favor: the seeds only use +1, and
#: past +-2 favor the success face is already at its clamp on a d6). Larger steps scale it.
DEFAULT_ADD_STEPS = range(-2, 3)
#: P(pass) values closer than this are the same probability (float noise, not a difference).
SAME = 1e-12
#: Stop raising a target / Ob once P(pass) falls below this: no designer asks for rarer.
NEGLIGIBLE = 1e-6
MAX_THRESHOLD = 200
# The search compares costs as one whole number: each part is scaled to an integer and
# weighted so that an earlier part always outweighs any sum of the later ones.
_SCALE = 10**12
_WEIGHT = 10**16


@dataclass(frozen=True)
class Candidate:
    """One setting the solver may give a rung, with its P(pass) at every pool of the range."""

    rung: Rung
    p_pass: tuple[float, ...]
    at_typical: float
    change: int  # total size of what the setting adds (favor steps)
    level: int  # total size of the whole-number values it sets (targets, Obs, |modifiers|)

    def cost(self, wanted: float, tolerance: float) -> int:
        distance = abs(self.at_typical - wanted)
        shortfall = max(0.0, distance - tolerance)
        parts = (round(shortfall * _SCALE), round(distance * _SCALE), self.change, self.level)
        total = 0
        for part in parts:
            total = total * _WEIGHT + part
        return total


@dataclass(frozen=True)
class Conflict:
    """Two rungs out of order: the harder one is more likely to pass than the easier one at
    ``pools`` (``kind="beats"``), or both are equally likely at the typical pool
    (``kind="ties"``). ``pools`` is ``(None,)`` for systems without a pool size."""

    easier: str
    harder: str
    kind: str
    pools: tuple
    easier_setting: str = ""
    harder_setting: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"easier": self.easier, "easier_settings": self.easier_setting,
                "harder": self.harder, "harder_settings": self.harder_setting,
                "kind": self.kind, "pools": [p for p in self.pools if p is not None]}


def difficulty_knobs(system: "str | System",
                     add_steps: Sequence[int] | None = None) -> dict[str, tuple | None]:
    """The settings a system's ladder turns, with the values the solver tries.

    Keys a rung *sets* that are choices (die colour) try every choice; whole-number keys it
    sets map to ``None``: the solver tries them over their range (:func:`whole_levels`: a
    target or Ob from 1 until P(pass) is negligible, a modifier over every value it allows).
    Keys a rung *adds* to try ``add_steps``; by default steps of the size the ladder itself
    adds, up to twice its largest (favor +1: -2 to +2; a modifier -10/-20: -40 to +40 by 10).

    Example:
        >>> difficulty_knobs("uwr")
        {'target': None, 'favor': (-2, -1, 0, 1, 2)}
        >>> difficulty_knobs("erzahlspiel")["die"]
        ('black', 'red', 'yellow', 'green', 'blue')
    """
    sys_ = get_system(system)
    knobs: dict[str, tuple | None] = {}
    for rung in sys_.ladder:
        for key in rung.set:
            param = sys_.params[key]
            knobs[key] = tuple(param.choices) if param.kind == "choice" else None
        for key in rung.add:
            knobs[key] = tuple(add_steps) if add_steps is not None else _add_steps(sys_, key)
    if not knobs:
        raise WorkbenchError(f"{sys_.id}: has no difficulty ladder to solve for "
                             "([[ladder]] in its data file sets nothing)")
    return knobs


def check_knobs(sys_: System, knobs: Mapping[str, Any]) -> dict[str, tuple | None]:
    """Knobs given to the solver, checked against the system: each a parameter; ``None``
    (its whole range, see :func:`whole_levels`) only for a whole-number one; listed values
    ones the parameter allows (or, for a knob the ladder adds to, whole numbers to add).

    Example:
        >>> import workbench
        >>> check_knobs(workbench.system("uwr"), {"bogus": None})
        Traceback (most recent call last):
        ...
        workbench.errors.ParameterError: uwr: parameter 'knobs' got 'bogus'; allowed: names of its parameters: dice, favor, rerolls, half, penalty, target
    """
    adds = {key for rung in sys_.ladder for key in rung.add}
    out: dict[str, tuple | None] = {}
    for key, values in knobs.items():
        if key not in sys_.params:
            raise ParameterError(sys_.id, "knobs", key, "names of its parameters"
                                 + suggest(key, sys_.params) + ": " + ", ".join(sys_.params))
        param = sys_.params[key]
        if values is None:
            if param.kind != "int":
                raise ParameterError(sys_.id, f"knobs[{key!r}]", None, "values to try (None, "
                                     "its whole range, suits whole-number parameters only): "
                                     + param.allowed())
            out[key] = None
            continue
        values = tuple(values)
        if not values:
            raise ParameterError(sys_.id, f"knobs[{key!r}]", values, "one or more values to try")
        if key in adds:
            for value in values:
                if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                    raise ParameterError(sys_.id, f"knobs[{key!r}]", value, "whole numbers to add")
            out[key] = tuple(int(v) for v in values)
        else:
            out[key] = tuple(param.parse(sys_.id, value) for value in values)
    return out


def check_goals(wanted: Mapping[str, float], tolerance: float) -> dict[str, float]:
    """The wanted odds, checked: each a number from 0 to 1, at least one, each rung named
    once (``Easy`` and ``easy`` are one rung) by non-empty text."""
    goals = dict(wanted)
    checked = {}
    seen: dict[str, str] = {}
    for name, value in goals.items():
        if not isinstance(name, str) or not name.strip():
            raise WorkbenchError(f"wanted names a rung {name!r}; allowed: a rung name as text, "
                                 "such as 'Easy'")
        same = seen.setdefault(name.strip().lower(), name)
        if same != name:   # rung names are read without case everywhere (tables, the report)
            raise WorkbenchError(f"wanted names rung {same!r} twice (as {same!r} and {name!r}); "
                                 "allowed: each rung once")
        try:   # any real number: a float, a Fraction, numpy's float32 or int64; not a bool
            checked[name] = validation.probability(None, f"wanted[{name!r}]", value)
        except ParameterError:
            raise WorkbenchError(f"wanted probability for {name!r} got {value!r}; "
                                 "allowed: a number from 0 to 1") from None
    if not goals or len(goals) > MAX_RUNGS:
        raise WorkbenchError(f"wanted names {len(goals)} rungs; allowed: 1 to {MAX_RUNGS} "
                             "RUNG=PROBABILITY")
    validation.probability(None, "tolerance", tolerance)
    return checked


def check_pools(pool: int | None, pools: "Iterable[int] | None") -> tuple[int, ...]:
    """The pools the order is kept over, sorted (default just ``pool``, which must be one)."""
    def whole(value) -> bool:
        return not isinstance(value, bool) and hasattr(value, "__index__") and value >= 0
    if not whole(pool):
        raise WorkbenchError(f"pool got {pool!r}; allowed: a whole number >= 0")
    pool = int(pool)
    try:
        sizes = (pool,) if pools is None else tuple(pools)
    except TypeError:
        raise WorkbenchError(f"pools got {pools!r}; allowed: whole numbers >= 0, e.g. range(3, 7)") from None
    if all(whole(n) for n in sizes):
        sizes = tuple(int(n) for n in sizes)
    if not sizes or not all(whole(n) for n in sizes):
        raise WorkbenchError(f"pools got {pools!r}; allowed: distinct whole numbers >= 0, "
                             "e.g. range(3, 7)")
    twice = next((n for i, n in enumerate(sizes) if n in sizes[:i]), None)
    if twice is not None:
        raise WorkbenchError(f"pools got {pools!r}: pool size {twice} is given twice; allowed: "
                             "distinct whole numbers >= 0, e.g. range(3, 7)")
    if pool not in sizes:
        raise WorkbenchError(f"pool {pool} is not among pools {list(sizes)}; allowed: the "
                             "typical pool must lie in the range the order is kept over")
    return tuple(sorted(sizes))


def evaluator(sys_: System, base: Mapping[str, Any], pools: Sequence[int | None], condition=None):
    """A function ``rung -> P(pass) at each pool`` (P(``condition``), a parsed condition, if
    given); pools repeat across rungs, so each distinct pool's distribution is computed once."""
    memo: dict = {}

    def p_pass(rung: Rung) -> tuple[float, ...]:
        out = []
        for size in pools:
            given = dict(base)
            if size is not None:
                given[sys_.pool_parameter] = size
            resolved = sys_.resolve(**sys_.with_rung(rung, **given))
            value = exact_reading(sys_, resolved, sys_.mechanic.pool(resolved), memo, condition)[0]
            if value is None:
                raise WorkbenchError(f"{sys_.id}: rung {rung.describe()!r} gives no pass/fail result")
            out.append(float(value))
        return tuple(out)

    return p_pass


def candidates(sys_: System, knobs: Mapping[str, tuple | None], base: dict,
               pools: Sequence[int | None], typical: int, condition=None) -> list[Candidate]:
    """Every setting the knobs reach, with P(pass) over ``pools`` (``pools[typical]`` is the
    typical pool; whole-number knobs rise from 1 until P(pass) there is negligible)."""
    adds = {k for rung in sys_.ladder for k in rung.add}
    resolved = sys_.resolve(**base)
    # A knob the ladder adds to tries only steps that keep it within its declared bounds.
    listed = {k: tuple(v for v in values if k not in adds or _within(sys_.params[k], resolved[k] + v))
              for k, values in knobs.items() if values is not None}
    listed = {k: values or (0,) for k, values in listed.items()}
    rising = [k for k, v in knobs.items() if v is None]
    levels = sum(1 for _ in _rising_levels(sys_, rising))
    settings = math.prod(len(values) for values in listed.values()) * max(levels, 1)
    SWEEP_POINTS.check(settings * len(pools), f"solve_ladder {sys_.id} ({settings:,} settings "
                       f"x {len(pools)} pools)", fewer="fewer pools in the range or fewer knob values")
    p_pass = evaluator(sys_, base, pools, condition)
    out = []
    for combo in itertools.product(*listed.values()):
        fixed = dict(zip(listed, combo))
        seen = False
        for levels in _rising_levels(sys_, rising):
            setting = {**fixed, **levels}
            rung = Rung("?", {k: v for k, v in setting.items() if k not in adds},
                        {k: v for k, v in setting.items() if k in adds and v != 0})
            probs = p_pass(rung)
            out.append(Candidate(rung, probs, probs[typical],
                                 sum(abs(v) for v in rung.add.values()),
                                 sum(abs(v) for v in rung.set.values() if isinstance(v, int))))
            # A target past the last reachable one: every higher one is rarer still. (A
            # modifier rising from its least value starts negligible: go on until it is not.)
            if len(rising) == 1 and probs[typical] < NEGLIGIBLE and seen:
                break
            seen = seen or probs[typical] >= NEGLIGIBLE
    return distinct_settings(out)


def distinct_settings(cands: Sequence[Candidate]) -> list[Candidate]:
    """One candidate per odds: settings with the very same P(pass) at every pool of the range
    (favor past the point where every face succeeds, a target no pool can reach) are one
    choice, kept as the least change, then the lowest level, then the first tried: the one
    the search would pick among them anyway. Only the distinct odds are compared, so a knob
    tried over a wide range (favor -1000 to 1000) costs what its distinct odds cost."""
    best: dict[tuple, int] = {}
    for index, cand in enumerate(cands):
        key = tuple(round(p, 12) for p in cand.p_pass)
        kept = best.get(key)
        if kept is None or (cand.change, cand.level) < (cands[kept].change, cands[kept].level):
            best[key] = index
    return [cands[index] for index in sorted(best.values())]


def check_search(sys_: System, cands: Sequence[Candidate], pools: Sequence, rungs: int) -> None:
    """Refuse, before it starts, an order search past :data:`~workbench.limits.LADDER_COMPARISONS`:
    each pair of settings is compared at every pool, then once more per rung."""
    n = len(cands)
    LADDER_COMPARISONS.check(
        n * n * (len(pools) + rungs),
        f"solve_ladder {sys_.id} ({n:,} settings with different odds, compared pairwise at "
        f"{len(pools)} pool{'s' if len(pools) != 1 else ''} and for {rungs} rung{'s' if rungs != 1 else ''})",
        fewer="fewer knob values (knobs={...}, e.g. a narrower favor range), fewer pools in the "
              "range or fewer rungs")


def _within(param, value) -> bool:
    return (param.minimum is None or value >= param.minimum) and (
        param.maximum is None or value <= param.maximum)


def _rising_levels(sys_: System, rising: list[str]):
    """The whole-number knobs' values to try: each over :func:`whole_levels` (one knob; the
    caller stops once P(pass) has fallen to negligible), or the product of a dozen levels
    each when a ladder sets several."""
    if not rising:
        yield {}
        return
    if len(rising) > 1:
        yield from (dict(zip(rising, values)) for values in
                    itertools.product(*(_thinned(sys_, key, whole_levels(sys_, key)) for key in rising)))
        return
    key = rising[0]
    for level in whole_levels(sys_, key):
        yield {key: level}


def whole_levels(sys_: System, key: str) -> range:
    """The values tried for a whole-number knob that rungs set.

    A target or Ob (its rungs set it to 1 or more and it allows nothing below 0) runs from 1
    upwards: a check with nothing to beat is not a difficulty. A modifier (it allows values
    below 0, or a rung sets it to 0 or less) runs over every value it allows. Either way
    within +-:data:`MAX_THRESHOLD`.

    Example:
        >>> import workbench
        >>> whole_levels(workbench.system("uwr"), "target")
        range(1, 201)
        >>> whole_levels(workbench.system("warhammer-4e"), "modifier")
        range(-60, 61)
    """
    param = sys_.params[key]
    own = [rung.set[key] for rung in sys_.ladder if isinstance(rung.set.get(key), int)]
    modifier = (param.minimum is not None and param.minimum < 0) or any(v <= 0 for v in own)
    low = max(param.minimum, -MAX_THRESHOLD) if param.minimum is not None else -MAX_THRESHOLD
    if not modifier:
        low = max(low, 1)
    high = min(param.maximum, MAX_THRESHOLD) if param.maximum is not None else MAX_THRESHOLD
    return range(low, max(high, low) + 1)


def _thinned(sys_: System, key: str, levels: range) -> list[int]:
    """About a dozen of ``levels`` for a ladder that sets several whole-number knobs, with
    the values its own rungs set: a target's or Ob's first six (the lowest are the ones
    that matter), a modifier's spread evenly over its range."""
    own = {rung.set[key] for rung in sys_.ladder if isinstance(rung.set.get(key), int)}
    if levels.start >= 1:
        tried = levels[:6]
    elif len(levels) <= 12:
        tried = levels
    else:
        tried = levels[::-(-len(levels) // 12)]
    return sorted({*tried, *(v for v in own if v in levels)})


def _add_steps(sys_: System, key: str) -> tuple[int, ...]:
    """Steps tried for a knob the ladder adds to: multiples of the steps its rungs add, up to
    twice the largest (at least +-2 of them)."""
    own = [abs(rung.add[key]) for rung in sys_.ladder if rung.add.get(key)]
    unit = math.gcd(*own) if own else 1
    reach = max(2 * unit, 2 * max(own, default=1))
    return tuple(range(-reach, reach + 1, unit))


def ordered_choice(cands: Sequence[Candidate], wanted: Sequence[float], tolerance: float,
                   distinct: bool = True) -> list[int] | None:
    """Indices into ``cands`` for each wanted rung (easiest first) forming the closest ladder
    that keeps its order at every pool (and is distinct at the typical pool when
    ``distinct``); ``None`` when no such ladder exists."""
    probs = np.array([c.p_pass for c in cands])
    typical = np.array([c.at_typical for c in cands])
    # above[a, b]: setting a may sit directly above (be easier than) setting b; built one
    # pool at a time (n x n, not n x n x pools, in memory at once).
    above = np.ones((len(cands), len(cands)), dtype=bool)
    for column in probs.T:
        above &= column[:, None] >= column[None, :] - SAME
    if distinct:
        above &= typical[:, None] > typical[None, :] + SAME
    best: list[int | None] = [c.cost(wanted[0], tolerance) for c in cands]
    back: list[list[int | None]] = []
    for goal in wanted[1:]:
        step, pointers = [], []
        for b, cand in enumerate(cands):
            options = [(best[a], a) for a in np.flatnonzero(above[:, b]) if best[a] is not None]
            if not options:
                step.append(None)
                pointers.append(None)
                continue
            cost, a = min(options)
            step.append(cost + cand.cost(goal, tolerance))
            pointers.append(int(a))
        best, back = step, [*back, pointers]
    finals = [(cost, b) for b, cost in enumerate(best) if cost is not None]
    if not finals:
        return None
    chosen = [min(finals)[1]]
    for pointers in reversed(back):
        chosen.append(pointers[chosen[-1]])
    return chosen[::-1]


def closest_each(cands: Sequence[Candidate], wanted: Sequence[float], tolerance: float) -> list[int]:
    """The closest setting for each rung on its own, order ignored."""
    return [min(range(len(cands)), key=lambda i: cands[i].cost(goal, tolerance)) for goal in wanted]


def find_conflicts(names: Sequence[str], settings: Sequence[str],
                   probs: Sequence[Sequence[float]], pools: Sequence, typical: int | None,
                   ties: bool = True) -> list[Conflict]:
    """Every pair of rungs (``names`` easiest first, set to ``settings``) where the harder one
    is more likely at some of ``pools``, and (with ``ties``) every pair equally likely at
    ``pools[typical]``."""
    out = []
    for i, j in itertools.combinations(range(len(names)), 2):
        beaten = tuple(pool for pool, p, q in zip(pools, probs[i], probs[j]) if q > p + SAME)
        if beaten:
            out.append(Conflict(names[i], names[j], "beats", beaten, settings[i], settings[j]))
        elif ties and typical is not None and abs(probs[i][typical] - probs[j][typical]) <= SAME:
            out.append(Conflict(names[i], names[j], "ties", (pools[typical],), settings[i],
                                settings[j]))
    return out
