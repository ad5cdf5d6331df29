"""Any table (a pandas DataFrame) as reStructuredText, Markdown, CSV or HTML, for the docs.

Exports happen in two steps: :func:`format_numbers` turns probabilities into text the way
designers write them (``66.7%``, ``0.667``, ``2/3``), then :func:`render_table` lays the text
out. tabulate draws the grid and pipe tables, pandas writes CSV and HTML; the RST
``list-table`` and ``csv-table`` directives are a thin wrapper around library-rendered rows.

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

import csv
import io
import math
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from ..errors import WorkbenchError
from ..numbers import fixed

if TYPE_CHECKING:  # pandas loads on first use, keeping `import workbench` quick
    import pandas as pd  # lazy: pandas

TABLE_FORMATS = ("rst-grid", "rst-list", "rst-csv", "md", "csv", "html", "text")
NUMBER_STYLES = ("percent", "digits", "fraction")
#: Probabilities this close to 0 or 1 are 0 or 1 (the exact engine's own precision).
FLOAT_NOISE = 1e-12


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
        if self.marks and self.style != "fraction" and 0 < value < 1:
            if min(value, 1 - value) <= FLOAT_NOISE:  # 0 or 1 up to rounding, not a mark
                return self._plain(round(value))
            unit = 2 * self.resolution  # the smallest step shown, as a probability
            if value < self.resolution:
                return "< " + self._plain(unit)
            if value > 1 - self.resolution:
                return "> " + self._plain(1 - unit)
        return self._plain(value)

    def _plain(self, value: float) -> str:
        if self.style in ("percent", "digits"):  # float noise off, halves up: 9.375% -> 9.38%
            return fixed(value, self.digits, percent=self.style == "percent")
        fraction = Fraction(value).limit_denominator(self.max_denominator)
        exact = abs(float(fraction) - value) <= 1e-12
        body = str(fraction.numerator) if fraction.denominator == 1 else str(fraction)
        return body if exact else "≈" + body


def format_numbers(frame: pd.DataFrame, number_format: NumberFormat | None = None,
                   columns=None) -> pd.DataFrame:
    """A copy of ``frame`` with its float columns (or ``columns``) written as text.

    The index becomes ordinary leading columns, and MultiIndex headers are joined with
    `` / `` (as :func:`workbench.analysis.side_by_side` makes them), so every renderer sees
    one flat header row.

    Example:
        >>> import pandas as pd
        >>> format_numbers(pd.DataFrame({"p": [0.5]}), NumberFormat("digits", 2))["p"].tolist()
        ['0.50']
    """
    import pandas as pd  # lazy: pandas
    number_format = number_format or NumberFormat()
    flat = flatten(frame)
    chosen = (list(columns) if columns is not None
              else [c for c in flat.columns if pd.api.types.is_float_dtype(flat[c])])
    out = flat.astype(object)
    for column in chosen:
        out[column] = [number_format.text(v) for v in flat[column]]
    # Empty where nothing is (None, NaN); a rung *named* "None" or "nan" keeps its name.
    missing = out.isna()
    return out.astype(str).mask(missing, "")


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


def render_table(frame: pd.DataFrame, fmt: str = "rst-grid",
                 number_format: NumberFormat | None = None, *, title: str | None = None) -> str:
    """``frame`` rendered as ``rst-grid``, ``rst-list``, ``rst-csv``, ``md``, ``csv``, ``html`` or
    ``text`` (plain columns for a terminal).

    Args:
        frame: any DataFrame; floats are formatted by ``number_format`` (default ``66.7%``;
            ``< 0.1%`` / ``> 99.9%`` mark values that only round to 0% / 100%, except in CSV).
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
    import pandas as pd  # lazy: pandas
    if not isinstance(frame, pd.DataFrame):
        raise WorkbenchError(f"frame got a {type(frame).__name__}; allowed: a pandas DataFrame")
    if fmt == "csv":  # spreadsheets read "0.0%" as a number, "< 0.1%" as text
        number_format = replace(number_format or NumberFormat(), marks=False)
    text = format_numbers(frame, number_format)
    if text.shape[1] == 0:
        raise WorkbenchError("the table has no columns to export")
    header = list(text.columns)
    rows = text.values.tolist()
    if fmt == "csv":
        return text.to_csv(index=False, lineterminator="\n").rstrip("\n")
    if fmt == "html":
        return text.to_html(index=False, border=0, classes="workbench-table", escape=True)
    from tabulate import tabulate  # lazy: slow import
    if fmt == "text":
        return tabulate(rows, headers=header, tablefmt="simple", disable_numparse=True,
                        stralign="left")
    if fmt == "md":
        return tabulate([[md_escape(v) for v in row] for row in rows], headers=[md_escape(h) for h in header],
                        tablefmt="pipe", disable_numparse=True, stralign="left")
    escaped_header = [rst_escape(h) for h in header]
    escaped_rows = [[rst_escape(v) for v in row] for row in rows]
    if fmt == "rst-grid":
        return tabulate(escaped_rows, headers=escaped_header, tablefmt="grid",
                        disable_numparse=True, stralign="left")
    if fmt == "rst-list":
        body = []
        for row in [escaped_header, *escaped_rows]:
            for i, value in enumerate(row):
                # An empty cell still needs its bullet; a lone "-" would read as an empty item.
                body.append(("* - " if i == 0 else "  - ") + value if value else
                            ("* -" if i == 0 else "  -"))
        return _directive("list-table", title, {"header-rows": "1"}, body)
    buffer = io.StringIO()
    csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows([escaped_header, *escaped_rows])
    return _directive("csv-table", title, {"header-rows": "1"}, buffer.getvalue().splitlines())
