"""Text tables: the one writer of pipe (Markdown), grid (reStructuredText) and simple tables.

Every text table the workbench prints or writes is laid out here, by tabulate, with the
workbench's own conventions: cells taken as text as they come (``"1.50"`` stays ``"1.50"``,
never re-read as a number) and every column left-aligned. tabulate loads when the first
table is drawn, not with ``import workbench``.

Example:
    >>> print(layout(["die", "any YES"], [["red", "33.3%"], ["green", "66.7%"]], "pipe"))
    | die   | any YES   |
    |:------|:----------|
    | red   | 33.3%     |
    | green | 66.7%     |
"""
from __future__ import annotations

from typing import Sequence

FORMATS = ("pipe", "grid", "simple")


def layout(header: Sequence[str], rows: Sequence[Sequence[str]], fmt: str) -> str:
    """``rows`` of text under ``header`` as a ``pipe`` (Markdown), ``grid`` (reStructuredText)
    or ``simple`` (a terminal's plain columns) table, every column left-aligned, cells taken
    as text."""
    if fmt not in FORMATS:
        raise ValueError(f"table layout got {fmt!r}; allowed: {', '.join(FORMATS)}")
    from tabulate import tabulate  # lazy: tabulate (loads with the first table)
    return tabulate([[str(cell) for cell in row] for row in rows], headers=[str(h) for h in header],
                    tablefmt=fmt, disable_numparse=True, stralign="left")
