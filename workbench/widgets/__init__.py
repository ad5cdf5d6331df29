"""Widgets and figures for exploring systems in a notebook (plotly + ipywidgets).

Not imported by ``import workbench``: importing this package loads plotly and ipywidgets.

* :func:`figure_json` / :func:`figure` (pure): :class:`ExplorerSettings` in, a figure out
  (plotly JSON, or a ``go.Figure``).
* :func:`explorer`: the interactive explorer; display it in a notebook cell.
* :func:`export_view`: the current view as PNG, SVG, CSV, Markdown or RST.

Example:
    >>> from workbench.widgets import EntrySettings, ExplorerSettings, figure
    >>> fig = figure(ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),), pool_sizes=(1, 2)))
    >>> [round(p, 4) for p in fig.data[0].y]
    [0.3333, 0.5556]
"""
from ._explorer import Explorer, explorer
from .chart import Chart
from .exporting import export_view, view_tables
from .figures import (curve_frame, difference_frame, figure, figure_json, outcome_frame,
                      settled_pools)
from .settings import AS_SET, VIEWS, EntrySettings, ExplorerSettings, SettingsError

__all__ = ["Explorer", "explorer", "Chart", "figure", "figure_json", "curve_frame",
           "difference_frame", "outcome_frame", "settled_pools", "export_view", "view_tables",
           "AS_SET", "VIEWS", "EntrySettings", "ExplorerSettings", "SettingsError"]
