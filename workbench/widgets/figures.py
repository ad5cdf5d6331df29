"""The explorer's pure figure function: :class:`ExplorerSettings` in, a plotly figure out.

Nothing is drawn here: the settings are handed to the one figure layer
(:mod:`workbench.figures`), so the explorer, the notebooks, the report and static exports
share one template and one palette. Tests compare the frames and traces with
:func:`workbench.check`; the explorer calls :func:`figure` on every change.
"""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from .. import figures as _figures
from .settings import ExplorerSettings, SettingsError

EXPLORER_HEIGHT = 560
"""The explorer's chart height in pixels (explicit, so JupyterLab and Voila keep it)."""
EXPLORER_WIDTH = 520
"""The explorer's chart width in pixels: the live chart does not follow its container's
width (it would draw 700 px wide whatever the room), so it gets a width that fits beside
the 430 px controls in a JupyterLab notebook with the file browser open."""
#: One legend place for every view, every key of it set: beside the plot, top right, outside
#: the plot area (plotly widens the right margin to hold it). Switching views then never
#: moves the legend, and no view's legend can keep another view's position: a legend below
#: the plot at a fixed distance covered the x axis title whenever tick labels grew taller.
LEGEND = {"orientation": "v", "x": 1.02, "xanchor": "left", "xref": "paper", "y": 1,
          "yanchor": "top", "yref": "paper", "bgcolor": "rgba(255,255,255,0)",
          "font": {"size": 11}, "itemwidth": 30, "tracegroupgap": 6}
#: The same margins in every view (the legend and tick labels push them further as needed).
MARGIN = {"t": 80, "r": 10, "b": 60, "l": 64, "autoexpand": True}


def _options(settings: ExplorerSettings) -> dict:
    return {"method": settings.method, "trials": settings.trials, "seed": settings.seed}


def _lines(settings: ExplorerSettings) -> list[_figures.Line]:
    """The entries with the explorer's legend labels (see :meth:`ExplorerSettings.labels`)."""
    return [_figures.Line(label, entry.system, entry.params, entry.rungs)
            for entry, label in zip(settings.entries, settings.labels())]


def curve_frame(settings: ExplorerSettings) -> pd.DataFrame:
    """P(pass) per entry, rung and pool size: columns label, system, pool, rung, p_pass, stderr.

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> s = ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),), pool_sizes=(1, 2))
        >>> [round(p, 4) for p in curve_frame(s)["p_pass"]]
        [0.3333, 0.5556]
    """
    return _figures.curve_frame(_lines(settings), settings.pool_sizes, **_options(settings))


def difference_frame(settings: ExplorerSettings) -> pd.DataFrame:
    """Each entry's P(pass) minus the baseline entry's (see
    :func:`workbench.figures.difference_frame`; differences as fractions).

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> s = ExplorerSettings((EntrySettings("uwr"), EntrySettings("uwr", {"favor": 1})),
        ...                      view="difference", pool_sizes=(1,))
        >>> frame = difference_frame(s)
        >>> round(frame.loc[frame.rung == "Normal", "difference"].item(), 4)
        0.1667
    """
    return _figures.difference_frame(_lines(settings), settings.baseline, settings.pool_sizes,
                                     **_options(settings))


def outcome_frame(settings: ExplorerSettings) -> pd.DataFrame:
    """One check per entry and rung: its tiers, else its outcomes (see
    :func:`workbench.figures.outcome_frame`).

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> s = ExplorerSettings((EntrySettings("erzahlspiel"),), view="outcomes")
        >>> list(dict.fromkeys(outcome_frame(s)["column"]))
        ['black', 'red', 'yellow', 'green', 'blue']
    """
    return _figures.outcome_frame(_lines(settings), **_options(settings))


#: The default pool range runs until every curve has settled: within this of where it ends up
#: (its value at :data:`SETTLE_CAP` dice), and never shorter than :data:`SETTLE_MIN` dice.
SETTLE_TOLERANCE = 0.05
SETTLE_CAP = 40
SETTLE_MIN = 6


def settled_pools(settings: ExplorerSettings) -> tuple[int, ...]:
    """Pools 1 to the first size at which every curve of ``settings`` (its entries, knobs and
    rungs) is within :data:`SETTLE_TOLERANCE` of its value at :data:`SETTLE_CAP` dice: the
    default x axis, so no half of the chart lies flat at 100%.

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> settled_pools(ExplorerSettings((EntrySettings("uwr", {"dice": 4}),)))[-1]
        17
        >>> settled_pools(ExplorerSettings((EntrySettings("erzahlspiel"),)))[-1]
        6
    """
    frame = _figures.curve_frame(_lines(settings), range(1, SETTLE_CAP + 1))
    curves = frame.pivot_table(index="pool", columns=["label", "rung"], values="p_pass")
    if curves.empty:
        return tuple(range(1, SETTLE_MIN + 1))
    # A curve whose pool parameter ends early (Risk: 3 dice) holds its last value from there.
    curves = curves.reindex(range(1, SETTLE_CAP + 1)).ffill().bfill()
    end = curves.loc[SETTLE_CAP]
    for size in range(SETTLE_MIN, SETTLE_CAP + 1):
        if ((curves.loc[size] - end).abs() <= SETTLE_TOLERANCE).all():
            return tuple(range(1, size + 1))
    return tuple(range(1, SETTLE_CAP + 1))


def curve_figure(settings: ExplorerSettings, frame: pd.DataFrame | None = None) -> go.Figure:
    """Success curves: one line per entry and rung, P(pass) against dice in the pool."""
    return _figures.curve_figure(_lines(settings), settings.pool_sizes, frame=frame,
                                 height=EXPLORER_HEIGHT, by_system=True, **_options(settings))


def difference_figure(settings: ExplorerSettings, frame: pd.DataFrame | None = None) -> go.Figure:
    """Each entry's success curve minus the baseline's, in percentage points."""
    return _figures.difference_figure(_lines(settings), settings.baseline, settings.pool_sizes,
                                      frame=frame, height=EXPLORER_HEIGHT, by_system=True,
                                      **_options(settings))


def outcomes_figure(settings: ExplorerSettings, frame: pd.DataFrame | None = None) -> go.Figure:
    """One stacked column per entry and rung: tiers (or outcomes) from worst (bottom) up."""
    frame = outcome_frame(settings) if frame is None else frame
    return _figures.stacked_outcomes_figure(frame, height=EXPLORER_HEIGHT, **_options(settings))


def figure(settings: ExplorerSettings) -> go.Figure:
    """The explorer's figure for these settings (the view picks curve, outcomes or difference).

    Example:
        >>> from workbench.widgets.settings import EntrySettings
        >>> fig = figure(ExplorerSettings((EntrySettings("erzahlspiel"),), view="outcomes"))
        >>> len(fig.data), list(fig.data[0].x)
        (6, ['black', 'red', 'yellow', 'green', 'blue'])
    """
    if not isinstance(settings, ExplorerSettings):
        raise SettingsError("settings", settings, "ExplorerSettings, such as "
                            "ExplorerSettings((EntrySettings('uwr'),))")
    draw = {"curve": curve_figure, "outcomes": outcomes_figure,
            "difference": difference_figure}[settings.view]
    fig = draw(settings)
    fig.layout.width = EXPLORER_WIDTH
    title = fig.layout.legend.title.text or ""
    order = "reversed" if settings.view == "outcomes" else "normal"  # best on top
    fig.layout.legend = {**LEGEND, "traceorder": order, "title": {"text": title}}
    fig.layout.margin = MARGIN
    return fig
