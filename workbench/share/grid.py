"""The numbers a shared page carries: every setting of its knobs, computed ahead.

For each system: P(pass) at every pool size and ladder rung, and one check (its tiers where the
system has tiers, else its outcomes) at every pool size, for every combination of the values
of the knobs it has. Probabilities are kept as whole millionths (six decimal places), which is
what the page shows and what keeps five systems with three knobs each under 2 MB.

Example:
    >>> grid = share_grid(["uwr"], {"favor": [0, 1]}, pools=[1, 2])
    >>> grid.settings, grid.systems[0].passes[1][1]   # favor 1: Normal at 1 and 2 dice
    (2, [500000, 750000])
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from ..analysis import counts_dice, default_pool_sizes, evaluate, pools_for, success_curve
from ..errors import ParameterError, WorkbenchError, shown
from ..export.tables import FLOAT_NOISE
from ..rules.registry import get_system
from ..rules.system import Rung, System

MILLION = 1_000_000
#: The most bytes of numbers one page carries (with plotly.js's 1.2 MB: a page under 2 MB).
DATA_BUDGET = 720_000
#: Characters one number takes in the page on average (millionths and a comma; zeros are one).
BYTES_PER_NUMBER = 5
#: The most checks a page computes ahead.
MAX_CHECKS = 250_000
AS_SET = "as set"


_RANGE = re.compile(r"^(-?\d+)(?:-|\.\.)(-?\d+)$")
#: The most values one knob's range may give.
MAX_KNOB_VALUES = 200


def _read(text: str):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_knob(text: str, option: str = "--knob") -> tuple[str, list]:
    """A knob as typed, ``NAME=LO-HI`` or ``NAME=V1,V2,...``: its name and values.

    Example:
        >>> parse_knob("favor=-2-2"), parse_knob("quality=B,A,S"), parse_knob("half=false,true")
        (('favor', [-2, -1, 0, 1, 2]), ('quality', ['B', 'A', 'S']), ('half', [False, True]))
        >>> parse_knob("favor")
        Traceback (most recent call last):
        ...
        workbench.errors.WorkbenchError: --knob got 'favor'; allowed: NAME=LO-HI or NAME=V1,V2,... such as favor=-2-2 or quality=B,A,S
    """
    name, sep, values = text.partition("=")
    name = name.strip()
    if not sep or not name or not values.strip():
        raise WorkbenchError(f"{option} got {shown(text)}; allowed: NAME=LO-HI or NAME=V1,V2,... "
                             "such as favor=-2-2 or quality=B,A,S")
    match = _RANGE.match(values.strip())
    if match:
        low, high = int(match.group(1)), int(match.group(2))
        if low > high or high - low >= MAX_KNOB_VALUES:
            raise WorkbenchError(f"{option} {name} got {shown(values)}; allowed: a range LO-HI "
                                 f"with LO <= HI and at most {MAX_KNOB_VALUES} values")
        return name, list(range(low, high + 1))
    items = [item.strip() for item in values.split(",")]
    if any(not item for item in items):
        raise WorkbenchError(f"{option} {name} got {shown(values)}; allowed: values separated by "
                             "commas, none left out")
    read = [_read(item) for item in items]
    if len(set(map(repr, read))) != len(read):
        raise WorkbenchError(f"{option} {name} got {shown(values)}; allowed: each value once")
    return name, read


class GridTooLarge(WorkbenchError):
    """A grid of knob values too large to embed in one page (said before anything is computed)."""


@dataclass(frozen=True)
class Knob:
    """One control of the page: a parameter, its values, and the systems it sets."""

    name: str
    values: tuple
    systems: tuple[str, ...]


@dataclass
class SystemNumbers:
    """One system's part of the page: its knobs (names, in the grid's order), pool axis, rungs,
    outcomes and the numbers for every setting (settings in the order of
    ``itertools.product`` over its knobs' values)."""

    system: System
    label: str
    fixed: dict
    knobs: list[str]
    pool: str | None
    pools: list
    pool_title: str
    rungs: list[str]
    kind: str = "outcome"
    outcomes: list = field(default_factory=list)
    passes: list = field(default_factory=list)   # [setting][rung][pool] millionths or None
    checks: list = field(default_factory=list)   # [setting][pool][outcome] millionths
    refused: dict = field(default_factory=dict)  # setting -> why the rules refuse part of it


@dataclass
class ShareGrid:
    """Everything a shared page shows: its knobs, and each system's numbers."""

    knobs: list[Knob]
    systems: list[SystemNumbers]

    @property
    def settings(self) -> int:
        """Settings of the knobs the page holds (every combination of their values)."""
        return math.prod(len(k.values) for k in self.knobs) if self.knobs else 1

    @property
    def checks(self) -> int:
        """Checks computed ahead, over every system, setting, pool and rung."""
        return sum(len(s.passes) * len(s.pools) * (len(s.rungs) + 1) for s in self.systems)


def _entries(systems: Iterable[Any]) -> list[tuple[System, dict, str]]:
    systems, out = list(systems), []
    for entry in systems:
        if isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[1], Mapping):
            sys_, params = get_system(entry[0]), dict(entry[1])
        else:
            sys_, params = get_system(entry), {}
        label = sys_.name + (" (edited)" if sys_.collection == "edited" else "")
        out.append((sys_, params, label))
    if not out:
        raise WorkbenchError("systems got nothing; allowed: one or more systems, such as uwr")
    given = [entry if isinstance(entry, str) else sys_.id for entry, (sys_, _, _) in zip(systems, out)]
    seen: dict = {}
    for index, (sys_, own, label) in enumerate(out):   # the same curve twice: a slip, refused
        key = (id(sys_), repr(sorted(own.items(), key=repr)))   # one object: one name, alias or path
        if key in seen:
            a, b = given[seen[key]], given[index]
            said = (f": as {a!r} and {b!r}" if a != b else "") + (" with the same settings" if own else "")
            raise ParameterError(None, "systems", given, f"each system once ({sys_.id!r} is given twice{said})")
        seen[key] = index
    return out


def plan(systems: Iterable[Any], knobs: Mapping[str, Sequence[Any]],
         pools: Sequence[int] | None = None, params: Mapping[str, Any] | None = None) -> ShareGrid:
    """The page's knobs and each system's axes, checked, with no number computed yet.

    ``systems``: ids, :class:`System` objects or ``(system, params)`` pairs (settings of that
    system alone); ``knobs``: each knob's values (a knob sets every listed system that has the
    parameter); ``pools``: pool sizes for systems whose pool is a number of dice (default 1-10);
    ``params``: settings held fixed for every system that has them.
    """
    entries = _entries(systems)
    sizes = list(range(1, 11)) if pools is None else [int(n) for n in pools]
    params = dict(params or {})
    grid_knobs = []
    for name, values in knobs.items():
        values = tuple(values)
        users = [sys_ for sys_, _, _ in entries if name in sys_.params]
        if not users:
            raise ParameterError(None, "--knob", name, "a parameter of "
                                 + ", ".join(s.id for s, _, _ in entries) + ": "
                                 + ", ".join(dict.fromkeys(p for s, _, _ in entries for p in s.params)))
        if not values:
            raise WorkbenchError(f"--knob {name} got no values; allowed: a range such as 0-3 or "
                                 "values separated by commas")
        for sys_ in users:
            if name == sys_.pool_parameter:
                raise WorkbenchError(f"--knob {name}: {name} is {sys_.id}'s pool, the x axis of its "
                                     "chart; allowed: --pools for its values, another parameter "
                                     "for --knob")
            for value in values:
                sys_.resolve(**{name: value})   # a bad value is refused before any work
        grid_knobs.append(Knob(name, values, tuple(s.id for s in users)))
    for name in params:
        if not any(name in sys_.params for sys_, _, _ in entries):
            raise ParameterError(None, name, params[name], "a parameter of "
                                 + ", ".join(s.id for s, _, _ in entries))
        if name in knobs:
            raise WorkbenchError(f"parameter {name!r} is both a knob and fixed ({name}="
                                 f"{params[name]}); allowed: one of them")
    numbers = []
    for sys_, own, label in entries:
        fixed = {**{k: v for k, v in params.items() if k in sys_.params}, **own}
        fixed = {k: v for k, v in fixed.items() if k not in knobs}
        sys_.resolve(**fixed)
        pool = sys_.pool_parameter
        if pool and counts_dice(sys_):
            axis, title = pools_for(sys_, sizes), "dice in the pool"
        elif pool:
            axis, title = default_pool_sizes(sys_), pool
        else:
            axis, title = [None], ""
        fixed.pop(pool, None) if pool else None
        rungs = [r.name for r in sys_.ladder] or [AS_SET]
        numbers.append(SystemNumbers(sys_, label, fixed, [k.name for k in grid_knobs
                                                          if sys_.id in k.systems],
                                     pool, axis, title, rungs))
    return ShareGrid(grid_knobs, numbers)


def _combos(grid: ShareGrid, part: SystemNumbers) -> list[dict]:
    values = [next(k.values for k in grid.knobs if k.name == name) for name in part.knobs]
    return [dict(zip(part.knobs, combo)) for combo in itertools.product(*values)]


def estimate(grid: ShareGrid) -> tuple[int, int]:
    """Numbers and checks the page would hold, from one check per system at its largest pool
    (how many outcomes a check has): what :func:`share_grid` refuses up front."""
    numbers = checks = 0
    for part in grid.systems:
        settings = math.prod(len(next(k.values for k in grid.knobs if k.name == n)) for n in part.knobs)
        given = dict(part.fixed)
        if part.pool:
            given[part.pool] = max(part.pools)
        result = evaluate(part.system, given)
        outcomes = len(result.tiers if result.tiers is not None else result.pmf)
        numbers += settings * len(part.pools) * (len(part.rungs) + outcomes)
        checks += settings * len(part.pools) * (len(part.rungs) + 1)
    return numbers, checks


def check_size(grid: ShareGrid) -> None:
    """Refuse, in one line, a grid whose numbers would not fit one page."""
    numbers, checks = estimate(grid)
    size = numbers * BYTES_PER_NUMBER
    if size > DATA_BUDGET or checks > MAX_CHECKS:
        raise GridTooLarge(
            f"a page of {len(grid.systems)} system(s) over {grid.settings:,} settings would hold "
            f"about {size / 1e6:.1f} MB of numbers ({checks:,} checks); allowed: at most "
            f"{DATA_BUDGET / 1e6:.2f} MB and {MAX_CHECKS:,} checks (fewer knob values, fewer "
            "pools or fewer systems)")


def _millionths(p: float | None) -> int | None:
    """A probability in millionths, as the page carries it; one that is not 0 or 1 (beyond the
    engine's float noise) never becomes 0 or a million, so the page never shows it as
    impossible or certain.

    Example:
        >>> _millionths(0.25), _millionths(1 - 1e-8), _millionths(1e-8), _millionths(1.0)
        (250000, 999999, 1, 1000000)
    """
    if p is None:
        return None
    p = float(p)
    shown = int(round(p * MILLION))
    if shown == MILLION and p < 1 - FLOAT_NOISE:
        return MILLION - 1
    if shown == 0 and p > FLOAT_NOISE:
        return 1
    return shown


def compute(grid: ShareGrid) -> ShareGrid:
    """Fill in every system's numbers (exact)."""
    for part in grid.systems:
        sys_ = part.system
        chosen = [Rung(AS_SET) if name == AS_SET else name for name in part.rungs]
        order: list = []
        found: list[list[tuple]] = []
        for combo in _combos(grid, part):
            given = {**part.fixed, **combo}
            sizes = [n for n in part.pools if n is not None] or [1]
            part.passes.append(_passes(part, sys_, sizes, chosen, given))
            row = []
            for size in part.pools:
                at = dict(given) if size is None else {**given, part.pool: size}
                try:
                    result = evaluate(sys_, at)
                except WorkbenchError as exc:   # a setting the rules refuse: said on the page
                    part.refused.setdefault(len(part.passes) - 1, str(exc))
                    row.append(None)
                    continue
                dist = result.tiers if result.tiers is not None else result.pmf
                part.kind = "tier" if result.tiers is not None else "outcome"
                order += [o for o in dist.outcomes if o not in order]
                row.append(tuple(dist.items()))
            found.append(row)
        if all(isinstance(o, int) for o in order):
            order = sorted(order)
        part.outcomes = [o if isinstance(o, int) else str(o) for o in order]
        for row in found:
            part.checks.append([None if items is None else
                                [_millionths(dict(items).get(o, 0.0)) for o in order]
                                for items in row])
    return grid


def _passes(part: SystemNumbers, sys_: System, sizes: list, chosen: list, given: dict) -> list:
    """P(pass) per rung and pool at one setting; a rung the rules refuse at this setting
    (Erzählspiel's die-colour rungs with advantage) is ``None``, its reason kept."""
    def read(frame, name):
        return [_millionths(v) if v == v else None
                for v in frame.loc[frame["rung"] == name, "p_pass"]]
    try:
        frame = success_curve(sys_, sizes, chosen, **given)
        return [read(frame, name) for name in part.rungs]
    except WorkbenchError:
        pass
    rows = []
    for name, rung in zip(part.rungs, chosen):
        try:
            rows.append(read(success_curve(sys_, sizes, [rung], **given), name))
        except WorkbenchError as exc:
            part.refused.setdefault(len(part.passes), str(exc))
            rows.append(None)
    return rows


def share_grid(systems: Iterable[Any], knobs: Mapping[str, Sequence[Any]] | None = None,
               pools: Sequence[int] | None = None, params: Mapping[str, Any] | None = None) -> ShareGrid:
    """Plan, refuse a grid too large, then compute (see :func:`plan`)."""
    grid = plan(systems, knobs or {}, pools, params)
    check_size(grid)
    return compute(grid)
