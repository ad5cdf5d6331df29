"""The numbers behind the explorer's views, as plain tuples (no pandas, no plotly).

Each entry's numbers are memoised by everything they depend on (the system object, its knob
values, rungs, axis, method, trials and seed), so moving one entry's knob recomputes that entry
only; the figure is then assembled from these tuples in a few milliseconds. A system
registered from Python code is never memoised (its mechanic may read anything).

Example:
    >>> from workbench.widgets.settings import EntrySettings
    >>> from workbench.widgets.axes import entry_axis
    >>> entry = EntrySettings("uwr", rungs=("Normal",))
    >>> curve, = entry_curves(entry, entry_axis("uwr", (1, 2)), "exact", 1000, None)
    >>> curve.rung, curve.x, [round(p, 4) for p in curve.y]
    ('Normal', (1, 2), [0.3333, 0.5556])
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..analysis import evaluate, success_curve
from ..rules.system import Rung, System
from .axes import Axis
from .settings import AS_SET, EntrySettings

#: Outcomes at the ends of a distribution adding up to less than this are left off its chart
#: (an exploding tail would squeeze the bars that matter into a corner); tables keep them.
TAIL = 0.001


@dataclass(frozen=True)
class Curve:
    """One rung's P(pass) along an axis (``se``: standard errors of a simulation, else None)."""

    rung: str
    x: tuple
    y: tuple
    se: tuple | None = None


@dataclass(frozen=True)
class Check:
    """One check of an entry: the rungs giving it, its outcomes (tiers where the system has
    them) worst first, their probabilities and (simulated) standard errors."""

    rungs: tuple[str, ...]
    kind: str
    outcomes: tuple
    probabilities: tuple
    se: tuple | None = None

    @property
    def name(self) -> str:
        """The rungs as one name: ``Normal / Difficult``; three neighbours or more as a span."""
        names = self.rungs
        if names == (AS_SET,):
            return AS_SET
        return f"{names[0]} – {names[-1]}" if len(names) > 2 else " / ".join(names)


def _memo(function):
    cached = lru_cache(maxsize=512)(function)

    def call(sys_: System, *args):
        if sys_.collection == "python":   # code may read anything: computed afresh each time
            return function(sys_, *args)
        try:
            return cached(sys_, *args)
        except TypeError:   # an unhashable knob value: computed without the memo
            return function(sys_, *args)

    call.cache_clear = cached.cache_clear
    call.cache_info = cached.cache_info
    return call


def _rung_objects(sys_: System, rungs: tuple[str, ...]) -> list:
    return [Rung(AS_SET) if name == AS_SET else name for name in rungs]


def entry_curves(entry: EntrySettings, axis: Axis, method: str, trials: int,
                 seed: int | None) -> tuple[Curve, ...]:
    """P(pass) of each chosen rung of ``entry`` along ``axis`` (see :mod:`.axes`)."""
    sys_ = entry.system_object
    return _curves(sys_, entry.params, entry.chosen_rungs(), axis, method, trials, seed)


@_memo
def _curves(sys_: System, params: tuple, rungs: tuple, axis: Axis, method: str, trials: int,
            seed: int | None) -> tuple[Curve, ...]:
    knobs = {k: v for k, v in params if k != axis.parameter}
    chosen = _rung_objects(sys_, rungs)
    options = {"method": method, "trials": trials, "seed": seed}
    if axis.kind in ("dice", "knob"):
        if not axis.values:
            return ()
        frame = success_curve(sys_, list(axis.values), chosen, **options, **knobs)
        return tuple(_frame_curve(frame, name) for name in rungs)
    if axis.kind == "choice":
        rows: dict[str, list] = {name: [] for name in rungs}
        for value in axis.values:
            frame = success_curve(sys_, [1], chosen, **options, **knobs, **{axis.parameter: value})
            for name in rungs:
                rows[name].append(_frame_curve(frame, name))
        return tuple(Curve(name, axis.values, tuple(c.y[0] for c in rows[name]),
                           None if method == "exact" else tuple(c.se[0] for c in rows[name]))
                     for name in rungs)
    frame = success_curve(sys_, [1], chosen, **options, **knobs)
    points = [_frame_curve(frame, name) for name in rungs]
    name = "P(pass)" if tuple(rungs) == (AS_SET,) else "each rung"
    return (Curve(name, tuple(rungs), tuple(c.y[0] for c in points),
                  None if method == "exact" else tuple(c.se[0] for c in points)),)


def _frame_curve(frame, rung: str) -> Curve:
    part = frame[frame["rung"] == rung]
    se = tuple(float(v) for v in part["stderr"]) if "stderr" in part else None
    return Curve(rung, tuple(int(v) for v in part["pool"]), tuple(float(v) for v in part["p_pass"]), se)


def entry_checks(entry: EntrySettings, method: str, trials: int,
                 seed: int | None) -> tuple[Check, ...]:
    """One check per chosen rung of ``entry`` (its tiers, else its outcomes); rungs whose
    checks come out the same (exact) share one, named after all of them."""
    return _checks(entry.system_object, entry.params, entry.chosen_rungs(), method, trials, seed)


@_memo
def _checks(sys_: System, params: tuple, rungs: tuple, method: str, trials: int,
            seed: int | None) -> tuple[Check, ...]:
    knobs = dict(params)
    found: dict[Any, list] = {}
    for rung in rungs:
        given = dict(knobs) if rung == AS_SET else sys_.with_rung(rung, **knobs)
        result = evaluate(sys_, given, method, trials, seed)
        dist, kind = ((result.tiers, "tier") if result.tiers is not None else (result.pmf, "outcome"))
        same = (kind, tuple(dist.items())) if method == "exact" else rung
        found.setdefault(same, [dist, kind, []])[2].append(rung)
    out = []
    for dist, kind, names in found.values():
        se = None if dist.stderr is None else tuple(float(v) for v in dist.stderr)
        out.append(Check(tuple(names), kind, tuple(dist.outcomes),
                         tuple(float(p) for p in dist.probabilities), se))
    return tuple(out)


@dataclass(frozen=True)
class Spread:
    """One roll's distribution at the knobs as set, with its summary: mean and standard
    deviation (numbers only), the median and the 5%, 25%, 75% and 95% quantiles (the least
    outcome reached with at least that probability at or below it)."""

    outcomes: tuple
    probabilities: tuple
    se: tuple | None
    numeric: bool
    mean: float | None
    sd: float | None
    quantiles: tuple  # (q, outcome) pairs
    p_pass: float | None

    def at_least(self) -> tuple:
        """P(outcome >= each outcome), worst first."""
        out, total = [], 0.0
        for p in reversed(self.probabilities):
            total += p
            out.append(min(total, 1.0))
        return tuple(reversed(out))

    def at_most(self) -> tuple:
        """P(outcome <= each outcome)."""
        out, total = [], 0.0
        for p in self.probabilities:
            total += p
            out.append(min(total, 1.0))
        return tuple(out)

    def drawn(self) -> range:
        """Indices of the outcomes a chart shows: all but ends adding up to under :data:`TAIL`."""
        low, high, cut = 0, len(self.probabilities), 0.0
        while high - low > 1:
            p_low, p_high = self.probabilities[low], self.probabilities[high - 1]
            end = min(p_low, p_high)
            if cut + end >= TAIL:
                break
            cut += end
            low, high = (low + 1, high) if p_low <= p_high else (low, high - 1)
        return range(low, high)


QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def entry_spread(entry: EntrySettings, method: str, trials: int, seed: int | None) -> Spread:
    """The distribution of ``entry``'s roll at its knobs as set (no rung applied)."""
    return _spread(entry.system_object, entry.params, method, trials, seed)


@_memo
def _spread(sys_: System, params: tuple, method: str, trials: int, seed: int | None) -> Spread:
    result = evaluate(sys_, dict(params), method, trials, seed)
    dist = result.pmf
    probabilities = tuple(float(p) for p in dist.probabilities)
    outcomes = tuple(int(o) if dist.numeric else o for o in dist.outcomes)
    mean = sd = None
    if dist.numeric:
        mean = sum(o * p for o, p in zip(outcomes, probabilities))
        sd = math.sqrt(max(0.0, sum((o - mean) ** 2 * p for o, p in zip(outcomes, probabilities))))
    quantiles = []
    for q in QUANTILES:
        total = 0.0
        for outcome, p in zip(outcomes, probabilities):
            total += p
            if total >= q - 1e-12:
                quantiles.append((q, outcome))
                break
    se = None if dist.stderr is None else tuple(float(v) for v in dist.stderr)
    return Spread(outcomes, probabilities, se, dist.numeric, mean, sd, tuple(quantiles),
                  result.p_pass)


def clear_memo() -> None:
    """Forget every memoised entry (benchmarks measure cold updates with it)."""
    for function in (_curves, _checks, _spread):
        function.cache_clear()
