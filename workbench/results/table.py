"""A table of numbers as plain rows: what a command prints needs no pandas.

:func:`workbench.ladders.difficulty_rows` gives a system's odds as a :class:`Table`; the
exports (:func:`workbench.export.tables.render_table`) write it as they write a DataFrame,
and :meth:`Table.frame` is the DataFrame for notebooks.

Example:
    >>> table = Table(("Difficulty", "1 die"), (("Easy", 0.5), ("Hard", None)))
    >>> table.column("1 die")
    [0.5, None]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd  # lazy: pandas


@dataclass(frozen=True)
class Table:
    """Column names and one tuple of cells per row; a cell is text, a whole number, a
    probability (a float) or ``None`` for a cell left empty."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]

    def column(self, name: str) -> list[Any]:
        """The cells of one column, top to bottom."""
        index = self.columns.index(name)
        return [row[index] for row in self.rows]

    def where(self, column: str, keep) -> "Table":
        """Only the rows whose cell in ``column`` is in ``keep``."""
        index = self.columns.index(column)
        return Table(self.columns, tuple(row for row in self.rows if row[index] in keep))

    def frame(self) -> "pd.DataFrame":
        """The table as a pandas DataFrame (an empty cell is NaN in a column of numbers)."""
        import pandas as pd  # lazy: pandas
        return pd.DataFrame([list(row) for row in self.rows], columns=list(self.columns))
