"""A system's ladder as a table: P(pass) of each rung at each pool size (a DataFrame).

Example:
    >>> ladder_table("uwr", [1, 2]).round(4).loc["Normal"].tolist()
    [0.3333, 0.5556]
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..analysis import default_pool_sizes, pool_size_list, shown_probability, success_curve
from ..odds_tables import column_knob
from ..rules.registry import get_system
from ..rules.system import Rung, System

if TYPE_CHECKING:  # pandas loads on first use, keeping `import workbench` quick
    import pandas as pd  # lazy: pandas


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
