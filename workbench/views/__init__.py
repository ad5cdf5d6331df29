"""How results are shown to people in notebooks and tables (presentation floor).

Results are plain data (:mod:`workbench.results`); this package gives every result type its
three views, ``to_frame()``, ``_repr_html_()`` and ``repr`` (:func:`to_frame`, :func:`html`,
:func:`text`), registering them with :func:`workbench.results.rich.register_views` when it is
imported (``import workbench`` does so with the first name used), and writes the report's and
the notebooks' tables in words (:func:`readable_table`).

What each type shows is registered by type (:mod:`.shown`): the results floor's types in
:mod:`.results`; stateful play and solved ladders in :mod:`.analyses`, loaded with the first of
those results shown.

The numbers follow the number rule (:mod:`workbench.numbers`): probabilities at a fixed
precision, ``< 0.1%`` for one that only rounds to 0, tails that together round to 0 cut into
one ``≥ k`` / ``≤ k`` row (:func:`~workbench.export.tables.cut_tails`).

Example:
    >>> import workbench
    >>> print(text(workbench.check("uwr", dice=1, target=1)))
    CheckResult uwr · exact · dice=1, target=1
      P(pass) 33.33%; mean 0.333333
      0: 66.67%, 1: 33.33%
"""
from __future__ import annotations

import html as html_lib

from ..results.rich import register_views
from . import results as _results  # noqa: F401  (the results floor's types register here)
from . import shown
from .readable import READABLE_NAMES, readable, readable_table  # noqa: F401 (public here)

__all__ = ["READABLE_NAMES", "html", "readable", "readable_table", "text", "to_frame"]


def _registered(obj) -> None:
    """The views of the analyses' results, registered with the first one shown (a result of
    theirs exists only once its module is loaded)."""
    if not shown.is_shown(obj):
        from . import analyses  # noqa: F401  # lazy: stateful, ladders (their results' views)


def to_frame(obj):
    """The tidy DataFrame of a result (pandas is imported here, on first use)."""
    _registered(obj)
    return shown.frame(obj)


def html(obj) -> str:
    """The notebook view of a result: its name, key figures, and compact tables."""
    _registered(obj)
    subtitle, figures = shown.facts(obj)
    parts = [f'<div class="workbench-result"><strong>{type(obj).__name__}</strong>']
    if subtitle:
        parts.append(f" <span style=\"color:#555\">{html_lib.escape(subtitle)}</span>")
    if figures:
        parts.append('<table class="workbench-facts"><tr>'
                     + "".join(f"<th>{html_lib.escape(k)}</th>" for k, _ in figures) + "</tr><tr>"
                     + "".join(f"<td>{html_lib.escape(v)}</td>" for _, v in figures) + "</tr></table>")
    tables = shown.tables(obj)
    if tables:
        parts.append('<div style="display:flex;gap:2em;align-items:flex-start">')
        for caption, frame, more in tables:
            body = frame.to_html(index=False, border=0, escape=True, classes="workbench-table")
            note = (f"<div style=\"color:#555\">… {more} more rows in to_frame()</div>"
                    if more else "")
            parts.append(f"<div><em>{html_lib.escape(caption)}</em>{body}{note}</div>")
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


def text(obj) -> str:
    """The plain-text view of a result (its ``repr``): name, key figures, and for
    distributions the outcomes with their probabilities."""
    _registered(obj)
    subtitle, figures = shown.facts(obj)
    lines = [type(obj).__name__ + (f" {subtitle}" if subtitle else "")]
    if figures:
        lines.append("  " + "; ".join(f"{k} {v}" for k, v in figures))
    lines += shown.text_lines(obj)
    return "\n".join(lines)


register_views(to_frame=to_frame, html=html, text=text)
