"""Grids of points: a dict of parameter -> values (every combination) or a DataFrame of rows."""
from __future__ import annotations

import itertools
from typing import Any, Callable, Mapping

from .. import validation
from ..errors import WorkbenchError, shown
from ..limits import SWEEP_POINTS
from ._budget import check_points, grid_count

RESERVED = ("seed", "progress")
"""Parameters a sweep sets itself: each point's seed comes from the sweep's seed."""


def _values(name: str, values: Any) -> list:
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
        return [values]   # one value: the parameter is fixed at it
    if hasattr(values, "__len__"):
        check_points(len(values), f"sweep grid: parameter {name!r}")
    out = list(itertools.islice(values, SWEEP_POINTS.current() + 1))
    check_points(len(out), f"sweep grid: parameter {name!r}")
    if not out:
        raise WorkbenchError(f"sweep grid: parameter {name!r} has no values; allowed: at least "
                             "one value (a list, a range or a single value)")
    return out


def grid_points(grid: Any, wants_whole: Callable[[str], bool] = lambda name: True
                ) -> tuple[list[str], list[dict]]:
    """The parameter names and the points of a grid, in order (the last name varies fastest).

    A DataFrame's rows are read as pandas leaves them, and put right: an empty cell (NaN,
    None) is refused naming its column and row, and a whole float (3.0: pandas makes an int
    column with a gap, or one read from CSV, float) is the whole number 3 where the parameter
    wants one (``wants_whole(name)``); 3.5 stays 3.5 and is refused by the parameter.

    Example:
        >>> grid_points({"dice": range(1, 3), "target": [1, 2]})
        (['dice', 'target'], [{'dice': 1, 'target': 1}, {'dice': 1, 'target': 2}, {'dice': 2, 'target': 1}, {'dice': 2, 'target': 2}])
    """
    if hasattr(grid, "to_dict") and hasattr(grid, "columns"):   # a pandas DataFrame
        names = [str(c) for c in grid.columns]
        if len(set(names)) != len(names):
            raise WorkbenchError(f"sweep grid: the DataFrame's columns {names} repeat a name")
        check_points(len(grid))
        if not names or not len(grid):
            raise WorkbenchError("sweep grid: the DataFrame is empty; allowed: one row per "
                                 "point, one column per parameter")
        points = _rows(grid, names, wants_whole)
    elif isinstance(grid, Mapping):
        names = [str(k) for k in grid]
        if not names:
            raise WorkbenchError("sweep grid: no parameters; allowed: a dict such as "
                                 "{'dice': range(1, 9), 'target': [1, 2, 3]} or a DataFrame")
        columns = [_values(str(k), v) for k, v in grid.items()]
        check_points(grid_count(columns))
        points = [dict(zip(names, combo)) for combo in itertools.product(*columns)]
    else:
        raise WorkbenchError(f"sweep grid got {type(grid).__name__}; allowed: a dict of "
                             "parameter -> values, or a DataFrame of points")
    for name in names:
        if name in RESERVED:
            raise WorkbenchError(f"sweep grid: parameter {name!r} is set by the sweep itself "
                                 "(each point's seed comes from the sweep's seed)")
    return names, points


def _rows(frame, names: list[str], wants_whole: Callable[[str], bool]) -> list[dict]:
    empty = frame.isna().to_numpy()   # NaN, None, NA; a list or a dict in a cell is a value
    if empty.any():
        rows, columns = empty.nonzero()   # row by row: the first empty cell of the grid
        row, column = int(rows[0]), int(columns[0])
        raise WorkbenchError(f"sweep grid: the DataFrame's column {names[column]!r} is empty in "
                             f"row {_plain(frame.index[row])!r} (point {row + 1} of {len(frame)}; got "
                             f"{shown(_plain(frame.iat[row, column]))}); allowed: a value in "
                             "every cell (fill it, or drop the row)")
    whole = {name: wants_whole(name) for name in names}
    return [{name: _int_if_whole(_plain(value)) if whole[name] else _plain(value)
             for name, value in zip(names, row.values())} for row in frame.to_dict("records")]


def _int_if_whole(value: Any) -> Any:
    """3.0 -> 3 (a whole float, as pandas leaves an int column with a gap); else as given."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _plain(value: Any) -> Any:
    """numpy scalars from a DataFrame as plain Python numbers (the parameters check types)."""
    if hasattr(value, "item") and not hasattr(value, "__len__"):
        return value.item()
    return value


def check_names(function: str, names, allowed: set[str] | None, fixed: Mapping) -> None:
    """Every grid and fixed parameter must be one the function takes."""
    validation.renamed(f"sweep {function}", list(names) + list(fixed))
    if allowed is None:
        return
    for name in list(names) + list(fixed):
        if name not in allowed:
            raise WorkbenchError(f"sweep {function}: unknown parameter {name!r}"
                                 f"{validation.suggest(name, allowed)}; allowed: "
                                 + ", ".join(sorted(allowed)))
