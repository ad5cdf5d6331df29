"""Export the explorer's current view: the figure as PNG (print size) or SVG, its numbers as
CSV, Markdown or reStructuredText tables. Every file is written whole or not at all
(:mod:`workbench.files`).

The tables hold exactly what the figure draws, from the same numbers (:mod:`.data`): the
success curves as one table per panel (rows: the pool, columns: entry · rung), one check as
outcomes by column, the distribution views as each outcome's chance, at least and at most,
with the summary line above. CSV is one long table (one row a number), for spreadsheets.

Example:
    >>> from workbench.widgets.settings import EntrySettings, ExplorerSettings
    >>> s = ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),), pool_sizes=(1, 2))
    >>> print(view_text(s, "md"))
    **P(pass), exact (dice in the pool)**
    <BLANKLINE>
    | dice in the pool   | uwr · Normal   |
    |:-------------------|:---------------|
    | 1                  | 33.3%          |
    | 2                  | 55.6%          |
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import files
from ..errors import WorkbenchError
from ..export.tables import NumberFormat, render_table
from ..figures.pieces import method_note
from .axes import axis_value_text
from .checks import outcome_name, summary, _numeric_name
from .curves import _pairs, entry_axes, panels
from .data import entry_checks, entry_curves, entry_spread
from .figures import figure_json
from .settings import AS_SET, ExplorerSettings

#: Export formats by file suffix: images of the figure, tables of its numbers.
FORMATS = {".png": "png", ".svg": "svg", ".csv": "csv", ".md": "md", ".rst": "rst-grid"}
#: Print size: 800 px wide (the workbench's figure width) at 3 pixels per pixel for PNG, a
#: 2400 px image: 8 inches at 300 dpi.
PRINT_WIDTH = 800
PNG_SCALE = 3
PERCENT = NumberFormat("percent", 1)


def view_tables(settings: ExplorerSettings) -> list[tuple[str, pd.DataFrame]]:
    """The numbers of the view as ``(caption, table)`` pairs, probabilities as fractions
    (differences as percentage-point text)."""
    if settings.view in ("curve", "difference"):
        out = _curve_tables(settings)
    elif settings.view == "outcomes":
        out = _outcome_tables(settings)
    else:
        out = _spread_tables(settings)
    if not out:
        raise WorkbenchError("this view has no numbers to export; allowed: another view, or "
                             "entries on the same kind of pool for the difference view")
    return out


def _curve_tables(settings: ExplorerSettings) -> list[tuple[str, pd.DataFrame]]:
    """The success curves (or their differences from the baseline), one table per panel: a
    row a pool, a column an entry · rung."""
    labels = settings.labels()
    options = (settings.method, settings.trials, settings.seed)
    how = method_note(*options)
    view = settings.view
    out = []
    axes = entry_axes(settings)
    if view == "difference" and len(settings.entries) < 2:
        raise WorkbenchError("the difference view needs two entries (a variant and its "
                             "baseline); allowed: add a second system, or export another view")
    base = settings.baseline
    base_curves = {c.rung: c for c in entry_curves(settings.entries[base], axes[base], *options)}
    for members in panels(axes).values():
        axis = axes[members[0]]
        if view == "difference":
            members = [i for i in members if i != base and axes[i].key == axes[base].key]
        columns: dict[str, dict] = {}
        for index in members:
            curves = entry_curves(settings.entries[index], axes[index], *options)
            pairs = _pairs(tuple(c.rung for c in curves), tuple(base_curves)) if view == "difference" else {}
            for curve in curves:
                if view == "curve":
                    columns[f"{labels[index]} · {curve.rung}"] = dict(zip(curve.x, curve.y))
                elif curve.rung in pairs:
                    theirs = dict(zip(base_curves[pairs[curve.rung]].x, base_curves[pairs[curve.rung]].y))
                    columns[f"{labels[index]} · {curve.rung} − {labels[base]} · {pairs[curve.rung]}"] = {
                        x: f"{100 * (y - theirs[x]):+.2f} pp" for x, y in zip(curve.x, curve.y) if x in theirs}
        if not columns:
            continue
        xs = list(dict.fromkeys(x for column in columns.values() for x in column))
        frame = pd.DataFrame({axis.title: [axis_value_text(axis, x) if axis.kind != "dice" else x
                                           for x in xs],
                              **{name: [column.get(x) for x in xs] for name, column in columns.items()}})
        what = "P(pass)" if view == "curve" else "P(pass) minus the baseline"
        out.append((f"{what}, {how} ({axis.title})", frame))
    return out


def _outcome_tables(settings: ExplorerSettings) -> list[tuple[str, pd.DataFrame]]:
    """One check: per entry a row an outcome (worst first), a column a rung."""
    labels = settings.labels()
    options = (settings.method, settings.trials, settings.seed)
    out = []
    for index, entry in enumerate(settings.entries):
        checks = entry_checks(entry, *options)
        order = list(dict.fromkeys(o for check in checks for o in check.outcomes))
        if all(isinstance(o, int) for o in order):
            order = sorted(order)
        name = _numeric_name(settings, index)
        frame = pd.DataFrame({"outcome": [outcome_name(o, checks[0].kind, name) for o in order]})
        for check in checks:
            column = labels[index] if check.rungs == (AS_SET,) else check.name
            got = dict(zip(check.outcomes, check.probabilities))
            frame[column] = [got.get(o, 0.0) for o in order]
        out.append((f"One check: {labels[index]}, {method_note(*options)}", frame))
    return out


def _spread_tables(settings: ExplorerSettings) -> list[tuple[str, pd.DataFrame]]:
    """The distribution views: per entry each outcome's chance, at least and at most, the
    summary line in the caption."""
    labels = settings.labels()
    options = (settings.method, settings.trials, settings.seed)
    out = []
    for index, entry in enumerate(settings.entries):
        spread = entry_spread(entry, *options)
        frame = pd.DataFrame({"outcome": [str(o) for o in spread.outcomes],
                              "probability": list(spread.probabilities),
                              "at least": list(spread.at_least()),
                              "at most": list(spread.at_most())})
        out.append((f"{labels[index]}, {method_note(*options)}: {summary(spread)}", frame))
    return out


def view_long(settings: ExplorerSettings) -> pd.DataFrame:
    """The view's numbers as one long table (one row a number): caption, then each column."""
    rows = []
    for caption, frame in view_tables(settings):
        key = frame.columns[0]
        for row in frame.to_dict("records"):   # each value as it is (no common dtype)
            for column in frame.columns[1:]:
                rows.append({"table": caption, key if key == "outcome" else "at": row[key],
                             "column": column, "value": row[column]})
    return pd.DataFrame(rows)


def view_text(settings: ExplorerSettings, fmt: str) -> str:
    """The view's tables as text: ``md``, ``rst-grid`` or ``csv``."""
    if fmt == "csv":
        return render_table(view_long(settings), "csv", NumberFormat("digits", 6)) + "\n"
    parts = []
    for caption, frame in view_tables(settings):
        heading = f"**{caption}**"
        parts.append(heading + "\n\n" + render_table(frame, fmt, PERCENT))
    return "\n\n".join(parts)


def export_view(settings: ExplorerSettings, path: "str | Path", option: str = "file") -> Path:
    """Write the view to ``path``; its suffix picks the format (:data:`FORMATS`): ``.png`` at
    print size, ``.svg``, ``.csv``, ``.md`` or ``.rst``.

    Example:
        >>> import tempfile, pathlib
        >>> from workbench.widgets.settings import EntrySettings, ExplorerSettings
        >>> out = pathlib.Path(tempfile.mkdtemp()) / "odds.csv"
        >>> s = ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),), pool_sizes=(1,))
        >>> export_view(s, out).read_text().splitlines()[1]
        '"P(pass), exact (dice in the pool)",1,uwr · Normal,0.333333'
    """
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise WorkbenchError(f"{option} {str(path)!r}: allowed suffixes: " + ", ".join(FORMATS))
    files.check_target(path, option, example="explorer" + suffix)
    fmt = FORMATS[suffix]
    if fmt in ("png", "svg"):
        import plotly.graph_objects as go  # lazy: plotly
        from ..figures import write_figure  # lazy: kaleido
        fig = go.Figure(figure_json(settings))
        fig.update_layout(width=PRINT_WIDTH)
        return Path(write_figure(fig, path, scale=PNG_SCALE if fmt == "png" else 1))
    return files.write_text(path, view_text(settings, fmt) + ("" if fmt == "csv" else "\n"), option)
