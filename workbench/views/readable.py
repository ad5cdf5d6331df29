"""Tables as the report and the notebooks show them: probabilities as percentages, columns
named in words (presentation floor).

A designer reads ``P(pass) with Drama Dice`` and ``49.4%``, not ``pass_with`` and
``0.4944``: :func:`readable_table` writes a DataFrame of numbers as such a table of text, and
:func:`readable` names a single column.

Example:
    >>> readable("p_pass_with"), readable("mean_pulled")
    ('P(pass) with', 'mean dice pulled')
"""
from __future__ import annotations

import functools
import re

import numpy as np

from ..export.tables import NumberFormat

#: Column names that hold probabilities (shown as percentages).
PROBABILITY_NAME = re.compile(r"^(p_|pass|probability$|cumulative$|stderr$|without$|with$|"
                              r"any YES$|P\(|\d+ dic?e$)|share$|^(wanted|achieved)( P\(.*\))?$")

_READABLE = {"pass_without": "P(pass) without Drama Dice", "pass_with": "P(pass) with Drama Dice",
             "pass_without_burning": "P(pass) without burning",
             "pass_with_burning": "P(pass) with burning",
             "pass_with_stderr_bound": "stderr bound", "mean_pulled": "mean dice pulled",
             "empty_share": "checks with an empty pool", "pool_max": "pool maximum",
             "burns_per_scene": "burns per scene", "mean_pool": "mean pool before",
             "p_empty": "P(pool empty)", "short_rest_before": "short rest before"}


def readable(name) -> str:
    """A column name as a designer reads it: ``p_pass_with`` -> ``P(pass) with``."""
    name = str(name)
    if name in _READABLE:
        return _READABLE[name]
    if name.startswith("p_pass_"):
        return "P(pass) " + name[7:].replace("_", " ")
    if name.startswith("p_"):
        return f"P({name[2:].replace('_', ' ')})"
    return name.replace("_", " ")


#: Column names a designer reads (the report's and the notebooks' tables share them).
READABLE_NAMES = {
    "pass_without": "P(pass) without Drama Dice", "pass_with": "P(pass) with Drama Dice",
    "pass_without_burning": "P(pass) without burning", "pass_with_burning": "P(pass) with burning",
    "pass_with_stderr_bound": "± (standard error, at most)", "mean_pulled": "dice pulled per check",
    "empty_share": "checks finding the pool empty", "pool_max": "pool maximum",
    "checks": "checks per campaign", "trials": "campaigns simulated", "seed": "seed",
    "without": "without Drama Dice", "with": "with Drama Dice", "wanted": "wanted",
    "achieved": "achieved", "error": "off by", "reachable": "within tolerance",
    "rung": "rung", "setting": "setting", "note": "note", "die": "die",
    "refill_rate": "refill rate", "players": "players", "tier": "tier",
    "burns_per_scene": "burns per scene", "mean_pool": "mean pool before",
    "p_empty": "P(pool empty)", "short_rest_before": "short rest before",
    "all_within": "within the band at every pool", "share": "share of pools in the band",
    "least": "least P(pass)", "greatest": "greatest P(pass)", "count": "pools",
    "outside": "outside the band", "p_pass": "P(pass)",
}


def readable_table(frame, *, percent=None, pp=(), stderr=(), digits=(), names=None,
                   index: bool = True):
    """A table as the report and the notebooks show it: probabilities as percentages
    (``< 0.1%`` for a chance that only rounds to 0), differences of probabilities in
    percentage points (``+1.2 pp``), standard errors in points (``0.35 pp``), whole counts
    with thousands separators (``20,000``), ``yes``/``no``, columns named in words.

    Args:
        frame: a pandas DataFrame (or Series).
        percent: the probability columns; ``None`` finds them by name (``p_pass``,
            ``pass_with``, ``share``, ...); ``True``: every number is a probability.
        pp, stderr, digits: columns of differences, of standard errors, and of numbers shown
            with two decimals.
        names: column names to use instead of :data:`READABLE_NAMES`.
        index: keep the frame's index (its name made readable too).

    Returns:
        A DataFrame of text, ready to display or export.

    Example:
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"pass_with": [0.4944], "mean_pulled": [1.3333],
        ...                       "checks": [10.0], "error": [-0.0125]})
        >>> readable_table(frame, pp=["error"]).iloc[0].tolist()
        ['49.4%', '1.33', '10', '-1.2\\xa0pp']
        >>> list(readable_table(frame, pp=["error"]).columns)
        ['P(pass) with Drama Dice', 'dice pulled per check', 'checks per campaign', 'off by']
    """
    import pandas as pd  # lazy: slow import

    out = frame.to_frame() if isinstance(frame, pd.Series) else frame.copy()
    if not index:
        out = out.reset_index(drop=True)
    words = {**READABLE_NAMES, **(names or {})}
    for column in out.columns:
        how = _column_kind(column, percent, pp, stderr, digits)
        out[column] = _cells_as_text(column, out[column], how)
    out.columns = _renamed(out.columns, words)
    if not index:  # no row numbers on the page: an index of blanks shows as nothing
        out.index = pd.Index([""] * len(out))
    else:
        out.index = out.index.set_names([None if n is None else words.get(str(n), readable(n))
                                         for n in out.index.names])
    return _whole_text_frame()(out)


def _column_kind(column, percent, pp, stderr, digits) -> str:
    """How a column's numbers are written: ``"percent"``, ``"pp"`` (differences),
    ``"stderr"``, ``"digits"`` (two decimals) or ``""`` (plain counts and numbers): as the
    caller says, else by the column's name."""
    key = column[-1] if isinstance(column, tuple) else column
    name = str(key).rpartition(": ")[2]  # a sweep's "Normal: p_pass" is a p_pass
    if column in pp or key in pp:
        return "pp"
    if column in stderr or key in stderr:
        return "stderr"
    if column in digits or key in digits:
        return "digits"
    if percent is True or (percent is not None and (column in percent or key in percent)):
        return "percent"
    if percent is None and isinstance(key, str) and name.endswith("stderr"):
        return "stderr"  # the spread of a probability: points, not percent
    if percent is None and isinstance(key, str) and PROBABILITY_NAME.search(name):
        return "percent"
    return ""


#: How each kind of column writes a number (a no-break space keeps a unit with its number).
_WRITERS = {
    "percent": NumberFormat("percent", 1).text,
    "pp": lambda v: f"{100 * float(v):+.1f}\u00a0pp",
    "stderr": lambda v: f"{100 * float(v):.2f}\u00a0pp",
    "digits": lambda v: f"{float(v):,.2f}",
}


def _cells_as_text(column, values, how: str) -> list[str]:
    """A column's cells as text, numbers written as :func:`_column_kind` says."""
    write = _WRITERS.get(how)
    if write is None:
        return [_plain(column, v) for v in values]
    return [write(v) if _is_number(v) else _text(v) for v in values]


@functools.cache
def _whole_text_frame():
    """A DataFrame that shows every cell whole: pandas cuts text at 50 characters
    (``display.max_colwidth``), which would end a ladder's notes in "...". Made on first use
    (pandas loads lazily)."""
    import pandas as pd  # lazy: slow import

    class ReadableFrame(pd.DataFrame):
        @property
        def _constructor(self):
            return ReadableFrame

        def _repr_html_(self):
            with pd.option_context("display.max_colwidth", None):
                return super()._repr_html_()

        def __repr__(self) -> str:
            with pd.option_context("display.max_colwidth", None):
                return super().__repr__()

    ReadableFrame.__qualname__ = "ReadableFrame"
    return ReadableFrame


def _renamed(columns, words):
    import pandas as pd  # lazy: slow import
    if isinstance(columns, pd.MultiIndex):
        return pd.MultiIndex.from_tuples([tuple(words.get(str(p), str(p)) for p in c)
                                          for c in columns])
    def word(name) -> str:
        name = str(name)
        if name in words:
            return words[name]
        head, sep, tail = name.rpartition(": ")  # a sweep's "Normal: p_pass"
        if sep and "_" in tail:
            return f"{head}: {words.get(tail, readable(tail))}"
        return readable(name) if "_" in name else name
    return [word(c) for c in columns]


def _is_number(value) -> bool:
    return (isinstance(value, (int, float, np.integer, np.floating))
            and not isinstance(value, (bool, np.bool_)) and not (value != value))


def _text(value) -> str:
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def _plain(column, value) -> str:
    """A number that is not a probability: whole values as counts (``10``, ``20,000``;
    seeds as they are), others to three significant digits (``1.33``, ``11.6``)."""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if not _is_number(value):
        return _text(value)
    key = column[-1] if isinstance(column, tuple) else column
    if float(value).is_integer():
        return str(int(value)) if str(key) == "seed" else f"{int(value):,}"
    return f"{float(value):,.0f}" if abs(value) >= 100 else f"{float(value):.3g}"
