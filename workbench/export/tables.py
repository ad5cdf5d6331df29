"""Any table (a pandas DataFrame, or a :class:`~workbench.results.table.Table` of plain rows)
as reStructuredText, Markdown, CSV or HTML, for the docs.

Exports happen in two steps: :func:`format_numbers` turns probabilities into text the way
designers write them (``66.7%``, ``0.667``, ``2/3``), then :func:`render_table` lays the text
out. tabulate draws the grid and pipe tables (plain ones are drawn the same way by
:mod:`.layout` without loading it), pandas writes HTML (and a DataFrame's CSV; the
csv module a Table's); the RST ``list-table`` and ``csv-table`` directives are a thin wrapper
around library-rendered rows. A Table is written without loading pandas (except as HTML).

Example:
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"die": ["red", "green"], "any YES": [1 / 3, 2 / 3]})
    >>> print(render_table(frame, "md"))
    | die   | any YES   |
    |:------|:----------|
    | red   | 33.3%     |
    | green | 66.7%     |
"""
from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import WorkbenchError
from ..numbers import FLOAT_NOISE, fixed, marked  # noqa: F401 (FLOAT_NOISE: used from here too)
from ..results.distribution import possible_only
from ..results.table import Table
from .layout import layout

if TYPE_CHECKING:  # pandas loads on first use, keeping `import workbench` quick
    import pandas as pd  # lazy: pandas

TABLE_FORMATS = ("rst-grid", "rst-list", "rst-csv", "md", "csv", "html", "text")
NUMBER_STYLES = ("percent", "digits", "fraction")
#: Probabilities this close to 0 or 1 are 0 or 1 (the exact engine's own precision).


@dataclass(frozen=True)
class NumberFormat:
    """How probabilities are written: ``percent`` (``66.7%``), ``digits`` (``0.667``) or
    ``fraction`` (``2/3``; ``≈`` marks a fraction rounded to ``max_denominator``).

    With ``marks`` (the default) a probability that is not 0 but rounds to 0 at the shown
    precision is written ``< 0.1%``, and one that is not 1 but rounds to 100% ``> 99.9%``: a
    table never shows an impossible or a certain result that is neither. CSV exports turn
    marks off, so spreadsheets read plain numbers.

    Example:
        >>> NumberFormat("percent", 1).text(2 / 3), NumberFormat("digits", 3).text(2 / 3)
        ('66.7%', '0.667')
        >>> NumberFormat("fraction").text(2 / 3)
        '2/3'
        >>> pct = NumberFormat("percent", 1)
        >>> pct.text(0.0002), pct.text(0.0), pct.text(0.9999), pct.text(1.0)
        ('< 0.1%', '0.0%', '> 99.9%', '100.0%')
        >>> pct.text(0.9995), pct.text(0.0005)    # 99.95% would round up to 100.0%
        ('> 99.9%', '0.1%')
    """

    style: str = "percent"
    digits: int = 1
    max_denominator: int = 1_000_000
    marks: bool = True

    @property
    def resolution(self) -> float:
        """Half the smallest step shown: probabilities below it display as 0 (``< 0.1%``).
        Zero for fractions, which are exact."""
        if self.style == "fraction":
            return 0.0
        return 0.5 * 10.0 ** -self.digits / (100 if self.style == "percent" else 1)

    def __post_init__(self):
        if self.style not in NUMBER_STYLES:
            raise WorkbenchError(f"number style got {self.style!r}; allowed: "
                                 + ", ".join(NUMBER_STYLES))
        if isinstance(self.digits, bool) or not isinstance(self.digits, int) or not 0 <= self.digits <= 15:
            raise WorkbenchError(f"digits got {self.digits!r}; allowed: a whole number from 0 to 15")

    def text(self, value) -> str:
        """One number as text; whole numbers, text and missing values pass through."""
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return ""
        if isinstance(value, (bool, np.bool_, str)) or isinstance(value, (int, np.integer)):
            return str(value)
        value = float(value)
        if self.marks and self.style != "fraction":
            return marked(value, self.digits, percent=self.style == "percent")
        return self._plain(value)

    def _plain(self, value: float) -> str:
        if self.style in ("percent", "digits"):  # float noise off, halves up: 9.375% -> 9.38%
            return fixed(value, self.digits, percent=self.style == "percent")
        fraction = Fraction(value).limit_denominator(self.max_denominator)
        exact = abs(float(fraction) - value) <= 1e-12
        body = str(fraction.numerator) if fraction.denominator == 1 else str(fraction)
        return body if exact else "≈" + body


def _as_number(outcome: Any) -> int | None:
    if isinstance(outcome, (bool, np.bool_)):
        return None
    if isinstance(outcome, (int, np.integer)):
        return int(outcome)
    try:
        return int(str(outcome))
    except ValueError:
        return None


def cut_tails(outcomes, probabilities, resolution: float) -> list[tuple[str, float, bool]]:
    """The rows a table shows for a distribution: ``(label, probability, is_tail)``.

    Numeric outcomes at either end whose probabilities *together* stay below ``resolution``
    (half the smallest step the table shows, see
    :attr:`workbench.export.tables.NumberFormat.resolution`) become one row ``≤ k`` or
    ``≥ k`` holding their total, which the table then writes as ``< 0.01%``; a tail of
    outcomes that never happen is dropped. Labelled outcomes (narrative dice, tiers) are all
    kept. The cut never changes which outcomes a reader can see as possible: the merged tail
    says it is there. Of outcomes most of them impossible (totals far apart), only the
    possible ones are shown (:func:`~workbench.results.distribution.possible_only`).

    Example:
        >>> cut_tails([0, 1, 2, 3, 4], [1e-9, 0.5, 0.3, 0.2 - 2e-9, 1e-9], 5e-5)
        [('≤ 0', 1e-09, True), ('1', 0.5, False), ('2', 0.3, False), ('3', 0.199999998, False), ('≥ 4', 1e-09, True)]
    """
    probabilities = np.asarray(list(probabilities) if not isinstance(probabilities, np.ndarray)
                               else probabilities, dtype=float)
    possible = np.flatnonzero(probabilities)
    if possible_only(len(possible), len(probabilities)):
        # Totals far apart (a count times 1000): the impossible ones between them are not
        # shown, or the table would be thousands of rows of 0%.
        outcomes = list(outcomes)
        outcomes, probabilities = [outcomes[i] for i in possible], probabilities[possible]
    items = [(o, float(p)) for o, p in zip(outcomes, probabilities)]
    numbers = [_as_number(o) for o, _ in items]
    if resolution <= 0 or len(items) < 2 or any(n is None for n in numbers):
        return [(str(o), p, False) for o, p in items]
    low, low_mass = 0, 0.0
    while low < len(items) - 1 and low_mass + items[low][1] < resolution:
        low_mass += items[low][1]
        low += 1
    high, high_mass = len(items), 0.0
    while high - 1 > low and high_mass + items[high - 1][1] < resolution:
        high_mass += items[high - 1][1]
        high -= 1
    rows = [(str(o), p, False) for o, p in items[low:high]]
    if low and low_mass > 0:
        rows.insert(0, (f"≤ {numbers[low - 1]}", low_mass, True))
    if high < len(items) and high_mass > 0:
        rows.append((f"≥ {numbers[high]}", high_mass, True))
    return rows


def format_numbers(frame: "pd.DataFrame | Table", number_format: NumberFormat | None = None,
                   columns=None) -> "pd.DataFrame | Table":
    """A copy of ``frame`` with its float columns (or ``columns``) written as text.

    The index becomes ordinary leading columns, and MultiIndex headers are joined with
    `` / `` (as :func:`workbench.analysis.side_by_side` makes them), so every renderer sees
    one flat header row. A :class:`~workbench.results.table.Table` gives a Table of text
    (its probabilities, the float cells, formatted; an empty cell as ``""``).

    Example:
        >>> import pandas as pd
        >>> format_numbers(pd.DataFrame({"p": [0.5]}), NumberFormat("digits", 2))["p"].tolist()
        ['0.50']
        >>> format_numbers(Table(("rung", "p"), (("Easy", 0.5), ("Hard", None)))).rows
        (('Easy', '50.0%'), ('Hard', ''))
    """
    number_format = number_format or NumberFormat()
    if isinstance(frame, Table):
        return _table_text(frame, number_format, columns)
    import pandas as pd  # lazy: pandas
    flat = flatten(frame)
    chosen = (list(columns) if columns is not None
              else [c for c in flat.columns if pd.api.types.is_float_dtype(flat[c])])
    out = flat.astype(object)
    for column in chosen:
        out[column] = [number_format.text(v) for v in flat[column]]
    # Empty where nothing is (None, NaN); a rung *named* "None" or "nan" keeps its name.
    missing = out.isna()
    return out.astype(str).mask(missing, "")


def _table_text(table: Table, number_format: NumberFormat, columns=None) -> Table:
    """A Table's cells as text, as :func:`format_numbers` writes a DataFrame's."""
    chosen = set(table.columns if columns is None else columns)

    def text(name: str, value) -> str:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return ""
        if name in chosen and (isinstance(value, (float, np.floating)) or columns is not None):
            return number_format.text(value)
        return str(value)
    return Table(tuple(str(c) for c in table.columns),
                 tuple(tuple(text(name, value) for name, value in zip(table.columns, row))
                       for row in table.rows))


def flatten(frame: pd.DataFrame) -> pd.DataFrame:
    """Index as leading columns (unless a plain 0..n-1 range), headers joined with ``" / "``."""
    import pandas as pd  # lazy: pandas
    out = frame.copy()
    plain_index = isinstance(out.index, pd.RangeIndex) and out.index.name is None
    if isinstance(out.columns, pd.MultiIndex):
        out.columns = [" / ".join(str(p) for p in parts if str(p)) for parts in out.columns]
    else:
        out.columns = [str(c) for c in out.columns]
    if not plain_index:
        names = [n if n is not None else "" for n in out.index.names]
        out.index = out.index.set_names([n or f"level_{i}" for i, n in enumerate(names)])
        out = out.reset_index()
        out.columns = [("" if c.startswith("level_") and c[6:].isdigit() else c) for c in out.columns]
    return out


# "_" inside a word (p_pass, free_successes) is markup in neither language: left as written.
_INNER_UNDERSCORE = r"(?<=[^\W_])_(?=[^\W_])"
_RST_SPECIAL = re.compile(r"([\\*`|]|(?!" + _INNER_UNDERSCORE + r")_)")
# Markdown inline markup a cell's text could start by accident: emphasis, code, links,
# strikethrough, the pipe that ends a cell, an HTML tag or an entity such as &amp;.
_MD_SPECIAL = re.compile(r"([\\`*\[\]|~]|(?!" + _INNER_UNDERSCORE + r")_)|<(?=[A-Za-z/!?])|&(?=#?\w+;)")


def md_escape(text: str) -> str:
    r"""A Markdown table cell that reads as the literal text it holds: inline markup is
    backslash-escaped (``*Average*`` stays ``*Average*``, not *Average*), a ``|`` no longer
    ends the cell, and a line break becomes a space (it would end the table's row).

    Example:
        >>> print(md_escape("Miss | *bad* `x`"))
        Miss \| \*bad\* \`x\`
        >>> md_escape("< 0.1%")
        '< 0.1%'
    """
    text = re.sub(r"\s*[\r\n]+\s*", " ", text)
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), text)


def rst_escape(text: str) -> str:
    """Escape inline-markup characters so a cell reads as the literal text it holds."""
    # A line break would end a list-table item or csv-table row (its next line falls out of
    # the directive's indented body): a space, as in a Markdown cell.
    text = _RST_SPECIAL.sub(r"\\\1", re.sub(r"\s*[\r\n]+\s*", " ", text))
    # A cell that starts like a list item or option would be parsed as one; escape its lead.
    return "\\" + text if re.match(r"^([-+•]\s|\d+[.)]\s|#\.)", text) else text


def _directive(name: str, title: str | None, options: dict[str, str], body: list[str]) -> str:
    lines = [f".. {name}::" + (f" {title}" if title else "")]
    lines += [f"   :{key}: {value}" for key, value in options.items()]
    lines.append("")
    lines += [("   " + line) if line else "" for line in body]
    return "\n".join(lines)


def render_table(frame: "pd.DataFrame | Table", fmt: str = "rst-grid",
                 number_format: NumberFormat | None = None, *, title: str | None = None) -> str:
    """``frame`` rendered as ``rst-grid``, ``rst-list``, ``rst-csv``, ``md``, ``csv``, ``html`` or
    ``text`` (plain columns for a terminal).

    Args:
        frame: any DataFrame, or a :class:`~workbench.results.table.Table`; floats are
            formatted by ``number_format`` (default ``66.7%``; ``< 0.1%`` / ``> 99.9%`` mark
            values that only round to 0% / 100%, except in CSV).
        fmt: one of :data:`TABLE_FORMATS`.
        number_format: how to write probabilities.
        title: the directive title for ``rst-list`` / ``rst-csv`` (ignored by the others).

    Returns:
        The table as text, ending without a newline.

    Example:
        >>> import pandas as pd
        >>> print(render_table(pd.DataFrame({"Ob": [1], "B3": [0.875]}), "rst-list"))
        .. list-table::
           :header-rows: 1
        <BLANKLINE>
           * - Ob
             - B3
           * - 1
             - 87.5%
    """
    if fmt not in TABLE_FORMATS:
        raise WorkbenchError(f"format got {fmt!r}; allowed: " + ", ".join(TABLE_FORMATS))
    if not isinstance(frame, Table):
        import pandas as pd  # lazy: pandas
        if not isinstance(frame, pd.DataFrame):
            raise WorkbenchError(f"frame got a {type(frame).__name__}; allowed: a pandas "
                                 "DataFrame or a workbench Table")
    if fmt == "csv":  # spreadsheets read "0.0%" as a number, "< 0.1%" as text
        number_format = replace(number_format or NumberFormat(), marks=False)
    text = format_numbers(frame, number_format)
    if isinstance(text, Table):
        header, rows = list(text.columns), [list(row) for row in text.rows]
    else:
        header, rows = list(text.columns), text.values.tolist()
    if not header:
        raise WorkbenchError("the table has no columns to export")
    if fmt == "csv" and isinstance(text, Table):
        buffer = io.StringIO()
        import csv   # lazy: csv (only the csv format needs it)
        csv.writer(buffer, lineterminator="\n").writerows([header, *rows])
        return buffer.getvalue().rstrip("\n")
    if fmt == "csv":
        return text.to_csv(index=False, lineterminator="\n").rstrip("\n")
    if fmt == "html":
        frame = text.frame() if isinstance(text, Table) else text
        return frame.to_html(index=False, border=0, classes="workbench-table", escape=True)
    if fmt == "text":
        return layout(header, rows, "simple")
    if fmt == "md":
        return layout([md_escape(h) for h in header], [[md_escape(v) for v in row] for row in rows],
                      "pipe")
    escaped_header = [rst_escape(h) for h in header]
    escaped_rows = [[rst_escape(v) for v in row] for row in rows]
    if fmt == "rst-grid":
        return layout(escaped_header, escaped_rows, "grid")
    if fmt == "rst-list":
        body = []
        for row in [escaped_header, *escaped_rows]:
            for i, value in enumerate(row):
                # An empty cell still needs its bullet; a lone "-" would read as an empty item.
                body.append(("* - " if i == 0 else "  - ") + value if value else
                            ("* -" if i == 0 else "  -"))
        return _directive("list-table", title, {"header-rows": "1"}, body)
    import csv   # lazy: csv (only the csv formats need it)

    buffer = io.StringIO()
    csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows([escaped_header, *escaped_rows])
    return _directive("csv-table", title, {"header-rows": "1"}, buffer.getvalue().splitlines())
