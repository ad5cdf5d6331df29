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
from .settings import ExplorerSettings

EXPLORER_HEIGHT = 560
"""The explorer's chart height in pixels (explicit, so JupyterLab and Voila keep it)."""
EXPLORER_WIDTH = 520
"""The explorer's chart width in pixels: the live chart does not follow its container's
width (it would draw 700 px wide whatever the room), so it gets a width that fits beside
the 430 px controls in a JupyterLab notebook with the file browser open."""
#: The legend goes under the plot: the chart sits beside the controls, so width is scarce.
_LEGEND_BELOW = {"orientation": "h", "yanchor": "top", "y": -0.16, "xanchor": "left", "x": 0,
                 "title": {"text": ""}}


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


def curve_figure(settings: ExplorerSettings, frame: pd.DataFrame | None = None) -> go.Figure:
    """Success curves: one line per entry and rung, P(pass) against dice in the pool."""
    return _figures.curve_figure(_lines(settings), settings.pool_sizes, frame=frame,
                                 height=EXPLORER_HEIGHT, **_options(settings))


def difference_figure(settings: ExplorerSettings, frame: pd.DataFrame | None = None) -> go.Figure:
    """Each entry's success curve minus the baseline's, in percentage points."""
    return _figures.difference_figure(_lines(settings), settings.baseline, settings.pool_sizes,
                                      frame=frame, height=EXPLORER_HEIGHT, **_options(settings))


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
    draw = {"curve": curve_figure, "outcomes": outcomes_figure,
            "difference": difference_figure}[settings.view]
    fig = draw(settings)
    fig.layout.width = EXPLORER_WIDTH
    if settings.view != "outcomes":  # stacked columns keep their legend beside, best on top
        fig.layout.legend = _LEGEND_BELOW
        fig.layout.margin = {"t": 80, "r": 16, "b": 40, "l": 64}
    return fig
