"""Difficulty ladders: P(pass) tables per rung, and a solver from wanted odds to settings.

A *ladder* is a system's list of difficulty rungs (``[[ladder]]`` in ``workbench/data/systems/*.toml``):
UWR's Easy/Normal/Difficult/Extreme, Arrata's Ob 1-6, Erzählspiel's die colours, the Unnamed
System's tiers. :func:`ladder_table` and :func:`difficulty_table` say how likely each rung is
for each pool size; :func:`solve_ladder` goes the other way, from the odds a designer wants
("Easy 90%, Normal 70% at 4 dice") to the target / Ob / favor / die that comes closest
while the ladder stays a ladder: no rung more likely to pass than an easier one at any pool
of the typical characters' range (the search itself is in ``workbench._ladder_search``).

The knobs the solver turns are the ones the system's own ladder turns (the keys its rungs set
or add to), so a new system file gets a solver without new code.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

import numpy as np

from . import _ladder_notes as _notes
from . import validation
from ._ladder_search import (  # noqa: F401 (public here)
    DEFAULT_ADD_STEPS,
    Conflict,
    candidates,
    check_goals,
    check_search,
    check_knobs,
    check_pools,
    closest_each,
    difficulty_knobs,
    find_conflicts,
    ordered_choice,
)
from .analysis import (  # noqa: F401 (pool_label, default_pool_sizes: public here too)
    default_pool_sizes, pool_label, pool_size_list, probability_header, shown_probability,
    success_curve, typical_pool)
from .api import check
from .errors import ParameterError, WorkbenchError
from .limits import MAX_DICE
from .numbers import json_ready
from .results.rich import RichResult
from .rules.registry import get_system
from .rules.system import Rung, System

if TYPE_CHECKING:  # pandas loads on first use, keeping `import workbench` quick
    import pandas as pd  # lazy: pandas

def column_knob(system: "str | System") -> str | None:
    """The parameter a table's columns step through: the system's pool parameter, unless its
    ladder sets that parameter itself (Cypher's rungs are task levels: a column per level
    would only repeat each rung's odds under another level's heading). A ladder that *adds*
    to it ("Hard: -2 dice") keeps the columns: each is the character's own pool.

    Example:
        >>> column_knob("uwr"), column_knob("cypher"), column_knob("erzahlspiel")
        ('dice', None, None)
    """
    sys_ = get_system(system)
    name = sys_.pool_parameter
    if name and any(name in rung.set for rung in sys_.ladder):
        return None
    return name


def ladder_table(system: "str | System", pool_sizes: Iterable[int] | None = None,
                 rungs: "Sequence[str | Rung] | None" = None, condition: str | None = None,
                 **params: Any) -> pd.DataFrame:
    """P(pass) with one row per ladder rung and one column per pool size.

    Built on :func:`workbench.analysis.success_curve`. A system without a pool parameter
    (Erzählspiel: one die per check) gets a single column, ``P(pass)``. With ``condition``
    (over the system's statistics and parameters) the cells are P(condition). Without
    ``pool_sizes``: :func:`default_pool_sizes` (1-10 dice, within the system's bounds).

    Example:
        >>> table = ladder_table("uwr", [1, 2])
        >>> table.round(4).loc["Difficult"].tolist()
        [0.0, 0.1111]
    """
    sys_ = get_system(system)
    sizes = pool_size_list(default_pool_sizes(sys_) if pool_sizes is None else pool_sizes)
    long = success_curve(sys_, sizes or [1], rungs, condition=condition, **params)
    if not column_knob(sys_):
        long = long.drop_duplicates("rung")
        table = long.set_index("rung")[["p_pass"]].rename(columns={"p_pass": shown_probability(condition)})
        table.columns.name = None
        return table
    table = long.pivot(index="rung", columns="pool", values="p_pass")
    table = table.reindex(index=list(dict.fromkeys(long["rung"])), columns=sizes)
    table.columns.name = sys_.pool_parameter
    return table


def difficulty_table(system: "str | System", pool_sizes: Iterable[int] | None = None,
                     condition: str | None = None, **params: Any) -> pd.DataFrame:
    """A seed's difficulty table with the probabilities added, ready to export.

    Columns: ``Difficulty`` (rung name), ``Example`` (when the seed gives examples),
    ``Setting`` (what the rung sets), then P(pass) per pool size headed as designers write
    pools (``1 die``, ``B3``, ``3d6``; ``skill 40`` for a knob that is not a number of dice),
    by default :func:`default_pool_sizes`. For narrative dice (no pool size) the columns are
    the share of each outcome and ``any YES``, as in the source's odds table; for another
    system without a pool size, the share of each tier (if it has tiers) and P(pass).

    Example:
        >>> table = difficulty_table("fons", [2])
        >>> list(table.columns), float(round(table.loc[0, "2 dice"], 4))
        (['Difficulty', 'Example', 'Setting', '2 dice'], 0.75)
    """
    import pandas as pd  # lazy: pandas
    sys_ = get_system(system)
    if condition is not None:
        sys_.condition(condition)   # one rule, before any work (labels: refused)
    if not sys_.ladder:
        raise WorkbenchError(f"{sys_.id}: has no difficulty ladder ([[ladder]] in its data file), "
                             "so no difficulty table; allowed: a system with a ladder (workbench "
                             "systems), or for this one its P(pass) per pool (workbench ladder_table, "
                             "a workbench-ladder block) or a check / outcomes figure")
    head = pd.DataFrame({"Difficulty": [r.name for r in sys_.ladder]})
    if any(r.example for r in sys_.ladder):
        head["Example"] = [r.example for r in sys_.ladder]
    head["Setting"] = [r.describe() for r in sys_.ladder]
    if not column_knob(sys_):
        shares = []
        for rung in sys_.ladder:
            result = check(sys_, **sys_.with_rung(rung, **params))
            row = _shares_without_pool(sys_, result)
            if condition:
                row[f"P({condition})"] = result.probability(condition)
            else:
                row["any YES" if sys_.outcome_labels else "P(pass)"] = result.p_pass
            shares.append(row)
        return pd.concat([head, pd.DataFrame(shares)], axis=1)
    sizes = pool_size_list(default_pool_sizes(sys_) if pool_sizes is None else pool_sizes)
    probs = ladder_table(sys_, sizes, condition=condition, **params)
    quality = sys_.resolve(**params).get("quality")
    probs.columns = [probability_header(pool_label(sys_, n, quality), condition) for n in sizes]
    return pd.concat([head, probs.reset_index(drop=True)], axis=1)


def _shares_without_pool(sys_: "System", result) -> dict:
    """A row for a system without a pool size: the share of each named outcome (narrative
    dice's answers, or the tiers a roll is read into); a bare total (a d20 + modifier, the
    best of two exploding dice) has too many outcomes for columns and shows only P(pass)."""
    if sys_.outcome_labels:
        return dict(result.pmf.items())
    if result.tiers is not None:
        return dict(result.tiers.items())
    return {}


# --------------------------------------------------------------------------- the solver


def parse_wanted(text: str) -> dict[str, float]:
    """``"Easy=0.9,Normal=70%"`` -> ``{"Easy": 0.9, "Normal": 0.7}`` (order kept).

    Example:
        >>> parse_wanted("Easy=0.9, Hard=45%")
        {'Easy': 0.9, 'Hard': 0.45}
    """
    if not isinstance(text, str):
        raise WorkbenchError(f"--want got {text!r}; allowed: text such as \"Easy=0.9,Normal=70%\"")
    wanted: dict[str, float] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, sep, value = item.partition("=")
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


@dataclass(frozen=True)
class RungSolution:
    """The setting chosen for one wanted probability.

    Attributes:
        name: the rung's name, as the designer gave it.
        wanted: the probability asked for.
        rung: the chosen setting as a :class:`~workbench.rules.system.Rung` (what it sets and
            what it adds to the character's own values).
        achieved: P(pass) of that setting at the typical pool.
        reachable: ``abs(achieved - wanted) <= tolerance``.
        note: why the rung is not where it was wanted, or why keeping the ladder in order
            moved it off the closest setting (empty otherwise).
        p_pass: P(pass) at each pool of the solved range (pool size -> probability; one
            entry keyed ``None`` for systems without a pool size).
    """

    name: str
    wanted: float
    rung: Rung
    achieved: float
    reachable: bool
    note: str = ""
    p_pass: Mapping[Any, float] = field(default_factory=dict)

    @property
    def error(self) -> float:
        return self.achieved - self.wanted


@dataclass(frozen=True, repr=False)
class LadderSolution(RichResult):
    """The solved ladder: one :class:`RungSolution` per wanted rung, in the order asked.

    ``order`` names the rungs easiest first (by wanted odds); ``ordered`` says whether every
    rung is at most as likely as the easier one at every pool of ``pools`` and no two rungs
    are equally likely at the typical ``pool``. ``conflicts`` are what the closest settings,
    taken rung by rung, would have broken (why the solver chose otherwise); ``outside`` are
    crossings of the solved ladder at the pools of ``report_pools`` outside the range:
    reported, not enforced.

    Example:
        >>> solution = solve_ladder("uwr", {"Easy": 0.8, "Extreme": 0.1}, pool=4)
        >>> [r.rung.describe() for r in solution.rungs], solution.ordered
        (['target=1', 'target=3'], True)
    """

    system: str
    pool: int | None
    params: Mapping[str, Any]
    rungs: tuple[RungSolution, ...]
    tolerance: float
    knobs: Mapping[str, tuple] = field(default_factory=dict)
    pools: tuple = ()
    order: tuple[str, ...] = ()
    ordered: bool = True
    conflicts: tuple[Conflict, ...] = ()
    outside: tuple[Conflict, ...] = ()
    source: "System | None" = field(default=None, compare=False, repr=False)
    condition: str | None = None
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
        import pandas as pd  # lazy: pandas
        return pd.DataFrame([{"rung": r.name, "setting": r.rung.describe(), "wanted": r.wanted,
                              "achieved": r.achieved, "error": r.error,
                              "reachable": r.reachable, "note": r.note} for r in self.rungs])

    def pools_table(self) -> pd.DataFrame:
        """Per rung: ``rung, setting, wanted``, P(pass) at each pool of the range (headed as
        designers write pools: ``3 dice``, ``B3``; ``P(pass)`` for a single die),
        ``reachable`` and ``note`` (what ``workbench ladder`` prints). Solved for a condition,
        the headers name it: ``wanted P(beaten == 2)``, ``P(beaten == 2) at 3 dice``.

        Example:
            >>> solve_ladder("uwr", "Normal=0.7", pools=[3, 4]).pools_table().columns.tolist()
            ['rung', 'setting', 'wanted', '3 dice', '4 dice', 'reachable', 'note']
        """
        import pandas as pd  # lazy: pandas
        quality = self.params.get("quality")
        wanted = "wanted" if self.condition is None else f"wanted {shown_probability(self.condition)}"
        rows = []
        for rung in self.rungs:
            row = {"rung": rung.name, "setting": rung.rung.describe(), wanted: rung.wanted}
            for size, p in rung.p_pass.items():
                row[shown_probability(self.condition) if size is None else
                    probability_header(pool_label(self.source or self.system, size, quality),
                                       self.condition)] = p
            rows.append({**row, "reachable": rung.reachable, "note": rung.note})
        return pd.DataFrame(rows)

    def _pool_sizes(self, pool_sizes: Iterable[int] | None) -> Iterable[int]:
        """The sizes given, else the system's :func:`default_pool_sizes`."""
        return default_pool_sizes(self.source or self.system) if pool_sizes is None else pool_sizes

    def across_pools(self, pool_sizes: Iterable[int] | None = None) -> pd.DataFrame:
        """P(pass) of the solved rungs for any pool sizes (rows: rungs in the order asked;
        columns: pool sizes; by default :func:`default_pool_sizes`)."""
        return ladder_table(self.source or self.system, self._pool_sizes(pool_sizes),
                            list(self.ladder), condition=self.condition, **self.params)

    def curves(self, pool_sizes: Iterable[int] | None = None) -> pd.DataFrame:
        """The solved ladder as curves, one row per (rung, pool), ready to draw: columns
        ``rung, setting, wanted, pool, p_pass, in_range`` (the pool is one of ``pools``,
        where the order is enforced) and ``typical`` (the pool the odds were wanted at).

        Example:
            >>> curves = solve_ladder("uwr", "Normal=0.7,Hard=0.4", pool=4).curves([1, 4])
            >>> curves[["rung", "pool", "typical"]].values.tolist()
            [['Normal', 1, False], ['Normal', 4, True], ['Hard', 1, False], ['Hard', 4, True]]
        """
        import pandas as pd  # lazy: pandas
        sizes = list(self._pool_sizes(pool_sizes))
        wide = self.across_pools(sizes)
        rows = []
        for rung in self.rungs:
            for size, column in zip(sizes, wide.columns if len(wide.columns) == len(sizes)
                                    else [wide.columns[0]] * len(sizes)):
                rows.append({"rung": rung.name, "setting": rung.rung.describe(),
                             "wanted": rung.wanted, "pool": size,
                             "p_pass": float(wide.loc[rung.name, column]),
                             "in_range": self.pool is None or size in self.pools,
                             "typical": self.pool is None or size == self.pool})
        return pd.DataFrame(rows)

    def crossings(self, pool_sizes: Iterable[int] | None = None) -> tuple[Conflict, ...]:
        """Pairs of solved rungs out of order at any of ``pool_sizes``: the harder one more
        likely to pass than the easier one (ties are not crossings)."""
        sizes = list(self._pool_sizes(pool_sizes)) if self.pool is not None else [None]
        if not sizes:
            return ()
        wide = self.across_pools([n for n in sizes if n is not None] or [1])
        rows = {r.name: wide.loc[r.name].tolist() for r in self.rungs}
        settings = {r.name: r.rung.describe() for r in self.rungs}
        return tuple(find_conflicts(self.order, [settings[n] for n in self.order],
                                    [rows[n] for n in self.order], sizes, None, ties=False))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``workbench ladder --format json`` (numbers rounded to 15
        significant digits: full precision without float noise)."""
        return json_ready({
            "system": self.system, "params": dict(self.params), "pool": self.pool,
            **({"condition": self.condition} if self.condition is not None else {}),
            "pools": [n for n in self.pools if n is not None], "tolerance": self.tolerance,
            "ordered": self.ordered, "order": list(self.order),
            "rungs": [{"name": r.name, "settings": r.rung.describe(), "set": dict(r.rung.set),
                       "add": dict(r.rung.add), "wanted": r.wanted, "achieved": r.achieved,
                       "error": r.error,
                       "p_pass": {str(n): p for n, p in r.p_pass.items() if n is not None},
                       "reachable": r.reachable, "note": r.note} for r in self.rungs],
            "conflicts": [c.to_dict() for c in self.conflicts],
            "outside_range": [c.to_dict() for c in self.outside]})

    def describe(self, conflict: Conflict) -> str:
        """One conflict in words: ``Extreme (target=4, favor+2) beats Difficult (target=2)
        at 6-10 dice``."""
        where = pools_text(self.system, conflict.pools, self.params.get("quality"))
        verb = "beats" if conflict.kind == "beats" else "is as likely as"
        return (f"{conflict.harder} ({conflict.harder_setting}) {verb} {conflict.easier} "
                f"({conflict.easier_setting}) {where}").rstrip()


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
    sys_.resolve(**base)  # bad character settings fail here, before the search
    chosen_knobs = check_knobs(sys_, knobs) if knobs is not None else difficulty_knobs(sys_)
    _not_also_given(sys_, chosen_knobs, params, base)
    typical = range_pools.index(pool) if sized else 0
    parsed = None if condition is None else sys_.condition(condition)
    cands = candidates(sys_, chosen_knobs, base, range_pools, typical, parsed)
    if not cands:
        raise WorkbenchError(f"{sys_.id}: the knobs {chosen_knobs} give no setting to try")
    check_search(sys_, cands, range_pools, len(goals))   # before the search, not hours into it
    order = sorted(goals, key=lambda name: -goals[name])  # stable: equal odds keep their order
    ranked = [goals[name] for name in order]
    picks = ordered_choice(cands, ranked, tolerance)
    distinct = picks is not None
    if picks is None:  # more rungs than distinct odds: keep the order, allow ties
        picks = ordered_choice(cands, ranked, tolerance, distinct=False)
    free = closest_each(cands, ranked, tolerance)
    quality = sys_.resolve(**base).get("quality")
    where = pools_text(sys_, [pool], quality) if sized else ""
    def where_of(pools_) -> str:
        return pools_text(sys_, pools_, quality)
    def clashes_of(indices):
        return find_conflicts(order, [cands[i].rung.describe() for i in indices],
                              [cands[i].p_pass for i in indices], range_pools, typical)
    conflicts = () if free == picks else tuple(clashes_of(free))
    low = min(c.at_typical for c in cands)
    high = max(c.at_typical for c in cands)
    solved = {}
    for rank, name in enumerate(order):
        cand, goal = cands[picks[rank]], goals[name]
        reachable = abs(cand.at_typical - goal) <= tolerance
        note = ""
        if picks[rank] != free[rank]:
            clashes = [c for c in conflicts if name in (c.easier, c.harder)]
            note = _notes.moved_note(name, cands[free[rank]], cand, clashes, where_of)
        if not reachable:
            reach = (_notes.reaching_pool(sys_, chosen_knobs, base, goal, tolerance, pool,
                                          lambda n: where_of([n]), parsed) if sized else "")
            note = _notes.unreachable_note(goal, low, high, tolerance, where, reach, note)
        solved[name] = RungSolution(name, goal, Rung(name, cand.rung.set, cand.rung.add),
                                    cand.at_typical, reachable, note,
                                    dict(zip(range_pools, cand.p_pass)))
    ties = [] if distinct else clashes_of(picks)
    if ties:  # say why no distinct ladder exists: too few different odds, or the range
        levels = len({round(c.at_typical, 12) for c in cands})
        why = (f"only {levels} different odds can be set {where}".rstrip() + f" for {len(order)} rungs"
               if levels < len(order) else "no distinct setting keeps the order "
               + pools_text(sys_, range_pools, quality))
        for tie in {tie.harder: tie for tie in reversed(ties)}.values():  # first tie per rung
            rung = solved[tie.harder]
            solved[tie.harder] = replace(rung, note="; ".join(filter(None, [
                rung.note, f"as likely as {tie.easier} {where}".rstrip() + f": {why}"])))
    solution = LadderSolution(source=sys_, system=sys_.id, pool=pool if sized else None, params=dict(params),
                              rungs=tuple(solved[name] for name in goals), tolerance=tolerance,
                              knobs=chosen_knobs, pools=range_pools if sized else (),
                              order=tuple(order), ordered=distinct, condition=condition,
                              conflicts=conflicts + tuple(c for c in ties if c not in conflicts))
    if not sized:
        return solution
    report = pool_size_list(default_pool_sizes(sys_) if report_pools is None else report_pools,
                            "report_pools")
    outside = [n for n in report if n not in range_pools]
    return replace(solution, outside=solution.crossings(outside) if outside else ())
