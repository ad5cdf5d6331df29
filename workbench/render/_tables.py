"""The tables of ``table``, ``ladder`` and ``parameters`` blocks: numbers, then text."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..analysis import pool_label, probability_header, shown_probability
from ..errors import WorkbenchError
from ..export.tables import format_numbers
from ..odds_tables import column_knob, difficulty_rows
from ..results.table import Table
from ..rules.registry import get_system
from ._block import Block
from ._parse import want_error

if TYPE_CHECKING:  # pandas loads on first use
    import pandas as pd

    from ..rules.system import System


def table_frame(block: Block) -> "pd.DataFrame":
    """The numbers of a ``table`` or ``ladder`` block, as floats (before formatting).

    ``table``: the system's odds table, as ``workbench table`` prints it.
    ``parameters``: the system's parameters and rule options, defaults and allowed values.
    ``ladder``: the ladder's P(pass) per rung and pool size; with ``want``, the solved ladder
    (``show=solution``: wanted against achieved; ``show=pools``: across pool sizes).
    :func:`table_rows` gives a table block's numbers without pandas.
    """
    params = block.param_dict
    if block.kind == "parameters":
        return parameters_frame(block.system)
    if block.kind == "table":
        return table_rows(block).frame()
    if block.kind != "ladder":
        raise WorkbenchError(f"a {block.kind} block has no table")
    from ..ladders import ladder_table, solve_ladder  # lazy: ladders (only ladder blocks solve)
    if block.want is None:
        frame = ladder_table(block.system, list(block.pools), block.rungs and list(block.rungs),
                             condition=block.condition, **params)
        return _pool_headed(block, frame)
    try:
        solution = solve_ladder(block.system, block.want, block.pool, condition=block.condition, **params)
    except WorkbenchError as exc:
        raise want_error(block.want, exc) from None
    if block.show == "pools":
        return _pool_headed(block, solution.across_pools(list(block.pools)))
    table = solution.table()[["rung", "setting", "wanted", "achieved", "reachable"]]
    table["reachable"] = table["reachable"].map({True: "yes", False: "no"})
    if block.condition is not None:   # the odds of the condition, said in the header
        shown = shown_probability(block.condition)
        table = table.rename(columns={"wanted": f"wanted {shown}", "achieved": f"achieved {shown}"})
    return table


def table_rows(block: Block) -> "pd.DataFrame | Table":
    """A block's table as :func:`table_frame` gives it, but a ``table`` block's as plain rows
    (a :class:`~workbench.results.table.Table`, no pandas): what the command line, the
    Markdown route and the directive print."""
    if block.kind == "table":
        table = difficulty_rows(block.system, list(block.pools), condition=block.condition,
                                **block.param_dict)
        return table.where("Difficulty", block.rungs) if block.rungs is not None else table
    return table_frame(block)


def parameters_frame(system: "str | System") -> "pd.DataFrame":
    """A system's parameters, then its rule options: name, default, allowed values, meaning.

    Example:
        >>> parameters_frame("fons").iloc[-1].tolist()[:3]
        ['attack_resolution', 'rule option', 'opposed']
    """
    import pandas as pd  # lazy: pandas
    sys_ = get_system(system)

    def shown(value: Any) -> str:
        if value is None:
            return "(none)"
        return str(value).lower() if isinstance(value, bool) else str(value)
    rows = [{"Name": p.name, "Kind": "rule option" if p.rule_option else "parameter",
             "Default": shown(p.default), "Allowed": p.allowed(), "Meaning": p.help}
            for p in sorted(sys_.params.values(), key=lambda p: p.rule_option)]
    return pd.DataFrame(rows, columns=["Name", "Kind", "Default", "Allowed", "Meaning"])


def _pool_headed(block: Block, frame: "pd.DataFrame") -> "pd.DataFrame":
    """Columns headed as designers write pools (``1 die``, ``B3``, ``3d6``), rungs a column."""
    frame = frame.copy()
    if column_knob(block.system) and len(frame.columns) == len(block.pools):
        quality = block.param_dict.get("quality")
        frame.columns = [probability_header(pool_label(block.system, n, quality), block.condition)
                         for n in block.pools]
    frame.index.name = "Difficulty"
    return frame.reset_index()


def table_cells(block: Block) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a table block as the text a reader sees (numbers formatted)."""
    text = format_numbers(table_rows(block), block.numbers)
    rows = text.rows if isinstance(text, Table) else text.values.tolist()
    return [str(c) for c in text.columns], [[str(v) for v in row] for row in rows]
