"""Text tables laid out by tabulate, with plain tables laid out here the very same way.

tabulate takes longer to import than a whole ``workbench pmf`` answer takes otherwise (it
reads its own package metadata and loads wcwidth for wide characters). Most tables the
command line prints are plain: every character one column wide (ASCII, accented Latin
letters, ``≤ ≥ ≈``), no spaces at either end. For those, :func:`layout` writes the pipe, grid and simple tables itself, exactly
as tabulate writes them (``tests/test_layout.py`` holds the two equal on random tables);
any other table (wide or combining characters, spaces at the ends, no rows) is laid out by
tabulate itself.

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
NARROW = frozenset(chr(c) for c in range(0x20, 0x7F)) | frozenset(
    chr(c) for c in range(0xC0, 0x100)) | frozenset("≤≥≈±·×–—’")
"""Characters one column wide in any terminal (and to tabulate): printable ASCII, the accented
letters of Latin-1 and the signs the workbench writes itself (``≤ 2``, ``≥ 12``, ``≈1/3``)."""
MIN_PADDING = 2
"""Spaces a column keeps beyond its heading's width (tabulate's own rule)."""


def layout(header: Sequence[str], rows: Sequence[Sequence[str]], fmt: str) -> str:
    """``rows`` of text under ``header`` as a ``pipe`` (Markdown), ``grid`` (reStructuredText)
    or ``simple`` (a terminal's plain columns) table, every column left-aligned, cells taken
    as text (``"1.50"`` stays ``"1.50"``)."""
    if fmt not in FORMATS:
        raise ValueError(f"table layout got {fmt!r}; allowed: {', '.join(FORMATS)}")
    header, rows = [str(h) for h in header], [[str(cell) for cell in row] for row in rows]
    if not _plain(header, rows):
        from tabulate import tabulate  # lazy: tabulate (reads its metadata, loads wcwidth)
        return tabulate(rows, headers=header, tablefmt=fmt, disable_numparse=True,
                        stralign="left")
    widths = [max(len(name) + MIN_PADDING, *(len(row[i]) for row in rows))
              for i, name in enumerate(header)]

    def line(cells: Sequence[str], begin: str, sep: str, end: str, pad: str) -> str:
        padded = (pad + cell.ljust(width) + pad for cell, width in zip(cells, widths))
        return (begin + sep.join(padded) + end).rstrip()

    if fmt == "simple":
        return "\n".join([line(header, "", "  ", "", ""), "  ".join("-" * w for w in widths),
                          *(line(row, "", "  ", "", "") for row in rows)])
    if fmt == "pipe":
        return "\n".join([line(header, "|", "|", "|", " "),
                          "|" + "|".join(":" + "-" * (w + 1) for w in widths) + "|",
                          *(line(row, "|", "|", "|", " ") for row in rows)])
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    body = [part for row in rows for part in (line(row, "|", "|", "|", " "), rule)]
    return "\n".join([rule, line(header, "|", "|", "|", " "),
                      "+" + "+".join("=" * (w + 2) for w in widths) + "+", *body])


def _plain(header: list[str], rows: list[list[str]]) -> bool:
    """A table this module lays out as tabulate would: at least one row, every row as long as
    the header, every cell made of :data:`NARROW` characters (one column each), without
    spaces at either end."""
    if not header or not rows or any(len(row) != len(header) for row in rows):
        return False
    return all(cell == cell.strip() and NARROW.issuperset(cell)
               for cells in (header, *rows) for cell in cells)
