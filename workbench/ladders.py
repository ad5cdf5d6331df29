"""Difficulty ladders: P(pass) tables per rung, and a solver from wanted odds to settings.

A *ladder* is a system's list of difficulty rungs (``[[ladder]]`` in ``workbench/data/systems/*.toml``):
UWR's Easy/Normal/Difficult/Extreme, Arrata's Ob 1-6, Erzählspiel's die colours, the Unnamed
System's tiers. :func:`ladder_table` and :func:`difficulty_table` say how likely each rung is
for each pool size; :func:`solve_ladder` goes the other way, from the odds a designer wants
("Easy 90%, Normal 70% at 4 dice") to the target / Ob / favor / die that comes closest.

The knobs the solver turns are the ones the system's own ladder turns (the keys its rungs set
or add to), so a new system file gets a solver without new code.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from .analysis import success_curve
from .api import check
from .errors import WorkbenchError
from .rules.registry import get_system
from .rules.system import Rung, System

if TYPE_CHECKING:  # pandas loads on first use, keeping `import workbench` quick
    import pandas as pd

DEFAULT_TABLE_POOLS = range(1, 11)
#: Relative steps tried for knobs a ladder *adds* to (favor): the seeds only use +1, and past
#: +-2 favor the success face is already at its clamp on a d6.
DEFAULT_ADD_STEPS = range(-2, 3)
#: Stop raising a target / Ob once P(pass) falls below this: no designer asks for rarer.
_NEGLIGIBLE = 1e-6
_MAX_THRESHOLD = 200


def pool_label(system: "str | System", size: int, quality: str | None = None) -> str:
    """How designers write a pool of ``size`` dice in this system: ``3 dice``, ``3d6``, ``B3``.

    Example:
        >>> pool_label("uwr", 1), pool_label("unnamed", 3), pool_label("arrata", 5, "A")
        ('1 die', '3d6', 'A5')
    """
    sys_ = get_system(system)
    if "quality" in sys_.params:  # Arrata's stat notation: Quality letter + Quantity
        return f"{quality or sys_.params['quality'].default}{size}"
    if sys_.pool_parameter in ("d6", "d8"):
        return f"{size}{sys_.pool_parameter}"
    return f"{size} die" if size == 1 else f"{size} dice"


def ladder_table(system: "str | System", pool_sizes: Iterable[int] = DEFAULT_TABLE_POOLS,
                 rungs: "Sequence[str | Rung] | None" = None, **params: Any) -> pd.DataFrame:
    """P(pass) with one row per ladder rung and one column per pool size.

    Built on :func:`workbench.analysis.success_curve`. A system without a pool parameter
    (Erzählspiel: one die per check) gets a single column, ``P(pass)``.

    Example:
        >>> table = ladder_table("uwr", [1, 2])
        >>> table.round(4).loc["Difficult"].tolist()
        [0.0, 0.1111]
    """
    sys_ = get_system(system)
    sizes = list(pool_sizes)
    if sys_.pool_parameter and not sizes:
        raise WorkbenchError("pool_sizes is empty; allowed: one or more whole numbers >= 0")
    long = success_curve(sys_, sizes or [1], rungs, **params)
    if not sys_.pool_parameter:
        long = long.drop_duplicates("rung")
        table = long.set_index("rung")[["p_pass"]].rename(columns={"p_pass": "P(pass)"})
        table.columns.name = None
        return table
    table = long.pivot(index="rung", columns="pool", values="p_pass")
    table = table.reindex(index=list(dict.fromkeys(long["rung"])), columns=sizes)
    table.columns.name = sys_.pool_parameter
    return table


def difficulty_table(system: "str | System", pool_sizes: Iterable[int] = range(1, 7),
                     **params: Any) -> pd.DataFrame:
    """A seed's difficulty table with the probabilities added, ready to export.

    Columns: ``Difficulty`` (rung name), ``Example`` (when the seed gives examples),
    ``Setting`` (what the rung sets), then P(pass) per pool size headed as designers write
    pools (``1 die``, ``B3``, ``3d6``). For narrative dice (no pool size) the columns are the
    share of each outcome and ``any YES``, as in the source's odds table.

    Example:
        >>> table = difficulty_table("fons", [2])
        >>> list(table.columns), float(round(table.loc[0, "2 dice"], 4))
        (['Difficulty', 'Example', 'Setting', '2 dice'], 0.75)
    """
    import pandas as pd
    sys_ = get_system(system)
    if not sys_.ladder:
        raise WorkbenchError(f"{sys_.id}: has no difficulty ladder ([[ladder]] in its data file)")
    head = pd.DataFrame({"Difficulty": [r.name for r in sys_.ladder]})
    if any(r.example for r in sys_.ladder):
        head["Example"] = [r.example for r in sys_.ladder]
    head["Setting"] = [r.describe() for r in sys_.ladder]
    if not sys_.pool_parameter:
        shares = []
        for rung in sys_.ladder:
            result = check(sys_, **sys_.with_rung(rung, **params))
            row = dict(result.pmf.items())
            row["any YES" if sys_.outcome_labels else "P(pass)"] = result.p_pass
            shares.append(row)
        return pd.concat([head, pd.DataFrame(shares)], axis=1)
    sizes = list(pool_sizes)
    probs = ladder_table(sys_, sizes, **params)
    quality = sys_.resolve(**params).get("quality")
    probs.columns = [pool_label(sys_, n, quality) for n in sizes]
    return pd.concat([head, probs.reset_index(drop=True)], axis=1)


# --------------------------------------------------------------------------- the solver


def parse_wanted(text: str) -> dict[str, float]:
    """``"Easy=0.9,Normal=70%"`` -> ``{"Easy": 0.9, "Normal": 0.7}`` (order kept).

    Example:
        >>> parse_wanted("Easy=0.9, Hard=45%")
        {'Easy': 0.9, 'Hard': 0.45}
    """
    wanted: dict[str, float] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise WorkbenchError(f"--want entry {item!r} is not RUNG=PROBABILITY "
                                 "(e.g. Easy=0.9 or Easy=90%)")
        try:
            number = float(value[:-1]) / 100 if value.endswith("%") else float(value)
        except ValueError:
            raise WorkbenchError(f"--want {name}={value!r}: not a probability; allowed: a number "
                                 "from 0 to 1, or a percentage such as 90%") from None
        if name in wanted:
            raise WorkbenchError(f"--want rung {name!r} is given twice")
        wanted[name] = number
    if not wanted:
        raise WorkbenchError(f"--want {text!r} names no rung; e.g. \"Easy=0.9,Normal=0.7\"")
    return wanted


@dataclass(frozen=True)
class RungSolution:
    """The closest setting for one wanted probability.

    Attributes:
        name: the rung's name, as the designer gave it.
        wanted: the probability asked for.
        rung: the chosen setting as a :class:`~workbench.rules.system.Rung` (what it sets and
            what it adds to the character's own values).
        achieved: P(pass) of that setting at the solved pool.
        reachable: ``abs(achieved - wanted) <= tolerance``.
        note: why a rung is not reachable (empty when it is).
    """

    name: str
    wanted: float
    rung: Rung
    achieved: float
    reachable: bool
    note: str = ""

    @property
    def error(self) -> float:
        return self.achieved - self.wanted


@dataclass(frozen=True)
class LadderSolution:
    """The solved ladder: one :class:`RungSolution` per wanted rung, in the order asked.

    Example:
        >>> solution = solve_ladder("uwr", {"Easy": 0.8, "Extreme": 0.1}, pool=4)
        >>> [r.rung.describe() for r in solution.rungs]
        ['target=1', 'target=3']
    """

    system: str
    pool: int | None
    params: Mapping[str, Any]
    rungs: tuple[RungSolution, ...]
    tolerance: float
    knobs: Mapping[str, tuple] = field(default_factory=dict)
    source: "System | None" = field(default=None, compare=False, repr=False)
    """The system solved (a file loaded by path is not found again by its id)."""

    @property
    def ladder(self) -> tuple[Rung, ...]:
        """The solved rungs, usable wherever a system's own ladder is."""
        return tuple(r.rung for r in self.rungs)

    @property
    def unreachable(self) -> list[str]:
        """Names of rungs whose wanted probability no setting comes within tolerance of."""
        return [r.name for r in self.rungs if not r.reachable]

    def table(self) -> pd.DataFrame:
        """Wanted vs achieved, one row per rung: ``rung, setting, wanted, achieved, error,
        reachable, note``."""
        import pandas as pd
        return pd.DataFrame([{"rung": r.name, "setting": r.rung.describe(), "wanted": r.wanted,
                              "achieved": r.achieved, "error": r.error,
                              "reachable": r.reachable, "note": r.note} for r in self.rungs])

    def across_pools(self, pool_sizes: Iterable[int] = DEFAULT_TABLE_POOLS) -> pd.DataFrame:
        """How the solved ladder behaves for smaller and bigger pools (rows: rungs)."""
        return ladder_table(self.source or self.system, pool_sizes, list(self.ladder), **self.params)


def difficulty_knobs(system: "str | System",
                     add_steps: Sequence[int] = DEFAULT_ADD_STEPS) -> dict[str, tuple | None]:
    """The settings a system's ladder turns, with the values the solver tries.

    Keys a rung *sets* that are choices (die colour) try every choice; whole-number keys it
    sets (target, Ob) map to ``None``: the solver raises them from 1 until P(pass) is
    negligible. Keys a rung *adds* to (favor) try ``add_steps``.

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
            knobs[key] = tuple(add_steps)
    if not knobs:
        raise WorkbenchError(f"{sys_.id}: has no difficulty ladder to solve for "
                             "([[ladder]] in its data file sets nothing)")
    return knobs


def _candidates(sys_: System, knobs: Mapping[str, tuple | None], base: dict):
    """Every (Rung, P(pass)) the knobs reach at the given character settings."""
    listed = {k: v for k, v in knobs.items() if v is not None}
    rising = [k for k, v in knobs.items() if v is None]
    adds = {k for rung in sys_.ladder for k in rung.add}
    out = []
    for combo in itertools.product(*listed.values()):
        fixed = dict(zip(listed, combo))
        for levels in _rising_levels(sys_, rising, fixed, adds, base):
            setting = {**fixed, **levels}
            rung = Rung("?", {k: v for k, v in setting.items() if k not in adds},
                        {k: v for k, v in setting.items() if k in adds and v != 0})
            out.append((rung, _p_pass(sys_, rung, base)))
    return out


def _rising_levels(sys_, rising, fixed, adds, base):
    """Targets / Obs from 1 upwards until P(pass) is negligible (one rising knob), or the
    product of small ranges when a ladder sets several whole-number knobs."""
    if not rising:
        yield {}
        return
    if len(rising) > 1:
        yield from (dict(zip(rising, values)) for values in
                    itertools.product(*(range(1, 7) for _ in rising)))
        return
    key = rising[0]
    top = min(sys_.params[key].maximum or _MAX_THRESHOLD, _MAX_THRESHOLD)
    for level in range(max(sys_.params[key].minimum or 0, 1), top + 1):
        yield {key: level}
        rung = Rung("?", {k: v for k, v in {**fixed, key: level}.items() if k not in adds},
                    {k: v for k, v in fixed.items() if k in adds})
        if _p_pass(sys_, rung, base) < _NEGLIGIBLE:
            return


def _p_pass(sys_: System, rung: Rung, base: dict) -> float:
    result = check(sys_, **sys_.with_rung(rung, **base))
    if result.p_pass is None:
        raise WorkbenchError(f"{sys_.id}: rung {rung.describe()!r} gives no pass/fail result")
    return result.p_pass


def solve_ladder(system: "str | System", wanted: "Mapping[str, float] | str", pool: int | None = 4,
                 *, tolerance: float = 0.05, knobs: "Mapping[str, Sequence | None] | None" = None,
                 **params: Any) -> LadderSolution:
    """For each wanted probability, the ladder setting whose P(pass) comes closest.

    Args:
        system: system id, alias or :class:`System`.
        wanted: rung name -> wanted P(pass), in ladder order; or text such as
            ``"Easy=0.9,Normal=0.7"``. Names are free (``Hard`` need not be in the seed).
        pool: the typical pool the odds are wanted at (ignored by systems without a pool
            size, such as Erzählspiel's single die).
        tolerance: how far off a rung may be and still count as reachable.
        knobs: override :func:`difficulty_knobs` (e.g. ``{"target": None, "favor": (0,)}``
            to solve with targets only).
        **params: the character's other settings (quality, rerolls, ...).

    Ties go to the smaller change (least favor added), then to the lower target. Targets and
    Obs start at 1: a check with nothing to beat is not a difficulty.

    Example:
        >>> solution = solve_ladder("uwr", "Easy=0.9,Normal=0.7,Hard=0.45,Extreme=0.2", pool=4)
        >>> solution.table()[["rung", "setting"]].values.tolist()
        [['Easy', 'target=2, favor+2'], ['Normal', 'target=2, favor+1'], ['Hard', 'target=2'], ['Extreme', 'target=4, favor+2']]
        >>> solve_ladder("uwr", {"Sure": 0.999}, pool=1).unreachable
        ['Sure']
    """
    sys_ = get_system(system)
    goals = parse_wanted(wanted) if isinstance(wanted, str) else dict(wanted)
    for name, value in goals.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise WorkbenchError(f"wanted probability for {name!r} got {value!r}; "
                                 "allowed: a number from 0 to 1")
    if not goals:
        raise WorkbenchError("wanted names no rung; allowed: one or more RUNG=PROBABILITY")
    if not 0 <= tolerance <= 1:
        raise WorkbenchError(f"tolerance got {tolerance!r}; allowed: a number from 0 to 1")
    base = dict(params)
    if sys_.pool_parameter and pool is not None:
        if sys_.pool_parameter in base:
            raise WorkbenchError(f"give the pool as pool={pool}, not also "
                                 f"{sys_.pool_parameter}={base[sys_.pool_parameter]}")
        base[sys_.pool_parameter] = pool
    sys_.resolve(**base)  # bad character settings fail here, before the search
    chosen_knobs = dict(knobs) if knobs is not None else difficulty_knobs(sys_)
    candidates = _candidates(sys_, chosen_knobs, base)
    if not candidates:
        raise WorkbenchError(f"{sys_.id}: the knobs {chosen_knobs} give no setting to try")
    low = min(p for _, p in candidates)
    high = max(p for _, p in candidates)
    where = (f"at {pool_label(sys_, pool, base.get('quality'))}"
             if sys_.pool_parameter and pool is not None else "")
    solved = []
    for name, goal in goals.items():
        rung, achieved = min(candidates, key=lambda c: (round(abs(c[1] - goal), 12),
                                                        sum(abs(v) for v in c[0].add.values())))
        reachable = abs(achieved - goal) <= tolerance
        if reachable:
            note = ""
        elif low <= goal <= high:  # inside the range, but the steps between settings are coarse
            note = (f"no setting within {tolerance:.1%} of {goal:.1%} {where}".rstrip()
                    + f": the nearest settings step over it; closest is {achieved:.1%} "
                    f"({rung.describe()})")
        else:
            note = (f"cannot reach {goal:.1%} {where}".rstrip() + f": P(pass) runs from {low:.1%} to "
                    f"{high:.1%} over the settings tried; closest is {achieved:.1%} ({rung.describe()})")
        solved.append(RungSolution(name, float(goal), Rung(name, rung.set, rung.add), achieved,
                                   reachable, note))
    return LadderSolution(source=sys_, system=sys_.id, pool=pool if sys_.pool_parameter else None,
                          params=dict(params), rungs=tuple(solved), tolerance=tolerance,
                          knobs={k: v for k, v in chosen_knobs.items()})
