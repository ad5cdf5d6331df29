"""Widgets and figures for exploring systems in a notebook (plotly + ipywidgets).

Not imported by ``import workbench``: importing this package loads plotly and ipywidgets.

* :func:`figure` (pure): :class:`ExplorerSettings` in, a plotly figure out.
* :func:`explorer`: the interactive explorer; display it in a notebook cell.

Example:
    >>> from workbench.widgets import EntrySettings, ExplorerSettings, figure
    >>> fig = figure(ExplorerSettings((EntrySettings("uwr", rungs=("Normal",)),), pool_sizes=(1, 2)))
    >>> [round(p, 4) for p in fig.data[0].y]
    [0.3333, 0.5556]
"""
from ._explorer import Explorer, explorer, show_figure
from .figures import (curve_frame, curve_figure, difference_figure, difference_frame, figure,
                      outcome_frame, outcomes_figure)
from .settings import AS_SET, EntrySettings, ExplorerSettings, SettingsError

__all__ = ["Explorer", "explorer", "show_figure", "figure", "curve_frame", "curve_figure",
           "difference_frame", "difference_figure", "outcome_frame", "outcomes_figure",
           "AS_SET", "EntrySettings", "ExplorerSettings", "SettingsError"]
