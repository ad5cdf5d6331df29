"""A system's odds as a table, for ``workbench table``, ``workbench-table`` blocks and the
directive: one row per difficulty rung, one column per pool size.

A system with a ladder (``[[ladder]]`` in its data file) gets its rungs as rows: what each
sets, and P(pass) at each pool size (headed as designers write pools: ``1 die``, ``B3``,
``3d6``; ``skill 40`` for a knob that is not a number of dice). A system without a ladder
gets P(pass) by pool size, or, when it reads a roll into tiers and has no pass, each tier's
share by pool size. With a condition the cells are P(condition), and the rows say so.

The tables are built without pandas (:class:`~workbench.results.table.Table`), so the
command line answers quickly; :func:`difficulty_table` gives the same table as a DataFrame.

Example:
    >>> table = difficulty_rows("blades", [1, 2])
    >>> table.columns, table.rows
    (('Chance', '1 die', '2 dice'), (('P(pass)', 0.5, 0.75),))
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple

from .analysis import (curve_rows, default_pool_sizes, pool_label, pool_size_list,
                       probability_header, shown_probability)
from .api import check
from .errors import ParameterError, WorkbenchError
from .results.table import Table
from .rules.registry import get_system
from .rules.system import System

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


class Overridden(NamedTuple):
    """A setting a table's columns override: as written (``stat=B5``), the knob it sets
    (``dice``) and the value, and what else it sets (``quality=B``, or ``""``)."""

    said: str
    knob: str
    value: Any
    rest: str


def overridden_setting(system: "str | System", params: Mapping[str, Any],
                       knob: str | None = None) -> Overridden | None:
    """The setting among ``params`` that a table's columns (or a curve's pool axis) would
    override, or ``None``; ``knob``: the parameter the columns step through (default
    :func:`column_knob`). Arrata's shorthand ``stat=B5`` sets the dice too.

    Example:
        >>> overridden_setting("uwr", {"dice": 5, "favor": 1})
        Overridden(said='dice=5', knob='dice', value=5, rest='')
        >>> overridden_setting("arrata", {"stat": "B5"}), overridden_setting("uwr", {"favor": 1})
        (Overridden(said='stat=B5', knob='dice', value=5, rest='quality=B'), None)
    """
    sys_ = get_system(system)
    knob = column_knob(sys_) if knob is None else knob
    if knob is None:
        return None
    expanded = sys_.mechanic.preprocess(dict(params))
    if knob not in expanded:
        return None
    name = next((name for name in params if name == knob or name not in expanded), knob)
    value = expanded[knob]
    try:
        value = sys_.params[knob].parse(sys_.id, value)
    except (KeyError, WorkbenchError):
        pass
    rest = " ".join(f"{key}={shown}" for key, shown in expanded.items()
                    if key != knob and key not in params) if name != knob else ""
    return Overridden(f"{name}={params.get(name, value)}", knob, value, rest)


def difficulty_rows(system: "str | System", pool_sizes: Iterable[int] | None = None,
                    condition: str | None = None, **params: Any) -> Table:
    """The system's odds table as plain rows (see the module's description).

    Columns for a system with a ladder: ``Difficulty`` (rung name), ``Example`` (when the
    ladder gives examples), ``Setting`` (what the rung sets), then P(pass) per pool size, by
    default :func:`~workbench.analysis.default_pool_sizes`. For narrative dice (no pool size)
    the columns are the share of each outcome and ``any YES``, as in the source's odds table;
    for another system without a pool size, the share of each tier (if it has tiers) and
    P(pass). Without a ladder: ``Chance`` (``P(pass)``) or ``Tier`` (each tier's name), then
    the pool sizes (one column, ``probability``, for a system without a pool size).

    Example:
        >>> table = difficulty_rows("fons", [2])
        >>> table.columns, round(table.rows[0][-1], 4)
        (('Difficulty', 'Example', 'Setting', '2 dice'), 0.75)
    """
    sys_ = get_system(system)
    if condition is not None:
        sys_.condition(condition)   # one rule, before any work (labels: refused)
    if not sys_.ladder:
        return _odds_by_pool(sys_, pool_sizes, condition, params)
    not_set_by_every_rung(sys_, params)
    head = [("Difficulty", [r.name for r in sys_.ladder])]
    if any(r.example for r in sys_.ladder):
        head.append(("Example", [r.example for r in sys_.ladder]))
    head.append(("Setting", [r.describe() for r in sys_.ladder]))
    if not column_knob(sys_):
        shares = []
        for rung in sys_.ladder:
            result = check(sys_, **sys_.with_rung(rung, **params))
            row = _shares_without_pool(sys_, result)
            if condition:
                row[shown_probability(condition) + _given(sys_, params)] = result.probability(condition)
            else:
                row[("any YES" if sys_.outcome_labels else "P(pass)") + _given(sys_, params)] = result.p_pass
            shares.append(row)
        names = list(dict.fromkeys(name for row in shares for name in row))
        body = [(name, [row.get(name) for row in shares]) for name in names]
        return _table([*head, *body])
    sizes = pool_size_list(default_pool_sizes(sys_) if pool_sizes is None else pool_sizes)
    cells = {(row["rung"], row["pool"]): row["p_pass"]
             for row in curve_rows(sys_, sizes, condition=condition, **params)}
    quality = sys_.resolve(**params).get("quality")
    given = _given(sys_, params)
    body = [(probability_header(pool_label(sys_, n, quality), condition) + given,
             [cells[rung.name, n] for rung in sys_.ladder]) for n in sizes]
    return _table([*head, *body])


def not_set_by_every_rung(sys_: System, params: Mapping[str, Any]) -> None:
    """A setting every rung of the ladder sets itself (UWR's ``target``, Shadowrun's
    ``threshold``) would change no cell of the table: refused, never silently dropped."""
    for name, value in params.items():
        if sys_.ladder and all(name in rung.set for rung in sys_.ladder):
            rungs = "; ".join(f"{rung.name}: {rung.describe()}" for rung in sys_.ladder[:2])
            raise ParameterError(sys_.id, name, value, f"no {name} here: every rung of the ladder "
                                 f"sets it ({rungs}; ...), so it would change nothing")


def _given(sys_: System, params: Mapping[str, Any]) -> str:
    """The settings a table holds fixed, for its column headings: ``" (d8=2)"`` for the Unnamed
    System's ``d8=2`` (a column headed ``1d6`` alone would say 1d6 and show 1d6 + 2d8); ``""``
    when every setting is its default or the heading already says it (Arrata's Quality)."""
    if not params:
        return ""
    chosen, defaults = sys_.resolve(**params), sys_.resolve()
    said = {sys_.pool_parameter, "quality" if sys_.pool_parameter and "quality" in sys_.params else None}
    shown = [f"{name}={str(value).lower() if isinstance(value, bool) else value}"
             for name, value in chosen.items() if name not in said and value != defaults.get(name)]
    return f" ({', '.join(shown)})" if shown else ""


def _table(columns: list[tuple[str, list]]) -> Table:
    return Table(tuple(name for name, _ in columns), tuple(zip(*(cells for _, cells in columns))))


def _odds_by_pool(sys_: System, pool_sizes, condition: str | None, params: Mapping) -> Table:
    """A system without a ladder: P(pass) (or P(condition)) by pool size, or each tier's
    share when the system reads tiers and has no pass."""
    knob = sys_.pool_parameter
    sizes = (pool_size_list(default_pool_sizes(sys_) if pool_sizes is None else pool_sizes)
             if knob else [None])
    quality = sys_.resolve(**params).get("quality")
    given = _given(sys_, params)
    heads = [(pool_label(sys_, n, quality) if knob else "probability") + given for n in sizes]
    # The curve's rows first: they refuse pools that together need too much exact work.
    chances = [row["p_pass"] for row in curve_rows(sys_, sizes if knob else [1],
                                                   condition=condition, **params)]
    if condition is not None or chances[0] is not None:
        return _table([("Chance", [shown_probability(condition)]),
                       *((head, [value]) for head, value in zip(heads, chances))])
    results = [check(sys_, **(dict(params, **{knob: n}) if knob else params)) for n in sizes]
    if results[0].tiers is None:
        raise WorkbenchError(f"{sys_.id}: has no ladder, no pass and no tiers, so no table of "
                             "odds; allowed: a condition (--condition, e.g. \"total >= 10\"), or "
                             f"its distribution: workbench pmf {sys_.id}")
    shares = [dict(r.tiers.items()) for r in results]
    tiers = list(shares[0])
    return _table([("Tier", tiers), *((head, [share[t] for t in tiers])
                                      for head, share in zip(heads, shares))])


def difficulty_table(system: "str | System", pool_sizes: Iterable[int] | None = None,
                     condition: str | None = None, **params: Any) -> "pd.DataFrame":
    """A system's odds table, ready to export: :func:`difficulty_rows` as a DataFrame.

    Example:
        >>> table = difficulty_table("fons", [2])
        >>> list(table.columns), float(round(table.loc[0, "2 dice"], 4))
        (['Difficulty', 'Example', 'Setting', '2 dice'], 0.75)
    """
    return difficulty_rows(system, pool_sizes, condition, **params).frame()


def _shares_without_pool(sys_: System, result) -> dict:
    """A row for a system without a pool size: the share of each named outcome (narrative
    dice's answers, or the tiers a roll is read into); a bare total (a d20 + modifier, the
    best of two exploding dice) has too many outcomes for columns and shows only P(pass)."""
    if sys_.outcome_labels:
        return dict(result.pmf.items())
    if result.tiers is not None:
        return dict(result.tiers.items())
    return {}
