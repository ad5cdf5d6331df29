"""Reading the tables the CLI writes (Markdown, reStructuredText grid, CSV) back into cells,
so a test can compare every number with an independently computed one instead of looking
for a header word. A helper, not a reference: it computes nothing."""
from __future__ import annotations

import csv
import io
import re


def tables(text: str, fmt: str) -> list[list[list[str]]]:
    """Every table of ``text`` as rows of cells (header row first), in order."""
    if fmt == "csv":
        return [list(csv.reader(io.StringIO(block))) for block in text.strip().split("\n\n")
                if block.strip()]
    found: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in text.splitlines() + [""]:
        line = line.strip()
        if line.startswith("|") and not re.match(r"^\|[\s:|-]+\|$", line):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif line.startswith("+") or re.match(r"^\|[\s:|-]+\|$", line):
            continue   # rule lines of a grid or of a Markdown header
        elif rows:
            found.append(rows)
            rows = []
    return found


def as_dict(rows: list[list[str]]) -> dict[str, str]:
    """A two-column table (header first) as {first cell: second cell}."""
    return {row[0]: row[1] for row in rows[1:]}


def number(cell: str) -> float:
    """A cell as a number: ``"43.21%"`` -> 0.4321, ``"0.333333"`` -> 0.333333."""
    cell = cell.strip()
    return float(cell[:-1]) / 100 if cell.endswith("%") else float(cell)
