"""The numbers behind the figures, as pandas frames (no plotting here).

Every figure is drawn in two steps: gather the numbers into a frame (this module), then draw
the frame (:mod:`workbench.figures.charts`). Tests compare the frames with
:func:`workbench.check`; the explorer memoises them per entry.

An *entry* is what one line (or group of lines) of a figure shows: a system id or
:class:`~workbench.rules.system.System`, a ``(system, params)`` pair, a ``(label, system,
params)`` triple, a mapping ``{"system": ..., "params": {...}, "rungs": [...], "label": ...}``
(only ``system`` required; ``rungs`` per entry, e.g. each system's "ordinary" rung), or any
object with ``system``, ``params``, ``rungs`` and ``label`` attributes (the explorer's
``EntrySettings``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

import pandas as pd

from ..analysis import comparison_entry, evaluate, pool_bounds, success_curve
from ..errors import WorkbenchError
from ..rules.registry import get_system
from ..rules.system import Rung, System

AS_SET = "as set"
"""Rung name meaning "no ladder rung: the knobs exactly as set"."""
Z_95 = 1.96
"""Error bars of simulated results span this many standard errors (a 95% interval)."""


@dataclass(frozen=True)
class Line:
    """One entry read into plain values: legend label, system, knob values, rungs to draw.

    ``rungs=None`` draws the whole ladder; ``()`` draws the knobs as set.
    """

    label: str
    system: Any
    params: tuple[tuple[str, Any], ...]
    rungs: tuple[str, ...] | None = None

    @property
    def system_object(self) -> System:
        return get_system(self.system)

    def chosen_rungs(self) -> tuple[str, ...]:
        if self.rungs is None:
            return tuple(r.name for r in self.system_object.ladder) or (AS_SET,)
        return self.rungs or (AS_SET,)


def _default_label(sys_: System, params: dict) -> str:
    changed = [f"{name}={value}" for name, value in params.items()
               if name in sys_.params and value != sys_.params[name].default]
    return " ".join([sys_.id, *changed])


def read_entries(entries: Iterable[Any], rungs: Sequence[str] | None = None) -> list[Line]:
    """Entries as :class:`Line` values with unique labels (repeats get ``#2``, ``#3``...).

    ``rungs`` applies to entries that do not choose their own.

    Example:
        >>> [line.label for line in read_entries(["uwr", "uwr", ("fons", {"favor": 1})])]
        ['uwr', 'uwr #2', 'fons favor=1']
        >>> read_entries([{"system": "arrata", "rungs": ["Ob 2"]}])[0].rungs
        ('Ob 2',)
    """
    lines = []
    seen: dict[str, int] = {}
    for entry in entries:
        if isinstance(entry, Mapping):
            unknown = set(entry) - {"system", "params", "rungs", "label"}
            if "system" not in entry or unknown:
                raise WorkbenchError(f"entry {dict(entry)!r}: allowed keys: system (required), "
                                     "params, rungs, label")
            system, params = entry["system"], dict(entry.get("params") or {})
            label_given = entry.get("label")
            own_rungs = tuple(entry["rungs"]) if entry.get("rungs") is not None else None
        elif hasattr(entry, "system") and hasattr(entry, "params") and not isinstance(entry, System):
            label_given = getattr(entry, "label", None)
            system, params = entry.system, dict(entry.params)
            own_rungs = getattr(entry, "rungs", None)
            if hasattr(entry, "display_label"):
                label_given = entry.display_label()
        else:
            label_given, system, params = comparison_entry(entry)
            own_rungs = None
        sys_ = get_system(system)
        label = label_given or _default_label(sys_, params)
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label = f"{label} #{seen[label]}"
        chosen = own_rungs if own_rungs is not None else (tuple(rungs) if rungs is not None else None)
        key = system if isinstance(system, str) else sys_
        lines.append(Line(label, key, tuple(params.items()), chosen))
    if not lines:
        raise WorkbenchError("entries got nothing; allowed: one or more systems such as 'uwr'")
    return lines


def rung_params(sys_: System, rung: str, knobs: dict[str, Any]) -> dict[str, Any]:
    """The knobs at a ladder rung (or unchanged for :data:`AS_SET`)."""
    return dict(knobs) if rung == AS_SET else sys_.with_rung(rung, **knobs)


# -- curves ------------------------------------------------------------------------------
def curve_frame(entries: Iterable[Any], pools: Iterable[int] = range(1, 11),
                rungs: Sequence[str] | None = None, method: str = "exact",
                trials: int = 100_000, seed: int | None = 0) -> pd.DataFrame:
    """P(pass) per entry, rung and pool size: columns label, system, pool, rung, p_pass, stderr.

    ``stderr`` is NaN for exact results. A system without a pool parameter gives the same
    value at every pool size; a pool parameter with bounds (Risk's 1-3 attacking dice) has
    rows only for the pools inside them.

    Example:
        >>> [round(p, 4) for p in curve_frame(["uwr"], [1, 2], rungs=["Normal"])["p_pass"]]
        [0.3333, 0.5556]
    """
    sizes = tuple(int(n) for n in pools)
    frames = [line_curve(line, sizes, method, trials, seed) for line in read_entries(entries, rungs)]
    drawn = [frame for frame in frames if len(frame)] or frames[:1]
    return pd.concat(drawn, ignore_index=True)


def line_curve(line: Line, pools: tuple[int, ...], method: str, trials: int,
               seed: int | None) -> pd.DataFrame:
    """One entry's curve frame, memoised when the entry is hashable (ids and knob values).

    A simulation without a seed draws a fresh one each time, so it is never memoised."""
    if method == "simulate" and seed is None or line.system_object.source is None:
        # A fresh seed each time; a mechanic's Python code may read anything: not memoised.
        return _line_curve(line, pools, method, trials, seed)
    try:
        return _line_curve_cached(line, line.system_object, pools, method, trials, seed)
    except TypeError:  # an unhashable knob value or system object: compute without the cache
        return _line_curve(line, pools, method, trials, seed)


@lru_cache(maxsize=256)
def _line_curve_cached(line: Line, system: System, pools: tuple[int, ...], method: str,
                       trials: int, seed: int | None) -> pd.DataFrame:
    # Memoised per entry: moving one entry's knob in the explorer leaves the other overlaid
    # curves as they were. Keyed by the system object too: an edited data file or a mechanic
    # registered again is a new object, so its curves are computed afresh.
    return _line_curve(line, pools, method, trials, seed)


def _line_curve(line: Line, pools: tuple[int, ...], method: str, trials: int,
                seed: int | None) -> pd.DataFrame:
    sys_ = line.system_object
    knobs = {k: v for k, v in line.params if k != sys_.pool_parameter}
    chosen = [Rung(AS_SET) if name == AS_SET else name for name in line.chosen_rungs()]
    low, high = pool_bounds(sys_)
    inside = tuple(n for n in pools if low <= n <= high)   # Risk attacks with 1-3 dice only:
    if not inside:                                          # its curve stops where its rules do
        return pd.DataFrame(columns=["label", "system", "pool", "rung", "p_pass", "stderr"])
    frame = success_curve(sys_, inside, chosen, label=line.label, method=method, trials=trials,
                          seed=seed, **knobs)
    if "stderr" not in frame:
        frame["stderr"] = math.nan
    frame["p_pass"] = pd.to_numeric(frame["p_pass"], errors="coerce")
    frame["stderr"] = pd.to_numeric(frame["stderr"], errors="coerce")
    return frame


def difference_frame(entries: Iterable[Any], base: int = 0, pools: Iterable[int] = range(1, 11),
                     rungs: Sequence[str] | None = None, method: str = "exact",
                     trials: int = 100_000, seed: int | None = 0) -> pd.DataFrame:
    """Each entry's P(pass) minus the base entry's (``base`` indexes ``entries``).

    Rungs pair by name when the base has every rung of the entry; otherwise (UWR's Easy
    against FoNS's Trivial) they pair in ladder order. Columns: label, baseline, rung,
    baseline_rung, pool, p_pass, baseline_p_pass, difference, stderr (differences as
    fractions; figures show them in percentage points).

    Example:
        >>> frame = difference_frame(["uwr", ("uwr", {"favor": 1})], pools=[1])
        >>> round(frame.loc[frame.rung == "Normal", "difference"].item(), 4)
        0.1667
    """
    lines = read_entries(entries, rungs)
    if not 0 <= base < len(lines):
        raise WorkbenchError(f"base got {base!r}; allowed: an entry index from 0 to {len(lines) - 1}")
    sizes = tuple(int(n) for n in pools)
    curves = pd.concat([line_curve(line, sizes, method, trials, seed) for line in lines],
                       ignore_index=True)
    base_label = lines[base].label
    baseline = curves[curves["label"] == base_label]
    base_rungs = list(dict.fromkeys(baseline["rung"]))
    columns = ["label", "baseline", "rung", "baseline_rung", "pool", "p_pass",
               "baseline_p_pass", "difference", "stderr"]
    theirs = baseline[["rung", "pool", "p_pass", "stderr"]].rename(columns={
        "rung": "baseline_rung", "p_pass": "baseline_p_pass", "stderr": "baseline_stderr"})
    parts = []
    for line in lines:
        if line.label == base_label:
            continue
        mine = curves[curves["label"] == line.label]
        my_rungs = list(dict.fromkeys(mine["rung"]))
        pairs = ({r: r for r in my_rungs} if all(r in base_rungs for r in my_rungs)
                 else dict(zip(my_rungs, base_rungs)))
        mine = mine[mine["rung"].isin(list(pairs))].assign(
            baseline_rung=lambda f, p=pairs: f["rung"].map(p), baseline=base_label)
        parts.append(mine.merge(theirs, on=["baseline_rung", "pool"], how="inner"))
    if not parts:
        return pd.DataFrame(columns=columns)
    out = pd.concat(parts, ignore_index=True)
    out["difference"] = out["p_pass"] - out["baseline_p_pass"]
    out["stderr"] = (out["stderr"] ** 2 + out["baseline_stderr"] ** 2) ** 0.5
    return out[columns]


# -- one check ---------------------------------------------------------------------------
def outcome_frame(entries: Iterable[Any], rungs: Sequence[str] | None = None,
                  method: str = "exact", trials: int = 100_000,
                  seed: int | None = 0, merge_same: bool = True) -> pd.DataFrame:
    """One check per entry and rung: its tiers where the system has tiers, else its outcomes.

    Columns: column, label, rung, outcome, position, share, probability, stderr, kind
    (``"tier"`` or ``"outcome"``). ``column`` names the stacked column; ``share`` places the
    outcome on the worst-to-best colour scale (0 worst, 1 best). With ``merge_same`` the rungs
    of one entry whose checks come out the same (UWR's Normal, Difficult and Extreme roll the
    same dice and differ only in the target) share one column, named after all of them
    (``uwr · Normal / Difficult``; three or more neighbours as a span, ``uwr · Normal – Extreme``).

    Example:
        >>> list(dict.fromkeys(outcome_frame(["erzahlspiel"])["column"]))
        ['black', 'red', 'yellow', 'green', 'blue']
    """
    lines = read_entries(entries, rungs)
    several = len(lines) > 1
    rows = []
    for line in lines:
        sys_ = line.system_object
        knobs = dict(line.params)
        checks: dict[Any, list] = {}  # what a check comes to -> the rungs giving it
        for rung in line.chosen_rungs():
            result = evaluate(sys_, rung_params(sys_, rung, knobs), method, trials, seed)
            dist, kind = ((result.tiers, "tier") if result.tiers is not None
                          else (result.pmf, "outcome"))
            same = (kind, tuple(dist.items())) if merge_same and method == "exact" else rung
            checks.setdefault(same, [dist, kind, []])[2].append(rung)
        order = list(line.chosen_rungs())
        for dist, kind, names in checks.values():
            places = [order.index(name) for name in names]
            # Neighbouring rungs that come out the same read as a span: "Normal – Extreme".
            span = len(names) > 2 and places == list(range(places[0], places[0] + len(names)))
            rung = f"{names[0]} – {names[-1]}" if span else " / ".join(names)
            if names == [AS_SET]:
                column = line.label
            else:
                column = f"{line.label} · {rung}" if several else rung
            errors = dist.stderr if dist.stderr is not None else [math.nan] * len(dist)
            last = max(len(dist) - 1, 1)
            for position, ((outcome, p), se) in enumerate(zip(dist.items(), errors)):
                rows.append({"column": column, "label": line.label, "rung": rung,
                             "outcome": outcome, "position": position, "share": position / last,
                             "probability": p, "stderr": float(se), "kind": kind})
    return pd.DataFrame(rows)
