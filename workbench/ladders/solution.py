"""A solved ladder: the setting chosen for each wanted rung, and how the ladder reads across
pool sizes (what :func:`~workbench.ladders.solve_ladder` returns).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from ..analysis import default_pool_sizes, pool_label, probability_header, shown_probability
from ..numbers import json_ready
from ..results.rich import RichResult
from ..rules.registry import get_system
from ..rules.system import Rung, System
from .notes import pools_text
from .search import Conflict, find_conflicts
from .table import ladder_table

if TYPE_CHECKING:  # pandas loads on first use, keeping `import workbench` quick
    import pandas as pd  # lazy: pandas


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
        >>> from workbench.ladders import solve_ladder
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

    @property
    def quality(self) -> str | None:
        """The Quality the ladder was solved at (Arrata's ``quality=A`` or ``stat=A5``), for
        pool headings such as ``A5``; ``None`` for a system without one.

        Example:
            >>> from workbench.ladders import solve_ladder
            >>> solve_ladder("arrata", "Ob 1=0.9", stat="A5").quality
            'A'
        """
        sys_ = self.source if self.source is not None else get_system(self.system)
        return sys_.resolve(**self.params).get("quality") if "quality" in sys_.params else None

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
            >>> from workbench.ladders import solve_ladder
            >>> solve_ladder("uwr", "Normal=0.7", pools=[3, 4]).pools_table().columns.tolist()
            ['rung', 'setting', 'wanted', '3 dice', '4 dice', 'reachable', 'note']
        """
        import pandas as pd  # lazy: pandas
        quality = self.quality
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
            >>> from workbench.ladders import solve_ladder
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
        where = pools_text(self.system, conflict.pools, self.quality)
        verb = "beats" if conflict.kind == "beats" else "is as likely as"
        return (f"{conflict.harder} ({conflict.harder_setting}) {verb} {conflict.easier} "
                f"({conflict.easier_setting}) {where}").rstrip()
